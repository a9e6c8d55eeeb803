"""``eldfall aoe SCENE --template ...``: area templates on a table.

Judges one or several templates (``--count``): legality (the main target fully
covered and in the height band), every model affected (covered fraction,
partial/full, in band, LoS from the origin, how many templates) and every
model not affected with the reason. ``--best`` searches the placement that
fully covers the target and hits the most enemies, then the fewest allies; the
centre or aim point it prints, given back with ``--at`` or ``--aim``, gets the
same verdict. ``--target`` repeated shares the Strikes of one attack (STK > 1) between
several main targets: one template per ``--target``, each judged for its own target (and
``--at``/``--aim``/``--band`` given once per template in the same order, ``--best``
searching each for its own target), then the models affected by all of them together.

    eldfall aoe scenes/skirmish.yaml --template circle-s --target blue-guard --by red-mage
    eldfall aoe scenes/skirmish.yaml --template circle-s --by red-mage --target blue-guard --target blue-ogre
        (ILLEGAL: the mage's Flame Burst has STK 1, one template per Strike)
    eldfall aoe scenes/skirmish.yaml --template spray-l --by red-brute --aim 20,12 --band down --json
    eldfall aoe scenes/skirmish.yaml --template circle-l --target blue-guard --by red-mage --best
    eldfall aoe scenes/skirmish.yaml --template circle-l --target blue-guard --set circle_card=hold

``--set KEY=VALUE`` gives a template setting (``engine.templates.RULE_CHOICES``): with
``circle_card=hold`` a circle's card is held flat at the target's level instead of resting
on the scenery under its centre.
"""
from __future__ import annotations

import functools
import json
import math
import sys
from dataclasses import dataclass

from engine.errors import InputError
from tools.loading import counted, load_world


# the most templates one attack places: one per Strike, and a profile's STK is 1-20
# (docs/scene-format.md, Items and Spells)
MAX_COUNT = 20
# the largest coordinate --at and --aim take, inches (a scene's own limit, engine.validate)
MAX_COORD = 10000.0


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("--template", required=True, metavar="circle-s|circle-l|spray-s|spray-l",
                        help="the template (engine/data/templates.yaml)")
    parser.add_argument("--target", action="append", metavar="ID",
                        help="the main target (must be fully covered); omit it: Targetless. Repeat it to "
                             "share the Strikes (STK > 1) between several main targets: one template "
                             "per --target, in order (name a target twice for two templates on it)")
    parser.add_argument("--at", action="append", metavar="X,Y[,Z]",
                        help="a circle's centre (default: the target's centre); repeat for each template")
    parser.add_argument("--by", help="the user of the template (never affected; a spray starts at its base)")
    parser.add_argument("--aim", action="append", metavar="X,Y",
                        help="where a spray points (default: the target); repeat for each template")
    parser.add_argument("--band", action="append", metavar="up|down",
                        help="a spray's height band: up = the user's surface to 5\" above, down = 5\" below to it; "
                             "with several --target, once for all templates or once per template")
    parser.add_argument("--count", metavar="N",
                        help="how many templates (STK); default 1 or one per --at/--aim "
                             "(with several --target: one per --target)")
    parser.add_argument("--best", action="store_true", help="search the best placement (needs --target and --by)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--picture", metavar="DIR", help="write aoe.png into DIR")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a template setting (docs/rulings.md, Templates and measuring): "
                             "circle_card=rest|hold (a circle's centre over scenery beside the target: the "
                             "card rests on its top, or is held flat at the target's level), "
                             "band_test=hitbox|base, models_block=true|false, front_arc=true|false, "
                             "centre_lift=INCHES")
    _negative_points(parser)


def _negative_points(parser) -> None:
    """``--aim -3,12`` (a spray aimed past the table's left edge) and ``--at -0.5,12`` are taken
    as the option's value, as ``--aim=-3,12`` is: argparse reads "-3,12" as an option (it is
    no plain negative number) and answered "--aim: expected one argument"."""
    import re
    plain = parser.parse_known_args
    number = re.compile(r"^-(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?(,|$)")

    def parse_known_args(args=None, namespace=None):
        if args is not None:
            args, out = list(args), []
            while args:
                a = args.pop(0)
                if a in ("--at", "--aim") and args and number.match(args[0]):
                    a = f"{a}={args.pop(0)}"
                out.append(a)
            args = out
        return plain(args, namespace)
    parser.parse_known_args = parse_known_args


def _point(text: str, what: str, dims=(2, 3)) -> tuple[float, ...]:
    try:
        vals = tuple(float(v) for v in text.split(","))
    except ValueError:
        vals = ()
    if len(vals) not in dims or not all(math.isfinite(v) for v in vals):
        shape = "X,Y" if dims == (2,) else "X,Y or X,Y,Z"
        raise InputError(f"{what}: expected {shape} in inches, got {text!r}")
    if any(abs(v) > MAX_COORD for v in vals):
        # as a scene's coordinates: a 300-digit aim point printed back, or a Z the ray caster's
        # float32 overflows on (a RuntimeWarning on stderr), is no question about a table
        raise InputError(f"{what}: must be within +-{MAX_COORD:g} inches, got {text!r}")
    return vals


