"""Pure Norova mechanics: arcs, checks, damage, areas, route sampling.

No dice and no geometry object here: the game rolls and asks the geometry,
then calls these functions with numbers. Lengths in inches, angles in degrees
counter-clockwise from +x.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

Point = tuple[float, float, float]


# ---- facing ------------------------------------------------------------
def relative_angle(origin_xy: Sequence[float], facing: float, other_xy: Sequence[float]) -> float:
    """Angle in degrees (0..180) between ``facing`` at ``origin`` and the direction to ``other``."""
    dx, dy = other_xy[0] - origin_xy[0], other_xy[1] - origin_xy[1]
    if abs(dx) < 1e-12 and abs(dy) < 1e-12:
        return 0.0
    bearing = math.degrees(math.atan2(dy, dx))
    d = (bearing - facing + 180.0) % 360.0 - 180.0
    return abs(d)


def arc_of(defender_xy, defender_facing: float, attacker_xy, front_half: float, rear_half: float) -> str:
    """The defender's arc that the attacker stands in: "front" | "side" | "rear".

    Boundaries belong to the front and the rear (a bearing of exactly
    ``front_half`` is front).
    """
    a = relative_angle(defender_xy, defender_facing, attacker_xy)
    if a <= front_half + 1e-9:
        return "front"
    if a >= 180.0 - rear_half - 1e-9:
        return "rear"
    return "side"


def facing_towards(origin_xy, other_xy) -> float:
    dx, dy = other_xy[0] - origin_xy[0], other_xy[1] - origin_xy[1]
    return math.degrees(math.atan2(dy, dx)) % 360.0


# ---- checks ------------------------------------------------------------
@dataclass(frozen=True)
class CheckResult:
    natural: int
    total: int
    target: int
    success: bool
    critical: str | None          # "success" | "failure" | None

    def to_dict(self) -> dict:
        return {"natural": self.natural, "total": self.total, "target": self.target,
                "success": self.success, "critical": self.critical}


def trait_check(natural: int, bonus: int, target: int) -> CheckResult:
    """A trait check or save: natural 20 always succeeds, natural 1 always fails."""
    total = natural + bonus
    if natural == 20:
        return CheckResult(natural, total, target, True, "success")
    if natural == 1:
        return CheckResult(natural, total, target, False, "failure")
    return CheckResult(natural, total, target, total >= target, None)


# ---- damage ------------------------------------------------------------
def power_term(power: int, hand: str, two_handed: bool, multiplier: int,
               off_fraction: float = 0.5, two_handed_times: int = 2) -> int:
    """The Offensive/Bow/Runic Power part of a strike.

    ``hand``: "main" (dominant) | "off" (non-dominant: half, rounded down) |
    "bow" (always dominant) | "spell". A two-handed weapon adds the power
    ``two_handed_times``. ``multiplier``: 1, or the critical's 2 or 3.
    """
    if two_handed:
        base = power * two_handed_times
    elif hand == "off":
        base = int(math.floor(power * off_fraction))
    else:
        base = power
    return base * multiplier


def critical_multiplier(skill_crit: bool, crit_check: str | None, data_crit: dict) -> int:
    """The power multiplier from a skill's natural 20 and the critical hit check.

    ``crit_check``: None (failed), "crit" (success), "double" (natural 20, no
    deathblow). Doubling and tripling do not stack unless the data says so.
    """
    mults = []
    if skill_crit:
        mults.append(int(data_crit["skill_crit_power_multiplier"]))
    if crit_check == "crit":
        mults.append(int(data_crit["crit_power_multiplier"]))
    elif crit_check == "double":
        mults.append(int(data_crit["double_crit_power_multiplier"]))
    if not mults:
        return 1
    if data_crit.get("multipliers_stack"):
        return math.prod(mults)
    return max(mults)


def reduced_evade(evade: int, focus_reduction: int, arc_modifier: int, floor_after_focus: int = 1,
                  other: int = 0) -> int:
    """The defender's Evade for one attack.

    A Focused attack lowers Evade by the focuser's Focus + 1, not below
    ``floor_after_focus`` (seed: "minimum 1"), and never raises it (an Evade
    already under the floor stays as it is); the facing modifier (0 / -2 / -5)
    applies after it.
    """
    e = evade
    if focus_reduction > 0:
        e = max(min(evade, floor_after_focus), e - focus_reduction)
    return e + arc_modifier + other


# ---- distances between hitboxes ------------------------------------------
def cylinder_distance(pa: Sequence[float], ra: float, ha: float,
                      pb: Sequence[float], rb: float, hb: float) -> float:
    """Closest distance between two vertical cylinders standing at base centres ``pa``, ``pb``."""
    horiz = math.hypot(pb[0] - pa[0], pb[1] - pa[1]) - ra - rb
    horiz = max(0.0, horiz)
    za0, za1 = pa[2], pa[2] + ha
    zb0, zb1 = pb[2], pb[2] + hb
    vert = max(0.0, zb0 - za1, za0 - zb1)
    return math.hypot(horiz, vert)


def route_samples(points: Sequence[Point], step: float) -> list[tuple[float, Point]]:
    """Points along a polyline every ``step`` inches (and every corner): ``(s, point)``."""
    out: list[tuple[float, Point]] = [(0.0, tuple(map(float, points[0])))]
    s = 0.0
    for a, b in zip(points[:-1], points[1:]):
        seg = math.dist(a[:2], b[:2])
        n = max(1, int(math.ceil(seg / step))) if seg > 0 else 0
        for i in range(1, n + 1):
            t = i / n
            p = tuple(float(a[k] + (b[k] - a[k]) * t) for k in range(3))
            out.append((s + seg * t, p))
        s += seg
    return out


def route_length(points: Sequence[Point]) -> float:
    return sum(math.dist(a[:2], b[:2]) for a, b in zip(points[:-1], points[1:]))


def segment_hits(a_xy, b_xy, centres: dict[str, Sequence[float]], radii: dict[str, float],
                 width: float = 0.0, bands: dict[str, tuple[float, float]] | None = None,
                 a_band: tuple[float, float] | None = None,
                 b_band: tuple[float, float] | None = None) -> list[tuple[float, str]]:
    """Models whose base circle meets the segment a->b: ``(distance along, id)`` sorted.

    With ``bands`` (each model's hitbox from its base to its top, inches up) and the
    bands of the segment's two ends, the path is the space between the two ends'
    hitboxes (its bottom and its top run straight from one end to the other): a model
    is on it only where its base meets the line *and* its own band meets the path's
    there (a character on a ledge above the path, or in a pit below it, is not on it).
    """
    ax, ay = a_xy[0], a_xy[1]
    dx, dy = b_xy[0] - ax, b_xy[1] - ay
    L2 = dx * dx + dy * dy
    out = []
    for mid, c in centres.items():
        if L2 == 0:
            t = 0.0
        else:
            t = max(0.0, min(1.0, ((c[0] - ax) * dx + (c[1] - ay) * dy) / L2))
        px, py = ax + t * dx, ay + t * dy
        R = radii[mid] + width + 1e-9
        if math.hypot(c[0] - px, c[1] - py) > R:
            continue
        if bands is not None and a_band is not None and b_band is not None and mid in bands:
            # the part of the line [t0, t1] where the base circle meets it
            if L2 == 0:
                t0, t1 = 0.0, 1.0
            else:
                ex, ey = ax - c[0], ay - c[1]
                bq = (dx * ex + dy * ey) / L2
                cq = (ex * ex + ey * ey - R * R) / L2
                root = math.sqrt(max(0.0, bq * bq - cq))
                t0, t1 = max(0.0, -bq - root), min(1.0, -bq + root)
            lo, hi = bands[mid]
            # the path's bottom (a_band[0] -> b_band[0]) at or below the model's top, and
            # its top (a_band[1] -> b_band[1]) at or above the model's base
            for z0, z1, limit, below in ((a_band[0], b_band[0], hi, True), (a_band[1], b_band[1], lo, False)):
                slope = z1 - z0
                if abs(slope) < 1e-12:
                    if (z0 > limit + 1e-9) if below else (z0 < limit - 1e-9):
                        t0, t1 = 1.0, 0.0
                    continue
                edge = (limit - z0) / slope
                if (slope > 0) == below:
                    t1 = min(t1, edge)
                else:
                    t0 = max(t0, edge)
            if t0 > t1 + 1e-9:
                continue
        out.append((t * math.sqrt(L2), mid))
    return sorted(out)
