"""Cover by the rulebook: which piece, which level, and why."""
from __future__ import annotations

import pytest

from engine import cover as C
from engine import sight
from engine.scene import ModelSpec, Profile, Scene, TerrainSpec
from engine.units import mm
from engine.world import World

R = mm(16)


def model(mid, x, y, facing=0.0, side="red", states=(), size="M", z=None):
    base, height = {"S": (25, 25), "M": (32, 45), "L": (40, 45), "H": (50, 50)}[size]
    prof = Profile(f"t#{mid}", mid, {"AG": 4}, size=size)
    return ModelSpec(mid, side, base, height, (x, y, z), facing=facing, size=size, profile=prof,
                     stats={"AG": 4}, states=tuple(states))


def table(terrain, target_at, states=(), size="M", viewer_at=(4, 12)):
    models = (model("a", *viewer_at, 0.0), model("b", *target_at, 180.0, "blue", states, size))
    return World(Scene("", (24, 24), terrain=tuple(terrain), models=models))


def low_wall(**kw):
    return TerrainSpec("low-wall", "box", (12, 12, 0), size=(0.5, 6, 1), **kw)


def test_low_wall_within_an_inch_gives_light_and_says_why():
    w = table([low_wall()], (12.25 + R + 0.5, 12))
    c = C.cover(w, "a", "b")
    assert (c.level, c.piece) == ("light", "low-wall")
    assert "0.50\" away" in c.reason and "not taller" in c.reason


def test_the_same_wall_just_beyond_an_inch_gives_none():
    # 1.05" from the wall: the wall still hides its feet, but it is too far
    w = table([TerrainSpec("low-wall", "box", (12, 12, 0), size=(0.5, 6, 1.5))], (12.25 + R + 1.05, 12),
              viewer_at=(11.0, 12))
    r = sight.los(w, "a", "b")
    assert r.los and r.visible_fraction < 1
    assert r.cover == "none" and "1.05\" away" in r.cover_reason
    # and at 0.95" it counts
    w.move_model("b", 12.25 + R + 0.95, 12)
    assert sight.los(w, "a", "b").cover == "light"


def test_tall_wide_wall_gives_heavy_a_thin_post_light():
    wall = TerrainSpec("wall", "box", (12, 8, 0), size=(0.5, 8, 3))            # y 4..12
    w = table([wall], (13.03, 12.0), viewer_at=(4, 13))
    c = C.cover(w, "a", "b")
    assert (c.level, c.piece) == ("heavy", "wall")
    post = TerrainSpec("post", "cylinder", (12.6, 12, 0), radius=0.2, height=3)
    w = table([post], (13.6, 12), viewer_at=(4, 12))
    c = C.cover(w, "a", "b")
    assert (c.level, c.piece) == ("light", "post") and "not wider" in c.reason


def test_cover_tag_overrides_the_level():
    for tag, want in (("heavy", "heavy"), ("none", "none"), ("light", "light")):
        w = table([low_wall(cover=tag)], (12.25 + R + 0.3, 12))
        c = C.cover(w, "a", "b")
        assert c.level == want, (tag, c)
        assert "cover tag" in c.reason


def test_crouched_flying_and_size():
    w = table([], (14, 12), states=("Crouched",))
    c = C.cover(w, "a", "b")
    assert c.level == "light" and "Crouched" in c.reason and c.piece is None
    w = table([low_wall()], (12.25 + R + 0.3, 12), states=("Flying",))
    assert C.cover(w, "a", "b").level == "none"
    w = table([low_wall()], (12.25 + mm(25) + 0.3, 12), size="H")
    c = C.cover(w, "a", "b")
    assert c.level == "none" and "size H" in c.reason
    w = table([low_wall()], (12.25 + mm(20) + 0.3, 12), size="L")
    assert C.cover(w, "a", "b").level == "light"


