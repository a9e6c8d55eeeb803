"""Review 8, scenes: files a player writes by hand (merge keys, huge numbers,
broken party files and meshes) and a model a Climb left hanging on a wall.

Data: tests/data/review8_scenes/.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.scene import load_scene
from tools.cli import main
from cli_run import run_cli  # noqa: E402
from scene_files import problems_of, write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
D = "tests/data/review8_scenes/"
R_M = 32 / 25.4 / 2          # a Medium base's radius, inches


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


# --------------------------------------------------------------------------- YAML
def test_a_key_written_over_a_merge_is_not_a_duplicate(tmp_path):
    # the usual way to share defaults: an anchor, then <<: *it and the keys that differ
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                                  "  - &first {id: a, side: red, size: M, at: [5, 5], facing: 90}\n"
                                  "  - {<<: *first, id: b, at: [9, 5], size: L}\n"
                                  "  - &c {<<: *first, id: c, at: [13, 5], size: S}\n"
                                  "  - <<: [{side: blue, size: S}, {side: green, size: M}]\n"
                                  "    id: e\n"
                                  "    at: [20, 20]\n")
    import yaml
    want = yaml.safe_load(p.read_text())
    s = load_scene(p)
    got = {m.id: (m.side, m.size, m.at[:2], m.facing) for m in s.models}
    assert got == {w["id"]: (w["side"], w["size"], tuple(float(v) for v in w["at"]), float(w.get("facing", 0)))
                   for w in want["models"]}
    assert got["b"] == ("red", "L", (9.0, 5.0), 90.0)
    # the overriding key's own line is the one a problem names
    p = write(tmp_path, "t.yaml", "table: [36, 36]\nmodels:\n"
                                  "  - &first {id: a, side: red, size: M, at: [5, 5]}\n"
                                  "  - {<<: *first, id: b, at: [9, 5],\n"
                                  "     size: Q}\n")
    assert problems_of(p) == [f"{p}:5: models[1].size: unknown size 'Q'; allowed: S, M, L, H, G, C, E"]


def test_a_repeated_key_is_still_an_error_with_a_merge_and_an_alias(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nd: &d {side: red, size: M}\n"
                                  "models:\n  - {<<: *d, id: a, at: [5, 5], id: b}\n")
    with pytest.raises(InputError) as info:
        load_scene(p)
    assert [str(x) for x in info.value.problems] == [f"{p}:4: models[0].id: duplicate key (first at line 4)"]
    # a mapping with a merge and an override, used again through an alias, is read the same each time
    p = write(tmp_path, "t.yaml", "table: [36, 36]\ndeployment:\n"
                                  "  red: &z [[0, 0], [36, 8]]\n"
                                  "stratagems:\n  red:\n"
                                  "    - &s {<<: {name: Horn, target: own}, target: leader, effect: {ap: 1}}\n"
                                  "    - {<<: *s, name: Drum}\n"
                                  "models:\n  - {id: a, side: red, size: M, at: [5, 5], leader: true}\n")
    s = load_scene(p)
    assert [(x["name"], x["target"]) for x in s.extra["stratagems"]["red"]] == [("Horn", "leader"), ("Drum", "leader")]


def test_huge_whole_numbers_are_one_line_each(tmp_path, capsys):
    n = "9" * 400
    p = write(tmp_path, "s.yaml", f"table: [36, {n}]\n"
                                  "terrain:\n"
                                  f"  - {{id: a, shape: box, at: [1, 1, 0], size: [1, 1, {n}]}}\n"
                                  "models:\n"
                                  f"  - {{id: m, side: red, size: M, at: [5, 5], stats: {{SPD: {n}}}}}\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and out == ""
    assert err.splitlines() == [
        f"{p}:1: table[1]: expected a number of a usable size, got one of 400 digits",
        f"{p}:3: terrain[0].size[2]: expected a number of a usable size, got one of 400 digits",
        f"{p}:5: models[0].stats.SPD: expected a whole number of a usable size, got one of 400 digits"]
    # past Python's own limit the value is named short, without Python's advice
    p = write(tmp_path, "t.yaml", f"table: [36, {'9' * 5000}]\n")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and err.splitlines() == [
        f"{p}:1: cannot read value '{'9' * 37}...': a whole number of 5000 digits is too long"]


# --------------------------------------------------------------------------- party files and meshes
STATS = "{STA: 2, SPD: 5, ARM: 2, HP: 2, OFF: 10, DEF: 10, ACC: 15, INT: 11, AG: 12, T: 10, M: 13}"


def test_a_repeated_item_name_is_told_even_when_the_item_has_problems(tmp_path):
    write(tmp_path / "models", "p.yaml", "party: P\nprofiles:\n  a:\n"
                                         f"    stats: {STATS}\n"
                                         "    items:\n"
                                         "      - {name: Bow, kind: ranged, pw: 9, bands: {'0-12': 0}}\n"
                                         "      - {name: Bow, kind: melee, rch: 1, pw: 50}\n")
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n  - {id: m, side: red, profile: p#a, at: [5, 5]}\n")
    party = tmp_path / "models" / "p.yaml"
    assert problems_of(p, models_dir=tmp_path / "models") == [
        f"{party}:7: profiles.a.items[1].name: "
        "item or spell 'Bow' is listed twice (first at line 6)",
        f"{party}:7: profiles.a.items[1].pw: must be at most 40, got 50",
        f"{p}:3: models[0].profile: party 'p' has errors (listed above)"]


def test_a_models_folder_that_is_not_there_is_said_so(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n  - {id: m, side: red, profile: p#a, at: [5, 5]}\n")
    assert problems_of(p, models_dir=tmp_path / "nowhere") == [
        f"{p}:3: models[0].profile: no party 'p': the models folder '{tmp_path / 'nowhere'}' does not exist"]
    assert problems_of(p, models_dir=p) == [
        f"{p}:3: models[0].profile: no party 'p': the models folder '{p}' is not a folder"]


def test_an_obj_face_naming_a_missing_vertex(tmp_path):
    write(tmp_path, "bad.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n")
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: a, shape: mesh, file: bad.obj, at: [5, 5, 0]}\n")
    assert problems_of(p) == [f"{p}:3: terrain[0].file: 'bad.obj': cannot read mesh: a face refers to a "
                              "vertex that the file does not have"]


# --------------------------------------------------------------------------- hanging on a face
def test_a_model_against_a_face_hangs_and_check_says_so(capsys):
    rc, out, err = run_cli(capsys, "check", D + "hanging.yaml")
    assert rc == 0, err
    line = next(x for x in out.splitlines() if x.strip().startswith("climber"))
    assert "z 3.00" in line and "on a vertical surface of tower: any action but Nothing makes it fall" in line
    rc, out, err = run_cli(capsys, "check", D + "hanging.yaml", "--json")
    rows = {m["id"]: m for m in json.loads(out)["models"]}
    assert rows["climber"]["hanging_on"] == "tower" and rows["climber"]["z"] == 3.0
    assert rows["watcher"]["hanging_on"] is None


def test_the_world_of_a_command_keeps_a_hanging_model_where_it_hangs():
    from engine.validate import check_placement, hanging_models
    from engine.world import World
    from tools.loading import load_world
    w = load_world(D + "hanging.yaml")
    assert w.hitbox("climber").z == pytest.approx(3.0, abs=1e-12)
    # a bare World stands it on the table; the check puts it back where it hangs
    bare = World(load_scene(D + "hanging.yaml"))
    assert bare.hitbox("climber").z == pytest.approx(0.0, abs=1e-9)
    assert check_placement(bare) == [] and bare.hitbox("climber").z == pytest.approx(3.0, abs=1e-12)
    assert hanging_models(bare) == {"climber": "tower"}
    # a model moved since (a game) is left where it is
    bare.move_model("climber", 19.37, 2, 4.0)
    assert hanging_models(bare) == {} and bare.hitbox("climber").z == pytest.approx(4.0)


def test_move_from_a_hanging_start(capsys):
    def move(*a):
        rc, out, err = run_cli(capsys, "move", D + "hanging.yaml", "climber", *a, "--json")
        assert rc == 0, err
        return json.loads(out)
    d = move("--to", "19.37,2,0", "--mode", "climb")          # down where it hangs: 3" of its 3"
    assert d["legal"] and d["distance"] == pytest.approx(3.0, abs=1e-6) and d["end"][2] == pytest.approx(0.0)
    d = move("--to", "18,2", "--mode", "walk")
    assert not d["legal"] and "hangs on a vertical surface" in d["reason"]
    d = move("--to", "20.3,2", "--mode", "climb")             # the last 2" up, then onto the top
    assert d["legal"] and d["end"][2] == pytest.approx(5.0)
    assert d["distance"] == pytest.approx(2 + 20.3 - 19.37, abs=1e-6)


def test_a_base_near_a_face_but_not_on_it_floats_and_is_told_how_far(tmp_path):
    text = (ROOT / D / "hanging.yaml").read_text().replace("19.37, 2, 3", "19.2, 2, 3")
    p = write(tmp_path, "s.yaml", text)
    from tools.loading import load_world
    with pytest.raises(InputError) as info:
        load_world(str(p))
    gap = 20 - 19.2 - R_M
    assert [str(x) for x in info.value.problems] == [
        f"{p}:8: models[0].at: model 'climber' floats: the scene puts its base at z 3.00 but the highest "
        f"surface under it is at z 0.00; its base is {gap:.2f}\" from the face of 'tower' (a model hangs on "
        "a vertical surface its base touches, within 0.05\") (leave z out to stand it there, or give it the "
        "Flying state)"]


@pytest.mark.parametrize("at, ok", [
    ("[5.37, 8, 2]", True),            # against a vertex of the 48-sided cylinder (radius 2 at x 8)
    ("[8, 5.37, 2]", True),            # against a vertex, turned 90 degrees
    ("[10.6, 10.6, 2]", False),        # 45 degrees: 0.39" from the face, in the air
    ("[5.37, 8, 6.5]", False),         # above the tower's top (6): nothing to hang on
    ("[5.37, 8, 6.04]", True),         # level with the top, not on it: still on the face
])
def test_hanging_on_a_round_tower(tmp_path, at, ok):
    p = write(tmp_path, "s.yaml", "table: [24, 24]\nterrain:\n"
                                  "  - {id: tower, shape: cylinder, at: [8, 8, 0], radius: 2, height: 6}\n"
                                  f"models:\n  - {{id: m, side: red, base_mm: 32, height_mm: 45, at: {at}}}\n")
    from tools.loading import load_world
    if ok:
        w = load_world(str(p))
        assert w.hitbox("m").z == pytest.approx(float(at.strip("[]").split(",")[2]))
    else:
        with pytest.raises(InputError) as info:
            load_world(str(p))
        assert "floats" in str(info.value.problems[0])


def test_a_slope_one_can_stand_on_is_not_a_face_to_hang_on(tmp_path):
    # a 2" ramp over 4" (27 degrees): a base held above it, against it, floats
    p = write(tmp_path, "s.yaml", "table: [24, 24]\nterrain:\n"
                                  "  - {id: ramp, shape: wedge, at: [10, 10, 0], size: [4, 3, 2]}\n"
                                  "models:\n  - {id: m, side: red, size: M, at: [10, 10, 1.6]}\n")
    from tools.loading import load_world
    with pytest.raises(InputError) as info:
        load_world(str(p))
    assert "floats" in str(info.value.problems[0])


def test_a_hanging_model_is_on_a_vertical_surface_for_the_rules():
    from tools.loading import load_world
    from tools.roster import units_from_scene
    w = load_world(D + "hanging.yaml")
    units = {u.id: u for u in units_from_scene(w.scene, w)}
    assert units["climber"].extra.get("on_vertical") is True and units["climber"].at[2] == pytest.approx(3.0)
    assert "on_vertical" not in units["watcher"].extra


def test_a_utf16_file_is_told_to_be_saved_as_utf8(tmp_path, capsys):
    p = tmp_path / "s.yaml"
    p.write_text("table: [36, 36]\n", encoding="utf-16")
    rc, out, err = run_cli(capsys, "check", str(p))
    assert rc == 2 and out == "" and err.splitlines() == [f"{p}:1: the file is UTF-16 text; save it as UTF-8"]


def test_a_model_without_z_over_a_steep_face_is_told_why(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [24, 24]\nterrain:\n"
                                  "  - {id: spike, shape: wedge, at: [10, 10, 0], size: [1, 3, 3]}\n"
                                  "models:\n  - {id: a, side: red, size: M, at: [10.2, 10]}\n"
                                  "  - {id: b, side: red, size: M, at: [10.2, 14, 1]}\n")
    from tools.loading import load_world
    with pytest.raises(InputError) as info:
        load_world(str(p))
    assert [str(x) for x in info.value.problems][0] == (
        f"{p}:5: models[0].at: model 'a' is inside terrain: its hitbox intersects 'spike' (the scene gives "
        "no z, and the surface under its centre is too steep to stand on: more than 60 degrees)")
    assert "floats" in str(info.value.problems[1]) and "steep" not in str(info.value.problems[1])
