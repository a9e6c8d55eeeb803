"""Review 16: a new user's own scenes, party files and meshes, and the game commands.

* ``--set table=[W, D]`` on a scene with another table was taken without a word and did
  nothing (the game is played on the scene's table), while ``play --json`` echoed it;
* a mesh made in millimetres (a printer's STL: a 100 mm ruin) stood 100" tall without a
  warning; a cylinder's radius was held against the table as if it were its width, and a
  prism's corners and a heightfield's heights were not held against it at all;
* a trait spelt unlike the name the rules read (``Armour-Piercing``, ``acute senses``)
  was taken silently and the game played the model without it;
* ``eldfall replay`` printed a torn log's warning as ``warning: LOG:N: ...``, not
  ``LOG:N: warning: ...`` as every other warning.
"""
from __future__ import annotations

import json

import pytest

from tests.cli_run import run_cli
from tests.scene_files import write

_STATS = "{STA: 2, SPD: 5, ARM: 2, HP: 2, OFF: 12, DEF: 10, ACC: 10, INT: 11, AG: 12, T: 10, M: 13}"
_PARTY = f"""party: Mine
game: eldfall
profiles:
  fighter:
    leader: true
    stats: {_STATS}
    traits: [%s]
    items:
      - {{name: Sword, kind: melee, rch: 1, pw: 10, traits: [%s]}}
"""
_DUEL = """table: [%s]
models:
  - {id: r1, side: red, profile: mine#fighter, at: [3, 3], facing: 90}
  - {id: b1, side: blue, profile: mine#fighter, at: [9, 9], facing: 270}
"""


def _duel(tmp_path, table="12, 12", traits="", weapon_traits=""):
    write(tmp_path, "models/mine.yaml", _PARTY % (traits, weapon_traits))
    return str(write(tmp_path, "duel.yaml", _DUEL % table)), str(tmp_path / "models")


# -- --set table= on a scene ---------------------------------------------------------- #

@pytest.mark.parametrize("command", ["play", "simulate"])
def test_a_table_setting_the_scene_overrides_is_refused(tmp_path, capsys, command):
    scene, models = _duel(tmp_path)
    extra = ["--bots"] if command == "play" else ["--games", "1", "--jobs", "1"]
    rc, out, err = run_cli(capsys, command, scene, *extra, "--models-dir", models,
                           "--set", "table=[48, 48]", "--set", "rounds=1")
    assert rc == 2, (out, err)
    assert err.strip().splitlines() == [
        "<command line>: --set table: the game is played on the scene's table (12 x 12 in "
        f"{scene}), not 48 x 48: change the scene's table: instead (the setting is for a game "
        "made without a scene)"]


def test_a_table_setting_of_the_scenes_own_size_is_no_problem(tmp_path):
    from engine.scene import load_scene
    from tools.gameplay import table_setting_problem
    scene, models = _duel(tmp_path)
    s = load_scene(scene, models_dir=models)
    assert table_setting_problem(s, {"table": [12, 12.0]}) is None
    assert table_setting_problem(s, {"rounds": 1}) is None
    assert table_setting_problem(s, {"table": [12, 24]}) is not None


# -- lengths longer than the table: millimetres written as inches --------------------- #

def _box_stl(path, mm: float) -> None:
    import trimesh
    path.parent.mkdir(parents=True, exist_ok=True)
    trimesh.creation.box(extents=(mm, mm, mm)).export(str(path))


def _check(capsys, scene):
    rc, out, err = run_cli(capsys, "check", str(scene))
    assert rc == 0, (out, err)
    return [s for s in out.splitlines() if ": warning: " in s and "sides" not in s]


