"""The speed-ups of whole bot games decide exactly as the plain computations do.

* the greedy bot's lazy choices (``_first_best``, ``_Score``) pick what a full
  scan would, measuring less;
* WorldGeometry's Walk end points taken from the Run Dijkstra are the Walk
  grid's own;
* a game on a reused table (``tools.cmd_simulate.Table``) is the same game as
  on a freshly built World.
"""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from rules.eldfall.bots import _first_best, _Score

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = str(ROOT / "scenes" / "skirmish.yaml")


def _scan(options, floor, exact):
    best, score = None, floor
    for d in options:
        v = exact(d)
        if v is None:
            continue
        if v > score:
            best, score = d, v
    return best


def test_first_best_matches_a_full_scan_and_measures_less():
    rng = random.Random(7)
    saved = 0
    for trial in range(400):
        n = rng.randint(0, 9)
        exact_v = [None if rng.random() < 0.1 else rng.choice([0.0, 0.05, 0.1, 0.3, 0.3, rng.random()])
                   for _ in range(n)]
        # upper bounds: equal to the exact value or above it
        upper_v = [None if v is None else v + rng.choice([0.0, 0.0, 0.2, rng.random()]) for v in exact_v]
        options = list(range(n))
        floor = rng.choice([0.0, 0.05])
        measured = []

        def exact(i):
            measured.append(i)
            return exact_v[i]
        got = _first_best(options, floor, lambda i: upper_v[i], exact)
        assert got == _scan(options, floor, lambda i: exact_v[i]), (exact_v, upper_v, floor)
        saved += sum(1 for v in exact_v if v is not None) - len(measured)
    assert saved > 100          # the bound does spare measurements


class _Geo:
    """Just enough geometry for _Score: a cover level per enemy, counting asks."""

    def __init__(self, covers):
        self.covers = covers
        self.asked = []
        self.pos = (0.0, 0.0, 0.0)

    def position(self, m):
        return self.pos

    def facing(self, m):
        return 0.0

    def place(self, m, p, facing=None):
        self.pos = tuple(p)

    def sight_estimate(self, viewer, target, *, moving=False):
        assert moving
        self.asked.append(viewer)

        class S:
            los = self.covers[viewer] != "hidden"
            cover = self.covers[viewer] if los else "none"
        return S()


class _Game:
    def __init__(self, geo):
        self.geo = geo


def _full(best, dist, covers):
    cover = 0.0
    for c in covers:
        cover += {"hidden": 0.25, "heavy": 0.2, "light": 0.1}.get(c, 0.0)
    return best + cover - 0.02 * dist


def test_score_compares_like_the_full_sums():
    rng = random.Random(3)
    levels = ["none", "light", "heavy", "hidden"]
    spared = 0
    for trial in range(500):
        sc = []
        for k in range(2):
            covers = {f"e{i}": rng.choice(levels) for i in range(rng.randint(0, 2))}
            # the cheap question said LoS for every enemy not hidden
            seen = [(e, c != "hidden") for e, c in covers.items()]
            best = rng.choice([0.0, 0.0, 0.3, rng.random()])
            dist = rng.choice([0.0, 5.0, rng.random() * 20])
            geo = _Geo(covers)
            s = _Score(_Game(geo), "m", (1.0, 2.0, 0.0) if k else None, best, dist, seen)
            sc.append((s, geo, _full(best, dist, covers.values())))
        (a, ga, va), (b, gb, vb) = sc
        assert a.beats(b, 1e-9) == (va > vb + 1e-9)
        x = rng.choice([0.05, 0.3])
        assert b.less_than(x) == (vb < x)
        assert a.exact() == va and b.exact() == vb          # the same float, summed alike
        assert ga.pos == (0.0, 0.0, 0.0)                     # put back after measuring
        spared += sum(1 for c in list(ga.covers.values()) + list(gb.covers.values())
                      if c != "hidden") - (len(ga.asked) + len(gb.asked))
    assert spared >= 0


def test_score_measures_nothing_when_bounds_decide():
    geo = _Geo({"e0": "heavy", "e1": "light"})
    s = _Score(_Game(geo), "m", None, 1.0, 0.0, [("e0", True), ("e1", True)])
    assert not s.less_than(0.3)            # 1.0 + at least 0 >= 0.3
    assert geo.asked == []
    assert s.less_than(1.5)                # at most 1.4
    assert geo.asked == []
    assert s.exact() == pytest.approx(1.3)
    assert geo.asked == ["e0", "e1"]


@pytest.fixture(scope="module")
def table_game():
    from tools import gameplay
    return gameplay.new_game(SKIRMISH, "eldfall", 0)


