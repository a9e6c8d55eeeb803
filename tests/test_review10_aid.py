"""Legends of Norova, review 10: every aided attack the rules accept is offered.

Source: ../shared/seeds/norova-active-turn.txt ("Aided Attacks": "You can use a skill as
part of your aided attack"; several allies may each add their attack); docs/rulings.md
("Legends of Norova"). The rules took an aid with any hand and an attack skill, and by
several allies, but the legal actions (the hotseat menu, the bots) only ever offered one
ally's plain main-hand aid.
"""
from __future__ import annotations

import itertools
import math
from pathlib import Path

from rules.norova import game as norova_game
from rules.norova.actions import Aid, Attack
from rules.norova.bots import GreedyBot
from test_norova_helpers import game, unit

ROOT = Path(__file__).resolve().parents[1]
HANDS = ("main", "off", "dual")
# longsword and dagger, dual wielding, both attack skills (like the sample knight)
KNIGHT = dict(offensive_power=4, power=12, abilities=["dual_wielding"],
              equipment={"main": "longsword", "off": "dagger"}, skills=["power_strike", "twin_strike"])


def ring(a1=None, a2=None, a3=None, b=None):
    """A1, A2 and A3 round B, each in reach of it and facing it."""
    g = game([unit("A1", "red", 5, 5, 0, **(a1 or {})),
              unit("B", "blue", 6.5, 5.6, 180, **(b or {"vitality": 200})),
              unit("A2", "red", 5, 6.4, 0, **(a2 or {})),
              unit("A3", "red", 8, 5.6, 180, **(a3 or {}))])
    for m in ("A1", "A2", "A3"):
        g.queue.remove(m)
        g.queue.insert(0, m)
        assert g.why_illegal(Attack(m, "B", "main")) is None, g.why_illegal(Attack(m, "B", "main"))
    g.queue.remove("A1")
    g.queue.insert(0, "A1")
    return g


def ways(g, mid):
    return [(h, s) for h in HANDS for s in (None, *g.f(mid).sheet.skills)]


def accepted(g, mid, target, aiders, group_ways=None):
    """Every aided attack ``why_illegal`` accepts, by brute force over every hand and skill
    of the attacker and of each group of aiders (in scene order; the hand None, the same as
    "main", left out). ``group_ways``: the ways of each aider in groups of two or more."""
    out = []
    for r in range(1, len(aiders) + 1):
        for group in itertools.combinations(aiders, r):
            for hand, sk in ways(g, mid):
                for aw in itertools.product(*((group_ways or ways)(g, al) if r > 1 else ways(g, al)
                                              for al in group)):
                    a = Attack(mid, target, hand, sk, tuple(Aid(al, h, s) for al, (h, s) in zip(group, aw)))
                    if g.why_illegal(a) is None:
                        out.append(a)
    return out


def offered(g, target):
    acts = list(g.legal_actions())
    assert len(acts) == len(set(acts))
    return [a for a in acts if isinstance(a, Attack) and a.target == target and a.aid]


def _normal(a: Attack):
    return (a.hand, a.skill, tuple(sorted((x.ally, x.hand or "main", x.skill) for x in a.aid)))


def test_every_hand_and_skill_of_one_aider_is_offered():
    g = ring(a1={"skills": ["twin_strike"], "traits": {"focus": 5}}, a2=KNIGHT)
    g.f("A3").turn_done = True                   # only A2 can aid
    got = offered(g, "B")
    want = accepted(g, "A1", "B", ["A2"])
    assert sorted(map(str, got)) == sorted(map(str, want))
    # the off hand, both weapons, a skill; a multi-attack aid only with the same skill
    for text in ("attack A1 B main aid=A2/off/-", "attack A1 B main aid=A2/dual/power_strike",
                 "attack A1 B main skill=twin_strike aid=A2/dual/twin_strike",
                 "attack A1 B main skill=twin_strike aid=A2/main/power_strike"):
        assert text in map(str, got), text
    assert "attack A1 B main aid=A2/main/twin_strike" not in map(str, got)
    assert len(got) == 6 + 9                      # plain main: 6 aids; twin strike: all 9


def test_several_allies_aid_together_in_every_way_without_duplicates():
    # A2: 3 hands x 2 (plain, power strike) that fit A1's single attack; A3: 2 hands x 2
    g = ring(a2=KNIGHT, a3={"equipment": {"main": "longsword", "off": "dagger"}, "skills": ["power_strike"]})
    got = offered(g, "B")
    want = accepted(g, "A1", "B", ["A2", "A3"])
    assert sorted(map(str, got)) == sorted(map(str, want))
    assert len({_normal(a) for a in got}) == len(got) == 6 + 4 + 6 * 4
    assert "attack A1 B main aid=A2/dual/power_strike;A3/off/power_strike" in map(str, got)


