"""Benchmarks for line of sight: ``bench(quick) -> list[dict]`` (medians; not tests).

On scenes/skirmish.yaml and on a generated dense table (engine.synth:
~200k terrain triangles, 20 models):

* one pair yes/no (target < 0.5 ms) and one pair with the full fraction
  (target < 2 ms): the median over every ordered pair of models, each timed
  on its own and asked cold (``sight.forget()`` first: no memory of an
  earlier answer for the pair; so "one pair" is the typical pair of that
  table, not a chosen easy one); what is built once per hitbox size and
  placement (lattices and their trees) is built before the timing; the 90th
  percentile is in the note;
* the full fraction re-asked after the target moved 0.1" and turned 5
  degrees (a bot's pattern: the question starts from the first answer);
* the LoS matrix of all the models (target < 100 ms);
* LoS along a 12" path against 10 enemies (target < 50 ms): a straight walk the
  model could make (``walk_path``: no solid scenery crossed);
* the effective ray rate: the viewer x target segments the fraction answers
  decide per second (most by proofs, without a ray) as a ratio to raw Embree
  segment occlusion of the same segments (``embreex run(...,
  query='OCCLUDED', dists=...)``, its rate measured on the segments really
  cast; target >= 0.5); and, for information, the rate of the rays really
  cast (terrain + models + forests, with the proofs' time counted) against
  raw Embree on those rays.
"""
from __future__ import annotations

import itertools
import statistics
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
# pairs timed in quick mode (every ordered pair otherwise): the times are bimodal (pairs with
# nothing near vs pairs behind several obstacles), so a small sample's median wanders
_PAIRS_QUICK = 150


def _time(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000.0)
    return out


def _worlds(quick: bool):
    from engine.scene import load_scene
    from engine.synth import dense_scene
    from engine.world import World
    out = []
    sk = ROOT / "scenes" / "skirmish.yaml"
    if sk.exists():
        out.append(("skirmish", World(load_scene(str(sk)))))
    out.append(("dense", World(dense_scene(seed=0))))
    return out


def _pairs(world, limit: int | None):
    ids = world.model_ids()
    pairs = list(itertools.permutations(ids, 2))
    if limit is not None and len(pairs) > limit:
        rng = np.random.default_rng(0)
        pairs = [pairs[i] for i in sorted(rng.choice(len(pairs), limit, replace=False))]
    return pairs


def _pair_figures(name, world, fraction: bool, quick: bool) -> dict:
    from engine import sight
    pairs = _pairs(world, _PAIRS_QUICK if quick else None)
    # warm what is built once per hitbox size and placement (lattice trees, placed
    # lattices, the static obstacles), every model as viewer and as target; the
    # answers themselves are then asked cold
    ids = world.model_ids()
    for a, b in zip(ids, ids[1:] + ids[:1]):
        sight.los(world, a, b, fraction=fraction, cover=False)
        sight.los(world, b, a, fraction=fraction, cover=False)
    times = []

    def cold(a, b):
        sight.forget()          # no memory of an earlier answer for the pair: each question asked cold
        t0 = time.perf_counter()
        sight.los(world, a, b, fraction=fraction, cover=False)
        return (time.perf_counter() - t0) * 1000.0
    for a, b in pairs:
        times.append(min(cold(a, b) for _ in range(1 if quick else 2)))
    med = statistics.median(times)
    p90 = float(np.percentile(times, 90))
    what = "full fraction" if fraction else "yes/no"
    return {"name": f"sight {name}: one pair, {what}", "median_ms": med, "target_ms": 2.0 if fraction else 0.5,
            "note": f"median over {len(pairs)} ordered pairs, each timed alone; 90th percentile {p90:.2f} ms; "
                    f"worst {max(times):.1f} ms"}


def _reasked(name, world, quick: bool) -> dict:
    """A bot's pattern: the full fraction of a pair, then again after the target moved a
    little (0.1" and 5 degrees): the second question starts from the first's answer."""
    from engine import sight
    pairs = _pairs(world, _PAIRS_QUICK if quick else None)
    rng = np.random.default_rng(1)
    times = []
    for a, b in pairs:
        hb = world.hitbox(b)
        x, y, z, f = hb.x, hb.y, hb.z, hb.facing
        d = rng.normal(0, 0.1, 2)
        sight.forget()
        sight.los(world, a, b, fraction=True, cover=False)
        world.move_model(b, x + d[0], y + d[1], None, f + 5)
        t0 = time.perf_counter()
        sight.los(world, a, b, fraction=True, cover=False)
        times.append((time.perf_counter() - t0) * 1000.0)
        world.move_model(b, x, y, z, f)
    sight.forget()
    med = statistics.median(times)
    return {"name": f"sight {name}: one pair, full fraction, re-asked after the target moved 0.1\"",
            "median_ms": med, "target_ms": 2.0,
            "note": f"median over {len(pairs)} ordered pairs; the second question starts from the first answer "
                    f"(its witnesses and proof, re-proved); 90th percentile {float(np.percentile(times, 90)):.2f} ms"}


def _matrix(name, world, quick: bool) -> dict:
    from engine import sight
    ids = world.model_ids()
    sight.los_matrix(world, ids)
    times = _time(lambda: sight.los_matrix(world, ids), 5 if quick else 9)
    return {"name": f"sight {name}: LoS matrix of {len(ids)} models", "median_ms": statistics.median(times),
            "target_ms": 100.0, "note": f"{len(ids) * (len(ids) - 1)} ordered pairs, one batched cast per stage"}


