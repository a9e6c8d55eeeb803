"""Legends of Norova: turn order, the four action slots, movement and Attacks of Opportunity.

Source: ../shared/seeds/norova-active-turn.txt ("Actions", "Movement", "Attack
of Opportunity"); the project's gap rules: docs/rulings.md ("Legends of Norova").
"""
import pytest

from rules.core import IllegalAction
from rules.norova.actions import Attack, EndTurn, Focus, Move, Stand, Turn, Wait, Cast
from test_norova_helpers import game, kinds, rolls, unit


def two(**kw):
    return [unit("A", "red", 5, 5, 0, **kw.get("a", {})), unit("B", "blue", 20, 5, 180, **kw.get("b", {}))]


# ---- initiative and waiting ---------------------------------------------------
def test_initiative_is_d20_plus_react_highest_first_ties_by_react():
    us = [unit("A", "red", 5, 5, traits={"react": 2}), unit("B", "blue", 20, 5, 180, traits={"react": 5}),
          unit("C", "red", 5, 9, traits={"react": 0})]
    g = game(us, init=[10, 8, 12])           # totals 12, 13, 12
    assert g.order == ["B", "A", "C"]        # A beats C on the tie: the higher React
    ev = kinds(g.events, "initiative")[0]["order"]
    assert [(e["model"], e["total"], e["roll"]) for e in ev] == [("B", 13, 8), ("A", 12, 10), ("C", 12, 12)]
    assert g.active_model == "B"


def test_wait_lets_a_character_act_after_a_lower_initiative_one():
    us = [unit("A1", "red", 5, 5), unit("B1", "blue", 20, 5, 180), unit("A2", "red", 5, 9)]
    g = game(us)
    assert g.queue == ["A1", "B1", "A2"]
    g.apply(Wait("A1"))
    assert g.queue == ["B1", "A1", "A2"] and g.active_model == "B1"
    g.apply(EndTurn("B1"))
    assert g.active_model == "A1"
    g.apply(Wait("A1"))                       # waits again: now after A2 (lower initiative)
    assert g.queue == ["A2", "A1"]
    g.apply(EndTurn("A2"))
    assert g.active_model == "A1"
    with pytest.raises(IllegalAction, match="no character is left to act after A1"):
        g.apply(Wait("A1"))


def test_two_characters_cannot_hand_the_turn_back_and_forth_forever():
    us = [unit("A1", "red", 5, 5), unit("B1", "blue", 20, 5, 180), unit("A2", "red", 5, 9)]
    g = game(us)
    g.apply(Wait("A1"))                       # B1, A1, A2
    g.apply(Wait("B1"))                       # it passes A2 (who has not waited); A1 keeps its place
    assert g.queue == ["A1", "A2", "B1"]
    g.apply(Wait("A1"))                       # A2, A1, B1
    g.apply(EndTurn("A2"))
    # only characters that waited are left after A1: no wait hands the turn back to B1
    with pytest.raises(IllegalAction, match="every character after A1 has waited this round too"):
        g.apply(Wait("A1"))
    assert Wait("A1") not in g.legal_actions()


def test_once_it_acts_it_cannot_wait_and_unused_actions_are_lost():
    us = [unit("A1", "red", 5, 5), unit("B1", "blue", 20, 5, 180), unit("A2", "red", 5, 9)]
    g = game(us)
    g.apply(Turn("A1", 90))
    assert Wait("A1") not in g.legal_actions()
    with pytest.raises(IllegalAction, match="already acted this turn"):
        g.apply(Wait("A1"))
    evs = g.apply(EndTurn("A1"))
    assert kinds(evs, "turn_end")[0]["lost"] == ["Attack", "Support", "Magic"]
    assert g.active_model == "B1"
    assert g.action_slots("A1") == {"Attack": False, "Move": True, "Support": False, "Magic": False}


def test_at_most_one_of_each_action_and_the_turn_ends_after_all_four():
    us = [unit("A", "red", 5, 5, traits={"focus": 5}, spells=["firebolt"]),
          unit("B", "blue", 6.5, 5, 180, vitality=200)]
    g = game(us)
    rolls(g, [10, 2])                                        # crit check, Evade
    g.apply(Attack("A", "B", "main"))
    with pytest.raises(IllegalAction, match="already used its Attack action this round"):
        g.apply(Attack("A", "B", "main"))
    assert Attack("A", "B", "main") not in g.legal_actions()
    g.apply(Turn("A", 0))
    with pytest.raises(IllegalAction, match="Move action"):
        g.apply(Turn("A", 10))
    rolls(g, [15])
    g.apply(Focus("A", "B"))
    assert g.active_model == "A"
    rolls(g, [15, 5, 2])                                     # spell roll, crit check, Evade
    g.apply(Cast("A", "firebolt", "B"))
    assert g.action_slots("A") == {"Attack": True, "Move": True, "Support": True, "Magic": True}
    assert g.active_model == "B"                             # all four used: the turn ended
    assert kinds(g.events, "turn_end")[-1]["lost"] == []


