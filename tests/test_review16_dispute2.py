"""Review 16, the dispute's words, second pass: `eldfall los`, `measure` and `aoe` read by
players who argue over them.

* A no-cover reason gave no share ("far-wall hides part of it but is 2.12" away") where the
  cover reasons name every hider with its share (engine/cover.py).
* A ledge called "ledge" read "the edge of its own ledge ledge".
* `eldfall measure` gave a weapon's band modifier, not the target's Cover (-2/-4) nor the
  Forest -3: not what the player rolls against (rules/eldfall/resolution.py adds them).
* `eldfall aoe` rows with "(each: ...)" pushed their "x2  enemy" out of line with the rows
  without it.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165").
"""
from __future__ import annotations

import json
import re

from cli_run import run_cli  # noqa: E402
from scene_files import world_of as _world, write as _write  # noqa: E402
from tests.test_review16_dispute import TWO as TWO_TARGETS  # noqa: E402  (the same two main targets)

from engine import sight
from engine.sight_settings import default_settings

M_RADIUS = 16.0 / 25.4




# a 1.2" wall 2.12" in front of t5 (x 6.75..7.25; t5's base from 9.37)
FAR = """\
table: [20, 30]
terrain:
  - {id: far-wall, shape: box, at: [7, 23, 0], size: [0.5, 6, 1.2]}
models:
  - {id: v5, side: red, size: M, at: [2, 23], facing: 0}
  - {id: t5, side: blue, size: M, at: [10, 23], facing: 180}
"""


def test_a_no_cover_reason_gives_the_hiders_share_as_the_cover_reasons_do(tmp_path):
    w = _world(tmp_path, FAR)
    r = sight.los(w, "v5", "t5")
    assert r.los and r.cover == "none", r.cover_reason
    m = re.search(r"far-wall hides (\d+)% of its hitbox but is 2\.12\" away", r.cover_reason)
    assert m, r.cover_reason
    # the same wall, cover counted within 3": Light, and the share it hides is the same
    near = sight.los(w, "v5", "t5", settings=default_settings().replace(cover_within_in=3.0))
    assert near.cover == "light" and near.cover_piece == "far-wall", near.cover_reason
    got = re.search(r"far-wall is 2\.12\" away and hides (\d+)% of its hitbox", near.cover_reason)
    assert got and got.group(1) == m.group(1) and 0 < int(m.group(1)) < 100, (near.cover_reason, m.group(1))


# a 10"-deep block called "ledge", 3" high (x 10..20), the attacker on a low step (its eye
# just below the block's top): a model 0.3" from the near edge (Light, higher ground), one
# whose base overhangs the far edge (the edge towards the attacker is 9" away: no cover)
LEDGE = """\
table: [30, 30]
terrain:
  - {id: ledge, shape: box, at: [15, 15, 0], size: [10, 10, 3]}
  - {id: step, shape: box, at: [4, 15, 0], size: [3, 12, 1.13]}
models:
  - {id: a, side: red, size: M, at: [4, 15], facing: 0}
  - {id: back, side: blue, size: M, at: [%(back)s, 15], facing: 180}
  - {id: front, side: blue, size: M, at: [%(front)s, 12], facing: 180}
"""


def test_the_ledge_reasons_read_well_whatever_the_piece_is_called(tmp_path):
    w = _world(tmp_path, LEDGE % {"back": 20.0 - M_RADIUS + 0.23, "front": 10.0 + M_RADIUS + 0.3})
    f = sight.los(w, "a", "front")
    assert f.cover == "light" and f.cover_piece == "ledge", f.cover_reason
    assert "ledge ledge" not in f.cover_reason
    assert re.search(r"the edge of its own ledge \(piece 'ledge'\) hides \d+% of its hitbox from a "
                     r"\(higher ground; the edge is 0\.30\" from the base", f.cover_reason), f.cover_reason
    b = sight.los(w, "a", "back")
    assert b.los and b.cover == "none", b.cover_reason
    assert "ledge ledge" not in b.cover_reason
    assert re.search(r"its own ledge \(piece 'ledge'\) hides \d+% of its hitbox \(its lowest part\), but the "
                     r"edge is more than 1\" away", b.cover_reason), b.cover_reason


