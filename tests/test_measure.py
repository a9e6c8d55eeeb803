"""Measuring against hand-computed geometry: distance, reach and range bands,
awareness and aura, engagement for the whole table."""
from __future__ import annotations

import math

import pytest

from engine import measure as M
from engine.errors import InputError
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec, Weapon
from engine.units import mm
from engine.world import World
from cli_run import run_cli  # noqa: E402

R_M = mm(32) / 2
H_M = mm(45)

SWORD = Weapon("Sword", "melee", rch=1.0, pw=8)
FISTS = Weapon("Fists", "melee", rch=0.0, pw=4)
PIKE = Weapon("Pike", "melee", rch=2.0, pw=9)
BOW = Weapon("Bow", "ranged", pw=10, bands=((0, 12, 0), (13, 24, -3), (25, 36, -6)))
XBOW = Weapon("Crossbow", "ranged", pw=12, bands=((4, 16, 0), (17, 30, -4)))


def prof(name, weapons, traits=(), ag=6):
    return Profile(f"test#{name}", name, {"AG": ag, "STA": 2, "SPD": 5}, "M", traits=tuple(traits),
                   weapons=tuple(weapons))


def model(mid, side, x, y, weapons=(), traits=(), ag=6, facing=0.0, states=(), z=None):
    p = prof(mid, weapons, traits, ag)
    return ModelSpec(mid, side, 32, 45, (x, y, z), facing=facing, profile=p, stats=dict(p.stats),
                     states=tuple(states))


def world(models, terrain=()):
    return World(Scene("", (36, 36), tuple(terrain), tuple(models)))


def test_distance_height_and_base_contact():
    w = world([model("a", "red", 10, 10), model("b", "blue", 13, 10), model("c", "blue", 10 + 2 * R_M, 10 + 0.0)],
              [TerrainSpec("roof", "box", (13, 16, 0), size=(2, 2, 3))])
    m = M.measure(w, "a", "b")
    assert m.distance == pytest.approx(3 - 2 * R_M, abs=1e-6)
    assert m.horizontal == pytest.approx(3 - 2 * R_M, abs=1e-6)
    assert m.height_difference == pytest.approx(0.0, abs=1e-6)
    assert not m.base_contact
    assert M.measure(w, "a", "c").base_contact
    w.move_model("b", 13, 16, z=3.0)   # onto the 3" roof
    m = M.measure(w, "a", "b")
    gap_h = math.hypot(3, 6) - 2 * R_M
    assert m.height_difference == pytest.approx(3.0, abs=1e-4)
    assert m.distance == pytest.approx(math.hypot(gap_h, 3 - H_M), abs=1e-4)


def test_flying_models_are_measured_on_the_surface_under_them():
    w = world([model("archer", "red", 5, 10, [BOW]), model("bird", "blue", 15, 10, z=6.0, states=["Flying"]),
               model("roofed", "blue", 15, 20, z=6.0)],
              [TerrainSpec("roof", "box", (15, 20, 0), size=(2, 2, 6))])
    w.move_model("bird", 15, 10, z=6.0)                              # up in the air
    assert w.hitbox("bird").z == pytest.approx(6.0)
    m = M.measure(w, "archer", "bird")
    assert m.distance == pytest.approx(10 - 2 * R_M, abs=1e-6)      # as if on the table
    assert m.height_difference == pytest.approx(0.0, abs=1e-6)
    assert w.distance("archer", "bird") > m.distance                # the raw hitboxes are farther
    # a model standing on a 6" roof is measured where it stands
    m = M.measure(w, "archer", "roofed")
    assert m.distance == pytest.approx(w.distance("archer", "roofed"), abs=1e-9)
    assert m.height_difference == pytest.approx(6.0, abs=1e-4)


def test_range_bands_and_modifiers():
    # bands 0-12 / 13-24 / 25-36: 12.4" lies in the second band (the gap between printed bands closes upward)
    assert M.range_band(BOW.bands, 0.0) == ((0, 12), 0)
    assert M.range_band(BOW.bands, 12.0) == ((0, 12), 0)
    assert M.range_band(BOW.bands, 12.4) == ((13, 24), -3)
    assert M.range_band(BOW.bands, 36.0) == ((25, 36), -6)
    assert M.range_band(BOW.bands, 36.2) is None
    assert M.range_band(XBOW.bands, 3.5) is None           # inside the minimum range
    assert M.range_band(XBOW.bands, 4.0) == ((4, 16), 0)


