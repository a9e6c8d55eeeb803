"""Review 9, the leftovers: an Incapacitated model is Crouched, a base on a slope stands on
the slope under its centre, a Flying model is measured where `eldfall move` lands it,
`eldfall reach` tells a refused movement's real allowance, empty output folders are
refused, `eldfall check` says what `eldfall play` will refuse, and a number too large
for a float is said in words.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165"); Small base 25 mm
(radius 0.49213"). A base's own height is 3.5 mm (0.1378").
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine import sight
from engine.measure import measuring_z
from engine.scene import load_scene
from engine.units import base_height_mm, mm
from engine.world import World
from cli_run import run_cli  # noqa: E402
from scene_files import problems_of, write

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# ------------------------------------------------------------ 1. Incapacitated is Crouched
# Open ground: nothing hides t from a. Crouched, t keeps only its base's height and counts
# as in Light cover (states page: "Crouched: grants Light Cover"); Incapacitated "immediately
# enters the Crouched State" (eldfall-states.txt).
DOWN = """
games: [eldfall]
table: [24, 24]
models:
  - {id: a, side: red, profile: "sample-red#archer", at: [4, 12], facing: 0}
  - {id: t, side: blue, profile: "sample-blue#warden", at: [14, 12], facing: 180, states: [Incapacitated]}
"""


def test_an_incapacitated_model_in_a_scene_is_crouched_in_the_world(tmp_path):
    p = write(tmp_path, "down.yaml", DOWN)
    scene = load_scene(str(p))
    t = next(m for m in scene.models if m.id == "t")
    assert set(t.states) == {"Incapacitated", "Crouched"}
    w = World(scene)
    assert w.hitbox("t").height == pytest.approx(mm(base_height_mm()))
    r = sight.los(w, "a", "t", fraction=True)
    assert r.los and r.cover == "light", r.cover_reason


def test_eldfall_los_and_a_game_from_the_scene_agree_on_an_incapacitated_model(tmp_path, capsys):
    from tools import gameplay
    p = write(tmp_path, "down.yaml", DOWN)
    rc, out, err = run_cli(capsys, "los", str(p), "a", "t", "--json")
    assert rc == 0 and err == ""
    los = json.loads(out)
    assert los["los"] and los["cover"] == "light"
    _, g = gameplay.new_game(str(p), "eldfall", seed=1)
    assert {"Incapacitated", "Crouched"} <= set(g.models["t"].states)
    assert g.geo.world.hitbox("t").height == pytest.approx(mm(base_height_mm()))
    c = g.geo.cover("a", "t")
    assert (c.los, c.cover) == (True, "light")


def test_incapacitated_and_flying_together_is_one_line(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n"
              "  - {id: a, side: red, size: M, at: [4, 12], states: [Flying, Incapacitated]}\n")
    assert problems_of(p) == [f"{p}:3: models[0].states: an Incapacitated model cannot be Flying "
                              "(Incapacitated cancels Flying at once): give one of them"]


# ------------------------------------------------------------ 2. a base on a slope
# scenes/heights.yaml's hill (a heightfield, 3" at its top, 1.5" halfway) and the cliff ramp
# (a wedge rising 4" over 8": 0.5" per inch, 1.5" up at x 18). The World used to lift a base
# on a slope by up to the 0.05" level tolerance (1.5408 where the slope under the centre is
# 1.50): samples of the uphill half within the tolerance counted as a support.
HEIGHTS = (ROOT / "scenes" / "heights.yaml").read_text(encoding="utf-8").split("\nmodels:")[0]


@pytest.mark.parametrize("where,size,z", [
    ([12, 27], "M", None),            # on the hill, no z: 1.5333 before
    ([6.5, 25.5], "S", 1.5),          # on the hill, the scene's z: 1.5410 before
    ([10, 25], "S", None),            # 1.5450 before
    ([18, 30], "M", 1.5),             # on the cliff ramp
])
def test_a_model_on_a_slope_stands_on_the_slope_under_its_centre(tmp_path, where, size, z):
    at = where + ([z] if z is not None else [])
    p = write(tmp_path, "h.yaml", HEIGHTS + f"\nmodels:\n  - {{id: m, side: red, size: {size}, at: {at}}}\n")
    w = World(load_scene(str(p)))
    hb = w.hitbox("m")
    under = float(w.surface_height([[hb.x, hb.y]])[0])
    assert under == pytest.approx(1.5)
    assert hb.z == pytest.approx(under, abs=1e-9)
    assert w.stand_z(hb.x, hb.y, hb.radius) == pytest.approx(under, abs=1e-9)
    assert w.stand_z(hb.x, hb.y, hb.radius, near_z=under) == pytest.approx(under, abs=1e-9)


def test_a_base_given_the_height_of_its_uphill_side_or_half_over_a_step_still_stands():
    # the movement engine rests a base on a slope by its highest support (the uphill rim:
    # 1.5 + 0.63 x 0.5 on the ramp); the World must call that standing (not hanging), and a
    # base half over a step, given a z a hair under the step's top, stands on the step
    w = World(load_scene("scenes/heights.yaml"))
    r = mm(32) / 2
    rim = 1.5 + r * 0.5
    assert w.stand_z(18, 30, r, near_z=rim) == pytest.approx(rim, abs=0.02)
    # the cliff (top 4") from x 23: a base centred at x 22.6 overhangs it by 0.23"
    assert w.stand_z(22.6, 31, r, near_z=3.98) == pytest.approx(4.0)
    assert w.stand_z(22.6, 31, r, near_z=4.0) == pytest.approx(4.0)


# ------------------------------------------------------------ 3. a Flying model is measured where it lands
# f flies 5" up with its base overhanging a 2" box (x 9.5-11.5) by 0.13"; its centre is over
# the table. `eldfall move` lands it on the box (2"); `eldfall measure` used the table (0").
FLY = """
games: [eldfall]
table: [24, 24]
terrain:
  - {id: box, shape: box, at: [10.5, 12, 0], size: [2, 4, 2]}
