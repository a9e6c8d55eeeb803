"""``eldfall measure SCENE A B``: what a referee measures between two models.

Distance (closest points of the hitboxes, 3D) and height difference; base
contact; whether B is in A's Awareness (= Casting Aura); whether B is in reach
or range of A's weapons, with the band and its modifier (to ACC; a spell's to its casting
attribute, INT or M for a Mystic), and for a ranged weapon or spell in range what B's Cover,
a Forest (named), the Dark and Friendly Fire add to it (the whole modifier, as the rules
engine adds it; a spell through the Casting Aura halved after it, a Targetless Attack without
LoS not, and without Cover); a Melee Attack (a melee weapon, a Melee-Type spell) and an
Assist spell add nothing, but a spell without LoS is halved through the Casting Aura and a
weapon without LoS cannot strike; what the rules engine refuses (an Attack on an ally, an
Assist on an enemy, an Engaged model's spell that is not Melee-Type, the States); the spells
not measured, with why; engagement both ways.

    eldfall measure scenes/skirmish.yaml red-archer blue-guard --weapon Longbow
"""
from __future__ import annotations

import json

from engine.errors import InputError, Problem
from engine.units import inches_over
from tools.loading import eldfall_rules_note, load_world


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("a", help="the measuring model")
    parser.add_argument("b", help="the other model")
    parser.add_argument("--weapon", help="only this weapon or spell of A (default: all of them)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--settings", metavar="FILE",
                        help="sight settings for the LoS and engagement answers (default engine/data/sight.yaml), "
                             "as `eldfall los --settings`")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")


# the Casting Aura lets a spell reach a target without LoS in the Active Role only
# (eldfall-facts.md, Reach; rules/eldfall/resolution.py ``_aura_target``, spells.py ``_in_aura``)
REACTION_NO_AURA = "a Reaction cannot reach it (the Aura is for the Active Role)"


def flying_lines(world, ids) -> list[str]:
    """A Flying model is measured as if it stood on the surface under it (docs/rulings.md,
    "Flying models are measured on the surface"): say so, with how high it flies, so that a
    model 3" up that reads "level" is not taken for a wrong height."""
    from engine.measure import FLYING_STATE, measuring_z
    out = []
    for mid in ids:
        hb = world.hitbox(mid)
        if FLYING_STATE in hb.states:
            z0 = measuring_z(world, mid)
            out.append(f"  {mid} is Flying {hb.z - z0:.2f}\" above the surface under it (z {z0:.2f}): its "
                       "distances, reach, range, awareness and height are measured from that surface "
                       "(LoS: it sees and is seen by every model but a Blinded one, whatever stands between)")
    return out


def los_reason(world, a: str, b: str, settings=None) -> str | None:
    """Why ``a`` has no LoS to ``b``, in the words of ``eldfall los`` (the state or the Dark
    that decides, the pieces in the way): None when it has LoS. The same LoS as
    ``engine.measure.measure`` asks (``has_los``), with its reason kept."""
    from engine import sight
    from engine.measure import engaged_on_table
    from tools.cmd_los import blocking_words
    r = sight.los(world, a, b, fraction=False, cover=False, settings=settings,
                  engaged_with=engaged_on_table(world, a, settings))
    if r.los:
        return None
    if r.reason == "blocked" and r.blocking:
        return "blocked by " + blocking_words(world, r)
    return str(r.reason)


def los_given_by(world, a: str, b: str, settings=None) -> str | None:
    """Why ``a`` has LoS to ``b`` when the Engaged state gives it whatever stands between (``a``
    engaged by ``b``), in the words of ``eldfall los``; None when the lines decide (or there is
    no LoS). A "yes" to a model behind a wall or behind the front arc otherwise reads as a
    fault. (A Flying model's LoS is said on its own line, ``flying_lines``.)"""
    from engine import sight
    from engine.measure import engaged_on_table
    from engine.sight_settings import default_settings
    from tools.cmd_los import decided_by, engaged_on_table_words
    s = settings or default_settings()
    ha = world.hitbox(a)
    # engaged where the table stands it, the scene not listing the State (as `eldfall los` says)
    table = engaged_on_table(world, a, settings)
    if a == b or (s.engaged_state not in ha.states and not table):
        return None
    r = sight.los(world, a, b, fraction=False, cover=False, settings=settings, engaged_with=table)
    if not (r.los and decided_by(world, r) == "engaged"):
        return None
    return str(r.reason) + (f"; {engaged_on_table_words(a, table)}" if table else "")


