"""Invariants of line of sight, checked on random tables (hypothesis)."""
from __future__ import annotations

import contextlib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import sight
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec
from engine.world import World

FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

box = st.tuples(
    st.floats(9.0, 15.0),            # x
    st.floats(8.0, 16.0),            # y
    st.floats(0.2, 3.0),             # width
    st.floats(0.2, 4.0),             # depth
    st.floats(0.3, 3.0),             # height
    st.floats(0.0, 180.0),           # turn
)


def model(mid, x, y, facing, side, states=(), traits=()):
    prof = Profile(f"t#{mid}", mid, {"AG": 4}, size="M", traits=tuple(traits))
    return ModelSpec(mid, side, 32, 45, (x, y, 0.0), facing=facing, size="M", profile=prof,
                     stats={"AG": 4}, states=tuple(states))


def world(boxes, a=(5.0, 12.0, 0.0), b=(19.0, 12.0, 180.0), shift=(0.0, 0.0), extra=(), states=()):
    dx, dy = shift
    terrain = tuple(TerrainSpec(f"box-{i}", "box", (x + dx, y + dy, 0.0), size=(w, d, h), turn=t)
                    for i, (x, y, w, d, h, t) in enumerate(boxes))
    models = [model("a", a[0] + dx, a[1] + dy, a[2], "red", states), model("b", b[0] + dx, b[1] + dy, b[2], "blue", states)]
    models += [model(f"m{i}", x + dx, y + dy, 0.0, "red") for i, (x, y) in enumerate(extra)]
    return World(Scene("", (40, 40), terrain=terrain, models=tuple(models)))


@FAST
@given(st.lists(box, min_size=1, max_size=3), st.integers(0, 2), st.floats(-40, 40), st.floats(-40, 40))
def test_removing_a_blocker_never_lowers_the_visible_fraction(boxes, drop, fa, fb):
    drop = drop % len(boxes)
    full = sight.los(world(boxes, a=(5, 12, fa), b=(19, 12, 180 + fb)), "a", "b", cover=False)
    fewer = sight.los(world(boxes[:drop] + boxes[drop + 1:], a=(5, 12, fa), b=(19, 12, 180 + fb)), "a", "b", cover=False)
    # every point seen before is still seen
    assert (fewer.target_visible >= full.target_visible).all()
    assert fewer.visible_fraction >= full.visible_fraction
    assert fewer.los or not full.los


@FAST
@given(st.lists(box, min_size=0, max_size=3), st.lists(st.tuples(st.floats(9, 15), st.floats(9, 15)), max_size=1),
       st.floats(0, 360), st.floats(0, 360))
def test_with_both_at_360_swapping_viewer_and_target_gives_the_same_los(boxes, extra, fa, fb):
    w = world(boxes, a=(5, 12, fa), b=(19, 12, fb), extra=extra, states=("Vigilance",))
    ab = sight.los(w, "a", "b", cover=False)
    ba = sight.los(w, "b", "a", cover=False)
    assert ab.los == ba.los
    m = sight.los_matrix(w, ["a", "b"])
    assert m[("a", "b")] == m[("b", "a")] == ab.los


@FAST
@given(st.lists(box, min_size=0, max_size=3), st.floats(-4, 16), st.floats(-4, 16), st.floats(-60, 60))
def test_translating_the_whole_scene_changes_nothing(boxes, dx, dy, fa):
    base = sight.los(world(boxes, a=(5, 12, fa), shift=(5, 5)), "a", "b")
    moved = sight.los(world(boxes, a=(5, 12, fa), shift=(5 + dx, 5 + dy)), "a", "b")
    assert moved.los == base.los
    assert moved.cover == base.cover and moved.cover_piece == base.cover_piece
    # the sample points move with the models; float32 rays may round a grazing line differently
    assert abs(moved.visible_fraction - base.visible_fraction) <= 2.0 / len(base.target_points)
    assert moved.distance == base.distance or abs(moved.distance - base.distance) < 1e-9


