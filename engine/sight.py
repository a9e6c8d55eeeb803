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
  - obstacles are gathered per pair (pieces whose bounds meet the pair's and
    that no face plane of their convex hull separates from both hitboxes);
    with none, every segment is clear without casting;
  - a convex obstacle (box, wedge, cylinder, convex prism or mesh, another
    model) that every segment between the two hitboxes' bounding polytopes
    passes through hides everything (the set of segments meeting a convex body
    is convex in each endpoint, so testing the polytopes' corners proves it
    for all points); the same test per target point against the viewer's
    polytope proves single points hidden;
  - rays are cast in rounds: each unresolved target point tries the next
    viewer points of a spread-out order (plus the viewers points that already
    worked for others) and stops at its first clear segment. A target point is
    hidden only when every allowed viewer point failed or a proof says so.
* The yes/no question stops at the first clear segment (or when the minimum
  visible area is reached); the fraction resolves every target point.

All lengths are inches; points are (x, y, z) with z up.
"""
from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np

from engine.sight_settings import SightSettings, default_settings

MM2_PER_IN2 = 25.4 * 25.4
_SHRINK = 1e-4          # proofs use obstacles shrunk by this (inches): no grazing contact counts
_ARC_TOL = 1e-9


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


def _lattice_for(hb, settings: SightSettings) -> _Lattice:
    return _local_lattice(round(float(hb.radius), 9), round(float(hb.height), 9),
                          round(settings.spacing_in, 9), round(settings.inset_in, 9))


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


@dataclass
class _Forest:
    id: str
    edges: np.ndarray            # (e, 2, 2)
    zlo: float
    zhi: float
    polygon: object              # shapely


@dataclass
class _Static:
    pieces: list                 # solid pieces except the table
    lo: np.ndarray               # (p, 3)
    hi: np.ndarray
    forests: list
    dark: list


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


def _footprint(mesh):
    from shapely.geometry import Polygon
    from shapely.ops import unary_union
    tris = np.asarray(mesh.triangles)[:, :, :2]
    area2 = (tris[:, 1, 0] - tris[:, 0, 0]) * (tris[:, 2, 1] - tris[:, 0, 1]) - \
        (tris[:, 1, 1] - tris[:, 0, 1]) * (tris[:, 2, 0] - tris[:, 0, 0])
    polys = [Polygon(t) for t, a in zip(tris, area2) if abs(a) > 1e-12]
    fp = unary_union(polys).buffer(0)
    return fp


def _rings(poly) -> np.ndarray:
    geoms = getattr(poly, "geoms", [poly])
    edges = []
    for g in geoms:
        for ring in [g.exterior, *g.interiors]:
            c = np.asarray(ring.coords)[:, :2]
            edges.append(np.stack([c[:-1], c[1:]], axis=1))
    return np.concatenate(edges) if edges else np.zeros((0, 2, 2))


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
            infos.append(_PieceInfo(p.index, p.id, lo, hi, n, d, convex))
        elif "forest" in p.tags or "dark" in p.tags:
            fp = _footprint(p.mesh)
            lo, hi = np.asarray(p.mesh.bounds, dtype=float)
            f = _Forest(p.id, _rings(fp), float(lo[2]), float(hi[2]), fp)
            (forests if "forest" in p.tags else dark).append(f)
    lo = np.array([i.lo for i in infos]).reshape(-1, 3)
    hi = np.array([i.hi for i in infos]).reshape(-1, 3)
    st = _Static(infos, lo, hi, forests, dark)
    _STATIC[world] = st
    return st


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


def _forest_counts(p0: np.ndarray, p1: np.ndarray, forests: Sequence[_Forest], settings: SightSettings) -> np.ndarray:
    counts = np.zeros(len(p0), dtype=np.int64)
    for f in forests:
        a, b = p0, p1
        valid = np.ones(len(p0), dtype=bool)
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
        hit = _points_in_edges(q0, f.edges) | _points_in_edges(q1, f.edges) | _segments_cross_edges(q0, q1, f.edges)
        counts += hit & valid
    return counts


# -------------------------------------------------------------------------- results
@dataclass
class LosResult:
    viewer: str
    target: str
    los: bool
    visible_fraction: float            # share of the target's sample points seen by some viewer point
    in_front_arc: bool
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

    def as_dict(self) -> dict:
        return {
            "viewer": self.viewer, "target": self.target, "los": self.los,
            "visible_fraction": round(float(self.visible_fraction), 4),
            "fraction_exact": self.fraction_exact,
            "in_front_arc": self.in_front_arc,
            "distance": round(float(self.distance), 4),
            "height_difference": round(float(self.height_difference), 4),
            "cover": self.cover, "cover_piece": self.cover_piece, "cover_reason": self.cover_reason,
            "blocking": list(self.blocking), "reason": self.reason,
            "visible_area_mm2": round(float(self.visible_area_mm2), 2),
            "witness": None if self.witness is None else [[round(v, 4) for v in p] for p in self.witness],
            "rays": self.rays, "segments": self.segments,
        }


@dataclass
class PathLos:
    """What one observer saw of a model moving along a path."""
    observer: str
    had_los: bool
    first: tuple[float, float, float] | None        # first point of the path where it had LoS
    last: tuple[float, float, float] | None
    entered_awareness: bool
    awareness_point: tuple[float, float, float] | None
    seen: list = field(default_factory=list)        # sampled path points with LoS, in order
    first_distance: float | None = None             # along the path, inches
    last_distance: float | None = None


# --------------------------------------------------------------------------- rules
def _settings(settings) -> SightSettings:
    return default_settings() if settings is None else settings


def _is_360(hb, moving: bool, s: SightSettings) -> bool:
    if moving and s.moving_is_360:
        return True
    return bool(set(hb.states) & set(s.three_sixty_states)) or bool(set(hb.traits) & set(s.three_sixty_traits))


def _melee_reach(hb) -> float | None:
    prof = hb.spec.profile if hb.spec is not None else None
    if prof is None:
        return 0.0
    reaches = [w.rch for w in prof.weapons if w.kind == "melee"]
    return max(reaches) if reaches else 0.0


def engagers(world, model: str, settings: SightSettings | None = None) -> list[str]:
    """The enemies engaging ``model``: it stands within their melee reach (p.24; states: Engaged).

    Crouched and Flying models engage no one (states page). Only when the model
    is in the Engaged state; the rules may instead pass ``engaged_with``.
    """
    s = _settings(settings)
    hb = world.hitbox(model)
    if s.engaged_state not in hb.states:
        return []
    out = []
    for other in world.model_ids():
        ho = world.hitbox(other)
        if other == model or ho.side == hb.side or ho.states & {"Crouched", "Dead", s.flying_state, "Incapacitated"}:
            continue
        if world.in_reach(other, model, _melee_reach(ho) or 0.0):
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
    dark_v = "dark" in world.environments(viewer)
    dark_t = "dark" in world.environments(target)
    applies = {"either": dark_v or dark_t, "viewer": dark_v, "target": dark_t}[s.dark_applies]
    if applies and not world.in_awareness(viewer, target):
        where = viewer if dark_v else target
        return False, f"Dark: {where} stands in a Dark area and {target} is beyond {viewer}'s Awareness"
    return None


# --------------------------------------------------------------------------- query
class _Query:
    """One viewer -> target question, resolved in rounds of batched rays."""

    def __init__(self, world, st: _Static, vh, th, *, want_all: bool, s: SightSettings,
                 half: bool, v_local: _Lattice, t_local: _Lattice, exclude: set[str], models):
        self.vh, self.th, self.s, self.want_all = vh, th, s, want_all
        centre_v = np.array([vh.x, vh.y, vh.z])
        vpts = _rotate(v_local.points, vh.facing) + centre_v
        tpts = _rotate(t_local.points, th.facing) + np.array([th.x, th.y, th.z])
        f = vh.facing_vector
        if half:
            vmask = v_local.points[:, 0] >= -_ARC_TOL
            tmask = (tpts[:, :2] - centre_v[:2]) @ f >= -_ARC_TOL
        else:
            vmask = np.ones(len(vpts), dtype=bool)
            tmask = np.ones(len(tpts), dtype=bool)
        vorder = v_local.order[vmask[v_local.order]]
        # viewer points: in spread order (the order array indexes vpts directly)
        self.V = vpts
        self.vorder = vorder
        self.nv = len(vorder)
        self.T_all = tpts
        self.t_part = t_local.part
        self.t_weight = t_local.weight
        self.tmask = tmask
        torder = t_local.order[tmask[t_local.order]]
        self.tidx = torder                      # indices into T_all of the allowed target points, spread order
        self.nt = len(torder)
        self.status = np.zeros(self.nt, dtype=np.int8)   # 0 unknown, 1 visible, 2 hidden
        self.ptr = np.zeros(self.nt, dtype=np.int64)
        self.witness = np.full(self.nt, -1, dtype=np.int64)
        self.hidden_by = np.full(self.nt, -1, dtype=np.int64)    # proof obstacle index
        self.hints: list[int] = []
        self.rays = 0
        self.round = 0
        self.done = self.nt == 0 or self.nv == 0
        self.visible_weight = 0.0
        self.min_w = s.min_visible_area_mm2 / MM2_PER_IN2
        # viewer points facing the target first
        dirv = np.array([th.x - vh.x, th.y - vh.y])
        nrm = np.linalg.norm(dirv)
        dirv = dirv / nrm if nrm > 1e-12 else f
        sc = (vpts[vorder, :2] - centre_v[:2]) @ dirv + 0.5 * (vpts[vorder, 2] - vh.z)
        best = vorder[np.argsort(-sc)[:2]]
        self.hints = [int(i) for i in best]
        # obstacles
        self._gather(world, st, exclude, models, half)

    # -- obstacles near the pair
    def _gather(self, world, st, exclude, models, half):
        vh, th, s = self.vh, self.th, self.s
        self.vpoly = _polytope(vh, half, s.inset_in)
        self.tpoly = _polytope(th, False, s.inset_in)
        allp = np.vstack([self.vpoly, self.tpoly])
        lo, hi = allp.min(axis=0), allp.max(axis=0)
        self.convex = []                 # (name, normals, offsets)
        self.nonconvex = 0
        if len(st.pieces):
            near = np.nonzero((st.lo <= hi).all(axis=1) & (st.hi >= lo).all(axis=1))[0]
            for k in near:
                info = st.pieces[k]
                if len(info.offsets) and ((allp @ info.normals.T - info.offsets[None, :]) >= -1e-9).all(axis=0).any():
                    continue            # a face plane of its hull separates it from both hitboxes
                if info.convex:
                    self.convex.append((info.id, info.normals, info.offsets))
                else:
                    self.nonconvex += 1
        self.models = []                 # (id, centre, r, h)
        if s.models_block:
            for mid, mc, mr, mh in models:
                if mid in exclude:
                    continue
                if (mc[0] + mr < lo[0] or mc[0] - mr > hi[0] or mc[1] + mr < lo[1] or mc[1] - mr > hi[1]
                        or mc[2] > hi[2] or mc[2] + mh < lo[2]):
                    continue
                self.models.append((mid, mc, mr, mh))
        for mid, mc, mr, mh in self.models:
            n, d = _cylinder_planes(_HB(mc, mr, mh))
            self.convex.append((mid, n, d))
        self.forests = []
        for f in st.forests:
            b = f.polygon.bounds
            if b[0] <= hi[0] and b[2] >= lo[0] and b[1] <= hi[1] and b[3] >= lo[1]:
                self.forests.append(f)
        if not self.s.forest_count_own_area:
            from shapely.geometry import Point
            own = [Point(h.x, h.y).buffer(h.radius, 32) for h in (vh, th)]
            self.forests = [f for f in self.forests if not any(f.polygon.intersects(o) for o in own)]
        if len(self.forests) < s.forest_limit:
            self.forests_active = []
        else:
            self.forests_active = self.forests
        self.obstacle_free = not self.convex and not self.nonconvex and not self.forests_active

    # -- proofs
    def prove_all(self) -> bool:
        """Every segment between the two hitboxes passes through one convex obstacle."""
        if not self.convex or self.done:
            return False
        P0 = np.repeat(self.vpoly, len(self.tpoly), axis=0)
        P1 = np.tile(self.tpoly, (len(self.vpoly), 1))
        for k, (name, n, d) in enumerate(self.convex):
            if _through(P0, P1, n, d - _SHRINK).all():
                pts = np.vstack([self.V[self.vorder], self.T_all[self.tidx]])
                if _outside(pts, n, d).all():
                    self.status[:] = 2
                    self.hidden_by[:] = k
                    self.done = True
                    return True
        return False

    def prove_points(self) -> None:
        """Per unresolved target point: proof against the viewer's polytope."""
        if not self.convex:
            return
        todo = np.nonzero(self.status == 0)[0]
        if len(todo) == 0:
            return
        nvp = len(self.vpoly)
        t = self.T_all[self.tidx[todo]]
        vout = None
        for k, (name, n, d) in enumerate(self.convex):
            if len(todo) == 0:
                break
            P1 = np.repeat(t, nvp, axis=0)
            P0 = np.tile(self.vpoly, (len(t), 1))
            ok = _through(P0, P1, n, d - _SHRINK).reshape(len(t), nvp).all(axis=1)
            if not ok.any():
                continue
            if vout is None or True:
                if not _outside(self.V[self.vorder], n, d).all():
                    continue
            ok &= _outside(t, n, d)
            self.status[todo[ok]] = 2
            self.hidden_by[todo[ok]] = k
            todo, t = todo[~ok], t[~ok]

    # -- rays
    def next_pairs(self):
        """(target rows, viewer point indices) for this round, or None when done."""
        if self.done:
            return None
        unk = np.nonzero(self.status == 0)[0]
        if len(unk) == 0:
            self.done = True
            return None
        if not self.want_all and self.round == 0:
            unk = unk[:16]
        K = 1 << min(self.round, 12)
        K = max(1, min(K, self.nv))
        cols = self.ptr[unk, None] + np.arange(K)[None, :]
        valid = cols < self.nv
        vidx = self.vorder[np.minimum(cols, self.nv - 1)]
        rows = np.broadcast_to(unk[:, None], cols.shape)
        r, v = rows[valid], vidx[valid]
        if self.hints:
            h = np.asarray(self.hints[:2])
            r = np.concatenate([r, np.repeat(unk, len(h))])
            v = np.concatenate([v, np.tile(h, len(unk))])
        self.ptr[unk] += K
        self.round += 1
        return r, v

    def clear_extra(self, p0, p1) -> np.ndarray:
        """(n,) bool: segments (already clear of terrain) blocked by models or forests."""
        blocked = np.zeros(len(p0), dtype=bool)
        if len(p0) == 0:
            return blocked
        if self.models:
            from engine.world import segments_hit_cylinders
            c = np.array([m[1] for m in self.models])
            r = np.array([m[2] for m in self.models])
            h = np.array([m[3] for m in self.models])
            blocked |= np.isfinite(segments_hit_cylinders(p0, p1, c, r, h)).any(axis=1)
        if self.forests_active:
            blocked |= _forest_counts(p0, p1, self.forests_active, self.s) >= self.s.forest_limit
        return blocked

    def absorb(self, rows, vidx, clear):
        self.rays += len(rows)
        if clear.any():
            cr, cv = rows[clear], vidx[clear]
            new = self.status[cr] == 0
            cr, cv = cr[new], cv[new]
            # one witness per row
            ur, first = np.unique(cr, return_index=True)
            self.status[ur] = 1
            self.witness[ur] = cv[first]
            self.visible_weight += float(self.t_weight[self.tidx[ur]].sum())
            vals, cnt = np.unique(cv, return_counts=True)
            top = vals[np.argsort(-cnt)[:2]]
            self.hints = list(dict.fromkeys([int(x) for x in top] + self.hints))[:2]
        exhausted = (self.status == 0) & (self.ptr >= self.nv)
        if not self.want_all and self.round == 1:
            exhausted[16:] = False
        self.status[exhausted] = 2
        if not self.want_all and self.visible_weight >= self.min_w and (self.status == 1).any():
            self.done = True
        if not (self.status == 0).any():
            self.done = True


