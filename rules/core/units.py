"""Units: the rules' own picture of a model, built by tools from a scene.

Rules never import the engine; ``tools.roster.units_from_scene`` converts the
engine's ``ModelSpec`` + ``Profile`` into these plain dataclasses. All lengths
are inches. Weapons and spells are plain dicts so that the log header can hold
them as JSON:

* weapon: ``{"name", "kind" ("melee"|"ranged"|"spell"), "rch", "pw", "stk",
  "traits": [..], "bands": [[min, max, mod], ..], "hands"}``
* spell: ``{"name", "type", "affinity", "mana", "pw", "stk", "rng", "traits",
  "effect", "target" (enemy|ally|self|any), "melee" (a Melee-Type spell: rng is
  its reach), "template" ("" or circular-s|circular-l|spray-s|spray-l), "bands"}``
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

WEAPON_KEYS = ("name", "kind", "rch", "pw", "stk", "traits", "bands", "hands")
SPELL_KEYS = ("name", "type", "affinity", "mana", "pw", "stk", "rng", "traits", "effect",
              "target", "melee", "template", "bands")


def weapon_dict(name: str, kind: str, rch: float = 0.0, pw: int | str = 0, stk: int = 1,
                traits=(), bands=(), hands: int = 1) -> dict:
    return {"name": str(name), "kind": str(kind), "rch": float(rch), "pw": pw,
            "stk": int(stk), "traits": [str(t) for t in traits],
            "bands": [[float(a), float(b), int(m)] for a, b, m in bands], "hands": int(hands)}


def spell_dict(name: str, type: str, affinity: str = "", mana: int = 1, pw: int | str = 0,
               stk: int = 1, rng: float = 0.0, traits=(), effect: str = "", target: str = "enemy",
               melee: bool = False, template: str = "", bands=()) -> dict:
    return {"name": str(name), "type": str(type), "affinity": str(affinity), "mana": int(mana),
            "pw": pw, "stk": int(stk), "rng": float(rng), "traits": [str(t) for t in traits],
            "effect": str(effect), "target": str(target), "melee": bool(melee),
            "template": str(template), "bands": [[float(a), float(b), int(m)] for a, b, m in bands]}


@dataclass
class Unit:
    id: str
    side: str
    name: str = ""
    size: str = "M"
    base: float = 32 / 25.4          # base diameter, inches
    height: float = 45 / 25.4        # hitbox height, inches
    stats: dict[str, int] = field(default_factory=dict)
    traits: list[str] = field(default_factory=list)
    skills: list[str] = field(default_factory=list)
    classes: list[str] = field(default_factory=list)
    affinities: list[str] = field(default_factory=list)
    weapons: list[dict] = field(default_factory=list)
    spells: list[dict] = field(default_factory=list)
    leader: bool = False
    states: list[str] = field(default_factory=list)
    at: tuple[float, float, float] = (0.0, 0.0, 0.0)
    facing: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = asdict(self)
        d["at"] = [float(v) for v in self.at]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Unit":
        d = dict(d)
        known = set(cls.__dataclass_fields__)
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown unit keys: {sorted(unknown)}")
        if "at" in d:
            d["at"] = tuple(float(v) for v in d["at"])
        return cls(**d)

    def stat(self, name: str, default: int = 0) -> int:
        return int(self.stats.get(name, default))
