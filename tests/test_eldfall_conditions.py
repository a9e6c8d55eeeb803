"""State logic: no stacking, priorities, removal rules, stat modification and
rounding, sight/cover/engagement/targeting rules, and invariants under random
sequences of State changes (hypothesis). The tables themselves are checked row
by row in test_eldfall_seed_tables.py; scripted games per State in test_eldfall_states.py."""
from __future__ import annotations

import pytest
from hypothesis import given, settings as hsettings, strategies as hs

from rules.eldfall import conditions as c
from rules.eldfall.conditions import (Note, StateRuleError, add_state, modified_stats, on_action_declared,
                                      on_activation_start, on_wound, remove_state)
from rules.eldfall.table_settings import TableSettings

CHAMPION = {"STA": 2, "SPD": 5, "OFF": 16, "DEF": 12, "ACC": 12, "INT": 13, "AG": 10, "T": 13,
            "ARM": 5, "HP": 3, "M": 17}   # Clan Champion, eldfall-facts.md "Profiles"


# ------------------------------------------------------------------ no stacking

@pytest.mark.parametrize("name", c.STATES)
def test_no_stacking(name):
    st, _ = add_state(frozenset(), name)
    again, notes = add_state(st, name)
    assert again == st
    assert [n.code for n in notes] == ["no_stacking"]
    assert isinstance(notes[0], str) and isinstance(notes[0], Note)


def test_several_states_at_once():
    st = frozenset()
    for n in ("Bleeding", "Poisoned", "Weakened", "Slowed", "Engaged"):
        st, notes = add_state(st, n)
        assert notes == []
    assert st == {"Bleeding", "Poisoned", "Weakened", "Slowed", "Engaged"}


def test_unknown_names_raise():
    with pytest.raises(ValueError, match="unknown state"):
        add_state(frozenset(), "Stunned")
    with pytest.raises(ValueError, match="unknown state"):
        c.can_activate({"Stunned"})
    with pytest.raises(ValueError, match="unknown cause"):
        remove_state({"Bleeding"}, "Bleeding", "magic")


# ------------------------------------------------------------------ priorities and chains

def test_incapacitated_flying_rider_chain():
    st, notes = add_state({"Flying", "Bleeding"}, "Incapacitated")
    assert st == {"Incapacitated", "Crouched", "Bleeding"}
    codes = [n.code for n in notes]
    assert codes.count("flying_cancelled") == 1
    assert "dismount_rider" in codes and "entered" in codes


def test_incapacitated_then_wound_is_dead_and_keeps_states():
    st, _ = add_state({"Poisoned"}, "Incapacitated")
    st, notes = on_wound(st)
    assert st == {"Poisoned", "Incapacitated", "Crouched", "Dead"}
    assert [n.code for n in notes] == ["dead"]
    # a Dead model keeps its States and gains no new one
    again, notes = add_state(st, "Blinded")
    assert again == st and [n.code for n in notes] == ["dead_no_change"]
    with pytest.raises(StateRuleError, match="retains"):
        remove_state(st, "Poisoned", "ability")


def test_wound_to_a_healthy_model_changes_nothing():
    assert on_wound({"Engaged"}) == (frozenset({"Engaged"}), [])


def test_flying_cannot_be_entered_when_it_would_cancel_at_once():
    for blocker in ("Crouched", "Immobilized", "Petrified", "Incapacitated"):
        st, notes = add_state({blocker} | ({"Crouched"} if blocker == "Incapacitated" else set()), "Flying")
        assert "Flying" not in st and notes[0].code == "cannot_enter"


def test_flying_ends_engaged_and_cannot_be_engaged():
    st, notes = add_state({"Engaged"}, "Flying")
    assert st == {"Flying"} and notes[0].code == "engaged_cancelled"
    st, notes = add_state({"Flying"}, "Engaged")
    assert st == {"Flying"} and notes[0].code == "cannot_enter"


def test_flying_cannot_crouch_voluntarily_but_is_knocked_down():
    with pytest.raises(StateRuleError, match="voluntarily"):
        add_state({"Flying"}, "Crouched", voluntary=True)
    assert add_state({"Flying"}, "Crouched")[0] == {"Crouched"}          # Knockdown
    assert c.crouch_change_allowed({"Flying"}, "movement_start") == "a Flying model cannot voluntarily become Crouched"


def test_shrouded_declarations():
    for action in ("Nothing",):
        assert on_action_declared({"Shrouded"}, action) == (frozenset({"Shrouded"}), [])
    st, notes = on_action_declared({"Shrouded", "Slowed"}, "Dodge")
    assert st == {"Slowed"} and [n.code for n in notes] == ["shrouded_cancelled"]
    s = TableSettings(shrouded_dodge_keeps_state=True)
    assert on_action_declared({"Shrouded"}, "Dodge", settings=s)[0] == {"Shrouded"}
    assert on_action_declared({"Shrouded"}, "Melee Attack", settings=s)[0] == frozenset()
    assert on_action_declared(frozenset(), "Melee Attack") == (frozenset(), [])


