"""The documentation's screenshots, made again from the code as it is now.

    .venv/bin/python -m engine.view.screenshots [OUT_DIR] [NAME ...]

writes ``template.png``, ``play-walk.png``, ``play-verdict.png``,
``stratagems.png`` and ``tokens.png`` (default: all of them) into OUT_DIR
(default ``docs/screenshots``), offscreen at 1280x720 with 4x MSAA. Each is
the view driven the way a player drives it (menu keys, clicks at projected
points, a hovered model) or a picture function (``engine.view.pictures``).
``window.png`` is a real window under an X server (Xvfb + GLX) and is not
made here; ``table.png``, ``dispute-*.png`` and ``attract.png`` come from
``eldfall demo`` and ``eldfall view --offscreen``.
"""
from __future__ import annotations

import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SIZE = (1280, 720)


def _scene(name: str) -> str:
    return os.path.join(ROOT, "scenes", name)


def _app():
    from engine.view.app import existing_app, get_app
    from engine.view.config import ViewConfig
    return existing_app() or get_app(ViewConfig(offscreen=True, width=SIZE[0], height=SIZE[1], multisamples=4))


def _press(app, key, **kw):
    out = app.dispatch(key, **kw)
    app.step()
    return out


def _menu(ctl, *prefixes: str) -> str:
    labels = [label for label, _ in ctl.menu]
    i = next(i for i, m in enumerate(labels) if m.startswith(prefixes))
    return str(i + 1) if i < 9 else "0"


def _controller(app, scene: str, seed: int, tmp: str):
    from engine.view.play import PlayController
    from tools.cmd_view import game_factory
    from tools.loading import load_world
    world = load_world(scene)
    game, geo = game_factory(world, "eldfall")(seed)
    return PlayController(app, world, game, geo, out_dir=tmp)


