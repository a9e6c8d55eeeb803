"""Review 9, the hotseat (fourth part): turning when Hit.

After a Hit the hit model may turn (eldfall-facts.md, "Line of sight": "a model
may also turn when it suffers a Hit"; table setting ``turn_on_hit``). The rules
ask its side (pending ``("turn-on-hit", MODEL)``), answered by ``Turn(model,
facing)`` (``facing`` None keeps it) or a Pass (keeps it too). The hotseat used to
list the raw actions ("turn blue-archer 270.0", eight compass angles) under the
attacker's name; now the hit model is the menu's model, the entries read "Turn:
face red-archer", "Turn: keep facing", a few compass facings, "Turn: face the
pointer (F)" and "Pass: keep the facing (P)" on one page, F turns it toward the
point under the pointer, and the status panel says what is asked.
"""
from __future__ import annotations

import os

import pytest

pytest.importorskip("panda3d")

from view_fixtures import (click_model, hotseat_activate, hotseat_idle_to_action, menu_key,  # noqa: E402
                           open_controller, press)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DUEL = os.path.join(ROOT, "tests", "data", "view", "duel.yaml")

#: red-archer's Longbow: the attack roll 5 hits, the damage roll 5 wounds (blue-archer lives)
HIT = [5, 20, 5, 20, 5, 20] + [20] * 10


def _game(blue_facing: float, turn_on_hit: str | None = None):
    """duel.yaml: red-archer (10, 10) shoots blue-archer (10, 22), which faces ``blue_facing``."""
    from tools.cmd_view import game_factory, load_world
    world = load_world(DUEL)
    world.move_model("blue-archer", 10.0, 22.0, 0.0, facing=blue_facing)
    game, geo = game_factory(world, "eldfall")(3)
    if turn_on_hit:
        game.settings["table_settings"] = {"turn_on_hit": turn_on_hit}
    return world, game, geo


def _shoot(app, c):
    """Order, red-archer activates, stays (Idle) and shoots blue-archer: it is Hit."""
    from rules.core.dice import Dice
    game, world = c.game, c.world
    hotseat_activate(app, c, "red-archer", "order red first")
    hotseat_idle_to_action(app, c)
    assert game.pending == ("action", "red-archer")
    game.dice = Dice.fixed(HIT)
    assert press(app, menu_key(c, "Ranged Attack")) == "target"
    events = click_model(app, world, "blue-archer")
    assert any(e.kind == "hit" for e in events), [e.kind for e in events]
    assert game.pending == ("turn-on-hit", "blue-archer")
    return events


@pytest.fixture()
def behind(view_app, tmp_path):
    """blue-archer faces away (north) and is hit from behind: asked by default."""
    world, game, geo = _game(90.0)
    c = open_controller(view_app, world, game, geo, tmp_path)
    _shoot(view_app, c)
    yield c
    c.close()


def _labels(c):
    return [label for label, _ in c.menu]


def test_the_hit_model_is_offered_readable_turns_on_one_page(behind):
    c = behind
    assert c.active_model() == "blue-archer"
    assert c.menu_actor() == "blue-archer"
    labels = _labels(c)
    assert "Turn: face red-archer" in labels, labels
    assert "Turn: keep facing" in labels, labels
    assert "Turn: face the pointer (F)" in labels, labels
    assert "Pass: keep the facing (P)" in labels, labels
    compass = [m for m in labels if m.startswith("Turn: face ") and "\u00b0 (" in m]
    assert compass == ["Turn: face 0\u00b0 (+x)", "Turn: face 180\u00b0 (-x)"], labels   # 90: its own, 270: red-archer
    assert not any(m.startswith(("turn ", "pass ")) for m in labels), labels     # no raw actions
    assert len(c.menu) <= 10 and not any(m.startswith("more ...") for m in labels), labels
    assert c.hud.menu.text.startswith("Legal for blue-archer:\n"), c.hud.menu.text
    status = c.hud.status.text
    assert ("Turning when Hit: blue-archer may turn (number keys, F faces the pointer, "
            "P keeps its facing)") in status, status
    # the hit model and its attacker wear rings
    assert "blue-archer" in c.table.highlights and "red-archer" in c.table.highlights, c.table.highlights


