"""Movement in 3D: path checks (walk, run, climb, jump, falls) and the reachable area.

All lengths in inches, z up. A model is a vertical cylinder (its hitbox)
standing on its base; its position is the base's bottom centre, the "same
point of the base" every movement distance is measured from.

The terrain is read as *columns*: a vertical ray cast down at (x, y) lists the
solid layers there, each ``[lo, hi]`` with the normal of its top face. A base
of radius R at (x, y) probes every column under it; the union of their layers
says where the base can rest (``stances``): on the top of a layer, with the
hitbox's height of free space above it. Ladder pieces are not solid for
movement (a model climbs them, it does not stand on them).

* :func:`check_path` -- a declared route for ``walk``, ``run``, ``climb`` or
  ``jump``: legality, cost, end, falls, the enemies' reach and awareness
  entry points. Exact along the route (samples every ``path_step`` plus
  bisection for contact and reach entries).
* :func:`reachable` -- every end position a Walk or Run can reach, on every
  level, with its cost: a Dijkstra over a multi-level grid (cells at
  ``resolution``, 8 or 16 neighbours). The static layers and the graph of
  their steps (edge arrays in canonical CSR order) are built once per (world,
  base radius, hitbox height, resolution, settings) and cached; a query only
  drops the steps the models block (found from the nodes near each enemy, not
  by a scan of every edge) and runs one Dijkstra bounded by the allowance.

Settings: ``engine/data/motion.yaml``; rulings: ``docs/rulings.md ("Movement")``.
"""
from __future__ import annotations

import functools
import math
import weakref
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, Sequence

import numpy as np
import yaml

from engine.errors import InputError, Problem
from engine.units import inches_over
from engine.world import cylinder_distance, plan_footprint

SETTINGS_FILE = Path(__file__).with_name("data") / "motion.yaml"
MODES = ("walk", "run", "climb", "jump")
_EPS = 1e-3
# Fall heights are judged to half the 0.01" the answers show (AG rolls per interval)
_FALL_TOL = 0.005
# States in which a model may react but not attack: no attack-of-opportunity point
_NO_ATTACK_STATES = frozenset({"Blinded", "Immobilized"})


# ----------------------------------------------------------------------------- settings
@lru_cache(maxsize=None)
def _default_settings() -> dict:
    with open(SETTINGS_FILE, encoding="utf-8") as fh:
        data = yaml.safe_load(fh)
    if not isinstance(data, dict):
        raise InputError(Problem(str(SETTINGS_FILE), None, "", "not a mapping of settings"))
    return data


def settings(overrides: dict | None = None) -> dict:
    """The movement settings: motion.yaml updated with ``overrides``.

    Unknown keys and values of the wrong type raise :class:`InputError`.
    """
    base = dict(_default_settings())
    if not overrides:
        return base
    problems = []
    for key, value in overrides.items():
        if key not in base:
            problems.append(Problem("<settings>", None, f"motion.{key}",
                                    f"unknown setting (known: {', '.join(sorted(base))})"))
            continue
        ref = base[key]
        if isinstance(ref, bool):
            ok = isinstance(value, bool)
        elif key == "jump_shape":
            ok = value in ("line", "arc")
        elif key == "grid_margin":
            ok = value == "auto" or (isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0)
        elif isinstance(ref, (int, float)) and key != "step_height":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0
        elif key == "step_height":
            ok = value == "hitbox" or (isinstance(value, (int, float)) and not isinstance(value, bool) and value >= 0)
        elif key == "drop_height":
            ok = value in ("step", "any") or (isinstance(value, (int, float)) and not isinstance(value, bool)
                                              and value >= 0)
        elif isinstance(ref, list):
            ok = isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value)
        else:
            ok = isinstance(value, type(ref))
        if not ok:
            problems.append(Problem("<settings>", None, f"motion.{key}", f"bad value {value!r} (default {ref!r})"))
        else:
            base[key] = list(value) if isinstance(value, tuple) else value
    if base.get("neighbours") not in (8, 16, 32):
        problems.append(Problem("<settings>", None, "motion.neighbours", "must be 8, 16 or 32"))
    if problems:
        raise InputError(problems)
    return base


# ----------------------------------------------------------------------------- results
class Fall(NamedTuple):
    """A vertical fall: ``height`` in inches, ``rolls`` AG rolls, ``onto`` the piece landed on."""
    height: float
    rolls: int
    onto: str | None
    at: tuple[float, float, float]


class PathPoint(NamedTuple):
    """Where a route enters an enemy's reach or awareness (a tuple ``(enemy, at)``)."""
    enemy: str
    at: tuple[float, float, float]


@dataclass
class MoveResult:
    """The verdict on a declared move."""
    model: str
    mode: str
    legal: bool
    reason: str
    distance: float                      # cost used, inches of allowance
    allowance: float
    left: float
    end: tuple[float, float, float]
    surfaces: list[str] = field(default_factory=list)      # pieces stood on / crossed, in order
    falls: list[Fall] = field(default_factory=list)
    ends_on_vertical: bool = False
    stopped_by: str | None = None
    opportunity_points: list[PathPoint] = field(default_factory=list)
    awareness_points: list[PathPoint] = field(default_factory=list)
    path: list[tuple[float, float, float]] = field(default_factory=list)
    # (not a field: the brief's fields stay as they are) ``dangerous``: the ids of the
    # Dangerous areas the base touched along the route, in order (set by ``check_path``)
    dangerous = ()
    # (not a field) ``via``: the waypoints a Climb refused straight on was routed through
    # to a face elsewhere (``--via`` them for the same verdict); () when taken as declared
    via = ()
    # (not a field: the brief's fields stay as they are) ``legs``: the route in the parts a
    # player measures (Walk, Run, Climb): across at one rate, up or down a climb or a
    # ladder; each {"kind", "length", "cost"} (inches; cost in allowance). Set by the
    # path check (worked out when first read: most checks are never printed); () where it
    # is not told in parts (a Jump, a flight, a refusal at the start)
    _legs_of = None

    @property
    def legs(self):
        if self._legs_of is None:
            return ()
        if not isinstance(self._legs_of, list):
            self._legs_of = _legs(*self._legs_of)
        return self._legs_of

    def to_dict(self) -> dict:
        r = lambda v: round(float(v), 4) + 0.0  # noqa: E731 (+ 0.0: never "-0.0")
        out = {
            "model": self.model, "mode": self.mode, "legal": bool(self.legal), "reason": self.reason,
            "distance": r(self.distance), "allowance": r(self.allowance), "left": r(self.left),
            "end": [r(v) for v in self.end], "surfaces": list(self.surfaces),
            "falls": [{"height": r(f.height), "rolls": int(f.rolls), "onto": f.onto,
                       "at": [r(v) for v in f.at]} for f in self.falls],
            "ends_on_vertical": bool(self.ends_on_vertical), "stopped_by": self.stopped_by,
            "opportunity_points": [{"enemy": p.enemy, "at": [r(v) for v in p.at]} for p in self.opportunity_points],
            "awareness_points": [{"enemy": p.enemy, "at": [r(v) for v in p.at]} for p in self.awareness_points],
            "path": [[r(v) for v in p] for p in self.path],
            "dangerous": list(self.dangerous),
            "legs": [{"kind": g["kind"], "length": r(g["length"]), "cost": r(g["cost"])} for g in (self.legs or ())],
        }
        if self.via:
            out["via"] = [[r(v) for v in p] for p in self.via]
        return out


# ----------------------------------------------------------------------------- helpers
# Distance between vertical cylinders (bottom centres c (..., 3), radius r,
# height h); broadcasts. The World's own measure, kept under motion's name.
hitbox_distance = cylinder_distance


def _overlap(c1, r1, h1, c2, r2, h2, tol=_EPS) -> np.ndarray:
    """Hitboxes interpenetrate (more than touching)."""
    c1 = np.asarray(c1, dtype=float)
    c2 = np.asarray(c2, dtype=float)
    dxy = np.linalg.norm(c1[..., :2] - c2[..., :2], axis=-1)
    z1, z2 = c1[..., 2], c2[..., 2]
    vert = np.minimum(z1 + h1, z2 + h2) - np.maximum(z1, z2)
    return (dxy < r1 + r2 - tol) & (vert > tol)


def half(value: float, round_up: bool = True) -> float:
    """Half a value; rounded up to a whole number when ``round_up`` (p.17)."""
    return float(math.ceil(value / 2.0 - 1e-9)) if round_up else value / 2.0


def fall_rolls(height: float, spd: float, round_up: bool = True) -> int:
    """AG rolls for a fall: one per whole interval of half SPD, only above half SPD.

    SPD 6: 3" -> 0, 5" -> 1, 6" -> 2 (the book's example).
    """
    step = half(spd, round_up)
    # heights within _FALL_TOL of a whole interval count as that interval: a fall
    # found by sampling (a jump stopped against the face it hangs on rises 0.003"
    # before its probes touch it) is shown as 3.00" and is 3"
    if step <= 0 or height <= step + _FALL_TOL:
        return 0
    return int(math.floor((height + _FALL_TOL) / step))


def melee_reach(hb) -> float:
    """The longest RCH among a model's melee weapons; 0 (Unarmed: base contact) without one."""
    spec = getattr(hb, "spec", None)
    prof = getattr(spec, "profile", None)
    weapons = tuple(getattr(spec, "weapons", ()) or ()) + tuple(getattr(prof, "weapons", ()) or ())
    best = 0.0
    for w in weapons:
        if getattr(w, "kind", "") == "melee":
            best = max(best, float(getattr(w, "rch", 0.0) or 0.0))
    return best


def _skills(hb) -> frozenset[str]:
    prof = getattr(getattr(hb, "spec", None), "profile", None)
    if prof is None:
        return frozenset()
    return frozenset(getattr(prof, "skills", ()) or ()) | frozenset(getattr(prof, "traits", ()) or ())


def _spd(hb, file: str | None = None) -> float:
    stats = getattr(hb, "stats", None) or {}
    if "SPD" not in stats:
        # named where the scene writes the model (a model given by size alone has no SPD)
        spec = getattr(hb, "spec", None)
        idx = getattr(spec, "index", -1)
        key = f"models[{idx}]" if isinstance(idx, int) and idx >= 0 else f"models.{hb.id}"
        line = (getattr(spec, "key_lines", None) or {}).get("stats") or getattr(spec, "line", 0) or None
        raise InputError(Problem(file or "<move>", line, f"{key}.stats.SPD",
                                 f"model '{hb.id}' has no SPD (give it a profile or an SPD in its stats, "
                                 "or the effective SPD with --speed)"))
    return float(stats["SPD"])


def effective_spd(hb, st: dict, speed: float | None = None, file: str | None = None) -> float:
    """SPD after the states: halving states (Slowed, Crippled, Crouched), Flying doubles.

    ``speed`` given: that is the effective SPD already (states applied by the caller).
    ``file``: the scene file a missing SPD is reported in.
    """
    if speed is not None:
        return float(speed)
    spd = _spd(hb, file)
    states = set(getattr(hb, "states", ()) or ())
    halvings = len(states & set(st["halving_states"]))
    if halvings and not st["halvings_stack"]:
        halvings = 1
    for _ in range(halvings):
        spd = half(spd, st["round_halves_up"])
    if states & set(st["doubling_states"]):
        spd *= 2.0
    return spd


def allowance_for(mode: str, spd: float, st: dict) -> float:
    if mode == "walk":
        return spd
    if mode == "run":
        return 2.0 * spd
    if mode == "climb":
        return half(spd, True)
    if mode == "jump":
        return half(spd, st["jump_round_up"])
    raise InputError(Problem("<move>", None, "mode", f"unknown movement {mode!r} (walk, run, climb, jump)"))


def _step_height(h: float, st: dict) -> float:
    v = st["step_height"]
    return float(h) if v == "hitbox" else float(v)


def _drop_height(step: float, st: dict) -> float:
    """The deepest drop a Walk or Run steps down (``drop_height``): never less than ``step``."""
    v = st.get("drop_height", "step")
    return step if v == "step" else math.inf if v == "any" else max(step, float(v))


# A game's crawl (Legends of Norova, seed "Crawling": "move while staying low to the
# ground"): the game gives the model this state with Crouched while it judges the
# crawl. The Crouched hitbox (the base's height) is the room the model needs under
# scenery, but it steps up as its standing hitbox would (``step_height: hitbox``: the
# full height); the game's own step limit applies on top. Eldfall has no such state.
CRAWLING_STATE = "Crawling"


def step_height_of(world, model: str, given: dict | None = None) -> float:
    """The highest rise ``model`` steps up at once as it stands now (``step_height`` of the
    ``given`` settings; ``hitbox``: its hitbox's height, the standing one while it crawls)."""
    hb = world.hitbox(model)
    return _step_height(float(hb.height), _posture_settings(hb, settings(given)))


def _posture_settings(hb, st: dict) -> dict:
    """The settings a query of model ``hb`` runs with: a crawling model's step height
    is its standing hitbox's (``CRAWLING_STATE``)."""
    if st["step_height"] != "hitbox" or CRAWLING_STATE not in (getattr(hb, "states", ()) or ()):
        return st
    return {**st, "step_height": float(hb.full_height)}


def _disc_pattern(radius: float, spacing: float) -> np.ndarray:
    """Probe offsets (k, 2) covering a disc: a square grid inside and a ring at the edge."""
    r = max(radius - 2 * _EPS, 0.0)
    n = int(math.ceil(r / spacing))
    g = np.arange(-n, n + 1) * spacing
    gx, gy = np.meshgrid(g, g)
    pts = np.column_stack([gx.ravel(), gy.ravel()])
    pts = pts[np.hypot(pts[:, 0], pts[:, 1]) <= r - 0.25 * spacing]
    k = max(8, int(math.ceil(2 * math.pi * r / (0.5 * spacing))))
    a = np.arange(k) * (2 * math.pi / k)
    ring = np.column_stack([r * np.cos(a), r * np.sin(a)])
    return np.vstack([pts, ring])


# ----------------------------------------------------------------------------- terrain columns
# cells of the bare-table raster (1/32") kept as an array: up to 256" x 256" (64 MB); a
# larger table is read from the pieces' boxes instead (the same answer, slower per probe)
_BARE_RASTER_MAX = 8192 * 8192


class Columns:
    """The solid layers of the static terrain under any (x, y), for movement.

    ``probe(xy)`` casts one vertical ray per point (batched, repeated down
    through every layer) and returns arrays (n, K) top-down: ``lo``, ``hi``
    (-inf where no layer), the top face's normal ``nrm`` (n, K, 3) and the
    piece index ``piece`` (-1). Ladder pieces are skipped.
    """

    def __init__(self, world, st: dict):
        self.world = world
        self.K = int(st["max_layers"])
        self.min_nz = math.cos(math.radians(float(st["max_slope_deg"])))
        ladder_tags = set(st["ladder_tags"])
        skip_piece = np.array([bool(set(p.tags) & ladder_tags) for p in world.pieces], dtype=bool)
        self.tri_piece = np.asarray(world.tri_piece)
        self.skip_tri = skip_piece[self.tri_piece]
        self.normals = np.asarray(world.rays.normals)
        self.top = float(world.top_z)
        # a raster of the table (cells of 1/32"): True where a cell lies clear of
        # every piece's xy box (the table itself is piece 0): a column there meets
        # the table top alone
        self.cell = 1.0 / 32.0
        W, D = (float(v) for v in world.table)
        nx, ny = max(1, int(math.ceil(W / self.cell))), max(1, int(math.ceil(D / self.cell)))
        boxes = []
        for p in world.pieces[1:]:
            if not len(p.mesh.faces):
                continue
            (x0, y0), (x1, y1) = np.asarray(p.mesh.bounds, dtype=float)[:, :2]
            i0, j0 = int(math.floor(x0 / self.cell)) - 1, int(math.floor(y0 / self.cell)) - 1
            i1, j1 = int(math.floor(x1 / self.cell)) + 1, int(math.floor(y1 / self.cell)) + 1
            boxes.append((i0, j0, i1, j1))
        self.bare_shape = (ny, nx)
        # the pieces' boxes in cells (a table too large for the raster is read from them:
        # the same cells)
        self.bare_boxes = np.array(boxes, dtype=np.int64).reshape(-1, 4)
        self.bare_cells = None
        if nx * ny <= _BARE_RASTER_MAX:
            bare = np.ones((ny, nx), dtype=bool)
            bare[0, :] = bare[-1, :] = False          # the table's edges: leave them to the rays
            bare[:, 0] = bare[:, -1] = False
            for i0, j0, i1, j1 in boxes:
                bare[max(j0, 0):max(j1 + 1, 0), max(i0, 0):max(i1 + 1, 0)] = False
            self.bare_cells = bare
        self._coincident_faces()

    def _coincident_faces(self):
        """Flat faces of two pieces at one height that meet in plan (a piece resting
        on another, or on the table; two tops side by side): Embree returns only one
        of the faces a ray meets at one distance, so a hit on one of these is resolved
        against all of them (``_coincident``). ``coinc`` (triangles,) marks them."""
        import shapely
        T = np.asarray(self.world.rays.triangles)
        nz = self.normals[:, 2]
        flat = ~self.skip_tri & (np.ptp(T[:, :, 2], axis=1) <= 1e-6) & (np.abs(nz) > 0.5)
        zr = np.round(T[:, :, 2].mean(axis=1), 5)
        self.coinc = np.zeros(len(T), dtype=bool)
        self._ctree = None
        if not flat.any():
            return
        for zl in np.unique(zr[flat]):
            g = np.nonzero(flat & (zr == zl))[0]
            if len(np.unique(self.tri_piece[g])) < 2:
                continue
            # pairs of two pieces' triangles whose boxes in plan meet, then exactly
            if len(g) <= 1500:
                lo_, hi_ = T[g, :, :2].min(axis=1), T[g, :, :2].max(axis=1)
                i, j = np.nonzero(np.all((lo_[:, None] <= hi_[None, :]) & (lo_[None, :] <= hi_[:, None]), axis=2))
            else:
                polys = shapely.polygons(T[g, :, :2])
                i, j = shapely.STRtree(polys).query(polys)
            k = self.tri_piece[g[i]] < self.tri_piece[g[j]]
            i, j = i[k], j[k]
            if len(i):
                meet = shapely.intersects(shapely.polygons(T[g[i], :, :2]), shapely.polygons(T[g[j], :, :2]))
                self.coinc[g[i[meet]]] = self.coinc[g[j[meet]]] = True
        c = np.nonzero(self.coinc)[0]
        if len(c):
            self._ctri = c
            self._cz = zr[c]
            self._ctree = shapely.STRtree(shapely.polygons(T[c, :, :2]))

    def _coincident(self, xy, hz, tri):
        """For hits at (xy, hz) (m,) on coincident faces ``tri``: the number of pieces
        whose flat face at hz holds the point, facing up (entered) and facing down
        (left), and an up face among them (-1: none): (u, d, up_tri), (m,) each."""
        import shapely
        m = len(xy)
        i, j = self._ctree.query(shapely.points(xy), predicate="intersects")
        keep = np.abs(self._cz[j] - hz[i]) <= 2e-5
        i, t = np.concatenate([np.arange(m), i[keep]]), np.concatenate([tri, self._ctri[j[keep]]])
        up = self.normals[t, 2] > 0
        key = np.unique((i * (len(self.world.pieces) + 1) + self.tri_piece[t]) * 2 + up)
        row, is_up = key // 2 // (len(self.world.pieces) + 1), (key % 2).astype(bool)
        u = np.bincount(row[is_up], minlength=m)
        d = np.bincount(row[~is_up], minlength=m)
        up_tri = np.full(m, -1, dtype=np.int64)
        up_tri[i[up]] = t[up]
        return u, d, up_tri

    def _bare(self, xy: np.ndarray) -> np.ndarray:
        """(n,) bool: the column at xy is on the table, in a cell clear of every piece."""
        ij = np.floor(xy / self.cell)
        ny, nx = self.bare_shape
        ok = (ij[:, 0] >= 0) & (ij[:, 0] < nx) & (ij[:, 1] >= 0) & (ij[:, 1] < ny)
        out = np.zeros(len(xy), dtype=bool)
        k = np.nonzero(ok)[0]
        if self.bare_cells is not None:
            out[k] = self.bare_cells[ij[k, 1].astype(np.int64), ij[k, 0].astype(np.int64)]
            return out
        # (a table too large for the raster: the same cells from the pieces' boxes)
        i, j = ij[k, 0].astype(np.int64), ij[k, 1].astype(np.int64)
        b = (i > 0) & (i < nx - 1) & (j > 0) & (j < ny - 1)
        for i0, j0, i1, j1 in self.bare_boxes:
            b &= ~((i >= i0) & (i <= i1) & (j >= j0) & (j <= j1))
        out[k] = b
        return out

    def probe(self, xy: np.ndarray):
        """The layers under each point (see the class). Columns on bare table
        (outside every piece's box) all meet the same table top and bottom: one
        of them is cast and its layers are copied to the others."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        bare = self._bare(xy)
        if bare.sum() > 1:
            idx = np.nonzero(bare)[0]
            cast = np.concatenate([[idx[0]], np.nonzero(~bare)[0]])
            lo_c, hi_c, nrm_c, piece_c = self._probe(xy[cast])
            lo = np.empty((len(xy),) + lo_c.shape[1:])
            hi = np.empty_like(lo)
            nrm = np.empty((len(xy),) + nrm_c.shape[1:])
            piece = np.empty((len(xy),) + piece_c.shape[1:], dtype=piece_c.dtype)
            for out, got in ((lo, lo_c), (hi, hi_c), (nrm, nrm_c), (piece, piece_c)):
                out[cast] = got
                out[idx] = got[0]
            return lo, hi, nrm, piece
        return self._probe(xy)

    def _probe(self, xy: np.ndarray):
        n, K = len(xy), self.K
        lo = np.full((n, K), -np.inf)
        hi = np.full((n, K), -np.inf)
        nrm = np.zeros((n, K, 3))
        nrm[..., 2] = 1.0
        piece = np.full((n, K), -1, dtype=np.int64)
        depth = np.zeros(n, dtype=np.int64)
        count = np.zeros(n, dtype=np.int64)
        z = np.full(n, self.top)
        todo = np.arange(n)
        down = np.array([0.0, 0.0, -1.0])
        for _ in range(6 * K + 16):
            if len(todo) == 0:
                break
            origins = np.column_stack([xy[todo], z[todo]])
            dist, tri = self.world.rays.first_hit(origins, np.broadcast_to(down, origins.shape))
            hit = tri >= 0
            gone = todo[~hit]
            count[gone] += (depth[gone] > 0)       # an open layer runs down to -inf
            depth[gone] = 0
            todo, tri, dist = todo[hit], tri[hit], dist[hit]
            hz = z[todo] - dist
            # Embree works in float32: snap to 1e-5" so flat tops read as their exact heights
            hz_r = np.round(hz, 5)
            nz = self.normals[tri, 2]
            skip = self.skip_tri[tri] | (np.abs(nz) <= 1e-6)
            enter = ~skip & (nz > 0)
            leave = ~skip & (nz < 0)
            # u pieces entered and d left at the hit: one face, or every face of the
            # pieces meeting there (the top of one against the bottom of the other)
            u, d = enter.astype(np.int64), leave.astype(np.int64)
            up_tri = np.where(enter, tri, -1)
            c = np.nonzero(self.coinc[tri])[0]
            if len(c):
                u[c], d[c], up_tri[c] = self._coincident(xy[todo[c]], hz_r[c], tri[c])
            # leaving the last solid closes its layer; then entering a solid from free
            # space opens one
            D = depth[todo]
            after = np.maximum(D - d, 0)
            k = np.nonzero((d > 0) & (D > 0) & (after == 0))[0]
            rc, slot = todo[k], count[todo[k]]
            ok = slot < K
            lo[rc[ok], slot[ok]] = hz_r[k[ok]]
            count[rc] += 1
            k = np.nonzero((u > 0) & (after == 0))[0]
            ro, slot = todo[k], count[todo[k]]
            ok = slot < K
            e_idx, ro, slot = k[ok], ro[ok], slot[ok]
            hi[ro, slot] = hz_r[e_idx]
            nrm[ro, slot] = self.normals[up_tri[e_idx]]
            piece[ro, slot] = self.tri_piece[up_tri[e_idx]]
            depth[todo] = after + u
            z[todo] = hz - 1e-4
            full = count[todo] >= K
            todo = todo[~full]
        return lo, hi, nrm, piece


def _stances(lo, hi, std, h, kmax, same=None):
    """Where a base can rest, from the layers under it.

    lo, hi, std : (N, J) layers of every probe column under each base (std:
    its top is standable). A stance is the top of a merged group of layers
    with at least ``h`` of free space above it. Returns (N, kmax) z ascending,
    NaN-padded. ``same`` (N,) bool: rows known to hold the same layers (bases
    on bare table): one of them is worked out and copied to the others.
    """
    if same is not None and same.sum() > 1:
        rows = np.nonzero(same)[0]
        work = np.concatenate([rows[:1], np.nonzero(~same)[0]])
        got = _stances(lo[work], hi[work], std[work], h, kmax)
        out = np.empty((len(lo), got.shape[1]))
        out[work] = got
        out[rows] = got[0]
        return out
    order = np.argsort(lo, axis=1, kind="stable")
    lo_s = np.take_along_axis(lo, order, 1)
    hi_s = np.take_along_axis(hi, order, 1)
    st_s = np.take_along_axis(std, order, 1)
    cm = np.maximum.accumulate(hi_s, axis=1)
    cm_std = np.maximum.accumulate(np.where(st_s, hi_s, -np.inf), axis=1)
    nxt = np.concatenate([lo_s[:, 1:], np.full((len(lo_s), 1), np.inf)], axis=1)
    end = nxt > cm + _EPS
    with np.errstate(invalid="ignore"):
        ok = end & np.isfinite(cm) & (nxt - cm >= h - _EPS) & (cm_std >= cm - 1e-6)
    tops = np.where(ok, cm, np.nan)
    tops.sort(axis=1)
    out = tops[:, :kmax]
    if out.shape[1] < kmax:
        out = np.concatenate([out, np.full((len(out), kmax - out.shape[1]), np.nan)], axis=1)
    return out


def _free(lo, hi, a, b):
    """(N,) bool: no layer of the (N, J) columns meets the open span (a, b) (a, b: (N,))."""
    a = np.asarray(a, dtype=float)[:, None]
    b = np.asarray(b, dtype=float)[:, None]
    return ~np.any((lo < b - _EPS) & (hi > a + _EPS), axis=1)


# ----------------------------------------------------------------------------- areas and ladders
@dataclass
class _Region:
    piece: str
    index: int
    tags: frozenset
    poly: object
    zlo: float
    zhi: float


def _regions(world, st):
    """(areas, ladders): footprints of area pieces and of ladder pieces."""
    areas, ladders = [], []
    ladder_tags = set(st["ladder_tags"])
    for p in world.pieces:
        tags = frozenset(p.tags)
        lo, hi = np.asarray(p.mesh.bounds)
        poly = plan_footprint(p.mesh)
        reg = _Region(p.id, p.index, tags, poly, float(lo[2]), float(hi[2]))
        if not p.solid:
            areas.append(reg)
        elif tags & ladder_tags:
            ladders.append(reg)
    return areas, ladders


def _poly_distance(poly, xy):
    import shapely
    pts = shapely.points(np.asarray(xy, dtype=float).reshape(-1, 2))
    return np.asarray(shapely.distance(poly, pts), dtype=float)


_BUFFERS: dict = {}


def _within(poly, xy, dist):
    """(n,) bool: the points xy (n, 2) lie within ``dist`` of the polygon.

    A prepared buffer of the polygon (64 segments a quarter circle; at most
    0.0001" short of the true distance) tested with one vectorised call.
    """
    import shapely
    key = (id(poly), round(float(dist), 6))
    hit = _BUFFERS.get(key)
    if hit is None or hit[0] is not poly:
        buf = poly.buffer(float(dist), quad_segs=64) if dist > 0 else poly
        shapely.prepare(buf)
        if len(_BUFFERS) > 512:
            _BUFFERS.clear()
        _BUFFERS[key] = hit = (poly, buf)
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    return np.asarray(shapely.intersects_xy(hit[1], xy[:, 0], xy[:, 1]), dtype=bool)


def _area_factor(areas, xy, z, radius, st, tags=None):
    """(n,) cost factor of the areas a base at xy (n,2), z (n,) touches; and the area ids per point."""
    n = len(xy)
    fac = np.ones(n)
    slow = set(st["half_speed_areas"]) if tags is None else set(tags)
    touched = []
    for a in areas:
        if not (a.tags & slow):
            continue
        inside = _within(a.poly, xy, radius + _EPS) & (z >= a.zlo - 0.05) & (z <= a.zhi + 0.05)
        if inside.any():
            touched.append((a, inside))
            fac = np.where(inside, float(st["area_cost"]), fac)
    return fac, touched


def _combine(*factors, stack=False):
    out = np.ones_like(np.asarray(factors[0], dtype=float))
    for f in factors:
        out = out * f if stack else np.maximum(out, f)
    return out


# ----------------------------------------------------------------------------- the context of a query
class _Ctx:
    def __init__(self, world, model, st):
        self.world = world
        self.hb = world.hitbox(model)
        self.st = st = _posture_settings(self.hb, st)
        self.R = float(self.hb.radius)
        self.h = float(self.hb.height)
        self.step = _step_height(self.h, st)
        self.drop = _drop_height(self.step, st)
        self.cols = _columns(world, st)
        self.areas, self.ladders = _regions_cached(world, st)
        self.pattern = _disc_pattern(self.R, float(st["disc_step"]))
        ids, centers, radii, heights = world.model_arrays()
        keep = [i for i, mid in enumerate(ids) if mid != model]
        self.ids = [ids[i] for i in keep]
        self.centers = centers[keep].reshape(-1, 3)
        self.radii = radii[keep]
        self.heights = heights[keep]
        hbs = [world.hitbox(i) for i in self.ids]
        side = self.hb.side
        dead = np.array([bool({"Dead"} & set(h.states)) for h in hbs], dtype=bool)
        self.enemy = np.array([h.side != side for h in hbs], dtype=bool) & ~dead
        self.dead = dead
        self.hbs = hbs
        self.reactive = np.array([not ({"Dead", "Incapacitated", "Petrified"} & set(h.states)) for h in hbs],
                                 dtype=bool)
        # a reactor that can react but not attack (Reactions, "Restrictions by State":
        # Blinded: Assist, Dodge, Nothing; Immobilized: Dodge, Nothing) has no attack of
        # opportunity; its Awareness still counts (Dodge)
        self.attacks = self.reactive & np.array([not (_NO_ATTACK_STATES & set(h.states)) for h in hbs],
                                                dtype=bool)
        self.reach = np.array([melee_reach(h) for h in hbs], dtype=float)
        self.aware = np.array([float(getattr(h, "awareness", 0.0)) for h in hbs], dtype=float)

    def layers(self, xy):
        """Probe the disc at each point of xy (n,2): (lo, hi, std, nrm, piece) with shape (n, J)."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        pts = (xy[:, None, :] + self.pattern[None, :, :]).reshape(-1, 2)
        lo, hi, nrm, piece = self.cols.probe(pts)
        n, m, K = len(xy), len(self.pattern), self.cols.K
        # bases whose every probe column is on bare table: identical layers
        self.bare_rows = self.cols._bare(pts).reshape(n, m).all(axis=1)
        std = nrm[..., 2] >= self.cols.min_nz - 1e-9
        return (lo.reshape(n, m * K), hi.reshape(n, m * K), std.reshape(n, m * K),
                nrm.reshape(n, m * K, 3), piece.reshape(n, m * K))

    def support(self, hi, nrm, piece, z):
        """Normal (n,3) and piece index (n,) of the layer top each base rests on at z (n,)."""
        match = np.abs(hi - np.asarray(z)[:, None]) <= 1e-3
        j = np.argmax(match, axis=1)
        rows = np.arange(len(hi))
        has = match[rows, j]
        n3 = np.where(has[:, None], nrm[rows, j], np.array([0.0, 0.0, 1.0]))
        pc = np.where(has, piece[rows, j], -1)
        return n3, pc

    def ladder_at(self, xy, z_a, z_b):
        """(n,) index into self.ladders of a ladder touching the base and spanning z_a..z_b, -1 none."""
        xy = np.asarray(xy, dtype=float).reshape(-1, 2)
        out = np.full(len(xy), -1)
        tol = float(self.st["ladder_tolerance"])
        lo_z, hi_z = np.minimum(z_a, z_b), np.maximum(z_a, z_b)
        for k, lad in enumerate(self.ladders):
            ok = _within(lad.poly, xy, self.R + float(self.st["ladder_reach"])) \
                & (lo_z >= lad.zlo - tol) & (hi_z <= lad.zhi + tol)
            out = np.where((out < 0) & ok, k, out)
        return out


_CACHE: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _world_cache(world) -> dict:
    try:
        return _CACHE.setdefault(world, {})
    except TypeError:  # pragma: no cover - not weak-referenceable
        return {}


def _st_key(st: dict):
    return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in st.items()))


