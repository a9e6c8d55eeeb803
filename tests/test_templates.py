"""Area templates: golden cases from tests/golden/templates/, geometry against
independent shapely computations, the spray, the placement search, and the
property that enlarging a template never removes an affected model."""
from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import yaml
from hypothesis import HealthCheck, given, settings, strategies as st
from shapely.geometry import Point

from engine import templates as T
from engine.errors import InputError
from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.units import mm, size_table
from engine.world import World
from cli_run import run_cli  # noqa: E402

GOLDEN = Path(__file__).parent / "golden" / "templates"
R_M = mm(32) / 2
R_S = mm(25) / 2
R_CL = mm(120) / 2
R_CS = mm(70) / 2


def world_from_yaml(path: Path) -> tuple[World, list[dict]]:
    data = yaml.safe_load(path.read_text())
    sizes = size_table()
    terrain = tuple(TerrainSpec(t["id"], t["shape"], tuple(t["at"]), size=tuple(t["size"]))
                    for t in data.get("terrain", ()))
    models = []
    for m in data["models"]:
        s = sizes[m["size"]]
        at = tuple(m["at"]) + ((None,) if len(m["at"]) == 2 else ())
        models.append(ModelSpec(m["id"], m["side"], s["base_mm"], s["height_mm"], at,
                                facing=m.get("facing", 0.0), size=m["size"], stats={"AG": 6}))
    return World(Scene(str(path), tuple(data["table"]), terrain, tuple(models))), data["cases"]


GOLDEN_WORLD, GOLDEN_CASES = world_from_yaml(GOLDEN / "circle.yaml")


@pytest.mark.parametrize("case", GOLDEN_CASES, ids=[c["name"] for c in GOLDEN_CASES])
def test_golden_circle_cases(case):
    w = GOLDEN_WORLD
    res = T.template(w, case["template"], user=case.get("by"), target=case.get("target"),
                     at=case.get("at"), count=case.get("count", 1))
    assert res.legal is case["legal"], res.reason
    assert res.target_fully_covered == case["target_fully_covered"]
    if "reason" in case:
        assert case["reason"] in res.reason
    if "affected" in case:
        assert {h.id: h.count for h in res.affected} == case["affected"]
    for mid, why in case.get("not_affected", {}).items():
        miss = res.miss(mid)
        assert miss is not None, f"{mid} should not be affected"
        assert miss.why.startswith(why), miss.why


def test_golden_scene_stands_where_the_file_says():
    w = GOLDEN_WORLD
    assert w.hitbox("blue-high").z == pytest.approx(4.0, abs=1e-4)
    assert w.hitbox("blue-low").z == pytest.approx(2.0, abs=1e-4)


def test_partial_coverage_fraction_matches_shapely_area():
    res = T.template(GOLDEN_WORLD, "circle-l", user="red-caster", target="blue-tgt")
    rim = res.hit("blue-rim")
    disc = Point(20.662, 18.0).buffer(R_M, quad_segs=512)
    want = disc.intersection(Point(18.0, 18.0).buffer(R_CL, quad_segs=512)).area / disc.area
    assert rim.covered_fraction == pytest.approx(want, abs=1e-4)
    assert 0.0 < rim.covered_fraction < 1.0 and rim.partial
    tgt = res.hit("blue-tgt")
    assert tgt.full and tgt.covered_fraction == 1.0 and tgt.in_band and tgt.los_from_origin


def test_dead_models_are_not_affected():
    w = World(GOLDEN_WORLD.scene)
    w.set_states("blue-rim", {"Dead"})
    res = T.template(w, "circle-l", user="red-caster", target="blue-tgt")
    assert res.hit("blue-rim") is None and res.miss("blue-rim").why.startswith("Dead")


def test_why_reports_measured_gaps():
    res = T.template(GOLDEN_WORLD, "circle-l", user="red-caster", target="blue-tgt")
    # blue-out's base edge: 3.042 - R_M - R_CL from the rim
    assert f'{math.hypot(2.151, 2.151) - R_M - R_CL:.2f}"' in res.miss("blue-out").why
    # blue-high stands at z 4: 1" above the +3" band
    assert '1.00" above' in res.miss("blue-high").why
    hidden = res.miss("blue-hidden")
    assert hidden.in_band is True and hidden.los_from_origin is False and hidden.covered_fraction > 0


