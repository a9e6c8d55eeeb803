"""Review 9: the direction of a Knockback is the attacker's choice.

Source: ../shared/rules/eldfall-facts.md, "Movement (p.20, 49-50)": "Knockback
(X): the hit model is moved X\" away from the attacker, direction of the
attacker's choice". The Attack's declaration names the direction
(``knockback=DEG``, degrees counter-clockwise from the table's +x axis; none:
directly away); it is legal within the table setting ``knockback_max_angle_deg``
(default 90, strictly less) of the line directly away from the attacker.
"""
import argparse
import math

import pytest

from rules.core.errors import IllegalAction
from rules.core.units import weapon_dict
from rules.eldfall.actions import Action, Declare
from rules.eldfall.narrate import narrate
from tests.eldfall_scenario import kinds, setup, to_action, unit

MAUL = weapon_dict("Maul", "melee", 1, 12, 1, ["Knockback (1)"])


def maul(kb=None, target="b1", weapon="Maul", action="Melee Attack"):
    return Declare("r1", action, weapon=weapon, targets=((target, 1),), knockback=kb)


def duel(rolls=(5, 20), settings=None, boxes=(), r_at=(10.0, 10.0, 0.0), b_at=(10.0, 11.5, 0.0),
         sword=True):
    """r1 (Maul, Knockback 1; a Sword) and b1 north of it, at r1's Action Step."""
    r = unit("r1", "red", r_at[0], r_at[1],
             weapons=[MAUL] + ([weapon_dict("Sword", "melee", 1, 11, 2)] if sword else []))
    b = unit("b1", "blue", b_at[0], b_at[1])
    r.at, b.at = tuple(map(float, r_at)), tuple(map(float, b_at))
    g = setup([r, b], list(rolls), boxes=boxes,
              settings={"table_settings": settings} if settings else None)
    return to_action(g, "r1")


# ---------------------------------------------------------------- the declaration
def test_the_declaration_carries_a_knockback_direction_in_its_text_form():
    a = maul(45)
    assert a.knockback == 45.0
    assert str(a) == "declare r1 'Melee Attack' weapon=Maul targets=b1:1 knockback=45.0"
    assert Action.parse(str(a)) == a
    assert maul(-90).knockback == 270.0 and maul(405).knockback == 45.0     # a bearing
    assert "knockback" not in str(maul())                                  # old logs unchanged
    assert Action.parse("declare r1 'Melee Attack' weapon=Maul targets=b1:1") == maul()
    for bad in ("knockback=north", "knockback=nan"):
        with pytest.raises(ValueError, match="knockback"):
            Action.parse(f"declare r1 'Melee Attack' weapon=Maul targets=b1:1 {bad}")


# ---------------------------------------------------------------- the push
def test_the_hit_model_is_pushed_in_the_chosen_direction():
    g = duel()
    ev = g.apply(maul(45))
    x, y, _ = g.geo.position("b1")
    assert math.isclose(x, 10 + math.sqrt(0.5), abs_tol=1e-6)
    assert math.isclose(y, 11.5 + math.sqrt(0.5), abs_tol=1e-6)
    place = kinds(ev, "place")[-1].data
    assert place["why"] == "Knockback 1 from r1, toward 45\u00b0"
    text = narrate(ev)
    assert "  r1 declares: Melee Attack with Maul at b1, Knockback toward 45\u00b0" in text
    assert "    b1 is moved to (10.7, 12.2) (Knockback 1 from r1, toward 45\u00b0)" in text
    # the event log keeps it, and reads it back
    logged = [e.to_dict() for e in g.events if e.kind == "action"][-1]
    assert Action.parse(logged["data"]["action"]) == maul(45)


def test_a_logged_knockback_direction_replays():
    import json

    from rules.core.flat import FlatGeometry
    from rules.eldfall.actions import Activate, ChooseOrder, Move, Pass
    from rules.eldfall.sequence import EldfallGame

    def fresh():
        units = [unit("r1", "red", 10, 10, weapons=[MAUL]), unit("b1", "blue", 10, 11.5)]
        geo = FlatGeometry((36.0, 36.0))
        for u in units:
            geo.add_model(u, u.at, u.facing)
        return EldfallGame(units, geo, seed=8, scene_info={"table": [36.0, 36.0]})
    g = fresh()
    g.apply(ChooseOrder(g.pending[1], g.pending[1] == "red"))
    while g.pending[0] == "tactical" and g.pending[1] != "red":
        g.apply(g.legal_actions().list()[-1])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    g.apply(maul(60))
    events = [json.loads(e.to_json()) for e in g.events]
    again = EldfallGame.replay(g.header(), events, fresh().geo)
    assert again.state_hash() == g.state_hash()
    assert again.geo.position("b1") == g.geo.position("b1")
    assert kinds(again.events, "place")[-1].data["why"] == "Knockback 1 from r1, toward 60\u00b0"


