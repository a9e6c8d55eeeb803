"""Helpers for scripted Eldfall scenarios on the pure-Python FlatGeometry."""
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