def test_band_by_base_setting_and_hitbox_default_differ_below_the_surface():
    # a model in a 4" pit: base 4" below, top 2.23" below the surface
    w = World(Scene("", (24, 24), (
        TerrainSpec("plateau", "box", (8.0, 12.0, 0.0), size=(16.0, 24.0, 4.0)),),
        (ModelSpec("tgt", "blue", 32, 45, (14.0, 12.0, None)),
         ModelSpec("pit", "blue", 32, 45, (17.2, 12.0, 0.0)))))
    assert w.hitbox("tgt").z == pytest.approx(4.0, abs=1e-4) and w.hitbox("pit").z == pytest.approx(0.0, abs=1e-4)
    pl = T.place_circle(w, "circle-l", target="tgt", at=(15.2, 12.0))
    hit = T.evaluate(w, pl, target="tgt")
    assert hit.hit("pit") is None            # no LoS: the plateau's edge hides the pit from the raised centre
    miss = hit.miss("pit")
    assert miss.in_band is True              # its top is 2.23" below the surface: within 3"
    strict = T.evaluate(w, pl, target="tgt", settings=T.TemplateSettings(band_test="base"))
    assert strict.miss("pit").in_band is False and "out of the height band" in strict.miss("pit").why


# ----------------------------------------------------------------------------- geometry
def test_teardrop_sdf_matches_shapely_distance():
    pl = T.Placement(T.template_spec("spray-l"), 0.0, (0.0, 5.0), "up", user="u", apex=(10.0, 10.0), angle=33.0)
    poly = pl.polygon(1024)
    rng = np.random.default_rng(3)
    pts = rng.uniform([4, 4], [22, 20], size=(400, 2))
    sdf = pl.sdf(pts)
    for p, s in zip(pts, sdf):
        pt = Point(p)
        want = -poly.exterior.distance(pt) if poly.contains(pt) else poly.distance(pt)
        assert s == pytest.approx(want, abs=2e-4)


def test_teardrop_dimensions_follow_the_data_file():
    spec = T.template_spec("spray-s")
    assert spec.length == pytest.approx(mm(213)) and spec.wide == pytest.approx(mm(71))
    pl = T.Placement(spec, 0.0, (0.0, 5.0), "up", user="u", apex=(0.0, 0.0), angle=0.0)
    minx, miny, maxx, maxy = pl.polygon(1024).bounds
    assert minx == pytest.approx(0.0, abs=1e-6) and maxx == pytest.approx(mm(213), abs=1e-4)
    assert maxy - miny == pytest.approx(mm(71), abs=1e-3)
    # narrow at the attacker: 1" from the tip it is far narrower than at the far end
    assert pl.sdf(np.array([[1.0, 0.45]]))[0] > 0 and pl.sdf(np.array([[7.0, 1.2]]))[0] < 0


def test_lens_fraction_against_shapely():
    for d, r in [(0.0, 0.6), (1.9, 0.63), (2.5, 0.63), (2.9, 0.49), (3.1, 0.8)]:
        disc = Point(d, 0).buffer(r, quad_segs=512)
        want = disc.intersection(Point(0, 0).buffer(R_CL, quad_segs=512)).area / disc.area
        assert T.lens_fraction(np.array([d]), R_CL, np.array([r]))[0] == pytest.approx(want, abs=1e-4)


def test_bad_template_data_names_each_problem():
    with pytest.raises(InputError) as err:
        T.parse_templates({"a": {"kind": "cone"}, "b": {"kind": "circle", "diameter_mm": -3, "band_in": 3},
                           "c": {"kind": "spray", "length_mm": 50, "narrow_mm": 10, "wide_mm": 70, "band_in": 5}},
                          "t.yaml")
    lines = str(err.value).splitlines()
    assert lines == ["t.yaml: a.kind: 'cone' is not one of circle, spray",
                     "t.yaml: b.diameter_mm: must be a positive number, got -3",
                     "t.yaml: c.length_mm: must exceed wide_mm (a teardrop)"]


