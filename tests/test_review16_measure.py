"""Review 16, `eldfall measure`'s whole modifier, the last words (tools/cmd_measure.py,
engine/measure.py).

* A spell's modifier read "ACC" as a weapon's does; a spell rolls its casting attribute, INT,
  or M for a Mystic (rules/eldfall/data/tables.yaml, attributes and ``mystic_attribute``;
  rules/eldfall/resolution.py ``_attack_attribute``).
* A Targetless weapon or spell without LoS read "halved, unless Targetless" (or, a weapon, "no
  LoS: a weapon's Ranged Attack needs it"): the reach record did not carry the trait. Without
  LoS a Targetless Attack needs neither LoS nor the Casting Aura, is not halved, and the target
  gets no Cover (docs/rulings.md, Targetless); a spell through the Casting Aura is halved, after
  the modifiers (eldfall-facts.md).
* "every line of fire crosses a Forest area" did not name the area.

Sizes: Medium base 32 mm (radius 0.62992").
"""
from __future__ import annotations

import json

from cli_run import run_cli  # noqa: E402
from scene_files import write as _write  # noqa: E402

# a Mystic and a Mage with the same spells (Hex Rain Targetless, Bolt not) and weapons (a
# Targetless Mortar, a Sling); AG 6: a Casting Aura of 6"
PARTY = """\
party: Test casters
game: eldfall
profiles:
  seer:
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 6, T: 9, M: 14}
    classes: [CLASS]
    affinities: [Fire]
    items:
      - {name: Mortar, kind: ranged, pw: 10, stk: 1, bands: {"0-24": 0}, traits: [Targetless]}
      - {name: Sling, kind: ranged, pw: 8, stk: 1, bands: {"0-24": 0}}
    spells:
      - {name: Hex Rain, type: Sorcery, affinity: Fire, mana: 1, pw: 10, stk: 1, range: 24,
         bands: {"0-12": 0, "13-24": -3}, traits: [Targetless]}
      - {name: Bolt, type: Sorcery, affinity: Fire, mana: 1, pw: 12, stk: 1, range: 24,
         bands: {"0-12": 0, "13-24": -3}}
"""

# a 3" wall hides near (3.74" away, inside the Aura) and far (13.74": outside it); foe in the
# open, with the seer's ally pal in base contact (Friendly Fire -4)
WALLED = """\
table: [30, 30]
terrain:
  - {id: wall, shape: box, at: [7.5, 10, 0], size: [0.5, 6, 3]}
models:
  - {id: seer, side: red, profile: test-casters#seer, at: [5, 10], facing: 0}
  - {id: near, side: blue, size: M, at: [10, 10], facing: 180}
  - {id: far, side: blue, size: M, at: [20, 10], facing: 180}
  - {id: foe, side: blue, size: M, at: [5, 20], facing: 180}
  - {id: pal, side: red, size: M, at: [6.26, 20], facing: 180}
"""


def _scene(tmp_path, cls="Mage", text=WALLED):
    models = tmp_path / "models"
    models.mkdir(exist_ok=True)
    (models / "test-casters.yaml").write_text(PARTY.replace("CLASS", cls))
    return _write(tmp_path, "s.yaml", text), str(models)


def _measure(capsys, scene, models, a, b):
    """{weapon: its text line}, {weapon: its JSON}."""
    rc, out, err = run_cli(capsys, "measure", str(scene), a, b, "--models-dir", models)
    assert rc == 0, err
    lines = {ln.split(":")[0].strip(): ln for ln in out.splitlines() if ln.startswith("    ") and ":" in ln}
    rc, js, err = run_cli(capsys, "measure", str(scene), a, b, "--json", "--models-dir", models)
    assert rc == 0, err
    return lines, {w["name"]: w for w in json.loads(js)["weapons"]}


def test_a_spell_is_labelled_by_its_casting_attribute_int_or_m_for_a_mystic(tmp_path, capsys):
    scene, models = _scene(tmp_path, "Mage")
    lines, ws = _measure(capsys, scene, models, "seer", "foe")
    # a Mage's spell rolls INT, its weapons ACC: Friendly Fire -4 on each
    assert 'band 0-12", INT +0; with Friendly Fire -4' in lines["Bolt"] and \
        lines["Bolt"].endswith("INT -4 in all"), lines["Bolt"]
    assert "ACC" not in lines["Bolt"], lines["Bolt"]
    assert lines["Sling"].endswith("ACC -4 in all") and 'band 0-24", ACC +0' in lines["Sling"], lines["Sling"]
    assert ws["Bolt"]["rolls"] == "INT" and ws["Sling"]["rolls"] == "ACC"
    assert ws["Bolt"]["total_modifier"] == -4
    # a Mystic rolls M ("the Mystic Class uses Morale instead of Intellect")
    scene, models = _scene(tmp_path, "Mystic")
    lines, ws = _measure(capsys, scene, models, "seer", "foe")
    assert 'band 0-12", M +0' in lines["Hex Rain"] and lines["Hex Rain"].endswith("M -4 in all"), lines["Hex Rain"]
    assert lines["Sling"].endswith("ACC -4 in all"), lines["Sling"]
    assert ws["Hex Rain"]["rolls"] == ws["Bolt"]["rolls"] == "M" and ws["Mortar"]["rolls"] == "ACC"


