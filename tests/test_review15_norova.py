"""Legends of Norova, review 15: the user's page line by line against the rules and the words.

Source: ../shared/seeds/norova-active-turn.txt; docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number can be checked by hand.
"""
import pytest

from rules.core.game import IllegalAction
from rules.norova import narrate
from rules.norova.actions import Attack, EndTurn, Focus, Perceive, Turn, Wait
from test_norova_helpers import game, kinds, narrated as _narrate, rolls, unit




# ---- "You may choose to wait and act later in the round, even after a character with a lower
# initiative": a character that waited does not take that choice from the next one ------------
def _three():
    # initiative A1, B1, A2 (the helpers' d20s 20, 19, 18)
    return game([unit("A1", "red", 5, 5), unit("B1", "blue", 20, 5, 180), unit("A2", "red", 5, 9)])


def test_a_character_may_wait_past_one_that_waited_before_it():
    g = _three()
    g.apply(Wait("A1"))
    assert g.queue == ["B1", "A1", "A2"]
    # B1 wants to act after A2 (a lower initiative). Before, it was refused ("A1 is next and
    # has waited this round too: B1 acts now"): A1's wait took B1's own choice away.
    assert Wait("B1") in list(g.legal_actions())
    g.apply(Wait("B1"))
    # B1 passes A2 (who has not waited); A1, who waited, keeps its place ahead of it
    assert g.queue == ["A1", "A2", "B1"] and g.active_model == "A1"
    g.apply(Wait("A1"))                  # A1 may still wait past A2
    assert g.queue == ["A2", "A1", "B1"]
    g.apply(EndTurn("A2"))
    # now only characters that waited are left after A1: it acts (the round must end)
    with pytest.raises(IllegalAction, match="every character after A1 has waited this round too"):
        g.apply(Wait("A1"))
    assert Wait("A1") not in list(g.legal_actions())
    g.apply(EndTurn("A1"))
    assert g.active_model == "B1"
    with pytest.raises(IllegalAction, match="no character is left to act after B1"):
        g.apply(Wait("B1"))
    g.apply(EndTurn("B1"))
    assert g.round == 2 and g.queue == ["A1", "B1", "A2"]


def test_waiting_always_ends_the_round():
    # every character waits whenever it may: the round still ends (each wait passes a
    # character that has not waited, so the waits run out)
    g = game([unit(f"R{i}", "red", 5, 3 + 3 * i) for i in range(3)]
             + [unit(f"B{i}", "blue", 25, 3 + 3 * i, 180) for i in range(3)])
    waits = 0
    while g.round == 1:
        mid = g.active_model
        if g.why_illegal(Wait(mid)) is None:
            g.apply(Wait(mid))
            waits += 1
            assert waits < 100
        else:
            g.apply(EndTurn(mid))
    assert waits > 6


def test_a_waiter_back_at_the_head_after_another_wait_is_said():
    g = _three()
    lines = _narrate(g.events)
    lines += _narrate(g.apply(Wait("A1")))
    lines += _narrate(g.apply(Wait("B1")))
    said = _narrate(g.apply(Turn("A1", 90)))
    # B1's wait gave the turn back to A1 (its turn began before its own wait): say so
    assert said[0] == "-- A1's active turn goes on (it waited)", said


# ---- "Side attacks give the defender -2 to Evade ... Focus: reduce the target's Evade by your
# Focus trait value + 1": the Evade line names each number -----------------------------------
def _focused_side_attack(evade: int):
    a = unit("A", "red", 5, 5, 0, traits={"focus": 3})
    b = unit("B", "blue", 6.5, 5, 90, traits={"evade": evade})      # A is on B's side (90 degrees)
    g = game([a, b])
    assert g.arc("B", "A") == "side"
    rolls(g, [15])                       # the Focus check: 15 + 3 = 18 vs 12
    g.apply(Focus("A", "B"))
    assert g.f("A").focus == {"B": 4}
    return g


