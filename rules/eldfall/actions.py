"""Eldfall actions: small frozen value objects with a text form that round-trips.

    >>> a = Declare("r1", "Melee Attack", weapon="Long Sword", targets=(("b1", 2),))
    >>> str(a)
    "declare r1 'Melee Attack' 'weapon=Long Sword' targets=b1:2"
    >>> Action.parse(str(a)) == a
    True

Points are ``x,y,z`` in inches (Python's shortest float repr, so exact).
The ``Declare`` action names are the seed pages' own ("Melee Attack",
"Ranged Attack", "Spell Attack", "Assist", "Dodge", "Perceive", "Interact",
"Trade", "Nothing", "Death Blow", "Issue a Duel", "Ritual", "Uncover").
"""
from __future__ import annotations

import math
import shlex
from dataclasses import dataclass
from rules.core.text import split_keywords

Point = tuple[float, float, float]

MOVEMENTS = ("idle", "walk", "run", "climb", "jump")
MOVEMENT_NAMES = {"idle": "Idle", "walk": "Walk", "run": "Run", "climb": "Climb", "jump": "Jump"}
ACTION_NAMES = ("Melee Attack", "Ranged Attack", "Spell Attack", "Assist", "Dodge", "Perceive",
                "Interact", "Trade", "Nothing", "Death Blow", "Issue a Duel", "Ritual", "Uncover")
ATTACKS = ("Melee Attack", "Ranged Attack", "Spell Attack")
SPECIAL = ("Issue a Duel", "Ritual", "Uncover")


def fmt_point(p: Point) -> str:
    return ",".join(repr(float(v)) for v in p)


def parse_point(text: str) -> Point:
    parts = text.split(",")
    if len(parts) != 3:
        raise ValueError(f"a point is x,y,z: {text!r}")
    return tuple(float(v) for v in parts)  # type: ignore[return-value]


def _pt(p) -> Point:
    return (float(p[0]), float(p[1]), float(p[2]) if len(p) > 2 and p[2] is not None else 0.0)


def _finite_facing(v, what: str) -> float:
    """A facing in degrees: a finite number (a NaN or infinite facing would leave
    the model with no front arc: no LoS, and a log that is not JSON)."""
    try:
        f = float(v)
    except (TypeError, ValueError):
        f = math.nan
    if not math.isfinite(f):
        raise ValueError(f"{what}DEGREES (CCW from +x): a finite number, not {v!r}")
    return f


def _onoff(v: bool | None) -> str:
    return "on" if v else "off"


def _parse_onoff(v: str) -> bool:
    if v not in ("on", "off"):
        raise ValueError(f"expected on or off, not {v!r}")
    return v == "on"


class Action:
    """Base of every Eldfall action. ``Action.parse(text)`` reads any of them."""

    verb = ""

    def __str__(self) -> str:
        return " ".join(shlex.quote(t) for t in self.tokens())

    def tokens(self) -> list[str]:
        raise NotImplementedError

    @staticmethod
    def parse(text: str) -> "Action":
        try:
            toks = shlex.split(text)
        except ValueError as exc:
            raise ValueError(f"cannot read action {text!r}: {exc}") from None
        if not toks:
            raise ValueError("empty action")
        cls = VERBS.get(toks[0])
        if cls is None:
            raise ValueError(f"unknown action verb {toks[0]!r} (one of {', '.join(VERBS)})")
        return cls.from_tokens(toks[1:])


@dataclass(frozen=True)
class ChooseOrder(Action):
    """The initiative winner chooses to play first or second."""
    side: str
    first: bool
    verb = "order"

    def tokens(self):
        return ["order", self.side, "first" if self.first else "second"]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 2 or t[1] not in ("first", "second"):
            raise ValueError("order SIDE first|second")
        return cls(t[0], t[1] == "first")


@dataclass(frozen=True)
class Activate(Action):
    """Step 1: spend 1 AP to activate a model."""
    model: str
    verb = "activate"

    def tokens(self):
        return ["activate", self.model]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 1:
            raise ValueError("activate MODEL")
        return cls(t[0])