# --------------------------------------------------- proofs against brute force
def _brute_visible(w, viewer, target, s, moving=False):
    """Target sample points seen from some allowed viewer point, by testing EVERY
    viewer x target lattice segment: terrain (one ray each), every other model's
    cylinder, nothing else clever. The reference for the proofs and the rounds."""
    from engine.world import segments_hit_cylinders
    vh, th = w.hitbox(viewer), w.hitbox(target)
    lv, lt = sight._lattice_for(vh, s), sight._lattice_for(th, s)
    V = sight._rotate(lv.points, vh.facing) + vh.center
    T = sight._rotate(lt.points, th.facing) + th.center
    half = not sight._is_360(vh, moving, s)
    allowed = np.ones(len(T), dtype=bool)
    if half:
        V = V[lv.points[:, 0] >= -1e-9]
        allowed = (T[:, :2] - vh.center[:2]) @ vh.facing_vector >= -1e-9
    P0, P1 = np.repeat(V, len(T), axis=0), np.tile(T, (len(V), 1))
    clear = ~w.rays.occluded(P0, P1)
    others = [m for m in w.model_ids() if m not in (viewer, target)]
    if others and clear.any():
        idx = np.nonzero(clear)[0]
        hb = [w.hitbox(m) for m in others]
        c = np.array([[h.x, h.y, h.z] for h in hb])
        hit = np.isfinite(segments_hit_cylinders(P0[idx], P1[idx], c, np.array([h.radius for h in hb]),
                                                 np.array([h.height for h in hb]))).any(axis=1)
        clear[idx[hit]] = False
    return clear.reshape(len(V), len(T)).any(axis=0) & allowed


# several boxes between and around the two, some touching, some models in the way
crowd = st.lists(st.tuples(st.floats(8.0, 16.0), st.floats(9.0, 15.0), st.floats(0.3, 2.5), st.floats(0.2, 2.5),
                           st.floats(0.4, 2.8), st.floats(0.0, 180.0)), min_size=2, max_size=6)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowd, st.lists(st.tuples(st.floats(9, 15), st.floats(10, 14)), max_size=2),
       st.floats(-50, 50), st.floats(-50, 50), st.floats(-1.5, 1.5), st.booleans())
def test_visible_set_equals_casting_every_segment(boxes, extra, fa, fb, dy, moving):
    """The fraction's visible set (witness rounds, bundle proofs with tight node hulls and
    open-point target hulls, leaf rays) equals the brute force on every lattice segment,
    on crowded random tables where several obstacles hide the target together."""
    w = world(boxes, a=(5.0, 12.0 + dy, fa), b=(19.0, 12.0 - dy, 180.0 + fb), extra=extra)
    s = sight.default_settings().replace(patch_mm=6.0)
    r = sight.los(w, "a", "b", moving=moving, cover=False, settings=s)
    brute = _brute_visible(w, "a", "b", s, moving)
    assert (brute == r.target_visible).all(), (int(brute.sum()), int(r.target_visible.sum()))
    quick = sight.los(w, "a", "b", moving=moving, fraction=False, cover=False, settings=s)
    assert quick.los == bool(brute.any())
    assert sight.los_matrix(w, ["a", "b"], settings=s, moving={"a"} if moving else ())[("a", "b")] == bool(brute.any())


def test_visible_set_equals_casting_every_segment_at_the_real_lattice():
    """The same cross-check once at the issue's 3 mm lattice (~700k segments): a wall and a
    crate hide the target together, a third box in front of the viewer."""
    boxes = [(12.0, 13.0, 0.4, 5.0, 2.2, 90.0), (15.5, 11.0, 1.2, 1.2, 1.0, 20.0), (8.5, 12.5, 0.6, 0.6, 1.4, 0.0)]
    w = world(boxes, a=(5.0, 12.0, 0.0), b=(19.0, 12.0, 180.0), extra=[(14.0, 13.2)])
    s = sight.default_settings()
    r = sight.los(w, "a", "b", cover=False, settings=s)
    brute = _brute_visible(w, "a", "b", s)
    assert 0 < brute.sum() < brute.size            # partly hidden: the proofs and the rays both work
    assert (brute == r.target_visible).all()