def resolve(args, world):
    """Check the arguments against the template and the table; return keyword arguments."""
    from engine import templates as T
    spec = T.template_spec(args.template)
    for flag, mid in (("--target", args.target), ("--by", args.by)):
        if mid is not None and mid not in world.models:
            from tools.cmd_los import not_a_model
            raise InputError(f"{flag}: {not_a_model(world, mid)}")
    ats = [_point(a, "--at") for a in (args.at or [])]
    aims = [_point(a, "--aim", (2,)) for a in (args.aim or [])]
    off = off_table(world, ats) if spec.kind == "circle" else []
    if off:
        raise InputError([_problem("--at", m) for m in off])
    if spec.kind == "circle":
        if aims:
            raise InputError("--aim: a circle has no aim; place it with --at X,Y[,Z]")
        if args.band is not None:
            raise InputError("--band: a circle's band is fixed (3\" above and below the target's surface)")
        if not ats and args.target is None:
            raise InputError("a circle needs --target ID or --at X,Y[,Z]")
    else:
        if ats:
            raise InputError("--at: a spray starts at its user's base; point it with --aim X,Y")
        if args.by is None:
            raise InputError("--by: a spray needs its user")
        if not aims and args.target is None and not args.best:
            raise InputError("a spray needs --aim X,Y or --target ID")
        if not aims and args.target is not None and args.target == args.by:
            raise InputError(f"--target: {args.by} cannot be the main target of its own spray "
                             "(the user is never affected)" + ("" if args.best else "; point it with --aim X,Y"))
        if args.band is not None and args.band not in ("up", "down"):
            raise InputError(f"--band: {args.band!r} is not one of up, down")
    given = max(len(ats), len(aims), 1)
    if args.count is None:
        count = given
    else:
        try:
            count = int(args.count)
        except ValueError:
            raise InputError(f"--count: expected a whole number, got {args.count!r}") from None
        if count < 1:
            raise InputError(f"--count: expected 1 or more, got {count}")
        if count < given:
            raise InputError(f"--count: {counted(count, 'template')} but {counted(given, 'placement')} given")
        if count > MAX_COUNT:
            raise InputError(f"--count: at most {MAX_COUNT} templates (one per Strike; STK is at most "
                             f"{MAX_COUNT}), got {count}")
    if args.best:
        if args.target is None or args.by is None:
            raise InputError("--best: needs --target ID and --by ID")
        if ats or aims:
            raise InputError("--best: searches the placement itself; leave out --at and --aim")
    return spec, ats, aims, count


def off_table(world, ats) -> list[str]:
    """One line per circle centre off the table (every one, not the first only)."""
    w, d = world.table
    return [f"({a[0]:g}, {a[1]:g}) is off the {w:g}x{d:g} table"
            + (f" (--at {k + 1} of {len(ats)})" if len(ats) > 1 else "")
            for k, a in enumerate(ats) if not (0.0 <= a[0] <= w and 0.0 <= a[1] <= d)]


def attack_problems(world, user: str | None, target: str | None, count: int = 1, spec=None) -> list[str]:
    """What bars ``user`` from declaring an Attack on ``target`` whatever the template's
    placement (seeds, Attack section: an Attack targets an enemy model and needs LoS to it;
    a spell may target a model inside the caster's Casting Aura without LoS; states page: a
    Dead or Shrouded model cannot be targeted; "By State": an Incapacitated, Dead, Blinded or
    Immobilized user declares no Attack, a Crouched one strikes once: ``count`` templates are
    too many)."""
    return user_problems(world, user, count, spec) + target_problems(world, user, target, spec)


def user_problems(world, user: str | None, count: int = 1, spec=None) -> list[str]:
    """What bars ``user`` from placing ``count`` templates whatever its main targets: its
    states forbid every Attack a template comes with, or cap its Strikes (Crouched). Given the
    template ``spec`` and a user whose profile names the attacks that place it, those attacks'
    own kinds (an Engaged model declares no Ranged Attack: its Fire Pot, a ranged weapon,
    places no template)."""
    from rules.eldfall.availability import why_not
    out = []
    if user is not None:
        # the user's states may forbid every Attack a template comes with (a Ranged or a
        # Spell Attack): Incapacitated, Dead, Blinded, Immobilized (eldfall-actions.txt,
        # "By State"; the rules engine's own table). Engaged forbids only the Ranged one
        ustates = world.hitbox(user).states
        attacks = template_attacks(world, user, spec) if spec is not None else None
        kinds = {}
        for name, spell, _, _ in attacks or ():
            kinds.setdefault(attack_action(world, user, name, spell), []).append(name)
        actions = list(kinds) or ["Spell Attack", "Ranged Attack"]
        bars = [why_not("active", "Idle", ustates, a) for a in actions]
        if all(bars):
            if kinds:
                what = " or ".join(f"a {a} (its {', '.join(dict.fromkeys(kinds[a]))})" for a in actions)
                out.append(f"{user} cannot declare {what}: {bars[0]}")
            else:
                out.append(f"{user} cannot declare an Attack: {bars[0]}")
        else:
            # one template per Strike; "Crouched: All (STK capped at 1)" ("By State")
            from rules.eldfall.availability import strike_cap
            caps = [c for c in (strike_cap("active", a, ustates) for a in actions) if c is not None]
            if len(caps) == len(actions) and count > max(caps):
                capped = ", ".join(sorted(ustates & {"Crouched"})) or "its states"
                out.append(f"{user} strikes at most {max(caps)} time{'s' if max(caps) != 1 else ''} "
                           f"({capped}: STK capped at {max(caps)}), so it places at most "
                           f"{counted(max(caps), 'template')}, not {count}")
    return out


