"""Norova bot games made faster decide exactly as before.

The event logs below were recorded from the code before the speed-ups (commit
868cdcb): a seeded game must give the same events, byte for byte (the hash of
every event's JSON, one a line), and the same final state. (The one-round game's
last words were re-recorded when "1 rounds played" became "1 round played"; the
decisions and the other events are those of 868cdcb. The events of both were
re-recorded in the fifteenth session when they gained the numbers of each check,
the same games; the greedy game's again when the greedy bot stopped taking a Focus
with no attack to follow, a new game.)

* the random bot asks for the legal actions once per decision (``list(view)``
  computed them twice: once for the length hint, once for the items);
* the greedy bot's walking map takes every ground sample of the table in one
  question where the geometry answers many points at once (``ground_many``);
* ``eldfall simulate``'s table keeps that map for the whole series (its samples
  are of the static terrain only);
* the greedy bot's straight approach (``rules.norova.bots.best_approach``) checks
  only the moves that could still beat the best so far, not every sequence of
  ``candidate_moves(spread=False)``.
"""
from __future__ import annotations

import math

import numpy as np

from norova_games import (APPROACH_MODE_COST, ARENA, approach_point, arena_game,  # noqa: E402
                          count_route_checks, play_recorded)
from tools import gameplay
from tools.cmd_simulate import Table

# (bots, seed, max_rounds) -> (decisions, events, hash of the events, state hash, last event)
RECORDED = {
    ("random", 5, 1): (29, 104, "adcbdec02fc37bb35ddbf94e40b529a7ca73d2d3fa1ac95b7393c8a37a3e3e50",
                       "979d6a96da8f6d428b8ed746cfcd9af008fab49ae7fd13bf6fec978625a97e81",
                       '{"data":{"detail":"1 round played; the side with the most Vitality left",'
                       '"scores":{"foes":126,"party":112},"termination":"turn limit","winner":"foes"},'
                       '"kind":"game_over","seq":103}'),
    # the knight walks round the scenery in round 2 (GreedyBot._detour, the walking map)
    ("greedy", 1, 2): (49, 247, "5108fb1fac5ea58b6cc038ffa3debf5f34aff6aa1a69f762a258e29573ad72c3",
                       "e5074cadbb7b703205fcf1b27b6c28d2173fcc231bb4aa59c71e04c1dc439361",
                       '{"data":{"detail":"2 rounds played; the side with the most Vitality left",'
                       '"scores":{"foes":86,"party":105},"termination":"turn limit","winner":"party"},'
                       '"kind":"game_over","seq":246}'),
}


def _play(mod, game, bots: str, seed: int) -> tuple:
    return play_recorded(mod, game, bots, seed)


def _ground_many(self, points):
    """What engine.geometry.WorldGeometry would answer: ``ground`` of many points in one
    batch of rays (the arena's whole lattice gives the same heights as one by one)."""
    xy = np.asarray(points, dtype=float).reshape(-1, 2)
    z = self.world.surface_height(xy)
    return [(float(x), float(y), float(v) if math.isfinite(v) else 0.0) for (x, y), v in zip(xy, z)]


def test_random_game_is_the_recorded_one_and_asks_for_the_legal_actions_once(monkeypatch):
    bots, seed, rounds = key = ("random", 5, 1)
    mod, game = arena_game(seed, rounds)
    calls = []
    plain = type(game).generate_actions

    def counted(self, *a, **kw):
        calls.append(len(self.events))
        return plain(self, *a, **kw)
    monkeypatch.setattr(type(game), "generate_actions", counted)
    assert _play(mod, game, bots, seed) == RECORDED[key]
    # one generation of the legal actions per decision (each decision adds events)
    assert len(calls) == len(set(calls)) == RECORDED[key][0]


# the route checks (WorldGeometry.check_move computed, not cached) of the recorded greedy
# game before the lazy approach (measured on the game as it was before the fifteenth
# session's greedy bot stopped taking a Focus with no attack to follow; the game it plays
# now asks 76)
ROUTE_CHECKS_BEFORE = 101


def test_greedy_game_is_the_recorded_one_with_fewer_route_checks(monkeypatch):
    bots, seed, rounds = key = ("greedy", 1, 2)
    checks = count_route_checks(monkeypatch)
    mod, game = arena_game(seed, rounds)
    assert _play(mod, game, bots, seed) == RECORDED[key]
    assert len(checks) <= ROUTE_CHECKS_BEFORE - 20, len(checks)       # 76 now


def test_best_approach_is_the_minimum_of_every_candidate_move():
    """At every decision of a random game, for the bot's score and for a score that
    prefers other moves (sprints, the far side): the lazy choice is the full scan's."""
    from rules.norova.bots import best_approach
    seed = 5
    mod, game = arena_game(seed, 1)
    bot = mod.BOTS["random"](seed)
    compared = 0
    while not game.is_over:
        asked = approach_point(game)
        if asked:
            (mid, ep), cost = asked, APPROACH_MODE_COST
            scores = [lambda a: (math.dist(a.route[-1][:2], ep[:2]) + cost[a.mode], str(a)),
                      lambda a: (-math.dist(a.route[-1][:2], ep[:2]) - cost[a.mode], str(a)),
                      lambda a: (round(a.route[-1][0]), -cost[a.mode], str(a))]
            full = list(game.candidate_moves(mid, spread=False))
            for score in scores:
                assert best_approach(game, mid, score) == (min(full, key=score) if full else None)
                compared += 1
        game.apply(bot.choose(game))
    assert compared >= 15


def test_simulate_table_samples_the_ground_once_in_one_question(monkeypatch):
    """With ``ground_many``, the greedy game is the recorded one, its walking map asks
    one question for the whole table and none point by point; the next game on the same
    simulate table (the same seed: the same game again) asks none at all."""
    from engine.geometry import WorldGeometry
    asked = {"one": 0, "many": 0}
    one = WorldGeometry.ground

    def ground(self, x, y):
        asked["one"] += 1
        return one(self, x, y)

    def many(self, points):
        asked["many"] += 1
        return _ground_many(self, points)
    monkeypatch.setattr(WorldGeometry, "ground", ground)
    monkeypatch.setattr(WorldGeometry, "ground_many", many, raising=False)
    bots, seed, rounds = key = ("greedy", 1, 2)
    table = Table(ARENA, "norova")
    for game_no in range(2):
        before = dict(asked)
        mod, game = table.new_game(seed, settings={"max_rounds": rounds})
        assert _play(mod, game, bots, seed) == RECORDED[key], game_no
        if game_no == 0:
            assert asked["many"] - before["many"] == 1 and asked["one"] == before["one"]
        else:
            assert asked == before          # the samples of the first game serve


def test_batched_ground_is_the_point_by_point_ground():
    """The premise of ``ground_many``: on the arena (and past its edges) a batch of rays
    gives every height that one ray each gives."""
    mod, game = gameplay.new_game(ARENA, "norova", 0, settings={})
    geo = game.geometry
    pts = [(a * 0.25, b * 0.25) for a in range(-2, 99) for b in range(-2, 99)]
    assert _ground_many(geo, pts) == [geo.ground(x, y) for x, y in pts]
