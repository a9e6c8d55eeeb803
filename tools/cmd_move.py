"""``eldfall move SCENE MODEL --to X,Y[,Z] --mode walk|run|climb|jump``: check a declared move.

The route runs from the model's base through each ``--via`` point to ``--to``
(a straight line when there is no ``--via``). Z picks the level where several
surfaces overlap (or, for a jump, a point in the air). Prints the verdict, the
distance used and left, the end, falls with their AG rolls, and where the
route enters the enemies' melee reach (attacks of opportunity) and awareness.

    eldfall move scenes/skirmish.yaml red-champion --to 14,10 --mode walk
    eldfall move scenes/skirmish.yaml red-scout --to 20,9 --via 24,8 --mode walk --json
"""
from __future__ import annotations

import argparse
import json
import math
import sys

from engine.errors import InputError, Problem
from tools.loading import eldfall_rules_note, load_world

MODES = ("walk", "run", "climb", "jump")


def point(text: str, flag: str, dims=(2, 3)) -> tuple[float, ...]:
    try:
        vals = tuple(float(v) for v in str(text).split(","))
    except ValueError:
        vals = ()
    if len(vals) not in dims or not all(math.isfinite(v) for v in vals):
        raise InputError(Problem("<command line>", None, flag, f"expected X,Y or X,Y,Z in inches, got {text!r}"))
    return vals


def positive(text: str, flag: str) -> float:
    try:
        v = float(text)
    except (TypeError, ValueError):
        v = float("nan")
    if not (math.isfinite(v) and v > 0):
        raise InputError(Problem("<command line>", None, flag, f"expected a positive number of inches, got {text!r}"))
    return v


def negative_points(parser) -> None:
    """A point with a negative first coordinate (``--to -1,12``) is the option's value, not
    an unknown option: argparse took it for an option and said "expected one argument"
    (the point is then refused as off the table, in one line naming the flag)."""
    import re
    parser._negative_number_matcher = re.compile(r"^-\.?\d[\d.,eE+-]*$")


def check_model(world, model: str, flag: str = "MODEL") -> None:
    if model not in world.model_ids():
        from tools.cmd_los import not_a_model
        raise InputError(Problem("<command line>", None, flag, not_a_model(world, model)))


def check_on_table(world, p, flag: str) -> None:
    """A point given on the command line lies on the table (else bad input, named by its flag)."""
    W, D = world.table
    if not (0.0 <= p[0] <= W and 0.0 <= p[1] <= D):
        raise InputError(Problem("<command line>", None, flag,
                                 f"point ({p[0]:g}, {p[1]:g}) is off the {W:g}\" x {D:g}\" table"))


def engaged_from_table(world, model: str) -> list[str]:
    """The enemies that engage ``model`` where the scene stands it (in their melee reach, with
    their LoS: eldfall-states.txt, Engaged, "at the end of ... a Phase", which a scene is),
    when the scene does not already give it the Engaged State. The State is added to the
    model for this check (Engaged: only Walk, directly toward them). [] when none does."""
    from engine.measure import engages
    hb = world.hitbox(model)
    if "Engaged" in hb.states or "eldfall" not in tuple(getattr(world.scene, "games", ("eldfall",))):
        return []           # (Legends of Norova has no Engaged State)
    by = [e for e in world.model_ids() if e != model and engages(world, e, model)]
    if by:
        hb.states = frozenset(hb.states) | {"Engaged"}
    return by


def speed_line(world, model: str, mode: str, speed) -> str:
    """Where the allowance comes from when the model's States change its SPD (Slowed,
    Crippled, Crouched halve it, rounded up; Flying doubles it): "" when they do not, or
    when --speed gave the effective SPD."""
    if speed is not None:
        return ""
    from engine import motion
    st = motion.settings(None)
    hb = world.hitbox(model)
    try:
        base = motion._spd(hb)
    except InputError:
        return ""
    eff = motion.effective_spd(hb, st, None)
    if eff == base:
        return ""
    states = set(getattr(hb, "states", ()) or ())
    why = []
    halving = sorted(states & set(st["halving_states"]))
    if halving:
        why.append(f"{', '.join(halving)}: halved, rounded up")
    doubling = sorted(states & set(st["doubling_states"]))
    if doubling:
        why.append(f"{', '.join(doubling)}: doubled")
    return (f"  SPD {eff:g} (SPD {base:g}; {'; '.join(why)}): the {mode} allowance is "
            f"{motion.allowance_for(mode, eff, st):g}\"")


