"""``eldfall view SCENE [--attract] [--game eldfall|norova] [--offscreen --frames N --out DIR]``

Opens the 3D table (engine.view). With a screen: a window to play hotseat
(or, with ``--attract``, bots playing game after game: on a scene set up for
several games and no ``--game``, the games in turn). Without a screen, or
with ``--offscreen``: renders N frames of an attract-mode game to PNGs in
DIR (EGL/llvmpipe, with p3tinydisplay as fallback) and says where they are.
``--log LOG`` loads a logged game to play on in the window (hotseat); there is
no one to play on offscreen, so there (and with ``--attract``) it is refused.
``--settings FILE`` (sight settings, as ``eldfall los --settings``) and ``--set
templates.KEY=VALUE`` (template settings) are the table's geometry settings, as ``eldfall
play`` takes them (the games' logs record them); with ``--log`` and neither, the log's own.
"""
from __future__ import annotations

import json
import os
import sys
import time

from engine.errors import InputError, Problem
from tools.loading import counted, load_world


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("--attract", action="store_true", help="bots play game after game (event stand)")
    parser.add_argument("--game", choices=("eldfall", "norova"), default=None,
                        help="the rules to play (default: the scene's first game; attract mode and "
                             "offscreen frames: the scene's games in turn)")
    parser.add_argument("--offscreen", action="store_true", help="render frames to PNG files instead of a window")
    parser.add_argument("--frames", type=int, default=12, help="frames to render offscreen (default 12)")
    parser.add_argument("--out", default="out/view", help="folder for offscreen frames (default out/view)")
    parser.add_argument("--seed", type=int, default=1, help="the first game's seed")
    parser.add_argument("--size", default="1280x720", help="window or frame size WxH (default 1280x720)")
    parser.add_argument("--samples", type=int, default=None, choices=(0, 2, 4, 8),
                        help="multisample antialiasing (default 4 in a window, 0 offscreen)")
    parser.add_argument("--bot", choices=("greedy", "random"), default="greedy", help="the bots' strategy")
    parser.add_argument("--log", default=None,
                        help="a game log to load at start and play on (hotseat, in a window; "
                             "not with --attract or offscreen)")
    parser.add_argument("--json", action="store_true", help="offscreen: print the result as JSON")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")
    parser.add_argument("--settings", metavar="FILE",
                        help="sight settings for the table (as eldfall los --settings; default "
                             "engine/data/sight.yaml; with --log, the log's)")
    parser.add_argument("--set", action="append", default=[], metavar="templates.KEY=VALUE",
                        help="a template setting (e.g. templates.circle_card=hold, as eldfall aoe --set "
                             "takes it); repeatable")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
        if not (64 <= w <= 8192 and 64 <= h <= 8192):
            raise ValueError
        return w, h
    except ValueError:
        raise InputError(Problem("<command line>", None, "--size", f"expected WxH in pixels (64-8192), not {text!r}")) from None


def game_name_for(world, requested: str | None) -> str:
    games = tuple(getattr(world.scene, "games", ()) or ("eldfall",))
    name = requested or games[0]
    if requested and requested not in games:
        raise InputError(Problem(world.scene.path or "<scene>", None, "games",
                                 f"this scene is set up for {', '.join(games)}, not {requested}"))
    return name


def geometry_for(world, table=None):
    """The rules' Geometry over this world (engine.geometry.WorldGeometry) on the geometry
    settings ``table`` (gameplay.TableSettings; None: the defaults)."""
    from tools.gameplay import TableSettings
    return (table or TableSettings()).geometry(world)


def game_factory(world, name: str, models_dir: str | None = None, table=None):
    """seed -> (game, geometry): a fresh game on the world's starting positions (``models_dir``:
    the ``--models-dir`` its profiles came from, logged as ``eldfall play`` logs it; ``table``:
    the geometry settings, gameplay.TableSettings, logged too)."""
    from tools.roster import units_from_scene
    start = {mid: (hb.x, hb.y, hb.z, hb.facing, frozenset(hb.states)) for mid, hb in world.models.items()}
    specs = {mid: hb.spec for mid, hb in world.models.items()}
    from tools.gameplay import game_module, scene_info
    units = units_from_scene(world.scene, world)
    # the same header as `eldfall play` (the settings too): logs replay either way
    info = scene_info(world.scene, models_dir, table)
    mod = game_module(name)

    def new(seed: int):
        # put back every model as the scene has it (a finished game removed some)
        for mid, spec in specs.items():
            if mid not in world.models:
                world.add_model(spec)
            x, y, z, f, states = start[mid]
            world.move_model(mid, x, y, z, facing=f)
            world.set_states(mid, states)
        geo = geometry_for(world, table)
        try:
            game = mod.new_game([u.__class__.from_dict(u.to_dict()) for u in units], geo, seed=seed,
                                scene_info=info)
        except ValueError as exc:          # e.g. not two sides
            raise InputError(Problem(world.scene.path or "<scene>", None, "models", str(exc))) from None
        return game, geo
    return new


