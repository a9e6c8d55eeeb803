"""Review 12, the command line as a new user runs it.

1. ``eldfall replay`` printed the game's internals: ``pending: ('crouch', 'red')`` (Eldfall)
   and ``pending: None`` (Legends of Norova). It now says what the game waits for in words.
2. ``eldfall measure`` on a Flying model 3" up said "height difference +0.00" (level)" with
   no word of why (the rules measure a Flying model on the surface under it): it now says
   how high the model flies and what it is measured from (JSON: ``flying_above_surface``).
3. ``eldfall reach --path-to`` printed the route without its length, and "not reachable"
   without the allowance; the route ends at a cell centre, not at the point asked, unsaid.
4. ``--models-dir`` naming no folder printed one line per model with a profile (twelve on
   the skirmish table) and nothing at all on a scene without profiles: now one
   ``<command line>: --models-dir: ...`` line, with the scene's other problems.
5. ``eldfall reach`` with a grid too fine for the table (or a large table at the default
   0.25") answered ``<reach>: resolution: ...``, naming no argument: now a problem of
   ``--resolution`` with the least resolution that fits; "at least 0.05"" says what was given.
"""
from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest

from cli_run import run_cli
from scene_files import write

ROOT = Path(__file__).resolve().parents[1]
OPEN = str(ROOT / "scenes" / "open.yaml")
SKIRMISH = str(ROOT / "scenes" / "skirmish.yaml")


# ----------------------------------------------------------------- 1. replay: what the game waits for
@pytest.fixture(scope="module")
def short_log(tmp_path_factory):
    """A one-round logged game (scenes/open.yaml, random bots, seed 3)."""
    from tools.cli import main
    log = tmp_path_factory.mktemp("log") / "game.jsonl"
    assert main(["play", OPEN, "--bots", "random", "--seed", "3", "--set", "rounds=1",
                 "--log", str(log), "--quiet"]) == 0
    return log


