"""Review 9, the pictures as players and organisers see them: a move's distance
label keeps off the models, a template's victims keep their side's colour
(whose model is hit), a circle's user is in the picture, and the other labels
drawn by overlays (a Stratagem's range, a measure) are laid out like the
models' names."""
from __future__ import annotations

import os

import numpy as np
import pytest
from view_fixtures import label_rect as _label_rect, model_rect as _model_rect, read_rgb as _rgb_fast, rect_overlap as _overlap  # noqa: E402

pytest.importorskip("panda3d")

SKIRMISH = os.path.join(os.path.dirname(__file__), "..", "scenes", "skirmish.yaml")


# ------------------------------------------------------------------ helpers
def _capture(monkeypatch, what):
    """Run ``what(stage)`` right after each picture is shot (the camera as it was)."""
    from engine.view import pictures as P
    seen = []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        out = orig(self, path, important)
        seen.append(what(self))
        return out

    monkeypatch.setattr(P._Stage, "shoot", shoot)
    return seen


def _crowded_move_world():
    """A mover walking 4" straight up the table, a model just beyond where it ends."""
    from engine.scene import ModelSpec, Scene
    from engine.world import World
    models = (
        ModelSpec("red-runner", "red", 32, 45, (18.0, 10.0, None), facing=90.0),
        ModelSpec("blue-beyond", "blue", 32, 45, (18.0, 15.6, None), facing=270.0),
        ModelSpec("blue-left", "blue", 32, 45, (16.2, 14.4, None), facing=270.0),
    )
    return World(Scene("", (36.0, 36.0), (), models))


# ------------------------------------------------------------------ 1: a move's label
def test_move_distance_label_does_not_cover_a_model(view_app, tmp_path, monkeypatch):
    from engine import motion
    from engine.view.pictures import move_picture
    world = _crowded_move_world()
    res = motion.check_path(world, "red-runner", [(18.0, 14.0)], "walk", speed=5.0)

    def look(st):
        label = st.overlay.find("**/path-label")
        assert not label.isEmpty()
        return (_label_rect(st.app, label),
                {m: _model_rect(st.app, world, m) for m in world.model_ids()}, st.app.size)

    seen = _capture(monkeypatch, look)
    move_picture(world, res, str(tmp_path), waypoints=[(18.0, 14.0)])
    (label, models, (w, h)), = seen
    assert 0 <= label[0] and label[2] <= w and 0 <= label[1] and label[3] <= h, label
    for m, r in models.items():
        assert r is not None
        assert _overlap(label, r) < 1.0, (m, label, r)
    # one size on screen, like the models' names (not a banner across a close-up)
    assert label[3] - label[1] < 0.08 * h


def test_hotseat_move_label_is_laid_out_off_the_models(view_app):
    """The hotseat's route preview uses the same overlay: the layout places its label."""
    from engine.view import overlays as ov
    from view_fixtures import stage_table
    world = _crowded_move_world()
    table, cam = stage_table(view_app, world)
    cam.set_orbit((18.0, 13.0, 0.0), 0.0, 60.0, 16.0)
    route = ov.path_overlay([(18.0, 10.0, 0.0), (18.0, 14.0, 0.0)], True, end=(18.0, 14.0, 0.0),
                            label='4.00" / 5.00"\nseen by: blue-beyond, blue-left')
    route.reparentTo(view_app.root)
    try:
        table.layout_labels(view_app)
        view_app.step()
        label = _label_rect(view_app, route.find("**/path-label"))
        for m in world.model_ids():
            assert _overlap(label, _model_rect(view_app, world, m)) < 1.0, m
        for m, node in table.label_nodes.items():
            assert _overlap(label, _label_rect(view_app, node)) < 1.0, m
    finally:
        route.removeNode()


# ------------------------------------------------------------------ 2 and 3: templates
def _aoe(world, by="red-champion"):
    from engine import templates as T
    hb = world.hitbox("blue-guard")
    return T.template(world, "circle-l", user=by, at=(hb.x, hb.y, hb.z), target="blue-guard")


def test_aoe_picture_keeps_the_side_colour_of_the_models_hit(view_app, tmp_path, monkeypatch):
    from engine.view.pictures import aoe_picture
    from tools.loading import load_world
    world = load_world(SKIRMISH)
    res = _aoe(world)
    hit = [h.id for h in res.affected]
    assert "blue-guard" in hit and "blue-warden" in hit
    seen = _capture(monkeypatch, lambda st: {m: _model_rect(st.app, world, m) for m in hit})
    path = aoe_picture(world, res, str(tmp_path))
    rects, = seen
    img = _rgb_fast(path)
    H = img.shape[0]
    for m in hit:
        x0, y0, x1, y1 = rects[m]
        box = img[int(H - y1):int(H - y0), int(x0):int(x1)]
        r, g, b = box[..., 0], box[..., 1], box[..., 2]
        blue = (b > r + 0.2) & (b > g + 0.1)                 # blue's colour, lit or shaded
        orange = (r > 0.7) & (g > 0.25) & (g < 0.8) & (b < 0.35)
        n = box.shape[0] * box.shape[1]
        assert blue.sum() > 0.2 * n, (m, blue.sum(), n)      # a player sees it is blue's
        assert orange.sum() > 0.05 * n, (m, orange.sum(), n)  # and that the template covers it