@dataclass(frozen=True)
class Move(Action):
    """Step 2: the movement (``mode`` one of idle walk run climb jump).

    ``path`` is the route after the current position (its last point is the
    end); Idle has none. ``crouch_start``/``crouch_end`` enter (True) or cancel
    (False) the Crouched state at the start or end of the step. ``facing``
    turns the model (degrees CCW from +x) at the end. ``land`` ("start" or
    "end"): a Flying model stops Flying by choice then (docs/rulings.md).
    """
    model: str
    mode: str
    path: tuple[Point, ...] = ()
    crouch_start: bool | None = None
    crouch_end: bool | None = None
    facing: float | None = None
    land: str | None = None
    verb = "move"

    def __post_init__(self):
        object.__setattr__(self, "path", tuple(_pt(p) for p in self.path))
        if self.facing is not None:
            object.__setattr__(self, "facing", _finite_facing(self.facing, "facing="))

    def tokens(self):
        t = ["move", self.model, self.mode] + [fmt_point(p) for p in self.path]
        if self.crouch_start is not None:
            t.append(f"crouch-start={_onoff(self.crouch_start)}")
        if self.crouch_end is not None:
            t.append(f"crouch-end={_onoff(self.crouch_end)}")
        if self.facing is not None:
            t.append(f"facing={self.facing!r}")
        if self.land is not None:
            t.append(f"land={self.land}")
        return t

    @classmethod
    def from_tokens(cls, t):
        pos, kw = split_keywords(t)
        if len(pos) < 2:
            raise ValueError("move MODEL MODE [x,y,z ...] [crouch-start=on|off] [crouch-end=on|off] "
                             "[facing=DEG] [land=start|end]")
        unknown = set(kw) - {"crouch-start", "crouch-end", "facing", "land"}
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}")
        if kw.get("land", "start") not in ("start", "end"):
            raise ValueError(f"land is start or end, not {kw['land']!r}")
        return cls(pos[0], pos[1], tuple(parse_point(p) for p in pos[2:]),
                   _parse_onoff(kw["crouch-start"]) if "crouch-start" in kw else None,
                   _parse_onoff(kw["crouch-end"]) if "crouch-end" in kw else None,
                   _finite_facing(kw["facing"], "facing=") if "facing" in kw else None,
                   kw.get("land"))


