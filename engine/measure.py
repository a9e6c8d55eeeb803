"""Measuring: distance, reach and range bands, awareness and aura, engagement.

All in inches, 3D, between the closest points of the hitboxes (p.18-19).

* Reach (p.24) is measured from anywhere on the hitbox; RCH 0 means base
  contact only.
* A ranged weapon's bands are ``((min, max, acc_mod), ...)`` ascending. The
  printed bands leave gaps between whole inches ("0-20", "21-40"); a measured
  20.4" lies in the second band: band k covers (max of band k-1, max of band
  k]. Below the first band's min (a minimum range) or past the last max: out
  of range.
* Awareness (p.22): AG inches from the edge of the base, +3" with Acute
  Senses; the other hitbox inside or touching. Casting Aura = Awareness.
* Engaged (States, "Engaged"): within the Melee Weapon Reach and LoS of an
  enemy. Crouched, Incapacitated, Petrified and Dead models engage nobody;
  Flying models neither engage nor become Engaged (States, "Flying"), nor do Dead
  and Petrified ones become Engaged. A scene stands at the end of a Phase: a model an
  enemy engages there is Engaged, whether or not the scene lists the State
  (``engaged_on_table``, as ``eldfall move`` and a game set up from the scene judge). A model
  with no melee weapon in its profile engages only in base contact (RCH 0),
  as ``engine.sight`` assumes for its Engaged exception.

* A Flying model is measured as if it stood on the surface under it
  (States, "Flying": "All distances ... are measured as if the model were
  placed on the field surface").

    >>> engagements(world)            # [(engager, engaged), ...]
    >>> measure(world, "red-1", "blue-2").to_json()
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from engine.errors import InputError, Problem

CONTACT_TOLERANCE = 1e-3
# states of an enemy that cannot engage (seed: eldfall-states.txt, "Ceasing to be Engaged")
NON_ENGAGING_STATES = frozenset({"Crouched", "Incapacitated", "Petrified", "Dead", "Flying"})
# states of a model that is never Engaged (docs/rulings.md, Engagement; rules.eldfall.conditions.can_be_engaged)
NEVER_ENGAGED_STATES = frozenset({"Flying", "Dead", "Petrified"})
UNARMED_RCH = 0.0
MELEE_KINDS = frozenset({"melee"})


FLYING_STATE = "Flying"


def measuring_z(world, mid: str) -> float:
    """The base height measurements use: a Flying model's is the surface under it,
    where its base would rest (``World.stand_z``: the highest support under its
    base at or below it, as ``eldfall move`` lands a Flying model), not only the
    surface under its centre (a base half over a box is measured on the box)."""
    hb = world.hitbox(mid)
    if FLYING_STATE in hb.states:
        z = float(world.stand_z(hb.x, hb.y, hb.radius, near_z=hb.z))
        return z if math.isfinite(z) else 0.0
    return float(hb.z)


def distance(world, a: str, b: str) -> float:
    """Closest points of the two hitboxes, 3D, inches; Flying models measured on the surface."""
    ha, hb = world.hitbox(a), world.hitbox(b)
    if a == b:
        return 0.0
    if FLYING_STATE not in ha.states and FLYING_STATE not in hb.states:
        return float(world.distance(a, b))
    from engine.world import cylinder_distance
    ca = np.array([ha.x, ha.y, measuring_z(world, a)])
    cb = np.array([hb.x, hb.y, measuring_z(world, b)])
    return float(cylinder_distance(ca, ha.radius, ha.height, cb, hb.radius, hb.height))


def in_reach(world, a: str, b: str, rch: float) -> bool:
    """b within RCH of a's hitbox (RCH 0: base contact)."""
    return distance(world, a, b) <= max(0.0, float(rch)) + CONTACT_TOLERANCE


def in_awareness(world, a: str, b: str) -> bool:
    """b's hitbox inside or touching a's Awareness (AG, +3" Acute Senses) from a's base edge."""
    return distance(world, a, b) <= world.hitbox(a).awareness + CONTACT_TOLERANCE