# archers with a Longbow (0-20": +0, 21-40": -6): guard 0.12" behind a 1" wall (Light by the
# wall), guard2 seen through a Forest area (one: LoS, -3), guard3 standing in it, guard4
# Crouched in the open (Light by its State), guard5 Flying behind the wall (no Cover)
MEASURE = """\
table: [40, 40]
terrain:
  - {id: low-wall, shape: box, at: [20, 10, 0], size: [0.5, 4, 1]}
  - {id: wood, shape: prism, at: [14, 23, 0], points: [[0,0],[4,0],[4,4],[0,4]], height: 3, tags: [area, forest]}
models:
  - {id: archer, side: red, profile: sample-red#archer, at: [4, 10], facing: 0}
  - {id: guard, side: blue, profile: sample-blue#guard, at: [21, 10], facing: 180}
  - {id: archer2, side: red, profile: sample-red#archer, at: [4, 25], facing: 0}
  - {id: guard2, side: blue, profile: sample-blue#guard, at: [30, 25], facing: 180}
  - {id: guard3, side: blue, profile: sample-blue#guard, at: [16, 26.3], facing: 180}
  - {id: archer4, side: red, profile: sample-red#archer, at: [4, 35], facing: 0}
  - {id: guard4, side: blue, profile: sample-blue#guard, at: [14, 35], facing: 180, states: [Crouched]}
"""


def _measure(capsys, scene, a, b):
    rc, out, err = run_cli(capsys, "measure", str(scene), a, b, "--weapon", "Longbow", "--models-dir", "models")
    assert rc == 0, err
    rc, js, err = run_cli(capsys, "measure", str(scene), a, b, "--json", "--models-dir", "models")
    assert rc == 0, err
    weapons = {w["name"]: w for w in json.loads(js)["weapons"]}
    return next(ln for ln in out.splitlines() if ln.startswith("    Longbow: ")), weapons


def test_measure_gives_the_whole_modifier_with_the_targets_cover_and_the_forest(tmp_path, capsys):
    scene = _write(tmp_path, "m.yaml", MEASURE)
    # Light Cover from the wall, as `eldfall los` finds it: 0 - 2
    line, ws = _measure(capsys, scene, "archer", "guard")
    assert line.endswith("ACC +0; with Light Cover -2 (from low-wall, as `eldfall los` finds it): ACC -2 in all"), line
    bow = ws["Longbow"]
    assert bow["total_modifier"] == -2
    assert [(t["what"], t["value"]) for t in bow["modifiers"]] == [("range band", 0), ("cover", -2)]
    assert bow["modifiers"][1]["level"] == "light"
    # a melee weapon out of reach: no ACC modifier to add up
    assert "total_modifier" not in ws["Hunting Knife"] and "modifiers" not in ws["Hunting Knife"]
    # through one Forest area (LoS, the limit being 2): the band's -6 and the Forest's -3
    line, ws = _measure(capsys, scene, "archer2", "guard2")
    assert "band 21-40\", ACC -6; with Forest -3 (every line of fire crosses the Forest area wood): ACC -9 in all" \
        in line, line
    assert ws["Longbow"]["total_modifier"] == -9
    # within the Forest: -3 too, said as such
    line, ws = _measure(capsys, scene, "archer2", "guard3")
    assert "Forest -3 (guard3 stands in a Forest area)" in line and line.endswith("ACC -3 in all"), line
    assert ws["Longbow"]["total_modifier"] == -3
    # Crouched in the open: Light Cover by its State (against Ranged Attacks)
    line, ws = _measure(capsys, scene, "archer4", "guard4")
    assert "Light Cover -2 (guard4 is Crouched: it counts as in Light Cover against Ranged Attacks)" in line, line
    assert ws["Longbow"]["total_modifier"] == -2


