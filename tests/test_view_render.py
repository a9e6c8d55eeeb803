"""The view offscreen: picking through the lens, and colours in a rendered frame."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("panda3d")

from view_fixtures import small_world, stage_table  # noqa: E402


@pytest.fixture(scope="module")
def stage(view_app):
    world = small_world()
    table, cam = stage_table(view_app, world)
    yield view_app, world, table, cam
    table.root.removeNode()
    view_app.table_scene = None


def _centre_pixel(app, hb):
    return app.project((hb.x, hb.y, hb.z + hb.height * 0.6))


@pytest.mark.parametrize("view", ["reset", "top"])
def test_picking_a_model_centre_returns_its_id(stage, view):
    from engine.view.picking import pick
    app, world, table, cam = stage
    getattr(cam, "reset" if view == "reset" else "top_view")()
    app.step()
    for mid in world.model_ids():
        px = _centre_pixel(app, world.hitbox(mid))
        assert px is not None
        hit = pick(app, world, pixel=px)
        assert hit.kind == "model" and hit.id == mid, (mid, px, hit)


def test_picking_the_table_and_terrain(stage):
    from engine.view.picking import pick, pick_point
    app, world, table, cam = stage
    cam.top_view()
    app.step()
    hit = pick(app, world, pixel=app.project((4.0, 30.0, 0.0)))
    assert hit.kind == "table"
    assert hit.point == pytest.approx((4.0, 30.0, 0.0), abs=0.1)
    hit = pick(app, world, pixel=app.project((18.0, 14.0, 3.0)))      # top of wall-1
    assert (hit.kind, hit.id) == ("terrain", "wall-1")
    assert hit.point[2] == pytest.approx(3.0, abs=1e-3)
    # a ray that misses the table entirely (the corner of the picture, looking past it)
    cam.set_orbit((18, 18, 0), 0.0, 8.0, 60.0)
    app.step()
    assert pick_point(app, world, (0.0, 0.99)) is None


def _mean_colour(frame, px, radius=2):
    x, y = int(round(px[0])), int(round(px[1]))
    patch = frame[max(0, y - radius):y + radius + 1, max(0, x - radius):x + radius + 1].reshape(-1, 3)
    return patch.astype(float).mean(axis=0)


def test_frame_has_side_colours_where_the_models_are(stage):
    app, world, table, cam = stage
    cam.top_view()
    table.labels_root.hide()            # labels would cover the tops
    app.step(2)
    frame = app.frame_array()
    assert frame.shape == (app.size[1], app.size[0], 3)
    for mid in world.model_ids():
        hb = world.hitbox(mid)
        # a point on the top, off the facing marker (behind the centre)
        f = np.radians(hb.facing)
        p = (hb.x - 0.55 * hb.radius * np.cos(f), hb.y - 0.55 * hb.radius * np.sin(f), hb.z + hb.height)
        r, g, b = _mean_colour(frame, app.project(p))
        if hb.side == "red":
            assert r > 120 and r > g + 60 and r > b + 60, (mid, r, g, b)
        else:
            assert b > 120 and b > r + 60 and b > g + 20, (mid, r, g, b)
    # the open table is green-grey, not a side colour, and not the background
    r, g, b = _mean_colour(frame, app.project((4.0, 30.0, 0.0)))
    assert g >= r and g >= b and 60 < g < 220, (r, g, b)
    # off the table: the background
    bg = _mean_colour(frame, (2, app.size[1] // 2))
    assert np.allclose(bg, (41, 43, 51), atol=12), bg
    table.labels_root.show()


def test_visibility_band_colours_the_target_and_keeps_its_side_colour(stage):
    # the live LoS target (TableView.show_verdict) wears a band in the visibility colour
    # (TableScene.mark); the middle of its top keeps blue's colour: whose model it is
    from engine.view import overlays as ov
    app, world, table, cam = stage
    cam.top_view()
    table.labels_root.hide()
    hb = world.hitbox("blue-mage")
    back = np.array([-np.cos(np.radians(hb.facing)), -np.sin(np.radians(hb.facing))])
    rim = (*(np.array([hb.x, hb.y]) + 0.82 * hb.radius * back), hb.z + hb.height)
    mid = (*(np.array([hb.x, hb.y]) + 0.3 * hb.radius * back), hb.z + hb.height)
    table.mark("blue-mage", ov.visibility_colour(0.0, False))
    app.step()
    r, g, b = _mean_colour(app.frame_array(), app.project(rim))
    assert r > 150 and r > b + 60
    r, g, b = _mean_colour(app.frame_array(), app.project(mid))
    assert b > r + 60
    table.mark("blue-mage", ov.visibility_colour(1.0, True))
    app.step()
    r, g, b = _mean_colour(app.frame_array(), app.project(rim))
    assert g > 150 and g > r + 40 and g > b + 40
    r, g, b = _mean_colour(app.frame_array(), app.project(mid))
    assert b > r + 60
    table.mark("blue-mage", None)
    app.step()
    r, g, b = _mean_colour(app.frame_array(), app.project(rim))
    assert b > r + 60
    table.labels_root.show()


def test_model_moves_are_drawn_after_sync(stage):
    from engine.view.picking import pick
    app, world, table, cam = stage
    cam.top_view()
    world.move_model("red-knight", 30.0, 10.0)
    table.sync()
    app.step()
    hit = pick(app, world, pixel=_centre_pixel(app, world.hitbox("red-knight")))
    assert hit.id == "red-knight"
    node = table.models["red-knight"]
    assert node.getX() == pytest.approx(30.0) and node.getY() == pytest.approx(10.0)
    world.move_model("red-knight", 10.0, 19.0)
    table.sync()


def test_camera_keys_and_eye_view(view_app):
    from engine.view.play import TableView
    world = small_world()
    view = TableView(view_app, world)
    try:
        cam = view.camera
        d0 = cam.distance
        view_app.dispatch("wheel_up")
        assert cam.distance < d0
        view_app.dispatch("wheel_down")
        view_app.dispatch("wheel_down")
        assert cam.distance > d0
        view_app.dispatch("t")
        assert cam.pitch > 89.0
        view_app.step()
        # the whole table is in the top view
        for corner in ((0, 0, 0), (36, 0, 0), (0, 36, 0), (36, 36, 0)):
            px = view_app.project(corner)
            assert px is not None and 0 <= px[0] < view_app.size[0] and 0 <= px[1] < view_app.size[1]
        view_app.dispatch("r")
        assert cam.pitch < 89.0 and cam.distance == pytest.approx(d0)
        assert view_app.dispatch("v") is None            # nothing selected: refused, with a message
        assert "select a model" in view.message
        view.select("red-archer")
        assert view_app.dispatch("v") == "eye"
        hb = world.hitbox("red-archer")
        eye = view_app.camera.getPos(view_app.render)
        assert (eye.x, eye.y, eye.z) == pytest.approx(tuple(cam.eye_point(hb)), abs=1e-4)
        assert view.arc_np is not None and view.table.models["red-archer"].isHidden()
        assert view_app.dispatch("v") == "orbit"
        assert not view.table.models["red-archer"].isHidden()
        # orbit by a right drag
        h0 = cam.heading
        view_app.dispatch("mouse3", pointer=(0.0, 0.0))
        view_app.pointer = (0.2, 0.0)
        view_app.step()
        view_app.dispatch("mouse3-up")
        assert cam.heading != pytest.approx(h0)
    finally:
        view.close()


def test_los_picture_pair(view_app, tmp_path):
    from panda3d.core import PNMImage
    from engine import sight
    from engine.view.pictures import los_pictures
    world = small_world()
    res = sight.los(world, "red-archer", "blue-mage")      # across the 3" wall: no LoS
    assert not res.los
    paths = los_pictures(world, res, str(tmp_path))
    assert [p.rsplit("/", 1)[-1] for p in paths] == ["eye.png", "overview.png"]
    for p in paths:
        img = PNMImage()
        assert img.read(p)
        assert (img.getXSize(), img.getYSize()) == view_app.size
        # not blank: many distinct colours
        cols = {tuple(round(c, 1) for c in img.getXel(x, y)) for x in range(0, img.getXSize(), 16)
                for y in range(0, img.getYSize(), 16)}
        assert len(cols) > 5          # a blank or failed render has one or two
        # red rays (blocked) are in the overview
    img = PNMImage()
    img.read(paths[1])
    reds = sum(1 for x in range(0, img.getXSize(), 2) for y in range(0, img.getYSize(), 2)
               if img.getRed(x, y) > 0.8 and img.getGreen(x, y) < 0.35 and img.getBlue(x, y) < 0.35)
    assert reds > 30


def test_template_follows_the_mouse_tinted_by_coverage(view_app):
    from engine.view.play import TableView
    world = small_world()
    view = TableView(view_app, world)
    try:
        view.camera.top_view()
        view_app.step()
        assert view_app.dispatch("g") == "circle-s"
        m = world.hitbox("blue-mage")
        view_app.dispatch("none", pixel=view_app.project((m.x + 0.3, m.y, 0.0)))
        view_app.step()
        res = view.template_result
        assert res is not None and res.template == "circle-s"
        hit = {h.id: h for h in res.affected}
        assert "blue-mage" in hit and "red-archer" not in hit
        assert "blue-mage" in view.table.marks                       # a band by its coverage
        assert "blue-mage" not in view.table.tints                   # over blue's colour
        assert "blue-mage" in view.hud.verdict.text
        assert any(c.getName() == "template-overlay" for c in view.live.getChildren())
        # the template follows: move the pointer far away, blue-mage is no longer under it
        view_app.dispatch("none", pixel=view_app.project((3.0, 33.0, 0.0)))
        view_app.step()
        assert "blue-mage" not in {h.id for h in view.template_result.affected}
        assert "blue-mage" not in view.table.marks
        # a spray from the selected model toward the pointer
        view.select("red-knight")
        assert view_app.dispatch("g") == "circle-l"
        assert view_app.dispatch("g") == "spray-s"
        view_app.dispatch("none", pixel=view_app.project((m.x, m.y, 0.0)))
        view_app.step()
        sp = view.template_result
        assert sp is not None and sp.template == "spray-s" and sp.user == "red-knight"
        assert "red-knight" not in {h.id for h in sp.affected}       # never its own user
        for _ in range(2):
            view_app.dispatch("g")
        assert view.template_kind is None and view.template_result is None
    finally:
        view.close()


def test_los_caption_says_wholly_hidden_and_no_arc_when_all_round():
    from engine.view.pictures import los_caption
    flying = {"viewer": "a", "target": "b", "los": True, "visible_fraction": 0.0, "reason": "b is Flying",
              "blocking": ["wall"], "in_front_arc": True}
    assert "blocked by wall" in los_caption(flying) and "partly hidden" not in los_caption(flying)
    partly = dict(flying, visible_fraction=0.4, reason="clear")
    assert "partly hidden by wall" in los_caption(partly)
    behind = dict(partly, in_front_arc=False)
    assert "outside the front arc" in los_caption(behind)
    assert "outside the front arc" not in los_caption(dict(behind, all_round=True))


def test_los_caption_says_no_cover_when_cover_was_decided():
    # a dispute picture must say "no cover" when the rules decided none, not leave it out
    from engine.view.pictures import los_caption
    seen = {"viewer": "a", "target": "b", "los": True, "visible_fraction": 0.33, "reason": "clear",
            "cover": "none", "cover_reason": 'no cover: wall hides part of it but is 5.16" away'}
    assert los_caption(seen).startswith("a -> b: LoS yes, 33% visible, no cover")
    assert "no cover" not in los_caption(dict(seen, cover_reason=""))          # yes/no only: not decided
    assert "Light cover from wall" in los_caption(dict(seen, cover="light", cover_piece="wall"))
