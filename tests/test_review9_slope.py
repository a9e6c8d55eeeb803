"""Review 9: a move that ends on a slope rests where the World rests a base there.

Rulings "Where a base rests": a slope counts at its height under the base centre
(``World.stand_z``). The movement engine stood a moved model on its base's highest
support (the uphill rim: 1.81 on scenes/heights.yaml's hill where the slope under
the centre is 1.50), a scene placed it under its centre: line of sight from the
moved model started 0.31" higher. A base half over a step still stands on the step
(another level, not the same slope). Routes, costs and clearance keep the highest
support; only where the move ends follows the ruling.

Medium base: 32 mm -> radius R = 0.6299", hitbox 1.7717" tall.
"""
import math

import numpy as np
import pytest

from engine.motion import check_path, reachable
from engine.scene import TerrainSpec, load_scene
from engine.world import World
from tests.motion_scenes import R_M, box, medium, world

HEIGHTS = "scenes/heights.yaml"
SPD = {"blue-scout": 6}          # no profile: the SPD is given


@pytest.fixture(scope="module")
def heights():
    return World(load_scene(HEIGHTS))


def _stand(w, model, x, y):
    return float(w.stand_z(x, y, w.hitbox(model).radius))


# --------------------------------------------------------------------------- walks
def test_a_walk_ending_on_the_hill_ends_where_the_world_stands_a_base():
    w = World(load_scene(HEIGHTS))
    # red-mage (M) on the hilltop walks 3" down its south slope (0.5" per inch)
    r = check_path(w, "red-mage", [(9, 24)], "walk")
    assert r.legal, r.reason
    want = _stand(w, "red-mage", 9, 24)
    assert want == pytest.approx(1.5)
    assert r.end[2] == pytest.approx(want, abs=1e-6)          # before: 1.81 (the uphill rim)
    assert r.path[-1] == pytest.approx(r.end, abs=1e-9)
    # the cost along the slope is unchanged (the route keeps its highest support)
    assert r.distance == pytest.approx(3.35, abs=0.01)
    # once moved there, the World agrees it stands (not hanging, not sunk)
    hb = w.move_model("red-mage", *r.end)
    assert float(w.stand_z(hb.x, hb.y, hb.radius, near_z=hb.z)) == pytest.approx(hb.z, abs=1e-6)


def test_a_run_ending_on_the_ramp_ends_where_the_world_stands_a_base(heights):
    # blue-scout (S) on the cliff ramp (1.5" up at x 18) runs 2" up it
    r = check_path(heights, "blue-scout", [(20, 30)], "run", speed=6)     # no profile: SPD given
    assert r.legal, r.reason
    want = _stand(heights, "blue-scout", 20, 30)
    assert want == pytest.approx(2.5)
    assert r.end[2] == pytest.approx(want, abs=1e-6)


def test_a_declared_end_level_at_either_height_is_the_same_level(heights):
    # the old end height (the uphill rim, 1.81) still names the hill's level
    for z in (1.5, 1.81):
        r = check_path(heights, "red-mage", [(9, 24, z)], "walk")
        assert r.legal, (z, r.reason)
        assert r.end[2] == pytest.approx(1.5, abs=1e-6)
    r = check_path(heights, "red-mage", [(9, 24, 0)], "walk")
    assert not r.legal and "ends at z 1.50" in r.reason, r.reason


def test_a_walk_onto_a_step_still_ends_on_the_step():
    # a 1" box (x 9-13): the base's centre stops 0.3" short of its edge, its rim over it
    w = world([box("step", 11, 10, 0, 4, 8, 1)], [medium("m", 5, 10)])
    x = 9 - 0.3
    r = check_path(w, "m", [(x, 10, 1)], "walk")
    assert r.legal, r.reason
    assert r.end[2] == pytest.approx(1.0, abs=1e-6)
    assert float(w.stand_z(x, 10, R_M, near_z=r.end[2])) == pytest.approx(1.0, abs=1e-6)
    # the ground under its centre is no level there (the base rests on the step)
    assert not check_path(w, "m", [(x, 10, 0)], "walk").legal


