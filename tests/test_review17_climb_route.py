"""Review 17: a Climb refused straight on routes itself to a face elsewhere.

Before, ``eldfall move SCENE MODEL --to X,Y --mode climb`` followed the straight line
and was refused wherever that line met no face it could climb (README Known gaps: "A
Climb never routes itself to a face elsewhere (give `--via`)"), even where walking a
little to a face beside it and climbing there was legal within the allowance. Now the
path check finds the cheapest legal route that walks (the walk grid's shortest path) to
the foot of a face up to the target's level, climbs it and goes on to the target
(``engine.motion._climb_route``); its waypoints are the result's ``via``, and ``--via``
with them gives the same verdict. Where no face is within the allowance the refusal
says so, with the cheapest way's least cost.

Rules: eldfall-actions.txt, Special Movement (Climb: "Allows moving over obstacles
higher than the model's Hitbox", SPD / 2 rounded up); eldfall-facts.md Movement
(Unscalable: "only models with the Climbing skill cross it"). Rulings: "Climb", "Climb
down an overhang".
"""
import pytest

from engine.motion import check_path
from tests.cli_run import run_cli
from tests.scene_files import world_of, write

R = 32 / 25.4 / 2          # the 32 mm base's radius

# a 3" rock (x 10-14, y 10-14) whose west face is behind a thorn hedge (an Unscalable area
# 2.5" high, x 9.2-10, y 9.8-14.2); goat (climb allowance 12") and kid (6") west of it,
# ibex (12") east of it
ROCK = """name: Climb routes
games: [eldfall]
table: [24, 24]
terrain:
  - {id: rock, shape: box, at: [12, 12, 0], size: [4, 4, 3]}
  - {id: thorns, shape: box, at: [9.6, 12, 0], size: [0.8, 4.4, 2.5], tags: [area, unscalable]}
models:
  - {id: goat, side: red, base_mm: 32, height_mm: 45, at: [6, 12], stats: {SPD: 24, AG: 4}}
  - {id: kid, side: red, base_mm: 32, height_mm: 45, at: [6, 14], stats: {SPD: 12, AG: 4}}
  - {id: ibex, side: red, base_mm: 32, height_mm: 45, at: [18, 12], stats: {SPD: 24, AG: 4}}
"""

# a 5" watchtower (x 8-16, y 10-14) under a deck 2" deeper than the base's width on every
# side (5.3" up), but for a notch over its south face (x 14.5-16) where a ladder stands,
# 3" east of the way up from guard (climb allowance 17"); lookout (22") on the deck
TOWER = """name: Watchtower
games: [eldfall]
table: [24, 24]
terrain:
  - {id: tower, shape: box, at: [12, 12, 0], size: [8, 4, 5]}
  - {id: deck, shape: box, at: [12, 13, 5], size: [12, 6, 0.3]}
  - {id: deck-sw, shape: box, at: [10.25, 9, 5], size: [8.5, 2, 0.3]}
  - {id: deck-se, shape: box, at: [17, 9, 5], size: [2, 2, 0.3]}
  - {id: ladder, shape: box, at: [15.25, 9.9, 0], size: [1, 0.2, 5.3], tags: [ladder]}
models:
  - {id: guard, side: red, base_mm: 32, height_mm: 45, at: [12, 4], stats: {SPD: 34, AG: 4}}
  - {id: lookout, side: red, base_mm: 32, height_mm: 45, at: [9, 13, 5.3], stats: {SPD: 44, AG: 4}}
"""


def _climbs(r):
    """The (foot, top) of each climb up in a route."""
    return [(p, q) for p, q in zip(r.path, r.path[1:]) if q[2] - p[2] > 0.5 and abs(q[0] - p[0]) < 1e-6]


def _same_by_via(w, r, model, to):
    """``check_path`` along the routed result's waypoints gives the same verdict."""
    again = check_path(w, model, list(r.via) + [to], "climb")
    assert again.legal and again.via == ()
    assert again.distance == pytest.approx(r.distance, abs=1e-9)
    assert again.end == pytest.approx(r.end, abs=1e-9)
    assert again.path == r.path


def test_a_climb_barred_by_thorns_walks_round_to_a_face_it_may_climb(tmp_path):
    # before: refused where the base enters the thorns, 2.57" along the straight line
    w = world_of(tmp_path, ROCK)
    r = check_path(w, "goat", [(12, 12)], "climb")
    assert r.legal, r.reason
    assert r.reason.startswith("ok, by way of a face elsewhere, climbing at (")
    assert "straight on: the route enters the unscalable area thorns at (8.57, 12.00)" in r.reason
    assert r.end == pytest.approx((12, 12, 3))
    assert [g["kind"] for g in r.legs] == ["across", "climb up", "across"]
    # up the rock's south or north face, clear of the thorns (a base's radius past them)
    (foot, top), = _climbs(r)
    assert foot[0] >= 10 + R - 0.05 and abs(abs(foot[1] - 12) - (2 + R)) <= 1e-3
    assert f"climbing at ({foot[0]:.2f}, {foot[1]:.2f}) (--via " in r.reason
    assert top[2] == pytest.approx(3)
    # the cheapest way, within the allowance: round the hedge to the nearest clear foot,
    # 3" up, on to the target (the grid's walk a little longer than the straight lines)
    least = (((10 + R - 6) ** 2 + (2 + R) ** 2) ** 0.5 + 3 + ((2 - R) ** 2 + (2 + R) ** 2) ** 0.5)
    assert least - 1e-6 <= r.distance <= min(least + 0.6, 12)
    _same_by_via(w, r, "goat", (12, 12))


