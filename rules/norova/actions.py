"""Norova actions: small frozen values with a text form that round-trips.

``parse(str(a)) == a`` for every action. The first word names the action, the
second the acting character::

    wait A1                     end A1
    move A1 walk 3,4,0 5,6,0 face=90      (modes: walk sprint crawl fly climb)
    turn A1 90                  stand A1
    attack A1 B2 main skill=twin_strike aid=A2/main/twin_strike;A3/off/-
    throw A1 healing_potion A2  (throwing a potion: the attack action)
    potion A1 healing_potion A2 equip A1 main=longsword off=-
    reload A1                   focus A1 B2
    skill A1 hide               skill A1 second_wind
    cast A1 firebolt B2 aid=A3/frost_shard       cast A1 flame_burst -
    perceive A1 B2
    aoo B2 A1 main skill=power_strike     (the blow of an Attack of Opportunity that hit:
                                           B2's choice, plain or with a skill)
"""
from __future__ import annotations

import math

from dataclasses import dataclass
from typing import ClassVar
from rules.core.text import split_keywords

Point = tuple[float, float, float]
MOVE_MODES = ("walk", "sprint", "crawl", "fly", "climb")
HANDS = ("main", "off", "dual")


def num(x: float) -> str:
    """Shortest text that reads back as the same float (``3`` for 3.0)."""
    x = float(x)
    if math.isfinite(x) and abs(x) < 1e15 and x == int(x):
        return str(int(x))
    return repr(x)            # also nan and inf: an illegal action must still print


def _pt(p: Point) -> str:
    return ",".join(num(v) for v in p)


def _parse_pt(text: str) -> Point:
    parts = text.split(",")
    if len(parts) != 3:
        raise ValueError(f"a point is x,y,z, not {text!r}")
    try:
        return tuple(float(v) for v in parts)  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"a point is x,y,z in inches, not {text!r}") from None


def _parse_degrees(text: str, word: str) -> float:
    """A facing in degrees (the words' own message, not Python's "could not convert")."""
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{word}: the facing is a number of degrees, not {text!r}") from None


def _opt(v: str | None) -> str:
    return "-" if v is None else v


def _unopt(v: str) -> str | None:
    return None if v == "-" else v


@dataclass(frozen=True)
class Action:
    actor: str
    slot: ClassVar[str | None] = None
    word: ClassVar[str] = ""

    def __str__(self) -> str:
        return f"{self.word} {self.actor}"


@dataclass(frozen=True)
class Wait(Action):
    word: ClassVar[str] = "wait"


@dataclass(frozen=True)
class EndTurn(Action):
    word: ClassVar[str] = "end"


@dataclass(frozen=True)
class Move(Action):
    mode: str = "walk"
    route: tuple[Point, ...] = ()
    facing: float | None = None
    slot: ClassVar[str] = "move"
    word: ClassVar[str] = "move"

    def __str__(self) -> str:
        s = f"move {self.actor} {self.mode} " + " ".join(_pt(p) for p in self.route)
        return s + ("" if self.facing is None else f" face={num(self.facing)}")


@dataclass(frozen=True)
class Turn(Action):
    facing: float = 0.0
    slot: ClassVar[str] = "move"
    word: ClassVar[str] = "turn"

    def __str__(self) -> str:
        return f"turn {self.actor} {num(self.facing)}"


@dataclass(frozen=True)
class Stand(Action):
    slot: ClassVar[str] = "move"
    word: ClassVar[str] = "stand"


@dataclass(frozen=True)
class Aid:
    ally: str
    hand: str | None = "main"      # attack: main | off | dual ; magic: None
    skill: str | None = None       # attack: a skill ; magic: the spell

    def text(self, magic: bool = False) -> str:
        if magic:
            return f"{self.ally}/{self.skill}"
        return f"{self.ally}/{self.hand}/{_opt(self.skill)}"


@dataclass(frozen=True)
class Attack(Action):
    target: str = ""
    hand: str = "main"
    skill: str | None = None
    aid: tuple[Aid, ...] = ()
    slot: ClassVar[str] = "attack"
    word: ClassVar[str] = "attack"

    def __str__(self) -> str:
        s = f"attack {self.actor} {self.target} {self.hand}"
        if self.skill:
            s += f" skill={self.skill}"
        if self.aid:
            s += " aid=" + ";".join(a.text() for a in self.aid)
        return s


@dataclass(frozen=True)
class ThrowPotion(Action):
    item: str = ""
    to: str = ""
    slot: ClassVar[str] = "attack"
    word: ClassVar[str] = "throw"

    def __str__(self) -> str:
        return f"throw {self.actor} {self.item} {self.to}"


@dataclass(frozen=True)
class UsePotion(Action):
    item: str = ""
    target: str = ""
    slot: ClassVar[str] = "support"
    word: ClassVar[str] = "potion"

    def __str__(self) -> str:
        return f"potion {self.actor} {self.item} {self.target}"


@dataclass(frozen=True)
class Equip(Action):
    main: str | None = None
    off: str | None = None
    slot: ClassVar[str] = "support"
    word: ClassVar[str] = "equip"

    def __str__(self) -> str:
        return f"equip {self.actor} main={_opt(self.main)} off={_opt(self.off)}"


@dataclass(frozen=True)
class Reload(Action):
    slot: ClassVar[str] = "support"
    word: ClassVar[str] = "reload"


@dataclass(frozen=True)
class Focus(Action):
    target: str = ""
    slot: ClassVar[str] = "support"
    word: ClassVar[str] = "focus"

    def __str__(self) -> str:
        return f"focus {self.actor} {self.target}"


