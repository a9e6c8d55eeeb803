"""The hotseat lays a template where the player clicks (``Declare.place``).

eldfall-actions.txt, AoE rules: "The main target must be fully covered by the template"
is the only bound on where it lies; the rules take ``place=`` (the bots use it to catch
a second enemy), but the view's target step always laid the template on the target's
centre. A click on the ground now lays it there, the target clicked next is declared
with it, and a spot that leaves the target partly uncovered is refused with the reason.
"""
from __future__ import annotations

import pytest

pytest.importorskip("panda3d")

from view_fixtures import menu_key, press  # noqa: E402

SCENE = """table: [36, 36]
terrain: []
models:
  - {id: red-mage, side: red, profile: sample-red#mage, at: [10, 5], facing: 90}
  - {id: b1, side: blue, size: S, at: [10, 12], facing: 270}
  - {id: b2, side: blue, size: M, at: [12.1, 12], facing: 270}
"""


def _at_action(view_app, tmp_path):
    from tools.loading import load_world
    from view_fixtures import at_action_step
    scene = tmp_path / "scene.yaml"
    scene.write_text(SCENE)
    c = at_action_step(view_app, load_world(str(scene)), None, tmp_path, "red-mage")
    c.game.models["red-mage"].mana = 2          # Flame Burst's cost (mana comes from Active AP)
    c._invalidate()
    c.refresh()
    view_app.step()
    return c


def _ground_click(view_app, c, xy):
    """A click on the ground at ``xy`` (not on a model drawn over it)."""
    from view_fixtures import point_at_ground
    p = (xy[0], xy[1], 0.0)
    point_at_ground(view_app, c, p)
    return press(view_app, "mouse1", pixel=view_app.project(p))


def test_a_click_on_the_ground_lays_the_template_for_the_target_clicked_next(view_app, tmp_path):
    from view_fixtures import click_model
    c = _at_action(view_app, tmp_path)
    try:
        assert press(view_app, menu_key(c, "Spell Attack [Flame Burst]")) == "target"
        assert "click the ground first" in c.message, c.message
        # 1.4" off b1's centre: b1 is no longer wholly under the 3" circle: refused, the reason said
        assert _ground_click(view_app, c, (10.0, 13.4)) == ("place", (10.0, 13.4, 0.0))
        assert c.template_result is not None
        n0 = len(c.game.events)
        click_model(view_app, c.world, "b1")
        assert len(c.game.events) == n0 and c.state == "target"
        assert "with its template at (10.0, 13.4)" in c.message and "fully" in c.message, c.message
        # 0.8" toward b2: b1 (a Small base) wholly under it, b2 caught too (centred on b1 it is not)
        assert _ground_click(view_app, c, (10.7, 11.6)) == ("place", (10.7, 11.6, 0.0))
        click_model(view_app, c.world, "b1")
        decl = [type(c.game).parse_action(e.data["action"]) for e in c.game.events[n0:] if e.kind == "action"]
        assert decl and decl[0].place == (10.7, 11.6, 0.0) and decl[0].targets == (("b1", 1),), c.message
        att = [e.data for e in c.game.events[n0:] if e.kind == "attack"]
        assert att and sorted(att[0]["victims"]) == ["b1", "b2"], att
        assert c.state == "idle" and c.place is None
    finally:
        c.close()
