"""Review 9, the hotseat (sixth part): the direction of a Knockback.

The rules let the attacker choose the direction a Knockback pushes the hit model
(``Declare(knockback=DEG)``, degrees counter-clockwise from +x; legal within the
table setting ``knockback_max_angle_deg`` of the line directly away from the
attacker; tests/test_review9_knockback.py). ``legal_actions()`` names no
direction (it is a continuous choice), so the hotseat could not choose one: in
an Attack's target step (its weapon or spell has Knockback) K now shows an arrow
from the target toward the pointer, green when the rules take that bearing, red
with their reason when not, and where the push would leave the target ("falls
N\\"" off a ledge); a click or Enter sets it ("Knockback toward 45°"), K again or
Esc clears it (directly away), and the declaration carries it.
"""
from __future__ import annotations

import math

import pytest

pytest.importorskip("panda3d")

from view_fixtures import (click_model, hotseat_activate, hotseat_idle_to_action, menu_key,  # noqa: E402
                           open_scene, press)

#: red-brute's Great Maul (STK 2, Knockback 1): every roll hits, no wound saved
HITS = [5, 20] * 6 + [20] * 12

FLAT = """\
name: Knockback direction
games: [eldfall]
table: [36, 36]
models:
  - {id: red-brute,  side: red,  profile: sample-red#brute,  at: [10, 10],   facing: 90}
  - {id: blue-guard, side: blue, profile: sample-blue#guard, at: [10, 11.9], facing: 270}
  - {id: blue-ogre,  side: blue, profile: sample-blue#ogre,  at: [30, 30],   facing: 270}
"""

#: blue-guard on the east edge of a 3" platform (x 7..13): a push east carries it off
LEDGE = """\
name: Knockback off a ledge
games: [eldfall]
table: [36, 36]
terrain:
  - {id: platform, shape: box, at: [10, 12, 0], size: [6, 6, 3]}
models:
  - {id: red-brute,  side: red,  profile: sample-red#brute,  at: [12.3, 10.3], facing: 90}
  - {id: blue-guard, side: blue, profile: sample-blue#guard, at: [12.7, 12.0], facing: 270}
  - {id: blue-ogre,  side: blue, profile: sample-blue#ogre,  at: [30, 30],     facing: 270}
"""

#: two targets in reach: blue-guard north of red-brute, blue-scout east of it
TWO = FLAT.replace("  - {id: blue-ogre", "  - {id: blue-scout, side: blue, profile: sample-blue#guard, "
                   "at: [11.9, 10], facing: 180}\n  - {id: blue-ogre")


def _controller(view_app, tmp_path, text):
    return open_scene(view_app, tmp_path, text)


def _to_the_brutes_action(app, c):
    """Red plays first; red-brute activates, stays (Idle): its Action Step."""
    game = c.game
    hotseat_activate(app, c, "red-brute", "order blue second")
    hotseat_idle_to_action(app, c)
    assert game.pending == ("action", "red-brute")


def _split_the_maul(app, c):
    """red-brute's Action Step: its Great Maul's Strikes split between targets clicked."""
    _to_the_brutes_action(app, c)
    press(app, menu_key(c, "Melee Attack (Great Maul) -> split"))


def _toward(app, c, mid, deg, r=3.0, z=None):
    """The pixel of the point ``r``" from ``mid`` toward ``deg`` (CCW from +x), at
    the model's level (or ``z``: the surface there)."""
    hb = c.world.hitbox(mid)
    a = math.radians(deg)
    return app.project((hb.x + r * math.cos(a), hb.y + r * math.sin(a), hb.z if z is None else z))


def _declared(c):
    return [a for a, _ in c.applied if type(a).__name__ == "Declare"][-1]


def _resolve(app, c):
    """Pass the reactions; the events of the game since the declaration."""
    while c.game.pending[0] in ("reaction", "crouch"):
        press(app, "p")
    return c.game.events


@pytest.fixture()
def flat(view_app, tmp_path):
    c = _controller(view_app, tmp_path, FLAT)
    _to_the_brutes_action(view_app, c)
    yield c
    c.close()


