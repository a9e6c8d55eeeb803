"""Review 12: the Eldfall rules engine lets a template attack with STK > 1 share its Strikes
between several main targets (eldfall-actions-attack-section.txt, Attack, In Active Role:
"May distribute Strikes among multiple targets (up to STK value)"), one template per Strike
each on its own target, and a model under two of them suffers each (facts, Templates (AoE)).
`eldfall aoe --target A --target B` shows the same templates: the rules' victims of each
Strike are the models `aoe` lists under that template.

The table is the one of test_review12_aoe_targets.py: r1 at (4, 10) facing +x; b-a (12, 10)
and b-b (12, 12.2) the main targets; b-c (13.3, 11.1) 1.70" from both, its base under both
Circular S templates (radius 1.378"; 1.70 - 0.63 = 1.07); b-far (24, 4) out of both.
"""
from __future__ import annotations

from rules.core.dice import Dice
from rules.core.units import spell_dict
from rules.eldfall.actions import ChooseOrder, Declare
from tests.eldfall_scenario import BASE_STATS, kinds, to_action, unit

RAIN = spell_dict("Fire Rain", "Sorcery", "Fire", 0, 10, 2, 18, template="circular-s")
AT = {"r1": (4.0, 10.0), "b-a": (12.0, 10.0), "b-b": (12.0, 12.2), "b-c": (13.3, 11.1), "b-far": (24.0, 4.0)}


def game(rolls):
    """The game on the real engine (engine.world, engine.templates), r1 to act."""
    from engine.geometry import WorldGeometry
    from engine.scene import ModelSpec, Scene
    from engine.world import World
    from rules.eldfall.sequence import EldfallGame
    specs, units = [], []
    for mid, (x, y) in AT.items():
        side, facing = ("red", 0.0) if mid == "r1" else ("blue", 180.0)
        specs.append(ModelSpec(mid, side, 32, 45, (x, y, None), facing=facing, stats=dict(BASE_STATS)))
        u = unit(mid, side, x, y, facing=facing, affinities=["Fire"] if mid == "r1" else [])
        if mid == "r1":
            u.spells = [RAIN]
        units.append(u)
    world = World(Scene("", (30, 30), (), tuple(specs)))
    g = EldfallGame(units, WorldGeometry(world), seed=0, scene_info={"table": [30, 30]})
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    g.dice = Dice.fixed(list(rolls))
    return to_action(g, "r1"), world


def test_a_template_spell_shares_its_strikes_between_two_main_targets():
    g, world = game([5, 5] + [3] * 10)          # both Strikes hit (INT 12), every damage roll wounds
    split = Declare("r1", "Spell Attack", spell="Fire Rain", targets=(("b-a", 1), ("b-b", 1)))
    assert g.why_illegal(split) is None
    # more Strikes than STK 2 are refused, however they are shared
    over = Declare("r1", "Spell Attack", spell="Fire Rain", targets=(("b-a", 2), ("b-b", 1)))
    assert g.why_illegal(over) == "3 Strikes declared, STK is 2"
    ev = g.apply(split)
    victims = {e.data["target"]: set(e.data["victims"]) for e in kinds(ev, "attack")}
    # each Strike's template is the one `eldfall aoe` places on that target
    from engine import templates as T
    res = T.evaluate(world, [T.place_circle(world, "circle-s", target=t) for t in ("b-a", "b-b")], user="r1")
    for k, t in enumerate(("b-a", "b-b")):
        assert victims[t] == {h.id for h in res.affected if k in h.templates}
    assert victims["b-a"] & victims["b-b"] == {"b-c"}
    # the model under both templates suffers each
    hits = [e.data["model"] for e in kinds(ev, "damage")]
    assert hits.count("b-c") == 2 and hits.count("b-a") == 1 and hits.count("b-b") == 1
    assert "b-far" not in hits
