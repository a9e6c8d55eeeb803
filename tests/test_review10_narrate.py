"""The narration as players and an event's audience read it (tenth review).

* A reaction aimed at a point of the mover's path reads as where along the move
  ("where it began its Walk", "0.5\" before the end of its 5.0\" Walk", "where it
  entered b1's Reach"), not as the point's coordinates; so does a Norova Attack of
  Opportunity ("5.4\" into its move").
* An attack whose dice missed gets a line (the rules emit no event for a miss).
* A Confrontation, a Summon, a Trade, a Duel, a blocked Knockback, a quest object read
  as words, not as Python lists or ``key=value``; a model that stays and does nothing
  says so; a check names the attribute it rolls; "1 Wound", not "1 Wound(s)".
* Norova: the data's snake_case keys read as words ("aimed shot", "frost shard"),
  a model id stays as it is; the critical hit check's outcome says what it does.
"""
from __future__ import annotations

import re

from rules.core.game import Event
from rules.eldfall.actions import Activate, Declare, Move
from rules.eldfall.narrate import declared, line, narrate
from tests.eldfall_scenario import BOW, setup, to_action, unit

COORDS = re.compile(r"\(\d+\.\d, \d+\.\d\)")


def _ranged_reaction(point_index):
    """r1 walks 5" south past b1's bow; b1 reacts aimed at one of the points it saw."""
    r = unit("r1", "red", 2, 16, facing=0)
    b = unit("b1", "blue", 18, 20, weapons=[BOW], facing=180)
    g = setup([r, b], [20, 20, 20, 20], boxes=[("wall", 4, 12, 30, 13, 3)])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((2.0, 11.0, 0.0),)))
    seen = g.act.qualified["b1"]["seen"]
    g.apply(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),), point=seen[point_index]))
    g.apply(Declare("r1", "Nothing"))
    return g, seen[point_index]


def _reaction_line(g):
    return next(s for s in narrate(g.events) if "b1 reacts:" in s)


def test_a_ranged_reaction_at_the_start_of_the_move_reads_where_it_began():
    g, p = _ranged_reaction(0)
    assert p == (2.0, 16.0, 0.0)
    s = _reaction_line(g)
    assert s == "  b1 reacts: Ranged Attack with Bow at r1, where it began its Walk"
    assert not COORDS.search(s)


def test_a_ranged_reaction_along_the_move_reads_how_far_before_its_end():
    g, p = _ranged_reaction(-1)
    assert p == (2.0, 11.5, 0.0)                 # the last point b1 saw, 0.5" short of the end
    assert _reaction_line(g) == "  b1 reacts: Ranged Attack with Bow at r1, 0.5\" before the end of its 5.0\" Walk"


def test_an_attack_of_opportunity_reads_where_the_mover_entered_the_reach():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 12, 10, facing=180)
    g = setup([r, b], [5, 3, 20, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 10.0, 0.0),)))
    g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),), point=g.act.qualified["b1"]["opp"]))
    s = next(s for s in narrate(g.events) if "b1 reacts:" in s)
    assert s == "  b1 reacts: Melee Attack with Sword at r1, where it entered b1's Reach (1.0\" before the end of its Walk)"


def test_a_point_that_fits_no_remembered_move_keeps_its_coordinates():
    # the declaration alone, or a move forgotten at the mover's next activation: the point
    text = "declare b1 'Ranged Attack' weapon=Bow targets=r1:1 at=2.0,16.0,0.0"
    assert declared(text) == "Ranged Attack with Bow at r1, at the point (2.0, 16.0) of the mover's path"
    g, _ = _ranged_reaction(0)
    decl = next(e for e in g.events if e.kind == "declare" and e.data["model"] == "b1")
    narrate(g.events)
    assert line(decl).endswith("where it began its Walk")
    line(Event("activate", {"model": "r1", "ap": 0}, 10**6))
    assert line(decl).endswith("at the point (2.0, 16.0) of the mover's path")


def test_a_missed_attack_has_a_line():
    g, _ = _ranged_reaction(-1)
    lines = narrate(g.events)
    i = next(i for i, s in enumerate(lines) if "b1 Ranged Attack with Bow on r1" in s)
    assert lines[i + 1] == "    b1 misses r1 (rolled 20 against ACC 10)"


def test_a_hit_is_not_also_told_as_a_miss_and_a_part_miss_counts_the_strikes():
    a = Event("attack", {"attacker": "a", "attribute": 13, "failed": None, "kind": "Ranged Attack",
                         "modifiers": {}, "role": "active", "stat": "ACC", "strikes": 2, "target": "b",
                         "victims": ["b"], "with": "Longbow"}, 1)
    r1 = Event("roll", {"attacker": "a", "sides": 20, "target": "b", "value": 4, "why": "attack: a Longbow vs b"}, 2)
    r2 = Event("roll", {"attacker": "a", "sides": 20, "target": "b", "value": 17, "why": "attack: a Longbow vs b"}, 3)
    hit = Event("hit", {"attacker": "a", "critical": False, "model": "b", "roll": 4, "with": "Longbow"}, 4)
    lines = narrate([a, r1, r2, hit])
    assert lines[1] == "    a misses b with 1 of 2 Strikes (rolled 17 against ACC 13)"
    assert not any("misses" in s for s in narrate([a, r1, hit]))