def attack_action(world, user: str, name: str, spell: bool) -> str:
    """The Attack that ``user``'s attack ``name`` is declared as: a spell's a Spell Attack, a
    melee weapon's a Melee Attack, any other weapon's a Ranged Attack."""
    if spell:
        return "Spell Attack"
    w = next((w for w in world.hitbox(user).spec.profile.weapons if w.name == name), None)
    return "Melee Attack" if w is not None and w.kind == "melee" else "Ranged Attack"


def target_problems(world, user: str | None, target: str | None, spec=None) -> list[str]:
    """What bars ``user``'s Attack on the main target ``target`` whatever the template's
    placement: not an enemy, a state that forbids targeting it, no LoS and outside the
    Casting Aura. Given the template ``spec`` and a user whose profile names the attacks that
    place it: a Targetless one needs no LoS (eldfall-actions.txt, Attack: "LoS to the target
    (unless stated otherwise, e.g. Targetless)"), and only a spell may use the Casting Aura."""
    from engine.measure import has_los, in_awareness
    from rules.eldfall.conditions import targeting_block
    out = []
    if user is None or target is None or user == target:
        return out
    if world.hitbox(user).side == world.hitbox(target).side:
        out.append(f"main target {target} is on {user}'s side: an Attack targets an enemy model")
    # Dead ("ignored for all game impacts") and Shrouded ("Cannot be targeted by any Action
    # other than Perceive"): the rules engine's own test (eldfall-states.txt); a template
    # attack is a Ranged or a Spell Attack, and neither differs here
    # (a Dead main target: engine.templates.evaluate says so already)
    states = world.hitbox(target).states
    why = None if "Dead" in states else targeting_block(states, "Ranged Attack",
                                                         attacker_states=world.hitbox(user).states)
    if why:
        out.append(f"main target {target} cannot be targeted: {why}")
    attacks = template_attacks(world, user, spec) if spec is not None else None
    if attacks:
        # the main target within the Reach or range of an attack that places the template, as
        # the rules engine declares it (rules/eldfall/resolution.py: "out of range")
        reach = [attack_reach(world, user, target, name, spell) for name, spell, _, _ in attacks]
        if not any(r is None or r.in_reach for r in reach):
            out.append(f"main target {target} is out of reach of {user}'s "
                       + ", ".join(dict.fromkeys(f"{r.name} ({r.why})" for r in reach)))
        else:
            attacks = [a for a, r in zip(attacks, reach) if r is None or r.in_reach]
    if attacks and any(targetless for _, _, targetless, _ in attacks):
        return out                      # a Targetless attack places it: no LoS needed
    if not has_los(world, user, target):
        if attacks and not any(spell for _, spell, _, _ in attacks):
            names = ", ".join(dict.fromkeys(name for name, _, _, _ in attacks))
            out.append(f"{user} has no LoS to main target {target}: its {names} "
                       f"({'a weapon' if len(attacks) == 1 else 'weapons'}, not Targetless) "
                       "needs it (only a spell inside the Casting Aura may target a model without LoS)")
        elif not in_awareness(world, user, target):
            out.append(f"{user} has no LoS to main target {target}, which is outside its Casting Aura "
                       "(only a spell inside the Aura may target a model without LoS)")
    return out


def attack_weapon(world, user: str, name: str, spell: bool):
    """``user``'s attack ``name`` (a spell when ``spell``) as ``engine.measure`` measures it (a
    Weapon: a melee one by its RCH, a ranged one by its bands); None when it has no range to
    measure (a spell of range 0: no limit)."""
    from engine.measure import _spells_as_weapons
    hb = world.hitbox(user)
    pool = [w for w in hb.spec.profile.weapons if (w.kind == "spell") == spell]
    pool += list(_spells_as_weapons(hb)) if spell else []
    return next((w for w in pool if w.name == name), None)


def attack_reach(world, user: str, target: str, name: str, spell: bool):
    """``engine.measure.weapon_reach`` of ``user``'s attack ``name`` on ``target``; None when
    it has no range to measure."""
    from engine.measure import weapon_reach
    w = attack_weapon(world, user, name, spell)
    return None if w is None else weapon_reach(world, user, target, w)


def ground_problems(world, user: str | None, spec, placements) -> list[str]:
    """What bars ``user``'s Attack aimed at the ground (no main target) whatever the models
    under it: the attacks of its profile that place the template must include a Targetless
    one ("does not require a model as a target"; the rules engine refuses the others: "only a
    Targetless Attack is aimed at the ground"), and a circle's centre must lie within its
    Reach or range. Nothing when the user's attacks are not known (no profile, none places it)."""
    attacks = template_attacks(world, user, spec) if user is not None else None
    if not attacks:
        return []
    free = [a for a in attacks if a[2]]
    if not free:
        names = ", ".join(dict.fromkeys(name for name, _, _, _ in attacks))
        return [f"{user}'s {names} {'has' if len(attacks) == 1 else 'have'} no Targetless trait: only a "
                "Targetless Attack is aimed at the ground; name the main target (--target ID)"]
    if spec.kind != "circle":
        return []                   # a spray starts at the user's base; --aim is a direction
    from engine.measure import CONTACT_TOLERANCE, measuring_z, range_band
    weapons = [attack_weapon(world, user, name, spell) for name, spell, _, _ in free]
    if any(w is None for w in weapons):
        return []                   # an attack with no range to measure: no limit
    hb = world.hitbox(user)
    z0 = measuring_z(world, user)
    out = []
    for k, pl in enumerate(placements):
        # from the user's hitbox to the centre on its surface (the rules engine's
        # engine.geometry.WorldGeometry.point_distance)
        cx, cy = pl.centre
        cz = pl.centre_z if pl.centre_z is not None else pl.surface
        horiz = max(0.0, math.hypot(hb.x - cx, hb.y - cy) - hb.radius)
        d = math.hypot(horiz, max(0.0, z0 - cz, cz - (z0 + hb.height)))
        if any(range_band(w.bands, d) is not None if w.bands else d <= float(w.rch) + CONTACT_TOLERANCE
               for w in weapons):
            continue
        reach = ", ".join(dict.fromkeys(
            f"{w.name} {float(w.bands[0][0]):g}-{float(w.bands[-1][1]):g}\"" if w.bands
            else f"{w.name} RCH {float(w.rch):g}\"" for w in weapons))
        tag = f"template {k + 1}: " if len(placements) > 1 else ""
        out.append(f"{tag}the centre is out of reach of {user}: {d:.2f}\" from it ({reach})")
    return out


