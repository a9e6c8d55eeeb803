"""Session 8 review of the Eldfall Reactions (seeds/eldfall-reactions.txt), the
Stratagems and the Recovery Check: each test plays a position through the
public API and checks one rule of the user's pages."""
import pytest

from rules.core.dice import Dice
from rules.core.flat import FlatGeometry
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall.actions import (Activate, ChooseOrder, Declare, EndTurn, Move, Pass,
                                   UseStratagem)
from rules.eldfall.narrate import narrate
from rules.eldfall.sequence import EldfallGame
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, to_action, unit

BASE = 32 / 25.4                     # a Medium base, inches
SPEAR = weapon_dict("Spear", "melee", 1, 10, 1)
# an Assist spell the Reactive Role may cast (Sorcery: Active or Reactive)
WARD = spell_dict("Ward", "Sorcery", "Fire", 0, target="ally", rng=12, stk=1,
                  effect="The target gains Shrouded.")


def from_the_start(units, rolls, first="red", scene_info=None):
    """A game whose dice are fixed from the initiative on (so the first
    Strategic Phase's rolls are known): ``rolls`` starts with red's and blue's
    initiative dice."""
    geo = FlatGeometry((36.0, 36.0))
    for u in units:
        geo.add_model(u, u.at, u.facing)
    g = EldfallGame(units, geo, dice=Dice.fixed(rolls),
                    scene_info={"table": [36.0, 36.0], **(scene_info or {})})
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    return g


