"""``eldfall los SCENE VIEWER TARGET`` and ``eldfall los SCENE --all``.

Line of sight and cover by the rulebook (engine.sight, engine.cover):

    eldfall los scenes/skirmish.yaml red-archer blue-mage
    red-archer -> blue-mage: LoS yes, 37% visible, Heavy cover from wall-1, 14.2" away, 6.0" lower

``--json`` adds what makes the verdict reproducible: the scene file's SHA-256,
the SHA-256 of each party file its models' profiles come from (``parties``) and the
settings used. ``--picture DIR`` writes the eye view and an overview
(engine.view.pictures). ``--all`` prints the LoS matrix of every pair, with the cover of
each pair that has LoS (as ``eldfall los A B`` gives it).
"""
from __future__ import annotations

import json
import math
import sys

from engine.cover import behind_arc, by_state, cover_line, percent, underside_unseen
from engine.errors import InputError, Problem
from engine.measure import inches


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("viewer", nargs="?", help="the model that looks (the attacker)")
    parser.add_argument("target", nargs="?", help="the model looked at")
    parser.add_argument("--all", action="store_true", help="the LoS matrix of every pair of models, with cover")
    parser.add_argument("--moving", action="store_true", help="the viewer is moving (360 degrees)")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--picture", metavar="DIR", help="write the eye view and an overview PNG into DIR")
    parser.add_argument("--settings", metavar="FILE", help="sight settings (default engine/data/sight.yaml)")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")
    _models_after_options(parser)


def _models_after_options(parser) -> None:
    """VIEWER and TARGET given after an option (``los SCENE --moving A B``, ``los SCENE A
    --json B``) are taken as VIEWER and TARGET. argparse fills its optional positionals
    (empty) with the first run of positionals only, and would refuse them as "unrecognized
    arguments"; the top parser still refuses any word left over."""
    plain = parser.parse_known_args

    def parse_known_args(args=None, namespace=None):
        ns, extras = plain(args, namespace)
        rest = []
        for a in extras:
            if not a.startswith("-"):
                if getattr(ns, "viewer", None) is None:
                    ns.viewer = a
                    continue
                if getattr(ns, "target", None) is None:
                    ns.target = a
                    continue
            rest.append(a)
        return ns, rest
    parser.parse_known_args = parse_known_args


def _load(args):
    from engine.sight_settings import load_settings
    from tools.loading import load_world
    settings = load_settings(args.settings)
    return load_world(args.scene, args.models_dir), settings


def party_files(scene) -> dict[str, str]:
    """The party files the scene's models (on the table and in reserve) take their profiles
    from, each with its SHA-256: a model's size, traits and weapons come from there, so the
    scene's own SHA-256 alone does not pin the verdict (a profile changed from M to L gives
    another answer for the same scene file)."""
    import hashlib
    from pathlib import Path
    out: dict[str, str] = {}
    for m in tuple(scene.models) + tuple(getattr(scene, "reserves", ())):
        f = getattr(getattr(m, "profile", None), "file", "")
        if f and f not in out:
            try:
                out[f] = hashlib.sha256(Path(f).read_bytes()).hexdigest()
            except OSError:
                out[f] = ""
    return dict(sorted(out.items()))


def not_a_model(world, mid: str) -> str:
    """Why ``mid`` names no model on the table: a reserve creature, a terrain piece, a token,
    or nothing the scene knows."""
    scene = world.scene
    if any(m.id == mid for m in getattr(scene, "reserves", ())):
        return f"{mid!r} is a reserve creature: off the table until a Ritual summons it"
    if any(t.id == mid for t in scene.terrain):
        return f"{mid!r} is a terrain piece, not a model"
    if any(t.id == mid for t in getattr(scene, "tokens", ())):
        return f"{mid!r} is a token, not a model"
    return f"unknown model {mid!r} (known: {', '.join(world.model_ids()) or 'none'})"


def _check_id(world, mid: str, what: str, scene: str) -> None:
    if mid not in world.models:
        raise InputError(Problem(scene, None, what, not_a_model(world, mid)))


