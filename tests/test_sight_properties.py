"""Invariants of line of sight, checked on random tables (hypothesis)."""
from __future__ import annotations

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

from engine import sight
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec
from engine.world import World

FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])

box = st.tuples(
    st.floats(9.0, 15.0),            # x
    st.floats(8.0, 16.0),            # y
    st.floats(0.2, 3.0),             # width
    st.floats(0.2, 4.0),             # depth
    st.floats(0.3, 3.0),             # height
    st.floats(0.0, 180.0),           # turn
)


def model(mid, x, y, facing, side, states=(), traits=()):
    prof = Profile(f"t#{mid}", mid, {"AG": 4}, size="M", traits=tuple(traits))
    return ModelSpec(mid, side, 32, 45, (x, y, 0.0), facing=facing, size="M", profile=prof,
                     stats={"AG": 4}, states=tuple(states))


def world(boxes, a=(5.0, 12.0, 0.0), b=(19.0, 12.0, 180.0), shift=(0.0, 0.0), extra=(), states=()):
    dx, dy = shift
    terrain = tuple(TerrainSpec(f"box-{i}", "box", (x + dx, y + dy, 0.0), size=(w, d, h), turn=t)
                    for i, (x, y, w, d, h, t) in enumerate(boxes))
    models = [model("a", a[0] + dx, a[1] + dy, a[2], "red", states), model("b", b[0] + dx, b[1] + dy, b[2], "blue", states)]
    models += [model(f"m{i}", x + dx, y + dy, 0.0, "red") for i, (x, y) in enumerate(extra)]
    return World(Scene("", (40, 40), terrain=terrain, models=tuple(models)))


@FAST
@given(st.lists(box, min_size=1, max_size=3), st.integers(0, 2), st.floats(-40, 40), st.floats(-40, 40))
def test_removing_a_blocker_never_lowers_the_visible_fraction(boxes, drop, fa, fb):
    drop = drop % len(boxes)
    full = sight.los(world(boxes, a=(5, 12, fa), b=(19, 12, 180 + fb)), "a", "b", cover=False)
    fewer = sight.los(world(boxes[:drop] + boxes[drop + 1:], a=(5, 12, fa), b=(19, 12, 180 + fb)), "a", "b", cover=False)
    # every point seen before is still seen
    assert (fewer.target_visible >= full.target_visible).all()
    assert fewer.visible_fraction >= full.visible_fraction
    assert fewer.los or not full.los


@FAST
@given(st.lists(box, min_size=0, max_size=3), st.lists(st.tuples(st.floats(9, 15), st.floats(9, 15)), max_size=1),
       st.floats(0, 360), st.floats(0, 360))
def test_with_both_at_360_swapping_viewer_and_target_gives_the_same_los(boxes, extra, fa, fb):
    w = world(boxes, a=(5, 12, fa), b=(19, 12, fb), extra=extra, states=("Vigilance",))
    ab = sight.los(w, "a", "b", cover=False)
    ba = sight.los(w, "b", "a", cover=False)
    assert ab.los == ba.los
    m = sight.los_matrix(w, ["a", "b"])
    assert m[("a", "b")] == m[("b", "a")] == ab.los


@FAST
@given(st.lists(box, min_size=0, max_size=3), st.floats(-4, 16), st.floats(-4, 16), st.floats(-60, 60))
def test_translating_the_whole_scene_changes_nothing(boxes, dx, dy, fa):
    base = sight.los(world(boxes, a=(5, 12, fa), shift=(5, 5)), "a", "b")
    moved = sight.los(world(boxes, a=(5, 12, fa), shift=(5 + dx, 5 + dy)), "a", "b")
    assert moved.los == base.los
    assert moved.cover == base.cover and moved.cover_piece == base.cover_piece
    # the sample points move with the models; float32 rays may round a grazing line differently
    assert abs(moved.visible_fraction - base.visible_fraction) <= 2.0 / len(base.target_points)
    assert moved.distance == base.distance or abs(moved.distance - base.distance) < 1e-9
