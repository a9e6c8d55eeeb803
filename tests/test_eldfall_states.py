"""A scripted scenario for each State (seeds/eldfall-states.txt), dice fixed."""
import pytest

from rules.core.errors import IllegalAction
from rules.core.units import weapon_dict
from rules.eldfall.actions import Activate, Declare, DodgeMove, EndTurn, Move, Pass
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, to_action, unit


def blue_first(units, rolls, **kw):
    """Blue plays first; the dice are fixed from blue's turn; ``next_red`` ends it."""
    return setup(units, rolls, first="blue", **kw)


def test_bleeding_and_poisoned_rolls_at_the_strategic_phase():
    r = unit("r1", "red", 10, 5, states=["Bleeding", "Poisoned"])
    b = unit("b1", "blue", 30, 30)
    g = blue_first([r, b], [13, 7])     # Bleeding: T 12, 13 fails; Poisoned: T-6 = 6, 7 fails
    g.apply(EndTurn("blue"))
    checks = [e.data["check"] for e in g.events if e.kind == "check"]
    assert checks[-2:] == ["Bleeding", "Poisoned"]
    assert g.models["r1"].hp == 1


def test_fatigued_gets_no_ap_and_ends_at_its_next_strategic_phase():
    r = unit("r1", "red", 10, 5, states=["Fatigued"])
    b = unit("b1", "blue", 30, 30)
    g = blue_first([r, b], [])
    assert g.models["r1"].ap == 0                  # blue's Upkeep: Fatigued regains none
    g.apply(EndTurn("blue"))
    assert "Fatigued" not in g.models["r1"].states and g.models["r1"].ap == 2


def test_weakened_loses_one_stamina_and_halves_t_and_watchful_doubles_reactive_ap():
    r = unit("r1", "red", 10, 5, states=["Weakened"])
    b = unit("b1", "blue", 30, 30, traits=["Watchful"])
    g = setup([r, b], [])
    assert g.models["r1"].ap == 1
    assert g.stat("r1", "T") == 6
    assert g.models["b1"].ap == 4                  # reactive in red's turn: doubled


def test_incapacitated_recovery_check_with_a_reroll_from_an_ally_in_contact():
    r = unit("r1", "red", 10, 5, states=["Incapacitated", "Crouched"])
    r2 = unit("r2", "red", 11.26, 5)
    b = unit("b1", "blue", 30, 30)
    g = blue_first([r, r2, b], [15, 4])            # T 12: 15 fails, reroll 4 succeeds
    g.models["r1"].hp = 0
    assert g.models["r1"].ap == 0
    g.apply(EndTurn("blue"))
    m = g.models["r1"]
    assert m.hp == 1 and "Incapacitated" not in m.states and "Weakened" in m.states
    assert [e.data["why"] for e in g.events if e.kind == "roll"][-2:] == [
        "Recovery Check: T roll", "Recovery Check: reroll"]


def test_zero_hp_incapacitated_at_end_of_sequence_then_a_wound_kills():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 12, stats={"HP": 1})
    b2 = unit("b2", "blue", 30, 30)
    g = setup([r, b, b2], [5, 5, 2, 2, 5, 1])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    # two wounds in one sequence: HP 0, Incapacitated (and Crouched) at its end, not Dead
    st = g.models["b1"].states
    assert "Incapacitated" in st and "Crouched" in st and "Dead" not in st
    assert "Engaged" not in g.models["r1"].states     # an Incapacitated model engages no one
    to_action(g, "r1")
    with pytest.raises(IllegalAction):
        g.apply(Declare("b1", "Dodge"))
    g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),)))
    assert "Dead" in g.models["b1"].states
    assert g.pending == ("tactical", "blue")           # r1 spent both AP: the turn ends by itself


def test_dead_models_neither_activate_nor_react():
    r = unit("r1", "red", 10, 10)
    r2 = unit("r2", "red", 20, 10, states=["Dead"])
    b = unit("b1", "blue", 10, 30)
    g = setup([r, r2, b], [])
    assert g.models["r2"].ap == 0
    with pytest.raises(IllegalAction, match="Dead"):
        g.apply(Activate("r2"))


def test_blinded_only_assist_dodge_nothing():
    r = unit("r1", "red", 10, 10, states=["Blinded"])
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [])
    to_action(g, "r1")
    with pytest.raises(IllegalAction, match="Blinded"):
        g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),)))
    g.apply(Declare("r1", "Nothing"))


def test_confused_halves_offense_after_modifiers():
    r = unit("r1", "red", 10, 10, states=["Confused"])
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [20, 20])
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert kinds(ev, "attack")[0].data["attribute"] == 7


