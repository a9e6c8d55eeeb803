"""Review 9 of the Legends of Norova rules: defects found and fixed.

Source: ../shared/seeds/norova-active-turn.txt; the project's rulings:
docs/rulings.md ("Legends of Norova").
"""
import pytest

from rules.norova import narrate
from rules.norova.actions import Move
from test_norova_helpers import game, kinds, rolls, unit


def aoo_scene(b_facing, **b):
    return [unit("A", "red", 5, 5, 0), unit("B", "blue", 10, 7, b_facing, **b)]


def _order(evs):
    return [e.kind for e in evs if e.kind in ("move_leg", "aoo", "check", "move", "strike", "damage")]


# ---- the Attack of Opportunity follows the move it stops ---------------------------
def test_aoo_is_narrated_after_the_mover_reaches_the_point_where_it_triggers():
    g = game(aoo_scene(270))
    rolls(g, [15, 5])                      # B's hit check succeeds, B's critical hit check
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert _order(evs) == ["move_leg", "aoo", "check", "move", "strike", "damage"]
    leg = kinds(evs, "move_leg")[0]
    assert leg["end"][:2] == pytest.approx(kinds(evs, "aoo")[0]["at"][:2])
    mv = kinds(evs, "move")[0]
    assert mv["stopped"] is True and mv["end"][:2] == pytest.approx(leg["end"][:2])
    lines = [narrate.line(e) for e in evs]
    lines = [ln.strip() for ln in lines if ln]
    walk = next(i for i, ln in enumerate(lines) if ln.startswith("A walks to (9.00, 5.00)"))
    aoo = next(i for i, ln in enumerate(lines) if ln.startswith("Attack of Opportunity: B on A"))
    stopped = next(i for i, ln in enumerate(lines) if ln.startswith("A is stopped at (9.00, 5.00)"))
    hit = next(i for i, ln in enumerate(lines) if ln.startswith("hit: 5 damage to A"))
    assert walk < aoo < stopped < hit


def test_a_failed_aoo_hit_check_reads_as_the_mover_going_on():
    g = game(aoo_scene(270))
    rolls(g, [11])                         # 11 < 12: the hit check fails
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert _order(evs) == ["move_leg", "aoo", "check", "move"]
    lines = [ln.strip() for ln in map(narrate.line, evs) if ln]
    assert lines.index("A walks to (9.00, 5.00)") < next(
        i for i, ln in enumerate(lines) if ln.startswith("Attack of Opportunity")) < lines.index(
        "A walks on to (11.00, 5.00) facing 0")


def test_a_mover_stopped_on_a_bent_route_faces_its_way_of_travel_there():
    # A goes north first, then east into B's range: at the stop it faces east (0),
    # not the bearing from its start to the stop point
    g = game([unit("A", "red", 5, 4, 90), unit("B", "blue", 10, 7, 180)])
    rolls(g, [15, 5])
    evs = g.apply(Move("A", "walk", ((5, 7, 0), (8, 7, 0))))
    mv = kinds(evs, "move")[0]
    assert mv["stopped"] is True and mv["end"][1] == pytest.approx(7.0)
    assert mv["facing"] == pytest.approx(0.0)
    assert g.geometry.facing("A") == pytest.approx(0.0)


# ---- hiding ends when a hidden character attacks or casts --------------------------------
def test_a_hidden_ally_that_joins_a_spell_is_no_longer_hidden():
    from rules.norova.actions import Aid, Cast
    us = [unit("A", "red", 5, 5, 0, spells=["firebolt"], element="fire"),
          unit("C", "red", 5, 7, 0, spells=["firebolt"], element="fire"),
          unit("B", "blue", 10, 6, 180)]
    g = game(us)
    g.f("C").hidden = True
    rolls(g, [15, 15, 5, 5, 5, 5, 5, 5])
    evs = g.apply(Cast("A", "firebolt", "B", (Aid("C", None, "firebolt"),)))
    assert not g.f("C").hidden
    assert {"model": "C", "hidden": False, "why": "cast a spell"} in kinds(evs, "hidden")


def test_a_hidden_enemy_that_makes_an_attack_of_opportunity_is_revealed():
    g = game(aoo_scene(270))
    g.f("B").hidden = True
    rolls(g, [15, 5])                      # B's hit check succeeds: it attacks
    evs = g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert kinds(evs, "strike") and not g.f("B").hidden
    assert {"model": "B", "hidden": False, "why": "attacked"} in kinds(evs, "hidden")
    # a failed hit check is no attack: B stays hidden
    g = game(aoo_scene(270))
    g.f("B").hidden = True
    rolls(g, [11])
    g.apply(Move("A", "walk", ((11, 5, 0),)))
    assert g.f("B").hidden


