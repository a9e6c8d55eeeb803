"""Review 8, the view as a user sees it: labels stay readable (one size on
screen, never on each other, off the models that matter, the HUD and the
caption), the reach pictures say what their colours mean, the attract mode
frames and narrates the whole step."""
from __future__ import annotations

import os

import numpy as np
import pytest

from view_fixtures import stage_table  # noqa: E402
from view_fixtures import label_rect as _rect, model_rect as _model_rect, rect_overlap as _overlap  # noqa: E402

pytest.importorskip("panda3d")

SKIRMISH = os.path.join(os.path.dirname(__file__), "..", "scenes", "skirmish.yaml")


def _crowded_world():
    """Three models in a row, bases nearly touching, and one far away."""
    from engine.scene import ModelSpec, Scene
    from engine.world import World
    models = (
        ModelSpec("red-archer-long-name", "red", 32, 45, (17.0, 18.0, None), facing=90.0),
        ModelSpec("red-knight-long-name", "red", 32, 45, (18.35, 18.0, None), facing=90.0),
        ModelSpec("blue-mage-long-name", "blue", 32, 45, (19.7, 18.0, None), facing=270.0),
        ModelSpec("blue-far", "blue", 32, 45, (34.0, 34.0, None), facing=270.0),
    )
    return World(Scene("", (36.0, 36.0), (), models))


@pytest.mark.parametrize("view", ["top", "close"])
def test_labels_of_close_models_do_not_overlap_or_cover_models(view_app, view):
    world = _crowded_world()
    table, cam = stage_table(view_app, world)
    if view == "close":
        cam.set_orbit((18.35, 18.0, 0.0), 0.0, 35.0, 14.0)
    ids = world.model_ids()[:3]
    table.tint("blue-mage-long-name", (0.2, 1, 0.2, 1))        # a LoS target: it matters most
    table.layout_labels(view_app)
    view_app.step()
    rects = {m: _rect(view_app, table.label_nodes[m]) for m in ids}
    models = {m: _model_rect(view_app, world, m) for m in ids}
    w, h = view_app.size
    for i, a in enumerate(ids):
        r = rects[a]
        assert 0 <= r[0] and r[2] <= w and 0 <= r[1] and r[3] <= h, (a, r)      # inside the frame
        for b in ids[i + 1:]:
            assert _overlap(r, rects[b]) < 1.0, (a, b, r, rects[b])
        for b in ids:
            assert _overlap(r, models[b]) < 1.0, (a, b, r, models[b])        # no label on a model
    table.tint("blue-mage-long-name", None)


def test_labels_keep_one_size_on_screen_and_leave_the_frame_with_their_model(view_app):
    world = _crowded_world()
    table, cam = stage_table(view_app, world)
    heights = []
    for distance in (6.0, 40.0):          # an eye-view close-up and a far overview
        cam.set_orbit((18.35, 18.0, 0.0), 0.0, 30.0, distance)
        table.layout_labels(view_app)
        view_app.step()
        r = _rect(view_app, table.label_nodes["red-knight-long-name"])
        heights.append(r[3] - r[1])
    assert heights[0] == pytest.approx(heights[1], rel=0.05)
    assert heights[0] < 0.08 * view_app.size[1]          # a label, not a banner across the frame
    # blue-far is out of this close frame: its label is not drawn at the frame's edge
    cam.set_orbit((18.35, 18.0, 0.0), 0.0, 30.0, 6.0)
    table.layout_labels(view_app)
    assert table.label_nodes["blue-far"].getScale()[0] < 1e-3


def test_labels_keep_off_an_obstacle(view_app):
    from engine.view.labels import screen_rect  # noqa: F401  (the pictures pass their caption so)
    world = _crowded_world()
    table, cam = stage_table(view_app, world)
    cam.set_orbit((18.35, 18.0, 0.0), 0.0, 35.0, 14.0)
    table.layout_labels(view_app)
    first = _rect(view_app, table.label_nodes["red-knight-long-name"])
    table.layout_labels(view_app, obstacles=[first])      # e.g. a caption lying just there
    moved = _rect(view_app, table.label_nodes["red-knight-long-name"])
    assert _overlap(first, moved) < 1.0
    assert not table.labels_root.find("label-leaders").isEmpty()       # a leader line to its model