def no_ag_note(world, mid: str) -> str:
    """" (no AG stat)" when a model's Awareness is 0" (or 3" with Acute Senses) only because
    it has no AG (a model given by size alone, no profile), else ""."""
    if world is None or mid not in world.models:
        return ""
    hb = world.hitbox(mid)
    return " (no AG stat)" if hb.awareness_ag is None and "AG" not in (hb.stats or {}) else ""


def attack_of(w) -> str:
    """The Action a weapon or spell of ``engine.measure.WeaponReach`` is declared with: a melee
    weapon's and a Melee-Type spell's (measured by its reach) a Melee Attack, another spell's a
    Spell Attack, any other weapon's a Ranged Attack (as `eldfall aoe` and the rules engine); a
    spell that targets allies an Assist."""
    if w.assist:
        return "Assist"
    if w.kind == "spell":
        return "Melee Attack" if w.rch is not None else "Spell Attack"
    return "Melee Attack" if w.rch is not None and not w.band else "Ranged Attack"


def rolled_attribute(world, a: str, w) -> str:
    """The attribute ``a``'s Attack with the weapon or spell ``w`` rolls, by the rules' table
    (``rules.eldfall.tables.roll_attribute``, Active Role): a weapon's Ranged Attack ACC, a
    melee weapon's OFF, a spell its casting attribute, INT (M for a Mystic: "the Mystic Class
    uses Morale instead of Intellect"), as rules/eldfall/resolution.py rolls it."""
    from rules.eldfall.tables import roll_attribute
    prof = world.hitbox(a).spec.profile if world.hitbox(a).spec is not None else None
    mystic = prof is not None and "Mystic" in prof.classes
    action = "Spell Attack" if w.kind == "spell" else attack_of(w)
    return roll_attribute(action, "active", spell=w.kind == "spell", mystic=mystic)[0]


def with_rolls(world, m):
    """``m`` with each weapon's ``rolls`` said (``rolled_attribute``): the band's modifier of a
    spell is to its casting attribute, not to ACC."""
    import dataclasses
    if world is None:
        return m
    return dataclasses.replace(m, weapons=tuple(dataclasses.replace(w, rolls=rolled_attribute(world, m.a, w))
                                                for w in m.weapons))


def weapon_bars(world, m, settings=None) -> dict[str, str]:
    """Why A may not make each Attack its weapons in reach or range would make on B whatever the
    distance, by the rules engine's own tables: B's States (Flying: Melee Attacks only by a
    Flying model; Shrouded: only Perceive; Dead), A's States (an Engaged A, by its State or where
    the table stands it, makes no Ranged Attack; Blinded, Immobilized ...). ``{weapon name:
    reason}``; "in reach" alone read as "may strike" (a Flying model in base contact). Also an
    Attack on an ally, an Assist on an enemy (``side_bar``) and an Engaged A's Spell Attack with a
    spell that is not Melee-Type (ruling "Spell Attack while Engaged") and a ranged Attack when A
    or B stands in a Hazy area, as the rules engine refuses them."""
    if world is None:
        return {}
    from engine.measure import engaged_on_table
    from rules.eldfall.availability import why_not
    from rules.eldfall.conditions import targeting_block
    from engine.geometry import WorldGeometry
    from rules.eldfall.resolution import hazy_reason
    ha, hb = world.hitbox(m.a), world.hitbox(m.b)
    ast = set(ha.states)
    if engaged_on_table(world, m.a, settings):
        ast.add("Engaged")
    geo = WorldGeometry(world, sight_settings=settings)
    haze = hazy_reason([x for x in (m.a, m.b) if "hazy" in geo.environments(x)])
    out = {}
    for w in m.weapons:
        if not w.in_reach:
            continue
        action = attack_of(w)
        side = side_bar(m, action, ha.side != hb.side)
        if side:
            out[w.name] = side
            continue
        try:
            own = why_not("active", "Idle", ast, action)
            them = targeting_block(hb.states, action, attacker_states=ha.states)
        except (ValueError, KeyError):
            continue                      # a State the rules' tables do not know: no answer
        if own:
            out[w.name] = f"{m.a} cannot declare a {action}: {own}"
        elif action == "Spell Attack" and "Engaged" in ast:
            # ruling "Spell Attack while Engaged" (rules/eldfall/resolution.py ``_why_not``)
            out[w.name] = f"{m.a} is Engaged: only a melee-type spell within Reach, not {w.name}"
        elif them:
            out[w.name] = f"{m.b} cannot be its target: {them}"
        elif haze and action in ("Ranged Attack", "Spell Attack"):
            out[w.name] = haze
    return out


