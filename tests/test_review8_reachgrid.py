"""Review 8, the reachable-area grid: narrow gaps found (the sub-grid near scenery),
and every end it offers still accepted by the exact path check along its route."""
import random
from pathlib import Path

import numpy as np
import pytest

from engine.motion import check_path, reachable
from motion_scenes import R_M, box, medium, world
from tools.loading import load_world

DATA = Path(__file__).parent / "data" / "review8_reachgrid"
ROOT = Path(__file__).resolve().parents[1]


def _agrees(w, g, model, mode, p, tol=0.05):
    """The path check along the grid's route to p accepts it, ending at p, within tol of the grid's cost."""
    route = g.shortest_path(tuple(p))
    assert route, p
    r = check_path(w, model, route[1:], mode)
    assert r.legal, (p, r.reason, route)
    assert np.allclose(r.end[:2], p[:2], atol=1e-6), (p, r.end)
    assert r.distance <= g.cost_at(*p) + tol, (p, r.distance, g.cost_at(*p))
    return r


def test_bases_gap_of_1_6_inches_is_found():
    # the 1.6" gap (y 3-4.6) of a 3" wall at x 9-10: a Medium base (1.26") runs through it
    w = load_world(str(DATA / "bases.yaml"), None)
    assert check_path(w, "m", [(8, 3.8), (12, 3.8)], "run").legal
    g = reachable(w, "m", "run")
    assert g.contains(12, 3.8)
    _agrees(w, g, "m", "run", np.array([12.125, 3.875, 0.0]))
    pts = g.points()
    assert np.any((pts[:, 0] > 10.8) & (pts[:, 1] < 6)), "nothing offered past the wall"


@pytest.mark.parametrize("offset", [0.0, 0.06, 0.125, 0.19])
def test_gap_a_tenth_wider_than_the_base_at_any_offset(offset):
    # a 1" thick, 3" tall wall with a gap 0.1" wider than the base, centred at y0
    gap = 2 * R_M + 0.1
    y0 = 10 + offset
    w = world([box("a", 10.5, (y0 - gap / 2) / 2, 0, 1, y0 - gap / 2, 3),
               box("b", 10.5, (y0 + gap / 2 + 20) / 2, 0, 1, 20 - (y0 + gap / 2), 3)],
              [medium("m", 7, y0, spd=6)], table=(20, 20))
    assert check_path(w, "m", [(14, y0)], "run").legal
    g = reachable(w, "m", "run")
    assert np.isfinite(g.cost_at(14, y0))
    r = _agrees(w, g, "m", "run", np.array([(int(14 / 0.25) + 0.5) * 0.25, (int(y0 / 0.25) + 0.5) * 0.25, 0.0]))
    # the route squeezes through the gap itself
    assert r.distance < 9.0


def test_gap_narrower_than_the_base_stays_closed():
    gap = 2 * R_M - 0.02
    w = world([box("a", 10.5, (10 - gap / 2) / 2, 0, 1, 10 - gap / 2, 3),
               box("b", 10.5, (10 + gap / 2 + 20) / 2, 0, 1, 20 - (10 + gap / 2), 3)],
              [medium("m", 7, 10, spd=6)], table=(20, 20))
    g = reachable(w, "m", "run")
    assert not np.isfinite(g.cost_at(14, 10))


def _moved_ends(g):
    """End positions whose node sits off its cell's centre (placed on the sub-grid)."""
    s = g._static
    k, i, j = np.nonzero(g.end_ok & (g.cost <= g.allowance + 1e-9))
    nodes = s.node[k, i * s.nx + j]
    centre = np.column_stack([(j + 0.5) * s.res, (i + 0.5) * s.res])
    moved = np.hypot(*(s.node_xyz[nodes, :2] - centre).T) > 1e-9
    return s.node_xyz[nodes[moved]]


def test_moved_ends_on_the_skirmish_table_are_accepted_by_the_path_check():
    # inside the ruined watch house, under the door lintel (its top shares a height
    # with the floor's underside) and along the walls: ends placed off their cells'
    # centres, each checked along the grid's route
    w = load_world(str(ROOT / "scenes" / "skirmish.yaml"), None)
    g = reachable(w, "red-champion", "run")
    ends = _moved_ends(g)
    assert len(ends) > 20
    near_door = ends[(ends[:, 0] > 5.5) & (ends[:, 0] < 8.5) & (ends[:, 1] < 3.0)]
    rnd = random.Random(8)
    pick = list(near_door) + rnd.sample(list(ends), 15)
    for p in pick:
        _agrees(w, g, "red-champion", "run", p)
