"""Standing up to Run with the real table (review 9): the rules check the path with
the hitbox the model will have, not the Crouched one it has before the step."""
from __future__ import annotations

import os

from rules.eldfall.actions import ChooseOrder, Move, Pass
from tools.cmd_view import game_factory, load_world

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DUEL = os.path.join(ROOT, "tests", "data", "view", "duel.yaml")


def _crouched_archer_moving():
    world = load_world(DUEL)
    game, _geo = game_factory(world, "eldfall")(3)
    game.add_state("red-archer", "Crouched", "set up by the test")
    order = next(a for a in game.legal_actions()
                 if isinstance(a, ChooseOrder) and (a.side == "red") == a.first)
    game.apply(order)
    game.apply(next(a for a in game.legal_actions()
                    if type(a).__name__ == "Activate" and a.model == "red-archer"))
    while game.pending[0] == "crouch":
        game.apply(next(a for a in game.legal_actions() if isinstance(a, Pass)))
    assert game.pending == ("movement", "red-archer")
    return world, game


def test_a_crouched_model_may_stand_up_and_run_on_the_real_table():
    world, game = _crouched_archer_moving()
    run = Move("red-archer", "run", ((10.0, 18.0, 0.0),), crouch_start=False)
    assert game.why_illegal(run) is None
    # asking did not stand the model up
    assert "Crouched" in world.hitbox("red-archer").states
    assert "Crouched" in game.models["red-archer"].states
    # the plain Run stays refused while it is Crouched
    assert game.why_illegal(Move("red-archer", "run", ((10.0, 18.0, 0.0),))) is not None
    offered = [a for a in game.legal_actions() if isinstance(a, Move) and a.mode == "run"]
    assert offered and all(a.crouch_start is False for a in offered)
    assert "Crouched" in world.hitbox("red-archer").states
    game.apply(run)
    assert "Crouched" not in game.models["red-archer"].states
    assert "Crouched" not in world.hitbox("red-archer").states