def test_replay_says_what_the_game_waits_for_in_words(short_log, capsys):
    events = sum(1 for _ in open(short_log)) - 1
    seen_kinds = set()
    for to in sorted({5, 12, 25, events // 3, events // 2, (2 * events) // 3}):
        rc, out, err = run_cli(capsys, "replay", str(short_log), "--to", str(to), "--json")
        assert rc == 0, err
        kind, who = json.loads(out)["state"]["pending"]
        rc, out, err = run_cli(capsys, "replay", str(short_log), "--to", str(to))
        assert rc == 0, err
        assert "pending" not in out and "('" not in out and "None" not in out, out
        waits = [ln for ln in out.splitlines() if ln.startswith("next: waiting for ")]
        if kind == "over":
            assert waits == []
        else:
            assert len(waits) == 1 and waits[0].startswith(f"next: waiting for {who}"), (kind, who, out)
            seen_kinds.add(kind)
    assert seen_kinds                   # the game was not over at every point asked


def test_replay_of_a_finished_game_names_no_next_decision(short_log, capsys):
    rc, out, err = run_cli(capsys, "replay", str(short_log))
    assert rc == 0, err
    assert "outcome: " in out and "next: " not in out and "pending" not in out


# ----------------------------------------------------------------- 2. measure: a Flying model
FLYING = """\
table: [24, 24]
terrain:
  - {id: crate, shape: box, at: [16, 10, 0], size: [2, 2, 1.25]}
models:
  - {id: champ, side: red, profile: sample-red#champion, at: [10, 10], facing: 0}
  - {id: flyer, side: blue, profile: sample-blue#skirmisher, at: [16, 10, 4.5], facing: 180, states: [Flying]}
"""


def test_measure_says_a_flying_model_is_measured_on_the_surface_under_it(tmp_path, capsys):
    scene = write(tmp_path, "fly.yaml", FLYING)
    crate_top, flyer_z = 1.25, 4.5                  # from the scene above
    rc, out, err = run_cli(capsys, "measure", str(scene), "champ", "flyer")
    assert rc == 0, err
    lines = out.splitlines()
    # the height difference is the surface's (the crate top), not the 4.5" it flies at
    assert f"height difference {crate_top:+.2f}\" (flyer {crate_top:.2f}\" higher)" in lines[1]
    fly = [ln for ln in lines if "Flying" in ln]
    assert len(fly) == 1 and fly[0].startswith(f"  flyer is Flying {flyer_z - crate_top:.2f}\" above the surface "
                                              f"under it (z {crate_top:.2f})"), out
    rc, out, err = run_cli(capsys, "measure", str(scene), "champ", "flyer", "--json")
    assert rc == 0, err
    data = json.loads(out)
    assert data["flying_above_surface"] == {"flyer": pytest.approx(flyer_z - crate_top)}
    assert data["height_difference"] == pytest.approx(crate_top)


def test_measure_of_two_grounded_models_says_nothing_of_flying(capsys):
    rc, out, err = run_cli(capsys, "measure", OPEN, "red-archer", "blue-warden", "--json")
    assert rc == 0, err
    assert "flying_above_surface" not in json.loads(out)
    rc, out, err = run_cli(capsys, "measure", OPEN, "red-archer", "blue-warden")
    assert "Flying" not in out


# ----------------------------------------------------------------- 3. reach --path-to: the route's length
POINT = r"\((-?[\d.]+), (-?[\d.]+), (-?[\d.]+)\)"


def test_reach_path_to_gives_the_routes_length_and_where_it_ends(capsys):
    rc, out, err = run_cli(capsys, "reach", OPEN, "red-champion", "--mode", "walk", "--path-to", "8,14")
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if "shortest route" in ln)
    m = re.fullmatch(r"  shortest route to \(8, 14\): ([\d.]+)\", to the centre of its 0\.25\" cell "
                     + POINT + r": (.*)", line)
    assert m, line
    cost = float(m.group(1))
    pts = [tuple(map(float, p)) for p in re.findall(POINT, m.group(5))]
    assert pts[-1] == tuple(float(m.group(k)) for k in (2, 3, 4))
    # the end cell holds the point asked
    assert abs(pts[-1][0] - 8) <= 0.125 and abs(pts[-1][1] - 14) <= 0.125
    # open ground: the route costs its length
    length = sum(math.dist(a, b) for a, b in zip(pts, pts[1:]))
    assert cost == pytest.approx(length, abs=0.01)
    rc, out, err = run_cli(capsys, "reach", OPEN, "red-champion", "--mode", "walk", "--path-to", "8,14", "--json")
    data = json.loads(out)
    length = sum(math.dist(a, b) for a, b in zip(data["shortest_path"], data["shortest_path"][1:]))
    assert data["shortest_path_cost"] == pytest.approx(length, abs=1e-3)


def test_reach_path_to_out_of_reach_names_the_allowance(capsys):
    rc, out, err = run_cli(capsys, "reach", OPEN, "red-champion", "--mode", "walk", "--path-to", "30,30", "--json")
    allowance = json.loads(out)["allowance"]
    assert json.loads(out)["shortest_path"] == [] and json.loads(out)["shortest_path_cost"] is None
    rc, out, err = run_cli(capsys, "reach", OPEN, "red-champion", "--mode", "walk", "--path-to", "30,30")
    assert rc == 0, err
    assert f"  shortest route to (30, 30): none: no walk of {allowance:g}\" reaches it" in out


# ----------------------------------------------------------------- 4. --models-dir that is no folder
@pytest.mark.parametrize("argv", [
    ["check", SKIRMISH],
    ["measure", SKIRMISH, "red-archer", "blue-guard"],
    ["move", SKIRMISH, "red-brute", "--to", "20,8", "--mode", "walk"],
    ["reach", SKIRMISH, "red-brute", "--mode", "walk"],
])
def test_a_models_dir_that_is_not_there_is_one_line(tmp_path, capsys, argv):
    nowhere = tmp_path / "nowhere"
    rc, out, err = run_cli(capsys, *argv, "--models-dir", str(nowhere))
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"<command line>: --models-dir: '{nowhere}': no such folder"]
    a_file = write(tmp_path, "file.txt", "x")
    rc, out, err = run_cli(capsys, *argv, "--models-dir", str(a_file))
    assert rc == 2 and err.splitlines() == [f"<command line>: --models-dir: '{a_file}': is not a folder"]


def test_a_missing_models_dir_is_said_with_the_scenes_other_problems(tmp_path, capsys):
    scene = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n"
                                      "  - {id: m, side: red, profile: p#a, at: [5, 5], facing: .nan}\n")
    rc, out, err = run_cli(capsys, "check", str(scene), "--models-dir", str(tmp_path / "nowhere"))
    assert rc == 2
    lines = err.splitlines()
    assert lines[0] == f"<command line>: --models-dir: '{tmp_path / 'nowhere'}': no such folder"
    assert len(lines) == 2 and lines[1].startswith(f"{scene}:3: models[0].facing: ")