def test_aoe_picture_frames_the_user_of_a_circle(view_app, tmp_path, monkeypatch):
    from engine.view.labels import screen_rect
    from engine.view.pictures import aoe_picture
    from tools.loading import load_world
    world = load_world(SKIRMISH)
    res = _aoe(world, by="red-champion")            # 25" away from its template
    seen = _capture(monkeypatch, lambda st: ({m: _model_rect(st.app, world, m)
                                               for m in ("red-champion", "blue-guard")},
                                              screen_rect(st.app, st.caption_np), st.app.size))
    aoe_picture(world, res, str(tmp_path))
    (rects, caption, (w, h)), = seen
    for m, r in rects.items():
        assert r is not None, m
        assert r[0] >= 0 and r[2] <= w and r[1] >= 0, (m, r)
        assert r[3] <= caption[1] + 1, (m, r, caption)       # under the caption, not behind it


def test_aoe_legend_says_the_side_colour_stays():
    from engine.view.pictures import AOE_LEGEND
    assert "side's colour" in AOE_LEGEND and "tinted orange" not in AOE_LEGEND


# ------------------------------------------------------------------ other overlay labels
def test_range_ring_and_measure_labels_are_laid_out(view_app):
    """A Stratagem's range label (drawn at the top of its ring) and a measure's
    label join the layout: off the models that stand under them."""
    from engine.scene import ModelSpec, Scene
    from engine.view import overlays as ov
    from engine.world import World
    from view_fixtures import stage_table
    models = (
        ModelSpec("red-leader", "red", 32, 45, (18.0, 10.0, None), facing=90.0),
        ModelSpec("red-at-the-ring", "red", 32, 45, (18.0, 18.6, None), facing=90.0),
        ModelSpec("blue-mid", "blue", 32, 45, (22.0, 14.0, None), facing=270.0),
    )
    world = World(Scene("", (36.0, 36.0), (), models))
    table, cam = stage_table(view_app, world)
    cam.set_orbit((18.0, 14.0, 0.0), 0.0, 55.0, 22.0)
    ring = ov.range_ring_overlay(world.hitbox("red-leader"), 8.0, 'War Horn: 8" from red-leader')
    meas = ov.measure_overlay((18.0, 10.0, 0.5), (22.0, 14.0, 0.5), '5.66" (dz 0.00")')
    ring.reparentTo(view_app.root)
    meas.reparentTo(view_app.root)
    try:
        table.layout_labels(view_app)
        view_app.step()
        labels = [ring.find("**/label"), meas.find("**/measure-label")]
        rects = [_label_rect(view_app, n) for n in labels]
        for r in rects:
            for m in world.model_ids():
                assert _overlap(r, _model_rect(view_app, world, m)) < 1.0, (m, r)
        assert _overlap(rects[0], rects[1]) < 1.0
    finally:
        ring.removeNode()
        meas.removeNode()


# ------------------------------------------------------------------ F12 from the hotseat
def test_f12_pictures_leave_out_the_hud_and_the_route_preview(view_app, tmp_path, monkeypatch):
    """A dispute taken while a walk is being laid out: the pictures show the LoS
    verdict only, not the HUD's panels under their caption nor the route and the
    reachable area; the view gets them back after. A closed controller leaves no
    overlay on the next table."""
    from tools.cmd_view import game_factory
    from tools.loading import load_world
    from view_fixtures import click_model, menu_key, open_controller, press  # noqa: E402
    world = load_world(SKIRMISH)
    game, geo = game_factory(world, "eldfall")(3)
    ctl = open_controller(view_app, world, game, geo, tmp_path)
    try:
        while game.pending[0] == "order":            # red plays first
            labels = [label for label, _ in ctl.menu]
            first = next(i for i, m in enumerate(labels) if m.startswith(("order red first", "order blue second")))
            press(view_app, str(first + 1))
        while game.pending[0] == "stratagem":
            press(view_app, "p")
        click_model(view_app, world, "red-champion")
        while game.pending[0] == "crouch":
            press(view_app, "p")
        press(view_app, menu_key(ctl, "Move: Walk"))
        hb = world.hitbox("red-champion")
        press(view_app, "mouse1", pixel=view_app.project((hb.x + 2.0, hb.y + 3.0, hb.z)))
        assert ctl.play_live.getNumChildren() > 0 and not ctl.hud.root.isHidden()
        seen = _capture(monkeypatch, lambda st: (ctl.hud.root.isHidden(), ctl.play_live.isHidden(),
                                                 ctl.live.isHidden()))
        ctl.dispute("red-champion", "red-brute")
        assert seen == [(True, True, True)] * 2, seen
        assert not ctl.hud.root.isHidden() and not ctl.play_live.isHidden() and not ctl.live.isHidden()
    finally:
        ctl.close()
    assert view_app.root.find("play-overlay").isEmpty()


# ------------------------------------------------------------------ attract: the banner
def test_attract_frames_the_step_above_its_banner(view_app, tmp_path):
    """skirmish, seed 1: red-archer and red-scout shoot blue-ogre; the banner narrates
    eight lines from the bottom edge. The three models stand above the banner, not
    behind it (an organiser's stand shows who shoots whom)."""
    from engine.view.labels import screen_rect
    from view_fixtures import attract_to_first_wound
    ctl, world, new = attract_to_first_wound(view_app, SKIRMISH, tmp_path)
    try:
        banner = screen_rect(view_app, ctl.hud.banner.np)
        w, h = view_app.size
        for m in ("red-archer", "red-scout", "blue-ogre"):
            r = _model_rect(view_app, world, m)
            assert r is not None and r[0] >= 0 and r[2] <= w and r[3] <= h, (m, r)
            assert r[1] >= banner[3] - 1 or r[2] <= banner[0] or r[0] >= banner[2], (m, r, banner)
    finally:
        ctl.close()
