"""Review 13: bad input, the table world's loading, eldfall replay's log header."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli_run import run_cli
from tests.scene_files import write

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    """A log of a game on a copy of scenes/open.yaml, its setup only (no action yet)."""
    from rules.core.log import EventLog
    from tools import gameplay
    d = tmp_path_factory.mktemp("replay")
    scene = d / "open.yaml"
    shutil.copy(ROOT / "scenes" / "open.yaml", scene)
    log = EventLog(d / "game.log")
    gameplay.new_game(str(scene), None, 3, log=log)
    log.close() if hasattr(log, "close") else None
    return d / "game.log"


def _edited(logged: Path, tmp_path: Path, edit) -> Path:
    lines = logged.read_text(encoding="utf-8").split("\n")
    header = json.loads(lines[0])
    edit(header)
    lines[0] = json.dumps(header, sort_keys=True, separators=(",", ":"))
    out = logged.parent / f"edited-{tmp_path.name}.log"
    out.write_text("\n".join(lines), encoding="utf-8")
    return out


def test_an_untouched_log_replays(capsys, logged):
    rc, out, err = run_cli(capsys, "replay", str(logged))
    assert rc == 0, err
    assert "state hash:" in out


def _set_hp(h):
    h["units"][0]["stats"]["HP"] = 9


def _move(h):
    h["units"][1]["at"] = [30.0, 30.0, 0.0]


def _base(h):
    h["units"][0]["base"] = -1


@pytest.mark.parametrize("edit, where, said", [
    # the replay played the header's units: a model given 9 HP by hand replayed as another game
    (_set_hp, "units[0] (red-archer).stats.HP", "the log has 9, the scene gives 2"),
    (_move, "units[1] (red-champion).at[0]", "the log has 30.0, the scene gives 6.0"),
    (_base, "units[0] (red-archer).base", "the log has -1, the scene gives 1.2598"),
])
def test_a_header_unit_edited_by_hand_is_refused(capsys, logged, tmp_path, edit, where, said):
    log = _edited(logged, tmp_path, edit)
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2, out
    assert f"{log}:1: {where}: {said}" in err, err
    assert out == ""


def test_a_header_with_the_models_of_another_scene_is_refused(capsys, logged, tmp_path):
    log = _edited(logged, tmp_path, lambda h: h["units"].pop())
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2
    assert f"{log}:1: units: the log's models" in err and "are not the scene's" in err, err


def test_a_header_scene_block_edited_by_hand_is_refused(capsys, logged, tmp_path):
    # tokens and deployment zones are read from the header's scene block, not the scene file
    def edit(h):
        h["scene"]["deployment"] = {"red": [[0, 0], [36, 36]]}
    log = _edited(logged, tmp_path, edit)
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2
    assert f"{log}:1: scene.deployment.red: the log has [[0, 0], [36, 36]], the scene gives nothing" in err, err


def test_a_header_naming_a_game_the_scene_is_not_for_is_refused(capsys, logged, tmp_path):
    log = _edited(logged, tmp_path, lambda h: h.__setitem__("game", "norova"))
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2
    assert f"{log}:1: game: the scene" in err and "is for eldfall, not norova" in err, err


def test_a_header_scene_path_that_is_not_a_text_is_said_so(capsys, logged, tmp_path):
    log = _edited(logged, tmp_path, lambda h: h["scene"].__setitem__("path", 5))
    rc, out, err = run_cli(capsys, "replay", str(log))
    assert rc == 2
    assert f"{log}:1: scene.path: expected the scene file's path, got 5" in err, err


DEPLOY = """table: [36, 36]
deployment: {red: [[0, 0], [36, 8]], blue: [[0, 28], [36, 36]]}
models:
  - {id: a, side: red, profile: sample-red#archer, at: [5, 5]}
  - {id: b, side: blue, profile: sample-blue#warden,
     at: [25, 25]}
"""


def test_check_warns_of_a_model_outside_its_deployment_zone(capsys, tmp_path):
    # eldfall play narrates "deployment: outside their zone: b"; check said nothing
    path = write(tmp_path, "s.yaml", DEPLOY)
    rc, out, err = run_cli(capsys, "check", str(path))
    assert rc == 0, err
    assert (f"{path}:6: models[1].at: warning: model 'b' stands at (25, 25), outside blue's "
            "deployment zone (x 0-36 y 28-36)") in out, out
    assert "model 'a'" not in out
    rc, out, err = run_cli(capsys, "check", str(path), "--json")
    assert any("outside blue's deployment zone" in w for w in json.loads(out)["warnings"])


def test_an_event_mismatch_names_the_edited_header_first(capsys, tmp_path):
    # a real one-round game: the champion moved by hand in the header makes the replay differ
    # at an event; the edited line 1 is the cause, and is said before the event's line
    from tools.cli import main
    shutil.copy(ROOT / "scenes" / "open.yaml", tmp_path / "open.yaml")
    log = tmp_path / "g.log"
    assert main(["play", str(tmp_path / "open.yaml"), "--bots", "--seed", "1", "--set", "rounds=1",
                 "--quiet", "--log", str(log)]) == 0
    capsys.readouterr()
    edited = _edited(log, tmp_path, lambda h: h["units"][1].__setitem__("at", [30.0, 30.0, 0.0]))
    rc, out, err = run_cli(capsys, "replay", str(edited))
    assert rc == 2
    lines = err.strip().splitlines()
    assert lines[0].startswith(f"{edited}:1: units[1] (red-champion).at[0]: the log has 30.0, "
                               "the scene gives 6.0"), lines
    assert ": data: event " in lines[-1], lines


SIZELESS = """table: [24, 24]
models:
  - {id: giant, side: blue, base_mm: 60, height_mm: 60, at: [12, 12]}
  - {id: marker, side: blue, base_mm: 25, height_mm: 25, at: [4, 4]}
  - {id: odd, side: red, base_mm: 36, height_mm: 40, at: [20, 20]}
  - {id: sized, side: red, size: H, base_mm: 25, at: [20, 4]}
"""


def test_a_model_with_no_size_is_not_a_medium_for_the_rules(tmp_path):
    # docs/rulings.md: "A model with no size from anywhere is ... not a Medium by default";
    # the roster made every such model a Medium, so a Medium's Knockback moved a 60 mm giant
    from engine.scene import load_scene
    from tools.roster import units_from_scene
    scene = load_scene(write(tmp_path, "s.yaml", SIZELESS))
    sizes = {u.id: u.size for u in units_from_scene(scene)}
    assert sizes == {"giant": "G", "marker": "S", "odd": "M", "sized": "H"}


def test_check_says_what_size_the_rules_give_a_model_with_none(capsys, tmp_path):
    path = write(tmp_path, "s.yaml", SIZELESS)
    rc, out, err = run_cli(capsys, "check", str(path))
    assert rc == 0, err
    row = next(line for line in out.splitlines() if line.strip().startswith("giant"))
    assert "no size given: the rules play it as Size G, from its 60 mm base" in row, out
    assert "no size given" not in next(line for line in out.splitlines() if line.strip().startswith("sized"))
    rc, out, err = run_cli(capsys, "check", str(path), "--json")
    rows = {m["id"]: m for m in json.loads(out)["models"]}
    assert rows["giant"]["size"] is None and rows["giant"]["rules_size"] == "G"


CUBE_INSIDE_OUT = "".join(f"v {x} {y} {z}\n" for x, y, z in [
    (0, 0, 0), (4, 0, 0), (4, 4, 0), (0, 4, 0), (0, 0, 4), (4, 0, 4), (4, 4, 4), (0, 4, 4)]) + "".join(
    # every face wound clockwise seen from outside: a closed solid turned inside out
    f"f {a} {b} {c}\n" for a, b, c in [(1, 2, 3), (1, 3, 4), (5, 7, 6), (5, 8, 7), (1, 6, 2), (1, 5, 6),
                                       (2, 7, 3), (2, 6, 7), (3, 8, 4), (3, 7, 8), (4, 5, 1), (4, 8, 5)])


def test_an_inside_out_mesh_is_turned_outward(capsys, tmp_path):
    # its top faced down: a model given no z stood on the table inside the 4" block
    write(tmp_path, "block.obj", CUBE_INSIDE_OUT)
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nterrain:\n"
                 "  - {id: block, shape: mesh, file: block.obj, at: [10, 10, 0]}\nmodels:\n"
                 "  - {id: a, side: red, size: M, at: [10, 10]}\n"
                 "  - {id: b, side: blue, size: M, at: [20, 20]}\n")
    rc, out, err = run_cli(capsys, "check", str(path), "--json")
    assert rc == 0, err
    info = json.loads(out)
    z = {m["id"]: m["z"] for m in info["models"]}
    assert z["a"] == pytest.approx(4.0), z
    assert any("block.obj': faces of the mesh point inward" in w for w in info["warnings"]), info["warnings"]
    # a model put inside it is inside terrain, not floating above an upside-down floor
    path = write(tmp_path, "t.yaml", path.read_text().replace("at: [10, 10]}", "at: [10, 10, 1]}"))
    rc, out, err = run_cli(capsys, "check", str(path))
    assert rc == 2 and "model 'a' is inside terrain: its hitbox intersects 'block'" in err, err


def test_a_mesh_that_faces_outward_gets_no_warning(capsys, tmp_path):
    lines = CUBE_INSIDE_OUT.splitlines()
    fixed = [ln if not ln.startswith("f ") else "f " + " ".join(reversed(ln.split()[1:])) for ln in lines]
    write(tmp_path, "block.obj", "\n".join(fixed) + "\n")
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nterrain:\n"
                 "  - {id: block, shape: mesh, file: block.obj, at: [10, 10, 0]}\n")
    rc, out, err = run_cli(capsys, "check", str(path))
    assert rc == 0 and "inward" not in out + err and "watertight" not in out + err, out


@pytest.mark.parametrize("states, said", [
    ("[Dead, Flying]", "a Dead model cannot be Flying (Dead cancels Flying at once)"),
    ("[Crouched, Flying]", "a Crouched model cannot be Flying (Crouched cancels Flying at once)"),
    ("[Flying, Immobilized]", "an Immobilized model cannot be Flying (Immobilized cancels Flying at once)"),
    ("[Flying, Engaged]", "an Engaged model cannot be Flying (a Flying model cannot be Engaged)"),
])
def test_a_model_cannot_start_flying_with_a_state_that_cancels_it(tmp_path, states, said):
    # only Incapacitated was refused; a Dead model started the game Flying (seeing every model)
    from tests.scene_files import problems_of
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n"
                 f"  - {{id: a, side: red, size: M, at: [5, 5], states: {states}}}\n")
    assert problems_of(path) == [f"{path}:3: models[0].states: {said}: give one of them"]


def test_a_scene_model_with_no_hp_is_set_up_incapacitated_and_a_profile_with_none_is_refused(tmp_path):
    # the rules made a model of 0 HP Incapacitated (and Crouched) at the start, while the
    # World and eldfall check showed it standing, with no state (docs/rulings.md,
    # "Incapacitated models in a scene": a scene model with HP 0 is Incapacitated at setup)
    from engine.scene import load_scene
    from tests.scene_files import problems_of
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n"
                 "  - {id: a, side: red, profile: sample-red#archer, at: [5, 5], stats: {HP: 0}}\n"
                 "  - {id: b, side: red, profile: sample-red#archer, at: [9, 5], stats: {HP: 0}, states: [Crouched]}\n")
    a, b = load_scene(str(path)).models
    assert a.stats["HP"] == 0 and set(a.states) == {"Incapacitated", "Crouched"}
    assert sorted(b.states) == ["Crouched", "Incapacitated"]
    path = write(tmp_path, "f.yaml", "table: [24, 24]\nmodels:\n"
                 "  - {id: a, side: red, size: M, at: [5, 5, 3], stats: {HP: 0}, states: [Flying]}\n")
    assert problems_of(path) == [f"{path}:3: models[0].stats.HP: a model with HP 0 is Incapacitated, which "
                                 "cancels Flying at once: give it HP or leave out Flying"]
    why = ("must be at least 1, got 0 (every model of this profile would start Incapacitated; "
           "give a scene model stats: {HP: 0} or states: [Incapacitated] for that)")
    write(tmp_path, "models/p.yaml", "party: P\nprofiles:\n  x:\n    stats: {STA: 2, SPD: 5, ARM: 1, HP: 0, "
          "OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}\n")
    path = write(tmp_path, "t.yaml", "table: [24, 24]\nmodels:\n  - {id: a, side: red, profile: p#x, at: [5, 5]}\n")
    probs = problems_of(path, models_dir=tmp_path / "models")
    assert probs[0] == f"{tmp_path / 'models' / 'p.yaml'}:4: profiles.x.stats.HP: {why}", probs


def test_a_problem_of_a_value_written_as_an_alias_is_at_the_alias_line(tmp_path):
    # "- *a" repeats model a: its duplicate id was said at the anchor's line 3 ("first used
    # at line 3"), as if the first model were the repeated one
    from tests.scene_files import problems_of
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n"
                 "  - &a {id: a, side: red, size: M, at: [5, 5]}\n"
                 "  - {<<: *a, id: b, at: [10, 5], sise: M}\n"
                 "  - *a\n")
    assert problems_of(path) == [
        f"{path}:4: models[1].sise: unknown key for a model; did you mean 'size'?",
        f"{path}:5: models[2].id: duplicate id 'a' (first used at line 3)",
    ]


@pytest.mark.parametrize("ref", ["kaelen", "Kaelen-the-Knight"])
def test_a_profile_named_by_its_card_name_gets_its_key_suggested(tmp_path, ref):
    # "no profile 'kaelen' ... (it has: knight, ranger, cleric, pyromancer)": the player typed
    # the name printed on the card, which the message never linked to 'knight'
    from tests.scene_files import problems_of
    path = write(tmp_path, "s.yaml", "table: [24, 24]\nmodels:\n"
                 f"  - {{id: a, side: red, profile: norova-party#{ref}, at: [5, 5]}}\n")
    probs = problems_of(path)
    assert len(probs) == 1 and f"models[0].profile: no profile '{ref}' in " in probs[0], probs
    assert probs[0].endswith("norova-party.yaml; did you mean 'knight' (Kaelen the Knight)?"), probs
