"""Area templates (AoE): circles and sprays, their coverage and a placement search.

Units are inches, z up. The template dimensions come from
``engine/data/templates.yaml`` (millimetres, as printed in the book).

* A **circle** is a disc lying on the main target's surface (or, Targetless, on
  the surface under ``at``). It reaches models ``band_in`` (3") above and below
  that surface, and only those with LoS from its centre, raised
  ``settings.centre_lift`` above the surface (default: the sight settings'
  ``template_centre_raise_in``, so templates and ``engine.sight`` agree). A
  centre over a crate or up a slope beside the target rests on its top
  (``card_surface``); one inside scenery rising above the band is refused.
  With ``settings.circle_card = "hold"`` the card is held flat at the target's
  level instead: its centre stays there, and one inside scenery is refused.
* A **spray** is a teardrop: the convex hull of a small circle whose edge
  touches the user's base and a large circle at the far end, along the aim
  (the axis passes through the centre of the user's base). It reaches models
  5" above (``band="up"``: [surface, surface + 5]) or below (``"down"``:
  [surface - 5, surface]) the user's surface; LoS runs from the user.

Every model whose hitbox is at least partly covered, or touching, within the
band and with LoS, is affected; the user never is. The main target must be
fully covered (its whole base footprint inside the outline) and in the band,
or the placement is illegal and ``reason`` says why.

The geometric tests use exact signed distance functions of the outline
(vectorised numpy); the covered fraction uses the exact lens area for a circle
and the shapely outline polygon for a spray.

    >>> res = evaluate(world, [place_circle(world, "circle-s", target="blue-1")],
    ...                target="blue-1", user="red-1")
    >>> res.legal, [h.id for h in res.affected]
"""
from __future__ import annotations

import functools
import math
import time
import weakref
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Sequence

import numpy as np

from engine.errors import InputError, Problem
from engine.units import DATA, mm

KINDS = ("circle", "spray")
BANDS = ("up", "down", "both")
# where a circle's card lies when its centre is over scenery beside the main target: resting
# on the scenery's top, or held flat at the target's level (TemplateSettings.circle_card)
CARDS = ("rest", "hold")
TEMPLATES_FILE = DATA / "templates.yaml"
# states in which a model is still on the table but never counts for or against a template
_GONE_STATES = frozenset({"Dead"})
_ALL_ROUND_TRAITS = frozenset({"vigilance"})
_PRINTED = 2        # decimals of the circle centres and spray aim points the search proposes
# the templates of the book (eldfall-actions.txt, AoE table): a templates file must keep them
BOOK_TEMPLATES = {"circle-s": "circle", "circle-l": "circle", "spray-s": "spray", "spray-l": "spray"}
# the largest dimensions a templates file may give: millimetres (a template larger than a
# table) and inches of height band
MAX_TEMPLATE = {"mm": 1000.0, "in": 100.0}


# --------------------------------------------------------------------------- data
@dataclass(frozen=True)
class TemplateSpec:
    """One template's dimensions in inches.

    circle: ``diameter``. spray: ``length`` (tip at the user's base to the far
    end), ``narrow`` and ``wide`` (diameters of the two end circles).
    ``band`` is the reach above/below the reference surface, inches.
    """
    key: str
    kind: str
    name: str
    band: float
    diameter: float = 0.0
    length: float = 0.0
    narrow: float = 0.0
    wide: float = 0.0

    @property
    def radius(self) -> float:
        return self.diameter / 2.0

    def scaled(self, factor: float) -> "TemplateSpec":
        """The same template enlarged (factor > 1) about its anchor (centre / tip)."""
        return replace(self, diameter=self.diameter * factor, length=self.length * factor,
                       narrow=self.narrow * factor, wide=self.wide * factor)


def _problem(path: str, line: int | None, key: str, msg: str) -> Problem:
    return Problem(path, line, key, msg)


def parse_templates(data, path: str = str(TEMPLATES_FILE), lines=None) -> dict[str, TemplateSpec]:
    """Validate the mapping of a templates file; raise InputError naming every problem
    (at its line, given the file's ``lines``: ``engine.validate.Lines``)."""
    problems: list[Problem] = []

    def line(*keys) -> int | None:
        return None if lines is None else lines.of(keys)
    if not isinstance(data, dict) or not data:
        raise InputError(_problem(path, line(), "", "expected a mapping of template names"))
    out: dict[str, TemplateSpec] = {}
    need = {"circle": ("diameter_mm", "band_in"), "spray": ("length_mm", "narrow_mm", "wide_mm", "band_in")}
    for key, entry in data.items():
        if not isinstance(entry, dict):
            problems.append(_problem(path, line(key), str(key), "expected a mapping"))
            continue
        kind = entry.get("kind")
        if kind not in KINDS:
            problems.append(_problem(path, line(key, "kind"), f"{key}.kind",
                                     f"{kind!r} is not one of {', '.join(KINDS)}"))
            continue
        vals = {}
        for f in need[kind]:
            v = entry.get(f)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v > 0 or not math.isfinite(v):
                problems.append(_problem(path, line(key, f), f"{key}.{f}", f"must be a positive number, got {v!r}"))
            elif v > MAX_TEMPLATE[f[-2:]]:
                # (a template larger than any table: the placement search would never end)
                problems.append(_problem(path, line(key, f), f"{key}.{f}",
                                         f"must be at most {MAX_TEMPLATE[f[-2:]]:g}, got {v:g}"))
            else:
                vals[f] = float(v)
        extra = set(entry) - set(need[kind]) - {"kind", "name"}
        for f in sorted(extra, key=str):
            problems.append(_problem(path, line(key, f), f"{key}.{f}",
                                     f"unknown key (allowed: kind, name, {', '.join(need[kind])})"))
        if len(vals) != len(need[kind]):
            continue
        name = str(entry.get("name", key))
        if kind == "circle":
            out[key] = TemplateSpec(key, kind, name, vals["band_in"], diameter=mm(vals["diameter_mm"]))
        else:
            length, narrow, wide = vals["length_mm"], vals["narrow_mm"], vals["wide_mm"]
            if narrow > wide:
                problems.append(_problem(path, line(key, "narrow_mm"), f"{key}.narrow_mm", "must not exceed wide_mm"))
                continue
            if length <= wide:
                problems.append(_problem(path, line(key, "length_mm"), f"{key}.length_mm",
                                         "must exceed wide_mm (a teardrop)"))
                continue
            out[key] = TemplateSpec(key, kind, name, vals["band_in"], length=mm(length),
                                    narrow=mm(narrow), wide=mm(wide))
    if problems:
        raise InputError(problems)
    return out


@functools.lru_cache(maxsize=None)
def _load(path: str) -> dict[str, TemplateSpec]:
    # as a scene is read: a regular file, safe_load, duplicate keys refused, lines kept
    from engine.validate import read_yaml
    data, lines, _ = read_yaml(path)
    specs = parse_templates(data, path, lines)
    # the four of the book, which spells, weapons and the rules engine name (Circular S ...)
    book = ", ".join(BOOK_TEMPLATES)
    wrong = [_problem(path, lines.of(()), key, f"missing: a templates file keeps the book's four ({book})")
             for key in BOOK_TEMPLATES if key not in specs]
    wrong += [_problem(path, lines.of((key, "kind")), f"{key}.kind", f"must be {kind} (the book's {key})")
              for key, kind in BOOK_TEMPLATES.items() if key in specs and specs[key].kind != kind]
    if wrong:
        raise InputError(wrong)
    return specs


def template_specs(path: str | Path | None = None) -> dict[str, TemplateSpec]:
    """Every template in the data file, by key (``circle-s`` ...)."""
    return dict(_load(str(path or TEMPLATES_FILE)))


def template_spec(key: str | TemplateSpec) -> TemplateSpec:
    if isinstance(key, TemplateSpec):
        return key
    specs = template_specs()
    if key in specs:
        return specs[key]
    # the book's and the party files' spellings too: "Circular S", "circular-s" (a spell's
    # ``template``), "SPRAY-L", "spray_l"
    norm = "-".join(str(key).strip().lower().replace("_", " ").replace("-", " ").split())
    norm = norm.replace("circular", "circle")
    for k, sp in specs.items():
        if norm == k or norm == "-".join(sp.name.lower().replace("circular", "circle").split()):
            return sp
    raise InputError(f"--template: unknown template {key!r} (known: {', '.join(specs)}; "
                     "the book's names, Circular S or circular-s, are taken too)")


