"""The game record and the headless commands, as an organiser checking a game afterwards
(review 15):

* a log with an event no action made (a roll added after the game's end) replayed as if
  it were the game; now one line at that event, exit 2;
* a torn header line read as "empty log", a header line that is not JSON as "no header
  line", and a scene given to ``eldfall replay`` as bare "invalid JSON";
* ``eldfall play --log`` on the scene file (or a party or mesh file the scene reads)
  overwrote it with the log;
* ``eldfall simulate`` listed only the sides that won (``wins: draw 3``): every side now
  has its count, 0 too, and the draws their own, in the text and the JSON;
* ``replay --json`` lacked the game, seed and ``--to`` (and ignored ``--events``);
  ``play --json`` lacked the scene, settings and log; ``bench --json`` printed NaN
  (not JSON) for an area that could not run.
"""
from __future__ import annotations

import json
import shutil

import pytest

from tests.cli_run import run_cli

SCENE = "scenes/open.yaml"


@pytest.fixture(scope="module")
def log_lines(tmp_path_factory):
    """The lines of a real one-round log of SCENE (random bots: quick)."""
    from tools.cli import main
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main(["play", SCENE, "--bots", "random", "--seed", "2", "--set", "rounds=1", "--quiet",
                 "--log", str(log)]) == 0
    return log.read_text().splitlines()


def _write(tmp_path, lines, name="edited.jsonl", end="\n") -> str:
    p = tmp_path / name
    p.write_text("\n".join(lines) + end)
    return str(p)


# ---- replay: every event is the game's ------------------------------------------------------

