"""Legends of Norova: attacks, damage, criticals, Focus, facing, hidden and covered
targets, areas, magic and support actions.

Source: ../shared/seeds/norova-active-turn.txt; gap rules: docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number below can be checked by hand.
"""
import pytest

from rules.core import IllegalAction
from rules.norova import mechanics as mx
from rules.norova.actions import (Aid, Attack, Cast, EndTurn, Equip, Focus, Move, Perceive, Reload,
                                  ThrowPotion, Turn, UsePotion, UseSkill, Wait)
from test_norova_helpers import game, kinds, rolls, unit


def duel(a=None, b=None, bx=6.5, b_facing=180, **kw):
    return game([unit("A", "red", 5, 5, 0, **(a or {})), unit("B", "blue", bx, 5, b_facing, **(b or {}))], **kw)


def hit(g, target="B"):
    return g.f(target).sheet.vitality - g.f(target).vitality


# ---- attacks and range -----------------------------------------------------------
def test_melee_needs_no_roll_but_the_target_may_evade():
    g = duel(a={"offensive_power": 3})
    rolls(g, [10, 2])                              # A's critical check (no crit), B's Evade (2 < 12)
    evs = g.apply(Attack("A", "B", "main"))
    assert [e.data["why"].split(":")[0] for e in evs if e.kind == "roll"] == ["critical hit check", "evade"]
    assert hit(g) == 5 + 3                         # longsword 5 + Offensive Power 3
    g = duel(a={"offensive_power": 3})
    rolls(g, [10, 12])                             # Evade 12 >= 12: evaded
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 0 and kinds(g.events, "strike")[-1]["why"] == "evaded"


def test_range_applies():
    g = duel(bx=7.9)                               # 7.9 - 5 - 1.26 = 1.64" > 1"
    with pytest.raises(IllegalAction, match=r"out of range \(1\"\)"):
        g.apply(Attack("A", "B", "main"))
    g = duel(a={"equipment": {"main": "spear"}}, bx=7.9)      # a spear reaches 2"
    assert Attack("A", "B", "main") in g.legal_actions()


def test_thrown_and_bow_attacks_need_a_focus_check():
    g = duel(a={"equipment": {"main": "shortbow"}, "ammo": {"arrow": 5}, "bow_power": 2, "offensive_power": 9},
             bx=12)
    rolls(g, [11, 10, 2])                          # Focus 11 < 12: missed; nothing else is rolled
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 0 and g.f("A").ammo["arrow"] == 4
    g = duel(a={"equipment": {"main": "shortbow"}, "ammo": {"arrow": 5}, "bow_power": 2, "offensive_power": 9},
             bx=12)
    rolls(g, [12, 10, 2])
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 3 + 2 + 2                     # bow 3 + arrow 2 + Bow Power 2 (not Offensive Power)


def test_beyond_short_range_the_focus_check_is_hard():
    g = duel(a={"equipment": {"main": "javelin"}, "offensive_power": 2}, bx=12)   # 5.74" > short 4"
    rolls(g, [15])
    g.apply(Attack("A", "B", "main"))
    chk = kinds(g.events, "check")[-1]
    assert chk["check"] == "ranged_hit_long" and chk["target"] == 16 and not chk["success"]
    assert g.f("A").main is None                   # the javelin left the hand
    g = duel(a={"equipment": {"main": "javelin"}, "offensive_power": 2}, bx=8)
    rolls(g, [12, 10, 2])
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 4 + 2                         # thrown: weapon + Offensive Power


def test_no_bow_shot_without_arrows():
    g = duel(a={"equipment": {"main": "shortbow"}, "ammo": {"arrow": 0}}, bx=12)
    with pytest.raises(IllegalAction, match="no arrow left"):
        g.apply(Attack("A", "B", "main"))


# ---- damage -----------------------------------------------------------------------
def test_two_handed_adds_offensive_power_twice():
    g = duel(a={"equipment": {"main": "greataxe"}, "offensive_power": 3})
    rolls(g, [10, 2])
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 7 + 2 * 3


