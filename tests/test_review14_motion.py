"""Review 14, movement (`eldfall move`, `eldfall reach`, engine/motion.py): what a player
measuring moves on a real table reads in the verdicts."""
import pytest

from engine.motion import check_path, reachable
from engine.scene import TerrainSpec
from tests.motion_scenes import R_M, box, medium, world


# --------------------------------------------------------------------------- Unscalable: where and why
def _cliff(spd=10):
    """A 2.5" unscalable cliff (x 10-14), a 1" unscalable step (x 10-14, y 4-8), an unscalable
    area strip (y 16.5-19.5) and a Medium model without the Climbing skill."""
    t = [box("cliff", 12, 12, 0, 4, 4, 2.5, tags=("unscalable",)),
         box("step", 12, 6, 0, 4, 4, 1, tags=("unscalable",)),
         TerrainSpec("zone", "box", (4, 18, 0), size=(3, 3, 0.1), tags=frozenset({"area", "unscalable"}))]
    return world(t, [medium("m", 9, 12, spd=spd), medium("z", 4, 14, spd=spd)], table=(24, 24))


def test_a_climb_onto_an_unscalable_cliff_is_refused_at_its_foot_for_being_unscalable():
    # SPD 10 (Climb 5"): 0.37" across, 2.5" up and 2.13" across the top is 5.5". The answer
    # was "the route costs 5.50" and the allowance is 5"", stopping on the cliff's top
    # (11.50, 12.00, 2.50): read as "with a little more SPD it could", and as if the
    # model got up there. It may not climb the cliff at all.
    w = _cliff()
    r = check_path(w, "m", [(12, 12, 2.5)], "climb")
    assert not r.legal
    assert r.reason.startswith("cliff is unscalable"), r.reason
    assert r.end == pytest.approx((10 - R_M, 12, 0), abs=1e-3)
    assert r.distance == pytest.approx(1 - R_M, abs=1e-3) and not r.ends_on_vertical
    assert [g["kind"] for g in r.legs] == ["across"]


def test_a_run_onto_an_unscalable_step_stops_where_the_base_meets_it():
    # A 1" step is free climbing, but the step is unscalable: the run was refused with its
    # end on the step's top (10.50, 7.50, 1.00) and the whole route's 6" counted.
    w = _cliff()
    r = check_path(w, "m", [(9, 7.5), (10.5, 7.5)], "run")
    assert not r.legal and r.reason.startswith("step is unscalable"), r.reason
    assert r.end == pytest.approx((10 - R_M, 7.5, 0), abs=1e-3)
    assert r.distance == pytest.approx(4.5 + 1 - R_M, abs=1e-3)


@pytest.mark.parametrize("mode", ["walk", "run"])
def test_a_walk_into_an_unscalable_area_stops_at_its_edge(mode):
    # The refusal named the entry at the first 0.05" sample inside (4.00, 15.90) and the
    # move "stopped" at the declared end (4, 20), beyond the area it may not cross.
    w = _cliff()
    r = check_path(w, "z", [(4, 20)], mode)
    assert not r.legal
    assert "enters the unscalable area zone at (4.00, 15.87)" in r.reason, r.reason
    assert r.end == pytest.approx((4, 16.5 - R_M, 0), abs=2e-3)
    assert r.distance == pytest.approx(2.5 - R_M, abs=2e-3)


def test_the_move_command_says_where_the_unscalable_climb_stops(capsys, tmp_path):
    from tests.cli_run import run_cli
    from tests.scene_files import write
    scene = write(tmp_path, "cliff.yaml", """name: cliff
games: [eldfall]
table: [24, 24]
terrain:
  - {id: cliff, shape: box, at: [12, 12, 0], size: [4, 4, 2.5], tags: [unscalable]}
models:
  - {id: m, side: red, base_mm: 32, height_mm: 45, at: [9, 12], stats: {SPD: 10, AG: 4}}
""")
    rc, out, _ = run_cli(capsys, "move", str(scene), "m", "--to", "12,12,2.5", "--mode", "climb")
    assert rc == 0
    assert "m climb: NOT LEGAL (cliff is unscalable: only a model with the Climbing skill climbs or " \
           "steps onto it)" in out, out
    assert "distance 0.37\" of 5\" (4.63\" left); stops at (9.37, 12.00, 0.00)" in out, out


