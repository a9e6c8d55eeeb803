"""Dice arithmetic: roll-under, criticals, confrontation, damage, halving (combat.py)."""
import pytest
from hypothesis import given, strategies as st

from rules.eldfall import combat as cb


def test_roll_under_and_criticals():
    assert cb.judge(12, 12).success and not cb.judge(13, 12).success
    assert cb.judge(1, 12).critical and cb.judge(1, 12).success
    assert not cb.judge(20, 20).critical and cb.judge(20, 20).success
    assert cb.judge(20, 21).critical            # above 20: a 20 is a critical too
    assert cb.judge(19, 21).success and not cb.judge(19, 21).critical


def test_attribute_zero_fails_even_on_a_one():
    d = cb.judge(1, 0)
    assert not d.success and not d.critical
    assert not cb.judge(1, -3).success


def test_halving_after_modifiers_rounding_up():
    assert cb.effective(13, -2, halvings=1) == 6     # (13-2)/2 = 5.5 -> 6
    assert cb.effective(13, 0, halvings=1) == 7
    assert cb.effective(5, 0, doublings=1) == 10
    assert cb.effective(3, -5) == 0


def _dice(values, target):
    return [cb.judge(v, target) for v in values]


def test_confrontation_equal_or_lower_cancelled_book():
    a, b = cb.confront(_dice([12], 14), _dice([12], 13))
    assert a == [] and b == []                  # equal: both cancelled (book)
    a, b = cb.confront(_dice([12], 14), _dice([12], 13), ties="keep")
    assert [d.value for d in a] == [12] and [d.value for d in b] == [12]


def test_confrontation_higher_success_wins_and_fail_does_not_cancel():
    a, b = cb.confront(_dice([8, 13], 14), _dice([11], 12))
    assert [d.value for d in a] == [13] and b == []
    a, b = cb.confront(_dice([5], 14), _dice([18], 12))   # 18 fails: cancels nothing
    assert [d.value for d in a] == [5] and b == []


def test_critical_beats_confrontation_and_both_crits_hit():
    a, b = cb.confront(_dice([1], 14), _dice([12], 13))
    assert [d.value for d in a] == [1] and b == []
    a, b = cb.confront(_dice([1, 10], 14), _dice([1], 13))
    assert [d.value for d in a] == [1] and [d.value for d in b] == [1]


@given(st.lists(st.integers(1, 20), min_size=1, max_size=3), st.lists(st.integers(1, 20), min_size=1, max_size=3),
       st.integers(0, 25), st.integers(0, 25))
def test_confrontation_properties(ra, rb, ta, tb):
    da, db = _dice(ra, ta), _dice(rb, tb)
    a, b = cb.confront(da, db)
    assert all(d.success for d in a + b)
    # without criticals, both sides never keep a hit at once
    if not any(d.critical for d in da + db):
        assert not (a and b)


def test_damage_threshold_and_armor_traits():
    assert cb.wound_threshold(12, 5, False, []) == 7
    assert cb.wound_threshold(12, 5, True, []) == 12           # critical: ARM 0
    assert cb.wound_threshold(12, 5, False, ["Armor-Piercing"]) == 9   # ARM 5 -> 3
    assert cb.wound_threshold(12, 5, False, ["Ignore Armor"]) == 12


def test_traits_and_bands():
    assert cb.trait_value(["Knockback (2)"], "Knockback") == 2
    assert cb.trait_value(["Knockback 1"], "Knockback") == 1
    assert cb.has_trait(["Poison II"], "Poison II") and not cb.has_trait(["Poison II"], "Poison I")
    bands = [(0, 20, 0), (21, 40, -6)]
    assert cb.band_modifier(bands, 20) == 0
    assert cb.band_modifier(bands, 20.5) == -6      # between printed bands: the farther one
    assert cb.band_modifier(bands, 40.01) is None
    assert cb.size_steps("M", "H") == 2 and cb.size_steps("L", "M") == -1


def test_a_band_s_printed_minimum_is_a_minimum_range():
    from rules.eldfall import combat as cb
    bands = [(6, 12, 0), (12, 24, -3)]
    assert cb.band_modifier(bands, 5.9) is None
    assert cb.band_modifier(bands, 6.0) == 0 and cb.band_modifier(bands, 13) == -3
    assert cb.band_modifier(bands, 24.1) is None
    assert cb.band_modifier([(0, 20, 0)], 0.0) == 0
