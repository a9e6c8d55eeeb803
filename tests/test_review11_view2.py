"""Review 11, the hotseat window's framing and words.

* The HUD panels covered the models a player must act with: in the window's
  default view of skirmish.yaml the menu panel covered red-archer in its Action
  step, and choosing its target the status and profile panels covered
  blue-arcanist, blue-guard, blue-skirmisher and blue-warden; in
  norova-arena.yaml the dice and log panels covered the harpy and the status
  panel the hexer when the ranger chose whom to Focus on. When a step begins
  (another model active or acting, another decision, a path or target step) and
  a panel or the frame's edge hides one of its models, the camera pans (heading,
  pitch and distance kept), else pulls back as little as it takes. A camera the
  player moved between steps stays where the player put it.
* Ctrl+Z said the log's raw text ("undone: declare red-archer 'Ranged Attack'
  weapon=Longbow targets=blue-skirmisher:2") and the path being clicked showed
  "move red-scout run 27.00,15.50,0.00 crouch-start=off": both are in words now,
  as the menu says them.
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import (hotseat_activate, hotseat_idle_to_action, menu_key, open_scene,  # noqa: E402
                           press)


def _hidden(c) -> list[str]:
    """The models of the step (``step_models``) that a shown panel covers or the
    frame's edge cuts, as the camera stands now (the attract mode's ``model_box``:
    a model's hitbox on screen, also where the edge cuts it)."""
    from engine.view.play import AttractController
    w, h = c.app.size
    rects = c.hud.rects()
    out = []
    for m in c.step_models():
        r = AttractController.model_box(c, m)
        if r is None or r[0] < 0 or r[2] > w or r[1] < 0 or r[3] > h or any(
                min(r[2], q[2]) > max(r[0], q[0]) and min(r[3], q[3]) > max(r[1], q[1]) for q in rects):
            out.append(m)
    return out


def _to_target_step(view_app, c):
    """skirmish, seed 1: red-archer activated, Idle, its Ranged Attack's target step."""
    hotseat_activate(view_app, c, "red-archer", "order blue second")
    hotseat_idle_to_action(view_app, c)
    assert press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target")) == "target"


def _skirmish_default_view(view_app, tmp_path, keep: bool):
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=1)
    c.KEEP_IN_VIEW = keep
    c.camera.reset()                   # the window's view when it opens
    view_app.step()
    return c


# ------------------------------------------------------------ 1. the step's models off the panels
def test_the_target_step_shows_the_archer_and_its_targets_off_the_panels(view_app, tmp_path):
    c = _skirmish_default_view(view_app, tmp_path, keep=False)
    try:
        _to_target_step(view_app, c)
        before = _hidden(c)
        assert before, "the case this test is about: panels over the step's models as the camera stood"
    finally:
        c.close()
    c = _skirmish_default_view(view_app, tmp_path, keep=True)
    try:
        hotseat_activate(view_app, c, "red-archer", "order blue second")
        assert _hidden(c) == []
        hotseat_idle_to_action(view_app, c)
        assert _hidden(c) == []
        assert press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target")) == "target"
        assert set(c.step_models()) >= {"red-archer", "blue-skirmisher", "blue-arcanist", "blue-warden"}
        assert _hidden(c) == [], _hidden(c)
        assert c.camera.mode == "orbit"
        assert c.camera.pitch == pytest.approx(50.0)            # the player's angle kept: a pan or a pull back
    finally:
        c.close()


