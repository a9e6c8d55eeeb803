"""Reactions (AoO, ranged points), spells, Duel, Ritual, Perceive/Uncover, Trade, Interact, VP."""
import pytest

from rules.core.errors import IllegalAction
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall.actions import Activate, Declare, DuelAnswer, EndTurn, Move, Pass
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, to_action, unit

BOLT = spell_dict("Fire Bolt", "Sorcery", "Fire", 1, 12, 1, 24)
WARD = spell_dict("Ember Ward", "Enchantment", "Fire", 1, target="ally", rng=12,
                  effect="The target gains +2 ARM until the caster's next Strategic Phase.")
HEX = spell_dict("Hex", "Enchantment", "Fire", 1, target="enemy", rng=12, effect="-2 DEF")
MEND = spell_dict("Mend", "Healing", "Fire", 1, target="ally", rng=8, effect="The target regains 1 HP.")
STAFF = weapon_dict("Staff", "melee", 1, 7, 1)


def mage(id, x, y, **kw):
    u = unit(id, "red", x, y, weapons=kw.pop("weapons", [STAFF]), affinities=["Fire"], **kw)
    u.spells = [BOLT, WARD, HEX, MEND]
    return u


def test_attack_of_opportunity_at_the_point_the_mover_entered_reach():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 12, 10, facing=180)
    g = setup([r, b], [5, 3])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 10.0, 0.0),)))   # passes b1 within its 1" reach
    q = g.act.qualified["b1"]
    assert q["opp"] is not None
    aoo = Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),), point=q["opp"])
    assert aoo in g.legal_actions()
    g.apply(aoo)
    ev = g.apply(Declare("r1", "Nothing")) if g.pending[0] == "action" else []
    assert kinds(g.events, "damage")[-1].data["model"] == "r1"


def test_ranged_reaction_names_a_point_where_it_had_los():
    r = unit("r1", "red", 2, 16, facing=0)
    b = unit("b1", "blue", 18, 20, weapons=[BOW], facing=180)
    wall = ("wall", 4, 12, 30, 13, 3)             # hides r1's end point from b1
    g = setup([r, b], [20], boxes=[wall])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((2.0, 11.0, 0.0),)))
    q = g.act.qualified["b1"]
    assert q["los"] and q["seen"]
    assert not g.has_los("b1", "r1")
    bad = Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),), point=(2.0, 11.0, 0.0))
    with pytest.raises(IllegalAction, match="not on the mover's path"):
        g.apply(bad)
    g.apply(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),), point=q["seen"][0]))
    g.apply(Declare("r1", "Nothing"))
    a = kinds(g.events, "attack")[-1].data
    assert a["attacker"] == "b1" and a["failed"] is None


def test_incapacitated_models_do_not_react():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 10, 9, states=["Incapacitated", "Crouched"])
    b2 = unit("b2", "blue", 30, 30)
    g = setup([r, b, b2], [])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 7.0, 0.0),)))
    assert "b1" not in (g.act.qualified if g.act else {})


def test_spell_attack_affinity_hands_and_one_spell_per_activation():
    r = mage("r1", 10, 5)
    b = unit("b1", "blue", 10, 15)
    g = setup([r, b], [5, 3, 5])
    assert g.models["r1"].mana == 0
    to_action(g, "r1")
    assert g.models["r1"].mana == 1                  # 1 mana counter for the AP spent
    ev = g.apply(Declare("r1", "Spell Attack", spell="Fire Bolt", targets=(("b1", 1),)))
    a = kinds(ev, "attack")[0].data
    assert a["stat"] == "INT" and a["attribute"] == 12 and g.models["r1"].mana == 0
    no_aff = unit("r9", "red", 20, 5, weapons=[STAFF])
    no_aff.spells = [BOLT]
    g2 = setup([no_aff, unit("b1", "blue", 20, 15)], [])
    to_action(g2, "r9")
    with pytest.raises(IllegalAction, match="Affinity"):
        g2.apply(Declare("r9", "Spell Attack", spell="Fire Bolt", targets=(("b1", 1),)))
    full = mage("r8", 20, 5, weapons=[STAFF, weapon_dict("Shield", "shield")])
    g3 = setup([full, unit("b1", "blue", 20, 15)], [])
    to_action(g3, "r8")
    with pytest.raises(IllegalAction, match="both hands full"):
        g3.apply(Declare("r8", "Spell Attack", spell="Fire Bolt", targets=(("b1", 1),)))


def test_mystic_casts_with_morale():
    r = mage("r1", 10, 5, classes=["Mystic"], stats={"M": 17, "INT": 9})
    g = setup([r, unit("b1", "blue", 10, 15)], [20])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Spell Attack", spell="Fire Bolt", targets=(("b1", 1),)))
    assert kinds(ev, "attack")[0].data["stat"] == "M" and kinds(ev, "attack")[0].data["attribute"] == 17


