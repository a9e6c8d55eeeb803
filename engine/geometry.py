"""``WorldGeometry``: the rules' Geometry protocol over an ``engine.World``.

The rules (``rules/``) never import the engine; they ask their questions
through ``rules.core.geometry.Geometry``. This adapter answers them with the
engine's modules: ``engine.sight`` (LoS, cover, LoS along a path),
``engine.motion`` (path checks, the reachable area), ``engine.templates``
(AoE coverage and placement) and the World's own measuring.

Answers are cached with the models' placement they depend on (the World
bumps its version on every model change, and the records are read again):
a sight answer with the two models and those near the segment between them,
the other answers with every model. A cached answer is never stale. All
lengths are inches.
"""
from __future__ import annotations

import math
from typing import Iterable, Mapping, Sequence

import numpy as np

from engine.scene import ModelSpec, Profile, Spell, Weapon
from engine.units import MM_PER_INCH

# the adapter returns the protocol's own plain answer records
from rules.core.geometry import MoveAnswer as _Move
from rules.core.geometry import SightAnswer as _Sight
from rules.core.geometry import TemplateAnswer as _Template
from rules.core.geometry import TemplateHitAnswer as _Hit

Point = tuple[float, float, float]


def _said(exc) -> str:
    """An engine refusal in a game's words: its messages, without the command line's
    ``<command line>:`` and option names (``--at:``), which a game has not given."""
    msgs = [p.message for p in getattr(exc, "problems", ())] or [str(exc)]
    return "; ".join(m.split(": ", 1)[1] if m.startswith(("--at: ", "--aim: ", "--target: ", "--by: "))
                     else m for m in msgs)


