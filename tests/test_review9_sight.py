"""Review 9, line of sight, cover and templates as a player in a dispute judges them: small
scenes written here, whose answers a judge with a ruler works out by hand.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165").
"""
from __future__ import annotations

import json

import pytest

from engine import sight
from engine.scene import load_scene
from engine.world import World
from cli_run import run_cli  # noqa: E402
from scene_files import write


def _world(tmp_path, name: str, text: str) -> tuple[World, str]:
    p = write(tmp_path, name, text)
    return World(load_scene(str(p))), str(p)


# ----------------------------------------------------------------- a model standing on a slope
# A 12" wedge rising 3" along +x (0.25" per inch): the target stands in its middle, 1.5" up.
# The uphill half of its base is sunk in the slope (a base may stand so on a walkable slope):
# those sample points lie inside the ramp, and no viewer anywhere sees them.
RAMP = """
table: [36, 36]
terrain:
  - {id: ramp, shape: wedge, at: [18, 18, 0], size: [12, 6, 3]}
models:
  - {id: t, side: blue, size: M, at: [18, 18], facing: 180}
  - {id: down, side: red, size: M, at: [6, 18], facing: 0}
  - {id: side, side: red, size: M, at: [18, 6], facing: 90}
  - {id: up, side: red, size: M, at: [30, 10], facing: 135}
"""


@pytest.mark.parametrize("viewer", ["down", "side"])
def test_a_model_on_a_slope_is_not_in_cover_from_the_ground_buried_under_its_base(tmp_path, viewer):
    # from the foot of the ramp (looking up it) and from the side of the ramp nothing hides
    # the target: the slope in front of it is lower than its base all the way, and the ramp's
    # side edge is 2.4" from the base. Only the points buried in the ramp are unseen, and the
    # ground under a base hides nothing (it used to give Light "from its own ledge, 0.00"").
    w, _ = _world(tmp_path, "ramp.yaml", RAMP)
    r = sight.los(w, viewer, "t")
    assert r.los and r.cover == "none", r.cover_reason


def test_ground_rising_towards_the_attacker_hides_as_a_piece_not_as_a_ledge(tmp_path):
    # the attacker stands beyond the top of the ramp: the ramp rising between them hides the
    # lower part of the target. Within 1" the ramp rises above the base, not to the top of the
    # hitbox: Light, by the general rule (there is no edge of a ledge towards the attacker)
    w, _ = _world(tmp_path, "ramp.yaml", RAMP)
    r = sight.los(w, "up", "t")
    assert r.los and (r.cover, r.cover_piece) == ("light", "ramp")
    assert "ledge" not in r.cover_reason and "not taller" in r.cover_reason, r.cover_reason


def test_heights_scout_on_the_cliff_ramp_seen_from_the_tower_has_no_cover():
    # scenes/heights.yaml: the tower's roof (6.3" up) looks down on the scout halfway up the
    # cliff ramp; nothing stands between them (it read Light "from its own ledge")
    w = World(load_scene("scenes/heights.yaml"))
    r = sight.los(w, "red-archer", "blue-scout")
    assert r.los and r.cover == "none", r.cover_reason


# ----------------------------------------------------------------- the text of an exception
FLY = """
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 12, 0], size: [0.5, 8, 3]}
models:
  - {id: fly, side: red, size: M, at: [6, 12], facing: 0, states: [Flying]}
  - {id: b, side: blue, size: M, at: [13, 12], facing: 180}
"""


def test_flying_los_with_nothing_in_sight_does_not_claim_a_clear_line(tmp_path, capsys):
    _, path = _world(tmp_path, "fly.yaml", FLY)
    rc, out, _ = run_cli(capsys, "los", path, "fly", "b")
    assert rc == 0 and "LoS yes, 0% visible" in out
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("blocking:"))
    assert "clear line remains" not in line and "state" in line, line


