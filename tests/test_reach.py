"""The reachable area (engine.motion.reachable): hand-checked cases, agreement
with the exact path check, and the property Run contains Walk."""
import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings as hsettings, strategies as stg

from engine.errors import InputError
from engine.motion import check_path, reachable
from engine.scene import TerrainSpec
from tests.motion_scenes import R_M, box, medium, world


def _yard(models):
    """A small yard: a 3" wall, a 1" wall, a building with a ladder, a mud patch, a bridge."""
    t = [box("wall", 12, 14, 0, 0.5, 8, 3),
         box("low", 6, 6, 0, 4, 0.5, 1),
         box("bldg", 20, 6, 0, 4, 4, 3),
         box("ladder", 17.9, 6, 0, 0.2, 1, 3, tags=("ladder",)),
         TerrainSpec("mud", "box", (6, 20, 0), size=(5, 4, 0.1), tags=frozenset({"area", "difficult"})),
         box("bridge", 20, 18, 2.2, 3, 6, 0.3)]
    return world(t, models, table=(28, 28))


def test_open_table_walk_is_a_disc_of_spd():
    w = world([], [medium("m", 18, 18, spd=6)])
    g = reachable(w, "m", "walk")
    assert g.resolution == 0.25 and g.allowance == 6.0
    pts = g.points()
    d = np.hypot(pts[:, 0] - 18, pts[:, 1] - 18)
    assert d.max() <= 6.0 + 1e-9                     # never further than the straight distance
    cells = ((np.arange(144) + 0.5) * 0.25)
    gx, gy = np.meshgrid(cells, cells)
    ideal = int(np.sum(np.hypot(gx - 18, gy - 18) <= 6.0))
    assert 0.97 * ideal <= len(pts) <= ideal
    assert g.contains(18 + 5.8, 18) and g.contains(18, 18 - 5.8)
    assert not g.contains(18 + 6.2, 18)
    # cell centres are at (k + 0.5) * 0.25: (22.125, 18.125) is 4.1269" away
    assert g.cost_at(22.1, 18.1) == pytest.approx(math.hypot(4.125, 0.125), abs=0.02)
    # a grid path is never shorter than the straight line, and (32 neighbours)
    # at most 0.11" longer here: under half a cell
    c = g.cost[0][np.isfinite(g.cost[0])]
    gz = np.hypot(gx - 18, gy - 18)[np.isfinite(g.cost[0])]
    assert np.all(c >= gz - 1e-9)
    assert np.max(c - gz) <= 0.11
    assert np.max((c / gz)[gz > 3]) <= 1.025
    s = g.summary(w.pieces)
    assert s["levels"] == [{"surface": "table", "cells": len(pts), "z": 0.0, "z_max": 0.0}]
    assert s["area_sq_in"] == pytest.approx(len(pts) * 0.0625)


def test_run_is_twice_walk_and_states_restrict():
    w = world([], [medium("m", 18, 18, spd=4, states=("Crouched",))])
    walk = reachable(w, "m", "walk")
    assert walk.allowance == 2.0
    run = reachable(w, "m", "run")
    assert len(run.points()) == 0                     # Crouched: Walk only
    assert run.allowance == 0 and run.reason == check_path(w, "m", [(20, 18)], "run").reason
    assert "Crouched" in run.reason and walk.reason == ""
    w2 = world([], [medium("m", 18, 18, states=("Immobilized",))])
    still = reachable(w2, "m", "walk")
    assert len(still.points()) == 0 and still.allowance == 0 and "Immobilized" in still.summary()["reason"]
    with pytest.raises(InputError):
        reachable(w2, "m", "climb")
    with pytest.raises(InputError):
        reachable(w2, "nobody", "walk")