def test_k_aims_the_push_and_the_attack_carries_the_direction(view_app, flat):
    from rules.core.dice import Dice
    c = flat
    assert press(view_app, menu_key(flat, "Melee Attack (Great Maul) -> click target")) == "target"
    assert "K chooses the Knockback direction" in c.message
    assert press(view_app, "k", pixel=_toward(view_app, c, "blue-guard", 45)) == "push"
    assert c.push_mode and c.push_target == "blue-guard"          # the only target: it is aimed
    assert c.push_aim == (45.0, None)                              # green: the rules take it
    assert "Knockback toward 45\u00b0 for blue-guard" in c.message and "(if hit, it ends at (10.7, 12.6))" in c.message
    assert [n.getName() for n in c.play_live.getChildren()].count("push-overlay") == 1
    assert press(view_app, "mouse1", pixel=_toward(view_app, c, "blue-guard", 45)) == ("knockback", 45.0)
    assert c.knockback == 45.0 and not c.push_mode and c.state == "target"
    assert "Knockback toward 45\u00b0" in c.message and "click blue-guard (or Enter) to declare" in c.message
    assert "Knockback toward 45\u00b0" in c.hud.status.text
    c.game.dice = Dice.fixed(HITS)
    click_model(view_app, c.world, "blue-guard")
    a = _declared(c)
    assert a.knockback == 45.0 and a.weapon == "Great Maul" and a.targets == (("blue-guard", 2),)
    assert str(a).endswith("knockback=45.0")
    why = [e.data["why"] for e in _resolve(view_app, c) if e.kind == "place"]
    assert why and why[-1] == "Knockback 1 from red-brute, toward 45\u00b0"
    hb = c.world.hitbox("blue-guard")
    assert (hb.x, hb.y) == pytest.approx((10 + math.sqrt(0.5), 11.9 + math.sqrt(0.5)), abs=1e-6)
    assert c.state == "idle" and c.knockback is None and not c.push_mode


def test_a_direction_toward_the_attacker_is_refused_with_the_rules_reason(view_app, flat):
    c = flat
    press(view_app, menu_key(c, "Melee Attack (Great Maul) -> click target"))
    press(view_app, "k", pixel=_toward(view_app, c, "blue-guard", 270))
    deg, why = c.push_aim
    assert deg == 270.0 and "away from red-brute" in why and "knockback_max_angle_deg" in why
    assert "Knockback toward 270\u00b0 is not allowed" in c.message and "away from red-brute" in c.message
    # a click there sets nothing: the arrow stays, red
    assert press(view_app, "mouse1", pixel=_toward(view_app, c, "blue-guard", 270)) is None
    assert c.knockback is None and c.push_mode
    # the pointer moves (the arrow follows it); Enter sets the direction under it
    view_app.dispatch("mouse_move", pixel=_toward(view_app, c, "blue-guard", 120))
    view_app.step()
    assert c.push_aim == (120.0, None) and "Knockback toward 120\u00b0 for blue-guard" in c.message
    assert press(view_app, "enter") == ("knockback", 120.0)
    # Esc clears it (directly away), the target step goes on; K sets another, K again clears it
    assert press(view_app, "escape") == "directly away"
    assert c.knockback is None and c.state == "target" and "directly away" in c.message
    assert not any(n.getName() == "push-overlay" for n in c.play_live.getChildren())
    press(view_app, "k", pixel=_toward(view_app, c, "blue-guard", 60))
    press(view_app, "mouse1", pixel=_toward(view_app, c, "blue-guard", 60))
    assert c.knockback == 60.0
    assert press(view_app, "k") == "directly away" and c.knockback is None and c.state == "target"
    # declared directly away: no direction named
    click_model(view_app, c.world, "blue-guard")
    assert _declared(c).knockback is None


