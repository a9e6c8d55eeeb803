"""eldfall play / replay / view / simulate on bad input: one line per problem, exit 2,
no traceback, and nothing written half-way (an old log is left as it was)."""
import json
import os
import threading
from pathlib import Path

import pytest

from tools.cli import main

SCENE = str(Path(__file__).resolve().parents[1] / "scenes" / "open.yaml")


def _err(capsys) -> list[str]:
    return capsys.readouterr().err.strip().splitlines()


@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    """The lines of a real one-round log of SCENE."""
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main(["play", SCENE, "--bots", "--set", "rounds=1", "--quiet", "--log", str(log)]) == 0
    return log.read_text().splitlines()


def _log_with(tmp_path, lines, n=None, **header) -> str:
    """A copy of the log with header keys replaced (and only the first n lines)."""
    lines = list(lines[:n] if n else lines)
    h = json.loads(lines[0])
    h.update(header)
    lines[0] = json.dumps(h)
    p = tmp_path / "bad.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


# ---- play --log ---------------------------------------------------------------------

@pytest.mark.parametrize("bad", [["--bots", "--set", "foo=1"], ["--bots", "--set", "rounds=-3"],
                                 ["--bots", "--game", "norova"], ["--bots", "greedy,chess"],
                                 ["--bots", "greedy,random,greedy"]])
def test_a_failed_play_leaves_an_old_log_alone(tmp_path, capsys, bad):
    log = tmp_path / "keep.jsonl"
    log.write_text("keep me\n")
    assert main(["play", SCENE, *bad, "--log", str(log)]) == 2
    assert len(_err(capsys)) == 1 and log.read_text() == "keep me\n"
    new = tmp_path / "new.jsonl"
    assert main(["play", SCENE, *bad, "--log", str(new)]) == 2
    assert len(_err(capsys)) == 1 and not new.exists()


def test_a_bad_scene_leaves_an_old_log_alone(tmp_path, capsys):
    scene = tmp_path / "s.yaml"
    scene.write_text("table: [36, .nan]\n")
    log = tmp_path / "keep.jsonl"
    log.write_text("keep me\n")
    assert main(["play", str(scene), "--bots", "--log", str(log)]) == 2
    assert len(_err(capsys)) == 1 and log.read_text() == "keep me\n"


@pytest.mark.parametrize("where", ["folder", "/dev/null"])
def test_a_log_that_cannot_be_written_is_one_line(tmp_path, capsys, where):
    log = str(tmp_path) if where == "folder" else where
    assert main(["play", SCENE, "--bots", "--set", "rounds=1", "--log", log]) == 2
    err = _err(capsys)
    assert len(err) == 1 and err[0].startswith(f"{log}: ") and "not a regular file" in err[0]


def test_more_bots_than_sides_is_one_line(capsys):
    assert main(["play", SCENE, "--bots", "greedy,random,greedy"]) == 2
    err = _err(capsys)
    assert len(err) == 1 and "--bots" in err[0] and "2 sides" in err[0]
    assert main(["simulate", SCENE, "--games", "1", "--jobs", "1", "--bots", "greedy,random,greedy"]) == 2
    assert "2 sides" in _err(capsys)[0]


def test_a_bad_setting_names_itself(capsys):
    assert main(["play", SCENE, "--bots", "--set", "confrontation_ties=x"]) == 2
    assert _err(capsys) == ["<command line>: --set confrontation_ties: setting confrontation_ties must be cancel or keep, not 'x'"]


# ---- replay ----------------------------------------------------------------------------

@pytest.mark.parametrize("key, value, where", [
    ("scene", "x", ":1: scene: must be a mapping"),
    ("seed", "x", ":1: seed: must be a whole number"),
    ("units", [1], ":1: units: must be a list of mappings"),
    ("settings", [1], ":1: settings: must be a mapping"),
    ("settings", {"rounds": -3}, ":1: settings.rounds: "),
    ("game", "chess", ":1: game: unknown game 'chess'"),
])
def test_a_bad_header_is_one_line_at_line_1(tmp_path, capsys, good_log, key, value, where):
    path = _log_with(tmp_path, good_log, **{key: value})
    assert main(["replay", path]) == 2
    err = _err(capsys)
    assert len(err) == 1 and err[0].startswith(path + where), err


def test_a_bad_event_gives_its_line(tmp_path, capsys, good_log):
    lines = list(good_log)
    i = next(i for i, s in enumerate(lines) if '"kind":"action"' in s)
    ev = json.loads(lines[i])
    for action, where in ((42, "data.action: event"), ("order purple first", "data.action: event")):
        ev["data"]["action"] = action
        lines[i] = json.dumps(ev)
        path = _log_with(tmp_path, lines)
        assert main(["replay", path]) == 2
        err = _err(capsys)
        assert len(err) == 1 and err[0].startswith(f"{path}:{i + 1}: {where}"), err
    setup = json.loads(good_log[1])
    setup["data"]["extra"] = 1
    path = _log_with(tmp_path, [good_log[0], json.dumps(setup), *good_log[2:]])
    assert main(["replay", path]) == 2
    err = _err(capsys)
    assert len(err) == 1 and err[0].startswith(f"{path}:2: data: event 0: the replay gives"), err


def test_replay_refuses_a_device(capsys):
    assert main(["replay", "/dev/null"]) == 2
    assert _err(capsys) == ["/dev/null: not a regular file"]


def test_replay_refuses_a_fifo_without_waiting(tmp_path, capsys):
    fifo = tmp_path / "f.jsonl"
    os.mkfifo(fifo)
    result = []
    t = threading.Thread(target=lambda: result.append(main(["replay", str(fifo)])))
    t.start()
    t.join(20)
    if t.is_alive():                 # it waits for a writer: give it one, and fail
        with open(fifo, "w"):
            pass
        t.join()
    assert result == [2] and _err(capsys) == [f"{fifo}: not a regular file"]


# ---- view ------------------------------------------------------------------------------

def test_view_refuses_a_missing_log(tmp_path, capsys):
    args = ["view", SCENE, "--offscreen", "--frames", "1", "--out", str(tmp_path / "v")]
    assert main(args + ["--log", str(tmp_path / "none.jsonl")]) == 2
    err = _err(capsys)
    assert len(err) == 1 and "none.jsonl: cannot read" in err[0]
    assert not (tmp_path / "v").exists()


@pytest.mark.parametrize("sub", ["", "sub"])
def test_view_refuses_an_out_that_is_a_file(tmp_path, capsys, sub):
    afile = tmp_path / "afile"
    afile.write_text("")
    out = afile / sub if sub else afile
    assert main(["view", SCENE, "--offscreen", "--frames", "1", "--out", str(out)]) == 2
    err = _err(capsys)
    assert len(err) == 1 and "--out" in err[0] and f"{afile} is not a folder" in err[0]
