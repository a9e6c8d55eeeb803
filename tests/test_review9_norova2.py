"""Review 9 (Norova, 2): climbing is required above a step height.

The geometry lets a model step up anything lower than its hitbox (Eldfall's free
climbing); Legends of Norova says "When climbing or swimming is required, refer to
the climbing and swimming rules" (Obstacles). A walk, sprint or crawl whose route
rises more than `move.step_height` (1", one space) at once is refused: it needs a
`climb` move (half rate). The geometry reports the route's steps (`MoveCheck.steps`).
"""
from pathlib import Path

import pytest

from rules.core.flat import FlatGeometry
from rules.norova.actions import Attack, EndTurn, Move
from rules.norova.bots import GreedyBot
from rules.norova.data import NorovaDataError
from test_norova_helpers import arena_game, bot_turns, game, unit

ROOT = Path(__file__).resolve().parents[1]


def _arena(settings=None):
    return arena_game(settings)


# ---- the rock (2x2x1.5", climbable) on the real engine -------------------------------------
def test_a_walk_onto_the_rock_is_refused_it_needs_a_climb():
    g = _arena()
    g.geometry.place("knight", (18.0, 6.0, 0.0), 0)     # the rock: x 20-22, y 5-7, 1.5" high
    g.queue.insert(0, "knight")
    for mode in ("walk", "sprint", "crawl"):
        why = g.why_illegal(Move("knight", mode, ((20.9, 6, 1.5),)))
        assert why == "the rock's 1.5\" rise needs a climb", (mode, why)
    # the same route as a climb: accepted, at half rate (3" for the knight's 6)
    assert g.move_allowance("knight", "climb") == 3
    g.apply(Move("knight", "climb", ((20.9, 6, 1.5),)))
    assert g.geometry.position("knight")[2] == pytest.approx(1.5)


def test_a_walk_across_the_rock_is_refused_too():
    g = _arena()
    g.geometry.place("knight", (18.0, 6.0, 0.0), 0)
    g.queue.insert(0, "knight")
    # over the rock's corner and down again: still a 1.5" rise at once
    why = g.why_illegal(Move("knight", "walk", ((21.0, 8.5, 0.0),)))
    assert why == "the rock's 1.5\" rise needs a climb"
    assert g.why_illegal(Move("knight", "walk", ((18.0, 9.0, 0.0),))) is None     # beside it: a walk


def test_the_geometry_reports_the_steps_of_a_route():
    g = _arena()
    g.geometry.place("knight", (18.0, 6.0, 0.0), 0)
    mv = g.geometry.check_move("knight", "walk", [(21.0, 8.5, 0.0)], 20.0)
    assert mv.legal
    assert [round(s.height, 3) for s in mv.steps] == [1.5, -1.5]
    assert [s.piece for s in mv.steps] == ["rock", "rock"]
    flat = g.geometry.check_move("knight", "walk", [(18.0, 9.0, 0.0)], 20.0)
    assert flat.legal and list(flat.steps) == []


def test_the_low_wall_is_walked_over_and_off_the_rock_is_a_jump_down():
    """The ruling: a rise of one space (1") or less is a step; the 1" low wall is crossed
    by a walk. Going down needs no climb (a drop is a jump down: the falling rule)."""
    g = _arena()
    g.geometry.place("knight", (12.0, 7.0, 0.0), 90)     # the low wall: y 8.75-9.25, 1" high
    g.queue.insert(0, "knight")
    assert g.why_illegal(Move("knight", "walk", ((12.0, 11.0, 0.0),))) is None
    g.geometry.place("knight", (21.0, 6.0, 1.5), 0)      # on the rock
    assert g.why_illegal(Move("knight", "walk", ((24.0 - 0.7, 6.0, 0.0),))) is None


def test_the_step_height_and_the_drop_are_settings():
    g = _arena({"move": {"step_height": 0.5}})
    g.geometry.place("knight", (12.0, 7.0, 0.0), 90)
    g.queue.insert(0, "knight")
    assert g.why_illegal(Move("knight", "walk", ((12.0, 11.0, 0.0),))) == "the low-wall's 1\" rise needs a climb"
    g = _arena({"move": {"step_height": 2}})
    g.geometry.place("knight", (18.0, 6.0, 0.0), 0)
    g.queue.insert(0, "knight")
    assert g.why_illegal(Move("knight", "walk", ((20.9, 6, 1.5),))) is None
    g = _arena({"move": {"drop_needs_climb": True}})
    g.geometry.place("knight", (21.0, 6.0, 1.5), 0)
    g.queue.insert(0, "knight")
    assert g.why_illegal(Move("knight", "walk", ((23.3, 6.0, 0.0),))) == "the rock's 1.5\" drop needs a climb"
    assert g.why_illegal(Move("knight", "climb", ((23.3, 6.0, 0.0),))) is None
    with pytest.raises(NorovaDataError, match="step_height"):
        _arena({"move": {"step_height": -1}})