def walk_path(world, mover: str, length: float = 12.0) -> np.ndarray:
    """A straight walk of ``length`` inches a model could really make (engine.motion.check_path:
    no solid scenery crossed, no overlap): towards the table's centre, turned by the smallest
    multiple of 10 degrees that makes it legal; the route's points (on the surfaces walked)."""
    import math
    from engine import motion
    hb = world.hitbox(mover)
    at = np.array([hb.x, hb.y])
    d = np.array(world.table, dtype=float) / 2 - at
    a0 = math.atan2(d[1], d[0])
    for k in (0, *(s * i for i in range(1, 19) for s in (1, -1))):
        a = a0 + math.radians(10 * k)
        end = at + length * np.array([math.cos(a), math.sin(a)])
        if not (0.7 <= end[0] <= world.table[0] - 0.7 and 0.7 <= end[1] <= world.table[1] - 0.7):
            continue
        r = motion.check_path(world, mover, [tuple(end)], "walk", speed=3 * length)
        if r.legal:
            return np.asarray(r.path, dtype=float)
    raise RuntimeError(f"no legal {length:g}\" walk for {mover}")


def _path(name, world, quick: bool) -> dict:
    from engine import sight
    ids = world.model_ids()
    mover = ids[0]
    side = world.hitbox(mover).side
    enemies = [i for i in ids if world.hitbox(i).side != side][:10]
    path = walk_path(world, mover)
    sight.los_along_path(world, mover, path, enemies)
    # each timed run walks a path no earlier run asked about (moved 0.001" along x each time):
    # nothing kept per pose of the mover (its placed lattice, the pairs' frames) is reused
    runs = iter(range(1, 100))
    times = _time(lambda: sight.los_along_path(world, mover, path + [0.001 * next(runs), 0.0, 0.0], enemies),
                  5 if quick else 9)
    return {"name": f"sight {name}: LoS along a 12\" path against {len(enemies)} enemies",
            "median_ms": statistics.median(times), "target_ms": 50.0,
            "note": f"sampled every {sight.default_settings().path_step_in:g}\", first/last refined to "
                    f"{sight.default_settings().path_refine_in:g}\"; each run a path not asked before"
                    + ("" if len(enemies) == 10 else f"; the table has only {len(enemies)} enemies")}


def _ratio(name, world, quick: bool) -> list[dict]:
    from engine import sight
    pairs = _pairs(world, 20 if quick else 60)
    sight._RECORD = []
    sight.forget()
    try:
        t0 = time.perf_counter()
        logical = 0
        for a, b in pairs:
            r = sight.los(world, a, b, fraction=True, cover=False)
            logical += r.segments
        ours_s = time.perf_counter() - t0
        rec = sight._RECORD
    finally:
        sight._RECORD = None
    if not rec:
        return []
    P0 = np.concatenate([p for p, _ in rec])
    P1 = np.concatenate([q for _, q in rec])
    n = len(P0)
    vec = P1 - P0
    dist = np.linalg.norm(vec, axis=1)
    ok = dist > 1e-9
    o32 = P0[ok].astype(np.float32)
    d32 = (vec[ok] / dist[ok, None]).astype(np.float32)
    l32 = dist[ok].astype(np.float32)
    rc = world.rays

    def raw():
        rc.raw_occluded(o32, d32, l32)
    raw_s = min(_time(raw, 3)) / 1000.0

    def pipeline():
        occ = world.rays.occluded(P0, P1)
        return occ
    # the pipeline's cost per cast segment: replay the same queries and count their time per ray
    rate_pipeline = n / ours_s
    rate_raw = n / raw_s
    # raw Embree on every logical segment, extrapolated from its rate on the cast ones
    rate_logical = logical / ours_s
    return [
        {"name": f"sight {name}: rays actually cast vs raw Embree on those rays (fraction queries)",
         "median_ms": ours_s * 1000.0, "target_ms": None, "ratio": rate_pipeline / rate_raw, "target_ratio": None,
         "note": f"{n} segments cast for {len(pairs)} pairs in {ours_s * 1000:.0f} ms (everything included: "
                 f"lattices, proofs, models, forests); raw Embree on the same segments {raw_s * 1000:.1f} ms "
                 f"({rate_raw / 1e6:.1f} M/s)"},
        {"name": f"sight {name}: effective ray rate (segments answered) vs raw Embree casting them",
         "median_ms": ours_s * 1000.0, "target_ms": None, "ratio": rate_logical / rate_raw, "target_ratio": 0.5,
         "note": f"{logical} viewer x target sample pairs decided ({rate_logical / 1e6:.1f} M/s) against raw "
                 f"Embree at {rate_raw / 1e6:.1f} M/s"},
    ]


def bench(quick: bool = False) -> list[dict]:
    out: list[dict] = []
    for name, world in _worlds(quick):
        tris = len(world.terrain.faces)
        out.append(_pair_figures(name, world, False, quick))
        out.append(_pair_figures(name, world, True, quick))
        out.append(_reasked(name, world, quick))
        out.append(_matrix(name, world, quick))
        out.append(_path(name, world, quick))
        out.extend(_ratio(name, world, quick))
        for row in out:
            if row["name"].startswith(f"sight {name}:") and "triangles" not in row["note"]:
                row["note"] += f"; {tris} terrain triangles, {len(world.model_ids())} models"
    return out


if __name__ == "__main__":
    import sys
    for row in bench(quick="--quick" in sys.argv):
        tgt = row.get("target_ms")
        if "ratio" in row:
            tgt = f" (target >= {row['target_ratio']})" if row.get("target_ratio") is not None else ""
            print(f"{row['name']}: ratio {row['ratio']:.2f}{tgt} -- {row['note']}")
        else:
            print(f"{row['name']}: {row['median_ms']:.2f} ms (target < {tgt} ms) -- {row['note']}")
