"""Review 17, `eldfall measure` against the rules engine (tools/cmd_measure.py, engine/measure.py).

* A Melee-Type spell without LoS read "in reach" and nothing more: the rules engine casts it
  through the Casting Aura with its casting attribute halved, rounding up (eldfall-facts.md,
  Reach; rules/eldfall/resolution.py ``_attack_attribute``); a Targetless one is not halved, and a
  melee weapon's Attack without LoS is refused ("no LoS to ...").
* An Assist spell read as an Attack: a range band's "INT +0", and Cover, Forest and Friendly Fire
  added, which the rules engine never adds to it (spells.py ``resolve_assist``: only the Casting
  Aura's halving).
* A spell measure leaves out (a Spray from the caster's base, one that targets only its caster)
  was not named, and `--weapon` with it answered "has no weapon or spell".
* An Attack on an ally, an Assist on an enemy and an Engaged model's Spell Attack with a spell
  that is not Melee-Type read as if they could be declared; the rules engine refuses them.

Each figure is checked against what rules/eldfall resolves for the same scene file.
Sizes: Medium base 32 mm (radius 0.62992"); a Casting Aura of AG 6".
"""
from __future__ import annotations

import json
import math

from cli_run import run_cli  # noqa: E402
from scene_files import write as _write  # noqa: E402

# INT 15: an odd attribute, so that a halving shows its rounding up (8)
PARTY = """\
party: Test touch
game: eldfall
profiles:
  toucher:
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 15, AG: 6, T: 9, M: 14}
    classes: [Mage]
    affinities: [Air]
    items:
      - {name: Staff, kind: melee, rch: 1, pw: 7, stk: 1}
    spells:
      - {name: Grasp, type: Sorcery, affinity: Air, mana: 1, pw: 12, stk: 1, melee: true, range: 1}
      - {name: Jolt, type: Sorcery, affinity: Air, mana: 1, pw: 9, stk: 1, melee: true, range: 1,
         traits: [Targetless]}
      - {name: Bolt, type: Sorcery, affinity: Air, mana: 1, pw: 12, stk: 1, range: 12}
      - {name: Salve, type: Healing, affinity: Air, mana: 1, range: 8, target: ally}
      - {name: Gust, type: Sorcery, affinity: Air, mana: 1, pw: 8, template: spray-s}
      - {name: Calm, type: Healing, affinity: Air, mana: 1, target: self}
  brute:
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 9, AG: 6, T: 9, M: 14}
"""

# caster faces away (270) from foe, 0.5" behind it in Reach, and from pal, an ally 2.98" behind
# it: no LoS, inside the Aura (6"); buddy, an ally in front of it, 7.34" away, beyond a 1" crate
# that gives it Light Cover
BEHIND = """\
table: [30, 30]
terrain:
  - {id: crate, shape: box, at: [10.8, 4.4, 0], size: [0.6, 1.2, 1]}
models:
  - {id: caster, side: red, profile: test-touch#toucher, at: [5, 10], facing: FACING}
  - {id: foe, side: blue, profile: test-touch#brute, at: [5, 11.76], facing: 90}
  - {id: pal, side: red, size: M, at: [8, 13], facing: 180}
  - {id: buddy, side: red, size: M, at: [12, 5], facing: 180}
"""


def _scene(tmp_path, facing=270, text=BEHIND):
    models = tmp_path / "models"
    models.mkdir(exist_ok=True)
    (models / "test-touch.yaml").write_text(PARTY)
    return str(_write(tmp_path, f"s{facing}.yaml", text.replace("FACING", str(facing)))), str(models)


def _measure(capsys, scene, models, a, b):
    """{weapon: its text line}, {weapon: its JSON}."""
    rc, out, err = run_cli(capsys, "measure", scene, a, b, "--models-dir", models)
    assert rc == 0, err
    lines = {ln.split(":")[0].strip(): ln for ln in out.splitlines() if ln.startswith("    ") and ":" in ln}
    rc, js, err = run_cli(capsys, "measure", scene, a, b, "--json", "--models-dir", models)
    assert rc == 0, err
    return lines, {w["name"]: w for w in json.loads(js)["weapons"]}


def _activated(scene, models, model):
    """The game of the scene file with ``model`` activated (its side first), Idle, the dice fixed."""
    from rules.core.dice import Dice
    from rules.eldfall.actions import Activate, ChooseOrder, Move
    from tools import gameplay
    _, g = gameplay.new_game(scene, "eldfall", 1, models_dir=models)
    g.apply(ChooseOrder(g.pending[1], g.pending[1] == g.models[model].side))
    g.dice = Dice.fixed([10] * 20)
    g.apply(Activate(model))
    g.apply(Move(model, "idle"))
    return g


def _at_action(scene, models, model="caster"):
    """The game of the scene file at ``model``'s Action Step (Idle, no reactions)."""
    from rules.eldfall.actions import Pass
    g = _activated(scene, models, model)
    while g.pending[0] != "action":
        g.apply(Pass(g.pending[1]))
    return g