def engaged_line(by) -> str:
    return (f"  Engaged by {', '.join(by)} (in its melee reach, with LoS, where the scene stands it): "
            "only Walk, directly toward it")


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("model", help="the moving model's id")
    negative_points(parser)
    parser.add_argument("--to", required=True, metavar="X,Y[,Z]", help="where the move ends")
    parser.add_argument("--via", action="append", default=[], metavar="X,Y[,Z]",
                        help="a waypoint on the way (repeat, in order)")
    parser.add_argument("--mode", required=True, choices=MODES, help="the movement declared")
    parser.add_argument("--speed", metavar="SPD", help="effective SPD to use instead of the model's (states applied)")
    parser.add_argument("--arc", metavar="APEX", nargs="?", const="default",
                        help="jump along a parabola rising APEX inches above the higher end (default 1)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--picture", metavar="DIR", help="write move.png into DIR")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")
    parser.add_argument("--settings", metavar="FILE",
                        help="sight settings for who sees the mover along a legal route (default "
                             "engine/data/sight.yaml), as `eldfall los --settings`")


def _inches(v: float) -> str:
    """Two decimals; a huge figure (--speed 1e300) in a few digits, not three hundred."""
    return f"{v:.2f}" if abs(v) < 1e6 else f"{v:.4g}"


def describe(r) -> str:
    verdict = "legal" if r.legal else "NOT LEGAL"
    # a refused move is not made: its end is only where the route is stopped (a model is
    # left on a vertical surface only by a legal Climb)
    lines = [f"{r.model} {r.mode}: {verdict} ({r.reason})",
             f"  distance {_inches(r.distance)}\" of {r.allowance:g}\" ({_inches(r.left)}\" left); "
             f"{'ends' if r.legal else 'stops'} at ({r.end[0]:.2f}, {r.end[1]:.2f}, {round(r.end[2], 2) + 0.0:.2f})"
             + ("; on a vertical surface: any action but Nothing makes it fall"
                if r.ends_on_vertical and r.legal else "")]
    legs = getattr(r, "legs", None) or []
    if len(legs) > 1 or any(abs(g["cost"] - g["length"]) > 0.005 for g in legs):
        # the parts a player measures with a ruler, each with what it costs (a plain
        # walk on the flat is its distance alone)
        lines.append("  route: " + ", ".join(f"{_inches(g['length'])}\" {g['kind']} ({_inches(g['cost'])}\")"
                                             for g in legs))
    if r.surfaces:
        lines.append("  crosses: " + ", ".join(r.surfaces))
    if r.stopped_by:
        lines.append(f"  stopped by base contact with {r.stopped_by}")
    for a in getattr(r, "dangerous", ()):
        lines.append(f"  touches the Dangerous area {a}: a Dodge (AG) roll, 1 Wound if it fails")
    for f in r.falls:
        # a refused move is not made: its fall is only what would happen
        lines.append(f"  {'falls' if r.legal else 'would fall'} {f.height:.2f}\" onto {f.onto or 'nothing'}: "
                     f"{f.rolls} AG roll{'s' if f.rolls != 1 else ''}")
    for p in r.opportunity_points:
        lines.append(f"  enters {p.enemy}'s melee reach at ({p.at[0]:.2f}, {p.at[1]:.2f}, {round(p.at[2], 2) + 0.0:.2f})"
                     " (attack of opportunity)")
    for p in r.awareness_points:
        lines.append(f"  enters {p.enemy}'s awareness at ({p.at[0]:.2f}, {p.at[1]:.2f}, {round(p.at[2], 2) + 0.0:.2f})")
    return "\n".join(lines)


def seen_by(world, result, settings=None) -> list:
    """For a legal move: every enemy's LoS to the mover along its route (``sight.watchers``, on
    the sight ``settings``): who may react to it, and from where a ranged reaction may aim
    (eldfall-reactions.txt)."""
    if not result.legal or len(result.path) < 2:
        return []
    from engine import sight
    return sight.watchers(world, result.model, result.path, settings=settings)


def seen_lines(watch) -> list[str]:
    """``seen_by`` in words: one line per enemy that saw the mover, then those that did not."""
    pt = lambda p: f"({p[0]:.2f}, {p[1]:.2f}, {round(p[2], 2) + 0.0:.2f})"  # noqa: E731
    out = []
    for w in watch:
        if w.had_los:
            out.append(f"  seen by {w.observer} from {_inches(w.first_distance)}\" to {_inches(w.last_distance)}\" "
                       f"along the route (first at {pt(w.first)}, last at {pt(w.last)})")
    unseen = [w.observer for w in watch if not w.had_los]
    if unseen:
        out.append(f"  not seen by {', '.join(unseen)} (no LoS anywhere along the route)")
    return out


