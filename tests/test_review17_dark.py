"""Review 17: a Dark area's height (`exceptions.area_height`). eldfall-facts.md
"Environments (areas of the table)": a model is in an environment if its base touches or
overlaps the area, and the Dark limits LoS to Awareness. An area is a region of the table of
any height (`infinite`, the default, the setting a Forest area follows too); `piece` keeps the
piece's own height. A model standing 2" up on a tower inside a 1" Dark area used to be out of the Dark.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165"). Guard AG 8, warden AG 11.
"""
from __future__ import annotations

import json

import pytest

from engine import sight
from engine.errors import InputError
from engine.sight_settings import SightSettings, default_settings, settings_from_dict
from cli_run import run_cli  # noqa: E402
from scene_files import world_of, write

# dk: a Dark area 1" tall over x 6-14, y 6-14; tower (2" tall) and crate (0.5") inside it.
# up stands on the tower (2" up: above the piece), low on the crate (within it), both shieldbearers (AG 8).
# near (guard, AG 8) stands outside the Dark, 6.74" from up and 4.78" from low: within its
# Awareness; far (warden, AG 11) outside it, 18.74" from up: beyond. Nothing else between.
SCENE = """
table: [36, 36]
terrain:
  - {id: dk, shape: box, at: [10, 10, 0], size: [8, 8, 1], tags: [area, dark]}
  - {id: tower, shape: box, at: [10, 10, 0], size: [3, 3, 2]}
  - {id: crate, shape: box, at: [12.5, 7.5, 0], size: [2, 2, 0.5]}
models:
  - {id: up, side: red, size: M, at: [10, 10, 2], facing: 0, profile: sample-red#shieldbearer}
  - {id: low, side: red, size: M, at: [12.5, 7.5, 0.5], facing: 0, profile: sample-red#shieldbearer}
  - {id: near, side: blue, size: M, at: [18, 10], facing: 180, profile: sample-blue#guard}
  - {id: far, side: blue, size: M, at: [30, 10], facing: 180, profile: sample-blue#warden}
"""


@pytest.fixture
def scene(tmp_path):
    return write(tmp_path, "dark.yaml", SCENE)


@pytest.fixture
def world(tmp_path):
    return world_of(tmp_path, SCENE)


def test_the_default_is_an_area_of_any_height():
    assert default_settings().area_height == "infinite"        # Forest's and the Dark's


@pytest.mark.parametrize("height,up_in_dark", [("infinite", True), ("piece", False)])
def test_who_stands_in_the_dark(world, height, up_in_dark):
    s = SightSettings().replace(area_height=height)
    assert ("dark" in sight.sight_environments(world, "up", s)) is up_in_dark
    assert "dark" in sight.sight_environments(world, "low", s)                      # on the crate, within the 1" piece
    assert not {"dark"} & (sight.sight_environments(world, "near", s) | sight.sight_environments(world, "far", s))


@pytest.mark.parametrize("height,viewer,target,los,dark", [
    ("infinite", "far", "up", False, True),    # up in the Dark, 18.74" > far's 11"
    ("infinite", "up", "far", False, True),    # the viewer in the Dark (dark_applies: either)
    ("infinite", "near", "up", True, False),   # within near's Awareness: the lines decide
    ("piece", "far", "up", True, False),       # up is above the 1" piece: out of the Dark
    ("piece", "up", "far", True, False),
    ("piece", "near", "up", True, False),
    ("infinite", "far", "low", False, True),   # low within the piece's height: Dark either way
    ("piece", "far", "low", False, True),
    ("infinite", "near", "low", True, False),
    ("piece", "near", "low", True, False),
])
def test_los_in_and_beyond_awareness(world, height, viewer, target, los, dark):
    s = SightSettings().replace(area_height=height)
    r = sight.los(world, viewer, target, settings=s)
    assert r.los is los, r.reason
    assert str(r.reason).startswith("Dark: ") is dark, r.reason


@pytest.mark.parametrize("height,seen", [("infinite", False), ("piece", True)])
def test_along_a_path_over_the_dark(world, height, seen):
    """up walks across the tower's top: far (beyond Awareness) sees it only when the Dark
    keeps to the piece's height; near (within Awareness) sees it either way."""
    s = SightSettings().replace(area_height=height)
    res = {p.observer: p for p in sight.los_along_path(world, "up", [(9, 10, 2), (11, 10, 2)],
                                                       ["far", "near"], settings=s)}
    assert res["far"].had_los is seen
    assert res["near"].had_los


def test_settings_are_checked():
    assert settings_from_dict({"exceptions": {"area_height": "piece"}}).area_height == "piece"
    with pytest.raises(InputError) as info:
        settings_from_dict({"exceptions": {"area_height": "tall"}}, "s.yaml")
    assert [str(p) for p in info.value.problems] == [
        "s.yaml: exceptions.area_height: must be one of infinite, piece, not 'tall'"]