def _hover(app, world, mid):
    hb = world.hitbox(mid)
    app.dispatch("none", pixel=app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
    app.step()


def _shoot(app, path: str) -> str:
    app.step(3)                       # the labels laid out, the shadows drawn
    app.screenshot(path)
    return path


def template(out: str, tmp: str) -> str:
    """`eldfall aoe scenes/skirmish.yaml --template circle-l --target blue-guard --picture`:
    the main target fully covered, a neighbour 60%, both in blue's colour with the band."""
    from tools.cli import main as cli
    rc = cli(["aoe", _scene("skirmish.yaml"), "--template", "circle-l", "--target", "blue-guard",
              "--picture", tmp])
    assert rc == 0, rc
    os.replace(os.path.join(tmp, "aoe.png"), os.path.join(out, "template.png"))
    return os.path.join(out, "template.png")


def play_walk(out: str, tmp: str) -> str:
    """Skirmish, red's first activation: red-champion walks; the reachable area and the path."""
    app = _app()
    ctl = _controller(app, _scene("skirmish.yaml"), 3, tmp)
    try:
        world, game = ctl.world, ctl.game
        while game.pending[0] == "order":
            _press(app, _menu(ctl, "order red first", "order blue second"))
        while game.pending[0] == "stratagem":
            _press(app, "p")
        hb = world.hitbox("red-champion")
        ctl.camera.set_orbit((hb.x + 1.0, hb.y + 5.0, hb.z), 0.0, 50.0, 24.0)
        app.step()
        hb = world.hitbox("red-champion")
        _press(app, "mouse1", pixel=app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
        while game.pending[0] == "crouch":
            _press(app, "p")
        _press(app, _menu(ctl, "Move: Walk"))
        _press(app, "mouse1", pixel=app.project((hb.x + 1.5, hb.y + 1.5, hb.z)))
        _press(app, "mouse1", pixel=app.project((hb.x + 2.5, hb.y + 3.6, hb.z)))
        return _shoot(app, os.path.join(out, "play-walk.png"))
    finally:
        ctl.close()


def play_verdict(out: str, tmp: str) -> str:
    """The live verdict: red-champion selected, blue-guard hovered."""
    app = _app()
    ctl = _controller(app, _scene("skirmish.yaml"), 3, tmp)
    try:
        world, game = ctl.world, ctl.game
        while game.pending[0] == "order":
            _press(app, _menu(ctl, "order red first", "order blue second"))
        while game.pending[0] == "stratagem":
            _press(app, "p")
        a, b = world.hitbox("red-champion"), world.hitbox("blue-guard")
        ctl.camera.set_orbit(((a.x + b.x) / 2, (a.y + b.y) / 2 - 0.5, 0.0), 0.0, 58.0, 54.0)
        app.step()
        ctl.select("red-champion")
        _hover(app, world, "blue-guard")
        return _shoot(app, os.path.join(out, "play-verdict.png"))
    finally:
        ctl.close()


def stratagems(out: str, tmp: str) -> str:
    """warbands.yaml: War Horn chosen, its targets ringed, an illegal click on an enemy explained."""
    app = _app()
    ctl = _controller(app, _scene("warbands.yaml"), 3, tmp)
    try:
        world, game = ctl.world, ctl.game
        _press(app, _menu(ctl, "order red first", "order blue second"))
        assert game.pending == ("stratagem", "red"), game.pending
        _press(app, _menu(ctl, "War Horn"))
        # the picture's camera, set within the step (a new step frames its models itself)
        ctl.camera.set_orbit((12.0, 10.0, 0.0), 0.0, 52.0, 34.0)
        app.step()
        hb = world.hitbox("blue-guard")
        _press(app, "mouse1", pixel=app.project((hb.x, hb.y, hb.z + hb.height * 0.6)))
        return _shoot(app, os.path.join(out, "stratagems.png"))
    finally:
        ctl.close()


def tokens(out: str, tmp: str) -> str:
    """ritual.yaml mid-game: a summoned wolf, hidden and revealed tokens (a bots' game)."""
    from engine.view.pictures import table_picture
    from tools.cmd_view import bots_factory, game_factory
    from tools.loading import load_world
    world = load_world(_scene("ritual.yaml"))
    new = game_factory(world, "eldfall")
    for seed in range(1, 60):
        game, geo = new(seed)
        bots = bots_factory("eldfall", "random")(game, seed)
        for _ in range(600):
            if game.is_over or not game.legal_actions():
                break
            who = game.pending[1] if game.pending else None
            side = world.hitbox(who).side if who in world.models else who
            bot = bots.get(side) or next(iter(bots.values()))
            game.apply(bot.choose(game))
            summoned = [m for m in world.model_ids() if m in ("ritual-wolf", "ritual-bear")]
            toks = list(game.tokens.values())
            shown = [t for t in toks if not getattr(t, "removed", False)]
            revealed = [t.id for t in shown if not getattr(t, "hidden", True)]
            hidden = [t.id for t in shown if getattr(t, "hidden", False)]
            if "ritual-wolf" in summoned and "old-relic" in revealed and "red-snare" in hidden:
                words = (f"{', '.join(summoned)} summoned; {', '.join(hidden)} hidden (?), "
                         f"{', '.join(revealed)} revealed")
                return table_picture(world, os.path.join(out, "tokens.png"), tokens=toks,
                                     caption=f"ritual.yaml mid-game (random bots, seed {seed}): {words}")
    raise RuntimeError("no game with the wolf summoned, the relic revealed and the snare hidden in 60 seeds")


SHOTS = {"template": template, "play-walk": play_walk, "play-verdict": play_verdict,
         "stratagems": stratagems, "tokens": tokens}


def main(argv=None) -> int:
    import tempfile
    argv = list(sys.argv[1:] if argv is None else argv)
    out = argv.pop(0) if argv and argv[0] not in SHOTS else os.path.join(ROOT, "docs", "screenshots")
    names = argv or list(SHOTS)
    os.makedirs(out, exist_ok=True)
    _app()
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            print(SHOTS[name](out, tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