# ---- reloading needs a bolt ----------------------------------------------------------------
def test_a_crossbow_without_bolts_left_cannot_be_reloaded():
    from rules.core import IllegalAction
    from rules.norova.actions import Reload
    g = game([unit("A", "red", 5, 5, 0, equipment={"main": "crossbow"}, ammo={"bolt": 0}),
              unit("B", "blue", 20, 5, 180)])
    g.f("A").unloaded.append("crossbow")
    assert Reload("A") not in list(g.legal_actions())
    with pytest.raises(IllegalAction, match="no bolt left to load its crossbow"):
        g.apply(Reload("A"))
    g.f("A").ammo["bolt"] = 1
    assert Reload("A") in list(g.legal_actions())


# ---- a move too long for the Norova allowance is refused in Norova's numbers ---------------
def test_a_far_too_long_move_is_refused_with_the_norova_allowance():
    from rules.core import IllegalAction
    g = game([unit("A", "red", 2, 2, 0), unit("B", "blue", 28, 28, 180)])
    # 26" of walking for a move rate of 6: the geometry's own refusal quoted the generous
    # speed the rules give it (25"), a number that means nothing to the player
    with pytest.raises(IllegalAction) as exc:
        g.apply(Move("A", "walk", ((28, 2, 0),)))
    assert 'the route is 26.00" long, more than the 6" of this walk' in str(exc.value)
    with pytest.raises(IllegalAction, match='more than the 3" of this climb'):
        g.apply(Move("A", "climb", ((28, 2, 0),)))


# ---- the save line says how the save went ------------------------------------------------
def test_a_critical_vitality_save_reads_as_a_success_and_says_what_it_recovered():
    from rules.core import Event
    ev = Event("save", {"model": "A", "stat": "vitality", "why": "dying", "natural": 20, "total": 21,
                           "target": 12, "success": True, "critical": "success", "recovered": 6})
    assert narrate.line(ev).strip() == ("A vitality save (dying): d20 20 -> 21 vs 12, natural 20: success; "
                                        "recovers 6 vitality")


# ---- moving away from an enemy who attacked you: the fight of the last round counts ---------
def test_moving_away_at_the_next_turn_from_an_enemy_that_attacked_after_your_turn_draws_an_aoo():
    from rules.norova.actions import Attack, EndTurn
    # A acts first every round (initiative); B attacks A after A's turn, in round 1
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180)])
    g.apply(EndTurn("A"))
    rolls(g, [10, 5])                        # B's critical hit check, A's Evade (fails)
    g.apply(Attack("B", "A", "main"))
    g.apply(EndTurn("B"))
    assert g.round == 2 and g.active_model == "A"
    # round 2: A walks away from B, who hit it moments ago (B faces it: either trigger would
    # do, so B turns away to leave only "moved away after a fight")
    g.geometry.set_facing("B", 0.0)
    rolls(g, [15, 5])
    evs = g.apply(Move("A", "walk", ((1, 5, 0),), 180))
    assert kinds(evs, "aoo") and kinds(evs, "aoo")[0]["why"] == "moved away after a fight"


def test_a_fight_older_than_the_last_round_draws_no_aoo():
    from rules.norova.actions import Attack, EndTurn
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 0)])
    g.apply(EndTurn("A"))
    rolls(g, [10, 5])
    g.geometry.set_facing("B", 180.0)
    g.apply(Attack("B", "A", "main"))          # round 1, after A's turn
    g.geometry.set_facing("B", 0.0)
    g.apply(EndTurn("B"))
    g.apply(EndTurn("A"))                      # round 2: nobody fights
    g.apply(EndTurn("B"))
    assert g.round == 3
    rolls(g, [])                               # no die may be rolled
    evs = g.apply(Move("A", "walk", ((1, 5, 0),), 180))
    assert not kinds(evs, "aoo") and g.geometry.position("A")[:2] == (1, 5)


# ---- the greedy bot spots a hidden enemy instead of standing by it -----------------------
def test_the_greedy_bot_tries_to_spot_a_hidden_enemy_in_sight():
    from rules.norova.actions import Attack, Perceive
    from rules.norova.bots import GreedyBot
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.5, 5, 180)])
    g.f("B").hidden = True
    a = GreedyBot(1).choose(g)
    assert a == Perceive("A", "B")
    rolls(g, [15])                             # spotted (perceive 0 + 15 >= 12)
    g.apply(a)
    assert not g.f("B").hidden
    assert isinstance(GreedyBot(1).choose(g), Attack)
