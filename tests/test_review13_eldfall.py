"""Review 13 of the Eldfall rules engine: defects found and fixed.

Targetless at the ground: the Core Rules (p.73) let an Attack with the Targetless
trait take "any field surface" as its target instead of a model, and
eldfall-facts.md (Cover) speaks of "Targetless attacks at the ground". A
template attack at a bare point Hits every model its template covers.
"""
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall import narrate
from rules.eldfall.actions import Action, Activate, Declare, Move, Pass
from tests.eldfall_scenario import BOW, at_action as _at_action, kinds, setup, unit, walled_game

POT = weapon_dict("Fire Pot", "ranged", pw=10, stk=1, bands=[(0, 12, 0), (12, 24, -3)],
                  traits=["Targetless", "Circular L"])
BOMB = weapon_dict("Bomb", "ranged", pw=10, stk=1, bands=[(0, 12, 0)], traits=["Targetless"])
PLAIN_POT = weapon_dict("Oil Pot", "ranged", pw=10, stk=1, bands=[(0, 12, 0)],
                        traits=["Circular L"])
RAIN = spell_dict("Fire Rain", "Sorcery", mana=0, pw=10, rng=18,
                  traits=["Targetless"], template="circle-s")
# a wall between (10, 5) and the blue models: it hides them from r1
WALL = [("wall", 4, 9.5, 16, 10, 4)]


def _game(rolls=(), blue=None, boxes=WALL, red_kw=None, **kw):
    units = [unit("r1", "red", 10, 5, weapons=[POT, BOMB, PLAIN_POT, BOW], **(red_kw or {}))]
    units += blue if blue is not None else [
        unit("b1", "blue", 10, 14, facing=270), unit("b2", "blue", 11.5, 14.5, facing=270)]
    return setup(units, rolls=rolls, boxes=boxes, **kw)


def ground(weapon="Fire Pot", at=(10.5, 14.0, 0.0), **kw):
    return Declare("r1", kw.pop("action", "Ranged Attack"), weapon=weapon, point=at, **kw)


def test_a_targetless_template_may_be_aimed_at_the_ground():
    g = _at_action(_game())
    assert g.why_illegal(ground()) is None
    # the text form round-trips (logs and replays)
    assert Action.parse(str(ground())) == ground()


def test_an_attack_at_the_ground_hits_every_model_under_its_template():
    # roll 5 <= ACC 13: the template lands; two damage rolls of 1: both wounded
    g = _at_action(_game(rolls=[5, 1, 1]))
    ev = g.apply(ground())
    a = kinds(ev, "attack")[0].data
    assert a["target"] is None and a["at"] == [10.5, 14.0, 0.0]
    assert sorted(a["victims"]) == ["b1", "b2"]
    # no LoS needed, no Cover, no halving; the distance to the point gives the band
    assert a["modifiers"] == {"targetless": "at the ground"} and a["attribute"] == 13
    assert sorted(e.data["model"] for e in kinds(ev, "hit")) == ["b1", "b2"]
    assert g.models["b1"].hp == 2 and g.models["b2"].hp == 2
    lines = narrate.narrate(ev)
    assert any("declares: Ranged Attack with Fire Pot at the ground at (10.5, 14.0) "
               "(Targetless)" in s for s in lines), lines
    assert any("on the ground at (10.5, 14.0): ACC 13 (Targetless: no LoS needed, no Cover); "
               "under its template: b1, b2" in s for s in lines), lines


def test_a_failed_roll_at_the_ground_misses_and_says_so():
    g = _at_action(_game(rolls=[18]))
    ev = g.apply(ground())
    assert kinds(ev, "hit") == [] and g.models["b1"].hp == 3
    lines = narrate.narrate(ev)
    assert any("r1 misses the ground at (10.5, 14.0) (rolled 18 against ACC 13)" in s
               for s in lines), lines
    assert not any("misses None" in s for s in lines)


def test_the_range_band_is_measured_to_the_point():
    g = _at_action(_game(rolls=[20]))
    a = kinds(g.apply(ground(at=(10.0, 20.0, 0.0))), "attack")[0].data
    assert a["modifiers"] == {"targetless": "at the ground", "range": -3}
    g = _at_action(_game())
    assert g.why_illegal(ground(at=(10.0, 33.0, 0.0))).startswith("the point is out of range (")


def test_what_may_not_be_aimed_at_the_ground():
    g = _at_action(_game())
    # no Targetless trait: an Attack names its model
    assert g.why_illegal(ground("Oil Pot")).startswith("Oil Pot has no Targetless trait")
    # Targetless but no template: it would hit no model
    assert g.why_illegal(ground("Bomb")) == "Bomb has no template: an Attack at the ground would hit no model"
    # off the table, in the air, a model and a point at once
    assert g.why_illegal(ground(at=(40.0, 14.0, 0.0))) == "the point (40, 14) is off the 36x36 table"
    assert g.why_illegal(ground(at=(10.5, 14.0, 3.0))).startswith("the point (10.5, 14, 3) is in the air")
    both = Declare("r1", "Ranged Attack", weapon="Fire Pot", targets=(("b1", 1),), point=(10.5, 14.0, 0.0))
    assert "not both" in g.why_illegal(both)
    # any other action keeps its old answer
    assert g.why_illegal(Declare("r1", "Dodge", point=(10.5, 14.0, 0.0))).startswith(
        "only a Reaction is aimed at a point of the path")


