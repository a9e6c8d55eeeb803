"""engine.sight_sweep: whole stretches of a path proved hidden by one convex solid.

Sound (a proof never meets a sample that los_along_path finds seen) and
useful (a mover walking behind a wall is proved hidden without sampling)."""
import math
import random

import numpy as np
import pytest

from engine import sight as es
from engine import sight_sweep as sw
from engine.geometry import WorldGeometry
from engine.scene import ModelSpec, Scene, TerrainSpec, load_scene
from engine.world import World


def _wall_world(height=4.0):
    scene = Scene("", (36, 36), terrain=(TerrainSpec("wall", "box", (18, 18, 0), size=(12, 0.5, height)),),
                  models=(ModelSpec("o", "red", 32, 45, (18, 10, None), facing=90),
                          ModelSpec("m", "blue", 32, 45, (15, 20, None), facing=270)))
    return World(scene)


def test_a_walk_behind_a_tall_wall_is_proved_hidden_and_a_low_wall_is_not():
    w = _wall_world(4.0)
    path = np.array([(15, 20, 0), (21, 20, 0)], dtype=float)
    assert sw.never_seen(w, "o", "m", path)
    assert not es.los_along_path(w, "m", path, ["o"])[0].had_los
    # past the wall's end the mover is seen: no proof (and the sampling sees it)
    out = np.array([(15, 20, 0), (26, 20, 0)], dtype=float)
    assert not sw.never_seen(w, "o", "m", out)
    assert es.los_along_path(w, "m", out, ["o"])[0].had_los
    low = _wall_world(1.0)                       # lower than the hitboxes: seen over it
    assert not sw.never_seen(low, "o", "m", path)


def test_the_sample_inset_matters_for_bases_on_the_table():
    # the boxes' bottoms touch the table the wall stands on: with no inset the
    # segments along the table's surface slip under the shrunk wall
    w = _wall_world(4.0)
    path = np.array([(15, 20, 0), (21, 20, 0)], dtype=float)
    assert not sw.never_seen(w, "o", "m", path, inset=0.0)
    assert sw.never_seen(w, "o", "m", path, inset=0.001)


def test_proofs_are_sound_on_the_skirmish_table():
    w = World(load_scene("scenes/skirmish.yaml"))
    ids = w.model_ids()
    rng = random.Random(4)
    proved = 0
    for k in range(40):
        mover = rng.choice(ids)
        hb = w.hitbox(mover)
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(2, 8)
        end = (min(35.0, max(1.0, hb.x + r * math.cos(a))), min(35.0, max(1.0, hb.y + r * math.sin(a))))
        path = np.array([[hb.x, hb.y, hb.z], [end[0], end[1], hb.z]])
        for o in [o for o in ids if w.hitbox(o).side != hb.side][:3]:
            if sw.never_seen(w, o, mover, path):
                proved += 1
                assert not es.los_along_path(w, mover, path, [o])[0].had_los, (mover, o, end)
    assert proved >= 5          # the proof is used, not vacuous


def test_the_adapter_skips_proved_observers_with_the_same_answer():
    w = _wall_world(4.0)
    geo = WorldGeometry(w)
    path = [(21.0, 20.0, 0.0)]
    r = geo.sight_along_path("m", path, ["o"])[0]
    full = es.los_along_path(w, "m", np.array([(15, 20, 0)] + path, dtype=float), ["o"])[0]
    assert r.had_los is False and full.had_los is False and r.seen == []
    assert r.entered_awareness == full.entered_awareness
    assert geo.position("m") == pytest.approx((15.0, 20.0, 0.0))
