"""``eldfall check SCENE``: validate a scene and print a summary.

Valid: exit 0 and a short summary (table, terrain by shape, models by side
with size, hitbox height and z, and the piece a model hangs on when a Climb
left it on a vertical surface, and a rider's mount with the stat changes
its dismount makes; the reserve creatures a Ritual may summon,
with their Tier; the tokens on the field with kind, owner, hidden or
revealed, and the surface z they lie on; each side's Stratagems with uses per
game or turn, target kind, range and effect, when the scene has them). Invalid: exit 2 and one line per problem,
``file:line: key.path: what is wrong``, never a traceback. Warnings (e.g. a
mesh that is not watertight) are printed in both cases and do not fail.
"""
from __future__ import annotations

import json
import sys
from collections import Counter

from engine.errors import InputError, Problem
from tools.loading import build_world


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("--models-dir", default=None,
                        help="where party#name profiles are looked up (default: the repository's models/)")
    parser.add_argument("--json", action="store_true", help="print the summary as JSON")


def check(path: str, models_dir: str | None = None):
    """Load, build and check a scene: ``(world, warnings)`` or ``InputError``."""
    from engine.validate import check_placement
    from tools.loading import load_scene_argument

    scene = load_scene_argument(path, models_dir)
    world = build_world(scene, placement=False)
    try:
        problems = check_placement(world)
    except Exception as exc:  # noqa: BLE001
        problems = [Problem(scene.path, None, "", f"cannot check placement: {type(exc).__name__}: {exc}")]
    if not problems:
        from tools.gameplay import start_problems
        problems = start_problems(scene, world)
    if problems:
        for w in scene.warnings:
            print(w, file=sys.stderr)
        raise InputError(problems)
    return world, all_warnings(scene)


def all_warnings(scene) -> list[Problem]:
    """The loader's warnings and :func:`play_warnings`, in the loader's order (another
    file's first, then by line)."""
    file = scene.path or "<scene>"
    return sorted(list(scene.warnings) + play_warnings(scene) + deployment_warnings(scene),
                  key=lambda pr: (pr.file == file, pr.file, pr.line or 0))


def deployment_warnings(scene) -> list[Problem]:
    """A model whose base centre is outside its side's deployment zone (the scene's
    ``deployment``): ``eldfall play`` starts the game with it where it stands and only says
    so in its "deployment: outside their zone" line, so the organiser hears it here first.
    A warning: a scene may hold a game in progress."""
    from engine.validate import WARNING
    if "eldfall" not in scene.games or not scene.deployment:
        return []
    eps = 1e-6              # as the game's own test (rules/eldfall/sequence.py)
    out = []
    for m in scene.models:
        zone = scene.deployment.get(m.side)
        if not zone:
            continue
        (x0, y0), (x1, y1) = zone
        x, y = float(m.at[0]), float(m.at[1])
        if min(x0, x1) - eps <= x <= max(x0, x1) + eps and min(y0, y1) - eps <= y <= max(y0, y1) + eps:
            continue
        where = (f"x {_fmt(min(x0, x1))}-{_fmt(max(x0, x1))} y {_fmt(min(y0, y1))}-{_fmt(max(y0, y1))}")
        out.append(Problem(scene.path or "<scene>", m.key_lines.get("at") or m.line or None,
                           f"models[{m.index}].at" if m.index >= 0 else "models",
                           WARNING + f"model '{m.id}' stands at ({_fmt(x)}, {_fmt(y)}), outside {m.side}'s "
                           f"deployment zone ({where}); eldfall play starts it there"))
    return out


