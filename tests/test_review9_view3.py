"""Review 9, the dispute pictures and the hotseat as players see them:

* ``eldfall los ... --picture`` (``pictures.los_pictures``, also F12): the target
  keeps its side's colour (whose model it is) and wears the visibility band, as
  the live view's target does; it used to be repainted whole in the visibility
  colour, so nobody could tell whose model it was.
* A Crouched model may cancel Crouched at the start of its Movement Step and then
  Run (eldfall-states.txt, "Entering/Leaving Crouched"; the rules offer
  ``Move(mid, "run", ..., crouch_start=False)``): the hotseat menu offers "Stand up
  and Run" (and Walk, Climb, Jump standing up) and the clicked path carries it.
"""
from __future__ import annotations

import os

import numpy as np
import pytest

pytest.importorskip("panda3d")

from view_fixtures import click_model, menu_key, open_controller, press  # noqa: E402
from view_fixtures import model_rect as _model_rect, read_rgb as _rgb  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DUEL = os.path.join(ROOT, "tests", "data", "view", "duel.yaml")


# ------------------------------------------------------------------ helpers
def _peeking_world():
    """blue-target 5" in front of red-eye, a wall 3" out hiding its lower part
    (about 40% of it shows: an amber-yellow band, unlike the green and red points)."""
    from engine.scene import ModelSpec, Scene, TerrainSpec
    from engine.world import World
    terrain = (TerrainSpec("low-wall", "box", (18.0, 16.0, 0.0), size=(6.0, 1.0, 1.5)),)
    models = (
        ModelSpec("red-eye", "red", 32, 45, (18.0, 13.0, None), facing=90.0),
        ModelSpec("blue-target", "blue", 32, 45, (18.0, 18.0, None), facing=270.0),
    )
    return World(Scene("", (36.0, 36.0), terrain, models))


# ------------------------------------------------------------------ 1: the dispute pictures
def test_los_pictures_leave_the_target_its_side_colour_under_a_band(view_app, tmp_path, monkeypatch):
    """In both pictures (the eye view, the overview) the target is still blue's (its
    body) and wears the visibility band (amber to green); the legend says so."""
    from engine import sight
    from engine.view import overlays as ov
    from engine.view import pictures as P
    world = _peeking_world()
    res = sight.los(world, "red-eye", "blue-target", fraction=True, cover=True)
    assert res.los and 0.2 < res.visible_fraction < 0.6, res.visible_fraction
    seen = []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        out = orig(self, path, important)
        seen.append((_model_rect(self.app, world, "blue-target"), dict(self.table.marks), dict(self.table.tints),
                     tuple(self.table.models["blue-target"].find("body").getColor()),
                     self.table.colour_of("blue-target")))
        return out

    monkeypatch.setattr(P._Stage, "shoot", shoot)
    paths = P.los_pictures(world, res, str(tmp_path))
    assert len(paths) == len(seen) == 2
    band = ov.visibility_colour(res.visible_fraction, res.los)
    for path, (rect, marks, tints, body, side) in zip(paths, seen):
        assert marks.get("blue-target") == pytest.approx(band), marks       # a band ...
        assert "blue-target" not in tints, tints                            # ... not a new body colour
        assert body == pytest.approx(side, abs=0.01)
        x0, y0, x1, y1 = rect
        img = _rgb(path)
        H = img.shape[0]
        box = img[int(H - y1) + 1:int(H - y0), int(x0) + 1:int(x1)].reshape(-1, 3)
        r, g, b = box[:, 0], box[:, 1], box[:, 2]
        blue = ((b > r + 0.2) & (b > g + 0.1)).mean()                        # blue's body, lit or shaded
        amber = ((r > 0.75) & (g > 0.6) & (b < 0.45)).mean()                # the band (lit), not a point
        assert blue > 0.05, (os.path.basename(path), blue)
        assert amber > 0.02, (os.path.basename(path), amber)
    # the pictures take their bands off again
    assert not view_app.table_scene.marks
    assert "side's colour" in P.LOS_LEGEND and "band" in P.LOS_LEGEND