@pytest.mark.parametrize("state", ["Slowed", "Crippled", "Crouched"])
def test_halved_speed(state):
    r = unit("r1", "red", 10, 5, states=[state])
    b = unit("b1", "blue", 30, 30)
    g = setup([r, b], [])
    g.apply(Activate("r1"))
    with pytest.raises(IllegalAction, match=r"more than 3\.00"):
        g.apply(Move("r1", "walk", ((10.0, 9.0, 0.0),)))
    g.apply(Move("r1", "walk", ((10.0, 8.0, 0.0),)))


def test_crouched_walk_or_idle_only_armor_halved_stk_one_and_light_cover():
    r = unit("r1", "red", 10, 5, weapons=[BOW])
    b = unit("b1", "blue", 10, 15, states=["Crouched"], stats={"ARM": 3})
    g = setup([r, b], [20])
    assert g.stat("b1", "ARM") == 2
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert kinds(ev, "attack")[0].data["modifiers"]["cover"] == -2
    g2 = setup([unit("r1", "red", 10, 5, states=["Crouched"]), unit("b1", "blue", 30, 30)], [])
    g2.apply(Activate("r1"))
    with pytest.raises(IllegalAction, match="Run is not allowed"):
        g2.apply(Move("r1", "run", ((10.0, 7.0, 0.0),)))
    g2.apply(Move("r1", "idle", crouch_end=False))
    assert "Crouched" not in g2.models["r1"].states


def test_engaged_no_ranged_and_walks_only_toward_the_engager():
    r = unit("r1", "red", 10, 10, weapons=[SWORD, BOW])
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [])
    g.apply(Activate("r1"))
    with pytest.raises(IllegalAction, match="directly toward b1"):
        g.apply(Move("r1", "walk", ((8.0, 10.0, 0.0),)))
    with pytest.raises(IllegalAction, match="Run is not allowed"):
        g.apply(Move("r1", "run", ((10.0, 10.5, 0.0),)))
    g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    with pytest.raises(IllegalAction, match="Ranged Attack"):
        g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))


def test_dodge_ignores_hits_then_moves_and_disengages():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 12, stats={"AG": 10, "SPD": 6})
    g = setup([r, b], [5, 6, 9])   # r1 hits twice (5, 6); b1 dodges AG 10 with 9
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert len(kinds(ev, "hit_dodged")) == 2 and not kinds(ev, "damage")
    assert g.pending == ("dodge-move", "b1")
    with pytest.raises(IllegalAction):
        g.apply(DodgeMove("b1", ((10.0, 16.5, 0.0),)))   # 4.5" > SPD/2 = 3
    g.apply(DodgeMove("b1", ((10.0, 14.5, 0.0),)))       # out of reach: Disengage
    assert "Engaged" not in g.models["b1"].states and "Engaged" not in g.models["r1"].states


def test_critical_hits_get_through_a_successful_dodge():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [1, 20, 9, 19])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert len(kinds(ev, "damage")) == 1 and kinds(ev, "damage")[0].data["critical"]


def test_dodge_without_los_only_in_awareness_is_halved():
    r = unit("r1", "red", 10, 10, facing=0)
    b = unit("b1", "blue", 14, 10, facing=0, stats={"AG": 10})    # r1 is behind b1
    wall = ("wall", 20, 0, 21, 36, 3)
    g = setup([r, b], [11, 20], boxes=[wall])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    assert g.act.qualified["b1"]["los"] is False and g.act.qualified["b1"]["aware"] is True
    with pytest.raises(IllegalAction, match="only Dodge"):
        g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
    g.apply(Declare("b1", "Dodge"))
    ev = g.apply(Declare("r1", "Nothing"))
    d = kinds(ev, "dodge")[0].data
    assert d["halved"] and d["attribute"] == 5


def test_immobilized_idle_only_dodge_with_t_and_success_removes_it():
    r = unit("r1", "red", 10, 10, states=["Immobilized"], stats={"T": 12})
    b = unit("b1", "blue", 30, 30)
    g = setup([r, b], [8])
    g.apply(Activate("r1"))
    with pytest.raises(IllegalAction, match="Walk is not allowed"):
        g.apply(Move("r1", "walk", ((10.0, 11.0, 0.0),)))
    g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    g.apply(Declare("r1", "Dodge", attribute="T"))
    assert "Immobilized" not in g.models["r1"].states