def test_the_off_hand_adds_half_offensive_power():
    g = duel(a={"equipment": {"main": "longsword", "off": "dagger"}, "offensive_power": 3})
    rolls(g, [10, 2])
    g.apply(Attack("A", "B", "off"))
    assert hit(g) == 3 + 1                         # dagger 3 + half of 3, rounded down


def test_dual_wielding_needs_the_ability_and_strikes_with_both():
    kw = {"equipment": {"main": "longsword", "off": "dagger"}, "offensive_power": 4}
    g = duel(a=kw)
    with pytest.raises(IllegalAction, match="lacks the dual wielding ability"):
        g.apply(Attack("A", "B", "dual"))
    g = duel(a={**kw, "abilities": ["dual_wielding"]})
    rolls(g, [10, 2])
    g.apply(Attack("A", "B", "dual"))
    assert hit(g) == (5 + 4) + (3 + 2)             # one attack action, both weapons


def test_power_formulas():
    assert mx.power_term(5, "main", False, 1) == 5
    assert mx.power_term(5, "off", False, 1) == 2
    assert mx.power_term(5, "bow", False, 1) == 5           # bows: always the dominant hand
    assert mx.power_term(5, "main", True, 1) == 10
    assert mx.power_term(5, "main", True, 3) == 30
    assert mx.power_term(5, "off", False, 2) == 4


# ---- aided attacks ----------------------------------------------------------------
def aided(a=None, a2=None, b=None):
    return game([unit("A1", "red", 5, 5, 0, **(a or {})), unit("B", "blue", 6.5, 5.6, 180, **(b or {"vitality": 200})),
                 unit("A2", "red", 5, 6.4, 0, **(a2 or {}))])


def test_aided_attack_adds_the_allys_attack_to_the_strike():
    g = aided(a={"offensive_power": 2}, a2={"equipment": {"main": "greataxe"}, "offensive_power": 1})
    rolls(g, [10, 10, 2])                          # crit checks A1, A2; one Evade for the strike
    evs = g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))
    st = kinds(evs, "strike")[0]
    assert st["damage"] == (5 + 2) + (7 + 2) and [p["damage"] for p in st["parts"]] == [7, 9]
    assert g.f("A2").slots["attack"] and not g.f("A2").slots["move"]      # only its attack is used
    g.apply(EndTurn("A1"))
    g.apply(EndTurn("B"))
    with pytest.raises(IllegalAction, match="Attack action"):
        g.apply(Attack("A2", "B", "main"))


def test_an_ally_that_has_taken_its_turn_cannot_aid():
    g = aided()
    g.apply(Wait("A1"))
    g.apply(EndTurn("B"))
    g.apply(Wait("A1"))                             # A1 now acts after A2
    g.apply(EndTurn("A2"))
    assert g.active_model == "A1"
    with pytest.raises(IllegalAction, match="A2 has already taken its turn"):
        g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))


def test_aid_needs_range_to_the_same_target():
    g = game([unit("A1", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180), unit("A2", "red", 5, 12, 0)])
    with pytest.raises(IllegalAction, match="aid by A2: B is .* out of range"):
        g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))


def test_single_aid_joins_the_first_strike_of_a_multi_attack():
    g = aided(a={"skills": ["twin_strike"], "traits": {"focus": 5}}, a2={"offensive_power": 1})
    rolls(g, [10, 10, 10, 2, 10, 2])               # skill; strike 1: crit A1, crit A2, Evade; strike 2: crit A1, Evade
    evs = g.apply(Attack("A1", "B", "main", "twin_strike", (Aid("A2", "main", None),)))
    st = kinds(evs, "strike")
    assert [s["damage"] for s in st] == [5 + 6, 5]
    assert [len(s["parts"]) for s in st] == [2, 1]


