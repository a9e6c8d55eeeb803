"""A target standing partly inside another model's hitbox (a mover passing through an
ally, as movement allows): its points inside that hitbox are hidden before any ray is
cast, and the ally's prism hides, seen from above, the columns that see it wholly in
front. Every answer is checked against casting every segment."""
from __future__ import annotations

import numpy as np
import pytest

from engine import sight
from engine.scene import Scene
from engine.world import World
from tests.test_sight_columns import _blocked_every, _medium, _proved, _wall

S = sight.default_settings()


def _overlap_world(gap: float, walls=()):
    # the viewer a at x=4 looks along +x; the target b stands at x=20, an ally c of b
    # stands ``gap`` inches nearer the viewer (bases 1.26" across: they overlap below 1.26)
    return World(Scene("", (24, 24), terrain=tuple(walls),
                       models=(_medium("a", 4, 12, 0), _medium("b", 20, 12, 180, "blue"),
                               _medium("c", 20 - gap, 12.2, 180, "blue"))))


def _query(w, a, b, s=S):
    vh, th = w.hitbox(a), w.hitbox(b)
    return sight._Query(w, sight._static(w), vh, th, want_all=True, s=s, half=True,
                        v_local=sight._lattice_for(vh, s), t_local=sight._lattice_for(th, s),
                        exclude={a, b}, models=sight._model_records(w, s), gather=False)


def test_the_points_inside_an_overlapping_model_are_hidden_before_any_ray():
    w = _overlap_world(0.5)
    q = _query(w, "a", "b")
    T = q.T_all[q.tidx]
    c = w.hitbox("c")
    inside = np.hypot(T[:, 0] - c.x, T[:, 1] - c.y) < c.radius - 1e-3
    assert inside.sum() > 100
    assert (q.status[inside] == 2).all() and q.rays == 0
    # ... and hidden indeed: every segment from the viewer's points to them enters c
    V = q.V[q.vorder]
    assert _blocked_every(w, "a", "b", V, T[inside]).all()
    # a model standing clear of the target hides nothing this way
    q2 = _query(_overlap_world(1.5), "a", "b")
    assert not (q2.status == 2).any()


@pytest.mark.parametrize("gap", [0.3, 0.6, 0.9, 1.2])
def test_a_target_inside_an_ally_gets_the_brute_force_fraction(gap):
    s = S.replace(patch_mm=6.0)
    w = _overlap_world(gap, walls=(_wall("low", 12, 11.0, 2.0, 0.8),))
    for a, b in (("a", "b"), ("a", "c")):
        r = sight.los(w, a, b, cover=False, settings=s)
        va = w.hitbox(a)
        lat = sight._lattice_for(va, s)
        V = (sight._rotate(lat.points, va.facing) + va.center)[lat.points[:, 0] >= -1e-9]
        seen = ~_blocked_every(w, a, b, V, r.target_points) & r.target_allowed
        assert (seen == r.target_visible).all(), (gap, a, b)
        assert r.los == bool(seen.any())


def test_the_overlapping_models_prism_hides_the_columns_that_see_it_in_front():
    # the ally c stands between the viewer and the target, overlapping it: from above, the
    # target's columns behind c (seen from the viewer) are hidden by c's prism
    w = _overlap_world(0.6)
    V, T, hid = _proved(w, "a", "b")
    c = w.hitbox("c")
    outside = np.hypot(T[:, 0] - c.x, T[:, 1] - c.y) > c.radius + 1e-3
    assert (hid & outside).sum() > 50
    assert _blocked_every(w, "a", "b", V, T[hid]).all()
    # never a column standing in the footprint (those points are the query's own pass)
    assert not (hid & ~outside).any()


@pytest.mark.parametrize("seed", [4, 5])
def test_column_proofs_with_overlapping_models_hold_against_every_segment(seed):
    # models pushed into each other on a cluttered table: every proved point checked
    from engine.synth import dense_scene
    w = World(dense_scene(seed=seed, mounds=2, grid=14, walls=40, trunks=12, models=6, table=18.0))
    ids = w.model_ids()
    rng = np.random.default_rng(seed)
    for k in range(0, len(ids) - 1, 2):            # each model moved half into its neighbour
        a, b = w.hitbox(ids[k]), w.hitbox(ids[k + 1])
        a.x, a.y = b.x + 0.55 * (a.x - b.x) / max(np.hypot(a.x - b.x, a.y - b.y), 1e-9) * 1.2, \
            b.y + 0.55 * (a.y - b.y) / max(np.hypot(a.x - b.x, a.y - b.y), 1e-9) * 1.2
        a.z = b.z
    proved = 0
    for a in ids:
        for b in ids:
            if a == b:
                continue
            V, T, hid = _proved(w, a, b)
            idx = np.nonzero(hid)[0]
            if not len(idx):
                continue
            pick = idx if len(idx) <= 48 else rng.choice(idx, 48, replace=False)
            assert _blocked_every(w, a, b, V, T[pick]).all(), (a, b)
            proved += len(idx)
    assert proved > 500
