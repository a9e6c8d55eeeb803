"""numpy -> Panda3D geometry, and the table drawn from the engine's own meshes.

``geom_node`` packs vertices/normals/colours straight from numpy arrays into
a GeomVertexData (one memory copy, no Python loop per vertex). The table
scene is built from ``world.terrain`` (the merged mesh the rays are cast
against, coloured per piece through ``world.tri_piece``) and from the hitbox
cylinders, so what is drawn is exactly what the engine tests.
"""
from __future__ import annotations

import colorsys
import hashlib
import math

import numpy as np
from panda3d.core import (BillboardEffect, Geom, GeomLines, GeomNode,
                          GeomTriangles, GeomVertexArrayFormat, GeomVertexData,
                          GeomVertexFormat, InternalName, NodePath, TextNode,
                          TransparencyAttrib)

from engine.measure import FLYING_STATE as FLYING

# ---------------------------------------------------------------- colours
#: each side its own colour, in the order sides first appear in the scene
SIDE_PALETTE = (
    (0.86, 0.22, 0.18, 1.0),   # red
    (0.20, 0.45, 0.92, 1.0),   # blue
    (0.95, 0.75, 0.15, 1.0),   # yellow
    (0.30, 0.75, 0.35, 1.0),   # green
    (0.70, 0.35, 0.85, 1.0),   # purple
    (0.15, 0.80, 0.80, 1.0),   # cyan
)
NAMED_SIDES = {"red": 0, "blue": 1, "yellow": 2, "green": 3, "purple": 4, "cyan": 5}
TABLE_COLOUR = (0.40, 0.47, 0.36, 1.0)
AREA_COLOURS = {
    "forest": (0.18, 0.45, 0.16, 0.35), "dark": (0.08, 0.06, 0.16, 0.45),
    "difficult": (0.55, 0.42, 0.22, 0.35), "mountainous": (0.5, 0.45, 0.4, 0.35),
    "shallow-water": (0.25, 0.5, 0.8, 0.35), "deep-water": (0.1, 0.25, 0.6, 0.45),
    "dangerous": (0.85, 0.3, 0.1, 0.35), "hazy": (0.8, 0.8, 0.85, 0.3),
}


def side_colours(sides) -> dict[str, tuple[float, float, float, float]]:
    """A distinct colour for each side: named sides keep their name's colour."""
    out: dict[str, tuple] = {}
    used = set()
    for s in sides:
        idx = NAMED_SIDES.get(str(s).lower())
        if idx is not None and idx not in used:
            out[s] = SIDE_PALETTE[idx]
            used.add(idx)
    free = [i for i in range(len(SIDE_PALETTE)) if i not in used]
    for s in sides:
        if s not in out:
            if free:
                out[s] = SIDE_PALETTE[free.pop(0)]
            else:
                h = int(hashlib.md5(str(s).encode()).hexdigest()[:6], 16) / 0xFFFFFF
                out[s] = (*colorsys.hsv_to_rgb(h, 0.7, 0.9), 1.0)
    return out


def piece_colour(piece_id: str, tags=()) -> tuple[float, float, float, float]:
    """Stone-like greys/browns, stable per piece id, so pieces are told apart."""
    h = int(hashlib.md5(str(piece_id).encode()).hexdigest()[:8], 16)
    base = (0.62, 0.58, 0.52)
    if "ladder" in tags:
        base = (0.55, 0.38, 0.2)
    elif "climbable" in tags:
        base = (0.58, 0.52, 0.45)
    jitter = ((h & 0xFF) / 255.0 - 0.5) * 0.14
    tint = (((h >> 8) & 0xFF) / 255.0 - 0.5) * 0.06
    return (min(1, max(0, base[0] + jitter + tint)), min(1, max(0, base[1] + jitter)),
            min(1, max(0, base[2] + jitter - tint)), 1.0)


# ---------------------------------------------------------------- geometry
_FORMATS: dict[tuple[bool, bool], GeomVertexFormat] = {}


def _format(normals: bool, colors: bool) -> GeomVertexFormat:
    key = (normals, colors)
    if key not in _FORMATS:
        arr = GeomVertexArrayFormat()
        arr.addColumn(InternalName.getVertex(), 3, Geom.NTFloat32, Geom.CPoint)
        if normals:
            arr.addColumn(InternalName.getNormal(), 3, Geom.NTFloat32, Geom.CNormal)
        if colors:
            arr.addColumn(InternalName.getColor(), 4, Geom.NTFloat32, Geom.CColor)
        _FORMATS[key] = GeomVertexFormat.registerFormat(GeomVertexFormat(arr))
    return _FORMATS[key]


def _vertex_data(name: str, vertices, normals=None, colors=None) -> GeomVertexData:
    v = np.ascontiguousarray(vertices, dtype=np.float32).reshape(-1, 3)
    cols = [v]
    if normals is not None:
        cols.append(np.ascontiguousarray(normals, dtype=np.float32).reshape(-1, 3))
    if colors is not None:
        c = np.asarray(colors, dtype=np.float32)
        if c.ndim == 1:
            c = np.broadcast_to(c, (len(v), c.shape[0]))
        if c.shape[1] == 3:
            c = np.hstack([c, np.ones((len(c), 1), np.float32)])
        cols.append(np.ascontiguousarray(c, dtype=np.float32))
    packed = np.ascontiguousarray(np.hstack(cols), dtype=np.float32)
    fmt = _format(normals is not None, colors is not None)
    vdata = GeomVertexData(name, fmt, Geom.UHStatic)
    vdata.uncleanSetNumRows(len(v))
    view = memoryview(vdata.modifyArray(0)).cast("B")
    view[:] = packed.tobytes()
    return vdata