class _HB:
    """A hitbox-like record for an obstacle model."""
    def __init__(self, c, r, h):
        self.x, self.y, self.z = float(c[0]), float(c[1]), float(c[2])
        self.radius, self.height = float(r), float(h)


def _model_records(world, s: SightSettings):
    out = []
    for mid in world.model_ids():
        hb = world.hitbox(mid)
        if not s.crouched_and_dead_block and hb.height < hb.full_height:
            continue
        out.append((mid, np.array([hb.x, hb.y, hb.z]), float(hb.radius), float(hb.height)))
    return out


def _drive(world, queries: list) -> None:
    """Resolve queries in rounds; one terrain ray call per round for all of them."""
    for q in queries:
        if not q.done and q.obstacle_free:
            q.status[:] = 1
            q.witness[:] = q.hints[0] if q.hints else q.vorder[0]
            q.visible_weight = float(q.t_weight[q.tidx].sum())
            q.done = True
        elif not q.done:
            q.prove_all()
    proved_points = set()
    while True:
        batch = []
        for q in queries:
            if q.done:
                continue
            if q.round == 2 and id(q) not in proved_points:
                proved_points.add(id(q))
                q.prove_points()
                if not (q.status == 0).any():
                    q.done = True
                    continue
            pr = q.next_pairs()
            if pr is not None:
                batch.append((q, pr))
        if not batch:
            return
        P0 = np.concatenate([q.V[v] for q, (r, v) in batch])
        P1 = np.concatenate([q.T_all[q.tidx[r]] for q, (r, v) in batch])
        occ = world.rays.occluded(P0, P1)
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


