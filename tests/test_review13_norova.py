"""Legends of Norova, review 13: the user's page against the rules, the sheets and the words.

Source: ../shared/seeds/norova-active-turn.txt; docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number can be checked by hand.
"""
import types

import pytest

from rules.core import Event
from rules.norova import narrate
from rules.norova.actions import EndTurn, Move, UseSkill, Wait, parse
from rules.norova.data import NorovaDataError, RuleData
from rules.norova.sheet import sheet_from_block
from test_norova_helpers import game, kinds, rolls, unit


def _ev(kind, data, seq=0):
    return Event(kind, data, seq)


# ---- a profile's norova: block of the wrong shape is a problem line, not a traceback ------
@pytest.mark.parametrize("bad, says", [
    ({"abilities": 5}, "norova.abilities: must be a list of abilities, not 5"),
    # a single text was read letter by letter ("unknown ability 'f'", 'l', 'y', ...)
    ({"abilities": "flying"}, "norova.abilities: must be a list of abilities, not 'flying'"),
    ({"skills": "hide"}, "norova.skills: must be a list of skills, not 'hide'"),
    ({"skills": [["hide"]]}, "norova.skills: ['hide'] is not a name"),
    ({"spells": 5}, "norova.spells: must be a list of spells, not 5"),
    ({"inventory": ["healing_potion"]}, "norova.inventory: must be a mapping of item: count"),
    ({"ammo": 12}, "norova.ammo: must be a mapping of ammunition: count, not 12"),
    # a list of saves was silently dropped (every save bonus 0)
    ({"saves": [2, 1, 1]}, "norova.saves: must be a mapping of pool: save bonus"),
    ({"equipment": {"main_hand": ["longsword"]}},
     "norova.equipment.main_hand: must be the name of a weapon (or null), not ['longsword']"),
    ({"element": ["fire"]}, "norova.element: must be the name of an element, not ['fire']"),
    # a character with no Vitality would be Dying before the fight began
    ({"vitality": 0}, "norova.vitality: must be at least 1, not 0"),
    ({"move": float("inf")}, "norova.move: must be a positive number of spaces, not inf"),
])
def test_a_norova_block_of_the_wrong_shape_is_one_problem_line(bad, says):
    block = {"vitality": 20, "move": 5, **bad}
    with pytest.raises(NorovaDataError) as exc:
        sheet_from_block(block, RuleData())
    assert exc.value.problems == [says] or any(p.startswith(says) for p in exc.value.problems), exc.value.problems
    assert len(exc.value.problems) == 1


def test_a_bad_block_in_a_game_names_the_character():
    u = unit("A", "red", 5, 5)
    u.extra["norova"]["skills"] = "hide"
    with pytest.raises(NorovaDataError) as exc:
        game([u, unit("B", "blue", 9, 5, 180)])
    assert exc.value.problems == ["A.norova.skills: must be a list of skills, not 'hide'"]


# ---- "You move within or across an enemy's range while they are facing you" -----------
def test_a_mover_that_starts_in_range_moves_within_it_it_does_not_enter_it():
    # B (longsword, 1") faces A; A starts 0.5" from B's base and steps along it. Before, the
    # Attack of Opportunity said "entered range while facing": A was in range all along.
    g = game([unit("A", "red", 5, 5, 90), unit("B", "blue", 6.76, 5, 180)])
    assert g.geometry.distance("A", "B") == pytest.approx(0.5, abs=0.01)
    rolls(g, [5])                                  # B's hit check fails: A walks on
    evs = g.apply(Move("A", "walk", ((5, 5.5, 0),)))
    aoo = kinds(evs, "aoo")
    assert [a["why"] for a in aoo] == ["moved within range while faced"]
    assert aoo[0]["along"] == pytest.approx(0.1)


def test_a_mover_that_comes_into_range_still_enters_it():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 10, 7, 270)])
    rolls(g, [5])
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert [a["why"] for a in kinds(evs, "aoo")] == ["entered range while facing"]


# ---- the narration, read by a player -------------------------------------------------------
def _narrate(events, *, actions: bool = False):
    """The lines of ``events`` as ``eldfall play`` prints them: it gives the narration every
    event but the actions (and the dice rolls without --rolls)."""
    out = []
    for e in events:
        if e.kind == "action" and not actions:
            continue
        t = narrate.line(e)
        if t:
            out += t.split("\n")
    return out