def test_measure_in_the_open_adds_nothing_to_the_band(tmp_path, capsys):
    scene = _write(tmp_path, "m.yaml", MEASURE.replace("states: [Crouched]", "states: []"))
    line, ws = _measure(capsys, scene, "archer4", "guard4")
    assert line.endswith("ACC +0"), line
    assert ws["Longbow"]["modifiers"] == [{"what": "range band", "value": 0, "why": "0-20\" band"}]
    assert ws["Longbow"]["total_modifier"] == 0


# two Circular S on t and on near (each partly under the other's), side partly under one
TWO = TWO_TARGETS + "  - {id: side, side: blue, size: S, at: [11.8, 10.6], facing: 180}\n"


def test_aoe_rows_stay_in_columns_beside_a_row_with_each_shares(tmp_path, capsys):
    scene = _write(tmp_path, "two.yaml", TWO)
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "t",
                           "--target", "near", "--by", "a")
    assert rc == 0, err
    rows = {ln.split()[0]: ln for ln in out.splitlines() if re.match(r"^    \S+ .* x[12] ", ln)}
    assert set(rows) == {"t", "near", "side"}, out
    assert "(each: " in rows["t"] and "(each: " not in rows["side"], out
    # the count, the side and the templates' column start where they start on the other rows
    for col in (r" x[12] ", r"enemy", r"templates? "):
        starts = {k: re.search(col, v).start() for k, v in rows.items()}
        assert len(set(starts.values())) == 1, (col, starts, out)
    assert all(v == v.rstrip() for v in rows.values())


def test_measure_without_los_adds_no_cover_and_says_the_weapon_cannot_shoot(tmp_path, capsys):
    # guard hidden wholly behind a 3" wall: the Longbow's Ranged Attack "Requires LoS"; no
    # modifier is added up for it (an "ACC -2 in all" would read as a shot allowed)
    scene = _write(tmp_path, "m.yaml", MEASURE.replace("size: [0.5, 4, 1]}", "size: [0.5, 4, 3]}"))
    line, ws = _measure(capsys, scene, "archer", "guard")
    assert line.endswith("ACC +0; but no LoS: a weapon's Ranged Attack needs it"), line
    assert "total_modifier" not in ws["Longbow"] and "modifiers" not in ws["Longbow"]


# a mage (Fire Bolt 0-12": +0, 13-24": -3) behind a 3" wall from near (inside its Casting
# Aura) and far (outside it); foe in the open with an archer of the mage's side in base contact
SPELLS = """\
table: [40, 20]
terrain:
  - {id: wall, shape: box, at: [10, 10, 0], size: [0.5, 4, 3]}
models:
  - {id: mage, side: red, profile: sample-red#mage, at: [7, 10], facing: 0}
  - {id: near, side: blue, profile: sample-blue#guard, at: [11, 10], facing: 180}
  - {id: far, side: blue, profile: sample-blue#guard, at: [30, 10], facing: 180}
  - {id: foe, side: blue, profile: sample-blue#guard, at: [7, 3], facing: 180}
  - {id: pal, side: red, profile: sample-red#archer, at: [8.26, 3], facing: 180}
"""


def test_measure_a_spell_through_the_aura_and_friendly_fire(tmp_path, capsys):
    scene = _write(tmp_path, "s.yaml", SPELLS)

    def bolt(b):
        rc, out, err = run_cli(capsys, "measure", str(scene), "mage", b, "--weapon", "Fire Bolt",
                               "--models-dir", "models")
        assert rc == 0, err
        return next(ln for ln in out.splitlines() if ln.startswith("    Fire Bolt: "))
    line = bolt("near")
    # a spell rolls INT (tests/test_review16_measure.py), halved through the Aura after the modifiers
    assert "no Cover (no LoS: only a Spell reaches the target, through the Casting Aura, its INT halved" in line \
        and line.endswith("INT +0 in all, then INT halved (rounding up)"), line
    assert bolt("far").endswith("INT -3; but no LoS, and Fire Bolt reaches only through the Casting Aura, "
                                "which the target is outside")
    line = bolt("foe")
    assert "Friendly Fire -4 (pal (mage's side) in base contact with foe: -4 each): INT -4 in all" in line, line
