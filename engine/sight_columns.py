"""Proofs of hiding seen from above: tall vertical prisms hide whole columns of sample points.

A convex obstacle that is a vertical prism (a box turned about z, a pillar, a
model's inscribed prism, a block inside a rubble heightfield) and spans the
whole height of both hitboxes' sample points blocks every segment whose
projection on the table passes through its footprint: at that place the
segment's height lies between its ends' heights, so inside the prism. Such a
question is a 2D one, about the columns of the two lattices (points sharing
x and y), and 2D is cheap enough to take the union of many obstacles at
different depths, which the 3D proofs (one convex obstacle per bundle) cannot:

* from each target column ``t``, each prism's footprint covers an open wedge of
  directions; a viewer column in a wedge and farther from ``t`` than the whole
  footprint is hidden from ``t``;
* a target column is hidden at once when the wedges of the footprints lying
  wholly nearer than the viewer's disk cover the disk's span of directions;
* otherwise each viewer column is tried: in a wedge and beyond the footprint,
  or (in a wedge but not beyond it) an exact segment-polygon test.

A target column hidden from every viewer column is hidden: every segment
between its points and the viewer's points passes through a prism shrunk by
the proofs' margin. Footprints are never grown: a round one (more than
``_POLY`` sides) is replaced by its inscribed circle, a subset. Prisms that
come near either hitbox's disk are left out, as are pairs whose disks overlap
from above. Pure numpy; the caller passes the prisms' planes.
"""
from __future__ import annotations

import math

import numpy as np

_POLY = 8            # footprints with more sides are used as their inscribed circle for the wedges
_EPS = 1e-9


class Prisms:
    """The vertical prisms among convex obstacles given as padded planes.

    ``N`` (K, m, 3), ``D`` (K, m): {x : N x <= D} (rows padded with zero normals and
    offsets of at least 1e29), already shrunk by the proofs' margin.
    """

    def __init__(self, N: np.ndarray, D: np.ndarray):
        K, m = D.shape
        real = D < 1e29
        nz = N[..., 2]
        up = real & (nz > 1 - 1e-12)
        down = real & (nz < -1 + 1e-12)
        side = real & (np.abs(nz) < 1e-12)
        ok = ((up | down | side) == real).all(axis=1) & (up.sum(axis=1) == 1) & (down.sum(axis=1) == 1)
        ok &= side.sum(axis=1) >= 3
        self.top = np.where(up, D, -np.inf).max(axis=1)
        self.bottom = -np.where(down, D, -np.inf).max(axis=1)
        # side planes in 2D, padded (zero normals, huge offsets: every point satisfies them)
        ms = max(3, int(side.sum(axis=1).max()) if K else 3)
        self.N2 = np.zeros((K, ms, 2))
        self.D2 = np.full((K, ms), 1e30)
        self.nside = side.sum(axis=1)
        verts = np.zeros((K, _POLY, 2))
        self.nvert = np.zeros(K, dtype=np.int64)
        circle = np.zeros(K, dtype=bool)
        cxy = np.zeros((K, 2))
        rin = np.zeros(K)
        rout = np.zeros(K)
        for k in np.nonzero(ok)[0]:
            n2, d2 = N[k, side[k], :2], D[k, side[k]]
            self.N2[k, :len(d2)] = n2
            self.D2[k, :len(d2)] = d2
            v = _polygon(n2, d2)
            if v is None:
                ok[k] = False
                continue
            c = v.mean(axis=0)
            cxy[k] = c
            rout[k] = float(np.linalg.norm(v - c, axis=1).max())
            if len(v) > _POLY:
                circle[k] = True
                rin[k] = float((d2 - n2 @ c).min())
                if rin[k] <= 0:
                    ok[k] = False
            else:
                verts[k] = v[np.resize(np.arange(len(v)), _POLY)]
                self.nvert[k] = len(v)
        self.ok, self.circle, self.verts, self.cxy, self.rin, self.rout = ok, circle, verts, cxy, rin, rout