def test_a_tall_wall_is_walked_around_and_a_low_wall_over():
    w = _yard([medium("m", 10.5, 14, spd=6)])
    g = reachable(w, "m", "run")
    # straight through the 3" wall would be 3"; around its end (y 10..18) it is much more
    assert g.cost_at(13.5, 14) > 8.0
    # across the 1" wall: the straight distance
    w2 = _yard([medium("m", 6.125, 4.625, spd=6)])      # on a cell centre
    g2 = reachable(w2, "m", "walk")
    assert g2.cost_at(6.125, 7.625) == pytest.approx(3.0, abs=1e-9)


def test_the_ladder_takes_a_run_onto_the_roof_but_not_a_walk():
    w = _yard([medium("m", 16, 6, spd=6)])
    walk = reachable(w, "m", "walk")
    run = reachable(w, "m", "run")
    assert not walk.contains(20, 6, 3)
    assert run.contains(20, 6, 3)
    # about 2" across plus 3" up at 2 per inch, and across the roof
    assert run.cost_at(20, 6, 3) == pytest.approx(4.0 + 6.0, abs=0.35)
    assert any(lv["z"] == 3.0 and lv["surface"] == "bldg" for lv in run.summary(w.pieces)["levels"])


def test_two_levels_in_one_cell_under_and_on_a_bridge():
    w = _yard([medium("m", 20, 13.5, spd=6), medium("s", 15, 18, spd=6)])
    g = reachable(w, "m", "run")
    assert g.contains(20, 18, 0.0)            # under the bridge (2.2" of room > 1.77")
    # the bridge top (2.5") is not reachable from the ground: no ramp, no ladder
    assert not g.contains(20, 18, 2.5)


def test_difficult_ground_costs_double_in_the_grid():
    w = _yard([medium("m", 6, 14, spd=10)])
    g = reachable(w, "m", "run")
    # straight north 6" into the mud patch (y 18-22, reached by the base at y 17.37)
    direct = 17.37 - 14 + 2 * (20 - 17.37)
    assert g.cost_at(6, 20) == pytest.approx(direct, abs=0.3)


def test_enemies_block_allies_can_be_crossed_but_not_ended_on():
    c = 0.125                                      # positions on cell centres
    w = world([], [medium("m", 10 + c, 10 + c, spd=6), medium("e", 13 + c, 10 + c, side="blue"),
                   medium("a", 10 + c, 13 + c)])
    g = reachable(w, "m", "walk")
    assert not g.contains(13, 10)                 # inside the enemy
    assert not g.contains(10, 13)                 # inside the ally: may not end there
    assert np.isfinite(g.cost_at(10, 13))         # ... but it is crossed
    # behind the ally: the straight line through it
    assert g.cost_at(10 + c, 15 + c) == pytest.approx(5.0, abs=1e-9)
    # behind the enemy: around it (more than the straight 5")
    assert g.cost_at(15 + c, 10 + c) > 5.3
    # the nearest cell short of touching the enemy is reachable
    assert g.contains(13 + c - 2 * R_M - 0.25, 10 + c)


def test_an_engaged_model_reaches_only_the_line_to_its_engager():
    w = world([], [medium("m", 10, 10, states=("Engaged",)), medium("e", 14, 10, side="blue", rch=3)])
    g = reachable(w, "m", "walk")
    pts = g.points()
    assert len(pts) > 0
    assert np.all(np.abs(pts[:, 1] - 10) <= 0.25) and np.all(pts[:, 0] >= 9.8)


def test_shortest_path_agrees_with_the_exact_check():
    w = _yard([medium("m", 10, 14, spd=8), medium("e", 15, 20, side="blue")])
    g = reachable(w, "m", "run")
    rng = np.random.default_rng(5)
    pts = g.points()
    picks = pts[rng.choice(len(pts), 12, replace=False)]
    for p in picks:
        wp = g.shortest_path(tuple(p))
        assert wp[0] == pytest.approx((10, 14, 0), abs=1e-9)
        assert wp[-1] == pytest.approx(tuple(p), abs=1e-9)
        r = check_path(w, "m", [q for q in wp[1:]] or [tuple(p)], "run")
        assert r.legal, (p, r.reason)
        # the exact route costs no more than the grid's (ladder and area edges averaged per cell)
        assert r.distance <= g.cost_at(*p) + 0.3, (p, r.distance, g.cost_at(*p))
    assert g.shortest_path((27.9, 27.9)) == []