def test_unknown_inputs_raise_input_errors():
    w = GOLDEN_WORLD
    with pytest.raises(InputError, match="unknown template"):
        T.template(w, "cone", target="blue-tgt")
    with pytest.raises(InputError, match="unknown model 'nobody'"):
        T.template(w, "circle-s", target="nobody")
    with pytest.raises(InputError, match="needs a main target"):
        T.template(w, "circle-s")
    with pytest.raises(InputError, match="off the"):
        T.template(w, "circle-s", at=(50.0, 3.0))
    with pytest.raises(InputError, match="needs its user"):
        T.template(w, "spray-s", target="blue-tgt")


# ----------------------------------------------------------------------------- sprays
def spray_world(facing=0.0, extra=()):
    models = [ModelSpec("red-sprayer", "red", 32, 45, (10.0, 6.0, None), facing=facing),
              ModelSpec("blue-tgt", "blue", 32, 45, (15.0, 6.0, None)),
              ModelSpec("red-friend", "red", 32, 45, (13.0, 4.9, None)),
              *extra]
    terrain = (TerrainSpec("ledge", "box", (14.0, 3.0, 0.0), size=(4.0, 2.0, 4.5)),)
    return World(Scene("", (24, 12), terrain, tuple(models)))


def test_spray_touches_the_users_base_and_never_affects_the_user():
    w = spray_world()
    res = T.template(w, "spray-s", user="red-sprayer", target="blue-tgt")
    assert res.legal and res.target_fully_covered
    pl = res.placements[0]
    ub = w.hitbox("red-sprayer")
    # the narrow end touches the base: the tip is on the base edge, toward the aim
    assert math.hypot(pl.apex[0] - ub.x, pl.apex[1] - ub.y) == pytest.approx(ub.radius)
    assert pl.sdf(np.array([[ub.x, ub.y]]))[0] == pytest.approx(ub.radius, abs=1e-9)
    assert res.hit("red-sprayer") is None
    assert res.miss("red-sprayer").why.startswith("the user of the template")
    assert res.hit("red-friend") is not None           # allies under a spray are hit too


def test_spray_band_up_and_down():
    # a model on a 4.5" ledge and one in the open: up reaches the ledge, down does not
    extra = (ModelSpec("blue-ledge", "blue", 25, 25, (14.0, 3.9, None)),)
    w = spray_world(extra=extra)
    assert w.hitbox("blue-ledge").z == pytest.approx(4.5)
    aim = (14.0, 4.6)
    up = T.template(w, "spray-l", user="red-sprayer", aim=aim, band="up")
    down = T.template(w, "spray-l", user="red-sprayer", aim=aim, band="down")
    assert up.placements[0].band == (0.0, 5.0) and down.placements[0].band == (-5.0, 0.0)
    assert up.hit("blue-ledge") is not None
    assert down.hit("blue-ledge") is None and "out of the height band" in down.miss("blue-ledge").why
    assert up.targetless and up.legal


def test_spray_pointing_backwards_is_illegal_unless_front_arc_is_off():
    w = spray_world(facing=180.0)
    res = T.template(w, "spray-s", user="red-sprayer", target="blue-tgt")
    assert not res.legal and "back arc" in res.reason
    res = T.template(w, "spray-s", user="red-sprayer", target="blue-tgt",
                     settings=T.TemplateSettings(front_arc=False))
    # without the arc rule for the template, LoS (which keeps its arcs) still fails
    assert not res.legal and "back arc" not in res.reason
    assert "has no LoS from red-sprayer" in res.reason