def test_the_live_target_band_and_the_pictures_band_are_alike(view_app, tmp_path):
    """The live verdict's target wears the same thin band as in the pictures (what
    shows of a target over a wall is its top: it stays its side's colour), and F12
    gives it back as it was."""
    from engine.view.play import TableView
    world = _peeking_world()
    view_app.pointer = None
    view = TableView(view_app, world, out_dir=str(tmp_path))
    try:
        view.select("red-eye")
        view.show_verdict("red-eye", "blue-target")
        t = view.table
        assert "blue-target" in t.marks
        assert t.mark_collars["blue-target"] == pytest.approx(t.TARGET_COLLAR) and t.TARGET_COLLAR < 0.5
        view.dispute("red-eye", "blue-target")
        assert t.mark_collars.get("blue-target") == pytest.approx(t.TARGET_COLLAR)
    finally:
        view.close()


# ------------------------------------------------------------------ 2: stand up and Run
def _crouched_archer_to_move(view_app, tmp_path):
    """duel.yaml with red-archer Crouched, activated: its Movement Step."""
    from tools.cmd_view import game_factory, load_world
    world = load_world(DUEL)
    game, geo = game_factory(world, "eldfall")(3)
    game.add_state("red-archer", "Crouched", "set up by the test")
    c = open_controller(view_app, world, game, geo, tmp_path)
    press(view_app, menu_key(c, "order red first"))
    click_model(view_app, world, "red-archer")
    while game.pending[0] == "crouch":
        press(view_app, "p")
    assert game.pending == ("movement", "red-archer")
    assert "Crouched" in game.models["red-archer"].states
    return c


def test_a_crouched_model_is_offered_to_stand_up_and_run(view_app, tmp_path):
    """The menu offers "Stand up and Run" (no plain Run, which Crouched forbids, and
    the rules would refuse); the path clicked after it is a Run that cancels Crouched
    at the start, and the reachable area and the path are judged for the model
    standing (SPD x2: 8" is within a Run, beyond a Walk)."""
    c = _crouched_archer_to_move(view_app, tmp_path)
    try:
        labels = [label for label, _ in c.menu]
        assert "Move: Stand up and Run (click the path)" in labels, labels
        assert "Move: Stand up and Walk (click the path)" in labels, labels
        assert "Move: Walk (click the path)" in labels, labels                 # a crouched Walk stays
        assert not any(m.startswith("Move: Run") for m in labels), labels
        assert press(view_app, menu_key(c, "Move: Stand up and Run")) == "move"
        assert (c.move_mode, c.move_crouch_start) == ("run", False)
        assert "Stand up and Run" in c.message
        assert any(ch.getName() == "reach-overlay" for ch in c.play_live.getChildren())
        press(view_app, "mouse1", pixel=view_app.project((10.0, 18.0, 0.0)))   # 8" ahead
        action, _reason = c.preview
        assert (action.mode, action.crouch_start, action.crouch_end) == ("run", False, None)
        assert action.path[-1][:2] == pytest.approx((10.0, 18.0), abs=0.1)
        # the engine judged the path for the standing model (its states put back after)
        from engine import motion
        world = c.world
        assert "Crouched" in world.hitbox("red-archer").states
        with c._as_declared("red-archer"):
            assert "Crouched" not in world.hitbox("red-archer").states
            assert motion.check_path(world, "red-archer", [(10.0, 18.0)], "run", speed=c._speed("red-archer")).legal
        assert "Crouched" in world.hitbox("red-archer").states
        press(view_app, "escape")
        assert c.move_crouch_start is None
    finally:
        c.close()


def test_a_crouched_model_stands_up_and_runs_by_clicking(view_app, tmp_path):
    c = _crouched_archer_to_move(view_app, tmp_path)
    try:
        press(view_app, menu_key(c, "Move: Stand up and Run"))
        press(view_app, "mouse1", pixel=view_app.project((10.0, 18.0, 0.0)))
        assert c.preview[1] is None, c.preview[1]
        events = press(view_app, "enter")
        mv = next(e for e in events if e.kind == "movement")
        assert mv.data["movement"] == "Run" and mv.data["distance"] == pytest.approx(8.0, abs=0.1)
        assert "Crouched" not in c.game.models["red-archer"].states
        assert "Crouched" not in c.world.hitbox("red-archer").states
    finally:
        c.close()