def test_a_character_that_waited_gets_its_turn_line_back():
    # A waits for B; after B's turn, A acts. Before, A's actions followed "B ends its turn"
    # with no line saying whose turn it was.
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 20, 5, 180)])
    start = len(g.events)
    g.apply(Wait("A"))
    g.apply(EndTurn("B"))
    g.apply(Move("A", "walk", ((7, 5, 0),)))
    for actions in (False, True):          # eldfall play skips the action events; a log has them
        lines = _narrate(g.events[:1]) + _narrate(g.events[start:], actions=actions)
        i = lines.index("   B ends its turn (unused: Attack, Move, Support, Magic)")
        assert lines[i + 1] == "-- A's active turn goes on (it waited)"
        assert lines[i + 2].startswith("   A walks to (7.00, 5.00)")
        # an ordinary turn gets no second line
        assert sum("active turn" in t for t in lines) == 2


def test_a_dying_save_between_is_not_the_waiters_turn():
    # A waits past B; B ends its turn; D, Dying, makes its Vitality save in place of its
    # turn; then A acts: the save is D's, the line for A's return comes before A's walk
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 20, 5, 180), unit("D", "blue", 20, 9, 180)])
    g.f("D").status, g.f("D").vitality = "dying", 0
    start = len(g.events)
    g.apply(Wait("A"))
    g.queue = ["B", "D", "A"]             # D's save comes before A's return
    rolls(g, [5])                          # D's Vitality save fails: still Dying
    g.apply(EndTurn("B"))
    assert g.active_model == "A"
    g.apply(Move("A", "walk", ((7, 5, 0),)))
    lines = _narrate(g.events[:1]) + _narrate(g.events[start:])
    i = lines.index("-- A's active turn goes on (it waited)")
    assert any("D vitality save (dying)" in t for t in lines[:i])
    assert lines[i + 1].startswith("   A walks to (7.00, 5.00)")


def test_the_narration_reads_data_keys_as_words():
    narrate.line(_ev("setup", {"characters": [{"id": "cleric", "side": "a", "vitality": 30},
                                              {"id": "fire_imp", "side": "b", "vitality": 1}]}))
    # a cost's and a recovery's reason is a skill or an item: words, as in the skill's own line
    assert narrate.line(_ev("cost", {"model": "cleric", "why": "aimed_shot", "paid": {"power": 2}})) == \
        "     cleric spends 2 power (aimed shot)"
    assert narrate.line(_ev("heal", {"model": "cleric", "pool": "vitality", "amount": 10,
                                     "vitality": 20, "why": "healing_potion"})) == \
        "     cleric recovers 10 vitality (healing potion): Vitality 20/30"
    # a character's id stays as it is
    assert narrate.line(_ev("cost", {"model": "fire_imp", "why": "fire_imp sprint", "paid": {"power": 2}})) == \
        "     fire_imp spends 2 power (fire_imp sprint)"
    # --rolls: the die's reason in words too
    assert narrate.line(_ev("roll", {"sides": 20, "value": 6, "why": "skill roll: aimed_shot",
                                     "model": "cleric"})) == "    roll d20 = 6 (skill roll: aimed shot)"
    # nothing spent: no line ("cleric spends nothing (second_wind)")
    assert narrate.line(_ev("cost", {"model": "cleric", "why": "second_wind", "paid": {}})) is None
    # a failed payment still says so
    assert "cannot pay power" in narrate.line(_ev("cost", {"model": "cleric", "why": "sprint", "paid": {},
                                                           "failed": "power"}))


def test_a_spell_cast_on_oneself_says_itself():
    narrate.line(_ev("setup", {"characters": [{"id": "cleric", "side": "a", "vitality": 1}]}))
    assert narrate.line(_ev("spell", {"model": "cleric", "spell": "mend", "cast": True, "targets": ["cleric"],
                                      "parts": [{"model": "cleric", "spell": "mend", "outcome": "success"}]})) == \
        "   cleric casts mend on itself"
    assert narrate.line(_ev("spell", {"model": "cleric", "spell": "radiant_wave", "cast": True,
                                      "targets": ["cleric", "knight"],
                                      "parts": [{"model": "cleric", "spell": "radiant_wave",
                                                 "outcome": "success"}]})) == \
        "   cleric casts radiant wave on itself, knight"


def test_second_wind_in_a_game_has_no_spends_nothing_line():
    g = game([unit("A", "red", 5, 5, 0, skills=["second_wind"], power=10), unit("B", "blue", 20, 5, 180)])
    g.f("A").power = 2
    rolls(g, [15])
    lines = _narrate(g.events[:1]) + _narrate(g.apply(UseSkill("A", "second_wind")))
    assert not any("spends" in t for t in lines), lines
    assert "     A recovers 4 power (second wind): Power 6/10" in lines