def test_panicked_failed_morale_forced_run_off_the_table():
    r = unit("r1", "red", 3, 5, states=["Panicked"], stats={"M": 10})
    r2 = unit("r2", "red", 20, 5)
    b = unit("b1", "blue", 30, 30)
    g = setup([r, r2, b], [15])
    ev = g.apply(Activate("r1"))
    assert kinds(ev, "removed") and g.models["r1"].removed
    assert g.pending == ("tactical", "red")


def test_panicked_failed_morale_runs_toward_the_nearest_edge():
    r = unit("r1", "red", 18, 14, states=["Panicked"], stats={"M": 10, "SPD": 4})
    b = unit("b1", "blue", 30, 30)
    g = setup([r, b], [15])
    g.apply(Activate("r1"))
    x, y, _ = g.geo.position("r1")
    assert (x, y) == (18.0, 6.0)                   # 8" (2 x SPD) toward the south edge
    assert g.act is None or g.pending[0] in ("reaction", "tactical")


def _panicked_reactor_dodging(m_roll):
    """b1 (Panicked, 3" from the top edge) reacts to r1's activation with a Dodge."""
    g = setup([unit("r1", "red", 18, 20, weapons=[BOW]), unit("b1", "blue", 18, 33, states=["Panicked"])],
              [m_roll] + [5] * 7)
    g.apply(Activate("r1"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    g.apply(Move("r1", "idle"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    g.apply(Declare("b1", "Dodge"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    if g.pending[0] == "action":
        g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)))
    assert g.pending == ("dodge-move", "b1")
    return g


def test_a_panicked_reactor_that_failed_its_roll_dodges_only_toward_the_nearest_edge():
    g = _panicked_reactor_dodging(20)               # M roll failed
    why = g.why_illegal(DodgeMove("b1", path=((18, 30.5, 0),)))       # south, away from the edge
    assert why and "toward the nearest field edge" in why and "top" in why
    assert g.why_illegal(DodgeMove("b1", path=((20, 33, 0),))) is not None     # along it
    assert g.why_illegal(DodgeMove("b1", path=((19, 34.5, 0),))) is None       # toward it
    assert g.why_illegal(DodgeMove("b1")) is None                              # not moving
    # passed its roll: any direction
    g = _panicked_reactor_dodging(5)
    assert g.why_illegal(DodgeMove("b1", path=((18, 30.5, 0),))) is None


def test_broken_morale_panics_a_party_below_half():
    rs = [unit(f"r{i}", "red", 5 + 3 * i, 5) for i in range(3)]
    b = unit("b1", "blue", 30, 30)
    rs[0].states = ["Dead"]
    rs[1].states = ["Dead"]
    g = setup(rs + [b], [])
    assert "red" in g.broken and "Panicked" in g.models["r2"].states


def test_shrouded_targeted_only_by_perceive_and_attack_reveals_with_surprise():
    r = unit("r1", "red", 10, 10, states=["Shrouded"])
    b = unit("b1", "blue", 10, 12, stats={"DEF": 12, "AG": 10})
    g = setup([r, b], [20, 20, 20])
    g.apply(Activate("r1")); g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        with pytest.raises(IllegalAction, match="Perceive"):
            g.apply(Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),)))
        g.apply(Declare("b1", "Dodge"))
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert "Shrouded" not in g.models["r1"].states
    assert g.pending == ("reaction-change", "blue")     # b1 may turn its Dodge into an Attack
    ev = g.apply(Pass("blue"))
    assert kinds(ev, "surprise_attack")[0].data["targets"] == ["b1"]
    assert kinds(ev, "dodge")[0].data["attribute"] == 5   # AG 10 halved by Surprise Attack


def test_flying_doubles_speed_and_cannot_be_meleed_by_the_ground():
    r = unit("r1", "red", 10, 10)
    b = unit("b1", "blue", 10, 12, states=["Flying"])
    g = setup([r, b], [])
    assert g.stat("b1", "SPD") == 10 and "Engaged" not in g.models["r1"].states
    to_action(g, "r1")
    with pytest.raises(IllegalAction, match="Flying"):
        g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),)))


def test_petrified_cannot_activate():
    r = unit("r1", "red", 10, 10, states=["Petrified"])
    r2 = unit("r2", "red", 20, 10)
    b = unit("b1", "blue", 30, 30)
    g = setup([r, r2, b], [])
    with pytest.raises(IllegalAction, match="Petrified"):
        g.apply(Activate("r1"))


