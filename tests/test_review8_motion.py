"""Review 8, movement: hand-measured scenes (tests/data/review8_motion/) checked
against `eldfall move` / `eldfall reach`, and the defects found there.

Medium base: 32 mm -> radius R = 0.6299", hitbox 1.7717" tall; Large 40 mm
-> R 0.7874"; Small 25 mm -> R 0.4921".
"""
import json

import numpy as np
import pytest

from engine.motion import check_path, reachable
from tests.motion_scenes import R_M, box, medium, world
from tools.loading import load_world
from cli_run import run_cli  # noqa: E402

D = "tests/data/review8_motion/"
R_L = 40 / 25.4 / 2


def _move(capsys, *argv):
    rc, out, err = run_cli(capsys, "move", *argv, "--json")
    assert rc == 0, err
    return json.loads(out)


# --------------------------------------------------------------------------- hand-measured answers
def test_gaps_between_walls_against_the_base_width(capsys):
    # 1.3" gap, Medium base 1.2598": through, 5" straight
    d = _move(capsys, D + "gaps.yaml", "med-wide", "--to", "7,5.55", "--mode", "walk")
    assert d["legal"] and d["distance"] == pytest.approx(5.0, abs=1e-6)
    # 1.2" gap: the base meets both 3" walls where its chord at 0.6" off-centre
    # reaches x 4: x = 4 - sqrt(R^2 - 0.6^2) = 3.808 (last 0.05" sample 3.80)
    d = _move(capsys, D + "gaps.yaml", "med-narrow", "--to", "7,15.5", "--mode", "walk")
    assert not d["legal"] and "taller than the hitbox" in d["reason"]
    x_contact = 4 - np.sqrt(R_M ** 2 - 0.6 ** 2)
    assert x_contact - 0.05 <= d["end"][0] <= x_contact
    # a Small base (0.984") passes the 1.2" gap: 2.828" + 4" = 6.83" > 6
    d = _move(capsys, D + "gaps.yaml", "small", "--via", "3,15.5", "--to", "7,15.5", "--mode", "walk")
    assert not d["legal"] and "6.83" in d["reason"]
    d = _move(capsys, D + "gaps.yaml", "small", "--via", "3,15.5", "--to", "7,15.5", "--mode", "run")
    assert d["legal"] and d["distance"] == pytest.approx(2 * np.sqrt(2) + 4, abs=1e-4)


def test_ledge_climb_jump_and_fall(capsys):
    # SPD 10, Climb 5": 1.37" to the wall + 2.5" up + 1.13" onto the top = 5.0"
    d = _move(capsys, D + "ledge.yaml", "quick", "--to", "6.5,8", "--mode", "climb")
    assert d["legal"] and d["distance"] == pytest.approx(5.0, abs=1e-4) and d["end"][2] == pytest.approx(2.5)
    d = _move(capsys, D + "ledge.yaml", "quick", "--to", "6.7,8", "--mode", "climb")
    assert not d["legal"] and "5.20" in d["reason"]
    # Jump at the ledge along the diagonal: the base meets the face at x 5.37, z 1.37
    # (1.37 * sqrt 2 = 1.94" flown); the hitbox's top (3.14") reaches 2.5": pulls up,
    # placed where the whole base is on the top (x 6 + R)
    d = _move(capsys, D + "ledge.yaml", "low", "--to", "6.5,5,2.5", "--mode", "jump")
    assert d["legal"] and "pulled up" in d["reason"]
    assert d["distance"] == pytest.approx((6 - R_M - 4) * np.sqrt(2), abs=0.01)
    assert d["end"] == pytest.approx([6 + R_M, 5, 2.5], abs=0.02)
    # off a 5" tower, SPD 6 (one roll per 3", only above 3"): 1 roll; SPD 5 lands short on the roof
    d = _move(capsys, D + "ledge.yaml", "roof", "--to", "17,2", "--mode", "jump")
    assert d["falls"][0]["height"] == pytest.approx(5.0) and d["falls"][0]["rolls"] == 1
    d = _move(capsys, D + "ledge.yaml", "roof5", "--to", "19.3,3", "--mode", "jump")
    assert d["legal"] and d["end"] == pytest.approx([20.5, 3, 5]) and d["falls"] == []


def test_stairs_mud_enemy_and_table_edge(capsys):
    # 0.5" risers are free: 8" of plan
    d = _move(capsys, D + "yard.yaml", "stairs", "--to", "10,2", "--mode", "run")
    assert d["legal"] and d["distance"] == pytest.approx(8.0, abs=1e-6) and d["end"][2] == pytest.approx(2.0)
    # difficult x 14-18, touched while the centre is in 13.37-18.63: 1.37 + 2 x 5.26 + 1.37
    d = _move(capsys, D + "yard.yaml", "wader", "--to", "20,7", "--mode", "run")
    assert not d["legal"] and d["distance"] == pytest.approx(12.0)
    assert float(d["reason"].split("costs ")[1].split('"')[0]) == pytest.approx(8 + (4 + 2 * R_M), abs=0.03)
    # into a Large enemy with RCH 1: contact at 26 - R_L - R_M, reach entered 1" earlier
    d = _move(capsys, D + "yard.yaml", "charger", "--to", "28,5", "--mode", "walk")
    assert d["legal"] and d["stopped_by"] == "enemy"
    assert d["end"][0] == pytest.approx(26 - R_L - R_M, abs=1e-3)
    assert d["opportunity_points"][0]["at"][0] == pytest.approx(25 - R_L - R_M, abs=1e-3)
    # a Large base at the east edge (30): its centre may go to 30 - R_L = 29.21
    assert _move(capsys, D + "yard.yaml", "edge", "--to", "29.1,1.5", "--mode", "walk")["legal"]
    assert not _move(capsys, D + "yard.yaml", "edge", "--to", "29.3,1.5", "--mode", "walk")["legal"]