def test_a_recovery_capped_at_the_maximum_does_not_claim_the_whole_amount():
    # a knight at 34/34 drinks a healing potion: it read "knight recovers 10 vitality"
    g = game([unit("A", "red", 5, 5, 0, vitality=34, inventory={"healing_potion": 2}),
              unit("B", "blue", 20, 5, 180)])
    head = _narrate(g.events[:1])
    lines = _narrate(g.apply(parse("potion A healing_potion A")))
    assert lines[-1] == "     A is back to its full 34 Vitality (healing potion: up to 10)", head + lines
    # one below the maximum: still capped (it gains 1, not 10)
    g.f("A").vitality = 33
    g.f("A").slots["support"] = False
    assert _narrate(g.apply(parse("potion A healing_potion A")))[-1] == \
        "     A is back to its full 34 Vitality (healing potion: up to 10)"
    # far below: the whole amount, and where it stands
    g2 = game([unit("A", "red", 5, 5, 0, vitality=34, inventory={"healing_potion": 1}),
               unit("B", "blue", 20, 5, 180)])
    _narrate(g2.events[:1])
    g2.f("A").vitality = 9
    assert _narrate(g2.apply(parse("potion A healing_potion A")))[-1] == \
        "     A recovers 10 vitality (healing potion): Vitality 19/34"


# ---- a typed action with a word where a number goes: the action's own words ---------------
@pytest.mark.parametrize("text, says", [
    ("turn A x", "turn: the facing is a number of degrees, not 'x'"),
    ("move A walk 1,2,0 face=x", "move: the facing is a number of degrees, not 'x'"),
    ("move A walk 1,a,0", "a point is x,y,z in inches, not '1,a,0'"),
])
def test_a_typed_action_with_a_bad_number_says_which(text, says):
    with pytest.raises(ValueError) as exc:
        parse(text)
    assert str(exc.value) == says


def test_an_aided_attack_says_how_each_ally_strikes():
    # "cleric attacks hexer (main hand) aided by knight": a player checking the 14 points the
    # knight added could not tell they came from both its weapons
    narrate.line(_ev("setup", {"characters": [{"id": i, "side": "a", "vitality": 1}
                                              for i in ("cleric", "knight", "ranger", "hexer")]}))
    narrate.line(_ev("action", {"action": "attack cleric hexer main aid=knight/dual/-;ranger/main/aimed_shot"}))
    assert narrate.line(_ev("attack", {"model": "cleric", "target": "hexer", "hand": "main", "skill": None,
                                       "aid": ["knight", "ranger"]})) == \
        "   cleric attacks hexer (main hand) aided by knight (both hands), ranger (main hand, aimed shot)"


def test_an_aided_spell_says_who_aids_with_what():
    narrate.line(_ev("setup", {"characters": [{"id": i, "side": "a", "vitality": 1}
                                              for i in ("pyromancer", "hexer", "ghoul")]}))
    parts = [{"model": "pyromancer", "spell": "firebolt", "outcome": "success"},
             {"model": "hexer", "spell": "shadow_bolt", "outcome": "failure"}]
    assert narrate.line(_ev("spell", {"model": "pyromancer", "spell": "firebolt", "cast": True,
                                      "targets": ["ghoul"], "parts": parts})) == \
        "   pyromancer casts firebolt on ghoul aided by hexer (shadow bolt)"


def test_an_aided_attack_in_a_game_is_narrated_with_the_aiders_hand():
    us = [unit("A", "red", 5, 5, 0), unit("C", "red", 6, 6.2, -45, equipment={"main": "spear"}),
          unit("B", "blue", 6.2, 5, 180)]
    g = game(us)
    rolls(g, [5, 5, 5])
    evs = g.apply(parse("attack A B main aid=C/main/-"))
    # as eldfall play does: the decision's events to misses() first, then each but the action
    assert narrate.misses(evs) == {}
    lines = _narrate(g.events[:1]) + _narrate(evs)
    assert "   A attacks B (main hand) aided by C (main hand)" in lines


# ---- every key of rules.yaml is a setting: one that did nothing is gone -----------------
def test_the_climbing_engine_mode_that_did_nothing_is_no_setting():
    # climbing.engine_mode was read by nothing (a climb is always the engine's climb check):
    # setting it to "fly" was silently accepted and changed nothing
    with pytest.raises(NorovaDataError) as exc:
        RuleData({"climbing": {"engine_mode": "fly"}})
    assert exc.value.problems == ["settings: climbing.engine_mode: unknown setting (known: allowance_factor)"]


# ---- the HUD: what a character carries ------------------------------------------------------
def test_the_hud_says_what_a_character_carries():
    # the potions, the weapons to draw and the ammunition were nowhere on the HUD: a player
    # could not see whether the ranger had arrows left or the knight a potion to give
    g = game([unit("A", "red", 5, 5, 0, inventory={"healing_potion": 2, "javelin": 1},
                   ammo={"arrow": 7}, equipment={"main": "shortbow"}),
              unit("B", "blue", 20, 5, 180)])
    lines = g.hud_lines("A")
    assert "Carries: healing potion x2, javelin x1; arrows 7" in lines
    assert not any(t.startswith("Carries:") for t in g.hud_lines("B"))      # nothing carried: no line
    assert lines[-1].startswith("Standing: ")