@dataclass(frozen=True)
class TemplateSettings:
    """Choices players could disagree on (docs/rulings.md ("Templates and measuring")).

    centre_lift : inches above the surface of the circle's LoS point (None: the
        sight settings' ``template_centre_raise_in``).
    band_test : "hitbox" (any part of the hitbox within the band) or "base"
        (the model's base height within the band).
    models_block : whether other models block the template's LoS (default: only
        scenery does).
    front_arc : a spray must point into its user's front arc.
    circle_card : where a circle's card lies when its centre is over scenery beside
        the main target (a crate, a slope): "rest" on the scenery's top (LoS from
        there) or "hold" flat at the target's level (LoS from there; a centre inside
        the scenery at that level is refused). The band is about the target's
        surface either way.
    """
    centre_lift: float | None = None
    band_test: str = "hitbox"
    models_block: bool = False
    front_arc: bool = True
    circle_card: str = "rest"
    contact_tol: float = 1e-3
    outline_segments: int = 256          # segments of a full circle in the outlines
    search_step: float = 0.04            # inches between candidate circle centres (~1 mm)
    search_ring: int = 720               # candidates on the edge of the feasible region
    search_angle_step: float = 0.1       # degrees between candidate spray aims
    search_verify: int = 12              # candidates re-checked with the full evaluation
    los_settings: object = None          # engine.sight_settings.SightSettings (None: the defaults)

    def sight(self):
        """The SightSettings used for LoS (None when engine.sight_settings is missing)."""
        if self.los_settings is not None:
            return self.los_settings
        return _default_sight_settings()

    def as_dict(self, spec: "TemplateSpec | None" = None) -> dict:
        """Plain data for --json output: these choices, the LoS settings they use and, given
        ``spec``, the template's dimensions (inches and the printed millimetres)."""
        import dataclasses
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self) if f.name != "los_settings"}
        d["centre_lift"] = self.lift()
        s = self.sight()
        d["sight"] = s.as_dict() if s is not None and hasattr(s, "as_dict") else None
        if spec is not None:
            dims = ("diameter",) if spec.kind == "circle" else ("length", "narrow", "wide")
            d["template"] = {"key": spec.key, "kind": spec.kind, "name": spec.name, "band_in": spec.band,
                             **{f"{k}_in": round(getattr(spec, k), 4) for k in dims},
                             **{f"{k}_mm": round(getattr(spec, k) * 25.4, 3) for k in dims}}
        return d

    def lift(self) -> float:
        if self.centre_lift is not None:
            return float(self.centre_lift)
        s = self.sight()
        return float(getattr(s, "template_centre_raise_in", 0.04)) if s is not None else 0.04


    def changed(self) -> dict:
        """The rule choices (``RULE_CHOICES``) that differ from the defaults, by name."""
        base = TemplateSettings()
        return {k: getattr(self, k) for k in RULE_CHOICES if getattr(self, k) != getattr(base, k)}


# the choices players could disagree on, as ``settings_from`` takes them: what each must be
RULE_CHOICES = {"circle_card": CARDS, "band_test": ("hitbox", "base"), "models_block": bool,
                "front_arc": bool, "centre_lift": float}


def settings_from(values: dict, where: str = "--set") -> TemplateSettings:
    """TemplateSettings with the rule choices in ``values`` ({name: value}, as YAML reads
    them); every unknown name or bad value is one problem (``<command line>: --set NAME``)."""
    problems, given = [], {}
    for key, v in values.items():
        want = RULE_CHOICES.get(key)
        if want is None:
            msg = f"unknown template setting; known: {', '.join(RULE_CHOICES)}"
        elif want is bool:
            msg = None if isinstance(v, bool) else f"must be true or false, not {v!r}"
        elif want is float:
            from engine.validate import exponent_number
            v = exponent_number(v)              # 1e-2: YAML 1.1 reads it as text (as a scene does)
            ok = not isinstance(v, bool) and isinstance(v, (int, float)) and 0 < v <= MAX_TEMPLATE["in"]
            msg = None if ok else \
                f"must be a number of inches above 0 and at most {MAX_TEMPLATE['in']:g}, not {v!r}"
            v = float(v) if msg is None else v
        else:
            msg = None if v in want else f"must be one of {', '.join(want)}, not {v!r}"
        if msg:
            problems.append(_problem("<command line>", None, f"{where} {key}", msg))
        given[key] = v
    if problems:
        raise InputError(problems)
    return TemplateSettings(**given)


@functools.lru_cache(maxsize=1)
def _default_sight_settings():
    try:
        from engine.sight_settings import default_settings
    except ImportError:
        return None
    return default_settings()


# --------------------------------------------------------------------------- geometry
def circle_sdf(xy: np.ndarray, centre, radius: float) -> np.ndarray:
    """Signed distance (negative inside) from points (..., 2) to a disc."""
    xy = np.asarray(xy, dtype=float)
    return np.linalg.norm(xy - np.asarray(centre, dtype=float), axis=-1) - radius


def teardrop_sdf(xy: np.ndarray, apex, angle_deg, length: float, narrow: float, wide: float) -> np.ndarray:
    """Signed distance from points (..., 2) to a teardrop (exact; broadcasts over angle).

    The teardrop is the convex hull of a circle of diameter ``narrow`` whose
    edge touches ``apex`` and one of diameter ``wide`` whose far edge is
    ``length`` from ``apex``, both centred on the ray from ``apex`` at
    ``angle_deg``. ``apex`` (..., 2) and ``angle_deg`` (...) broadcast with xy.
    """
    xy = np.asarray(xy, dtype=float)
    a = np.radians(np.asarray(angle_deg, dtype=float))
    ux, uy = np.cos(a), np.sin(a)
    apex = np.asarray(apex, dtype=float)
    r1, r2 = narrow / 2.0, wide / 2.0
    h = length - r1 - r2
    dx = xy[..., 0] - (apex[..., 0] + r1 * ux)
    dy = xy[..., 1] - (apex[..., 1] + r1 * uy)
    along = dx * ux + dy * uy
    across = np.abs(dx * uy - dy * ux)
    b = (r1 - r2) / h
    k_a = math.sqrt(max(0.0, 1.0 - b * b))
    k = across * -b + along * k_a
    d_near = np.hypot(across, along) - r1
    d_far = np.hypot(across, along - h) - r2
    d_side = across * k_a + along * b - r1
    return np.where(k < 0, d_near, np.where(k > k_a * h, d_far, d_side))


def lens_fraction(d: np.ndarray, big: float, small: np.ndarray) -> np.ndarray:
    """Fraction of a disc (radius ``small``) covered by a disc (radius ``big``) whose
    centre is ``d`` away. Exact; vectorised."""
    d = np.asarray(d, dtype=float)
    r = np.broadcast_to(np.asarray(small, dtype=float), d.shape)
    R = float(big)
    out = np.zeros(d.shape)
    inside = d <= R - r
    out[inside] = 1.0
    swallowed = d <= r - R
    out[swallowed] = (R * R) / (r[swallowed] ** 2)
    part = (d < R + r) & ~inside & ~swallowed
    if part.any():
        dd, rr = d[part], r[part]
        c1 = np.clip((dd * dd + rr * rr - R * R) / (2 * dd * rr), -1, 1)
        c2 = np.clip((dd * dd + R * R - rr * rr) / (2 * dd * R), -1, 1)
        area = rr * rr * np.arccos(c1) + R * R * np.arccos(c2) - 0.5 * np.sqrt(
            np.maximum(0.0, (-dd + rr + R) * (dd + rr - R) * (dd - rr + R) * (dd + rr + R)))
        out[part] = area / (math.pi * rr * rr)
    return np.clip(out, 0.0, 1.0)


