"""Review 17: a game is played on the geometry settings a dispute is judged on. ``eldfall los
--settings FILE`` and ``eldfall aoe --set circle_card=hold`` changed the answers of a dispute,
but ``play``, ``simulate``, ``view`` and ``replay`` always built the game's geometry on the
defaults: a game could not be played with ``exceptions.area_height: piece`` or a held card.
Now they take ``--settings FILE`` and ``--set templates.KEY=VALUE``, the log's header records
those changed from the defaults (``scene.geometry``) and ``replay`` plays on them again.

The Dark table (as tests/test_review17_dark.py): a 1" Dark area over x 6-14, y 6-14 with a 2"
tower in it; up (shieldbearer) stands on the tower, near (marksman, AG 11) outside the area
6.74" away, beyond half its Awareness (5.5"). The Dark reaches the tower's top by default
(``area_height: infinite``): near's Ranged Attack takes -3; with ``piece`` it does not.
"""
from __future__ import annotations

import argparse
import json

import pytest

from cli_run import run_cli  # noqa: E402
from scene_files import burster_models, write
from rules.core.log import EventLog
from rules.eldfall.actions import Activate, ChooseOrder, Declare, Move, Pass
from tools import gameplay

DARK = """table: [36, 36]
terrain:
  - {id: dk, shape: box, at: [10, 10, 0], size: [8, 8, 1], tags: [area, dark]}
  - {id: tower, shape: box, at: [10, 10, 0], size: [3, 3, 2]}
models:
  - {id: up, side: red, size: M, at: [10, 10, 2], facing: 0, profile: sample-red#shieldbearer}
  - {id: near, side: blue, size: M, at: [18, 10], facing: 180, profile: sample-blue#marksman}
"""
PIECE = "exceptions:\n  area_height: piece\n"

# blue-t on the table 0.07" from a 1.5" crate (x 11-13); the burster's Fire Rain is a Circular S
# (radius 1.378"): a centre at (11.02, 10), 0.72" from blue-t (within 1.378 - 0.63), covers it.
# Resting, the card lies on the crate's top there; held at blue-t's level it is inside the crate.
CRATE = """table: [30, 30]
terrain:
  - {id: crate, shape: box, at: [12, 10, 0], size: [2, 2, 1.5]}
models:
  - {id: red-mage, side: red, profile: test-party#burster, at: [4, 16], facing: 0}
  - {id: blue-t, side: blue, size: M, at: [10.3, 10], facing: 180,
     stats: {STA: 2, SPD: 5, ARM: 3, HP: 2, OFF: 9, DEF: 10, ACC: 15, INT: 11, AG: 11, T: 11, M: 13}}
"""


def command_table(*argv) -> tuple[dict, gameplay.TableSettings]:
    """The rules' and the table's settings of ``eldfall play SCENE --bots ARGV``, as it reads them."""
    from tools.cmd_play import add_arguments
    p = argparse.ArgumentParser()
    add_arguments(p)
    return gameplay.command_settings(p.parse_args(["scene.yaml", "--bots", *argv]))


