"""A whole saved `eldfall los --json` verdict given to `--settings` reproduces the verdict:
its settings block is read (a problem in it is named under `settings.`)."""
from __future__ import annotations

import json

from cli_run import run_cli  # noqa: E402
from scene_files import write

SCENE = """
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 12, 0], size: [0.5, 6, 1.0]}
models:
  - {id: a, side: red, size: M, at: [8, 12], facing: 0}
  - {id: b, side: blue, size: M, at: [13.2, 12], facing: 180}
"""


def test_a_saved_verdict_is_taken_as_its_settings(tmp_path, capsys):
    scene = write(tmp_path, "s.yaml", SCENE)
    custom = write(tmp_path, "c.yaml", "cover:\n  within_in: 0.1\n")
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--json", "--settings", str(custom))
    assert rc == 0, err
    verdict = json.loads(out)
    assert verdict["settings"]["cover_within_in"] == 0.1
    saved = tmp_path / "verdict.json"
    saved.write_text(out)
    rc, again, err = run_cli(capsys, "los", str(scene), "a", "b", "--json", "--settings", str(saved))
    assert rc == 0, err
    assert json.loads(again)["settings"] == verdict["settings"]
    assert json.loads(again)["cover"] == verdict["cover"]


def test_a_bad_value_in_a_saved_verdict_names_its_settings_block(tmp_path, capsys):
    scene = write(tmp_path, "s.yaml", SCENE)
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--json")
    verdict = json.loads(out)
    verdict["settings"]["forest_limit"] = 0
    saved = tmp_path / "verdict.json"
    saved.write_text(json.dumps(verdict, indent=2))
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--settings", str(saved))
    assert rc == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "settings.forest_limit: must be a whole number of at least 1" in lines[0]
    assert "verdict.json:" in lines[0] and lines[0].split(":")[1].isdigit(), lines[0]


def test_simulate_refuses_more_jobs_than_the_machine_can_hold(capsys, tmp_path):
    from tools.cmd_simulate import max_jobs
    rc, out, err = run_cli(capsys, "simulate", "scenes/open.yaml", "--games", "3", "--jobs", str(max_jobs() + 1))
    assert rc == 2
    assert err.strip() == f"<command line>: --jobs: at most {max_jobs()} (8 per CPU here), got {max_jobs() + 1}", err


def test_eldfall_takes_a_dotted_table_setting_as_norova_does(capsys, tmp_path):
    from rules.eldfall.sequence import merge_settings
    s = merge_settings({"table_settings.awareness_ag": "modified"})
    assert s["table_settings"] == {"awareness_ag": "modified"}
    rc, out, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "random", "--set",
                           "table_settings.awareness_ag=modified", "--log", str(tmp_path / "g.log"))
    assert rc == 0, err
    rc, out, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "random", "--set",
                           "table_settings.awareness_ag=sometimes", "--log", str(tmp_path / "h.log"))
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "table_settings" in err, err