def test_too_many_combinations_leave_groups_their_plain_aids():
    # three sample knights: every way of every group would be far more than AIDED_ATTACKS
    g = ring(a1=KNIGHT, a2=KNIGHT, a3=KNIGHT)
    got = offered(g, "B")
    full = accepted(g, "A1", "B", ["A2", "A3"])
    assert len(full) > norova_game.AIDED_ATTACKS
    # each single aider in each of its ways; the pair with their plain main-hand attacks
    want = accepted(g, "A1", "B", ["A2", "A3"], group_ways=lambda g, al: [("main", None)])
    assert sorted(map(str, got)) == sorted(map(str, want))
    assert len(got) == 6 * 6 * 2 + 3 * 9 * 2 + 9


def test_allies_that_cannot_aid_bring_no_candidates():
    g = ring(a2=KNIGHT, a3=KNIGHT)
    g.f("A3").turn_done = True                   # its turn is over
    g.geometry.place("A2", (5, 12), 0)           # out of reach of B
    cands = [a for a in g.candidate_actions("A1", moves=False) if isinstance(a, Attack) and a.aid]
    assert cands == []


def _arena(who, foe, more):
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    import rules.norova as nv
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    g = nv.new_game(units_from_scene(scene, World(scene)), WorldGeometry(World(scene)), seed=3)

    def contact(mid, deg):
        b = g.pos(foe)
        d = g.f(mid).radius + g.f(foe).radius + 0.01
        g.geometry.place(mid, (b[0] + d * math.cos(math.radians(deg)), b[1] + d * math.sin(math.radians(deg)), 0.0),
                         (deg + 180.0) % 360.0)
    g.geometry.place(foe, (12.0, 13.0, 0.0), 270)
    contact(who, 270.0)
    for mid, deg in more:
        contact(mid, deg)
    g.f("ranger").turn_done = True                 # its bow would reach: two allies only
    g.queue.remove(who)
    g.queue.insert(0, who)
    return g


def test_the_arena_knight_with_two_allies_in_contact():
    """scenes/norova-arena.yaml: the knight (nine ways) in contact with the ghoul, the
    pyromancer (dagger) and the cleric (spear) in contact too: 9 x (1 + 1 + 1) aided attacks."""
    g = _arena("knight", "ghoul", [("pyromancer", 0.0), ("cleric", 180.0)])
    got = offered(g, "ghoul")
    assert sorted(map(str, got)) == sorted(map(str, accepted(g, "knight", "ghoul", ["cleric", "pyromancer"])))
    assert len(got) == 27
    # the pyromancer attacking, the knight aiding in six ways (twin strike only aids twin strike)
    g = _arena("pyromancer", "ghoul", [("knight", 0.0), ("cleric", 180.0)])
    got = offered(g, "ghoul")
    assert sorted(map(str, got)) == sorted(map(str, accepted(g, "pyromancer", "ghoul", ["knight", "cleric"])))
    assert len(got) == 6 + 1 + 6


# ---- the greedy bot --------------------------------------------------------------------
def test_the_greedy_bot_aids_with_the_allys_best_hand_and_skill():
    g = ring(a1={"offensive_power": 1, "equipment": {"main": "dagger"}}, a2=KNIGHT,
             b={"vitality": 200})
    g.f("A3").turn_done = True
    a = GreedyBot(1).choose(g)
    assert str(a) == "attack A1 B main aid=A2/dual/power_strike"
    # the same multi-attack skill adds to each strike: twin strike with twin strike
    g = ring(a1=KNIGHT, a2=KNIGHT)
    g.f("A3").turn_done = True
    a = GreedyBot(1).choose(g)
    assert str(a) == "attack A1 B dual skill=twin_strike aid=A2/dual/twin_strike"
    assert g.why_illegal(a) is None


def test_the_greedy_bot_spares_an_aid_that_only_adds_past_the_kill():
    # A1's longsword (5 + 4) kills B (9 Vitality) alone: A2 keeps its own attack
    g = ring(a1={"offensive_power": 4}, a2={"offensive_power": 4}, b={"vitality": 9})
    g.f("A3").turn_done = True
    assert str(GreedyBot(1).choose(g)) == "attack A1 B main"
    # 10 Vitality: the aid is needed, and one ally is enough
    g = ring(a1={"offensive_power": 4}, a2={"offensive_power": 4}, a3={"offensive_power": 4},
             b={"vitality": 10})
    assert str(GreedyBot(1).choose(g)) == "attack A1 B main aid=A2/main/-"
