"""Review 16, two leftovers of the Climb and Dodge reviews.

* A Climb up to a roof whose face is under an overhang went out under it only straight
  back along the route: where the roof is deeper than the base's width over the wall met
  but shallow at its side, the climb was refused ("... overhangs the face there, too
  deep"), although a Climb down there already looked to the side for the face under it.
  The way up now looks to the side the same way (straight back first, then ±45°, ±90°,
  the nearest edge within the base's width; ``engine.motion._back_else_aside``, shared
  with the way down).
* The hotseat view read the Eldfall rules' private ``_nearest_edges`` (and the
  Activation's ``panic_failed_reactors``) to shade a Panicked reactor's Dodge area. The
  rules say it themselves: ``EldfallGame.panic_dodge_edges`` (the nearest field edges a
  Panicked reactor that failed its M roll must Dodge toward; [] for any other model),
  asked by the rules' own check, their offer of moves and the view alike.

Rules: eldfall-actions.txt, Special Movement (Climb: "Allows moving over obstacles higher
than the model's Hitbox ... May end movement on a vertical surface"); eldfall-states.txt,
Panicked ("Reactive Role -- failed M roll: May only declare Dodge (toward the field edge)
or Nothing"). Rulings: "Climb down an overhang".
"""
import pytest

from engine.motion import check_path
from engine.validate import steep_face_near
from rules.eldfall.actions import DodgeMove
from tests.motion_scenes import H_M, R_M, box, medium, world
from tests.test_review15_eldfall import _panicked_at_its_dodge_move
from tests.test_review16_motion import _kinds

# a 6" tower (x 6-10, y 6-10) under a 0.3" roof (x 5.7-12, y 5.7-10.3): 2" out over the
# tower's east face (deeper than the base's width, 1.26"), 0.3" out over its south face
TOWER = box("tower", 8, 8, 0, 4, 4, 6)
ROOF = box("roof", 8.85, 8, 6, 6.3, 4.6, 0.3)


def test_a_climb_up_under_a_deep_overhang_goes_out_to_its_side():
    # Before: the base met the east face at (10.63, 6.20) and looked for the roof's edge
    # only straight back east (2" away): refused, "roof overhangs the face there, too deep";
    # its south edge is 1.13" to the side (down to y 5.7 - R)
    w = world([TOWER, ROOF], [medium("m", 14, 6.2, 0, spd=40), medium("mid", 14, 8, 0, spd=40)])
    r = check_path(w, "m", [(8, 6.2, 6.3)], "climb")
    assert r.legal, r.reason
    assert _kinds(r) == ["across", "climb up", "across under the overhang", "climb up", "across"]
    assert r.end == pytest.approx((8, 6.2, 6.3))
    up = [(p, q) for p, q in zip(r.path, r.path[1:]) if q[2] - p[2] > 1.0]
    assert len(up) == 2
    (w0, w1), (e0, e1) = up
    # up the tower's east face until the hitbox's top meets the roof's underside
    assert w0[:2] == pytest.approx((10 + R_M, 6.2), abs=1e-3) and w1[2] == pytest.approx(6 - H_M)
    for z in (0.5, 2.0, 4.0):
        assert steep_face_near(w, w0[0], w0[1], z, R_M) is not None
    # out south under the roof (to the side of the way), up past its south edge onto it
    assert e0[:2] == pytest.approx((10 + R_M, 5.7 - R_M), abs=0.005)     # (probes inside the rim)
    assert e1[2] == pytest.approx(6.3)
    # every inch counts: across, up 6.3", out under the roof and back over it, across
    # (back onto the way at its next 0.05" sample)
    under = 6.2 - (5.7 - R_M)
    assert r.distance == pytest.approx((14 - 10 - R_M) + 6.3 + 2 * under + (10 + R_M - 8), abs=0.05)
    # in the middle of the east face the roof is 2" deep every way: straight on (a declared
    # waypoint: never rerouted) refused as before
    r = check_path(w, "mid", [(11, 8), (8, 8, 6.3)], "climb")
    assert not r.legal
    assert "the base cannot pass at (10.63, 8.00): roof overhangs the face there, too deep" in r.reason
    # given only its end, the Climb finds a face elsewhere (tests/test_review17_climb_route.py)
    r = check_path(w, "mid", [(8, 8, 6.3)], "climb")
    assert r.legal and r.via, r.reason
    assert "straight on: the base cannot pass at (10.63, 8.00): roof overhangs the face there, too deep" in r.reason


def test_the_rules_name_the_edges_a_panicked_reactor_must_dodge_toward():
    # b1 Panicked at (10, 14) on a 36" table, its M roll failed, has Dodged: the left edge
    # (10" away) is the nearest; r1, the Activated model, is free to go any way
    g = _panicked_at_its_dodge_move()
    assert g.panic_dodge_edges("b1") == [("left", 0, -1.0)]
    assert g.panic_dodge_edges("r1") == []
    assert g.why_illegal(DodgeMove("b1", ((8.0, 14.0, 0.0),))) is None
    assert "toward the nearest field edge (left" in (g.why_illegal(DodgeMove("b1", ((12.0, 14.0, 0.0),))) or "")
    # the M roll passed (no failed reactor): no edge, and the Dodge goes any way
    g.act.panic_failed_reactors = frozenset()
    assert g.panic_dodge_edges("b1") == []
    assert g.why_illegal(DodgeMove("b1", ((12.0, 14.0, 0.0),))) is None


def test_a_panicked_reactor_as_near_two_edges_may_dodge_toward_either():
    # b1 at (10, 10): the left and bottom edges both 10" away (ties: the player's choice)
    g = _panicked_at_its_dodge_move(r1=(10, 20, 270), b1=(10, 10, 90), walk_to=(10.0, 17.0))
    assert sorted(g.panic_dodge_edges("b1")) == [("bottom", 1, -1.0), ("left", 0, -1.0)]
    for end in ((8.0, 10.0, 0.0), (10.0, 8.0, 0.0)):
        assert g.why_illegal(DodgeMove("b1", (end,))) is None, end
    assert g.why_illegal(DodgeMove("b1", ((10.0, 12.0, 0.0),)))
