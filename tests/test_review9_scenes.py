"""Review 9, scenes and the command line: what a careless or hostile user
types (an empty scene name, inches in a ``_mm`` key, an empty games list,
damaged mesh files, an output file that is a folder) gets one line per
problem, exit 2, never a traceback; and ``eldfall check`` tells all.
"""
from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

from engine.errors import InputError, Problem
from engine.scene import load_scene
from cli_run import run_cli  # noqa: E402
from scene_files import problems_of, write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# --------------------------------------------------------------------------- the command line
def test_an_empty_scene_name_is_a_command_line_problem(capsys):
    # it was read as the current folder: ": is a folder, not a YAML file"
    rc, out, err = run_cli(capsys, "check", "")
    assert rc == 2 and out == ""
    assert err.splitlines() == ["<command line>: expected a scene file, got an empty text"]


def test_a_plain_input_error_is_a_command_line_problem():
    # the engine's argument errors (measure, aoe) printed as "<input>: ..."
    assert str(InputError("--count: expected 1 or more, got 0")) == "<command line>: --count: expected 1 or more, got 0"
    assert InputError("x").problems == [Problem("<command line>", None, "", "x")]


def test_measure_unknown_model_is_one_command_line_line(capsys):
    rc, out, err = run_cli(capsys, "measure", "scenes/open.yaml", "red-archer", "blue-wardn")
    assert rc == 2 and out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("<command line>: ") and "unknown model 'blue-wardn'" in lines[0]


def test_an_os_error_of_a_command_is_one_line_not_a_traceback(capsys, monkeypatch, tmp_path):
    # e.g. eldfall reach --picture DIR where DIR/reach-top.png is a folder
    import tools.cmd_check as cmd_check

    def boom(args):
        open(tmp_path, "wb")            # a folder: IsADirectoryError
    monkeypatch.setattr(cmd_check, "run", boom)
    rc, out, err = run_cli(capsys, "check", "scenes/open.yaml")
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"<command line>: {tmp_path}: cannot write or read it: Is a directory"]


def test_output_folder_refuses_an_output_file_that_is_a_folder(tmp_path):
    from engine.validate import output_folder
    (tmp_path / "reach-top.png").mkdir()
    with pytest.raises(InputError) as info:
        output_folder(tmp_path, "--picture", files=("reach.png", "reach-top.png"))
    assert [str(p) for p in info.value.problems] == [
        f"<command line>: --picture: '{tmp_path}': cannot write reach-top.png there: it is a folder"]
    assert output_folder(tmp_path, "--picture", files=("reach.png",)) == str(tmp_path)


# --------------------------------------------------------------------------- scenes
def test_an_empty_games_list_is_an_error(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\ngames: []\n")
    assert problems_of(p) == [f"{p}:2: games: expected at least one game (allowed: eldfall, norova)"]


def test_inches_in_a_mm_key_are_refused(tmp_path):
    # a 1.26 mm base (the user meant inches) loaded as a 0.05" model
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                                  "  - {id: a, side: red, base_mm: 1.26, height_mm: 1.77, at: [5, 5]}\n"
                                  "  - {id: b, side: red, size: M, height_mm: 2, at: [9, 5]}\n"
                                  "tokens:\n  - {id: t, kind: item, side: red, at: [5, 9], base_mm: 1}\n")
    assert problems_of(p) == [
        f"{p}:3: models[0].base_mm: 1.26 mm is too small for a base (the smallest is 10 mm); "
        f"base_mm is in millimetres, not inches",
        f"{p}:3: models[0].height_mm: 1.77 mm is too small for a hitbox (the smallest is 10 mm); "
        f"height_mm is in millimetres, not inches",
        f"{p}:4: models[1].height_mm: 2 mm is too small for a hitbox (the smallest is 10 mm); "
        f"height_mm is in millimetres, not inches",
        f"{p}:6: tokens[0].base_mm: 1 mm is too small for a token (the smallest is 10 mm); "
        f"base_mm is in millimetres, not inches",
    ]


