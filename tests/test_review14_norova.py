"""Legends of Norova, review 14: the user's page against the rules, the menu and the words.

Source: ../shared/seeds/norova-active-turn.txt; docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number can be checked by hand.
"""
import pytest

from rules.norova.actions import Attack, Equip
from test_norova_helpers import game, kinds, narrated, rolls, unit


# ---- "Changing equipment": a second weapon drawn into the free off hand ----------------------
def test_a_second_weapon_is_drawn_into_the_free_off_hand_from_the_legal_actions():
    # A holds a longsword, its off hand free, a dagger at its belt. Before, the legal actions
    # (the hotseat menu, the bots) only ever put a weapon in the main hand: the dagger could
    # replace the longsword, never join it, so A could not dual wield without typing it.
    a = unit("A", "red", 5, 5, 0, abilities=["dual_wielding"], inventory={"dagger": 1, "javelin": 1})
    g = game([a, unit("B", "blue", 7.1, 5, 180)])
    equips = {(e.main, e.off) for e in g.legal_actions() if isinstance(e, Equip)}
    assert ("longsword", "dagger") in equips and ("longsword", "javelin") in equips
    assert ("longsword", "longsword") not in equips       # it carries one longsword
    g.apply(Equip("A", "longsword", "dagger"))
    f = g.f("A")
    assert (f.main, f.off) == ("longsword", "dagger") and "dagger" not in f.inventory
    # and the dual attack it was drawn for is legal now
    assert Attack("A", "B", "dual") in list(g.legal_actions())


def test_a_bow_is_put_away_for_two_weapons_in_one_support_action():
    # "You can change as much equipment as you want in one support action": a ranger out of
    # arrows takes a shortsword and a dagger at once. Before, only one weapon came out.
    a = unit("A", "red", 5, 5, 0, equipment={"main": "shortbow"}, inventory={"dagger": 1, "shortsword": 1})
    g = game([a, unit("B", "blue", 7.1, 5, 180)])
    equips = {(e.main, e.off) for e in g.legal_actions() if isinstance(e, Equip)}
    assert equips == {(None, None), ("dagger", None), ("shortsword", None),
                      ("dagger", "shortsword"), ("shortsword", "dagger")}


def test_two_of_a_kind_a_second_dagger_joins_the_first():
    a = unit("A", "red", 5, 5, 0, equipment={"main": "dagger"}, inventory={"dagger": 1})
    g = game([a, unit("B", "blue", 7.1, 5, 180)])
    assert Equip("A", "dagger", "dagger") in list(g.legal_actions())


# ---- a nested setting named as the rulings name it: --set facing.front_half_angle=60 ---------
def test_a_dotted_setting_is_the_nested_setting():
    # The rulings name every setting by its key path (`facing.front_half_angle`,
    # `attack_of_opportunity.allows_evade`). Before, `{"facing.front_half_angle": 60}` was
    # "unknown setting (known: ... facing ...)": only a nested mapping was read.
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 5 + 2.0, 5 + 1.5, 180)],
             settings={"facing.front_half_angle": 60, "facing.rear_half_angle": 60})
    assert g.r["facing"]["front_half_angle"] == 60 and g.r["facing"]["rear_half_angle"] == 60
    assert g.r["facing"]["evade_modifier"] == {"front": 0, "side": -2, "rear": -5}   # the rest kept
    # B is 36.9 degrees off A's facing: in the front arc either way; 53.1: only with 60
    assert g.in_front("A", "B")
    g2 = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 7, 180)],
              settings={"facing.front_half_angle": 60})
    assert g2.in_front("A", "B")
    assert not game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 7, 180)]).in_front("A", "B")


def test_dotted_and_nested_settings_merge_and_the_later_counts():
    from rules.norova.data import RuleData, expand_dotted
    assert expand_dotted({"facing": {"front_half_angle": 50}, "facing.evade_modifier.side": -3}) == \
        {"facing": {"front_half_angle": 50, "evade_modifier": {"side": -3}}}
    r = RuleData({"facing": {"front_half_angle": 50}, "facing.front_half_angle": 70}).rules
    assert r["facing"]["front_half_angle"] == 70


@pytest.mark.parametrize("setting, says", [
    ("facing.evade_modifier.side=x", "--set facing.evade_modifier.side: must be a whole number, not 'x'"),
    ("critical.crit_power_multiplier=2.5", "--set critical.crit_power_multiplier: must be a whole number, not 2.5"),
    ("facing.nonsense=3", "--set facing.nonsense: unknown setting (known: attack_only_front, evade_modifier, "
                          "front_half_angle, rear_half_angle)"),
])
def test_a_bad_dotted_setting_on_the_command_line_is_one_line_at_its_key(capsys, setting, says):
    from cli_run import run_cli
    from pathlib import Path
    arena = str(Path(__file__).resolve().parents[1] / "scenes" / "norova-arena.yaml")
    rc, out, err = run_cli(capsys, "play", arena, "--game", "norova", "--bots", "--set", setting, "--quiet")
    assert rc == 2
    assert err.strip().splitlines() == [f"<command line>: {says}"]


# ---- a support skill's backfire: "does the opposite of what was intended" -------------------
def _narrate(events):
    return narrated(events, skip_actions=True)


def test_a_backfired_second_wind_says_what_it_drained_and_drains_no_more_than_there_is():
    from rules.norova.actions import UseSkill
    g = game([unit("A", "red", 5, 5, 0, skills=["second_wind"], power=10), unit("B", "blue", 20, 5, 180)])
    g.f("A").power = 3
    rolls(g, [1, 6])                 # natural 1, the d6 6: it backfires (4 Power drained)
    evs = g.apply(UseSkill("A", "second_wind"))
    bf = kinds(evs, "backfire")
    # the event said "lost: 4" of a pool that held 3
    assert bf == [{"model": "A", "what": "second_wind", "lost": {"power": 3}, "power": 0}]
    assert g.f("A").power == 0
    # before, the line was only "A's second wind backfires": the player saw no Power go
    assert "     A's second wind backfires: A loses 3 power (Power 0/10)" in _narrate(g.events[:1]) + _narrate(evs)