@dataclass(frozen=True)
class WeaponReach:
    """One weapon of A against B."""
    name: str
    kind: str
    in_reach: bool
    rch: float | None = None                         # melee: its reach
    band: tuple[float, float] | None = None          # ranged: the band B lies in
    modifier: int | None = None                      # ranged: ACC modifier of that band
    why: str = ""
    distance: float | None = None                    # the distance measured, inches
    targetless: bool = False                         # the Targetless trait: needs no LoS to the target
    # the attribute its Attack rolls, which the band's modifier modifies (ACC; a spell's casting
    # attribute, INT or M for a Mystic: the rules' to say, ``tools.cmd_measure.with_rolls``)
    rolls: str | None = None
    # an Assist spell (it targets allies: ``Spell.target`` not "enemy"): only its range counts, no
    # band's modifier (rules/eldfall/spells.py ``why_not_assist``, ``resolve_assist``)
    assist: bool = False
    # a spell with no printed bands: in range up to its ``range``, no band's modifier to print
    unbanded: bool = False
    # the Snipe ability (a trait of the weapon's, or a skill or trait of A's): its Attack ignores
    # the target's Cover (eldfall-facts.md, Cover; rules/eldfall/resolution.py ``snipes``)
    snipe: bool = False

    def to_json(self) -> dict:
        return {"name": self.name, "kind": self.kind, "in_reach": self.in_reach, "rch": self.rch,
                "band": list(self.band) if self.band else None, "modifier": self.modifier, "why": self.why,
                "distance": None if self.distance is None else round(self.distance, 4),
                "targetless": self.targetless, "rolls": self.label, "assist": self.assist,
                "unbanded": self.unbanded, "snipe": self.snipe}

    @property
    def label(self) -> str:
        """What the band's modifier is written against: ``rolls``, else ACC for a weapon and
        "casting attribute" for a spell (which one is the rules' to say)."""
        return self.rolls or ("casting attribute" if self.kind == "spell" else "ACC")

    def describe(self) -> str:
        at = "" if self.distance is None else f' at {_inches(self.distance)}"'
        if self.assist and self.band is not None and self.in_reach:
            return f'{self.name}: in range{at} (range {self.band[1]:g}"; an Assist: no range modifier)'
        if self.unbanded and self.band is not None and self.in_reach:
            return f'{self.name}: in range{at} (range {self.band[1]:g}"; no bands printed), {self.label} +0'
        if self.band is not None and self.in_reach:
            gap = (" (between the printed bands: the later one counts)"
                   if self.distance is not None and self.distance < self.band[0] - CONTACT_TOLERANCE else "")
            return (f'{self.name}: in range{at}, band {self.band[0]:g}-{self.band[1]:g}", '
                    f'{self.label} {self.modifier:+d}{gap}')
        if self.rch is not None and self.in_reach:
            return f'{self.name}: in reach{at} (RCH {self.rch:g}")'
        return f"{self.name}: {self.why}"


def inches(v: float, nd: int) -> str:
    """A distance with ``nd`` decimals, or as many more (up to 6) as it takes not to print a
    distance beyond a whole inch as that inch: range bands and Awareness are whole inches,
    inclusive (within CONTACT_TOLERANCE), so 20.004" is in the 21-40" band and
    reads "20.004", never "20.00" (or "20.0")."""
    whole = math.floor(v + 0.5)
    if v <= whole + CONTACT_TOLERANCE:
        return f"{v:.{nd}f}"
    for k in range(nd, 7):
        if float(f"{v:.{k}f}") > whole:
            return f"{v:.{k}f}"
    return f"{v:.6f}"


def _inches(v: float) -> str:
    return inches(float(v), 2)


def _band_bounds(bands) -> list[tuple[float, float, float, int]]:
    """(lower exclusive-or-min, upper, printed min, modifier) per band."""
    out = []
    prev = None
    for lo, hi, mod in bands:
        start = float(lo) if prev is None else float(prev)
        out.append((start, float(hi), float(lo), int(mod)))
        prev = hi
    return out


def range_band(bands, distance: float) -> tuple[tuple[float, float], int] | None:
    """The band ((printed min, max), ACC modifier) that ``distance`` falls in, or None.

    The first band includes its min; each later band runs from the previous
    band's max (exclusive) to its own max (inclusive).
    """
    d = float(distance)
    for k, (start, hi, lo, mod) in enumerate(_band_bounds(bands)):
        if k == 0 and d < start - CONTACT_TOLERANCE:
            return None
        if d <= hi + CONTACT_TOLERANCE:
            return (lo, hi), mod
    return None


