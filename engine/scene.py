"""Scenes: YAML tables as frozen dataclasses.

All lengths in inches, z up, origin at a table corner, facing in degrees
counter-clockwise from +x. See docs/scene-format.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

TERRAIN_SHAPES = ("box", "cylinder", "wedge", "prism", "heightfield", "mesh")
COVER_TAGS = ("auto", "light", "heavy", "none")


@dataclass(frozen=True)
class Weapon:
    """One weapon of a profile. ``rch`` in inches (melee reach; 0 = base contact).

    ``bands`` is for ranged weapons: ((min_in, max_in, acc_modifier), ...),
    inclusive ranges in ascending order. Beyond the last band: out of range.
    """
    name: str
    kind: str                      # "melee" | "ranged" | "spell"
    rch: float = 0.0
    pw: int = 0
    stk: int = 1
    traits: tuple[str, ...] = ()
    bands: tuple[tuple[float, float, int], ...] = ()
    hands: int = 1


@dataclass(frozen=True)
class Spell:
    name: str
    type: str                      # the five types of the rulebook
    affinity: str = ""
    mana: int = 1
    pw: int = 0
    stk: int = 1
    rng: float = 0.0
    traits: tuple[str, ...] = ()
    effect: str = ""


@dataclass(frozen=True)
class Profile:
    """A model profile from ``models/<party>.yaml`` (SAMPLE data)."""
    ref: str                       # "party#name"
    name: str
    stats: dict[str, int]          # STA SPD ARM HP OFF DEF ACC INT AG T M
    size: str = "M"
    classes: tuple[str, ...] = ()
    traits: tuple[str, ...] = ()
    skills: tuple[str, ...] = ()
    affinities: tuple[str, ...] = ()
    weapons: tuple[Weapon, ...] = ()
    spells: tuple[Spell, ...] = ()
    leader: bool = False
    extra: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class TerrainSpec:
    """One terrain piece as written in the scene.

    ``at`` is the bottom centre (x, y, z). ``size`` is (width x, depth y,
    height z) for box and wedge, (width, depth) for heightfield. ``file`` is
    the resolved absolute path of a mesh, inside the scene's folder.
    """
    id: str
    shape: str
    at: tuple[float, float, float]
    size: tuple[float, ...] | None = None
    radius: float | None = None
    height: float | None = None
    points: tuple[tuple[float, float], ...] | None = None
    heights: tuple[tuple[float, ...], ...] | None = None
    file: str | None = None
    scale: float = 1.0
    turn: float = 0.0
    cover: str = "auto"
    tags: frozenset[str] = frozenset()
    line: int = 0


@dataclass(frozen=True)
class ModelSpec:
    """One model as written in the scene, with its profile resolved.

    ``at`` is (x, y, z) with z None when it stands on the highest walkable
    surface under its base centre. ``stats`` is the profile's stats updated
    with the scene's overrides.
    """
    id: str
    side: str
    base_mm: float
    height_mm: float
    at: tuple[float, float, float | None]
    facing: float = 0.0
    size: str | None = None
    profile: Profile | None = None
    stats: dict[str, int] = field(default_factory=dict, compare=False)
    states: tuple[str, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Scene:
    path: str                      # the scene file ('' for one built in code)
    table: tuple[float, float]     # width (x), depth (y)
    terrain: tuple[TerrainSpec, ...] = ()
    models: tuple[ModelSpec, ...] = ()
    sha256: str = ""
    name: str = ""
    # side -> ((x0, y0), (x1, y1)) deployment rectangle, when the scene says
    deployment: dict[str, tuple[tuple[float, float], tuple[float, float]]] = field(
        default_factory=dict, compare=False)
    games: tuple[str, ...] = ("eldfall",)