# ----------------------------------------------------------------- templates: bad input
def test_aoe_count_beyond_any_strike_value_is_refused_at_once(capsys):
    rc, out, err = run_cli(capsys, "aoe", "scenes/skirmish.yaml", "--template", "spray-s", "--by", "red-mage",
                           "--aim", "10,10", "--count", "1000000")
    assert rc == 2 and not out
    assert err.strip().count("\n") == 0 and err.startswith("<command line>: --count:") and "20" in err


def test_spray_with_its_user_as_main_target_says_so(capsys):
    rc, out, err = run_cli(capsys, "aoe", "scenes/skirmish.yaml", "--template", "spray-s", "--by", "red-mage",
                           "--target", "red-mage")
    assert rc == 2 and not out
    assert err.startswith("<command line>: --target:") and "own spray" in err and "aim point" not in err


# ----------------------------------------------------------------- a settings file with a slip
@pytest.mark.parametrize("text, where, says", [
    ("lattice:\n  patch_mm: .inf\n", ":2: lattice.patch_mm:", "finite"),
    ("min_visible_area_mm2: .nan\n", ":1: min_visible_area_mm2:", "finite"),
    ("arcs:\n  three_sixty_states: [Shrouded, Vigilence]\n", ":2: arcs.three_sixty_states:", "'Vigilence'"),
    ("cover:\n  sizes: [S, M, Q]\n", ":2: cover.sizes:", "'Q'"),
    ("exceptions:\n  flying_state: Flyng\n", ":2: exceptions.flying_state:", "'Flyng'"),
])
def test_a_misspelt_or_infinite_sight_setting_is_refused_with_its_line(tmp_path, capsys, text, where, says):
    # each of these used to be taken: an infinite lattice spacing answered with warnings and
    # a wrong matrix; a misspelt state or size code silently switched its rule off
    p = write(tmp_path, "sight.yaml", text)
    rc, out, err = run_cli(capsys, "los", "scenes/open.yaml", "--all", "--settings", str(p))
    assert rc == 2 and not out, out
    assert len(err.strip().splitlines()) == 1 and where in err and says in err, err


def test_the_default_settings_still_load():
    from engine.sight_settings import load_settings
    s = load_settings(None)
    assert s.three_sixty_states == ("Shrouded", "Vigilance") and s.cover_sizes == ("S", "M", "L")


# ----------------------------------------------------------------- a piece tagged `cover: none`
TAGGED = """
table: [24, 24]
terrain:
  - {id: rubble, shape: box, at: [12, 12, 0], size: [0.5, 6, 1], cover: none}
models:
  - {id: a, side: red, size: M, at: [4, 12], facing: 0}
  - {id: b, side: blue, size: M, at: [13, 12], facing: 180}
"""


def test_a_piece_tagged_no_cover_is_not_named_as_the_cover_piece(tmp_path, capsys):
    # the rubble hides the lower half of b but its tag says it gives no cover: the JSON said
    # "cover": "none" with "cover_piece": "rubble", and the text "cover: none from rubble"
    _, path = _world(tmp_path, "tagged.yaml", TAGGED)
    rc, out, _ = run_cli(capsys, "los", path, "a", "b", "--json")
    d = json.loads(out)
    assert rc == 0 and d["los"] and (d["cover"], d["cover_piece"]) == ("none", None)
    assert d["cover_reason"].startswith("no cover: rubble") and "tag says none" in d["cover_reason"]


# ----------------------------------------------------------------- --picture into a folder's name
@pytest.mark.parametrize("argv, name", [
    (["los", "scenes/open.yaml", "red-archer", "blue-warden"], "eye.png"),
    (["los", "scenes/open.yaml", "red-archer", "blue-warden"], "overview.png"),
    (["aoe", "scenes/open.yaml", "--template", "circle-s", "--at", "10,10"], "aoe.png"),
])
def test_picture_where_a_folder_has_the_pictures_name_is_refused_before_any_work(tmp_path, capsys, argv, name):
    # DIR/eye.png was a folder: nothing could be written there, yet the command printed
    # "picture: DIR/eye.png" and exited 0 (leaving an empty eye.png.pz beside it)
    (tmp_path / name).mkdir()
    rc, out, err = run_cli(capsys, *argv, "--picture", str(tmp_path))
    assert rc == 2 and not out
    assert err.startswith("<command line>: --picture:") and f"{name} there: it is a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]