def seen_json(watch) -> list[dict]:
    r = lambda p: None if p is None else [round(float(v), 4) for v in p]  # noqa: E731
    return [{"observer": w.observer, "had_los": bool(w.had_los), "first": r(w.first), "last": r(w.last),
             "first_distance": None if w.first_distance is None else round(float(w.first_distance), 4),
             "last_distance": None if w.last_distance is None else round(float(w.last_distance), 4),
             "entered_awareness": bool(w.entered_awareness)} for w in watch]


def via_level(result, via, overrides) -> None:
    """A --via X,Y,Z of a Walk, Run or Climb names the level the route passes there (as
    --to's Z does for the end): a route that passes (X, Y) on another level is refused
    (``result`` is changed in place). The engine follows the levels the route reaches and
    reads a waypoint's Z for a Jump only."""
    if not result.legal:
        return
    from engine.motion import settings
    tol = float(settings(overrides or None)["declared_level_tolerance"])
    path = [p for p in result.path]
    for p in via:
        if len(p) < 3:
            continue
        zs = [q[2] for q in path if abs(q[0] - p[0]) <= 1e-6 and abs(q[1] - p[1]) <= 1e-6]
        if zs and not any(abs(z - p[2]) <= tol for z in zs):
            result.legal = False
            result.reason = (f"the route passes ({p[0]:g}, {p[1]:g}) at z {zs[0]:.2f}, not at the declared "
                             f"z {p[2]:g}")
            return


def run(args) -> int:
    from engine.motion import check_path
    to = point(args.to, "--to")
    via = [point(v, "--via") for v in args.via]
    speed = positive(args.speed, "--speed") if args.speed is not None else None
    overrides = {}
    if args.arc is not None:
        if args.mode != "jump":
            raise InputError(Problem("<command line>", None, "--arc", "only a jump follows an arc"))
        overrides["jump_shape"] = "arc"
        if args.arc != "default":
            from engine.motion import _MAX_APEX
            overrides["arc_apex"] = positive(args.arc, "--arc")
            if overrides["arc_apex"] > _MAX_APEX:
                raise InputError(Problem("<command line>", None, "--arc",
                                         f"the arc's apex may be at most {_MAX_APEX:g}\" above the higher end, "
                                         f"got {args.arc!r}"))
    if args.picture is not None:
        from engine.validate import output_folder
        output_folder(args.picture, "--picture", files=("move.png",))     # before any work: a bad folder writes nothing
    from engine.sight_settings import load_settings
    sight_settings = load_settings(args.settings)          # before the scene: a bad file reads nothing
    world = load_world(args.scene, args.models_dir)
    check_model(world, args.model)
    for p in via:
        check_on_table(world, p, "--via")
    check_on_table(world, to, "--to")
    engaged_by = engaged_from_table(world, args.model)
    result = check_path(world, args.model, via + [to], args.mode, speed=speed, settings=overrides or None)
    if args.mode != "jump":
        via_level(result, via, overrides)
    watch = seen_by(world, result, sight_settings)
    if args.picture:
        try:
            from engine.view.pictures import move_picture
            # a waypoint far up in the air (a jump aimed at z 1e9) would frame the table
            # out of the picture: drawn at most the table's size above it
            cap = float(max(world.table))
            shown = [p if len(p) < 3 else (p[0], p[1], min(p[2], cap)) for p in via + [to]]
            path = move_picture(world, result, args.picture, waypoints=shown,
                                caption="\n".join([describe(result)] + seen_lines(watch)))
        except Exception as exc:  # noqa: BLE001 - the verdict stands without the picture
            print(f"eldfall move: no picture ({type(exc).__name__}: {exc})", file=sys.stderr)
            path = None
    else:
        path = None
    note = eldfall_rules_note(world, "move")
    if args.json:
        out = result.to_dict()
        out["seen_by"] = seen_json(watch)
        if engaged_by:
            out["engaged_by"] = engaged_by
        if note:
            out["note"] = note.strip().removeprefix("note: ")
        if path:
            out["picture"] = path
        print(json.dumps(out, indent=2))
    else:
        print(describe(result))
        for line in seen_lines(watch):
            print(line)
        from tools.cmd_los import changed_words
        if watch and changed_words(sight_settings):     # --settings that changes who sees it
            print(f"  settings: {changed_words(sight_settings)[2:]}")
        spd = speed_line(world, args.model, args.mode, speed)
        if spd:
            print(spd)
        if engaged_by:
            print(engaged_line(engaged_by))
        if note:
            print(note)
        if path:
            print(f"  picture: {path}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    p = argparse.ArgumentParser(prog="eldfall move")
    add_arguments(p)
    sys.exit(run(p.parse_args()))
