"""What the view draws on top of the table: LoS rays, visibility tints,
reachable areas, paths, opportunity points, templates, front arcs, measures.

Each function returns a NodePath (unlit, drawn over the table) built from an
engine result; nothing here decides anything -- the verdicts come from the
engine (``engine.sight``, ``engine.templates``, ``engine.motion``). Where a
result does not carry the rays it tested, ``los_rays`` re-casts a small,
evenly spread subset against the same world so the picture shows real rays.
"""
from __future__ import annotations

import math

import numpy as np
from panda3d.core import (Geom, GeomNode, GeomPoints, NodePath,
                          TransparencyAttrib)

from engine.view.meshes import (_vertex_data, disc_mesh, geom_node,
                                lines_node, polygon_mesh, text_node)

GREEN = (0.15, 0.95, 0.25, 1.0)
RED = (1.0, 0.18, 0.12, 1.0)
AMBER = (1.0, 0.72, 0.1, 1.0)
WHITE = (1, 1, 1, 1)
CYAN = (0.2, 0.9, 1.0, 1.0)
GREY = (0.62, 0.62, 0.66, 1.0)


def _overlay(np_: NodePath, bin_sort: int = 20, depth: bool = True) -> NodePath:
    from engine.view.app import SHADOW_MASK
    np_.hide(SHADOW_MASK)             # overlays cast no shadows
    np_.setLightOff(1)
    np_.setShaderOff(1)
    np_.setTransparency(TransparencyAttrib.MAlpha)
    np_.setBin("fixed", bin_sort)
    np_.setDepthWrite(False)
    if not depth:
        np_.setDepthTest(False)
    return np_


def floating(label: NodePath, anchor, weight: float = 2.0, size: float = 1.0) -> NodePath:
    """Let the table's label layout place ``label`` (a text_node) with the models'
    labels: one size on screen, just above ``anchor`` (points, (k, 3): what it names)
    or beside it, off the models and the other labels, with a leader line when moved
    (``TableScene.layout_labels``). Until laid out it stays where it was put."""
    from engine.view.meshes import FLOAT_TAG
    label.setTag(FLOAT_TAG, "1")
    label.setPythonTag(FLOAT_TAG, (np.asarray(anchor, float).reshape(-1, 3), weight, size))
    return label


def _ring_points(centre, radius: float, n: int = 12) -> np.ndarray:
    c = np.asarray(centre, float)
    a = np.linspace(0.0, 2.0 * math.pi, n, endpoint=False)
    return np.stack([c[0] + radius * np.cos(a), c[1] + radius * np.sin(a), np.full(n, c[2])], 1)


def points_node(name: str, points, colors, size: float = 4.0) -> NodePath:
    pts = np.asarray(points, dtype=np.float32).reshape(-1, 3)
    vdata = _vertex_data(name, pts, None, colors)
    prim = GeomPoints(Geom.UHStatic)
    prim.addConsecutiveVertices(0, len(pts))
    geom = Geom(vdata)
    geom.addPrimitive(prim)
    node = GeomNode(name)
    node.addGeom(geom)
    np_ = NodePath(node)
    np_.setRenderModeThickness(size)
    return _overlay(np_)


# ------------------------------------------------------------------ LoS
def visibility_colour(fraction: float | None, los: bool) -> tuple:
    """Target tint: red when not visible, amber through to green as more shows."""
    if not los:
        return RED
    f = float(np.clip(fraction if fraction is not None else 1.0, 0.0, 1.0))
    # amber (barely) -> green (fully)
    a, g = np.array(AMBER[:3]), np.array(GREEN[:3])
    c = a + (g - a) * min(1.0, f / 0.8)
    return (float(c[0]), float(c[1]), float(c[2]), 1.0)


def _get(obj, *names, default=None):
    for n in names:
        if obj is not None and hasattr(obj, n):
            v = getattr(obj, n)
            if v is not None:
                return v
        if isinstance(obj, dict) and n in obj and obj[n] is not None:
            return obj[n]
    return default


