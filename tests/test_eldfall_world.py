"""The Eldfall rules on the real engine World (scenes/open.yaml, scenes/skirmish.yaml)."""
import pytest

from rules.core.dice import Dice
from rules.core.errors import IllegalAction
from rules.core.log import EventLog, read_log
from rules.eldfall import game_from_log
from rules.eldfall.actions import Activate, ChooseOrder, Declare, EndTurn, Move, Pass
from tools import gameplay


def open_game(rolls, first="red", log=None):
    mod, g = gameplay.new_game("scenes/open.yaml", "eldfall", seed=3, log=log)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    if rolls is not None:
        g.dice = Dice.fixed(rolls)
    return g


def test_open_scene_setup():
    mod, g = gameplay.new_game("scenes/open.yaml", "eldfall", seed=3)
    assert g.sides == ["red", "blue"] and g.pending[0] == "order"
    assert [e.kind for e in g.events][:2] == ["setup", "deployment"]
    assert g.models["red-archer"].unit.weapons[0]["name"] == "Longbow"


def test_archer_shoots_the_warden_on_open_ground():
    g = open_game([3, 2, 4, 5])
    g.apply(Activate("red-archer"))
    g.apply(Move("red-archer", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    ev = g.apply(Declare("red-archer", "Ranged Attack", weapon="Longbow",
                         targets=(("blue-warden", 2),)))
    att = [e.data for e in ev if e.kind == "attack"][0]
    assert att["stat"] == "ACC" and att["attribute"] == 15 and att["modifiers"] == {}
    dmg = [e.data for e in ev if e.kind == "damage"]
    assert len(dmg) == 2 and dmg[0]["threshold"] == 11 - 4
    assert g.models["blue-warden"].hp == 1


def test_a_walk_on_the_real_table_and_its_reaction_step():
    g = open_game(None)
    g.apply(Activate("red-champion"))
    with pytest.raises(IllegalAction, match="allowance is 5"):
        g.apply(Move("red-champion", "walk", ((16.0, 18.0, 0.0),)))
    g.apply(Move("red-champion", "walk", ((10.0, 18.0, 0.0),)))
    x, y, z = g.geo.position("red-champion")
    assert abs(x - 10.0) < 1e-6 and abs(y - 18.0) < 1e-6
    assert g.pending == ("reaction", "blue")
    assert "blue-warden" in g.act.qualified and g.act.qualified["blue-warden"]["los"]


def test_a_logged_world_game_replays_to_the_same_hash(tmp_path):
    path = tmp_path / "open.jsonl"
    log = EventLog(path)
    mod, g = gameplay.new_game("scenes/open.yaml", "eldfall", seed=5, log=log)
    bots = {s: mod.BOTS["random"](i) for i, s in enumerate(g.sides)}
    for _ in range(25):
        if g.is_over:
            break
        g.apply(bots[g.decider()].choose(g))
    log.close()
    header, events, warnings = read_log(path)
    _, _, geo = gameplay.load_table("scenes/open.yaml")
    again = game_from_log(header, events, geo)
    assert again.state_hash() == g.state_hash()


def test_path_sight_shortcut_agrees_with_the_full_path_sampling():
    from engine import sight as es
    _, world, geo = gameplay.load_table("scenes/skirmish.yaml")
    mover = "red-scout"
    x, y, z = geo.position(mover)
    path = [(x, y + 4.0, z)]
    observers = [m for m in world.model_ids() if m.startswith("blue")][:3]
    fast = {r.observer: r for r in geo.sight_along_path(mover, path, observers)}
    full = {r.observer: r for r in es.los_along_path(world, mover, [(x, y, z)] + path, observers)}
    for o in observers:
        assert fast[o].had_los == full[o].had_los
        assert fast[o].entered_awareness == full[o].entered_awareness
        assert bool(fast[o].seen) == fast[o].had_los
    assert geo.position(mover) == (x, y, z)


def test_path_sight_of_observers_facing_away_agrees_with_full_sampling():
    from engine import sight as es
    _, world, geo = gameplay.load_table("scenes/open.yaml")
    mover = "red-archer"
    x, y, z = geo.position(mover)
    path = [(x + 3.0, y, z)]
    for o, facing in (("blue-warden", 0.0), ("blue-ogre", 0.0), ("blue-ogre", 180.0)):
        world.set_facing(o, facing)
        fast = geo.sight_along_path(mover, path, [o])[0]
        full = es.los_along_path(world, mover, [(x, y, z)] + path, [o])[0]
        assert fast.had_los == full.had_los, (o, facing)
    assert geo.sight_along_path(mover, path, ["blue-ogre"])[0].had_los        # facing it (180)
    world.set_facing("blue-ogre", 0.0)
    assert not geo.sight_along_path(mover, path, ["blue-ogre"])[0].had_los    # back turned
    assert geo.sight_along_path(mover, path, ["blue-warden"])[0].had_los      # Vigilance: 360


def test_free_spot_refuses_a_base_inside_a_wall():
    # a summon's place (WorldGeometry.free_spot): clear table yes, inside or across a 3" wall
    # no (the stance alone found the table under the wall and said yes), on the crates' top yes
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    g = WorldGeometry(World(load_scene("scenes/skirmish.yaml")))
    r, h = 0.63, 1.77
    assert g.free_spot("x", (18.0, 14.0, 0.0), r, h)
    assert not g.free_spot("x", (18.0, 18.0, 0.0), r, h)           # wall-1: x 14-22, y 17.75-18.25
    assert not g.free_spot("x", (18.0, 18.7, 0.0), r, h)           # the base overlaps it by 0.18"
    assert g.free_spot("x", (18.0, 18.9, 0.0), r, h)               # 0.02" clear of it
    assert g.free_spot("x", (13.55, 11.0, 2.0), 0.4, h)            # on top of the stacked crate
