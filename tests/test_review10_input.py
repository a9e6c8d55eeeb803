"""Review 10, bad input: what a demanding user or a fuzzer still got past the loaders
and commands (a traceback, a silent default, a value never checked). Each case
is one line ``file:line: key.path: what is wrong`` and exit 2."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_run import run_cli
from engine.scene import load_scene
from scene_files import problems_of, write

ROOT = Path(__file__).resolve().parents[1]
SCENE = str(ROOT / "scenes" / "open.yaml")
STATUE = ROOT / "scenes" / "meshes" / "statue.stl"


def _one_line(rc, err, start: str) -> None:
    lines = err.strip().splitlines()
    assert rc == 2 and len(lines) == 1 and lines[0].startswith(start), (rc, lines)


# ---- meshes: the scale of every piece is checked, also of a file read before -----------

@pytest.mark.parametrize("scale, why", [
    (5000, "the mesh spans more than 1000 inches after scale 5000"),
    (1e-6, "the mesh spans less than 0.001 inches after scale 1e-06"),
])
def test_a_mesh_read_before_is_checked_again_at_its_own_scale(tmp_path, scale, why):
    (tmp_path / "statue.stl").write_bytes(STATUE.read_bytes())
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: a, shape: mesh, file: statue.stl, at: [10, 10, 0]}\n"
                                  f"  - {{id: b, shape: mesh, file: statue.stl, at: [20, 20, 0], scale: {scale}}}\n")
    assert problems_of(p) == [f"{p}:4: terrain[1].file: 'statue.stl': cannot read mesh: {why} "
                              "(meshes are in inches)"]


def test_the_same_mesh_at_two_good_scales_still_loads(tmp_path):
    (tmp_path / "statue.stl").write_bytes(STATUE.read_bytes())
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: a, shape: mesh, file: statue.stl, at: [10, 10, 0]}\n"
                                  "  - {id: b, shape: mesh, file: statue.stl, at: [20, 20, 0], scale: 2}\n")
    assert [t.scale for t in load_scene(p).terrain] == [1.0, 2.0]


# ---- party files: a range band reaches at most 120" (never inf) ---------------------------

def _party_scene(tmp: Path, band: str) -> Path:
    write(tmp, "models/p.yaml",
          "party: P\ngame: eldfall\nprofiles:\n  x:\n    name: X\n    size: M\n"
          "    stats: {STA: 2, SPD: 5, ARM: 2, HP: 2, OFF: 10, DEF: 10, ACC: 15, INT: 11, AG: 12, T: 10, M: 13}\n"
          f"    items:\n      - {{name: Bow, kind: ranged, pw: 11, stk: 2, bands: {{\"{band}\": 0}}}}\n")
    return write(tmp, "s.yaml", "table: [36, 36]\nmodels:\n  - {id: a, side: red, profile: p#x, at: [5, 5]}\n")


def test_a_band_written_with_hundreds_of_digits_is_not_an_endless_band(tmp_path):
    band = "0-" + "9" * 400         # float() reads it as inf: the JSON of measure said Infinity
    p = _party_scene(tmp_path, band)
    lines = problems_of(p, models_dir=tmp_path / "models")
    assert len(lines) == 2 and lines[0].endswith(
        "a band may reach at most 120 inches (as far as a spell's range), got a number of 400 characters"), lines
    assert lines[0].startswith(str(tmp_path / "models" / "p.yaml") + ":9: profiles.x.items[0].bands.")


def test_a_band_past_a_spells_longest_range_is_refused(tmp_path):
    p = _party_scene(tmp_path, "0-121")
    lines = problems_of(p, models_dir=tmp_path / "models")
    assert lines[0] == (f"{tmp_path / 'models' / 'p.yaml'}:9: profiles.x.items[0].bands.0-121: a band may "
                        "reach at most 120 inches (as far as a spell's range), got '0-121'")
    _party_scene(tmp_path, "0-120")
    assert load_scene(p, models_dir=tmp_path / "models").models[0].profile.weapons[0].bands == ((0.0, 120.0, 0),)


# ---- eldfall reach -------------------------------------------------------------------------

@pytest.mark.parametrize("res", ["1e12", "99999999999999999999", "36.5"])
def test_reach_refuses_a_cell_wider_than_the_table(capsys, res):
    rc, out, err = run_cli(capsys, "reach", SCENE, "red-archer", "--mode", "walk", "--resolution", res)
    _one_line(rc, err, f"<command line>: --resolution: at most the table's shorter side (36\"), got {res}")
    assert out == ""


def test_reach_refuses_an_empty_path_to(capsys):
    rc, out, err = run_cli(capsys, "reach", SCENE, "red-archer", "--mode", "walk", "--path-to", "")
    _one_line(rc, err, "<command line>: --path-to: expected X,Y or X,Y,Z in inches, got ''")
    assert out == ""


# ---- empty names and counts on the command line --------------------------------------------

@pytest.mark.parametrize("argv, line", [
    (["play", "", "--bots"], "<command line>: expected a scene file, got an empty text"),
    (["simulate", "", "--jobs", "1"], "<command line>: expected a scene file, got an empty text"),
    (["replay", ""], "<command line>: expected a game log, got an empty text"),
    (["play", SCENE, "--bots", "--log", ""], "<command line>: --log: expected a file name for the log, got an empty text"),
    (["play", SCENE, "--bots", ""], "<command line>: --bots: expected KIND[,KIND], got an empty text"),
    (["simulate", SCENE, "--bots", "", "--jobs", "1"], "<command line>: --bots: expected KIND[,KIND], got an empty text"),
])
def test_an_empty_name_is_a_command_line_problem(capsys, argv, line):
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 2 and err.strip().splitlines() == [line] and out == ""


def test_simulate_refuses_a_huge_game_count_before_any_game(capsys, monkeypatch):
    import tools.cmd_simulate as cmd
    # without the limit the seeds of 10**20 games filled the memory: never get there
    monkeypatch.setattr(cmd, "simulate", lambda *a, **k: pytest.fail("simulate() was reached"))
    monkeypatch.setattr("tools.gameplay.new_game", lambda *a, **k: pytest.fail("a game was set up"))
    rc, out, err = run_cli(capsys, "simulate", SCENE, "--games", "99999999999999999999")
    assert rc == 2 and err.strip().splitlines() == [
        "<command line>: --games: at most 1000000, got 99999999999999999999"] and out == ""


# ---- replay: edited logs -------------------------------------------------------------------

@pytest.fixture(scope="module")
def good_log(tmp_path_factory):
    """The lines of a real one-round log of SCENE."""
    from tools.cli import main
    log = tmp_path_factory.mktemp("log") / "g.jsonl"
    assert main(["play", SCENE, "--bots", "--set", "rounds=1", "--quiet", "--log", str(log)]) == 0
    return log.read_text().splitlines()


def _edited(tmp_path, lines, header=None, line=None, text=None) -> str:
    lines = list(lines)
    if header:
        h = json.loads(lines[0])
        header(h)
        lines[0] = json.dumps(h)
    if line is not None:
        lines[line - 1] = text
    p = tmp_path / "edited.jsonl"
    p.write_text("\n".join(lines) + "\n")
    return str(p)


@pytest.mark.parametrize("edit", [
    lambda h: h["units"][0].__setitem__("stats", "x"),          # AttributeError in the rules
    lambda h: h["units"][0].__setitem__("at", []),               # IndexError
    lambda h: h["units"][0]["weapons"][0].__setitem__("bands", 1.5),   # TypeError during an action
])
def test_replay_of_an_edited_unit_is_one_line_at_the_header(tmp_path, capsys, good_log, edit):
    path = _edited(tmp_path, good_log, header=edit)
    rc, out, err = run_cli(capsys, "replay", path)
    _one_line(rc, err, f"{path}:1: units: cannot rebuild the eldfall game from the header (an edited log?): ")


@pytest.mark.parametrize("value, why", [
    ("9" * 5000, "a whole number of more than 4300 digits"),
    ("[" * 100_000 + "]" * 100_000, "nested too deeply to read"),
])
def test_replay_of_json_python_cannot_read_gives_its_line(tmp_path, capsys, good_log, value, why):
    line4 = good_log[3]
    ev = json.loads(line4)
    key = next(k for k, v in ev["data"].items() if isinstance(v, int))
    text = line4.replace(f'"{key}":{ev["data"][key]}', f'"{key}":{value}', 1)
    path = _edited(tmp_path, good_log, line=4, text=text)
    rc, out, err = run_cli(capsys, "replay", path)
    assert rc == 2 and err.strip().splitlines() == [f"{path}:4: invalid JSON: {why}"]
    # eldfall view --log reads the log first, the same way
    from engine.errors import InputError
    from tools.cmd_view import _check_log
    with pytest.raises(InputError) as info:
        _check_log(path)
    assert [str(p) for p in info.value.problems] == [f"{path}:4: invalid JSON: {why}"]
