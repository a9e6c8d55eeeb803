"""Path checks: golden cases with hand-computed answers (engine/motion.py).

Medium base: 32 mm -> radius R = 0.6299"; hitbox 45 mm = 1.7717" tall.
"""
import math

import pytest

from engine.errors import InputError
from engine.motion import (MoveResult, check_path, fall_rolls, half, hitbox_distance, settings)
from engine.scene import TerrainSpec
from tests.motion_scenes import H_M, R_M, box, medium, world
from cli_run import run_cli  # noqa: E402


# --------------------------------------------------------------------------- walk: free climbing
def test_walking_over_a_1in_wall_is_free_for_a_medium_model():
    w = world([box("wall", 10, 10, 0, 0.5, 8, 1)], [medium("m", 8, 10, spd=6)])
    r = check_path(w, "m", [(12, 10)], "walk")
    assert r.legal, r.reason
    assert r.distance == pytest.approx(4.0, abs=1e-6)      # only the horizontal 4"
    assert r.left == pytest.approx(2.0, abs=1e-6)
    assert r.end == pytest.approx((12, 10, 0), abs=1e-6)
    assert "wall" in r.surfaces
    # the route rose onto the wall's top on the way
    assert max(p[2] for p in r.path) == pytest.approx(1.0, abs=1e-4)


def test_a_3in_wall_blocks_a_walk():
    w = world([box("wall", 10, 10, 0, 0.5, 8, 3)], [medium("m", 8, 10, spd=6)])
    r = check_path(w, "m", [(12, 10)], "walk")
    assert not r.legal
    assert "taller than the hitbox" in r.reason
    # it got no further than base contact with the wall's face (x 9.75)
    assert r.end[0] + R_M <= 9.75 + 1e-6
    assert r.end[0] + R_M > 9.75 - 0.06


def test_a_wall_exactly_as_tall_as_the_hitbox_is_stepped_over_and_a_hair_taller_is_not():
    ok = world([box("wall", 10, 10, 0, 0.5, 8, H_M - 0.01)], [medium("m", 8, 10)])
    assert check_path(ok, "m", [(12, 10)], "walk").legal
    tall = world([box("wall", 10, 10, 0, 0.5, 8, H_M + 0.02)], [medium("m", 8, 10)])
    assert not check_path(tall, "m", [(12, 10)], "walk").legal


# --------------------------------------------------------------------------- climb
def test_climbing_a_3in_wall_with_spd_4_gets_2in_and_ends_on_the_wall():
    x0 = 9.75 - R_M                      # in base contact with the wall's face
    w = world([box("wall", 10, 10, 0, 0.5, 8, 3)], [medium("m", x0, 10, spd=4)])
    r = check_path(w, "m", [(10, 10, 3)], "climb")
    assert r.allowance == 2.0            # SPD 4 halved
    assert r.legal, r.reason
    assert r.distance == pytest.approx(2.0, abs=1e-6)
    assert r.end == pytest.approx((x0, 10, 2.0), abs=1e-6)
    assert r.ends_on_vertical
    assert "vertical" in r.reason


def test_climb_allowance_is_half_spd_rounded_up():
    w = world([box("wall", 10, 10, 0, 0.5, 8, 3)], [medium("m", 9.75 - R_M, 10, spd=5)])
    r = check_path(w, "m", [(10, 10, 3)], "climb")
    assert r.allowance == 3.0
    # 3" straight up: level with the top, but its base is not on it yet
    assert r.legal and r.ends_on_vertical
    assert r.end == pytest.approx((9.75 - R_M, 10, 3.0), abs=1e-6)
    assert r.distance == pytest.approx(3.0, abs=1e-6)
    # with SPD 8 (4") it gets onto a 3" block: 3" up, then 0.88" across onto the top
    w8 = world([box("block", 11.75, 10, 0, 4, 8, 3)], [medium("m", 9.75 - R_M, 10, spd=8)])
    r8 = check_path(w8, "m", [(10, 10, 3)], "climb")
    assert r8.legal and not r8.ends_on_vertical
    assert r8.distance == pytest.approx(3.0 + (10 - 9.75 + R_M), abs=1e-6)


# --------------------------------------------------------------------------- jump and falls
ROOF_H = 3.0


