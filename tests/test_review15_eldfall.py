"""Review 15 of the Eldfall rules engine against eldfall-reactions.txt and
eldfall-states.txt: defects found and fixed.

* A Blinded model Engaged by the Activated model was told "b1 (LoS)" in the Reaction
  Step and dodged with its full AG: the Reaction Step gave it the Engaged State's
  automatic LoS to its engagers although Blinded has "no Line of Sight (except to
  itself)" (the rest of the engine, ``has_los`` and ``reaction_rules``, lets Blinded
  win). Its Dodge now has halved AG ("If the reacting model never had LoS during the
  Movement Step, the Dodge must be performed with halved Agility").
* A Melee Attack declared by a Flying reactor at the Activated model could not be
  answered in the Action Step: the Activated model was refused "a Flying model cannot
  be targeted by Melee Attacks except by Flying models", although the Flying rules let
  a non-Flying model a Flyer attacks in melee "declare a Melee Attack back at it"
  (only a reactor changing its Dodge could). Nor could a Foresight reactor, whose
  Reaction comes after the Flyer's declaration of a Melee Attack at it.
* The legal actions (``generate_actions``: the bots' and a front end's list) of a
  Panicked reactor that failed its Morale roll offered no move after its Dodge but
  staying put: the sampled points rarely lie toward the nearest field edge, the only
  way it may go. The straight moves toward that edge are offered.
* With the table setting ``trade_as_reaction: true`` (the Reactions page's Trade row)
  a reactive Trade was legal but never among the legal actions.

The play summary (``eldfall play``, ``eldfall replay --events``, the view's banner):

* a pass in the Reaction Step left the "may react to" line hanging: the models that
  could react and did not were never named ("b1 does not react"; a Foresight offer
  passed: "b1 still does not react (Foresight)"; a change to an Attack declined:
  "b1 keeps its reaction (Dodge)");
* a melee reaction that names no point read like the Attack of Opportunity the
  "may react to" line offered ("b1 (LoS, Attack of Opportunity)" then "b1 reacts:
  Melee Attack with Sword at r1"), though it is measured where the mover ended: it
  now says so (", at the end of its Walk"); the Attack of Opportunity names its point;
* a Panicked reactor's failed Morale roll did not say what it leaves: "as a reactor
  only Dodge (toward the nearest field edge) or Nothing".
"""
from __future__ import annotations

from rules.eldfall.actions import Activate, Declare, Move, Pass
from rules.eldfall.narrate import Summary
from tests.eldfall_scenario import BOW, SWORD, setup, unit


def _told(g, decisions):
    """The play summary of ``decisions`` applied to ``g`` one by one, as eldfall play
    prints it, with the held line at the end."""
    s = Summary()
    out = []
    for a in decisions:
        out += s.feed(g.apply(a))
    return out + s.close()


def _engaged_pair(**states):
    """r1 and b1 1.5" apart, face to face: each engages the other."""
    g = setup([unit("r1", "red", 10, 10, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 11.5, facing=270, weapons=[SWORD, BOW])], [5] * 20)
    for m, st in states.items():
        for s in st:
            g.add_state(m, s, "test")
    return g


def test_a_blinded_model_has_no_los_to_its_engager_in_the_reaction_step():
    g = _engaged_pair(b1=["Blinded"])
    assert g.models["b1"].engaged_by == {"r1"} and "Blinded" in g.models["b1"].states
    out = _told(g, [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
                + [Move("r1", "idle"), Declare("b1", "Dodge"),
                   Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),))])
    assert "  may react to r1: b1 (no LoS, in its Awareness)" in out, out
    dodge = next(e for e in g.events if e.kind == "dodge")
    assert dodge.data["halved"] and dodge.data["attribute"] == 5, dodge.data      # AG 10 halved


def _idle_beside_a_flyer(flyer: str, b1_skills=()):
    """r1 and b1 face to face 1.5" apart, ``flyer`` Flying (no one is Engaged); r1 has
    activated and stayed Idle: the Reaction Step is next."""
    g = setup([unit("r1", "red", 10, 10, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 11.5, facing=270, weapons=[SWORD, BOW], skills=list(b1_skills))],
              [5] * 20)
    g.add_state(flyer, "Flying", "test")
    g._update_engagement()
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    g.apply(Move("r1", "idle"))
    return g


def _flying_reactor(reaction: str, weapon: str):
    """b1 flies beside r1 (no one is Engaged); r1 activates Idle and b1 reacts with
    ``reaction`` at it: r1's Action Step is next."""
    g = _idle_beside_a_flyer("b1")
    g.apply(Declare("b1", reaction, weapon=weapon, targets=(("r1", 1),)))
    assert g.pending == ("action", "r1")
    return g


