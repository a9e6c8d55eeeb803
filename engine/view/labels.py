"""Name labels that stay readable: a constant size on screen, never on top of
each other, never over a model when there is room elsewhere.

Every frame (and before every picture) ``TableScene.layout_labels`` projects
each labelled thing (a model's hitbox, a token's disc, an area's centre) to
the screen and asks :func:`place_labels` where its label goes. The preferred
place is just above the thing on screen; when that place is taken (another
label, a model, a HUD panel or a picture's caption given as an obstacle, the
frame's edge) the label is stacked higher, then tried to the right, the left,
below, then at the thing's corners (a Flying model's: beside it before stacking
higher, and the other labels keep off its drop line too); a label that had to
move gets a thin leader line to its thing. A label never covers its own thing
while any place does not (slid inside the frame, the place left of a model at
the frame's left edge lay on the model).
Placement is greedy, in the order given (the models that matter first), so
it is stable from frame to frame.

All rectangles are in pixels, ``(x0, y0, x1, y1)`` with y up.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: label text height (one text unit) as a fraction of half the frame's height:
#: about the size of the HUD's text at any zoom and window size
LABEL_NDC = 0.042
GAP = 0.25          # text units between a thing and its label, and between stacked labels
STACK = 4           # places stacked above the first (and below the thing) beyond the nearest


@dataclass
class LabelItem:
    """One label to place: the screen rectangle of the thing it names, the
    label's width and height (pixels), and its weight (2: a model that
    matters now, 1: a model, 0.5: a token or an area). ``area``: what the
    other labels keep off, when more than the thing (a Flying model's drop
    line and shadow under it; default the thing). ``beside``: when its first
    place is taken, try beside the thing before stacking higher (a Flying
    model: stacked up, its label would sit right on the models standing
    behind it on screen and read as theirs)."""
    thing: tuple[float, float, float, float]
    width: float
    height: float
    weight: float = 1.0
    area: tuple[float, float, float, float] | None = None
    beside: bool = False


def _overlaps(cands: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Overlap areas of candidate rectangles (..., 4) with m rectangles (m, 4): (..., m)."""
    c = cands[..., None, :]
    w = np.minimum(c[..., 2], rects[:, 2]) - np.maximum(c[..., 0], rects[:, 0])
    h = np.minimum(c[..., 3], rects[:, 3]) - np.maximum(c[..., 1], rects[:, 1])
    return np.maximum(w, 0.0) * np.maximum(h, 0.0)


def _candidates(things: np.ndarray, size: np.ndarray, gap: np.ndarray) -> np.ndarray:
    """(n, 6 * STACK + 8, 4): the places tried for each label, best first:
    above, stacked higher, right, left, below, stacked lower, then the corners
    (above right, above left, below right, below left), stacked out likewise:
    the places left when the others are taken, with a longer leader line."""
    x0, y0, x1, y1 = (things[:, i:i + 1] for i in range(4))
    w, h, g = size[:, :1], size[:, 1:], gap[:, None]
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    k = np.arange(STACK + 1)[None, :]
    above = y1 + g + k * (h + g)
    below = y0 - g - k * (h + g) - h
    ones = np.ones_like(above)
    up = np.stack([(cx - w / 2) * ones, above, (cx + w / 2) * ones, above + h], axis=-1)
    down = np.stack([(cx - w / 2) * ones, below, (cx + w / 2) * ones, below + h], axis=-1)
    right = np.stack([x1 + g, cy - h / 2, x1 + g + w, cy + h / 2], axis=-1)
    left = np.stack([x0 - g - w, cy - h / 2, x0 - g, cy + h / 2], axis=-1)
    ex, wx = (x1 + g) * ones, (x0 - g - w) * ones
    corners = np.stack([np.stack([x, y, x + w, y + h], axis=-1)
                        for x, y in ((ex, above), (wx, above), (ex, below), (wx, below))], axis=2)
    return np.concatenate([up, right, left, down, corners.reshape(len(things), -1, 4)], axis=1)


def leader_of(rect, thing) -> tuple[tuple[float, float], tuple[float, float]]:
    """The leader line of a label that left its first place: from the point of
    its rectangle nearest the thing's centre to the thing's rectangle."""
    tx, ty = (thing[0] + thing[2]) / 2.0, (thing[1] + thing[3]) / 2.0
    lx, ly = min(max(tx, rect[0]), rect[2]), min(max(ty, rect[1]), rect[3])
    return (lx, ly), (min(max(lx, thing[0]), thing[2]), min(max(ly, thing[1]), thing[3]))


def _leaders(cands: np.ndarray, things: np.ndarray) -> np.ndarray:
    """(..., 4) the leader segments (x0, y0, x1, y1) of candidate rectangles
    (n, c, 4) to their things (n, 4), as :func:`leader_of` draws them."""
    t = things[:, None, :]
    tx, ty = (t[..., 0] + t[..., 2]) / 2.0, (t[..., 1] + t[..., 3]) / 2.0
    lx = np.clip(tx, cands[..., 0], cands[..., 2])
    ly = np.clip(ty, cands[..., 1], cands[..., 3])
    ex = np.clip(lx, t[..., 0], t[..., 2])
    ey = np.clip(ly, t[..., 1], t[..., 3])
    return np.stack([lx, ly, ex, ey], axis=-1)


