"""The game base class shared by every game system.

A game is a state machine driven by :meth:`Game.apply`. What is legal now is a
lazy view (:meth:`Game.legal_actions`) supporting ``in``, iteration and
``len``. Every change of state is an :class:`Event`; every die roll is one. A
game with a log writes each event (flushed and fsynced) as it happens.

Replaying: a log's header rebuilds the starting game (same units, seed and
settings); the ``action`` events are applied again in order and must produce the
same events. Undo to an earlier point is a replay of a prefix.
"""
from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from rules.core.dice import Dice
from rules.core.errors import IllegalAction, LogError
from rules.core.log import EventLog, dumps, event_line


@dataclass(frozen=True)
class Event:
    kind: str
    data: dict
    seq: int = -1

    def to_dict(self) -> dict:
        return {"seq": self.seq, "kind": self.kind, "data": self.data}

    def to_json(self) -> str:
        return dumps(self.to_dict())

    @classmethod
    def from_dict(cls, d: dict) -> "Event":
        return cls(kind=d["kind"], data=d["data"], seq=d["seq"])

    @classmethod
    def from_json(cls, text: str) -> "Event":
        import json
        return cls.from_dict(json.loads(text))


class Termination(enum.Enum):
    TURN_LIMIT = "turn limit"          # the last turn was played
    ELIMINATION = "elimination"        # a side has no model able to fight
    DUEL = "duel"                      # a duel ended the game
    OBJECTIVE = "objective"            # a quest or scenario objective
    CONCESSION = "concession"
    STALEMATE = "stalemate"            # a safety stop: nothing can change any more


@dataclass(frozen=True)
class Outcome:
    termination: Termination
    winner: str | None                 # None: a draw
    scores: dict = field(default_factory=dict)
    detail: str = ""

    def to_dict(self) -> dict:
        return {"termination": self.termination.value, "winner": self.winner,
                "scores": dict(self.scores), "detail": self.detail}

    def __str__(self) -> str:
        from rules.core.text import side_wins
        who = side_wins(self.winner) if self.winner else "draw"
        pts = ", ".join(f"{k} {v}" for k, v in sorted(self.scores.items()))
        return f"{who} ({self.termination.value}{': ' + self.detail if self.detail else ''})" + (
            f" [{pts}]" if pts else "")


class LegalActions:
    """A lazy view of the legal actions of a game: ``a in view``, ``iter``, ``len``."""

    def __init__(self, game: "Game"):
        self._game = game

    def __contains__(self, action) -> bool:
        return self._game.why_illegal(action) is None

    def __iter__(self) -> Iterator:
        return iter(self._game.generate_actions())

    def __len__(self) -> int:
        return len(self.list())

    def __bool__(self) -> bool:
        return any(True for _ in self)

    def list(self) -> list:
        """Every legal action now, computed once per state (cached on the game)."""
        key = self._game.state_key()
        cache = self._game._legal_cache
        if cache is None or cache[0] != key:
            cache = (key, list(self._game.generate_actions()))
            self._game._legal_cache = cache
        return list(cache[1])

    def __repr__(self) -> str:
        return f"<LegalActions {list(self)!r}>"


