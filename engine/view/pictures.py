"""Offscreen pictures for the CLI and the dispute tools.

``los_pictures(world, result, out_dir)`` writes ``eye.png`` (the camera at the
top front of the viewer's hitbox, looking at the target; at the viewer point that saw most
of it when the top front sees none of a target the viewer sees) and ``overview.png``
(both models framed from behind the viewer), with rays green when clear / red
when blocked and the target keeping its side's colour under a visibility band. ``aoe_picture``,
``move_picture``, ``reach_picture`` and ``table_picture`` do the same for
templates, paths, reachable areas and the whole table.

All of them share the process's one ShowBase (``engine.view.app.get_app``):
offscreen when there is no screen, through EGL, else p3tinydisplay. The
table drawn for a world is cached, so a picture pair costs two renders.
"""
from __future__ import annotations

import json
import math
import os
import time

import numpy as np
from panda3d.core import NodePath, TextNode

from engine.view import overlays as ov
from engine.view.app import existing_app, get_app
from engine.view.camera import TableCamera
from engine.view.config import ViewConfig
from engine.view.meshes import TableScene

PICTURE_SIZE = (1280, 720)
PICTURE_SAMPLES = 4        # pictures are single frames: antialias them well
#: what the colours of a LoS picture mean (ov.los_overlay, ov.front_arc_overlay)
LOS_LEGEND = ("rays (some of those cast): green clear, red blocked, white the clear line found; "
              "target points: green seen, red hidden, grey behind the viewer's front arc line (unseen); "
              "the target keeps its side's colour and wears a band, "
              "red (no LoS), amber to green (as more of it shows); white ring: the viewer; "
              "yellow: the viewer's front arc")
#: the legend's last words when the viewer sees all round: no arc is drawn (a half disc the
#: target stands outside of, under "LoS yes", reads as a fault)
ALL_ROUND_LEGEND = "no front arc drawn: the viewer sees all round"
#: the legend's words for the faint outline a Crouched or Dead model wears (meshes: its standing
#: hitbox as a ghost): the rays go to its hitbox, the base; without a word the outline reads as
#: the hitbox the lines missed
GHOST_LEGEND = ("faint outline: a Crouched or Dead model's standing hitbox, not looked at "
                "(its hitbox is its base)")


def ghost_legend(world) -> str:
    """``GHOST_LEGEND`` (with "; " after it: it goes before the legend, which ends the caption)
    when a model on the table wears the faint outline of its standing hitbox (``TableScene``:
    shorter than its size, Crouched or Dead), naming those models (": blue-guard
    (Crouched)"), else ""."""
    who = []
    for mid in world.models:
        hb = world.hitbox(mid)
        if float(hb.full_height) > float(hb.height) + 1e-6:
            low = [x for x in ("Crouched", "Dead", "Incapacitated") if x in set(hb.states)]
            who.append(f"{mid} ({', '.join(low)})" if low else mid)
    if not who:
        return ""
    return GHOST_LEGEND + ": " + ", ".join(who) + "; "


#: what a template picture shows (ov.template_overlay, ov.coverage_colour)
AOE_LEGEND = ("orange: the template (red when illegal), its outline faint where scenery hides it; "
              "models under it keep their side's colour and wear a band, orange (fully) to yellow (touching); "
              "white ring: the main target; "
              "cyan ring: the user; white dot: a circle's centre or a spray's tip")
#: what a move picture shows (ov.path_overlay)
MOVE_LEGEND = ("the route checked: green legal, red not (up to where the model stops), faint where "
               "scenery hides it; white line and cross: the route declared; ring: where it ends; "
               "red X: attack of opportunity; amber dot: enters an enemy's awareness")
#: the target points drawn in a LoS overview (the eye picture draws up to 1500)
OVERVIEW_TARGET_POINTS = 300
SEE_THROUGH_ALPHA = 0.4     # lines drawn again over the scenery that hides them