def test_an_evade_line_names_the_trait_the_focus_and_the_facing_apart():
    g = _focused_side_attack(evade=5)
    rolls(g, [5, 10])                    # A's critical hit check (5 + 0 vs 12: none), B's Evade d20
    evs = g.apply(Attack("A", "B", "main"))
    ev = kinds(evs, "check")[0]
    # 10 + 5 (Evade) - 4 (A's focus) - 2 (side) = 9 vs 12
    assert ev["total"] == 9 and not ev["success"]
    assert ev["modifiers"] == [["A's focus", -4], ["side attack", -2]] and ev["bonus"] == 5
    lines = _narrate(evs)
    # before: "d20 10 -1 evade -> 9 vs 12" (B's Evade is 5, not -1)
    assert "     B evade (attack strike 1 from A (side)): d20 10 +5 evade -4 A's focus -2 side attack -> 9 vs 12: failure" \
        in lines, lines


def test_the_focus_floor_shows_as_the_reduction_it_made():
    # Evade 2, Focus reduction 4, "minimum 1": the focus takes 1 off, not 4
    g = _focused_side_attack(evade=2)
    rolls(g, [5, 18])
    evs = g.apply(Attack("A", "B", "main"))
    ev = kinds(evs, "check")[0]
    assert ev["modifiers"] == [["A's focus", -1], ["side attack", -2]]
    assert ev["total"] == 18 + 2 - 1 - 2
    assert any(t.endswith("d20 18 +2 evade -1 A's focus -2 side attack -> 17 vs 12: success") for t in _narrate(evs))


def test_a_front_attack_on_an_unfocused_target_reads_as_before():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180, traits={"evade": 3})])
    rolls(g, [5, 10])
    lines = _narrate(g.apply(Attack("A", "B", "main")))
    assert "     B evade (attack strike 1 from A (front)): d20 10 +3 evade -> 13 vs 12: success" in lines, lines


def test_an_old_logs_check_event_still_reads():
    from rules.core.game import Event
    ev = Event("check", {"model": "ghoul", "check": "evade", "trait": "evade", "natural": 13, "total": 16,
                         "target": 12, "success": True, "critical": None,
                         "why": "attack strike 1 from pyromancer (side)"}, 1)
    assert narrate.line(ev) == ("     ghoul evade (attack strike 1 from pyromancer (side)): "
                                "d20 13 +3 evade -> 16 vs 12: success")


# ---- a Perceive check's difficulty with the cover step ("applying any difficulties and penalties
# the GM sets") -----------------------------------------------------------------------------------
def test_a_spotting_check_says_what_raised_its_difficulty():
    g = game([unit("A", "red", 5, 5, 0, traits={"perceive": 1}), unit("B", "blue", 9, 5, 180)])
    b = g.f("B")
    b.hidden, b.low = True, True         # crawled: the table's Crouched, Light cover in the open
    g._sync_states(b)
    rolls(g, [12])
    evs = g.apply(Perceive("A", "B"))
    ev = kinds(evs, "check")[0]
    assert ev["target"] == 14 and ev["total"] == 13 and not ev["success"]
    # before: "d20 12 +1 perceive -> 13 vs 14": where the 14 came from was not said
    assert "     A tries to spot B: d20 12 +1 perceive -> 13 vs 14 (normal 12 +2 light cover): failure" \
        in _narrate(evs)


# ---- "Make a Critical check - in most cases a Normal difficulty check": its numbers ------------
def test_a_critical_hit_check_line_adds_up():
    g = game([unit("A", "red", 5, 5, 0, traits={"luck": 2}), unit("B", "blue", 6.5, 5, 180)])
    rolls(g, [9, 15])                    # 9 + 2 luck = 11 vs 12: no critical; B's Evade 15: evaded
    lines = _narrate(g.apply(Attack("A", "B", "main")))
    # before: "A critical hit check: d20 9: no critical" (was it 9 + 2 vs 12, or vs 10?)
    assert "     A critical hit check: d20 9 +2 luck -> 11 vs 12: no critical" in lines, lines
    g2 = game([unit("A", "red", 5, 5, 0, traits={"luck": 2}), unit("B", "blue", 6.5, 5, 180)])
    rolls(g2, [10, 15])
    assert "     A critical hit check: d20 10 +2 luck -> 12 vs 12: critical hit, power doubled" in \
        _narrate(g2.apply(Attack("A", "B", "main")))


