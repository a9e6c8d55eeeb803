"""Review 12: `eldfall los` as typed in a dispute (tools/cmd_los.py).

* VIEWER and TARGET after an option (`los SCENE --moving A B`, `los SCENE A --json B`)
  were refused as "unrecognized arguments".
* A model in a Dark area seen within Awareness read "why: clear" with no word of the Dark:
  the report now says the Dark was checked and how far the target is against the
  Awareness (text and JSON `dark`).
* "rays cast: 0" beside "100% visible" read as a fault: the pairs were settled without a ray.
"""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

from cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]

SCENE = """
table: [40, 12]
terrain:
  - {id: dark, shape: box, at: [30, 6, 0], size: [6, 6, 3], tags: [area, dark]}
  - {id: wall, shape: box, at: [14, 2, 0], size: [0.5, 3, 1]}
models:
  - {id: near, side: red, size: M, at: [21, 6], facing: 0, profile: sample-red#archer}
  - {id: far, side: red, size: M, at: [10, 9], facing: 0, profile: sample-red#archer}
  - {id: d2, side: blue, size: M, at: [28, 6], facing: 180}
  - {id: a, side: red, size: M, at: [6, 2], facing: 0}
  - {id: b, side: blue, size: M, at: [15, 2], facing: 180}
"""


def _scene(tmp_path):
    p = tmp_path / "scene.yaml"
    p.write_text(textwrap.dedent(SCENE))
    return str(p)


def test_viewer_and_target_after_an_option(tmp_path, capsys):
    s = _scene(tmp_path)
    rc, plain, _ = run_cli(capsys, "los", s, "a", "b")
    assert rc == 0
    rc, out, err = run_cli(capsys, "los", s, "--moving", "a", "b")
    assert rc == 0, err
    assert out.splitlines()[0].startswith("a -> b: LoS yes")
    assert "sees all round (moving)" in out
    rc, out, err = run_cli(capsys, "los", s, "a", "--json", "b")
    assert rc == 0, err
    d = json.loads(out)
    assert (d["viewer"], d["target"]) == ("a", "b")
    assert d["verdict"] == plain.splitlines()[0]
    # a word too many is still refused, in one line
    rc, out, err = run_cli(capsys, "los", s, "--moving", "a", "b", "c")
    assert rc == 2 and out == "" and err.strip() == "eldfall los: unrecognized arguments: c"
    rc, out, err = run_cli(capsys, "los", s, "--json", "a")
    assert rc == 2 and "give VIEWER and TARGET" in err


def test_dark_within_awareness_is_said(tmp_path, capsys):
    s = _scene(tmp_path)
    rc, out, _ = run_cli(capsys, "los", s, "near", "d2")
    assert rc == 0 and out.splitlines()[0].startswith("near -> d2: LoS yes")
    dark = [ln for ln in out.splitlines() if ln.startswith("  dark:")]
    assert len(dark) == 1
    assert "d2 stands in a Dark area" in dark[0] and "within near's Awareness of 15\"" in dark[0]
    rc, out, _ = run_cli(capsys, "los", s, "near", "d2", "--json")
    d = json.loads(out)
    assert d["dark"]["in_dark"] == ["d2"] and d["dark"]["within_awareness"] is True
    assert d["dark"]["distance"] == d["distance"] and d["dark"]["awareness"] == 15
    # beyond the Awareness the reason says it; no second line
    rc, out, _ = run_cli(capsys, "los", s, "far", "d2")
    assert "LoS no (Dark:" in out.splitlines()[0] and "  dark:" not in out
    # no Dark area concerns the pair: nothing said, JSON null
    rc, out, _ = run_cli(capsys, "los", s, "a", "b")
    assert "  dark:" not in out
    rc, out, _ = run_cli(capsys, "los", s, "a", "b", "--json")
    assert json.loads(out)["dark"] is None


def test_no_ray_cast_is_said_in_words(tmp_path):
    from engine import sight
    from engine.scene import load_scene
    from tools.cmd_los import details
    from tools.loading import build_world
    s = _scene(tmp_path)
    w = build_world(load_scene(s), s)
    r = sight.los(w, "near", "d2")
    assert r.los and r.segments > 0
    r.rays = 0
    text = details(r, "x", world=w)
    assert "rays cast: 0" not in text
    assert f"rays cast: none: all {r.segments} viewer x target sample pairs were settled" in text
    r.rays = 12
    assert f"rays cast: 12 for {r.segments} viewer x target sample pairs" in details(r, "x", world=w)


def test_a_models_dir_that_is_no_folder_is_one_line(capsys, tmp_path):
    # skirmish's models all name party profiles: one line for the folder, not one per model
    rc, out, err = run_cli(capsys, "los", str(ROOT / "scenes" / "skirmish.yaml"), "red-archer", "blue-ogre",
                           "--models-dir", str(tmp_path / "nowhere"))
    assert rc == 2 and out == ""
    assert err.strip().splitlines() == [f"<command line>: --models-dir: '{tmp_path / 'nowhere'}': no such folder"]
