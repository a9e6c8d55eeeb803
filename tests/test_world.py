"""World queries against hand-computed geometry."""
import math

import numpy as np
import pytest

from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.units import mm
from engine.world import World, cylinder_distance, segments_hit_cylinders

R_M = mm(32) / 2          # Medium base radius, inches
H_M = mm(45)              # Medium hitbox height


def make_world(terrain=(), models=(), table=(36, 36)):
    return World(Scene("", table, terrain=tuple(terrain), models=tuple(models)))


def medium(mid, x, y, z=None, side="red", **kw):
    return ModelSpec(mid, side, 32, 45, (x, y, z), stats=kw.pop("stats", {"AG": 4}), **kw)


def test_wedge_heights_rise_linearly_along_its_x():
    w = make_world([TerrainSpec("ramp", "wedge", (25, 8, 0), size=(4, 3, 2))])
    # x from 23 to 27 rises from 0 to 2
    z = w.surface_height([[23.5, 8], [25, 8], [26, 8], [26.9, 8.5]])
    assert z == pytest.approx([0.25, 1.0, 1.5, 1.95], abs=1e-4)


def test_turned_wedge_rises_along_its_turned_axis():
    w = make_world([TerrainSpec("ramp", "wedge", (10, 10, 0), size=(4, 3, 2), turn=90)])
    # turned 90 degrees: rises along +y
    assert w.surface_height([[10, 9], [10, 11]]) == pytest.approx([0.5, 1.5], abs=1e-4)


def test_heightfield_is_piecewise_linear_over_its_grid():
    w = make_world([TerrainSpec("hill", "heightfield", (28, 28, 0), size=(8, 8),
                                heights=((0, 0, 0), (0, 1.5, 0), (0, 0, 0)))])
    z = w.surface_height([[28, 28], [30, 28], [28, 26], [31, 30], [24.5, 24.5]])
    # (24.5, 24.5) lies on the cell's diagonal towards the peak: 1.5 * 0.125
    assert z == pytest.approx([1.5, 0.75, 0.75, 0.375, 0.1875], abs=1e-4)


def test_surfaces_at_lists_every_level():
    w = make_world([TerrainSpec("floor", "prism", (10, 10, 2.5), points=((0, 0), (6, 0), (6, 4), (0, 4)), height=0.25),
                    TerrainSpec("roof", "box", (13, 12, 5), size=(2, 2, 0.5))])
    assert w.surfaces_at(13, 12) == pytest.approx([0.0, 2.75, 5.5], abs=1e-4)
    # below a given height: the floor, not the roof
    assert w.surface_height([[13, 12]], below=4.0)[0] == pytest.approx(2.75, abs=1e-4)


def test_model_with_z_left_out_stands_on_highest_surface_and_z_given_picks_level():
    w = make_world([TerrainSpec("floor", "box", (10, 10, 2.5), size=(6, 6, 0.25))],
                   [medium("up", 10, 10), medium("down", 11, 11, 0)])
    assert w.hitbox("up").z == pytest.approx(2.75, abs=1e-4)
    assert w.hitbox("down").z == pytest.approx(0.0, abs=1e-4)


def test_base_overhanging_a_step_rests_on_the_higher_support():
    w = make_world([TerrainSpec("step", "box", (10, 10, 0), size=(2, 2, 0.5))], [medium("m", 11.3, 10, 0.6)])
    # centre at x=11.3 is off the step (edge at 11) but the base (r=0.63) overlaps it
    assert w.hitbox("m").z == pytest.approx(0.5, abs=1e-4)


def test_distance_between_models_at_different_heights():
    w = make_world([TerrainSpec("tower", "box", (20, 10, 0), size=(2, 2, 4))],
                   [medium("low", 10, 10), medium("high", 20, 10)])
    # horizontal gap 10 - 2r, vertical gap 4 - H
    gap_h = 10 - 2 * R_M
    gap_v = 4 - H_M
    assert w.distance("low", "high") == pytest.approx(math.hypot(gap_h, gap_v), abs=1e-4)
    assert w.height_difference("low", "high") == pytest.approx(4.0, abs=1e-4)
    pa, pb = w.closest_points("low", "high")
    assert np.linalg.norm(pa - pb) == pytest.approx(w.distance("low", "high"), abs=1e-4)


def test_base_contact_when_exactly_touching():
    w = make_world(models=[medium("a", 10, 10, 0), medium("b", 10 + 2 * R_M, 10, 0)])
    assert w.distance("a", "b") == pytest.approx(0.0, abs=1e-9)
    assert w.base_contact("a", "b")
    w.move_model("b", 10 + 2 * R_M + 0.01, 10, 0)
    assert not w.base_contact("a", "b")
    assert w.in_reach("a", "b", 1) and not w.in_reach("a", "b", 0)


@pytest.mark.parametrize("gap, inside", [(4.0 - 1e-4, True), (4.0, True), (4.0 + 0.01, False)])
def test_awareness_edges(gap, inside):
    w = make_world(models=[medium("a", 10, 10, 0, stats={"AG": 4}), medium("b", 10 + 2 * R_M + gap, 10, 0)])
    assert w.in_awareness("a", "b") is inside