def test_a_model_a_flying_reactor_attacks_in_melee_may_attack_it_back_in_melee():
    # eldfall-states.txt, Flying: "if a Flying model declares a Melee Attack against a
    # non-Flying model, that model may declare a Melee Attack back at it". The
    # Flyer's Reaction comes before the Action Step, so the Activated model answers
    # with its Action (before, only a reactor could strike back at a Flying mover)
    g = _flying_reactor("Melee Attack", "Sword")
    back = Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),))
    assert g.why_illegal(back) is None
    assert back in list(g.generate_actions())
    g.apply(back)
    conf = [e for e in g.events if e.kind == "confrontation"]
    assert conf and {conf[0].data["a"], conf[0].data["b"]} == {"r1", "b1"}


def test_a_flying_model_that_did_not_attack_in_melee_is_still_out_of_melee_reach():
    g = _flying_reactor("Ranged Attack", "Bow")
    assert "cannot be targeted by Melee Attacks" in g.why_illegal(
        Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),)))


def test_a_pass_in_the_reaction_step_names_who_did_not_react():
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 14, facing=270, weapons=[SWORD, BOW]),
               unit("b2", "blue", 12, 14, facing=270, weapons=[SWORD, BOW])], [5] * 20)
    steps = [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
    out = _told(g, steps + [Move("r1", "walk", ((10.0, 8.0, 0.0),)), Declare("b2", "Dodge"),
                            Pass("blue"), Declare("r1", "Nothing")])
    i = out.index("  may react to r1: b1 (LoS), b2 (LoS)")
    assert out[i + 1:i + 3] == ["  b2 reacts (1 AP left): Dodge", "  b1 does not react"], out


def test_a_pass_with_no_reaction_at_all_names_every_model_that_could_react():
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 14, facing=270, weapons=[SWORD, BOW]),
               unit("b2", "blue", 12, 14, facing=270, weapons=[SWORD, BOW])], [5] * 20)
    steps = [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
    out = _told(g, steps + [Move("r1", "walk", ((10.0, 8.0, 0.0),)), Pass("blue")])
    i = out.index("  may react to r1: b1 (LoS), b2 (LoS)")
    assert out[i + 1] == "  b1, b2 do not react", out


def test_a_declined_change_to_an_attack_says_the_reaction_stands():
    g = setup([unit("r1", "red", 10, 10, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 12, facing=270, weapons=[SWORD, BOW])], [5] * 20)
    g.add_state("r1", "Flying", "test")
    g._update_engagement()
    steps = [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
    out = _told(g, steps + [Move("r1", "idle"), Declare("b1", "Dodge"),
                            Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)),
                            Pass("blue")])
    assert "  b1 keeps its reaction (Dodge)" in out, out


def test_a_panicked_reactors_failed_morale_roll_says_what_it_may_still_do():
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 14, facing=270, weapons=[SWORD, BOW])], [20] + [5] * 20)
    g.add_state("b1", "Panicked", "test")
    steps = [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
    out = _told(g, steps + [Move("r1", "walk", ((10.0, 8.0, 0.0),))])
    assert ("    b1 Panicked M roll: 20 vs 14 -> fail: as a reactor only Dodge (toward the "
            "nearest field edge) or Nothing") in out, out
    assert g.why_illegal(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),)))
    # the activated model's own failed roll is followed by its forced Run, not that line
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 30, facing=270, weapons=[SWORD, BOW])], [20] + [5] * 20)
    g.add_state("r1", "Panicked", "test")
    out = _told(g, [Activate("r1")])
    roll = next(x for x in out if "r1 Panicked M roll" in x)
    assert roll.endswith("-> fail"), out


def _panicked_at_its_dodge_move(r1=(10, 5, None), b1=(10, 14, 270), walk_to=(10.0, 8.0)):
    """b1 Panicked (by default at (10, 14)), its M roll failed (20), has Dodged the shot of
    r1 walking to ``walk_to``: its move next. ``r1``, ``b1``: (x, y, facing)."""
    g = setup([unit("r1", "red", r1[0], r1[1], facing=r1[2], weapons=[SWORD, BOW]),
               unit("b1", "blue", b1[0], b1[1], facing=b1[2], weapons=[SWORD, BOW])], [20] + [5] * 20)
    g.add_state("b1", "Panicked", "test")
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    g.apply(Move("r1", "walk", ((*walk_to, 0.0),)))
    g.apply(Declare("b1", "Dodge"))
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 2),)))
    assert g.pending == ("dodge-move", "b1")
    return g


def test_a_panicked_reactor_is_offered_its_dodge_move_toward_the_nearest_field_edge():
    # eldfall-states.txt, Panicked: "Reactive Role -- failed M roll: May only declare
    # Dodge (toward the field edge) or Nothing"; b1 at (10, 14) on a 36" table: the left
    # edge is nearest; SPD 5: the move after a Dodge is up to 3"
    from rules.eldfall.actions import DodgeMove
    g = _panicked_at_its_dodge_move()
    moves = [a for a in g.generate_actions() if isinstance(a, DodgeMove) and a.path]
    assert DodgeMove("b1", ((7.0, 14.0, 0.0),)) in moves, moves
    for a in moves:
        assert g.why_illegal(a) is None and a.path[-1][0] < 10.0, a