# --- Perceive: "INT roll to reveal a Shrouded or Hidden token" --------------------
@pytest.mark.parametrize("action", ["Ranged Attack", "Dodge"])
def test_a_perceive_kept_against_a_model_that_revealed_itself_rolls_nothing(action):
    # the Shrouded mover's own declaration (an Attack, a Dodge) cancels Shrouded:
    # a Perceive kept in the Reaction Step has nothing left to reveal
    r = unit("r1", "red", 10, 10, states=["Shrouded"], weapons=[BOW])
    b = unit("b1", "blue", 10, 16, facing=270)
    g = setup([r, b], [3] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Perceive", targets=(("r1", 1),)))
    n = len(g.events)
    if action == "Dodge":
        g.apply(Declare("r1", "Dodge"))
    else:
        g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
        assert g.pending == ("reaction-change", "blue")
        g.apply(Pass("blue"))                        # b1 keeps its Perceive
    ev = g.events[n:]
    assert not any(e.data.get("check") == "Perceive" for e in kinds(ev, "check"))
    assert not any("Perceive" in e.data.get("why", "") for e in kinds(ev, "roll"))
    assert [e.data for e in kinds(ev, "perceive_nothing")] == [{"model": "b1", "target": "r1"}]
    assert "    b1 Perceive: r1 is no longer Shrouded, nothing to reveal (no roll)" in narrate(ev)
    assert g.models["b1"].ap == 1                    # the AP stays spent


def test_a_perceive_of_a_model_still_shrouded_rolls_int():
    r = unit("r1", "red", 10, 10, states=["Shrouded"])
    g = setup([r, unit("b1", "blue", 10, 16, facing=270)], [3] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Perceive", targets=(("r1", 1),)))
    ev = g.apply(Declare("r1", "Nothing"))
    chk = [e.data for e in kinds(ev, "check") if e.data["check"] == "Perceive"]
    assert chk and chk[0]["die"]["success"] and "Shrouded" not in g.models["r1"].states


# --- Engaged "at the end of a Phase": the deployment ------------------------------
def test_a_model_set_up_engaged_gets_no_reroll_at_the_first_recovery_check():
    # "Reroll: If an allied model is in Base Contact with the Incapacitated
    # model, and neither model is Engaged" -- b1's sword reaches r1 from the start
    r = unit("r1", "red", 10, 15, states=["Incapacitated", "Crouched"], stats={"HP": 1})
    helper = unit("r2", "red", 10, 15 - BASE)
    b = unit("b1", "blue", 10, 15 + BASE + 0.3)
    g = from_the_start([r, helper, b], [10, 5, 19, 3])
    rec = [e.data for e in kinds(g.events, "check") if e.data["check"] == "Recovery"]
    assert len(rec) == 1 and rec[0]["die"]["value"] == 19 and "helper" not in rec[0]
    assert "Incapacitated" in g.models["r1"].states and g.models["r1"].engaged_by == {"b1"}
    # no enemy within reach: the same dice give the reroll
    b = unit("b1", "blue", 10, 15 + BASE + 4)
    g = from_the_start([unit("r1", "red", 10, 15, states=["Incapacitated", "Crouched"],
                             stats={"HP": 1}), helper, b], [10, 5, 19, 3])
    assert "Incapacitated" not in g.models["r1"].states


# --- multiple_halving: once -------------------------------------------------------
@pytest.mark.parametrize("setting,ag", [("stack", 3), ("once", 5)])
def test_a_dodge_without_los_is_halved_once_with_the_once_setting(setting, ag):
    # b1 Confused (AG 10 -> 5) faces away from r1: a Dodge without LoS halves AG
    # again -- unless "a stat is halved at most once"
    r = unit("r1", "red", 10, 10, weapons=[BOW])
    b = unit("b1", "blue", 10, 16, facing=90, states=["Confused"])
    g = setup([r, b], [3] * 10, settings={"table_settings": {"multiple_halving": setting}})
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    assert g.act.qualified["b1"]["los"] is False and g.act.qualified["b1"]["aware"] is True
    g.apply(Declare("b1", "Dodge"))
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    d = kinds(ev, "dodge")[0].data
    assert d["halved"] and d["attribute"] == ag
    assert g.stat("b1", "AG", halvings=1) == ag


def test_uncover_by_a_confused_model_is_halved_once_with_the_once_setting():
    g = setup([unit("r1", "red", 10, 10, states=["Confused"]), unit("b1", "blue", 20, 30)],
              [3], settings={"table_settings": {"multiple_halving": "once"}})
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Uncover"))
    assert kinds(ev, "check")[0].data["die"]["target"] == 6       # INT 12 halved once


# --- Attack of Opportunity: a Crouched reactor still attacks ----------------------
def test_a_crouched_reactor_gets_its_attack_of_opportunity():
    # Crouched "cannot make other models Engaged" but may declare "Any Normal
    # Action": the mover entering its Spear's Reach gives it the AoO point
    r = unit("r1", "red", 5, 10)
    b = unit("b1", "blue", 8, 10 + BASE + 0.5, facing=270, weapons=[SPEAR], states=["Crouched"])
    g = setup([r, b], [3] * 10)
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    g.apply(Move("r1", "walk", ((10.0, 10.0, 0.0),)))
    assert [e for e, _ in g.act.opportunity] == ["b1"]
    point = g.act.qualified["b1"]["opp"]
    assert point is not None and 6.0 < point[0] < 8.0
    plain = Declare("b1", "Melee Attack", weapon="Spear", targets=(("r1", 1),))
    assert "out of Reach" in g.why_illegal(plain)            # at the end of the move
    aoo = Declare("b1", "Melee Attack", weapon="Spear", targets=(("r1", 1),), point=point)
    assert g.why_illegal(aoo) is None and aoo in g.legal_actions()
    g.apply(aoo)
    ev = g.apply(Declare("r1", "Nothing"))
    att = kinds(ev, "attack")[0].data
    assert att["attacker"] == "b1" and att["stat"] == "DEF" and not att["failed"]
    assert kinds(ev, "hit")


def test_no_attack_of_opportunity_from_a_model_that_cannot_react():
    r = unit("r1", "red", 5, 10)
    b = unit("b1", "blue", 8, 10 + BASE + 0.5, facing=270, weapons=[SPEAR],
             states=["Incapacitated", "Crouched"])
    g = setup([r, b, unit("b2", "blue", 30, 30)], [3] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 10.0, 0.0),)))
    assert g.act.opportunity == []


