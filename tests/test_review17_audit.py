"""Review 17 audit: line of sight against brute force, by a referee who trusts nothing.

On every shipped scene and on a generated dense table (with two Forest areas and a
Large model), for a sample of pairs and states (the viewer moving or Crouched, the
target Crouched, a Large viewer), every answer of ``engine.sight`` is checked against
casting EVERY allowed viewer point x target point segment here: the terrain with Embree
(a scene of this file's own, one ray each), every other model's cylinder and the Forest
areas with code of this file (shapely), none of the engine's proofs. Checked: the visible
set and fraction, the yes/no of ``los`` and ``los_matrix``, the witness ray (one of the
segments found clear here) and the blocking pieces (each really blocks a segment to a
hidden point, and they alone block the eye's segment to every hidden point).
``los_along_path`` is checked at every sample and on a fine sampling around its first and
last points, along paths through an ally. Both sides use a 6 mm lattice (quick).
"""
from __future__ import annotations

import contextlib
import dataclasses
import functools
import math
from pathlib import Path

import numpy as np
import pytest
import shapely
import trimesh
from shapely.ops import unary_union

from engine import sight
from engine.scene import TerrainSpec, load_scene
from engine.synth import dense_scene
from engine.world import World, plan_footprint
from tools.loading import build_world

S = sight.default_settings().replace(patch_mm=6.0)
S_PATH = S.replace(path_step_in=0.5)        # paths: fewer samples, the usual 0.02" refinement
SCENES = sorted((Path(__file__).resolve().parents[1] / "scenes").glob("*.yaml"))
ALL_ROUND = {"Shrouded", "Vigilance"}       # the settings' three_sixty_states and traits


# ------------------------------------------------------------------ the brute force
_SCENES: dict = {}          # id(mesh) -> (mesh, its Embree scene)


def _embree(mesh):
    """An Embree scene of this file's own over a triangle mesh (kept per mesh)."""
    got = _SCENES.get(id(mesh))
    if got is None or got[0] is not mesh:
        from embreex import rtcore_scene
        from embreex.mesh_construction import TriangleMesh
        scene = rtcore_scene.EmbreeScene()
        TriangleMesh(scene, np.asarray(mesh.triangles, dtype=np.float32))
        got = _SCENES[id(mesh)] = (mesh, scene)
    return got[1]


def _occluded(mesh, p0, p1) -> np.ndarray:
    """(n,) bool: the segment p0 -> p1 meets a triangle of ``mesh`` (one Embree ray each)."""
    v = p1 - p0
    d = np.linalg.norm(v, axis=1)
    out = np.zeros(len(p0), dtype=bool)
    ok = d > 1e-9
    if ok.any():
        out[ok] = _embree(mesh).run(p0[ok].astype(np.float32), (v[ok] / d[ok, None]).astype(np.float32),
                                    dists=d[ok].astype(np.float32), query="OCCLUDED") != -1
    return out


