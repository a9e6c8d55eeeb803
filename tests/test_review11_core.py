"""Review 11, the engine-side changes the helpers' findings needed (engine/sight.py)."""
from __future__ import annotations

from engine import sight
from engine.scene import load_scene
from engine.world import World
from scene_files import write  # noqa: E402
from test_review11_dispute import FLYING_BACK  # noqa: E402
from test_review11_eldfall_sequence import SCRUM  # noqa: E402


def test_an_engaged_models_engagers_are_the_enemies_that_see_it(tmp_path):
    # States, Engaged: "within the Melee Weapon Reach and LoS of an enemy model". b1 stands in
    # the Reach of r1 (facing it) and of r3 (behind it, facing away): only r1 engages it, so
    # the Engaged exception gives b1 LoS to r1 and not to r3
    text = SCRUM.replace("at: [10, 14],   facing: 90}", "at: [10, 14],   facing: 90, states: [Engaged]}")
    world = World(load_scene(str(write(tmp_path, "scrum.yaml", text))))
    assert world.in_reach("r3", "b1", 2.0)
    assert sight.engagers(world, "b1") == ["r1"]
    assert sight.los(world, "b1", "r1", fraction=False, cover=False).los
    assert not sight.los(world, "b1", "r3", fraction=False, cover=False).los
    # r3 turned to face b1: it engages too
    turned = text.replace("at: [10, 11.6], facing: 270", "at: [10, 11.6], facing: 90")
    world2 = World(load_scene(str(write(tmp_path, "turned.yaml", turned))))
    assert sorted(sight.engagers(world2, "b1")) == ["r1", "r3"]
    # a Petrified enemy engages no one (Engaged ends when "the enemy model enters the
    # Incapacitated, Petrified, Crouched, or Dead State")
    world.set_states("r1", {"Petrified"})
    assert sight.engagers(world, "b1") == []


def test_los_a_state_gives_is_measured_all_round(tmp_path):
    # f flies and faces away from t: LoS yes (Flying). The share seen, the blocking wall and
    # the witness are those of every line between the hitboxes, as when f sees all round
    # (moving): "LoS yes, 0% visible, blocking: none" contradicted the cover next to it
    world = World(load_scene(str(write(tmp_path, "fly.yaml", FLYING_BACK))))
    r = sight.los(world, "f", "t")
    moving = sight.los(world, "f", "t", moving=True)
    assert r.los and not r.in_front_arc and not r.all_round
    assert r.visible_fraction == moving.visible_fraction > 0.3
    assert r.blocking == moving.blocking == ("wall",)
    assert r.witness is not None


def test_an_engaged_walk_heads_only_for_the_enemies_that_see_it(tmp_path):
    # "Engaged: only Walk, directly toward the enemy engaging it": r3 behind b1, facing away,
    # has b1 in its Reach but does not see it, so it engages nothing and is no Walk's goal
    from engine.motion import check_path
    text = SCRUM.replace("at: [10, 14],   facing: 90}", "at: [10, 14],   facing: 90, states: [Engaged]}")
    world = World(load_scene(str(write(tmp_path, "scrum.yaml", text))))
    toward_r1 = check_path(world, "b1", [(10.0, 14.6)], "walk")
    assert toward_r1.legal, toward_r1.reason
    toward_r3 = check_path(world, "b1", [(10.0, 13.2)], "walk")
    assert not toward_r3.legal and "r1" in toward_r3.reason and "r3" not in toward_r3.reason