def test_static_layers_are_built_once_per_world():
    w = world([box("wall", 12, 14, 0, 0.5, 8, 3)], [medium("m", 10, 10), medium("n", 20, 20)])
    g1 = reachable(w, "m", "walk")
    w.move_model("m", 11, 11)
    g2 = reachable(w, "m", "walk")
    assert g2._static is g1._static
    assert g2.start == pytest.approx((11, 11, 0), abs=1e-6)
    assert g2.contains(14, 8.5) and not g1.contains(16.5, 10.5) and not g2.contains(11, 4.5)


@hsettings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stg.lists(stg.tuples(stg.floats(3, 17), stg.floats(3, 17), stg.floats(0.3, 4), stg.floats(0.3, 4),
                            stg.floats(0.3, 3.5)), min_size=1, max_size=5),
       stg.floats(4, 16), stg.floats(4, 16), stg.integers(3, 7))
def test_property_run_contains_walk(boxes, x, y, spd):
    t = [box(f"b{i}", bx, by, 0, sx, sy, sz) for i, (bx, by, sx, sy, sz) in enumerate(boxes)]
    w = world(t, [medium("m", x, y, spd=spd)], table=(20, 20))
    walk = reachable(w, "m", "walk")
    run = reachable(w, "m", "run")
    assert np.all(run.end_ok[walk.end_ok])
    both = np.isfinite(walk.cost)
    assert np.allclose(walk.cost[both], run.cost[both])
    assert np.all(walk.cost[walk.end_ok] <= spd + 1e-9)


def test_a_model_flush_with_a_wall_still_has_its_area():
    # in base contact with a 3" wall: the cells next to it are inside the grid's
    # widened clearance, the area starts from the nearest ones
    w = world([box("wall", 10, 10, 0, 0.5, 8, 3)], [medium("m", 9.75 - R_M, 10, spd=6)])
    g = reachable(w, "m", "walk")
    assert len(g.points()) > 800
    assert g.contains(6, 10) and not g.contains(11, 10)
    assert g.cost_at(9.75 - R_M - 3, 10) == pytest.approx(3.0, abs=0.15)


def test_a_warm_query_equals_a_cold_one_as_the_models_move():
    # the static graph is built once per table and base size; each query only
    # drops the steps the models block: moving them between queries never leaks
    # into the cache (a fresh World gives the same costs, ends and paths)
    warm = _yard([medium("m", 10, 14, z=0.0, spd=8), medium("e", 15, 20, side="blue"), medium("a", 8, 12)])
    reachable(warm, "m", "run")
    for ex, ey, ax, ay in [(11.5, 14.2, 8, 12), (10, 16, 11, 12.5), (24, 12, 10, 15.6), (9, 13, 12, 14)]:
        warm.move_model("e", ex, ey, 0.0)
        warm.move_model("a", ax, ay, 0.0)
        cold = _yard([medium("m", 10, 14, z=0.0, spd=8), medium("e", ex, ey, z=0.0, side="blue"),
                      medium("a", ax, ay, z=0.0)])
        for mode in ("walk", "run"):
            gw, gc = reachable(warm, "m", mode), reachable(cold, "m", mode)
            assert np.array_equal(gw.cost, gc.cost) and np.array_equal(gw.end_ok, gc.end_ok)
            assert gw.stats["edges"] == gc.stats["edges"]
            for p in gw.points()[::97]:
                assert gw.shortest_path(tuple(p)) == gc.shortest_path(tuple(p))