def test_same_multi_attack_skill_adds_to_each_strike():
    kw = {"skills": ["twin_strike"], "traits": {"focus": 5}}
    g = aided(a=kw, a2=kw)
    rolls(g, [10, 10, 10, 10, 2, 10, 10, 2])       # two skill rolls; per strike: two crits and an Evade
    evs = g.apply(Attack("A1", "B", "main", "twin_strike", (Aid("A2", "main", "twin_strike"),)))
    assert [s["damage"] for s in kinds(evs, "strike")] == [10, 10]
    assert g.f("A1").power == 7 and g.f("A2").power == 7


def test_a_different_multi_attack_skill_cannot_aid():
    g = aided(a={"skills": ["power_strike"]}, a2={"skills": ["twin_strike"]})
    with pytest.raises(IllegalAction, match="multi-attack skill can only aid the same skill"):
        g.apply(Attack("A1", "B", "main", "power_strike", (Aid("A2", "main", "twin_strike"),)))


# ---- criticals ---------------------------------------------------------------------
def test_critical_hit_check_success_doubles_offensive_power():
    g = duel(a={"offensive_power": 3})
    rolls(g, [12, 2])                              # luck 0 + 12 >= Normal 12
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 5 + 6


def test_natural_20_on_the_critical_check_triples_or_kills():
    g = duel(a={"offensive_power": 3})
    rolls(g, [20, 5, 2])                           # d6 5: a double crit
    g.apply(Attack("A", "B", "main"))
    assert hit(g) == 5 + 9
    g = duel(a={"offensive_power": 3})
    rolls(g, [20, 6])                              # d6 6: Deathblow, no Evade is rolled
    evs = g.apply(Attack("A", "B", "main"))
    assert g.f("B").status == "dead" and kinds(evs, "strike")[0]["deathblow"]
    assert g.is_over and g.outcome.winner == "red"


def test_natural_1_on_the_critical_check_deals_no_damage():
    g = duel(a={"offensive_power": 3})
    rolls(g, [1])
    evs = g.apply(Attack("A", "B", "main"))
    assert hit(g) == 0 and kinds(evs, "no_damage")


def test_natural_1_on_a_skill_attacks_critical_check_rolls_the_mishap_table():
    g = duel(a={"offensive_power": 3, "skills": ["power_strike"], "traits": {"focus": 5}})
    rolls(g, [10, 1, 3])                           # skill ok; crit check 1 -> mishap d6 3: plain failure
    g.apply(Attack("A", "B", "main", "power_strike"))
    assert hit(g) == 0 and kinds(g.events, "mishap")[-1]["result"] == "failure"
    g = duel(a={"offensive_power": 3, "skills": ["power_strike"], "traits": {"focus": 5}})
    rolls(g, [10, 1, 1, 2])                        # mishap d6 1: works anyway (no critical)
    g.apply(Attack("A", "B", "main", "power_strike"))
    assert hit(g) == 5 + 3 + 3


def test_natural_20_on_a_skill_doubles_its_effect_and_the_power():
    g = duel(a={"offensive_power": 3, "skills": ["power_strike"]})
    rolls(g, [20, 10, 2])
    g.apply(Attack("A", "B", "main", "power_strike"))
    assert hit(g) == 5 + 2 * 3 + 2 * 3             # weapon + doubled OP + doubled point value 3
    assert g.f("A").power == 8                     # the cost is spent


def test_natural_1_on_a_skill_rolls_the_d6_table():
    base = {"offensive_power": 3, "skills": ["power_strike"], "traits": {"focus": 9}}
    g = duel(a=base)
    rolls(g, [1, 4])                               # 2-5: a plain failure, even with Focus 9
    g.apply(Attack("A", "B", "main", "power_strike"))
    assert hit(g) == 0 and g.f("A").power == 8     # the cost is spent anyway
    g = duel(a=base)
    rolls(g, [1, 1, 10, 2])                        # 1: it works anyway
    g.apply(Attack("A", "B", "main", "power_strike"))
    assert hit(g) == 5 + 3 + 3
    g = duel(a=base)
    rolls(g, [1, 6, 10])                           # 6: it backfires on the user
    g.apply(Attack("A", "B", "main", "power_strike"))
    assert hit(g) == 0 and hit(g, "A") == 11 and kinds(g.events, "backfire")