@dataclass(frozen=True)
class Declare(Action):
    """Step 3 (a reaction) or step 4 (the action) of a model.

    ``targets``: ((model id, strikes), ...) for attacks, ((model id, 1), ...)
    for Assist/Perceive/Death Blow/Duel/Trade. ``weapon``: the Item used (an
    attack or a Shield Bash / Unarmed profile); ``spell``: the Spell used.
    ``point``: for a reaction, the point of the mover's path it is aimed at.
    ``items``: for Trade, the acquired items exchanged (the model's go to the
    partner; a name the model does not hold comes from the partner).
    ``attribute``: for Dodge, "AG" or "T" (Immobilized models may use T).
    ``objective``: for Interact.
    ``knockback``: for an Attack with the Knockback trait, the direction the hit
    model is pushed, in degrees counter-clockwise from the table's +x axis
    (absolute, like a facing); None pushes it directly away from the attacker.
    Knockback (X): "moved X\" away from the attacker, direction of the
    attacker's choice" (eldfall-facts.md, Movement); legal only within the
    table setting ``knockback_max_angle_deg`` of the directly-away line.
    ``place``: for an Active Role Attack with a template on one named target, where
    its template lies (a circle's centre, a spray's aim point; the attacker's choice
    so long as the main target is fully covered); None: on the target's centre. For an
    Assist casting a Transmutation (no target): where its token lies, on the surface.

    >>> a = Declare("r1", "Melee Attack", weapon="Maul", targets=(("b1", 1),), knockback=405)
    >>> str(a)
    "declare r1 'Melee Attack' weapon=Maul targets=b1:1 knockback=45.0"
    >>> Action.parse(str(a)) == a
    True
    """
    model: str
    action: str
    weapon: str | None = None
    spell: str | None = None
    targets: tuple[tuple[str, int], ...] = ()
    point: Point | None = None
    items: tuple[str, ...] = ()
    attribute: str | None = None
    objective: str | None = None
    knockback: float | None = None
    place: Point | None = None
    verb = "declare"

    def __post_init__(self):
        object.__setattr__(self, "targets", tuple((str(m), int(n)) for m, n in self.targets))
        if self.knockback is not None:
            if not math.isfinite(float(self.knockback)):
                raise ValueError(f"knockback=DEGREES (CCW from +x), not {self.knockback!r}")
            object.__setattr__(self, "knockback", float(self.knockback) % 360.0)
        object.__setattr__(self, "items", tuple(self.items))
        if self.point is not None:
            object.__setattr__(self, "point", _pt(self.point))
        if self.place is not None:
            object.__setattr__(self, "place", _pt(self.place))

    @property
    def target_ids(self) -> tuple[str, ...]:
        return tuple(m for m, _ in self.targets)

    @property
    def strikes(self) -> int:
        return sum(n for _, n in self.targets)

    def tokens(self):
        t = ["declare", self.model, self.action]
        if self.weapon is not None:
            t.append(f"weapon={self.weapon}")
        if self.spell is not None:
            t.append(f"spell={self.spell}")
        if self.targets:
            t.append("targets=" + ",".join(f"{m}:{n}" for m, n in self.targets))
        if self.point is not None:
            t.append(f"at={fmt_point(self.point)}")
        if self.items:
            t.append("items=" + "|".join(self.items))
        if self.attribute is not None:
            t.append(f"attribute={self.attribute}")
        if self.objective is not None:
            t.append(f"objective={self.objective}")
        if self.knockback is not None:
            t.append(f"knockback={self.knockback!r}")
        if self.place is not None:
            t.append(f"place={fmt_point(self.place)}")
        return t

    @classmethod
    def from_tokens(cls, t):
        pos, kw = split_keywords(t)
        if len(pos) != 2:
            raise ValueError("declare MODEL 'ACTION NAME' [weapon=..] [spell=..] [targets=id:n,..] [at=x,y,z] [knockback=DEG] [place=x,y,z]")
        unknown = set(kw) - {"weapon", "spell", "targets", "at", "items", "attribute", "objective",
                             "knockback", "place"}
        if unknown:
            raise ValueError(f"unknown keys {sorted(unknown)}")
        targets = []
        if kw.get("targets"):
            for part in kw["targets"].split(","):
                m, _, n = part.rpartition(":")
                if not m:
                    raise ValueError(f"a target is id:strikes, not {part!r}")
                targets.append((m, int(n)))
        kb = None
        if "knockback" in kw:
            try:
                kb = float(kw["knockback"])
            except ValueError:
                raise ValueError(f"knockback=DEGREES (CCW from +x), not {kw['knockback']!r}") from None
        return cls(pos[0], pos[1], kw.get("weapon"), kw.get("spell"), tuple(targets),
                   parse_point(kw["at"]) if "at" in kw else None,
                   tuple(kw["items"].split("|")) if kw.get("items") else (),
                   kw.get("attribute"), kw.get("objective"), kb,
                   parse_point(kw["place"]) if "place" in kw else None)


@dataclass(frozen=True)
class Pass(Action):
    """The reactive player declares no (more) reactions in this Reaction Step."""
    side: str
    verb = "pass"

    def tokens(self):
        return ["pass", self.side]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 1:
            raise ValueError("pass SIDE")
        return cls(t[0])


@dataclass(frozen=True)
class Crouch(Action):
    """Crouched as a Reaction: at the start or end of the activated model's
    Movement Step the reactive player enters (on) or cancels (off) the Crouched
    State of some of its models (eldfall-states.txt, "Crouched as a Reaction").

    ``changes``: ((model id, on), ...), at least one (``Pass`` declines).

    >>> str(Crouch("blue", (("b1", True), ("b2", False))))
    'crouch blue b1:on b2:off'
    """
    side: str
    changes: tuple[tuple[str, bool], ...] = ()
    verb = "crouch"

    @property
    def action(self) -> str:
        """Its name among the Reaction Step's choices (a Declare has ``action``)."""
        return "Crouch"

    def __post_init__(self):
        object.__setattr__(self, "changes", tuple((str(m), bool(v)) for m, v in self.changes))

    def tokens(self):
        return ["crouch", self.side] + [f"{m}:{_onoff(v)}" for m, v in self.changes]

    @classmethod
    def from_tokens(cls, t):
        if len(t) < 2:
            raise ValueError("crouch SIDE MODEL:on|off [MODEL:on|off ...]")
        changes = []
        for part in t[1:]:
            m, sep, v = part.rpartition(":")
            if not sep or not m:
                raise ValueError(f"a change is MODEL:on or MODEL:off, not {part!r}")
            changes.append((m, _parse_onoff(v)))
        return cls(t[0], tuple(changes))


