"""Review 18 of the Eldfall rules engine: corners found wrong, each pinned by a game.

* Hazy areas (eldfall-facts.md, Environments: "Hazy (no ranged attacks through)"): the
  scene tag was read by the table and never by the rules, so a model standing in haze
  was shot at (and shot out of it) as if in the open.
* Dense areas ("-1 STK ... for ranged within or through"): only an attacker within one
  lost its Strike; a shot at a model standing in one (the line of fire goes through the
  area to reach it) kept every Strike.
* Range bands and a spell's range were judged to 1e-9" while Reach, Awareness and Base
  Contact (and `eldfall measure`'s bands, and docs/rulings.md "Range bands") take the
  0.001" measuring tolerance: at 20.0005" a 0-20 / 21-40 Longbow was at -6 for the rules
  and at 0 for `measure`; a 12" spell refused a target 12.0005" away.
* The move after a Dodge put the model where the declaration ended, not where the table
  ended it: a Dodge move that met an enemy went on past the Base Contact that ends every
  movement ("Movement ends at once on base contact with an enemy"), and one through a
  Dangerous area ("1 Wound on touch unless a Dodge roll passes") rolled nothing.
* A reaction with a Melee-Type spell that named no point was measured where the mover was
  last seen (the ranged reactions' rule), so it struck a mover that had left its Reach
  out of its sight: a melee reaction is aimed at the end of the move or where the mover
  entered its Reach (docs/rulings.md, "A melee reaction's point on the path").
"""
from __future__ import annotations

import math

import pytest

from engine.scene import TerrainSpec
from rules.core.dice import Dice
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall import combat as cb
from rules.eldfall import reactions as rx
from rules.eldfall import resolution
from rules.eldfall.actions import Activate, Declare, DodgeMove, Move, Pass
from tests.eldfall_scenario import BASE_STATS, at_action, engine_game, kinds, setup, unit

BASE = 32 / 25.4                                   # a Medium base, inches
BOW2 = weapon_dict("Bow", "ranged", pw=10, stk=2, bands=[(0, 24, 0)])
VOLLEY = weapon_dict("Volley", "ranged", pw=9, stk=3, bands=[(0, 24, 0)])
LONGBOW = weapon_dict("Longbow", "ranged", pw=11, stk=1, bands=[(0, 20, 0), (21, 40, -6)])
BOLT = spell_dict("Bolt", "Sorcery", "Fire", 0, pw=10, rng=12)
GRASP = spell_dict("Grasp", "Sorcery", "Air", 0, pw=12, rng=1, melee=True)

# r1 shoots north; a Hazy area lies across x 7-13 at y 10.5-13.5 (b1 and r2 stand in it),
# a Dense thicket at x 22-26, y 16-20 (b2 stands in it); b3 stands clear of both
HAZE = TerrainSpec("haze", "box", (10, 12, 0), size=(6, 3, 0.2), tags=frozenset({"area", "hazy"}))
THORNS = TerrainSpec("thorns", "box", (24, 18, 0), size=(4, 4, 0.2), tags=frozenset({"area", "dense"}))
POS = {"r1": ("red", 10, 4, 90), "r2": ("red", 10 + BASE, 12, 180),
       "b1": ("blue", 10, 12, 270), "b2": ("blue", 24, 18, 270), "b3": ("blue", 18, 14, 270)}


@pytest.fixture(scope="module")
def areas():
    g = engine_game(POS, [HAZE, THORNS], weapons=[BOW2, VOLLEY])
    assert g.geo.environments("b1") == {"hazy"} and g.geo.environments("r2") == {"hazy"}
    assert g.geo.environments("b2") == {"dense"} and not g.geo.environments("b3")
    at_action(g, "r1")
    return g


def _shot(target, n=1, weapon="Bow", model="r1"):
    return Declare(model, "Ranged Attack", weapon=weapon, targets=((target, n),))


# --- Hazy: no ranged attacks through -------------------------------------------------
def test_no_ranged_attack_at_a_model_standing_in_a_hazy_area(areas):
    why = areas.why_illegal(_shot("b1"))
    assert why is not None and "Hazy" in why and "b1 stands in one" in why, why
    assert areas.why_illegal(_shot("b3")) is None                 # clear of the haze


def test_no_ranged_attack_out_of_a_hazy_area_but_melee_in_it_is_fair(areas):
    # r2 stands in the haze: its shot would go through it; a blow is no ranged attack
    why = resolution.hazy_block(areas, "r2", ["b3"])
    assert why is not None and "r2 stands in one" in why
    assert resolution.hazy_block(areas, "r1", ["b3"]) is None
    assert areas.has_los("r2", "b1") and areas.geo.base_contact("r2", "b1")
    strike = resolution.Strike("r2", "b1", Declare("r2", "Melee Attack", weapon="Sword",
                                                   targets=(("b1", 1),)),
                               "active", dict(areas.weapon("r2", "Sword")), 1)
    resolution._attack_attribute(areas, strike)
    assert not strike.failed


