"""Review 11, the dispute report (`eldfall los`) as players in a rules dispute use it: the
pictures must show what the verdict counts, and the JSON must pin everything the verdict
depends on.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165").
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from engine import sight
from engine.scene import load_scene
from engine.world import World
from cli_run import run_cli  # noqa: E402
from scene_files import write  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

# a peeks round the end of a 3" wall just in front of it: the top front of its hitbox (the
# eye view's usual place) is behind the wall, its right-hand side sees all of b
PEEK = """\
table: [24, 24]
terrain:
  - {id: corner, shape: box, at: [8.15, 5, 0], size: [4.3, 0.5, 3]}
models:
  - {id: a, side: red, size: M, at: [10, 4], facing: 90}
  - {id: b, side: blue, size: M, at: [13, 16], facing: 270}
"""

# a is Shrouded (360 degrees) and faces away from b, which it sees past the wall's end
ALL_ROUND = """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 16, 0], size: [4, 0.5, 3]}
models:
  - {id: a, side: red, size: M, at: [12, 8], facing: 270, states: [Shrouded]}
  - {id: b, side: blue, size: M, at: [14.3, 16.9], facing: 270}
"""


def _shots(monkeypatch, P):
    """Record, at each picture taken, the camera's position and whether a front arc is drawn."""
    seen = []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        pos = self.app.camera.getPos(self.app.render)
        seen.append((np.array([pos[0], pos[1], pos[2]]), not self.overlay.find("**/front-arc").isEmpty(),
                     self.caption_np.node().getText()))
        return orig(self, path, important)

    monkeypatch.setattr(P._Stage, "shoot", shoot)
    return seen


def test_eye_picture_stands_where_the_viewer_sees_the_target_from(view_app, tmp_path, monkeypatch):
    # "LoS yes, 100% visible" with an eye view from the top front of a's hitbox, behind the
    # wall, showed the wall and nothing of b: a picture contradicting its own verdict
    from engine.view import pictures as P
    from engine.view.camera import TableCamera
    world = World(load_scene(str(write(tmp_path, "peek.yaml", PEEK))))
    r = sight.los(world, "a", "b")
    assert r.los and r.visible_fraction == 1.0 and r.cover == "none"
    top = TableCamera.eye_point(world.hitbox("a"))
    assert sight.point_los(world, top, "b", exclude=("a",), raise_by=0.0) == (False, 0.0)   # the wall
    seen = _shots(monkeypatch, P)
    P.los_pictures(world, r, str(tmp_path / "pics"))
    cam, _, caption = seen[0]
    assert cam == pytest.approx(np.array(r.eye), abs=1e-3), (cam, r.eye, top)
    assert sight.point_los(world, cam, "b", exclude=("a",), raise_by=0.0)[1] > 0.9
    assert "the point of a's hitbox that sees most of b: the top front of its hitbox sees none of it" in caption
    # where the top front sees the target, the eye view stays there, and says nothing more
    open_ = PEEK.replace("size: [4.3, 0.5, 3]", "size: [4.3, 0.5, 0.5]")
    world2 = World(load_scene(str(write(tmp_path, "open.yaml", open_))))
    r2 = sight.los(world2, "a", "b")
    seen.clear()
    P.los_pictures(world2, r2, str(tmp_path / "pics2"))
    cam2, _, caption2 = seen[0]
    assert cam2 == pytest.approx(TableCamera.eye_point(world2.hitbox("a")), abs=1e-3)
    assert "eye view from" not in caption2