def weapon_dense(world, m) -> dict[str, str]:
    """Where a Dense area takes a Strike off an Attack in reach or range (the rules engine's
    ``dense_rule``: a ranged Attack when A or B stands in one, a melee one of reach 1" or more
    when A does): ``{weapon name: why}``."""
    if world is None:
        return {}
    from engine.geometry import WorldGeometry
    from rules.eldfall.resolution import dense_rule
    geo = WorldGeometry(world)
    a_in, b_in = ("dense" in geo.environments(x) for x in (m.a, m.b))
    if not (a_in or b_in):
        return {}
    who = " and ".join(x for x, inside in ((m.a, a_in), (m.b, b_in)) if inside)
    out = {}
    for w in m.weapons:
        action = attack_of(w)
        if not w.in_reach or action not in ("Ranged Attack", "Spell Attack", "Melee Attack"):
            continue
        if dense_rule(a_in, b_in, action == "Melee Attack", float(w.rch or 0.0)):
            out[w.name] = (f"one Strike fewer (STK -1, at least 1): {who} "
                           f"{'stand' if ' and ' in who else 'stands'} in a Dense area")
    return out


def side_bar(m, action: str, enemy: bool) -> str | None:
    """An Attack on an ally or an Assist on an enemy, in the rules engine's words
    (rules/eldfall/resolution.py ``_why_not``, spells.py ``why_not_assist``); None otherwise."""
    if action == "Assist":
        return f"{m.b} is an enemy: Assist targets allies or the model itself" if enemy else None
    return None if enemy else f"{m.b} is not an enemy (friendly models are Assisted, not Attacked)"


def target_modifiers(world, m, settings=None) -> list[dict]:
    """What the target and the table add to the modifier of a Ranged (or Spell) Attack of A on B
    beside the range band, each with its source, as the rules engine adds them
    (rules/eldfall/resolution.py, ``_attack_attribute``): B's Cover (Light -2, Heavy -4:
    ``rules.eldfall.tables.cover_modifier``) as `eldfall los` finds it, Crouched and Flying by
    B's States (``cover_rule``), and no Cover without LoS (the Casting Aura); a Forest -3 when
    A or B stands in one or the line of fire crosses one (``through_forest``); the Dark -3
    beyond half A's Awareness; Friendly Fire -4 per ally of A in base contact with B. Each row
    ``{"what", "value", "why"}`` (value 0: said, adds nothing); [] without a world."""
    if world is None:
        return []
    from engine import sight
    from engine.geometry import WorldGeometry
    from engine.measure import distance, engaged_on_table
    from rules.eldfall import conditions as cd
    from rules.eldfall.tables import cover_modifier
    a, b = m.a, m.b
    ha, hb = world.hitbox(a), world.hitbox(b)
    out = []
    if m.los:
        # the same question `eldfall los` asks (the Engaged State where the table stands it)
        r = sight.los(world, a, b, fraction=True, settings=settings,
                      engaged_with=engaged_on_table(world, a, settings))
        rule = cd.cover_rule(hb.states)
        crouched = f"{b} is Crouched: it counts as in Light Cover against Ranged Attacks"
        level = r.cover or "none"
        why = (f"from {r.cover_piece}, as `eldfall los` finds it" if r.cover_piece
               else crouched if rule == "light" else f"{r.cover_reason}, as `eldfall los` finds it")
        if rule == "none" and level != "none":
            level, why = "none", f"{b} is Flying: it cannot benefit from Cover (the scenery would give {r.cover})"
        elif rule == "light" and level == "none":
            level, why = "light", crouched
        if level != "none":
            out.append({"what": "cover", "level": level, "value": cover_modifier(level), "why": why})
        elif rule == "none" and r.cover not in (None, "none"):
            out.append({"what": "cover", "level": "none", "value": 0, "why": why})
    elif m.b_in_awareness:
        out.append({"what": "cover", "level": "none", "value": 0, "no_los": True,
                    "why": f"no LoS: only a Spell reaches {b}, through the Casting Aura (its casting attribute "
                           f"halved, after the modifiers), or a Targetless Attack (not halved); {b} gets no Cover"})
    else:
        out.append({"what": "cover", "level": "none", "value": 0, "no_los": True, "outside_aura": True,
                    "why": f"no LoS, and {b} is outside {a}'s Casting Aura: only a Targetless Attack reaches "
                           f"it (not halved), and {b} gets no Cover"})
    geo = WorldGeometry(world, sight_settings=settings)
    within = [x for x in (a, b) if "forest" in geo.environments(x)]
    if within:
        out.append({"what": "forest", "value": -3,
                    "why": " and ".join(within) + (" stand" if len(within) > 1 else " stands") + " in a Forest area"})
    elif m.los and geo.through_forest(a, b):
        areas = forest_crossed(world, a, b, settings)
        out.append({"what": "forest", "value": -3, "areas": [list(x) for x in areas],
                    "why": "every line of fire crosses " + forest_area_words(areas)})
    dark = [x for x in (a, b) if "dark" in geo.environments(x)]
    d = distance(world, a, b)
    if dark and d > ha.awareness / 2:
        out.append({"what": "dark", "value": -3,
                    "why": f"{' and '.join(dark)} in the Dark, {inches_over(d, ha.awareness / 2)}\" beyond half {a}'s "
                           f"Awareness ({ha.awareness / 2:g}\")"})
    allies = [o for o in world.model_ids() if o not in (a, b) and world.hitbox(o).side == ha.side
              and not cd.ignored_for_game(world.hitbox(o).states) and world.base_contact(o, b)]
    if allies:
        out.append({"what": "friendly fire", "value": -4 * len(allies),
                    "why": f"{', '.join(allies)} ({a}'s side) in base contact with {b}: -4 each"})
    return out


