"""Review 13, the dispute (`eldfall los`, `eldfall measure`) as players in a dispute use it,
checked with a ruler on small scenes whose answer is known.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165").
"""
from __future__ import annotations


import numpy as np
import pytest

from engine import sight
from engine.scene import load_scene
from tools.loading import build_world
from cli_run import run_cli  # noqa: E402
from scene_files import write_dedented as _write  # noqa: E402




def _world(tmp_path, text: str, name: str = "scene.yaml"):
    p = _write(tmp_path, name, text)
    return build_world(load_scene(str(p)), str(p))


# a 2" wall 0.32" in front of a Medium model made 2" tall (height_mm 50.8): the wall's top
# is exactly the top of the hitbox (Heavy: "reaches the top of the hitbox")
LEVEL_TOP = """\
table: [36, 36]
terrain:
  - {id: wall, shape: box, at: [18, 18, 0], size: [0.5, 2, 2]}
  - {id: wall2, shape: box, at: [18, 8, 0], size: [0.5, 2, 1.70]}
models:
  - {id: a, side: red, size: M, height_mm: 50.8, at: [6, 18], facing: 0}
  - {id: b, side: blue, size: M, height_mm: 50.8, at: [19.2, 19], facing: 180}
  - {id: c, side: red, size: M, at: [6, 8], facing: 0}
  - {id: d, side: blue, size: M, at: [19.2, 9], facing: 180}
"""


def test_a_wall_as_tall_as_the_hitbox_is_said_to_be_as_tall_not_taller(tmp_path):
    # "its top is 2.00" above the base (taller than the 2.00" hitbox)": the numbers printed
    # side by side contradict the word between them; Heavy because the top reaches the top
    world = _world(tmp_path, LEVEL_TOP)
    r = sight.los(world, "a", "b")
    assert r.los and r.cover == "heavy" and r.cover_piece == "wall"
    assert "its top is 2.00\" above the base (as tall as the 2.00\" hitbox)" in r.cover_reason, r.cover_reason
    assert "taller than" not in r.cover_reason


def test_heavy_through_the_height_tolerance_says_so(tmp_path):
    # with cover.heavy_height_tolerance_in 0.1, a 1.70" wall in front of a 1.77" hitbox gives
    # Heavy; the reason said "taller than the 1.77" hitbox" of a top 0.07" lower
    world = _world(tmp_path, LEVEL_TOP)
    s = sight.default_settings().replace(cover_heavy_height_tolerance_in=0.1)
    r = sight.los(world, "c", "d", settings=s)
    assert r.los and r.cover == "heavy", r.cover_reason
    assert ("its top is 1.70\" above the base (lower, but within cover.heavy_height_tolerance_in (0.1\") "
            "of the 1.77\" hitbox)") in r.cover_reason, r.cover_reason
    # without the tolerance: Light, "not taller"
    r0 = sight.los(world, "c", "d")
    assert r0.cover == "light" and "(not taller than the 1.77\" hitbox)" in r0.cover_reason, r0.cover_reason


# a faces away from b across open ground; c is Blinded and faces b
AWAY = """\
table: [36, 36]
models:
  - {id: a, side: red, size: M, at: [10, 18], facing: 180}
  - {id: b, side: blue, size: M, at: [20, 18], facing: 180}
  - {id: c, side: red, size: M, at: [10, 22], facing: 0, states: [Blinded]}
  - {id: d, side: red, size: M, at: [10, 14], facing: 0}
"""


def _overlays(monkeypatch, P):
    """At each picture taken: (rays drawn, target points drawn, caption)."""
    seen = []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        seen.append((self.overlay.findAllMatches("**/los-rays").getNumPaths(),
                     self.overlay.findAllMatches("**/los-target-points").getNumPaths(),
                     self.caption_np.node().getText()))
        return orig(self, path, important)

    monkeypatch.setattr(P._Stage, "shoot", shoot)
    return seen


def test_pictures_draw_no_red_rays_where_no_line_was_looked_at(view_app, tmp_path, monkeypatch):
    # a target wholly behind the viewer's front arc line, on open ground: the pictures drew
    # red rays ("red blocked", says the legend) across empty table, as if something blocked
    from engine.view import pictures as P
    world = _world(tmp_path, AWAY)
    seen = _overlays(monkeypatch, P)
    r = sight.los(world, "a", "b")
    assert not r.los and r.in_front_arc is False and r.blocking == ()
    P.los_pictures(world, r, str(tmp_path / "away"))
    assert [rays for rays, _, _ in seen] == [0, 0]
    assert [pts for _, pts, _ in seen] == [1, 1]          # its grey points: behind the arc line
    for _, _, text in seen:
        assert "no rays drawn: no line was looked at (b is wholly behind a's front arc line)" in text
        assert "red blocked" not in text
    # Blinded: no rays, and no target points (red "hidden" points: nothing hides them)
    seen.clear()
    rb = sight.los(world, "c", "b")
    assert not rb.los and rb.by_state
    P.los_pictures(world, rb, str(tmp_path / "blind"))
    assert [(rays, pts) for rays, pts, _ in seen] == [(0, 0), (0, 0)]
    assert all("c is Blinded" in text and "red hidden" not in text for _, _, text in seen)
    # a viewer facing the target: its rays are drawn as before
    seen.clear()
    rd = sight.los(world, "d", "b")
    assert rd.los
    P.los_pictures(world, rd, str(tmp_path / "seen"))
    assert [(rays, pts) for rays, pts, _ in seen] == [(1, 1), (1, 1)]
    assert all("rays (some of those cast): green clear, red blocked" in text for _, _, text in seen)


