"""Proofs of hiding seen from above: tall vertical prisms hide whole columns of sample points.

A convex obstacle that is a vertical prism (a box turned about z, a pillar, a
model's inscribed prism, a block inside a rubble heightfield) blocks every
segment whose projection on the table passes through its footprint, when it
spans the heights the segments can have there: between the two ends' heights,
weighed by how far along the segment the footprint lies (a prism near the
viewer needs to reach about the viewer's heights, not the target's). Such a
question is a 2D one, about the columns of the two lattices (points sharing
x and y), and 2D is cheap enough to take the union of many obstacles at
different depths, which the 3D proofs (one convex obstacle per bundle) cannot:

* from each target column ``t``, each prism's footprint covers an open wedge of
  directions; a viewer column in a wedge and farther from ``t`` than the whole
  footprint is hidden from ``t``;
* a target column is hidden at once when the wedges of the footprints lying
  wholly nearer than the viewer's disk cover the disk's span of directions;
* otherwise each viewer column is tried: in a wedge and beyond the footprint,
  or (in a wedge but not beyond it) an exact segment-polygon test;
* neighbouring target columns are first tried together, from their group's
  centre, each wedge narrowed by the parallax (a group proved hides them all).

A target column hidden from every viewer column is hidden: every segment
between its points and the viewer's points passes through a prism shrunk by
the proofs' margin. Footprints are never grown: a round one (more than
``_POLY`` sides) is replaced by its inscribed circle, a subset. Prisms that
come near either hitbox's disk are left out, as are pairs whose disks overlap
from above; but a model's prism may meet the target's disk (a mover passing
through an ally stands partly inside the ally's prism): it hides only the
columns that see the whole footprint in front of them (a wedge), never one
standing in it or beside it. Pure numpy; the caller passes the prisms' planes.
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
        self.models = np.zeros(K, dtype=bool)

    _FIELDS = ("ok", "top", "bottom", "N2", "D2", "nside", "verts", "nvert", "circle", "cxy", "rin", "rout",
               "models")

    @classmethod
    def cylinders(cls, centres: np.ndarray, radii: np.ndarray, heights: np.ndarray, shrink: float,
                  sections: int = 16) -> "Prisms":
        """Prisms inscribed in vertical cylinders (bottom centres (k, 3)): a ``sections``-gon
        shrunk by ``shrink`` (the hiding proofs' prism of a model), worked out directly."""
        out = cls.__new__(cls)
        c = np.asarray(centres, dtype=float).reshape(-1, 3)
        r = np.asarray(radii, dtype=float)
        h = np.asarray(heights, dtype=float)
        k = len(c)
        ang = (np.arange(sections) + 0.5) * (2 * math.pi / sections)
        n2 = np.column_stack([np.cos(ang), np.sin(ang)])
        rin = r * math.cos(math.pi / sections) - shrink
        out.ok = rin > 0
        out.top, out.bottom = c[:, 2] + h - shrink, c[:, 2] + shrink
        out.N2 = np.broadcast_to(n2, (k, sections, 2)).copy()
        out.D2 = c[:, :2] @ n2.T + rin[:, None]
        out.nside = np.full(k, sections)
        out.verts, out.nvert = np.zeros((k, _POLY, 2)), np.zeros(k, dtype=np.int64)
        out.circle = np.ones(k, dtype=bool)
        out.cxy, out.rin, out.rout = c[:, :2].copy(), rin, rin / math.cos(math.pi / sections)
        out.models = np.ones(k, dtype=bool)
        return out

    def join(self, other: "Prisms") -> "Prisms":
        """These prisms then ``other``'s, as one table (the side planes padded to one width)."""
        out = Prisms.__new__(Prisms)
        m = max(self.N2.shape[1], other.N2.shape[1])
        for name in self._FIELDS:
            a, b = getattr(self, name), getattr(other, name)
            if name in ("N2", "D2"):
                fill = 0.0 if name == "N2" else 1e30
                a, b = (np.concatenate([x, np.full((len(x), m - x.shape[1]) + x.shape[2:], fill)], axis=1)
                        for x in (a, b))
            setattr(out, name, np.concatenate([a, b]))
        return out


def _polygon(n2: np.ndarray, d2: np.ndarray) -> np.ndarray | None:
    """Vertices (ccw) of the convex polygon {x : n2 x <= d2}, or None when it is degenerate
    or one of the planes is redundant (the prism is then not used: a proof only loses it)."""
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
    """(s,) bool: the 2D segment p0[i] -> p1[i] meets the convex polygon {x : n2[i] x <= d2[i]}
    ((s, m, 2), (s, m); rows padded with zero normals and huge offsets) in more than 1e-9
    of its length."""
    a = np.einsum("smk,sk->sm", n2, p0) - d2
    b = np.einsum("smk,sk->sm", n2, p1 - p0)
    par = np.abs(b) <= 1e-14
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.where(par, 0.0, -a / np.where(par, 1.0, b))
    enter = np.maximum(np.where(~par & (b < 0), t, -np.inf).max(axis=1), 0.0)
    leave = np.minimum(np.where(~par & (b > 0), t, np.inf).min(axis=1), 1.0)
    return (leave - enter > 1e-9) & ~(par & (a > 0)).any(axis=1)


def _pseudo(ux, uy, wx, wy) -> tuple[np.ndarray, np.ndarray]:
    """(pseudo-angle, x) of vectors (wx, wy) in the frame of the unit vectors (ux, uy)
    (broadcast): x along u, the pseudo-angle y / (x + |y|) increases with the angle from u
    (used only for points in front, x > 0, where it orders directions exactly)."""
    x = ux * wx + uy * wy
    y = ux * wy - uy * wx
    with np.errstate(divide="ignore", invalid="ignore"):
        return y / (np.abs(x) + np.abs(y)), x


def columns_hidden_many(pr: Prisms, keep: np.ndarray, vxy: np.ndarray, viewer, targets, need_all: bool = False) -> list:
    """For one viewer and several targets (or one target at several places): per target,
    (len(txy),) bool, its columns hidden from every viewer column ``vxy``.

    ``viewer``: (centre, radius, zlo, zhi): the disk holding the viewer's columns and the
    heights of its sample points; ``targets``: (txy, centre, radius, zlo, zhi[, groups])
    each, ``zlo``..``zhi`` the heights of that target's points, ``groups`` None or (group of each column,
    the groups' centres (g, 2), their radii (g,)): neighbouring columns tried together
    first, their wedges narrowed by the parallax. ``keep``: the prisms (indices into
    ``pr``) that may hide. ``need_all``: a target's columns are tried in blocks, and its
    remaining ones are left unproved (False) once one is seen. Everything runs over flat
    (prism, column) pairs."""
    return columns_hidden_multi(pr, [(keep, vxy, viewer, targets)], need_all)[0]


def columns_hidden_multi(pr: Prisms, asks, need_all: bool = False) -> list:
    """``columns_hidden_many`` for several viewers at once: ``asks`` holds (keep, vxy, viewer,
    targets) per viewer; returns per ask its list. Every viewer's targets go through the
    same numpy passes (each target with its own viewer's disk, columns and prisms)."""
    outs = [[np.zeros(len(t[0]), dtype=bool) for t in a[3]] for a in asks]
    flat = [(g, i, t) for g, a in enumerate(asks) if len(a[1]) for i, t in enumerate(a[3])]
    if not flat:
        return outs
    G = len(asks)
    cvg = np.array([np.asarray(a[2][0], dtype=float)[:2] for a in asks])
    rvg = np.array([float(a[2][1]) for a in asks])
    targets = [t for _, _, t in flat]
    tv = np.array([g for g, _, _ in flat], dtype=np.int64)             # viewer of each target
    S_ = len(targets)
    counts = np.array([len(t[0]) for t in targets], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(counts)])

    def result(hidden):
        for k, (g, i, _) in enumerate(flat):
            outs[g][i] = hidden[starts[k]:starts[k + 1]]
        return outs
    if not counts.sum():
        return outs
    txy = np.concatenate([np.asarray(t[0], dtype=float).reshape(-1, 2) for t in targets])
    ct = np.array([np.asarray(t[1], dtype=float)[:2] for t in targets])
    rt = np.array([float(t[2]) for t in targets])
    zlo = np.array([float(t[3]) for t in targets])
    zhi = np.array([float(t[4]) for t in targets])
    cv, rv = cvg[tv], rvg[tv]                                                    # (S, 2), (S,)
    zv0 = np.array([float(asks[g][2][2]) for g in tv])
    zv1 = np.array([float(asks[g][2][3]) for g in tv])
    L = np.linalg.norm(ct - cv, axis=1)
    usable = np.zeros((G, len(pr.ok)), dtype=bool)                              # prisms each viewer may use
    for g, a in enumerate(asks):
        usable[g, np.asarray(a[0], dtype=np.int64)] = True
    usable &= pr.ok[None, :]
    k0 = np.nonzero(usable.any(axis=0))[0]
    # prisms near some target's stadium (the segments between the two disks lie in it)
    ab = (ct - cv) / np.maximum(L, 1e-12)[:, None]                            # (S, 2)
    tt = np.clip(pr.cxy[k0] @ ab.T - np.einsum("sj,sj->s", cv, ab)[None, :], 0.0, L[None, :])   # (K, S)
    gx = cv[:, 0][None, :] + tt * ab[:, 0] - pr.cxy[k0, 0][:, None]
    gy = cv[:, 1][None, :] + tt * ab[:, 1] - pr.cxy[k0, 1][:, None]
    valid = np.hypot(gx, gy) <= pr.rout[k0][:, None] + np.maximum(rv, rt)[None, :] + 1e-6
    valid &= (L > rv + rt + 1e-6)[None, :]
    if G > 1:
        valid &= usable[:, k0][tv].T
    # tall enough where the segments cross it: from a target column, the crossing lies at a
    # share u of the way to the viewer column, between the nearest and the farthest point of
    # the footprint over the distance, so the segment's height there lies between the
    # target's and the viewer's heights weighed by u (the parallax)
    dc = np.hypot(pr.cxy[k0, 0][:, None] - ct[None, :, 0], pr.cxy[k0, 1][:, None] - ct[None, :, 1])
    reach = pr.rout[k0][:, None] + rt[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        umin = np.clip(np.maximum(dc - reach, 0.0) / (L + rv + rt)[None, :], 0.0, 1.0)
        lmin = (L - rv - rt)[None, :]
        umax = np.where(lmin > 0, np.clip((dc + reach) / np.where(lmin > 0, lmin, 1.0), 0.0, 1.0), 1.0)
    need_hi = np.maximum(zhi + umin * (zv1 - zhi), zhi + umax * (zv1 - zhi))
    need_lo = np.minimum(zlo + umin * (zv0 - zlo), zlo + umax * (zv0 - zlo))
    valid &= (pr.top[k0][:, None] > need_hi + _EPS) & (pr.bottom[k0][:, None] < need_lo - _EPS)
    some = valid.any(axis=1)
    k0, valid = k0[some], valid[some]
    if not len(k0):
        return outs
    # clear of the viewer's disk and of each target's (a lower bound of the distance: the
    # farthest face plane); but a model's prism may meet a target's disk (a mover passing
    # through an ally): a column in it or beside it gets no wedge from it (the footprint
    # must lie wholly in front of the column, ``_wedges``), so it never hides one
    sdv = (np.einsum("kmj,gj->kmg", pr.N2[k0], cvg) - pr.D2[k0][:, :, None]).max(axis=1)   # (K, G)
    valid &= (sdv > rvg[None, :] + 1e-6)[:, tv]
    sdt = (np.einsum("kmj,sj->kms", pr.N2[k0], ct) - pr.D2[k0][:, :, None]).max(axis=1)   # (K, S)
    valid &= (sdt > rt[None, :] + 1e-6) | pr.models[k0][:, None]
    vk, vs = np.nonzero(valid)
    if not len(vk):
        return outs
    owner = np.repeat(np.arange(S_), counts)           # target of each column
    hidden = np.zeros(len(txy), dtype=bool)
    # groups of neighbouring columns first: a group proved hides all its columns
    gsets = [t[5] if len(t) > 5 else None for t in targets]
    if any(g is not None for g in gsets):
        gc, gr, gcount = [], [], []
        for i, g in enumerate(gsets):
            if g is None:
                gcount.append(0)
                continue
            gcount.append(len(g[1]))
            gc.append(np.asarray(g[1], dtype=float).reshape(-1, 2))
            gr.append(np.asarray(g[2], dtype=float))
        gcount = np.array(gcount, dtype=np.int64)
        gstarts = np.concatenate([[0], np.cumsum(gcount)])
        if gcount.sum():
            gxy, grad = np.concatenate(gc), np.concatenate(gr)
            gown = np.repeat(np.arange(S_), gcount)
            pk, pc = _pairs(k0, vk, vs, gcount, gstarts)
            gdone = _wedges(pr, pk, pc, gxy, grad, cv[gown], rv[gown])[5]
            for i, g in enumerate(gsets):
                if g is not None and gcount[i]:
                    hidden[starts[i]:starts[i + 1]] = gdone[gstarts[i]:gstarts[i + 1]][np.asarray(g[0])]
    # each column not yet proved, alone
    todo = np.nonzero(~hidden)[0]
    if not len(todo):
        return result(hidden)
    sub_counts = np.bincount(owner[todo], minlength=S_)
    sub_starts = np.concatenate([[0], np.cumsum(sub_counts)])
    pk, pc = _pairs(k0, vk, vs, sub_counts, sub_starts)
    cxy = txy[todo]
    tod_t = owner[todo]
    pk, pc, lo, hi, far, covered = _wedges(pr, pk, pc, cxy, np.zeros(len(todo)), cv[tod_t], rv[tod_t])
    hidden[todo[covered]] = True
    # column by column for the others, in blocks when one seen column settles a target
    rest = np.nonzero(~covered)[0]
    if len(rest):
        order = np.argsort(pc, kind="stable")
        pk, pc, lo, hi, far = pk[order], pc[order], lo[order], hi[order], far[order]
        first = np.searchsorted(pc, np.arange(len(todo)))
        last = np.searchsorted(pc, np.arange(len(todo)), side="right")
        rown = owner[todo[rest]]
        # each target's open columns numbered 0, 1, ... (blocks of ``_BLOCK``)
        blocks = (np.arange(len(rest)) - np.searchsorted(rown, rown)) // _BLOCK if need_all else \
            np.zeros(len(rest), dtype=np.int64)
        w0 = cv[tod_t] - cxy
        dist = np.hypot(w0[:, 0], w0[:, 1])
        ux, uy = w0[:, 0] / dist, w0[:, 1] / dist
        # every viewer's columns, padded to one count by repeating its last (which changes
        # no answer: a column hidden from all of them is hidden from that one again)
        m = max(len(a[1]) for a in asks)
        VG = np.zeros((G, m, 2))
        for g, a in enumerate(asks):
            v = np.asarray(a[1], dtype=float).reshape(-1, 2)
            if len(v):
                VG[g] = v[np.minimum(np.arange(m), len(v) - 1)] if len(v) < m else v
        vg = tv[tod_t]                                                            # viewer of each open column
        failed = np.zeros(S_, dtype=bool)
        for b in range(int(blocks.max()) + 1):
            cols = rest[(blocks == b) & ~failed[rown]]
            if not len(cols):
                break
            got = _by_column(pr, cols, first, last, pk, lo, hi, far, VG, vg, cxy[:, 0], cxy[:, 1], ux, uy)
            hidden[todo[cols]] = got
            if need_all:
                failed[owner[todo[cols[~got]]]] = True
    return result(hidden)


def _pairs(k0, vk, vs, counts, starts) -> tuple[np.ndarray, np.ndarray]:
    """Flat (prism, point) pairs: for each valid (prism k0[vk], target vs), every point of
    that target (``counts``, ``starts``: the targets' points in the flat point list)."""
    reps = counts[vs]
    pk = np.repeat(k0[vk], reps)
    off = np.cumsum(reps) - reps
    pc = np.arange(int(reps.sum())) - np.repeat(off, reps) + np.repeat(starts[vs], reps)
    return pk, pc


def _wedges(pr: Prisms, pk, pc, pts, rad, cv, rv):
    """Each (prism pk, point pc) pair's wedge (lo, hi: pseudo-angles from the direction from
    the point to the viewer's centre) and far distance, valid from anywhere within ``rad``
    of the point; and per point, whether the wedges of the prisms wholly nearer than the
    viewer's disk cover it (``cv`` (2,) or (points, 2), ``rv`` the viewer's disk per point). The wedges are narrowed by the parallax asin(rad / distance)
    (a pseudo-angle changes no faster than the angle); pairs that are not usable are dropped."""
    px, py = pts[:, 0], pts[:, 1]
    w0x, w0y = cv[..., 0] - px, cv[..., 1] - py
    dist_v = np.hypot(w0x, w0y)
    ux, uy = w0x / dist_v, w0y / dist_v
    lo = np.full(len(pk), np.inf)
    hi = np.full(len(pk), -np.inf)
    far = np.full(len(pk), np.inf)
    circ = pr.circle[pk]
    sel = np.nonzero(~circ)[0]
    if len(sel):
        kk, cc = pk[sel], pc[sel]
        nv = int(pr.nvert[kk].max())
        # (v, P), C order: the reductions over the vertices then run over whole rows
        wx = np.ascontiguousarray(pr.verts[kk, :nv, 0].T) - px[cc]
        wy = np.ascontiguousarray(pr.verts[kk, :nv, 1].T) - py[cc]
        a, x = _pseudo(ux[cc], uy[cc], wx, wy)
        d = np.sqrt(wx * wx + wy * wy)
        r = rad[cc]
        par = np.arcsin(np.clip(r / np.maximum(d.min(axis=0), 1e-12), 0.0, 1.0))
        good = (x > r + 1e-9).all(axis=0)      # wholly in front, from anywhere near the point
        lo[sel] = np.where(good, a.min(axis=0) + par + _EPS, np.inf)
        hi[sel] = np.where(good, a.max(axis=0) - par - _EPS, -np.inf)
        far[sel] = d.max(axis=0) + r
    sel = np.nonzero(circ)[0]
    if len(sel):
        kk, cc = pk[sel], pc[sel]
        wx, wy = pr.cxy[kk, 0] - px[cc], pr.cxy[kk, 1] - py[cc]
        d = np.hypot(wx, wy)
        ri = pr.rin[kk]
        r = rad[cc]
        sn = np.clip(ri / np.maximum(d, 1e-12), 0.0, 1.0)
        cs = np.sqrt(1.0 - sn * sn)
        # the two tangent directions: w turned by -/+ asin(ri / d); the tangent points lie
        # sqrt(d^2 - ri^2) away
        a1, x1 = _pseudo(ux[cc], uy[cc], wx * cs + wy * sn, wy * cs - wx * sn)
        a2, x2 = _pseudo(ux[cc], uy[cc], wx * cs - wy * sn, wy * cs + wx * sn)
        par = np.arcsin(np.clip(r / np.maximum(d * cs, 1e-12), 0.0, 1.0))
        good = (d > ri + r + 1e-9) & (ux[cc] * wx + uy[cc] * wy > ri + r + 1e-9)
        lo[sel] = np.where(good, a1 + par + _EPS, np.inf)
        hi[sel] = np.where(good, a2 - par - _EPS, -np.inf)
        far[sel] = d + ri + r
    usable = lo < hi
    pk, pc, lo, hi, far = pk[usable], pc[usable], lo[usable], hi[usable], far[usable]
    # the viewer's disk seen from anywhere near the point: within asin((rv + rad) / dist)
    sb = np.clip((rv + rad) / dist_v, 0.0, 1.0)
    beta = sb / (np.sqrt(1.0 - sb * sb) + sb)          # as a pseudo-angle
    covered = _covered_flat(pc, lo, hi, far < (dist_v - rv - rad - _EPS)[pc], beta)
    covered &= (rv + rad) < dist_v
    return pk, pc, lo, hi, far, covered


_BLOCK = 32


def _covered_flat(pc, lo, hi, between, beta) -> np.ndarray:
    """(columns,) bool: the open intervals (lo, hi) of the ``between`` pairs of each column
    ``pc`` cover [-beta, beta] of that column (one sort: the column's number, times 4, is
    added to its pseudo-angles, which lie within [-1, 1])."""
    n = len(beta)
    out = np.zeros(n, dtype=bool)
    c = pc[between]
    if not len(c):
        return out
    s = lo[between] + 4.0 * c
    e = hi[between] + 4.0 * c
    o = np.argsort(s, kind="stable")
    s, e, c = s[o], e[o], c[o]
    reach = np.maximum.accumulate(e)
    base = 4.0 * c
    before = np.maximum(base - beta[c], np.concatenate([[-np.inf], reach[:-1]]))
    gap = np.zeros(n, dtype=bool)
    gap[c[(s >= before) & (before <= base + beta[c])]] = True
    last = np.nonzero(np.concatenate([c[1:] != c[:-1], [True]]))[0]
    out[c[last]] = reach[last] > base[last] + beta[c[last]]
    return out & ~gap


def _by_column(pr: Prisms, cols, first, last, pk, lo, hi, far, VG, vg, tx, ty, ux, uy) -> np.ndarray:
    """(len(cols),) bool: each target column hidden from every column of its viewer (``VG``
    (viewers, m, 2), the viewer of each column ``vg``), one viewer column at a time: in a
    prism's wedge and beyond it, or an exact segment-polygon test. The (prism, column)
    pairs are sorted by column: ``first``/``last`` bound each column's."""
    a, b = first[cols], last[cols]
    cnt = b - a
    idx = np.repeat(a - np.cumsum(cnt) + cnt, cnt) + np.arange(int(cnt.sum()))   # the columns' pairs
    row = np.repeat(np.arange(len(cols)), cnt)                                    # their column (in cols)
    out = np.zeros(len(cols), dtype=bool)
    if not len(idx):
        return out
    c = cols[row]
    # directions and distances to the viewer columns, once per target column (not per pair)
    vxy = VG[vg[cols]]                                                           # (columns, m, 2)
    wvx = vxy[:, :, 0] - tx[cols][:, None]                                       # (columns, m)
    wvy = vxy[:, :, 1] - ty[cols][:, None]
    phi = _pseudo(ux[cols][:, None], uy[cols][:, None], wvx, wvy)[0][row]       # (pairs, m)
    inw = (lo[idx][:, None] < phi) & (phi < hi[idx][:, None])
    beyond = inw & (np.hypot(wvx, wvy)[row] > far[idx][:, None] + _EPS)
    starts = np.concatenate([[0], np.cumsum(cnt)[:-1]])
    has = cnt > 0
    hid = np.zeros((len(cols), vxy.shape[1]), dtype=bool)
    anyw = np.zeros((len(cols), vxy.shape[1]), dtype=bool)
    hid[has] = np.logical_or.reduceat(beyond, starts[has], axis=0)
    anyw[has] = np.logical_or.reduceat(inw, starts[has], axis=0)
    alive = anyw.all(axis=1)               # a viewer column in no wedge: the target column is seen
    amb = inw & ~hid[row] & alive[row][:, None]
    pi, vj = np.nonzero(amb)
    if len(pi):
        k = pk[idx[pi]]
        ns = int(pr.nside[k].max())
        got = _crosses(np.column_stack([tx[c[pi]], ty[c[pi]]]), vxy[row[pi], vj], pr.N2[k, :ns], pr.D2[k, :ns])
        hid[row[pi[got]], vj[got]] = True
    out[:] = alive & hid.all(axis=1)
    return out
