"""The geometry world: one merged static terrain mesh plus movable hitboxes.

All lengths in inches, z up. A hitbox is a vertical cylinder standing on its
base: centre (x, y), bottom z, radius and height. The terrain's ray structure
is built once; moving, adding or removing models never rebuilds it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import trimesh

from engine import shapes
from engine.rays import RayCaster
from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.units import base_height_mm, mm

# A surface is walkable (a model may stand on it) when its normal's z is at
# least this (slopes up to 60 degrees).
WALKABLE_MIN_NZ = 0.5
# Heights closer than this are one level.
LEVEL_TOLERANCE = 0.05
# Touching: distances at or below this count as contact.
CONTACT_TOLERANCE = 1e-3

AREA_TAGS = frozenset({"forest", "dark", "difficult", "mountainous", "shallow-water",
                       "deep-water", "dense", "hazy", "unscalable", "dangerous"})
SHRINKING_STATES = frozenset({"Crouched", "Dead"})


@dataclass(frozen=True)
class Piece:
    """One terrain piece (or the table itself, id 'table')."""
    index: int
    id: str
    spec: TerrainSpec | None
    mesh: trimesh.Trimesh
    tags: frozenset[str]
    cover: str = "auto"
    solid: bool = True

    @property
    def bounds(self) -> np.ndarray:
        return self.mesh.bounds

    @property
    def height(self) -> float:
        lo, hi = self.mesh.bounds
        return float(hi[2] - lo[2])


@dataclass
class Hitbox:
    """A model's hitbox: a vertical cylinder. (x, y, z) is the base's bottom centre."""
    id: str
    side: str
    x: float
    y: float
    z: float
    radius: float
    full_height: float
    facing: float = 0.0
    states: frozenset[str] = frozenset()
    stats: dict = field(default_factory=dict)
    spec: ModelSpec | None = None
    awareness_ag: float | None = None        # the AG Awareness uses when not the profile's

    @property
    def height(self) -> float:
        """Current height: a Crouched or Dead model keeps only its base's height."""
        if self.states & SHRINKING_STATES:
            return min(self.full_height, mm(base_height_mm()))
        return self.full_height

    @property
    def center(self) -> np.ndarray:
        return np.array([self.x, self.y, self.z])

    @property
    def top(self) -> float:
        return self.z + self.height

    @property
    def traits(self) -> frozenset[str]:
        prof = self.spec.profile if self.spec is not None else None
        if prof is None:
            return frozenset()
        return frozenset(prof.traits) | frozenset(prof.skills)

    @property
    def awareness(self) -> float:
        """Awareness radius in inches: AG, +3 with Acute Senses (p.22). The AG is the
        profile's unless the rules set another (``World.set_awareness_ag``)."""
        ag = float(self.stats.get("AG", 0)) if self.awareness_ag is None else float(self.awareness_ag)
        return ag + (3.0 if "acute senses" in {t.lower() for t in self.traits} else 0.0)

    @property
    def facing_vector(self) -> np.ndarray:
        a = math.radians(self.facing)
        return np.array([math.cos(a), math.sin(a)])


@dataclass(frozen=True)
class Pick:
    kind: str | None          # "model" | "terrain" | "table" | None
    id: str | None
    point: tuple[float, float, float] | None
    distance: float


def cylinder_distance(c1, r1, h1, c2, r2, h2) -> np.ndarray:
    """Distance between vertical cylinders (bottom centres c, radius r, height h).

    Broadcasts over leading dimensions: c (..., 3). A cylinder is a disc times
    an interval, so the distance is the hypotenuse of the horizontal gap and the
    vertical gap.
    """
    c1 = np.asarray(c1, dtype=float)
    c2 = np.asarray(c2, dtype=float)
    dxy = np.linalg.norm(c1[..., :2] - c2[..., :2], axis=-1)
    gap_h = np.maximum(0.0, dxy - r1 - r2)
    z1, z2 = c1[..., 2], c2[..., 2]
    gap_v = np.maximum(0.0, np.maximum(z2 - (z1 + h1), z1 - (z2 + h2)))
    return np.hypot(gap_h, gap_v)


