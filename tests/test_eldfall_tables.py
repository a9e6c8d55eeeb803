"""The seed tables this engine owns, read from the seed pages themselves:
Spell Types, Movements (distances), the Activation Sequence order."""
import re
from pathlib import Path

import pytest

from rules.eldfall import spells as sp
from rules.eldfall.actions import Activate, Declare, Move, Pass
from tests.eldfall_scenario import setup, unit

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
if not SEEDS.exists():
    SEEDS = Path("/work/shared/seeds")
ACTIONS = (SEEDS / "eldfall-actions.txt").read_text()


def _table_after(marker: str) -> list[list[str]]:
    text = ACTIONS[ACTIONS.index(marker):]
    body = text[text.index("{|"):text.index("|}")]
    rows = []
    for chunk in body.split("\n|-")[1:]:
        line = chunk.strip().lstrip("|").strip()
        if not line:
            continue
        rows.append([re.sub(r"'''|\[\[|\]\]", "", c).strip() for c in line.split("||")])
    return rows


DURATIONS = {"Until end of Activation Sequence": "end-of-sequence",
             "Until caster's next Strategic Phase": "caster-next-strategic",
             "Permanent (until caster dies)": "until-caster-drops",
             "Permanent": "permanent"}


def test_spell_types_table():
    rows = _table_after("'''Spell Types:'''")
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
    normal = {r[0]: r[1] for r in _table_after("=== Normal Movement ===")}
    special = {r[0]: r[1] for r in _table_after("=== Special Movement ===")}
    assert normal["Idle"] == "0" and normal["Walk"] == "Up to SPD" and normal["Run"] == "Up to SPD ×2"
    assert special["Climb"].startswith("SPD ÷ 2 (rounded up)") and special["Jump"].startswith("SPD ÷ 2")
    g = setup([unit("r1", "red", 10, 5, stats={"SPD": spd}), unit("b1", "blue", 30, 30)], [])
    assert g.allowance("r1", "idle") == 0
    assert g.allowance("r1", "walk") == spd
    assert g.allowance("r1", "run") == 2 * spd
    assert g.allowance("r1", "climb") == -(-spd // 2)
    assert g.allowance("r1", "jump") == -(-spd // 2)


def test_activation_sequence_steps_in_order():
    rows = _table_after("== Activation Sequence ==")
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