def test_picture_labels_clear_the_caption(view_app, tmp_path, monkeypatch):
    """The overview of a LoS dispute: no label under the caption, none over
    the viewer or the target."""
    from engine import sight
    from engine.view import pictures as P
    from engine.view.labels import screen_rect
    from tools.loading import load_world
    world = load_world(SKIRMISH)
    res = sight.los(world, "red-champion", "red-shieldbearer", fraction=True, cover=True)
    seen, captions = [], []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        out = orig(self, path, important)
        cap = screen_rect(self.app, self.caption_np)
        labels = {m: _rect(self.app, n) for m, n in self.table.label_nodes.items()
                  if not n.isHidden() and n.getScale()[0] > 1e-3}
        captions.append(self.caption_np.node().getText())
        seen.append((os.path.basename(path), cap, labels,
                     {m: _model_rect(self.app, world, m) for m in ("red-champion", "red-shieldbearer")}
                     if path.endswith("overview.png") else {}))
        return out

    monkeypatch.setattr(P._Stage, "shoot", shoot)
    P.los_pictures(world, res, str(tmp_path))
    assert [s[0] for s in seen] == ["eye.png", "overview.png"]
    # (a viewer that sees all round has no front arc drawn, and the legend's end says so)
    legends = (P.LOS_LEGEND, P.LOS_LEGEND.replace("yellow: the viewer's front arc", P.ALL_ROUND_LEGEND))
    assert all(c.endswith(legends) and "green clear, red blocked" in c for c in captions), captions
    for name, cap, labels, models in seen:
        assert labels, name
        for m, r in labels.items():
            assert _overlap(r, cap) < 1.0, (name, m, r, cap)
            if name == "overview.png":
                for k, mr in models.items():
                    assert _overlap(r, mr) < 1.0, (m, k)
        if name == "eye.png":                  # the target's label only, at label size
            assert list(labels) == ["red-shieldbearer"]
            r = labels["red-shieldbearer"]
            assert r[3] - r[1] < 0.08 * view_app.size[1]


def test_caption_rgb_adds_a_readable_band_above_the_picture():
    from engine.view.pictures import caption_rgb
    pic = np.full((100, 300, 3), 128, np.uint8)
    one = caption_rgb(pic, "red-champion walk")
    assert one.shape[1] == 300 and one.shape[0] > 100
    assert np.array_equal(one[-100:], pic)                   # the picture itself untouched
    band = one[:-100]
    assert band.max() > 200 and band.min() < 40              # light text on a dark band
    long = caption_rgb(pic, "word " * 60)                    # wraps to the width, nothing cut
    assert long.shape[0] > one.shape[0] + 16
    assert caption_rgb(pic, "a\nb").shape[0] > one.shape[0]


def test_reach_picture_caption_gives_the_colour_scale(view_app, tmp_path, monkeypatch):
    from engine.motion import reachable
    from engine.view import pictures as P
    from tools.loading import load_world
    world = load_world(SKIRMISH)
    grid = reachable(world, "red-champion", "walk")
    said = []
    orig = P._Stage.caption
    monkeypatch.setattr(P._Stage, "caption", lambda self, text, colour=(1, 1, 1, 1): (said.append(text),
                                                                                    orig(self, text, colour)))
    P.reach_picture(world, grid, str(tmp_path))
    assert len(said) == 1
    text = said[0]
    assert 'cyan 0" to blue 5.0" (the allowance)' in text, text
    _, cost, _ = P.reach_arrays(grid)
    assert f'dearest {float(cost.max()):.2f}"' in text


def test_attract_frames_the_whole_step_and_tells_its_outcome(view_app, tmp_path):
    """skirmish, seed 1: red-archer and red-scout shoot blue-ogre in its
    Reaction Step; the frame of that step shows all three, and the banner
    keeps the damage and the wound (the outcome), all of it on screen."""
    from engine.view.labels import screen_rect
    from view_fixtures import attract_to_first_wound
    ctl, world, new = attract_to_first_wound(view_app, SKIRMISH, tmp_path)
    try:
        banner = ctl.hud.banner.text
        said = [ctl.say(e).strip() for e in new[1:] if e.kind != "roll" and ctl.say(e)]
        attackers = sorted({e.data["attacker"] for e in new if e.kind == "attack"})
        assert attackers == ["red-archer", "red-scout"]
        assert any("suffers" in s for s in said)
        for s in said:
            assert s in banner, (s, banner)
        r = screen_rect(view_app, ctl.hud.banner.np)
        assert r[1] >= 0 and r[3] <= view_app.size[1]          # every line inside the frame
        w, h = view_app.size
        for m in attackers + ["blue-ogre"]:
            hb = world.hitbox(m)
            p = view_app.project((hb.x, hb.y, hb.z + hb.height / 2))
            assert p is not None and 0 <= p[0] <= w and 0 <= p[1] <= h, m
        # a pass says whose and what it closes
        ctl.hud.set_banner("")
        from rules.eldfall.actions import Pass
        assert ctl.narrate(Pass("red"), [new[0], type(new[0])("reactions_done", {})]).startswith(
            "red passes: no (more) reactions")
    finally:
        ctl.close()


def test_reach_top_picture_carries_its_caption(tmp_path):
    # eldfall reach --picture: the plain top view gets a caption with the legend above the map
    from engine.motion import reachable
    from tools.cmd_reach import _captioned, top_down
    from tools.loading import load_world
    world = load_world(SKIRMISH)
    grid = reachable(world, "red-champion", "walk")
    top = top_down(world, grid)
    pic = _captioned(top, grid.summary(world.pieces))
    assert pic.shape[1] == top.shape[1] and pic.shape[0] > top.shape[0] + 40
    assert np.array_equal(pic[-top.shape[0]:], top)
