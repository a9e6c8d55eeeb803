"""Review 16: standing up when Incapacitated ends, and the reactions' "does not react"
line after an undo.

* eldfall-states.txt, Incapacitated: "When canceled, the model may voluntarily cancel
  the Crouched State". The model stayed Crouched until its next Movement Step (or a
  reactive crouch): the choice is now offered when the State ends, as the pending
  decision "stand-up" of the model's player (``stand MODEL up|stay``; a Pass stays),
  before the game goes on: after the Recovery Checks (before the Bleeding rolls), after
  the Strategic Phase's endings (before the Stratagems), after a Stratagem, after the
  Resolution Step (before turning when Hit), at the end of the sequence or the turn.
* The narration's "b1 does not react" followed the Reaction Step it had last seen: after
  an undo in the Reaction Step (the narration never sees the game replayed) it named too
  few models. The rules' "reactions_done" event now names them, as the game has them.
"""
from __future__ import annotations

import pytest

from rules.core.dice import Dice
from rules.core.flat import FlatGeometry
from rules.core.log import dumps
from rules.core.units import spell_dict
from rules.eldfall.actions import Action, Activate, Declare, EndTurn, Move, Pass, StandUp, UseStratagem
from rules.eldfall.bots import GreedyBot, RandomBot
from rules.eldfall.narrate import Summary, line
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, to_action, unit
from tests.test_eldfall_stratagems import make, units

RALLY = {"name": "Rally", "target": "own", "effect": {"heal": 1}}


def _recovering(rolls, boxes=()):
    """Red active; blue's b1 Incapacitated (0 HP), Crouched and Bleeding, b2 beside it: red
    ends its turn and b1 makes its Recovery Check (``rolls``: the check first)."""
    b1 = unit("b1", "blue", 10, 30, states=["Incapacitated", "Crouched", "Bleeding"])
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]), b1, unit("b2", "blue", 20, 30)],
              rolls, boxes=boxes)
    g.models["b1"].hp = 0
    return g


def _replayed(g, upto=None):
    """``g`` replayed from its log (its first ``upto`` events: an undo) on a new table,
    with the same dice."""
    evs = g.events[:upto] if upto is not None else g.events
    rolls = [e.data["value"] for e in evs if e.kind == "roll"]
    return type(g).replay(g.header(), [e.to_dict() for e in evs], FlatGeometry(g.table),
                          dice=Dice.fixed(rolls))


def test_a_passed_recovery_check_offers_the_choice_before_the_bleeding_roll():
    g = _recovering([5, 5])                          # Recovery 5 (T 12): passes; Bleeding 5
    ev = g.apply(EndTurn("red"))
    assert g.pending == ("stand-up", "b1")
    assert "Incapacitated" not in g.models["b1"].states and "Crouched" in g.models["b1"].states
    assert not [e for e in ev if e.kind == "check" and e.data["check"] == "Bleeding"]
    assert list(g.legal_actions()) == [StandUp("b1", True), StandUp("b1", False), Pass("blue")]
    assert g.decider() == "blue"
    assert g.why_illegal(StandUp("b1")) is None and g.why_illegal(Pass("blue")) is None
    assert "blue's decision" in g.why_illegal(Pass("red"))
    assert "not r1's" in g.why_illegal(StandUp("r1"))
    ev = g.apply(StandUp("b1"))
    order = [e.kind for e in ev if e.kind in ("stand_up", "states", "check", "phase")]
    assert order[:3] == ["stand_up", "states", "check"], order     # then the Bleeding roll
    assert "Crouched" not in g.models["b1"].states and g.pending == ("tactical", "blue")


@pytest.mark.parametrize("choice", [StandUp("b1", False), Pass("blue")])
def test_staying_crouched_and_a_pass_keep_the_model_crouched(choice):
    g = _recovering([5, 5])
    g.apply(EndTurn("red"))
    ev = g.apply(choice)
    assert kinds(ev, "stand_up")[0].data == {"model": "b1", "up": False}
    assert "Crouched" in g.models["b1"].states and g.pending == ("tactical", "blue")


def test_another_decision_stays_crouched_first_and_a_failed_check_offers_nothing():
    g = _recovering([5, 5])
    g.apply(EndTurn("red"))
    ev = g.apply(Activate("b2"))                     # the front end went on: b1 stays Crouched
    assert [e.data["action"] for e in kinds(ev, "action")] == ["stand b1 stay", "activate b2"]
    assert "Crouched" in g.models["b1"].states and g.act.model == "b2"
    g = _recovering([15, 5])                         # a failed check: still Incapacitated
    g.apply(EndTurn("red"))
    assert g.pending == ("tactical", "blue")


