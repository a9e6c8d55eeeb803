"""Review 16, Legends of Norova: the skill in an Attack of Opportunity.

Seed (../shared/seeds/norova-active-turn.txt, "Attack of Opportunity"): "If triggered,
the character makes a hit check. If it succeeds, they attack and the moving target must
stop at the point of the attack, ending their movement for the round. Skills can be used
in an Attack of Opportunity but not spells."

An Attack of Opportunity was always a plain attack. Now, when its hit check succeeds and
the attacking character has an attack skill it could use with that blow (the rules of an
attack's skills: known, an attack skill, for the hand's weapon, its cost payable; never a
spell), the game waits for the defending side's choice (an ``aoo`` action: the plain
attack or each usable skill), then the mover's turn goes on. With no usable skill,
nothing changes: no decision, the same events.
"""
from __future__ import annotations

import pytest

import rules.norova as nv
from rules.core import EventLog, IllegalAction, Unit, read_log
from rules.norova import narrate
from rules.norova.actions import AooAttack, Attack, EndTurn, Move, Turn, parse
from rules.norova.bots import GreedyBot, RandomBot, aoo_blow, skill_chance
from test_norova_helpers import game, kinds, rolls, unit
from test_norova_play import flat_for, play, skirmish_units
from tools import gameplay

STEP = Move("A", "walk", ((11, 5, 0),))       # A walks into B's reach: B's AoO at x = 9


def scene(b_skills=(), a=None, **b):
    """A (red, mover) west of B (blue, longsword, facing A's path)."""
    return [unit("A", "red", 5, 5, 0, **(a or {})), unit("B", "blue", 10, 7, 270, skills=list(b_skills), **b)]


def paused(b_skills=("power_strike", "twin_strike"), hit=15, **kw):
    """A game whose A walked into B's reach and B's hit check succeeded: (game, events)."""
    g = game(scene(b_skills, **kw))
    rolls(g, [hit])
    return g, g.apply(STEP)


# ---- the pause ------------------------------------------------------------------------------
def test_a_hit_with_a_usable_skill_waits_for_the_defenders_choice():
    g, evs = paused()
    # the mover is stopped where the blow comes, its move over; no blow has landed yet
    assert kinds(evs, "move")[-1]["stopped"] is True
    assert g.geometry.position("A")[:2] == pytest.approx((9.0, 5.0))
    assert g.f("A").vitality == 30 and not kinds(evs, "strike")
    assert kinds(evs, "aoo_choice") == [{"model": "B", "mover": "A", "hand": "main",
                                         "skills": ["power_strike", "twin_strike"]}]
    # the defending side decides now: the plain blow and each usable skill
    assert g.active_model == "B" and g.active_side == "blue" and gameplay.decider(g) == "blue"
    assert [str(a) for a in g.legal_actions()] == [
        "aoo B A main", "aoo B A main skill=power_strike", "aoo B A main skill=twin_strike"]
    # the mover's turn waits for it
    assert g.queue[0] == "A"
    why = g.why_illegal(EndTurn("A"))
    assert why == "B's Attack of Opportunity has hit A: B first chooses its blow (a plain attack or a skill)"
    with pytest.raises(IllegalAction):
        g.apply(Attack("A", "B", "main"))


def test_the_chosen_skill_is_paid_rolled_and_struck_then_the_movers_turn_goes_on():
    g, _ = paused()
    rolls(g, [15, 5])                       # the skill roll (15 >= 12), the critical hit check
    evs = g.apply(parse("aoo B A main skill=power_strike"))
    assert kinds(evs, "aoo_strike") == [{"model": "B", "target": "A", "hand": "main", "skill": "power_strike"}]
    assert kinds(evs, "cost")[0]["paid"] == {"power": 2} and g.f("B").power == 8
    assert kinds(evs, "skill_roll")[0]["what"] == "power_strike"
    assert g.f("A").vitality == 30 - (5 + 3)                  # longsword 5 + power strike 3
    # no Evade against an AoO (allows_evade: false), and out of the attacker's own turn: its
    # slots and its right to wait are untouched
    assert not [c for c in kinds(evs, "check") if c["check"] == "evade"]
    b = g.f("B")
    assert not b.acted and not any(b.slots.values()) and b.aoo_made == 1
    # back to the mover: its Move is spent, its Attack is not
    assert g.aoo_pending is None and g.active_model == "A" and g.f("A").slots["move"]
    assert not g.f("A").slots["attack"] and g.why_illegal(EndTurn("A")) is None
    assert g.why_illegal(Turn("A", 90)) == "A has already used its Move action this round"