def _crossing(segs: np.ndarray, rects: np.ndarray) -> np.ndarray:
    """Length of each segment (..., 4) inside each of m rectangles (m, 4): (..., m)."""
    s = segs[..., None, :]
    p0 = np.stack([s[..., 0], s[..., 1]], -1)
    d = np.stack([s[..., 2] - s[..., 0], s[..., 3] - s[..., 1]], -1)
    lo = np.stack([rects[:, 0], rects[:, 1]], -1)
    hi = np.stack([rects[:, 2], rects[:, 3]], -1)
    with np.errstate(divide="ignore", invalid="ignore"):
        a, b = (lo - p0) / d, (hi - p0) / d
    flat = np.abs(d) < 1e-12                     # parallel to the axis: inside the slab or not
    inside = (p0 > lo) & (p0 < hi)
    t_in = np.where(flat, np.where(inside, -np.inf, np.inf), np.minimum(a, b))
    t_out = np.where(flat, np.where(inside, np.inf, -np.inf), np.maximum(a, b))
    t0 = np.maximum(t_in.max(axis=-1), 0.0)
    t1 = np.minimum(t_out.min(axis=-1), 1.0)
    return np.maximum(t1 - t0, 0.0) * np.hypot(d[..., 0], d[..., 1])


def place_labels(items, obstacles=(), screen=None, gap: float | None = None) -> list[tuple[tuple, bool]]:
    """For each item, in order: (the label's rectangle, whether it left its
    first place). A place is free when it overlaps no label placed before,
    no obstacle and no other item's thing (its ``area``), and, away from its
    first place, its leader line crosses no other thing, no obstacle and no
    label placed before (a leader drawn through another model reads as that
    model's label; one cut by a HUD panel leaves its label floating, no one's);
    with ``screen`` (w, h) each
    candidate is first slid inside the frame; the first free one wins, else
    the one that hides least (labels and obstacles count three times, a
    thing by its weight; a leader by its length in them times the label's height).
    A place over its own thing is no place while another covers less of it: a
    label over its own model reads as nobody's and hides the model it names."""
    n = len(items)
    if not n:
        return []
    things = np.asarray([it.thing for it in items], float).reshape(-1, 4)
    size = np.asarray([(it.width, it.height) for it in items], float)
    weights = np.asarray([it.weight for it in items], float)
    blocks = np.asarray([o for o in obstacles if o is not None], float).reshape(-1, 4)
    gaps = np.full(n, float(gap)) if gap is not None else GAP * size[:, 1]
    cands = _candidates(things, size, gaps)
    beside = np.asarray([bool(it.beside) for it in items])
    if beside.any():                    # first place, right, left, then stacked higher, below
        s = STACK + 1
        reorder = np.r_[0, s, s + 1, 1:s, s + 2:cands.shape[1]]
        cands[beside] = cands[beside][:, reorder]
    first = cands[:, 0].copy()
    if screen is not None:              # a thing at the frame's edge: its label slides inside
        dx = np.maximum(0.0, -cands[..., 0]) - np.maximum(0.0, cands[..., 2] - float(screen[0]))
        dy = np.maximum(0.0, -cands[..., 1]) - np.maximum(0.0, cands[..., 3] - float(screen[1]))
        cands = cands + np.stack([dx, dy, dx, dy], axis=-1)
    areas = np.asarray([it.area if it.area is not None else it.thing for it in items], float).reshape(-1, 4)
    on_things = _overlaps(cands, areas) * weights                        # (n, c, n)
    own = _overlaps(cands, things)[np.arange(n), :, np.arange(n)]          # (n, c): over its own thing
    own = own > own.min(axis=1, keepdims=True) + 1e-9                      # ... more than it must be
    on_things[np.arange(n), :, np.arange(n)] = 0.0                         # else its own thing is no obstacle
    fixed = on_things.sum(axis=-1) + 3.0 * _overlaps(cands, blocks).sum(axis=-1)
    # a label away from its first place gets a leader line: it keeps off the other things
    leaders = _leaders(cands, things)                                     # (n, c, 4)
    drawn = np.any(np.abs(cands - first[:, None, :]) > 1e-9, axis=-1)     # (n, c)
    drawn[:, 1:] = True
    across = _crossing(leaders, areas) * weights                          # (n, c, n)
    across[np.arange(n), :, np.arange(n)] = 0.0
    # under a panel (drawn over the table) a leader is cut: its label would float there, no one's
    hid = 3.0 * _crossing(leaders, blocks).sum(axis=-1) if len(blocks) else 0.0
    fixed = fixed + np.where(drawn, (across.sum(axis=-1) + hid) * size[:, 1:], 0.0)
    placed = np.zeros((n, 4))
    out = []
    for i in range(n):
        cost = fixed[i] + 3.0 * _overlaps(cands[i], placed[:i]).sum(axis=-1)
        if i:
            cost = cost + np.where(drawn[i], 3.0 * _crossing(leaders[i], placed[:i]).sum(axis=-1) * size[i, 1], 0.0)
        cost = np.where(own[i], np.inf, cost)
        free = np.flatnonzero(cost <= 1e-9)
        k = int(free[0]) if len(free) else int(np.argmin(cost))
        placed[i] = cands[i, k]
        out.append((tuple(float(v) for v in placed[i]), bool(k != 0 or np.any(np.abs(placed[i] - first[i]) > 1e-9))))
    return out


def screen_rect(app, np_) -> tuple[float, float, float, float] | None:
    """The pixel rectangle (y up) of something drawn on ``aspect2d`` (a HUD
    panel, a picture's caption): an obstacle for the labels. None when it
    is hidden or empty."""
    if np_ is None or np_.isEmpty() or np_.isHidden():
        return None
    bounds = np_.getTightBounds(app.aspect2d)
    if not bounds:
        return None
    lo, hi = bounds
    w, h = app.size
    ar = app.getAspectRatio()
    return ((lo[0] / ar + 1.0) * w / 2.0, (lo[2] + 1.0) * h / 2.0,
            (hi[0] / ar + 1.0) * w / 2.0, (hi[2] + 1.0) * h / 2.0)
