"""Stratagems: the data, the Strategic Phase window, effects, durations, uses,
the Leader rule, duels, replay and undo (rules/eldfall/stratagems.py).

Scripted games run on FlatGeometry; the scene tests run scenes/warbands.yaml
(SAMPLE Stratagems) on the real World.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest

from rules.core.dice import Dice
from rules.core.flat import FlatGeometry
from rules.eldfall import game_from_log, narrate
from rules.eldfall import stratagems as sg
from rules.eldfall.actions import Action, ChooseOrder, EndTurn, Pass, UseStratagem
from rules.eldfall.sequence import EldfallGame
from tests.eldfall_scenario import unit

ROOT = Path(__file__).resolve().parents[1]
SCENE = "scenes/warbands.yaml"

HOLD = {"name": "Hold the Line", "target": "own", "range": 6, "uses": 2,
        "effect": {"mods": {"DEF": 2}, "duration": "turn", "ap": 1}}
CURSE = {"name": "Curse", "target": "enemy", "effect": {"states": ["Slowed"], "mods": {"AG": -2},
                                                        "duration": "round"}}


def units(**states):
    return [unit("r1", "red", 10, 5, leader=True, states=list(states.get("r1", ()))),
            unit("r2", "red", 14, 5, states=list(states.get("r2", ()))),
            unit("r3", "red", 30, 5),
            unit("b1", "blue", 10, 30, leader=True),
            unit("b2", "blue", 14, 30)]


def make(strats, us=None, settings=None, first="red", rolls=None, seed=0):
    us = us or units()
    geo = FlatGeometry((36.0, 36.0))
    for u in us:
        geo.add_model(u, u.at, u.facing)
    g = EldfallGame(us, geo, seed=seed, settings=settings,
                    scene_info={"table": [36.0, 36.0], "stratagems": strats})
    if rolls is not None:
        g.dice = Dice.fixed(rolls)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    return g


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def legal(g):
    return set(g.legal_actions())


def replay(g):
    geo = FlatGeometry((36.0, 36.0))
    return game_from_log(g.header(), list(g.events), geo)


# ---------------------------------------------------------------------------
def test_a_scripted_use_gives_its_mods_and_ap_then_ends_at_the_end_phase():
    g = make({"red": [HOLD]}, rolls=[])
    assert g.pending == ("stratagem", "red")
    assert kinds(g.events, "stratagem_window")[-1].data == {"side": "red", "leader": "r1",
                                                            "usable": ["Hold the Line"]}
    # r3 stands 20" from the Leader: out of the 6" range
    assert legal(g) == {Pass("red"), UseStratagem("red", "Hold the Line", "r1"),
                        UseStratagem("red", "Hold the Line", "r2")}
    ev = g.apply(UseStratagem("red", "Hold the Line", "r2"))
    use = kinds(ev, "stratagem")[0].data
    assert use["targets"] == ["r2"] and use["leader"] == "r1" and use["uses_left"] == 1
    lines = narrate.narrate(ev)
    assert any("r1 uses the Stratagem Hold the Line on r2: +2 DEF, +1 AP at this Upkeep" in s
               for s in lines), lines
    # one Stratagem per Strategic Phase (default): on to Upkeep and the Tactical Phase
    assert g.pending == ("tactical", "red")
    assert g.stat("r2", "DEF") == 14 and g.stat("r1", "DEF") == 12
    assert g.models["r2"].ap == 3 and g.models["r1"].ap == 2     # STA 2, +1 AP at this Upkeep
    assert [e.data["why"] for e in kinds(ev, "ap") if e.data["model"] == "r2"] == \
        ["Upkeep + Stratagem Hold the Line +1"]
    ev = g.apply(EndTurn("red"))
    ends = kinds(ev, "stratagem_ends")
    assert [(e.data["model"], e.data["name"], e.data["mods"]) for e in ends] == \
        [("r2", "Hold the Line", {"DEF": 2})]
    assert g.stat("r2", "DEF") == 12
    # the +AP was for that Upkeep only: blue's Upkeep gives r2 its STA
    assert g.models["r2"].ap == 2


def test_round_duration_lasts_until_the_users_next_strategic_phase():
    g = make({"blue": [CURSE]}, first="blue", rolls=[])
    assert g.pending == ("stratagem", "blue")
    assert legal(g) == {Pass("blue")} | {UseStratagem("blue", "Curse", t) for t in ("r1", "r2", "r3")}
    g.apply(UseStratagem("blue", "Curse", "r1"))
    assert "Slowed" in g.models["r1"].states and g.stat("r1", "AG") == 8
    g.apply(EndTurn("blue"))
    assert g.pending == ("tactical", "red")              # red has no Stratagems: no window
    assert "Slowed" in g.models["r1"].states and g.stat("r1", "AG") == 8
    ev = g.apply(EndTurn("red"))                          # round 2, blue's Strategic Phase
    assert [e.data["name"] for e in kinds(ev, "stratagem_ends")] == ["Curse"]
    assert "Slowed" not in g.models["r1"].states and g.stat("r1", "AG") == 10
    # Curse was its only use: no window this time
    assert g.pending == ("tactical", "blue")
    assert g.why_illegal(UseStratagem("blue", "Curse", "r1"))


def test_a_state_the_model_already_had_stays_when_the_effect_ends():
    g = make({"blue": [CURSE]}, us=units(r1=["Slowed"]), first="blue", rolls=[])
    g.apply(UseStratagem("blue", "Curse", "r1"))
    g.apply(EndTurn("blue"))
    ev = g.apply(EndTurn("red"))
    end = kinds(ev, "stratagem_ends")[0].data
    assert end["states"] == [] and end["mods"] == {"AG": -2}
    assert "Slowed" in g.models["r1"].states


def test_uses_per_game_run_out_and_uses_per_turn_come_back():
    rally = {"name": "Rally", "target": "own", "effect": {"heal": 1}}
    bandage = {"name": "Bandage", "target": "leader", "per": "turn", "effect": {"remove": ["Bleeding"]}}
    g = make({"red": [rally, bandage]}, settings={"stratagems_per_phase": 2}, rolls=[])
    g.apply(UseStratagem("red", "Rally", "r2"))
    assert g.pending == ("stratagem", "red")               # a second use this phase
    assert legal(g) == {Pass("red"), UseStratagem("red", "Bandage")}
    assert "used up" in g.why_illegal(UseStratagem("red", "Rally", "r1"))
    g.apply(UseStratagem("red", "Bandage"))
    assert g.pending == ("tactical", "red")                # 2 per phase reached
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    # round 2: Bandage (per turn) is back, Rally (1 per game) is not
    assert g.pending == ("stratagem", "red")
    assert legal(g) == {Pass("red"), UseStratagem("red", "Bandage")}
    ev = g.apply(Pass("red"))
    assert kinds(ev, "stratagems_done")[0].data == {"side": "red", "used": 0}
    assert g.pending == ("tactical", "red")


def test_the_per_phase_setting():
    g = make({"red": [HOLD]}, settings={"stratagems_per_phase": 0})
    assert g.pending == ("tactical", "red")
    with pytest.raises(ValueError):
        make({"red": [HOLD]}, settings={"stratagems_per_phase": 21})


@pytest.mark.parametrize("state", ["Incapacitated", "Dead"])
def test_no_stratagems_while_the_leader_is_down(state):
    # an Incapacitated Leader rolls its Recovery Check (a 20 fails): still down
    g = make({"red": [HOLD]}, us=units(r1=[state]), rolls=[20] if state == "Incapacitated" else [])
    assert g.pending == ("tactical", "red")
    info = [e.data for e in g.events if e.kind == "stratagems" and e.data["side"] == "red"][0]
    assert info == {"side": "red", "available": False, "leader": None}
    assert not kinds(g.events, "stratagem_window")
    g.pending = ("stratagem", "red")          # even forced open, the rule refuses it
    assert "Leader" in g.why_illegal(UseStratagem("red", "Hold the Line", "r2"))


def test_a_leader_that_stands_again_uses_them_next_turn():
    # the Recovery Check comes after the Stratagems: the Leader who recovers
    # (a 1) can use them from its side's next Strategic Phase
    g = make({"red": [HOLD]}, us=units(r1=["Incapacitated"]), rolls=[1])
    assert g.pending == ("tactical", "red") and "Incapacitated" not in g.models["r1"].states
    g.dice = Dice(5)
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    assert g.pending == ("stratagem", "red")


def test_targets_range_awareness_and_kinds():
    aware = {"name": "Whisper", "target": "own", "awareness": True, "effect": {"heal": 1}}
    allown = {"name": "Shield Wall", "target": "all-own", "range": 6,
              "effect": {"mods": {"DEF": 1}, "duration": "game"}}
    g = make({"red": [HOLD, CURSE | {"name": "Hex"}, aware, allown, {"name": "Breath",
              "target": "leader", "effect": {"ap": 2}}]}, rolls=[])
    why = g.why_illegal
    assert "not within 6\" of r1" in why(UseStratagem("red", "Hold the Line", "r3"))
    assert "names a target" in why(UseStratagem("red", "Hold the Line"))
    assert "targets a model of red, not b1" in why(UseStratagem("red", "Hold the Line", "b1"))
    assert "targets an enemy" in why(UseStratagem("red", "Hex", "r2"))
    assert why(UseStratagem("red", "Hex", "b1")) is None
    assert "within r1's Awareness" in why(UseStratagem("red", "Whisper", "r3"))   # AG 10"
    assert why(UseStratagem("red", "Whisper", "r2")) is None
    assert "names no target" in why(UseStratagem("red", "Breath", "r1"))
    assert "no Stratagem 'Nope'" in why(UseStratagem("red", "Nope"))
    assert why(UseStratagem("blue", "Curse", "r1")) == "it is red's decision, not blue's"
    ev = g.apply(UseStratagem("red", "Shield Wall"))
    assert kinds(ev, "stratagem")[0].data["targets"] == ["r1", "r2"]
    assert [g.stat(m, "DEF") for m in ("r1", "r2", "r3")] == [13, 13, 12]
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    assert g.stat("r1", "DEF") == 13                       # duration game: still there


def test_stratagems_are_usable_during_a_duel():
    g = make({"red": [HOLD]}, rolls=[])
    g.apply(Pass("red"))
    g.duel = {"models": ["r2", "b2"], "state": "on"}
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    assert g.pending == ("stratagem", "red")
    # on a model outside the duel too: a Stratagem is neither an activation nor a reaction
    assert g.why_illegal(UseStratagem("red", "Hold the Line", "r1")) is None
    g.apply(UseStratagem("red", "Hold the Line", "r2"))
    assert g.models["r2"].ap == 3 and g.models["r1"].ap == 0   # only the duellists get AP


def test_replay_and_undo_are_exact():
    g = make({"red": [HOLD], "blue": [CURSE]}, seed=11)
    before = g.state_hash()
    k = len(g.events)
    g.apply(UseStratagem("red", "Hold the Line", "r2"))
    g.apply(EndTurn("red"))
    g.apply(UseStratagem("blue", "Curse", "r1"))
    after = g.state_hash()
    assert replay(g).state_hash() == after
    undone = game_from_log(g.header(), list(g.events[:k]), FlatGeometry((36.0, 36.0)))
    assert undone.state_hash() == before and undone.pending == ("stratagem", "red")
    assert undone.stat("r2", "DEF") == 12


def test_action_text_round_trips():
    for a in (UseStratagem("blue", "Hunter's Mark", "red-archer"), UseStratagem("red", "Shield Wall")):
        assert Action.parse(str(a)) == a
    assert str(UseStratagem("red", "Shield Wall")) == "stratagem red 'Shield Wall'"


def test_bad_data_in_a_header_is_a_value_error():
    with pytest.raises(ValueError, match="stratagems.green: no such side"):
        make({"green": [HOLD]})
    with pytest.raises(ValueError, match=r"stratagems.red\[0\].target"):
        make({"red": [HOLD | {"target": "friend"}]})
    with pytest.raises(ValueError, match=r"effect does nothing"):
        make({"red": [{"name": "Nothing", "effect": {"heal": 0}}]})
    with pytest.raises(ValueError, match="share a name"):
        make({"red": [HOLD, HOLD]})


def test_the_engine_and_the_rules_share_one_vocabulary():
    import engine.scene as es
    from rules.eldfall import spells as sp
    assert es.STRATAGEM_KEYS == sg.KEYS and es.STRATAGEM_EFFECT_KEYS == sg.EFFECT_KEYS
    assert es.STRATAGEM_TARGETS == sg.TARGETS and es.STRATAGEM_PER == sg.PER
    assert es.STRATAGEM_DURATIONS == sg.DURATIONS and es.STRATAGEM_STATS == sg.MOD_STATS
    assert es.EFFECT_STATES == sp.EFFECT_STATES and es.REMOVABLE_STATES == sp.REMOVABLE_STATES


def test_no_stratagems_no_window_and_no_change_to_the_hash_keys():
    g = make({}, seed=3)
    seen = []
    rng = random.Random(3)
    g.settings["rounds"] = 2
    while not g.is_over:
        seen.append(g.pending[0])
        opts = g.legal_actions().list()
        g.apply(opts[rng.randrange(len(opts))])
    assert "stratagem" not in seen
    assert "stratagems" not in g.state_dict()
    assert not kinds(g.events, "stratagem_window")


# ---------------------------------------------------------------------------
# the sample scene on the real World
def test_check_reports_each_bad_stratagem_line(tmp_path, capsys, monkeypatch):
    from tools.cli import main
    monkeypatch.chdir(ROOT)
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "table: [24, 24]\n"
        "models:\n"
        "  - {id: a, side: red, profile: sample-red#champion, at: [5, 5]}\n"
        "  - {id: b, side: blue, profile: sample-blue#warden, at: [5, 20]}\n"
        "stratagems:\n"
        "  red:\n"
        "    - name: Rally\n"
        "      uses: 0\n"
        "      effect: {heal: 1, mods: {HP: 2}, duration: forever}\n"
        "    - {name: Empty, effect: {}}\n"
        "  green: []\n", encoding="utf-8")
    rc = main(["check", str(bad)])
    out, err = capsys.readouterr()
    assert rc == 2 and "Traceback" not in out + err
    f = str(bad)
    assert err.splitlines() == [
        f"{f}:8: stratagems.red[0].uses: must be at least 1, got 0",
        f"{f}:9: stratagems.red[0].effect.mods.HP: not a stat a Stratagem may change; HP is healed "
        f"with heal: (allowed: STA, SPD, ARM, OFF, DEF, ACC, INT, AG, T, M)",
        f"{f}:9: stratagems.red[0].effect.duration: unknown value 'forever' (allowed: turn, round, game)",
        f"{f}:10: stratagems.red[1].effect: the effect does nothing (give heal, mods, states, remove or ap)",
        f"{f}:11: stratagems.green: no model is on side 'green' (sides: blue, red)",
    ]


def _scene_game(seed):
    from tools import gameplay
    return gameplay.new_game(str(ROOT / SCENE), "eldfall", seed=seed)


def test_the_sample_scene_loads_its_stratagems_into_the_header():
    from engine.scene import load_scene
    sc = load_scene(ROOT / SCENE)
    st = sc.extra["stratagems"]
    assert [s["name"] for s in st["red"]] == ["War Horn", "Shield Wall", "Field Dressing"]
    assert [s["name"] for s in st["blue"]] == ["Hunter's Mark", "Fade into Cover", "Second Wind"]
    assert all(s["text"].startswith("SAMPLE") for side in st.values() for s in side)
    _, g = _scene_game(1)
    assert g.header()["scene"]["stratagems"] == st
    # the benchmark table has none: its games never open the window
    assert "stratagems" not in load_scene(ROOT / "scenes/skirmish.yaml").extra


def test_real_world_ranges_pick_the_targets():
    _, g = _scene_game(1)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    assert g.pending == ("stratagem", "red")
    # the scout stands 8.1" centre to centre from the Champion: its base edge
    # is 6.9" away, beyond Shield Wall's 6"
    ev = g.apply(UseStratagem("red", "Shield Wall"))
    assert kinds(ev, "stratagem")[0].data["targets"] == ["red-champion", "red-archer", "red-shieldbearer"]
    assert g.stat("red-archer", "DEF") == g.models["red-archer"].unit.stat("DEF") + 2
    assert g.stat("red-scout", "DEF") == g.models["red-scout"].unit.stat("DEF")


def test_a_random_bot_game_with_stratagems_replays_to_the_same_hash():
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from rules.eldfall import BOTS
    _, g = _scene_game(7)
    bots = {s: BOTS["random"](70 + i) for i, s in enumerate(g.sides)}
    while not g.is_over:
        g.apply(bots[g.decider()].choose(g))
    uses = kinds(g.events, "stratagem")
    assert uses, "the bots never used a Stratagem"
    geo = WorldGeometry(World(load_scene(ROOT / SCENE)))
    again = game_from_log(g.header(), [e.to_dict() for e in g.events], geo)
    assert again.state_hash() == g.state_hash()
