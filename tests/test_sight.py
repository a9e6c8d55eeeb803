"""Line of sight: golden cases a judge with a ruler agrees with, the lattice's
3 mm guarantee, the rulebook's exceptions, the matrix, paths and point LoS."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import yaml

from engine import sight
from engine.errors import InputError
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec
from engine.sight_settings import default_settings, load_settings, settings_from_dict
from engine.units import mm, size_table
from engine.world import World

GOLDEN = Path(__file__).parent / "golden" / "los"
TERRAIN_KEYS = ("id", "shape", "at", "size", "radius", "height", "points", "heights", "turn", "cover", "tags")


def build_world(data: dict) -> World:
    """A World from a golden file's inline scene (terrain/models as in scene files)."""
    terrain = []
    for t in data.get("terrain", []):
        kw = {k: t[k] for k in TERRAIN_KEYS if k in t}
        kw["at"] = tuple(float(v) for v in kw["at"])
        for k in ("size",):
            if k in kw:
                kw[k] = tuple(float(v) for v in kw[k])
        if "points" in kw:
            kw["points"] = tuple(tuple(p) for p in kw["points"])
        kw["tags"] = frozenset(kw.get("tags", ()))
        terrain.append(TerrainSpec(**kw))
    models = []
    for m in data.get("models", []):
        size = m.get("size", "M")
        row = size_table()[size]
        at = tuple(m["at"]) + ((None,) if len(m["at"]) == 2 else ())
        stats = dict(m.get("stats", {"AG": 4}))
        prof = Profile(f"test#{m['id']}", m["id"], stats, size=size, traits=tuple(m.get("traits", ())))
        models.append(ModelSpec(m["id"], m.get("side", "red"), row["base_mm"], row["height_mm"], at,
                                facing=float(m.get("facing", 0)), size=size, profile=prof, stats=stats,
                                states=tuple(m.get("states", ()))))
    return World(Scene("", tuple(data.get("table", (24, 24))), terrain=tuple(terrain), models=tuple(models)))


def _cases():
    return sorted(GOLDEN.glob("*.yaml"))


def _seen_by_casting_every_pair(w, r, s):
    """Target points of ``r`` seen from some front-half lattice point of viewer "a",
    by casting every viewer x target segment (terrain only): the brute-force reference.
    Returns (seen (n,) bool, the number of segments cast)."""
    va = w.hitbox("a")
    lat_a = sight._lattice_for(va, s)
    V = sight._rotate(lat_a.points, va.facing) + va.center
    V = V[lat_a.points[:, 0] >= -1e-9]
    T = r.target_points
    clear = ~w.rays.occluded(np.repeat(V, len(T), axis=0), np.tile(T, (len(V), 1)))
    return clear.reshape(len(V), len(T)).any(axis=0), len(V) * len(T)


@pytest.mark.parametrize("path", _cases(), ids=lambda p: p.stem)
def test_golden_case(path):
    data = yaml.safe_load(path.read_text())
    world = build_world(data)
    q = data["query"]
    r = sight.los(world, q["viewer"], q["target"], moving=q.get("moving", False))
    exp = data["expect"]
    why = f"{path.name}: {data['why']}\n got: los={r.los} fraction={r.visible_fraction:.3f} cover={r.cover} " \
          f"({r.cover_piece}: {r.cover_reason}) blocking={r.blocking} reason={r.reason}"
    assert r.los == exp["los"], why
    for key in ("in_front_arc", "cover", "cover_piece"):
        if key in exp:
            assert getattr(r, key) == exp[key], why
    for key in ("visible_fraction", "distance", "height_difference"):
        if key in exp:
            lo, hi = exp[key]
            assert lo - 1e-9 <= getattr(r, key) <= hi + 1e-9, f"{key}: {why}"
    for name in exp.get("blocking_includes", []):
        assert name in r.blocking, why
    if r.los and r.reason == "clear":
        a, b = (np.array(p) for p in r.witness)
        # the witness is really clear
        assert not world.rays.occluded(a[None], b[None])[0]