def _columns(world, st) -> Columns:
    c = _world_cache(world)
    key = ("columns", st["max_layers"], st["max_slope_deg"], tuple(st["ladder_tags"]))
    if key not in c:
        c[key] = Columns(world, st)
    return c[key]


def _regions_cached(world, st):
    c = _world_cache(world)
    key = ("regions", tuple(st["ladder_tags"]))
    if key not in c:
        c[key] = _regions(world, st)
    return c[key]


# ----------------------------------------------------------------------------- routes
class _Route:
    """A 3D polyline with the cost of each segment, parameterised by length."""

    def __init__(self, pts, costs, kinds, support):
        self.pts = np.asarray(pts, dtype=float).reshape(-1, 3)
        self.costs = np.asarray(costs, dtype=float)
        self.kinds = list(kinds)          # per segment: "move" | "ladder" | "climb" | "under" | "jump"
        self.support = list(support)      # per point: piece index or -1
        seg = np.linalg.norm(np.diff(self.pts, axis=0), axis=1) if len(self.pts) > 1 else np.zeros(0)
        self.s = np.concatenate([[0.0], np.cumsum(seg)])
        self.c = np.concatenate([[0.0], np.cumsum(self.costs)])

    @property
    def length(self):
        return float(self.s[-1])

    def at(self, s):
        """Point(s) at length s along the route."""
        s = np.clip(np.asarray(s, dtype=float), 0.0, self.length)
        return np.stack([np.interp(s, self.s, self.pts[:, k]) for k in range(3)], axis=-1)

    def cost_at(self, s):
        return np.interp(np.clip(s, 0.0, self.length), self.s, self.c)

    def s_of_cost(self, cost):
        """The length at which the cumulative cost reaches ``cost`` (the route's end if never)."""
        if cost >= self.c[-1]:
            return self.length
        i = int(np.searchsorted(self.c, cost, side="right"))
        c0, c1 = self.c[i - 1], self.c[i]
        f = 0.0 if c1 <= c0 else (cost - c0) / (c1 - c0)
        return float(self.s[i - 1] + f * (self.s[i] - self.s[i - 1]))

    def dense(self, step, s_max: float = math.inf):
        """(s (k,), points (k,3)): samples every ``step`` and at every vertex, up to ``s_max``."""
        lo, hi = self.s[:-1], np.minimum(self.s[1:], s_max)
        ss = [self.s[self.s <= s_max]]
        for i in np.nonzero(hi - lo > step)[0]:          # only the long segments need filling
            ss.append(np.arange(lo[i] + step, hi[i], step))
        s = np.unique(np.concatenate(ss))
        return s, self.at(s)

    def vertical_at(self, s):
        """True when length s lies inside a vertical (ladder/climb) segment, not at its ends."""
        i = int(np.searchsorted(self.s, s, side="right")) - 1
        if i < 0 or i >= len(self.kinds):
            return False
        if self.kinds[i] not in ("ladder", "climb", "under"):
            return False
        return self.s[i] + 1e-6 < s < self.s[i + 1] - 1e-6


def _bisect(fn, a, b, tol):
    """Smallest s in (a, b] where fn(s) is True, given fn(a) False and fn(b) True."""
    while b - a > tol:
        m = 0.5 * (a + b)
        if fn(m):
            b = m
        else:
            a = m
    return b


def _first_entries(route, dist_fn, limit, s_max, tol, step):
    """Lengths where dist_fn(points) (k,) goes from > limit to <= limit, up to s_max."""
    s, pts = route.dense(step, s_max)
    keep = s < s_max - 1e-12
    s = np.concatenate([s[keep], [min(s_max, route.length)]])
    pts = route.at(s)
    if len(s) == 0:
        return []
    inside = dist_fn(pts) <= limit
    out = []
    for i in np.nonzero(inside[1:] & ~inside[:-1])[0] + 1:
        fn = lambda q: bool(dist_fn(route.at(np.array([q])))[0] <= limit)  # noqa: E731
        out.append(_bisect(fn, float(s[i - 1]), float(s[i]), tol))
    return out


def _distance_to(R, h, c, r, hc):
    """points (n, 3) -> (n,) distance from a base (R, h) there to the hitbox (c, r, hc)."""
    return lambda P: hitbox_distance(P, R, h, c, r, hc)


def _enemy_contact(route, R, h, c, r, hc, s_max, ctol, tol, step) -> float | None:
    """Where a route of a base (radius R, height h) comes into base contact with an enemy's
    hitbox (centre c, radius r, height hc), up to s_max; None if it never does (models move
    through allies, not through enemies).

    A model already in contact at the start may move away, or slide along the enemy's
    base, but not into it: its route stops where it would push into the base (half the
    contact tolerance deeper than it started) or where it comes back after leaving it.
    """
    def gap(P):      # the distance between the hitboxes; negative: the bases overlap by that much
        d = hitbox_distance(P, R, h, c, r, hc)
        if (d > 0).all():
            return d
        dxy = np.hypot(P[:, 0] - c[0], P[:, 1] - c[1]) - (R + r)
        return np.where(d > 0, d, np.minimum(dxy, 0.0))
    g0 = float(gap(route.pts[:1])[0])
    if g0 > ctol:
        return min(_first_entries(route, _distance_to(R, h, c, r, hc), 1e-6, s_max, tol, step), default=None)
    hits = _first_entries(route, gap, 1e-6, s_max, tol, step)
    hits += _first_entries(route, gap, min(g0, 0.0) - ctol / 2, s_max, tol, step)
    return min(hits) if hits else None


def _climbs(ctx) -> bool:
    return bool(_skills(ctx.hb) & set(ctx.st["climbing_skills"]))


def _unscalable_pieces(world, st) -> frozenset:
    """Indices of the solid pieces tagged unscalable (their faces and tops are reached only
    with the Climbing skill); kept per world."""
    c = _world_cache(world)
    key = ("unscalable", tuple(st["unscalable_tags"]))
    if key not in c:
        tags = set(st["unscalable_tags"])
        c[key] = frozenset(p.index for p in world.pieces if p.solid and tags & set(p.tags))
    return c[key]


def _piece_under(ctx, p) -> int:
    """The index of the piece a base at p (3,) stands on, -1 none (the table or hanging)."""
    _, hi, _, nrm, pc = ctx.layers(np.asarray(p, dtype=float)[None, :2])
    return int(ctx.support(hi, nrm, pc, np.array([float(p[2])]))[1][0])


def _unscalable_problem(ctx, route, s_max, areas: bool = True) -> str:
    """Why a route up to s_max is barred to a model without the Climbing skill: it enters an
    unscalable area (its base touches the area where the start's does not), or it gets up
    onto an unscalable solid piece (a step, a climb or a ladder onto it; hanging on its face
    at the end counts). Leaving one it stands on is free. "" when nothing bars it.
    ``areas``: False to look at the solid pieces only."""
    return _unscalable_bar(ctx, route, s_max, areas)[0]


def _unscalable_bar(ctx, route, s_max, areas: bool = True):
    """(why, s_bar, s_onto): as ``_unscalable_problem``, with where the route is barred:
    ``s_bar`` the last place before it (the base touching the area's edge from outside, or
    the foot of the step, climb or ladder up onto the piece) and ``s_onto`` where the route
    is on the piece (or in the area); ("", inf, inf) when nothing bars it."""
    none = ("", math.inf, math.inf)
    if _climbs(ctx):
        return none
    utags = set(ctx.st["unscalable_tags"])
    seg = np.searchsorted(route.s, s_max - 1e-9, side="right")      # the points reached
    P = route.pts[:max(seg, 1)]
    for a in [a for a in ctx.areas if areas and a.tags & utags]:
        ds = route.dense(float(ctx.st["path_step"]), s_max)[0]
        ds = np.concatenate([ds[ds < s_max], [s_max]])
        dense = route.at(ds)

        def touches(Q, a=a):
            return _within(a.poly, Q[:, :2], ctx.R + _EPS) & (Q[:, 2] >= a.zlo - 0.05) & (Q[:, 2] <= a.zhi + 0.05)
        touch = touches(dense)
        start = bool(touches(route.pts[:1])[0])
        if touch.any() and not start:
            k = int(np.argmax(touch))
            # the edge of the area, to bisection_tolerance: the last place the base is outside it
            lo_, hi_ = (float(ds[k - 1]), float(ds[k])) if k > 0 else (0.0, 0.0)
            while hi_ - lo_ > float(ctx.st["bisection_tolerance"]):
                m = 0.5 * (lo_ + hi_)
                if touches(route.at(np.array([m])))[0]:
                    hi_ = m
                else:
                    lo_ = m
            E = route.at(np.array([hi_]))[0]
            return (f"the route enters the unscalable area {a.piece} at ({E[0]:.2f}, {E[1]:.2f}): "
                    "only a model with the Climbing skill crosses it", lo_, hi_)
    U = _unscalable_pieces(ctx.world, ctx.st)
    if not U:
        return none
    sup = list(route.support[:len(P)])
    # a climb cut short on a face: the piece it was getting onto is the next supported point's
    k = len(P)
    if k < len(route.pts) and route.pts[k, 2] > P[-1, 2] + _EPS:
        while k < len(route.pts) and route.support[k] < 0:
            k += 1
        if k < len(route.pts):
            sup.append(route.support[k])
            P = np.vstack([P, route.pts[k:k + 1]])
    on, z_on = sup[0], float(P[0, 2])
    for i in range(1, len(P)):
        pc, z = sup[i], float(P[i, 2])
        if pc < 0:
            continue
        if pc in U and pc != on and z > z_on + _EPS:
            foot = i - 1           # where the rise onto it begins (the foot of the climb or step)
            while foot > 0 and route.pts[foot, 2] > z_on + _EPS:
                foot -= 1
            onto = float(route.s[i]) if i < seg else math.inf      # past s_max: a climb cut short
            return (f"{ctx.world.pieces[pc].id} is unscalable: only a model with the Climbing skill "
                    "climbs or steps onto it", float(route.s[foot]), onto)
        on, z_on = pc, z
    return none


def _parse_waypoints(waypoints):
    pts = []
    for w in waypoints:
        w = tuple(float(v) for v in w)
        if len(w) == 2:
            pts.append((w[0], w[1], None))
        elif len(w) == 3:
            pts.append(w)
        else:
            raise InputError(Problem("<move>", None, "waypoints", f"a waypoint needs 2 or 3 numbers, got {w!r}"))
    if not pts:
        raise InputError(Problem("<move>", None, "waypoints", "no waypoint"))
    for p in pts:
        if not all(math.isfinite(v) for v in p if v is not None):
            raise InputError(Problem("<move>", None, "waypoints", f"not a finite point {p!r}"))
    return pts


def _xy_samples(points_xy, step):
    """Sample a 2D polyline every ``step``; also returns each sample's length along it."""
    pts = np.asarray(points_xy, dtype=float)
    out = [pts[:1]]
    for a, b in zip(pts[:-1], pts[1:]):
        L = float(np.linalg.norm(b - a))
        k = max(1, int(math.ceil(L / step)))
        t = np.arange(1, k + 1) / k
        out.append(a + (b - a) * t[:, None])
    xy = np.vstack(out)
    return xy


# ----------------------------------------------------------------------------- check_path
def _state_refusal(states, mode: str, st: dict) -> str:
    """Why a state forbids the movement outright ("" when none does)."""
    bad = sorted(set(states) & set(st["no_move_states"]))
    if bad:
        return f"{bad[0]}: the model cannot move"
    walk_only = sorted(set(states) & set(st["walk_only_states"]))
    if walk_only and mode != "walk":
        return f"{walk_only[0]}: only Walk (or Idle) may be declared"
    return ""


def check_path(world, model: str, waypoints: Sequence[Sequence[float]], mode: str,
               speed: float | None = None, settings: dict | None = None,
               flying: bool = False) -> MoveResult:
    """Check a declared move of ``model`` along ``waypoints`` ((x, y) or (x, y, z) each).

    mode : "walk" (SPD), "run" (2 x SPD), "climb" (SPD/2 up), "jump" (SPD/2).
    speed : the effective SPD (states already applied) instead of the model's.
    flying : a walk or run is a flight (as for a model in a Flying state),
        for games whose flight is a movement mode rather than a state.
    Returns a :class:`MoveResult`; its ``dangerous`` names the Dangerous areas the base
    touches along the route it moves (up to where it ends or stops).
    """
    r = _check_path(world, model, waypoints, mode, speed, settings, flying)
    if len(r.path) > 1 or r.legal:
        flight = mode in ("walk", "run") and (flying or bool(
            set(world.hitbox(model).states) & set(globals()["settings"](settings)["flying_states"])))
        # a flight passes above the areas it crosses (as a Jump does, and as half-speed areas
        # do not slow it): it touches only the one it comes down in, where it ends or stops
        r.dangerous = world.areas_touched(model, [r.end] if flight else (r.path or [r.end]), "dangerous")
    return r


def _check_path(world, model, waypoints, mode, speed, settings, flying) -> MoveResult:
    st = globals()["settings"](settings)
    if mode not in MODES:
        raise InputError(Problem("<move>", None, "mode", f"unknown movement {mode!r} (walk, run, climb, jump)"))
    try:
        ctx = _Ctx(world, model, st)
    except KeyError:
        raise InputError(Problem("<move>", None, "model", f"no model {model!r} in the scene "
                                 f"(models: {', '.join(world.model_ids())})")) from None
    st = ctx.st                  # (a crawling model's step height)
    pts = _parse_waypoints(waypoints)
    hb = ctx.hb
    start = (float(hb.x), float(hb.y), float(hb.z))
    spd = effective_spd(hb, st, speed, getattr(getattr(world, "scene", None), "path", None))
    allowance = allowance_for(mode, spd, st)

    def refuse(reason):
        return MoveResult(model, mode, False, reason, 0.0, allowance, allowance, start, path=[start])

    states = set(hb.states)
    why = _state_refusal(states, mode, st)
    if why:
        return refuse(why)
    W, D = world.table
    for p in pts:
        if not (0.0 <= p[0] <= W and 0.0 <= p[1] <= D):
            raise InputError(Problem("<move>", None, "to", f"point ({p[0]:g}, {p[1]:g}) is off the "
                                     f"{W:g}\" x {D:g}\" table"))
    if "Engaged" in states:
        why = _engaged_check(ctx, start, pts, st)
        if why:
            return refuse(why)
    if mode == "jump":
        return _jump(ctx, model, start, pts, spd, allowance)
    move = _fly if (flying or states & set(st["flying_states"])) and mode in ("walk", "run") else _walk
    # a declared route far longer than the allowance: only its first part can be walked (each
    # inch across the table costs at least one), and sampling all of it every path_step would
    # take gigabytes on a huge table; the rest is left out, the answer up to the stop the same
    length = _planar_length([start] + pts)
    if mode in ("walk", "run") and length > _LONG_ROUTE and length > allowance + _LONG_MARGIN:
        res = move(ctx, model, mode, start, pts, spd, allowance, keep=allowance + _LONG_MARGIN)
        if not res.legal and res.reason.startswith(("the route costs ", "the route measures ")):
            res.reason = (f"the route is {length:.2f}\" long across the table (each inch costs at least "
                          f"one) and the allowance is {allowance:g}\""
                          + (" (Flying)" if res.reason.endswith("(Flying)") else ""))
        return res
    res = move(ctx, model, mode, start, pts, spd, allowance)
    if mode == "climb" and not res.legal and len(pts) == 1 and not states & set(st["flying_states"]):
        return _climb_route(ctx, model, start, pts[0], spd, allowance, settings, res)
    return res


_LONG_ROUTE = 500.0     # inches: a declared route longer than this is walked only up to ...
_LONG_MARGIN = 2.0      # ... this much past its allowance (none is ever walked that far)


def _planar_length(points) -> float:
    """The length of a route's polyline seen from above."""
    xy = np.asarray([p[:2] for p in points], dtype=float)
    return float(np.linalg.norm(np.diff(xy, axis=0), axis=1).sum()) if len(xy) > 1 else 0.0


def _kept(xy: np.ndarray, keep: float | None) -> np.ndarray:
    """The route's samples (``_xy_samples``) up to the first ``keep`` inches or more along it,
    seen from above (all of them when ``keep`` is None): the same samples as the whole route's."""
    if keep is None or len(xy) < 2:
        return xy
    along = np.concatenate([[0.0], np.cumsum(np.linalg.norm(np.diff(xy, axis=0), axis=1))])
    return xy[:int(np.searchsorted(along, keep)) + 1]


def _fly(ctx, model, mode, start, pts, spd, allowance, keep: float | None = None) -> MoveResult:
    """A Flying model: over scenery and models, measured as if on the table's surface.

    The cost is the horizontal length; the end rests on the highest surface
    under the base there; only Flying enemies have an opportunity point.
    """
    st = ctx.st
    xy = _kept(_xy_samples([start[:2]] + [p[:2] for p in pts], float(st["path_step"])), keep)
    lo, hi, std, nrm, piece = ctx.layers(xy)
    stn = _stances(lo, hi, std, ctx.h, 4, same=ctx.bare_rows)
    with np.errstate(invalid="ignore"):
        top = np.nanmax(np.where(np.isfinite(stn), stn, -np.inf), axis=1)
    top = np.where(np.isfinite(top), top, 0.0)
    top[0] = start[2]
    tz = pts[-1][2]
    if tz is not None:
        s_end = stn[-1][np.isfinite(stn[-1])]
        if len(s_end):
            top[-1] = float(s_end[np.argmin(np.abs(s_end - tz))])
    seg = np.linalg.norm(np.diff(xy, axis=0), axis=1)
    route = _Route(np.column_stack([xy, top]), seg, ["move"] * len(seg), [-1] * len(xy))
    total = float(seg.sum())
    s_fin = route.s_of_cost(allowance + 1e-9)
    end = tuple(float(v) for v in route.at(s_fin))
    legal, reason = True, "ok (Flying)"
    if total > allowance + 1e-9:
        legal, reason = False, f"the route measures {inches_over(total, allowance)}\" and the allowance is {allowance:g}\" (Flying)"
    else:
        end = (float(xy[-1, 0]), float(xy[-1, 1]), float(top[-1]))
        why = _end_problems(ctx, np.array(end))
        if why:
            legal, reason = False, why
    dist = float(route.cost_at(s_fin))
    flying = np.array([bool(set(h.states) & set(st["flying_states"])) for h in ctx.hbs], dtype=bool)
    keep_enemy = ctx.enemy.copy()
    ctx.enemy = keep_enemy & flying            # only Flying enemies may attack a Flying model in melee
    opp = _entry_points(ctx, route, s_fin, "reach")
    ctx.enemy = keep_enemy
    aware = _entry_points(ctx, route, s_fin, "awareness")
    path = [tuple(float(v) for v in p) for p in route.pts[route.s < s_fin - 1e-9]] + [end]
    names = [p.id for p in ctx.world.pieces]
    # the surface under where the flight ends or stops (not under the declared end)
    k = len(xy) - 1 if legal else None
    if k is None:
        _, he, _, ne, pe = ctx.layers(np.array([end[:2]]))
    else:
        he, ne, pe = hi[k:k + 1], nrm[k:k + 1], piece[k:k + 1]
    _, pc = ctx.support(he, ne, pe, np.array([end[2]]))
    surfaces = [names[int(pc[0])]] if pc[0] >= 0 else []
    return MoveResult(model, mode, legal, reason, dist, allowance, max(0.0, allowance - dist), end,
                      surfaces, [], False, None, opp, aware, path)


def _engagers(ctx) -> list[int]:
    """The enemies engaging the mover where it stands: it is within their melee reach and
    their own LoS (States, Engaged; not the Engaged exception, engine.measure.engages)."""
    from engine.sight import los
    out = []
    me = np.array([ctx.hb.x, ctx.hb.y, ctx.hb.z])
    for i, h in enumerate(ctx.hbs):
        # Crouched and Flying models engage nobody (States, "Crouched", "Flying")
        if not ctx.enemy[i] or not ctx.reactive[i] or {"Crouched", "Flying"} & set(h.states):
            continue
        d = float(hitbox_distance(me, ctx.R, ctx.h, ctx.centers[i], ctx.radii[i], ctx.heights[i]))
        if d <= ctx.reach[i] + float(ctx.st["contact_tolerance"]) and \
                los(ctx.world, ctx.ids[i], ctx.hb.id, fraction=False, cover=False, engaged_with=()).los:
            out.append(i)
    return out


def _engaged_targets(ctx, start) -> list[int]:
    """The enemies an Engaged model's Walk may head for: its engagers; with none found
    (Engaged by the state, no enemy has it in reach), the nearest enemy; [] without
    enemies (nothing to head for: the Walk is free). The path check and the reachable
    area both ask this."""
    eng = _engagers(ctx)
    if eng:
        return eng
    en = [i for i in range(len(ctx.ids)) if ctx.enemy[i]]
    if not en:
        return []
    me = np.array(start)
    return [min(en, key=lambda i: float(np.linalg.norm(ctx.centers[i, :2] - me[:2])))]