def test_the_preview_says_the_push_off_a_ledge_falls(view_app, tmp_path):
    from rules.core.dice import Dice
    c = _controller(view_app, tmp_path, LEDGE)
    try:
        _to_the_brutes_action(view_app, c)
        assert c.world.hitbox("blue-guard").z == pytest.approx(3.0)
        press(view_app, menu_key(c, "Melee Attack (Great Maul) -> click target"))
        press(view_app, "k", pixel=_toward(view_app, c, "blue-guard", 0, z=0.0))   # off the platform
        assert c.push_aim == (0.0, None)
        assert 'falls 3"' in c.message and "ends at (13.7, 12.0)" in c.message
        # north it stays on the platform: no fall said
        view_app.dispatch("mouse_move", pixel=_toward(view_app, c, "blue-guard", 90, r=2.0))
        view_app.step()
        assert c.push_aim == (90.0, None) and "falls" not in c.message
        press(view_app, "mouse1", pixel=_toward(view_app, c, "blue-guard", 0, z=0.0))
        assert c.knockback == 0.0
        c.game.dice = Dice.fixed(HITS)
        press(view_app, "enter")                              # Enter declares on the aimed target
        assert _declared(c).knockback == 0.0
        events = _resolve(view_app, c)
        assert any(e.kind == "fall" and "toward 0\u00b0" in e.data["why"] for e in events)
        assert c.world.hitbox("blue-guard").z == pytest.approx(0.0)
    finally:
        c.close()


def test_split_strikes_carry_the_direction_and_each_target_is_judged(view_app, tmp_path):
    c = _controller(view_app, tmp_path, TWO)
    try:
        _split_the_maul(view_app, c)
        assert "K chooses the Knockback direction" in c.message
        # no Strike yet, two targets, the pointer on neither: K asks which one
        press(view_app, "k", pixel=_toward(view_app, c, "red-brute", 225))
        assert c.push_mode and c.push_target is None and "click the target to push" in c.message
        assert click_model(view_app, c.world, "blue-scout") == ("push-target", "blue-scout")
        assert c.split == []                                  # aiming is not a Strike
        press(view_app, "mouse1", pixel=_toward(view_app, c, "blue-scout", 45))
        assert c.knockback == 45.0 and "Knockback toward 45\u00b0" in c.message
        click_model(view_app, c.world, "blue-scout")
        assert c.split == ["blue-scout"] and "Knockback toward 45\u00b0" in c.message
        # 45 degrees is away from red-brute for both (east of one, north of the other)
        click_model(view_app, c.world, "blue-guard")
        a = _declared(c)
        assert a.knockback == 45.0 and sorted(a.targets) == [("blue-guard", 1), ("blue-scout", 1)]
    finally:
        c.close()


def test_a_direction_bad_for_a_split_target_refuses_that_strike(view_app, tmp_path):
    c = _controller(view_app, tmp_path, TWO)
    try:
        _split_the_maul(view_app, c)
        click_model(view_app, c.world, "blue-scout")
        press(view_app, "k", pixel=_toward(view_app, c, "blue-scout", 300))      # the last Strike's target
        assert c.push_target == "blue-scout" and c.push_aim == (300.0, None)
        press(view_app, "mouse1", pixel=_toward(view_app, c, "blue-scout", 300))
        assert c.knockback == 300.0
        # 300 degrees is toward red-brute for blue-guard (north of it): that Strike is refused
        assert click_model(view_app, c.world, "blue-guard") is None
        assert c.split == ["blue-scout"] and "blue-guard" in c.message and "away from red-brute" in c.message
        assert not c.applied or type(c.applied[-1][0]).__name__ != "Declare"
    finally:
        c.close()


def test_k_without_knockback_says_so_and_the_keys_list_it(view_app, flat):
    c = flat
    press(view_app, menu_key(c, "Issue a Duel"))
    assert c.state == "target" and "K chooses" not in c.message
    assert press(view_app, "k") is None
    assert not c.push_mode and "has no Knockback" in c.message
    press(view_app, "escape")
    assert c.state == "idle"
    press(view_app, "k")
    assert "target step" in c.message and not c.push_mode
    press(view_app, "f1")
    assert "K: Knockback direction" in c.hud.status.text