def template_settings(args):
    """The TemplateSettings of ``--set KEY=VALUE`` (the defaults without it)."""
    from engine import templates as T
    from tools.gameplay import parse_settings
    return T.settings_from(parse_settings(getattr(args, "set", None)))


def judge(args, world, settings=None):
    import dataclasses

    from engine import templates as T
    spec, ats, aims, count = resolve(args, world)
    if args.best:
        res = T.best_placement(world, spec.key, user=args.by, target=args.target,
                               band=args.band, count=count, settings=settings)
    else:
        res = T.template(world, spec.key, user=args.by, target=args.target,
                         at=ats or None, aim=aims or None, band=args.band or "up", count=count,
                         settings=settings)
    bad = attack_problems(world, args.by, args.target, count, spec) + stk_problems(world, args.by, spec, count)[1]
    if args.target is None:
        bad += ground_problems(world, args.by, spec, res.placements)
    if bad:
        res = dataclasses.replace(res, legal=False, reason="; ".join(bad + ([res.reason] if res.reason else [])))
    return res


# --------------------------------------------------------------------------- several main targets
# eldfall-actions-attack-section.txt, Attack, In Active Role (STK > 1): "May distribute Strikes
# among multiple targets (up to STK value)"; facts, Templates (AoE): "With STK > 1 the attacker
# places that many templates". `--target A --target B`: one template per named main target.

def _problem(flag: str, message: str):
    from engine.errors import Problem
    return Problem("<command line>", None, flag, message)


def resolve_several(args, world, targets: list[str], bands: list[str]):
    """Check a command line that names several main targets, one template each; every problem
    found is one line (``<command line>: --target: ...`` for what contradicts the targets).
    Returns (spec, one circle centre or None per template, one spray aim or None per
    template, one band or None per template)."""
    from engine import templates as T
    spec = T.template_spec(args.template)
    n = len(targets)
    probs = []

    def bad(flag, message):
        p = _problem(flag, message)
        if p not in probs:
            probs.append(p)
    from tools.cmd_los import not_a_model
    for t in targets:
        if t not in world.models:
            bad("--target", not_a_model(world, t))
    if args.by is not None and args.by not in world.models:
        bad("--by", not_a_model(world, args.by))
    if n > MAX_COUNT:
        bad("--target", f"{n} main targets named, one template each, but an attack places at most "
                        f"{MAX_COUNT} templates (one per Strike; STK is at most {MAX_COUNT})")
    ats, aims = [], []
    for flag, texts, dims, out in (("--at", args.at, (2, 3), ats), ("--aim", args.aim, (2,), aims)):
        for text in texts or []:
            try:
                out.append(_point(text, flag, dims))
            except InputError as exc:
                for p in exc.problems:
                    bad("", p.message)
    for m in off_table(world, ats) if spec.kind == "circle" else []:
        bad("--at", m)
    if args.count is not None:
        try:
            count = int(args.count)
        except ValueError:
            bad("--count", f"expected a whole number, got {args.count!r}")
        else:
            if count != n:
                bad("--target", f"{n} main targets place {counted(n, 'template')} (one each), but --count "
                                f"is {count}: leave out --count (name a main target twice for two "
                                "templates on it)")
    if spec.kind == "circle":
        if args.aim:
            bad("--aim", "a circle has no aim; place it with --at X,Y[,Z]")
        if bands:
            bad("--band", "a circle's band is fixed (3\" above and below the target's surface)")
        if args.at and len(args.at) != n:
            bad("--target", f"{n} main targets place {counted(n, 'template')} (one each), but "
                            f"--at is given {counted(len(args.at), 'time')}: give one --at per template, "
                            "in the order of the targets, or none (each circle centred on its own target)")
    else:
        if args.at:
            bad("--at", "a spray starts at its user's base; point it with --aim X,Y")
        if args.by is None:
            bad("--by", "a spray needs its user")
        if args.aim and len(args.aim) != n:
            bad("--target", f"{n} main targets place {counted(n, 'template')} (one each), but "
                            f"--aim is given {counted(len(args.aim), 'time')}: give one --aim per template, "
                            "in the order of the targets, or none (each spray aimed at its own target)")
        for b in bands:
            if b not in ("up", "down"):
                bad("--band", f"{b!r} is not one of up, down")
        if len(bands) not in (0, 1, n):
            bad("--target", f"{n} main targets place {counted(n, 'template')} (one each), but "
                            f"--band is given {counted(len(bands), 'time')}: give one --band for every "
                            "template, or one per template in the order of the targets")
        if args.by is not None and args.by in targets and not args.aim:
            bad("--target", f"{args.by} cannot be the main target of its own spray (the user is never "
                            "affected)" + ("" if args.best else "; point it with --aim X,Y"))
    if args.best:
        if args.by is None:
            bad("--best", "needs --target ID and --by ID")
        if args.at or args.aim:
            bad("--best", "searches the placement itself; leave out --at and --aim")
        if spec.kind == "circle" and args.by is not None and args.by in targets:
            bad("--target", "the user cannot be its own main target")
    if probs:
        raise InputError(probs)
    per_band = bands * n if len(bands) == 1 else (bands or [None] * n)
    return spec, ats or [None] * n, aims or [None] * n, per_band


