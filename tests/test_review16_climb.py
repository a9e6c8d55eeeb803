"""Review 16, Climb onto a deck: a declared end z that names another level is climbed to
where a face carries the Climb, even where the model's own level goes on under its base;
a deck's open side has no face (a Jump); the face under an overhang is looked for to the
side too, within the base's width (engine/motion.py: ``_toward_declared``, ``_face_under``).

Rules: eldfall-actions.txt, Special Movement (Climb: "Allows moving over obstacles higher
than the model's Hitbox ... May end movement on a vertical surface"). Rulings: "Climb down
an overhang".
"""
import pytest

from engine.motion import check_path
from engine.validate import steep_face_near
from tests.cli_run import run_cli
from tests.motion_scenes import R_M, box, medium, world
from tests.test_review16_motion import DECK, _kinds, _table

# a thin 3.4" wall (x 12-12.5, y 8-11) with a deck on its east side (x 12.5-16, y 10-13,
# 3-3.4): walking north along the wall's east face, the ground goes on under the deck
WALL = box("wall", 12.25, 9.5, 0, 0.5, 3, 3.4)
SHELF = box("shelf", 14.25, 11.5, 3, 3.5, 3, 0.4)
X = 12.5 + R_M + 0.01                 # the base's rim 0.01" from the wall's face


def test_a_climb_takes_the_declared_level_up_a_face_where_its_own_level_goes_on():
    # Before: the route kept to the ground (it goes on under the deck) and was refused
    # ("the route ends at z 0.00, not at the declared z 3.4")
    w = world([WALL, SHELF], [medium("m", X, 7.5, spd=14)])
    r = check_path(w, "m", [(X, 10.3, 3.4)], "climb")
    assert r.legal, r.reason
    assert r.end[2] == pytest.approx(3.4) and _kinds(r) == ["across", "climb up", "across"]
    up = [(p, q) for p, q in zip(r.path, r.path[1:]) if q[2] - p[2] > 1.0]
    assert len(up) == 1
    (p, q), = up
    # up the wall's face, below the deck's edge (its base not yet under the deck)
    assert p[1] <= 10.0 - R_M + 0.06 and p[2] == pytest.approx(0.0, abs=1e-6)
    for z in (0.5, 2.0, 3.3):
        assert steep_face_near(w, p[0], p[1], z, R_M) is not None
    assert r.distance == pytest.approx(2.8 + 3.4, abs=0.01)
    # declared on the ground, it stays on the ground under the deck
    r = check_path(w, "m", [(X, 10.3, 0)], "climb")
    assert r.legal and r.end[2] == pytest.approx(0.0, abs=1e-6)


def test_away_from_the_face_the_deck_is_not_climbed_and_the_refusal_says_why():
    w = world([WALL, SHELF], [medium("m", 15.0, 7.5, spd=14)])
    r = check_path(w, "m", [(15.0, 10.3, 3.4)], "climb")
    assert not r.legal and r.end[2] == pytest.approx(0.0, abs=1e-6)
    assert r.reason.startswith("the route ends at z 0.00, not at the declared z 3.4: ")
    assert "no face carries a Climb from z 0.00 up onto shelf at 3.40" in r.reason
    assert "Jump instead" in r.reason


def test_heights_from_under_the_bridge_the_deck_is_a_jump(capsys):
    rc, out, err = run_cli(capsys, "move", "scenes/heights.yaml", "red-scout", "--mode", "climb",
                           "--to", "24,10.5,3.4")
    assert rc == 0, err
    assert "NOT LEGAL (the route ends at z 0.00, not at the declared z 3.4: bridge-deck is over the base" in out
    assert "no face along the route carries a Climb from z 0.00 up onto bridge-deck at 3.40" in out
    assert "its open side has none" in out and "Jump instead" in out


def test_a_climb_down_a_decks_side_finds_the_pillar_to_the_side():
    # Before: the face was looked for only straight back under the deck (none within the
    # base's width there): refused, "no face carries a Climb down"; the pillar's east face
    # (x 20) is 1" to the side of the way down at x 21
    w = _table(medium("m", 21.0, 11.0, 3.4, spd=40))
    r = check_path(w, "m", [(21.0, 9.0, 0)], "climb")
    assert r.legal, r.reason
    assert _kinds(r) == ["across", "climb down", "across under the overhang", "climb down", "across"]
    foot = [p for p, q in zip(r.path, r.path[1:]) if p[:2] == q[:2] and q[2] == pytest.approx(0.0, abs=1e-6)
            and p[2] > 0.5]
    assert foot, r.path
    f = foot[-1]
    assert f[0] == pytest.approx(20.0 + R_M, abs=0.05)                  # on the pillar's east face
    for z in (0.3, 1.0):
        assert steep_face_near(w, f[0] + 0.0005, f[1], z, R_M) is not None
    # in the middle of the deck's side no face is under it: straight down (a declared
    # waypoint: never rerouted) refused as before
    w = _table(medium("m", 24.0, 11.0, 3.4, spd=40))
    r = check_path(w, "m", [(24.0, 10.5), (24.0, 9.0, 0)], "climb")
    assert not r.legal and "no face carries a Climb down" in r.reason and "Jump" in r.reason
    # given only its end, it climbs down a pillar within reach (a route by a face elsewhere)
    r = check_path(w, "m", [(24.0, 9.0, 0)], "climb")
    assert r.legal and r.via and "straight on: below the edge of deck" in r.reason, r.reason
    assert DECK