def test_norova_focus_target_step_shows_the_harpy_and_the_hexer(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova", seed=1)
    try:
        c.camera.reset()
        heading = c.camera.heading
        c.KEEP_IN_VIEW = False
        press(view_app, menu_key(c, "focus -> click a target"))
        assert {"harpy", "hexer"} <= set(_hidden(c))         # under the dice / log and the status
        press(view_app, "escape")
        c.KEEP_IN_VIEW = True
        press(view_app, menu_key(c, "focus -> click a target"))
        assert set(c.step_models()) == {"ranger", "crossbowman", "harpy", "hexer"}
        assert _hidden(c) == []
        assert c.camera.heading == pytest.approx(heading)
    finally:
        c.close()


def test_the_reaction_step_shows_the_models_that_may_react(view_app, tmp_path):
    """red-archer stays (Idle): blue's models that may react are ringed for the
    reactive player to click; the status panel covered some of them."""
    for keep in (False, True):
        c = _skirmish_default_view(view_app, tmp_path, keep=keep)
        try:
            hotseat_activate(view_app, c, "red-archer", "order blue second")
            press(view_app, menu_key(c, "Move: Idle"))
            assert c.game.pending[0] == "reaction"
            ringed = set(c.step_models()) - {"red-archer"}
            assert len(ringed) >= 3 and all(m.startswith("blue-") for m in ringed), ringed
            if not keep:
                assert _hidden(c), "the case this test is about: a panel over a model that may react"
            else:
                assert _hidden(c) == []
        finally:
            c.close()


def test_a_camera_the_player_moved_stays_until_the_next_step(view_app, tmp_path):
    """Within a step the camera is the player's: a pan that puts red-archer under
    the menu is kept through the step's refreshes (F1, a selection); a step with
    nothing hidden does not move the camera."""
    c = _skirmish_default_view(view_app, tmp_path, keep=True)
    try:
        hotseat_activate(view_app, c, "red-archer", "order blue second")
        hotseat_idle_to_action(view_app, c)
        cam = c.camera
        for _ in range(40):                    # the player pans until the menu covers the archer
            if _hidden(c):
                break
            cam.pan(1.0, 0.0)
        assert _hidden(c) == ["red-archer"]
        where = (cam.target.copy(), cam.distance)
        press(view_app, "f1")
        press(view_app, "f1")
        c.select("red-archer")
        view_app.step()
        assert (cam.target == where[0]).all() and cam.distance == where[1]
        # the next step (its target step) frames it again
        press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target"))
        assert _hidden(c) == []
        # a step begins with nothing hidden: the camera stays
        press(view_app, "escape")
        where = (cam.target.copy(), cam.distance, cam.heading)
        assert _hidden(c) == []
        press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target"))
        assert _hidden(c) == []
        assert (cam.target == where[0]).all() and cam.distance == where[1] and cam.heading == where[2]
    finally:
        c.close()


def test_the_eye_view_is_left_alone(view_app, tmp_path):
    c = _skirmish_default_view(view_app, tmp_path, keep=True)
    try:
        hotseat_activate(view_app, c, "red-archer", "order blue second")
        hotseat_idle_to_action(view_app, c)
        c.select("red-archer")
        press(view_app, "v")
        assert c.camera.mode == "eye"
        pos = tuple(c.app.camera.getPos(c.app.render))
        press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target"))
        assert c.camera.mode == "eye" and tuple(c.app.camera.getPos(c.app.render)) == pos
    finally:
        c.close()


# ------------------------------------------------------------ 2. Ctrl+Z and the path in words
def test_undo_says_what_it_undid_in_words(view_app, tmp_path):
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=1)
    try:
        _to_target_step(view_app, c)
        press(view_app, "mouse1", pixel=view_app.project(
            (c.world.hitbox("blue-skirmisher").x, c.world.hitbox("blue-skirmisher").y,
             c.world.hitbox("blue-skirmisher").height * 0.6)))
        while c.game.pending and c.game.pending[0] in ("reaction", "crouch", "turn-on-hit"):
            press(view_app, "p")
        said = []
        while True:
            undone = press(view_app, "control-z")
            if undone is None:
                break
            said.append((undone, c.message))
            assert c.message in c.hud.status.text
        raw = dict(said)
        # the return value stays the log's text; the status panel says it in words
        assert raw["declare red-archer 'Ranged Attack' weapon=Longbow targets=blue-skirmisher:2"] == \
            "undone: red-archer: Ranged Attack with Longbow at blue-skirmisher (2 Strikes)"
        assert raw["move red-archer idle"] == "undone: red-archer: Idle (no move)"
        assert raw["activate red-archer"] == "undone: activate red-archer"
        assert raw["order blue second"] == "undone: blue plays second (red's turn first)"
        assert not any(w in msg for _, msg in said for w in ("=", "declare ", "move ", "order ")), said
    finally:
        c.close()


def test_the_path_preview_is_in_words(view_app, tmp_path):
    """red-scout is Crouched: "Stand up and Run", where to, and how many waypoints."""
    c = open_scene(view_app, tmp_path, "scenes/skirmish.yaml", seed=1)
    try:
        hotseat_activate(view_app, c, "red-scout", "order blue second")
        press(view_app, menu_key(c, "Move: Stand up and Run"))
        press(view_app, "mouse1", pixel=view_app.project((27.0, 12.0, 0.0)))
        press(view_app, "mouse1", pixel=view_app.project((27.0, 15.5, 0.0)))
        first = c.message.splitlines()[0]
        x, y = (float(v) for v in first.split(" to (")[1].split(")")[0].split(", "))
        assert first.startswith("red-scout: Stand up and Run to (") and first.endswith(" by 1 waypoint"), first
        assert (x, y) == pytest.approx((27.0, 15.5), abs=0.15)      # where the click fell on the table
        assert "crouch-start" not in c.message and "move red-scout" not in c.message
        assert c.message.splitlines()[1] == "legal: Enter to confirm"
    finally:
        c.close()
