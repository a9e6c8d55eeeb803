"""Review 11: bad input and the command line."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from engine.scene import load_scene
from tests.cli_run import run_cli
from tests.scene_files import problems_of, write

ROOT = Path(__file__).resolve().parents[1]

PARTY = """party: Test
profiles:
  mage:
    stats: {{STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}}
    affinities: [Fire]
    spells:
      - name: Ward
        type: Enchantment
        affinity: Fire
        mana: 1
        target: ally
        range: 12
        effect: {effect}
"""
SCENE = "table: [24, 24]\nmodels:\n  - {id: m, side: red, profile: test#mage, at: [5, 5]}\n"


def _party_scene(tmp_path, effect: str) -> Path:
    write(tmp_path, "models/test.yaml", PARTY.format(effect=effect))
    return write(tmp_path, "s.yaml", SCENE)


@pytest.mark.parametrize("effect, why", [
    # 5000 digits: the rules' int() refused it mid-cast (a traceback in eldfall play)
    ("The target gains +" + "9" * 5000 + " ARM.", "changes ARM by a number of 5000 digits"),
    ("The target gains +99999999999999999999 SPD.", "changes SPD by a number of 20 digits"),
    ("The target gains +15 SPD and +10 SPD.", "changes SPD by +25 in all"),
    ("The target gains -21 DEF.", "changes DEF by -21 in all"),
    ("The target regains 25 HP.", "regains 25 HP: a spell heals at most 20 HP"),
    ("The target regains " + "9" * 5000 + " HP.", "regains a number of 5000 digits HP"),
])
def test_a_spell_effect_the_rules_read_must_be_in_bounds(tmp_path, effect, why):
    path = _party_scene(tmp_path, effect)
    probs = problems_of(path, models_dir=tmp_path / "models")
    assert any(f"test.yaml:13: profiles.mage.spells[0].effect: {why}" in p for p in probs), probs


def test_spell_effects_within_bounds_still_load(tmp_path):
    path = _party_scene(tmp_path, "The target gains +20 ARM and -20 SPD, and regains 20 HP.")
    scene = load_scene(path, models_dir=tmp_path / "models")
    assert scene.models[0].profile.spells[0].name == "Ward"


def _copy_with_broken_party(tmp_path, scene: str, party: str, old: str, new: str) -> Path:
    shutil.copytree(ROOT / "models", tmp_path / "models")
    p = tmp_path / "models" / f"{party}.yaml"
    text = p.read_text(encoding="utf-8")
    assert old in text
    p.write_text(text.replace(old, new, 1), encoding="utf-8")
    shutil.copy(ROOT / "scenes" / scene, tmp_path / scene)
    return tmp_path / scene


def test_a_broken_party_adds_no_false_stratagem_or_deployment_line(tmp_path, capsys):
    # every red model of warbands.yaml names sample-red: its one bad stat is the only problem
    path = _copy_with_broken_party(tmp_path, "warbands.yaml", "sample-red",
                                   "STA: 2, SPD: 5, ARM: 5", "STA: 2, SPD: 500, ARM: 5")
    rc, out, err = run_cli(capsys, "check", str(path), "--models-dir", str(tmp_path / "models"))
    assert rc == 2
    lines = err.strip().splitlines()
    assert any("profiles.champion.stats.SPD: must be at most 99, got 500" in ln for ln in lines), lines
    assert any("models[0].profile: party 'sample-red' has errors (listed above)" in ln for ln in lines), lines
    assert not any("no model is on side" in ln for ln in lines), lines
    assert len(lines) == 2, lines


def test_a_broken_caster_adds_no_false_token_line(tmp_path, capsys):
    path = _copy_with_broken_party(tmp_path, "ritual.yaml", "sample-conjurers", "mana: 1\n", "mana: 100\n")
    rc, out, err = run_cli(capsys, "check", str(path), "--models-dir", str(tmp_path / "models"))
    assert rc == 2
    lines = err.strip().splitlines()
    assert any("party 'sample-conjurers' has errors (listed above)" in ln for ln in lines), lines
    assert not any("tokens[0].caster" in ln for ln in lines), lines
    assert not any("no model is on side" in ln for ln in lines), lines


def test_a_token_naming_no_model_at_all_is_still_refused(tmp_path):
    path = write(tmp_path, "s.yaml", SCENE.replace("profile: test#mage, ", "size: M, ") +
                 "tokens:\n  - {id: t, kind: spell, side: red, spell: Ward, caster: nobody, at: [9, 9]}\n")
    probs = problems_of(path)
    assert any("tokens[0].caster: 'nobody': no such model" in p for p in probs), probs


@pytest.fixture(scope="module")
def open_log(tmp_path_factory):
    """A one-round game of scenes/open.yaml, logged with the path as typed in the
    repository's folder (relative: ``scenes/open.yaml``)."""
    import os

    from tools.cli import main
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    here = os.getcwd()
    os.chdir(ROOT)
    try:
        assert main(["play", "scenes/open.yaml", "--bots", "random", "--set", "rounds=1", "--quiet",
                     "--log", str(log)]) == 0
    finally:
        os.chdir(here)
    return log