def test_the_second_leg_of_a_move_goes_on():
    # A walks past B and C, both facing its way; both hit checks fail. Before, the second
    # leg read "A walks to ..." as if a new move began after the first Attack of Opportunity.
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 8, 6.6, 270), unit("C", "blue", 12, 6.6, 270)])
    rolls(g, [5, 5])
    lines = _narrate(g.events[:1]) + _narrate(g.apply(Move("A", "walk", ((10.9, 5, 0),))))
    legs = [t for t in lines if t.startswith("   A walks")]
    assert len(legs) == 3, lines
    assert legs[0].startswith("   A walks to (") and legs[1].startswith("   A walks on to (")
    assert legs[2].startswith("   A walks on to (10.90, 5.00)")


def test_the_initiative_line_shows_each_d20_and_bonus():
    # "ranger 22, ghoul 22, crossbowman 22": three ties and no way to see who won them
    # (the higher React, then the scene's order); the d20 and the trait's part show it
    ev = _ev("initiative", {"order": [{"model": "ranger", "total": 22, "roll": 19},
                                      {"model": "ghoul", "total": 22, "roll": 20}]})
    assert narrate.line(ev) == "Initiative: ranger 22 (d20 19 +3), ghoul 22 (d20 20 +2)"


# ---- every number of the settings is checked: no endless factor or area ---------------------
@pytest.mark.parametrize("settings, says", [
    # a sprint of .inf inches was accepted (the geometry then got an endless speed)
    ({"move": {"sprint_factor": float("inf")}}, "settings: move.sprint_factor: must be a finite number, not inf"),
    ({"potions": {"throw_range": float("inf")}}, "settings: potions.throw_range: must be a finite number, not inf"),
    # an area of .nan inches held every character on the table (no distance is more than nan)
    ({"areas": {"2x2": float("nan")}}, "settings: areas.2x2: must be a positive number of inches, not nan"),
    ({"areas": {"3x3": float("inf")}}, "settings: areas.3x3: must be a positive number of inches, not inf"),
])
def test_an_endless_setting_is_a_problem(settings, says):
    with pytest.raises(NorovaDataError) as exc:
        RuleData(settings)
    assert exc.value.problems == [says]


def test_a_round_limit_given_as_3_0_reads_3_rounds():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 20, 5, 180)], settings={"max_rounds": 1.0})
    g.apply(EndTurn("A"))
    g.apply(EndTurn("B"))
    assert g.is_over and g.outcome.detail.startswith("1 round played"), g.outcome.detail


# ---- the greedy bot: no area spell on a friend who is down ----------------------------------
def test_the_greedy_bot_does_not_burn_a_dying_friend_with_an_area():
    # P (flame burst, 2x2) has an enemy B and its Dying ally K within 2". The bot counted only
    # friends able to fight: it cast the burst, and any damage kills a Dying character.
    from rules.norova.actions import Cast
    from rules.norova.bots import GreedyBot
    us = [unit("P", "red", 5, 5, 0, spells=["flame_burst"], soul=10, runic_casting_speed=2,
               equipment={"main": "dagger"}),
          unit("K", "red", 5, 6.5, 0), unit("B", "blue", 6.5, 5, 180)]
    g = game(us)
    g.f("K").status, g.f("K").vitality, g.f("K").prone = "dying", 0, True
    g._sync_states(g.f("K"))
    assert g.why_illegal(Cast("P", "flame_burst", None)) is None
    a = GreedyBot(1).choose(g)
    assert not (isinstance(a, Cast) and a.spell == "flame_burst"), str(a)
    # with K able to fight the rule was already kept; with K away the burst is cast
    g.geometry.place("K", (15.0, 15.0), 0.0)
    assert str(GreedyBot(1).choose(g)) == "cast P flame_burst -"


def test_the_hud_reads_data_keys_as_words():
    # "Casting flame_burst", "Hands: main throwing_knife": the data's keys, not words
    from rules.norova.actions import Cast
    g = game([unit("A", "red", 5, 5, 0, spells=["flame_burst"], equipment={"main": "throwing_knife"}),
              unit("B", "blue", 20, 5, 180)])
    g.apply(Cast("A", "flame_burst", None))          # speed 2 > Runic Casting Speed 1: it charges
    lines = g.hud_lines("A")
    assert "Casting flame burst (ready in round 2)" in lines, lines
    assert "Hands: main throwing knife, off empty" in lines, lines