def test_the_random_bot_moves_a_panicked_reactor_toward_the_edge():
    # the random bot drew its move after a Dodge among 4 random points of the reachable
    # area: a Panicked reactor that failed its M roll almost never went toward the edge
    from rules.eldfall.actions import DodgeMove
    from rules.eldfall.bots import RandomBot
    went = 0
    for seed in range(12):
        g = _panicked_at_its_dodge_move()
        a = RandomBot(seed).choose(g)
        assert isinstance(a, DodgeMove) and g.why_illegal(a) is None, a
        if a.path:
            assert a.path[-1][0] < 10.0, a
            went += 1
    assert went >= 6          # it stays a sixth of the time


def test_a_foresight_offer_passed_says_the_model_still_does_not_react():
    g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
               unit("b1", "blue", 10, 14, facing=270, weapons=[SWORD, BOW], skills=["Foresight"])],
              [5] * 20)
    steps = [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
    out = _told(g, steps + [Move("r1", "walk", ((10.0, 8.0, 0.0),)), Pass("blue"),
                            Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)),
                            Pass("blue")])
    i = out.index("  b1 does not react")
    assert out[i + 1:i + 4] == ["  r1 declares: Ranged Attack with Bow at b1",
                                "  b1 may react now (Foresight), after Ranged Attack with Bow at b1",
                                "  b1 still does not react (Foresight)"], out


def test_a_melee_reaction_with_no_point_says_it_is_aimed_at_the_end_of_the_move():
    # b1's Reach is entered 1" before the end of r1's Walk: the Attack of Opportunity
    # (at=that point) and the plain melee reaction (at the end) read apart
    for aoo in (False, True):
        g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 12, 10, facing=180)], [5, 3, 20, 20])
        steps = [Activate("r1")] + ([Pass("blue")] if g.pending[0] == "crouch" else [])
        s = Summary()
        out = []
        for a in steps + [Move("r1", "walk", ((10.0, 10.0, 0.0),))]:
            out += s.feed(g.apply(a))
        point = g.act.qualified["b1"]["opp"] if aoo else None
        out += s.feed(g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),),
                                      point=point)))
        told = next(x for x in out if " reacts " in x)
        assert told.endswith(", where it entered b1's Reach (1.0\" before the end of its Walk)"
                             if aoo else ": Melee Attack with Sword at r1, at the end of its Walk"), told
        assert "  may react to r1: b1 (LoS, Attack of Opportunity)" in out, out


def test_trade_as_a_reaction_is_offered_when_the_table_plays_it():
    def game(settings):
        g = setup([unit("r1", "red", 10, 5, weapons=[SWORD, BOW]),
                   unit("b1", "blue", 10, 14, facing=270, weapons=[SWORD, BOW]),
                   unit("b2", "blue", 11.25, 14, facing=270, weapons=[SWORD, BOW])], [5] * 20,
                  settings=settings)
        g.models["b1"].items = ("Potion",)
        g.apply(Activate("r1"))
        if g.pending[0] == "crouch":
            g.apply(Pass("blue"))
        g.apply(Move("r1", "walk", ((10.0, 8.0, 0.0),)))
        assert g.pending == ("reaction", "blue")
        return g
    trade = Declare("b1", "Trade", targets=(("b2", 1),), items=("Potion",))
    g = game({"table_settings": {"trade_as_reaction": True}})
    assert g.why_illegal(trade) is None
    assert trade in list(g.generate_actions())
    g = game(None)                                   # the default: not a Reaction
    assert g.why_illegal(trade) and trade not in list(g.generate_actions())


def _flyer_declares_at_a_foresight_model(action: Declare):
    """Flying r1 beside b1 (Foresight) activates Idle, b1 passes in the Reaction Step,
    r1 declares ``action``: b1's Foresight offer is next."""
    g = _idle_beside_a_flyer("r1", ["Foresight"])
    g.apply(Pass("blue"))                                  # b1 keeps its Foresight
    g.apply(action)
    assert g.pending == ("reaction-late", "blue")
    return g


def test_a_foresight_reactor_may_strike_back_in_melee_at_a_flyer_that_attacked_it_in_melee():
    back = Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),))
    g = _flyer_declares_at_a_foresight_model(
        Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),)))
    assert g.why_illegal(back) is None
    assert back in list(g.generate_actions())
    # a Ranged Attack at b1 gives no melee answer
    g = _flyer_declares_at_a_foresight_model(
        Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert "cannot be targeted by Melee Attacks" in g.why_illegal(back)


def test_the_summary_names_no_active_side_before_the_turn_order():
    # the game's first line read "round 0, - active, phase initiative" (the view's status
    # and `eldfall replay` print it)
    from rules.core.flat import FlatGeometry
    from rules.eldfall.sequence import EldfallGame
    g = EldfallGame([unit("r1", "red", 5, 5), unit("b1", "blue", 20, 5)], FlatGeometry((36.0, 36.0)), seed=0)
    first = g.summary().splitlines()[0]
    assert g.active_side is None and first.startswith("round ") and "active" not in first, first
    assert "phase " in first and "VP red 0, blue 0" in first