# ------------------------------------------------------------------------ public API
def _make_query(world, st, viewer, target, moving, s, want_all, models, v_override=None):
    vh = world.hitbox(viewer)
    th = world.hitbox(target) if v_override is None else v_override
    half = not _is_360(vh, moving, s)
    return _Query(world, st, vh, th, want_all=want_all, s=s, half=half,
                  v_local=_lattice_for(vh, s), t_local=_lattice_for(th, s),
                  exclude={viewer, target}, models=models)


def _attribute(world, q: _Query) -> tuple[tuple[str, ...], np.ndarray | None]:
    """The pieces and models hiding target points, and the eye (viewer point that saw most)."""
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
            cnt = _forest_counts(np.broadcast_to(eye, t.shape).copy(), t, q.forests_active, q.s)
            if (cnt >= q.s.forest_limit).any():
                names.extend(f.id for f in q.forests_active)
    return tuple(dict.fromkeys(names)), eye


def _picture_rays(q: _Query, eye: np.ndarray, k: int = 48):
    rows = np.arange(min(k, q.nt))
    segs, clear = [], []
    for r in rows:
        t = q.T_all[q.tidx[r]]
        if q.status[r] == 1 and q.witness[r] >= 0:
            segs.append([q.V[q.witness[r]], t])
            clear.append(True)
        else:
            segs.append([eye, t])
            clear.append(False)
    return np.asarray(segs, dtype=float).reshape(-1, 2, 3), np.asarray(clear, dtype=bool)


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
    base = dict(viewer=viewer, target=target, distance=float(world.distance(viewer, target)),
                height_difference=float(world.height_difference(viewer, target)), settings=s)
    half = not _is_360(vh, moving, s)
    front = (not half) or _in_front_arc(vh, th)
    exc = _exception(world, viewer, target, moving, s, engaged_with)
    if viewer == target:
        lat = _lattice_for(th, s)
        return LosResult(los=True, visible_fraction=1.0, in_front_arc=True, reason="itself", **base)
    q = _make_query(world, st, viewer, target, moving, s, want_all or exc is not None, _model_records(world, s))
    if exc is not None and exc[0] is False:
        q.done = True
        q.status[:] = 2
    else:
        _drive(world, [q])
    vis_t = np.zeros(len(q.T_all), dtype=bool)
    vis_t[q.tidx[q.status == 1]] = True
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
            reason = f"visible area {area * MM2_PER_IN2:.1f} mm2 is below the minimum {s.min_visible_area_mm2:g} mm2"
        else:
            reason = "blocked"
    blocking, eye = _attribute(world, q)
    witness = None
    ok = np.nonzero(q.status == 1)[0]
    if len(ok):
        r = ok[0]
        witness = (tuple(float(x) for x in q.V[q.witness[r]]), tuple(float(x) for x in q.T_all[q.tidx[r]]))
    psegs, pclear = _picture_rays(q, eye)
    exact = (q.status != 0).all() and (want_all or not geo_los or exc is not None)
    res = LosResult(los=los_v, visible_fraction=frac, in_front_arc=front, blocking=blocking,
                    witness=witness, reason=reason, fraction_exact=bool(exact),
                    visible_area_mm2=area * MM2_PER_IN2, rays=q.rays, segments=q.nv * q.nt,
                    target_points=q.T_all, target_visible=vis_t, target_part=q.t_part, target_allowed=q.tmask,
                    eye=tuple(float(x) for x in eye), picture_segments=psegs, picture_clear=pclear, **base)
    if cover and los_v:
        from engine.cover import cover as _cover
        c = _cover(world, viewer, target, res, settings=s)
        res.cover, res.cover_piece, res.cover_reason = c.level, c.piece, c.reason
    elif cover:
        res.cover_reason = "no LoS"
    return res


