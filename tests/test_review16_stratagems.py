"""Review 16: a Stratagem's State given by two sources (docs/rulings.md, "A State
given by two sources"): it lasts until its longest-lasting source ends, whoever gave
it, a Stratagem's boost being one source among the others (rules/eldfall/stratagems.py,
EldfallGame._given_again / _source_ends).
"""
from __future__ import annotations

from rules.eldfall import stratagems as sg
from rules.eldfall.actions import EndTurn, UseStratagem
from tests.test_eldfall_stratagems import CURSE, kinds, make, units

# a Stratagem of the turn (it ends at the user's End Phase) and one of the game
SNARE = {"name": "Snare", "target": "enemy", "effect": {"states": ["Slowed"], "duration": "turn"}}
CHAIN = {"name": "Chain", "target": "enemy", "effect": {"states": ["Slowed"], "duration": "game"}}


def test_a_stratagem_extends_a_state_whose_source_ends_sooner():
    # Slowed until r1's next Strategic Phase (red's, in round 1: blue plays first);
    # blue's Curse lasts to blue's next Strategic Phase (round 2)
    g = make({"blue": [CURSE]}, first="blue", rolls=[])
    g.add_state("r1", "Slowed", "Poison", expiry="strategic")
    g.apply(UseStratagem("blue", "Curse", "r1"))
    m = g.models["r1"]
    assert m.expiry["Slowed"] == "strategic" and m.boosts[0][4] == ("Slowed",)
    g.apply(EndTurn("blue"))                           # red's Strategic Phase: Poison ends
    assert "Slowed" in m.states and "Slowed" not in m.expiry and m.boosts[0][4] == ("Slowed",)
    ev = g.apply(EndTurn("red"))                       # blue's: the Curse ends, and the State
    assert [e.data["states"] for e in kinds(ev, "stratagem_ends")] == [["Slowed"]]
    assert "Slowed" not in m.states and not m.boosts and "Slowed" not in m.expiry


def test_a_stratagem_of_the_turn_does_not_make_a_state_last_forever():
    # before the fix, giving a State again with no end removed its mark: it never ended
    g = make({"blue": [SNARE]}, first="blue", rolls=[])
    g.add_state("r1", "Slowed", "Poison", expiry="strategic")
    g.apply(UseStratagem("blue", "Snare", "r1"))
    m = g.models["r1"]
    assert m.expiry.get("Slowed") == "strategic"
    ev = g.apply(EndTurn("blue"))                      # Snare ends, then red's Strategic Phase
    assert [e.data["states"] for e in kinds(ev, "stratagem_ends")] == [["Slowed"]]
    assert "Slowed" not in m.states and "Slowed" not in m.expiry


def test_a_state_only_a_stratagem_gave_outlasts_it_when_given_again_with_a_later_end():
    g = make({"blue": [SNARE]}, first="blue", rolls=[])
    g.apply(UseStratagem("blue", "Snare", "r1"))
    m = g.models["r1"]
    assert "Slowed" in m.states and "Slowed" not in m.expiry and m.boosts[0][4] == ("Slowed",)
    g.add_state("r1", "Slowed", "Poison", expiry="strategic")
    assert m.expiry["Slowed"] == "strategic"
    sg.end_boosts(g, "blue", "turn")                               # Snare ends: Poison still gives it
    assert not m.boosts and "Slowed" in m.states
    g._strategic("red")                                # then Poison's end ends it
    assert "Slowed" not in m.states and "Slowed" not in m.expiry


def test_a_lasting_source_outlasts_the_stratagem_and_a_game_stratagem_outlasts_a_mark():
    g = make({"blue": [SNARE]}, first="blue", rolls=[])
    g.apply(UseStratagem("blue", "Snare", "r1"))
    g.add_state("r1", "Slowed", "scene")               # no end: until removed
    m = g.models["r1"]
    assert m.boosts[0][4] == ()
    sg.end_boosts(g, "blue", "turn")
    assert "Slowed" in m.states
    g = make({"blue": [CHAIN]}, first="blue", rolls=[])
    g.add_state("r1", "Slowed", "Poison", expiry="strategic")
    g.apply(UseStratagem("blue", "Chain", "r1"))
    m = g.models["r1"]
    assert "Slowed" not in m.expiry
    g._strategic("red")
    assert "Slowed" in m.states


def test_two_boosts_give_a_state_until_the_later_ends():
    # a turn's Snare and a round's Curse, both blue's, on a model that did not have it
    g = make({"blue": [SNARE, CURSE]}, first="blue", rolls=[],
             settings={"stratagems_per_phase": 2})
    g.apply(UseStratagem("blue", "Snare", "r1"))
    g.apply(UseStratagem("blue", "Curse", "r1"))
    m = g.models["r1"]
    assert [b[4] for b in m.boosts] == [("Slowed",), ("Slowed",)]
    g.apply(EndTurn("blue"))                           # Snare ends: Curse still gives it
    assert "Slowed" in m.states and [b[0] for b in m.boosts] == ["Curse"]
    g.apply(EndTurn("red"))                            # blue's Strategic Phase: Curse ends
    assert "Slowed" not in m.states and not m.boosts


def test_a_state_removed_then_given_anew_is_not_ended_by_the_old_boost():
    g = make({"blue": [SNARE]}, first="blue", rolls=[])
    g.apply(UseStratagem("blue", "Snare", "r1"))
    g.remove_state("r1", "Slowed", "an ability")
    g.add_state("r1", "Slowed", "scene")               # anew, until removed
    m = g.models["r1"]
    sg.end_boosts(g, "blue", "turn")
    assert "Slowed" in m.states


def test_a_state_the_model_had_for_good_stays_and_a_new_one_keeps_the_old_hash_keys():
    g = make({"blue": [CURSE]}, us=units(r1=["Slowed"]), first="blue", rolls=[])
    g.apply(UseStratagem("blue", "Curse", "r1"))
    assert g.models["r1"].boosts[0][4] == ()
    # a State the Stratagem gives anew: no mark, the boost lists it (as recorded before)
    g = make({"blue": [CURSE]}, first="blue", rolls=[])
    g.apply(UseStratagem("blue", "Curse", "r1"))
    d = g.models["r1"].to_dict()
    assert d["expiry"] == {} and d["boosts"] == [["Curse", "blue", {"AG": -2}, "round", ["Slowed"]]]


def test_broken_morale_is_one_more_source_of_a_panicked_with_an_end():
    # r1 Panicked by a Friendly Fire (until its next Strategic Phase), then its party
    # breaks: Broken Morale gives it again. Before: not given (r1 had it), so it ended at
    # red's Strategic Phase while the party stayed broken
    g = make({}, first="blue", rolls=[])
    g.add_state("r1", "Panicked", "Friendly Fire", expiry="strategic")
    for d in ("r2", "r3"):
        g.set_states(d, {"Dead"}, "test")
    g._update_morale()
    m = g.models["r1"]
    assert "red" in g.broken and m.expiry["Panicked"] == ("morale", "strategic")
    g._strategic("red")
    assert "Panicked" in m.states and m.expiry["Panicked"] == "morale"
