"""A declared route far longer than the allowance: only its first part is walked (each inch
across the table costs at least one), with the same answer up to the stop; sampling all of
it took gigabytes on a huge table (a 14000" route ran out of memory)."""
from __future__ import annotations

import math

import pytest

from engine import motion
from engine.scene import load_scene
from engine.world import World
from tests.scene_files import write

ROOT = __import__("pathlib").Path(__file__).resolve().parents[1]


def _same_up_to_the_stop(a, b):
    assert (a.legal, a.stopped_by, a.surfaces, a.falls) == (b.legal, b.stopped_by, b.surfaces, b.falls)
    assert a.distance == pytest.approx(b.distance, abs=1e-9) and a.end == pytest.approx(b.end, abs=1e-9)
    assert len(a.path) == len(b.path)
    assert [(p.model, p.kind) for p in a.opportunity_points + a.awareness_points] == \
        [(p.model, p.kind) for p in b.opportunity_points + b.awareness_points]
    assert [g["kind"] for g in a.legs] == [g["kind"] for g in b.legs]


@pytest.mark.parametrize("model,route,mode", [
    ("red-brute", [(35, 10)], "walk"),
    ("red-brute", [(14, 10), (30, 30), (2, 34)], "run"),
    ("red-scout", [(20, 20), (34, 2), (2, 2), (34, 34)], "walk"),
    ("red-archer", [(18, 30), (18, 2)], "run"),
])
def test_a_cut_route_gives_the_answer_of_the_whole_route_up_to_the_stop(monkeypatch, model, route, mode):
    world = World(load_scene(str(ROOT / "scenes" / "skirmish.yaml")))
    whole = motion.check_path(world, model, route, mode)
    assert not whole.legal
    monkeypatch.setattr(motion, "_LONG_ROUTE", 0.0)          # every route counts as long here
    cut = motion.check_path(world, model, route, mode)
    _same_up_to_the_stop(cut, whole)
    # the same reason, or where the allowance runs out the route's length (what lies beyond the
    # allowance on the declared route is not looked at)
    assert cut.reason == whole.reason or ("allowance" in whole.reason and cut.reason.startswith(
        "the route is ") and "each inch costs at least one" in cut.reason), (cut.reason, whole.reason)


def test_a_route_across_a_huge_table_is_judged_quickly(tmp_path):
    scene = write(tmp_path, "huge.yaml", """\
table: [10000, 10000]
terrain:
  - {id: crate, shape: box, at: [12, 5, 0], size: [2, 2, 1]}
models:
  - {id: a, side: red, size: M, at: [5, 5], facing: 0, stats: {SPD: 5}}
""")
    world = World(load_scene(str(scene)))
    before = motion._Ctx.layers
    samples = []

    def counted(ctx, xy):
        samples.append(len(xy))
        return before(ctx, xy)
    motion._Ctx.layers = counted
    try:
        r = motion.check_path(world, "a", [(9990, 9990)], "walk")
    finally:
        motion._Ctx.layers = before
    length = math.hypot(9985, 9985)
    assert not r.legal and r.reason == (f"the route is {length:.2f}\" long across the table (each inch costs "
                                        "at least one) and the allowance is 5\"")
    assert r.distance == pytest.approx(5.0, abs=1e-6)
    assert 0 < max(samples) < 1000               # about 7" sampled, not 14000"


FLY = """\
table: [%d, 24]
terrain:
  - {id: crate, shape: box, at: [20, 5, 0], size: [3, 3, 1]}
models:
  - {id: f, side: red, size: M, at: [3, 5], facing: 0, stats: {SPD: 4}, states: [Flying]}
"""


def test_a_stopped_flight_names_the_surface_where_it_stops(tmp_path):
    # SPD 4, Flying: 8" of allowance; the flight toward (28, 5) stops at x = 11, over a crate
    # there (the surface under it); it used to look under the declared end (open table)
    world = World(load_scene(str(write(tmp_path, "fly.yaml", FLY.replace("[20, 5, 0]", "[11, 5, 0]") % 30))))
    r = motion.check_path(world, "f", [(28, 5)], "walk")
    assert not r.legal and r.end[0] == pytest.approx(11.0, abs=0.01) and r.end[2] == pytest.approx(1.0)
    assert r.surfaces == ["crate"]
    landed = motion.check_path(world, "f", [(11, 5)], "walk")
    assert landed.legal and landed.surfaces == ["crate"]
    assert motion.check_path(world, "f", [(6, 5)], "walk").surfaces == ["table"]


def test_a_long_flight_is_cut_as_a_walk_is(tmp_path, monkeypatch):
    world = World(load_scene(str(write(tmp_path, "fly.yaml", FLY % 24))))
    whole = motion.check_path(world, "f", [(20, 5), (20, 20), (3, 20)], "run")
    monkeypatch.setattr(motion, "_LONG_ROUTE", 0.0)
    cut = motion.check_path(world, "f", [(20, 5), (20, 20), (3, 20)], "run")
    _same_up_to_the_stop(cut, whole)
    assert whole.reason.startswith("the route measures 49.00\"") and cut.reason == (
        "the route is 49.00\" long across the table (each inch costs at least one) and the allowance is 16\" "
        "(Flying)")
