"""Benchmarks for movement: ``bench(quick) -> list[dict]``.

On the skirmish table (36" x 36", scenes/skirmish.yaml), at the default 0.25"
grid (never coarser):

* the reachable area of a Medium model for Run, warm (the static walkability
  layers already built for this table and base size): target < 300 ms;
* the same from cold: a new World each time, so the static layers (terrain
  columns, stances, narrow surfaces, the 32-neighbour graph) are built too;
* a Walk path check (4.2") and a Run of 21" with three turns and a crate
  stepped over.

Each figure is the median wall time; the note adds the median CPU time (on a
shared machine the wall time also counts the waits for a core).
"""
from __future__ import annotations

import statistics
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCENE = ROOT / "scenes" / "skirmish.yaml"


def _median(fn, repeat: int, warmup: int = 1):
    for _ in range(warmup):
        fn()
    wall, cpu = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return statistics.median(wall), statistics.median(cpu)


def bench(quick: bool = False) -> list[dict]:
    from engine.motion import check_path, reachable
    from engine.scene import load_scene
    from engine.world import World

    scene = load_scene(str(SCENE))
    world = World(scene)
    model = "red-champion"
    rep = 3 if quick else 9
    out = []

    grid = reachable(world, model, "run")
    n_cells = int(grid.end_ok.sum())
    wall, cpu = _median(lambda: reachable(world, model, "run"), rep)
    out.append({"name": "reachable area, Run, 36\" table at 0.25\" (warm: static layers cached)",
                "median_ms": round(wall, 2), "target_ms": 300.0,
                "note": f"{n_cells} end cells, {grid.stats['nodes']} nodes, {grid.stats['edges']} edges; "
                        f"CPU {cpu:.1f} ms"})

    def cold():
        w = World(scene)
        reachable(w, model, "run")
    wall, cpu = _median(cold, max(2, rep // 3), warmup=0)
    out.append({"name": "reachable area, Run, 36\" table at 0.25\" (cold: World + static layers + query)",
                "median_ms": round(wall, 2), "target_ms": 300.0,
                "note": f"static layers {grid.stats['static_ms']:.0f} ms when first built; CPU {cpu:.1f} ms"})

    wall, cpu = _median(lambda: check_path(world, model, [(17, 8)], "walk"), rep)
    r = check_path(world, model, [(17, 8)], "walk")
    out.append({"name": "path check, Walk 4.2\" (0.05\" samples, disc probes, bisection)",
                "median_ms": round(wall, 2), "target_ms": None,
                "note": f"legal={r.legal} distance={r.distance:.2f}; CPU {cpu:.1f} ms"})

    route = [(17, 8), (20, 14), (21, 9), (25, 12)]
    wall, cpu = _median(lambda: check_path(world, model, route, "run", speed=11), rep)
    r = check_path(world, model, route, "run", speed=11)
    out.append({"name": "path check, Run with three turns, over a crate (21\")",
                "median_ms": round(wall, 2), "target_ms": None,
                "note": f"legal={r.legal} distance={r.distance:.2f} ({r.reason}); CPU {cpu:.1f} ms"})
    return out


if __name__ == "__main__":  # pragma: no cover
    for row in bench():
        print(row)
