"""Shared helpers of the Norova tests (no tests here)."""
from __future__ import annotations

from rules.core import Dice, Unit
from rules.core.flat import FlatGeometry
from rules.norova import NorovaGame


def block(**kw) -> dict:
    """A plain Norova sheet: every trait 0 and no powers unless given."""
    b = dict(vitality=30, soul=10, power=10,
             traits=dict(focus=0, perceive=0, react=0, evade=0, luck=0),
             offensive_power=0, bow_power=0, runic_power=0, runic_casting_speed=1, move=6,
             equipment=dict(main_hand="longsword", off_hand=None))
    traits = kw.pop("traits", {})
    if "equipment" in kw:
        eq = kw.pop("equipment")
        b["equipment"] = {"main_hand": eq.get("main"), "off_hand": eq.get("off")}
    b["traits"].update(traits)
    b.update(kw)
    return b


class Geo(FlatGeometry):
    """FlatGeometry with settable environments (for swimming)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.env: dict[str, frozenset] = {}

    def environments(self, model):
        return self.env.get(model, frozenset())


def unit(uid, side, x, y, facing=0.0, **kw) -> Unit:
    states = kw.pop("states", [])
    return Unit(uid, side, name=uid, at=(float(x), float(y), 0.0), facing=float(facing),
                states=list(states), extra={"norova": block(**kw)})


def game(units, *, table=(30, 30), boxes=(), settings=None, seed=0, scene_info=None,
         init=None) -> NorovaGame:
    """A game on a flat table. ``init``: the initiative d20s, one per unit in order
    (default: 20, 19, ... so the scene order is the initiative order)."""
    g = Geo(table, boxes)
    for u in units:
        g.add(u.id, u.at[0], u.at[1], facing=u.facing, base=u.base, height=u.height)
    rolls = init if init is not None else [20 - i for i in range(len(units))]
    return NorovaGame(units, g, seed=seed, settings=settings, scene_info=scene_info,
                      dice=Dice.fixed(rolls))


def rolls(game: NorovaGame, values) -> None:
    """The next dice of the game, in order."""
    game.dice = Dice.fixed(values)


def kinds(events, kind):
    return [e.data for e in events if e.kind == kind]


def bot_turns(g, mover: str, other_side_acts, turns: int, max_round: int | None = None) -> list:
    """The greedy bot plays ``mover``'s turns (until it attacks) while the other
    characters act as ``other_side_acts(g)`` says; at most ``turns`` rounds of four
    decisions, and none past round ``max_round``. Returns the mover's actions."""
    from rules.norova.actions import Attack
    from rules.norova.bots import GreedyBot
    bot = GreedyBot(1)
    done = []
    for _ in range(turns * 4):
        if g.is_over or (max_round is not None and g.round > max_round):
            break
        if g.active_model == mover:
            a = bot.choose(g)
            assert g.why_illegal(a) is None, (str(a), g.why_illegal(a))
            g.apply(a)
            done.append(a)
            if isinstance(a, Attack):
                break
        else:
            g.apply(other_side_acts(g))
    return done


def arena_game(settings=None, seed: int = 1):
    """A Norova game on scenes/norova-arena.yaml with the engine's World geometry."""
    from pathlib import Path

    import rules.norova as nv
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from tools.roster import units_from_scene
    scene = load_scene(Path(__file__).resolve().parents[1] / "scenes" / "norova-arena.yaml")
    world = World(scene)
    return nv.new_game(units_from_scene(scene, world), WorldGeometry(world), seed=seed, settings=settings)


def narrated(events, skip_actions: bool = False) -> list[str]:
    """The narration of ``events``, one entry per printed line (``skip_actions``: without the
    action events' own lines)."""
    from rules.norova import narrate
    out = []
    for e in events:
        if skip_actions and e.kind == "action":
            continue
        t = narrate.line(e)
        if t:
            out += t.split("\n")
    return out
