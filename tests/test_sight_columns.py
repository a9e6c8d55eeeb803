"""Proofs of hiding seen from above (engine/sight_columns.py): tall vertical prisms hiding
whole columns of sample points. Every proof is checked against casting every segment."""
from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from engine import sight
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec
from engine.sight_columns import Prisms, _covered_flat, _polygon
from engine.synth import dense_scene
from engine.world import World, segments_hit_cylinders

S = sight.default_settings()


def _blocked_every(world, viewer, target, V, T):
    """(len(T),) bool: every segment from the points V to each point of T is blocked by the
    terrain (Embree) or by a model other than the two (the brute-force reference)."""
    P0 = np.repeat(V, len(T), axis=0)
    P1 = np.tile(T, (len(V), 1))
    blocked = world.rays.occluded(P0, P1)
    others = [m for m in world.model_ids() if m not in (viewer, target)]
    if others:
        c = np.array([world.hitbox(m).center for m in others])
        r = np.array([world.hitbox(m).radius for m in others])
        h = np.array([world.hitbox(m).height for m in others])
        blocked |= np.isfinite(segments_hit_cylinders(P0, P1, c, r, h)).any(axis=1)
    return blocked.reshape(len(V), len(T)).all(axis=0)


def _proved(world, a, b):
    """(target points, hidden mask) of the column proof for a -> b (front arc)."""
    vh, th = world.hitbox(a), world.hitbox(b)
    half = not sight._is_360(vh, False, S)
    vl, tl = sight._lattice_for(vh, S), sight._lattice_for(th, S)
    V, T_all, tmask, vorder, tidx, hints = sight._frame(vh, th, half, vl, tl)
    ctx = sight._column_context(world, S, sight._model_records(world, S))
    hid = sight._columns_hidden(ctx, S, vh, {a, b}, vorder, vl, [(th, tidx, tl)])[0]
    return V[vorder], T_all[tidx], hid


def _medium(mid, x, y, facing, side="red"):
    prof = Profile(f"t#{mid}", mid, {"AG": 4}, size="M")
    return ModelSpec(mid, side, 32, 45, (x, y, None), facing=facing, size="M", profile=prof, stats={"AG": 4})


def _wall(wid, x, y, length, height, turn=90.0):
    return TerrainSpec(wid, "box", (x, y, 0.0), size=(length, 0.3, height), turn=turn)


def test_covered_takes_open_intervals():
    # column 0: (-0.5, 0.2) and (0.1, 0.6) cover [-0.4, 0.4]; column 1: touching ends leave
    # the point between them uncovered (the intervals are open); column 2: the span's end
    # is not inside; column 3: nothing; column 4: an interval that is not between
    pc = np.array([0, 0, 1, 1, 2, 2, 4])
    lo = np.array([-0.5, 0.1, -0.5, 0.2, -0.5, 0.1, -0.9])
    hi = np.array([0.2, 0.6, 0.2, 0.6, 0.2, 0.6, 0.9])
    between = np.array([True] * 6 + [False])
    beta = np.array([0.4, 0.4, 0.6, 0.1, 0.1])
    assert _covered_flat(pc, lo, hi, between, beta).tolist() == [True, False, False, False, False]


def test_polygon_of_a_box_and_the_prism_table():
    n = np.array([[1.0, 0], [-1, 0], [0, 1], [0, -1]])
    d = np.array([2.0, 1.0, 3.0, 0.0])
    v = _polygon(n, d)
    assert sorted(map(tuple, v.round(9))) == [(-1, 0), (-1, 3), (2, 0), (2, 3)]
    N = np.zeros((2, 6, 3))
    N[:, :4, :2] = n
    N[:, 4] = (0, 0, 1)
    N[:, 5] = (0, 0, -1)
    D = np.tile(np.concatenate([d, [2.5, 0.0]]), (2, 1))
    N[1, 0] = (0.6, 0, 0.8)                       # a slanted face: not a vertical prism
    pr = Prisms(N, D)
    assert pr.ok.tolist() == [True, False]
    assert pr.top[0] == 2.5 and pr.bottom[0] == 0.0


def test_walls_at_two_depths_hide_together_what_neither_hides_alone():
    # each wall covers about half of the view; no single convex obstacle hides the pair
    walls = (_wall("near", 8, 11.2, 2.2, 3.0), _wall("far", 14, 12.8, 2.2, 3.0))
    w = World(Scene("", (24, 24), terrain=walls, models=(_medium("a", 4, 12, 0), _medium("b", 20, 12, 180, "blue"))))
    V, T, hid = _proved(w, "a", "b")
    assert hid.all()
    assert _blocked_every(w, "a", "b", V, T).all()
    r = sight.los(w, "a", "b", cover=False)
    assert not r.los and r.visible_fraction == 0.0
    vh, th = w.hitbox("a"), w.hitbox("b")
    assert not sight._hidden_batch(w, S, [(vh, th, True, {"a", "b"})], sight._model_records(w, S))[0]
    assert sight.los_matrix(w)[("a", "b")] is False


def test_low_walls_are_not_used_and_the_answer_stays_exact():
    walls = (_wall("near", 8, 11.2, 2.2, 3.0), _wall("far", 14, 12.8, 2.2, 1.0))
    w = World(Scene("", (24, 24), terrain=walls, models=(_medium("a", 4, 12, 0), _medium("b", 20, 12, 180, "blue"))))
    V, T, hid = _proved(w, "a", "b")
    assert not hid.all()
    assert _blocked_every(w, "a", "b", V, T[hid]).all()
    r = sight.los(w, "a", "b", cover=False)
    seen = ~_blocked_every(w, "a", "b", V, T)
    assert r.los == bool(seen.any())
    assert r.visible_fraction == pytest.approx(seen.mean())