def geom_node(name: str, vertices, faces, normals=None, colors=None) -> GeomNode:
    """A GeomNode of triangles from numpy: vertices (n,3), faces (m,3) int,
    optional normals (n,3) and colours (n,4)/(n,3)/(4,)."""
    faces = np.ascontiguousarray(faces, dtype=np.uint32).reshape(-1)
    vdata = _vertex_data(name, vertices, normals, colors)
    prim = GeomTriangles(Geom.UHStatic)
    prim.setIndexType(Geom.NTUint32)
    idx = prim.modifyVertices()
    idx.uncleanSetNumRows(len(faces))
    memoryview(idx).cast("B")[:] = faces.tobytes()
    geom = Geom(vdata)
    geom.addPrimitive(prim)
    node = GeomNode(name)
    node.addGeom(geom)
    return node


def flat_mesh_node(name: str, vertices, faces, face_colors=None, color=None) -> GeomNode:
    """Triangles with flat shading: every triangle gets its own three vertices
    and its face normal (crisp edges on walls and boxes)."""
    vertices = np.asarray(vertices, dtype=np.float64)
    faces = np.asarray(faces, dtype=np.int64).reshape(-1, 3)
    tri = vertices[faces]                                     # (m,3,3)
    n = np.cross(tri[:, 1] - tri[:, 0], tri[:, 2] - tri[:, 0])
    ln = np.linalg.norm(n, axis=1, keepdims=True)
    n = np.divide(n, ln, out=np.zeros_like(n), where=ln > 0)
    verts = tri.reshape(-1, 3)
    normals = np.repeat(n, 3, axis=0)
    if face_colors is not None:
        colors = np.repeat(np.asarray(face_colors, dtype=np.float32), 3, axis=0)
    else:
        colors = np.asarray(color if color is not None else (0.7, 0.7, 0.7, 1.0), np.float32)
    return geom_node(name, verts, np.arange(len(verts)).reshape(-1, 3), normals, colors)


def lines_node(name: str, segments, colors=None, thickness: float = 1.0) -> NodePath:
    """Line segments (n,2,3) with colours (n,4) or one colour, unlit."""
    seg = np.asarray(segments, dtype=np.float32).reshape(-1, 2, 3)
    verts = seg.reshape(-1, 3)
    if colors is None:
        colors = (1, 1, 1, 1)
    c = np.asarray(colors, dtype=np.float32)
    if c.ndim == 2:
        c = np.repeat(c, 2, axis=0)
    vdata = _vertex_data(name, verts, None, c)
    prim = GeomLines(Geom.UHStatic)
    prim.setIndexType(Geom.NTUint32)
    idx = prim.modifyVertices()
    idx.uncleanSetNumRows(len(verts))
    memoryview(idx).cast("B")[:] = np.arange(len(verts), dtype=np.uint32).tobytes()
    geom = Geom(vdata)
    geom.addPrimitive(prim)
    node = GeomNode(name)
    node.addGeom(geom)
    np_ = NodePath(node)
    np_.setRenderModeThickness(thickness)
    np_.setLightOff(1)
    np_.setShaderOff(1)
    if c.ndim == 2 and c.shape[-1] == 4 and float(c[:, 3].min()) < 1.0 or (c.ndim == 1 and c[-1] < 1.0):
        np_.setTransparency(TransparencyAttrib.MAlpha)
    return np_


