"""Review 16: the input edges of game logs, settings and ``eldfall play``.

* a game log saved by an ordinary editor was refused: a byte-order mark at its start gave
  "invalid JSON", an empty line at its end "blank line" (rules/core/log.py). Both are now
  read (``eldfall replay`` reaches the same state hash); a blank line *between* two lines
  is still refused, with why: events are addressed by their line (event N is line N + 2)
  and a gap may be where a log was torn and spliced;
* ``--set`` errors read like Python ("setting rounds must be int, not True"): each now
  says in words what the setting must be and what was given, in both games; Norova's
  unknown setting (and Eldfall's) says "did you mean" (``rounds`` -> ``max_rounds``);
* ``eldfall play --rolls --quiet`` / ``--json`` dropped ``--rolls`` without a word, and
  ``play`` never said the scene's warnings (only ``check`` did);
* the rules read a trait only as written (``Acute Senses``), line of sight and ``measure``
  in any case, so ``acute senses`` widened Awareness in ``measure`` but not for the Dark
  -3 of a game; the engine's arc rule for a moving model read ``Vigilance`` as written too.
"""
from __future__ import annotations

import json
import re

import pytest

from rules.core.errors import LogError
from rules.core.log import read_log
from tests.cli_run import run_cli
from tests.scene_files import write


# -- game logs edited in an editor --------------------------------------------------- #

@pytest.fixture(scope="module")
def game_log(tmp_path_factory):
    """A one-round random game on scenes/open.yaml, logged."""
    from tools.cli import main
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main(["play", "scenes/open.yaml", "--bots", "random", "--seed", "3", "--set", "rounds=1",
                 "--log", str(log), "--quiet"]) == 0
    return log


def _replay_json(capsys, log):
    rc, out, err = run_cli(capsys, "replay", str(log), "--json")
    assert rc == 0, err
    return json.loads(out), err


@pytest.mark.parametrize("edit", [
    pytest.param(lambda raw: b"\xef\xbb\xbf" + raw, id="byte-order-mark"),
    pytest.param(lambda raw: raw + b"\n", id="a-blank-last-line"),
    pytest.param(lambda raw: raw + b"\n  \n\t\n", id="blank-lines-with-spaces"),
    pytest.param(lambda raw: b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r\n") + b"\r\n", id="bom-crlf-blank"),
])
def test_a_log_saved_by_an_editor_replays_to_the_same_state(tmp_path, capsys, game_log, edit):
    raw = game_log.read_bytes()
    want, err = _replay_json(capsys, game_log)
    assert err == ""
    edited = write(tmp_path, "edited.jsonl", edit(raw))
    header, events, warnings = read_log(edited)
    assert (header, events, warnings) == read_log(game_log)
    got, err = _replay_json(capsys, edited)
    assert err == "", err            # no warning: nothing was torn
    assert got["state_hash"] == want["state_hash"] and got["events"] == want["events"]


def test_a_blank_line_between_two_lines_is_still_refused_at_its_line(tmp_path, capsys, game_log):
    lines = game_log.read_bytes().split(b"\n")
    log = write(tmp_path, "spliced.jsonl", b"\n".join(lines[:3] + [b""] + lines[3:]))
    with pytest.raises(LogError) as exc:
        read_log(log)
    assert exc.value.line == 4 and "blank lines are only accepted at its end" in exc.value.message
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2 and err.startswith(f"{log}:4: blank line between two lines of the log"), err
    assert len(err.strip().splitlines()) == 1


def test_a_log_of_a_mark_and_blank_lines_only_is_an_empty_log(tmp_path):
    log = write(tmp_path, "empty.jsonl", b"\xef\xbb\xbf\n\n")
    with pytest.raises(LogError) as exc:
        read_log(log)
    assert exc.value.message == "empty log: no header line"


def test_a_torn_line_after_the_blank_ones_is_not_hidden(tmp_path, game_log):
    # blank lines then characters without a newline: a torn write after a gap, refused as
    # a gap (only blank lines with nothing after them are an editor's)
    log = write(tmp_path, "torn.jsonl", game_log.read_bytes() + b"\n{\"type\":\"ev")
    with pytest.raises(LogError) as exc:
        read_log(log)
    assert "blank line between" in exc.value.message


# -- --set values said in words ------------------------------------------------------ #

ELDFALL = [
    ("rounds=true", "setting rounds must be a whole number, not true (a yes/no value)"),
    ("rounds=abc", "setting rounds must be a whole number, not 'abc'"),
    ("rounds=2.5", "setting rounds must be a whole number, not 2.5"),
    ("rounds=0", "setting rounds must be at least 1, not 0"),
    ("vp_cap=-1", "setting vp_cap must be 0 or more, not -1"),
    ("confrontation_ties=7", "setting confrontation_ties must be cancel or keep, not 7"),
    ("confrontation_ties=tie", "setting confrontation_ties must be cancel or keep, not 'tie'"),
    ("measuring=null", "setting measuring must be assisted, standard or realism, not null (no value)"),
    ("table=3", "setting table must be [width, depth] in inches (two numbers above 0), not 3"),
    ("table_settings={knockback_max_angle_deg: yes}",
     "setting table_settings.knockback_max_angle_deg: must be a number from 0 to 90, not true (a yes/no value)"),
    ("table_settings={turn_on_hit: maybe}",
     "setting table_settings.turn_on_hit: must be one of choose, always, face_attacker, never, not 'maybe'"),
]


@pytest.mark.parametrize("given,said", ELDFALL, ids=[g for g, _ in ELDFALL])
def test_eldfall_setting_errors_say_what_is_expected_and_what_was_given(capsys, given, said):
    key = given.split("=")[0]
    rc, out, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "--set", given)
    assert rc == 2 and err == f"<command line>: --set {key}: {said}\n", err