models:
  - {id: f, side: red, size: M, at: [12, 12, 5], facing: 0, states: [Flying], stats: {SPD: 4, AG: 3}}
  - {id: b, side: blue, size: M, at: [18, 12], facing: 180, stats: {SPD: 4, AG: 3}}
"""


def test_measure_reads_a_flying_model_on_the_surface_move_lands_it_on(tmp_path, capsys):
    p = write(tmp_path, "fly.yaml", FLY)
    rc, out, _ = run_cli(capsys, "move", str(p), "f", "--to", "12,12", "--mode", "walk", "--json")
    assert rc == 0
    land = json.loads(out)["end"][2]
    assert land == pytest.approx(2.0)
    rc, out, _ = run_cli(capsys, "measure", str(p), "f", "b", "--json")
    assert rc == 0
    assert json.loads(out)["height_difference"] == pytest.approx(0.0 - land)
    assert measuring_z(World(load_scene(str(p))), "f") == pytest.approx(land)


# ------------------------------------------------------------ 4. reach on a refused movement
IMMOBILE = """
games: [eldfall]
table: [24, 24]
models:
  - {id: a, side: red, size: M, at: [6, 12], facing: 0, states: [Immobilized], stats: {SPD: 4, AG: 3}}
  - {id: c, side: red, size: M, at: [6, 6], facing: 0, states: [Incapacitated], stats: {SPD: 4, AG: 3}}
  - {id: b, side: blue, size: M, at: [18, 12], facing: 180, stats: {SPD: 4, AG: 3}}