@dataclass(frozen=True)
class UseSkill(Action):
    skill: str = ""
    slot: ClassVar[str] = "support"
    word: ClassVar[str] = "skill"

    def __str__(self) -> str:
        return f"skill {self.actor} {self.skill}"


@dataclass(frozen=True)
class Cast(Action):
    spell: str = ""
    target: str | None = None
    aid: tuple[Aid, ...] = ()
    slot: ClassVar[str] = "magic"
    word: ClassVar[str] = "cast"

    def __str__(self) -> str:
        s = f"cast {self.actor} {self.spell} {_opt(self.target)}"
        if self.aid:
            s += " aid=" + ";".join(a.text(magic=True) for a in self.aid)
        return s


@dataclass(frozen=True)
class Perceive(Action):
    target: str = ""
    word: ClassVar[str] = "perceive"

    def __str__(self) -> str:
        return f"perceive {self.actor} {self.target}"


@dataclass(frozen=True)
class AooAttack(Action):
    """The blow of an Attack of Opportunity whose hit check succeeded, chosen by the
    attacking character (the defending side): plain or with an attack skill (seed
    "Attack of Opportunity": "Skills can be used in an Attack of Opportunity but not
    spells"). It takes none of the attacker's action slots."""
    target: str = ""
    hand: str = "main"
    skill: str | None = None
    word: ClassVar[str] = "aoo"

    def __str__(self) -> str:
        return f"aoo {self.actor} {self.target} {self.hand}" + (f" skill={self.skill}" if self.skill else "")


ACTION_TYPES = {c.word: c for c in (Wait, EndTurn, Move, Turn, Stand, Attack, ThrowPotion, UsePotion,
                                    Equip, Reload, Focus, UseSkill, Cast, Perceive, AooAttack)}


def _no_extra(kw: dict, allowed: tuple[str, ...], word: str) -> None:
    bad = set(kw) - set(allowed)
    if bad:
        raise ValueError(f"{word}: unknown option(s) {', '.join(sorted(bad))}")


def parse(text: str) -> Action:
    """An action from its text form; ``ValueError`` saying what is wrong."""
    words = text.split()
    if len(words) < 2:
        raise ValueError(f"an action is '<word> <character> ...', not {text!r}")
    word, actor, rest = words[0], words[1], words[2:]
    cls = ACTION_TYPES.get(word)
    if cls is None:
        raise ValueError(f"unknown action {word!r} (known: {', '.join(ACTION_TYPES)})")
    pos, kw = split_keywords(rest)

    def need(n: int) -> None:
        if len(pos) != n:
            raise ValueError(f"{word}: expected {n} argument(s) after the character, got {len(pos)}")

    if cls in (Wait, EndTurn, Stand, Reload):
        need(0)
        _no_extra(kw, (), word)
        return cls(actor)
    if cls is Move:
        _no_extra(kw, ("face",), word)
        if len(pos) < 2:
            raise ValueError("move: expected a mode and at least one point")
        if pos[0] not in MOVE_MODES:
            raise ValueError(f"move: unknown mode {pos[0]!r} (known: {', '.join(MOVE_MODES)})")
        face = _parse_degrees(kw["face"], word) if "face" in kw else None
        return Move(actor, pos[0], tuple(_parse_pt(p) for p in pos[1:]), face)
    if cls is Turn:
        need(1)
        _no_extra(kw, (), word)
        return Turn(actor, _parse_degrees(pos[0], word))
    if cls is Attack:
        need(2)
        _no_extra(kw, ("skill", "aid"), word)
        if pos[1] not in HANDS:
            raise ValueError(f"attack: unknown hand {pos[1]!r} (known: {', '.join(HANDS)})")
        aid = ()
        if "aid" in kw:
            items = []
            for part in kw["aid"].split(";"):
                bits = part.split("/")
                if len(bits) != 3 or bits[1] not in HANDS:
                    raise ValueError(f"attack: aid is ally/hand/skill, not {part!r}")
                items.append(Aid(bits[0], bits[1], _unopt(bits[2])))
            aid = tuple(items)
        return Attack(actor, pos[0], pos[1], kw.get("skill"), aid)
    if cls is AooAttack:
        need(2)
        _no_extra(kw, ("skill",), word)
        if pos[1] not in HANDS:
            raise ValueError(f"aoo: unknown hand {pos[1]!r} (known: {', '.join(HANDS)})")
        return AooAttack(actor, pos[0], pos[1], kw.get("skill"))
    if cls is ThrowPotion:
        need(2)
        _no_extra(kw, (), word)
        return ThrowPotion(actor, pos[0], pos[1])
    if cls is UsePotion:
        need(2)
        _no_extra(kw, (), word)
        return UsePotion(actor, pos[0], pos[1])
    if cls is Equip:
        need(0)
        _no_extra(kw, ("main", "off"), word)
        return Equip(actor, _unopt(kw.get("main", "-")), _unopt(kw.get("off", "-")))
    if cls is Focus:
        need(1)
        _no_extra(kw, (), word)
        return Focus(actor, pos[0])
    if cls is UseSkill:
        need(1)
        _no_extra(kw, (), word)
        return UseSkill(actor, pos[0])
    if cls is Cast:
        need(2)
        _no_extra(kw, ("aid",), word)
        aid = ()
        if "aid" in kw:
            items = []
            for part in kw["aid"].split(";"):
                bits = part.split("/")
                if len(bits) != 2:
                    raise ValueError(f"cast: aid is ally/spell, not {part!r}")
                items.append(Aid(bits[0], None, bits[1]))
            aid = tuple(items)
        return Cast(actor, pos[0], _unopt(pos[1]), aid)
    if cls is Perceive:
        need(1)
        _no_extra(kw, (), word)
        return Perceive(actor, pos[0])
    raise ValueError(f"cannot parse {text!r}")  # pragma: no cover