def _descent_keeps_every_clear_segment(w, s, moving=False):
    """Run the bundle descent alone (no rounds, no rays) and check its two claims against the
    brute force: a target point it marks visible is visible; and every clear segment of a
    point it leaves undecided lies in a bundle left for rays (none was wrongly proved hidden)."""
    from engine.world import segments_hit_cylinders
    st_ = sight._static(w)
    q = sight._make_query(w, st_, "a", "b", moving, s, True, sight._model_records(w, s))
    if q.done or q.obstacle_free:
        return 0
    sight._descend_many([q])
    V, T = q.V[q.vorder], q.T_all[q.tidx]
    P0, P1 = np.repeat(V, len(T), axis=0), np.tile(T, (len(V), 1))
    clear = ~w.rays.occluded(P0, P1)
    if q.models and clear.any():
        idx = np.nonzero(clear)[0]
        c = np.array([m[1] for m in q.models])
        hit = np.isfinite(segments_hit_cylinders(P0[idx], P1[idx], c, np.array([m[2] for m in q.models]),
                                                 np.array([m[3] for m in q.models]))).any(axis=1)
        clear[idx[hit]] = False
    clear = clear.reshape(len(V), len(T))           # [viewer order position, row]
    assert clear[:, q.status == 1].any(axis=0).all(), "a point proved visible is not"
    kept = np.zeros_like(clear)
    vpos = np.full(len(q.V), -1)
    vpos[q.vorder] = np.arange(len(q.vorder))
    if q.leaves is not None:
        vt, tt = q.vtree, q.ttree
        for lv, lt in zip(*q.leaves):
            rows = q.row_of[tt.perm[tt.start[lt]:tt.end[lt]]]
            vs = vpos[vt.perm[vt.start[lv]:vt.end[lv]]]
            rows, vs = rows[rows >= 0], vs[vs >= 0]
            kept[np.ix_(vs, rows)] = True
    open_rows = q.status == 0
    lost = clear[:, open_rows] & ~kept[:, open_rows]
    assert not lost.any(), f"{int(lost.sum())} clear segments were proved hidden"
    return int(open_rows.sum())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowd, st.lists(st.tuples(st.floats(9, 15), st.floats(10, 14)), max_size=2),
       st.floats(-50, 50), st.floats(-50, 50), st.floats(-1.5, 1.5), st.booleans())
def test_the_descent_never_proves_a_clear_segment_hidden(boxes, extra, fa, fb, dy, moving):
    w = world(boxes, a=(5.0, 12.0 + dy, fa), b=(19.0, 12.0 - dy, 180.0 + fb), extra=extra)
    _descent_keeps_every_clear_segment(w, sight.default_settings().replace(patch_mm=6.0), moving)


def test_the_descent_never_proves_a_clear_segment_hidden_at_the_real_lattice():
    boxes = [(12.0, 13.0, 0.4, 5.0, 2.2, 90.0), (15.5, 11.0, 1.2, 1.2, 1.0, 20.0), (8.5, 12.5, 0.6, 0.6, 1.4, 0.0)]
    w = world(boxes, a=(5.0, 12.0, 0.0), b=(19.0, 12.0, 180.0), extra=[(14.0, 13.2)])
    assert _descent_keeps_every_clear_segment(w, sight.default_settings()) > 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(crowd, st.lists(st.tuples(st.floats(9, 15), st.floats(10, 14)), max_size=2),
       st.floats(-50, 50), st.floats(-1.5, 1.5), st.floats(-0.4, 0.4), st.floats(-0.4, 0.4), st.floats(-20, 20))
def test_an_answer_started_from_the_last_one_equals_brute_force(boxes, extra, fa, dy, mx, my, turn):
    """``los`` starts from its last answer for the pair (its witnesses first, its proof as the
    descent's first frontier, every bundle proved again): after the target moves a little,
    the visible set still equals the brute force, and the yes/no too."""
    w = world(boxes, a=(5.0, 12.0 + dy, fa), b=(19.0, 12.0 - dy, 180.0), extra=extra)
    s = sight.default_settings().replace(patch_mm=6.0)
    sight.forget()
    sight.los(w, "a", "b", cover=False, settings=s)
    sight.los(w, "a", "b", fraction=False, cover=False, settings=s)
    hb = w.hitbox("b")
    w.move_model("b", hb.x + mx, hb.y + my, None, hb.facing + turn)
    r = sight.los(w, "a", "b", cover=False, settings=s)
    brute = _brute_visible(w, "a", "b", s)
    assert (brute == r.target_visible).all(), (int(brute.sum()), int(r.target_visible.sum()))
    assert sight.los(w, "a", "b", fraction=False, cover=False, settings=s).los == bool(brute.any())