def test_a_shot_at_a_hazy_model_fails_at_the_resolution_step_too(areas):
    # (a Realism declaration is measured only when it resolves: the haze still stops it)
    st = resolution.Strike("r1", "b1", _shot("b1"), "active", dict(BOW2), 1)
    resolution._attack_attribute(areas, st)
    assert st.failed and "Hazy" in st.failed


# --- Dense: -1 STK for ranged within or through ----------------------------------------
def test_a_shot_at_a_model_standing_in_a_dense_area_loses_a_strike(areas):
    assert areas.why_illegal(_shot("b2", 2)) == "2 Strikes declared, STK is 1"
    assert areas.why_illegal(_shot("b2", 1)) is None
    assert areas.why_illegal(_shot("b3", 2)) is None              # clear of the thicket


def test_the_legal_actions_offer_the_strikes_a_dense_area_leaves(areas):
    legal = {(d.weapon, d.targets) for d in areas.legal_actions()
             if isinstance(d, Declare) and d.action == "Ranged Attack"}
    assert ("Volley", (("b2", 2),)) in legal and ("Volley", (("b2", 3),)) not in legal
    assert ("Volley", (("b3", 3),)) in legal


# --- the 0.001" measuring tolerance at a range's limit ----------------------------------
def test_a_band_holds_its_limit_within_the_measuring_tolerance_as_measure_does():
    from engine.measure import range_band
    bands = [[0.0, 20.0, 0], [21.0, 40.0, -6]]
    for d in (20.0, 20.0005, 20.002, 40.0005, 40.002):
        band = range_band(bands, d)
        assert cb.band_modifier(bands, d) == (None if band is None else band[1]), d
    assert cb.band_modifier(bands, 20.0005) == 0 and cb.band_modifier(bands, 20.002) == -6


def _apart(gap):
    """r1 and b1 with ``gap`` inches between their bases (FlatGeometry measures base edges)."""
    r1 = unit("r1", "red", 10, 5, weapons=[LONGBOW], affinities=["Fire"])
    r1.spells = [BOLT]
    g = setup([r1, unit("b1", "blue", 10, 5 + BASE + gap)], [5] * 10)
    assert math.isclose(g.geo.distance("r1", "b1"), gap, abs_tol=1e-9)
    return at_action(g, "r1")


def test_a_target_within_the_tolerance_of_a_band_is_in_that_band():
    g = _apart(20.0005)
    st = resolution.Strike("r1", "b1", _shot("b1", weapon="Longbow"), "active", dict(LONGBOW), 1)
    resolution._attack_attribute(g, st)
    assert not st.failed and "range" not in st.mods and st.attr == BASE_STATS["ACC"]


def test_a_spell_reaches_a_target_within_the_tolerance_of_its_range():
    g = _apart(12.0005)
    assert g.why_illegal(Declare("r1", "Spell Attack", spell="Bolt", targets=(("b1", 1),))) is None
    g = _apart(12.002)
    assert "out of range" in g.why_illegal(Declare("r1", "Spell Attack", spell="Bolt",
                                                   targets=(("b1", 1),)))


# --- the move after a Dodge ends where the table ends it --------------------------------
def _dodger(units, rolls, boxes=()):
    return _to_dodge_move(setup(units, rolls, boxes=boxes))


