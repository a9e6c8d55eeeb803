"""Review 8, the players in a dispute: small scenes (tests/data/review8_dispute/) whose answers a
judge with a ruler works out by hand, run through `eldfall los/aoe/measure` and the engine.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165"); Small 25 x 25 mm;
Large 40 x 45 mm; Huge 50 x 50 mm. Circular S 70 mm, L 120 mm; Spray S 213 mm.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from engine import cover as C
from engine import sight
from engine.scene import ModelSpec, Scene, TerrainSpec, load_scene
from engine.units import mm
from engine.world import World
from cli_run import run_cli  # noqa: E402

DATA = Path(__file__).parent / "data" / "review8_dispute"
R = mm(16)             # Medium base radius
H = mm(45)             # Medium hitbox height


def scene(name: str) -> str:
    return str(DATA / f"{name}.yaml")


def world(name: str) -> World:
    return World(load_scene(scene(name)))


# ----------------------------------------------------------------- walls, sizes, towers, ledges
# (viewer, target, LoS, cover, piece, distance): every distance is the gap between the bases
# seen from above (both on the table) unless a comment says otherwise.
WALLS = [
    ("a1", "b1", False, "none", None, 8.12),       # 2" wall, both hitboxes 1.77": nothing over it
    ("a2", "b2", True, "light", "wall-low", 8.12),   # 1" wall 0.5" in front: not taller
    ("a3", "b3", True, "none", None, 9.12),        # the same wall 1.5" in front: too far
    ("a4", "b4", True, "heavy", "wall-2in", math.hypot(8.12, 6 - H)),   # from a 6" tower: over a 2" wall
    ("a5", "b5", True, "heavy", "wall-s", 8.12),     # a Small (0.98" tall) behind a 1" wall: taller
    ("a6", "b6", True, "none", None, 8.12),        # a Huge gets no cover
    ("a7", "b7", True, "light", "wall-l", 8.12),     # a Large behind a 1" wall
    ("a8", "b8", True, "light", "post", 8.12),       # a 3" post 1.0" wide: narrower than the base
]


@pytest.mark.parametrize("viewer, target, los, level, piece, dist", WALLS)
def test_walls_of_given_height_at_given_distances(viewer, target, los, level, piece, dist):
    w = world("walls")
    r = sight.los(w, viewer, target)
    assert (r.los, r.cover, r.cover_piece if level != "none" else None) == (los, level, piece), r.cover_reason
    assert r.distance == pytest.approx(dist, abs=0.01)


def test_tower_window_floor_and_roof():
    w = world("tower")
    r = sight.los(w, "gunner", "upstairs")          # through the window, 0.1" behind the window wall
    assert r.los and 0 < r.visible_fraction < 0.5
    assert r.cover == "heavy" and r.cover_piece in {"pier-s", "pier-n", "sill", "lintel"}
    assert r.height_difference == pytest.approx(3.25)
    assert not sight.los(w, "gunner", "ground-in").los        # the ground storey's wall is solid
    r = sight.los(w, "gunner", "on-roof")                      # over a 1" parapet
    assert r.los and (r.cover, r.cover_piece) == ("light", "parapet")
    assert not sight.los(w, "gunner", "roof-mid").los          # the roof's edge hides the middle


def test_circle_on_an_upper_floor_does_not_reach_through_it():
    from engine import templates as T
    w = world("tower")
    res = T.template(w, "circle-l", user="gunner", target="upstairs")
    assert res.legal and [h.id for h in res.affected] == ["upstairs"]
    assert res.placements[0].band == pytest.approx((0.25, 6.25))
    assert "no LoS" in res.miss("below-out").why and "no LoS" in res.miss("ground-in").why
    assert "0.25\" above" in res.miss("on-roof").why


# ----------------------------------------------------------------- cover at the 1" limit
def _ledge_table(gap: float, sideways: float = 0.0):
    """A 3" platform from x 20; a Medium on it, its base ``gap`` from the west edge; a shooter
    on the ground 10" west (and ``sideways`` north)."""
    ter = (TerrainSpec("platform", "box", (25, 18, 0), size=(10, 32, 3)),)
    models = (ModelSpec("shooter", "red", 32, 45, (10, 12 + sideways, None), facing=0.0, size="M"),
              ModelSpec("up", "blue", 32, 45, (20 + gap + R, 12, None), facing=180.0, size="M"))
    return World(Scene("", (40, 36), terrain=ter, models=models))