def forest_crossed(world, a: str, b: str, settings=None) -> list[tuple[str, ...]]:
    """The Forest areas (``engine.sight.forest_areas``: each the ids of the pieces that build it)
    that the lines of fire from ``a`` to ``b`` cross: the Forest pieces that block them when a
    single Forest area blocks (``forest_limit`` 1, as ``through_forest`` asks), named as
    `eldfall los` names the pieces in the way (``LosResult.blocking``), by area."""
    from engine import sight
    from engine.measure import engaged_on_table
    from engine.sight_settings import default_settings
    s = (settings or default_settings())
    r = sight.los(world, a, b, fraction=False, cover=False, settings=s.replace(forest_limit=1),
                  engaged_with=engaged_on_table(world, a, settings))
    crossed = set(r.blocking)
    return [ids for ids in sight.forest_areas(world, s) if crossed.intersection(ids)]


def forest_area_words(areas) -> str:
    """"the Forest area wood", "the Forest area of w1 and w2 (one wood)", "a Forest area (wood
    or copse)" when the lines cross different ones; "a Forest area" when none is named."""
    def one(ids) -> str:
        return ids[0] if len(ids) == 1 else f"{', '.join(ids[:-1])} and {ids[-1]} (one wood)"
    if not areas:
        return "a Forest area"
    if len(areas) == 1:
        return f"the Forest area {'of ' if len(areas[0]) > 1 else ''}{one(areas[0])}"
    return f"a Forest area ({' or '.join(one(x) for x in areas)})"


