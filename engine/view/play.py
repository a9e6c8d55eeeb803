"""Controllers: camera input and clicks turned into engine queries and rules actions.

* :class:`TableView` -- the table with the dispute tools and no game: live
  LoS verdict (select A, hover B; or hover two models in turn), F12 dispute
  folder (eye view + overview + JSON verdict), measure tool (M), eye view (V).
* :class:`PlayController` -- hotseat play of a rules game: click a model of the
  active side to activate it, choose a movement (number keys / menu), click
  waypoints, Enter confirms; reactions by the reactive player; actions with
  target clicks (K: the direction of an Attack's Knockback, an arrow from the
  target toward the pointer, judged by the rules; a Targetless template also
  aimed at a clicked point of the ground, previewed under the pointer); the Strategic Phase's
  Stratagems window (one menu entry per usable Stratagem, a target click for
  those that name a model, P passes);
  Ctrl+Z undoes through the rules' event log (a replay of the log's prefix);
  Ctrl+S / Ctrl+O save and load the log.
* :class:`AttractController` -- bots play game after game, a slow cinematic
  camera follows the acting model and the HUD explains each step.

Every decision comes from the rules engine (``game.legal_actions()``,
``game.why_illegal()``, ``game.apply()``) or from the geometry engine; the
view only offers what is legal and shows why something is not.
"""
from __future__ import annotations

import contextlib
import datetime as _dt
import math
import os
import re

import numpy as np

from engine.view import overlays as ov
from engine.view.camera import MAX_PITCH, MIN_PITCH, TableCamera
from engine.view.hud import Hud, event_line
from engine.view.meshes import TableScene
from engine.view.picking import pick, pick_standing, pick_token
from rules.core.text import point_words

SELECT = (1.0, 1.0, 1.0, 0.95)
CAN_ACT = (1.0, 0.9, 0.3, 0.8)
CAN_REACT = (0.3, 0.9, 1.0, 0.85)
TARGETABLE = (1.0, 0.35, 0.2, 0.9)
#: the facings toward the table's edges (degrees counter-clockwise from +x)
EDGE_WORDS = {0: "+x", 90: "+y", 180: "-x", 270: "-y"}


# ====================================================================== helpers
def action_actor(a) -> str | None:
    return getattr(a, "model", None) or getattr(a, "actor", None) or getattr(a, "character", None)


def action_targets(a) -> tuple[str, ...]:
    t = getattr(a, "target_ids", None)
    if t is not None:
        return tuple(t)
    t = getattr(a, "targets", None)
    if t:
        return tuple(x[0] if isinstance(x, (tuple, list)) else x for x in t)
    t = getattr(a, "target", None)
    if t is None:
        t = getattr(a, "to", None)      # Legends of Norova's thrown potion: the ally it is thrown to
    return (t,) if isinstance(t, str) else ()


def action_kind(a) -> str:
    return type(a).__name__


def path_field(a) -> str | None:
    """The field that holds a movement's waypoints: ``path`` (Eldfall) or
    ``route`` (Legends of Norova); None for an action that is not a movement."""
    return next((f for f in ("path", "route") if hasattr(a, f)), None)


def event_models(ev, line: str | None = None) -> list[str]:
    """The names an event's data carries, for the attract camera to frame: its plain
    values (``attacker``, ``target``, ``mover``), and the names in its lists (``models``:
    who may react now) and its mappings' keys (``qualified``: who may react to a move)
    that its narrated ``line`` names (all of them without a line); the caller keeps
    those of models on the table."""
    out, listed = [], []
    for v in (getattr(ev, "data", None) or {}).values():
        if isinstance(v, str):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            listed.extend(x for x in v if isinstance(x, str))
        elif isinstance(v, dict):
            listed.extend(k for k in v if isinstance(k, str))
    return out + [m for m in listed if line is None or _names(line, m)]


def _names(text: str, mid: str) -> bool:
    """Whether ``text`` names the model ``mid`` (a whole id, not a part of a longer one)."""
    return re.search(rf"(?<![\w-]){re.escape(mid)}(?![\w-])", text) is not None


def move_words(mode: str, crouch_start: bool | None = None, land: str | None = None) -> str:
    """A movement as the menu names it: "Run", "Stand up and Run" (a Crouched model
    cancels Crouched at the start of its Movement Step), "Crouch and Walk"; a Flying
    model that stops Flying: "Land, then Walk" (at the start), "Walk, then land"."""
    name = str(mode).title()
    if land == "start":
        name = f"Land, then {name}"
    elif land == "end":
        name = f"{name}, then land"
    if crouch_start is None:
        return name
    return f"{'Crouch' if crouch_start else 'Stand up'} and {name}"


def action_path(a) -> tuple:
    f = path_field(a)
    return tuple(getattr(a, f) or ()) if f else ()


TARGET_WORDS = {"own": "a model of {side}", "enemy": "an enemy model", "leader": "the Leader",
                "all-own": "every model of {side}", "all-enemy": "every enemy model"}


def uses_words(left: int, per: str) -> str:
    return f"{left} use{'' if left == 1 else 's'} left this {per}"


def stratagem_reach(s: dict, side: str) -> str:
    """Whom a Stratagem falls on, in words: "a model of red within 8\" of the Leader"."""
    words = TARGET_WORDS.get(s.get("target"), str(s.get("target"))).format(side=side)
    if s.get("target") == "leader":
        return words
    cond = []
    if s.get("range") is not None:
        cond.append(f"within {float(s['range']):g}\" of the Leader")
    if s.get("awareness"):
        cond.append("in the Leader's Awareness")
    return words + (" " + " and ".join(cond) if cond else "")


def clicked_point(point) -> tuple[float, float, float]:
    """A clicked point of a surface as a declaration names it: x and y to the hundredth, the
    height rounded up to the hundredth (a point a hair under the surface would read as inside
    the scenery), the pick's float noise (up to 0.0001") taken off first: a point picked
    0.00002" above the table is at 0, not 0.01."""
    x, y, z = (float(v) for v in point[:3])
    return (round(x, 2), round(y, 2), math.ceil(z * 100.0 - 0.01) / 100.0)


_COMPASS = {"n": "north", "s": "south", "e": "east", "w": "west", "ne": "north-east", "nw": "north-west",
            "se": "south-east", "sw": "south-west"}


def piece_words(pid: str) -> str:
    """A scenery piece's id as words for the banner: "low-wall-3" -> "low wall 3";
    a compass letter at its end leads ("pillar-e" -> "east pillar", not "pillar e")."""
    parts = [p for p in re.split(r"[-_]+", pid) if p]
    if len(parts) > 1 and parts[-1].lower() in _COMPASS:
        parts = [_COMPASS[parts[-1].lower()]] + parts[:-1]
    return " ".join(parts)


def short_text(a) -> str:
    """An action's text with its coordinates rounded for the screen (the log keeps them exact)."""
    import re
    return re.sub(r"-?\d+\.\d+e-?\d+|-?\d+\.\d{3,}", lambda m: f"{_zero(float(m.group(0))):.2f}", str(a))


def _zero(v: float) -> float:
    return 0.0 if abs(v) < 0.005 else v


def point_to_hitbox(world, p, mid) -> tuple[float, np.ndarray]:
    """3D distance from a point to a hitbox cylinder and the closest point on it."""
    hb = world.hitbox(mid)
    p = np.asarray(p, float)
    d = p[:2] - np.array([hb.x, hb.y])
    r = float(np.linalg.norm(d))
    q = np.array([hb.x, hb.y]) + (d / r * min(r, hb.radius) if r > 0 else 0.0)
    z = float(np.clip(p[2], hb.z, hb.z + hb.height))
    c = np.array([q[0], q[1], z])
    return float(np.linalg.norm(p - c)), c


def live_los(world, a: str, b: str, *, settings=None, moving: bool = False):
    """The engine's LoS verdict (with cover) between two models, on the table's sight
    ``settings`` (None: the defaults); ``moving``: all round (Legends of Norova's sight)."""
    from engine import sight
    return sight.los(world, a, b, fraction=True, cover=True, settings=settings, moving=moving)


def verdict_text(res) -> str:
    from engine.view.pictures import los_caption
    return los_caption(res)


# ---------------------------------------------------------------- Legends of Norova's words
def _is_norova(a) -> bool:
    return type(a).__module__ == "rules.norova.actions"


def _thing(name: str | None) -> str:
    """An item, weapon, skill or spell as a player says it ("power_tonic": "power tonic")."""
    return str(name).replace("_", " ")


#: the order of a Legends of Norova turn's menu after its moves: the common choices first.
#: "Attack" is a plain attack (one per hand); "Attack+skill" and "Attack+aid" come after the
#: turn's end (a dual wielder with two attack skills has nine attacks: the turn's end was on page 2)
NOROVA_ORDER = ("Stand", "Attack", "Reload", "Cast", "EndTurn", "Attack+skill", "Attack+aid", "Wait", "Focus",
                "UseSkill", "UsePotion", "ThrowPotion", "Turn", "Perceive", "Equip")
#: the hands of a plain attack in the menu's order: the main hand, both, the off hand
NOROVA_HANDS = ("main", "dual", "off")


def norova_rank(a) -> tuple:
    """Where a Legends of Norova action goes in the menu (``NOROVA_ORDER``, then the hand)."""
    kind = action_kind(a)
    if kind == "Attack":
        kind += "+aid" if a.aid else "+skill" if a.skill else ""
        hand = NOROVA_HANDS.index(a.hand) if a.hand in NOROVA_HANDS else len(NOROVA_HANDS)
    else:
        hand = 0
    return (NOROVA_ORDER.index(kind) if kind in NOROVA_ORDER else len(NOROVA_ORDER), hand)


# ====================================================================== TableView
class TableView:
    """The table, the camera, picking and the dispute tools (no game)."""

    def __init__(self, app, world, *, out_dir: str = "out/disputes", labels: bool = True):
        self.app = app
        self.world = world
        self.out_dir = out_dir
        app.clear_table()
        self.table = TableScene(world, app.root, labels=labels)
        app.table_scene = self.table
        app.frame_lights(*world.table)
        self.camera = TableCamera(app, world.table)
        app.table_camera = self.camera
        self.hud = Hud(app)
        self.live = app.root.attachNewNode("live-overlay")
        self.arc_np = None
        self.selected: str | None = None
        self.hovered: str | None = None
        self.hover_point = None
        self.hover_trail: list[str] = []        # the last two distinct models hovered
        self.measuring = False
        self.measure_pts: list[tuple] = []
        self.template_kind: str | None = None
        self.template_result = None
        self.message = ""
        self._verdict_key = None
        self.verdict = None
        self._last_pointer = None
        self._saved_orbit = None
        self._eye_model: str | None = None       # the model whose eye the camera is (V)
        self._eye_hidden: list = []              # the label nodes the eye view hid
        self._eye_hidden_ids: list[str] = []
        self._eye_key = None
        app.controller = self
        app.on_frame("view", self.update)
        self.refresh()

    def los_options(self) -> dict:
        """How the table's LoS questions are asked (``live_los``): the game's sight
        settings (``eldfall view --settings FILE``, a loaded log's) and, for Legends of
        Norova, all round (its rules ask the table with ``moving=True``: its arcs are
        its own); the table alone: the defaults."""
        geo = getattr(self, "geometry", None)
        out = {"settings": getattr(geo, "sight_settings", None)}
        game = getattr(self, "game", None)
        if game is not None and type(game).__module__.startswith("rules.norova"):
            out["moving"] = True
        return out

    # ------------------------------------------------------------ events
    def on_event(self, name: str, **kw):
        if self.camera.on_event(name):
            return "camera"
        handler = self.handlers().get(name)
        if handler is None:
            return None
        return handler()

    def handlers(self) -> dict:
        return {"mouse1": self.click, "escape": self.cancel, "f12": self.dispute,
                "v": self.toggle_eye, "m": self.toggle_measure, "tab": self.cycle_selection,
                "g": self.cycle_template}

    def pick_now(self):
        if self.app.pointer is None:
            return None
        return pick(self.app, self.world, self.app.pointer)

    def label_clicks(self) -> bool:
        """Whether a click on a name label now means its model: not while measuring
        (a point is clicked); in the hotseat, not where a click on the ground means a
        point (``PlayController.label_clicks``)."""
        return not self.measuring

    def label_under_pointer(self) -> str | None:
        """The model whose name label is under the pointer, or None. The labels are
        drawn over the scenery and the models: what shows at that pixel is the name,
        so a click there means its model (not the ground or the wall behind it)."""
        if self.app.pointer is None or self.table.labels_root.isHidden():
            return None
        from panda3d.core import Point2, Point3
        w, h = self.app.size
        px, py = self.app.film_to_pixel(*self.app.pointer)
        py = h - py                                   # y up, as the projections below
        best = None
        for mid, node in self.table.label_nodes.items():
            if node.isHidden() or mid not in self.world.models or node.getScale()[0] < 1e-3:
                continue
            bounds = node.getTightBounds(self.app.cam)
            if not bounds:
                continue
            lo, hi = bounds
            if lo[1] <= 0.0:                          # behind the lens
                continue
            xs, ys = [], []
            for x in (lo[0], hi[0]):
                for z in (lo[2], hi[2]):
                    p2 = Point2()
                    self.app.camLens.project(Point3(x, lo[1], z), p2)
                    xs.append((p2.x + 1.0) * w / 2.0)
                    ys.append((p2.y + 1.0) * h / 2.0)
            if min(xs) <= px <= max(xs) and min(ys) <= py <= max(ys):
                if best is None or lo[1] < best[0]:
                    best = (float(lo[1]), mid)
        return None if best is None else best[1]

    def click(self):
        hit = self.pick_now()
        if (hit is None or hit.kind != "model") and self.label_clicks():
            # a click on a model's name label (over the ground or scenery) is a click on
            # the model; a model hit itself stays the model hit
            mid = self.label_under_pointer()
            if mid is not None:
                from engine.world import Pick
                hb = self.world.hitbox(mid)
                hit = Pick("model", mid, (float(hb.x), float(hb.y), float(hb.z) + float(hb.height) / 2.0),
                           float(hit.distance) if hit is not None else 0.0)
        if hit is None or hit.kind is None:
            return None
        if self.measuring:
            return self.measure_click(hit)
        return self.handle_click(hit)

    def handle_click(self, hit):
        """A click on the table that is not a measurement: select what was hit."""
        if hit.kind == "model":
            self.select(hit.id)
            return hit.id
        self.select(None)
        return None

    def select(self, mid: str | None) -> None:
        changed = mid != self.selected
        if self.selected and self.selected in self.table.models:
            self.table.highlight(self.selected, None)
        self.selected = mid
        if mid:
            self.table.highlight(mid, SELECT)
        if self._verdict_key is not None:
            # the shown verdict is asked again (None read as "none shown": the pointer
            # then left its model and its rays stayed, drawn for the table as it was)
            self._verdict_key = ("stale",)
        if changed and not self.measuring:
            # the live verdict was the old selection's: its rays, band and words go now
            # (else Esc, Tab or G left them on the table), and the live tools answer for
            # the new selection at the next frame, the pointer unmoved
            if self.verdict is not None or any(c.getName() == "los-overlay" for c in self.live.getChildren()):
                self.verdict = None
                self._clear_live()
                self.hud.verdict.set("")
                self._verdict_key = None
            if self.REHOVER_ON_SELECT:
                self._last_pointer = None
        self.refresh()

    #: a new selection asks the pointer's model again at the next frame (the hotseat);
    #: the attract mode selects each step's actor and waits for the visitor's mouse
    REHOVER_ON_SELECT = True

    def cycle_selection(self):
        ids = [m for m in self.world.model_ids()]
        if not ids:
            return None
        i = (ids.index(self.selected) + 1) % len(ids) if self.selected in ids else 0
        self.select(ids[i])
        return ids[i]

    def cancel(self):
        if self.measuring:
            self.measuring = False
            self.measure_pts = []
            self._clear_live()
            self.message = ""             # its prompt or distance went with its line
            self._last_pointer = None     # the live verdict under the pointer comes back
        elif self.camera.mode == "eye":
            self.toggle_eye()
        else:
            self.select(None)
        self.refresh()
        return "cancel"

    # ------------------------------------------------------------ eye view
    def toggle_eye(self):
        if self.camera.mode == "eye":
            self._leave_eye()
            if self._saved_orbit:
                self.camera.set_orbit(*self._saved_orbit)
            else:
                self.camera.reset()
            self.camera.eye_of = None
            return "orbit"
        if not self.selected:
            self.message = "V: select a model first"
            self.refresh()
            return None
        self._saved_orbit = (self.camera.target.copy(), self.camera.heading, self.camera.pitch, self.camera.distance)
        hb = self.world.hitbox(self.selected)
        at = None
        if self.hovered and self.hovered != self.selected:
            o = self.world.hitbox(self.hovered)
            at = (o.x, o.y, o.z + o.height / 2)
        self.camera.eye_view(hb, at)
        self.table.models[self.selected].hide()
        self._eye_model = self.selected
        self.arc_np = ov.front_arc_overlay(hb)
        self.arc_np.reparentTo(self.app.root)
        self.eye_labels()
        return "eye"

    def _leave_eye(self) -> None:
        """Undo what the eye view changed: the viewer drawn again, its front arc gone,
        the labels it hid shown (also when T or R took the camera out of it)."""
        if self.arc_np is not None:
            self.arc_np.removeNode()
            self.arc_np = None
        node = self.table.models.get(self._eye_model or "")
        if node is not None:
            node.show()
        self._eye_model = None
        self._show_eye_labels()

    def _show_eye_labels(self) -> None:
        for n in self._eye_hidden:
            if not n.isEmpty():
                n.show()
        self._eye_hidden = []
        self._eye_hidden_ids = []
        self._eye_key = None

    def eye_labels(self) -> list[str]:
        """In the eye view the labels of the models and tokens that the eye cannot
        see (every ray from it to their sample points meets the scenery) and the
        viewer's own are hidden: labels draw over walls, so they would float on a
        wall with leader lines into it. The dispute's eye picture keeps only its
        target's label for the same reason. Kept up to date as models move;
        returns the ids whose labels are hidden."""
        viewer = self._eye_model
        if self.camera.mode != "eye" or viewer is None or viewer not in self.world.models:
            self._show_eye_labels()
            return []
        tokens = self.table.tokens
        key = (viewer, getattr(self.world, "version", None), tuple(self.table.label_nodes),
               tuple((tid, lk.key) for tid, lk in tokens.looks.items()))
        if key == self._eye_key:
            return list(self._eye_hidden_ids)
        self._show_eye_labels()
        self._eye_key = key
        eye = TableCamera.eye_point(self.world.hitbox(viewer))
        owners, pts = [], []
        for mid in self.table.label_nodes:
            if mid == viewer:
                continue
            p = ov.hitbox_lattice(self.world.hitbox(mid))
            owners.append(("model", mid, len(p)))
            pts.append(p)
        from engine.view.tokens import THICKNESS
        a = np.linspace(0.0, 2.0 * math.pi, 8, endpoint=False)
        for tid, lk in tokens.looks.items():
            z = float(lk.at[2]) + THICKNESS
            ring = np.column_stack([lk.at[0] + 0.8 * lk.radius * np.cos(a), lk.at[1] + 0.8 * lk.radius * np.sin(a),
                                    np.full(len(a), z)])
            p = np.vstack([[float(lk.at[0]), float(lk.at[1]), z], ring])
            owners.append(("token", tid, len(p)))
            pts.append(p)
        hidden = [("model", viewer)]
        if pts:
            allp = np.vstack(pts)
            clear = ~self.world.rays.occluded(np.broadcast_to(eye, allp.shape), allp)
            start = 0
            for kind, oid, n in owners:
                if not clear[start:start + n].any():
                    hidden.append((kind, oid))
                start += n
        out = []
        for kind, oid in hidden:
            node = (self.table.label_nodes if kind == "model" else tokens.label_nodes).get(oid)
            if node is not None and not node.isHidden():
                node.hide()
                self._eye_hidden.append(node)
            out.append(oid)
        self._eye_hidden_ids = out
        return out

    # ------------------------------------------------------------ measure
    def toggle_measure(self):
        self.measuring = not self.measuring
        self.measure_pts = []
        self._clear_live()
        self.message = "Measure: click two points or models" if self.measuring else ""
        self.refresh()
        return "measure"

    def measure_click(self, hit):
        what = hit.id if hit.kind == "model" else tuple(hit.point)
        self.measure_pts.append(what)
        if len(self.measure_pts) < 2:
            self.message = f"Measure from {what if isinstance(what, str) else _fmt_p(what)}: click the second point"
            self.refresh()
            return None
        a, b = self.measure_pts[:2]
        self.measure_pts = []
        result = self.measure(a, b)
        self._clear_live()
        ov.measure_overlay(result["from"], result["to"], result["text"]).reparentTo(self.live)
        self.message = result["text"]
        self.refresh()
        return result

    def measure(self, a, b) -> dict:
        """3D distance and height difference between models and/or points."""
        w = self.world
        if isinstance(a, str) and isinstance(b, str):
            pa, pb = w.closest_points(a, b)
            d = float(w.distance(a, b))
            dh = float(w.height_difference(a, b))
            text = f"{a} -> {b}: {d:.2f}\" (closest hitbox points), height difference {dh:+.2f}\""
        elif isinstance(a, str) or isinstance(b, str):
            mid, p = (a, b) if isinstance(a, str) else (b, a)
            d, c = point_to_hitbox(w, p, mid)
            pa, pb = (c, np.asarray(p)) if isinstance(a, str) else (np.asarray(p), c)
            dh = float(pb[2] - pa[2])
            text = f"{_fmt_p(p)} <-> {mid}: {d:.2f}\", height difference {dh:+.2f}\""
        else:
            pa, pb = np.asarray(a, float), np.asarray(b, float)
            d = float(np.linalg.norm(pb - pa))
            dh = float(pb[2] - pa[2])
            text = f"{d:.2f}\" (flat {np.linalg.norm((pb - pa)[:2]):.2f}\"), height difference {dh:+.2f}\""
        return {"from": tuple(map(float, pa)), "to": tuple(map(float, pb)), "distance": d,
                "height_difference": dh, "text": text}

    # ------------------------------------------------------------ live verdict
    def pair(self) -> tuple[str, str] | None:
        if self.selected and self.hovered and self.hovered != self.selected:
            return self.selected, self.hovered
        if not self.selected and len(self.hover_trail) == 2:
            return self.hover_trail[0], self.hover_trail[1]
        return None

    def _clear_live(self):
        """Remove the live overlays and the bands the live tools put on models (the
        verdict's target, a template's victims): their side colours stay throughout."""
        for c in self.live.getChildren():
            c.removeNode()
        for mid in list(self.table.marks):
            self.table.mark(mid, None)
        self.table.tints.clear()
        self.table._apply_tints()

    def show_verdict(self, a: str, b: str):
        key = (a, b, getattr(self.world, "version", 0))
        if key == self._verdict_key:
            return self.verdict
        self._verdict_key = key
        self._clear_live()
        try:
            res = live_los(self.world, a, b, **self.los_options())
        except Exception as exc:                       # a geometry error must not kill the window
            self.verdict = None
            self.hud.verdict.set(f"LoS {a} -> {b}: error {exc}", ov.RED)
            return None
        self.verdict = res
        # fewer, smaller target points than a dispute's eye picture draws: seen from afar
        # they would cover the target whole (its side's colour, its band)
        from engine.view.pictures import OVERVIEW_TARGET_POINTS
        ov.los_overlay(self.world, res, max_points=OVERVIEW_TARGET_POINTS, point_size=2.0).reparentTo(self.live)
        # the target keeps its side's colour (whose model it is) and wears a band in the
        # visibility colour (red hidden, amber to green as more of it shows)
        self.table.mark(b, ov.visibility_colour(res.visible_fraction, res.los), collar=self.table.TARGET_COLLAR)
        text = verdict_text(res)
        from engine.view.pictures import los_detail
        detail = los_detail(res)          # the same cover line as the pictures and `eldfall los`
        if detail and res.cover_reason:
            text += f"\n{detail}"
        self.hud.verdict.set(text, ov.GREEN if res.los else ov.RED)
        return res

    def dispute(self, a: str | None = None, b: str | None = None):
        """F12: the picture pair + JSON verdict for the current pair into a new folder."""
        from engine.view.pictures import dispute_folder
        pair = (a, b) if a and b else self.pair()
        if pair is None:
            self.message = "F12: select a model and hover another (or hover two models)"
            self.refresh()
            return None
        res = live_los(self.world, *pair, **self.los_options())
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        folder = os.path.join(self.out_dir, f"{stamp}-{pair[0]}-vs-{pair[1]}")
        n = 1
        while os.path.exists(folder):
            n += 1
            folder = os.path.join(self.out_dir, f"{stamp}-{pair[0]}-vs-{pair[1]}-{n}")
        # the pictures draw their own overlays and caption: the live ones (a route, a reach
        # area, a range ring) and the HUD's panels stay out of them
        others = [n for n in (self.live, getattr(self, "play_live", None), self.hud.root)
                  if n is not None and not n.isEmpty() and not n.isHidden()]
        for n in others:
            n.hide()
        self._show_eye_labels()          # the pictures choose their own labels
        # ... and their own rings and bands (a template's victims are no part of a LoS
        # picture); the live ones (the selection ring, the verdict's band) come back after
        t = self.table
        looks = (dict(t.highlights), dict(t.marks), dict(t.tints), dict(t.mark_collars))
        t.clear_marks()
        cam = self.camera                # the pictures move the shared camera rig: put it back
        rig = (cam.target.copy(), cam.heading, cam.pitch, cam.distance, cam.mode, cam.eye_of)
        try:
            verdict = dispute_folder(self.world, res, folder)
        finally:
            for n in others:
                n.show()
            t.clear_marks()
            for (mid, rgba) in looks[0].items():
                t.highlight(mid, rgba)
            for (mid, rgba) in looks[1].items():
                t.mark(mid, rgba, looks[3].get(mid, 0.5))
            for (mid, rgba) in looks[2].items():
                t.tint(mid, rgba)
            self._verdict_key = None
            cam.target, cam.heading, cam.pitch, cam.distance, cam.mode, cam.eye_of = rig
            self.eye_labels()
        self.message = f"dispute written to {folder}"
        self.refresh()
        return folder, verdict

    # ------------------------------------------------------------ per frame
    def update(self, dt: float) -> None:
        self.camera.update(dt)
        self.table.sync()
        if self.camera.mode == "eye":
            self.eye_labels()
        elif self._eye_model is not None:           # T or R left the eye view
            self._leave_eye()
        self.table.layout_labels(self.app, obstacles=self.hud.rects(), important=self.pair() or ())
        pointer = self.app.pointer
        if pointer != self._last_pointer:
            self._last_pointer = pointer
            self.hover()

    def hover(self):
        hit = self.pick_now()
        mid = hit.id if hit is not None and hit.kind == "model" else None
        self.hover_point = hit.point if hit is not None else None
        if mid != self.hovered:
            self.hovered = mid
            if mid and (not self.hover_trail or self.hover_trail[-1] != mid):
                self.hover_trail = (self.hover_trail + [mid])[-2:]
        self.on_hover(hit)
        pair = self.pair()
        if self.template_kind:
            pass                                  # the template tool owns the verdict panel
        elif pair and not self.measuring:
            self.show_verdict(*pair)
        elif not self.measuring and self._verdict_key is not None:
            self._verdict_key = None
            self._clear_live()
            self.hud.verdict.set("")
        return mid

    TEMPLATES = (None, "circle-s", "circle-l", "spray-s", "spray-l")

    def cycle_template(self):
        """G: a template that follows the mouse (circles centred on the pointer,
        sprays from the selected model toward it); the models under it wear a
        coverage band over their side's colour."""
        i = self.TEMPLATES.index(self.template_kind) if self.template_kind in self.TEMPLATES else 0
        self.template_kind = self.TEMPLATES[(i + 1) % len(self.TEMPLATES)]
        self._clear_template()
        if self.template_kind and self._verdict_key is not None:
            # the template tool owns the verdict panel: the LoS verdict's rays and the
            # target's band go, or the target would read as one of the template's victims
            self._verdict_key = None
            self.verdict = None
            self._clear_live()
            self.hud.verdict.set("")
        if self.template_kind and self.template_kind.startswith("spray") and not self.selected:
            self.message = f"{self.template_kind}: select the model that sprays, then point"
        else:
            self.message = f"template {self.template_kind}: move the mouse" if self.template_kind else ""
        self.refresh()
        self._last_pointer = None            # redraw at the pointer now
        return self.template_kind

    def _clear_template(self):
        for c in self.live.getChildren():
            if c.getName() == "template-overlay":
                c.removeNode()
        if self.template_result is not None:
            for h in self.template_result.affected:
                self.table.mark(h.id, None)
        self.template_result = None

    def show_template(self, kind: str, point, user: str | None = None):
        """Place ``kind`` at/toward ``point`` and draw it; the models under it keep their
        side's colour (whose model is hit) and wear a coverage band (``TableScene.mark``)."""
        from engine import templates as tp
        self._clear_template()
        try:
            if kind.startswith("spray"):
                if not user:
                    return None
                res = tp.template(self.world, kind, user=user, aim=tuple(point[:2]))
            else:
                res = tp.template(self.world, kind, user=user, at=tuple(point))
        except Exception as exc:                 # an impossible placement: say why, keep going
            self.hud.verdict.set(f"{kind}: {exc}", ov.RED)
            return None
        self.template_result = res
        ov.template_overlay(res).reparentTo(self.live)
        for h in res.affected:
            self.table.mark(h.id, ov.coverage_colour(h))
        hits = ", ".join(f"{h.id} {100 * h.covered_fraction:.0f}%" + ("" if h.los_from_origin else " (no LoS)")
                         for h in res.affected) or "nobody"
        self.hud.verdict.set(f"{kind}: {hits}", (1, 0.75, 0.3, 1))
        return res

    def on_hover(self, hit) -> None:
        """The template tool follows the pointer (subclasses add previews)."""
        if self.template_kind and hit is not None and hit.point is not None:
            self.show_template(self.template_kind, hit.point, self.selected)

    # ------------------------------------------------------------ HUD
    def refresh(self) -> None:
        w = self.world
        hint = ("right drag orbit | middle drag / WASD pan | wheel zoom | T top | R reset | "
                "V eye view | M measure | G template | F12 dispute | Tab next model")
        name = getattr(w.scene, "name", "") or os.path.basename(getattr(w.scene, "path", "") or "table")
        self.hud.status.set(f"{name}\n{hint}" + (f"\n{self.message}" if self.message else ""))
        self.hud.profile.set(self.profile_text(self.selected) if self.selected else "")

    def profile_text(self, mid: str) -> str:
        hb = self.world.hitbox(mid)
        spec = getattr(hb, "spec", None)
        prof = getattr(spec, "profile", None)
        lines = [f"{getattr(prof, 'name', mid)} [{mid}, {hb.side}]"]
        stats = getattr(hb, "stats", None) or {}
        if stats:
            lines.append(" ".join(f"{k} {v}" for k, v in stats.items()))
        lines.append(f"at ({hb.x:.2f}, {hb.y:.2f}, {hb.z:.2f}) facing {hb.facing:.0f} deg, "
                     f"base {2 * hb.radius:.2f}\" height {hb.height:.2f}\"")
        if hb.states:
            lines.append("states: " + ", ".join(sorted(hb.states)))
        for wpn in getattr(prof, "weapons", ()) or ():
            lines.append(f"  {wpn.name} ({wpn.kind}) PW {wpn.pw} STK {wpn.stk}"
                         + (f" RCH {wpn.rch:g}" if wpn.kind == "melee" else ""))
        return "\n".join(lines)

    def close(self) -> None:
        self.app.remove_frame("view")
        self._show_eye_labels()
        self.hud.destroy()
        self.live.removeNode()
        if self.arc_np is not None:
            self.arc_np.removeNode()
        self.table.root.removeNode()
        self.app.table_scene = None
        if self.app.controller is self:
            self.app.controller = None


