"""engine.sight_sweep: runs of a path's samples proved hidden by one convex solid.

Sound (a proof never meets a sample where LoS exists: los_along_path with the
proofs gives the same answers as every sample asked) and useful (a mover
walking behind a wall is proved hidden without asking)."""
import math
import random

import numpy as np
import pytest

from engine import sight as es
from engine import sight_sweep as sw
from engine.geometry import WorldGeometry
from engine.scene import ModelSpec, Scene, TerrainSpec, load_scene
from engine.world import World


def never_seen(w, observer, mover, path, inset=0.001):
    """Every sample of ``path`` (as los_along_path samples it) proved hidden."""
    pts, _ = es._resample(np.asarray(path, dtype=float), es.default_settings().path_step_in)
    hb = w.hitbox(mover)
    return bool(sw.hidden_samples(w, observer, hb.radius, hb.height, pts, inset=inset).all())


def _wall_world(height=4.0):
    scene = Scene("", (36, 36), terrain=(TerrainSpec("wall", "box", (18, 18, 0), size=(12, 0.5, height)),),
                  models=(ModelSpec("o", "red", 32, 45, (18, 10, None), facing=90),
                          ModelSpec("m", "blue", 32, 45, (15, 20, None), facing=270)))
    return World(scene)


def test_a_walk_behind_a_tall_wall_is_proved_hidden_and_a_low_wall_is_not():
    w = _wall_world(4.0)
    path = np.array([(15, 20, 0), (21, 20, 0)], dtype=float)
    assert never_seen(w, "o", "m", path)
    assert not es.los_along_path(w, "m", path, ["o"])[0].had_los
    # past the wall's end the mover is seen: no proof (and the sampling sees it)
    out = np.array([(15, 20, 0), (26, 20, 0)], dtype=float)
    assert not never_seen(w, "o", "m", out)
    assert es.los_along_path(w, "m", out, ["o"])[0].had_los
    low = _wall_world(1.0)                       # lower than the hitboxes: seen over it
    assert not never_seen(low, "o", "m", path)


def test_the_sample_inset_matters_for_bases_on_the_table():
    # the boxes' bottoms touch the table the wall stands on: with no inset the
    # segments along the table's surface slip under the shrunk wall
    w = _wall_world(4.0)
    path = np.array([(15, 20, 0), (21, 20, 0)], dtype=float)
    assert not never_seen(w, "o", "m", path, inset=0.0)
    assert never_seen(w, "o", "m", path, inset=0.001)


def test_proofs_are_sound_on_the_skirmish_table(monkeypatch):
    """Every sample a run proof marks hidden has no LoS when asked alone, and
    los_along_path gives the same answers with and without the proofs."""
    w = World(load_scene("scenes/skirmish.yaml"))
    ids = w.model_ids()
    rng = random.Random(4)
    proved = 0
    for k in range(14):
        mover = rng.choice(ids)
        hb = w.hitbox(mover)
        a, r = rng.uniform(0, 2 * math.pi), rng.uniform(2, 8)
        end = (min(35.0, max(1.0, hb.x + r * math.cos(a))), min(35.0, max(1.0, hb.y + r * math.sin(a))))
        path = np.array([[hb.x, hb.y, hb.z], [end[0], end[1], hb.z]])
        obs = [o for o in ids if w.hitbox(o).side != hb.side][:3]
        pts, _ = es._resample(path, es.default_settings().path_step_in)
        for o in obs:
            hid = sw.hidden_samples(w, o, hb.radius, hb.height, pts)
            proved += int(hid.sum())
            for p in pts[hid][::4]:
                w.move_model(mover, *p)
                seen = es.los(w, o, mover, fraction=False, cover=False).los
                w.move_model(mover, *path[0])
                assert not seen, (mover, o, p)
        with_proofs = es.los_along_path(w, mover, path, obs)
        monkeypatch.setattr(sw, "hidden_samples", lambda *a, **k: np.zeros(len(a[4]), dtype=bool))
        without = es.los_along_path(w, mover, path, obs)
        monkeypatch.undo()
        for x, y in zip(with_proofs, without):
            assert (x.had_los, x.first, x.last, x.seen) == (y.had_los, y.first, y.last, y.seen), (mover, x.observer)
    assert proved >= 20          # the proof is used, not vacuous


def test_the_adapter_skips_proved_observers_with_the_same_answer():
    w = _wall_world(4.0)
    geo = WorldGeometry(w)
    path = [(21.0, 20.0, 0.0)]
    r = geo.sight_along_path("m", path, ["o"])[0]
    full = es.los_along_path(w, "m", np.array([(15, 20, 0)] + path, dtype=float), ["o"])[0]
    assert r.had_los is False and full.had_los is False and r.seen == []
    assert r.entered_awareness == full.entered_awareness
    assert geo.position("m") == pytest.approx((15.0, 20.0, 0.0))
