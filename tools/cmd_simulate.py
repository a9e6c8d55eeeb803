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


def simulate(scene: str, games: int, seed: int, bots: str, game_name: str | None,
             settings: dict | None = None) -> dict:
    from tools import gameplay
    winners: Counter = Counter()
    reasons: Counter = Counter()
    vp: dict = {}
    per_game = []
    decisions = 0
    for i in range(games):
        mod, game = gameplay.new_game(scene, game_name, seed + i, settings=settings)
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