def _engaged_check(ctx, start, pts, st) -> str:
    eng = _engaged_targets(ctx, start)
    if not eng:
        return ""
    tol = math.radians(float(st["engaged_angle_tolerance_deg"]))
    for i in eng:
        to_enemy = ctx.centers[i, :2] - np.array(start[:2])
        ok = True
        for p in pts:
            v = np.array(p[:2]) - np.array(start[:2])
            if np.linalg.norm(v) < 1e-9:
                continue
            cosang = float(np.dot(v, to_enemy) / (np.linalg.norm(v) * np.linalg.norm(to_enemy) + 1e-12))
            if math.acos(max(-1.0, min(1.0, cosang))) > tol:
                ok = False
                break
        if ok:
            return ""
    names = ", ".join(ctx.ids[i] for i in eng)
    return f"Engaged: it may only Walk directly toward the enemy engaging it ({names})"


def _level_edge(ctx, a, b, z, keep: bool) -> float:
    """Fraction t of the plan step a -> b at the edge of level z, to bisection_tolerance:
    the last place where a base still rests at z (``keep``), or the first where it does.

    A climb, a ladder, a drop or a wall that stops a Walk is met there, not at a 0.05"
    sample: a player measures to the wall's face. Where the level is not flat (a slope
    under the base) no such place is found and the step's own end is kept (t 0 or 1).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    L = float(np.hypot(*(b - a)))
    tol = float(ctx.st["bisection_tolerance"])
    pat = getattr(ctx, "edge_pattern", None)
    if pat is None:
        # the base's own rim (the route's probes stop 0.002" inside it: touching is not
        # standing on), densely: a face is met within 0.00001" of base contact
        k = int(math.ceil(2 * math.pi * ctx.R / 0.005))
        ang = np.arange(k) * (2 * math.pi / k)
        rim = (ctx.R - 1e-6) * np.column_stack([np.cos(ang), np.sin(ang)])
        pat = ctx.edge_pattern = np.vstack([ctx.pattern, rim])
    lo, hi = 0.0, 1.0
    while (hi - lo) * L > tol:
        t = 0.5 * (lo + hi)
        l2, h2, n2, _ = ctx.cols.probe((a + t * (b - a))[None, :] + pat)
        s2 = n2[..., 2] >= ctx.cols.min_nz - 1e-9
        stn = _stances(l2.reshape(1, -1), h2.reshape(1, -1), s2.reshape(1, -1), ctx.h, 4)[0]
        has = bool(np.any(np.abs(stn[np.isfinite(stn)] - z) <= _EPS))
        if has == keep:
            lo = t
        else:
            hi = t
    return lo if keep else hi


# A Climb goes along the scenery's faces (rulings "Climb down an overhang"): a base whose
# rim is within _FACE_TOUCH of solid at its own height touches a face; the face under an
# overhang that carries a climb is at most the base's width (2 R) in from its edge.
_FACE_TOUCH = 0.03


def _face_gaps(ctx, P, z_lo: float, z_hi: float) -> list:
    """[(a, b)]: the heights between z_lo and z_hi where a base at plan point P touches no
    solid at its height (its rim within ``_FACE_TOUCH``): in the air, on no face."""
    ring = getattr(ctx, "face_ring", None)
    if ring is None:
        r = ctx.R + _FACE_TOUCH
        k = max(24, int(math.ceil(2 * math.pi * r / 0.02)))
        ang = np.arange(k) * (2 * math.pi / k)
        ring = ctx.face_ring = np.vstack([r * np.column_stack([np.cos(ang), np.sin(ang)]), ctx.pattern])
    lo, hi, _, _ = ctx.cols.probe(np.asarray(P, dtype=float)[None, :2] + ring)
    ok = np.isfinite(hi)
    iv = sorted(zip((lo[ok] - _FACE_TOUCH).tolist(), (hi[ok] + _FACE_TOUCH).tolist()))
    gaps, cur = [], z_lo
    for a, b in iv:
        if cur >= z_hi:
            break
        if a > cur:
            gaps.append((cur, min(a, z_hi)))
        cur = max(cur, b)
    if cur < z_hi:
        gaps.append((cur, z_hi))
    return [(a, b) for a, b in gaps if b - a > 1e-4]


def _ledge_piece(ctx, P, z: float) -> str:
    """The piece whose top at height z is nearest a base at plan point P (within 0.1" of
    its rim: the ledge it climbs down from), or "scenery"."""
    pts = np.asarray(P, dtype=float)[None, :2] + _disc_pattern(ctx.R + 0.1, float(ctx.st["disc_step"]))
    lo, hi, _, piece = ctx.cols.probe(pts)
    at = (np.abs(hi - z) <= _EPS) & (piece >= 0)
    if not at.any():
        return "scenery"
    d = np.hypot(pts[:, 0] - P[0], pts[:, 1] - P[1])[:, None] + np.zeros(hi.shape)
    k = np.unravel_index(np.argmin(np.where(at, d, np.inf)), hi.shape)
    return ctx.world.pieces[int(piece[k])].id


def _in_the_air(ctx, p) -> bool:
    """A base at p (3,) off any support touches no steep face of a solid piece: a scene
    could not place it there (``engine.validate.steep_face_near``, the scene's rule for a
    model hanging on a vertical surface)."""
    try:
        from engine.validate import steep_face_near
        return steep_face_near(ctx.world, float(p[0]), float(p[1]), float(p[2]), ctx.R) is None
    except (AttributeError, TypeError, ValueError):  # a World without triangles: trust the route
        return False


def _overhang_z(ctx, p) -> float:
    """The top of the ledge above a base hanging at p: the top of the layer whose bottom is
    nearest above it within a base width (the overhang), else p's own height."""
    pts = np.asarray(p[:2], dtype=float)[None, :] + _disc_pattern(ctx.R + 0.6, float(ctx.st["disc_step"]))
    lo, hi, _, _ = ctx.cols.probe(pts)
    above = np.isfinite(lo) & (lo > float(p[2]) + _EPS)
    if not above.any():
        return float(p[2])
    k = np.unravel_index(np.argmin(np.where(above, lo, np.inf)), lo.shape)
    return float(hi[k])


def _piece_above(ctx, P, z: float) -> str:
    """The piece whose bottom is the nearest above a base at (P, z) (over its disc), or
    "scenery"."""
    lo, _, _, _, piece = ctx.layers(np.asarray(P, dtype=float)[None, :2])
    above = np.isfinite(lo[0]) & (lo[0] > z + _EPS) & (piece[0] >= 0)
    if not above.any():
        return "scenery"
    return ctx.world.pieces[int(piece[0][np.argmin(np.where(above, lo[0], np.inf))])].id


def _overhang_down(ctx, P, u, z_top: float, z_bot: float):
    """A Climb down at plan point P from z_top to z_bot where the base would hang in the air
    (the face under the edge is set back: an overhang) follows the faces: down the edge to
    where the hitbox's top meets the overhang's underside, back under it (along ``u``, the
    route's way back, else to the side: the nearest face within the base's width of the
    edge, ``_face_under``) to the face that carries it, and down that face.

    Returns None when the straight descent touches a face all the way; else (F, zt): the
    face's foot F (plan) and the height zt of the crossing under the overhang; else the
    refusal (str): no face under the overhang."""
    if not _face_gaps(ctx, P, z_bot, z_top):
        return None
    P = np.asarray(P, dtype=float)[:2]
    edge = _ledge_piece(ctx, P, z_top)
    reach = 2.0 * ctx.R
    nope = (f"below the edge of {edge} at ({P[0]:.2f}, {P[1]:.2f}, {z_top:.2f}) no face carries a Climb down "
            f"(none under it within the base's width, {reach:.2f}\", of the edge; a Climb goes along "
            f"scenery, never through the air): Jump down instead")
    # straight back along the route first, then to the side (a face beside the way, within
    # the base's width of the edge: a pillar under a deck's end), the nearest face found
    best = _back_else_aside(u, lambda v: _face_under(ctx, P, v, z_top, z_bot, reach))
    return nope if best is None else (best[0], best[1])


def _back_else_aside(u, find):
    """The way under an overhang, for a Climb down or up it: ``find(v)`` along ``u`` (the
    route's way back) first, else to the side (±45°, ±90° from it), the nearest found; each
    a tuple whose last item is its distance, or None. Returns the tuple or None."""
    u = np.asarray(u, dtype=float)
    best = None
    for ang in (0.0, math.pi / 4, -math.pi / 4, math.pi / 2, -math.pi / 2):
        c, s_ = math.cos(ang), math.sin(ang)
        got = find(np.array([c * u[0] - s_ * u[1], s_ * u[0] + c * u[1]]))
        if got is not None and (best is None or got[-1] < best[-1] - 1e-9):
            best = got
        if ang == 0.0 and best is not None:
            break                 # straight back, as before
    return best


def _face_under(ctx, P, u, z_top: float, z_bot: float, reach: float):
    """(F, zt, distance): the face under an overhang that carries a Climb down from the
    edge at P, met going along ``u`` (at most ``reach``) under it; or None."""
    step = 0.05
    ts = np.append(np.arange(0.0, reach, step), reach + 1e-6)
    Q = P[None, :] + ts[:, None] * u[None, :]
    lo, hi, std, nrm, piece = ctx.layers(Q)
    stn = _stances(lo, hi, std, ctx.h, 4)
    with np.errstate(invalid="ignore"):
        rests = np.nanmin(np.where(np.isfinite(stn), np.abs(stn - z_bot), np.inf), axis=1) <= _EPS
    k = int(np.argmin(rests)) if not rests.all() else len(ts)
    if k >= len(ts) or k == 0:
        return None               # open under the overhang, or its face farther in
    te = _level_edge(ctx, Q[k - 1], Q[k], z_bot, keep=True)
    F = Q[k - 1] + te * (Q[k] - Q[k - 1])
    # the underside over the way back under the overhang (from just past its edge to F)
    l2, _, _, _, _ = ctx.layers(np.vstack([Q[1:k], F[None, :]]))
    ceil = np.min(np.where(np.isfinite(l2) & (l2 > z_bot + _EPS), l2, np.inf), axis=1)
    if not np.all(np.isfinite(ceil)):
        return None
    zt = min(float(np.min(ceil)) - ctx.h, z_top)
    if zt < z_bot - _EPS or _face_gaps(ctx, F, z_bot, zt):
        return None
    return F, max(zt, z_bot), float(np.hypot(*(F - P)))


def _overhang_up(ctx, a, b, z: float, z_up: float):
    """A Climb from level z at plan point a up to level z_up at b, where the face met is under
    an overhang (no room to climb straight up where the base meets it): up the face until the
    hitbox's top meets the underside, out under the overhang (away from b, else to the side:
    the nearest edge within the base's width, ``_back_else_aside``) to its edge, and
    up the edge. Returns (W, E, zt): W where the base meets the face, E past the overhang's
    edge, zt the height of the crossing; or None (no such way: the face is not a wall the
    base touches, or the overhang is too low or too deep)."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    d = a - b
    nd = float(np.hypot(*d))
    if nd <= 1e-9:
        return None
    u = d / nd
    te = _level_edge(ctx, a, b, z, keep=True)
    W = a + te * (b - a)
    lo, hi, _, _, _ = ctx.layers(W[None, :])
    above = np.isfinite(lo) & (lo > z + _EPS)
    if not above.any():
        return None
    zt = float(np.min(lo[above])) - ctx.h
    if zt < z - _EPS or zt >= z_up - _EPS or _face_gaps(ctx, W, z, zt):
        return None
    zt = max(zt, z)
    step = 0.05
    ts = np.append(np.arange(0.0, 2.0 * ctx.R, step), 2.0 * ctx.R + 1e-6)    # out at most the base's width
    n = len(ts)

    def edge_along(v):
        """(E, distance): past the overhang's edge going out along v from W; or None."""
        Q = W[None, :] + ts[:, None] * v[None, :]
        lo, hi, _, _, _ = ctx.layers(Q)
        crossing = _free(lo, hi, np.full(n, zt), np.full(n, zt + ctx.h))
        clear = _free(lo, hi, np.full(n, zt), np.full(n, z_up + ctx.h))
        if not clear.any():
            return None
        k = int(np.argmax(clear))
        if k == 0 or not crossing[:k].all():
            return None

        def out(t):
            q = W + t * v
            l2, h2, _, _, _ = ctx.layers(q[None, :])
            return bool(_free(l2, h2, np.array([zt]), np.array([z_up + ctx.h]))[0])
        t = _bisect(out, float(ts[k - 1]), float(ts[k]), float(ctx.st["bisection_tolerance"]))
        return W + t * v, t

    # straight back along the route first, then to the side (the overhang's edge beside
    # the way, within the base's width: a roof deep over the wall met but shallow at its
    # side), the nearest edge found, as a Climb down looks for the face under it
    got = _back_else_aside(u, edge_along)
    return None if got is None else (W, got[0], zt)


def _walk(ctx, model, mode, start, pts, spd, allowance, keep: float | None = None) -> MoveResult:
    st = ctx.st
    xy = _kept(_xy_samples([start[:2]] + [p[:2] for p in pts], float(st["path_step"])), keep)
    lo, hi, std, nrm, piece = ctx.layers(xy)
    stn = _stances(lo, hi, std, ctx.h, 4, same=ctx.bare_rows)
    add, at = _gap_samples(ctx, xy, lo, hi, std, stn)
    if len(add):
        # a gap the samples stepped over: a sample in it (the base drops there)
        xy = np.insert(xy, at, add, axis=0)
        lo, hi, std, nrm, piece = ctx.layers(xy)
        stn = _stances(lo, hi, std, ctx.h, 4, same=ctx.bare_rows)
    n = len(xy)
    climb = mode == "climb"
    # the start: the stance nearest the model's height
    s0 = stn[0]
    hanging = False
    if np.all(np.isnan(s0)):
        z = start[2]
    else:
        z = float(s0[np.nanargmin(np.abs(s0 - start[2]))])
        if abs(z - start[2]) > float(st["level_tolerance"]) and _hanging(ctx, start):
            z = start[2]          # hanging on a vertical surface (a Climb that ended there)
            hanging = True
    route_pts = [(xy[0, 0], xy[0, 1], z)]
    costs, kinds, support = [], [], []
    blocked = ""
    # a Climb whose declared end names another level takes it where a face carries it
    # there, even where its own level goes on under the base (``_toward_declared``)
    aim = pts[-1][2] if climb else None
    walk_aim = None if climb else pts[-1][2]
    walk_dtol = float(st["declared_level_tolerance"])
    passed_ladder = None          # (x, y, level, ladder) of the last ladder up a Walk kept off
    no_face = None
    _, p0 = ctx.support(hi[:1], nrm[:1], piece[:1], np.array([z]))
    support.append(int(p0[0]))
    # level runs: samples with a single stance within _EPS of the previous one
    # (open ground, a floor, a wall's top) are taken in one vectorised step
    single = np.isfinite(stn).sum(axis=1) == 1
    c0 = stn[:, 0]
    level = np.zeros(n, dtype=bool)
    level[1:] = single[1:] & single[:-1] & (np.abs(c0[1:] - c0[:-1]) <= _EPS)
    i = 0
    while i + 1 < n:
        i += 1
        if single[i] and abs(c0[i] - z) <= _EPS:
            b = i
            while b + 1 < n and level[b + 1]:
                b += 1
            zp = np.concatenate([[z], c0[i:b]])
            zn = c0[i:b + 1]
            nA, _ = ctx.support(hi[i - 1:b], nrm[i - 1:b], piece[i - 1:b], zp)
            nB, pb = ctx.support(hi[i:b + 1], nrm[i:b + 1], piece[i:b + 1], zn)
            dxy = xy[i:b + 1] - xy[i - 1:b]
            L = np.sqrt(dxy[:, 0] * dxy[:, 0] + dxy[:, 1] * dxy[:, 1])
            if st["slopes_along_surface"]:
                d = dxy / np.where(L > 0, L, 1.0)[:, None]
                fa = np.sqrt(1.0 + ((nA[:, 0] * d[:, 0] + nA[:, 1] * d[:, 1]) / np.maximum(nA[:, 2], 1e-6)) ** 2)
                fb = np.sqrt(1.0 + ((nB[:, 0] * d[:, 0] + nB[:, 1] * d[:, 1]) / np.maximum(nB[:, 2], 1e-6)) ** 2)
                # never more than the 3D length the measured point travels (a base resting
                # on a summit or a ridge keeps its height whatever the face under it)
                h = np.where(L > 0, np.minimum(L * 0.5 * (fa + fb), np.hypot(L, zn - zp)), L)
            else:
                h = L
            route_pts.extend(zip(xy[i:b + 1, 0].tolist(), xy[i:b + 1, 1].tolist(), zn.tolist()))
            costs.extend(h.tolist())
            kinds.extend(["move"] * (b + 1 - i))
            support.extend(int(v) for v in pb)
            z = float(zn[-1])
            hanging = False
            i = b
            continue
        cand = stn[i][np.isfinite(stn[i])]
        if len(cand) == 0:
            blocked = f"no room for the base at ({xy[i, 0]:.2f}, {xy[i, 1]:.2f})"
            break
        dz = cand - z
        up = dz > _EPS
        down = dz < -_EPS
        ok = np.ones(len(cand), dtype=bool)
        if up.any():
            k = np.nonzero(up)[0]
            ok[k] = _free(np.repeat(lo[i - 1:i], len(k), 0), np.repeat(hi[i - 1:i], len(k), 0),
                          np.full(len(k), z), cand[k] + ctx.h)
        if down.any():
            k = np.nonzero(down)[0]
            ok[k] &= _free(np.repeat(lo[i:i + 1], len(k), 0), np.repeat(hi[i:i + 1], len(k), 0),
                           cand[k], np.full(len(k), z + ctx.h))
        # up to the step height; down to the drop height (the step height, but for a game
        # that judges a jump down itself: ``drop_height``)
        small = np.where(dz > 0, dz <= ctx.step + 1e-9, -dz <= ctx.drop + 1e-9)
        lad = np.full(len(cand), -1)
        if not climb:
            tall = ok & ~small
            if tall.any():
                k = np.nonzero(tall)[0]
                # the climb is made where the lower end stands: up at the old
                # position, down at the new one; the base must touch the ladder there
                la = ctx.ladder_at(np.repeat(xy[i - 1:i], len(k), 0), np.full(len(k), z), cand[k])
                lb = ctx.ladder_at(np.repeat(xy[i:i + 1], len(k), 0), np.full(len(k), z), cand[k])
                lad[k] = np.where(cand[k] > z, la, lb)
            allowed = ok & (small | (lad >= 0))
        else:
            allowed = ok
        if hanging and not climb:
            # a model hanging on a face cannot Walk or Run off it, not even down a drop no
            # taller than its hitbox (the rest of a taller climb); `reach` says the same
            allowed = np.zeros_like(allowed)
        if climb and not allowed.any() and up.any() and not hanging:
            # up a face under an overhang: along the faces (rulings "Climb down an overhang")
            kk = int(np.argmin(np.where(up, dz, np.inf)))
            up_det = _overhang_up(ctx, xy[i - 1], xy[i], z, float(cand[kk]))
            if up_det is not None:
                W, E, zt = up_det
                znew = float(cand[kk])
                _, pb = ctx.support(hi[i:i + 1], nrm[i:i + 1], piece[i:i + 1], np.array([znew]))
                dW = float(np.hypot(*(W - xy[i - 1])))
                dE = float(np.hypot(*(E - W)))
                for q, c, kd in (((W[0], W[1], z), dW, "move"), ((W[0], W[1], zt), zt - z, "climb"),
                                 ((E[0], E[1], zt), dE, "under"), ((E[0], E[1], znew), znew - zt, "climb"),
                                 ((xy[i, 0], xy[i, 1], znew), float(np.hypot(*(xy[i] - E))), "move")):
                    route_pts.append(tuple(float(v) for v in q))
                    costs.append(float(c))
                    kinds.append(kd)
                support.extend([support[-1], -1, -1, -1, int(pb[0])])
                z = znew
                continue
        if not allowed.any():
            if hanging and not climb:
                blocked = (f"the model hangs on a vertical surface at z {z:.2f}: only a Climb (or a Jump) "
                           f"goes on from there")
                break
            # up to where the base meets it (its edge), not the sample before
            te = _level_edge(ctx, xy[i - 1], xy[i], z, keep=True)
            E = xy[i - 1] + te * (xy[i] - xy[i - 1])
            if te > 0.0:
                route_pts.append((float(E[0]), float(E[1]), z))
                costs.append(float(np.hypot(*(E - xy[i - 1]))))
                kinds.append("move")
                support.append(support[-1])
            if ok.any():
                kk = int(np.argmin(np.where(ok, np.abs(dz), np.inf)))
                t = float(abs(dz[kk]))
                what = (f"scenery {t:.2f}\" high" if dz[kk] > 0 else f"a drop of {t:.2f}\"")
                # (a Crouched or Engaged model may only Walk: the way over is a ladder; a
                # game's crawl is its own move, not the Crouched State's limit)
                hs = set(getattr(ctx.hb, "states", ()) or ())
                wo = [] if CRAWLING_STATE in hs else sorted(hs & set(st["walk_only_states"]))
                blocked = (f"{what} at ({E[0]:.2f}, {E[1]:.2f}) is taller than the "
                           f"hitbox ({ctx.step:.2f}\"): it needs Climb, Jump or a ladder"
                           + (f", and {'an' if wo[0][:1] in 'AEIOU' else 'a'} {wo[0]} model may only Walk"
                              if wo else ""))
            else:
                blocked = f"the base cannot pass at ({E[0]:.2f}, {E[1]:.2f})"
                if passed_ladder is not None:
                    # it kept to its level past a ladder's head (under the level the ladder
                    # goes up to): the player meant the ladder
                    lx, ly, lz_, lname = passed_ladder
                    blocked += (f": it kept to z {z + 0.0:.2f} past {lname}, which goes up to z {lz_:.2f} at "
                                f"({lx:.2f}, {ly:.2f}); give that level as the end's z to go "
                                f"up it there")
                if climb and up.any():
                    # a face to climb, under scenery that leaves the hitbox no way up
                    over = _piece_above(ctx, xy[i - 1], z)
                    blocked += (f": {over} overhangs the face there, too deep (more than the base's width, "
                                f"{2 * ctx.R:.2f}\") or too low for the hitbox to climb round it")
            break
        j = int(np.argmin(np.where(allowed, np.abs(dz), np.inf)))
        if walk_aim is not None and not hanging and abs(float(cand[j]) - walk_aim) > walk_dtol:
            # a Walk or Run whose declared end is on the level a ladder here goes up to takes
            # the ladder here: kept on its own level it would go on under that level (a roof
            # over the ladder's head) where it may no longer go up
            up_lad = allowed & (lad >= 0) & (dz > _EPS) & (np.abs(cand - walk_aim) <= walk_dtol)
            if up_lad.any():
                j = int(np.argmin(np.where(up_lad, np.abs(cand - walk_aim), np.inf)))
        if not climb and not hanging:
            up_l = allowed & (lad >= 0) & (dz > _EPS)
            if up_l.any() and abs(float(cand[j]) - z) <= _EPS:
                kq = int(np.argmax(up_l))
                passed_ladder = (float(xy[i - 1, 0]), float(xy[i - 1, 1]), float(cand[kq]),
                                 ctx.ladders[int(lad[kq])].piece)
            elif float(cand[j]) != z:
                passed_ladder = None
        if aim is not None and not hanging:
            j, nf = _toward_declared(ctx, xy[i - 1], cand, allowed, z, aim, j)
            if nf and not (no_face and no_face[0] and not nf[0]):
                no_face = nf        # the first open foot of the level, else the last under it
        znew = float(cand[j])
        dzj = znew - z
        # horizontal cost (slope along the surface) and vertical cost (as in a level run)
        dx, dy = float(xy[i, 0] - xy[i - 1, 0]), float(xy[i, 1] - xy[i - 1, 1])
        L = math.sqrt(dx * dx + dy * dy)
        nA, _ = ctx.support(hi[i - 1:i], nrm[i - 1:i], piece[i - 1:i], np.array([z]))
        nB, pb = ctx.support(hi[i:i + 1], nrm[i:i + 1], piece[i:i + 1], np.array([znew]))
        if st["slopes_along_surface"] and L > 0:
            ux, uy = dx / L, dy / L
            fa = math.sqrt(1.0 + ((float(nA[0, 0]) * ux + float(nA[0, 1]) * uy) / max(float(nA[0, 2]), 1e-6)) ** 2)
            fb = math.sqrt(1.0 + ((float(nB[0, 0]) * ux + float(nB[0, 1]) * uy) / max(float(nB[0, 2]), 1e-6)) ** 2)
            # capped by the 3D length when that is less (a summit, a ridge), as above; a
            # step's height is never counted here (the normals' factor is then the smaller)
            h_cost = min(L * 0.5 * (fa + fb), math.hypot(L, dzj))
        else:
            h_cost = L
        # a climb taller than the free-climbing height, or the rest of one begun
        # in an earlier activation (from a hanging start), counts its height
        # (a drop down to ``drop_height`` is stepped down free by a Walk or Run, as a game
        # whose rules judge it as a fall asks; a Climb counts every face it goes down)
        vertical = (abs(dzj) > ctx.step + 1e-9 if climb else (dzj > ctx.step + 1e-9 or -dzj > ctx.drop + 1e-9)) \
            or (hanging and abs(dzj) > _EPS)
        # hanging on a face with that level free below it: down where it hangs, then across
        down_here = hanging and dzj < 0 and bool(np.any(np.abs(stn[i - 1] - znew) <= _EPS)) and \
            bool(_free(lo[i - 1:i], hi[i - 1:i], np.array([znew]), np.array([z + ctx.h]))[0])
        hanging_before, hanging = hanging, False
        xy_prev, at_edge = xy[i - 1], False
        if vertical and not hanging_before:
            # made at the level's edge (where the base meets the face, or leaves the
            # ledge), not at a sample up to 0.05" from it: first across to there
            te = _level_edge(ctx, xy[i - 1], xy[i], z if dzj > 0 else znew, keep=dzj > 0)
            if climb and dzj < 0 and 0.0 < te < 1.0:
                # under an overhang the level below is free before the base is off the
                # ledge: down only once it is off (its hitbox would cut the ledge)
                te = max(te, _level_edge(ctx, xy[i - 1], xy[i], z, keep=True))
            if 0.0 < te < 1.0:
                xy_prev, at_edge = xy[i - 1] + te * (xy[i] - xy[i - 1]), True
                route_pts.append((float(xy_prev[0]), float(xy_prev[1]), z))
                costs.append(h_cost * te)
                kinds.append("move")
                support.append(support[-1])
                h_cost *= 1.0 - te
        if vertical:
            kind = "ladder" if lad[j] >= 0 else "climb"
            v_cost = abs(dzj) * (float(st["ladder_cost"]) if kind == "ladder" else 1.0)
            det = None
            if kind == "climb" and dzj < 0:
                # down where the face under the edge is set back (an overhang): along the
                # faces, or refused (rulings "Climb down an overhang")
                P = np.asarray(xy_prev if (down_here or at_edge) else xy[i], dtype=float)
                back = np.asarray(xy[i - 1] - xy[i], dtype=float)
                nb = float(np.hypot(*back))
                det = _overhang_down(ctx, P, back / nb if nb > 0 else back, z, znew)
                if isinstance(det, str):
                    blocked = det
                    break
            if det is not None:
                F, zt = det
                h_rest = h_cost
                if not (down_here or at_edge):
                    route_pts.append((xy[i, 0], xy[i, 1], z))
                    costs.append(h_cost)
                    kinds.append("move")
                    support.append(-1)
                    h_rest = 0.0
                dF = float(np.hypot(*(F - P)))
                # down the edge until the hitbox's top meets the underside, back under the
                # overhang to the face, down that face, and across to where the route goes on
                for q, c, kd in (((P[0], P[1], zt), z - zt, "climb"), ((F[0], F[1], zt), dF, "under"),
                                 ((F[0], F[1], znew), zt - znew, "climb"),
                                 ((xy[i, 0], xy[i, 1], znew), h_rest + dF, "move")):
                    route_pts.append(tuple(float(v) for v in q))
                    costs.append(float(c))
                    kinds.append(kd)
                support.extend([-1, -1, -1])
            elif dzj > 0 or down_here or at_edge:
                # up (or down from a hanging start, or off a ledge's edge) where it
                # stands, then across
                route_pts.append((float(xy_prev[0]), float(xy_prev[1]), znew))
                costs.append(v_cost)
                kinds.append(kind)
                support.append(-1)
                route_pts.append((xy[i, 0], xy[i, 1], znew))
                costs.append(h_cost)
                kinds.append("move")
            else:         # across, then down at the new position
                route_pts.append((xy[i, 0], xy[i, 1], z))
                costs.append(h_cost)
                kinds.append("move")
                support.append(-1)
                route_pts.append((xy[i, 0], xy[i, 1], znew))
                costs.append(v_cost)
                kinds.append(kind)
        else:
            route_pts.append((xy[i, 0], xy[i, 1], znew))
            costs.append(h_cost)
            kinds.append("move")
        support.append(int(pb[0]))
        z = znew
    route = _Route(route_pts, costs, kinds, support)
    return _finish(ctx, model, mode, start, pts, spd, allowance, route, blocked,
                   (lambda: _no_face_words(ctx, no_face)) if no_face else None)