def _active(g, side: str, model: str) -> None:
    """``side`` plays first; ``model`` is Activated and stays where it is."""
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == side))
    g.apply(Activate(model))
    g.apply(Move(model, "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass(next(s for s in g.sides if s != side)))


def dark_attack(scene, table, log=None):
    """(game, the attack's event data): near shoots up with its Heavy Crossbow."""
    mod, g = gameplay.new_game(str(scene), "eldfall", 0, log=log, table=table)
    _active(g, "blue", "near")
    ev = g.apply(Declare("near", "Ranged Attack", weapon="Heavy Crossbow", targets=(("up", 1),)))
    (attack,) = [e.data for e in ev if e.kind == "attack"]
    return g, attack


@pytest.fixture
def dark(tmp_path):
    return write(tmp_path, "dark.yaml", DARK)


@pytest.fixture
def piece(tmp_path):
    return write(tmp_path, "piece.yaml", PIECE)


# ----------------------------------------------------------------------------- the game's answers
@pytest.mark.parametrize("given,dark_mod", [(False, -3), (True, None)])
def test_the_dark_minus_3_follows_the_area_height_the_game_is_played_on(dark, piece, given, dark_mod):
    rules, table = command_table(*(("--settings", str(piece)) if given else ()))
    assert rules == {}
    g, attack = dark_attack(dark, table)
    assert attack["failed"] is None
    assert attack["modifiers"].get("dark") == dark_mod, attack["modifiers"]
    assert g.geo.sight_settings is table.sight


@pytest.mark.parametrize("card,why", [("rest", None), ("hold", "circle_card: hold")])
def test_a_held_card_is_refused_over_the_crate_in_a_game(tmp_path, card, why):
    models = burster_models(tmp_path)
    scene = write(tmp_path, "crate.yaml", CRATE)
    rules, table = command_table("--set", "rounds=2", "--set", f"templates.circle_card={card}")
    assert rules == {"rounds": 2}                      # the template's key is not the rules'
    mod, g = gameplay.new_game(str(scene), "eldfall", 0, settings=rules, models_dir=str(models), table=table)
    _active(g, "red", "red-mage")
    g.models["red-mage"].mana = 2                      # Fire Rain's cost
    d = Declare("red-mage", "Spell Attack", spell="Fire Rain", targets=(("blue-t", 1),), place=(11.02, 10, 1.5))
    reason = g.why_illegal(d)
    if why is None:
        assert reason is None
        g.apply(d)
        assert any(e.kind == "attack" and e.data["victims"] == ["blue-t"] for e in g.events)
    else:
        assert reason and "inside crate at the target's level" in reason and why in reason, reason
        assert "<command line>" not in reason and "--at" not in reason, reason     # a game's words
    # the bots' best placement asks the same settings (WorldGeometry.best_template)
    assert g.geo.best_template("circle-s", user="red-mage", target="blue-t").legal


# ----------------------------------------------------------------------------- the log and replay
def test_the_log_records_the_settings_and_replays_on_them(tmp_path, capsys, dark, piece):
    log = tmp_path / "g.jsonl"
    _, table = command_table("--settings", str(piece), "--set", "templates.circle_card=hold")
    with EventLog(log) as lg:
        g, attack = dark_attack(dark, table, log=lg)
    assert "dark" not in attack["modifiers"]
    lines = log.read_text().splitlines()
    header = json.loads(lines[0])
    assert header["scene"]["geometry"] == {"sight": {"exceptions": {"area_height": "piece"}},
                                           "templates": {"circle_card": "hold"}}
    rc, out, err = run_cli(capsys, "replay", str(log), "--json")
    assert rc == 0, err
    assert json.loads(out)["state_hash"] == g.state_hash()
    # the block taken out: the replay plays on the defaults, where the attack takes the Dark's -3
    del header["scene"]["geometry"]
    edited = write(tmp_path, "edited.jsonl", "\n".join([json.dumps(header)] + lines[1:]) + "\n")
    rc, out, err = run_cli(capsys, "replay", str(edited))
    assert rc == 2 and out == ""
    seq = next(json.loads(x)["seq"] for x in lines[1:] if json.loads(x)["kind"] == "attack")
    assert err.startswith(f"{edited}:{seq + 2}: "), err


def test_a_game_on_the_defaults_keeps_its_header(tmp_path, dark):
    log = tmp_path / "g.jsonl"
    with EventLog(log) as lg:
        # the sight settings given, but every one the default's: nothing changed, nothing recorded
        dark_attack(dark, gameplay.TableSettings(command_table("--settings", "engine/data/sight.yaml")[1].sight),
                    log=lg)
    assert "geometry" not in json.loads(log.read_text().splitlines()[0])["scene"]


@pytest.mark.parametrize("block,lines", [
    ({"sight": {"exceptions": {"area_height": "tall"}}},
     ["scene.geometry.sight.exceptions.area_height: must be one of infinite, piece, not 'tall'"]),
    ({"templates": {"circle_card": "sit", "size": 3}},
     ["scene.geometry.templates.circle_card: must be one of rest, hold, not 'sit'",
      "scene.geometry.templates.size: unknown template setting; known: circle_card, band_test, "
      "models_block, front_arc, centre_lift"]),
    ({"motion": {}}, ["scene.geometry.motion: unknown block; known: sight, templates (an edited log?)"]),
    (5, ["scene.geometry: must be a mapping of sight and templates settings, not 5 (an edited log?)"]),
    ({"sight": {"exceptions": {"area_height": "infinite"}}},      # the default recorded: not as written
     ['scene.geometry: the log has {"sight": {"exceptions": {"area_height": "infinite"}}}, the settings '
      'of this game give nothing (an edited log, or a game on other settings)']),
])
def test_a_bad_settings_block_in_the_header_is_one_line_each_at_line_1(tmp_path, capsys, dark, block, lines):
    log = tmp_path / "g.jsonl"
    with EventLog(log) as lg:
        dark_attack(dark, gameplay.TableSettings(), log=lg)
    text = log.read_text().splitlines()
    header = json.loads(text[0])
    header["scene"]["geometry"] = block
    edited = write(tmp_path, "edited.jsonl", "\n".join([json.dumps(header)] + text[1:]) + "\n")
    rc, out, err = run_cli(capsys, "replay", str(edited))
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"{edited}:1: {x}" for x in lines]


# ----------------------------------------------------------------------------- the commands
def test_play_names_the_changed_settings_and_its_log_replays(tmp_path, capsys, dark, piece):
    log = tmp_path / "g.jsonl"
    argv = ["play", str(dark), "--bots", "random", "--set", "rounds=1", "--settings", str(piece),
            "--set", "templates.circle_card=hold"]
    rc, out, err = run_cli(capsys, *argv, "--json", "--log", str(log))
    assert rc == 0, err
    res = json.loads(out)
    assert res["settings"] == {"rounds": 1}
    assert res["geometry"] == {"sight": {"exceptions": {"area_height": "piece"}}, "templates": {"circle_card": "hold"}}
    rc, out, err = run_cli(capsys, "replay", str(log), "--json")
    assert rc == 0, err
    assert json.loads(out)["state_hash"] == res["state_hash"]
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 0, err
    assert out.splitlines()[0].endswith(
        "; settings changed from the defaults: exceptions.area_height piece, templates.circle_card hold")
    rc, out, err = run_cli(capsys, "play", str(dark), "--bots", "random", "--set", "rounds=1", "--json")
    assert rc == 0 and json.loads(out)["geometry"] == {}


@pytest.mark.parametrize("command", ["play", "simulate", "view"])
def test_bad_settings_are_one_line_each_and_nothing_is_written(tmp_path, capsys, dark, command):
    bad = write(tmp_path, "bad.yaml", "exceptions:\n  area_height: tall\n")
    log = write(tmp_path, "old.jsonl", "an old log\n")
    extra = {"play": ["--bots", "--log", str(log)], "simulate": ["--games", "1"],
             "view": ["--offscreen", "--frames", "1", "--out", str(tmp_path / "frames")]}[command]
    for argv, want in (
            (["--settings", str(bad)],
             [f"{bad}:2: exceptions.area_height: must be one of infinite, piece, not 'tall'"]),
            (["--settings", str(tmp_path / "none.yaml")], None),
            (["--set", "templates.circle_card=sit", "--set", "templates.band_test=top"],
             ["<command line>: --set templates.circle_card: must be one of rest, hold, not 'sit'",
              "<command line>: --set templates.band_test: must be one of hitbox, base, not 'top'"])):
        rc, out, err = run_cli(capsys, command, str(dark), *extra, *argv)
        assert rc == 2 and out == "", (argv, out, err)
        if want is None:
            assert len(err.splitlines()) == 1 and err.startswith(f"{tmp_path / 'none.yaml'}"), err
        else:
            assert err.splitlines() == want
    assert log.read_text() == "an old log\n" and not (tmp_path / "frames").exists()


def test_view_takes_only_template_settings(tmp_path, capsys, dark):
    rc, out, err = run_cli(capsys, "view", str(dark), "--offscreen", "--frames", "1", "--out",
                           str(tmp_path / "frames"), "--set", "rounds=3", "--set", "templates.circle_card=hold",
                           "--set", "seed=2")
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"<command line>: --set {k}: eldfall view takes only template settings "
                                "(templates.KEY=VALUE); the rules' settings are for eldfall play and simulate"
                                for k in ("rounds", "seed")]


