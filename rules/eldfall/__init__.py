"""Eldfall Chronicles: the rules engine (turns, activations, reactions, attacks, states).

    game = new_game(units, geometry, seed=1)
    while not game.is_over:
        game.apply(BOTS["random"](1).choose(game))

``allowed_actions(role, movement, states)`` is the seeds' availability tables
(rules/eldfall/availability.py).
"""
from __future__ import annotations

from rules.eldfall.availability import allowed_actions


def new_game(units, geometry, seed: int = 0, settings: dict | None = None,
             scene_info: dict | None = None, dice=None, log=None):
    from rules.eldfall.sequence import EldfallGame
    return EldfallGame(units, geometry, seed=seed, settings=settings, scene_info=scene_info,
                       dice=dice, log=log)


def game_from_log(header: dict, events: list, geometry, check: bool = True):
    from rules.eldfall.sequence import EldfallGame
    return EldfallGame.replay(header, events, geometry, check=check)


from rules.eldfall.bots import BOTS  # noqa: E402

__all__ = ["allowed_actions", "new_game", "game_from_log", "BOTS"]