def bots_factory(name: str, kind: str):
    """(game, seed) -> {side: bot}: the game's own bots."""
    def make(game, seed):
        sides = list(getattr(game, "sides", []) or sorted({u.side for u in game.units}))
        if name == "eldfall":
            from rules.eldfall import bots
            cls = bots.GreedyBot if kind == "greedy" else bots.RandomBot
            return {s: cls(seed * 7919 + i) for i, s in enumerate(sides)}
        from rules.norova import bots
        cls = bots.GreedyBot if kind == "greedy" else bots.RandomBot
        return {s: cls(seed * 7919 + i, side=s) for i, s in enumerate(sides)}
    return make


def game_kind(game) -> str:
    """The rules package a game belongs to (``rules.<kind>.game``): eldfall or norova."""
    parts = type(game).__module__.split(".")
    return parts[1] if len(parts) > 2 and parts[0] == "rules" else parts[0]


def attract_factories(world, names, models_dir: str | None, bot: str, first_seed: int, table=None):
    """(new_game, bots_for) for an event screen that plays the ``names`` games in
    turn, game after game: the game whose seed is ``first_seed + i`` is of
    ``names[i % len(names)]`` (the attract mode's seed goes up by one a game); each
    gets its own game's bots. Every game is set up once here, so that a scene
    one of them cannot start on is refused before anything opens."""
    makers = {n: game_factory(world, n, models_dir, table) for n in names}
    bots = {n: bots_factory(n, bot) for n in names}
    for i, n in enumerate(names):
        makers[n](first_seed + i)

    def new(seed: int):
        return makers[names[(seed - first_seed) % len(names)]](seed)

    def bots_for(game, seed):
        return bots[game_kind(game)](game, seed)
    return new, bots_for


def attract_games(world, requested: str | None) -> list[str]:
    """The games an event screen plays in turn: --game's alone, else every game
    the scene's ``games:`` list names (arena.yaml: eldfall, norova, eldfall, ...)."""
    if requested:
        return [game_name_for(world, requested)]
    return list(dict.fromkeys(getattr(world.scene, "games", ()) or ("eldfall",)))


def _check_log(path: str):
    """A --log that cannot be read is an error before anything opens: its header."""
    from tools.cmd_replay import read_game_log
    return read_game_log(path)[0]


def table_settings(args, header: dict | None = None):
    """The table's geometry settings (gameplay.TableSettings): ``--settings`` and ``--set
    templates.KEY=VALUE``; with neither, a ``--log``'s ``header`` gives them (the game goes
    on as it was played). The view's games take the rules' defaults, so any other ``--set``
    is refused."""
    from tools import gameplay
    rules, table = gameplay.command_settings(args)
    if rules:
        raise InputError([Problem("<command line>", None, f"--set {key}",
                                  f"eldfall view takes only template settings ({gameplay.TEMPLATE_PREFIX}KEY="
                                  "VALUE); the rules' settings are for eldfall play and simulate")
                          for key in rules])
    if header is not None and not args.settings and not args.set:
        table = gameplay.header_settings(args.log, header.get("scene") or {})
    return table


def _check_log_use(args, offscreen: bool) -> None:
    """--log loads a game to play on, hotseat, in a window. Offscreen frames are an
    attract-mode game of the bots (no one plays on), and --attract plays its own
    games: a --log there would be ignored, so it is refused (before anything is written)."""
    if offscreen:
        why = ("--offscreen renders" if args.offscreen else "there is no screen here, so view renders")
        raise InputError(Problem("<command line>", None, "--log",
                                 f"loads a game to play on (hotseat), which needs a window; {why} "
                                 "frames of a new attract-mode game instead (eldfall replay LOG shows "
                                 "a logged game's state)"))
    if args.attract:
        raise InputError(Problem("<command line>", None, "--log",
                                 "loads a game to play on (hotseat); --attract plays the bots' own "
                                 "games: leave out one of them"))


