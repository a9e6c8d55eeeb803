"""Seeded Legends of Norova bot games on the arena, recorded for the speed tests: a
sped-up bot must give the same events, byte for byte, and the same final state."""
from __future__ import annotations

import hashlib
from pathlib import Path

from tools import gameplay

ROOT = Path(__file__).resolve().parents[1]
ARENA = str(ROOT / "scenes" / "norova-arena.yaml")


def record(game, decisions: int) -> tuple:
    """(decisions, events, hash of the events' JSON one a line, state hash, last event)."""
    h = hashlib.sha256("\n".join(e.to_json() for e in game.events).encode()).hexdigest()
    return decisions, len(game.events), h, game.state_hash(), game.events[-1].to_json()


def play_recorded(mod, game, bots: str, seed: int) -> tuple:
    """The bots play ``game`` to its end: its ``record``."""
    n = gameplay.play_out(game, mod, gameplay.bot_names(bots, mod, game), seed)
    return record(game, n)


def arena_game(seed: int, rounds: int):
    """(module, game): a Norova game on the arena of ``rounds`` rounds."""
    return gameplay.new_game(ARENA, "norova", seed, settings={"max_rounds": rounds})


def count_route_checks(monkeypatch) -> list:
    """The route checks the engine computes (``WorldGeometry._check_move``, not served from
    its cache) from now on in this test: a list that grows with each (model, mode)."""
    from engine.geometry import WorldGeometry
    checks: list = []
    plain = WorldGeometry._check_move

    def counted(self, *a, **kw):
        checks.append(a[:2])
        return plain(self, *a, **kw)
    monkeypatch.setattr(WorldGeometry, "_check_move", counted)
    return checks


# the greedy bot's extra cost of a move mode in its approach scores (rules.norova.bots)
APPROACH_MODE_COST = {"walk": 0.0, "fly": 0.0, "crawl": 0.3, "climb": 0.3, "sprint": 0.6}


def approach_point(game):
    """(the active model, the position of its nearest enemy) when it still has its move and
    an enemy on the table (the question ``best_approach`` answers), else None."""
    mid = game.active_model
    if game.f(mid).slots["move"] or not game.enemies(mid):
        return None
    near = min(game.enemies(mid), key=lambda e: (game.geometry.distance(mid, e), e))
    return mid, game.pos(near)
