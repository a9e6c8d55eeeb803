"""Bad scenes: every class of problem gives its exact line, exit 2, no traceback.

The fixtures are in tests/data/bad/; the cases that need odd files (symlinks,
huge meshes, bytes that are not text) are built in a temporary folder.
"""
from __future__ import annotations

import os
import struct
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.scene import load_scene
from tools.cli import main
from scene_files import problems_of, write  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BAD = "tests/data/bad"


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


def check(path, capsys, *extra) -> tuple[int, list[str], list[str]]:
    rc = main(["check", str(path), *extra])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out.splitlines(), err.splitlines()


EXPECTED = {
    "syntax.yaml": [
        "tests/data/bad/syntax.yaml:6: YAML syntax error: did not find expected ',' or ']' "
        "(while parsing a flow sequence at line 5)",
    ],
    "unknown_key.yaml": [
        "tests/data/bad/unknown_key.yaml:3: terrain[0].size: missing (a box needs size: [width, depth, height])",
        "tests/data/bad/unknown_key.yaml:6: terrain[0].sise: unknown key for a box; did you mean 'size'?",
        "tests/data/bad/unknown_key.yaml:12: models[0].facng: unknown key for a model; did you mean 'facing'?",
        "tests/data/bad/unknown_key.yaml:13: teran: unknown key for a scene; did you mean 'terrain'?",
    ],
    "wrong_length.yaml": [
        "tests/data/bad/wrong_length.yaml:11: terrain[1].radius: expected a number, got 'big'",
        "tests/data/bad/wrong_length.yaml:16: terrain[2].size: expected 3 numbers, got 2",
    ],
    "bad_values.yaml": [
        "tests/data/bad/bad_values.yaml:1: table[1]: must be greater than 0, got 0",
        "tests/data/bad/bad_values.yaml:6: terrain[0].size[1]: must be greater than 0, got -1",
        "tests/data/bad/bad_values.yaml:10: terrain[1].radius: must be greater than 0, got 0",
        "tests/data/bad/bad_values.yaml:15: terrain[2].points: edges 0 and 2 cross (the outline must not cross itself)",
        "tests/data/bad/bad_values.yaml:21: terrain[3].heights[1]: expected 2 values like row 0, got 1",
        "tests/data/bad/bad_values.yaml:23: terrain[4].shape: unknown value 'pyramid' "
        "(allowed: box, cylinder, wedge, prism, heightfield, mesh)",
    ],
    "duplicate_id.yaml": [
        "tests/data/bad/duplicate_id.yaml:4: terrain[1].id: duplicate id 'wall' (first used at line 3)",
        "tests/data/bad/duplicate_id.yaml:7: models[1].id: duplicate id 'hero' (first used at line 6)",
    ],
    "size_code.yaml": [
        "tests/data/bad/size_code.yaml:3: models[0].size: unknown size 'X'; allowed: S, M, L, H, G, C, E",
        "tests/data/bad/size_code.yaml:4: models[1].size: missing: give size (S, M, L, H, G, C, E) or base_mm and height_mm",
    ],
    "off_table.yaml": [
        "tests/data/bad/off_table.yaml:3: models[0].at: model 'edge' is off the table: its base spans "
        "x 34.87..36.13, y 17.37..18.63; the table is 36 x 36",
    ],
    "overlap.yaml": [
        "tests/data/bad/overlap.yaml:4: models[1].at: model 'b' overlaps model 'a' (0.26\" in plan, 1.77\" in height)",
    ],
    "inside_terrain.yaml": [
        "tests/data/bad/inside_terrain.yaml:7: models[0].at: model 'in-wall' is inside terrain: its hitbox intersects 'wall'",
        "tests/data/bad/inside_terrain.yaml:8: models[1].at: model 'in-block' is inside terrain: its hitbox intersects 'block'",
    ],
    "floating.yaml": [
        "tests/data/bad/floating.yaml:3: models[0].at: model 'hover' floats: the scene puts its base at z 5.00 but "
        "the highest surface under it is at z 0.00 (leave z out to stand it there, or give it the Flying state)",
    ],
    "mesh_missing.yaml": [
        "tests/data/bad/mesh_missing.yaml:3: terrain[0].file: file not found: meshes/nothere.stl",
    ],
    "mesh_escape.yaml": [
        "tests/data/bad/mesh_escape.yaml:3: terrain[0].file: '../../../scenes/meshes/statue.stl': must not contain '..' "
        "(a mesh stays inside the scene's folder)",
        "tests/data/bad/mesh_escape.yaml:4: terrain[1].file: '/etc/passwd.stl': must be a path relative to the "
        "scene's folder, not absolute",
        "tests/data/bad/mesh_escape.yaml:5: terrain[2].file: 'meshes/statue.fbx': unsupported mesh format '.fbx' "
        "(allowed: .stl, .obj, .ply, .glb)",
    ],
    "mesh_corrupt.yaml": [
        "tests/data/bad/mesh_corrupt.yaml:3: terrain[0].file: 'meshes/corrupt.stl': cannot read mesh: the mesh has no triangles",
    ],
    "profile_ref.yaml": [
        "tests/data/bad/profile_ref.yaml:3: models[0].profile: no profile 'archr' in models/sample-red.yaml; did you mean 'archer'?",
        "tests/data/bad/profile_ref.yaml:4: models[1].profile: no party 'sample-rd' in models/; did you mean 'sample-red'?",
        "tests/data/bad/profile_ref.yaml:5: models[2].profile: '../models/sample-red.yaml': a profile is named "
        "party#name (a party file in models/), never a path",
        "tests/data/bad/profile_ref.yaml:6: models[3].profile: expected party#name (e.g. sample-red#archer), got 'archer'",
    ],
    "stratagems.yaml": [
        "tests/data/bad/stratagems.yaml:8: stratagems.red[0].uses: expected a whole number, got 'many'",
        "tests/data/bad/stratagems.yaml:9: stratagems.red[0].per: unknown value 'round' (allowed: game, turn)",
        "tests/data/bad/stratagems.yaml:11: stratagems.red[1].name: duplicate Stratagem 'War Horn' (first at line 7)",
        "tests/data/bad/stratagems.yaml:13: stratagems.red[2].awareness: a Stratagem on the Leader itself has "
        "no range or Awareness rule",
        "tests/data/bad/stratagems.yaml:13: stratagems.red[2].effect.remove[0]: unknown value 'Dead' (allowed: "
        "Bleeding, Blinded, Confused, Crippled, Immobilized, Slowed, Weakened, Poisoned, Fatigued, Panicked)",
        "tests/data/bad/stratagems.yaml:14: stratagems.red[3].efect: unknown key for a Stratagem; did you mean 'effect'?",
        "tests/data/bad/stratagems.yaml:14: stratagems.red[3].effect: missing (a Stratagem needs effect: "
        "{heal, mods, states, remove, ap, duration})",
        "tests/data/bad/stratagems.yaml:15: stratagems.blue: expected a list of Stratagems, got a mapping",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_gives_exact_lines(name, capsys):
    rc, out, err = check(f"{BAD}/{name}", capsys)
    assert rc == 2
    assert out == []
    assert err == EXPECTED[name]


def test_every_fixture_is_covered():
    on_disk = {p.name for p in (ROOT / BAD).glob("*.yaml")}
    assert on_disk == set(EXPECTED)


def test_load_scene_raises_input_error_with_problems():
    with pytest.raises(InputError) as info:
        load_scene(f"{BAD}/wrong_length.yaml")
    probs = info.value.problems
    assert [(p.line, p.path) for p in probs] == [(11, "terrain[1].radius"), (16, "terrain[2].size")]
    assert str(info.value).splitlines() == EXPECTED["wrong_length.yaml"]


def test_the_good_pieces_of_a_bad_file_do_not_hide_other_problems(capsys):
    # four problems in four places: all reported, not just the first
    rc, _, err = check(f"{BAD}/unknown_key.yaml", capsys)
    assert rc == 2 and len(err) == 4


def test_missing_file(capsys):
    rc, out, err = check("scenes/no-such-scene.yaml", capsys)
    assert rc == 2 and err == ["scenes/no-such-scene.yaml: file not found"]


def test_a_folder_is_not_a_scene(capsys):
    rc, _, err = check("scenes", capsys)
    assert rc == 2 and err == ["scenes: is a folder, not a YAML file"]


# ---------------------------------------------------------------- odd files


def test_not_utf8(tmp_path):
    p = write(tmp_path, "s.yaml", b"table: [36, 36]\nname: caf\xe9\n")
    assert problems_of(p) == [f"{p}:2: not valid UTF-8 text"]


def test_nul_byte(tmp_path):
    p = write(tmp_path, "s.yaml", b"table: [36, 36]\n\x00\n")
    assert problems_of(p) == [f"{p}:2: not a text file (contains a NUL byte)"]


def test_duplicate_key(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nname: a\nname: b\n")
    assert problems_of(p) == [f"{p}:3: name: duplicate key (first at line 2)"]


def test_not_a_mapping(tmp_path):
    p = write(tmp_path, "s.yaml", "- just\n- a list\n")
    assert problems_of(p) == [f"{p}:1: expected a mapping with table, terrain and models, got a list of 2"]


def test_empty_file(tmp_path):
    p = write(tmp_path, "s.yaml", "# nothing\n")
    assert problems_of(p) == [f"{p}: expected a mapping with table, terrain and models, got nothing"]


def test_unsafe_tag_is_refused(tmp_path):
    p = write(tmp_path, "s.yaml", "table: !!python/object/apply:os.system ['true']\n")
    assert problems_of(p) == [f"{p}:1: YAML error: unsupported tag 'tag:yaml.org,2002:python/object/apply:os.system'"]
    p = write(tmp_path, "t.yaml", "table: !!python/name:os.system\n")
    assert problems_of(p) == [f"{p}:1: YAML error: could not determine a constructor for the tag "
                              "'tag:yaml.org,2002:python/name:os.system'"]


def test_billion_laughs_is_refused(tmp_path):
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    for i in range(1, 9):
        prev = f"*a{i - 1}"
        lines.append(f"a{i}: &a{i} [{', '.join([prev] * 10)}]")
    p = write(tmp_path, "s.yaml", "\n".join(lines) + "\n")
    msgs = problems_of(p)
    assert len(msgs) == 1 and "document too large (over 200000 values, aliases expanded)" in msgs[0]


def test_recursive_alias_is_refused(tmp_path):
    p = write(tmp_path, "s.yaml", "table: &t [36, *t]\n")
    assert problems_of(p) == [f"{p}:1: recursive YAML alias"]


def test_bad_timestamp_value(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nname: 2024-13-45\n")
    msgs = problems_of(p)
    assert len(msgs) == 1 and msgs[0].startswith(f"{p}:2: cannot read value '2024-13-45'")


def test_nan_and_bool_are_not_numbers(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [.nan, true]\n")
    assert problems_of(p) == [f"{p}:1: table[0]: expected a finite number, got nan",
                              f"{p}:1: table[1]: expected a number, got true"]


def test_unknown_tag_suggests(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: w, shape: box, at: [1, 1, 0], size: [1, 1, 1], tags: [laddr, forest]}\n")
    msgs = problems_of(p)
    assert msgs[0].startswith(f"{p}:3: terrain[0].tags[0]: unknown value 'laddr'; did you mean 'ladder'?")


def test_key_for_another_shape(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nterrain:\n"
                                  "  - {id: w, shape: box, at: [1, 1, 0], size: [1, 1, 1], radius: 2}\n")
    assert problems_of(p) == [f"{p}:3: terrain[0].radius: unknown key for a box; allowed: at, cover, id, shape, size, tags, turn"]


# ---------------------------------------------------------------- meshes
STATUE = ROOT / "scenes" / "meshes" / "statue.stl"


def mesh_scene(tmp: Path, file: str) -> Path:
    return write(tmp, "scene/s.yaml", f"table: [36, 36]\nterrain:\n  - id: m\n    shape: mesh\n"
                                      f"    file: {file}\n    at: [5, 5, 0]\n")


def test_symlink_escaping_the_folder(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "statue.stl").write_bytes(STATUE.read_bytes())
    p = mesh_scene(tmp_path, "meshes/link.stl")
    (tmp_path / "scene" / "meshes").mkdir()
    os.symlink(outside / "statue.stl", tmp_path / "scene" / "meshes" / "link.stl")
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'meshes/link.stl': resolves outside the scene's folder (a symlink?)"]


def test_symlink_inside_the_folder_is_fine(tmp_path):
    p = mesh_scene(tmp_path, "meshes/link.stl")
    (tmp_path / "scene" / "meshes").mkdir()
    (tmp_path / "scene" / "meshes" / "real.stl").write_bytes(STATUE.read_bytes())
    os.symlink(tmp_path / "scene" / "meshes" / "real.stl", tmp_path / "scene" / "meshes" / "link.stl")
    scene = load_scene(p)
    assert scene.terrain[0].file == str((tmp_path / "scene" / "meshes" / "real.stl").resolve())


def test_too_many_triangles_binary_stl_from_the_header(tmp_path):
    p = mesh_scene(tmp_path, "big.stl")
    n = 2_000_001
    with open(tmp_path / "scene" / "big.stl", "wb") as fh:   # sparse: the header decides
        fh.write(b"\0" * 80 + struct.pack("<I", n))
        fh.truncate(84 + 50 * n)
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'big.stl': mesh has 2000001 triangles; the limit is 2000000"]


def test_too_many_triangles_ply_from_the_header(tmp_path):
    p = mesh_scene(tmp_path, "big.ply")
    write(tmp_path, "scene/big.ply", "ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\n"
                                     "property float y\nproperty float z\nelement face 3000000\n"
                                     "property list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n")
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'big.ply': mesh has 3000000 triangles; the limit is 2000000"]


def test_too_many_triangles_obj_counted_before_loading(tmp_path):
    p = mesh_scene(tmp_path, "big.obj")
    with open(tmp_path / "scene" / "big.obj", "wb") as fh:
        fh.write(b"v 0 0 0\nv 1 0 0\nv 0 1 0\n" + b"f 1 2 3\n" * 2_000_001)
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'big.obj': mesh has 2000001 triangles; the limit is 2000000"]


def test_too_many_triangles_glb_from_its_json(tmp_path):
    import json
    p = mesh_scene(tmp_path, "big.glb")
    meta = json.dumps({"asset": {"version": "2.0"},
                       "accessors": [{"count": 3, "type": "VEC3", "componentType": 5126},
                                     {"count": 3 * 2_500_000, "type": "SCALAR", "componentType": 5125}],
                       "meshes": [{"primitives": [{"attributes": {"POSITION": 0}, "indices": 1}]}]}).encode()
    meta += b" " * (-len(meta) % 4)
    body = b"glTF" + struct.pack("<II", 2, 20 + len(meta)) + struct.pack("<I", len(meta)) + b"JSON" + meta
    write(tmp_path, "scene/big.glb", body)
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'big.glb': mesh has 2500000 triangles; the limit is 2000000"]


def test_corrupt_binary(tmp_path):
    p = mesh_scene(tmp_path, "junk.ply")
    write(tmp_path, "scene/junk.ply", bytes(range(256)) * 4)
    msgs = problems_of(p)
    assert len(msgs) == 1 and msgs[0].startswith(f"{p}:5: terrain[0].file: 'junk.ply': cannot read mesh: ")


def test_empty_mesh_file(tmp_path):
    p = mesh_scene(tmp_path, "empty.obj")
    write(tmp_path, "scene/empty.obj", b"")
    assert problems_of(p) == [f"{p}:5: terrain[0].file: 'empty.obj': empty file"]


def test_not_watertight_loads_with_a_warning(tmp_path, capsys, monkeypatch):
    import trimesh
    box = trimesh.creation.box(extents=(2, 2, 2))
    box.apply_translation((0, 0, 1))
    open_box = trimesh.Trimesh(box.vertices, box.faces[:-2], process=False)   # lid removed
    assert not open_box.is_watertight
    p = mesh_scene(tmp_path, "open.stl")
    open_box.export(tmp_path / "scene" / "open.stl")
    scene = load_scene(p)
    assert [str(w) for w in scene.warnings] == [
        f"{p}:5: terrain[0].file: warning: 'open.stl': mesh is not watertight; it loads, but what is inside it "
        "may be misjudged"]
    rc, out, err = check(p, capsys)
    assert rc == 0
    assert out[-1] == str(scene.warnings[0])


# ---------------------------------------------------------------- profiles
def test_bad_party_file_is_reported_with_its_own_lines(tmp_path):
    models = tmp_path / "models"
    write(models, "bad.yaml", "party: Bad\nprofiles:\n  grunt:\n    size: Q\n    stats: {STA: 2, SPD: x}\n")
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n  - {id: g, side: red, profile: bad#grunt, at: [5, 5]}\n")
    msgs = problems_of(p, models_dir=models)
    bad = os.path.relpath(models / "bad.yaml")
    bad = str(models / "bad.yaml") if bad.startswith("..") else bad
    assert msgs[-1] == f"{p}:3: models[0].profile: party 'bad' has errors (listed above)"
    assert f"{bad}:4: profiles.grunt.size: unknown size 'Q'; allowed: S, M, L, H, G, C, E" in msgs
    assert f"{bad}:5: profiles.grunt.stats.SPD: expected a whole number, got 'x'" in msgs
    assert any(m.startswith(f"{bad}:5: profiles.grunt.stats.ARM: missing") for m in msgs)


def test_spell_affinity_and_bands_are_checked(tmp_path):
    models = tmp_path / "models"
    write(models, "p.yaml", """party: P
profiles:
  mage:
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}
    affinities: [Fire]
    items:
      - {name: Bow, kind: ranged, pw: 9, bands: {"0-20": 0, "30-40": -6}}
    spells:
      - {name: Frost, type: Sorcery, affinity: Water, mana: 1}
      - {name: Hex, type: Curse, affinity: Fire, mana: 1}
""")
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n  - {id: g, side: red, profile: p#mage, at: [5, 5]}\n")
    msgs = problems_of(p, models_dir=models)
    f = os.path.relpath(models / "p.yaml")
    f = str(models / "p.yaml") if f.startswith("..") else f
    assert f"{f}:7: profiles.mage.items[0].bands: gap between bands (0-20 then 30-40)" in msgs
    assert (f"{f}:9: profiles.mage.spells[0].affinity: 'Water' is not among the profile's affinities (Fire); "
            "a caster needs the Affinity of the spell's element") in msgs
    assert (f"{f}:10: profiles.mage.spells[1].type: unknown value 'Curse' "
            "(allowed: Sorcery, Healing, Enchantment, Conjuration, Transmutation)") in msgs


def test_two_leaders_on_a_side(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [36, 36]\nmodels:\n"
                                  "  - {id: a, side: red, profile: sample-red#champion, at: [5, 5]}\n"
                                  "  - {id: b, side: red, size: M, leader: true, at: [9, 5]}\n")
    assert problems_of(p) == [f"{p}:4: models[1].leader: side 'red' already has a Leader ('a'); a party has one"]


# ---------------------------------------------------------------- placement in depth
PLACEMENT = """table: [36, 36]
terrain:
  - {id: tower, shape: cylinder, at: [6, 6, 0], radius: 2, height: 6}
  - id: hill
    shape: heightfield
    at: [20, 20, 0]
    size: [12, 12]
    heights: [[0, 0, 0, 0, 0], [0, 1, 1.5, 1, 0], [0, 1.5, 3, 1.5, 0], [0, 1, 1.5, 1, 0], [0, 0, 0, 0, 0]]
  - {id: ramp, shape: wedge, at: [30, 6, 0], size: [8, 3, 4]}
  - {id: slab, shape: box, at: [8, 28, 2], size: [6, 6, 0.3]}
  - {id: statue, shape: mesh, file: statue.stl, at: [30, 30, 0]}
models:
  - {id: in-tower, side: red, size: M, at: [6, 6, 0]}
  - {id: on-tower, side: red, size: M, at: [6, 6]}
  - {id: in-hill, side: red, size: M, at: [20, 20, 0]}
  - {id: on-hill, side: red, size: M, at: [20, 20]}
  - {id: hill-side, side: red, size: M, at: [17, 20]}
  - {id: on-ramp, side: blue, size: L, at: [30, 6]}
  - {id: under-slab, side: blue, size: M, at: [8, 28, 0]}
  - {id: on-slab, side: blue, size: M, at: [8, 28]}
  - {id: under-slab-edge, side: blue, size: H, at: [11, 28, 0]}
  - {id: big-at-slab-corner, side: blue, size: G, at: [11.5, 24, 0]}
  - {id: in-statue, side: red, size: S, at: [30, 30, 0]}
  - {id: on-statue-plinth, side: red, size: S, at: [29.1, 29.1]}
"""


def test_placement_wholly_inside_slopes_and_corners(tmp_path, capsys):
    """Wholly inside a solid (tower, hill), a corner sliver 0.18" deep (only
    the slab's corner edge enters the hitbox), a mesh; legal: roofs, a hilltop,
    a hillside, a ramp, under and on a slab, on a statue's plinth."""
    p = write(tmp_path, "s.yaml", PLACEMENT)
    (tmp_path / "statue.stl").write_bytes(STATUE.read_bytes())
    rc, out, err = check(p, capsys)
    assert rc == 2
    assert err == [
        f"{p}:13: models[0].at: model 'in-tower' is inside terrain: its hitbox intersects 'tower'",
        f"{p}:15: models[2].at: model 'in-hill' is inside terrain: its hitbox intersects 'hill'",
        f"{p}:22: models[9].at: model 'big-at-slab-corner' is inside terrain: its hitbox intersects 'slab'",
        f"{p}:23: models[10].at: model 'in-statue' is inside terrain: its hitbox intersects 'statue'",
    ]
    from engine.world import World
    world = World(load_scene(p))
    z = {i: round(world.hitbox(i).z, 2) for i in world.model_ids()}
    assert z["on-tower"] == 6.0 and z["on-hill"] == 3.0 and z["on-slab"] == 2.3 and z["under-slab"] == 0.0
    assert 0.5 < z["hill-side"] < 3.0 and 0.5 < z["on-ramp"] < 4.0
    assert z["on-statue-plinth"] == 1.0


def test_check_placement_after_moving_a_model():
    from engine.validate import check_placement
    from engine.world import World
    world = World(load_scene("scenes/open.yaml"))
    assert check_placement(world) == []
    world.move_model("blue-warden", 6.5, 12, 0)                    # onto red-archer
    msgs = [str(p) for p in check_placement(world)]
    assert len(msgs) == 1 and "model 'blue-warden' overlaps model 'red-archer'" in msgs[0]
    world.move_model("blue-warden", 18, 24, 0)                     # into the wall
    assert [p.message for p in check_placement(world)] == [
        "model 'blue-warden' is inside terrain: its hitbox intersects 'wall'"]
    world.move_model("blue-warden", 35.9, 12, 0)                   # over the edge
    assert [p.message for p in check_placement(world)] == [
        "model 'blue-warden' is off the table: its base spans x 35.27..36.53, y 11.37..12.63; the table is 36 x 36"]


def test_game_blocks_are_kept_as_data(tmp_path):
    models = tmp_path / "models"
    write(models, "p.yaml", "party: P\nprofiles:\n  k:\n"
                            "    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}\n"
                            "    norova: {vitality: 30, traits: {focus: 2}}\n"
                            "  bad:\n"
                            "    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}\n"
                            "    norova: 5\n")
    p = write(tmp_path, "s.yaml", "table: [24, 24]\nnorova: {flying: true}\n"
                                  "models:\n  - {id: k, side: red, profile: p#k, at: [5, 5]}\n")
    msgs = problems_of(p, models_dir=models)
    assert any(m.endswith(":8: profiles.bad.norova: expected a mapping (the norova sheet), got 5") for m in msgs)
    write(models, "p.yaml", "party: P\nprofiles:\n  k:\n"
                            "    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}\n"
                            "    norova: {vitality: 30, traits: {focus: 2}}\n")
    scene = load_scene(p, models_dir=models)
    assert scene.extra == {"norova": {"flying": True}}
    assert scene.models[0].profile.extra["norova"] == {"vitality": 30, "traits": {"focus": 2}}


def test_odd_tokens_and_reserves_never_give_a_traceback(tmp_path, capsys):
    p = tmp_path / "odd.yaml"
    p.write_text(
        "table: [24, 24]\n"
        "models:\n"
        "  - {id: a, side: red, size: M, at: [3, 3]}\n"
        "  - {id: r, side: red, size: M, reserve: true, tier: 2.5}\n"
        "  - {id: q, side: red, reserve: true}\n"
        "tokens:\n"
        "  - 5\n"
        "  - {id: [1], kind: item, side: red, at: [1, 1]}\n"
        "  - {id: t, kind: item, side: red, at: x, base_mm: -1}\n"
        "  - {id: u, kind: spell, side: red, at: [5, 5], spell: 3, caster: a}\n"
        "  - {id: v, kind: item, side: red, at: [5, 5, -1]}\n")
    rc, out, err = check(p, capsys)
    assert rc == 2
    assert err == [
        f"{p}:4: models[1].tier: expected a whole number, got 2.5",
        f"{p}:5: models[2].size: missing: give size (S, M, L, H, G, C, E) or base_mm and height_mm",
        f"{p}:7: tokens[0]: expected a token (a mapping with id, kind, side, at, ...), got 5",
        f"{p}:8: tokens[1].id: expected an id (a text), got a list of 1",
        f"{p}:9: tokens[2].at: expected a list of 2 or 3 numbers (x, y and optional z), got 'x'",
        f"{p}:9: tokens[2].base_mm: must be greater than 0, got -1",
        f"{p}:10: tokens[3].spell: expected a spell name, got 3",
        f"{p}:11: tokens[4].at: z must not be below the table top (0), got -1",
    ]
    p.write_text("table: [24, 24]\ntokens: 5\n")
    rc, out, err = check(p, capsys)
    assert rc == 2 and err == [f"{p}:2: tokens: expected a list of tokens, got 5"]


def test_stratagems_are_for_eldfall_scenes(tmp_path):
    p = write(tmp_path, "s.yaml", "table: [24, 24]\ngames: [norova]\nmodels: []\n"
                                  "stratagems:\n  red: []\n")
    assert problems_of(p) == [f"{p}:4: stratagems: Stratagems are an Eldfall rule; this scene is "
                              f"not for eldfall (games:)"]


def test_mounted_riders_are_checked_one_line_per_problem(tmp_path, capsys):
    p = write(tmp_path, "s.yaml",
              "table: [24, 24]\n"
              "models:\n"
              "  - {id: a, side: red, size: M, at: [3, 3], mounted: yes-please}\n"
              "  - {id: b, side: red, size: M, at: [6, 3], dismounted: {SPD: -2}}\n"
              "  - id: c\n"
              "    side: blue\n"
              "    size: M\n"
              "    at: [9, 3]\n"
              "    mounted: true\n"
              "    dismounted:\n"
              "      SPED: -2\n"
              "      HP: -1\n"
              "      ARM: 1.5\n"
              "      DEF: -40\n"
              "  - {id: d, side: blue, size: M, at: [12, 3], mounted: true, dismounted: 5}\n"
              "  - {id: e, side: blue, size: M, at: [15, 3], mounted: true, states: [Crouched]}\n")
    rc, out, err = check(p, capsys)
    assert rc == 2
    assert err == [
        f"{p}:3: models[0].mounted: expected true or false, got 'yes-please'",
        f"{p}:4: models[1].dismounted: stat changes on dismounting are a rider's: only for a model "
        f"with mounted: true",
        f"{p}:11: models[2].dismounted.SPED: unknown stat 'SPED'; did you mean 'SPD'? "
        f"(allowed: STA, SPD, ARM, OFF, DEF, ACC, INT, AG, T, M)",
        f"{p}:12: models[2].dismounted.HP: a dismount cannot change HP (allowed: STA, SPD, ARM, OFF, "
        f"DEF, ACC, INT, AG, T, M)",
        f"{p}:13: models[2].dismounted.ARM: expected a whole number, got 1.5",
        f"{p}:14: models[2].dismounted.DEF: must be at least -20, got -40",
        f"{p}:15: models[3].dismounted: expected a mapping of stat changes on dismounting "
        f"(e.g. {{SPD: -2}}), got 5",
        f"{p}:16: models[4].mounted: a mounted model cannot start Crouched: riders are dismounted "
        f"when their model becomes Crouched",
    ]


def test_a_mounted_rider_reaches_the_rules_unit(tmp_path):
    from tools.roster import units_from_scene
    p = write(tmp_path, "s.yaml",
              "table: [24, 24]\n"
              "models:\n"
              "  - {id: a, side: red, size: M, at: [3, 3], mounted: true, dismounted: {SPD: -2, ARM: 1}}\n"
              "  - {id: b, side: blue, size: M, at: [9, 3], mounted: false}\n"
              "  - {id: c, side: blue, size: M, at: [12, 3], mounted: true}\n")
    scene = load_scene(p)
    a, b, c = scene.models
    assert (a.mounted, a.dismounted) == (True, {"SPD": -2, "ARM": 1})
    assert (b.mounted, b.dismounted, c.mounted, c.dismounted) == (False, {}, True, {})
    ua, ub, uc = units_from_scene(scene)
    assert ua.extra == {"mounted": True, "dismounted": {"ARM": 1, "SPD": -2}}
    assert ub.extra == {} and uc.extra == {"mounted": True, "dismounted": {}}
