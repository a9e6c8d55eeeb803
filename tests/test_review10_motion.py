"""Review 10, movement as two players measuring a move would check it: `eldfall move`
and `eldfall reach` against the rules text, and the defects found there.

Medium base: 32 mm -> radius R = 0.6299", hitbox 1.7717" tall.
"""
import pytest

from engine.motion import check_path
from tests.motion_scenes import R_M, box, medium, world


# --------------------------------------------------------------------------- jump down
@pytest.mark.parametrize("to", [(12.0, 8.0), (12.0, 8.0, 0.0)])
def test_a_jump_down_to_a_point_given_with_its_height_goes_across_then_down(to):
    # SPD 6 (Jump 3") on a 4" block (x 6-10); the table below the target. Before, a target
    # with its height (--to 12,8,0; a click on the table in the view) was a straight line
    # down through the block: "hits blk 0.00\" into the jump: lands on it", a legal jump of
    # 0.001". Without the height the jump went across, then down; both now do.
    w = world([box("blk", 8, 8, 0, 4, 6, 4)], [medium("m", 8, 8, z=4, spd=6)])
    r = check_path(w, "m", [to], "jump")
    assert r.legal, r.reason
    assert r.distance == pytest.approx(3.0)
    # 3" across at the top's level, then a fall of 4" from (11, 8): one AG roll (SPD 6: 3")
    assert r.end == pytest.approx((11.0, 8.0, 0.0), abs=1e-6)
    assert [(round(f.height, 4), f.rolls) for f in r.falls] == [(4.0, 1)]


def test_a_jump_down_within_the_allowance_lands_where_it_was_declared():
    # SPD 10 (Jump 5"): 2" across, then 2" down onto the table below the 2" box's edge
    w = world([box("blk", 8, 8, 0, 4, 6, 2)], [medium("m", 9, 8, z=2, spd=10)])
    for to in ((11.0 + R_M, 8.0, 0.0), (11.0 + R_M, 8.0)):
        r = check_path(w, "m", [to], "jump")
        assert r.legal and not r.falls, r.reason
        assert r.end == pytest.approx((11.0 + R_M, 8.0, 0.0), abs=1e-6)
        assert r.distance == pytest.approx(2.0 + R_M + 2.0, abs=1e-6)


def test_an_arc_jump_down_follows_its_arc():
    # --arc: a parabola to the target, which rises first (it never goes through the
    # surface under the base). Before, a lower target without a height went across and
    # down in straight lines whatever --arc said.
    w = world([box("blk", 8, 8, 0, 4, 6, 2)], [medium("m", 9, 8, z=2, spd=20)])
    for to in ((12.0, 8.0), (12.0, 8.0, 0.0)):
        r = check_path(w, "m", [to], "jump", settings={"jump_shape": "arc", "arc_apex": 1.0})
        assert r.legal and not r.falls, r.reason
        assert max(p[2] for p in r.path) == pytest.approx(3.0, abs=0.01)     # 1" above the start
        assert r.end == pytest.approx((12.0, 8.0, 0.0), abs=1e-6)


def test_an_arc_tops_out_at_its_apex_above_the_higher_end():
    # --arc 1 from the table onto a 2" box: the arc's top is 1" above the box's top (3").
    # Before, 4 x (apex over the ends' mean) t (1 - t) put it at 3.125" (right only for
    # two ends at one height).
    w = world([box("blk", 12, 8, 0, 4, 6, 2)], [medium("m", 8, 8, spd=20)])
    r = check_path(w, "m", [(11.0, 8.0)], "jump", settings={"jump_shape": "arc", "arc_apex": 1.0})
    assert r.legal and not r.falls, r.reason
    assert max(p[2] for p in r.path) == pytest.approx(3.0, abs=1e-3)
    assert r.end == pytest.approx((11.0, 8.0, 2.0), abs=1e-6)


# --------------------------------------------------------------------------- difficult ground
def _mud(spd=6):
    from engine.scene import TerrainSpec
    mud = TerrainSpec("mud", "box", (10, 10, 0), size=(4, 4, 0.01), tags=frozenset({"area", "difficult"}))
    return world([mud], [medium("m", 5, 10, spd=spd)])


