"""``eldfall demo [SCENE]``: the main job.

With a screen: opens the 3D table in attract mode (bots play game after game,
on a scene set up for several games and no --game the games in turn; Space
pauses; close the window to quit). With no screen: renders pictures into
``out/demo/`` -- an attract-mode game's frames (one decision a frame; a scene
set up for several games and no --game: a game of each, ``attract/`` and
``attract-<game>/``), a dispute picture pair (eye view + overview, with the
JSON verdict) and an overview of the table -- prints where they are, and the
scene summary.
"""
from __future__ import annotations

import json
import os
import sys
import time

from engine.errors import InputError, Problem

DEFAULT_SCENE = "scenes/skirmish.yaml"


def add_arguments(parser) -> None:
    parser.add_argument("scene", nargs="?", default=DEFAULT_SCENE, help=f"the scene file (default {DEFAULT_SCENE})")
    parser.add_argument("--out", default="out/demo", help="where the pictures go with no screen (default out/demo)")
    parser.add_argument("--frames", type=int, default=8, help="attract-mode frames to render with no screen")
    parser.add_argument("--offscreen", action="store_true", help="render pictures even when a screen is present")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=("eldfall", "norova"), default=None)
    parser.add_argument("--json", action="store_true", help="print what was written as JSON")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")


def _dispute_pair(world, budget_s: float = 8.0):
    """A pair worth a dispute: opposite sides, nearest first, preferring one
    that is partly visible (the case players argue about). At most
    ``budget_s`` seconds of LoS queries; the chosen pair gets the full
    verdict with cover."""
    from engine import sight
    ids = world.model_ids()
    sides = {m: world.hitbox(m).side for m in ids}
    pairs = sorted(((world.distance(a, b), a, b) for a in ids for b in ids if sides[a] != sides[b]))
    t0 = time.perf_counter()
    best = None
    for _d, a, b in pairs:
        r = sight.los(world, a, b, fraction=True, cover=False)
        score = 2 if (r.los and 0.05 < r.visible_fraction < 0.95) else 1 if r.los else 0
        if best is None or score > best[0]:
            best = (score, a, b)
        if score == 2 or time.perf_counter() - t0 > budget_s:
            break
    if best is None:
        return None
    return sight.los(world, best[1], best[2], fraction=True, cover=True)


def demo_scene(scene: str) -> str:
    """The scene to show: the default one is the project's own (scenes/skirmish.yaml
    beside tools/), wherever ``eldfall demo`` is run from; a scene named is as given."""
    if scene == DEFAULT_SCENE and not os.path.exists(scene):
        bundled = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), DEFAULT_SCENE)
        if os.path.isfile(bundled):
            return bundled
    return scene


def run(args) -> int:
    from engine.view.config import has_display
    from tools.cmd_check import render, summary
    from tools.cmd_view import game_factory, game_name_for
    from tools.loading import counted, load_world
    from tools.cmd_view import check_frames
    from tools.gameplay import check_seed
    check_frames(args.frames)
    check_seed(args.seed)
    args.scene = demo_scene(args.scene)
    world = load_world(args.scene, args.models_dir)
    name = game_name_for(world, args.game)
    if has_display() and not args.offscreen:
        from tools import cmd_view
        # no --game: the window plays the scene's games in turn (eldfall view --attract)
        ns = type("Args", (), dict(scene=args.scene, attract=True, game=args.game, offscreen=False, frames=1,
                                   out="out/view", seed=args.seed, size="1280x720", bot="greedy", log=None, samples=None,
                                   json=False, models_dir=args.models_dir, settings=None, set=[]))()
        print(render(summary(world)))
        return cmd_view.run(ns)

    from engine.validate import output_folder
    # with no --game, a scene set up for several games (arena.yaml: eldfall and norova)
    # shows a bot game of each: attract/ the first, attract-<game>/ the others
    games = [name] if args.game else list(dict.fromkeys(getattr(world.scene, "games", ()) or (name,)))
    attract_dirs = {g: os.path.join(args.out, "attract" if i == 0 else f"attract-{g}") for i, g in enumerate(games)}
    for folder in (args.out, os.path.join(args.out, "dispute"), *attract_dirs.values()):
        output_folder(folder, "--out")               # before any rendering: a bad folder writes nothing
    from engine.view.app import RenderError, get_app
    from engine.view.config import ViewConfig
    from engine.view.pictures import dispute_folder, table_picture
    t0 = time.perf_counter()
    try:
        app = get_app(ViewConfig(offscreen=True, width=1280, height=720, multisamples=4))
    except RenderError as exc:
        print(f"eldfall demo: {exc}", file=sys.stderr)
        return 1
    output_folder(args.out, "--out", create=True)
    written: dict = {}
    # the table, from the players' side and from the top (before any game moves a model)
    written["overview"] = table_picture(world, os.path.join(args.out, "table.png"),
                                        caption=getattr(world.scene, "name", "") or args.scene)
    written["top"] = table_picture(world, os.path.join(args.out, "table-top.png"), top=True)
    # a dispute: eye view + overview + JSON verdict
    r = _dispute_pair(world)
    if r is not None:
        folder = os.path.join(args.out, "dispute")
        verdict = dispute_folder(world, r, folder)
        written["dispute"] = {"folder": folder, "summary": verdict["summary"],
                              "pictures": [os.path.join(folder, p) for p in verdict["pictures"]],
                              "verdict": os.path.join(folder, "verdict.json")}
    # an attract-mode game
    from engine.view.play import AttractController
    from tools.cmd_view import bots_factory
    written["attract"] = {}
    for g, folder in attract_dirs.items():
        app.table_scene = None
        ctl = AttractController(app, world, game_factory(world, g), bots_factory(g, "greedy"),
                                seed=args.seed, out_dir=args.out)
        # one decision a frame, as `eldfall view --offscreen` renders them: with two, the
        # first decision of each frame was taken unseen (its banner replaced at once: a move
        # never narrated, a frame saying "red passes" over the model that had just moved)
        written["attract"][g] = ctl.run_frames(args.frames, folder, decisions_per_frame=1)
    written["seconds"] = round(time.perf_counter() - t0, 1)
    written["renderer"] = app.renderer
    if args.json:
        print(json.dumps({"scene": summary(world), "written": written}, indent=2, default=str))
        return 0
    print(render(summary(world)))
    print()
    print(f"No screen here: pictures rendered offscreen ({app.renderer}) in {written['seconds']} s:")
    print(f"  table:    {written['overview']}")
    print(f"            {written['top']}")
    if "dispute" in written:
        d = written["dispute"]
        print(f"  dispute:  {d['summary']}")
        for p in d["pictures"]:
            print(f"            {p}")
        print(f"            {d['verdict']}")
    for g, frames in written["attract"].items():
        title = {"eldfall": "Eldfall Chronicles", "norova": "Legends of Norova"}.get(g, g)
        print(f"  attract:  {counted(len(frames), 'frame')} of a bot game of {title}, {frames[0]} ... {frames[-1]}")
    return 0
