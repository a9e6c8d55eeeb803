"""Legends of Norova, review 10: the user's page against the rules.

Source: ../shared/seeds/norova-active-turn.txt ("Aided Attacks", "Aided Magic",
"Rolling Critical with Saves"); docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number can be checked by hand.
"""
import pytest

from rules.core import IllegalAction
from rules.norova.actions import Aid, Attack, Cast, UsePotion
from test_norova_helpers import game, kinds, rolls, unit


def aided(a=None, a2=None):
    """A1 and A2 side by side, both facing B (at 1" from each)."""
    return game([unit("A1", "red", 5, 5, 0, **(a or {})), unit("B", "blue", 6.5, 5.6, 180, vitality=200),
                 unit("A2", "red", 5, 6.4, 0, **(a2 or {}))])


# ---- "adding your attack to theirs rather than attacking independently" ----------------
def test_an_aid_adds_nothing_when_the_main_thrown_attack_misses():
    g = aided(a={"equipment": {"main": "javelin"}}, a2={"offensive_power": 1})
    rolls(g, [3, 10, 2])                   # A1's Focus check to hit: 3 < 12, a miss
    evs = g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))
    assert g.f("B").vitality == 200        # A2's blow is added to nothing: it does not land alone
    st = kinds(evs, "strike")
    assert len(st) == 1 and not st[0]["hit"] and "aid adds nothing" in st[0]["why"]
    assert g.f("A2").slots["attack"]       # the aid is spent all the same
    assert not kinds(evs, "critical_check")   # nobody rolls a critical for a strike that missed


def test_an_aid_adds_nothing_when_the_main_critical_check_is_a_natural_1():
    g = aided(a2={"offensive_power": 1})
    rolls(g, [1, 10, 2])                   # A1's critical hit check: natural 1, no damage at all
    evs = g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))
    assert g.f("B").vitality == 200
    assert [c["model"] for c in kinds(evs, "critical_check")] == ["A1"]


def test_an_aid_still_adds_to_a_main_strike_that_connects_when_its_own_part_fumbles():
    g = aided(a={"offensive_power": 2}, a2={"offensive_power": 1})
    rolls(g, [10, 1, 2])                   # A1 connects, A2's critical check is a natural 1, Evade 2
    g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))
    assert g.f("B").vitality == 200 - (5 + 2)


def test_an_aided_spell_adds_nothing_when_the_casters_own_spell_fails():
    us = [unit("A", "red", 5, 5, 0, spells=["firebolt"], element="fire"),
          unit("C", "red", 5, 7, 0, spells=["shadow_bolt"], element="dark", traits={"focus": 3}),
          unit("B", "blue", 10, 5, 180, vitality=60)]
    g = game(us)
    rolls(g, [5, 15, 5, 2])                # A's spell roll 5 < 12 fails; C's 15 + 3 succeeds
    evs = g.apply(Cast("A", "firebolt", "B", (Aid("C", None, "shadow_bolt"),)))
    assert g.f("B").vitality == 60
    assert g.f("A").soul == 8 and g.f("C").soul == 8 and g.f("C").slots["magic"]
    assert "aid adds nothing" in kinds(evs, "strike")[0]["why"]


def test_an_aided_spell_whose_casters_critical_mishap_fails_adds_nothing():
    us = [unit("A", "red", 5, 5, 0, spells=["firebolt"], element="fire"),
          unit("C", "red", 5, 7, 0, spells=["shadow_bolt"], element="dark"),
          unit("B", "blue", 10, 5, 180, vitality=60)]
    g = game(us)
    rolls(g, [15, 15, 1, 3, 5, 2])         # both spells succeed; A's critical check 1, mishap 3: failure
    g.apply(Cast("A", "firebolt", "B", (Aid("C", None, "shadow_bolt"),)))
    assert g.f("B").vitality == 60


# ---- "dead and can only be revived by spell" ---------------------------------------------
def test_a_dead_ally_is_revived_by_a_healing_spell_but_not_by_a_potion():
    us = [unit("A", "red", 5, 5, 0, spells=["mend"], inventory={"healing_potion": 1}),
          unit("C", "red", 6.5, 5, 180), unit("B", "blue", 25, 25, 180)]
    g = game(us)
    g._kill(g.f("C"), "critical failure of a Vitality save")
    with pytest.raises(IllegalAction, match="C is dead"):
        g.apply(UsePotion("A", "healing_potion", "C"))
    rolls(g, [15, 5])                      # mend's roll (easy, 8), the critical hit check
    evs = g.apply(Cast("A", "mend", "C"))
    c = g.f("C")
    assert c.status == "active" and c.vitality == 6 and c.prone      # back, down on the ground
    assert {"model": "C", "status": "active", "why": "mend"} in kinds(evs, "state")
    assert g.geometry.models["C"].states == {"Crouched"}              # no longer Dead on the table


def test_a_healing_area_revives_the_dead_allies_in_it():
    us = [unit("A", "red", 5, 5, 0, spells=["radiant_wave"], runic_casting_speed=2),
          unit("C", "red", 7, 5, 180), unit("B", "blue", 25, 25, 180)]
    g = game(us)
    g._kill(g.f("C"), "deathblow")
    rolls(g, [15, 5, 5])                   # the spell roll; a critical check for A and for C
    g.apply(Cast("A", "radiant_wave", None))
    assert g.f("C").status == "active" and g.f("C").vitality == 4


def test_legal_actions_offer_a_healing_spell_on_a_dead_ally():
    us = [unit("A", "red", 5, 5, 0, spells=["mend"]), unit("C", "red", 6.5, 5, 180),
          unit("B", "blue", 25, 25, 180)]
    g = game(us)
    g._kill(g.f("C"), "deathblow")
    assert Cast("A", "mend", "C") in list(g.generate_actions(moves=False))