def test_difficult_ground_is_paid_from_the_edge_the_base_touches():
    # mud x 8-12. By hand: the base touches it at x 8 - R; 8 - R - 5 at 1 per inch, the
    # rest at 2. Before, each 0.05" sample piece was paid at its two ends' mean, so the
    # entry was paid from wherever the sample fell: 5.625" for the walk to x 9 (by hand
    # 5.630") and an end at 9.1875 where the allowance runs out (by hand 9.185).
    w = _mud()
    edge = 8.0 - R_M
    r = check_path(w, "m", [(9.0, 10.0)], "walk")
    assert r.legal and r.distance == pytest.approx((edge - 5.0) + 2.0 * (9.0 - edge), abs=1.5e-3)
    r = check_path(w, "m", [(12.0, 10.0)], "walk")
    assert not r.legal and r.distance == pytest.approx(6.0)
    assert r.end[0] == pytest.approx(edge + (6.0 - (edge - 5.0)) / 2.0, abs=1.5e-3)
    # leaving it: x 12 + R onward at 1 per inch again (SPD 8, a Run of 16")
    r = check_path(_mud(spd=8), "m", [(15.0, 10.0)], "run")
    assert r.legal and r.distance == pytest.approx((edge - 5.0) + 2.0 * (12.0 + R_M - edge) + (15.0 - 12.0 - R_M),
                                                   abs=2.5e-3)


# --------------------------------------------------------------------------- climbs and walls: measured to the face
def test_a_climb_goes_up_where_the_base_meets_the_face():
    # a 4" block x 10-14; SPD 6 (Climb 3") from x 8: by hand 10 - R - 8 = 1.370" to the face,
    # then 1.630" up. Before, the climb went up at the last 0.05" sample before the face
    # (x 9.35): it ended 0.02" off the face at z 1.65.
    w = world([box("blk", 12, 10, 0, 4, 10, 4)], [medium("m", 8, 10, spd=6)])
    r = check_path(w, "m", [(11, 10, 4)], "climb")
    assert r.legal and r.ends_on_vertical, r.reason
    assert r.end == pytest.approx((10 - R_M, 10, 3 - (10 - R_M - 8)), abs=1e-3)


def test_a_climb_down_goes_down_where_the_base_leaves_the_ledge():
    # on the block's top at x 12, SPD 8 (Climb 4") toward x 8: 12 - (10 - R) = 2.630" to
    # where the base leaves the top, then 1.370" down: it hangs at z 2.630 (before: 2.65,
    # at x 9.35)
    w = world([box("blk", 12, 10, 0, 4, 10, 4)], [medium("m", 12, 10, z=4, spd=8)])
    r = check_path(w, "m", [(8, 10, 0)], "climb")
    assert r.legal and r.ends_on_vertical, r.reason
    assert r.end == pytest.approx((10 - R_M, 10, 4 - (4 - (12 - (10 - R_M)))), abs=1e-3)


def test_a_walk_stopped_by_a_wall_ends_in_base_contact_with_it():
    # a 3" wall (face x 9.75) stops a Walk from x 8 at base contact, 9.75 - R; before, at
    # the sample before it (0.02" short) and "scenery 3.00\" high at (9.40, 10.00)"
    w = world([box("wall", 10, 10, 0, 0.5, 8, 3)], [medium("m", 8, 10, spd=6)])
    r = check_path(w, "m", [(12, 10)], "walk")
    assert not r.legal and "taller than the hitbox" in r.reason
    assert r.end == pytest.approx((9.75 - R_M, 10, 0), abs=1e-3)
    assert r.distance == pytest.approx(9.75 - R_M - 8, abs=1e-3)
    assert f"at ({9.75 - R_M:.2f}, 10.00)" in r.reason, r.reason


# --------------------------------------------------------------------------- reach: onto a hill from the table
def test_reach_never_offers_a_hill_cell_its_walk_from_the_table_cannot_reach():
    # scenes/heights.yaml: red-champion (SPD 5) walks from the table up the hill's foot. A
    # grid step from a table node onto a node on the hill's slope was priced by the
    # faces' normals alone (the 3D floor was only for steps between two sloped nodes of
    # one piece): 0.06" under the path check's price along the way, and these cells were
    # offered at 4.96-4.98" while `eldfall move` along the grid's own route said 5.02-5.04".
    from tools.loading import load_world
    from engine.motion import reachable
    w = load_world("scenes/heights.yaml", None)
    g = reachable(w, "red-champion", "walk")
    for p in ((10.125, 22.875, 0.75), (10.625, 23.375, 0.917), (10.375, 23.125, 0.833)):
        if g.contains(*p):
            r = check_path(w, "red-champion", g.shortest_path(p)[1:], "walk")
            assert r.legal, (p, g.cost_at(*p), r.reason)
    # the hill is still reached: every cell of it the grid offers is a legal walk
    hill = [tuple(p) for p in g.points() if 0.3 < p[2] < 1.0][::15]
    assert len(hill) >= 5
    for p in hill:
        r = check_path(w, "red-champion", g.shortest_path(p)[1:], "walk")
        assert r.legal, (p, g.cost_at(*p), r.reason)
