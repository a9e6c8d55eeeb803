"""Actions: text forms round-trip; scripted scenarios for every action with fixed dice."""
import math

import pytest
from hypothesis import given, strategies as st

from rules.core.errors import IllegalAction
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall.actions import (Action, Activate, ChooseOrder, Declare, DodgeMove, DuelAnswer,
                                   EndTurn, Move, Pass)
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, to_action, unit

ids = st.text("abcdefghijklmnopqrstuvwxyz-_0123456789", min_size=1, max_size=8)
coords = st.floats(-100, 100, allow_nan=False, allow_infinity=False)
points = st.tuples(coords, coords, coords)
names = st.text("abcdefghijklmnopqrstuvwxyz ABC'-", min_size=1, max_size=12).filter(
    lambda s: s.strip() == s and "=" not in s)


@given(st.one_of(
    st.builds(Activate, ids),
    st.builds(EndTurn, ids), st.builds(Pass, ids),
    st.builds(ChooseOrder, ids, st.booleans()),
    st.builds(DuelAnswer, ids, st.booleans()),
    st.builds(Move, ids, st.sampled_from(["idle", "walk", "run", "climb", "jump"]),
              st.lists(points, max_size=3).map(tuple), st.one_of(st.none(), st.booleans()),
              st.one_of(st.none(), st.booleans()), st.one_of(st.none(), coords)),
    st.builds(DodgeMove, ids, st.lists(points, max_size=2).map(tuple), st.one_of(st.none(), st.booleans())),
    st.builds(Declare, ids, st.sampled_from(["Melee Attack", "Ranged Attack", "Dodge", "Nothing", "Assist"]),
              st.one_of(st.none(), names), st.one_of(st.none(), names),
              st.lists(st.tuples(ids, st.integers(1, 4)), max_size=3).map(tuple),
              st.one_of(st.none(), points)),
))
def test_text_round_trip(a):
    assert Action.parse(str(a)) == a
    assert eval(repr(a), {c.__name__: c for c in (Activate, EndTurn, Pass, ChooseOrder, DuelAnswer,
                                                   Move, DodgeMove, Declare)}) == a


def test_bad_text():
    for bad in ("", "fly r1", "move r1", "declare r1", "order red maybe", "move r1 walk 1,2"):
        with pytest.raises(ValueError):
            Action.parse(bad)


def melee_pair(rolls, red_kw=None, blue_kw=None, **kw):
    r = unit("r1", "red", 10, 10, **(red_kw or {}))
    b = unit("b1", "blue", 10, 12, **(blue_kw or {}))
    return setup([r, b], rolls, **kw)


def test_melee_attack_hits_and_wounds():
    g = melee_pair([5, 15, 3])
    assert "Engaged" in g.models["r1"].states and g.models["r1"].engaged_by == {"b1"}
    g.apply(Activate("r1"))
    assert g.models["r1"].ap == 1
    g.apply(Move("r1", "idle"))
    assert g.pending == ("reaction", "blue")
    g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    att = kinds(ev, "attack")[0].data
    assert att["stat"] == "OFF" and att["attribute"] == 14
    dmg = kinds(ev, "damage")
    assert len(dmg) == 1 and dmg[0].data["threshold"] == 8 and dmg[0].data["wound"]
    assert g.models["b1"].hp == 2
    assert g.pending == ("tactical", "red")
    assert g.dice.remaining() == []


def test_reactive_melee_confrontation_equal_rolls_cancel():
    # r1 OFF 14 rolls 9, 9; b1 reacts DEF 12 rolls 9: equal -> cancelled; r1's other 9 too
    g = melee_pair([9, 9, 9])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    with pytest.raises(IllegalAction, match="STK is always 1|STK is 1"):
        g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 2),)))
    g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    c = kinds(ev, "confrontation")[0].data
    assert c["a_hits"] == [] and c["b_hits"] == []
    assert not kinds(ev, "damage")
    att = {e.data["attacker"]: e.data for e in kinds(ev, "attack")}
    assert att["b1"]["stat"] == "DEF" and att["b1"]["attribute"] == 12


def test_confrontation_ties_setting_keeps_equal_rolls():
    g = melee_pair([9, 20, 9, 20, 20], settings={"confrontation_ties": "keep"})
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert len(kinds(ev, "damage")) == 2          # both keep their 9