def test_replay_finds_the_logged_scene_from_another_folder(open_log, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, there, err = run_cli(capsys, "replay", str(open_log))
    assert rc == 0, err
    monkeypatch.chdir(tmp_path)          # no scenes/open.yaml here
    rc, out, err = run_cli(capsys, "replay", str(open_log))
    assert rc == 0, err
    assert out.splitlines()[-1] == there.splitlines()[-1]       # the same state hash
    assert out.splitlines()[-1].startswith("state hash: ")


def test_replay_takes_no_other_file_of_that_name(open_log, tmp_path, capsys, monkeypatch):
    # a scene of that path next to the log but with other content is not the logged one
    log = tmp_path / "g.jsonl"
    shutil.copy(open_log, log)
    write(tmp_path, "scenes/open.yaml", (ROOT / "scenes/open.yaml").read_text() + "# edited\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.setattr("tools.cmd_replay.REPO", str(tmp_path / "no-repo"))
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2
    assert err.strip() == (f"{log}:1: scene.path: the scene 'scenes/open.yaml' is not there (the path is "
                           "from the folder the game was played in: run eldfall replay there)")


@pytest.mark.parametrize("char", ["\u202e", "\u202a", "\u2066", "\u2069"])
def test_a_bidirectional_control_in_a_text_is_refused(tmp_path, char):
    # U+202E in a name prints the rest of the line (a verdict's inches and cover) backwards
    path = write(tmp_path, "s.yaml", f'table: [24, 24]\nname: "Ruins{char}21.3"\n')
    assert problems_of(path) == [f"{path}:2: name: a text may not hold the control character "
                                 f"{char!r} (at character 6)"]


def test_other_unicode_in_a_text_still_loads(tmp_path):
    path = write(tmp_path, "s.yaml", 'table: [24, 24]\nname: "Ruines de l\'\u00c9t\u00e9 \u2014 \u05e9\u05dc\u05d5\u05dd"\n')
    assert load_scene(path).name.endswith("\u05e9\u05dc\u05d5\u05dd")


@pytest.mark.parametrize("text, line", [
    # YAML 1.1 reads a leading 0 as octal: x 010 would put the model at x = 8
    ("models:\n  - {id: a, side: red, size: M, at: [010, 12]}",
     "3: models[0].at[0]: 010 is an octal number in YAML (it reads as 8); write 10 without the leading 0 "
     "(or quote it for a text)"),
    ("models:\n  - {id: a, side: red, size: M, at: [10, 12], facing: -045}",
     "3: models[0].facing: -045 is an octal number in YAML (it reads as -37); write -45 without the "
     "leading 0 (or quote it for a text)"),
    # and a colon as base 60: 1:30 is 90
    ("models:\n  - {id: a, side: red, size: M, at: [10, 12], facing: 1:30}",
     "3: models[0].facing: 1:30 is a base-60 number in YAML (it reads as 90); write the number (or quote it "
     "for a text)"),
])
def test_a_number_yaml_reads_otherwise_than_it_looks_is_refused(tmp_path, text, line):
    path = write(tmp_path, "s.yaml", "table: [24, 24]\n" + text + "\n")
    assert problems_of(path) == [f"{path}:{line}"]


def test_a_leading_zero_that_changes_nothing_still_loads(tmp_path):
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n  - {id: a, side: red, size: M, at: [05, 07.5], "
                                     "facing: 00}\n")
    assert load_scene(path).models[0].at == (5.0, 7.5, None)


@pytest.mark.parametrize("setting, why", [
    ("rounds=010", "--set rounds: 010 is an octal number in YAML (it reads as 8); write 10 without the "
                   "leading 0 (or quote it for a text)"),
    ("rounds=1:00", "--set rounds: 1:00 is a base-60 number in YAML (it reads as 60); write the number "
                    "(or quote it for a text)"),
    ("rounds=", "--set rounds: expected a value after 'rounds=', got nothing"),
])
def test_a_setting_is_read_as_it_looks_or_refused(setting, why):
    from engine.errors import InputError
    from tools.gameplay import parse_settings
    with pytest.raises(InputError) as info:
        parse_settings([setting])
    assert [str(p) for p in info.value.problems] == [f"<command line>: {why}"]


def test_settings_as_usual_still_parse():
    from tools.gameplay import parse_settings
    assert parse_settings(["rounds=03", "confrontation_ties=keep", "table_settings={turn_on_hit: never}"]) == {
        "rounds": 3, "confrontation_ties": "keep", "table_settings": {"turn_on_hit": "never"}}
