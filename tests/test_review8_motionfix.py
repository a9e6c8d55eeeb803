"""Review 8, movement fix: flat faces of two pieces at one height (the top of one
against the bottom of the other). Embree returns one of the coincident faces; the
probe columns must read the layers of both pieces whichever it returns."""
from pathlib import Path

import numpy as np
import pytest

from engine.motion import _columns, check_path, reachable, settings
from tests.motion_scenes import box, world
from tools.loading import load_world

DATA = Path(__file__).parent / "data" / "review8_motionfix"


def _layers(w, xy):
    """Every column's layers (lo, hi, piece id) top-down."""
    lo, hi, nrm, piece = _columns(w, settings()).probe(np.asarray(xy, dtype=float))
    out = []
    for i in range(len(lo)):
        k = np.isfinite(hi[i])
        out.append([(float(a), float(b), w.pieces[int(p)].id if p > 0 else "table")
                    for a, b, p in zip(lo[i][k], hi[i][k], piece[i][k])])
    return out


def _grid(x0, x1, y0, y1, n=9):
    gx, gy = np.meshgrid(np.linspace(x0, x1, n), np.linspace(y0, y1, n))
    return np.column_stack([gx.ravel(), gy.ravel()])


def test_box_on_box_reads_both_boxes():
    w = world([box("low", 5, 5, 0, 2, 2, 1), box("high", 5, 5, 1, 2, 2, 1)])
    got = _layers(w, _grid(4.05, 5.95, 4.05, 5.95))
    want = [(1.0, 2.0, "high"), (0.0, 1.0, "low")]
    for layers in got:
        assert layers[:2] == want
        assert layers[2][1:] == (0.0, "table")


def test_slab_on_two_posts_leaves_the_gap_under_it():
    w = world([box("post-a", 1, 5, 0, 1, 1, 1), box("post-b", 4, 5, 0, 1, 1, 1),
               box("slab", 2.5, 5, 1, 4, 1, 0.25)])
    for layers in _layers(w, _grid(0.55, 1.45, 4.55, 5.45)):
        assert layers[:2] == [(1.0, 1.25, "slab"), (0.0, 1.0, "post-a")]
    for layers in _layers(w, _grid(3.55, 4.45, 4.55, 5.45)):
        assert layers[:2] == [(1.0, 1.25, "slab"), (0.0, 1.0, "post-b")]
    for layers in _layers(w, _grid(1.55, 3.45, 4.55, 5.45)):
        assert layers[0] == (1.0, 1.25, "slab")
        assert layers[1][1:] == (0.0, "table")


def test_a_piece_resting_on_the_table_keeps_the_table_under_it():
    # the box's bottom lies on the table's top: both are read
    w = world([box("crate", 5, 5, 0, 2, 2, 1)])
    for layers in _layers(w, _grid(4.05, 5.95, 4.05, 5.95)):
        assert layers[0] == (0.0, 1.0, "crate")
        assert layers[1][1:] == (0.0, "table")


def test_door_under_the_upper_floor_reads_lintel_and_floor():
    w = load_world(str(DATA / "door.yaml"), None)
    for layers in _layers(w, _grid(6.02, 7.48, 1.02, 1.48)):
        assert layers[:2] == [(2.5, 2.75, "floor"), (2.0, 2.5, "lintel")]
    for layers in _layers(w, _grid(10.52, 10.98, 1.02, 3.98)):
        assert layers[:2] == [(2.5, 2.75, "floor"), (0.0, 2.5, "wall-e")]


def test_through_the_door_under_the_floor():
    w = load_world(str(DATA / "door.yaml"), None)
    # 2" door, a Medium base (1.26" wide, 1.77" tall) walks in and on to a point
    # 0.666" from the door's corner (7.5, 1.5)
    r = check_path(w, "m", [(6.75, 2.5), (7.26, 2.12)], "run")
    assert r.legal, r.reason
    assert r.end[2] == pytest.approx(0.0)
    # a base 55 mm (2.17") tall stands under the floor (2.5") but does not fit
    # under the 2" lintel
    wt = load_world(str(DATA / "door_tall.yaml"), None)
    assert check_path(wt, "tall", [(7.26, 2.3)], "run").legal
    r = check_path(wt, "tall", [(6.75, 0.65)], "run")
    assert not r.legal and "taller than the hitbox" not in r.reason, r.reason
    # nor does anyone walk through the east wall under the floor
    r = check_path(w, "e", [(9, 3)], "run")
    assert not r.legal
    g = reachable(w, "m", "run")
    assert g.contains(6.75, 2.5, 0.0)
    # the grid takes the way round the wall's north end (the house is open there)
    g = reachable(w, "e", "run")
    assert g.cost_at(9.0, 3.0, 0.0) > 10