@pytest.mark.parametrize("gap, level", [(0.3, "light"), (0.995, "light"), (1.0, "light"), (1.004, "none")])
def test_higher_ground_edge_within_an_inch_measured_exactly(gap, level):
    # the edge used to be found in 0.01" steps from the centre: 0.995" and 1.0" read as 1.00008"
    w = _ledge_table(gap)
    r = sight.los(w, "shooter", "up")
    assert r.los and r.cover == level, r.cover_reason
    if level == "none":
        assert "1.004\"" in r.cover_reason          # never "1.00\"" for an edge that is too far


def test_higher_ground_edge_is_the_one_that_hides_it():
    # up5 stands 0.07" from the south edge of a 5" ledge; the attacker is below and to the
    # south-west: that edge hides its lower part (the line from its centre towards the
    # attacker meets the edge 2.3" away, which used to give no cover)
    w = world("spray")
    r = sight.los(w, "user", "up5")
    assert r.los and (r.cover, r.cover_piece) == ("light", "ledge5"), r.cover_reason
    assert "the edge is 0.07\"" in r.cover_reason


@pytest.mark.parametrize("gap, level", [(0.999, "light"), (1.0, "light"), (1.001, "none")])
def test_wall_exactly_an_inch_away_still_gives_cover(gap, level):
    # at 1.0" the wall used to fall outside the square in which its top was looked for
    # ("wall-low is not higher than its base")
    w = world("walls")
    w.move_model("b2", 12.25 + gap + R, 12)
    r = sight.los(w, "a2", "b2")
    assert r.cover == level, r.cover_reason
    if level == "none":
        assert "1.001\" away" in r.cover_reason


def test_a_ramps_height_is_taken_within_an_inch_not_within_a_square():
    # a ramp rising along +x beside the target: within 1" of its base (a disc) the ramp is at
    # most 1.70" high, lower than the 1.77" hitbox: Light. The corner of the square the top
    # used to be looked for in reaches 1.85" up the ramp: Heavy.
    ter = (TerrainSpec("ramp", "wedge", (12, 12, 0), size=(6, 6, 3)),)     # x 9-15, y 9-15
    xb, yb = 12 - 0.939, 9 - 0.3 - R
    models = (ModelSpec("a", "red", 32, 45, (xb, 24, None), facing=270.0, size="M"),
              ModelSpec("b", "blue", 32, 45, (xb, yb, None), facing=90.0, size="M"))
    w = World(Scene("", (24, 26), terrain=ter, models=models))
    ramp = next(p for p in w.pieces if p.id == "ramp")
    # by hand: the disc of radius R + 1 about the base meets the ramp's side (y 9) up to
    # x = xb + sqrt((R + 1)^2 - (R + 0.3)^2); the ramp is 0.5 x (x - 9) high there
    x_far = xb + math.sqrt((R + 1) ** 2 - (R + 0.3) ** 2)
    assert C.local_top(ramp.mesh, w.hitbox("b"), 1.0) == pytest.approx(0.5 * (x_far - 9), abs=1e-6)
    r = sight.los(w, "a", "b")
    assert r.los and (r.cover, r.cover_piece) == ("light", "ramp"), r.cover_reason


def test_local_top_of_a_box_is_its_top_and_nothing_beyond_the_disc():
    ter = (TerrainSpec("wall", "box", (12, 12, 0), size=(0.5, 4, 2)),)     # x 11.75-12.25
    models = (ModelSpec("b", "blue", 32, 45, (12.25 + 0.5 + R, 12, None), size="M"),)
    w = World(Scene("", (24, 24), terrain=ter, models=models))
    wall = w.pieces[[p.id for p in w.pieces].index("wall")]
    assert C.local_top(wall.mesh, w.hitbox("b"), 1.0) == pytest.approx(2.0)
    assert C.local_top(wall.mesh, w.hitbox("b"), 0.4) == -math.inf