def test_crouched_behind_a_low_wall_is_light_by_its_size_heavy_by_its_shrunk_hitbox():
    from engine.sight_settings import default_settings
    w2 = World(Scene("", (24, 24), terrain=(low_wall(), TerrainSpec("tower", "box", (3, 12, 0), size=(3, 3, 5))),
                     models=(model("a", 4, 12, 0.0, z=5.0), model("b", 12.25 + R + 0.3, 12, 180.0, "blue",
                                                                 ("Crouched",)))))
    c = C.cover(w2, "a", "b")
    assert (c.level, c.piece) == ("light", "low-wall") and "of its size" in c.reason
    hit = C.cover(w2, "a", "b", settings=default_settings().replace(cover_heavy_against="hitbox"))
    assert (hit.level, hit.piece) == ("heavy", "low-wall")
    # a wall taller than the standing model still gives Heavy to a Crouched one
    tall = TerrainSpec("wall", "box", (12, 12, 0), size=(0.5, 6, 2))
    w3 = World(Scene("", (24, 24), terrain=(tall, TerrainSpec("tower", "box", (3, 12, 0), size=(3, 3, 20))),
                     models=(model("a", 4, 12, 0.0, z=20.0), model("b", 12.25 + R + 0.3, 12, 180.0, "blue",
                                                                 ("Crouched",)))))
    assert C.cover(w3, "a", "b").level == "heavy"


def test_higher_ground_own_ledge_light_and_a_wall_up_there_heavy():
    block = TerrainSpec("block", "box", (16, 12, 0), size=(4, 4, 3))          # x 14..18, top 3
    w = table([block], (15.03, 12), viewer_at=(8, 12))
    c = C.cover(w, "a", "b")
    assert (c.level, c.piece) == ("light", "block") and "own ledge" in c.reason
    # standing 3" back from the edge: the edge is too far to count
    w.move_model("b", 17.3, 12)
    r = sight.los(w, "a", "b")
    assert r.los and r.cover == "none"
    # a parapet up there, taller than the hitbox
    parapet = TerrainSpec("parapet", "box", (14.2, 12, 3), size=(0.4, 4, 2))
    big = TerrainSpec("block", "box", (16, 12, 0), size=(4, 8, 3))           # y 8..16
    w2 = World(Scene("", (24, 24), terrain=(big, parapet),
                     models=(model("a", 2, 12, 0.0, z=0), model("b", 15.1, 14.3, 180.0, "blue"))))
    # the parapet (y 10..14) hides part of b (y 13.67..14.93) from a raised viewer
    w2.move_model("a", 2, 12, 3.5)
    assert w2.hitbox("b").z == pytest.approx(3.0)
    c = C.cover(w2, "a", "b")
    assert c.level in ("heavy",) and c.piece == "parapet", c


def test_no_los_no_cover_and_cover_in_los_result():
    wall = TerrainSpec("wall", "box", (12, 12, 0), size=(0.5, 8, 3))
    w = table([wall], (13, 12))
    r = sight.los(w, "a", "b")
    assert not r.los and r.cover == "none" and r.cover_reason == "no LoS"


def test_piece_distance_is_exact_for_a_box():
    w = table([low_wall()], (12.25 + R + 0.37, 12))
    hb = w.hitbox("b")
    assert C.piece_distance(w.piece("low-wall").mesh, hb) == pytest.approx(0.37, abs=2e-3)
    # above the wall's top: the distance is diagonal
    w2 = World(Scene("", (24, 24), terrain=(low_wall(),), models=(model("b", 12.25 + R + 0.3, 12),)))
    w2.move_model("b", 12.25 + R + 0.3, 12, 1.4)
    hb2 = w2.hitbox("b")
    assert hb2.z == pytest.approx(1.4)
    assert C.piece_distance(w2.piece("low-wall").mesh, hb2) == pytest.approx((0.3 ** 2 + 0.4 ** 2) ** 0.5, abs=2e-3)


def test_bounds_distance_never_exceeds_the_exact_distance():
    # the cheap box test only rejects pieces the exact test would reject too
    w = World(Scene("", (24, 24), terrain=(low_wall(), TerrainSpec("post", "cylinder", (5, 5, 0), radius=0.3, height=2)),
                    models=(model("b", 12.25 + R + 0.3, 12),)))
    lo, hi = C.piece_bounds(w)
    assert C.piece_bounds(w)[0] is lo                       # built once per world
    for (x, y, z) in ((12.25 + R + 0.3, 12, 0), (12.25 + R + 1.4, 12, 1.4), (6.5, 3.2, 0), (20, 20, 0)):
        w.move_model("b", x, y, z)
        hb = w.hitbox("b")
        lb = C.bounds_distance(lo, hi, hb)
        for i, p in enumerate(w.pieces):
            if p.id == "table":
                continue
            assert lb[i] <= C.piece_distance(p.mesh, hb) + 1e-9, (p.id, x, y, z)


