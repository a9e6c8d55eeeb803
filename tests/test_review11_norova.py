"""Legends of Norova, review 11: the user's page against the rules.

Source: ../shared/seeds/norova-active-turn.txt; docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number can be checked by hand.
"""
import pytest

from rules.norova.actions import Aid, Attack, Cast, EndTurn, Move, ThrowPotion, Turn, UsePotion
from rules.norova.data import NorovaDataError, RuleData
from test_norova_helpers import game, kinds, rolls, unit


# ---- a bad setting is one line, not a traceback or a silent nonsense -------------------
@pytest.mark.parametrize("settings, says", [
    ({"attack_of_opportunity": {"path_step": 0}},
     "settings: attack_of_opportunity.path_step: must be more than 0, not 0"),
    ({"falling": {"inches_per_die": 0}}, "settings: falling.inches_per_die: must be more than 0"),
    ({"initiative": {"trait": "strength"}}, "settings: initiative.trait: unknown trait 'strength'"),
    ({"move": {"sprint_factor": -2}}, "settings: move.sprint_factor: must be more than 0, not -2"),
    ({"critical": {"crit_power_multiplier": 2.5}},
     "settings: critical.crit_power_multiplier: must be a whole number, not 2.5"),
    ({"max_rounds": 0}, "settings: max_rounds: must be at least 1, not 0"),
    ({"max_rounds": float("inf")}, "settings: max_rounds: must be a whole number, not inf"),
    ({"off_hand_power_fraction": 1.5}, "settings: off_hand_power_fraction: must be at least 0 and at most 1"),
    ({"covered_grades": ["medium"]}, "settings: covered_grades: unknown 'medium'"),
    ({"evade": {"against": ["melee", "magic"]}}, "settings: evade.against: unknown 'magic'"),
    ({"move": {"sprint_cost": {"power": -1}}}, "settings: move.sprint_cost.power: must be a whole number"),
    # a problem of a setting names the settings (the CLI's --set), not rules.yaml
    ({"checks": {"evade": {"trait": "x"}}}, "settings: checks.evade.trait: unknown trait 'x'"),
])
def test_a_bad_setting_is_a_one_line_problem(settings, says):
    with pytest.raises(NorovaDataError) as exc:
        RuleData(settings)
    assert any(line.startswith(says) for line in exc.value.problems), exc.value.problems


def test_the_shipped_rules_are_valid():
    RuleData()
    RuleData({"max_rounds": 5, "move": {"step_height": 0}, "potions": {"path_width": 0.25}})


# ---- "every target in the path can make a free React check to catch it" -----------------
def _throw(z_between: float):
    """A throws a potion 4" to its ally C; X stands on the line between, ``z_between`` up."""
    us = [unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}, traits={"react": 0}),
          unit("C", "red", 9, 5, 180), unit("X", "blue", 7, 5, 90),
          unit("B", "blue", 25, 25, 180)]
    g = game(us)
    g.geometry.place("X", (7.0, 5.0, z_between), 90.0)
    return g


def test_a_character_on_a_ledge_above_the_throw_is_not_in_its_path():
    # X's feet 3" up: its 1.77" figure stands wholly above both characters' hitboxes
    # (0..1.77"): the potion flies under it. Before, the path was measured flat on the
    # table and X made the first catch check (12 + 0 >= 12: X caught the potion).
    g = _throw(3.0)
    rolls(g, [12])
    evs = g.apply(ThrowPotion("A", "healing_potion", "C"))
    assert kinds(evs, "throw_potion")[0]["path"] == ["C"]
    assert kinds(evs, "caught")[0]["model"] == "C"
    assert g.f("C").inventory.get("healing_potion") == 1 and not g.f("X").inventory.get("healing_potion")


def test_a_character_on_a_low_step_is_still_in_the_throws_path():
    # X's feet 1" up: its figure (1..2.77") meets the path's band (0..1.77"): it is in the way
    g = _throw(1.0)
    rolls(g, [12])
    evs = g.apply(ThrowPotion("A", "healing_potion", "C"))
    assert kinds(evs, "throw_potion")[0]["path"] == ["X", "C"]
    assert kinds(evs, "caught")[0]["model"] == "X"