def test_a_multi_strike_skill_strikes_twice_and_a_plain_choice_costs_nothing():
    g, _ = paused()
    rolls(g, [15, 5, 5])                    # skill roll, a critical hit check per strike
    g.apply(AooAttack("B", "A", "main", "twin_strike"))
    assert g.f("A").vitality == 30 - 2 * 5 and g.f("B").power == 7
    g, _ = paused()
    rolls(g, [5])                           # the critical hit check only: no skill roll
    evs = g.apply(AooAttack("B", "A", "main"))
    assert g.f("A").vitality == 25 and g.f("B").power == 10 and not kinds(evs, "skill_roll")
    assert kinds(evs, "aoo_strike")[0]["skill"] is None


def test_a_move_that_was_the_last_action_ends_the_turn_only_after_the_blow():
    g = game(scene(["power_strike"]))
    for s in ("attack", "support", "magic"):
        g.f("A").slots[s] = True
    rolls(g, [15])
    evs = g.apply(STEP)
    assert not kinds(evs, "turn_end") and g.queue[0] == "A" and g.active_model == "B"
    rolls(g, [5])
    evs = g.apply(AooAttack("B", "A", "main"))
    assert kinds(evs, "turn_end")[0]["model"] == "A"          # then B's turn
    assert kinds(evs, "turn")[0]["model"] == "B" and g.active_model == "B" and g.aoo_pending is None


def test_only_the_waiting_blow_is_legal_and_never_a_spell():
    g, _ = paused(["power_strike"], spells=["firebolt"], element="fire")
    assert [a.skill for a in g.legal_actions()] == [None, "power_strike"]
    assert g.why_illegal(AooAttack("B", "A", "main", "firebolt")) == \
        "firebolt is a spell: an Attack of Opportunity takes skills but not spells"
    assert g.why_illegal(AooAttack("B", "A", "main", "twin_strike")) == "B does not know the skill 'twin_strike'"
    assert g.why_illegal(AooAttack("B", "A", "off")) == \
        "B's Attack of Opportunity is made with its main hand, not its off"
    assert g.why_illegal(AooAttack("A", "B", "main")) == "it is B's Attack of Opportunity, not A's"
    assert g.why_illegal(AooAttack("B", "B", "main")) == "B's Attack of Opportunity is on A, not B"
    # the text form reads back
    for a in g.legal_actions():
        assert parse(str(a)) == a
    # no blow waits: the action is refused
    g = game(scene(["power_strike"]))
    assert g.why_illegal(AooAttack("B", "A", "main")) == "no Attack of Opportunity waits for its blow"


@pytest.mark.parametrize("b_skills, kw, why", [
    (["second_wind", "hide"], {}, "support skills only"),
    (["aimed_shot"], {}, "a bow skill with a longsword"),
    (["power_strike"], {"power": 1, "settings": {"saves": {"short_cost_save": False}}}, "too little Power"),
])
def test_with_no_usable_skill_the_blow_is_plain_at_once_and_the_events_the_same(b_skills, kw, why):
    settings = kw.pop("settings", None)

    def events(skills):
        g = game(scene(skills, **kw), settings=settings)
        rolls(g, [15, 5])                   # the hit check, the critical hit check
        return g, [e.to_json() for e in g.apply(STEP)]
    g, evs = events(b_skills)
    assert g.aoo_pending is None and g.active_model == "A" and g.f("A").vitality == 25, why
    assert events([])[1] == evs, why                           # as with no skill at all


def test_a_skill_whose_cost_needs_a_save_is_offered_as_in_an_attack():
    # 1 Power for power strike's 2: an attack may still try it (a Power save pays it)
    g, _ = paused(["power_strike"], power=1)
    assert [a.skill for a in g.legal_actions()] == [None, "power_strike"]
    # a save that failed critically this round: no save may be tried, the skill is no option
    g = game(scene(["power_strike"], power=1))
    g.f("B").save_locked["power"] = g.round
    rolls(g, [15, 5])
    evs = g.apply(STEP)
    assert not kinds(evs, "aoo_choice") and g.f("A").vitality == 25


def test_a_hidden_attacker_is_seen_once_its_chosen_blow_is_struck():
    g = game(scene(["power_strike"]))
    g.f("B").hidden = True
    rolls(g, [15])
    g.apply(STEP)
    assert g.f("B").hidden                  # it has not attacked yet: its choice waits
    rolls(g, [5])
    evs = g.apply(AooAttack("B", "A", "main"))
    assert not g.f("B").hidden and kinds(evs, "hidden") == [{"model": "B", "hidden": False, "why": "attacked"}]


def test_a_failed_hit_check_asks_nothing():
    g, evs = paused(hit=11)                 # 11 < 12
    assert not kinds(evs, "aoo_choice") and g.aoo_pending is None
    assert g.geometry.position("A")[:2] == (11, 5)


def test_the_hash_counts_the_waiting_blow_and_is_unchanged_without_one():
    g, _ = paused()
    waiting = g.state_dict()
    assert waiting["aoo_pending"] == {"model": "B", "mover": "A", "hand": "main",
                                      "skills": ["power_strike", "twin_strike"]}
    rolls(g, [5])
    g.apply(AooAttack("B", "A", "main"))
    assert "aoo_pending" not in g.state_dict()


