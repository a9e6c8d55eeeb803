"""Runs of a path's samples proved hidden from an observer by one convex solid.

``engine.sight.los_along_path`` samples the path every ``path_step_in`` and
asks LoS at each sample; an observer hidden the whole way costs a hiding proof
per sample. This module proves runs of consecutive samples hidden at once:

* the mover's hitboxes at the run's samples lie in one box (the samples'
  bounding box, widened by the base radius in x and y and raised by the
  hitbox height, ``inset`` inside like the lattices' sample points); the
  observer's hitbox lies in its own box;
* if every one of the 64 segments between the two boxes' corners passes
  through one convex solid of the scenery (shrunk by ``SHRINK``, so no grazing
  contact counts) that neither box enters (a face plane has the whole box
  outside), then every segment between any point of one box and any point of
  the other does: for a fixed end, the segments that meet a convex body have
  their other end in a convex set, so the corners prove it for each box in
  turn;
* a run not proved is halved, down to ``min_run`` samples.

Only scenery proves anything here (models and forests can only hide more), and
the caller must not use it where a state or trait gives LoS regardless
(Flying, Engaged). It never decides "visible": the samples it does not prove
are left to the sampled search.
"""
from __future__ import annotations

import weakref

import numpy as np

SHRINK = 1e-4                 # inches: the solids are shrunk by this for the proofs
_SOLIDS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def convex_solids(world):
    """(N (k, m, 3), D (k, m), centres (k, 3), radii (k,), ids) of the convex solid
    pieces (the table excluded), as padded half-spaces ``N . x <= D``; cached per World."""
    got = _SOLIDS.get(world)
    if got is not None:
        return got
    planes, cen, rad, ids = [], [], [], []
    for p in world.pieces[1:]:
        mesh = p.mesh
        if not p.solid or len(mesh.faces) == 0 or not mesh.is_convex:
            continue
        n = np.asarray(mesh.face_normals, dtype=float)
        d = np.einsum("ij,ij->i", n, np.asarray(mesh.triangles[:, 0], dtype=float))
        nd = np.unique(np.round(np.column_stack([n, d]), 9), axis=0)
        planes.append(nd)
        v = np.asarray(mesh.vertices, dtype=float)
        c = 0.5 * (v.min(axis=0) + v.max(axis=0))
        cen.append(c)
        rad.append(float(np.linalg.norm(v - c, axis=1).max()))
        ids.append(p.id)
    m = max([4] + [len(pl) for pl in planes])
    N = np.zeros((len(planes), m, 3))
    D = np.full((len(planes), m), 1e30)
    for j, pl in enumerate(planes):
        N[j, :len(pl)] = pl[:, :3]
        D[j, :len(pl)] = pl[:, 3]
    got = (N, D, np.array(cen, dtype=float).reshape(-1, 3), np.array(rad, dtype=float), ids)
    _SOLIDS[world] = got
    return got


