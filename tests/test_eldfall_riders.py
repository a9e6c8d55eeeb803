"""Mounted riders (eldfall-states.txt, Crouched: "Riders are dismounted when
their model becomes Crouched"; State Priorities: "Rider's model becomes
Crouched || Rider is dismounted"). Rulings: docs/rulings.md, "Riders"."""
import pytest

from rules.core.errors import IllegalAction
from rules.core.flat import FlatGeometry
from rules.core.log import EventLog, read_log
from rules.eldfall import narrate
from rules.eldfall.actions import Activate, Crouch, Declare, DodgeMove, Move, Pass
from rules.eldfall.sequence import EldfallGame
from rules.core.units import weapon_dict
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, to_action, unit

LANCER = {"mounted": True, "dismounted": {"SPD": -2, "ARM": -1, "STA": -1}}
AXE = weapon_dict("Axe", "melee", 1, 12, 1, ["Knockdown"])


def game(r_extra=None, b_extra=None, rolls=(), b_at=(10, 20), r_weapons=None):
    r = unit("r1", "red", 10, 5, weapons=r_weapons or [BOW, SWORD], extra=dict(r_extra or {}))
    b = unit("b1", "blue", *b_at, extra=dict(b_extra or {}))
    b2 = unit("b2", "blue", 30, 33, facing=90.0)        # looks away: never reacts
    return setup([r, b, b2], list(rolls))


def _start(g, model="r1"):
    g.apply(Activate(model))
    if g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))


def test_a_voluntary_crouch_dismounts_for_the_rest_of_the_game():
    g = game(LANCER)
    m = g.models["r1"]
    assert m.mounted and not m.dismounted
    assert g.stat("r1", "SPD") == 5 and g.stat("r1", "ARM") == 3 and g.stat("r1", "STA") == 2
    _start(g)
    ev = g.apply(Move("r1", "idle", crouch_end=True))
    d = kinds(ev, "dismount")
    assert len(d) == 1 and d[0].data["model"] == "r1"
    assert d[0].data["changes"] == {"ARM": -1, "SPD": -2, "STA": -1}
    assert "end of the Movement Step" in d[0].data["why"]
    # the dismount comes right after the States change that made it Crouched
    ks = [e.kind for e in ev]
    assert ks[ks.index("dismount") - 1] == "states"
    assert not m.mounted and m.dismounted
    # SPD 5 - 2 = 3, halved (Crouched) = 2; ARM 3 - 1 = 2, halved = 1
    assert g.stat("r1", "SPD") == 2 and g.stat("r1", "ARM") == 1 and g.stat("r1", "STA") == 1
    # standing up again does not mount it again (the seeds give no way back)
    g.remove_state("r1", "Crouched", "stands up")
    assert not m.mounted and m.dismounted
    assert g.stat("r1", "SPD") == 3 and g.stat("r1", "ARM") == 2
    # a second Crouched gives no second dismount
    g.add_state("r1", "Crouched", "again")
    assert [e for e in g.events if e.kind == "dismount"] == d
    assert narrate.line(d[0]) == ("    r1 is dismounted: -1 ARM, -2 SPD, -1 STA "
                                  "(became Crouched: entered at the end of the Movement Step)")


def test_a_model_that_is_not_mounted_is_unaffected():
    g = game()
    _start(g)
    ev = g.apply(Move("r1", "idle", crouch_end=True))
    assert "Crouched" in g.models["r1"].states
    assert not kinds(ev, "dismount") and not g.models["r1"].dismounted
    assert g.stat("r1", "SPD") == 3 and g.stat("r1", "ARM") == 2      # halved only
    assert "mounted" not in g.models["r1"].to_dict()                   # old hashes unchanged


def test_knockdown_dismounts_the_target():
    g = game(r_weapons=[AXE], b_extra=LANCER, b_at=(10, 7), rolls=[5, 2])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Axe", targets=(("b1", 1),)))
    b = g.models["b1"]
    assert "Crouched" in b.states and not b.mounted and b.dismounted
    d = kinds(ev, "dismount")
    assert [x.data["model"] for x in d] == ["b1"] and "trait" in d[0].data["why"]
    assert g.stat("b1", "SPD") == 2


def test_incapacitated_enters_crouched_and_so_dismounts():
    g = game(b_extra=LANCER)
    g.wound("b1", 3, "test")
    b = g.models["b1"]
    assert {"Incapacitated", "Crouched"} <= b.states
    assert b.dismounted and not b.mounted
    assert kinds(g.events, "dismount")[-1].data["model"] == "b1"