def hitbox_lattice(hb, n_ring: int = 16, n_up: int = 6) -> np.ndarray:
    """A coarse drawing lattice on a hitbox's side and top (display only)."""
    a = np.linspace(0, 2 * math.pi, n_ring, endpoint=False)
    r = float(hb.radius) * 0.999
    zs = float(hb.z) + np.linspace(0.02, 0.98, n_up) * float(hb.height)
    side = np.stack([np.repeat(float(hb.x) + r * np.cos(a)[None], len(zs), 0).ravel(),
                     np.repeat(float(hb.y) + r * np.sin(a)[None], len(zs), 0).ravel(),
                     np.repeat(zs[:, None], len(a), 1).ravel()], 1)
    top = np.stack([float(hb.x) + 0.5 * r * np.cos(a[::2]), float(hb.y) + 0.5 * r * np.sin(a[::2]),
                    np.full(len(a[::2]), float(hb.z) + float(hb.height) * 0.999)], 1)
    return np.vstack([side, top, [[float(hb.x), float(hb.y), float(hb.z) + float(hb.height) * 0.999]]])


def _front_half(hb, pts: np.ndarray) -> np.ndarray:
    f = math.radians(float(hb.facing))
    d = (pts[:, 0] - float(hb.x)) * math.cos(f) + (pts[:, 1] - float(hb.y)) * math.sin(f)
    return d >= -1e-9


def los_rays(world, result, limit: int = 60):
    """Segments to draw for a LoS verdict: ((n,2,3) segments, (n,) clear).

    Uses the rays the engine tested when the result carries them
    (``engine.sight.LosResult.picture_segments`` / ``picture_clear``); otherwise casts one batch from the viewer's
    front half to an even spread of target points, against the same terrain
    and hitboxes (viewer and target excluded), one ray per target point:
    green where some viewer point sees it, red where none does.
    """
    seg = _get(result, "picture_segments")
    if isinstance(seg, np.ndarray) and seg.size:
        seg = np.asarray(seg, float).reshape(-1, 2, 3)
        clear = _get(result, "picture_clear")
        clear = np.asarray(clear, bool) if clear is not None else np.ones(len(seg), bool)
        if len(seg) > limit:
            pick = np.linspace(0, len(seg) - 1, limit).astype(int)
            seg, clear = seg[pick], clear[pick]
        return seg, clear
    viewer = _get(result, "viewer")
    target = _get(result, "target")
    hv, ht = world.hitbox(viewer), world.hitbox(target)
    vp = _get(result, "viewer_points")
    tp = _get(result, "target_points")
    vp = np.asarray(vp, float).reshape(-1, 3) if vp is not None else hitbox_lattice(hv, 12, 4)
    tp = np.asarray(tp, float).reshape(-1, 3) if tp is not None else hitbox_lattice(ht, 16, 6)
    three_sixty = bool(_get(result, "three_sixty", "arc_360", default=False))
    if not three_sixty:
        front = _front_half(hv, vp)
        if front.any():
            vp = vp[front]
    if len(tp) > limit:
        tp = tp[np.linspace(0, len(tp) - 1, limit).astype(int)]
    if len(vp) > 40:
        vp = vp[np.linspace(0, len(vp) - 1, 40).astype(int)]
    # every viewer point to every target point, in one batch
    o = np.repeat(vp[None], len(tp), 0).reshape(-1, 3)
    e = np.repeat(tp[:, None], len(vp), 1).reshape(-1, 3)
    blocked = np.asarray(world.rays.occluded(o, e), bool)
    try:
        by_model = np.asarray(world.models_blocking(o, e, exclude=(viewer, target))) >= 0
        blocked = blocked | by_model
    except Exception:
        pass
    if not three_sixty:
        blocked = blocked | ~_front_half(hv, e)
    ok = ~blocked.reshape(len(tp), len(vp))
    seen = ok.any(axis=1)
    if not _get(result, "los", default=True):
        seen[:] = False               # the engine's verdict (e.g. Blinded, arcs) wins
    # draw each target point's ray: from a clear viewer point when seen, else
    # from the viewer point nearest the straight line between the centres
    centre_v = np.array([hv.x, hv.y, hv.z + hv.height / 2.0])
    nearest = int(np.argmin(np.linalg.norm(vp - centre_v, axis=1)))
    src = np.where(seen, ok.argmax(axis=1), nearest)
    seg = np.stack([vp[src], tp], axis=1)
    return seg, seen