"""


@pytest.mark.parametrize("model,mode,allowance,why", [
    ("a", "walk", 4, "Immobilized: the model cannot move"),
    ("c", "run", 4, "Incapacitated: the model cannot move"),      # Crouched: SPD 2, Run 4
])
def test_reach_on_a_refused_movement_shows_the_real_allowance_and_why(tmp_path, capsys, model, mode,
                                                                       allowance, why):
    p = write(tmp_path, "imm.yaml", IMMOBILE)
    far = "8,12" if model == "a" else "8,6"
    rc, out, _ = run_cli(capsys, "move", str(p), model, "--to", far, "--mode", mode, "--json")
    mv = json.loads(out)
    assert rc == 0 and not mv["legal"] and mv["allowance"] == allowance
    rc, out, _ = run_cli(capsys, "reach", str(p), model, "--mode", mode, "--json")
    rj = json.loads(out)
    assert rc == 0 and rj["allowance"] == mv["allowance"] and rj["reason"] == why and rj["cells"] == 0
    rc, out, _ = run_cli(capsys, "reach", str(p), model, "--mode", mode)
    lines = out.splitlines()
    assert lines[0].startswith(f'{model} {mode}: allowance {allowance}", 0 end cells')
    assert lines[1] == f"  cannot move: {why}"


# ------------------------------------------------------------ 5. empty output folders
def test_view_out_empty_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scene = str(ROOT / "scenes" / "heights.yaml")
    for extra in (["--offscreen", "--frames", "1"], []):
        rc, out, err = run_cli(capsys, "view", scene, "--out", "", *extra)
        assert (rc, out) == (2, "")
        assert err.splitlines() == ["<command line>: --out: expected a folder, got an empty text"]
    assert list(tmp_path.iterdir()) == []


def test_view_out_where_a_frame_is_a_folder_is_one_line(tmp_path, capsys):
    out_dir = tmp_path / "v"
    (out_dir / "frame-0000.png").mkdir(parents=True)
    rc, out, err = run_cli(capsys, "view", "scenes/heights.yaml", "--offscreen", "--frames", "1",
                           "--out", str(out_dir))
    assert (rc, out) == (2, "")
    assert err.splitlines() == [f"<command line>: --out: '{out_dir}': cannot write frame-0000.png there: "
                                "it is a folder"]


def test_los_picture_empty_is_one_line(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    scene = str(ROOT / "scenes" / "heights.yaml")
    rc, out, err = run_cli(capsys, "los", scene, "red-mage", "blue-scout", "--picture", "")
    assert (rc, out) == (2, "")
    assert err.splitlines() == ["<command line>: --picture: expected a folder, got an empty text"]
    rc, out, err = run_cli(capsys, "los", scene, "--all", "--picture", "")
    assert (rc, out) == (2, "")
    assert err.splitlines() == ["<command line>: --picture: pictures are of one VIEWER and TARGET, not of --all"]
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------ 6. check says what play refuses
SIDES = {
    1: "  - {id: a, side: red, size: M, at: [6, 12], stats: {SPD: 4, AG: 3, HP: 2}}\n",
    2: "  - {id: a, side: red, size: M, at: [6, 12], stats: {SPD: 4, AG: 3, HP: 2}}\n"
       "  - {id: b, side: blue, size: M, at: [12, 12], stats: {SPD: 4, AG: 3, HP: 2}}\n",
    3: "  - {id: a, side: red, size: M, at: [6, 12], stats: {SPD: 4, AG: 3, HP: 2}}\n"
       "  - {id: b, side: blue, size: M, at: [12, 12], stats: {SPD: 4, AG: 3, HP: 2}}\n"
       "  - {id: c, side: green, size: M, at: [18, 12], stats: {SPD: 4, AG: 3, HP: 2}}\n",
}
NAMED = {1: "1 side (red)", 3: "3 sides (red, blue, green)"}


@pytest.mark.parametrize("n", [1, 3])
def test_check_warns_of_a_scene_play_refuses(tmp_path, capsys, n):
    p = write(tmp_path, "s.yaml", "games: [eldfall]\ntable: [24, 24]\nmodels:\n" + SIDES[n])
    warning = f"{p}:4: models: warning: the scene has {NAMED[n]}; an Eldfall game (eldfall play) needs exactly two"
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 0 and err == ""
    assert out.splitlines()[-1] == warning
    rc, out, _ = run_cli(capsys, "check", str(p), "--json")
    assert rc == 0 and json.loads(out)["warnings"] == [warning]
    rc, out, err = run_cli(capsys, "play", str(p), "--bots")
    assert rc == 2 and "Eldfall is played by two sides" in err


def test_check_has_no_such_warning_for_two_sides(tmp_path, capsys):
    p = write(tmp_path, "s.yaml", "games: [eldfall]\ntable: [24, 24]\nmodels:\n" + SIDES[2])
    rc, out, err = run_cli(capsys, "check", str(p), "--json")
    assert rc == 0 and json.loads(out)["warnings"] == []


def test_check_warns_of_a_norova_scene_with_one_side(tmp_path, capsys):
    p = write(tmp_path, "s.yaml", "games: [norova]\ntable: [24, 24]\nmodels:\n" + SIDES[1])
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 0
    assert out.splitlines()[-1] == (f"{p}:4: models: warning: the scene has 1 side (red); a Norova fight "
                                    "(eldfall play --game norova) needs at least two")


# ------------------------------------------------------------ 7. a number too large for a float
def test_a_number_too_large_for_a_float_is_said_in_words(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
              "  - {id: a, side: red, size: M, at: [5, 5], facing: 1e400}\n"
              "  - {id: b, side: red, size: M, at: [10, 5], facing: 1.0e+400}\n"
              "  - {id: c, side: red, size: M, at: [15, 5], facing: -1e999}\n"
              "  - {id: d, side: red, size: M, at: [20, 5], stats: {SPD: 1e400}}\n"
              "  - {id: e, side: red, size: M, at: [25, 5], facing: .inf}\n")
    assert problems_of(p) == [
        f"{p}:3: models[0].facing: 1e400 is too large",
        f"{p}:4: models[1].facing: 1.0e+400 is too large",
        f"{p}:5: models[2].facing: -1e999 is too large a negative number",
        f"{p}:6: models[3].stats.SPD: 1e400 is too large",
        f"{p}:7: models[4].facing: expected a finite number, got inf",
    ]