def los_matrix(world, ids: Sequence[str] | None = None, settings: SightSettings | None = None,
               *, moving: Iterable[str] = ()) -> dict[tuple[str, str], bool]:
    """LoS yes/no for every ordered pair of models (a sees b), one batched cast for all pairs."""
    s = _settings(settings)
    ids = list(world.model_ids() if ids is None else ids)
    moving = set(moving)
    st = _static(world)
    models = _model_records(world, s)
    out: dict[tuple[str, str], bool] = {}
    queries = []
    for a in ids:
        for b in ids:
            if a == b:
                out[(a, b)] = True
                continue
            exc = _exception(world, a, b, a in moving, s, None)
            if exc is not None:
                out[(a, b)] = exc[0]
                continue
            q = _make_query(world, st, a, b, a in moving, s, s.min_visible_area_mm2 > 0, models)
            q.pair = (a, b)
            queries.append(q)
    _drive(world, queries)
    for q in queries:
        vis = q.status == 1
        area = float(q.t_weight[q.tidx[vis]].sum()) * MM2_PER_IN2
        out[q.pair] = bool(vis.any()) and area >= s.min_visible_area_mm2 - 1e-12
    return out


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
        cnt = _forest_counts(p0[idx], t[idx], st.forests, s)
        clear[idx[cnt >= s.forest_limit]] = False
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


