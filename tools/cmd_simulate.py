"""``eldfall simulate SCENE --games N [--seed N] [--json]``: N bot games, their statistics.

Game ``i`` uses dice seed ``seed + i``. The JSON holds no timings, so the
same arguments give the same bytes, whatever ``--jobs``: the games are shared
out over that many worker processes (each builds its own table once), and
their results are gathered in game order. ``--settings FILE`` and ``--set
templates.KEY=VALUE`` are the table's geometry settings, as ``eldfall play`` takes them:
every game is played on them, and the JSON's ``geometry`` names those changed from the
defaults.
"""
from __future__ import annotations

import json
import os
from collections import Counter
from tools.loading import counted, file_argument

# a game takes a tenth of a second or more: a million is days of work, and more
# would first fill the memory with their seeds and records
MAX_GAMES = 1_000_000


def add_arguments(p) -> None:
    p.add_argument("scene", help="scene YAML file")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="first dice seed (default 0)")
    p.add_argument("--bots", default="greedy", metavar="KIND[,KIND]", help="bots (default greedy)")
    p.add_argument("--game", choices=("eldfall", "norova"), help="game system (default: the scene's)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a rules setting (e.g. rounds=3), or a template setting as templates.KEY=VALUE "
                        "(e.g. templates.circle_card=hold); repeatable")
    p.add_argument("--settings", metavar="FILE",
                   help="sight settings for the table (as eldfall los --settings; default "
                        "engine/data/sight.yaml)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="worker processes (default: one per CPU, at most one per game)")
    p.add_argument("--json", action="store_true", help="machine-readable statistics")
    p.add_argument("--models-dir", default=None,
                   help="where party#name profiles are looked up (default: the repository's models/)")


class Table:
    """One scene's table for a series of games: the scene is read and the World
    (terrain mesh, ray caster, and the sight and motion caches built from the
    static terrain) is built once; each game starts from the scene's models,
    put back exactly as a fresh World would place them. ``table``: the geometry settings
    (gameplay.TableSettings) every game is played on."""

    def __init__(self, scene_path: str, game_name: str | None, models_dir: str | None = None,
                 table=None):
        from tools.gameplay import TableSettings
        self.scene_path = scene_path
        self.game_name = game_name
        self.models_dir = models_dir      # --models-dir: where the scene's profiles are
        self.table = table or TableSettings()
        self.world = None
        self.scene = None
        self.walk_map = None          # the Norova bots' ground samples (static terrain)

    def new_game(self, seed: int, settings: dict | None = None, log=None, warnings: list | None = None):
        """(module, game) like ``gameplay.new_game``, on the shared World (``warnings``: a
        list that receives ``gameplay.stat_warnings`` when the World is built)."""
        from tools import gameplay
        if self.world is None:
            mod, game = gameplay.new_game(self.scene_path, self.game_name, seed, log=log,
                                          settings=settings, models_dir=self.models_dir,
                                          warnings=warnings, table=self.table)
            geo = game.geo if hasattr(game, "geo") else game.geometry     # Eldfall / Norova
            self.world, self.scene = geo.world, geo.world.scene
            self._share_walk_map(game)
            return mod, game
        from tools.roster import units_from_scene
        reset_world(self.world)
        mod = gameplay.game_module(gameplay.pick_game(self.scene, self.game_name))
        units = units_from_scene(self.scene, self.world)
        game = mod.new_game(units, self.table.geometry(self.world), seed=seed, settings=settings or None,
                            scene_info=gameplay.scene_info(self.scene, self.models_dir, self.table))
        if log is not None:
            game.start_log(log)
        self._share_walk_map(game)
        return mod, game

    def _share_walk_map(self, game) -> None:
        """A Norova game's bots walk round the scenery on a map of ground samples
        (``rules.norova.bots.walk_map``, one per geometry): the samples are of the static
        terrain alone, so the series shares one map, its samples taken once."""
        if getattr(game, "game_name", None) != "norova":
            return
        from rules.norova import bots
        self.walk_map = bots.walk_map_for(game, self.walk_map)     # empty until a bot asks


def reset_world(world) -> None:
    """Every model back as the scene places it (summons gone), in scene order; the
    static terrain and everything cached from it are kept. The version keeps
    increasing, so no answer cached for an earlier game can be mistaken for a
    new one."""
    for mid in list(world.models):
        world.remove_model(mid)
    for spec in world.scene.models:
        world.add_model(spec)


def _play(table: Table, seed: int, bots: str, settings: dict | None) -> dict:
    """One game on ``table``: its record for the statistics."""
    from tools import gameplay
    mod, game = table.new_game(seed, settings=settings)
    n = gameplay.play_out(game, mod, gameplay.bot_names(bots, mod, game), seed)
    o = game.outcome
    return {"seed": seed, "winner": o.winner, "termination": o.termination.value,
            "scores": dict(sorted(o.scores.items())), "decisions": n,
            "events": len(game.events), "state_hash": game.state_hash(),
            "game": game.game_name, "sides": gameplay.sides(game)}


_WORKER: dict = {}


def _worker_init(scene: str, game_name: str | None, models_dir: str | None = None, table=None) -> None:
    _WORKER["table"] = Table(scene, game_name, models_dir, table)


def _worker_play(job: tuple) -> dict:
    seed, bots, settings = job
    return _play(_WORKER["table"], seed, bots, settings)


JOBS_PER_CPU = 8


def cpus() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def max_jobs() -> int:
    """The most worker processes ``--jobs`` may ask for."""
    return JOBS_PER_CPU * cpus()


def default_jobs(games: int) -> int:
    return max(1, min(games, cpus()))


def simulate(scene: str, games: int, seed: int, bots: str, game_name: str | None,
             settings: dict | None = None, jobs: int = 1, models_dir: str | None = None,
             table: Table | None = None, table_settings=None) -> dict:
    """The statistics of ``games`` bot games (``table``: the scene's Table, already built, for
    ``jobs == 1``; ``table_settings``: the geometry settings, gameplay.TableSettings)."""
    from tools.gameplay import TableSettings
    jobs = max(1, min(int(jobs), games))
    seeds = [seed + i for i in range(games)]
    table_settings = getattr(table, "table", None) or table_settings or TableSettings()
    if jobs == 1:
        table = table or Table(scene, game_name, models_dir, table_settings)
        per_game = [_play(table, s, bots, settings) for s in seeds]
    else:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor
        # spawn: fresh interpreters, nothing inherited from this one (threads, GL)
        ctx = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx, initializer=_worker_init,
                                 initargs=(scene, game_name, models_dir, table_settings)) as pool:
            per_game = list(pool.map(_worker_play, [(s, bots, settings) for s in seeds]))
    # every side has its count, 0 too, and "draw" its own: the keys are the same whatever
    # the games' results, and the counts add up to the games
    sides = list(dict.fromkeys(s for g in per_game for s in g["sides"]))
    winners: Counter = Counter({s: 0 for s in sides + ["draw"]})
    reasons: Counter = Counter()
    vp: dict = {}
    for g in per_game:
        winners[g["winner"] or "draw"] += 1
        reasons[g["termination"]] += 1
        for side, v in g["scores"].items():
            vp.setdefault(side, []).append(v)
    decisions = sum(g["decisions"] for g in per_game)
    name = per_game[-1]["game"] if per_game else None
    for g in per_game:
        del g["game"], g["sides"]
    return {"scene": scene, "games": games, "seed": seed, "bots": bots,
            "settings": dict(sorted((settings or {}).items())),
            "geometry": table_settings.changed(),
            "game": name,
            "wins": dict(sorted(winners.items())), "terminations": dict(sorted(reasons.items())),
            "mean_vp": {s: round(sum(v) / len(v), 3) for s, v in sorted(vp.items())},
            "mean_decisions": round(decisions / games, 2) if games else 0, "per_game": per_game}


