"""Review 14: the greedy bot plays purposefully (it does not wait out the game behind a
wall when it cannot attack from there), and its expected Wounds of a template Attack at
a named target count every model under the template (enemies add, allies subtract), as
``_ground_wounds`` does for an Attack at the ground.
"""
from rules.core.units import weapon_dict
from rules.eldfall.actions import Activate, Declare, Move, Pass
from rules.eldfall.bots import GreedyBot, expected_wounds
from tests.eldfall_scenario import SWORD, at_action, kinds, setup, unit

# a wall between the sides: each side hides from the other behind it
WALL = [("wall", 4, 11.5, 16, 12, 4)]


# ---------------------------------------------------------------- stalling
def _hidden():
    units = [unit("r1", "red", 14.5, 9, weapons=[SWORD]),
             unit("b1", "blue", 13, 14.5, facing=270, weapons=[SWORD]),
             unit("b2", "blue", 15, 14.5, facing=270, weapons=[SWORD])]
    return _at_movement(setup(units, boxes=WALL))


def _at_movement(g, model="r1"):
    g.apply(Activate(model))
    while g.pending[0] != "movement":
        g.apply(Pass(g.pending[1]))      # the other side's Crouch window
    assert g.pending == ("movement", model)
    return g


def test_a_greedy_model_that_cannot_attack_does_not_hide_for_ever():
    # r1 (melee only) behind a wall from two enemies: staying hidden scores their two
    # "no LoS" Cover bonuses, more than the old "can already attack well" bar; the bot
    # stayed Idle and so did they: neither side ever closed (skirmish seed 1)
    g = _hidden()
    a = GreedyBot(0).choose(g)
    assert isinstance(a, Move) and a.mode != "idle", a
    assert g.why_illegal(a) is None
    end = a.path[-1]
    before = min(g.geo.distance("r1", b) for b in ("b1", "b2"))
    g.apply(a)
    after = min(g.geo.distance("r1", b) for b in ("b1", "b2"))
    assert after < before - 0.5, (end, before, after)


def test_a_greedy_model_that_can_attack_well_stays():
    # in base contact with an enemy (a good Melee Attack from here): it stays Idle
    units = [unit("r1", "red", 10, 10, weapons=[SWORD]),
             unit("b1", "blue", 10, 11.27, facing=270, weapons=[SWORD])]
    g = _at_movement(setup(units))
    a = GreedyBot(0).choose(g)
    assert isinstance(a, Move) and a.mode == "idle", a


# ---------------------------------------------------------------- template at a named target
POT = weapon_dict("Fire Pot", "ranged", pw=10, stk=1, bands=[(0, 12, 0), (12, 24, -3)],
                  traits=["Circular L"])
NAMED = Declare("r1", "Ranged Attack", weapon="Fire Pot", targets=(("b1", 1),))


def _template_game(*others):
    units = [unit("r1", "red", 10, 5, weapons=[POT]), unit("b1", "blue", 10, 14, facing=270)]
    return at_action(setup(units + list(others), rolls=[5] + [1] * 8))


def _victims(g):
    return sorted(kinds(g.apply(NAMED), "attack")[0].data["victims"])


def test_a_named_template_attack_counts_every_enemy_under_it():
    # aimed at b1, the Circular L also covers b2 (the rules Hit both): twice the Wounds
    b2 = unit("b2", "blue", 11.5, 14.5, facing=270)
    assert _victims(_template_game(b2)) == ["b1", "b2"]
    alone = expected_wounds(_template_game(), NAMED, "active")
    both = expected_wounds(_template_game(b2), NAMED, "active")
    assert alone > 0.1
    assert abs(both - 2 * alone) < 1e-9, (alone, both)


def test_a_named_template_attack_counts_an_ally_under_it_against_it():
    # an ally as near b1 as b2 was: its expected Wounds cancel b1's
    r2 = unit("r2", "red", 11.5, 14.5, facing=270)
    assert _victims(_template_game(r2)) == ["b1", "r2"]
    assert abs(expected_wounds(_template_game(r2), NAMED, "active")) < 1e-9


def test_the_greedy_bot_does_not_throw_a_template_onto_its_own_models():
    # b1 stands among three of r1's allies: the Fire Pot at b1 would wound more of red
    # than of blue; the greedy bot declares something else
    allies = [unit(f"r{i}", "red", x, y, facing=270)
              for i, (x, y) in enumerate(((11.5, 14.5), (8.5, 14.5), (10, 15.6)), start=2)]
    g = _template_game(*allies)
    assert set(_victims(_template_game(*allies))) >= {"b1", "r2", "r3", "r4"}
    d = GreedyBot(0).choose(g)
    assert not (isinstance(d, Declare) and d.weapon == "Fire Pot"), d


# ---------------------------------------------------------------- the reported game
def test_greedy_bots_on_the_skirmish_close_to_melee():
    # `eldfall play scenes/skirmish.yaml --bots greedy --seed 1`: each side sat behind
    # wall-1 from round 2 on ("stays where it is (Idle)", "does nothing") and nobody
    # struck in melee in five rounds; now they close and fight within three
    import os

    from tools import gameplay
    path = os.path.join(os.path.dirname(__file__), "..", "scenes", "skirmish.yaml")
    mod, g = gameplay.new_game(path, None, 1, settings={"rounds": 3})
    melee, idle_nothing = [], 0
    last = {}

    def seen(action, events):
        nonlocal idle_nothing
        if isinstance(action, Declare) and action.action == "Melee Attack":
            melee.append(action)
        if isinstance(action, Move):
            last[action.model] = action.mode
        if isinstance(action, Declare) and action.action == "Nothing" and \
                last.get(action.model) == "idle":
            idle_nothing += 1
    gameplay.play_out(g, mod, ["greedy", "greedy"], 1, on_action=seen)
    assert {g.models[a.model].side for a in melee} == {"red", "blue"}, melee
    assert idle_nothing == 0


def test_a_greedy_model_that_closes_in_does_not_run_on_the_spot():
    # the sampled end points may hold the model's own place (the reachable grid's start
    # cell): nearest the enemy, it was taken, and the play summary read "runs 0.0""
    units = [unit("r1", "red", 10, 10.8, weapons=[SWORD]),
             unit("b1", "blue", 9.5, 22, facing=270, weapons=[SWORD]),
             unit("b2", "blue", 10.5, 22, facing=270, weapons=[SWORD])]
    g = _at_movement(setup(units, boxes=WALL))
    sampled = g.geo.reachable_points

    def with_start(model, *a, **kw):
        return [tuple(g.geo.position(model))] + list(sampled(model, *a, **kw))
    g.geo.reachable_points = with_start
    a = GreedyBot(0).choose(g)
    assert isinstance(a, Move) and a.mode != "idle", a
    assert g.why_illegal(a) is None
    start = g.geo.position("r1")
    assert max(abs(u - v) for u, v in zip(a.path[-1][:2], start[:2])) > 0.25, a