def all_round_why(world, r, moving: bool) -> str:
    """What gives the viewer its 360 degrees: moving, a state, a trait."""
    s, hb = r.settings, world.hitbox(r.viewer)
    why = ["moving"] if moving and s.moving_is_360 else []
    why += [f"{x} (state)" for x in s.three_sixty_states if x in set(hb.states)]
    why += [f"{x} (trait)" for x in s.three_sixty_traits if x in set(hb.traits)]
    return ", ".join(why) or "/".join(("moving",) + tuple(s.three_sixty_states))


def share_text(f: float) -> str:
    """A share with one decimal, or as many more (up to four) as it takes never to print a part
    seen (or hidden) as "0.0%" (or "100.0%"): one sample point of a Colossal hitbox's 5,439 is
    0.02%, and "visible: 0.0%" under "LoS yes" reads as a fault."""
    for nd in range(1, 5):
        s = f"{f:.{nd}%}"
        if not ((f > 0 and float(s[:-1]) == 0) or (f < 1 and float(s[:-1]) == 100)):
            return s
    return s


def _zero(v: float) -> float:
    """0.0 for what prints as zero (never "-0.00")."""
    return 0.0 if abs(v) < 0.005 else v


def blocking_words(world, r, long: bool = False) -> str:
    """The pieces (and models) in the way, the Forest areas among them said to be such: an area
    is no solid piece, and blocks a line only as the ``forest_limit``-th Forest area it
    crosses. ``long``: also whether the viewer's and the target's own areas count."""
    names = list(r.blocking)
    text = ", ".join(names)
    if world is None:
        return text
    forest = [n for n in names if any(p.id == n and not p.solid and "forest" in p.tags for p in world.pieces)]
    if forest:
        many = len(forest) > 1
        which = ("Forest area" + ("s" if many else "") if len(forest) == len(names)
                 else ", ".join(forest) + (" are Forest areas" if many else " is a Forest area"))
        from engine.sight import forest_areas
        woods = [[i for i in ids if i in forest] for ids in forest_areas(world, r.settings)]
        for w in (w for w in woods if len(w) > 1):
            which += f"; {', '.join(w[:-1])} and {w[-1]} are one wood"
        text += f" ({which}: no LoS through {r.settings.forest_limit} or more"
        if long:
            text += (", those the viewer or the target stand in "
                     + ("included" if r.settings.forest_count_own_area else "not counted"))
        text += ")"
    return text


def dark_check(world, r) -> dict | None:
    """The Dark rule when it was checked and let the geometry decide: the viewer or the target
    (``dark_applies``) stands in a Dark area and the target is within the viewer's Awareness.
    None when no Dark area concerns the pair, or when something else decided first (itself,
    Blinded, Flying, Engaged: checked before the Dark) or the Dark itself said no (the reason
    says so)."""
    if world is None or r.reason == "itself" or by_state(r):
        return None
    s = r.settings
    vh, th = world.hitbox(r.viewer), world.hitbox(r.target)
    if s.blinded_state in vh.states or s.flying_state in vh.states or s.flying_state in th.states \
            or str(r.reason).startswith(f"{r.viewer} is engaged by"):
        return None
    from engine.sight import sight_environments
    dark = [m for m in (r.viewer, r.target) if "dark" in sight_environments(world, m, s)]
    applies = {"either": bool(dark), "viewer": r.viewer in dark, "target": r.target in dark}[s.dark_applies]
    if not applies:
        return None
    d = float(world.distance(r.viewer, r.target))
    return {"in_dark": dark, "applies_to": s.dark_applies, "awareness": vh.awareness, "distance": round(d, 4),
            "within_awareness": bool(world.in_awareness(r.viewer, r.target))}


EXCEPTION_ORDER = ("blinded", "flying", "engaged", "dark")     # docs/rulings.md, "Order of the exceptions"
EXCEPTION_NAMES = {"blinded": "Blinded", "flying": "Flying", "engaged": "Engaged", "dark": "the Dark"}


