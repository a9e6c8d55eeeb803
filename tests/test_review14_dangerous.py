"""Dangerous areas (eldfall-facts.md, Environments: "1 Wound on touch unless a Dodge roll
passes"): a movement whose base touches one makes a Dodge (AG) roll per area touched, and
a failed roll is a Wound. The tag was accepted and did nothing."""
from __future__ import annotations

from eldfall_scenario import BASE_STATS, engine_game
from rules.core.dice import Dice
from rules.eldfall.actions import Activate, Move
from rules.eldfall.narrate import line


def fire_game(fire_at=(12, 18), fire_height=0.01):
    from engine.scene import TerrainSpec
    return engine_game({"r1": ("red", 6, 18, 0), "b1": ("blue", 32, 32, 180)},
                       [TerrainSpec("fire", "box", (fire_at[0], fire_at[1], 0), size=(2, 2, fire_height),
                                    tags=("area", "dangerous"))], dict(BASE_STATS, SPD=5, AG=10, HP=3))


def test_the_geometry_names_the_dangerous_areas_a_route_touches():
    g = fire_game()
    through = g.geo.check_move("r1", "walk", [(9.5, 18, 0)], 5.0)     # the base reaches x 10.13
    assert through.legal and through.dangerous == []
    into = g.geo.check_move("r1", "run", [(13, 18, 0)], 5.0)
    assert into.legal, into.reason
    assert into.dangerous == ["fire"]
    # the base's edge touching counts (a 32 mm base: radius 0.63")
    edge = g.geo.check_move("r1", "walk", [(11 - 0.62, 18, 0)], 5.0)
    assert edge.dangerous == ["fire"]
    short = g.geo.check_move("r1", "walk", [(11 - 0.7, 18, 0)], 5.0)
    assert short.dangerous == []


def test_a_walk_into_a_dangerous_area_rolls_dodge_and_a_failure_wounds():
    g = fire_game()
    g.dice = Dice.fixed([15])                  # AG 10: 15 fails
    g.apply(Activate("r1"))
    ev0 = len(g.events)
    g.apply(Move("r1", "walk", ((10.6, 18.0, 0.0),)))     # base edge at x 11.23: in the fire
    checks = [e for e in g.events[ev0:] if e.kind == "check" and e.data["check"] == "Dangerous"]
    assert len(checks) == 1 and checks[0].data["area"] == "fire" and not checks[0].data["die"]["success"]
    assert g.models["r1"].hp == 2
    text = line(checks[0])
    assert "touches the Dangerous area fire: Dodge (AG) roll: 15 vs 10 -> fail" in text, text


def test_a_passed_dodge_roll_takes_no_wound():
    g = fire_game()
    g.dice = Dice.fixed([3])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.6, 18.0, 0.0),)))
    assert g.models["r1"].hp == 3
    assert [e.data["die"]["success"] for e in g.events if e.kind == "check" and e.data["check"] == "Dangerous"] == [True]


def test_a_walk_that_stays_clear_rolls_nothing():
    g = fire_game()
    g.dice = Dice.fixed([])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((9.0, 18.0, 0.0),)))
    assert not [e for e in g.events if e.kind == "check" and e.data["check"] == "Dangerous"]
    assert g.models["r1"].hp == 3


def test_move_says_where_a_route_touches_a_dangerous_area(tmp_path, capsys):
    import json
    from cli_run import run_cli  # noqa: E402
    from scene_files import write
    p = write(tmp_path, "fire.yaml", """
table: [24, 24]
terrain:
  - {id: fire, shape: box, at: [12, 12, 0], size: [2, 2, 0.01], tags: [area, dangerous]}
models:
  - {id: r1, side: red, size: M, at: [6, 12], facing: 0, stats: {SPD: 5}}
""")
    rc, out, err = run_cli(capsys, "move", str(p), "r1", "--mode", "run", "--to", "16,12")
    assert rc == 0, err
    assert "touches the Dangerous area fire: a Dodge (AG) roll, 1 Wound if it fails" in out, out
    rc, out, err = run_cli(capsys, "move", str(p), "r1", "--mode", "walk", "--to", "9,12")
    assert "Dangerous" not in out, out
    rc, out, err = run_cli(capsys, "move", str(p), "r1", "--mode", "run", "--to", "16,12", "--json")
    assert json.loads(out)["dangerous"] == ["fire"]