@dataclass(frozen=True)
class Placement:
    """One template on the table.

    circle: ``centre`` (x, y) and ``surface`` (z of the disc). spray: ``user``,
    ``apex`` (x, y) where its narrow end touches the user's base, ``angle``
    (degrees CCW from +x) and ``surface`` (the user's base height).
    ``band`` is the absolute (lo, hi) z range it reaches; ``band_choice`` is
    "around" for a circle, up/down/both for a spray. ``aim`` is the point a spray
    was aimed at (None when it was given an angle).
    """
    spec: TemplateSpec
    surface: float
    band: tuple[float, float]
    band_choice: str
    centre: tuple[float, float] | None = None
    user: str | None = None
    apex: tuple[float, float] | None = None
    angle: float | None = None
    lift: float = 0.04
    aim: tuple[float, float] | None = None     # a spray's aim point, when it was given one
    # a circle's card under its centre when not at ``surface``: laid over a crate or up a
    # slope beside the target, it rests on top of it (``card_surface``); a z given with the
    # centre picks the surface (a crate's top, the ground below a ledge)
    centre_z: float | None = None

    @property
    def kind(self) -> str:
        return self.spec.kind

    def sdf(self, xy) -> np.ndarray:
        """Signed distance (inches, negative inside) of points (..., 2) to the outline."""
        if self.kind == "circle":
            return circle_sdf(xy, self.centre, self.spec.radius)
        s = self.spec
        return teardrop_sdf(xy, self.apex, self.angle, s.length, s.narrow, s.wide)

    def polygon(self, segments: int = 256):
        """The outline as a shapely Polygon (cached per placement)."""
        return _outline_polygon(self, segments)

    def _build_polygon(self, segments: int):
        from shapely.geometry import Point
        q = max(4, segments // 4)
        if self.kind == "circle":
            return Point(self.centre).buffer(self.spec.radius, quad_segs=q)
        s = self.spec
        a = math.radians(self.angle)
        u = np.array([math.cos(a), math.sin(a)])
        p1 = np.asarray(self.apex) + u * (s.narrow / 2.0)
        p2 = np.asarray(self.apex) + u * (s.length - s.wide / 2.0)
        near = Point(p1).buffer(s.narrow / 2.0, quad_segs=q)
        far = Point(p2).buffer(s.wide / 2.0, quad_segs=q)
        return near.union(far).convex_hull

    @property
    def origin(self) -> tuple[float, float, float]:
        """Where its LoS starts: the circle's raised centre; a spray's tip at the user's base."""
        if self.kind == "circle":
            z = self.surface if self.centre_z is None else self.centre_z
            return (float(self.centre[0]), float(self.centre[1]), float(z + self.lift))
        return (float(self.apex[0]), float(self.apex[1]), float(self.surface))

    def to_json(self) -> dict:
        d = {"template": self.spec.key, "kind": self.kind, "surface": round(self.surface, 4),
             "band": [round(self.band[0], 4), round(self.band[1], 4)], "band_choice": self.band_choice}
        if self.kind == "circle":
            d["at"] = [round(self.centre[0], 4), round(self.centre[1], 4)]
            if self.centre_z is not None:
                d["centre_z"] = round(self.centre_z, 4)
        else:
            d.update(user=self.user, apex=[round(self.apex[0], 4), round(self.apex[1], 4)],
                     angle=round(self.angle, 3))
            if self.aim is not None:
                d["aim"] = [round(self.aim[0], 4), round(self.aim[1], 4)]
        return d


@functools.lru_cache(maxsize=512)
def _outline_polygon(placement: "Placement", segments: int):
    return placement._build_polygon(segments)


def _band(surface: float, spec: TemplateSpec, choice: str) -> tuple[float, float]:
    if spec.kind == "circle":
        return (surface - spec.band, surface + spec.band)
    if choice == "up":
        return (surface, surface + spec.band)
    if choice == "down":
        return (surface - spec.band, surface)
    if choice == "both":
        return (surface - spec.band, surface + spec.band)
    raise InputError(f"--band: {choice!r} is not one of up, down")


def _model(world, mid: str, what: str):
    if mid not in world.models:
        raise InputError(f"{what}: unknown model {mid!r} (known: {', '.join(world.model_ids())})")
    return world.hitbox(mid)


def _xy(value, what: str) -> tuple[float, ...]:
    try:
        vals = tuple(float(v) for v in value)
    except (TypeError, ValueError):
        raise InputError(f"{what}: expected numbers, got {value!r}") from None
    if len(vals) not in (2, 3) or not all(math.isfinite(v) for v in vals):
        raise InputError(f"{what}: expected X,Y or X,Y,Z, got {value!r}")
    return vals


def card_surface(world, xy, surface: float, lift: float, top: float,
                 hold: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Where a circle's card lies under each centre (n, 2): ((n,) z, (n,) piece index or -1).

    At ``surface`` (the main target's) unless the LoS point above it (``lift``)
    would be inside scenery, a crate or a slope rising beside the target: a card
    laid over it rests on its top, so the centre is there (LoS from inside a solid
    means nothing). NaN, with the piece, where that top is above ``top`` (the
    band's top): the template cannot lie there. ``hold`` (the card held flat at
    the target's level, ``TemplateSettings.circle_card``): NaN wherever that point
    is inside scenery.
    """
    xy = np.asarray(xy, dtype=float).reshape(-1, 2)
    z = np.full(len(xy), float(surface))
    piece = np.full(len(xy), -1, dtype=np.int64)
    h = max(float(lift), 1e-3)
    todo = np.arange(len(xy))
    up = np.array([0.0, 0.0, 1.0])
    for _ in range(16):                        # stacked pieces: one more top each round
        if len(todo) == 0:
            break
        p = np.column_stack([xy[todo], z[todo] + h])
        _, tri = world.rays.first_hit(p, np.broadcast_to(up, p.shape))
        nz = np.where(tri >= 0, world.rays.normals[np.maximum(tri, 0), 2], 0.0)
        inside = (tri >= 0) & (nz > 1e-6)                 # a top seen from below: inside it
        # a top with another piece's bottom lying on it (a pillar under a deck) may answer
        # with the bottom: a side seen from behind says inside too
        _, side = world.rays.first_hit(p, np.broadcast_to(np.array([1.0, 0.0, 0.0]), p.shape))
        nx = np.where(side >= 0, world.rays.normals[np.maximum(side, 0), 0], 0.0)
        k = np.flatnonzero(inside | ((tri >= 0) & (np.abs(nz) > 1e-6) & (nx > 1e-6)))
        if len(k) == 0:
            break
        t = tri[k]
        n3, p0 = world.rays.normals[t], world.rays.triangles[t, 0]
        d = xy[todo[k]] - p0[:, :2]
        z[todo[k]] = p0[:, 2] - (n3[:, 0] * d[:, 0] + n3[:, 1] * d[:, 1]) / n3[:, 2]   # exact, on its plane
        holder = np.where(nx[k] > 1e-6, world.tri_piece[np.maximum(side[k], 0)], world.tri_piece[t])
        first = piece[todo[k]] < 0
        piece[todo[k[first]]] = holder[first]                  # the piece the centre is in
        if hold:                                # no card lies through the scenery
            z[todo[k]] = np.nan
            break
        todo = todo[k]
        over = z[todo] > top + 1e-9
        z[todo[over]] = np.nan
        todo = todo[~over]
    return z, piece


def place_circle(world, template: str | TemplateSpec, *, target: str | None = None,
                 at: Sequence[float] | None = None, settings: TemplateSettings | None = None) -> Placement:
    """A circle centred at ``at`` (default: the target's centre) on the target's surface.

    Without a target (Targetless) the disc lies on the highest surface under
    ``at`` (at or below ``at``'s z when given). With a target a z given picks the
    surface too, unless the card is held at the target's level
    (``settings.circle_card`` "hold"): then it is always there.
    """
    settings = settings or TemplateSettings()
    spec = template_spec(template)
    if spec.kind != "circle":
        raise InputError(f"template {spec.key!r} is a {spec.kind}, not a circle")
    tb = _model(world, target, "--target") if target is not None else None
    if at is None and tb is None:
        raise InputError("a circle needs a main target (--target) or a centre (--at X,Y[,Z])")
    if at is not None:
        at = _xy(at, "--at")
        cx, cy = at[0], at[1]
    else:
        cx, cy = tb.x, tb.y
    if not (0.0 <= cx <= world.table[0] and 0.0 <= cy <= world.table[1]):
        raise InputError(f"--at: ({cx:g}, {cy:g}) is off the {world.table[0]:g}x{world.table[1]:g} table")
    hold = tb is not None and settings.circle_card == "hold"
    if at is not None and len(at) == 3 and not hold:
        # (from no higher than the top of the scenery: a Z far above it, 1e30, is the same
        # question, and the ray caster's float32 cannot start there)
        surface = float(world.surface_height([[cx, cy]], below=min(at[2], world.top_z))[0])
        # a surface buried inside a solid (the table under a tower): no card lies there. The
        # way down may not even find it (the tower's bottom face lies on the table's top):
        # then the point asked for itself is tested
        z = surface if math.isfinite(surface) else float(at[2])
        p = np.array([[cx, cy, z + settings.lift()], [cx, cy, min(float(at[2]), world.top_z) + settings.lift()]])
        _, tri = world.rays.first_hit(p, np.array([[0.0, 0.0, 1.0]] * 2))
        inside = [bool(t >= 0 and world.rays.normals[t, 2] > 1e-6) for t in tri]
        if inside[0]:
            # the point the user gave, when it is inside the piece too ("z 2" inside a 4" tower
            # read "(x, y, 0.00) is inside tower": the table under the tower, a height never given)
            k, zz = (1, float(at[2])) if inside[1] else (0, z)
            piece = world.pieces[int(world.tri_piece[tri[k]])].id
            raise InputError(f"--at: ({cx:g}, {cy:g}, {round(zz, 2) + 0.0:.2f}) is inside {piece}: the template lies on a "
                             "surface, give the z of one")
        if not math.isfinite(surface):
            raise InputError(f"--at: no surface at or below z={at[2]:g} under ({cx:g}, {cy:g})")
        if tb is not None:
            # the card lies on the surface the z picks, and the band stays about the target's
            # surface ("3" above and below the target's surface", eldfall-facts.md), as without a z
            from engine.measure import measuring_z
            s = measuring_z(world, target)
            band = _band(s, spec, "around")
            if surface > band[1] + 1e-9:
                raise InputError(f"--at: ({cx:g}, {cy:g}, {round(surface, 2) + 0.0:.2f}) is above the template's "
                                 f"height band (z {band[1]:.2f}, 3\" above the target's surface): no template "
                                 "lies there")
            return Placement(spec, s, band, "around", centre=(float(cx), float(cy)), lift=settings.lift(),
                             centre_z=surface if abs(surface - s) > 1e-9 else None)
    elif tb is not None:
        from engine.measure import measuring_z
        surface = measuring_z(world, target)          # a Flying target: the surface under it
        band = _band(surface, spec, "around")
        cz, piece = card_surface(world, [[cx, cy]], surface, settings.lift(), band[1], hold=hold)
        if not math.isfinite(cz[0]) and hold:
            raise InputError(f"--at: ({cx:g}, {cy:g}) is inside {world.pieces[int(piece[0])].id} at the target's "
                             f"level (z {surface:.2f}), where the card is held (circle_card: hold): no template "
                             "lies there")
        if not math.isfinite(cz[0]):
            raise InputError(f"--at: ({cx:g}, {cy:g}) is inside {world.pieces[int(piece[0])].id}, and the scenery "
                             f"there rises above the template's height band (z {band[1]:.2f}): no template lies there")
        return Placement(spec, surface, band, "around", centre=(float(cx), float(cy)), lift=settings.lift(),
                         centre_z=float(cz[0]) if cz[0] > surface + 1e-9 else None)
    else:
        surface = float(world.surface_height([[cx, cy]])[0])
    return Placement(spec, surface, _band(surface, spec, "around"), "around",
                     centre=(float(cx), float(cy)), lift=settings.lift())


def place_spray(world, template: str | TemplateSpec, *, user: str, aim=None, target: str | None = None,
                angle: float | None = None, band: str = "up") -> Placement:
    """A spray from ``user`` toward ``aim`` (x, y), or toward ``target``, or at ``angle`` degrees."""
    spec = template_spec(template)
    if spec.kind != "spray":
        raise InputError(f"template {spec.key!r} is a {spec.kind}, not a spray")
    if user is None:
        raise InputError("a spray needs its user (--by ID)")
    ub = _model(world, user, "--by")
    if angle is None:
        if aim is not None:
            ax, ay = _xy(aim, "--aim")[:2]
        elif target is not None:
            tb = _model(world, target, "--target")
            ax, ay = tb.x, tb.y
        else:
            raise InputError("a spray needs a direction: --aim X,Y or --target ID")
        dx, dy = ax - ub.x, ay - ub.y
        if math.hypot(dx, dy) < 1e-9:
            if aim is None:       # a target straight above or below the user: no direction
                raise InputError(f"--target: {target} stands straight above or below {user} (the same x, y): "
                                 "a spray from the user's base needs a direction; give --aim X,Y")
            raise InputError("--aim: the aim point is the user's own centre; give a direction")
        angle = math.degrees(math.atan2(dy, dx))
        aim = (float(ax), float(ay))
    else:
        aim = None
    angle = float(angle) % 360.0
    a = math.radians(angle)
    apex = (ub.x + ub.radius * math.cos(a), ub.y + ub.radius * math.sin(a))
    from engine.measure import measuring_z
    uz = measuring_z(world, user)                    # a Flying user: the surface under it
    return Placement(spec, uz, _band(uz, spec, band), band,
                     user=user, apex=apex, angle=angle, aim=aim)


# --------------------------------------------------------------------------- line of sight
def _hitbox_lattice(cx, cy, z, r, h, rings: int = 16) -> np.ndarray:
    """Points just inside a hitbox's surface: top and base discs, and side rings."""
    a = np.arange(rings) * (2 * math.pi / rings)
    ring = np.column_stack([np.cos(a), np.sin(a)])
    rr = r * (1 - 1e-3)
    pts = []
    eps = min(1e-3, h * 0.25)
    for f in (0.0, 0.25, 0.5, 0.75, 1.0):
        zz = z + eps + (h - 2 * eps) * f
        pts.append(np.column_stack([cx + rr * ring[:, 0], cy + rr * ring[:, 1], np.full(rings, zz)]))
    half = ring[::2] * (rr * 0.5)
    for zz in (z + eps, z + h - eps):
        pts.append(np.column_stack([cx + half[:, 0], cy + half[:, 1], np.full(len(half), zz)]))
        pts.append(np.array([[cx, cy, zz]]))
    return np.vstack(pts)


_CONVEX: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
_SHRINK = 1e-4     # obstacles shrink by this for occlusion proofs: grazing never hides


def _convex_obstacles(world) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """(normals, offsets, lo, hi) of every convex solid piece (not the table), cached per world."""
    got = _CONVEX.get(world)
    if got is not None:
        return got
    out = []
    for p in world.pieces:
        if not p.solid or p.id == "table":
            continue
        mesh = p.mesh
        try:
            if not (mesh.is_watertight and mesh.is_convex):
                continue
        except Exception:       # noqa: BLE001 - a degenerate mesh is never used as a proof
            continue
        n = np.asarray(mesh.face_normals, dtype=float)
        d = np.einsum("ij,ij->i", n, np.asarray(mesh.triangles, dtype=float)[:, 0])
        key = np.round(np.column_stack([n, d]), 7)
        _, idx = np.unique(key, axis=0, return_index=True)
        lo, hi = np.asarray(mesh.bounds, dtype=float)
        out.append((n[idx], d[idx] - _SHRINK, lo, hi))
    _CONVEX[world] = out
    return out


def _segments_through(p0: np.ndarray, p1: np.ndarray, normals: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """(n,) bool: segment p0->p1 passes through the convex body {x: normals @ x <= offsets}."""
    a = np.einsum("ij,kj->ik", p0, normals) - offsets
    b = np.einsum("ij,kj->ik", p1 - p0, normals)
    neg, pos = b < -1e-14, b > 1e-14
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -a / b
    enter = np.max(t, axis=1, where=neg, initial=0.0)
    leave = np.min(t, axis=1, where=pos, initial=1.0)
    outside = (~neg & ~pos & (a > 0)).any(axis=1)
    return (leave - enter > 1e-9) & ~outside


def _hitbox_prism(h) -> np.ndarray:
    """(16, 3) corners of an octagonal prism that holds the hitbox."""
    ang = (np.arange(8) + 0.5) * (math.pi / 4)
    rr = h.radius / math.cos(math.pi / 8)
    xy = np.column_stack([h.x + rr * np.cos(ang), h.y + rr * np.sin(ang)])
    return np.vstack([np.column_stack([xy, np.full(8, h.z)]), np.column_stack([xy, np.full(8, h.z + h.height)])])


def _proven_hidden(world, origins: np.ndarray, prisms: np.ndarray) -> np.ndarray:
    """(n,) bool: one convex piece meets every segment from the origin to the prism's corners,
    so (the segments meeting a convex body form a convex set in each endpoint) it hides
    every point of the hitbox from the origin."""
    n, v = prisms.shape[:2]
    hidden = np.zeros(n, dtype=bool)
    lo_pair = np.minimum(origins, prisms.min(axis=1))
    hi_pair = np.maximum(origins, prisms.max(axis=1))
    for normals, offsets, lo, hi in _convex_obstacles(world):
        cand = np.flatnonzero(~hidden & (lo_pair <= hi).all(axis=1) & (hi_pair >= lo).all(axis=1))
        if len(cand) == 0:
            continue
        p0 = np.repeat(origins[cand], v, axis=0)
        p1 = prisms[cand].reshape(-1, 3)
        hidden[cand[_segments_through(p0, p1, normals, offsets).reshape(-1, v).all(axis=1)]] = True
    return hidden


def points_see_hitboxes(world, origins: np.ndarray, model_ids: Sequence[str], *,
                        models_block: bool = False, exclude: Iterable[str] = (),
                        round_size: int = 14, sight_settings=None) -> np.ndarray:
    """Batched LoS from points to hitboxes: (n, 3) origins, n model ids -> (n,) bool.

    A pair has LoS when a segment from the origin to some point of the hitbox
    meets no terrain (and, with ``models_block``, no other model outside
    ``exclude``; with ``sight_settings``, crosses fewer Forest areas than block
    LoS, as engine.sight counts them). The hitbox's axis at mid-height is tried first, then the
    points of a lattice on its surface in rounds of ``round_size`` (a
    spread-out order); a pair stops at its first clear segment. One ray query
    per round for all pairs.
    """
    origins = np.asarray(origins, dtype=float).reshape(-1, 3)
    n = len(origins)
    out = np.zeros(n, dtype=bool)
    if n == 0:
        return out
    names = list(dict.fromkeys(model_ids))
    index = {m: k for k, m in enumerate(names)}
    mi = np.array([index[m] for m in model_ids])
    hbs = [world.hitbox(m) for m in names]
    excl = set(exclude)
    owner = np.asarray(names, dtype=object)

    def clear(o, e, who):
        ok = None if sight_settings is None else _clear_segments(world, o, e, sight_settings)
        if ok is None:
            ok = ~world.rays.occluded(o, e)
        if models_block and ok.any():
            idx = np.flatnonzero(ok)
            for k in np.unique(who[idx]):
                sel = idx[who[idx] == k]
                blk = world.models_blocking(o[sel], e[sel], exclude=excl | {owner[k]})
                ok[sel[blk >= 0]] = False
        return ok

    mid = np.array([[h.x, h.y, h.z + h.height / 2.0] for h in hbs])
    out[:] = clear(origins, mid[mi], mi)
    todo = np.flatnonzero(~out)
    if len(todo) == 0:
        return out
    # pairs that one convex piece hides wholly need no lattice (exact proof)
    prisms = np.stack([_hitbox_prism(h) for h in hbs])
    todo = todo[~_proven_hidden(world, origins[todo], prisms[mi[todo]])]
    lat = np.stack([_hitbox_lattice(h.x, h.y, h.z, h.radius, h.height) for h in hbs])   # (u, k, 3)
    k = lat.shape[1]
    order = np.random.default_rng(0).permutation(k)        # spread out: neighbours are not tried together
    for start in range(0, k, round_size):
        if len(todo) == 0:
            break
        cols = order[start:start + round_size]
        e = lat[mi[todo][:, None], cols[None, :]].reshape(-1, 3)
        o = np.repeat(origins[todo], len(cols), axis=0)
        ok = clear(o, e, np.repeat(mi[todo], len(cols))).reshape(len(todo), len(cols)).any(axis=1)
        out[todo[ok]] = True
        todo = todo[~ok]
    return out


def _sight():
    try:
        from engine import sight
    except ImportError:
        return None
    return sight


def _probes(h, f=None) -> np.ndarray:
    """Points strictly inside a hitbox: its axis at 10/50/90% of its height and, at 50 and
    90%, four points 0.8 r out. With a facing vector ``f``: points inside its front half
    (0.5 r ahead of the axis, at 10/50/90%, and 0.6 r to either side at 50%)."""
    hs = np.array([0.1, 0.5, 0.9]) * h.height + h.z
    if f is not None:
        c = np.array([h.x, h.y]) + 0.5 * h.radius * np.asarray(f)
        side = np.array([-f[1], f[0]]) * 0.6 * h.radius
        pts = [[c[0], c[1], z] for z in hs]
        pts += [[c[0] + side[0], c[1] + side[1], hs[1]], [c[0] - side[0], c[1] - side[1], hs[1]]]
        return np.array(pts)
    pts = [[h.x, h.y, z] for z in hs]
    for z in hs[1:]:
        for dx, dy in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            pts.append([h.x + 0.8 * h.radius * dx, h.y + 0.8 * h.radius * dy, z])
    return np.array(pts)


def _clear_segments(world, p0: np.ndarray, p1: np.ndarray, ss) -> np.ndarray | None:
    """(n,) bool: the segments meet no terrain and cross fewer Forest areas than block LoS
    (engine.sight's count); None when engine.sight cannot say."""
    clear = ~world.rays.occluded(p0, p1)
    if clear.any():
        sight = _sight()
        try:
            forests = sight._woods(sight._static(world), ss)
            if len(forests) >= ss.forest_limit:
                idx = np.flatnonzero(clear)
                clear[idx[sight._forest_blocked(p0[idx], p1[idx], forests, ss)]] = False
        except (AttributeError, TypeError, ValueError, IndexError):
            return None
    return clear


def _clear_to_axis(world, origin: np.ndarray, mids: Sequence[str], settings: TemplateSettings) -> dict[str, bool]:
    """Exact shortcut for LoS from a point: {id: True} for the models that the origin
    reaches unblocked at one of a few points inside their hitbox (the segment enters the
    hitbox through a visible point). One batched ray query; the others are left to
    ``engine.sight``.

    Used only when models do not block, no minimum visible area is set and fewer
    Forest areas are crossed than block LoS."""
    ss = settings.sight()
    if not mids or settings.models_block or ss is None or getattr(ss, "min_visible_area_mm2", 0) > 0:
        return {}
    q = [_probes(world.hitbox(m)) for m in mids]
    owner = np.repeat(np.arange(len(mids)), [len(x) for x in q])
    q = np.vstack(q)
    clear = _clear_segments(world, np.broadcast_to(origin, q.shape), q, ss)
    if clear is None:
        return {}             # engine.sight changed shape: leave every model to sight.point_los
    seen = np.zeros(len(mids), dtype=bool)
    np.logical_or.at(seen, owner, clear)
    return {m: True for m, c in zip(mids, seen) if c}


def _los_from_point(world, origin, mid: str, *, settings: TemplateSettings, exclude: set[str]) -> bool:
    """LoS from a (raised) point to a model's hitbox: engine.sight.point_los."""
    sight = _sight()
    if sight is not None and hasattr(sight, "point_los"):
        ok, _frac = sight.point_los(world, np.asarray(origin, dtype=float), mid,
                                    exclude=tuple(sorted(exclude - {mid})), settings=settings.sight(),
                                    raise_by=0.0)
        return bool(ok)
    return bool(points_see_hitboxes(world, np.asarray(origin, dtype=float)[None], [mid],
                                    models_block=settings.models_block, exclude=exclude)[0])


def centre_blockers(world, origin, mid: str, settings: TemplateSettings | None = None) -> str:
    """Why a circle's centre has no LoS to ``mid``, in words for its reason: the scenery
    pieces met on the way to points inside its hitbox (as `eldfall los` names the blocking
    pieces), else the Forest areas (no LoS through ``forest_limit`` or more), else ""."""
    settings = settings or TemplateSettings()
    o = np.asarray(origin, dtype=float).reshape(3)
    ends = _probes(world.hitbox(mid))
    d = ends - o
    length = np.linalg.norm(d, axis=1)
    dist, tri = world.rays.first_hit(np.broadcast_to(o, ends.shape), d / np.maximum(length, 1e-12)[:, None])
    hit = (tri >= 0) & (dist < length - 1e-6)
    names = list(dict.fromkeys(world.pieces[int(world.tri_piece[t])].id for t in tri[hit]))
    if names:
        return f"blocked by {', '.join(names)}"
    sight, ss = _sight(), settings.sight()
    try:
        woods = sight._woods(sight._static(world), ss)
        # the woods crossed on the way to the hitbox's axis at mid-height, as engine.sight counts
        crossed = [w for w in woods if sight._forest_hits(o[None], ends[1:2], w, ss)[0]]
        if crossed and len(crossed) >= ss.forest_limit:
            return (f"blocked by {', '.join(i for w in crossed for i in w.ids)} "
                    f"(Forest areas: no LoS through {ss.forest_limit} or more)")
    except (AttributeError, TypeError, ValueError, IndexError):
        pass                    # engine.sight changed shape: the reason names nothing
    return ""


def _los_from_user(world, user: str, mid: str, *, settings: TemplateSettings, exclude: set[str]) -> bool:
    """The user's LoS to a model (the spray rule: LoS from the attacker to each model).

    engine.sight.los by the rulebook (front arc, exceptions), with models
    blocking only when ``settings.models_block``.
    """
    sight = _sight()
    if sight is not None and hasattr(sight, "los"):
        ss = settings.sight()
        if ss is not None and getattr(ss, "models_block", None) != settings.models_block:
            ss = ss.replace(models_block=settings.models_block)
        return bool(sight.los(world, user, mid, fraction=False, cover=False, settings=ss).los)
    ub = world.hitbox(user)
    pts = _hitbox_lattice(ub.x, ub.y, ub.z, ub.radius, ub.height, rings=8)
    return bool(points_see_hitboxes(world, pts, [mid] * len(pts), models_block=settings.models_block,
                                    exclude=exclude | {user}).any())


def _los_from_user_many(world, user: str, mids: Sequence[str], *, settings: TemplateSettings,
                        exclude: set[str]) -> dict[str, bool]:
    """The user's LoS to several models, with one batched cast (as ``sight.los_matrix`` does
    for one viewer); per-model ``sight.los`` when that machinery is not there.

    This leans on engine.sight's internals (one query per pair, driven together);
    if they change shape, it falls back to the public ``sight.los`` per model.
    """
    mids = [m for m in mids if m != user]
    if not mids:
        return {}
    sight = _sight()
    needed = ("_static", "_model_records", "_exception", "_make_query", "_drive", "MM2_PER_IN2")
    if sight is not None and all(hasattr(sight, n) for n in needed):
        try:
            return _los_batched(sight, world, user, mids, settings)
        except (TypeError, AttributeError, ValueError, IndexError):
            pass
    return {m: _los_from_user(world, user, m, settings=settings, exclude=exclude) for m in mids}


def _los_batched(sight, world, user: str, mids: list[str], settings: TemplateSettings) -> dict[str, bool]:
    ss = settings.sight()
    if getattr(ss, "models_block", None) != settings.models_block:
        ss = ss.replace(models_block=settings.models_block)
    st = sight._static(world)
    out: dict[str, bool] = {}
    rest = []
    for m in mids:
        exc = sight._exception(world, user, m, False, ss, None)
        if exc is not None:
            out[m] = bool(exc[0])
        else:
            rest.append(m)
    # Exact shortcut for the clear cases: a segment from a point inside the front half of
    # the user's hitbox to a point inside the target in the user's front half-space that
    # meets nothing contains a valid LoS segment between the two surfaces (convexity).
    if rest and not ss.models_block and ss.min_visible_area_mm2 <= 0:
        ub = world.hitbox(user)
        f = ub.facing_vector
        half = not sight._is_360(ub, False, ss) if hasattr(sight, "_is_360") else True
        p = _probes(ub, f if half else None)
        p0, p1, owner = [], [], []
        for k, m in enumerate(rest):
            q = _probes(world.hitbox(m))
            if half:
                q = q[(q[:, :2] - [ub.x, ub.y]) @ f >= 0]
            p0.append(np.repeat(p, len(q), axis=0))
            p1.append(np.tile(q, (len(p), 1)))
            owner.append(np.full(len(p) * len(q), k))
        p0, p1, owner = np.vstack(p0), np.vstack(p1), np.concatenate(owner)
        clear = _clear_segments(world, p0, p1, ss)
        if clear is not None:
            seen = np.zeros(len(rest), dtype=bool)
            np.logical_or.at(seen, owner, clear)
            for m, c in zip(rest, seen):
                if c:
                    out[m] = True
            rest = [m for m, c in zip(rest, seen) if not c]
    records = sight._model_records(world, ss) if rest else None
    queries = []
    for m in rest:
        q = sight._make_query(world, st, user, m, False, ss, ss.min_visible_area_mm2 > 0, records)
        queries.append((m, q))
    if queries:
        sight._drive(world, [q for _, q in queries])
    for m, q in queries:
        vis = q.status == 1
        area = float(q.t_weight[q.tidx[vis]].sum()) * sight.MM2_PER_IN2
        out[m] = bool(vis.any()) and area >= ss.min_visible_area_mm2 - 1e-12
    return out


def _los_exclusions(world, placement: Placement, settings: TemplateSettings) -> set[str]:
    """Models that do not block this template's LoS."""
    if not settings.models_block:
        return set(world.model_ids())
    excl = set()
    if placement.user:
        excl.add(placement.user)
    if placement.kind == "circle":   # a model whose hitbox holds the centre point cannot hide it
        ox, oy, oz = placement.origin
        for mid in world.model_ids():
            h = world.hitbox(mid)
            if math.hypot(h.x - ox, h.y - oy) <= h.radius and h.z <= oz <= h.top:
                excl.add(mid)
    return excl


# --------------------------------------------------------------------------- results
@dataclass(frozen=True)
class TemplateHit:
    id: str
    side: str
    covered_fraction: float      # the largest fraction of its base under any one template
    full: bool                   # its whole base under one template
    in_band: bool
    los_from_origin: bool
    count: int                   # how many templates hit it
    templates: tuple[int, ...] = ()
    # per template of ``templates``: (the share of its base under it, its whole base under it);
    # "full 100.0% x2" said of the largest share alone read as fully under both
    each: tuple[tuple[float, bool], ...] = ()

    @property
    def partial(self) -> bool:
        return not self.full

    def to_json(self) -> dict:
        return {"id": self.id, "side": self.side, "covered_fraction": round(self.covered_fraction, 4),
                # as the text says it: a base that only touches the outline (0% under it) is
                # hit, "touching", not "partial"
                "coverage": "full" if self.full else ("partial" if self.covered_fraction > 0 else "touching"),
                "in_band": self.in_band,
                "los_from_origin": self.los_from_origin, "count": self.count,
                "templates": list(self.templates),
                **({"per_template": [{"template": k, "covered_fraction": f, "coverage": "full" if full else
                                      ("partial" if f > 0 else "touching")}
                                     for k, (f, full) in zip(self.templates, self.each)]}
                   if len(self.each) > 1 else {})}


@dataclass(frozen=True)
class TemplateMiss:
    id: str
    side: str
    why: str
    covered_fraction: float = 0.0
    in_band: bool | None = None
    los_from_origin: bool | None = None
    blocked: str = ""            # no LoS from a circle's centre: what blocks it ("blocked by wall")

    def to_json(self) -> dict:
        d = {"id": self.id, "side": self.side, "why": self.why,
             "covered_fraction": round(self.covered_fraction, 4), "in_band": self.in_band,
             "los_from_origin": self.los_from_origin}
        if self.blocked:
            d["blocked"] = self.blocked
        return d


@dataclass(frozen=True)
class TemplateResult:
    """The verdict on one or several templates (STK > 1) placed together."""
    template: str
    legal: bool
    reason: str
    target: str | None
    user: str | None
    target_fully_covered: bool | None      # None when Targetless
    affected: tuple[TemplateHit, ...]
    not_affected: tuple[TemplateMiss, ...]
    placements: tuple[Placement, ...]
    outlines: tuple[tuple[tuple[float, float], ...], ...]
    search: dict | None = None

    @property
    def targetless(self) -> bool:
        return self.target is None

    @property
    def outline(self) -> tuple[tuple[float, float], ...]:
        return self.outlines[0]

    @property
    def origin(self) -> tuple[float, float, float]:
        return self.placements[0].origin

    @property
    def count(self) -> int:
        return len(self.placements)

    def hit(self, mid: str) -> TemplateHit | None:
        return next((h for h in self.affected if h.id == mid), None)

    def miss(self, mid: str) -> TemplateMiss | None:
        return next((m for m in self.not_affected if m.id == mid), None)

    def to_json(self) -> dict:
        d = {"template": self.template, "legal": self.legal, "reason": self.reason,
             "target": self.target, "user": self.user, "targetless": self.targetless,
             "target_fully_covered": self.target_fully_covered, "count": self.count,
             "affected": [h.to_json() for h in self.affected],
             "not_affected": [m.to_json() for m in self.not_affected],
             "origin": [round(v, 4) for v in self.origin],
             "outline": [[round(x, 4), round(y, 4)] for x, y in self.outline],
             "placements": [p.to_json() for p in self.placements]}
        if self.count > 1:
            d["outlines"] = [[[round(x, 4), round(y, 4)] for x, y in o] for o in self.outlines]
            d["origins"] = [[round(v, 4) for v in p.origin] for p in self.placements]
        if self.search is not None:
            d["search"] = self.search
        return d


@dataclass
class _Assessment:
    ids: list[str]
    sdf: np.ndarray          # distance from the base centre to the outline
    touching: np.ndarray
    full: np.ndarray
    fraction: np.ndarray
    in_band: np.ndarray
    gap: np.ndarray          # vertical distance from the band to the hitbox (0 inside)
    los: dict[str, bool]


def _in_band(z, top, band, settings: TemplateSettings) -> tuple[np.ndarray, np.ndarray]:
    lo, hi = band
    tol = settings.contact_tol
    if settings.band_test == "base":
        gap = np.maximum(0.0, np.maximum(lo - z, z - hi))
    else:
        gap = np.maximum(0.0, np.maximum(lo - top, z - hi))
    return gap <= tol, gap


def _measured_z(world, ids, centers) -> np.ndarray:
    """The base heights the height bands use: a Flying model's is the surface under it
    (eldfall-states.txt, Flying: measured "as if the model were placed on the field surface")."""
    from engine.measure import FLYING_STATE, measuring_z
    z = centers[:, 2].copy()
    for i, mid in enumerate(ids):
        if FLYING_STATE in world.hitbox(mid).states:
            z[i] = measuring_z(world, mid)
    return z


def _assess(world, pl: Placement, settings: TemplateSettings, *, user: str | None,
            need_los: Iterable[str] = ()) -> _Assessment:
    ids, centers, radii, heights = world.model_arrays()
    tol = settings.contact_tol
    sdf = pl.sdf(centers[:, :2]) if len(ids) else np.zeros(0)
    touching = sdf - radii <= tol
    full = sdf + radii <= tol
    mz = _measured_z(world, ids, centers)
    in_band, gap = _in_band(mz, mz + heights, pl.band, settings)
    frac = np.zeros(len(ids))
    if touching.any():
        if pl.kind == "circle":
            d = np.linalg.norm(centers[:, :2] - np.asarray(pl.centre), axis=1)
            frac[touching] = lens_fraction(d[touching], pl.spec.radius, radii[touching])
        else:
            import shapely
            poly = pl.polygon(settings.outline_segments)
            idx = np.flatnonzero(touching)
            # 64-gon bases against the 256-segment outline: fractions within 0.05%
            discs = shapely.buffer(shapely.points(centers[idx, :2]), radii[idx], quad_segs=16)
            inter = shapely.area(shapely.intersection(discs, poly))
            frac[idx] = np.clip(inter / shapely.area(discs), 0.0, 1.0)
        frac[full] = 1.0
    los: dict[str, bool] = {}
    excl = _los_exclusions(world, pl, settings)
    want = {ids[i] for i in np.flatnonzero(touching & in_band)} | set(need_los)
    todo = [mid for mid in ids if mid in want and mid != user]
    if pl.kind == "circle":
        los.update(_clear_to_axis(world, np.asarray(pl.origin, dtype=float), todo, settings))
        for mid in todo:
            if mid not in los:
                los[mid] = _los_from_point(world, pl.origin, mid, settings=settings, exclude=excl)
    else:
        los.update(_los_from_user_many(world, pl.user, todo, settings=settings, exclude=excl))
    return _Assessment(ids, sdf, touching, full, frac, in_band, gap, los)


def _fmt(v: float, limit: float | None = None) -> str:
    """Inches, two decimals; given ``limit`` (the contact tolerance), as many more as it takes
    for the printed number to fall on the same side of it: "0.002" outside", never "0.00"."""
    if limit is not None:
        from engine.cover import inches_vs
        return f'{inches_vs(v, limit)}"'
    return f'{v:.2f}"'


def _pct(frac: float) -> str:
    """A covered share: one decimal, never "100%" for a base not wholly under the template
    nor "0%" for one partly under it."""
    p = 100.0 * frac
    if 0 < p < 0.05:
        return "under 0.1%"
    if 99.95 <= p < 100:
        return "over 99.9%"
    return f"{p:.1f}%"


def _blocked(world, pl: Placement, mid: str, settings: TemplateSettings) -> str:
    """``: blocked by wall`` after a circle's "no LoS from the template's centre"; "" else."""
    if pl.kind != "circle":
        return ""
    why = centre_blockers(world, pl.origin, mid, settings)
    return f": {why}" if why else ""


def _front_arc_ok(world, pl: Placement) -> bool:
    ub = world.hitbox(pl.user)
    traits = {t.lower() for t in ub.traits} | {s.lower() for s in ub.states}
    if traits & _ALL_ROUND_TRAITS:
        return True
    diff = (pl.angle - ub.facing + 180.0) % 360.0 - 180.0
    return abs(diff) <= 90.0 + 1e-6


def evaluate(world, placements: Placement | Sequence[Placement], *, target: str | None = None,
             user: str | None = None, settings: TemplateSettings | None = None,
             search: dict | None = None) -> TemplateResult:
    """Coverage, band, LoS and legality of one or several templates.

    ``target`` is the main target (None: Targetless); ``user`` is never affected.
    """
    settings = settings or TemplateSettings()
    tol = settings.contact_tol
    if isinstance(placements, Placement):
        placements = [placements]
    placements = list(placements)
    if not placements:
        raise InputError("--count: at least one template")
    if target is not None:
        _model(world, target, "--target")
    if user is not None:
        _model(world, user, "--by")
    spec = placements[0].spec
    reasons: list[str] = []
    ids = world.model_ids()
    side = {m: world.hitbox(m).side for m in ids}
    n_hits = {m: [] for m in ids}
    best_frac = {m: 0.0 for m in ids}
    full_any = {m: False for m in ids}
    each = {m: [] for m in ids}          # per template that hits it: (share of its base, whole base)
    last: dict[str, tuple] = {}
    target_full: bool | None = None if target is None else True
    if target is not None and target != user and world.hitbox(target).states & _GONE_STATES:
        # eldfall-states.txt, Dead: "ignored for all game impacts"; no template affects it
        reasons.append(f"main target {target} is Dead: it is ignored for all game impacts "
                       "and no template affects it")
    for k, pl in enumerate(placements):
        tag = f"template {k + 1}: " if len(placements) > 1 else ""
        a = _assess(world, pl, settings, user=user, need_los=[target] if target and target != user else [])
        if pl.kind == "spray" and settings.front_arc and not _front_arc_ok(world, pl):
            reasons.append(f"{tag}the spray points into {pl.user}'s back arc "
                           f"(aim {pl.angle:.1f} deg, facing {world.hitbox(pl.user).facing:.1f} deg)")
        if target is not None:
            i = ids.index(target)
            if target == user:
                reasons.append(f"{tag}the user cannot be its own main target")
            if not a.full[i]:
                target_full = False
                r_t = world.hitbox(target).radius
                if a.fraction[i] > 0:
                    where = (f"{_pct(a.fraction[i])} of its base is under the template, "
                             f"its edge is {_fmt(a.sdf[i] + r_t, tol)} outside")
                else:
                    # nothing under it: the near edge's distance is the one the list of models
                    # not affected gives; the far edge's says how far the template must move
                    where = (f"none of its base is under the template, its nearest edge is "
                             f"{_fmt(a.sdf[i] - r_t, tol)} outside and its far edge {_fmt(a.sdf[i] + r_t, tol)}")
                reasons.append(f"{tag}main target {target} is not fully covered: {where}")
            # out of the band is said too when it is not fully covered: a spray from a tower with
            # the band up said only "99% of its base is under the template", and moved 0.03" it
            # was still refused, for the band
            if not a.in_band[i]:
                target_full = False
                tz = float(_measured_z(world, [target], world.hitbox(target).center[None])[0])
                lo, hi = pl.band
                where = "above" if tz > hi else "below"
                hint = ""
                if pl.kind == "spray" and pl.band_choice in ("up", "down"):
                    # the attacker's choice (rulings): say when the other band holds the target
                    other = "down" if pl.band_choice == "up" else "up"
                    ok, _ = _in_band(np.array([tz]), np.array([tz + world.hitbox(target).height]),
                                     _band(pl.surface, pl.spec, other), settings)
                    if ok[0]:
                        hint = f"; the band {other} reaches it (--band {other})"
                reasons.append(f"{tag}main target {target} is out of the template's height band "
                               f"({_fmt(a.gap[i], tol)} beyond it, {where} band z {lo:.2f} to {hi:.2f}){hint}")
            elif a.full[i] and target != user and not a.los.get(target, False):
                source = "the template's centre" if pl.kind == "circle" else pl.user
                reasons.append(f"{tag}main target {target} has no LoS from {source}"
                               + _blocked(world, pl, target, settings))
        for i, mid in enumerate(ids):
            if mid == user or world.hitbox(mid).states & _GONE_STATES:
                continue
            hit = bool(a.touching[i] and a.in_band[i] and a.los.get(mid, False))
            if hit:
                n_hits[mid].append(k)
                best_frac[mid] = max(best_frac[mid], float(a.fraction[i]))
                full_any[mid] = full_any[mid] or bool(a.full[i])
                each[mid].append((round(float(a.fraction[i]), 4), bool(a.full[i])))
            last.setdefault(mid, [])
            last[mid].append((a, i, pl))
    affected, missed = [], []
    for mid in ids:
        hb = world.hitbox(mid)
        if mid == user:
            missed.append(TemplateMiss(mid, side[mid], "the user of the template is never affected"))
            continue
        if hb.states & _GONE_STATES:
            missed.append(TemplateMiss(mid, side[mid], "Dead: templates no longer affect it"))
            continue
        if n_hits[mid]:
            affected.append(TemplateHit(mid, side[mid], best_frac[mid], full_any[mid], True, True,
                                        len(n_hits[mid]), tuple(n_hits[mid]), tuple(each[mid])))
            continue
        # the reason from the template that came closest
        blocked = ""
        a, i, pl = min(last[mid], key=lambda t: (not t[0].touching[t[1]], not t[0].in_band[t[1]],
                                                   float(t[0].sdf[t[1]])))
        if not a.touching[i]:
            why = (f"outside the template ({_fmt(a.sdf[i] - hb.radius, tol)} from its edge)" if len(last[mid]) == 1
                   else f"outside every template ({_fmt(a.sdf[i] - hb.radius, tol)} from the nearest one's edge)")
        elif not a.in_band[i]:
            from engine.measure import FLYING_STATE, measuring_z
            lo, hi = pl.band
            z = measuring_z(world, mid)                 # a Flying model: the surface under it
            where = "above" if z > hi else "below"
            flying = f"; {FLYING_STATE}: measured on the surface under it, z {z:.2f}" \
                if FLYING_STATE in hb.states else ""
            why = (f"out of the height band: {_fmt(a.gap[i], tol)} {where} it "
                   f"(band z {lo:.2f} to {hi:.2f}, base at z {hb.z:.2f}{flying})")
        else:
            why = ("no LoS from the template's centre" if pl.kind == "circle"
                   else f"no LoS from {pl.user}")
            blocked = centre_blockers(world, pl.origin, mid, settings) if pl.kind == "circle" else ""
        missed.append(TemplateMiss(mid, side[mid], why, float(a.fraction[i]), bool(a.in_band[i]),
                                   a.los.get(mid), blocked))
    outlines = tuple(tuple((float(x), float(y)) for x, y in pl.polygon(settings.outline_segments).exterior.coords)
                     for pl in placements)
    return TemplateResult(spec.key, not reasons, "; ".join(reasons), target, user, target_full,
                          tuple(affected), tuple(missed), tuple(placements), outlines, search)


def template(world, kind: str, *, user: str | None = None, target: str | None = None,
             at=None, aim=None, band: str = "up", count: int = 1,
             settings: TemplateSettings | None = None) -> TemplateResult:
    """The one-call form (the Geometry protocol): place ``count`` templates and judge them.

    ``at`` and ``aim`` may each be one point or a list of points, one per
    template (the last one repeats when fewer are given).
    """
    settings = settings or TemplateSettings()
    spec = template_spec(kind)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise InputError(f"--count: expected a whole number >= 1, got {count!r}")
    if band not in ("up", "down", "both"):
        raise InputError(f"--band: {band!r} is not one of up, down")

    def per(value, k):
        if value is None:
            return None
        if len(value) and isinstance(value[0], (list, tuple, np.ndarray)):
            return value[min(k, len(value) - 1)]
        return value

    placements = []
    for k in range(count):
        if spec.kind == "circle":
            placements.append(place_circle(world, spec, target=target, at=per(at, k), settings=settings))
        else:
            placements.append(place_spray(world, spec, user=user, aim=per(aim, k), target=target, band=band))
    return evaluate(world, placements, target=target, user=user, settings=settings)


# --------------------------------------------------------------------------- placement search
def _score(hit: np.ndarray, enemy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return (hit & enemy[None]).sum(1), (hit & ~enemy[None]).sum(1)


def best_placement(world, kind: str, *, user: str, target: str, band: str | None = None,
                   count: int = 1, settings: TemplateSettings | None = None) -> TemplateResult:
    """The placement that fully covers ``target`` and hits the most enemies, then the fewest allies.

    Enemies are the models of any side other than the user's. Ties go to the
    placement that puts the target's base deepest inside the template. With
    ``count`` > 1 every template goes to the same best spot (each is judged
    on its own, so the best spot for one is the best for each). For a spray,
    ``band`` None tries up and down. The candidates are circle centres and spray
    aim points on the 0.01" the output prints (and the target's centre), so the
    placement proposed, asked again with ``at``/``aim``, gets the same verdict.
    The result's ``search`` holds the number of candidates, the time, and the
    estimated score.
    """
    settings = settings or TemplateSettings()
    spec = template_spec(kind)
    ub = _model(world, user, "--by")
    tb = _model(world, target, "--target")
    if target == user:
        raise InputError("--target: the user cannot be its own main target")
    t0 = time.perf_counter()
    if tb.states & _GONE_STATES:
        # no placement makes a Dead main target legal: its own centre, and why
        pl = (place_circle(world, spec, target=target, settings=settings) if spec.kind == "circle"
              else place_spray(world, spec, user=user, target=target, band=band or "up")
              if math.hypot(tb.x - ub.x, tb.y - ub.y) >= 1e-9
              else place_spray(world, spec, user=user, angle=ub.facing, band=band or "up"))
        return evaluate(world, [pl] * count, target=target, user=user, settings=settings,
                        search={"candidates": 0, "feasible": 0,
                                "ms": round((time.perf_counter() - t0) * 1e3, 2),
                                "note": "the main target is Dead: nothing to search"})
    ids, centers, radii, heights = world.model_arrays()
    side = np.array([world.hitbox(m).side for m in ids])
    enemy = side != ub.side
    live = np.array([not (world.hitbox(m).states & _GONE_STATES) for m in ids])
    others = np.array([m != user for m in ids]) & live
    ti = ids.index(target)
    tol = settings.contact_tol
    mz = _measured_z(world, ids, centers)           # Flying models: on the surface under them
    tops = mz + heights

    cands: list[tuple[tuple, Placement]] = []
    n_cand = 0
    if spec.kind == "circle":
        rho = spec.radius - tb.radius
        if rho < -tol:
            res = evaluate(world, place_circle(world, spec, target=target, settings=settings),
                           target=target, user=user, settings=settings)
            return replace(res, search={"candidates": 0, "feasible": 0,
                                        "ms": round((time.perf_counter() - t0) * 1e3, 2),
                                        "note": "the template is smaller than the target's base"})
        rho = max(rho, 0.0) * (1 - 1e-9)
        step = settings.search_step
        g = np.arange(-rho, rho + step / 2, step)
        gx, gy = np.meshgrid(g, g)
        grid = np.column_stack([gx.ravel(), gy.ravel()])
        grid = grid[np.hypot(grid[:, 0], grid[:, 1]) <= rho]
        ang = np.arange(settings.search_ring) * (2 * math.pi / settings.search_ring)
        ring = rho * np.column_stack([np.cos(ang), np.sin(ang)])
        txy = np.array([tb.x, tb.y])
        # the candidates are points the output prints (0.01"), so that the centre proposed,
        # asked again with --at X,Y, gets the same verdict: the grid's points rounded, and
        # round each ring point the printed points that keep the target fully inside
        # (evaluate's own test); the target's centre as it is
        q = 10.0 ** _PRINTED
        lo, hi = np.floor((txy + ring) * q) / q, np.ceil((txy + ring) * q) / q
        cxy = np.unique(np.vstack([np.round(txy + grid, _PRINTED), lo, hi, np.column_stack([lo[:, 0], hi[:, 1]]),
                                   np.column_stack([hi[:, 0], lo[:, 1]])]), axis=0)
        cxy = cxy[np.linalg.norm(txy - cxy, axis=1) - spec.radius + tb.radius <= tol]
        cxy = np.vstack([txy, cxy])
        offs = cxy - txy
        inside = (cxy[:, 0] >= 0) & (cxy[:, 0] <= world.table[0]) & (cxy[:, 1] >= 0) & (cxy[:, 1] <= world.table[1])
        cxy, offs = cxy[inside], offs[inside]
        surface = float(mz[ti])
        bandz = _band(surface, spec, "around")
        # each card where it lies (over a crate, up a slope; or held at the target's level,
        # circle_card: hold); none inside scenery above the band (held: none inside scenery)
        cz, _ = card_surface(world, cxy, surface, settings.lift(), bandz[1],
                             hold=settings.circle_card == "hold")
        keep = np.isfinite(cz)
        cxy, offs, cz = cxy[keep], offs[keep], cz[keep]
        n_cand = len(cxy)
        in_band, _ = _in_band(mz, tops, bandz, settings)
        d = np.linalg.norm(cxy[:, None, :] - centers[None, :, :2], axis=2)
        touch = d - spec.radius - radii[None] <= tol
        geo = touch & (in_band & others)[None]
        # LoS from each candidate centre to each model it touches: one batched query
        pc, pm = np.nonzero(geo)
        origins = np.column_stack([cxy[pc], cz[pc] + settings.lift()])
        # (with models blocking, the target whose hitbox holds the centre never hides the others)
        excl = set(ids) if not settings.models_block else {user, target}
        vis = points_see_hitboxes(world, origins, [ids[j] for j in pm],
                                  models_block=settings.models_block, exclude=excl,
                                  sight_settings=settings.sight())
        hit = np.zeros_like(geo)
        hit[pc[vis], pm[vis]] = True
        en, al = _score(hit, enemy)
        depth = rho - np.hypot(offs[:, 0], offs[:, 1])
        # a centre the main target cannot be seen from is illegal: those go last
        order = np.lexsort((-depth, al, -en, ~hit[:, ti]))
        feasible_los = int(hit[:, ti].sum())
        est = {"enemies": int(en[order[0]]), "allies": int(al[order[0]])} if n_cand else {}
        # the best candidate of each distinct outcome (set of models hit), best first
        _, first = np.unique(np.packbits(hit[order], axis=1), axis=0, return_index=True)
        for j in order[np.sort(first)]:
            pl = Placement(spec, surface, bandz, "around", centre=(float(cxy[j, 0]), float(cxy[j, 1])),
                           lift=settings.lift(), centre_z=float(cz[j]) if cz[j] > surface + 1e-9 else None)
            cands.append(((int(en[j]), int(al[j])), pl))
            if len(cands) >= settings.search_verify or (feasible_los and not hit[j, ti]):
                break
        feasible = feasible_los
    else:
        choices = [band] if band else ["up", "down"]
        step = settings.search_angle_step
        # each aim is a point the output prints (0.01"), at the far end of the axis, so that
        # the spray proposed, asked again with --aim X,Y, gets the same verdict; and the target
        a = np.radians(np.arange(0.0, 360.0, step))
        far = ub.radius + spec.length
        aims = np.round(np.column_stack([ub.x + far * np.cos(a), ub.y + far * np.sin(a)]), _PRINTED)
        aims = np.vstack([[tb.x, tb.y], aims])
        angles = np.degrees(np.arctan2(aims[:, 1] - ub.y, aims[:, 0] - ub.x)) % 360.0
        apex = np.column_stack([ub.x + ub.radius * np.cos(np.radians(angles)),
                                ub.y + ub.radius * np.sin(np.radians(angles))])
        sdf = teardrop_sdf(centers[None, :, :2], apex[:, None, :], angles[:, None],
                           spec.length, spec.narrow, spec.wide)          # (n_angles, m)
        touch = sdf - radii[None] <= tol
        ok = sdf[:, ti] + tb.radius <= tol
        covering_any_arc = bool(ok.any())
        if settings.front_arc and not ({t.lower() for t in ub.traits} & _ALL_ROUND_TRAITS):
            diff = (angles - ub.facing + 180.0) % 360.0 - 180.0
            ok &= np.abs(diff) <= 90.0 + 1e-6
        n_cand = len(angles) * len(choices)
        feasible = 0            # aims that cover the target fully, in a band that holds it
        covering = bool(ok.any())
        # LoS from the user does not depend on the aim: once per model
        maybe = np.flatnonzero((touch[ok].any(0) if ok.any() else np.zeros(len(ids), bool)) & others)
        excl = set(ids) if not settings.models_block else {user}
        los = np.zeros(len(ids), dtype=bool)
        seen_from_user = _los_from_user_many(world, user, [ids[j] for j in maybe], settings=settings, exclude=excl)
        for j in maybe:
            los[j] = seen_from_user.get(ids[j], False)
        rows = []        # (enemies, allies, depth, band index, angle index, hit row)
        depth = -(sdf[:, ti] + tb.radius)
        okj = np.flatnonzero(ok)
        for c, ch in enumerate(choices):
            bandz = _band(float(mz[ids.index(user)]), spec, ch)
            in_band, _ = _in_band(mz, tops, bandz, settings)
            if not in_band[ti] or len(okj) == 0:
                continue
            feasible += len(okj)
            hit = touch[okj] & (in_band & others & los)[None]
            en, al = _score(hit, enemy)
            rows.append((en, al, depth[okj], np.full(len(okj), c), okj, hit))
        best_est = None
        if rows:
            en, al, dp, cc, jj, hit = (np.concatenate([r[k] for r in rows]) for k in range(6))
            order = np.lexsort((-dp, al, -en))
            keyed = np.column_stack([cc[order, None].astype(np.uint8), np.packbits(hit[order], axis=1)])
            _, first = np.unique(keyed, axis=0, return_index=True)
            for o in order[np.sort(first)][:settings.search_verify]:
                pl = place_spray(world, spec, user=user, aim=tuple(aims[jj[o]]), band=choices[cc[o]])
                cands.append(((int(en[o]), int(al[o])), pl))
            o = order[0]
            best_est = {"enemies": int(en[o]), "allies": int(al[o])}
        est = best_est or {}
    search = {"candidates": int(n_cand), "feasible": int(feasible), "estimate": est}
    if not cands:
        pl = (place_circle(world, spec, target=target, settings=settings) if spec.kind == "circle"
              else place_spray(world, spec, user=user, target=target, band=band or "up")
              if math.hypot(tb.x - ub.x, tb.y - ub.y) >= 1e-9
              # a target straight above or below: any direction shows it is not covered
              else place_spray(world, spec, user=user, angle=ub.facing, band=band or "up"))
        search["ms"] = round((time.perf_counter() - t0) * 1e3, 2)
        search["note"] = "no placement covers the main target fully"
        if spec.kind == "spray" and covering:
            search["note"] = (f"the main target is out of the {band} band" if band else
                              "the main target is in neither height band (up or down)")
        elif spec.kind == "spray" and covering_any_arc:
            search["note"] = (f"only sprays pointing into {user}'s back arc cover the main target fully "
                              f"(facing {ub.facing:.1f} deg)")
        return evaluate(world, [pl] * count, target=target, user=user, settings=settings, search=search)
    best = None
    for est_score, pl in cands:
        res = evaluate(world, pl, target=target, user=user, settings=settings)
        if not res.legal:
            continue
        en_ = sum(1 for h in res.affected if enemy[ids.index(h.id)])
        al_ = len(res.affected) - en_
        sc = (en_, -al_)
        if best is None or sc > best[0]:
            best = (sc, pl)
        if sc >= (est_score[0], -est_score[1]):
            break
    if best is None:
        best = (None, cands[0][1])
    search["ms"] = round((time.perf_counter() - t0) * 1e3, 2)
    return evaluate(world, [best[1]] * count, target=target, user=user, settings=settings, search=search)