def test_trait_checks_natural_20_and_1_and_the_luck_follow_up():
    assert mx.trait_check(20, -10, 12).success and mx.trait_check(20, -10, 12).critical == "success"
    assert not mx.trait_check(1, 30, 12).success
    g = duel(a={"traits": {"focus": 20, "luck": 0}})
    rolls(g, [1, 15])                              # natural 1: Luck follow-up 15 < Hard 16
    g.apply(Focus("A", "B"))
    assert "B" not in g.f("A").focus
    g = duel(a={"traits": {"focus": 20, "luck": 1}})
    rolls(g, [1, 15])                              # 15 + 1 >= 16: lucky anyway
    g.apply(Focus("A", "B"))
    assert g.f("A").focus["B"] == 21
    g = duel(a={"traits": {"focus": 0}}, settings={"trait_fumble_luck_check": False})
    rolls(g, [20])
    g.apply(Focus("A", "B"))                       # 20 + 0 < 12 would fail; a natural 20 succeeds
    assert g.f("A").focus["B"] == 1


def test_saves_natural_20_waives_the_cost_and_recovers():
    g = duel(bx=20)
    g.f("A").power = 1
    rolls(g, [20])                                 # a Power save to sprint on 1 Power
    g.apply(Move("A", "sprint", ((5, 16, 0),)))
    assert g.f("A").power == 1 + 2                 # waived, and 20% of 10 recovered
    assert g.geometry.position("A")[:2] == (5, 16)


def test_saves_natural_1_loses_a_fifth_and_locks_the_save():
    g = duel()
    g.f("A").power = 1
    g.f("A").sheet.traits  # noqa: B018
    rolls(g, [1])
    evs = g.apply(Move("A", "sprint", ((5, 16, 0),)))
    assert kinds(evs, "move")[0]["moved"] is False and g.f("A").power == 0
    assert g.f("A").save_locked["power"] == 2
    g.apply(EndTurn("A")) if g.active_model == "A" else None
    g.apply(EndTurn("B"))
    assert "may not attempt a Power save" in g.why_illegal(Move("A", "sprint", ((5, 16, 0),)))


def test_vitality_save_natural_1_when_dying_is_death():
    g = duel(b={"vitality": 5})
    rolls(g, [10, 2])
    g.apply(Attack("A", "B", "main"))
    assert g.f("B").status == "dying" and g.is_over      # no blue character can fight
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180, vitality=5),
              unit("C", "blue", 20, 20, 180)])
    rolls(g, [10, 2])
    g.apply(Attack("A", "B", "main"))
    rolls(g, [1])                                  # B's Vitality save at its turn
    g.apply(EndTurn("A"))
    assert g.f("B").status == "dead"
    rolls(g, [20])
    g.f("B").status = "dying"
    g.round, g.queue = g.round, ["B", "C"]
    g.f("B").turn_started = False
    g._advance()
    assert g.f("B").status == "active" and g.f("B").vitality == 1    # 20% of 5


# ---- Focus and facing -----------------------------------------------------------
def test_focused_attack_drops_evade_by_focus_plus_one_minimum_one():
    g = duel(a={"traits": {"focus": 3}}, b={"traits": {"evade": 6}})
    rolls(g, [9])                                  # 9 + 3 >= 12
    evs = g.apply(Focus("A", "B"))
    assert g.action_slots("A")["Support"] and kinds(evs, "focus")[0]["reduction"] == 4
    assert g.evade_value("B", "A") == (2, "front")
    g.f("A").focus["B"] = 9
    assert g.evade_value("B", "A") == (1, "front")  # not below 1
    assert mx.reduced_evade(6, 9, -5) == -4        # the facing modifier applies after the floor
    assert mx.reduced_evade(0, 3, 0) == 0          # the floor never raises an Evade under it
    assert mx.reduced_evade(-2, 3, -2) == -4