def _dodging(g, dodger="b1"):
    """r1 activates Idle and ``dodger`` reacts with a Dodge: r1's Action Step."""
    g.apply(Activate("r1"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    g.apply(Move("r1", "idle"))
    g.apply(Declare(dodger, "Dodge"))
    while g.pending[0] != "action":
        g.apply(Pass(g.pending[1]))
    return g


def _to_dodge_move(g):
    """r1 activates Idle, b1 reacts with a Dodge, r1 does Nothing: b1's move after its Dodge."""
    _dodging(g)
    g.apply(Declare("r1", "Nothing"))
    assert g.pending == ("dodge-move", "b1")
    return g


def test_a_dodge_move_stops_at_base_contact_with_an_enemy():
    # b1 dodges east along y 12; r2 stands so that the base meets it at x 12.3
    g = _dodger([unit("r1", "red", 10, 5), unit("r2", "red", 12.5, 12 + BASE),
                 unit("b1", "blue", 10, 12, facing=270)], [5] * 5)
    mv = g.geo.check_move("b1", "walk", [(13.0, 12.0, 0.0)], 3.0, enemies=g.enemy_reaches("b1"))
    assert mv.legal and mv.stopped_by == "r2"
    ev = g.apply(DodgeMove("b1", ((13.0, 12.0, 0.0),)))
    assert tuple(g.geo.position("b1")) == tuple(mv.end) != (13.0, 12.0, 0.0)
    assert g.geo.distance("b1", "r2") <= 0.021     # (the flat table stops within 0.02")
    moved = kinds(ev, "dodge_move")[0].data
    assert moved["end"] == list(mv.end) and moved["stopped_by"] == "r2"
    from rules.eldfall.narrate import line
    assert line(kinds(ev, "dodge_move")[0]).endswith("after its Dodge, stopped by r2")


def test_a_dodge_move_into_a_dangerous_area_rolls_as_a_walk_does():
    fire = TerrainSpec("fire", "box", (12, 18, 0), size=(2, 2, 0.01), tags=("area", "dangerous"))
    g = engine_game({"r1": ("red", 6, 18, 0), "b1": ("blue", 9, 18, 180)}, [fire],
                    dict(BASE_STATS, SPD=5, AG=10, HP=3))
    g.dice = Dice.fixed([5, 15])          # b1's Dodge (nobody attacks it) passes; the fire's roll fails
    _to_dodge_move(g)
    ev = g.apply(DodgeMove("b1", ((10.6, 18.0, 0.0),)))       # the base's edge at x 11.23: in the fire
    checks = [e.data for e in ev if e.kind == "check" and e.data["check"] == "Dangerous"]
    assert [(c["area"], c["die"]["success"]) for c in checks] == [("fire", False)]
    assert g.models["b1"].hp == 2


# --- a Melee-Type spell's reaction is aimed as a melee one ------------------------------
def test_a_melee_spell_reaction_without_a_point_is_measured_at_the_end_of_the_move():
    # r1 walks past b1 inside Grasp's 1" Reach, then behind b1's back out of its sight and
    # out of that Reach: the last point b1 saw it lies within 1", the end does not
    b1 = unit("b1", "blue", 10, 12, facing=270, weapons=[], affinities=["Air"])
    b1.spells = [GRASP]
    g = setup([unit("r1", "red", 9, 9, facing=0, stats={"SPD": 14}), b1], [5] * 10)
    g.apply(Activate("r1"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    g.apply(Move("r1", "walk", ((11.35, 11.3, 0.0), (11.6, 12.0, 0.0), (11.4, 13.3, 0.0),
                                (11.0, 14.5, 0.0))))
    last = g.act.qualified["b1"]["seen"][-1]
    with g.mover_at(last):
        assert g.geo.distance("r1", "b1") <= 1.0            # in Reach where it was last seen
    assert g.geo.distance("r1", "b1") > 1.0 and not g.has_los("b1", "r1")
    grasp = Declare("b1", "Spell Attack", spell="Grasp", targets=(("r1", 1),))
    assert rx.reaction_point(g, grasp) is None               # the end of the move
    assert "out of Reach" in g.why_illegal(grasp)
    # named at that point, it was refused already ("not on the mover's path where it
    # could be attacked"); the two now agree
    assert "not on the mover's path" in g.why_illegal(
        Declare("b1", "Spell Attack", spell="Grasp", targets=(("r1", 1),), point=last))


# --- Surprise Attack falls on every model a Shrouded attacker's template covers ---------
def test_a_shrouded_attackers_template_surprises_every_model_it_covers():
    # as a template aimed at the ground does (test_review14_ground_attack): b2, under the
    # circle laid on b1, is a target of the Attack too, and dodges with AG halved
    bomb = weapon_dict("Bomb", "ranged", pw=9, stk=1, traits=["Circular S"], bands=[(0, 12, 0)])
    g = setup([unit("r1", "red", 10, 5, weapons=[bomb], states=["Shrouded"]),
               unit("b1", "blue", 10, 12), unit("b2", "blue", 10 + BASE, 12)], [5] * 20)
    _dodging(g, "b2")
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bomb", targets=(("b1", 1),)))
    while g.pending[0] == "reaction-change":
        ev += g.apply(Pass(g.pending[1]))
    assert "b2" in [v for e in kinds(ev, "attack") for v in e.data["victims"]]
    assert {t for e in kinds(ev, "surprise_attack") for t in e.data["targets"]} == {"b1", "b2"}
    dodge = kinds(ev, "dodge")[0].data
    assert dodge["model"] == "b2" and dodge["attribute"] == 5        # AG 10 halved
