"""The play summary's points and distances (seventeenth review).

* A Climb's distances along its route count the climbed height, as the rules charge it
  (rulings "Climb"): a reaction at the start of a 7.0" Climb reads "where it began its
  Climb", not "4.0" before the end" (its plan length); one on the face counts the rest
  of the climb.
* A reaction told again after its mover's later activation (the view's event log,
  narrated anew from an earlier decision) is told against the move the mover had made
  when it was declared, not the later one.
* A Legends of Norova move that ends off the table says its height, as Eldfall's do.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from rules.core.dice import Dice
from rules.eldfall.actions import Activate, Declare, EndTurn, Move, Pass
from rules.eldfall.narrate import _where, narrate
from tests.eldfall_scenario import BASE_STATS, BOW, engine_game, setup, to_action, unit

ROOT = Path(__file__).resolve().parents[1]


def _climb_game():
    """b1 climbs a 3" block (y 10-14) from (10, 6.5) onto its top at (10, 10.5): 7.0" (2.87"
    across, 3" up, 1.13" across); r1's bow far to the east sees it at the start and end."""
    from engine.scene import TerrainSpec
    g = engine_game({"r1": ("red", 30, 8, 180), "b1": ("blue", 10, 6.5, 90)},
                    [TerrainSpec("block", "box", (10, 12, 0), size=(6, 4, 3))],
                    stats=dict(BASE_STATS, SPD=14), weapons=[BOW])
    to_action(g, "r1")
    g.apply(Declare("r1", "Nothing"))
    g.apply(EndTurn("red"))
    g.apply(Activate("b1"))
    while g.pending[0] != "movement":
        g.apply(Pass(g.pending[1]))
    g.apply(Move("b1", "climb", ((10.0, 10.5, 3.0),)))
    return g


def test_a_reaction_at_the_start_of_a_climb_reads_where_it_began():
    g = _climb_game()
    start = g.act.qualified["r1"]["seen"][0]
    assert start == (10.0, 6.5, 0.0)
    g.dice = Dice.fixed([20])
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),), point=start))
    lines = narrate(g.events)
    assert '  b1 climbs 7.0" to (10.0, 10.5), 3.00" up' in lines
    assert "  r1 reacts: Ranged Attack with Bow at b1, where it began its Climb" in lines


def test_a_point_on_the_face_counts_the_rest_of_the_climb_as_the_rules_charge_it():
    g = _climb_game()
    mv = next(e.data for e in reversed(g.events) if e.kind == "movement")
    assert mv["distance"] == pytest.approx(7.0)
    # the route the rules measured: across to the foot of the face, 3" up, across the top
    g.geo.place("b1", (10.0, 6.5, 0.0), 90.0)
    route = g.geo.check_move("b1", "climb", [(10.0, 10.5, 3.0)], 14.0, enemies={}).path
    foot = max((p for p in route if p[2] == 0.0), key=lambda p: p[1])
    halfway = (foot[0], foot[1], 1.5)
    # what the rules charged, less the walk to the foot and the first 1.5" up
    rest = mv["distance"] - (foot[1] - 6.5) - 1.5
    assert rest == pytest.approx(2.63, abs=0.01)
    a = Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),), point=halfway)
    assert _where(a, mv) == f"{rest:.1f}\" before the end of its 7.0\" Climb"


def test_a_reaction_told_again_after_the_movers_next_move_keeps_its_own_move():
    # r1 walks 5" south and b1 shoots at the end of that Walk; r1 then walks on from there.
    # The view's event log narrates anew from the reaction's decision on: the point is
    # still the end of r1's first Walk, not "where it began" its second
    r = unit("r1", "red", 2, 16, facing=270, stats={"STA": 3})
    b = unit("b1", "blue", 18, 20, weapons=[BOW], facing=180, stats={"STA": 3})
    g = setup([r, b], [20, 20, 20, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((2.0, 11.0, 0.0),)))
    end = g.act.qualified["b1"]["seen"][-1]
    assert end == (2.0, 11.0, 0.0)
    g.apply(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),), point=end))
    g.apply(Declare("r1", "Nothing"))
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((2.0, 7.0, 0.0),)))
    told = "  b1 reacts: Ranged Attack with Bow at r1, at the end of its Walk"
    assert told in narrate(g.events)
    k = next(i for i, e in enumerate(g.events) if e.kind == "declare" and e.data["model"] == "b1")
    j = max(i for i in range(k) if g.events[i].kind == "action")
    assert told in narrate(g.events[j:])
    # the declaration alone, after the whole game was told: the same
    assert told in narrate(g.events[k:k + 1])


def test_a_norova_move_onto_the_rock_says_its_height():
    import rules.norova as nv
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from rules.norova.actions import Move as NMove
    from rules.norova.narrate import line
    from tools.roster import units_from_scene
    scene = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    world = World(scene)
    g = nv.new_game(units_from_scene(scene, world), WorldGeometry(world), seed=1)
    g.geometry.place("knight", (18.0, 6.0, 0.0), 0)     # the climbable rock: x 20-22, y 5-7, 1.5" high
    g.queue.insert(0, "knight")
    ev = g.apply(NMove("knight", "climb", ((20.9, 6, 1.5),)))
    said = [s for s in map(line, ev) if s and "climbs" in s]
    assert said == ['   knight climbs to (20.90, 6.00), 1.50" up, facing 0']
