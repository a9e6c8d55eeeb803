"""Review 9, movement as a player judges it: `eldfall move`, `eldfall reach`,
`eldfall measure` against the rules text, and the defects found there.

Medium base: 32 mm -> radius R = 0.6299", hitbox 1.7717" tall.
"""
import pytest

from engine.motion import check_path
from tests.motion_scenes import R_M, box, medium, world
from cli_run import run_cli  # noqa: E402

SKIRMISH = "scenes/skirmish.yaml"


def _one_line(capsys, *argv):
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 2 and out == "", (rc, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv, start", [
    (["--to", "100,1", "--mode", "walk"], "<command line>: --to: point (100, 1) is off the 36\" x 36\" table"),
    (["--via", "40,1", "--to", "1,1", "--mode", "walk"], "<command line>: --via: point (40, 1) is off the"),
    (["--to", "10,1", "--mode", "jump", "--arc", "1e9"], "<command line>: --arc: "),
])
def test_move_bad_points_and_arcs_name_the_command_line_flag(capsys, argv, start):
    # before: "<move>: to: point (100, 1) is off ..." (the engine's name, "to" for a --via
    # point too) and "<move>: arc_apex: ..." instead of the flag the user typed
    line = _one_line(capsys, "move", SKIRMISH, "red-mage", *argv)
    assert line.startswith(start), line


@pytest.mark.parametrize("argv, start", [
    (["red-archer", "nobody"], "<command line>: B: unknown model 'nobody'"),
    (["nobody", "red-archer"], "<command line>: A: unknown model 'nobody'"),
    (["red-archer", "red-archer"], "<command line>: B: A and B are the same model"),
    (["red-archer", "blue-guard", "--weapon", "Axe"], "<command line>: --weapon: red-archer has no weapon"),
])
def test_measure_bad_input_is_a_command_line_problem(capsys, argv, start):
    # before: "<input>: unknown model ..." (every other command says "<command line>: FLAG:")
    line = _one_line(capsys, "measure", SKIRMISH, *argv)
    assert line.startswith(start), line


# --------------------------------------------------------------------------- jump
def test_a_jump_that_comes_down_on_the_wall_it_hits_says_it_lands_on_it():
    # a 3" wall x 29.75-30.25; SPD 10 (Jump 5"): up to (29, 12, 3.2), then down toward
    # the far side: the base's rim comes down on the wall's top at x 29.75 - R
    w = world([box("wall", 30, 10, 0, 0.5, 20, 3)], [medium("e", 28.5, 12, spd=10)])
    r = check_path(w, "e", [(29, 12, 3.2), (31.5, 12)], "jump")
    assert r.legal and r.end[2] == pytest.approx(3.0)
    assert r.end[0] == pytest.approx(29.75 - R_M + 0.03, abs=0.03)
    assert "hits wall" in r.reason and "lands on it" in r.reason, r.reason   # before: "lands at its foot"
    # straight into the wall: it does land at its foot
    r = check_path(w, "e", [(31.5, 12)], "jump")
    assert r.end[2] == pytest.approx(0.0) and "lands at its foot" in r.reason, r.reason


# --------------------------------------------------------------------------- slopes: reach and move agree
def test_reach_on_a_hill_never_offers_a_cell_cheaper_than_move_prices_its_route():
    # scenes/heights.yaml's hill is a heightfield (3" spacing, 3" summit). The path check
    # priced every 0.05" by the face under the base's highest point even where the base
    # rests on the summit or a ridge and barely changes height (the summit crossing below
    # cost 1.04" for 0.93" of plan and 0.11" of height); the grid priced a step by its two
    # nodes' faces even where the nodes' heights differ by more (a ridge): the grid was up
    # to 0.16" cheaper than the path check along the grid's own route, and offered
    # (13.125, 18.875) at 9.85" of Run where the path check said 10.04" > 10.
    from tools.loading import load_world
    from engine.motion import reachable
    w = load_world("scenes/heights.yaml", None)
    r = check_path(w, "red-mage", [(8.875, 27.125), (8.375, 27.125), (8.125, 27.125)], "run")
    assert r.legal and r.distance < 0.99, r.distance
    g = reachable(w, "red-mage", "run")
    for p in ((13.125, 18.875, 0.0), (4.375, 28.375, 0.75), (3.125, 27.625, 0.25), (5.125, 33.375, 0.0),
              (11.375, 19.625, 0.0), (13.875, 24.125, 0.542)):
        assert g.contains(*p), p
        route = g.shortest_path(p)
        r = check_path(w, "red-mage", route[1:], "run")
        assert r.legal, (p, r.reason)
        assert r.distance <= g.cost_at(*p) + 0.05, (p, r.distance, g.cost_at(*p))