def decided_by(world, r) -> str:
    """What decided the verdict: ``itself``, one of the exceptions (``blinded``, ``flying``,
    ``engaged``, ``dark``), ``front arc`` (the target wholly behind it), ``minimum visible
    area``, ``forest`` (only Forest areas stand in the way) or ``lines`` (the lines between the
    hitboxes, scenery and models)."""
    s, why = r.settings, str(r.reason)
    if why == "itself":
        return "itself"
    if why == f"{r.viewer} is {s.blinded_state}":
        return "blinded"
    if why in (f"{r.viewer} is {s.flying_state}: LoS to all models", f"{r.target} is {s.flying_state}: LoS from all models"):
        return "flying"
    if why == f"{r.viewer} is engaged by {r.target}":
        return "engaged"
    if why.startswith("Dark: "):
        return "dark"
    if why == f"{r.target} is behind {r.viewer}'s front arc":
        return "front arc"
    if why.startswith("visible area "):
        return "minimum visible area"
    if not r.los and world is not None and r.blocking and all(
            any(p.id == n and not p.solid and "forest" in p.tags for p in world.pieces) for n in r.blocking):
        return "forest"
    return "lines"


def overruled(world, r) -> list[dict]:
    """The exceptions that concern the pair and would have answered otherwise, but come after
    the one that decided (docs/rulings.md, "Order of the exceptions"): a Blinded viewer
    looking at a Flying target, a Flying model in a Dark area beyond the other's Awareness,
    an engager beyond Awareness in the Dark. Each: {"rule", "los", "why"}."""
    if world is None:
        return []
    first = decided_by(world, r)
    if first not in EXCEPTION_ORDER:
        return []
    from engine import sight
    s, v, t = r.settings, r.viewer, r.target
    out = []
    for rule in EXCEPTION_ORDER[EXCEPTION_ORDER.index(first) + 1:]:
        if rule == "flying":
            fl = [m for m in (v, t) if s.flying_state in world.hitbox(m).states]
            if fl and not r.los:
                out.append({"rule": rule, "los": True, "why": f"{' and '.join(fl)} {'is' if len(fl) == 1 else 'are'} "
                            f"{s.flying_state} (LoS to and from all models)"})
        elif rule == "engaged":
            if not r.los and t in _engagers_of(world, v, s):
                out.append({"rule": rule, "los": True,
                            "why": f"{v} is engaged by {t} (automatic LoS to the models engaging it)"})
        elif rule == "dark" and r.los:
            dark = [m for m in (v, t) if "dark" in sight.sight_environments(world, m, s)]
            applies = {"either": bool(dark), "viewer": v in dark, "target": t in dark}[s.dark_applies]
            from engine.measure import distance, in_awareness      # a Flying model: on the surface, as printed
            if applies and not in_awareness(world, v, t):
                who = " and ".join(dark)
                out.append({"rule": rule, "los": False,
                            "why": f"{who} {'stands' if len(dark) == 1 else 'stand'} in a Dark area, and the "
                                   f"{inches(distance(world, v, t), 2)}\" between {v} and {t} is beyond {v}'s "
                                   f"Awareness of {world.hitbox(v).awareness:g}\" (the Dark: LoS only within Awareness)"})
    return out


def _engagers_of(world, viewer: str, s) -> list[str]:
    """The models engaging ``viewer``: those of its Engaged State, or, when the scene does not
    list the State, those that engage it where the table stands it (``engaged_on_table``)."""
    from engine import sight
    from engine.measure import engaged_on_table
    if s.engaged_state in world.hitbox(viewer).states:
        return sight.engagers(world, viewer, s)
    return engaged_on_table(world, viewer, s) or []


def engaged_on_table_words(viewer: str, by) -> str:
    """Why a model the scene does not list as Engaged is Engaged (``engaged_on_table``)."""
    return (f"{viewer} is Engaged where the scene stands it, in the melee reach and the LoS of "
            f"{', '.join(by)}, though the scene does not list the State")


def overruled_lines(world, r, over: list[dict] | None = None) -> list[str]:
    """The detail lines of ``overruled``: what else would have answered, and why it did not."""
    over = overruled(world, r) if over is None else over
    first = EXCEPTION_NAMES.get(decided_by(world, r), "")
    order = ", ".join(EXCEPTION_NAMES[x] for x in EXCEPTION_ORDER)
    return [f"  overruled: {o['why']}; {first} is checked first (the order: {order})" for o in over]


def dark_line(r, dark: dict) -> str:
    """The detail line of a Dark check that let the geometry decide."""
    from engine.measure import inches
    who = " and ".join(dark["in_dark"])
    stand = "stand" if len(dark["in_dark"]) > 1 else "stands"
    return (f"  dark: {who} {stand} in a Dark area; {r.target} is {inches(dark['distance'], 2)}\" away, within "
            f"{r.viewer}'s Awareness of {dark['awareness']:g}\", so the lines decide as anywhere else")