def test_jump_allowance_is_half_spd_exactly_unless_set_to_round_up():
    w = world([], [medium("m", 10, 10, spd=5)])
    assert check_path(w, "m", [(20, 10)], "jump").allowance == 2.5
    assert check_path(w, "m", [(20, 10)], "jump", settings={"jump_round_up": True}).allowance == 3.0
    # the rules' table agrees by default
    from rules.eldfall.tables import movement_distance
    assert movement_distance("Jump", 5) == check_path(w, "m", [(20, 10)], "jump").allowance


def test_jump_over_a_2in_gap_with_spd_6():
    # roof A x 4-10, roof B x 12-18, both 3" high: a 2" gap
    t = [box("roofA", 7, 10, 0, 6, 6, ROOF_H), box("roofB", 15, 10, 0, 6, 6, ROOF_H)]
    x0 = 10 - R_M                        # the base's front edge on roof A's edge
    w = world(t, [medium("m", x0, 10, spd=6)])
    r = check_path(w, "m", [(x0 + 3, 10)], "jump")
    assert r.allowance == 3.0            # half of SPD 6
    assert r.legal, r.reason
    assert r.falls == []
    assert r.distance == pytest.approx(3.0, abs=1e-6)
    assert r.end == pytest.approx((x0 + 3, 10, ROOF_H), abs=1e-4)
    assert r.surfaces == ["roofB"]


def test_a_jump_that_falls_short_lands_below_the_end_of_its_half_spd():
    # a 4" gap: roof B x 14-20
    t = [box("roofA", 7, 10, 0, 6, 6, ROOF_H), box("roofB", 17, 10, 0, 6, 6, ROOF_H)]
    x0 = 10 - R_M
    w = world(t, [medium("m", x0, 10, spd=5)])
    r = check_path(w, "m", [(x0 + 5, 10)], "jump")
    assert r.legal
    assert r.distance == pytest.approx(2.5, abs=1e-6)
    assert r.end == pytest.approx((x0 + 2.5, 10, 0.0), abs=1e-4)   # straight down at the end of 2.5"
    assert len(r.falls) == 1
    assert r.falls[0].height == pytest.approx(3.0, abs=1e-4)
    assert r.falls[0].rolls == 0          # 3" is not more than half SPD (3")
    assert r.falls[0].onto == "table"


def test_a_jump_up_onto_a_ledge_is_reached_by_pull_up():
    # a 3" ledge from x 10; SPD 4 -> 2": straight up 2" puts the top of the
    # hitbox at 3.77" >= 3", touching the ledge: it pulls itself up
    x0 = 10 - R_M
    w = world([box("ledge", 13, 10, 0, 6, 6, 3)], [medium("m", x0, 10, spd=4)])
    r = check_path(w, "m", [(x0, 10, 3), (11.5, 10, 3)], "jump")
    assert r.legal, r.reason
    assert "pulled up" in r.reason
    assert r.distance == pytest.approx(2.0, abs=1e-6)
    assert r.falls == []
    assert r.end[2] == pytest.approx(3.0, abs=1e-6)
    assert r.end[0] == pytest.approx(10 + R_M, abs=0.03)     # on the edge, the whole base on the ledge


def test_no_pull_up_when_the_hitbox_top_does_not_reach_the_ledge():
    # a 4" ledge: 2" up puts the top at 3.77" < 4": it falls back 2"
    x0 = 10 - R_M
    w = world([box("ledge", 13, 10, 0, 6, 6, 4)], [medium("m", x0, 10, spd=4)])
    r = check_path(w, "m", [(x0, 10, 4), (11.5, 10, 4)], "jump")
    assert r.end[2] == pytest.approx(0.0, abs=1e-6)
    assert len(r.falls) == 1 and r.falls[0].height == pytest.approx(2.0, abs=1e-4)
    assert r.falls[0].rolls == 0


@pytest.mark.parametrize("height, rolls", [(6, 2), (5, 1), (3, 0)])
def test_drops_with_spd_6(height, rolls):
    # a horizontal jump off a tower into the air: the model falls the tower's height
    x0 = 10 - R_M
    w = world([box("tower", 7, 10, 0, 6, 6, height)], [medium("m", x0, 10, spd=6)])
    r = check_path(w, "m", [(10 + R_M + 0.5, 10, height)], "jump")
    assert r.legal
    assert len(r.falls) == 1
    assert r.falls[0].height == pytest.approx(height, abs=1e-4)
    assert r.falls[0].rolls == rolls
    assert r.end[2] == pytest.approx(0.0, abs=1e-6)