def test_golden_cases_cover_the_issue_list():
    names = {p.stem for p in _cases()}
    for needed in ("open_ground", "tall_wall_between", "low_wall_cover", "low_wall_far_target", "facing_away",
                   "window", "tower_over_wall", "tower_lower_floor", "ally_in_between", "crouched_behind_low_wall",
                   "flying_behind_wall"):
        assert needed in names


# ------------------------------------------------------------------ the lattice
def _medium(mid, x, y, facing=0.0, side="red", states=(), z=None, traits=(), ag=4):
    prof = Profile(f"t#{mid}", mid, {"AG": ag}, size="M", traits=tuple(traits))
    return ModelSpec(mid, side, 32, 45, (x, y, z), facing=facing, size="M", profile=prof,
                     stats={"AG": ag}, states=tuple(states))


def _surface_samples(hb, n, rng):
    """Uniform random points on the cylinder's side, top and bottom (local frame)."""
    r, h = hb.radius, hb.height
    side_a, disc_a = 2 * math.pi * r * h, math.pi * r * r
    k = rng.choice(3, size=n, p=np.array([side_a, disc_a, disc_a]) / (side_a + 2 * disc_a))
    th = rng.uniform(0, 2 * math.pi, n)
    z = rng.uniform(0, h, n)
    rr = r * np.sqrt(rng.uniform(0, 1, n))
    return k, th, z, rr


def test_lattice_covering_radius_is_half_the_patch_on_every_face():
    """Every point of the surface is within 1.5 mm (surface distance) of a sample point,
    so every 3x3 mm square, whatever its orientation, holds one."""
    world = World(Scene("", (10, 10), models=(_medium("m", 5, 5),)))
    hb = world.hitbox("m")
    lat = sight._local_lattice(round(hb.radius, 9), round(hb.height, 9), round(mm(3), 9), 0.0)
    rng = np.random.default_rng(1)
    k, th, z, rr = _surface_samples(hb, 20000, rng)
    pts = lat.points
    side = pts[lat.part == 0]
    s_th = np.arctan2(side[:, 1], side[:, 0])
    worst = 0.0
    for face in (0, 1, 2):
        sel = k == face
        if face == 0:
            # unrolled distance: arc length and height
            dth = np.abs(((th[sel, None] - s_th[None, :]) + math.pi) % (2 * math.pi) - math.pi)
            d = np.hypot(dth * hb.radius, z[sel, None] - side[None, :, 2]).min(axis=1)
        else:
            q = np.column_stack([rr[sel] * np.cos(th[sel]), rr[sel] * np.sin(th[sel])])
            disc = pts[lat.part == face][:, :2]
            d = np.linalg.norm(q[:, None, :] - disc[None], axis=2).min(axis=1)
        worst = max(worst, float(d.max()))
    assert worst <= mm(1.5) + 1e-9
    # and it is not wastefully fine: the worst gap is close to the bound
    assert worst > mm(1.2)


def test_medium_lattice_size_and_area_weights():
    world = World(Scene("", (10, 10), models=(_medium("m", 5, 5),)))
    hb = world.hitbox("m")
    pts = sight.hitbox_lattice(hb)
    assert 900 < len(pts) < 1400
    lat = sight._lattice_for(hb, default_settings())
    total = 2 * math.pi * hb.radius * hb.height + 2 * math.pi * hb.radius ** 2
    assert lat.weight.sum() == pytest.approx(total)
    # all points on the surface
    rho = np.hypot(pts[:, 0] - 5, pts[:, 1] - 5)
    on_side = np.isclose(rho, hb.radius, atol=1e-9)
    z = pts[:, 2] - hb.z
    on_caps = np.isclose(z, 0, atol=1e-9) | np.isclose(z, hb.height, atol=1e-9)
    assert (on_side | (on_caps & (rho <= hb.radius + 1e-9))).all()


