"""`eldfall measure` bars a ranged Attack where A or B stands in a Hazy area, in the rules
engine's words (eldfall-facts.md, Environments: Hazy "no ranged attacks through";
rules/eldfall/resolution.py ``hazy_block``); a melee weapon in reach is not barred. A Dense
area's Strike fewer is said beside the weapon (``dense_rule``)."""
from __future__ import annotations

import json

from cli_run import run_cli  # noqa: E402
from scene_files import write as _write  # noqa: E402
from test_snipe import PARTY

SCENE = """\
table: [36, 36]
terrain:
  - {id: haze, shape: box, at: [HX, 20.5, 0], size: [3, 3, 0.2], tags: [area, hazy]}
models:
  - {id: r1, side: red, profile: test-snipe#sniper, at: [10, 5], facing: 90}
  - {id: b1, side: blue, size: M, at: [10, 20.5], facing: 270}
  - {id: b2, side: blue, size: M, at: [10, 6.9], facing: 270}
"""


def _measured(tmp_path, capsys, text, b="b1"):
    """{weapon: its JSON} and the text of `measure r1 B` on the scene ``text``."""
    models = tmp_path / "models"
    models.mkdir(exist_ok=True)
    (models / "test-snipe.yaml").write_text(PARTY.replace("SKILLS", "").replace("TRAITS", "")
                                            + "      - {name: Dagger, kind: melee, rch: 1, pw: 5, stk: 1}\n")
    scene = str(_write(tmp_path, f"s{abs(hash(text))}.yaml", text))
    rc, out, err = run_cli(capsys, "measure", scene, "r1", b, "--json", "--models-dir", str(models))
    assert rc == 0, err
    rc, words, err = run_cli(capsys, "measure", scene, "r1", b, "--models-dir", str(models))
    assert rc == 0, err
    return {w["name"]: w for w in json.loads(out)["weapons"]}, words


def _bars(tmp_path, capsys, hx, b="b1"):
    ws, _ = _measured(tmp_path, capsys, SCENE.replace("HX", str(hx)), b)
    return {name: w.get("barred") for name, w in ws.items()}


def test_a_target_standing_in_haze_bars_the_ranged_weapons(tmp_path, capsys):
    bars = _bars(tmp_path, capsys, 10)
    want = "no ranged Attack through a Hazy area: b1 stands in one (Hazy: no ranged attacks through)"
    assert bars["Longbow"] == want and bars["Sling"] == want


def test_haze_elsewhere_bars_nothing(tmp_path, capsys):
    bars = _bars(tmp_path, capsys, 25)
    assert bars["Longbow"] is None and bars["Sling"] is None


def test_melee_in_reach_is_not_barred_by_haze(tmp_path, capsys):
    # b2 in reach of the Dagger; the haze over b1 has nothing to do with it
    bars = _bars(tmp_path, capsys, 10, b="b2")
    assert bars["Dagger"] is None
    assert bars["Longbow"] is None


DENSE = SCENE.replace("tags: [area, hazy]", "tags: [area, dense]")


def _dense(tmp_path, capsys, hx, b="b1", scene_text=None):
    return _measured(tmp_path, capsys, (scene_text or DENSE).replace("HX", str(hx)), b)


def test_a_target_in_a_dense_area_costs_a_ranged_attack_a_strike(tmp_path, capsys):
    """eldfall-facts.md, Environments: Dense "-1 STK ... for ranged within or through" (the
    rules engine's ``dense_strike``): `measure` says it beside the weapon, not barred."""
    ws, text = _dense(tmp_path, capsys, 10)
    want = "one Strike fewer (STK -1, at least 1): b1 stands in a Dense area"
    assert ws["Longbow"]["dense"] == want and ws["Sling"]["dense"] == want
    assert ws["Longbow"]["barred"] is None
    assert f"; {want}" in text
    far, _ = _dense(tmp_path, capsys, 25)
    assert far["Longbow"]["dense"] is None


def test_melee_at_a_model_in_a_dense_area_keeps_its_strikes(tmp_path, capsys):
    # a small Dense area under b2 only (y 6.7-7.9; r1's base ends at y 5.63): a melee Attack
    # from outside it loses nothing, a shot at b2 loses a Strike
    small = DENSE.replace("at: [HX, 20.5, 0], size: [3, 3, 0.2]", "at: [HX, 7.3, 0], size: [1.2, 1.2, 0.2]")
    ws, _ = _dense(tmp_path, capsys, 10, b="b2", scene_text=small)
    assert ws["Dagger"]["in_reach"] and ws["Dagger"]["dense"] is None
    assert ws["Sling"]["dense"] == "one Strike fewer (STK -1, at least 1): b2 stands in a Dense area"
