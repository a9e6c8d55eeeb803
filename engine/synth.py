"""Generated tables for benchmarks: a dense 36" x 36" table of about 200k triangles.

``dense_scene(seed)`` builds a ``Scene`` in code (no files): rubble mounds
(heightfields with noise, the bulk of the triangles, not convex), ruined walls
(boxes), pillars and tree trunks (cylinders), and 20 Medium models (10 per
side) standing in the open between them. Deterministic for a seed.
"""
from __future__ import annotations

import math

import numpy as np

from engine.scene import ModelSpec, Profile, Scene, TerrainSpec


def dense_scene(seed: int = 0, mounds: int = 15, grid: int = 56, walls: int = 260, trunks: int = 80,
                models: int = 20, table: float = 36.0) -> Scene:
    rng = np.random.default_rng(seed)
    terrain: list[TerrainSpec] = []
    occupied: list[tuple[float, float, float]] = []       # (x, y, radius) footprints to keep models out of

    def free(x, y, r):
        return all(math.hypot(x - ox, y - oy) > r + orr for ox, oy, orr in occupied)

    # rubble mounds: heightfields 3-5" across, up to 2.5" high, noisy
    for i in range(mounds):
        w = float(rng.uniform(3, 5))
        x, y = rng.uniform(w / 2, table - w / 2, 2)
        u = np.linspace(-1, 1, grid)
        gx, gy = np.meshgrid(u, u)
        h = float(rng.uniform(0.8, 2.5)) * np.clip(1 - (gx ** 2 + gy ** 2), 0, None)
        h = h + rng.uniform(0, 0.15, h.shape) * (h > 0)
        terrain.append(TerrainSpec(f"mound-{i}", "heightfield", (float(x), float(y), 0.0), size=(w, w),
                                   heights=tuple(tuple(float(v) for v in row) for row in h)))
        occupied.append((float(x), float(y), w / 2 * 0.8))
    # ruined walls: boxes, some tall, some low, turned
    for i in range(walls):
        length = float(rng.uniform(0.5, 4))
        hgt = float(rng.choice([0.6, 1.0, 1.5, 2.5, 3.5]))
        x, y = rng.uniform(1, table - 1, 2)
        turn = float(rng.uniform(0, 180))
        terrain.append(TerrainSpec(f"wall-{i}", "box", (float(x), float(y), 0.0), size=(length, 0.3, hgt), turn=turn))
        occupied.append((float(x), float(y), length / 2 + 0.2))
    # trunks and pillars
    for i in range(trunks):
        r = float(rng.uniform(0.15, 0.5))
        x, y = rng.uniform(1, table - 1, 2)
        terrain.append(TerrainSpec(f"trunk-{i}", "cylinder", (float(x), float(y), 0.0), radius=r,
                                   height=float(rng.uniform(2, 5))))
        occupied.append((float(x), float(y), r + 0.1))
    # models: 10 a side, in free spots, facing roughly the other side
    specs = []
    r_m = 32 / 25.4 / 2
    tries = 0
    while len(specs) < models and tries < 100000:
        tries += 1
        side = "red" if len(specs) % 2 == 0 else "blue"
        x = float(rng.uniform(2, table - 2))
        y = float(rng.uniform(2, table / 2 - 1) if side == "red" else rng.uniform(table / 2 + 1, table - 2))
        if not free(x, y, r_m + 0.05):
            continue
        facing = (90.0 if side == "red" else 270.0) + float(rng.uniform(-60, 60))
        mid = f"{side}-{len(specs) // 2}"
        prof = Profile(f"synth#{mid}", mid, {"AG": 6}, size="M")
        specs.append(ModelSpec(mid, side, 32, 45, (x, y, None), facing=facing, size="M", profile=prof,
                               stats={"AG": 6}))
        occupied.append((x, y, r_m))
    return Scene("", (table, table), terrain=tuple(terrain), models=tuple(specs), name=f"dense-{seed}")