def _cuts_cylinder(p0, p1, hb) -> np.ndarray:
    """(n,) bool: the segment runs inside the hitbox ``hb`` (a vertical cylinder) for more
    than 1e-9 of its length (a grazing touch does not block)."""
    d = p1 - p0
    lo, hi = np.zeros(len(p0)), np.ones(len(p0))
    oz, dz = p0[:, 2] - hb.z, d[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        ta, tb = -oz / dz, (hb.height - oz) / dz
    flat = np.abs(dz) < 1e-15
    inside_z = (oz >= 0) & (oz <= hb.height)
    lo = np.where(flat, np.where(inside_z, lo, 2.0), np.maximum(lo, np.minimum(ta, tb)))
    hi = np.where(flat, hi, np.minimum(hi, np.maximum(ta, tb)))
    px, py, dx, dy = p0[:, 0] - hb.x, p0[:, 1] - hb.y, d[:, 0], d[:, 1]
    a, b, c = dx * dx + dy * dy, 2 * (px * dx + py * dy), px * px + py * py - hb.radius ** 2
    disc = b * b - 4 * a * c
    root = np.sqrt(np.maximum(disc, 0.0))
    still = a < 1e-15                        # vertical: inside the disc or not, all along
    with np.errstate(divide="ignore", invalid="ignore"):
        lo = np.where(still, np.where(c < 0, lo, 2.0), np.maximum(lo, (-b - root) / (2 * a)))
        hi = np.where(still, hi, np.minimum(hi, (-b + root) / (2 * a)))
    return (still | (disc > 0)) & (hi - lo > 1e-9)


def _near(p0, p1):
    """A quick, safe skip: ``near(hb)`` is False when no segment p0 -> p1 comes near the
    hitbox seen from above (the segments lie in the hull of two discs holding their ends,
    within reach of the segment between the discs' centres)."""
    c0, c1 = p0[:, :2].mean(axis=0), p1[:, :2].mean(axis=0)
    reach = max(np.linalg.norm(p0[:, :2] - c0, axis=1).max(), np.linalg.norm(p1[:, :2] - c1, axis=1).max())
    d = c1 - c0

    def near(hb) -> bool:
        q = np.array([hb.x, hb.y]) - c0
        u = float(np.clip(q @ d / max(d @ d, 1e-18), 0.0, 1.0))
        return float(np.linalg.norm(q - u * d)) <= hb.radius + reach + 1e-6
    return near


@functools.lru_cache(maxsize=16)
def _areas(world) -> list[tuple[tuple[str, ...], object]]:
    """The Forest areas: each wood's pieces (as the engine groups them) and the union of
    their footprints seen from above (``area_height: infinite``)."""
    return [(ids, unary_union([plan_footprint(world.piece(i).mesh) for i in ids]))
            for ids in sight.forest_areas(world, S)]


def _crossings(p0, p1, polys) -> np.ndarray:
    """(n,) int: how many of the areas ``polys`` the segments' shadows enter (the inside,
    not a touch of the edge)."""
    return sum(_enters(p0[:, :2], p1[:, :2], p).astype(int) for p in polys)


def _enters(a, b, poly) -> np.ndarray:
    """(n,) bool: the 2D segments a -> b meet the inside of ``poly``: a convex one clipped by
    its edges' half-planes (Cyrus-Beck), any other by shapely."""
    if poly.interiors or poly.convex_hull.area > poly.area * (1 + 1e-9):
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        return shapely.intersects(lines, poly) & ~shapely.touches(lines, poly)
    ring = np.asarray(shapely.geometry.polygon.orient(poly, 1.0).exterior.coords)[:-1]
    edge = np.roll(ring, -1, axis=0) - ring
    inward = np.column_stack([-edge[:, 1], edge[:, 0]])            # left of a counter-clockwise ring
    num = np.einsum("ek,nek->ne", inward, a[:, None, :] - ring[None, :, :])     # > 0: a inside the edge
    den = (b - a) @ inward.T
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -num / den
    lo = np.where(den > 0, t, -np.inf).max(axis=1, initial=0.0)
    hi = np.where(den < 0, t, np.inf).min(axis=1, initial=1.0)
    parallel_out = ((np.abs(den) <= 1e-15) & (num <= 0)).any(axis=1)
    return ~parallel_out & (hi - lo > 1e-12)


def _blocked(world, p0, p1, exclude, pieces=None, models=None, forests=None, near=None) -> np.ndarray:
    """(n,) bool: the segments are blocked by the terrain, another model (not ``exclude``) or
    ``forest_limit`` Forest areas. ``pieces``/``models``/``forests``: only those (ids);
    ``near``: the segments' ``_near`` when known."""
    mesh = world.terrain if pieces is None else _pieces_mesh(world, tuple(sorted(pieces)))
    out = _occluded(mesh, p0, p1) if mesh is not None else np.zeros(len(p0), dtype=bool)
    near = near or _near(p0, p1)
    for m in world.model_ids():
        if m in exclude or (models is not None and m not in models) or not near(world.hitbox(m)):
            continue
        k = np.flatnonzero(~out)
        out[k] = _cuts_cylinder(p0[k], p1[k], world.hitbox(m))
    polys = [p for ids, p in _areas(world) if forests is None or set(ids) & set(forests)]
    if len(polys) >= S.forest_limit:
        # (only segments whose box meets the boxes of forest_limit areas can cross as many)
        lo, hi = np.minimum(p0[:, :2], p1[:, :2]), np.maximum(p0[:, :2], p1[:, :2])
        boxes = sum(((lo <= p.bounds[2:]) & (hi >= p.bounds[:2])).all(axis=1).astype(int) for p in polys)
        k = np.flatnonzero(~out & (boxes >= S.forest_limit))
        out[k] = _crossings(p0[k], p1[k], polys) >= S.forest_limit
    return out


@functools.lru_cache(maxsize=64)
def _pieces_mesh(world, ids):
    """The solid pieces ``ids`` as one mesh (None when there are none)."""
    solid = [world.piece(i).mesh for i in ids if world.piece(i).solid]
    return trimesh.util.concatenate(solid) if solid else None


@dataclasses.dataclass
class Brute:
    """The brute force's answer for one viewer and target."""
    V: np.ndarray           # the viewer's allowed sample points
    T: np.ndarray           # every target sample point
    allowed: np.ndarray     # (len(T),) in the viewer's front half-space (or all round)
    clear: np.ndarray       # (len(V), len(T)): the segment is clear

    @property
    def seen(self) -> np.ndarray:
        return self.clear.any(axis=0) & self.allowed


def _all_round(hb, moving: bool) -> bool:
    """p.20: 360 degrees when moving, Shrouded or Vigilance (a state or a trait)."""
    return moving or bool(set(hb.states) & ALL_ROUND) or "vigilance" in {t.lower() for t in hb.traits}


def _brute(world, viewer, target, moving=False) -> Brute:
    """Every allowed viewer point x every target point, each segment tested (p.20-21: the
    front half of the viewer's hitbox into its front half-space, unless all round)."""
    vh, th = world.hitbox(viewer), world.hitbox(target)
    V = sight.hitbox_lattice(vh, S.spacing_in, S.inset_in)
    T = sight.hitbox_lattice(th, S.spacing_in, S.inset_in)
    allowed = np.ones(len(T), dtype=bool)
    if not _all_round(vh, moving):
        f, c = vh.facing_vector, np.array([vh.x, vh.y])
        V = V[(V[:, :2] - c) @ f >= -1e-9]
        allowed = (T[:, :2] - c) @ f >= -1e-9
    P0, P1 = np.repeat(V, len(T), axis=0), np.tile(T, (len(V), 1))
    clear = ~_blocked(world, P0, P1, {viewer, target}, near=_near(V, T))
    return Brute(V, T, allowed, clear.reshape(len(V), len(T)))


def _row(points, p) -> int:
    """The index of the point ``p`` among ``points`` (it must be one of them)."""
    d = np.linalg.norm(points - np.asarray(p, dtype=float), axis=1)
    i = int(np.argmin(d))
    assert d[i] < 1e-6, f"{p} is not a sample point ({d[i]:.3g} away)"
    return i


# ------------------------------------------------------------------ one pair, every answer
def _audit(world, a, b, moving=False) -> tuple[str | None, object]:
    """Check every answer for a -> b against the brute force: (the kind of pair checked,
    "clear", "partly" or "hidden", and the ``los`` answer), or (None, None) when a state
    decides (Flying, Engaged, ...)."""
    if sight._exception(world, a, b, moving, S, None) is not None:
        return None, None
    where = f"{a} -> {b}, moving={moving}"
    ref = _brute(world, a, b, moving)
    r = sight.los(world, a, b, moving=moving, cover=False, settings=S)
    assert np.allclose(r.target_points, ref.T), where
    assert (r.target_allowed == ref.allowed).all(), where
    lost, extra = ref.seen & ~r.target_visible, r.target_visible & ~ref.seen
    assert not lost.any() and not extra.any(), f"{where}: {int(lost.sum())} seen points reported hidden, " \
                                               f"{int(extra.sum())} hidden ones reported seen"
    assert r.visible_fraction == pytest.approx(ref.seen.sum() / len(ref.T)), where
    assert r.los == bool(ref.seen.any()), where
    quick = sight.los(world, a, b, moving=moving, fraction=False, cover=False, settings=S)
    assert quick.los == r.los, where
    matrix = sight.los_matrix(world, [a, b], settings=S, moving={a} if moving else ())
    assert matrix[(a, b)] == r.los, where
    for res in (r, quick):
        _check_witness(world, a, b, ref, res, where)
    _check_blocking(world, a, b, ref, r, where)
    hidden = ref.allowed & ~ref.seen
    return ("hidden" if not r.los else ("partly" if hidden.any() else "clear")), r


def _check_witness(world, a, b, ref: Brute, r, where):
    """The witness is a segment between an allowed viewer point and an allowed target
    point, clear when cast here."""
    if not r.los:
        assert r.witness is None, where
        return
    assert r.witness is not None, where
    v, t = (np.asarray(p, dtype=float) for p in r.witness)
    i, j = _row(ref.V, v), _row(ref.T, t)
    assert ref.allowed[j], where
    assert not _blocked(world, v[None], t[None], {a, b})[0], f"{where}: witness {r.witness} is blocked"
    assert ref.clear[i, j], where


def _check_blocking(world, a, b, ref: Brute, r, where):
    """Each named piece, model or Forest blocks some segment to a hidden point; together
    they block the segment from the eye to every hidden point; none when none is hidden."""
    hidden = np.flatnonzero(ref.allowed & ~ref.seen)
    names = set(r.blocking)
    if not len(hidden):
        assert not names, f"{where}: nothing hidden, yet blocking {sorted(names)}"
        return
    assert names, f"{where}: {len(hidden)} points hidden, no blocking piece named"
    forest_ids = {i for ids, _ in _areas(world) for i in ids}
    pieces = {n for n in names if n not in world.models and n not in forest_ids}
    assert pieces <= {p.id for p in world.pieces}, where
    assert not names & {a, b}, where
    P0, P1 = np.repeat(ref.V, len(hidden), axis=0), np.tile(ref.T[hidden], (len(ref.V), 1))
    for n in names:
        if n in world.models:
            hits = _cuts_cylinder(P0, P1, world.hitbox(n))
        elif n in forest_ids:
            polys = [p for ids, p in _areas(world) if n in ids]
            hits = (_crossings(P0, P1, polys) > 0) & _blocked(world, P0, P1, {a, b}, pieces=(), models=())
        else:
            hits = _blocked(world, P0, P1, {a, b}, pieces={n}, models=(), forests=())
        assert hits.any(), f"{where}: {n} is named but blocks no segment to a hidden point"
    eye = np.asarray(r.eye, dtype=float)
    _row(ref.V, eye)
    e0 = np.broadcast_to(eye, (len(hidden), 3)).copy()
    alone = _blocked(world, e0, ref.T[hidden], {a, b}, pieces=pieces, models=names & set(world.models),
                     forests=names & forest_ids)
    assert alone.all(), f"{where}: the named {sorted(names)} leave {int((~alone).sum())} of the eye's " \
                        f"segments to hidden points open, e.g. to {ref.T[hidden][~alone][0]}"


# ------------------------------------------------------------------ the tables
def _shipped(path) -> World:
    return build_world(load_scene(str(path)), str(path))


def _dense() -> World:
    """A generated dense table (engine.synth), two Forest strips across its middle (a line
    through both has no LoS), one model made Large."""
    sc = dense_scene(seed=11, mounds=3, grid=14, walls=40, trunks=12, models=8, table=20.0)
    strip = ((-1.2, -0.3), (1.2, -0.3), (1.2, 0.3), (-1.2, 0.3))
    woods = tuple(TerrainSpec(f"wood-{k}", "prism", (15.5 + k, y, 0.0), points=strip, height=0.01,
                              tags=frozenset({"area", "forest"})) for k, y in enumerate((8.7, 10.2)))
    models = list(sc.models)
    models[0] = dataclasses.replace(models[0], base_mm=40, size="L")
    return World(dataclasses.replace(sc, terrain=sc.terrain + woods, models=tuple(models)))


def _pairs(world, rng, n):
    ids = world.model_ids()
    out = []
    while len(out) < n:
        a, b = rng.choice(len(ids), 2, replace=False)
        out.append((ids[a], ids[b]))
    return out


@contextlib.contextmanager
def _with_states(world, mid, extra):
    """``mid`` has the ``extra`` states too, then its own again."""
    old = world.hitbox(mid).states
    world.set_states(mid, set(old) | set(extra))
    try:
        yield
    finally:
        world.set_states(mid, old)


def _audit_table(world, seed) -> dict:
    """The sample of one table: plain pairs, moving viewers, a Crouched viewer and target,
    every Large (or larger) viewer. Returns how many pairs of each kind were checked."""
    rng = np.random.default_rng(seed)
    kinds: dict = {}

    def tally(got):
        k = got[0]
        if k is not None:
            kinds[k] = kinds.get(k, 0) + 1
    for a, b in _pairs(world, rng, 6):
        tally(_audit(world, a, b))
    for a, b in _pairs(world, rng, 3):
        tally(_audit(world, a, b, moving=True))
    for who, (a, b) in zip((0, 1, 0, 1), _pairs(world, rng, 4)):
        with _with_states(world, (a, b)[who], {"Crouched"}):
            tally(_audit(world, a, b))
    large = [m for m in world.model_ids() if world.hitbox(m).radius >= 20 / 25.4 - 1e-9]
    for a in large[:2]:
        others = [m for m in world.model_ids() if m != a]
        for b in rng.choice(others, min(3, len(others)), replace=False):
            tally(_audit(world, a, str(b)))
    return kinds


@pytest.mark.parametrize("path", SCENES, ids=lambda p: p.stem)
def test_every_answer_on_a_shipped_scene_equals_casting_every_segment(path):
    kinds = _audit_table(_shipped(path), seed=len(path.stem))
    assert sum(kinds.values()) >= 8, kinds


def test_every_answer_on_a_dense_table_with_forests_equals_casting_every_segment():
    w = _dense()
    kinds = _audit_table(w, seed=5)
    # the sample holds partly hidden pairs (proofs and rays both at work) and the two woods matter
    assert kinds.get("partly", 0) >= 2, kinds
    red = [m for m in w.model_ids() if w.hitbox(m).side == "red"]
    blue = [m for m in w.model_ids() if w.hitbox(m).side == "blue"]
    woods = 0
    for a in red[:3]:
        for b in blue[:3]:
            kind, r = _audit(w, a, b)
            woods += kind == "partly" and "wood-0" in r.blocking
    assert woods, "no pair partly hidden by the two woods: the sample misses the Forest rule"


# ------------------------------------------------------------------ paths
def _path_points(world, path, d):
    """The base-bottom centre at distance ``d`` along the polyline ``path`` (flat table)."""
    seg = np.linalg.norm(np.diff(path[:, :2], axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    k = int(np.clip(np.searchsorted(cum, d, side="right") - 1, 0, len(path) - 2))
    u = (d - cum[k]) / seg[k] if seg[k] > 0 else 0.0
    return path[k] + (path[k + 1] - path[k]) * u, cum[-1]


def _sees_at(world, observer, mover, path, d, ask=False) -> bool:
    """Brute force: the observer sees the mover placed ``d`` along the path (facing kept).
    ``ask``: ``los`` there must find the same visible set (its answer remembered from the
    last place, a nearby one, is proved again)."""
    p, _ = _path_points(world, path, d)
    hb = world.hitbox(mover)
    old = (hb.x, hb.y, hb.z)
    world.move_model(mover, p[0], p[1], p[2])
    try:
        ref = _brute(world, observer, mover)
        if ask:
            r = sight.los(world, observer, mover, cover=False, settings=S_PATH)
            assert (r.target_visible == ref.seen).all(), (observer, d)
        return bool(ref.seen.any())
    finally:
        world.move_model(mover, *old)


def _audit_path(world, mover, path, observers) -> int:
    """Check ``los_along_path`` against the brute force at every sample and around its first
    and last points; the number of first or last points inside the path (refined ones)."""
    path = np.asarray(path, dtype=float)
    total = float(np.linalg.norm(np.diff(path[:, :2], axis=0), axis=1).sum())
    grid = np.linspace(0.0, total, max(1, math.ceil(total / S_PATH.path_step_in)) + 1)
    every = sight.los_along_path(world, mover, path, observers, settings=S_PATH, every_sample=True)
    lazy = sight.los_along_path(world, mover, path, observers, settings=S_PATH)
    refined = 0
    refine = S_PATH.path_refine_in
    for pe, pl in zip(every, lazy):
        o = pe.observer
        yes = np.array([_sees_at(world, o, mover, path, d, ask=k % 2 == 0) for k, d in enumerate(grid)])
        want = [tuple(_path_points(world, path, d)[0]) for d in grid[yes]]
        assert np.allclose(np.reshape(pe.seen, (-1, 3)), np.reshape(want, (-1, 3))), (o, grid[yes])
        assert pe.had_los == pl.had_los == bool(yes.any()), o
        # the samples skipped without every_sample never move the first or the last point
        assert (pe.first_distance, pe.last_distance) == (pl.first_distance, pl.last_distance), o
        if not yes.any():
            assert pe.first is None and pe.last is None, o
            continue
        fd, ld = pe.first_distance, pe.last_distance
        assert np.allclose(pe.first, _path_points(world, path, fd)[0]), o
        assert _sees_at(world, o, mover, path, fd) and _sees_at(world, o, mover, path, ld), (o, fd, ld)
        # within refine_in before the first point (after the last one) the brute force finds
        # a place with no LoS: the change lies within the stated refinement
        if fd > 1e-9:
            refined += 1
            before = np.linspace(max(fd - refine, 0.0), fd, 9)[:-1]
            assert not all(_sees_at(world, o, mover, path, d) for d in before), (o, fd)
            assert fd > grid[np.argmax(yes)] - S_PATH.path_step_in - 1e-9 and fd <= grid[np.argmax(yes)] + 1e-9, (o, fd)
        if ld < total - 1e-9:
            refined += 1
            after = np.linspace(ld, min(ld + refine, total), 9)[1:]
            assert not all(_sees_at(world, o, mover, path, d) for d in after), (o, ld)
            last = grid[len(yes) - 1 - np.argmax(yes[::-1])]
            assert last - 1e-9 <= ld < last + S_PATH.path_step_in + 1e-9, (o, ld)
    return refined


def test_los_along_a_path_through_an_ally_equals_the_brute_force_per_sample():
    """warbands.yaml: red-scout walks west through its ally red-shieldbearer (their bases
    overlap), then north-west past the rubble to behind the old wall; two blue models watch."""
    w = _shipped(next(p for p in SCENES if p.stem == "warbands"))
    path = [(17.0, 4.0, 0.0), (15.0, 4.2, 0.0), (13.0, 9.0, 0.0), (9.0, 10.6, 0.0)]
    assert _audit_path(w, "red-scout", path, ["blue-warden", "blue-marksman"]) >= 2


def test_los_along_a_path_on_the_dense_table_equals_the_brute_force_per_sample():
    """The dense table: red-3 walks through its ally red-2, then 3.5" south among the walls;
    three blue models watch (one sees it only from partway, two lose it)."""
    w = _dense()
    hb, ally = w.hitbox("red-3"), w.hitbox("red-2")
    path = [(hb.x, hb.y, 0.0), (ally.x, ally.y, 0.0), (ally.x, ally.y - 3.5, 0.0)]
    assert _audit_path(w, "red-3", path, ["blue-1", "blue-2", "blue-3"]) >= 3
