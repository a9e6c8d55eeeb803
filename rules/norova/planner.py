"""A walking map for the Norova bots: routes around scenery.

The greedy bot closes in with straight moves. Behind a wall or a pillar no
straight move gets it nearer its enemy, and it would stand there until the
round limit. This planner finds it a way round, asking the geometry only the
protocol's questions (``ground``, through the rules' ``why_illegal``):

* a grid of ``CELL``-inch cells over the table; a cell is free for the mover
  when every ``SAMPLE``-inch lattice point under its base (``MARGIN`` wider, for
  the edges between the samples) lies within ``step``
  of the mover's feet (half its hitbox, or the game's step height when less:
  taller scenery is walked round, not over, since a walk may not climb it;
  lower ground is not stepped down to) and the base stays on the table;
  an enemy's base blocks, any other base may be crossed but not ended on;
* the *attack cells* of a target: free cells whose base is within the weapon's
  range of the target's base, with the ground along the straight line to it
  no higher than ``SIGHT_STEP`` above the feet (nothing to stop or cover the
  blow or the shot: the rules refuse a covered target);
* the walking distance from every cell to the nearest attack cell (a Dijkstra
  from the attack cells, 8 neighbours, no corner cutting), and the walking
  cost of every cell from the mover;
* the move: the cell within the allowance with the least distance left (then
  the cheapest), its path pulled straight where the grid allows, checked by
  the rules like any other move. A plan is a proposal, never a ruling.

Single-level: the mover's own level only (no climbs, no drops; the bot climbs
with straight ``climb`` moves where no walk goes).
"""
from __future__ import annotations

import heapq
import math

CELL = 0.5             # inches between grid cells
SAMPLE = 0.25          # inches between the ground samples
MARGIN = 0.2           # inches added to the base when its ground is sampled (an edge between samples)
CONTACT = 0.05         # inches kept from an enemy's base (the table stops a walk at contact)
SIGHT_STEP = 0.25      # ground higher than this above the feet stops a blow or a shot in the plan
DIAG = math.sqrt(2.0)
NEIGHBOURS = [(1, 0, 1.0), (-1, 0, 1.0), (0, 1, 1.0), (0, -1, 1.0),
              (1, 1, DIAG), (1, -1, DIAG), (-1, 1, DIAG), (-1, -1, DIAG)]


class WalkMap:
    """The ground samples of one table (cached: the scenery does not move)."""

    def __init__(self, geometry, table: tuple[float, float]):
        self.geo = geometry
        self.W, self.D = float(table[0]), float(table[1])
        self.nx, self.ny = int(self.W / CELL), int(self.D / CELL)
        self._ground: dict[tuple[int, int], float] = {}
        self._free: dict[tuple, bool] = {}
        self._filled = False

    def z(self, a: int, b: int) -> float:
        k = (a, b)
        v = self._ground.get(k)
        if v is None and not self._filled:
            self._fill()
            v = self._ground.get(k)
        if v is None:
            v = self._ground[k] = float(self.geo.ground(a * SAMPLE, b * SAMPLE)[2])
        return v

    def _fill(self) -> None:
        """Every sample on the table in one question, where the geometry answers many
        points at once (``ground_many``: the same heights as ``ground`` point by point);
        a planned route samples most of the table, and one question per sample is what
        made a walk round the scenery slow."""
        self._filled = True
        many = getattr(self.geo, "ground_many", None)
        if many is None:
            return
        na, nb = int(math.floor(self.W / SAMPLE + 1e-9)), int(math.floor(self.D / SAMPLE + 1e-9))
        keys = [(a, b) for a in range(na + 1) for b in range(nb + 1)]
        for k, p in zip(keys, many([(a * SAMPLE, b * SAMPLE) for a, b in keys])):
            self._ground.setdefault(k, float(p[2]))

    def point_free(self, x: float, y: float, r: float, z0: float, step: float) -> bool:
        """The base (radius ``r``) at (x, y) on the table and clear of scenery."""
        if not (r - 1e-9 <= x <= self.W - r + 1e-9 and r - 1e-9 <= y <= self.D - r + 1e-9):
            return False
        rs = r + MARGIN
        r2 = rs * rs
        for a in range(math.ceil((x - rs) / SAMPLE), math.floor((x + rs) / SAMPLE) + 1):
            dx = a * SAMPLE - x
            for b in range(math.ceil((y - rs) / SAMPLE), math.floor((y + rs) / SAMPLE) + 1):
                dy = b * SAMPLE - y
                if dx * dx + dy * dy <= r2 and abs(self.z(a, b) - z0) > step:
                    return False
        return True

    def highest_under(self, x: float, y: float, r: float) -> float:
        """The highest ground sample under a base of radius ``r`` at (x, y): where a flight
        comes down (it lands on the highest surface under the base)."""
        r2 = r * r
        # (the samples on the table: those ``_fill`` asks at once)
        na, nb = int(math.floor(self.W / SAMPLE + 1e-9)), int(math.floor(self.D / SAMPLE + 1e-9))
        z = self.z(min(max(round(x / SAMPLE), 0), na), min(max(round(y / SAMPLE), 0), nb))
        for a in range(max(math.ceil((x - r) / SAMPLE), 0), min(math.floor((x + r) / SAMPLE), na) + 1):
            dx = a * SAMPLE - x
            for b in range(max(math.ceil((y - r) / SAMPLE), 0), min(math.floor((y + r) / SAMPLE), nb) + 1):
                dy = b * SAMPLE - y
                if dx * dx + dy * dy <= r2:
                    z = max(z, self.z(a, b))
        return z

    def cell_free(self, i: int, j: int, r: float, z0: float, step: float) -> bool:
        k = (i, j, r, z0, step)
        v = self._free.get(k)
        if v is None:
            v = self._free[k] = self.point_free((i + 0.5) * CELL, (j + 0.5) * CELL, r, z0, step)
        return v

    def segment_clear(self, p, q, z0: float, step: float) -> bool:
        """The ground along p -> q (the nearest samples) at most ``step`` above ``z0``."""
        n = max(1, int(math.ceil(math.dist(p[:2], q[:2]) / SAMPLE)))
        for k in range(n + 1):
            t = k / n
            x, y = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
            if self.z(round(x / SAMPLE), round(y / SAMPLE)) - z0 > step:
                return False
        return True

    def walk_clear(self, p, q, r: float, z0: float, step: float) -> bool:
        """The base slides from p to q clear of scenery (checked every half sample)."""
        n = max(1, int(math.ceil(math.dist(p[:2], q[:2]) / (SAMPLE / 2))))
        for k in range(n + 1):
            t = k / n
            if not self.point_free(p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t, r, z0, step):
                return False
        return True


