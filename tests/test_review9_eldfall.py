"""Session 9 review of the Eldfall rules engine: each test plays a position
through the public API and checks one rule of the user's pages (or one line of
the narration a player reads)."""
import pytest

from rules.core import Event
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall.actions import Activate, Declare, DodgeMove, DuelAnswer, Move, Pass
from rules.eldfall.narrate import line, narrate
from tests.eldfall_scenario import kinds, setup, to_action, unit

BASE = 32 / 25.4                     # a Medium base, inches


def caster(id, side, x, y, spells, **kw):
    u = unit(id, side, x, y, weapons=[], affinities=["Fire"], **kw)
    u.spells = list(spells)
    return u


# --- narration: the damage line's ARM is the ARM the roll was made against ------
def _damage(pw, arm, threshold, critical=False):
    return Event("damage", {"model": "b1", "roll": 9, "pw": pw, "arm": arm, "threshold": threshold,
                            "critical": critical, "wound": 9 <= threshold})


def test_damage_narration_shows_the_armor_piercing_arm():
    # Armor-Piercing halves ARM (facts, "Dice"): PW 13 against ARM 4 needs <= 11,
    # which is 13 - 2, not 13 - 4 as the line used to say
    assert "(PW 13 - ARM 2, halved from 4)" in line(_damage(13, 4, 11))
    assert "(PW 12 - ARM 0, armor ignored)" in line(_damage(12, 5, 12))
    assert "(PW 11 - ARM 3)" in line(_damage(11, 3, 8))
    assert "(PW 11 - ARM 0, critical)" in line(_damage(11, 3, 11, critical=True))


def test_a_played_armor_piercing_hit_is_narrated_with_the_halved_arm():
    axe = weapon_dict("Axe", "melee", 1, 12, 1, ["Armor-Piercing"])
    r = unit("r1", "red", 10, 10, weapons=[axe])
    b = unit("b1", "blue", 10, 10 + BASE + 0.3, stats={"ARM": 4})
    g = setup([r, b], [5, 20])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Axe", targets=(("b1", 1),)))
    dmg = kinds(ev, "damage")[0].data
    assert dmg["threshold"] == 10                           # 12 - ceil(4 / 2)
    assert "    damage on b1: needs <= 10 (PW 12 - ARM 2, halved from 4) -> no wound" in narrate(ev)


# --- narration: the move after a Dodge ---------------------------------------------
def test_the_move_after_a_dodge_is_narrated():
    # "After Dodge resolution (regardless of success): May move up to SPD / 2":
    # the model moves, and the play summary says where to
    r = unit("r1", "red", 10, 5)
    g = setup([r, unit("b1", "blue", 30, 30)], [15])
    to_action(g, "r1")
    g.apply(Declare("r1", "Dodge"))
    assert g.pending == ("dodge-move", "r1")
    ev = g.apply(DodgeMove("r1", ((12.0, 5.0, 0.0),)))
    assert "  r1 moves to (12.0, 5.0) after its Dodge" in narrate(ev)


# --- Shrouded: "Cannot be targeted by any Action other than Perceive" --------------
WARD = spell_dict("Ward", "Enchantment", "Fire", 0, target="ally", rng=12, effect="+2 ARM")


def test_no_duel_may_be_issued_to_a_shrouded_model():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 10, 15, facing=270, states=["Shrouded"])
    g = setup([r, b, unit("b2", "blue", 20, 15, facing=270)], [5] * 6)
    to_action(g, "r1")
    duel = Declare("r1", "Issue a Duel", targets=(("b1", 1),))
    assert "Shrouded" in (g.why_illegal(duel) or "")
    assert duel not in list(g.legal_actions())
    assert g.why_illegal(Declare("r1", "Issue a Duel", targets=(("b2", 1),))) is None