def test_crouched_as_a_reaction_dismounts_the_reactive_rider():
    g = game(b_extra=LANCER)
    g.apply(Activate("r1"))
    assert g.pending == ("crouch", "blue")
    ev = g.apply(Crouch("blue", (("b1", True),)))
    assert kinds(ev, "dismount")[0].data["model"] == "b1"
    assert g.models["b1"].dismounted


def test_the_crouch_after_a_dodge_dismounts():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 12, stats={"AG": 10, "SPD": 6}, extra=dict(LANCER))
    g = setup([r, b], [5, 6, 9])   # r1 hits twice (5, 6); b1 dodges AG 10 with 9
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert g.pending == ("dodge-move", "b1") and g.models["b1"].mounted
    ev = g.apply(DodgeMove("b1", (), crouch=True))
    assert [e.data["model"] for e in kinds(ev, "dismount")] == ["b1"]
    assert g.models["b1"].dismounted and g.stat("b1", "SPD") == 2       # (6 - 2) halved


def test_a_crouch_at_the_start_of_the_move_shortens_the_walk_by_the_dismount():
    # mounted: SPD 5 -> dismounted 3 -> Crouched 2; a walk of 2.5" is too far
    g = game(LANCER)
    _start(g)
    with pytest.raises(IllegalAction):
        g.apply(Move("r1", "walk", ((10.0, 7.5, 0.0),), crouch_start=True))
    assert g.models["r1"].mounted                          # nothing happened
    g.apply(Move("r1", "walk", ((10.0, 6.9, 0.0),), crouch_start=True))
    assert g.models["r1"].dismounted
    plain = game()                                          # not a rider: SPD 5 -> 3
    _start(plain)
    plain.apply(Move("r1", "walk", ((10.0, 7.5, 0.0),), crouch_start=True))


def test_replay_gives_the_same_hash_and_undo_mounts_again(tmp_path):
    from rules.eldfall.actions import ChooseOrder
    path = tmp_path / "riders.jsonl"
    units = [unit("r1", "red", 10, 5, extra=dict(LANCER)), unit("b1", "blue", 10, 20, extra=dict(LANCER)),
             unit("b2", "blue", 30, 33, facing=90.0)]
    geo = FlatGeometry((36.0, 36.0))
    for u in units:
        geo.add_model(u, u.at, u.facing)
    # seeded dice (not fixed ones): the replay's dice state, and so the hash, match
    g = EldfallGame(units, geo, seed=11, scene_info={"table": [36.0, 36.0]}, log=EventLog(path))
    g.apply(ChooseOrder(g.pending[1], g.pending[1] == "red"))
    g.apply(Activate("r1"))
    g.apply(Crouch("blue", (("b1", True),)))
    g.apply(Move("r1", "idle", crouch_end=True))
    g.log.close()
    assert g.models["r1"].dismounted and g.models["b1"].dismounted
    header, events, warnings = read_log(path)
    assert not warnings
    assert header["dice"] is None
    again = EldfallGame.replay(header, events, FlatGeometry((36.0, 36.0)), check=True)
    assert again.state_hash() == g.state_hash()
    assert again.models["r1"].to_dict()["dismounted"] is True
    # the hash covers the flag: the same game with r1 still mounted differs
    again.models["r1"].mounted, again.models["r1"].dismounted = True, False
    assert again.state_hash() != g.state_hash()
    # undo to before the move: r1 rides again, b1 is still dismounted
    k = max(i for i, e in enumerate(events) if e["kind"] == "action"
            and e["data"]["action"].startswith("move r1"))
    undone = EldfallGame.replay(header, events[:k], FlatGeometry((36.0, 36.0)), check=True)
    assert undone.models["r1"].mounted and not undone.models["r1"].dismounted
    assert undone.models["b1"].dismounted
    assert undone.stat("r1", "SPD") == 5


def test_a_rider_cannot_start_crouched_or_carry_bad_changes():
    for extra, states in ((LANCER, ["Crouched"]), ({"mounted": True, "dismounted": {"HP": -1}}, []),
                          ({"mounted": "yes"}, []), ({"mounted": True, "dismounted": {"SPD": 1.5}}, [])):
        r = unit("r1", "red", 10, 5, extra=dict(extra), states=states)
        with pytest.raises(ValueError):
            setup([r, unit("b1", "blue", 10, 20)], [])
