"""``eldfall simulate SCENE --games N [--seed N] [--json]``: N bot games, their statistics.

Game ``i`` uses dice seed ``seed + i``. The JSON holds no timings, so the
same arguments give the same bytes.
"""
from __future__ import annotations

import json
from collections import Counter


def add_arguments(p) -> None:
    p.add_argument("scene", help="scene YAML file")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="first dice seed (default 0)")
    p.add_argument("--bots", default="greedy", metavar="KIND[,KIND]", help="bots (default greedy)")
    p.add_argument("--game", choices=("eldfall", "norova"), help="game system (default: the scene's)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a rules setting (e.g. rounds=3); repeatable")
    p.add_argument("--json", action="store_true", help="machine-readable statistics")


class Table:
    """One scene's table for a series of games: the scene is read and the World
    (terrain mesh, ray caster, and the sight and motion caches built from the
    static terrain) is built once; each game starts from the scene's models,
    put back exactly as a fresh World would place them."""

    def __init__(self, scene_path: str, game_name: str | None):
        self.scene_path = scene_path
        self.game_name = game_name
        self.world = None
        self.scene = None

    def new_game(self, seed: int, settings: dict | None = None, log=None):
        """(module, game) like ``gameplay.new_game``, on the shared World."""
        from tools import gameplay
        if self.world is None:
            mod, game = gameplay.new_game(self.scene_path, self.game_name, seed, log=log,
                                          settings=settings)
            self.world, self.scene = game.geo.world, game.geo.world.scene
            return mod, game
        from engine.geometry import WorldGeometry
        from tools.roster import units_from_scene
        reset_world(self.world)
        mod = gameplay.game_module(gameplay.pick_game(self.scene, self.game_name))
        units = units_from_scene(self.scene, self.world)
        game = mod.new_game(units, WorldGeometry(self.world), seed=seed, settings=settings or None,
                            scene_info=gameplay.scene_info(self.scene))
        if log is not None:
            game.start_log(log)
        return mod, game


def reset_world(world) -> None:
    """Every model back as the scene places it (summons gone), in scene order; the
    static terrain and everything cached from it are kept. The version keeps
    increasing, so no answer cached for an earlier game can be mistaken for a
    new one."""
    for mid in list(world.models):
        world.remove_model(mid)
    for spec in world.scene.models:
        world.add_model(spec)


def simulate(scene: str, games: int, seed: int, bots: str, game_name: str | None,
             settings: dict | None = None) -> dict:
    from tools import gameplay
    table = Table(scene, game_name)
    winners: Counter = Counter()
    reasons: Counter = Counter()
    vp: dict = {}
    per_game = []
    decisions = 0
    for i in range(games):
        mod, game = table.new_game(seed + i, settings=settings)
        names = gameplay.bot_names(bots, mod)
        n = gameplay.play_out(game, mod, names, seed + i)
        decisions += n
        o = game.outcome
        winners[o.winner or "draw"] += 1
        reasons[o.termination.value] += 1
        for side, v in o.scores.items():
            vp.setdefault(side, []).append(v)
        per_game.append({"seed": seed + i, "winner": o.winner, "termination": o.termination.value,
                         "scores": dict(sorted(o.scores.items())), "decisions": n,
                         "events": len(game.events), "state_hash": game.state_hash()})
    return {"scene": scene, "games": games, "seed": seed, "bots": bots,
            "settings": dict(sorted((settings or {}).items())),
            "game": per_game and game.game_name,
            "wins": dict(sorted(winners.items())), "terminations": dict(sorted(reasons.items())),
            "mean_vp": {s: round(sum(v) / len(v), 3) for s, v in sorted(vp.items())},
            "mean_decisions": round(decisions / games, 2) if games else 0, "per_game": per_game}


def run(args) -> int:
    from engine.errors import InputError, Problem
    if args.games < 1:
        raise InputError(Problem("<args>", None, "--games", "must be at least 1"))
    from tools import gameplay
    res = simulate(args.scene, args.games, args.seed, args.bots, args.game,
                   gameplay.parse_settings(args.set))
    if args.json:
        print(json.dumps(res, sort_keys=True, indent=1))
        return 0
    print(f"{res['games']} {res['game']} games on {args.scene}, bots {args.bots}, seeds "
          f"{args.seed}..{args.seed + args.games - 1}")
    print("wins: " + ", ".join(f"{k} {v}" for k, v in res["wins"].items()))
    print("endings: " + ", ".join(f"{k} {v}" for k, v in res["terminations"].items()))
    print("mean VP: " + ", ".join(f"{k} {v}" for k, v in res["mean_vp"].items()))
    print(f"mean decisions per game: {res['mean_decisions']}")
    return 0
