"""The geometry questions a game may ask, as a Protocol.

The rules never import the engine. ``engine.geometry.WorldGeometry`` implements
this protocol over ``engine.World``; tests of a single rule may use a small
hand-made fake. All lengths are inches; points are (x, y, z) tuples.

Movement: ``mode`` is "walk" | "run" | "climb" | "jump"; ``waypoints`` is the
route after the model's current position (the last one is the end); ``speed``
is the model's modified SPD in inches (states applied by the rules); the
geometry applies the mode's allowance (walk SPD, run 2 x SPD, climb and jump
SPD/2 rounded up). ``enemies`` maps each enemy
model id to its longest melee reach in inches: the route may not pass through
an enemy, stops at base contact with one (``stopped_by``), and
``opportunity_points`` lists where it enters each enemy's reach.
``mode`` "push" is a forced displacement (Knockback): the model is moved, it
does not move itself, so its States do not restrict it, it has no allowance
and provokes nothing; ``speed`` is its modified SPD for the AG rolls of a fall
only. One waypoint, straight. Where a walk could go (free climbing), it goes
as a walk; else straight across at its level: scenery stops it (it ends against
it), an enemy at base contact (``stopped_by``); over a drop it goes on across
and falls at the end onto the surface under its base (``falls``; each
fall's ``at`` is where it lands, on the route). Illegal only
where it would end off the table or inside a model: the rules shorten it.
``rules.core.flat.FlatGeometry`` is a pure-Python implementation for an open
flat table (with optional box obstacles), used by unit tests.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Protocol, Sequence

Point = tuple[float, float, float]


class Sight(Protocol):
    los: bool
    visible_fraction: float
    in_front_arc: bool
    distance: float
    height_difference: float
    cover: str                 # "none" | "light" | "heavy"
    cover_piece: str | None


class PathSight(Protocol):
    observer: str
    had_los: bool
    first: Point | None        # first point of the path where the observer had LoS
    last: Point | None
    entered_awareness: bool
    awareness_point: Point | None
    seen: Sequence[Point]      # the sampled path points where the observer had LoS (in order)


class Fall(Protocol):
    height: float
    rolls: int
    at: Point | None           # where it lands: its (x, y) lie on the route (a fall along a
                               # route is placed by it, e.g. against an Attack of Opportunity's
                               # stop); None: not known (a game may take it for the route's end)


class Step(Protocol):
    """A change of level the route makes at once (a step up or down, not a slope)."""
    height: float              # inches: + up, - down
    at: Point                  # the route's point just before it
    piece: str | None          # the scenery on its higher side (None: the table, or not known)


class MoveCheck(Protocol):
    legal: bool
    reason: str
    distance: float
    allowance: float
    end: Point
    falls: Sequence[Fall]
    ends_on_vertical: bool
    opportunity_points: Sequence[tuple[str, Point]]   # (enemy id, where the path enters its reach)
    stopped_by: str | None     # enemy whose base contact ended the move early
    steps: Sequence[Step]      # the route's changes of level at once, in order (a game's own step
                               # height may call for a climb; a geometry that knows none: empty)
    dangerous: Sequence[str]   # the Dangerous areas the base touched on the way, in order


class TemplateHit(Protocol):
    id: str
    covered_fraction: float
    in_band: bool
    los_from_origin: bool
    count: int                 # how many templates hit it


class TemplateCheck(Protocol):
    legal: bool
    reason: str
    target_fully_covered: bool
    affected: Sequence[TemplateHit]


class Geometry(Protocol):
    # state of the table, kept in step by the rules
    def model_ids(self) -> list[str]: ...
    def position(self, model: str) -> Point: ...
    def facing(self, model: str) -> float: ...
    def place(self, model: str, point: Point, facing: float | None = None) -> None: ...
    def set_facing(self, model: str, facing: float) -> None: ...
    def set_states(self, model: str, states: Iterable[str]) -> None: ...
    def set_awareness(self, model: str, ag: float | None) -> None:
        """The AG the model's Awareness is measured with from now on (None: its
        profile's); Acute Senses still adds its 3"."""
        ...
    def set_engaged_tolerance(self, degrees: float) -> None:
        """The angle an Engaged model's Walk may stray from the line to its engager
        ("directly toward"), for the geometry's own path check: one number for
        the rules and the table."""
        ...
    def set_walk_drop(self, height: float | None) -> None:
        """The deepest drop a walk steps down in the geometry's own path check, for
        rules that judge a jump down themselves (as a fall): None, the table's
        own rule (no deeper than the step it climbs for free); math.inf, any."""
        ...
    def remove(self, model: str) -> None: ...

    # sight
    def sight(self, viewer: str, target: str, *, moving: bool = False,
              fraction: bool = False, models_block: bool = True) -> Sight:
        """LoS from viewer to target. ``fraction=False`` answers yes/no only
        (stops at the first clear ray; ``cover`` is then "none"); ask with
        ``fraction=True`` wherever cover or the visible share matters.
        ``models_block=False``: sight over the scenery only (no third model
        blocks; everything else, arcs and states included, as ever)."""
        ...
    def through_forest(self, viewer: str, target: str, *, moving: bool = False) -> bool:
        """True when the viewer sees the target but every line of sight between them
        crosses a Forest area (a ranged attack "through" a Forest: eldfall-facts.md,
        Environments, "ranged -3 through or within"); False without LoS."""
        ...
    def sight_estimate(self, viewer: str, target: str, *, moving: bool = False,
                       fraction: bool = True) -> Sight:
        """A planner's quick guess of ``sight(viewer, target, moving=moving,
        fraction=fraction)`` (LoS; with ``fraction`` also the visible share and
        cover): bots weigh positions with it. Never a ruling: the rules
        themselves always ask ``sight``."""
        ...
    def sight_along_path(self, mover: str, path: Sequence[Point],
                         observers: Sequence[str]) -> list[PathSight]: ...

    # measuring
    def distance(self, a: str, b: str) -> float: ...
    def base_contact(self, a: str, b: str) -> bool: ...
    def in_awareness(self, observer: str, other: str, extra: float = 0.0) -> bool: ...
    def in_reach(self, a: str, b: str, rch: float) -> bool: ...
    def environments(self, model: str) -> frozenset[str]: ...

    # movement
    def check_move(self, model: str, mode: str, waypoints: Sequence[Point],
                   speed: float, *, enemies: Mapping[str, float] | None = None) -> MoveCheck:
        """A declared route for ``mode``: "walk", "run", "climb", "jump", "push"
        (a Knockback: see the module's text), or "fly"
        (over scenery and models, measured on the horizontal, ending on the
        highest surface under the base; a game's own Flying state flies its
        walks and runs already)."""
        ...
    def reachable_points(self, model: str, mode: str, speed: float,
                         limit: int = 64, *,
                         enemies: Mapping[str, float] | None = None,
                         checked: bool = True) -> list[Point]: ...

    def drop(self, model: str, speed: float) -> Fall: ...   # falls to the surface below it

    # scenario objects and summons
    def touches(self, model: str, piece: str) -> bool: ...          # base contact with a terrain piece
    def free_spot(self, model: str, point: Point, radius: float, height: float) -> bool: ...
    def add_model(self, unit, point: Point, facing: float = 0.0) -> None: ...   # a rules Unit

    # templates
    def template(self, kind: str, *, user: str, target: str | None = None,
                 at: Point | None = None, aim: Point | None = None,
                 band: str = "up", count: int = 1) -> TemplateCheck: ...
    def best_template(self, kind: str, *, user: str, target: str,
                      band: str = "up") -> TemplateCheck: ...

    # points on the surface (hidden tokens: a Spell or Item on the field)
    def ground(self, x: float, y: float) -> Point:
        """(x, y, z) with z the highest surface under (x, y) (the table: 0)."""
        ...
    # optional: ``ground_many(points) -> list[Point]``, ``ground`` of many (x, y) at once
    # (the Norova walk planner asks the whole table in one call where it is there)
    def point_distance(self, model: str, point: Point) -> float:
        """Closest distance from the model's hitbox to ``point`` (3D, inches;
        a Flying model measured on the surface, as ``distance``)."""
        ...
    def point_in_awareness(self, observer: str, point: Point, extra: float = 0.0) -> bool:
        """``point`` within the observer's Awareness (AG, +3" Acute Senses) of its
        base edge, plus ``extra`` (a token's radius: touching counts)."""
        ...
    def point_sight(self, viewer: str, point: Point, radius: float = 0.0) -> bool:
        """LoS from the viewer's hitbox to a token lying at ``point`` (a disc of
        ``radius``): terrain and other models block; the token must be in the
        viewer's Front arc unless the viewer sees all around (Shrouded,
        Vigilance, Flying). Blinded is the rules' business."""
        ...