def test_a_mesh_made_in_millimetres_is_warned_of_with_the_scale_it_needs(tmp_path, capsys):
    _box_stl(tmp_path / "meshes" / "ruin.stl", 100.0)       # a 100 mm cube, as a printer's file
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                  "  - {id: ruin, shape: mesh, file: meshes/ruin.stl, at: [18, 18, 0]}\n")
    assert _check(capsys, scene) == [
        f"{scene}:3: terrain[0].file: warning: the mesh is 100 x 100 x 100\" after scale 1, more "
        "than the 36\" table: meshes are in inches; one made in millimetres needs scale: 0.0393701 "
        "(the scale divided by 25.4)"]
    write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
          "  - {id: ruin, shape: mesh, file: meshes/ruin.stl, at: [18, 18, 0], scale: 0.0393701}\n")
    assert _check(capsys, scene) == []


def test_a_cylinder_is_its_radius_twice_across(tmp_path, capsys):
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                  "  - {id: tower, shape: cylinder, at: [18, 18, 0], radius: 20, height: 3}\n")
    assert _check(capsys, scene) == [
        f"{scene}:3: terrain[0].radius: warning: a radius of 20\" (40\" across) is more than the 36\" "
        "table: lengths are in inches (millimetres only in keys ending in _mm)"]
    write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
          "  - {id: tower, shape: cylinder, at: [18, 18, 0], radius: 17, height: 3}\n")
    assert _check(capsys, scene) == []


def test_prism_corners_and_heightfield_heights_longer_than_the_table(tmp_path, capsys):
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                  "  - {id: p, shape: prism, at: [2, 2, 0], points: [[0, 0], [100, 0], [0, 30]], height: 2}\n"
                  "  - {id: h, shape: heightfield, at: [18, 18, 0], size: [8, 8], "
                  "heights: [[0, 0], [0, 60]]}\n")
    assert _check(capsys, scene) == [
        f"{scene}:3: terrain[0].points: warning: the corners span 100\" along x, more than the 36\" "
        "table: lengths are in inches (millimetres only in keys ending in _mm)",
        f"{scene}:4: terrain[1].heights: warning: a height of 60\" is more than the 36\" table: "
        "lengths are in inches (millimetres only in keys ending in _mm)"]


# -- trait names the rules would not read ---------------------------------------------- #

def test_a_trait_spelt_unlike_the_rules_is_warned_of_at_its_line(tmp_path, capsys):
    # (a trait in another case only, "acute senses", is read by the rules: no warning;
    # tests/test_review16_inputs2.py)
    scene, models = _duel(tmp_path, traits="Acute Sense, Fearless, Vigilance",
                          weapon_traits="Armour-Piercing, Knockback (2), Poison II")
    rc, out, err = run_cli(capsys, "check", scene, "--models-dir", models)
    assert rc == 0, (out, err)
    party = f"{models}/mine.yaml"
    warned = [s for s in out.splitlines() if "is not spelt as" in s]
    assert warned == [
        f"{party}:7: profiles.fighter.traits[0]: warning: 'Acute Sense' is not spelt as the rules "
        "read it: did you mean 'Acute Senses'? (the rules match the name letter for letter, in any "
        "case: as written, the game may play the model without it)",
        f"{party}:9: profiles.fighter.items[0].traits[0]: warning: 'Armour-Piercing' is not spelt as "
        "the rules read it: did you mean 'Armor-Piercing'? (the rules match the name letter for "
        "letter, in any case: as written, the game may play the model without it)"]
    # said once, though two models name the party
    assert out.count("'Acute Sense'") == 1


def test_the_shipped_parties_spell_every_trait_as_the_rules_read_it():
    from engine.profiles import known_parties, load_party, party_warnings
    for party in known_parties():
        profiles = load_party(party)
        files = {p.file for p in profiles.values()}
        assert all(party_warnings(f) == () for f in files), party


# -- replay: a torn log's warning ------------------------------------------------------ #

@pytest.fixture(scope="module")
def duel_log(tmp_path_factory):
    """(log, models folder) of a one-round random game on the little duel scene."""
    from tools.cli import main
    tmp = tmp_path_factory.mktemp("duel")
    scene, models = _duel(tmp)
    log = tmp / "g.jsonl"
    assert main(["play", scene, "--bots", "random", "--models-dir", models, "--set", "rounds=1",
                 "--log", str(log), "--quiet"]) == 0
    return log, models