# ---- the bots -------------------------------------------------------------------------------
def test_the_random_bot_chooses_among_the_blows():
    seen = set()
    for seed in range(12):
        g, _ = paused()
        a = RandomBot(seed).choose(g)
        assert isinstance(a, AooAttack) and g.why_illegal(a) is None
        seen.add(a.skill)
    assert seen == {None, "power_strike", "twin_strike"}


def test_the_greedy_bot_takes_the_best_expected_outcome():
    # the chance a skill's roll lets it strike: d20 + Focus >= 12 (normal), a natural 20, or a
    # natural 1 whose d6 says it works anyway (1 in 6)
    g, _ = paused(traits={"focus": 0})
    assert skill_chance(g, "B", "power_strike") == pytest.approx((8 + 1 + 1 / 6) / 20)
    # Focus 0: 46% of twin strike's 10 and of power strike's 8 are less than the sure 5
    assert aoo_blow(g) == AooAttack("B", "A", "main") == GreedyBot(1).choose(g)
    # Focus 10: every roll but a natural 1 succeeds: two strikes of 5 beat 8 and 5
    g, _ = paused(traits={"focus": 10})
    assert skill_chance(g, "B", "twin_strike") == pytest.approx((19 + 1 / 6) / 20)
    assert GreedyBot(1).choose(g) == AooAttack("B", "A", "main", "twin_strike")
    # a mover the plain blow kills: the sure kill
    g, _ = paused(traits={"focus": 10}, a={"vitality": 5})
    assert GreedyBot(1).choose(g) == AooAttack("B", "A", "main")
    # twin strike's 3 Power not there (2 left): no gamble on a save, power strike instead
    g, _ = paused(traits={"focus": 10}, power=2)
    assert [a.skill for a in g.legal_actions()] == [None, "power_strike", "twin_strike"]
    assert GreedyBot(1).choose(g) == AooAttack("B", "A", "main", "power_strike")


# ---- whole games: bots, narration, the log, replay and undo -----------------------------------
def test_a_bot_game_with_a_chosen_skill_replays_and_undoes(tmp_path):
    us = skirmish_units()
    g = nv.new_game(us, flat_for(us), seed=1)
    g.start_log(EventLog(tmp_path / "fight.jsonl"))
    play(g, "greedy", "greedy", 1)
    chosen = [e for e in g.events if e.kind == "aoo_strike" and e.data["skill"]]
    assert chosen, "the recorded game has a blow with a skill"       # B2's twin strike
    header, events, warnings = read_log(tmp_path / "fight.jsonl")
    assert not warnings
    again = nv.game_from_log(header, events, flat_for([Unit.from_dict(u) for u in header["units"]]))
    assert again.state_hash() == g.state_hash() and again.outcome == g.outcome
    # undo to the choice: the log up to the ``aoo`` action waits for it again, with its options
    seq = chosen[0].seq - 1                 # the ``aoo`` action's event, just before its blow
    assert g.events[seq].kind == "action" and str(g.events[seq].data["action"]).startswith("aoo ")
    before = nv.game_from_log(header, events[:seq], flat_for(us))
    choice = next(e.data for e in reversed(g.events[:seq]) if e.kind == "aoo_choice")
    assert before.aoo_pending is not None and before.active_model == choice["model"]
    assert [a.skill for a in before.legal_actions()] == [None, *choice["skills"]]
    assert str(g.events[seq].data["action"]) in {str(a) for a in before.legal_actions()}


def test_the_narration_says_the_choice_and_the_skill_used():
    g, _ = paused()
    rolls(g, [15, 5])
    g.apply(AooAttack("B", "A", "main", "power_strike"))
    said = [narrate.line(e) for e in g.events]
    assert "   B chooses its blow on A (main hand): a plain attack, power strike or twin strike" in said
    assert "   B strikes A back (main hand), using power strike" in said
    g, _ = paused(["power_strike"])
    rolls(g, [5])
    g.apply(AooAttack("B", "A", "main"))
    said = [narrate.line(e) for e in g.events]
    assert "   B chooses its blow on A (main hand): a plain attack or power strike" in said
    assert "   B strikes A back (main hand), a plain attack" in said
    assert any(ln.startswith("Attack of Opportunity: B chooses its blow on A")
               for ln in paused()[0].hud_lines())


def test_replay_says_a_blow_waits_and_an_eldfall_stand_up_in_words():
    from tools.cmd_replay import waiting_line
    g, _ = paused()
    assert waiting_line(getattr(g, "pending", None) or g.aoo_pending) == (
        "next: waiting for B to choose its blow on A (Attack of Opportunity: the plain attack or a skill)")
    assert waiting_line(("stand-up", "b1")) == (
        "next: waiting for b1 to stand up or stay Crouched (its Incapacitated State has ended)")
