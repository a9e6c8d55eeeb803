"""Session 8 review of the Eldfall rules engine: each test plays a position
through the public API and checks one rule of the user's pages."""
import pytest

from rules.core.dice import Dice
from rules.core.errors import IllegalAction
from rules.core.units import spell_dict
from rules.eldfall.actions import Activate, Declare, DuelAnswer, EndTurn, Move, Pass
from rules.eldfall.narrate import narrate
from tests.eldfall_scenario import BOW, kinds, setup, to_action, unit

BASE = 32 / 25.4                     # a Medium base, inches


def caster(id, side, x, y, spells, **kw):
    u = unit(id, side, x, y, weapons=[], affinities=["Fire"], **kw)
    u.spells = list(spells)
    return u


# --- Assist: "STK determines number of targets (same as Attack)" --------------
WARD2 = spell_dict("Twin Ward", "Enchantment", "Fire", 0, target="ally", rng=12, stk=2,
                   effect="+2 ARM")
SPARK = spell_dict("Spark", "Sorcery", "Fire", 0, target="ally", rng=12, stk=2,
                   effect="The target gains Shrouded.")


def test_a_crouched_caster_assists_one_target_only():
    # Crouched: "Strike is capped at 1" (eldfall-states.txt); Assist: STK is the
    # number of targets, "same as Attack" (eldfall-actions.txt)
    r = caster("r1", "red", 10, 5, [WARD2], states=["Crouched"])
    g = setup([r, unit("r2", "red", 12, 7), unit("r3", "red", 8, 7), unit("b1", "blue", 30, 30)],
              [5] * 6)
    to_action(g, "r1")
    two = Declare("r1", "Assist", spell="Twin Ward", targets=(("r2", 1), ("r3", 1)))
    assert "STK is 1 while Crouched" in g.why_illegal(two)
    assert two not in list(g.legal_actions())
    g.apply(Declare("r1", "Assist", spell="Twin Ward", targets=(("r2", 1),)))
    assert g.stat("r2", "ARM") == 5
    # standing, the same caster may Assist both
    r = caster("r1", "red", 10, 5, [WARD2])
    g = setup([r, unit("r2", "red", 12, 7), unit("r3", "red", 8, 7), unit("b1", "blue", 30, 30)],
              [5] * 6)
    to_action(g, "r1")
    assert g.why_illegal(two) is None


def test_a_reactive_assist_has_one_target():
    # In the Reactive Role "STK is always 1": an Assist reaction helps one model
    r = unit("r1", "red", 10, 5)
    b = caster("b1", "blue", 10, 15, [SPARK], facing=270)
    g = setup([r, b, unit("b2", "blue", 12, 15), unit("b3", "blue", 8, 15)], [5] * 6)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 7.0, 0.0),)))
    assert g.pending == ("reaction", "blue")
    both = Declare("b1", "Assist", spell="Spark", targets=(("b2", 1), ("b3", 1)))
    assert "Reactive Role" in g.why_illegal(both)
    assert g.why_illegal(Declare("b1", "Assist", spell="Spark", targets=(("b2", 1),))) is None


# --- Recovery Check: "neither model is Engaged" --------------------------------
def _incapacitated_beside_an_enemy(enemy_near: bool):
    r = unit("r1", "red", 10, 15 - BASE - (0.3 if enemy_near else 6.0))
    b = unit("b1", "blue", 10, 15, states=["Incapacitated", "Crouched"], stats={"HP": 1})
    helper = unit("b2", "blue", 10, 15 + BASE)              # an ally in Base Contact
    g = setup([r, b, helper], [19, 3])
    g.apply(EndTurn("red"))                                  # blue's Strategic Phase follows
    return g


def test_an_incapacitated_model_engaged_by_an_enemy_gets_no_recovery_reroll():
    g = _incapacitated_beside_an_enemy(True)
    # the enemy's sword reaches it: it is Engaged, Incapacitated or not (states.yaml
    # Incapacitated: engagement can_be true)
    assert "Engaged" in g.models["b1"].states and g.models["b1"].engaged_by == {"r1"}
    rec = [e for e in kinds(g.events, "check") if e.data["check"] == "Recovery"]
    assert len(rec) == 1 and rec[0].data["die"]["value"] == 19 and "helper" not in rec[0].data
    assert "Incapacitated" in g.models["b1"].states
    # no enemy near: the ally's reroll is taken (19 fails, 3 succeeds), and the
    # narration shows both rolls
    g = _incapacitated_beside_an_enemy(False)
    rec = [e for e in kinds(g.events, "check") if e.data["check"] == "Recovery"][0]
    assert rec.data["first"]["value"] == 19 and rec.data["helper"] == "b2"
    assert rec.data["die"]["value"] == 3 and "Incapacitated" not in g.models["b1"].states
    assert "b1 Recovery T roll: 19 vs 12 -> fail, reroll (b2 in Base Contact): 3 vs 12 -> success" \
        in "\n".join(narrate([rec]))


# --- Issue a Duel: "Duel ends when one model becomes Incapacitated or Dead" ------
def _duel(b_kw, rolls_after, b_at=(10, 15)):
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", *b_at, facing=270, **b_kw)
    g = setup([r, unit("r2", "red", 20, 5), b, unit("b2", "blue", 20, 15)], [5] * 10)
    to_action(g, "r1")
    g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    g.apply(DuelAnswer("blue", True))
    assert g.duel["state"] == "on"
    g.dice = Dice.fixed(rolls_after)
    return g