def test_poison_and_knockdown_traits():
    axe = weapon_dict("Axe", "melee", 1, 12, 1, ["Poison II", "Knockdown"])
    r = unit("r1", "red", 10, 10, weapons=[axe])
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [5, 2])
    to_action(g, "r1")
    g.apply(Declare("r1", "Melee Attack", weapon="Axe", targets=(("b1", 1),)))
    st = g.models["b1"].states
    assert {"Weakened", "Poisoned", "Crouched"} <= st


def test_a_model_on_a_vertical_surface_falls_when_it_tries_to_act():
    r = unit("r1", "red", 10, 10, stats={"SPD": 4, "AG": 10})
    b = unit("b1", "blue", 10, 12)
    g = setup([r, b], [15, 3])            # fall of 5" with SPD 4: 2 AG rolls, 15 fails
    g.geo.place("r1", (10.0, 10.0, 5.0))
    g.models["r1"].on_vertical = True
    to_action(g, "r1")
    ev = g.apply(Declare("r1", "Dodge"))
    f = kinds(ev, "fall")[0].data
    assert f["height"] == 5.0 and f["rolls"] == 2
    assert g.models["r1"].hp == 2 and g.geo.position("r1")[2] == 0.0
    assert not kinds(ev, "dodge")                        # the action is lost


def test_an_engaged_caster_may_not_cast_a_ranged_spell_but_may_a_melee_one():
    from rules.core.units import spell_dict
    bolt = spell_dict("Fire Bolt", "Sorcery", "Fire", 0, 12, 1, 24)
    touch = spell_dict("Burning Touch", "Sorcery", "Fire", 0, 12, 1, melee=True)
    r = unit("r1", "red", 10, 10, weapons=[], affinities=["Fire"])
    r.spells = [bolt, touch]
    g = setup([r, unit("b1", "blue", 10, 11.26, facing=270), unit("b2", "blue", 14, 14)], [5, 20, 5, 20])
    g._update_engagement()
    assert "Engaged" in g.models["r1"].states
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    if g.pending[0] == "reaction":
        g.apply(Pass("blue"))
    for t in ("b1", "b2"):
        why = g.why_illegal(Declare("r1", "Spell Attack", spell="Fire Bolt", targets=((t, 1),)))
        assert why and "Engaged" in why and "melee-type" in why
    assert g.why_illegal(Declare("r1", "Spell Attack", spell="Burning Touch", targets=(("b1", 1),))) is None


def test_the_strategic_phase_makes_recovery_checks_before_the_bleeding_rolls():
    b1 = unit("b1", "blue", 10, 30, states=["Incapacitated", "Crouched", "Bleeding"])
    g = setup([unit("r1", "red", 10, 5), b1, unit("b2", "blue", 20, 30)], [20, 5, 20])
    g.models["b1"].hp = 0
    g.apply(EndTurn("red"))
    checks = [(e.data["check"], e.data["die"]["value"]) for e in g.events
              if e.kind == "check" and e.data.get("model") == "b1"]
    assert checks[:2] == [("Recovery", 20), ("Bleeding", 5)]
    assert "Dead" not in g.models["b1"].states            # the Bleeding roll passed


def test_incapacitated_by_an_effect_with_hp_left_ends_at_the_next_strategic_phase():
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 30), unit("b2", "blue", 20, 30)], [20, 20, 20])
    g.add_state("b1", "Incapacitated", "a test effect")
    assert g.models["b1"].hp > 0 and g.models["b1"].incap_by_effect
    g.apply(EndTurn("red"))                          # blue's Strategic Phase
    assert "Incapacitated" not in g.models["b1"].states
    assert not any(e.kind == "check" and e.data.get("model") == "b1" for e in g.events)   # no Recovery Check