def template_stk(world, user: str | None, spec) -> tuple[int, str] | None:
    """The user's STK with the template ``spec``: the most Strikes of its profile's attacks that
    place it (a spell's ``template``, a weapon's trait naming it), with that attack's name;
    None when the user has no profile or no such attack (the STK is not known)."""
    attacks = template_attacks(world, user, spec)
    if not attacks:
        return None
    name, _, _, stk = max(attacks, key=lambda a: a[3])      # the first of the most Strikes
    return stk, name


def template_attacks(world, user: str | None, spec) -> list[tuple[str, bool, bool, int]] | None:
    """The attacks of ``user``'s profile that place the template ``spec`` (a spell's
    ``template``, a weapon's trait naming it): (name, a spell?, Targetless?, STK) each;
    None when the user has no profile (not known)."""
    if user is None:
        return None
    hb = world.hitbox(user)
    prof = hb.spec.profile if getattr(hb, "spec", None) is not None else None
    if prof is None:
        return None
    from rules.eldfall.spells import TEMPLATES, template_kind

    def places(name: str) -> bool:
        name = name.lower().replace(" ", "-")
        return name in TEMPLATES and template_kind(name) == spec.key
    from rules.eldfall.combat import has_trait
    found = [(s.name, True, has_trait(s.traits, "Targetless"), int(s.stk)) for s in prof.spells
             if s.template and places(s.template) and s.target in ("enemy", "any")]
    found += [(w.name, w.kind == "spell", has_trait(w.traits, "Targetless"), int(w.stk))
              for w in prof.weapons if any(places(t) for t in w.traits)]
    return found


def no_los_note(world, user: str | None, target: str | None, template: str) -> str:
    """A note when a legal template's main target is one ``user`` has no LoS to: what lets the
    Attack through (a Targetless attack needs no LoS; a spell reaches a model inside the
    Casting Aura, at a halved casting attribute, and the target gets no Cover: eldfall-facts.md,
    Reach; rules/eldfall/resolution.py). "legal" alone, with a 3" wall between, reads as a
    fault. "" when the user sees it (or nothing lets it through: the verdict says so)."""
    from engine.measure import has_los, in_awareness
    if user is None or target is None or user == target or has_los(world, user, target):
        return ""
    from engine import templates as T
    from tools.cmd_measure import los_reason
    why = los_reason(world, user, target) or "no LoS"
    attacks = template_attacks(world, user, T.template_spec(template))
    free = [a[0] for a in attacks or () if a[2]]
    if free:
        return (f"  note: {user} has no LoS to {target} ({why}): its {', '.join(dict.fromkeys(free))} is "
                f"Targetless and needs none; {target} gets no Cover")
    if in_awareness(world, user, target) and (not attacks or any(a[1] for a in attacks)):
        aura = world.hitbox(user).awareness
        return (f"  note: {user} has no LoS to {target} ({why}): a spell reaches it inside {user}'s "
                f"Casting Aura ({aura:g}\"), with its casting attribute halved, and {target} gets no Cover")
    return ""


def user_attacks_note(world, user: str, template: str) -> tuple[str, list[str] | None]:
    """(a note line, the names of ``user``'s attacks that place ``template``; None when it has no
    profile). The note is empty when some attack places it; else it says that the verdict
    judged the placement alone, naming what the profile's attacks place instead."""
    from engine import templates as T
    from rules.eldfall.spells import TEMPLATES as BOOK, template_kind
    spec = T.template_spec(template)
    attacks = template_attacks(world, user, spec)
    if attacks is None:
        return (f"  note: {user} has no profile: no attack of its was judged (range, STK, traits), "
                "only the placement, the LoS or Casting Aura and its States", None)
    if attacks:
        return "", list(dict.fromkeys(a[0] for a in attacks))
    prof = world.hitbox(user).spec.profile

    def book(name: str) -> str | None:
        key = name.lower().replace(" ", "-")
        return T.template_spec(template_kind(key)).name if key in BOOK else None
    others = [f"{s.name} ({book(s.template)})" for s in prof.spells if s.template and book(s.template)]
    others += [f"{w.name} ({book(t)})" for w in prof.weapons for t in w.traits if book(t)]
    instead = (f" (its template attacks: {', '.join(dict.fromkeys(others))})" if others
               else " (it has no template attack)")
    return (f"  note: no attack of {user}'s places a {spec.name}{instead}: only the placement, the "
            "LoS or Casting Aura and its States were judged, not an attack's range, STK or traits", [])


