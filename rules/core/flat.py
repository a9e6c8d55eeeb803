"""A pure-Python Geometry for an open flat table, with optional box obstacles.

It implements the ``rules.core.geometry.Geometry`` protocol without the engine,
so that a rule can be unit-tested on a hand-made layout (and the Norova and
Eldfall games can run where the engine is not wanted). Models are vertical
cylinders standing on the table (z = 0 unless placed higher); boxes are
axis-aligned solids ``(id, x0, y0, x1, y1, height)``.

Line of sight follows the book's "any point to any point": 5 x 3 sample points
on each hitbox (left/centre/right across the line of sight, bottom/middle/top),
blocked by boxes and by third models' hitboxes (by the boxes only with
``models_block=False``). ``visible_fraction`` is the
share of the target's sample points seen from some viewer point.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from rules.core.geometry import FallAnswer as FlatFall
from rules.core.geometry import MoveAnswer as FlatMove
from rules.core.geometry import PathSightAnswer as FlatPathSight
from rules.core.geometry import SightAnswer as FlatSight
from rules.core.geometry import StepAnswer as FlatStep
from rules.core.geometry import TemplateAnswer as FlatTemplate
from rules.core.geometry import TemplateHitAnswer as FlatTemplateHit

Point = tuple[float, float, float]
EPS = 1e-3


@dataclass
class FlatModel:
    id: str
    x: float
    y: float
    z: float
    radius: float
    height: float
    full_height: float
    facing: float = 0.0
    awareness: float = 0.0
    states: frozenset = frozenset()
    base_height: float = 3.5 / 25.4
    awareness_bonus: float = 0.0       # added to the AG (Acute Senses: 3")
    profile_ag: float | None = None     # the profile's AG (None: the awareness given, less the bonus)


TEMPLATES_MM = {"circle-s": 70.0, "circle-l": 120.0, "spray-s": 213.0, "spray-l": 260.0}


class FlatGeometry:
    def __init__(self, table: tuple[float, float] = (36.0, 36.0), boxes: Iterable = ()):
        self.table = (float(table[0]), float(table[1]))
        self.boxes = [tuple(b) for b in boxes]
        self.models: dict[str, FlatModel] = {}
        self.version = 0

    # ---- setting up ---------------------------------------------------
    def add(self, id: str, x: float, y: float, *, z: float = 0.0, base: float = 32 / 25.4,
            height: float = 45 / 25.4, facing: float = 0.0, awareness: float = 0.0,
            states: Iterable[str] = ()) -> None:
        m = FlatModel(id, float(x), float(y), float(z), base / 2, height, height, float(facing),
                      float(awareness))
        self.models[id] = m
        self.set_states(id, states)

    def model_ids(self) -> list[str]:
        return list(self.models)

    def position(self, model: str) -> Point:
        m = self.models[model]
        return (m.x, m.y, m.z)

    def facing(self, model: str) -> float:
        return self.models[model].facing

    def place(self, model: str, point: Point, facing: float | None = None) -> None:
        m = self.models[model]
        m.x, m.y = float(point[0]), float(point[1])
        # with no height given it stands on the surface under it, as on the 3D table
        # (WorldGeometry.place): the highest box top no higher than its hitbox's top
        m.z = float(point[2]) if len(point) > 2 and point[2] is not None else \
            self._support(m.x, m.y, m.radius, m.z + m.height)
        if facing is not None:
            m.facing = float(facing) % 360.0
        self.version += 1

    def set_facing(self, model: str, facing: float) -> None:
        self.models[model].facing = float(facing) % 360.0
        self.version += 1

    def set_engaged_tolerance(self, degrees: float) -> None:
        self.engaged_tolerance_deg = float(degrees)    # the flat table checks no headings

    def set_walk_drop(self, height: float | None) -> None:
        self.walk_drop = height       # the flat table's boxes stop a route; it has no drops to refuse

    def set_awareness(self, model: str, ag: float | None) -> None:
        m = self.models[model]
        if m.profile_ag is None:
            m.profile_ag = m.awareness - m.awareness_bonus
        m.awareness = float(m.profile_ag if ag is None else ag) + m.awareness_bonus
        self.version += 1

    def set_states(self, model: str, states: Iterable[str]) -> None:
        m = self.models[model]
        m.states = frozenset(states)
        low = m.states & {"Crouched", "Dead", "Incapacitated"}
        m.height = m.base_height if low else m.full_height
        self.version += 1

    def remove(self, model: str) -> None:
        self.models.pop(model, None)
        self.version += 1

    # ---- measuring ----------------------------------------------------
    def _gap(self, a: FlatModel, b: FlatModel) -> float:
        horiz = max(0.0, math.hypot(a.x - b.x, a.y - b.y) - a.radius - b.radius)
        vert = max(0.0, b.z - (a.z + a.height), a.z - (b.z + b.height))
        return math.hypot(horiz, vert)

    def distance(self, a: str, b: str) -> float:
        if a == b:
            return 0.0
        return self._gap(self.models[a], self.models[b])

    def base_contact(self, a: str, b: str) -> bool:
        return a == b or self.distance(a, b) <= EPS

    def in_awareness(self, observer: str, other: str, extra: float = 0.0) -> bool:
        o = self.models[observer]
        return self.distance(observer, other) <= o.awareness + extra + EPS

    def in_reach(self, a: str, b: str, rch: float) -> bool:
        return self.distance(a, b) <= max(0.0, rch) + EPS

    def environments(self, model: str) -> frozenset[str]:
        return frozenset()

    def through_forest(self, viewer: str, target: str, *, moving: bool = False) -> bool:
        return False          # the flat table has no areas

    # ---- sight --------------------------------------------------------
    def _samples(self, m: FlatModel, toward: tuple[float, float]) -> list[Point]:
        dx, dy = toward[0] - m.x, toward[1] - m.y
        d = math.hypot(dx, dy) or 1.0
        px, py = -dy / d, dx / d
        r = m.radius * 0.98
        hs = (m.z + 0.02, m.z + m.height / 2, m.z + m.height - 0.02) if m.height > 0.1 else (
            m.z + m.height / 2,)
        offs = (-r, -r / 2, 0.0, r / 2, r)
        return [(m.x + px * o, m.y + py * o, h) for h in hs for o in offs]

    def _seg_box(self, p: Point, q: Point, box) -> bool:
        _, x0, y0, x1, y1, h = box
        lo = (x0, y0, 0.0)
        hi = (x1, y1, h)
        t0, t1 = 0.0, 1.0
        for i in range(3):
            d = q[i] - p[i]
            if abs(d) < 1e-12:
                if p[i] <= lo[i] or p[i] >= hi[i]:
                    return False
                continue
            a, b = (lo[i] - p[i]) / d, (hi[i] - p[i]) / d
            if a > b:
                a, b = b, a
            t0, t1 = max(t0, a), min(t1, b)
            if t0 >= t1:
                return False
        return True

    def _seg_model(self, p: Point, q: Point, m: FlatModel) -> bool:
        dx, dy = q[0] - p[0], q[1] - p[1]
        L2 = dx * dx + dy * dy
        t = 0.0 if L2 < 1e-12 else max(0.0, min(1.0, ((m.x - p[0]) * dx + (m.y - p[1]) * dy) / L2))
        cx, cy = p[0] + t * dx, p[1] + t * dy
        if math.hypot(cx - m.x, cy - m.y) >= m.radius:
            return False
        z = p[2] + t * (q[2] - p[2])
        return m.z <= z <= m.z + m.height

    def _blocked(self, p: Point, q: Point, skip: set[str]) -> str | None:
        for b in self.boxes:
            if self._seg_box(p, q, b):
                return b[0]
        for mid, m in self.models.items():
            if mid in skip or "Dead" in m.states:
                continue
            if self._seg_model(p, q, m):
                return mid
        return None

    def _front(self, v: FlatModel, t: FlatModel) -> bool:
        f = math.radians(v.facing)
        dx, dy = t.x - v.x, t.y - v.y
        return dx * math.cos(f) + dy * math.sin(f) >= -t.radius - EPS

    def sight(self, viewer: str, target: str, *, moving: bool = False,
              fraction: bool = False, models_block: bool = True) -> FlatSight:
        v, t = self.models[viewer], self.models[target]
        dist = self.distance(viewer, target)
        hd = t.z - v.z
        if viewer == target:
            return FlatSight(True, 1.0, True, 0.0, 0.0)
        if "Blinded" in v.states:
            return FlatSight(False, 0.0, False, dist, hd)
        flying = "Flying" in v.states or "Flying" in t.states
        arc = moving or flying or "Shrouded" in v.states or self._front(v, t)
        vs = self._samples(v, (t.x, t.y))
        ts = self._samples(t, (v.x, v.y))
        skip = {viewer, target} if models_block else set(self.models)   # else: the boxes only
        seen = 0
        blockers: set[str] = set()
        for q in ts:
            ok = False
            for p in vs:
                b = self._blocked(p, q, skip)
                if b is None:
                    ok = True
                    break
                blockers.add(b)
            seen += ok
        frac = seen / len(ts)
        los = (frac > 0 or flying) and arc
        cover, piece = "none", None
        if los and not flying:
            for b in self.boxes:
                if b[0] not in blockers:
                    continue
                _, x0, y0, x1, y1, h = b
                gx = max(x0 - t.x, 0.0, t.x - x1)
                gy = max(y0 - t.y, 0.0, t.y - y1)
                if math.hypot(gx, gy) - t.radius <= 1.0 + EPS and h > t.z + t.base_height:
                    heavy = h >= t.z + t.full_height and min(x1 - x0, y1 - y0) >= 0 and \
                        max(x1 - x0, y1 - y0) >= 2 * t.radius
                    level = "heavy" if heavy else "light"
                    if cover != "heavy":
                        cover, piece = level, b[0]
            if cover == "none" and "Crouched" in t.states:
                cover = "light"
        return FlatSight(los, frac if los else 0.0, arc, dist, hd, cover, piece)

    def sight_estimate(self, viewer: str, target: str, *, moving: bool = False,
                       fraction: bool = True) -> FlatSight:
        """The flat table's sight is cheap: the estimate is the answer itself."""
        return self.sight(viewer, target, moving=moving, fraction=fraction)

    def sight_along_path(self, mover: str, path: Sequence[Point],
                         observers: Sequence[str]) -> list[FlatPathSight]:
        m = self.models[mover]
        home = (m.x, m.y, m.z)
        pts = _sample_path([home] + [tuple(p) for p in path], step=0.5)
        out = {o: FlatPathSight(o, False, None, None, False, None) for o in observers}
        try:
            for p in pts:
                m.x, m.y, m.z = p
                for o in observers:
                    r = out[o]
                    if self.sight(o, mover, moving=False).los:
                        r.had_los = True
                        r.first = r.first or p
                        r.last = p
                        r.seen.append(p)
                    if not r.entered_awareness and self.in_awareness(o, mover):
                        r.entered_awareness, r.awareness_point = True, p
        finally:
            m.x, m.y, m.z = home
        return [out[o] for o in observers]

    # ---- movement -----------------------------------------------------
    def check_move(self, model: str, mode: str, waypoints: Sequence[Point], speed: float, *,
                   enemies: Mapping[str, float] | None = None) -> FlatMove:
        if mode == "push":
            return self._push(model, waypoints, speed, enemies)
        m = self.models[model]
        enemies = dict(enemies or {})
        home = (m.x, m.y, m.z)
        route = [home] + [(float(p[0]), float(p[1]), 0.0 if len(p) < 3 else float(p[2]))
                          for p in waypoints]
        length = sum(math.dist(a[:2], b[:2]) for a, b in zip(route, route[1:]))
        end = route[-1]
        speed = allowance(mode, speed)
        res = FlatMove(True, "", length, float(speed), end, path=route)
        if mode not in ("walk", "run", "climb", "jump", "fly"):
            return FlatMove(False, f"unknown movement {mode!r}", length, speed, home)
        if length > speed + EPS:
            res.legal, res.reason = False, f"the route is {length:.2f}\" long, more than {speed:.2f}\""
            return res
        pts = _sample_path(route, step=0.1)
        inside = {e: self.distance(model, e) <= r + EPS for e, r in enemies.items() if e in self.models}
        try:
            for i, p in enumerate(pts):
                m.x, m.y, m.z = p
                if not (m.radius - EPS <= p[0] <= self.table[0] - m.radius + EPS and
                        m.radius - EPS <= p[1] <= self.table[1] - m.radius + EPS):
                    res.legal, res.reason = False, f"leaves the table at ({p[0]:.2f}, {p[1]:.2f})"
                    return res
                for b in (() if mode == "fly" else self.boxes):     # a flight passes over them
                    _, x0, y0, x1, y1, h = b
                    gx = max(x0 - p[0], 0.0, p[0] - x1)
                    gy = max(y0 - p[1], 0.0, p[1] - y1)
                    if math.hypot(gx, gy) < m.radius - EPS and h > m.height:
                        res.legal, res.reason = False, f"blocked by {b[0]}"
                        return res
                for e, r in enemies.items():
                    if e not in self.models:
                        continue
                    if mode == "fly" and "Flying" not in self.models[e].states:
                        continue     # a flight crosses models; only a Flying enemy reaches it (engine.motion)
                    d = self.distance(model, e)
                    if mode != "fly" and (d < -EPS or math.hypot(p[0] - self.models[e].x, p[1] - self.models[e].y) <
                                          m.radius + self.models[e].radius - 0.02):
                        res.legal, res.reason = False, f"passes through enemy {e}"
                        return res
                    if not inside[e] and d <= r + EPS:
                        inside[e] = True
                        res.opportunity_points.append((e, p))
                    if mode != "fly" and d <= EPS + 0.02 and i < len(pts) - 1 and res.stopped_by is None:
                        res.stopped_by = e
                if res.stopped_by is not None:
                    res.end = p
                    break
            for oid, o in self.models.items():
                # no model ends on another, a Dead one included ("no model may end movement
                # on top of a Dead model"); an enemy already stopped the move at contact
                if oid == model or (oid in enemies and "Dead" not in o.states):
                    continue
                if math.hypot(res.end[0] - o.x, res.end[1] - o.y) < m.radius + o.radius - 0.02:
                    res.legal, res.reason = False, f"would end overlapping {oid}"
                    return res
        finally:
            m.x, m.y, m.z = home
        if mode != "fly":        # a flight passes over the boxes: no steps
            upto = pts.index(res.end) + 1 if res.stopped_by is not None and res.end in pts else len(pts)
            res.steps = self._route_steps(m, pts[:upto])
        return res

    def _route_steps(self, m: FlatModel, pts: Sequence[Point]) -> list:
        """The changes of level along sampled points: the base stands on the highest box
        it overlaps that is no more than its height above its level (a taller one blocks
        the walk), else on the table; each change is a step (boxes have no slopes)."""
        out = []
        level, piece = self._support_piece(pts[0][0], pts[0][1], m.radius, pts[0][2] + m.height)
        for prev, p in zip(pts, pts[1:]):
            z, pc = self._support_piece(p[0], p[1], m.radius, level + m.height)
            if abs(z - level) > EPS:
                out.append(FlatStep(z - level, tuple(prev), pc if z > level else piece))
            level, piece = z, pc
        return out

    def _support_piece(self, x: float, y: float, radius: float, below: float) -> tuple[float, str | None]:
        """(z, box id) of the highest box top under a base at (x, y) no higher than
        ``below``; (0, None) on the table."""
        z, pc = 0.0, None
        for b, x0, y0, x1, y1, h in self.boxes:
            if h <= below + EPS and h > z and math.hypot(max(x0 - x, 0.0, x - x1),
                                                         max(y0 - y, 0.0, y - y1)) < radius - EPS:
                z, pc = float(h), b
        return z, pc

    def _support(self, x: float, y: float, radius: float, below: float) -> float:
        """The highest box top (or the table) under a base at (x, y) no higher than ``below``."""
        z = 0.0
        for _, x0, y0, x1, y1, h in self.boxes:
            if h <= below + EPS and math.hypot(max(x0 - x, 0.0, x - x1),
                                               max(y0 - y, 0.0, y - y1)) < radius - EPS:
                z = max(z, float(h))
        return z

    def _push(self, model: str, waypoints: Sequence[Point], speed: float,
              enemies: Mapping[str, float] | None) -> FlatMove:
        """A Knockback (the protocol's "push"): straight across from the model's level;
        a box that rises more than the hitbox above it stops the push (the model
        ends against it), a lower one is stepped onto, an enemy stops it at base
        contact; at the end the model comes down onto the surface under its base
        (a fall: one AG roll per whole half SPD, rounded up, when it is more)."""
        m = self.models[model]
        home = (m.x, m.y, m.z)
        tx, ty = float(waypoints[-1][0]), float(waypoints[-1][1])
        length = math.hypot(tx - m.x, ty - m.y)
        res = FlatMove(True, "", 0.0, length, home, path=[home])
        n = max(1, int(math.ceil(length / 0.05)))
        z = m.z
        end = home
        try:
            for i in range(1, n + 1):
                px = home[0] + (tx - home[0]) * i / n
                py = home[1] + (ty - home[1]) * i / n
                if not (m.radius - EPS <= px <= self.table[0] - m.radius + EPS and
                        m.radius - EPS <= py <= self.table[1] - m.radius + EPS):
                    res.legal, res.reason = False, f"would leave the table at ({px:.2f}, {py:.2f})"
                    return res
                top = z
                wall = None
                for b in self.boxes:
                    _, x0, y0, x1, y1, h = b
                    if h > z + EPS and math.hypot(max(x0 - px, 0.0, px - x1),
                                                  max(y0 - py, 0.0, py - y1)) < m.radius - EPS:
                        if h - z > m.height + EPS:
                            wall = b[0]
                        top = max(top, float(h))
                if wall is not None:
                    res.reason = f"stopped against {wall}"
                    break
                hit = None
                for e in (enemies or {}):
                    o = self.models.get(e)
                    if o is not None and math.hypot(px - o.x, py - o.y) < m.radius + o.radius - 0.02:
                        hit = e
                        break
                if hit is not None:
                    res.stopped_by = hit
                    res.reason = f"stopped by base contact with {hit}"
                    break
                z = top
                end = (px, py, z)
            ground = self._support(end[0], end[1], m.radius, end[2])
            if end[2] - ground > 0.05:
                step = math.ceil(float(speed) / 2)
                h = end[2] - ground
                rolls = 0 if step <= 0 or h <= step + 1e-6 else int(math.floor(h / step + 1e-6))
                res.falls.append(FlatFall(h, rolls, (end[0], end[1], ground)))
                res.reason = (res.reason + "; " if res.reason else "") + f"falls {h:.2f}\""
            end = (end[0], end[1], ground)
            res.end = end
            res.distance = math.hypot(end[0] - home[0], end[1] - home[1])
            res.path = [home, end]
            for oid, o in self.models.items():
                if oid == model or oid == res.stopped_by:
                    continue
                if math.hypot(end[0] - o.x, end[1] - o.y) < m.radius + o.radius - 0.02 and \
                        o.z < ground + m.height and ground < o.z + o.height:
                    res.legal, res.reason = False, f"would end overlapping {oid}"
                    return res
            res.reason = res.reason or "ok"
        finally:
            m.x, m.y, m.z = home
        return res

    def reachable_points(self, model: str, mode: str, speed: float, limit: int = 64, *,
                         enemies: Mapping[str, float] | None = None,
                         checked: bool = True) -> list[Point]:
        m = self.models[model]
        out: list[Point] = []
        spd = speed
        speed = allowance(mode, speed)
        n_dir = 12
        for frac in (1.0, 0.5):
            for k in range(n_dir):
                a = 2 * math.pi * k / n_dir
                p = (m.x + math.cos(a) * speed * frac, m.y + math.sin(a) * speed * frac, m.z)
                mv = self.check_move(model, mode, [p], spd, enemies=enemies)
                if mv.legal:
                    out.append(tuple(mv.end))
                if len(out) >= limit:
                    return out
        # towards each enemy: up to base contact
        for e in (enemies or {}):
            if e not in self.models:
                continue
            o = self.models[e]
            d = math.hypot(o.x - m.x, o.y - m.y)
            gap = d - m.radius - o.radius
            if d < 1e-9 or gap <= 0:
                continue
            step = min(speed, gap)
            p = (m.x + (o.x - m.x) / d * step, m.y + (o.y - m.y) / d * step, m.z)
            mv = self.check_move(model, mode, [p], spd, enemies=enemies)
            if mv.legal and len(out) < limit:
                out.append(tuple(mv.end))
        return out

    def drop(self, model: str, speed: float) -> FlatFall:
        """Down to the table (z 0): one AG roll per whole half-SPD fallen beyond half SPD."""
        m = self.models[model]
        h = m.z
        m.z = 0.0
        self.version += 1
        step = math.ceil(speed / 2)
        rolls = 0 if step <= 0 or h <= step + 1e-6 else int(math.floor(h / step + 1e-6))
        return FlatFall(h, rolls, (m.x, m.y, 0.0))

    # ---- objects and summons -------------------------------------------
    def touches(self, model: str, piece: str) -> bool:
        m = self.models[model]
        for b in self.boxes:
            if b[0] == piece:
                _, x0, y0, x1, y1, h = b
                gx = max(x0 - m.x, 0.0, m.x - x1)
                gy = max(y0 - m.y, 0.0, m.y - y1)
                return math.hypot(gx, gy) <= m.radius + 0.05
        return False

    def free_spot(self, model: str, point: Point, radius: float, height: float) -> bool:
        x, y = point[0], point[1]
        if not (radius <= x <= self.table[0] - radius and radius <= y <= self.table[1] - radius):
            return False
        for oid, o in self.models.items():
            if oid != model and math.hypot(o.x - x, o.y - y) < o.radius + radius - 1e-3:
                return False
        for b in self.boxes:
            _, x0, y0, x1, y1, h = b
            if math.hypot(max(x0 - x, 0.0, x - x1), max(y0 - y, 0.0, y - y1)) < radius:
                return False
        return True

    def add_model(self, unit, point: Point, facing: float = 0.0) -> None:
        ag = float(unit.stats.get("AG", 0)) + (3.0 if "Acute Senses" in unit.traits else 0.0)
        self.add(unit.id, point[0], point[1], z=point[2] if len(point) > 2 else 0.0,
                 base=unit.base, height=unit.height, facing=facing, awareness=ag,
                 states=unit.states)
        m = self.models[unit.id]
        m.awareness_bonus = 3.0 if "Acute Senses" in unit.traits else 0.0
        m.profile_ag = float(unit.stats.get("AG", 0))

    # ---- templates ----------------------------------------------------
    def template(self, kind: str, *, user: str, target: str | None = None,
                 at: Point | None = None, aim: Point | None = None, band: str = "up",
                 count: int = 1) -> FlatTemplate:
        if kind not in TEMPLATES_MM:
            return FlatTemplate(False, f"unknown template {kind!r}", False)
        size = TEMPLATES_MM[kind] / 25.4
        u = self.models[user]
        if kind.startswith("circle"):
            if at is None:
                if target is None:
                    return FlatTemplate(False, "a circle needs a centre or a target", False)
                t = self.models[target]
                at = (t.x, t.y, t.z)
            cx, cy, cz = at
            R = size / 2
            hits = []
            full = False
            for mid, m in self.models.items():
                if mid == user or "Dead" in m.states:
                    continue
                d = math.hypot(m.x - cx, m.y - cy)
                if d > R + m.radius:
                    continue
                if abs(m.z - cz) > 3.0 + EPS:
                    continue
                frac = 1.0 if d + m.radius <= R else max(0.0, (R + m.radius - d) / (2 * m.radius))
                if mid == target:
                    full = d + m.radius <= R + EPS
                holders = {o for o, om in self.models.items()
                           if math.hypot(om.x - cx, om.y - cy) <= om.radius}
                los = self._blocked((cx, cy, cz + 0.05), (m.x, m.y, m.z + m.height / 2),
                                    {mid} | holders) is None
                if los:
                    hits.append(FlatTemplateHit(mid, frac, True, True, count))
            ok = target is None or full
            return FlatTemplate(ok, "" if ok else "the main target is not fully covered", full, hits)
        # spray: a teardrop approximated by a trapezoid from the user's base edge
        if aim is None:
            if target is None:
                return FlatTemplate(False, "a spray needs an aim point or a target", False)
            t = self.models[target]
            aim = (t.x, t.y, t.z)
        dx, dy = aim[0] - u.x, aim[1] - u.y
        d = math.hypot(dx, dy) or 1.0
        ux, uy = dx / d, dy / d
        near_w, far_w = 0.3, size * 0.35
        hits, full = [], False
        for mid, m in self.models.items():
            if mid == user or "Dead" in m.states:
                continue
            rx, ry = m.x - u.x, m.y - u.y
            along = rx * ux + ry * uy - u.radius
            across = abs(-rx * uy + ry * ux)
            if along + m.radius < 0 or along - m.radius > size:
                continue
            half = (near_w + (far_w - near_w) * max(0.0, min(1.0, along / size))) / 2
            if across - m.radius > half:
                continue
            if abs(m.z - u.z) > 5.0 + EPS:
                continue
            inside = along - m.radius >= 0 and along + m.radius <= size and across + m.radius <= half
            if mid == target:
                full = inside
            if self.sight(user, mid, moving=True).los:
                hits.append(FlatTemplateHit(mid, 1.0 if inside else 0.5, True, True, count))
        ok = target is None or full
        return FlatTemplate(ok, "" if ok else "the main target is not fully covered", full, hits)

    def best_template(self, kind: str, *, user: str, target: str, band: str = "up") -> FlatTemplate:
        return self.template(kind, user=user, target=target, band=band)

    # ---- points on the surface (hidden tokens) --------------------------
    def ground(self, x: float, y: float) -> Point:
        """The table, or the top of the highest box whose footprint holds (x, y)."""
        z = 0.0
        for _, x0, y0, x1, y1, h in self.boxes:
            if x0 <= x <= x1 and y0 <= y <= y1:
                z = max(z, float(h))
        return (float(x), float(y), z)

    def point_distance(self, model: str, point: Point) -> float:
        m = self.models[model]
        pz = float(point[2]) if len(point) > 2 else 0.0
        horiz = max(0.0, math.hypot(m.x - point[0], m.y - point[1]) - m.radius)
        vert = max(0.0, m.z - pz, pz - (m.z + m.height))
        return math.hypot(horiz, vert)

    def point_in_awareness(self, observer: str, point: Point, extra: float = 0.0) -> bool:
        return self.point_distance(observer, point) <= self.models[observer].awareness + extra + EPS

    def point_sight(self, viewer: str, point: Point, radius: float = 0.0) -> bool:
        v = self.models[viewer]
        if "Blinded" in v.states:
            return False
        px, py = float(point[0]), float(point[1])
        pz = (float(point[2]) if len(point) > 2 else 0.0) + 0.04
        if not ("Flying" in v.states or "Shrouded" in v.states):
            f = math.radians(v.facing)
            if (px - v.x) * math.cos(f) + (py - v.y) * math.sin(f) < -radius - EPS:
                return False
        q = (px, py, pz)
        return any(self._blocked(p, q, {viewer}) is None for p in self._samples(v, (px, py)))


def allowance(mode: str, spd: float) -> float:
    """The distance a movement mode allows for a modified SPD."""
    if mode == "run":
        return 2.0 * spd
    if mode in ("climb", "jump"):
        return float(math.ceil(spd / 2))
    return float(spd)


def _sample_path(route: Sequence[Point], step: float) -> list[Point]:
    pts: list[Point] = [tuple(route[0])]
    for a, b in zip(route, route[1:]):
        L = math.dist(a, b)
        n = max(1, int(math.ceil(L / step)))
        for i in range(1, n + 1):
            t = i / n
            pts.append((a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t))
    return pts