def test_no_assist_or_trade_targets_a_shrouded_ally():
    r = caster("r1", "red", 10, 5, [WARD])
    r2 = unit("r2", "red", 12, 5, states=["Shrouded"])
    r3 = unit("r3", "red", 10 - BASE, 5)
    g = setup([r, r2, r3, unit("b1", "blue", 30, 30)], [5] * 6)
    to_action(g, "r1")
    ward = Declare("r1", "Assist", spell="Ward", targets=(("r2", 1),))
    assert "Shrouded" in (g.why_illegal(ward) or "")
    assert ward not in list(g.legal_actions())
    assert g.why_illegal(Declare("r1", "Assist", spell="Ward", targets=(("r3", 1),))) is None
    # Trade: an allied model in Base Contact, Shrouded
    t = unit("t1", "red", 10, 5)
    t2 = unit("t2", "red", 10 + BASE, 5, states=["Shrouded"])
    g = setup([t, t2, unit("b1", "blue", 30, 30)], [5] * 6)
    g.models["t1"].items = ("Rope",)
    to_action(g, "t1")
    trade = Declare("t1", "Trade", targets=(("t2", 1),), items=("Rope",))
    assert "Shrouded" in (g.why_illegal(trade) or "")


# --- Issue a Duel: "No other models may activate or react during the duel" --------
BOW = weapon_dict("Bow", "ranged", pw=10, stk=1, bands=[(0, 30, 0)])