def test_a_critical_critical_hit_shows_its_d6():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180)])
    rolls(g, [20, 4, 15])                # natural 20, d6 4: a double crit; B evades
    lines = _narrate(g.apply(Attack("A", "B", "main")))
    assert "     A critical hit check: d20 20, d6 4: double crit, power added three times" in lines, lines


# ---- "Save throws": the sheet's save bonus is in the line ---------------------------------------
def test_a_dying_save_line_shows_the_save_bonus():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180, saves={"vitality": 3}),
              unit("C", "blue", 20, 20, 180)])
    g.damage("B", 100, "test")
    assert g.f("B").status == "dying"
    rolls(g, [8])                        # B's Vitality save at its turn: 8 + 3 = 11 vs 12
    lines = _narrate(g.apply(EndTurn("A")))
    # before: "d20 8 -> 11 vs 12": 3 from nowhere
    assert "     B vitality save (dying): d20 8 +3 save -> 11 vs 12: failure" in lines, lines


# ---- a multi-attack skill's strikes are told apart ------------------------------------------------
def test_the_strikes_of_a_failed_twin_strike_are_numbered():
    g = game([unit("A", "red", 5, 5, 0, skills=["twin_strike"], traits={"focus": 0}),
              unit("B", "blue", 6.5, 5, 180)])
    rolls(g, [5])                        # the skill roll 5 vs 12: it fails, both strikes miss
    lines = [t for t in _narrate(g.apply(Attack("A", "B", "main", "twin_strike"))) if "no hit" in t]
    # before: the same line twice
    assert lines == ["     strike 1 of 2: no hit on B (A's attack does not connect)",
                     "     strike 2 of 2: no hit on B (A's attack does not connect)"]


# ---- initiative: a tie the numbers do not decide goes by the scene's order, and says so ---------
def test_an_initiative_tie_of_the_same_d20_and_bonus_says_the_scene_order_decided():
    from rules.core.game import Event
    ev = Event("initiative", {"order": [{"model": "ranger", "total": 22, "roll": 19},
                                        {"model": "ghoul", "total": 22, "roll": 19},
                                        {"model": "crossbowman", "total": 22, "roll": 20}]}, 1)
    assert narrate.line(ev) == ("Initiative: ranger 22 (d20 19 +3), ghoul 22 (d20 19 +3), crossbowman 22 "
                                "(d20 20 +2) (ties: ranger before ghoul, in the scene's order)")


# ---- the `norova:` sheet block: an element that is no name ---------------------------------------
@pytest.mark.parametrize("value", [0, False, 3])
def test_an_element_that_is_not_a_name_is_refused(value):
    from rules.norova.data import NorovaDataError, RuleData
    from rules.norova.sheet import sheet_from_block
    from test_norova_helpers import block
    with pytest.raises(NorovaDataError) as exc:
        sheet_from_block(block(element=value), RuleData(), where="A.norova")
    # 0 and false were read as "no element" without a word
    assert exc.value.problems == [f"A.norova.element: must be the name of an element, not {value!r}"]


def test_a_null_element_is_no_element():
    from rules.norova.data import RuleData
    from rules.norova.sheet import sheet_from_block
    from test_norova_helpers import block
    assert sheet_from_block(block(element=None), RuleData()).element == ""


# ---- "Reloading: Required for most projectile weapons unless the weapon states otherwise" -------
def _with_weapon(monkeypatch, name: str, entry: dict):
    """weapons.yaml as shipped, plus the user's weapon ``name``."""
    import rules.norova.data as nd
    plain = nd._load

    def load(file):
        doc = plain(file)
        if file != "weapons.yaml":
            return doc
        return {**doc, "weapons": {**doc["weapons"], name: entry}}
    monkeypatch.setattr(nd, "_load", load)


def _with_longbow(monkeypatch):
    # a user's bow that says nothing about reloading
    _with_weapon(monkeypatch, "longbow", {"kind": "bow", "damage": 4, "range": 18, "short_range": 9,
                                          "hands": 2, "ammo": "arrow"})