def test_a_base_on_a_ramp_whose_rim_reaches_a_box_stands_on_the_box():
    # a ramp rising 0.25" per inch; a 1.2" box beside its top: a base centred on the
    # ramp at 1.0" with its rim over the box is on the box's level (a step, not the slope)
    ramp = TerrainSpec("ramp", "wedge", (12, 10, 0), size=(8, 4, 2))        # x 8-16, 0 to 2
    w = world([ramp, box("box", 10, 13, 0, 4, 2, 1.2)], [medium("m", 10, 9)])     # box y 12-14
    y = 12 - 0.3
    r = check_path(w, "m", [(12, y)], "walk")
    assert r.legal, r.reason
    assert float(w.surface_height([[12, y]])[0]) == pytest.approx(1.0)
    assert r.end[2] == pytest.approx(1.2, abs=1e-6)


# --------------------------------------------------------------------------- jumps, falls
def test_a_jump_along_a_ramp_lands_on_the_slope_under_its_centre():
    ramp = TerrainSpec("ramp", "wedge", (20, 10, 0), size=(8, 4, 4))      # rises 1" per 2" along +x
    w = world([ramp], [medium("m", 18, 10, spd=6)])
    r = check_path(w, "m", [(19, 10)], "jump")
    assert r.legal and r.falls == []
    assert r.distance == pytest.approx(math.hypot(1.0, 0.5), abs=0.01)   # straight along the slope
    assert r.end[2] == pytest.approx(float(w.stand_z(19, 10, R_M)), abs=1e-6)     # 1.5; before 1.81
    assert r.end[2] == pytest.approx(1.5, abs=1e-6)


def test_a_fall_onto_a_ramp_lands_on_the_slope_under_its_centre():
    # down from a 4" block onto the ramp: the fall's landing and the end are where the
    # World rests the base; the fall is measured to the base's first touch (its rim)
    ramp = TerrainSpec("ramp", "wedge", (20, 10, 0), size=(8, 4, 4))
    w = world([ramp, box("block", 14, 10, 0, 3, 4, 4)], [medium("m", 14, 10, spd=10)])
    r = check_path(w, "m", [(18, 10)], "jump")
    assert r.legal, r.reason
    want = float(w.stand_z(18, 10, R_M))
    assert want == pytest.approx(1.0)
    assert r.end[2] == pytest.approx(want, abs=1e-6)
    assert len(r.falls) == 1 and r.falls[0].at[2] == pytest.approx(want, abs=1e-6)
    assert r.falls[0].height == pytest.approx(3.0 - (1.0 + 0.5 * R_M), abs=0.01)


# --------------------------------------------------------------------------- the reachable area
def test_reach_ends_on_the_hill_and_ramp_agree_with_the_move_and_the_world(heights):
    for model, p in (("red-mage", (9.125, 24.125)), ("red-mage", (11.375, 25.625)),
                     ("blue-scout", (20.125, 30.125))):
        g = reachable(heights, model, "walk", speed=SPD.get(model))
        pts = g.points()
        k = int(np.argmin(np.hypot(pts[:, 0] - p[0], pts[:, 1] - p[1])))
        end = pts[k]
        assert end[:2] == pytest.approx(p, abs=1e-9)
        want = _stand(heights, model, *p)
        assert end[2] == pytest.approx(want, abs=1e-6), (model, p)          # before: the uphill rim
        route = g.shortest_path(tuple(end))
        assert route and route[-1] == pytest.approx(tuple(end), abs=1e-9)
        r = check_path(heights, model, route[1:], "walk", speed=SPD.get(model))
        assert r.legal, (model, p, r.reason)
        assert r.end == pytest.approx(tuple(end), abs=1e-6)
        assert g.contains(*end) and g.cost_at(*end) < math.inf


def test_a_model_that_walked_onto_a_slope_walks_and_reaches_on():
    w = World(load_scene(HEIGHTS))
    r = check_path(w, "blue-scout", [(19, 30)], "walk", speed=6)
    w.move_model("blue-scout", *r.end)
    assert w.hitbox("blue-scout").z == pytest.approx(2.0, abs=1e-6)
    nxt = check_path(w, "blue-scout", [(17, 30)], "walk", speed=6)
    assert nxt.legal and nxt.end[2] == pytest.approx(1.0, abs=1e-6), nxt.reason
    g = reachable(w, "blue-scout", "walk", speed=6)
    assert not g.reason and g.contains(17.125, 30.125, float(w.stand_z(17.125, 30.125, w.hitbox("blue-scout").radius)))