def test_circle_los_shortcut_agrees_with_point_los():
    from engine import sight
    from tools.bench_templates import bench_world
    s = T.TemplateSettings()
    for w, spots in ((GOLDEN_WORLD, [(18.0, 18.0), (18.0, 17.0), (19.0, 19.0)]),
                     (bench_world(), [(16.0, 30.0), (12.0, 20.0), (20.0, 12.0)])):
        for x, y in spots:
            origin = np.array([x, y, float(w.surface_height([[x, y]])[0]) + s.lift()])
            ids = w.model_ids()
            fast = T._clear_to_axis(w, origin, ids, s)
            slow = {m: sight.point_los(w, origin, m, exclude=ids, settings=s.sight(), raise_by=0.0)[0] for m in ids}
            assert fast                                  # the shortcut is used...
            assert all(slow[m] for m in fast)            # ...and every "yes" of it is a sight "yes"
    assert not T._clear_to_axis(GOLDEN_WORLD, np.array([18.0, 18.0, s.lift()]), ["blue-hidden"], s)


def test_spray_los_shortcut_agrees_with_sight():
    from engine import sight
    from tools.bench_templates import bench_world
    w = bench_world()
    s = T.TemplateSettings()
    for user in ("bench-caster", "blue-warden"):
        others = [m for m in w.model_ids() if m != user]
        fast = T._los_from_user_many(w, user, others, settings=s, exclude=set())
        ss = s.sight().replace(models_block=False)
        slow = {m: sight.los(w, user, m, fraction=False, cover=False, settings=ss).los for m in others}
        assert fast == slow


def test_spray_far_end_by_hand():
    # spray-s straight east from (10, 6): the far circle (r = 35.5 mm) is centred
    # at 10 + R_M + 213 mm - 35.5 mm = 17.618"
    far_c = 10 + R_M + mm(213) - mm(71) / 2
    w = spray_world(extra=(ModelSpec("blue-near", "blue", 32, 45, (18.3, 2.0 + 6.0 - 2.0, None)),))
    # 18.3: 0.682" from the far centre, + R_M = 1.312" <= 1.398": fully covered
    assert (18.3 - far_c) + R_M < mm(71) / 2
    res = T.template(w, "spray-s", user="red-sprayer", target="blue-near", aim=(20.0, 6.0))
    assert res.legal and res.target_fully_covered is True
    # 18.6: 0.982" + R_M = 1.612" > 1.398": its base sticks out of the round end
    w.move_model("blue-near", 18.6, 6.0)
    assert (18.6 - far_c) + R_M > mm(71) / 2
    res = T.template(w, "spray-s", user="red-sprayer", target="blue-near", aim=(20.0, 6.0))
    assert not res.legal and res.target_fully_covered is False and "not fully covered" in res.reason
    assert res.hit("blue-near") is not None and res.hit("blue-near").partial


# ----------------------------------------------------------------------------- search
def search_world():
    models = [ModelSpec("red-caster", "red", 32, 45, (4.0, 10.0, None)),
              ModelSpec("blue-tgt", "blue", 32, 45, (12.0, 10.0, None)),
              # two enemies east, one ally west: the best circle slides east
              ModelSpec("blue-e1", "blue", 32, 45, (15.0, 10.6, None)),
              ModelSpec("blue-e2", "blue", 25, 25, (14.9, 9.0, None)),
              ModelSpec("red-ally", "red", 32, 45, (9.4, 10.0, None)),
              ModelSpec("blue-behind", "blue", 32, 45, (12.0, 7.2, None))]
    terrain = (TerrainSpec("wall", "box", (12.0, 8.3, 0.0), size=(3.0, 0.2, 3.0)),)
    return World(Scene("", (24, 20), terrain, tuple(models)))


def test_centred_circle_hits_the_ally_and_best_placement_avoids_it():
    w = search_world()
    centred = T.template(w, "circle-l", user="red-caster", target="blue-tgt")
    assert centred.hit("red-ally") is not None
    assert centred.hit("blue-e1") is None and centred.hit("blue-e2") is None
    best = T.best_placement(w, "circle-l", user="red-caster", target="blue-tgt")
    assert best.legal and best.target_fully_covered
    ids = {h.id for h in best.affected}
    assert ids == {"blue-tgt", "blue-e1", "blue-e2"}
    assert best.search["candidates"] > 1000
    # the search's claim holds: its centre keeps the target fully inside
    c = best.placements[0].centre
    assert math.hypot(c[0] - 12.0, c[1] - 10.0) <= R_CL - R_M + 1e-6


