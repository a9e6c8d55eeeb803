"""Review 13: a new user writes a table of their own, with profiles in their own folder,
and plays it: ``eldfall play``, ``simulate`` and ``replay`` take ``--models-dir`` (the log's
header records it, so the replay finds the same profiles), and a model with no stats is
said to play with zeros."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from cli_run import run_cli

PARTY = """\
party: My Raiders
game: eldfall
profiles:
  chief:
    leader: true
    size: M
    stats: {STA: 2, SPD: 5, ARM: 4, HP: 3, OFF: 14, DEF: 12, ACC: 11, INT: 12, AG: 10, T: 12, M: 15}
    items:
      - {name: Axe, kind: melee, rch: 0, pw: 11, stk: 2}
      - {name: Javelin, kind: ranged, pw: 9, bands: {"0-8": 0, "9-16": -3}}
  bowman:
    size: M
    stats: {STA: 2, SPD: 5, ARM: 2, HP: 2, OFF: 10, DEF: 10, ACC: 14, INT: 11, AG: 12, T: 10, M: 13}
    items:
      - {name: Bow, kind: ranged, hands: 2, pw: 10, stk: 1, bands: {"0-18": 0, "19-36": -6}}
"""

SCENE = """\
name: My Table
table: [20, 20]
terrain:
  - {id: wall, shape: box, at: [10, 10, 0], size: [6, 0.5, 2]}