_PARTLY = [(12.0, 12.3, 0.4, 4.0, 1.1, 90.0), (15.0, 11.2, 0.6, 0.6, 3.0, 10.0), (13.2, 13.4, 1.0, 0.4, 2.2, 30.0)]


def _partly_hidden_pair():
    """Two models with a low wall and a pillar between them: the descent runs, and some of
    its bundles are proved hidden by one obstacle."""
    w = world(_PARTLY, a=(5.0, 12.0, 0.0), b=(19.0, 12.0, 180.0))
    return w, sight.default_settings().replace(patch_mm=6.0)


@contextlib.contextmanager
def _descents():
    """Every query a bundle descent ran on while inside (a list, in order)."""
    seen = []
    real = sight._descend_many

    def spy(queries):
        real(queries)
        seen.extend(queries)
    sight._descend_many = spy
    try:
        yield seen
    finally:
        sight._descend_many = real


def test_a_proof_names_the_obstacle_of_each_hidden_bundle_and_a_nearby_query_reuses_it():
    """A proof (a descent's partition) records, for a bundle proved hidden, which obstacle
    hid it; a nearby question of the same pair finds those obstacles among its own and
    proves those bundles with them alone first; the answer still equals the brute force."""
    w, s = _partly_hidden_pair()
    sight.forget()
    with _descents() as seen:
        sight.los(w, "a", "b", cover=False, settings=s)
        first = [q for q in seen if q.proof is not None]
        assert first, "the descent ran to its end"
        proof = first[-1].proof
        convex_ids = {id(o[1]) for o in first[-1].convex}
        named = proof[4][proof[4] > 0]
        assert len(named) and set(named.tolist()) <= convex_ids
        assert (proof[4] == sight._RAYS).any() or (proof[4] == sight._FREE).any()
        hb = w.hitbox("b")
        w.move_model("b", hb.x + 0.05, hb.y - 0.03, None, hb.facing)
        seen.clear()
        r = sight.los(w, "a", "b", cover=False, settings=s)
        again = [q for q in seen if getattr(q, "seed", None) is not None]
        assert again, "the second question started from the first one's proof"
        q = again[-1]
        kinds = sight._seed_kinds(q.seed, q.convex, 0)
        assert (kinds >= 0).any()                 # obstacles found again, by identity
    brute = _brute_visible(w, "a", "b", s)
    assert (brute == r.target_visible).all()


def test_a_seed_that_names_the_wrong_obstacles_changes_no_answer():
    """The obstacles a seed names are only a guess: pointing every bundle of the remembered
    proof at an obstacle that hides none of them, or at one the new query lacks, still gives
    the brute force's visible set (a bundle not proved with it goes through the descent)."""
    w, s = _partly_hidden_pair()
    for wrong in ("pillar", "unknown"):
        sight.forget()
        sight.los(w, "a", "b", cover=False, settings=s)
        mem = sight._MEMORY[w]
        key = next(k for k in mem if k[0] == "a" and k[1] == "b")
        wit, proof = mem[key]
        if wrong == "pillar":
            obs = sight._static(w).pieces[[p.id for p in sight._static(w).pieces].index("box-1")]
            tag = id(obs.normals)
        else:
            tag = 12345
        mem[key] = (wit, proof[:4] + (np.full(len(proof[2]), tag, dtype=np.int64),))
        hb = w.hitbox("b")
        w.move_model("b", hb.x, hb.y + 0.04, None, hb.facing)
        r = sight.los(w, "a", "b", cover=False, settings=s)
        brute = _brute_visible(w, "a", "b", s)
        assert (brute == r.target_visible).all(), wrong
        w.move_model("b", hb.x, hb.y, None, hb.facing)