# --------------------------------------------------------------------------- jump: enemies, far targets
def test_a_jump_that_ends_short_of_an_enemy_is_not_stopped_by_it():
    # SPD 6, Jump 3": toward an enemy whose base the flight would touch 0.02" beyond the
    # allowance. Before: "stopped by base contact with e" (the contact was searched along
    # the whole route, and the first one counted even past the allowance)
    w = world([], [medium("m", 5, 10), medium("e", 5 + 3 + 2 * R_M + 0.02, 10, side="blue")])
    r = check_path(w, "m", [(12, 10)], "jump")
    assert r.legal and r.stopped_by is None and "contact" not in r.reason, r.reason
    assert r.end[0] == pytest.approx(8.0) and r.distance == pytest.approx(3.0)
    # 0.02" nearer: the flight does meet the base, and stops there
    w = world([], [medium("m", 5, 10), medium("e", 5 + 3 + 2 * R_M - 0.02, 10, side="blue")])
    r = check_path(w, "m", [(12, 10)], "jump")
    assert r.stopped_by == "e" and r.end[0] == pytest.approx(8.0 - 0.02, abs=1e-3)


def test_a_jump_aimed_far_up_in_the_air_is_answered(capsys):
    # before: a MemoryError traceback (the route to z 1e9 was sampled every 0.05" to find
    # enemy contacts, beyond the 2.5" the flight can go)
    rc, out, err = run_cli(capsys, "move", SKIRMISH, "red-mage", "--to", "10,3,1e9", "--mode", "jump", "--json")
    assert rc == 0, err
    import json
    d = json.loads(out)
    assert d["legal"] and d["distance"] == pytest.approx(2.5) and d["falls"][0]["height"] == pytest.approx(2.5)


# --------------------------------------------------------------------------- attacks of opportunity
@pytest.mark.parametrize("state", ["Blinded", "Immobilized"])
def test_an_enemy_that_cannot_attack_gives_no_attack_of_opportunity(state):
    # Reactions, "Restrictions by State": Blinded reacts with Assist, Dodge or Nothing
    # only, Immobilized with Dodge or Nothing: neither may declare an Attack of
    # Opportunity. Before: `eldfall move` said "enters e's melee reach ... (attack of
    # opportunity)" for them. Their Awareness still counts (Dodge).
    w = world([], [medium("m", 1, 10), medium("e", 9, 12, side="blue", rch=1, states=(state,)),
                   medium("f", 9, 8, side="blue", rch=1)])
    r = check_path(w, "m", [(13, 10)], "run")
    assert r.legal
    assert [p.enemy for p in r.opportunity_points] == ["f"]
    assert {p.enemy for p in r.awareness_points} == {"e", "f"}


def test_the_move_picture_keeps_a_far_waypoint_near_the_table(capsys, monkeypatch, tmp_path):
    # before: the declared waypoint (10, 3, 1e9) was framed too: the picture showed no table
    import engine.view.pictures as pictures
    seen = {}

    def fake(world, result, out_dir, waypoints=None, caption=None, **kw):
        seen["waypoints"] = waypoints
        return str(tmp_path / "move.png")
    monkeypatch.setattr(pictures, "move_picture", fake)
    rc, out, err = run_cli(capsys, "move", SKIRMISH, "red-mage", "--to", "10,3,1e9", "--mode", "jump",
                           "--picture", str(tmp_path))
    assert rc == 0, err
    assert seen["waypoints"] == [(10.0, 3.0, 36.0)]


