"""Review 16, movement: a Climb down (or up) an overhang follows the scenery's faces, a
Climb is never left in the air, and a refused Jump that would come down on a model says so.

Rules: eldfall-actions.txt, Special Movement (Climb: "Allows moving over obstacles higher
than the model's Hitbox ... May end movement on a vertical surface"; Jump: "model falls");
eldfall-facts.md, Movement ("Models are placed only on non-vertical surfaces, unless a rule
says so"). Rulings: "Climb down an overhang".
"""
import pytest

from engine.motion import check_path
from engine.validate import steep_face_near
from tests.cli_run import run_cli
from tests.motion_scenes import H_M, R_M, box, medium, world

# a 6" square tower (x 6-10, y 6-10) under a 0.3" roof slab 0.5" wider on every side (x 5.5-10.5)
TOWER = box("tower", 8, 8, 0, 4, 4, 6)
ROOF = box("roof", 8, 8, 6, 5, 5, 0.3)
# a deck 3" up on two pillars at its ends (x 19-29, y 10.5-13.5): open under its long sides
DECK = [box("pillar-w", 19.5, 12, 0, 1, 3, 3), box("pillar-e", 28.5, 12, 0, 1, 3, 3),
        box("deck", 24, 12, 3, 10, 3, 0.4)]
# a plain 4" cliff (x 12-20), flush face
CLIFF = box("cliff", 16, 30, 0, 8, 6, 4)


def _table(*models):
    return world([TOWER, ROOF, *DECK, CLIFF], list(models))


def _kinds(r):
    return [g["kind"] for g in r.legs]


def _placeable(w, r):
    """A scene could place the model where the move ends: standing, or its base on a face."""
    x, y, z = r.end
    return not r.ends_on_vertical or steep_face_near(w, x, y, z, R_M) is not None


def test_a_climb_down_from_an_overhanging_roof_follows_the_faces():
    # Before: down straight from the roof's edge, 0.5" out from the tower's wall, in the air
    w = _table(medium("m", 8, 8, 6.3, spd=40))
    r = check_path(w, "m", [(3, 8, 0)], "climb")
    assert r.legal, r.reason
    assert _kinds(r) == ["across", "climb down", "across under the overhang", "climb down", "across"]
    legs = {g["kind"]: g for g in r.legs}
    under = legs["across under the overhang"]
    assert under["length"] == pytest.approx(0.5, abs=0.01)       # back to the tower's wall
    # the 6.3" are all counted, and the way in under the roof and back out again
    down = sum(g["length"] for g in r.legs if g["kind"] == "climb down")
    assert down == pytest.approx(6.3, abs=1e-6)
    assert r.distance == pytest.approx(5.0 + 6.3 + 2 * 0.5, abs=0.02)
    # the long climb down is on the tower's face, from under the roof (the hitbox's top at
    # its underside) to the ground: the base touches the face all the way
    x = 6.0 - R_M
    assert any(abs(p[0] - x) < 0.01 and abs(q[0] - x) < 0.01 and p[2] == pytest.approx(6.0 - H_M, abs=1e-3)
               and q[2] == pytest.approx(0.0, abs=1e-6) for p, q in zip(r.path, r.path[1:])), r.path
    for z in (0.5, 2.0, 3.5, 6.0 - H_M):
        assert steep_face_near(w, x + 0.0005, 8.0, z, R_M) is not None


def test_a_climb_cut_short_under_the_overhang_ends_on_the_face_and_goes_on_from_there():
    # allowance 7: 2.37" across to the edge, the roof's edge and under it, then down the wall
    w = _table(medium("m", 8, 8, 6.3, spd=14))
    r = check_path(w, "m", [(3, 8, 0)], "climb")
    assert r.legal and r.ends_on_vertical, r.reason
    assert r.end[0] == pytest.approx(6.0 - R_M, abs=0.01)        # against the wall, not 0.5" out
    assert _placeable(w, r)
    # the next activation it climbs down from where it hangs
    w.move_model("m", *r.end)
    r2 = check_path(w, "m", [(3, 8, 0)], "climb")
    assert r2.legal, r2.reason
    assert r2.end[2] == pytest.approx(0.0, abs=1e-6)


def test_a_climb_that_would_leave_the_model_in_the_air_under_the_overhang_is_refused():
    # allowance 5: it runs out while the model hangs from the roof's edge by its hitbox,
    # where no face touches its base (before: legal, "on a vertical surface", in the air)
    w = _table(medium("m", 8, 8, 6.3, spd=10))
    r = check_path(w, "m", [(3, 8, 0)], "climb")
    assert not r.legal
    assert "touches no face" in r.reason and "roof" in r.reason and "Jump" in r.reason
    assert steep_face_near(w, *r.end, R_M) is None              # where it would have been left


def test_a_climb_down_the_open_side_of_a_deck_is_refused_naming_the_deck_and_the_jump():
    # under the deck's side there is no face within reach (the pillars are at its ends):
    # a Climb does not go down through the air (before: legal, or left in the air)
    w = _table(medium("m", 24, 12, 3.4, spd=40))
    r = check_path(w, "m", [(24, 10.5), (24, 8, 0)], "climb")    # declared: never rerouted
    assert not r.legal
    assert "no face carries a Climb down" in r.reason and "deck" in r.reason and "Jump" in r.reason
    assert r.end[2] == pytest.approx(3.4)                        # stopped on the deck's edge
    # given only its end, 20" of allowance reach a pillar's face: a route by it
    assert check_path(w, "m", [(24, 8, 0)], "climb").via
    # the Jump down it names is legal
    assert check_path(w, "m", [(24, 8, 0)], "jump").legal
    # down the deck's end, over the pillar's flush face, the Climb is as before
    r = check_path(w, "m", [(16, 12, 0)], "climb")
    assert r.legal, r.reason
    assert "across under the overhang" not in _kinds(r)


