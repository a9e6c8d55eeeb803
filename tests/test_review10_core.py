"""Session 10, the leftovers of the review helpers' reports:

* the flat test geometry (rules/core/flat.py) flies as the table does: a Norova flight
  crosses models (docs/rulings.md, "Flying"); engine.motion's Flying walk neither stops at
  an enemy's base nor lets a walking enemy make it an attack-of-opportunity point;
* a void action has a narration line;
* a state's "no LoS" names nothing blocking in the engine's own answer (F12 writes it);
* the greedy Norova bot revives a dead ally (only a spell can);
* LoS pictures draw the target points behind the viewer's arc line grey, not red;
* a game log asked for under a file says "not a folder".
"""
import pytest

from rules.norova.actions import Move
from test_norova_helpers import game, unit


def _line():
    # A flies east straight over B's base to a point beyond it
    return [unit("A", "red", 3, 5, abilities=["flying"]), unit("B", "blue", 10, 5, 180)]


def test_a_flight_crosses_an_enemy_on_the_flat_geometry():
    g = game(_line(), scene_info={"norova": {"flying": True}})
    mv = g.geometry.check_move("A", "fly", [(16.0, 5.0, 0.0)], 18.0, enemies={"B": 1.0})
    assert mv.legal, mv.reason
    assert mv.stopped_by is None and mv.opportunity_points == []
    assert g.why_illegal(Move("A", "fly", ((16.0, 5.0, 0.0),))) is None


def test_a_walk_still_stops_at_the_enemy_and_a_flying_enemy_still_reaches_a_flight():
    g = game(_line(), scene_info={"norova": {"flying": True}})
    walk = g.geometry.check_move("A", "walk", [(16.0, 5.0, 0.0)], 18.0, enemies={"B": 1.0})
    assert walk.stopped_by == "B" or not walk.legal
    g.geometry.models["B"].states = frozenset({"Flying"})
    fly = g.geometry.check_move("A", "fly", [(16.0, 5.0, 0.0)], 18.0, enemies={"B": 1.0})
    assert [e for e, _ in fly.opportunity_points] == ["B"]


def test_a_void_action_has_a_line_and_two_gone_targets_read_are():
    from rules.core.game import Event
    from rules.eldfall.narrate import declared, line
    text = "declare r1 Assist targets=c1:1,c2:1"
    got = line(Event("action_void", {"model": "r1", "action": text,
                                    "why": "c1, c2 are no longer on the table"}))
    assert got == f"  r1's action {declared(text)} does not resolve (c1, c2 are no longer on the table)"
    assert "Assist at c1, c2" in got


def test_a_blinded_viewer_has_nothing_blocking_in_the_engine_answer(tmp_path):
    # the F12 folder writes sight.los(...).as_dict() as it is: a state's "no" names no piece,
    # though a wall half-hides the target from the same viewer unblinded
    from engine import sight
    from engine.scene import load_scene
    from engine.world import World
    from test_review10_dispute import SIDE, _scene
    w = World(load_scene(_scene(tmp_path)))
    r = sight.los(w, "d", "c")
    assert r.los is False and r.blocking == () and r.as_dict()["blocking"] == []
    w2 = World(load_scene(_scene(tmp_path, SIDE.replace(", states: [Blinded]", ""), "open.yaml")))
    assert sight.los(w2, "d", "c").blocking != ()


def test_the_greedy_norova_bot_revives_a_dead_ally_with_a_healing_spell():
    from rules.norova.actions import Cast
    from rules.norova.bots import GreedyBot
    us = [unit("A", "red", 5, 5, 0, spells=["mend"]), unit("C", "red", 6.5, 5, 180),
          unit("B", "blue", 25, 25, 180)]
    g = game(us)
    g._kill(g.f("C"), "deathblow")
    assert GreedyBot(1).choose(g) == Cast("A", "mend", "C")


def test_target_points_behind_the_front_arc_line_are_drawn_grey_not_red(tmp_path):
    # b straddles a's front arc line with nothing between: its far half is unseen because of
    # the arc; the picture drew it red, the legend's "hidden", as if something blocked it
    import numpy as np
    ov = pytest.importorskip("engine.view.overlays")
    from engine import sight
    from engine.scene import load_scene
    from engine.world import World
    from test_review10_dispute import _scene
    r = sight.los(World(load_scene(_scene(tmp_path))), "a", "b")
    col = ov.target_point_colours(r)
    behind = ~r.target_allowed
    assert behind.any() and (col[behind] == ov.GREY).all()
    assert (col[r.target_visible] == ov.GREEN).all() and not (col == ov.RED).all(axis=1).any()
    moving = sight.los(World(load_scene(_scene(tmp_path))), "a", "b", moving=True)   # all round: no arc
    assert not (ov.target_point_colours(moving) == ov.GREY).all(axis=1).any()