def test_a_tab_indent_is_said_in_words(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n\t- {id: a}\n")
    assert problems_of(p) == [f"{p}:3: YAML syntax error: a tab character; YAML indents with spaces only"]


def test_a_second_document_is_said_in_words(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\n---\ntable: [1, 1]\n")
    assert problems_of(p) == [f"{p}:2: YAML syntax error: a second document ('---'); a file holds one document"]


# --------------------------------------------------------------------------- meshes
def _mesh_scene(tmp_path, name):
    return write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                     f"  - {{id: m, shape: mesh, at: [5, 5, 0], file: meshes/{name}}}\n")


def test_a_mesh_with_huge_numbers_gives_no_numpy_warning(tmp_path):
    # a RuntimeWarning of trimesh's was printed on stderr among the problem lines
    import warnings
    write(tmp_path, "meshes/big.obj", "v 0 0 0\nv 1e30 0 0\nv 0 1 0\nf 1 2 3\n")
    p = _mesh_scene(tmp_path, "big.obj")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        got = problems_of(p)
    assert [str(w.message) for w in seen] == []
    assert got == [f"{p}:3: terrain[0].file: 'meshes/big.obj': cannot read mesh: the mesh spans "
                              f"more than 1000 inches after scale 1 (meshes are in inches)"]


@pytest.mark.parametrize("data", [
    b"glTF",                                                                    # cut short
    b"glTF" + struct.pack("<III", 2, 100, 20) + b"JSON" + b"not json at all!!!!!",   # damaged JSON
    b"glTF" + struct.pack("<III", 2, 100, 14) + b"JSON" + b'{"meshes": 5} ',          # JSON of the wrong shape
])
def test_a_damaged_glb_is_said_in_words(tmp_path, data):
    write(tmp_path, "meshes/bad.glb", data)
    p = _mesh_scene(tmp_path, "bad.glb")
    assert problems_of(p) == [f"{p}:3: terrain[0].file: 'meshes/bad.glb': cannot read mesh: not a readable "
                              f"GLB file (damaged, cut short or not a GLB)"]


# --------------------------------------------------------------------------- check tells all
def test_check_shows_a_mounted_rider(capsys):
    rc, out, err = run_cli(capsys, "check", "scenes/warbands.yaml")
    assert rc == 0
    row = next(ln for ln in out.splitlines() if ln.split()[:1] == ["red-champion"])
    assert "(mounted: SPD -2 when dismounted; sample-red#champion; Leader)" in row
    rc, out, err = run_cli(capsys, "check", "scenes/warbands.yaml", "--json")
    m = {x["id"]: x for x in json.loads(out)["models"]}
    assert m["red-champion"]["mounted"] is True and m["red-champion"]["dismounted"] == {"SPD": -2}
    assert m["red-archer"]["mounted"] is False and m["red-archer"]["dismounted"] == {}


def test_check_prints_warnings_of_a_scene_it_refuses(tmp_path, capsys):
    # docs: warnings are printed whether the scene is valid or not
    write(tmp_path, "meshes/flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: m, shape: mesh, at: [5, 5, 0], file: meshes/flat.obj}\n"
                                  "models:\n  - {id: a, side: red, size: Q, at: [20, 20]}\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and out == ""
    assert err.splitlines() == [
        f"{p}:3: terrain[0].file: warning: 'meshes/flat.obj': mesh is not watertight; it loads, "
        f"but what is inside it may be misjudged",
        f"{p}:5: models[0].size: unknown size 'Q'; allowed: S, M, L, H, G, C, E"]


def test_a_token_placement_problem_names_the_line_of_its_at(capsys, tmp_path):
    # it named the token's first line (its id), while a model's names the line of at
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: w, shape: box, at: [20, 20, 0], size: [4, 4, 2]}\n"
                                  "models:\n  - id: a\n    side: red\n    size: M\n    at: [20, 20, 0]\n"
                                  "tokens:\n  - id: t1\n    kind: item\n    side: red\n    at: [20, 20, 1]\n"
                                  "  - id: t2\n    kind: item\n    side: red\n    hidden: false\n    at: [30, 30, 5]\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2
    assert [ln.split(": ")[0] for ln in err.splitlines()] == [f"{p}:8", f"{p}:13", f"{p}:18"]


def test_control_characters_and_line_breaks_in_names_are_refused(tmp_path, capsys):
    # they reached the terminal: an escape sequence cleared the screen, a line
    # break in the name forged a line of the summary
    p = write(tmp_path, "s.yaml", 'table: [36, 36]\nname: "Evil\\e[2J"\n'
                                  "description: |\n  two\n  lines are fine here\n"
                                  "models:\n  - {id: a, side: red, size: M, at: [5, 5], leader: true}\n"
                                  'stratagems:\n  red:\n    - {name: "X\\x1b[31m", text: "a\\nb", effect: {ap: 1}}\n'
                                  'tokens:\n  - {id: t, kind: item, side: red, at: [9, 9], item: "Gold\\nvalid: yes"}\n')
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and out == ""
    assert err.splitlines() == [
        f"{p}:2: name: a text may not hold the control character '\\x1b' (at character 5)",
        f"{p}:10: stratagems.red[0].name: a text may not hold the control character '\\x1b' (at character 2)",
        f"{p}:12: tokens[0].item: expected the Item's name on one line, got 2 lines"]
    # a folded name (name: >) ends with a line break: dropped
    p = write(tmp_path, "t.yaml", "table: [36, 36]\nname: >\n  Folded Name\n")
    assert load_scene(p).name == "Folded Name"


def test_a_size_in_lower_case_or_by_name_gets_a_did_you_mean(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                                  "  - {id: a, side: red, size: m, at: [5, 5]}\n"
                                  "  - {id: b, side: red, size: Large, at: [9, 5]}\n"
                                  "  - {id: c, side: red, size: Q, at: [13, 5]}\n")
    assert problems_of(p) == [
        f"{p}:3: models[0].size: unknown size 'm'; did you mean 'M'? (allowed: S, M, L, H, G, C, E)",
        f"{p}:4: models[1].size: unknown size 'Large'; did you mean 'L'? (allowed: S, M, L, H, G, C, E)",
        f"{p}:5: models[2].size: unknown size 'Q'; allowed: S, M, L, H, G, C, E"]


def test_a_key_that_is_a_number_or_null_is_named_as_written(tmp_path):
    # "[1]: unknown key" read as a list item, "None" is Python's word
    p = write(tmp_path, "s.yaml", "table: [36, 36]\n1: 2\nnull: 3\nmodels:\n"
                                  "  - {id: a, side: red, size: M, at: [5, 5], 3: x}\n"
                                  "deployment:\n  ~: [[0, 0], [36, 8]]\n")
    allowed = ("deployment, description, eldfall, games, models, name, norova, stratagems, table, terrain, tokens")
    assert problems_of(p) == [
        f"{p}:2: 1: unknown key for a scene; allowed: {allowed}",
        f"{p}:3: null: unknown key for a scene; allowed: {allowed}",
        f"{p}:5: models[0].3: unknown key for a model; allowed: at, base_mm, dismounted, facing, height_mm, id, "
        f"leader, mounted, profile, reserve, side, size, states, stats, tier",
        f"{p}:7: deployment.null: expected a side name, got nothing"]


def test_a_piece_too_thin_to_build_is_refused_at_its_line(tmp_path, capsys):
    # a prism 1e-9" high stopped the World: "cannot build the table: ValueError:
    # Height must be nonzero!", with no piece and no line
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: c, shape: prism, at: [13, 5, 0], points: [[0, 0], [1, 0], [0, 1]], "
                                  "height: 1e-9}\n"
                                  "  - {id: b, shape: box, at: [5, 5, 0], size: [1, 0.0001, 1]}\n"
                                  "  - {id: t, shape: prism, at: [9, 9, 0], points: [[-2, -1], [2, -1], [2, 1]], "
                                  "height: 0.01, tags: [area, forest]}\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and out == ""
    assert err.splitlines() == [
        f"{p}:3: terrain[0].height: must be at least 0.001 inches, got 1e-09 (lengths are in inches)",
        f"{p}:4: terrain[1].size[1]: must be at least 0.001 inches, got 0.0001 (lengths are in inches)"]


def test_a_piece_the_world_cannot_build_is_named_at_its_line(tmp_path, monkeypatch):
    from engine import shapes
    from tools.loading import build_world
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: a, shape: box, at: [5, 5, 0], size: [1, 1, 1]}\n"
                                  "  - {id: b, shape: cylinder, at: [9, 5, 0], radius: 1, height: 1}\n")
    scene = load_scene(p)

    def broken(radius, height, sections=48):
        raise ValueError("Height must be nonzero!")
    monkeypatch.setattr(shapes, "cylinder", broken)
    with pytest.raises(InputError) as info:
        build_world(scene)
    assert [str(x) for x in info.value.problems] == [
        f"{p}:4: terrain[1]: cannot build the cylinder 'b': Height must be nonzero!"]