def test_replay_says_a_torn_line_as_log_line_warning(tmp_path, capsys, duel_log):
    log, models = tmp_path / "g.jsonl", duel_log[1]
    log.write_bytes(duel_log[0].read_bytes())
    raw = log.read_bytes()
    log.write_bytes(raw[:-5])
    lines = raw.count(b"\n")
    rc, out, err = run_cli(capsys, "replay", str(log), "--models-dir", models)
    assert rc == 0, err
    assert len(err.splitlines()) == 1, err
    assert err.startswith(f"{log}:{lines}: warning: torn last line dropped ("), err


def test_replay_refuses_a_header_seed_below_0_at_its_line(tmp_path, capsys, duel_log):
    # eldfall play takes no such seed; the replay said only that the first die differed
    rows = duel_log[0].read_text().splitlines()
    header = json.loads(rows[0])
    header["seed"] = -header["seed"] - 5
    log = write(tmp_path, "g.jsonl", "\n".join([json.dumps(header)] + rows[1:]) + "\n")
    rc, out, err = run_cli(capsys, "replay", str(log), "--models-dir", duel_log[1])
    assert rc == 2, (out, err)
    assert err.strip().splitlines() == [
        f"{log}:1: seed: must be 0 or more, got {header['seed']} (eldfall play logs no other: "
        "an edited log?)"]


def test_a_model_given_a_z_higher_than_the_table_is_long_is_warned_of(tmp_path, capsys):
    # a Flying model may hang at any z: 50 mm up written as 50" was taken without a word
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                  "  - {id: bat, side: red, size: S, at: [5, 5, 50], states: [Flying]}\n"
                  "  - {id: owl, side: blue, size: S, at: [9, 9, 3], states: [Flying]}\n")
    assert _check(capsys, scene) == [
        f"{scene}:3: models[0].at: warning: z 50\" is more than the 36\" table: lengths are in "
        "inches (millimetres only in keys ending in _mm)"]


# -- --set given twice ------------------------------------------------------------------ #

def test_a_setting_given_twice_is_refused_not_one_dropped(tmp_path, capsys):
    scene, models = _duel(tmp_path)
    rc, out, err = run_cli(capsys, "play", scene, "--bots", "--models-dir", models,
                           "--set", "rounds=3", "--set", "vp_cap=5", "--set", "rounds=4")
    assert rc == 2, (out, err)
    assert err.strip().splitlines() == [
        "<command line>: --set rounds: given twice (rounds=3, then rounds=4): give it once"]


def test_a_token_of_a_side_with_no_model_is_warned_of(tmp_path, capsys):
    # `side: rde` made a third owner, whose hidden Item every side could Perceive as an enemy's;
    # the warning says the likely typo, and the game it stops is said at the same line
    # (tests/test_review17_readme.py: `play` refuses it)
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                  "  - {id: r1, side: red, size: M, at: [5, 5]}\n"
                  "  - {id: b1, side: blue, size: M, at: [30, 30]}\n"
                  "tokens:\n"
                  "  - {id: cache, kind: item, side: rde, at: [12, 12]}\n"
                  "  - {id: relic, kind: item, side: blue, at: [20, 20]}\n")
    rc, out, err = run_cli(capsys, "check", str(scene))
    assert rc == 2
    assert [s for s in (out + err).splitlines() if str(scene) in s] == [
        f"{scene}:6: tokens[0].side: warning: no model is on side 'rde', the token's owner; "
        "did you mean 'red'?",
        f"{scene}:6: tokens[0].side: side 'rde' is not one of red, blue: a game of the scene cannot start"]


