"""Review 16, the Legends of Norova hotseat menu: the blow of an Attack of Opportunity.

When an Attack of Opportunity's hit check succeeds and the attacking character has an
attack skill it could use (rules/norova: ``aoo_pending``), the game waits for the
defending side: the menu offers the defender its choices in words ("strike ghoul back with
the longsword using power strike (2 Power)"), the chosen one is applied, and Ctrl+Z goes
back to the choice.
"""
from __future__ import annotations

import os

import pytest

pytest.importorskip("panda3d")

from view_fixtures import menu_key, open_controller, press  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WALK = ((5.0, 9.0, 0.0),)            # the ghoul's walk north, past the knight's front


@pytest.fixture()
def waiting(view_app, tmp_path):
    """A hotseat controller on the arena, the knight (longsword; power strike, twin strike)
    at (3, 7) facing east, the ghoul at (5, 3): the ghoul's walk north comes within the
    knight's reach in its front. The first seed whose hit check succeeds: the controller
    with the knight's choice waiting."""
    from rules.norova.actions import EndTurn, Move
    from tools.cmd_view import game_factory, load_world
    world = load_world(os.path.join(ROOT, "scenes", "norova-arena.yaml"))
    world.move_model("knight", 3.0, 7.0, 0.0, facing=0.0)
    world.move_model("ghoul", 5.0, 3.0, 0.0, facing=90.0)
    new = game_factory(world, "norova")       # the game starts where they stand (undo replays it)
    c = None
    for seed in range(20):
        game, geo = new(seed)
        for _ in range(12):
            if game.active_model == "ghoul":
                break
            game.apply(EndTurn(game.active_model))
        if c is None:
            c = open_controller(view_app, world, game, geo, tmp_path)
        else:
            c.game, c.geometry = game, geo
        c._after_load("")
        assert c.active_model() == "ghoul"
        c.apply(Move("ghoul", "walk", WALK))
        if c.game.aoo_pending is not None:
            break
    assert c.game.aoo_pending is not None, "no seed of 20 gave the knight's hit"
    yield c
    c.close()


PLAIN = "strike ghoul back with the longsword (plain attack)"
POWER = "strike ghoul back with the longsword using power strike (2 Power)"
TWIN = "strike ghoul back with the longsword using twin strike (3 Power)"


def test_the_defender_is_offered_its_blows_in_words(view_app, waiting):
    c = waiting
    # the knight decides now: it is selected and the menu is its choices, nothing else
    assert c.active_model() == "knight" and c.selected == "knight"
    labels = [label for label, _ in c.build_menu()]
    assert labels == [PLAIN, POWER, TWIN], labels


def test_the_chosen_blow_is_applied_and_undone_back_to_the_choice(view_app, waiting):
    from rules.norova.actions import AooAttack
    c = waiting
    c.build_menu()
    press(view_app, menu_key(c, POWER))
    done, events = c.applied[-1]
    assert done == AooAttack("knight", "ghoul", "main", "power_strike"), c.message
    assert [e.data for e in events if e.kind == "aoo_strike"] == [
        {"model": "knight", "target": "ghoul", "hand": "main", "skill": "power_strike"}]
    assert "knight strikes ghoul back (main hand), using power strike" in c.message
    assert c.game.aoo_pending is None and c.active_model() == "ghoul"       # its turn goes on
    # Ctrl+Z: the choice waits again, offered as before
    press(view_app, "control-z")
    assert c.message == f"undone: knight: {POWER}"
    assert c.game.aoo_pending is not None and c.active_model() == "knight"
    assert [label for label, _ in c.build_menu()] == [PLAIN, POWER, TWIN]