def test_a_reaction_never_aims_at_the_ground():
    # "A model may only target the Activated model with its Reaction"
    units = [unit("r1", "red", 10, 5), unit("b1", "blue", 10, 14, facing=270, weapons=[POT])]
    g = setup(units)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 6.0, 0.0),)))
    assert g.pending[0] == "reaction"
    d = Declare("b1", "Ranged Attack", weapon="Fire Pot", point=(10.0, 8.0, 0.0))
    assert g.why_illegal(d) is not None
    assert g.why_illegal(Declare("b1", "Ranged Attack", weapon="Fire Pot",
                                 targets=(("r1", 1),))) is None


def test_a_targetless_spell_at_the_ground_and_a_dodge_under_it():
    # b1 declared Dodge (a Reaction, the Activated model in its Awareness): it rolls
    # against the caster; b2 did not and is hit
    blue = [unit("b1", "blue", 10, 12.5, facing=270), unit("b2", "blue", 10.6, 13.9, facing=270)]
    g = setup([unit("r1", "red", 10, 5, weapons=[], spells=[RAIN], affinities=[])] + blue,
              rolls=[4, 3, 1, 1])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    assert g.pending[0] == "reaction"
    g.apply(Declare("b1", "Dodge"))
    g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Spell Attack", spell="Fire Rain", point=(10.3, 13.2, 0.0)))
    a = kinds(ev, "attack")[0].data
    assert sorted(a["victims"]) == ["b1", "b2"] and a["stat"] == "INT"
    assert [e.data["against"] for e in kinds(ev, "dodge")] == ["r1"]
    assert [e.data["model"] for e in kinds(ev, "hit_dodged")] == ["b1"]
    assert g.models["b2"].hp == 2 and g.models["b1"].hp == 3


def _world_game(weapons):
    """r1 and two blue models on the real engine, a 4" wall between them."""
    return _at_action(walled_game({"r1": ("red", 10, 5, 90), "b1": ("blue", 10, 14, 270),
                                   "b2": ("blue", 11.5, 14.5, 270)}, weapons))


def test_an_attack_at_the_ground_on_the_real_table():
    g = _world_game([POT, BOW])
    assert not g.has_los("r1", "b1") and not g.has_los("r1", "b2")
    assert g.why_illegal(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),))) == "no LoS to b1"
    assert g.why_illegal(ground()) is None
    # on top of the wall is a field surface too; inside it is not
    assert g.why_illegal(ground(at=(10.0, 11.75, 4.0))) is None
    assert g.why_illegal(ground(at=(10.0, 11.75, 2.0))) == (
        "the template cannot lie there: (10, 11.75, 2.00) is inside wall: the template lies on "
        "a surface, give the z of one")
    g.dice = __import__("rules.core.dice", fromlist=["Dice"]).Dice.fixed([5, 20, 20])
    a = kinds(g.apply(ground()), "attack")[0].data
    assert sorted(a["victims"]) == ["b1", "b2"]


def test_a_shrouded_model_attacking_the_ground_surprises_the_models_under_it():
    # Shrouded: "Performing an Attack while Shrouded ... grants the Surprise Attack
    # Trait" (halves the targets' AG): b1, which never saw r1 (AG halved: 5), Dodges
    # at AG 3, not 5
    g = _game(rolls=[20, 6])
    g.models["r1"].states = frozenset({"Shrouded"})
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Declare("b1", "Dodge"))
        g.apply(Pass("blue"))
    ev = g.apply(ground())
    if g.pending[0] == "reaction-change":      # b1 may change its Dodge into an Attack
        ev += g.apply(Pass("blue"))
    assert [e.data["targets"] for e in kinds(ev, "surprise_attack")] == [["b1", "b2"]]
    assert [e.data["attribute"] for e in kinds(ev, "dodge")] == [3]


def test_a_spray_at_the_ground_below_the_user_reaches_down():
    # the Spray's band is "up to 5 inches above or below the attacker's surface
    # (attacker's choice)": aimed at the ground below its platform, it reaches down
    from engine.geometry import WorldGeometry
    from engine.scene import ModelSpec, Scene, TerrainSpec
    from engine.world import World
    from rules.core.dice import Dice
    from rules.eldfall.actions import ChooseOrder
    from rules.eldfall.sequence import EldfallGame
    from tests.eldfall_scenario import BASE_STATS
    jet = weapon_dict("Fire Jet", "ranged", pw=10, stk=1, bands=[(0, 12, 0)],
                      traits=["Targetless", "Spray L"])
    scene = Scene("", (36, 36),
                  terrain=(TerrainSpec("platform", "box", (10, 5, 0), size=(4, 4, 3)),),
                  models=(ModelSpec("r1", "red", 32, 45, (10, 5, None), facing=90, stats=dict(BASE_STATS)),
                          ModelSpec("b1", "blue", 32, 45, (10, 9, None), facing=270,
                                    stats=dict(BASE_STATS))))
    units = [unit("r1", "red", 10, 5, weapons=[jet]), unit("b1", "blue", 10, 9)]
    units[0].at = (10.0, 5.0, 3.0)          # on the platform
    g = EldfallGame(units, WorldGeometry(World(scene)), seed=0, scene_info={"table": [36, 36]})
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    g.dice = Dice.fixed([20])
    _at_action(g)
    assert g.geo.position("r1")[2] > 2.9
    ev = g.apply(ground("Fire Jet", at=(10.0, 10.0, 0.0)))
    assert kinds(ev, "attack")[0].data["victims"] == ["b1"]
