"""Review 9, the attract mode on an organiser's big screen, second pass: no small
panels that repeat the banner, the models clear of every panel shown, Norova's
status says who is winning, and a move says where in words."""
from __future__ import annotations

import os

import pytest

pytest.importorskip("panda3d")

HERE = os.path.dirname(__file__)
SKIRMISH = os.path.join(HERE, "..", "scenes", "skirmish.yaml")
NOROVA = os.path.join(HERE, "..", "scenes", "norova-arena.yaml")


def _attract(view_app, tmp_path, scene, game="eldfall", seed=1):
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory, game_factory, load_world
    world = load_world(scene)
    ctl = AttractController(view_app, world, game_factory(world, game), bots_factory(game, "greedy"),
                            seed=seed, out_dir=str(tmp_path))
    return ctl, world


def _shown(panel) -> bool:
    return bool(panel.text) and not panel.np.isHidden()


# ------------------------------------------------------------------ 1: readable panels
def test_attract_shows_no_small_panel_that_repeats_the_banner(view_app, tmp_path):
    """skirmish, seed 1, the step that wounds blue-ogre: the dice and log panels on
    the right were drawn at scale 0.03 (about 11 px a line at 1280x720), repeated
    the banner's lines and touched the labels of the models on the right. On the
    big screen every panel shown is readable at a glance (14 px a line or more at
    720 lines) and none repeats the banner."""
    from view_fixtures import attract_to_first_wound
    ctl, world, new = attract_to_first_wound(view_app, SKIRMISH, tmp_path)
    try:
        hud = ctl.hud
        banner = {ln.strip() for ln in hud.banner.text.splitlines() if ln.strip()}
        assert any("suffers" in ln for ln in banner)
        for name in ("status", "profile", "menu", "verdict", "dice", "log", "banner"):
            panel = getattr(hud, name)
            if not _shown(panel):
                continue
            px = panel.np.getScale()[2] * 720 / 2 * panel.tn.getLineHeight()
            assert px >= 14, (name, px, panel.text)
            if name != "banner":
                rep = [ln for ln in panel.text.splitlines() if ln.strip() in banner]
                assert not rep, (name, rep)
        ctl.bot_step()                                       # later steps too
        assert not _shown(hud.dice) and not _shown(hud.log)
    finally:
        ctl.close()


def test_hotseat_keeps_its_dice_and_log(view_app, tmp_path):
    """The hotseat (PlayController) keeps its panels as they were."""
    from engine.view.play import PlayController
    from tools.cmd_view import game_factory, load_world
    world = load_world(SKIRMISH)
    game, geo = game_factory(world, "eldfall")(1)
    ctl = PlayController(view_app, world, game, geo, out_dir=str(tmp_path))
    try:
        ctl.apply(list(ctl.legal())[0])
        ctl.refresh()
        assert _shown(ctl.hud.log)
    finally:
        ctl.close()


# ------------------------------------------------------------------ 2: models clear of the panels
def test_attract_norova_models_clear_of_every_panel(view_app, tmp_path):
    """norova-arena, seed 1: the profile panel on the left covered the brute and the
    hexer (the camera left room for the status panel and the banner only), and a
    step framed on one model left the others under the status panel. In every
    frame of the first steps no model on screen stands under a panel shown."""
    from view_fixtures import model_rect, rect_overlap
    ctl, world = _attract(view_app, tmp_path, NOROVA, "norova")
    try:
        w, h = view_app.size
        for i in range(12):
            ctl.run_frames(1, str(tmp_path / "frames"), prefix=f"n{i}")
            rects = ctl.hud.rects()
            for m in world.model_ids():
                r = model_rect(view_app, world, m)
                if r is None or r[2] < 0 or r[0] > w or r[3] < 0 or r[1] > h:
                    assert m not in (ctl.focus or ()), (i, m, r)      # the step's models are on screen
                    continue
                for q in rects:
                    assert rect_overlap(r, q) == 0, (i, m, r, q, ctl.hud.banner.text)
    finally:
        ctl.close()


# ------------------------------------------------------------------ 3: Norova, who is winning
def test_norova_status_says_who_is_winning(view_app, tmp_path):
    """The status panel's first line read "Round 1:" (the summary's heading) and
    nothing said how the fight stood: now the round and the characters standing
    per side, and who is ahead."""
    ctl, world = _attract(view_app, tmp_path, NOROVA, "norova")
    try:
        ctl.bot_step()
        first = ctl.hud.status.text.splitlines()[0]
        assert first == "Legends of Norova - round 1 | Standing: foes 5/5, party 4/4 (even)", first
        g = ctl.game
        g.fighters["hexer"].status = "dead"
        g.fighters["brute"].status = "dying"
        assert g.hud_lines(None)[-1] == "Standing: foes 3/5, party 4/4 (party ahead)"
        assert g.hud_lines("ranger")[-1].startswith("Standing: ")
        ctl.refresh()
        assert "(party ahead)" in ctl.hud.status.text.splitlines()[0]
        assert ctl.hud.status.tn.getNumRows() == ctl.hud.status.text.count("\n") + 1     # no line wraps
    finally:
        ctl.close()


# ------------------------------------------------------------------ 4: moves in words
def test_attract_move_says_where_in_words(view_app, tmp_path):
    """skirmish, seed 1, decision 4: the banner said "blue-ogre walks 5.0" to (19.6,
    25.6)". It says how far and toward whom, and how far from it the model ends;
    the rules' line with the coordinates follows, secondary, in brackets (the
    rules' own narration is unchanged)."""
    ctl, world = _attract(view_app, tmp_path, SKIRMISH)
    try:
        for _ in range(4):
            events = ctl.bot_step()
        mv = next(e for e in events if e.kind == "movement")
        assert ctl.say(mv).strip() == 'blue-ogre walks 5.0" to (19.6, 25.6)'
        lines = ctl.hud.banner.text.splitlines()
        assert lines[0] == 'blue-ogre walks 5" toward red-brute (now 19" from it)', lines
        assert lines[1].strip() == '(blue-ogre walks 5.0" to (19.6, 25.6))', lines
    finally:
        ctl.close()


def test_attract_norova_move_names_the_scenery(view_app, tmp_path):
    """norova-arena, seed 1, decision 4: "ghoul sprints to (16.76, 8.32) facing 228"
    reads "ghoul sprints 12" toward pyromancer (now 4" from it), by the low wall"."""
    ctl, world = _attract(view_app, tmp_path, NOROVA, "norova")
    try:
        for _ in range(4):
            ctl.bot_step()
        lines = ctl.hud.banner.text.splitlines()
        i = next(i for i, ln in enumerate(lines) if ln.startswith("ghoul sprints"))
        assert lines[i] == 'ghoul sprints 12" toward pyromancer (now 4" from it), by the low wall', lines
        assert lines[i + 1].strip() == "(ghoul sprints to (16.76, 8.32) facing 228)", lines
    finally:
        ctl.close()