def test_a_bow_that_says_nothing_about_reloading_must_be_reloaded(monkeypatch):
    from rules.norova.actions import Reload
    from rules.norova.data import RuleData
    _with_longbow(monkeypatch)
    d = RuleData()
    # before, a bow reloaded only with `reload: true`: the page's default was the exception
    assert d.weapons["longbow"]["reload"] is True
    assert d.weapons["crossbow"]["reload"] is True and d.weapons["shortbow"]["reload"] is False
    g = game([unit("A", "red", 5, 5, 0, equipment={"main": "longbow"}, ammo={"arrow": 3}),
              unit("B", "blue", 10, 5, 180)])
    rolls(g, [15, 5, 15])                # the Focus hit check, no critical, B evades
    g.apply(Attack("A", "B", "main"))
    assert g.f("A").unloaded == ["longbow"]
    assert g.why_illegal(Reload("A")) is None


def test_the_sample_shortbow_states_it_needs_no_reloading():
    g = game([unit("A", "red", 5, 5, 0, equipment={"main": "shortbow"}, ammo={"arrow": 3}),
              unit("B", "blue", 10, 5, 180)])
    rolls(g, [15, 5, 15])
    g.apply(Attack("A", "B", "main"))
    assert g.f("A").unloaded == [] and g.f("A").ammo == {"arrow": 2}


def test_a_reload_that_is_not_true_or_false_is_a_data_problem(monkeypatch):
    import rules.norova.data as nd
    _with_weapon(monkeypatch, "sling", {"kind": "bow", "damage": 2, "range": 8, "hands": 1, "reload": "yes"})
    with pytest.raises(nd.NorovaDataError) as exc:
        nd.RuleData()
    assert exc.value.problems == ["weapons.yaml: weapons.sling.reload: must be true or false, not 'yes'"]


# ---- the words changed, not the games: the recorded games with the new keys taken out --------------
NEW_KEYS = {"check": ("bonus", "modifiers", "difficulty"), "save": ("bonus",), "strike": ("strikes",),
            "critical_check": ("trait", "bonus", "total", "target", "d6"), "damage": ("terms",),
            "heal": ("terms",)}


def test_the_recorded_greedy_game_is_the_same_game_less_the_named_numbers():
    # tests/test_review11_norova_speed.py RECORDED[("random", 5, 1)]: its events' hash before
    # this review's keys (the check's bonus and modifiers, the critical hit check's numbers,
    # the save bonus, the number of strikes) were added to the events (the greedy game it
    # first compared has changed since: the greedy bot no longer wastes a Focus)
    import hashlib
    import json
    from norova_games import arena_game
    from rules.core.game import Event
    from tools import gameplay
    mod, g = arena_game(5, 1)
    n = gameplay.play_out(g, mod, gameplay.bot_names("random", mod, g), 5)
    lines = []
    for e in g.events:
        d = json.loads(e.to_json())
        for k in NEW_KEYS.get(d["kind"], ()):
            d["data"].pop(k, None)
        for part in d["data"].get("parts") or () if d["kind"] == "strike" else ():
            part.pop("terms", None)
        lines.append(Event.from_dict(d).to_json())
    assert n == 29 and len(lines) == 104
    assert hashlib.sha256("\n".join(lines).encode()).hexdigest() == \
        "a4d14ff534b7414cc6dc119a1ce66c088356113e1254edd88dcdba0e78ff4d9f"


# ---- "The damage you deal depends on your weapon and attack type": what a hit is made of -------------
def test_a_hit_says_what_its_damage_is_made_of():
    # a two-handed greataxe (Offensive Power twice) and a critical hit (doubled): 7 + 4 x 2 x 2
    g = game([unit("A", "red", 5, 5, 0, equipment={"main": "greataxe"}, offensive_power=4),
              unit("B", "blue", 6.5, 5, 180)])
    rolls(g, [15, 2])                    # critical hit check 15 vs 12: a critical; B's Evade fails
    lines = _narrate(g.apply(Attack("A", "B", "main")))
    # before: "hit: 23 damage to B" and nothing to check it by
    assert "     hit: 23 damage to B (greataxe 7 + Offensive Power 16)" in lines, lines


