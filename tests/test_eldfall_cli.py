"""eldfall play / replay / simulate: outputs, logs, and one-line errors (exit 2)."""
import json

import pytest

from tools.cli import main


def test_play_logs_and_replay_gives_the_same_hash(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    assert main(["play", "scenes/open.yaml", "--bots", "random", "--seed", "3", "--log", str(log),
                 "--json"]) == 0
    played = json.loads(capsys.readouterr().out)
    assert played["outcome"]["termination"] in ("turn limit", "elimination", "duel")
    assert main(["replay", str(log), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["state_hash"] == played["state_hash"]
    # undo: the state at an earlier event
    assert main(["replay", str(log), "--to", "40"]) == 0
    out = capsys.readouterr().out
    assert "replayed every action logged before event 40 (--to counts" in out and "state hash:" in out
    # a torn last line (a crash while writing) is dropped with a warning
    raw = log.read_bytes()
    log.write_bytes(raw[:-5])
    assert main(["replay", str(log)]) == 0
    assert "torn last line dropped" in capsys.readouterr().err


def test_play_prints_a_turn_by_turn_summary(capsys):
    assert main(["play", "scenes/open.yaml", "--bots", "greedy,random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "== Round 1," in out and "-- end of turn:" in out and "outcome:" in out


def test_errors_are_one_line_exit_2(tmp_path, capsys):
    assert main(["play", "scenes/open.yaml"]) == 2
    assert "--bots" in capsys.readouterr().err
    assert main(["replay", str(tmp_path / "none.jsonl")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "cannot read" in err[0]
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"type":"header","format":1,"game":"eldfall","seed":1,"units":[]}\n{oops\n{}\n')
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and ":2:" in err[0] and "invalid JSON" in err[0]
    assert main(["simulate", "scenes/open.yaml", "--games", "0"]) == 2
    assert "--games" in capsys.readouterr().err
    assert main(["play", str(tmp_path / "nope.yaml"), "--bots"]) == 2
    assert "no such scene" in capsys.readouterr().err


def test_a_header_that_is_not_an_eldfall_game_is_one_line(tmp_path, capsys):
    bad = tmp_path / "h.jsonl"
    bad.write_text(json.dumps({"type": "header", "format": 1, "game": "eldfall", "seed": 1,
                               "scene": {"path": "scenes/open.yaml"},
                               "units": [{"id": "x", "side": "red", "wings": 2}]}) + "\n")
    assert main(["replay", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "does not describe an Eldfall game" in err[0]


def test_simulate_gives_the_same_bytes_on_one_or_two_workers(capsys):
    args = ["simulate", "scenes/open.yaml", "--games", "3", "--seed", "7", "--bots", "random",
            "--set", "rounds=1", "--json"]
    assert main(args + ["--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main(args + ["--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one == two and json.loads(one)["games"] == 3
    assert main(args + ["--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


@pytest.mark.parametrize("name", ["check", "los", "aoe", "measure", "move", "reach", "play",
                                  "replay", "simulate", "view", "demo", "bench"])
def test_every_command_says_a_usage_error_in_one_line(name, capsys):
    with pytest.raises(SystemExit) as ei:
        main([name, "--no-such-flag"])
    assert ei.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"eldfall {name}: "), err