def test_simulate_plays_every_game_on_the_settings(tmp_path, capsys, dark, piece):
    from tools import cmd_simulate as cs
    rc, out, err = run_cli(capsys, "simulate", str(dark), "--games", "1", "--jobs", "1", "--set", "rounds=1",
                           "--settings", str(piece), "--json")
    assert rc == 0, err
    res = json.loads(out)
    assert res["geometry"] == {"sight": {"exceptions": {"area_height": "piece"}}} and res["settings"] == {"rounds": 1}
    rc, out, err = run_cli(capsys, "simulate", str(dark), "--games", "1", "--jobs", "1", "--set", "rounds=1",
                           "--set", "templates.front_arc=false")
    assert rc == 0 and out.splitlines()[0].endswith("; settings changed from the defaults: templates.front_arc false")
    # the series' later games (the shared World) and a worker's table are on them too
    _, table = command_table("--settings", str(piece))
    t = cs.Table(str(dark), None, None, table)
    for seed in (0, 1):
        _, g = t.new_game(seed)
        assert g.geo.sight_settings.area_height == "piece"
        assert g.header()["scene"]["geometry"] == {"sight": {"exceptions": {"area_height": "piece"}}}
    cs._worker_init(str(dark), None, None, table)
    assert cs._worker_play((0, "random", {"rounds": 1}))["state_hash"] == \
        cs._play(cs.Table(str(dark), None, None, table), 0, "random", {"rounds": 1})["state_hash"]
    assert cs._WORKER["table"].table is table


