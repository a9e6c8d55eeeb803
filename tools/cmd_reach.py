"""``eldfall reach SCENE MODEL --mode walk|run``: the reachable area of a model.

Every end position the model can reach with the declared movement, on every
surface level, on a grid (default 0.25"). Prints the cells per level, the
area and the dearest cell; ``--picture DIR`` writes ``reach-top.png`` (a plain
top-down map drawn here: terrain grey by height, reachable cells from green,
cheap, to yellow, at the allowance, under a caption with that legend) and the 3D view's ``reach.png``.

    eldfall reach scenes/skirmish.yaml red-champion --mode run --picture out/
"""
from __future__ import annotations

import json
import math
import os
import struct
import sys
import zlib

import numpy as np

from engine.errors import InputError, Problem
from tools.cmd_move import (check_model, check_on_table, engaged_from_table, engaged_line, negative_points, point,
                            positive, speed_line)
from tools.loading import counted, eldfall_rules_note, load_world


def add_arguments(parser) -> None:
    parser.add_argument("scene", help="the scene file (YAML)")
    parser.add_argument("model", help="the model's id")
    negative_points(parser)
    parser.add_argument("--mode", required=True, choices=("walk", "run"), help="the movement declared")
    parser.add_argument("--resolution", metavar="INCHES", help="grid cell (default 0.25)")
    parser.add_argument("--speed", metavar="SPD", help="effective SPD to use instead of the model's (states applied)")
    parser.add_argument("--path-to", metavar="X,Y[,Z]", help="also give the shortest route to this point")
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument("--picture", metavar="DIR", help="write reach-top.png (and the view's reach.png) into DIR")
    parser.add_argument("--models-dir", default=None, help="where party#name profiles are looked up")


def write_png(path: str, rgb: np.ndarray) -> str:
    """A minimal PNG writer: (h, w, 3) uint8 -> file."""
    rgb = np.ascontiguousarray(rgb, dtype=np.uint8)
    h, w, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[y].tobytes() for y in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open(path, "wb") as fh:
        fh.write(png)
    return path


def top_down(world, grid, scale: int = 4) -> np.ndarray:
    """(h, w, 3) uint8 top view: terrain by height, reachable cells by cost, models as discs."""
    ny, nx = grid.shape
    r = grid.resolution
    zz = np.where(np.isfinite(grid._static.z), grid._static.z, -1.0)
    top = zz.max(axis=0).reshape(ny, nx)          # -1: no place for this base
    hmax = max(1.0, float(np.max(top)))
    grey = np.where(top < 0, 40, 150 + 90 * np.clip(top / hmax, 0, 1)).astype(np.uint8)
    img = np.repeat(grey[..., None], 3, axis=2).astype(float)
    cost = np.where(grid.end_ok, grid.cost, np.inf).min(axis=0)
    ok = np.isfinite(cost)
    f = np.clip(cost / max(grid.allowance, 1e-9), 0, 1)
    col = np.stack([60 + 195 * f, 200 + 40 * f, 60 - 40 * f], axis=-1)
    img[ok] = 0.35 * img[ok] + 0.65 * col[ok]
    img = np.repeat(np.repeat(img, scale, axis=0), scale, axis=1)
    H, W = img.shape[:2]
    yy, xx = np.mgrid[0:H, 0:W]
    px = (xx + 0.5) / scale * r
    py = (yy + 0.5) / scale * r
    for mid in world.model_ids():
        hb = world.hitbox(mid)
        d = np.hypot(px - hb.x, py - hb.y)
        ring = (d <= hb.radius) & (d >= hb.radius - 1.5 * r / scale * 2)
        side_colour = {"red": (220, 40, 40), "blue": (40, 80, 230)}.get(hb.side, (235, 150, 30))
        colour = (255, 255, 255) if mid == grid.model else side_colour
        img[ring] = colour
        if mid == grid.model:
            img[d <= 0.15] = colour
    return np.flipud(img.astype(np.uint8))          # y up: north at the top