def test_reach_offers_only_what_move_accepts_on_the_hand_scenes():
    for scene, model in (("gaps", "small"), ("ledge", "top"), ("yard", "stairs"), ("yard", "wader")):
        w = load_world(D + scene + ".yaml", None)
        g = reachable(w, model, "walk")
        pts = g.points()
        rng = np.random.default_rng(8)
        for p in pts[rng.choice(len(pts), 8, replace=False)]:
            route = g.shortest_path(tuple(p))
            r = check_path(w, model, route[1:], "walk")
            assert r.legal, (scene, model, p, r.reason)
            assert r.distance == pytest.approx(g.cost_at(*p), abs=0.05)


# --------------------------------------------------------------------------- defects fixed
def test_an_engaged_models_reach_holds_only_ends_its_walk_accepts():
    # engaged by a RCH 2 enemy at an angle: every offered end (and the route the grid
    # gives to it) is a legal Walk; the cells' centres are off the line, so the ends
    # are the points of the line, not the centres (before: 11 of 14 cells refused)
    w = world([], [medium("m", 10, 10, states=("Engaged",)), medium("e", 13.6, 11.3, side="blue", rch=2)])
    g = reachable(w, "m", "walk")
    pts = g.points()
    assert len(pts) >= 5
    for p in pts:
        r = check_path(w, "m", [tuple(p)], "walk")
        assert r.legal, (p, r.reason)
        assert r.distance == pytest.approx(g.cost_at(*p), abs=1e-9)
        assert check_path(w, "m", g.shortest_path(tuple(p))[1:], "walk").legal
    # along a cell boundary (the line y 10): still offered, on the line
    w = world([], [medium("m", 10, 10, states=("Engaged",)), medium("e", 14, 10, side="blue", rch=3)])
    pts = reachable(w, "m", "walk").points()
    assert len(pts) >= 8 and np.all(np.abs(pts[:, 1] - 10) <= 1e-9)
    assert pts[:, 0].max() <= 14 - 2 * R_M + 1e-6


def test_a_jump_stopped_by_a_wall_says_so(capsys):
    d = _move(capsys, D + "gaps.yaml", "med-narrow", "--to", "7,15.5", "--mode", "jump")
    assert d["legal"] and d["distance"] < 3.0
    assert "fell short" not in d["reason"] and ("w3" in d["reason"] or "w4" in d["reason"])
    # a hurdle: the arc's base meets the 2" wall (1.94" up) 2.25" into the flight, then falls
    d = _move(capsys, D + "hurdle.yaml", "j", "--to", "7,5", "--mode", "jump", "--arc", "2.4")
    assert d["reason"].startswith("hits wall") and d["falls"][0]["rolls"] == 0
    # a jump that runs out of its half SPD over the next platform is not "hitting" anything
    d = _move(capsys, D + "jumps.yaml", "a", "--to", "9.5,5", "--mode", "jump")
    assert d["reason"] == "fell short: lands at the end of its half SPD" and d["end"] == pytest.approx([8, 5, 2])


def test_a_drop_is_called_a_drop(capsys):
    d = _move(capsys, D + "ledge.yaml", "top", "--to", "4,5", "--mode", "walk")
    assert not d["legal"] and d["reason"].startswith("a drop of 2.50\"")
    d = _move(capsys, D + "ledge.yaml", "low", "--to", "7,5", "--mode", "walk")
    assert d["reason"].startswith("scenery 2.50\" high")


def _hanging_world():
    w = world([box("tower", 22, 2, 0, 4, 4, 5)], [medium("h", 20 - R_M, 2, spd=6)])
    w.move_model("h", 20 - R_M, 2, 3.0)               # a Climb left it 3" up the face
    return w


def test_a_hanging_model_climbs_down_where_it_hangs():
    w = _hanging_world()
    # 3" down (the whole Climb allowance) where it hangs: it stands at the foot, not
    # 0.05" up the face after a step away from it
    r = check_path(w, "h", [(18, 2)], "climb")
    assert not r.legal and "4.37" in r.reason
    assert r.end == pytest.approx((20 - R_M, 2, 0), abs=1e-6) and not r.ends_on_vertical
    r = check_path(w, "h", [(20 - R_M, 2, 0)], "climb")
    assert r.legal and r.distance == pytest.approx(3.0, abs=1e-6)
    # up: the last 2" of the face, then across
    r = check_path(w, "h", [(20.3, 2)], "climb")
    assert r.legal and r.distance == pytest.approx(2 + 20.3 - (20 - R_M), abs=1e-6)


def test_a_hanging_model_cannot_walk_and_is_told_why():
    w = _hanging_world()
    for mode in ("walk", "run"):
        r = check_path(w, "h", [(18, 2)], mode)
        assert not r.legal and "hangs on a vertical surface" in r.reason
        assert r.end == pytest.approx((20 - R_M, 2, 3.0), abs=1e-6)
    g = reachable(w, "h", "run")
    assert len(g.points()) == 0 and "hangs on a vertical surface" in g.reason


def test_reach_path_to_off_the_table_is_bad_input(capsys):
    rc, out, err = run_cli(capsys, "reach", D + "ledge.yaml", "low", "--mode", "walk", "--path-to", "40,3")
    assert rc == 2 and out == ""
    assert err.strip().splitlines() == ['<command line>: --path-to: point (40, 3) is off the 30" x 12" table']
