"""Legends of Norova in the hotseat (review 9): the walking area the view shades
keeps to the game's own step height (a rise above ``move.step_height`` needs a
climb), as the rules judge the walk; before, it used the engine's free climbing
(anything up to the hitbox), so the top of the 1.5" rock showed as walkable."""
from __future__ import annotations

import os

import numpy as np
import pytest

from view_fixtures import open_controller  # noqa: E402

pytest.importorskip("panda3d")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_norova_walking_area_keeps_to_the_step_height(view_app, tmp_path):
    from engine import motion
    from tools.cmd_view import game_factory, load_world
    world = load_world(os.path.join(ROOT, "scenes", "norova-arena.yaml"))
    g, geo = game_factory(world, "norova")(3)
    c = open_controller(view_app, world, g, geo, tmp_path)
    try:
        speed = c.allowance("pyromancer", "walk")
        free = motion.reachable(world, "pyromancer", "walk", speed=speed).points()
        on_rock = free[(np.abs(free[:, 0] - 21) < 1) & (np.abs(free[:, 1] - 6) < 1)]
        assert len(on_rock) and np.all(on_rock[:, 2] > 1.4)      # free climbing goes up
        pts = c.reach_grid("pyromancer", "walk").points()
        assert len(pts) > 100
        assert not np.any(pts[:, 2] > 1.01), pts[pts[:, 2] > 1.01][:5]
    finally:
        c.close()
