"""Review 15, movement (`eldfall move`, `eldfall reach`, engine/motion.py): what a player
arguing "how far can my model go?" reads, checked against the path check."""
import pytest

from engine.motion import check_path, reachable
from tests.motion_scenes import R_M, medium, world


# --------------------------------------------------------------------------- a refusal's figures
def test_a_route_just_over_the_allowance_prints_a_cost_above_it():
    # SPD 5, a 5.003" walk: refused, and the reason read "the route costs 5.00" and the
    # allowance is 5"" (a player reads that as within the allowance). It now prints the
    # decimals that put the cost above the allowance.
    w = world([], [medium("m", 2, 12, spd=5)], table=(24, 24))
    r = check_path(w, "m", [(7.003, 12)], "walk")
    assert not r.legal
    assert r.reason == 'the route costs 5.003" and the allowance is 5"', r.reason
    # a plain excess keeps two decimals
    r = check_path(w, "m", [(9, 12)], "walk")
    assert r.reason == 'the route costs 7.00" and the allowance is 5"', r.reason


# --------------------------------------------------------------------------- Engaged: the walk's end in contact
def _engaged(y_m=14.0):
    """m Engaged by e (RCH 1) 2" north of it, on a 0.25" grid whose cells the line x 12 edges."""
    return world([], [medium("m", 12, y_m, states=("Engaged",)), medium("e", 12, 16, side="blue", rch=1)],
                 table=(24, 24))


def test_an_engaged_models_reach_offers_the_base_contact_its_walk_ends_in():
    # eldfall-states.txt, Engaged: it may only Walk "directly toward" the enemy, i.e. into
    # base contact with it. `move` ends that walk in contact at y 14.74; `reach` offered the
    # cell holding that point only at the line's point nearest the cell's centre (y 14.625),
    # 0.12" short of contact, and priced it 0.625" (the real walk costs 0.74"); with a larger
    # enemy base (the ogre) whose contact falls before that point, not at all.
    w = _engaged()
    r = check_path(w, "m", [(12, 16)], "walk")
    assert r.legal and r.stopped_by == "e"
    contact = r.end
    assert contact[1] == pytest.approx(16 - 2 * R_M, abs=1e-3)
    g = reachable(w, "m", "walk")
    pts = [tuple(p) for p in g.points()]
    # the end offered is where the bases just touch (move's own contact point is found to
    # 0.0001", within the 0.001" contact tolerance)
    far = max(pts, key=lambda p: p[1])
    assert far == pytest.approx(contact, abs=2e-4), pts
    assert far[1] <= 16 - 2 * R_M + 1e-6
    assert g.cost_at(*contact) == pytest.approx(r.distance, abs=2e-4)
    assert g.shortest_path(contact)[-1] == pytest.approx(far, abs=1e-9)
    q = check_path(w, "m", [far], "walk")
    assert q.legal and q.end == pytest.approx(far, abs=1e-9)
    assert abs(q.end[1] - (16 - 2 * R_M)) <= 1e-3          # in base contact with e
    # every offered end is a Walk `move` accepts, at the grid's price
    for p in pts:
        q = check_path(w, "m", [p], "walk")
        assert q.legal, (p, q.reason)
        assert q.distance == pytest.approx(g.cost_at(*p), abs=1e-9), p


def test_an_engaged_model_already_in_contact_may_stay_where_it_is():
    # In base contact with its engager, the Walk toward it goes nowhere: `move` accepts a
    # Walk of 0" (it ends where it stands); `reach` said "0 end cells" as if it could not
    # even stay. It offers the model's own place now (cost 0), and nothing farther.
    w = _engaged(16 - 2 * R_M)
    start = (12, 16 - 2 * R_M, 0.0)
    r = check_path(w, "m", [(12, 16)], "walk")
    assert r.legal and r.distance == pytest.approx(0.0, abs=1e-3)
    g = reachable(w, "m", "walk")
    pts = g.points()
    assert len(pts) >= 1
    for p in pts:
        assert tuple(p) == pytest.approx(start, abs=2e-3)
    assert g.cost_at(*start) == pytest.approx(0.0, abs=1e-3)


# --------------------------------------------------------------------------- bad input
@pytest.mark.parametrize("argv, flag", [
    (["move", "scenes/heights.yaml", "red-mage", "--to", "-1,12", "--mode", "walk"], "--to"),
    (["move", "scenes/heights.yaml", "red-mage", "--to", "3,12", "--via", "-0.5,3", "--mode", "walk"], "--via"),
    (["reach", "scenes/heights.yaml", "red-mage", "--mode", "walk", "--path-to", "-1,12"], "--path-to"),
])
def test_a_point_with_a_negative_coordinate_is_refused_as_off_the_table(capsys, argv, flag):
    # argparse took "-1,12" for an option: "eldfall move: argument --to: expected one
    # argument", though one was given. It is the flag's value, and off the table.
    from tests.cli_run import run_cli
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"<command line>: {flag}: point (-"), err
    assert "is off the 36\" x 36\" table" in lines[0]