def changed_settings(s) -> list[str]:
    """The settings that differ from the shipped defaults (engine/data/sight.yaml), each as
    its key in a settings file and its value: ``--settings`` that stops models blocking or
    moves the cover distance changes the answer, and the summary line names neither."""
    from engine.sight_settings import _KEYS, default_settings
    d = default_settings()
    out = []
    for keys, name in _KEYS.items():
        v = getattr(s, name)
        if v != getattr(d, name):
            v = ("[" + ", ".join(map(str, v)) + "]" if isinstance(v, (tuple, list))
                 else str(v).lower() if isinstance(v, bool) else f"{v:g}" if isinstance(v, float) else str(v))
            out.append(f"{'.'.join(keys)} {v}")
    return out


def changed_words(s) -> str:
    """``changed_settings`` for the end of a settings line ("" when none is changed)."""
    ch = changed_settings(s)
    return f"; changed from the defaults: {', '.join(ch)}" if ch else ""


def verdict(r, world=None) -> str:
    """The one-line verdict (``world``: to name the Forest areas in the way as such)."""
    dist, hd = r.distance, r.height_difference
    height = "level" if abs(hd) < 0.05 else (f"{hd:.1f}\" higher" if hd > 0 else f"{-hd:.1f}\" lower")
    if r.los:
        cov = "no cover" if r.cover == "none" else f"{r.cover.capitalize()} cover" + (f" from {r.cover_piece}" if r.cover_piece else "")
        return (f"{r.viewer} -> {r.target}: LoS yes, {percent(r.visible_fraction)} visible, {cov}, "
                f"{inches(dist, 1)}\" away, {height}")
    why = r.reason
    if r.reason == "blocked" and r.blocking:
        why = "blocked by " + blocking_words(world, r)
    return f"{r.viewer} -> {r.target}: LoS no ({why}), {inches(dist, 1)}\" away, {height}"


