"""Review 9, the hotseat played whole by a scripted pair of players (clicks and keys).

* A click on a point of the shaded reachable area is a legal end of the move,
  though the straight line to it runs through a wall: the area is what the
  engine's route-finding reaches (``engine.motion.reachable``), so a single click
  there takes that route (``ReachGrid.shortest_path``), shown and confirmed as
  usual, instead of "not legal: scenery 2.50\\" high ... needs Climb".
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import (all_menu_entries, click_model, hotseat_activate, hotseat_idle_to_action,  # noqa: E402
                           menu_key, open_scene, press)


def _walk(app, c, mid="red-mage"):
    """Red plays first; ``mid`` (red-mage: on the ruin's upper floor) starts a Walk."""
    hotseat_activate(app, c, mid, "order blue second")
    assert c.game.pending == ("movement", mid)
    assert press(app, menu_key(c, "Move: Walk")) == "move"


def test_a_click_in_the_reachable_area_behind_a_wall_is_a_legal_move(view_app, skirmish):
    c, world = skirmish, skirmish.world
    _walk(view_app, c)
    grid = c.reach_grid("red-mage", "walk")
    goal = (5.38, 5.88, 2.75)         # the upper floor, round the fallen-in corner
    assert grid.contains(goal[0], goal[1], goal[2])
    n0 = len(c.game.events)
    press(view_app, "mouse1", pixel=view_app.project(goal))
    action, reason = c.preview
    assert reason is None, c.message
    assert len(c.waypoints) > 1                   # the route around the wall, not the straight line
    press(view_app, "enter")
    assert len(c.game.events) > n0, c.message
    hb = world.hitbox("red-mage")
    assert abs(hb.x - goal[0]) < 0.3 and abs(hb.y - goal[1]) < 0.3 and hb.z == pytest.approx(2.75, abs=0.05)
    # Ctrl+Z puts it back in the ruin
    press(view_app, "control-z")
    assert c.game.pending == ("movement", "red-mage")
    hb = world.hitbox("red-mage")
    assert (hb.x, hb.y) == pytest.approx((9.0, 2.6))
    assert hb.z == pytest.approx(2.75)


def test_a_waypoint_clicked_over_a_model_is_on_the_ground(view_app, skirmish):
    """A click in the shaded area within the mover's own base (a short step) hit
    the mover's head: the waypoint was 1.77" up and the move "not legal: the route
    ends at z 0.00, not at the declared z 1.77". The waypoint is the ground under
    the pointer (the models let through)."""
    from engine.view.picking import pick
    c, world = skirmish, skirmish.world
    game = c.game
    _walk(view_app, c, "red-shieldbearer")
    goal = (16.3, 4.0, 0.0)                       # red-shieldbearer stands at (16, 4)
    px = view_app.project(goal)
    assert pick(view_app, world, pixel=px).id == "red-shieldbearer"
    press(view_app, "mouse1", pixel=px)
    assert c.waypoints[-1][2] == pytest.approx(0.0, abs=1e-3)
    assert c.waypoints[-1][:2] == pytest.approx(goal[:2], abs=0.05)
    action, reason = c.preview
    assert reason is None, c.message
    n0 = len(game.events)
    press(view_app, "enter")
    assert len(game.events) > n0
    assert world.hitbox("red-shieldbearer").x == pytest.approx(16.3, abs=0.05)


def test_norova_focus_is_one_entry_and_a_click_on_its_target(view_app, tmp_path):
    """Legends of Norova's first menu listed "focus ranger crossbowman", "focus ranger
    hexer", "focus ranger harpy" (one raw entry per target) and ran to two pages of
    thirteen; the Focus is one entry whose target is clicked, like an Attack's."""
    c = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova")
    world, game = c.world, c.game
    try:
        labels = all_menu_entries(c)
        assert not any(m.startswith("focus ranger") for m in labels), labels
        assert "focus -> click a target (crossbowman, harpy, hexer)" in labels
        assert press(view_app, menu_key(c, "focus -> click")) == "target"
        n0 = len(game.events)
        click_model(view_app, world, "hexer")
        assert len(game.events) > n0, c.message
        done = [e for e in game.events[n0:] if e.kind == "action"]
        assert str(done[0].data.get("action")) == "focus ranger hexer"
    finally:
        c.close()



def test_a_click_on_the_shading_over_a_drop_ends_on_its_level(view_app, skirmish):
    """The shaded area reaches over the upper floor's fallen-in corner (a base there
    rests on the slab's edge, 2.75" up): a click on that shading went through to the
    ground floor and the Walk was refused ("a drop of 2.75\"" or "the route ends at
    z 2.75, not at the declared z 0"); the area has one level there: the move ends
    on it."""
    c, world = skirmish, skirmish.world
    game = c.game
    _walk(view_app, c, "red-archer")
    shade = (8.12, 4.62, 2.75)                    # a shaded cell over the hole
    assert c.reach_grid("red-archer", "walk").contains(*shade)
    press(view_app, "mouse1", pixel=view_app.project(shade))
    assert c.waypoints[-1][2] == pytest.approx(2.75, abs=0.05)
    action, reason = c.preview
    assert reason is None, c.message
    n0 = len(game.events)
    press(view_app, "enter")
    assert len(game.events) > n0
    assert world.hitbox("red-archer").z == pytest.approx(2.75, abs=0.05)