# ---- the flat test geometry reports the same -----------------------------------------------
def test_the_flat_geometry_reports_a_box_rise_and_the_rules_refuse_the_walk():
    crate = ("crate", 9.0, 3.0, 11.0, 7.0, 1.5)
    g = game([unit("A", "red", 7, 5, 0), unit("B", "blue", 25, 5, 180)], boxes=[crate])
    mv = g.geometry.check_move("A", "walk", [(12.9, 5.0, 0.0)], 20.0)
    assert [(round(s.height, 3), s.piece) for s in mv.steps] == [(1.5, "crate"), (-1.5, "crate")]
    assert g.why_illegal(Move("A", "walk", ((12.9, 5.0, 0.0),))) == "the crate's 1.5\" rise needs a climb"
    assert g.why_illegal(Move("A", "climb", ((8.9, 5.0, 0.0),))) is None
    low = ("kerb", 9.0, 3.0, 11.0, 7.0, 0.5)
    g = game([unit("A", "red", 7, 5, 0), unit("B", "blue", 25, 5, 180)], boxes=[low])
    assert g.why_illegal(Move("A", "walk", ((12.0, 5.0, 0.0),))) is None


# ---- the bots climb where they must -----------------------------------------------------
def _pit_scene(tmp_path):
    """A knight in a 1.5"-walled pit (inside 8-12 x 8-12), a ghoul outside it."""
    import yaml
    doc = yaml.safe_load((ROOT / "scenes" / "norova-arena.yaml").read_text())
    doc["terrain"] = [
        {"id": "pit-s", "shape": "box", "at": [10, 7.75, 0], "size": [5, 0.5, 1.5]},
        {"id": "pit-n", "shape": "box", "at": [10, 12.25, 0], "size": [5, 0.5, 1.5]},
        {"id": "pit-w", "shape": "box", "at": [7.75, 10, 0], "size": [0.5, 4, 1.5]},
        {"id": "pit-e", "shape": "box", "at": [12.25, 10, 0], "size": [0.5, 4, 1.5]},
    ]
    keep = {"knight": [10, 10], "ghoul": [18, 10]}
    doc["models"] = [dict(m, at=keep[m["id"]]) for m in doc["models"] if m["id"] in keep]
    doc.pop("deployment", None)
    path = tmp_path / "pit.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def test_the_greedy_bot_climbs_out_of_a_pit_instead_of_stalling(tmp_path):
    from tools import gameplay
    _, g = gameplay.new_game(str(_pit_scene(tmp_path)), "norova", 3)
    mine = bot_turns(g, "knight", lambda g: EndTurn(g.active_model), turns=10, max_round=4)
    moves = [a for a in mine if isinstance(a, Move)]
    assert moves and moves[0].mode == "climb"               # out over the wall: a climb, not a walk
    assert any(isinstance(a, Attack) for a in mine)          # and it gets to the ghoul


def test_legal_actions_offer_a_climb_where_no_walk_goes(tmp_path):
    from tools import gameplay
    _, g = gameplay.new_game(str(_pit_scene(tmp_path)), "norova", 3)
    while g.active_model != "knight":
        g.apply(EndTurn(g.active_model))
    moves = [a for a in g.legal_actions() if isinstance(a, Move)]
    assert moves and {a.mode for a in moves} == {"climb"}


def test_the_greedy_bot_plans_round_scenery_higher_than_the_step_height():
    """The walking planner keeps to the game's step height: with `move.step_height` 0.5,
    a 0.7" wall is walked round (the planner used half the hitbox, 0.89", and proposed
    walks over it that the rules refuse)."""
    from rules.core import Dice
    wall = ("wall", 5, 10, 15, 10.5, 0.7)
    g = game([unit("A", "red", 10, 9, 90), unit("B", "blue", 10, 11.6, 270)], boxes=[wall],
             settings={"move": {"step_height": 0.5}})
    g.dice = Dice(3)
    first = GreedyBot(1).choose(g)
    assert isinstance(first, Move) and first.mode in ("walk", "sprint") and len(first.route) >= 2, str(first)