@pytest.mark.parametrize("size, says", [
    ("32", "expected a size code (S, M, L, H, G, C, E), got 32"),
    ("32mm", "unknown size '32mm'; allowed: S, M, L, H, G, C, E"),
])
def test_a_size_given_in_millimetres_names_the_key_for_them(tmp_path, size, says):
    from tests.scene_files import problems_of
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                  f"  - {{id: a, side: red, size: {size}, at: [5, 5]}}\n")
    assert problems_of(scene) == [
        f"{scene}:3: models[0].size: {says} (a base of 32 mm is written base_mm: 32, with height_mm)"]


@pytest.mark.parametrize("text, line", [
    ("table:\u00a0[36, 36]\n", 1),                                   # read as one text
    ("table: [36, 36]\nmodels:\n\u00a0\u00a0- {id: a, side: red, size: M, at: [5, 5]}\n", 3),
    ("table: [36, 36]\nmodels:\n  -\u00a0{id: a, side: red, size: M, at: [5, 5]}\n", 3),
    ("table: [36, 36]\nmodels:\n  - id:\u00a0a\n    side: red\n", 3),
])
def test_a_no_break_space_where_yaml_needs_a_space_is_said_as_such(tmp_path, text, line):
    from tests.scene_files import problems_of
    scene = write(tmp_path, "s.yaml", text)
    assert problems_of(scene) == [f"{scene}:{line}: a no-break space (U+00A0, as a web page or a word "
                                  "processor gives) where YAML needs a plain space"]


def test_a_no_break_space_inside_a_text_is_the_texts_own(tmp_path):
    from engine.scene import load_scene
    scene = write(tmp_path, "s.yaml", "table: [36, 36]\nname: Tom\u00a0Smith's table\n"
                  "description: |\n  first\n  \u00a0\u00a0an indented paragraph\n")
    s = load_scene(scene)
    assert s.name == "Tom\u00a0Smith's table" and "\u00a0\u00a0an indented" in s.description


@pytest.mark.parametrize("rows", [1, 3])
def test_a_game_log_given_as_a_scene_is_named_as_such(tmp_path, capsys, rows):
    # it read as "YAML syntax error: did not find expected <document start>" (a header
    # alone, as many "unknown key for a scene" lines as the header has keys)
    header = json.dumps({"type": "header", "format": 1, "game": "eldfall", "seed": 0, "settings": {},
                         "units": [], "scene": {"path": "s.yaml"}})
    log = write(tmp_path, "g.jsonl", "\n".join([header] + ['{"seq": %d, "kind": "phase"}' % i
                                                          for i in range(rows - 1)]) + "\n")
    for command in ("check", "play"):
        rc, out, err = run_cli(capsys, command, str(log), *(["--bots"] if command == "play" else []))
        assert rc == 2, (out, err)
        assert err.strip().splitlines() == [
            f"{log}: this is a game log (eldfall play --log writes it, eldfall replay reads it), not a scene"]


def test_a_party_file_named_yml_is_pointed_at(tmp_path):
    # "no party 'mine' in models/" and nothing more, with models/mine.yml right there
    from tests.scene_files import problems_of
    scene, models = _duel(tmp_path)
    (tmp_path / "models" / "mine.yaml").rename(tmp_path / "models" / "mine.yml")
    got = problems_of(scene, models_dir=models)
    assert got[0] == (f"{scene}:3: models[0].profile: no party 'mine' in {models}/; {models}/mine.yml "
                      "is there, but a party file is named mine.yaml")


def test_trait_values_and_poison_levels_as_the_rules_read_them_are_no_misspelling():
    from engine.profiles import _trait_spelling
    from engine.validate import Checker, Lines
    ck = Checker("p.yaml", Lines())
    fine = ["Poison (I)", "Poison II", "Poison(II)", "Knockback 1", "Knockback (2)", "Targetless",
            "Fearless", "Vigilant", "Watchful Eye",
            "poison ii"]        # in another case only: the rules read it (test_review16_inputs2.py)
    _trait_spelling(ck, fine + ["Armor Piercing"], ("traits",))
    assert [(w.path, w.message.split("did you mean ")[1].split("?")[0]) for w in ck.warnings] == [
        ("traits[10]", "'Armor-Piercing'")]