@dataclass(frozen=True)
class DodgeMove(Action):
    """After a Dodge resolves: move up to SPD/2 (``path``) and/or change Crouched."""
    model: str
    path: tuple[Point, ...] = ()
    crouch: bool | None = None
    verb = "dodge-move"

    def __post_init__(self):
        object.__setattr__(self, "path", tuple(_pt(p) for p in self.path))

    def tokens(self):
        t = ["dodge-move", self.model] + [fmt_point(p) for p in self.path]
        if self.crouch is not None:
            t.append(f"crouch={_onoff(self.crouch)}")
        return t

    @classmethod
    def from_tokens(cls, t):
        pos, kw = split_keywords(t)
        if not pos or set(kw) - {"crouch"}:
            raise ValueError("dodge-move MODEL [x,y,z ...] [crouch=on|off]")
        return cls(pos[0], tuple(parse_point(p) for p in pos[1:]),
                   _parse_onoff(kw["crouch"]) if "crouch" in kw else None)


@dataclass(frozen=True)
class Turn(Action):
    """After a Hit: the hit model's player turns it to ``facing`` (degrees CCW
    from +x), or keeps its facing (``facing`` None). "A model may also turn when
    it suffers a Hit" (eldfall-facts.md, Line of sight).

    >>> str(Turn("b1", 215.0)), str(Turn("b1"))
    ('turn b1 215.0', 'turn b1 keep')
    """
    model: str
    facing: float | None = None
    verb = "turn"

    def __post_init__(self):
        if self.facing is not None:
            object.__setattr__(self, "facing", _finite_facing(self.facing, "turn MODEL ") % 360.0)

    def tokens(self):
        return ["turn", self.model, "keep" if self.facing is None else repr(self.facing)]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 2:
            raise ValueError("turn MODEL DEGREES|keep")
        if t[1] == "keep":
            return cls(t[0])
        try:
            return cls(t[0], float(t[1]))
        except ValueError:
            raise ValueError(f"turn MODEL DEGREES|keep, not {t[1]!r}") from None


@dataclass(frozen=True)
class DuelAnswer(Action):
    """The challenged player accepts or refuses a Duel."""
    side: str
    accept: bool
    verb = "duel"

    def tokens(self):
        return ["duel", self.side, "accept" if self.accept else "refuse"]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 2 or t[1] not in ("accept", "refuse"):
            raise ValueError("duel SIDE accept|refuse")
        return cls(t[0], t[1] == "accept")


@dataclass(frozen=True)
class EndTurn(Action):
    """The active player stops activating: the End Phase follows."""
    side: str
    verb = "end"

    def tokens(self):
        return ["end", self.side]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 1:
            raise ValueError("end SIDE")
        return cls(t[0])


@dataclass(frozen=True)
class UseStratagem(Action):
    """The active player's Leader uses a Stratagem in the Strategic Phase
    (rules/eldfall/stratagems.py); ``target`` names a model for the Stratagems
    that target one (own or enemy), else None.

    >>> str(UseStratagem("red", "Hold the Line", "r2"))
    "stratagem red 'Hold the Line' target=r2"
    """
    side: str
    name: str
    target: str | None = None
    verb = "stratagem"

    def tokens(self):
        t = ["stratagem", self.side, self.name]
        if self.target is not None:
            t.append(f"target={self.target}")
        return t

    @classmethod
    def from_tokens(cls, t):
        pos, kw = split_keywords(t)
        if len(pos) != 2 or set(kw) - {"target"}:
            raise ValueError("stratagem SIDE 'NAME' [target=MODEL]")
        return cls(pos[0], pos[1], kw.get("target"))


@dataclass(frozen=True)
class StandUp(Action):
    """When a model's Incapacitated State ends, its player may cancel the Crouched
    State it kept (eldfall-states.txt, Incapacitated: "When canceled, the model may
    voluntarily cancel the Crouched State"): ``up`` True stands it up, False keeps
    it Crouched.

    >>> str(StandUp("r1")), str(StandUp("r1", False))
    ('stand r1 up', 'stand r1 stay')
    """
    model: str
    up: bool = True
    verb = "stand"

    def tokens(self):
        return ["stand", self.model, "up" if self.up else "stay"]

    @classmethod
    def from_tokens(cls, t):
        if len(t) != 2 or t[1] not in ("up", "stay"):
            raise ValueError("stand MODEL up|stay")
        return cls(t[0], t[1] == "up")


VERBS = {c.verb: c for c in (ChooseOrder, Activate, Move, Declare, Pass, Crouch, DodgeMove, DuelAnswer,
                             EndTurn, UseStratagem, Turn, StandUp)}