def play_warnings(scene) -> list[Problem]:
    """What ``eldfall play`` would refuse in a scene that is otherwise valid: an
    Eldfall game is played by exactly two sides (rules/eldfall/sequence.py, reserve
    creatures' sides included), a Norova fight needs at least two
    (rules/norova/game.py). Only warnings: a scene with one side is still a table
    for ``los``, ``move`` or ``measure``. The game ``play`` picks by default is the
    scene's first; ``--game`` may pick another of its games."""
    from engine.validate import WARNING
    specs = list(scene.models) + list(getattr(scene, "reserves", ()))
    sides = list(dict.fromkeys(m.side for m in specs))
    n = len(sides)
    named = f"{n} side{'' if n == 1 else 's'}" + (f" ({', '.join(sides)})" if sides else "")
    lines = [m.line for m in specs if getattr(m, "line", 0)]
    line = min(lines) if lines else None
    out = []
    for game in scene.games:
        if game == "eldfall" and n != 2:
            why = f"the scene has {named}; an Eldfall game (eldfall play) needs exactly two"
        elif game == "norova" and n < 2:
            why = f"the scene has {named}; a Norova fight (eldfall play --game norova) needs at least two"
        else:
            continue
        out.append(Problem(scene.path or "<scene>", line, "models", WARNING + why))
    return out


def summary(world) -> dict:
    from engine.units import mm
    scene = world.scene
    shapes = Counter(t.shape for t in scene.terrain)
    areas = [t for t in scene.terrain if "area" in t.tags]
    out = {
        "scene": scene.path,
        "name": scene.name,
        "games": list(scene.games),
        "sha256": scene.sha256,
        "table": list(scene.table),
        "terrain": {
            "pieces": len(scene.terrain),
            "shapes": dict(shapes),
            "areas": {t.id: sorted(t.tags - {"area"}) for t in areas},
            "ladders": [t.id for t in scene.terrain if "ladder" in t.tags],
        },
        "deployment": {k: [list(a), list(b)] for k, (a, b) in scene.deployment.items()},
        "models": [],
        "reserves": [],
        "tokens": [],
        "warnings": [str(w) for w in all_warnings(scene)],
    }
    from engine.validate import hanging_models
    hanging = hanging_models(world)
    for mid in world.model_ids():
        hb = world.hitbox(mid)
        spec = hb.spec
        out["models"].append({
            "id": mid, "side": hb.side, "size": spec.size if spec else None,
            # the Size the rules play it at: a model with neither size nor profile has the
            # Size its base fits (tools.roster.size_of_base), never a Medium by default
            "rules_size": _rules_size(spec),
            "base_in": round(2 * float(hb.radius), 3), "height_in": round(float(hb.height), 3),
            "full_height_in": round(float(hb.full_height), 3),
            "x": round(float(hb.x), 3), "y": round(float(hb.y), 3), "z": round(float(hb.z), 3) + 0.0,
            "facing": round(float(hb.facing), 1), "states": sorted(hb.states),
            "profile": spec.profile.ref if spec and spec.profile else None,
            "leader": bool(spec.leader) if spec else False,
            # the solid piece whose vertical face it hangs on (a Climb ended there), or None
            "hanging_on": hanging.get(mid),
            # an Eldfall rider, and the stat changes its dismount makes
            "mounted": bool(getattr(spec, "mounted", False)) if spec else False,
            "dismounted": {str(k): int(v) for k, v in sorted((getattr(spec, "dismounted", None) or {}).items())}
            if spec else {},
        })
    for spec in getattr(scene, "reserves", ()):
        out["reserves"].append({
            "id": spec.id, "side": spec.side, "tier": int(spec.tier), "size": spec.size,
            "base_in": round(mm(spec.base_mm), 3), "height_in": round(mm(spec.height_mm), 3),
            "profile": spec.profile.ref if spec.profile else None,
        })
    out["tokens"] = token_rows(world)
    strat = stratagem_rows(scene)
    if strat:
        out["stratagems"] = strat
    return out


def _rules_size(spec) -> str | None:
    from tools.roster import size_of_base
    if spec is None:
        return None
    return spec.size or (spec.profile.size if spec.profile else None) or size_of_base(spec.base_mm)


