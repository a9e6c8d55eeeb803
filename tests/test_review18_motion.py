"""Review 18: the movement judge, as players ask it ("how far, and is it legal?").

Rules: eldfall-facts.md Movement ("Ladders, and surfaces narrower than the base: each
inch costs two"); rulings "Ladders and narrow surfaces" (the climb is made where the
lower end of the step stands, the base touching the ladder there) and "The reachable
area" (the grid is cautious: it offers nothing the exact path check refuses).
"""
import pytest

from engine.motion import check_path, reachable
from tests.cli_run import run_cli
from tests.scene_files import world_of, write

# a 4" platform (x 23-27, y 10.1-14.1) with a 0.2" ladder flush against its south face
# (x 24.5-25.5, y 9.9-10.1); climber (SPD 12) south of it
FLUSH = """name: Flush ladder
games: [eldfall]
table: [36, 36]
terrain:
  - {id: ladder, shape: box, at: [25, 10, 0], size: [1, 0.2, 4], tags: [ladder]}
  - {id: plat, shape: box, at: [25, 12.1, 0], size: [4, 4, 4]}
models:
  - {id: climber, side: red, base_mm: 32, height_mm: 45, at: [25, 7], stats: {SPD: 12, AG: 4}}
"""

# a 2.5" platform (x 28-32, y 16-20) with a 1.5" ladder on its north face (x 29.25-30.75,
# y 19.97-20.27); a Small model (SPD 30) far off, north-west
SIDE = """name: Ladder beside
games: [eldfall]
table: [36, 36]
terrain:
  - {id: ladder, shape: box, at: [30, 20.12, 0], size: [1.5, 0.3, 2.5], tags: [ladder]}
  - {id: plat, shape: box, at: [30, 18, 0], size: [4, 4, 2.5]}
models:
  - {id: imp, side: red, base_mm: 25, height_mm: 25, at: [18, 5], stats: {SPD: 30, AG: 4}}
"""


def test_reach_offers_the_top_of_a_ladder_flush_with_its_wall(tmp_path, capsys):
    # before: `reach` had no cell on the platform ("none of any length gets there ... a
    # Climb or a Jump may"), while `move` walks up the ladder for 13" (2.47" + 4" x 2 + 2.53")
    w = world_of(tmp_path, FLUSH)
    r = check_path(w, "climber", [(25, 12)], "walk", speed=20)
    assert r.legal and r.distance == pytest.approx(13.0, abs=0.01)
    g = reachable(w, "climber", "walk", speed=20)
    route = g.shortest_path((25, 12))
    assert route and route[-1][2] == pytest.approx(4.0)
    again = check_path(w, "climber", [tuple(p) for p in route[1:]], "walk", speed=20)
    assert again.legal, again.reason
    assert again.distance <= g.cost_at(25, 12) + 0.05
    p = write(tmp_path, "flush.yaml", FLUSH)
    rc, out, _ = run_cli(capsys, "reach", str(p), "climber", "--mode", "walk", "--speed", "20",
                         "--path-to", "25,12")
    assert rc == 0 and "plat (z 4.00)" in out
    assert "none of any length" not in out


def test_reach_offers_no_ladder_step_that_meets_the_wall_beyond_the_ladder(tmp_path):
    # before: a slanting 3-cell step from beside the ladder's end climbed where its base met
    # the platform's edge 0.57" past the ladder: `reach` offered the cell, `move` along its
    # route refused it ("scenery 2.50" high ... needs Climb, Jump or a ladder")
    w = world_of(tmp_path, SIDE)
    g = reachable(w, "imp", "walk", speed=30)
    top = [tuple(p) for p in g.points() if abs(p[2] - 2.5) < 0.01]
    assert len(top) > 50
    # the cells the ladder's own steps reach: within 1.5" of it (x 29.25-30.75, y 19.97-20.27)
    top = [p for p in top if max(29.25 - p[0], p[0] - 30.75, 0) ** 2 + max(19.97 - p[1], 0) ** 2 <= 1.5 ** 2]
    assert len(top) > 10
    bad = []
    for p in top:
        route = g.shortest_path(p)
        r = check_path(w, "imp", [tuple(q) for q in route[1:]], "walk", speed=30)
        if not r.legal:
            bad.append((p, r.reason))
    assert not bad, bad[:3]


# a thin 3" post (x 11.75-12.25, y 9.75-10.25) between walker (SPD 6) and a Large enemy
# 4.5" east of it; (13, 10) lies 1.5" from the enemy's centre: room for the base (1.42")
POST = """name: Post
games: [eldfall]
table: [36, 36]
terrain:
  - {id: post, shape: box, at: [12, 10, 0], size: [0.5, 0.5, 3]}
models:
  - {id: walker, side: red, base_mm: 32, height_mm: 45, at: [10, 10], stats: {SPD: 6, AG: 4}}
  - {id: brute, side: blue, base_mm: 40, height_mm: 45, at: [14.5, 10], stats: {SPD: 5, AG: 4}}
"""