def test_a_side_spelt_like_another_gets_a_warning(tmp_path, capsys):
    # "rde" made a third player, silently
    p = write(tmp_path, "s.yaml", "table: [36, 36]\ndeployment:\n  red: [[0, 0], [36, 8]]\n"
                                  "  blu: [[0, 28], [36, 36]]\nmodels:\n"
                                  "  - {id: a, side: red, size: M, at: [5, 5]}\n"
                                  "  - {id: b, side: red, size: M, at: [9, 5]}\n"
                                  "  - {id: c, side: rde, size: M, at: [13, 5]}\n"
                                  "  - {id: d, side: blue, size: M, at: [5, 30]}\n"
                                  "  - {id: e, side: blue, size: M, at: [9, 30]}\n")
    assert [str(w) for w in load_scene(p).warnings] == [
        f"{p}:4: deployment.blu: warning: no model is on side 'blu'; did you mean 'blue'?",
        f"{p}:8: models[2].side: warning: 'c' is the only model on side 'rde'; did you mean 'red'?"]


def test_a_party_file_given_as_a_scene_is_said_in_one_line(capsys):
    rc, out, err = run_cli(capsys, "check", "models/sample-red.yaml")
    assert rc == 2 and out == ""
    assert err.splitlines() == ["models/sample-red.yaml: this is a party file (party, profiles), not a scene; "
                                "a scene has a table, and its models name profiles as party#name"]