def weapon_terms(w, terms: list[dict]) -> tuple[list[dict] | None, str]:
    """``terms`` (``target_modifiers``) as they stand for the weapon or spell ``w`` in range:
    (the terms, with the no-LoS row in ``w``'s words, "") or (None, why no modifier is added up:
    no LoS and nothing lets ``w`` through). A Targetless one needs no LoS nor the Casting Aura,
    is aimed at the ground where the target stands, is not halved, and the target gets no Cover
    (docs/rulings.md, Targetless; rules/eldfall/resolution.py ``_attack_attribute``)."""
    if w.snipe:
        # "the Snipe ability ignore[s] cover" (eldfall-facts.md, Cover), whatever gives it
        terms = [dict(t, value=0, ignored="snipe", why=f"{w.name} ignores it (Snipe): {t['why']}")
                 if t["what"] == "cover" and t["value"] else t for t in terms]
    no_los = next((t for t in terms if t.get("no_los")), None)
    if no_los is None:
        return terms, ""
    if w.targetless:
        why = (f"no LoS: {w.name} is Targetless and needs none; aimed at the ground where the target "
               "stands, it is not halved, and the target gets no Cover")
    elif w.kind != "spell":
        # "Requires LoS at the declared point of attack" (eldfall-actions.txt): no modifier to add
        return None, "but no LoS: a weapon's Ranged Attack needs it"
    elif no_los.get("outside_aura"):
        return None, f"but no LoS, and {w.name} reaches only through the Casting Aura, which the target is outside"
    else:
        why = (f"no LoS: only a Spell reaches the target, through the Casting Aura, its {w.label} halved; "
               f"the target gets no Cover; {REACTION_NO_AURA}")
    return [dict(t, why=why) if t is no_los else t for t in terms], ""


def ranged(w) -> bool:
    """A Ranged (or Spell) Attack in range: the one the target and the table add modifiers to."""
    return w.in_reach and w.modifier is not None and attack_of(w) in ("Ranged Attack", "Spell Attack")


def aura_only(w, m) -> tuple[bool | None, str]:
    """A Melee Attack in reach (a melee weapon's, a Melee-Type spell's) or an Assist spell in range,
    as the rules engine resolves it: nothing is added to its attribute (no band, Cover, Forest, Dark
    nor Friendly Fire: rules/eldfall/resolution.py ``_attack_attribute``, spells.py
    ``resolve_assist``), but without LoS only a spell reaches the target, through the Casting Aura,
    its casting attribute halved (rounding up); a Targetless Attack needs no LoS and is not halved
    (eldfall-facts.md, Reach; docs/rulings.md, "A Melee-Type spell's Attack is a Melee Attack").
    (halved, words: "" with LoS) or (None, why it cannot be made: no LoS)."""
    if m.los:
        return False, ""
    if w.targetless and attack_of(w) != "Assist":
        return False, f"no LoS: {w.name} is Targetless and needs none; it is not halved"
    if w.kind != "spell":
        return None, "but no LoS: a weapon's Melee Attack needs it (only a spell reaches through the Casting Aura)"
    if not m.b_in_awareness:
        return None, f"but no LoS, and {w.name} reaches only through the Casting Aura, which {m.b} is outside"
    return True, (f"no LoS: only a Spell reaches {m.b}, through the Casting Aura: {w.label} halved (rounding up); "
                  f"{REACTION_NO_AURA}")


def modifier_words(w, terms: list[dict], m=None) -> str:
    """"; with Light Cover -2 (from wall, ...), Forest -3 (...): ACC -5 in all" for a ranged
    weapon or spell in range (``terms``: ``target_modifiers``), labelled by the attribute it
    rolls (``rolls``: ACC, a spell's INT or M), or why none is added up (no LoS); "" when
    nothing adds to the band's modifier. A Melee Attack or an Assist in reach says only the Casting
    Aura's halving, or why it cannot be made without LoS (``aura_only``; ``m`` the measurement)."""
    if m is not None and w.in_reach and not ranged(w):
        words = aura_only(w, m)[1]
        return f"; {words}" if words else ""
    if not ranged(w) or not terms:
        return ""
    terms, no = weapon_terms(w, terms)
    if terms is None:
        return f"; {no}"
    name = {"cover": lambda t: f"{t['level'].capitalize()} Cover" if t["level"] != "none" else "no Cover",
            "forest": lambda t: "Forest", "dark": lambda t: "Dark", "friendly fire": lambda t: "Friendly Fire"}
    words = [f"{name[t['what']](t)}{' ' + format(t['value'], '+d') if t['value'] else ''} ({t['why']})"
             for t in terms]
    total = w.modifier + sum(t["value"] for t in terms)
    # halving comes after the other modifiers, rounding up (eldfall-facts.md)
    halved = f", then {w.label} halved (rounding up)" if halved_by_aura(w, terms) else ""
    return f"; with {', '.join(words)}: {w.label} {total:+d} in all{halved}"


