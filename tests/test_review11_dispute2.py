"""Review 11, the dispute report's second pass: `eldfall measure` and `eldfall los` as players in
a rules dispute read them, every number checked against a ruler computation.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165").
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from engine.scene import load_scene
from engine.world import World
from cli_run import run_cli  # noqa: E402
from scene_files import write  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
MODELS = str(ROOT / "models")
R_M = 16.0 / 25.4             # a Medium base's radius, inches


def _pair(tmp_path, gap: float, extra: str = "") -> Path:
    """The sample archer (Longbow 0-20" ACC 0, 21-40" ACC -6; Hunting Knife RCH 0; AG 12 + Acute
    Senses = Awareness 15") at (6, 12) facing +x, and a Medium warden ``gap`` inches of clear
    table in front of it: the closest points of the two hitboxes are ``gap`` apart."""
    return write(tmp_path, "pair.yaml", f"""\
table: [48, 24]
{extra}models:
  - {{id: a, side: red,  profile: sample-red#archer, at: [6, 12], facing: 0}}
  - {{id: b, side: blue, profile: sample-blue#warden, at: [{6 + 2 * R_M + gap:.6f}, 12], facing: 180}}
""")


def test_measure_prints_a_distance_past_a_band_edge_as_past_it(tmp_path, capsys):
    # 20.004" is in the Longbow's 21-40" band (ACC -6); the measure printed "in range at 20.00",
    # band 21-40"", a number a player reads as in the 0-20" band
    scene = _pair(tmp_path, 20.004)
    world = World(load_scene(str(scene), models_dir=MODELS))
    assert world.distance("a", "b") == pytest.approx(20.004, abs=1e-6)      # the ruler: 20.004"
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--models-dir", MODELS)
    assert rc == 0, err
    assert '  distance 20.004" (closest points of the hitboxes); 20.004" between the bases' in out, out
    assert 'Longbow: in range at 20.004", band 21-40", ACC -6' in out, out
    assert 'Hunting Knife: RCH 0 needs base contact; 20.004" apart' in out, out
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--models-dir", MODELS, "--json")
    longbow = next(w for w in json.loads(out)["weapons"] if w["name"] == "Longbow")
    assert longbow["band"] == [21, 40] and longbow["modifier"] == -6
    assert longbow["why"] == '20.004" is in the 21-40" band', longbow
    # past the last band, and past the Awareness (15"): the numbers say why
    scene = _pair(tmp_path, 40.004)
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--models-dir", MODELS)
    assert 'Longbow: out of range: 40.004" is beyond 40"' in out, out
    scene = _pair(tmp_path, 15.004)
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--models-dir", MODELS)
    assert '  distance 15.004" (closest' in out and "b is outside" in out, out
    # within the contact tolerance (0.001") the whole inch counts, and reads as it
    scene = _pair(tmp_path, 20.0004)
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--models-dir", MODELS)
    assert 'Longbow: in range at 20.00", band 0-20", ACC +0' in out, out


def test_out_of_reach_by_a_hair_reads_past_the_reach(tmp_path):
    # RCH 1": 1.004" apart is out of reach; "out of reach: 1.00" > RCH 1"" contradicts itself
    from engine.measure import weapon_reach
    from engine.scene import Weapon
    world = World(load_scene(str(_pair(tmp_path, 1.004)), models_dir=MODELS))
    w = weapon_reach(world, "a", "b", Weapon("Spear", "melee", rch=1.0, pw=10, stk=1))
    assert not w.in_reach and w.why == 'out of reach: 1.004" > RCH 1"', w.why


def test_a_wall_a_hair_lower_than_the_hitbox_reads_lower(tmp_path):
    # a 1.77" wall 0.22" in front of a Medium model (hitbox 45 mm = 1.77165"): not taller, so
    # Light; the reason printed "its top is 1.77" above the base (not taller than the 1.77"
    # hitbox)", two equal numbers for a player to argue over
    from engine import sight
    scene = write(tmp_path, "wall.yaml", """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [11, 12, 0], size: [0.3, 4, 1.77]}
models:
  - {id: a, side: red, size: M, at: [2, 12], facing: 0}
  - {id: t, side: blue, size: M, at: [12, 12], facing: 180}
""")
    world = World(load_scene(str(scene)))
    r = sight.los(world, "a", "t")
    assert r.los and (r.cover, r.cover_piece) == ("light", "wall")
    gap = (12 - R_M) - (11 + 0.15)                       # the ruler: 0.22" from the wall's back face
    assert f'wall is {gap:.2f}" away' in r.cover_reason
    assert ('its top is 1.770" above the base (not taller than the 1.772" hitbox) and it is 4.00" wide '
            '(wider than the 1.26" base)') in r.cover_reason, r.cover_reason
    from engine.cover import side_by_side
    assert side_by_side(1.26, 2 * R_M) == ("1.2600", "1.2598")      # wider by 0.0002"
    assert side_by_side(3.0, 1.77165) == ("3.00", "1.77")           # as before when they differ
    assert side_by_side(45 / 25.4, 45 / 25.4) == ("1.77", "1.77")   # equal: taller (>=), not wider


FORESTS = """\
table: [36, 24]
terrain:
  - {id: wood-1, shape: box, at: [8, 12, 0], size: [6, 6, 3], tags: [area, forest]}
  - {id: wood-2, shape: box, at: [20, 12, 0], size: [6, 6, 3], tags: [area, forest]}
models:
  - {id: a, side: red, size: M, at: [3, 12], facing: 0}
  - {id: c, side: blue, size: M, at: [20, 12], facing: 180}
  - {id: d, side: blue, size: M, at: [30, 12], facing: 180}
"""


def test_forest_areas_in_the_way_are_named_as_forest_areas(tmp_path, capsys):
    # two Forest areas (regions, not solid) between a and c: no LoS by the Forest rule. The
    # verdict said "blocked by wood-1, wood-2" as if they were walls
    scene = write(tmp_path, "woods.yaml", FORESTS)
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "c")
    assert rc == 0, err
    first = out.splitlines()[0]
    gap = 20 - 3 - 2 * R_M                                      # the ruler: 15.74"
    assert first == (f'a -> c: LoS no (blocked by wood-1, wood-2 (Forest areas: no LoS through 2 or more)), '
                     f'{gap:.1f}" away, level'), first
    assert ("  blocking: wood-1, wood-2 (Forest areas: no LoS through 2 or more, those the viewer or the "
            "target stand in included)") in out, out
    # a model in the way too: only the areas are called areas
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "d")
    assert out.startswith("a -> d: LoS no (blocked by c, wood-1, wood-2 (wood-1, wood-2 are Forest areas: "
                          "no LoS through 2 or more)), "), out
    # a solid piece alone reads as before
    rc, out, err = run_cli(capsys, "los", str(write(tmp_path, "wall.yaml", FORESTS.replace(
        "tags: [area, forest]}\n  - {id: wood-2", "}\n  - {id: wood-2").replace(
        "size: [6, 6, 3]}", "size: [1, 6, 3]}"))), "a", "c")
    assert out.startswith("a -> c: LoS no (blocked by wood-1), "), out


def test_f12_verdict_json_pins_every_model_where_it_stands_now(view_app, tmp_path):
    # in a game a model steps between the two: the F12 verdict.json gave the scene file's
    # SHA-256 (where the models started) and the positions of the viewer and the target only,
    # so "LoS no, blocked by blue-marker" could not be rebuilt from it
    from engine import sight
    from engine.view.pictures import dispute_folder
    world = World(load_scene(str(ROOT / "scenes" / "open.yaml"), models_dir=MODELS))
    world.move_model("blue-ogre", 12.0, 18.0)              # in front of red-champion (6, 18)
    world.set_states("blue-marker", {"Crouched"})
    r = sight.los(world, "red-champion", "blue-warden")
    dispute_folder(world, r, str(tmp_path / "f12"))
    saved = json.loads((tmp_path / "f12" / "verdict.json").read_text())
    assert set(saved["positions"]) == set(world.model_ids())
    assert (saved["positions"]["blue-ogre"]["x"], saved["positions"]["blue-ogre"]["y"]) == (12.0, 18.0)
    assert saved["positions"]["blue-marker"]["states"] == ["Crouched"]
    assert saved["positions"]["red-champion"] == {"x": 6.0, "y": 18.0, "z": 0.0, "facing": 0.0, "states": []}


def test_minimum_visible_area_against_the_hitbox_surface_by_hand(tmp_path, capsys):
    # a Medium hitbox in the open: its whole surface is seen, pi * 32 * 45 + 2 * pi * 16^2 =
    # 6132.4 mm2; a minimum of 6132 mm2 leaves LoS, 6133 mm2 takes it away
    import math
    area = math.pi * 32 * 45 + 2 * math.pi * 16 ** 2
    scene = _pair(tmp_path, 5.0)
    for minimum, los in ((6132, "yes"), (6133, "no")):
        s = write(tmp_path, f"s{minimum}.yaml", f"min_visible_area_mm2: {minimum}\n")
        rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--settings", str(s), "--models-dir", MODELS)
        assert rc == 0, err
        assert out.startswith(f"a -> b: LoS {los}"), out
        assert f"visible: 100.0% of 1184 sample points of b's hitbox ({area:.0f} mm2)" in out, out
        assert f"minimum visible area {minimum} mm2" in out


def test_measure_answers_los_and_engagement_by_the_settings_file_los_uses(tmp_path, capsys):
    # a house rule "no LoS through even one Forest area" (exceptions.forest_limit: 1): `eldfall
    # los --settings` said no LoS while `eldfall measure` (no --settings) said LoS yes and
    # "a engages b", and its JSON gave the default settings as the ones used
    wood = "terrain:\n  - {id: wood, shape: box, at: [8, 12, 0], size: [8, 6, 3], tags: [area, forest]}\n"
    scene = _pair(tmp_path, 0.0, extra=wood)                 # base contact, both in the wood
    house = write(tmp_path, "house.yaml", "exceptions: {forest_limit: 1}\n")
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--settings", str(house), "--models-dir", MODELS)
    assert out.startswith("a -> b: LoS no (blocked by wood"), out
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--models-dir", MODELS)
    assert "  LoS a -> b: yes" in out and "engagement: a engages b; b engages a" in out, out
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--settings", str(house), "--models-dir", MODELS)
    assert rc == 0, err
    assert "  LoS a -> b: no" in out and "engagement: a does not engage b; b does not engage a" in out, out
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--settings", str(house), "--models-dir", MODELS,
                           "--json")
    got = json.loads(out)
    assert got["los"] is False and got["settings"]["sight"]["forest_limit"] == 1
    # a bad settings file: one line, exit 2
    bad = write(tmp_path, "bad.yaml", "exceptions: {forest_limit: 0}\n")
    rc, out, err = run_cli(capsys, "measure", str(scene), "a", "b", "--settings", str(bad), "--models-dir", MODELS)
    assert rc == 2 and err.strip() == f"{bad}:1: exceptions.forest_limit: must be a whole number of at least 1, not 0"


def test_dark_reason_prints_a_distance_past_the_awareness_as_past_it(tmp_path):
    from engine import sight
    dark = "terrain:\n  - {id: gloom, shape: box, at: [24, 12, 0], size: [6, 6, 4], tags: [area, dark]}\n"
    world = World(load_scene(str(_pair(tmp_path, 15.004, extra=dark)), models_dir=MODELS))
    r = sight.los(world, "a", "b")
    assert not r.los and r.reason == ('Dark: b stands in a Dark area, 15.004" away, '
                                      "beyond a's Awareness of 15\"")