def test_reach_path_to_does_not_call_a_walkable_point_unreachable(tmp_path, capsys):
    # before: "none: no walk of 6" reaches it: none of any length gets there (...): a Climb or
    # a Jump may", since the grid's cell centre (13.12, 10.12) is inside the brute's base;
    # `eldfall move` walks round the post to (13, 10) for 3.84"
    p = write(tmp_path, "post.yaml", POST)
    rc, out, _ = run_cli(capsys, "reach", str(p), "walker", "--mode", "walk", "--path-to", "13,10")
    assert rc == 0
    assert "none of any length" not in out
    line = next(s for s in out.splitlines() if "shortest route to (13, 10)" in s)
    assert "`eldfall move` finds one of" in line and "within the 6\" walk" in line
    cost = float(line.split("finds one of ")[1].split('"')[0])
    pts = [tuple(float(v) for v in q.strip("() ").split(", ")) for q in line.split(": ", 2)[2].split(" -> ")]
    w = world_of(tmp_path, POST)
    r = check_path(w, "walker", pts[1:], "walk")
    assert r.legal, r.reason
    assert r.distance == pytest.approx(cost, abs=0.02)
    rc, out, _ = run_cli(capsys, "reach", str(p), "walker", "--mode", "walk", "--path-to", "13,10", "--json")
    import json
    js = json.loads(out)
    assert js["shortest_path"] == [] and js["exact_path_within_allowance"] is True
    assert js["shortest_path_cost_unlimited"] == pytest.approx(cost, abs=0.01)     # not null
    assert js["exact_path"][-1] == [13.0, 10.0, 0.0]
    # a point inside the brute stays "none of any length"
    rc, out, _ = run_cli(capsys, "reach", str(p), "walker", "--mode", "walk", "--path-to", "14.5,10")
    assert "none of any length gets there (scenery or a model in the way" in out


# two 3" walls 1.27" apart (y 11-12.27 open; the Medium base is 1.26" wide); runner (SPD 6)
# west of the gap, in line with it
GAP = """name: Gap
games: [eldfall]
table: [36, 36]
terrain:
  - {id: w1, shape: box, at: [12, 8, 0], size: [1, 6, 3]}
  - {id: w2, shape: box, at: [12, 15.27, 0], size: [1, 6, 3]}
models:
  - {id: runner, side: red, base_mm: 32, height_mm: 45, at: [9, 11.635], stats: {SPD: 6, AG: 4}}
"""


def test_reach_path_to_gives_the_exact_walk_through_a_gap_the_grid_misses(tmp_path, capsys):
    # the grid misses a gap under 0.08" wider than the base (README, Known gaps); before,
    # `reach --path-to` then said "out of reach (the shortest walk there is 17.32")" round
    # the walls for a point 7" away straight through the gap, and "out of reach" for
    # (14, 11.635), which `move` walks for 5"
    p = write(tmp_path, "gap.yaml", GAP)
    w = world_of(tmp_path, GAP)
    assert check_path(w, "runner", [(14, 11.635)], "walk").legal
    rc, out, _ = run_cli(capsys, "reach", str(p), "runner", "--mode", "walk", "--path-to", "14,11.635")
    line = next(s for s in out.splitlines() if "shortest route to" in s)
    assert "`eldfall move` finds one of 5.00\"" in line and "within the 6\" walk" in line
    rc, out, _ = run_cli(capsys, "reach", str(p), "runner", "--mode", "walk", "--path-to", "16,11.635")
    line = next(s for s in out.splitlines() if "shortest route to" in s)
    assert "out of reach (the shortest walk there is 7.00\", as `eldfall move` checks it" in line
    rc, out, _ = run_cli(capsys, "reach", str(p), "runner", "--mode", "walk", "--path-to", "16,11.635", "--json")
    import json
    js = json.loads(out)
    assert js["shortest_path_cost_unlimited"] == pytest.approx(7.0, abs=0.01)
    assert js["exact_path_within_allowance"] is False


# a Flying model (SPD 6, 12 flying) west of a strip of fire (a Dangerous area, x 23-25)
FIRE = """name: Fire
games: [eldfall]
table: [36, 36]
terrain:
  - {id: mud, shape: box, at: [20, 10, 0], size: [2, 4, 0.01], tags: [area, difficult]}
  - {id: fire, shape: box, at: [24, 10, 0], size: [2, 4, 0.01], tags: [area, dangerous]}
models:
  - {id: bat, side: red, base_mm: 32, height_mm: 45, at: [16, 10], states: [Flying], stats: {SPD: 6, AG: 4}}
  - {id: rat, side: red, base_mm: 32, height_mm: 45, at: [16, 14], stats: {SPD: 6, AG: 4}}
"""