class Game:
    """Base class. A game system overrides the hooks marked *hook*."""

    game_name = "core"

    def __init__(self, *, seed: int = 0, dice: Dice | None = None,
                 settings: dict | None = None, scene_info: dict | None = None,
                 log: EventLog | None = None):
        self.seed = int(seed)
        self.dice = dice if dice is not None else Dice(self.seed)
        self.settings = dict(settings or {})
        self.scene_info = dict(scene_info or {})
        self.events: list[Event] = []
        self.log = log
        self.listeners: list[Callable[[Event], None]] = []
        self.outcome: Outcome | None = None
        self._legal_cache = None

    # ---- hooks --------------------------------------------------------
    def header(self) -> dict:
        """*hook*: the log header (game, seed, scene, units, settings)."""
        return {"game": self.game_name, "seed": self.seed, "scene": self.scene_info,
                "units": [], "settings": self.settings}

    def generate_actions(self) -> Iterator:
        """*hook*: yield the legal actions now."""
        return iter(())

    def check_phase(self, action) -> str | None:
        """*hook*: does the current phase/step allow this kind of action?"""
        return None

    def check_actor(self, action) -> str | None:
        """*hook*: is it the right model / player / role?"""
        return None

    def check_rule(self, action) -> str | None:
        """*hook*: the rule itself."""
        return None

    def perform(self, action) -> None:
        """*hook*: carry the action out, emitting events."""
        raise NotImplementedError

    def state_dict(self) -> dict:
        """*hook*: the whole state as JSON-able data (for the hash)."""
        return {}

    @classmethod
    def parse_action(cls, text: str):
        """*hook*: an action from its text form."""
        raise NotImplementedError

    def state_key(self):
        """Changes whenever the state may have changed (for caches): the event count."""
        return len(self.events)

    # ---- the checked entry point --------------------------------------
    def legal_actions(self) -> LegalActions:
        return LegalActions(self)

    def why_illegal(self, action) -> str | None:
        """The reason ``action`` is illegal now, checked in a fixed order, or None."""
        reason = self.check_phase(action)
        if reason:
            return reason
        if self.is_over:
            return "the game is over"
        return self.check_actor(action) or self.check_rule(action)

    def apply(self, action) -> list[Event]:
        reason = self.why_illegal(action)
        if reason:
            raise IllegalAction(reason, action)
        start = len(self.events)
        self.emit("action", {"action": str(action)})
        self.perform(action)
        return self.events[start:]

    # ---- events and dice ----------------------------------------------
    def start_log(self, log: EventLog) -> None:
        """Attach a log: writes the header and every event so far."""
        self.log = log
        log.write_header(self.header())
        for ev in self.events:
            log.append(ev)

    def emit(self, kind: str, data: dict | None = None) -> Event:
        ev = Event(kind, dict(data or {}), len(self.events))
        self.events.append(ev)
        if self.log is not None:
            self.log.append(ev)
        for fn in self.listeners:
            fn(ev)
        return ev

    def roll(self, why: str, sides: int = 20, **data: Any) -> int:
        """Roll one die and report it as a ``roll`` event."""
        value = self.dice.roll(sides, why)
        self.emit("roll", {"sides": sides, "value": value, "why": why, **data})
        return value

    # ---- end of game --------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def finish(self, outcome: Outcome) -> None:
        if self.outcome is None:
            self.outcome = outcome
            self.emit("game_over", outcome.to_dict())

    # ---- hashing and replay -------------------------------------------
    def state_hash(self) -> str:
        state = self.state_dict()
        state["_dice"] = self.dice.state_digest()
        state["_events"] = len(self.events)
        state["_outcome"] = None if self.outcome is None else self.outcome.to_dict()
        return hashlib.sha256(dumps(state).encode()).hexdigest()

    @classmethod
    def from_header(cls, header: dict, geometry, dice: Dice | None = None) -> "Game":
        """*hook*: the starting game that a header describes."""
        raise NotImplementedError

    @classmethod
    def replay(cls, header: dict, events: list, geometry, *, check: bool = True,
               dice: Dice | None = None) -> "Game":
        """Rebuild a game from a header and (a prefix of) its events.

        The ``action`` events are applied again in order. Events may be
        :class:`Event`s or dicts. With ``check``, each re-created event must
        equal the logged one (else :class:`LogError`). Events after the last
        whole action in the prefix are not re-created: undo to event ``k``
        gives the state after every action whose ``action`` event is before
        ``k``, complete with its consequences.
        """
        if header.get("game") != cls.game_name:
            raise LogError(f"this log is of game {header.get('game')!r}, not {cls.game_name!r}",
                           line=1, path="game")
        evs = [e if isinstance(e, Event) else Event.from_dict(e) for e in events]
        try:
            game = cls.from_header(header, geometry, dice=dice)
        except (ValueError, KeyError, TypeError) as exc:
            key = getattr(exc, "key", None)           # a SettingError names its setting
            raise LogError(f"the header does not describe a {cls.game_name} game: {exc}",
                           line=1, path=f"settings.{key}" if key else "units") from None
        n_setup = len(game.events)
        if check:
            _compare(game.events[:min(n_setup, len(evs))], evs[:n_setup])
        for ev in evs[n_setup:]:
            if ev.kind != "action" or ev.seq < len(game.events):
                continue
            if ev.seq != len(game.events):
                raise LogError(f"event {ev.seq}: the replay has {len(game.events)} events here",
                               line=event_line(ev.seq), path="seq")
            text = ev.data.get("action")
            if not isinstance(text, str):
                raise LogError(f"event {ev.seq}: must be an action in words, not {text!r}",
                               line=event_line(ev.seq), path="data.action")
            try:
                game.apply(cls.parse_action(text))
            except (IllegalAction, ValueError, KeyError) as exc:
                raise LogError(f"event {ev.seq}: cannot replay {text!r}: {exc}",
                               line=event_line(ev.seq), path="data.action") from None
            if check:
                upto = min(len(game.events), len(evs))
                _compare(game.events[ev.seq:upto], evs[ev.seq:upto])
        if check and len(evs) > len(game.events) >= n_setup:
            # every event comes of the setup or of an action: one that none made (a roll
            # added after the game's end, an event after the last action's consequences)
            # is an edited log, not the game
            extra = evs[len(game.events)]
            raise LogError(f"event {extra.seq}: the replay makes no such event (the game's "
                           f"actions made {len(game.events)} events, numbered from 0; the log "
                           f"goes on with {extra.kind} {dumps(extra.data)})",
                           line=event_line(extra.seq), path="kind")
        return game


def _compare(mine: list[Event], logged: list[Event]) -> None:
    for a, b in zip(mine, logged):
        if a.kind != b.kind or dumps(a.data) != dumps(b.data) or a.seq != b.seq:
            raise LogError(f"event {b.seq}: the replay gives {a.kind} {dumps(a.data)}, "
                           f"the log has {b.kind} {dumps(b.data)}", line=event_line(b.seq),
                           path="kind" if a.kind != b.kind else "data" if a.seq == b.seq else "seq")