def test_the_menu_turns_the_hit_model_to_face_its_attacker(view_app, behind):
    c = behind
    events = press(view_app, menu_key(c, "Turn: face red-archer"))
    t = next(e for e in events if e.kind == "turn_on_hit").data
    assert t["toward"] == "red-archer" and t["to"] == pytest.approx(270.0)
    assert c.world.hitbox("blue-archer").facing == pytest.approx(270.0)
    assert c.game.pending[0] != "turn-on-hit"
    assert "turns to face red-archer" in c.message


def test_f_turns_the_hit_model_toward_the_pointer(view_app, behind):
    c = behind
    events = press(view_app, "f", pixel=view_app.project((20.0, 22.0, 0.0)))     # due east of it
    assert events, c.message
    t = next(e for e in events if e.kind == "turn_on_hit").data
    assert t["model"] == "blue-archer" and not t["auto"]
    f = c.world.hitbox("blue-archer").facing % 360.0
    assert min(f, 360.0 - f) < 2.0, f
    assert c.game.pending[0] != "turn-on-hit"


def test_the_pointer_entry_faces_a_model_under_the_pointer(view_app, behind):
    c = behind
    hb = c.world.hitbox("blue-ogre")
    key = menu_key(c, "Turn: face the pointer")
    events = press(view_app, key, pixel=view_app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
    assert events, c.message
    want = c.game.face_toward("blue-archer", "blue-ogre")
    assert c.world.hitbox("blue-archer").facing == pytest.approx(want, abs=1e-3)


def test_p_keeps_the_facing(view_app, behind):
    """P (and its menu entry, labelled as the crouch window's) keeps the facing."""
    c = behind
    assert menu_key(c, "Pass: keep the facing (P)")
    events = press(view_app, "p")
    t = next(e for e in events if e.kind == "turn_on_hit").data
    assert t["to"] == pytest.approx(90.0)
    assert c.world.hitbox("blue-archer").facing == pytest.approx(90.0)
    assert "keeps its facing" in c.message


def test_always_asks_a_model_hit_from_the_front(view_app, tmp_path):
    """turn_on_hit: always -- blue-archer already faces red-archer and is asked anyway;
    the keep entry says so (the rules list no turn to the facing it has)."""
    world, game, geo = _game(270.0, "always")
    c = open_controller(view_app, world, game, geo, tmp_path)
    try:
        _shoot(view_app, c)
        labels = _labels(c)
        assert "Turn: keep facing (faces red-archer already)" in labels, labels
        assert not any(m == "Turn: face red-archer" for m in labels), labels
        assert len(c.menu) <= 10 and "Pass: keep the facing (P)" in labels, labels
        press(view_app, menu_key(c, "Turn: keep facing"))
        assert c.world.hitbox("blue-archer").facing == pytest.approx(270.0)
        assert c.game.pending[0] != "turn-on-hit"
    finally:
        c.close()


def test_attract_banner_narrates_the_turn(view_app, tmp_path):
    """The attract bots answer the decision; the banner reads as the narration line,
    and the camera frames the hit model and its attacker. Without a narrator the
    banner says it in words too (it used to print the raw "turn blue-archer 270.00")."""
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory
    world, game, geo = _game(90.0)
    c = open_controller(view_app, world, game, geo, tmp_path)
    _shoot(view_app, c)
    c.close()
    at = AttractController(view_app, world, lambda seed: (game, geo), bots_factory("eldfall", "greedy"),
                           out_dir=str(tmp_path))
    try:
        events = at.bot_step()
        t = next(e for e in events if e.kind == "turn_on_hit").data
        assert t["model"] == "blue-archer"
        banner = at.hud.banner.text
        assert banner.splitlines()[0] == at.say(next(e for e in events if e.kind == "turn_on_hit")).strip()
        assert "blue-archer" in (at.focus or []) and "red-archer" in (at.focus or []), at.focus
        action = at.applied[-1][0]
        at._narrator = None
        plain = at.narrate(action, events).splitlines()[0]
        assert plain == "blue-archer turns to face red-archer (270\u00b0)", plain
        from rules.eldfall.actions import Pass, Turn
        assert at.narrate(Turn("blue-archer"), []).startswith("blue-archer keeps its facing")
        assert at.narrate(Pass("blue"), [type(events[0])("turn_on_hit", {"model": "blue-archer"})]) == "blue passes: keeps its facing"
    finally:
        view_app.remove_frame("attract")
        at.close()