def test_an_engaged_engager_does_not_engage_back_through_its_engaged_los(tmp_path):
    # measure: b1 (Engaged, facing r1) is in r3's Reach and r3 sees it, so r3 engages b1;
    # b1 turned away from r3 touches it (its Reach) but not in its LoS: it does not engage
    # r3, though the Engaged state gives b1 LoS to r3
    from engine.measure import engagements, engages
    text = SCRUM.replace("at: [10, 14],   facing: 90}", "at: [10, 14],   facing: 90, states: [Engaged]}") \
        .replace("at: [10, 11.6], facing: 270", "at: [10, 12.583], facing: 90")
    world = World(load_scene(str(write(tmp_path, "scrum.yaml", text))))
    assert engages(world, "r3", "b1") and engages(world, "r1", "b1")
    assert sight.los(world, "b1", "r3", fraction=False, cover=False).los     # the Engaged exception
    assert world.base_contact("b1", "r3")
    assert not engages(world, "b1", "r3")
    assert ("b1", "r3") not in engagements(world) and ("r3", "b1") in engagements(world)


def test_a_move_off_the_table_is_told_with_its_height():
    # "walks 4.0\" to (12.0, 5.0)" for a walk that ends on a tower's roof read as a walk on the
    # ground: the end's height is told when it is off the table
    from rules.core.game import Event
    from rules.eldfall.narrate import line
    up = line(Event("movement", {"model": "r1", "movement": "Climb", "end": [12.0, 5.0, 3.0],
                                 "distance": 4.0, "path": [[12.0, 5.0, 3.0]]}))
    assert up == "  r1 climbs 4.0\" to (12.0, 5.0), 3.00\" up", up
    flat = line(Event("movement", {"model": "r1", "movement": "Walk", "end": [12.0, 5.0, 0.0],
                                   "distance": 4.0, "path": [[12.0, 5.0, 0.0]]}))
    assert flat == "  r1 walks 4.0\" to (12.0, 5.0)", flat


def test_the_attract_banner_tells_a_move_off_the_table_with_its_height(view_app, tmp_path):
    from rules.eldfall.actions import Move
    from test_review10_attract import _attract  # noqa: E402
    ctl, _ = _attract(view_app, tmp_path)
    up = ctl.narrate(Move("red-archer", "climb", ((12.0, 5.0, 3.0),)), [])
    assert "(red-archer climbs to (12.0, 5.0), 3.00\" up)" in up, up
    flat = ctl.narrate(Move("red-archer", "walk", ((12.0, 5.0, 0.0),)), [])
    assert "(red-archer walks to (12.0, 5.0))" in flat, flat


def test_move_and_reach_refuse_a_picture_folder_whose_picture_is_a_folder(capsys, tmp_path):
    # "DIR/move.png" a folder: move printed "picture: DIR/move.png" with exit 0 and left an
    # empty move.png.pz; reach did all its work, then failed: now one line, before any work
    from cli_run import run_cli  # noqa: E402
    (tmp_path / "move.png").mkdir()
    (tmp_path / "reach-top.png").mkdir()
    rc, out, err = run_cli(capsys, "move", "scenes/skirmish.yaml", "red-archer", "--to", "6,4",
                           "--mode", "walk", "--picture", str(tmp_path))
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "move.png" in err, (rc, out, err)
    rc, out, err = run_cli(capsys, "reach", "scenes/skirmish.yaml", "red-archer", "--mode", "walk",
                           "--picture", str(tmp_path))
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "reach-top.png" in err, (rc, out, err)
    assert not list(tmp_path.glob("*.pz")) and sorted(p.name for p in tmp_path.iterdir()) == \
        ["move.png", "reach-top.png"]


def test_frames_beyond_the_limit_are_refused_before_any_work(capsys, tmp_path):
    from cli_run import run_cli  # noqa: E402
    from tools.cmd_view import MAX_FRAMES
    for cmd in (["view", "scenes/skirmish.yaml", "--offscreen"], ["demo", "scenes/skirmish.yaml"]):
        rc, out, err = run_cli(capsys, *cmd, "--frames", str(MAX_FRAMES + 1), "--out", str(tmp_path / "o"))
        assert rc == 2 and f"--frames: must be 1 to {MAX_FRAMES}, not {MAX_FRAMES + 1}" in err, (cmd, err)
    assert not (tmp_path / "o").exists()


