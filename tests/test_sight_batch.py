"""The batched queries (los_matrix, los_along_path) give exactly the per-pair answers of
``sight.los`` on random layouts of the skirmish table (hypothesis)."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import sight
from engine.scene import load_scene
from engine.world import World

ROOT = Path(__file__).resolve().parents[1]
FEW = settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                     HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def world():
    return World(load_scene(str(ROOT / "scenes" / "skirmish.yaml")))


def _layout(world, seed: int, ids):
    """Scatter ``ids`` at random spots and facings of the table (on the surface under them);
    returns the old placements to restore."""
    rng = np.random.default_rng(seed)
    old = {m: (world.hitbox(m).x, world.hitbox(m).y, world.hitbox(m).z, world.hitbox(m).facing) for m in ids}
    w, d = world.table
    for m in ids:
        x, y = rng.uniform(1.5, w - 1.5), rng.uniform(1.5, d - 1.5)
        world.move_model(m, x, y, None, float(rng.uniform(0, 360)))
    return old


def _restore(world, old):
    for m, (x, y, z, f) in old.items():
        world.move_model(m, x, y, z, f)


@FEW
@given(st.integers(0, 10_000), st.sets(st.integers(0, 11), max_size=3))
def test_matrix_equals_every_pair_cast_alone(world, seed, moving_idx):
    ids = world.model_ids()
    old = _layout(world, seed, ids)
    try:
        moving = {ids[i] for i in moving_idx if i < len(ids)}
        m = sight.los_matrix(world, ids, moving=moving)
        for a in ids:
            for b in ids:
                alone = sight.los(world, a, b, moving=a in moving, fraction=False, cover=False).los
                assert m[(a, b)] == alone, (a, b)
        # not a trivial table: both answers occur
        assert any(m.values()) and not all(m.values())
    finally:
        _restore(world, old)


@FEW
@given(st.integers(0, 10_000))
def test_path_equals_every_sample_cast_alone(world, seed):
    ids = world.model_ids()
    old = _layout(world, seed, ids)
    try:
        mover = ids[0]
        side = world.hitbox(mover).side
        observers = [i for i in ids if world.hitbox(i).side != side][:4]
        hb = world.hitbox(mover)
        start = np.array([hb.x, hb.y, hb.z])
        rng = np.random.default_rng(seed + 1)
        ang = rng.uniform(0, 2 * math.pi)
        end_xy = np.clip(start[:2] + 5.0 * np.array([math.cos(ang), math.sin(ang)]), 1.0,
                         np.array(world.table) - 1.0)
        xy = np.linspace(start[:2], end_xy, 6)
        z = world.surface_height(xy, below=hb.z + 1.0)
        path = np.column_stack([xy, np.where(np.isfinite(z), z, 0.0)])
        res = sight.los_along_path(world, mover, path, observers, every_sample=True)
        # asking only the samples that can move the first or the last point: the same answer
        quick = sight.los_along_path(world, mover, path, observers)
        for r, qk in zip(res, quick):
            assert (qk.had_los, qk.first, qk.last) == (r.had_los, r.first, r.last), r.observer
            assert set(qk.seen) <= set(r.seen)
            assert qk.seen[:1] == r.seen[:1] and qk.seen[-1:] == r.seen[-1:]
        samples, _ = sight._resample(path, sight.default_settings().path_step_in)
        for r in res:
            alone = []
            for p in samples:
                world.move_model(mover, p[0], p[1], p[2], hb.facing)
                alone.append(sight.los(world, r.observer, mover, fraction=False, cover=False).los)
            expect = [tuple(float(v) for v in p) for p, ok in zip(samples, alone) if ok]
            assert r.seen == expect, r.observer
            assert r.had_los == any(alone)
            for pt in (r.first, r.last):          # the refined ends of the window have LoS too
                if pt is not None:
                    world.move_model(mover, pt[0], pt[1], pt[2], hb.facing)
                    assert sight.los(world, r.observer, mover, fraction=False, cover=False).los
            world.move_model(mover, *start, hb.facing)
    finally:
        _restore(world, old)


def _yes_no_two_routes(world, seed, monkeypatch, owner, name, value, check):
    """``check(first, second, blocked)`` on los(fraction=False) for pairs of a random layout,
    as it is and with ``owner.name`` set to ``value`` (both without the memory of earlier
    answers, which changes what is cast, not the answer), and per pair whether terrain cuts
    the segment between the centres; run before the layout is put back (the results'
    details are worked out when first read)."""
    ids = world.model_ids()
    old = _layout(world, seed, ids)
    try:
        pairs = [(a, b) for a in ids[:6] for b in ids if a != b]
        with monkeypatch.context() as m:
            m.setattr(sight, "_REUSE", False)
            blocked = [sight._centres_blocked(world, world.hitbox(a), world.hitbox(b)) for a, b in pairs]
            first = [sight.los(world, a, b, fraction=False, cover=False) for a, b in pairs]
            m.setattr(owner, name, value)
            second = [sight.los(world, a, b, fraction=False, cover=False) for a, b in pairs]
        check(first, second, blocked)
    finally:
        _restore(world, old)


@FEW
@given(seed=st.integers(0, 10_000))
def test_yes_no_probe_first_equals_the_gathered_route(world, seed, monkeypatch):
    """los(fraction=False) probes before gathering the obstacles: the same result as
    gathering first (the whole LosResult a yes/no question gives)."""
    def check(fast, slow, _):
        for f, g in zip(fast, slow):
            assert f.as_dict() == g.as_dict()
            assert (f.target_visible == g.target_visible).all()
    _yes_no_two_routes(world, seed, monkeypatch, sight._Query, "obstacle_free_quick", lambda self: True, check)


@FEW
@given(seed=st.integers(0, 10_000))
def test_yes_no_root_proof_first_equals_the_probe_first(world, seed, monkeypatch):
    """los(fraction=False) tries the root hiding proof before the probe when terrain cuts
    the segment between the two centres: the same answer (every field but the count of
    rays cast) as always probing first; and it does run for some pairs."""
    def check(first, probe, blocked):
        assert any(blocked)
        assert any(b and not f.los for b, f in zip(blocked, first))   # some settled by the root proof alone
        for f, g in zip(first, probe):
            fd, gd = f.as_dict(), g.as_dict()
            fd.pop("rays"), gd.pop("rays")
            assert fd == gd
            for name in ("target_visible", "target_points", "target_part", "target_allowed",
                         "picture_segments", "picture_clear"):
                assert np.array_equal(getattr(f, name), getattr(g, name)), name
            assert f.eye == g.eye and f.segments == g.segments
    _yes_no_two_routes(world, seed, monkeypatch, sight, "_centres_blocked", lambda *a: False, check)


@FEW
@given(seed=st.integers(0, 10_000))
def test_the_batched_probe_casts_each_query_s_own_probe(world, seed):
    """``_probe_frames`` (every pair of a matrix or a path at once) gives each pair exactly
    the segments its query's own probe would cast (``_Query.probe_pairs``): the same
    target points in the same order, from the same two viewer points facing the target."""
    ids = world.model_ids()
    old = _layout(world, seed, ids)
    try:
        s = sight.default_settings()
        items, queries = [], []
        for a in ids[:5]:
            for b in ids:
                if a == b:
                    continue
                vh, th = world.hitbox(a), world.hitbox(b)
                for half in (True, False):
                    items.append((vh, th, half, {a, b}))
                    queries.append(sight._Query(world, sight._static(world), vh, th, want_all=False, s=s, half=half,
                                                v_local=sight._lattice_for(vh, s), t_local=sight._lattice_for(th, s),
                                                exclude={a, b}, models=[], gather=False))
        P0, P1, owner, none = sight._probe_frames(items, s)
        for k, q in enumerate(queries):
            if q.done:
                assert none[k] or not (owner == k).any()
                continue
            r, v = q.probe_pairs()
            assert np.allclose(P0[owner == k], q.V[v]) and np.allclose(P1[owner == k], q.T_all[q.tidx[r]]), k
    finally:
        _restore(world, old)


@pytest.mark.parametrize("kind", ["settled by the root proof", "partly visible"])
def test_the_details_of_an_answer_describe_the_table_as_it_was_asked(world, kind):
    """The blocking pieces, the eye and the picture of an answer are worked out when first
    read, from the table as it stood when asked: moving a model afterwards changes none of
    them (a pair the root proof settled before any query, and a pair seen in part)."""
    s = sight.default_settings()
    blocked = sight._centres_blocked
    ids = world.model_ids()

    def wanted(a, b):
        r = sight.los(world, a, b, fraction=False, cover=False, settings=s)
        if kind == "partly visible":
            return r.los and sight.los(world, a, b, cover=False, settings=s).visible_fraction < 0.9
        return blocked(world, world.hitbox(a), world.hitbox(b)) and not r.los
    a, b = next((a, b) for a in ids for b in ids if a != b and wanted(a, b))
    sight.forget()
    late = sight.los(world, a, b, fraction=False, cover=False, settings=s)
    now = sight.los(world, a, b, fraction=False, cover=False, settings=s)
    expect = (now.blocking, now.eye, now.picture_segments.copy())
    assert kind == "partly visible" or expect[0]
    hb = world.hitbox(b)
    old = (hb.x, hb.y, hb.z, hb.facing)
    try:
        world.move_model(b, hb.x + 3.0, hb.y + 2.0, None, hb.facing + 90)
        assert late.blocking == expect[0] and late.eye == expect[1]
        assert np.array_equal(late.picture_segments, expect[2])
    finally:
        world.move_model(b, *old)


@FEW
@given(seed=st.integers(0, 10_000))
def test_the_root_proof_of_one_pair_equals_the_batched_one(world, seed):
    """``_hidden_batch`` for one pair (its candidates one at a time) proves exactly the pairs
    it proves for all pairs at once (the rounds of largest candidates first)."""
    ids = world.model_ids()
    old = _layout(world, seed, ids)
    try:
        s = sight.default_settings()
        models = sight._model_records(world, s)
        items = [(world.hitbox(a), world.hitbox(b), half, {a, b})
                 for a in ids for b in ids if a != b for half in (True, False)]
        batch = sight._hidden_batch(world, s, items, models)
        alone = [bool(sight._hidden_batch(world, s, [it], models)[0]) for it in items]
        assert list(batch) == alone and batch.any() and not batch.all()
    finally:
        _restore(world, old)