def has_trait(traits, name: str) -> bool:
    """The trait ``name`` among ``traits``, in any case and spacing (as the rules read a trait:
    rules/eldfall/combat.py ``has_trait``)."""
    return any(" ".join(str(t).split()).casefold() == name.casefold() for t in traits or ())


def is_targetless(traits) -> bool:
    """The Targetless trait among ``traits``: its Attack needs no LoS to the target."""
    return has_trait(traits, "targetless")


def weapon_reach(world, a: str, b: str, weapon, assist: bool = False, unbanded: bool = False) -> WeaponReach:
    """Is ``b`` in reach (melee) or in range (a band) of ``a``'s ``weapon``? ``assist``: the
    weapon is an Assist spell (no band's modifier); ``unbanded``: a spell with no printed
    bands, measured to its range."""
    snipe = has_trait(tuple(weapon.traits or ()) + tuple(world.hitbox(a).traits), "snipe")
    wr = replace(_weapon_reach(world, a, b, weapon), unbanded=unbanded, snipe=snipe)
    if not assist:
        return wr
    why = f'{_inches(wr.distance)}" is within its range of {wr.band[1]:g}"' if wr.band and wr.in_reach else wr.why
    return replace(wr, assist=True, modifier=None, why=why)


def _weapon_reach(world, a: str, b: str, weapon) -> WeaponReach:
    d = distance(world, a, b)
    tl = is_targetless(weapon.traits)
    if weapon.bands:
        found = range_band(weapon.bands, d)
        if found is None:
            first, last = weapon.bands[0], weapon.bands[-1]
            if d < float(first[0]):
                why = f'too close: {_inches(d)}" is inside the minimum range of {float(first[0]):g}"'
            else:
                why = f'out of range: {_inches(d)}" is beyond {float(last[1]):g}"'
            return WeaponReach(weapon.name, weapon.kind, False, why=why, distance=d, targetless=tl)
        (lo, hi), mod = found
        return WeaponReach(weapon.name, weapon.kind, True, band=(lo, hi), modifier=mod,
                           why=f'{_inches(d)}" is in the {lo:g}-{hi:g}" band', distance=d, targetless=tl)
    rch = float(weapon.rch)
    ok = in_reach(world, a, b, rch)
    if rch <= 0:
        why = "in base contact" if ok else f'RCH 0 needs base contact; {_inches(d)}" apart'
    else:
        why = f'{_inches(d)}" <= RCH {rch:g}"' if ok else f'out of reach: {_inches(d)}" > RCH {rch:g}"'
    return WeaponReach(weapon.name, weapon.kind, ok, rch=rch, why=why, distance=d, targetless=tl)


def _weapons(hb):
    prof = hb.spec.profile if hb.spec is not None else None
    return tuple(prof.weapons) if prof is not None else ()


def _spells_as_weapons(hb) -> tuple:
    """A's spells that reach another model, measured as weapons: a melee-type spell by its
    reach, a ranged one by its bands (or 0 to its range)."""
    from engine.scene import Weapon
    prof = hb.spec.profile if hb.spec is not None else None
    out = []
    for sp in (prof.spells if prof is not None else ()):
        if sp.target == "self" or sp.rng <= 0:
            continue
        if sp.melee:
            out.append(Weapon(sp.name, "spell", rch=float(sp.rng), pw=sp.pw, stk=sp.stk, traits=sp.traits))
        else:
            out.append(Weapon(sp.name, "spell", pw=sp.pw, stk=sp.stk, traits=sp.traits,
                              bands=sp.bands or ((0.0, float(sp.rng), 0),)))
    return tuple(out)


def _spell_names(hb, which) -> frozenset[str]:
    """The names of A's spells for which ``which(spell)`` holds."""
    prof = hb.spec.profile if hb.spec is not None else None
    return frozenset(sp.name for sp in (prof.spells if prof is not None else ()) if which(sp))


def _assist_spells(hb) -> frozenset[str]:
    """The names of A's Assist spells: those that target allies, not enemies (``Spell.target``
    ally or any; "self" ones are not measured), cast with the Assist action."""
    return _spell_names(hb, lambda sp: sp.target != "enemy")