@pytest.mark.parametrize("raise_by,hidden", [(0.002, True), (0.3, False)])
def test_a_prism_near_the_viewer_counts_for_a_slightly_higher_target(raise_by, hidden):
    # a wall as tall as the hitboxes stands right in front of the viewer; the target stands
    # a little higher: its top points are above the wall's top, but segments to them cross
    # the wall near the viewer's end, where they are still lower than its top (the parallax)
    h = 45 / 25.4
    w = World(Scene("", (24, 24), terrain=(_wall("w", 5.0, 12, 2.6, h),),
                    models=(_medium("a", 4, 12, 0), _medium("b", 20, 12, 180, "blue"))))
    w.hitbox("b").z = raise_by
    V, T, hid = _proved(w, "a", "b")
    assert T[:, 2].max() > h
    assert hid.all() == hidden
    assert _blocked_every(w, "a", "b", V, T[hid]).all()
    if hidden:
        assert not sight.los(w, "a", "b", cover=False).los


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_column_proof_on_a_cluttered_table_holds_against_every_segment(seed):
    # walls (tall and low), pillars, rubble and other models; each proved target point is
    # checked by casting every viewer point to it
    w = World(dense_scene(seed=seed, mounds=3, grid=14, walls=45, trunks=15, models=8, table=18.0))
    ids = w.model_ids()
    proved = 0
    rng = np.random.default_rng(seed)
    for a in ids:
        for b in ids:
            if a == b:
                continue
            V, T, hid = _proved(w, a, b)
            if not hid.any():
                continue
            idx = np.nonzero(hid)[0]
            pick = idx if len(idx) <= 48 else rng.choice(idx, 48, replace=False)
            assert _blocked_every(w, a, b, V, T[pick]).all(), (a, b)
            proved += len(idx)
    assert proved > 1000            # the proofs do decide a good share of this table


def test_many_viewers_in_one_call_equal_one_call_per_viewer():
    # the batched path asks every viewer's pairs at once (each with its own columns, disk,
    # heights and excluded models); the answers are those of one call per viewer, and the
    # tables hold viewers whose lattices differ (a Large model among Mediums)
    sc = dense_scene(seed=4, mounds=3, grid=14, walls=45, trunks=15, models=8, table=18.0)
    big = sc.models[0]
    large = dataclasses.replace(big, base_mm=50, height_mm=60, size="L",
                                profile=Profile("t#big", big.id, {"AG": 4}, size="L"))
    w = World(dataclasses.replace(sc, models=(large,) + tuple(sc.models[1:])))
    ids = w.model_ids()
    assert len({round(w.hitbox(i).radius, 3) for i in ids}) == 2
    models = sight._model_records(w, S)
    ctx = sight._column_context(w, S, models)
    rng = np.random.default_rng(4)
    asks, compared, hidden = [], 0, 0
    for a in ids[:6]:
        vh = w.hitbox(a)
        half = bool(rng.integers(2))
        vl = sight._lattice_for(vh, S)
        targets = []
        for b in rng.choice([i for i in ids if i != a], 3, replace=False):
            th = w.hitbox(str(b))
            tl = sight._lattice_for(th, S)
            vorder, tidx = sight._frame(vh, th, half, vl, tl)[3:5]
            targets.append((th, tidx, tl))
        asks.append((vh, {a} | {str(b) for b in rng.choice(ids, 2)}, vorder, vl, targets))
    together = sight._columns_hidden_multi(ctx, S, asks, need_all=True)
    for ask, got in zip(asks, together):
        alone = sight._columns_hidden(ctx, S, *ask, need_all=True)
        for x, y in zip(got, alone):
            assert np.array_equal(x, y)
            compared += len(x)
            hidden += int(x.sum())
    assert compared and 0 < hidden < compared        # some points proved, some not


def test_a_tall_wall_behind_the_viewer_hides_nothing():
    # seen from the target, the wall's wedge holds the whole viewer, but it stands beyond it
    w = World(Scene("", (24, 24), terrain=(_wall("back", 5.0, 12, 2.4, 3.0),),
                    models=(_medium("a", 6, 12, 0), _medium("b", 18, 12, 180, "blue"))))
    V, T, hid = _proved(w, "a", "b")
    assert len(T) and not hid.any()
    assert sight.los(w, "a", "b", cover=False).visible_fraction > 0.3


def test_matrix_and_fractions_on_a_cluttered_table_equal_casting_every_pair():
    # the whole pipeline (probes, root proofs, column proofs, descent, rays) against the
    # brute force, on a coarser lattice to keep it quick
    s = S.replace(patch_mm=6.0)
    w = World(dense_scene(seed=7, mounds=3, grid=14, walls=45, trunks=15, models=6, table=18.0))
    ids = w.model_ids()
    matrix = sight.los_matrix(w, ids, settings=s)
    for a in ids:
        va = w.hitbox(a)
        lat = sight._lattice_for(va, s)
        V = (sight._rotate(lat.points, va.facing) + va.center)[lat.points[:, 0] >= -1e-9]
        for b in ids:
            if a == b:
                continue
            r = sight.los(w, a, b, cover=False, settings=s)
            T = r.target_points
            seen = ~_blocked_every(w, a, b, V, T) & r.target_allowed
            assert (seen == r.target_visible).all(), (a, b)
            assert matrix[(a, b)] == bool(seen.any()) == r.los, (a, b)