def test_no_front_arc_is_drawn_for_a_viewer_that_sees_all_round(view_app, tmp_path, monkeypatch):
    # a Shrouded viewer has no back arc: a yellow half disc "the viewer's front arc" pointing
    # away from a target it sees ("LoS yes") read as a fault of the referee
    from engine.view import pictures as P
    world = World(load_scene(str(write(tmp_path, "round.yaml", ALL_ROUND))))
    r = sight.los(world, "a", "b")
    assert r.los and r.all_round and not _facing_b(world)
    seen = _shots(monkeypatch, P)
    P.los_pictures(world, r, str(tmp_path / "pics"))
    assert [arc for _, arc, _ in seen] == [False, False]
    assert all(P.ALL_ROUND_LEGEND in text and "yellow: the viewer's front arc" not in text for _, _, text in seen)
    # the same viewer, no longer Shrouded, facing b: the arc is drawn and named
    facing = ALL_ROUND.replace("facing: 270, states: [Shrouded]", "facing: 90")
    world2 = World(load_scene(str(write(tmp_path, "arc.yaml", facing))))
    r2 = sight.los(world2, "a", "b")
    assert r2.los and not r2.all_round
    seen.clear()
    P.los_pictures(world2, r2, str(tmp_path / "pics2"))
    assert [arc for _, arc, _ in seen] == [True, True]
    assert all("yellow: the viewer's front arc" in text for _, _, text in seen)


def _facing_b(world) -> bool:
    a, b = world.hitbox("a"), world.hitbox("b")
    return float(np.dot([b.x - a.x, b.y - a.y], a.facing_vector)) > 0


def test_los_json_pins_the_party_files_the_profiles_come_from(tmp_path, capsys):
    # a model's size (and so its hitbox, the LoS and the cover) comes from its party file:
    # the same scene file (same SHA-256) with a profile changed from M to L gives another
    # answer, so the JSON names each party file with its SHA-256
    models = tmp_path / "models"
    models.mkdir()
    shutil.copy(ROOT / "models" / "sample-red.yaml", models / "sample-red.yaml")
    scene = write(tmp_path, "s.yaml", """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 12, 0], size: [4, 0.5, 1.5]}
models:
  - {id: a, side: red, profile: sample-red#archer, at: [12, 4], facing: 90}
  - {id: b, side: blue, size: M, at: [12, 13.0], facing: 270}
""")
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--json", "--models-dir", str(models))
    assert rc == 0, err
    first = json.loads(out)
    party = next(iter(first["parties"]))
    assert list(first["parties"]) == [party] and party.endswith("sample-red.yaml")
    import hashlib
    assert first["parties"][party] == hashlib.sha256((models / "sample-red.yaml").read_bytes()).hexdigest()
    # the --all matrix's JSON too
    rc, out, err = run_cli(capsys, "los", str(scene), "--all", "--json", "--models-dir", str(models))
    assert rc == 0, err
    assert json.loads(out)["parties"] == first["parties"]
    # the archer made Large: the same scene SHA-256, another verdict, another party SHA-256
    text = (models / "sample-red.yaml").read_text()
    block = text[text.index("  archer:"):]
    size_line = next(ln for ln in block.splitlines() if ln.strip().startswith("size:"))
    (models / "sample-red.yaml").write_text(text.replace(block, block.replace(size_line, "    size: L", 1), 1))
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--json", "--models-dir", str(models))
    assert rc == 0, err
    second = json.loads(out)
    assert second["sha256"] == first["sha256"]
    assert (second["visible_fraction"], second["distance"]) != (first["visible_fraction"], first["distance"])
    assert second["parties"][party] != first["parties"][party]


# f flies (LoS to and from all models) and faces away from t, which stands
# 0.12" behind a 1.2" wall, 54% of it hidden from f; g, also Flying, faces it
FLYING_BACK = """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 12, 0], size: [4, 0.5, 1.2]}
models:
  - {id: f, side: red, size: M, at: [12, 4], facing: 270, states: [Flying]}
  - {id: g, side: red, size: M, at: [6, 4], facing: 90, states: [Flying]}
  - {id: t, side: blue, size: M, at: [12, 13.0], facing: 270}
"""


