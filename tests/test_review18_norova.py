"""Legends of Norova, review 18: less-travelled corners of the Active Turn.

Source: ../shared/seeds/norova-active-turn.txt; docs/rulings.md ("Legends of Norova").
Every test fixes the dice, so each number can be checked by hand.
"""
import pytest

from rules.core import Dice
from rules.core.game import IllegalAction
from rules.norova.actions import Attack, EndTurn, Wait
from test_norova_helpers import game, kinds, narrated as _narrate, rolls, unit




# ---- "You may choose to wait and act later in the round": a wait passes a character that
# still acts, not one killed earlier in the round (it stays in the queue until its place) ------
def _kill_c_then_b():
    """Initiative A (red), B (blue), C (blue), D (red); A kills C on its turn (a
    Deathblow: its critical hit check a natural 20, then a 6), then it is B's turn."""
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 20, 20, 180),
              unit("C", "blue", 6.2, 5, 180), unit("D", "red", 5, 9)])
    rolls(g, [20, 6])
    g.apply(Attack("A", "C", "main"))
    assert g.f("C").status == "dead"
    g.apply(EndTurn("A"))
    assert g.active_model == "B" and "C" in g.queue
    return g


def test_a_wait_passes_the_next_character_that_still_acts():
    g = _kill_c_then_b()
    evs = g.apply(Wait("B"))
    # before: B was put after the dead C, came straight back to the head of the queue and had
    # to wait again to act after D ("B waits; next: C, B, D")
    assert g.active_model == "D" and [m for m in g.queue if m != "C"] == ["D", "B"]
    assert kinds(evs, "wait")[0]["queue"] == ["D", "B"]
    assert "   B waits; next: D, B" in _narrate(evs)


def test_no_wait_when_only_the_dead_are_left_after_it():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 20, 20, 180),
              unit("C", "red", 25, 25), unit("D", "blue", 6.2, 5, 180)])
    rolls(g, [20, 6])                    # A's Deathblow on D
    g.apply(Attack("A", "D", "main"))
    assert g.f("D").status == "dead"
    g.apply(EndTurn("A"))
    g.apply(EndTurn("B"))
    assert g.active_model == "C" and g.queue == ["C", "D"]
    # before: the wait was offered and "passed" the dead D, giving C its turn straight back
    with pytest.raises(IllegalAction, match="no character is left to act after C"):
        g.apply(Wait("C"))
    assert Wait("C") not in list(g.legal_actions())


def test_the_hud_names_only_characters_still_to_act():
    g = _kill_c_then_b()
    active = [t for t in g.hud_lines() if t.startswith("Active:")][0]
    assert active == "Active: B (blue); then D", active


# ---- initiative.reroll_each_round: a Dying character still makes its Vitality save each round
def test_a_dying_character_saves_each_round_when_initiative_is_rerolled():
    g = game([unit("A", "red", 5, 5, 0), unit("B", "blue", 6.2, 5, 180), unit("C", "red", 5, 9),
              unit("D", "blue", 25, 25)], settings={"initiative": {"reroll_each_round": True}})
    g.f("B").vitality = 1
    rolls(g, [10, 3])
    g.apply(Attack("A", "B", "main"))
    assert g.f("B").status == "dying"
    # every later d20 a 10 (a failed save: d20 10 + 0 vs 12), the d6s too
    g.dice = Dice.fixed([10] * 400)
    saves = []
    while g.round < 4 and not g.is_over:
        saves += [e for e in g.apply(EndTurn(g.active_model)) if e.kind == "save"]
    # round 1 (its place after A) and rounds 2 and 3 (rerolled): before, the reroll left the
    # Dying B out of the order, so it never saved again and stayed Dying for good
    assert [s.data["model"] for s in saves] == ["B", "B", "B"]
    assert g.f("B").status == "dying"
    ini = [e for e in g.events if e.kind == "initiative"][-1].data["order"]
    assert "B" in [o["model"] for o in ini]