def run(args) -> int:
    from engine.errors import InputError, Problem
    if args.games < 1:
        raise InputError(Problem("<command line>", None, "--games", "must be at least 1"))
    if args.games > MAX_GAMES:
        raise InputError(Problem("<command line>", None, "--games", f"at most {MAX_GAMES}, got {args.games}"))
    if args.jobs is not None and args.jobs < 1:
        raise InputError(Problem("<command line>", None, "--jobs", "must be at least 1"))
    if args.jobs is not None and args.jobs > max_jobs():
        # each job is a process holding its own table: thousands would exhaust the machine
        raise InputError(Problem("<command line>", None, "--jobs",
                                 f"at most {max_jobs()} ({JOBS_PER_CPU} per CPU here), got {args.jobs}"))
    file_argument(args.scene, "a scene file")
    from tools.gameplay import check_seed
    check_seed(args.seed)
    if not args.bots.strip():
        raise InputError(Problem("<command line>", None, "--bots", "expected KIND[,KIND], got an empty text"))
    from tools import gameplay
    settings, geometry = gameplay.command_settings(args)
    # bad input (scene, bots, settings) fails here, in this process, as one line; with one
    # job the series' own table checks it, so the World is built once
    warnings: list = []
    table = Table(args.scene, args.game, args.models_dir, geometry) if args.jobs == 1 else None
    if table is not None:
        mod, game = table.new_game(args.seed, settings=settings, warnings=warnings)
    else:
        mod, game = gameplay.new_game(args.scene, args.game, args.seed, settings=settings,
                                      models_dir=args.models_dir, warnings=warnings, table=geometry)
    gameplay.bot_names(args.bots, mod, game)
    import sys
    for w in warnings:          # a model with no stats plays with 0s: said once, before the games
        print(w, file=sys.stderr)
    res = simulate(args.scene, args.games, args.seed, args.bots, args.game, settings,
                   jobs=default_jobs(args.games) if args.jobs is None else args.jobs,
                   models_dir=args.models_dir, table=table, table_settings=geometry)
    if args.json:
        print(json.dumps(res, sort_keys=True, indent=1))
        return 0
    seeds = (f"seed {args.seed}" if args.games == 1
             else f"seeds {args.seed}..{args.seed + args.games - 1}")
    print(f"{counted(res['games'], res['game'] + ' game')} on {args.scene}, bots {args.bots}, {seeds}"
          + geometry.words())
    wins = {k: v for k, v in res["wins"].items() if k != "draw"}
    print("wins: " + ", ".join(f"{k} {v}" for k, v in wins.items())
          + f"; {counted(res['wins'].get('draw', 0), 'draw')}")
    print("endings: " + ", ".join(f"{k} {v}" for k, v in res["terminations"].items()))
    # the score the game keeps: Eldfall's VP, Legends of Norova's Vitality left (its turn-limit winner)
    score = "mean Vitality left" if res["game"] == "norova" else "mean VP"
    print(f"{score}: " + ", ".join(f"{k} {v}" for k, v in res["mean_vp"].items()))
    print(f"mean decisions per game: {res['mean_decisions']}")
    return 0