# ----------------------------------------------------------------- ledges, crouched, flying
def test_ledges_crouched_and_flying():
    w = world("ledges")
    r = sight.los(w, "shooter1", "edge-near")
    assert (r.cover, r.cover_piece) == ("light", "platform") and "0.30\"" in r.cover_reason
    assert r.distance == pytest.approx(math.hypot(20.93 - R - 10 - R, 3 - H), abs=0.01)
    assert sight.los(w, "shooter2", "edge-far").cover == "none"          # its edge is 1.5" away
    assert not sight.los(w, "top-gun", "at-foot").los                     # the cliff's edge hides it
    assert not sight.los(w, "shooter3", "crouch").los                     # a 0.14" disc behind a 1" wall
    r = sight.los(w, "shooter4", "crouch-open")
    assert r.los and r.cover == "light" and r.cover_piece is None
    r = sight.los(w, "shooter3", "flyer")
    assert r.los and r.cover == "none"


def test_los_cli_measures_a_flying_model_on_the_surface(capsys):
    # Flying: "All distances ... are measured as if the model were placed on the field surface";
    # `eldfall measure` said 8.45" and level, `eldfall los` 8.48" and 2.5" higher
    from engine.measure import distance
    w = world("ledges")
    d = distance(w, "shooter3", "flyer")
    assert d == pytest.approx(math.hypot(13.38 - 4, 2.5) - 2 * R, abs=1e-3)
    rc, out, err = run_cli(capsys, "los", scene("ledges"), "shooter3", "flyer")
    assert rc == 0, err
    first = out.splitlines()[0]
    assert f"{d:.1f}\" away, level" in first, first
    assert f"distance: {d:.2f}\"" in out and "height difference +0.00\"" in out
    assert "flyer Flying: measured as if on the surface under it" in out
    rc, out, err = run_cli(capsys, "los", scene("ledges"), "shooter3", "flyer", "--json")
    j = json.loads(out)
    assert j["distance"] == pytest.approx(d, abs=1e-4) and j["height_difference"] == 0.0


def test_los_cli_never_prints_minus_zero_and_names_the_360_reason(capsys):
    rc, out, err = run_cli(capsys, "los", scene("tower"), "gunner", "ground-in")
    assert rc == 0, err
    assert "-0.00" not in out and "height difference +0.00\"" in out
    rc, out, err = run_cli(capsys, "los", "scenes/heights.yaml", "red-champion", "blue-ogre")
    assert rc == 0, err
    assert "sees all round (Vigilance (trait))" in out
    rc, out, err = run_cli(capsys, "los", scene("walls"), "a2", "b2")
    assert "LoS yes" in out and "blocking: wall-low (part of the hitbox only" in out