def _cell_of(x: float, y: float) -> tuple[int, int]:
    return int(math.floor(x / CELL)), int(math.floor(y / CELL))


def cell_centre(c: tuple[int, int]) -> tuple[float, float]:
    return (c[0] + 0.5) * CELL, (c[1] + 0.5) * CELL


class Plan:
    """The walking questions of one mover at one moment."""

    def __init__(self, wmap: WalkMap, here, radius: float, height: float, enemies, others,
                 step: float | None = None):
        """``enemies`` / ``others``: [(x, y, radius)] of the bases that block / may be crossed;
        ``step``: the most a walk may rise by the rules (the game's step height), when
        less than half the hitbox."""
        self.m = wmap
        self.here = here
        self.r = radius
        self.z0 = float(here[2])
        self.step = 0.5 * height if step is None else min(0.5 * height, float(step))
        self.enemies = list(enemies)
        self.others = list(others)
        self._passable: dict = {}
        self._nbrs: dict = {}
        self.start = self._start_cells()

    def passable(self, c) -> bool:
        v = self._passable.get(c)
        if v is None:
            i, j = c
            x, y = cell_centre(c)
            v = self._passable[c] = (0 <= i < self.m.nx and 0 <= j < self.m.ny
                                     and self.m.cell_free(i, j, self.r, self.z0, self.step)
                                     and all(math.hypot(x - ex, y - ey) >= self.r + er + CONTACT
                                             for ex, ey, er in self.enemies))
        return v

    def clear(self, p, q) -> bool:
        """The base slides straight from p to q clear of scenery and of enemy bases."""
        for ex, ey, er in self.enemies:
            dx, dy = q[0] - p[0], q[1] - p[1]
            L2 = dx * dx + dy * dy
            t = 0.0 if L2 == 0 else max(0.0, min(1.0, ((ex - p[0]) * dx + (ey - p[1]) * dy) / L2))
            if math.hypot(ex - p[0] - t * dx, ey - p[1] - t * dy) < self.r + er + CONTACT:
                return False
        return self.m.walk_clear(p, q, self.r, self.z0, self.step)

    def endable(self, c) -> bool:
        x, y = cell_centre(c)
        return all(math.hypot(x - ox, y - oy) >= self.r + orad for ox, oy, orad in self.others)

    def _start_cells(self) -> dict:
        """The free cells next to the mover, with the cost of the straight step to them."""
        ci, cj = _cell_of(self.here[0], self.here[1])
        out = {}
        for di in (-1, 0, 1):
            for dj in (-1, 0, 1):
                c = (ci + di, cj + dj)
                if not self.passable(c):
                    continue
                x, y = cell_centre(c)
                if self.clear(self.here, (x, y)):
                    out[c] = math.hypot(x - self.here[0], y - self.here[1])
        return out

    def _neighbours(self, c) -> list:
        """(cell, step length) of the passable neighbours of ``c`` (kept: the distance
        fields and the walking costs of one plan ask them of the same cells again)."""
        out = self._nbrs.get(c)
        if out is None:
            i, j = c
            out = []
            for di, dj, w in NEIGHBOURS:
                n = (i + di, j + dj)
                if not self.passable(n):
                    continue
                if di and dj and not (self.passable((i + di, j)) and self.passable((i, j + dj))):
                    continue          # no corner cutting
                out.append((n, w * CELL))
            self._nbrs[c] = out
        return out

    def attack_cells(self, target, reach: float):
        """Cells from which the target's base is within ``reach`` of the mover's and
        the line to it is clear (centre and both sides)."""
        tx, ty, tr = target
        ring = self.r + tr + reach
        out = []
        ci, cj = _cell_of(tx, ty)
        k = int(math.ceil(ring / CELL)) + 1
        for i in range(ci - k, ci + k + 1):
            for j in range(cj - k, cj + k + 1):
                x, y = cell_centre((i, j))
                d = math.hypot(x - tx, y - ty)
                if d > ring or d < self.r + tr - 1e-6 or not self.passable((i, j)) or not self.endable((i, j)):
                    continue
                ux, uy = (tx - x) / d, (ty - y) / d
                # from the edge of the mover's base to the edge of the target's
                lines = [((x + ux * self.r, y + uy * self.r), (tx - ux * tr, ty - uy * tr))]
                for s in (-1, 1):
                    ox, oy = -uy * s * 0.8 * tr, ux * s * 0.8 * tr
                    lines.append(((x + ux * self.r + ox, y + uy * self.r + oy),
                                  (tx - ux * tr + ox, ty - uy * tr + oy)))
                if all(self.m.segment_clear(p, q, self.z0, SIGHT_STEP) for p, q in lines):
                    out.append((i, j))
        return out

    def distance_field(self, sources, extra: float = math.inf) -> dict:
        """Walking distance from the nearest source cell: every cell up to ``extra``
        farther than the first of the mover's start cells (the whole region when no
        start cell is reached)."""
        dist = {c: 0.0 for c in sources}
        heap = [(0.0, c) for c in sources]
        heapq.heapify(heap)
        done = set()
        limit = math.inf
        while heap:
            d, c = heapq.heappop(heap)
            if c in done:
                continue
            if d > limit:
                break
            done.add(c)
            if limit == math.inf and c in self.start:
                limit = d + extra
            for n, w in self._neighbours(c):
                nd = d + w
                if nd < dist.get(n, math.inf):
                    dist[n] = nd
                    heapq.heappush(heap, (nd, n))
        return {c: dist[c] for c in done}

    def remaining(self, field: dict) -> float:
        """The walking distance left from the mover's position."""
        return min((cost + field[c] for c, cost in self.start.items() if c in field), default=math.inf)

    def costs(self, allowance: float):
        """(cost, predecessor) of every cell the mover walks to within ``allowance``."""
        cost = dict(self.start)
        pred = {c: None for c in self.start}
        heap = [(v, c) for c, v in self.start.items()]
        heapq.heapify(heap)
        done = set()
        while heap:
            d, c = heapq.heappop(heap)
            if c in done or d > allowance:
                continue
            done.add(c)
            for n, w in self._neighbours(c):
                nd = d + w
                if nd <= allowance and nd < cost.get(n, math.inf):
                    cost[n] = nd
                    pred[n] = c
                    heapq.heappush(heap, (nd, n))
        return {c: cost[c] for c in done}, pred

    def route(self, end, pred) -> list[tuple[float, float]]:
        """The waypoints to cell ``end`` after the mover's position, pulled straight."""
        chain = []
        c = end
        while c is not None:
            chain.append(cell_centre(c))
            c = pred[c]
        pts = [tuple(self.here[:2])] + chain[::-1]
        out = [pts[0]]
        k = 0
        while k < len(pts) - 1:
            nxt = k + 1
            for m in range(len(pts) - 1, k + 1, -1):
                if self.clear(pts[k], pts[m]):
                    nxt = m
                    break
            out.append(pts[nxt])
            k = nxt
        return out[1:]
