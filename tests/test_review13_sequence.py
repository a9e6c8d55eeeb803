"""Review 13: the Eldfall Activation Sequence and Reactions as a referee reads them."""
from __future__ import annotations

from rules.core.game import Event
from rules.eldfall import availability as av
from rules.eldfall.actions import Activate, Declare, Move, Pass
from rules.eldfall.narrate import line, narrate
from tests.eldfall_scenario import setup, unit


def _walk_past(g, model, to):
    g.apply(Activate(model))
    if g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    g.apply(Move(model, "walk", (to,)))


# --- Dodge without LoS: "AG is halved if LoS was never established" -----------------
def test_a_dodge_halved_for_want_of_los_says_why():
    # b1 faces away from r1's whole walk (no LoS), r1 ends inside its Awareness (AG 10):
    # b1 may Dodge with halved AG. The line said "(halved)" with no reason; a halved AG
    # has other causes (Confused, Crippled, ...) that the attribute already carries.
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 14, 10, facing=90),
               unit("b2", "blue", 30, 30)], [5] * 20)
    _walk_past(g, "r1", (10.0, 8.0, 0.0))
    q = g.act.qualified["b1"]
    assert q["aware"] and not q["los"]
    g.apply(Declare("b1", "Dodge"))
    while g.pending[0] != "action":
        g.apply(Pass(g.pending[1]))
    g.apply(Declare("r1", "Nothing"))
    lines = narrate(g.events)
    assert "  may react to r1: b1 (no LoS, in its Awareness), b2 (LoS)" in lines
    assert "    b1 dodges: AG 5 (halved: no LoS during the move) -> success" in lines


# --- the Casting Aura's halving on the attack line -----------------------------------
def test_an_attack_through_the_casting_aura_reads_as_halved_not_aura_halved():
    ev = Event("attack", {"attacker": "rm", "attribute": 6, "failed": None, "kind": "Spell Attack",
                          "modifiers": {"aura": "halved", "range": -3}, "role": "active",
                          "stat": "INT", "strikes": 1, "target": "b1", "victims": ["b1"],
                          "with": "Fire Bolt"}, 1)
    assert line(ev) == ("    rm Spell Attack with Fire Bolt on b1: INT 6 "
                        "(after range -3; halved: no LoS, through the Casting Aura)")
    ev.data["modifiers"] = {"aura": "halved"}
    assert line(ev) == "    rm Spell Attack with Fire Bolt on b1: INT 6 (halved: no LoS, through the Casting Aura)"


# --- an action that is no Reaction: one clear reason ---------------------------------
def test_an_action_the_by_role_table_keeps_to_the_active_role_is_refused_in_plain_words():
    why = av.why_not("reactive", None, frozenset(), "Trade")
    assert why == ("Trade is not a valid Reaction: the Actions page's By Role table allows it "
                   "in the Active Role only")
    assert "((" not in why and ".)" not in why
    assert av.why_not("reactive", None, frozenset(), "Uncover").startswith(
        "Uncover (a Special Action) is not a valid Reaction")


# --- initiative: "d20 + the Leader's M; the winner picks turn order" ----------------
def test_the_initiative_lines_tell_a_tie_and_who_chose_the_turn_order():
    # skirmish-like: red wins 20-19 after a tie at 19; red's Leader has M 14. The lines
    # showed two roll-offs without saying why, and "turn order: blue, red" without
    # saying that red won (and so chose to go second).
    from rules.core.dice import Dice
    from rules.core.flat import FlatGeometry
    from rules.eldfall.actions import ChooseOrder
    from rules.eldfall.sequence import EldfallGame
    us = [unit("r1", "red", 10, 5, leader=True), unit("b1", "blue", 13, 30, leader=True,
                                                          stats={"M": 15})]
    geo = FlatGeometry((36.0, 36.0))
    for u in us:
        geo.add_model(u, u.at, u.facing)
    g = EldfallGame(us, geo, seed=0, dice=Dice.fixed([5, 4, 6, 4]))
    g.apply(ChooseOrder("red", False))
    lines = narrate(g.events)
    assert lines[:5] == ["initiative: red rolls 5 + M 14 (Leader r1) = 19",
                         "initiative: blue rolls 4 + M 15 (Leader b1) = 19: a tie, both roll again",
                         "initiative: red rolls 6 + M 14 (Leader r1) = 20",
                         "initiative: blue rolls 4 + M 15 (Leader b1) = 19: red wins the initiative "
                         "and chooses the turn order",
                         "turn order: blue, red"]