def _expected(w, base: int) -> int:
    """The attribute measure's figures give: base + the whole modifier, halved (rounding up)
    when it says so."""
    v = base + w["total_modifier"]
    return math.ceil(v / 2) if w["halved"] else v


def _rules_attribute(scene, models, action, spell, target) -> int:
    """The modified attribute the rules engine rolls the caster's ``spell`` against."""
    from rules.eldfall.actions import Declare
    g = _at_action(scene, models)
    d = Declare("caster", action, spell=spell, targets=((target, 1),))
    assert g.why_illegal(d) is None, g.why_illegal(d)
    ev = g.apply(d)
    if action == "Assist":
        return next(e for e in ev if e.kind == "check").data["die"]["target"]
    return next(e for e in ev if e.kind == "attack").data["attribute"]


def test_a_melee_type_spell_without_los_is_halved_as_the_rules_engine_halves_it(tmp_path, capsys):
    scene, models = _scene(tmp_path)
    lines, ws = _measure(capsys, scene, models, "caster", "foe")
    line = lines["Grasp"]
    assert line.endswith('(RCH 1"); no LoS: only a Spell reaches foe, through the Casting Aura: '
                         "INT halved (rounding up); a Reaction cannot reach it (the Aura is for the Active Role)"), line
    assert ws["Grasp"]["halved"] is True and ws["Grasp"]["total_modifier"] == 0
    assert _expected(ws["Grasp"], 15) == _rules_attribute(scene, models, "Spell Attack", "Grasp", "foe") == 8
    # ... in the Active Role: as a Reaction (foe activated) it is refused
    from rules.eldfall.actions import Declare
    g = _activated(scene, models, "foe")
    assert g.pending == ("reaction", "red")
    why = g.why_illegal(Declare("caster", "Spell Attack", spell="Grasp", targets=(("foe", 1),)))
    assert why.startswith("caster never had LoS to foe"), why
    # Targetless: no LoS needed, not halved
    assert lines["Jolt"].endswith("no LoS: Jolt is Targetless and needs none; it is not halved"), lines["Jolt"]
    assert ws["Jolt"]["halved"] is False
    assert _expected(ws["Jolt"], 15) == _rules_attribute(scene, models, "Spell Attack", "Jolt", "foe") == 15
    # with LoS (facing foe): the whole INT, nothing more said
    scene, models = _scene(tmp_path, facing=90)
    lines, ws = _measure(capsys, scene, models, "caster", "foe")
    assert lines["Grasp"].endswith('in reach at 0.50" (RCH 1")'), lines["Grasp"]
    assert ws["Grasp"]["halved"] is False
    assert _expected(ws["Grasp"], 15) == _rules_attribute(scene, models, "Spell Attack", "Grasp", "foe") == 15


def test_a_melee_weapon_without_los_cannot_strike(tmp_path, capsys):
    from rules.eldfall.actions import Declare
    scene, models = _scene(tmp_path)
    lines, ws = _measure(capsys, scene, models, "caster", "foe")
    assert lines["Staff"].endswith("; but no LoS: a weapon's Melee Attack needs it (only a spell reaches "
                                   "through the Casting Aura)"), lines["Staff"]
    assert ws["Staff"]["no_los"].startswith("no LoS: a weapon's Melee Attack needs it")
    assert "total_modifier" not in ws["Staff"]
    g = _at_action(scene, models)
    assert g.why_illegal(Declare("caster", "Melee Attack", weapon="Staff", targets=(("foe", 1),))) == \
        "no LoS to foe"


def test_an_assist_spell_adds_no_modifier_and_is_halved_through_the_aura(tmp_path, capsys):
    scene, models = _scene(tmp_path)
    # pal behind the caster: no LoS, inside the Aura: halved, no band's modifier
    lines, ws = _measure(capsys, scene, models, "caster", "pal")
    assert lines["Salve"].endswith('(range 8"; an Assist: no range modifier); no LoS: only a Spell reaches '
                                   "pal, through the Casting Aura: INT halved (rounding up); a Reaction cannot "
                                   "reach it (the Aura is for the Active Role)"), lines["Salve"]
    assert "band" not in lines["Salve"] and ws["Salve"]["assist"] is True and ws["Salve"]["modifier"] is None
    assert _expected(ws["Salve"], 15) == _rules_attribute(scene, models, "Assist", "Salve", "pal") == 8
    # buddy in Light Cover behind the crate: an Attack would add it; an Assist adds nothing
    lines, ws = _measure(capsys, scene, models, "caster", "buddy")
    assert {"what": "cover", "level": "light", "value": -2} in [
        {k: t[k] for k in ("what", "level", "value") if k in t} for t in ws["Bolt"]["modifiers"]], ws["Bolt"]
    assert "Cover" not in lines["Salve"] and ws["Salve"]["modifiers"] == [], lines["Salve"]
    assert _expected(ws["Salve"], 15) == _rules_attribute(scene, models, "Assist", "Salve", "buddy") == 15