@dataclass(frozen=True)
class SeveralResult:
    """Several templates of one attack (STK > 1), each on its own main target: ``per`` the
    verdict of each template for its target, ``combined`` all of them together (a model under
    k templates listed once with count k)."""
    template: str
    legal: bool
    reason: str
    targets: tuple[str, ...]
    user: str | None
    per: tuple
    combined: object
    stk: tuple[int, str] | None = None

    @property
    def affected(self):
        return self.combined.affected

    @property
    def not_affected(self):
        return self.combined.not_affected

    @property
    def placements(self):
        return self.combined.placements

    @property
    def outlines(self):
        return self.combined.outlines

    @property
    def count(self) -> int:
        return len(self.per)

    def hit(self, mid: str):
        return self.combined.hit(mid)

    def miss(self, mid: str):
        return self.combined.miss(mid)

    def to_json(self) -> dict:
        c = self.combined
        tmpl = []
        for k, (t, r) in enumerate(zip(self.targets, self.per)):
            e = {"target": t, "legal": r.legal, "reason": r.reason,
                 "target_fully_covered": r.target_fully_covered,
                 "affected": [h.id for h in c.affected if k in h.templates],
                 "placement": r.placements[0].to_json(),
                 "origin": [round(v, 4) for v in r.origin],
                 "outline": [[round(x, 4), round(y, 4)] for x, y in r.outline]}
            if r.search is not None:
                e["search"] = r.search
            tmpl.append(e)
        d = {"template": self.template, "legal": self.legal, "reason": self.reason,
             "targets": list(self.targets), "user": self.user, "targetless": False,
             "target_fully_covered": all(r.target_fully_covered for r in self.per),
             "count": self.count, "templates": tmpl,
             "affected": [h.to_json() for h in c.affected],
             "not_affected": [m.to_json() for m in c.not_affected],
             "placements": [p.to_json() for p in c.placements],
             "origins": [[round(v, 4) for v in p.origin] for p in c.placements],
             "outlines": [[[round(x, 4), round(y, 4)] for x, y in o] for o in c.outlines]}
        if self.stk is not None:
            d["stk"] = {"attack": self.stk[1], "stk": self.stk[0]}
        return d


def stk_problems(world, user: str | None, spec, count: int) -> tuple:
    """(the user's STK for this template and the attack it comes from, or None; the problem
    when ``count`` templates are more than that STK: one template per Strike)."""
    stk = template_stk(world, user, spec)
    if stk is None or count <= stk[0]:
        return stk, []
    return stk, [f"{user}'s {stk[1]} has STK {stk[0]}: one template per Strike, so it places at most "
                 f"{counted(stk[0], 'template')}, not {count}"]


def judge_several(args, world, targets: list[str], bands: list[str], settings=None) -> SeveralResult:
    """Template k on main target k: each judged on its own (coverage, band, LoS from the
    origin, the Attack on that target; ``--best``: the best placement for that target), then
    all together for the models affected; the user's states and STK judged for all."""
    import dataclasses

    from engine import templates as T
    spec, ats, aims, per_band = resolve_several(args, world, targets, bands)
    by, n = args.by, len(targets)
    per = []
    for k, t in enumerate(targets):
        if args.best:
            r = T.best_placement(world, spec.key, user=by, target=t, band=per_band[k], count=1,
                                 settings=settings)
        else:
            r = T.template(world, spec.key, user=by, target=t, at=ats[k], aim=aims[k],
                           band=per_band[k] or "up", count=1, settings=settings)
        bad = target_problems(world, by, t, spec)
        if bad:
            r = dataclasses.replace(r, legal=False, reason="; ".join(bad + ([r.reason] if r.reason else [])))
        per.append(r)
    combined = T.evaluate(world, [r.placements[0] for r in per], target=None, user=by, settings=settings)
    stk, over = stk_problems(world, by, spec, n)
    whole = user_problems(world, by, n, spec) + over
    reasons = whole + [f"template {k + 1} on {t}: {r.reason}"
                       for k, (t, r) in enumerate(zip(targets, per)) if not r.legal]
    legal = not whole and all(r.legal for r in per)
    return SeveralResult(spec.key, legal, "; ".join(reasons), tuple(targets), by, tuple(per),
                         combined, stk)


def describe_several(res: SeveralResult, world, picture: bool = False) -> str:
    """The verdict on several main targets as text (``picture``: the caption): the whole
    attack's verdict, each template's with where it lies, then the models affected by all of
    them together (how many templates and which)."""
    head = f"{res.template} on {', '.join(res.targets)}"
    if res.user:
        head += f" by {res.user}"
    head += f", {res.count} templates"
    if res.stk is not None:
        head += f" (STK {res.stk[0]}: {res.stk[1]})"
    lines = [f"{head}: {'legal' if res.legal else 'ILLEGAL'}"]
    if res.reason:
        lines.append(f"  why: {res.reason}")
    for k, (t, r) in enumerate(zip(res.targets, res.per)):
        lines.append(f"  template {k + 1} on {t}: {'legal' if r.legal else 'ILLEGAL'}; "
                     + _placement_text(r.placements[0]))
        if r.search is not None and not picture:
            lines.append("    " + _search_text(r.search, r.placements[0].kind))
    return "\n".join(lines + _affected_text(res.combined, world, picture, which=True, legal=res.legal))


def _setting(v) -> str:
    """A setting's value as ``--set`` takes it back (true/false, not True/False)."""
    return str(v).lower() if isinstance(v, bool) else f"{v:g}" if isinstance(v, float) else str(v)


def _f(v: float) -> str:
    """Two decimals, never "-0.00"."""
    return f"{(0.0 if abs(v) < 0.005 else v):.2f}"


def _at(v: float) -> str:
    """A placement's coordinate as --at/--aim take it back: two decimals, more (up to 4) when
    the value has them (a target's centre given so in the scene)."""
    d = next((d for d in (2, 3) if abs(v - round(v, d)) < 1e-9), 4)
    return f"{(0.0 if abs(v) < 0.5 * 10.0 ** -d else v):.{d}f}"