def _captioned(top: np.ndarray, s: dict) -> np.ndarray:
    """The top view with its caption: what was asked and the colour legend (without
    Panda3D's font, the plain map)."""
    try:
        from engine.view.pictures import caption_rgb
    except ImportError:
        return top
    why = f"; cannot move: {s['reason']}" if s.get("reason") else ""
    return caption_rgb(top, f"{s['model']} {s['mode']}: allowance {s['allowance']:g}\", {counted(s['cells'], 'end cell')} of "
                            f"{s['resolution']:g}\" ({s['area_sq_in']:.1f} sq in), dearest {s['max_cost']:.2f}\"{why}\n"
                            f"cells: green 0\" to yellow {s['allowance']:g}\" (the allowance); white ring: {s['model']}; "
                            "other rings: the models in their side's colour; grey: terrain, lighter is higher; "
                            "darkest: no room for the base; north (+y) up")


def exact_route(world, model, mode, far, target, speed):
    """Where the grid has no route to ``target`` within the allowance (the grid is cautious: a
    model or a piece near its cell's centre leaves no room there, a gap a little wider than
    the base is closed to it, though the exact check passes): the cheapest route the exact
    path check accepts straight to the target, or by the grid's route to one of the reached
    cells within 1" of it and then straight on. (cost, waypoints) or None."""
    from engine.motion import check_path
    pts = far.points(max_cost=math.inf)
    d = np.hypot(pts[:, 0] - target[0], pts[:, 1] - target[1]) if len(pts) else np.zeros(0)
    best = None
    tries = [[]] + [int(k) for k in np.argsort(d, kind="stable")[:8] if d[k] <= 1.0]
    for n in tries:
        # straight there (a gap the grid's widened clearance misses), or by a reached cell
        route = [None] if n == [] else far.shortest_path(tuple(float(v) for v in pts[n]))
        if not route:
            continue
        via = [tuple(float(v) for v in q) for q in route[1:]]
        try:
            r = check_path(world, model, via + [tuple(target)], mode, speed=speed)
        except Exception:  # noqa: BLE001 - a route the check cannot take is no route
            continue
        if not r.legal or r.stopped_by or math.hypot(r.end[0] - target[0], r.end[1] - target[1]) > 1e-3:
            continue
        if len(target) > 2 and abs(r.end[2] - target[2]) > 0.3:
            continue
        if best is None or r.distance < best[0]:
            best = (float(r.distance), [tuple(r.path[0])] + via + [tuple(r.end)])
    return best


def route_line(grid, summary, path, target, beyond=None, exact=None) -> str:
    """The shortest route to ``target`` in words: its cost and the grid cell it ends in (the
    route runs between cell centres, so it ends at the centre of the cell holding the point).
    With no route: ``beyond`` is what the shortest one costs with no allowance (out of reach),
    None when no route of any length gets there (or it was not asked); ``exact`` the
    (cost, waypoints) of a route the exact path check accepts where the grid has none."""
    at = ", ".join(f"{v:g}" for v in target)
    if not path:
        m, a = summary["mode"], summary["allowance"]
        if exact is not None and not summary.get("reason"):
            cost, pts = exact
            words = " -> ".join(f"({p[0]:.2f}, {p[1]:.2f}, {round(p[2], 2) + 0.0:.2f})" for p in pts)
            r = f"{summary['resolution']:g}\""
            if cost <= a + 1e-9:
                return (f"  shortest route to ({at}): the {r} grid finds none within the {a:g}\" {m} "
                        f"(it keeps a margin off scenery and models), but `eldfall move` finds one of "
                        f"{cost:.2f}\": {words}")
            if beyond is not None:
                return (f"  shortest route to ({at}): none: no {m} of {a:g}\" reaches it: out of reach (the "
                        f"shortest {m} there is {cost:.2f}\", as `eldfall move` checks it: {words}; the {r} "
                        f"grid, which keeps a margin off scenery and models, finds {beyond:.2f}\")")
            return (f"  shortest route to ({at}): none: no {m} of {a:g}\" reaches it: out of reach (the "
                    f"{r} grid finds no route of any length, but `eldfall move` finds one of {cost:.2f}\": "
                    f"{words})")
        if summary.get("reason"):
            why = f"the model cannot {m}"
        elif beyond is not None:
            why = f"out of reach (the shortest {m} there is {beyond:.2f}\")"
        else:
            why = (f"none of any length gets there (scenery or a model in the way, a rise or drop taller than the "
                   f"hitbox, or no room for the base there): a Climb or a Jump may "
                   f"(`eldfall move --mode climb` or `--mode jump`)")
        return f"  shortest route to ({at}): none: no {m} of {a:g}\" reaches it: {why}"
    end = path[-1]
    cost = grid.cost_at(*target)
    where = f"{cost:.2f}\"" if math.isfinite(cost) else "?"
    can_end = "" if grid.contains(*target) else "; it may pass there but not end there"
    # the cell's node is its centre, or (an Engaged model's walk, a base with no room at the
    # centre) the place in the cell the route really ends at
    r = float(summary["resolution"])
    cx, cy = (math.floor(target[0] / r) + 0.5) * r, (math.floor(target[1] / r) + 0.5) * r
    if math.hypot(end[0] - cx, end[1] - cy) <= 1e-6:
        to = f"to the centre of its {r:g}\" cell ({end[0]:.2f}, {end[1]:.2f}, {round(end[2], 2) + 0.0:.2f})"
    else:
        to = (f"to ({end[0]:.2f}, {end[1]:.2f}, {round(end[2], 2) + 0.0:.2f}) in its {r:g}\" cell (not its centre "
              f"({cx:.2f}, {cy:.2f}))")
    return (f"  shortest route to ({at}): {where}, {to}{can_end}: "
            + " -> ".join(f"({p[0]:.2f}, {p[1]:.2f}, {round(p[2], 2) + 0.0:.2f})" for p in path))


