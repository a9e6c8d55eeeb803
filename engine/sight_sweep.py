"""Proofs that an observer never sees a mover along a path, by whole stretches.

``engine.sight.los_along_path`` samples the path every ``path_step_in`` and
asks LoS at each sample; an observer hidden the whole way costs a hiding proof
per sample. This module proves whole stretches hidden at once:

* the mover's hitboxes over a straight stretch of the path lie in one box (the
  stretch's bounding box, widened by the base radius in x and y and raised by
  the hitbox height); the observer's hitbox lies in its own box;
* if every one of the 64 segments between the two boxes' corners passes
  through one convex solid of the scenery (shrunk by ``SHRINK``, so no grazing
  contact counts) that neither box enters (a face plane has the whole box
  outside), then every segment
  between any point of one box and any point of the other does: for a fixed
  end, the segments that meet a convex body have their other end in a convex
  set, so the corners prove it for each box in turn;
* stretches not proved are halved, down to ``max_depth`` halvings; it gives
  up when a stretch shorter than ``min_stretch`` is not proved.

Only scenery proves anything here (models and forests can only hide more), and
the caller must not use it where a state or trait gives LoS regardless
(Flying, Engaged). It never decides "visible": an observer it cannot prove
hidden everywhere is left to the sampled search.
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


def boxes_hidden(a_lo, a_hi, b_lo, b_hi, solids) -> np.ndarray:
    """(k,) bool: every segment between box A (a_lo, a_hi: (3,)) and box k of B
    (b_lo, b_hi: (k, 3)) passes through one convex solid (see the module)."""
    N, D, cen, rad, _ = solids
    b_lo = np.asarray(b_lo, dtype=float).reshape(-1, 3)
    b_hi = np.asarray(b_hi, dtype=float).reshape(-1, 3)
    out = np.zeros(len(b_lo), dtype=bool)
    if len(b_lo) == 0 or len(D) == 0:
        return out
    a_lo, a_hi = np.asarray(a_lo, dtype=float), np.asarray(a_hi, dtype=float)

    def apart(lo, hi, j):       # (P,): a face plane of solid j[p] has box p wholly outside
        C = _corners(lo, hi)                                        # (P, 8, 3)
        s = np.einsum("pvc,pmc->pmv", C, N[j]) - D[j][:, :, None]   # (P, m, 8)
        return np.any(np.all(s > 1e-6, axis=2), axis=1)
    ca = 0.5 * (a_lo + a_hi)
    cb = 0.5 * (b_lo + b_hi)
    # necessary: the segment between the centres passes near the solid (its sphere)
    ab = cb - ca
    L2 = np.maximum(np.einsum("kc,kc->k", ab, ab), 1e-30)
    t = np.clip(((cen[None] - ca) * ab[:, None, :]).sum(axis=2) / L2[:, None], 0.0, 1.0)
    gap = ca + t[..., None] * ab[:, None, :] - cen[None]
    cand = np.einsum("kjc,kjc->kj", gap, gap) <= rad[None, :] ** 2
    kk, jj = np.nonzero(cand)
    if len(kk) == 0:
        return out
    # no point of either box inside the solid (a segment from inside proves nothing)
    keep = apart(np.repeat(a_lo[None], len(jj), 0), np.repeat(a_hi[None], len(jj), 0), jj) & \
        apart(b_lo[kk], b_hi[kk], jj)
    kk, jj = kk[keep], jj[keep]
    if len(kk) == 0:
        return out
    A = _corners(a_lo[None], a_hi[None])[0]                      # (8, 3)
    B = _corners(b_lo, b_hi)                                     # (k, 8, 3)
    # cheap rejections first: the centres' segment, then the 8 corner-to-corner
    # ones of the same index, then all 64
    live = _segments_meet(ca[None, None].repeat(len(kk), 0), cb[kk][:, None], N[jj], D[jj])[:, 0]
    kk, jj = kk[live], jj[live]
    if len(kk):
        live = _segments_meet(np.broadcast_to(A[None], (len(kk), 8, 3)), B[kk], N[jj], D[jj]).all(axis=1)
        kk, jj = kk[live], jj[live]
    if len(kk):
        p0 = np.broadcast_to(A[None, :, None, :], (len(kk), 8, 8, 3)).reshape(len(kk), 64, 3)
        p1 = np.broadcast_to(B[kk][:, None, :, :], (len(kk), 8, 8, 3)).reshape(len(kk), 64, 3)
        ok = _segments_meet(p0, p1, N[jj], D[jj]).all(axis=1)
        out[kk[ok]] = True
    return out


def never_seen(world, observer: str, mover: str, path_points, inset: float = 0.001,
               max_depth: int = 6, min_stretch: float = 0.25) -> bool:
    """True only if no sample point of ``observer``'s hitbox sees any sample point
    of ``mover``'s hitbox placed anywhere on the polyline ``path_points`` ((n, 3)
    base centres, straight between points), by scenery alone. The sample points
    lie ``inset`` inside the hitboxes (engine.sight's lattices: ``inset_in``), so a
    base resting on the surface proves nothing against a wall standing on it.
    False: not proved (maybe seen)."""
    solids = convex_solids(world)
    if len(solids[1]) == 0:
        return False
    oh, mh = world.hitbox(observer), world.hitbox(mover)
    e = float(inset)
    a_lo = np.array([oh.x - oh.radius + e, oh.y - oh.radius + e, oh.z + e])
    a_hi = np.array([oh.x + oh.radius - e, oh.y + oh.radius - e, oh.z + oh.height - e])
    P = np.asarray(path_points, dtype=float).reshape(-1, 3)
    if len(P) == 1:
        P = np.vstack([P, P])
    p, q = P[:-1], P[1:]
    widen_lo = np.array([mh.radius - e, mh.radius - e, -e])
    widen_hi = np.array([mh.radius - e, mh.radius - e, mh.height - e])
    for depth in range(max_depth + 1):
        ok = boxes_hidden(a_lo, a_hi, np.minimum(p, q) - widen_lo, np.maximum(p, q) + widen_hi, solids)
        p, q = p[~ok], q[~ok]
        if len(p) == 0:
            return True
        # a stretch already shorter than min_stretch that no solid hides: give up
        if depth == max_depth or (np.linalg.norm(q - p, axis=1) < min_stretch).any():
            return False
        m = 0.5 * (p + q)
        p, q = np.concatenate([p, m]), np.concatenate([m, q])
    return False