def test_acute_senses_adds_three_inches():
    from engine.scene import Profile
    prof = Profile("p#scout", "scout", {"AG": 4}, traits=("Acute Senses",))
    w = make_world(models=[ModelSpec("a", "red", 32, 45, (10, 10, 0), profile=prof, stats={"AG": 4}),
                           medium("b", 10 + 2 * R_M + 6.5, 10, 0)])
    assert w.awareness("a") == 7.0
    assert w.in_awareness("a", "b")


def test_crouched_hitbox_keeps_only_its_base_height():
    w = make_world(models=[medium("a", 10, 10, 0)])
    assert w.hitbox("a").height == pytest.approx(H_M)
    w.set_states("a", {"Crouched"})
    assert w.hitbox("a").height < 0.2


def test_pick_returns_the_first_thing_hit():
    w = make_world([TerrainSpec("wall", "box", (18, 18, 0), size=(8, 0.5, 3))], [medium("m", 10, 18, 0)])
    p = w.pick([10, 18, 10], [0, 0, -1])
    assert p.kind == "model" and p.id == "m"
    assert p.point[2] == pytest.approx(H_M, abs=1e-4)
    p = w.pick([18, 10, 1], [0, 1, 0])
    assert (p.kind, p.id) == ("terrain", "wall") and p.point[1] == pytest.approx(17.75, abs=1e-4)
    p = w.pick([30, 30, 10], [0, 0, -1])
    assert (p.kind, p.id) == ("table", "table")
    assert w.pick([30, 30, 10], [0, 0, 1]).kind is None


def test_moving_models_does_not_rebuild_terrain():
    w = make_world([TerrainSpec("wall", "box", (18, 18, 0), size=(8, 0.5, 3))], [medium("m", 10, 18, 0)])
    rays, v = w.rays, w.version
    w.move_model("m", 5, 5)
    w.add_model(medium("n", 20, 20, 0))
    w.remove_model("m")
    assert w.rays is rays and w.version == v + 3
    assert w.model_ids() == ["n"]


def test_models_block_segments_and_excluded_ones_do_not():
    w = make_world(models=[medium("a", 5, 10, 0), medium("mid", 10, 10, 0), medium("b", 15, 10, 0)])
    o, e = np.array([[5, 10, 0.5]]), np.array([[15, 10, 0.5]])
    assert w.model_ids()[w.models_blocking(o, e, exclude=("a", "b"))[0]] == "mid"
    assert w.models_blocking(o, e, exclude=("a", "b", "mid"))[0] == -1
    # over the top of the middle model
    assert w.models_blocking(np.array([[5, 10, 3]]), np.array([[15, 10, 3]]), exclude=("a", "b"))[0] == -1


def test_cylinder_distance_broadcasts():
    c1 = np.zeros((4, 3))
    c2 = np.array([[3, 0, 0], [0, 0, 5], [3, 0, 5], [0.5, 0, 0]], dtype=float)
    d = cylinder_distance(c1, 1.0, 2.0, c2, 1.0, 2.0)
    assert d == pytest.approx([1.0, 3.0, math.hypot(1, 3), 0.0])


def test_segment_cylinder_entry_parameter():
    t = segments_hit_cylinders(np.array([[0, 0, 1.0]]), np.array([[10, 0, 1.0]]),
                               np.array([[5, 0, 0]]), np.array([1.0]), np.array([2.0]))
    assert t[0, 0] == pytest.approx(0.4)


def test_trimesh_backend_agrees_with_embree():
    terrain = [TerrainSpec("wall", "box", (18, 18, 0), size=(8, 0.5, 3)),
               TerrainSpec("hill", "heightfield", (28, 28, 0), size=(8, 8), heights=((0, 0, 0), (0, 1.5, 0), (0, 0, 0)))]
    a = World(Scene("", (36, 36), terrain=tuple(terrain)), backend="trimesh")
    b = World(Scene("", (36, 36), terrain=tuple(terrain)))
    rng = np.random.default_rng(1)
    o = np.column_stack([rng.uniform(0, 36, 200), rng.uniform(0, 36, 200), rng.uniform(0, 4, 200)])
    e = np.column_stack([rng.uniform(0, 36, 200), rng.uniform(0, 36, 200), rng.uniform(0, 4, 200)])
    assert (a.rays.occluded(o, e) == b.rays.occluded(o, e)).mean() > 0.99
    xy = o[:, :2]
    assert a.surface_height(xy) == pytest.approx(b.surface_height(xy), abs=1e-3)


def test_surface_heights_are_exact_not_float32():
    # Embree's distances are float32: a height taken from them is off by ~1e-7 (a model on
    # the table at 4.8e-7, a "-0.00" height difference); the hit plane gives the exact one
    w = make_world([TerrainSpec("box", "box", (20.3, 17.7, 0), size=(3, 3, 2.7)),
                    TerrainSpec("ramp", "wedge", (10, 10, 0), size=(4, 3, 2))],
                   models=[medium("m", 31.7, 33.3)])
    z = w.surface_height([[31.7, 33.3], [13.1, 29.9], [20.3, 17.7], [21.1, 18.4], [9.0, 10.0]])
    assert list(z[:4]) == [0.0, 0.0, 2.7, 2.7]
    assert z[4] == pytest.approx(0.5, abs=1e-12)
    assert w.hitbox("m").z == 0.0