def los_along_path(world, mover: str, path_points, observers: Sequence[str],
                   settings: SightSettings | None = None) -> list[PathLos]:
    """For each observer: where along the mover's path it had LoS to the mover.

    ``path_points`` (n, 3): the base-bottom centre along the path, inches.
    The path is sampled every ``settings.path_step_in``; the first and last
    points with LoS are refined by bisection to ``settings.path_refine_in``.
    Also: whether the mover's hitbox ever came within the observer's Awareness,
    and the first point where it did (refined the same way).
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
    models = [m for m in _model_records(world, s) if m[0] != mover]

    def los_at(obs_list, d_list):
        """LoS yes/no for (observer, distance along path) pairs, batched."""
        res = [None] * len(obs_list)
        queries = []
        for i, (o, d) in enumerate(zip(obs_list, d_list)):
            p = _at(path, cum, d)[0]
            th = _MovedHitbox(mh, p)
            vh = world.hitbox(o)
            if o == mover:
                res[i] = True
                continue
            exc = _path_exception(world, o, vh, th, s)
            if exc is not None:
                res[i] = exc
                continue
            half = not _is_360(vh, False, s)
            q = _Query(world, st, vh, th, want_all=s.min_visible_area_mm2 > 0, s=s, half=half,
                       v_local=_lattice_for(vh, s), t_local=_lattice_for(th, s),
                       exclude={o, mover}, models=models)
            q.slot = i
            queries.append(q)
        _drive(world, queries)
        for q in queries:
            vis = q.status == 1
            area = float(q.t_weight[q.tidx[vis]].sum()) * MM2_PER_IN2
            res[q.slot] = bool(vis.any()) and area >= s.min_visible_area_mm2 - 1e-12
        return res

    obs = list(observers)
    flat = los_at([o for o in obs for _ in dists], [d for _ in obs for d in dists])
    grid = np.array(flat, dtype=bool).reshape(len(obs), len(dists))
    out = []
    # refinement by bisection, batched over observers
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
        mids = [((lo_first[o] + hi_first[o]) / 2 if k == "f" else (lo_last[o] + hi_last[o]) / 2) for o, k in todo]
        ans = los_at([o for o, _ in todo], mids)
        for (o, k), m, a in zip(todo, mids, ans):
            if k == "f":
                if a:
                    hi_first[o] = m
                else:
                    lo_first[o] = m
            else:
                if a:
                    lo_last[o] = m
                else:
                    hi_last[o] = m
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
    dark_v = "dark" in world.environments(observer)
    dark_t = _disc_in_dark(world, th)
    applies = {"either": dark_v or dark_t, "viewer": dark_v, "target": dark_t}[s.dark_applies]
    if applies:
        from engine.world import CONTACT_TOLERANCE, cylinder_distance
        d = float(cylinder_distance(vh.center, vh.radius, vh.height, np.array([th.x, th.y, th.z]),
                                    th.radius, th.height))
        if d > vh.awareness + CONTACT_TOLERANCE:
            return False
    return None


def _disc_in_dark(world, th) -> bool:
    st = _static(world)
    if not st.dark:
        return False
    from shapely.geometry import Point
    disc = Point(th.x, th.y).buffer(th.radius, 32)
    return any(f.polygon.intersects(disc) and f.zlo - 0.05 <= th.z <= f.zhi + 0.05 for f in st.dark)