def test_fall_rolls_follow_the_books_example():
    assert [fall_rolls(h, 6) for h in (2.9, 3, 3.01, 5, 5.99, 6, 8.99, 9)] == [0, 0, 1, 1, 1, 2, 2, 3]
    # SPD 5: half rounded up is 3
    assert fall_rolls(5, 5) == 1 and fall_rolls(6, 5) == 2
    assert fall_rolls(5, 5, round_up=False) == 2          # 2.5" intervals
    assert half(5) == 3 and half(4) == 2 and half(5, round_up=False) == 2.5


def test_no_jump_from_deep_water():
    w = world([TerrainSpec("lake", "box", (10, 10, 0), size=(6, 6, 0.2), tags=frozenset({"area", "deep-water"}))],
              [medium("m", 10, 10)])
    r = check_path(w, "m", [(12, 10)], "jump")
    assert not r.legal and "deep-water" in r.reason


# --------------------------------------------------------------------------- ladders, areas, narrow
def _ladder_world(spd=6):
    t = [box("bldg", 13, 10, 0, 6, 6, 3), box("ladder", 9.9, 10, 0, 0.2, 1, 3, tags=("ladder",))]
    return world(t, [medium("m", 8, 10, spd=spd)])


def test_a_ladder_costs_double():
    w = _ladder_world()
    r = check_path(w, "m", [(11, 10)], "run")
    assert r.legal, r.reason
    # 3" across + 3" up the ladder at 2 per inch
    assert r.distance == pytest.approx(3.0 + 2 * 3.0, abs=1e-6)
    assert r.end == pytest.approx((11, 10, 3), abs=1e-6)
    assert "ladder" in r.surfaces and "bldg" in r.surfaces
    walk = check_path(w, "m", [(11, 10)], "walk")
    assert not walk.legal and "allowance" in walk.reason


def test_without_the_ladder_the_building_blocks_a_walk():
    w = world([box("bldg", 13, 10, 0, 6, 6, 3)], [medium("m", 8, 10)])
    assert not check_path(w, "m", [(11, 10)], "run").legal


def test_difficult_ground_costs_two_per_inch():
    area = TerrainSpec("mud", "box", (20, 10, 0), size=(20, 10, 0.1), tags=frozenset({"area", "difficult"}))
    w = world([area], [medium("m", 15, 10, spd=10)])
    r = check_path(w, "m", [(19, 10)], "run")
    assert r.legal and r.distance == pytest.approx(8.0, abs=1e-6)
    assert "mud" in r.surfaces
    # half in, half out: from 6" outside the area's edge (x 10) to 2" inside
    w2 = world([area], [medium("m", 10 - R_M - 4, 10, spd=10)])
    r2 = check_path(w2, "m", [(10 - R_M + 2, 10)], "run")
    assert r2.distance == pytest.approx(4 + 2 * 2, abs=0.06)


def test_a_beam_narrower_than_the_base_costs_double():
    # two 3" platforms joined by a 0.75"-wide beam at the same height
    t = [box("p1", 6, 10, 0, 6, 6, 3), box("p2", 20, 10, 0, 6, 6, 3), box("beam", 13, 10, 0, 8, 0.75, 3)]
    w = world(t, [medium("m", 6, 10, spd=12)])
    r = check_path(w, "m", [(20, 10)], "run")
    assert r.legal, r.reason
    # 14" in all; on the beam (x 9..17, less a base's reach at each end) each inch costs two
    plain = check_path(world([box("floor", 13, 10, 0, 20, 6, 3)], [medium("m", 6, 10, spd=10)]),
                       "m", [(20, 10)], "run")
    assert plain.distance == pytest.approx(14.0, abs=1e-6)
    extra = r.distance - 14.0
    assert 8 - 2 * R_M - 0.6 <= extra <= 8 + 0.3