# ------------------------------------------------------------------ session
class _Stage:
    """The app, the table for one world, a camera and a place for overlays."""

    def __init__(self, world):
        app = existing_app() or get_app(ViewConfig(offscreen=True, width=PICTURE_SIZE[0], height=PICTURE_SIZE[1],
                                                   multisamples=PICTURE_SAMPLES))
        self.app = app
        table = getattr(app, "table_scene", None)
        if table is None or table.world is not world or table.root.isEmpty():
            if table is not None and not table.root.isEmpty():
                table.root.removeNode()
            table = TableScene(world, app.root)
            app.table_scene = table
            app.frame_lights(*world.table)
            app._fresh_shadows = True
        table.sync()
        self.table = table
        self.world = world
        self.camera = getattr(app, "table_camera", None)
        if self.camera is None:
            self.camera = TableCamera(app, world.table)
            app.table_camera = self.camera
        self.camera.table = tuple(world.table)
        self.overlay = app.root.attachNewNode("picture-overlay")
        self.caption_np: NodePath | None = None
        self._saved_cam = (app.camera.getPos(), app.camera.getHpr(), app.camLens.getFov())
        self._hidden: list[NodePath] = []

    def caption(self, text: str, colour=(1, 1, 1, 1)) -> None:
        tn = TextNode("picture-caption")
        tn.setText(text)
        tn.setTextColor(*colour)
        tn.setCardColor(0, 0, 0, 0.72)
        tn.setCardAsMargin(0.4, 0.4, 0.25, 0.2)
        tn.setCardDecal(True)
        aspect = self.app.getAspectRatio()
        tn.setWordwrap((2 * aspect - 0.12) / 0.05)       # long verdicts wrap inside the frame
        np_ = self.app.aspect2d.attachNewNode(tn)
        np_.setScale(0.05)
        np_.setPos(-aspect + 0.04, 0, 0.91)
        self.caption_np = np_

    def hide(self, np_: NodePath) -> None:
        if not np_.isEmpty() and not np_.isHidden():
            np_.hide()
            self._hidden.append(np_)

    def shoot(self, path: str, important=()) -> str:
        """Render and write the frame; the labels are laid out for this camera
        first, clear of the caption and of the models in ``important``."""
        from engine.view.labels import screen_rect
        app = self.app
        caption = screen_rect(app, self.caption_np)
        self.table.layout_labels(app, obstacles=[caption] if caption else [], important=important)
        frames = 2 if getattr(app, "_fresh_shadows", False) else 1
        app._fresh_shadows = False
        for _ in range(frames):
            app.render_frame()
        app.screenshot(path)
        return path

    def close(self) -> None:
        self.overlay.removeNode()
        if self.caption_np is not None:
            self.caption_np.removeNode()
        for np_ in self._hidden:
            np_.show()
        self.table.clear_marks()
        pos, hpr, fov = self._saved_cam
        self.app.camera.setPos(pos)
        self.app.camera.setHpr(hpr)
        self.app.camLens.setFov(fov)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


def _see_through(node: NodePath, parent: NodePath, pattern: str, bin_sort: int = 16) -> NodePath:
    """Copies of ``node``'s lines matching ``pattern`` drawn faint over everything (no depth
    test), under the originals: a template's outline or a route stays visible behind a wall."""
    xray = parent.attachNewNode("see-through")
    for n in node.findAllMatches(pattern):
        n.copyTo(xray)
    ov._overlay(xray, bin_sort, depth=False)
    xray.setAlphaScale(SEE_THROUGH_ALPHA)
    return xray


def _frame(camera: TableCamera, points, heading: float, pitch: float, margin: float = 2.0,
           top: float = 0.0) -> None:
    """Orbit camera around the bounding sphere of ``points``, in the part of the picture
    below the top ``top`` share of its height (the caption's)."""
    p = np.asarray(points, float).reshape(-1, 3)
    lo, hi = p.min(axis=0), p.max(axis=0)
    centre = (lo + hi) / 2.0
    radius = float(np.linalg.norm(hi - lo)) / 2.0 + margin
    hfov, vfov = camera.app.camLens.getFov()[0], camera.app.camLens.getFov()[1]
    distance = max(radius / math.sin(math.radians(min(hfov, vfov)) / 2.0) / (1.0 - top), 6.0)
    camera.set_orbit(centre, heading, pitch, distance)
    if top > 0:
        # look above the centre so that it shows in the middle of the free part
        up = camera.app.camera.getQuat(camera.app.render).getUp()
        shift = top * distance * math.tan(math.radians(vfov) / 2.0)
        camera.set_orbit(centre + shift * np.array([up[0], up[1], up[2]]), heading, pitch, distance)
    _fit(camera, p, margin, top)


def _fit(camera, points, margin: float, top: float, rounds: int = 6) -> None:
    """Close in on ``points`` (each grown by ``margin`` inches) after the bounding-sphere
    frame: the sphere is loose when the points lie along the view (a template and its
    user far behind it), so the camera is moved until the points' box fills the free
    part of the picture (below the caption) with a small border, never farther."""
    app = camera.app
    p = np.asarray(points, float).reshape(-1, 3)
    d = np.array([[dx, dy, dz] for dx in (-margin, margin) for dy in (-margin, margin) for dz in (0.0, margin)])
    box = (p[:, None, :] + d[None]).reshape(-1, 3)
    tx, ty = (math.tan(math.radians(f) / 2.0) for f in app.camLens.getFov())
    lo_y, hi_y = -0.96, 1.0 - 2.0 * top - 0.04                 # the free part, in NDC
    for _ in range(rounds):
        m = app.render.getMat(app.camera)                        # table -> camera
        to_cam = np.array([[m.getCell(i, j) for j in range(4)] for i in range(4)])
        c = np.column_stack([box, np.ones(len(box))]) @ to_cam
        if np.any(c[:, 1] <= 0.5):
            return                                                # something behind the lens: keep the sphere
        u, v = c[:, 0] / (c[:, 1] * tx), c[:, 2] / (c[:, 1] * ty)
        scale = max((u.max() - u.min()) / 1.92, (v.max() - v.min()) / (hi_y - lo_y))
        du, dv = (u.max() + u.min()) / 2.0, (v.max() + v.min()) / 2.0 - (hi_y + lo_y) / 2.0
        if scale >= 0.98 and abs(du) < 0.01 and abs(dv) < 0.01:
            return
        q = app.camera.getQuat(app.render)
        right, up = np.array(q.getRight()), np.array(q.getUp())
        depth = float(camera.distance)
        target = np.asarray(camera.target, float) + right * du * depth * tx + up * dv * depth * ty
        camera.set_orbit(target, camera.heading, camera.pitch, max(depth * min(scale, 1.0) * 1.02, 4.0))