def _toward_declared(ctx, a, cand, allowed, z: float, aim: float, j: int):
    """A Climb at a sample where its level ``z`` goes on and another stance there is the
    declared end's level ``aim``: (the stance to take, why not). It climbs to that level
    from ``a`` (the sample before) where the base touches a face all the way up
    (``_face_gaps``: a pillar's face flush with a deck's end, a wall); a level over open
    ground (a deck's open side) has none: the Climb keeps its own level, and the why
    ((out from under the level?, a, z, the level): ``_no_face_words``) names it for the
    refusal (the route ends off the declared z)."""
    dtol = float(ctx.st["declared_level_tolerance"])
    if abs(float(cand[j]) - aim) <= dtol or abs(z - aim) <= dtol:
        return j, None
    near = np.abs(cand - aim) <= dtol
    if not near.any():
        return j, None
    k = int(np.argmin(np.where(near, np.abs(cand - aim), np.inf)))
    zk = float(cand[k])
    if zk > z and allowed[k] and (zk - z <= ctx.step + 1e-9 or not _face_gaps(ctx, a, z, zk)):
        return k, None
    if zk < z:
        return j, None              # down: only off the level's edge (no hitbox through it)
    return j, (bool(allowed[k]), np.asarray(a, dtype=float), z, zk)


def _no_face_words(ctx, nf) -> str:
    """The words of ``_toward_declared``'s why (made once, for the refusal)."""
    free, a, z, zk = nf
    what = _ledge_piece(ctx, a, zk)
    if not free:
        return (f"{_piece_above(ctx, a, z)} is over the base at ({a[0]:.2f}, {a[1]:.2f}), and no face "
                f"along the route carries a Climb from z {z + 0.0:.2f} up onto {what} at {zk:.2f} (its "
                f"open side has none: a Climb goes along scenery, never through the air): Jump instead")
    return (f"where the route meets that level at ({a[0]:.2f}, {a[1]:.2f}) no face carries a Climb from "
            f"z {z + 0.0:.2f} up onto {what} at {zk:.2f} (an open side has none: a Climb goes along "
            f"scenery, never through the air): Jump instead")


# A Climb refused straight on finds the shortest legal route by a face elsewhere, as a
# Walk's reachable area finds its way round scenery: the walk grid's shortest path to
# the foot of a face, the climb there, and on straight to the target. Each foot costs a
# path check (a fraction of a second): the feet are tried cheapest first, at most
# _ROUTE_TRIES of them, one per _ROUTE_SPACING".
_ROUTE_TRIES = 8
_ROUTE_SPACING = 0.5


def _climb_route(ctx, model, start, target, spd, allowance, overrides, straight) -> MoveResult:
    """A Climb declared straight to ``target`` and refused (``straight``) short of it: the
    cheapest legal route that walks to the foot of a face up (or down) to the target's
    level, climbs it and goes on straight to the target (``_climb_feet``), as the path
    check judges it along those waypoints (``--via`` with them gives the same verdict;
    the result's ``via`` names them). Else ``straight``, its reason saying why no other
    face serves. Rulings "Climb: a route by a face elsewhere"."""
    T = np.asarray(target[:2], dtype=float)
    reached = float(np.hypot(*(np.asarray(straight.end[:2]) - T))) <= 1e-3
    if (reached and not straight.reason.startswith("the route ends at z")) or \
            straight.reason.startswith("the route costs "):
        return straight           # refused where it ends, or for its length (not for want of a face)
    feet = _climb_feet(ctx, model, start, target, spd, allowance, overrides)
    if feet is None:
        return straight
    grid, zT, tries, cheapest = feet
    if not tries:
        straight.reason += (f"; and no other face that carries a Climb to z {zT:.2f} is within the "
                            f"allowance of {allowance:g}\""
                            + (f" (the nearest, climbing at ({cheapest[0]:.2f}, {cheapest[1]:.2f}), costs at "
                               f"least {cheapest[2]:.2f}\")" if cheapest else ""))
        return straight
    best, first_no = None, None
    for F, top, est in tries:
        if best is not None and est >= best[0].distance - 0.05:
            break
        way = grid.shortest_path(F)
        if not way:
            continue
        pts = [tuple(float(v) for v in p) for p in way[1:]] + [top, tuple(target)]
        r = _walk(ctx, model, "climb", start, pts, spd, allowance)
        if r.legal and float(np.hypot(*(np.asarray(r.end[:2]) - T))) <= 1e-3:
            if best is None or r.distance < best[0].distance:
                best = (r, pts, F)
        elif first_no is None:
            first_no = (F, r.reason)
    if best is None:
        if first_no is not None:
            F, why = first_no
            straight.reason += (f"; nor is a route by another face legal (the cheapest, climbing at "
                                f"({F[0]:.2f}, {F[1]:.2f}): {why})")
        return straight
    r, pts, F = best
    r.via = tuple(pts[:-1])
    # where it climbs: the first climb up or down the route makes (its foot's plan place)
    at = next((p for p, q in zip(r.path, r.path[1:]) if p[:2] == q[:2] and abs(q[2] - p[2]) > ctx.step), F)
    r.reason = (f"ok, by way of a face elsewhere, climbing at ({at[0]:.2f}, {at[1]:.2f}) (--via "
                + " --via ".join(",".join(f"{v:g}" for v in p) for p in r.via)
                + f"); straight on: {straight.reason}")
    return r


def _climb_feet(ctx, model, start, target, spd, allowance, overrides):
    """Where a Climb to ``target`` may leave its walk: (grid, zT, tries, cheapest) or None
    (no climb to another level there, or no walk at all). ``grid`` is the walk's reachable
    area (its shortest paths), ``zT`` the target's level (as declared, else the highest),
    ``tries`` [(foot, top, estimate)] the feet to try (x, y, z), cheapest first, one per
    _ROUTE_SPACING", each with the node on the target's level it climbs to, whose estimate
    (the walk to the foot, the climb's height, the plan distance on to the target by the
    top, and twice the way out under an overhang) is within the allowance; ``cheapest``
    (x, y, estimate) the cheapest foot past it (None: none).

    A foot is a grid node at most two cells from a node on the target's level (the top's
    nodes reach a base's radius out over its edge: the foot is at the face). Going up,
    that node stands where nothing is under the level (a top, not a deck's open side),
    and a foot under scenery needs open sky within the base's width; going down, the
    landing is under open sky, and a foot over open ground needs the face under it within
    the base's width (rulings "Climb down an overhang")."""
    from scipy.spatial import cKDTree
    st = ctx.st
    lo, hi, std, _, _ = ctx.layers(np.asarray(target[:2], dtype=float)[None, :])
    stn = _stances(lo, hi, std, ctx.h, 4)[0]
    stn = stn[np.isfinite(stn)]
    if not len(stn):
        return None
    # the declared level (the stance within declared_level_tolerance of it), else the highest
    near = stn if target[2] is None else stn[np.abs(stn - target[2]) <= float(st["declared_level_tolerance"])]
    if not len(near):
        return None
    zT = float(near.max() if target[2] is None else near[np.argmin(np.abs(near - target[2]))])
    if abs(zT - float(start[2])) <= ctx.step + 1e-9:
        return None
    grid = reachable(ctx.world, model, "walk", settings=overrides, speed=max(spd, allowance))
    if grid.reason:
        return None
    g = grid._static
    P = g.node_xyz
    kmax = g.z.shape[0]
    cost = grid.cost.reshape(kmax, -1)[g.node_slot, g.node_cell]
    Zc = g.z[:, g.node_cell]                       # (kmax, n) every stance in each node's cell
    with np.errstate(invalid="ignore"):
        below = np.any(Zc < P[:, 2] - ctx.step - 1e-9, axis=0)
        above = np.any(Zc > P[:, 2] + ctx.step + 1e-9, axis=0)
    up = zT > float(start[2])
    # scenery over a foot going up (an overhang), open ground under one going down (a
    # ledge over a set-back face); the top or the landing must have none
    hangs, open_top = (above, below) if up else (below, above)
    A = (np.abs(P[:, 2] - zT) <= float(st["level_tolerance"])) & ~open_top
    if not _climbs(ctx):
        # (no foot of an unscalable piece: only the Climbing skill gets onto it)
        A &= ~np.isin(g.node_piece, list(_unscalable_pieces(ctx.world, st)))
    B = np.isfinite(cost) & ((P[:, 2] < zT - ctx.step) if up else (P[:, 2] > zT + ctx.step))
    if not A.any() or not B.any():
        return None
    b = np.nonzero(B)[0]
    res = float(g.res)
    # at the face: a node on the level next to it (the top's nodes reach a base's radius
    # out over its edge), the climb made toward it
    a_nodes = np.nonzero(A)[0]
    dA, iA = cKDTree(P[a_nodes, :2]).query(P[b, :2], distance_upper_bound=2 * res + 1e-6)
    keep = np.isfinite(dA)
    b, G = b[keep], a_nodes[iA[keep]]
    # an overhang's depth, from the node climbed to (out to open sky going up, back to the
    # face under the ledge going down), on the foot's level: at most the base's width,
    # crossed both ways
    pen = np.zeros(len(b))
    if hangs[b].any():
        O = np.nonzero(~hangs)[0]
        k = np.nonzero(hangs[b])[0]
        lift = np.array([1.0, 1.0, 10.0])          # (the same level: a step's height apart is far)
        depth, _ = cKDTree(P[O] * lift).query(np.column_stack([P[G[k], :2], P[b[k], 2]]) * lift)
        pen[k] = np.where(depth <= 2 * ctx.R + 2 * res, 2 * depth, np.inf)
    est = (cost[b] + np.abs(zT - P[b, 2]) + np.hypot(*(P[G, :2] - P[b, :2]).T)
           + np.hypot(P[G, 0] - target[0], P[G, 1] - target[1]) + pen)
    keep = np.isfinite(est)
    b, G, est = b[keep], G[keep], est[keep]
    order = np.argsort(est, kind="stable")
    ok = est[order] <= allowance + 0.3             # (the grid's costs are within 0.3" of the path check's)
    tries = []
    for n, m, e in zip(b[order[ok]], G[order[ok]], est[order[ok]]):
        if any(np.hypot(*(P[n, :2] - np.asarray(f[:2]))) < _ROUTE_SPACING and abs(P[n, 2] - f[2]) <= ctx.step
               for f, _, _ in tries):
            continue
        tries.append((tuple(float(v) for v in P[n]), (float(P[m, 0]), float(P[m, 1]), zT), float(e)))
        if len(tries) >= _ROUTE_TRIES:
            break
    past = order[~ok]
    cheapest = (float(P[b[past[0]], 0]), float(P[b[past[0]], 1]), float(est[past[0]])) if len(past) else None
    return grid, zT, tries, cheapest


def _area_costs(ctx, route):
    """Multiply each segment's cost by the areas it touches (and, across, by the narrow surfaces)."""
    st = ctx.st
    if len(route.pts) < 2:
        return route, []
    route = _split_at_area_edges(ctx, route)
    mid = 0.5 * (route.pts[:-1] + route.pts[1:])
    touched_ids = _area_touches(ctx, route)
    # each piece lies on one side of an area's edge (the route is cut there, a climb or a
    # ladder where the base leaves the area's heights): its middle says which (a climb out
    # of a mud strip pays two per inch only while in the mud, not its ends' mean)
    f_area, _ = _area_factor(ctx.areas, mid[:, :2], mid[:, 2], ctx.R, st)
    narrow = _narrow_factor(ctx, mid)
    fac = _combine(f_area, narrow, stack=st["stack_costs"])
    kinds = np.array(route.kinds)
    # vertical ladder/climb segments keep their own rate (ladder: x2 already) and pay for
    # areas as the costs combine: the dearest applies (a ladder in mud costs two, not four)
    # unless stack_costs
    rate = np.where(kinds == "ladder", float(st["ladder_cost"]), 1.0)
    fac = np.where(kinds == "move", fac, _combine(rate, f_area, stack=st["stack_costs"]) / rate)
    return _Route(route.pts, route.costs * fac, route.kinds, route.support), touched_ids


def _area_touches(ctx, route):
    """[(area piece id, s)]: each half-speed area the base touches at a vertex of the route,
    with the length along the route where it first touches it (in the areas' order).

    The route is cut where the area factor changes (``_split_at_area_edges``), so the
    first vertex inside is mostly the edge already; where it is not (an area entered
    while in another one, a climb or a ladder into it) the piece before it is bisected
    for this area alone. A move that stops before ``s`` has not crossed the area."""
    st = ctx.st
    P = route.pts
    _, touched = _area_factor(ctx.areas, P[:, :2], P[:, 2], ctx.R, st)
    out = []
    tol = float(st["bisection_tolerance"])
    for a, inside in touched:
        v = int(np.argmax(inside))
        s = float(route.s[v])
        if v > 0 and route.s[v] - route.s[v - 1] > tol:
            A, B = P[v - 1], P[v]

            def hit(t, A=A, B=B, a=a):
                q = A + t * (B - A)
                return bool(_area_factor([a], q[None, :2], q[None, 2], ctx.R, st)[1])
            L = float(route.s[v] - route.s[v - 1])
            t = _bisect(hit, 0.0, 1.0, tol / L)
            s = float(route.s[v - 1] + t * L)
        out.append((a.piece, s))
    return out


def _split_at_area_edges(ctx, route):
    """The route with a vertex where the base starts or stops touching a half-speed
    area within a piece of it (across, or a climb or a ladder up or down; found by
    bisection), so that each inch is paid at its own rate: a player measures the
    2-per-inch part from the edge, not from the sample after it."""
    st = ctx.st
    if not ctx.areas or len(route.pts) < 2:
        return route
    A, B = route.pts[:-1], route.pts[1:]
    fa, _ = _area_factor(ctx.areas, A[:, :2], A[:, 2], ctx.R, st)
    fb, _ = _area_factor(ctx.areas, B[:, :2], B[:, 2], ctx.R, st)
    L = np.linalg.norm(B - A, axis=1)
    k = np.nonzero((fa != fb) & (L > 0))[0]
    if not len(k):
        return route
    lo, hi = np.zeros(len(k)), np.ones(len(k))
    tol = float(st["bisection_tolerance"])
    while np.any((hi - lo) * L[k] > tol):
        t = 0.5 * (lo + hi)
        P = A[k] + t[:, None] * (B[k] - A[k])
        f, _ = _area_factor(ctx.areas, P[:, :2], P[:, 2], ctx.R, st)
        same = f == fa[k]
        lo, hi = np.where(same, t, lo), np.where(same, hi, t)
    cut = dict(zip(k.tolist(), hi.tolist()))
    pts, costs, kinds, support = [route.pts[0]], [], [], [route.support[0]]
    for i in range(len(route.costs)):
        t = cut.get(i)
        if t is not None and 0.0 < t < 1.0:
            pts.append(A[i] + t * (B[i] - A[i]))
            costs += [route.costs[i] * t, route.costs[i] * (1.0 - t)]
            kinds += [route.kinds[i], route.kinds[i]]
            support.append(route.support[i + 1])
        else:
            costs.append(route.costs[i])
            kinds.append(route.kinds[i])
        pts.append(B[i])
        support.append(route.support[i + 1])
    return _Route(pts, costs, kinds, support)


def _narrow_factor(ctx, pts):
    """Cost factor for surfaces narrower than the base, from the cached grid (x narrow_cost).

    The table's grid (the reachable area's) where it fits in ``_MAX_CELLS``; on a larger
    table, blocks of it around the points (``_narrow_blocks``: the same cells, the same
    answers), so that a move is checked on any table ``eldfall check`` accepts."""
    st = ctx.st
    res = float(st["resolution"])
    W, D = ctx.world.table
    nx, ny = int(math.ceil(W / res - 1e-9)), int(math.ceil(D / res - 1e-9))
    out = np.ones(len(pts))
    if not len(pts):
        return out
    ix = np.clip((pts[:, 0] / res).astype(int), 0, nx - 1)
    iy = np.clip((pts[:, 1] / res).astype(int), 0, ny - 1)
    if nx * ny <= _MAX_CELLS:
        blocks = [(_static(ctx.world, ctx.R, ctx.h, res, st), np.arange(len(pts)))]
    else:
        blocks = _narrow_blocks(ctx.world, ctx.R, ctx.h, res, st, ix, iy)
    tol = float(st["level_tolerance"])
    for g, k in blocks:
        if not g.narrow.any():
            continue
        cell = (iy[k] - g.j0) * g.nx + (ix[k] - g.i0)
        zc = g.z[:, cell]                      # (kmax, n)
        match = np.abs(zc - pts[k, 2][None, :]) <= tol
        nar = np.any(match & g.narrow[:, cell], axis=0)
        out[k] = np.where(nar, float(st["narrow_cost"]), 1.0)
    return out


@dataclass
class _NarrowGrid:
    """The levels ``z`` and narrow surfaces ``narrow`` (kmax, nx * ny) of a block of the
    table's cells whose first cell is (i0, j0) (``_build_static`` with a window)."""
    res: float
    i0: int
    j0: int
    nx: int
    ny: int
    z: np.ndarray
    narrow: np.ndarray


_NARROW_BLOCK = 128        # cells a side of the blocks a large table's narrow surfaces are read in


def _narrow_pad(R, res, st) -> int:
    """Cells around a cell that its levels and narrow surface depend on: its base's
    clearance (radius plus the grid margin), the bases that cover its supports (a
    radius) and theirs (a radius), and one more."""
    margin = res * math.sqrt(0.5) if st["grid_margin"] == "auto" else float(st["grid_margin"])
    return 2 * int(math.ceil(R / res)) + int(math.ceil((R + margin) / res)) + 2


def _narrow_block(world, R, h, res, st, bx, by) -> _NarrowGrid:
    """Block (bx, by) of ``_NARROW_BLOCK`` cells a side, read with ``_narrow_pad`` cells
    around it (cut at the table's edges), kept per world."""
    c = _world_cache(world)
    key = ("narrow-block", round(R, 6), round(h, 6), round(res, 6), _st_key(st), bx, by)
    if key not in c:
        W, D = world.table
        nx, ny = int(math.ceil(W / res - 1e-9)), int(math.ceil(D / res - 1e-9))
        pad, B = _narrow_pad(R, res, st), _narrow_block_side(R, res, st)
        i0, j0 = max(0, bx * B - pad), max(0, by * B - pad)
        i1, j1 = min(nx, (bx + 1) * B + pad), min(ny, (by + 1) * B + pad)
        c[key] = _build_static(world, R, h, res, st, window=(i0, j0, i1 - i0, j1 - j0))
    return c[key]


def _narrow_block_side(R, res, st) -> int:
    """Cells a side of the blocks (with their pads within ``_MAX_CELLS``); 0: none fits."""
    room = int(math.isqrt(_MAX_CELLS)) - 2 * _narrow_pad(R, res, st)
    return max(0, min(_NARROW_BLOCK, room))


