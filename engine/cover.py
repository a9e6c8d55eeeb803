"""Cover against a ranged attack, by the rulebook (Ranged Attack; States: Crouched, Flying).

A Small, Medium or Large model has cover when it is within 1" of a scenery
piece that is higher than its base and partly hides its hitbox from the
attacker:

* Heavy when the piece is taller than the hitbox and wider than the base, as
  seen from the attacker; Light otherwise.
* Crouched: at least Light. Flying: none.
* Higher ground: the edge of the model's own ledge (the piece it stands on)
  partly hiding it gives Light; a solid wall up there gives Heavy (the general
  rule).
* A piece's ``cover:`` tag (light, heavy, none) overrides the automatic level.

"Partly hides" uses the LoS sample points: a target point hides behind a piece
when no viewer point sees it; the piece is the first one met going from that
point towards the attacker's eye (the viewer point that saw most). The
underside of the base is left out of that search (the surface it stands on
hides it from below, which is no cover), but a piece's share ("hides N% of its
hitbox") is of all the sample points, as the visible share is; `eldfall los`
says the underside's unseen share apart.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from engine.sight_settings import SightSettings, default_settings
from engine.units import base_height_mm, mm, size_table

LEVELS = ("none", "light", "heavy")
# "within 1"": a piece or a ledge's edge at 1" counts (a measured 1.0000000001" is a ruler's 1")
WITHIN_TOL = 1e-5
# the ledge a model stands on hides it by perspective where the line to the attacker meets
# it no higher than the base's level (world.LEVEL_TOLERANCE: the same piece of level ground)
_LEDGE_LEVEL_TOL = 0.05


class LazyText:
    """A text attribute that may be set to a function: the text is built on first read (the
    words of a reason can cost exact distances that only a reader needs). A descriptor;
    ``raw(obj)`` gives what was set without building it."""

    def __set_name__(self, owner, name):
        self.slot = "_lazy_" + name

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        v = obj.__dict__.get(self.slot, "")
        if callable(v):
            v = v()
            obj.__dict__[self.slot] = v
        return v

    def __set__(self, obj, value):
        obj.__dict__[self.slot] = value

    def raw(self, obj):
        return obj.__dict__.get(self.slot, "")


def _built_state(obj) -> dict:
    """``obj.__dict__`` with every ``LazyText`` built (what pickling and copying keep)."""
    d = dict(obj.__dict__)
    for k, v in d.items():
        if k.startswith("_lazy_") and callable(v):
            d[k] = v()
    return d


def _once(fn):
    """``fn`` (no arguments) run at most once."""
    box: list = []

    def run():
        if not box:
            box.append(fn())
        return box[0]
    return run


@dataclass(frozen=True)
class CoverResult:
    level: str                 # "none" | "light" | "heavy"
    piece: str | None          # the piece that gives it
    reason: str                # (built on first read when it lists exact distances)

    def __getstate__(self):    # pickle / copy: the text, built
        return _built_state(self)


CoverResult.reason = LazyText()
CoverResult.reason.__set_name__(CoverResult, "reason")


def percent(share: float) -> str:
    """A share of the hitbox as a percentage; a sliver is "under 1%", never "0%", and all but
    a sliver "over 99%", never "100%" (a target "100% visible" in cover reads as a fault)."""
    if 0 < share < 0.005:
        return "under 1%"
    return "over 99%" if 0.995 <= share < 1 else f"{share:.0%}"



def inches_vs(v: float, limit: float) -> str:
    """``v`` with two decimals, or as many more (up to six) as it takes for the printed number to
    fall on the same side of ``limit`` as ``v`` itself: a piece 1.004" away, too far for cover,
    reads "1.004", never "1.00"."""
    over = v > limit + WITHIN_TOL
    for nd in range(2, 7):
        if (round(v, nd) > limit) == over:
            return f"{v:.{nd}f}"
    return f"{v:.6f}"


def side_by_side(v: float, limit: float) -> tuple[str, str]:
    """``v`` and ``limit`` with two decimals, or as many more (up to six) as it takes for the two
    printed numbers to compare as the numbers do: a 1.77" wall beside a 45 mm (1.77165")
    hitbox reads "1.770" and "1.772", never "1.77" (not taller than the) "1.77"."""
    for nd in range(2, 7):
        a, b = round(v, nd), round(limit, nd)
        if abs(v - limit) <= 1e-9 or (a != b and (a > b) == (v > limit)):
            return f"{v:.{nd}f}", f"{limit:.{nd}f}"
    return f"{v:.6f}", f"{limit:.6f}"


def _tall_words(rise: float, tall_h: float, taller: bool, s: SightSettings, hangs: float | None = None) -> str:
    """How a piece's top (``rise`` above the base) compares with the hitbox's ``tall_h`` for
    Heavy, in words that match the numbers printed beside them: a top that only reaches the
    top of the hitbox (Heavy: "reaches") is "as tall as" it, not "taller than" the same
    2.00"; one that counts only through ``cover.heavy_height_tolerance_in`` says so (a 1.70"
    top is not "taller than the 1.77" hitbox"). ``hangs``: the piece's bottom above the base,
    when it hangs over the model (not taller than it, however high its top)."""
    if hangs is not None:
        return f"but it hangs over the model, its bottom {hangs:.2f}\" above the base: not taller than"
    if not taller:
        return "not taller than"
    if abs(rise - tall_h) < 5e-7:          # equal to the six decimals the numbers print with
        return "as tall as"
    if rise < tall_h:
        return f"lower, but within cover.heavy_height_tolerance_in ({s.cover_heavy_height_tolerance_in:g}\") of"
    return "taller than"


def _size_code(hb) -> str | None:
    """The model's Size as the rules read it (``tools.roster.unit_from_spec``): the scene's
    ``size``, else its profile's, else the size whose table base and height it has, else the
    largest Size whose table base fits its base (docs/rulings.md, "Size codes when a profile
    and the scene disagree": a 30 x 40 mm model is an S, not "unknown" and so without cover)."""
    spec = hb.spec
    if spec is not None and spec.size:
        return spec.size
    prof = getattr(spec, "profile", None) if spec is not None else None
    if prof is not None and getattr(prof, "size", None):
        return prof.size
    base_mm = 2 * hb.radius * 25.4
    height_mm = hb.full_height * 25.4
    table = size_table()
    for code, row in table.items():
        if abs(row["base_mm"] - base_mm) < 0.5 and abs(row["height_mm"] - height_mm) < 0.5:
            return code
    fits = [(float(row["base_mm"]), code) for code, row in table.items()
            if float(row["base_mm"]) <= base_mm + 1e-6]
    if not fits:
        return min(table, key=lambda code: float(table[code]["base_mm"])) if table else None
    return max(fits)[1]


def _size_words(hb, code: str | None) -> str:
    """"size X", with how it was found when the scene and the profile give none."""
    spec = hb.spec
    given = spec is not None and (spec.size or getattr(getattr(spec, "profile", None), "size", None))
    if given or code is None:
        return f"size {code or 'unknown'}"
    return f"size {code} (by its {2 * hb.radius * 25.4:.0f} mm base: no size given)"


def _cyl_dist(q: np.ndarray, hb) -> np.ndarray:
    """Distance from points (n,3) to the hitbox cylinder."""
    rho = np.hypot(q[:, 0] - hb.x, q[:, 1] - hb.y)
    dh = np.maximum(0.0, rho - hb.radius)
    dv = np.maximum(0.0, np.maximum(hb.z - q[:, 2], q[:, 2] - hb.top))
    return np.hypot(dh, dv)


def _cyl_closest(q: np.ndarray, hb) -> np.ndarray:
    v = q[:, :2] - np.array([hb.x, hb.y])
    rho = np.linalg.norm(v, axis=1)
    k = np.where(rho > hb.radius, hb.radius / np.maximum(rho, 1e-12), 1.0)
    out = np.empty_like(q)
    out[:, :2] = np.array([hb.x, hb.y]) + v * k[:, None]
    out[:, 2] = np.clip(q[:, 2], hb.z, hb.top)
    return out


# ------------------------------------------------------------------ caches
# Terrain meshes are static: per-mesh data (bounds, watertightness, triangles)
# is built once and kept while the mesh lives; per-world piece bounds likewise.
_MESH_DATA: dict[int, tuple] = {}
_WORLD_BOUNDS: dict[int, tuple] = {}
_LATTICES: dict[tuple, np.ndarray] = {}
_BRUTE_FACES = 64          # meshes with at most this many faces skip trimesh's r-tree


@dataclass(frozen=True)
class _MeshData:
    lo: np.ndarray
    hi: np.ndarray
    watertight: bool
    triangles: np.ndarray    # (f, 3, 3)
    face_lo: np.ndarray      # (f, 3) each face's box
    face_hi: np.ndarray
    vertices: np.ndarray     # (v, 3)


def _mesh_data(mesh) -> _MeshData:
    key = id(mesh)
    hit = _MESH_DATA.get(key)
    if hit is not None and hit[0]() is mesh:
        return hit[1]
    import weakref
    lo, hi = (np.array(b, dtype=float) for b in mesh.bounds)
    tri = np.array(mesh.triangles, dtype=np.float64)
    data = _MeshData(lo, hi, bool(mesh.is_watertight), tri, tri.min(axis=1), tri.max(axis=1),
                     np.array(mesh.vertices, dtype=np.float64))
    _MESH_DATA[key] = (weakref.ref(mesh, lambda _r, k=key: _MESH_DATA.pop(k, None)), data)
    return data


def piece_bounds(world) -> tuple[np.ndarray, np.ndarray]:
    """Lower and upper corners (n, 3) of every piece's bounding box, built once per world."""
    key = id(world)
    hit = _WORLD_BOUNDS.get(key)
    if hit is not None and hit[0]() is world and hit[1] is world.pieces:
        return hit[2], hit[3]
    import weakref
    b = np.array([np.asarray(p.bounds, dtype=float) for p in world.pieces]).reshape(-1, 2, 3)
    lo, hi = b[:, 0].copy(), b[:, 1].copy()
    _WORLD_BOUNDS[key] = (weakref.ref(world, lambda _r, k=key: _WORLD_BOUNDS.pop(k, None)), world.pieces, lo, hi)
    return lo, hi


def bounds_distance(lo: np.ndarray, hi: np.ndarray, hb) -> np.ndarray:
    """Lower bound (per box) of the distance between boxes (n, 3) and the hitbox cylinder."""
    lo = np.atleast_2d(lo)
    hi = np.atleast_2d(hi)
    dx = np.maximum(0.0, np.maximum(lo[:, 0] - hb.x, hb.x - hi[:, 0]))
    dy = np.maximum(0.0, np.maximum(lo[:, 1] - hb.y, hb.y - hi[:, 1]))
    dh = np.maximum(0.0, np.hypot(dx, dy) - hb.radius)
    dv = np.maximum(0.0, np.maximum(lo[:, 2] - hb.top, hb.z - hi[:, 2]))
    return np.hypot(dh, dv)


def _lattice_2mm(hb) -> np.ndarray:
    """``hitbox_lattice(hb, spacing=mm(2))``, the turned local lattice cached per (radius, height, facing)."""
    key = (float(hb.radius), float(hb.height), float(hb.facing))
    local = _LATTICES.get(key)
    if local is None:
        from engine.sight import hitbox_lattice
        from engine.world import Hitbox
        local = hitbox_lattice(Hitbox("", "", 0.0, 0.0, 0.0, hb.radius, hb.height, hb.facing), spacing=mm(2.0))
        if len(_LATTICES) > 256:
            _LATTICES.clear()
        _LATTICES[key] = local
    return local + np.array([hb.x, hb.y, hb.z])


def _closest(mesh, data: _MeshData, pts: np.ndarray) -> np.ndarray:
    """Closest points on the mesh to ``pts`` (trimesh's point-triangle routine).

    Small meshes test every face; larger ones only the faces whose box is no
    farther from the point than the point's nearest vertex (as trimesh's tree
    search does), all in one vectorised pass.
    """
    from trimesh.triangles import closest_point as tri_closest
    tri = data.triangles
    n, f = len(pts), len(tri)
    if f <= _BRUTE_FACES:
        qp = np.repeat(pts, f, axis=0)
        qc = tri_closest(np.tile(tri, (n, 1, 1)), qp)
        d2 = ((qp - qc) ** 2).sum(axis=1).reshape(n, f)
        k = d2.argmin(axis=1)
        return qc.reshape(n, f, 3)[np.arange(n), k]
    # upper bound: the nearest vertex; lower bound: each face's box
    vd2 = ((pts[:, None, :] - data.vertices[None, :, :]) ** 2).sum(axis=2).min(axis=1)
    gap = np.maximum(0.0, np.maximum(data.face_lo[None, :, :] - pts[:, None, :], pts[:, None, :] - data.face_hi[None, :, :]))
    pi, fi = np.nonzero((gap ** 2).sum(axis=2) <= vd2[:, None] * (1 + 1e-9) + 1e-12)
    qp = pts[pi]
    qc = tri_closest(tri[fi], qp)
    d2 = ((qp - qc) ** 2).sum(axis=1)
    order = np.lexsort((d2, pi))
    first = np.ones(len(order), bool)
    first[1:] = pi[order][1:] != pi[order][:-1]
    sel = order[first]
    out = np.empty_like(pts)
    out[pi[sel]] = qc[sel]
    return out


def _near_faces(data: _MeshData, hb) -> _MeshData:
    """The faces that can hold the point nearest the hitbox: those whose box is no farther
    from the cylinder than the mesh's nearest vertex (a large mesh keeps a few faces)."""
    if len(data.triangles) <= _BRUTE_FACES:
        return data
    reach = float(_cyl_dist(data.vertices, hb).min())
    keep = bounds_distance(data.face_lo, data.face_hi, hb) <= reach * (1 + 1e-9) + 1e-12
    tri = data.triangles[keep]
    return _MeshData(data.lo, data.hi, data.watertight, tri, data.face_lo[keep], data.face_hi[keep],
                     np.unique(tri.reshape(-1, 3), axis=0))


def piece_distance(mesh, hb) -> float:
    """Distance in inches between a piece's surface and a hitbox (0 when they touch or overlap).

    Closest mesh points to a 2 mm lattice on the cylinder, then alternating
    projections; the value is an exact distance of a real mesh point, so it
    never underestimates, and it is within about 0.01" of the true minimum.
    """
    data = _mesh_data(mesh)
    lo, hi = data.lo, data.hi
    pts = _lattice_2mm(hb)
    inside = (pts >= lo).all(axis=1) & (pts <= hi).all(axis=1)
    if inside.any() and data.watertight and mesh.contains(pts[inside][:64]).any():
        return 0.0
    data = _near_faces(data, hb)
    q = _closest(mesh, data, pts)
    d = _cyl_dist(q, hb)
    k = np.argsort(d)[:4]
    best = float(d.min())
    cand = q[k]
    for _ in range(4):
        p = _cyl_closest(cand, hb)
        cand = _closest(mesh, data, p)
        best = min(best, float(_cyl_dist(cand, hb).min()))
    return best


def piece_gap(piece, hb) -> float:
    """``piece_distance`` of a terrain piece, as a ruler measures the piece the scene declares:
    a ``cylinder`` piece is round (its mesh has 48 flat sides, up to 0.2% of its radius
    inside the circle: a model 1.00" from a round 3" tower measured 1.006" to a flat side,
    "1.01\" away", no cover)."""
    spec = getattr(piece, "spec", None)
    if spec is not None and spec.shape == "cylinder" and spec.radius and spec.height:
        from engine.world import cylinder_distance
        return float(cylinder_distance(np.array(spec.at, dtype=float), float(spec.radius), float(spec.height),
                                       np.array([hb.x, hb.y, hb.z]), hb.radius, hb.height))
    return piece_distance(piece.mesh, hb)


def piece_top(piece, hb, within: float, lowest: bool = False) -> float:
    """``local_top`` of a terrain piece, a ``cylinder`` piece taken round as declared (see
    ``piece_gap``): its top (or bottom) when its circle comes within ``within`` of the base."""
    spec = getattr(piece, "spec", None)
    if spec is not None and spec.shape == "cylinder" and spec.radius and spec.height:
        gap = math.hypot(spec.at[0] - hb.x, spec.at[1] - hb.y) - float(spec.radius) - hb.radius
        if gap > within + 1e-9:
            return math.inf if lowest else -math.inf
        return float(spec.at[2]) + (0.0 if lowest else float(spec.height))
    return local_top(piece.mesh, hb, within, lowest)


def local_top(mesh, hb, within: float, lowest: bool = False) -> float:
    """Highest point of the piece within ``within`` (horizontally) of the base's edge (a disc
    of radius ``radius + within`` about the base's centre, seen from above); -inf if none.
    ``lowest``: its lowest point there instead (inf if none).

    Exact: the highest point of a triangle over a disc is one of its corners inside the
    disc, a point where one of its edges crosses the disc's rim, or the point of the rim in
    the direction its plane rises, when that lies inside the triangle."""
    data = _mesh_data(mesh)
    R = hb.radius + within
    c = np.array([hb.x, hb.y])
    tri = data.triangles
    near = (data.face_lo[:, 0] <= c[0] + R) & (data.face_hi[:, 0] >= c[0] - R) \
        & (data.face_lo[:, 1] <= c[1] + R) & (data.face_hi[:, 1] >= c[1] - R)
    tri = tri[near]
    if lowest:
        # the lowest point is the highest of the piece turned upside down
        return -_disc_top(tri * np.array([1.0, 1.0, -1.0]), c, R)
    return _disc_top(tri, c, R)


def _disc_top(tri: np.ndarray, c: np.ndarray, R: float) -> float:
    """The highest point of triangles (f, 3, 3) over the disc of radius ``R`` about ``c``."""
    if len(tri) == 0:
        return -math.inf
    tol = 1e-9
    best = -math.inf
    v = tri.reshape(-1, 3)
    inside = np.hypot(v[:, 0] - c[0], v[:, 1] - c[1]) <= R + tol
    if inside.any():
        best = float(v[inside, 2].max())
    # edges crossing the rim: |p + t (q - p) - c| = R, t in [0, 1]
    p = tri.reshape(-1, 3)
    q = tri[:, [1, 2, 0], :].reshape(-1, 3)
    e = q[:, :2] - p[:, :2]
    f = p[:, :2] - c
    a = (e * e).sum(axis=1)
    b = 2 * (e * f).sum(axis=1)
    cc = (f * f).sum(axis=1) - R * R
    disc = b * b - 4 * a * cc
    ok = (a > 1e-18) & (disc >= 0)
    if ok.any():
        sq = np.sqrt(np.where(ok, disc, 0.0))
        for sign in (-1.0, 1.0):
            t = (-b + sign * sq) / np.where(ok, 2 * a, 1.0)
            hit = ok & (t >= -tol) & (t <= 1 + tol)
            if hit.any():
                z = p[hit, 2] + np.clip(t[hit], 0, 1) * (q[hit, 2] - p[hit, 2])
                best = max(best, float(z.max()))
    # sloping faces: the rim point where the plane is highest, when inside the triangle
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    slope = (np.abs(n[:, 2]) > 1e-12) & (np.hypot(n[:, 0], n[:, 1]) > 1e-12)
    if slope.any():
        t3, n3 = tri[slope], n[slope]
        g = -n3[:, :2] / n3[:, 2:3]                      # dz/dx, dz/dy of the plane
        u = g / np.linalg.norm(g, axis=1)[:, None]
        pt = c + R * u
        # barycentric test in plan
        a0, a1, a2 = t3[:, 0, :2], t3[:, 1, :2], t3[:, 2, :2]
        d = (a1[:, 1] - a2[:, 1]) * (a0[:, 0] - a2[:, 0]) + (a2[:, 0] - a1[:, 0]) * (a0[:, 1] - a2[:, 1])
        l0 = ((a1[:, 1] - a2[:, 1]) * (pt[:, 0] - a2[:, 0]) + (a2[:, 0] - a1[:, 0]) * (pt[:, 1] - a2[:, 1])) / d
        l1 = ((a2[:, 1] - a0[:, 1]) * (pt[:, 0] - a2[:, 0]) + (a0[:, 0] - a2[:, 0]) * (pt[:, 1] - a2[:, 1])) / d
        l2 = 1 - l0 - l1
        inn = (l0 >= -tol) & (l1 >= -tol) & (l2 >= -tol)
        if inn.any():
            z = l0 * t3[:, 0, 2] + l1 * t3[:, 1, 2] + l2 * t3[:, 2, 2]
            best = max(best, float(z[inn].max()))
    # a level face that covers the whole disc (a floor slab over the model, wider than 1"
    # all round) has no corner, edge or rising rim point there: its height over the centre
    a0, a1, a2 = tri[:, 0, :2], tri[:, 1, :2], tri[:, 2, :2]
    d = (a1[:, 1] - a2[:, 1]) * (a0[:, 0] - a2[:, 0]) + (a2[:, 0] - a1[:, 0]) * (a0[:, 1] - a2[:, 1])
    flat = np.abs(d) > 1e-12                      # not seen edge-on from above
    if flat.any():
        dd = d[flat]
        l0 = ((a1[flat, 1] - a2[flat, 1]) * (c[0] - a2[flat, 0]) + (a2[flat, 0] - a1[flat, 0]) * (c[1] - a2[flat, 1])) / dd
        l1 = ((a2[flat, 1] - a0[flat, 1]) * (c[0] - a2[flat, 0]) + (a0[flat, 0] - a2[flat, 0]) * (c[1] - a2[flat, 1])) / dd
        l2 = 1 - l0 - l1
        inn = (l0 >= -tol) & (l1 >= -tol) & (l2 >= -tol)
        if inn.any():
            t3 = tri[flat]
            z = l0 * t3[:, 0, 2] + l1 * t3[:, 1, 2] + l2 * t3[:, 2, 2]
            best = max(best, float(z[inn].max()))
    return best


def stack_bottom(world, pidx: int, hb, within: float, base_top: float) -> float:
    """The lowest point, within ``within`` of the base (the disc ``local_top`` uses), of piece
    ``pidx`` and of the solid pieces it stands on there, again and again (a wall on a step
    reaches down to the step's foot): a piece whose bottom stays above ``base_top`` hangs
    over the model (an awning, the floor above it) rather than rising from its ground."""
    lo, hi = piece_bounds(world)
    bottom = piece_top(world.pieces[pidx], hb, within, lowest=True)
    group, todo = {pidx}, [pidx]
    while todo and bottom > base_top + 1e-9:
        k = todo.pop()
        near = np.nonzero(np.all(lo <= hi[k] + 0.01, axis=1) & np.all(hi >= lo[k] - 0.01, axis=1)
                          & (lo[:, 2] < bottom - 1e-9))[0]
        for q in map(int, near):
            piece = world.pieces[q]
            if q in group or not piece.solid:
                continue
            # under it, not beside it: their plans overlap (an awning fixed to a house's wall
            # only touches it, or sinks into it by a hair)
            over = np.minimum(hi[q, :2], hi[k, :2]) - np.maximum(lo[q, :2], lo[k, :2])
            if (over <= 0.05).any():
                continue
            q_top = piece_top(piece, hb, within)
            group.add(q)
            # under it: reaching up to its bottom there
            if q_top >= bottom - 0.01:
                b = piece_top(piece, hb, within, lowest=True)
                if b < bottom:
                    bottom = b
                    todo.append(q)
    return bottom


def band_slice(mesh, above_z: float, below_z: float | None = None):
    """The part of the piece between the heights ``above_z`` and ``below_z`` (None: no upper
    limit), or None when nothing of it lies there."""
    import trimesh
    m = trimesh.intersections.slice_mesh_plane(mesh, (0, 0, 1), (0, 0, above_z), cap=False)
    if m is not None and len(m.faces) and below_z is not None:
        m = trimesh.intersections.slice_mesh_plane(m, (0, 0, -1), (0, 0, below_z), cap=False)
    if m is None or len(m.faces) == 0:
        return None
    return m


def apparent_width(mesh, above_z: float, direction_xy: np.ndarray, below_z: float | None = None) -> float:
    """Width across the line of sight of the part of the piece above ``above_z`` (and below
    ``below_z``: the model's height, so that a wide part wholly above it, a lintel over an
    arch or a sign on a post, does not make the part beside the model wider than its base)."""
    m = band_slice(mesh, above_z, below_z)
    if m is None:
        return 0.0
    perp = np.array([-direction_xy[1], direction_xy[0]])
    u = np.asarray(m.vertices)[:, :2] @ perp
    return float(u.max() - u.min())


def face_on_width(mesh, above_z: float, below_z: float | None = None) -> float:
    """The length of the part of the piece above ``above_z`` (and below ``below_z``), as a
    ruler laid along it reads it (a wall's length, what it is wide seen face on): its extent
    along the direction square to its thinnest (the extents along 720 directions; a box's
    exactly)."""
    m = band_slice(mesh, above_z, below_z)
    if m is None:
        return 0.0
    a = np.radians(np.arange(0.0, 360.0, 0.5))
    u = np.asarray(m.vertices)[:, :2] @ np.vstack([np.cos(a), np.sin(a)])
    ext = u.max(axis=0) - u.min(axis=0)
    k = int(np.argmin(ext))
    return float(ext[(k + 180) % len(ext)])             # 90 degrees on


def joined_width(world, pidx: int, above_z: float, tall_z: float, direction_xy: np.ndarray,
                 skip: set[int], below_z: float | None = None) -> tuple[float, list[str]]:
    """Width across the line of sight of piece ``pidx`` joined with the pieces that touch it
    (boxes within 0.01"), again and again, that also reach ``tall_z``: a wall built of
    several blocks is as wide as all of them. Returns the width and the ids of the pieces
    that make it wider than ``pidx`` alone: the fewest that span it, outwards from
    ``pidx`` (of two reaching as far, the one nearer the attacker, then the lower one), not
    every block that touches (a floor inside, a wall behind, a roof adding nothing).
    ``below_z``: only the parts below it count for the width (the model's height: a lintel
    over an arch is no block beside the pillar the model stands behind)."""
    lo, hi = piece_bounds(world)
    perp = np.array([-direction_xy[1], direction_xy[0]])

    def span(k):
        m = band_slice(world.pieces[k].mesh, above_z, below_z)
        if m is None:
            return None
        v = np.asarray(m.vertices)
        u = v[:, :2] @ perp
        return float(u.min()), float(u.max()), float((v[:, :2] @ direction_xy).min()), float(v[:, 2].min())
    solid = np.array([p.solid and p.id != "table" for p in world.pieces])
    own = span(pidx)
    if own is None:
        # nothing of it at the model's height (a wall on a platform, the model at the
        # platform's foot; a lintel): as wide as the touching blocks there that reach as high
        best: tuple[float, list[str]] = (0.0, [])
        near = np.nonzero(solid & np.all(lo <= hi[pidx] + 0.01, axis=1) & np.all(hi >= lo[pidx] - 0.01, axis=1)
                          & (hi[:, 2] >= tall_z))[0]
        for q in map(int, near):
            if q == pidx or q in skip or span(q) is None:
                continue
            w, names = joined_width(world, q, above_z, tall_z, direction_xy, set(skip) | {pidx}, below_z)
            if w > best[0] + 1e-12:
                qid = world.pieces[q].id
                best = (w, [qid] + [n for n in names if n != qid])
        return best
    a, b = own[:2]
    a0, b0 = a, b
    group, todo, beside = {pidx}, [pidx], {}
    while todo:
        k = todo.pop()
        near = np.nonzero(solid & np.all(lo <= hi[k] + 0.01, axis=1) & np.all(hi >= lo[k] - 0.01, axis=1)
                          & (hi[:, 2] >= tall_z))[0]
        for q in near:
            q = int(q)
            if q in group or q in skip:
                continue
            group.add(q)
            sp = span(q)
            if sp is None or sp[0] > b + 0.01 or sp[1] < a - 0.01:
                continue        # touching, but not beside it across the line of sight
            a, b = min(a, sp[0]), max(b, sp[1])
            beside[q] = sp
            todo.append(q)
    # the width is the union of the joined spans (one interval, gaps under 0.01"): name the
    # pieces that reach out to its ends, from pidx's span outwards, each the one reaching farthest
    named: list[int] = []
    for sign in (1.0, -1.0):            # rightwards (u up), then leftwards (u down)
        edge = b0 if sign > 0 else a0
        while True:
            ext = [(q, sp) for q, sp in beside.items()
                   if ((sp[0] <= edge + 0.01 and sp[1] > edge) if sign > 0
                       else (sp[1] >= edge - 0.01 and sp[0] < edge))]
            if not ext:
                break
            reach = max(sp[1] if sign > 0 else -sp[0] for _, sp in ext)
            q, sp = min(((q, sp) for q, sp in ext if (sp[1] if sign > 0 else -sp[0]) >= reach - 1e-9),
                        key=lambda e: (e[1][2], e[1][3], e[0]))
            if q not in named:
                named.append(q)
            edge = sp[1] if sign > 0 else sp[0]
    return b - a, [world.pieces[q].id for q in named]


def support_pieces(world, hb) -> set[int]:
    """Indices of the pieces the base rests on."""
    foot = world.footprint(hb.x, hb.y, hb.radius * 0.98)
    origins = np.column_stack([foot, np.full(len(foot), hb.z + 0.02)])
    d, tri = world.rays.first_hit(origins, np.broadcast_to([0.0, 0.0, -1.0], origins.shape), max_dist=0.08)
    return {int(world.tri_piece[t]) for t in tri if t >= 0}


def _dropped(world, xy: np.ndarray, base_z: float) -> np.ndarray:
    """Per point (x, y): the surface there has dropped away from a base at ``base_z``: the
    highest surface at or below the base's level (``world.surface_height(xy, below=base_z +
    0.02)``) is more than 0.05" below it. A point inside a solid at that level (the ground
    rising above the base: a ramp going up, a wall) has not dropped, whatever lies under
    that solid. One ray down per point: its first face facing up is the surface (its height
    taken on the face's plane, as surface_height does), one facing down the inside of a
    solid; a vertical face (rare) is left to surface_height."""
    from engine.world import LEVEL_TOLERANCE
    start = base_z + 0.02 + LEVEL_TOLERANCE              # where surface_height starts looking down
    origins = np.column_stack([xy, np.full(len(xy), start)])
    dist, tri = world.rays.first_hit(origins, np.broadcast_to([0.0, 0.0, -1.0], origins.shape))
    hit = tri >= 0
    t = np.maximum(tri, 0)
    n3 = world.rays.normals[t]
    up = hit & (n3[:, 2] > 1e-6)
    inside = hit & (n3[:, 2] < -1e-6)
    z = np.where(up, start - dist, -np.inf)
    if up.any():
        k = np.flatnonzero(up)
        p0 = world.rays.triangles[t[k], 0]
        d = xy[k] - p0[:, :2]
        exact = p0[:, 2] - (n3[k, 0] * d[:, 0] + n3[k, 1] * d[:, 1]) / n3[k, 2]
        z[k] = np.where(np.abs(exact - z[k]) < 1e-3, exact, z[k])
    out = ~(z >= base_z - 0.05) & ~inside
    if out.any():
        # a point inside a solid whose bottom lies on another surface (a hill or a ramp on
        # the table: the table's top and the piece's bottom are the same plane) may meet that
        # other surface first going down; going up, it leaves the solid through a face that
        # faces up (a closed piece's top), which no point in the open meets first
        k = np.flatnonzero(out)
        _, tri_up = world.rays.first_hit(origins[k], np.broadcast_to([0.0, 0.0, 1.0], (len(k), 3)))
        ok = tri_up >= 0
        if ok.any():
            up_face = world.rays.normals[tri_up[ok]][:, 2] > 1e-6
            closed = np.array([bool(_mesh_data(world.pieces[int(world.tri_piece[t])].mesh).watertight)
                               for t in tri_up[ok]], dtype=bool)
            sunk = np.zeros(len(k), dtype=bool)
            sunk[np.flatnonzero(ok)] = up_face & closed
            out[k[sunk]] = False
            inside[k[sunk]] = True
    other = hit & ~up & ~inside
    if other.any():
        out[other] = ~(world.surface_height(xy[other], below=base_z + 0.02) >= base_z - 0.05)
    return out


def _drop_distances(world, hb, p0: np.ndarray, u: np.ndarray, reach: float, tol: float = 1e-6,
                    step: float = 0.01, from_ground: bool = False) -> np.ndarray:
    """Per line (start ``p0`` (m, 2), direction ``u`` (m, 2)): how far along it the surface at
    the base's level goes on before it drops away (the last point found on it, within
    ``tol``: never past the edge); inf when it does not drop within ``reach``. Steps of
    ``step``, then each step that holds the edge cut in 100, until ``tol``.

    ``from_ground``: a line that starts over a drop (a point of a base that overhangs the
    far side of its ledge, or the back slope of a crest) looks for the edge after it has
    met the ground at the base's level: the drop it starts over lies behind the model, not
    towards where the line goes. A line that never meets that ground starts past the edge
    (0)."""
    def off(dist, rows=slice(None)):                      # dist (m, s): True where dropped
        xy = (p0[rows, None, :] + dist[:, :, None] * u[rows, None, :]).reshape(-1, 2)
        return _dropped(world, xy, hb.z).reshape(dist.shape)
    m = len(p0)
    line = np.arange(0.0, reach + step, step)
    steps = np.broadcast_to(line, (m, len(line)))
    dropped = off(steps)
    if from_ground:
        ground = ~dropped
        g = np.where(ground.any(axis=1), ground.argmax(axis=1), 0)
        dropped = dropped & (np.arange(dropped.shape[1])[None, :] >= g[:, None])
    found = dropped.any(axis=1)
    k = dropped.argmax(axis=1)
    hi = steps[np.arange(m), k]
    lo = np.where(k > 0, steps[np.arange(m), np.maximum(k - 1, 0)], 0.0)
    hi = np.where(k > 0, hi, 0.0)
    while found.any() and float((hi - lo)[found].max()) > tol:
        idx = np.flatnonzero(found & (hi - lo > tol))
        fine = lo[idx, None] + (hi - lo)[idx, None] * np.linspace(0.0, 1.0, 101)[None]
        j = off(fine, idx).argmax(axis=1)                # the last sample always dropped
        r = np.arange(len(idx))
        lo[idx], hi[idx] = fine[r, np.maximum(j - 1, 0)], fine[r, j]
    return np.where(found, lo, np.inf)


def ledge_edge(world, hb, eye, limit: float, starts=None) -> float | None:
    """Horizontal distance from the base's edge to the edge of the surface it stands on that
    lies towards ``eye`` (where it drops away); None when it does not drop within ``limit``.

    ``starts`` (n, 2+): the points (of the hidden part of the hitbox) whose lines towards the
    eye find the edge that hides them (default: the base's centre). The distance is then
    measured as a ruler does, the shortest from the base to that edge: the nearest drop
    in the directions around it (a model 0.07" from the side edge of its ledge, with the
    attacker off to that side, is 0.07" from the edge, not the length of a slanting line)."""
    centre = np.array([hb.x, hb.y])
    pts = centre[None] if starts is None else np.unique(np.round(np.asarray(starts, float)[:, :2], 3), axis=0)
    d = np.asarray(eye[:2], dtype=float)[None] - pts
    n = np.linalg.norm(d, axis=1)
    keep = n > 1e-9
    if not keep.any():
        return None
    pts, d = pts[keep], d[keep] / n[keep, None]
    if len(pts) > 24:                                      # a spread of the hidden points is enough
        pick = np.linspace(0, len(pts) - 1, 24).round().astype(int)
        pts, d = pts[pick], d[pick]
    along = _drop_distances(world, hb, pts, d, 2 * hb.radius + limit, tol=0.005, step=0.02, from_ground=True)
    if not np.isfinite(along).any():
        return None
    drop = pts + np.where(np.isfinite(along), along, 0.0)[:, None] * d
    gap = np.where(np.isfinite(along), np.linalg.norm(drop - centre, axis=1), np.inf)
    towards = drop[int(np.argmin(gap))] - centre
    if float(np.linalg.norm(towards)) < 1e-9:
        return 0.0               # the base overhangs the edge
    # from the centre, the shortest way to that edge: drops in three directions around it,
    # the line through the two nearest, the foot of the perpendicular from the centre on it;
    # again around that foot (exact for a straight edge, converging on a curved one)
    ang, spread, best = math.atan2(towards[1], towards[0]), math.radians(5.0), math.inf
    for _ in range(3):
        a = np.array([ang - spread, ang, ang + spread])
        u = np.column_stack([np.cos(a), np.sin(a)])
        dist = _drop_distances(world, hb, np.repeat(centre[None], 3, axis=0), u, hb.radius + limit, tol=1e-7)
        ok = np.isfinite(dist)
        if not ok.any():
            break
        best = min(best, float(dist[ok].min()))
        if ok.sum() < 2:
            ang = float(a[ok][0])
        else:
            i, j = np.argsort(np.where(ok, dist, np.inf))[:2]
            q1, q2 = dist[i] * u[i], dist[j] * u[j]           # relative to the centre
            e = q2 - q1
            t = -float(q1 @ e) / max(float(e @ e), 1e-18)
            foot = q1 + t * e
            ang = math.atan2(foot[1], foot[0]) if float(np.linalg.norm(foot)) > 1e-9 else float(a[i])
        spread /= 20.0
    if not math.isfinite(best):
        return None
    edge = best - hb.radius
    if edge > limit:
        return None
    return max(0.0, edge)


def _buried(world, tri: np.ndarray, vec: np.ndarray, piece_idx: np.ndarray) -> np.ndarray:
    """Per ray (first triangle ``tri``, direction ``vec``): its start lies inside a closed
    (watertight) piece, the first face it meets being one of that piece's faces seen from
    the inside (the ray leaves the solid through it)."""
    out = np.zeros(len(tri), dtype=bool)
    hit = tri >= 0
    if not hit.any():
        return out
    leaving = np.einsum("ij,ij->i", world.rays.normals[tri[hit]], vec[hit]) > 0
    if not leaving.any():
        return out
    closed = np.array([bool(_mesh_data(world.pieces[int(k)].mesh).watertight) for k in piece_idx[hit][leaving]])
    idx = np.flatnonzero(hit)[leaving]
    out[idx[closed]] = True
    return out


def cover(world, attacker: str, target: str, los_result=None,
          settings: SightSettings | None = None) -> CoverResult:
    """Cover of ``target`` against a ranged attack by ``attacker``."""
    s = default_settings() if settings is None else settings
    th = world.hitbox(target)
    ah = world.hitbox(attacker)
    crouched = "Crouched" in th.states
    if s.flying_state in th.states:
        return CoverResult("none", None, f"{target} is {s.flying_state}: no cover")
    code = _size_code(th)
    # the Crouched State's Light Cover is the State's own ("model counts as in Light Cover",
    # eldfall-states.txt), whatever the Size: only the cover from scenery is for S, M and L
    # (a Crouched Huge model was "none" here while `measure` and the rules gave it -2)
    by_scenery = code in s.cover_sizes
    if not by_scenery and not (crouched and s.cover_crouched != "none"):
        return CoverResult("none", None, f"{target} is {_size_words(th, code)}: only {', '.join(s.cover_sizes)} get cover")
    if los_result is None or not los_result.fraction_exact or los_result.target_visible is None:
        from engine.sight import los
        los_result = los(world, attacker, target, fraction=True, cover=False, settings=s)
    if (los_result.los and los_result.reason not in ("clear", "itself") and los_result.target_allowed is not None
            and not np.asarray(los_result.target_allowed, bool).all()):
        # LoS given by a state (a Flying attacker or target, an engager), whatever the arcs:
        # what hides the target from the attacker is judged all round, as the lines that
        # LoS stands for are (a wall hiding half of a target behind a Flying attacker's
        # back is cover; judged only in front of its arc line, nothing was looked at)
        # (the LoS itself stays the state's: an engager the rules named is not re-derived)
        from engine.sight import los
        los_result = los(world, attacker, target, moving=True, fraction=True, cover=False,
                         settings=s.replace(moving_is_360=True))
        los_result.los = True
    base_level, base_reason = "none", ""
    if crouched and s.cover_crouched != "none":
        base_level, base_reason = s.cover_crouched, f"{target} is Crouched"
    if not los_result.los:
        return CoverResult("none", None, "no LoS")
    if not by_scenery:
        return CoverResult(base_level, None, f"{base_reason} (the State's cover, whatever its Size; as "
                           f"{_size_words(th, code)} it gets none from scenery: only "
                           f"{', '.join(s.cover_sizes)} do)")

    pts = los_result.target_points
    allowed = los_result.target_allowed if los_result.target_allowed is not None else np.ones(len(pts), bool)
    hidden = np.nonzero(~los_result.target_visible & allowed & (los_result.target_part != 2))[0]
    best = (base_level, None, base_reason)
    if len(hidden):
        eye = np.asarray(los_result.eye, dtype=float)
        t = pts[hidden]
        vec = eye - t
        dist = np.linalg.norm(vec, axis=1)
        d, tri = world.rays.first_hit(t, vec, max_dist=dist)
        hit = tri >= 0
        piece_idx = np.where(hit, world.tri_piece[np.maximum(tri, 0)], -1)
        # a point buried in a closed solid (the uphill part of a base on a slope) meets that
        # solid's inside first: no viewer anywhere sees it, so nothing "hides" it from the
        # attacker, as the ground under a base never does
        buried = _buried(world, tri, vec, piece_idx)
        support = support_pieces(world, th)
        sunk = [world.pieces[int(k)].id for k in np.unique(piece_idx[buried])]
        sunk_under = bool(sunk) and set(np.unique(piece_idx[buried]).tolist()) <= support
        piece_idx = np.where(buried, -1, piece_idx)
        base_top = th.z + min(th.height, mm(base_height_mm()))
        los_dir = np.array([th.x - ah.x, th.y - ah.y])
        n = np.linalg.norm(los_dir)
        los_dir = los_dir / n if n > 1e-12 else ah.facing_vector
        # "hides N% of its hitbox": a share of all its sample points, as the visible share
        # is (so that the two and the underside's share add up: "57% visible" beside "hides
        # 34%" of the side and top alone left 9% unexplained); not of the part in front of
        # the attacker's arc line only (a target astride that line, "25% visible", half
        # behind the line, was "43% hidden")
        n_points = len(pts)
        # Heavy's height: the model's size (its standing hitbox), or its current hitbox
        by_size = s.cover_heavy_against == "size" and th.full_height > th.height
        tall_h = th.full_height if by_size else th.height
        tall_what = "hitbox of its size (standing)" if by_size else "hitbox"
        found, rejected = [], []
        # every piece that hides part of it, with its share and a word on what it gives: the
        # reason says the others beside the cover piece, so that the shares add up ("42%
        # visible", "hides 28%" and the underside's 14% left 16% said nowhere, hidden by a
        # second piece or a model)
        hiders: list[tuple[str, float, str]] = []
        cands = np.unique(piece_idx[piece_idx >= 0])
        blo, bhi = piece_bounds(world)
        # a piece whose box is beyond the cover distance of the hitbox cannot give cover
        near = bounds_distance(blo[cands], bhi[cands], th) <= s.cover_within_in + WITHIN_TOL
        for pidx, pnear in zip(cands, near):
            piece = world.pieces[int(pidx)]
            if piece.id == "table" and piece.spec is None:
                continue
            mine = piece_idx == pidx
            share = mine.sum() / max(n_points, 1)
            if int(pidx) in support:
                # the piece it stands on: where the line from a hidden point towards the eye
                # meets it at or below the base's level, its ledge hides that point by
                # perspective; where it meets it higher (the ground rising: a ramp going up
                # towards the attacker, a slope), it hides that point as any piece does
                rise = np.zeros_like(mine)
                rise[mine] = (t[mine, 2] + d[mine] * vec[mine, 2] / np.maximum(dist[mine], 1e-12)
                              > th.z + _LEDGE_LEVEL_TOL)
                ledge = mine & ~rise
                if ledge.any():
                    lshare = ledge.sum() / max(n_points, 1)
                    # followed from the points it hides: the edge that hides them
                    edge = ledge_edge(world, th, eye, s.cover_within_in + 0.25, starts=t[ledge])
                    if s.cover_ledge_edge_within and (edge is None or edge > s.cover_within_in + WITHIN_TOL):
                        far = (inches_vs(edge, s.cover_within_in) + "\"" if edge is not None
                               else f"more than {s.cover_within_in:g}\"")
                        rejected.append(f"its own ledge (piece {piece.id!r}) hides {percent(lshare)} of its "
                                        f"hitbox (its lowest part), but the edge is {far} away")
                        hiders.append((piece.id, lshare, f"the surface it stands on, its edge {far} from the base: no cover"))
                    else:
                        level = "light" if piece.cover == "auto" else piece.cover
                        why = (f"the edge of its own ledge (piece {piece.id!r}) hides {percent(lshare)} of its "
                               f"hitbox from {attacker} (higher ground; the edge is {edge or 0:.2f}\" from the base towards "
                               f"{attacker})")
                        if piece.cover != "auto":
                            why += f"; the piece's cover tag says {piece.cover}"
                        found.append((level, piece.id, why, lshare, len(hiders)))
                        hiders.append((piece.id, lshare, f"its own ledge: {level}"))
                if not rise.any():
                    continue
                mine = rise
                share = mine.sum() / max(n_points, 1)
            if not pnear:
                # the exact distance is only needed if the reason ends up listing it
                rejected.append(lambda piece=piece, share=share: f"{piece.id} hides {percent(share)} of its hitbox "
                                "but is " + inches_vs(piece_gap(piece, th), s.cover_within_in) + "\" away")
                hiders.append((piece.id, share, f"more than {s.cover_within_in:g}\" away: no cover"))
                continue
            dist_p = piece_gap(piece, th)
            if dist_p > s.cover_within_in + WITHIN_TOL:
                rejected.append(f"{piece.id} hides {percent(share)} of its hitbox but is "
                                f"{inches_vs(dist_p, s.cover_within_in)}\" away")
                hiders.append((piece.id, share, f"{inches_vs(dist_p, s.cover_within_in)}\" away: no cover"))
                continue
            top = piece_top(piece, th, s.cover_within_in + WITHIN_TOL)
            if top <= base_top + 1e-9:
                rejected.append(f"{piece.id} hides {percent(share)} of its hitbox but is not higher than its base")
                hiders.append((piece.id, share, "not higher than its base: no cover"))
                continue
            # wider than the base where it stands beside the model: between the top of the base
            # and the top of the hitbox Heavy is judged against (a lintel above an arch's pillar,
            # a sign on a post, a canopy, all above the model, widen nothing beside it)
            # (a hitbox shrunk to its base, judged as such: cover.heavy_against hitbox, the width
            # just above the base)
            model_top = max(th.z + tall_h, base_top + 0.01)
            width = apparent_width(piece.mesh, base_top, los_dir, model_top)
            taller = top >= th.z + tall_h - s.cover_heavy_height_tolerance_in - 1e-9
            hangs = None
            if taller:
                # "taller than the model": the piece rises from the model's ground to its top;
                # a slab over it (an awning, the floor above) only reaches down to its bottom
                bottom = stack_bottom(world, int(pidx), th, s.cover_within_in + WITHIN_TOL, base_top)
                if bottom > base_top + 1e-9:
                    taller, hangs = False, bottom - th.z
            wider = width > 2 * th.radius + 1e-9
            joined = []
            if taller and not wider:
                # a wall of several touching blocks counts as one
                w2, joined = joined_width(world, int(pidx), base_top,
                                          th.z + tall_h - s.cover_heavy_height_tolerance_in - 1e-9, los_dir,
                                          support, model_top)
                if joined:
                    width = max(width, w2)
                    wider = width > 2 * th.radius + 1e-9
            auto = "heavy" if (taller and wider) else "light"
            level = auto if piece.cover == "auto" else piece.cover
            top_s, tall_s = side_by_side(top - th.z, tall_h)
            width_s, base_s = side_by_side(width, 2 * th.radius)
            wide = (f"it is {width_s}\" wide{' with ' + ', '.join(joined) + ' beside it' if joined else ''} "
                    f"({'wider' if wider else 'not wider'} than the {base_s}\" base")
            if width <= 0:
                # nothing of it at the model's height ("0.00\" wide" of an awning read as a fault)
                above = apparent_width(piece.mesh, base_top, los_dir)
                wide = (f"it is {above:.2f}\" wide, all of it above the top of the {tall_s}\" {tall_what} "
                        f"(nothing of it beside the model, to be wider than its {2 * th.radius:.2f}\" base")
            head = (f"{piece.id} is {dist_p:.2f}\" away and hides {percent(share)} of its hitbox from {attacker}; "
                    f"its top is {top_s}\" above the base ({_tall_words(top - th.z, tall_h, taller, s, hangs)} the "
                    f"{tall_s}\" {tall_what}) and {wide}")
            tag = f"; the piece's cover tag says {piece.cover} (automatic: {auto})" if piece.cover != "auto" else ""

            def why(head=head, tag=tag, mesh=piece.mesh, width=width, joined=joined):
                # the width is across the line of sight: a 3" wall seen at an angle is 2.71" wide,
                # and a player's ruler laid along it reads 3" (said when the two print differently;
                # built only when the reason is read)
                face = 0.0 if joined else face_on_width(mesh, base_top, model_top)
                slant = (f"; across the line of sight from {attacker}: it is {face:.2f}\" long, seen at an angle"
                         if f"{face:.2f}" != f"{width:.2f}" and face > width else "")
                return head + slant + ")" + tag
            found.append((level, piece.id, _once(why), share, len(hiders)))
            hiders.append((piece.id, share, level + (" from it" if level != "none" else ": its cover tag")))
        chosen = None
        if found:
            found.sort(key=lambda f: (LEVELS.index(f[0]), f[3]), reverse=True)
            lv, pid, why, _, hidx = found[0]
            if LEVELS.index(lv) >= LEVELS.index(best[0]) and lv != "none":
                best = (lv, pid, _once(lambda why=why: _text(why) + (f"; also {base_reason}" if base_reason else "")))
                chosen = hidx
            elif lv == "none" and best[0] == "none":
                # a piece tagged `cover: none` hides it: no cover, and no piece gives it
                best = ("none", None, _once(lambda why=why: "no cover: " + _text(why)))
        # what else hides part of it (models, a Forest's area), said where nothing gives cover:
        # "no scenery within 1\" hides part of its hitbox" beside "blocking: wood, wood2" read
        # as a contradiction (neither is scenery that gives cover)
        others = _once(lambda r=los_result: _others_hiding(world, r))
        if best[0] == "none" and not best[2] and rejected:
            best = ("none", None, _once(lambda rejected=rejected: "no cover: " + "; ".join(
                [r() if callable(r) else r for r in rejected] + others())))
        elif best[0] == "none" and not best[2] and not (sunk and not len(cands)):
            best = ("none", None, _once(lambda: "no cover: " + "; ".join(others()) if others() else
                                        f"no scenery within {s.cover_within_in:g}\" hides part of its "
                                        f"hitbox from {attacker}"))
        if best[0] == "none" and not best[2] and sunk and not len(cands):
            # `blocking` names the piece (lines to those points meet it): say why it gives nothing
            only = "the only part of its hitbox hidden" if buried.all() else "the only part of its hitbox scenery hides"
            best = ("none", None, f"no cover: {only} from {attacker} is sunk in "
                    f"{', '.join(sunk)}{', the ground it stands on' if sunk_under else ''} "
                    f"(no attacker anywhere sees it, as none sees the bottom of a base)"
                    + ("" if buried.all() else "; models give no cover"))
        if best[0] != "none":
            rest = _rest_hidden(world, los_result, hiders, chosen, ~hit, buried,
                                np.where(hit, world.tri_piece[np.maximum(tri, 0)], -1), n_points)
            if rest:
                best = (best[0], best[1], _once(lambda prev=best[2], rest=rest: _text(prev) + rest))
    level, pid, why = best
    if level == "none" and not why:
        why = f"no scenery within {s.cover_within_in:g}\" hides part of its hitbox from {attacker}"
    return CoverResult(level, pid, why)


def _text(v) -> str:
    """A reason given as text or as a function that builds it."""
    return v() if callable(v) else v


def _rest_hidden(world, r, hiders, chosen, free, buried, piece_idx_all, n_points) -> str:
    """The unseen share of the hitbox beside the cover piece's (and the underside's, said on
    the visible line), each part with what hides it: "; the other 16% unseen: window-hi
    hides 16% (light from it)". Empty when the cover piece hides all that is hidden."""
    parts = [(pid, share, note) for k, (pid, share, note) in enumerate(hiders) if k != chosen and share > 0]
    total = sum(share for _, share, _ in parts)
    n = max(n_points, 1)
    sunk = buried.sum() / n
    if sunk > 0:
        where = ", ".join(world.pieces[int(k)].id for k in np.unique(piece_idx_all[buried]))
        parts.append(("", sunk, f"sunk in {where} (no attacker anywhere sees it)"))
        total += sunk
    # no scenery between such a point and the attacker's eye: a model or an area hides it
    by_others = (free & ~buried).sum() / n
    if by_others > 0:
        ids = [b for b in (r.blocking or ()) if b in world.models
               or any(p.id == b and not p.solid for p in world.pieces)]
        models = [b for b in ids if b in world.models]
        note = ("a model gives no cover" if len(models) == len(ids) == 1 else "models give no cover"
                if ids and len(models) == len(ids) else "an area is not scenery" if len(ids) == 1 and not models
                else "models and areas give no cover")
        parts.append((", ".join(ids) or "models or areas", by_others, note))
        total += by_others
    if not parts or total <= 0:
        return ""
    def pct(v):                 # one decimal, as the visible line's (so the parts add up as printed)
        return "under 0.1%" if v < 0.0005 else f"{v:.1%}"
    words = [f"{pid} {'hide' if ', ' in pid else 'hides'} {pct(share)} ({note})" if pid
             else f"{pct(share)} is {note}" for pid, share, note in parts]
    return f"; the other {pct(total)} unseen: " + ", ".join(words)


def _others_hiding(world, r) -> list[str]:
    """The models and the areas (a Forest's) among ``r.blocking``, each said with why it gives
    no cover: only scenery gives cover, and an area is no scenery (docs/scene-format.md, Tags)."""
    ids = list(r.blocking or ())
    models = [b for b in ids if b in world.models]
    areas = [b for b in ids if any(p.id == b and not p.solid for p in world.pieces)]
    out = []
    if areas:
        forest = [b for b in areas if any(p.id == b and "forest" in p.tags for p in world.pieces)]
        what = ("Forest area" if len(forest) == len(areas) else "area") + ("s" if len(areas) > 1 else "")
        out.append(f"{', '.join(areas)} ({what}: no LoS through {r.settings.forest_limit} or more) "
                   f"{'hide' if len(areas) > 1 else 'hides'} part of it, but an area is not scenery "
                   "and gives no cover" if forest else
                   f"{', '.join(areas)} ({what}) {'hide' if len(areas) > 1 else 'hides'} part of it, but an "
                   "area is not scenery and gives no cover")
    if models:
        out.append(f"{', '.join(models)} {'hide' if len(models) > 1 else 'hides'} part of it, but models "
                   "give no cover")
    return out


def cover_line(r) -> str:
    """The cover, its piece and why, in one line: `eldfall los`'s detail line and the
    line under the verdict in every LoS picture's caption (engine.view.pictures.los_detail:
    `eldfall los --picture`, `eldfall demo`'s dispute, the view's F12). ``r``: a
    LosResult or its dict."""
    level, piece, why = _field(r, "cover"), _field(r, "cover_piece"), _field(r, "cover_reason")
    if level == "none" and why and str(why).startswith("no cover: "):
        why = str(why)[len("no cover: "):]          # "cover: none: no cover: ..." says it twice
    return f"cover: {level}" + (f" from {piece}" if piece else "") + (f": {why}" if why else "")


def _field(r, k):
    """A field of a LosResult or of its dict."""
    return r.get(k) if isinstance(r, dict) else getattr(r, k, None)


def by_state(r) -> bool:
    """No LoS decided by a state or the Dark (Blinded; Dark beyond Awareness), not by the
    geometry: no line was looked at, so nothing on the table blocks it (``blocking`` is
    empty). ``r``: a LosResult or its dict."""
    return not _field(r, "los") and bool(_field(r, "by_state"))


def no_line_looked_at(r) -> str | None:
    """Why no line between the two hitboxes was looked at, or None when some were: a state or
    the Dark decided "no LoS" (``by_state``), or the target is wholly behind the viewer's
    front arc line (and the viewer does not see all round). Such a verdict has no ray to show:
    a picture drawing rays red ("blocked") across open ground would say something blocks.
    ``r``: a LosResult or its dict."""
    if _field(r, "reason") == "itself" or _field(r, "los"):
        return None             # LoS: some line was looked at (a state's LoS: all round)
    if by_state(r):
        return "no LoS whatever stands between: " + str(_field(r, "reason"))
    if not _field(r, "all_round") and _field(r, "in_front_arc") is False:
        return f"{_field(r, 'target')} is wholly behind {_field(r, 'viewer')}'s front arc line"
    return None


def underside_unseen(r) -> float:
    """The share of the target's sample points that lie on the underside of its base, in
    front of the viewer's arc line, and are unseen (no piece is named for them: the
    surface the model stands on hides them from below); 0 when the points are not known."""
    part, vis = _field(r, "target_part"), _field(r, "target_visible")
    if part is None or vis is None or not len(part) or _field(r, "reason") == "itself":
        return 0.0
    allowed = _field(r, "target_allowed")
    ok = np.ones(len(part), bool) if allowed is None else np.asarray(allowed, bool)
    return float(((np.asarray(part) == 2) & ~np.asarray(vis, bool) & ok).sum()) / len(part)


def behind_arc(r) -> float:
    """The share of the target's sample points behind the viewer's front arc line (they
    count as unseen in ``visible_fraction``); 0 when the viewer sees all round or the
    points are not known (a dict)."""
    allowed = _field(r, "target_allowed")
    if _field(r, "all_round") or allowed is None or not len(allowed) or _field(r, "reason") == "itself":
        return 0.0
    return float((~np.asarray(allowed, bool)).sum()) / len(allowed)