def test_an_incapacitated_state_an_effect_gave_ends_before_the_stratagems():
    g = make({"blue": [RALLY]}, rolls=[])
    g.add_state("b2", "Incapacitated", "a test effect")   # with HP left: ends at its Strategic Phase
    assert "Crouched" in g.models["b2"].states
    ev = g.apply(EndTurn("red"))
    assert g.pending == ("stand-up", "b2") and not kinds(ev, "stratagem_window")
    ev = g.apply(StandUp("b2"))
    assert kinds(ev, "stratagem_window") and g.pending == ("stratagem", "blue")
    assert "Crouched" not in g.models["b2"].states


def test_a_stratagem_that_heals_an_incapacitated_model_offers_the_choice_then_the_window_goes_on():
    g = make({"red": [dict(RALLY, uses=2)]}, us=units(r2=["Incapacitated", "Crouched"]),
             settings={"stratagems_per_phase": 2}, rolls=[15])
    g.models["r2"].hp = 0
    assert g.pending == ("stratagem", "red")
    g.apply(UseStratagem("red", "Rally", "r2"))
    assert g.pending == ("stand-up", "r2") and g.models["r2"].hp == 1
    g.apply(StandUp("r2"))
    assert g.pending == ("stratagem", "red")           # its second use this phase may follow
    assert "Crouched" not in g.models["r2"].states


def test_a_model_healed_in_the_resolution_step_decides_before_the_hit_models_turn():
    mend = spell_dict("Mend", "Healing", "Fire", 0, target="ally", rng=8, effect="The target regains 1 HP.")
    r = unit("r1", "red", 10, 5, weapons=[], affinities=["Fire"])
    r.spells = [mend]
    g = setup([r, unit("r2", "red", 10, 8), unit("b1", "blue", 30, 30)], [5])
    g.models["r2"].hp = 0
    g.add_state("r2", "Incapacitated", "a Wound")          # (and Crouched)
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Assist", spell="Mend", targets=(("r2", 1),)))
    assert g.pending == ("stand-up", "r2") and not kinds(ev, "sequence_end")
    ev = g.apply(StandUp("r2"))
    assert kinds(ev, "sequence_end") and g.pending == ("tactical", "red")
    assert "Crouched" not in g.models["r2"].states


def test_an_end_no_step_names_is_offered_before_the_next_decision():
    # Incapacitated ended outside the steps that offer the choice by name (here a heal
    # given by hand between two decisions): the choice comes before the next decision,
    # which then waits as it was
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 30), unit("b2", "blue", 20, 30)], [])
    g.models["b1"].hp = 0
    g.add_state("b1", "Incapacitated", "a Wound")
    g.heal("b1", 1, "a test")
    assert g.stand_queue == ["b1"] and g.pending == ("tactical", "red")
    g.apply(Activate("r1"))
    waiting = "crouch" if g.crouch_eligible() else "movement"
    assert g.pending == ("stand-up", "b1") and g.decider() == "blue"
    g.apply(StandUp("b1"))
    assert g.pending[0] == waiting and "Crouched" not in g.models["b1"].states


def test_no_choice_for_a_model_that_may_not_cancel_crouched():
    # the engine's ruling: an Immobilized model cannot enter or cancel Crouched
    g = _recovering([5, 5])
    g.add_state("b1", "Immobilized", "a test")
    g.apply(EndTurn("red"))
    assert g.pending == ("tactical", "blue") and "Crouched" in g.models["b1"].states
    assert "Immobilized" in g._why_not_stand_up("b1")


def test_the_play_summary_tells_the_choice():
    g = _recovering([5, 5])
    s = Summary()
    out = s.feed(g.apply(EndTurn("red"))) + s.feed(g.apply(StandUp("b1")))
    i = out.index("    b1: -Incapacitated (Recovery Check)")
    assert "  b1 stands up as its Incapacitated State ends" in out[i:]
    g = _recovering([5, 5])
    g.apply(EndTurn("red"))
    assert "  b1 stays Crouched as its Incapacitated State ends" in s.feed(g.apply(Pass("blue")))


def test_undo_and_replay_through_the_choice():
    g = _recovering([5, 5, 5, 5])
    g.apply(EndTurn("red"))
    k = len(g.events)
    before = dumps(g.state_dict())
    g.apply(StandUp("b1"))
    again = _replayed(g)           # (the state less the dice: the replay's hold only the rolls made)
    assert dumps(again.state_dict()) == dumps(g.state_dict()) and len(again.events) == len(g.events)
    assert "Crouched" not in again.models["b1"].states
    undone = _replayed(g, k)
    assert undone.pending == ("stand-up", "b1") and dumps(undone.state_dict()) == before
    assert Action.parse("stand b1 up") == StandUp("b1") and str(StandUp("b1", False)) == "stand b1 stay"