def test_far_piece_still_named_with_its_distance():
    # the far wall is rejected on its bounds, but the reason still gives its exact distance
    w = table([TerrainSpec("low-wall", "box", (12, 12, 0), size=(0.5, 6, 1.5))], (12.25 + R + 2.5, 12),
              viewer_at=(11.0, 12))
    r = sight.los(w, "a", "b")
    assert r.los and r.visible_fraction < 1
    assert r.cover == "none" and "2.50\" away" in r.cover_reason


def test_a_reason_listing_distances_is_built_when_read_and_survives_pickling():
    """The no-cover reason naming far pieces with their exact distances is only built when
    read (bots never read it); read, copied or pickled, it is the same text."""
    import copy
    import pickle
    w = table([TerrainSpec("low-wall", "box", (12, 12, 0), size=(0.5, 6, 1.5))], (12.25 + R + 2.5, 12),
              viewer_at=(11.0, 12))
    r = sight.los(w, "a", "b")
    assert callable(type(r).cover_reason.raw(r))           # not built yet
    again = pickle.loads(pickle.dumps(r))
    assert "2.50\" away" in again.cover_reason
    assert copy.deepcopy(r).cover_reason == r.cover_reason == again.cover_reason
    assert r.as_dict()["cover_reason"] == r.cover_reason
    c = C.cover(w, "a", "b", sight.los(w, "a", "b", cover=False))
    assert pickle.loads(pickle.dumps(c)).reason == c.reason and "2.50\" away" in c.reason


def test_piece_distance_on_a_large_mesh_keeps_only_near_faces_and_the_same_answer(monkeypatch):
    # a noisy rubble heightfield (thousands of faces): the culled search gives what the
    # search over every face gives, at several places around and on the mound
    import numpy as np
    u = np.linspace(-1, 1, 40)
    gx, gy = np.meshgrid(u, u)
    h = 2.0 * np.clip(1 - (gx ** 2 + gy ** 2), 0, None) + np.random.default_rng(3).uniform(0, 0.1, gx.shape)
    mound = TerrainSpec("mound", "heightfield", (12, 12, 0), size=(4, 4), heights=tuple(map(tuple, h.tolist())))
    w = World(Scene("", (24, 24), terrain=(mound,), models=(model("b", 16, 12),)))
    mesh = w.piece("mound").mesh
    assert len(mesh.faces) > 1000
    for (x, y, z) in ((14.9, 12, 0), (12, 9.2, 0), (12.5, 12.5, 2.6), (20, 20, 0)):
        w.move_model("b", x, y, z)
        hb = w.hitbox("b")
        data = C._mesh_data(mesh)
        near = C._near_faces(data, hb)
        assert len(near.triangles) < len(data.triangles) / 4
        culled = C.piece_distance(mesh, hb)
        with monkeypatch.context() as m:
            m.setattr(C, "_near_faces", lambda d, _hb: d)
            assert culled == pytest.approx(C.piece_distance(mesh, hb), abs=1e-9), (x, y, z)


@pytest.mark.parametrize("gap, want", [(0.0, "heavy"), (0.2, "light")])
def test_a_wall_of_two_touching_blocks_is_as_wide_as_both(gap, want):
    # two 1" x 3" blocks side by side across the line of sight; each alone is narrower than the base
    w1 = TerrainSpec("w1", "box", (12, 11.5 - gap / 2, 0), size=(0.5, 1, 3))
    w2 = TerrainSpec("w2", "box", (12, 12.5 + gap / 2, 0), size=(0.5, 1, 3))
    w = table([w1, w2], (13.0, 12.6 + gap / 2))
    c = C.cover(w, "a", "b")
    assert c.level == want, c.reason
    assert ("beside it" in c.reason) == (want == "heavy")