def _polygon(n2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    """Vertices (ccw) of the convex polygon {x : n2 x <= d2}, or None when degenerate or
    when a plane is redundant (the polygon is then built from the others by its caller's
    rules; here it is simply not used)."""
    ang = np.arctan2(n2[:, 1], n2[:, 0])
    o = np.argsort(ang)
    n2, d2 = n2[o], d2[o]
    a, b = n2, np.roll(n2, -1, axis=0)
    det = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    if (np.abs(det) < 1e-12).any():
        return None
    db = np.roll(d2, -1)
    x = (d2 * b[:, 1] - db * a[:, 1]) / det
    y = (a[:, 0] * db - b[:, 0] * d2) / det
    v = np.column_stack([x, y])
    if ((v @ n2.T - d2[None, :]) > 1e-7).any():
        return None
    return v


def _crosses(p0: np.ndarray, p1: np.ndarray, n2: np.ndarray, d2: np.ndarray) -> np.ndarray:
    """(s,) bool: the 2D segment p0 -> p1 meets {x : n2 x <= d2} in more than 1e-9 of its length."""
    a = p0 @ n2.T - d2[None, :]
    b = (p1 - p0) @ n2.T
    par = np.abs(b) <= 1e-14
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(par, 0.0, -a / np.where(par, 1.0, b))
    enter = np.maximum(np.where(~par & (b < 0), s, -np.inf).max(axis=1), 0.0)
    leave = np.minimum(np.where(~par & (b > 0), s, np.inf).min(axis=1), 1.0)
    return (leave - enter > 1e-9) & ~(par & (a > 0)).any(axis=1)


def _pseudo(ux, uy, wx, wy) -> tuple[np.ndarray, np.ndarray]:
    """(pseudo-angle, x) of vectors (wx, wy) in the frame of the unit vectors (ux, uy)
    (broadcast): x along u, the pseudo-angle y / (x + |y|) increases with the angle from u
    (used only for points in front, x > 0, where it orders directions exactly)."""
    x = ux * wx + uy * wy
    y = ux * wy - uy * wx
    with np.errstate(divide="ignore", invalid="ignore"):
        return y / (np.abs(x) + np.abs(y)), x


def _covered(lo: np.ndarray, hi: np.ndarray, beta: np.ndarray) -> np.ndarray:
    """(n,) bool: the open intervals (lo[k, i], hi[k, i]) cover [-beta[i], beta[i]] (k: the
    first axis, i: the columns)."""
    o = np.argsort(lo, axis=0)
    s = np.take_along_axis(lo, o, axis=0)
    e = np.take_along_axis(hi, o, axis=0)
    reach = np.maximum.accumulate(e, axis=0)
    before = np.maximum(-beta[None, :], np.concatenate([np.full((1, lo.shape[1]), -np.inf), reach[:-1]], axis=0))
    gap = ((s >= before) & (before <= beta[None, :])).any(axis=0)
    return ~gap & (reach[-1] > beta)


def columns_hidden(pr: Prisms, keep: np.ndarray, vxy: np.ndarray, txy: np.ndarray, cv, rv: float, ct, rt: float,
                   zlo: float, zhi: float, need_all: bool = False) -> np.ndarray:
    """(len(txy),) bool: the target column at ``txy[i]`` is hidden from every viewer column
    ``vxy`` by the prisms ``keep`` (indices into ``pr``) spanning heights ``zlo``..``zhi``.

    ``cv``, ``rv`` and ``ct``, ``rt``: the viewer's and the target's disks (x, y, radius),
    holding their columns. ``need_all``: stop at the first block of columns holding one
    that is not hidden (the columns not reached are answered False: not proved). Arrays are laid out prisms first, columns
    last (numpy's inner loops then run along the columns)."""
    out = np.zeros(len(txy), dtype=bool)
    cv, ct = np.asarray(cv, dtype=float)[:2], np.asarray(ct, dtype=float)[:2]
    L = float(np.linalg.norm(ct - cv))
    if not len(txy) or not len(vxy) or L <= rv + rt + 1e-6:
        return out
    k = keep[pr.ok[keep] & (pr.top[keep] > zhi + _EPS) & (pr.bottom[keep] < zlo - _EPS)]
    if not len(k):
        return out
    # near the stadium holding every segment, and clear of both disks (a prism a column
    # could stand in is left out: the proof needs every sample point outside it)
    ab = (ct - cv) / L
    t_ = np.clip((pr.cxy[k] - cv) @ ab, 0.0, L)
    near = np.linalg.norm(cv + t_[:, None] * ab - pr.cxy[k], axis=1) <= pr.rout[k] + max(rv, rt) + 1e-6
    k = k[near]
    for c, r in ((cv, rv), (ct, rt)):
        if len(k):
            sd = (pr.N2[k] @ c - pr.D2[k]).max(axis=1)           # a lower bound of the distance
            k = k[sd > r + 1e-6]
    if not len(k):
        return out
    # each prism's wedge (pseudo-angles from the direction to the viewer's centre) and far
    # distance, from each target column: (prisms, columns)
    tx, ty = txy[:, 0], txy[:, 1]
    w0x, w0y = cv[0] - tx, cv[1] - ty
    dist_v = np.hypot(w0x, w0y)
    ux, uy = w0x / dist_v, w0y / dist_v
    K, n = len(k), len(txy)
    lo = np.full((K, n), np.inf)
    hi = np.full((K, n), -np.inf)
    far = np.full((K, n), np.inf)
    circ = pr.circle[k]
    pk = np.nonzero(~circ)[0]
    if len(pk):
        nv = int(pr.nvert[k[pk]].max())
        wx = pr.verts[k[pk], :nv, 0].T[:, :, None] - tx                         # (v, P, n)
        wy = pr.verts[k[pk], :nv, 1].T[:, :, None] - ty
        a, x = _pseudo(ux, uy, wx, wy)
        good = (x > 1e-9).all(axis=0)            # wholly in front of the column (no wrap-around)
        lo[pk] = np.where(good, a.min(axis=0) + _EPS, np.inf)
        hi[pk] = np.where(good, a.max(axis=0) - _EPS, -np.inf)
        far[pk] = np.sqrt(wx * wx + wy * wy).max(axis=0)
    ck = np.nonzero(circ)[0]
    if len(ck):
        wx = pr.cxy[k[ck], 0][:, None] - tx                                     # (C, n)
        wy = pr.cxy[k[ck], 1][:, None] - ty
        d = np.hypot(wx, wy)
        ri = pr.rin[k[ck]][:, None]
        sn = np.clip(ri / np.maximum(d, 1e-12), 0.0, 1.0)
        cs = np.sqrt(1.0 - sn * sn)
        # the two tangent directions: w turned by -/+ asin(ri / d)
        a1, x1 = _pseudo(ux, uy, wx * cs + wy * sn, wy * cs - wx * sn)
        a2, x2 = _pseudo(ux, uy, wx * cs - wy * sn, wy * cs + wx * sn)
        good = (d > ri + 1e-9) & (x1 > 1e-9) & (x2 > 1e-9) & (ux * wx + uy * wy > ri)
        lo[ck] = np.where(good, a1 + _EPS, np.inf)
        hi[ck] = np.where(good, a2 - _EPS, -np.inf)
        far[ck] = d + ri
    # the whole viewer disk: the wedges of the prisms wholly nearer than it
    sb = np.clip(rv / dist_v, 0.0, 1.0)
    beta = sb / (np.sqrt(1.0 - sb * sb) + sb)                 # the disk's half-span, as a pseudo-angle
    between = far < dist_v - rv - _EPS
    out[:] = _covered(np.where(between, lo, np.inf), np.where(between, hi, -np.inf), beta)
    rest = np.nonzero(~out)[0]
    if not len(rest):
        return out
    # column by column for the others (in blocks when one seen column settles it)
    step = _BLOCK if need_all else len(rest)
    for b0 in range(0, len(rest), step):
        blk = rest[b0:b0 + step]
        out[blk] = _by_column(pr, k, vxy, txy[blk], ux[blk], uy[blk], lo[:, blk], hi[:, blk], far[:, blk])
        if need_all and not out[blk].all():
            break
    return out


_BLOCK = 32


def _by_column(pr: Prisms, k, vxy, txy, ux, uy, lo, hi, far) -> np.ndarray:
    """(n,) bool: each target column hidden from every viewer column, one viewer column at a
    time: in a wedge and beyond the prism, or an exact segment-polygon test."""
    wvx = vxy[:, 0] - txy[:, 0][:, None]                                       # (n, m)
    wvy = vxy[:, 1] - txy[:, 1][:, None]
    phi = _pseudo(ux[:, None], uy[:, None], wvx, wvy)[0]
    rho = np.hypot(wvx, wvy)
    lo_, hi_, far_ = lo[:, :, None], hi[:, :, None], far[:, :, None]
    inw = (lo_ < phi) & (phi < hi_)                                            # (K, n, m)
    hid = (inw & (rho > far_ + _EPS)).any(axis=0)
    alive = inw.any(axis=0).all(axis=1)       # a viewer column in no wedge: the target column is seen
    amb = inw & ~hid & alive[:, None]
    if amb.any():
        kk, ii, jj = np.nonzero(amb)
        for q in np.unique(kk):
            sel = np.nonzero(kk == q)[0]
            sel = sel[~hid[ii[sel], jj[sel]]]
            if not len(sel):
                continue
            kq = k[q]
            ns = int(pr.nside[kq])
            got = _crosses(txy[ii[sel]], vxy[jj[sel]], pr.N2[kq, :ns], pr.D2[kq, :ns])
            hid[ii[sel][got], jj[sel][got]] = True
    return alive & hid.all(axis=1)
