"""The Snipe ability ignores cover (eldfall-facts.md, Cover: "Targetless attacks at the ground
and the Snipe ability ignore cover"): the rules engine's Ranged Attack and `eldfall measure`
agree, whether Snipe is the attacker's skill (or trait) or its weapon's trait, and whether the
cover is the scenery's or a Crouched target's own (docs/rulings.md, "Snipe").
"""
from __future__ import annotations

import json

import pytest

from cli_run import run_cli  # noqa: E402
from scene_files import write as _write  # noqa: E402
from rules.eldfall.narrate import line
from tests.eldfall_scenario import BASE_STATS, BOW, low_wall_shot


def _attack(wall_height, skills=(), bow_traits=(), target_states=()):
    """r1 shoots b1 (12-24" band, -3) across a wall 0.37" in front of b1."""
    return low_wall_shot(wall_height, bow=dict(BOW, traits=list(bow_traits)),
                         extra={"r1": {"skills": list(skills)}, "b1": {"states": list(target_states)}})


def test_without_snipe_the_low_wall_gives_light_cover():
    a = _attack(1.0).data
    assert a["modifiers"] == {"cover": -2, "range": -3}
    assert a["attribute"] == BASE_STATS["ACC"] - 5


@pytest.mark.parametrize("skills, traits", [(["Snipe"], []), ([], ["snipe"])])
def test_snipe_of_the_model_or_of_the_weapon_ignores_the_walls_cover(skills, traits):
    ev = _attack(1.0, skills=skills, bow_traits=traits)
    assert ev.data["modifiers"] == {"snipe": "light", "range": -3}
    assert ev.data["attribute"] == BASE_STATS["ACC"] - 3
    assert "(Snipe: ignores b1's Light Cover)" in line(ev)


def test_snipe_ignores_a_crouched_targets_own_light_cover():
    plain = _attack(0.01, target_states=["Crouched"]).data
    assert plain["modifiers"].get("cover") == -2          # Crouched: Light, no scenery needed
    snipe = _attack(0.01, skills=["Snipe"], target_states=["Crouched"]).data
    assert "cover" not in snipe["modifiers"] and snipe["modifiers"]["snipe"] == "light"


def test_snipe_in_open_ground_says_nothing():
    ev = _attack(0.01, skills=["Snipe"])
    assert ev.data["modifiers"] == {"range": -3}
    assert "Snipe" not in line(ev)


PARTY = """\
party: Test snipe
game: eldfall
profiles:
  sniper:
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 12, INT: 9, AG: 6, T: 9, M: 14}
    skills: [SKILLS]
    items:
      - {name: Longbow, kind: ranged, pw: 10, stk: 1, bands: {"0-12": 0, "13-24": -3}, traits: [TRAITS]}
      - {name: Sling, kind: ranged, pw: 8, stk: 1, bands: {"0-24": 0}}
"""

SCENE = """\
table: [36, 36]
terrain:
  - {id: low-wall, shape: box, at: [10, 19.25, 0], size: [4, 0.5, 1]}
models:
  - {id: r1, side: red, profile: test-snipe#sniper, at: [10, 5], facing: 90}
  - {id: b1, side: blue, size: M, at: [10, 20.5], facing: 270}
"""


def _measured(tmp_path, capsys, skills="", traits=""):
    models = tmp_path / "models"
    models.mkdir(exist_ok=True)
    (models / "test-snipe.yaml").write_text(PARTY.replace("SKILLS", skills).replace("TRAITS", traits))
    scene = str(_write(tmp_path, "s.yaml", SCENE))
    rc, out, err = run_cli(capsys, "measure", scene, "r1", "b1", "--json", "--models-dir", str(models))
    assert rc == 0, err
    ws = {w["name"]: w for w in json.loads(out)["weapons"]}
    rc, text, err = run_cli(capsys, "measure", scene, "r1", "b1", "--models-dir", str(models))
    assert rc == 0, err
    return ws, text


def test_measure_takes_the_cover_off_a_snipe_weapon_only(tmp_path, capsys):
    ws, text = _measured(tmp_path, capsys, traits="Snipe")
    bow, sling = ws["Longbow"], ws["Sling"]
    assert bow["snipe"] and not sling["snipe"]
    cover = next(t for t in bow["modifiers"] if t["what"] == "cover")
    assert cover["value"] == 0 and cover["ignored"] == "snipe" and cover["level"] == "light"
    assert bow["total_modifier"] == -3                     # the band's -3, no Cover
    assert next(t for t in sling["modifiers"] if t["what"] == "cover")["value"] == -2
    assert sling["total_modifier"] == -2
    assert "Longbow ignores it (Snipe)" in text


def test_measure_takes_the_cover_off_every_weapon_of_a_model_with_the_snipe_skill(tmp_path, capsys):
    ws, _ = _measured(tmp_path, capsys, skills="Snipe")
    assert ws["Longbow"]["total_modifier"] == -3 and ws["Sling"]["total_modifier"] == 0
    plain, _ = _measured(tmp_path, capsys)
    assert plain["Longbow"]["total_modifier"] == -5 and plain["Sling"]["total_modifier"] == -2