def test_a_log_under_a_file_says_not_a_folder(tmp_path):
    from rules.core.errors import LogError
    from rules.core.log import EventLog
    f = tmp_path / "scene.yaml"
    f.write_text("x")
    with pytest.raises(LogError, match=f"not a folder: {f}"):
        EventLog(str(f / "game.jsonl"))
    with pytest.raises(LogError, match="folder does not exist"):
        EventLog(str(tmp_path / "nowhere" / "game.jsonl"))


def test_eldfall_play_and_replay_tell_the_misses(tmp_path, capsys):
    # the rules emit no event for a miss: the narration's misses() gives the line, and the
    # play summary and `replay --events` print it after the attack's dice
    from cli_run import run_cli
    log = str(tmp_path / "g.jsonl")
    rc, out, err = run_cli(capsys, "play", "scenes/skirmish.yaml", "--bots", "--seed", "3", "--log", log)
    assert rc == 0, err
    miss = [ln for ln in out.splitlines() if " misses " in ln]
    assert miss and all("rolled" in ln for ln in miss)
    rc, out, err = run_cli(capsys, "replay", log, "--events")
    assert rc == 0, err
    assert [ln.split(None, 1)[1] for ln in out.splitlines() if " misses " in ln] == [m.strip() for m in miss]


def test_a_norova_crawl_steps_over_the_arenas_low_wall_as_a_walk_does():
    # the page's crawl keeps low, and the arena's 1" step is for walks, sprints and crawls:
    # the crawl's route was judged with the Crouched hitbox (0.14" high) and refused the wall
    from rules.norova.actions import Move
    from test_norova_helpers import arena_game
    g = arena_game()
    g.geometry.world.move_model("ranger", 12.0, 8.0, 0.0)    # the low wall: y 8.75 to 9.25, 1" high
    f = g.fighters["ranger"]
    for low, prone in ((True, False), (False, True)):        # crawled, or fallen
        f.low, f.prone = low, prone
        g._sync_states(f)
        mv, _ = g.move_check(Move("ranger", "crawl", ((12.0, 10.3, 0.0),)))
        assert mv.legal, mv.reason
        assert g.geometry.world.hitbox("ranger").states == frozenset({"Crouched"})   # put back
    f.low = f.prone = False
    g._sync_states(f)
    tall = g.move_check(Move("ranger", "walk", ((12.0, 10.3, 0.0),)))[0]
    assert tall.legal                                        # standing, as before


def test_natural_weapons_are_never_put_away_nor_offered_to_be():
    # the ghoul's claws: the hotseat menu offered "put away the claws (fight unarmed)"
    from rules.core import IllegalAction
    from rules.norova.actions import Equip
    us = [unit("G", "blue", 5, 5, 0, equipment={"main": "claws", "off": "claws"}, inventory={"dagger": 1}),
          unit("K", "red", 25, 25, 180)]
    g = game(us)
    assert g.active_model == "G"
    for eq in (Equip("G", None, None), Equip("G", "dagger", "claws"), Equip("G", "claws", None)):
        with pytest.raises(IllegalAction, match="is a natural weapon: it cannot be put away"):
            g.apply(eq)
    assert not [a for a in g.legal_actions() if isinstance(a, Equip)]
    k = [unit("K", "red", 5, 5, 0, inventory={"dagger": 1}), unit("G", "blue", 25, 25, 180)]
    assert [a for a in game(k).legal_actions() if isinstance(a, Equip)]    # a sword is put away


def test_the_cover_line_says_none_once():
    from engine.cover import cover_line
    r = {"cover": "none", "cover_piece": None, "cover_reason": "no cover: low-wall-2 hides part of it but is 5.16\" away"}
    assert cover_line(r) == "cover: none: low-wall-2 hides part of it but is 5.16\" away"
    r2 = {"cover": "none", "cover_piece": None, "cover_reason": "no scenery within 1\" hides part of its hitbox"}
    assert cover_line(r2) == "cover: none: no scenery within 1\" hides part of its hitbox"


def test_a_reaction_where_a_move_down_a_ledge_began_reads_in_words():
    # skirmish seed 5: red-archer's reaction aimed at the start of a 2.0" Walk that began
    # 1.2" up read as coordinates: the 3D line from the start to the end is 2.33", longer
    # than the move (measured on the table)
    from rules.eldfall.actions import Declare
    from rules.eldfall.narrate import _where
    mv = {"movement": "Walk", "path": [[12.0, 24.6, 0.0]], "end": [12.0, 24.6, 0.0], "distance": 2.0}
    start = Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),), point=(14.0, 24.6, 1.2))
    assert _where(start, mv) == "where it began its Walk"
    mid = Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),), point=(13.0, 24.6, 0.6))
    assert _where(mid, mv) == "1.0\" before the end of its 2.0\" Walk"


def test_replay_after_a_torn_last_line_says_what_it_made_again():
    from tools.cmd_replay import replayed_line
    line = replayed_line("eldfall", 3, None, 2144, 2143)
    assert "2144 of the log's" not in line
    assert "2144 events, numbered from 0: the log's 2143 events and 1 more that its last action made again" in line
    assert "(10 of the log's 12 events, numbered from 0)" in replayed_line("eldfall", 3, 5, 10, 12)