def _cliffs(skills=()):
    """An unscalable 3" cliff with a ladder, a scalable twin, and an unscalable area strip."""
    t = [box("cliff", 12, 20, 0, 4, 4, 3, tags=("unscalable",)),
         box("cliff-ladder", 9.9, 20, 0, 0.2, 1, 3, tags=("ladder",)),
         box("twin", 12, 8, 0, 4, 4, 3),
         box("twin-ladder", 9.9, 8, 0, 0.2, 1, 3, tags=("ladder",)),
         TerrainSpec("strip", "box", (20, 14, 0), size=(1, 30, 0.01), tags=frozenset({"area", "unscalable"}))]
    return world(t, [medium("m", 8, 14, spd=8, skills=skills)], table=(28, 28))


@pytest.mark.parametrize("skills", [(), ("Climbing",)])
def test_unscalable_pieces_and_areas_in_the_grid_and_the_path_check(skills):
    w = _cliffs(skills)
    g = reachable(w, "m", "run")
    climber = bool(skills)
    assert g.contains(12, 8, 3)                          # the twin, by its ladder: anyone
    assert g.contains(12, 20, 3) == climber              # the unscalable cliff, ladder or not
    assert g.contains(22, 14) == climber                 # beyond the strip
    assert g.contains(18, 14)                            # short of it
    for to in [(12, 20, 3), (22, 14)]:
        r = check_path(w, "m", [(9.4, 14 if to[1] == 14 else to[1]), to], "run")
        assert r.legal == climber, r.reason
        if not climber:
            assert "unscalable" in r.reason
    # cut short on the cliff's face (a Climb of 1.5"): still barred
    w2 = world([box("cliff", 12, 20, 0, 4, 4, 3, tags=("unscalable",))],
               [medium("m", 10 - R_M, 20, spd=3, skills=skills)], table=(28, 28))
    r = check_path(w2, "m", [(11, 20, 3)], "climb")
    assert r.ends_on_vertical and r.legal == climber
    # a Jump and a pull-up onto a 1.5" unscalable block
    w3 = world([box("block", 12, 20, 0, 4, 4, 1.5, tags=("unscalable",))],
               [medium("m", 9, 20, spd=8, skills=skills)], table=(28, 28))
    j = check_path(w3, "m", [(11, 20, 1.5)], "jump")
    assert j.legal == climber and ("unscalable" in j.reason) != climber


def test_a_model_on_an_unscalable_piece_may_leave_it():
    t = [box("cliff", 12, 20, 0, 4, 4, 3, tags=("unscalable",)),
         box("cliff-ladder", 9.9, 20, 0, 0.2, 1, 3, tags=("ladder",))]
    w = world(t, [medium("m", 11, 20, 3, spd=6)], table=(28, 28))
    assert check_path(w, "m", [(13, 20, 3)], "walk").legal           # across its top
    assert check_path(w, "m", [(8, 20, 0)], "run").legal   # down its ladder
    g = reachable(w, "m", "run")
    assert g.contains(13, 20, 3) and g.contains(8, 20, 0)


def test_a_table_too_large_for_the_grid_and_an_absurd_arc_are_refused_not_run():
    w = world([], [medium("m", 5, 5, spd=6)], table=(1000, 1000))
    with pytest.raises(InputError, match="more than 500000"):
        reachable(w, "m", "walk")
    assert reachable(w, "m", "walk", resolution=1.5).contains(8, 5)
    w = world([], [medium("m", 5, 5, spd=6)])
    with pytest.raises(InputError, match="apex"):
        check_path(w, "m", [(8, 5)], "jump", settings={"jump_shape": "arc", "arc_apex": 1e6})
    r = check_path(w, "m", [(8, 5)], "jump", settings={"jump_shape": "arc", "arc_apex": 900.0})
    assert r.distance == pytest.approx(3.0, abs=1e-6) and r.falls    # up 3" of the arc, then down