def _caption_share(st: _Stage) -> float:
    """The share of the picture's height, from the top, that the caption covers."""
    from engine.view.labels import screen_rect
    r = screen_rect(st.app, st.caption_np)
    return 0.0 if r is None else float(np.clip(1.0 - r[1] / st.app.size[1], 0.0, 0.6))


def _fmt_len(x) -> str:
    return f'{float(x):.1f}"'


def _g(obj, name, default=None):
    if isinstance(obj, dict):
        return obj.get(name, default)
    return getattr(obj, name, default)


def los_caption(result) -> str:
    from engine.cover import behind_arc, by_state, percent
    v, t = _g(result, "viewer"), _g(result, "target")
    los = bool(_g(result, "los"))
    parts = [f"{v} -> {t}: LoS {'yes' if los else 'NO'}"]
    frac = _g(result, "visible_fraction")
    if frac is not None and los:
        parts.append(f"{percent(float(frac))} visible")      # as `eldfall los` prints it
    cover = _g(result, "cover")
    if cover and cover != "none":
        piece = _g(result, "cover_piece")
        parts.append(f"{str(cover).capitalize()} cover" + (f" from {piece}" if piece else ""))
    elif los and str(_g(result, "cover_reason") or "") not in ("", "no LoS"):
        # decided, not just left out: every reason of a decided "none" ("no scenery within 1"
        # hides ...", "X is Flying: no cover", "no cover: ..."), as `eldfall los` prints it
        parts.append("no cover")
    if _g(result, "distance") is not None:
        from engine.measure import inches      # as `eldfall los` prints it: 20.004" is not "20.0""
        parts.append(f"{inches(float(_g(result, 'distance')), 1)}\" away")
    dh = _g(result, "height_difference")
    if dh is not None and abs(float(dh)) >= 0.05:
        parts.append(f"{_fmt_len(abs(float(dh)))} {'higher' if float(dh) > 0 else 'lower'}")
    line = ", ".join(parts)
    extra = []
    if _g(result, "in_front_arc") is False and not _g(result, "all_round"):
        extra.append("target outside the front arc")
    back = behind_arc(result)
    if back > 0 and _g(result, "in_front_arc") and not by_state(result):
        # what nothing blocks but still counts as unseen (the red points in front of no wall)
        extra.append(f"{percent(back)} of it behind {v}'s front arc line (counted unseen)")
    blocking = _g(result, "blocking") or ()
    if blocking:
        # LoS by a state (Flying, Engaged) with nothing of the target seen: wholly hidden
        seen = los and float(_g(result, "visible_fraction") or 0.0) > 0
        extra.append(("partly hidden by " if seen else "blocked by ") + ", ".join(map(str, blocking)))
    reason = _g(result, "reason")
    if reason and reason not in ("clear", "blocked"):
        extra.append(str(reason))
    return line + ("\n" + "; ".join(extra) if extra else "")


def los_detail(result) -> str | None:
    """The caption's line under the verdict of a LoS picture: with LoS, the cover, its piece
    and why, in the words `eldfall los` prints (engine.cover.cover_line); None without LoS.
    The one source of it for `eldfall los --picture`, `eldfall demo` and the view's F12."""
    if not _g(result, "los"):
        return None
    from engine.cover import cover_line
    return cover_line(result)


_DETAIL = object()


