"""``eldfall aoe SCENE --template ...``: area templates on a table.

Judges one or several templates (``--count``): legality (the main target fully
covered and in the height band), every model affected (covered fraction,
partial/full, in band, LoS from the origin, how many templates) and every
model not affected with the reason. ``--best`` searches the placement that
fully covers the target and hits the most enemies, then the fewest allies; the
centre or aim point it prints, given back with ``--at`` or ``--aim``, gets the
same verdict.

    eldfall aoe scenes/skirmish.yaml --template circle-s --target blue-guard --by red-mage
    eldfall aoe scenes/skirmish.yaml --template spray-l --by red-brute --aim 20,12 --band down --json
    eldfall aoe scenes/skirmish.yaml --template circle-l --target blue-guard --by red-mage --best
"""
from __future__ import annotations

import json
import math
import sys

from engine.errors import InputError
from tools.loading import counted, load_world


# the most templates one attack places: one per Strike, and a profile's STK is 1-20
# (docs/scene-format.md, Items and Spells)
MAX_COUNT = 20


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("--template", required=True, metavar="circle-s|circle-l|spray-s|spray-l",
                        help="the template (engine/data/templates.yaml)")
    parser.add_argument("--target", help="the main target (must be fully covered); omit it: Targetless")
    parser.add_argument("--at", action="append", metavar="X,Y[,Z]",
                        help="a circle's centre (default: the target's centre); repeat for each template")
    parser.add_argument("--by", help="the user of the template (never affected; a spray starts at its base)")
    parser.add_argument("--aim", action="append", metavar="X,Y",
                        help="where a spray points (default: the target); repeat for each template")
    parser.add_argument("--band", metavar="up|down",
                        help="a spray's height band: up = the user's surface to 5\" above, down = 5\" below to it")
    parser.add_argument("--count", metavar="N", help="how many templates (STK); default 1 or one per --at/--aim")
    parser.add_argument("--best", action="store_true", help="search the best placement (needs --target and --by)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--picture", metavar="DIR", help="write aoe.png into DIR")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")


def _point(text: str, what: str, dims=(2, 3)) -> tuple[float, ...]:
    try:
        vals = tuple(float(v) for v in text.split(","))
    except ValueError:
        vals = ()
    if len(vals) not in dims or not all(math.isfinite(v) for v in vals):
        shape = "X,Y" if dims == (2,) else "X,Y or X,Y,Z"
        raise InputError(f"{what}: expected {shape} in inches, got {text!r}")
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


def attack_problems(world, user: str | None, target: str | None, count: int = 1) -> list[str]:
    """What bars ``user`` from declaring an Attack on ``target`` whatever the template's
    placement (seeds, Attack section: an Attack targets an enemy model and needs LoS to it;
    a spell may target a model inside the caster's Casting Aura without LoS; states page: a
    Dead or Shrouded model cannot be targeted; "By State": an Incapacitated, Dead, Blinded or
    Immobilized user declares no Attack, a Crouched one strikes once: ``count`` templates are
    too many)."""
    from engine.measure import has_los, in_awareness
    from rules.eldfall.availability import why_not
    from rules.eldfall.conditions import targeting_block
    out = []
    if user is not None:
        # the user's states may forbid every Attack a template comes with (a Ranged or a
        # Spell Attack): Incapacitated, Dead, Blinded, Immobilized (eldfall-actions.txt,
        # "By State"; the rules engine's own table). Engaged forbids only the Ranged one
        ustates = world.hitbox(user).states
        bars = [why_not("active", "Idle", ustates, a) for a in ("Spell Attack", "Ranged Attack")]
        if all(bars):
            out.append(f"{user} cannot declare an Attack: {bars[0]}")
        else:
            # one template per Strike; "Crouched: All (STK capped at 1)" ("By State")
            from rules.eldfall.availability import strike_cap
            caps = [c for c in (strike_cap("active", a, ustates) for a in ("Spell Attack", "Ranged Attack"))
                    if c is not None]
            if len(caps) == 2 and count > max(caps):
                capped = ", ".join(sorted(ustates & {"Crouched"})) or "its states"
                out.append(f"{user} strikes at most {max(caps)} time{'s' if max(caps) != 1 else ''} "
                           f"({capped}: STK capped at {max(caps)}), so it places at most "
                           f"{counted(max(caps), 'template')}, not {count}")
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
    if not has_los(world, user, target) and not in_awareness(world, user, target):
        out.append(f"{user} has no LoS to main target {target}, which is outside its Casting Aura "
                   "(only a spell inside the Aura may target a model without LoS)")
    return out