def test_a_ramp_is_measured_along_its_surface():
    ramp = TerrainSpec("ramp", "wedge", (20, 10, 0), size=(8, 4, 4))      # rises 1" per 2" along +x
    w = world([ramp], [medium("m", 18, 10, spd=6)])
    r = check_path(w, "m", [(20, 10)], "walk")
    assert r.legal
    assert r.distance == pytest.approx(2 * math.sqrt(1 + 0.25), abs=1e-3)
    flat = world([ramp], [medium("m", 18, 10, spd=6)])
    r2 = check_path(flat, "m", [(20, 10)], "walk", settings={"slopes_along_surface": False})
    assert r2.distance == pytest.approx(2.0, abs=1e-6)


# --------------------------------------------------------------------------- models
def test_the_move_stops_at_base_contact_with_an_enemy():
    w = world([], [medium("m", 6, 10), medium("e", 10, 10, side="blue")])
    r = check_path(w, "m", [(14, 10)], "run")
    assert r.legal
    assert r.stopped_by == "e"
    assert r.end == pytest.approx((10 - 2 * R_M, 10, 0), abs=1e-3)
    assert r.distance == pytest.approx(4 - 2 * R_M, abs=1e-3)
    assert float(hitbox_distance(r.end, R_M, H_M, (10, 10, 0), R_M, H_M)) <= 1e-3


@pytest.mark.parametrize("mode", ["walk", "jump"])
def test_a_model_in_base_contact_may_leave_or_slide_but_not_go_through_the_enemy(mode):
    x_e = 10 + 2 * R_M                   # the enemy touches m's base on its +x side
    w = world([], [medium("m", 10, 10), medium("e", x_e, 10, side="blue")])
    through = check_path(w, "m", [(x_e + 2, 10)], mode)
    assert through.stopped_by == "e" and through.distance == pytest.approx(0.0, abs=1e-3)
    assert through.end[0] == pytest.approx(10, abs=1e-3)
    # a slanted route pushes into the base at once
    assert check_path(w, "m", [(10.5, 12)], mode).distance == pytest.approx(0.0, abs=0.01)
    # away from it, or along it: free
    away = check_path(w, "m", [(8, 10)], mode)
    assert away.stopped_by is None and away.end[0] == pytest.approx(8, abs=1e-3)
    along = check_path(w, "m", [(10, 12)], mode)
    assert along.stopped_by is None and along.end[1] == pytest.approx(12, abs=1e-3)
    # leaving and coming back: stopped at the new contact
    back = check_path(w, "m", [(10, 12), (x_e, 12), (x_e, 10)], "run")
    assert back.stopped_by == "e"
    assert float(hitbox_distance(back.end, R_M, H_M, (x_e, 10, 0), R_M, H_M)) <= 1e-3


def test_passing_through_an_ally_but_not_ending_inside_it():
    w = world([], [medium("m", 6, 10), medium("a", 8, 10)])
    r = check_path(w, "m", [(10, 10)], "walk")
    assert r.legal and r.stopped_by is None
    assert r.distance == pytest.approx(4.0, abs=1e-6)
    bad = check_path(w, "m", [(8.5, 10)], "walk")
    assert not bad.legal and "ally a" in bad.reason


def test_dead_models_do_not_block_but_cannot_be_ended_on():
    w = world([], [medium("m", 6, 10), medium("d", 8, 10, side="blue", states=("Dead",))])
    assert check_path(w, "m", [(10, 10)], "walk").legal
    r = check_path(w, "m", [(8, 10)], "walk")
    assert not r.legal and "Dead" in r.reason


def test_entering_an_enemys_1in_reach_gives_the_opportunity_point():
    # enemy with a RCH 1 weapon at (12, 10): the hitboxes are 1" apart when
    # the mover's centre is at x = 12 - 2R - 1
    w = world([], [medium("m", 6, 10), medium("e", 12, 10, side="blue", rch=1)])
    r = check_path(w, "m", [(10, 10)], "walk")
    assert r.legal
    assert [p.enemy for p in r.opportunity_points] == ["e"]
    at = r.opportunity_points[0].at
    assert at == pytest.approx((12 - 2 * R_M - 1, 10, 0), abs=2e-4)
    # a diagonal approach: the entry point is where the 3D hitbox distance is 1
    w2 = world([], [medium("m", 6, 6), medium("e", 12, 10, side="blue", rch=1)])
    r2 = check_path(w2, "m", [(11, 9)], "walk")
    p = r2.opportunity_points[0].at
    assert float(hitbox_distance(p, R_M, H_M, (12, 10, 0), R_M, H_M)) == pytest.approx(1.0, abs=2e-4)