def test_no_random_legal_placement_beats_the_search():
    w = search_world()
    spec = T.template_spec("circle-l")
    best = T.best_placement(w, "circle-l", user="red-caster", target="blue-tgt")
    key = lambda r: (sum(h.side == "blue" for h in r.affected), -sum(h.side == "red" for h in r.affected))
    rng = np.random.default_rng(7)
    tb = w.hitbox("blue-tgt")
    rho = spec.radius - tb.radius
    for _ in range(150):
        a, r = rng.uniform(0, 2 * math.pi), rho * math.sqrt(rng.uniform()) * (1 - 1e-9)
        pl = T.Placement(spec, tb.z, (tb.z - 3, tb.z + 3), "around",
                         centre=(tb.x + r * math.cos(a), tb.y + r * math.sin(a)), lift=T.TemplateSettings().lift())
        res = T.evaluate(w, pl, target="blue-tgt", user="red-caster")
        if res.legal:              # (a centre inside the wall sees nothing: illegal)
            assert key(res) <= key(best)


def test_best_placement_never_counts_models_without_los():
    w = search_world()
    best = T.best_placement(w, "circle-l", user="red-caster", target="blue-tgt")
    assert best.hit("blue-behind") is None


def test_best_spray_hits_more_enemies_than_the_straight_one():
    extra = (ModelSpec("blue-side", "blue", 32, 45, (17.5, 8.3, None)),)
    w = spray_world(extra=extra)
    straight = T.template(w, "spray-l", user="red-sprayer", target="blue-tgt")
    best = T.best_placement(w, "spray-l", user="red-sprayer", target="blue-tgt")
    assert best.legal and best.target_fully_covered
    en = lambda r: sum(1 for h in r.affected if h.side == "blue")
    al = lambda r: sum(1 for h in r.affected if h.side == "red")
    assert (en(straight), al(straight)) == (1, 1)          # the target; the friend; not blue-side
    assert (en(best), al(best)) == (2, 0)
    assert best.hit("red-friend") is None and best.hit("blue-side") is not None


def test_best_with_count_places_every_template_on_the_best_spot():
    w = search_world()
    best = T.best_placement(w, "circle-l", user="red-caster", target="blue-tgt", count=3)
    assert best.count == 3 and all(h.count == 3 for h in best.affected)


# ----------------------------------------------------------------------------- property
PROP_WORLD = World(Scene("", (24, 24), (
    TerrainSpec("block", "box", (13.5, 12.0, 0.0), size=(0.4, 2.5, 3.0)),
    TerrainSpec("step", "box", (10.0, 14.5, 0.0), size=(3.0, 2.0, 2.5)),),
    tuple(ModelSpec(f"m{i}", "blue" if i % 2 else "red", 32, 45, (3.0 + 2 * i, 3.0, 0.0)) for i in range(8))))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=st.lists(st.tuples(st.floats(7.0, 17.0), st.floats(7.0, 17.0)), min_size=8, max_size=8),
       factor=st.floats(1.0, 2.5), kind=st.sampled_from(["circle-s", "circle-l", "spray-s", "spray-l"]),
       aim=st.floats(0.0, 360.0))
def test_enlarging_a_template_never_removes_an_affected_model(pos, factor, kind, aim):
    w = PROP_WORLD
    for i, (x, y) in enumerate(pos):
        w.move_model(f"m{i}", x, y)
    spec = T.template_spec(kind)
    big = spec.scaled(factor)
    if spec.kind == "circle":
        small_pl = T.place_circle(w, spec, at=(12.0, 12.0, 0.0))
        big_pl = T.place_circle(w, big, at=(12.0, 12.0, 0.0))
    else:
        small_pl = T.place_spray(w, spec, user="m0", angle=aim)
        big_pl = T.place_spray(w, big, user="m0", angle=aim)
    s = T.TemplateSettings(front_arc=False)
    small = {h.id for h in T.evaluate(w, small_pl, user="m0", settings=s).affected}
    large = {h.id for h in T.evaluate(w, big_pl, user="m0", settings=s).affected}
    assert small <= large