def test_on_the_real_world_a_crouched_reactor_gets_its_attack_of_opportunity(tmp_path):
    from tools import gameplay
    scene = tmp_path / "aoo.yaml"
    scene.write_text(
        "name: AoO\ngames: [eldfall]\ntable: [36, 36]\nterrain: []\nmodels:\n"
        "  - {id: red-champion, side: red, profile: sample-red#champion, at: [6, 18], facing: 0}\n"
        "  - {id: blue-ogre, side: blue, profile: sample-blue#ogre, at: [12, 20.2], facing: 270,"
        " states: [Crouched]}\n")
    _, g = gameplay.new_game(str(scene), "eldfall", seed=3)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    while g.pending != ("tactical", "red"):
        g.apply(EndTurn(g.pending[1]) if g.pending[0] == "tactical" else Pass(g.pending[1]))
    g.apply(Activate("red-champion"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    g.apply(Move("red-champion", "walk", ((11.0, 18.0, 0.0),)))
    assert [e for e, _ in g.act.opportunity] == ["blue-ogre"]
    assert g.act.qualified["blue-ogre"]["opp"] is not None


# --- who may react without LoS: Dodge, and what needs no LoS ----------------------
def test_a_blinded_reactor_may_assist_itself_dodge_or_do_nothing():
    # Restrictions by State: Blinded "Assist, Dodge, Nothing only"; the mover is
    # within its Awareness (it never has LoS)
    r = unit("r1", "red", 10, 10, weapons=[BOW])
    b = unit("b1", "blue", 10, 14, facing=270, states=["Blinded"], weapons=[],
             affinities=["Fire"])
    b.spells = [WARD]
    g = setup([r, b, unit("b2", "blue", 14, 14)], [3] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    assert g.act.qualified["b1"]["los"] is False and g.act.qualified["b1"]["aware"] is True
    legal = {(a.action, a.target_ids) for a in g.legal_actions()
             if isinstance(a, Declare) and a.model == "b1"}
    assert legal == {("Dodge", ()), ("Nothing", ()), ("Assist", ("b1",))}
    why = g.why_illegal(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),)))
    assert why is not None
    g.apply(Declare("b1", "Assist", spell="Ward", targets=(("b1", 1),)))
    g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Nothing"))
    assert any(e.data["model"] == "b1" and e.data["added"] == ["Shrouded"]
               for e in kinds(ev, "states"))


def test_a_reactor_in_awareness_without_los_is_told_what_it_may_do():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 16, facing=90)                 # its back to r1
    g = setup([r, b], [3] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    why = g.why_illegal(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    assert why.endswith("b1 never had LoS to r1 during its movement: only Dodge (halved AG), "
                        "Assist, Nothing (the mover is in its Awareness)")
    assert g.why_illegal(Declare("b1", "Nothing")) is None


# --- Broken Morale and a Stratagem that removes Panicked --------------------------
RALLY = {"name": "Rally", "uses": 3, "target": "own", "effect": {"remove": ["Panicked"]}}


def _broken_red(rolls):
    reds = [unit("r1", "red", 10, 5, leader=True),
            unit("r2", "red", 14, 5, states=["Incapacitated", "Crouched"]),
            unit("r3", "red", 18, 5, states=["Incapacitated", "Crouched"])]
    return from_the_start(reds + [unit("b1", "blue", 10, 30)], rolls,
                          scene_info={"stratagems": {"red": [RALLY]}})


def test_a_party_set_up_below_half_is_panicked_before_its_first_stratagem():
    g = _broken_red([10, 5] + [20] * 10)
    assert g.pending == ("stratagem", "red")
    assert "red" in g.broken and "Panicked" in g.models["r1"].states
    g.apply(UseStratagem("red", "Rally", "r1"))
    assert "Panicked" not in g.models["r1"].states


def test_a_stratagem_that_removes_panicked_holds_while_morale_stays_broken():
    g = _broken_red([10, 5] + [20] * 20)
    g.apply(Pass("red"))                          # no Rally in the first Strategic Phase
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    assert g.pending == ("stratagem", "red") and "Panicked" in g.models["r1"].states
    ev = g.apply(UseStratagem("red", "Rally", "r1"))
    # the rest of the Strategic Phase (recovery checks fail, morale still broken)
    # does not give it back
    assert g.pending == ("tactical", "red") and "red" in g.broken
    assert "Panicked" not in g.models["r1"].states
    assert "    r1: -Panicked (Stratagem Rally)" in narrate(ev)
    g.apply(EndTurn("red"))
    g.apply(EndTurn("blue"))
    assert "Panicked" not in g.models["r1"].states and "Panicked" in g.models["r2"].states
    # morale restored (r2 and r3 recover), then broken again: Panicked again
    g.models["r2"].hp = 1
    g.remove_state("r2", "Incapacitated", "test")
    g._update_morale()
    assert "red" not in g.broken and "Panicked" not in g.models["r2"].states
    g.add_state("r2", "Incapacitated", "test")
    g._update_morale()
    assert "red" in g.broken and "Panicked" in g.models["r1"].states


# --- narration of the Reaction Step and of a changed reaction ---------------------
def test_the_narration_says_who_may_react_and_a_reaction_changed_to_an_attack():
    r = unit("r1", "red", 10, 10, states=["Flying"], weapons=[BOW])
    b = unit("b1", "blue", 10, 16, facing=270, weapons=[BOW])
    b2 = unit("b2", "blue", 10, 20, facing=90)    # its back to r1, but every model sees a Flyer
    g = setup([r, b, b2], [5] * 20)
    n = len(g.events)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((10.0, 12.0, 0.0),)))
    g.apply(Declare("b1", "Dodge"))
    g.apply(Pass("blue"))
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    g.apply(Declare("b1", "Ranged Attack", weapon="Bow", targets=(("r1", 1),)))
    lines = narrate(g.events[n:])
    assert "  may react to r1: b1 (LoS), b2 (LoS)" in lines
    assert ("  b1 may change a Dodge or Perceive into an Attack (the activated model was "
            "Shrouded or Flying and declared an Attack)") in lines
    assert "  b1 changes its reaction Dodge to: Ranged Attack with Bow at r1" in lines