def test_unarmed_enemy_reach_is_base_contact():
    w = world([], [medium("m", 6, 10), medium("e", 12, 10, side="blue")])
    r = check_path(w, "m", [(14, 10)], "walk")
    assert r.stopped_by == "e"
    assert r.opportunity_points[0].at == pytest.approx((12 - 2 * R_M, 10, 0), abs=2e-4)


def test_awareness_points():
    w = world([], [medium("m", 2, 10, spd=10), medium("e", 14, 10, side="blue", ag=4)])
    r = check_path(w, "m", [(10, 10)], "run")
    assert r.awareness_points[0].at == pytest.approx((14 - 2 * R_M - 4, 10, 0), abs=2e-4)


def test_enemy_on_a_ledge_above_is_not_touched_by_walking_below_it():
    t = [box("ledge", 12, 10, 0, 4, 4, 3)]
    w = world(t, [medium("m", 6, 14), medium("e", 12, 10, 3, side="blue", rch=1)])
    r = check_path(w, "m", [(16, 14)], "walk", speed=12)
    assert r.stopped_by is None
    # the closest approach is 3D: horizontally 4 - 2R - 2 = 0.74", vertically 3 - 1.77 = 1.23": 1.43" > 1
    assert r.opportunity_points == []


# --------------------------------------------------------------------------- states and declarations
def test_states_halve_spd_and_restrict_the_movement():
    w = world([], [medium("m", 6, 10, spd=5, states=("Slowed",))])
    assert check_path(w, "m", [(8, 10)], "walk").allowance == 3.0           # 5 halved, rounded up
    w = world([], [medium("m", 6, 10, spd=6, states=("Slowed", "Crippled"))])
    assert check_path(w, "m", [(8, 10)], "walk").allowance == 3.0           # halvings do not stack
    assert check_path(w, "m", [(8, 10)], "walk", settings={"halvings_stack": True}).allowance == 2.0
    w = world([], [medium("m", 6, 10, spd=6, states=("Crouched",))])
    assert check_path(w, "m", [(8, 10)], "walk").legal
    r = check_path(w, "m", [(8, 10)], "run")
    assert not r.legal and "Crouched" in r.reason
    w = world([], [medium("m", 6, 10, states=("Immobilized",))])
    r = check_path(w, "m", [(7, 10)], "walk")
    assert not r.legal and "Immobilized" in r.reason and r.end == pytest.approx((6, 10, 0))


def test_an_engaged_model_may_only_walk_directly_toward_its_engager():
    w = world([], [medium("m", 10, 10, states=("Engaged",)), medium("e", 11.5, 10, side="blue", rch=1)])
    toward = check_path(w, "m", [(10.2, 10)], "walk")
    assert toward.legal
    away = check_path(w, "m", [(8, 10)], "walk")
    assert not away.legal and "Engaged" in away.reason
    side = check_path(w, "m", [(10, 12)], "walk")
    assert not side.legal
    assert not check_path(w, "m", [(10.2, 10)], "run").legal


def test_speed_argument_is_the_effective_spd():
    w = world([], [medium("m", 6, 10, spd=4, states=("Slowed",))])
    r = check_path(w, "m", [(8, 10)], "run", speed=3)
    assert r.allowance == 6.0


def test_a_route_longer_than_the_allowance_is_illegal_and_says_how_far_it_gets():
    w = world([], [medium("m", 6, 10, spd=5)])
    r = check_path(w, "m", [(6, 16)], "walk")
    assert not r.legal and "allowance" in r.reason
    assert r.end == pytest.approx((6, 15, 0), abs=1e-6)
    assert r.distance == pytest.approx(5.0, abs=1e-6)
    # a 3" wall beyond the allowance: the reason names the wall, and the cost is the way to it,
    # not the cost of the declared route
    w = world([box("wall", 6, 17, 0, 4, 0.5, 3)], [medium("m", 6, 10, spd=5)])
    r = check_path(w, "m", [(6, 20)], "walk")
    assert not r.legal and r.reason.startswith("scenery 3.00\" high")
    assert "runs out even before that" in r.reason and "the route costs" not in r.reason