def describe(grid, summary, path=None, target=None, beyond=None, exact=None) -> str:
    s = summary
    lines = [f"{s['model']} {s['mode']}: allowance {s['allowance']:g}\", {counted(s['cells'], 'end cell')} of "
             f"{s['resolution']:g}\" ({s['area_sq_in']:.1f} sq in), dearest {s['max_cost']:.2f}\""]
    if s.get("reason"):
        lines.append(f"  cannot move: {s['reason']}")
    def zr(lv):
        return f"z {lv['z']:.2f}" if lv["z_max"] - lv["z"] < 0.01 else f"z {lv['z']:.2f}-{lv['z_max']:.2f}"
    lines.append("  surfaces: " + ("; ".join(f"{lv['surface']} ({zr(lv)}): {counted(lv['cells'], 'cell')}"
                                            for lv in s["levels"]) or "none"))
    lines.append(f"  {s['total_ms']:.0f} ms (grid layers {s['static_ms']:.0f} ms, built once per table and base; "
                 f"query {s['query_ms']:.0f} ms)")
    if path is not None:
        if target is not None:
            lines.append(route_line(grid, summary, path, target, beyond, exact))
        elif path:
            lines.append("  shortest route: " + " -> ".join(f"({p[0]:.2f}, {p[1]:.2f}, {round(p[2], 2) + 0.0:.2f})" for p in path))
        else:
            lines.append("  shortest route: not reachable")
    return "\n".join(lines)


def real_allowance(world, model: str, mode: str, speed: float | None) -> float:
    """The movement's allowance from the model's SPD (states applied), as ``eldfall move``
    reports it: the reachable grid of a refused movement holds 0."""
    from engine import motion
    st = motion.settings(None)
    return float(motion.allowance_for(mode, motion.effective_spd(world.hitbox(model), st, speed, world.scene.path), st))


def grid_cells_fit(world, res: float | None) -> None:
    """The grid's cells at ``res`` (default: the movement settings' resolution) stay within
    what the engine builds (engine.motion._MAX_CELLS): else a problem of --resolution, with
    the least resolution that fits (the engine's own refusal names no argument)."""
    from engine import motion
    r = float(res) if res is not None else float(motion.settings(None)["resolution"])
    W, D = world.table
    n = int(math.ceil(W / r - 1e-9)) * int(math.ceil(D / r - 1e-9))
    if n > motion._MAX_CELLS:
        least = math.ceil(math.sqrt(W * D / motion._MAX_CELLS) * 100) / 100
        while int(math.ceil(W / least - 1e-9)) * int(math.ceil(D / least - 1e-9)) > motion._MAX_CELLS:
            least += 0.01
        given = f"{r:g}\"" + ("" if res is not None else " (the default)")
        raise InputError(Problem("<command line>", None, "--resolution",
                                 f"{given} makes {n} cells on the {W:g}\" x {D:g}\" table, more than "
                                 f"{motion._MAX_CELLS}: give --resolution {least:.2f} or more"))


