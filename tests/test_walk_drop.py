"""``drop_height`` (engine/data/motion.yaml): the deepest drop a Walk or Run steps down.
Eldfall's own rule ("step": no deeper than the free-climbing step, the hitbox) refuses a
Walk off a 2.5" platform; a game whose rules judge a jump down themselves (Legends of Norova)
asks for "any" (``WorldGeometry.set_walk_drop``): the Walk steps down free, and a Climb
still counts every face it goes down."""
import math

import pytest

from engine.errors import InputError
from engine.geometry import WorldGeometry
from engine.motion import check_path, settings
from motion_scenes import box, medium, world


def _world():
    # a 2.5" platform (x 10-14, y 14-18) with a Medium model (1.77" hitbox) on its top
    return world([box("plat", 12, 16, 0, 4, 4, 2.5)], [medium("m", 12, 16, 2.5, spd=6)])


def test_a_walk_off_a_wall_taller_than_the_hitbox_is_refused_by_default():
    r = check_path(_world(), "m", [(12, 19.5)], "walk")
    assert not r.legal and r.reason.startswith('a drop of 2.50" at (12.00, 18.')


def test_drop_height_any_steps_down_free():
    r = check_path(_world(), "m", [(12, 19.5)], "walk", settings={"drop_height": "any"})
    assert r.legal, r.reason
    assert r.end[2] == pytest.approx(0.0, abs=1e-6)
    assert r.distance == pytest.approx(3.5, abs=0.01)          # across only: the drop is free


def test_a_number_drops_that_deep_and_no_deeper():
    assert check_path(_world(), "m", [(12, 19.5)], "walk", settings={"drop_height": 2.6}).legal
    assert not check_path(_world(), "m", [(12, 19.5)], "walk", settings={"drop_height": 2.4}).legal


def test_a_climb_down_still_counts_the_face():
    # SPD 6: a Climb of 3" goes 2.63" across and 0.37" down the face, and hangs there
    a = check_path(_world(), "m", [(12, 19.5)], "climb")
    b = check_path(_world(), "m", [(12, 19.5)], "climb", settings={"drop_height": "any"})
    assert b.legs == a.legs and b.end == a.end and b.reason == a.reason
    assert [leg["kind"] for leg in b.legs] == ["across", "climb down"]


def test_the_geometry_sets_it_for_its_rules():
    geo = WorldGeometry(_world())
    assert not geo.check_move("m", "walk", [(12, 19.5)], 6.0).legal
    geo.set_walk_drop(math.inf)
    assert geo.check_move("m", "walk", [(12, 19.5)], 6.0).legal
    geo.set_walk_drop(None)
    assert not geo.check_move("m", "walk", [(12, 19.5)], 6.0).legal


def test_a_bad_drop_height_is_one_line():
    with pytest.raises(InputError) as e:
        settings({"drop_height": "deep"})
    assert "motion.drop_height" in str(e.value)