def test_a_new_round_gives_the_slots_back():
    g = game(two())
    g.apply(Turn("A", 0))
    g.apply(EndTurn("A"))
    g.apply(EndTurn("B"))
    assert g.round == 2 and g.active_model == "A"
    assert not any(g.action_slots("A").values())


def test_wrong_actor_is_refused_with_the_reason():
    g = game(two())
    with pytest.raises(IllegalAction, match="it is A's active turn, not B's"):
        g.apply(EndTurn("B"))


# ---- movement ----------------------------------------------------------------
def test_move_up_to_the_move_rate_and_once():
    g = game(two())
    with pytest.raises(IllegalAction, match='the route is 6.20" long, more than the 6" of this walk'):
        g.apply(Move("A", "walk", ((11.2, 5, 0),)))
    g.apply(Move("A", "walk", ((8, 5, 0), (8, 8, 0)), 45))    # 6" along the route
    assert g.geometry.position("A")[:2] == (8, 8) and g.geometry.facing("A") == 45
    with pytest.raises(IllegalAction, match="already used its Move action"):
        g.apply(Move("A", "walk", ((9, 8, 0),)))


def test_turning_and_getting_up_count_as_the_move():
    g = game([unit("A", "red", 5, 5, states=["Prone"]), unit("B", "blue", 20, 5, 180)])
    assert g.f("A").prone
    with pytest.raises(IllegalAction, match="is down: it may only crawl, or stand up"):
        g.apply(Move("A", "walk", ((7, 5, 0),)))
    g.apply(Stand("A"))
    assert not g.f("A").prone and g.action_slots("A")["Move"]
    with pytest.raises(IllegalAction, match="Move action"):
        g.apply(Turn("A", 90))


def test_sprint_doubles_for_two_power_and_crawl_halves():
    g = game(two())
    g.apply(Move("A", "sprint", ((17, 5, 0),)))               # 12" = 2 x 6
    assert g.f("A").power == 8
    assert kinds(g.events, "cost")[-1]["paid"] == {"power": 2}
    g.apply(EndTurn("A"))
    with pytest.raises(IllegalAction, match='3.10" long, more than the 3" of this crawl'):
        g.apply(Move("B", "crawl", ((20, 8.1, 0),)))
    g.apply(Move("B", "crawl", ((20, 8, 0),)))
    assert g.f("B").low and not g.f("B").prone               # crawling stays low, not fallen


def test_a_crawler_may_still_attack_and_walks_on_without_getting_up_first():
    us = [unit("A", "red", 5, 5, 0), unit("B", "blue", 7.1, 5, 0, vitality=100)]      # B faces away
    g = game(us)
    g.apply(Move("A", "crawl", ((5.8, 5, 0),), 0))
    assert g.f("A").low
    assert g.why_illegal(Attack("A", "B", "main")) is None
    # next turn (its move is free again): a walk gets up as it goes, no Stand first
    g2 = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 20, 5, 180)])
    g2.f("A").low = True
    assert g2.why_illegal(Move("A", "walk", ((5, 8, 0),))) is None
    g2.apply(Move("A", "walk", ((5, 8, 0),)))
    assert not g2.f("A").low


def test_flying_triples_only_where_the_scene_allows_it():
    us = [unit("A", "red", 3, 5, abilities=["flying"]), unit("B", "blue", 28, 25, 180)]
    g = game(us)
    with pytest.raises(IllegalAction, match="the scene does not allow flying"):
        g.apply(Move("A", "fly", ((20, 5, 0),)))
    g = game(us, scene_info={"norova": {"flying": True}})
    assert g.move_allowance("A", "fly") == 18
    g.apply(Move("A", "fly", ((20.9, 5, 0),)))
    g2 = game(us, settings={"move": {"flying_allowed": True}})
    g2.apply(EndTurn("A"))
    with pytest.raises(IllegalAction, match="B cannot fly"):
        g2.apply(Move("B", "fly", ((25, 25, 0),)))


def test_climbing_and_swimming_move_at_half_rate():
    g = game(two())
    assert g.move_allowance("A", "climb") == 3
    g.geometry.env["A"] = frozenset({"deep-water"})
    assert g.swimming("A") and g.move_allowance("A", "walk") == 3
    with pytest.raises(IllegalAction, match="swimming and cannot sprint"):
        g.apply(Move("A", "sprint", ((7, 5, 0),)))
    with pytest.raises(IllegalAction, match='3.50" long, more than the 3" of this walk'):
        g.apply(Move("A", "walk", ((8.5, 5, 0),)))
    g.apply(Move("A", "walk", ((7.9, 5, 0),)))