def run(args) -> int:
    from engine.motion import reachable
    res = positive(args.resolution, "--resolution") if args.resolution is not None else None
    if res is not None and res < 0.05:
        raise InputError(Problem("<command line>", None, "--resolution", f"at least 0.05\", got {args.resolution}"))
    speed = positive(args.speed, "--speed") if args.speed is not None else None
    # `is not None`: an empty --path-to is a bad point, not "no route asked for"
    target = point(args.path_to, "--path-to") if args.path_to is not None else None
    if args.picture is not None:
        from engine.validate import output_folder
        output_folder(args.picture, "--picture", files=("reach-top.png", "reach.png"))  # before any work: a bad folder writes nothing
    world = load_world(args.scene, args.models_dir)
    check_model(world, args.model)
    if res is not None and res > min(world.table):
        # a cell wider than the table has no cell centre on it (and past the
        # largest coordinate the grid cannot be laid out at all)
        raise InputError(Problem("<command line>", None, "--resolution",
                                 f"at most the table's shorter side ({min(world.table):g}\"), got {args.resolution}"))
    grid_cells_fit(world, res)
    if target is not None:
        check_on_table(world, target, "--path-to")
    engaged_by = engaged_from_table(world, args.model)
    grid = reachable(world, args.model, args.mode, resolution=res, speed=speed)
    summary = grid.summary(world.pieces)
    if summary.get("reason"):
        # a refused movement: the grid holds no allowance (0); say the model's own, as
        # ``eldfall move`` does, with why it cannot use it
        summary["allowance"] = real_allowance(world, args.model, args.mode, speed)
    route = grid.shortest_path(target) if target is not None else None
    beyond = exact = None
    if target is not None and not route and not summary.get("reason"):
        # no route within the allowance: is the point out of reach, or cut off for this
        # movement whatever its length? (the same grid, no limit: one more query)
        W, D = world.table
        far = reachable(world, args.model, args.mode, resolution=res, speed=4.0 * (W + D))
        if far.shortest_path(target) and math.isfinite(far.cost_at(*target)):
            beyond = float(far.cost_at(*target))
        # "out of reach" or "none of any length" from the grid alone may be its caution: ask
        # the exact check, and say what it finds where that is cheaper
        exact = exact_route(world, args.model, args.mode, far, target, 4.0 * (W + D))
        if exact is not None and beyond is not None and exact[0] > summary["allowance"] + 1e-9 \
                and exact[0] >= beyond - 0.2:
            exact = None        # out of reach either way, for about the grid's figure
    pictures = []
    if args.picture:
        pictures.append(write_png(os.path.join(args.picture, "reach-top.png"),
                                  _captioned(top_down(world, grid), summary)))
        try:
            from engine.view.pictures import reach_picture
            pictures.append(reach_picture(world, grid, args.picture))
        except Exception as exc:  # noqa: BLE001 - the plain picture is written anyway
            print(f"eldfall reach: no 3D picture ({type(exc).__name__}: {exc})", file=sys.stderr)
    note = eldfall_rules_note(world, "reach")
    if args.json:
        out = dict(summary)
        if engaged_by:
            out["engaged_by"] = engaged_by
        if note:
            out["note"] = note.strip().removeprefix("note: ")
        if route is not None:
            out["shortest_path"] = [[round(v, 4) for v in p] for p in route]
            cost = grid.cost_at(*target) if route else math.inf
            out["shortest_path_cost"] = round(cost, 4) if math.isfinite(cost) else None
            if not route:
                # what the shortest route costs with no allowance (null: none of any length)
                out["shortest_path_cost_unlimited"] = round(beyond, 4) if beyond is not None else None
                if exact is not None:
                    # the grid found none (or a dearer one); the exact path check did (its cost
                    # and waypoints)
                    out["shortest_path_cost_unlimited"] = round(min(exact[0], beyond if beyond is not None
                                                                    else math.inf), 4)
                    out["exact_path"] = [[round(v, 4) for v in p] for p in exact[1]]
                    out["exact_path_cost"] = round(exact[0], 4)
                    out["exact_path_within_allowance"] = bool(exact[0] <= summary["allowance"] + 1e-9)
        if pictures:
            out["pictures"] = pictures
        print(json.dumps(out, indent=2))
    else:
        print(describe(grid, summary, route, target, beyond, exact))
        spd = speed_line(world, args.model, args.mode, speed)
        if spd:
            print(spd)
        if engaged_by:
            print(engaged_line(engaged_by))
        if note:
            print(note)
        for p in pictures:
            print(f"  picture: {p}")
    return 0