def _assert_partition(proof):
    """A proof's bundles (viewer tree node x target tree node) cover every pair of the two
    trees' roots exactly once (a 2D difference array over the trees' point orders)."""
    vt, tt, pv, pt = proof[:4]
    nv, nt = int(vt.end[0]), int(tt.end[0])
    cover = np.zeros((nv + 1, nt + 1), dtype=np.int64)
    vs, ve, ts, te = vt.start[pv], vt.end[pv], tt.start[pt], tt.end[pt]
    np.add.at(cover, (vs, ts), 1)
    np.add.at(cover, (ve, ts), -1)
    np.add.at(cover, (vs, te), -1)
    np.add.at(cover, (ve, te), 1)
    cover = cover.cumsum(axis=0).cumsum(axis=1)[int(vt.start[0]):nv, int(tt.start[0]):nt]
    assert (cover == 1).all(), (int(cover.min()), int(cover.max()))


@pytest.mark.parametrize("dy", [-0.6, 0.0, 0.5])
def test_every_proof_fresh_or_started_from_a_nearby_one_is_a_partition(dy):
    """A descent's proof, also one started from a nearby sample's (a path's samples and its
    refinement, a re-asked pair), holds every viewer x target pair exactly once: a seeded
    descent only ever sees the pairs its seed holds, so a pair lost or doubled there would
    go unproved or be counted twice. (A low wall and a pillar partly hide the target.)"""
    w = world(_PARTLY, a=(5.0, 12.0, 0.0), b=(19.0, 12.0 + dy, 180.0))
    s = sight.default_settings().replace(patch_mm=6.0)
    sight.forget()
    with _descents() as seen:
        for _ in range(3):             # the pair asked again as the target edges along
            sight.los(w, "a", "b", cover=False, settings=s)
            hb = w.hitbox("b")
            w.move_model("b", hb.x - 0.04, hb.y + 0.03, None, hb.facing)
        path = np.array([[19.0, 12.0 + dy - 3.0, 0.0], [19.0, 12.0 + dy + 3.0, 0.0]])
        sight.los_along_path(w, "b", path, ["a"], settings=s)
    proved = [q for q in seen if q.proof is not None]
    for q in proved:
        _assert_partition(q.proof)
    assert any(q.seed is not None for q in proved), "some descent started from a nearby proof"


def test_a_broken_partition_is_caught():
    # the check itself: a bundle doubled, and one dropped
    w, s = _partly_hidden_pair()
    sight.forget()
    with _descents() as seen:
        sight.los(w, "a", "b", cover=False, settings=s)
    proof = [q for q in seen if q.proof is not None][-1].proof
    _assert_partition(proof)
    for keep in (np.r_[np.arange(len(proof[2])), 0], np.arange(1, len(proof[2]))):
        bad = proof[:2] + (proof[2][keep], proof[3][keep], proof[4][keep])
        try:
            _assert_partition(bad)
        except AssertionError:
            continue
        raise AssertionError("a broken partition passed")


