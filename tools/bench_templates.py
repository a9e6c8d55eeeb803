"""Benchmarks for area templates: ``bench(quick) -> list[dict]``.

* one template judged against 20 models, with LoS (target < 5 ms);
* the placement search (target < 300 ms).

The table is the skirmish scene (its terrain in the Embree scene) with 20
models; a cluster of them stands around the main target so that several are
under the template and need a LoS test each.
"""
from __future__ import annotations

import statistics
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


_LAST_CPU = [0.0]


def _median_ms(fn, repeat: int, warmup: int = 2) -> float:
    """Median wall time in ms; the median CPU time of the same runs is kept in _LAST_CPU
    (on a shared machine the wall time also counts the waits for a core)."""
    for _ in range(warmup):
        fn()
    times, cpu = [], []
    for _ in range(repeat):
        c0, t0 = time.process_time(), time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    _LAST_CPU[0] = statistics.median(cpu)
    return statistics.median(times)


def _cpu() -> str:
    return f"; CPU {_LAST_CPU[0]:.2f} ms"


def bench_world():
    """The skirmish table with 20 models: its 12, 7 around blue-guard (16, 30) and a caster south of it."""
    from engine.scene import ModelSpec, load_scene
    from engine.world import World
    scene = load_scene(str(ROOT / "scenes" / "skirmish.yaml"))
    models = list(scene.models)
    ring = [(1.6, 0.0), (-1.7, 0.4), (0.3, 1.7), (-0.5, -1.6), (2.6, 1.2), (-2.4, -1.3), (1.2, -2.5)]
    for k, (dx, dy) in enumerate(ring):
        models.append(ModelSpec(f"bench-{k}", "blue" if k % 3 else "red", 32, 45, (16 + dx, 30 + dy, None),
                                facing=270.0, stats={"AG": 6}))
    models.append(ModelSpec("bench-caster", "red", 32, 45, (16.0, 22.5, None), facing=90.0, stats={"AG": 6}))
    return World(replace(scene, models=tuple(models)))


def golden_world():
    """The golden template scene (tests/golden/templates/circle.yaml): a wall, a balcony, a platform."""
    import yaml
    from engine.scene import ModelSpec, Scene, TerrainSpec
    from engine.units import size_table
    from engine.world import World
    path = ROOT / "tests" / "golden" / "templates" / "circle.yaml"
    data = yaml.safe_load(path.read_text())
    sizes = size_table()
    terrain = tuple(TerrainSpec(t["id"], t["shape"], tuple(t["at"]), size=tuple(t["size"])) for t in data["terrain"])
    models = tuple(ModelSpec(m["id"], m["side"], sizes[m["size"]]["base_mm"], sizes[m["size"]]["height_mm"],
                             (*m["at"], None), size=m["size"]) for m in data["models"])
    return World(Scene(str(path), tuple(data["table"]), terrain, models))


def bench(quick: bool = False) -> list[dict]:
    from engine import templates as T
    world = bench_world()
    ids = world.model_ids()
    user = "bench-caster"
    n = len(ids)
    repeat = 7 if quick else 25
    out = []
    for kind in ("circle-l", "spray-l"):
        res = T.template(world, kind, user=user, target="blue-guard")
        def one():
            T._outline_polygon.cache_clear()         # every call builds its outline, as a new placement would
            return T.template(world, kind, user=user, target="blue-guard")
        ms = _median_ms(one, repeat)
        out.append({"name": f"templates: {kind} vs {n} models with LoS", "median_ms": round(ms, 3), "target_ms": 5.0,
                    "note": f"{len(res.affected)} affected, {len(res.not_affected)} not; legal={res.legal}" + _cpu()})
    for kind in ("circle-l", "circle-s", "spray-l"):
        res = T.best_placement(world, kind, user=user, target="blue-guard")
        ms = _median_ms(lambda: T.best_placement(world, kind, user=user, target="blue-guard"),
                        3 if quick else 7, warmup=1)
        s = res.search
        out.append({"name": f"templates: best {kind} placement search", "median_ms": round(ms, 2), "target_ms": 300.0,
                    "note": f"{s['candidates']} candidates ({s['feasible']} cover the target), "
                            f"{len(res.affected)} hit" + _cpu()})
    gw = golden_world()
    res = T.template(gw, "circle-l", user="red-caster", target="blue-tgt")

    def golden_one():
        T._outline_polygon.cache_clear()
        return T.template(gw, "circle-l", user="red-caster", target="blue-tgt")
    ms = _median_ms(golden_one, repeat)
    out.append({"name": "templates: circle-l, wall/balcony/platform scene", "median_ms": round(ms, 3),
                "target_ms": 5.0, "note": f"{len(gw.model_ids())} models, {len(res.affected)} affected; "
                                          "one hidden behind a wall (full sight lattice)" + _cpu()})
    res = T.best_placement(gw, "circle-l", user="red-caster", target="blue-tgt")
    ms = _median_ms(lambda: T.best_placement(gw, "circle-l", user="red-caster", target="blue-tgt"),
                    3 if quick else 7, warmup=1)
    out.append({"name": "templates: best circle-l search, wall/balcony/platform", "median_ms": round(ms, 2),
                "target_ms": 300.0, "note": f"{res.search['candidates']} candidates, models behind a wall and "
                                            f"on a platform; {len(res.affected)} hit" + _cpu()})
    return out


if __name__ == "__main__":
    for row in bench(quick=False):
        print(f"{row['name']:<50} {row['median_ms']:>9.3f} ms  (target {row['target_ms']:g})  {row['note']}")