# ----------------------------------------------------------------- templates
def test_circles_near_a_wall_and_on_levels(capsys):
    rc, out, err = run_cli(capsys, "aoe", scene("templates"), "--template", "circle-s", "--target", "t1",
                        "--by", "caster", "--json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["legal"] and sorted(h["id"] for h in j["affected"]) == ["n-in", "t1"]
    miss = {m["id"]: m["why"] for m in j["not_affected"]}
    assert miss["n-out"].startswith("outside the template (0.04\"")     # 2.05 - 0.63 - 1.378
    assert miss["behind"] == "no LoS from the template's centre"           # 0.078" under it, behind 2" wall
    n_in = next(h for h in j["affected"] if h["id"] == "n-in")
    assert n_in["coverage"] == "partial" and 0 < n_in["covered_fraction"] < 0.5
    rc, out, err = run_cli(capsys, "aoe", scene("templates"), "--template", "circle-l", "--target", "t2",
                        "--by", "caster")
    assert rc == 0, err
    assert "on-step  partial" in out                                       # 2.5" up, in the 3" band, seen
    assert "on-high  out of the height band: 1.00\" above it" in out       # 4" up


def test_sprays_bands_and_the_far_end(capsys):
    from engine import templates as T
    w = world("spray")
    res = T.template(w, "spray-s", user="user", target="main")
    assert res.legal and {h.id for h in res.affected} == {"main", "up5"}   # up5: its hitbox touches 5"
    assert "0.50\" above" in res.miss("up55").why
    assert res.miss("past-tip").why.startswith("outside the template (0.05\"")
    res = T.template(w, "spray-s", user="user2", target="main2")
    assert res.hit("far-tip") is not None and not res.hit("far-tip").full
    res = T.template(w, "spray-s", user="high-user", target="low-main", band="down")
    assert res.legal and res.placements[0].band == pytest.approx((-1.0, 4.0))
    res = T.template(w, "spray-s", user="high-user", target="low-main", band="up")
    assert not res.legal and "2.23\" beyond" in res.reason                # 4 - 1.77


def test_aoe_and_measure_json_carry_the_scene_sha256_and_settings(capsys):
    sc = load_scene(scene("spray"))
    rc, out, err = run_cli(capsys, "aoe", scene("spray"), "--template", "spray-s", "--target", "main",
                        "--by", "user", "--json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["sha256"] == sc.sha256 and j["scene"]
    st = j["settings"]
    assert st["template"]["length_mm"] == pytest.approx(213) and st["template"]["band_in"] == 5
    assert st["band_test"] == "hitbox" and st["models_block"] is False and st["sight"]["patch_mm"] == 3.0
    rc, out, err = run_cli(capsys, "aoe", scene("spray"), "--template", "spray-s", "--target", "main", "--by", "user")
    assert out.rstrip().endswith(f"scene sha256: {sc.sha256}")
    sc = load_scene(scene("measure"))
    rc, out, err = run_cli(capsys, "measure", scene("measure"), "archer1", "t20", "--json")
    assert rc == 0, err
    j = json.loads(out)
    assert j["sha256"] == sc.sha256 and j["settings"]["contact_tolerance_in"] == pytest.approx(1e-3)
    assert j["settings"]["sight"]["cover_within_in"] == 1.0
    rc, out, err = run_cli(capsys, "measure", scene("measure"), "archer1", "t20")
    assert out.rstrip().endswith(f"scene sha256: {sc.sha256}")


# ----------------------------------------------------------------- measuring and range bands
@pytest.mark.parametrize("a, b, dist, band, mod", [
    ("archer1", "t20", 20.0, (0, 20), 0),       # from a 6" tower: 3D between the closest points
    ("archer2", "t20h", 20.5, (21, 40), -6),    # between the printed bands: the later one
    ("archer3", "t40", 40.0, (21, 40), -6),
])
def test_range_bands_from_a_tower(a, b, dist, band, mod):
    from engine.measure import measure
    w = world("measure")
    m = measure(w, a, b, weapon="Longbow")
    assert m.distance == pytest.approx(dist, abs=2e-4)
    assert m.height_difference == pytest.approx(-6.0)
    (wr,) = m.weapons
    assert wr.in_reach and wr.band == band and wr.modifier == mod


def test_reach_onto_a_step():
    from engine.measure import measure
    w = world("measure")
    m = measure(w, "brute", "on-step")
    gap = 28 - (27.1299 + w.hitbox("brute").radius)     # the brute's base to the step's edge
    assert m.distance == pytest.approx(gap, abs=1e-3) and m.height_difference == pytest.approx(1.0)
    assert m.weapons[0].in_reach and m.a_engages_b


def test_forest_and_dark():
    w = world("areas")
    r = sight.los(w, "ranger1", "past-two")
    assert not r.los and set(r.blocking) == {"wood-a", "wood-b"}
    assert sight.los(w, "ranger2", "past-one").los
    assert sight.los(w, "seer", "dark-near").los          # 10.94" <= AG 11
    r = sight.los(w, "seer", "dark-far")
    assert not r.los and "Dark" in r.reason


def test_the_scenes_pass_the_check():
    from engine.validate import check_placement
    for name in ("walls", "tower", "ledges", "templates", "spray", "measure", "areas"):
        assert check_placement(world(name)) == [], name


def test_ledge_edge_follows_the_hidden_points():
    # by hand: the south edge of ledge5 is y 11; up5's base reaches y 11.07
    w = world("spray")
    hb = w.hitbox("up5")
    eye = np.array([10.6, 10.15, 1.77])
    south = np.array([[17.0, 11.08], [16.6, 11.2], [17.4, 11.2]])
    assert C.ledge_edge(w, hb, eye, 1.25, starts=south) == pytest.approx(11.7 - R - 11.0, abs=1e-5)
    # from the centre alone the slanting line meets that edge more than 1.25" out
    assert C.ledge_edge(w, hb, eye, 1.25) is None


def test_band_miss_of_a_flying_model_says_where_it_was_measured():
    # a circle-l on a target on a 5" tower: band z 2-8. A Flying model hovering at z 2.5 beside
    # the tower is measured on the ground under it (hitbox 0-1.77): 0.23" below the band. The
    # reason used to give its real base (z 2.50), inside the band it was said to miss.
    from engine import templates as T
    ter = (TerrainSpec("tower", "box", (10, 10, 0), size=(4, 4, 5)),)
    models = (ModelSpec("u", "red", 32, 45, (2, 10, None), size="M"),
              ModelSpec("t", "blue", 32, 45, (11, 10, None), size="M"),
              ModelSpec("f", "blue", 32, 45, (12.9 + R, 10, 2.5), size="M", states=("Flying",)))
    w = World(Scene("", (24, 24), terrain=ter, models=models))
    res = T.template(w, "circle-l", user="u", target="t")
    why = res.miss("f").why
    assert why.startswith("out of the height band: 0.23\" below it")
    assert "Flying: measured on the surface under it, z 0.00" in why


def test_measure_prints_the_distance_of_each_weapon_and_the_band_gap(capsys):
    rc, out, err = run_cli(capsys, "measure", scene("measure"), "archer2", "t20h")
    assert rc == 0, err
    assert ('Longbow: in range at 20.50", band 21-40", ACC -6 (between the printed bands: '
            'the later one counts)') in out
    rc, out, err = run_cli(capsys, "measure", scene("measure"), "brute", "on-step", "--json")
    j = json.loads(out)
    assert j["weapons"][0]["in_reach"] and j["weapons"][0]["distance"] == pytest.approx(j["distance"])


@pytest.mark.parametrize("z", ["0", "2"])
def test_circle_at_a_point_inside_a_tower_is_refused_with_the_piece(tmp_path, capsys, z):
    # the tower's bottom face lies on the table's top: the way down from inside the tower
    # found no surface, and the answer was "no surface at or below z=0", not "inside tower"
    sc = tmp_path / "tower.yaml"
    sc.write_text("table: [30, 30]\nterrain:\n  - {id: tower, shape: box, at: [20, 20, 0], size: [4, 4, 4]}\n"
                  "models:\n  - {id: mage, side: red, size: M, at: [10, 10], facing: 45}\n")
    rc, out, err = run_cli(capsys, "aoe", str(sc), "--template", "circle-l", "--at", f"18.3,20,{z}", "--by", "mage")
    assert rc == 2 and out == "" and f"(18.3, 20, {float(z):.2f}) is inside tower" in err, err
    rc, out, err = run_cli(capsys, "aoe", str(sc), "--template", "circle-l", "--at", "18.3,20,-1", "--by", "mage")
    assert rc == 2 and "no surface at or below z=-1" in err


def test_a_sliver_hidden_reads_under_one_percent_not_zero():
    # the Flame Seer on the 3" hilltop: the peak under its base hides the lowest 0.1" of the
    # back of its hitbox from the champion below (Light, higher ground); that is a sliver, and
    # the reason said "hides 0% of its hitbox"
    w = World(load_scene("scenes/heights.yaml"))
    r = sight.los(w, "red-champion", "red-mage")
    assert (r.cover, r.cover_piece) == ("light", "hill")
    assert "hides under 1% of its hitbox" in r.cover_reason and "hides 0%" not in r.cover_reason