def test_what_the_rules_engine_refuses_is_said_in_its_words(tmp_path, capsys):
    from rules.eldfall.actions import Declare
    scene, models = _scene(tmp_path, facing=90)
    g = _at_action(scene, models)
    # an Attack on an ally (Bolt at buddy), an Assist on an enemy (Salve at foe)
    lines, ws = _measure(capsys, scene, models, "caster", "buddy")
    why = g.why_illegal(Declare("caster", "Spell Attack", spell="Bolt", targets=(("buddy", 1),)))
    assert why and lines["Bolt"].endswith(f"; but {why}") and ws["Bolt"]["barred"] == why, lines["Bolt"]
    lines, ws = _measure(capsys, scene, models, "caster", "foe")
    why = g.why_illegal(Declare("caster", "Assist", spell="Salve", targets=(("foe", 1),)))
    assert why and lines["Salve"].endswith(f"; but {why}") and ws["Salve"]["barred"] == why, lines["Salve"]
    assert ws["Grasp"]["barred"] is None and ws["Bolt"]["barred"] is None
    # foe in base contact, facing the caster: it engages it; only a Melee-Type spell may be cast
    engaged = BEHIND.replace("at: [5, 11.76], facing: 90", "at: [5, 11.26], facing: 270")
    scene, models = _scene(tmp_path, facing=90, text=engaged)
    g = _at_action(scene, models)
    assert "Engaged" in g.models["caster"].states
    lines, ws = _measure(capsys, scene, models, "caster", "foe")
    why = g.why_illegal(Declare("caster", "Spell Attack", spell="Bolt", targets=(("foe", 1),)))
    assert why and ws["Bolt"]["barred"] == why and lines["Bolt"].endswith(f"; but {why}"), lines["Bolt"]
    assert ws["Grasp"]["barred"] is None
    assert g.why_illegal(Declare("caster", "Spell Attack", spell="Grasp", targets=(("foe", 1),))) is None


def test_the_spells_not_measured_are_named_with_why(tmp_path, capsys):
    scene, models = _scene(tmp_path)
    rc, out, err = run_cli(capsys, "measure", scene, "caster", "foe", "--models-dir", models)
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if ln.startswith("  not measured: "))
    aoe = f"eldfall aoe {scene} --template spray-s --by caster --target foe --models-dir {models}"
    assert line == (f"  not measured: Gust (a spray-s template from caster's base: `{aoe}` says whom it covers); "
                    "Calm (it targets only caster)"), line
    rc, out, err = run_cli(capsys, *aoe.split()[1:])     # the command it gives runs
    assert rc == 0 and out.startswith("spray-s on foe by caster:"), err
    rc, js, err = run_cli(capsys, "measure", scene, "caster", "foe", "--json", "--models-dir", models)
    assert [x["name"] for x in json.loads(js)["not_measured"]] == ["Gust", "Calm"]
    # --weapon names it: why it is not measured, one line, exit 2
    rc, out, err = run_cli(capsys, "measure", scene, "caster", "foe", "--weapon", "gust", "--models-dir", models)
    assert rc == 2 and err.strip().splitlines() == [
        f"<command line>: --weapon: Gust is not measured to a model: a spray-s template from caster's base: "
        f"`{aoe}` says whom it covers"], err
    # --weapon names another: the others are not listed
    rc, out, err = run_cli(capsys, "measure", scene, "caster", "foe", "--weapon", "Grasp", "--models-dir", models)
    assert rc == 0 and "not measured" not in out
    # a model with no profile has no weapon to measure, and says why
    rc, out, err = run_cli(capsys, "measure", scene, "pal", "caster", "--models-dir", models)
    assert "  weapons: pal has no profile, so no weapon or spell" in out.splitlines(), out


def test_a_spell_with_no_printed_bands_is_measured_to_its_range_not_a_made_up_band(capsys):
    """Flame Burst prints a range (18") and no bands: measure says its range, not "band 0-18"";
    Fire Bolt's printed bands are still given."""
    rc, out, err = run_cli(capsys, "measure", "scenes/skirmish.yaml", "red-mage", "red-brute")
    assert rc == 0, err
    assert 'Flame Burst: in range at 9.89" (range 18"; no bands printed), INT +0' in out
    assert 'Fire Bolt: in range at 9.89", band 0-12", INT +0' in out
    rc, out, err = run_cli(capsys, "measure", "scenes/skirmish.yaml", "red-mage", "red-brute", "--json")
    w = {x["name"]: x for x in json.loads(out)["weapons"]}
    assert w["Flame Burst"]["unbanded"] is True and w["Fire Bolt"]["unbanded"] is False