def test_a_successful_focus_with_a_negative_focus_trait_still_lowers_evade_by_one():
    g = duel(a={"traits": {"focus": -3}}, b={"traits": {"evade": 6}})
    rolls(g, [20])
    evs = g.apply(Focus("A", "B"))
    assert kinds(evs, "focus")[0]["success"] and kinds(evs, "focus")[0]["reduction"] == 1
    assert g.evade_value("B", "A") == (5, "front")


def test_facing_front_side_rear_from_the_geometry():
    assert mx.arc_of((0, 0), 0, (1, 0), 45, 45) == "front"
    assert mx.arc_of((0, 0), 0, (1, 1), 45, 45) == "front"            # the boundary is front
    assert mx.arc_of((0, 0), 0, (0, 1), 45, 45) == "side"
    assert mx.arc_of((0, 0), 0, (-1, -0.5), 45, 45) == "rear"
    assert mx.arc_of((0, 0), 90, (0, -1), 45, 45) == "rear"
    assert mx.arc_of((0, 0), 0, (1, 1.5), 60, 60) == "front"          # a wider front arc
    b = {"traits": {"evade": 6}}
    for facing, arc, ev in ((180, "front", 6), (90, "side", 4), (0, "rear", 1)):
        g = duel(b=b, b_facing=facing)
        assert g.evade_value("B", "A") == (ev, arc)
        rolls(g, [10, 5])
        g.apply(Attack("A", "B", "main"))
        chk = kinds(g.events, "check")[-1]
        assert chk["check"] == "evade" and chk["total"] == 5 + ev and arc in chk["why"]


def test_the_arc_angles_are_a_setting():
    g = duel(b_facing=120, settings={"facing": {"front_half_angle": 60}})
    assert g.arc("B", "A") == "front"
    g = duel(b_facing=120)
    assert g.arc("B", "A") == "side"


def test_you_can_only_attack_to_your_front():
    g = game([unit("A", "red", 5, 5, 90), unit("B", "blue", 6.5, 5, 180)])
    with pytest.raises(IllegalAction, match="not in A's front arc"):
        g.apply(Attack("A", "B", "main"))
    g.apply(Turn("A", 0))
    assert Attack("A", "B", "main") in g.legal_actions()


# ---- hidden and covered --------------------------------------------------------------
def test_a_hidden_target_needs_a_perceive_check_first():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180, states=["Hidden"])])
    with pytest.raises(IllegalAction, match="B is hidden: A must first spot it with a Perceive check"):
        g.apply(Attack("A", "B", "main"))
    rolls(g, [11])
    g.apply(Perceive("A", "B"))
    assert g.f("B").hidden
    with pytest.raises(IllegalAction, match="already tried to spot B"):
        g.apply(Perceive("A", "B"))
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180, states=["Hidden"])])
    rolls(g, [12])
    g.apply(Perceive("A", "B"))
    assert not g.f("B").hidden and Attack("A", "B", "main") in g.legal_actions()


def test_hiding_needs_cover_and_a_roll():
    wall = ("wall", 9.5, 2, 10, 8, 3.0)
    g = game([unit("A", "red", 12, 5, 0, skills=["hide"]), unit("B", "blue", 5, 5, 0)], boxes=[wall])
    rolls(g, [12])
    g.apply(UseSkill("A", "hide"))
    assert g.f("A").hidden and g.f("A").power == 9
    g = game([unit("A", "red", 12, 5, 0, skills=["hide"]), unit("B", "blue", 5, 5, 0)])
    with pytest.raises(IllegalAction, match="sees A in the open"):
        g.apply(UseSkill("A", "hide"))


