"""Review 12, movement (engine.motion).

1. A refused or stopped move listed, in ``surfaces`` ("crosses:"), every half-speed area
   the base touched along the whole declared route, not only up to where the move stops
   (``eldfall move scenes/skirmish.yaml red-brute --to 14,10 --mode walk`` stops 0.87"
   clear of the rubble and printed "crosses: table, ruin-rubble"). The areas listed are
   now those the base has touched up to the stop: each is judged here against the
   geometry of the move's own ``path`` and against its ``legs``.
2. Every path check read narrow surfaces from a grid of the whole table at 0.25", so on a
   table larger than about 176" x 176" (``eldfall check`` accepts up to 10000") every
   ``eldfall move`` failed with ``<reach>: resolution: ...``, naming an option ``move``
   does not have. A large table is now read in blocks around the route, the same cells
   and the same answers as the whole table's grid.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from cli_run import run_cli
from engine.motion import _regions_cached, check_path, settings
from scene_files import write
from tests.motion_scenes import R_M, box, medium, world

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = str(ROOT / "scenes" / "skirmish.yaml")
_EPS = 1e-3                 # (engine.motion: a base touches an area within its radius + this)
EDGE = 2e-3                 # stops this near an area's edge are not judged (either reading holds)


def _slow_areas(w):
    st = settings()
    areas, _ = _regions_cached(w, st)
    return [a for a in areas if a.tags & set(st["half_speed_areas"])]


def _touched_by_path(w, model, path):
    """{area id: least clearance between the base and the area along ``path``} (densified
    to 0.005"): the half-speed areas the base comes within its radius of, at their heights
    (negative or zero: touched)."""
    import shapely
    R = w.hitbox(model).radius
    P = np.asarray(path, dtype=float)
    pts = [P[:1]]
    for a, b in zip(P[:-1], P[1:]):
        n = max(1, int(math.ceil(np.linalg.norm(b - a) / 0.005)))
        t = np.arange(1, n + 1)[:, None] / n
        pts.append(a[None, :] + t * (b - a)[None, :])
    Q = np.vstack(pts)
    out = {}
    for a in _slow_areas(w):
        zin = (Q[:, 2] >= a.zlo - 0.05) & (Q[:, 2] <= a.zhi + 0.05)
        if not zin.any():
            continue
        d = shapely.distance(a.poly, shapely.points(Q[zin, :2]))
        out[a.piece] = float(np.min(d)) - (R + _EPS)
    return out


def _judge(w, model, r):
    """(areas the result lists, areas its path touches, near an edge: not judged)."""
    ids = {a.piece for a in _slow_areas(w)}
    listed = {s for s in r.surfaces if s in ids}
    clear = _touched_by_path(w, model, r.path)
    touched = {k for k, v in clear.items() if v <= 0}
    near = {k for k, v in clear.items() if abs(v) < EDGE}
    return listed, touched, near


# ----------------------------------------------------------------- 1. the areas crossed up to the stop
def test_skirmish_brute_walk_lists_only_what_it_reached(capsys):
    """The README's example: the Walk stops short of the rubble; "crosses:" agrees with
    where it stops (and the JSON with the text)."""
    from tools.loading import load_world
    rc, out, _ = run_cli(capsys, "move", SKIRMISH, "red-brute", "--to", "14,10", "--mode", "walk", "--json")
    assert rc == 0
    d = json.loads(out)
    assert d["legal"] is False and "route costs" in d["reason"]
    w = load_world(SKIRMISH, None)
    clear = _touched_by_path(w, "red-brute", d["path"])
    assert clear["ruin-rubble"] > EDGE                 # the stop is clear of the rubble
    assert "ruin-rubble" not in d["surfaces"]
    assert not any(g["kind"].endswith("at 2 per inch") for g in d["legs"])
    rc, text, _ = run_cli(capsys, "move", SKIRMISH, "red-brute", "--to", "14,10", "--mode", "walk")
    crosses = [ln for ln in text.splitlines() if ln.strip().startswith("crosses:")]
    assert crosses == ["  crosses: " + ", ".join(d["surfaces"])]


def _mud_world(enemy_at=None):
    """A Medium model walking east along y 10 into a difficult area (x 10-14), and a second
    difficult area overlapping it (x 12.5-16): entered while in the first one."""
    terrain = [box("mud", 12, 10, 0, 4, 4, 0.1, tags=("area", "difficult")),
               box("bog", 14.25, 10.5, 0, 3.5, 3, 0.1, tags=("area", "difficult"))]
    models = [medium("m", 5, 10, spd=6)]
    if enemy_at is not None:
        models.append(medium("e", enemy_at, 10, side="blue"))
    return world(terrain, models)


@pytest.mark.parametrize("speed", [float(v) for v in np.arange(2.0, 16.01, 0.35)])
def test_areas_listed_are_those_touched_before_the_stop(speed):
    """Walks that stop (the allowance) before, on the way into, inside, between and past
    the two areas: the areas listed are exactly those the base touched along the path up
    to the stop, and a half-speed leg is told exactly when an area is listed."""
    w = _mud_world()
    r = check_path(w, "m", [(21, 10)], "walk", speed=speed)
    listed, touched, near = _judge(w, "m", r)
    assert listed - near == touched - near, (speed, r.end, r.surfaces)
    dear = any(g["kind"].endswith("at 2 per inch") for g in r.legs)
    if not near:
        assert dear == bool(listed), (speed, r.legs, r.surfaces)


def test_an_enemy_stops_the_move_before_the_area():
    """Base contact with an enemy short of the area ends the move there: the area beyond
    it is not listed (and is when the enemy stands past it)."""
    for ex, expect in ((8.5, False), (18.5, True)):
        w = _mud_world(enemy_at=ex)
        r = check_path(w, "m", [(21, 10)], "walk", speed=20)
        assert r.stopped_by == "e"
        listed, touched, near = _judge(w, "m", r)
        assert not near and listed == touched
        assert ("mud" in listed) is expect


def test_an_area_entered_inside_another_is_listed_from_where_the_base_meets_it():
    """Inside the mud the route is not cut at the bog's edge (both cost the same): the stop
    between the bog's edge and the next sample must not list it, nor one just past it miss
    it. The stops are placed by the allowance around where the base meets the bog."""
    w = _mud_world()
    R = w.hitbox("m").radius
    bog_x = 12.5 - R - _EPS                  # the base's centre where it meets the bog
    # cost up to there: 1 per inch to where the base meets the mud (x 10 - R), 2 after
    mud_x = 10.0 - R - _EPS
    for dx in (-0.03, -0.01, 0.01, 0.03):
        spd = (mud_x - 5.0) + 2.0 * (bog_x + dx - mud_x)
        r = check_path(w, "m", [(21, 10)], "walk", speed=spd)
        assert abs(r.end[0] - (bog_x + dx)) < 1e-3, r.end
        listed, touched, near = _judge(w, "m", r)
        assert not near and listed == touched
        assert ("bog" in listed) is (dx > 0)


# ----------------------------------------------------------------- 2. a large table
def _narrow_scene(table, o):
    """A wall 0.5" thick and 3" high (a narrow surface: each inch on it costs two) and a
    difficult area, placed at offset ``o`` (a whole number of inches: the grid's cells fall
    on the same places)."""
    terrain = [box("wall", o + 10, o + 16, 0, 6, 0.5, 3),
               box("mud", o + 6, o + 11, 0, 3, 3, 0.2, tags=("area", "difficult"))]
    return world(terrain, [medium("m", o + 4, o + 8, spd=20)], table=table)


@pytest.mark.parametrize("big", [200, 300])
def test_a_move_on_a_large_table_is_checked_as_on_a_small_one(big):
    """The same terrain on a 36" table and far out on a large one (300": past the bare-table
    raster too): the same verdict, cost, legs and areas, and the narrow wall top costs two
    per inch on both."""
    o = big - 30
    small = _narrow_scene((36, 36), 5)
    large = _narrow_scene((big, big), o)
    via = [(13.5, 16.0, 3.0), (9.0, 16.0, 3.0)]
    rs = check_path(small, "m", [(x + 5, y + 5, z) for x, y, z in via], "climb")
    rl = check_path(large, "m", [(x + o, y + o, z) for x, y, z in via], "climb")
    assert any(g["kind"] == "across at 2 per inch" for g in rs.legs)      # the narrow top is read
    a, b = rs.to_dict(), rl.to_dict()
    for k in ("legal", "reason", "distance", "left", "surfaces", "stopped_by", "ends_on_vertical"):
        assert a[k] == b[k], k
    assert [(g["kind"], g["length"], g["cost"]) for g in a["legs"]] == \
        [(g["kind"], g["length"], g["cost"]) for g in b["legs"]]
    assert np.allclose(np.array(a["path"]) - [5, 5, 0], np.array(b["path"]) - [o, o, 0], atol=1e-3)


def test_eldfall_move_on_a_large_table(capsys, tmp_path):
    """``eldfall move`` on a 1000" table answers (exit 0), as on a small one; no
    ``<reach>: resolution`` problem."""
    def scene(t, o):
        return (f"name: t\ngames: [eldfall]\ntable: [{t}, {t}]\nterrain:\n"
                f"  - {{id: wall, shape: box, at: [{o}, {o + 6}, 0], size: [6, 0.5, 3]}}\n"
                f"models:\n  - {{id: c, side: red, profile: sample-red#champion, at: [{o - 6}, {o - 2}]}}\n")
    outs = []
    for t, o in ((36, 18), (1000, 970)):
        p = write(tmp_path, f"t{t}.yaml", scene(t, o))
        rc, out, err = run_cli(capsys, "move", str(p), "c", "--to", f"{o + 2},{o + 6},3", "--mode", "climb",
                               "--speed", "40", "--json")
        assert rc == 0, err
        outs.append(json.loads(out))
    a, b = outs
    assert "resolution" not in json.dumps(b)
    assert (a["legal"], a["reason"], a["distance"], a["surfaces"], a["legs"]) == \
        (b["legal"], b["reason"], b["distance"], b["surfaces"], b["legs"])


@pytest.mark.parametrize("scene", ["skirmish.yaml", "heights.yaml"])
def test_the_blocks_read_the_cells_as_the_whole_tables_grid(scene, monkeypatch):
    """The blocks a large table is read in (made small here, so that their edges cross the
    scenery) give every cell of a shipped table the levels and narrow surfaces of the whole
    table's grid, for each base on it."""
    import engine.motion as M
    from tools.loading import load_world
    monkeypatch.setattr(M, "_NARROW_BLOCK", 40)
    w = load_world(str(ROOT / "scenes" / scene), None)
    st = settings()
    res = float(st["resolution"])
    for R, h in sorted({(w.hitbox(m).radius, w.hitbox(m).height) for m in w.model_ids()})[:2]:
        g = M._static(w, R, h, res, st)
        iy, ix = np.divmod(np.arange(g.nx * g.ny), g.nx)
        nar = g.narrow.any(axis=0)
        # some narrow cells lie within a pad of a block's inner edge (else the test is idle)
        pad = M._narrow_pad(R, res, st)
        B = M._narrow_block_side(R, res, st)
        assert B == 40
        rim = (np.minimum(ix % B, B - 1 - ix % B) < pad) | (np.minimum(iy % B, B - 1 - iy % B) < pad)
        assert (nar & rim).any()
        blocks = M._narrow_blocks(w, R, h, res, st, ix, iy)
        assert len(blocks) > 4
        for b, k in blocks:
            assert b.nx * b.ny < g.nx * g.ny
            cell = (iy[k] - b.j0) * b.nx + (ix[k] - b.i0)
            zb, zg = b.z[:, cell], g.z[:, k]
            assert np.array_equal(np.isnan(zb), np.isnan(zg))
            assert np.array_equal(np.nan_to_num(zb), np.nan_to_num(zg))
            assert np.array_equal(b.narrow[:, cell], g.narrow[:, k])


def test_the_bare_table_read_from_the_pieces_boxes_is_the_raster():
    """A table too large for the bare-table raster reads the same cells from the pieces'
    boxes: both readings agree on the skirmish table, edges included."""
    from engine.motion import Columns
    from tools.loading import load_world
    w = load_world(SKIRMISH, None)
    cols = Columns(w, settings())
    rng = np.random.default_rng(12)
    xy = np.vstack([rng.uniform(-0.5, 36.5, (40000, 2)),
                    np.column_stack([rng.uniform(0, 36, 2000), rng.choice([0.01, 35.99], 2000)])])
    ras = cols._bare(xy)
    assert ras.any() and not ras.all()
    cols.bare_cells = None
    assert np.array_equal(cols._bare(xy), ras)
