"""A --json verdict's settings, fed back with --settings, reproduce the verdict.

``eldfall los --json`` prints the settings it used flat (``cover_within_in``); the settings
file is nested (``cover: {within_in: ...}``), and every flat key was refused as an unknown
setting: the promise "rerun the same command and get the same answer" could not be kept
from the verdict itself. Now the flat names are taken as well.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_run import run_cli

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = str(ROOT / "scenes" / "skirmish.yaml")


def test_the_settings_of_a_json_verdict_fed_back_give_the_same_verdict(tmp_path, capsys):
    nested = tmp_path / "mine.yaml"
    nested.write_text("cover: {within_in: 0.5, crouched: none}\nexceptions: {forest_limit: 1}\n")
    rc, out, err = run_cli(capsys, "los", SKIRMISH, "red-scout", "blue-ogre", "--moving", "--json",
                           "--settings", str(nested))
    assert rc == 0, err
    first = json.loads(out)
    assert first["settings"]["cover_within_in"] == 0.5 and first["settings"]["forest_limit"] == 1
    flat = tmp_path / "from-verdict.json"
    flat.write_text(json.dumps(first["settings"]))
    rc, out, err = run_cli(capsys, "los", SKIRMISH, "red-scout", "blue-ogre", "--moving", "--json",
                           "--settings", str(flat))
    assert rc == 0, err
    assert json.loads(out) == first


def test_a_bad_flat_setting_is_one_line_naming_it(tmp_path, capsys):
    flat = tmp_path / "flat.yaml"
    flat.write_text("cover_within_in: -1\nforest_limit: 1\n")
    rc, out, err = run_cli(capsys, "los", SKIRMISH, "red-archer", "blue-marksman", "--settings", str(flat))
    assert rc == 2 and out == ""
    assert err.strip() == f"{flat}:1: cover_within_in: must not be negative, not -1.0"


@pytest.mark.parametrize("text", ["cover_within: 1\n", "patch: 3\n"])
def test_a_misspelt_flat_setting_is_still_unknown(tmp_path, capsys, text):
    bad = tmp_path / "bad.yaml"
    bad.write_text(text)
    rc, out, err = run_cli(capsys, "los", SKIRMISH, "red-archer", "blue-marksman", "--settings", str(bad))
    assert rc == 2 and "unknown setting" in err and len(err.strip().splitlines()) == 1
