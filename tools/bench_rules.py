"""Rules benchmark: complete bot games per minute on scenes/skirmish.yaml.

Target (issue #6): at least 20 complete games per minute on this machine.
Reported for the random and the greedy bots on the real World geometry, and
for the random bots on the pure-Python flat geometry (the rules alone).
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENE = str(ROOT / "scenes" / "skirmish.yaml")


def _games(bots: str, n: int, seed: int = 0) -> list[float]:
    from tools import gameplay
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        mod, game = gameplay.new_game(SCENE, "eldfall", seed + i)
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
        t = _games(bots, n)
        med = statistics.median(t)
        out.append({"name": f"eldfall game, {bots} bots, skirmish (World geometry)",
                    "median_ms": med * 1000.0, "target_ms": 3000.0,
                    "note": f"{60.0 / med:.2f} games/min (target >= 20/min), {n} games"})
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
