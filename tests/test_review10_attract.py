"""Review 10, the attract mode on an event's big screen: each step framed as
large as the free part of the frame holds it (small bases readable), from the
heading that shows the step's models best, none of them behind scenery, and no
model behind a panel, also one that the frame's edge cuts."""
from __future__ import annotations

import math
import os

import numpy as np
import pytest

pytest.importorskip("panda3d")

HERE = os.path.dirname(__file__)
SKIRMISH = os.path.join(HERE, "..", "scenes", "skirmish.yaml")
WARBANDS = os.path.join(HERE, "..", "scenes", "warbands.yaml")
NOROVA = os.path.join(HERE, "..", "scenes", "norova-arena.yaml")


def _attract(view_app, tmp_path, scene=SKIRMISH, game="eldfall", seed=1):
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(scene)
    ctl = AttractController(view_app, world, game_factory(world, game), bots_factory(game, "greedy"),
                            seed=seed, out_dir=str(tmp_path))
    return ctl, world


def _box(app, world, mid):
    """A model's hitbox on screen (pixels, y up) where the frame's edge cuts it too
    (``model_rect`` gives None for those); None when it is behind the camera."""
    from panda3d.core import Point3
    hb = world.hitbox(mid)
    w, h = app.size
    tx, ty = (math.tan(math.radians(f) / 2.0) for f in app.camLens.getFov())
    xs, ys = [], []
    for t in np.linspace(0, 2 * np.pi, 24, endpoint=False):
        for dz in (0.0, hb.height):
            p = app.cam.getRelativePoint(app.render, Point3(hb.x + hb.radius * np.cos(t),
                                                            hb.y + hb.radius * np.sin(t), hb.z + dz))
            if p.y <= 0:
                return None
            xs.append((p.x / (p.y * tx) + 1) * w / 2)
            ys.append((p.z / (p.y * ty) + 1) * h / 2)
    return min(xs), min(ys), max(xs), max(ys)


def _hidden(app, world, mid) -> float:
    """The share of a model's middle axis (five points, base to top) that scenery
    hides from the camera."""
    eye = np.array(app.cam.getPos(app.render))
    hb = world.hitbox(mid)
    pts = np.array([(hb.x, hb.y, hb.z + hb.height * f) for f in (0.1, 0.3, 0.5, 0.7, 0.9)])
    d = pts - eye
    hit, _ = world.rays.first_hit(np.repeat(eye[None], len(pts), axis=0), d)
    return float(np.mean(hit < np.linalg.norm(d, axis=1) - 0.05))


# ------------------------------------------------------------------ 1: small bases large enough
def test_attract_small_base_framed_large_enough(view_app, tmp_path):
    """skirmish, seed 1, decision 23: red-scout (Small base, 25 mm, Crouched)
    shoots at blue-marksman across the table. The camera framed the pair inside
    a sphere against the narrower field of view, never nearer than the whole
    table, and divided by the free share of the frame: red-scout was a speck of
    12 x 10 px at 1280 x 720 (under 1 % of the width). Both models of the step
    are now 2.5 % of the frame's width or more, inside the frame."""
    from view_fixtures import model_rect
    import re
    ctl, world = _attract(view_app, tmp_path)
    try:
        # the first step in which red-scout shoots (decision 23 when the test was written;
        # the bots' play has changed since): the shooter and its target are the step's models
        shot = None
        for i in range(120):
            ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"s{i}")
            shot = re.match(r"red-scout (?:reacts \(\d+ AP left\)|declares): Ranged Attack with Shortbow at ([\w-]+)",
                            ctl.hud.banner.text)
            if shot:
                break
        assert shot, ctl.hud.banner.text
        assert world.hitbox("red-scout").radius * 2 < 1.0                   # a Small base
        w, h = view_app.size
        for m in ("red-scout", shot.group(1)):
            r = model_rect(view_app, world, m)
            assert r is not None, m
            assert r[2] - r[0] >= 0.025 * w, (m, r)
    finally:
        ctl.close()