def _hole_world(hole_y, hole_z, near, size_mm=3.0):
    """A 3" wall with a square hole of size_mm, touching the target (near='target') or the viewer."""
    s = mm(size_mm)
    wx, t = 12.0, 0.05        # a thin wall, 0.001" from the hitbox it is near
    r = mm(16)
    tx = wx + t / 2 + r + 0.001 if near == "target" else wx + 6
    vx = wx - t / 2 - r - 0.001 if near == "viewer" else wx - 6
    y0, z0 = hole_y - s / 2, hole_z - s / 2
    terrain = (
        TerrainSpec("w-left", "box", (wx, (6 + y0) / 2, 0), size=(t, y0 - 6, 3)),
        TerrainSpec("w-right", "box", (wx, (y0 + s + 18) / 2, 0), size=(t, 18 - y0 - s, 3)),
        TerrainSpec("w-low", "box", (wx, hole_y, 0), size=(t, s, z0)),
        TerrainSpec("w-high", "box", (wx, hole_y, z0 + s), size=(t, s, 3 - z0 - s)),
    )
    models = (_medium("v", vx, 12, 0), _medium("t", tx, 12, 180))
    return World(Scene("", (24, 24), terrain=terrain, models=models))


@pytest.mark.parametrize("near", ["target", "viewer"])
def test_a_3mm_hole_is_seen_through_wherever_it_is(near):
    rng = np.random.default_rng(7 if near == "target" else 8)
    for _ in range(6):
        hy = 12 + rng.uniform(-0.06, 0.06)
        hz = rng.uniform(0.2, 1.55)
        w = _hole_world(hy, hz, near)
        r = sight.los(w, "v", "t", fraction=False, cover=False)
        assert r.los, (hy, hz, r.reason)
    if near == "target":
        # the lines through the hole also reach the back of the target through its own
        # body (it does not block itself), so only the viewer side is a sharp test
        return
    # the test can fail: with a 9 mm lattice some 3 mm holes are missed (the viewer
    # uses only its front half, so only the patch behind the hole can see through)
    coarse = default_settings().replace(patch_mm=9.0)
    missed = 0
    for _ in range(12):
        hy = 12 + rng.uniform(-0.06, 0.06)
        hz = rng.uniform(0.2, 1.55)
        w = _hole_world(hy, hz, near)
        missed += not sight.los(w, "v", "t", fraction=False, cover=False, settings=coarse).los
    assert missed > 0


def test_wall_without_the_hole_blocks():
    w = _hole_world(12, 0.8, "target", size_mm=0.0)
    assert not sight.los(w, "v", "t", cover=False).los


# ---------------------------------------------------------------- exceptions
def _pair_world(a_kw=None, b_kw=None, terrain=()):
    a_kw = {"facing": 0, **(a_kw or {})}
    b_kw = {"facing": 180, "side": "blue", **(b_kw or {})}
    a = _medium("a", 6, 12, **a_kw)
    b = _medium("b", 18, 12, **b_kw)
    return World(Scene("", (24, 24), terrain=tuple(terrain), models=(a, b)))


def test_vigilance_and_shrouded_see_all_round():
    for kw in ({"traits": ("Vigilance",)}, {"states": ("Shrouded",)}, {"states": ("Vigilance",)}):
        w = _pair_world(a_kw={"facing": 180, **kw})
        r = sight.los(w, "a", "b", cover=False)
        assert r.los and r.all_round and not r.in_front_arc       # seen all round, though behind
    w = _pair_world(a_kw={"facing": 180})
    r = sight.los(w, "a", "b", cover=False)
    assert not r.los and not r.all_round and not r.in_front_arc


def test_target_straddling_the_arc_line_is_only_partly_visible():
    # viewer faces +y; the target's centre is on the line across its base
    a = _medium("a", 6, 12, 90)
    b = _medium("b", 12, 12, 180, side="blue")
    w = World(Scene("", (24, 24), models=(a, b)))
    r = sight.los(w, "a", "b", cover=False)
    assert r.los and r.in_front_arc
    assert 0.4 < r.visible_fraction < 0.6