# ---- a Dying ally given a potion: the narration reads the item's name as words ----------------
def test_a_revival_line_names_the_potion_in_words():
    from rules.norova.actions import UsePotion
    # C strikes B down first (B has 1 Vitality left); then A gives B its potion
    g = game([unit("C", "blue", 6.2, 6.3, 270), unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}),
              unit("B", "red", 6.2, 5, 180)])
    g.f("B").vitality = 1
    rolls(g, [10, 3])
    g.apply(Attack("C", "B", "main"))
    assert g.f("B").status == "dying"
    g.apply(EndTurn("C"))
    lines = _narrate(g.apply(UsePotion("A", "healing_potion", "B")))
    # before: "B is active (healing_potion)"
    assert "   B is active (healing potion)" in lines, lines


# ---- "Targets within the area of effect are affected ... Walls and solid obstacles may block an
# area of effect": a character standing behind another in the area is in it too ---------------
def test_an_area_spell_reaches_a_character_behind_another_in_the_area():
    from rules.norova.actions import Cast
    from test_norova_helpers import arena_game
    g = arena_game(seed=1)
    geo = g.geometry
    away = {"knight": (2, 2), "ranger": (4, 2), "cleric": (20, 2), "hexer": (2, 22), "brute": (5, 22),
            "crossbowman": (8, 22), "harpy": (20, 22)}
    for m, (x, y) in away.items():
        geo.place(m, (x, y), 0)
    # the pyromancer, the knight 1.25" east of it, the ghoul 1.35" beyond, all in the flame
    # burst's 2" (the gaps between the bases 0.07" and 1.34"), the knight's body between
    geo.place("pyromancer", (12, 3), 0)
    geo.place("knight", (13.25, 3), 0)
    geo.place("ghoul", (14.6, 3), 180)
    assert g.geometry.distance("pyromancer", "ghoul") <= 2
    assert not g._sight("pyromancer", "ghoul").los            # the knight hides it from the eye
    while g.active_model != "pyromancer":
        g.apply(EndTurn(g.active_model))
    g.apply(Cast("pyromancer", "flame_burst", None))          # casting speed 2: ready next round
    released = []
    while not released and not g.is_over:
        released = kinds(g.apply(EndTurn(g.active_model)), "spell")
    # before: only the knight burned; the ghoul "blocked" (no line of sight from the caster)
    assert released[0]["targets"] == ["knight", "ghoul"], released


# ---- a setting the rules never read is no setting: `dying.save_stat` was accepted (and
# checked) but the Dying save was always the Vitality save -----------------------------------
def test_dying_save_stat_is_refused_as_no_setting():
    from rules.norova.data import NorovaDataError, RuleData
    with pytest.raises(NorovaDataError, match="dying.save_stat: unknown setting"):
        RuleData({"dying": {"save_stat": "soul"}})
    assert RuleData({"dying": {"damage_kills": False}}).rules["dying"] == {"damage_kills": False}


# ---- "Epic Casting: If the natural 20 is on a spell's critical hit, roll 1d6. On a 6 the target
# is instantly killed or fully restored": the critical hit check's line says Epic Casting -----
def test_a_spell_critical_critical_reads_as_epic_casting():
    from rules.norova.actions import Cast
    g = game([unit("A", "red", 5, 5, 0, spells=["mend"]), unit("B", "red", 6.2, 5, 180),
              unit("C", "blue", 25, 25)])
    g.f("B").vitality = 3
    rolls(g, [15, 20, 6])                # mend's roll (15 vs 8), its critical hit check 20, d6 6
    lines = _narrate(g.apply(Cast("A", "mend", "B")))
    # before: "A critical hit check: d20 20, d6 6: deathblow" on a healing spell
    assert "     A critical hit check: d20 20, d6 6: epic casting" in lines, lines
    assert "     epic casting of mend: B fully restored" in lines
    assert g.f("B").vitality == 30
    # an attack's 6 is still a Deathblow
    g2 = game([unit("A", "red", 5, 5, 0), unit("C", "blue", 6.2, 5, 180), unit("D", "blue", 25, 25)])
    rolls(g2, [20, 6])
    assert "     A critical hit check: d20 20, d6 6: deathblow" in _narrate(g2.apply(Attack("A", "C", "main")))