def test_attract_steps_fill_the_free_part_of_the_frame(view_app, tmp_path):
    """skirmish, seed 1, the first 24 steps: a step with models apart (an attack
    across the table, a move toward the enemy) used a third of the frame (frame 13:
    red-archer and blue-guard between x 44 % and 58 % of the width, and a fifth of
    the height apart). Now the step's models span at least half of the frame's
    width or of its height, inside the frame."""
    ctl, world = _attract(view_app, tmp_path)
    try:
        w, h = view_app.size
        checked = 0
        for i in range(24):
            ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"f{i}")
            focus = [m for m in ctl.focus or () if m in world.model_ids()]
            hbs = [world.hitbox(m) for m in focus]
            if len(hbs) < 2 or max(math.hypot(a.x - b.x, a.y - b.y) for a in hbs for b in hbs) < 12.0:
                continue
            boxes = [_box(view_app, world, m) for m in focus]
            assert all(b is not None and b[0] >= 0 and b[2] <= w and b[1] >= 0 and b[3] <= h for b in boxes), \
                (i, focus, boxes)
            span_x = max(b[2] for b in boxes) - min(b[0] for b in boxes)
            span_y = max(b[3] for b in boxes) - min(b[1] for b in boxes)
            assert span_x >= 0.5 * w or span_y >= 0.5 * h, (i, focus, span_x / w, span_y / h)
            checked += 1
        assert checked >= 8
    finally:
        ctl.close()


# ------------------------------------------------------------------ 2: no model behind a panel
def test_attract_no_model_behind_a_panel_at_the_frame_edge(view_app, tmp_path):
    """A model that the frame's bottom edge cut, standing behind the banner (its
    label above the banner), was taken for off the frame: ``app.project`` gives
    nothing for a point off the frame, so the check for models under the panels
    skipped it. In every frame of the first steps (skirmish and warbands) no
    model's hitbox on screen, cut by the edge or not, shares pixels with a panel
    shown."""
    from view_fixtures import rect_overlap
    w, h = view_app.size
    for scene, n in ((SKIRMISH, 26), (WARBANDS, 16)):
        ctl, world = _attract(view_app, tmp_path, scene)
        try:
            for i in range(n):
                ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"p{i}")
                rects = ctl.hud.rects()
                for m in world.model_ids():
                    r = _box(view_app, world, m)
                    if r is None or r[2] < 0 or r[0] > w or r[3] < 0 or r[1] > h:
                        continue
                    for q in rects:
                        assert rect_overlap(r, q) == 0, (scene, i, m, r, q)
        finally:
            ctl.close()


# ------------------------------------------------------------------ 3: not behind scenery
def test_attract_step_models_not_behind_scenery(view_app, tmp_path):
    """norova-arena, seed 1, decision 30: "ranger attacks hexer (main hand) with
    aimed shot" was filmed along the slow orbit's heading with the hexer wholly
    behind scenery. Over the first 30 steps the step's models are seen: at most
    a fifth of any one's middle axis behind scenery."""
    ctl, world = _attract(view_app, tmp_path, NOROVA, "norova")
    try:
        for i in range(30):
            ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"h{i}")
            for m in ctl.focus or ():
                if m in world.model_ids():
                    assert _hidden(view_app, world, m) <= 0.2, (i, m, ctl.hud.banner.text)
    finally:
        ctl.close()


# ------------------------------------------------------------------ 4: the window's own camera
def test_attract_window_camera_turns_to_the_shot(view_app, tmp_path):
    """In a window (tick, not snapped) the camera drifts to the step's shot: its
    heading, target and distance come within a little of the snapped frame's."""
    ctl, world = _attract(view_app, tmp_path)
    try:
        for _ in range(23):
            ctl.bot_step()
        ctl.cinematic(0.0)                                  # the shot is chosen once for the step
        shot = ctl._shot
        for _ in range(300):
            ctl.cinematic(1 / 30)
        drift = 300 / 30 * 4.0                              # the slow orbit went on meanwhile
        turn = (ctl.cam_heading - (shot + drift) + 180.0) % 360.0 - 180.0
        assert abs(turn) < 1.0, (ctl.cam_heading, shot)
        target, distance = ctl.camera.target.copy(), ctl.camera.distance
        view_app.step()
        w, h = view_app.size
        from view_fixtures import model_rect
        for m in ctl.focus:
            r = model_rect(view_app, world, m)
            assert r is not None and r[0] >= 0 and r[2] <= w, (m, r)
        goal, dist, _ = ctl.frame_step([m for m in ctl.focus if m in world.model_ids()])
        assert np.linalg.norm(target - goal) < 0.05 * dist, (target, goal)
        assert abs(distance - dist) < 0.05 * dist, (distance, dist)
    finally:
        ctl.close()
