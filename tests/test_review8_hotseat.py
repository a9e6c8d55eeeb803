"""Hotseat play through the view, eighth review: what two players at home
stumbled on, driven by simulated clicks and keys (one ShowBase per process).

* Legends of Norova: a move clicked on the table (its moves are routes, not
  paths) -- it crashed; the menu listed one "Move: Walk" per sampled route.
* Eldfall Attack with STK > 1: the Strikes may be shared between targets
  (seed eldfall-actions-attack-section.txt, "In Active Role (STK > 1)").
* A ranged reaction names the point of the mover's path it is aimed at
  (same seed section, "In Reactive Role").
* F: the facing a move ends with (both games' Move carries one).
"""
from __future__ import annotations

import math
import os

import pytest

from view_fixtures import press, click_model, menu_key, open_controller  # noqa: E402

pytest.importorskip("panda3d")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _controller(view_app, tmp_path, scene, game="eldfall", moved=None):
    from tools.cmd_view import game_factory, load_world
    world = load_world(os.path.join(ROOT, "scenes", scene))
    for mid, (x, y, f) in (moved or {}).items():
        world.move_model(mid, x, y, 0.0, facing=f)
    g, geo = game_factory(world, game)(3)
    return open_controller(view_app, world, g, geo, tmp_path)


@pytest.fixture()
def norova(view_app, tmp_path):
    c = _controller(view_app, tmp_path, "norova-arena.yaml", "norova")
    yield c
    c.close()


@pytest.fixture()
def skirmish(view_app, tmp_path):
    c = _controller(view_app, tmp_path, "skirmish.yaml")
    yield c
    c.close()


def _labels(c):
    return [label for label, _ in c.menu]


def test_norova_menu_has_one_entry_per_movement_mode(norova):
    labels = _labels(norova)
    moves = [m for m in labels if m.startswith("Move: ")]
    assert len(moves) == len(set(moves)), labels              # not one per sampled route
    assert "Move: Walk (click the path)" in moves and "Move: Sprint (click the path)" in moves
    # modes the Norova rules do not know (Eldfall's Run and Jump) or refuse (the ranger cannot fly)
    assert not any(m.startswith(("Move: Run", "Move: Jump", "Move: Fly")) for m in moves), moves


def test_norova_walk_clicked_on_the_table(view_app, norova):
    c, world = norova, norova.world
    mid = c.active_model()
    assert mid == "ranger"
    hb = world.hitbox(mid)
    assert press(view_app, menu_key(c, "Move: Walk")) == "move"
    goal = (hb.x + 3.0, hb.y, 0.0)
    press(view_app, "mouse1", pixel=view_app.project(goal))
    action, reason = c.preview
    assert reason is None and type(action).__module__ == "rules.norova.actions"
    assert action.route[-1][:2] == pytest.approx(goal[:2], abs=0.05)
    # F with the pointer north of the end: the move ends facing north (90 degrees)
    end = action.route[-1]
    press(view_app, "f", pixel=view_app.project((end[0], end[1] + 4.0, 0.0)))
    assert c.preview[0].facing == pytest.approx(90.0, abs=1.0) and c.preview[1] is None
    events = press(view_app, "enter")
    mv = next(e for e in events if e.kind == "move")
    assert mv.data["moved"] and mv.data["end"][:2] == pytest.approx(goal[:2], abs=0.05)
    assert mv.data["facing"] == pytest.approx(90.0, abs=1.0)
    assert (world.hitbox(mid).x, world.hitbox(mid).y) == pytest.approx(goal[:2], abs=0.05)
    assert world.hitbox(mid).facing == pytest.approx(90.0, abs=1.0)
    # the move slot is spent: no movement entry any more
    assert not any(m.startswith("Move: ") for m in _labels(c))


def _archer_walks_and_marksman_waits(app, c):
    """Order, red-archer walks on the upper floor; returns at blue's Reaction step."""
    press(app, menu_key(c, "order blue second"))
    click_model(app, c.world, "red-archer")
    while c.game.pending[0] == "crouch":
        press(app, "p")
    press(app, menu_key(c, "Move: Walk"))
    press(app, "mouse1", pixel=app.project((5.0, 5.0, 2.75)))
    assert c.preview[1] is None, c.preview
    press(app, "enter")
    assert c.game.pending == ("reaction", "blue")