def test_enchantment_one_per_name_undodgeable_ends_at_casters_strategic_phase():
    r = mage("r1", 10, 5)
    r2 = unit("r2", "red", 12, 5)
    b = unit("b1", "blue", 10, 12)
    g = setup([r, r2, b], [4, 3, 9])
    to_action(g, "r1")
    g.apply(Declare("r1", "Assist", spell="Ember Ward", targets=(("r2", 1),)))
    assert g.stat("r2", "ARM") == 5
    to_action(g, "r1")
    with pytest.raises(IllegalAction, match="already has the Enchantment"):
        g.apply(Declare("r1", "Assist", spell="Ember Ward", targets=(("r2", 1),)))
    # a weakening enchantment cannot be dodged
    g.apply(Declare("r1", "Spell Attack", spell="Hex", targets=(("b1", 1),)))
    assert g.stat("b1", "DEF") == 10
    g.apply(EndTurn("red")) if g.pending == ("tactical", "red") else None
    g.apply(EndTurn("blue"))
    assert g.stat("r2", "ARM") == 3 and g.stat("b1", "DEF") == 12


def test_healing_is_active_only_and_heals():
    r = mage("r1", 10, 5)
    r2 = unit("r2", "red", 12, 5)
    g = setup([r, r2, unit("b1", "blue", 30, 30)], [3])
    g.models["r2"].hp = 1
    to_action(g, "r1")
    g.apply(Declare("r1", "Assist", spell="Mend", targets=(("r2", 1),)))
    assert g.models["r2"].hp == 2


def test_issue_a_duel_accept_restore_ap_and_win_six_vp():
    r = unit("r1", "red", 10, 10, weapons=[BOW])
    r2 = unit("r2", "red", 20, 5)
    b = unit("b1", "blue", 10, 14, stats={"HP": 1})
    b2 = unit("b2", "blue", 30, 30)
    g = setup([r, r2, b, b2], [5, 2])
    to_action(g, "r1")
    with pytest.raises(IllegalAction, match="enemy"):
        g.apply(Declare("r1", "Issue a Duel", targets=(("r2", 1),)))
    g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    assert g.pending == ("duel-answer", "blue")
    g.apply(DuelAnswer("blue", True))
    assert g.models["r1"].ap == 2 and g.models["b1"].ap == 2
    to_action(g, "r1")
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert g.is_over and g.outcome.termination.value == "duel"
    assert g.outcome.winner == "red" and g.vp["red"] == 6


def test_duel_refused_and_interference_loses():
    r = unit("r1", "red", 10, 10)
    r2 = unit("r2", "red", 20, 5)
    b = unit("b1", "blue", 10, 14)
    g = setup([r, r2, b], [])
    to_action(g, "r1")
    g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    g.apply(DuelAnswer("blue", False))
    assert g.duel is None and not g.is_over
    # default: no other model may activate during the duel
    g1 = setup([unit("r1", "red", 10, 10), unit("r2", "red", 20, 5), unit("b1", "blue", 10, 14)], [])
    to_action(g1, "r1")
    g1.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    g1.apply(DuelAnswer("blue", True))
    with pytest.raises(IllegalAction, match="not in the duel|no AP"):
        g1.apply(Activate("r2"))
    # setting duel_interference: lose -- it may, and its side loses
    g2 = setup([unit("r1", "red", 10, 10), unit("r2", "red", 20, 5), unit("b1", "blue", 10, 14)], [],
               settings={"duel_interference": "lose"})
    to_action(g2, "r1")
    g2.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    g2.apply(DuelAnswer("blue", True))
    g2.apply(Activate("r2"))                      # not a duellist: red loses
    assert g2.is_over and g2.outcome.winner == "blue" and g2.vp["blue"] == 6


def test_ritual_summons_within_the_limit_and_the_summon_leaves_with_its_caster():
    conj = spell_dict("Call Imp", "Conjuration", "Fire", 1, effect="summon imp")
    r = mage("r1", 10, 5, stats={"HP": 1})
    r.spells = [conj]
    imp = unit("imp", "red", 0, 0, extra={"reserve": True, "tier": 1}, stats={"STA": 1})
    big = unit("golem", "red", 0, 0, extra={"reserve": True, "tier": 3})
    b = unit("b1", "blue", 20, 8, weapons=[BOW], facing=180)
    g = setup([r, imp, big, b], [5, 5])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Ritual", spell="Call Imp"))
    assert kinds(ev, "summon") and g.models["imp"].on_table and g.models["imp"].ap == 1
    assert g.geo.base_contact("r1", "imp") and not kinds(ev, "roll")
    r.spells.append(spell_dict("Call Golem", "Conjuration", "Fire", 0, effect="summon golem"))
    to_action(g, "r1")
    with pytest.raises(IllegalAction, match="Summoning Limit"):
        g.apply(Declare("r1", "Ritual", spell="Call Golem"))
    g.apply(Declare("r1", "Nothing"))
    g.apply(EndTurn("red"))
    # blue kills the caster: the imp goes
    to_action(g, "b1")
    g.apply(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),)))
    assert "Incapacitated" in g.models["r1"].states and g.models["imp"].removed


