"""Review 9, the attract mode as an organiser's big screen shows it: the status
panel stays small (the banner narrates the step, the status does not repeat
it), a missed attack says so, and the end of a game gets a frame of its own
with the result before the next game starts (with a banner that says so)."""
from __future__ import annotations

import os

import pytest

pytest.importorskip("panda3d")

SKIRMISH = os.path.join(os.path.dirname(__file__), "..", "scenes", "skirmish.yaml")


def _attract(view_app, tmp_path, seed=1):
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(SKIRMISH)
    ctl = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "greedy"),
                            seed=seed, out_dir=str(tmp_path))
    return ctl, world


def test_attract_status_does_not_repeat_the_banner(view_app, tmp_path):
    """skirmish, seed 1: the step where red-archer and red-scout shoot blue-ogre.
    The status panel used to repeat the banner's narration (eight lines at the
    top left, over the table, and the camera pulled far back so that the models
    were small): it keeps the game's state in a few unwrapped lines."""
    from view_fixtures import attract_to_first_wound
    ctl, world, new = attract_to_first_wound(view_app, SKIRMISH, tmp_path)
    try:
        status = ctl.hud.status.text
        assert "suffers" in ctl.hud.banner.text
        assert "suffers" not in status and "Ranged Attack" not in status, status
        assert "VP" in status.splitlines()[0]                        # who is winning stays in view
        lines = status.count("\n") + 1
        assert ctl.hud.status.tn.getNumRows() == lines, status       # no line wraps
        assert lines <= 3, status
    finally:
        ctl.close()


def test_attract_banner_says_a_miss(view_app, tmp_path):
    """skirmish, seed 1, decision 14: red-archer's reaction shot at blue-guard
    rolls 15 against ACC 9. The banner said the attack and "rolls: d20=15" and
    nothing else: a passer-by could not tell whether it hit."""
    ctl, world = _attract(view_app, tmp_path)
    try:
        for _ in range(14):
            events = ctl.bot_step()
        assert any(e.kind == "attack" and e.data["target"] == "blue-guard" for e in events)
        assert not any(e.kind == "hit" for e in events)
        banner = ctl.hud.banner.text
        assert "red-archer misses blue-guard (rolled 15 against ACC 9)" in banner, banner
    finally:
        ctl.close()


def test_attract_shows_the_result_then_a_new_game(view_app, tmp_path):
    """The offscreen frames: when a game ended, the frame after its last step
    showed the next game's starting table (the result never had a frame of its
    own on the final table). Now: one frame with the result and the tally on the
    final table, then the new game with a banner that says it began."""
    from rules.core.game import Outcome, Termination
    ctl, world = _attract(view_app, tmp_path)
    try:
        ctl.run_frames(1, str(tmp_path / "frames"), prefix="a")
        old = ctl.game
        old.finish(Outcome(Termination.ELIMINATION, "red", {"red": 3, "blue": 0}))
        ctl.run_frames(1, str(tmp_path / "frames"), prefix="b")
        assert ctl.game is old                                   # the final table is shown
        banner = ctl.hud.banner.text
        assert banner.startswith("GAME OVER: red wins"), banner
        assert "games played here: 1 (red 1)" in banner, banner
        assert ctl.focus is None                                 # the whole table
        ctl.run_frames(1, str(tmp_path / "frames"), prefix="c")
        assert ctl.game is not old and not ctl.game.is_over
        assert ctl.hud.banner.text.startswith("A new game begins: game 2"), ctl.hud.banner.text
        status = ctl.hud.status.text
        assert status.count("game 2 (seed 2)") == 1, status                 # said once, in the hint
        assert ctl.wins == {"red": 1}                            # counted once
    finally:
        ctl.close()


def test_attract_window_keeps_the_last_step_before_the_result(view_app, tmp_path):
    """In a window (tick): the step that ended the game used to be replaced by
    "Game over" on the very next frame (1/60 s); its narration stays its time."""
    from rules.core.game import Outcome, Termination
    ctl, world = _attract(view_app, tmp_path)
    try:
        ctl.hud.set_banner("red-brute kills blue-ogre")
        ctl.clock = 0.0
        ctl.game.finish(Outcome(Termination.ELIMINATION, "red", {"red": 3, "blue": 0}))
        ctl.tick(1 / 60)
        assert ctl.hud.banner.text == "red-brute kills blue-ogre"
        ctl.tick(ctl.step_seconds)
        assert ctl.hud.banner.text.startswith("GAME OVER: red wins")
    finally:
        view_app.remove_frame("attract")
        ctl.close()


