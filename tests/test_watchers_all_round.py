"""``engine.sight.watchers(..., all_round=True)``: who sees a mover along its route when every
observer sees all round, as Legends of Norova asks the table (its front arc is its own, for
attacks). The hotseat's "seen by" line for a Norova route asks it so; Eldfall keeps its arcs."""
import pytest

from engine import sight
from motion_scenes import medium, world


def _world():
    # the watcher at (10, 10) faces east (0); the mover walks north 10" along x 5, behind it
    return world([], [medium("watcher", 10, 10, side="blue"), medium("mover", 5, 5)])


def test_a_watcher_facing_away_sees_nothing_by_its_front_arc():
    (w,) = sight.watchers(_world(), "mover", [(5, 5, 0), (5, 15, 0)])
    assert w.observer == "watcher" and not w.had_los


def test_all_round_it_sees_the_whole_route():
    wd = _world()
    (w,) = sight.watchers(wd, "mover", [(5, 5, 0), (5, 15, 0)], all_round=True)
    assert w.had_los
    assert w.first == pytest.approx((5, 5, 0)) and w.last == pytest.approx((5, 15, 0))
    # as the pair's own question, all round, says at both ends
    assert sight.los(wd, "watcher", "mover", moving=True, fraction=False).los