def segments_hit_cylinders(origins, ends, centers, radii, heights) -> np.ndarray:
    """Entry parameter t in [0, 1] of each segment into each vertical cylinder.

    origins, ends : (n, 3); centers : (m, 3) bottom centres; radii, heights : (m,)
    Returns (n, m) float: t of the first point inside the cylinder, inf where the
    segment misses it. Grazing contacts (an interval shorter than 1e-9) miss.
    """
    o = np.asarray(origins, dtype=float)[:, None, :]
    d = (np.asarray(ends, dtype=float) - np.asarray(origins, dtype=float))[:, None, :]
    c = np.asarray(centers, dtype=float)[None, :, :]
    r = np.asarray(radii, dtype=float)[None, :]
    h = np.asarray(heights, dtype=float)[None, :]
    px, py = o[..., 0] - c[..., 0], o[..., 1] - c[..., 1]
    dx, dy = d[..., 0], d[..., 1]
    a = dx * dx + dy * dy
    b = 2 * (px * dx + py * dy)
    cc = px * px + py * py - r * r
    with np.errstate(divide="ignore", invalid="ignore"):
        disc = b * b - 4 * a * cc
        sq = np.sqrt(np.maximum(disc, 0.0))
        t0 = np.where(a > 1e-15, (-b - sq) / (2 * a), np.where(cc < 0, -np.inf, np.inf))
        t1 = np.where(a > 1e-15, (-b + sq) / (2 * a), np.where(cc < 0, np.inf, -np.inf))
        miss_xy = (a > 1e-15) & (disc <= 0)
        dz = d[..., 2]
        oz = o[..., 2] - c[..., 2]
        tz0 = np.where(np.abs(dz) > 1e-15, np.minimum((0 - oz) / dz, (h - oz) / dz),
                       np.where((oz >= 0) & (oz <= h), -np.inf, np.inf))
        tz1 = np.where(np.abs(dz) > 1e-15, np.maximum((0 - oz) / dz, (h - oz) / dz),
                       np.where((oz >= 0) & (oz <= h), np.inf, -np.inf))
    lo = np.maximum(np.maximum(t0, tz0), 0.0)
    hi = np.minimum(np.minimum(t1, tz1), 1.0)
    hit = (~miss_xy) & (hi - lo > 1e-9)
    return np.where(hit, lo, np.inf)


def plan_footprint(mesh):
    """The plan outline of a piece: the union of its triangles seen from above.

    Not the convex hull of its corners: an L-shaped (prism) area leaves its inner
    corner out, and a base standing there is not in the area.
    """
    import shapely
    from shapely.geometry import MultiPoint
    tri = np.asarray(mesh.triangles, dtype=float)[:, :, :2]
    e1, e2 = tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0]
    keep = np.abs(e1[:, 0] * e2[:, 1] - e1[:, 1] * e2[:, 0]) > 1e-12
    if not keep.any():
        return MultiPoint(np.asarray(mesh.vertices)[:, :2]).convex_hull
    return shapely.union_all(shapely.polygons(tri[keep])).buffer(0)