def test_attract_frames_show_every_step_with_its_camera(view_app, tmp_path):
    """Offscreen frames: the frame task (tick) ran during each frame as well,
    its clock 0.1 s a frame, so every 16th frame it took a second decision after
    run_frames had framed the first: that step was never shown, and the picture
    carried the second step's banner with the first step's camera (warbands: "may
    react to red-scout: blue-guard, blue-marksman, ..." with three of them off
    the frame). Now one decision per frame, each framed."""
    ctl, world = _attract(view_app, tmp_path)
    try:
        ctl.run_frames(18, str(tmp_path / "frames"))
        assert len(ctl.applied) == 18
        w, h = view_app.size
        from view_fixtures import model_rect
        for m in ctl.focus or ():
            r = model_rect(view_app, world, m)
            assert r is not None and r[0] >= 0 and r[2] <= w, (m, r)
    finally:
        ctl.close()


def test_attract_first_frame_says_the_initiative(view_app, tmp_path):
    """skirmish, seed 1: the first frame said "turn order: blue, red" and not why:
    the initiative rolls (red 5 + M 17 = 22, blue 19 + M 16 = 35) came before the
    first decision and were never on the banner."""
    ctl, world = _attract(view_app, tmp_path)
    try:
        ctl.bot_step()
        lines = ctl.hud.banner.text.splitlines()
        init = [ln for ln in lines if ln.startswith("initiative:")]
        assert len(init) == 2 and "red rolls" in init[0] and "blue rolls" in init[1], lines
        assert "turn order: blue, red" in lines
        ctl.bot_step()                                            # later steps: no initiative lines
        assert "initiative" not in ctl.hud.banner.text
    finally:
        ctl.close()


def test_attract_crouch_pass_in_plain_words(view_app, tmp_path):
    """The reactive side's pass of the Crouched window read "red passes: no
    Crouched change" (rules jargon on a stand for passers-by)."""
    ctl, world = _attract(view_app, tmp_path)
    try:
        for _ in range(3):
            events = ctl.bot_step()
        assert any(e.kind == "crouch_reaction" for e in events)
        assert ctl.hud.banner.text.startswith("red passes: none of its models crouches or stands up"), \
            ctl.hud.banner.text
    finally:
        ctl.close()


RITUAL = os.path.join(os.path.dirname(__file__), "..", "scenes", "ritual.yaml")


def test_attract_overview_keeps_the_models_above_the_banner(view_app, tmp_path):
    """ritual, seed 2: the game's first step (the order of play) frames no model
    of its own, and the camera took a fixed whole-table view that ignored the
    banner: red-champion stood behind the narration (and on the small table the
    view did not hold it all). With no step to frame, every model is framed in
    the part between the status panel and the banner."""
    from engine.view.labels import screen_rect
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    from view_fixtures import model_rect, rect_overlap
    world = load_world(RITUAL)
    ctl = AttractController(view_app, world, game_factory(world, "eldfall"), bots_factory("eldfall", "greedy"),
                            seed=2, out_dir=str(tmp_path))
    try:
        ctl.bot_step()
        assert not ctl.focus
        ctl.hud.set_banner("\n".join(f"line {i} of the narration" for i in range(6)))
        ctl.cinematic(0.5, snap=True)
        view_app.step()
        banner = screen_rect(view_app, ctl.hud.banner.np)
        w, h = view_app.size
        for m in world.model_ids():
            r = model_rect(view_app, world, m)
            assert r is not None and r[0] >= 0 and r[2] <= w and r[1] >= 0 and r[3] <= h, (m, r)
            area = (r[2] - r[0]) * (r[3] - r[1])
            assert rect_overlap(r, banner) < 0.1 * area, (m, r, banner)
    finally:
        ctl.close()