def picture_eye(world, result) -> tuple[np.ndarray, str | None]:
    """Where the eye view's camera stands, and a caption line when it is not the usual place.

    The top front of the viewer's hitbox (``TableCamera.eye_point``), unless the viewer has
    LoS, part of the target is seen, and that point sees none of the target (terrain and
    other models in the way, as the LoS counts them): the target is then seen only from
    lower or side points of the viewer's hitbox (round the end of a wall), and a picture from
    the top front would show it wholly hidden under "LoS yes". The camera then stands at the
    viewer point that saw most of it (``result.eye``, the point cover is judged from)."""
    viewer, target = _g(result, "viewer"), _g(result, "target")
    hv = world.hitbox(viewer)
    top = TableCamera.eye_point(hv)
    seen = _g(result, "target_visible")
    if (not _g(result, "los") or viewer == target or seen is None or not np.asarray(seen).any()
            or _g(result, "eye") is None):
        return top, None
    from engine import sight
    s = _g(result, "settings")
    s = s if isinstance(s, sight.SightSettings) else None       # (a result's dict carries none)
    if sight.point_los(world, top, target, exclude=(viewer,), settings=s, raise_by=0.0)[1] > 0:
        return top, None
    eye = np.asarray(_g(result, "eye"), float)
    return eye, (f"eye view from ({eye[0]:.2f}, {eye[1]:.2f}, {eye[2]:.2f}), the point of {viewer}'s hitbox "
                 f"that sees most of {target}: the top front of its hitbox sees none of it")


# ------------------------------------------------------------------ LoS
def los_pictures(world, result, out_dir: str, *, names=("eye.png", "overview.png"),
                 detail=_DETAIL) -> list[str]:
    """The dispute picture pair for a LoS verdict; returns the two paths. ``detail``: lines
    added under the verdict (default: ``los_detail``, the cover and why; None: none)."""
    if detail is _DETAIL:
        detail = los_detail(result)
    os.makedirs(out_dir, exist_ok=True)
    viewer, target = _g(result, "viewer"), _g(result, "target")
    hv, ht = world.hitbox(viewer), world.hitbox(target)
    los = bool(_g(result, "los"))
    band = ov.visibility_colour(_g(result, "visible_fraction"), los)
    paths = []
    with _Stage(world) as st:
        # the target keeps its side's colour (a player sees whose model it is) and wears
        # a band in the visibility colour, as in the live view (``TableScene.mark``)
        st.table.mark(target, band, collar=st.table.TARGET_COLLAR)
        st.table.highlight(viewer, (1, 1, 1, 0.9))
        # a verdict that looked at no line (a state's "no"; a target wholly behind the front
        # arc line) has no ray to draw: red rays across open ground would read "blocked", and
        # a state's unseen points drawn red "hidden"
        from engine.cover import by_state, no_line_looked_at
        unlooked = no_line_looked_at(result)
        show_points = not by_state(result)

        def drop_rays(node):
            if unlooked:
                for n in node.findAllMatches("**/los-rays"):
                    n.removeNode()
            return node
        rays = drop_rays(ov.los_overlay(world, result, points=show_points))
        rays.reparentTo(st.overlay)
        caption = los_caption(result)
        all_round = bool(_g(result, "all_round"))
        legend = LOS_LEGEND.replace("yellow: the viewer's front arc", ALL_ROUND_LEGEND) if all_round else LOS_LEGEND
        if unlooked:
            legend = legend.replace("rays (some of those cast): green clear, red blocked, white the clear line found; ",
                                    f"no rays drawn: no line was looked at ({unlooked}); ")
        if not show_points:
            legend = legend.replace("target points: green seen, red hidden, grey behind the viewer's front arc "
                                    "line (unseen); ", "")
        legend = ghost_legend(world) + legend
        # eye view: from the top front of the viewer's hitbox, at the target; when that point
        # sees nothing of what the viewer sees, from the viewer point that saw most
        eye, eye_note = picture_eye(world, result)
        st.caption(caption + (f"\n{detail}" if detail else "") + (f"\n{eye_note}" if eye_note else "")
                   + "\n" + legend, ov.GREEN if los else ov.RED)
        aim = np.array([ht.x, ht.y, ht.z + ht.height / 2.0])
        dist = float(np.linalg.norm(aim - eye))
        span = max(float(ht.height), 2.0 * float(ht.radius)) * 4.0
        vfov = float(np.clip(math.degrees(2 * math.atan2(span / 2.0, max(dist, 0.1))), 18.0, 60.0))
        aspect = st.app.getAspectRatio()
        st.app.camLens.setFov(math.degrees(2 * math.atan(math.tan(math.radians(vfov) / 2) * aspect)), vfov)
        st.camera.look(eye, aim)
        st.hide(st.table.models[viewer])
        for mid, lbl in st.table.label_nodes.items():
            if mid != target:          # labels draw through walls: in the eye view only the target's
                st.hide(lbl)
        st.hide(st.table.tokens.labels_root)
        if not all_round:
            arc = ov.front_arc_overlay(hv, radius=float(np.clip(dist * 0.5, 3.0, 8.0)))
            arc.reparentTo(st.overlay)
        paths.append(st.shoot(os.path.join(out_dir, names[0])))
        # overview: from behind and above the viewer, both framed
        st.app.camLens.setFov(50)
        for np_ in st._hidden:
            np_.show()
        st._hidden.clear()
        # the overview frames the whole line, so the target is small in it: fewer, smaller
        # target points, or they would cover it (its side's colour, its band) entirely
        rays.removeNode()
        drop_rays(ov.los_overlay(world, result, max_points=OVERVIEW_TARGET_POINTS, point_size=2.0,
                                 points=show_points)).reparentTo(st.overlay)
        dx, dy = ht.x - hv.x, ht.y - hv.y
        heading = math.degrees(math.atan2(dx, dy)) if (dx or dy) else 0.0
        pts = [hv.center, hv.center + [0, 0, hv.height], ht.center, ht.center + [0, 0, ht.height]]
        _frame(st.camera, pts, heading, 52.0, margin=3.0, top=_caption_share(st))
        paths.append(st.shoot(os.path.join(out_dir, names[1])))
    return paths


