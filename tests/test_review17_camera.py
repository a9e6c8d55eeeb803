"""Review 17, the hotseat camera and scenery (a README Known gap).

The hotseat camera moved a step's models out from under the panels and the frame's
edge, but not from behind scenery: red-champion activated behind a tall wall stayed
wholly hidden from the player's view. When a step begins and scenery hides one of
its models wholly (rays from the camera to its hitbox), the camera swings as little
as shows it (heading, pitch, scored as the attract mode scores its shots), then off
the panels; a step whose models are in view leaves the camera where it is.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

pytest.importorskip("panda3d")

from view_fixtures import model_rect, open_scene, rect_overlap  # noqa: E402

WALL = """
name: Behind the wall
games: [eldfall]
table: [24, 24]
deployment:
  red: [[0, 0], [24, 4]]
  blue: [[0, 20], [24, 24]]
terrain:
  - {id: tall-wall, shape: box, at: [12, 14.5, 0], size: [12, 1, 6]}
models:
  - {id: red-champion,  side: red,  profile: sample-red#champion,  at: [12, 16.5], facing: 90}
  - {id: red-archer,    side: red,  profile: sample-red#archer,    at: [6, 8],     facing: 90}
  - {id: blue-warden,   side: blue, profile: sample-blue#warden,   at: [12, 22],   facing: 270}
  - {id: blue-marksman, side: blue, profile: sample-blue#marksman, at: [6, 21],    facing: 270}
"""


@pytest.fixture
def wall(view_app, tmp_path):
    """The wall table, red to activate a model; the camera not kept until the test says."""
    c = open_scene(view_app, tmp_path, WALL, seed=3)
    c.KEEP_IN_VIEW = False
    c.apply(c.game.parse_action("order blue second"))
    assert c.game.pending == ("tactical", "red")
    yield c
    c.close()


def _seen(c, mid) -> int:
    """How many points of ``mid``'s hitbox (its side facing the camera, its top) the
    camera sees past the scenery: rays from where the camera stands."""
    app, hb = c.app, c.world.hitbox(mid)
    eye = np.array(tuple(app.camera.getPos(app.render)), float)
    pts = []
    for t in np.linspace(0.0, 2.0 * math.pi, 24, endpoint=False):
        n = np.array([math.cos(t), math.sin(t), 0.0])
        for f in (0.1, 0.3, 0.5, 0.7, 0.9):
            p = np.array([hb.x, hb.y, hb.z + hb.height * f]) + 0.99 * hb.radius * n
            if n @ (eye - p) > 0:
                pts.append(p)
        pts.append(np.array([hb.x, hb.y, hb.z + 0.99 * hb.height]) + 0.5 * hb.radius * n)
    pts = np.array(pts)
    d = pts - eye
    hit, _ = c.world.rays.first_hit(np.repeat(eye[None], len(pts), axis=0), d)
    return int(np.sum(hit >= np.linalg.norm(d, axis=1) - 0.02))


def _clear(c, mid) -> bool:
    """``mid`` whole in the frame and under no shown panel."""
    w, h = c.app.size
    r = model_rect(c.app, c.world, mid)
    return r is not None and r[0] >= 0 and r[1] >= 0 and r[2] <= w and r[3] <= h and \
        not any(rect_overlap(r, q) for q in c.hud.rects())


def _view(cam):
    return (*cam.target, cam.heading, cam.pitch, cam.distance, cam.mode)


def test_a_model_activated_behind_a_tall_wall_is_shown(view_app, wall):
    c, cam = wall, wall.camera
    cam.reset()                                    # the window's view: from the south, over the wall
    view_app.step()
    assert _seen(c, "red-champion") == 0, "the case: the wall hides red-champion wholly"
    c.KEEP_IN_VIEW = True
    c.apply(c.game.parse_action("activate red-champion"))
    view_app.step()
    assert "red-champion" in c.step_models()
    assert cam.mode == "orbit"
    assert _seen(c, "red-champion") > 0
    for m in c.step_models():
        assert _seen(c, m) > 0, m
        assert _clear(c, m), (m, model_rect(c.app, c.world, m), c.hud.rects())
    # between steps the camera is the player's: put back behind the wall, it stays
    cam.reset()
    c.refresh()
    view_app.step()
    assert _seen(c, "red-champion") == 0


def test_a_step_whose_models_are_in_view_keeps_the_camera(view_app, wall):
    c, cam = wall, wall.camera
    cam.set_orbit((12.0, 14.0, 0.0), 180.0, 55.0, 40.0)   # from the north: red-champion in plain view
    view_app.step()
    before = _view(cam)
    c.KEEP_IN_VIEW = True
    c.apply(c.game.parse_action("activate red-champion"))
    view_app.step()
    focus = c.step_models()
    assert "red-champion" in focus
    assert all(_seen(c, m) > 0 and _clear(c, m) for m in focus), focus
    assert _view(cam) == before


def test_the_swing_is_the_least_that_shows_the_model(view_app, wall):
    """Of the swings that show red-champion, the one taken scores best (the attract
    mode's ``shot_cost``); no swing the scoring prefers was passed over."""
    from engine.view.camera import TableCamera
    c, cam = wall, wall.camera
    cam.reset()
    view_app.step()
    keep = (cam.target.copy(), cam.heading, cam.pitch, cam.distance)
    assert c.move_from_behind_scenery(["red-champion"])
    taken = (cam.heading, cam.pitch)
    assert taken != keep[1:3] and c.behind_scenery(["red-champion"]) == []

    def cost(view):
        cam.set_orbit(keep[0], *view, keep[3])
        if c.behind_scenery(["red-champion"]):
            return math.inf
        return c.shot_cost(keep[3], TableCamera.swing(keep[1:3], view), c.hidden_share(["red-champion"]))
    best = cost(taken)
    for dh in (-45.0, -30.0, -15.0, 15.0, 30.0, 45.0):
        for dp in (-10.0, 0.0, 10.0, 20.0):
            assert cost(((keep[1] + dh) % 360.0, keep[2] + dp)) >= best - 1e-9, (dh, dp, taken)