def test_flying_sees_and_is_seen_both_ways_but_blinded_sees_nothing():
    wall = TerrainSpec("wall", "box", (12, 12, 0), size=(0.5, 8, 3))
    w = _pair_world(a_kw={"states": ("Flying",)}, terrain=[wall])
    assert sight.los(w, "a", "b", cover=False).los
    assert sight.los(w, "b", "a", cover=False).los
    w = _pair_world(a_kw={"states": ("Blinded",)})
    assert not sight.los(w, "a", "b", cover=False).los
    assert sight.los(w, "a", "a", cover=False).los


def test_engaged_always_sees_its_engager():
    wall = TerrainSpec("wall", "box", (12, 12, 0), size=(0.5, 8, 3))
    a = _medium("a", 6, 12, 180, states=("Engaged",))
    b = _medium("b", 6 + mm(32) + 0.0005, 12, 180, side="blue")     # base contact, behind a's back
    w = World(Scene("", (24, 24), terrain=(wall,), models=(a, b)))
    r = sight.los(w, "a", "b", cover=False)
    assert r.los and "engaged" in r.reason
    # without the state, the back arc rules
    w.set_states("a", set())
    assert not sight.los(w, "a", "b", cover=False).los
    # the rules may name the engagers themselves
    assert sight.los(w, "a", "b", cover=False, engaged_with=["b"]).los


def test_min_visible_area_setting():
    # the window case: a few hundred mm2 visible
    data = yaml.safe_load((GOLDEN / "window.yaml").read_text())
    w = build_world(data)
    r = sight.los(w, "a", "b", cover=False)
    assert r.los and r.visible_area_mm2 > 9
    big = default_settings().replace(min_visible_area_mm2=r.visible_area_mm2 + 50)
    r2 = sight.los(w, "a", "b", cover=False, settings=big)
    assert not r2.los and "minimum" in r2.reason
    assert not sight.los_matrix(w, ["a", "b"], settings=big)[("a", "b")]


def test_yes_no_agrees_with_the_full_fraction_and_casts_less():
    data = yaml.safe_load((GOLDEN / "low_wall_cover.yaml").read_text())
    w = build_world(data)
    full = sight.los(w, "a", "b", fraction=True, cover=False)
    quick = sight.los(w, "a", "b", fraction=False, cover=False)
    assert full.los == quick.los
    assert quick.rays < full.rays
    assert not quick.fraction_exact and full.fraction_exact


def test_fraction_matches_brute_force_cross_product():
    """The rounds and proofs give the same visible set as casting every pair."""
    data = yaml.safe_load((GOLDEN / "low_wall_cover.yaml").read_text())
    w = build_world(data)
    s = default_settings().replace(patch_mm=6.0)
    r = sight.los(w, "a", "b", cover=False, settings=s)
    brute, _ = _seen_by_casting_every_pair(w, r, s)
    assert (brute == r.target_visible).all()


# -------------------------------------------------------------- matrix and path
def test_matrix_agrees_with_pairwise_los_on_a_busy_table():
    data = yaml.safe_load((GOLDEN / "window.yaml").read_text())
    data["models"] += [{"id": "c", "side": "blue", "at": [15, 8], "facing": 135},
                       {"id": "d", "side": "red", "at": [9, 16], "facing": 300},
                       {"id": "e", "side": "red", "at": [12, 18], "facing": 270, "states": ["Crouched"]}]
    w = build_world(data)
    m = sight.los_matrix(w)
    for (a, b), v in m.items():
        assert v == sight.los(w, a, b, fraction=False, cover=False).los, (a, b)
    assert any(m.values()) and not all(m.values())