def _fmt_p(p) -> str:
    return "(" + ", ".join(f"{float(v):.2f}" for v in p) + ")"


# ====================================================================== play
class PlayController(TableView):
    """Hotseat play of a game through the mouse and keyboard."""

    def __init__(self, app, world, game, geometry, *, out_dir: str = "out", log_path: str | None = None,
                 labels: bool = True):
        self.game = game
        self.geometry = geometry
        self.state = "idle"            # idle | move | target
        self.move_mode: str | None = None
        self.move_crouch_start: bool | None = None   # False: a Crouched model stands up first
        self.move_land: str | None = None   # a Flying model lands at the "start" or "end" of its step
        self.waypoints: list[tuple] = []
        self.target_key = None          # (action name, weapon, spell) waiting for a target click
        self.split: list[str] | None = None   # split Strikes: the target of each Strike clicked so far
        self.aim_points: list[tuple] = []     # a reactive attack: the points of the path it may aim at
        self.ground_aim = False         # the target step's Attack may be aimed at a point of the ground
        self._ground: dict | None = None       # the keys that may aim at the ground -> candidate declarations
        self.move_facing: float | None = None  # F: the facing the move ends with (None: the rules')
        self.push_mode = False          # K: the Knockback arrow follows the pointer
        self.push_target: str | None = None    # the model whose push the arrow aims
        self.knockback: float | None = None    # the chosen Knockback direction (None: directly away)
        self.push_aim = None            # the arrow now: (degrees, the rules' reason or None)
        self.menu: list[tuple[str, object]] = []
        self.menu_page = 0              # a menu longer than ten entries shows in pages (key 0 turns)
        self.preview = None
        self.path_watchers: list = []
        self.actions_cache = None
        self.log_path = log_path or os.path.join(out_dir, "logs", "game.jsonl")
        self.applied: list = []         # (action, events) applied through this controller
        super().__init__(app, world, out_dir=os.path.join(out_dir, "disputes"), labels=labels)
        # the labels say who is out of the fight in the game's own words (a Norova
        # character dying, stable, dead or down: all drawn as their base alone)
        self.table.status_of = self.model_status
        self.table.sync(force=True)
        self.play_live = app.root.attachNewNode("play-overlay")
        self.sync_tokens()
        if self.active_model() in self.world.models:    # a game that opens on a model's turn: it is ringed
            self.select(self.active_model())

    def close(self) -> None:
        self.play_live.removeNode()     # a route, a reach area, a range ring: not left on the next table
        super().close()

    # ------------------------------------------------------------ legal actions
    def legal(self) -> list:
        """The legal actions now (cached until the next apply). In a movement
        step the sampled end points are not enumerated (the player clicks the
        path and ``why_illegal`` judges it): only the non-path choices are."""
        if self.actions_cache is None:
            if self.game.is_over:
                self.actions_cache = []
            elif self.pending_kind() in ("movement", "dodge-move"):
                self.actions_cache = self._step_choices()
            else:
                acts = list(self.game.legal_actions())
                if any(action_kind(a) == "Move" and path_field(a) == "route" for a in acts):
                    acts = self._route_choices(acts)
                self.actions_cache = acts
        return self.actions_cache

    def pending_kind(self) -> str | None:
        p = getattr(self.game, "pending", None)
        return p[0] if isinstance(p, (tuple, list)) and p else None

    def pending_who(self) -> str | None:
        p = getattr(self.game, "pending", None)
        return p[1] if isinstance(p, (tuple, list)) and len(p) > 1 else None

    def _step_choices(self) -> list:
        """Movement / dodge-move steps: the choices without a path, plus a
        path-less probe per mode the phase and actor allow (the clicked path
        replaces it). A Crouched model may cancel Crouched at the start of its
        Movement Step and then move as a standing model (Run, Climb, Jump, which
        Crouched alone forbids, or Walk): a probe with ``crouch_start=False`` per
        mode the rules then allow, and none of a mode they refuse while Crouched."""
        import dataclasses
        out = []
        for a in self.game.legal_actions():
            if not action_path(a):
                out.append(a)
            elif action_kind(a) == "DodgeMove":
                out.append(dataclasses.replace(a, path=()))
                break
            else:
                break           # the first sampled path: the rest are more of the same
        mid = self.pending_who()
        if self.pending_kind() == "movement" and mid:
            from rules.eldfall.actions import Move
            # Crouched: each mode as the rules judge it (a Crouched Walk, which they always
            # allow a model that may move, says that their answer to a path-less probe reads)
            judge = "Crouched" in self._states(mid) and self._mode_open(Move(mid, "walk", ()))
            for mode in ("walk", "run", "climb", "jump"):
                probe = Move(mid, mode, ((0.0, 0.0, 0.0),))
                if self.game.check_phase(probe) or self.game.check_actor(probe):
                    continue
                plain = Move(mid, mode, ())
                if not judge or self._mode_open(plain):
                    out.append(plain)
                stand = Move(mid, mode, (), crouch_start=False)
                if judge and self._mode_open(stand):
                    out.append(stand)
            # a Flying model may stop Flying at the start (then walk on foot) or the end of
            # its step: the landings the rules take (the sampled ones come after the paths)
            if "Flying" in self._states(mid) and "land" in getattr(Move, "__dataclass_fields__", {}):
                idle = Move(mid, "idle", land="start")
                if self._mode_open(idle):
                    out.append(idle)
                for land in ("start", "end"):
                    probe = Move(mid, "walk", (), land=land)
                    if self._mode_open(probe):
                        out.append(probe)
        seen, uniq = set(), []
        for a in out:
            if str(a) not in seen:
                seen.add(str(a))
                uniq.append(a)
        return uniq

    def _states(self, mid) -> frozenset:
        """The model's states as the rules have them (else as the World has them)."""
        models = getattr(self.game, "models", None)
        states = getattr(models.get(mid), "states", None) if hasattr(models, "get") else None
        if states is None and mid in self.world.models:
            states = self.world.hitbox(mid).states
        return frozenset(states or ())

    def _mode_open(self, probe) -> bool:
        """Whether the rules take a path-less Move's mode (and its Crouched change): they
        refuse it for no other reason than its missing path."""
        try:
            reason = self.game.why_illegal(probe)
        except Exception:                     # noqa: BLE001 -- a probe the rules cannot read
            return False
        return reason is None or str(reason).endswith("needs a path")

    #: movement modes a game may name (each offered when the rules take it)
    MOVE_MODES = ("walk", "run", "sprint", "crawl", "climb", "jump", "fly")

    def _route_choices(self, acts: list) -> list:
        """A game whose moves are sampled routes (Legends of Norova): the
        samples give way to one route-less Move per mode the rules accept for
        the active character (the clicked route replaces it; ``why_illegal``
        judges it). A mode is offered when the rules know it (a sampled route
        in that mode is judged, not a crash) and a standing probe in it is
        refused for no other reason than one in a mode the samples show is
        legal (a route too short: the mode itself passed)."""
        import dataclasses
        moves = [a for a in acts if action_kind(a) == "Move" and action_path(a)]
        out = [a for a in acts if not (action_kind(a) == "Move" and action_path(a))]
        if not moves:
            return out
        sample = moves[0]
        hb = self.world.hitbox(sample.actor)
        here = (float(hb.x), float(hb.y), float(hb.z))

        def probe(mode, route):
            try:
                return self.game.why_illegal(dataclasses.replace(sample, mode=mode, route=route))
            except Exception:                 # a mode this game does not know
                return "unknown mode"

        known = {a.mode for a in moves}
        baseline = probe(sample.mode, (here,))
        modes = [m for m in self.MOVE_MODES if m in known or (
            probe(m, sample.route) != "unknown mode" and probe(m, (here,)) == baseline)]
        modes += sorted(known - set(modes))
        return out + [dataclasses.replace(sample, mode=m, route=(), **(
            {"facing": None} if hasattr(sample, "facing") else {})) for m in modes]

    def _invalidate(self):
        self.actions_cache = None
        self._ground = None

    def _reset_step(self):
        """Back to idle: no path, no target step, no split, no aim, no facing."""
        self.state, self.move_mode, self.waypoints, self.target_key = "idle", None, [], None
        self.routed_len = 0               # the first waypoints, one click's route through the shaded area
        self.move_crouch_start = self.move_land = None
        self.split, self.aim_points, self.move_facing = None, [], None
        self.ground_aim = False
        self.place, self.place_kind = None, None   # a template Attack's chosen spot (Declare.place)
        self.token_place = False          # the target step lays a Transmutation's token at a ground click
        self.push_mode, self.push_target, self.knockback, self.push_aim = False, None, None, None
        if getattr(self, "_hint_line", "") and hasattr(self, "hud"):
            self.target_hint(None)        # the target step's line under the verdict goes with it

    #: the pending decisions that are one model's: that model is the menu's (turn-on-hit:
    #: the hit model turns, not the attacker whose activation it is; stand-up: the model
    #: whose Incapacitated State ended stands up or stays Crouched)
    MODEL_DECISIONS = ("movement", "action", "dodge-move", "turn-on-hit", "stand-up")
    #: a Reaction step's end selects the active model for its own step (the hotseat; the
    #: attract mode frames each step's actor itself)
    SELECT_ACTIVE_AFTER_REACTIONS = True

    def active_model(self) -> str | None:
        if self.pending_kind() in self.MODEL_DECISIONS and self.pending_who() in self.world.models:
            return self.pending_who()
        act = getattr(self.game, "act", None)
        if act is not None and getattr(act, "model", None):
            return act.model
        am = getattr(self.game, "active_model", None)
        if callable(am):                      # Legends of Norova: a method
            try:
                am = am()
            except Exception:
                am = None
        return am if isinstance(am, str) else None

    # ------------------------------------------------------------ applying
    def apply(self, action, refused=None):
        """Apply ``action``; an illegal one is not applied and the status says the rules'
        reason (``refused``: the reason in the step's own words, ``reason -> text``)."""
        reason = self.game.why_illegal(action)
        if reason:
            self.message = refused(reason) if refused else f"not allowed: {reason}"
            self.refresh()
            return None
        before = self.active_model()
        kind_before = self.pending_kind()
        events = self.game.apply(action)
        self.applied.append((action, events))
        self._invalidate()
        self.world_sync()
        self._reset_step()
        self._clear_play()
        self.message = self.explain(action, events)
        actor = action_actor(action)
        if self.pending_kind() in ("turn-on-hit", "stand-up"):   # a Hit, an Incapacitated State
            actor = self.pending_who()                          # ended: that model's player decides
        elif actor is not None and actor == before and self.active_model() not in (None, actor):
            actor = self.active_model()              # its turn ended and another model's began (Norova)
        elif (self.SELECT_ACTIVE_AFTER_REACTIONS and kind_before in self.REACTION_STEPS
              and self.pending_kind() in ("movement", "action")
              and self.active_model() in self.world.models and actor != self.active_model()):
            # the Reaction step is over and the active model's step begins: it is selected
            # (the reactor stayed selected, its profile and live LoS on screen while the
            # active model declared)
            actor = self.active_model()
        if actor and actor in self.world.model_ids():
            self.select(actor)
        else:
            self.refresh()
        return events

    #: Legends of Norova's words for a character out of the fight (its ``status``),
    #: then for one knocked down (``prone``)
    NOROVA_STATUS = {"dead": "dead", "dying": "dying", "stable": "stable"}

    def model_status(self, mid: str) -> str | None:
        """A model's label words for what puts it out of the fight (``TableScene.
        status_words``): a Legends of Norova character's status ("dying", "stable",
        "dead") or "down" when it lies prone; else the World's States (Eldfall: Dead,
        Incapacitated)."""
        f = (getattr(self.game, "fighters", None) or {}).get(mid)
        if f is None or not hasattr(f, "status"):
            return self.table.state_words(mid)
        word = self.NOROVA_STATUS.get(str(f.status))
        if word is None and getattr(f, "prone", False):
            word = "down"
        return word

    def world_sync(self):
        """The rules moved models through the geometry (summoned creatures
        entered, fallen ones left): redraw them, and the tokens as the game
        has them now."""
        self.table.sync(force=True)
        self.sync_tokens()
        self.forget_gone()
        # the live verdict was drawn on the table as it was: the next frame asks the
        # pointer's model again, on the table as it is now (Ctrl+Z put a walked model
        # back, and its rays still left from where the walk had ended); only a verdict
        # shown, and not in the attract mode, which waits for the visitor's mouse
        if self.REHOVER_ON_SELECT and self._verdict_key is not None:
            self._last_pointer = None

    def forget_gone(self) -> None:
        """Models that left the table (removed, a summoned creature undone)
        are no longer selected, hovered or remembered for the live verdict."""
        ids = set(self.world.model_ids())
        if self.selected is not None and self.selected not in ids:
            self.table.highlights.pop(self.selected, None)
            self.selected = None
        if self.hovered is not None and self.hovered not in ids:
            self.hovered = None
        self.hover_trail = [m for m in self.hover_trail if m in ids]
        if self._verdict_key is not None:
            # drawn for the table as it was: the next hover draws it again, or takes it
            # away when no pair is left (None here read as "none shown": its rays stayed)
            self._verdict_key = ("stale",)

    def game_tokens(self) -> list:
        """The game's tokens (Eldfall: ``game.tokens``); none for a game without them."""
        toks = getattr(self.game, "tokens", None)
        if isinstance(toks, dict):
            return list(toks.values())
        return list(toks or ())

    def sync_tokens(self) -> bool:
        """Draw the tokens still on the field: hidden ones muted with "?",
        revealed ones with their name; picked up or destroyed ones go."""
        return self.table.tokens.set(self.game_tokens())

    def token_under_pointer(self) -> str | None:
        if self.app.pointer is None:
            return None
        return pick_token(self.app, self.world, self.table.tokens, self.app.pointer)

    def token_text(self, tid: str) -> str:
        t = (getattr(self.game, "tokens", None) or {}).get(tid)
        look = self.table.tokens.looks.get(tid)
        if t is None or look is None:
            return tid
        what = ("hidden " if t.hidden else "") + f"{t.side} {t.kind} token {tid}"
        if not t.hidden:
            what += f" ({look.name})" if look.name else ""
        x, y, z = look.at
        return f"{what} at ({x:.1f}, {y:.1f}, {z:.1f})"

    @property
    def narrator(self):
        """The game's own narration (``rules.<game>.narrate.line``) when it has one."""
        if not hasattr(self, "_narrator"):
            import importlib
            pkg = type(self.game).__module__.rsplit(".", 1)[0]
            try:
                self._narrator = getattr(importlib.import_module(pkg + ".narrate"), "line", None)
            except ImportError:
                self._narrator = None
        return self._narrator

    def say(self, ev) -> str | None:
        if self.narrator is not None:
            try:
                return self.narrator(ev)
            except Exception:
                pass
        return event_line(ev)

    def miss_lines(self, events) -> dict[int, str]:
        """The game's narration's ``misses``: the attacks of these events that hit
        nothing, by the index of the event each line follows (none for a game
        without it)."""
        import importlib
        pkg = type(self.game).__module__.rsplit(".", 1)[0]
        try:
            fn = getattr(importlib.import_module(pkg + ".narrate"), "misses", None)
        except ImportError:
            fn = None
        return dict(fn(list(events))) if callable(fn) else {}

    #: the most lines a decision's outcome takes in the status panel
    EXPLAIN_LINES = 8

    def explain(self, action, events) -> str:
        """What a decision did, in the rules' words. The outcome comes last (the
        second Strike's damage, a wound): when the lines are too many, the dice
        (the dice panel shows them) go first, then the middle, never the end."""
        lines = [] if self.narrator is not None else [str(action)]
        # an attack that hit nothing says so after its last die (the rules emit no event for a miss)
        missed = self.miss_lines(events) if self.narrator is not None else {}
        # a miss line is the outcome, not a die: it stays when the dice lines go
        said = [(kind, line) for i, ev in enumerate(events) if i
                for kind, line in [(ev.kind, self.say(ev)), ("miss", missed.get(i))] if line]
        n = self.EXPLAIN_LINES - len(lines)
        if len(said) > n:
            said = [ks for ks in said if ks[0] != "roll"]
        said = [line for _, line in said]
        if len(said) > n:
            said = said[:n - 5] + [f"  ... ({len(said) - n + 1} more in the event log)"] + said[-4:]
        return "\n".join(lines + said)

    # ------------------------------------------------------------ input
    def handlers(self) -> dict:
        h = super().handlers()
        h.update({"enter": self.confirm, "backspace": self.drop_waypoint,
                  "control-z": self.undo, "control-s": self.save, "control-o": self.load,
                  "p": self.pass_reactions, "f": self.face_pointer, "f1": self.toggle_keys,
                  "k": self.push_key})
        for i in range(1, 10):
            h[str(i)] = (lambda i=i: self.choose(i - 1))
        h["0"] = lambda: self.choose(9)
        return h

    def label_clicks(self) -> bool:
        """A name label is its model's in the idle step and a target step that takes
        only models; a route's waypoint, a template laid on the ground, a Knockback's
        direction, a token laid or a point of the mover's path are points of the
        ground, labels or not."""
        if not super().label_clicks() or self.state == "move":
            return False
        if self.state == "target":
            return not any(getattr(self, k, None) for k in ("push_mode", "ground_aim", "place_kind",
                                                             "aim_points", "token_place"))
        return True

    def handle_click(self, hit):
        if self.state == "target" and self.push_mode:
            return self.push_click(hit)
        if self.state == "target" and getattr(self, "token_place", False):
            return self.token_place_click(hit)
        if self.state in ("target", "idle") and not self.ground_aim:
            tid = self.token_under_pointer()
            if tid is not None:
                return self.token_click(tid)
        if self.state == "move":
            # where a base stands under the pointer: through a model (the mover's own head)
            # to the ground; on the side of a wall, at its foot (a climb: on its top)
            mid = self.active_model()
            radius = self.world.hitbox(mid).radius if mid in self.world.models else 0.0
            point = pick_standing(self.app, self.world, radius, top=self.move_mode == "climb")
            if point is None and hit.kind != "model":
                point = hit.point
            if point is None:
                return None
            self.waypoints.append(tuple(float(v) for v in point))
            routed = len(self.waypoints) == 1 and self.route_in_reach()
            self.routed_len = len(self.waypoints) if routed else getattr(self, "routed_len", 0)
            self.update_path_preview()
            if routed:
                self.message += "\n(the shaded area's route to the click: the straight line is not legal)"
                self.refresh()
            return ("waypoint", self.waypoints[-1])
        if self.state == "target" and self.ground_aim and hit.point is not None and hit.kind != "model":
            return self.ground_click(hit.point)
        if self.state == "target" and self.place_kind and hit.point is not None and hit.kind != "model":
            return self.place_click(hit.point)
        if self.state == "target" and self.aim_points and hit.point is not None and hit.kind != "model":
            aim = self.aim_at(hit.point)
            if aim is not None:
                return self.apply(aim)
        if self.state == "target" and hit.kind == "model":
            return self.target_click(hit.id)
        if self.state == "target" and self.aim_points:
            self.message = (f"{self.target_key[0]}: click {self.pending_mover() or 'the mover'} or a marked "
                            "point of its path (Esc cancels)")
            self.refresh()
            return None
        if self.state == "target":
            self.message = f"{self.target_key[0]}: click a highlighted model (Esc cancels)"
            self.refresh()
            return None
        if hit.kind == "model":
            mid = hit.id
            acts = [a for a in self.legal() if action_kind(a) == "Activate" and action_actor(a) == mid]
            if acts:
                return self.apply(acts[0])
            self.select(mid)
            why = self.activation_refused(mid)
            words = f"{mid} selected, not activated: {why}" if why else ""
            if not why:
                why = self.reaction_refused(mid)
                words = f"{mid} selected, it may declare no Reaction now: {why}" if why else ""
            if why or self.message == getattr(self, "_refused", None):
                # a click meant to activate (or to react) says why it selected instead (the
                # rules' reason)
                self.message = self._refused = words
                self.refresh()
            return mid
        self.select(None)
        return None

    def select(self, mid: str | None) -> None:
        if mid != self.selected and self.message and self.message == getattr(self, "_refused", None):
            self.message = ""               # the words of a refused activation go with its selection
        super().select(mid)

    def reaction_refused(self, mid: str) -> str | None:
        """In a Reaction step, why ``mid`` has no Reaction to declare: the rules' reason
        for its Nothing (no LoS to the mover during its movement and not in its
        Awareness, another side's model, no AP), or None when it may react."""
        import dataclasses
        if self.pending_kind() not in self.REACTION_STEPS:
            return None
        legal = self.legal()
        if any(action_actor(a) == mid for a in legal):
            return None
        decls = [a for a in legal if action_kind(a) == "Declare" and dataclasses.is_dataclass(a)
                 and "model" in {f.name for f in dataclasses.fields(a)}]
        proto = next((a for a in decls if getattr(a, "action", None) == "Nothing"), None) or \
            next(iter(decls), None)
        if proto is None:
            return None
        try:
            return self.game.why_illegal(dataclasses.replace(proto, model=mid))
        except Exception:
            return None

    def activation_refused(self, mid: str) -> str | None:
        """In the activation phase (the rules offer Activate), why a click on ``mid``
        activates nothing: the rules' reason (another side's model, one that has
        activated, one out of AP), or None."""
        import dataclasses
        proto = next((a for a in self.legal() if action_kind(a) == "Activate"), None)
        if proto is None or not dataclasses.is_dataclass(proto) or "model" not in {
                f.name for f in dataclasses.fields(proto)}:
            return None
        try:
            return self.game.why_illegal(dataclasses.replace(proto, model=mid))
        except Exception:
            return None

    def token_click(self, tid: str):
        """A click on a token: a target in the target step; else say what
        it is and which menu entries act on it."""
        if self.state == "target":
            return self.target_click(tid)
        legal = self.legal()
        keys = []
        for i, (label, what) in enumerate(self.menu):
            if callable(what):         # a target step: does one of its actions take this token?
                acts = [a for a in legal if action_kind(a) == "Declare" and action_actor(a) == self.menu_actor(legal)
                        and tid in action_targets(a) and label.startswith(self._key(a)[0])]
            else:
                acts = [what] if (getattr(what, "objective", None) == tid or tid in action_targets(what)) else []
            if acts:
                keys.append(f"{i + 1 if i < 9 else 0} ({label.split(' -> ')[0]})")
        self.message = self.token_text(tid) + ("; menu " + ", ".join(keys) if keys else "")
        self.refresh()
        return ("token", tid)

    def target_click(self, mid: str):
        name = self.target_key[0]
        cands = [a for a in self.legal() if self._key(a) == self.target_key and mid in action_targets(a)]
        if not cands:
            reason = self.target_reason(mid)
            self.message = f"{mid} is not a legal target for {name}" + (f": {reason}" if reason else "")
            self.refresh()
            return None
        if self.split is not None:
            return self.split_click(mid)
        decl = self.with_push(self.best_on(mid))
        if self.place is not None and decl is not None:
            import dataclasses
            return self.apply(dataclasses.replace(decl, place=self.place), refused=lambda reason: (
                f"{name} on {mid} with its template at {point_words(self.place)}: {reason} "
                "(click another point of the ground, or Esc)"))
        return self.apply(decl)

    def best_on(self, mid: str):
        """The legal declaration of the target step's action that a click on ``mid``
        makes, or None: every Strike on the clicked model (the split entry shares them
        out), and a reaction aimed where the rules aim it (no point named: a click on
        the path names one)."""
        cands = [a for a in self.legal() if self._key(a) == self.target_key and mid in action_targets(a)]

        def score(a):
            ts = getattr(a, "targets", ())
            only = all((t[0] if isinstance(t, (tuple, list)) else t) == mid for t in ts)
            strikes = getattr(a, "strikes", 1)
            return (only, strikes if isinstance(strikes, int) else 1, getattr(a, "point", None) is None)
        return max(cands, key=score, default=None)

    def with_push(self, action):
        """``action`` with the chosen Knockback direction (K), when one is chosen."""
        import dataclasses
        if action is None or self.knockback is None or not hasattr(action, "knockback"):
            return action
        return dataclasses.replace(action, knockback=self.knockback)

    # ------------------------------------------------------------ split Strikes
    def max_strikes(self, key) -> int:
        """The most Strikes a legal declaration of ``key`` makes (its STK now)."""
        return max((int(getattr(a, "strikes", 1) or 1) for a in self.legal() if self._key(a) == key), default=1)

    def can_split(self, key) -> bool:
        """The rules offer ``key`` with its Strikes shared between targets
        (seed "Attack", Active Role: STK > 1 may be distributed)."""
        return any(len(action_targets(a)) > 1 for a in self.legal() if self._key(a) == key)

    def split_action(self):
        """The declaration of the Strikes clicked so far, or None."""
        import dataclasses
        if not self.split:
            return None
        sample = next((a for a in self.legal() if self._key(a) == self.target_key
                       and getattr(a, "point", None) is None), None)
        if sample is None:
            return None
        counts: dict[str, int] = {}
        for t in self.split:
            counts[t] = counts.get(t, 0) + 1
        return self.with_push(dataclasses.replace(sample, targets=tuple(counts.items())))

    def split_words(self) -> str:
        counts: dict[str, int] = {}
        for t in self.split or ():
            counts[t] = counts.get(t, 0) + 1
        return ", ".join(f"{t} {n} Strike{'s' if n > 1 else ''}" for t, n in counts.items()) or "none yet"

    def split_click(self, mid: str):
        """One Strike more on ``mid``; the last Strike declares the attack."""
        total = self.max_strikes(self.target_key)
        self.split.append(mid)
        action = self.split_action()
        reason = self.game.why_illegal(action) if action is not None else "no declaration to share out"
        if reason:
            self.split.pop()
            self.message = f"{self.target_key[0]}: one more Strike on {mid} is not allowed: {reason}"
            self.refresh()
            return None
        if len(self.split) >= total:
            return self.apply(action)
        self.message = self.split_message()
        self.refresh()
        return ("strike", mid)

    def split_message(self) -> str:
        total = self.max_strikes(self.target_key)
        return (f"{self.target_key[0]}: {len(self.split)} of {total} Strikes: {self.split_words()}\n"
                "click a target for the next Strike (the same model again adds one); "
                "Enter declares these, Backspace takes the last back, Esc cancels" + self.push_words())

    def _key(self, a):
        if action_kind(a) == "UseStratagem":
            return (f"Stratagem {a.name}", None, None)
        if _is_norova(a) and action_targets(a):
            # one target step per way of doing it (the hand, skill, aid, item, spell): its words
            return (self.norova_words(a, None), None, None)
        return (getattr(a, "action", None) or action_kind(a), getattr(a, "weapon", None), getattr(a, "spell", None))

    def target_reason(self, mid: str) -> str | None:
        """Why the rules refuse ``mid`` as the target of the action waiting for
        a click: the action offered, aimed at ``mid``, judged by ``why_illegal``
        (one line; None when it cannot be said)."""
        import dataclasses
        sample = next((a for a in self.legal() if self._key(a) == self.target_key), None)
        ground = self.ground_keys().get(self.target_key) if self.ground_aim else None
        if sample is None and ground:        # aimed at the ground only: the model named instead
            sample = dataclasses.replace(ground[0], point=None, targets=((mid, 1),))
        if sample is None or not dataclasses.is_dataclass(sample):
            return None
        names = {f.name for f in dataclasses.fields(sample)}
        try:
            if "target" in names:
                probe = dataclasses.replace(sample, target=mid)
            elif "to" in names:                # a thrown potion (Legends of Norova)
                probe = dataclasses.replace(sample, to=mid)
            elif "targets" in names and getattr(sample, "targets", None):
                first = sample.targets[0]
                probe = dataclasses.replace(sample, targets=(
                    (mid,) + tuple(first[1:]) if isinstance(first, (tuple, list)) else mid,))
            else:
                return None
            reason = self.game.why_illegal(probe)
        except Exception:                  # a probe the rules cannot even read
            return None
        return " ".join(str(reason).split()) if reason else None

    def choose(self, index: int):
        paged = bool(self.menu) and self.menu[-1][1] == self.next_page
        if paged:                              # the page turner is key 0 on every page
            if index == 9:
                return self.next_page()
            if index >= len(self.menu) - 1:
                return None
        if index >= len(self.menu):
            return None
        label, what = self.menu[index]
        return what() if callable(what) else self.apply(what)

    def cancel(self):
        if self.state == "target" and (self.push_mode or self.knockback is not None):
            return self.clear_push("Esc")
        if self.state != "idle":
            self._reset_step()
            self._clear_play()
            self.refresh()
            return "cancel"
        return super().cancel()

    def _clear_play(self):
        for c in self.play_live.getChildren():
            c.removeNode()
        if getattr(self, "_ground_shown", False):     # an Attack at the ground's preview
            self._ground_shown = False
            self._clear_template()
        self.preview = None
        for mid in list(self.table.highlights):
            if mid != self.selected:
                self.table.highlight(mid, None)
        self.table.tokens.clear_highlights()

    # ------------------------------------------------------------ movement
    def start_move(self, mode: str, crouch_start: bool | None = None, land: str | None = None):
        """Click the path of a ``mode`` move; ``crouch_start=False``: a Crouched model
        stands up at the start of its Movement Step (then Runs, say); ``land``: a Flying
        model stops Flying at the "start" (then walks on foot) or the "end" of its step."""
        mid = self.active_model()
        self._clear_play()
        self._reset_step()
        self.state, self.move_mode, self.move_crouch_start = "move", mode, crouch_start
        self.move_land = land
        self.message = self.move_prompt()
        self.show_reach(mid, mode)
        self.refresh()
        return "move"

    def move_prompt(self) -> str:
        return (f"{self.active_model()}: {move_words(self.move_mode, self.move_crouch_start, self.move_land)} - "
                "click waypoints, Enter confirms, Backspace removes, F faces the pointer at the end, Esc cancels")

    def allowance(self, mid, mode) -> float | None:
        """The rules' own allowance for a mode, for a game that states it
        (Legends of Norova: ``game.move_allowance``); None otherwise."""
        f = getattr(self.game, "move_allowance", None)
        if not callable(f):
            return None
        try:
            return float(f(mid, mode))
        except Exception:
            return None

    def reach_grid(self, mid, mode):
        """The engine's reachable area for the mode as the game judges it, or None when
        the mode has none to shade. A game with its own allowances (Legends of Norova)
        shades a walk that far, rising at most its own step height at once
        (``walk_step_height``: a higher rise needs a climb there)."""
        from engine import motion
        settings = None
        allowance = self.allowance(mid, mode)
        pose = getattr(self.game, "judged_pose", None)     # the pose the rules judge the route in
        with self._as_declared(mid), (pose(mid, mode) if callable(pose) else contextlib.nullcontext()):
            if allowance is not None:            # a game with its own allowances: a walk that far
                if mode not in ("walk", "sprint", "crawl", "run"):
                    return None
                mode, speed = "walk", allowance
                step = getattr(self.game, "walk_step_height", None)
                if callable(step):
                    settings = self._rules_motion_settings(mid, float(step()))
            elif mode == "dodge":
                return self.dodge_reach_grid(mid)
            elif mode not in ("walk", "run"):
                return None
            else:
                speed = self._speed(mid)
            return motion.reachable(self.world, mid, mode, speed=speed, settings=settings)

    def dodge_reach_grid(self, mid):
        """The area the move after a Dodge may end in: a walk of SPD / 2 rounded up "in
        any direction" (the game's ``dodge_move_geometry``: an Engaged model's Disengage
        too), and, for a Panicked reactor that failed its M roll (Eldfall), only the
        ends nearer a nearest field edge (a straight click there goes toward it; a
        route that turns away is the rules' to refuse). None without a SPD."""
        import dataclasses

        from engine import motion
        speed = self._speed(mid)
        if not speed:
            return None
        speed = math.ceil(speed / 2.0)
        geom = getattr(self.game, "dodge_move_geometry", None)
        with (geom(mid) if callable(geom) else contextlib.nullcontext()):
            grid = motion.reachable(self.world, mid, "walk", speed=speed)
        edges = getattr(self.game, "panic_dodge_edges", None)     # the rules' own (Eldfall)
        near = edges(mid) if callable(edges) else []
        if not near:
            return grid
        r = float(grid.resolution)
        ny, nx = grid.end_ok.shape[1:]
        xs, ys = (np.arange(nx) + 0.5) * r, (np.arange(ny) + 0.5) * r
        toward = np.zeros((ny, nx), bool)
        for _, axis, sign in near:
            d = sign * ((xs[None, :] if axis == 0 else ys[:, None]) - grid.start[axis])
            toward |= np.broadcast_to(d > r / 2 + 1e-6, (ny, nx))   # the whole cell: any click in it
        return dataclasses.replace(grid, end_ok=grid.end_ok & toward[None, :, :])

    def _rules_motion_settings(self, mid, step: float) -> dict:
        """The motion settings the rules' own route check runs with (the geometry's), the
        step no higher than the game's ``step`` nor than the engine steps there: with
        ``step_height: hitbox`` that is the height of the hitbox in the pose the rules
        judge the route in (``judged_pose``: a Legends of Norova crawl, standing)."""
        from engine import motion
        st = dict(getattr(self.geometry, "motion_settings", None) or {})
        engine_step = motion.step_height_of(self.world, mid, st)
        return {**st, "step_height": min(step, float(engine_step))}

    def show_reach(self, mid, mode):
        self.reach_shown = None
        try:
            grid = self.reach_grid(mid, mode)
        except Exception as exc:
            self.message += f"\n(reachable area unavailable: {exc})"
            return
        if grid is None:
            return
        from engine.view.pictures import reach_arrays
        pts, cost, allowance = reach_arrays(grid)
        ov.reach_overlay(pts, cost, allowance, float(grid.resolution)).reparentTo(self.play_live)
        self.reach_shown = (mid, mode, (self.move_crouch_start, self.move_land), grid)

    def route_in_reach(self) -> bool:
        """A first click in the shaded reachable area whose straight line the rules
        refuse (a wall, a drop in the way): the area is what the engine's route-finding
        reaches, so the click takes that route (``ReachGrid.shortest_path``) when the
        rules take it. True when the waypoints became that route."""
        shown = getattr(self, "reach_shown", None)
        mid = self.active_model()
        if (shown is None or shown[:3] != (mid, self.move_mode, (self.move_crouch_start, self.move_land))
                or self.game.why_illegal(self.candidate_move()) is None):
            return False
        click = self.waypoints[-1]
        try:
            grid = shown[3]
            if not grid.contains(*click):
                # a base by a wall rests on its top: the one level the area has here
                cell = grid._cell(click[0], click[1])
                if cell is None or int(np.count_nonzero(grid.end_ok[:, cell[0], cell[1]] & (
                        grid.cost[:, cell[0], cell[1]] <= grid.allowance + 1e-9))) != 1:
                    return False
                click = click[:2]
            route = [tuple(float(v) for v in q) for q in grid.shortest_path(click)[1:]]
        except Exception:                     # noqa: BLE001 -- a grid without routes: the straight line
            return False
        if len(route) < 2:
            return False
        straight = self.waypoints
        self.waypoints = route
        if self.game.why_illegal(self.candidate_move()) is None:
            return True
        self.waypoints = straight
        return False

    def _crouch_states(self, mid) -> frozenset | None:
        """The states the move is judged with when it changes Crouched at its start
        (a Crouched model standing up to Run); None when it changes nothing."""
        cs = self.move_crouch_start if self.state == "move" else None
        land = self.move_land == "start" and self.state == "move"
        if (cs is None and not land) or mid not in self.world.models:
            return None
        states = frozenset(self.world.hitbox(mid).states) - ({"Flying"} if land else set())
        return states if cs is None else (states | {"Crouched"}) if cs else (states - {"Crouched"})

    @contextlib.contextmanager
    def _as_declared(self, mid):
        """The engine's path checks (the reachable area, the path preview, who sees
        the route) for a model standing up (or crouching) at the start of its step:
        its hitbox carries those states meanwhile (its height too), as the rules
        apply the change before the move; put back afterwards."""
        states = self._crouch_states(mid)
        if states is None:
            yield
            return
        landed = getattr(self.game, "landed_for_geometry", None)
        saved = self.world.hitbox(mid).states
        self.world.set_states(mid, states)
        try:
            # a model landing at the start of its step moves from where it lands
            with (landed(mid, True) if callable(landed) and self.move_land == "start"
                  and self.state == "move" else contextlib.nullcontext()):
                yield
        finally:
            self.world.set_states(mid, saved)

    def _speed(self, mid):
        states = self._crouch_states(mid)
        with_states = getattr(self.game, "_speed_with", None)
        if states is not None and callable(with_states):
            try:
                return float(with_states(mid, states))      # Crouched may change SPD (a mount)
            except Exception:
                pass
        spd = getattr(self.game, "speed", None)
        if callable(spd):
            try:
                return float(spd(mid))
            except Exception:
                pass
        stat = getattr(self.game, "stat", None)
        if callable(stat):
            try:
                return float(stat(mid, "SPD"))
            except Exception:
                return None
        return None

    def candidate_move(self):
        """The Move action for the clicked waypoints, built from a legal Move of
        this mode (so it is the game's own action type)."""
        import dataclasses
        mid = self.active_model()
        if self.move_mode == "dodge":
            sample = next((a for a in self.legal() if action_kind(a) == "DodgeMove"), None)
            if sample is not None:
                return dataclasses.replace(sample, path=tuple(self.waypoints), crouch=None)
        cs = self.move_crouch_start
        sample = next((a for a in self.legal() if action_kind(a) == "Move" and action_actor(a) == mid
                       and getattr(a, "mode", None) == self.move_mode
                       and getattr(a, "crouch_start", None) == cs
                       and getattr(a, "land", None) == self.move_land), None)
        if sample is None:
            sample = next((a for a in self.legal() if action_kind(a) == "Move" and action_actor(a) == mid
                           and getattr(a, "mode", None) == self.move_mode), None)
        if sample is None:
            sample = next((a for a in self.legal() if action_kind(a) == "Move" and action_actor(a) == mid), None)
        if sample is None:
            from rules.eldfall.actions import Move
            return Move(mid, self.move_mode, tuple(self.waypoints), crouch_start=cs)
        extra = {"facing": self.move_facing} if hasattr(sample, "facing") else {}
        if hasattr(sample, "crouch_start"):
            extra["crouch_start"] = cs          # standing up first, or no Crouched change
        if hasattr(sample, "land"):
            extra["land"] = self.move_land      # a Flying model landing, or not
        return dataclasses.replace(sample, mode=self.move_mode, **{path_field(sample): tuple(self.waypoints)}, **extra)

    def rules_opportunities(self, action) -> list[tuple[str, tuple]] | None:
        """Legends of Norova: the Attacks of Opportunity its rules give along the move
        ``action`` (enemy, point), in the order the mover reaches them, as
        ``game.apply`` will find them; None for a game whose Attacks of Opportunity are
        the engine's path check's (Eldfall)."""
        game = self.game
        triggers = getattr(game, "_aoo_triggers", None)
        if triggers is None or not type(game).__module__.startswith("rules.norova"):
            return None
        try:
            f = game.fighters[action.actor]
            if getattr(f, "hidden", False) and action.mode == "crawl":
                return []                    # a hidden crawler: no enemy sees it to strike
            mv, _ = game.move_check(action)
            route = [tuple(game.pos(f.id))] + [tuple(p) for p in action.route[:-1]] + [tuple(mv.end)]
            return [(t[1], tuple(float(v) for v in t[2])) for t in triggers(f, route, action.mode)]
        except Exception:
            return None

    def update_path_preview(self):
        for c in self.play_live.getChildren():
            if c.getName() == "path-overlay":
                c.removeNode()
        if not self.waypoints:
            self.preview = None                # no path: nothing to confirm, the move's prompt again
            self.message = self.move_prompt()
            self.refresh()
            return None
        mid = self.active_model()
        action = self.candidate_move()
        reason = self.game.why_illegal(action)
        pts, opp, aw, end, label = None, [], [], None, None
        try:
            from engine import motion
            mode = "walk" if self.move_mode == "dodge" else self.move_mode
            allowance = self.allowance(mid, self.move_mode)
            flying = False
            if allowance is not None:        # the game's allowance; the engine judges the route
                mode, flying = ("climb" if mode == "climb" else "walk"), mode == "fly"
                speed = 4.0 * allowance + 1.0
            else:
                speed = self._speed(mid)
                if self.move_mode == "dodge" and speed:
                    speed = math.ceil(speed / 2.0)
            with self._as_declared(mid):
                res = motion.check_path(self.world, mid, self.waypoints, mode, speed=speed, flying=flying)
            pts = res.path
            opp = [p.at for p in res.opportunity_points]
            aw = [p.at for p in res.awareness_points]
            end = res.end
            label = f"{res.distance:.2f}\" / {res.allowance if allowance is None else allowance:.2f}\""
            if res.opportunity_points:
                label += "\nopportunity: " + ", ".join(p.enemy for p in res.opportunity_points)
        except Exception:
            hb = self.world.hitbox(mid)
            pts = [(hb.x, hb.y, hb.z)] + list(self.waypoints)
        rules_opp = self.rules_opportunities(action) if reason is None else None
        if rules_opp is not None:
            # the game's own Attacks of Opportunity (Legends of Norova: entering an
            # enemy's range in its front arc, moving away after a fight), not Eldfall's
            opp = [p for _, p in rules_opp]
            if label:
                label = label.split("\nopportunity: ")[0]
                if rules_opp:
                    label += "\nopportunity: " + ", ".join(e for e, _ in rules_opp)
        self.preview = (action, reason)
        with self._as_declared(mid):
            self.path_watchers = self.watchers(mid, pts)
        seen_by = [w.observer for w in self.path_watchers if w.had_los]
        if seen_by and label:
            label += "\nseen by: " + ", ".join(seen_by)
        for c in self.play_live.getChildren():
            if c.getName() == "watchers-overlay":
                c.removeNode()
        ov.watcher_overlay(self.world, mid, self.path_watchers).reparentTo(self.play_live)
        facing = getattr(action, "facing", None)
        if facing is not None and label:
            label += f"\nfacing {facing:.0f} deg"
        ov.path_overlay(pts, reason is None, opportunity=opp, awareness=aw, end=end, label=label,
                        facing=facing).reparentTo(self.play_live)
        self.message = f"{self.action_words(action)}\n" + (
            "legal: Enter to confirm" if reason is None else f"not legal: {reason}")
        self.refresh()
        return reason

    def watchers(self, mid, pts) -> list:
        """The enemies that gain LoS to the mover along ``pts`` (engine.sight)."""
        if pts is None or len(pts) < 2:
            return []
        try:
            from engine import sight
            opts = self.los_options()
            return sight.watchers(self.world, mid, pts, settings=opts["settings"],
                                  all_round=bool(opts.get("moving")))
        except Exception:
            return []

    def drop_waypoint(self):
        if self.state == "move" and self.waypoints:
            if len(self.waypoints) <= getattr(self, "routed_len", 0):
                self.waypoints = []          # one click took the shaded area's route: it goes whole
            else:
                self.waypoints.pop()
            self.routed_len = min(getattr(self, "routed_len", 0), len(self.waypoints))
            self.update_path_preview()
        elif self.state == "target" and self.split:
            self.split.pop()
            self.message = self.split_message()
            self.refresh()
        return "backspace"

    def confirm(self):
        if self.state == "move" and self.waypoints:
            return self.apply(self.candidate_move())
        if self.state == "target" and self.push_mode:
            return self.push_click(None)
        if self.state == "target" and self.split:
            return self.apply(self.split_action())
        if self.state == "target" and self.split is None and self.knockback is not None and self.push_target:
            return self.apply(self.with_push(self.best_on(self.push_target)))
        return None

    def face_pointer(self):
        """F while a path is clicked: the move ends facing the point under the
        pointer (seen from the path's end); F again with no point: the rules' facing.
        F while a hit model may turn (turn-on-hit): it turns to face the point under
        the pointer (a model's centre when the pointer is on a model)."""
        if self.state == "idle" and self.pending_kind() == "turn-on-hit":
            return self.turn_to_pointer()
        if self.state != "move":
            return None
        sample = self.candidate_move()
        if not hasattr(sample, "facing"):
            self.message = "this game's moves take no facing"
            self.refresh()
            return None
        hit = self.pick_now()
        if hit is None or hit.point is None:
            self.move_facing = None
        else:
            hb = self.world.hitbox(self.active_model())
            o = self.waypoints[-1] if self.waypoints else (hb.x, hb.y, hb.z)
            dx, dy = float(hit.point[0]) - float(o[0]), float(hit.point[1]) - float(o[1])
            self.move_facing = None if math.hypot(dx, dy) < 1e-6 else round(math.degrees(math.atan2(dy, dx)) % 360.0, 2)
        self.update_path_preview()
        return ("facing", self.move_facing)

    def turn_to_pointer(self):
        """Turning when Hit: the hit model turns to face the point under the pointer."""
        import dataclasses
        mid = self.pending_who()
        sample = next((a for a in self.legal() if action_kind(a) == "Turn" and action_actor(a) == mid), None)
        if sample is None or mid not in self.world.models:
            return None
        hit = self.pick_now()
        facing = None
        if hit is not None and hit.kind == "model" and hit.id != mid and callable(
                getattr(self.game, "face_toward", None)):
            facing = self.game.face_toward(mid, hit.id)       # a model: its centre, as the rules face it
        elif hit is not None and hit.point is not None:
            hb = self.world.hitbox(mid)
            dx, dy = float(hit.point[0]) - float(hb.x), float(hit.point[1]) - float(hb.y)
            if math.hypot(dx, dy) > 1e-6:
                facing = round(math.degrees(math.atan2(dy, dx)) % 360.0, 2)
        if facing is None:
            self.message = f"F: point at the table (or a model) for {mid} to face"
            self.refresh()
            return None
        return self.apply(dataclasses.replace(sample, facing=facing))

    def turn_menu(self, legal) -> list:
        """Turning when Hit, readable: face each attacker that hit the model, keep
        the facing, a few compass facings (as many as one page holds), face the
        pointer (F), and the Pass (which keeps the facing too)."""
        mid = self.pending_who()
        turns = [a for a in legal if action_kind(a) == "Turn" and action_actor(a) == mid]
        act = getattr(self.game, "act", None)
        attackers = [a for a in dict.fromkeys((getattr(act, "hit_by", None) or {}).get(mid, ())) if a != mid]
        toward = getattr(self.game, "face_toward", None)
        models = getattr(self.game, "models", {}) or {}

        def aim(att):
            if not callable(toward) or (att in models and not getattr(models[att], "on_table", True)):
                return None
            try:
                return toward(mid, att)
            except Exception:                 # noqa: BLE001 -- an attacker gone from the table
                return None

        def same(f, g):
            return f is not None and g is not None and abs((float(f) - float(g) + 180.0) % 360.0 - 180.0) < 1e-4

        aims = {att: aim(att) for att in attackers}
        now = None
        if mid in self.world.models:
            now = float(self.world.hitbox(mid).facing) % 360.0
        faced, keep, other = [], [], []
        for a in turns:
            if a.facing is None:
                already = [att for att, f in aims.items() if same(f, now)]
                keep.append(("Turn: keep facing" + (f" (faces {', '.join(already)} already)" if already else ""), a))
                continue
            att = next((att for att, f in aims.items() if same(f, a.facing)), None)
            if att is not None:
                faced.append((f"Turn: face {att}", a))
            else:
                other.append(a)
        passes = [("Pass: keep the facing (P)", a) for a in legal if action_kind(a) == "Pass"][:1]
        pointer = [("Turn: face the pointer (F)", self.turn_to_pointer)] if turns else []
        room = max(0, 10 - len(faced) - len(keep) - len(pointer) - len(passes))
        # of the compass facings the rules list, the four toward the table edges (0, 90, 180,
        # 270 degrees, counter-clockwise from +x): any other facing is one F away
        edges = [a for a in other if abs(a.facing - 90.0 * round(a.facing / 90.0)) < 1e-6] or other
        compass = [(f"Turn: face {a.facing:.0f}\u00b0 ({EDGE_WORDS.get(round(a.facing) % 360, 'compass')})", a)
                   for a in sorted(edges, key=lambda a: a.facing)[:min(room, 4)]]
        return faced + keep + compass + pointer + passes

    # ------------------------------------------------------------ actions
    def start_target(self, key, split: bool = False):
        self._clear_play()
        self._reset_step()
        self.state, self.target_key = "target", key
        cands = [a for a in self.legal() if self._key(a) == key]
        targets = sorted({t for a in cands for t in action_targets(a)})
        for t in targets:
            if t in self.table.tokens.looks:
                self.table.tokens.highlight(t, TARGETABLE)
            else:
                self.table.highlight(t, TARGETABLE)
        if split:
            self.split = []
            self.message = self.split_message()
        else:
            n = self.max_strikes(key)
            self.message = f"{key[0]}: click a target ({', '.join(targets)})" + (
                f": all {n} Strikes on it" if n > 1 else "") + self.push_hint() + "; Esc cancels"
            if key in self.ground_keys():
                # a Targetless template: a click on the ground aims it there (the pointer previews it)
                self.ground_aim = True
                what = f"click a target ({', '.join(targets)}) or a point of the ground" if targets else \
                    "click a point of the ground"
                self.message = (f"{key[0]}: {what} (Targetless: its template Hits every model under "
                                f"it, allies too){self.push_hint()}; Esc cancels")
        self.place_kind = None if (split or self.ground_aim) else self.place_template_kind(cands)
        if self.place_kind:
            self.message += ("\n(or click the ground first: its template is laid there, the target "
                             "wholly under it)")
        self.aim_points = list(dict.fromkeys(tuple(a.point) for a in cands if getattr(a, "point", None) is not None))
        if self.aim_points:
            mover = self.pending_mover() or "the mover"
            ov.aim_points_overlay(self.aim_points).reparentTo(self.play_live)
            self.message = (f"{key[0]}: click {mover} (aimed where the rules aim: where it stands, or the "
                            f"last point it was seen) or a marked point of its path to aim there"
                            f"{self.push_hint()}; Esc cancels")
        self.show_stratagem_range(key)
        self.refresh()
        return "target"

    # ------------------------------------------------------------ Knockback direction
    def target_sample(self):
        """A legal declaration of the action the target step is for (None: none)."""
        if self.target_key is None:
            return None
        return next((a for a in self.legal() if self._key(a) == self.target_key), None)

    def knockback_value(self, decl) -> float | None:
        """The X of the Knockback (X) of the weapon or spell an Attack declaration
        uses, read as the rules read it (``<rules>.resolution.attack_profile``, its
        traits through ``<rules>.combat.trait_value``); None when it has no
        Knockback, or the game's declarations name no direction (no ``knockback``)."""
        import importlib
        if decl is None or not hasattr(decl, "knockback"):
            return None
        pkg = type(self.game).__module__.rsplit(".", 1)[0]
        try:
            prof = importlib.import_module(pkg + ".resolution").attack_profile(self.game, decl)
            if not prof:
                return None
            value = importlib.import_module(pkg + ".combat").trait_value(list(prof.get("traits", [])), "Knockback")
        except Exception:                     # noqa: BLE001 -- a game without these rules
            return None
        return float(value) if value else None

    def push_hint(self) -> str:
        """The target step's word on K (an Attack with Knockback), or nothing."""
        if self.knockback is not None:
            return f"; Knockback toward {self.knockback:g}\u00b0 (K or Esc: directly away)"
        return "; K chooses the Knockback direction" if self.knockback_value(self.target_sample()) else ""

    def push_words(self) -> str:
        """The split message's line on the Knockback direction."""
        return "\n" + self.push_hint()[2:] if self.push_hint() else ""

    def push_candidates(self) -> list[str]:
        """The models the target step's action may be declared at."""
        return sorted({t for a in self.legal() if self._key(a) == self.target_key
                       for t in action_targets(a) if t in self.world.models})

    def push_decl(self):
        """The declaration a Knockback direction is judged with: the Strikes clicked so
        far (split), else every Strike on the model the arrow aims."""
        if self.split:
            return self.split_action()
        return self.best_on(self.push_target) if self.push_target else None

    def push_key(self):
        """K in an Attack's target step (its weapon or spell has Knockback): the
        direction of the push follows the pointer (an arrow from the target); a
        click or Enter sets it; K again (or Esc) clears it: directly away."""
        if self.state != "target" or self.target_key is None:
            self.message = "K: the Knockback direction is chosen in an Attack's target step (its menu entry first)"
            self.refresh()
            return None
        name = self.target_key[0]
        if not self.knockback_value(self.target_sample()):
            what = self.target_key[1] or self.target_key[2] or name
            self.message = f"K: {what} has no Knockback: there is no push to aim"
            self.refresh()
            return None
        if self.push_mode or self.knockback is not None:
            return self.clear_push("K")
        self.push_mode = True
        cands = self.push_candidates()
        target = self.push_target or (self.split[-1] if self.split else None)
        hit = self.pick_now()
        if target is None and hit is not None and hit.kind == "model" and hit.id in cands:
            target = hit.id
        if target is None and len(cands) == 1:
            target = cands[0]
        self.push_target = target
        self._last_pointer = None              # the arrow follows the pointer from the next frame
        if target is None:
            self.message = (f"{name}: Knockback direction: click the target to push ({', '.join(cands)}); "
                            "K or Esc: directly away")
            self.refresh()
            return "push"
        self.message = (f"{name}: Knockback direction for {target}: point where it goes, click or Enter "
                        "sets it; K or Esc: directly away")
        if hit is not None and hit.point is not None:
            self.show_push(hit.point)
        else:
            self.refresh()
        return "push"

    def push_click(self, hit):
        """A click (``hit``) or Enter (None: the point under the pointer) while the
        Knockback arrow follows the pointer: the target it aims, then its direction."""
        name = self.target_key[0]
        if self.push_target is None:
            cands = self.push_candidates()
            if hit is not None and hit.kind == "model" and hit.id in cands:
                self.push_target = hit.id
                self.message = (f"{name}: Knockback direction for {hit.id}: point where it goes, click or "
                                "Enter sets it; K or Esc: directly away")
                self.refresh()
                return ("push-target", hit.id)
            self.message = f"{name}: click the target to push ({', '.join(cands)}); K or Esc: directly away"
            self.refresh()
            return None
        if hit is None:
            hit = self.pick_now()
        if hit is None or hit.point is None:
            self.message = f"{name}: point at the table where {self.push_target} goes; K or Esc: directly away"
            self.refresh()
            return None
        aim = self.show_push(hit.point)
        if aim is None or aim[1]:
            return None                         # the message says why
        self.knockback, self.push_mode = aim[0], False
        if self.split is not None:
            self.message = self.split_message()
        else:
            self.message = (f"{name}: Knockback toward {self.knockback:g}\u00b0 for {self.push_target}\n"
                            f"click {self.push_target} (or Enter) to declare; K or Esc: directly away")
        self.refresh()
        return ("knockback", self.knockback)

    def clear_push(self, how: str = "K"):
        """No Knockback direction: the push goes directly away from the attacker."""
        self.push_mode, self.knockback, self.push_aim = False, None, None
        self.push_target = None
        self._clear_push_overlay()
        name = self.target_key[0]
        self.message = self.split_message() if self.split is not None else (
            f"{name}: Knockback directly away ({how}); click a target{self.push_hint()}; Esc cancels")
        self.refresh()
        return "directly away"

    def _clear_push_overlay(self) -> None:
        for c in self.play_live.getChildren():
            if c.getName() == "push-overlay":
                c.removeNode()

    def push_preview(self, target: str, deg: float, dist: float):
        """Where a Knockback of ``dist``" toward ``deg`` would leave ``target`` if it hits,
        and the height it would fall: the geometry's push as the rules make it
        (``check_move(target, "push", ...)``, halved until it is legal); None when
        it cannot be said."""
        geo = getattr(self.game, "geo", None) or self.geometry
        try:
            vx, vy, vz = geo.position(target)
            foes = {e.id: -1.0 for e in self.game.enemies(target)}
            spd = float(self.game.speed(target))
            dx, dy = math.cos(math.radians(deg)), math.sin(math.radians(deg))
            d = float(dist)
            while d >= 0.05:
                mv = geo.check_move(target, "push", [(vx + dx * d, vy + dy * d, vz)], spd, enemies=foes)
                if mv.legal:
                    falls = sum(float(f.height) for f in (getattr(mv, "falls", ()) or ()))
                    return tuple(float(v) for v in mv.end), falls
                d /= 2
        except Exception:                     # noqa: BLE001 -- a preview only
            return None
        return (float(vx), float(vy), float(vz)), 0.0

    def show_push(self, point):
        """The Knockback arrow from the target toward ``point``: its bearing (whole
        degrees CCW from +x), green when the rules take it, red with their reason
        when not; where the push would leave the target and how far it would fall.
        Returns (degrees, reason or None), or None with no direction (the point on
        the target)."""
        import dataclasses
        target, name = self.push_target, self.target_key[0]
        self._clear_push_overlay()
        if target is None or target not in self.world.models:
            return None
        hb = self.world.hitbox(target)
        dx, dy = float(point[0]) - float(hb.x), float(point[1]) - float(hb.y)
        if math.hypot(dx, dy) < 0.05:
            self.push_aim = None
            self.message = f"{name}: point away from {target} for the direction of its push; K or Esc: directly away"
            self.refresh()
            return None
        deg = float(round(math.degrees(math.atan2(dy, dx)))) % 360.0
        decl = self.push_decl()
        try:
            reason = ("no declaration of it is legal now" if decl is None
                      else self.game.why_illegal(dataclasses.replace(decl, knockback=deg)))
        except Exception as exc:             # noqa: BLE001 -- a probe the rules cannot read
            reason = str(exc)
        reason = " ".join(str(reason).split()) if reason else None
        kb = self.knockback_value(decl)
        prev = self.push_preview(target, deg, kb) if reason is None and kb else None
        end, fall = prev if prev else (None, 0.0)
        fall_words = f"falls {fall:g}\"" if fall > 1e-6 else ""
        reach = max(math.hypot(dx, dy), float(hb.radius) + (kb or 1.0) + 0.5)
        rad = math.radians(deg)
        tip = (hb.x + reach * math.cos(rad), hb.y + reach * math.sin(rad), hb.z)
        label = f"{deg:g}\u00b0" + (f", {fall_words}" if fall_words else "")
        ov.push_overlay((hb.x, hb.y, hb.z), tip, reason is None, end=end, label=label,
                        radius=float(hb.radius)).reparentTo(self.play_live)
        self.push_aim = (deg, reason)
        words = f"Knockback toward {deg:g}\u00b0"
        if reason:
            self.message = f"{name}: {words} is not allowed: {reason}\nK or Esc: directly away"
        else:
            where = ""
            if end is not None:
                where = (f" (if hit, it ends at ({end[0]:.1f}, {end[1]:.1f})"
                         + (f", {fall_words}" if fall_words else "") + ")")
            self.message = (f"{name}: {words} for {target}{where}\n"
                            "click or Enter sets it; K or Esc: directly away")
        self.refresh()
        return self.push_aim

    # ------------------------------------------------------------ where a template lies
    def place_template_kind(self, cands) -> str | None:
        """The template kind of the target step's Attack when the attacker may choose
        where its template lies (Eldfall: ``Declare.place``, an Active Role Attack on one
        named model with a template; a Targetless one is aimed at the ground instead),
        else None."""
        import dataclasses
        from rules.eldfall.sequence import EldfallGame
        if self.pending_kind() != "action" or not isinstance(self.game, EldfallGame):
            return None
        d = next((a for a in cands if dataclasses.is_dataclass(a)
                  and "place" in {f.name for f in dataclasses.fields(a)}), None)
        if d is None:
            return None
        from rules.eldfall import resolution as er
        from rules.eldfall import spells as sp
        prof = er.attack_profile(self.game, d)
        if not prof or not prof.get("template") or er.is_targetless(prof):
            return None
        return sp.template_kind(prof["template"])

    def place_click(self, point):
        """A click on the ground in the target step of a template Attack on a model: its
        template is laid there (a circle's centre, a spray's aim point) for the target
        clicked next, and stays drawn; the rules judge it with the target (wholly under
        it: eldfall-actions.txt, AoE rules)."""
        self.place = clicked_point(point)
        self._clear_template()
        self.show_template(self.place_kind, self.place, self.active_model())
        self.message = (f"{self.target_key[0]}: its template laid at {point_words(self.place)}: click its "
                        "main target (wholly under it), another point of the ground, or Esc")
        self.refresh()
        return ("place", self.place)

    # ------------------------------------------------------------ a Transmutation's token
    def start_token_place(self, key):
        """The target step of a Transmutation (Eldfall: an Assist that names no model, its
        token at ``Declare.place``): the next click on the ground lays it there."""
        self._clear_play()
        self._reset_step()
        self.state, self.target_key, self.token_place = "target", key, True
        self.message = (f"{key[0]} [{key[2]}]: click the ground where its token lies (no range: "
                        "in Base Contact, toward the click); Esc cancels")
        self.refresh()
        return "target"

    def token_place_click(self, hit):
        """A click in a Transmutation's target step: on the ground, the token is laid
        where the rules put a click (``spells.place_for_click``: a spell with no range in
        Base Contact with the caster toward it); the rules judge the spot."""
        import dataclasses
        from rules.eldfall import spells as sp
        sample = next((a for a in self.legal() if self._key(a) == self.target_key), None)
        if sample is None or hit is None or hit.point is None or hit.kind == "model":
            self.message = f"{self.target_key[0]}: click the ground where its token lies (Esc cancels)"
            self.refresh()
            return None
        spell = self.game.spell(sample.model, sample.spell)
        place = sp.place_for_click(self.game, sample.model, spell, hit.point)
        return self.apply(dataclasses.replace(sample, place=place), refused=lambda reason: (
            f"{sample.spell}: its token at {point_words(place)}: {reason} "
            "(click another point of the ground, or Esc)"))

    # ------------------------------------------------------------ an Attack at the ground
    def ground_keys(self) -> dict:
        """The target-step keys (action, weapon, spell) of the acting model's Attacks that
        may be aimed at a point of the ground instead of a model (Eldfall: a Targetless
        weapon or spell with a template, in its Action Step; docs/rulings.md
        "Targetless"), each with the declarations the rules' few candidate points make
        (``rules.eldfall.legal.ground_declarations``). Cached until the next apply."""
        if self._ground is None:
            self._ground = {}
            mid = self.pending_who()
            if self.pending_kind() == "action" and mid in (getattr(self.game, "models", None) or {}):
                from rules.eldfall import legal as el
                from rules.eldfall.sequence import EldfallGame
                if isinstance(self.game, EldfallGame):
                    for d in el.ground_declarations(self.game, mid):
                        self._ground.setdefault(self._key(d), []).append(d)
        return self._ground

    def ground_legal(self, key) -> bool:
        """Whether the rules take ``key`` aimed at one of its candidate points (the
        surface under an enemy, or between two): cached with ``ground_keys``."""
        cands = self.ground_keys().get(key)
        if not cands:
            return False
        done = getattr(self, "_ground_ok", None)
        if done is None or done[0] is not self._ground:
            done = self._ground_ok = (self._ground, {})
        if key not in done[1]:
            done[1][key] = any(self.game.why_illegal(d) is None for d in cands)
        return done[1][key]

    def ground_decl(self, point):
        """The target step's Attack aimed at ``point`` of the ground, or None when the
        step's Attack is not one that may be."""
        import dataclasses
        cands = self.ground_keys().get(self.target_key) if self.ground_aim else None
        if not cands:
            return None
        return dataclasses.replace(cands[0], point=clicked_point(point))

    def ground_click(self, point):
        """A click on the ground in the target step of a Targetless template: the
        Attack aimed there, or the rules' reason why not."""
        d = self.ground_decl(point)
        if d is None:
            return None
        return self.apply(d, refused=lambda reason: (
            f"{self.target_key[0]} at the ground at {point_words(d.point)}: {reason} "
            "(click another point or a target; Esc cancels)"))

    def show_ground(self, point):
        """The template of the target step's Attack aimed at ``point`` of the ground, laid
        as the rules lay it (``resolution.ground_template``: a circle on the surface at or
        below the point, a spray toward it, down when the point is below the user), the
        models under it banded, and the verdict panel naming who it would Hit (allies too),
        or why the rules refuse the point."""
        from engine import templates as tp
        from rules.eldfall import spells as sp
        from rules.eldfall.resolution import attack_profile
        self._clear_template()
        d = self.ground_decl(point)
        if d is None:
            return None
        mid = d.model
        prof = attack_profile(self.game, d) or {}
        kind = sp.template_kind(prof.get("template") or "")
        where = f"{d.action} ({d.weapon or d.spell}) at the ground at {point_words(d.point)}"
        try:
            if kind.startswith("spray"):
                band = "down" if d.point[2] < float(self.game.geo.position(mid)[2]) - 1e-6 else "up"
                res = tp.template(self.world, kind, user=mid, aim=tuple(d.point), band=band)
            else:
                res = tp.template(self.world, kind, user=mid, at=tuple(d.point))
        except Exception as exc:                 # a point where no template lies: say why
            self.hud.verdict.set(f"{where}: {exc}", ov.RED)
            return None
        reason = self.game.why_illegal(d)
        self.template_result, self._ground_shown = res, True
        ov.template_overlay(res, legal=reason is None).reparentTo(self.live)
        for h in res.affected:
            self.table.mark(h.id, ov.coverage_colour(h))
        if reason:
            self.hud.verdict.set(f"{where}: {reason}", ov.RED)
            return res
        side = self.world.hitbox(mid).side
        hit = [h.id for h in res.affected if h.id != mid and h.los_from_origin and getattr(h, "in_band", True)]
        foes = [h for h in hit if self.world.hitbox(h).side != side]
        own = [h for h in hit if self.world.hitbox(h).side == side]
        self.hud.verdict.set(f"{where}: would Hit " + (", ".join(foes) or "no enemy")
                             + (f"; and allies: {', '.join(own)}" if own else "")
                             + "\none roll; each model under it may Dodge; click to declare",
                             ov.GREEN if foes and not own else ov.AMBER)
        return res

    def pending_mover(self) -> str | None:
        """The activated model a reaction is aimed at."""
        act = getattr(self.game, "act", None)
        return getattr(act, "model", None)

    def aim_at(self, point, slack: float = 0.75):
        """The reactive declaration aimed at the marked point nearest a clicked
        table point (within ``slack`` inches on the table), or None."""
        p = np.asarray(point, float)
        best = min(self.aim_points, key=lambda q: float(np.linalg.norm(np.asarray(q, float)[:2] - p[:2])), default=None)
        if best is None or float(np.linalg.norm(np.asarray(best, float)[:2] - p[:2])) > slack:
            return None
        return self.with_push(next((a for a in self.legal() if self._key(a) == self.target_key
                                    and getattr(a, "point", None) is not None and tuple(a.point) == best), None))

    def stratagem_of(self, key) -> dict | None:
        """The Stratagem (plain data) a target step is for, or None."""
        side = self.stratagem_side()
        if not side or not key or not str(key[0]).startswith("Stratagem "):
            return None
        name = key[0][len("Stratagem "):]
        return next((s for s in (getattr(self.game, "stratagems", {}) or {}).get(side, ())
                     if s["name"] == name), None)

    def show_stratagem_range(self, key) -> None:
        """A Stratagem with a range: its ring around the Leader while a target is chosen."""
        s = self.stratagem_of(key)
        leader = self.stratagem_leader(self.stratagem_side()) if s else None
        if s is None or s.get("range") is None or leader not in self.world.models:
            return
        ov.range_ring_overlay(self.world.hitbox(leader), float(s["range"]),
                              f'{s["name"]}: {float(s["range"]):g}" from {leader}').reparentTo(self.play_live)

    def pair(self):
        """No live LoS verdict while a Stratagem's target is chosen: the
        verdict panel says whether the model under the pointer may be named
        (nor while a Knockback's arrow follows the pointer)."""
        if self.state == "target" and (self.push_mode or self.stratagem_of(self.target_key) is not None):
            return None
        return super().pair()

    def hover(self):
        mid = super().hover()
        if self.state == "target" and self.place is not None and \
                not any(c.getName() == "template-overlay" for c in self.live.getChildren()):
            self.show_template(self.place_kind, self.place, self.active_model())   # the LoS overlay cleared it
        if self.state == "target" and self.ground_aim:
            if mid is None and self.hover_point is not None:
                self.show_ground(self.hover_point)      # after the LoS verdict's overlays went
            return mid
        if self.state == "target" and self.stratagem_of(self.target_key) is not None:
            name = self.target_key[0]
            self._stratagem_verdict = True
            if mid is None:
                self.hud.verdict.set("")
            elif any(self._key(a) == self.target_key and mid in action_targets(a) for a in self.legal()):
                self.hud.verdict.set(f"{name} on {mid}: legal, click to use", ov.GREEN)
            else:
                self.hud.verdict.set(f"{name} on {mid}: {self.target_reason(mid) or 'not a legal target'}", ov.RED)
            return mid
        self.target_hint(mid)
        return mid

    def target_hint(self, mid: str | None) -> None:
        """In an action's target step, a last line under the verdict for the model under
        the pointer: whether a click on it declares the action, else the rules' reason
        (as the Stratagems' target step says it), before the click. Out of a target step
        the line goes."""
        old = getattr(self, "_hint_line", "")
        text = self.hud.verdict.text
        if old and text == old:
            text = ""
        elif old and text.endswith("\n" + old):
            text = text[:-len(old) - 1]
        line, legal = "", True
        if self.state == "target" and self.target_key is not None and not self.push_mode and mid is not None:
            name = self.target_key[0]
            legal = any(self._key(a) == self.target_key and mid in action_targets(a) for a in self.legal())
            if legal:
                line = f"{name} on {mid}: a legal target, click to declare" if self.split is None else \
                    f"{name} on {mid}: a legal target, click for a Strike on it"
            else:
                key = (mid, self.target_key, len(self.game.events))
                if getattr(self, "_hint_reason", (None,))[0] != key:
                    self._hint_reason = (key, self.target_reason(mid))
                reason = self._hint_reason[1]
                line = f"{name} on {mid}: not a legal target" + (f": {reason}" if reason else "")
        self._hint_line = line
        new = text + ("\n" if text and line else "") + line
        if new != self.hud.verdict.text:
            self.hud.verdict.set(new, None if text else (ov.GREEN if legal else ov.RED))

    def on_hover(self, hit) -> None:
        if self.state == "target" and self.push_mode:
            if hit is not None and hit.point is not None and self.push_target:
                self.show_push(hit.point)
            return None
        if self.state != "target" or hit is None or hit.point is None:
            return super().on_hover(hit)
        if self.place is not None:
            return None                      # the laid template stays where it was clicked
        if self.ground_aim:
            if hit.kind == "model":
                self._clear_template()       # a model under the pointer: a click names it
            return None                      # the ground: ``hover`` previews it
        spell = self.target_key[2] if self.target_key else None
        template = self._template_of(spell)
        if not template:
            return
        self.show_template(template, hit.point, self.active_model())

    def _template_of(self, spell) -> str | None:
        if not spell:
            return None
        mid = self.active_model()
        models = getattr(self.game, "models", {})
        unit = getattr(models.get(mid), "unit", None) if mid in models else None
        for s in getattr(unit, "spells", ()) or ():
            if s.get("name") == spell and s.get("template"):
                return s["template"].replace("circular", "circle")
        return None

    def pass_reactions(self):
        passes = [a for a in self.legal() if action_kind(a) == "Pass"]
        if passes:
            return self.apply(passes[0])
        # P passes a Reaction, a Crouched window, a Turn when Hit, the Stratagems: say so,
        # and how the turn ends when that is what the player looked for (no silent key)
        end = next((label for label, what in self.menu if action_kind(what) == "EndTurn"), None)
        self.message = "P: nothing to pass now" + (f" (the turn ends with the menu's \"{end}\")" if end else "")
        self.refresh()
        return None

    # ------------------------------------------------------------ undo / save
    def undo(self):
        """Ctrl+Z: replay the log up to (not including) the last action."""
        evs = self.game.events
        idx = [i for i, e in enumerate(evs) if e.kind == "action"]
        if not idx:
            self.message = "nothing to undo"
            self.refresh()
            return None
        k = idx[-1]
        undone = evs[k].data.get("action")
        header = self.game.header()
        self.game = type(self.game).replay(header, [e.to_dict() for e in evs[:k]], self.geometry)
        try:                            # in words, as the menu offered it (the state is before it again)
            words = self.action_words(type(self.game).parse_action(undone))
        except Exception:               # noqa: BLE001 -- words only: the log's own text then
            words = undone
        self._after_load(f"undone: {words}")
        return undone

    def save(self, path: str | None = None):
        from rules.core.log import EventLog
        path = path or self.log_path
        try:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            tmp = path + ".tmp"
            log = EventLog(tmp)
            log.write_header(self.game.header())
            for ev in self.game.events:
                log.append(ev)
            log.close()
            os.replace(tmp, path)
        except OSError as exc:
            self.message = f"cannot save {path}: {exc.strerror or exc}"
            self.refresh()
            return None
        self.message = f"log saved to {path} ({len(self.game.events)} events)"
        self.refresh()
        return path

    def load(self, path: str | None = None, *, strict: bool = False):
        """Ctrl+O: replay a saved log. A bad log leaves the game as it was and
        says why (``strict``: raise the rules' LogError instead)."""
        from rules.core.errors import LogError
        from rules.core.log import read_log
        path = path or self.log_path
        try:
            header, events, warnings = read_log(path)
            self.check_log_scene(header)
            game = type(self.game).replay(header, events, self.geometry)
        except LogError as exc:
            if exc.file == "<log>":              # the rules' replay names no file: this one
                exc.file = path
            if strict:
                raise
            self.world_sync_from(self.game)
            self.message = f"cannot load: {exc.one_line()}"
            self.refresh()
            return None
        self.game = game
        self._after_load(f"loaded {path} ({len(events)} events)" + (f"; {'; '.join(warnings)}" if warnings else ""))
        return path

    def check_log_scene(self, header: dict) -> None:
        """A log is replayed on the table it was played on: another scene's log (or one
        logged before the scene file changed) would put its models on this terrain,
        the answers of the rules on the wrong table. ``LogError`` when the scene differs."""
        from rules.core.errors import LogError
        if not isinstance(header, dict) or header.get("game") != getattr(self.game, "game_name", None):
            return                                  # the replay says whose game it is
        logged = header.get("scene")
        here = getattr(self.world.scene, "sha256", "")
        sha = logged.get("sha256") if isinstance(logged, dict) else None
        if here and sha and sha != here:
            was, now = str(logged.get("path") or "another scene"), getattr(self.world.scene, "path", "") or ""
            if now and os.path.abspath(was) == os.path.abspath(now):
                why = f"{now} has changed since the game was logged"
            else:
                why = (f"this log was played on {was}, not on {now or 'the scene on the table'} "
                       "(eldfall replay LOG shows it on its own scene)")
            raise LogError(why, line=1, path="scene.sha256")
        # the same scene: its units and scene block as this table's game started them (a
        # header edited by hand, more HP, a model moved, would replay as another game), as
        # eldfall replay compares them
        import json
        from tools.cmd_replay import header_problems
        own = self.game.header()
        made = json.loads(json.dumps({"units": own.get("units", []), "scene": own.get("scene") or {}}))
        problems = header_problems("<log>", header, None, made)
        if problems:
            first = problems[0]
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise LogError(first.message + more, line=1, path=first.path)

    def world_sync_from(self, game) -> None:
        """Put the models back where ``game`` has them (a failed replay may
        have moved them through the shared geometry)."""
        type(game).replay(game.header(), [e.to_dict() for e in game.events], self.geometry, check=False)
        self.world_sync()

    def _after_load(self, message: str):
        self._invalidate()
        self._reset_step()
        self._clear_play()
        self.world_sync()
        self.message = message
        self.select(self.active_model())

    # ------------------------------------------------------------ HUD
    def stratagem_side(self) -> str | None:
        """The side whose Stratagems window is open (the pending decision), or None."""
        return self.pending_who() if self.pending_kind() == "stratagem" else None

    def stratagem_leader(self, side: str) -> str | None:
        """The Leader who uses ``side``'s Stratagems: as the window's event names
        it, else as the rules find it."""
        for e in reversed(self.game.events):
            if e.kind in ("stratagem_window", "stratagems") and e.data.get("side") == side:
                if e.data.get("leader"):
                    return e.data["leader"]
                break
        find = getattr(self.game, "_leader", None)
        return find(side) if callable(find) else None

    def stratagem_entries(self, side: str) -> list[dict]:
        """The Stratagems ``side`` may use now, in the scene's order: the data,
        the uses left and the legal actions (one per target, or one)."""
        import importlib
        legal = [a for a in self.legal() if action_kind(a) == "UseStratagem" and a.side == side]
        defs = {s["name"]: s for s in (getattr(self.game, "stratagems", {}) or {}).get(side, ())}
        try:
            rules = importlib.import_module(type(self.game).__module__.rsplit(".", 1)[0] + ".stratagems")
        except ImportError:
            rules = None
        out: dict[str, dict] = {}
        for a in legal:
            s = defs.get(a.name, {"name": a.name, "text": "", "uses": None, "per": "game", "target": None})
            e = out.setdefault(a.name, {"def": s, "actions": [], "left": None})
            e["actions"].append(a)
            if e["left"] is None and rules is not None and s.get("uses") is not None:
                e["left"] = int(rules.uses_left(self.game, side, s))
        return list(out.values())

    def stratagem_menu(self, side: str) -> list:
        menu: list[tuple[str, object]] = []
        for e in self.stratagem_entries(side):
            s, acts = e["def"], e["actions"]
            uses = f" ({uses_words(e['left'], s['per'])})" if e["left"] is not None else ""
            text = f"\n      {s['text']}" if s.get("text") else ""
            if any(action_targets(a) and a.target is not None for a in acts):
                label = f"{s['name']}{uses} -> click a target: {stratagem_reach(s, side)}"
                menu.append((label + text, (lambda key=self._key(acts[0]): self.start_target(key))))
            else:
                menu.append((f"{s['name']}{uses}: on {stratagem_reach(s, side)}{text}", acts[0]))
        for a in self.legal():
            if action_kind(a) == "Pass":
                menu.append(("Pass: no (more) Stratagems (P)", a))
                break
        return menu

    def page_menu(self, menu: list) -> list:
        """Ten number keys: a longer menu shows nine entries a page (keys 1-9)
        and key 0 turns the page."""
        if len(menu) <= 10:
            self.menu_page = 0
            return menu
        key = (len(self.game.events), self.selected, self.state)
        if key != getattr(self, "_page_key", None):
            self._page_key, self.menu_page = key, 0
        pages = -(-len(menu) // 9)
        page = getattr(self, "menu_page", 0) % pages
        return menu[page * 9:(page + 1) * 9] + [(f"more ... (page {page + 1} of {pages})", self.next_page)]

    def next_page(self):
        self.menu_page = getattr(self, "menu_page", 0) + 1
        self.refresh()
        return "page"

    def menu_actor(self, legal=None) -> str | None:
        """Whose actions the menu lists: the selected model when it has any, else the
        active model (a reactor selected a moment ago has none once its reaction is in)."""
        legal = self.legal() if legal is None else legal
        active = self.active_model()
        if self.selected and (self.selected == active or any(action_actor(a) == self.selected for a in legal)):
            return self.selected
        return active or self.selected

    def _click_kinds(self, legal, actor) -> set:
        """The kinds of action (not an Eldfall Declare, a Move, a Pass) the actor has more
        than one of, each aimed at one model on the table and otherwise alike: the menu
        lists each as one entry whose target is clicked, not one raw entry per target."""
        by_kind: dict[str, list] = {}
        for a in legal:
            kind = action_kind(a)
            if kind in ("Move", "Declare", "DodgeMove", "Pass", "Activate", "Crouch", "Turn", "UseStratagem") \
                    or action_actor(a) != actor:
                continue
            by_kind.setdefault(kind, []).append(a)
        out = set()
        for kind, acts in by_kind.items():
            ts = [action_targets(a) for a in acts]
            if len(acts) > 1 and all(len(t) == 1 and t[0] in self.world.models for t in ts) \
                    and len({t[0] for t in ts}) == len(acts) and len({self._key(a) for a in acts}) == 1:
                out.add(kind)
        return out

    # ------------------------------------------------------------ Legends of Norova's menu
    def _fighter(self, mid):
        fighters = getattr(self.game, "fighters", None)
        return fighters.get(mid) if isinstance(fighters, dict) else None

    def _norova_data(self, table: str, name) -> dict:
        data = getattr(getattr(self.game, "data", None), table, None)
        return (data.get(name) if isinstance(data, dict) else None) or {}

    def _potion(self, item) -> str:
        """"the power tonic (+5 Power)": a potion and what it restores."""
        it = self._norova_data("items", item)
        gain = f" (+{it['amount']} {str(it['restores']).title()})" if it.get("restores") and it.get("amount") else ""
        return f"the {_thing(item)}{gain}"

    def _wielded(self, mid, hand: str, attack: bool = True) -> str:
        """What ``mid`` strikes with in ``hand``, as a player says it: "with the longsword",
        "with the dagger (off hand)", "with both weapons (longsword and dagger)", "with both
        claws", "unarmed"; an aider's (``attack`` False) without "with the": "longsword"."""
        f = self._fighter(mid)
        main, off = (f.main, f.off) if f else (None, None)
        with_ = "with " if attack else ""
        if hand == "dual":
            if main and main == off:           # the ghoul's claws: not "claws and claws"
                return f"{with_}both {_thing(main)}{'' if main.endswith('s') else 's'}"
            return f"{with_}both weapons ({_thing(main)} and {_thing(off)})"
        w = main if hand == "main" else off
        return ((f"{with_}the " if attack else "") + _thing(w) if w else "unarmed") + (
            " (off hand)" if hand == "off" else "")

    def _cost(self, skill) -> str:
        """" (2 Power)": what a skill costs, as the potions say what they restore."""
        cost = self._norova_data("skills", skill).get("cost") or {}
        return f" ({', '.join(f'{n} {str(pool).title()}' for pool, n in cost.items())})" if cost else ""

    def norova_words(self, a, target: str | None = "") -> str:
        """A Legends of Norova action as a player says it: "attack brute with the longsword",
        "drink the power tonic (+5 Power)". ``target`` None: the words without the target
        (a target step's name: its target is clicked); "": the action's own target."""
        kind, mid = action_kind(a), action_actor(a)
        f = self._fighter(mid)
        ts = action_targets(a)
        t = (ts[0] if ts else None) if target == "" else target
        on = f" {t}" if t else ""
        if kind == "EndTurn":
            slots = getattr(self.game, "action_slots", None)
            try:
                used = slots(mid) if callable(slots) else {}
            except Exception:                     # noqa: BLE001 -- words only
                used = {}
            free = [k for k, u in used.items() if not u]
            # what it gives up, once it has done something (at the start, everything)
            return "end the turn" + (f" ({', '.join(free)} unused)" if free and len(free) < len(used) else "")
        if kind == "Wait":
            return "wait: act later this round"
        if kind == "Stand":
            return "stand up"
        if kind == "Reload":
            w = next((n for n in (f.main, f.off) if n and n in f.unloaded), None) if f else None
            return f"reload the {_thing(w)}" if w else "reload"
        if kind == "Turn":
            # enemies first, then allies (a turn to face an ally to give it a potion)
            enemies = list(getattr(self.game, "enemies", lambda m: [])(mid))
            others = [o for o in getattr(self.game, "fighters", {}) if o != mid and o not in enemies]
            for e in enemies + others:
                if e in self.world.models:
                    hb, he = self.world.hitbox(mid), self.world.hitbox(e)
                    deg = math.degrees(math.atan2(he.y - hb.y, he.x - hb.x)) % 360.0
                    if abs((deg - a.facing + 180.0) % 360.0 - 180.0) < 0.01:     # the rules round to 0.01
                        return f"turn to face {e}"
            return f"turn to {a.facing:g} degrees"
        if kind == "Attack":
            skill = f" using {_thing(a.skill)}{self._cost(a.skill)}" if a.skill else ""
            # each aider's weapon (the rules strike with it) and skill: "aided by brute (greataxe)"
            aid = "".join(f", aided by {p.ally} ({self._wielded(p.ally, p.hand or 'main', False)}"
                          + (f", {_thing(p.skill)}" if p.skill else "") + ")" for p in a.aid)
            return f"attack{on} {self._wielded(mid, a.hand)}{skill}{aid}"
        if kind == "AooAttack":
            # the blow of an Attack of Opportunity that hit (the defender's choice):
            # "strike walker back with the longsword using power strike (2 Power)"
            skill = f" using {_thing(a.skill)}{self._cost(a.skill)}" if a.skill else " (plain attack)"
            return f"strike{on} back {self._wielded(mid, a.hand)}{skill}"
        if kind == "Cast":
            sp = self._norova_data("spells", a.spell)
            area = f" ({sp['area']} area around {mid})" if sp.get("area") and a.target is None else ""
            aid = (", aided by " + " and ".join(f"{p.ally}'s {_thing(p.skill)}" for p in a.aid)) if a.aid else ""
            return f"cast {_thing(a.spell)}{' on' + on if t else ''}{area}{aid}"
        if kind == "ThrowPotion":
            return f"throw {self._potion(a.item)}{' to' + on if t else ''}"
        if kind == "UsePotion":
            if a.target == mid:
                return f"drink {self._potion(a.item)}"
            return f"give {self._potion(a.item)}{' to' + on if t else ''}"
        if kind == "Focus":
            return f"focus{' on' + on if t else ''}"
        if kind == "Perceive":
            return f"perceive{on}" + (" (spot it: it is hidden)" if t else "")
        if kind == "UseSkill":
            sk = self._norova_data("skills", a.skill)
            what = f" (+{sk['amount']} {str(sk['restores']).title()})" if sk.get("effect") == "restore" else (
                " (try to hide)" if sk.get("effect") == "hide" else "")
            return f"use {_thing(a.skill)}{what}"
        if kind == "Equip":
            held = list(dict.fromkeys(_thing(n) for n in ((f.main, f.off) if f else ()) if n))
            if a.main is None and a.off is None:
                return f"put away the {' and '.join(held)} (fight unarmed)" if held else "fight unarmed"
            if f is not None and a.main and a.main == f.main and a.off and a.off != f.off:
                # the main hand keeps its weapon: only the off hand changes
                away = f", putting away the {_thing(f.off)}" if f.off else ""
                return f"draw the {_thing(a.off)} into the off hand{away}"
            words = f"equip the {_thing(a.main)} (main hand)" if a.main else "empty the main hand"
            if a.off:
                words += f" and the {_thing(a.off)} (off hand)"
            elif f is not None and f.off:
                words += ", off hand empty"
            return words
        return str(a)

    def norova_menu(self, legal, actor) -> list:
        """The Legends of Norova entries after the moves, in words, the common choices
        first (``NOROVA_ORDER``): an action aimed at another model, offered on more than
        one, is one entry whose target is clicked; an action on one model names it."""
        def aimed(a) -> bool:         # a potion for itself is drunk: not a click
            ts = action_targets(a)
            return bool(ts) and not (action_kind(a) == "UsePotion" and ts[0] == actor)

        groups: dict = {}
        for a in legal:
            if _is_norova(a) and action_actor(a) == actor and aimed(a):
                groups.setdefault(self._key(a), []).append(a)
        entries, seen = [], set()
        for n, a in enumerate(legal):
            kind = action_kind(a)
            if not _is_norova(a) or action_actor(a) != actor or kind == "Move":
                continue
            rank = norova_rank(a)
            key = self._key(a) if aimed(a) else None
            if key is not None and len(groups[key]) > 1:
                if key in seen:
                    continue
                seen.add(key)
                names = sorted({action_targets(b)[0] for b in groups[key]})
                whom = "an ally" if kind in ("ThrowPotion", "UsePotion") else "a target"
                entries.append((rank, n, f"{key[0]} -> click {whom} ({', '.join(names)})",
                                (lambda key=key: self.start_target(key))))
            else:
                entries.append((rank, n, self.norova_words(a), a))
        entries.sort(key=lambda e: e[:2])
        return [(label, what) for _, _, label, what in entries]

    def build_menu(self) -> list:
        side = self.stratagem_side()
        if side is not None:
            self.menu = self.page_menu(self.stratagem_menu(side))
            return self.menu
        menu: list[tuple[str, object]] = []
        legal = self.legal()
        actor = self.menu_actor(legal)
        if self.pending_kind() == "turn-on-hit" and any(action_kind(a) == "Turn" for a in legal):
            self.menu = self.page_menu(self.turn_menu(legal))
            return self.menu
        for a in legal:
            if action_kind(a) == "Move" and action_actor(a) == actor and not action_path(a):
                if a.mode == "idle":
                    extra = "" if getattr(a, "crouch_end", None) is None else (
                        " and crouch" if a.crouch_end else " and stand up")
                    extra = (" and land" if getattr(a, "land", None) else "") + extra
                    menu.append((f"Move: Idle{extra}", a))
                else:
                    cs, land = getattr(a, "crouch_start", None), getattr(a, "land", None)
                    menu.append((f"Move: {move_words(a.mode, cs, land)} (click the path)",
                                 (lambda m=a.mode, cs=cs, land=land: self.start_move(m, cs, land))))
            elif action_kind(a) == "DodgeMove":
                if getattr(a, "crouch", None) is None:
                    menu.append(("Dodge: stay", a))
                    menu.append(("Dodge: move (click the path)", (lambda: self.start_move("dodge"))))
                else:
                    menu.append((f"Dodge: {'crouch' if a.crouch else 'stand up'}", a))
        seen = set()
        for a in legal:
            kind = action_kind(a)
            if kind == "Declare" and action_actor(a) == actor:
                key = self._key(a)
                objective = getattr(a, "objective", None)
                if (key, objective) in seen:
                    continue
                seen.add((key, objective))
                label = key[0] + (f" ({key[1]})" if key[1] else "") + (f" [{key[2]}]" if key[2] else "")
                if objective:                 # Interact: one entry per token / quest object
                    menu.append((f"{label}: {objective}", a))
                elif action_targets(a):
                    n = self.max_strikes(key)
                    click = " -> click target or the ground" if key in self.ground_keys() else " -> click target"
                    menu.append((label + (f"{click} (all {n} Strikes)" if n > 1 else click),
                                 (lambda key=key: self.start_target(key))))
                    if self.can_split(key):
                        menu.append((label + f" -> split the {n} Strikes: click a target per Strike",
                                     (lambda key=key: self.start_target(key, split=True))))
                elif getattr(a, "place", None) is not None:
                    # a Transmutation names no model: its token lies where the ground is clicked
                    menu.append((label + " -> click the ground",
                                 (lambda key=key: self.start_token_place(key))))
                else:
                    menu.append((label, a))
            elif kind == "Crouch":
                # Crouched as a Reaction, at the start or end of the mover's Movement Step
                words = [f"{'crouch' if on else 'stand up'} {mid}" for mid, on in a.changes]
                if len(a.changes) > 2:
                    # all of them at once: each is an entry of its own, so the counts say it
                    # (one line naming six models widened the menu over half the table)
                    n_up = sum(1 for _, on in a.changes if on)
                    n_down = len(a.changes) - n_up
                    words = [f"crouch all {n_up} at once"] if not n_down else \
                        [f"stand up all {n_down} at once"] if not n_up else \
                        [f"crouch {n_up} and stand up {n_down} at once (every model listed)"]
                menu.append(("Crouched as a Reaction: " + ", ".join(words), a))
            elif kind == "Pass" and (getattr(self.game, "pending", None) or ("",))[0] == "crouch":
                menu.append(("Pass: no Crouched change now (P)", a))
            elif kind in ("Activate",):
                continue
            elif kind in ("Move", "Declare", "DodgeMove"):
                continue
            elif _is_norova(a):
                continue                      # in words, after the loop (norova_menu)
            elif action_actor(a) in (None, actor) and kind in self._click_kinds(legal, actor):
                # one model target each (Legends of Norova's Focus): one entry, then a click
                if (kind, "click") not in seen:
                    seen.add((kind, "click"))
                    targets = sorted({t for b in legal if action_kind(b) == kind and action_actor(b) == actor
                                      for t in action_targets(b)})
                    word = getattr(a, "word", None) or kind
                    menu.append((f"{word} -> click a target ({', '.join(targets)})",
                                 (lambda key=self._key(a): self.start_target(key))))
            elif action_actor(a) in (None, actor) and kind not in seen:
                seen.add(str(a))
                menu.append((self.plain_words(a), a))
        for key in self.ground_keys() if actor == self.pending_who() else ():
            # a Targetless template no model may be named for: aimed at the ground only
            if (key, None) not in seen and self.ground_legal(key):
                label = key[0] + (f" ({key[1]})" if key[1] else "") + (f" [{key[2]}]" if key[2] else "")
                menu.append((label + " -> click the ground (Targetless: no model may be named)",
                             (lambda key=key: self.start_target(key))))
        menu += self.norova_menu(legal, actor)
        self.menu = self.page_menu(menu)
        return self.menu

    #: the reaction steps: the reactive player clicks a ringed model, or passes
    REACTION_STEPS = ("reaction", "reaction-late", "reaction-change")

    def plain_words(self, a) -> str:
        """A menu entry in words for the decisions that are a side's, not a model's
        (the raw "end red", "pass blue", "duel blue accept" said too little)."""
        kind, side = action_kind(a), getattr(a, "side", None)
        if kind == "EndTurn":
            return f"End {side}'s turn (activate no more models)"
        if kind == "ChooseOrder":
            other = next((s for s in self.sides() if s != side), "the other side")
            first = side if a.first else other
            return f"{a} ({first}'s turn comes first)"
        if kind == "Pass" and self.pending_kind() in self.REACTION_STEPS:
            return f"Pass: no (more) Reactions of {side} (P)"
        if kind == "StandUp":         # Incapacitated ended: "may voluntarily cancel the Crouched State"
            return f"{a.model}: stand up" if a.up else f"{a.model}: stay Crouched"
        if kind == "Pass" and self.pending_kind() == "stand-up":
            return f"Pass: {self.pending_who()} stays Crouched (P)"
        if kind == "DuelAnswer":
            ch, tgt = (getattr(self.game, "duel", None) or {}).get("models", ("the challenger", "the challenged"))
            return (f"Duel: {tgt} accepts the Duel with {ch}" if a.accept else
                    f"Duel: {tgt} refuses the Duel with {ch}")
        return str(a)

    def action_words(self, a) -> str:
        """A decision in words, as the menu offers it ("red-archer: Ranged Attack with
        Longbow at blue-skirmisher (2 Strikes)", "red-scout: Stand up and Run to (27.0,
        15.5)"), not the log's text with its keys and coordinates (the Ctrl+Z message,
        the path being clicked)."""
        kind, mid = action_kind(a), action_actor(a)
        if kind in ("Move", "DodgeMove"):
            path = action_path(a)
            if kind == "DodgeMove":
                name = "Dodge: move" if path else "Dodge: stay" if a.crouch is None else \
                    f"Dodge: {'crouch' if a.crouch else 'stand up'}"
            else:
                name = move_words(a.mode, getattr(a, "crouch_start", None), getattr(a, "land", None))
                name += " (no move)" if a.mode == "idle" and not path else ""
                if getattr(a, "crouch_end", None) is not None:
                    name += " and crouch" if a.crouch_end else " and stand up"
            s = f"{mid}: {name}"
            if path:
                s += f" to {point_words(path[-1])}" + (
                    f" by {len(path) - 1} waypoint{'s' if len(path) > 2 else ''}" if len(path) > 1 else "")
            facing = getattr(a, "facing", None)
            return s + (f", ending facing {facing:.0f}\u00b0" if facing is not None else "")
        if _is_norova(a):
            return f"{mid}: {self.norova_words(a)}"
        if kind == "Declare":
            from rules.eldfall.narrate import declared
            return f"{mid}: {declared(str(a))}"
        if kind == "Activate":
            return f"activate {mid}"
        if kind == "ChooseOrder":
            other = next((x for x in self.sides() if x != a.side), "the other side")
            return f"{a.side} plays {'first' if a.first else 'second'} ({a.side if a.first else other}'s turn first)"
        if kind == "Turn":
            return f"{mid}: " + ("keeps its facing" if a.facing is None else f"turns to {a.facing:.0f}\u00b0")
        if kind == "Crouch":
            return f"Crouched as a Reaction ({a.side}): " + ", ".join(
                f"{'crouch' if on else 'stand up'} {m}" for m, on in a.changes)
        if kind == "UseStratagem":
            return f"Stratagem {a.name} ({a.side})" + (f" on {a.target}" if a.target else "")
        if kind == "Pass":
            pk = self.pending_kind()
            return f"{a.side} passes" + (": no (more) Reactions" if pk in self.REACTION_STEPS else
                                         ": no Crouched change" if pk == "crouch" else
                                         f": {self.pending_who()} keeps its facing" if pk == "turn-on-hit" else
                                         f": {self.pending_who()} stays Crouched" if pk == "stand-up" else
                                         ": no (more) Stratagems" if self.stratagem_side() else "")
        return self.plain_words(a)

    def sides(self) -> list[str]:
        return sorted({self.world.hitbox(m).side for m in self.world.model_ids()})

    show_menu = True

    def hint(self) -> str:
        if getattr(self, "show_keys", False):
            return ("click: activate/select | 1-9: menu | Enter: confirm path | F: face the pointer (a path's end, "
                    "a hit model) | K: Knockback direction (an Attack's target step; K again: directly away) | "
                    "Backspace: last waypoint | Esc cancel | P pass | Ctrl+Z undo | Ctrl+S/Ctrl+O save/load | "
                    "F12 dispute | M measure | G template | V eye view | F1 fewer keys")
        return "1-9 menu | Enter confirm | Esc cancel | Ctrl+Z undo | F1 all keys"

    def toggle_keys(self):
        """F1: the status panel lists every key, or only the common ones (the
        table stays visible under a short panel)."""
        self.show_keys = not getattr(self, "show_keys", False)
        self.refresh()
        return "keys"

    def refresh(self) -> None:
        if not hasattr(self, "game"):
            return super().refresh()
        g = self.game
        if getattr(self, "_stratagem_verdict", False) and not (
                self.state == "target" and self.stratagem_of(self.target_key) is not None):
            self._stratagem_verdict = False          # the target step is over: its verdict goes
            self.hud.verdict.set("")
        menu = self.build_menu() if self.show_menu else []
        # who may act: rings on activatable models and eligible reactors
        for mid in list(self.table.highlights):
            if mid != self.selected and self.state == "idle":
                self.table.highlight(mid, None)
        if self.state == "idle" and self.show_menu:
            reactive = getattr(g, "reactive_side", None)
            step = getattr(getattr(g, "act", None), "step", None)
            for a in self.legal():
                m = action_actor(a)
                if not m or m == self.selected or m not in self.table.models:
                    continue
                if action_kind(a) == "Activate":
                    self.table.highlight(m, CAN_ACT)
                elif self.pending_kind() in self.REACTION_STEPS and action_kind(a) == "Declare" \
                        and self.world.hitbox(m).side == reactive:
                    self.table.highlight(m, CAN_REACT)
            for m in self.crouch_models():
                if m != self.selected and m in self.table.models:
                    self.table.highlight(m, CAN_REACT)     # Crouched as a Reaction: who may
        if self.state == "idle" and self.show_menu and self.pending_kind() == "turn-on-hit":
            # the hit model (it may turn) and the attackers that hit it
            hit = self.pending_who()
            for m in (getattr(getattr(g, "act", None), "hit_by", None) or {}).get(hit, ()):
                if m != self.selected and m != hit and m in self.table.models:
                    self.table.highlight(m, TARGETABLE)
            if hit != self.selected and hit in self.table.models:
                self.table.highlight(hit, CAN_ACT)
        side = self.stratagem_side()
        leader = self.stratagem_leader(side) if side else None
        if self.state == "idle" and leader and leader != self.selected and leader in self.table.models:
            self.table.highlight(leader, CAN_ACT)
        status = []
        if hasattr(g, "hud_lines"):
            # Legends of Norova: the round and how the fight stands (its summary's first
            # line is a bare heading, "Round 1:")
            rl = g.hud_lines(None)
            score = next((ln for ln in rl if ln.startswith("Standing:")), None)
            status.append(rl[0] + (" | " + score if score else ""))
        elif hasattr(g, "summary"):
            status.append(g.summary().splitlines()[0])
        if g.is_over:
            status.append(f"GAME OVER: {g.outcome}")
        else:
            step = getattr(getattr(g, "act", None), "step", None)
            active = self.active_model()
            if self.pending_kind() in ("turn-on-hit", "dodge-move"):   # the activated model, not the
                active = self.pending_mover() or active                # hit one nor the dodger
            aoo = getattr(g, "aoo_pending", None)
            if aoo is not None:
                # Legends of Norova: an Attack of Opportunity's blow waits for the attacking
                # character's choice (the mover's turn waits for it): say who chooses what
                status.append(f"{aoo['model']} chooses its blow on {aoo['mover']}: a menu entry (number keys)")
            elif active:
                status.append(f"{active} active" + (f", step: {step}" if step else ""))
            if self.pending_kind() in self.REACTION_STEPS and self.show_menu:
                sel = self.selected
                if sel in self.world.models and sel != active and self.world.hitbox(sel).side == g.reactive_side \
                        and any(action_actor(a) == sel for a in self.legal()):
                    # a reactor clicked: its Reactions are the menu's now (the line still
                    # asked for the click the player had just made)
                    status.append(f"Reaction step: {sel} reacts with a menu entry (number keys); "
                                  "click another highlighted model, or P to pass")
                else:
                    status.append(f"Reaction step: {g.reactive_side} clicks a highlighted model, or P to pass")
            if self.pending_kind() == "dodge-move" and self.show_menu:
                status.append(f"Dodge: {self.pending_who()} may make its Dodge move (number keys; "
                              "a move: click the path)")
            if self.pending_kind() == "duel-answer" and self.show_menu:
                ch, tgt = (getattr(g, "duel", None) or {}).get("models", ("?", "?"))
                status.append(f"Duel: {ch} challenges {tgt}; {self.pending_who()} accepts or refuses "
                              "(number keys)")
            if self.pending_kind() == "order" and self.show_menu:
                # who won the initiative, and why it is that side's choice (at the game's
                # start no decision of the players has said it)
                said = [ln for ln in self.initiative_lines() if ln not in self.message]
                status += said
                status.append(f"Turn order: {self.pending_who()} chooses (number keys)")
            if self.pending_kind() == "crouch" and self.show_menu:
                status.append(f"Crouched as a Reaction: {self.pending_who()} may crouch or stand up its ringed "
                              "models now (number keys), or P to pass")
            if self.pending_kind() == "turn-on-hit" and self.show_menu:
                status.append(f"Turning when Hit: {self.pending_who()} may turn (number keys, F faces the "
                              "pointer, P keeps its facing)")
            if self.pending_kind() == "stand-up" and self.show_menu:
                status.append(f"Incapacitated has ended: {self.pending_who()} may stand up or stay Crouched "
                              "(number keys, P stays)")
            if self.show_menu and self.state == "idle":
                ringed = sorted({self.world.hitbox(action_actor(a)).side for a in self.legal()
                                 if action_kind(a) == "Activate" and action_actor(a) in self.world.models})
                if ringed:
                    status.append(f"{' / '.join(ringed)}: click a ringed model to activate it")
            if side:
                status.append(f"Strategic Phase: Stratagems ({side}), Leader {leader or '?'}")
                if self.show_menu and self.state == "idle":
                    status.append("choose a Stratagem (number keys), or P to pass")
        status.append(self.hint())
        if self.message:
            status.append(self.message)
        self.hud.status.set("\n".join(status))
        self.hud.place_profile()
        self.hud.profile.set(self.rules_profile(self.selected) if self.selected in self.world.models else "")
        items = [f"{i + 1 if i < 9 and w != self.next_page else 0}. {label}" for i, (label, w) in enumerate(menu)]
        legal = self.legal()
        who = self.menu_actor(legal)
        # a decision that is not the model's (the crouch window, the order of play, a reaction
        # step before a reactor is clicked): say whose
        if self.pending_who() and (self.pending_kind() not in (*self.MODEL_DECISIONS, "reaction")
                                   or not any(action_actor(a) == who for a in legal)):
            head = f"Legal for {self.pending_who()} now:\n"
        else:
            head = f"Legal for {who}:\n" if who else "Legal now:\n"
        if side:
            head = f"Stratagems of {side} (Leader {leader or '?'}):\n"
        if self.show_menu:
            self.hud.set_menu((head + "\n".join(items)) if items else
                              ("" if g.is_over else f"no legal action for {who}; click an active model"))
        else:
            self.hud.set_menu("")
        misses = self.miss_lines if self.narrator is not None else None
        self.hud.show_log(g.events, self.narrator, misses)
        self.hud.show_dice(g.events, self.narrator, misses)
        self.keep_step_in_view()

    # ------------------------------------------------------------ the step's models in view
    #: whether a new step moves the camera off the panels (the attract mode frames its own)
    KEEP_IN_VIEW = True
    #: pixels kept between a model of the step and a panel or the frame's edge
    KEEP_CLEAR_PX = 4.0
    #: how far the camera may pull back (factors of its distance), nearest first
    KEEP_ZOOMS = (1.0, 1.1, 1.2, 1.35, 1.5, 1.7, 2.0, 2.4, 3.0)
    #: the pans tried, in shares of the table width the frame shows, each way
    KEEP_PANS = np.linspace(-0.75, 0.75, 31)

    def step_models(self) -> list[str]:
        """The models the player must see in this step: the model the menu is for
        (the active one, a reactor clicked), in a Reaction step the models that may
        react (ringed), and, choosing a target, its targets."""
        ids = set(self.world.model_ids())
        out = []
        who = self.menu_actor()
        if who in ids:
            out.append(who)
        if self.state == "idle" and self.pending_kind() in self.REACTION_STEPS:
            reactive = getattr(self.game, "reactive_side", None)
            out += sorted({m for a in self.legal() if action_kind(a) == "Declare"
                           for m in [action_actor(a)] if m in ids and m not in out
                           and self.world.hitbox(m).side == reactive})
        if self.state == "idle":
            out += [m for m in self.crouch_models() if m not in out]
        if self.state == "idle" and self.pending_kind() == "tactical":
            # "click a ringed model to activate it": the ringed models (one stood under
            # the event log, its ring half hidden, another at the frame's top edge)
            out += sorted({m for a in self.legal() if action_kind(a) == "Activate"
                           for m in [action_actor(a)] if m in ids and m not in out})
        if self.state == "target" and self.target_key is not None:
            out += sorted({t for a in self.legal() if self._key(a) == self.target_key
                           for t in action_targets(a) if t in ids and t not in out})
        side = self.stratagem_side() if self.state == "idle" else None
        if side:
            # the Stratagems window: the Leader (ringed) and the models its Stratagems may
            # name (one stood under the status panel, its label hidden, while the menu
            # offered "-> click a target")
            leader = self.stratagem_leader(side)
            out += [leader] if leader in ids and leader not in out else []
            out += sorted({t for a in self.legal() if action_kind(a) == "UseStratagem"
                           for t in action_targets(a) if t in ids and t not in out})
        if self.state == "target" and self.ground_aim and who in ids:
            # aimed at the ground: the enemies it may be thrown among, named or not
            side = self.world.hitbox(who).side
            out += sorted(m for m in ids if m not in out and self.world.hitbox(m).side != side)
        return out

    def initiative_lines(self) -> list[str]:
        """The narration of the initiative rolls the turn order waits on (the last
        run of initiative events), without their dice lines."""
        run = []
        for ev in reversed(self.game.events):
            if ev.kind == "initiative":
                run.append(ev)
            elif ev.kind != "roll":
                break
        return [t.strip() for ev in reversed(run) for t in [self.say(ev)] if t]

    def crouch_models(self) -> list[str]:
        """The models the Crouched-as-a-Reaction window may crouch or stand up now (the
        menu names them: they are ringed and kept in view, as the reactors are)."""
        if self.pending_kind() != "crouch":
            return []
        ids = set(self.world.model_ids())
        return sorted({m for a in self.legal() if action_kind(a) == "Crouch"
                       for m, _ in getattr(a, "changes", ()) if m in ids})

    def step_key(self) -> tuple:
        """What makes a new step for the camera: another model active or acting, another
        decision pending, another phase step, a path or target step begun or left."""
        g = self.game
        return (self.active_model(), self.menu_actor(), self.pending_kind(), self.pending_who(),
                getattr(getattr(g, "act", None), "step", None), self.state, self.target_key, g.is_over)

    def keep_step_in_view(self) -> bool:
        """When a step begins (``step_key`` changed) and a HUD panel or the frame's edge
        hides one of its models (``step_models``), pan the camera (its heading, pitch and
        distance kept), else pull it back as little as it takes, until none is hidden
        (else the fewest); when scenery hides one wholly, swing the view as little as
        shows it (``move_from_behind_scenery``). Between steps the camera is the
        player's: a view moved on purpose is never moved back. Not in the eye view (V).
        True when it moved."""
        if not self.KEEP_IN_VIEW or not hasattr(self, "camera"):
            return False
        key = self.step_key()
        if key == getattr(self, "_kept_key", None):
            return False
        self._kept_key = key
        if self.camera.mode != "orbit":
            return False
        focus = self.step_models()
        if not focus:
            return False
        panned = self.move_off_panels(focus)
        return self.move_from_behind_scenery(focus) or panned

    #: a hitbox's sight points the camera's rays test (shares of its radius along x
    #: and y, share of its height): its middle and top, and its four sides
    SIGHT_POINTS = ((0, 0, 0.5), (0, 0, 0.9), (1, 0, 0.6), (-1, 0, 0.6), (0, 1, 0.6), (0, -1, 0.6))

    def sight_hidden(self, focus) -> np.ndarray:
        """Per model of ``focus`` (rows), per sight point (``SIGHT_POINTS``): whether
        scenery stands between the camera as it stands and the point (the world's rays)."""
        eye = self.camera.position()
        pts = np.array([(hb.x + dx * hb.radius * 0.7, hb.y + dy * hb.radius * 0.7, hb.z + hb.height * f)
                        for m in focus for hb in [self.world.hitbox(m)] for dx, dy, f in self.SIGHT_POINTS],
                       float).reshape(-1, 3)
        if not len(pts):
            return np.zeros((0, len(self.SIGHT_POINTS)), bool)
        d = pts - eye
        hit, _ = self.world.rays.first_hit(np.repeat(eye[None], len(pts), axis=0), d)
        return (hit < np.linalg.norm(d, axis=1) - 0.05).reshape(len(focus), -1)

    def hidden_share(self, focus) -> float:
        """The share of the models' sight points (middle and top of each hitbox, and
        its sides) that scenery hides from the camera as it stands."""
        hidden = self.sight_hidden(focus)
        return float(hidden.mean()) if hidden.size else 0.0

    def behind_scenery(self, focus) -> list[str]:
        """The models of ``focus`` that scenery hides wholly from the camera (every
        sight point behind it)."""
        return [m for m, row in zip(focus, self.sight_hidden(focus)) if row.all()]

    def shot_cost(self, dist: float, turn: float, hidden: float) -> float:
        """Smaller is better: nearer (the models larger), turned less from the view
        (a quarter turn costs as much as a fifth closer), and the step's models in
        plain view (each hidden sight point costs about its share twice)."""
        return dist * (1.0 + 0.25 * abs(turn) / 90.0) * (1.0 + 2.0 * hidden)

    #: the swings of the view tried when scenery hides a step's model: heading turns
    #: and pitch changes (degrees), about the view's target, its distance kept
    KEEP_TURNS = tuple(range(-165, 181, 15))
    KEEP_TILTS = (0.0, 10.0, 20.0, 30.0, 40.0, -10.0, -20.0)

    def move_from_behind_scenery(self, focus) -> bool:
        """When scenery hides a model of ``focus`` wholly from the camera, the least
        swing of the view about its target (``KEEP_TURNS``, ``KEEP_TILTS``) after
        which none is wholly hidden, scored as the attract mode scores its shots
        (``shot_cost``: the swing, the distance, the share of sight points hidden),
        then moved off the panels (``move_off_panels``) where that keeps them shown
        (else the swing alone). The view stays when no swing shows them. True when
        it moved."""
        cam = self.camera
        if not self.behind_scenery(focus):
            return False
        keep = (cam.target.copy(), cam.heading, cam.pitch, cam.distance)
        views = {}
        for dp in self.KEEP_TILTS:
            for dh in self.KEEP_TURNS:
                view = ((keep[1] + dh) % 360.0, float(np.clip(keep[2] + dp, MIN_PITCH, MAX_PITCH)))
                if view == keep[1:3]:
                    continue
                cam.set_orbit(keep[0], *view, keep[3])
                if not self.behind_scenery(focus):
                    swing = TableCamera.swing(keep[1:3], view)
                    views[view] = self.shot_cost(keep[3], swing, self.hidden_share(focus))
        for view in sorted(views, key=views.get):
            cam.set_orbit(keep[0], *view, keep[3])
            self.move_off_panels(focus)
            if not self.behind_scenery(focus):
                return True
        if views:                         # no pan off the panels keeps them shown: the swing alone
            cam.set_orbit(keep[0], *min(views, key=views.get), keep[3])
            return True
        cam.set_orbit(*keep)
        return False

    def move_off_panels(self, focus) -> bool:
        """The least camera move (pan, then pull back) that shows every model of
        ``focus`` whole in the frame, with room for its label above it, and off the
        shown panels (see ``keep_step_in_view``)."""
        from panda3d.core import Point3, Vec3

        from engine.view.labels import LABEL_NDC
        app, cam = self.app, self.camera
        w, h = app.size
        m = self.KEEP_CLEAR_PX
        rects = np.array(self.hud.rects(), float).reshape(-1, 4)
        ring = np.linspace(0.0, 2.0 * math.pi, 12, endpoint=False)
        pts = []                          # camera space (x right, y depth, z up), per model
        for mid in focus:
            hb = self.world.hitbox(mid)
            pts.append([tuple(app.cam.getRelativePoint(app.render, Point3(
                hb.x + hb.radius * math.cos(t), hb.y + hb.radius * math.sin(t), hb.z + dz)))
                for t in ring for dz in (0.0, hb.height)])
        pts = np.array(pts, float)                                          # (models, 24, 3)
        hd = math.radians(cam.heading)
        right = np.array([math.cos(hd), -math.sin(hd), 0.0])                # the pan's ground axes
        fwd = np.array([math.sin(hd), math.cos(hd), 0.0])
        r_c = np.array(tuple(app.cam.getRelativeVector(app.render, Vec3(*right))))
        f_c = np.array(tuple(app.cam.getRelativeVector(app.render, Vec3(*fwd))))
        tx, ty = (math.tan(math.radians(f) / 2.0) for f in app.camLens.getFov())
        span = 2.0 * cam.distance * tx                # the table width the frame shows at the target
        tw, td = self.world.table
        zooms = [k for k in self.KEEP_ZOOMS if cam.distance * k <= 6.0 * max(tw, td)] or [1.0]
        a, b, k = (g.ravel() for g in np.meshgrid(self.KEEP_PANS * span, self.KEEP_PANS * span, zooms,
                                                   indexing="ij"))
        goal = cam.target[None, :] + a[:, None] * right + b[:, None] * fwd
        inside = (goal[:, 0] >= -0.25 * tw) & (goal[:, 0] <= 1.25 * tw) & \
                 (goal[:, 1] >= -0.25 * td) & (goal[:, 1] <= 1.25 * td)     # where a pan may take it
        # a pan by a*right + b*fwd moves every point by minus that in camera space; a pull
        # back by (k - 1) * distance deepens it along the view
        shift = -(a[:, None] * r_c + b[:, None] * f_c) + np.outer(cam.distance * (k - 1.0), [0.0, 1.0, 0.0])
        q = pts[None] + shift[:, None, None, :]                            # (cands, models, 24, 3)
        front = np.all(q[..., 1] > 1e-3, axis=2)
        y = np.where(q[..., 1] > 1e-3, q[..., 1], 1.0)
        sx = (q[..., 0] / (y * tx) + 1.0) * w / 2.0
        sy = (q[..., 2] / (y * ty) + 1.0) * h / 2.0
        x0, x1, y0, y1 = sx.min(axis=2), sx.max(axis=2), sy.min(axis=2), sy.max(axis=2)
        y1 = y1 + 2.2 * LABEL_NDC * h / 2.0           # and room for its name label above it
        hidden = ~front | (x0 < m) | (x1 > w - m) | (y0 < m) | (y1 > h - m)
        for r in rects:
            hidden |= (np.minimum(x1, r[2] + m) > np.maximum(x0, r[0] - m)) & \
                      (np.minimum(y1, r[3] + m) > np.maximum(y0, r[1] - m))
        count = hidden.sum(axis=1) + np.where(inside, 0, len(focus) + 1)
        now = int(count[(np.abs(a) < 1e-9) & (np.abs(b) < 1e-9) & (k == 1.0)][0])
        if now == 0:
            return False                  # nothing hidden: the player's view stays
        cost = count * 1e6 + (k - 1.0) + np.hypot(a, b) / span
        best = int(np.argmin(cost))
        if count[best] >= now:
            return False
        cam.set_orbit(goal[best], cam.heading, cam.pitch, cam.distance * k[best])
        return True

    def rules_profile(self, mid: str) -> str:
        g = self.game
        if hasattr(g, "hud_lines"):                       # Legends of Norova: the four action slots
            try:
                lines = g.hud_lines(mid)
                shown = set(self.hud.status.text.splitlines())
                return "\n".join(ln for ln in lines if ln not in shown and not ln.startswith(("Active:", "Standing:")))
            except Exception:
                pass
        models = getattr(g, "models", {})
        ms = models.get(mid) if isinstance(models, dict) else None
        base = self.profile_text(mid)
        if ms is None:
            return base
        unit = ms.unit
        lines = [f"{unit.name} [{mid}, {unit.side}]  HP {ms.hp}/{unit.stat('HP', 1)}  AP {ms.ap}",
                 " ".join(f"{k} {v}" for k, v in unit.stats.items()),
                 "states: " + (", ".join(sorted(ms.states)) or "-")]
        for w in unit.weapons:
            lines.append(f"  {w['name']} ({w['kind']}) PW {w['pw']} STK {w['stk']}"
                         + (f" RCH {w['rch']:g}" if w['kind'] == 'melee' else ""))
        for s in unit.spells:
            lines.append(f"  spell {s['name']} ({s['type']}) mana {s['mana']}")
        if ms.engaged_by:
            lines.append("engaged by " + ", ".join(sorted(ms.engaged_by)))
        return "\n".join(lines)


# ====================================================================== attract
#: the games' names on the event screen
GAME_TITLES = {"eldfall": "Eldfall Chronicles", "norova": "Legends of Norova"}


def game_title(game) -> str:
    """The name of the game ``game`` is (its rules package: ``rules.<kind>.game``)."""
    parts = type(game).__module__.split(".")
    kind = parts[1] if len(parts) > 2 and parts[0] == "rules" else parts[0]
    return GAME_TITLES.get(kind, kind)


class AttractController(PlayController):
    """Bots play game after game; the camera follows the action; it loops. The
    games may be of more than one kind (``new_game`` gives an Eldfall game, then a
    Legends of Norova one, ...): the narration, HUD and bots follow the game."""

    #: the attract mode selects each step's actor (a reaction's reactor is framed with it)
    SELECT_ACTIVE_AFTER_REACTIONS = False

    def __init__(self, app, world, new_game, bots_for, *, seed: int = 0, step_seconds: float = 1.6,
                 pause_seconds: float = 5.0, max_games: int | None = None, out_dir: str = "out"):
        self.new_game = new_game          # seed -> (game, geometry)
        self.bots_for = bots_for          # (game, seed) -> {side: bot}
        self.seed = seed
        self.step_seconds = step_seconds
        self.pause_seconds = pause_seconds
        self.max_games = max_games
        self.games_played = 0
        self.clock = 0.0
        self.over_since = None
        self.cam_heading = 20.0
        self.focus = None
        self.wins: dict[str, int] = {}
        game, geometry = new_game(seed)
        self.bots = bots_for(game, seed)
        super().__init__(app, world, game, geometry, out_dir=out_dir)
        self.camera.set_orbit((world.table[0] / 2, world.table[1] / 2, 0), self.cam_heading, 55.0,
                              max(world.table) * 1.4)
        app.on_frame("attract", self.tick)

    def handlers(self) -> dict:
        h = TableView.handlers(self)
        h["space"] = self.toggle_pause
        return h

    def toggle_pause(self):
        self.paused = not getattr(self, "paused", False)
        self.refresh()                    # the status says it (else a paused stand looked stuck)
        return "pause"

    show_menu = False
    KEEP_IN_VIEW = False              # the attract mode frames each step itself (``cinematic``)
    REHOVER_ON_SELECT = False         # no verdict panel over the step for a mouse left on a model

    def refresh(self) -> None:
        """The hotseat's panels, trimmed for an organiser's big screen: the banner
        narrates the step with its rolls and outcome, so the small dice and log
        panels (about 11 px at 1280x720, repeating the banner, and over the labels
        of the models on the right) and the profile (over the models on the left)
        are not shown; the status panel says the state of the fight."""
        super().refresh()
        if not hasattr(self, "game"):
            return
        hud = self.hud
        for panel in (hud.dice, hud.log, hud.profile):
            panel.set("")
        g = self.game
        if hasattr(g, "hud_lines") and hud.status.text:
            # Legends of Norova: the rules' state line (characters standing per side),
            # not the first line of the end-of-game summary ("Round 1:")
            try:
                rl = g.hud_lines(None)
                score = next((ln for ln in rl if ln.startswith("Standing:")), None)
                first = rl[0] + (" | " + score if score else "")
            except Exception:
                first = None
            lines = hud.status.text.splitlines()
            head = g.summary().splitlines()[0] if hasattr(g, "summary") else None
            if first and lines and (lines[0] == head or head is None):
                lines[0] = first
                hud.status.set("\n".join(lines))

    def where_words(self, mid: str, start=None) -> str:
        """Where ``mid`` stands now, in words: toward / away from / near the nearest
        enemy (edge to edge), and next to the nearest scenery piece."""
        world = self.world
        if mid not in world.models:
            return ""
        hb = world.hitbox(mid)
        enemies = [world.hitbox(m) for m in world.model_ids() if m != mid and world.hitbox(m).side != hb.side]
        parts = []
        if enemies:
            def gap(e, x, y):
                return max(0.0, math.hypot(e.x - x, e.y - y) - e.radius - hb.radius)
            near = min(enemies, key=lambda e: gap(e, hb.x, hb.y))
            now = gap(near, hb.x, hb.y)
            before = gap(near, start[0], start[1]) if start is not None else now
            how = ("toward" if now < before - 0.5 else "away from" if now > before + 0.5 else "near")
            moved = math.hypot(hb.x - start[0], hb.y - start[1]) if start is not None else 0.0
            parts.append((f"{moved:.0f}\" " if moved >= 0.5 else "") + f"{how} {near.id}"
                         + (" (now in contact)" if now < 0.05 else f" (now {now:.0f}\" from it)"))
        piece = self.nearest_scenery(hb.x, hb.y, hb.radius)
        if piece:
            parts.append(f"by the {piece}")
        return ", ".join(parts)

    def nearest_scenery(self, x: float, y: float, radius: float = 0.0, within: float = 2.5) -> str | None:
        """The name of the nearest scenery piece within ``within`` inches of a base's edge."""
        best = None
        for t in getattr(self.world.scene, "terrain", ()):
            ax, ay = float(t.at[0]), float(t.at[1])
            if t.shape in ("box", "wedge") and t.size:
                a = math.radians(-float(getattr(t, "turn", 0.0) or 0.0))
                lx = (x - ax) * math.cos(a) - (y - ay) * math.sin(a)
                ly = (x - ax) * math.sin(a) + (y - ay) * math.cos(a)
                dx, dy = max(0.0, abs(lx) - t.size[0] / 2), max(0.0, abs(ly) - t.size[1] / 2)
                d = math.hypot(dx, dy)
            elif t.shape == "cylinder" and t.radius:
                d = max(0.0, math.hypot(x - ax, y - ay) - float(t.radius))
            elif t.points:
                xs = [p[0] + ax for p in t.points]
                ys = [p[1] + ay for p in t.points]
                d = math.hypot(max(0.0, min(xs) - x, x - max(xs)), max(0.0, min(ys) - y, y - max(ys)))
            else:
                continue
            d = max(0.0, d - radius)
            if d <= within and (best is None or d < best[0]):
                best = (d, t.id)
        return piece_words(best[1]) if best else None

    def hint(self) -> str:
        # one short line: the status panel stays small (the table shows between it and the banner)
        return (f"ATTRACT MODE: {game_title(self.game)}, game {getattr(self, 'games_played', 0) + 1} "
                f"(seed {getattr(self, 'seed', 0)}) | "
                + ("PAUSED: Space resumes" if getattr(self, "paused", False) else "Space pause")
                + " | F12 dispute")

    def current_side(self) -> str | None:
        """The side whose decision it is (the pending decision's owner)."""
        g = self.game
        who = self.pending_who()
        if who in self.world.models:
            return self.world.hitbox(who).side
        if who in getattr(g, "sides", ()):
            return who
        for a in g.legal_actions():
            m = action_actor(a)
            if m and m in self.world.model_ids():
                return self.world.hitbox(m).side
            side = getattr(a, "side", None)
            if side:
                return side
        return getattr(g, "active_side", None)

    def bot_step(self):
        """One decision by the bot whose turn it is; returns the events."""
        g = self.game
        if g.is_over or not self.legal():
            return None
        side = self.current_side()
        bot = self.bots.get(side) or next(iter(self.bots.values()))
        action = bot.choose(g)
        self._invalidate()
        mover = action_actor(action)
        # where the mover stood: the banner says whether it went toward the enemy
        self._move_start = ((self.world.hitbox(mover).x, self.world.hitbox(mover).y)
                            if mover in self.world.models else None)
        events = self.apply(action)
        if events is not None:
            # the banner narrates the step: the status panel does not repeat it (it grew
            # over the table and pushed the camera far back)
            self.message = ""
            self.refresh()
        on_table = set(self.world.model_ids())
        summary = self.banner_summary()
        said = [ln.strip() for ln in summary.feed(events)] if summary is not None and events else None
        if said is not None and getattr(summary, "held", None) and self.pending_kind() != "crouch":
            # the "may react to" line waits for the reactive side's crouch at the end of the
            # Movement Step; with no such window next, it is told now (not a frame late)
            said += [ln.strip() for ln in summary.close()]
        banner = self.narrate(action, events, said)
        # the models the narration names: an event's actors and targets, those who may
        # react (a reaction step's ``qualified``, a Foresight offer's ``models``), and the
        # enemy a move went toward: every model the banner names, framed with the actor,
        # but not from the initiative rolls told with the game's first decision (every
        # model plays), and those who may react only while no reaction is told (a
        # reaction is framed with its mover, not with every model that could have reacted)
        lines = [ln for ln in banner.splitlines() if not ln.lower().startswith("initiative")]
        if any(" reacts " in ln for ln in lines):
            lines = [ln for ln in lines if not ln.startswith("may react to ")]
        named = [m for m in self.world.model_ids() if any(_names(ln, m) for ln in lines)]
        if said is None:
            for e in (events or ())[1:]:
                line = self.say(e) if e.kind != "roll" else None
                if line:
                    named += [m for m in event_models(e, line) if m in on_table]
        shown = [m for m in (action_actor(action), *action_targets(action), *named) if m and m in on_table]
        if shown:
            self.focus = list(dict.fromkeys(shown))       # the actor and whom it acts on, framed together
        self._shot = None                                   # a new step: its shot is chosen anew
        self.hud.set_banner(banner)
        return events

    def banner_summary(self):
        """The game's play summary (``rules.<game>.narrate.Summary``, as ``eldfall play``
        prints it: an Idle movement's own line, the AP each reaction leaves, the "may
        react to" line after the reactive side's crouch), one per game, fed each
        decision's events; None for a game without one (its lines event by event)."""
        kept = getattr(self, "_summary", None)
        if kept is None or kept[0] is not self.game:
            import importlib
            pkg = type(self.game).__module__.rsplit(".", 1)[0]
            try:
                cls = getattr(importlib.import_module(pkg + ".narrate"), "Summary", None)
            except ImportError:
                cls = None
            kept = self._summary = (self.game, cls() if cls is not None else None)
        return kept[1]

    def narrate(self, action, events, said: list[str] | None = None) -> str:
        """The banner's words for one decision; ``said``: its lines from the game's play
        summary (``banner_summary``), else each event's line and the misses."""
        text = short_text(action)
        kind = action_kind(action)
        who = action_actor(action)          # Eldfall's ``model``, Legends of Norova's ``actor``
        nothing = False                     # the active model's Nothing (its Action step's frame)
        if kind == "Move" and getattr(action, "path", ()):
            p = action.path[-1]
            text = f"{who} {action.mode}s to {point_words(p)}"
        elif kind == "Declare":
            tg = ", ".join(action_targets(action))
            text = f"{who}: {action.action}" + (f" with {action.weapon}" if action.weapon else "") + (
                f" [{action.spell}]" if action.spell else "") + (f" at {tg}" if tg else "")
            if action.action == "Nothing" and any(e.kind == "declare" and e.data.get("role") == "active"
                                                  for e in events):
                # the summary leaves Nothing after a move unsaid; "blue-warden: Nothing" told
                # a crowd nothing
                text = f"{who} takes no Action (Nothing): its activation ends"
                nothing = True
        elif kind == "Activate":
            text = f"{who} activates"
        elif kind == "Turn":
            turned = next((e for e in events if e.kind == "turn_on_hit"), None)
            toward = (turned.data.get("toward") if turned is not None else None)
            if getattr(action, "facing", None) is None:
                text = f"{who} keeps its facing after the Hit"
            else:
                text = f"{who} turns " + (f"to face {toward} " if toward else "to ") + (
                    f"({action.facing:.0f}\u00b0)" if toward else f"{action.facing:.0f}\u00b0")
        elif kind == "Pass":
            closes = {e.kind for e in events}
            text = f"{action.side} passes" + (": none of its models crouches or stands up in reaction"
                                             if "crouch_reaction" in closes else
                                             ": keeps its facing" if "turn_on_hit" in closes else
                                             ": no (more) reactions" if "reactions_done" in closes else
                                             ": no (more) Stratagems" if "stratagems_done" in closes else "")
        if said is None:
            said = [ln.strip() for ln in (self.say(e) for e in events[1:] if e.kind != "roll") if ln]
            if said and self.narrator is not None:
                said += self.misses(events)
        elif kind == "Pass" and said and said[0].startswith("may react to "):
            # the crouch window passed, then who may react (the summary's order): both told
            said = [text] + said
        if nothing and said and not any(ln.startswith(f"{who} ") and "nothing" in ln.lower() for ln in said):
            # the Reactions declared against it resolve now: without this line the frame of
            # blue-ogre's Action step told only red's shots at it, as if they were the step
            said = [f"{who} takes no Action (Nothing): "
                    + ("the Reactions against it resolve" if any(e.kind == "attack" for e in events)
                       else "its activation ends")] + said
        if said and self.narrator is not None:
            # the outcome comes last (damage, wounds): never cut it off
            if len(said) > 8:
                said = said[:3] + [f"... ({len(said) - 7} more in the log)"] + said[-4:]
            text = "\n".join(said)
        if kind == "Move" and str(getattr(action, "mode", "")).lower() == "idle":
            # an Idle movement: the model stays put (the rules' line said nothing of it, and
            # the words "moves near ..." told a move that did not happen)
            stays = f"{who} stays where it is (Idle)"
            if stays not in text.splitlines():        # (the play summary says it already)
                text = stays if text.strip() in ("", short_text(action).strip()) else stays + "\n" + text
        elif kind == "Move" and path_field(action):
            text = self.move_in_words(action, text)
        evs = self.game.events
        first = next((i for i, e in enumerate(evs) if e.kind == "action"), None)
        if events and first is not None and getattr(evs[first], "seq", None) == getattr(events[0], "seq", False):
            # the game's first decision (the order of play): the initiative rolls that
            # decided who chooses were made before it and had no frame of their own
            pre = [ln.strip() for ln in (self.say(e) for e in evs[:first] if e.kind != "roll") if ln]
            pre = [ln for ln in pre if "initiative" in ln.lower()]
            if pre:
                text = "\n".join(pre + [text])
        rolls = [e for e in events if e.kind == "roll"]
        if rolls:
            text += "\nrolls: " + " ".join(f"d{e.data.get('sides', 20)}={e.data.get('value')}" for e in rolls[:8]) \
                + (f" (+{len(rolls) - 8})" if len(rolls) > 8 else "")
        return text

    def move_in_words(self, action, text: str) -> str:
        """A move's line says where in words (toward the nearest enemy, how far from
        it, by which scenery piece); the rules' line with its coordinates follows,
        secondary, in brackets."""
        mid = action_actor(action)
        where = self.where_words(mid, getattr(self, "_move_start", None))
        if not mid or not where:
            return text
        lines = text.splitlines()
        i = next((i for i, ln in enumerate(lines) if ln.startswith(mid) and re.search(r"\(-?[0-9.]+, -?[0-9.]+", ln)),
                 None)
        verb = {"walk": "walks", "run": "runs", "sprint": "sprints", "climb": "climbs", "jump": "jumps",
                "fly": "flies", "crawl": "crawls", "swim": "swims"}.get(str(getattr(action, "mode", "")).lower(), "moves")
        said = f"{mid} {verb} {where}"
        if i is None:
            return said + "\n   (" + text.replace("\n", "; ") + ")"
        lines[i:i + 1] = [said, f"   ({lines[i].strip()})"]
        return "\n".join(lines)

    def tick(self, dt: float) -> None:
        if getattr(self, "paused", False) or getattr(self, "frames_driven", False):
            return              # run_frames decides the steps (a frame each); the clock does not
        self.clock += dt
        self.cinematic(dt)
        if self.game.is_over:
            if self.over_since is None:
                if self.clock < self.step_seconds:
                    return              # the last step's narration (the blow that ended it) stays its time
                self.over_since = self.clock
                self.show_result()
            elif self.clock - self.over_since >= self.pause_seconds:
                self.next_game()
            return
        if self.clock >= self.step_seconds:
            self.clock = 0.0
            self.bot_step()

    def misses(self, events) -> list[str]:
        """The attacks of a step that hit nothing, in words (the game's narration's
        ``misses``): the rules emit no event for a miss, so a step whose attack roll
        failed had no outcome on the banner."""
        return [ln.strip() for _, ln in sorted(self.miss_lines(events).items())]

    def show_result(self) -> None:
        """The game is over: the banner says who won and why, the tally of the games
        played here, and that another game follows; the camera shows the whole table."""
        o = self.game.outcome
        self.wins[o.winner or "draw"] = self.wins.get(o.winner or "draw", 0) + 1
        self.focus = None
        self.message = ""
        self.refresh()
        self.hud.set_banner(f"GAME OVER: {o}\n"
                            f"games played here: {self.games_played + 1} ("
                            + ", ".join(f"{k} {v}" for k, v in self.wins.items()) + ")\nnext game starts now")

    def next_game(self):
        self.games_played += 1
        if self.max_games is not None and self.games_played >= self.max_games:
            return None
        self.seed += 1
        before = type(self.game)
        self.game, self.geometry = self.new_game(self.seed)
        self.bots = self.bots_for(self.game, self.seed)
        if type(self.game) is not before:
            # a game of the other kind (an event screen playing the scene's games in turn):
            # its own rules' narration, not the last game's
            self.__dict__.pop("_narrator", None)
        self.over_since = None
        self.clock = 0.0
        self.focus = None
        self._after_load("")                # the hint names the game and its seed already
        self.hud.set_banner(f"A new game begins: game {self.games_played + 1} (seed {self.seed}), "
                            f"{game_title(self.game)}; the models are back on their starting places")
        return self.game

    #: inches of table kept around each framed model, and the least radius of table
    #: framed around the models' middle (a model alone is shown with its surroundings,
    #: not as a close-up of its base)
    FRAME_PAD, FRAME_MIN_RADIUS = 1.0, 8.0

    def frame_window(self) -> tuple[float, float, float, float]:
        """The part of the frame (NDC: left, right, bottom, top) where framed models
        stand: below the panels at the top (the status) with room for the labels
        above the models, above those at the bottom (the banner), off the edges."""
        from engine.view.labels import LABEL_NDC
        h = float(self.app.size[1])
        top, bottom = 1.0, -1.0
        for r in self.hud.rects():
            if (r[1] + r[3]) / 2.0 > h / 2.0:
                top = min(top, max(2.0 * r[1] / h - 1.0, 0.4))          # a tall panel leaves 70 % at least
            else:
                bottom = max(bottom, min(2.0 * r[3] / h - 1.0, -0.1))
        return -0.96, 0.96, bottom + 0.03, top - 2.2 * LABEL_NDC

    def frame_goal(self, focus) -> tuple[np.ndarray, float]:
        """The orbit target and distance that frame ``focus`` (model ids; none: the
        whole table) as large as the free part of the frame holds them, for this
        heading and the pitch of 50 degrees: the bases and tops of the models (and
        the least surroundings) fitted exactly to ``frame_window`` in both
        directions, not a bounding sphere against the narrower field of view (that
        left a pair of models across the table a third of the frame)."""
        world = self.world
        if focus:
            hbs = [world.hitbox(m) for m in focus]
            ring = np.linspace(0.0, 2.0 * math.pi, 16, endpoint=False)
            cs, sn = np.cos(ring), np.sin(ring)
            pts = [np.column_stack([hb.x + (hb.radius + self.FRAME_PAD) * cs, hb.y + (hb.radius + self.FRAME_PAD) * sn,
                                    np.full(16, hb.z + dz)]) for hb in hbs for dz in (0.0, hb.height)]
            xy = np.array([[hb.x, hb.y] for hb in hbs])
            mid = (xy.min(axis=0) + xy.max(axis=0)) / 2.0
            z0 = min(hb.z for hb in hbs)
            pts.append(np.column_stack([mid[0] + self.FRAME_MIN_RADIUS * cs, mid[1] + self.FRAME_MIN_RADIUS * sn,
                                        np.full(16, z0)]))
            pts = np.vstack(pts)
        else:
            tw, td = world.table
            pts = np.array([[x, y, 0.0] for x in (0.0, tw) for y in (0.0, td)])
        p_, hd = math.radians(50.0), math.radians(self.cam_heading)
        fwd = np.array([math.sin(hd) * math.cos(p_), math.cos(hd) * math.cos(p_), -math.sin(p_)])
        right = np.array([math.cos(hd), -math.sin(hd), 0.0])
        up = np.array([math.sin(hd) * math.sin(p_), math.cos(hd) * math.sin(p_), math.cos(p_)])
        hfov, vfov = (math.radians(f) / 2.0 for f in self.app.camLens.getFov())
        x0, x1, y0, y1 = self.frame_window()
        x0, x1, y0, y1 = x0 * math.tan(hfov), x1 * math.tan(hfov), y0 * math.tan(vfov), y1 * math.tan(vfov)
        rr, uu, dd = pts @ right, pts @ up, pts @ fwd
        # the camera at c (its coordinates along right, up, and ``back`` behind the
        # points along the view): a point shows inside the window when
        # x0 <= (rr - c_r) / (dd + back) <= x1, and the same upward; the least
        # ``back`` for which some c_r and c_u satisfy every point, in closed form
        back = max((np.max(rr - x1 * dd) - np.min(rr - x0 * dd)) / (x1 - x0),
                   (np.max(uu - y1 * dd) - np.min(uu - y0 * dd)) / (y1 - y0),
                   2.0 - float(np.min(dd)))                                  # in front of the lens
        depth = dd + back
        c_r = (np.max(rr - x1 * depth) + np.min(rr - x0 * depth)) / 2.0
        c_u = (np.max(uu - y1 * depth) + np.min(uu - y0 * depth)) / 2.0
        eye = c_r * right + c_u * up - back * fwd
        dist = float(np.mean(depth))                 # the target at the depth of the framed points
        return eye + fwd * dist, dist

    def model_box(self, mid: str) -> tuple[float, float, float, float] | None:
        """A model's hitbox on screen as the camera stands now (pixels, y up), also
        where the frame's edge cuts it (``app.project`` gives nothing for a point
        off the frame); None when part of it is behind the camera."""
        from panda3d.core import Point3
        app = self.app
        hb = self.world.hitbox(mid)
        w, h = app.size
        tx, ty = (math.tan(math.radians(f) / 2.0) for f in app.camLens.getFov())
        xs, ys = [], []
        for t in np.linspace(0, 2 * math.pi, 12, endpoint=False):
            for dz in (0.0, hb.height):
                p = app.cam.getRelativePoint(app.render, Point3(hb.x + hb.radius * math.cos(t),
                                                                hb.y + hb.radius * math.sin(t), hb.z + dz))
                if p.y <= 1e-6:
                    return None
                xs.append((p.x / (p.y * tx) + 1.0) * w / 2.0)
                ys.append((p.z / (p.y * ty) + 1.0) * h / 2.0)
        return min(xs), min(ys), max(xs), max(ys)

    def models_under_panels(self) -> list[str]:
        """The models on screen (as the camera stands now) that a shown HUD panel
        covers, also those the frame's edge cuts (one at the bottom edge behind the
        banner was taken for off the frame)."""
        rects = self.hud.rects()
        w, h = self.app.size
        out = []
        for m in self.world.model_ids():
            r = self.model_box(m)
            if r is None or r[2] < 0 or r[0] > w or r[3] < 0 or r[1] > h:
                continue                  # off the frame: not under a panel
            if any(min(r[2], q[2]) > max(r[0], q[0]) and min(r[3], q[3]) > max(r[1], q[1]) for q in rects):
                out.append(m)
        return out

    #: the headings tried for a step's shot, degrees from the orbit's own: the
    #: nearest first, and a turn must earn its place (see ``shot_cost``)
    SHOT_TURNS = (0.0, 25.0, -25.0, 50.0, -50.0, 90.0, -90.0, 135.0, -135.0, 180.0)

    def frame_step(self, focus) -> tuple[np.ndarray, float, list[str]]:
        """The orbit target and distance for ``focus`` at the present heading, and
        the models framed: a model that would stand behind a panel is framed with
        them (Norova: the brute and the hexer under the status), and so on until
        none does (else every model is framed)."""
        cam = self.camera
        everyone = list(self.world.model_ids())
        framed = list(focus)
        for _ in everyone:
            goal, dist = self.frame_goal(framed)
            cam.set_orbit(goal, self.cam_heading, 50.0, dist)
            under = [m for m in self.models_under_panels() if m not in framed]
            if not under:
                return goal, dist, framed
            framed += under
        goal, dist = self.frame_goal(everyone)
        return goal, dist, everyone

    def shot_heading(self, focus) -> float:
        """The heading for a step's shot: of the headings ``SHOT_TURNS`` around the
        orbit's, the one whose framing (``frame_step``) shows the step's models
        largest and least hidden by scenery. A single heading left a pair of
        models across the table stacked one behind the other, or framed every
        model because a bystander stood behind the banner, and small bases were
        specks; a wall could stand between the camera and the target."""
        cam = self.camera
        keep = (cam.target.copy(), cam.heading, cam.pitch, cam.distance, self.cam_heading)
        best = None
        try:
            for turn in self.SHOT_TURNS:
                self.cam_heading = (keep[4] + turn) % 360.0
                _, dist, _ = self.frame_step(focus)
                cost = self.shot_cost(dist, turn, self.hidden_share(focus))
                if best is None or cost < best[0] - 1e-9:
                    best = (cost, self.cam_heading)
        finally:
            self.cam_heading = keep[4]
            cam.set_orbit(keep[0], keep[1], keep[2], keep[3])
        return best[1]

    def cinematic(self, dt: float, snap: bool = False) -> None:
        """A slow orbit that drifts toward the model acting now and the models
        it acts on, far enough back to frame them all, from the heading that
        shows them best (``shot_heading``, chosen once a step); ``snap`` goes
        there at once (offscreen frames: each picture shows what its banner says)."""
        cam = self.camera
        if cam.mode == "eye":
            return
        k = 1.0 if snap else 1.0 - math.exp(-dt * 1.2)
        self.cam_heading = (self.cam_heading + dt * 4.0) % 360.0
        focus = [m for m in (self.focus or ()) if m in self.world.model_ids()]
        before = (cam.target.copy(), cam.distance)
        if focus:
            if getattr(self, "_shot", None) is None:
                self._shot = self.shot_heading(focus)
            else:
                self._shot = (self._shot + dt * 4.0) % 360.0
            turn = (self._shot - self.cam_heading + 180.0) % 360.0 - 180.0
            self.cam_heading = (self.cam_heading + turn * k) % 360.0
            goal, dist, _ = self.frame_step(focus)
        else:
            goal, dist = self.frame_goal(list(self.world.model_ids()))
        cam.target, cam.distance = before
        target = cam.target + (goal - cam.target) * k
        distance = cam.distance + (dist - cam.distance) * k
        cam.set_orbit(target, self.cam_heading, 50.0, distance)

    def run_frames(self, frames: int, out_dir: str, *, decisions_per_frame: int = 1, prefix: str = "frame") -> list[str]:
        """Offscreen: one bot decision per frame (and a new game when one ends),
        a PNG per frame. Returns the paths."""
        os.makedirs(out_dir, exist_ok=True)
        paths = []
        # the frame task (tick) must not take steps of its own while these frames are drawn:
        # its clock ran on (0.1 s a frame) and every 16th frame it took a second decision
        # after the camera had framed the first (that step never shown, the camera wrong)
        driven, self.frames_driven = getattr(self, "frames_driven", False), True
        try:
            for i in range(frames):
                for _ in range(decisions_per_frame):
                    if self.game.is_over:
                        if self.over_since is None:
                            # a frame of its own for the result, on the final table
                            self.over_since = self.clock
                            self.show_result()
                            break
                        if self.next_game() is None:
                            break
                    else:
                        self.bot_step()
                self.cinematic(0.5, snap=True)
                self.app.step()
                paths.append(self.app.screenshot(os.path.join(out_dir, f"{prefix}-{i:04d}.png")))
        finally:
            self.frames_driven = driven
        return paths