def test_a_models_dir_on_a_scene_without_profiles_is_still_checked(tmp_path, capsys):
    scene = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n  - {id: m, side: red, size: M, at: [5, 5]}\n")
    rc, out, err = run_cli(capsys, "check", str(scene), "--models-dir", str(tmp_path / "nowhere"))
    assert rc == 2 and err.splitlines() == [f"<command line>: --models-dir: '{tmp_path / 'nowhere'}': no such folder"]
    rc, out, err = run_cli(capsys, "check", str(scene), "--models-dir", str(tmp_path))
    assert rc == 0, err


# ----------------------------------------------------------------- 5. reach --resolution too fine for the table
def test_a_grid_too_fine_is_a_problem_of_resolution_with_a_value_that_fits(capsys):
    from engine import motion
    rc, out, err = run_cli(capsys, "reach", SKIRMISH, "red-scout", "--mode", "run", "--resolution", "0.05")
    assert rc == 2 and out == ""
    [line] = err.splitlines()
    m = re.fullmatch(r"<command line>: --resolution: 0\.05\" makes (\d+) cells on the 36\" x 36\" table, more than "
                     r"(\d+): give --resolution ([\d.]+) or more", line)
    assert m, line
    assert int(m.group(1)) == math.ceil(36 / 0.05) ** 2 and int(m.group(2)) == motion._MAX_CELLS
    least = float(m.group(3))
    cells = lambda r: math.ceil(36 / r - 1e-9) ** 2         # noqa: E731
    assert cells(least) <= motion._MAX_CELLS < cells(least - 0.01)


def test_a_large_table_at_the_default_resolution_names_the_option(tmp_path, capsys):
    scene = write(tmp_path, "big.yaml", "table: [300, 300]\nmodels:\n"
                                        "  - {id: a, side: red, profile: sample-red#champion, at: [4, 12]}\n")
    rc, out, err = run_cli(capsys, "reach", str(scene), "a", "--mode", "walk")
    assert rc == 2
    [line] = err.splitlines()
    assert line.startswith("<command line>: --resolution: 0.25\" (the default) makes ")


def test_a_resolution_below_the_least_says_what_was_given(capsys):
    rc, out, err = run_cli(capsys, "reach", OPEN, "red-archer", "--mode", "walk", "--resolution", "0.04")
    assert rc == 2 and err.splitlines() == ["<command line>: --resolution: at least 0.05\", got 0.04"]


# ----------------------------------------------------------------- 6. a scene that is not for Eldfall
def norova_only(tmp_path) -> str:
    text = (ROOT / "scenes" / "norova-arena.yaml").read_text()
    assert "games: [eldfall, norova]" in text
    return str(write(tmp_path, "norova-only.yaml", text.replace("games: [eldfall, norova]", "games: [norova]")))


@pytest.mark.parametrize("argv", [
    ["move", "knight", "--to", "12,7", "--mode", "walk"],
    ["reach", "knight", "--mode", "walk"],
    ["measure", "knight", "brute"],
])
def test_eldfall_rules_on_a_norova_only_scene_are_said(tmp_path, capsys, argv):
    scene = norova_only(tmp_path)
    cmd, rest = argv[0], argv[1:]
    rc, out, err = run_cli(capsys, cmd, scene, *rest)
    assert rc == 0, err
    notes = [ln for ln in out.splitlines() if ln.startswith("  note: judged by Eldfall's ")]
    assert len(notes) == 1 and "this scene is for Legends of Norova" in notes[0], out
    rc, out, err = run_cli(capsys, cmd, scene, *rest, "--json")
    assert json.loads(out)["note"] == notes[0].strip().removeprefix("note: ")
    # a scene that lists Eldfall (its first game) is judged by Eldfall's rules: no note
    both = str(ROOT / "scenes" / "norova-arena.yaml")
    rc, out, err = run_cli(capsys, cmd, both, *rest)
    assert rc == 0 and "note:" not in out
    rc, out, err = run_cli(capsys, cmd, both, *rest, "--json")
    assert "note" not in json.loads(out)


# ----------------------------------------------------------------- 7. a size that is not a text
@pytest.mark.parametrize("value", ["[M]", "3", "{code: M}"])
def test_a_size_that_is_not_a_code_says_what_is_expected(tmp_path, capsys, value):
    import yaml
    scene = write(tmp_path, "s.yaml", f"table: [24, 24]\nmodels:\n  - {{id: a, side: red, size: {value}, at: [5, 5]}}\n")
    rc, out, err = run_cli(capsys, "check", str(scene))
    assert rc == 2
    from engine.validate import describe
    got = describe(yaml.safe_load(value))
    assert err.splitlines() == [f"{scene}:3: models[0].size: expected a size code (S, M, L, H, G, C, E), got {got}"]