def test_path_first_last_and_awareness():
    # the observer looks west (-x); a short wall hides the middle of the mover's path
    wall = TerrainSpec("wall", "box", (10, 8, 0), size=(0.5, 2, 3))   # y 7..9
    obs = _medium("obs", 14, 8, 180, side="blue", ag=8)
    mover = _medium("m", 6, 14, 0)
    w = World(Scene("", (24, 24), terrain=(wall,), models=(obs, mover)))
    path = np.array([[6, 14, 0], [6, 2, 0]], dtype=float)       # walks south along x = 6
    (p,) = sight.los_along_path(w, "m", path, ["obs"], every_sample=True)
    assert p.had_los
    assert p.first == pytest.approx((6, 14, 0))
    assert p.last == pytest.approx((6, 2, 0))
    # in the middle (mover at y = 8, straight behind the wall) it is hidden
    ys = np.array([pt[1] for pt in p.seen])
    assert not ((ys > 7.5) & (ys < 8.5)).any()
    assert len(ys) < len(np.arange(14, 1.99, -0.25))
    # awareness (AG 8): the mover's hitbox comes within 8" of the observer's hitbox
    assert p.entered_awareness
    ax, ay, _ = p.awareness_point
    gap = math.hypot(ax - 14, ay - 8) - 2 * mm(16)
    assert gap == pytest.approx(8.0, abs=0.01)
    assert ay == pytest.approx(8 + math.sqrt((8 + 2 * mm(16)) ** 2 - 64), abs=0.02)
    # an observer with AG 4 never has it within its Awareness
    w.set_states("obs", set())
    w.hitbox("obs").stats["AG"] = 4
    (p,) = sight.los_along_path(w, "m", path, ["obs"])
    assert not p.entered_awareness and p.awareness_point is None


def test_path_refines_the_first_sight_to_the_setting():
    wall = TerrainSpec("wall", "box", (10, 8, 0), size=(0.5, 6, 3))
    obs = _medium("obs", 14, 8, 180, side="blue")
    mover = _medium("m", 6, 4, 90)
    w = World(Scene("", (24, 24), terrain=(wall,), models=(obs, mover)))
    path = np.array([[6, 8, 0], [6, 14, 0]], dtype=float)   # from behind the wall northwards
    (p,) = sight.los_along_path(w, "m", path, ["obs"])
    assert p.had_los
    y = p.first[1]
    # just before: no LoS; just after: LoS
    w.move_model("m", 6, y - 0.03, 0)
    assert not sight.los(w, "obs", "m", fraction=False, cover=False).los
    w.move_model("m", 6, y + 0.005, 0)
    assert sight.los(w, "obs", "m", fraction=False, cover=False).los


def test_point_los_from_a_template_centre():
    wall = TerrainSpec("wall", "box", (12, 12, 0), size=(0.5, 8, 3))
    w = _pair_world(terrain=[wall])
    ok, frac = sight.point_los(w, (16, 12, 0), "b")
    assert ok and frac > 0.3
    ok, frac = sight.point_los(w, (8, 12, 0), "b")
    assert not ok and frac == 0
    # another model in the way blocks, unless excluded
    ok, _ = sight.point_los(w, (4, 12, 0), "a")
    assert ok


# ------------------------------------------------------------------- settings
def test_settings_file_and_bad_settings():
    s = default_settings()
    assert s.patch_mm == 3.0 and s.min_visible_area_mm2 == 0 and s.forest_limit == 2
    with pytest.raises(InputError) as e:
        settings_from_dict({"lattice": {"patch_mm": -1}, "arcs": {"bogus": 1}})
    text = str(e.value)
    assert "lattice.patch_mm: must not be negative" in text and "arcs.bogus: unknown setting" in text
    with pytest.raises(InputError):
        settings_from_dict({"exceptions": {"dark_applies": "sometimes"}})
    assert load_settings(None) == s


