"""Line of sight by the rulebook (p.20-21): any point of the viewer's hitbox to
any point of the target's, nothing in between.

Method
------
* Both hitboxes are sampled with a hexagonal lattice on the cylinder's side,
  top and bottom (``hitbox_lattice``). Its covering radius is half of
  ``settings.patch_mm``, so every ``patch_mm`` x ``patch_mm`` square of the
  surface, in any orientation, holds a sample point (3 mm by default: a Medium
  hitbox has ~1100 points).
* Arcs: the viewer uses only the points of the front half of its hitbox, and
  only target points in its front half-space (360 degrees when moving,
  Shrouded or Vigilance).
* A segment is clear when it meets no terrain triangle (Embree, one batched
  call per round for every query in flight), enters no other model's hitbox
  (allies included) and crosses fewer than ``forest_limit`` Forest areas.
* Exact shortcuts, never a coarser lattice:
  - obstacles are gathered per pair: pieces (and other models, and Forest
    areas) whose bounding sphere meets the capsule that holds every segment
    between the two hitboxes; with none, every segment is clear, no ray cast;
  - a yes/no question first casts a probe (16 spread target points x the 2
    viewer points facing the target);
  - before the descent, target points hidden by tall vertical prisms seen
    from above are decided together (``engine.sight_columns``: a prism
    spanning the heights of both hitboxes blocks every segment whose shadow
    on the table crosses its footprint, so whole columns of sample points are
    decided at once, the union of many prisms taken in 2D);
  - then a descent over pairs of k-d tree nodes of the two lattices: a
    "bundle" is every segment between two boxes of sample points. It is
    clear when a face plane of each nearby obstacle's convex hull separates
    it (all its target points are seen); it is hidden when every segment
    between the boxes' corners passes through one convex obstacle (a convex
    piece, another model's inscribed prism, a box inside a heightfield): the
    segments meeting a convex body form a convex set in each endpoint, so
    the corners prove it for all. Two convex Forest areas crossed this way
    hide it too. Undecided bundles are split (the larger box; both boxes while
    the frontier is small, ``_SPLIT_BOTH``); bundles of at most
    ``_RAY_BUNDLE`` sample pairs are cast instead (one viewer point per
    target point first, then the rest), all queries' rays in one Embree
    call per stage.
* Proof details: a k-d node's corners are a convex polytope holding its points
  (a leaf's own points; a patch of the curved side: a prism over a polygon
  circumscribing its arc; else its box); the target side of a bundle holds
  only its points still undecided; each bundle carries the obstacles its
  parent's segments did not all miss (children never test the others again);
  a bundle whose centre segment passes through a convex solid skips the clear
  test; each bundle's largest hiding candidate is tried first.
* The yes/no question stops at the first clear segment (or when the minimum
  visible area is reached); the fraction resolves every target point. A
  fraction question first casts four witness rounds (one segment per open
  target point: the two viewer points facing the target, then witnesses of
  seen neighbours in the lattice's k-d groups), so the descent mostly deals
  with hidden points.
* Reuse (never a changed answer: every seed is proved again): ``los``
  remembers its last answer per pair (per target lattice point, a viewer
  lattice point that saw it; the descent's final partition of the pairs, with
  the obstacle that hid each bundle) and the next question for the pair tries
  those witnesses first and starts its descent from that partition: a bundle
  is first tried against the obstacle that hid it there alone (when the new
  question has that obstacle too), a bundle that went to rays goes to rays
  (``forget()`` drops it). ``los_along_path`` runs its samples in two waves,
  the second wave's descents (and each refinement point's) starting from a
  nearby hidden sample's partition.
* Batching (the same answers, fewer Python passes): ``los_matrix`` and
  ``los_along_path`` probe ALL their pairs (pairs of models; path points x
  observers) in one Embree call plus one vectorised model test
  (``_probe_batch``), then try the root-bundle hiding proof for all the
  undecided ones at once (``_hidden_batch``); only what is left becomes a
  query. The queries' bundle descents run together (``_descend_many``: one
  numpy pass per level). A yes/no query also casts 512 random allowed pairs
  before the descent, half of them between the upper points of both hitboxes
  (for the matrix and the path: all queries' in one call, before their
  obstacles are gathered, then the column proofs of the pairs still open, one
  call per viewer: ``_settle``), and its leaf segments shuffled, in growing
  chunks.
  ``los`` for yes/no casts the probe before gathering the obstacles, and
  tries the root hiding proof before the probe when terrain cuts the segment
  between the two centres.

All lengths are inches; points are (x, y, z) with z up.
"""
from __future__ import annotations

import copy
import functools
import math
import weakref
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from engine.sight_settings import SightSettings, default_settings
from engine.world import plan_footprint

MM2_PER_IN2 = 25.4 * 25.4
_SHRINK = 1e-4          # proofs use obstacles shrunk by this (inches): no grazing contact counts
_ARC_TOL = 1e-9
_INSIDE = 1e-4         # inches: a target point this far inside another model's hitbox is hidden
_INSIDE_MASKS: dict = {}  # (placed target lattice, models) -> per model that may hold points, its mask


# ---------------------------------------------------------------------------- lattice
@dataclass(frozen=True)
class _Lattice:
    """A hitbox lattice in the model's local frame (base-bottom centre at the origin, +x = facing)."""
    points: np.ndarray      # (n, 3)
    part: np.ndarray        # (n,) 0 side, 1 top, 2 bottom
    weight: np.ndarray      # (n,) surface area each point stands for, in^2
    order: np.ndarray       # (n,) a spread-out order (farthest-point sampling)
    covering_radius: float  # inches, in surface distance


@functools.lru_cache(maxsize=128)
def _local_lattice(radius: float, height: float, spacing: float, inset: float) -> _Lattice:
    # covering radius R: every disc of radius R on the surface holds a point;
    # a spacing x spacing square contains its inscribed disc of radius spacing/2.
    R = 0.5 * spacing * 0.999
    a = R * math.sqrt(3.0)               # hexagonal lattice with covering radius a/sqrt(3)
    row = a * math.sqrt(3.0) / 2.0
    # side: unrolled (arc length, z); columns and rows only get denser than a, row
    nu = max(6, math.ceil(2 * math.pi * radius / a))
    nz = max(2, math.ceil(height / row) + 1)
    zs = np.linspace(0.0, height, nz)
    i, j = np.meshgrid(np.arange(nz), np.arange(nu), indexing="ij")
    theta = (j + 0.5 * (i % 2)) * (2 * math.pi / nu)
    rs = max(radius - inset, radius * 0.5)
    z = np.clip(zs[i], inset, height - inset) if height > 2 * inset else np.full(i.shape, height / 2)
    side = np.column_stack([rs * np.cos(theta).ravel(), rs * np.sin(theta).ravel(), z.ravel()])
    # discs: the plane hexagonal lattice clipped to the disc
    k = math.ceil(radius / row) + 1
    m = math.ceil(radius / a) + 1
    ii, jj = np.meshgrid(np.arange(-k, k + 1), np.arange(-m, m + 1), indexing="ij")
    dx = (jj + 0.5 * (ii % 2)) * a
    dy = ii * row
    # keep lattice points up to R outside the rim and project those onto it:
    # the projection onto the disc never moves a point farther from a point
    # inside, so the covering radius stays R right up to the rim.
    keep = np.hypot(dx, dy) <= radius + R
    disc = np.column_stack([dx[keep], dy[keep]])
    dr0 = np.linalg.norm(disc, axis=1)
    disc = disc * np.where(dr0 > radius, radius / np.maximum(dr0, 1e-12), 1.0)[:, None]
    disc = np.unique(np.round(disc, 12), axis=0)
    dr = np.linalg.norm(disc, axis=1)
    scale = np.where(dr > rs, rs / np.maximum(dr, 1e-12), 1.0)
    disc = disc * scale[:, None]
    ztop = height - inset if height > 2 * inset else height / 2
    zbot = inset if height > 2 * inset else height / 2
    top = np.column_stack([disc, np.full(len(disc), ztop)])
    bottom = np.column_stack([disc, np.full(len(disc), zbot)])
    points = np.vstack([side, top, bottom])
    part = np.concatenate([np.zeros(len(side), np.int8), np.ones(len(top), np.int8),
                           np.full(len(bottom), 2, np.int8)])
    side_area = 2 * math.pi * radius * height
    disc_area = math.pi * radius * radius
    weight = np.concatenate([np.full(len(side), side_area / len(side)),
                             np.full(len(top), disc_area / len(top)),
                             np.full(len(bottom), disc_area / len(bottom))])
    # farthest-point order, starting at the front top rim
    start = int(np.argmax(points[:, 0] + 10 * points[:, 2] * (part == 0)))
    n = len(points)
    order = np.empty(n, dtype=np.int64)
    dmin = np.full(n, np.inf)
    cur = start
    for s in range(n):
        order[s] = cur
        dmin = np.minimum(dmin, np.einsum("ij,ij->i", points - points[cur], points - points[cur]))
        dmin[cur] = -1.0
        cur = int(np.argmax(dmin))
    for arr in (points, part, weight, order):
        arr.setflags(write=False)
    return _Lattice(points, part, weight, order, R)


def _rotate(local: np.ndarray, facing_deg: float) -> np.ndarray:
    c, s = math.cos(math.radians(facing_deg)), math.sin(math.radians(facing_deg))
    out = np.empty_like(local)
    out[:, 0] = local[:, 0] * c - local[:, 1] * s
    out[:, 1] = local[:, 0] * s + local[:, 1] * c
    out[:, 2] = local[:, 2]
    return out


_LATTICE_FOR: dict = {}


def _lattice_for(hb, settings: SightSettings) -> _Lattice:
    key = (hb.radius, hb.height, settings.spacing_in, settings.inset_in)
    got = _LATTICE_FOR.get(key)
    if got is None:
        if len(_LATTICE_FOR) >= 256:
            _LATTICE_FOR.clear()
        got = _LATTICE_FOR[key] = _local_lattice(round(float(hb.radius), 9), round(float(hb.height), 9),
                                                 round(settings.spacing_in, 9), round(settings.inset_in, 9))
    return got


def hitbox_lattice(hitbox, spacing: float | None = None, inset: float = 0.0) -> np.ndarray:
    """Sample points (n, 3), inches, on a hitbox's side, top and bottom.

    Any ``spacing`` x ``spacing`` square of the surface (in any orientation)
    holds at least one point (default: the settings' 3 mm). ``inset`` moves the
    points that far inside the cylinder. The lattice turns with the facing.
    """
    if spacing is None:
        spacing = default_settings().spacing_in
    lat = _local_lattice(round(float(hitbox.radius), 9), round(float(hitbox.height), 9),
                         round(float(spacing), 9), round(float(inset), 9))
    return _rotate(lat.points, hitbox.facing) + np.array([hitbox.x, hitbox.y, hitbox.z])


# ------------------------------------------------------------------------- polytopes
def _polytope(hb, half: bool, inset: float) -> np.ndarray:
    """Vertices of a prism holding the hitbox (or its front half), world coordinates."""
    r = float(hb.radius)
    if half:
        ends = np.radians(np.linspace(-90.0, 90.0, 5))
        mids = (ends[:-1] + ends[1:]) / 2
        rr = r / math.cos(math.radians(22.5))
        xy = np.vstack([np.column_stack([r * np.cos(ends), r * np.sin(ends)]),
                        np.column_stack([rr * np.cos(mids), rr * np.sin(mids)])])
    else:
        ang = (np.arange(8) + 0.5) * (2 * math.pi / 8)
        rr = r / math.cos(math.pi / 8)
        xy = np.column_stack([rr * np.cos(ang), rr * np.sin(ang)])
    lo, hi = (inset, hb.height - inset) if hb.height > 2 * inset else (hb.height / 2, hb.height / 2)
    local = np.vstack([np.column_stack([xy, np.full(len(xy), lo)]), np.column_stack([xy, np.full(len(xy), hi)])])
    return _rotate(local, hb.facing) + np.array([hb.x, hb.y, hb.z])


def _cylinder_planes(hb, sections: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """H-representation of a prism inscribed in a hitbox (inside it): normals (m,3), offsets (m,)."""
    ang = (np.arange(sections) + 0.5) * (2 * math.pi / sections)
    n = np.column_stack([np.cos(ang), np.sin(ang), np.zeros(sections)])
    d = n[:, :2] @ np.array([hb.x, hb.y]) + hb.radius * math.cos(math.pi / sections)
    n = np.vstack([n, [0, 0, 1], [0, 0, -1]])
    d = np.concatenate([d, [hb.z + hb.height, -hb.z]])
    return n, d


def _through(p0: np.ndarray, p1: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(n,) bool: the segment p0->p1 meets the convex body {x : normals @ x <= offsets}
    in an interval longer than 1e-9 of its length."""
    d = p1 - p0
    a = p0 @ normals.T - offsets[None, :]       # inside where a + s b <= 0
    b = d @ normals.T
    par = np.abs(b) <= 1e-14
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(par, 0.0, -a / np.where(par, 1.0, b))
    enter = np.where(~par & (b < 0), s, -np.inf).max(axis=1)
    leave = np.where(~par & (b > 0), s, np.inf).min(axis=1)
    lo = np.maximum(enter, 0.0)
    hi = np.minimum(leave, 1.0)
    out_par = (par & (a > 0)).any(axis=1)
    return (hi - lo > 1e-9) & ~out_par


_EACH_CHUNK = 65536      # elements (rows x segments x planes) per block in ``_through_each``


def _through_each(p0: np.ndarray, p1: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """Like ``_through`` with one convex body per row: p0, p1 (p, s, 3); normals (p, m, 3);
    offsets (p, m) (rows padded with zero normals and offset 1e30). Returns (p, s) bool."""
    p, s_ = p0.shape[0], p0.shape[1]
    if s_ == 1:
        # one segment per row (the tests of the segment between two boxes' centres): (p, m)
        # arrays, no transposes; the same formula
        q0 = p0[:, 0]
        a = np.einsum("pmj,pj->pm", normals, q0) - offsets
        b = np.einsum("pmj,pj->pm", normals, p1[:, 0] - q0)
        neg, pos = b < -1e-14, b > 1e-14
        with np.errstate(divide="ignore", invalid="ignore"):
            sv = -a / b
        enter = np.where(neg, sv, -np.inf).max(axis=1)
        leave = np.where(pos, sv, np.inf).min(axis=1)
        out_par = ((a > 0) & ~neg & ~pos).any(axis=1)
        return ((np.minimum(leave, 1.0) - np.maximum(enter, 0.0) > 1e-9) & ~out_par)[:, None]
    step = max(1, _EACH_CHUNK // max(s_ * normals.shape[1], 1))
    if step < p:      # row blocks: the temporaries stay in cache (rows are independent)
        return np.concatenate([_through_each(p0[i:i + step], p1[i:i + step], normals[i:i + step], offsets[i:i + step])
                               for i in range(0, p, step)])
    # planes along the first axis, (m, p, s): the reductions over the planes run over contiguous
    # (p, s) blocks (a reduction over a short last axis is several times slower)
    a = np.matmul(normals, p0.transpose(0, 2, 1))            # (p, m, s)
    a -= offsets[:, :, None]
    a = np.ascontiguousarray(a.transpose(1, 0, 2))
    b = np.ascontiguousarray(np.matmul(normals, (p1 - p0).transpose(0, 2, 1)).transpose(1, 0, 2))
    # |b| <= 1e-14: parallel to the plane (as in ``_through``); b < -1e-14 entering, b > 1e-14 leaving
    neg = b < -1e-14
    pos = b > 1e-14
    with np.errstate(divide="ignore", invalid="ignore"):
        sv = np.negative(a)
        np.divide(sv, b, out=sv)
    enter = np.where(neg, sv, -np.inf).max(axis=0)
    np.copyto(sv, np.inf, where=~pos)
    leave = sv.min(axis=0)
    lo = np.maximum(enter, 0.0)
    hi = np.minimum(leave, 1.0)
    np.logical_or(neg, pos, out=neg)
    out_par = ((a > 0) > neg).any(axis=0)
    return (hi - lo > 1e-9) & ~out_par


def _corners_through(Vc, Tc, N, D) -> np.ndarray:
    """(p,) bool: every segment between the corners Vc[i] (a, 3) and Tc[i] (b, 3) (convex sets
    holding the two nodes' points) passes through the convex body {x : N[i] @ x <= D[i]}
    (``_through_each``). The corner pairs in stages, each on the rows every earlier stage
    passed (a row fails at its first missing segment, so the answer is that of all a x b):
    the extreme corners' four pairs, then the rest of the 2a pairs (corner i with target
    corners i and b-1-i), then the rest."""
    out = np.zeros(len(Vc), dtype=bool)
    if not len(Vc):
        return out
    live = np.arange(len(Vc))
    stages = _corner_stages(Vc.shape[1], Tc.shape[1])
    if len(Vc) * Vc.shape[1] * Tc.shape[1] * N.shape[1] <= _ONE_STAGE:
        stages = stages[-1:] if len(stages) == 1 else (_corner_stages_all(Vc.shape[1], Tc.shape[1]),)
    for vi, ti in stages:
        ok = _through_each(Vc[live][:, vi], Tc[live][:, ti], N[live], D[live]).all(axis=1)
        live = live[ok]
        if not len(live):
            return out
    out[live] = True
    return out


_ONE_STAGE = 4096     # elements (rows x corner pairs x planes) up to which one stage is cheaper


@functools.lru_cache(maxsize=64)
def _corner_stages_all(a: int, b: int) -> tuple:
    """Every (viewer corner, target corner) pair of ``_corners_through`` in one stage."""
    vi, ti = np.meshgrid(np.arange(a), np.arange(b), indexing="ij")
    return vi.ravel(), ti.ravel()


@functools.lru_cache(maxsize=64)
def _corner_stages(a: int, b: int) -> tuple:
    """The corner pairs of ``_corners_through`` as stages of (viewer indices, target indices),
    together every one of the a x b pairs exactly once."""
    i = np.arange(a)
    first = {(0, 0), (0, b - 1), (a - 1, 0), (a - 1, b - 1)}
    second = set(zip(i.tolist(), (i % b).tolist())) | set(zip(i.tolist(), ((b - 1 - i) % b).tolist()))
    second -= first
    rest = {(x, y) for x in range(a) for y in range(b)} - first - second
    out = []
    for st in (first, second, rest):
        if st:
            pr = np.array(sorted(st), dtype=np.int64)
            out.append((pr[:, 0], pr[:, 1]))
    return tuple(out)


def _pad_planes(obstacles, buckets=(8, 20, 64)) -> list:
    """Obstacles' planes stacked by size: [(members (k,) bool, local index (k,), N (kb, m, 3),
    D (kb, m))], padded with planes every point satisfies (zero normal, offset 1e30)."""
    out = []
    sizes = np.array([len(o[2]) for o in obstacles], dtype=np.int64)
    lo = 0
    for hi in (*buckets, 10 ** 9):
        members = (sizes > lo) & (sizes <= hi)
        lo = hi
        idx = np.nonzero(members)[0]
        if not len(idx):
            continue
        m = int(sizes[idx].max())
        N = np.zeros((len(idx), m, 3))
        D = np.full((len(idx), m), 1e30)
        for j, i in enumerate(idx):
            N[j, :sizes[i]] = obstacles[i][1]
            D[j, :sizes[i]] = obstacles[i][2]
        local = np.full(len(obstacles), -1, dtype=np.int64)
        local[idx] = np.arange(len(idx))
        out.append((members, local, N, D))
    return out


def _outside(points: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    return (points @ normals.T - offsets[None, :] > 1e-9).any(axis=1)


# ---------------------------------------------------------------------- static cache
@dataclass
class _PieceInfo:
    index: int
    id: str
    lo: np.ndarray
    hi: np.ndarray
    normals: np.ndarray          # convex hull planes
    offsets: np.ndarray
    convex: bool
    inner: list = field(default_factory=list)    # convex solids inside the piece: (N, D, centre, radius)


@dataclass
class _Forest:
    id: str
    edges: np.ndarray            # (e, 2, 2)
    zlo: float
    zhi: float
    polygon: object              # shapely
    members: tuple = ()          # a wood of several pieces: the pieces (each its own _Forest)

    @property
    def ids(self) -> tuple[str, ...]:
        """The pieces of this area (one, or every piece of a wood)."""
        return tuple(m.id for m in self.members) or (self.id,)


def _woods(st: "_Static", settings: SightSettings) -> list:
    """The Forest areas: pieces whose footprints overlap (``forest_pieces_join``: "touching"
    or "overlapping") or share an edge ("touching") form one area, a wood; a line through
    it crosses one area however many pieces build it (docs/rulings.md). Kept per join rule."""
    join = settings.forest_pieces_join
    got = st.woods.get(join)
    if got is not None:
        return got
    from shapely.ops import unary_union

    def joined(a, b) -> bool:
        if join == "never" or not a.intersects(b):
            return False
        if join == "overlapping":
            return a.intersection(b).area > 1e-9
        return unary_union([a, b]).geom_type == "Polygon"      # more than a corner in common

    groups = [[f] for f in st.forests]
    polys = [f.polygon for f in st.forests]
    i = 0
    while i < len(groups):
        j = i + 1
        while j < len(groups):
            if joined(polys[i], polys[j]):
                groups[i] += groups.pop(j)
                polys[i] = unary_union([polys[i], polys.pop(j)])
                j = i + 1               # the wood grew: look again at the pieces passed over
            else:
                j += 1
        i += 1
    out = [g[0] if len(g) == 1 else
           _Forest(g[0].id, _rings(p), min(f.zlo for f in g), max(f.zhi for f in g), p, tuple(g))
           for g, p in zip(groups, polys)]
    st.woods[join] = out
    return out


@dataclass
class _Static:
    pieces: list                 # solid pieces except the table
    lo: np.ndarray               # (p, 3)
    hi: np.ndarray
    centre: np.ndarray           # (p, 3) bounding spheres
    radius: np.ndarray
    forests: list                # the Forest pieces (the areas: ``_woods``)
    dark: list
    woods: dict = field(default_factory=dict)
    touched: dict = field(default_factory=dict)    # (kind, x, y, radius) -> the areas a base meets


_STATIC: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _hull_planes(mesh):
    try:
        hull = mesh.convex_hull
        n = np.asarray(hull.face_normals, dtype=float)
        d = np.einsum("ij,ij->i", n, np.asarray(hull.triangles, dtype=float)[:, 0])
        key = np.round(np.column_stack([n, d]), 7)
        _, idx = np.unique(key, axis=0, return_index=True)
        convex = bool(mesh.is_watertight) and abs(hull.volume - mesh.volume) <= 1e-6 * max(hull.volume, 1e-9)
        return n[idx], d[idx], convex
    except Exception:       # a degenerate mesh: no planes, never convex
        return np.zeros((0, 3)), np.zeros(0), False


def _box_planes(corners_local: np.ndarray, turn: float, at) -> tuple:
    """H-representation and bounding sphere of a box given by (lo, hi) local corners, turned about z and moved."""
    lo, hi = corners_local
    c, s_ = math.cos(math.radians(turn)), math.sin(math.radians(turn))
    ux, uy = np.array([c, s_, 0.0]), np.array([-s_, c, 0.0])
    uz = np.array([0.0, 0.0, 1.0])
    at = np.asarray(at, dtype=float)
    N, D = [], []
    for u, a, b in ((ux, lo[0], hi[0]), (uy, lo[1], hi[1]), (uz, lo[2], hi[2])):
        off = float(u @ at)
        N += [u, -u]
        D += [b + off, -(a + off)]
    mid = (lo + hi) / 2
    centre = at + mid[0] * ux + mid[1] * uy + mid[2] * uz
    return np.array(N), np.array(D), centre, float(np.linalg.norm(hi - lo) / 2)


def _heightfield_boxes(spec, splits=(3, 6), min_height: float = 0.1) -> list:
    """Boxes inside a heightfield's solid: over each block of its grid, from its bottom up to the
    lowest height of the block (the surface is piecewise linear, so it is never lower)."""
    try:
        hz = np.asarray(spec.heights, dtype=float)
        w, d = float(spec.size[0]), float(spec.size[1])
    except Exception:
        return []
    rows, cols = hz.shape
    xs = np.linspace(-w / 2, w / 2, cols)
    ys = np.linspace(-d / 2, d / 2, rows)
    out = []
    for k in splits:
        ri = np.unique(np.linspace(0, rows - 1, k + 1).round().astype(int))
        ci = np.unique(np.linspace(0, cols - 1, k + 1).round().astype(int))
        for a, b in zip(ri[:-1], ri[1:]):
            for e, f in zip(ci[:-1], ci[1:]):
                top = float(hz[a:b + 1, e:f + 1].min())
                if top < min_height:
                    continue
                box = np.array([[xs[e], ys[a], 0.0], [xs[f], ys[b], top]])
                out.append(_box_planes(box, spec.turn, spec.at))
    # tiers: the largest rectangle of grid vertices at least z high, under z
    hmax = float(hz.max())
    for frac in (0.3, 0.5, 0.7, 0.85, 0.95):
        z = hmax * frac
        if z < min_height:
            continue
        rect = _largest_rectangle(hz >= z)
        if rect is None:
            continue
        a, b, e, f = rect
        if a == b or e == f:
            continue
        box = np.array([[xs[e], ys[a], 0.0], [xs[f], ys[b], z]])
        out.append(_box_planes(box, spec.turn, spec.at))
    return out


def _largest_rectangle(mask: np.ndarray):
    """(r0, r1, c0, c1) inclusive of the largest all-True rectangle of a boolean grid, or None."""
    rows, cols = mask.shape
    heights = np.zeros(cols, dtype=int)
    best, out = 0, None
    for r in range(rows):
        heights = np.where(mask[r], heights + 1, 0)
        stack: list[int] = []
        for c in range(cols + 1):
            h = heights[c] if c < cols else 0
            while stack and heights[stack[-1]] >= h:
                top = stack.pop()
                left = stack[-1] + 1 if stack else 0
                area = int(heights[top]) * (c - left)
                if area > best and heights[top] > 0:
                    best, out = area, (r - int(heights[top]) + 1, r, left, c - 1)
            stack.append(c)
    return out


def _rings(poly) -> np.ndarray:
    geoms = getattr(poly, "geoms", [poly])
    edges = []
    for g in geoms:
        for ring in ([g.exterior, *g.interiors] if hasattr(g, "exterior") else []):   # (no plan area: no ring)
            c = np.asarray(ring.coords)[:, :2]
            edges.append(np.stack([c[:-1], c[1:]], axis=1))
    return np.concatenate(edges) if edges else np.zeros((0, 2, 2))


_DOP = np.array([[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0], [1, -1, 0], [1, 0, 1], [1, 0, -1],
                 [0, 1, 1], [0, 1, -1], [1, 1, 1], [1, 1, -1], [1, -1, 1], [1, -1, -1]], dtype=float)
_DOP = np.vstack([_DOP, -_DOP]) / np.linalg.norm(np.vstack([_DOP, -_DOP]), axis=1, keepdims=True)
_DOP_ABOVE = 32      # hulls with more planes are replaced by their 26-DOP in clear proofs


def _clear_planes(info: "_PieceInfo") -> tuple[np.ndarray, np.ndarray]:
    """The planes clear proofs use for a piece: its convex hull's, or for a hull of more than
    ``_DOP_ABOVE`` faces the 26-DOP around it (a convex superset: a bundle one of its planes
    separates misses the piece; fewer planes, cheaper tests; proofs only, never answers)."""
    got = getattr(info, "_clear", None)
    if got is not None:
        return got
    if len(info.offsets) <= _DOP_ABOVE:
        got = (info.normals, info.offsets)
    else:
        v = info.vertices            # the hull's support in each direction is the vertices' max
        got = (_DOP.copy(), (v @ _DOP.T).max(axis=0) + 1e-9)
    info._clear = got
    return got


def _static(world) -> _Static:
    st = _STATIC.get(world)
    if st is not None:
        return st
    infos, forests, dark = [], [], []
    for p in world.pieces:
        if p.id == "table" and p.spec is None:
            continue
        if p.solid:
            n, d, convex = _hull_planes(p.mesh)
            lo, hi = np.asarray(p.mesh.bounds, dtype=float)
            inner = _heightfield_boxes(p.spec) if (p.spec is not None and p.spec.shape == "heightfield") else []
            infos.append(_PieceInfo(p.index, p.id, lo, hi, n, d, convex, inner))
            infos[-1].vertices = np.asarray(p.mesh.vertices, dtype=float)
        elif "forest" in p.tags or "dark" in p.tags:
            fp = plan_footprint(p.mesh)
            lo, hi = np.asarray(p.mesh.bounds, dtype=float)
            f = _Forest(p.id, _rings(fp), float(lo[2]), float(hi[2]), fp)
            if "forest" in p.tags:
                forests.append(f)
            if "dark" in p.tags:
                dark.append(f)
    lo = np.array([i.lo for i in infos]).reshape(-1, 3)
    hi = np.array([i.hi for i in infos]).reshape(-1, 3)
    st = _Static(infos, lo, hi, (lo + hi) / 2, np.linalg.norm(hi - lo, axis=1) / 2, forests, dark)
    _STATIC[world] = st
    return st


def forest_areas(world, settings: SightSettings | None = None) -> list[tuple[str, ...]]:
    """The Forest areas of the table, each as the ids of the pieces that build it (a wood of
    overlapping pieces is one area; ``forest_pieces_join``)."""
    return [f.ids for f in _woods(_static(world), settings or default_settings())]


# --------------------------------------------------------------------- 2D forests
def _points_in_edges(p: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Crossing-number point-in-polygon: p (n,2), edges (e,2,2) -> (n,) bool."""
    a, b = edges[None, :, 0, :], edges[None, :, 1, :]
    px, py = p[:, None, 0], p[:, None, 1]
    cond = (a[..., 1] > py) != (b[..., 1] > py)
    with np.errstate(divide="ignore", invalid="ignore"):
        xint = a[..., 0] + (py - a[..., 1]) * (b[..., 0] - a[..., 0]) / (b[..., 1] - a[..., 1])
    return (np.count_nonzero(cond & (px < xint), axis=1) % 2) == 1