def cylinder_mesh(radius: float, height: float, segments: int = 32,
                  z0: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A closed vertical cylinder centred on the z axis, bottom at ``z0``."""
    a = np.linspace(0.0, 2 * math.pi, segments, endpoint=False)
    ring = np.stack([radius * np.cos(a), radius * np.sin(a)], axis=1)
    bottom = np.hstack([ring, np.full((segments, 1), z0)])
    top = np.hstack([ring, np.full((segments, 1), z0 + height)])
    verts = np.vstack([bottom, top, [[0, 0, z0]], [[0, 0, z0 + height]]])
    i = np.arange(segments)
    j = (i + 1) % segments
    side = np.concatenate([np.stack([i, j, j + segments], 1), np.stack([i, j + segments, i + segments], 1)])
    cb, ct = 2 * segments, 2 * segments + 1
    bot = np.stack([np.full(segments, cb), j, i], 1)
    tp = np.stack([np.full(segments, ct), i + segments, j + segments], 1)
    return verts, np.vstack([side, bot, tp])


def disc_mesh(radius: float, segments: int = 48, start: float = 0.0,
              sweep: float = 2 * math.pi, z: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A flat fan (full disc or sector) facing +z."""
    a = start + np.linspace(0.0, sweep, segments + 1)
    ring = np.stack([radius * np.cos(a), radius * np.sin(a), np.full_like(a, z)], 1)
    verts = np.vstack([[[0, 0, z]], ring])
    i = np.arange(1, segments + 1)
    return verts, np.stack([np.zeros(segments, int), i, i + 1], 1)


def polygon_mesh(points, z: float) -> tuple[np.ndarray, np.ndarray]:
    """A flat polygon (n,2) at height z, triangulated (ear clipping via shapely)."""
    from shapely.geometry import Polygon
    from shapely.ops import triangulate
    poly = Polygon(points)
    if not poly.is_valid:
        poly = poly.buffer(0)
    verts, faces = [], []
    for tri in triangulate(poly):
        if not poly.buffer(1e-6).contains(tri.representative_point()):
            continue
        c = np.asarray(tri.exterior.coords)[:3]
        area = (c[1, 0] - c[0, 0]) * (c[2, 1] - c[0, 1]) - (c[2, 0] - c[0, 0]) * (c[1, 1] - c[0, 1])
        if area < 0:
            c = c[::-1]
        base = len(verts)
        verts.extend([[p[0], p[1], z] for p in c])
        faces.append([base, base + 1, base + 2])
    return np.asarray(verts, float).reshape(-1, 3), np.asarray(faces, int).reshape(-1, 3)


def text_node(name: str, text: str, scale: float, fg=(1, 1, 1, 1),
              card=(0, 0, 0, 0.6), billboard: bool = True) -> NodePath:
    tn = TextNode(name)
    tn.setText(text)
    tn.setAlign(TextNode.ACenter)
    tn.setTextColor(*fg)
    if card is not None:
        tn.setCardColor(*card)
        tn.setCardAsMargin(0.25, 0.25, 0.12, 0.12)
        tn.setCardDecal(True)
    np_ = NodePath(tn)
    np_.setScale(scale)
    np_.setLightOff(1)
    np_.setShaderOff(1)
    np_.setTransparency(TransparencyAttrib.MAlpha)
    if billboard:
        np_.setEffect(BillboardEffect.makePointEye())
    np_.setBin("fixed", 50)
    np_.setDepthTest(False)
    np_.setDepthWrite(False)
    return np_


def grid_segments(width: float, depth: float, step: float = 1.0, z: float = 0.01):
    xs = np.arange(0.0, width + 1e-9, step)
    ys = np.arange(0.0, depth + 1e-9, step)
    vx = np.stack([np.stack([xs, np.zeros_like(xs), np.full_like(xs, z)], 1),
                   np.stack([xs, np.full_like(xs, depth), np.full_like(xs, z)], 1)], 1)
    vy = np.stack([np.stack([np.zeros_like(ys), ys, np.full_like(ys, z)], 1),
                   np.stack([np.full_like(ys, width), ys, np.full_like(ys, z)], 1)], 1)
    return np.concatenate([vx, vy]), np.concatenate([xs, ys])


def grid_node(width: float, depth: float, z: float = 0.01) -> NodePath:
    """A grid of inches on the table: thin lines every inch, bold every 6"."""
    root = NodePath("grid")
    seg, pos = grid_segments(width, depth, 1.0, z)
    major = np.isclose(np.mod(pos, 6.0), 0.0)
    minor_np = lines_node("grid-1in", seg[~major], (1, 1, 1, 0.16), 1.0)
    major_np = lines_node("grid-6in", seg[major], (1, 1, 1, 0.42), 2.0)
    for n in (minor_np, major_np):
        n.reparentTo(root)
        n.setDepthOffset(2)
    for i in range(0, int(width) + 1, 6):
        if i == 0:
            continue
        t = text_node(f"gx{i}", f'{i}"', 0.55, fg=(1, 1, 1, 0.85), card=None, billboard=False)
        t.reparentTo(root)
        t.setPos(i, -0.7, z)
        t.setP(-90)
    for j in range(0, int(depth) + 1, 6):
        if j == 0:
            continue
        t = text_node(f"gy{j}", f'{j}"', 0.55, fg=(1, 1, 1, 0.85), card=None, billboard=False)
        t.reparentTo(root)
        t.setPos(-0.9, j - 0.2, z)
        t.setP(-90)
    return root


# ---------------------------------------------------------------- a Flying model's drop
#: a Flying model lower than this over its surface gets no drop line (it sits on it)
DROP_MIN = 0.05
#: the shadow disc under a Flying model: dark, see-through; its rim in the side's colour
DROP_SHADOW = (0.0, 0.0, 0.0, 0.5)
DROP_LIFT = 0.02            # over the surface, clear of the table's grid (0.012)
DROP_BIN = 30


def drop_node(name: str, xy, ground: float, z: float, radius: float, colour) -> NodePath:
    """Where a Flying model is over the table and how high: a shadow disc of its
    base on the surface under it (``ground``: the engine's, ``measuring_z``), a rim
    in its side's colour, and a line from the disc up to its base with a tick
    every inch, in its side's colour lightened (it reads on the table and on
    scenery)."""
    root = NodePath(name)
    root.setPos(float(xy[0]), float(xy[1]), float(ground))
    h = float(z) - float(ground)
    up = np.array([[0.0, 0.0, 1.0]])
    v, f = disc_mesh(radius, 48, z=DROP_LIFT)
    disc = root.attachNewNode(geom_node(f"{name}-shadow", v, f, np.tile(up, (len(v), 1)), DROP_SHADOW))
    disc.setName("shadow")
    disc.setTransparency(TransparencyAttrib.MAlpha)
    disc.setDepthWrite(False)
    a = np.linspace(0.0, 2 * math.pi, 49)
    ri, ro = 0.8 * radius, radius
    rim_v = np.vstack([np.stack([ri * np.cos(a), ri * np.sin(a), np.full_like(a, DROP_LIFT + 0.004)], 1),
                       np.stack([ro * np.cos(a), ro * np.sin(a), np.full_like(a, DROP_LIFT + 0.004)], 1)])
    i = np.arange(48)
    rim_f = np.vstack([np.stack([i, i + 50, i + 1], 1), np.stack([i, i + 49, i + 50], 1)])
    rim = root.attachNewNode(geom_node(f"{name}-rim", rim_v, rim_f, np.tile(up, (len(rim_v), 1)),
                                       (*colour[:3], 1.0)))
    rim.setName("rim")
    for n in (disc, rim):
        n.setLightOff(1)
        n.setShaderOff(1)
        n.setTwoSided(True)
        n.setDepthOffset(2)
    if h >= DROP_MIN:
        light = tuple(float(0.45 * c + 0.55) for c in colour[:3]) + (1.0,)
        seg = [[[0, 0, DROP_LIFT], [0, 0, h]]]
        tick = 0.35 * radius
        seg += [[[-tick, 0, k], [tick, 0, k]] for k in np.arange(1.0, h, 1.0)]
        seg += [[[0, -tick, k], [0, tick, k]] for k in np.arange(1.0, h, 1.0)]
        line = lines_node(f"{name}-line", np.asarray(seg, float), light, 3.0)
        line.setName("line")
        line.reparentTo(root)
    # drawn after the overlays (bins 15-20: a LoS picture's rays run right over the
    # drop, seen from behind the viewer), still hidden by the scenery in front
    root.setBin("fixed", DROP_BIN)
    root.setDepthWrite(False)
    return root


# ---------------------------------------------------------------- the table
def _attr(obj, *names, default=None):
    for n in names:
        if hasattr(obj, n):
            v = getattr(obj, n)
            return v() if callable(v) and n in ("mesh",) else v
    return default


#: the tag of an overlay's text that ``TableScene.layout_labels`` places with the
#: models' labels (engine.view.overlays.floating): its Python tag holds
#: (anchor points (k, 3), weight, size)
FLOAT_TAG = "float-label"


class TableScene:
    """Everything drawn for one ``World``: terrain, grid, area overlays,
    model hitboxes (a Flying one with its drop line and shadow disc down to
    the surface under it: ``drop_node``) and tokens. ``sync()`` moves the
    models to the world's state (models that enter mid-game, e.g. summoned, appear; removed ones
    go); ``tokens.set(...)`` redraws the tokens (engine.view.tokens)."""

    def __init__(self, world, parent: NodePath, *, grid: bool = True, labels: bool = True):
        self.world = world
        self.root = parent.attachNewNode("table")
        self.labels = labels
        width, depth = (float(x) for x in world.table)
        self.width, self.depth = width, depth
        ids = list(world.model_ids())
        sides = []
        # the models on the table, then the reserve creatures a Ritual may
        # bring in and the tokens' owners: every side keeps one colour all game
        scene = getattr(world, "scene", None)
        more = [r.side for r in getattr(scene, "reserves", ()) or ()]
        more += [t.side for t in getattr(scene, "tokens", ()) or ()]
        for s in [world.hitbox(mid).side for mid in ids] + more:
            if s not in sides:
                sides.append(s)
        self.side_colour = side_colours(sides)
        self.terrain = self._terrain()
        self.terrain.reparentTo(self.root)
        self.area_labels: dict[str, tuple[NodePath, np.ndarray]] = {}
        self.areas = self._areas()
        self.areas.reparentTo(self.root)
        self.grid = grid_node(width, depth, self._table_top() + 0.012)
        self.grid.reparentTo(self.root)
        from engine.view.app import SHADOW_MASK
        self.grid.hide(SHADOW_MASK)
        self.areas.hide(SHADOW_MASK)
        if not grid:
            self.grid.hide()
        self.models_root = self.root.attachNewNode("models")
        self.labels_root = self.root.attachNewNode("labels")
        self.labels_root.hide(SHADOW_MASK)
        if not labels:
            self.labels_root.hide()
        from engine.view.tokens import TokenLayer
        # the tokens on the field: the scene's until a game says otherwise
        # (PlayController feeds ``game.tokens`` after every event)
        self.tokens = TokenLayer(self, self.root, self.labels_root)
        self.tokens.set(getattr(scene, "tokens", ()) or ())
        self.label_nodes: dict[str, NodePath] = {}
        self.models: dict[str, NodePath] = {}
        self._model_key: dict[str, tuple] = {}
        self.tints: dict[str, tuple] = {}
        self.highlights: dict[str, tuple] = {}
        self.marks: dict[str, tuple] = {}
        self.mark_collars: dict[str, float] = {}     # each band's collar (``mark``)
        self.drops: dict[str, NodePath] = {}         # a Flying model's drop line and shadow
        self._drop_key: dict[str, tuple] = {}
        self.ground: dict[str, float] = {}           # the surface under a Flying model
        # a game's words for a model out of the fight (``label_text``): Legends of
        # Norova's "dying", "stable", "dead", "down"; None: the World's States say
        # it (Eldfall: Dead, Incapacitated)
        self.status_of = None
        self._version = None
        self.changed = True
        self.sync(force=True)

    def _table_top(self) -> float:
        try:
            return float(np.min(self.world.surfaces_at(0.5, 0.5)))
        except Exception:
            return 0.0

    # terrain --------------------------------------------------------
    def _terrain(self) -> NodePath:
        mesh = self.world.terrain
        tri_piece = np.asarray(self.world.tri_piece)
        pieces = list(self.world.pieces)
        cols = np.empty((len(pieces) + 1, 4), np.float32)
        for i, p in enumerate(pieces):
            tags = getattr(p, "tags", ()) or ()
            cols[i] = TABLE_COLOUR if (p.id == "table" or "table" in tags) else piece_colour(p.id, tags)
        cols[len(pieces)] = TABLE_COLOUR
        idx = np.where((tri_piece >= 0) & (tri_piece < len(pieces)), tri_piece, len(pieces))
        face_cols = cols[idx].copy()
        # the table top: whatever lies flat at the lowest level over most of the table
        verts = np.asarray(mesh.vertices)
        faces = np.asarray(mesh.faces)
        # light shading by slope: tops slightly lighter than walls
        fn = np.asarray(mesh.face_normals)
        up = np.clip(fn[:, 2], 0, 1)[:, None]
        face_cols[:, :3] = np.clip(face_cols[:, :3] * (0.92 + 0.12 * up), 0, 1)
        node = NodePath(flat_mesh_node("terrain", verts, faces, face_cols))
        node.setTwoSided(False)
        return node

    def _areas(self) -> NodePath:
        """Area pieces (not solid: forests, dark areas...) drawn as tinted footprints."""
        root = NodePath("areas")
        top = self._table_top()
        for p in self.world.pieces:
            tags = set(getattr(p, "tags", ()) or ())
            if "area" not in tags or getattr(p, "solid", True):
                continue
            kind = next((t for t in AREA_COLOURS if t in tags), None)
            colour = AREA_COLOURS.get(kind, (0.6, 0.6, 0.2, 0.3))
            mesh = getattr(p, "mesh", None)
            if mesh is None:
                continue
            try:
                from shapely.geometry import MultiPoint
                hull = MultiPoint(np.asarray(mesh.vertices)[:, :2]).convex_hull
                pts = np.asarray(hull.exterior.coords)[:-1]
                z = float(np.asarray(mesh.vertices)[:, 2].min()) + 0.02
            except Exception:
                continue
            v, f = polygon_mesh(pts, max(z, top + 0.02))
            n = root.attachNewNode(geom_node(f"area-{p.id}", v, f, np.tile([0, 0, 1.0], (len(v), 1)), colour))
            n.setTransparency(TransparencyAttrib.MAlpha)
            n.setDepthOffset(1)
            n.setLightOff(1)
            name = p.id if kind and kind in p.id else f"{p.id} ({kind or 'area'})"
            lbl = text_node(f"area-label-{p.id}", name, 0.45,
                            card=(0, 0, 0, 0.35), billboard=False)
            lbl.reparentTo(root)
            c = pts.mean(axis=0)
            lbl.setPos(float(c[0]), float(c[1]), z + 0.3)
            self.area_labels[p.id] = (lbl, np.array([float(c[0]), float(c[1]), max(z, top + 0.02)]))
        return root

    # models ---------------------------------------------------------
    def _model_node(self, mid: str) -> NodePath:
        hb = self.world.hitbox(mid)
        colour = self.side_colour.get(hb.side, (0.8, 0.8, 0.8, 1))
        node = NodePath(f"model-{mid}")
        r, h = float(hb.radius), float(hb.height)
        full = float(getattr(hb, "full_height", h) or h)
        v, f = cylinder_mesh(r, h, 40)
        body = node.attachNewNode(flat_mesh_node(f"hitbox-{mid}", v, f, color=(1, 1, 1, 1)))
        body.setName("body")
        body.setColor(*colour)
        if full > h + 1e-6:      # crouched/dead: the standing hitbox as a ghost outline
            gv, gf = cylinder_mesh(r, full, 24)
            ghost = node.attachNewNode(flat_mesh_node(f"ghost-{mid}", gv, gf, color=(*colour[:3], 0.18)))
            ghost.setTransparency(TransparencyAttrib.MAlpha)
            ghost.setDepthWrite(False)
            ghost.setName("ghost")
        # facing marker: a bright wedge on top pointing along +x (the node turns with facing)
        tip = np.array([[r * 1.0, 0, h + 0.02], [r * 0.15, r * 0.45, h + 0.02], [r * 0.15, -r * 0.45, h + 0.02]])
        marker = node.attachNewNode(geom_node(f"facing-{mid}", tip, [[0, 1, 2]],
                                              np.tile([0, 0, 1.0], (3, 1)), (1, 1, 1, 1)))
        marker.setName("facing")
        marker.setTwoSided(True)
        marker.setLightOff(1)
        # a short nose on the base so the facing reads from the side too
        nose_v, nose_f = cylinder_mesh(r * 0.12, min(h, 0.3), 12)
        nose_v = nose_v + np.array([r * 1.02, 0, 0])
        nose = node.attachNewNode(flat_mesh_node(f"nose-{mid}", nose_v, nose_f, color=(1, 1, 1, 1)))
        nose.setName("nose")
        return node

    def _label_node(self, mid: str) -> NodePath:
        colour = self.colour_of(mid)
        return text_node(f"label-{mid}", self.label_text(mid), 0.5, fg=(1, 1, 1, 1),
                         card=(*[c * 0.4 for c in colour[:3]], 0.85), billboard=False)

    def _key(self, hb) -> tuple:
        return (float(hb.radius), float(hb.height), float(getattr(hb, "full_height", hb.height) or hb.height),
                hb.side, tuple(sorted(getattr(hb, "states", ()) or ())))

    def sync(self, force: bool = False) -> None:
        """Rebuild/move model nodes after the world changed (cheap when it did not)."""
        version = getattr(self.world, "version", None)
        if not force and version is not None and version == self._version:
            return
        self._version = version
        self.changed = True               # the app re-renders the shadow map
        ids = list(self.world.model_ids())
        for mid in list(self.models):
            if mid not in ids:
                self.models.pop(mid).removeNode()
                self.label_nodes.pop(mid).removeNode()
                self._model_key.pop(mid, None)
                self.marks.pop(mid, None)
                self.mark_collars.pop(mid, None)
                self.highlights.pop(mid, None)
        for mid in ids:
            hb = self.world.hitbox(mid)
            key = self._key(hb)
            if self._model_key.get(mid) != key:
                if mid in self.models:
                    self.models[mid].removeNode()
                self.models[mid] = self._model_node(mid)
                self.models[mid].reparentTo(self.models_root)
                self._model_key[mid] = key
                if mid in self.highlights:          # a rebuilt model keeps its ring and band
                    self.highlight(mid, self.highlights[mid])
                if mid in self.marks:
                    self.mark(mid, self.marks[mid], self.mark_collars.get(mid, 0.5))
            node = self.models[mid]
            node.setPos(float(hb.x), float(hb.y), float(hb.z))
            if mid not in self.label_nodes:
                self.label_nodes[mid] = self._label_node(mid)
                self.label_nodes[mid].reparentTo(self.labels_root)
            top = max(float(hb.height), float(getattr(hb, "full_height", hb.height) or hb.height))
            self.label_nodes[mid].setPos(float(hb.x), float(hb.y), float(hb.z) + top + 0.6)
            node.setH(float(hb.facing))
            states = set(getattr(hb, "states", ()) or ())
            if "Dead" in states or "dead" in states:
                node.find("body").setAlphaScale(0.35)
                node.find("body").setTransparency(TransparencyAttrib.MAlpha)
            self._sync_drop(mid, hb, FLYING in states)
            text = self.label_text(mid)
            if self.label_nodes[mid].node().getText() != text:
                self.label_nodes[mid].node().setText(text)
        for mid in [m for m in self.drops if m not in ids]:
            node = self.drops.pop(mid)
            if not node.isEmpty():
                node.removeNode()
            self._drop_key.pop(mid, None)
        for mid in [m for m in self.ground if m not in ids]:
            self.ground.pop(mid, None)
        self._apply_tints()

    def flying_height(self, mid: str) -> float | None:
        """How high a Flying model's base is over the surface under it (None when
        it is not Flying): the surface the engine measures it on
        (``engine.measure.measuring_z``), as its drop line shows."""
        if mid not in self.ground:
            return None
        return float(self.world.hitbox(mid).z) - self.ground[mid]

    def status_words(self, mid: str) -> str | None:
        """What puts a model out of the fight, in words (None: nothing): the game's
        (``status_of``: a Legends of Norova character dying, stable, dead or down),
        else the World's States (Dead, Incapacitated). A Crouched model, a Dead one and
        a dying Norova character are all drawn as their base (with the standing
        hitbox's ghost): only the label tells them apart."""
        if self.status_of is not None:
            return self.status_of(mid) or None
        return self.state_words(mid)

    def state_words(self, mid: str) -> str | None:
        """The World's States that put a model out of the fight: Dead, Incapacitated."""
        states = set(getattr(self.world.hitbox(mid), "states", ()) or ())
        for s in ("Dead", "Incapacitated"):
            if s in states:
                return s
        return None

    def label_text(self, mid: str) -> str:
        """A model's label: its id; a Flying model's says so and how high it is, so
        that it is not taken for the label of a model standing near it on screen; a
        model out of the fight says so (``status_words``: "hexer (dying)")."""
        words = []
        h = self.flying_height(mid)
        if h is not None:
            words.append(f'Flying {h:.1f}" up' if h >= DROP_MIN else "Flying")
        status = self.status_words(mid)
        if status:
            words.append(status)
        return f"{mid} ({', '.join(words)})" if words else mid

    def _sync_drop(self, mid: str, hb, flying: bool) -> None:
        """A Flying model's drop line and shadow disc, down to the surface under it."""
        if not flying:
            self.ground.pop(mid, None)
            if mid in self.drops:
                node = self.drops.pop(mid)
                if not node.isEmpty():
                    node.removeNode()
                self._drop_key.pop(mid, None)
            return
        from engine.measure import measuring_z
        x, y, z, r = float(hb.x), float(hb.y), float(hb.z), float(hb.radius)
        ground = float(measuring_z(self.world, mid))
        self.ground[mid] = ground
        key = (x, y, z, r, ground, hb.side)
        model = self.models[mid]
        old = self.drops.get(mid)
        if self._drop_key.get(mid) == key and old is not None and not old.isEmpty() \
                and old.getParent() == model:
            return
        if old is not None and not old.isEmpty():
            old.removeNode()
        self._drop_key[mid] = key
        node = drop_node(f"drop-{mid}", (x, y), ground, z, r, self.colour_of(mid))
        from engine.view.app import SHADOW_MASK
        node.hide(SHADOW_MASK)
        # under the model's node: hidden with it (a picture's eye view hides the viewer)
        node.reparentTo(self.models_root)
        node.wrtReparentTo(model)
        self.drops[mid] = node

    def layout_labels(self, app, obstacles=(), important=()) -> None:
        """Place every shown label for the camera now (engine.view.labels):
        a constant size on screen, just above its model, token or area, moved
        (with a leader line) when that place is taken by another label, a
        model, or one of ``obstacles`` (pixel rectangles, y up: HUD panels, a
        caption). The models in ``important`` and the tinted ones (a LoS
        target, a template's victims) are placed first and covered last."""
        from engine.view.labels import LABEL_NDC, LabelItem, place_labels
        from engine.view.tokens import THICKNESS
        if self.labels_root.isHidden():
            return
        W, H = app.size
        floating = [n for n in self.root.getParent().findAllMatches(f"**/={FLOAT_TAG}")
                    if not n.isHidden() and n.hasPythonTag(FLOAT_TAG)]
        m = app.render.getMat(app.cam)                       # table -> camera
        to_cam = np.array([[m.getCell(i, j) for j in range(4)] for i in range(4)])
        # nothing moved, nothing shown or hidden: the labels stay where they are
        key = (to_cam.round(6).tobytes(), W, H, tuple(app.camLens.getFov()),
               tuple(tuple(o) for o in obstacles), getattr(self.world, "version", None),
               tuple(sorted(self.tints)), tuple(important), tuple(self.tokens.looks.values()),
               tuple(n.isHidden() for n in self.label_nodes.values()),
               tuple(n.isHidden() for n in self.tokens.label_nodes.values()),
               tuple(n.isHidden() for n, _ in self.area_labels.values()),
               tuple(sorted(self.marks)),
               tuple(n.node().getText() for n in self.label_nodes.values()),
               tuple((n.getKey(), np.asarray(n.getPythonTag(FLOAT_TAG)[0], float).round(4).tobytes())
                     for n in floating))
        if key == getattr(self, "_layout_key", None):
            return
        self._layout_key = key
        from_cam = np.linalg.inv(to_cam)
        hfov, vfov = (math.tan(math.radians(f) / 2.0) for f in app.camLens.getFov())
        near = float(app.camLens.getNear())
        quat = app.cam.getQuat(app.render)
        unit = LABEL_NDC * H / 2.0                           # pixels per text unit
        a = np.linspace(0.0, 2.0 * math.pi, 12, endpoint=False)
        ring = np.stack([np.cos(a), np.sin(a)], 1)
        entries = []                  # (text node path, outline (k,3), weight, size)
        drops = {}                    # entry -> a Flying model's drop: its outline and the hitbox's
        first = set(important) | set(self.tints) | set(self.marks)
        for mid, node in self.label_nodes.items():
            if node.isHidden() or mid not in self.models:
                continue
            hb = self.world.hitbox(mid)
            top = max(float(hb.height), float(getattr(hb, "full_height", hb.height) or hb.height))
            rim = np.column_stack([hb.x + hb.radius * ring[:, 0], hb.y + hb.radius * ring[:, 1]])
            pts = np.vstack([np.column_stack([rim, np.full(len(rim), hb.z)]),
                             np.column_stack([rim, np.full(len(rim), hb.z + top)])])
            if mid in self.drops:
                # its shadow disc and drop line are its too: no other label hides them
                drops[len(entries)] = np.column_stack([rim, np.full(len(rim), self.ground[mid])])
            entries.append((node, pts, 2.0 if mid in first else 1.0, 1.0))
        for tid, anchor in self.tokens.label_nodes.items():
            if anchor.isHidden():
                continue
            lk = self.tokens.looks[tid]
            rim = np.column_stack([lk.at[0] + lk.radius * ring[:, 0], lk.at[1] + lk.radius * ring[:, 1]])
            pts = np.vstack([np.column_stack([rim, np.full(len(rim), lk.at[2])]),
                             np.column_stack([rim, np.full(len(rim), lk.at[2] + THICKNESS)])])
            entries.append((anchor.getChild(0), pts, 0.5, 0.8))
        for node, centre in self.area_labels.values():
            if not node.isHidden():
                entries.append((node, centre[None, :], 0.5, 0.85))
        for node in floating:        # an overlay's label (a move's distance, a ring's name)
            anchor, weight, size = node.getPythonTag(FLOAT_TAG)
            if node.hasEffect(BillboardEffect.getClassType()):
                node.clearEffect(BillboardEffect.getClassType())     # laid out facing the camera
            entries.append((node, np.asarray(anchor, float).reshape(-1, 3), float(weight), float(size)))
        items, placed_nodes = [], []
        if entries:                                          # every outline projected at once
            counts = [len(e[1]) for e in entries]
            starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
            allp = np.vstack([e[1] for e in entries])
            c = np.column_stack([allp, np.ones(len(allp))]) @ to_cam
            depth = np.maximum(c[:, 1], 1e-9)
            px = (c[:, 0] / (depth * hfov) + 1.0) * W / 2.0
            py = (c[:, 2] / (depth * vfov) + 1.0) * H / 2.0
            ymin = np.minimum.reduceat(c[:, 1], starts)
            ymean = np.add.reduceat(c[:, 1], starts) / np.asarray(counts)
            x0, x1 = np.minimum.reduceat(px, starts), np.maximum.reduceat(px, starts)
            y0, y1 = np.minimum.reduceat(py, starts), np.maximum.reduceat(py, starts)

        def area_of(e):
            """A Flying model's hitbox and drop on screen (the disc in front of the lens)."""
            if e not in drops:
                return None
            c = np.column_stack([drops[e], np.ones(len(drops[e]))]) @ to_cam
            if np.any(c[:, 1] <= near * 1.5):
                return None
            u = (c[:, 0] / (c[:, 1] * hfov) + 1.0) * W / 2.0
            v = (c[:, 2] / (c[:, 1] * vfov) + 1.0) * H / 2.0
            return (float(min(x0[e], u.min())), float(min(y0[e], v.min())),
                    float(max(x1[e], u.max())), float(max(y1[e], v.max())))

        for e, (node, pts, weight, size) in enumerate(entries):
            if ymin[e] <= near * 1.5 or x1[e] < 0 or x0[e] > W or y1[e] < 0 or y0[e] > H:
                node.setScale(1e-4)              # behind the lens or out of the frame: no label
                continue
            l, r, b, t = node.node().getCardActual() if node.node().hasCard() else node.node().getFrameActual()
            k = unit * size
            items.append(LabelItem((float(x0[e]), float(y0[e]), float(x1[e]), float(y1[e])),
                                   (r - l) * k, (t - b) * k, weight, area=area_of(e), beside=e in drops))
            placed_nodes.append((node, float(ymean[e]), size, (l, r, b), k))
        order = sorted(range(len(items)), key=lambda i: (-items[i].weight, items[i].thing[1]))
        result = place_labels([items[i] for i in order], obstacles, screen=(W, H))
        leaders = []

        def world_at(x, y, depth):
            u, v = 2.0 * x / W - 1.0, 2.0 * y / H - 1.0
            return (np.array([u * depth * hfov, depth, v * depth * vfov, 1.0]) @ from_cam)[:3]

        for i, (rect, moved) in zip(order, result):
            node, depth, size, (l, r, b), k = placed_nodes[i]
            ox = (rect[0] + rect[2]) / 2.0 - (l + r) / 2.0 * k
            oy = rect[1] - b * k
            node.setPos(app.render, *map(float, world_at(ox, oy, depth)))
            node.setQuat(app.render, quat)
            node.setScale(size * LABEL_NDC * depth * vfov)
            if moved:
                th = items[i].thing
                tx, ty = (th[0] + th[2]) / 2.0, (th[1] + th[3]) / 2.0
                lx = float(np.clip(tx, rect[0], rect[2]))
                ly = float(np.clip(ty, rect[1], rect[3]))
                ex = float(np.clip(lx, th[0], th[2]))
                ey = float(np.clip(ly, th[1], th[3]))
                leaders.append([world_at(lx, ly, depth), world_at(ex, ey, depth)])
        self._set_leaders(leaders)

    def _set_leaders(self, leaders) -> None:
        key = np.round(np.asarray(leaders, float), 3).tobytes() if leaders else b""
        if key == getattr(self, "_leader_key", None):
            return
        self._leader_key = key
        old = self.labels_root.find("label-leaders")
        if not old.isEmpty():
            old.removeNode()
        if leaders:
            node = lines_node("label-leaders", np.asarray(leaders, float), (1, 1, 1, 0.75), 1.5)
            node.setBin("fixed", 49)
            node.setDepthTest(False)
            node.setDepthWrite(False)
            node.reparentTo(self.labels_root)

    def colour_of(self, mid: str) -> tuple:
        hb = self.world.hitbox(mid)
        return self.side_colour.get(hb.side, (0.8, 0.8, 0.8, 1))

    def tint(self, mid: str, rgba: tuple | None) -> None:
        """Override a model's body colour (visibility tint); None restores it."""
        if rgba is None:
            self.tints.pop(mid, None)
        else:
            self.tints[mid] = tuple(rgba)
        self._apply_tints()

    def highlight(self, mid: str, rgba: tuple | None) -> None:
        """A ring on the table around a model (selection, eligible reactors)."""
        node = self.models.get(mid)
        if node is None:
            return
        old = node.find("ring")
        if not old.isEmpty():
            old.removeNode()
        if rgba is None:
            self.highlights.pop(mid, None)
            return
        self.highlights[mid] = tuple(rgba)
        hb = self.world.hitbox(mid)
        r = float(hb.radius)
        a = np.linspace(0, 2 * math.pi, 49)
        inner = np.stack([(r + 0.08) * np.cos(a), (r + 0.08) * np.sin(a), np.full_like(a, 0.03)], 1)
        outer = np.stack([(r + 0.28) * np.cos(a), (r + 0.28) * np.sin(a), np.full_like(a, 0.03)], 1)
        verts = np.vstack([inner, outer])
        i = np.arange(48)
        faces = np.vstack([np.stack([i, i + 1, i + 50], 1), np.stack([i, i + 50, i + 49], 1)])
        ring = node.attachNewNode(geom_node(f"ring-{mid}", verts, faces, np.tile([0, 0, 1.0], (len(verts), 1)), rgba))
        ring.setName("ring")
        from engine.view.app import SHADOW_MASK
        ring.hide(SHADOW_MASK)
        ring.setLightOff(1)
        ring.setTwoSided(True)
        ring.setTransparency(TransparencyAttrib.MAlpha)

    #: the collar of a LoS target's visibility band: the top tenth of its hitbox, as what
    #: shows of a partly hidden target is its top (over a wall), which stays its side's colour
    TARGET_COLLAR = 0.1

    def mark(self, mid: str, rgba: tuple | None, collar: float = 0.5) -> None:
        """A coverage band on a model that keeps its side's colour (a template's
        victims): a collar round the hitbox's upper part (the top ``collar`` share
        of its height) and a ring on its top rim in ``rgba``; the side colour stays
        on the rest of the body and the top's centre, so a player still sees whose
        model is hit. None removes it. The band is drawn after the bodies and
        writes no depth: the overlays drawn on the hitbox (a LoS verdict's target
        points) stay visible over it."""
        node = self.models.get(mid)
        if node is None:
            self.marks.pop(mid, None)
            self.mark_collars.pop(mid, None)
            return
        old = node.find("coverage")
        if not old.isEmpty():
            old.removeNode()
        if rgba is None:
            self.marks.pop(mid, None)
            self.mark_collars.pop(mid, None)
            return
        self.marks[mid] = tuple(rgba)
        self.mark_collars[mid] = float(collar)
        hb = self.world.hitbox(mid)
        r, h = float(hb.radius), float(hb.height)
        n = 40
        a = np.linspace(0.0, 2 * math.pi, n, endpoint=False)
        c, s_ = np.cos(a), np.sin(a)
        ro, ri = r * 1.04, r * 0.6
        z0, z1, zt = h * (1.0 - float(np.clip(collar, 0.02, 1.0))), h + 0.012, h + 0.012
        band = np.vstack([np.stack([ro * c, ro * s_, np.full(n, z0)], 1),
                          np.stack([ro * c, ro * s_, np.full(n, z1)], 1),
                          np.stack([ri * c, ri * s_, np.full(n, zt)], 1)])
        i = np.arange(n)
        j = (i + 1) % n
        faces = np.vstack([np.stack([i, j, j + n], 1), np.stack([i, j + n, i + n], 1),          # the collar
                           np.stack([i + n, j + n, j + 2 * n], 1), np.stack([i + n, j + 2 * n, i + 2 * n], 1)])
        normals = np.vstack([np.stack([c, s_, np.zeros(n)], 1)] * 2 + [np.tile([0, 0, 1.0], (n, 1))])
        col = node.attachNewNode(geom_node(f"coverage-{mid}", band, faces, normals, tuple(rgba)))
        col.setName("coverage")
        from engine.view.app import SHADOW_MASK
        col.hide(SHADOW_MASK)
        col.setLightOff(1)
        col.setTwoSided(True)
        col.setDepthOffset(1)
        col.setBin("fixed", 5)                  # after the bodies, before the overlays (bin 15+)
        col.setDepthWrite(False)                # the target points on the hitbox show through
        facing = node.find("facing")
        if not facing.isEmpty():
            facing.setDepthOffset(2)            # the facing wedge stays on top of the ring

    def clear_marks(self) -> None:
        for mid in list(self.marks):
            self.mark(mid, None)
        for mid in list(self.tints):
            self.tint(mid, None)
        for mid in list(self.highlights):
            self.highlight(mid, None)

    def _apply_tints(self) -> None:
        for mid, node in self.models.items():
            body = node.find("body")
            if body.isEmpty():
                continue
            body.setColor(*(self.tints.get(mid) or self.colour_of(mid)))

    def model_at_node(self, node: NodePath) -> str | None:
        while not node.isEmpty():
            name = node.getName()
            if name.startswith("model-"):
                return name[len("model-"):]
            node = node.getParent()
        return None