def test_a_duellist_that_bleeds_to_incapacitated_loses_the_duel_at_once():
    g = _duel({"stats": {"HP": 1}, "states": ["Bleeding"]}, [20] * 5)
    g.apply(EndTurn("red"))                  # blue's Strategic Phase: the Bleeding T roll fails
    assert "Incapacitated" in g.models["b1"].states
    assert g.is_over and g.outcome.termination.value == "duel" and g.outcome.winner == "red"
    assert g.vp == {"red": 6, "blue": 0}


def test_a_panicked_duellist_that_runs_off_the_table_loses_the_duel():
    g = _duel({"states": ["Panicked"]}, [20], b_at=(10, 33))
    g.apply(EndTurn("red"))
    g.apply(Activate("b1"))                  # fails its M roll: a full Run past the top edge
    assert g.models["b1"].removed
    assert g.is_over and g.outcome.termination.value == "duel" and g.outcome.winner == "red"


# --- Spell durations (Spell Types table) ---------------------------------------
SNARE = spell_dict("Snare", "Enchantment", "Fire", 0, target="enemy", rng=12,
                   effect="The target gains Slowed and -2 DEF.")
VEIL = spell_dict("Veil", "Healing", "Fire", 0, target="ally", rng=12,
                  effect="The target regains 1 HP and gains Shrouded.")


def test_a_state_an_enchantment_gives_ends_with_it():
    r = caster("r1", "red", 10, 5, [SNARE])
    b = unit("b1", "blue", 10, 12, facing=270)
    b2 = unit("b2", "blue", 14, 12, facing=270, states=["Slowed"])
    g = setup([r, b, b2], [5, 5])
    to_action(g, "r1")
    g.apply(Declare("r1", "Spell Attack", spell="Snare", targets=(("b1", 1),)))
    assert "Slowed" in g.models["b1"].states and g.stat("b1", "SPD") == 3
    assert g.stat("b1", "DEF") == 10
    to_action(g, "r1")
    g.dice = Dice.fixed([5])
    g.apply(Declare("r1", "Spell Attack", spell="Snare", targets=(("b2", 1),)))
    g.apply(EndTurn("blue")) if g.pending == ("tactical", "blue") else None
    if g.pending == ("tactical", "blue"):
        g.apply(EndTurn("blue"))
    # the caster's next Strategic Phase: the Enchantment and its Slowed end;
    # b2's own Slowed (it had it before) stays
    assert g.round == 2 and g.active_side == "red"
    assert g.stat("b1", "DEF") == 12 and "Slowed" not in g.models["b1"].states
    assert g.stat("b1", "SPD") == 5
    assert "Slowed" in g.models["b2"].states
    ends = [e for e in kinds(g.events, "states") if e.data["model"] == "b1" and e.data["removed"]]
    assert ends[-1].data["why"] == "the Enchantment Snare ends"


def test_a_state_a_healing_spell_gives_lasts_until_the_end_of_the_sequence():
    r = caster("r1", "red", 10, 5, [VEIL])
    g = setup([r, unit("r2", "red", 12, 5), unit("b1", "blue", 30, 30)], [5])
    g.models["r2"].hp = 1
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Assist", spell="Veil", targets=(("r2", 1),)))
    assert g.models["r2"].hp == 2                      # the heal stays
    added = [e.data for e in kinds(ev, "states") if e.data["model"] == "r2"]
    assert added[0]["added"] == ["Shrouded"]
    assert added[-1]["removed"] == ["Shrouded"]        # Healing: until end of Activation Sequence
    assert "Shrouded" not in g.models["r2"].states


# --- narration -------------------------------------------------------------------
def test_the_narration_says_who_hit_and_who_dodged():
    g = setup([unit("r1", "red", 10, 5, weapons=[BOW]), unit("b1", "blue", 10, 15, facing=270),
               unit("b2", "blue", 14, 15, facing=270)], [9, 4, 3, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    g.apply(Pass("blue"))
    # one Strike each: b1 is hit on 9 and dodges (AG roll 3); b2 is hit on 4 (damage 20)
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1), ("b2", 1))))
    lines = narrate(ev)
    assert "    b1 dodges r1's hit (roll 9)" in lines
    assert "    r1 hits b2 with Bow (roll 4)" in lines
    assert not any(ln.startswith("    r1 hits b1") for ln in lines)


def test_a_side_whose_last_model_fled_ends_the_game_in_words_that_say_so():
    r = unit("r1", "red", 10, 3, states=["Panicked"])
    g = setup([r, unit("b1", "blue", 20, 30)], [20])
    g.apply(Activate("r1"))                   # fails its M roll, runs off the bottom edge
    assert g.is_over and g.outcome.termination.value == "elimination"
    assert g.outcome.detail == "red has every model Incapacitated or Dead or off the table"


def test_attack_narration_says_the_attribute_already_holds_its_modifiers():
    # "ACC 9 (range -6)" read as 9 before or after the -6; the line says after
    from rules.core import Event
    from rules.eldfall.narrate import line
    ev = Event("attack", {"attacker": "a", "target": "b", "with": "Longbow", "kind": "Ranged Attack",
                             "role": "active", "stat": "ACC", "attribute": 9, "modifiers": {"range": -6},
                             "strikes": 1, "failed": None, "victims": []})
    assert line(ev).endswith("ACC 9 (after range -6)")