def _segments_cross_edges(p0: np.ndarray, p1: np.ndarray, edges: np.ndarray) -> np.ndarray:
    a, b = edges[None, :, 0, :], edges[None, :, 1, :]
    q0, q1 = p0[:, None, :], p1[:, None, :]

    def orient(u, v, w):
        return (v[..., 0] - u[..., 0]) * (w[..., 1] - u[..., 1]) - (v[..., 1] - u[..., 1]) * (w[..., 0] - u[..., 0])
    d1, d2 = orient(q0, q1, a), orient(q0, q1, b)
    d3, d4 = orient(a, b, q0), orient(a, b, q1)
    return (((d1 > 0) != (d2 > 0)) & ((d3 > 0) != (d4 > 0))).any(axis=1)


def _forest_planes_2d(f: _Forest):
    """The inward edge half-planes (N (e, 2), C (e,)) of a convex forest footprint, else None
    (cached on the forest)."""
    got = getattr(f, "_halfplanes", False)
    if got is not False:
        return got
    import shapely
    poly = f.polygon
    out = None
    if len(poly.interiors) == 0 and poly.convex_hull.area <= poly.area * (1 + 1e-9):
        ring = np.asarray(poly.exterior.coords, dtype=float)[:-1]
        if not shapely.is_ccw(poly.exterior):
            ring = ring[::-1]
        e = np.roll(ring, -1, axis=0) - ring
        N = np.column_stack([-e[:, 1], e[:, 0]])            # inward for a counter-clockwise ring
        out = (N, np.einsum("ij,ij->i", N, ring))
    f._halfplanes = out
    return out


def _forest_hits(a: np.ndarray, b: np.ndarray, f: _Forest, settings: SightSettings) -> np.ndarray:
    """(n,) bool: segments a -> b (n, 3) through the inside of forest ``f`` (within its height
    span when ``area_height`` is "piece"; a wood of pieces of different heights: through one
    of its pieces)."""
    if f.members and settings.area_height == "piece" and len({(m.zlo, m.zhi) for m in f.members}) > 1:
        out = _forest_hits(a, b, f.members[0], settings)
        for m in f.members[1:]:
            k = np.flatnonzero(~out)
            out[k] = _forest_hits(a[k], b[k], m, settings)
        return out
    out = np.zeros(len(a), dtype=bool)
    # first the cheap tests on the whole segment: its box against the forest's (clipping to
    # the height span below only shortens it)
    pts = f.edges.reshape(-1, 2)
    k = np.flatnonzero(np.all(np.minimum(a[:, :2], b[:, :2]) <= pts.max(axis=0), axis=1)
                       & np.all(np.maximum(a[:, :2], b[:, :2]) >= pts.min(axis=0), axis=1))
    if settings.area_height == "piece":
        k = k[(np.minimum(a[k, 2], b[k, 2]) <= f.zhi) & (np.maximum(a[k, 2], b[k, 2]) >= f.zlo)]
    if not len(k):
        return out
    a, b = a[k], b[k]
    valid = np.ones(len(a), dtype=bool)
    if settings.area_height == "piece":
        dz = b[:, 2] - a[:, 2]
        with np.errstate(divide="ignore", invalid="ignore"):
            t0 = np.where(np.abs(dz) > 1e-12, (f.zlo - a[:, 2]) / dz, -np.inf)
            t1 = np.where(np.abs(dz) > 1e-12, (f.zhi - a[:, 2]) / dz, np.inf)
        lo = np.clip(np.minimum(t0, t1), 0, 1)
        hi = np.clip(np.maximum(t0, t1), 0, 1)
        flat = np.abs(dz) <= 1e-12
        inside_z = (a[:, 2] >= f.zlo) & (a[:, 2] <= f.zhi)
        lo = np.where(flat, 0.0, lo)
        hi = np.where(flat, 1.0, hi)
        valid = np.where(flat, inside_z, hi > lo)
        a, b = a + (b - a) * lo[:, None], a + (b - a) * hi[:, None]
    q0, q1 = a[:, :2], b[:, :2]
    # the clipped segments whose box still meets the forest's box need the exact tests
    near = valid & np.all(np.minimum(q0, q1) <= pts.max(axis=0), axis=1) \
        & np.all(np.maximum(q0, q1) >= pts.min(axis=0), axis=1)
    k = k[near]
    if not len(k):
        return out
    e0, e1 = q0[near], q1[near]
    hp = _forest_planes_2d(f)
    if hp is not None:
        # convex: clip the segment by every edge's half-plane; it meets the open inside when
        # the interval of t left is not empty
        N, C = hp
        d0 = e0 @ N.T - C
        d1 = e1 @ N.T - C
        with np.errstate(divide="ignore", invalid="ignore"):
            t = d0 / (d0 - d1)
        enter = (d0 <= 0) & (d1 > 0)
        leave = (d0 > 0) & (d1 <= 0)
        tlo = np.where(enter, t, 0.0).max(axis=1)
        thi = np.where(leave, t, 1.0).min(axis=1)
        out[k] = ~((d0 <= 0) & (d1 <= 0)).any(axis=1) & (tlo < thi)
    else:
        out[k] = _points_in_edges(e0, f.edges) | _points_in_edges(e1, f.edges) | _segments_cross_edges(e0, e1, f.edges)
    return out


def _forest_blocked(p0: np.ndarray, p1: np.ndarray, forests: Sequence[_Forest], settings: SightSettings) -> np.ndarray:
    """(n,) bool: segments through at least ``forest_limit`` forests (no LoS). A forest is
    tested only on the segments that can still reach the limit."""
    limit = settings.forest_limit
    counts = np.zeros(len(p0), dtype=np.int64)
    for j, f in enumerate(forests):
        k = np.flatnonzero(counts + (len(forests) - j) >= limit)
        if not len(k):
            break
        counts[k] += _forest_hits(p0[k], p1[k], f, settings)
    return counts >= limit


# -------------------------------------------------------------------------- results
@dataclass
class LosResult:
    viewer: str
    target: str
    los: bool
    visible_fraction: float            # share of the target's sample points seen by some viewer point
    in_front_arc: bool                 # the target is at least partly in the viewer's front half-space
    distance: float                    # closest points of the hitboxes, inches
    height_difference: float           # target base z - viewer base z (negative: the target is lower)
    blocking: tuple[str, ...] = ()     # pieces and models that hide part of the target
    witness: tuple[tuple[float, float, float], tuple[float, float, float]] | None = None
    cover: str = "none"                # "none" | "light" | "heavy"
    cover_piece: str | None = None
    cover_reason: str = ""
    reason: str = ""                   # why: clear, blocked, flying, blinded, engaged, dark, back arc, ...
    fraction_exact: bool = True        # False when only yes/no was asked (then the fraction is a lower bound)
    visible_area_mm2: float = 0.0
    rays: int = 0                      # segments actually cast
    segments: int = 0                  # viewer x target sample pairs the answer covers
    settings: SightSettings = field(default_factory=default_settings, repr=False)
    # per target sample point (for cover and pictures)
    target_points: np.ndarray | None = field(default=None, repr=False)
    target_visible: np.ndarray | None = field(default=None, repr=False)
    target_part: np.ndarray | None = field(default=None, repr=False)
    target_allowed: np.ndarray | None = field(default=None, repr=False)   # in the viewer's front half-space
    eye: tuple[float, float, float] | None = None   # the viewer point that saw most (or faces the target)
    picture_segments: np.ndarray | None = field(default=None, repr=False)   # (k, 2, 3)
    picture_clear: np.ndarray | None = field(default=None, repr=False)      # (k,) bool
    all_round: bool = False            # the viewer sees all round (moving, Shrouded, Vigilance): no arc applies
    by_state: bool = False             # a state or the Dark decided "no LoS" (Blinded, ...): no line was looked at

    def __getstate__(self):            # pickle / copy: the cover reason's text, built
        from engine.cover import _built_state
        return _built_state(self)

    def as_dict(self) -> dict:
        return {
            "viewer": self.viewer, "target": self.target, "los": self.los,
            "visible_fraction": round(float(self.visible_fraction), 4),
            "fraction_exact": self.fraction_exact,
            "in_front_arc": self.in_front_arc, "all_round": self.all_round, "by_state": self.by_state,
            "distance": round(float(self.distance), 4),
            "height_difference": round(float(self.height_difference), 4),
            "cover": self.cover, "cover_piece": self.cover_piece, "cover_reason": self.cover_reason,
            "blocking": list(self.blocking), "reason": self.reason,
            "visible_area_mm2": round(float(self.visible_area_mm2), 2),
            "witness": None if self.witness is None else [[round(v, 4) for v in p] for p in self.witness],
            "rays": self.rays, "segments": self.segments,
        }


def _lazy_fields():
    """Fields whose value may be given as a function, run on first read: the cover
    reason's words, and what only a reader of the details needs (the blocking pieces,
    the eye, the picture's rays: the rules never read them)."""
    from engine.cover import LazyText
    for name in ("cover_reason", "blocking", "eye", "picture_segments", "picture_clear"):
        d = LazyText()
        setattr(LosResult, name, d)
        d.__set_name__(LosResult, name)


_lazy_fields()


@dataclass
class PathLos:
    """What one observer saw of a model moving along a path."""
    observer: str
    had_los: bool
    first: tuple[float, float, float] | None        # first point of the path where it had LoS
    last: tuple[float, float, float] | None
    entered_awareness: bool
    awareness_point: tuple[float, float, float] | None
    seen: list = field(default_factory=list)        # sampled path points asked that had LoS, in order
    first_distance: float | None = None             # along the path, inches
    last_distance: float | None = None


# --------------------------------------------------------------------------- rules
def _settings(settings) -> SightSettings:
    return default_settings() if settings is None else settings


def _is_360(hb, moving: bool, s: SightSettings) -> bool:
    if moving and s.moving_is_360:
        return True
    # a trait in any case ("vigilance" as a profile may spell it), as templates and measure read it
    return bool(set(hb.states) & set(s.three_sixty_states)) or \
        bool({t.lower() for t in hb.traits} & {t.lower() for t in s.three_sixty_traits})


def _melee_reach(hb) -> float | None:
    prof = hb.spec.profile if hb.spec is not None else None
    if prof is None:
        return 0.0
    reaches = [w.rch for w in prof.weapons if w.kind == "melee"]
    return max(reaches) if reaches else 0.0


def engagers(world, model: str, settings: SightSettings | None = None) -> list[str]:
    """The enemies engaging ``model``: it stands within their melee reach and their LoS
    (p.24; states: Engaged, "within the Melee Weapon Reach and LoS of an enemy model").

    Crouched, Flying and Petrified models engage no one (states page). Only when the model
    is in the Engaged state; the rules may instead pass ``engaged_with``.
    """
    s = _settings(settings)
    hb = world.hitbox(model)
    if s.engaged_state not in hb.states:
        return []
    out = []
    for other in world.model_ids():
        ho = world.hitbox(other)
        if other == model or ho.side == hb.side or \
                ho.states & {"Crouched", "Dead", s.flying_state, "Incapacitated", "Petrified"}:
            continue
        if not world.in_reach(other, model, _melee_reach(ho) or 0.0):
            continue
        # "within the Melee Weapon Reach and LoS of an enemy model": the enemy's own LoS
        # (its front arc, the scenery), not the Engaged exception (no recursion)
        if los(world, other, model, fraction=False, cover=False, settings=s, engaged_with=()).los:
            out.append(other)
    return out


def _in_front_arc(vh, th) -> bool:
    f = vh.facing_vector
    return float(np.dot([th.x - vh.x, th.y - vh.y], f)) + th.radius >= -_ARC_TOL


def _exception(world, viewer, target, moving, s, engaged_with):
    """(los, reason) decided by a state or an environment, or None for the geometry."""
    vh, th = world.hitbox(viewer), world.hitbox(target)
    if viewer == target:
        return True, "itself"
    if s.blinded_state in vh.states:
        return False, f"{viewer} is {s.blinded_state}"
    if s.flying_state in vh.states:
        return True, f"{viewer} is {s.flying_state}: LoS to all models"
    if s.flying_state in th.states:
        return True, f"{target} is {s.flying_state}: LoS from all models"
    eng = engagers(world, viewer, s) if engaged_with is None else list(engaged_with)
    if target in eng:
        return True, f"{viewer} is engaged by {target}"
    if not _static(world).dark:
        return None
    dark_v, dark_t = _hitbox_in_dark(world, vh, s), _hitbox_in_dark(world, th, s)
    applies = {"either": dark_v or dark_t, "viewer": dark_v, "target": dark_t}[s.dark_applies]
    if applies and not world.in_awareness(viewer, target):
        from engine.measure import inches
        # the model whose Dark area applies the limit (``dark_applies``), named once
        where = {"viewer": viewer, "target": target}.get(s.dark_applies, viewer if dark_v else target)
        d = inches(world.distance(viewer, target), 2)
        beyond = (f"beyond {viewer}'s Awareness of {vh.awareness:g}\""
                  + (" (no AG stat)" if vh.awareness_ag is None and "AG" not in vh.stats else ""))
        if where == target:
            return False, f"Dark: {target} stands in a Dark area, {d}\" away, {beyond}"
        return False, f"Dark: {where} stands in a Dark area and {target}, {d}\" away, is {beyond}"
    return None


# --------------------------------------------------------------------------- trees
@dataclass(frozen=True)
class _Tree:
    """A k-d tree over a lattice (local frame): node i holds perm[start[i]:end[i]]."""
    perm: np.ndarray
    start: np.ndarray
    end: np.ndarray
    left: np.ndarray        # -1 for a leaf
    right: np.ndarray
    corners: np.ndarray     # (nodes, 8, 3) the node's bounding box, local frame
    size: np.ndarray        # (nodes,) its diagonal


_LEAF = 8


_NC = 8      # corners per k-d node: a convex polytope holding the node's points