def test_a_wall_hides_a_target_behind_a_flying_attackers_back(tmp_path):
    # Flying: LoS to all models, whatever the arcs. Its cover was judged only from the target
    # points in front of f's arc line (none): "no scenery within 1" hides part of its hitbox",
    # while the wall hides the lower half of t from f as it does from g, which faces it
    from engine.cover import cover
    world = World(load_scene(str(write(tmp_path, "fly.yaml", FLYING_BACK))))
    r = sight.los(world, "f", "t")
    assert r.los and r.reason == "f is Flying: LoS to all models" and not r.in_front_arc
    assert (r.cover, r.cover_piece) == ("light", "wall"), r.cover_reason
    assert "wall is 0.12\" away and hides 47% of its hitbox from f" in r.cover_reason
    assert (cover(world, "f", "t").level, cover(world, "f", "t").piece) == ("light", "wall")
    facing = sight.los(world, "g", "t")
    assert (facing.cover, facing.cover_piece) == ("light", "wall")
    # what the wall hides is the same seen all round (f moving: 360 degrees)
    moving = sight.los(world, "f", "t", moving=True)
    assert (moving.cover, moving.cover_piece) == ("light", "wall") and moving.visible_fraction > 0.3


@pytest.mark.parametrize("text, says", [
    # a whole number too long for a float was a traceback (OverflowError), exit 1
    ("lattice: {patch_mm: " + "9" * 400 + "}\n", "lattice.patch_mm: a number of 400 digits is too large"),
    ("cover: {within_in: 1e400}\n", "cover.within_in: 1e400 is too large"),
    # deeper than the hitbox's surface the lattice collapses (a Crouched hitbox is 0.138"
    # tall) and LoS was judged from inside the models: "LoS no, blocked by tower"
    ("lattice: {inset_in: 2}\n", "lattice.inset_in: must be less than 0.05\""),
])
def test_a_bad_sight_setting_is_one_line_and_exit_2(tmp_path, capsys, text, says):
    settings = write(tmp_path, "sight.yaml", text)
    scene = write(tmp_path, "s.yaml", PEEK)
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--settings", str(settings))
    assert rc == 2 and out == ""
    assert err.splitlines() == [f"{settings}:1: {says}" + err.splitlines()[0].split(says, 1)[1]], err


def test_a_sight_setting_written_with_an_exponent_is_the_number_it_spells(tmp_path, capsys):
    # YAML 1.1 reads 2.5e-1 as text: the scene files take it as a number, the settings file
    # refused it ("must be a number, not '2.5e-1'")
    from engine.sight_settings import load_settings
    path = write(tmp_path, "sight.yaml", "cover: {within_in: 2.5e-1}\nlattice: {patch_mm: 3e0}\n")
    s = load_settings(path)
    assert (s.cover_within_in, s.patch_mm) == (0.25, 3.0)
    scene = write(tmp_path, "s.yaml", PEEK)
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b", "--settings", str(path), "--json")
    assert rc == 0, err
    assert json.loads(out)["settings"]["cover_within_in"] == 0.25


def test_f12_verdict_json_carries_the_settings_and_the_party_files(view_app, tmp_path):
    # the view's F12 (and `eldfall demo`'s dispute) wrote the scene's SHA-256 but neither the
    # sight settings nor the party files: the verdict could not be reproduced from it
    from engine.sight_settings import default_settings
    from engine.view.pictures import dispute_folder
    world = World(load_scene(str(ROOT / "scenes" / "open.yaml")))
    a, b = world.model_ids()[:2]
    s = default_settings().replace(cover_within_in=0.5)
    r = sight.los(world, a, b, settings=s)
    verdict = dispute_folder(world, r, str(tmp_path / "f12"))
    saved = json.loads((tmp_path / "f12" / "verdict.json").read_text())
    assert saved["settings"] == json.loads(json.dumps(s.as_dict())) and saved["settings"]["cover_within_in"] == 0.5
    from tools.cmd_los import party_files
    assert saved["parties"] == party_files(world.scene) == verdict["parties"] and len(saved["parties"]) == 2
    assert saved["scene_sha256"] == world.scene.sha256