# ---- "The spell type must match — both healing, or both damaging" -----------------------
def test_the_legal_actions_offer_an_aided_healing_spell():
    # A and C both know mend; K is hurt. Before, only damage spells were offered aided: a
    # hotseat player (who picks from the legal actions) could never aid a heal
    us = [unit("A", "red", 5, 5, 0, spells=["mend"], element="light"),
          unit("C", "red", 5, 7, 0, spells=["mend"], element="light"),
          unit("K", "red", 7, 6, 180, vitality=30), unit("B", "blue", 25, 25, 180)]
    g = game(us)
    g.f("K").vitality = 10
    aided = [a for a in g.legal_actions() if isinstance(a, Cast) and a.aid]
    assert Cast("A", "mend", "K", (Aid("C", None, "mend"),)) in aided
    rolls(g, [10, 10, 5, 5])               # both rolls (easy, 8) succeed; no critical hit
    g.apply(Cast("A", "mend", "K", (Aid("C", None, "mend"),)))
    assert g.f("K").vitality == 10 + 6 + 6 and g.f("C").slots["magic"]


def test_the_legal_actions_offer_a_spell_aided_by_two_allies():
    us = [unit("A", "red", 5, 5, 0, spells=["firebolt"], element="fire"),
          unit("C", "red", 5, 7, 0, spells=["firebolt"], element="fire"),
          unit("D", "red", 5, 3, 0, spells=["firebolt"], element="fire"),
          unit("B", "blue", 10, 5, 180, vitality=60)]
    g = game(us)
    aided = {a.aid for a in g.legal_actions() if isinstance(a, Cast) and a.target == "B"}
    assert (Aid("C", None, "firebolt"),) in aided and (Aid("D", None, "firebolt"),) in aided
    assert (Aid("C", None, "firebolt"), Aid("D", None, "firebolt")) in aided


# ---- "To use a potion on an ally you must be within 1 space and facing them" -------------
def test_the_legal_actions_offer_turning_to_face_an_ally_to_give_it_a_potion():
    # C lies Dying right behind A. The legal actions (the hotseat menu) offered turns only
    # towards enemies: A could never face C to give it the potion
    us = [unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}),
          unit("C", "red", 3.5, 5, 0), unit("B", "blue", 25, 5, 180)]
    g = game(us)
    g.damage("C", 30, "test")
    assert g.f("C").status == "dying"
    assert g.why_illegal(UsePotion("A", "healing_potion", "C")) == "A must face C to give it a potion"
    turn = Turn("A", 180.0)
    assert turn in list(g.legal_actions())      # the list (the menu), not a legality check
    g.apply(turn)
    assert UsePotion("A", "healing_potion", "C") in list(g.legal_actions())
    g.apply(UsePotion("A", "healing_potion", "C"))
    assert g.f("C").status == "active" and g.f("C").vitality == 10


# ---- the narration: the numbers a dispute needs --------------------------------------------
def _lines(evs):
    from rules.norova import narrate
    return [line.strip() for line in map(narrate.line, evs) if line]


def test_the_narration_of_an_aided_hit_gives_each_part():
    g = game([unit("A1", "red", 5, 5, 0, offensive_power=2), unit("B", "blue", 6.5, 5.6, 180, vitality=200),
              unit("A2", "red", 5, 6.4, 0, offensive_power=1)])
    rolls(g, [10, 10, 2])                 # no critical for either part; B's Evade 2 fails
    evs = g.apply(Attack("A1", "B", "main", None, (Aid("A2", "main", None),)))
    assert "hit: 13 damage to B (A1 7 + A2 6)" in _lines(evs)


@pytest.mark.parametrize("dice, says", [
    ([10, 10, 2], "A power strike: d20 10 +3 focus -> 13 vs 12: success"),
    ([20, 10, 2], "A power strike: d20 20 +3 focus -> 23 vs 12: critical success (natural 20)"),
    ([1, 1, 10, 2], "A power strike: d20 1 +3 focus -> 4 vs 12: natural 1, but it works anyway (d6 1)"),
    ([1, 3], "A power strike: d20 1 +3 focus -> 4 vs 12: natural 1, a plain failure (d6 2-5)"),
])
def test_the_narration_of_a_skill_roll_gives_the_trait_and_the_natural_1s_d6(dice, says):
    # before: "d20 10 -> 13 vs 12: success" (the +3 unexplained) and "works_anyway"
    g = game([unit("A", "red", 5, 5, 0, skills=["power_strike"], traits={"focus": 3}),
              unit("B", "blue", 6.5, 5, 180, vitality=200)])
    rolls(g, dice)
    assert says in _lines(g.apply(Attack("A", "B", "main", "power_strike")))


# ---- "You cannot hit a target beyond or through an obstacle": no AoO through a wall --------
WALL = [("low-wall", 3.0, 5.75, 13.0, 6.25, 1.0)]       # a 1" wall along y 6, x 3..13