def test_a_reaction_is_aimed_at_the_point_of_the_path_clicked(view_app, skirmish):
    c = skirmish
    _archer_walks_and_marksman_waits(view_app, c)
    click_model(view_app, c.world, "blue-marksman")
    assert press(view_app, menu_key(c, "Ranged Attack")) == "target"
    start = (5.0, 3.0, 2.75)                          # where red-archer's walk began
    assert any(math.dist(p, start) < 0.05 for p in c.aim_points), c.aim_points
    assert "marked point of its path" in c.message
    events = press(view_app, "mouse1", pixel=view_app.project((5.1, 3.1, 2.75)))   # near the mark
    decl = next(e for e in events if e.kind == "declare")
    assert decl.data["model"] == "blue-marksman" and decl.data["role"] == "reactive"
    assert "at=5.0,3.0,2.75" in decl.data["action"]


def test_a_click_on_the_mover_keeps_the_rules_own_aim(view_app, skirmish):
    c = skirmish
    _archer_walks_and_marksman_waits(view_app, c)
    click_model(view_app, c.world, "blue-marksman")
    press(view_app, menu_key(c, "Ranged Attack"))
    events = click_model(view_app, c.world, "red-archer")
    decl = next(e for e in events if e.kind == "declare")
    assert " at=" not in decl.data["action"]          # no point named: the rules aim it


def _to_the_archers_action(app, c):
    _archer_walks_and_marksman_waits(app, c)
    while c.game.pending[0] in ("reaction", "crouch"):
        press(app, "p")
    assert c.game.pending == ("action", "red-archer")


def test_strikes_shared_between_two_targets_by_clicking(view_app, skirmish):
    c = skirmish
    _to_the_archers_action(view_app, c)
    labels = _labels(c)
    assert "Ranged Attack (Longbow) -> click target (all 2 Strikes)" in labels, labels
    assert press(view_app, menu_key(c, "Ranged Attack (Longbow) -> split")) == "target"
    assert click_model(view_app, c.world, "blue-warden") == ("strike", "blue-warden")
    assert c.game.pending == ("action", "red-archer")            # one Strike of two: nothing declared
    assert "1 of 2 Strikes: blue-warden 1 Strike" in c.message
    events = click_model(view_app, c.world, "blue-guard")
    decl = next(e for e in events if e.kind == "declare")
    assert "targets=blue-warden:1,blue-guard:1" in decl.data["action"]
    attacked = [e.data["target"] for e in events if e.kind == "attack"]
    assert attacked == ["blue-warden", "blue-guard"]


def test_split_strikes_backspace_and_enter(view_app, skirmish):
    c = skirmish
    _to_the_archers_action(view_app, c)
    press(view_app, menu_key(c, "Ranged Attack (Longbow) -> split"))
    click_model(view_app, c.world, "blue-warden")
    press(view_app, "backspace")                                   # taken back
    assert c.split == [] and "0 of 2 Strikes" in c.message
    click_model(view_app, c.world, "blue-guard")
    events = press(view_app, "enter")                              # one Strike only, declared
    decl = next(e for e in events if e.kind == "declare")
    assert "targets=blue-guard:1" in decl.data["action"] and "blue-warden" not in decl.data["action"]


def test_the_plain_target_click_still_puts_every_strike_on_the_model(view_app, skirmish):
    c = skirmish
    _to_the_archers_action(view_app, c)
    press(view_app, menu_key(c, "Ranged Attack (Longbow) -> click target"))
    events = click_model(view_app, c.world, "blue-guard")
    decl = next(e for e in events if e.kind == "declare")
    assert "targets=blue-guard:2" in decl.data["action"]


def test_the_status_says_whom_to_click_and_stays_short(view_app, skirmish):
    c = skirmish
    press(view_app, menu_key(c, "order blue second"))
    assert c.game.pending == ("tactical", "red")
    assert "red: click a ringed model to activate it" in c.hud.status.text
    assert "F1 all keys" in c.hud.status.text and "Ctrl+S" not in c.hud.status.text
    press(view_app, "f1")
    assert "Ctrl+S/Ctrl+O save/load" in c.hud.status.text and "F: face the pointer" in c.hud.status.text