def dispute_folder(world, result, out_dir: str, extra: dict | None = None) -> dict:
    """F12: the picture pair and the JSON verdict in ``out_dir``."""
    os.makedirs(out_dir, exist_ok=True)
    pics = los_pictures(world, result, out_dir)
    verdict = result.as_dict() if hasattr(result, "as_dict") else result.to_json() if hasattr(result, "to_json") else {
        k: _g(result, k) for k in ("viewer", "target", "los", "visible_fraction", "in_front_arc",
                                   "distance", "height_difference", "cover", "cover_piece", "blocking")}
    verdict = json.loads(json.dumps(verdict, default=_jsonable))
    verdict.setdefault("scene", getattr(world.scene, "path", ""))
    verdict.setdefault("scene_sha256", getattr(world.scene, "sha256", ""))
    # what else the verdict depends on, as `eldfall los --json` gives it: the party files the
    # profiles (sizes, traits) come from and the sight settings used
    from tools.cmd_los import party_files
    verdict.setdefault("parties", party_files(world.scene))
    settings = _g(result, "settings")
    if hasattr(settings, "as_dict"):
        verdict.setdefault("settings", settings.as_dict())
    verdict["pictures"] = [os.path.basename(p) for p in pics]
    verdict["summary"] = los_caption(result).replace("\n", "; ")
    # every model on the table as it stands now, not only the two: in a game the models have
    # moved from where the scene file put them, and one in the way (or crouched, or gone)
    # changes the verdict; the scene's SHA-256 pins only where they started
    pair = (_g(result, "viewer"), _g(result, "target"))
    verdict["positions"] = {mid: {"x": world.hitbox(mid).x, "y": world.hitbox(mid).y, "z": world.hitbox(mid).z,
                                  "facing": world.hitbox(mid).facing,
                                  "states": sorted(world.hitbox(mid).states)}
                            for mid in dict.fromkeys(pair + tuple(world.model_ids()))}
    if extra:
        verdict.update(extra)
    with open(os.path.join(out_dir, "verdict.json"), "w", encoding="utf-8") as fh:
        json.dump(verdict, fh, indent=2, sort_keys=True)
    return verdict


def _jsonable(o):
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    if hasattr(o, "to_json"):
        return o.to_json()
    return str(o)


# ------------------------------------------------------------------ templates
def aoe_caption(result) -> str:
    """The caption of a template picture when the caller gives none."""
    legal = bool(_g(result, "legal", True))
    hits = ", ".join(f"{h.id}" + (f" x{h.count}" if getattr(h, "count", 1) > 1 else "")
                     + ("" if getattr(h, "full", True) else f" ({100 * h.covered_fraction:.1f}%)")
                     for h in (_g(result, "affected") or ()))
    # the main targets: one per template when the Strikes are shared (tools.cmd_aoe.SeveralResult)
    targets = list(dict.fromkeys(_g(result, "targets") or ([_g(result, "target")] if _g(result, "target") else [])))
    text = f"{_g(result, 'template')}" + (f" on {', '.join(targets)}" if targets else "") \
        + f": {'legal' if legal else 'ILLEGAL'}"
    if _g(result, "reason"):
        text += f" ({_g(result, 'reason')})"
    return text + "\naffected: " + (hits or "none")