# ----------------------------------------------------------------------------- command line
SKIRMISH = str(Path(__file__).resolve().parents[1] / "scenes" / "skirmish.yaml")


def test_cli_aoe_json_holds_the_issue_keys(capsys):
    import json
    rc, out, err = run_cli(capsys, "aoe", SKIRMISH, "--template", "circle-l", "--target", "blue-guard",
                        "--by", "red-mage", "--json")
    assert rc == 0, err
    d = json.loads(out)
    for key in ("template", "legal", "reason", "target_fully_covered", "affected", "not_affected", "outline", "origin"):
        assert key in d
    assert d["template"] == "circle-l" and d["legal"] is True and d["target_fully_covered"] is True
    hit = next(h for h in d["affected"] if h["id"] == "blue-guard")
    assert set(hit) >= {"id", "covered_fraction", "in_band", "los_from_origin", "count"}
    assert all(set(m) >= {"id", "why"} for m in d["not_affected"])
    assert any(m["id"] == "red-mage" and "user" in m["why"] for m in d["not_affected"])


def test_cli_aoe_best_and_spray(capsys):
    rc, out, err = run_cli(capsys, "aoe", SKIRMISH, "--template", "circle-l", "--target", "blue-guard",
                        "--by", "red-mage", "--best")
    assert rc == 0, err
    assert "legal" in out.splitlines()[0] and "search:" in out
    rc, out, err = run_cli(capsys, "aoe", SKIRMISH, "--template", "spray-s", "--by", "red-brute",
                        "--aim", "20,12", "--band", "down", "--count", "2")
    assert rc == 0, err
    assert "Targetless" in out and "2 templates" in out and "band down" in out


@pytest.mark.parametrize("argv, words", [
    (["--template", "cone", "--target", "blue-guard"], "unknown template 'cone'"),
    (["--template", "circle-s", "--at", "1,x"], "--at: expected X,Y or X,Y,Z"),
    (["--template", "circle-s", "--target", "nobody"], "--target: unknown model 'nobody'"),
    (["--template", "circle-s"], "needs --target ID or --at"),
    (["--template", "spray-s", "--target", "blue-guard"], "--by: a spray needs its user"),
    (["--template", "spray-s", "--by", "red-brute", "--aim", "20,12", "--band", "sideways"], "--band"),
    (["--template", "spray-s", "--by", "red-brute", "--at", "3,3"], "--at: a spray starts"),
    (["--template", "circle-s", "--target", "blue-guard", "--count", "two"], "--count"),
    (["--template", "circle-s", "--target", "blue-guard", "--best"], "--best: needs --target ID and --by ID"),
    (["--template", "circle-s", "--at", "60,3"], "off the"),
])
def test_cli_aoe_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    rc, out, err = run_cli(capsys, "aoe", SKIRMISH, *argv)
    assert rc == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and words in err, err


def test_cli_aoe_missing_arguments_is_one_line(capsys):
    rc, out, err = run_cli(capsys, "aoe", SKIRMISH)
    assert rc == 2 and len(err.strip().splitlines()) == 1 and "--template" in err


def test_cli_aoe_the_attack_itself_needs_an_enemy_seen_or_in_the_casting_aura(capsys, tmp_path):
    import json
    scene = tmp_path / "wall.yaml"
    scene.write_text("name: aoe attack\ngames: [eldfall]\ntable: [36, 36]\nterrain:\n"
                     "  - {id: wall, shape: box, at: [7, 10, 0], size: [0.5, 6, 6]}\nmodels:\n"
                     "  - {id: mage, side: red, profile: sample-red#mage, at: [4, 10], facing: 0}\n"
                     "  - {id: pal, side: red, profile: sample-red#champion, at: [4, 20], facing: 0}\n"
                     "  - {id: far, side: blue, profile: sample-blue#warden, at: [20, 10], facing: 180}\n"
                     "  - {id: near, side: blue, profile: sample-blue#guard, at: [9, 10], facing: 180}\n"
                     "  - {id: open, side: blue, profile: sample-blue#guard, at: [14, 20], facing: 180}\n")

    def verdict(target):
        rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", target,
                            "--by", "mage", "--json")
        assert rc == 0, err
        d = json.loads(out)
        return d["legal"], d["reason"]
    assert verdict("open") == (True, "")
    legal, why = verdict("far")              # behind the wall, 15" away: no LoS, outside the Aura
    assert not legal and "no LoS" in why and "Casting Aura" in why
    legal, why = verdict("near")             # behind the wall inside the Aura: a spell may
    assert legal, why
    legal, why = verdict("pal")              # an ally
    assert not legal and "enemy" in why