def test_no_move_ends_on_a_dead_model_but_may_pass_over_it():
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 10, 8.5, states=["Dead"]), unit("b2", "blue", 30, 30)], [])
    g.apply(Activate("r1"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    why = g.why_illegal(Move("r1", "walk", ((10.0, 8.5, 0.0),)))
    assert why and "b1" in why
    assert g.why_illegal(Move("r1", "walk", ((10.0, 10.0, 0.0),))) is None


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_non_finite_point_is_refused_not_a_crash(bad):
    g = setup([unit("r1", "red", 10, 10), unit("b1", "blue", 30, 30)], [])
    g.apply(Activate("r1"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    assert "not a number" in g.why_illegal(Move("r1", "walk", ((bad, 5, 0),)))


def test_an_assist_spell_reaches_an_unseen_ally_inside_the_casting_aura_at_half_the_attribute():
    from rules.core.units import spell_dict
    mend = spell_dict("Mend", "Healing", "Fire", 0, target="ally", rng=8, effect="The target regains 1 HP.")
    r = unit("r1", "red", 10, 5, weapons=[], affinities=["Fire"])
    r.spells = [mend]
    wall = ("wall", 5, 9, 15, 9.5, 4)
    near = setup([r, unit("r2", "red", 10, 11), unit("b1", "blue", 30, 30)], [5], boxes=[wall])
    assert not near.has_los("r1", "r2") and near.geo.in_awareness("r1", "r2")
    near.models["r2"].hp = 1
    to_action(near, "r1")
    evs = near.apply(Declare("r1", "Assist", spell="Mend", targets=(("r2", 1),)))
    check = next(e.data for e in evs if e.kind == "check" and e.data["check"] == "cast Mend")
    assert check["aura"] == "halved" and check["die"]["target"] == -(-near.stat("r1", "INT") // 2)
    # a caster of AG 3: the same ally is beyond its Aura, still in range: refused
    r = unit("r1", "red", 10, 5, weapons=[], affinities=["Fire"], stats={"AG": 3})
    r.spells = [mend]
    far = setup([r, unit("r2", "red", 10, 11), unit("b1", "blue", 30, 30)], [5], boxes=[wall])
    assert not far.geo.in_awareness("r1", "r2")
    to_action(far, "r1")
    while far.pending[0] == "crouch":
        far.apply(Pass(far.pending[1]))
    why = far.why_illegal(Declare("r1", "Assist", spell="Mend", targets=(("r2", 1),)))
    assert why and "Casting Aura" in why


def test_a_sorcery_s_state_lasts_until_the_end_of_the_activation_sequence():
    from rules.core.units import spell_dict
    snare = spell_dict("Frost Snare", "Sorcery", "Water", 0, 10, 1, 18, effect="The target gains Slowed.")
    r = unit("r1", "red", 10, 5, weapons=[], affinities=["Water"])
    r.spells = [snare]
    g = setup([r, unit("b1", "blue", 10, 12)], [5, 20])
    to_action(g, "r1")
    evs = g.apply(Declare("r1", "Spell Attack", spell="Frost Snare", targets=(("b1", 1),)))
    changes = [(e.data["added"], e.data["removed"]) for e in evs if e.kind == "states" and e.data["model"] == "b1"]
    assert changes[0] == (["Slowed"], []) and changes[-1] == ([], ["Slowed"])
    assert "Slowed" not in g.models["b1"].states


def test_a_model_a_scene_leaves_hanging_starts_on_the_vertical_surface():
    # a scene model on a face (engine.validate hanging_models -> the unit's extra.on_vertical):
    # the rules start it there, so acting makes it fall
    from tools import gameplay
    _, g = gameplay.new_game("tests/data/review8_scenes/hanging.yaml", "eldfall", 1)
    assert g.models["climber"].on_vertical and not g.models["watcher"].on_vertical
    assert g.geo.position("climber")[2] == 3.0


@pytest.mark.parametrize("setting, inside", [("profile", True), ("modified", False)])
def test_awareness_follows_the_modified_ag_only_when_set(setting, inside):
    # AG 8: Awareness 8"; Crippled halves AG: with awareness_ag "modified" it is 4"
    r = unit("r1", "red", 10, 10, stats={"AG": 8})
    b = unit("b1", "blue", 10, 16.5)                # 6.5" between centres, about 5.2" between bases
    g = setup([r, b], [3] * 10, settings={"table_settings": {"awareness_ag": setting}})
    assert g.geo.in_awareness("r1", "b1")
    g.add_state("r1", "Crippled", "test")
    assert g.stat("r1", "AG") == 4
    assert g.geo.in_awareness("r1", "b1") is inside
    g.set_states("r1", g.models["r1"].states - {"Crippled"}, "test")
    assert g.geo.in_awareness("r1", "b1")


def test_the_world_geometry_measures_awareness_with_the_ag_it_is_given():
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    geo = WorldGeometry(World(load_scene("scenes/skirmish.yaml")))
    a, b = "red-archer", "red-mage"
    d = geo.distance(a, b)
    base = geo.world.hitbox(a).awareness
    assert geo.in_awareness(a, b) == (d <= base + 1e-3)
    extra = 3.0 if "Acute Senses" in geo.world.hitbox(a).traits else 0.0
    geo.set_awareness(a, d - extra - 0.1)
    assert not geo.in_awareness(a, b)
    geo.set_awareness(a, d - extra + 0.1)
    assert geo.in_awareness(a, b)
    geo.set_awareness(a, None)
    assert geo.world.hitbox(a).awareness == base