def _coverage(h) -> tuple[str, str]:
    """("full"|"partial"|"touching", the covered share) as the text and the picture print it:
    a base that only touches the outline (0% under it) is hit too (rulings: touching counts)."""
    cover = "full" if h.full else ("partial" if h.covered_fraction > 0 else "touching")
    pct = "<0.1%" if 0 < h.covered_fraction < 5e-4 else f"{100 * h.covered_fraction:.1f}%"
    return cover, pct


NEAR = 1.0      # inches: the models outside a template a picture's caption names


def describe(res, world, picture: bool = False) -> str:
    """The verdict as text. ``picture``: the caption of `--picture` (the same lines, the
    affected on one line, and of the models not affected only those within 1" of an
    outline or missed for another reason)."""
    lines = []
    head = f"{res.template}"
    head += f" on {res.target}" if res.target else " (Targetless)"
    if res.user:
        head += f" by {res.user}"
    if res.count > 1:
        head += f", {res.count} templates"
    lines.append(f"{head}: {'legal' if res.legal else 'ILLEGAL'}")
    if res.reason:
        lines.append(f"  why: {res.reason}")
    for k, pl in enumerate(res.placements):
        tag = f"  template {k + 1}: " if res.count > 1 else "  "
        lines.append(tag + _placement_text(pl))
    if res.search is not None and not picture:
        lines.append("  " + _search_text(res.search, res.placements[0].kind))
    lines += _affected_text(res, world, picture)
    return "\n".join(lines)


def _placement_text(pl) -> str:
    """Where one template lies, as ``--at``/``--aim`` take it back, its band and its LoS origin."""
    lo, hi = pl.band
    if pl.kind == "circle":
        ox, oy, oz = pl.origin
        cz = getattr(pl, "centre_z", None)
        over = ("" if cz is None else f" (the card lies on the scenery there, at z {_f(cz)})" if cz > pl.surface
                else f" (the card lies below it, at z {_f(cz)})")
        return (f"centre ({_at(pl.centre[0])}, {_at(pl.centre[1])}) on the surface at z {_f(pl.surface)}"
                f"{over}; band z {_f(lo)} to {_f(hi)}; LoS from ({_f(ox)}, {_f(oy)}, {_f(oz)})")
    toward = f" toward ({_at(pl.aim[0])}, {_at(pl.aim[1])})" if pl.aim is not None else ""
    return (f"from {pl.user}'s base at ({_f(pl.apex[0])}, {_f(pl.apex[1])}), aim {pl.angle:.1f} deg{toward}, "
            f"band {pl.band_choice}: z {_f(lo)} to {_f(hi)}; LoS from {pl.user}")


def _search_text(s: dict, kind: str) -> str:
    return (f"search: {counted(s.get('candidates', 0), 'placement')} tried, {s.get('feasible', 0)} "
            f"{'covers' if s.get('feasible', 0) == 1 else 'cover'} the target "
            f"fully{' and see it' if kind == 'circle' else ' in its height band'}, {s.get('ms', 0):.0f} ms"
            + (f"; {s['note']}" if s.get("note") else ""))


def _which(h) -> str:
    """The templates (numbered from 1) that hit a model: "template 2", "templates 1, 2"."""
    nums = [k + 1 for k in h.templates]
    return ("template " if len(nums) == 1 else "templates ") + ", ".join(str(k) for k in nums)


def _each(h) -> str:
    """How much of a model's base each of the two or more templates that hit it covers, in
    their order ("each: full, 34.7%"); "" under one. The row's share is the largest: "full
    100.0% x2" alone read as wholly under both."""
    each = getattr(h, "each", ())
    if len(each) < 2:
        return ""

    def one(f, full):
        return "full" if full else "touching" if f <= 0 else "<0.1%" if f < 5e-4 else f"{100 * f:.1f}%"
    return "each: " + ", ".join(one(*e) for e in each)


def _affected_text(res, world, picture: bool, which: bool = False, legal: bool | None = None) -> list[str]:
    """The affected models (with how many templates hit each, and with ``which`` the
    templates' numbers) and the models not affected with the reason."""
    lines = []
    user_side = world.hitbox(res.user).side if res.user else None
    tally = ""
    if user_side is not None and res.affected:
        allies = sum(1 for h in res.affected if h.side == user_side)
        tally = f"{len(res.affected) - allies} {'enemy' if len(res.affected) - allies == 1 else 'enemies'}, " \
                f"{allies} {'ally' if allies == 1 else 'allies'}"
    # an illegal attack places no template: its models are those it would affect, not hit
    word = "affected" if (res.legal if legal is None else legal) else "would be affected"
    head = f"  {word} ({len(res.affected)}{': ' + tally if tally else ''})" if res.affected else f"  {word}: none"
    width = max([len(h.id) for h in res.affected] + [len(m.id) for m in res.not_affected] + [4])
    hits = []
    # the "(each: ...)" column, as wide as its widest row: a row with it beside rows without
    # pushed its "x2  enemy" out of line with theirs
    each_w = max([len(f" ({_each(h)})") for h in res.affected if _each(h)] + [0])
    for h in res.affected:
        who = "" if user_side is None else ("ally" if h.side == user_side else "enemy")
        times = f"x{h.count}" if res.count > 1 else ""
        cover, pct = _coverage(h)
        if picture:
            hits.append(f"{h.id} {' '.join(x for x in (cover if h.full else pct, times, who) if x)}"
                        + (f" ({_which(h)})" if which else ""))
        else:
            hits.append((f"    {h.id:<{width}}  {cover:<8} {pct:>6}"
                         + (f" ({_each(h)})" if _each(h) else "").ljust(each_w)
                         + "".join(f"  {x}" for x in (times, who.ljust(5) if which and who else who,
                                                      _which(h) if which else "") if x)).rstrip())
    lines += [head + ": " + ", ".join(hits)] if picture and hits else [head + (":" if hits else "")] + hits
    missed = res.not_affected
    if picture:
        missed = near_misses(world, res)
        if missed:
            lines.append("  not affected, near it: " + "; ".join(f"{m.id} {_why(m)}" for m in missed))
    elif missed:
        lines.append("  not affected:")
        for m in missed:
            lines.append(f"    {m.id:<{width}}  {_why(m)}")
    return lines


