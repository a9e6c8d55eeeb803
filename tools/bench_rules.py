"""Rules benchmark: complete bot games per minute on scenes/skirmish.yaml.

Target (issue #6): at least 20 complete games per minute on this machine.
Reported for the random and the greedy bots on the real World geometry, and
for both on the pure-Python flat geometry (the rules alone).

World games are played as ``eldfall simulate`` plays them: one table (the
World and what is cached from its static terrain) for the series, the models
put back for each game. The median is over the games after the first; the
first game's time (which also builds the table) is given in the note.

``eldfall simulate`` shares a series out over worker processes (one per
CPU): the throughput rows time a whole 10-game ``simulate`` run, process
start-up and each worker's table building included, with two workers on this
2-core machine.
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENE = str(ROOT / "scenes" / "skirmish.yaml")


def _games(bots: str, n: int, seed: int = 0) -> list[float]:
    from tools import gameplay
    from tools.cmd_simulate import Table
    table = Table(SCENE, "eldfall")
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        mod, game = table.new_game(seed + i)
        gameplay.play_out(game, mod, gameplay.bot_names(bots, mod), seed + i)
        times.append(time.perf_counter() - t0)
    return times


def _flat_games(n: int, seed: int = 0, bots: str = "random") -> list[float]:
    from engine.scene import load_scene
    from rules.core.flat import FlatGeometry
    from rules.eldfall import new_game
    from tools import gameplay
    from tools.roster import units_from_scene
    import rules.eldfall as mod
    scene = load_scene(SCENE)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        units = units_from_scene(scene)
        geo = FlatGeometry(scene.table)
        for u in units:
            geo.add_model(u, u.at, u.facing)
        game = new_game(units, geo, seed=seed + i)
        gameplay.play_out(game, mod, [bots, bots], seed + i)
        times.append(time.perf_counter() - t0)
    return times


def bench(quick: bool = False) -> list[dict]:
    n = 1 if quick else 3
    out = []
    for bots in ("random", "greedy"):
        k = (3 if bots == "random" else 2) if quick else 5
        t = _games(bots, k)
        med = statistics.median(t[1:])
        out.append({"name": f"eldfall game, {bots} bots, skirmish (World geometry), one process",
                    "median_ms": med * 1000.0, "target_ms": None,
                    "note": f"{60.0 / med:.2f} games/min in one process (the target is the machine's: "
                            f"see the simulate rows), median of games 2-{k} on one table; the first "
                            f"(building the table) {t[0]:.1f} s"})
    from tools.cmd_simulate import simulate
    games = 10            # a series: each worker builds its table once, then plays
    for bots in ("random", "greedy"):
        t0 = time.perf_counter()
        simulate(SCENE, games, 100, bots, "eldfall", jobs=2)
        wall = time.perf_counter() - t0
        out.append({"name": f"eldfall simulate --games {games} --jobs 2, {bots} bots, skirmish",
                    "median_ms": wall * 1000.0 / games, "target_ms": 3000.0,
                    "note": f"{60.0 * games / wall:.2f} games/min (target >= 20/min): {wall:.1f} s for "
                            f"{games} games on 2 worker processes, start-up and table building included"})
    for bots in ("random", "greedy"):
        t = _flat_games(n, bots=bots)
        med = statistics.median(t)
        out.append({"name": f"eldfall game, {bots} bots, skirmish models on FlatGeometry (rules only)",
                    "median_ms": med * 1000.0, "target_ms": 3000.0,
                    "note": f"{60.0 / med:.2f} games/min; no terrain, pure-Python geometry"})
    return out


if __name__ == "__main__":
    for row in bench(quick=True):
        print(row)