def test_waypoints_are_followed():
    w = world([], [medium("m", 6, 10, spd=10)])
    r = check_path(w, "m", [(9, 10), (9, 14)], "run")
    assert r.distance == pytest.approx(7.0, abs=1e-6)


def test_declared_level_must_match():
    t = [box("bridge", 12, 10, 2.5, 4, 8, 0.3)]
    w = world(t, [medium("m", 6, 10, spd=10)])
    under = check_path(w, "m", [(12, 10, 0)], "walk")
    assert under.legal and under.end[2] == pytest.approx(0.0)
    on = check_path(w, "m", [(12, 10, 2.8)], "walk")
    assert not on.legal and "declared z" in on.reason


def test_end_off_the_table_and_bad_input():
    w = world([], [medium("m", 2, 10)])
    r = check_path(w, "m", [(0.3, 10)], "walk")
    assert not r.legal and "off the table" in r.reason
    with pytest.raises(InputError):
        check_path(w, "m", [(40, 10)], "walk")
    with pytest.raises(InputError):
        check_path(w, "nobody", [(4, 10)], "walk")
    with pytest.raises(InputError):
        check_path(w, "m", [(4, 10)], "fly")
    with pytest.raises(InputError):
        check_path(w, "m", [(4, 10)], "walk", settings={"path_step": "fine"})
    with pytest.raises(InputError):
        settings({"no_such_setting": 1})


def test_result_has_the_fields_of_the_brief():
    w = world([], [medium("m", 6, 10)])
    r = check_path(w, "m", [(8, 10)], "walk")
    assert isinstance(r, MoveResult)
    assert list(r.__dataclass_fields__) == [
        "model", "mode", "legal", "reason", "distance", "allowance", "left", "end", "surfaces", "falls",
        "ends_on_vertical", "stopped_by", "opportunity_points", "awareness_points", "path"]
    d = r.to_dict()
    for key in ("model", "mode", "legal", "reason", "distance", "allowance", "end", "falls", "opportunity_points"):
        assert key in d


# --------------------------------------------------------------------------- the commands
YARD = "tests/data/motion/yard.yaml"


