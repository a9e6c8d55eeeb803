"""Tokens on the field: hidden or revealed Items and Spells, drawn as discs.

A token (rules/eldfall/tokens.py; the scene's ``tokens:``) is a flat disc the
size of its base (25 mm, a Small base, unless the scene says ``base_mm``)
lying on the surface at its centre. The view draws each one in its owner's
side colour: muted, with a "?" label, while it is hidden; full colour, a
light rim and its kind and name ("Item: Healing Draught", "Spell: Rune
Snare") once revealed. A token picked up or destroyed is not drawn.

The layer is fed plain token data, never decides anything: the game's
``TokenState`` objects (``game.tokens``), the scene's ``TokenSpec`` (before a
game exists: pictures, ``eldfall view`` without play) or their dicts (a log
header's ``scene_info["tokens"]``). A token without z lies on the highest
surface under its centre (``World.surface_height``, one batched query).

Picking: ``TokenLayer.pick(origin, direction, max_distance)`` intersects a
ray with the top faces of the discs (numpy, all tokens at once). The engine's
``World.pick`` knows nothing of tokens; the view asks it first and takes a
token only when its disc is nearer than what the engine hit.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from panda3d.core import NodePath, TransparencyAttrib

from engine.view.meshes import cylinder_mesh, flat_mesh_node, geom_node, text_node

MM_PER_INCH = 25.4
DEFAULT_BASE_MM = 25.0
#: a token's thickness on the table (a card or a thin plastic disc: 1.5 mm)
THICKNESS = 1.5 / MM_PER_INCH
#: hidden tokens: the side colour mixed toward this grey
MUTED_GREY = (0.46, 0.46, 0.48)
MUTED_MIX = 0.55
RIM = {"item": (0.97, 0.97, 0.92, 1.0), "spell": (0.86, 0.72, 1.0, 1.0)}


@dataclass(frozen=True)
class TokenLook:
    """What the view draws for one token."""
    id: str
    kind: str
    side: str
    at: tuple[float, float, float]
    radius: float
    hidden: bool
    name: str

    @property
    def label(self) -> str:
        if self.hidden:
            return "?"
        return f"{self.kind.capitalize()}: {self.name}" if self.name else self.kind.capitalize()

    @property
    def key(self) -> tuple:
        return (self.kind, self.side, tuple(round(v, 6) for v in self.at), round(self.radius, 6),
                self.hidden, self.name)


def _get(t, name, default=None):
    if isinstance(t, dict):
        return t.get(name, default)
    return getattr(t, name, default)


def token_looks(tokens, world=None) -> list[TokenLook]:
    """Plain looks for the tokens still on the field (removed ones left out).

    ``tokens``: TokenState / TokenSpec objects or their dicts. A token whose
    z is missing or None lies on the highest surface under its centre
    (``world.surface_height``; 0 without a world or off every surface)."""
    rows = []
    for t in tokens or ():
        if _get(t, "removed", False):
            continue
        at = list(_get(t, "at", ()) or ())
        if len(at) < 2:
            continue
        z = at[2] if len(at) > 2 else None
        radius = _get(t, "radius")
        if radius is None:
            radius = float(_get(t, "base_mm", DEFAULT_BASE_MM) or DEFAULT_BASE_MM) / MM_PER_INCH / 2.0
        kind = str(_get(t, "kind", "item") or "item")
        name = str((_get(t, "item") if kind == "item" else _get(t, "spell")) or "")
        rows.append([str(_get(t, "id")), kind, str(_get(t, "side", "")), float(at[0]), float(at[1]),
                     None if z is None else float(z), float(radius), bool(_get(t, "hidden", True)), name])
    need = [i for i, r in enumerate(rows) if r[5] is None]
    if need:
        zs = np.zeros(len(need))
        if world is not None:
            zs = np.asarray(world.surface_height(np.array([[rows[i][3], rows[i][4]] for i in need])), float)
            zs = np.where(np.isfinite(zs), zs, 0.0)
        for i, z in zip(need, zs):
            rows[i][5] = float(z)
    return [TokenLook(r[0], r[1], r[2], (r[3], r[4], r[5]), r[6], r[7], r[8]) for r in rows]


def muted(colour) -> tuple[float, float, float, float]:
    """A hidden token's colour: its side's, greyed and darkened."""
    c = np.asarray(colour[:3], float)
    g = np.asarray(MUTED_GREY, float)
    m = (c * (1.0 - MUTED_MIX) + g * MUTED_MIX) * 0.85
    return (float(m[0]), float(m[1]), float(m[2]), 1.0)


def _ring(r0: float, r1: float, z: float, segments: int = 48):
    a = np.linspace(0.0, 2 * math.pi, segments + 1)
    inner = np.stack([r0 * np.cos(a), r0 * np.sin(a), np.full_like(a, z)], 1)
    outer = np.stack([r1 * np.cos(a), r1 * np.sin(a), np.full_like(a, z)], 1)
    verts = np.vstack([inner, outer])
    i = np.arange(segments)
    n = segments + 1
    faces = np.vstack([np.stack([i, i + n + 1, i + 1], 1), np.stack([i, i + n, i + n + 1], 1)])
    return verts, faces


class TokenLayer:
    """The tokens of one table: ``set(tokens)`` makes the drawing match."""

    def __init__(self, table, parent: NodePath, labels_parent: NodePath):
        from engine.view.app import SHADOW_MASK
        self.table = table
        self.root = parent.attachNewNode("tokens")
        self.root.hide(SHADOW_MASK)        # a 1.5 mm disc casts no shadow worth a shadow pass
        self.labels_root = labels_parent.attachNewNode("token-labels")
        self.nodes: dict[str, NodePath] = {}
        self.label_nodes: dict[str, NodePath] = {}
        self.looks: dict[str, TokenLook] = {}
        self.highlights: dict[str, tuple] = {}

    # ------------------------------------------------------------ drawing
    def colour_of(self, look: TokenLook) -> tuple:
        base = self.table.side_colour.get(look.side, (0.8, 0.8, 0.8, 1.0))
        return muted(base) if look.hidden else tuple(base)

    def _node(self, look: TokenLook) -> NodePath:
        node = NodePath(f"token-{look.id}")
        r = look.radius
        v, f = cylinder_mesh(r, THICKNESS, 40)
        body = node.attachNewNode(flat_mesh_node(f"token-disc-{look.id}", v, f, color=(1, 1, 1, 1)))
        body.setName("disc")
        body.setColor(*self.colour_of(look))
        if not look.hidden:
            rv, rf = _ring(0.78 * r, 0.95 * r, THICKNESS + 0.004)
            rim = node.attachNewNode(geom_node(f"token-rim-{look.id}", rv, rf,
                                               np.tile([0, 0, 1.0], (len(rv), 1)), RIM.get(look.kind, RIM["item"])))
            rim.setName("rim")
            rim.setLightOff(1)
            rim.setShaderOff(1)
        node.setPos(look.at[0], look.at[1], look.at[2])
        return node

    def _label(self, look: TokenLook) -> NodePath:
        """The label: an anchor at the disc's centre holding the text, which
        ``TableScene.layout_labels`` places beside the disc on screen in every
        view (so it never hides the disc, even seen from straight above)."""
        base = self.table.side_colour.get(look.side, (0.8, 0.8, 0.8, 1.0))
        card = (*[c * 0.35 for c in (muted(base) if look.hidden else base)[:3]], 0.8)
        fg = (0.85, 0.85, 0.85, 1) if look.hidden else (1, 1, 1, 1)
        anchor = NodePath(f"token-label-{look.id}")
        anchor.setPos(look.at[0], look.at[1], look.at[2] + THICKNESS)
        text = text_node(f"token-text-{look.id}", look.label, 0.4, fg=fg, card=card, billboard=False)
        text.reparentTo(anchor)
        text.setPos(0, 0, look.radius + 0.12)
        return anchor

    def label_text(self, tid: str) -> str:
        return self.label_nodes[tid].getChild(0).node().getText()

    def set(self, tokens, world=None) -> bool:
        """Draw exactly the tokens on the field among ``tokens``; True when
        anything changed. ``world`` resolves missing z (default: the table's)."""
        looks = {lk.id: lk for lk in token_looks(tokens, world if world is not None else self.table.world)}
        changed = False
        for tid in list(self.nodes):
            if tid not in looks:
                self.nodes.pop(tid).removeNode()
                self.label_nodes.pop(tid).removeNode()
                self.looks.pop(tid, None)
                self.highlights.pop(tid, None)
                changed = True
        for tid, look in looks.items():
            old = self.looks.get(tid)
            if old is not None and old.key == look.key:
                continue
            if tid in self.nodes:
                self.nodes.pop(tid).removeNode()
                self.label_nodes.pop(tid).removeNode()
            self.nodes[tid] = self._node(look)
            self.nodes[tid].reparentTo(self.root)
            self.label_nodes[tid] = self._label(look)
            self.label_nodes[tid].reparentTo(self.labels_root)
            self.looks[tid] = look
            changed = True
            if tid in self.highlights:
                self.highlight(tid, self.highlights[tid])
        return changed

    def ids(self) -> list[str]:
        return list(self.looks)

    def highlight(self, tid: str, rgba: tuple | None) -> None:
        """A ring on the table around a token (a legal target now)."""
        node = self.nodes.get(tid)
        if node is None:
            self.highlights.pop(tid, None)
            return
        old = node.find("ring")
        if not old.isEmpty():
            old.removeNode()
        if rgba is None:
            self.highlights.pop(tid, None)
            return
        self.highlights[tid] = tuple(rgba)
        r = self.looks[tid].radius
        v, f = _ring(r + 0.06, r + 0.24, 0.02)
        ring = node.attachNewNode(geom_node(f"token-ring-{tid}", v, f, np.tile([0, 0, 1.0], (len(v), 1)), rgba))
        ring.setName("ring")
        ring.setLightOff(1)
        ring.setShaderOff(1)
        ring.setTwoSided(True)
        ring.setTransparency(TransparencyAttrib.MAlpha)

    def clear_highlights(self) -> None:
        for tid in list(self.highlights):
            self.highlight(tid, None)

    # ------------------------------------------------------------ picking
    def pick(self, origin, direction, max_distance: float = math.inf, slack: float = 0.05) -> str | None:
        """The token whose disc top a ray meets first (within its radius plus
        ``slack`` inches), if nearer than ``max_distance``; else None."""
        if not self.looks:
            return None
        o = np.asarray(origin, float).reshape(3)
        d = np.asarray(direction, float).reshape(3)
        d = d / (np.linalg.norm(d) or 1.0)
        ids = list(self.looks)
        at = np.array([self.looks[i].at for i in ids], float)
        rad = np.array([self.looks[i].radius for i in ids], float)
        top = at[:, 2] + THICKNESS
        if abs(d[2]) < 1e-9:
            return None
        t = (top - o[2]) / d[2]
        p = o[None, :2] + t[:, None] * d[None, :2]
        inside = (t > 0) & (np.hypot(*(p - at[:, :2]).T) <= rad + slack)
        # the disc sits on the surface the engine hit: allow its thickness
        inside &= t <= max_distance + THICKNESS / max(abs(d[2]), 1e-3) + 1e-6
        if not inside.any():
            return None
        j = int(np.argmin(np.where(inside, t, np.inf)))
        return ids[j]