def test_a_bow_hit_adds_the_arrow_and_bow_power():
    g = game([unit("A", "red", 5, 5, 0, equipment={"main": "shortbow"}, ammo={"arrow": 2}, bow_power=3,
                   offensive_power=5), unit("B", "blue", 10, 5, 180)])
    rolls(g, [15, 5, 2])                 # the Focus hit check, no critical, B's Evade fails
    lines = _narrate(g.apply(Attack("A", "B", "main")))
    assert "     hit: 8 damage to B (shortbow 3 + arrow 2 + Bow Power 3)" in lines, lines


def test_an_aided_hit_gives_each_part_and_what_it_is_made_of():
    g = game([unit("A", "red", 5, 5, 0, offensive_power=2), unit("C", "red", 6.5, 3.5, 90, equipment={
        "main": "longsword", "off": "dagger"}, offensive_power=3), unit("B", "blue", 6.5, 5, 180)])
    from rules.norova.actions import Aid
    rolls(g, [5, 5, 2])                  # both critical hit checks fail; B's Evade fails
    lines = _narrate(g.apply(Attack("A", "B", "main", None, (Aid("C", "off", None),))))
    # C's dagger in the off hand: half its Offensive Power of 3, rounded down
    assert "     hit: 11 damage to B (A 7 + C 4)" in lines, lines
    assert "     B takes 11 damage: A's longsword 5 + A's Offensive Power 2 + C's dagger 3 + C's Offensive Power 1" \
        " (19 Vitality left)" in lines, lines


def test_a_spells_damage_and_healing_say_the_value_and_runic_power():
    from rules.norova.actions import Cast
    g = game([unit("A", "red", 5, 5, 0, spells=["firebolt", "mend"], runic_power=2),
              unit("C", "red", 5, 7, 0), unit("B", "blue", 10, 5, 180)])
    rolls(g, [15, 5, 2])                 # the spell roll, no critical, B's Evade fails
    lines = _narrate(g.events[:1]) + _narrate(g.apply(Cast("A", "firebolt", "B")))
    # before: "B takes 7 damage (23 Vitality left)"
    assert "     B takes 7 damage: firebolt 5 + Runic Power 2 (23 Vitality left)" in lines, lines
    g = game([unit("A", "red", 5, 5, 0, spells=["mend"], runic_power=2),
              unit("C", "red", 5, 7, 0), unit("B", "blue", 10, 5, 180)])
    g.f("C").vitality = 10
    rolls(g, [15, 5])                    # the spell roll, no critical
    lines = _narrate(g.events[:1]) + _narrate(g.apply(Cast("A", "mend", "C")))
    assert "     C recovers 8 vitality (mend 6 + Runic Power 2): Vitality 18/30" in lines, lines


def test_the_greedy_bot_takes_no_focus_with_no_attack_to_follow():
    # A has moved and B is beyond its longsword: no attack this turn. The bot took a Focus
    # on B (a support action whose Evade cut lasts to the end of A's turn), then ended the
    # turn: the Focus could never count
    from rules.norova.actions import Move
    from rules.norova.bots import GreedyBot
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 12, 5, 180)])
    g.apply(Move("A", "walk", ((6.0, 5.0, 0.0),)))
    assert g.active_model == "A" and g.why_illegal(Focus("A", "B")) is None
    assert GreedyBot(1).choose(g) == EndTurn("A")


def test_a_side_named_by_a_plural_wins_in_the_plural():
    # the arena's sides are "party" and "foes": the attract banner and `play` said "foes wins"
    from rules.core.game import Outcome, Termination
    from rules.core.text import side_wins
    o = Outcome(Termination.TURN_LIMIT, "foes", {"foes": 88, "party": 75}, "4 rounds played")
    assert str(o) == "foes win (turn limit: 4 rounds played) [foes 88, party 75]"
    assert str(Outcome(Termination.ELIMINATION, "party")) == "party wins (elimination)"
    assert [side_wins(s) for s in ("red", "Orcs", "Black Cross")] == ["red wins", "Orcs win", "Black Cross wins"]
