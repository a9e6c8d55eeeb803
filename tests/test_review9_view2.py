"""Review 9, the live view as players see it: the template tool (G) and the live
LoS verdict leave the models their side's colour (a band says the coverage or
the visibility), the eye view (V) shows no labels of models hidden behind walls,
and the attract mode frames the models its banner says may react."""
from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("panda3d")

from view_fixtures import small_world  # noqa: E402
from view_fixtures import model_rect as _model_rect  # noqa: E402

NOROVA = os.path.join(os.path.dirname(__file__), "..", "scenes", "norova-arena.yaml")


# ------------------------------------------------------------------ helpers
def _pixels(app, world, mid):
    """The rendered pixels (k, 3), 0-1, inside the model's rectangle on screen."""
    frame = app.frame_array().astype(float) / 255.0          # rows from the top
    H = frame.shape[0]
    x0, y0, x1, y1 = _model_rect(app, world, mid)
    return frame[int(H - y1) + 1:int(H - y0), int(x0) + 1:int(x1)].reshape(-1, 3)


def _blue(px):
    return ((px[:, 2] > px[:, 0] + 0.2) & (px[:, 2] > px[:, 1] + 0.1)).mean()


def _near(px, rgba, tol=0.2):
    return (np.abs(px - np.asarray(rgba[:3])).max(axis=1) < tol).mean()


def _hover(app, point):
    app.dispatch("none", pixel=app.project(point))
    app.step()


# ------------------------------------------------------------------ 1: the template tool
def test_template_tool_leaves_its_victims_their_side_colour(view_app):
    """G over blue-mage: it wears the coverage band and stays blue (whose model is hit);
    the pointer moves away, the band goes."""
    from engine.view import overlays as ov
    from engine.view.play import TableView
    world = small_world()
    view = TableView(view_app, world)
    try:
        view.camera.top_view()
        view.table.labels_root.hide()                      # labels would cover the tops
        view_app.step()
        assert view_app.dispatch("g") == "circle-s"
        m = world.hitbox("blue-mage")
        _hover(view_app, (m.x + 0.3, m.y, 0.0))
        hit = {h.id: h for h in view.template_result.affected}
        assert "blue-mage" in hit
        band = ov.coverage_colour(hit["blue-mage"])
        assert "blue-mage" in view.table.marks, view.table.tints            # a band, not a new body colour
        assert view.table.marks["blue-mage"] == pytest.approx(band)
        body = view.table.models["blue-mage"].find("body")
        assert tuple(body.getColor()) == pytest.approx(view.table.colour_of("blue-mage"), abs=0.01)
        assert not view.table.models["blue-mage"].find("coverage").isEmpty()
        view_app.step()
        px = _pixels(view_app, world, "blue-mage")
        assert _blue(px) > 0.15, _blue(px)                 # still blue's
        assert _near(px, band) > 0.05, _near(px, band)     # and the band says the coverage
        _hover(view_app, (3.0, 33.0, 0.0))
        assert "blue-mage" not in view.table.marks
        assert view.table.models["blue-mage"].find("coverage").isEmpty()
        assert not view.table.tints
    finally:
        view.table.labels_root.show()
        view.close()


# ------------------------------------------------------------------ 2: the live LoS verdict
def test_live_verdict_target_keeps_its_side_colour(view_app):
    """Select red-archer, hover blue-mage (behind the wall): blue-mage wears a red
    visibility band and stays blue; hovering the empty table takes the band off;
    G (the template tool) takes it off too, or it would read as a victim."""
    from engine.view import overlays as ov
    from engine.view.play import TableView
    world = small_world()
    view = TableView(view_app, world)
    try:
        view.camera.top_view()
        view.table.labels_root.hide()
        view.select("red-archer")
        view_app.step()
        m = world.hitbox("blue-mage")
        _hover(view_app, (m.x, m.y, m.z + m.height))
        res = view.verdict
        assert res is not None and res.target == "blue-mage" and not res.los
        colour = ov.visibility_colour(res.visible_fraction, res.los)
        assert "blue-mage" in view.table.marks, view.table.tints
        assert view.table.marks["blue-mage"] == pytest.approx(colour)
        assert "blue-mage" not in view.table.tints
        body = view.table.models["blue-mage"].find("body")
        assert tuple(body.getColor()) == pytest.approx(view.table.colour_of("blue-mage"), abs=0.01)
        view.live.hide()                                   # the rays' points would cover the top
        view_app.step()
        px = _pixels(view_app, world, "blue-mage")
        assert _blue(px) > 0.15, _blue(px)
        assert _near(px, colour) > 0.05, _near(px, colour)
        view.live.show()
        _hover(view_app, (3.0, 33.0, 0.0))                 # nothing hovered: no verdict, no band
        assert not view.table.marks
        _hover(view_app, (m.x, m.y, m.z + m.height))
        assert "blue-mage" in view.table.marks
        view_app.dispatch("g")                             # the template tool owns the panel
        assert "blue-mage" not in view.table.marks or view.template_result is not None and \
            "blue-mage" in {h.id for h in view.template_result.affected}
        assert not any(c.getName() != "template-overlay" for c in view.live.getChildren())
    finally:
        view.table.labels_root.show()
        view.close()


# ------------------------------------------------------------------ 3: the eye view's labels
def _walled_world():
    from engine.scene import ModelSpec, Scene, TerrainSpec
    from engine.world import World
    terrain = (TerrainSpec("wall", "box", (15.0, 14.0, 0.0), size=(6.0, 1.0, 3.0)),)
    models = (
        ModelSpec("red-eye", "red", 32, 45, (18.0, 8.0, None), facing=90.0),
        ModelSpec("blue-hidden", "blue", 32, 45, (15.0, 18.0, None), facing=270.0),
        ModelSpec("blue-seen", "blue", 32, 45, (21.0, 18.0, None), facing=270.0),
    )
    return World(Scene("", (36.0, 36.0), terrain, models))