def test_a_climb_down_a_flush_face_is_straight_down_as_before():
    w = _table(medium("m", 16, 30, 4, spd=8))                   # allowance 4
    r = check_path(w, "m", [(16, 25, 0)], "climb")
    assert r.legal and r.ends_on_vertical, r.reason
    assert _kinds(r) == ["across", "climb down"]
    assert r.end[1] == pytest.approx(27 - R_M, abs=1e-3)
    assert _placeable(w, r)


def test_a_climb_up_to_an_overhanging_roof_goes_out_under_it_and_up_its_edge():
    # Before: "the base cannot pass" where the base met the tower's wall (no room straight up)
    w = _table(medium("m", 3, 8, 0, spd=40))
    r = check_path(w, "m", [(8, 8, 6.3)], "climb")
    assert r.legal, r.reason
    assert _kinds(r) == ["across", "climb up", "across under the overhang", "climb up", "across"]
    assert r.end[2] == pytest.approx(6.3)
    # cut short on the wall under the roof: on the face
    w2 = _table(medium("m", 3, 8, 0, spd=8))                    # allowance 4
    r = check_path(w2, "m", [(8, 8, 6.3)], "climb")
    assert r.legal and r.ends_on_vertical, r.reason
    assert _placeable(w2, r)


def test_a_refused_jump_that_would_come_down_on_a_model_says_so(capsys):
    # heights.yaml: blue-marksman jumps off the 4" cliff toward blue-ogre at its foot and
    # falls short onto it. Before: "falls 3.33" onto table: 0 AG rolls", as if it landed.
    rc, out, err = run_cli(capsys, "move", "scenes/heights.yaml", "blue-marksman", "--to", "27,25",
                           "--mode", "jump", "--speed", "13")
    assert rc == 0, err
    assert "NOT LEGAL (it would fall 3.33\" onto ally blue-ogre" in out
    assert "would fall 3.33\" onto blue-ogre" in out
    assert "onto table" not in out and "  falls " not in out


def test_heights_the_archer_climbing_down_the_tower(capsys):
    # the archer (allowance 5 at SPD 10) runs out hanging from the roof's edge: refused,
    # named; with allowance 7 it ends on the tower's wall under the roof
    rc, out, err = run_cli(capsys, "move", "scenes/heights.yaml", "red-archer", "--to", "3,8", "--mode", "climb",
                           "--speed", "10")
    assert rc == 0, err
    assert "NOT LEGAL (the allowance of 5\" runs out at (4.87, 8.00, 4.43), under the overhang of tower-roof" in out
    rc, out, err = run_cli(capsys, "move", "scenes/heights.yaml", "red-archer", "--to", "3,8", "--mode", "climb",
                           "--speed", "14")
    assert rc == 0, err
    assert "legal (allowance spent: the model ends on a vertical surface)" in out
    assert "ends at (5.37, 8.00, 2.93)" in out                  # on the tower's wall (radius 2)
    assert "0.50\" across under the overhang (0.50\")" in out


def test_reach_path_to_says_whether_a_point_is_out_of_reach_or_cut_off(capsys):
    # Before, both read "none: no walk of 5" reaches it (out of reach, blocked, or no room
    # for the base there)": the player could not tell a far point from one no walk gets to
    import json
    rc, out, err = run_cli(capsys, "reach", "scenes/open.yaml", "red-archer", "--mode", "walk", "--path-to", "30,12")
    assert rc == 0, err
    assert "none: no walk of 5\" reaches it: out of reach (the shortest walk there is 24.55\")" in out
    rc, out, err = run_cli(capsys, "reach", "scenes/open.yaml", "red-archer", "--mode", "walk", "--path-to", "30,12",
                           "--json")
    assert json.loads(out)["shortest_path_cost_unlimited"] == pytest.approx(24.55, abs=0.01)
    # the bridge deck's top (3.4" up on its pillars, no ramp): no walk gets onto it, however long
    rc, out, err = run_cli(capsys, "reach", "scenes/heights.yaml", "red-champion", "--mode", "walk",
                           "--path-to", "24,12,3.4")
    assert rc == 0, err
    assert "none: no walk of 5\" reaches it: none of any length gets there" in out and "--mode climb" in out


def test_an_overhang_deeper_than_the_base_is_neither_climbed_down_nor_up():
    # a roof 2" out from its tower's wall on every side: more than the base's width (1.26"),
    # so no hanging model reaches the wall (before: down through the air; up: "the base
    # cannot pass at ..." and nothing more)
    w = world([box("tower", 8, 8, 0, 4, 4, 6), box("roof", 8, 8, 6, 8, 8, 0.3)],
              [medium("top", 8, 8, 6.3, spd=40), medium("low", 1, 8, 0, spd=40)])
    r = check_path(w, "top", [(1, 14, 0)], "climb")
    assert not r.legal
    assert "no face carries a Climb down (none under it within the base's width, 1.26\"" in r.reason
    assert "roof" in r.reason and "Jump" in r.reason
    r = check_path(w, "low", [(8, 8, 6.3)], "climb")
    assert not r.legal
    assert "the base cannot pass at (5.37, 8.00): roof overhangs the face there, too deep" in r.reason