def test_view_games_are_on_the_settings_or_the_logs(tmp_path, dark, piece):
    from tools import cmd_view
    from tools.loading import load_world
    p = argparse.ArgumentParser()
    cmd_view.add_arguments(p)
    log = tmp_path / "g.jsonl"
    _, table = command_table("--settings", str(piece))
    with EventLog(log) as lg:
        dark_attack(dark, table, log=lg)
    header = json.loads(log.read_text().splitlines()[0])
    # with --log and neither --settings nor --set: the log's own
    args = p.parse_args([str(dark), "--log", str(log)])
    from_log = cmd_view.table_settings(args, header)
    assert from_log.changed() == table.changed()
    # given: those (a log on others is then refused when it is loaded, as its header differs)
    args = p.parse_args([str(dark), "--log", str(log), "--set", "templates.circle_card=hold"])
    assert cmd_view.table_settings(args, header).changed() == {"templates": {"circle_card": "hold"}}
    world = load_world(str(dark))
    game, geo = cmd_view.game_factory(world, "eldfall", None, from_log)(1)
    assert geo.sight_settings.area_height == "piece" and game.geo is geo
    assert game.header()["scene"]["geometry"] == header["scene"]["geometry"]


def test_the_log_may_not_overwrite_the_settings_file(tmp_path, capsys, dark, piece):
    rc, out, err = run_cli(capsys, "play", str(dark), "--bots", "random", "--settings", str(piece),
                           "--log", str(piece))
    assert rc == 2 and out == ""
    assert err.strip() == (f"<command line>: --log: {piece} is the --settings file: the log would overwrite it "
                           "(give the log another name)")
    assert piece.read_text() == PIECE