# -- plain answer records an implementation may return (the Protocols above
#    describe what the rules read; these are the shared concrete forms)
@dataclass
class SightAnswer:
    los: bool
    visible_fraction: float
    in_front_arc: bool
    distance: float
    height_difference: float
    cover: str = "none"
    cover_piece: str | None = None


@dataclass
class PathSightAnswer:
    observer: str
    had_los: bool
    first: Point | None
    last: Point | None
    entered_awareness: bool
    awareness_point: Point | None
    seen: list = field(default_factory=list)


@dataclass
class FallAnswer:
    height: float
    rolls: int
    at: Point | None = None    # where it lands (None: not known)


@dataclass
class MoveAnswer:
    legal: bool
    reason: str
    distance: float
    allowance: float
    end: Point
    falls: list = field(default_factory=list)
    ends_on_vertical: bool = False
    opportunity_points: list = field(default_factory=list)
    stopped_by: str | None = None
    path: list = field(default_factory=list)
    steps: list = field(default_factory=list)     # StepAnswer records
    dangerous: list = field(default_factory=list)  # Dangerous areas the base touched on the way, in order


@dataclass
class StepAnswer:
    height: float
    at: Point
    piece: str | None = None


@dataclass
class TemplateHitAnswer:
    id: str
    covered_fraction: float
    in_band: bool
    los_from_origin: bool
    count: int = 1


@dataclass
class TemplateAnswer:
    legal: bool
    reason: str
    target_fully_covered: bool
    affected: list = field(default_factory=list)