def test_a_covered_target_cannot_be_hit_through_the_obstacle():
    wall = ("low-wall", 8.8, 3, 9.2, 7, 1.0)
    bow = {"equipment": {"main": "shortbow"}, "ammo": {"arrow": 3}}
    g = game([unit("A", "red", 5, 5, 0, **bow), unit("B", "blue", 10, 5, 180)], boxes=[wall])
    why = g.why_illegal(Attack("A", "B", "main"))
    assert "B is covered by low-wall: A must be on the same side of it" == why
    g = game([unit("A", "red", 5, 5, 0, **bow), unit("B", "blue", 10, 5, 180)])
    assert g.why_illegal(Attack("A", "B", "main")) is None


# ---- areas and magic -------------------------------------------------------------------
def test_areas_are_measured_from_the_user_and_walls_block_them():
    wall = ("wall", 12.2, 6, 12.5, 14, 4.0)
    us = [unit("C", "red", 10, 10, 0, spells=["flame_burst"], runic_casting_speed=2, runic_power=1,
               traits={"focus": 2}),
          unit("B1", "blue", 10, 12.5, 0),          # gap 1.24": inside 2x2 (2")
          unit("B2", "blue", 7.0, 10, 0),           # gap 1.74": inside
          unit("B3", "blue", 10, 14.0, 0),          # gap 2.74": outside
          unit("B4", "blue", 13.5, 10, 0),          # gap 2.24": outside
          unit("B5", "blue", 13.2, 10.5, 0),        # inside, but behind the wall
          unit("A2", "red", 8.5, 8.5, 0)]           # an ally inside: hit too
    g = game(us, boxes=[wall])
    rolls(g, [12] + [10, 2] * 3)
    evs = g.apply(Cast("C", "flame_burst", None))
    spell = kinds(evs, "spell")[0]
    assert spell["targets"] == ["B1", "B2", "A2"]
    assert kinds(evs, "blocked")[0]["model"] == "B5"
    assert [d["model"] for d in kinds(evs, "damage")] == ["B1", "B2", "A2"]
    assert kinds(evs, "damage")[0]["amount"] == 4 + 1
    g = game(us[:1] + us[1:3], settings={"areas": {"2x2": 1.5}})
    rolls(g, [12] + [10, 2])
    assert kinds(g.apply(Cast("C", "flame_burst", None)), "spell")[0]["targets"] == ["B1"]


def test_one_spell_per_turn():
    g = duel(a={"spells": ["firebolt", "frost_shard"]}, bx=9)
    rolls(g, [15, 10, 2])
    g.apply(Cast("A", "firebolt", "B"))
    with pytest.raises(IllegalAction, match="already used its Magic action"):
        g.apply(Cast("A", "frost_shard", "B"))


def test_a_slow_spell_carries_over_into_the_next_round():
    g = game([unit("A", "red", 10, 10, 0, spells=["flame_burst"], runic_casting_speed=1),
              unit("B", "blue", 11.5, 10, 180, vitality=50)])
    evs = g.apply(Cast("A", "flame_burst", None))      # casting speed 2 > Runic Casting Speed 1
    assert kinds(evs, "spell_charging")[0]["ready_round"] == 2
    assert g.f("A").soul == 6 and not kinds(evs, "damage")   # paid now, released next round
    g.apply(EndTurn("A"))
    rolls(g, [12, 10, 2])                          # released when A's turn comes
    g.apply(EndTurn("B"))
    assert g.round == 2 and g.active_model == "A"
    assert g.action_slots("A")["Magic"]                # the magic action goes into the spell
    assert kinds(g.events, "spell_ready") and g.f("B").vitality == 50 - 4
    assert g.spell_rounds("A", "flame_burst") == 2
    g.f("A").sheet.__dict__  # noqa: B018


def test_runic_casting_speed_sets_the_rounds():
    g = game([unit("A", "red", 10, 10, 0, spells=["flame_burst"], runic_casting_speed=2),
              unit("B", "blue", 20, 10, 180)])
    assert g.spell_rounds("A", "flame_burst") == 1


