"""Norova greedy bots made faster decide exactly as before.

The event log below was recorded from the code before these speed-ups (the
fourteenth review's starting tree; re-recorded in the fifteenth session, when the
greedy bot stopped taking a Focus with no attack to follow, with the sequences
asked in order as before, ``_scan_in_order``, and found the same): a seeded game
must give the same events, byte for byte (the hash of every event's JSON, one a
line), and the same final state.

* the greedy bot's straight approach (``rules.norova.bots.best_approach``) asks its
  sequences best first (the one whose moves left could score least): a good move
  found early spares the route checks of the others (the answer is the same: the
  least-scored first legal move of every sequence);
* a walking plan (``rules.norova.planner.Plan``) keeps each cell's passable
  neighbours: its distance fields (up to six a detour) and its walking costs ask
  them of the same cells again.
"""
from __future__ import annotations

import math

from norova_games import (APPROACH_MODE_COST, ARENA, approach_point, arena_game,  # noqa: E402
                          count_route_checks, play_recorded)
from tools import gameplay

# (bots, seed, max_rounds) -> (decisions, events, hash of the events, state hash, last event)
RECORDED = {
    ("greedy", 2, 4): (81, 397, "3f06302f88646b76480e8e72017b724a5b046957e3dda87329cf323024e027c3",
                       "e54b99aba58d004dd1afaa429c56043d087120433bafab8e6fe17d824b256319",
                       '{"data":{"detail":"4 rounds played; the side with the most Vitality left",'
                       '"scores":{"foes":88,"party":75},"termination":"turn limit","winner":"foes"},'
                       '"kind":"game_over","seq":396}'),
}
# the route checks (WorldGeometry._check_move computed, not cached) of that game with the
# approach's sequences asked in order (``_scan_in_order`` below), the same game
ROUTE_CHECKS_BEFORE = 79


def _play(bots: str, seed: int, rounds: int) -> tuple:
    mod, game = arena_game(seed, rounds)
    return play_recorded(mod, game, bots, seed)


def test_greedy_game_is_the_recorded_one_with_fewer_route_checks(monkeypatch):
    checks = count_route_checks(monkeypatch)
    key = ("greedy", 2, 4)
    assert _play(*key) == RECORDED[key]
    assert len(checks) <= ROUTE_CHECKS_BEFORE - 10, len(checks)        # 60 now


def _scan_in_order(game, mid, score, asked):
    """``best_approach`` as it was: the sequences one after the other."""
    best = best_score = None
    for seq in game.approach_sequences(mid):
        scores = [score(a) for a in seq]
        for i, a in enumerate(seq):
            if best is not None and min(scores[i:]) >= best_score:
                break
            asked.append(a)
            if game.why_illegal(a) is None:
                if best is None or scores[i] < best_score:
                    best, best_score = a, scores[i]
                break
    return best


def test_best_approach_asks_fewer_moves_than_the_scan_in_order(monkeypatch):
    """At every decision of a greedy game the best-first choice is the in-order scan's
    (and the full scan's), and over the game it asks the rules about fewer moves."""
    from rules.norova import bots
    seed = 2
    mod, game = arena_game(seed, 3)
    names = gameplay.bot_names("greedy", mod, game)
    players = {side: mod.BOTS[names[i % len(names)]](seed * 1000 + i + 1, side=side)
               for i, side in enumerate(gameplay.sides(game))}
    plain = type(game).why_illegal
    new, old = [], []
    compared = 0
    while not game.is_over:
        asked = approach_point(game)
        if asked:
            (mid, ep), cost = asked, APPROACH_MODE_COST

            def score(a):
                return math.dist(a.route[-1][:2], ep[:2]) + cost[a.mode], str(a)
            monkeypatch.setattr(type(game), "why_illegal", lambda self, a: (new.append(a), plain(self, a))[1])
            got = bots.best_approach(game, mid, score)
            monkeypatch.setattr(type(game), "why_illegal", plain)
            assert got == _scan_in_order(game, mid, score, old)
            full = list(game.candidate_moves(mid, spread=False))
            assert got == (min(full, key=score) if full else None)
            compared += 1
        game.apply(players[gameplay.decider(game)].choose(game))
    assert compared >= 10
    assert len(new) < len(old), (len(new), len(old))


def test_a_plan_finds_each_cells_neighbours_once():
    """A second distance field, and the walking costs, of the same plan ask no cell
    whether it is passable again, and give what a fresh plan gives."""
    from rules.norova.bots import walk_map
    from rules.norova.planner import Plan
    mod, game = gameplay.new_game(ARENA, "norova", 1, settings={})
    mid = game.active_model
    f = game.f(mid)
    enemy = game.enemies(mid)[0]
    target = (*game.pos(enemy)[:2], game.f(enemy).radius)

    def plan():
        return Plan(walk_map(game), game.pos(mid), f.radius, f.height, [target], [],
                    step=game.r["move"]["step_height"])
    p = plan()
    asked = []
    plain = p.passable
    p.passable = lambda c: (asked.append(c), plain(c))[1]
    cells = p.attack_cells(target, 1.0)
    first = p.distance_field(cells)
    n = len(asked)
    assert n > 100
    assert p.distance_field(cells) == first and len(asked) == n
    costs = p.costs(6.0)
    assert len(asked) == n                  # every cell within the walk was met by the field
    q = plan()
    assert q.distance_field(q.attack_cells(target, 1.0)) == first and q.costs(6.0) == costs