def test_a_flight_over_a_dangerous_area_does_not_touch_it(tmp_path, capsys):
    # before: a Flying Run over the fire to the far side "touches the Dangerous area fire: a
    # Dodge (AG) roll", though the flight passes above it (as it passes above the mud, which
    # does not slow it, and as a Jump over the area does not touch it)
    w = world_of(tmp_path, FIRE)
    over = check_path(w, "bat", [(28, 10)], "run")
    assert over.legal and over.dangerous == []
    assert over.distance == pytest.approx(12.0)          # the mud does not slow it either
    # ending in the fire, it comes down in it
    assert check_path(w, "bat", [(24, 10)], "run").dangerous == ["fire"]
    # a model on foot walking through it touches it
    assert check_path(w, "rat", [(28, 14)], "run").dangerous == []      # (y 14: beside the strip's end)
    assert check_path(w, "rat", [(28, 11)], "run").dangerous == ["fire"]
    p = write(tmp_path, "fire.yaml", FIRE)
    rc, out, _ = run_cli(capsys, "move", str(p), "bat", "--to", "28,10", "--mode", "run")
    assert rc == 0 and "Dangerous" not in out


def _heights(at):
    """scenes/heights.yaml's terrain with one Medium model, climber (SPD 20), at ``at``."""
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "scenes" / "heights.yaml").read_text(encoding="utf-8")
    terrain = text[:text.index("models:")]
    return terrain + ("models:\n  - {id: climber, side: red, base_mm: 32, height_mm: 45, "
                      f"at: [{at[0]}, {at[1]}], stats: {{SPD: 20, AG: 4}}}}\n")


def test_a_walk_declared_onto_the_roof_takes_the_ladder_under_it(tmp_path):
    # heights.yaml: the tower's roof slab overhangs the round tower, its east edge flush with
    # the ladder's top. Coming at the ladder slantwise the base is under the roof's edge
    # before it meets the tower; the Walk kept to the ground there and was refused ("the base
    # cannot pass at (10.55, 8.64)") though the player declared the roof's level, 6.3, and
    # the base touched the ladder where the roof began over it. `reach` offered the roof by
    # that route: 27 of 40 random roof cells were refused along `shortest_path`.
    w = world_of(tmp_path, _heights((10.875, 9.125)))
    r = check_path(w, "climber", [(10.375, 8.375, 6.3)], "walk")
    assert r.legal, r.reason
    assert r.end[2] == pytest.approx(6.3)
    assert [leg["kind"] for leg in r.legs] == ["across", "ladder up", "across"]
    # with no z the Walk keeps to the ground (as declared) and the refusal says why
    no_z = check_path(w, "climber", [(10.375, 8.375)], "walk")
    assert not no_z.legal
    assert "it kept to z 0.00 past tower-ladder, which goes up to z 6.30" in no_z.reason
    assert "give that level as the end's z" in no_z.reason
    # reach's routes onto the roof from afar are legal by the path check
    w = world_of(tmp_path, _heights((14, 20)), "far.yaml")
    g = reachable(w, "climber", "run")
    roof = [tuple(p) for p in g.points() if abs(p[2] - 6.3) < 0.01]
    assert len(roof) > 100
    for p in roof[::37]:
        route = g.shortest_path(p)
        again = check_path(w, "climber", [tuple(q) for q in route[1:]], "run")
        assert again.legal, (p, again.reason)


# a 7" x 4" deck 1.9" up on two piers: a Huge hitbox (1.97") cannot go under it
DECK = """name: Deck
games: [eldfall]
table: [36, 36]
terrain:
  - {id: p1, shape: box, at: [10, 6, 0], size: [1, 4, 1.9]}
  - {id: p2, shape: box, at: [16, 6, 0], size: [1, 4, 1.9]}
  - {id: deck, shape: box, at: [13, 6, 1.9], size: [7, 4, 0.3]}
models:
  - {id: huge, side: red, base_mm: 50, height_mm: 50, at: [14, 1.5], stats: {SPD: 10, AG: 4}}
  - {id: med, side: red, base_mm: 32, height_mm: 45, at: [11, 1], stats: {SPD: 10, AG: 4}}
"""


def test_heights_are_never_printed_minus_zero(tmp_path, capsys):
    # before: "stops at (14.00, 3.02, -0.00)", "(12.12, 6.12, -0.00)" and JSON "end": [..., -0.0]
    import json
    import math
    p = write(tmp_path, "deck.yaml", DECK)
    rc, out, _ = run_cli(capsys, "move", str(p), "huge", "--to", "14,10.5", "--mode", "walk")
    assert "stops at (14.00, 3.02, 0.00)" in out and "-0.00" not in out
    rc, out, _ = run_cli(capsys, "move", str(p), "huge", "--to", "14,10.5", "--mode", "walk", "--json")
    assert math.copysign(1.0, json.loads(out)["end"][2]) == 1.0
    rc, out, _ = run_cli(capsys, "reach", str(p), "med", "--mode", "walk", "--path-to", "12,6")
    assert "(12.12, 6.12, 0.00)" in out and "-0.00" not in out