def test_best_placement_prefers_centres_the_target_is_seen_from(tmp_path, capsys):
    # a 3" wall just east of the target and many enemies beyond it: the centres that reach
    # them cannot see the target (illegal); the search must still find a legal one
    rows = [f"  - {{id: blue-e{i}, side: blue, size: M, at: [13.3, {6.1 + 1.3 * i:.1f}], facing: 180}}"
            for i in range(7)] + \
        [f"  - {{id: green-g{i}, side: green, size: M, at: [14.6, {6.1 + 1.3 * i:.1f}], facing: 180}}"
         for i in range(7)]
    scene = tmp_path / "bestwall.yaml"
    scene.write_text("name: best\ntable: [30, 24]\nterrain:\n"
                     "  - {id: wall, shape: box, at: [11.0, 10, 0], size: [0.1, 12, 3]}\nmodels:\n"
                     "  - {id: red-mage, side: red, profile: sample-red#mage, at: [4, 10], facing: 0}\n"
                     "  - {id: blue-t, side: blue, size: M, at: [10, 10], facing: 0}\n"
                     "  - {id: blue-f0, side: blue, size: M, at: [12.0, 7.0], facing: 180}\n"
                     "  - {id: blue-f1, side: blue, size: M, at: [12.0, 13.0], facing: 180}\n"
                     + "\n".join(rows) + "\n")
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-t",
                        "--by", "red-mage", "--best")
    assert rc == 0, err
    assert out.splitlines()[0].endswith(": legal"), out


def test_a_flying_target_or_user_is_measured_on_the_surface_under_it(tmp_path, capsys):
    import json
    scene = tmp_path / "fly.yaml"
    scene.write_text("table: [30, 30]\nmodels:\n"
                     "  - {id: red-mage, side: red, profile: sample-red#mage, at: [10, 10], facing: 0}\n"
                     "  - {id: blue-fly, side: blue, size: M, at: [16, 10, 6], facing: 180, states: [Flying]}\n"
                     "  - {id: blue-ground, side: blue, size: M, at: [17.3, 10], facing: 180}\n"
                     "  - {id: red-fly, side: red, size: M, at: [10, 20, 6], facing: 0, states: [Flying],"
                     " profile: sample-red#mage}\n"
                     "  - {id: blue-g2, side: blue, size: M, at: [15, 20], facing: 180}\n")
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "blue-fly",
                        "--by", "red-mage", "--json")
    d = json.loads(out)
    assert rc == 0 and d["legal"] and {h["id"] for h in d["affected"]} == {"blue-fly", "blue-ground"}
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "spray-l", "--target", "blue-g2",
                        "--by", "red-fly", "--band", "up")
    assert rc == 0 and out.splitlines()[0].endswith(": legal") and "z 0.00 to 5.00" in out and "-0.00" not in out


def test_a_circle_centred_inside_solid_scenery_is_refused(tmp_path, capsys):
    scene = tmp_path / "tower.yaml"
    scene.write_text("table: [30, 30]\nterrain:\n  - {id: tower, shape: box, at: [20, 20, 0], size: [4, 4, 4]}\n"
                     "models:\n  - {id: red-mage, side: red, profile: sample-red#mage, at: [10, 10], facing: 45}\n")
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--at", "18.3,20,0", "--by", "red-mage")
    assert rc == 2 and "inside tower" in err and out == ""
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--at", "18.3,20,4", "--by", "red-mage")
    assert rc == 0 and "on the surface at z 4.00" in out