def test_bad_setting_file_is_one_line(tmp_path, capsys, scene):
    sfile = write(tmp_path, "bad.yaml", "exceptions:\n  area_height: 3\n")
    rc, out, err = run_cli(capsys, "los", str(scene), "far", "up", "--settings", str(sfile))
    assert rc == 2 and err.strip().count("\n") == 0
    assert err.strip() == f"{sfile}:2: exceptions.area_height: must be one of infinite, piece, not 3"


def test_los_names_the_changed_setting_and_the_json_round_trips(tmp_path, capsys, scene):
    sfile = write(tmp_path, "piece.yaml", "exceptions:\n  area_height: piece\n")
    rc, out, err = run_cli(capsys, "los", str(scene), "far", "up", "--settings", str(sfile))
    assert rc == 0, err
    assert out.startswith("far -> up: LoS yes")
    assert "changed from the defaults: exceptions.area_height piece" in out
    rc, out, err = run_cli(capsys, "los", str(scene), "--all", "--settings", str(sfile))
    assert rc == 0 and "changed from the defaults: exceptions.area_height piece" in out
    # the matrix answers as the single calls do, with each value
    for extra, seen in (((), False), (("--settings", str(sfile)), True)):
        rc, out, err = run_cli(capsys, "los", str(scene), "--all", "--json", *extra)
        assert rc == 0, err
        m = json.loads(out)["los"]
        assert m["far"]["up"] is seen and m["up"]["far"] is seen and m["near"]["up"] is True
    # the default: up is in the Dark and nothing is said changed
    rc, out, _ = run_cli(capsys, "los", str(scene), "far", "up")
    assert rc == 0 and out.startswith("far -> up: LoS no (Dark: up stands in a Dark area")
    assert "changed from the defaults" not in out
    # a saved --json verdict's settings block gives the same settings, the same verdict
    rc, out, err = run_cli(capsys, "los", str(scene), "far", "up", "--settings", str(sfile), "--json")
    assert rc == 0, err
    first = json.loads(out)
    assert first["settings"]["area_height"] == "piece" and first["los"] is True
    saved = write(tmp_path, "verdict.json", out)
    rc, out, err = run_cli(capsys, "los", str(scene), "far", "up", "--settings", str(saved), "--json")
    assert rc == 0, err
    again = json.loads(out)
    assert again["settings"] == first["settings"] and again["los"] is True
    # the settings block alone, as printed, too
    block = write(tmp_path, "block.json", json.dumps(first["settings"]))
    rc, out, err = run_cli(capsys, "los", str(scene), "far", "up", "--settings", str(block), "--json")
    assert rc == 0 and json.loads(out)["settings"]["area_height"] == "piece"


@pytest.mark.parametrize("height,in_dark", [("infinite", True), ("piece", False)])
def test_the_rules_and_measure_read_the_same_dark(tmp_path, capsys, height, in_dark):
    """The -3 of a ranged attack at a model in the Dark beyond half the attacker's Awareness
    (eldfall-facts.md "Environments") follows the same height as line of sight: the rules read
    ``WorldGeometry.environments``, ``measure`` prints the modifier."""
    from engine.geometry import WorldGeometry
    text = SCENE.replace("profile: sample-blue#guard", "profile: sample-blue#marksman")
    scene = write(tmp_path, "dark2.yaml", text)
    s = SightSettings().replace(area_height=height)
    assert ("dark" in WorldGeometry(world_of(tmp_path, text), sight_settings=s).environments("up")) is in_dark
    sfile = write(tmp_path, "s.yaml", f"exceptions:\n  area_height: {height}\n")
    rc, out, err = run_cli(capsys, "measure", str(scene), "near", "up", "--weapon", "Heavy Crossbow",
                           "--settings", str(sfile), "--json")
    assert rc == 0, err
    (w,) = [w for w in json.loads(out)["weapons"] if w["name"] == "Heavy Crossbow"]
    dark = [t for t in w["modifiers"] if t.get("what") == "dark"]
    assert bool(dark) is in_dark, w["modifiers"]


def test_a_forest_area_reaches_the_tower_top_as_the_dark_does(tmp_path):
    """A Forest area of any height (the same setting): a model on a tower over it is within it."""
    from engine.geometry import WorldGeometry
    text = SCENE.replace("tags: [area, dark]", "tags: [area, forest]")
    w = world_of(tmp_path, text)
    assert "forest" in WorldGeometry(w).environments("up")
    assert "forest" not in WorldGeometry(w, sight_settings=SightSettings().replace(
        area_height="piece")).environments("up")