# --------------------------------------------------------------------------- reach --path-to: where the route ends
_ENGAGED = """name: engaged
games: [eldfall]
table: [24, 24]
models:
  - {id: w, side: red, profile: sample-red#shieldbearer, at: [10, 12]}
  - {id: o, side: blue, profile: sample-blue#ogre, at: [12.4, 12], facing: 180}
"""


def test_reach_path_to_does_not_call_an_off_centre_end_the_cells_centre(capsys, tmp_path):
    # The Engaged shield bearer's walk ends on the line toward the ogre (y 12), at the point
    # nearest the cell's centre: "to the centre of its 0.25" cell (10.62, 12.00, 0.00)"
    # named a point 0.125" off the centre (10.62, 12.12) as the centre.
    from tests.cli_run import run_cli
    from tests.scene_files import write
    scene = write(tmp_path, "engaged.yaml", _ENGAGED)
    rc, out, _ = run_cli(capsys, "reach", str(scene), "w", "--mode", "walk", "--path-to", "10.5,12")
    assert rc == 0
    line = next(ln for ln in out.splitlines() if "shortest route" in ln)
    assert line.startswith("  shortest route to (10.5, 12): 0.62\", to (10.62, 12.00, 0.00) in its 0.25\" cell "
                           "(not its centre (10.62, 12.12)): (10.00, 12.00, 0.00) -> (10.62, 12.00, 0.00)"), line
    assert "Engaged by o" in out


# --------------------------------------------------------------------------- a jump over an unscalable strip
def _strip():
    t = [TerrainSpec("strip", "box", (12, 12, 0), size=(0.5, 20, 0.01), tags=frozenset({"area", "unscalable"}))]
    return world(t, [medium("m", 10.5, 12, spd=8)], table=(24, 24))


def test_a_jump_high_over_an_unscalable_strip_does_not_touch_it():
    # An arc rising 1" over a 0.01" strip, or a jump up 1", across and down: the base never
    # touches the area (rulings, "Unscalable": no point of the route touching it at its
    # heights), yet both were refused ("the route enters the unscalable area strip at
    # (11.12, 12.00)"): the check followed the straight line from the start to the
    # landing on the table, not the flight.
    w = _strip()
    arc = check_path(w, "m", [(13.5, 12)], "jump", settings={"jump_shape": "arc", "arc_apex": 1.0})
    assert arc.legal and arc.end == pytest.approx((13.5, 12, 0), abs=1e-6), arc.reason
    up = check_path(w, "m", [(10.5, 12, 1), (13.5, 12, 1), (13.5, 12)], "jump")
    assert up.legal and up.end == pytest.approx((13.5, 12, 0), abs=1e-6), up.reason
    # one that lands on it, or skims it at the table's height, still may not
    for r in (check_path(w, "m", [(12, 12)], "jump", settings={"jump_shape": "arc", "arc_apex": 1.0}),
              check_path(w, "m", [(13.5, 12)], "jump")):
        assert not r.legal and "unscalable area strip" in r.reason, r.reason


# --------------------------------------------------------------------------- reach past an unscalable area's corner
def test_reach_offers_no_route_past_an_unscalable_areas_corner_that_move_refuses():
    # The grid left out the cells whose base touches an unscalable area, but not a long
    # step (up to 3 cells) between two clear cells that sweeps the base over its corner:
    # 124 of the 194 cells offered beyond this 3" square were refused by `move` along
    # reach's own route ("the route enters the unscalable area zone at (2.34, 15.91)").
    t = [TerrainSpec("zone", "box", (4, 18, 0), size=(3, 3, 0.1), tags=frozenset({"area", "unscalable"}))]
    w = world(t, [medium("m", 9, 12, spd=6)], table=(24, 24))
    g = reachable(w, "m", "run")
    pts = g.points()
    beyond = pts[(pts[:, 1] > 19.0) & (pts[:, 0] < 6.5)]
    assert len(beyond) > 100           # still reached, round the area
    for p in beyond[::6]:
        r = check_path(w, "m", g.shortest_path(tuple(p))[1:], "run")
        assert r.legal, (tuple(p), r.reason)


# --------------------------------------------------------------------------- a climb or a ladder out of mud
def _mud_foot():
    """A 3" block (x 10-14) with a ladder on its west face (y 12.5-13.5), a 0.01" mud strip
    at its foot (x 6-10), and two Medium models in the mud."""
    t = [box("block", 12, 12, 0, 4, 4, 3),
         TerrainSpec("mud", "box", (8, 12, 0), size=(4, 8, 0.01), tags=frozenset({"area", "difficult"})),
         box("ladder", 9.9, 13, 0, 0.2, 1, 3, tags=("ladder", "climbable"))]
    return world(t, [medium("m", 9, 11, spd=12), medium("l", 8.5, 15, spd=12)], table=(24, 24))


