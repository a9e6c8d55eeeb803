"""The README audit's command-line finding: an option or argument written before the command."""
from __future__ import annotations

from cli_run import run_cli  # noqa: E402


def test_an_option_before_the_command_says_the_command_comes_first(capsys):
    # `eldfall --models-dir models check SCENE` said "unknown command 'models'; did you
    # mean 'move'?", and `eldfall --json los ...` "eldfall los: unrecognized arguments:
    # --json" for an option los takes
    rc, out, err = run_cli(capsys, "--models-dir", "models", "check", "scenes/open.yaml")
    assert rc == 2 and out == ""
    assert err.splitlines() == ["eldfall: the command comes first, then its arguments and options: "
                                "eldfall check ... --models-dir models (got '--models-dir models' before 'check')"]
    rc, out, err = run_cli(capsys, "--json", "los", "scenes/open.yaml", "red-archer", "blue-warden")
    assert rc == 2 and out == ""
    assert err.splitlines() == ["eldfall: the command comes first, then its arguments and options: "
                                "eldfall los ... --json (got '--json' before 'los')"]


def test_a_scene_before_the_command_says_the_command_comes_first(capsys):
    rc, out, err = run_cli(capsys, "scenes/open.yaml", "check")
    assert rc == 2 and out == ""
    assert "did you mean" not in err
    assert err.splitlines() == ["eldfall: the command comes first, then its arguments and options: "
                                "eldfall check ... scenes/open.yaml (got 'scenes/open.yaml' before 'check')"]


def test_the_command_first_still_runs_and_help_and_misspellings_are_unchanged(capsys):
    rc, out, err = run_cli(capsys, "check", "scenes/open.yaml", "--models-dir", "models")
    assert rc == 0 and "valid" in out
    rc, out, _ = run_cli(capsys, "-h", "check")
    assert rc == 0 and "usage: eldfall" in out
    rc, out, err = run_cli(capsys, "chekc", "scenes/open.yaml")
    assert rc == 2 and "unknown command 'chekc'; did you mean 'check'?" in err


def test_check_says_the_token_that_stops_a_game_as_play_does(tmp_path, capsys):
    """A token of a side with no model: `check` used to pass it (a warning) while `play`
    refused it with no line and the models' key; both now give the token's line and key."""
    from scene_files import write
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                  "  - {id: a, side: red, size: M, at: [5, 5], facing: 0}\n"
                  "  - {id: g, side: blue, size: M, at: [30, 30], facing: 180}\n"
                  "tokens:\n  - {id: t1, kind: item, side: green, at: [2, 2]}\n")
    want = f"{scene}:6: tokens[0].side: side 'green' is not one of red, blue: a game of the scene cannot start"
    for argv in (["check", str(scene)], ["play", str(scene), "--bots", "--quiet"]):
        rc, out, err = run_cli(capsys, *argv)
        assert rc == 2 and want in err.splitlines(), (argv, err)


def test_demo_takes_models_dir(tmp_path, capsys, monkeypatch):
    """`eldfall demo SCENE` on a scene of the user's own parties said "--models-dir DIR" and
    then refused the option. The folder given is read (the --out check after it stops the
    demo before any rendering: a file where the folder should be)."""
    from tests.test_review13_authoring import PARTY, SCENE
    (tmp_path / "mymodels").mkdir()
    (tmp_path / "mymodels" / "raiders.yaml").write_text(PARTY)
    (tmp_path / "table.yaml").write_text(SCENE)
    (tmp_path / "busy").write_text("a file")
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli(capsys, "demo", "table.yaml", "--offscreen", "--out", "busy")
    assert rc == 2 and "--models-dir" in err and "raiders" in err, err
    rc, out, err = run_cli(capsys, "demo", "table.yaml", "--offscreen", "--out", "busy", "--models-dir", "mymodels")
    assert rc == 2 and "raiders" not in err and "--out" in err, err