def test_a_value_that_is_no_yaml_says_what_was_given(capsys):
    rc, out, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "--set", "rounds=[1")
    assert rc == 2 and err.startswith("<command line>: --set rounds: expected a YAML value after 'rounds=' "
                                      "(a number, true or false, a name, [a, list] or {a: mapping}), "
                                      "got '[1', which is not one"), err


def test_eldfall_unknown_setting_says_did_you_mean(capsys):
    rc, out, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "--set", "round=2")
    assert rc == 2 and err.startswith("<command line>: --set round: unknown Eldfall setting 'round': "
                                      "did you mean rounds? (known: "), err
    rc, out, err = run_cli(capsys, "play", "scenes/open.yaml", "--bots", "--set",
                           "table_settings={turn_on_hits: never}")
    assert rc == 2 and "setting table_settings.turn_on_hits: unknown setting: did you mean turn_on_hit?" in err


NOROVA = [
    ("rounds=3", "unknown setting: did you mean max_rounds? (known: "),
    ("max_round=3", "unknown setting: did you mean max_rounds? (known: "),
    ("max_rounds=true", "must be a whole number, not true (a yes/no value)"),
    ("max_rounds=[1, 2]", "must be a whole number, not a list [1, 2]"),
    ("area_friendly_fire=3", "must be true or false, not 3"),
    ("facing.evade_modifier.side=null", "must be a whole number, not null (no value)"),
]


@pytest.mark.parametrize("given,said", NOROVA, ids=[g for g, _ in NOROVA])
def test_norova_setting_errors_say_what_is_expected_and_what_was_given(capsys, given, said):
    key = given.split("=")[0]
    rc, out, err = run_cli(capsys, "play", "scenes/norova-arena.yaml", "--game", "norova", "--bots",
                           "--set", given)
    assert rc == 2 and err.startswith(f"<command line>: --set {key}: {said}"), err
    assert len(err.strip().splitlines()) == 1


#: Python's names for types and values, which a user never wrote
PYTHON_WORDS = re.compile(r"\b(int|str|float|bool|dict|NoneType|True|False|None)\b")


def test_no_setting_message_reads_like_python():
    from rules.core.errors import SettingError
    from rules.eldfall.sequence import default_settings, merge_settings
    from rules.norova.data import NorovaDataError, RuleData
    for key, default in default_settings().items():
        for bad in (True, None, "x", [1], {"a": 1}, 2.5):
            try:
                merge_settings({key: bad})
            except SettingError as exc:
                text = str(exc)
                assert not PYTHON_WORDS.search(text), (key, bad, text)
    for key in RuleData().rules:
        for bad in (True, None, "x", 2.5):
            try:
                RuleData({key: bad})
            except NorovaDataError as exc:
                for text in exc.problems:
                    assert not PYTHON_WORDS.search(text), (key, bad, text)


# -- eldfall play: --rolls with --quiet/--json; the scene's warnings ------------------- #

def _warned_arena(tmp_path):
    """scenes/arena.yaml with a key of its eldfall: block the rules never read and a blue
    model outside its deployment zone: two warnings ``eldfall check`` says."""
    text = open("scenes/arena.yaml", encoding="utf-8").read()
    text = text.replace("at: [12, 22], facing: 270", "at: [12, 12], facing: 270")
    return write(tmp_path, "arena.yaml", text + "eldfall:\n  rounds: 3\n")


def test_play_says_the_scenes_warnings_once_before_the_game_and_rolls_ignored(tmp_path, capsys):
    scene = _warned_arena(tmp_path)
    rc, out, err = run_cli(capsys, "check", str(scene))
    assert rc == 0
    warnings = [ln for ln in out.splitlines() if ": warning: " in ln]
    assert len(warnings) == 2 and any("eldfall.rounds" in w for w in warnings), out
    rc, out, err = run_cli(capsys, "play", str(scene), "--bots", "random", "--set", "rounds=1",
                           "--rolls", "--json")
    assert rc == 0, err
    json.loads(out)                 # the outcome as JSON, nothing else on stdout
    assert err.splitlines() == warnings + [
        "<command line>: --rolls: warning: ignored with --json, which prints only the outcome "
        "(leave it out to see every die roll)"], err