def _leg(r, kind):
    return next(g for g in r.legs if g["kind"] == kind)


def test_a_climb_out_of_a_mud_strip_pays_two_per_inch_only_in_the_mud():
    # The climb's 3" were paid at the mean of its ends' rates (2 in the mud at its foot, 1
    # on the top): 4.50". The base leaves the 0.01" mud (and its 0.05" level tolerance)
    # 0.06" up: 0.06" at 2 per inch and 2.94" at one (rulings, "Several costs at once":
    # two per inch while the base touches the area).
    w = _mud_foot()
    r = check_path(w, "m", [(11, 11, 3)], "climb")
    assert r.legal, r.reason
    assert _leg(r, "climb up")["cost"] == pytest.approx(3.06, abs=2e-3), r.legs
    assert r.distance == pytest.approx(2 * (1 - R_M) + 3.06 + 1 + R_M, abs=2e-3)


def test_a_ladder_out_of_mud_costs_two_per_inch_not_three():
    # A ladder costs two per inch; in mud the dearest applies (stack_costs: false), two
    # again, never more. It was paid 2 x the mean of its ends' area rates: 3 per inch (9.00"
    # for 3"), and the reachable area, pricing it at 2, offered ends `move` refused.
    w = _mud_foot()
    r = check_path(w, "l", [(9.12, 13.12), (11.12, 13.12, 3)], "run")
    assert r.legal, r.reason
    assert _leg(r, "ladder up")["length"] == pytest.approx(3.0, abs=1e-6)
    assert _leg(r, "ladder up")["cost"] == pytest.approx(6.0, abs=1e-6), r.legs
    # stacked costs (a setting): the first 0.06" in the mud at 4 per inch
    s = check_path(w, "l", [(9.12, 13.12), (11.12, 13.12, 3)], "run", settings={"stack_costs": True})
    assert _leg(s, "ladder up")["cost"] == pytest.approx(6.12, abs=2e-3), s.legs


# --------------------------------------------------------------------------- a Crouched model stopped by scenery
def test_a_crouched_walk_stopped_by_a_crate_does_not_only_offer_climb_or_jump():
    # A Crouched model's hitbox is its base (0.14"): a 1" crate stops its Walk, and the
    # answer was "it needs Climb, Jump or a ladder", two movements Crouched forbids.
    w = world([box("crate", 12, 10, 0, 1, 1, 1)], [medium("c", 9, 10, spd=6, states=("Crouched",))],
              table=(24, 24))
    r = check_path(w, "c", [(11, 10)], "walk")
    assert not r.legal
    assert r.reason.endswith("it needs Climb, Jump or a ladder, and a Crouched model may only Walk"), r.reason
    # a standing model may Climb or Jump: nothing added
    w = world([box("crate", 12, 10, 0, 1, 1, 3)], [medium("s", 9, 10, spd=6)], table=(24, 24))
    r = check_path(w, "s", [(11, 10)], "walk")
    assert r.reason.endswith("it needs Climb, Jump or a ladder"), r.reason


# --------------------------------------------------------------------------- reach from inside an unscalable area
def test_reach_from_inside_an_unscalable_area_offers_what_move_accepts():
    # A model standing in an unscalable area may move in it and leave it (rulings,
    # "Unscalable": "unless the base already touched it at the start"); `move` accepts a
    # walk to (7, 12) or out to (10, 12), but `reach` offered no cell at all ("0 end cells",
    # no reason given). Another unscalable area stays barred.
    t = [TerrainSpec("zone", "box", (6, 12, 0), size=(4, 4, 0.1), tags=frozenset({"area", "unscalable"})),
         TerrainSpec("other", "box", (6, 18, 0), size=(4, 2, 0.1), tags=frozenset({"area", "unscalable"}))]
    w = world(t, [medium("z", 6, 12, spd=6)], table=(24, 24))
    g = reachable(w, "z", "walk")
    for to in [(7.125, 12.125), (10.125, 12.125)]:
        assert g.contains(*to), to
        r = check_path(w, "z", g.shortest_path(to)[1:], "walk")
        assert r.legal and r.distance == pytest.approx(g.cost_at(*to), abs=0.05), (to, r.reason)
    assert not g.contains(6.125, 18.125)
    assert not check_path(w, "z", [(6.125, 18.125)], "walk").legal