models:
  - {id: r-chief, side: red, profile: raiders#chief, at: [8, 3], facing: 90}
  - {id: r-bow, side: red, profile: raiders#bowman, at: [12, 3], facing: 90}
  - {id: b-chief, side: blue, profile: raiders#chief, at: [8, 17], facing: 270}
  - {id: b-bow, side: blue, profile: raiders#bowman, at: [12, 17], facing: 270}
"""


@pytest.fixture()
def table(tmp_path, monkeypatch):
    """/tmp/.../me/{table.yaml, mymodels/raiders.yaml}; the current folder is me/."""
    me = tmp_path / "me"
    (me / "mymodels").mkdir(parents=True)
    (me / "mymodels" / "raiders.yaml").write_text(PARTY)
    (me / "table.yaml").write_text(SCENE)
    monkeypatch.chdir(me)
    return me


def _play(capsys, *extra):
    return run_cli(capsys, "play", "table.yaml", "--bots", "--seed", "1", "--set", "rounds=1",
                   "--quiet", *extra)


def test_play_takes_models_dir_and_the_log_records_it(table, capsys):
    # before: "eldfall play: unrecognized arguments: --models-dir mymodels"; without it the
    # profiles are looked up in the repository's models/ ("no party 'raiders'")
    rc, out, err = _play(capsys)
    assert rc == 2 and "no party 'raiders'" in err, err
    rc, out, err = _play(capsys, "--models-dir", "mymodels", "--log", "g.jsonl")
    assert rc == 0, err
    assert "outcome:" in out
    header = json.loads((table / "g.jsonl").read_text().splitlines()[0])
    assert header["scene"]["models_dir"] == "mymodels"
    assert header["scene"]["path"] == "table.yaml"
    # a bad folder: one line of the command line, exit 2, no log written
    rc, out, err = _play(capsys, "--models-dir", "nowhere", "--log", "bad.jsonl")
    assert rc == 2 and err.strip() == "<command line>: --models-dir: 'nowhere': no such folder", err
    assert not (table / "bad.jsonl").exists()


def test_a_game_played_without_models_dir_logs_no_models_dir(tmp_path, capsys):
    root = Path(__file__).resolve().parents[1]
    log = tmp_path / "g.jsonl"
    rc, _, err = run_cli(capsys, "play", str(root / "scenes" / "arena.yaml"), "--bots", "random",
                         "--set", "rounds=1", "--quiet", "--log", str(log))
    assert rc == 0, err
    assert "models_dir" not in json.loads(log.read_text().splitlines()[0])["scene"]


def test_replay_finds_the_logged_models_dir(table, capsys, tmp_path, monkeypatch):
    rc, _, err = _play(capsys, "--models-dir", "mymodels", "--log", "g.jsonl")
    assert rc == 0, err
    # before: the replay loaded the scene with the repository's models/: "no party 'raiders'"
    rc, out, err = run_cli(capsys, "replay", "g.jsonl")
    assert rc == 0, err
    assert "state hash:" in out
    hash_here = out.strip().splitlines()[-1]
    # from another folder: the log lies beside the scene, the models folder beside both
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    rc, out, err = run_cli(capsys, "replay", str(table / "g.jsonl"))
    assert rc == 0, err
    assert out.strip().splitlines()[-1] == hash_here


def test_replay_models_dir_option_and_a_missing_folder(table, capsys):
    rc, _, err = _play(capsys, "--models-dir", "mymodels", "--log", "g.jsonl")
    assert rc == 0, err
    # the folder moved: said as the header's, with what to do
    shutil.move(str(table / "mymodels"), str(table / "moved"))
    rc, out, err = run_cli(capsys, "replay", "g.jsonl")
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert err.startswith("g.jsonl:1: scene.models_dir: the models folder 'mymodels'") and "--models-dir" in err, err
    # --models-dir names where it went
    rc, out, err = run_cli(capsys, "replay", "g.jsonl", "--models-dir", "moved")
    assert rc == 0, err
    # another folder whose profiles differ: the header's units say so, naming the model
    shutil.copytree(table / "moved", table / "other")
    p = table / "other" / "raiders.yaml"
    p.write_text(p.read_text().replace("HP: 3", "HP: 5"))
    rc, out, err = run_cli(capsys, "replay", "g.jsonl", "--models-dir", "other")
    assert rc == 2, err
    assert "units[0] (r-chief).stats.HP: the log has 3, the scene gives 5" in err, err
    assert "another models folder" in err
    rc, out, err = run_cli(capsys, "replay", "g.jsonl", "--models-dir", "nowhere")
    assert rc == 2 and err.strip() == "<command line>: --models-dir: 'nowhere': no such folder", err


def test_replay_refuses_an_edited_models_dir(table, capsys):
    rc, _, err = _play(capsys, "--models-dir", "mymodels", "--log", "g.jsonl")
    assert rc == 0, err
    lines = (table / "g.jsonl").read_text().splitlines()
    header = json.loads(lines[0])
    header["scene"]["models_dir"] = 7
    (table / "e.jsonl").write_text("\n".join([json.dumps(header)] + lines[1:]) + "\n")
    rc, out, err = run_cli(capsys, "replay", "e.jsonl")
    assert rc == 2 and "Traceback" not in err
    assert err.strip() == "e.jsonl:1: scene.models_dir: expected the models folder's path, got 7 (an edited log?)", err


def test_header_problems_ignore_where_the_profiles_were_read(table, capsys):
    # the view (eldfall view --log) compares a log's header with its own game's, which does
    # not name the models folder: the folder is where the files are, not what the table is
    from tools.cmd_replay import header_problems
    rc, _, err = _play(capsys, "--models-dir", "mymodels", "--log", "g.jsonl")
    assert rc == 0, err
    header = json.loads((table / "g.jsonl").read_text().splitlines()[0])
    made = {"units": header["units"],
            "scene": {k: v for k, v in header["scene"].items() if k != "models_dir"}}
    assert header_problems("<log>", header, None, made) == []


def test_simulate_takes_models_dir(table, capsys):
    base = ("simulate", "table.yaml", "--games", "1", "--set", "rounds=1", "--json")
    rc, out, err = run_cli(capsys, *base, "--jobs", "1")
    assert rc == 2 and "no party 'raiders'" in err, err
    rc, out, err = run_cli(capsys, *base, "--jobs", "1", "--models-dir", "mymodels")
    assert rc == 0, err
    assert json.loads(out)["games"] == 1
    rc, out, err = run_cli(capsys, *base, "--models-dir", "nowhere")
    assert rc == 2 and err.strip() == "<command line>: --models-dir: 'nowhere': no such folder", err


def test_a_model_without_stats_is_said_to_play_with_zeros(table, capsys):
    # a newcomer's model given by size alone played with SPD 0, OFF 0, ARM 0 and HP 1, and
    # nothing said so
    text = SCENE.replace("{id: b-bow, side: blue, profile: raiders#bowman,",
                         "{id: b-bow, side: blue, size: M,")
    text = text.replace("{id: b-chief, side: blue, profile: raiders#chief,",
                        "{id: b-chief, side: blue, size: M, stats: {HP: 2, SPD: 4},")
    (table / "table.yaml").write_text(text)
    rc, out, err = _play(capsys, "--models-dir", "mymodels")
    assert rc == 0, err
    lines = err.strip().splitlines()
    assert len(lines) == 2, err
    assert lines[0].startswith("table.yaml:8: models[2]: warning: model 'b-chief' has no profile, and its "
                               "stats lack STA, ARM, OFF, DEF, ACC, INT, AG, T, M: the game takes each "
                               "missing stat as 0;"), lines[0]
    assert lines[1].startswith("table.yaml:9: models[3]: warning: model 'b-bow' has no profile and no "
                               "stats: the game takes each missing stat as 0 and HP as 1 (SPD 0: it "
                               "cannot move)"), lines[1]
    rc, out, err = run_cli(capsys, "simulate", "table.yaml", "--games", "1", "--jobs", "1",
                           "--set", "rounds=1", "--models-dir", "mymodels")
    assert rc == 0 and len(err.strip().splitlines()) == 2 and "b-bow" in err, err
    # a table whose models all have profiles: nothing said
    (table / "table.yaml").write_text(SCENE)
    rc, out, err = _play(capsys, "--models-dir", "mymodels")
    assert rc == 0 and err == "", err