def test_walk_points_from_the_run_search_are_the_walk_grid(table_game):
    from engine import motion
    mod, game = table_game
    geo = game.geo
    w = geo.world
    for mid in ("red-scout", "blue-ogre", "red-brute"):
        spd = float(game.speed(mid))
        for mode in ("walk", "run"):
            got = geo._reach_points(mid, mode, spd)
            want = motion.reachable(w, mid, mode, speed=spd,
                                    resolution=geo.reach_resolution).points()
            assert np.array_equal(got, want), (mid, mode)
    # a model that cannot run (Immobilized-like states) asks for its own mode
    hb = w.hitbox("red-brute")
    st = geo._motion_st()
    if st["walk_only_states"]:
        w.set_states("red-brute", set(hb.states) | {st["walk_only_states"][0]})
        try:
            spd = float(game.speed("red-brute"))
            got = geo._reach_points("red-brute", "walk", spd)
            want = motion.reachable(w, "red-brute", "walk", speed=spd).points()
            assert np.array_equal(got, want)
        finally:
            w.set_states("red-brute", hb.states - {st["walk_only_states"][0]})


def test_a_reused_table_plays_the_same_game_as_a_fresh_world():
    from tools import gameplay
    from tools.cmd_simulate import Table
    settings = {"rounds": 1}
    table = Table(SKIRMISH, "eldfall")
    hashes = []
    for seed in (4, 5):
        mod, game = table.new_game(seed, settings=settings)
        # disturb the table as a game does: a model moved, one removed
        gameplay.play_out(game, mod, ["random", "random"], seed)
        hashes.append(game.state_hash())
    mod, game = gameplay.new_game(SKIRMISH, "eldfall", 5, settings=settings)
    gameplay.play_out(game, mod, ["random", "random"], 5)
    assert game.state_hash() == hashes[1]
    assert table.world is not game.geo.world


def test_cover_is_skipped_only_where_it_must_be_none(table_game):
    from engine import sight as es
    mod, game = table_game
    geo = game.geo
    w = geo.world
    rng = random.Random(11)
    ids = w.model_ids()
    skipped = kept = 0
    for _ in range(24):
        t = rng.choice(ids)
        v = rng.choice([i for i in ids if i.split("-")[0] != t.split("-")[0]])
        hb = w.hitbox(t)
        home = (hb.x, hb.y, hb.z, hb.facing)
        # near the ruin and walls half the time, anywhere the rest
        x, y = (rng.uniform(2, 14), rng.uniform(0.8, 9)) if rng.random() < 0.5 else \
            (rng.uniform(1, 35), rng.uniform(1, 35))
        w.move_model(t, x, y)
        try:
            full = es.los(w, v, t, moving=True, fraction=True, cover=True)
            got = geo.sight(v, t, moving=True, fraction=True)
            assert (got.los, got.cover, got.cover_piece) == (full.los, full.cover, full.cover_piece)
            if geo._cover_possible(t):
                kept += 1
            else:
                skipped += 1
                assert full.cover == "none" and full.cover_piece is None
        finally:
            w.move_model(t, *home)
    assert skipped and kept


def test_the_greedy_bot_heals_the_wounded_with_a_stratagem_and_passes_otherwise():
    from rules.core.flat import FlatGeometry
    from rules.eldfall.actions import ChooseOrder, Pass, UseStratagem
    from rules.eldfall.bots import GreedyBot
    from rules.eldfall.sequence import EldfallGame
    from tests.eldfall_scenario import unit
    heal = {"name": "Field Dressing", "target": "own", "uses": 3, "effect": {"heal": 2}}
    us = [unit("r1", "red", 10, 5, leader=True), unit("r2", "red", 14, 5),
          unit("b1", "blue", 10, 30, leader=True)]

    def window(hp2):
        geo = FlatGeometry((36.0, 36.0))
        for u in us:
            geo.add_model(u, u.at, u.facing)
        g = EldfallGame(us, geo, seed=0, scene_info={"table": [36.0, 36.0],
                                                   "stratagems": {"red": [heal]}})
        g.apply(ChooseOrder(g.pending[1], g.pending[1] == "red"))
        assert g.pending == ("stratagem", "red")
        g.models["r2"].hp = hp2
        return g
    full = window(us[1].stat("HP"))
    assert GreedyBot(1).choose(full) == Pass("red")            # nobody to heal
    hurt = window(us[1].stat("HP") - 1)
    assert GreedyBot(1).choose(hurt) == UseStratagem("red", "Field Dressing", "r2")