# --- Foresight: a Reaction declared in the Action Step ----------------------------
def test_foresight_reacts_after_the_active_declaration():
    # Notes: "Foresight allows a model that did not declare a Reaction in the
    # Reaction Step to declare one during the Action Step instead, after the
    # Active model has declared its Action"
    r = unit("r1", "red", 10, 10, weapons=[BOW])
    seer = unit("b1", "blue", 10, 16, facing=270, skills=["Foresight"])
    b2 = unit("b2", "blue", 14, 16, facing=270)
    g = setup([r, seer, b2], [3, 3, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    assert g.pending == ("reaction", "blue")
    n = len(g.events)
    g.apply(Pass("blue"))                                   # nobody reacts in the Reaction Step
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert g.pending == ("reaction-late", "blue") and g.act.late_candidates == ["b1"]
    late = {a for a in g.legal_actions() if isinstance(a, Declare)}
    assert Declare("b1", "Dodge") in late and not any(a.model == "b2" for a in late)
    assert "Foresight" in g.why_illegal(Declare("b2", "Dodge"))
    ev = g.apply(Declare("b1", "Dodge"))
    assert g.models["b1"].ap == 1                           # 1 AP, as any Reaction
    d = kinds(ev, "dodge")[0].data
    assert d["model"] == "b1" and d["against"] == "r1" and d["die"]["success"]
    assert kinds(ev, "hit_dodged") and g.models["b1"].hp == 3
    lines = narrate(g.events[n:])
    assert "  b1 may react now (Foresight), after Ranged Attack with Bow at b1" in lines
    assert "  b1 reacts (Foresight): Dodge" in lines


def test_without_foresight_or_after_reacting_no_late_reaction():
    r = unit("r1", "red", 10, 10, weapons=[BOW])
    g = setup([r, unit("b1", "blue", 10, 16, facing=270)], [3, 20])
    to_action(g, "r1")
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert g.pending == ("tactical", "red") and not kinds(g.events, "late_reaction_offered")
    # a Foresight model that reacted in the Reaction Step is not asked again
    g = setup([r, unit("b1", "blue", 10, 16, facing=270, skills=["Foresight"])], [3, 3, 20])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert g.pending[0] != "reaction-late" and not kinds(g.events, "late_reaction_offered")