def test_measure_and_move_say_a_reserve_creature_is_off_the_table(capsys):
    from cli_run import run_cli  # noqa: E402
    for argv in (["measure", "scenes/ritual.yaml", "ritual-wolf", "red-summoner"],
                 ["move", "scenes/ritual.yaml", "ritual-wolf", "--to", "6,4", "--mode", "walk"],
                 ["reach", "scenes/ritual.yaml", "ritual-wolf", "--mode", "walk"]):
        rc, _, err = run_cli(capsys, *argv)
        assert rc == 2 and "'ritual-wolf' is a reserve creature: off the table until a Ritual summons it" in err, \
            (argv, err)


def test_rounds_below_one_are_refused_and_a_statless_model_reads_hp_1_of_1(capsys, tmp_path):
    # --set rounds=0 played a full round, then said "turn limit: after the last player's turn 0";
    # a model given by size alone starts with 1 HP and read "HP 1/0"
    from cli_run import run_cli  # noqa: E402
    from tools.gameplay import new_game
    rc, _, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "random", "--set", "rounds=0", "--log", str(tmp_path / "g.log"))
    assert rc == 2 and "rounds" in err and "must be at least 1" in err and len(err.strip().splitlines()) == 1, err
    assert not (tmp_path / "g.log").exists()
    _, g = new_game("scenes/open.yaml", None, 0)
    line = next(ln for ln in g.summary().splitlines() if "blue-marker" in ln)
    assert "HP 1/1 " in line, line


def test_a_model_in_the_open_corner_of_an_l_shaped_area_is_not_in_it(tmp_path):
    # an area is where its piece lies seen from above, not the hull of its corners: the
    # environments (Dense, Forest, deep water, difficult) of a base in the L's notch are none
    text = """\
table: [24, 24]
terrain:
  - {id: mud, shape: prism, at: [0, 0, 0], points: [[4, 4], [16, 4], [16, 8], [8, 8], [8, 16], [4, 16]],
     height: 0.01, tags: [area, difficult, forest]}
models:
  - {id: a, side: red, size: M, at: [13, 10], facing: 0}
  - {id: b, side: blue, size: M, at: [6, 10], facing: 0}
"""
    world = World(load_scene(str(write(tmp_path, "l.yaml", text))))
    assert world.environments("a") == frozenset()
    assert "difficult" in world.environments("b") and "forest" in world.environments("b")


def test_the_norova_menu_names_an_ally_a_turn_faces(view_app, tmp_path):
    # a turn to face an ally (to give it a potion) read "turn to 341.57 degrees"
    import math
    from rules.norova.actions import Turn
    from view_fixtures import open_scene  # noqa: E402
    ctl = open_scene(view_app, tmp_path, "scenes/norova-arena.yaml", "norova")
    to_cleric = round(math.degrees(math.atan2(2 - 3, 15 - 12)) % 360.0, 2)
    assert ctl.norova_words(Turn("knight", to_cleric)) == "turn to face cleric"
    to_brute = round(math.degrees(math.atan2(21 - 3, 0)) % 360.0, 2)
    assert ctl.norova_words(Turn("knight", to_brute)) == "turn to face brute"
    assert ctl.norova_words(Turn("knight", 123.0)) == "turn to 123 degrees"


def test_the_flat_test_table_stands_a_model_placed_without_height_on_the_surface():
    # as WorldGeometry.place does: (x, y) without z stands on the box top under the base, not
    # at 0 inside the box; a box taller than the model's top is not climbed onto
    from rules.core.flat import FlatGeometry
    geo = FlatGeometry((30, 30), [("ledge", 0, 0, 10, 10, 1.0), ("tower", 20, 0, 30, 10, 9.0)])
    geo.add("A", 15, 5)
    geo.place("A", (5.0, 5.0))
    assert geo.position("A")[2] == 1.0
    geo.place("A", (15.0, 5.0))
    assert geo.position("A")[2] == 0.0
    geo.place("A", (25.0, 5.0))
    assert geo.position("A")[2] == 0.0
    geo.place("A", (5.0, 5.0, 0.5))            # a height given is kept
    assert geo.position("A")[2] == 0.5