def test_aided_magic_elements_and_types():
    us = [unit("A1", "red", 5, 5, 0, spells=["firebolt"], element="fire", traits={"focus": 3}),
          unit("B", "blue", 10, 5, 180, vitality=60),
          unit("A2", "red", 5, 7, 0, spells=["frost_shard", "mend", "shadow_bolt"], element="water")]
    g = game(us)
    with pytest.raises(IllegalAction, match=r"A1 \(fire\) and A2 \(water\) are of opposing elements"):
        g.apply(Cast("A1", "firebolt", "B", (Aid("A2", None, "frost_shard"),)))
    with pytest.raises(IllegalAction, match="both spells must be damage spells"):
        g.apply(Cast("A1", "firebolt", "B", (Aid("A2", None, "mend"),)))
    us[2] = unit("A2", "red", 5, 7, 0, spells=["shadow_bolt"], element="dark", runic_power=2,
                 traits={"focus": 3})
    g = game(us)
    rolls(g, [10, 10, 10, 10, 2])                  # two spell rolls, two crit checks, one Evade
    evs = g.apply(Cast("A1", "firebolt", "B", (Aid("A2", None, "shadow_bolt"),)))
    assert kinds(evs, "damage")[0]["amount"] == 5 + (4 + 2)
    assert g.f("A2").slots["magic"] and g.f("A2").soul == 8


def test_natural_20_on_a_spell_doubles_value_and_runic_power():
    g = duel(a={"spells": ["firebolt"], "runic_power": 2}, b={"vitality": 60}, bx=9)
    rolls(g, [20, 10, 2])
    g.apply(Cast("A", "firebolt", "B"))
    assert hit(g) == 2 * 5 + 2 * 2


def test_spell_natural_1_backfire_does_the_opposite():
    g = game([unit("A", "red", 5, 5, 0, spells=["firebolt"]), unit("B", "blue", 9, 5, 180)])
    g.f("B").vitality = 20
    rolls(g, [1, 6, 10])                           # backfire: the damage spell heals the target
    g.apply(Cast("A", "firebolt", "B"))
    assert g.f("B").vitality == 25


def test_epic_casting_heals_fully_and_kills():
    g = game([unit("A", "red", 5, 5, 0, spells=["mend"]), unit("B", "blue", 20, 5, 180),
              unit("A2", "red", 6.5, 5, 180)])
    g.f("A2").vitality = 3
    rolls(g, [10, 20, 6])
    g.apply(Cast("A", "mend", "A2"))
    assert g.f("A2").vitality == 30
    g = duel(a={"spells": ["firebolt"], "traits": {"focus": 2}}, bx=9)
    rolls(g, [10, 20, 6])
    g.apply(Cast("A", "firebolt", "B"))
    assert g.f("B").status == "dead"


# ---- support ----------------------------------------------------------------------------
def test_potions_within_one_space_and_facing_the_target():
    us = [unit("A", "red", 5, 5, 0, inventory={"healing_potion": 2}), unit("B", "blue", 20, 5, 180),
          unit("A2", "red", 6.8, 5, 0)]
    g = game(us)
    g.f("A2").vitality = 10
    g.apply(UsePotion("A", "healing_potion", "A2"))
    assert g.f("A2").vitality == 20 and g.f("A").inventory["healing_potion"] == 1
    assert g.action_slots("A")["Support"]
    g = game(us)
    g.geometry.set_facing("A", 180)
    assert "must face A2" in g.why_illegal(UsePotion("A", "healing_potion", "A2"))
    us[2] = unit("A2", "red", 8, 5, 0)
    g = game(us)
    assert "within 1 space" in g.why_illegal(UsePotion("A", "healing_potion", "A2"))