def aoe_picture(world, result, out_dir: str, name: str = "aoe.png", *, caption: str | None = None,
                frame=()) -> str:
    """The template(s) on the table, the models under them tinted, the main target(s) and the
    user ringed; ``caption`` (default ``aoe_caption``) above the legend; the models in ``frame``
    (those the caption names) framed with the affected ones. Several templates: each has its
    centre or tip dot and its number as the text counts them; when each is judged for its own
    main target (``per``, ``targets``: tools.cmd_aoe.SeveralResult) each is coloured by its own
    verdict and every main target is ringed."""
    os.makedirs(out_dir, exist_ok=True)
    outlines = list(_g(result, "outlines") or ())
    placements = list(_g(result, "placements") or ())
    per = list(_g(result, "per") or ())
    legal = bool(_g(result, "legal", True))
    with _Stage(world) as st:
        for k, poly in enumerate(outlines):
            pl = placements[k] if k < len(placements) else None
            own = bool(_g(per[k], "legal", legal)) if k < len(per) else legal
            one = {"outlines": [poly], "placements": [pl] if pl is not None else [],
                   "origin": pl.origin if pl is not None else None, "legal": own}
            tmpl = ov.template_overlay(one)
            tmpl.setName(f"aoe-template-{k + 1}")
            tmpl.reparentTo(st.overlay)
            _see_through(tmpl, st.overlay, "**/template-edge-*")
            if len(outlines) > 1 and pl is not None:
                o = pl.origin
                if pl.kind == "spray":          # by its wide end: the tips meet at the user's base
                    a = math.radians(pl.angle)
                    reach = pl.spec.length - pl.spec.wide / 2.0
                    o = (pl.apex[0] + reach * math.cos(a), pl.apex[1] + reach * math.sin(a), pl.surface)
                colour = (1.0, 0.8, 0.4, 1.0) if own else (1.0, 0.35, 0.35, 1.0)
                tag = ov.label_at(f"template {k + 1}", (o[0], o[1], o[2] + 0.6), colour, 0.45)
                tag.setName(f"aoe-template-label-{k + 1}")
                ov.floating(tag, np.asarray(o, float)[None], 1.5, 0.9)
                ov._overlay(tag, 24, depth=False).reparentTo(st.overlay)
        affected = {h.id: h for h in (_g(result, "affected") or ())}
        for mid, hit in affected.items():
            st.table.mark(mid, ov.coverage_colour(hit))      # the side colour stays: whose model is hit
        targets = list(dict.fromkeys(_g(result, "targets")
                                     or ([_g(result, "target")] if _g(result, "target") else [])))
        for target in targets:
            st.table.highlight(target, (1, 1, 1, 0.9))
        user = _g(result, "user")
        if user:
            st.table.highlight(user, (0.4, 0.9, 1.0, 0.9))
        legend = AOE_LEGEND
        if len(targets) > 1:
            legend = legend.replace("white ring: the main target;", "white ring: each main target;")
        if len(outlines) > 1:
            legend += ("; \"template k\": the templates as the text numbers them"
                       + (", each orange or red by its own verdict" if per else ""))
        st.caption((caption or aoe_caption(result)) + "\n" + legend, (1, 0.8, 0.4, 1) if legal else ov.RED)
        pts = [np.array([x, y, 0.0]) for poly in outlines for x, y in poly]
        # the user too (a circle's caster may stand far off: the picture shows who uses it)
        for mid in list(affected) + targets + ([user] if user else []) + list(frame):
            hb = world.hitbox(mid)
            pts.append(hb.center)
        if not pts:
            pts = [np.array([0, 0, 0]), np.array([*world.table, 0])]
        origin = placements[0].origin if placements else _g(result, "origin")
        heading = 0.0
        if user and origin is not None:
            hu = world.hitbox(user)
            heading = math.degrees(math.atan2(origin[0] - hu.x, origin[1] - hu.y))
        # a user far behind its template: seen from lower, the long view stays large
        far = bool(user and origin is not None and np.hypot(origin[0] - hu.x, origin[1] - hu.y) > 10.0)
        _frame(st.camera, pts, heading, 45.0 if far else 62.0, margin=3.0, top=_caption_share(st))
        return st.shoot(os.path.join(out_dir, name), important=targets + ([user] if user else []))


# ------------------------------------------------------------------ movement
def _path_points(result) -> np.ndarray:
    for name in ("path", "sampled_path", "points", "route", "waypoints"):
        p = _g(result, name)
        if p is not None and len(p):
            return np.asarray(p, float).reshape(-1, 3)
    end = _g(result, "end")
    return np.asarray([end], float) if end is not None else np.zeros((0, 3))