def test_a_direction_not_away_from_the_attacker_is_refused():
    g = duel()
    # directly away is 90 degrees (north); anything less than 90 degrees off it is away
    for kb in (90.0, 1.0, 179.0, 135.0):
        assert g.why_illegal(maul(kb)) is None, kb
    for kb in (0.0, 180.0, 270.0, 300.0):
        why = g.why_illegal(maul(kb))
        assert why and "away from r1" in why and "knockback_max_angle_deg" in why, (kb, why)
    with pytest.raises(IllegalAction, match="away from r1"):
        g.apply(maul(270.0))
    assert g.geo.position("b1")[:2] == (10.0, 11.5)                  # nothing happened
    # a narrower table setting
    g = duel(settings={"knockback_max_angle_deg": 30})
    assert g.why_illegal(maul(110.0)) is None
    assert "less than 30\u00b0" in g.why_illegal(maul(45.0))
    g = duel(settings={"knockback_max_angle_deg": 0})
    assert g.why_illegal(maul(90.0)) is None and g.why_illegal(maul(91.0))
    with pytest.raises(ValueError, match="knockback_max_angle_deg"):
        duel(settings={"knockback_max_angle_deg": 120})


def test_only_an_attack_with_knockback_names_a_direction():
    g = duel()
    assert "Sword has no Knockback" in g.why_illegal(maul(90.0, weapon="Sword"))
    assert g.why_illegal(maul(None, weapon="Sword")) is None
    assert "pushes nothing" in g.why_illegal(Declare("r1", "Dodge", knockback=90.0))


def test_a_direction_that_is_no_longer_away_pushes_directly_away():
    """A model the declaration did not name (a template's, a Friendly Fire ally) is
    pushed directly away when the declared direction is not away from it."""
    from rules.eldfall.resolution import _knockback
    g = duel()
    _knockback(g, "b1", "r1", 1.0, 270.0)
    assert g.geo.position("b1")[:2] == pytest.approx((10.0, 12.5))
    why = kinds(g.events, "place")[-1].data["why"]
    assert "directly away" in why and "270\u00b0 is not away from r1" in why


def test_pushed_at_an_angle_off_a_ledge_it_falls():
    # on a 4" platform; directly away (north) keeps b1 on it, a push at 20 degrees
    # carries its base past the east edge
    g = duel(rolls=(5, 20, 20), boxes=[("platform", 5, 5, 15, 15, 4)],
             r_at=(14.8, 11.5, 4.0), b_at=(14.8, 13.0, 4.0))
    ev = g.apply(maul(20.0))
    x, y, z = g.geo.position("b1")
    assert z == 0.0 and x > 15.6
    f = kinds(ev, "fall")[0].data
    assert f["height"] == 4.0 and f["rolls"] == 1 and "toward 20\u00b0" in f["why"]
    assert g.models["b1"].hp == 2


# ---------------------------------------------------------------- the greedy bot
def test_the_greedy_bot_pushes_its_target_off_a_ledge():
    from rules.eldfall.bots import BOTS
    g = duel(rolls=(5, 20, 20), boxes=[("platform", 5, 5, 15, 15, 4)],
             r_at=(14.8, 11.5, 4.0), b_at=(14.8, 13.0, 4.0), sword=False)
    a = BOTS["greedy"](1).choose(g)
    assert a.action == "Melee Attack" and a.weapon == "Maul" and a.knockback is not None
    assert 0.0 < a.knockback < 90.0                   # east of north: over the edge
    ev = g.apply(a)
    assert g.geo.position("b1")[2] == 0.0 and kinds(ev, "fall")
    # on open ground there is nothing to gain: directly away (no direction named)
    g = duel(sword=False)
    a = BOTS["greedy"](1).choose(g)
    assert a.weapon == "Maul" and a.knockback is None


def test_eldfall_play_help_mentions_the_setting():
    from tools import cmd_play
    p = argparse.ArgumentParser()
    cmd_play.add_arguments(p)
    assert "knockback_max_angle_deg" in p.format_help()
    assert "knockback=" in cmd_play.__doc__
