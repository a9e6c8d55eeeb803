"""Helpers for scripted Eldfall scenarios on the pure-Python FlatGeometry (and, with
``walled_game``, on the real engine)."""
from __future__ import annotations

from rules.core.dice import Dice
from rules.core.flat import FlatGeometry
from rules.core.units import Unit, spell_dict, weapon_dict
from rules.eldfall.actions import ChooseOrder
from rules.eldfall.sequence import EldfallGame

BASE_STATS = dict(STA=2, SPD=5, ARM=3, HP=3, OFF=14, DEF=12, ACC=13, INT=12, AG=10, T=12, M=14)
SWORD = weapon_dict("Sword", "melee", 1, 11, 2)
BOW = weapon_dict("Bow", "ranged", pw=10, stk=2, bands=[(0, 12, 0), (12, 24, -3)], hands=1)


def unit(id, side, x, y, *, facing=None, weapons=None, stats=None, **kw) -> Unit:
    st = dict(BASE_STATS)
    st.update(stats or {})
    if facing is None:
        facing = 90.0 if side == "red" else 270.0
    return Unit(id, side, name=id, stats=st, weapons=list(weapons if weapons is not None else [SWORD]),
                at=(float(x), float(y), 0.0), facing=float(facing), **kw)


def setup(units, rolls=(), boxes=(), settings=None, first="red", table=(36.0, 36.0),
          seed=0) -> EldfallGame:
    """A game at the first player's Tactical Phase, then dice fixed to ``rolls``."""
    geo = FlatGeometry(table, boxes=boxes)
    for u in units:
        if not u.extra.get("reserve"):
            geo.add_model(u, u.at, u.facing)
    g = EldfallGame(units, geo, seed=seed, settings=settings, scene_info={"table": list(table)})
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    g.dice = Dice.fixed(rolls)
    return g


def kinds(events, kind):
    return [e for e in events if e.kind == kind]


def rolls_left(g):
    return g.dice.remaining()


def to_action(g, model, move=None):
    """Activate ``model``, declare its movement (Idle by default), pass the reactions."""
    from rules.eldfall.actions import Activate, Move, Pass
    g.apply(Activate(model))
    g.apply(move or Move(model, "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass(g.pending[1]))
    return g


def at_action(g, model="r1"):
    """Activate ``model`` Idle and pass every reactive window up to its Action Step."""
    from rules.eldfall.actions import Activate, Move, Pass
    g.apply(Activate(model))
    g.apply(Move(model, "idle"))
    while g.pending[0] != "action":
        g.apply(Pass(g.pending[1]))
    return g


def engine_game(pos, terrain, stats=None, weapons=None, extra=None) -> EldfallGame:
    """A game on the real engine (engine.world, Embree rays): the Medium models of ``pos``
    (id -> (side, x, y, facing)) with ``stats`` (BASE_STATS), r1 armed with ``weapons``,
    on a 36" table with ``terrain`` (engine.scene.TerrainSpec records); ``extra``: id ->
    more of its Unit's fields (skills, states); at the first player's Tactical Phase, no
    dice fixed."""
    from engine.geometry import WorldGeometry
    from engine.scene import ModelSpec, Scene
    from engine.world import World
    stats = dict(stats or BASE_STATS)
    scene = Scene("", (36, 36), terrain=tuple(terrain),
                  models=tuple(ModelSpec(k, s, 32, 45, (x, y, None), facing=f, stats=dict(stats))
                               for k, (s, x, y, f) in pos.items()))
    units = [unit(k, s, x, y, facing=f, stats=dict(stats), weapons=weapons if k == "r1" else None,
                  **(extra or {}).get(k, {}))
             for k, (s, x, y, f) in pos.items()]
    g = EldfallGame(units, WorldGeometry(World(scene)), seed=0, scene_info={"table": [36, 36]})
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    g.dice = Dice.fixed([])
    return g


def walled_game(pos, weapons) -> EldfallGame:
    """``engine_game`` with BASE_STATS and a 4" wall 8" long across x 6-14 at y 11.75."""
    from engine.scene import TerrainSpec
    return engine_game(pos, [TerrainSpec("wall", "box", (10, 11.75, 0), size=(8, 0.5, 4))], weapons=weapons)


def low_wall_shot(wall_height, bow=BOW, extra=None):
    """r1 at (10, 5) shoots b1 at (10, 20.5) (the 12-24" band: -3) with ``bow``, two Strikes,
    across a wall 4" long, 0.5" thick and ``wall_height`` tall, 0.37" in front of b1's base,
    on the real engine (``extra``: as ``engine_game``); the attack event."""
    from engine.scene import TerrainSpec
    from rules.eldfall.actions import Activate, Declare, Move, Pass
    g = engine_game({"r1": ("red", 10, 5, 90), "b1": ("blue", 10, 20.5, 270)},
                    [TerrainSpec("low-wall", "box", (10, 19.25, 0), size=(4, 0.5, wall_height))],
                    weapons=[bow], extra=extra)
    g.dice = Dice.fixed([5, 20, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Ranged Attack", weapon=bow["name"], targets=(("b1", 2),)))
    return kinds(ev, "attack")[0]