# ----------------------------------------------------------------- reproducibility and the matrix
def test_los_json_says_whether_the_viewer_was_moving(capsys):
    # --moving changes the answer (360 degrees) but the JSON did not record it: a rerun
    # without it could not give the same verdict
    for argv, want in ((("--moving",), True), ((), False)):
        rc, out, _ = run_cli(capsys, "los", "scenes/open.yaml", "red-archer", "blue-warden", "--json", *argv)
        assert rc == 0 and json.loads(out)["moving"] is want
    rc, out, _ = run_cli(capsys, "los", "scenes/open.yaml", "--all", "--json", "--moving")
    assert rc == 0 and json.loads(out)["moving"] is True


def test_matrix_of_an_empty_table_says_so(tmp_path, capsys):
    p = write(tmp_path, "empty.yaml", "table: [10, 10]\n")
    rc, out, _ = run_cli(capsys, "los", str(p), "--all")
    assert rc == 0 and out.startswith("LoS matrix: no models on the table")
    p = write(tmp_path, "one.yaml", "table: [10, 10]\nmodels:\n  - {id: a, side: red, size: M, at: [5, 5]}\n")
    rc, out, _ = run_cli(capsys, "los", str(p), "--all")
    assert rc == 0 and out.startswith("LoS matrix (1 model):")


DARK = """
table: [24, 24]
terrain:
  - {id: dk, shape: box, at: [12, 12, 0], size: [10, 10, 3], tags: [area, dark]}
models:
  - {id: a, side: red, size: M, at: [6, 12], facing: 0, stats: {AG: 4}}
  - {id: b, side: blue, size: M, at: [14, 12], facing: 180}
"""


def test_dark_verdict_gives_the_distance_and_the_awareness_it_was_measured_against(tmp_path, capsys):
    # a player disputing "beyond Awareness" needs the two numbers: 8 - 1.26 = 6.74" against AG 4
    _, path = _world(tmp_path, "dark.yaml", DARK)
    rc, out, _ = run_cli(capsys, "los", path, "a", "b")
    assert rc == 0 and "LoS no (Dark:" in out
    assert "6.74\" away, beyond a's Awareness of 4\"" in out.splitlines()[0]


# ----------------------------------------------------------------- ids that name no model on the table
@pytest.mark.parametrize("argv, says", [
    (["los", "scenes/ritual.yaml", "ritual-wolf", "red-summoner"],
     "scenes/ritual.yaml: VIEWER: 'ritual-wolf' is a reserve creature: off the table"),
    (["los", "scenes/ritual.yaml", "red-summoner", "stone-west"],
     "scenes/ritual.yaml: TARGET: 'stone-west' is a terrain piece, not a model"),
    (["los", "scenes/ritual.yaml", "red-snare", "red-summoner"],
     "scenes/ritual.yaml: VIEWER: 'red-snare' is a token, not a model"),
    (["aoe", "scenes/ritual.yaml", "--template", "circle-s", "--target", "ritual-wolf"],
     "<command line>: --target: 'ritual-wolf' is a reserve creature"),
    (["los", "scenes/ritual.yaml", "nobody", "red-summoner"],
     "scenes/ritual.yaml: VIEWER: unknown model 'nobody' (known: red-summoner"),
])
def test_an_id_of_the_scene_that_is_not_a_model_on_the_table_says_what_it_is(capsys, argv, says):
    # the scene knows these ids (a reserve creature, a piece, a token): "unknown model" read
    # as a typo
    rc, out, err = run_cli(capsys, *argv)
    assert rc == 2 and not out and len(err.strip().splitlines()) == 1
    assert err.startswith(says), err
