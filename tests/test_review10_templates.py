"""Review 10: area templates and measuring, checked as players placing a template would
(numbers worked by hand in the comments; 1" = 25.4 mm)."""
from __future__ import annotations

import json
import math

import pytest

from cli_run import run_cli  # noqa: E402
from engine import templates as T
from engine.errors import InputError
from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.units import mm
from engine.world import World

R_M = mm(32) / 2          # 0.6299"
R_CL = mm(120) / 2        # 2.3622"


# ----------------------------------------------------------------------------- the card's centre
def crate_world():
    """A 1" crate (x 11-13) between the target (x 10) and another enemy (x 13.65), a 2.5"
    ramp rising along +x (x 10-20, 0.25" per inch) and a 6" wall."""
    terrain = (TerrainSpec("crate", "box", (12.0, 10.0, 0.0), size=(2.0, 2.0, 1.0)),
               TerrainSpec("ramp", "wedge", (15.0, 22.0, 0.0), size=(10.0, 6.0, 2.5)),
               TerrainSpec("tall", "box", (22.0, 10.0, 0.0), size=(0.4, 8.0, 6.0)))
    models = (ModelSpec("red-mage", "red", 32, 45, (4.0, 16.0, None)),
              ModelSpec("blue-t", "blue", 32, 45, (10.0, 10.0, None)),
              ModelSpec("blue-far", "blue", 32, 45, (13.65, 10.0, None)),
              ModelSpec("blue-slope", "blue", 32, 45, (14.0, 22.0, None)),
              ModelSpec("blue-wall", "blue", 32, 45, (21.0, 10.0, None)))
    return World(Scene("", (30, 30), terrain, models))


def test_a_circle_laid_over_a_crate_beside_the_target_sees_from_the_crate_top():
    # centre (11.5, 10): 1.5" from the target, inside the 1.7323" (R_CL - R_M) that keeps it
    # fully covered, and over the crate. The card rests on the crate: LoS from z 1 + 0.04,
    # which sees the target and, over the crate, blue-far (2.15" away: 2.15 - 0.63 < 2.36).
    # Before: the LoS point was inside the crate (z 0.04) and saw nothing: ILLEGAL.
    w = crate_world()
    res = T.template(w, "circle-l", user="red-mage", target="blue-t", at=(11.5, 10.0))
    assert res.legal, res.reason
    assert res.origin == pytest.approx((11.5, 10.0, 1.0 + T.TemplateSettings().lift()))
    assert res.placements[0].band == (-3.0, 3.0)          # the band stays about the target's surface
    assert {h.id for h in res.affected} == {"blue-t", "blue-far"}
    assert res.placements[0].to_json()["centre_z"] == pytest.approx(1.0)


def test_a_circle_up_a_slope_from_the_target_lies_on_the_slope():
    # blue-slope stands at x 14 on the ramp (z 1.0); a centre at x 15.5 lies on the ramp at
    # z (15.5 - 10) * 0.25 = 1.375, not buried 0.335" inside it at the target's 1.04
    w = crate_world()
    assert w.hitbox("blue-slope").z == pytest.approx(1.0)
    pl = T.place_circle(w, "circle-l", target="blue-slope", at=(15.5, 22.0))
    lift = T.TemplateSettings().lift()
    assert pl.origin[2] == pytest.approx(1.375 + lift, abs=1e-6)
    assert pl.band == pytest.approx((-2.0, 4.0))
    # the centre on the target itself is where it always was
    assert T.place_circle(w, "circle-l", target="blue-slope").origin[2] == pytest.approx(1.0 + lift)


def test_the_best_circle_may_lie_over_a_crate():
    # only centres over the crate reach blue-far with LoS (from the ground the crate hides it)
    w = crate_world()
    best = T.best_placement(w, "circle-l", user="red-mage", target="blue-t")
    assert best.legal and {h.id for h in best.affected} == {"blue-t", "blue-far"}
    c = best.placements[0].centre
    assert 11.0 <= c[0] <= 13.0 and best.origin[2] == pytest.approx(1.0 + T.TemplateSettings().lift())
    # asked again with the printed centre: the same verdict
    again = T.template(w, "circle-l", user="red-mage", target="blue-t", at=(round(c[0], 2), round(c[1], 2)))
    assert again.legal and {h.id for h in again.affected} == {"blue-t", "blue-far"}


def test_a_circle_centred_inside_scenery_taller_than_its_band_is_refused(capsys, tmp_path):
    # the 6" wall (x 21.8-22.2) rises above the band's top (3"): no card lies there
    w = crate_world()
    with pytest.raises(InputError, match="inside tall"):
        T.place_circle(w, "circle-l", target="blue-wall", at=(22.0, 10.0))
    scene = tmp_path / "wall.yaml"
    scene.write_text("table: [30, 30]\nterrain:\n  - {id: tall, shape: box, at: [12, 10, 0], size: [0.4, 8, 6]}\n"
                     "models:\n  - {id: red-mage, side: red, profile: sample-red#mage, at: [4, 10], facing: 0}\n"
                     "  - {id: blue-a, side: blue, size: M, at: [11, 10], facing: 180}\n")
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-a",
                           "--by", "red-mage", "--at", "12,10")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--at: (12, 10) is inside tall" in err
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-a",
                           "--by", "red-mage", "--best", "--json")
    d = json.loads(out)
    assert rc == 0 and d["legal"]
    assert math.hypot(d["placements"][0]["at"][0] - 12.0, 0) > 0.2 + 1e-9    # never inside the wall


def test_a_centre_inside_a_pillar_under_a_deck_is_found_inside_the_pillar():
    # the pillar's top (z 3) is the deck's bottom: the way up meets both faces at once; the
    # pillar is named and the deck above it (to 3.4, over the band's 3) refuses the card
    terrain = (TerrainSpec("pillar", "box", (12.0, 10.0, 0.0), size=(1.0, 3.0, 3.0)),
               TerrainSpec("deck", "box", (16.0, 10.0, 3.0), size=(10.0, 3.0, 0.4)))
    w = World(Scene("", (30, 30), terrain, (ModelSpec("blue-a", "blue", 32, 45, (10.6, 10.0, 0.0)),)))
    with pytest.raises(InputError, match="inside pillar"):
        T.place_circle(w, "circle-l", target="blue-a", at=(12.0, 10.0))
    # beside the pillar, under the deck: the card lies on the table, as before
    assert T.place_circle(w, "circle-l", target="blue-a", at=(11.4, 10.0)).centre_z is None


def test_the_aoe_text_says_the_card_lies_on_the_scenery():
    from tools.cmd_aoe import describe
    w = crate_world()
    over = describe(T.template(w, "circle-l", user="red-mage", target="blue-t", at=(11.5, 10.0)), w)
    assert "on the surface at z 0.00 (the card lies on the scenery there, at z 1.00); band z -3.00 to 3.00" in over
    flat = describe(T.template(w, "circle-l", user="red-mage", target="blue-t"), w)
    assert "card lies" not in flat