def melee_reach(world, mid: str) -> float:
    """The longest reach of a model's melee weapons; RCH 0 (base contact) when it has none."""
    rch = [float(w.rch) for w in _weapons(world.hitbox(mid)) if w.kind in MELEE_KINDS]
    return max(rch) if rch else UNARMED_RCH


def _fallback_los(world, viewer: str, target: str) -> bool:
    """LoS without engine.sight: any lattice point to any lattice point, front arc, models block."""
    from engine.templates import _hitbox_lattice, points_see_hitboxes
    v, t = world.hitbox(viewer), world.hitbox(target)
    if "vigilance" not in {x.lower() for x in v.traits}:
        ahead = (t.x - v.x) * math.cos(math.radians(v.facing)) + (t.y - v.y) * math.sin(math.radians(v.facing))
        if ahead < -t.radius:      # wholly behind the line across the base
            return False
    pts = _hitbox_lattice(v.x, v.y, v.z, v.radius, v.height, rings=8)
    return bool(points_see_hitboxes(world, pts, [target] * len(pts), models_block=True,
                                    exclude={viewer, target}).any())


def has_los(world, viewer: str, target: str, *, own: bool = False, settings=None,
            engaged_with=None) -> bool:
    """The viewer's LoS to the target by the rulebook (engine.sight). ``own``: the viewer's
    own LoS, without the Engaged state's LoS to its engagers; ``settings``: the sight
    settings (default engine/data/sight.yaml); ``engaged_with``: the models engaging the
    viewer (default: those of its Engaged State, ``sight.engagers``)."""
    if viewer == target:
        return True
    try:
        from engine import sight
    except ImportError:
        return _fallback_los(world, viewer, target)
    return bool(sight.los(world, viewer, target, fraction=False, cover=False, settings=settings,
                          engaged_with=() if own else engaged_with).los)


def engages(world, engager: str, engaged: str, settings=None) -> bool:
    """``engager`` makes ``engaged`` Engaged: enemies, in its melee reach, with its LoS (by the
    sight ``settings``, default engine/data/sight.yaml)."""
    e, m = world.hitbox(engager), world.hitbox(engaged)
    if engager == engaged or e.side == m.side or e.states & NON_ENGAGING_STATES \
            or m.states & NEVER_ENGAGED_STATES:
        return False
    if not in_reach(world, engager, engaged, melee_reach(world, engager)):
        return False
    # its own LoS: an Engaged engager's LoS to its own engagers does not engage them back
    return has_los(world, engager, engaged, own=True, settings=settings)


def engaged_on_table(world, model: str, settings=None) -> list[str] | None:
    """The enemies that engage ``model`` where the table stands it (in their melee reach, with
    their own LoS), for a model on an Eldfall table whose scene does not list the Engaged
    State: a scene stands at the end of a Phase, when Engaged is worked out
    (eldfall-states.txt, Engaged), so ``eldfall move``, ``reach`` and a game set up from it
    judge it Engaged, and it has the automatic LoS to them. None when the model has the State
    (its engagers are the rules', ``sight.engagers``) or the scene is not for Eldfall."""
    hb = world.hitbox(model)
    games = tuple(getattr(getattr(world, "scene", None), "games", ("eldfall",)) or ("eldfall",))
    if "Engaged" in hb.states or "eldfall" not in games:
        return None
    return [e for e in world.model_ids() if e != model and engages(world, e, model, settings)]


def engagements(world) -> list[tuple[str, str]]:
    """Every (engager, engaged) pair on the table, in scene order.

    The reach test runs vectorised over all pairs; LoS only for pairs in reach.
    """
    from engine.world import cylinder_distance
    ids, centers, radii, heights = world.model_arrays()
    if len(ids) < 2:
        return []
    hbs = [world.hitbox(m) for m in ids]
    rch = np.array([np.nan if h.states & NON_ENGAGING_STATES else melee_reach(world, m)
                    for m, h in zip(ids, hbs)])
    can_be = np.array([not (h.states & NEVER_ENGAGED_STATES) for h in hbs])
    side = np.array([h.side for h in hbs])
    d = cylinder_distance(centers[:, None, :], radii[:, None], heights[:, None],
                          centers[None, :, :], radii[None, :], heights[None, :])
    limit = np.where(np.nan_to_num(rch, nan=-1.0) <= 0, 0.0, np.nan_to_num(rch, nan=-1.0))[:, None]
    near = (d <= limit + CONTACT_TOLERANCE) & ~np.isnan(rch)[:, None] & (side[:, None] != side[None, :]) \
        & can_be[None, :]
    out = []
    for i, j in zip(*np.nonzero(near)):
        if has_los(world, ids[i], ids[j], own=True):
            out.append((ids[i], ids[j]))
    return out


