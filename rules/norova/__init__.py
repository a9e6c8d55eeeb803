"""Legends of Norova: the Active Turn combat rules, a sibling of rules/eldfall.

The package interface shared by every game system::

    new_game(units, geometry, seed, settings=None, scene_info=None) -> Game
    game_from_log(header, events, geometry) -> Game
    BOTS: dict[str, type]          # classes with choose(game) -> action

Source: ../shared/seeds/norova-active-turn.txt; the simple rules for its gaps:
docs/rulings.md ("Legends of Norova"); the numbers: rules/norova/data/*.yaml.
"""
from __future__ import annotations

from rules.norova.actions import parse as parse_action
from rules.norova.bots import GreedyBot, RandomBot
from rules.norova.data import NorovaDataError
from rules.norova.game import NorovaGame

GAME = NorovaGame
BOTS: dict[str, type] = {"random": RandomBot, "greedy": GreedyBot}


def new_game(units, geometry, seed: int = 0, settings: dict | None = None,
             scene_info: dict | None = None) -> NorovaGame:
    """A fight between the units (``rules.core.Unit``s with a ``norova`` block in ``extra``)."""
    return NorovaGame(list(units), geometry, seed=seed, settings=settings, scene_info=scene_info)


def game_from_log(header: dict, events: list, geometry) -> NorovaGame:
    """Rebuild a logged fight (every ``action`` event applied again and checked)."""
    return NorovaGame.replay(header, events, geometry)


__all__ = ["new_game", "game_from_log", "BOTS", "NorovaGame", "GAME", "RandomBot", "GreedyBot",
           "parse_action", "NorovaDataError"]