def test_weapon_report_uses_hitbox_distance():
    # centres 20" apart: 20 - 2r = 18.74" -> the 13-24 band, ACC -3
    w = world([model("archer", "red", 5, 10, [BOW, XBOW, SWORD]), model("t", "blue", 25, 10)])
    m = M.measure(w, "archer", "t")
    by = {r.name: r for r in m.weapons}
    assert by["Bow"].in_reach and by["Bow"].band == (13, 24) and by["Bow"].modifier == -3
    assert by["Crossbow"].in_reach and by["Crossbow"].band == (17, 30) and by["Crossbow"].modifier == -4
    assert not by["Sword"].in_reach and "out of reach" in by["Sword"].why
    only = M.measure(w, "archer", "t", weapon="bow")
    assert [r.name for r in only.weapons] == ["Bow"]
    w.move_model("t", 5 + 2 * R_M + 36.5, 10)
    assert "out of range" in M.measure(w, "archer", "t", weapon="Bow").weapons[0].why
    with pytest.raises(InputError, match="has no weapon or spell 'Axe'"):
        M.measure(w, "archer", "t", weapon="Axe")
    with pytest.raises(InputError, match="unknown model 'zz'"):
        M.measure(w, "archer", "zz")


def test_reach_zero_means_base_contact_and_reach_counts_from_the_hitbox():
    w = world([model("a", "red", 10, 10, [FISTS, SWORD]), model("b", "blue", 10 + 2 * R_M + 0.01, 10)])
    by = {r.name: r for r in M.measure(w, "a", "b").weapons}
    assert not by["Fists"].in_reach and by["Sword"].in_reach
    w.move_model("b", 10 + 2 * R_M, 10)
    assert M.measure(w, "a", "b").weapons[0].in_reach
    # 1" reach measured between hitboxes in 3D: b on a 0.9" step 0.5" away still in reach
    w2 = world([model("a", "red", 10, 10, [SWORD]), model("b", "blue", 10 + 2 * R_M + 0.5, 10)],
               [TerrainSpec("step", "box", (12, 10, 0), size=(2.4, 2, 0.9))])
    assert w2.hitbox("b").z == pytest.approx(0.9, abs=1e-4)
    # vertical gap 0 (0.9 < H_M): distance 0.5
    assert M.measure(w2, "a", "b").weapons[0].in_reach


def test_awareness_acute_senses_and_aura():
    # AG 6: b's edge 6.0" from a's edge is inside; 6.1" is not; Acute Senses adds 3"
    w = world([model("a", "red", 5, 10, ag=6), model("b", "blue", 5 + 2 * R_M + 6.0, 10),
               model("s", "red", 5, 20, ag=6, traits=["Acute Senses"]), model("t", "blue", 5 + 2 * R_M + 8.9, 20)])
    m = M.measure(w, "a", "b")
    assert m.awareness == 6 and m.b_in_awareness and m.aura == m.awareness and m.b_in_aura
    w.move_model("b", 5 + 2 * R_M + 6.1, 10)
    assert not M.measure(w, "a", "b").b_in_awareness
    m = M.measure(w, "s", "t")
    assert m.awareness == 9 and m.b_in_awareness


def test_engagements_for_the_whole_table():
    w = world([
        model("pike", "red", 10, 10, [PIKE], facing=0),
        model("foe", "blue", 10 + 2 * R_M + 1.8, 10, [FISTS], facing=180),     # in pike reach; fists: no
        model("behind", "blue", 10 - 2 * R_M - 0.5, 10, [SWORD], facing=0),   # behind the pike: it sees pike's back
        model("friend", "red", 10, 10 + 2 * R_M + 0.2, [SWORD]),               # allies never engage
        model("far", "blue", 20, 20, [FISTS]),                                 # fists: base contact only
    ])
    pairs = set(M.engagements(w))
    # pike engages foe (2" reach, front arc); behind engages pike (sword 1", facing it)
    assert ("pike", "foe") in pairs
    assert ("behind", "pike") in pairs
    assert ("pike", "behind") not in pairs        # behind the pike's front arc: no LoS
    assert ("foe", "pike") not in pairs           # fists need base contact
    assert not any(a == "friend" or b == "friend" for a, b in pairs if {a, b} <= {"pike", "friend"})
    assert pairs == {("pike", "foe"), ("behind", "pike")}
    # crouched models engage nobody; flying models neither engage nor are engaged
    w.set_states("pike", {"Crouched"})
    assert ("pike", "foe") not in set(M.engagements(w))
    w.set_states("pike", set())
    w.set_states("foe", {"Flying"})
    assert ("pike", "foe") not in set(M.engagements(w)) and not M.engages(w, "pike", "foe")