def test_a_settings_file_s_problems_carry_their_lines_and_only_regular_files_are_read(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("lattice:\n  patch_mm: -1\ncover:\n  bogus: 3\n")
    with pytest.raises(InputError) as e:
        load_settings(f)
    text = str(e.value)
    assert f"{f}:2: lattice.patch_mm: must not be negative" in text and f"{f}:4: cover.bogus: unknown" in text
    with pytest.raises(InputError, match="not a regular file"):
        load_settings("/dev/zero")



@pytest.mark.parametrize("case", ["window", "tower_over_wall", "mound"])
def test_proofs_agree_with_casting_every_pair(case):
    """Bundle proofs (separating planes, convex pieces, boxes inside a heightfield) never
    change the answer: the visible set equals the one from casting the full cross product."""
    if case == "mound":
        u = np.linspace(-1, 1, 15)
        gx, gy = np.meshgrid(u, u)
        h = 2.2 * np.clip(1 - (gx ** 2 + gy ** 2), 0, None) + 0.05 * np.sin(7 * gx) ** 2
        data = {"table": [24, 24],
                "terrain": [{"id": "mound", "shape": "heightfield", "at": [12, 12, 0], "size": [4, 4],
                             "heights": h.round(4).tolist()}],
                "models": [{"id": "a", "at": [7, 12.3], "facing": 0}, {"id": "b", "side": "blue", "at": [15.2, 11.6], "facing": 180}]}
    else:
        data = yaml.safe_load((GOLDEN / f"{case}.yaml").read_text())
    w = build_world(data)
    s = default_settings().replace(patch_mm=5.0)
    r = sight.los(w, "a", "b", cover=False, settings=s)
    seen, pairs = _seen_by_casting_every_pair(w, r, s)
    brute = seen & r.target_allowed
    assert (brute == r.target_visible).all(), (brute.sum(), r.target_visible.sum())
    assert r.rays <= pairs


# ------------------------------------------------------------------------ CLI
SKIRMISH = Path(__file__).resolve().parents[1] / "scenes" / "skirmish.yaml"


@pytest.mark.skipif(not SKIRMISH.exists(), reason="no skirmish scene")
def test_cli_verdict_json_and_errors(capsys, tmp_path):
    import json
    from tools.cli import main
    assert main(["los", str(SKIRMISH), "red-champion", "blue-warden"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("red-champion -> blue-warden: LoS ")
    assert "away" in out[0] and any("scene sha256:" in line for line in out)
    assert main(["los", str(SKIRMISH), "red-archer", "blue-marksman", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    for key in ("viewer", "target", "los", "visible_fraction", "in_front_arc", "distance", "height_difference",
                "cover", "cover_piece", "blocking", "sha256", "settings"):
        assert key in data
    assert data["cover"] in ("none", "light", "heavy")
    assert data["settings"]["patch_mm"] == 3.0 and len(data["sha256"]) == 64
    # unknown model, bad scene: exit 2 and one line
    assert main(["los", str(SKIRMISH), "red-champion", "nobody"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown model 'nobody'" in err[0]
    bad = tmp_path / "bad.yaml"
    bad.write_text("table: [36, 36]\nterrain: 5\n")
    assert main(["los", str(bad), "a", "b"]) == 2
    assert capsys.readouterr().err.strip()
    assert main(["los", str(SKIRMISH), "--all", "--json"]) == 0
    m = json.loads(capsys.readouterr().out)
    ids = m["models"]
    assert all(m["los"][a][a] for a in ids) and len(m["los"]) == len(ids)


def test_cli_itself_all_round_and_refusals(capsys, tmp_path):
    import json
    from tools.cli import main
    scene = tmp_path / "side.yaml"
    scene.write_text("name: side\ntable: [24, 24]\nterrain:\n"
                     "  - {id: wall, shape: box, at: [12, 20, 0], size: [0.5, 3, 3]}\nmodels:\n"
                     "  - {id: a, side: red, size: M, at: [10, 10], facing: 0}\n"
                     "  - {id: c, side: blue, size: M, at: [5, 10], facing: 0}\n")
    # a model and itself: a verdict, not a traceback
    assert main(["los", str(scene), "a", "a"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("a -> a: LoS yes") and "always sees itself" in out
    # moving: all round; in_front_arc stays the geometric answer (c is wholly behind a)
    assert main(["los", str(scene), "a", "c", "--moving", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["los"] and d["all_round"] and d["in_front_arc"] is False
    assert main(["los", str(scene), "a", "c", "--moving"]) == 0
    assert "not needed, a sees all round" in capsys.readouterr().out
    assert main(["los", str(scene), "a", "c", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert not d["los"] and not d["all_round"] and d["in_front_arc"] is False
    # --all has no pictures; an unknown id names the scene
    assert main(["los", str(scene), "--all", "--picture", str(tmp_path / "p")]) == 2
    assert "--picture" in capsys.readouterr().err and not (tmp_path / "p").exists()
    assert main(["los", str(scene), "a", "nobody"]) == 2
    assert capsys.readouterr().err.startswith(f"{scene}: TARGET: unknown model 'nobody'")
    # a table check refuses (a model inside the wall): no verdict
    bad = tmp_path / "bad.yaml"
    bad.write_text(scene.read_text() + "  - {id: w, side: blue, size: M, at: [12, 20, 0], facing: 0}\n")
    assert main(["los", str(bad), "a", "c"]) == 2
    cap = capsys.readouterr()
    assert cap.out == "" and "inside terrain" in cap.err


@pytest.mark.parametrize("area_height", ["piece", "infinite"])
def test_forest_crossings_agree_with_dense_sampling(area_height):
    # engine.sight._forest_hits (convex: half-plane clipping; else edge tests) against points
    # sampled every 1/1000 of each segment: a sampled point inside the forest's footprint and
    # height span means a hit; a hit the samples miss must be a graze
    from shapely import contains_xy
    from engine.scene import Scene, TerrainSpec
    from engine.world import World
    from engine import sight
    from engine.sight_settings import default_settings
    pieces = (TerrainSpec("diamond", "prism", (0, 0, 0), points=((8, 3), (13, 8), (8, 13), (3, 8)), height=4,
                          tags=("area", "forest")),
              TerrainSpec("ell", "prism", (0, 0, 0), points=((16, 4), (26, 4), (26, 8), (20, 8), (20, 14), (16, 14)),
                          height=3, tags=("area", "forest")))
    w = World(Scene("", (30, 20), terrain=pieces))
    st = sight._static(w)
    s = default_settings().replace(area_height=area_height)
    rng = np.random.default_rng(7)
    a = np.column_stack([rng.random((4000, 2)) * [30, 20], rng.random(4000) * 6])
    b = a + rng.normal(size=(4000, 3)) * [6, 6, 2]
    u = np.linspace(0.0, 1.0, 1001)
    for f in st.forests:
        got = sight._forest_hits(a, b, f, s)
        P = a[:, None, :] + (b - a)[:, None, :] * u[None, :, None]
        inside = contains_xy(f.polygon, P[..., 0].ravel(), P[..., 1].ravel()).reshape(P.shape[:2])
        if area_height == "piece":
            inside &= (P[..., 2] >= f.zlo) & (P[..., 2] <= f.zhi)
        ref = inside.any(axis=1)
        assert not (ref & ~got).any()
        assert 100 < ref.sum() and (got & ~ref).sum() <= 2, (got & ~ref).sum()


def test_models_inside_forests_see_through_one_wood_but_not_two():
    # a model standing in a wood sees out through that wood alone, not into the next wood
    # (two forest areas); the descent's forest proof holds for points inside a forest
    from engine.world import World
    woods = (TerrainSpec("wood-1", "prism", (0, 0, 0), points=((4, 4), (12, 4), (12, 12), (4, 12)), height=4,
                         tags=("area", "forest")),
             TerrainSpec("wood-2", "prism", (0, 0, 0), points=((13, 4), (20, 4), (20, 12), (13, 12)), height=4,
                         tags=("area", "forest")))
    w = World(Scene("", (30, 20), terrain=woods, models=(
        ModelSpec("in-1", "red", 32, 45, (8, 8, None), 0.0),
        ModelSpec("in-2", "blue", 32, 45, (16, 8, None), 180.0),
        ModelSpec("open", "blue", 32, 45, (8, 16, None), 270.0))))
    r = sight.los(w, "in-1", "in-2", fraction=True)
    assert not r.los and r.visible_fraction == 0.0
    assert sight.los(w, "in-2", "in-1").los is False
    assert sight.los(w, "in-1", "open", moving=True).los
    assert sight.los(w, "open", "in-1").los
    m = sight.los_matrix(w)
    assert not m[("in-1", "in-2")] and not m[("in-2", "in-1")] and m[("open", "in-1")]
