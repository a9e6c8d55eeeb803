"""The path the line-of-sight benchmark walks (tools/bench_sight.walk_path) is a move the
model could really make: the movement engine accepts it, and it crosses no solid scenery."""
from __future__ import annotations

import numpy as np

from engine import motion
from engine.synth import dense_scene
from engine.world import World
from tools.bench_sight import walk_path


def test_the_dense_table_path_is_a_legal_walk_of_twelve_inches():
    w = World(dense_scene(seed=0))
    mover = w.model_ids()[0]
    hb = w.hitbox(mover)
    path = walk_path(w, mover)
    assert np.allclose(path[0, :2], (hb.x, hb.y), atol=1e-6)
    assert abs(float(np.linalg.norm(path[-1, :2] - path[0, :2])) - 12.0) < 1e-6
    r = motion.check_path(w, mover, [tuple(path[-1, :2])], "walk", speed=36)
    assert r.legal, r.reason
    # the straight line towards the centre goes through a 3.5" block: the walk turns away
    centre = np.array(w.table) / 2
    d = centre - path[0, :2]
    e = path[-1, :2] - path[0, :2]
    assert float(d @ e / np.linalg.norm(d) / np.linalg.norm(e)) < 0.99