def test_panicked_activation_start():
    assert on_activation_start({"Panicked"}) is None                       # passed the roll
    f = on_activation_start({"Panicked"}, morale_failed=True)
    assert (f.movement, f.actions, f.toward_edge) == ("Run", {"Nothing"}, True)
    f = on_activation_start({"Panicked", "Engaged"}, morale_failed=True)
    assert (f.movement, f.actions) == ("Idle", {"Dodge"})
    assert on_activation_start({"Panicked", "Engaged"}) is None
    f = on_activation_start({"Panicked", "Engaged"},
                            settings=TableSettings(panicked_engaged_needs_failed_roll=False))
    assert f.movement == "Idle"
    f = on_activation_start({"Panicked", "Immobilized"}, morale_failed=True)
    assert (f.movement, f.actions) == ("Idle", {"Dodge"})
    assert on_activation_start({"Slowed"}) is None
    assert c.needs_morale_roll({"Panicked"}) and not c.needs_morale_roll({"Slowed"})
    assert not c.needs_morale_roll({"Panicked", "Incapacitated", "Crouched"})


# ------------------------------------------------------------------ removal

def test_crouched_removal_rules():
    assert remove_state({"Crouched"}, "Crouched", "voluntary") == frozenset()
    assert remove_state({"Crouched"}, "Crouched", "dodge_success") == frozenset()
    assert remove_state({"Crouched"}, "Crouched", "dodge") == frozenset()          # failed Dodge too
    with pytest.raises(StateRuleError, match="successful"):
        remove_state({"Crouched"}, "Crouched", "dodge",
                     settings=TableSettings(crouch_change_after_failed_dodge=False))
    with pytest.raises(StateRuleError, match="Immobilized"):
        remove_state({"Crouched", "Immobilized"}, "Crouched", "dodge")
    assert remove_state({"Crouched", "Immobilized"}, "Crouched", "dodge_success") == {"Immobilized"}
    with pytest.raises(StateRuleError, match="Incapacitated"):
        remove_state({"Crouched", "Incapacitated"}, "Crouched", "voluntary")
    assert c.crouch_change_allowed({"Immobilized"}, "after_dodge") is not None
    assert c.crouch_change_allowed({"Immobilized"}, "after_dodge", dodge_success=True) is None
    assert c.crouch_change_allowed(frozenset(), "after_dodge") is None
    assert c.crouch_change_allowed({"Incapacitated", "Crouched"}, "movement_end") is not None


def test_immobilized_only_by_successful_dodge():
    assert remove_state({"Immobilized"}, "Immobilized", "dodge_success") == frozenset()
    for cause in ("dodge", "ability", "voluntary", "strategic_phase"):
        with pytest.raises(StateRuleError):
            remove_state({"Immobilized"}, "Immobilized", cause)


def test_conditional_strategic_phase_removal_needs_the_origin():
    with pytest.raises(StateRuleError, match="Poison I"):
        remove_state({"Weakened"}, "Weakened", "strategic_phase")
    assert remove_state({"Weakened"}, "Weakened", "strategic_phase", origin="Poison I") == frozenset()
    with pytest.raises(StateRuleError, match="effect"):
        remove_state({"Incapacitated", "Crouched"}, "Incapacitated", "strategic_phase", origin="wounds")
    assert remove_state({"Panicked"}, "Panicked", "strategic_phase", origin="Friendly Fire") == frozenset()
    assert remove_state({"Fatigued"}, "Fatigued", "strategic_phase") == frozenset()
    assert c.expiring_at_strategic_phase({"Fatigued", "Weakened", "Panicked", "Bleeding"},
                                         {"Weakened": "Poison I", "Panicked": "Broken Morale"}) == \
        {"Fatigued", "Weakened"}


def test_removing_an_absent_state_is_a_no_op():
    assert remove_state({"Slowed"}, "Bleeding", "ability") == {"Slowed"}


def test_dead_is_never_removed():
    for cause in c.CAUSES:
        with pytest.raises(StateRuleError):
            remove_state({"Dead"}, "Dead", cause)


# ------------------------------------------------------------------ stats and rounding