# a on a 6" tower; b on the ground under the edge of a slab 2.2" up (0.2" thick), 0.43"
# above its 1.77" hitbox: the slab hides its head from a
OVERHEAD = """\
table: [36, 36]
terrain:
  - {id: tower, shape: box, at: [6, 18, 0], size: [3, 3, 6]}
  - {id: slab, shape: box, at: [%(x)s, 18, 2.2], size: [%(w)s, 10, 0.2]}
models:
  - {id: a, side: red, size: M, at: [6, 18], facing: 0}
  - {id: b, side: blue, size: M, at: [19.5, 18, 0], facing: 180}
"""


def test_a_floor_over_the_model_wider_than_its_cover_disc_is_higher_than_its_base(tmp_path):
    # the floor of the storey above covers the whole disc 1" round the base: its highest
    # point there was looked for only at its corners, its edges and its sloping faces, none
    # of which lie in the disc, and it was "not higher than its base": no cover
    from engine.cover import local_top
    world = _world(tmp_path, OVERHEAD % {"x": 22, "w": 10})
    slab = next(p for p in world.pieces if p.id == "slab")
    hb = world.hitbox("b")
    assert local_top(slab.mesh, hb, 1.0) == pytest.approx(2.4)
    assert local_top(slab.mesh, hb, 1.0, lowest=True) == pytest.approx(2.2)
    r = sight.los(world, "a", "b")
    assert r.los and 0 < r.visible_fraction < 1 and "slab" in r.blocking
    assert r.cover == "light" and r.cover_piece == "slab", r.cover_reason
    assert "not higher than its base" not in r.cover_reason


def test_a_slab_hanging_over_the_model_is_not_taller_than_it(tmp_path):
    # "Heavy: the piece is both taller and wider than the model": a 0.2" awning over a
    # model's head is not taller than the model, though its top is 2.4" above the base
    world = _world(tmp_path, OVERHEAD % {"x": 19, "w": 3})
    r = sight.los(world, "a", "b")
    assert r.los and r.cover == "light" and r.cover_piece == "slab", r.cover_reason
    assert ("its top is 2.40\" above the base (but it hangs over the model, its bottom 2.20\" above the base: "
            "not taller than the 1.77\" hitbox)") in r.cover_reason, r.cover_reason


def test_a_wall_standing_on_a_step_rises_from_the_models_ground(tmp_path):
    # a 2" wall on a 1" step in front of a model on the ground: together 3", taller than it
    world = _world(tmp_path, """\
        table: [36, 36]
        terrain:
          - {id: step, shape: box, at: [17.5, 18, 0], size: [1.5, 4, 1]}
          - {id: wall, shape: box, at: [17.5, 18, 1], size: [0.5, 4, 2]}
        models:
          - {id: a, side: red, size: M, at: [6, 18], facing: 0}
          - {id: b, side: blue, size: M, at: [19.0, 20.3, 0], facing: 180}
        """)
    r = sight.los(world, "a", "b")
    assert r.los and r.cover == "heavy" and r.cover_piece == "wall", r.cover_reason
    assert "(taller than the 1.77\" hitbox)" in r.cover_reason


# a is Engaged by b, in base contact behind its back: the Engaged exception gives a LoS to
# b, measured all round (docs/rulings.md, "When a state gives LoS")
ENGAGED_BEHIND = """\
table: [24, 24]
models:
  - {id: a, side: red, size: M, at: [10, 12], facing: 180, states: [Engaged]}
  - {id: b, side: blue, size: M, at: [11.2598, 12], facing: 180}
"""


def test_a_states_los_behind_the_arc_says_nothing_blocks_not_none_looked_for(tmp_path, capsys):
    # "visible: 100.0%", "a clear line: ..." and, between them, "blocking: none looked for
    # (b is behind a's front arc)": the lines were looked at, all round, and none is blocked
    scene = _write(tmp_path, "engaged.yaml", ENGAGED_BEHIND)
    rc, out, _ = run_cli(capsys, "los", str(scene), "a", "b")
    assert rc == 0 and "LoS yes, 100% visible" in out and "a clear line:" in out, out
    assert "  blocking: nothing\n" in out, out
    assert "none looked for" not in out


def test_pictures_of_a_states_los_behind_the_arc_draw_the_lines_looked_at(view_app, tmp_path, monkeypatch):
    from engine.cover import no_line_looked_at
    from engine.view import pictures as P
    world = _world(tmp_path, ENGAGED_BEHIND)
    r = sight.los(world, "a", "b")
    assert r.los and r.in_front_arc is False and r.witness is not None
    assert no_line_looked_at(r) is None
    seen = _overlays(monkeypatch, P)
    P.los_pictures(world, r, str(tmp_path / "engaged"))
    assert [(rays, pts) for rays, pts, _ in seen] == [(1, 1), (1, 1)]
    assert all("no rays drawn" not in text for _, _, text in seen)