def test_a_flying_enemy_does_not_engage_so_an_engaged_walk_may_not_head_for_it():
    # States, "Flying": cannot Engage others. m is Engaged by e (east); a Flying enemy f
    # has m within its reach to the north. Before: walking north, at f, was accepted
    w = world([], [medium("m", 10, 10, states=("Engaged",)), medium("e", 12, 10, side="blue", rch=1),
                   medium("f", 10, 12, side="blue", rch=1, states=("Flying",))])
    r = check_path(w, "m", [(10, 10.5)], "walk")
    assert not r.legal and "(e)" in r.reason, r.reason
    assert check_path(w, "m", [(10.5, 10)], "walk").legal


def test_an_engaged_models_reach_heads_for_the_same_enemy_its_walk_may():
    # Engaged by the state, no enemy has it in reach: the Walk may head for the nearest
    # enemy. Before: the reachable area took the first enemy of the scene instead (here
    # "far"), found every cell toward it refused by the path check, and offered nothing,
    # while `eldfall move` accepted a walk toward "near"
    from engine.motion import reachable
    w = world([], [medium("m", 10, 10, states=("Engaged",)), medium("far", 30, 30, side="blue"),
                   medium("near", 14, 10, side="blue")])
    assert check_path(w, "m", [(12, 10)], "walk").legal
    g = reachable(w, "m", "walk")
    pts = g.points()
    assert len(pts) >= 8 and g.contains(12, 10)
    for p in pts:
        assert check_path(w, "m", [tuple(p)], "walk").legal, p
    # and with no enemy at all there is nothing to head for: the Walk is free, and so is the area
    w = world([], [medium("m", 10, 10, states=("Engaged",))])
    assert check_path(w, "m", [(12, 12)], "walk").legal
    assert reachable(w, "m", "walk").contains(12, 12)


def test_a_fall_shown_as_three_inches_is_three_inches(tmp_path):
    # SPD 6: one AG roll per whole 3", only above 3" ("3 -> 0" in the book's example). A
    # model hanging 3" up a tower's face that jumps at the top of the tower meets the face
    # at once: its base rises 0.0025" before its probes touch the face, then it falls.
    # Before: "falls 3.00" (1 AG roll)"
    from engine.motion import fall_rolls
    from tools.loading import load_world
    scene = tmp_path / "hang.yaml"
    scene.write_text("table: [30, 20]\n"
                     "terrain:\n  - {id: tower, shape: box, at: [22, 10, 0], size: [4, 4, 5], tags: [climbable]}\n"
                     "models:\n  - {id: climber, side: red, base_mm: 32, height_mm: 45, at: [19.37, 10, 3],"
                     " stats: {SPD: 6, AG: 4}}\n")
    w = load_world(str(scene), None)
    r = check_path(w, "climber", [(21, 10, 5)], "jump")
    assert r.falls and r.falls[0].height == pytest.approx(3.0, abs=0.005)
    assert r.falls[0].rolls == 0, r.falls
    assert [fall_rolls(h, 6) for h in (3.004, 3.006, 5.994, 5.996)] == [0, 1, 1, 2]


def test_a_huge_speed_prints_a_readable_line(capsys):
    # before: "(5000000...080.00" left)", three hundred digits
    rc, out, err = run_cli(capsys, "move", SKIRMISH, "red-mage", "--to", "10,3", "--mode", "jump", "--speed", "1e300")
    assert rc == 0, err
    line = out.splitlines()[1]
    assert len(line) < 120 and "5e+299\" left" in line, line


def test_a_via_with_a_height_names_the_level_the_walk_passes(capsys):
    # red-mage stands on the ruin's upper floor (z 2.75). Before: "--via 9.5,3,0" (the
    # ground storey under it) was silently read as (9.5, 3) and the walk went on upstairs
    def move(*argv):
        rc, out, err = run_cli(capsys, "move", SKIRMISH, "red-mage", *argv, "--mode", "walk", "--json")
        assert rc == 0, err
        import json
        return json.loads(out)
    d = move("--via", "9.5,3,0", "--to", "10,3")
    assert not d["legal"] and "passes (9.5, 3) at z 2.75, not at the declared z 0" in d["reason"], d["reason"]
    d = move("--via", "9.5,3,2.75", "--to", "10,3")
    assert d["legal"] and d["distance"] == pytest.approx((0.5 ** 2 + 0.4 ** 2) ** 0.5 + 0.5, abs=1e-3)
    d = move("--via", "9.5,3", "--to", "10,3")
    assert d["legal"]