def test_a_spell_through_the_casting_aura_is_halved_after_the_modifiers(tmp_path, capsys):
    scene, models = _scene(tmp_path)
    lines, ws = _measure(capsys, scene, models, "seer", "near")
    line = lines["Bolt"]
    assert "only a Spell reaches the target, through the Casting Aura, its INT halved" in line, line
    assert line.endswith("INT +0 in all, then INT halved (rounding up)"), line
    assert "unless Targetless" not in line
    assert ws["Bolt"]["halved"] is True and ws["Bolt"]["total_modifier"] == 0
    assert ws["Bolt"]["targetless"] is False


def test_a_targetless_attack_without_los_is_not_halved_and_the_target_has_no_cover(tmp_path, capsys):
    scene, models = _scene(tmp_path)
    # inside the Aura: the Targetless spell is not halved (the Aura's price is for a spell that
    # needs LoS); the Targetless weapon shoots though a weapon needs LoS otherwise
    lines, ws = _measure(capsys, scene, models, "seer", "near")
    for name, label in (("Hex Rain", "INT"), ("Mortar", "ACC")):
        line = lines[name]
        assert f"no Cover (no LoS: {name} is Targetless and needs none; aimed at the ground where the target " \
               "stands, it is not halved, and the target gets no Cover)" in line, line
        assert line.endswith(f"{label} +0 in all"), line
        assert "halved (rounding up)" not in line and "unless Targetless" not in line
        assert ws[name]["targetless"] is True and ws[name]["halved"] is False
        assert ws[name]["total_modifier"] == 0
        cover = next(t for t in ws[name]["modifiers"] if t["what"] == "cover")
        assert cover["value"] == 0 and f"{name} is Targetless and needs none" in cover["why"], cover
    assert lines["Sling"].endswith("but no LoS: a weapon's Ranged Attack needs it"), lines["Sling"]
    assert "total_modifier" not in ws["Sling"]
    # outside the Aura: the Targetless ones still reach it (13.74": the 13-24" band, -3)
    lines, ws = _measure(capsys, scene, models, "seer", "far")
    assert lines["Hex Rain"].endswith("INT -3 in all"), lines["Hex Rain"]
    assert "Targetless and needs none" in lines["Hex Rain"]
    assert ws["Hex Rain"]["total_modifier"] == -3 and ws["Hex Rain"]["halved"] is False
    assert ws["Mortar"]["total_modifier"] == 0
    assert lines["Bolt"].endswith("which the target is outside"), lines["Bolt"]
    assert "total_modifier" not in ws["Bolt"]


# a Forest area "copse" crossed by every line seer -> t1; a wood of two overlapping pieces
# (grove-a, grove-b) crossed by every line seer2 -> t2 (one area: the limit 2 leaves LoS)
WOODS = """\
table: [40, 40]
terrain:
  - {id: copse, shape: prism, at: [12, 8, 0], points: [[0,0],[4,0],[4,4],[0,4]], height: 3, tags: [area, forest]}
  - {id: grove-a, shape: prism, at: [12, 28, 0], points: [[0,0],[3,0],[3,4],[0,4]], height: 3, tags: [area, forest]}
  - {id: grove-b, shape: prism, at: [14, 28, 0], points: [[0,0],[3,0],[3,4],[0,4]], height: 3, tags: [area, forest]}
models:
  - {id: seer, side: red, profile: test-casters#seer, at: [4, 10], facing: 0}
  - {id: t1, side: blue, size: M, at: [24, 10], facing: 180}
  - {id: seer2, side: red, profile: test-casters#seer, at: [4, 30], facing: 0}
  - {id: t2, side: blue, size: M, at: [24, 30], facing: 180}
"""


def test_the_forest_a_line_of_fire_crosses_is_named(tmp_path, capsys):
    scene, models = _scene(tmp_path, text=WOODS)
    lines, ws = _measure(capsys, scene, models, "seer", "t1")
    assert "Forest -3 (every line of fire crosses the Forest area copse): ACC -3 in all" in lines["Sling"], \
        lines["Sling"]
    forest = next(t for t in ws["Sling"]["modifiers"] if t["what"] == "forest")
    assert forest["areas"] == [["copse"]] and forest["value"] == -3
    lines, ws = _measure(capsys, scene, models, "seer2", "t2")
    assert "Forest -3 (every line of fire crosses the Forest area of grove-a and grove-b (one wood))" \
        in lines["Sling"], lines["Sling"]
    forest = next(t for t in ws["Sling"]["modifiers"] if t["what"] == "forest")
    assert forest["areas"] == [["grove-a", "grove-b"]]