def move_picture(world, result, out_dir: str, name: str = "move.png", waypoints=None, *,
                 caption: str | None = None) -> str:
    """The path the engine checked (green legal / red not), the declared
    waypoints as a white line ending in a cross when given (both framed),
    opportunity points, the end; the enemies whose reach or awareness the route
    enters are framed too. ``caption`` (default: the verdict, the distance and
    the points of the route) goes above the legend."""
    os.makedirs(out_dir, exist_ok=True)
    declared = []
    with _Stage(world) as st:
        if waypoints is not None and len(waypoints) and _g(result, "model"):
            hb0 = world.hitbox(_g(result, "model"))
            wp = [np.array([hb0.x, hb0.y, hb0.z])]
            for q in waypoints:
                q = list(map(float, q))
                wp.append(np.array([q[0], q[1], q[2] if len(q) > 2 else float(world.stand_z(q[0], q[1], hb0.radius, near_z=hb0.z + hb0.height))]))
            wp = np.asarray(wp) + [0, 0, 0.05]
            from engine.view.meshes import lines_node
            ov._overlay(lines_node("declared", np.stack([wp[:-1], wp[1:]], 1), (1, 1, 1, 0.9), 3.0)).reparentTo(st.overlay)
            # the declared end: a white cross on the table, in the frame
            e, c = wp[-1], 0.35
            cross = np.array([[e - [c, c, 0], e + [c, c, 0]], [e - [c, -c, 0], e + [c, -c, 0]]])
            ov._overlay(lines_node("declared-end", cross, (1, 1, 1, 0.95), 3.0)).reparentTo(st.overlay)
            declared = list(wp)
        model = _g(result, "model")
        pts = _path_points(result)
        if model and len(pts) and world.hitbox(model) is not None:
            hb = world.hitbox(model)
            start = np.array([hb.x, hb.y, hb.z])
            if np.linalg.norm(pts[0] - start) > 1e-6:
                pts = np.vstack([start, pts])
        legal = bool(_g(result, "legal", True))
        opp = []
        for o in (_g(result, "opportunity_points") or ()):
            opp.append(_g(o, "at") if not isinstance(o, (tuple, list)) else o[1])
        aw = []
        for o in (_g(result, "awareness_points") or ()):
            aw.append(_g(o, "at") if not isinstance(o, (tuple, list)) else o[1])
        dist, allow = _g(result, "distance"), _g(result, "allowance")
        label = f"{float(dist):.2f}\" / {float(allow):.2f}\"" if dist is not None and allow is not None else None
        route = ov.path_overlay(pts, legal, opportunity=[p for p in opp if p is not None],
                                awareness=[p for p in aw if p is not None], end=_g(result, "end"), label=label)
        route.reparentTo(st.overlay)
        _see_through(route, st.overlay, "**/+GeomNode")
        if model:
            st.table.highlight(model, (1, 1, 1, 0.9))
        text = f"{model} {_g(result, 'mode', '')}: {'legal' if legal else 'ILLEGAL'}"
        if _g(result, "reason"):
            text += f" - {_g(result, 'reason')}"
        if label:
            text += f"\ndistance {label}"
        falls = _g(result, "falls") or ()
        if falls:
            text += "; falls: " + ", ".join(f"{_g(f, 'height', 0):.1f}\" ({_g(f, 'rolls', 0)} AG rolls)" for f in falls)
        if opp:
            text += f"; {len(opp)} opportunity point(s)"
        st.caption((caption or text) + "\n" + MOVE_LEGEND, ov.GREEN if legal else ov.RED)
        frame_pts = (list(pts) + declared) if len(pts) or declared else [np.array([0, 0, 0])]
        enemies = {_g(o, "enemy") if not isinstance(o, (tuple, list)) or hasattr(o, "enemy") else o[0]
                   for o in list(_g(result, "opportunity_points") or ()) + list(_g(result, "awareness_points") or ())}
        frame_pts += [world.hitbox(e).center for e in sorted(m for m in enemies if m in world.models)]
        _frame(st.camera, frame_pts, 0.0, 60.0, margin=4.0, top=_caption_share(st))
        return st.shoot(os.path.join(out_dir, name))


def reach_arrays(grid):
    """(points (n,3), cost (n,), allowance) from a reachable-area result
    (``engine.motion.ReachGrid``: levels x ny x nx arrays; or flat arrays)."""
    end_ok, cost3 = _g(grid, "end_ok"), _g(grid, "cost")
    if isinstance(cost3, np.ndarray) and cost3.ndim == 3 and isinstance(end_ok, np.ndarray):
        lim = float(_g(grid, "allowance"))
        k, i, j = np.nonzero(end_ok & (cost3 <= lim + 1e-9))
        r = float(_g(grid, "resolution"))
        pts = np.column_stack([(j + 0.5) * r, (i + 0.5) * r, np.asarray(_g(grid, "z"))[k, i, j]])
        return pts, cost3[k, i, j], lim
    pts = None
    for name in ("points", "cells", "positions"):
        v = _g(grid, name)
        if callable(v):
            v = v()
        if v is not None:
            pts = np.asarray(v, float).reshape(-1, 3)
            break
    cost = _g(grid, "cost")
    if cost is None:
        cost = _g(grid, "costs")
    if callable(cost):
        cost = cost()
    if pts is None and _g(grid, "xy") is not None:
        pts = np.hstack([np.asarray(_g(grid, "xy"), float), np.asarray(_g(grid, "z"), float)[:, None]])
    if pts is None:
        pts = np.zeros((0, 3))
    if cost is not None:
        cost = np.asarray(cost, float).reshape(-1)
        if len(cost) != len(pts):
            cost = None
    return pts, cost, _g(grid, "allowance")