def test_a_distance_just_beyond_a_whole_inch_is_not_printed_as_that_inch(tmp_path, capsys):
    # range bands and Awareness are whole inches (20.004" is in the 21-40" band): the report
    # printed "20.0" away" and "20.00"", which a player reads as inside the 0-20" band
    r = 0.62992126                        # a Medium base's radius
    gap = 20.004
    scene = write(tmp_path, "far.yaml", f"""\
table: [30, 10]
models:
  - {{id: a, side: red, size: M, at: [2, 5], facing: 0}}
  - {{id: b, side: blue, size: M, at: [{2 + 2 * r + gap:.6f}, 5], facing: 180}}
""")
    world = World(load_scene(str(scene)))
    assert world.distance("a", "b") == pytest.approx(gap, abs=1e-6)
    from engine.measure import range_band
    assert range_band([(0, 20, 0), (21, 40, -6)], world.distance("a", "b"))[0] == (21, 40)
    rc, out, err = run_cli(capsys, "los", str(scene), "a", "b")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].endswith('20.004" away, level'), lines[0]
    assert any(ln.startswith('  distance: 20.004" between the closest points') for ln in lines), out
    pictures = pytest.importorskip("engine.view.pictures")
    assert '20.004" away' in pictures.los_caption(sight.los(world, "a", "b"))
    # within the measuring tolerance (0.001"), or below the inch, two decimals as before
    from tools.cmd_los import inches
    assert (inches(20.0004, 2), inches(19.996, 2), inches(11.58, 1)) == ("20.00", "20.00", "11.6")


def test_cover_of_an_engager_the_rules_name_behind_the_attackers_back(tmp_path):
    # LoS by the Engaged state (the rules name the engagers: engaged_with) to a model behind
    # the attacker's arc line and wholly behind a 3" wall: the wall hides it all round (Heavy),
    # and the LoS stays the state's (judging cover all round does not turn it into "no LoS")
    text = FLYING_BACK.replace("size: [4, 0.5, 1.2]", "size: [4, 0.5, 3]").replace(", states: [Flying]", "")
    world = World(load_scene(str(write(tmp_path, "eng.yaml", text))))
    assert not sight.los(world, "g", "t").los                     # the wall hides t wholly
    r = sight.los(world, "f", "t", engaged_with=["t"])
    assert r.los and r.reason == "f is engaged by t" and not r.in_front_arc
    assert (r.cover, r.cover_piece) == ("heavy", "wall"), r.cover_reason


ASTRIDE = """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [11, 4.5, 0], size: [0.4, 4, 1.0]}
models:
  - {id: a, side: red, size: M, at: [4, 4], facing: 90}
  - {id: b, side: blue, size: M, at: [12, 4], facing: 270}
  - {id: c, side: red, size: M, at: [4, 8], facing: 0}
"""


def test_the_share_a_piece_hides_is_of_the_whole_hitbox(tmp_path):
    # b stands astride a's front arc line (half of it behind, counted unseen) behind a 1"
    # wall: "25% visible" and "the wall hides 43% of its hitbox" with half of it behind the
    # line added up to more than all of it; 43% was of the half in front of the line
    world = World(load_scene(str(write(tmp_path, "astride.yaml", ASTRIDE))))
    r = sight.los(world, "a", "b")
    side_top = r.target_part != 2
    hidden = ~r.target_visible & r.target_allowed & side_top
    assert 0.45 < 1 - r.target_allowed.mean() < 0.55 and (r.cover, r.cover_piece) == ("light", "wall")
    share = hidden.sum() / len(r.target_part)       # of all the sample points, as the visible share
    assert 0.15 < share < 0.3
    from engine.cover import percent
    assert f"hides {percent(share)} of its hitbox from a" in r.cover_reason, r.cover_reason
    # c sees all of b's front: the same wall hides about twice as much of it
    rc = sight.los(world, "c", "b")
    share_c = (~rc.target_visible & (rc.target_part != 2)).sum() / len(rc.target_part)
    assert f"hides {percent(share_c)} of its hitbox from c" in rc.cover_reason and share_c > 1.6 * share