def details(r, sha: str, flying: tuple[str, ...] = (), all_round: str | None = None, world=None,
            engaged_table=None) -> str:
    """The lines under the verdict. ``flying``: the Flying models among the two (measured on
    the surface under them); ``all_round``: what gives the viewer 360 degrees;
    ``engaged_table``: the models engaging the viewer where the table stands it, the scene
    not listing the State (``engaged_on_table``)."""
    s = r.settings
    dist, hd = r.distance, r.height_difference
    if all_round is None:
        all_round = "/".join(("moving",) + tuple(s.three_sixty_states))
    where = (f"{r.target} is {'at least partly in' if r.in_front_arc else 'wholly behind'} "
             f"{r.viewer}'s front half-space")
    given = r.los and decided_by(world, r) in ("flying", "engaged")   # a state gave the LoS: no arc applies
    if r.reason == "itself":
        arc, seen = "  front arc: -", f"  visible: all of it ({r.viewer} always sees itself)"
    else:
        arc = (f"  front arc: not needed, {r.viewer} sees all round ({all_round}); "
               f"{where}" if r.all_round else
               f"  front arc: not needed, the state gives LoS all round (see why); {where}" if given and
               not r.in_front_arc else f"  front arc: {'yes' if r.in_front_arc else 'no'} ({where})")
        seen = (f"  visible: {share_text(r.visible_fraction)} of {len(r.target_points)} sample points of "
                f"{r.target}'s hitbox ({r.visible_area_mm2:.0f} mm2){'' if r.fraction_exact else ' (at least; yes/no only)'}")
        if by_state(r):
            # no line was looked at: "0.0% of 1184 sample points" read as a measured share
            seen = f"  visible: none looked at ({len(r.target_points)} sample points of {r.target}'s hitbox; see why)"
        back = behind_arc(r)
        if back > 0 and not by_state(r) and r.in_front_arc:
            # a share nothing blocks: without this, "51% visible, blocking: nothing" reads as a fault
            seen += f"; {share_text(back)} lie behind {r.viewer}'s front arc line and count as unseen"
        under = underside_unseen(r)
        if under > 0 and not by_state(r):
            # no piece is named for it (cover's shares are of the side and top hidden by a
            # piece): without this, "57% visible" and "hides 34%" leave a share unexplained
            seen += f"; {share_text(under)} is the underside of its base, unseen from here"
    # a state's LoS (Flying, Engaged) looks at every line, all round, whatever the arcs
    blank = ("nothing" if r.all_round or r.in_front_arc or r.reason == "itself" or r.los
             else f"none looked for ({r.target} is behind {r.viewer}'s front arc)")
    if by_state(r):
        blank = "none looked for (no LoS whatever stands between; see why)"
    lines = [arc,
             f"  why: {r.reason}"
             + (f"; {engaged_on_table_words(r.viewer, engaged_table)}"
                if engaged_table and decided_by(world, r) == "engaged" else ""),
             seen,
             f"  blocking: {blocking_words(world, r, long=True) if r.blocking else blank}"
             + ((" (part of the hitbox only: a clear line remains)" if r.visible_fraction > 0
                 else " (all of it: the LoS comes from the state, not from a clear line)")
                if r.blocking and r.los else ""),
             f"  {cover_line(r)}",
             *([dark_line(r, dk)] if (dk := dark_check(world, r)) else []),
             *overruled_lines(world, r),
             f"  distance: {inches(dist, 2)}\" between the closest points of the hitboxes; "
             f"height difference {_zero(hd):+.2f}\" ({r.target}'s base minus {r.viewer}'s)"
             + (f"; {' and '.join(flying)} Flying: measured as if on the surface under it" if flying else "")]
    if r.witness:
        a, b = r.witness
        lines.append("  a clear line: ({:.2f}, {:.2f}, {:.2f}) -> ({:.2f}, {:.2f}, {:.2f})".format(*a, *b))
    if r.rays or not r.segments:
        lines.append(f"  rays cast: {r.rays} for {r.segments} viewer x target sample pairs")
    elif by_state(r):
        lines.append(f"  rays cast: none (the state decided; {r.segments} viewer x target sample pairs not looked at)")
    else:
        # "rays cast: 0" beside "100% visible" or "blocked by wall" reads as a fault: the
        # pairs were settled from bounding volumes (nothing near the lines, or one piece
        # hiding them all), not by a ray each
        lines.append(f"  rays cast: none: all {r.segments} viewer x target sample pairs were settled from the "
                     f"shapes of what lies between the hitboxes (or of nothing there), without a ray")
    lines.append(f"  settings: lattice {s.patch_mm:g} mm patches, front arc unless moving/"
                 f"{'/'.join(s.three_sixty_states)}, minimum visible area {s.min_visible_area_mm2:g} mm2, "
                 f"forest limit {s.forest_limit}, Dark applies to {s.dark_applies}" + changed_words(s))
    lines.append(f"  scene sha256: {sha}")
    return "\n".join(lines)


PICTURES = ("eye.png", "overview.png")      # what --picture writes (engine.view.pictures.los_pictures)
COVER_MARK = {"none": "Y", "light": "L", "heavy": "H"}


def los_table(world, ids, settings, moving: bool):
    """Every ordered pair's LoS (sight.los_matrix) and, for each pair with LoS, its cover as
    a single `eldfall los A B` gives it: ({(a, b): bool}, {(a, b): "none"|"light"|"heavy"})."""
    from engine import sight
    from engine.measure import engaged_on_table
    m = sight.los_matrix(world, ids, settings=settings, moving=ids if moving else ())
    # a model engaged where the table stands it, the scene not listing the State, sees its
    # engagers as `eldfall los A B` says (the matrix knows only the State's engagers)
    eng = {a: engaged_on_table(world, a, settings) for a in ids}
    cov = {}
    for a in ids:
        for b in ids:
            if a != b and (m[(a, b)] or b in (eng[a] or ())):
                r = sight.los(world, a, b, moving=moving, settings=settings, engaged_with=eng[a])
                m[(a, b)] = bool(r.los)
                if r.los:
                    cov[(a, b)] = r.cover
    return m, cov