def stratagem_rows(scene) -> dict[str, list[dict]]:
    """Each side's Stratagems (``Scene.extra["stratagems"]``, defaults filled
    in by the loader) as plain rows; {} when the scene has none."""
    from rules.eldfall.narrate import effect_words
    rows: dict[str, list[dict]] = {}
    for side, items in (scene.extra.get("stratagems") or {}).items():
        for s in items:
            rows.setdefault(side, []).append({
                "name": s["name"], "uses": int(s["uses"]), "per": s["per"], "target": s["target"],
                "range": None if s.get("range") is None else float(s["range"]),
                "awareness": bool(s.get("awareness")), "text": s.get("text", ""),
                "effect": s["effect"], "effect_text": effect_words(s["effect"])})
    return rows


def _uses(r: dict) -> str:
    return f'{r["uses"]} per {r["per"]}'


def _reach(r: dict) -> str:
    """Where a Stratagem's models may stand, measured from the Leader."""
    if r["target"] == "leader":
        return "the Leader"
    parts = []
    if r["range"] is not None:
        parts.append(f'within {_fmt(r["range"])}"')
    if r["awareness"]:
        parts.append("in Awareness")
    return " and ".join(parts) or "any range"


def token_rows(world) -> list[dict]:
    """The scene's tokens as plain rows; a token given without z lies on the
    highest surface under its centre (one batched ray query for all)."""
    import numpy as np
    from engine.units import mm
    toks = list(getattr(world.scene, "tokens", ()))
    if not toks:
        return []
    need = [i for i, t in enumerate(toks) if t.at[2] is None]
    zs = {}
    if need:
        h = world.surface_height(np.array([toks[i].at[:2] for i in need], dtype=float))
        zs = {i: (float(z) if np.isfinite(z) else 0.0) for i, z in zip(need, h)}
    rows = []
    for i, t in enumerate(toks):
        z = float(t.at[2]) if t.at[2] is not None else zs[i]
        row = {"id": t.id, "kind": t.kind, "side": t.side, "hidden": bool(t.hidden),
               "x": round(float(t.at[0]), 3), "y": round(float(t.at[1]), 3), "z": round(z, 3) + 0.0,
               "diameter_in": round(mm(t.base_mm), 3)}
        if t.kind == "item":
            row["item"] = t.item
        else:
            row["spell"], row["caster"] = t.spell, t.caster
        rows.append(row)
    return rows


def _fmt(v: float) -> str:
    return f"{v:g}"


