"""Shared machinery of the game systems: Game, Event, Dice, EventLog, Unit, Geometry."""
from rules.core.dice import Dice
from rules.core.errors import IllegalAction, LogError
from rules.core.game import Event, Game, LegalActions, Outcome, Termination
from rules.core.log import EventLog, read_log
from rules.core.units import Unit

__all__ = ["Dice", "IllegalAction", "LogError", "Event", "Game", "LegalActions", "Outcome",
           "Termination", "EventLog", "read_log", "Unit"]