@pytest.mark.parametrize("states,stat,base,want", [
    ({"Crouched"}, "SPD", 5, 3),            # 2.5 rounds up
    ({"Crouched"}, "ARM", 5, 3),
    ({"Crouched"}, "ARM", 4, 2),
    ({"Crouched"}, "STK", 3, 1),            # capped at 1
    ({"Crouched"}, "STK", 1, 1),
    ({"Weakened"}, "T", 13, 7),
    ({"Weakened"}, "STA", 2, 1),
    ({"Weakened"}, "STA", 0, 0),            # never below 0
    ({"Confused"}, "M", 17, 9),
    ({"Confused"}, "OFF", 16, 8),
    ({"Confused"}, "T", 13, 13),
    ({"Crippled"}, "AG", 11, 6),
    ({"Crippled"}, "SPD", 5, 3),
    ({"Slowed"}, "SPD", 7, 4),
    ({"Flying"}, "SPD", 5, 10),
    ({"Crouched", "Slowed"}, "SPD", 5, 2),  # 5/4 = 1.25 -> 2 (one rounding at the end)
    ({"Crippled", "Slowed"}, "SPD", 6, 2),  # 6/4 = 1.5 -> 2
    ({"Flying", "Slowed"}, "SPD", 5, 5),    # x2 and /2 cancel: no rounding in between
    ({"Crippled", "Confused"}, "AG", 10, 3),  # 2.5 -> 3
])
def test_modified_stat(states, stat, base, want):
    assert modified_stats({stat: base}, states)[stat] == want


def test_halving_comes_after_other_modifiers():
    # ACC 12 with -4 heavy cover, Confused: (12 - 4) / 2 = 4, not 12/2 - 4 = 2
    assert modified_stats({"ACC": 12}, {"Confused"}, modifiers={"ACC": -4}) == {"ACC": 4}
    # -3 then halved: 7 / 2 = 3.5 -> 4
    assert modified_stats({"AG": 10}, {"Crippled"}, modifiers={"AG": -3}) == {"AG": 4}
    # a negative total stays at 0 (0 fails automatically)
    assert modified_stats({"ACC": 3}, {"Confused"}, modifiers={"ACC": -6}) == {"ACC": 0}
    with pytest.raises(ValueError, match="modifiers"):
        modified_stats({"ACC": 3}, frozenset(), modifiers={"XYZ": 1})


def test_halving_once_setting():
    s = TableSettings(multiple_halving="once")
    assert modified_stats({"SPD": 5}, {"Crouched", "Slowed"}, settings=s) == {"SPD": 3}
    assert modified_stats({"SPD": 5}, {"Crouched", "Slowed"}) == {"SPD": 2}


def test_environment_and_effects():
    assert modified_stats({"SPD": 5, "AG": 9}, frozenset(), {"shallow-water"}) == {"SPD": 3, "AG": 5}
    assert modified_stats({"SPD": 5}, frozenset(), {"difficult"}) == {"SPD": 3}
    assert modified_stats({"SPD": 8}, {"Slowed"}, {"mountainous"}) == {"SPD": 2}
    assert modified_stats({"SPD": 5}, frozenset(), {"forest"}) == {"SPD": 5}
    got = modified_stats(CHAMPION, frozenset(), effects=["Surprise Attack"])
    assert (got["OFF"], got["DEF"], got["ACC"], got["AG"], got["INT"]) == (8, 6, 6, 5, 7)
    assert got["T"] == 13 and got["M"] == 17
    with pytest.raises(ValueError, match="unknown effect"):
        modified_stats(CHAMPION, frozenset(), effects=["Haste"])


def test_champion_under_everything_unchanged_keys():
    got = modified_stats(CHAMPION, {"Confused", "Weakened", "Crouched"})
    assert got == {"STA": 1, "SPD": 3, "OFF": 8, "DEF": 6, "ACC": 6, "INT": 7, "AG": 5, "T": 7,
                   "ARM": 3, "HP": 3, "M": 9}
    assert modified_stats(CHAMPION, frozenset()) == CHAMPION


def test_upkeep_ap():
    assert c.upkeep_ap(CHAMPION, frozenset()) == 2
    assert c.upkeep_ap(CHAMPION, {"Weakened"}) == 1
    assert c.upkeep_ap(CHAMPION, {"Fatigued"}) == 0
    assert c.upkeep_ap(CHAMPION, {"Incapacitated", "Crouched"}) == 0
    assert c.upkeep_ap(CHAMPION, frozenset(), watchful=True, reactive=True) == 4
    assert c.upkeep_ap(CHAMPION, frozenset(), watchful=True, reactive=False) == 2


# ------------------------------------------------------------------ sight, cover, engagement, targeting

