"""`eldfall measure` bars a ranged Attack where A or B stands in a Hazy area, in the rules
engine's words (eldfall-facts.md, Environments: Hazy "no ranged attacks through";
rules/eldfall/resolution.py ``hazy_block``); a melee weapon in reach is not barred."""
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


def _bars(tmp_path, capsys, hx, b="b1"):
    models = tmp_path / "models"
    models.mkdir(exist_ok=True)
    (models / "test-snipe.yaml").write_text(PARTY.replace("SKILLS", "").replace("TRAITS", "")
                                            + "      - {name: Dagger, kind: melee, rch: 1, pw: 5, stk: 1}\n")
    scene = str(_write(tmp_path, f"s{hx}.yaml", SCENE.replace("HX", str(hx))))
    rc, out, err = run_cli(capsys, "measure", scene, "r1", b, "--json", "--models-dir", str(models))
    assert rc == 0, err
    return {w["name"]: w.get("barred") for w in json.loads(out)["weapons"]}


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
