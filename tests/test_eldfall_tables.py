"""Seed tables checked against the game itself (scripted games): Spell Types,
Movements (distances), the Activation Sequence order, and the effect of every
State Priorities row. The tables' rows as data: tests/test_eldfall_seed_tables.py."""
import pytest

from rules.eldfall import spells as sp
from rules.eldfall.actions import Activate, Declare, Move, Pass
from tests.eldfall_scenario import setup, unit


def _table_after(heading: str) -> list[list[str]]:
    """The rows of the actions page's table under ``heading`` (from the seeds beside
    the clone, else the verbatim transcription: tests/eldfall_seed_tables.py)."""
    from tests.eldfall_seed_tables import table
    return [list(r) for r in table("eldfall-actions.txt", heading).rows]


DURATIONS = {"Until end of Activation Sequence": "end-of-sequence",
             "Until caster's next Strategic Phase": "caster-next-strategic",
             "Permanent (until caster dies)": "until-caster-drops",
             "Permanent": "permanent"}


def test_spell_types_table():
    rows = _table_after("Spell Attack")
    assert [r[0] for r in rows] == list(sp.spell_types())
    for name, duration, role, _notes in rows:
        t = sp.spell_types()[name]
        assert t["duration"] == DURATIONS[duration], name
        want = ["active", "reactive"] if role.startswith("Active or Reactive") else ["active"]
        assert t["roles"] == want, name
    assert sp.spell_types()["Enchantment"]["dodgeable"] is False
    assert sp.spell_types()["Conjuration"]["delivery"] == "ritual"


@pytest.mark.parametrize("spd", [3, 4, 5, 6, 7])
def test_movement_distances(spd):
    normal = {r[0]: r[1] for r in _table_after("Normal Movement")}
    special = {r[0]: r[1] for r in _table_after("Special Movement")}
    assert normal["Idle"] == "0" and normal["Walk"] == "Up to SPD" and normal["Run"] == "Up to SPD ×2"
    assert special["Climb"].startswith("SPD ÷ 2 (rounded up)") and special["Jump"].startswith("SPD ÷ 2")
    g = setup([unit("r1", "red", 10, 5, stats={"SPD": spd}), unit("b1", "blue", 30, 30)], [])
    assert g.allowance("r1", "idle") == 0
    assert g.allowance("r1", "walk") == spd
    assert g.allowance("r1", "run") == 2 * spd
    assert g.allowance("r1", "climb") == -(-spd // 2)
    assert g.allowance("r1", "jump") == spd / 2          # as printed: not rounded (a setting)


def test_activation_sequence_steps_in_order():
    rows = _table_after("Activation Sequence")
    assert [r[1] for r in rows] == ["Activation Step", "Movement Step", "Reaction Step",
                                    "Action Step", "Resolution Step"]
    assert [r[2] for r in rows] == ["Active Player", "Active Player", "Reactive Player",
                                    "Active Player", "Both"]
    g = setup([unit("r1", "red", 10, 10), unit("b1", "blue", 10, 12)], [20, 20])
    seen = []
    g.apply(Activate("r1")); seen.append(g.phase)                # after step 1: movement
    g.apply(Move("r1", "idle")); seen.append(g.pending[0])       # step 3 for the reactive player
    g.apply(Pass("blue")); seen.append(g.pending[0])             # step 4
    ev = g.apply(Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 2),)))
    assert seen == ["movement", "reaction", "action"]
    kinds = [e.kind for e in ev]
    assert kinds.index("attack") < kinds.index("sequence_end")    # step 5 then the end


# ---------------------------------------------------------------- State Priorities
# (eldfall-states.txt, "State Priorities"): every row of the seed table, in
# order, is in states.yaml with its words, and each has the effect it states,
# checked below on the rules (the rider row in a game, on a mounted model).
def _flying_crouched():
    from rules.eldfall import conditions as cd
    st, notes = cd.add_state({"Flying"}, "Crouched")
    assert "Flying" not in st and "Crouched" in st and "flying_cancelled" in [n.code for n in notes]