def test_critical_ignores_armor_and_beats_confrontation():
    g = melee_pair([1, 20, 11, 11], red_kw={"stats": {"ARM": 3}}, blue_kw={"stats": {"ARM": 6}})
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    # r1: 1 (crit), 20 (fail); b1: 11 (success, beaten by the crit); damage 11 <= 11 - 0
    d = kinds(ev, "damage")
    assert len(d) == 1 and d[0].data["critical"] and d[0].data["threshold"] == 11 and d[0].data["wound"]


def test_both_critical_both_hit():
    g = melee_pair([1, 20, 1, 20, 20])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert sorted(e.data["model"] for e in kinds(ev, "damage")) == ["b1", "r1"]


def test_stk_split_over_targets_in_active_role():
    r = unit("r1", "red", 10, 10)
    b1 = unit("b1", "blue", 9.3, 11.9)
    b2 = unit("b2", "blue", 10.8, 11.9)
    g = setup([r, b1, b2], [5, 6, 20, 20])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle")); g.apply(Pass("blue"))
    with pytest.raises(IllegalAction, match="3 Strikes declared, STK is 2"):
        g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2), ("b2", 1))))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1), ("b2", 1))))
    assert [e.data["target"] for e in kinds(ev, "attack")] == ["b1", "b2"]
    assert len(kinds(ev, "damage")) == 2


def test_unarmed_and_shield_bash_profiles():
    shield = weapon_dict("Kite Shield", "shield")
    g = melee_pair([5, 12, 5, 20], red_kw={"weapons": [SWORD, shield], "stats": {"T": 12, "AG": 10}},
                   blue_kw={"stats": {"ARM": 2}})
    g.apply(Activate("r1")); g.apply(Move("r1", "idle")); g.apply(Pass("blue"))
    with pytest.raises(IllegalAction, match="out of Reach"):
        g.apply(Declare("r1", "Melee Attack", weapon="Unarmed", targets=(("b1", 1),)))
    g2 = setup([unit("r1", "red", 10, 10, weapons=[SWORD, shield]), unit("b1", "blue", 10, 11.26)],
               [5, 11, 5, 6, 20])
    g2.apply(Activate("r1")); g2.apply(Move("r1", "idle")); g2.apply(Pass("blue"))
    ev = g2.apply(Declare("r1", "Melee Attack", weapon="Shield Bash", targets=(("b1", 1),)))
    d = kinds(ev, "damage")[0].data
    assert d["pw"] == 12 and d["threshold"] == 9          # PW T = 12, ARM 3
    # Unkeen: the wound (11 <= 9? no) ... roll 11 > 9: no wound, so no T roll; Knockback 1
    assert kinds(ev, "place")[0].data["why"].startswith("Knockback 1")
    assert abs(g2.geo.position("b1")[1] - 12.26) < 1e-6
    g2.apply(Activate("r1"))
    g2.apply(Move("r1", "walk", ((10.0, 11.0, 0.0),)))
    g2.apply(Pass("blue"))
    # Unarmed: PW = max(T, AG-3) = 12; Unkeen: a T roll (20: fails) would negate the wound
    ev = g2.apply(Declare("r1", "Melee Attack", weapon="Unarmed", targets=(("b1", 1),)))
    d = kinds(ev, "damage")[0].data
    assert d["pw"] == 12 and d["wound"]
    assert [c.data["check"] for c in kinds(ev, "check")] == ["Unkeen"]
    assert g2.models["b1"].hp == 2


def test_run_allows_only_nothing_and_special_actions_need_idle():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 30, 30)
    g = setup([r, b], [])
    g.apply(Activate("r1"))
    ev = g.apply(Move("r1", "run", ((10.0, 14.0, 0.0),)))
    if g.pending[0] == "reaction":
        ev = g.apply(Pass("blue"))
    decl = [e for e in ev if e.kind == "declare"]
    assert decl and "Nothing" in decl[0].data["action"] and decl[0].data["auto"]
    assert g.pending == ("tactical", "red")
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 15.0, 0.0),)))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    with pytest.raises(IllegalAction, match="Idle"):
        g.apply(Declare("r1", "Uncover"))
    g3 = setup([unit("r1", "red", 10, 5), b], [])
    g3.apply(Activate("r1"))
    with pytest.raises(IllegalAction, match=r"more than 5\.00"):
        g3.apply(Move("r1", "walk", ((10.0, 11.0, 0.0),)))
    with pytest.raises(IllegalAction, match="movement decision: it takes move"):
        g3.apply(Declare("r1", "Nothing"))