def test_the_bots_take_the_choice():
    ups = set()
    for seed in range(6):
        g = _recovering([5, 5])
        g.apply(EndTurn("red"))
        a = RandomBot(seed).choose(g)
        assert isinstance(a, StandUp) and g.why_illegal(a) is None
        ups.add(a.up)
    assert ups == {True, False}
    # the greedy bot stands up in the open, and stays Crouched behind a low wall that hides
    # it crouching from r1's bow (standing, r1 sees it over the wall)
    g = _recovering([5, 5])
    g.apply(EndTurn("red"))
    assert GreedyBot(0).choose(g) == StandUp("b1", True)
    wall = ("low-wall", 5, 27.5, 15, 28.5, 1.0)
    g = _recovering([5, 5], boxes=[wall])
    g.apply(EndTurn("red"))
    assert g.has_los("r1", "b1") is False
    assert GreedyBot(0).choose(g) == StandUp("b1", False)


def test_does_not_react_after_an_undo_in_the_reaction_step_names_every_model():
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 14, facing=270, weapons=[SWORD, BOW]),
               unit("b2", "blue", 12, 14, facing=270, weapons=[SWORD, BOW])], [5] * 20)
    s = Summary()                       # the view's banner: fed each decision's events
    s.feed(g.apply(Activate("r1")))
    if g.pending[0] == "crouch":
        s.feed(g.apply(Pass("blue")))
    s.feed(g.apply(Move("r1", "walk", ((10.0, 8.0, 0.0),))))
    k = len(g.events)
    s.feed(g.apply(Declare("b2", "Dodge")))
    # Ctrl+Z: the game is replayed up to b2's declaration; the narration never sees it
    rolls = [e.data["value"] for e in g.events[:k] if e.kind == "roll"]
    g = type(g).replay(g.header(), [e.to_dict() for e in g.events[:k]], FlatGeometry(g.table),
                       dice=Dice.fixed(rolls + [5] * 10))
    out = s.feed(g.apply(Pass("blue")))
    assert "  b1, b2 do not react" in out, out
    done = kinds(g.events, "reactions_done")[-1]
    assert done.data == {"side": "blue", "offer": "step", "models": ["b1", "b2"]}
    # an old log's event (the side only) is still told from what the narration saw
    assert line(type(done)("reactions_done", {"side": "blue"})) is None


def test_the_hotseat_view_offers_the_choice(view_app, tmp_path):
    pytest.importorskip("panda3d")
    import os
    from rules.eldfall.actions import ChooseOrder
    from view_fixtures import menu_key, open_scene, press
    duel = open(os.path.join(os.path.dirname(__file__), "data", "view", "duel.yaml")).read()
    scene = duel.replace("at: [10, 22], facing: 270}", "at: [10, 22], facing: 270, states: [Incapacitated]}")
    assert scene != duel
    c = open_scene(view_app, tmp_path, scene, seed=0)  # seed 0: its first Recovery Check passes
    try:
        game, world = c.game, c.world
        w = game.pending[1]
        c.apply(ChooseOrder(w, w == "red"))
        c.apply(EndTurn("red"))
        game = c.game
        assert game.pending == ("stand-up", "blue-archer")
        labels = [label for label, _ in c.menu]
        assert labels[:3] == ["blue-archer: stand up", "blue-archer: stay Crouched",
                              "Pass: blue-archer stays Crouched (P)"], labels
        assert ("Incapacitated has ended: blue-archer may stand up or stay Crouched (number keys, "
                "P stays)") in c.hud.status.text
        assert c.selected == "blue-archer"
        events = press(view_app, menu_key(c, "blue-archer: stand up"))
        assert kinds(events, "stand_up")[0].data == {"model": "blue-archer", "up": True}
        assert "Crouched" not in world.hitbox("blue-archer").states
        c.undo()                                         # Ctrl+Z: the choice is asked again
        assert c.game.pending == ("stand-up", "blue-archer")
        assert "Crouched" in world.hitbox("blue-archer").states
        press(view_app, "p")
        assert c.game.pending[0] != "stand-up" and "Crouched" in c.game.models["blue-archer"].states
        assert "blue-archer stays Crouched as its Incapacitated State ends" in c.message, c.message
    finally:
        c.close()