def matrix_text(world, ids, m, cov) -> str:
    """The matrix for a screen: numbered columns (tens above units, at the top and the
    bottom), a gap every five columns, and how many enemies each row sees."""
    width = max((len(i) for i in ids), default=4)
    side = {i: world.hitbox(i).side for i in ids}

    def cells(f):
        return "".join((" " if k % 5 else "  ") * (k > 0) + f(k) for k in range(len(ids)))

    pad = " " * (7 + width)
    tens = pad + cells(lambda k: str(k // 10) if k >= 10 else " ")
    units = pad + cells(lambda k: str(k % 10))
    head = [tens] if len(ids) > 10 else []
    if not ids:
        return "LoS matrix: no models on the table"
    lines = [f"LoS matrix ({len(ids)} model{'' if len(ids) == 1 else 's'}): the row sees the column",
             "  Y yes, no cover   L yes, Light cover   H yes, Heavy cover   . no LoS   "
             "right: how many enemies the row sees", *head, units]
    for k, i in enumerate(ids):
        row = cells(lambda j: "-" if j == k else (COVER_MARK[cov[(i, ids[j])]] if m[(i, ids[j])] else "."))
        seen = sum(1 for j in ids if j != i and m[(i, j)] and side[j] != side[i])
        lines.append(f"  {k:>2} {i:<{width}}  {row}  {seen:>2}")
    lines += [units, *head]
    return "\n".join(lines)


def run(args) -> int:
    from engine import sight
    from engine.validate import output_folder
    if args.picture is not None and not args.all:
        # before any work: a bad folder (or a folder where a picture goes) writes nothing
        output_folder(args.picture, "--picture", files=PICTURES)
    world, settings = _load(args)
    sha = world.scene.sha256
    if args.all:
        if args.viewer or args.target:
            raise InputError(Problem("<command line>", None, "--all", "takes only the scene (no VIEWER or TARGET)"))
        if args.picture is not None:
            raise InputError(Problem("<command line>", None, "--picture",
                                     "pictures are of one VIEWER and TARGET, not of --all"))
        ids = world.model_ids()
        m, cov = los_table(world, ids, settings, args.moving)
        if args.json:
            print(json.dumps({"scene": world.scene.path, "sha256": sha, "parties": party_files(world.scene),
                              "settings": settings.as_dict(),
                              "moving": bool(args.moving), "models": ids, "los": {a: {b: m[(a, b)] for b in ids} for a in ids},
                              "cover": {a: {b: cov.get((a, b)) for b in ids} for a in ids}}, indent=2))
            return 0
        print(matrix_text(world, ids, m, cov))
        if changed_settings(settings):
            print(f"  settings: {changed_words(settings)[2:]}")
        print(f"  scene sha256: {sha}")
        return 0
    if not args.viewer or not args.target:
        raise InputError(Problem("<command line>", None, "", "give VIEWER and TARGET model ids, or --all"))
    _check_id(world, args.viewer, "VIEWER", args.scene)
    _check_id(world, args.target, "TARGET", args.scene)
    from engine.measure import engaged_on_table
    # Engaged where the scene stands it, as `eldfall move` and a game set up from it judge
    eng = engaged_on_table(world, args.viewer, settings)
    r = sight.los(world, args.viewer, args.target, moving=args.moving, fraction=True, settings=settings,
                  engaged_with=eng)
    flying = tuple(m for m in dict.fromkeys((r.viewer, r.target)) if settings.flying_state in world.hitbox(m).states)
    if args.json:
        out = r.as_dict()
        out.update({"scene": world.scene.path, "sha256": sha, "parties": party_files(world.scene),
                    "settings": settings.as_dict(),
                    "moving": bool(args.moving),
                    "height_difference": round(_zero(r.height_difference), 4), "verdict": verdict(r, world),
                    "dark": dark_check(world, r), "decided_by": decided_by(world, r),
                    "overruled": overruled(world, r),
                    # the models engaging the viewer where the table stands it (the scene not
                    # listing its Engaged State); null when it lists the State or the table is not Eldfall's
                    "engaged_on_table": eng})
    if args.picture:
        try:
            from engine.view.pictures import los_pictures
        except ImportError as exc:
            print(f"eldfall los: pictures are not available: {exc}", file=sys.stderr)
            return 1
        output_folder(args.picture, "--picture", create=True, files=PICTURES)
        # the caption's cover line: engine.view.pictures.los_detail (cover_line, as printed)
        paths = [str(p) for p in los_pictures(world, r, args.picture, names=PICTURES)]
        if args.json:
            out["pictures"] = paths
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        print(verdict(r, world))
        print(details(r, sha, flying, all_round_why(world, r, args.moving), world, engaged_table=eng))
        if args.picture:
            for p in paths:
                print(f"  picture: {p}")
    return 0