def _shown(node) -> bool:
    """A label drawn now: not hidden, and not shrunk away by the layout (out of the frame)."""
    return not node.isHidden() and node.getScale()[0] > 1e-3 and not node.getParent().isHidden()


def test_eye_view_hides_the_labels_of_models_behind_walls(view_app):
    """V from red-eye: blue-hidden stands behind the 3" wall (no LoS), blue-seen beside it.
    blue-hidden's label is not drawn (it would float on the wall with a leader line into
    it), blue-seen's is; V again shows every label again."""
    from engine import sight
    from engine.view.play import TableView
    world = _walled_world()
    assert not sight.los(world, "red-eye", "blue-hidden").los
    assert sight.los(world, "red-eye", "blue-seen").los
    view = TableView(view_app, world)
    try:
        view.select("red-eye")
        assert view_app.dispatch("v") == "eye"
        view_app.step(2)
        labels = view.table.label_nodes
        assert view_app.project(tuple(world.hitbox("blue-hidden").center)) is not None   # in the frame
        assert not _shown(labels["blue-hidden"])
        assert _shown(labels["blue-seen"])
        assert "blue-hidden" in view.eye_labels() and "blue-seen" not in view.eye_labels()
        # a model walks out from behind the wall: its label comes back
        world.move_model("blue-hidden", 20.5, 16.0)
        view_app.step(2)
        assert _shown(labels["blue-hidden"])
        world.move_model("blue-hidden", 15.0, 18.0)
        view_app.step(2)
        assert not _shown(labels["blue-hidden"])
        assert view_app.dispatch("v") == "orbit"
        view_app.step()
        assert not labels["blue-hidden"].isHidden() and not labels["red-eye"].isHidden()
        # T out of the eye view: the viewer and the labels come back too
        view_app.dispatch("v")
        view_app.step()
        assert labels["blue-hidden"].isHidden() and view.table.models["red-eye"].isHidden()
        view_app.dispatch("t")
        view_app.step()
        assert not labels["blue-hidden"].isHidden() and not view.table.models["red-eye"].isHidden()
        assert view.arc_np is None
    finally:
        view.close()


# ------------------------------------------------------------------ 4: attract, who may react
def test_attract_frames_the_models_that_may_react(view_app, tmp_path):
    """norova-arena (Eldfall rules), greedy bots, seed 1: the ghoul moves and the
    banner says who of the party may react to it; the camera frames them with the
    ghoul, in the frame and above the banner."""
    from engine.view.labels import screen_rect
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(NOROVA)
    ctl = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "greedy"),
                            seed=1, out_dir=str(tmp_path))
    try:
        for i in range(8):
            n0 = len(ctl.game.events)
            ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"f{i}")
            step = [e for e in ctl.game.events[n0:] if e.kind == "reaction_step"]
            if step:
                break
        else:
            pytest.fail("no Reaction Step in the first 8 decisions")
        mover, react = step[0].data["mover"], sorted(step[0].data["qualified"])
        assert mover == "ghoul" and len(react) >= 2 and mover not in react, (mover, react)
        assert f"may react to {mover}" in ctl.hud.banner.text
        assert set(react) <= set(ctl.focus), ctl.focus
        banner = screen_rect(view_app, ctl.hud.banner.np)
        w, h = view_app.size
        for m in [mover] + react:
            r = _model_rect(view_app, world, m)
            assert r is not None and r[0] >= 0 and r[2] <= w and r[3] <= h, (m, r)
            assert r[1] >= banner[3] - 1 or r[2] <= banner[0] or r[0] >= banner[2], (m, r, banner)
    finally:
        ctl.close()


def test_event_models_keeps_the_names_its_line_says():
    from engine.view.play import event_models

    class Ev:
        kind = "reaction_step"
        data = {"mover": "ghoul", "qualified": {"knight": {}, "cleric": {}, "knight-2": {}},
                "queue": ["hexer"]}
    line = "  may react to ghoul: knight (LoS), cleric (LoS)"
    assert event_models(Ev(), line) == ["ghoul", "knight", "cleric"]
    assert set(event_models(Ev())) == {"ghoul", "knight", "cleric", "knight-2", "hexer"}


def test_f12_from_the_eye_view_keeps_the_eye_the_ring_and_the_band(view_app, tmp_path):
    """F12 in the eye view: the pictures move the shared camera and clear their own
    rings and bands; afterwards the view is still the eye view (viewer hidden, the
    hidden labels still hidden), the selection ring and the verdict's band are back."""
    from engine.view.play import TableView
    world = _walled_world()
    view_app.pointer = None                      # no hover: the verdict stays as shown
    view = TableView(view_app, world, out_dir=str(tmp_path))
    try:
        view.select("red-eye")
        view.show_verdict("red-eye", "blue-seen")
        assert "blue-seen" in view.table.marks and "red-eye" in view.table.highlights
        assert view_app.dispatch("v") == "eye"
        view_app.step()
        folder, _ = view.dispute("red-eye", "blue-seen")
        assert os.path.exists(os.path.join(folder, "eye.png"))
        view_app.step()
        assert view.camera.mode == "eye" and view.table.models["red-eye"].isHidden()
        assert view.table.label_nodes["blue-hidden"].isHidden()
        assert "red-eye" in view.table.highlights and "blue-seen" in view.table.marks
        assert view_app.dispatch("v") == "orbit"
        assert not view.table.models["red-eye"].isHidden()
    finally:
        view.close()