def test_an_accepted_duel_voids_the_reactions_of_the_other_models():
    # b2 declared a Ranged Attack reaction at r1 in the Reaction Step; r1 then Issues
    # a Duel to b1 and blue accepts: the duel "Ends the normal game flow for all
    # other models", so b2's attack is not rolled (it could otherwise decide the
    # duel for blue, whose non-duelling model "interferes")
    r = unit("r1", "red", 10, 10)
    b1 = unit("b1", "blue", 10, 14, facing=270)
    b2 = unit("b2", "blue", 14, 14, facing=270, weapons=[BOW])
    g = setup([r, unit("r2", "red", 20, 5), b1, b2], [1, 1, 1, 1])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b2", "Ranged Attack", weapon="Bow", targets=(("r1", 1),)))
    g.apply(Pass("blue"))
    g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    ev = g.apply(DuelAnswer("blue", True))
    assert not kinds(ev, "attack") and not kinds(ev, "wound")
    assert g.models["r1"].hp == 3 and not g.is_over
    assert any("b2's reaction" in ln and "duel" in ln for ln in narrate(ev))
    # refused: the reaction stands
    g = setup([unit("r1", "red", 10, 10), unit("r2", "red", 20, 5),
               unit("b1", "blue", 10, 14, facing=270),
               unit("b2", "blue", 14, 14, facing=270, weapons=[BOW])], [1, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b2", "Ranged Attack", weapon="Bow", targets=(("r1", 1),)))
    g.apply(Pass("blue"))
    g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    ev = g.apply(DuelAnswer("blue", False))
    assert [e.data["attacker"] for e in kinds(ev, "attack")] == ["b2"]


# --- Trade: "Exchanges Items between allied models in Base Contact" -----------------
def test_trade_exchanges_items_both_ways():
    r = unit("r1", "red", 10, 5)
    r2 = unit("r2", "red", 10 + BASE, 5)
    g = setup([r, r2, unit("b1", "blue", 30, 30)], [5] * 4)
    g.models["r1"].items = ("Rope",)
    g.models["r2"].items = ("Relic", "Potion")
    to_action(g, "r1")
    swap = Declare("r1", "Trade", targets=(("r2", 1),), items=("Rope", "Relic"))
    assert g.why_illegal(swap) is None
    ev = g.apply(swap)
    assert g.models["r1"].items == ("Relic",)
    assert sorted(g.models["r2"].items) == ["Potion", "Rope"]
    assert kinds(ev, "trade")[0].data == {"from": "r1", "to": "r2", "items": ["Rope"],
                                          "received": ["Relic"]}
    # an Item neither holds (a default profile Item) is refused
    to_action(g, "r1")
    assert "neither" in g.why_illegal(Declare("r1", "Trade", targets=(("r2", 1),), items=("Sword",)))


# --- Crouched: cancelled at the start of the Movement Step, then a Run --------------
def test_a_crouched_model_is_offered_to_stand_up_and_run():
    # Crouched allows "Walk or Idle only", but it "Can be entered or canceled
    # voluntarily at the start or end of the Movement Step": standing up first, the
    # model may Run (2 x its full SPD). The legal actions the bots and menus draw
    # from used to offer only Idle and Walk.
    r = unit("r1", "red", 10, 5, states=["Crouched"])
    g = setup([r, unit("b1", "blue", 30, 30)], [5] * 4)
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    runs = [a for a in g.legal_actions() if isinstance(a, Move) and a.mode == "run"]
    assert runs and all(a.crouch_start is False for a in runs)
    far = max(runs, key=lambda a: abs(a.path[-1][0] - 10) + abs(a.path[-1][1] - 5))
    assert abs(far.path[-1][0] - 10) + abs(far.path[-1][1] - 5) > 5.0    # beyond a crouched Walk
    g.apply(far)
    assert "Crouched" not in g.models["r1"].states


# --- narration: a fall from a vertical surface (Climb) -----------------------------
def test_a_fall_from_a_vertical_surface_is_narrated():
    # Climb: the model "falls if it tries" to act on a vertical surface; its
    # declaration becomes Nothing, so without a line the play summary said nothing
    r = unit("r1", "red", 10, 10, stats={"SPD": 4, "AG": 10})
    g = setup([r, unit("b1", "blue", 10, 12)], [3, 3])
    g.geo.place("r1", (10.0, 10.0, 5.0))
    g.models["r1"].on_vertical = True
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Dodge"))
    assert '  r1 falls 5.0" from the vertical surface (tried Dodge on a vertical surface): ' \
           '2 AG roll(s)' in narrate(ev)


# --- setting crouch_change_after_failed_dodge (docs/rulings.md) --------------------
@pytest.mark.parametrize("setting, roll, may", [(False, 15, False), (False, 3, True),
                                                (True, 15, True)])
def test_crouched_after_a_failed_dodge_follows_the_setting(setting, roll, may):
    # "Can also be canceled with a successful Dodge" (States page) against "regardless
    # of success" (Dodge): with the setting false, only a successful Dodge lets the
    # model enter or cancel Crouched; the engine used to ignore the setting
    r = unit("r1", "red", 10, 5)                                  # AG 10
    g = setup([r, unit("b1", "blue", 30, 30)], [roll],
              settings={"table_settings": {"crouch_change_after_failed_dodge": setting}})
    to_action(g, "r1")
    g.apply(Declare("r1", "Dodge"))
    crouch = DodgeMove("r1", crouch=True)
    assert (g.why_illegal(crouch) is None) == may
    assert (crouch in list(g.legal_actions())) == may


# --- the safety stop: the events it makes are returned (and narrated) ---------------
def test_a_stalemate_returns_its_casualty_vp_events():
    from rules.eldfall.actions import EndTurn
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 30, 30, states=["Dead"])
    g = setup([r, b, unit("b2", "blue", 20, 30)], [], settings={"max_actions": 2})
    ev = g.apply(EndTurn("red"))
    assert g.is_over and g.outcome.termination.value == "stalemate"
    assert [e.data["why"] for e in kinds(ev, "vp")] == ["casualties"]
    assert "    red VP 1 (casualties)" in narrate(ev)


# --- eldfall play: the end-of-turn status line is the state at the End Phase --------
def test_the_end_of_turn_status_is_taken_at_the_end_phase():
    # red's EndTurn also runs blue's Strategic Phase, where b1's Recovery Check
    # succeeds; the line for the end of red's turn must still show b1 down
    from rules.eldfall.actions import EndTurn
    from tools.cmd_play import _status, status_lines
    b = unit("b1", "blue", 10, 30, states=["Incapacitated", "Crouched"], stats={"HP": 2})
    g = setup([unit("r1", "red", 10, 5), b, unit("b2", "blue", 20, 30)], [2])
    g.models["b1"].hp = 0
    lines = status_lines(g)
    ev = g.apply(EndTurn("red"))
    end = [e for e in ev if e.kind == "phase" and e.data["phase"] == "end"][0]
    assert "Incapacitated" not in g.models["b1"].states        # recovered in blue's Strategic Phase
    assert "blue 1/2 standing, HP 3" in lines[end.seq]
    assert "blue 2/2 standing, HP 4" in _status(g)


def test_a_blocked_forced_run_is_narrated_in_words():
    ev = Event("movement", {"model": "r1", "movement": "Run", "forced": True, "blocked": True})
    assert line(ev) == "  r1 cannot run: the way to the field edge is blocked"