def test_the_move_command_prints_the_route_and_its_via_gives_the_same_verdict(capsys, tmp_path):
    scene = str(write(tmp_path, "rock.yaml", ROCK))
    rc, out, _ = run_cli(capsys, "move", scene, "goat", "--to", "12,12", "--mode", "climb")
    assert rc == 0 and out.startswith("goat climb: legal (ok, by way of a face elsewhere, climbing at ("), out
    via = out.split("(--via ", 1)[1].split(")", 1)[0].split(" --via ")
    distance = out.splitlines()[1]
    argv = [a for v in via for a in ("--via", v)]
    rc, out2, _ = run_cli(capsys, "move", scene, "goat", *argv, "--to", "12,12", "--mode", "climb")
    assert rc == 0 and out2.startswith("goat climb: legal (ok)"), out2
    assert out2.splitlines()[1] == distance
    rc, out3, _ = run_cli(capsys, "move", scene, "goat", "--to", "12,12", "--mode", "climb", "--json")
    import json
    printed = [float(v) for p in via for v in p.split(",")]
    assert printed == pytest.approx([v for p in json.loads(out3)["via"] for v in p], abs=1e-4)


def test_a_climb_to_a_watchtower_goes_up_by_its_ladder_3in_to_the_side(tmp_path):
    # straight on, the deck overhangs the tower's face 2": too deep to climb round
    w = world_of(tmp_path, TOWER)
    r = check_path(w, "guard", [(12, 12)], "climb")
    assert r.legal, r.reason
    assert "straight on: the base cannot pass at (12.00, 9.37): deck-sw overhangs the face there, too deep" \
        in r.reason
    assert r.end == pytest.approx((12, 12, 5.3))
    # up the south face in the notch, by the ladder (x 14.75-15.75), 5.3" in all (round
    # the corner of deck-sw, a few thousandths over the base)
    ups = _climbs(r)
    assert ups and all(14.5 <= p[0] <= 16 and p[1] == pytest.approx(10 - R, abs=0.01) for p, _ in ups)
    assert sum(q[2] - p[2] for p, q in ups) == pytest.approx(5.3)
    assert r.distance <= 17
    _same_by_via(w, r, "guard", (12, 12))


def test_a_climb_down_from_the_watchtower_goes_down_by_its_ladder(tmp_path):
    # straight on, the face under deck-sw's edge is 2" back: "Jump down instead"
    w = world_of(tmp_path, TOWER)
    r = check_path(w, "lookout", [(9, 4)], "climb")
    assert r.legal, r.reason
    assert "straight on: below the edge of deck-sw at (9.00, 7.37, 5.30) no face carries a Climb down" in r.reason
    assert r.end == pytest.approx((9, 4, 0))
    assert [g["kind"] for g in r.legs] == ["across", "climb down", "across"]
    (top, foot), = [(p, q) for p, q in zip(r.path, r.path[1:]) if p[2] - q[2] > 0.5]
    assert 14.5 <= foot[0] <= 16 and foot[1] == pytest.approx(10 - R, abs=0.01) and foot[2] == 0
    assert r.distance <= 22
    _same_by_via(w, r, "lookout", (9, 4))


def test_an_allowance_too_short_for_any_face_is_refused_naming_the_cheapest(tmp_path):
    # straight on, the thorns bar the way; round them, no face is within 6"
    w = world_of(tmp_path, ROCK)
    r = check_path(w, "kid", [(12, 12, 3)], "climb")
    assert not r.legal and r.via == ()
    assert r.reason.startswith("the route enters the unscalable area thorns at ("), r.reason
    assert ": only a model with the Climbing skill crosses it; and no other face that carries a Climb to " \
           "z 3.00 is within the allowance of 6\" (the nearest, climbing at (" in r.reason, r.reason
    least = float(r.reason.rsplit("costs at least ", 1)[1].split('"')[0])
    assert 6 < least < 14
    # a straight route refused for its length alone is not routed (it has its face)
    r = check_path(w, "ibex", [(12, 12)], "climb", speed=4)
    assert r.reason == "the route costs 9.00\" and the allowance is 2\"", r.reason


def test_a_legal_straight_climb_and_a_declared_route_are_taken_as_they_are(tmp_path):
    w = world_of(tmp_path, ROCK)
    r = check_path(w, "ibex", [(12, 12)], "climb")
    assert r.legal and r.reason == "ok" and r.via == ()
    assert r.distance == pytest.approx(6 - 2 - R + 3 + 2 + R, abs=1e-3)
    # waypoints declared: the route is the player's (refused at the thorns, as before)
    r = check_path(w, "goat", [(7, 12), (12, 12)], "climb")
    assert not r.legal and r.via == () and "thorns" in r.reason and "by another face" not in r.reason
