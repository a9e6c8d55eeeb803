"""Review 14, the organiser's event screen: ``eldfall view --attract`` and the
offscreen frames play the scene's games in turn, and the banner speaks as the
play summary does."""
from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("panda3d")

HERE = os.path.dirname(__file__)
SCENES = os.path.join(HERE, "..", "scenes")


def _alternating(view_app, tmp_path, scene="arena.yaml", game=None, seed=1):
    from engine.view.play import AttractController
    from tools.cmd_view import attract_factories, attract_games, load_world
    world = load_world(os.path.join(SCENES, scene))
    new, bots_for = attract_factories(world, attract_games(world, game), None, "greedy", seed)
    return AttractController(view_app, world, new, bots_for, seed=seed, out_dir=str(tmp_path))


def _end(game):
    from rules.core.game import Outcome, Termination
    side = sorted({u.side for u in game.units})[0]
    game.finish(Outcome(Termination.ELIMINATION, side, {side: 1}))


# ------------------------------------------------------------------ 1: both games, in turn
def test_event_screen_plays_the_scenes_games_in_turn(view_app, tmp_path):
    """On arena.yaml (``games: [eldfall, norova]``) the event screen played Eldfall
    game after game: Legends of Norova never came on. The games now come in turn,
    each with its own bots and narration, and the hint and the new game's banner
    say which game it is."""
    from rules.norova import narrate as norova_narrate
    ctl = _alternating(view_app, tmp_path)
    frames = str(tmp_path / "frames")
    try:
        kinds = []
        for k in range(3):
            ctl.run_frames(2, frames, prefix=f"p{k}")
            kinds.append(type(ctl.game).__module__.split(".")[1])
            assert {type(b).__module__ for b in ctl.bots.values()} == {f"rules.{kinds[-1]}.bots"}
            _end(ctl.game)
            ctl.run_frames(2, frames, prefix=f"q{k}")           # the result, then the next game
        assert kinds == ["eldfall", "norova", "eldfall"]
        assert type(ctl.game).__module__.startswith("rules.norova")
        assert ctl.narrator is norova_narrate.line              # not the last game's rules' words
        assert ctl.hud.banner.text.startswith("A new game begins: game 4 (seed 4), Legends of Norova;")
        assert "ATTRACT MODE: Legends of Norova, game 4 (seed 4)" in ctl.hud.status.text
    finally:
        ctl.close()


def test_offscreen_frames_say_which_games(view_app, tmp_path, capsys):
    """``eldfall view --offscreen --json`` names the games the screen plays in turn,
    and --game keeps to one."""
    from tools import cli
    arena = os.path.join(SCENES, "arena.yaml")
    assert cli.main(["view", arena, "--offscreen", "--frames", "1", "--json",
                     "--out", str(tmp_path / "a")]) in (0, None)
    assert json.loads(capsys.readouterr().out)["games"] == ["eldfall", "norova"]
    assert cli.main(["view", arena, "--offscreen", "--frames", "1", "--json", "--game", "norova",
                     "--out", str(tmp_path / "b")]) in (0, None)
    assert json.loads(capsys.readouterr().out)["games"] == ["norova"]


# ------------------------------------------------------------------ 2: the play summary's words
def test_banner_tells_the_ap_a_reaction_leaves(view_app, tmp_path):
    """The banner narrated event by event: "red-archer reacts: Ranged Attack ...",
    where ``eldfall play``'s summary says "red-archer reacts (1 AP left): ...". The
    banner now speaks as the summary (``rules.eldfall.narrate.Summary``); its "may
    react to" line, which the summary holds for a crouch at the end of the Movement
    Step, is told with the move when no such crouch window follows (not a frame late,
    over the reaction)."""
    ctl = _alternating(view_app, tmp_path, "open.yaml")
    try:
        banners = []
        for _ in range(6):
            ctl.bot_step()
            banners.append(ctl.hud.banner.text)
        i = next((i for i, b in enumerate(banners) if "red-archer reacts" in b), None)
        assert i is not None, banners
        assert banners[i].startswith("red-archer reacts (1 AP left): Ranged Attack"), banners[i]
        move = banners[i - 1].splitlines()
        assert move[0].startswith("blue-warden walks"), move
        assert move[-1].startswith("may react to blue-warden: red-archer"), move
    finally:
        ctl.close()


def test_demo_window_plays_both_games_in_turn(monkeypatch, capsys):
    """``eldfall demo scenes/arena.yaml`` with a screen opened the attract mode with
    ``--game eldfall`` set for it: the window never showed Legends of Norova (the
    offscreen demo renders both). With no --game it now plays the games in turn."""
    from engine.view import app as app_mod
    import engine.view.config as config
    import engine.view.play as play
    from tools import cli
    seen = {}

    class FakeApp:
        renderer = "fake"

        def run(self):
            pass

    def attract(app, world, new_game, bots_for, **kw):
        seen["kinds"] = [type(new_game(kw["seed"] + i)[0]).__module__.split(".")[1] for i in range(3)]
    monkeypatch.setattr(config, "has_display", lambda: True)
    monkeypatch.setattr(app_mod, "get_app", lambda cfg=None: FakeApp())
    monkeypatch.setattr(play, "AttractController", attract)
    assert cli.main(["demo", os.path.join(SCENES, "arena.yaml")]) in (0, None)
    assert seen["kinds"] == ["eldfall", "norova", "eldfall"]
    assert cli.main(["demo", os.path.join(SCENES, "arena.yaml"), "--game", "norova"]) in (0, None)
    assert seen["kinds"] == ["norova"] * 3
    capsys.readouterr()


def test_the_enemy_a_move_goes_toward_is_framed(view_app, tmp_path):
    """arena.yaml, Legends of Norova, seed 2, the fourth step: "blue-arcanist sprints
    10" toward red-mage (now 13" from it)" was framed on blue-arcanist alone, red-mage
    cut in half at the frame's edge. The models the banner names are framed with the
    actor."""
    import re
    ctl = _alternating(view_app, tmp_path, game="norova", seed=2)
    try:
        checked = 0
        for _ in range(6):
            ctl.bot_step()
            m = re.search(r" toward ([\w-]+) \(now", ctl.hud.banner.text)
            if m:
                assert m.group(1) in ctl.focus, (ctl.hud.banner.text, ctl.focus)
                checked += 1
        assert checked >= 1
    finally:
        ctl.close()