def test_play_quiet_rolls_is_said_and_without_rolls_nothing_is(capsys):
    rc, out, err = run_cli(capsys, "play", "scenes/arena.yaml", "--bots", "random", "--set", "rounds=1",
                           "--rolls", "--quiet")
    assert rc == 0 and err == ("<command line>: --rolls: warning: ignored with --quiet, which prints "
                               "only the outcome (leave it out to see every die roll)\n"), err
    assert out.startswith("outcome: ")
    rc, out, err = run_cli(capsys, "play", "scenes/arena.yaml", "--bots", "random", "--set", "rounds=1",
                           "--quiet")
    assert rc == 0 and err == ""


# -- trait names in any case, as the engine reads them -------------------------------- #

@pytest.mark.parametrize("traits,dark", [([], True), (["Acute Senses"], False), (["acute senses"], False),
                                         (["ACUTE SENSES"], False), (["Acute  Sense"], True)])
def test_acute_senses_in_any_case_widens_awareness_against_the_dark(traits, dark):
    # Dark: -3 beyond half the attacker's Awareness (AG 10: 5"; Acute Senses +3": 6.5"); b1
    # is 5.74" off, as measure's Awareness reads the trait in any case
    from rules.eldfall import resolution
    from rules.eldfall.actions import Declare
    from tests.eldfall_scenario import BOW, setup, unit
    g = setup([unit("r1", "red", 10, 5, weapons=[BOW], traits=traits), unit("b1", "blue", 10, 12)])
    g.geo.environments = lambda model: frozenset({"dark"})
    st = resolution.Strike("r1", "b1", Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)),
                           "active", dict(BOW), 1)
    resolution._attack_attribute(g, st)
    assert 5.0 < st.distance < 6.5
    assert (st.mods.get("dark") == -3) is dark, st.mods


def test_the_rules_trait_helpers_read_any_case():
    from rules.eldfall import combat as cb
    assert cb.has_trait(["watchful"], "Watchful") and cb.has_trait(["SURPRISE ATTACK"], "Surprise Attack")
    assert cb.has_trait(["poison (ii)"], "Poison II") and not cb.has_trait(["poison ii"], "Poison I")
    assert cb.trait_value(["knockback (2)"], "Knockback") == 2.0
    assert cb.armor_for_hit(4, False, ["armor-piercing"]) == cb.armor_for_hit(4, False, ["Armor-Piercing"]) == 2
    assert cb.armor_for_hit(4, False, ["ignore armor"]) == 0
    assert not cb.has_trait(["Acute Sense"], "Acute Senses")       # a misspelling is not the trait


def test_a_trait_in_another_case_is_no_misspelling_warning():
    from engine.profiles import _trait_spelling
    from engine.validate import Checker, Lines
    ck = Checker("p.yaml", Lines())
    _trait_spelling(ck, ["acute senses", "VIGILANCE", "knockback (2)", "Acute Sense"], ("traits",))
    assert [w.path for w in ck.warnings] == ["traits[3]"]


@pytest.mark.parametrize("trait,seen", [("vigilance", True), ("Vigilance", True), ("Fearless", False)])
def test_a_moving_model_is_seen_by_lowercase_vigilance_as_by_line_of_sight(monkeypatch, trait, seen):
    # o at (18, 18) faces +x; m walks from (6, 30) to (6, 6), behind it, hidden from it at
    # both ends by two walls and in its sight (all round) at (6, 18). The fast arc rule of
    # sight_along_path read Vigilance only as written: "vigilance" was not seen there,
    # though line of sight (the full sampling) sees all round with it
    from engine import sight as es
    from engine.geometry import WorldGeometry
    from engine.scene import ModelSpec, Scene, TerrainSpec
    from engine.world import Hitbox, World
    from tests.eldfall_scenario import BASE_STATS
    plain = Hitbox.traits.fget
    monkeypatch.setattr(Hitbox, "traits", property(
        lambda hb: frozenset({trait}) if hb.id == "o" else plain(hb)))
    walls = (TerrainSpec("north", "box", (12, 24, 0), size=(8, 0.5, 4)),
             TerrainSpec("south", "box", (12, 12, 0), size=(8, 0.5, 4)))
    world = World(Scene("", (36, 36), terrain=walls, models=(
        ModelSpec("o", "blue", 32, 45, (18, 18, None), facing=0.0, stats=dict(BASE_STATS)),
        ModelSpec("m", "red", 32, 45, (6, 30, None), facing=270.0, stats=dict(BASE_STATS)))))
    geo = WorldGeometry(world)
    x, y, z = geo.position("m")
    assert not geo.sight("o", "m").los
    path = [(6.0, 6.0, z)]
    full = es.los_along_path(world, "m", [(x, y, z)] + path, ["o"])[0]
    assert full.had_los is seen
    assert geo.sight_along_path("m", path, ["o"])[0].had_los is seen