def test_perceive_and_uncover_reveal_shrouded():
    r = unit("r1", "red", 10, 5, stats={"INT": 12, "AG": 10})
    b = unit("b1", "blue", 10, 9, states=["Shrouded"])
    b2 = unit("b2", "blue", 13, 5, states=["Shrouded"])
    g = setup([r, b, b2], [11, 6])
    to_action(g, "r1")
    g.apply(Declare("r1", "Perceive", targets=(("b1", 1),)))
    assert "Shrouded" not in g.models["b1"].states
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Uncover"))            # INT halved: 6 <= 6
    assert "Shrouded" not in g.models["b2"].states


def test_trade_and_interact_with_a_quest_object():
    r = unit("r1", "red", 10, 5)
    r2 = unit("r2", "red", 11.26, 5)
    b = unit("b1", "blue", 30, 30)
    crate = ("crate", 9, 5.63, 11, 7, 1)
    g = setup([r, r2, b], [5], boxes=[crate],
              settings={"objectives": [{"id": "crate", "vp": 2, "attribute": "INT", "item": "Relic"}]})
    to_action(g, "r1")
    g.apply(Declare("r1", "Interact", objective="crate"))
    assert g.vp["red"] == 2 and g.models["r1"].items == ("Relic",)
    to_action(g, "r1")
    g.apply(Declare("r1", "Trade", targets=(("r2", 1),), items=("Relic",)))
    assert g.models["r2"].items == ("Relic",) and g.models["r1"].items == ()


def test_turn_limit_vp_cap_and_casualty_scoring():
    r = unit("r1", "red", 10, 5)
    bs = [unit(f"b{i}", "blue", 3 + 3 * i, 30, states=["Dead"] if i < 11 else []) for i in range(12)]
    g = setup([r] + bs, [], settings={"rounds": 1})
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    assert g.is_over and g.outcome.termination.value == "turn limit"
    assert g.vp["red"] == 10                              # 11 casualties, capped at 10


def test_dodge_changed_to_an_attack_against_a_flying_attacker():
    r = unit("r1", "red", 10, 10, states=["Flying"])
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [20, 20])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    with pytest.raises(IllegalAction, match="Flying"):
        g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    g.apply(Declare("b1", "Dodge"))
    with pytest.raises(IllegalAction, match="STK is 1"):      # Flying: Melee STK 1
        g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),)))
    assert g.pending == ("reaction-change", "blue")
    # retaliation: the Flying model attacked it in melee, so it may attack back
    ev = g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    assert [e.data["attacker"] for e in kinds(ev, "attack")] == ["r1", "b1"]
    assert not kinds(ev, "dodge")


def test_undo_on_the_same_geometry_after_a_model_left_the_table():
    from rules.eldfall import game_from_log
    r = unit("r1", "red", 3, 5, states=["Panicked"], stats={"M": 10})
    r2 = unit("r2", "red", 20, 5)
    b = unit("b1", "blue", 30, 30)
    g = setup([r, r2, b], [15])
    g.apply(Activate("r1"))
    assert "r1" not in g.geo.model_ids()
    # replay the whole log on the same (changed) geometry: r1 comes back first
    from rules.core.dice import Dice
    again = type(g).replay(g.header(), g.events, g.geo, check=False,
                           dice=Dice.fixed([e.data["value"] for e in g.events if e.kind == "roll"]))
    assert again.models["r1"].removed and again.pending == g.pending


def test_area_spell_hits_every_model_under_the_template_and_each_may_dodge():
    burst = spell_dict("Flame Burst", "Sorcery", "Fire", 1, 10, 1, 18, template="circular-s")
    r = mage("r1", 10, 5)
    r.spells = [burst]
    b1 = unit("b1", "blue", 10, 14)
    b2 = unit("b2", "blue", 11.2, 14.3)       # partly under the 70 mm circle
    b3 = unit("b3", "blue", 20, 14)           # far away
    g = setup([r, b1, b2, b3], [5, 20, 3, 3])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Spell Attack", spell="Flame Burst", targets=(("b1", 1),)))
    att = kinds(ev, "attack")[0].data
    assert set(att["victims"]) == {"b1", "b2"}
    assert sorted(e.data["model"] for e in kinds(ev, "damage")) == ["b1", "b2"]


def test_surprise_attack_trait_halves_the_targets_defence():
    knife = weapon_dict("Knife", "melee", 1, 8, 1, ["Surprise Attack"])
    r = unit("r1", "red", 10, 10, weapons=[knife])
    b = unit("b1", "blue", 10, 12, stats={"DEF": 12})
    g = setup([r, b], [20, 20])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Knife", targets=(("b1", 1),)))
    att = {e.data["attacker"]: e.data for e in kinds(ev, "attack")}
    assert att["b1"]["attribute"] == 6 and att["r1"]["attribute"] == 14