def reach_picture(world, grid, out_dir: str, name: str = "reach.png") -> str:
    """A top-down picture of the reachable area."""
    os.makedirs(out_dir, exist_ok=True)
    pts, cost, allowance = reach_arrays(grid)
    cell = float(_g(grid, "resolution", None) or _g(grid, "cell", None) or 0.25)
    with _Stage(world) as st:
        ov.reach_overlay(pts, cost, allowance, cell).reparentTo(st.overlay)
        model = _g(grid, "model")
        if model:
            st.table.highlight(model, (1, 1, 1, 0.9))
        area = len(pts) * cell * cell
        top = float(allowance) if allowance else (float(np.max(cost)) if cost is not None and len(cost) else 0.0)
        st.caption(f"{model} {_g(grid, 'mode', '')}: reachable {len(pts)} cells of {cell:g}\" "
                   f"(~{area:.0f} sq in)" + (f", allowance {float(allowance):.1f}\"" if allowance else "")
                   + (f", dearest {float(np.max(cost)):.2f}\"" if cost is not None and len(cost) else "")
                   + (f"\ncells by the movement they cost: cyan 0\" to blue {top:.1f}\""
                      + (" (the allowance)" if allowance else "") if cost is not None and len(cost) else "")
                   + (f"; {model} ringed white" if model else ""))
        if len(pts):
            hb = world.hitbox(model) if model else None
            frame_pts = list(pts[:, :3]) + ([hb.center] if hb is not None else [])
            lo, hi = np.min(frame_pts, axis=0), np.max(frame_pts, axis=0)
            st.camera.set_orbit((lo + hi) / 2.0, 0.0, 89.9, 1.0)
            _frame(st.camera, [lo, hi], 0.0, 89.9, margin=2.0, top=_caption_share(st))
        else:
            st.camera.top_view()
        return st.shoot(os.path.join(out_dir, name))


def table_picture(world, path: str, *, top: bool = False, caption: str | None = None,
                  tokens=None) -> str:
    """The whole table (overview or top view). The tokens drawn are the
    scene's, or those last given to the table; ``tokens`` (a game's
    ``game.tokens.values()``, TokenSpecs or dicts) replaces them."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with _Stage(world) as st:
        if tokens is not None:
            st.table.tokens.set(tokens)
        if top:
            st.camera.top_view()
        else:
            st.camera.reset()
        if caption:
            st.caption(caption)
        return st.shoot(path)


def caption_rgb(rgb, text: str, colour=(255, 255, 255), px: int = 16) -> np.ndarray:
    """A copy of an (h, w, 3) uint8 picture with ``text`` on a dark band above
    it, the lines wrapped to the width: the caption the 3D pictures carry,
    for a picture drawn without them (``eldfall reach``'s ``reach-top.png``).
    Drawn with Panda3D's own font rasterised in memory: no window needed."""
    from panda3d.core import TextProperties
    rgb = np.asarray(rgb, dtype=np.uint8)
    h, w = rgb.shape[:2]
    font = TextProperties.getDefaultFont().makeCopy()      # the shared default keeps its settings
    font.setPixelsPerUnit(px)
    margin = px // 2

    def glyph(ch):
        g = font.getGlyph(ord(ch))
        return g if g is not None else font.getGlyph(ord("?"))

    lines = []
    for para in str(text).split("\n"):
        line = ""
        for word in para.split(" "):
            trial = f"{line} {word}" if line else word
            if line and sum(glyph(c).getAdvance() for c in trial) * px > w - 2 * margin:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    step = int(round(font.getLineHeight() * px))
    band = np.zeros((step * len(lines) + 2 * margin, w, 3), float)
    band[:] = (20, 22, 26)
    ink = np.asarray(colour, float)
    for n, line in enumerate(lines):
        pen = float(margin)
        base = margin + n * step + 0.8 * step              # the baseline, rows from the top
        for ch in line:
            g = glyph(ch)
            page = g.getPage()
            if page is not None and g.getRight() > g.getLeft():
                pw, ph = page.getXSize(), page.getYSize()
                alpha = np.frombuffer(bytes(page.getRamImageAs("A")), np.uint8).reshape(ph, pw)
                u0, u1 = int(round(g.getUvLeft() * pw)), int(round(g.getUvRight() * pw))
                v0, v1 = int(round(g.getUvBottom() * ph)), int(round(g.getUvTop() * ph))
                a = alpha[v0:v1, u0:u1][::-1] / 255.0             # texture rows run bottom-up
                x0 = int(round(pen + g.getLeft() * px))
                y0 = int(round(base - g.getTop() * px))
                ys, xs = slice(max(y0, 0), min(y0 + a.shape[0], band.shape[0])), \
                    slice(max(x0, 0), min(x0 + a.shape[1], w))
                a = a[ys.start - y0:ys.stop - y0, xs.start - x0:xs.stop - x0, None]
                band[ys, xs] = band[ys, xs] * (1 - a) + ink * a
            pen += g.getAdvance() * px
    return np.vstack([band.astype(np.uint8), rgb])


def timed(fn, *a, **kw):
    t0 = time.perf_counter()
    out = fn(*a, **kw)
    return out, time.perf_counter() - t0