def _node_corners(p: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(_NC, 3) points whose convex hull holds the points ``p`` (local frame): a leaf's own
    points (repeated); points all on one circle about the z axis within 180 degrees: a
    prism over a polygon circumscribing their arc (4 tangent pieces); else the box."""
    if len(p) <= _NC:
        return p[np.resize(np.arange(len(p)), _NC)]
    box = np.array([[x, y, z] for x in (lo[0], hi[0]) for y in (lo[1], hi[1]) for z in (lo[2], hi[2])])
    box = box[np.resize(np.arange(8), _NC)]
    r = np.hypot(p[:, 0], p[:, 1])
    rmax = float(r.max())
    if rmax <= 0 or r.min() < rmax * (1 - 1e-9):
        return box
    th = np.arctan2(p[:, 1], p[:, 0])
    mid = math.atan2(float(np.sin(th).sum()), float(np.cos(th).sum()))
    rel = (th - mid + math.pi) % (2 * math.pi) - math.pi
    a0, a1 = float(rel.min()), float(rel.max())
    span = a1 - a0
    k = _NC // 2 - 2
    if span > math.pi or span <= 0:
        return box
    # arc endpoints (on the circle, pushed out by a hair) and k tangent intersections
    ang = np.concatenate([[a0], a0 + (np.arange(k) + 0.5) * span / k, [a1]]) + mid
    rad = np.concatenate([[rmax], np.full(k, rmax / math.cos(span / (2 * k))), [rmax]]) * (1 + 1e-12) + 1e-12
    xy = np.column_stack([rad * np.cos(ang), rad * np.sin(ang)])
    zl, zh = float(lo[2]) - 1e-12, float(hi[2]) + 1e-12
    return np.vstack([np.column_stack([xy, np.full(len(xy), zl)]), np.column_stack([xy, np.full(len(xy), zh)])])


@functools.lru_cache(maxsize=256)
def _tree(radius: float, height: float, spacing: float, inset: float, half: bool) -> _Tree:
    lat = _local_lattice(radius, height, spacing, inset)
    pts = lat.points
    ids = np.nonzero(pts[:, 0] >= -_ARC_TOL)[0] if half else np.arange(len(pts))
    perm: list[int] = []
    start, end, left, right, corners, diag = [], [], [], [], [], []

    def build(idx: np.ndarray) -> int:
        k = len(start)
        start.append(len(perm))
        end.append(0)
        left.append(-1)
        right.append(-1)
        lo, hi = pts[idx].min(axis=0), pts[idx].max(axis=0)
        diag.append(float(np.linalg.norm(hi - lo)))
        corners.append(_node_corners(pts[idx], lo, hi))
        if len(idx) <= _LEAF:
            perm.extend(int(i) for i in idx)
        else:
            axis = int(np.argmax(hi - lo))
            o = idx[np.argsort(pts[idx, axis], kind="stable")]
            m = len(o) // 2
            left[k] = build(o[:m])
            right[k] = build(o[m:])
        end[k] = len(perm)
        return k

    build(ids)
    c = np.asarray(corners, dtype=float)
    size = np.asarray(diag, dtype=float)
    t = _Tree(np.asarray(perm, dtype=np.int64), np.asarray(start), np.asarray(end), np.asarray(left),
              np.asarray(right), c, size)
    for arr in (t.perm, t.start, t.end, t.left, t.right, t.corners, t.size):
        arr.setflags(write=False)
    return t


_GROUPS: dict = {}


def _tree_groups(tree: _Tree, sizes: tuple = (8, 64)) -> np.ndarray:
    """(len(sizes), lattice points) int: for each lattice point of the tree, the first node on
    its path from the root holding at most ``sizes[i]`` points (-1 for points not in the tree).
    Neighbouring points share a group: the witness rounds try a group's witnesses on the rest."""
    got = _GROUPS.get(id(tree))
    if got is not None and got[0] is tree:
        return got[1]
    n = int(tree.perm.max()) + 1 if len(tree.perm) else 0
    out = np.full((len(sizes), n), -1, dtype=np.int64)
    cnt = tree.end - tree.start
    for k, lim in enumerate(sizes):
        # nodes of at most lim points whose parent holds more (or the root): a partition
        parent = np.full(len(cnt), -1, dtype=np.int64)
        inner = np.nonzero(tree.left >= 0)[0]
        parent[tree.left[inner]] = inner
        parent[tree.right[inner]] = inner
        top = (cnt <= lim) & ((parent < 0) | (cnt[np.maximum(parent, 0)] > lim))
        for node in np.nonzero(top)[0]:
            out[k, tree.perm[tree.start[node]:tree.end[node]]] = node
    out.setflags(write=False)
    if len(_GROUPS) > 512:
        _GROUPS.clear()
    _GROUPS[id(tree)] = (tree, out)       # the tree is kept alive with its groups
    return out


_TREE_FOR: dict = {}


def _tree_for(hb, s: SightSettings, half: bool) -> _Tree:
    key = (hb.radius, hb.height, s.spacing_in, s.inset_in, bool(half))
    got = _TREE_FOR.get(key)
    if got is None:
        if len(_TREE_FOR) >= 256:
            _TREE_FOR.clear()
        got = _TREE_FOR[key] = _tree(round(float(hb.radius), 9), round(float(hb.height), 9),
                                     round(s.spacing_in, 9), round(s.inset_in, 9), half)
    return got


def _ranges(starts: np.ndarray, ends: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated aranges [starts[i], ends[i]) and the owner i of each element."""
    lens = np.maximum(ends - starts, 0)
    owner = np.repeat(np.arange(len(starts)), lens)
    if len(owner) == 0:
        return np.zeros(0, dtype=np.int64), owner
    offs = np.cumsum(lens) - lens
    pos = np.arange(len(owner)) - offs[owner] + starts[owner]
    return pos, owner


def _circumscribed_planes(hb, sections: int = 16) -> tuple[np.ndarray, np.ndarray]:
    """H-representation of a prism holding a hitbox (outside it)."""
    ang = (np.arange(sections) + 0.5) * (2 * math.pi / sections)
    n = np.column_stack([np.cos(ang), np.sin(ang), np.zeros(sections)])
    d = n[:, :2] @ np.array([hb.x, hb.y]) + hb.radius
    n = np.vstack([n, [0, 0, 1], [0, 0, -1]])
    d = np.concatenate([d, [hb.z + hb.height, -hb.z]])
    return n, d


def _forest_planes(f: _Forest, s: SightSettings):
    """Clear planes (a convex superset) and block planes (exact, or None when not convex)."""
    from shapely.geometry import Polygon
    hull = f.polygon.convex_hull
    c = np.asarray(hull.exterior.coords)[:-1, :2]
    if Polygon(c).area <= 0:
        return None, None
    if Polygon(c).exterior.is_ccw is False:
        c = c[::-1]
    e = np.roll(c, -1, axis=0) - c
    n = np.column_stack([e[:, 1], -e[:, 0], np.zeros(len(c))])       # outward for a ccw ring
    n /= np.linalg.norm(n, axis=1, keepdims=True)
    d = np.einsum("ij,ij->i", n[:, :2], c)
    if s.area_height == "piece":
        n = np.vstack([n, [0, 0, 1], [0, 0, -1]])
        d = np.concatenate([d, [f.zhi, -f.zlo]])
    convex = abs(hull.area - f.polygon.area) <= 1e-9 * max(hull.area, 1e-9)
    if f.members and s.area_height == "piece" and len({(m.zlo, m.zhi) for m in f.members}) > 1:
        convex = False          # a wood of pieces of different heights is no prism
    return (n, d), ((n, d) if convex else None)


_MAX_FRONTIER = 1024
_SPLIT_BOTH = 256        # frontiers of at most this many bundles split both boxes of a bundle
_RAY_BUNDLE = 512        # bundles of at most this many sample pairs are cast, not proved


def _near_bundles(Vc: np.ndarray, Tc: np.ndarray, obstacles) -> np.ndarray:
    """(b, k) bool: obstacle k's bounding sphere meets the capsule holding bundle b's segments.

    Every segment between the two boxes lies within max(half-diagonal) of the
    segment between their centres."""
    if not obstacles:
        return np.zeros((len(Vc), 0), dtype=bool)
    cv, ct = Vc.mean(axis=1), Tc.mean(axis=1)
    rb = np.maximum(np.linalg.norm(Vc - cv[:, None], axis=2).max(axis=1),
                    np.linalg.norm(Tc - ct[:, None], axis=2).max(axis=1))
    oc = np.array([o[3] for o in obstacles])
    orad = np.array([o[4] for o in obstacles])
    ab = ct - cv
    L2 = np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12)
    t = np.clip(np.einsum("kj,ij->ik", oc, ab) - np.einsum("ij,ij->i", cv, ab)[:, None], 0, None) / L2[:, None]
    t = np.clip(t, 0, 1)
    p = cv[:, None, :] + t[..., None] * ab[:, None, :]
    dist = np.linalg.norm(p - oc[None], axis=2)
    return dist <= orad[None, :] + rb[:, None] + 1e-9


_PLACED: dict = {}


def _placed(lat: _Lattice, hb) -> np.ndarray:
    """A lattice's points in world coordinates for a hitbox's pose (read-only; the last few
    poses are kept: models that did not move are asked about again and again)."""
    key = (id(lat), float(hb.x), float(hb.y), float(hb.z), float(hb.facing))
    got = _PLACED.get(key)
    if got is not None and got[0] is lat:
        return got[1]
    pts = _turned_points(lat, hb.facing) + np.array([hb.x, hb.y, hb.z])
    pts.setflags(write=False)
    if len(_PLACED) >= 512:
        _PLACED.clear()
    _PLACED[key] = (lat, pts)
    return pts


_TURNED_PTS: dict = {}


def _turned_points(lat: _Lattice, facing: float) -> np.ndarray:
    """A lattice's points turned to a facing (``_rotate``), kept per (lattice, facing): a
    model walking a path keeps its facing, so each new place only adds its position."""
    key = (id(lat), float(facing))
    got = _TURNED_PTS.get(key)
    if got is not None and got[0] is lat:
        return got[1]
    r = _rotate(lat.points, facing)
    r.setflags(write=False)
    if len(_TURNED_PTS) >= 256:
        _TURNED_PTS.clear()
    _TURNED_PTS[key] = (lat, r)
    return r


_FRAMES: dict = {}


def _frame(vh, th, half: bool, v_local: _Lattice, t_local: _Lattice):
    """The pair's sample points in world coordinates and the orders the query uses:
    (V, T_all, tmask, vorder, tidx, hints). ``hints``: the 2 viewer points facing the target.
    Kept for the last few pairs of poses (read-only arrays)."""
    key = (id(v_local), float(vh.x), float(vh.y), float(vh.z), float(vh.facing), bool(half),
           id(t_local), float(th.x), float(th.y), float(th.z), float(th.facing))
    got = _FRAMES.get(key)
    if got is not None and got[0] is v_local and got[1] is t_local:
        return got[2]
    out = _frame_new(vh, th, half, v_local, t_local)
    for a in out[:5]:
        a.setflags(write=False)
    if len(_FRAMES) >= 1024:
        _FRAMES.clear()
    _FRAMES[key] = (v_local, t_local, out)
    return out


def _frame_new(vh, th, half: bool, v_local: _Lattice, t_local: _Lattice):
    centre_v = np.array([vh.x, vh.y, vh.z])
    centre_t = np.array([th.x, th.y, th.z])
    V = _placed(v_local, vh)
    T_all = _placed(t_local, th)
    f = vh.facing_vector
    if half:
        tmask = _in_front(T_all, centre_v, f)
        tidx = t_local.order[tmask[t_local.order]]
    else:
        tmask = np.ones(len(T_all), dtype=bool)
        tidx = t_local.order
    vorder = _front_order(v_local, half)
    # viewer points facing the target first
    dirv = (centre_t - centre_v)[:2]
    nrm = np.linalg.norm(dirv)
    dirv = dirv / nrm if nrm > 1e-12 else f
    hints = [int(i) for i in vorder[_top2(V[vorder] @ np.array([dirv[0], dirv[1], 0.5]))]] if len(vorder) else []
    return V, T_all, tmask, vorder, tidx, hints


def _top2(score: np.ndarray) -> np.ndarray:
    """Per row of ``score`` (g, n), the columns of the (up to) two highest scores, highest
    first (of equal ones, the first); a 1D ``score`` gives one row's (up to 2,)."""
    sc = np.atleast_2d(score)
    i = sc.argmax(axis=1)
    if sc.shape[1] < 2:
        out = i[:, None]
    else:
        j = np.where(np.arange(sc.shape[1])[None, :] == i[:, None], -np.inf, sc).argmax(axis=1)
        out = np.column_stack([i, j])
    return out[0] if np.ndim(score) == 1 else out


def _in_front(P: np.ndarray, centre_xy: np.ndarray, f: np.ndarray) -> np.ndarray:
    """(n,) bool: points P (n, 3) in the front half-space of a viewer at ``centre_xy`` facing
    ``f`` (unit 2D), within ``_ARC_TOL``: (P - centre) . f >= -tol, as one product."""
    return P @ np.array([f[0], f[1], 0.0]) >= float(np.asarray(centre_xy)[:2] @ f) - _ARC_TOL


_FRONT: dict = {}


def _front_order(lat: _Lattice, half: bool) -> np.ndarray:
    """The lattice's spread-out order, only its front half (local x >= 0) when ``half``."""
    if not half:
        return lat.order
    got = _FRONT.get(id(lat))
    if got is not None and got[0] is lat:
        return got[1]
    out = lat.order[(lat.points[:, 0] >= -_ARC_TOL)[lat.order]]
    out.setflags(write=False)
    if len(_FRONT) >= 64:
        _FRONT.clear()
    _FRONT[id(lat)] = (lat, out)
    return out


def _probe_frame(vh, th, half: bool, v_local: _Lattice, t_local: _Lattice, vcache: dict):
    """The probe segments of ``_Query.probe_pairs`` (the first 16 allowed target points x the
    2 viewer points facing the target), computed as ``_frame`` does but only for the points
    they need; the viewer's side is cached in ``vcache``. None when the pair has no allowed point."""
    key = (vh.x, vh.y, vh.z, vh.facing, half, id(v_local))
    got = vcache.get(key)
    centre_v = np.array([vh.x, vh.y, vh.z])
    if got is None:
        V = _rotate(v_local.points, vh.facing) + centre_v
        if half:
            vorder = v_local.order[(v_local.points[:, 0] >= -_ARC_TOL)[v_local.order]]
        else:
            vorder = v_local.order
        got = (V, vorder, V[vorder])
        vcache[key] = got
    V, vorder, Vo = got
    if not len(vorder):
        return None
    centre_t = np.array([th.x, th.y, th.z])
    f = vh.facing_vector
    order = t_local.order
    rows = None
    for k in (64, len(order)):
        sub = order[:k]
        T = _rotate(t_local.points[sub], th.facing) + centre_t
        ok = _in_front(T, centre_v, f) if half else np.ones(len(sub), dtype=bool)
        if ok.sum() >= 16 or k == len(order):
            rows = T[ok][:16]
            break
    if not len(rows):
        return None
    dirv = (centre_t - centre_v)[:2]
    nrm = np.linalg.norm(dirv)
    dirv = dirv / nrm if nrm > 1e-12 else f
    h = vorder[_top2(Vo @ np.array([dirv[0], dirv[1], 0.5]))]        # as ``_frame`` scores them
    return np.tile(V[h], (len(rows), 1)), np.repeat(rows, len(h), axis=0)


def _probe_frames(items, s: SightSettings):
    """``_probe_frame`` for many (vh, th, half, exclude) items at once (the same segments, in
    the same order per item): items grouped by target lattice and facing, then by viewer,
    numpy over each group. Returns (P0, P1, owner, none): the probe segments, their item,
    and the items with no allowed target or viewer point."""
    n = len(items)
    none = np.zeros(n, dtype=bool)
    R = np.zeros((n, 16, 3))                 # each item's probe target points (first cnt rows)
    cnt = np.zeros(n, dtype=np.int64)
    slow = []
    tgroups: dict = {}
    for k, it in enumerate(items):
        lt = _lattice_for(it[1], s)
        tgroups.setdefault((id(lt), float(it[1].facing)), (lt, it[1].facing, []))[2].append(k)
    for lt, facing, ks in tgroups.values():
        sub = lt.order[:64]
        loc = _rotate(lt.points[sub], facing)
        ks = np.asarray(ks)
        cent = np.array([[items[k][1].x, items[k][1].y, items[k][1].z] for k in ks])
        T = loc[None] + cent[:, None, :]                                   # (g, 64, 3)
        cv = np.array([[items[k][0].x, items[k][0].y] for k in ks])
        fv = np.array([items[k][0].facing_vector for k in ks])
        half = np.array([bool(items[k][2]) for k in ks])
        f3 = np.column_stack([fv, np.zeros(len(fv))])
        ok = np.einsum("gpj,gj->gp", T, f3) >= np.einsum("gj,gj->g", cv, fv)[:, None] - _ARC_TOL   # as _in_front
        ok |= ~half[:, None]
        total = ok.sum(axis=1)
        short = (total < 16) & (len(sub) < len(lt.order))      # look beyond the first 64
        # a target wholly behind the viewer's front line has no allowed point at all
        ct = np.array([[items[k][1].x, items[k][1].y] for k in ks])
        rt = np.array([float(items[k][1].radius) for k in ks])
        behind = half & (np.einsum("gj,gj->g", ct - cv, fv) + rt < -_ARC_TOL)
        none[ks[short & behind]] = True
        short &= ~behind
        slow.extend(int(k) for k in ks[short])
        cum = np.cumsum(ok, axis=1)
        sel = ok & (cum <= 16) & ~short[:, None]
        g_i, p_i = np.nonzero(sel)
        R[ks[g_i], cum[g_i, p_i] - 1] = T[g_i, p_i]
        cnt[ks] = np.where(short, 0, np.minimum(total, 16))
        none[ks[~short & (total == 0)]] = True
    vcache: dict = {}
    P0, P1, owner = [], [], []
    for k in slow:
        vh, th, half, exclude = items[k]
        got = _probe_frame(vh, th, half, _lattice_for(vh, s), _lattice_for(th, s), vcache)
        if got is None:
            none[k] = True
            continue
        P0.append(got[0])
        P1.append(got[1])
        owner.append(np.full(len(got[0]), k, dtype=np.int64))
    slow_set = set(slow)
    vgroups: dict = {}
    for k, (vh, th, half, exclude) in enumerate(items):
        if none[k] or k in slow_set:
            continue
        vl = _lattice_for(vh, s)
        vgroups.setdefault((vh.x, vh.y, vh.z, vh.facing, bool(half), id(vl)), (vh, vl, bool(half), []))[3].append(k)
    for vh, vl, half, ks in vgroups.values():
        ks = np.asarray(ks)
        centre_v = np.array([vh.x, vh.y, vh.z])
        V = _rotate(vl.points, vh.facing) + centre_v
        vorder = vl.order[(vl.points[:, 0] >= -_ARC_TOL)[vl.order]] if half else vl.order
        if not len(vorder):
            none[ks] = True
            continue
        f = vh.facing_vector
        ct = np.array([[items[k][1].x, items[k][1].y] for k in ks])
        dirv = ct - centre_v[:2]
        nrm = np.linalg.norm(dirv, axis=1, keepdims=True)
        dirv = np.where(nrm > 1e-12, dirv / np.where(nrm > 1e-12, nrm, 1.0), f[None, :])
        sc = np.column_stack([dirv, np.full(len(dirv), 0.5)]) @ V[vorder].T     # (g, nv), as _frame scores them
        h = vorder[_top2(sc)]                                                  # (g, nh)
        nh = h.shape[1]
        # segment (row r, hint j) of item g: V[h[g, j]] -> R[g, r], rows first (as _probe_frame)
        p0 = np.broadcast_to(V[h][:, None, :, :], (len(ks), 16, nh, 3))
        p1 = np.broadcast_to(R[ks][:, :, None, :], (len(ks), 16, nh, 3))
        m = np.broadcast_to((np.arange(16)[None, :] < cnt[ks][:, None])[:, :, None], (len(ks), 16, nh))
        P0.append(p0[m])
        P1.append(p1[m])
        owner.append(np.broadcast_to(ks[:, None, None], (len(ks), 16, nh))[m])
    if not P0:
        z = np.zeros((0, 3))
        return z, z, np.zeros(0, dtype=np.int64), none
    return np.concatenate(P0), np.concatenate(P1), np.concatenate(owner), none


def _pair_forests(st: _Static, vh, th, s: SightSettings, near=None) -> list:
    """The Forest areas a segment between the two hitboxes may cross (bounding circles
    meeting the capsule around the centres' segment; without the models' own areas when
    ``forest_count_own_area`` is false)."""
    if not st.forests:
        return []
    if near is None:
        near = _capsule_near(vh, th)
    forests = []
    for f in _woods(st, s):
        x0, y0, x1, y1 = f.polygon.bounds
        c = np.array([(x0 + x1) / 2, (y0 + y1) / 2, 0.0])
        if near(c, math.hypot(x1 - x0, y1 - y0) / 2, dims=2):
            forests.append(f)
    if not s.forest_count_own_area:
        from shapely.geometry import Point
        own = [Point(h.x, h.y).buffer(h.radius, 32) for h in (vh, th)]
        forests = [f for f in forests if not any(f.polygon.intersects(o) for o in own)]
    return forests


# --------------------------------------------------------------------------- query
def _capsule_near(vh, th):
    """``near(centres (..., 3), radii, dims=3) -> bool``: does a sphere (or, with
    dims=2, a disc) of radius r meet the capsule around the segment joining the
    two hitboxes' mid-height centres, its radius the larger half-diagonal?"""
    a = np.array([vh.x, vh.y, vh.z + vh.height / 2])
    b = np.array([th.x, th.y, th.z + th.height / 2])
    rcap = max(math.hypot(vh.radius, vh.height / 2), math.hypot(th.radius, th.height / 2))
    ab = b - a

    def near(c, r, dims=3):
        cc = c[..., :dims]
        t = np.clip(((cc - a[:dims]) @ ab[:dims]) / (float(ab[:dims] @ ab[:dims]) or 1e-12), 0, 1)
        p = a[:dims] + t[..., None] * ab[:dims]
        return np.linalg.norm(cc - p, axis=-1) <= r + rcap + 1e-9
    return near


_MODEL_PLANES: dict = {}


def _model_planes(mc, mr, mh):
    """A blocking model's records for the proofs (kept per pose): (circumscribed planes N, D,
    centre, radius, box) for clear proofs, (inscribed planes N, D, centre, radius) for hiding."""
    key = (float(mc[0]), float(mc[1]), float(mc[2]), float(mr), float(mh))
    got = _MODEL_PLANES.get(key)
    if got is None:
        hb = _HB(mc, mr, mh)
        c = np.array([mc[0], mc[1], mc[2] + mh / 2])
        sphere = (c, math.hypot(mr, mh / 2))
        rr = mr / math.cos(math.pi / 16)
        box = (np.array([mc[0] - rr, mc[1] - rr, mc[2]]), np.array([mc[0] + rr, mc[1] + rr, mc[2] + mh]))
        got = (_circumscribed_planes(hb) + sphere + (box,), _cylinder_planes(hb) + sphere)
        for part in got:
            for a in part:
                if isinstance(a, np.ndarray):
                    a.setflags(write=False)
            for a in part[-1] if isinstance(part[-1], tuple) else ():
                a.setflags(write=False)
        if len(_MODEL_PLANES) >= 1024:
            _MODEL_PLANES.clear()
        _MODEL_PLANES[key] = got
    return got


class _Query:
    """One viewer -> target question.

    Resolution: (0) a probe of a few likely rays for a yes/no question; (1) a
    descent through pairs of k-d tree nodes of the two lattices ("bundles" of
    segments between two boxes of sample points), where a bundle is proved
    clear when a face plane of every nearby obstacle separates it, or proved
    hidden when every segment between the boxes' corners passes through one
    convex obstacle (then every segment between the boxes does); (2) rays for
    the sample pairs of the bundles left at leaf level.
    """

    def __init__(self, world, st: _Static, vh, th, *, want_all: bool, s: SightSettings,
                 half: bool, v_local: _Lattice, t_local: _Lattice, exclude: set[str], models,
                 gather: bool = True):
        self.vh, self.th, self.s, self.want_all = vh, th, s, want_all
        self.half = half
        self.v_local, self.t_local = v_local, t_local
        self.columns_tried = False   # tall prisms seen from above already tried (``hide_columns``)
        fr = _frame(vh, th, half, v_local, t_local)
        self.V, self.T_all, self.tmask, self.vorder, self.tidx, self.hints = fr
        self.nv = len(self.vorder)
        self.t_part, self.t_weight = t_local.part, t_local.weight
        self.nt = len(self.tidx)
        self.row_of = np.full(len(self.T_all), -1, dtype=np.int64)
        self.row_of[self.tidx] = np.arange(self.nt)
        self.status = np.zeros(self.nt, dtype=np.int8)   # 0 unknown, 1 visible, 2 hidden
        self.witness = np.full(self.nt, -1, dtype=np.int64)
        self.hidden_by = np.full(self.nt, -1, dtype=np.int64)
        self.rays = 0
        self.done = self.nt == 0 or self.nv == 0
        self.visible_weight = 0.0
        self.min_w = s.min_visible_area_mm2 / MM2_PER_IN2
        self.vtree = _tree_for(vh, s, half)
        self.ttree = _tree_for(th, s, False)
        self.leaves = None
        self.seed = None             # a partition of the two trees' pairs to start the descent from
        self.prior = None            # per target lattice point, a viewer lattice point that saw it last time
        self.v_allowed = np.zeros(len(self.V), dtype=bool)
        self.v_allowed[self.vorder] = True
        self.proof = None            # this query's partition once its descent ran to its end
        self.stopped = False
        self.probed = False          # the probe was already cast (by _probe_batch)
        self._gather_args = (st, exclude, models)
        self.gathered = False
        if not self.done and s.models_block:
            self._hide_inside_models(exclude, models)
        if gather:
            self.gather()

    def _hide_inside_models(self, exclude, models) -> None:
        """Mark hidden the target points inside another blocking model's hitbox (a mover
        passing through an ally): every segment to such a point runs inside that hitbox
        for a positive length (``_INSIDE`` or more from its surface), as the segment
        test of the models counts it (``engine.world.segments_hit_cylinders``)."""
        if not len(models):
            return
        th = self.th
        # per placed target lattice and models (a path's observers ask the same pose):
        # per model that may hold some of its points, which of them it holds
        key = (id(self.t_local), float(th.x), float(th.y), float(th.z), float(th.facing), _records_key(models))
        got = _INSIDE_MASKS.get(key)
        if got is None or got[0] is not self.t_local:
            c, r, h = _record_arrays(models)
            near = ((c[:, 0] - th.x) ** 2 + (c[:, 1] - th.y) ** 2 < (r + th.radius - _INSIDE) ** 2) \
                & (c[:, 2] + _INSIDE < th.z + th.height) & (th.z < c[:, 2] + h - _INSIDE)
            masks = []
            for j in np.nonzero(near)[0]:
                _, cj, rj, hj = models[j]
                P = self.T_all
                masks.append((models[j][0], ((P[:, 0] - cj[0]) ** 2 + (P[:, 1] - cj[1]) ** 2 < (rj - _INSIDE) ** 2)
                              & (P[:, 2] > cj[2] + _INSIDE) & (P[:, 2] < cj[2] + hj - _INSIDE)))
            if len(_INSIDE_MASKS) >= 256:
                _INSIDE_MASKS.clear()
            got = _INSIDE_MASKS[key] = (self.t_local, masks)
        masks = [m for mid, m in got[1] if mid not in exclude]
        if not masks:
            return
        inside = np.logical_or.reduce(masks)[self.tidx]
        self.status[inside] = 2
        self.done = not (self.status == 0).any()

    def gather(self) -> None:
        if not self.gathered:
            self.gathered = True
            self._gather(*self._gather_args)

    def obstacle_free_quick(self) -> bool:
        """Whether ``_gather`` would find nothing near the pair (without building the planes)."""
        st, exclude, models = self._gather_args
        vh, th, s = self.vh, self.th, self.s
        a = np.array([vh.x, vh.y, vh.z + vh.height / 2])
        b = np.array([th.x, th.y, th.z + th.height / 2])
        rcap = max(math.hypot(vh.radius, vh.height / 2), math.hypot(th.radius, th.height / 2))
        ab = b - a
        L2 = float(ab @ ab) or 1e-12
        if len(st.pieces):
            t = np.clip((st.centre - a) @ ab / L2, 0, 1)
            d = np.linalg.norm(st.centre - (a + t[:, None] * ab), axis=1)
            for k in np.nonzero(d <= st.radius + rcap + 1e-9)[0]:
                if len(st.pieces[k].offsets):
                    return False
        if s.models_block and models:
            keep = [m for m in models if m[0] not in exclude]
            if keep:
                c = np.array([[m[1][0], m[1][1], m[1][2] + m[3] / 2] for m in keep])
                rr = np.array([math.hypot(m[2], m[3] / 2) for m in keep])
                t = np.clip((c - a) @ ab / L2, 0.0, 1.0)
                g = c - (a + t[:, None] * ab)
                if (np.sqrt(np.einsum("ij,ij->i", g, g)) <= rr + rcap + 1e-9).any():
                    return False
        return len(_pair_forests(st, vh, th, s)) < s.forest_limit

    def probe_all_models(self, world) -> None:
        """Cast the yes/no probe (``probe_pairs``) testing every model (near or not: the far
        ones cannot meet these segments) and the pair's Forest areas: no obstacle gathering."""
        st, exclude, models = self._gather_args
        rows, vidx = self.probe_pairs()
        P0, P1 = self.V[vidx], self.T_all[self.tidx[rows]]
        clear = ~world.rays.occluded(P0, P1)
        if _RECORD is not None:
            _RECORD.append((P0, P1))
        mods = [m for m in models if m[0] not in exclude] if self.s.models_block else []
        if clear.any() and mods:
            idx = np.nonzero(clear)[0]
            c = np.array([m[1] for m in mods])
            r = np.array([m[2] for m in mods])
            h = np.array([m[3] for m in mods])
            clear[idx[_segments_hit_cylinders_any(P0[idx], P1[idx], c, r, h).any(axis=1)]] = False
        if clear.any() and st.forests:
            forests = _pair_forests(st, self.vh, self.th, self.s)
            if len(forests) >= self.s.forest_limit:
                idx = np.nonzero(clear)[0]
                clear[idx[_forest_blocked(P0[idx], P1[idx], forests, self.s)]] = False
        self.probed = True
        self.absorb(rows, vidx, clear)

    # -- obstacles near the pair: the segments lie in a capsule around the centres' segment
    def _gather(self, st, exclude, models):
        vh, th, s = self.vh, self.th, self.s
        self.clear_obs = []      # (name, N, D): convex supersets of every obstacle
        self.convex = []         # (name, N, D): convex obstacles (or subsets) for proofs of hiding
        self.forest_block = []   # (name, N, D): convex forests (count towards forest_limit)
        near = _capsule_near(vh, th)
        self.nonconvex = 0
        if len(st.pieces):
            for k in np.nonzero(near(st.centre, st.radius))[0]:
                info = st.pieces[k]
                if not len(info.offsets):
                    continue
                sphere = (st.centre[k], float(st.radius[k]))
                cn, cd = _clear_planes(info)
                self.clear_obs.append((info.id, cn, cd) + sphere + ((info.lo, info.hi),))
                if info.convex:
                    self.convex.append((info.id, info.normals, info.offsets) + sphere)
                else:
                    self.nonconvex += 1
                    if info.inner:
                        icr = getattr(info, "_inner_cr", None)
                        if icr is None:
                            icr = info._inner_cr = (np.array([x[2] for x in info.inner]),
                                                    np.array([x[3] for x in info.inner]))
                        for j in np.nonzero(near(*icr))[0]:
                            n_, d_, c_, r_ = info.inner[j]
                            self.convex.append((info.id, n_, d_, c_, r_))
        self.models = []
        if s.models_block:
            cand = [m for m in models if m[0] not in exclude]
            if cand:
                cc = np.array([[m[1][0], m[1][1], m[1][2] + m[3] / 2] for m in cand])
                cr = np.array([math.hypot(m[2], m[3] / 2) for m in cand])
                cand = [m for m, ok in zip(cand, near(cc, cr)) if ok]
            for mid, mc, mr, mh in cand:
                self.models.append((mid, mc, mr, mh))
                cl, cv = _model_planes(mc, mr, mh)
                self.clear_obs.append((mid,) + cl)
                self.convex.append((mid,) + cv)
        forests = _pair_forests(st, vh, th, s, near)
        self.forests_active = forests if len(forests) >= s.forest_limit else []
        for f in self.forests_active:
            clear, block = _forest_planes(f, s)
            if clear is None:
                continue
            x0, y0, x1, y1 = f.polygon.bounds
            if s.area_height == "piece":
                sphere = (np.array([(x0 + x1) / 2, (y0 + y1) / 2, (f.zlo + f.zhi) / 2]),
                          float(np.linalg.norm([x1 - x0, y1 - y0, f.zhi - f.zlo]) / 2))
            else:
                sphere = (np.zeros(3), math.inf)
            zr = (f.zlo, f.zhi) if s.area_height == "piece" else (-1e30, 1e30)
            box = (np.array([x0, y0, zr[0]]), np.array([x1, y1, zr[1]]))
            self.clear_obs.append((f.id,) + clear + sphere + (box,))
            if block is not None:
                self.forest_block.append((f.id,) + block + sphere)
        self.obstacle_free = not self.clear_obs and not self.nonconvex and not self.forests_active
        # no terrain triangle can meet a segment between the two hitboxes: every solid piece's
        # bounding sphere stays 0.01" clear of the capsule holding them, and both stand on or
        # above the table's top (z = 0; the segments stay above it): no terrain ray is needed
        self.terrain_free = bool(min(vh.z, th.z) >= 0.0 and
                                 not (len(st.pieces) and near(st.centre, st.radius + 0.01).any()))
        # a proof of hiding needs every sample point outside the obstacle (checked only
        # for obstacles whose bounding sphere meets a hitbox's)
        spheres = [(np.array([h.x, h.y, h.z + h.height / 2]), math.hypot(h.radius, h.height / 2)) for h in (vh, th)]
        pts = None

        def keep(obs):
            nonlocal pts
            if not obs:
                return obs
            oc = np.array([o[3] for o in obs])
            orad = np.array([o[4] for o in obs])
            touch = np.zeros(len(obs), dtype=bool)
            for (c, r), h_ in zip(spheres, (vh, th)):
                t_ = np.linalg.norm(oc - c, axis=1) <= orad + r + 1e-6
                idx = np.nonzero(t_ & ~touch)[0]
                if len(idx):                              # a face plane with the hitbox outside: fine
                    t_[idx] = ~_hitboxes_outside(h_, [obs[i] for i in idx])
                touch |= t_
            tk = np.nonzero(touch)[0]
            if not len(tk):
                return obs
            if pts is None:
                pts = np.vstack([self.V[self.vorder], self.T_all[self.tidx]])
            # every sample point outside each touching obstacle (``_outside`` of each), the
            # touching obstacles' planes stacked in column blocks
            if not len(pts):
                return obs
            bad = np.zeros(len(obs), dtype=bool)
            sizes = np.array([len(obs[i][2]) for i in tk], dtype=np.int64)
            bad[tk[sizes == 0]] = True           # no planes: no point is outside
            tk, sizes = tk[sizes > 0], sizes[sizes > 0]
            step = max(1, 2_000_000 // max(len(pts), 1))
            j = 0
            while j < len(tk):
                k = j + 1
                tot = int(sizes[j])
                while k < len(tk) and tot + sizes[k] <= step:
                    tot += int(sizes[k])
                    k += 1
                grp = tk[j:k]
                N = np.concatenate([obs[i][1] for i in grp]).reshape(-1, 3)
                D = np.concatenate([obs[i][2] for i in grp])
                starts = np.concatenate([[0], np.cumsum(sizes[j:k])[:-1]])
                out_pt = pts @ N.T - D[None, :] > 1e-9
                bad[grp] = ~np.logical_or.reduceat(out_pt, starts, axis=1).all(axis=0)
                j = k
            return [o for o, b in zip(obs, bad) if not b]
        self.convex = keep(self.convex)
        # forests need no such check: a segment from a point inside a forest passes through
        # it (``_forest_hits``), and the corners' proof holds for such points too (for a fixed
        # end inside a convex forest every segment meets it)

    # -- rays
    def clear_extra(self, p0, p1) -> np.ndarray:
        """(n,) bool: segments (already clear of terrain) blocked by models or forests."""
        blocked = np.zeros(len(p0), dtype=bool)
        if len(p0) == 0:
            return blocked
        if self.models:
            c = np.array([m[1] for m in self.models])
            r = np.array([m[2] for m in self.models])
            h = np.array([m[3] for m in self.models])
            blocked |= _segments_blocked_by_cylinders(p0, p1, c, r, h)
        if self.forests_active:
            blocked |= _forest_blocked(p0, p1, self.forests_active, self.s)
        return blocked

    def _mark_visible(self, rows, vidx):
        new = self.status[rows] == 0
        rows, vidx = rows[new], vidx[new]
        if len(rows) == 0:
            return
        ur, first = np.unique(rows, return_index=True)
        self.status[ur] = 1
        self.witness[ur] = vidx[first]
        self.visible_weight += float(self.t_weight[self.tidx[ur]].sum())
        if not self.want_all and self.visible_weight >= self.min_w:
            self.done = True
            self.stopped = True
        if not (self.status == 0).any():
            self.done = True

    def absorb(self, rows, vidx, clear):
        self.rays += len(rows)
        if clear.any():
            self._mark_visible(rows[clear], vidx[clear])

    def guess_pairs(self, k: int):
        """Round ``k`` of the witness rounds of a fraction question, one segment per open
        target point: 0, 1: the two viewer points facing the target; 2, 3: a witness of a
        seen target point in the same group of 8 (then 64) neighbouring lattice points, else a
        viewer point drawn at random (a fixed seed). A clear segment is a witness (exact)."""
        rows = np.nonzero(self.status == 0)[0]
        if not len(rows) or self.nv == 0:
            return None
        if k < 2:
            h = self.hints[k] if len(self.hints) > k else int(self.vorder[0])
            vidx = np.full(len(rows), h, dtype=np.int64)
            if k == 0 and self.prior is not None:
                # the witnesses of the last answer for this pair (lattice indices), where allowed
                pw = self.prior[self.tidx[rows]]
                ok = (pw >= 0) & (pw < len(self.V))
                ok[ok] = self.v_allowed[pw[ok]]
                vidx = np.where(ok, pw, vidx)
            return rows, vidx
        rng = np.random.default_rng(self.nt * 31 + self.nv * 7 + k)
        vidx = self.vorder[rng.integers(0, self.nv, len(rows))]
        groups = _tree_groups(self.ttree)
        seen = np.nonzero(self.status == 1)[0]
        if len(seen):
            for g in groups[::-1]:        # coarse groups first, the finer ones overwrite
                gwit = np.full(int(g.max()) + 1, -1, dtype=np.int64)
                pick = seen if k == 2 else seen[::-1]
                gwit[g[self.tidx[pick]]] = self.witness[pick]
                got = gwit[np.maximum(g[self.tidx[rows]], 0)]
                got[g[self.tidx[rows]] < 0] = -1
                vidx = np.where(got >= 0, got, vidx)
        return rows, vidx

    def probe_pairs(self):
        """A few likely segments for a yes/no question (and the last answer's witnesses)."""
        rows = np.arange(min(16, self.nt))
        h = np.asarray(self.hints[:2] or [int(self.vorder[0])])
        r, v = np.repeat(rows, len(h)), np.tile(h, len(rows))
        if self.prior is not None:
            pw = self.prior[self.tidx]
            good = (pw >= 0) & (pw < len(self.V))
            good[good] = self.v_allowed[pw[good]]
            ok = np.nonzero(good)[0][:16]
            r, v = np.concatenate([ok, r]), np.concatenate([pw[ok], v])
        return r, v

    def random_pairs(self, k: int):
        """``k`` viewer x target sample pairs drawn at random among the open target points
        (a fixed seed: the same answer each time)."""
        rows = np.nonzero(self.status == 0)[0]
        if not len(rows) or self.nv == 0:
            return None
        # half of them between the upper points of both (what low walls leave in sight)
        h = k // 2
        tz, vz = self.T_all[self.tidx[rows], 2], self.V[self.vorder, 2]
        up_t = rows[tz >= tz.max() - _UPPER]
        up_v = self.vorder[vz >= vz.max() - _UPPER]
        ir, iv, it, iu = _draws(self.nt * 7919 + self.nv, len(rows), self.nv, k, len(up_t), len(up_v), h)
        r, v = rows[ir], self.vorder[iv]
        r[:h] = up_t[it]
        v[:h] = up_v[iu]
        return r, v

    def hide_columns(self, ctx, hidden: np.ndarray | None = None) -> None:
        """Mark hidden the open target points that tall prisms hide, seen from above
        (``_columns_hidden``; ``hidden``: that answer for every target row, already worked out)."""
        if self.columns_tried:
            return
        self.columns_tried = True
        rows = np.nonzero(self.status == 0)[0]
        if self.done or not len(rows):
            return
        if hidden is None:
            hid = _columns_hidden(ctx, self.s, self.vh, self._gather_args[1], self.vorder, self.v_local,
                                  [(self.th, self.tidx[rows], self.t_local)])[0]
        else:
            hid = hidden[rows]
        self.status[rows[hid]] = 2
        if not (self.status == 0).any():
            self.done = True

    # -- proofs over bundles
    def descend(self) -> None:
        """Walk the bundles; mark proved-visible points; keep the leaf bundles for rays."""
        _descend_many([self])

    def leaf_pairs(self, stage: int):
        """Sample pairs of the leaf bundles: stage 1 one viewer point per target point, stage 2 all."""
        if self.done or self.leaves is None or not len(self.leaves[0]):
            return None
        lv, lt = self.leaves
        tt, vt = self.ttree, self.vtree
        pos, owner = _ranges(tt.start[lt], tt.end[lt])
        rows = self.row_of[tt.perm[pos]]
        ok = rows >= 0
        ok[ok] = self.status[rows[ok]] == 0
        rows, owner = rows[ok], owner[ok]
        if not len(rows):
            return None
        if stage == 1:
            mid = (vt.start[lv] + vt.end[lv]) // 2
            return rows, vt.perm[mid][owner]
        vs, ve = vt.start[lv][owner], vt.end[lv][owner]
        vpos, o2 = _ranges(vs, ve)
        keep = vpos != ((vs + ve) // 2)[o2]          # stage 1 cast that one already
        return rows[o2][keep], vt.perm[vpos][keep]

    def finish(self):
        if not self.stopped:
            self.status[self.status == 0] = 2
        self.done = True


_DRAWS: dict = {}


def _draws(seed: int, n_rows: int, n_v: int, k: int, n_up_t: int, n_up_v: int, h: int) -> tuple:
    """The index draws of ``random_pairs`` (a generator seeded with ``seed``, the same four
    calls in the same order), kept per argument tuple: seeding a generator costs more than
    the draws, and a path asks the same sizes again and again. Read-only arrays."""
    key = (seed, n_rows, n_v, k, n_up_t, n_up_v, h)
    got = _DRAWS.get(key)
    if got is None:
        rng = np.random.default_rng(seed)
        got = (rng.integers(0, n_rows, k), rng.integers(0, n_v, k), rng.integers(0, n_up_t, h),
               rng.integers(0, n_up_v, h))
        for a in got:
            a.setflags(write=False)
        if len(_DRAWS) >= 1024:
            _DRAWS.clear()
        _DRAWS[key] = got
    return got


_TURNED: dict = {}


def _turned(tree: _Tree, facing: float) -> np.ndarray:
    """A tree's node corners turned to a facing (nodes, _NC, 3), kept per (tree, facing)."""
    key = (id(tree), float(facing))
    got = _TURNED.get(key)
    if got is not None and got[0] is tree:
        return got[1]
    c = _rotate(tree.corners.reshape(-1, 3), facing).reshape(-1, _NC, 3)
    c.setflags(write=False)
    if len(_TURNED) >= 512:
        _TURNED.clear()
    _TURNED[key] = (tree, c)
    return c


def _caps(Vc, Tc):
    """Each bundle's capsule (rows of Vc, Tc (n, k, 3)): the corner sets' centres cv, ct, the
    axis ab = ct - cv, its squared length, and the radius (the larger corner distance)."""
    cv, ct = Vc.mean(axis=1), Tc.mean(axis=1)
    dv, dt = Vc - cv[:, None], Tc - ct[:, None]
    rb = np.sqrt(np.maximum(np.einsum("ijk,ijk->ij", dv, dv).max(axis=1), np.einsum("ijk,ijk->ij", dt, dt).max(axis=1)))
    ab = ct - cv
    return cv, ct, ab, np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12), rb


def _near_pairs(Vc, Tc, b, oc, orad, caps=None) -> np.ndarray:
    """(p,) bool: obstacle bounding spheres (oc (p,3), orad (p,)) meet the capsule holding the
    segments of bundle b (rows of Vc, Tc (n, 8, 3)); as ``_near_bundles`` for (bundle, obstacle)
    pairs. ``caps``: the bundles' ``_caps`` when already computed."""
    cv, ct, ab, L2, rb = _caps(Vc, Tc) if caps is None else caps
    abb, cvb = ab[b], cv[b]
    t = np.clip(np.einsum("ij,ij->i", oc, abb) - np.einsum("ij,ij->i", cvb, abb), 0, None) / L2[b]
    t = np.clip(t, 0, 1)
    p = cvb + t[:, None] * abb - oc
    dist = np.sqrt(np.einsum("ij,ij->i", p, p))
    return dist <= orad + rb[b] + 1e-9


def _open_corners(ft, TC, TL, TS, TE, TROW, TPTS, open_pt) -> np.ndarray:
    """(len(ft), 8, 3): for each target node of the frontier, corners of a convex set holding
    its target points still undecided (the others need no proof): a leaf's open points
    themselves (repeated up to 8); an inner node's box while all are open, else the
    axis-aligned box around the open ones."""
    un, inv = np.unique(ft, return_inverse=True)
    pos, owner = _ranges(TS[un], TE[un])
    allowed = np.bincount(owner[TROW[pos] >= 0], minlength=len(un))
    ok = open_pt[pos]
    pos, owner = pos[ok], owner[ok]
    cnt = np.bincount(owner, minlength=len(un))
    first = np.concatenate([[0], np.cumsum(cnt)[:-1]])
    pts = TPTS[pos]
    nc = TC.shape[1]
    out = np.empty((len(un), nc, 3))
    has = cnt > 0
    if not has.all():                      # (such bundles are dropped before; stay safe)
        out[~has] = 0.0
    leaf = (TL[un] < 0) & has
    if leaf.any():
        li = np.nonzero(leaf)[0]
        j = first[li][:, None] + (np.arange(nc)[None, :] % cnt[li][:, None])
        out[li] = pts[j]
    inner = ~leaf & has
    out[inner & (cnt == allowed)] = TC[un[inner & (cnt == allowed)]]
    inner &= cnt < allowed
    if inner.any():
        st = first[has]
        lo = np.minimum.reduceat(pts, st, axis=0)
        hi = np.maximum.reduceat(pts, st, axis=0)
        hidx = np.nonzero(has)[0]
        sel = inner[hidx]
        lo, hi, ii = lo[sel], hi[sel], hidx[sel]
        out[ii] = np.where(_BOX_CORNERS[:nc][None], hi[:, None, :], lo[:, None, :])
    return out[inv]


# which coordinates of a box's corner are its upper ones: the 8 corners (then again, for
# more than 8 corner slots)
_BOX_CORNERS = np.array([(x, y, z) for x in (0, 1) for y in (0, 1) for z in (0, 1)] * 2, dtype=bool)


_FREE = -1       # a proof's bundle settled otherwise (clear, decided, hidden by forests)
_RAYS = -2       # a proof's bundle left to rays


def _seed_kinds(seed, convex: list, offset: int) -> np.ndarray:
    """Per bundle of a seed (``q.proof`` of a nearby query): the index (``offset`` + its place in
    ``convex``) of the obstacle that hid it there when this query has that obstacle too, else
    ``_RAYS`` for a bundle that went to rays, else ``_FREE``."""
    if len(seed) < 5:
        return np.full(len(seed[2]), _FREE)
    keys = seed[4]
    out = np.where(keys == _RAYS, _RAYS, _FREE)
    obs = keys > 0
    if obs.any():
        where = {id(o[1]): offset + j for j, o in enumerate(convex)}
        got = np.array([where.get(int(x), _FREE) for x in keys[obs]], dtype=np.int64)
        out[obs] = got
    return out


def _descend_many(queries: list) -> None:
    """The bundle descent of several queries at once (each query's bundles tested only
    against its own obstacles): one numpy pass per level for all of them.

    A bundle is every segment between two k-d tree nodes (boxes of sample points) of
    the viewer's and the target's lattices. It is clear when a face plane of each
    nearby obstacle's convex superset separates its 16 corners (then all its target
    points are seen); hidden when every segment between the boxes' corners passes
    through one convex obstacle (shrunk by ``_SHRINK``), or through ``forest_limit``
    convex Forest areas. Undecided bundles are split (the larger box first); bundles
    of at most ``_RAY_BUNDLE`` sample pairs, or two leaves, are left for rays
    (``q.leaves``). A query's frontier above ``_MAX_FRONTIER`` bundles goes to rays whole.
    """
    qs = [q for q in queries if not q.done]
    if not qs:
        return
    nq = len(qs)
    # global node tables: each query's two trees, in world coordinates
    VC, TC, VL, VR, VS, VE, VZ, VP, TL, TR, TS, TE, TZ = ([] for _ in range(13))
    voff, toff, vpoff, tpoff, rowoff = [0], [0], [0], [0], [0]
    TROW, TPTS = [], []
    for q in qs:
        vt, tt = q.vtree, q.ttree
        VC.append(_turned(vt, q.vh.facing) + np.array([q.vh.x, q.vh.y, q.vh.z]))
        TC.append(_turned(tt, q.th.facing) + np.array([q.th.x, q.th.y, q.th.z]))
        VL.append(np.where(vt.left >= 0, vt.left + voff[-1], -1))
        VR.append(np.where(vt.right >= 0, vt.right + voff[-1], -1))
        VS.append(vt.start + vpoff[-1])
        VE.append(vt.end + vpoff[-1])
        VZ.append(vt.size)
        VP.append(vt.perm)
        TL.append(np.where(tt.left >= 0, tt.left + toff[-1], -1))
        TR.append(np.where(tt.right >= 0, tt.right + toff[-1], -1))
        TS.append(tt.start + tpoff[-1])
        TE.append(tt.end + tpoff[-1])
        TZ.append(tt.size)
        tr = q.row_of[tt.perm]
        TROW.append(np.where(tr >= 0, tr + rowoff[-1], -1))
        TPTS.append(q.T_all[tt.perm])
        voff.append(voff[-1] + len(vt.left))
        toff.append(toff[-1] + len(tt.left))
        vpoff.append(vpoff[-1] + len(vt.perm))
        tpoff.append(tpoff[-1] + len(tt.perm))
        rowoff.append(rowoff[-1] + q.nt)
    VC, TC = np.concatenate(VC), np.concatenate(TC)
    VL, VR, VS, VE, VZ, VP = (np.concatenate(x) for x in (VL, VR, VS, VE, VZ, VP))
    TL, TR, TS, TE, TZ, TROW = (np.concatenate(x) for x in (TL, TR, TS, TE, TZ, TROW))
    TPTS = np.concatenate(TPTS)
    voff, toff, rowoff = np.asarray(voff), np.asarray(toff), np.asarray(rowoff)
    status = np.concatenate([q.status for q in qs])
    witness = np.concatenate([q.witness for q in qs])
    row_q = np.repeat(np.arange(nq), [q.nt for q in qs])
    weight = np.concatenate([q.t_weight[q.tidx] for q in qs])
    want_all = np.array([q.want_all for q in qs])
    min_w = np.array([q.min_w for q in qs])
    vis_w = np.array([q.visible_weight for q in qs])
    done = np.zeros(nq, dtype=bool)
    # global obstacle tables
    CL = [o for q in qs for o in q.clear_obs]
    cl_off = np.concatenate([[0], np.cumsum([len(q.clear_obs) for q in qs])])
    CV = [o for q in qs for o in q.convex]
    cv_off = np.concatenate([[0], np.cumsum([len(q.convex) for q in qs])])
    cl_pad, cv_pad = _pad_planes(CL), _pad_planes(CV)
    cl_c = np.array([o[3] for o in CL]).reshape(-1, 3)
    cl_r = np.array([o[4] for o in CL], dtype=float)
    cl_lo = np.array([o[5][0] for o in CL], dtype=float).reshape(-1, 3)     # bounding boxes
    cl_hi = np.array([o[5][1] for o in CL], dtype=float).reshape(-1, 3)
    cv_c = np.array([o[3] for o in CV]).reshape(-1, 3)
    cv_r = np.array([o[4] for o in CV], dtype=float)
    nforest = np.array([len(q.forest_block) >= q.s.forest_limit for q in qs])

    def mark(rows, vidx):
        """Mark target rows visible (global rows, viewer witness indices); update the queries."""
        new = status[rows] == 0
        rows, vidx = rows[new], vidx[new]
        if not len(rows):
            return
        ur, first = np.unique(rows, return_index=True)
        status[ur] = 1
        witness[ur] = vidx[first]
        vis_w[:] += np.bincount(row_q[ur], weights=weight[ur], minlength=nq)
        hit = np.unique(row_q[ur])
        for k in hit:
            if not want_all[k] and vis_w[k] >= min_w[k]:
                done[k] = True
                qs[k].stopped = True
        left = np.bincount(row_q[status == 0], minlength=nq)
        done[hit[left[hit] == 0]] = True

    # the first frontier: each query's root bundle, or the bundles of a proof it was seeded
    # with (a partition of the same two trees' pairs, from a nearby query: ``q.seed``)
    fv, ft, fq, fk = [], [], [], []
    cap = np.full(nq, _MAX_FRONTIER)
    for k, q in enumerate(qs):
        seed = getattr(q, "seed", None)
        if seed is not None and seed[0] is q.vtree and seed[1] is q.ttree and len(seed[2]):
            fv.append(seed[2] + voff[k])
            ft.append(seed[3] + toff[k])
            fq.append(np.full(len(seed[2]), k))
            fk.append(_seed_kinds(seed, q.convex, int(cv_off[k])))
            cap[k] = max(_MAX_FRONTIER, 2 * len(seed[2]))
        else:
            fv.append(voff[k:k + 1])
            ft.append(toff[k:k + 1])
            fq.append(np.array([k]))
            fk.append(np.array([_FREE]))
    fv, ft, fq, fk = np.concatenate(fv), np.concatenate(ft), np.concatenate(fq), np.concatenate(fk)
    parts = []                  # every bundle that left the frontier (for the queries' ``proof``), with its kind
    leaves_v, leaves_t, leaves_q = [], [], []
    if (fk != _FREE).any():
        # a seed's bundles as they were settled nearby: one proved hidden by an obstacle this
        # query has too is tried against that obstacle alone first (no obstacle lists); one
        # that went to rays goes to rays again
        open_pt = TROW >= 0
        open_pt[open_pt] = status[TROW[open_pt]] == 0
        cs = np.concatenate([[0], np.cumsum(open_pt)])
        sel = np.nonzero((fk >= 0) & (cs[TE[ft]] - cs[TS[ft]] > 0))[0]
        hid = np.zeros(len(sel), dtype=bool)
        if len(sel):
            Vc = VC[fv[sel]]
            Tc = _open_corners(ft[sel], TC, TL, TS, TE, TROW, TPTS, open_pt)
            g = fk[sel]
            for members, local, N, D in cv_pad:
                m = np.nonzero(members[g])[0]
                if len(m):
                    lk = local[g[m]]
                    hid[m] = _corners_through(Vc[m], Tc[m], N[lk], D[lk] - _SHRINK)
        go = np.zeros(len(fv), dtype=bool)
        go[sel[hid]] = True
        parts.append((fv[go], ft[go], fq[go], fk[go]))
        ray = fk == _RAYS
        leaves_v.append(fv[ray])
        leaves_t.append(ft[ray])
        leaves_q.append(fq[ray])
        rest = ~go & ~ray
        fv, ft, fq = fv[rest], ft[rest], fq[rest]
    # obstacle lists per bundle, as (bundle, obstacle) pairs: a child bundle's segments are
    # some of its parent's, so an obstacle the parent's segments all miss (far from their
    # capsule, outside a face of its box, or a separating plane) is dropped for the children
    ck, cb = _ranges(cl_off[fq], cl_off[fq + 1])       # clear proofs' obstacles
    hk, hb = _ranges(cv_off[fq], cv_off[fq + 1])       # hiding proofs' obstacles (far ones dropped)

    def sub(mask):
        """Keep the bundles of ``mask`` in the obstacle pairs (renumbered)."""
        nonlocal cb, ck, hb, hk
        new = np.cumsum(mask) - 1
        k1, k2 = mask[cb], mask[hb]
        cb, ck, hb, hk = new[cb[k1]], ck[k1], new[hb[k2]], hk[k2]
    depth = 0
    while len(fv):
        depth += 1
        live = ~done[fq]
        if not live.all():
            sub(live)
        fv, ft, fq = fv[live], ft[live], fq[live]
        # drop bundles whose target box has nothing left to decide
        open_pt = TROW >= 0
        open_pt[open_pt] = status[TROW[open_pt]] == 0
        cs = np.concatenate([[0], np.cumsum(open_pt)])
        keep = cs[TE[ft]] - cs[TS[ft]] > 0
        if not keep.all():
            parts.append((fv[~keep], ft[~keep], fq[~keep], np.full(int((~keep).sum()), _FREE)))
            sub(keep)
        fv, ft, fq = fv[keep], ft[keep], fq[keep]
        if not len(fv):
            break
        big = np.bincount(fq, minlength=nq) > cap
        if big.any():
            b = big[fq]
            leaves_v.append(fv[b])
            leaves_t.append(ft[b])
            leaves_q.append(fq[b])
            sub(~b)
            fv, ft, fq = fv[~b], ft[~b], fq[~b]
            if not len(fv):
                break
        Vc, Tc = VC[fv], _open_corners(ft, TC, TL, TS, TE, TROW, TPTS, open_pt)
        # the hiding proofs' candidates first: (bundle, convex obstacle) pairs whose segment
        # between the two corner sets' centres passes through the obstacle (shrunk); such a
        # bundle holds a blocked segment, so it cannot be proved clear (no plane test for it)
        caps = _caps(Vc, Tc)
        cvm, ctm = caps[0], caps[1]
        blocked = np.zeros(len(fv), dtype=bool)
        cand = []
        if len(hb):
            near = _near_pairs(Vc, Tc, hb, cv_c[hk], cv_r[hk], caps)
            hb, hk = hb[near], hk[near]
            bi, ki = hb, hk
            # necessary (cheap): the segment between the centres meets the bounding sphere
            ab = ctm[bi] - cvm[bi]
            t = np.clip(np.einsum("ij,ij->i", cv_c[ki] - cvm[bi], ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-30), 0, 1)
            gap = cvm[bi] + t[:, None] * ab - cv_c[ki]
            meet = np.einsum("ij,ij->i", gap, gap) <= (cv_r[ki] + 1e-6) ** 2
            bi, ki = bi[meet], ki[meet]
            for ci_, (members, local, N, D) in enumerate(cv_pad if len(bi) else ()):
                sel = np.nonzero(members[ki])[0]
                if not len(sel):
                    continue
                b_, k_ = bi[sel], local[ki[sel]]
                kp = _through_each(cvm[b_][:, None, :], ctm[b_][:, None, :], N[k_], D[k_] - _SHRINK)[:, 0]
                cand.append((ci_, b_[kp], k_[kp], cv_r[ki[sel][kp]], ki[sel][kp]))
                blocked[b_[kp]] = True
        # clear: every near obstacle of the bundle's query separated by one of its planes
        clear = ~blocked
        if len(cb):
            near = _near_pairs(Vc, Tc, cb, cl_c[ck], cl_r[ck], caps)
            cb, ck = cb[near], ck[near]
            test = ~blocked[cb]
            bi, ki = cb[test], ck[test]
            if len(bi):
                C16 = np.concatenate([Vc, Tc], axis=1)
                # a face of the obstacle's bounding box separating the 16 corners separates
                # it too (the box holds the convex superset): the cheap test first
                cmin, cmax = C16.min(axis=1), C16.max(axis=1)
                boxsep = ((cmin[bi] > cl_hi[ki] + 1e-9) | (cmax[bi] < cl_lo[ki] - 1e-9)).any(axis=1)
                bi, ki = bi[~boxsep], ki[~boxsep]
                still = np.zeros(len(bi), dtype=bool)       # not separated: children test it again
                for members, local, N, D in cl_pad:
                    sel = np.nonzero(members[ki])[0]
                    cstep = max(64, _EACH_CHUNK // (C16.shape[1] * N.shape[1]))
                    for c0 in range(0, len(sel), cstep):
                        q_ = sel[c0:c0 + cstep]
                        b_, k_ = bi[q_], local[ki[q_]]
                        vals = np.matmul(C16[b_], np.ascontiguousarray(N[k_].transpose(0, 2, 1))) - D[k_][:, None, :]
                        still[q_] = ~(vals > 1e-9).all(axis=1).any(axis=1)
                bi, ki = bi[still], ki[still]
            cb, ck = np.concatenate([cb[~test], bi]), np.concatenate([ck[~test], ki])
            clear &= np.bincount(cb, minlength=len(fv)) == 0
        if clear.any():
            ok = np.nonzero(clear)[0]
            parts.append((fv[ok], ft[ok], fq[ok], np.full(len(ok), _FREE)))
            pos, owner = _ranges(TS[ft[ok]], TE[ft[ok]])
            rows = TROW[pos]
            good = rows >= 0
            vwit = VP[VS[fv[ok]]][owner]
            mark(rows[good], vwit[good])
            rest = ~clear & ~done[fq]
            sub(rest)
            new_i = np.cumsum(rest) - 1
            cand = [(ci_, new_i[b_[rest[b_]]], k_[rest[b_]], r_[rest[b_]], g_[rest[b_]]) for ci_, b_, k_, r_, g_ in cand]
            fv, ft, fq, Vc, Tc = fv[rest], ft[rest], fq[rest], Vc[rest], Tc[rest]
            if not len(fv):
                break
        # hidden: one convex obstacle holds every corner segment (or enough Forest areas)
        hidden = np.zeros(len(fv), dtype=bool)
        hider = np.full(len(fv), _FREE)          # the obstacle (index into CV) that hides it
        if cand:
            # the largest candidate of each bundle first, then the others of the bundles left
            cc = np.concatenate([np.full(len(b_), ci_) for ci_, b_, k_, r_, g_ in cand])
            cbn = np.concatenate([b_ for ci_, b_, k_, r_, g_ in cand])
            ckn = np.concatenate([k_ for ci_, b_, k_, r_, g_ in cand])
            crn = np.concatenate([r_ for ci_, b_, k_, r_, g_ in cand])
            cgn = np.concatenate([g_ for ci_, b_, k_, r_, g_ in cand])
            o = np.lexsort((-crn, cbn))
            cc, cbn, ckn, cgn = cc[o], cbn[o], ckn[o], cgn[o]
            head = np.ones(len(cbn), dtype=bool)
            head[1:] = cbn[1:] != cbn[:-1]
            for rnd in (head, ~head):
                for ci_ in np.unique(cc[rnd]):
                    members, local, N, D = cv_pad[ci_]
                    sel = np.nonzero(rnd & (cc == ci_) & ~hidden[cbn])[0]
                    b_, k_ = cbn[sel], ckn[sel]
                    # (``_through_each`` works in cache-sized row blocks itself)
                    ok = _corners_through(Vc[b_], Tc[b_], N[k_], D[k_] - _SHRINK)
                    hidden[b_[ok]] = True
                    hider[b_[ok]] = cgn[sel][ok]
        if nforest.any():
            for k in np.nonzero(nforest)[0]:
                sel = np.nonzero((fq == k) & ~hidden)[0]
                if not len(sel):
                    continue
                q = qs[k]
                na, nb = Vc.shape[1], Tc.shape[1]
                P0 = np.repeat(Vc[sel], nb, axis=1).reshape(-1, 3)
                P1 = np.tile(Tc[sel], (1, na, 1)).reshape(-1, 3)
                cnt = np.zeros(len(sel), dtype=np.int64)
                for name, n, d, _, _ in q.forest_block:
                    cnt += _through(P0, P1, n, d - _SHRINK).reshape(len(sel), na * nb).all(axis=1)
                hidden[sel[cnt >= q.s.forest_limit]] = True
        if hidden.any():
            parts.append((fv[hidden], ft[hidden], fq[hidden], hider[hidden]))
            sub(~hidden)
            fv, ft, fq = fv[~hidden], ft[~hidden], fq[~hidden]
            if not len(fv):
                break
        vleaf = VL[fv] < 0
        tleaf = TL[ft] < 0
        # small bundles: rays are cheaper than proofs
        pairs = (VE[fv] - VS[fv]) * (TE[ft] - TS[ft])
        both = (vleaf & tleaf) | (pairs <= _RAY_BUNDLE)
        if both.any():
            leaves_v.append(fv[both])
            leaves_t.append(ft[both])
            leaves_q.append(fq[both])
        # split the larger box; while the frontier is small, both boxes (four children: the
        # levels where a handful of bundles is tested cost numpy's overhead, not work)
        split_b = ~both & ~vleaf & ~tleaf & (len(fv) <= _SPLIT_BOTH)
        split_t = ~both & ~split_b & ~tleaf & (vleaf | (TZ[ft] >= VZ[fv]))
        split_v = ~both & ~split_b & ~split_t
        nchild = 2 * split_t + 2 * split_v + 4 * split_b
        cstart = np.cumsum(nchild) - nchild
        # the children's obstacle pairs: each parent's, once per child
        for which in ("c", "h"):
            b_, k_ = (cb, ck) if which == "c" else (hb, hk)
            ok = nchild[b_] > 0
            b_, k_ = b_[ok], k_[ok]
            nb_, owner = _ranges(cstart[b_], cstart[b_] + nchild[b_])
            if which == "c":
                cb, ck = nb_, k_[owner]
            else:
                hb, hk = nb_, k_[owner]
        # children in their parents' order: (v, t-left), (v, t-right) for a target split,
        # (v-left, t), (v-right, t) for a viewer split, the four combinations for both
        par = np.repeat(np.arange(len(fv)), nchild)
        j = np.arange(len(par)) - cstart[par]
        pv_, pt_ = fv[par], ft[par]
        sv_, st_, sb_ = split_v[par], split_t[par], split_b[par]
        fv = np.where(st_, pv_, np.where((sv_ & (j == 0)) | (sb_ & (j < 2)), VL[pv_],
                                         np.where(sv_ | sb_, VR[pv_], pv_)))
        ft = np.where(sv_, pt_, np.where((st_ & (j == 0)) | (sb_ & (j % 2 == 0)), TL[pt_], TR[pt_]))
        fq = fq[par]
    lv = np.concatenate(leaves_v) if leaves_v else np.zeros(0, np.int64)
    lt = np.concatenate(leaves_t) if leaves_t else np.zeros(0, np.int64)
    lq = np.concatenate(leaves_q) if leaves_q else np.zeros(0, np.int64)
    # each query's partition of its pairs (proved clear, proved hidden, decided, left for rays)
    pv = np.concatenate([lv] + [p_[0] for p_ in parts])
    pt = np.concatenate([lt] + [p_[1] for p_ in parts])
    pq = np.concatenate([lq] + [p_[2] for p_ in parts])
    pk = np.concatenate([np.full(len(lv), _RAYS)] + [p_[3] for p_ in parts])
    porder = np.argsort(pq, kind="stable")
    pv, pt, pq, pk = pv[porder], pt[porder], pq[porder], pk[porder]
    # the kinds as kept in a proof: an obstacle by its planes' identity (another query's
    # obstacle list numbers them differently), else the markers
    cv_ids = np.array([id(o[1]) for o in CV] + [0], dtype=np.int64)
    pk = np.where(pk >= 0, cv_ids[np.maximum(pk, 0)], pk)
    pbounds = np.searchsorted(pq, np.arange(nq + 1))
    order = np.argsort(lq, kind="stable")
    lv, lt, lq = lv[order], lt[order], lq[order]
    bounds = np.searchsorted(lq, np.arange(nq + 1))
    for k, q in enumerate(qs):
        q.status = status[rowoff[k]:rowoff[k + 1]].copy()
        q.witness = witness[rowoff[k]:rowoff[k + 1]].copy()
        q.visible_weight = float(vis_w[k])
        q.depth = depth
        # a complete partition (the descent ran to its end) seeds a later query of the same trees
        q.proof = None if done[k] else (q.vtree, q.ttree,
                                        (pv[pbounds[k]:pbounds[k + 1]] - voff[k]).astype(np.int32),
                                        (pt[pbounds[k]:pbounds[k + 1]] - toff[k]).astype(np.int32),
                                        pk[pbounds[k]:pbounds[k + 1]])
        if done[k]:
            q.done = True
            q.leaves = None
            continue
        a, b = bounds[k], bounds[k + 1]
        q.leaves = (lv[a:b] - voff[k], lt[a:b] - toff[k])


class _HB:
    """A hitbox-like record for an obstacle model."""
    def __init__(self, c, r, h):
        self.x, self.y, self.z = float(c[0]), float(c[1]), float(c[2])
        self.radius, self.height = float(r), float(h)


class _Records(list):
    """The blocking models as (id, base centre (3,), radius, height), with ``key``: the same
    as plain values (what the tables built from them are kept by)."""
    key: tuple = ()


_RECORDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()     # world -> (key, records)


def _model_records(world, s: SightSettings):
    """The blocking models (``_Records``), the same object while they stand where they did
    (callers only read it)."""
    key = []
    for hb in world.models.values():
        h = float(hb.height)
        if not s.crouched_and_dead_block and h < hb.full_height:
            continue
        key.append((hb.id, float(hb.x), float(hb.y), float(hb.z), float(hb.radius), h))
    key = tuple(key)
    got = _RECORDS.get(world)
    if got is not None and got[0] == key:
        return got[1]
    out = _Records((mid, np.array([x, y, z]), r, h) for mid, x, y, z, r, h in key)
    out.key = key
    for mm in out:
        mm[1].setflags(write=False)
    _RECORDS[world] = (key, out)
    return out


def _record_arrays(mods) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The models' base centres (m, 3), radii and heights as arrays (kept on a ``_Records``)."""
    got = getattr(mods, "arrays", None)
    if got is None:
        got = (np.array([m[1] for m in mods], dtype=float).reshape(-1, 3),
               np.array([m[2] for m in mods], dtype=float), np.array([m[3] for m in mods], dtype=float))
        if isinstance(mods, _Records):
            mods.arrays = got
    return got


def _records_key(mods) -> tuple:
    """``_Records.key`` of a list of model records (worked out for a plain list)."""
    got = getattr(mods, "key", None)
    if got is not None:
        return got
    return tuple((mm[0], float(mm[1][0]), float(mm[1][1]), float(mm[1][2]), float(mm[2]), float(mm[3])) for mm in mods)


def _cast(world, batch) -> None:
    """One terrain ray call for (query, (rows, viewer indices)) pairs, then models and forests."""
    batch = [(q, pr) for q, pr in batch if pr is not None and len(pr[0])]
    if not batch:
        return
    P0 = np.concatenate([q.V[v] for q, (r, v) in batch])
    P1 = np.concatenate([q.T_all[q.tidx[r]] for q, (r, v) in batch])
    # terrain rays only for the queries with terrain near their segments
    need = np.concatenate([np.full(len(r), not getattr(q, "terrain_free", False)) for q, (r, v) in batch])
    occ = np.zeros(len(P0), dtype=bool)
    if need.all():
        occ = world.rays.occluded(P0, P1)
        if _RECORD is not None:
            _RECORD.append((P0, P1))
    elif need.any():
        occ[need] = world.rays.occluded(P0[need], P1[need])
        if _RECORD is not None:
            _RECORD.append((P0[need], P1[need]))
    at = 0
    for q, (r, v) in batch:
        n = len(r)
        clear = ~occ[at:at + n]
        if clear.any() and (q.models or q.forests_active):
            idx = np.nonzero(clear)[0]
            extra = q.clear_extra(P0[at + idx], P1[at + idx])
            clear[idx[extra]] = False
        at += n
        q.absorb(r, v, clear)


_RECORD: list | None = None      # the benchmark sets a list here to collect the cast segments


def _probe_batch(world, s: SightSettings, items, models) -> np.ndarray:
    """The yes/no probe of many pairs at once, without building their queries.

    ``items``: (vh, th, half, exclude) per pair; ``models``: the blocking model
    records. Each pair gets exactly the probe a ``_Query`` would cast (its first
    16 allowed target points x the 2 viewer points facing the target); all the
    segments go through ONE Embree call, then one vectorised test against every
    model (a pair's own models excluded) and the pair's Forest areas.
    Returns (k,) int8: 1 LoS (a probe segment is clear: exact, it is a
    witness), -1 no LoS (no allowed target or viewer point), 0 undecided.
    """
    out = np.zeros(len(items), dtype=np.int8)
    if not items or s.min_visible_area_mm2 > 0:
        return out
    st = _static(world)
    P0, P1, owner, none = _probe_frames(items, s)
    out[none] = -1
    if not len(P0):
        return out
    clear = ~world.rays.occluded(P0, P1)
    if _RECORD is not None:
        _RECORD.append((P0, P1))
    if clear.any() and s.models_block and models:
        idx = np.nonzero(clear)[0]
        ids = [m[0] for m in models]
        col = {m: j for j, m in enumerate(ids)}
        excl = np.full((len(items), 2), len(ids), dtype=np.int64)      # len(ids): a dummy column
        for k, (vh, th, half, exclude) in enumerate(items):
            e = [col[m] for m in exclude if m in col][:2]
            excl[k, :len(e)] = e
        c = np.array([m[1] for m in models])
        r = np.array([m[2] for m in models])
        hh = np.array([m[3] for m in models])
        hit = np.zeros((len(idx), len(ids) + 1), dtype=bool)
        hit[:, :-1] = _segments_hit_cylinders_any(P0[idx], P1[idx], c, r, hh)
        ex = excl[owner[idx]]
        hit[np.arange(len(idx))[:, None], ex] = False
        clear[idx[hit.any(axis=1)]] = False
    if clear.any() and st.forests:
        for k in np.unique(owner[clear]):
            vh, th, half, exclude = items[int(k)]
            forests = _pair_forests(st, vh, th, s)
            if len(forests) < s.forest_limit:
                continue
            idx = np.nonzero(clear & (owner == k))[0]
            clear[idx[_forest_blocked(P0[idx], P1[idx], forests, s)]] = False
    seen = np.zeros(len(items), dtype=bool)
    np.logical_or.at(seen, owner, clear)
    out[seen] = 1
    return out


def _static_convex(st: _Static):
    """Every convex static solid (convex pieces, boxes inside heightfields), padded for numpy:
    (names, N (k, m, 3), D (k, m), centres (k, 3), radii (k,)); cached on the static record."""
    got = getattr(st, "_convex_all", None)
    if got is not None:
        return got
    obs = []
    for k, info in enumerate(st.pieces):
        if not len(info.offsets):
            continue
        if info.convex:
            obs.append((info.id, info.normals, info.offsets, st.centre[k], float(st.radius[k])))
        else:
            for n_, d_, c_, r_ in info.inner:
                obs.append((info.id, n_, d_, c_, r_))
    m = max([18] + [len(o[2]) for o in obs])
    N = np.zeros((len(obs), m, 3))
    D = np.full((len(obs), m), 1e30)
    for j, o in enumerate(obs):
        N[j, :len(o[2])] = o[1]
        D[j, :len(o[2])] = o[2]
    cen = np.array([o[3] for o in obs]).reshape(-1, 3)
    rad = np.array([o[4] for o in obs], dtype=float)
    st._convex_all = ([o[0] for o in obs], N, D, cen, rad)
    return st._convex_all


_HIDING_TABLES: dict = {}


def _hiding_table(st: _Static, mods: list) -> tuple:
    """``_hidden_batch``'s obstacles: every convex static solid (``_static_convex``) and the
    blocking models' inscribed prisms, padded for numpy: (names, N (K, m, 3), D (K, m),
    D - _SHRINK, centres (K, 3), radii (K,), each row's number of real planes (K,), the
    number of static rows, each model's row); kept per static record and model placement."""
    key = (id(st), _records_key(mods))
    got = _HIDING_TABLES.get(key)
    if got is not None and got[0] is st:
        return got[1]
    names, N, D, cen, rad = _static_convex(st)
    nstat = len(D)
    m = N.shape[1]
    if mods:
        MN = np.zeros((len(mods), m, 3))
        MD = np.full((len(mods), m), 1e30)
        mc, mr = [], []
        for j, (mid, c, r, h) in enumerate(mods):
            n_, d_ = _model_planes(c, r, h)[1][:2]
            MN[j, :len(d_)] = n_
            MD[j, :len(d_)] = d_
            mc.append([c[0], c[1], c[2] + h / 2])
            mr.append(math.hypot(r, h / 2))
        N = np.concatenate([N, MN])
        D = np.concatenate([D, MD])
        cen = np.concatenate([cen, np.array(mc)])
        rad = np.concatenate([rad, np.array(mr)])
        names = list(names) + [mm[0] for mm in mods]
    # each row's number of planes (the rest of the row is padding, which every point
    # satisfies): the tests take only as many columns as their rows need
    sizes = (D < 1e29).sum(axis=1)
    model_row = {mm[0]: nstat + j for j, mm in enumerate(mods)}
    out = (names, N, D, D - _SHRINK, cen, rad, sizes, nstat, model_row)
    for a in out:
        if isinstance(a, np.ndarray):
            a.setflags(write=False)
    if len(_HIDING_TABLES) >= 64:
        _HIDING_TABLES.clear()
    _HIDING_TABLES[key] = (st, out)
    return out


def _hidden_batch(world, s: SightSettings, items, models) -> np.ndarray:
    """(k,) bool: the pair is proved hidden at the root of its descent, for many pairs at once.

    The proof a ``_Query`` makes for its first bundle (every segment between the
    viewer's (front) lattice box and the target's lattice box): all 64 segments
    between the two boxes' corners pass through one convex obstacle shrunk by
    ``_SHRINK`` (a convex static solid, or another model's inscribed prism), and
    no sample point of either hitbox lies inside that obstacle. The segments
    meeting a convex body form a convex set in each endpoint, so the corners
    prove it for every segment. One numpy pass over all pairs x all obstacles.
    """
    out = np.zeros(len(items), dtype=bool)
    if not items:
        return out
    st = _static(world)
    mods = models if s.models_block else []
    names, N, D, Ds, cen, rad, sizes, nstat, model_row = _hiding_table(st, mods)
    K = len(D)
    if K == 0:
        return out

    def by_size(f, ii_, kk_, small):
        """f(ii, kk, columns) -> (len,) bool on the rows grouped by their obstacles' sizes
        (up to ``small`` rows x columns: one call, which is cheaper)."""
        res = np.zeros(len(kk_), dtype=bool)
        sz = sizes[kk_]
        if len(sz) and len(sz) * int(sz.max()) <= small:
            return f(ii_, kk_, int(sz.max())) if int(sz.min()) > 0 else res
        lo = 0
        for hi in (8, 20, 64, 10 ** 9):
            sel = np.nonzero((sz > lo) & (sz <= hi))[0]
            lo = hi
            if len(sel):
                res[sel] = f(ii_[sel], kk_[sel], int(sz[sel].max()))
        return res
    # the root bundles' corners: each tree's root turned (kept per tree and facing), placed
    Vc = np.stack([_turned(_tree_for(vh, s, half), vh.facing)[0] for vh, th, half, exclude in items])
    Tc = np.stack([_turned(_tree_for(th, s, False), th.facing)[0] for vh, th, half, exclude in items])
    Vc += np.array([[vh.x, vh.y, vh.z] for vh, th, half, exclude in items])[:, None, :]
    Tc += np.array([[th.x, th.y, th.z] for vh, th, half, exclude in items])[:, None, :]
    cv, ct = Vc.mean(axis=1), Tc.mean(axis=1)
    # necessary (cheap): the segment between the boxes' centres meets the bounding sphere
    ab = ct - cv
    L2 = np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-30)
    if len(items) == 1:                   # (one pair: plain vector operations are cheaper)
        d = cen - cv[0]
        g = d - np.clip(d @ ab[0] / L2[0], 0, 1)[:, None] * ab[0]
        cand = (np.einsum("kj,kj->k", g, g) <= (rad + 1e-6) ** 2)[None, :]
    else:
        t = np.clip((cen @ ab.T - np.einsum("ij,ij->i", cv, ab)[None, :]) / L2[None, :], 0, 1).T      # (I, K)
        gap = cv[:, None, :] + t[..., None] * ab[:, None, :] - cen[None]
        cand = np.einsum("ikj,ikj->ik", gap, gap) <= (rad[None, :] + 1e-6) ** 2
    if mods:                                                    # a pair's own models never hide it
        for i, (vh, th, half, exclude) in enumerate(items):
            for m_ in exclude:
                j = model_row.get(m_)
                if j is not None:
                    cand[i, j] = False
    ii, kk = np.nonzero(cand)
    if not len(ii):
        return out
    # necessary: the segment between the boxes' centres passes through the obstacle
    kp = by_size(lambda i_, k_, c_: _through_each(cv[i_][:, None, :], ct[i_][:, None, :], N[k_, :c_], Ds[k_, :c_])[:, 0],
                 ii, kk, 8192)
    ii, kk = ii[kp], kk[kp]
    if not len(ii):
        return out
    frames = {}

    def clear_of_points(i: int, k: int) -> bool:
        """No sample point of pair i inside obstacle k (which would break the proof, as in
        _Query._gather): none is when one face plane has the whole hitbox (a prism around
        it) outside, else each point is tested."""
        vh, th, half, exclude = items[i]
        real = D[k] < 1e29
        touch = False
        for h_ in (vh, th):
            c_ = np.array([h_.x, h_.y, h_.z + h_.height / 2])
            if np.linalg.norm(cen[k] - c_) <= rad[k] + math.hypot(h_.radius, h_.height / 2) + 1e-6:
                if not _hitbox_outside(h_, N[k][real], D[k][real]):
                    touch = True
        if not touch:
            return True
        if i not in frames:
            V, T_all, tmask, vorder, tidx, hints = _frame(vh, th, half, _lattice_for(vh, s), _lattice_for(th, s))
            frames[i] = np.vstack([V[vorder], T_all])
        return bool(_outside(frames[i], N[k][real], D[k][real]).all())
    if len(items) == 1:
        # one pair: its candidates one at a time, the largest first (what the rounds below
        # do for many pairs at once; the same answer: any candidate that proves it)
        for k in kk[np.argsort(-rad[kk], kind="stable")]:
            c_ = int(sizes[k])
            if c_ and _corners_through(Vc, Tc, N[k:k + 1, :c_], Ds[k:k + 1, :c_])[0] and clear_of_points(0, int(k)):
                out[0] = True
                break
        return out
    # each pair's largest candidate first, the others only for the pairs left
    o = np.lexsort((-rad[kk], ii))
    ii, kk = ii[o], kk[o]
    head = np.ones(len(ii), dtype=bool)
    head[1:] = ii[1:] != ii[:-1]
    for rnd in (head, ~head):
        sel = np.nonzero(rnd & ~out[ii])[0]
        if not len(sel):
            continue
        ok = by_size(lambda i_, k_, c_: _corners_through(Vc[i_], Tc[i_], N[k_, :c_], Ds[k_, :c_]), ii[sel], kk[sel],
                     512)
        for i, k in zip(ii[sel][ok], kk[sel][ok]):
            if not out[i] and clear_of_points(int(i), int(k)):
                out[i] = True
    return out


_COLUMNS: dict = {}


_COLUMN_CELL = 0.25      # inches: the grid cells grouping neighbouring columns


def _lattice_columns(lat: _Lattice) -> tuple:
    """(column of each lattice point, the columns' local x, y, each column's group, the
    groups' local centres and radii): points sharing x and y make a column; the columns
    of one cell of a ``_COLUMN_CELL`` grid, a group."""
    got = _COLUMNS.get(id(lat))
    if got is not None and got[0] is lat:
        return got[1]
    xy, inv = np.unique(lat.points[:, :2].round(9), axis=0, return_inverse=True)
    # groups of neighbouring columns (cells of a square grid): their centres and radii
    cell = np.floor(xy / _COLUMN_CELL).astype(np.int64)
    _, grp = np.unique(cell, axis=0, return_inverse=True)
    grp = grp.reshape(-1)
    cnt = np.bincount(grp)
    centre = np.column_stack([np.bincount(grp, xy[:, 0]), np.bincount(grp, xy[:, 1])]) / cnt[:, None]
    rad = np.zeros(len(cnt))
    np.maximum.at(rad, grp, np.linalg.norm(xy - centre[grp], axis=1))
    out = (inv.reshape(-1), xy, grp, centre, rad)
    if len(_COLUMNS) >= 64:
        _COLUMNS.clear()
    _COLUMNS[id(lat)] = (lat, out)
    return out


_PRISMS: dict = {}


def _column_context(world, s: SightSettings, models) -> tuple:
    """What ``_columns_hidden`` needs for one placement of the models: the tall prisms among
    the convex static solids (``engine.sight_columns.Prisms``, built once per static record)
    followed by the blocking models' inscribed prisms, and each model's row."""
    from engine.sight_columns import Prisms
    st = _static(world)
    mods = models if s.models_block else []
    got = getattr(st, "_prisms", None)
    if got is None:
        names, N, D, cen, rad = _static_convex(st)
        got = st._prisms = Prisms(N, D - _SHRINK)
    key = _records_key(mods)
    hit = _PRISMS.get(id(st))
    if hit is not None and hit[0] is st and hit[1] == key:
        return hit[2]
    pr = got
    if mods:
        pr = got.join(Prisms.cylinders(np.array([mm[1] for mm in mods]), np.array([mm[2] for mm in mods]),
                                       np.array([mm[3] for mm in mods]), _SHRINK))
    nstat = len(got.ok)
    ctx = (pr, {mm[0]: nstat + j for j, mm in enumerate(mods)})
    if len(_PRISMS) >= 64:
        _PRISMS.clear()
    _PRISMS[id(st)] = (st, key, ctx)
    return ctx


def _unique_small(a: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(a, return_inverse=True)`` for integers in [0, n), by counting (no sort)."""
    seen = np.zeros(n, dtype=bool)
    seen[a] = True
    rank = np.cumsum(seen) - 1
    return np.nonzero(seen)[0], rank[a]


def _columns_hidden(ctx, s: SightSettings, vh, exclude, vpts: np.ndarray, v_local: _Lattice, targets,
                    need_all: bool = False) -> list:
    """For one viewer and targets (th, tpts, t_local) each: (len(tpts),) bool per target, the
    target lattice points (indices into ``t_local``) hidden from every viewer lattice point
    ``vpts`` by tall vertical prisms seen from above (``engine.sight_columns``): a column of
    the target hidden from every column of the viewer. ``exclude``: models never used (a
    target's own prism is never used anyway: it meets the target's disk)."""
    return _columns_hidden_multi(ctx, s, [(vh, exclude, vpts, v_local, targets)], need_all)[0]


def _columns_hidden_multi(ctx, s: SightSettings, asks, need_all: bool = False) -> list:
    """``_columns_hidden`` for several viewers, asks (vh, exclude, vpts, v_local, targets)
    each, in one call of ``columns_hidden_multi``; returns per ask its list."""
    from engine.sight_columns import columns_hidden_multi
    pr, rows = ctx
    outs, calls, back = [], [], []
    for a, (vh, exclude, vpts, v_local, targets) in enumerate(asks):
        outs.append([np.zeros(len(tp), dtype=bool) for _, tp, _ in targets])
        if not len(vpts):
            continue
        keep = np.ones(len(pr.ok), dtype=bool)
        for m_ in exclude:
            if m_ in rows:
                keep[rows[m_]] = False
        vcol, vxy_l = _lattice_columns(v_local)[:2]
        vc = _unique_small(vcol[vpts], len(vxy_l))[0]
        vxy = _rotate(np.column_stack([vxy_l[vc], np.zeros(len(vc))]), vh.facing)[:, :2] + np.array([vh.x, vh.y])
        zv = v_local.points[vpts, 2] + vh.z
        spec, invs, where = [], [], []
        for j, (th, tp, t_local) in enumerate(targets):
            if not len(tp):
                continue
            tcol, txy_l, tgrp, gcen, grad = _lattice_columns(t_local)
            tc, tinv = _unique_small(tcol[tp], len(txy_l))
            at = np.array([th.x, th.y])
            txy = _rotate(np.column_stack([txy_l[tc], np.zeros(len(tc))]), th.facing)[:, :2] + at
            gxy = _rotate(np.column_stack([gcen, np.zeros(len(gcen))]), th.facing)[:, :2] + at
            zt = t_local.points[tp, 2] + th.z
            spec.append((txy, (th.x, th.y), float(th.radius), float(zt.min()), float(zt.max()), (tgrp[tc], gxy, grad)))
            invs.append(tinv.reshape(-1))
            where.append(j)
        if spec:
            calls.append((np.nonzero(keep)[0], vxy, ((vh.x, vh.y), float(vh.radius), float(zv.min()), float(zv.max())),
                          spec))
            back.append((a, where, invs))
    if calls:
        for (a, where, invs), got in zip(back, columns_hidden_multi(pr, calls, need_all)):
            for j, g, inv in zip(where, got, invs):
                outs[a][j] = g[inv]
    return outs


def _columns_batch(world, s: SightSettings, items, models) -> tuple[np.ndarray, list]:
    """For pairs (vh, th, half, exclude): (k,) bool, the pair is hidden by tall prisms seen
    from above; and per pair, which of its allowed target points (rows) they hide. Every
    viewer's pairs go through one call (``columns_hidden_multi``), each viewer with its own
    columns and the models it may not use."""
    out = np.zeros(len(items), dtype=bool)
    masks: list = [None] * len(items)
    if not items:
        return out, masks
    ctx = _column_context(world, s, models)
    # a pair asked both ways: first every point of one hitbox against every point of the
    # other (the segments of both questions and more), both proved at once
    ask = {(id(it[0]), id(it[1])): i for i, it in enumerate(items)}
    twice: dict = {}
    for i, (vh, th, half, exclude) in enumerate(items):
        j = ask.get((id(th), id(vh)))
        if j is not None and i < j:
            twice.setdefault(id(vh), []).append((i, j))
    settled = np.zeros(len(items), dtype=bool)
    for lst in twice.values():
        vh = items[lst[0][0]][0]
        v_local = _lattice_for(vh, s)
        everyone = [(items[i][1], np.arange(len(_lattice_for(items[i][1], s).points)), _lattice_for(items[i][1], s))
                    for i, _ in lst]
        got = _columns_hidden(ctx, s, vh, set(items[lst[0][0]][3]) & set(items[lst[0][1]][3]),
                              np.arange(len(v_local.points)), v_local, everyone, need_all=True)
        for (i, j), g in zip(lst, got):
            if len(g) and g.all():
                for k in (i, j):
                    a, b, half_k = items[k][0], items[k][1], items[k][2]
                    tidx = _frame(a, b, half_k, _lattice_for(a, s), _lattice_for(b, s))[4]
                    masks[k] = np.ones(len(tidx), dtype=bool)
                    out[k] = bool(len(tidx))
                    settled[k] = True
    groups: dict = {}
    for i, (vh, th, half, exclude) in enumerate(items):
        if not settled[i]:
            groups.setdefault((id(vh), bool(half)), []).append(i)
    asks = []
    for idx in groups.values():
        vh, _, half, _ = items[idx[0]]
        v_local = _lattice_for(vh, s)
        targets, vorder = [], None
        for i in idx:
            th = items[i][1]
            t_local = _lattice_for(th, s)
            V, T_all, tmask, vorder, tidx, hints = _frame(vh, th, half, v_local, t_local)
            targets.append((th, tidx, t_local))
        common = set.intersection(*(set(items[i][3]) for i in idx))
        asks.append((vh, common, vorder, v_local, targets))
    for idx, got in zip(groups.values(), _columns_hidden_multi(ctx, s, asks, need_all=True)):
        for i, g in zip(idx, got):
            masks[i] = g
            out[i] = bool(len(g)) and bool(g.all())
    return out, masks


_OCT = np.column_stack([np.cos((np.arange(8) + 0.5) * math.pi / 4), np.sin((np.arange(8) + 0.5) * math.pi / 4)]) \
    / math.cos(math.pi / 8)


def _hitbox_outside(hb, N: np.ndarray, D: np.ndarray) -> bool:
    """Some face plane of the convex body {x : N x <= D} has a whole prism around the hitbox
    (an octagon circumscribing its disc, base to top) on its outer side (by more than 1e-9):
    then every sample point of the hitbox lies outside the body."""
    if not len(D):
        return False
    xy = np.array([hb.x, hb.y]) + hb.radius * _OCT
    P = np.vstack([np.column_stack([xy, np.full(8, hb.z)]), np.column_stack([xy, np.full(8, hb.z + hb.height)])])
    return bool(((P @ N.T - D[None, :]) > 1e-9).all(axis=0).any())


def _hitboxes_outside(hb, obs) -> np.ndarray:
    """``_hitbox_outside`` for several convex bodies (records (name, N, D, ...)) at once."""
    out = np.zeros(len(obs), dtype=bool)
    sizes = np.array([len(o[2]) for o in obs], dtype=np.int64)
    has = np.nonzero(sizes > 0)[0]
    if not len(has):
        return out
    xy = np.array([hb.x, hb.y]) + hb.radius * _OCT
    P = np.vstack([np.column_stack([xy, np.full(8, hb.z)]), np.column_stack([xy, np.full(8, hb.z + hb.height)])])
    N = np.concatenate([obs[i][1] for i in has]).reshape(-1, 3)
    D = np.concatenate([obs[i][2] for i in has])
    plane_out = ((P @ N.T - D[None, :]) > 1e-9).all(axis=0)
    starts = np.concatenate([[0], np.cumsum(sizes[has])[:-1]])
    out[has] = np.logical_or.reduceat(plane_out, starts)
    return out


def _cylinder_candidates(p0, p1, c, r, h) -> list:
    """[(j, segment indices)]: the segments that may enter cylinder j, by a cheap
    conservative cull (the segment's z range and its distance to the axis in the
    plane); cylinders no segment may enter are left out."""
    n, m = len(p0), len(c)
    if n == 0 or m == 0:
        return []
    d = p1 - p0
    L2 = d[:, 0] * d[:, 0] + d[:, 1] * d[:, 1]
    inv = np.where(L2 > 1e-30, 1.0 / np.where(L2 > 1e-30, L2, 1.0), 0.0)
    zlo = np.minimum(p0[:, 2], p1[:, 2])
    zhi = np.maximum(p0[:, 2], p1[:, 2])
    if n * m <= 65536:
        # every (segment, cylinder) at once
        cand = (zhi[:, None] >= c[None, :, 2] - 1e-6) & (zlo[:, None] <= c[None, :, 2] + h[None, :] + 1e-6)
        wx = c[None, :, 0] - p0[:, 0:1]
        wy = c[None, :, 1] - p0[:, 1:2]
        t = np.clip((wx * d[:, 0:1] + wy * d[:, 1:2]) * inv[:, None], 0.0, 1.0)
        qx, qy = wx - t * d[:, 0:1], wy - t * d[:, 1:2]
        cand &= qx * qx + qy * qy <= (r[None, :] + 1e-6) ** 2
        return [(int(j), np.nonzero(cand[:, j])[0]) for j in np.nonzero(cand.any(axis=0))[0]]
    out = []
    for j in range(m):
        cand = (zhi >= c[j, 2] - 1e-6) & (zlo <= c[j, 2] + h[j] + 1e-6)
        idx = np.nonzero(cand)[0]
        if not len(idx):
            continue
        wx = c[j, 0] - p0[idx, 0]
        wy = c[j, 1] - p0[idx, 1]
        dx, dy = d[idx, 0], d[idx, 1]
        t = np.clip((wx * dx + wy * dy) * inv[idx], 0.0, 1.0)
        qx, qy = wx - t * dx, wy - t * dy
        idx = idx[qx * qx + qy * qy <= (r[j] + 1e-6) ** 2]
        if len(idx):
            out.append((j, idx))
    return out


def _segments_hit_cylinders_any(p0, p1, c, r, h) -> np.ndarray:
    """(n, m) bool: segment i enters cylinder j (exactly engine.world.segments_hit_cylinders:
    grazing contacts of less than 1e-9 of the segment miss), the exact test run only where
    ``_cylinder_candidates`` keeps the pair."""
    from engine.world import segments_hit_cylinders
    out = np.zeros((len(p0), len(c)), dtype=bool)
    for j, idx in _cylinder_candidates(p0, p1, c, r, h):
        t_ = segments_hit_cylinders(p0[idx], p1[idx], c[j:j + 1], r[j:j + 1], h[j:j + 1])[:, 0]
        out[idx, j] = np.isfinite(t_)
    return out


def _segments_blocked_by_cylinders(p0, p1, c, r, h) -> np.ndarray:
    """(n,) bool: ``_segments_hit_cylinders_any(...).any(axis=1)``, each segment's exact test
    skipped once an earlier cylinder (the ones the cull keeps for most segments first) is
    known to block it: the same answer, fewer exact tests behind models side by side."""
    from engine.world import segments_hit_cylinders
    out = np.zeros(len(p0), dtype=bool)
    for j, idx in sorted(_cylinder_candidates(p0, p1, c, r, h), key=lambda x: -len(x[1])):
        idx = idx[~out[idx]]
        if len(idx):
            t_ = segments_hit_cylinders(p0[idx], p1[idx], c[j:j + 1], r[j:j + 1], h[j:j + 1])[:, 0]
            out[idx[np.isfinite(t_)]] = True
    return out


def _random_probe_many(world, queries: list, models) -> None:
    """The yes/no second probe (``random_pairs``) of many ungathered queries in one Embree call,
    then one vectorised test against every model (each query's own excluded) and each
    query's Forest areas, as ``_Query.probe_all_models`` does: far obstacles cannot meet
    the segments, so no gathering is needed. Marks the probed queries (``probed2``)."""
    batch = []
    for q in queries:
        if q.done or q.want_all or q.stopped or getattr(q, "probed2", False):
            continue
        pr = q.random_pairs(_PROBE2)
        q.probed2 = True
        if pr is not None and len(pr[0]):
            batch.append((q, pr))
    _probe_many(world, batch, models)


def _prior_probe_many(world, queries: list, models) -> None:
    """Yes/no queries given ``prior`` witnesses (a nearby answer's, lattice indices): those
    segments first, for all of them in one Embree call (``_probe_many``)."""
    batch = []
    for q in queries:
        if q.done or q.want_all or q.stopped or q.prior is None:
            continue
        pw = q.prior[q.tidx]
        ok = (pw >= 0) & (pw < len(q.V))
        ok[ok] = q.v_allowed[pw[ok]]
        rows = np.nonzero(ok)[0]
        if len(rows):
            batch.append((q, (rows, pw[rows])))
    _probe_many(world, batch, models)


def _probe_many(world, batch: list, models) -> None:
    """Cast (query, (rows, viewer points)) segments of many ungathered queries in one Embree
    call, then test them against every model (each query's own excluded) and each query's
    Forest areas; the clear ones are witnesses."""
    if not batch:
        return
    s = batch[0][0].s
    P0 = np.concatenate([q.V[v] for q, (r, v) in batch])
    P1 = np.concatenate([q.T_all[q.tidx[r]] for q, (r, v) in batch])
    owner = np.concatenate([np.full(len(r), k) for k, (q, (r, v)) in enumerate(batch)])
    clear = ~world.rays.occluded(P0, P1)
    if _RECORD is not None:
        _RECORD.append((P0, P1))
    if clear.any() and s.models_block and models:
        idx = np.nonzero(clear)[0]
        col = {m[0]: j for j, m in enumerate(models)}
        excl = np.full((len(batch), 2), len(models), dtype=np.int64)
        for k, (q, _) in enumerate(batch):
            e = [col[m] for m in q._gather_args[1] if m in col][:2]
            excl[k, :len(e)] = e
        hit = np.zeros((len(idx), len(models) + 1), dtype=bool)
        hit[:, :-1] = _segments_hit_cylinders_any(P0[idx], P1[idx], np.array([m[1] for m in models]),
                                                  np.array([m[2] for m in models]), np.array([m[3] for m in models]))
        hit[np.arange(len(idx))[:, None], excl[owner[idx]]] = False
        clear[idx[hit.any(axis=1)]] = False
    st = _static(world)
    at = 0
    for k, (q, (r, v)) in enumerate(batch):
        n = len(r)
        c = clear[at:at + n]
        if c.any() and st.forests:
            forests = _pair_forests(st, q.vh, q.th, q.s)
            if len(forests) >= q.s.forest_limit:
                idx = np.nonzero(c)[0]
                c = c.copy()
                c[idx[_forest_blocked(P0[at + idx], P1[at + idx], forests, q.s)]] = False
        q.absorb(r, v, c)
        at += n


def _drive(world, queries: list) -> None:
    """Resolve queries: shortcuts, a probe, the bundle descent, then leaf rays, batched over queries."""
    for q in queries:
        if not q.done and q.obstacle_free:
            rows = np.arange(q.nt)
            q._mark_visible(rows, np.full(q.nt, q.hints[0] if q.hints else q.vorder[0]))
            q.done = True
    _cast(world, [(q, q.probe_pairs()) for q in queries if not q.done and not q.want_all and not q.probed])
    # the root bundle proved hidden by one convex obstacle (``_hidden_batch``, which the matrix
    # and the path already ran on theirs): every target point hidden, no rounds, no descent
    root = [q for q in queries if not q.done and not getattr(q, "root_tried", False)]
    if root:
        got = _hidden_batch(world, root[0].s, [(q.vh, q.th, q.half, q._gather_args[1]) for q in root],
                            root[0]._gather_args[2])
        for q, h in zip(root, got):
            q.root_tried = True
            if h:
                q.done = True
    # yes/no: a second, wider probe (random allowed pairs) before the descent
    _cast(world, [(q, q.random_pairs(_PROBE2)) for q in queries
                  if not q.done and not q.want_all and not getattr(q, "probed2", False)])
    # fraction: witness rounds (one segment per open target point each) before the descent
    for k in range(_GUESS_ROUNDS):
        _cast(world, [(q, q.guess_pairs(k)) for q in queries if not q.done and q.want_all])
    # target points hidden by tall prisms seen from above, decided before the descent (not for
    # a query seeded with an earlier proof of the pair: re-proving that is cheaper)
    cols = [q for q in queries if not q.done and not q.columns_tried and q.seed is None]
    if cols:
        ctx = _column_context(world, cols[0].s, cols[0]._gather_args[2])
        for q in cols:
            q.hide_columns(ctx)
    _descend_many([q for q in queries if not q.done])
    for stage in (1, 2):
        pend = []
        for q in queries:
            if q.done:
                continue
            pr = q.leaf_pairs(stage)
            if pr is None:
                continue
            if not q.want_all and len(pr[0]) > _CHUNKS[0]:
                # a yes/no question stops at its first clear segment: spread the
                # segments (a fixed shuffle) and cast them in growing chunks
                perm = np.random.default_rng(len(pr[0])).permutation(len(pr[0]))
                pr = (pr[0][perm], pr[1][perm])
            pend.append((q, pr))
        lo = 0
        for hi in (*_CHUNKS, None):
            batch = []
            for q, (r, v) in pend:
                if q.done or (q.want_all and lo > 0) or lo >= len(r):
                    continue
                if q.want_all:
                    batch.append((q, (r, v)))
                else:
                    batch.append((q, (r[lo:hi], v[lo:hi])))
            if not batch:
                break
            _cast(world, batch)
            lo = hi
    for q in queries:
        q.finish()


_SPLITS = 2                      # los_along_path: points asked per interval and round of the refinement
_WAVE = 4                        # los_along_path: the first wave of samples, every this many
_GUESS_ROUNDS = 4                # fraction questions: witness rounds before the descent
_PROBE2 = 512                    # random pairs of the second yes/no probe
_UPPER = 0.25                    # inches: the upper points of a hitbox the second probe favours
_CHUNKS = (512, 4096, 32768)     # yes/no questions: leaf segments cast in chunks of these ends


# ------------------------------------------------------------------------ public API
def _make_query(world, st, viewer, target, moving, s, want_all, models, v_override=None, gather=True,
                half: bool | None = None):
    vh = world.hitbox(viewer)
    th = world.hitbox(target) if v_override is None else v_override
    if half is None:
        half = not _is_360(vh, moving, s)
    return _Query(world, st, vh, th, want_all=want_all, s=s, half=half,
                  v_local=_lattice_for(vh, s), t_local=_lattice_for(th, s),
                  exclude={viewer, target}, models=models, gather=gather)


def _attribute(world, q: _Query) -> tuple[tuple[str, ...], np.ndarray | None]:
    """The pieces and models hiding target points, and the eye (viewer point that saw most)."""
    q.gather()                  # (a question answered by the root proof did not gather them)
    if (q.witness >= 0).any():
        vals, cnt = np.unique(q.witness[q.witness >= 0], return_counts=True)
        eye_i = int(vals[np.argmax(cnt)])
    else:
        eye_i = q.hints[0] if q.hints else int(q.vorder[0])
    eye = q.V[eye_i]
    hidden = np.nonzero(q.status == 2)[0]
    names: list[str] = []
    for k in np.unique(q.hidden_by[hidden][q.hidden_by[hidden] >= 0]):
        names.append(q.convex[int(k)][0])
    rest = hidden[q.hidden_by[hidden] < 0]
    if len(rest):
        if len(rest) > 512:
            rest = rest[np.linspace(0, len(rest) - 1, 512).astype(int)]
        t = q.T_all[q.tidx[rest]]
        for a, b in ((t, np.broadcast_to(eye, t.shape)), (np.broadcast_to(eye, t.shape), t)):
            vec = b - a
            dist = np.linalg.norm(vec, axis=1)
            d, tri = world.rays.first_hit(a, vec, max_dist=dist)
            for pid in np.unique(world.tri_piece[tri[tri >= 0]]):
                names.append(world.pieces[int(pid)].id)
        if q.models:
            from engine.world import segments_hit_cylinders
            c = np.array([m[1] for m in q.models])
            r = np.array([m[2] for m in q.models])
            h = np.array([m[3] for m in q.models])
            hit = np.isfinite(segments_hit_cylinders(np.broadcast_to(eye, t.shape), t, c, r, h)).any(axis=0)
            names.extend(q.models[i][0] for i in np.nonzero(hit)[0])
        if q.forests_active:
            if _forest_blocked(np.broadcast_to(eye, t.shape).copy(), t, q.forests_active, q.s).any():
                names.extend(i for f in q.forests_active for i in f.ids)
    return tuple(dict.fromkeys(names)), eye


def _picture_rays(q: _Query, eye: np.ndarray, k: int = 48):
    rows = np.arange(min(k, q.nt))
    t = q.T_all[q.tidx[rows]]
    clear = (q.status[rows] == 1) & (q.witness[rows] >= 0)
    start = np.where(clear[:, None], q.V[np.maximum(q.witness[rows], 0)], np.asarray(eye, dtype=float)[None, :])
    return np.stack([start, t], axis=1).reshape(-1, 2, 3).astype(float), clear.astype(bool)


_MEMORY: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()   # world -> {(viewer, target, half,
#   want_all, settings): (witnesses per target lattice point, proof)}
_REUSE = True            # los() starts from its last answer for the same pair (re-proved: the same answers)
_MEMORY_PAIRS = 256      # answers remembered per world (the oldest dropped first; ~100 kB each at most)


def forget() -> None:
    """Drop what ``los`` remembers of earlier answers (benchmarks time a question asked cold)."""
    _MEMORY.clear()


class _HiddenPair:
    """A pair the root hiding proof settled before any query: what ``los`` reports of it
    (every allowed target point hidden, no ray cast), and ``query()``, the full query
    answered the same way, built only for a reader of the blocking pieces or the picture."""

    def __init__(self, world, st, vh, th, half, s, exclude, models):
        # the two hitboxes as they stand now (the query may be built after they moved)
        self._args = (world, st, copy.copy(vh), copy.copy(th), half, s, exclude, models)
        v_local, t_local = _lattice_for(vh, s), _lattice_for(th, s)
        self.T_all = _placed(t_local, th)
        self.tmask = _in_front(self.T_all, np.array([vh.x, vh.y]), vh.facing_vector) if half \
            else np.ones(len(self.T_all), dtype=bool)
        self.tidx = t_local.order[self.tmask[t_local.order]]
        self.nv, self.nt = len(_front_order(v_local, half)), len(self.tidx)
        self.t_part, self.t_weight = t_local.part, t_local.weight
        self.status = np.full(self.nt, 2, dtype=np.int8)
        self.witness = np.full(self.nt, -1, dtype=np.int64)
        self.rays, self.proof, self.done, self.stopped = 0, None, True, False

    def finish(self) -> None:
        """(Already settled.)"""

    def query(self) -> "_Query":
        world, st, vh, th, half, s, exclude, models = self._args
        q = _Query(world, st, vh, th, want_all=False, s=s, half=half, v_local=_lattice_for(vh, s),
                   t_local=_lattice_for(th, s), exclude=exclude, models=models, gather=False)
        q.root_tried = True
        q.finish()
        return q


def los(world, viewer: str, target: str, *, moving: bool = False, fraction: bool = True,
        settings: SightSettings | None = None, engaged_with: Iterable[str] | None = None,
        cover: bool = True) -> LosResult:
    """Line of sight from ``viewer`` to ``target`` (model ids), with cover when visible.

    ``moving``: the viewer is moving (360 degrees). ``fraction``: resolve every
    target sample point (else stop at the first clear segment). ``engaged_with``:
    the models engaging the viewer (default: derived from the Engaged state and
    melee reach). ``cover``: also decide cover (needs the fraction; it is then
    computed whatever ``fraction`` says).
    """
    s = _settings(settings)
    vh, th = world.hitbox(viewer), world.hitbox(target)
    want_all = fraction or cover
    st = _static(world)
    # distances by the measuring rules: a Flying model as if on the surface under it
    # (eldfall-states.txt, Flying); its LoS stays with its real hitbox
    from engine.measure import distance, measuring_z
    base = dict(viewer=viewer, target=target, distance=distance(world, viewer, target),
                height_difference=measuring_z(world, target) - measuring_z(world, viewer), settings=s)
    half = not _is_360(vh, moving, s)
    geo_front = _in_front_arc(vh, th)
    front = (not half) or geo_front
    base["all_round"] = not half
    exc = _exception(world, viewer, target, moving, s, engaged_with)
    if exc is not None and exc[0] and viewer != target:
        # LoS given by a state (Flying, Engaged): every line between the hitboxes counts,
        # so the share, the blocking pieces, the eye and the cover are measured all round
        half = False
    if viewer == target:
        return LosResult(los=True, visible_fraction=1.0, in_front_arc=True, reason="itself", **base)
    models = _model_records(world, s)
    q_want = want_all or exc is not None
    # keyed by the two lattices too: a Crouched (or uncrouched) model changes its lattice,
    # and the remembered witnesses and proof index those lattices' points and trees
    mkey = (viewer, target, bool(half), q_want, s, float(vh.radius), float(vh.height),
            float(th.radius), float(th.height))
    wmem = _MEMORY.setdefault(world, {}) if _REUSE else {}
    mem = wmem.get(mkey)
    yes_no = exc is None and not q_want and s.min_visible_area_mm2 <= 0
    q = None
    if yes_no and (mem is None or not (mem[0] >= 0).any()) and _centres_blocked(world, vh, th):
        # yes/no with terrain between the two hitboxes' centres (and no remembered witness):
        # most such pairs are hidden by one solid, so the root proof goes before the probe;
        # a pair it proves hidden needs no query (only what the result reports of it)
        q = _HiddenPair(world, st, vh, th, half, s, {viewer, target}, models)
        if not q.nt or not q.nv or not _hidden_batch(world, s, [(vh, th, half, {viewer, target})], models)[0]:
            q = _make_query(world, st, viewer, target, moving, s, q_want, models, gather=False, half=half)
            q.root_tried = True
    if q is None:
        q = _make_query(world, st, viewer, target, moving, s, q_want, models, gather=False, half=half)
    if mem is not None and not q.done:
        # the last answer for this pair: its witnesses are tried first and its proof (a
        # partition of the same trees' pairs, re-proved here) starts the descent
        q.prior = mem[0] if len(mem[0]) == len(q.T_all) else None
        q.seed = mem[1]

    def root_proof():
        # the root bundle's hiding proof (what ``_drive`` tries after the yes/no probe,
        # before any ray of a fraction) needs no gathered obstacles: a pair it proves
        # hidden is answered without gathering them
        q.root_tried = True
        if _hidden_batch(world, s, [(q.vh, q.th, q.half, q._gather_args[1])], q._gather_args[2])[0]:
            q.done = True
    yes_no = yes_no and not q.done
    if yes_no and not q.obstacle_free_quick():
        # yes/no: the probe; the obstacles are gathered only when it does not decide
        q.probe_all_models(world)
    if exc is None and not q.stopped and not q.done and not getattr(q, "root_tried", False) \
            and (q.probed or q.want_all):
        root_proof()
    if not q.stopped and not q.done:
        q.gather()
    if exc is not None and exc[0] is False:
        q.done = True
        q.status[:] = 2
    elif not q.done:
        _drive(world, [q])
    else:
        q.finish()
    vis_t = np.zeros(len(q.T_all), dtype=bool)
    vis_t[q.tidx[q.status == 1]] = True
    if _REUSE and exc is None:
        wit = np.full(len(q.T_all), -1, dtype=np.int32)
        seen = q.status == 1
        wit[q.tidx[seen]] = q.witness[seen]
        if len(wmem) >= _MEMORY_PAIRS:
            wmem.pop(next(iter(wmem)))
        wmem[mkey] = (wit, q.proof if q.proof is not None else (mem[1] if mem is not None else None))
    area = float(q.t_weight[vis_t].sum())
    frac = float(vis_t.sum()) / len(q.T_all)
    geo_los = bool(vis_t.any()) and area * MM2_PER_IN2 >= s.min_visible_area_mm2 - 1e-12
    if exc is not None:
        los_v, reason = exc
    elif geo_los:
        los_v, reason = True, "clear"
    else:
        los_v = False
        if not front:
            reason = f"{target} is behind {viewer}'s front arc"
        elif vis_t.any():
            # as many decimals as keep the printed area below the printed minimum (1009.879 mm2
            # under a minimum of 1009.88 read "1009.9 mm2 is below the minimum 1009.88 mm2")
            seen_s, least_s = f"{area * MM2_PER_IN2:.1f}", f"{s.min_visible_area_mm2:g}"
            for nd in range(2, 7):
                if float(seen_s) < float(least_s):
                    break
                seen_s, least_s = f"{area * MM2_PER_IN2:.{nd}f}", f"{s.min_visible_area_mm2:.{nd}f}"
            reason = f"visible area {seen_s} mm2 is below the minimum {least_s} mm2"
        else:
            reason = "blocked"
    # the blocking pieces, the eye and the picture's rays: worked out when first read (from
    # the sample points placed now; a _HiddenPair keeps copies of the hitboxes)
    from engine.cover import _once
    full = _once(lambda: q.query() if isinstance(q, _HiddenPair) else q)
    attributed = _once(lambda: _attribute(world, full()))
    pictured = _once(lambda: _picture_rays(full(), attributed()[1]))
    witness = None
    ok = np.nonzero(q.status == 1)[0]
    if len(ok):
        r = ok[0]
        witness = (tuple(float(x) for x in q.V[q.witness[r]]), tuple(float(x) for x in q.T_all[q.tidx[r]]))
    exact = (q.status != 0).all() and (want_all or not geo_los or exc is not None)
    state_no = exc is not None and exc[0] is False
    res = LosResult(los=los_v, visible_fraction=frac, in_front_arc=geo_front,
                    # a state's "no" (Blinded, Dark beyond Awareness) looked at no line: nothing blocks
                    blocking=(lambda: ()) if state_no else (lambda: attributed()[0]), by_state=state_no,
                    witness=witness, reason=reason, fraction_exact=bool(exact),
                    visible_area_mm2=area * MM2_PER_IN2, rays=q.rays, segments=q.nv * q.nt,
                    target_points=q.T_all, target_visible=vis_t, target_part=q.t_part, target_allowed=q.tmask,
                    eye=lambda: tuple(float(x) for x in attributed()[1]),
                    picture_segments=lambda: pictured()[0], picture_clear=lambda: pictured()[1], **base)
    if cover and los_v:
        from engine.cover import cover as _cover
        c = _cover(world, viewer, target, res, settings=s)
        from engine.cover import CoverResult as _CR
        res.cover, res.cover_piece = c.level, c.piece
        res.cover_reason = _CR.reason.raw(c)          # its words are built when first read
    elif cover:
        res.cover_reason = "no LoS"
    return res


def _centres_blocked(world, vh, th) -> bool:
    """Terrain cuts the segment between the two hitboxes' centres (one ray)."""
    p0 = np.array([[vh.x, vh.y, vh.z + vh.height / 2]])
    p1 = np.array([[th.x, th.y, th.z + th.height / 2]])
    return bool(world.rays.occluded(p0, p1)[0])


def los_matrix(world, ids: Sequence[str] | None = None, settings: SightSettings | None = None,
               *, moving: Iterable[str] = ()) -> dict[tuple[str, str], bool]:
    """LoS yes/no for every ordered pair of models (a sees b), one batched cast for all pairs."""
    s = _settings(settings)
    ids = list(world.model_ids() if ids is None else ids)
    moving = set(moving)
    st = _static(world)
    models = _model_records(world, s)
    out: dict[tuple[str, str], bool] = {}
    pending = []
    for a in ids:
        for b in ids:
            if a == b:
                out[(a, b)] = True
                continue
            exc = _exception(world, a, b, a in moving, s, None)
            if exc is not None:
                out[(a, b)] = exc[0]
                continue
            pending.append((a, b))
    # the cheap stage for every pair in one call; queries only for the undecided ones
    hbs = {m: world.hitbox(m) for m in ids}
    items = [(hbs[a], hbs[b], not _is_360(hbs[a], a in moving, s), {a, b}) for a, b in pending]
    def make(j):
        a, b = pending[j]
        q = _make_query(world, st, a, b, a in moving, s, s.min_visible_area_mm2 > 0, models, gather=False)
        q.pair = (a, b)
        return q
    probe, queries = _settle(world, s, items, models, make)
    for (a, b), verdict in zip(pending, probe):
        if verdict:
            out[(a, b)] = bool(verdict > 0)
    for q in queries:
        out[q.pair] = _sees(q, s)
    return out


def _settle(world, s: SightSettings, items, models, make, columns_first: bool = False,
            informed=None) -> tuple[np.ndarray, list]:
    """Many yes/no pairs (vh, th, half, exclude) at once, the cheap stages batched: the probe
    of every pair (but the ``informed`` ones) in one call, the root hiding proof, then for
    the pairs left a query each
    (``make(j)``), the witnesses of a nearby answer (``prior``) and their second (random)
    probe in one call each, the tall prisms seen from above for those still open (one call),
    and the rest (``_finish_probed``). ``columns_first``: the prisms before the random probe
    (where the pairs left are mostly hidden: a path's samples after its first wave).
    ``informed``: per pair, whether a nearby answer lends it a proof to start from
    (``seed``) or witnesses (``prior``); those skip the first probe (a fixed few segments:
    next to a nearby answer, its witnesses or its proof do better). Returns
    (per pair: 1 LoS, -1 no LoS, 0 decided by its query) and the queries, resolved."""
    probe = np.zeros(len(items), dtype=np.int8)
    ask = np.arange(len(items)) if informed is None else np.nonzero(~np.asarray(informed, dtype=bool))[0]
    probe[ask] = _probe_batch(world, s, [items[k] for k in ask], models)
    und = np.nonzero(probe == 0)[0]
    probe[und[_hidden_batch(world, s, [items[k] for k in und], models)]] = -1
    queries = []
    for j in np.nonzero(probe == 0)[0]:
        q = make(int(j))
        q.probed = True
        q.root_tried = True
        queries.append(q)
    _prior_probe_many(world, queries, models)
    if not columns_first:
        _random_probe_many(world, queries, models)
    left = [q for q in queries if not q.done]
    if left:
        hid, masks = _columns_batch(world, s, [(q.vh, q.th, q.half, q._gather_args[1]) for q in left], models)
        for q, m in zip(left, masks):
            q.hide_columns(None, m)
    _finish_probed(world, queries, models)
    return probe, queries


def _finish_probed(world, queries: list, models) -> None:
    """Queries already probed once (a batch's first probe): the second probe of all of
    them in one call, the obstacles gathered only for those left, then the descent."""
    _random_probe_many(world, queries, models)
    for q in queries:
        if not q.done:
            q.gather()
    _drive(world, queries)


def _sees(q, s: SightSettings) -> bool:
    """A decided query's yes/no: some target point seen, with at least the minimum visible area."""
    vis = q.status == 1
    area = float(q.t_weight[q.tidx[vis]].sum()) * MM2_PER_IN2
    return bool(vis.any()) and area >= s.min_visible_area_mm2 - 1e-12


def point_los(world, origin, target_id: str, exclude: Iterable[str] = (),
              settings: SightSettings | None = None, raise_by: float | None = None) -> tuple[bool, float]:
    """LoS from a point (a template's centre) to a model's hitbox.

    The origin is raised by ``settings.template_centre_raise_in`` (a template
    lies flat on a surface; pass ``raise_by=0`` to use it as given). Every
    sample point of the target is tried: returns (los, share of the target's
    sample points visible). The target and ``exclude`` do not block.
    """
    s = _settings(settings)
    th = world.hitbox(target_id)
    o = np.asarray(origin, dtype=float).reshape(3).copy()
    o[2] += s.template_centre_raise_in if raise_by is None else float(raise_by)
    lat = _lattice_for(th, s)
    t = _rotate(lat.points, th.facing) + np.array([th.x, th.y, th.z])
    p0 = np.broadcast_to(o, t.shape).copy()
    clear = ~world.rays.occluded(p0, t)
    skip = set(exclude) | {target_id}
    models = [m for m in _model_records(world, s) if m[0] not in skip] if s.models_block else []
    if clear.any() and models:
        from engine.world import segments_hit_cylinders
        idx = np.nonzero(clear)[0]
        c = np.array([m[1] for m in models])
        r = np.array([m[2] for m in models])
        h = np.array([m[3] for m in models])
        clear[idx[np.isfinite(segments_hit_cylinders(p0[idx], t[idx], c, r, h)).any(axis=1)]] = False
    st = _static(world)
    if clear.any() and len(st.forests) >= s.forest_limit:
        idx = np.nonzero(clear)[0]
        clear[idx[_forest_blocked(p0[idx], t[idx], _woods(st, s), s)]] = False
    area = float(lat.weight[clear].sum()) * MM2_PER_IN2
    ok = bool(clear.any()) and area >= s.min_visible_area_mm2 - 1e-12
    return ok, float(clear.mean())


# --------------------------------------------------------------------------- paths
class _MovedHitbox:
    """The mover's hitbox placed at a path point (facing kept)."""
    def __init__(self, hb, p):
        self.id, self.side = hb.id, hb.side
        self.x, self.y, self.z = float(p[0]), float(p[1]), float(p[2])
        self.radius, self.full_height, self.facing = hb.radius, hb.full_height, hb.facing
        self.states, self.stats, self.spec = hb.states, hb.stats, hb.spec
        self._h = hb.height

    @property
    def height(self):
        return self._h

    @property
    def traits(self):
        prof = self.spec.profile if self.spec is not None else None
        return frozenset() if prof is None else frozenset(prof.traits) | frozenset(prof.skills)

    @property
    def facing_vector(self):
        a = math.radians(self.facing)
        return np.array([math.cos(a), math.sin(a)])


def _resample(path: np.ndarray, step: float) -> tuple[np.ndarray, np.ndarray]:
    """Points every ``step`` inches along a polyline (ends included) and their distances along it."""
    seg = np.linalg.norm(np.diff(path[:, :2], axis=0), axis=1)
    seg3 = np.linalg.norm(np.diff(path, axis=0), axis=1)
    seg = np.where(seg > 1e-12, seg, seg3)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    total = cum[-1]
    n = max(1, math.ceil(total / step))
    d = np.linspace(0.0, total, n + 1)
    return _at(path, cum, d), d


def _at(path, cum, d):
    d = np.atleast_1d(d)
    if cum[-1] <= 0:
        return np.repeat(path[:1], len(d), axis=0)
    k = np.clip(np.searchsorted(cum, d, side="right") - 1, 0, len(path) - 2)
    span = cum[k + 1] - cum[k]
    u = np.where(span > 0, (d - cum[k]) / np.where(span > 0, span, 1), 0.0)
    return path[k] + (path[k + 1] - path[k]) * u[:, None]


def watchers(world, mover: str, path_points, settings: SightSettings | None = None,
             all_round: bool = False) -> list[PathLos]:
    """``los_along_path`` for every enemy of ``mover`` (another side, not Dead) along its
    route: who had LoS to it where, and who it came within the Awareness of (what decides
    who may react to a move, eldfall-reactions.txt "LoS Requirement"). ``all_round``: every
    observer sees all round (a game whose rules keep their own arcs, Legends of Norova)."""
    side = world.hitbox(mover).side
    enemies = [m for m in world.model_ids() if m != mover and world.hitbox(m).side != side
               and "Dead" not in set(world.hitbox(m).states)]
    if not enemies or len(path_points) < 2:
        return []
    return los_along_path(world, mover, np.asarray(path_points, dtype=float), enemies, settings=settings,
                          all_round=all_round)


def los_along_path(world, mover: str, path_points, observers: Sequence[str],
                   settings: SightSettings | None = None, every_sample: bool = False,
                   all_round: bool = False) -> list[PathLos]:
    """For each observer: where along the mover's path it had LoS to the mover.

    ``path_points`` (n, 3): the base-bottom centre along the path, inches.
    The path is sampled every ``settings.path_step_in``; the first and last
    points with LoS are refined to ``settings.path_refine_in`` (each round asks
    ``_SPLITS`` points cutting each interval into equal parts, the last round
    its middle; three rounds from 0.25" to 0.02" instead of bisection's four).
    Also: whether the mover's hitbox ever came within the observer's Awareness,
    and the first point where it did (refined the same way).

    Every fourth sample is asked first; then the others before the first and
    after the last of those with LoS (the ones between cannot move the first
    or the last point), or all of them with ``every_sample``. ``seen`` lists
    the samples asked that had LoS (with ``every_sample``: every sample with LoS).
    ``all_round``: no observer is limited to its front arc (as ``los(..., moving=True)``).
    """
    from engine.world import CONTACT_TOLERANCE, cylinder_distance
    s = _settings(settings)
    mh = world.hitbox(mover)
    path = np.asarray(path_points, dtype=float).reshape(-1, 3)
    if len(path) == 0:
        return [PathLos(o, False, None, None, False, None) for o in observers]
    if len(path) == 1:
        path = np.vstack([path, path])
    seg = np.linalg.norm(np.diff(path[:, :2], axis=0), axis=1)
    seg3 = np.linalg.norm(np.diff(path, axis=0), axis=1)
    cum = np.concatenate([[0.0], np.cumsum(np.where(seg > 1e-12, seg, seg3))])
    pts, dists = _resample(path, s.path_step_in)
    st = _static(world)
    every = _model_records(world, s)
    models = _Records(m for m in every if m[0] != mover)     # the tables built from them kept by its key
    models.key = tuple(k for k in every.key if k[0] != mover)
    vhs = {o: world.hitbox(o) for o in observers}

    proofs: dict = {}            # (observer, distance) -> the descent's partition where it had no LoS
    witnesses: dict = {}         # (observer, distance) -> per target lattice point, a viewer point that saw it

    def los_at(obs_list, d_list, seeds=None, near_seen=None):
        """LoS yes/no for (observer, distance along path) pairs, batched. ``seeds``: for each
        pair, the distance of a nearby sample whose proof (if any) starts its descent;
        ``near_seen``: of a nearby sample with LoS, whose witnesses are tried first."""
        res = [None] * len(obs_list)
        pending = []
        ps = _at(path, cum, np.asarray(d_list, dtype=float)) if len(d_list) else np.zeros((0, 3))
        for i, (o, p) in enumerate(zip(obs_list, ps)):
            th = _MovedHitbox(mh, p)
            vh = vhs[o]
            if o == mover:
                res[i] = True
                continue
            exc = _path_exception(world, o, vh, th, s)
            if exc is not None:
                res[i] = exc
                continue
            pending.append((i, vh, th, not (all_round or _is_360(vh, False, s)), {o, mover}))
        # every (observer, path point) pair at once (``_settle``); queries for the rest
        def make(j):
            i, vh, th, half, exclude = pending[j]
            q = _Query(world, st, vh, th, want_all=s.min_visible_area_mm2 > 0, s=s, half=half,
                       v_local=_lattice_for(vh, s), t_local=_lattice_for(th, s),
                       exclude=exclude, models=models, gather=False)
            q.slot = i
            if seeds is not None:
                q.seed = proofs.get((obs_list[i], seeds[i]))
            if near_seen is not None and near_seen[i] is not None:
                q.prior = witnesses.get((obs_list[i], near_seen[i]))
            return q
        # the pairs a nearby answer lends a proof or witnesses skip the first probe
        informed = [(seeds is not None and proofs.get((obs_list[i], seeds[i])) is not None) or
                    (near_seen is not None and witnesses.get((obs_list[i], near_seen[i])) is not None)
                    for i, *_ in pending]
        # the first wave (no nearby answers yet) probes at random before the prisms, as the
        # matrix does; the pairs asked later are mostly hidden: the prisms go first
        probe, queries = _settle(world, s, [it[1:] for it in pending], models, make,
                                 columns_first=seeds is not None, informed=informed)
        for (i, *_), verdict in zip(pending, probe):
            if verdict:
                res[i] = bool(verdict > 0)
        for q in queries:
            key = (obs_list[q.slot], float(d_list[q.slot]))
            res[q.slot] = _sees(q, s)
            if not res[q.slot] and q.proof is not None:
                proofs[key] = q.proof
            seen = q.status == 1
            if res[q.slot] and seen.any():
                wit = np.full(len(q.T_all), -1, dtype=np.int64)
                wit[q.tidx[seen]] = q.witness[seen]
                witnesses[key] = wit
        return res

    obs = list(observers)
    # runs of samples that one convex solid hides from an observer (engine.sight_sweep): no
    # LoS there, no question asked; never where a state gives LoS regardless (Flying, Engaged)
    from engine import sight_sweep
    known = np.zeros((len(obs), len(dists)), dtype=bool)
    if s.flying_state not in mh.states:
        ask = [i for i, o in enumerate(obs)
               if o != mover and not ({s.flying_state, s.engaged_state} & set(vhs[o].states))]
        if ask:
            known[ask] = sight_sweep.hidden_samples_many(world, [obs[i] for i in ask], mh.radius, mh.height, pts,
                                                         inset=s.inset_in)
    # two waves: every _WAVE-th sample (and the last), then the others, each of whose descents
    # starts from the proof of the nearest sample of the first wave (when it had no LoS)
    grid = np.zeros((len(obs), len(dists)), dtype=bool)
    first = np.zeros(len(dists), dtype=bool)
    first[::_WAVE] = True
    first[-1] = True
    f = np.nonzero(first)[0]
    for wave in (first, ~first):
        ask = wave[None, :] & ~known
        if wave is not first and not every_sample:
            # between an observer's first and last sample with LoS nothing changes the answer
            for i in range(len(obs)):
                got = np.nonzero(grid[i])[0]
                if len(got):
                    ask[i, got[0]:got[-1]] = False
        pairs = [(i, int(j)) for i, j in zip(*np.nonzero(ask))]
        if not pairs:
            continue
        seeds = near = None
        if wave is not first:
            # the nearest first-wave sample whose descent left a proof starts the descent,
            # and the nearest one with LoS lends its witnesses
            seeds, near = [], []
            for i, j in pairs:
                for got, lst in ((proofs, seeds), (witnesses, near)):
                    have = [k for k in f if (obs[i], float(dists[k])) in got]
                    lst.append(float(dists[min(have, key=lambda k: abs(k - j))]) if have else None)
        flat = los_at([obs[i] for i, _ in pairs], [float(dists[j]) for _, j in pairs], seeds, near)
        for (i, j), v in zip(pairs, flat):
            grid[i, j] = bool(v)
    out = []
    # refinement, batched over observers
    lo_first, hi_first, lo_last, hi_last = {}, {}, {}, {}
    for i, o in enumerate(obs):
        seen = np.nonzero(grid[i])[0]
        if len(seen) == 0:
            continue
        f, l = seen[0], seen[-1]
        if f > 0:
            lo_first[o], hi_first[o] = dists[f - 1], dists[f]     # no, yes
        if l < len(dists) - 1:
            lo_last[o], hi_last[o] = dists[l], dists[l + 1]       # yes, no
    while True:
        todo = [(o, "f") for o in lo_first if hi_first[o] - lo_first[o] > s.path_refine_in] + \
               [(o, "l") for o in lo_last if hi_last[o] - lo_last[o] > s.path_refine_in]
        if not todo:
            break
        flat = []
        for o, k in todo:
            lo, hi = (lo_first[o], hi_first[o]) if k == "f" else (lo_last[o], hi_last[o])
            n = _SPLITS if hi - lo > 2 * s.path_refine_in else 1
            flat += [(o, k, lo + (hi - lo) * (j + 1) / (n + 1)) for j in range(n)]
        # each point's descent starts from the proof at its interval's hidden end, and the
        # witnesses at its seen end are tried first
        ans = los_at([o for o, _, _ in flat], [m for _, _, m in flat],
                     [float(lo_first[o]) if k == "f" else float(hi_last[o]) for o, k, _ in flat],
                     [float(hi_first[o]) if k == "f" else float(lo_last[o]) for o, k, _ in flat])
        got: dict = {}
        for (o, k, m), a in zip(flat, ans):
            got.setdefault((o, k), []).append((m, bool(a)))
        for (o, k), ma in got.items():
            ma.sort()
            yes = [j for j, (_, a) in enumerate(ma) if a]
            if k == "f":             # (no LoS, LoS): the first point with LoS
                if yes:
                    hi_first[o] = ma[yes[0]][0]
                    if yes[0] > 0:
                        lo_first[o] = ma[yes[0] - 1][0]
                else:
                    lo_first[o] = ma[-1][0]
            else:                    # (LoS, no LoS): the last point with LoS
                if yes:
                    lo_last[o] = ma[yes[-1]][0]
                    if yes[-1] < len(ma) - 1:
                        hi_last[o] = ma[yes[-1] + 1][0]
                else:
                    hi_last[o] = ma[0][0]
    for i, o in enumerate(obs):
        vh = world.hitbox(o)
        seen = np.nonzero(grid[i])[0]
        first = last = None
        fd = ld = None
        if len(seen):
            fd = hi_first.get(o, dists[seen[0]])
            ld = lo_last.get(o, dists[seen[-1]])
            first = tuple(float(v) for v in _at(path, cum, fd)[0])
            last = tuple(float(v) for v in _at(path, cum, ld)[0])
        # awareness: distance between the hitboxes along the path
        aw = vh.awareness + CONTACT_TOLERANCE
        inside = cylinder_distance(vh.center, vh.radius, vh.height, pts, mh.radius, mh.height) <= aw
        ap = None
        if o != mover and inside.any():
            k = int(np.argmax(inside))
            if k == 0:
                ap = tuple(float(v) for v in pts[0])
            else:
                lo, hi = dists[k - 1], dists[k]
                while hi - lo > s.path_refine_in / 4:
                    m = (lo + hi) / 2
                    pm = _at(path, cum, m)[0]
                    if cylinder_distance(vh.center, vh.radius, vh.height, pm, mh.radius, mh.height) <= aw:
                        hi = m
                    else:
                        lo = m
                ap = tuple(float(v) for v in _at(path, cum, hi)[0])
        out.append(PathLos(o, bool(len(seen)), first, last, ap is not None, ap,
                           [tuple(float(v) for v in pts[j]) for j in seen], fd, ld))
    return out


def _path_exception(world, observer, vh, th, s):
    if s.blinded_state in vh.states:
        return False
    if s.flying_state in vh.states or s.flying_state in th.states:
        return True
    if s.engaged_state in vh.states and vh.side != th.side:
        if not (th.states & {"Crouched", "Dead", s.flying_state}):
            from engine.world import cylinder_distance
            d = float(cylinder_distance(vh.center, vh.radius, vh.height, np.array([th.x, th.y, th.z]),
                                        th.radius, th.height))
            rch = _melee_reach(th) or 0.0
            if d <= max(rch, 0.0) + 1e-3:
                return True
    if not _static(world).dark:
        return None
    dark_v, dark_t = _hitbox_in_dark(world, vh, s), _hitbox_in_dark(world, th, s)
    applies = {"either": dark_v or dark_t, "viewer": dark_v, "target": dark_t}[s.dark_applies]
    if applies:
        from engine.world import CONTACT_TOLERANCE, cylinder_distance
        d = float(cylinder_distance(vh.center, vh.radius, vh.height, np.array([th.x, th.y, th.z]),
                                    th.radius, th.height))
        if d > vh.awareness + CONTACT_TOLERANCE:
            return False
    return None


SIGHT_AREAS = ("forest", "dark")     # the environments line of sight and the ranged modifiers read


def sight_environments(world, model: str, settings: SightSettings | None = None) -> frozenset[str]:
    """The environments of ``model`` (``World.environments``: its base touches or overlaps the
    area, eldfall-facts.md "Environments"), where a Forest or Dark area reaches any height with
    ``area_height: infinite`` (an area is a region of the table: a model on a tower over a Dark
    area is in the Dark) or only its piece's own height with ``piece``. Line of sight, ``los``,
    ``measure`` and the rules' -3 for a Forest or the Dark all read this."""
    env = world.environments(model)
    if _settings(settings).area_height == "piece":
        return env
    hb = world.hitbox(model)
    return env | frozenset(kind for kind in SIGHT_AREAS if _areas_touched(world, hb, kind))


_TOUCHED_LIMIT = 4096     # base positions kept per table (a path's samples come and go)


def _areas_touched(world, hb, kind: str) -> list:
    """The Forest or Dark pieces whose footprint the base of ``hb`` touches or overlaps, at
    any height (a model where it stands, or moved along a path)."""
    st = _static(world)
    pieces = st.dark if kind == "dark" else st.forests
    if not pieces:
        return []
    key = (kind, hb.x, hb.y, hb.radius)
    touched = st.touched.get(key)
    if touched is None:
        from shapely.geometry import Point
        disc = Point(hb.x, hb.y).buffer(hb.radius, 32)
        touched = [f for f in pieces if f.polygon.intersects(disc)]
        if len(st.touched) >= _TOUCHED_LIMIT:
            st.touched.clear()
        st.touched[key] = touched
    return touched


def _hitbox_in_dark(world, hb, s: SightSettings) -> bool:
    """Does the hitbox stand in a Dark area (``sight_environments``)."""
    from engine.world import LEVEL_TOLERANCE
    touched = _areas_touched(world, hb, "dark")
    if s.area_height == "infinite":
        return bool(touched)
    return any(f.zlo - LEVEL_TOLERANCE <= hb.z <= f.zhi + LEVEL_TOLERANCE for f in touched)