def _check_out(path: str) -> None:
    """The --out folder must be a folder, or be one that can be made."""
    p = os.path.abspath(path)
    while not os.path.lexists(p):
        p = os.path.dirname(p)
    if not os.path.isdir(p):
        raise InputError(Problem("<command line>", None, "--out", f"{p} is not a folder"))
    if not os.access(p, os.W_OK | os.X_OK):
        raise InputError(Problem("<command line>", None, "--out", f"cannot write in {p}"))


#: the most frames one offscreen run renders (frame-0000.png ... frame-9999.png)
MAX_FRAMES = 10000


def check_frames(frames: int) -> None:
    """--frames: 1 to MAX_FRAMES (a huge count would check and name every file first)."""
    if not 1 <= frames <= MAX_FRAMES:
        raise InputError(Problem("<command line>", None, "--frames", f"must be 1 to {MAX_FRAMES}, not {frames}"))


def frame_names(frames: int) -> list[str]:
    """The files an offscreen run writes into --out (engine.view.play AttractController.run_frames)."""
    return [f"frame-{i:04d}.png" for i in range(frames)]


def _check_out_arg(path: str, frames: int | None) -> None:
    """--out: never an empty text; offscreen (``frames`` given), a folder that is one
    or can be made, where none of the frames it will write is a folder (one
    ``<command line>: --out: ...`` line, before any work: nothing written)."""
    from engine.validate import output_folder
    if not str(path).strip():
        output_folder(path, "--out")           # "expected a folder, got an empty text"
    if frames is None:
        return
    _check_out(path)
    output_folder(path, "--out", files=frame_names(frames))


def run(args) -> int:
    from engine.view.config import ViewConfig, has_display
    width, height = _size(args.size)
    check_frames(args.frames)
    from tools.gameplay import check_seed
    check_seed(args.seed)                   # seed -N would roll seed N's dice
    offscreen = args.offscreen or not has_display()
    _check_out_arg(args.out, args.frames if offscreen else None)
    header = None
    if args.log:
        header = _check_log(args.log)
        _check_log_use(args, offscreen)     # a log that is read, and then not used: refused
    table = table_settings(args, header)
    world = load_world(args.scene, args.models_dir)
    name = game_name_for(world, args.game)
    if offscreen or args.attract:
        # the event screen: with no --game, the scene's games in turn, game after game
        # (each set up here once: one the scene cannot start is refused before a window opens)
        games = attract_games(world, args.game)
        new_game, bots_for = attract_factories(world, games, args.models_dir, args.bot, args.seed, table)
    else:
        new_game = game_factory(world, name, args.models_dir, table)
    from engine.view.app import RenderError, get_app
    try:
        app = get_app(ViewConfig(offscreen=offscreen, width=width, height=height, multisamples=args.samples,
                                 title=f"Eldfall referee - {os.path.basename(args.scene)}"))
    except RenderError as exc:
        print(f"eldfall view: {exc}", file=sys.stderr)
        return 1
    if offscreen:
        return _offscreen(args, app, world, games, new_game, bots_for)
    if args.attract:
        from engine.view.play import AttractController
        AttractController(app, world, new_game, bots_for, seed=args.seed, out_dir="out")
    else:
        from engine.view.play import PlayController
        game, geo = new_game(args.seed)
        ctl = PlayController(app, world, game, geo, out_dir="out")
        if args.log:
            from rules.core.errors import LogError
            try:
                ctl.load(args.log, strict=True)
            except LogError as exc:
                print(exc.one_line(), file=sys.stderr)
                return 2
    print(f"eldfall view: {app.renderer}; close the window to quit")
    # a window is left running (an event's stand, a game in hand): an error in one
    # frame's step is reported and the window goes on, not closed with a traceback
    app.survive_frame_errors = True
    app.run()
    return 0


def _offscreen(args, app, world, games, new_game, bots_for) -> int:
    from engine.view.play import AttractController
    t0 = time.perf_counter()
    ctl = AttractController(app, world, new_game, bots_for, seed=args.seed, out_dir="out")
    paths = ctl.run_frames(args.frames, args.out)
    elapsed = time.perf_counter() - t0
    result = {"frames": paths, "games": games, "renderer": app.renderer, "seconds": round(elapsed, 2),
              "games_finished": ctl.games_played, "events": len(ctl.game.events)}
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        what = (f"an attract-mode {games[0]} game" if ctl.games_played == 0 or len(games) == 1
                else "attract-mode " + " and ".join(games) + " games in turn")
        print(f"{counted(len(paths), 'frame')} of {what} in {args.out}/ "
              f"({app.renderer}, {elapsed:.1f} s)")
        print(f"  first: {paths[0]}\n  last:  {paths[-1]}")
    return 0
