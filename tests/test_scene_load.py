"""The shipped scenes and parties load; fields map as documented; check exits 0."""
from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from engine.errors import InputError
from engine.profiles import load_party, load_profile, model_weapons, unarmed
from engine.scene import STAT_NAMES, load_scene
from engine.units import mm, size_table
from tools.cli import main

ROOT = Path(__file__).resolve().parents[1]
SCENES = ["scenes/skirmish.yaml", "scenes/heights.yaml", "scenes/open.yaml", "scenes/arena.yaml"]


def line_of(path: str, text: str) -> int:
    lines = (ROOT / path).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


@pytest.fixture(autouse=True)
def _at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("path", SCENES)
def test_shipped_scene_checks_clean(path, capsys):
    rc = main(["check", path])
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert err == ""
    assert out.splitlines()[0].startswith(f"{path}: valid")


def test_skirmish_summary(capsys):
    assert main(["check", "scenes/skirmish.yaml"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == 'scenes/skirmish.yaml: valid "Skirmish at the Ruined Watch" (eldfall)'
    assert out[1] == "table: 36 x 36 in"
    assert out[2] == "terrain: 33 pieces: 26 box, 3 cylinder, 2 prism, 1 mesh, 1 wedge"
    assert "  areas: ruin-rubble (difficult), forest (forest)" in out
    assert "  ladders: ruin-ladder" in out
    assert "models: 12 (red 6, blue 6)" in out
    # on the upper floor of the ruin (slab top 2.5 + 0.25), and on the platform
    assert any(line.split()[:1] == ["red-archer"] and 'z 2.75' in line for line in out)
    assert any(line.split()[:1] == ["red-mage"] and 'z 2.75' in line for line in out)
    assert any(line.split()[:1] == ["blue-marksman"] and 'z 2.00' in line for line in out)
    scout = next(line for line in out if line.split()[:1] == ["red-scout"])
    assert 'height 0.14"' in scout and "Crouched" in scout and '0.98" standing' in scout


def test_check_json(capsys):
    import json
    assert main(["check", "scenes/heights.yaml", "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    z = {m["id"]: m["z"] for m in info["models"]}
    assert z["red-archer"] == pytest.approx(6.3)      # the tower's roof
    assert z["red-mage"] == pytest.approx(3.0)        # the hilltop
    assert z["red-scout"] == pytest.approx(0.0)       # under the bridge
    assert z["blue-warden"] == pytest.approx(3.4)     # on the bridge
    assert z["blue-marksman"] == pytest.approx(4.0)   # on the cliff
    assert info["terrain"]["shapes"] == {"heightfield": 1, "box": 8, "wedge": 1, "cylinder": 1}


def test_skirmish_fields():
    scene = load_scene("scenes/skirmish.yaml")
    raw = (ROOT / "scenes/skirmish.yaml").read_bytes()
    assert scene.path == "scenes/skirmish.yaml"
    assert scene.sha256 == hashlib.sha256(raw).hexdigest()
    assert scene.table == (36.0, 36.0)
    assert scene.games == ("eldfall",)
    assert scene.deployment == {"red": ((0.0, 0.0), (36.0, 8.0)), "blue": ((0.0, 28.0), (36.0, 36.0))}
    ids = [t.id for t in scene.terrain] + [m.id for m in scene.models]
    assert len(ids) == len(set(ids))
    floor = next(t for t in scene.terrain if t.id == "ruin-floor")
    assert floor.shape == "prism" and floor.at == (3.0, 1.0, 2.5) and floor.height == 0.25
    assert floor.points[2] == (8.0, 3.0)
    ladder = next(t for t in scene.terrain if t.id == "ruin-ladder")
    assert ladder.tags == frozenset({"ladder", "climbable"}) and ladder.cover == "none"
    forest = next(t for t in scene.terrain if t.id == "forest")
    assert forest.tags == frozenset({"area", "forest"})
    statue = next(t for t in scene.terrain if t.id == "statue")
    assert statue.file == str((ROOT / "scenes/meshes/statue.stl").resolve()) and statue.turn == 45.0
    wall = next(t for t in scene.terrain if t.id == "low-wall-2")
    assert wall.size == (5.0, 0.5, 1.0) and wall.turn == 30.0 and wall.cover == "auto"
    assert wall.line == line_of("scenes/skirmish.yaml", "{id: low-wall-2,")
    sides = {}
    for m in scene.models:
        sides.setdefault(m.side, []).append(m)
        lo, hi = scene.deployment[m.side]
        assert lo[0] <= m.at[0] <= hi[0] and lo[1] <= m.at[1] <= hi[1], m.id
    assert {s: len(v) for s, v in sides.items()} == {"red": 6, "blue": 6}
    assert [m.id for m in scene.models if m.leader] == ["red-champion", "blue-warden"]


def test_model_spec_mapping():
    scene = load_scene("scenes/skirmish.yaml")
    m = {x.id: x for x in scene.models}
    archer = m["red-archer"]
    assert archer.at == (5.0, 3.0, None)                      # z left out
    assert archer.size == "M"
    assert (archer.base_mm, archer.height_mm) == (size_table()["M"]["base_mm"], size_table()["M"]["height_mm"])
    assert archer.profile.ref == "sample-red#archer"
    assert archer.stats == archer.profile.stats
    assert archer.facing == 60.0 and archer.index == 1
    assert archer.line == line_of("scenes/skirmish.yaml", "{id: red-archer,")
    assert m["blue-marksman"].at == (30.0, 32.0, 2.0)
    assert m["red-brute"].size == "L" and m["red-brute"].base_mm == 40
    assert m["red-scout"].size == "S" and m["red-scout"].states == ("Crouched",)
    heights = load_scene("scenes/heights.yaml")
    giant = next(x for x in heights.models if x.id == "blue-giant")
    assert giant.size is None and (giant.base_mm, giant.height_mm) == (60.0, 60.0) and giant.profile is None
    assert giant.stats["T"] == 17


def test_stats_override_and_size_override(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text("table: [36, 36]\nmodels:\n"
                 "  - {id: a, side: red, profile: sample-red#champion, at: [5, 5], stats: {SPD: 7, OFF: 18}}\n"
                 "  - {id: b, side: red, profile: sample-red#archer, size: L, at: [9, 5]}\n"
                 "  - {id: c, side: red, size: E, base_mm: 100, at: [20, 20]}\n")
    scene = load_scene(p)
    a, b, c = scene.models
    champ = load_profile("sample-red#champion")
    assert a.stats == {**champ.stats, "SPD": 7, "OFF": 18}
    assert champ.stats["SPD"] == 5                             # the profile is untouched
    assert b.size == "L" and b.base_mm == 40 and b.height_mm == 45
    assert c.size == "E" and c.base_mm == 100 and c.height_mm == size_table()["E"]["height_mm"]


def test_off_is_a_stat_not_false():
    # YAML 1.1 reads a plain OFF as false; as a key it must stay the stat
    champ = load_profile("sample-red#champion")
    assert set(champ.stats) == set(STAT_NAMES)
    assert champ.stats["OFF"] == 16 and champ.stats["DEF"] == 12


def test_parties():
    for party in ("sample-red", "sample-blue"):
        profiles = load_party(party)
        assert 5 <= len(profiles) <= 10
        assert sum(p.leader for p in profiles.values()) == 1
        assert {p.size for p in profiles.values()} >= {"S", "M", "L"}
        for p in profiles.values():
            assert set(p.stats) == set(STAT_NAMES), p.ref
            assert p.file == f"models/{party}.yaml"
        text = (ROOT / f"models/{party}.yaml").read_text()
        assert text.startswith("# SAMPLE DATA")
    red = load_party("sample-red")
    champ = red["champion"]
    assert champ.stats == {"STA": 2, "SPD": 5, "ARM": 5, "HP": 3, "OFF": 16, "DEF": 12, "ACC": 12,
                           "INT": 13, "AG": 10, "T": 13, "M": 17}
    assert champ.size == "M" and champ.leader and "Vigilance" in champ.traits
    bow = red["archer"].weapons[0]
    assert bow.kind == "ranged" and bow.bands == ((0.0, 20.0, 0), (21.0, 40.0, -6))
    assert "Acute Senses" in red["archer"].traits
    assert any(w.kind == "melee" and w.rch == 1 for w in red["brute"].weapons)
    assert red["shieldbearer"].shield and "Watchful" in red["shieldbearer"].traits
    mage = red["mage"]
    assert mage.affinities == ("Fire",)
    assert [s.type for s in mage.spells] == ["Sorcery", "Sorcery", "Enchantment"]
    assert mage.spells[1].template == "circular-s" and mage.spells[2].target == "ally"
    blue = load_party("sample-blue")
    assert "Armor-Piercing" in blue["marksman"].weapons[0].traits
    mend = next(s for s in blue["arcanist"].spells if s.name == "Mend")
    assert mend.type == "Healing" and mend.target == "ally"
    grasp = next(s for s in blue["arcanist"].spells if s.name == "Lightning Grasp")
    assert grasp.melee and grasp.rng == 1.0


def test_implicit_unarmed_and_shield_bash():
    scene = load_scene("scenes/skirmish.yaml")
    m = {x.id: x for x in scene.models}
    champ = m["red-champion"]
    assert champ.weapons[-1].name == "Unarmed"
    assert champ.weapons[-1].pw == max(13, 10 - 3) and champ.weapons[-1].rch == 0
    assert champ.weapons[-1].traits == ("Unkeen",)
    sb = m["red-shieldbearer"]
    bash = next(w for w in sb.weapons if w.name == "Shield Bash")
    assert bash.pw == sb.stats["T"] and bash.rch == 0 and bash.stk == 1
    assert "Knockback (1)" in bash.traits and "Unkeen" in bash.traits
    assert not any(w.name == "Shield Bash" for w in champ.weapons)
    # AG - 3 wins when it is higher than T
    assert unarmed({"T": 9, "AG": 14}).pw == 11
    assert unarmed({}).pw == 0
    assert model_weapons(None, {"T": 5})[-1].pw == 5


def test_load_profile_errors():
    with pytest.raises(InputError) as info:
        load_profile("sample-red#nobody")
    assert str(info.value) == "<profile>: profile: no profile 'nobody' in models/sample-red.yaml (it has: " \
                              "champion, archer, mage, shieldbearer, brute, scout)"


def test_models_dir_is_used(tmp_path):
    models = tmp_path / "parties"
    models.mkdir()
    (models / "mine.yaml").write_text(
        "party: Mine\nprofiles:\n  hero:\n    size: L\n    leader: true\n"
        "    stats: {STA: 2, SPD: 5, ARM: 5, HP: 3, OFF: 16, DEF: 12, ACC: 12, INT: 13, AG: 10, T: 13, M: 17}\n")
    p = tmp_path / "s.yaml"
    p.write_text("table: [36, 36]\nmodels:\n  - {id: h, side: red, profile: mine#hero, at: [5, 5]}\n")
    scene = load_scene(p, models_dir=models)
    assert scene.models[0].size == "L" and scene.models[0].leader
    assert mm(scene.models[0].base_mm) == pytest.approx(40 / 25.4)
    with pytest.raises(InputError):
        load_scene(p)                                   # not in the repository's models/


def test_arena_is_for_both_games():
    assert load_scene("scenes/arena.yaml").games == ("eldfall", "norova")


ISSUE_EXAMPLE = """
table: [36, 36]                 # width, depth
terrain:
  - id: wall-1                  # unique among terrain and models
    shape: box                  # box | cylinder | wedge | prism | heightfield | mesh
    at: [18, 18, 0]             # bottom-centre x, y, z
    size: [8, 0.5, 3]           # box: width (x), depth (y), height (z)
    turn: 0                     # degrees about z, optional
    cover: auto                 # auto | light | heavy | none, optional
  - id: tower
    shape: cylinder
    at: [6, 30, 0]
    radius: 2
    height: 6
  - id: ramp
    shape: wedge                # rises along its own +x from 0 to its height
    at: [25, 8, 0]
    size: [4, 3, 2]
  - id: ruin-floor
    shape: prism                # footprint polygon relative to at, extruded up by height
    at: [10, 10, 2.5]
    points: [[0, 0], [6, 0], [6, 4], [0, 4]]
    height: 0.25
  - id: hill
    shape: heightfield          # grid of z values over size, interpolated
    at: [28, 28, 0]
    size: [8, 8]
    heights: [[0, 0, 0], [0, 1.5, 0], [0, 0, 0]]
  - id: statue
    shape: mesh
    file: meshes/statue.stl     # .stl .obj .ply .glb, relative to the scene file and inside its folder
    at: [30, 5, 0]
    scale: 1.0
    turn: 45
    tags: [climbable]           # also ladder, and the rulebook's environments: forest, dark, difficult, ...
models:
  - id: red-archer
    side: red
    size: M                     # S M L H G C E
    at: [4, 18]                 # z left out: it stands on the highest walkable surface under its base centre
    facing: 0
    profile: sample-red#archer  # optional: profile 'archer' in models/sample-red.yaml
    stats: {SPD: 5, AG: 10}     # optional, overrides the profile's
    states: [Crouched]          # optional
  - id: blue-mage
    side: blue
    base_mm: 32                 # explicit base diameter and hitbox height instead of size
    height_mm: 45
    at: [30, 18, 6]
    facing: 180
"""


def test_the_issue_example_loads(tmp_path, capsys):
    import shutil
    shutil.copytree(ROOT / "scenes/meshes", tmp_path / "meshes")
    p = tmp_path / "example.yaml"
    p.write_text(ISSUE_EXAMPLE)
    scene = load_scene(p)
    t = {x.id: x for x in scene.terrain}
    assert [x.shape for x in scene.terrain] == ["box", "cylinder", "wedge", "prism", "heightfield", "mesh"]
    assert t["hill"].heights == ((0, 0, 0), (0, 1.5, 0), (0, 0, 0)) and t["hill"].size == (8.0, 8.0)
    assert t["statue"].tags == frozenset({"climbable"}) and t["statue"].scale == 1.0
    archer, mage = scene.models
    assert archer.at == (4.0, 18.0, None) and archer.states == ("Crouched",)
    assert archer.stats["SPD"] == 5 and archer.stats["AG"] == 10 and archer.stats["ACC"] == 15
    assert mage.at == (30.0, 18.0, 6.0) and mage.size is None and mage.profile is None
    # the blue mage is 6" up with nothing under it: check says so, with its line
    rc = main(["check", str(p)])
    err = capsys.readouterr().err.splitlines()
    assert rc == 2
    assert err == [f"{p}:49: models[1].at: model 'blue-mage' floats: the scene puts its base at z 6.00 but the "
                   "highest surface under it is at z 0.00 (leave z out to stand it there, or give it the Flying state)"]