def test_throwing_a_potion_uses_the_attack_action_and_the_first_catch_gets_it():
    us = [unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}), unit("B", "blue", 8, 5.5, 180),
          unit("A2", "red", 11, 5, 180)]
    g = game(us)
    rolls(g, [12])                                 # B is in the path: its React check catches it
    evs = g.apply(ThrowPotion("A", "healing_potion", "A2"))
    assert kinds(evs, "throw_potion")[0]["path"] == ["B", "A2"]
    assert g.f("B").inventory["healing_potion"] == 1 and g.action_slots("A")["Attack"]
    g = game(us)
    rolls(g, [11, 12])
    g.apply(ThrowPotion("A", "healing_potion", "A2"))
    assert g.f("A2").inventory["healing_potion"] == 1
    g = game(us)
    rolls(g, [11, 11])
    assert kinds(g.apply(ThrowPotion("A", "healing_potion", "A2")), "shattered")


def test_changing_equipment_and_reloading():
    g = duel(a={"equipment": {"main": "crossbow"}, "ammo": {"bolt": 3}, "inventory": {"longsword": 1}},
             bx=12, b={"vitality": 60})
    rolls(g, [12, 10, 2])
    g.apply(Attack("A", "B", "main"))
    g.apply(EndTurn("A"))
    g.apply(EndTurn("B"))
    assert "must be reloaded" in g.why_illegal(Attack("A", "B", "main"))
    g.apply(Reload("A"))
    assert g.why_illegal(Attack("A", "B", "main")) is None
    with pytest.raises(IllegalAction, match="Support action"):
        g.apply(Equip("A", "longsword", None))
    g.apply(EndTurn("A"))
    g.apply(EndTurn("B"))
    with pytest.raises(IllegalAction, match="does not carry greataxe"):
        g.apply(Equip("A", "greataxe", None))
    g.apply(Equip("A", "longsword", None))
    assert g.f("A").main == "longsword" and g.f("A").inventory["crossbow"] == 1


def test_support_skill_second_wind():
    g = duel(a={"skills": ["second_wind"], "traits": {"react": 0}})
    g.f("A").power = 3
    rolls(g, [8])
    g.apply(UseSkill("A", "second_wind"))
    assert g.f("A").power == 7 and g.action_slots("A")["Support"]


def test_a_stable_ally_is_healed_back_into_the_fight():
    us = [unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}), unit("B", "blue", 20, 5, 180),
          unit("A2", "red", 6.5, 5, 0)]
    g = game(us)
    g.f("A2").status, g.f("A2").vitality = "stable", 0
    g.apply(UsePotion("A", "healing_potion", "A2"))
    assert g.f("A2").status == "active" and g.f("A2").vitality == 10


def test_focused_magic_lowers_evade_against_the_spell():
    g = duel(a={"spells": ["firebolt"], "traits": {"focus": 3}}, b={"traits": {"evade": 6}, "vitality": 60}, bx=9)
    rolls(g, [9])
    g.apply(Focus("A", "B"))                       # a support action, as for attacks
    rolls(g, [12, 10, 8])                          # spell roll, crit check, Evade 8 + (6 - 4) = 10 < 12
    g.apply(Cast("A", "firebolt", "B"))
    chk = kinds(g.events, "check")[-1]
    assert chk["check"] == "evade" and chk["total"] == 10 and not chk["success"]
    assert hit(g) == 5


def test_an_aiders_backfire_turns_only_its_own_share():
    from rules.norova.actions import Aid
    g = game([unit("A", "red", 5, 5, 0, spells=["firebolt"], runic_power=2),
              unit("C", "red", 5, 7, 0, spells=["shadow_bolt"]), unit("B", "blue", 10, 5, 180, vitality=100)])
    g.fighters["B"].vitality = 50
    rolls(g, [15, 1, 6, 5, 5, 2])           # A succeeds; C fumbles and backfires (6)
    evs = g.apply(Cast("A", "firebolt", "B", (Aid("C", None, "shadow_bolt"),)))
    heal = kinds(evs, "heal")[0]
    dmg = kinds(evs, "damage")[0]
    assert kinds(evs, "backfire")[0]["model"] == "C"
    assert dmg["why"] == "firebolt" and dmg["amount"] > heal["amount"] > 0     # A's share still hurts
    assert g.fighters["B"].vitality == 50 + heal["amount"] - dmg["amount"]