def test_replay_refuses_an_event_that_no_action_made(tmp_path, capsys, log_lines):
    n = len(log_lines) - 1                          # events 0 .. n-1
    fake = json.dumps({"type": "event", "seq": n, "kind": "roll",
                       "data": {"sides": 20, "value": 20, "why": "fake"}})
    path = _write(tmp_path, log_lines + [fake])
    rc, out, err = run_cli(capsys, "replay", path)
    assert rc == 2 and out == ""
    assert err.strip().splitlines() == [
        f"{path}:{n + 2}: kind: event {n}: the replay makes no such event (the game's actions made "
        f"{n} events, numbered from 0; the log goes on with roll "
        '{"sides":20,"value":20,"why":"fake"})']
    # the log as written replays (and to an earlier event too)
    good = _write(tmp_path, log_lines, "good.jsonl")
    assert run_cli(capsys, "replay", good)[0] == 0
    assert run_cli(capsys, "replay", good, "--to", str(n // 2))[0] == 0


def test_replayed_states_are_the_played_ones_at_every_action_and_every_to():
    """The played game's state hash after every decision is the replay's, and ``--to K``
    (a prefix of K events) is the state after the last action begun before event K, with
    all its consequences."""
    from rules.core.log import EventLog
    from tools import gameplay
    log = EventLog(None)
    mod, game = gameplay.new_game(SCENE, None, 5, settings={"rounds": 1}, log=log)
    bounds = [(len(game.events), game.state_hash())]
    gameplay.play_out(game, mod, gameplay.bot_names("random", mod, game), 5,
                      on_action=lambda a, evs: bounds.append((len(game.events), game.state_hash())))
    header = json.loads(log.lines[0])
    events = [json.loads(line) for line in log.lines[1:]]
    cls = type(game)
    _, _, geo = gameplay.load_table(SCENE)
    again = cls.from_header(header, geo)
    assert (len(again.events), again.state_hash()) == bounds[0]
    for k, want in bounds[1:]:
        ev = events[len(again.events)]
        assert ev["kind"] == "action"
        again.apply(cls.parse_action(ev["data"]["action"]))
        assert (len(again.events), again.state_hash()) == (k, want)
    n = len(events)
    mid = next(b for b, _ in bounds[1:] if b > n // 2)
    for to in (0, bounds[0][0], bounds[1][0], bounds[1][0] + 1, mid - 1, mid, n):
        _, _, geo = gameplay.load_table(SCENE)
        got = mod.game_from_log(header, events[:to], geo)
        want = next(h for b, h in bounds if b >= to)
        assert got.state_hash() == want, to


# ---- replay: logs that are not whole, or not logs -------------------------------------------

def test_a_torn_header_line_is_said_torn_not_empty(tmp_path, capsys, log_lines):
    path = _write(tmp_path, [log_lines[0][:150]], end="")
    rc, out, err = run_cli(capsys, "replay", path)
    assert rc == 2 and err.strip().splitlines() == [
        f"{path}:1: no whole line: the header line is torn (150 characters without a newline)"]


def test_a_header_line_that_is_not_json_is_said_at_its_column(tmp_path, capsys, log_lines):
    path = _write(tmp_path, [log_lines[0][:150]])          # ends with its newline
    rc, out, err = run_cli(capsys, "replay", path)
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1
    assert lines[0].startswith(f"{path}:1: invalid JSON: ") and "(column " in lines[0]
    assert "no header line" not in lines[0]


def test_replay_of_a_scene_file_asks_whether_it_is_a_log(capsys):
    rc, out, err = run_cli(capsys, "replay", SCENE)
    assert rc == 2 and err.strip().splitlines() == [
        f"{SCENE}:1: invalid JSON: Expecting value (column 1) (is it a game log, from eldfall play --log?)"]


# ---- play --log never overwrites what the game reads ----------------------------------------

def test_play_log_on_its_own_scene_or_party_file_is_refused(tmp_path, capsys):
    scene = tmp_path / "open.yaml"
    shutil.copy(SCENE, scene)
    models = tmp_path / "models"
    shutil.copytree("models", models)
    before = scene.read_bytes(), (models / "sample-red.yaml").read_bytes()
    rc, out, err = run_cli(capsys, "play", str(scene), "--bots", "random", "--set", "rounds=1",
                           "--models-dir", str(models), "--log", str(scene))
    assert rc == 2 and out == ""
    assert f"<command line>: --log: {scene} is the scene file: the log would overwrite it " \
           "(give the log another name)" in err.splitlines()
    party = models / "sample-red.yaml"
    rc, out, err = run_cli(capsys, "play", str(scene), "--bots", "random", "--set", "rounds=1",
                           "--models-dir", str(models), "--log", str(party))
    assert rc == 2 and f"--log: {party} is the party file of red-archer's profile" in err
    assert (scene.read_bytes(), party.read_bytes()) == before


# ---- simulate: the counts add up, every side named ------------------------------------------

def test_simulate_counts_every_side_and_the_draws(monkeypatch, capsys):
    import tools.cmd_simulate as cmd
    results = {0: ("red", {"red": 2, "blue": 0}), 1: (None, {"red": 1, "blue": 1}),
               2: ("red", {"red": 3, "blue": 1})}

    def fake_play(table, seed, bots, settings):
        winner, scores = results[seed]
        return {"seed": seed, "winner": winner, "termination": "turn limit", "scores": scores,
                "decisions": 10 + seed, "events": 50, "state_hash": "x", "game": "eldfall",
                "sides": ["red", "blue"]}
    monkeypatch.setattr(cmd, "_play", fake_play)
    res = cmd.simulate(SCENE, 3, 0, "random", None, jobs=1, table=object())
    assert res["wins"] == {"blue": 0, "draw": 1, "red": 2}          # blue named with its 0
    assert sum(res["wins"].values()) == res["games"] == 3
    assert res["mean_vp"] == {"blue": round(2 / 3, 3), "red": 2.0}
    assert res["mean_decisions"] == 11.0
    assert all("sides" not in g and "game" not in g for g in res["per_game"])
    # the text: every side, then the draws
    monkeypatch.setattr(cmd, "simulate", lambda *a, **k: res)
    rc, out, err = run_cli(capsys, "simulate", SCENE, "--games", "3", "--jobs", "1", "--bots", "random")
    assert rc == 0
    assert "wins: blue 0, red 2; 1 draw" in out.splitlines()
    rc, out, err = run_cli(capsys, "simulate", SCENE, "--games", "1", "--seed", "4", "--jobs", "1",
                           "--bots", "random")
    assert out.splitlines()[0].endswith(", bots random, seed 4")


# ---- the --json outputs -------------------------------------------------------------------------

def test_replay_json_says_what_was_replayed_and_its_narration(tmp_path, capsys, log_lines):
    path = _write(tmp_path, log_lines, "good.jsonl")
    rc, out, err = run_cli(capsys, "replay", path, "--to", "20", "--json", "--events")
    assert rc == 0
    d = json.loads(out)
    head = json.loads(log_lines[0])
    assert (d["game"], d["seed"], d["to"], d["logged_events"]) == ("eldfall", head["seed"], 20,
                                                                    len(log_lines) - 1)
    rc, text, err = run_cli(capsys, "replay", path, "--to", "20", "--events")
    shown = [line for line in text.splitlines() if line[:5].strip().isdigit()]
    assert [f"{seq:5d} {s}" for seq, s in d["narration"]] == shown and shown
    rc, out, err = run_cli(capsys, "replay", path, "--json")
    d = json.loads(out)
    assert d["to"] is None and "narration" not in d and d["events"] == len(log_lines) - 1


def test_play_json_names_the_scene_settings_and_log(tmp_path, capsys):
    log = tmp_path / "g.jsonl"
    rc, out, err = run_cli(capsys, "play", SCENE, "--bots", "random", "--seed", "2", "--set", "rounds=1",
                           "--json", "--log", str(log))
    assert rc == 0
    d = json.loads(out)
    assert (d["scene"], d["settings"], d["log"]) == (SCENE, {"rounds": 1}, str(log))
    assert d["sides"] == ["red", "blue"] and d["bots"] == ["random", "random"]


def test_play_says_which_bot_plays_which_side(capsys):
    rc, out, err = run_cli(capsys, "play", SCENE, "--bots", "random,greedy", "--seed", "2",
                           "--set", "rounds=1")
    assert rc == 0
    assert out.splitlines()[0] == f"eldfall game on {SCENE}, seed 2: red random bot, blue greedy bot"


def test_bench_json_has_no_nan(monkeypatch, capsys):
    import tools.cmd_bench as cmd
    monkeypatch.setattr(cmd, "bench_machine", lambda quick: {"name": "machine", "median_ms": 1.0,
                                                             "target_ms": None, "note": ""})
    monkeypatch.setattr(cmd, "_area_rows", lambda area, quick: [
        {"name": f"{area}: not available (no module)", "median_ms": float("nan"),
         "target_ms": None, "note": ""}])
    rc, out, err = run_cli(capsys, "bench", "--quick", "--only", "view", "--only", "view", "--json")
    assert rc == 0

    def refuse(name):
        raise AssertionError(f"{name} is not JSON")
    rows = json.loads(out, parse_constant=refuse)
    assert [r["area"] for r in rows] == ["machine", "view"]          # named twice, run once
    assert rows[1]["median_ms"] is None


# ---- seeds ------------------------------------------------------------------------------------

def test_a_negative_seed_is_refused_it_would_roll_another_seeds_dice(capsys):
    from rules.core.dice import Dice
    a, b = Dice(-3), Dice(3)
    assert [a.roll() for _ in range(6)] == [b.roll() for _ in range(6)]     # why it is refused
    for cmd in (("play", SCENE, "--bots", "random"), ("simulate", SCENE, "--jobs", "1"),
                ("view", SCENE, "--offscreen", "--frames", "1", "--out", "out/never"),
                ("demo", SCENE, "--offscreen", "--frames", "1")):
        rc, out, err = run_cli(capsys, *cmd, "--seed", "-3")
        assert rc == 2 and out == "" and err.strip().splitlines() == [
            "<command line>: --seed: must be 0 or more, got -3 (the dice take a seed -N as N: "
            "-3 would roll the dice of seed 3)"]