def test_a_route_may_not_run_through_an_enemy():
    g = game([unit("A", "red", 5, 5), unit("B", "blue", 8, 5, 90)])
    with pytest.raises(IllegalAction, match="B"):
        g.apply(Move("A", "walk", ((11, 5, 0),)))


# ---- Attack of Opportunity ------------------------------------------------------
def aoo_scene(b_facing, **b):
    return [unit("A", "red", 5, 5, 0), unit("B", "blue", 10, 7, b_facing, **b)]


def test_aoo_entering_range_while_facing_hits_and_stops_the_mover():
    g = game(aoo_scene(270))
    rolls(g, [15, 5])                      # B's hit check (focus 0 + 15 >= 12), B's critical check
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    aoo = kinds(evs, "aoo")[0]
    assert aoo["model"] == "B" and aoo["why"] == "entered range while facing"
    # B's range (longsword, 1") is first reached where the bases are 1" apart: x = 10 - 1.052
    assert aoo["at"][0] == pytest.approx(9.0) and aoo["at"][1] == 5
    x, y, _ = g.geometry.position("A")
    assert (x, y) == pytest.approx((9.0, 5.0))               # stopped at the point of the attack
    assert kinds(evs, "move")[0]["stopped"] is True
    assert g.f("A").vitality == 25                           # longsword 5 + OP 0; no Evade against an AoO
    assert not kinds(evs, "check")[-1]["check"] == "evade"


def test_aoo_failed_hit_check_lets_the_mover_go_on():
    g = game(aoo_scene(270))
    rolls(g, [11])                          # 11 < 12: missed
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert g.geometry.position("A")[:2] == (11, 5)
    assert g.f("A").vitality == 30 and kinds(evs, "move")[0]["stopped"] is False


def test_no_aoo_when_the_enemy_does_not_face_the_mover():
    g = game(aoo_scene(90))
    rolls(g, [])                            # no die may be rolled
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert not kinds(evs, "aoo") and g.geometry.position("A")[:2] == (11, 5)


def test_aoo_moving_away_from_an_enemy_you_fought():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 90)])
    g._note_fought("A", "B")                 # they exchanged blows this round
    rolls(g, [15, 5])
    evs = g.apply(Move("A", "walk", ((1, 5, 0),), 180))
    aoo = kinds(evs, "aoo")[0]
    assert aoo["why"] == "moved away after a fight"
    # it leaves B's 1" range where the centres are 2.26" apart: the last point inside is x = 4.3
    assert g.geometry.position("A")[0] == pytest.approx(4.3)
    assert g.f("A").vitality == 25


def test_aoo_moving_away_from_a_fight_needs_no_facing():
    # B faces away (0 degrees, A is west of it): the trigger has no facing or sight condition
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 0)])
    g._note_fought("A", "B")
    rolls(g, [15, 5])
    evs = g.apply(Move("A", "walk", ((1, 5, 0),), 180))
    assert kinds(evs, "aoo")[0]["why"] == "moved away after a fight"


def test_no_aoo_moving_away_from_an_enemy_you_did_not_fight():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 90)])
    rolls(g, [])
    g.apply(Move("A", "walk", ((1, 5, 0),), 180))
    assert g.geometry.position("A")[:2] == (1, 5)


def test_one_aoo_per_enemy_per_round_is_a_setting():
    g = game(aoo_scene(270))
    g.f("B").aoo_made = 1
    rolls(g, [])
    g.apply(Move("A", "walk", ((11, 5, 0),)))
    g = game(aoo_scene(270), settings={"attack_of_opportunity": {"per_enemy_per_round": 2}})
    g.f("B").aoo_made = 1
    rolls(g, [11])
    assert kinds(g.apply(Move("A", "walk", ((11, 5, 0),))), "aoo")


def test_ranged_weapons_give_no_aoo_by_default():
    g = game(aoo_scene(270, equipment={"main": "shortbow"}, ammo={"arrow": 3}))
    rolls(g, [])
    g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert g.geometry.position("A")[:2] == (11, 5)


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_non_finite_facing_or_point_is_refused_not_a_crash(bad):
    g = game(two())
    with pytest.raises(IllegalAction, match="number of degrees"):
        g.apply(Turn("A", bad))
    with pytest.raises(IllegalAction, match="not a number"):
        g.apply(Move("A", "walk", ((bad, 5, 0),)))