def measure_settings(settings=None) -> dict:
    """What a measurement depends on, as plain data (--json): the contact tolerance, the
    Flying rule, and the LoS settings the LoS and engagement answers use (``settings``,
    default engine/data/sight.yaml)."""
    try:
        from engine.sight_settings import default_settings
        sight = (settings or default_settings()).as_dict()
    except ImportError:
        sight = None
    return {"contact_tolerance_in": CONTACT_TOLERANCE, "unarmed_rch_in": UNARMED_RCH,
            "flying_measured_on_surface": True, "range_bands": "a distance between two printed bands "
            "belongs to the later band (docs/rulings.md, Range bands)", "sight": sight}


@dataclass(frozen=True)
class Measurement:
    a: str
    b: str
    distance: float
    height_difference: float          # b's base z - a's
    horizontal: float                 # between the base edges, seen from above (0 when overlapping)
    base_contact: bool
    awareness: float                  # A's Awareness radius (= its Casting Aura)
    b_in_awareness: bool
    a_in_b_awareness: bool
    weapons: tuple[WeaponReach, ...]
    a_engages_b: bool
    b_engages_a: bool
    los: bool | None

    @property
    def aura(self) -> float:
        return self.awareness

    @property
    def b_in_aura(self) -> bool:
        return self.b_in_awareness

    def to_json(self) -> dict:
        return {"a": self.a, "b": self.b, "distance": round(self.distance, 4),
                "height_difference": round(self.height_difference, 4),
                "horizontal": round(self.horizontal, 4), "base_contact": self.base_contact,
                "awareness": self.awareness, "b_in_awareness": self.b_in_awareness,
                "casting_aura": self.awareness, "b_in_aura": self.b_in_awareness,
                "a_in_b_awareness": self.a_in_b_awareness, "los": self.los,
                "weapons": [w.to_json() for w in self.weapons],
                "engagement": {"a_engages_b": self.a_engages_b, "b_engages_a": self.b_engages_a}}


def measure(world, a: str, b: str, weapon: str | None = None, settings=None) -> Measurement:
    """Everything a referee measures between A and B.

    ``weapon`` names one of A's weapons or spells (default: all of them); ``settings``: the
    sight settings the LoS and engagement answers use (default engine/data/sight.yaml).
    """
    for mid in (a, b):
        if mid not in world.models:
            raise InputError(f"unknown model {mid!r} (known: {', '.join(world.model_ids())})")
    ha, hb = world.hitbox(a), world.hitbox(b)
    weapons = _weapons(ha) + _spells_as_weapons(ha)
    if weapon is not None:
        chosen = [w for w in weapons if w.name.lower() == weapon.lower()]
        if not chosen:
            names = ", ".join(w.name for w in weapons) or "none"
            raise InputError(Problem("<command line>", None, "--weapon",
                                     f"{a} has no weapon or spell {weapon!r} (its weapons and spells: {names})"))
        weapons = tuple(chosen)
    horiz = max(0.0, math.hypot(hb.x - ha.x, hb.y - ha.y) - ha.radius - hb.radius)
    assists = _assist_spells(ha)
    unbanded = _spell_names(ha, lambda sp: not sp.melee and not sp.bands)
    return Measurement(
        a, b, distance(world, a, b), measuring_z(world, b) - measuring_z(world, a), horiz,
        distance(world, a, b) <= CONTACT_TOLERANCE, ha.awareness, in_awareness(world, a, b),
        in_awareness(world, b, a),
        tuple(weapon_reach(world, a, b, w, assist=w.kind == "spell" and w.name in assists,
                           unbanded=w.kind == "spell" and w.name in unbanded) for w in weapons),
        engages(world, a, b, settings), engages(world, b, a, settings),
        has_los(world, a, b, settings=settings, engaged_with=engaged_on_table(world, a, settings))
        if a != b else True)