# ---- Epic Casting belongs to a spell that works, not to one that backfired -------------------
def test_a_backfired_spell_part_deals_no_epic_casting_in_an_aided_spell():
    from rules.norova.actions import Aid, Cast
    # A's firebolt backfires (natural 1, d6 6: "healing an enemy"), C's aid works. A's critical
    # hit check is a natural 20 and a 6. Before, that 6 was Epic Casting: B was healed by A's
    # backfire and killed by A's epic casting in the same breath. The backfired share turns
    # (it heals B, power x3: a double crit); C's share strikes as ever.
    g = game([unit("A", "red", 5, 5, 0, spells=["firebolt"], runic_power=1),
              unit("C", "red", 5, 7, 0, spells=["firebolt"]), unit("B", "blue", 10, 5, 180)])
    g.f("B").vitality = 20
    rolls(g, [1, 6, 15, 20, 6, 10, 2])  # A's roll and d6; C's roll; A's crit d20, d6; C's crit; B's evade
    evs = g.apply(Cast("A", "firebolt", "B", (Aid("C", None, "firebolt"),)))
    assert not kinds(evs, "epic_casting")
    assert [c["result"] for c in kinds(evs, "critical_check")] == ["double", None]
    assert g.f("B").status == "active"
    # healed 5 + 1 x 3 = 8 by A's backfire (to 28), then 5 damage from C's firebolt
    assert [h["amount"] for h in kinds(evs, "heal")] == [8]
    assert [d["amount"] for d in kinds(evs, "damage")] == [5]
    assert g.f("B").vitality == 23


def test_a_working_spells_epic_casting_still_kills():
    from rules.norova.actions import Cast
    g = game([unit("A", "red", 5, 5, 0, spells=["firebolt"]), unit("B", "blue", 10, 5, 180)])
    rolls(g, [15, 20, 6])
    evs = g.apply(Cast("A", "firebolt", "B"))
    assert [e["effect"] for e in kinds(evs, "epic_casting")] == ["killed"]
    assert g.f("B").status == "dead"


# ---- a javelin in each hand: the off hand's throw empties the off hand ----------------------
def test_the_off_hands_thrown_javelin_leaves_the_off_hand_not_the_main():
    # Two javelins, one in each hand (now offered as an equipment change). Before, a throw
    # with the off hand emptied the main hand: the next main-hand attack was unarmed.
    a = unit("A", "red", 5, 5, 0, equipment={"main": "javelin"}, inventory={"javelin": 1}, offensive_power=2)
    g = game([a, unit("B", "blue", 9, 5, 180)])
    assert Equip("A", "javelin", "javelin") in list(g.legal_actions())
    g.apply(Equip("A", "javelin", "javelin"))
    rolls(g, [15, 5, 2])             # the Focus hit check, no critical, B's Evade fails
    evs = g.apply(Attack("A", "B", "off"))
    assert kinds(evs, "thrown_away") == [{"model": "A", "weapon": "javelin"}]
    assert [d["amount"] for d in kinds(evs, "damage")] == [4 + 1]     # the off hand: half power
    assert (g.f("A").main, g.f("A").off) == ("javelin", None)


# ---- the words of a catch and of a spotting check ---------------------------------------------
def test_a_catch_and_a_spotting_check_say_what_the_character_tries():
    from rules.norova.actions import Perceive, ThrowPotion
    g = game([unit("A", "red", 5, 5, 0, inventory={"soul_draught": 1}), unit("C", "red", 8, 5, 180),
              unit("B", "blue", 5, 12, 270)])
    rolls(g, [14])
    lines = _narrate(g.apply(ThrowPotion("A", "soul_draught", "C")))
    # it read "C catch (catch soul draught): ..."
    assert "     C tries to catch the soul draught: d20 14 +0 react -> 14 vs 12: success" in lines, lines
    g.f("B").hidden = True
    rolls(g, [13])
    lines = _narrate(g.apply(Perceive("A", "B")))
    # it read "A perceive (spot B): ..."
    assert "     A tries to spot B: d20 13 +0 perceive -> 13 vs 12: success" in lines, lines


def test_two_of_a_weapon_it_does_not_carry_reads_in_the_plural():
    g = game([unit("A", "red", 5, 5, 0, equipment={"main": "dagger"}), unit("B", "blue", 7.1, 5, 180)])
    assert g.why_illegal(Equip("A", "dagger", "dagger")) == "A does not carry two daggers"
    assert g.why_illegal(Equip("A", "greataxe", None)) == "A does not carry greataxe"


def test_the_hotseat_menu_says_an_off_hand_draw_as_one(view_app, tmp_path):
    # the knight keeps its longsword and draws the javelin: "equip the longsword (main hand) and
    # the javelin (off hand)" read as if the longsword were drawn too
    from rules.norova.actions import Equip
    from view_fixtures import open_scene  # noqa: E402
    ctl = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova")
    f = ctl._fighter("knight")
    assert (f.main, f.off) == ("longsword", "dagger")
    assert ctl.norova_words(Equip("knight", main="longsword", off="javelin")) == \
        "draw the javelin into the off hand, putting away the dagger"
    assert ctl.norova_words(Equip("knight", main="javelin", off=None)).startswith("equip the javelin (main hand)")