def test_ranged_attack_cover_range_band_and_out_of_range():
    r = unit("r1", "red", 10, 5, weapons=[BOW])
    b = unit("b1", "blue", 10, 20.5)
    wall = ("wall", 8, 19, 12, 19.5, 1.0)      # low wall just in front of b1: light cover
    g = setup([r, b], [5, 20, 20], boxes=[wall])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 2),)))
    a = kinds(ev, "attack")[0].data
    assert a["modifiers"] == {"cover": -2, "range": -3}
    assert a["attribute"] == 13 - 2 - 3
    far = setup([unit("r1", "red", 10, 2, weapons=[BOW]), unit("b1", "blue", 10, 30)], [])
    to_action(far, "r1")
    with pytest.raises(IllegalAction, match="out of range"):
        far.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))


def test_friendly_fire_penalty_and_17_to_20_hits_the_ally():
    r = unit("r1", "red", 10, 5, weapons=[BOW])
    r2 = unit("r2", "red", 11.26, 20, facing=270)
    b = unit("b1", "blue", 10, 20, facing=0)
    g = setup([r, r2, b], [18, 20, 3, 15])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    a = kinds(ev, "attack")[0].data
    assert a["modifiers"]["friendly fire"] == -4
    ff = kinds(ev, "friendly_fire")
    assert ff and ff[0].data["ally"] == "r2" and ff[0].data["roll"] == 18
    assert kinds(ev, "damage")[0].data["model"] == "r2"


def test_death_blow_needs_incapacitated_and_contact():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 11.26, states=["Incapacitated", "Crouched"])
    b2 = unit("b2", "blue", 30, 30)
    far = unit("r2", "red", 20, 5)
    g = setup([r, far, b, b2], [])
    g.models["b1"].hp = 0
    to_action(g, "r2")
    with pytest.raises(IllegalAction, match="Base Contact"):
        g.apply(Declare("r2", "Death Blow", targets=(("b1", 1),)))
    with pytest.raises(IllegalAction, match="only be declared against an Incapacitated"):
        g.apply(Declare("r2", "Death Blow", targets=(("b2", 1),)))
    g.apply(Declare("r2", "Nothing"))
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Death Blow", targets=(("b1", 1),)))
    assert "Dead" in g.models["b1"].states
    assert not kinds(ev, "roll")


def test_an_all_incapacitated_side_ends_the_game_at_the_start_of_a_turn():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 30, 30, states=["Incapacitated", "Crouched"])
    g = setup([r, b], [])
    assert g.is_over and g.outcome.termination.value == "elimination"
    assert g.outcome.winner == "red" and g.outcome.scores["red"] == 1


def test_realism_measuring_lets_an_out_of_reach_attack_be_declared_and_fail():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 10, 9)
    g = setup([r, b], [], settings={"measuring": "realism"})
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    a = kinds(ev, "attack")[0].data
    assert a["failed"].startswith("out of Reach") and not kinds(ev, "roll")
    g2 = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 9)], [])
    to_action(g2, "r1")
    with pytest.raises(IllegalAction, match="out of Reach"):
        g2.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))


def test_a_declaration_is_narrated_in_words():
    from rules.eldfall.narrate import declared
    assert declared("declare red-scout 'Ranged Attack' weapon=Shortbow targets=blue-ogre:1") == \
        "Ranged Attack with Shortbow at blue-ogre"
    assert declared("declare a 'Ranged Attack' weapon=Longbow targets=b:2 at=15.0,20.0,0.0") == \
        "Ranged Attack with Longbow at b (2 Strikes), at the point (15.0, 20.0) of the mover's path"
    assert declared("declare a 'Spell Attack' spell=Fire\\ Bolt targets=b:1").startswith("Spell Attack [Fire")