def _why(miss) -> str:
    """Why a model is not affected, with what blocks a circle's centre ("no LoS from the
    template's centre: blocked by wall"), as `eldfall los` names the blocking pieces."""
    blocked = getattr(miss, "blocked", "")
    return f"{miss.why}: {blocked}" if blocked else miss.why


def near_misses(world, res) -> list:
    """The models not affected that a picture names and frames: missed for another reason
    than being outside (no LoS, out of the band, Dead), or with the base within NEAR of an
    outline. Never the user."""
    import numpy as np

    def near(m):
        if not m.why.startswith(("outside the template", "outside every template")):
            return True
        hb = world.hitbox(m.id)
        return min(float(pl.sdf(np.array([hb.x, hb.y]))) for pl in res.placements) - hb.radius <= NEAR
    return [m for m in res.not_affected if m.id != res.user and near(m)]


def run(args) -> int:
    if args.picture is not None:
        from engine.validate import output_folder
        # before any work: a bad folder (or a folder where aoe.png goes) writes nothing
        output_folder(args.picture, "--picture", files=("aoe.png",))
    settings = template_settings(args)          # before the scene: a bad --set reads nothing
    world = load_world(args.scene, args.models_dir)
    targets, bands = list(args.target or []), list(args.band or [])
    # the user judged Engaged where the table has it engaged, as eldfall move and reach judge
    # it (an Engaged model declares no Ranged Attack; its LoS is the Engaged State's)
    engaged_by = []
    if args.by is not None and args.by in world.models:
        from tools.cmd_move import engaged_from_table
        engaged_by = engaged_from_table(world, args.by)
    note = (f"  note: {args.by} is Engaged by {', '.join(engaged_by)} (in their melee reach, with LoS, "
            "where the scene stands it) and judged so" if engaged_by else "")
    attacks_note, user_attacks = "", None
    if args.by is not None and args.by in world.models:
        # "legal" for a user none of whose attacks places this template would read as "it may
        # place it": say that no attack was judged (docs/rulings.md, "Several templates": a user
        # with no profile, or no such attack, is judged on the placement alone)
        attacks_note, user_attacks = user_attacks_note(world, args.by, args.template)
    if len(targets) > 1:
        res = judge_several(args, world, targets, bands, settings)
        text = functools.partial(describe_several, res, world)
        # the picture takes the whole attack: every template coloured by its own verdict,
        # numbered as the text numbers them, every main target ringed and framed
        shown = res
    else:
        # one main target (or none): one band for all its templates; two different ones
        # contradict each other (before, the last one was taken without a word)
        from engine import templates as T
        if len(set(bands)) > 1 and T.template_spec(args.template).kind == "spray":
            raise InputError(f"--band: given {counted(len(bands), 'time')} ({', '.join(bands)}) for one main "
                             "target: give it once (its templates share one band; with several --target, "
                             "once per template)")
        args.target = targets[0] if targets else None
        args.band = bands[-1] if bands else None
        res = shown = judge(args, world, settings)
        text = functools.partial(describe, res, world)
    # a legal Attack on a main target the user does not see: what lets it through
    los_notes = [n for n in dict.fromkeys(no_los_note(world, args.by, t, args.template)
                                          for t in (targets if res.legal else ())) if n]
    if args.json:
        from engine import templates as T
        out = res.to_json()
        from tools.cmd_los import party_files
        out.update({"scene": world.scene.path, "sha256": world.scene.sha256, "parties": party_files(world.scene),
                    "settings": settings.as_dict(T.template_spec(res.template))})
        if args.by is not None:
            out["user_engaged_by"] = engaged_by
            out["user_attacks"] = user_attacks
            if attacks_note:
                out["user_attacks_note"] = attacks_note.strip()[len("note: "):]
            out["no_los_notes"] = [n.strip()[len("note: "):] for n in los_notes]
        print(json.dumps(out, indent=2))
    else:
        print(text())
        if note:
            print(note)
        if attacks_note:
            print(attacks_note)
        for line in los_notes:
            print(line)
        if settings.changed():
            print("  settings: " + ", ".join(f"{k}={_setting(v)}" for k, v in settings.changed().items()))
        print(f"  scene sha256: {world.scene.sha256}")
    if args.picture:
        from engine.view.pictures import aoe_picture
        frame = [m.id for m in near_misses(world, shown)]
        if len(targets) > 1:
            frame = list(dict.fromkeys(frame + targets))
        path = aoe_picture(world, shown, args.picture, caption=text(picture=True), frame=frame)
        print(f"picture: {path}", file=sys.stderr if args.json else sys.stdout)
    return 0