class WorldGeometry:
    """Implements rules.core.geometry.Geometry over ``world`` (an engine.World), on the
    sight, motion and template settings given (None: the defaults): a game played on
    ``eldfall los --settings`` answers as the dispute does."""

    def __init__(self, world, sight_settings=None, motion_settings: dict | None = None,
                 template_settings=None, reach_resolution: float | None = None,
                 estimate_patch_mm: float = 10.0):
        self.world = world
        self.sight_settings = sight_settings          # engine.sight_settings.SightSettings
        self.motion_settings = motion_settings
        self.template_settings = template_settings    # engine.templates.TemplateSettings
        self.reach_resolution = reach_resolution
        self.estimate_patch_mm = float(estimate_patch_mm)
        self._cache: dict = {}
        self._cache_version = -1
        self._sig = ()

    # ---- state of the table -------------------------------------------
    def model_ids(self) -> list[str]:
        return list(self.world.model_ids())

    def position(self, model: str) -> Point:
        hb = self.world.hitbox(model)
        return (float(hb.x), float(hb.y), float(hb.z))

    def facing(self, model: str) -> float:
        return float(self.world.hitbox(model).facing)

    def place(self, model: str, point: Point, facing: float | None = None) -> None:
        z = point[2] if len(point) > 2 else None
        self.world.move_model(model, float(point[0]), float(point[1]),
                              None if z is None else float(z), facing)

    def set_facing(self, model: str, facing: float) -> None:
        self.world.set_facing(model, facing)

    def set_states(self, model: str, states: Iterable[str]) -> None:
        if model in self.world.models:
            self.world.set_states(model, frozenset(states))

    def set_awareness(self, model: str, ag: float | None) -> None:
        if model in self.world.models:
            self.world.set_awareness_ag(model, ag)

    def set_engaged_tolerance(self, degrees: float) -> None:
        if (self.motion_settings or {}).get("engaged_angle_tolerance_deg") == float(degrees):
            return
        self.motion_settings = {**(self.motion_settings or {}),
                                "engaged_angle_tolerance_deg": float(degrees)}
        self._motion_st_cache = None
        self._cache.clear()

    def set_walk_drop(self, height: float | None) -> None:
        key = "step" if height is None else "any" if math.isinf(height) else float(height)
        if (self.motion_settings or {}).get("drop_height", "step") == key:
            return
        self.motion_settings = {**(self.motion_settings or {}), "drop_height": key}
        self._motion_st_cache = None
        self._cache.clear()

    def remove(self, model: str) -> None:
        if model in self.world.models:
            self.world.remove_model(model)

    # ---- sight ----------------------------------------------------------
    def _signature(self):
        """The models' placement and states: what every cached answer depends on
        besides the static terrain. Computed once per world version."""
        v = self.world.version
        if v != self._cache_version:
            self._cache_version = v
            self._sig = tuple((mid, hb.x, hb.y, hb.z, hb.facing, hb.states, hb.awareness_ag)
                              for mid, hb in self.world.models.items())
        return self._sig

    def _cached(self, key, fn, signature=None):
        """Answers keyed by the question and the models' placement (by default
        every model's), so that moving a model away and back (a reaction
        measured at a point) keeps them."""
        k = (key, self._signature() if signature is None else signature)
        hit = self._cache.get(k)
        if hit is None:
            if len(self._cache) > 20000:
                self._cache.clear()
            hit = self._cache[k] = fn()
        return hit

    def _sight_signature(self, viewer: str, target: str) -> tuple:
        """What a sight answer between ``viewer`` and ``target`` depends on besides
        the static terrain: the two models' records and those of the models whose
        hitbox box overlaps the box around both hitboxes (every segment joining the
        two hitboxes lies in their convex hull, so no other model can block one).
        Engagement, Dark areas and arcs depend on the two models alone. Moving a
        model elsewhere on the table keeps the answer."""
        sig = self._signature()
        boxes = self._model_boxes()
        iv, it = boxes[0][viewer], boxes[0][target]
        lo, hi = boxes[1], boxes[2]
        blo = np.minimum(lo[iv], lo[it])
        bhi = np.maximum(hi[iv], hi[it])
        near = np.nonzero(np.all(lo <= bhi, axis=1) & np.all(hi >= blo, axis=1))[0]
        return tuple(sig[i] for i in near)

    def _model_boxes(self):
        """(index by id, lows, highs) of the models' hitbox boxes, per world version."""
        v = self.world.version
        if getattr(self, "_boxes_version", None) != v:
            ids, lo, hi = {}, [], []
            for i, (mid, hb) in enumerate(self.world.models.items()):
                ids[mid] = i
                lo.append((hb.x - hb.radius, hb.y - hb.radius, hb.z))
                hi.append((hb.x + hb.radius, hb.y + hb.radius, hb.z + hb.height))
            pad = 1e-6
            self._boxes = (ids, np.array(lo, dtype=float).reshape(-1, 3) - pad,
                           np.array(hi, dtype=float).reshape(-1, 3) + pad)
            self._boxes_version = v
        return self._boxes

    def _sight_answer(self, kind: str, viewer: str, target: str, moving: bool, fraction: bool,
                      settings, reuse=()) -> _Sight:
        """The engine's answer on ``settings``, cached under ``kind`` with the local
        signature; ``reuse``: (kind, fraction) keys whose cached answer serves too."""
        from engine import sight as es

        def run():
            want_cover = fraction and self._cover_possible(target)
            r = es.los(self.world, viewer, target, moving=moving, fraction=fraction,
                       cover=want_cover, settings=settings)
            return _Sight(bool(r.los), float(r.visible_fraction), bool(r.in_front_arc),
                          float(r.distance), float(r.height_difference), r.cover, r.cover_piece)
        if viewer not in self.world.models or target not in self.world.models:
            return run()          # the engine names the unknown model
        local = self._sight_signature(viewer, target)
        for kd, fr in reuse:
            done = self._cache.get(((kd, viewer, target, moving, fr), local))
            if done is not None:
                return done
        return self._cached((kind, viewer, target, moving, fraction), run, signature=local)

    def sight(self, viewer: str, target: str, *, moving: bool = False,
              fraction: bool = False, models_block: bool = True) -> _Sight:
        # a measured fraction answers the yes/no question too
        if not models_block:
            from engine.sight_settings import default_settings
            base = self.sight_settings if self.sight_settings is not None else default_settings()
            if base.models_block:
                # the same lattice and rules, the models left out: its own cache kind
                return self._sight_answer("scenery", viewer, target, moving, fraction,
                                          base.replace(models_block=False),
                                          reuse=() if fraction else (("scenery", True),))
        return self._sight_answer("sight", viewer, target, moving, fraction, self.sight_settings,
                                  reuse=() if fraction else (("sight", True),))

    def through_forest(self, viewer: str, target: str, *, moving: bool = False) -> bool:
        """The viewer sees the target, but only through a Forest area: it has LoS on
        the settings in force and none when a single Forest area blocks
        (``forest_limit`` 1), every other rule as ever. False on a table with no
        Forest area, and where no LoS at all."""
        from engine import sight as es
        from engine.sight_settings import default_settings
        if not es._static(self.world).forests:
            return False
        base = self.sight_settings if self.sight_settings is not None else default_settings()
        if base.forest_limit <= 1 or not self.sight(viewer, target, moving=moving).los:
            return False
        clear = self._sight_answer("forest-clear", viewer, target, moving, False,
                                   base.replace(forest_limit=1))
        return not clear.los

    def sight_estimate(self, viewer: str, target: str, *, moving: bool = False,
                       fraction: bool = True) -> _Sight:
        """``sight(...)`` on a coarser lattice (``estimate_patch_mm``, 10 mm by
        default instead of the rulings' 3 mm), for bots weighing candidate
        positions; a ruling already made for the same placement is returned
        instead. Never used for a ruling."""
        import dataclasses

        from engine.sight_settings import default_settings
        base = self.sight_settings if self.sight_settings is not None else default_settings()
        coarse = dataclasses.replace(base, patch_mm=max(float(base.patch_mm), self.estimate_patch_mm))
        return self._sight_answer("estimate", viewer, target, moving, fraction, coarse,
                                  reuse=(("sight", True), ("sight", fraction), ("estimate", True)))

    def _cover_possible(self, target: str) -> bool:
        """False when ``engine.cover.cover`` must answer "none" (no piece) whoever
        looks: the target is not Crouched (or Crouched gives no cover) and no
        solid scenery piece comes within the cover distance of its hitbox, by
        the pieces' bounding boxes (nearer than the piece itself, so never
        wrong). The table is not scenery; a piece the base rests on touches it.
        Saves measuring the covering pieces of a model in the open."""
        from engine.sight_settings import default_settings
        s = self.sight_settings if self.sight_settings is not None else default_settings()
        hb = self.world.hitbox(target)
        if "Crouched" in hb.states and s.cover_crouched != "none":
            return True
        boxes = getattr(self, "_piece_boxes", None)
        if boxes is None:
            lo, hi = [], []
            for p in self.world.pieces:
                if not p.solid or (p.id == "table" and p.spec is None):
                    continue
                b = np.asarray(p.mesh.bounds, dtype=float)
                lo.append(b[0])
                hi.append(b[1])
            boxes = self._piece_boxes = (np.array(lo).reshape(-1, 3), np.array(hi).reshape(-1, 3))
        lo, hi = boxes
        if len(lo) == 0:
            return False
        c = np.array([hb.x, hb.y])
        dxy = np.linalg.norm(np.maximum(0.0, np.maximum(lo[:, :2] - c, c - hi[:, :2])), axis=1)
        dh = np.maximum(0.0, dxy - hb.radius)
        dv = np.maximum(0.0, np.maximum(lo[:, 2] - hb.top, hb.z - hi[:, 2]))
        gap = np.maximum(dh, dv)          # a lower bound of the hitbox-to-piece distance
        return bool((gap <= max(float(s.cover_within_in), 0.1) + 1e-6).any())

    def cover(self, attacker: str, target: str) -> _Sight:
        """Sight with cover decided (the visible fraction resolved)."""
        return self.sight(attacker, target, fraction=True)

    def sight_along_path(self, mover: str, path: Sequence[Point],
                         observers: Sequence[str]) -> list:
        """For each observer: did it have LoS to ``mover`` at some point of its path?

        Exact and cheaper than sampling every observer along the whole path:
        LoS at the start and at the end settle ``had_los`` for most observers
        (then ``seen`` holds those of the two points that were seen); only an
        observer that saw neither is sampled along the path by
        ``engine.sight.los_along_path`` (where scenery proofs over runs of the
        samples, ``engine.sight_sweep``, spare most questions), unless the arc
        rule shows it never could. Awareness entry is measured analytically
        (cylinder distance) every 0.25" of the path.
        """
        from engine import sight as es
        from engine.world import CONTACT_TOLERANCE, cylinder_distance
        observers = list(observers)
        start = self.position(mover)
        pts = [start] + [tuple(float(v) for v in p) for p in path]
        end = pts[-1]
        hb = self.world.hitbox(mover)
        facing = hb.facing
        seen_start = {o: self.sight(o, mover).los for o in observers}
        moved = math.dist(start, end) > 1e-9
        if moved:
            self.world.move_model(mover, end[0], end[1], end[2], facing)
        try:
            seen_end = {o: self.sight(o, mover).los for o in observers} if moved else dict(seen_start)
        finally:
            if moved:
                self.world.move_model(mover, start[0], start[1], start[2], facing)
        # awareness along the path (dense samples, analytic distance)
        dense = [pts[0]]
        for a, b in zip(pts, pts[1:]):
            n = max(1, int(math.ceil(math.dist(a, b) / 0.25)))
            dense += [tuple(a[i] + (b[i] - a[i]) * k / n for i in range(3)) for k in range(1, n + 1)]
        dense_arr = np.asarray(dense, dtype=float)
        out = {}
        full = [o for o in observers if not (seen_start[o] or seen_end[o])]
        behind = set()
        for o in full:
            # the arc rule: an observer without 360-degree sight whose front half never
            # holds any part of the mover along the path cannot see it (exact)
            ohb = self.world.hitbox(o)
            if ({"Shrouded", "Flying", "Engaged"} & set(ohb.states)
                    or "vigilance" in {t.lower() for t in ohb.traits}     # any case, as sight reads it
                    or "Flying" in hb.states):
                continue
            f = np.array([math.cos(math.radians(ohb.facing)), math.sin(math.radians(ohb.facing))])
            ahead = (dense_arr[:, :2] - np.array([ohb.x, ohb.y])) @ f + hb.radius
            if float(ahead.max()) < -1e-6:
                behind.add(o)
        full = [o for o in full if o not in behind]
        for o in behind:
            out[o] = es.PathLos(o, False, None, None, False, None, [])
        if full:
            for r in es.los_along_path(self.world, mover, np.asarray(pts, dtype=float), full,
                                       settings=self.sight_settings):
                out[r.observer] = r
        for o in observers:
            ohb = self.world.hitbox(o)
            d = cylinder_distance(dense_arr, hb.radius, hb.height,
                                  np.array([ohb.x, ohb.y, ohb.z]), ohb.radius, ohb.height)
            inside = np.nonzero(d <= ohb.awareness + CONTACT_TOLERANCE)[0]
            aware_pt = tuple(dense[int(inside[0])]) if len(inside) else None
            if o in out:
                r = out[o]
                if o in behind:
                    out[o] = es.PathLos(o, False, None, None, aware_pt is not None, aware_pt, [])
                    continue
                out[o] = es.PathLos(o, bool(r.had_los), r.first, r.last, aware_pt is not None,
                                    aware_pt, list(r.seen))
                continue
            seen = [p for p, ok in ((start, seen_start[o]), (end, seen_end[o])) if ok]
            out[o] = es.PathLos(o, True, seen[0], seen[-1], aware_pt is not None, aware_pt, seen)
        return [out[o] for o in observers]

    # ---- measuring ------------------------------------------------------
    def distance(self, a: str, b: str) -> float:
        return 0.0 if a == b else float(self.world.distance(a, b))

    def base_contact(self, a: str, b: str) -> bool:
        return a == b or bool(self.world.base_contact(a, b))

    def in_awareness(self, observer: str, other: str, extra: float = 0.0) -> bool:
        return bool(self.world.in_awareness(observer, other, extra))

    def in_reach(self, a: str, b: str, rch: float) -> bool:
        if rch < 0:
            return False
        return bool(self.world.in_reach(a, b, rch))

    def environments(self, model: str) -> frozenset[str]:
        if model not in self.world.models:
            return frozenset()
        # a Forest or Dark area at any height with the sight setting ``area_height: infinite``
        from engine.sight import sight_environments
        return self._cached(("env", model),
                            lambda: sight_environments(self.world, model, self.sight_settings))

    # ---- movement -------------------------------------------------------
    def check_move(self, model: str, mode: str, waypoints: Sequence[Point], speed: float, *,
                   enemies: Mapping[str, float] | None = None) -> _Move:
        key = ("move", model, mode, tuple(tuple(float(v) for v in p) for p in waypoints),
               float(speed))
        return self._cached(key, lambda: self._check_move(model, mode, waypoints, speed))

    def _check_move(self, model, mode, waypoints, speed) -> _Move:
        from engine import motion
        from engine.errors import InputError
        if mode == "push":
            return self._push(model, waypoints, speed)
        fly = mode == "fly"          # a flight: engine.motion's Flying walk
        try:
            r = motion.check_path(self.world, model, [tuple(p) for p in waypoints],
                                  "walk" if fly else mode, speed=float(speed),
                                  settings=self.motion_settings, flying=fly)
        except InputError as exc:
            return _Move(False, str(exc).split(": ")[-1], 0.0, 0.0, self.position(model))
        return _Move(bool(r.legal), r.reason, float(r.distance), float(r.allowance),
                     tuple(float(v) for v in r.end), list(r.falls), bool(r.ends_on_vertical),
                     [(p.enemy, tuple(float(v) for v in p.at)) for p in r.opportunity_points],
                     r.stopped_by, [tuple(p) for p in r.path],
                     [] if fly else self._route_steps(model, r.path),
                     list(r.dangerous))

    def _route_steps(self, model, path) -> list:
        """The protocol's ``steps``: the changes of level the route's points make at once
        (steeper than 2 in 1 between two of them: the walkable slopes, up to 60 degrees,
        rise less; engine.motion samples a route every ``path_step``), runs of them in one
        direction merged; each names the piece the base stands on at its higher side."""
        from rules.core.geometry import StepAnswer
        if len(path) < 2:
            return []
        P = np.asarray(path, dtype=float)
        dz = np.diff(P[:, 2])
        dxy = np.hypot(np.diff(P[:, 0]), np.diff(P[:, 1]))
        steep = np.abs(dz) > 2.0 * dxy + 0.01
        out: list = []
        i, n = 0, len(dz)
        while i < n:
            if not steep[i]:
                i += 1
                continue
            j = i
            while j + 1 < n and steep[j + 1] and np.sign(dz[j + 1]) == np.sign(dz[i]):
                j += 1
            h = float(P[j + 1, 2] - P[i, 2])
            # the higher side: the points at its level next to the step (the base
            # stands farther onto the piece a few samples on)
            k, d = (j + 1, 1) if h > 0 else (i, -1)
            tops = [P[k]]
            while 0 <= k + d < len(P) and abs(P[k + d, 2] - P[k, 2]) < 1e-6 and len(tops) < 12:
                k += d
                tops.append(P[k])
            piece = next((pc for pc in (self._piece_under(model, q) for q in tops[::-1]) if pc), None)
            out.append(StepAnswer(h, tuple(float(v) for v in P[i]), piece))
            i = j + 1
        return out

    def _piece_under(self, model, p) -> str | None:
        """The terrain piece a base of ``model`` at ``p`` rests on (None: the table)."""
        hb = self.world.hitbox(model)
        xy = self.world.footprint(float(p[0]), float(p[1]), float(hb.radius) - 1e-3, rings=3, per_ring=16)
        origins = np.column_stack([xy, np.full(len(xy), float(p[2]) + 0.01)])
        dist, tri = self.world.rays.first_hit(origins, np.broadcast_to([0.0, 0.0, -1.0], origins.shape),
                                              max_dist=0.03)
        for t in tri:
            if t >= 0:
                pid = self.world.pieces[self.world.tri_piece[int(t)]].id
                if pid != "table":
                    return pid
        return None

    def _push(self, model, waypoints, speed) -> _Move:
        """A Knockback (the protocol's "push"): engine.motion's Walk where a walk goes
        (free climbing; an enemy stops it at contact), else its straight Jump across at
        the model's level (scenery stops it, a drop makes it fall at the end), with no
        allowance and none of the model's States' movement limits (it is moved, it
        does not move); the falls' AG rolls are counted for its SPD ``speed``."""
        from engine import motion
        from engine.errors import InputError
        hb = self.world.hitbox(model)
        start = (float(hb.x), float(hb.y), float(hb.z))
        tx, ty = float(waypoints[-1][0]), float(waypoints[-1][1])
        length = math.hypot(tx - start[0], ty - start[1])
        room = 2.0 * length + 2.0          # no allowance: enough for any straight push
        over = dict(self.motion_settings or {})
        over.update(no_move_states=[], walk_only_states=[], flying_states=[], no_jump_areas=[],
                    jump_shape="line", jump_round_up=False)
        st = motion.settings(over)
        saved = hb.states
        hb.states = frozenset(saved - {"Engaged"})    # no "only toward the engager" walk
        try:
            try:
                r = motion.check_path(self.world, model, [(tx, ty)], "walk", speed=room,
                                      settings=over)
                if not r.legal:
                    r = motion.check_path(self.world, model, [(tx, ty, start[2])], "jump",
                                          speed=2.0 * room, settings=over)
            except InputError as exc:
                return _Move(False, str(exc).split(": ")[-1], 0.0, 0.0, start)
        finally:
            hb.states = saved
        falls = [motion.Fall(f.height, motion.fall_rolls(f.height, float(speed),
                                                         st["fall_interval_round_up"]), f.onto, f.at)
                 for f in r.falls]
        return _Move(bool(r.legal), r.reason, float(r.distance), float(length),
                     tuple(float(v) for v in r.end), falls, False, [], r.stopped_by,
                     [tuple(p) for p in r.path])

    def reachable_points(self, model: str, mode: str, speed: float, limit: int = 64, *,
                         enemies: Mapping[str, float] | None = None,
                         checked: bool = True) -> list[Point]:
        """Up to ``limit`` end points spread over the reachable area: in each of
        ``limit // 2`` directions the farthest reachable cell and one at half
        that cost. ``checked``: each is checked as a straight move (else
        dropped); unchecked points are candidates for the caller to check."""
        if mode not in ("walk", "run"):
            return []
        pts = self._reach_points(model, mode, float(speed))
        if len(pts) == 0:
            return []
        sx, sy, _ = self.position(model)
        d = np.hypot(pts[:, 0] - sx, pts[:, 1] - sy)
        ang = np.arctan2(pts[:, 1] - sy, pts[:, 0] - sx)
        nb = max(1, limit // 2)
        bucket = ((ang + math.pi) / (2 * math.pi) * nb).astype(int) % nb
        out: list[Point] = []
        for b in range(nb):
            idx = np.nonzero(bucket == b)[0]
            if len(idx) == 0:
                continue
            far = idx[np.argmax(d[idx])]
            mid_target = d[far] / 2
            mid = idx[np.argmin(np.abs(d[idx] - mid_target))]
            for i in (far, mid):
                p = tuple(float(v) for v in pts[i])
                if not checked:
                    if all(math.dist(p, q) > 0.25 for q in out):
                        out.append(p)
                    continue
                mv = self.check_move(model, mode, [p], speed)
                if mv.legal and all(math.dist(p, q) > 0.25 for q in out):
                    out.append(tuple(mv.end))
                if len(out) >= limit:
                    return out
        return out

    def _motion_st(self) -> dict:
        from engine import motion
        st = getattr(self, "_motion_st_cache", None)
        if st is None:
            st = self._motion_st_cache = motion.settings(self.motion_settings)
        return st

    def _reach_points(self, model: str, mode: str, speed: float) -> np.ndarray:
        """The end points of ``engine.motion.reachable`` for ``mode``.

        One Dijkstra serves both Walk and Run: the Run search (limit 2 x SPD)
        finds every node within SPD at the same shortest cost, so the Walk end
        points are the Run grid's end points costing at most SPD. Not shared
        where the modes differ by more than the allowance (a state that forbids
        running or moving, Engaged, Flying): those ask for ``mode`` itself."""
        from engine import motion

        def grid(m):
            return self._cached(("reach", model, m, speed), lambda: motion.reachable(
                self.world, model, m, resolution=self.reach_resolution,
                settings=self.motion_settings, speed=speed))
        st = self._motion_st()
        states = set(self.world.hitbox(model).states)
        special = set(st["no_move_states"]) | set(st["walk_only_states"]) | \
            set(st["flying_states"]) | {"Engaged"}
        if states & special:
            return grid(mode).points()
        run = grid("run")
        if mode == "run":
            return run.points()
        return run.points(max_cost=motion.allowance_for("walk", speed, st))

    def drop(self, model: str, speed: float):
        """The model falls straight down onto the surface under its base; returns
        the fall (height, AG rolls for a modified SPD of ``speed``)."""
        from engine import motion
        hb = self.world.hitbox(model)
        z0 = float(hb.z)
        z1 = float(self.world.stand_z(hb.x, hb.y, hb.radius, near_z=z0 - 1e-3))
        if not z1 < z0:
            z1 = z0
        self.world.move_model(model, hb.x, hb.y, z1, hb.facing)
        h = z0 - z1
        return motion.Fall(h, motion.fall_rolls(h, float(speed)), None, (hb.x, hb.y, z1))

    # ---- scenario objects and summons ------------------------------------
    def touches(self, model: str, piece: str) -> bool:
        from engine.cover import piece_distance
        try:
            p = self.world.piece(piece)
        except KeyError:
            return False
        return piece_distance(p.mesh, self.world.hitbox(model)) <= 1e-2

    def free_spot(self, model: str, point: Point, radius: float, height: float) -> bool:
        W, D = self.world.table
        x, y = float(point[0]), float(point[1])
        if not (radius <= x <= W - radius and radius <= y <= D - radius):
            return False
        z = self.world.stand_z(x, y, radius, near_z=float(point[2]) if len(point) > 2 else None)
        if abs(z - (point[2] if len(point) > 2 else z)) > 0.75 * height:
            return False
        if self._in_scenery(x, y, z, radius, height):
            return False
        for mid, hb in self.world.models.items():
            if mid == model:
                continue
            if math.hypot(hb.x - x, hb.y - y) < hb.radius + radius - 1e-3 and \
                    z < hb.z + hb.height and hb.z < z + height:
                return False
        return True

    def _in_scenery(self, x: float, y: float, z: float, radius: float, height: float) -> bool:
        """Whether solid scenery stands inside a hitbox resting at z: the terrain layers
        under the base (the movement engine's probe, its disc pattern) rising into it."""
        from engine import motion
        st = motion.settings(self.motion_settings)
        xy = motion._disc_pattern(radius, float(st["disc_step"])) + (x, y)
        lo, hi, _, _ = motion._columns(self.world, st).probe(xy)
        return bool(((hi > z + 1e-3) & (lo < z + height - 1e-3)).any())

    def add_model(self, unit, point: Point, facing: float = 0.0) -> None:
        prof = Profile(
            ref=f"summon#{unit.id}", name=unit.name or unit.id, stats=dict(unit.stats),
            size=unit.size, classes=tuple(unit.classes), traits=tuple(unit.traits),
            skills=tuple(unit.skills), affinities=tuple(unit.affinities),
            weapons=tuple(Weapon(w["name"], w["kind"], float(w.get("rch", 0)),
                                 int(w["pw"]) if str(w.get("pw", 0)).lstrip("-").isdigit() else 0,
                                 int(w.get("stk", 1)), tuple(w.get("traits", ())),
                                 tuple(tuple(b) for b in w.get("bands", ())), int(w.get("hands", 1)))
                          for w in unit.weapons),
            spells=tuple(Spell(s["name"], s["type"], s.get("affinity", ""), int(s.get("mana", 1)))
                         for s in unit.spells),
            leader=False)
        spec = ModelSpec(unit.id, unit.side, unit.base * MM_PER_INCH, unit.height * MM_PER_INCH,
                         (float(point[0]), float(point[1]), float(point[2]) if len(point) > 2 else None),
                         float(facing), unit.size, prof, dict(unit.stats), tuple(unit.states))
        self.world.add_model(spec)

    # ---- templates --------------------------------------------------------
    def _template_rules(self):
        """The template settings the game's templates follow: ``template_settings`` (the
        defaults when None), their LoS on the game's ``sight_settings`` unless they name
        their own, so a template's line of sight is the game's (a Forest area, the lattice)."""
        import dataclasses

        from engine import templates as et
        ts = self.template_settings if self.template_settings is not None else et.TemplateSettings()
        if ts.los_settings is None and self.sight_settings is not None:
            ts = dataclasses.replace(ts, los_settings=self.sight_settings)
        return ts

    def _template(self, res) -> _Template:
        hits = [_Hit(h.id, float(getattr(h, "covered_fraction", getattr(h, "fraction", 1.0))),
                     bool(getattr(h, "in_band", True)), bool(getattr(h, "los_from_origin", True)),
                     int(getattr(h, "count", 1)))
                for h in res.affected]
        return _Template(bool(res.legal), res.reason, bool(res.target_fully_covered), hits)

    def template(self, kind: str, *, user: str, target: str | None = None,
                 at: Point | None = None, aim: Point | None = None, band: str = "up",
                 count: int = 1) -> _Template:
        from engine import templates as et
        from engine.errors import InputError
        ts = self._template_rules()
        try:
            spec = et.template_spec(kind)
            if spec.kind == "circle":
                pl = et.place_circle(self.world, kind, target=target, at=at, settings=ts)
            else:
                pl = et.place_spray(self.world, kind, user=user, aim=aim, target=target, band=band)
            res = et.evaluate(self.world, [pl] * max(1, count), target=target, user=user, settings=ts)
        except InputError as exc:
            return _Template(False, _said(exc), False, [])
        return self._template(res)

    def best_template(self, kind: str, *, user: str, target: str, band: str = "up") -> _Template:
        from engine import templates as et
        from engine.errors import InputError
        try:
            res = et.best_placement(self.world, kind, user=user, target=target, band=None,
                                    settings=self._template_rules())
        except InputError as exc:
            return _Template(False, _said(exc), False, [])
        return self._template(res)

    # ---- points on the surface (hidden tokens) -----------------------------
    def ground(self, x: float, y: float) -> Point:
        return self.ground_many([(x, y)])[0]

    def ground_many(self, points) -> list[Point]:
        """``ground`` of many (x, y) at once: one batch of rays, the same answers."""
        xy = np.asarray(points, dtype=float).reshape(-1, 2)
        z = self.world.surface_height(xy)
        return [(float(x), float(y), float(v) if math.isfinite(v) else 0.0) for (x, y), v in zip(xy, z)]

    def point_distance(self, model: str, point: Point) -> float:
        from engine.measure import measuring_z
        hb = self.world.hitbox(model)
        z0 = measuring_z(self.world, model)
        pz = float(point[2]) if len(point) > 2 else 0.0
        horiz = max(0.0, math.hypot(hb.x - float(point[0]), hb.y - float(point[1])) - hb.radius)
        vert = max(0.0, z0 - pz, pz - (z0 + hb.height))
        return math.hypot(horiz, vert)

    def point_in_awareness(self, observer: str, point: Point, extra: float = 0.0) -> bool:
        from engine.measure import CONTACT_TOLERANCE
        aw = float(self.world.hitbox(observer).awareness)
        return self.point_distance(observer, point) <= aw + float(extra) + CONTACT_TOLERANCE

    def point_sight(self, viewer: str, point: Point, radius: float = 0.0) -> bool:
        """Rays from the token (raised as a template's centre) to the viewer's
        hitbox lattice, one batch (``engine.sight.point_los``); the token must lie
        in the viewer's Front arc unless it sees all around."""
        from engine import sight as es
        hb = self.world.hitbox(viewer)
        s = es._settings(self.sight_settings)
        pt = (float(point[0]), float(point[1]), float(point[2]) if len(point) > 2 else 0.0)
        if "Blinded" in hb.states:
            return False
        all_round = "Flying" in hb.states or es._is_360(hb, False, s)
        if not all_round:
            f = hb.facing_vector
            if float(np.dot([pt[0] - hb.x, pt[1] - hb.y], f)) + float(radius) < -1e-9:
                return False
        key = ("point_sight", viewer, pt, float(radius))
        return self._cached(key, lambda: bool(es.point_los(self.world, pt, viewer,
                                                           settings=self.sight_settings)[0]))