def test_an_unknown_command_is_one_line_with_a_suggestion(capsys):
    # it printed the whole help on stdout and said nothing of what was wrong
    listed = "check, los, aoe, measure, move, reach, play, replay, simulate, view, demo, bench"
    rc, out, err = run_cli(capsys, "chekc", "scenes/open.yaml")
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"eldfall: unknown command 'chekc'; did you mean 'check'? (commands: {listed})"]
    rc, out, err = run_cli(capsys, "--bogus")
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"eldfall: expected a command ({listed}), got only '--bogus'"]
    rc, out, err = run_cli(capsys, "--help")
    assert rc == 0 and "usage: eldfall" in out


def test_a_game_block_key_the_rules_never_read_gets_a_warning(tmp_path):
    # eldfall: {rounds: 3} was silently ignored (the game played 5 rounds), and
    # norova: {flying: "yes please"} silently meant flying
    p = write(tmp_path, "s.yaml", "table: [24, 24]\neldfall: {rounds: 3}\nnorova: {flyng: true}\n")
    assert [str(w) for w in load_scene(p).warnings] == [
        f"{p}:2: eldfall.rounds: warning: not read by the eldfall rules: ignored (rules settings are given "
        f"with --set KEY=VALUE)",
        f"{p}:3: norova.flyng: warning: not read by the norova rules: ignored; did you mean 'flying'?"]
    p = write(tmp_path, "t.yaml", "table: [24, 24]\nnorova:\n  flying: yes please\n")
    assert problems_of(p) == [f"{p}:3: norova.flying: expected true or false, got 'yes please'"]
    assert load_scene("scenes/norova-arena.yaml").warnings == ()


def test_a_table_in_millimetres_gets_a_warning(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [914, 914]\n")
    assert [str(w) for w in load_scene(p).warnings] == [
        f"{p}:1: table: warning: a 914 x 914 table is 76 feet across: lengths are in inches "
        f"(millimetres only in keys ending in _mm)"]
    assert load_scene(write(tmp_path, "t.yaml", "table: [48, 72]\n")).warnings == ()


def test_an_empty_models_dir_is_a_command_line_problem(capsys):
    # it looked the parties up in the current folder: "no party 'sample-red' in ./", once per model
    rc, out, err = run_cli(capsys, "check", "scenes/open.yaml", "--models-dir", "")
    assert rc == 2 and out == ""
    assert err.splitlines() == ["<command line>: --models-dir: expected a folder, got an empty text"]


def test_a_single_word_where_a_list_may_be_is_named_without_an_index(tmp_path):
    # "tags[0]" named an item of a list the user never wrote
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: w, shape: box, at: [1, 1, 0], size: [1, 1, 1], tags: climable}\n")
    assert problems_of(p) == [f"{p}:3: terrain[0].tags: unknown value 'climable'; did you mean 'climbable'? "
                              f"(allowed: climbable, ladder, area, forest, dark, difficult, mountainous, "
                              f"shallow-water, deep-water, dense, hazy, unscalable, dangerous)"]



def test_check_counts_one_piece_in_the_singular(tmp_path, capsys):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: w, shape: box, at: [1, 1, 0], size: [1, 1, 1]}\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 0 and "terrain: 1 piece: 1 box" in out.splitlines()


@pytest.mark.parametrize("name, data", [
    ("bad.obj", b"v 0 0 0\nv a b c\nv 0 1 0\nf 1 2 3\n"),                       # a word for a number
    ("bad.ply", b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\n"
                b"property float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n"
                b"0 0 0\n1 0 0\n0 1\n"),                                            # a vertex cut short
])
def test_a_damaged_mesh_is_not_said_in_numpys_words(tmp_path, name, data):
    # "string or file could not be read to its end due to unmatched data",
    # "setting an array element with a sequence."
    write(tmp_path, f"meshes/{name}", data)
    p = _mesh_scene(tmp_path, name)
    fmt = name[-3:].upper()
    assert problems_of(p) == [f"{p}:3: terrain[0].file: 'meshes/{name}': cannot read mesh: not a readable "
                              f"{fmt} file (damaged, cut short or not a{'n' if fmt == 'OBJ' else ''} {fmt})"]