def test_a_model_without_melee_weapons_engages_in_base_contact():
    w = world([model("archer", "red", 10, 10, [BOW]), model("foe", "blue", 10 + 2 * R_M, 10, facing=180)])
    assert M.melee_reach(w, "archer") == 0.0
    assert ("archer", "foe") in set(M.engagements(w))
    w.move_model("foe", 10 + 2 * R_M + 0.2, 10)
    assert ("archer", "foe") not in set(M.engagements(w))


def test_engagement_needs_los_a_wall_breaks_it():
    w = world([model("pike", "red", 10, 10, [PIKE]), model("foe", "blue", 10 + 2 * R_M + 1.8, 10, facing=180)],
              [TerrainSpec("wall", "box", (10 + R_M + 0.9, 10, 0), size=(0.2, 4, 3))])
    assert M.engagements(w) == []
    m = M.measure(w, "pike", "foe")
    assert m.weapons[0].in_reach and not m.a_engages_b


# ----------------------------------------------------------------------------- command line
from pathlib import Path  # noqa: E402

SKIRMISH = str(Path(__file__).resolve().parents[1] / "scenes" / "skirmish.yaml")


def test_cli_measure_reports_everything(capsys):
    import json
    from engine.world import World
    from engine.scene import load_scene
    w = World(load_scene(SKIRMISH))
    rc, out, err = run_cli(capsys, "measure", SKIRMISH, "red-archer", "blue-guard", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["distance"] == pytest.approx(w.distance("red-archer", "blue-guard"), abs=1e-3)
    assert d["height_difference"] == pytest.approx(w.height_difference("red-archer", "blue-guard"), abs=1e-3)
    for key in ("base_contact", "b_in_awareness", "casting_aura", "weapons", "engagement"):
        assert key in d
    assert d["weapons"] and all({"name", "in_reach", "band", "modifier"} <= set(x) for x in d["weapons"])
    rc, out, err = run_cli(capsys, "measure", SKIRMISH, "red-archer", "blue-guard")
    assert rc == 0 and "distance" in out and "engagement:" in out


@pytest.mark.parametrize("argv, words", [
    (["red-archer", "nobody"], "unknown model 'nobody'"),
    (["red-archer", "blue-guard", "--weapon", "Axe"], "has no weapon or spell 'Axe'"),
    (["red-archer", "red-archer"], "same model"),
    (["red-archer"], "required"),
])
def test_cli_measure_bad_input(capsys, argv, words):
    rc, out, err = run_cli(capsys, "measure", SKIRMISH, *argv)
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and words in err, err


def test_a_casters_spells_are_measured_with_their_bands_and_reach():
    from engine.scene import ModelSpec, Profile, Scene, Spell
    bolt = Spell("Fire Bolt", "Sorcery", rng=24, bands=((0, 12, 0), (12, 24, -3)))
    burst = Spell("Flame Burst", "Sorcery", rng=18)
    touch = Spell("Burning Touch", "Sorcery", rng=1, melee=True)
    ward = Spell("Self Ward", "Enchantment", target="self")
    prof = Profile("t#mage", "mage", {"AG": 4}, spells=(bolt, burst, touch, ward))
    a = ModelSpec("a", "red", 32, 45, (5, 5, None), profile=prof, stats={"AG": 4})
    b = ModelSpec("b", "blue", 32, 45, (5 + 2 * mm(16) + 15, 5, None), stats={"AG": 4})
    w = World(Scene("", (36, 36), models=(a, b)))
    got = {r.name: r for r in M.measure(w, "a", "b").weapons}
    assert set(got) == {"Fire Bolt", "Flame Burst", "Burning Touch"}          # not the self spell
    assert got["Fire Bolt"].in_reach and got["Fire Bolt"].band == (12, 24) and got["Fire Bolt"].modifier == -3
    assert got["Flame Burst"].in_reach and not got["Burning Touch"].in_reach
    assert M.measure(w, "a", "b", weapon="fire bolt").weapons[0].name == "Fire Bolt"