def halved_by_aura(w, terms: list[dict]) -> bool:
    """A spell, not Targetless, cast at a target inside the Casting Aura without LoS: its casting
    attribute is halved (eldfall-facts.md, Casting Aura; rules/eldfall/resolution.py)."""
    return (w.kind == "spell" and not w.targetless
            and any(t.get("no_los") and not t.get("outside_aura") for t in terms))


def unmeasured(world, a: str, b: str, models_dir: str | None = None) -> list[dict]:
    """A's spells that ``engine.measure`` does not measure to B, each with why (``{"name", "why"}``):
    a Conjuration (the Ritual action), a Transmutation (it lays a token), a spell that targets
    only its caster, and a template laid from the caster's base (a Spray: range 0), which
    `eldfall aoe` measures (the command given, with ``models_dir``). [] without a world or a profile."""
    from shlex import quote
    prof = world.hitbox(a).spec.profile if world is not None and world.hitbox(a).spec is not None else None
    out = []
    for sp in (prof.spells if prof is not None else ()):
        if sp.type == "Conjuration":
            why = "a Conjuration: cast with the Ritual action, it targets no model"
        elif sp.type == "Transmutation":
            why = "a Transmutation: it lays its token on the table and targets no model"
        elif sp.target == "self":
            why = f"it targets only {a}"
        elif sp.rng <= 0 and sp.template:
            t = sp.template.replace("circular", "circle")
            where = f" --models-dir {quote(models_dir)}" if models_dir else ""
            why = (f"a {t} template from {a}'s base: `eldfall aoe {quote(str(world.scene.path))} --template {t} "
                   f"--by {quote(a)} --target {quote(b)}{where}` says whom it covers")
        elif sp.rng <= 0:
            why = "no range given"
        else:
            continue
        out.append({"name": sp.name, "why": why})
    return out


def describe(m, world=None, why_no_los: str | None = None, settings=None, rest=()) -> str:
    """The text answer; ``why_no_los``: the reason of a LoS no (``los_reason``), or of a yes that a
    state gives (``los_given_by``); ``rest``: the spells not measured (``unmeasured``)."""
    from engine.measure import inches
    yes = lambda v: "yes" if v else "no"   # noqa: E731
    hd = 0.0 if abs(m.height_difference) < 0.005 else m.height_difference     # never "-0.00"
    where = "level" if abs(hd) < 1e-3 else (f"{m.b} {hd:.2f}\" higher" if hd > 0 else f"{m.b} {-hd:.2f}\" lower")
    lines = [f"{m.a} -> {m.b}",
             f"  distance {inches(m.distance, 2)}\" (closest points of the hitboxes); "
             f"{inches(m.horizontal, 2)}\" between the bases seen from above; height difference {hd:+.2f}\" ({where})",
             *(flying_lines(world, (m.a, m.b)) if world is not None else ()),
             f"  base contact: {yes(m.base_contact)}",
             f"  awareness of {m.a}: {m.awareness:g}\"{no_ag_note(world, m.a)} (= Casting Aura): {m.b} is "
             f"{'inside' if m.b_in_awareness else 'outside'}; {m.a} is "
             f"{'inside' if m.a_in_b_awareness else 'outside'} {m.b}'s",
             f"  LoS {m.a} -> {m.b}: {yes(m.los)}" + (f" ({why_no_los})" if why_no_los else "")]
    if m.weapons:
        lines.append("  weapons and spells:")
        bars = weapon_bars(world, m, settings)
        terms = target_modifiers(world, m, settings) if any(ranged(w) for w in m.weapons) else []
        # an Attack on an ally, an Assist on an enemy: its modifiers are beside the point
        enemy = world is None or world.hitbox(m.a).side != world.hitbox(m.b).side
        dense = weapon_dense(world, m)
        lines.extend(f"    {w.describe()}" + ("" if side_bar(m, attack_of(w), enemy) else modifier_words(w, terms, m))
                     + (f"; but {bars[w.name]}" if w.name in bars else
                        f"; {dense[w.name]}" if w.name in dense else "")
                     for w in m.weapons)
    elif world is not None and world.hitbox(m.a).spec is not None and world.hitbox(m.a).spec.profile is None:
        lines.append(f"  weapons: {m.a} has no profile, so no weapon or spell")
    else:
        lines.append(f"  weapons: {m.a} has no weapon or spell in its profile")
    if rest:
        lines.append("  not measured: " + "; ".join(f"{x['name']} ({x['why']})" for x in rest))
    lines.append(f"  engagement: {m.a} {'engages' if m.a_engages_b else 'does not engage'} {m.b}; "
                 f"{m.b} {'engages' if m.b_engages_a else 'does not engage'} {m.a}")
    return "\n".join(lines)


