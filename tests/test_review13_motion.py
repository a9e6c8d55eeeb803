"""Review 13, movement: the reachable area (`eldfall reach`) and the path check
(`eldfall move`) on gaps barely wider than the base, slopes, and the text of both."""
import numpy as np
import pytest

from engine.motion import check_path, reachable
from tests.motion_scenes import R_M, box, medium, world


# --------------------------------------------------------------------------- a gap barely wider than the base
def _gap(width, x1=10.0):
    """Two 3" tops (x < x1 and x > x1 + width) and a Medium model on the first one."""
    return world([box("a", x1 - 4, 10, 0, 8, 8, 3), box("b", x1 + width + 4, 10, 0, 8, 8, 3)],
                 [medium("m", x1 - 2, 10, 3)])


@pytest.mark.parametrize("x1", [10.0, 10.07, 10.19])
def test_reach_offers_nothing_across_a_gap_a_hair_wider_than_the_base(x1):
    # The grid joined the cells on either side of a gap 1.27" wide (a Medium base is
    # 1.26") by a two-cell step over the cell between (which has no stance): reach
    # offered the far top, `move` along reach's own route found the base wholly over the
    # gap and refused ("a drop of 3.00" ... needs Climb, Jump or a ladder").
    w = _gap(1.27, x1)
    g = reachable(w, "m", "walk")
    far = [p for p in g.points() if p[0] > x1 + 1.27 + 0.3]
    assert not far, far[:3]
    assert not check_path(w, "m", [(x1 + 2.27, 10, 3)], "walk").legal


@pytest.mark.parametrize("end", [0.0, 0.011, 0.023, 0.037])
def test_a_walk_over_a_gap_a_hair_wider_than_the_base_is_refused_wherever_it_ends(end):
    # The path check samples the route every 0.05": a gap 0.03" wider than the base was
    # crossed or not depending on where the samples fell (two of these four ends were
    # legal). The base is wholly over the gap for a moment wherever the route ends.
    w = _gap(2 * R_M + 0.03)
    r = check_path(w, "m", [(12.3 + end, 10, 3)], "walk")
    assert not r.legal
    assert "a drop of 3.00\" at (10.63, 10.00)" in r.reason, r.reason


def test_a_gap_narrower_than_the_base_is_still_walked_over_by_move_and_reach():
    w = _gap(2 * R_M - 0.01)
    r = check_path(w, "m", [(12.3, 10, 3)], "walk")
    assert r.legal and abs(r.distance - 4.3) < 1e-6, (r.reason, r.distance)
    g = reachable(w, "m", "walk")
    assert g.contains(12.375, 10.125)


# --------------------------------------------------------------------------- words
def test_a_refusal_past_the_allowance_names_the_route_to_the_obstacle_not_a_way_up():
    # A Walk up a ladder, across a 3" block and off its far side: the drop is refused and
    # the allowance runs out before it. The cost of the route up to the drop was called
    # "the way up to it", read as a climb beside the ladder's "up".
    lad = box("lad", 14.1, 6, 0, 0.2, 1, 3, tags=("ladder", "climbable"))
    w = world([box("block", 12, 6, 0, 4, 4, 3), lad], [medium("c", 20, 4)], table=(24, 24))
    r = check_path(w, "c", [(3, 9)], "walk")
    assert not r.legal
    assert "the route to there costs 17.08\"" in r.reason, r.reason
    assert "way up" not in r.reason


# --------------------------------------------------------------------------- a model hanging low on a face
@pytest.mark.parametrize("mode", ["walk", "run"])
def test_a_model_hanging_lower_than_its_hitbox_cannot_walk_off_the_face(mode):
    # A model left hanging 1.5" up a 3" block (a Climb ran out there): `reach` said
    # "the model hangs on a vertical surface ...: only a Climb (or a Jump) goes on from
    # there", but `move` let it Walk or Run away, the 1.5" down being no taller than its
    # hitbox (free climbing). The rest of a taller climb is a climb (rulings, "Climb").
    w = world([box("block", 12, 6, 0, 4, 4, 3)], [medium("h", 10 - R_M, 4.5)], table=(24, 24))
    w.move_model("h", 10 - R_M, 4.5, 1.5)
    r = check_path(w, "h", [(6, 4.5)], mode)
    assert not r.legal and "hangs on a vertical surface at z 1.50" in r.reason, r.reason
    g = reachable(w, "h", mode)
    assert not len(g.points()) and "hangs on a vertical surface" in g.reason
    c = check_path(w, "h", [(7.9, 4.5)], "climb")
    assert c.legal and abs(c.distance - 2.97) < 0.01, (c.reason, c.distance)   # 1.5" down, 1.47" across


# --------------------------------------------------------------------------- where the allowance comes from
_SLOWED = """name: slowed
games: [eldfall]
table: [24, 24]
models:
  - {id: b, side: red, base_mm: 32, height_mm: 45, at: [4, 14], states: [Slowed], stats: {SPD: 5, AG: 4}}
  - {id: f, side: red, base_mm: 32, height_mm: 45, at: [4, 4], states: [Flying], stats: {SPD: 4, AG: 4}}
  - {id: n, side: blue, base_mm: 32, height_mm: 45, at: [20, 4], stats: {SPD: 5, AG: 4}}
"""


def test_move_and_reach_say_how_the_states_changed_the_spd(capsys, tmp_path):
    # A Slowed SPD 5 model's Climb was refused with "the allowance is 2"" and nothing said
    # where 2" came from (SPD 5 halved, rounded up: 3; a Climb is half of that, rounded up).
    from tests.cli_run import run_cli
    scene = tmp_path / "slowed.yaml"
    scene.write_text(_SLOWED)
    rc, out, _ = run_cli(capsys, "move", str(scene), "b", "--to", "4,20", "--mode", "climb")
    assert rc == 0
    assert "  SPD 3 (SPD 5; Slowed: halved, rounded up): the climb allowance is 2\"" in out, out
    rc, out, _ = run_cli(capsys, "reach", str(scene), "f", "--mode", "run")
    assert rc == 0 and "  SPD 8 (SPD 4; Flying: doubled): the run allowance is 16\"" in out, out
    for args in (("move", str(scene), "n", "--to", "20,8", "--mode", "walk"),
                 ("move", str(scene), "b", "--to", "4,16", "--mode", "walk", "--speed", "5")):
        rc, out, _ = run_cli(capsys, *args)
        assert rc == 0 and "SPD" not in out, out        # unchanged SPD, or given with --speed
