"""A Flying model in the view and the pictures: a drop line and a shadow disc down to
the surface the engine measures it on, and a label that says it flies and is not
taken for the label of a model standing behind it on screen."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("panda3d")

from engine.view.labels import LabelItem, place_labels  # noqa: E402

SCENE = """\
name: flying view
table: [24, 24]
terrain:
  - {{id: wall, shape: box, at: [12, 10, 0], size: [0.5, 8, 3]}}
  - {{id: block, shape: box, at: [16, 16, 0], size: [3, 3, 2]}}
models:
  - {{id: archer, side: red, size: M, at: [5, 12], facing: 0}}
  - {{id: drake, side: blue, size: M, at: [{drake}], facing: 180, states: [Flying]}}
  - {{id: guard-a, side: blue, size: M, at: [18, 12.6], facing: 180}}
  - {{id: guard-b, side: blue, size: M, at: [21, 11.5], facing: 180}}
"""


def _world(tmp_path, drake="16, 16.5, 6"):
    from tools.cmd_view import load_world
    path = tmp_path / "flying.yaml"
    path.write_text(SCENE.format(drake=drake), encoding="utf-8")
    return load_world(str(path))


# ---------------------------------------------------------------- labels, no panda3d
def test_a_beside_label_goes_beside_its_thing_before_stacking_over_another():
    # the flyer's first place (above it) is taken by a model standing behind it on
    # screen: stacked higher, its label would sit right on that model and read as its
    flyer = (100.0, 100.0, 140.0, 160.0)
    behind = (105.0, 163.0, 135.0, 200.0)
    out = place_labels([LabelItem(flyer, 60.0, 16.0, 2.0, beside=True), LabelItem(behind, 60.0, 16.0)])
    (rect, moved), _ = out
    assert moved
    assert rect[0] >= flyer[2] and flyer[1] <= (rect[1] + rect[3]) / 2.0 <= flyer[3], rect
    # without ``beside`` too: stacked above the other model, its leader line would run
    # through that model (the thirteenth review): it goes beside its own model instead
    (plain, _), _ = place_labels([LabelItem(flyer, 60.0, 16.0, 2.0), LabelItem(behind, 60.0, 16.0)])
    assert plain[0] >= flyer[2] or plain[2] <= flyer[0], plain


def test_other_labels_keep_off_a_flyers_area_not_only_its_hitbox():
    flyer = (100.0, 200.0, 140.0, 260.0)
    drop = (100.0, 100.0, 140.0, 260.0)               # its drop line and shadow under it
    low = (90.0, 60.0, 130.0, 95.0)                   # a model whose label would sit on the drop
    out = place_labels([LabelItem(flyer, 60.0, 16.0, 2.0, area=drop, beside=True),
                        LabelItem(low, 50.0, 16.0)])
    rect = out[1][0]
    w = min(rect[2], drop[2]) - max(rect[0], drop[0])
    h = min(rect[3], drop[3]) - max(rect[1], drop[1])
    assert w <= 0 or h <= 0, rect
    assert out[1][1]


# ---------------------------------------------------------------- the view
@pytest.fixture
def staged(view_app, tmp_path):
    from view_fixtures import stage_table
    world = _world(tmp_path)
    table, cam = stage_table(view_app, world)
    yield view_app, world, table, cam
    table.root.removeNode()
    view_app.table_scene = None


def test_the_drop_reaches_the_surface_the_engine_measures_on(staged):
    from engine.measure import measuring_z
    app, world, table, cam = staged
    ground = measuring_z(world, "drake")
    assert ground == pytest.approx(2.0)              # the block's top, not the table
    assert set(table.drops) == {"drake"}             # standing models get none
    lo, hi = table.drops["drake"].getTightBounds(app.render)
    hb = world.hitbox("drake")
    assert lo[2] == pytest.approx(ground, abs=0.03) and hi[2] == pytest.approx(hb.z, abs=1e-4)
    assert (lo[0] + hi[0]) / 2 == pytest.approx(hb.x, abs=1e-3)
    assert (lo[1] + hi[1]) / 2 == pytest.approx(hb.y, abs=1e-3)
    assert hi[0] - lo[0] == pytest.approx(2 * hb.radius, rel=0.01)
    assert table.label_nodes["drake"].node().getText() == 'drake (Flying 4.0" up)'
    assert table.label_nodes["guard-a"].node().getText() == "guard-a"


def test_the_drop_follows_the_flyer_and_goes_when_it_lands(staged):
    app, world, table, cam = staged
    world.move_model("drake", 6.0, 20.0, 3.5)        # over the open table now
    table.sync()
    lo, hi = table.drops["drake"].getTightBounds(app.render)
    assert lo[2] == pytest.approx(0.0, abs=0.03) and hi[2] == pytest.approx(3.5, abs=1e-4)
    assert (lo[0] + hi[0]) / 2 == pytest.approx(6.0, abs=1e-3)
    assert table.label_nodes["drake"].node().getText() == 'drake (Flying 3.5" up)'
    # another state rebuilds the model's node: the drop stays, and hides with the model
    # (a LoS picture's eye view hides the viewer's model)
    world.set_states("drake", ("Flying", "Shrouded"))
    table.sync()
    drop = table.drops["drake"]
    assert not drop.isHidden() and drop.getTightBounds(app.render)[0][2] == pytest.approx(0.0, abs=0.03)
    table.models["drake"].hide()
    assert drop.isHidden()
    table.models["drake"].show()
    world.set_states("drake", ())
    world.move_model("drake", 6.0, 20.0)
    table.sync()
    assert "drake" not in table.drops and table.root.find("**/drop-drake").isEmpty()
    assert table.label_nodes["drake"].node().getText() == "drake"


def _patch(frame, px, radius=2):
    x, y = int(round(px[0])), int(round(px[1]))
    return frame[y - radius:y + radius + 1, x - radius:x + radius + 1].reshape(-1, 3).astype(float)


def test_the_drop_line_and_shadow_show_in_a_frame(staged):
    app, world, table, cam = staged
    hb = world.hitbox("drake")
    cam.set_orbit((16.0, 14.0, 3.0), 0.0, 52.0, 20.0)
    table.labels_root.hide()
    app.step(2)
    frame = app.frame_array()
    # the shadow disc on the block's top: darker than the block's top beside it
    inside = app.project((hb.x - 0.55 * hb.radius, hb.y, 2.0))
    outside = app.project((hb.x - 1.15, hb.y - 0.9, 2.0))
    assert inside is not None and outside is not None
    dark, lit = _patch(frame, inside).mean(axis=0), _patch(frame, outside).mean(axis=0)
    assert dark.sum() < 0.7 * lit.sum(), (dark, lit)
    # the drop line halfway up: blue's colour lightened, neither the table nor the block
    mid = app.project((hb.x, hb.y, (2.0 + hb.z) / 2.0))
    px = _patch(frame, mid, 2)
    r, g, b = px[np.argmax(px[:, 2] - px[:, 0])]
    assert b > 200 and b > r + 40, (r, g, b)
    table.labels_root.show()


def test_a_flyers_label_does_not_sit_on_a_model_standing_behind_it(view_app, tmp_path, monkeypatch):
    # the LoS overview from behind the viewer: the models standing behind the flying target
    # show just above it on screen; its label used to be stacked right on one of them
    from engine import sight
    from engine.view import pictures
    from view_fixtures import label_rect, model_rect, rect_overlap
    world = _world(tmp_path, "14, 12, 5")
    shots = []
    shoot = pictures._Stage.shoot

    def record(self, path, important=()):
        out = shoot(self, path, important)
        t = self.table
        shots.append(({m: label_rect(self.app, n) for m, n in t.label_nodes.items() if not n.isHidden()},
                      {m: model_rect(self.app, world, m) for m in t.label_nodes}))
        return out

    monkeypatch.setattr(pictures._Stage, "shoot", record)
    r = sight.los(world, "archer", "drake", fraction=True)
    pictures.los_pictures(world, r, str(tmp_path / "pics"))
    view_app.table_scene.root.removeNode()
    view_app.table_scene = None
    labels, models = shots[-1]                          # the overview
    mine, me = labels["drake"], models["drake"]
    h = mine[3] - mine[1]
    for other, rect in models.items():
        if other == "drake" or rect is None:
            continue
        # a label just over a model (overlapping it across, its bottom at that model's top) reads as its
        across = min(mine[2], rect[2]) - max(mine[0], rect[0])
        assert not (across > 0 and rect[3] - h <= mine[1] <= rect[3] + h), (other, mine, rect)
        assert rect_overlap(labels[other], me) == 0.0, other
    # and it stays by its own model
    gap_x = max(0.0, mine[0] - me[2], me[0] - mine[2])
    gap_y = max(0.0, mine[1] - me[3], me[1] - mine[3])
    assert max(gap_x, gap_y) <= 2 * h, (mine, me)