def _corners(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """(k, 8, 3) corners of the boxes lo..hi (k, 3)."""
    sel = np.array([[(i >> a) & 1 for a in range(3)] for i in range(8)], dtype=bool)
    return np.where(sel[None], hi[:, None, :], lo[:, None, :])


def _segments_meet(p0: np.ndarray, p1: np.ndarray, N: np.ndarray, D: np.ndarray) -> np.ndarray:
    """(P, S) bool: segment s of pair p meets the solid of pair p (N (P, m, 3), D (P, m)),
    p0/p1 (P, S, 3); the solid is shrunk by SHRINK and a contact must have positive length."""
    Nt = np.swapaxes(N, 1, 2)                              # (P, 3, m)
    a = np.matmul(p1 - p0, Nt)                             # n . (q - p)
    b = (D - SHRINK)[:, None, :] - np.matmul(p0, Nt)       # d - n . p
    with np.errstate(divide="ignore", invalid="ignore"):
        t = b / a
    t_hi = np.min(np.where(a > 1e-15, t, np.inf), axis=2)
    t_lo = np.max(np.where(a < -1e-15, t, -np.inf), axis=2)
    parallel_out = np.any((np.abs(a) <= 1e-15) & (b < 0), axis=2)
    return (np.minimum(t_hi, 1.0) - np.maximum(t_lo, 0.0) > 1e-9) & ~parallel_out


def _by_width(fn, jj, N, D, *rows):
    """``fn(*rows_g, N_g, D_g)`` over the pairs grouped by their solid's plane count (up to
    8 planes, or more), each group's planes cut to its widest solid: the padding planes
    (zero normal, offset 1e30) change no answer, and most solids are boxes of 6 planes
    in rows padded to the largest solid's count. Returns the results in pair order."""
    width = (D < 1e29).sum(axis=1)
    w = width[jj]
    out = None
    for sel in (w <= 8, w > 8):
        idx = np.nonzero(sel)[0]
        if not len(idx):
            continue
        m = max(1, int(w[idx].max()))
        got = fn(*(r[idx] for r in rows), N[jj[idx], :m], D[jj[idx], :m])
        if out is None:
            out = np.zeros((len(jj),) + got.shape[1:], dtype=got.dtype)
        out[idx] = got
    return out


def _pairs_hidden(a_lo, a_hi, b_lo, b_hi, solids) -> np.ndarray:
    """(k,) bool: every segment between box A_k and box B_k (lo/hi: (k, 3)) passes
    through one convex solid (see the module)."""
    N, D, cen, rad, _ = solids
    out = np.zeros(len(b_lo), dtype=bool)
    if len(b_lo) == 0 or len(D) == 0:
        return out

    def outside(lo, hi, Nj, Dj):     # (P,): a face plane of the solid has box p wholly outside
        C = _corners(lo, hi)                                                # (P, 8, 3)
        s = np.matmul(C, np.swapaxes(Nj, 1, 2)) - Dj[:, None, :]            # (P, 8, m)
        return np.any(np.all(s > 1e-6, axis=1), axis=1)
    ca = 0.5 * (a_lo + a_hi)
    cb = 0.5 * (b_lo + b_hi)
    # necessary: the segment between the centres passes near the solid (its sphere)
    ab = cb - ca
    L2 = np.maximum(np.einsum("kc,kc->k", ab, ab), 1e-30)
    t = np.clip((ab @ cen.T - np.einsum("kc,kc->k", ca, ab)[:, None]) / L2[:, None], 0.0, 1.0)   # (k, j)
    gap = ca[:, None, :] + t[..., None] * ab[:, None, :] - cen[None]
    cand = (gap * gap).sum(axis=2) <= rad[None, :] ** 2
    kk, jj = np.nonzero(cand)
    if len(kk) == 0:
        return out
    # cheap rejections first: the centres' segment
    live = _by_width(_segments_meet, jj, N, D, ca[kk][:, None], cb[kk][:, None])[:, 0]
    kk, jj = kk[live], jj[live]
    if len(kk) == 0:
        return out
    A = _corners(a_lo, a_hi)                                     # (k, 8, 3)
    B = _corners(b_lo, b_hi)
    # then the 8 corner-to-corner segments of the same index
    live = _by_width(_segments_meet, jj, N, D, A[kk], B[kk]).all(axis=1)
    kk, jj = kk[live], jj[live]
    if len(kk) == 0:
        return out
    # no point of either box inside the solid (a segment from inside proves nothing)
    keep = _by_width(outside, jj, N, D, a_lo[kk], a_hi[kk]) & _by_width(outside, jj, N, D, b_lo[kk], b_hi[kk])
    kk, jj = kk[keep], jj[keep]
    # then all 64
    if len(kk):
        p0 = np.broadcast_to(A[kk][:, :, None, :], (len(kk), 8, 8, 3)).reshape(len(kk), 64, 3)
        p1 = np.broadcast_to(B[kk][:, None, :, :], (len(kk), 8, 8, 3)).reshape(len(kk), 64, 3)
        ok = _by_width(_segments_meet, jj, N, D, p0, p1).all(axis=1)
        out[kk[ok]] = True
    return out


def boxes_hidden(a_lo, a_hi, b_lo, b_hi, solids) -> np.ndarray:
    """(k,) bool: every segment between box A (a_lo, a_hi: (3,)) and box k of B
    (b_lo, b_hi: (k, 3)) passes through one convex solid (see the module)."""
    b_lo = np.asarray(b_lo, dtype=float).reshape(-1, 3)
    b_hi = np.asarray(b_hi, dtype=float).reshape(-1, 3)
    k = len(b_lo)
    return _pairs_hidden(np.repeat(np.asarray(a_lo, dtype=float).reshape(1, 3), k, 0),
                         np.repeat(np.asarray(a_hi, dtype=float).reshape(1, 3), k, 0), b_lo, b_hi, solids)


def _observer_box(oh, inset: float):
    e = float(inset)
    return (np.array([oh.x - oh.radius + e, oh.y - oh.radius + e, oh.z + e]),
            np.array([oh.x + oh.radius - e, oh.y + oh.radius - e, oh.z + oh.height - e]))


def hidden_samples(world, observer: str, radius: float, height: float, positions,
                   inset: float = 0.001, min_run: int = 2) -> np.ndarray:
    """(n,) bool: the mover's hitbox (``radius``, ``height``) standing at sample
    ``positions`` (n, 3) (base centres) is proved hidden from ``observer`` by
    scenery, over runs of consecutive samples: the run's box (the samples'
    bounding box widened by the hitbox, ``inset`` inside like the lattices'
    sample points) against the observer's; a run not proved is halved, down
    to ``min_run`` samples. False: not proved (maybe seen)."""
    return hidden_samples_many(world, [observer], radius, height, positions, inset, min_run)[0]


def hidden_samples_many(world, observers, radius: float, height: float, positions,
                        inset: float = 0.001, min_run: int = 2) -> np.ndarray:
    """``hidden_samples`` for several observers, (len(observers), n) bool: the runs of every
    observer at one level of halving go through one numpy pass."""
    P = np.asarray(positions, dtype=float).reshape(-1, 3)
    out = np.zeros((len(observers), len(P)), dtype=bool)
    solids = convex_solids(world)
    if len(P) == 0 or len(solids[1]) == 0 or not len(observers):
        return out
    boxes = [_observer_box(world.hitbox(o), inset) for o in observers]
    e = float(inset)
    w_lo = np.array([radius - e, radius - e, -e])
    w_hi = np.array([radius - e, radius - e, height - e])
    runs = [(k, 0, len(P)) for k in range(len(observers))]
    while runs:
        a_lo = np.array([boxes[k][0] for k, _, _ in runs])
        a_hi = np.array([boxes[k][1] for k, _, _ in runs])
        lo = np.array([P[i:j].min(axis=0) for _, i, j in runs]) - w_lo
        hi = np.array([P[i:j].max(axis=0) for _, i, j in runs]) + w_hi
        ok = _pairs_hidden(a_lo, a_hi, lo, hi, solids)
        nxt = []
        for (k, i, j), h in zip(runs, ok):
            if h:
                out[k, i:j] = True
            elif j - i >= 2 * min_run:
                m = (i + j) // 2
                nxt += [(k, i, m), (k, m, j)]
        runs = nxt
    return out
