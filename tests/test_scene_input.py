"""Bad input to the loaders and commands: files that are not files, the
largest grids the docs allow, every problem told once and in a sensible
order, mesh errors that say what is wrong, exponent numbers, and output
folders that are files. Exit 2, one line per problem, never a traceback.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.scene import load_scene
from tools.cli import build_parser, main
from scene_files import problems_of, write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
SKIRMISH = "scenes/skirmish.yaml"
STATS = "{STA: 2, SPD: 5, ARM: 2, HP: 2, OFF: 10, DEF: 10, ACC: 15, INT: 11, AG: 12, T: 10, M: 13}"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def within(seconds: float, fn):
    """``fn()``'s result or exception, or fail if it does not return in time
    (a FIFO read would wait for a writer for ever)."""
    box: dict = {}

    def target():
        try:
            box["value"] = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the test
            box["error"] = exc

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"still reading after {seconds} s"
    if "error" in box:
        raise box["error"]
    return box.get("value")


def cli(capsys, *argv) -> tuple[int, list[str], list[str]]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out.splitlines(), err.splitlines()


# ------------------------------------------------- 1. not a regular file
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_scene_is_refused_not_waited_on(tmp_path):
    p = tmp_path / "s.yaml"
    os.mkfifo(p)
    with pytest.raises(InputError) as info:
        within(10, lambda: load_scene(p))
    assert [str(x) for x in info.value.problems] == [f"{p}: not a regular file (a FIFO)"]


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="needs /dev/null")
def test_a_device_scene_is_refused(capsys):
    # /dev/zero would be read for ever; /dev/null shows the same check safely
    assert problems_of("/dev/null") == ["/dev/null: not a regular file (a character device)"]
    rc, out, err = cli(capsys, "check", "/dev/null")
    assert rc == 2 and err == ["/dev/null: not a regular file (a character device)"]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
def test_a_fifo_party_file_is_refused(tmp_path):
    from engine.profiles import load_party
    models = tmp_path / "models"
    models.mkdir()
    os.mkfifo(models / "p.yaml")
    with pytest.raises(InputError) as info:
        within(10, lambda: load_party("p", models))
    assert len(info.value.problems) == 1
    assert str(info.value.problems[0]).endswith("p.yaml: not a regular file (a FIFO)")


# ------------------------------------------- 2. the largest heightfield
def heightfield_scene(tmp: Path, n: int, pieces: int = 1) -> Path:
    row = "[" + ", ".join(["1"] * n) + "]"
    grid = "\n".join(f"      - {row}" for _ in range(n))
    text = "table: [36, 36]\nterrain:\n"
    for k in range(pieces):
        text += f"  - id: h{k}\n    shape: heightfield\n    at: [18, 18, 0]\n    size: [10, 10]\n    heights:\n{grid}\n"
    return write(tmp, "s.yaml", text)


def test_a_513_by_513_heightfield_loads(tmp_path):
    from engine.scene import MAX_GRID
    from engine.validate import MAX_GRID_SIDE
    assert MAX_GRID == MAX_GRID_SIDE == 513
    scene = load_scene(heightfield_scene(tmp_path, 513))
    assert len(scene.terrain[0].heights) == 513 and len(scene.terrain[0].heights[0]) == 513


def test_a_document_beyond_the_value_limit_is_still_refused(tmp_path):
    from engine.validate import MAX_VALUES
    msgs = problems_of(heightfield_scene(tmp_path, 513, pieces=2))
    assert len(msgs) == 1 and f"document too large (over {MAX_VALUES} values)" in msgs[0]


def test_aliases_are_still_limited_below_the_value_limit(tmp_path):
    # 11 distinct values, 10**6 through aliases
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 6):
        lines.append(f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]")
    msgs = problems_of(write(tmp_path, "s.yaml", "\n".join(lines) + "\n"))
    assert len(msgs) == 1 and "document too large (over 200000 values, aliases expanded)" in msgs[0]


# ------------------------------------- 3. a bad party: first, and once
def bad_party(tmp: Path, stats: str, spells: str = "") -> Path:
    models = tmp / "models"
    write(models, "p.yaml", f"party: P\nprofiles:\n  a:\n    stats: {stats}\n  b:\n    stats: {STATS}\n{spells}")
    return models


def test_a_bad_party_is_listed_first_and_named_once(tmp_path, capsys):
    models = bad_party(tmp_path, STATS.replace("HP: 2, ", ""))
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
              "  - {id: a1, side: red, profile: p#a, at: [5, 5]}\n"
              "  - {id: a2, side: red, profile: p#a, at: [10, 5]}\n"
              "  - {id: b1, side: red, profile: p#b, at: [15, 5]}\n"
              "  - {id: x, side: red, profile: p#a, at: [20, 5], facing: north}\n")
    rc, out, err = cli(capsys, "check", str(p), "--models-dir", str(models))
    assert rc == 2
    party = [e for e in err if "p.yaml:" in e]
    assert len(party) == 1 and "profiles.a.stats.HP: missing" in party[0]
    assert err[0] == party[0]                                        # the party's problem first
    listed = [e for e in err if "has errors" in e]
    assert listed == [f"{p}:3: models[0].profile: party 'p' has errors (listed above)"]
    assert err[-1] == f"{p}:6: models[3].facing: expected a number, got 'north'"   # the scene's own, still told


def test_a_bad_spell_is_told_once_not_per_model(tmp_path, capsys):
    spells = ("    affinities: [Fire]\n    spells:\n"
              "      - {name: Bolt, type: Sorcery, affinity: Water, mana: 1}\n")
    models = bad_party(tmp_path, STATS, spells)
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n" + "".join(
        f"  - {{id: m{k}, side: red, profile: p#{'ab'[k % 2]}, at: [{5 + 4 * k}, 5]}}\n" for k in range(6)))
    rc, out, err = cli(capsys, "check", str(p), "--models-dir", str(models))
    assert rc == 2 and len(err) == 2
    assert "profiles.b.spells[0].affinity: 'Water' is not among the profile's affinities" in err[0]
    assert err[1] == f"{p}:3: models[0].profile: party 'p' has errors (listed above)"


# ------------------------------------------ 4. every problem reported
def test_every_bad_value_of_a_grid_is_reported(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n  - id: hill\n    shape: heightfield\n"
              "    at: [9, 27, 0]\n    size: [12, 12]\n    heights:\n"
              "      - [0, 1, 2]\n      - [0, -1, 2]\n      - [0, x, 2]\n      - [0, 1]\n      - 7\n")
    assert problems_of(p) == [
        f"{p}:9: terrain[0].heights[1][1]: must not be negative, got -1",
        f"{p}:10: terrain[0].heights[2][1]: expected a number, got 'x'",
        f"{p}:11: terrain[0].heights[3]: expected 3 values like row 0, got 2",
        f"{p}:12: terrain[0].heights[4]: expected a row (a list of numbers), got 7",
    ]


def test_a_grid_full_of_bad_values_lists_50_and_counts_the_rest(tmp_path):
    rows = "\n".join("      - [" + ", ".join(["x"] * 20) + "]" for _ in range(10))
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n  - id: h\n    shape: heightfield\n"
              f"    at: [18, 18, 0]\n    size: [10, 10]\n    heights:\n{rows}\n")
    msgs = problems_of(p)
    assert len(msgs) == 51
    assert msgs[49] == f"{p}:10: terrain[0].heights[2][9]: expected a number, got 'x'"
    assert msgs[50] == f"{p}:10: terrain[0].heights[2][10]: and 150 more problems in this grid from here on (not listed)"


@pytest.mark.parametrize("bands, wants", [
    ('{"0-20": 0, "25-40": -6, "x": 1}',
     [":6: profiles.archer.items[0].bands: gap between bands (0-20 then 25-40)",
      """:6: profiles.archer.items[0].bands.x: expected a band such as "0-20", got 'x'"""]),
    ('{"0-20": far, "15-40": -6}',
     ["bands: bands overlap or are out of order (0-20 then 15-40)",
      "bands.0-20: expected a whole number, got 'far'"]),
])
def test_every_bad_band_and_every_gap_or_overlap_are_reported(tmp_path, capsys, bands, wants):
    models = tmp_path / "models"
    write(models, "p.yaml", f"party: P\nprofiles:\n  archer:\n    stats: {STATS}\n    items:\n"
          f"      - {{name: Bow, kind: ranged, pw: 11, bands: {bands}}}\n")
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n  - {id: a, side: red, profile: p#archer, at: [5, 5]}\n")
    rc, out, err = cli(capsys, "check", str(p), "--models-dir", str(models))
    assert rc == 2
    for want in wants:
        assert any(e.endswith(want) for e in err), (want, err)


# ------------------------------------------------- 5. mesh errors
def mesh_scene(tmp: Path, name: str, data: bytes) -> Path:
    (tmp / "meshes").mkdir(parents=True, exist_ok=True)
    (tmp / "meshes" / name).write_bytes(data)
    return write(tmp, "s.yaml", f"table: [36, 36]\nterrain:\n  - id: m\n    shape: mesh\n"
                                f"    file: meshes/{name}\n    at: [5, 5, 0]\n")


def test_a_nan_vertex_is_said_to_be_not_finite(tmp_path):
    p = mesh_scene(tmp_path, "nan.obj", b"v 0 0 0\nv 1 0 0\nv nan 1 0\nf 1 2 3\n")
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'meshes/nan.obj': cannot read mesh: vertex 3 has a "
                              "coordinate that is not a finite number (NaN or infinite)"]


def test_binary_garbage_obj_is_not_a_readable_obj(tmp_path):
    p = mesh_scene(tmp_path, "garb.obj", b"garbage\x00\xff\n")
    msgs = problems_of(p)
    assert msgs == [f"{p}:5: terrain[0].file: 'meshes/garb.obj': cannot read mesh: not a readable OBJ file "
                    "(binary bytes; an OBJ is text)"]
    p = mesh_scene(tmp_path, "latin.obj", b"v 0 0 0\nv 1 0 0\no caf\xe9\nv 0 1 0\nf 1 2 3\n")
    msgs = problems_of(p)
    assert msgs == [f"{p}:5: terrain[0].file: 'meshes/latin.obj': cannot read mesh: not a readable OBJ file "
                    "(line 3 is not UTF-8 text)"]


def test_a_ply_without_y_says_what_is_missing(tmp_path):
    p = mesh_scene(tmp_path, "b.ply", b"ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                      b"element face 1\nproperty list uchar int vertex_indices\nend_header\n"
                                      b"0\n1\n0\n3 0 1 2\n")
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'meshes/b.ply': cannot read mesh: the PLY vertex element "
                              "has no 'y' or 'z' property (it has: x)"]


# ------------------------------------------------ 6. exponent numbers
def test_exponents_without_a_dot_are_numbers(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [3.6e1, 36]\nterrain:\n  - id: h\n    shape: heightfield\n"
              "    at: [18, 18, 0]\n    size: [1e1, 10]\n    heights: [[0, 1e0], [2E-1, 1.0e0]]\n"
              "models:\n  - {id: a, side: red, size: M, at: [5, 5], facing: 9e1, stats: {SPD: 5e0}}\n")
    scene = load_scene(p)
    assert scene.table == (36.0, 36.0)
    assert scene.terrain[0].size == (10.0, 10.0)
    assert scene.terrain[0].heights == ((0.0, 1.0), (0.2, 1.0))
    assert scene.models[0].facing == 90.0 and scene.models[0].stats == {"SPD": 5}


def test_huge_tiny_and_non_finite_exponents_are_still_checked(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
              "  - {id: a, side: red, size: M, at: [5, 5], facing: 1e300}\n"
              "  - {id: b, side: red, size: M, at: [10, 5], facing: .nan}\n"
              "  - {id: c, side: red, size: M, at: [15, 5], facing: 1e999}\n"
              "  - {id: d, side: red, size: M, at: [20, 5], base_mm: -1e-9}\n"
              "  - {id: e, side: red, size: M, at: [25, 5], facing: e5}\n")
    assert problems_of(p) == [
        f"{p}:3: models[0].facing: must be within +-10000, got 1e+300",
        f"{p}:4: models[1].facing: expected a finite number, got nan",
        f"{p}:5: models[2].facing: 1e999 is too large",
        f"{p}:6: models[3].base_mm: must be greater than 0, got -1e-09",
        f"{p}:7: models[4].facing: expected a number, got 'e5'",
    ]


# ----------------------------------------- 7. an empty file: no line
@pytest.mark.parametrize("text", ["", "# nothing\n", "~\n", "---\n", "null\n", "\n\n"])
def test_an_empty_scene_names_the_file_alone(tmp_path, text):
    p = write(tmp_path, "s.yaml", text)
    assert problems_of(p) == [f"{p}: expected a mapping with table, terrain and models, got nothing"]


# --------------------------------------------- 8. output folders
@pytest.fixture
def afile(tmp_path) -> Path:
    f = tmp_path / "afile"
    f.write_text("keep me\n")
    return f


def assert_untouched(tmp_path, afile):
    assert afile.read_text() == "keep me\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


@pytest.mark.parametrize("argv", [
    ["reach", SKIRMISH, "red-champion", "--mode", "walk", "--picture", "{f}"],
    ["aoe", SKIRMISH, "--template", "circle-s", "--target", "blue-guard", "--by", "red-mage", "--picture", "{f}"],
    ["move", SKIRMISH, "red-champion", "--to", "14,10", "--mode", "walk", "--picture", "{f}"],
    ["move", SKIRMISH, "red-champion", "--to", "14,10", "--mode", "walk", "--picture", "{f}/sub"],
    ["demo", SKIRMISH, "--offscreen", "--out", "{f}"],
])
def test_a_picture_folder_that_is_a_file_is_one_line_exit_2(tmp_path, afile, capsys, argv):
    argv = [a.replace("{f}", str(afile)) for a in argv]
    rc, out, err = cli(capsys, *argv)
    flag = argv[-2]
    assert rc == 2 and out == []
    if argv[-1].endswith("/sub"):
        assert err == [f"<command line>: {flag}: '{afile}/sub': '{afile}' is a file, not a folder"]
    else:
        assert err == [f"<command line>: {flag}: '{afile}': is a file, not a folder"]
    assert_untouched(tmp_path, afile)


def test_output_folder_checks_and_makes(tmp_path, afile):
    from engine.validate import output_folder
    target = tmp_path / "new" / "deeper"
    assert output_folder(str(target)) == str(target)
    assert not (tmp_path / "new").exists()                       # checking writes nothing
    assert output_folder(str(target), create=True) == str(target)
    assert target.is_dir()
    with pytest.raises(InputError) as info:
        output_folder("", "--out")
    assert str(info.value) == "<command line>: --out: expected a folder, got an empty text"
    with pytest.raises(InputError) as info:
        output_folder(str(afile / "x" / "y"), "--out", create=True)
    assert str(info.value) == f"<command line>: --out: '{afile}/x/y': '{afile}' is a file, not a folder"


# ------------------------------------------------- 9. aoe --target help
def test_aoe_help_says_how_to_be_targetless(capsys):
    with pytest.raises(SystemExit):
        build_parser(only="aoe").parse_args(["aoe", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "omit it: Targetless" in out and "none: Targetless" not in out
