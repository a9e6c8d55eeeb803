"""Scene models -> rules units.

The rules never import the engine; this module is the bridge: it turns each
``engine.scene.ModelSpec`` (with its resolved ``Profile``) into a
``rules.core.units.Unit`` of plain data.
"""
from __future__ import annotations

from engine.units import MM_PER_INCH, size_table
from rules.core.units import Unit, spell_dict, weapon_dict


def size_of_base(base_mm: float) -> str:
    """The Size of a model the scene gives only ``base_mm``/``height_mm`` (no ``size``, no
    profile): the largest Size of the size table whose base fits its base (25 mm: S, 32 mm:
    M, 100 mm: E). The rules read Size (a Knockback or Knockdown does nothing to a target two
    Sizes larger), and such a model is no Medium by default (docs/rulings.md)."""
    table = size_table()
    fits = [(float(row["base_mm"]), code) for code, row in table.items()
            if float(row["base_mm"]) <= float(base_mm) + 1e-9]
    if not fits:
        return min(table, key=lambda code: float(table[code]["base_mm"]))
    return max(fits)[1]


def unit_from_spec(spec, z: float | None = None) -> Unit:
    """One ``ModelSpec`` -> ``Unit``. ``z`` replaces a spec's ``at`` z of None."""
    prof = spec.profile
    x, y, sz = spec.at
    zz = sz if sz is not None else (0.0 if z is None else float(z))
    stats = {k: int(v) for k, v in (spec.stats or (prof.stats if prof else {})).items()}
    weapons, spells = [], []
    if prof is not None:
        weapons = [weapon_dict(w.name, w.kind, w.rch, w.pw, w.stk, w.traits, w.bands, w.hands)
                   for w in prof.weapons]
        if prof.shield:  # the rules read a carried shield as an item of kind "shield"
            weapons.append(weapon_dict("Shield", "shield", 0.0, 0, 1, (), (), 1))
        spells = [spell_dict(s.name, s.type, s.affinity, s.mana, s.pw, s.stk, s.rng, s.traits,
                             s.effect, getattr(s, "target", "enemy"), getattr(s, "melee", False),
                             getattr(s, "template", ""), getattr(s, "bands", ()))
                  for s in prof.spells]
    extra = {}
    if prof is not None and prof.extra:
        extra = {k: v for k, v in prof.extra.items() if isinstance(v, (str, int, float, bool, list, dict))}
    if getattr(spec, "reserve", False):
        # off the table until a Ritual summons it (rules/eldfall/spells.py)
        extra["reserve"] = True
        extra["tier"] = int(getattr(spec, "tier", 1))
    if getattr(spec, "mounted", False):
        # a rider on its mount (rules/eldfall/sequence.py: dismounted when it
        # becomes Crouched, then ``dismounted``'s stat changes apply)
        extra["mounted"] = True
        extra["dismounted"] = {str(k): int(v) for k, v in sorted(getattr(spec, "dismounted", {}).items())}
    return Unit(
        id=spec.id, side=spec.side,
        name=(prof.name if prof else spec.id),
        size=(spec.size or (prof.size if prof else None) or size_of_base(spec.base_mm)),
        base=float(spec.base_mm) / MM_PER_INCH,
        height=float(spec.height_mm) / MM_PER_INCH,
        stats=stats,
        traits=list(prof.traits) if prof else [],
        skills=list(prof.skills) if prof else [],
        classes=list(prof.classes) if prof else [],
        affinities=list(prof.affinities) if prof else [],
        weapons=weapons, spells=spells,
        leader=bool(spec.leader),  # the loader resolves the profile flag and the scene's override
        states=list(spec.states),
        at=(float(x), float(y), float(zz)),
        facing=float(spec.facing),
        extra=extra,
    )


def units_from_scene(scene, world=None) -> list[Unit]:
    """Every model of a scene as a Unit, in scene order, then the reserve
    creatures (``Scene.reserves``: ``extra["reserve"]`` true, ``extra["tier"]``),
    which stay off the table until a Ritual summons them.

    With a ``world`` (``engine.world.World``), positions come from its hitboxes
    (z resolved onto the surface under each base), and a model the scene leaves
    hanging on a vertical surface (``engine.validate.hanging_models``: a Climb
    ended there) gets ``extra["on_vertical"]: true``.
    """
    hanging = {}
    if world is not None:
        from engine.validate import hanging_models
        hanging = hanging_models(world)
    out = []
    for spec in scene.models:
        u = unit_from_spec(spec)
        if world is not None:
            hb = world.hitbox(spec.id)
            u.at = (float(hb.x), float(hb.y), float(hb.z))
            u.facing = float(hb.facing)
            if spec.id in hanging:
                u.extra["on_vertical"] = True
        out.append(u)
    for spec in getattr(scene, "reserves", ()):
        out.append(unit_from_spec(spec))
    return out


def tokens_from_scene(scene) -> list[dict]:
    """The scene's tokens as plain dicts (what ``Scene.extra["tokens"]`` holds,
    and so a game's ``scene_info["tokens"]``)."""
    return [t.to_dict() for t in getattr(scene, "tokens", ())]