def test_hitbox_and_sight_and_cover():
    assert c.hitbox_shrinks({"Crouched"}) and c.hitbox_shrinks({"Dead"})
    assert not c.hitbox_shrinks({"Flying"}) and not c.hitbox_shrinks({"Petrified"})
    assert c.sight_rule(frozenset()) == "normal"
    assert c.sight_rule({"Blinded"}) == "none"
    assert c.sight_rule({"Flying"}) == "all" and c.seen_by_all({"Flying"})
    assert c.sight_rule({"Shrouded"}) == "360"
    assert c.sight_rule({"Blinded", "Flying"}) == "none"
    assert c.auto_los_to_engagers({"Engaged"}) and not c.auto_los_to_engagers(frozenset())
    assert c.cover_rule({"Crouched"}) == "light"
    assert c.cover_rule({"Flying"}) == "none"
    assert c.cover_rule(frozenset()) == "normal"


def test_engagement_rules():
    assert c.causes_engagement(frozenset())
    for n in ("Crouched", "Flying", "Incapacitated", "Dead", "Petrified"):
        assert not c.causes_engagement({n})
    assert not c.can_be_engaged({"Flying"})
    assert c.can_be_engaged({"Crouched"})
    for n in ("Incapacitated", "Petrified", "Crouched", "Dead"):
        assert c.ends_engagement({n})
    assert not c.ends_engagement({"Slowed"})


def test_targeting():
    assert c.targeting_block({"Shrouded"}, "Ranged Attack")
    assert c.targeting_block({"Shrouded"}, "Perceive") is None
    assert c.targeting_block({"Flying"}, "Melee Attack")
    assert c.targeting_block({"Flying"}, "Melee Attack", attacker_states={"Flying"}) is None
    assert c.targeting_block({"Flying"}, "Melee Attack", retaliating=True) is None
    assert c.targeting_block({"Flying"}, "Ranged Attack") is None
    assert c.targeting_block(frozenset(), "Death Blow")
    assert c.targeting_block({"Incapacitated", "Crouched"}, "Death Blow") is None
    assert c.targeting_block({"Incapacitated", "Crouched", "Dead"}, "Death Blow")


def test_game_impact_flags():
    assert c.ignored_for_game({"Incapacitated"}) and c.ignored_for_game({"Dead"})
    assert not c.ignored_for_game({"Crouched"})
    assert not c.uses_abilities({"Dead"}) and c.uses_abilities({"Slowed"})
    assert not c.obstructs_movement({"Dead"}) and c.obstructs_movement({"Crouched"})


def test_strategic_rolls():
    assert c.strategic_rolls({"Bleeding", "Poisoned"}) == [
        {"state": "Bleeding", "stat": "T", "modifier": 0, "on_fail": "wound"},
        {"state": "Poisoned", "stat": "T", "modifier": -6, "on_fail": "wound"}]
    assert c.strategic_rolls({"Bleeding", "Dead"}) == []


def test_state_info_is_a_copy():
    info = c.state_info("Crouched")
    info["stats"]["SPD"] = ["double"]
    assert modified_stats({"SPD": 4}, {"Crouched"}) == {"SPD": 2}


# ------------------------------------------------------------------ invariants under random changes

_FLYING_CANCELLERS = {"Crouched", "Immobilized", "Petrified", "Dead", "Incapacitated"}

ops = hs.lists(hs.tuples(hs.sampled_from(["add", "remove", "wound", "declare"]),
                         hs.sampled_from(c.STATES), hs.sampled_from(sorted(c.CAUSES)),
                         hs.sampled_from(["Nothing", "Dodge", "Melee Attack", "Assist"])),
               max_size=25)


@hsettings(max_examples=300, deadline=None)
@given(ops)
def test_random_state_changes_keep_the_invariants(seq):
    st = frozenset()
    for op, name, cause, action in seq:
        before = st
        if op == "add":
            st, notes = add_state(st, name)
            assert all(isinstance(n, Note) for n in notes)
        elif op == "remove":
            try:
                st = remove_state(st, name, cause, origin=c.removal_causes(name).get(cause))
            except StateRuleError:
                assert st == before
        elif op == "wound":
            st, _ = on_wound(st)
        else:
            try:
                st, _ = on_action_declared(st, action)
            except StateRuleError:
                assert not (c.can_activate(st) or c.can_react(st))
        # no state twice is structural (frozenset); these are the rules:
        assert not ("Flying" in st and st & _FLYING_CANCELLERS)
        assert not ("Flying" in st and "Engaged" in st)
        if "Incapacitated" in st:
            assert "Crouched" in st
        if "Dead" in before:
            assert before <= st                      # Dead keeps every State
        if "Incapacitated" in before and op == "wound":
            assert "Dead" in st


def test_docstring_examples():
    import doctest
    from rules.eldfall import availability, reaction_rules
    for mod in (availability, c, reaction_rules):
        result = doctest.testmod(mod)
        assert result.failed == 0 and result.attempted > 0, mod.__name__