def test_an_activation_that_stays_and_does_nothing_says_so():
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 30, 30)], [])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Nothing"))
    assert "  r1 stays where it is and does nothing" in narrate(g.events)
    assert narrate(ev) == ["  r1 stays where it is and does nothing"]


def test_a_confrontation_reads_as_dice_not_lists():
    ev = Event("confrontation", {"a": "red-archer", "a_hits": [1, 15], "a_rolls": [1, 15], "b": "blue-skirmisher",
                                 "b_hits": [], "b_rolls": [8], "ties": "cancel"}, 1)
    assert line(ev) == ("    confrontation: red-archer rolls 1 and 15, blue-skirmisher rolls 8: "
                        "red-archer keeps 1 and 15, blue-skirmisher keeps no success")


def test_rare_events_read_as_words_not_keys():
    cases = [
        ("summon", {"model": "wolf", "by": "r1", "spell": "Call Wolf", "at": [3.25, 4.5, 0.0]},
         "    r1 summons wolf with Call Wolf at (3.2, 4.5)"),
        ("objective", {"objective": "idol", "side": "red", "model": "r1"},
         "    r1 (red) takes the quest object idol"),
        ("trade", {"from": "r1", "to": "r2", "items": ["Rope"], "received": ["Potion"]},
         "    r1 gives Rope to r2 and receives Potion"),
        ("duel", {"challenger": "r1", "challenged": "b1", "state": "asked"},
         "  r1 challenges b1 to a Duel"),
        ("duel_interference", {"model": "r2", "side": "red"},
         "    r2 (red) interferes with the Duel: red loses"),
        ("knockback_blocked", {"model": "b1", "attacker": "r1", "direction": 45.0},
         "    b1 cannot be knocked back toward 45\u00b0 by r1: the way is blocked"),
        ("token", {"token": "t1", "event": "gone", "by": "r1"},
         "    r1 finds the token t1 gone"),
    ]
    for kind, data, want in cases:
        s = line(Event(kind, data, 1))
        assert s == want and "=" not in s and "_" not in s


def test_a_check_names_its_attribute_and_a_wound_its_number():
    die = {"critical": False, "success": True, "target": 16, "value": 15}
    assert line(Event("check", {"model": "b1", "check": "Friendly Fire", "die": die}, 1)) == \
        "    b1 Friendly Fire M roll: 15 vs 16 -> success"
    assert line(Event("check", {"model": "b1", "check": "Perceive", "target": "r1", "die": die}, 1)) == \
        "    b1 Perceive INT roll on r1: 15 vs 16 -> success"
    assert line(Event("wound", {"model": "b1", "wounds": 1, "hp": 2, "why": "Attack"}, 1)) == \
        "    b1 suffers 1 Wound: HP 2"
    assert line(Event("wound", {"model": "b1", "wounds": 2, "hp": 0, "why": "Attack"}, 1)) == \
        "    b1 suffers 2 Wounds: HP 0"


# ---- Legends of Norova --------------------------------------------------------------

def test_a_norova_attack_of_opportunity_reads_how_far_into_the_move():
    from rules.norova.narrate import line as nline
    ev = Event("aoo", {"along": 5.399312, "at": [14.5965, 7.734, 0.0], "model": "ghoul", "mover": "knight",
                       "why": "entered range while facing"}, 1)
    assert nline(ev) == "   Attack of Opportunity: ghoul on knight, 5.4\" into its move (entered range while facing)"


def test_norova_keys_read_as_words_and_ids_stay():
    from rules.norova.narrate import line as nline
    nline(Event("setup", {"characters": [{"id": "dark_elf", "side": "foes", "vitality": 20},
                                         {"id": "ranger", "side": "party", "vitality": 26}]}, 0))
    assert nline(Event("attack", {"aid": [], "hand": "main", "model": "ranger", "skill": "aimed_shot",
                                  "target": "dark_elf"}, 1)) == "   ranger attacks dark_elf (main hand) with aimed shot"
    ev = Event("check", {"check": "evade", "critical": None, "model": "ranger", "natural": 15, "success": True,
                         "target": 12, "total": 18, "trait": "evade", "why": "frost_shard from dark_elf (front)"}, 2)
    assert nline(ev) == "     ranger evade (frost shard from dark_elf (front)): d20 15 +3 evade -> 18 vs 12: success"
    ev = Event("check", {"check": "aoo_hit", "critical": None, "model": "dark_elf", "natural": 14, "success": True,
                         "target": 12, "total": 15, "trait": "focus", "why": "attack of opportunity on ranger"}, 3)
    assert nline(ev) == ("     dark_elf hit roll (attack of opportunity on ranger): "
                         "d20 14 +1 focus -> 15 vs 12: success")
    assert nline(Event("critical_check", {"model": "ranger", "what": "attack strike 1", "natural": 11,
                                          "result": "crit"}, 4)) == \
        "     ranger critical hit check: d20 11: critical hit, power doubled"