# ---- a model the scene sets Crouched (the table's low pose behind cover) starts low, as after a
# crawl, not fallen: it attacks without first spending its move to get up --------------------
def test_a_scene_crouched_model_starts_low_not_fallen():
    g = game([unit("A", "red", 5, 5, 0, states=["Crouched"]), unit("B", "blue", 6.2, 5, 180),
              unit("C", "red", 5, 9, states=["Prone"])])
    a, c = g.f("A"), g.f("C")
    assert a.low and not a.prone and "Crouched" in g.geometry.models["A"].states
    assert c.prone                                   # Norova's own fallen state still is
    # before: A was fallen ("A is down and cannot attack (stand up first)")
    assert g.why_illegal(Attack("A", "B", "main")) is None
    assert "A [A, red] low " in g.hud_lines("A")[2], g.hud_lines("A")


# ---- a face taller than the figure: the table's refusal named moves Norova does not have
# ("it needs Climb, Jump or a ladder"); Norova's way up or down is a `climb` move ---------------
def test_a_refused_ledge_names_norovas_climb_not_a_jump():
    from rules.norova.actions import Move
    from test_norova_helpers import arena_game
    g = arena_game(seed=1)
    while g.active_model != "knight":
        g.apply(EndTurn(g.active_model))
    # at the foot of the ruined wall (2.5" high, centred on y 16)
    g.geometry.place("knight", (12.0, 14.8), 90)
    up = g.why_illegal(Move("knight", "walk", ((12.0, 16.0, 2.5),), 90))
    assert up.startswith('illegal route: scenery 2.50" high at (12.00, 15.12)'), up
    assert up.endswith("it needs a climb move (or a ladder)") and "Jump" not in up, up



def test_a_walk_jumps_down_a_ledge_taller_than_the_figure_and_falls():
    """docs/rulings.md, "Climbing and swimming": "a character may jump down, and the drop is
    the falling rule (1d6 per full 2")". The table's walk refused every drop taller than the
    figure (1.77"), so the knight could not walk off the 2.5" ruined wall; it now jumps down
    and falls, and ``move.drop_needs_climb`` refuses it in the rules' own words."""
    from rules.norova.actions import Move
    from test_norova_helpers import arena_game
    for settings, want in ((None, None), ({"move.drop_needs_climb": True}, "the ruined-wall's 2.5\" drop needs a climb")):
        g = arena_game(seed=1, settings=settings) if settings else arena_game(seed=1)
        while g.active_model != "knight":
            g.apply(EndTurn(g.active_model))
        g.geometry.place("knight", (12.0, 16.0), 90)          # on the wall's top
        m = Move("knight", "walk", ((12.0, 17.5, 0.0),), 90)
        assert g.why_illegal(m) == want
        if want is None:
            before = g.fighters["knight"].vitality
            rolls(g, [2])
            lines = _narrate(g.apply(m))
            assert any(ln.strip().startswith('knight falls 2.5"') and ln.strip().endswith("(1d6)") for ln in lines), lines
            assert tuple(g.pos("knight")) == (12.0, 17.5, 0.0)
            assert g.fighters["knight"].vitality == before - 2


def test_the_greedy_harpy_comes_down_off_a_pillar_to_fight():
    """`eldfall play scenes/norova-arena.yaml --game norova --bots greedy --seed 4`: the harpy
    flew onto pillar-e (a flight lands on the highest surface under its base) 4" over the
    knight and sat there six turns: the bot measured its approach in plan, where no move is
    nearer. It now measures in 3D where the heights differ and where a flight comes down."""
    from rules.norova.actions import Move
    from rules.norova.bots import GreedyBot
    from tools import gameplay
    _, g = gameplay.new_game("scenes/norova-arena.yaml", "norova", 4)
    while g.active_model != "harpy":
        g.apply(EndTurn(g.active_model))
    g.geometry.place("harpy", (18.83, 12.02, 4.0), 338)       # on pillar-e's top (r 1 at (18, 12))
    g.geometry.place("knight", (20.73, 11.23, 0.0), 90)       # at its foot, out of the harpy's reach
    assert g.geometry.position("harpy")[2] == pytest.approx(4.0)
    a = GreedyBot(seed=4, side="foes").choose(g)
    assert isinstance(a, Move), a
    g.apply(a)
    assert g.geometry.position("harpy")[2] == pytest.approx(0.0), (a, g.geometry.position("harpy"))
    assert g.geometry.distance("harpy", "knight") < 2.0