class World:
    """Terrain meshes, hitboxes and the geometric queries the rules ask.

    >>> world = World(load_scene("scenes/skirmish.yaml"))
    >>> world.distance("red-archer", "blue-mage")
    """

    def __init__(self, scene: Scene, backend: str = "auto"):
        self.scene = scene
        self.table = (float(scene.table[0]), float(scene.table[1]))
        pieces = [Piece(0, "table", None, shapes.table_mesh(*self.table), frozenset({"table"}), "none", True)]
        from engine.scene import cached_mesh
        for spec in scene.terrain:
            mesh = shapes.piece_mesh(spec, cached_mesh(spec.file) if spec.file else None)
            tags = frozenset(spec.tags)
            pieces.append(Piece(len(pieces), spec.id, spec, mesh, tags, spec.cover, "area" not in tags))
        self.pieces = tuple(pieces)
        self._piece_index = {p.id: p.index for p in self.pieces}
        solid = [p for p in self.pieces if p.solid]
        self.terrain = trimesh.util.concatenate([p.mesh for p in solid])
        self.tri_piece = np.concatenate([np.full(len(p.mesh.faces), p.index, dtype=np.int64) for p in solid])
        self.rays = RayCaster(self.terrain, backend=backend)
        self.top_z = float(self.terrain.bounds[1][2]) + 1.0
        self.version = 0
        self._env_cache: dict[str, tuple] = {}
        self.models: dict[str, Hitbox] = {}
        for spec in scene.models:
            self.add_model(spec)

    @classmethod
    def from_path(cls, path: str, **kw) -> "World":
        from engine.scene import load_scene
        return cls(load_scene(path), **kw)

    # ------------------------------------------------------------------ pieces
    def piece(self, piece_id: str) -> Piece:
        return self.pieces[self._piece_index[piece_id]]

    def piece_of_triangles(self, tri: np.ndarray) -> list[str | None]:
        return [self.pieces[self.tri_piece[t]].id if t >= 0 else None for t in np.asarray(tri)]

    @cached_property
    def area_footprints(self) -> list[tuple[Piece, object]]:
        """(piece, shapely footprint) for every non-solid area piece."""
        return [(p, plan_footprint(p.mesh)) for p in self.pieces if not p.solid]

    # ------------------------------------------------------------------ models
    def model_ids(self) -> list[str]:
        return list(self.models)

    def hitbox(self, model_id: str) -> Hitbox:
        try:
            return self.models[model_id]
        except KeyError:
            raise KeyError(f"unknown model {model_id!r}") from None

    def add_model(self, spec: ModelSpec) -> Hitbox:
        x, y, z = spec.at
        radius = mm(spec.base_mm) / 2.0
        hb = Hitbox(spec.id, spec.side, float(x), float(y), 0.0, radius, mm(spec.height_mm),
                    float(spec.facing), frozenset(spec.states), dict(spec.stats), spec)
        if z is not None and "Flying" in hb.states:
            hb.z = float(z)          # a flying model stays where the scene puts it
        else:
            hb.z = self.stand_z(hb.x, hb.y, radius, near_z=z)
        self.models[spec.id] = hb
        self.version += 1
        return hb

    def remove_model(self, model_id: str) -> None:
        self.hitbox(model_id)
        del self.models[model_id]
        self.version += 1

    def move_model(self, model_id: str, x: float, y: float, z: float | None = None,
                   facing: float | None = None) -> Hitbox:
        """Place a model; with z None it stands on the surface under it (near its current level)."""
        hb = self.hitbox(model_id)
        hb.x, hb.y = float(x), float(y)
        hb.z = float(z) if z is not None else self.stand_z(hb.x, hb.y, hb.radius, near_z=hb.z + 0.75 * hb.full_height)
        if facing is not None:
            hb.facing = float(facing) % 360.0
        self.version += 1
        return hb

    def set_facing(self, model_id: str, facing: float) -> None:
        self.hitbox(model_id).facing = float(facing) % 360.0
        self.version += 1

    def set_states(self, model_id: str, states) -> None:
        self.hitbox(model_id).states = frozenset(states)
        self.version += 1

    def set_awareness_ag(self, model_id: str, ag: float | None) -> None:
        """The AG the model's Awareness uses (None: its profile's)."""
        self.hitbox(model_id).awareness_ag = None if ag is None else float(ag)
        self.version += 1

    def model_arrays(self, ids=None):
        """(ids, centers (m,3), radii (m,), heights (m,)) of the current hitboxes."""
        ids = list(self.models) if ids is None else list(ids)
        hbs = [self.models[i] for i in ids]
        centers = np.array([[h.x, h.y, h.z] for h in hbs], dtype=float).reshape(-1, 3)
        radii = np.array([h.radius for h in hbs], dtype=float)
        heights = np.array([h.height for h in hbs], dtype=float)
        return ids, centers, radii, heights

    # ---------------------------------------------------------------- surfaces
    def surface_height(self, xy, below=None) -> np.ndarray:
        """Highest upward surface at or below ``below`` (+ tolerance) under each point.

        xy : (n, 2); below : None, a number or (n,). Returns (n,) z; -inf off the table.
        """
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        n = len(xy)
        start = np.full(n, self.top_z) if below is None else \
            np.broadcast_to(np.asarray(below, dtype=float), (n,)) + LEVEL_TOLERANCE
        out = np.full(n, -np.inf)
        todo = np.arange(n)
        z = start.astype(float).copy()
        down = np.array([0.0, 0.0, -1.0])
        for _ in range(64):
            if len(todo) == 0:
                break
            origins = np.column_stack([xy[todo], z[todo]])
            dist, tri = self.rays.first_hit(origins, np.broadcast_to(down, origins.shape))
            hit = tri >= 0
            nz = np.where(hit, self.rays.normals[np.maximum(tri, 0), 2], 0.0)
            up = hit & (nz > 1e-6)
            hz = z[todo] - dist
            # the height on the hit triangle's plane in double precision (Embree's float32
            # distance leaves a model on the table at 5e-7, not 0)
            k = np.nonzero(up)[0]
            if len(k):
                t = tri[k]
                n3 = self.rays.normals[t]
                p0 = self.rays.triangles[t, 0]
                d = xy[todo[k]] - p0[:, :2]
                exact = p0[:, 2] - (n3[:, 0] * d[:, 0] + n3[:, 1] * d[:, 1]) / n3[:, 2]
                hz[k] = np.where(np.abs(exact - hz[k]) < 1e-3, exact, hz[k])
            out[todo[up]] = hz[up]
            # a downward face (inside a solid) or a vertical one: look further down
            again = hit & ~up
            z[todo[again]] = hz[again] - 1e-4
            todo = todo[again]
        return out

    def surfaces_at(self, x: float, y: float) -> np.ndarray:
        """Every upward surface z under (x, y), lowest first (the table's 0 included)."""
        found = []
        z = self.top_z
        for _ in range(64):
            h = self.surface_height([[x, y]], below=z - LEVEL_TOLERANCE - 1e-4)[0]
            if not np.isfinite(h):
                break
            found.append(h)
            z = h
        return np.array(sorted(found))

    def walkable_at(self, xy, below=None) -> tuple[np.ndarray, np.ndarray]:
        """(z (n,), walkable (n,) bool) of the highest surface at or below ``below``."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        z = self.surface_height(xy, below)
        origins = np.column_stack([xy, np.where(np.isfinite(z), z + 1e-3, 0.0)])
        _, tri = self.rays.first_hit(origins, np.broadcast_to([0.0, 0.0, -1.0], origins.shape), max_dist=0.01)
        nz = np.where(tri >= 0, self.rays.normals[np.maximum(tri, 0), 2], 0.0)
        return z, np.isfinite(z) & (nz >= WALKABLE_MIN_NZ)

    def footprint(self, x: float, y: float, radius: float, rings: int = 2, per_ring: int = 12) -> np.ndarray:
        """Sample points (k, 2) of a base: its centre and rings out to its edge."""
        pts = [[x, y]]
        for i in range(1, rings + 1):
            r = radius * i / rings
            k = per_ring * i
            a = np.arange(k) * (2 * math.pi / k)
            pts.extend(np.column_stack([x + r * np.cos(a), y + r * np.sin(a)]))
        return np.asarray(pts, dtype=float)

    def stand_z(self, x: float, y: float, radius: float, near_z: float | None = None) -> float:
        """Where a base of ``radius`` centred at (x, y) rests.

        With ``near_z`` None, on the highest surface under its centre (rulings
        "Standing on a surface": on a slope the slope rises under the uphill
        half of the base). Else on the surface under its centre at or below
        ``near_z``, or higher on a support under its footprint at or below
        ``near_z`` that is a level of its own (more than ``LEVEL_TOLERANCE``
        above the centre's: a base whose centre overhangs a step rests on the
        step; a base given the height of the uphill side of a slope rests
        there). A support within ``LEVEL_TOLERANCE`` above ``near_z`` counts
        when it is a level of its own (``near_z`` written just under a step's
        top), not when the slope it lies on explains its rise from the
        centre's surface: the tolerance finds a level, it never lifts a base
        off the slope its centre stands on (it used to, by up to 0.05").
        """
        zc = self.surface_height([[x, y]], below=near_z)[0]
        if not np.isfinite(zc):
            return 0.0
        if near_z is None or zc >= float(near_z) - LEVEL_TOLERANCE:
            return float(zc)                     # the centre rests at the given level
        ref = float(near_z)
        pts = self.footprint(x, y, radius)
        zs = self.surface_height(pts, below=ref)
        ok = np.isfinite(zs) & (zs > zc + LEVEL_TOLERANCE)         # another level than the centre's
        slack = ok & (zs > ref + 1e-9)
        if slack.any():
            # above near_z (within the tolerance): a level of its own (a step's top) counts,
            # a slope rising from the centre's surface does not (the base rests on that
            # slope at or below near_z already)
            k = np.nonzero(slack)[0]
            rise = self.slope_tan(pts[k], zs[k]) * np.hypot(pts[k, 0] - x, pts[k, 1] - y)
            slack[k[zs[k] - zc <= rise + 1e-6]] = False
        zs = zs[(ok & (zs <= ref + 1e-9)) | slack]
        return float(max(zc, np.max(zs, initial=zc)))

    def slope_tan(self, xy, z) -> np.ndarray:
        """(n,) tangent of the slope of the surface at height ``z`` (n,) under each point
        (0 level; inf where no surface is found just there)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        origins = np.column_stack([xy, np.asarray(z, dtype=float) + 1e-3])
        _, tri = self.rays.first_hit(origins, np.broadcast_to([0.0, 0.0, -1.0], origins.shape), max_dist=0.01)
        nz = np.where(tri >= 0, self.rays.normals[np.maximum(tri, 0), 2], 0.0)
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(nz > 1e-9, np.sqrt(np.maximum(0.0, 1.0 - nz * nz)) / np.maximum(nz, 1e-9), np.inf)

    # -------------------------------------------------------------------- rays
    def models_blocking(self, origins, ends, exclude=()) -> np.ndarray:
        """(n,) int: index into ``model_ids()`` of the first hitbox each segment enters, -1 if none."""
        origins = np.asarray(origins, dtype=float).reshape(-1, 3)
        ends = np.asarray(ends, dtype=float).reshape(-1, 3)
        ids, centers, radii, heights = self.model_arrays()
        out = np.full(len(origins), -1, dtype=np.int64)
        keep = [i for i, mid in enumerate(ids) if mid not in set(exclude)]
        if not keep or len(origins) == 0:
            return out
        keep = np.asarray(keep)
        chunk = max(1, 2_000_000 // len(keep))
        for s in range(0, len(origins), chunk):
            t = segments_hit_cylinders(origins[s:s + chunk], ends[s:s + chunk],
                                       centers[keep], radii[keep], heights[keep])
            j = np.argmin(t, axis=1)
            hit = np.isfinite(t[np.arange(len(t)), j])
            out[s:s + chunk] = np.where(hit, keep[j], -1)
        return out

    def pick(self, origin, direction) -> Pick:
        """The first thing a ray meets: a model, a terrain piece or the table."""
        origin = np.asarray(origin, dtype=float).reshape(3)
        direction = np.asarray(direction, dtype=float).reshape(3)
        direction = direction / (np.linalg.norm(direction) or 1.0)
        dist, tri = self.rays.first_hit(origin[None], direction[None])
        best = (float(dist[0]), "terrain", int(tri[0]))
        if self.models:
            far = min(best[0], 1e4)
            ids, centers, radii, heights = self.model_arrays()
            t = segments_hit_cylinders(origin[None], (origin + direction * far)[None], centers, radii, heights)[0]
            j = int(np.argmin(t))
            if np.isfinite(t[j]) and t[j] * far < best[0]:
                best = (float(t[j] * far), "model", ids[j])
        d, kind, what = best
        if not np.isfinite(d):
            return Pick(None, None, None, math.inf)
        point = tuple(float(v) for v in origin + direction * d)
        if kind == "model":
            return Pick("model", what, point, d)
        pid = self.pieces[self.tri_piece[what]].id
        return Pick("table" if pid == "table" else "terrain", pid, point, d)

    # --------------------------------------------------------------- measuring
    def distance(self, a: str, b: str) -> float:
        """Closest points of the two hitboxes, 3D, inches (0 when touching or overlapping)."""
        ha, hb = self.hitbox(a), self.hitbox(b)
        if a == b:
            return 0.0
        return float(cylinder_distance(ha.center, ha.radius, ha.height, hb.center, hb.radius, hb.height))

    def closest_points(self, a: str, b: str) -> tuple[np.ndarray, np.ndarray]:
        """A closest pair of points, one on each hitbox."""
        ha, hb = self.hitbox(a), self.hitbox(b)
        ca, cb = ha.center[:2], hb.center[:2]
        v = cb - ca
        dxy = float(np.linalg.norm(v))
        u = v / dxy if dxy > 1e-12 else np.array([1.0, 0.0])
        if dxy >= ha.radius + hb.radius:
            pa_xy, pb_xy = ca + u * ha.radius, cb - u * hb.radius
        else:  # discs overlap: a shared point on the centre line
            m = ca + u * (dxy + ha.radius - hb.radius) / 2.0
            pa_xy = pb_xy = m
        lo, hi = max(ha.z, hb.z), min(ha.top, hb.top)
        if lo <= hi:
            za = zb = (lo + hi) / 2.0
        elif ha.top < hb.z:
            za, zb = ha.top, hb.z
        else:
            za, zb = ha.z, hb.top
        return np.array([*pa_xy, za]), np.array([*pb_xy, zb])

    def height_difference(self, a: str, b: str) -> float:
        """b's base height minus a's (positive: b stands higher)."""
        return float(self.hitbox(b).z - self.hitbox(a).z)

    def base_contact(self, a: str, b: str) -> bool:
        return a == b or self.distance(a, b) <= CONTACT_TOLERANCE

    def awareness(self, a: str) -> float:
        return self.hitbox(a).awareness

    def in_awareness(self, a: str, b: str, extra: float = 0.0) -> bool:
        """b's hitbox is inside or touching the radius AG (+3 Acute Senses, + extra) around a's base edge."""
        return self.distance(a, b) <= self.awareness(a) + extra + CONTACT_TOLERANCE

    def in_reach(self, a: str, b: str, rch: float) -> bool:
        """b within RCH of a's hitbox; RCH 0 means base contact."""
        if rch <= 0:
            return self.base_contact(a, b)
        return self.distance(a, b) <= rch + CONTACT_TOLERANCE

    def environments(self, model_id: str) -> frozenset[str]:
        """Area tags (forest, dark, difficult, ...) of the areas its base touches or overlaps."""
        hb = self.hitbox(model_id)
        key = (hb.x, hb.y, hb.z, hb.radius)
        cached = self._env_cache.get(model_id)
        if cached is not None and cached[0] == key:
            return cached[1]
        result = self._environments_at(hb) if self.area_footprints else frozenset()
        self._env_cache[model_id] = (key, result)
        return result

    def areas_touched(self, model_id: str, path, tag: str) -> list[str]:
        """The ids of the areas tagged ``tag`` that the model's base touches or overlaps at some
        point of ``path`` ((x, y, z) points of a route, sampled as engine.motion samples it),
        within each area's heights, in the order first touched."""
        import shapely
        hb = self.hitbox(model_id)
        P = np.asarray(path, dtype=float).reshape(-1, 3)
        out = []
        for piece, poly in self.area_footprints:
            if tag not in piece.tags or not len(P):
                continue
            lo, hi = piece.bounds
            k = np.flatnonzero((P[:, 2] >= lo[2] - LEVEL_TOLERANCE) & (P[:, 2] <= hi[2] + LEVEL_TOLERANCE))
            if not len(k):
                continue
            d = shapely.distance(shapely.points(P[k, :2]), poly)
            hit = np.flatnonzero(d <= hb.radius + 1e-9)
            if len(hit):
                out.append((int(k[hit[0]]), piece.id))
        return [pid for _, pid in sorted(out)]

    def _environments_at(self, hb: Hitbox) -> frozenset[str]:
        from shapely.geometry import Point
        disc = Point(hb.x, hb.y).buffer(hb.radius, 32)
        tags: set[str] = set()
        for piece, poly in self.area_footprints:
            lo, hi = piece.bounds
            if lo[2] - LEVEL_TOLERANCE <= hb.z <= hi[2] + LEVEL_TOLERANCE and poly.intersects(disc):
                tags |= piece.tags & AREA_TAGS
        return frozenset(tags)
