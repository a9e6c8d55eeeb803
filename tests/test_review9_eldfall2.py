"""Review 9, Eldfall (second part): turning when Hit, Knockback off a ledge, and
where a manual melee reaction may be aimed.

Sources: ../shared/rules/eldfall-facts.md ("Line of sight": "a model may also
turn when it suffers a Hit"; "Movement": Knockback, Jump, Fall damage) and
../shared/seeds/eldfall-reactions.txt ("Available Reactions", "Attack of
Opportunity").
"""
import pytest

from rules.core.dice import Dice
from rules.core.errors import IllegalAction
from rules.core.flat import FlatGeometry
from rules.core.units import weapon_dict
from rules.eldfall.actions import Action, Activate, Declare, Move, Pass
from rules.eldfall.narrate import narrate
from rules.eldfall.sequence import EldfallGame
from tests.eldfall_scenario import kinds, setup, unit

MAUL = weapon_dict("Maul", "melee", 1, 12, 1, ["Knockback (1)"])


def _turn_cls():
    from rules.eldfall.actions import Turn      # the action this review adds
    return Turn


def idle_strike(g, attacker: str, target: str, weapon: str):
    """``attacker`` activates, stays (Idle), blue passes its reactions, and it strikes
    ``target`` once in melee with ``weapon``: the Declare's events."""
    g.apply(Activate(attacker))
    g.apply(Move(attacker, "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    return g.apply(Declare(attacker, "Melee Attack", weapon=weapon, targets=((target, 1),)))


def hit_from_behind(settings=None, rolls=(5, 20)):
    """r1 hits b1 in melee; b1 faces away from r1 (north, r1 is south of it)."""
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 12, facing=90.0)
    ts = {"table_settings": settings} if settings else None
    g = setup([r, b], list(rolls), settings=ts)
    ev = idle_strike(g, "r1", "b1", "Sword")
    assert kinds(ev, "hit")
    return g, ev


# ---------------------------------------------------------------- 1. turning when Hit
def test_a_model_hit_from_behind_may_turn_to_face_its_attacker():
    Turn = _turn_cls()
    g, ev = hit_from_behind()
    assert g.pending == ("turn-on-hit", "b1")
    assert g.decider() == "blue"
    legal = g.legal_actions().list()
    assert Turn("b1") in legal and Turn("b1", 270.0) in legal and Pass("blue") in legal
    assert Turn("b1", 12.5) in g.legal_actions()          # any facing is legal
    with pytest.raises(IllegalAction):
        g.apply(Turn("r1", 0.0))                          # not the hit model
    ev = g.apply(Turn("b1", 270.0))
    t = kinds(ev, "turn_on_hit")[0].data
    assert t["from"] == 90.0 and t["to"] == 270.0 and t["toward"] == "r1" and not t["auto"]
    assert g.geo.facing("b1") == 270.0
    assert "  b1 turns to face r1 (90\u00b0 -> 270\u00b0)" in narrate(ev)
    assert "Engaged" in g.models["r1"].states      # b1 now sees r1 in its Reach: it engages it
    assert g.pending == ("tactical", "red")
    assert Action.parse(str(Turn("b1", 215.0))) == Turn("b1", 215.0)
    assert Action.parse("turn b1 keep") == Turn("b1")


def test_keep_pass_and_moving_on_keep_the_facing():
    Turn = _turn_cls()
    for answer in (lambda g: g.apply(Turn("b1")), lambda g: g.apply(Pass("blue")),
                   lambda g: g.apply(Activate("r1"))):    # the game moves on: b1 keeps it
        g, _ = hit_from_behind()
        ev = answer(g)
        assert g.geo.facing("b1") == 90.0
        assert kinds(g.events, "turn_on_hit")[-1].data["to"] == 90.0
        assert "keeps its facing" in "\n".join(narrate(ev))


def test_turn_on_hit_setting():
    g, ev = hit_from_behind({"turn_on_hit": "face_attacker"})
    assert g.pending == ("tactical", "red")               # no decision
    t = kinds(ev, "turn_on_hit")[0].data
    assert t["auto"] and t["toward"] == "r1" and g.geo.facing("b1") == 270.0
    g, ev = hit_from_behind({"turn_on_hit": "never"})
    assert g.pending == ("tactical", "red") and not kinds(ev, "turn_on_hit")
    assert g.geo.facing("b1") == 90.0
    # a model hit from its front is asked only with "always"
    r, b = unit("r1", "red", 10, 10), unit("b1", "blue", 10, 12)        # b1 faces r1
    for mode, asked in (("choose", False), ("always", True)):
        g = setup([r, b], [5, 20], settings={"table_settings": {"turn_on_hit": mode}})
        idle_strike(g, "r1", "b1", "Sword")
        assert (g.pending[0] == "turn-on-hit") is asked
    with pytest.raises(ValueError, match="turn_on_hit"):
        setup([unit("r1", "red", 10, 10), unit("b1", "blue", 10, 12)],
              settings={"table_settings": {"turn_on_hit": "sometimes"}})


def test_the_bots_answer_the_decision():
    from rules.eldfall.bots import BOTS
    Turn = _turn_cls()
    g, _ = hit_from_behind()
    assert BOTS["greedy"](1).choose(g) == Turn("b1", 270.0)   # faces its attacker
    a = BOTS["random"](3).choose(g)
    assert g.why_illegal(a) is None


def _bot_game(seed, geo=None):
    units = [unit("r1", "red", 8, 6), unit("r2", "red", 14, 6), unit("b1", "blue", 9, 29, facing=90.0),
             unit("b2", "blue", 15, 29, facing=0.0)]
    if geo is None:
        geo = FlatGeometry((24.0, 36.0))
        for u in units:
            geo.add_model(u, u.at, u.facing)
    return EldfallGame(units, geo, seed=seed, settings={"table_settings": {"turn_on_hit": "always"}},
                       scene_info={"table": [24.0, 36.0]}), units


def test_turn_decisions_replay_and_undo():
    from rules.eldfall.bots import BOTS
    for seed in range(1, 8):
        g, units = _bot_game(seed)
        bots = {"red": BOTS["random"](seed), "blue": BOTS["greedy"](seed)}
        while not g.is_over and not kinds(g.events, "turn_on_hit") and g.decisions < 600:
            g.apply(bots[g.decider()].choose(g))
        if kinds(g.events, "turn_on_hit"):
            break
    else:
        pytest.fail("no Hit in the bot games")
    for _ in range(6):
        if g.is_over:
            break
        g.apply(bots[g.decider()].choose(g))
    header, events = g.header(), [e.to_dict() for e in g.events]
    again = EldfallGame.replay(header, events, _bot_game(0)[0].geo)
    assert again.state_hash() == g.state_hash()
    # undo to just before the first turn decision: the decision waits again
    k = next(e.seq for e in g.events if e.kind == "action" and e.data["action"].startswith("turn "))
    back = EldfallGame.replay(header, events[:k], _bot_game(0)[0].geo)
    assert back.pending[0] == "turn-on-hit"


# ---------------------------------------------------------------- 2. Knockback off a ledge
def test_knockback_off_a_ledge_falls_with_the_fall_rules():
    # r1 and b1 on a 4" platform; the Maul's Knockback (1) pushes b1 over its north edge
    r = unit("r1", "red", 10, 13.3, weapons=[MAUL])
    b = unit("b1", "blue", 10, 14.8)
    r.at, b.at = (10.0, 13.3, 4.0), (10.0, 14.8, 4.0)
    g = setup([r, b], [5, 20, 20], boxes=[("platform", 5, 5, 15, 15, 4)])
    ev = idle_strike(g, "r1", "b1", "Maul")
    assert not kinds(ev, "knockback_blocked")
    x, y, z = g.geo.position("b1")
    assert abs(y - 15.8) < 1e-6 and z == 0.0
    f = kinds(ev, "fall")[0].data
    assert f["height"] == 4.0 and f["rolls"] == 1        # SPD 5: one roll per 3" beyond 3"
    assert [e.data["check"] for e in kinds(ev, "check")] == ["Fall"]
    assert g.models["b1"].hp == 2                        # the AG roll of 20 failed: a Wound
    assert any("falls 4.0\" from a ledge" in s for s in narrate(ev))


def test_knockback_on_the_real_table_moves_an_engaged_model_off_the_cliff():
    """engine World: the pushed model is Engaged by its attacker (a Walk would only
    go toward it) and stands at the cliff's edge; before, the push was refused."""
    from tools.gameplay import load_table, scene_info
    from tools.roster import units_from_scene
    scene, world, geo = load_table("scenes/heights.yaml")
    keep = {"red-champion", "blue-marksman", "red-archer", "blue-warden"}
    units = [u for u in units_from_scene(scene, world) if u.id in keep]
    for u in units:
        if u.id == "red-champion":
            u.at, u.facing, u.weapons = (30.0, 31.54, 4.0), 90.0, [MAUL]
        if u.id == "blue-marksman":
            u.at, u.facing = (30.0, 32.8, 4.0), 270.0
    for mid in list(world.model_ids()):
        if mid not in keep:
            geo.remove(mid)
    everywhere = {"red": [[0, 0], [36, 36]], "blue": [[0, 0], [36, 36]]}
    g = EldfallGame(units, geo, seed=1, scene_info=scene_info(scene), settings={"deployment": everywhere})
    w = g.pending[1]
    from rules.eldfall.actions import ChooseOrder
    g.apply(ChooseOrder(w, w == "red"))
    assert "Engaged" in g.models["blue-marksman"].states
    g.dice = Dice.fixed([5, 20, 20])
    ev = idle_strike(g, "red-champion", "blue-marksman", "Maul")
    assert not kinds(ev, "knockback_blocked")
    x, y, z = g.geo.position("blue-marksman")
    assert abs(y - 33.8) < 1e-3 and abs(z) < 1e-3
    f = kinds(ev, "fall")[0].data
    assert abs(f["height"] - 4.0) < 1e-3 and f["rolls"] == 1
    assert g.models["blue-marksman"].hp == 1


# ---------------------------------------------------------------- 3. melee reaction points
def test_a_melee_reaction_is_aimed_where_the_mover_entered_reach_or_at_the_end_only():
    # r1 walks north past b1 (Sword, RCH 1"): within Reach from about y 8.3 to 11.7
    r = unit("r1", "red", 10, 7)
    b = unit("b1", "blue", 11.5, 10, facing=180.0)
    g = setup([r, b], [3] * 10)
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    g.apply(Move("r1", "walk", ((10.0, 12.0, 0.0),)))
    q = g.act.qualified["b1"]
    assert q["opp"] is not None
    inside = [p for p in q["seen"] if 9.6 < p[1] < 10.6 and abs(p[0] - 10.0) < 1e-6]
    assert inside, q["seen"]                       # seen there, within Reach, not where it entered
    mid = Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),), point=inside[0])
    assert "not on the mover's path where it could be attacked" in (g.why_illegal(mid) or "")
    aoo = Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),), point=q["opp"])
    assert g.why_illegal(aoo) is None and aoo in g.legal_actions()
    # the end of the move is a point it may be aimed at (there r1 is out of Reach)
    end = Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),),
                  point=tuple(g.geo.position("r1")))
    assert "not on the mover's path" not in (g.why_illegal(end) or "")   # the end: out of Reach only