def _narrow_blocks(world, R, h, res, st, ix, iy):
    """[(block grid, indices of the cells (ix, iy) it answers for)]."""
    B = _narrow_block_side(R, res, st)
    if B < 1:
        raise InputError(Problem("<move>", None, "model",
                                 f"a base {2 * R:.2f}\" wide is too large for the narrow-surface grid on "
                                 f"a {world.table[0]:g}\" x {world.table[1]:g}\" table (more than "
                                 f"{_MAX_CELLS} cells of {res:g}\" around it): give the model a smaller "
                                 f"base, or the table at most "
                                 f"{math.floor(res * math.sqrt(_MAX_CELLS)):g}\" a side"))
    key = (iy // B) * (1 << 31) + ix // B
    out = []
    for kk in np.unique(key):
        sel = np.nonzero(key == kk)[0]
        out.append((_narrow_block(world, R, h, res, st, int(ix[sel[0]] // B), int(iy[sel[0]] // B)), sel))
    return out


def _finish(ctx, model, mode, start, pts, spd, allowance, route, blocked,
            no_face=None) -> MoveResult:
    st = ctx.st
    route, areas_touched = _area_costs(ctx, route)
    tol = float(st["bisection_tolerance"])
    step = float(st["path_step"])
    L = route.length
    reason = ""
    legal = True
    stopped_by = None
    # enemies: the move ends at the first base contact
    s_end = L
    ctol = float(st["contact_tolerance"])
    for i in np.nonzero(ctx.enemy)[0]:
        hit = _enemy_contact(route, ctx.R, ctx.h, ctx.centers[i], ctx.radii[i], ctx.heights[i],
                             s_end, ctol, tol, step)
        if hit is not None and hit < s_end:
            s_end = hit
            stopped_by = ctx.ids[i]
    s_allow = route.s_of_cost(allowance + 1e-9)
    # an unscalable piece got onto, or an unscalable area entered, before the move stops
    # (allowance, contact, scenery): the route is barred there, at the foot of the rise or
    # the area's edge, whatever comes after it (a Climb cut short on the face is barred
    # where it hangs, as before)
    why_u, s_bar, s_onto = _unscalable_bar(ctx, route, s_end)
    if why_u and s_onto <= min(s_end, s_allow) + 1e-9:
        route, s_bar = _edge_of_rise(ctx, route, s_bar)
        s_end, s_allow, stopped_by, blocked = s_bar, route.s_of_cost(allowance + 1e-9), None, why_u
        L = route.length
    truncated = s_allow < s_end - 1e-9
    if truncated:
        stopped_by = None          # the allowance runs out before the contact
    s_fin = min(s_end, s_allow)
    end = tuple(float(v) for v in route.at(s_fin))
    dist = float(route.cost_at(s_fin))
    on_vertical = route.vertical_at(s_fin) or not _supported(ctx, np.array(end))
    if blocked and (stopped_by is None or s_end >= L - 1e-9) and not truncated:
        legal, reason = False, blocked
    elif truncated and not (mode == "climb" and on_vertical):
        legal = False
        if blocked:       # the route was followed only up to what blocks it
            reason = (f"{blocked}; the allowance of {allowance:g}\" runs out even before that "
                      f"(the route to there costs {inches_over(route.c[-1], allowance)}\")")
        else:
            reason = f"the route costs {inches_over(route.c[-1], allowance)}\" and the allowance is {allowance:g}\""
    elif truncated and _in_the_air(ctx, end):
        # cut short where no face holds the base (hanging from an overhang's edge by its
        # hitbox): a scene could not place it there (rulings "Climb down an overhang")
        legal = False
        reason = (f"the allowance of {allowance:g}\" runs out at ({end[0]:.2f}, {end[1]:.2f}, {end[2]:.2f}), "
                  f"under the overhang of {_ledge_piece(ctx, end[:2], _overhang_z(ctx, end))}, where the base "
                  f"touches no face (a Climb may end on a vertical surface, not in the air; the route "
                  f"costs {inches_over(route.c[-1], allowance)}\"): end the Climb before the edge, or Jump down")
    elif truncated:
        reason = "allowance spent: the model ends on a vertical surface"
    if legal and stopped_by is not None and not truncated:
        reason = f"stopped by base contact with {stopped_by}"
    # where the World rests the end (a slope: under the base centre; rulings "Where a
    # base rests"); the checks below judge the route's own end (its highest support)
    placed = end if on_vertical else _placed(ctx, end)
    # the declared level at the end (either height names it)
    if legal and stopped_by is None and not truncated and not blocked:
        tz = pts[-1][2]
        dtol = float(st["declared_level_tolerance"])
        if tz is not None and abs(end[2] - tz) > dtol and abs(placed[2] - tz) > dtol:
            legal = False
            reason = f"the route ends at z {placed[2] + 0.0:.2f}, not at the declared z {tz:g}"
            if no_face:
                reason += f": {no_face()}"
    if legal and on_vertical and mode != "climb":
        legal = False
        reason = "a Walk or Run cannot end on a vertical surface (a ladder)"
    if legal:
        why = _end_problems(ctx, np.array(end), allow_enemy_contact=stopped_by is not None) or \
            _unscalable_problem(ctx, route, s_fin)
        if why:
            legal, reason = False, why
    if legal and not reason:
        reason = "ok"
    ends_vertical = bool(on_vertical)
    opp = _entry_points(ctx, route, s_fin, "reach")
    aware = _entry_points(ctx, route, s_fin, "awareness")
    surfaces = _surface_ids(ctx, route, s_fin, areas_touched)
    path = [tuple(float(v) for v in p) for p in route.pts[route.s < s_fin - 1e-9]] + [placed]
    out = MoveResult(model, mode, legal, reason, dist, allowance, max(0.0, allowance - dist), placed,
                     surfaces, [], ends_vertical, stopped_by, opp, aware, path)
    out._legs_of = (route, s_fin)
    return out


def _edge_of_rise(ctx, route, s):
    """(route, s): where a route at vertex ``s`` steps up diagonally to the next sample (a
    step no taller than the hitbox), the route with a vertex where the base meets that
    step (bisected to bisection_tolerance, on its level), and its length; else unchanged."""
    i = int(np.argmin(np.abs(route.s - s)))
    if abs(route.s[i] - s) > 1e-9 or i + 1 >= len(route.pts):
        return route, s
    A, B = route.pts[i], route.pts[i + 1]
    if B[2] <= A[2] + _EPS or np.hypot(*(B[:2] - A[:2])) <= 1e-9:
        return route, s          # a climb or a ladder: already at the face
    t = _level_edge(ctx, A[:2], B[:2], float(A[2]), keep=True)
    if not 0.0 < t < 1.0:
        return route, s
    E = np.array([A[0] + t * (B[0] - A[0]), A[1] + t * (B[1] - A[1]), A[2]])
    pts = np.vstack([route.pts[:i + 1], E[None, :], route.pts[i + 1:]])
    c = float(route.costs[i])
    costs = np.concatenate([route.costs[:i], [c * t, c * (1.0 - t)], route.costs[i + 1:]])
    kinds = route.kinds[:i] + ["move", route.kinds[i]] + route.kinds[i + 1:]
    support = route.support[:i + 1] + [route.support[i]] + route.support[i + 1:]
    out = _Route(pts, costs, kinds, support)
    return out, float(out.s[i + 1])


def _legs(route, s_fin) -> list[dict]:
    """The route up to length s_fin in the parts a player measures: "across" (one per
    inch, or more on a slope), "across at 2 per inch" (a half-speed area, a narrow
    surface), "climb up"/"climb down" (its height) and "ladder up"/"ladder down" (its
    height, 2 per inch); consecutive parts of one kind are joined."""
    out: list[dict] = []
    for i, kind in enumerate(route.kinds):
        s0, s1 = float(route.s[i]), min(float(route.s[i + 1]), s_fin)
        if s0 >= s_fin - 1e-12:
            break
        if s1 <= s0 + 1e-12:
            continue
        a = route.pts[i]
        b = a + (s1 - s0) / (route.s[i + 1] - s0) * (route.pts[i + 1] - a)
        cost = float(route.cost_at(s1) - route.cost_at(s0))
        plan = float(np.hypot(b[0] - a[0], b[1] - a[1]))
        rise = float(b[2] - a[2])
        if kind in ("climb", "ladder"):
            label, length = f"{kind} {'up' if rise > 0 else 'down'}", abs(rise)
        elif kind == "under":
            # hanging under an overhang, from its edge back to the face under it
            label, length = "across under the overhang", plan
        else:
            # a slope costs at most 2 per inch of plan (60 degrees); an area or a narrow
            # surface doubles that
            label = "across" if plan <= 1e-9 or cost / plan < 1.95 else "across at 2 per inch"
            length = plan
        if out and out[-1]["kind"] == label:
            out[-1]["length"] += length
            out[-1]["cost"] += cost
        else:
            out.append({"kind": label, "length": length, "cost": cost})
    return [g for g in out if g["length"] > 5e-4 or g["cost"] > 5e-4]


def _hanging(ctx, p) -> bool:
    """The model at p is not standing on anything (the World would not rest it there).

    On a slope the World rests a base by its centre (where a move ends too,
    ``_rest_z``) and this module's routes by its highest support: both count as
    standing.
    """
    try:
        zw = float(ctx.world.stand_z(float(p[0]), float(p[1]), ctx.R, near_z=float(p[2])))
    except Exception:  # noqa: BLE001 - a World without stand_z: trust the stances
        return True
    return abs(zw - float(p[2])) > float(ctx.st["level_tolerance"])


def _rest_z(world, R, st, xy, zs) -> np.ndarray:
    """(n,) where the World rests a base of radius R at each (x, y) of ``xy`` (n, 2) that
    this module stands at ``zs`` (n,), its highest support (rulings "Where a base
    rests"): on a slope, at the slope's height under the base centre (as
    ``World.stand_z``); on another level than the centre's (a base half over a step,
    the highest support reached from the centre's surface only across a face steeper
    than ``max_slope_deg``), at ``zs``. Only where a move or the reachable area ends:
    routes, costs and clearance keep the highest support."""
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    zs = np.asarray(zs, dtype=float).reshape(-1)
    out = zs.copy()
    if not len(xy) or not hasattr(world, "surface_height"):
        return out
    try:
        from engine.world import LEVEL_TOLERANCE as _LT
    except ImportError:  # pragma: no cover
        _LT = 0.05
    fin = np.isfinite(zs)
    if not fin.any():
        return out
    below = zs - _LT + 1e-3                       # surfaces at or below zs (+ 0.001)
    zc = np.full(len(xy), -np.inf)
    zc[fin] = world.surface_height(xy[fin], below=below[fin])
    cand = np.nonzero(fin & np.isfinite(zc) & (zs - zc > 1e-3))[0]
    if not len(cand):
        return out
    pat = _disc_pattern(R, float(st["disc_step"]))
    m = len(pat)
    P = (xy[cand, None, :] + pat[None, :, :]).reshape(-1, 2)
    hp = world.surface_height(P, below=np.repeat(below[cand], m)).reshape(len(cand), m)
    # the highest support under the base at or below zs (the reachable grid's levels may
    # lie a little above it: a cell's stance is taken over the cell)
    with np.errstate(invalid="ignore"):
        top = np.max(np.where(np.isfinite(hp), hp, -np.inf), axis=1)
    sup = np.isfinite(hp) & (hp >= top[:, None] - 1e-3)
    has = np.isfinite(top) & (top - zc[cand] > 1e-3)
    dist = np.where(sup, np.hypot(pat[None, :, 0], pat[None, :, 1]), np.inf)
    k = np.argmin(dist, axis=1)                   # the nearest of the highest supports
    # the surface from the centre to that support: a slope (no rise steeper than
    # max_slope_deg between samples 0.02" apart) or a step (a face between)
    S = max(2, int(math.ceil(R / 0.02)) + 1)
    t = np.linspace(0.0, 1.0, S)
    seg = xy[cand, None, :] + t[None, :, None] * pat[k][:, None, :]
    hs = world.surface_height(seg.reshape(-1, 2), below=np.repeat(below[cand], S)).reshape(len(cand), S)
    ds = np.hypot(pat[k, 0], pat[k, 1]) / (S - 1)
    tan_max = math.tan(math.radians(float(st["max_slope_deg"])))
    with np.errstate(invalid="ignore"):
        smooth = np.all(np.isfinite(hs), axis=1) & \
            np.all(np.abs(np.diff(hs, axis=1)) <= tan_max * ds[:, None] + 1e-4, axis=1)
    slope = has & smooth
    out[cand[slope]] = zc[cand[slope]]
    return out


def _placed(ctx, p) -> tuple:
    """A standing end p (x, y, z at its highest support) where the World rests it."""
    z = float(_rest_z(ctx.world, ctx.R, ctx.st, np.array([p[:2]], dtype=float), np.array([p[2]], dtype=float))[0])
    return (float(p[0]), float(p[1]), z)


def _supported(ctx, p) -> bool:
    """A base at p (3,) rests on a surface (not hanging on a vertical one)."""
    lo, hi, std, nrm, piece = ctx.layers(p[None, :2])
    s = _stances(lo, hi, std, ctx.h, 4)[0]
    s = s[np.isfinite(s)]
    return bool(len(s)) and float(np.min(np.abs(s - p[2]))) <= float(ctx.st["level_tolerance"])


def _end_problems(ctx, end, allow_enemy_contact=False) -> str:
    st = ctx.st
    W, D = ctx.world.table
    if st["base_inside_table"]:
        if not (ctx.R - 1e-6 <= end[0] <= W - ctx.R + 1e-6 and ctx.R - 1e-6 <= end[1] <= D - ctx.R + 1e-6):
            return "the base would end partly off the table"
    if len(ctx.ids):
        ov = _overlap(end[None, :], ctx.R, ctx.h, ctx.centers, ctx.radii, ctx.heights,
                      tol=float(st["contact_tolerance"]))
        for i in np.nonzero(ov)[0]:
            what = "a Dead model" if ctx.dead[i] else ("enemy" if ctx.enemy[i] else "ally")
            return f"the hitbox would end inside {what} {ctx.ids[i]}"
    return ""


def _entry_points(ctx, route, s_max, what):
    out = []
    tol = float(ctx.st["bisection_tolerance"])
    for i in np.nonzero(ctx.enemy & (ctx.attacks if what == "reach" else ctx.reactive))[0]:
        limit = ctx.reach[i] if what == "reach" else ctx.aware[i]
        limit = limit if limit > 0 else 1e-6      # RCH 0: base contact
        fn = lambda P, i=i: hitbox_distance(P, ctx.R, ctx.h, ctx.centers[i], ctx.radii[i], ctx.heights[i])  # noqa: E731
        # inside from the start, as the World measures reach and contact (its 0.001"
        # tolerance): a base that starts touching (0.0005" apart) does not enter the enemy's
        # reach by moving up to it
        if float(fn(route.pts[:1])[0]) <= max(float(limit), 0.0) + float(ctx.st["contact_tolerance"]):
            continue  # inside from the start: the route does not enter it
        for s in _first_entries(route, fn, limit, s_max, tol, float(ctx.st["path_step"])):
            out.append(PathPoint(ctx.ids[i], tuple(float(v) for v in route.at(s))))
    out.sort(key=lambda p: p.enemy)
    return out


def _surface_ids(ctx, route, s_max, areas_touched):
    seen = []
    names = [p.id for p in ctx.world.pieces]
    for s, pc in zip(route.s, route.support):
        if s > s_max + 1e-9:
            break
        if pc >= 0 and names[pc] not in seen:
            seen.append(names[pc])
    for a, s in areas_touched:
        # only the areas the base has touched where the move stops (not those further
        # along the declared route)
        if s <= s_max + 1e-9 and a not in seen:
            seen.append(a)
    for s, k in zip(route.s[:-1], route.kinds):
        if k == "ladder" and s <= s_max:
            p = route.at(s)
            li = ctx.ladder_at(p[None, :2], np.array([p[2]]), np.array([p[2]]))[0]
            if li >= 0 and ctx.ladders[li].piece not in seen:
                seen.append(ctx.ladders[li].piece)
    return seen


# ----------------------------------------------------------------------------- jump
_MAX_APEX = 1000.0      # inches: far above any table, and the flight's samples stay bounded


def _jump(ctx, model, start, pts, spd, allowance) -> MoveResult:
    st = ctx.st
    h, R = ctx.h, ctx.R
    env = _touching_tags(ctx, np.array(start))
    nj = sorted(env & set(st["no_jump_areas"]))
    if nj:
        return MoveResult(model, "jump", False, f"no Jump from a {nj[0]} area", 0.0, allowance, allowance,
                          start, path=[start])
    # the start: on its stance (the flight leaves a slope from its highest support)
    l0, h0, s0_, _, _ = ctx.layers(np.array([start[:2]]))
    st0 = _stances(l0, h0, s0_, h, 4)[0]
    st0 = st0[np.isfinite(st0)]
    if len(st0):
        z0 = float(st0[np.argmin(np.abs(st0 - start[2]))])
        if abs(z0 - start[2]) <= float(st["level_tolerance"]) or not _hanging(ctx, start):
            start = (start[0], start[1], z0)
    arc = float(st["arc_apex"]) if st["jump_shape"] == "arc" else None
    # resolve the heights of the waypoints
    full = [start]
    for k, p in enumerate(pts):
        if k < len(pts) - 1:
            full.append(p if p[2] is not None else (p[0], p[1], full[-1][2]))
            continue
        if p[2] is not None:
            zt = float(p[2])
        else:
            lo, hi, std, nrm, piece = ctx.layers(np.array([p[:2]]))
            s = _stances(lo, hi, std, h, 4)[0]
            s = s[np.isfinite(s)]
            zt = float(s[np.argmin(np.abs(s - start[2]))]) if len(s) else start[2]
        if len(pts) == 1 and arc is None and zt < start[2] - float(st["level_tolerance"]):
            # a jump down: across, then down, whether the target's height is given or
            # not (a falling straight line would go through the surface the model
            # stands on; an arc rises first)
            full.append((p[0], p[1], start[2]))
        full.append((p[0], p[1], zt))
    target = np.array(full[-1], dtype=float)
    if arc is not None and not 0 <= arc <= _MAX_APEX:
        raise InputError(Problem("<move>", None, "arc_apex", f"the arc's apex must be 0 to {_MAX_APEX:g}\" "
                                 f"above the higher end, got {arc:g}"))
    if arc is not None and len(full) == 2:
        a = np.array(start, dtype=float)
        t = np.linspace(0.0, 1.0, 65)
        line = a[None, :] + (target - a)[None, :] * t[:, None]
        # the parabola through both ends whose top is `arc` above the higher end
        # (4 x the rise over the ends' mean is that only for ends at one height)
        top = max(a[2], target[2]) + float(arc)
        line[:, 2] += (math.sqrt(top - a[2]) + math.sqrt(top - target[2])) ** 2 * t * (1.0 - t)
        rpts = line
    else:
        rpts = np.array(full, dtype=float)
    seg = np.linalg.norm(np.diff(rpts, axis=0), axis=1)
    route = _Route(rpts, seg, ["jump"] * len(seg), [-1] * len(rpts))
    tol = float(st["bisection_tolerance"])
    step = float(st["path_step"])
    # collisions of the flying hitbox with the terrain (the standing start is not one), up
    # to the allowance: the flight never goes farther (however high an arc is asked)
    # (a thin piece at the flight's own level, within the level tolerance above and below
    # it: a mat or a tile that a base stands on as the level under it, is flown over; it
    # stops no jump. Anything else is met exactly: a wall top the flight comes down on.)
    ltol = float(st["level_tolerance"])

    def flown(lo, hi, z):
        a = np.asarray(z, dtype=float)[:, None]
        meet = (lo < a + h - _EPS) & (hi > a + _EPS)
        thin = (lo >= a - ltol) & (hi <= a + ltol)
        return ~np.any(meet & ~thin, axis=1)
    s, P = route.dense(step, allowance + step)
    lo, hi, std, nrm, piece = ctx.layers(P[:, :2])
    free = flown(lo, hi, P[:, 2])
    s_hit = route.length
    bad = np.nonzero(~free)[0]
    bad = bad[s[bad] > 1e-9]
    if len(bad):
        k = int(bad[0])

        def collides(q):
            pt = route.at(np.array([q]))
            l2, h2, *_ = ctx.layers(pt[:, :2])
            return not bool(flown(l2, h2, pt[:, 2])[0])
        s_hit = _bisect(collides, float(s[k - 1]), float(s[k]), tol)
        s_hit = max(0.0, s_hit - tol)
    # enemies stop the flight at contact
    stopped_by = None
    ctol = float(st["contact_tolerance"])
    # (searched only as far as the flight goes: contact beyond the allowance does not
    # stop it, and a target far up in the air is no reason to sample the whole route)
    s_stop = min(s_hit, allowance)
    for i in np.nonzero(ctx.enemy)[0]:
        e = _enemy_contact(route, R, h, ctx.centers[i], ctx.radii[i], ctx.heights[i], s_stop, ctol, tol, step)
        if e is not None and e <= s_stop:
            s_stop, stopped_by = e, ctx.ids[i]
    s_fin = min(s_stop, allowance, route.length)
    Pend = route.at(np.array([s_fin]))[0]
    reached = s_fin >= route.length - 1e-9
    hit = ""          # the scenery that stops the flight short of its target ("" when none does)
    if not reached and stopped_by is None and s_hit <= s_fin + 1e-9:
        Q = route.at(np.array([min(route.length, s_hit + 2 * tol)]))
        lq, hq, _, _, pq = ctx.layers(Q[:, :2])
        inside = (lq[0] < Q[0, 2] + h - _EPS) & (hq[0] > Q[0, 2] + _EPS) & (pq[0] >= 0)
        hit = ctx.world.pieces[int(pq[0][np.argmax(inside)])].id if inside.any() else "scenery"
    falls: list[Fall] = []
    reason = "ok"
    landed = None
    lo1, hi1, std1, nrm1, pc1 = ctx.layers(Pend[None, :2])
    stances = _stances(lo1, hi1, std1, h, 4)[0]
    stances = stances[np.isfinite(stances)]
    zt = float(target[2])
    if reached and len(stances) and np.min(np.abs(stances - Pend[2])) <= float(st["level_tolerance"]):
        landed = np.array([Pend[0], Pend[1], float(stances[np.argmin(np.abs(stances - Pend[2]))])])
    elif stopped_by is None:
        pull = _pull_up(ctx, Pend, target, zt)
        if pull is not None:
            landed = pull
            reason = "pulled up onto the edge"
    if landed is None:
        below = stances[stances <= Pend[2] + ltol + 1e-3]      # a lip the flight skimmed is under it
        if len(below) == 0:
            return MoveResult(model, "jump", False, "nowhere to land under the end of the jump", float(s_fin),
                              allowance, max(0.0, allowance - s_fin), tuple(float(v) for v in Pend),
                              path=[tuple(map(float, p)) for p in route.pts[route.s < s_fin]] + [tuple(Pend)])
        zl = float(below.max())
        height = max(0.0, float(Pend[2] - zl))
        landed = np.array([Pend[0], Pend[1], zl])
        if height > float(st["level_tolerance"]):
            _, pc = ctx.support(hi1, nrm1, pc1, np.array([zl]))
            onto = ctx.world.pieces[int(pc[0])].id if pc[0] >= 0 else None
            rolls = fall_rolls(height, spd, st["fall_interval_round_up"])
            falls.append(Fall(height, rolls, onto, tuple(float(v) for v in landed)))
            reason = f"falls {height:.2f}\" ({rolls} AG roll{'s' if rolls != 1 else ''})"
            if stopped_by is not None:
                reason = f"stopped by base contact with {stopped_by}; " + reason
            elif hit:
                reason = f"hits {hit} {s_fin:.2f}\" into the jump and " + reason
        elif stopped_by is not None:
            reason = f"stopped by base contact with {stopped_by}"
        elif hit:
            # it came down onto the piece it hit (its top), or stopped against its side
            pl = _piece_under(ctx, landed)
            on_it = pl >= 0 and ctx.world.pieces[pl].id == hit
            reason = f"hits {hit} {s_fin:.2f}\" into the jump: lands {'on it' if on_it else 'at its foot'}"
        elif not reached:
            reason = "fell short: lands at the end of its half SPD"
    # where the World rests the landing (a slope: under the base centre; rulings "Where
    # a base rests"); the checks and the fall's height judge the highest support
    placed = np.array(_placed(ctx, landed), dtype=float)
    falls = [f._replace(at=tuple(float(v) for v in placed)) for f in falls]
    legal = True
    pts_path = [tuple(map(float, p)) for p in route.pts[route.s < s_fin - 1e-9]] + [tuple(map(float, Pend))]
    if np.linalg.norm(landed - Pend) > 1e-6:
        pts_path.append(tuple(map(float, landed)))
    r2 = _Route(np.array(pts_path), np.zeros(len(pts_path) - 1), ["jump"] * (len(pts_path) - 1), [-1] * len(pts_path))
    why = _end_problems(ctx, landed, allow_enemy_contact=stopped_by is not None)
    if why and falls and len(ctx.ids):
        # a fall that would come down on a model: onto it, not onto the surface under it
        ov = np.nonzero(_overlap(landed[None, :], R, h, ctx.centers, ctx.radii, ctx.heights,
                                 tol=float(st["contact_tolerance"])))[0]
        if len(ov):
            k = int(ov[0])
            what = "Dead model" if ctx.dead[k] else ("enemy" if ctx.enemy[k] else "ally")
            falls = [f._replace(onto=ctx.ids[k]) for f in falls]
            why = (f"it would fall {falls[0].height:.2f}\" onto {what} {ctx.ids[k]}"
                   + (f" ({reason.split(' and falls')[0]})" if reason.startswith("hits ") else "")
                   + f": the hitbox would end inside {ctx.ids[k]}'s")
    if not why and not _climbs(ctx):
        # into an unscalable area: where the base flies and falls (a jump high over an
        # area's strip does not touch it); onto an unscalable piece (up, by a pull-up or a
        # jump landing higher): the landing as a route from the start
        why = _unscalable_problem(ctx, r2, r2.length) or \
            _unscalable_problem(ctx, _Route(np.array([start, landed]), [0.0], ["jump"],
                                            [_piece_under(ctx, np.array(start)), _piece_under(ctx, landed)]),
                                float(np.linalg.norm(landed - np.array(start))), areas=False)
    if why:
        legal, reason = False, why
    if np.linalg.norm(placed - landed) > 1e-9:
        pts_path[-1] = tuple(map(float, placed))
    opp = _entry_points(ctx, r2, r2.length, "reach")
    aware = _entry_points(ctx, r2, r2.length, "awareness")
    pc = _piece_under(ctx, landed)
    surfaces = [ctx.world.pieces[pc].id] if pc >= 0 else []
    return MoveResult(model, "jump", legal, reason, float(s_fin), allowance, max(0.0, allowance - s_fin),
                      tuple(float(v) for v in placed), surfaces, falls, False, stopped_by, opp, aware, pts_path)


def _touching_tags(ctx, p) -> set:
    tags = set()
    for a in ctx.areas:
        if _within(a.poly, p[None, :2], ctx.R + _EPS)[0] and a.zlo - 0.05 <= p[2] <= a.zhi + 0.05:
            tags |= set(a.tags)
    return tags


def _pull_up(ctx, P, target, zt):
    """Pull-up: the top of the hitbox reaches the target surface's level and the base reaches its edge.

    Returns the landing point on the edge, or None.
    """
    st = ctx.st
    ltol = float(st["level_tolerance"])
    if zt <= P[2] + ltol or P[2] + ctx.h < zt - ltol:
        return None   # only up onto a higher surface, and the top of the hitbox must reach it
    reach = float(st["pull_up_reach"])
    # the ledge must be under the base or within `reach` of its edge, at level zt
    ring = _disc_pattern(ctx.R + reach, float(st["disc_step"]))
    lo, hi, nrm, piece = ctx.cols.probe(P[None, :2] + ring)
    std = nrm[..., 2] >= ctx.cols.min_nz - 1e-9
    if not np.any((np.abs(hi - zt) <= ltol) & std):
        return None
    # the first place toward the target where the base rests on that level
    u = target[:2] - P[:2]
    nu = float(np.linalg.norm(u))
    u = u / nu if nu > 1e-9 else np.zeros(2)
    ts = np.arange(0.0, 2 * ctx.R + reach + 0.02, 0.02)
    cand = P[None, :2] + ts[:, None] * u[None, :]
    lo, hi, std, nrm, piece = ctx.layers(cand)
    stn = _stances(lo, hi, std, ctx.h, 4)
    with np.errstate(invalid="ignore"):
        hit = np.nanmin(np.where(np.isfinite(stn), np.abs(stn - zt), np.inf), axis=1) <= ltol
    if not hit.any():
        return None
    # placed on the edge: the first spot where the whole base is on that surface,
    # else the first where it rests on it
    on = (np.abs(hi - zt) <= ltol) & std
    whole = hit & np.all(on.reshape(len(cand), len(ctx.pattern), -1).any(axis=2), axis=1)
    k = int(np.argmax(whole)) if whole.any() else int(np.argmax(hit))
    zz = stn[k][np.nanargmin(np.abs(stn[k] - zt))]
    return np.array([cand[k, 0], cand[k, 1], float(zz)])


def fall(world, model: str, height: float, speed: float | None = None, settings: dict | None = None) -> Fall:
    """The AG rolls a fall of ``height`` costs ``model`` (its effective SPD)."""
    st = globals()["settings"](settings)
    hb = world.hitbox(model)
    spd = effective_spd(hb, st, speed, getattr(getattr(world, "scene", None), "path", None))
    return Fall(float(height), fall_rolls(height, spd, st["fall_interval_round_up"]), None,
                (float(hb.x), float(hb.y), float(hb.z)))


# ----------------------------------------------------------------------------- the static grid
@dataclass
class _Static:
    """Walkability layers of one world for one base (radius, height) at one resolution."""
    i0 = 0                 # (the whole table: its first cell is the table's)
    j0 = 0
    res: float
    nx: int
    ny: int
    z: np.ndarray          # (kmax, N) stance heights, NaN none
    valid: np.ndarray      # (kmax, N)
    narrow: np.ndarray     # (kmax, N)
    unscalable: np.ndarray  # (kmax, N)
    node: np.ndarray       # (kmax, N) -> node index or -1
    node_slot: np.ndarray
    node_cell: np.ndarray
    node_xyz: np.ndarray   # (n, 3)
    node_mult: np.ndarray  # (n,) area x narrow factor
    node_piece: np.ndarray  # (n,) index into world.pieces of the support (-1 unknown)
    esrc: np.ndarray
    edst: np.ndarray
    ew: np.ndarray
    build_ms: float = 0.0
    _graph: "_Graph | None" = field(default=None, repr=False)
    # (n,) where the World rests a base ending at each node (``_rest_z``: a slope under
    # the base centre), worked out as ends are asked for; NaN not yet
    place_z: "np.ndarray | None" = field(default=None, repr=False)
    # (n,) every column under a base at the node is a standable top at its level (a
    # step between two such nodes never leaves the base over a drop); None: unknown
    node_full: "np.ndarray | None" = field(default=None, repr=False)

    def graph(self) -> "_Graph":
        """The static edges as a canonical CSR graph (built once, on first use)."""
        if self._graph is None:
            import time
            t0 = time.perf_counter()
            self._graph = _Graph(self)
            self.build_ms += (time.perf_counter() - t0) * 1000.0
        return self._graph


def _edge_slots(indptr: np.ndarray, nodes: np.ndarray) -> np.ndarray:
    """The positions indptr[v]:indptr[v+1] of every node v in ``nodes``, concatenated."""
    lo = indptr[nodes]
    cnt = indptr[nodes + 1] - lo
    tot = int(cnt.sum())
    if tot == 0:
        return np.zeros(0, dtype=np.int64)
    ends = np.cumsum(cnt)
    return np.arange(tot, dtype=np.int64) + np.repeat(lo - (ends - cnt), cnt)


class _Graph:
    """The static edges of a :class:`_Static` in canonical CSR order (rows by source,
    columns sorted within a row, duplicates summed: exactly the matrix scipy builds
    from them), with one empty row more for the query's virtual source; and the
    edges by destination, to find every edge touching a set of nodes."""

    def __init__(self, g: _Static):
        from scipy.sparse import csr_matrix
        n = len(g.node_xyz)
        self.n = n
        w = np.maximum(g.ew, 1e-12)
        m = csr_matrix((w, (g.esrc, g.edst)), shape=(n + 1, n + 1))
        m.sum_duplicates()
        m.sort_indices()
        self.indptr = m.indptr.astype(np.int64)
        self.dst = m.indices.astype(np.int32)
        self.w = np.asarray(m.data, dtype=float)
        self.src = np.repeat(np.arange(n + 1, dtype=np.int32), np.diff(self.indptr))
        # the edges by destination, each destination's in source order (a stable sort by
        # destination): scipy's CSR -> CSC conversion of the edges' positions, a counting sort
        pos = csr_matrix((np.arange(len(self.dst), dtype=np.int64), m.indices, m.indptr), shape=m.shape).tocsc()
        self.in_order = pos.data.astype(np.int32)
        self.in_indptr = pos.indptr.astype(np.int64)
        self._xy = np.vstack([g.node_xyz[:, :2], np.zeros((1, 2))])
        self._onto: dict = {}

    def half_len(self, edges: np.ndarray) -> np.ndarray:
        """Half the plan length of each of ``edges`` (positions)."""
        xy = self._xy
        return 0.5 * np.hypot(*(xy[self.dst[edges]] - xy[self.src[edges]]).T)

    def onto(self, g: "_Static", pieces: frozenset) -> np.ndarray:
        """Positions of the edges that go up onto one of ``pieces`` (indices into the
        world's pieces) from anything else (kept per set of pieces)."""
        key = ("onto", pieces)
        hit = self._onto.get(key)
        if hit is None:
            pc = np.append(g.node_piece, -1)
            z = np.append(g.node_xyz[:, 2], 0.0)
            ps, pd = pc[self.src], pc[self.dst]
            hit = np.nonzero(np.isin(pd, list(pieces)) & (ps != pd) & (z[self.dst] > z[self.src] + _EPS))[0]
            self._onto[key] = hit
        return hit

    def touching(self, nodes: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
        """Positions of the edges leaving or entering ``nodes`` (an edge may come
        twice), or, given ``mask`` (n,) marking exactly ``nodes``, each once."""
        nodes = np.asarray(nodes, dtype=np.int64)
        out = _edge_slots(self.indptr, nodes)
        inn = self.in_order[_edge_slots(self.in_indptr, nodes)]
        if mask is not None:
            inn = inn[~mask[self.src[inn]]]
        return np.concatenate([out, inn])


def _static(world, R, h, res, st) -> _Static:
    c = _world_cache(world)
    key = ("static", round(R, 6), round(h, 6), round(res, 6), _st_key(st))
    if key not in c:
        c[key] = _build_static(world, R, h, res, st)
    return c[key]


def _neighbour_offsets(n: int):
    """Half of the neighbour offsets (the other half is their reverse)."""
    nb = [(1, 0), (0, 1), (1, 1), (1, -1)]
    if n >= 16:
        # (2, 0)-like steps hop the cell-wide band beside a step where the widened
        # clearance leaves neither level standable
        nb += [(2, 1), (1, 2), (2, -1), (1, -2), (2, 0), (0, 2), (2, 2), (2, -2)]
    if n >= 32:
        nb += [(3, 1), (1, 3), (3, -1), (1, -3), (3, 2), (2, 3), (3, -2), (2, -3)]
    return nb


@functools.lru_cache(maxsize=256)
def _between(dx, dy):
    """Cells a straight step (dx, dy) passes over, other than its two ends (kept per step)."""
    out = set()
    for t in np.linspace(0.0, 1.0, 64)[1:-1]:
        c = (int(round(t * dx)), int(round(t * dy)))
        if c not in ((0, 0), (dx, dy)):
            out.add(c)
    return tuple(sorted(out))


@functools.lru_cache(maxsize=256)
def _band(dx, dy, r):
    """Cell offsets within r (cells) of the segment (0,0)-(dx,dy) but beyond r of both ends
    (kept per step and radius)."""
    out = []
    n = int(math.ceil(r)) + max(abs(dx), abs(dy)) + 1
    L2 = dx * dx + dy * dy
    for oy in range(-n, n + 1):
        for ox in range(-n, n + 1):
            t = min(1.0, max(0.0, (ox * dx + oy * dy) / L2))
            d = math.hypot(ox - t * dx, oy - t * dy)
            if d <= r and math.hypot(ox, oy) > r and math.hypot(ox - dx, oy - dy) > r:
                out.append((ox, oy))
    return tuple(out)


class _Clearance:
    """Exact clearance on a flat level z, for the cells where the grid's widened
    clearance refuses a level: a base of radius R may stand, or step along a
    segment, where it comes within R of no barring triangle: a triangle of the
    terrain (ladders aside) reaching into the hitbox's span (z, z + h), or an edge
    of the standable faces flat at z (beyond it the base is not fully supported).
    Triangles are taken whole (a tall face bars all its plan), so this only ever
    refuses more than the path check, whose probes lie within R of its samples.
    """

    def __init__(self, world, cols, R, h, res):
        keep = ~cols.skip_tri
        T = np.asarray(world.rays.triangles)[keep]
        self.xy = T[:, :, :2]
        self.zmin, self.zmax = T[:, :, 2].min(axis=1), T[:, :, 2].max(axis=1)
        nz = cols.normals[keep, 2]
        self.flat = nz >= 0.9999
        self.cols = cols
        self.R, self.h, self.res = R, h, res
        self.reach = R + 1e-4
        # places tried in a cell: a lattice of at most 1/16", nearest the centre first
        n = max(2, int(math.ceil(res / 0.0625 - 1e-9)))
        k = (np.arange(n) + 0.5) / n - 0.5
        ox, oy = np.meshgrid(k * res, k * res)
        offs = np.column_stack([ox.ravel(), oy.ravel()])
        self.offsets = offs[np.argsort(np.hypot(offs[:, 0], offs[:, 1]), kind="stable")]
        rad = np.round(np.hypot(self.offsets[:, 0], self.offsets[:, 1]), 9)
        cut = np.concatenate([[0], np.nonzero(np.diff(rad))[0] + 1, [len(rad)]])
        self.rings = list(zip(cut[:-1], cut[1:]))
        self._trees: dict = {}
        self._plans = None

    def level(self, z):
        """The STRtree of what bars a base standing at z (kept per level)."""
        import shapely
        key = round(float(z), 6)
        tree = self._trees.get(key)
        if tree is None:
            if self._plans is None:       # every triangle's plan (a flat one: a segment), made once
                ring = np.concatenate([self.xy, self.xy[:, :1]], axis=1)
                tri = shapely.polygons(ring)
                self._plans = np.where(shapely.area(tri) > 1e-9, tri, shapely.linestrings(ring))
            bar = (self.zmax > z + _EPS) & (self.zmin < z + self.h + _EPS)
            geoms = list(self._plans[bar])
            sup = self.flat & (np.abs(self.zmin - z) <= 1e-3) & (np.abs(self.zmax - z) <= 1e-3)
            if sup.any():
                ring = np.concatenate([self.xy[sup], self.xy[sup][:, :1]], axis=1)
                floor = shapely.union_all(shapely.make_valid(shapely.polygons(ring)))
                geoms.append(shapely.boundary(floor) if not floor.is_empty else floor)
            tree = shapely.STRtree(geoms)
            self._trees[key] = tree
        return tree

    def place(self, tree, z, cxy):
        """For each cell centre of cxy (n, 2) the place in the cell nearest its centre
        (on a lattice of at most 1/16") where a base stands at z: (xy (n, 2), ok (n,))."""
        import shapely
        n, m = len(cxy), len(self.offsets)
        pts = (cxy[:, None, :] + self.offsets[None, :, :]).reshape(-1, 2)
        # a cell whose centre is nearer than that to what bars the base has no place
        far = float(np.hypot(*self.offsets[-1]))
        free = np.zeros((n, m), dtype=bool)
        hit = tree.query(shapely.points(cxy), predicate="dwithin", distance=max(self.reach - far, 0.0))[0]
        tried = np.ones(n, dtype=bool)
        tried[hit] = False
        t = np.nonzero(tried)[0]
        # ring by ring of places (as far from the centre), the cells without a place yet
        pts3 = pts.reshape(n, m, 2)
        for g0, g1 in self.rings:
            if not len(t):
                break
            hit = tree.query(shapely.points(pts3[t, g0:g1].reshape(-1, 2)), predicate="dwithin",
                             distance=self.reach)[0]
            near = np.zeros(len(t) * (g1 - g0), dtype=bool)
            near[hit] = True
            free[t, g0:g1] = ~near.reshape(len(t), g1 - g0)
            t = t[~free[t, g0:g1].any(axis=1)]
        j = np.argmax(free, axis=1)
        rows = np.arange(n)
        xy = pts.reshape(n, m, 2)[rows, j]
        ok = free[rows, j]
        # the column under the place: a standable top at z, nothing over it in the span
        if ok.any():
            k = np.nonzero(ok)[0]
            lo, hi, nrm, piece = self.cols.probe(xy[k])
            std = nrm[..., 2] >= self.cols.min_nz - 1e-9
            with np.errstate(invalid="ignore"):
                top = std & (np.abs(hi - z) <= 1e-3)
            good = top.any(axis=1) & _free(lo, hi, np.full(len(k), z), np.full(len(k), z + self.h + _EPS))
            self.last_piece = np.full(n, -1, dtype=np.int64)
            self.last_piece[k] = np.where(good, piece[np.arange(len(k)), np.argmax(top, axis=1)], -1)
            ok[k] = good
        return xy, ok

    def clear_steps(self, tree, a, b):
        """(n,) bool: a base steps along a -> b (n, 2 each) at the level clear of what bars it."""
        import shapely
        hit = tree.query(shapely.linestrings(np.stack([a, b], axis=1)), predicate="dwithin",
                         distance=self.reach)[0]
        ok = np.ones(len(a), dtype=bool)
        ok[hit] = False
        return ok


def _clip_to_band(T: np.ndarray, lo_: np.ndarray, hi_: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Triangles ``T`` (p, 3, 3) clipped to the heights [lo_, hi_] (one band per triangle):
    in plan, the corners inside the band and the points where the edges cross its two
    planes, (p, 9, 2), with which of them are real, (p, 9); their hull is the clipped part."""
    P = [T[:, k] for k in range(3)]
    pts, good = [], []
    for k in range(3):
        z = P[k][:, 2]
        pts.append(P[k][:, :2])
        good.append((z >= lo_ - 1e-9) & (z <= hi_ + 1e-9))
    for k in range(3):
        A, B = P[k], P[(k + 1) % 3]
        dz = B[:, 2] - A[:, 2]
        for lev in (lo_, hi_):
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (lev - A[:, 2]) / dz
            cross = (np.abs(dz) > 1e-12) & (t > 0) & (t < 1)
            t = np.where(cross, t, 0.0)
            pts.append(A[:, :2] + t[:, None] * (B[:, :2] - A[:, :2]))
            good.append(cross)
    return np.stack(pts, axis=1), np.stack(good, axis=1)


class _Faces:
    """Exact test of the grid's steps against the faces a base may not come near.

    The grid reads the terrain at its cells' centres (with a widened margin), so a thin
    or pointed piece between them (the corner of a turned box) can reach under a base
    the grid lets stand or pass; the path check's dense probes find it. A step at
    levels za..zb is refused where, within the probes' radius of its plan segment, there
    is a part of
      * a vertical face (a side of a solid) at a height too tall to step onto and
        inside the hitbox: in [min z + step height, max z + hitbox height];
      * a face too steep to stand on, facing up or down (a steep slope, an overhang's
        underside), inside the hitbox's span above the step: in (min z, max z + hitbox).
    (Used on places and on steps along one level, ``_TreeCheck``.)
    Each triangle is clipped to its band of heights first, so only the part of the face
    at those heights counts (a ramp's side is low at its foot). Ladders are not solid.
    """

    def __init__(self, world, cols, R, h, step_h):
        import shapely
        keep = ~cols.skip_tri
        nz = cols.normals[:, 2]
        sel = np.nonzero(keep & (nz < cols.min_nz - 1e-9))[0]
        self.T = np.asarray(world.rays.triangles, dtype=float)[sel]
        nzs = nz[sel]
        self.vertical = np.abs(nzs) <= 1e-6
        self.R, self.h, self.step = float(R), float(h), float(step_h)
        self.dist = self.R - 2 * _EPS          # the path check's probes lie within this
        plans = shapely.convex_hull(shapely.multipoints(self.T[:, :, :2].reshape(-1, 2),
                                                        indices=np.repeat(np.arange(len(sel)), 3)))
        self.tree = shapely.STRtree(plans) if len(sel) else None

    def clear(self, a, b, za, zb) -> np.ndarray:
        """(n,) bool: the base may stand on / step along a -> b (plan, (n, 2)) at za -> zb."""
        import shapely
        n = len(a)
        ok = np.ones(n, dtype=bool)
        if self.tree is None or not n:
            return ok
        same = np.all(np.abs(a - b) <= 1e-12, axis=1)
        geoms = np.where(same, shapely.points(a), shapely.linestrings(np.stack([a, b], axis=1)))
        si, ti = self.tree.query(geoms, predicate="dwithin", distance=self.dist)
        if not len(si):
            return ok
        zlo, zhi = np.minimum(za, zb)[si], np.maximum(za, zb)[si]
        v = self.vertical[ti]
        b0 = np.where(v, zlo + self.step + _EPS, zlo + _EPS)
        b1 = zhi + self.h - _EPS
        lo_, hi_ = np.minimum(b0, b1), np.maximum(b0, b1)
        reach_in = np.ones(len(si), dtype=bool)
        if self.step > self.h:
            # a step higher than the hitbox (a crawl, ``CRAWLING_STATE``): a vertical face
            # bars the base where it rises above the step, if it reaches down into the
            # hitbox's span at all (the side of a slab overhead does not)
            Tz = self.T[ti][:, :, 2]
            lo_ = np.where(v, b0, lo_)
            hi_ = np.where(v, Tz.max(axis=1) + 1.0, hi_)
            reach_in = ~v | (Tz.min(axis=1) < b1)
        # the triangle clipped to the band [lo_, hi_] (a convex polygon in plan)
        pts, good = _clip_to_band(self.T[ti], lo_, hi_)         # (p, 9, 2), (p, 9)
        has = good.any(axis=1) & reach_in
        if not has.any():
            return ok
        k = np.nonzero(has)[0]
        rows, cols_ = np.nonzero(good[k])
        hull = shapely.convex_hull(shapely.multipoints(pts[k][rows, cols_], indices=rows))
        d = shapely.distance(geoms[si[k]], hull)
        bad = si[k][d < self.dist]
        ok[bad] = False
        return ok


class _Support:
    """Exact test that a step keeps something under the base all the way.

    The grid tests the support of a base at its nodes only: a step between two nodes
    on either side of a gap barely wider than the base (two tops 3" up, 1.27" apart,
    a Medium base 1.26" wide) crossed it, where the path check finds the base wholly
    over the gap for a moment and drops it. A step a -> b at za -> zb keeps its support
    where every point of its plan segment lies within the path check's probe radius of
    a standable face at a height the base can step to from both ends (within the
    free-climbing height of each): anything else under it is a drop (or no room).
    """

    def __init__(self, world, cols, R, step_h):
        import shapely
        keep = ~cols.skip_tri
        nz = cols.normals[:, 2]
        sel = np.nonzero(keep & (nz >= cols.min_nz - 1e-9))[0]
        self.T = np.asarray(world.rays.triangles, dtype=float)[sel]
        self.dist = float(R) - 2 * _EPS           # the path check's probes lie within this
        self.step = float(step_h)
        plans = shapely.convex_hull(shapely.multipoints(self.T[:, :, :2].reshape(-1, 2),
                                                        indices=np.repeat(np.arange(len(sel)), 3)))
        self.tree = shapely.STRtree(plans) if len(sel) else None

    def held(self, a, b, za, zb) -> np.ndarray:
        """(n,) bool: the base stepping along a -> b (plan, (n, 2)) at za -> zb is over a
        standable face it may stand on at every point of the way."""
        return np.array([g is None for g in self.uncovered(a, b, za, zb)], dtype=bool)

    def uncovered(self, a, b, za, zb) -> list:
        """For each step a -> b (see ``held``): None where the base is held all the way,
        else the part of the plan segment where it is not (a shapely geometry)."""
        import shapely
        n = len(a)
        segs = shapely.linestrings(np.stack([a, b], axis=1)) if n else []
        out = list(segs)
        if self.tree is None or not n:
            return out
        si, ti = self.tree.query(segs, predicate="dwithin", distance=self.dist)
        if not len(si):
            return out
        lo_ = np.maximum(za, zb)[si] - self.step - 1e-6
        hi_ = np.minimum(za, zb)[si] + self.step + 1e-6
        # each face clipped to the heights [lo_, hi_] (as _Faces clips to its band)
        pts, good = _clip_to_band(self.T[ti], lo_, hi_)
        has = np.nonzero(good.any(axis=1))[0]
        if not len(has):
            return out
        rows, cols_ = np.nonzero(good[has])
        hull = shapely.convex_hull(shapely.multipoints(pts[has][rows, cols_], indices=rows))
        owner = si[has]
        # the distance to a convex piece is convex along a segment: both ends within reach
        # of one piece, the whole step is
        pa, pb = shapely.points(a[owner]), shapely.points(b[owner])
        one = (shapely.distance(pa, hull) <= self.dist) & (shapely.distance(pb, hull) <= self.dist)
        done = np.zeros(n, dtype=bool)
        done[owner[one]] = True
        for i in np.nonzero(done)[0]:
            out[i] = None
        rest = ~done[owner]
        hull, owner = hull[rest], owner[rest]
        if not len(owner):
            return out
        reach = shapely.buffer(hull, self.dist, quad_segs=16)
        order = np.argsort(owner, kind="stable")
        owner, reach = owner[order], reach[order]
        cut = np.concatenate([[0], np.nonzero(np.diff(owner))[0] + 1, [len(owner)]])
        for c0, c1 in zip(cut[:-1], cut[1:]):
            i = int(owner[c0])
            left = segs[i]
            for geom in reach[c0:c1]:
                left = shapely.difference(left, geom)
                if left.is_empty or shapely.length(left) <= 1e-6:
                    left = None
                    break
            out[i] = left
        return out


def _support(world, R, step_h, st) -> _Support:
    c = _world_cache(world)
    key = ("support", round(R, 6), round(step_h, 6), _st_key(st))
    if key not in c:
        c[key] = _Support(world, _columns(world, st), R, step_h)
    return c[key]


def _gap_samples(ctx, xy, lo, hi, std, stn) -> np.ndarray:
    """Points to add to a route's samples where the base passes, between two samples on
    one level, over a gap too short for the 0.05" samples to land in (two tops 1.28"
    apart under a 1.26" base): the middle of each such stretch, (k, 2) with the index
    of the sample each goes before, (k,). Nothing where every probe under both samples
    meets that level (open ground, a floor's middle)."""
    n = len(xy)
    if n < 2:
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    K = ctx.cols.K
    m = hi.shape[1] // K
    H = hi.reshape(n, m, K)
    S = std.reshape(n, m, K)
    A_, B_, Z_ = [], [], []
    for k in range(stn.shape[1]):
        z = stn[:, k]
        fin = np.isfinite(z)
        if not fin[:-1].any():
            continue
        with np.errstate(invalid="ignore"):
            full = fin & np.all(np.any(S & (np.abs(H - z[:, None, None]) <= _EPS), axis=2), axis=1)
        for j in range(stn.shape[1]):
            zn = stn[1:, j]
            with np.errstate(invalid="ignore"):
                pair = fin[:-1] & (np.abs(zn - z[:-1]) <= _EPS)
            pair &= ~(full[:-1] & full[1:])
            idx = np.nonzero(pair)[0]
            if len(idx):
                # a probe on that level under one sample within the probe radius of the
                # other holds the base all the way between them (a disc is convex)
                pat = ctx.pattern[None, :, :]
                with np.errstate(invalid="ignore"):
                    on_a = np.any(S[idx] & (np.abs(H[idx] - z[idx, None, None]) <= _EPS), axis=2)
                    on_b = np.any(S[idx + 1] & (np.abs(H[idx + 1] - z[idx, None, None]) <= _EPS), axis=2)
                lim = float(ctx.R) - 2 * _EPS - 1e-9
                da = np.hypot(*(xy[idx, None, :] + pat - xy[idx + 1, None, :]).transpose(2, 0, 1))
                db = np.hypot(*(xy[idx + 1, None, :] + pat - xy[idx, None, :]).transpose(2, 0, 1))
                idx = idx[~(np.any(on_a & (da <= lim), axis=1) | np.any(on_b & (db <= lim), axis=1))]
            A_.append(idx)
            Z_.append(z[idx])
    if not A_ or not sum(len(v) for v in A_):
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    idx = np.concatenate(A_)
    zz = np.concatenate(Z_)
    idx, first = np.unique(idx, return_index=True)
    zz = zz[first]
    sup = _support(ctx.world, ctx.R, ctx.step, ctx.st)
    left = sup.uncovered(xy[idx], xy[idx + 1], zz, zz)
    import shapely
    add, at = [], []
    for i, g in zip(idx, left):
        if g is None:
            continue
        p = shapely.get_coordinates(shapely.point_on_surface(g) if g.geom_type != "LineString"
                                    else shapely.line_interpolate_point(g, 0.5, normalized=True))[0]
        add.append(p)
        at.append(i + 1)
    if not add:
        return np.zeros((0, 2)), np.zeros(0, dtype=np.int64)
    return np.array(add), np.array(at, dtype=np.int64)


class _TreeCheck:
    """The exact face test (:class:`_Faces`) of a static graph's steps and places, done
    as searches need them and kept: state 0 not tested, 1 clear, 2 too near a face.
    A step whose ends are not both fully supported is also tested for its support
    along the way (:class:`_Support`)."""

    def __init__(self, g, G, faces, step_h, support=None):
        self.g, self.G, self.faces, self.step = g, G, faces, float(step_h)
        self.support = support
        n = len(g.node_xyz)
        self.n = n
        self.key = G.src.astype(np.int64) * (n + 1) + G.dst.astype(np.int64)    # ascending (CSR)
        self.edge_state = np.zeros(len(G.dst), dtype=np.int8)
        self.node_state = np.zeros(n, dtype=np.int8)

    def validate(self, reached, pred):
        """Test the places ``reached`` and the steps of the search tree into them (``pred``);
        returns the positions of the steps (both ways) and the nodes newly found too near."""
        P = self.g.node_xyz
        n = self.n
        new_bad_n = np.zeros(0, dtype=np.int64)
        t = reached[self.node_state[reached] == 0]
        if len(t):
            okn = self.faces.clear(P[t, :2], P[t, :2], P[t, 2], P[t, 2])
            self.node_state[t] = np.where(okn, 1, 2)
            new_bad_n = t[~okn]
        bad_e = [self.G.touching(new_bad_n)] if len(new_bad_n) else []
        pr = pred[reached]
        real = (pr >= 0) & (pr < n)
        if real.any():
            pos = np.searchsorted(self.key, pr[real].astype(np.int64) * (n + 1) + reached[real])
            pos = pos[self.edge_state[pos] == 0]
            if len(pos):
                A, B = self.G.src[pos], self.G.dst[pos]
                za, zb = P[A, 2], P[B, 2]
                # tested: the steps on one level (a step up or down is left to the grid's
                # own test: the base's level changes along it where its rim meets the
                # other surface, and a band from the lower end would refuse a step up
                # onto a ramp's side that the path check makes)
                ok = np.abs(zb - za) > _EPS
                k = np.nonzero(~ok)[0]
                if len(k):
                    ok[k] = self.faces.clear(P[A[k], :2], P[B[k], :2], za[k], zb[k])
                full = self.g.node_full
                if self.support is not None and full is not None:
                    # a step (not a ladder's) from or to a base not wholly on its level
                    # (near a ledge, a gap): the base must not pass over a drop on the way
                    half = 0.5 * np.hypot(*(P[B, :2] - P[A, :2]).T)
                    k = np.nonzero(ok & (np.abs(zb - za) <= self.step + 1e-9)
                                   & ~(full[A] & full[B] & (half <= self.support.dist - 0.01)))[0]
                    if len(k):
                        ok[k] = self.support.held(P[A[k], :2], P[B[k], :2], za[k], zb[k])
                rev = np.searchsorted(self.key, B.astype(np.int64) * (n + 1) + A)
                rev_ok = (rev < len(self.key)) & (self.key[np.minimum(rev, len(self.key) - 1)] ==
                                                  B.astype(np.int64) * (n + 1) + A)
                state = np.where(ok, 1, 2).astype(np.int8)
                self.edge_state[pos] = state
                self.edge_state[rev[rev_ok]] = state[rev_ok]
                bad_e += [pos[~ok], rev[rev_ok & ~ok]]
        if bad_e:
            be = np.concatenate(bad_e)
            self.edge_state[be] = 2
        else:
            be = np.zeros(0, dtype=np.int64)
        return be, new_bad_n


def _tree_check(world, g, G, ctx, st, step_h) -> _TreeCheck:
    chk = getattr(G, "_tree_check", None)
    if chk is None:
        faces = _Faces(world, _columns(world, st), ctx.R, ctx.h, step_h)
        support = _support(world, ctx.R, step_h, st)
        chk = G._tree_check = _TreeCheck(g, G, faces, step_h, support)
    return chk


_MAX_CELLS = 500_000       # cells of the reachable area's grid (36" x 36" at 0.25": 20,736)


def _build_static(world, R, h, res, st, window=None):
    """The static grid of the whole table (a :class:`_Static`); or, given ``window``
    (i0, j0, nx, ny: a block of the table's cells), only the levels and narrow surfaces
    of that block (a :class:`_NarrowGrid`; exact in the cells farther than
    ``_narrow_pad`` from its edges that are not the table's)."""
    import time
    t0 = time.perf_counter()
    cols = _columns(world, st)
    areas, ladders = _regions_cached(world, st)
    W, D = world.table
    nx, ny = int(math.ceil(W / res - 1e-9)), int(math.ceil(D / res - 1e-9))
    i0 = j0 = 0
    if window is not None:
        i0, j0, nx, ny = (int(v) for v in window)
    N = nx * ny
    if N > _MAX_CELLS:
        # about 3.7 KB a cell at the peak: a bound that keeps the grid under 2 GB
        raise InputError(Problem("<reach>", None, "resolution",
                                 f"the {W:g}\" x {D:g}\" table needs {N} cells of {res:g}\" for the movement "
                                 f"grid (the reachable area, narrow surfaces), more than {_MAX_CELLS}: use a "
                                 f"resolution of at least "
                                 f"{math.ceil(math.sqrt(W * D / _MAX_CELLS) * 100) / 100:g}\""))
    iy, ix = np.divmod(np.arange(N), nx)
    cx, cy = (ix + i0 + 0.5) * res, (iy + j0 + 0.5) * res
    lo, hi, nrm, piece = cols.probe(np.column_stack([cx, cy]))
    Kc = int(max(1, np.max(np.sum(np.isfinite(hi), axis=1))))
    lo, hi, nrm, piece = lo[:, :Kc], hi[:, :Kc], nrm[:, :Kc], piece[:, :Kc]
    std = nrm[..., 2] >= cols.min_nz - 1e-9
    # padded copies: row N is "off the table" (no layer)
    lo_p = np.vstack([lo, np.full((1, Kc), -np.inf)])
    hi_p = np.vstack([hi, np.full((1, Kc), -np.inf)])
    std_p = np.vstack([std, np.zeros((1, Kc), dtype=bool)])
    nrm_p = np.concatenate([nrm, np.zeros((1, Kc, 3))], axis=0)
    piece_p = np.vstack([piece, np.full((1, Kc), -1, dtype=np.int64)])
    # the cells under a base centred on each cell
    rc = int(math.ceil(R / res)) + 1
    # supports: the columns under the base; clearance: also those within half a
    # cell's diagonal beyond it (a face between two columns is not missed), so
    # the grid never offers a place or a step the exact check refuses
    margin = res * math.sqrt(0.5) if st["grid_margin"] == "auto" else float(st["grid_margin"])
    rc = int(math.ceil((R + margin) / res)) + 1
    offs = [(dx, dy) for dy in range(-rc, rc + 1) for dx in range(-rc, rc + 1)
            if math.hypot(dx * res, dy * res) <= R - 2 * _EPS]
    offs_out = [(dx, dy) for dy in range(-rc, rc + 1) for dx in range(-rc, rc + 1)
                if math.hypot(dx * res, dy * res) <= R + margin]
    m = len(offs)
    m_out = len(offs_out)

    def neighbours_of(cells, offsets):
        ox = np.array([o[0] for o in offsets], dtype=np.int64)
        oy = np.array([o[1] for o in offsets], dtype=np.int64)
        jx, jy = ix[cells][:, None] + ox[None, :], iy[cells][:, None] + oy[None, :]
        return np.where((jx >= 0) & (jx < nx) & (jy >= 0) & (jy < ny), jy * nx + jx, N)

    nbr = neighbours_of(np.arange(N), offs)                                                # (N, m)

    def disc(cells):
        """Layers (len, m*Kc) under bases centred on ``cells``."""
        idx = nbr[cells]
        k = len(cells)
        return (lo_p[idx].reshape(k, m * Kc), hi_p[idx].reshape(k, m * Kc),
                std_p[idx].reshape(k, m * Kc), nrm_p[idx].reshape(k, m * Kc, 3))

    # open table cells (one flat layer at z 0 under the whole base) are solved at once
    flat_col = (np.sum(np.isfinite(hi_p), axis=1) == 1) & (np.abs(hi_p[:, 0]) <= 1e-6) & (nrm_p[:, 0, 2] > 0.999)
    flat_col[N] = False
    from scipy.ndimage import binary_erosion, maximum_filter
    fp = np.zeros((2 * rc + 1, 2 * rc + 1), dtype=bool)
    for dx, dy in offs_out:
        fp[dy + rc, dx + rc] = True
    simple = binary_erosion(flat_col[:N].reshape(ny, nx), structure=fp, border_value=0).ravel()
    C = np.nonzero(~simple)[0]
    kmax = 4
    tol_l = float(st["level_tolerance"])
    step_h = _step_height(h, st)
    z = np.full((kmax, N), np.nan)
    z[0, simple] = 0.0
    nz3 = np.zeros((kmax, N, 3))
    nz3[..., 2] = 1.0
    spiece = np.full((kmax, N), -1, dtype=np.int64)
    spiece[0, simple] = 0                                   # the table
    full_sup = np.zeros((kmax, N), dtype=bool)
    full_sup[0, simple] = True
    below = np.full((kmax, N), -np.inf)
    if len(C):
        LO, HI, STD, NRM = disc(C)
        zc = _stances(LO, HI, STD, h, kmax).T                                     # (kmax, |C|)
        # clearance over the wider disc
        io = neighbours_of(C, offs_out)
        LOo, HIo = lo_p[io].reshape(len(C), m_out * Kc), hi_p[io].reshape(len(C), m_out * Kc)
        # a sloped walkable top in the widening ring is the slope going on, not an
        # obstacle: it may rise by the slope over the ring's width
        nzo = nrm_p[io][..., 2].reshape(len(C), m_out * Kc)
        stdo = std_p[io].reshape(len(C), m_out * Kc)
        with np.errstate(divide="ignore", invalid="ignore"):
            rise = np.where(stdo & (nzo < 0.9999),
                            (margin + res) * np.sqrt(np.maximum(0.0, 1 - nzo ** 2)) / nzo, 0.0)
        HIo = HIo - rise
        for k in range(kmax):
            fin = np.isfinite(zc[k])
            if fin.any():
                ok = np.ones(len(C), dtype=bool)
                ok[fin] = _free(LOo[fin], HIo[fin], zc[k, fin], zc[k, fin] + h)
                zc[k] = np.where(ok, zc[k], np.nan)
        zc = np.sort(zc, axis=0)                                                    # ascending, NaNs last
        z[:, C] = zc
        match = np.abs(HI[None, :, :] - zc[:, :, None]) <= 1e-3                   # (kmax, |C|, J)
        j = np.argmax(match, axis=2)
        got = NRM[np.arange(len(C))[None, :], j]                                  # (kmax, |C|, 3)
        PC = piece_p[nbr[C]].reshape(len(C), m * Kc)
        spiece[:, C] = np.where(match.any(axis=2), PC[np.arange(len(C))[None, :], j], -1)
        nz3[:, C] = np.where(match.any(axis=2)[..., None], got, np.array([0.0, 0.0, 1.0]))
        on = (np.abs(HI[None, :, :] - zc[:, :, None]) <= tol_l) & STD[None]
        full_sup[:, C] = on.reshape(kmax, len(C), m, Kc).any(axis=3).all(axis=2) & np.isfinite(zc)
        with np.errstate(invalid="ignore"):
            below[:, C] = np.where(HI[None, :, :] < zc[:, :, None] - tol_l, HI[None, :, :], -np.inf).max(axis=2)
    valid = np.isfinite(z)
    if st["base_inside_table"]:
        inside = (cx >= R - 1e-6) & (cx <= W - R + 1e-6) & (cy >= R - 1e-6) & (cy <= D - R + 1e-6)
        valid &= inside[None, :]
    z = np.where(valid, z, np.nan)
    full_sup &= valid
    # narrow surfaces: a base whose supports no fully supported base covers,
    # where stepping off is a drop taller than the free-climbing height
    narrow = np.zeros((kmax, N), dtype=bool)
    if len(C):
        wide = np.zeros((N + 1, Kc), dtype=bool)       # a column's layer under some fully supported base
        zC, fC = z[:, C].T, full_sup[:, C].T
        for k in range(m):      # (the open table is never narrow: only the complex cells matter)
            d = nbr[C, k]
            mk = np.any((np.abs(hi_p[d][:, None, :] - zC[:, :, None]) <= tol_l) & fC[:, :, None], axis=1)
            wide[d] |= mk
        wide[N] = False
        dC = nbr[C]                                                                  # (|C|, m)
        hz = hi_p[dC]                                                                # (|C|, m, Kc)
        wz = wide[dC]
        sup_w = np.any((np.abs(hz[None] - z[:, C][:, :, None, None]) <= tol_l) & wz[None], axis=(2, 3))
        with np.errstate(invalid="ignore"):
            high = ~(z[:, C] - below[:, C] <= step_h + 1e-9)
        narrow[:, C] = valid[:, C] & ~full_sup[:, C] & ~sup_w & high & (z[:, C] > tol_l)
    # the sub-grid: a level that a cell's centre column stands on but the widened
    # clearance refused there may be kept at another place in the cell, tested on the
    # sub-grid (its node then sits at that place; its steps are tested there too)
    shifted = np.zeros((kmax, N), dtype=bool)
    sxy = np.zeros((kmax, N, 2))
    sub = None
    cxy_all = np.column_stack([cx, cy])
    if len(C) and margin > 0:
        cand_c, cand_z = [], []
        free_slot = np.isnan(z[:, C]).any(axis=0)
        for j in range(Kc):
            zt = hi_p[C, j]
            with np.errstate(invalid="ignore"):
                have = np.any(np.abs(z[:, C] - zt[None, :]) <= tol_l, axis=0)
                ok = np.isfinite(zt) & std_p[C, j] & (nrm_p[C, j, 2] >= 0.9999) & ~have & free_slot
            cand_c.append(C[ok])
            cand_z.append(zt[ok])
        cand_c, cand_z = np.concatenate(cand_c), np.concatenate(cand_z)
        if len(cand_c):
            sub = _Clearance(world, cols, R, h, res)
            zkey = np.round(cand_z, 6)
            for zl in np.unique(zkey):
                sel = np.nonzero(zkey == zl)[0]
                cc = cand_c[sel]
                zl_ = float(cand_z[sel[0]])
                pxy, ok = sub.place(sub.level(zl_), zl_, cxy_all[cc])
                if st["base_inside_table"]:
                    ok &= (pxy[:, 0] >= R - 1e-6) & (pxy[:, 0] <= W - R + 1e-6) \
                        & (pxy[:, 1] >= R - 1e-6) & (pxy[:, 1] <= D - R + 1e-6)
                if not ok.any():
                    continue
                c_ = cc[ok]
                k = np.argmax(np.isnan(z[:, c_]), axis=0)            # the cell's first free slot
                z[k, c_] = zl_
                valid[k, c_] = shifted[k, c_] = full_sup[k, c_] = True
                narrow[k, c_] = False
                below[k, c_] = -np.inf
                nz3[k, c_] = (0.0, 0.0, 1.0)
                sxy[k, c_] = pxy[ok]
                spiece[k, c_] = sub.last_piece[ok]
            moved = np.nonzero(shifted.any(axis=0))[0]
            if len(moved):       # the levels of a cell ascending again
                o = np.argsort(z[:, moved], axis=0)
                for arr in (z, valid, shifted, full_sup, narrow, below, spiece):
                    arr[:, moved] = np.take_along_axis(arr[:, moved], o, axis=0)
                for arr in (nz3, sxy):
                    arr[:, moved] = np.take_along_axis(arr[:, moved], o[..., None], axis=0)
    if window is not None:
        return _NarrowGrid(res, i0, j0, nx, ny, z, narrow)
    # areas (static part): half-speed areas and unscalable areas
    cxy = np.column_stack([cx, cy])
    mult = np.ones((kmax, N))
    unsc = np.zeros((kmax, N), dtype=bool)
    for a in areas:
        slow = bool(a.tags & set(st["half_speed_areas"]))
        uns = bool(a.tags & set(st["unscalable_tags"]))
        if not (slow or uns):
            continue
        with np.errstate(invalid="ignore"):
            touch = _within(a.poly, cxy, R + _EPS)[None, :] & (z >= a.zlo - 0.05) & (z <= a.zhi + 0.05)
        if slow:
            f = float(st["area_cost"])
            mult = np.where(touch, mult * f if st["stack_costs"] else np.maximum(mult, f), mult)
        if uns:
            unsc |= touch
    if shifted.any():            # the areas a base at its place in the cell touches
        ks, cs = np.nonzero(shifted)
        mult[ks, cs] = 1.0
        unsc[ks, cs] = False
        for a in areas:
            slow = bool(a.tags & set(st["half_speed_areas"]))
            uns = bool(a.tags & set(st["unscalable_tags"]))
            if not (slow or uns):
                continue
            zs_ = z[ks, cs]
            touch = _within(a.poly, sxy[ks, cs], R + _EPS) & (zs_ >= a.zlo - 0.05) & (zs_ <= a.zhi + 0.05)
            if slow:
                f = float(st["area_cost"])
                mult[ks, cs] = np.where(touch, mult[ks, cs] * f if st["stack_costs"] else
                                        np.maximum(mult[ks, cs], f), mult[ks, cs])
            if uns:
                unsc[ks, cs] |= touch
    nmul = np.where(narrow, float(st["narrow_cost"]), 1.0)
    mult = mult * nmul if st["stack_costs"] else np.maximum(mult, nmul)
    # nodes
    node = np.full((kmax, N), -1, dtype=np.int64)
    slot, cell = np.nonzero(valid)
    node[slot, cell] = np.arange(len(slot))
    node_xyz = np.column_stack([cx[cell], cy[cell], z[slot, cell]])
    node_shift = shifted[slot, cell]
    node_xyz[node_shift, :2] = sxy[slot[node_shift], cell[node_shift]]
    node_mult = mult[slot, cell]
    slow_areas = [a for a in areas if a.tags & set(st["half_speed_areas"])]
    # the distance to the nearest one, exact wherever a step's test below can use it (a node
    # farther than any step's reach off an area's bounding box keeps inf: the test is false
    # for it either way)
    node_dslow = np.full(len(node_xyz), np.inf)
    step_reach = R + 0.5 * res * max(math.hypot(dx, dy) for dx, dy in _neighbour_offsets(int(st["neighbours"]))) \
        + 2 * _EPS
    for a in slow_areas:
        x0, y0, x1, y1 = a.poly.bounds
        gx = np.maximum(np.maximum(x0 - node_xyz[:, 0], node_xyz[:, 0] - x1), 0.0)
        gy = np.maximum(np.maximum(y0 - node_xyz[:, 1], node_xyz[:, 1] - y1), 0.0)
        near = np.nonzero(gx * gx + gy * gy <= step_reach ** 2)[0]
        if len(near):
            node_dslow[near] = np.minimum(node_dslow[near], _poly_distance(a.poly, node_xyz[near, :2]))

    narrow_cell = narrow.any(axis=0)
    # narrow cells in each box of cells (a summed-area table): a step's sample points lie
    # in the box of its two end cells
    n_sat = np.zeros((ny + 1, nx + 1))
    n_sat[1:, 1:] = narrow_cell.reshape(ny, nx).cumsum(axis=0).cumsum(axis=1)
    cnar = float(st["narrow_cost"])
    # quiet nodes: off every slow area by more than any step's reach (no exact distance)
    # and no narrow cell within the longest step: a step between two quiet nodes with
    # the same factor costs their mean, untested
    reach_c = max(max(abs(dx), abs(dy)) for dx, dy in _neighbour_offsets(int(st["neighbours"])))
    near_nc = maximum_filter(narrow_cell.reshape(ny, nx), size=2 * reach_c + 1, mode="constant").ravel()
    quiet = ~np.isfinite(node_dslow) & ~near_nc[cell]
    node_ix, node_iy = ix[cell], iy[cell]

    def edge_mult(A, B):
        """Mean cost factor along each step A -> B. Where the ends differ, or the step
        may graze an area or a narrow surface, it is sampled every 1/16 of its length
        as the path check samples a route (areas exactly, narrow surfaces by the
        cell under each point), each piece at its dearer end: never cheaper than the
        path check."""
        ma, mb = node_mult[A], node_mult[B]
        out = 0.5 * (ma + mb)
        mdiff = np.abs(ma - mb) > 1e-9
        loud = np.nonzero(~(quiet[A] & quiet[B]) | mdiff)[0]
        if not len(loud):
            return out
        A_, B_ = A[loud], B[loud]
        d2 = node_xyz[A_, :2] - node_xyz[B_, :2]
        half_len = 0.5 * np.linalg.norm(d2, axis=1)
        near_a = np.minimum(node_dslow[A_], node_dslow[B_]) <= R + half_len + _EPS
        xa, xb, ya, yb = node_ix[A_], node_ix[B_], node_iy[A_], node_iy[B_]
        x0, x1 = np.minimum(xa, xb), np.maximum(xa, xb) + 1
        y0, y1 = np.minimum(ya, yb), np.maximum(ya, yb) + 1
        near_n = n_sat[y1, x1] - n_sat[y0, x1] - n_sat[y1, x0] + n_sat[y0, x0] > 0.5
        area = near_a | mdiff[loud]
        k = np.nonzero(area | near_n)[0]
        if not len(k):
            return out
        diff = loud[k]
        area, near_n = area[k], near_n[k]
        ns = 16
        t = np.arange(ns + 1) / ns
        pa, pb = node_xyz[A[diff]], node_xyz[B[diff]]
        pts = pa[:, None, :] + (pb - pa)[:, None, :] * t[None, :, None]            # (k, ns+1, 3)
        flat = pts.reshape(-1, 3)
        fac = np.ones(len(flat))
        sub = np.nonzero(np.repeat(area, ns + 1))[0]
        # a step between two heights is not a ramp: the path check keeps the base at
        # the higher level while any of it is over that support, and at the lower one
        # past it (a step down off a crate into mud is in the mud at once); so each
        # sample is judged at either end's height too, the dearer reading counting
        z_ends = (np.repeat(pa[:, 2], ns + 1), np.repeat(pb[:, 2], ns + 1))
        for a in (slow_areas if len(sub) else ()):
            fs = flat[sub]
            inside = np.zeros(len(flat), dtype=bool)
            zin = np.zeros(len(sub), dtype=bool)
            for zz_ in (fs[:, 2], z_ends[0][sub], z_ends[1][sub]):
                zin |= (zz_ >= a.zlo - 0.05) & (zz_ <= a.zhi + 0.05)
            inside[sub] = _within(a.poly, fs[:, :2], R + _EPS) & zin
            f = float(st["area_cost"])
            fac = np.where(inside, fac * f if st["stack_costs"] else np.maximum(fac, f), fac)
        # narrow surfaces, by the cell under each point (only steps whose box of cells has one)
        on = np.nonzero(np.repeat(near_n, ns + 1))[0]
        if len(on):
            fo = flat[on]
            jx = np.clip((fo[:, 0] / res).astype(int), 0, nx - 1)
            jy = np.clip((fo[:, 1] / res).astype(int), 0, ny - 1)
            cc = jy * nx + jx
            hit = np.nonzero(narrow_cell[cc])[0]
            if len(hit):
                c_, on = cc[hit], on[hit]
                with np.errstate(invalid="ignore"):
                    nar = np.any((np.abs(z[:, c_] - flat[on, 2][None, :]) <= tol_l) & narrow[:, c_], axis=0)
                on = on[nar]
                fac[on] = fac[on] * cnar if st["stack_costs"] else np.maximum(fac[on], cnar)
        fac = fac.reshape(len(diff), ns + 1)
        piece = np.maximum(fac[:, :-1], fac[:, 1:])
        out[diff] = piece.mean(axis=1)
        return out
    node_n = nz3[slot, cell]
    node_piece = spiece[slot, cell]
    # edges
    ES, ED, EW = [], [], []
    ltol = float(st["ladder_tolerance"])
    floors: dict = {}

    def ladder_near(li, A_, B_):
        """(n,) bool: a ladder step between nodes A_ and B_ (on two levels) touches ladder li
        where the path check makes it: at its sample before the base first rests on the upper
        level's flat floor (or, down, its first after it leaves it), at most ``path_step``
        before the first point where the base (radius R) reaches that floor. The distance to
        the ladder's footprint is convex along the step, so the base touches the ladder from
        that point up to the upper node when it does at both (the lower node's own touch is
        not enough: a long or slanting step meets the floor's edge beyond the ladder)."""
        import shapely
        out = np.zeros(len(A_), dtype=bool)
        reach = R + float(st["ladder_reach"])
        poly = ladders[li].poly
        up_ = node_xyz[A_, 2] <= node_xyz[B_, 2]
        lo_n, hi_n = np.where(up_, A_, B_), np.where(up_, B_, A_)
        P, Q = node_xyz[lo_n, :2], node_xyz[hi_n, :2]
        cand = _within(poly, Q, reach) & (np.hypot(*(Q - P).T) > 0)
        zf_all = np.round(node_xyz[hi_n, 2], 6)
        for zf in np.unique(zf_all[cand]):
            fl = floors.get(float(zf))
            if fl is None:
                keep = ~cols.skip_tri
                T = np.asarray(world.rays.triangles)[keep]
                zmin, zmax = T[:, :, 2].min(axis=1), T[:, :, 2].max(axis=1)
                sup = (cols.normals[keep, 2] >= 0.9999) & (np.abs(zmin - zf) <= 1e-3) & (np.abs(zmax - zf) <= 1e-3)
                ring = np.concatenate([T[sup][:, :, :2], T[sup][:, :1, :2]], axis=1)
                fl = shapely.union_all(shapely.make_valid(shapely.polygons(ring))) if sup.any() else False
                floors[float(zf)] = fl
            k = np.nonzero(cand & (zf_all == zf))[0]
            if fl is False or fl.is_empty:
                # no flat floor at that level (a sloped top): the lower node must touch it
                out[k] = _within(poly, P[k], reach)
                continue
            Pk, Qk = P[k], Q[k]
            # the first point of P -> Q within R of the floor (bisection; Q stands on it)
            t0, t1 = np.zeros(len(k)), np.ones(len(k))
            near0 = shapely.distance(shapely.points(Pk), fl) <= R
            for _ in range(24):
                tm = 0.5 * (t0 + t1)
                hit = shapely.distance(shapely.points(Pk + tm[:, None] * (Qk - Pk)), fl) <= R
                t1 = np.where(hit, tm, t1)
                t0 = np.where(hit, t0, tm)
            t0 = np.where(near0, 0.0, t0)
            L_ = np.hypot(*(Qk - Pk).T)
            t_in = np.maximum(0.0, t0 - (float(st["path_step"]) + 0.02) / L_)
            out[k] = _within(poly, Pk + t_in[:, None] * (Qk - Pk), reach - 0.005)
        return out
    zpad = np.vstack([z.T, np.full((1, kmax), np.nan)])                     # (N+1, kmax)
    for dx, dy in _neighbour_offsets(int(st["neighbours"])):
        L = math.hypot(dx, dy) * res
        dvec = np.array([dx, dy], dtype=float) / math.hypot(dx, dy)
        ok_c = (ix + dx >= 0) & (ix + dx < nx) & (iy + dy >= 0) & (iy + dy < ny)
        c_a = np.nonzero(ok_c)[0]
        c_b = c_a + dy * nx + dx
        mids = _between(dx, dy)
        hop = dx in (0, 2, -2) and dy in (0, 2, -2)
        # the columns the base sweeps between the two ends (beyond both ends' discs)
        band = _band(dx, dy, (R + margin) / res)
        if band:
            bcols = neighbours_of(c_a, band)                                     # (len(c_a), nb)
            band_rough = ~np.all(flat_col[bcols], axis=1)
        else:
            band_rough = np.zeros(len(c_a), dtype=bool)
        # open table to open table over flat ground: nothing to check
        easy_ab = simple[c_a] & simple[c_b] & ~band_rough
        for sa in range(kmax):
            na = np.where(shifted[sa, c_a], -1, node[sa, c_a])     # (nodes moved in their cell: below)
            if not (na >= 0).any():
                continue
            for sb in range(kmax):
                nbn = np.where(shifted[sb, c_b], -1, node[sb, c_b])
                both = (na >= 0) & (nbn >= 0)
                if sa == 0 and sb == 0:
                    easy = both & easy_ab
                    if easy.any():
                        A, B = na[easy], nbn[easy]
                        w = L * edge_mult(A, B)
                        ES += [A, B]
                        ED += [B, A]
                        EW += [w, w]
                    both &= ~easy_ab
                if not both.any():
                    continue
                sel = np.nonzero(both)[0]
                A, B = na[sel], nbn[sel]
                ca, cb = c_a[sel], c_b[sel]
                za, zb = node_xyz[A, 2], node_xyz[B, 2]
                dz = zb - za
                small = np.abs(dz) <= step_h + 1e-9
                lad = np.zeros(len(A), dtype=bool)
                for li in range(len(ladders)):
                    lz = (np.minimum(za, zb) >= ladders[li].zlo - ltol) & (np.maximum(za, zb) <= ladders[li].zhi + ltol)
                    # the climb is made where the base meets the upper level (the path
                    # check's sample before it): the base must touch the ladder there, not
                    # only at the grid's lower node (a ladder flush with the upper level's
                    # face is out of reach of a node kept clear of that face; a long or
                    # slanting step meets the face beyond the ladder)
                    more = lz & ~small & ~lad
                    if more.any():
                        k = np.nonzero(more)[0]
                        lad[k] |= ladder_near(li, A[k], B[k])
                keep = small | lad
                if step_h > h + 1e-9:
                    # a step higher than the hitbox (a crawl): where a cell has two levels
                    # within it (under an overhang and on its top) the path check keeps to
                    # the one nearer its own level, either way along the step
                    with np.errstate(invalid="ignore"):
                        nearer = (np.any(np.abs(zpad[cb] - za[:, None]) < np.abs(dz)[:, None] - 1e-6, axis=1)
                                  | np.any(np.abs(zpad[ca] - zb[:, None]) < np.abs(dz)[:, None] - 1e-6, axis=1))
                    keep &= ~(small & nearer)
                # a long step must pass over cells where the base can stand at its level
                for ex, ey in mids:
                    k = np.nonzero(keep & small)[0]
                    if not len(k):
                        break
                    cm_ = ca[k] + ey * nx + ex
                    zm = zpad[cm_]                                                # (k, kmax)
                    if hop:
                        # a hop over the band beside a step: the cell between may have no
                        # stance at all (the band test below checks the room over it)
                        with np.errstate(invalid="ignore"):
                            okm = np.any((np.abs(zm - za[k, None]) <= step_h + 1e-9)
                                         & (np.abs(zm - zb[k, None]) <= step_h + 1e-9), axis=1)
                        okm |= np.all(np.isnan(zm), axis=1)
                    else:
                        # a long step keeps to one surface: the cells it passes over have a
                        # stance near the straight line between its ends (so it never
                        # bridges two tops across a lower gap, nor makes a step mid-way)
                        t = (ex * dx + ey * dy) / float(dx * dx + dy * dy)
                        zi = za[k] + t * (zb[k] - za[k])
                        tol = np.maximum(0.1, 0.25 * np.abs(zb[k] - za[k]))
                        with np.errstate(invalid="ignore"):
                            okm = np.any(np.abs(zm - zi[:, None]) <= tol[:, None], axis=1)
                    keep[k] &= okm
                if band:
                    k = np.nonzero(keep & band_rough[sel])[0]
                    if len(k):
                        bc = bcols[sel[k]]
                        LOb = lo_p[bc].reshape(len(k), -1)
                        HIb = hi_p[bc].reshape(len(k), -1)
                        keep[k] &= _free(LOb, HIb, np.maximum(za[k], zb[k]), np.minimum(za[k], zb[k]) + h)
                # room to go up or down: the lower end's column, from the lower
                # level to the higher plus the hitbox
                vert = keep & (np.abs(dz) > _EPS)
                if vert.any():
                    k = np.nonzero(vert)[0]
                    low_c = np.where(dz[k] > 0, ca[k], cb[k])
                    LOk, HIk, _, _ = disc(low_c)
                    keep[k] &= _free(LOk, HIk, np.minimum(za[k], zb[k]), np.maximum(za[k], zb[k]) + h)
                if not keep.any():
                    continue
                A, B, dz, lad = A[keep], B[keep], dz[keep], lad[keep]
                na_n, nb_n = node_n[A], node_n[B]
                if st["slopes_along_surface"]:
                    fa = np.sqrt(1.0 + ((na_n[:, :2] @ dvec) / np.maximum(na_n[:, 2], 1e-6)) ** 2)
                    fb = np.sqrt(1.0 + ((nb_n[:, :2] @ dvec) / np.maximum(nb_n[:, 2], 1e-6)) ** 2)
                    hf = np.maximum(fa, fb)        # the dearer end: never under the path check
                    # nor under the 3D length between the two nodes where the step is a slope
                    # (an end on a sloped face, a rise no steeper than a standable face): on a
                    # ridge the faces' normals say less than the height changes by, and so do
                    # they where the base's rim climbs a hill's foot from the table (the node
                    # on the table is flat; the path check pays the rise along the way)
                    rise = np.abs(dz) / L
                    sloped = ((na_n[:, 2] < 1.0 - 1e-9) | (nb_n[:, 2] < 1.0 - 1e-9)) & ~lad & \
                        (rise <= math.tan(math.radians(float(st["max_slope_deg"]))) + 1e-9)
                    hf = np.where(sloped, np.maximum(hf, np.sqrt(1.0 + rise * rise)), hf)
                else:
                    hf = 1.0
                mm_ = edge_mult(A, B)
                w = L * hf * mm_ + np.where(lad, float(st["ladder_cost"]) * np.abs(dz), 0.0)
                ES += [A, B]
                ED += [B, A]
                EW += [w, w]
    if node_shift.any():
        # the steps of the nodes moved in their cells: to every neighbour on the same
        # level, tested on the sub-grid along the step itself
        sn = np.nonzero(node_shift)[0]
        sc = cell[sn]
        PA, PB = [], []
        for dx, dy in _neighbour_offsets(int(st["neighbours"])):
            for ddx, ddy in ((dx, dy), (-dx, -dy)):
                jx, jy = ix[sc] + ddx, iy[sc] + ddy
                inb = (jx >= 0) & (jx < nx) & (jy >= 0) & (jy < ny)
                for k in range(kmax):
                    nb_ = np.full(len(sn), -1, dtype=np.int64)
                    nb_[inb] = node[k, (jy * nx + jx)[inb]]
                    ok = nb_ >= 0
                    ok[ok] &= (np.abs(node_xyz[nb_[ok], 2] - node_xyz[sn[ok], 2]) <= 1e-6) \
                        & (~node_shift[nb_[ok]] | (nb_[ok] > sn[ok]))
                    PA.append(sn[ok])
                    PB.append(nb_[ok])
        A, B = np.concatenate(PA), np.concatenate(PB)
        zkey = np.round(node_xyz[A, 2], 6)
        keep = np.zeros(len(A), dtype=bool)
        for zl in np.unique(zkey):
            sel = np.nonzero(zkey == zl)[0]
            keep[sel] = sub.clear_steps(sub.level(float(node_xyz[A[sel[0]], 2])),
                                        node_xyz[A[sel], :2], node_xyz[B[sel], :2])
        A, B = A[keep], B[keep]
        if len(A):
            w = np.hypot(*(node_xyz[B, :2] - node_xyz[A, :2]).T) * edge_mult(A, B)
            ES += [A, B]
            ED += [B, A]
            EW += [w, w]
    esrc = np.concatenate(ES) if ES else np.zeros(0, dtype=np.int64)
    edst = np.concatenate(ED) if ED else np.zeros(0, dtype=np.int64)
    ew = np.concatenate(EW) if EW else np.zeros(0)
    return _Static(res, nx, ny, z, valid, narrow, unsc, node, slot, cell, node_xyz, node_mult, node_piece,
                   esrc, edst, ew, (time.perf_counter() - t0) * 1000.0, node_full=full_sup[slot, cell])


# ----------------------------------------------------------------------------- reachable
@dataclass
class ReachGrid:
    """The end positions a model can reach, per cell and level, with their cost.

    ``z`` and ``cost`` are (levels, ny, nx); cell (i, j) is centred at
    ((j + 0.5) * resolution, (i + 0.5) * resolution). ``cost`` is inf where
    unreachable; ``end_ok`` marks cells where the model may end (reachable
    within the allowance and not inside another model).
    """
    model: str
    mode: str
    allowance: float
    resolution: float
    z: np.ndarray
    cost: np.ndarray
    end_ok: np.ndarray
    start: tuple[float, float, float]
    _pred: np.ndarray = field(repr=False, default=None)
    _static: _Static = field(repr=False, default=None)
    _source: int = field(repr=False, default=-1)
    stats: dict = field(default_factory=dict)
    reason: str = ""              # why the model cannot make this movement at all ("" when it can)
    ends: dict = field(default_factory=dict)   # node -> the exact end (x, y, z) where it is not the cell's centre
    _place_z: np.ndarray = field(repr=False, default=None)   # (n,) node -> the z its end rests at (NaN: its level's)

    def _end_z(self, nodes) -> np.ndarray:
        """The z a move ending at each node rests at (rulings "Where a base rests": on a
        slope under the base centre, as ``check_path`` ends it); the node's level where
        not worked out."""
        nodes = np.asarray(nodes, dtype=np.int64)
        z = self._static.node_xyz[nodes, 2].copy()
        if self._place_z is not None and len(nodes):
            pz = self._place_z[nodes]
            z = np.where(np.isfinite(pz), pz, z)
        return z

    @property
    def shape(self):
        return self.cost.shape[1:]

    def points(self, max_cost: float | None = None) -> np.ndarray:
        """(n, 3) end positions (cell centres at their level) costing at most ``max_cost``."""
        lim = self.allowance if max_cost is None else float(max_cost)
        k, i, j = np.nonzero(self.end_ok & (self.cost <= lim + 1e-9))
        nodes = self._static.node[k, i * self._static.nx + j]
        out = self._static.node_xyz[nodes].copy()       # the cell's centre, or its node's place in it
        out[:, 2] = self._end_z(nodes)                  # where the base rests there
        if self.ends:
            for row, nd in enumerate(nodes.tolist()):
                if nd in self.ends:
                    out[row] = self.ends[nd]
        return out

    def _cell(self, x, y):
        r = self.resolution
        j, i = int(math.floor(x / r)), int(math.floor(y / r))
        ny, nx = self.shape
        if not (0 <= i < ny and 0 <= j < nx):
            return None
        return i, j

    def _slot(self, x, y, z=None, need_end=True):
        c = self._cell(x, y)
        if c is None:
            return None
        i, j = c
        best, bd = None, math.inf
        g = self._static
        for k in range(self.z.shape[0]):
            zk = self.z[k, i, j]
            if not np.isfinite(zk) or not np.isfinite(self.cost[k, i, j]):
                continue
            if need_end and not self.end_ok[k, i, j]:
                continue
            d = 0.0 if z is None else abs(zk - z)
            if z is not None and g is not None:
                # the level, or where a base ending there rests (a slope: lower)
                nd = int(g.node[k, i * g.nx + j])
                if nd >= 0:
                    d = min(d, abs(float(self._end_z([nd])[0]) - z))
            if z is not None and d > 0.3:
                continue
            key = (d, self.cost[k, i, j]) if z is not None else (self.cost[k, i, j], 0)
            if best is None or key < bd:
                best, bd = (k, i, j), key
        return best

    def contains(self, x: float, y: float, z: float | None = None) -> bool:
        """The model can end at (x, y) (on the level nearest z, any level if None)."""
        s = self._slot(x, y, z)
        return s is not None and bool(self.cost[s] <= self.allowance + 1e-9)

    def cost_at(self, x: float, y: float, z: float | None = None) -> float:
        s = self._slot(x, y, z, need_end=False)
        return float(self.cost[s]) if s is not None else math.inf

    def shortest_path(self, to) -> list[tuple[float, float, float]]:
        """Waypoints (x, y, z) from the model's position to ``to`` ((x, y) or (x, y, z)).

        Collinear grid steps are merged; vertical steps (ladders) keep both
        ends. Empty when ``to`` is not reachable.
        """
        to = tuple(float(v) for v in to)
        s = self._slot(to[0], to[1], to[2] if len(to) > 2 else None, need_end=False)
        if s is None or not np.isfinite(self.cost[s]):
            return []
        g = self._static
        k, i, j = s
        node = int(g.node[k, i * g.nx + j])
        chain = []
        while node >= 0 and node != self._source:
            chain.append(node)
            node = int(self._pred[node])
        chain.reverse()
        pts = [tuple(self.start)] + [self.ends.get(n) or tuple(float(v) for v in g.node_xyz[n]) for n in chain]
        if chain and chain[-1] not in self.ends:
            # the end rests where a move ending there does (a slope: under the base centre)
            pts[-1] = (pts[-1][0], pts[-1][1], float(self._end_z([chain[-1]])[0]))
        out = [pts[0]]
        for a, b in zip(pts[1:], pts[2:] + [None]):
            if b is None:
                out.append(a)
                break
            p = np.array(out[-1])
            v1 = np.array(a) - p
            v2 = np.array(b) - np.array(a)
            cross = abs(v1[0] * v2[1] - v1[1] * v2[0])
            if cross > 1e-9 or abs(v1[2]) > 1e-6 or abs(v2[2]) > 1e-6 or np.dot(v1[:2], v2[:2]) < 0:
                out.append(a)
        return out

    def summary(self, pieces=None) -> dict:
        """Counts per supporting surface ("levels": piece, cells, z range), area, dearest cell.

        ``pieces``: the world's pieces (for their ids); without them, indices.
        """
        g = self._static
        lim = self.allowance
        k, i, j = np.nonzero(self.end_ok & (self.cost <= lim + 1e-9))
        cells = i * g.nx + j
        nodes = g.node[k, cells]
        sup = g.node_piece[nodes] if len(nodes) else np.zeros(0, dtype=np.int64)
        zs = g.node_xyz[nodes, 2] if len(nodes) else np.zeros(0)
        levels = []
        for pc in np.unique(sup):
            sel = sup == pc
            name = (pieces[pc].id if pieces is not None and pc >= 0 else (str(int(pc)) if pc >= 0 else "?"))
            levels.append({"surface": name, "cells": int(sel.sum()),
                           "z": round(float(zs[sel].min()), 3), "z_max": round(float(zs[sel].max()), 3)})
        levels.sort(key=lambda lv: (lv["z"], lv["surface"]))
        fin = self.cost[self.end_ok & (self.cost <= lim + 1e-9)]
        return {"model": self.model, "mode": self.mode, "allowance": self.allowance,
                "reason": self.reason, "resolution": self.resolution, "cells": int(len(nodes)),
                "area_sq_in": round(len(nodes) * self.resolution ** 2, 2),
                "levels": levels,
                "max_cost": round(float(fin.max()), 3) if len(fin) else 0.0,
                **self.stats}


def reachable(world, model: str, mode: str = "walk", resolution: float | None = None,
              settings: dict | None = None, speed: float | None = None) -> ReachGrid:
    """The reachable area of ``model`` for ``mode`` ("walk" or "run").

    A Dijkstra over the cached multi-level grid; enemies block (their bases
    and every edge that would touch them), allies and Dead models may be
    crossed but not ended on.
    """
    import time

    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra
    t0 = time.perf_counter()
    st = globals()["settings"](settings)
    if mode not in ("walk", "run"):
        raise InputError(Problem("<reach>", None, "mode", f"the reachable area is for walk or run, not {mode!r}"))
    res = float(resolution if resolution is not None else st["resolution"])
    if not res > 0:
        raise InputError(Problem("<reach>", None, "resolution", "must be a positive number of inches"))
    try:
        ctx = _Ctx(world, model, st)
    except KeyError:
        raise InputError(Problem("<reach>", None, "model", f"no model {model!r} in the scene")) from None
    st = ctx.st                  # (a crawling model's step height)
    hb = ctx.hb
    spd = effective_spd(hb, st, speed, getattr(getattr(world, "scene", None), "path", None))
    allowance = allowance_for(mode, spd, st)
    g = _static(world, ctx.R, ctx.h, res, st)
    t1 = time.perf_counter()
    start = (float(hb.x), float(hb.y), float(hb.z))
    n = len(g.node_xyz)
    kmax = g.z.shape[0]
    shape = (kmax, g.ny, g.nx)
    states = set(hb.states)
    refusal = _state_refusal(states, mode, st)
    blocked_all = bool(refusal)
    # dynamic: enemies block nodes and edges; allies and the dead only forbid ending on them
    alive_block = np.zeros(n, dtype=bool)
    end_bad = np.zeros(n, dtype=bool)
    P = g.node_xyz
    G = g.graph()
    ne = len(G.dst)
    ekeep = np.ones(ne, dtype=bool)
    dropped = []                 # positions of the static edges dropped (ekeep False)
    ctol = float(st["contact_tolerance"])
    for i in range(len(ctx.ids)):
        c, r, hh = ctx.centers[i], ctx.radii[i], ctx.heights[i]
        # only the nodes in a box around the model can overlap it or be near it
        # (the exact tests below then run on those alone, elementwise as before)
        box = ctx.R + r + 2 * res + 0.1 + abs(ctol) + 1e-6
        cn = np.nonzero((np.abs(P[:, 0] - c[0]) < box) & (np.abs(P[:, 1] - c[1]) < box))[0]
        if len(cn) == 0:
            continue
        Pc = P[cn]
        ov = _overlap(Pc, ctx.R, ctx.h, c, r, hh, tol=ctol)
        end_bad[cn] |= ov
        if ctx.enemy[i]:
            alive_block[cn] |= ov
            # edges passing within touching distance of the enemy
            near_r = ctx.R + r + 2 * res + 0.1
            dc = np.linalg.norm(Pc[:, :2] - c[:2], axis=1)
            near = dc < near_r
            nmask = np.zeros(n, dtype=bool)
            nmask[cn[near]] = True
            cand = G.touching(cn[near], nmask)
            if len(cand):
                # bounds of each step's distance to the model: at most its nearer
                # end's, at least that less half its length (a point of a step lies
                # within half its length of an end; an end not near is at least
                # near_r away). Steps clear of the model by the bounds are settled
                # so; the rest are measured exactly.
                thr = ctx.R + r + ctol
                dnode = np.full(n, near_r)
                dnode[cn[near]] = dc[near]
                dmin = np.minimum(dnode[G.src[cand]], dnode[G.dst[cand]])
                sure = dmin <= thr - 1e-6
                za, zb = P[G.src[cand], 2], P[G.dst[cand], 2]
                zlo = np.minimum(za, zb)
                zhi = np.maximum(za, zb) + ctx.h
                vert = (zlo < c[2] + hh) & (zhi > c[2])
                dropped.append(cand[sure & vert])
                ekeep[dropped[-1]] = False
                k = np.nonzero(~sure & vert)[0]
                cand = cand[k[dmin[k] - G.half_len(cand[k]) <= thr + 1e-6]]
            if len(cand):
                a, b = P[G.src[cand]], P[G.dst[cand]]
                ab = b[:, :2] - a[:, :2]
                t = np.clip(np.einsum("ij,ij->i", c[:2] - a[:, :2], ab) / np.maximum(np.einsum("ij,ij->i", ab, ab), 1e-12), 0, 1)
                q = a[:, :2] + ab * t[:, None]
                dxy = np.linalg.norm(q - c[:2], axis=1)
                dropped.append(cand[dxy <= thr])
                ekeep[dropped[-1]] = False
    if not (_skills(hb) & set(st["climbing_skills"])):
        import shapely
        utags = set(st["unscalable_tags"])
        uareas = [a for a in ctx.areas if a.tags & utags]
        # an unscalable area the base touches at the start does not bar it (it may move in
        # it and leave it, as the path check lets it): the others' nodes are blocked
        sxyz = np.array([start])
        free_in = {id(a) for a in uareas if _within(a.poly, sxyz[:, :2], ctx.R + _EPS)[0]
                   and a.zlo - 0.05 <= start[2] <= a.zhi + 0.05}
        if not free_in:
            alive_block |= g.unscalable[g.node_slot, g.node_cell]
        else:
            for a in uareas:
                if id(a) not in free_in:
                    alive_block |= _within(a.poly, P[:, :2], ctx.R + _EPS) & \
                        (P[:, 2] >= a.zlo - 0.05) & (P[:, 2] <= a.zhi + 0.05)
        # nor a step between two nodes clear of an unscalable area that sweeps the base
        # over it (a long step past its corner): the path check follows the step
        for a in [a for a in uareas if id(a) not in free_in]:
            # (a step is at most about 4 cells long: one of its ends is near the area)
            near = np.nonzero(_within(a.poly, P[:, :2], ctx.R + _EPS + 3.0 * res))[0]
            if not len(near):
                continue
            nmask = np.zeros(n, dtype=bool)
            nmask[near] = True
            cand = G.touching(near, nmask)
            cand = cand[G.src[cand] < n]
            cand = cand[G.dst[cand] < n]
            if not len(cand):
                continue
            za, zb = P[G.src[cand], 2], P[G.dst[cand], 2]
            zok = (np.maximum(za, zb) >= a.zlo - 0.05) & (np.minimum(za, zb) <= a.zhi + 0.05)
            lines = shapely.linestrings(np.stack([P[G.src[cand], :2], P[G.dst[cand], :2]], axis=1))
            buf = a.poly.buffer(ctx.R + _EPS, quad_segs=64)
            hit = cand[zok & np.asarray(shapely.intersects(buf, lines), dtype=bool)]
            if len(hit):
                dropped.append(hit)
                ekeep[hit] = False
        # no step, climb or ladder up onto an unscalable piece (leaving one is free)
        U = _unscalable_pieces(ctx.world, st)
        if U:
            onto = G.onto(g, U)
            dropped.append(onto)
            ekeep[onto] = False
    blocked_nodes = np.nonzero(alive_block)[0]
    if len(blocked_nodes):
        dropped.append(G.touching(blocked_nodes))
        ekeep[dropped[-1]] = False
    # the source: a virtual node joined to the cells around the model at its level
    src = n
    sx = int(math.floor(start[0] / res))
    sy = int(math.floor(start[1] / res))
    s_nodes, s_w = [], []
    step = _step_height(ctx.h, st)
    # the model's level, as a move from there starts: its stance nearest its height (on
    # a slope the World rests it by its centre, the grid by its highest support)
    z_level = start[2]
    l0, h0, d0, _, _ = ctx.layers(np.array([start[:2]]))
    s0 = _stances(l0, h0, d0, ctx.h, 4)[0]
    s0 = s0[np.isfinite(s0)]
    if len(s0):
        z0 = float(s0[np.argmin(np.abs(s0 - start[2]))])
        if abs(z0 - start[2]) <= float(st["level_tolerance"]) or not _hanging(ctx, start):
            z_level = z0
    # the cells next to the model at its level; where the widened clearance leaves
    # none (a base flush with scenery), the nearest within 3 cells
    for reach_cells in (1.5, 3.0):
        span = int(math.ceil(reach_cells))
        for dy in range(-span, span + 1):
            for dx in range(-span, span + 1):
                cx_, cy_ = sx + dx, sy + dy
                if not (0 <= cx_ < g.nx and 0 <= cy_ < g.ny):
                    continue
                cell = cy_ * g.nx + cx_
                for k in range(kmax):
                    nd = g.node[k, cell]
                    if nd < 0 or alive_block[nd]:
                        continue
                    if abs(g.node_xyz[nd, 2] - z_level) > min(step, 0.3):
                        continue
                    d = float(np.hypot(g.node_xyz[nd, 0] - start[0], g.node_xyz[nd, 1] - start[1]))
                    if d > reach_cells * res * 1.0001 + 1e-9 and not (abs(dx) <= 1 and abs(dy) <= 1):
                        continue
                    s_nodes.append(nd)
                    s_w.append(max(d * g.node_mult[nd], 1e-9))
        if s_nodes:
            break
    flying = bool(states & set(st["flying_states"]))
    if not blocked_all and not flying and _hanging(ctx, start):
        refusal = (f"the model hangs on a vertical surface at z {start[2]:.2f}: only a Climb (or a Jump) "
                   f"goes on from there")
        blocked_all = True
    if blocked_all or (not s_nodes and not flying):
        dist = np.full(n + 1, np.inf)
        pred = np.full(n + 1, -9999)
    elif flying:
        # over scenery and models, measured on the table's surface: the straight
        # distance to the highest place in each cell
        d = np.hypot(P[:, 0] - start[0], P[:, 1] - start[1])
        top = np.zeros(n, dtype=bool)
        zz_ = g.z
        hi_slot = np.where(np.isfinite(zz_), np.arange(kmax)[:, None], -1).max(axis=0)
        top[g.node_slot == hi_slot[g.node_cell]] = True
        dist = np.concatenate([np.where(top & (d <= allowance + 1e-9), d, np.inf), [0.0]])
        pred = np.full(n + 1, src)
        pred[n] = -9999
    else:
        # the static graph (canonical CSR order) with the dropped edges made
        # infinitely dear, plus the virtual source's row: with a finite limit an
        # infinite edge never relaxes a node, so the search, its ties and its
        # predecessors are those over the matrix scipy builds from the kept edges
        s_nodes_a = np.asarray(s_nodes, dtype=np.int64)
        s_w_a = np.maximum(np.asarray(s_w, dtype=float), 1e-12)
        o = np.argsort(s_nodes_a, kind="stable")
        s_nodes_a, s_w_a = s_nodes_a[o], s_w_a[o]
        if len(s_nodes_a) > 1 and np.any(s_nodes_a[1:] == s_nodes_a[:-1]):
            u, first = np.unique(s_nodes_a, return_index=True)
            s_nodes_a, s_w_a = u, np.add.reduceat(s_w_a, first)
        limit = allowance + 1e-9
        if not math.isfinite(limit):                 # (never: an allowance is finite)
            csum = np.concatenate([[0], np.cumsum(ekeep)])
            indptr = csum[G.indptr]
            indices = np.concatenate([G.dst[ekeep], s_nodes_a.astype(np.int32)])
            data = np.concatenate([G.w[ekeep], s_w_a])
        else:
            indptr = G.indptr.copy()
            indices = np.concatenate([G.dst, s_nodes_a.astype(np.int32)])
            data = np.concatenate([G.w, s_w_a])
            for d in dropped:
                data[d] = np.inf
        indptr[-1] = indptr[-2] + len(s_nodes_a)
        # the steps and places found too near a face by the exact test (kept per static
        # graph) are dropped; the search is then repeated until every step of its tree
        # has passed that test (steps are only ever dropped: it ends)
        chk = _tree_check(world, g, G, ctx, st, step)
        data[:ne][chk.edge_state == 2] = np.inf
        data[ne:][chk.node_state[s_nodes_a] == 2] = np.inf
        for _ in range(1000):
            mat = csr_matrix((data, indices, indptr.astype(np.int32)), shape=(n + 1, n + 1))
            mat.has_sorted_indices = True
            mat.has_canonical_format = True
            dist, pred = dijkstra(mat, directed=True, indices=src, limit=limit, return_predecessors=True)
            bad_e, bad_n = chk.validate(np.nonzero(np.isfinite(dist[:n]))[0], pred)
            if not (len(bad_e) or len(bad_n)):
                break
            data[bad_e] = np.inf
            data[ne:][np.isin(s_nodes_a, bad_n)] = np.inf
    cost = np.full(shape, np.inf)
    zz = g.z.reshape(shape)
    flat = cost.reshape(kmax, -1)
    flat[g.node_slot, g.node_cell] = dist[:n]
    end_ok_flat = np.zeros((kmax, g.nx * g.ny), dtype=bool)
    ok_nodes = ~end_bad & np.isfinite(dist[:n]) & (dist[:n] <= allowance + 1e-9)
    ends = {}
    eng = _engaged_targets(ctx, start) if "Engaged" in states and mode == "walk" and not blocked_all else []
    if eng:
        # only directly toward an engaging enemy: the cells the line to it crosses,
        # each ending at the point of the line nearest its centre, checked by the
        # path check along that straight line (its cost; its route is the line). The
        # cell where the line meets the enemy's base ends there, in base contact (the
        # Walk's purpose; its centre is inside the enemy's base, so the grid leaves it
        # out), and the cell the model stands in ends where it stands (a Walk of 0", as
        # `eldfall move` allows: a model already in contact can go no nearer)
        a = np.array(start[:2])
        exact = np.full(n, np.inf)
        on_model = end_bad | alive_block
        for i in eng:
            u = ctx.centers[i, :2] - a
            u = u / (np.linalg.norm(u) or 1.0)
            v = P[:, :2] - a
            t = v @ u
            q = a[None, :] + np.maximum(t, 0.0)[:, None] * u[None, :]
            inside = np.all(np.abs(q - P[:, :2]) <= 0.5 * res + 1e-9, axis=1)
            # the cell holding the point of base contact ends there (the nearest point of
            # the line to its centre may fall short of the contact)
            rc = check_path(world, model, [tuple(float(v) for v in ctx.centers[i, :2])], "walk",
                            speed=speed, settings=settings)
            if rc.legal and rc.stopped_by is not None:
                # the path check finds the contact to 0.0001" (its end may overlap the
                # enemy's base by that much, within the contact tolerance): the end offered
                # is where the bases just touch, as a Walk declared to there ends
                e_ = np.array(rc.end)
                back = float(ctx.R + ctx.radii[i] - np.linalg.norm(e_[:2] - ctx.centers[i, :2]))
                if back > 0:
                    to2 = (float(e_[0] - u[0] * back), float(e_[1] - u[1] * back))
                    r2 = check_path(world, model, [to2], "walk", speed=speed, settings=settings)
                    if r2.legal and np.linalg.norm(np.array(r2.end[:2]) - np.array(to2)) <= 2e-4:
                        rc, e_ = r2, np.array(r2.end)
                # (every cell the point lies in: on a cell's edge, both, as with the line)
                at_c = np.nonzero(np.all(np.abs(P[:, :2] - e_[:2]) <= 0.5 * res + 1e-9, axis=1)
                                  & (np.abs(P[:, 2] - e_[2]) <= 0.3))[0]
                for nd in at_c:
                    if not np.isfinite(exact[nd]):
                        exact[nd] = rc.distance
                        ends[int(nd)] = tuple(float(c) for c in rc.end)
            # (the cell the model stands in is the one its position falls in, as cost_at
            # reads it; a cell behind the model that only touches it is not on the line)
            ahead = (t > 1e-6) | (g.node_cell == sy * g.nx + sx)
            for nd in np.nonzero(inside & ahead & (ok_nodes | on_model) & ~np.isfinite(exact))[0]:
                to = (float(q[nd, 0]), float(q[nd, 1]), float(P[nd, 2]))
                r = check_path(world, model, [to], "walk", speed=speed, settings=settings)
                in_cell = bool(np.all(np.abs(np.array(r.end[:2]) - P[nd, :2]) <= 0.5 * res + 1e-9))
                if r.legal and (np.linalg.norm(np.array(r.end) - np.array(to)) <= 1e-6
                                or (r.stopped_by is not None and in_cell)):
                    exact[nd] = r.distance
                    ends[int(nd)] = tuple(float(c) for c in r.end)
        dist = np.concatenate([exact, [0.0]])
        pred = np.where(np.isfinite(dist), src, -9999)
        pred[n] = -9999
        cost = np.full(shape, np.inf)
        flat = cost.reshape(kmax, -1)
        flat[g.node_slot, g.node_cell] = dist[:n]
        ok_nodes = np.isfinite(exact) & (exact <= allowance + 1e-9)
    end_ok_flat[g.node_slot, g.node_cell] = ok_nodes
    # where a base ending at each end node rests (as check_path ends a move there); a
    # Flying model lands on its highest support, as its move does
    if not flying:
        if g.place_z is None:
            g.place_z = np.full(n, np.nan)
        need = np.nonzero(ok_nodes & np.isnan(g.place_z))[0]
        if len(need):
            g.place_z[need] = _rest_z(world, ctx.R, st, P[need, :2], P[need, 2])
    t2 = time.perf_counter()
    stats = {"static_ms": round(g.build_ms, 1), "query_ms": round((t2 - t1) * 1000.0, 1),
             "total_ms": round((t2 - t0) * 1000.0, 1), "nodes": int(n), "edges": int(np.count_nonzero(ekeep))}
    return ReachGrid(model, mode, 0.0 if refusal else allowance, res, zz, cost, end_ok_flat.reshape(shape), start,
                     pred, g, src, stats, refusal, ends, None if flying else g.place_z)


__all__ = ["MoveResult", "Fall", "PathPoint", "ReachGrid", "check_path", "reachable", "hitbox_distance",
           "fall_rolls", "fall", "melee_reach", "effective_spd", "allowance_for", "settings", "Columns",
           "CRAWLING_STATE", "step_height_of"]