def judge(args, world):
    import dataclasses

    from engine import templates as T
    spec, ats, aims, count = resolve(args, world)
    if args.best:
        res = T.best_placement(world, spec.key, user=args.by, target=args.target,
                               band=args.band, count=count)
    else:
        res = T.template(world, spec.key, user=args.by, target=args.target,
                         at=ats or None, aim=aims or None, band=args.band or "up", count=count)
    bad = attack_problems(world, args.by, args.target, count)
    if bad:
        res = dataclasses.replace(res, legal=False, reason="; ".join(bad + ([res.reason] if res.reason else [])))
    return res


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
        lo, hi = pl.band
        if pl.kind == "circle":
            ox, oy, oz = pl.origin
            over = ("" if getattr(pl, "centre_z", None) is None
                    else f" (the card lies on the scenery there, at z {_f(pl.centre_z)})")
            lines.append(f"{tag}centre ({_at(pl.centre[0])}, {_at(pl.centre[1])}) on the surface at z {_f(pl.surface)}"
                         f"{over}; band z {_f(lo)} to {_f(hi)}; LoS from ({_f(ox)}, {_f(oy)}, {_f(oz)})")
        else:
            toward = f" toward ({_at(pl.aim[0])}, {_at(pl.aim[1])})" if pl.aim is not None else ""
            lines.append(f"{tag}from {pl.user}'s base at ({_f(pl.apex[0])}, {_f(pl.apex[1])}), aim {pl.angle:.1f} deg{toward}, "
                         f"band {pl.band_choice}: z {_f(lo)} to {_f(hi)}; LoS from {pl.user}")
    if res.search is not None and not picture:
        s = res.search
        lines.append(f"  search: {counted(s.get('candidates', 0), 'placement')} tried, {s.get('feasible', 0)} "
                     f"{'covers' if s.get('feasible', 0) == 1 else 'cover'} the target "
                     f"fully{' and see it' if res.placements[0].kind == 'circle' else ' in its height band'}, {s.get('ms', 0):.0f} ms" + (f"; {s['note']}" if s.get("note") else ""))
    user_side = world.hitbox(res.user).side if res.user else None
    tally = ""
    if user_side is not None and res.affected:
        allies = sum(1 for h in res.affected if h.side == user_side)
        tally = f"{len(res.affected) - allies} {'enemy' if len(res.affected) - allies == 1 else 'enemies'}, " \
                f"{allies} {'ally' if allies == 1 else 'allies'}"
    head = f"  affected ({len(res.affected)}{': ' + tally if tally else ''})" if res.affected else "  affected: none"
    width = max([len(h.id) for h in res.affected] + [len(m.id) for m in res.not_affected] + [4])
    hits = []
    for h in res.affected:
        who = "" if user_side is None else ("ally" if h.side == user_side else "enemy")
        times = f"x{h.count}" if res.count > 1 else ""
        cover, pct = _coverage(h)
        if picture:
            hits.append(f"{h.id} {' '.join(x for x in (cover if h.full else pct, times, who) if x)}")
        else:
            hits.append(f"    {h.id:<{width}}  {cover:<8} {pct:>6}" + "".join(f"  {x}" for x in (times, who) if x))
    lines += [head + ": " + ", ".join(hits)] if picture and hits else [head + (":" if hits else "")] + hits
    missed = res.not_affected
    if picture:
        missed = near_misses(world, res)
        if missed:
            lines.append("  not affected, near it: " + "; ".join(f"{m.id} {m.why}" for m in missed))
    elif missed:
        lines.append("  not affected:")
        for m in missed:
            lines.append(f"    {m.id:<{width}}  {m.why}")
    return "\n".join(lines)


def near_misses(world, res) -> list:
    """The models not affected that a picture names and frames: missed for another reason
    than being outside (no LoS, out of the band, Dead), or with the base within NEAR of an
    outline. Never the user."""
    import numpy as np

    def near(m):
        if not m.why.startswith("outside the template"):
            return True
        hb = world.hitbox(m.id)
        return min(float(pl.sdf(np.array([hb.x, hb.y]))) for pl in res.placements) - hb.radius <= NEAR
    return [m for m in res.not_affected if m.id != res.user and near(m)]


def run(args) -> int:
    if args.picture is not None:
        from engine.validate import output_folder
        # before any work: a bad folder (or a folder where aoe.png goes) writes nothing
        output_folder(args.picture, "--picture", files=("aoe.png",))
    world = load_world(args.scene, args.models_dir)
    res = judge(args, world)
    if args.json:
        from engine import templates as T
        out = res.to_json()
        out.update({"scene": world.scene.path, "sha256": world.scene.sha256,
                    "settings": T.TemplateSettings().as_dict(T.template_spec(res.template))})
        print(json.dumps(out, indent=2))
    else:
        print(describe(res, world))
        print(f"  scene sha256: {world.scene.sha256}")
    if args.picture:
        from engine.view.pictures import aoe_picture
        path = aoe_picture(world, res, args.picture, caption=describe(res, world, picture=True),
                           frame=[m.id for m in near_misses(world, res)])
        print(f"picture: {path}", file=sys.stderr if args.json else sys.stdout)
    return 0