def target_point_colours(result) -> np.ndarray | None:
    """(n, 4) colours of a LoS result's target sample points: green seen, red hidden, grey
    behind the viewer's front arc line (unseen because of the arc, not of what stands
    between); None without per-point data."""
    tp = _get(result, "target_points")
    tv = _get(result, "target_visible")
    if not (isinstance(tp, np.ndarray) and isinstance(tv, np.ndarray) and len(tp) == len(tv) and len(tp)):
        return None
    col = np.where(np.asarray(tv, bool)[:, None], np.array(GREEN), np.array(RED))
    allowed = _get(result, "target_allowed")
    if isinstance(allowed, np.ndarray) and len(allowed) == len(tp) and not _get(result, "all_round"):
        col[~np.asarray(allowed, bool)] = GREY
    return col


def los_overlay(world, result, *, limit: int = 60, points: bool = True, max_points: int = 1500,
                point_size: float = 3.0) -> NodePath:
    """Rays green when clear / red when blocked, the witness ray bold white,
    target points coloured by whether they are seen (every one up to ``max_points``,
    then evenly thinned to about that many; ``point_size`` pixels)."""
    root = NodePath("los-overlay")
    seg, clear = los_rays(world, result, limit)
    if len(seg):
        colours = np.where(clear[:, None], np.array(GREEN), np.array((*RED[:3], 0.75)))
        lines_node("los-rays", seg, colours, 2.0).reparentTo(root)
    if points:
        tp = _get(result, "target_points")
        col = target_point_colours(result)
        if col is not None:
            step = max(1, len(tp) // max(1, int(max_points)))         # evenly thinned beyond max_points
            points_node("los-target-points", tp[::step], col[::step], point_size).reparentTo(root)
        elif len(seg):
            points_node("los-target-points", seg[:, 1], np.where(clear[:, None], np.array(GREEN), np.array(RED)), 5.0).reparentTo(root)
    witness = _get(result, "witness", "witness_segment")
    if witness is not None:
        w = np.asarray(witness, float).reshape(1, 2, 3)
        lines_node("los-witness", w, (1, 1, 1, 1), 4.0).reparentTo(root)
    _overlay(root, 25)
    return root


# ------------------------------------------------------------------ arcs
def front_arc_overlay(hb, radius: float | None = None, colour=(1, 1, 0.6, 0.22)) -> NodePath:
    """The front half-plane of a model: a half disc on its base level."""
    r = radius if radius is not None else max(3.0, float(hb.radius) * 6.0)
    f = math.radians(float(hb.facing))
    v, faces = disc_mesh(r, 48, f - math.pi / 2.0, math.pi, 0.0)
    v = v + np.array([float(hb.x), float(hb.y), float(hb.z) + 0.03])
    np_ = NodePath(geom_node("front-arc", v, faces, np.tile([0, 0, 1.0], (len(v), 1)), colour))
    np_.setTwoSided(True)
    edge = np.array([[[hb.x - r * math.sin(f) * -1, hb.y - r * math.cos(f), hb.z + 0.04],
                      [hb.x + r * math.sin(f) * -1, hb.y + r * math.cos(f), hb.z + 0.04]]], float)
    edge_np = lines_node("front-line", edge, (1, 1, 0.6, 0.9), 2.0)
    edge_np.reparentTo(np_)
    return _overlay(np_, 15)


# ------------------------------------------------------------------ templates
def template_overlay(result, colour=(1.0, 0.55, 0.1, 0.30), legal: bool | None = None) -> NodePath:
    """Template outlines filled on their surface (red when the placement is illegal)."""
    root = NodePath("template-overlay")
    legal = bool(_get(result, "legal", default=True)) if legal is None else legal
    fill = colour if legal else (0.9, 0.1, 0.1, 0.3)
    edge = (1.0, 0.7, 0.2, 1.0) if legal else (1.0, 0.2, 0.2, 1.0)
    outlines = _get(result, "outlines", default=())
    placements = _get(result, "placements", default=())
    for i, poly in enumerate(outlines):
        pts = np.asarray(poly, float).reshape(-1, 2)
        if len(pts) < 3:
            continue
        z = float(getattr(placements[i], "surface", 0.0)) if i < len(placements) else 0.0
        v, f = polygon_mesh(pts, z + 0.05)
        if len(f):
            n = root.attachNewNode(geom_node(f"template-{i}", v, f, np.tile([0, 0, 1.0], (len(v), 1)), fill))
            n.setTwoSided(True)
        ring = np.vstack([pts, pts[:1]])
        seg = np.stack([np.hstack([ring[:-1], np.full((len(ring) - 1, 1), z + 0.06)]),
                        np.hstack([ring[1:], np.full((len(ring) - 1, 1), z + 0.06)])], 1)
        lines_node(f"template-edge-{i}", seg, edge, 3.0).reparentTo(root)
    origin = _get(result, "origin")
    if origin is not None and outlines:
        o = np.asarray(origin, float)
        points_node("template-origin", o[None], (1, 1, 1, 1), 8.0).reparentTo(root)
    return _overlay(root, 18)


def coverage_colour(hit) -> tuple:
    """Tint of a model under a template: red when affected, paler when only partly."""
    if hit is None:
        return None
    frac = float(_get(hit, "covered_fraction", default=1.0))
    return (1.0, 0.35 + 0.35 * (1 - frac), 0.1, 1.0)


# ------------------------------------------------------------------ movement
def path_overlay(points, legal: bool, *, opportunity=(), awareness=(), end=None,
                 label: str | None = None, facing: float | None = None) -> NodePath:
    """A path: green when legal, red when not; opportunity points as red
    crosses, awareness entries as amber dots, the end as a ring (with a
    pointer toward ``facing``, degrees CCW from +x, when one is chosen)."""
    root = NodePath("path-overlay")
    p = np.asarray(points, float).reshape(-1, 3)
    if len(p) >= 2:
        seg = np.stack([p[:-1], p[1:]], 1) + np.array([0, 0, 0.08])
        lines_node("path", seg, GREEN if legal else RED, 4.0).reparentTo(root)
        points_node("waypoints", p + np.array([0, 0, 0.08]), (1, 1, 1, 1), 7.0).reparentTo(root)
    for i, q in enumerate(opportunity):
        q = np.asarray(q, float)
        s = 0.35
        cross = np.array([[q + [-s, -s, 0.1], q + [s, s, 0.1]], [q + [-s, s, 0.1], q + [s, -s, 0.1]]])
        lines_node(f"opportunity-{i}", cross, RED, 4.0).reparentTo(root)
    if len(awareness):
        points_node("awareness", np.asarray(awareness, float).reshape(-1, 3) + [0, 0, 0.1], AMBER, 9.0).reparentTo(root)
    if end is not None:
        e = np.asarray(end, float)
        a = np.linspace(0, 2 * math.pi, 33)
        ring = np.stack([e[0] + 0.5 * np.cos(a), e[1] + 0.5 * np.sin(a), np.full_like(a, e[2] + 0.08)], 1)
        lines_node("end", np.stack([ring[:-1], ring[1:]], 1), GREEN if legal else RED, 3.0).reparentTo(root)
        if facing is not None:
            f = math.radians(float(facing))
            tip = e + np.array([1.4 * math.cos(f), 1.4 * math.sin(f), 0.08])
            lines_node("facing", np.array([[e + [0, 0, 0.08], tip]]), GREEN if legal else RED, 4.0).reparentTo(root)
    if label and len(p):
        t = text_node("path-label", label, 0.5, fg=GREEN if legal else RED, card=(0, 0, 0, 0.7))
        t.reparentTo(root)
        q = p[-1] if end is None else np.asarray(end, float)
        t.setPos(float(q[0]), float(q[1]), float(q[2]) + 2.6)
        floating(t, _ring_points(q, 0.5), 2.0)          # laid out off the models, by the end ring
    return _overlay(root, 22)


def watcher_overlay(world, mover: str, watchers) -> NodePath:
    """Enemies that gain LoS along a path: an amber line from each to the
    first point of the path where it sees the mover."""
    root = NodePath("watchers-overlay")
    mh = world.hitbox(mover)
    segs = []
    for w in watchers:
        if not getattr(w, "had_los", False) or w.first is None:
            continue
        oh = world.hitbox(w.observer)
        a = np.array([oh.x, oh.y, oh.z + oh.height * 0.9])
        b = np.asarray(w.first, float) + [0, 0, mh.height * 0.5]
        segs.append([a, b])          # the names go on the path's label
    if segs:
        lines_node("watch-lines", np.asarray(segs), (*AMBER[:3], 0.85), 2.0).reparentTo(root)
        points_node("watch-first", np.asarray(segs)[:, 1], AMBER, 8.0).reparentTo(root)
    return _overlay(root, 23)


def reach_overlay(points, cost=None, allowance: float | None = None, cell: float = 0.25) -> NodePath:
    """Reachable cells as small squares on their surfaces, shaded by cost."""
    p = np.asarray(points, float).reshape(-1, 3)
    root = NodePath("reach-overlay")
    if not len(p):
        return root
    c = np.zeros(len(p)) if cost is None else np.asarray(cost, float).reshape(-1)
    top = float(allowance) if allowance else (float(c.max()) if len(c) and c.max() > 0 else 1.0)
    t = np.clip(c / max(top, 1e-9), 0, 1)[:, None]
    near, far = np.array([0.2, 0.95, 0.9]), np.array([0.2, 0.35, 1.0])
    rgb = near * (1 - t) + far * t
    cols = np.hstack([rgb, np.full((len(p), 1), 0.42)])
    h = cell * 0.46
    corners = np.array([[-h, -h, 0], [h, -h, 0], [h, h, 0], [-h, h, 0]])
    v = (p[:, None, :] + corners[None] + np.array([0, 0, 0.04])).reshape(-1, 3)
    base = np.arange(len(p))[:, None] * 4
    f = np.vstack([np.hstack([base, base + 1, base + 2]), np.hstack([base, base + 2, base + 3])])
    vc = np.repeat(cols, 4, axis=0)
    n = root.attachNewNode(geom_node("reach", v, f, np.tile([0, 0, 1.0], (len(v), 1)), vc))
    n.setTwoSided(True)
    return _overlay(root, 12)


# ------------------------------------------------------------------ measuring
def measure_overlay(a, b, text: str) -> NodePath:
    a, b = np.asarray(a, float), np.asarray(b, float)
    root = NodePath("measure-overlay")
    lines_node("measure", np.stack([a, b])[None], CYAN, 3.0).reparentTo(root)
    corner = np.array([b[0], b[1], a[2]])
    lines_node("measure-drop", np.stack([np.stack([a, corner]), np.stack([corner, b])]), (0.2, 0.9, 1.0, 0.5), 1.0).reparentTo(root)
    points_node("measure-ends", np.stack([a, b]), CYAN, 8.0).reparentTo(root)
    t = text_node("measure-label", text, 0.5, fg=CYAN, card=(0, 0, 0, 0.75))
    t.reparentTo(root)
    m = (a + b) / 2
    t.setPos(float(m[0]), float(m[1]), float(m[2]) + 0.8)
    floating(t, m[None], 2.0)
    return _overlay(root, 30, depth=False)


def aim_points_overlay(points, colour=(1.0, 0.35, 0.2, 0.95)) -> NodePath:
    """The points of a mover's path a reaction may aim at: a ring and a
    letter at each (click one to aim there)."""
    root = NodePath("aim-overlay")
    a = np.linspace(0, 2 * math.pi, 25)
    for i, q in enumerate(points):
        q = np.asarray(q, float)
        ring = np.stack([q[0] + 0.45 * np.cos(a), q[1] + 0.45 * np.sin(a), np.full_like(a, q[2] + 0.1)], 1)
        lines_node(f"aim-{i}", np.stack([ring[:-1], ring[1:]], 1), colour, 3.0).reparentTo(root)
        floating(label_at(f"aim {chr(65 + i % 26)}", (q[0], q[1], q[2] + 0.9), colour, 0.4),
                 _ring_points(q + [0, 0, 0.1], 0.45), 1.5, 0.8).reparentTo(root)
    return _overlay(root, 23)


def push_overlay(origin, tip, legal: bool, *, end=None, label: str | None = None,
                 radius: float = 0.5) -> NodePath:
    """A Knockback direction: an arrow from ``origin`` (the pushed model) toward
    ``tip``, green when the rules take the direction, red when not; ``end``: where
    the push would leave the model (a ring of its base ``radius``)."""
    root = NodePath("push-overlay")
    colour = GREEN if legal else RED
    o, t = np.asarray(origin, float)[:3], np.asarray(tip, float)[:3]
    t = np.array([t[0], t[1], o[2]])
    d = t[:2] - o[:2]
    L = float(np.hypot(*d))
    if L > 1e-9:
        u = d / L
        lift = np.array([0, 0, 0.12])
        head = min(0.6, 0.4 * L)
        back = t[:2] - u * head
        side = np.array([-u[1], u[0]]) * head * 0.55
        wing1 = np.array([back[0] + side[0], back[1] + side[1], o[2]])
        wing2 = np.array([back[0] - side[0], back[1] - side[1], o[2]])
        seg = np.array([[o, t], [t, wing1], [t, wing2]]) + lift
        lines_node("push-arrow", seg, colour, 4.0).reparentTo(root)
    if end is not None:
        e = np.asarray(end, float)
        a = np.linspace(0, 2 * math.pi, 33)
        ring = np.stack([e[0] + radius * np.cos(a), e[1] + radius * np.sin(a), np.full_like(a, e[2] + 0.1)], 1)
        lines_node("push-end", np.stack([ring[:-1], ring[1:]], 1), (*colour[:3], 0.8), 2.5).reparentTo(root)
    if label:
        t_node = label_at(label, (t[0], t[1], t[2] + 0.9), colour, 0.45)
        floating(t_node, t[None], 2.0, 0.9).reparentTo(root)
    return _overlay(root, 24, depth=False)


def label_at(text: str, point, colour=WHITE, scale: float = 0.5) -> NodePath:
    t = text_node("label", text, scale, fg=colour, card=(0, 0, 0, 0.7))
    t.setPos(*map(float, point))
    return t


def range_ring_overlay(hb, reach: float, label: str, colour=(1.0, 0.85, 0.35, 0.9)) -> NodePath:
    """A ring on the ground at ``reach`` inches from the edge of a model's base
    (radius base + reach around its centre): a model whose base crosses it is
    within ``reach`` of it on flat ground (the rules measure closest hitbox
    points in 3D: the ring guides the eye, the rules decide)."""
    r = float(hb.radius) + float(reach)
    n = 96
    a = np.linspace(0.0, 2.0 * math.pi, n + 1)
    z = float(hb.z) + 0.05
    pts = np.stack([float(hb.x) + r * np.cos(a), float(hb.y) + r * np.sin(a), np.full(n + 1, z)], axis=1)
    root = NodePath("range-ring")
    lines_node("range-ring-line", np.stack([pts[:-1], pts[1:]], axis=1), colour, 2.5).reparentTo(root)
    floating(label_at(label, (float(hb.x), float(hb.y) + r, z + 0.6), colour, 0.45),
             [(float(hb.x), float(hb.y) + r, z)], 1.5, 0.9).reparentTo(root)
    return _overlay(root, 16)