def _rider_crouched():
    from rules.eldfall.actions import Move
    lancer = {"mounted": True, "dismounted": {"SPD": -2}}
    g = setup([unit("r1", "red", 10, 5, extra=dict(lancer)), unit("b1", "blue", 30, 30)], [])
    g.apply(Activate("r1"))
    assert g.models["r1"].mounted and g.stat("r1", "SPD") == 5
    ev = g.apply(Move("r1", "idle", crouch_end=True))
    assert [e.data["model"] for e in ev if e.kind == "dismount"] == ["r1"]
    m = g.models["r1"]
    assert not m.mounted and m.dismounted and g.stat("r1", "SPD") == 2     # (5 - 2) halved
    assert m.to_dict()["mounted"] is False and m.to_dict()["dismounted"] is True


def _incapacitated():
    from rules.eldfall import conditions as cd
    st, _ = cd.add_state(set(), "Incapacitated")
    assert {"Incapacitated", "Crouched"} <= st


def _incapacitated_wound():
    from rules.eldfall import conditions as cd
    st, _ = cd.on_wound({"Incapacitated", "Crouched"})
    assert "Dead" in st
    assert "Dead" not in cd.on_wound({"Crouched"})[0]


def _panicked_engaged():
    from rules.eldfall import conditions as cd
    f = cd.on_activation_start({"Panicked", "Engaged"}, morale_failed=True)
    assert f.movement == "Idle" and f.actions == frozenset({"Dodge"})


def _panicked_edge():
    from rules.eldfall import conditions as cd
    assert [n.code for n in cd.on_past_edge({"Panicked"})] == ["removed_from_play_as_loss"]
    assert cd.on_past_edge(set()) == []


def _shrouded_declares():
    from rules.eldfall import conditions as cd
    st, notes = cd.on_action_declared({"Shrouded"}, "Assist")
    assert "Shrouded" not in st and [n.code for n in notes] == ["shrouded_cancelled"]
    assert "Shrouded" in cd.on_action_declared({"Shrouded"}, "Nothing")[0]


def _shrouded_attacks():
    from rules.eldfall import conditions as cd
    st, notes = cd.on_action_declared({"Shrouded"}, "Melee Attack")
    assert "Shrouded" not in st and "surprise_attack" in [n.code for n in notes]


def _flying_immobilized():
    from rules.eldfall import conditions as cd
    for name in ("Immobilized", "Petrified", "Dead"):
        st, _ = cd.add_state({"Flying"}, name)
        assert "Flying" not in st and name in st


PRIORITY_EFFECTS = {
    "Model is Flying and becomes Crouched": _flying_crouched,
    "Rider's model becomes Crouched": _rider_crouched,
    "Model is Incapacitated (HP = 0)": _incapacitated,
    "Incapacitated model suffers another Wound": _incapacitated_wound,
    "Model is Panicked and Engaged at Activation start": _panicked_engaged,
    "Panicked model would move past field edge": _panicked_edge,
    "Shrouded model declares any Action except Nothing": _shrouded_declares,
    "Shrouded model declares Attack": _shrouded_attacks,
    "Flying model becomes Immobilized/Petrified/Dead": _flying_immobilized,
}


def _priority_rows():
    from tests.eldfall_seed_tables import table
    return table("eldfall-states.txt", "State Priorities").rows


def test_state_priorities_rows_are_the_data_in_order():
    from rules.eldfall import conditions as cd
    printed = [(p["situation"], p["result_text"]) for p in cd.PRIORITIES if "derived_from" not in p]
    assert printed == [tuple(r) for r in _priority_rows()]
    assert set(PRIORITY_EFFECTS) == {r[0] for r in _priority_rows()}     # every row has a check


@pytest.mark.parametrize("situation", list(PRIORITY_EFFECTS))
def test_state_priorities_row_has_its_effect(situation):
    assert situation in {r[0] for r in _priority_rows()}
    PRIORITY_EFFECTS[situation]()