def test_remembered_answers_survive_a_change_of_size_and_state():
    """The memory of an earlier answer is only a guess: after the viewer is Crouched (a
    smaller lattice) and the target turns, the answers still equal the brute force."""
    boxes = [(12.0, 13.0, 0.4, 5.0, 2.2, 90.0), (15.5, 11.0, 1.2, 1.2, 1.0, 20.0)]
    w = world(boxes, a=(5.0, 12.0, 0.0), b=(19.0, 12.0, 180.0), extra=[(14.0, 13.2)])
    s = sight.default_settings().replace(patch_mm=6.0)
    sight.forget()
    sight.los(w, "a", "b", cover=False, settings=s)
    sight.los(w, "a", "b", fraction=False, cover=False, settings=s)
    w.set_states("a", {"Crouched"})
    hb = w.hitbox("b")
    w.move_model("b", hb.x, hb.y + 0.3, None, hb.facing + 30)
    r = sight.los(w, "a", "b", cover=False, settings=s)
    brute = _brute_visible(w, "a", "b", s)
    assert (brute == r.target_visible).all()
    assert sight.los(w, "a", "b", fraction=False, cover=False, settings=s).los == bool(brute.any())


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 40), st.integers(1, 9), st.booleans())
def test_leaf_model_test_skipping_blocked_segments_equals_testing_every_cylinder(seed, n, m, level):
    """``_segments_blocked_by_cylinders`` (a segment's exact test skipped once a cylinder is
    known to block it) gives exactly ``_segments_hit_cylinders_any(...).any(axis=1)``, models
    side by side, overlapping and touching included."""
    rng = np.random.default_rng(seed)
    c = rng.uniform(2, 8, (m, 3))
    c[:, 2] = rng.uniform(0, 1, m)
    r, h = rng.uniform(0.3, 1.5, m), rng.uniform(0.5, 2.5, m)
    p0, p1 = rng.uniform(0, 10, (n, 3)), rng.uniform(0, 10, (n, 3))
    if level:
        p1[:, 2] = p0[:, 2] = c[0, 2] + h[0]            # along a top face: grazing contacts
    p0[: n // 3] = c[0] + [r[0], 0, 0.5 * h[0]]          # starting on a side
    want = sight._segments_hit_cylinders_any(p0, p1, c, r, h).any(axis=1)
    assert np.array_equal(sight._segments_blocked_by_cylinders(p0, p1, c, r, h), want)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 30), st.sampled_from([6, 18, 50]))
def test_staged_corner_proof_equals_every_corner_segment(seed, rows, planes):
    """``_corners_through`` (the corner pairs in stages, or in one for a few rows) answers
    exactly "all a x b corner segments pass through the body" tested at once."""
    rng = np.random.default_rng(seed)
    Vc = rng.normal(0, 1, (rows, 8, 3)) * 0.5 + [-3, 0, 0]
    Tc = rng.normal(0, 1, (rows, 8, 3)) * 0.5 + [3, 0, 0]
    N = rng.normal(0, 1, (rows, planes, 3))
    N /= np.linalg.norm(N, axis=2, keepdims=True)
    D = rng.uniform(0.3, 2.0, (rows, planes))            # bodies around the origin, between the sets
    vi, ti = np.meshgrid(np.arange(8), np.arange(8), indexing="ij")
    # the reference: the one-body test ``_through`` on all 64 segments of each row
    want = np.array([sight._through(Vc[i, vi.ravel()], Tc[i, ti.ravel()], N[i], D[i]).all() for i in range(rows)])
    assert np.array_equal(sight._through_each(Vc[:, vi.ravel()], Tc[:, ti.ravel()], N, D).all(axis=1), want)
    for one in (0, 10 ** 9):                             # staged, and one stage
        old = sight._ONE_STAGE
        sight._ONE_STAGE = one
        try:
            assert np.array_equal(sight._corners_through(Vc, Tc, N, D), want)
        finally:
            sight._ONE_STAGE = old


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2 ** 32 - 1), st.integers(1, 60), st.sampled_from([6, 18, 50]), st.booleans())
def test_one_segment_per_row_equals_the_one_body_test(seed, rows, planes, padded):
    """``_through_each`` with one segment per row (its own path: the tests of the segment
    between two boxes' centres) answers as ``_through`` on each row, padded planes and
    segments parallel to a face plane included."""
    rng = np.random.default_rng(seed)
    N = rng.normal(0, 1, (rows, planes, 3))
    N /= np.linalg.norm(N, axis=2, keepdims=True)
    D = rng.uniform(0.3, 2.0, (rows, planes))
    if padded:                                           # rows padded as the obstacle tables are
        pad = rng.random((rows, planes)) < 0.3
        N[pad], D[pad] = 0.0, 1e30
    p0 = rng.normal(0, 1.5, (rows, 1, 3))
    p1 = rng.normal(0, 1.5, (rows, 1, 3))
    N[::3, 0] = (1.0, 0.0, 0.0)                          # every third row: a segment parallel to a plane
    p1[::3, 0, 0] = p0[::3, 0, 0]
    want = np.array([sight._through(p0[i], p1[i], N[i], D[i])[0] for i in range(rows)])
    assert np.array_equal(sight._through_each(p0, p1, N, D)[:, 0], want)