def test_move_command_json(capsys):
    import json
    rc, out, err = run_cli(capsys, "move", YARD, "hero", "--to", "12,10", "--mode", "walk", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["legal"] is True and d["distance"] == pytest.approx(4.0)
    assert d["end"] == pytest.approx([12, 10, 0])
    assert d["allowance"] == 6 and d["falls"] == []
    # up to the enemy: stops in base contact, entering its reach (Unarmed: contact) on the way
    rc, out, err = run_cli(capsys, "move", YARD, "hero", "--via", "12,10", "--to", "18,10", "--mode", "run", "--json")
    d = json.loads(out)
    assert d["legal"] and d["stopped_by"] == "foe"
    assert d["end"] == pytest.approx([16 - 2 * R_M, 10, 0], abs=1e-3)
    assert d["opportunity_points"][0]["enemy"] == "foe"


def test_move_command_words_and_ladder(capsys):
    rc, out, err = run_cli(capsys, "move", YARD, "hero", "--to", "21,10", "--mode", "walk")
    assert rc == 0 and "NOT LEGAL" in out
    assert "taller than the hitbox" in out
    rc, out, err = run_cli(capsys, "move", YARD, "climber", "--to", "20,12,3", "--mode", "climb")
    assert rc == 0
    assert out.startswith("climber climb: legal") and "ends at (19.12, 12.00, 2.00)" in out
    assert "vertical surface" in out
    rc, out, err = run_cli(capsys, "move", YARD, "hero", "--to", "12,10", "--mode", "run", "--speed", "1")
    assert "NOT LEGAL" in out and "allowance is 2\"" in out


@pytest.mark.parametrize("argv, words", [
    (["move", YARD, "hero", "--to", "12,x", "--mode", "walk"], "--to"),
    (["move", YARD, "nobody", "--to", "12,10", "--mode", "walk"], "unknown model 'nobody'"),
    (["move", YARD, "hero", "--to", "99,10", "--mode", "walk"], "off the"),
    (["move", YARD, "hero", "--to", "12,10", "--mode", "fly"], "invalid choice"),
    (["move", YARD, "hero", "--to", "12,10", "--mode", "walk", "--speed", "-1"], "--speed"),
    (["move", YARD, "hero", "--to", "12,10", "--mode", "walk", "--arc"], "--arc"),
    (["move", "tests/data/motion/none.yaml", "hero", "--to", "12,10", "--mode", "walk"], "none.yaml"),
    (["reach", YARD, "hero", "--mode", "jump"], "invalid choice"),
    (["reach", YARD, "hero", "--mode", "walk", "--resolution", "0"], "--resolution"),
    (["reach", YARD, "ghost", "--mode", "walk"], "unknown model 'ghost'"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 2
    lines = [ln for ln in err.strip().splitlines() if ln]
    assert len(lines) == 1 and words in lines[0], err
    assert "Traceback" not in err and out == ""


def test_reach_command_summary_and_top_down_png(capsys, tmp_path):
    import json
    rc, out, err = run_cli(capsys, "reach", YARD, "runner", "--mode", "run", "--json", "--path-to", "26,4,3")
    assert rc == 0, err
    d = json.loads(out)
    assert d["allowance"] == 12
    names = {lv["surface"] for lv in d["levels"]}
    assert {"table", "block"} <= names                 # up the ladder onto the block
    assert d["shortest_path"][-1] == pytest.approx([26.125, 4.125, 3.0])
    from tools.cmd_reach import top_down, write_png
    from engine.motion import reachable
    from tools.cmd_move import load_world
    w = load_world(YARD)
    g = reachable(w, "hero", "walk")
    img = top_down(w, g)
    assert img.shape == (20 * 4 * 4, 30 * 4 * 4, 3)
    p = write_png(str(tmp_path / "r.png"), img)
    data = open(p, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 500


def test_flying_models_fly_over_scenery_measured_on_the_table():
    t = [box("wall", 10, 10, 0, 0.5, 8, 3)]
    w = world(t, [medium("m", 8, 10, spd=3, states=("Flying",)), medium("e", 12, 12, side="blue", rch=2)])
    r = check_path(w, "m", [(12, 10)], "walk")
    assert r.allowance == 6.0                   # SPD doubled
    assert r.legal and r.distance == pytest.approx(4.0)
    assert r.opportunity_points == []           # a non-Flying enemy cannot attack it in melee
    r2 = check_path(w, "m", [(10, 10)], "walk")
    assert r2.legal and r2.end[2] == pytest.approx(3.0)    # ends on top of the wall
    from engine.motion import reachable
    g = reachable(w, "m", "walk")
    assert g.contains(10, 10, 3.0) and g.contains(13.5, 9)
    assert not g.contains(8, 16.5)


def test_a_parabolic_jump_is_measured_along_its_arc():
    import numpy as np
    w = world([], [medium("m", 8, 10, spd=10)])
    r = check_path(w, "m", [(10, 10)], "jump", settings={"jump_shape": "arc", "arc_apex": 1.0})
    # z = 4 t (1 - t) over a 2" span: length = integral of sqrt(4 + (4 - 8 t)^2) dt
    t = np.linspace(0, 1, 200001)
    L = np.trapezoid(np.sqrt(4 + (4 - 8 * t) ** 2), t)
    assert r.legal and r.falls == []
    assert r.distance == pytest.approx(L, abs=2e-3)
    assert max(p[2] for p in r.path) == pytest.approx(1.0, abs=2e-3)
    assert r.end == pytest.approx((10, 10, 0), abs=1e-6)


def test_a_jump_into_a_wall_falls_at_the_wall():
    # a straight jump at ground level into a 3" wall stops at the wall's face
    w = world([box("wall", 10, 10, 0, 0.5, 8, 3)], [medium("m", 8, 10, spd=6)])
    r = check_path(w, "m", [(11, 10, 0)], "jump")
    # (the probes under a base reach R - 0.002": contact within that)
    assert r.end[0] + R_M == pytest.approx(9.75, abs=2.5e-3)
    assert r.distance == pytest.approx(9.75 - R_M - 8, abs=2.5e-3)
    assert r.falls == [] and r.end[2] == 0.0


def test_a_model_without_spd_is_bad_input():
    from engine.scene import ModelSpec
    w = world([], [ModelSpec("m", "red", 32, 45, (6, 10, None), stats={"AG": 4})])
    with pytest.raises(InputError) as e:
        check_path(w, "m", [(8, 10)], "walk")
    assert "SPD" in str(e.value)
    assert check_path(w, "m", [(8, 10)], "walk", speed=4).legal       # given by the caller


def test_a_jump_down_goes_across_then_down():
    # a 2" block; SPD 6 (3"): 1.5" across at 2", then 1.5" down within the jump, 0.5" fall
    x0 = 10 - R_M
    w = world([box("block", 7, 10, 0, 6, 6, 2)], [medium("m", x0, 10, spd=6)])
    r = check_path(w, "m", [(10 + R_M + 0.5 - (2 * R_M + 0.5 - 1.5), 10)], "jump")
    assert r.legal
    assert r.distance == pytest.approx(3.0, abs=1e-6)
    assert r.end[2] == pytest.approx(0.0, abs=1e-6)
    assert len(r.falls) == 1 and r.falls[0].height == pytest.approx(0.5, abs=1e-4) and r.falls[0].rolls == 0


def test_a_climb_goes_on_from_the_wall_next_activation():
    x0 = 9.75 - R_M
    w = world([box("block", 11.75, 10, 0, 4, 8, 3)], [medium("m", x0, 10, spd=4)])
    first = check_path(w, "m", [(10.5, 10, 3)], "climb")
    assert first.ends_on_vertical and first.end[2] == pytest.approx(2.0)
    w.move_model("m", *first.end)                     # it hangs there
    nxt = check_path(w, "m", [(x0 + 1.0, 10, 3)], "climb")
    assert nxt.legal and not nxt.ends_on_vertical
    # the last 1" up counts (it is part of a 3" climb), then 1" across onto the top
    assert nxt.distance == pytest.approx(2.0, abs=1e-6)
    assert nxt.end == pytest.approx((x0 + 1.0, 10, 3.0), abs=1e-6)
    # declared farther across the top: the allowance runs out off the wall, not legal
    far = check_path(w, "m", [(10.5, 10, 3)], "climb")
    assert not far.legal and far.end == pytest.approx(nxt.end, abs=1e-6)
    # a Walk cannot start from the wall face
    assert not check_path(w, "m", [(6, 10)], "walk").legal


def test_moves_start_from_a_ramp():
    ramp = TerrainSpec("ramp", "wedge", (20, 10, 0), size=(8, 4, 4))
    w = world([ramp], [medium("m", 18, 10, spd=6)])
    r = check_path(w, "m", [(19, 10)], "jump")
    assert r.legal and r.falls == []
    assert r.distance == pytest.approx(math.hypot(1.0, 0.5), abs=0.01)    # straight along the slope
    # it lands where the World stands a base: on the slope under its centre (the
    # route itself follows the base's highest support, 1.5 + R_M * 0.5 there)
    assert r.end[2] == pytest.approx(1.5, abs=1e-6)
    assert r.end[2] == pytest.approx(w.stand_z(19, 10, R_M), abs=1e-6)


# --------------------------------------------------------------------------- terrain columns
def test_bare_table_columns_copy_one_cast_and_match_casting_every_one():
    """Columns clear of every piece's box take the layers of one cast column;
    the answer is the same arrays as casting each column, over a whole table
    (bare table, near and on pieces, ramps, edges)."""
    import numpy as np

    from engine import motion
    from engine.scene import load_scene
    from engine.world import World
    w = World(load_scene("scenes/skirmish.yaml"))
    cols = motion.Columns(w, settings(None))
    rng = np.random.default_rng(5)
    xy = np.vstack([rng.uniform(0.02, 35.98, (6000, 2)),
                    np.column_stack([np.linspace(0, 36, 200), np.full(200, 0.01)])])
    bare = cols._bare(xy)
    assert 0.2 < bare.mean() < 0.95          # both kinds are exercised
    got, want = cols.probe(xy), cols._probe(xy)
    for a, b in zip(got, want):
        assert np.array_equal(a, b)
    # no bare column lies over any piece's footprint
    for p in w.pieces[1:]:
        (x0, y0), (x1, y1) = np.asarray(p.mesh.bounds)[:, :2]
        over = (xy[:, 0] >= x0) & (xy[:, 0] <= x1) & (xy[:, 1] >= y0) & (xy[:, 1] <= y1)
        assert not (over & bare).any(), p.id