def render(info: dict) -> str:
    lines = []
    title = f' "{info["name"]}"' if info["name"] else ""
    lines.append(f'{info["scene"]}: valid{title} ({", ".join(info["games"])})')
    w, d = info["table"]
    lines.append(f"table: {_fmt(w)} x {_fmt(d)} in")
    t = info["terrain"]
    shapes = ", ".join(f"{n} {s}" for s, n in sorted(t["shapes"].items(), key=lambda kv: (-kv[1], kv[0])))
    lines.append(f'terrain: {t["pieces"]} piece{"" if t["pieces"] == 1 else "s"}' + (f": {shapes}" if shapes else ""))
    if t["areas"]:
        lines.append("  areas: " + ", ".join(f"{k} ({', '.join(v) or 'no environment'})" for k, v in t["areas"].items()))
    if t["ladders"]:
        lines.append("  ladders: " + ", ".join(t["ladders"]))
    sides: dict[str, list[dict]] = {}
    for m in info["models"]:
        sides.setdefault(m["side"], []).append(m)
    lines.append(f'models: {len(info["models"])}' + (
        " (" + ", ".join(f"{s} {len(ms)}" for s, ms in sides.items()) + ")" if sides else ""))
    width = max((len(m["id"]) for m in info["models"]), default=0)
    for side, ms in sides.items():
        dep = info["deployment"].get(side)
        zone = f", deploys x {_fmt(dep[0][0])}-{_fmt(dep[1][0])} y {_fmt(dep[0][1])}-{_fmt(dep[1][1])}" if dep else ""
        lines.append(f"  {side}{zone}:")
        for m in ms:
            size = m["size"] or "-"
            extra = []
            if m.get("hanging_on"):
                extra.append(f"on a vertical surface of {m['hanging_on']}: any action but Nothing makes it fall")
            if m["states"]:
                extra.append(",".join(m["states"]))
            if abs(m["height_in"] - m["full_height_in"]) > 1e-9:
                extra.append(f'{m["full_height_in"]:.2f}" standing')
            if m.get("mounted"):
                changes = ", ".join(f"{k} {v:+d}" for k, v in (m.get("dismounted") or {}).items())
                extra.append("mounted" + (f": {changes} when dismounted" if changes else ""))
            if m["profile"]:
                extra.append(m["profile"])
            if not m["size"] and m.get("rules_size"):
                extra.append(f"no size given: the rules play it as Size {m['rules_size']}, "
                             f"from its {round(m['base_in'] * 25.4, 1):g} mm base")
            if m["leader"]:
                extra.append("Leader")
            lines.append(f'    {m["id"]:<{width}}  {size:<1}  base {m["base_in"]:.2f}"  height {m["height_in"]:.2f}"  '
                          f'z {m["z"]:.2f}' + (f"  ({'; '.join(extra)})" if extra else ""))
    reserves = info.get("reserves") or []
    if reserves:
        by_side: dict[str, list[dict]] = {}
        for r in reserves:
            by_side.setdefault(r["side"], []).append(r)
        lines.append(f"reserves: {len(reserves)} off the table until a Ritual summons them ("
                     + ", ".join(f"{s} {len(rs)}" for s, rs in by_side.items()) + ")")
        rw = max(len(r["id"]) for r in reserves)
        sw = max(len(r["side"]) for r in reserves)
        for r in reserves:
            lines.append(f'    {r["id"]:<{rw}}  {r["side"]:<{sw}}  Tier {r["tier"]}  {r["size"] or "-":<1}  '
                         f'base {r["base_in"]:.2f}"  height {r["height_in"]:.2f}"'
                         + (f'  ({r["profile"]})' if r["profile"] else ""))
    tokens = info.get("tokens") or []
    if tokens:
        hidden = sum(1 for t in tokens if t["hidden"])
        lines.append(f"tokens: {len(tokens)} ({hidden} hidden, {len(tokens) - hidden} revealed)")
        tw = max(len(t["id"]) for t in tokens)
        sw = max(len(t["side"]) for t in tokens)
        for t in tokens:
            what = (f'item "{t["item"]}"' if t["kind"] == "item"
                    else f'spell "{t["spell"]}" of {t["caster"]}')
            lines.append(f'    {t["id"]:<{tw}}  {t["kind"]:<5}  {t["side"]:<{sw}}  '
                         f'{"hidden" if t["hidden"] else "revealed":<8}  {what}  '
                         f'at ({t["x"]:g}, {t["y"]:g}, {t["z"]:.2f})  {t["diameter_in"]:.2f}" disc')
    strat = info.get("stratagems") or {}
    if strat:
        lines.append(f"stratagems: {sum(len(v) for v in strat.values())} ("
                     + ", ".join(f"{s} {len(v)}" for s, v in strat.items()) + ")")
        leaders = {m["side"]: m["id"] for m in info["models"] if m["leader"]}
        rows = [r for v in strat.values() for r in v]
        nw = max(len(r["name"]) for r in rows)
        uw = max(len(_uses(r)) for r in rows)
        tw = max(len(r["target"]) for r in rows)
        rw = max(len(_reach(r)) for r in rows)
        for side, items in strat.items():
            lead = leaders.get(side)
            lines.append(f"  {side} (" + (f"Leader {lead}" if lead else "no Leader: unusable") + "):")
            for r in items:
                lines.append(f'    {r["name"]:<{nw}}  {_uses(r):<{uw}}  '
                             f'{r["target"]:<{tw}}  {_reach(r):<{rw}}  {r["effect_text"]}')
    for wline in info["warnings"]:
        lines.append(wline)
    return "\n".join(lines)


def run(args) -> int:
    world, _ = check(args.scene, args.models_dir)
    info = summary(world)
    if args.json:
        print(json.dumps(info, indent=2))
    else:
        print(render(info))
    return 0