def run(args) -> int:
    from engine.measure import measure
    from engine.sight_settings import load_settings
    settings = load_settings(args.settings)
    world = load_world(args.scene, args.models_dir)
    # bad input names the argument, as every command does: "<command line>: B: ..."
    for mid, flag in ((args.a, "A"), (args.b, "B")):
        if mid not in world.models:
            from tools.cmd_los import not_a_model
            raise InputError(Problem("<command line>", None, flag, not_a_model(world, mid)))
    if args.a == args.b:
        raise InputError(Problem("<command line>", None, "B", f"A and B are the same model ({args.a!r})"))
    rest = unmeasured(world, args.a, args.b, args.models_dir)
    if args.weapon is not None:
        # a spell measure leaves out, named: why, not "has no weapon or spell"
        left = next((x for x in rest if x["name"].lower() == args.weapon.lower()), None)
        if left is not None:
            raise InputError(Problem("<command line>", None, "--weapon",
                                     f"{left['name']} is not measured to a model: {left['why']}"))
        rest = []
    m = with_rolls(world, measure(world, args.a, args.b, weapon=args.weapon, settings=settings))
    why = los_given_by(world, args.a, args.b, settings) if m.los else los_reason(world, args.a, args.b, settings)
    if args.json:
        from engine.measure import measure_settings
        out = m.to_json()
        out["not_measured"] = rest
        bars = weapon_bars(world, m, settings)
        dense = weapon_dense(world, m)
        terms = target_modifiers(world, m, settings) if any(ranged(w) for w in m.weapons) else []
        for w, wr in zip(out["weapons"], m.weapons):    # why the Attack is barred whatever the distance
            w["barred"] = bars.get(w["name"])
            w["dense"] = dense.get(w["name"])      # a Strike fewer (Dense)
            if wr.in_reach and not ranged(wr):
                # a Melee Attack or an Assist: nothing added; halved through the Casting Aura
                halved, words = aura_only(wr, m)
                if halved is None:
                    w["no_los"] = words.removeprefix("but ")
                else:
                    w.update(modifiers=[], total_modifier=0, halved=halved)
                continue
            # the whole modifier of a ranged weapon or spell in range: its band's and the target's
            mine, no = weapon_terms(wr, terms) if ranged(wr) else (None, "")
            if no:
                w["no_los"] = no.removeprefix("but ")
            if mine is not None:
                w["modifiers"] = [{"what": "range band", "value": wr.modifier,
                                   "why": f"{wr.band[0]:g}-{wr.band[1]:g}\" band"}] + mine
                w["total_modifier"] = wr.modifier + sum(t["value"] for t in mine)
                # the Casting Aura halves the casting attribute after the modifiers (not Targetless)
                w["halved"] = halved_by_aura(wr, mine)
        from engine.measure import FLYING_STATE, measuring_z
        flying = {mid: round(world.hitbox(mid).z - measuring_z(world, mid), 4) for mid in (args.a, args.b)
                  if FLYING_STATE in world.hitbox(mid).states}
        if flying:      # how high each Flying model is above the surface it is measured from
            out["flying_above_surface"] = flying
        if why:         # why there is no LoS (or a state gives it), as `eldfall los` says it
            out["los_reason"] = why
        note = eldfall_rules_note(world, "measure")
        if note:
            out["note"] = note.strip().removeprefix("note: ")
        # the party files pin the weapons, bands, reach and AG measured, as `eldfall los --json`'s do
        from tools.cmd_los import party_files
        out.update({"scene": world.scene.path, "sha256": world.scene.sha256, "parties": party_files(world.scene),
                    "settings": measure_settings(settings)})
        print(json.dumps(out, indent=2))
    else:
        print(describe(m, world, why, settings, rest))
        note = eldfall_rules_note(world, "measure")
        if note:
            print(note)
        from tools.cmd_los import changed_words
        if changed_words(settings):     # --settings that changes the LoS or engagement said
            print(f"  settings: {changed_words(settings)[2:]}")
        print(f"  scene sha256: {world.scene.sha256}")
    return 0