def _walk_past_b(boxes):
    """A walks east along the wall's south side; B stands on its north side facing A, the
    route 0.74" from B's base (inside its 1" reach, in its front arc)."""
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 8, 7, 270)], boxes=boxes)
    rolls(g, [15, 10, 10])                # B's hit check would succeed (15 >= 12)
    return g, g.apply(Move("A", "walk", ((11.0, 5.0, 0.0),)))


def test_no_attack_of_opportunity_through_a_low_wall():
    # B could not attack A across the wall (covered: "You must be on the same side of the
    # obstacle"), so it cannot strike it there as it walks by either. Before, it did.
    g, evs = _walk_past_b(WALL)
    assert kinds(evs, "aoo") == [] and g.pos("A")[:2] == (11.0, 5.0)
    g.geometry.place("A", (8.0, 5.0, 0.0), 0.0)          # right across the wall from B
    assert "covered by low-wall" in g._why_target("B", "A", 1.0)
    assert g.f("A").vitality == 30


def test_an_attack_of_opportunity_in_the_open_still_comes():
    g, evs = _walk_past_b(())
    assert [a["model"] for a in kinds(evs, "aoo")] == ["B"] and kinds(evs, "move")[0]["stopped"]


def test_an_attack_of_opportunity_comes_where_the_wall_ends():
    # the wall ends at x 7.5 now: B strikes A as soon as it is past the wall's end (in
    # reach, in B's arc, and nothing between), not from behind the wall
    g, evs = _walk_past_b([("low-wall", 3.0, 5.75, 7.5, 6.25, 1.0)])
    aoo = kinds(evs, "aoo")
    assert len(aoo) == 1 and aoo[0]["at"][0] > 7.5
    assert g.pos("A")[0] == pytest.approx(aoo[0]["at"][0])


def test_an_attack_of_opportunity_on_a_mover_leaving_a_fight_comes_before_it_is_covered():
    # A fought B (round 1); in round 2 it walks east out of B's reach (B faces away: no
    # "entering range" trigger). The last point in reach (x 6.0) is behind the wall's end
    # (x 5.7): B strikes at the last point it can hit A, not through the wall
    wall = [("wall", 5.7, 5.75, 13.0, 6.25, 1.0)]
    g = game([unit("A", "red", 5, 5, 90), unit("B", "blue", 5, 7, 270)], boxes=wall)
    rolls(g, [5, 20])                     # A's blow: no critical, B evades
    g.apply(Attack("A", "B", "main"))
    g.apply(EndTurn("A"))
    g.apply(Turn("B", 90))
    g.apply(EndTurn("B"))
    assert g.round == 2 and g.fought_recently("A", "B")
    g.geometry.place("A", (6.0, 5.0, 0.0), 0.0)
    assert "covered by wall" in g._why_target("B", "A", 1.0)
    g.geometry.place("A", (5.0, 5.0, 0.0), 90.0)
    rolls(g, [15, 10])                    # B's hit check, its critical hit check
    evs = g.apply(Move("A", "walk", ((11.0, 5.0, 0.0),)))
    aoo = kinds(evs, "aoo")
    assert len(aoo) == 1 and aoo[0]["why"] == "moved away after a fight"
    assert aoo[0]["at"][0] == pytest.approx(5.7)
    s = g._cover("B", "A")                # where A stopped, B sees it with nothing between
    assert s.los and not g._covered(s)


# ---- the greedy bot and a Dying ally -------------------------------------------------------
def _dying_ally_game(inventory, c_x):
    us = [unit("A", "red", 5, 5, 0, inventory=inventory), unit("C", "red", c_x, 5, 0),
          unit("B", "blue", 25, 5, 180)]
    g = game(us)
    g.damage("C", 30, "test")
    return g


def test_the_greedy_bot_gives_no_soul_draught_to_a_dying_ally():
    # only Vitality brings C back: before, the bot gave it the soul draught (wasted)
    from rules.norova.bots import GreedyBot
    g = _dying_ally_game({"soul_draught": 1}, 6.5)
    a = GreedyBot(1).choose(g)
    assert not isinstance(a, UsePotion), str(a)


def test_the_greedy_bot_turns_to_a_dying_ally_behind_it_and_gives_the_potion():
    from rules.norova.bots import GreedyBot
    g = _dying_ally_game({"healing_potion": 1}, 3.5)
    bot = GreedyBot(1)
    a = bot.choose(g)
    assert a == Turn("A", 180.0), str(a)
    g.apply(a)
    a = bot.choose(g)
    assert a == UsePotion("A", "healing_potion", "C"), str(a)
    g.apply(a)
    assert g.f("C").status == "active"
