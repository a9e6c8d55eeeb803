"""Review 15, players in a dispute: `eldfall los`, `measure` and `aoe` on small scenes whose
answers were worked out with a ruler.

Sizes: Medium base 32 mm (radius 0.62992"), hitbox 45 mm (1.77165").
"""
from __future__ import annotations

import json
import math
import re

import pytest

from cli_run import run_cli  # noqa: E402
from scene_files import write_dedented as _write  # noqa: E402

R = 16 / 25.4           # a Medium base's radius, inches
H = 45 / 25.4           # a Medium hitbox's height, inches




# an archer on a 4" tower behind a 0.6" parapet; a mage 0.12" behind a 1" low wall; a model
# 0.07" from a 4" post (taller, narrower: Light); a model Crouched 0.12" behind a 0.6" fence
TOWER = """\
table: [36, 36]
terrain:
  - {id: tower, shape: box, at: [6, 18, 0], size: [4, 4, 4]}
  - {id: parapet-e, shape: box, at: [7.875, 18, 4], size: [0.25, 4, 0.6]}
  - {id: low-wall, shape: box, at: [20, 18, 0], size: [0.5, 6, 1]}
  - {id: fence, shape: box, at: [20, 10, 0], size: [0.1, 4, 0.6]}
  - {id: post, shape: cylinder, at: [20, 4, 0], radius: 0.3, height: 4}
models:
  - {id: archer, side: red, size: M, at: [7.1, 18, 4], facing: 0}
  - {id: mage, side: blue, size: M, at: [21.0, 18], facing: 180}
  - {id: croucher, side: blue, size: M, at: [20.8, 10], facing: 180, states: [Crouched]}
  - {id: postman, side: blue, size: M, at: [21.0, 4], facing: 180}
"""


def _los(capsys, scene, a, b):
    rc, out, err = run_cli(capsys, "los", str(scene), a, b, "--json")
    assert rc == 0, err
    return json.loads(out)


def test_archer_on_tower_mage_behind_low_wall_by_ruler(tmp_path, capsys):
    scene = _write(tmp_path, "tower.yaml", TOWER)
    r = _los(capsys, scene, "archer", "mage")
    # closest points: the rims 13.9 - 2R apart across, the hitboxes 4 - H apart in height
    across = (21.0 - 7.1) - 2 * R
    assert r["distance"] == pytest.approx(math.hypot(across, 4 - H), abs=1e-3)
    assert r["height_difference"] == pytest.approx(-4.0)
    # the 1" wall is 20.37 - 20.25 = 0.12" from the base: lower than the hitbox, so Light
    assert (r["los"], r["cover"], r["cover_piece"]) == (True, "light", "low-wall")
    assert "0.12\" away" in r["cover_reason"] and "not taller" in r["cover_reason"]
    # the wall hides the low part of the side facing the archer, never the top: about half
    assert 0.4 < r["visible_fraction"] < 0.75
    post = _los(capsys, scene, "archer", "postman")
    # a 4" post 0.6" across, 0.07" away: taller than the hitbox but not wider than the base
    assert (post["cover"], post["cover_piece"]) == ("light", "post")
    assert "0.07\" away" in post["cover_reason"] and "not wider" in post["cover_reason"]
    crouch = _los(capsys, scene, "archer", "croucher")
    assert crouch["cover"] == "light" and "Crouched" in crouch["cover_reason"]


# a mage whose only template attack is a Circular S (Flame Burst), and a model with no profile
BLAST = """\
table: [24, 24]
terrain:
  - {id: low-wall, shape: box, at: [12, 10, 0], size: [6, 0.5, 1]}
models:
  - {id: pyro, side: red, profile: sample-red#mage, at: [12, 9], facing: 90}
  - {id: plain, side: red, size: M, at: [8, 9], facing: 90}
  - {id: b1, side: blue, size: M, at: [12, 14], facing: 270}
  - {id: b2, side: blue, size: M, at: [13.3, 14], facing: 270}
"""


def test_aoe_says_when_no_attack_of_the_user_places_the_template(tmp_path, capsys):
    """`aoe --template spray-s --by pyro` printed "legal" with no word that pyro has no attack
    placing a Spray S (its Flame Burst is a Circular S): a player reads "legal" as "pyro may
    spray". The verdict keeps judging the placement (docs/rulings.md: a user with no such
    attack is bound only by the placement), and now says so, naming what it does place."""
    scene = _write(tmp_path, "blast.yaml", BLAST)
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "spray-s", "--target", "b1", "--by", "pyro")
    assert rc == 0
    note = [ln for ln in out.splitlines() if ln.startswith("  note:")]
    assert len(note) == 1, out
    assert "no attack of pyro's places a Spray S" in note[0]
    assert "Flame Burst (Circular S)" in note[0]
    assert out.splitlines()[-1].startswith("  scene sha256:")
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "spray-s", "--target", "b1", "--by", "pyro",
                         "--json")
    d = json.loads(out)
    assert d["user_attacks"] == [] and "Flame Burst (Circular S)" in d["user_attacks_note"]
    # the attack that does place it: no note, and the JSON names it
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "b1", "--by", "pyro")
    assert "note:" not in out
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "b1", "--by", "pyro",
                         "--json")
    assert json.loads(out)["user_attacks"] == ["Flame Burst"]
    # a user with no profile: its attacks are not known
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "b2", "--by", "plain")
    assert "note: plain has no profile" in out
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "b2", "--by", "plain",
                         "--json")
    assert json.loads(out)["user_attacks"] is None


# b stands 0.37" from a Forest area; the lines from a through two Forest areas are blocked, so
# part of b is hidden, by the Forest rule, not by scenery. t stands half behind a Large ally.
HIDDEN_BY_NO_SCENERY = """\
table: [30, 30]
terrain:
  - {id: wood, shape: prism, at: [10, 4, 0], points: [[0,0],[4,0],[4,4],[0,4]], height: 3, tags: [area, forest]}
  - {id: wood2, shape: prism, at: [15, 4, 0], points: [[0,0],[3,0],[3,4],[0,4]], height: 3, tags: [area, forest]}
  - {id: far-wall, shape: box, at: [7, 23, 0], size: [0.5, 6, 1.2]}
models:
  - {id: a, side: red, size: M, at: [4, 6], facing: 0}
  - {id: b, side: blue, size: M, at: [19, 8.3], facing: 180}
  - {id: v4, side: red, size: M, at: [4, 20], facing: 0}
  - {id: b-ally, side: blue, size: L, at: [12.5, 20], facing: 180}
  - {id: t, side: blue, size: M, at: [14, 20.9], facing: 180}
  - {id: v5, side: red, size: M, at: [2, 23], facing: 0}
  - {id: t5, side: blue, size: M, at: [10, 23], facing: 180}
"""


def test_no_cover_names_what_hides_part_of_the_target_when_it_is_no_scenery(tmp_path, capsys):
    """`los a b` printed "blocking: wood, wood2 (Forest areas ...)" and, under it, "cover: none:
    no scenery within 1" hides part of its hitbox" with b 0.37" from the wood and 62% hidden:
    a player reads a contradiction. The cover line now says what hides it and why that gives
    no cover (an area is no scenery; models give no cover)."""
    scene = _write(tmp_path, "hidden.yaml", HIDDEN_BY_NO_SCENERY)
    r = _los(capsys, scene, "a", "b")
    assert r["los"] and r["cover"] == "none" and r["visible_fraction"] < 0.6
    assert set(r["blocking"]) == {"wood", "wood2"}
    assert "no scenery within" not in r["cover_reason"]
    assert "wood, wood2 (Forest areas: no LoS through 2 or more) hide part of it" in r["cover_reason"]
    assert "an area is not scenery and gives no cover" in r["cover_reason"]
    rc, out, _ = run_cli(capsys, "los", str(scene), "a", "b")
    assert "  cover: none: wood, wood2 (Forest areas" in out
    r = _los(capsys, scene, "v4", "t")
    assert r["los"] and r["cover"] == "none" and r["blocking"] == ["b-ally"]
    assert "b-ally hides part of it, but models give no cover" in r["cover_reason"]
    # a piece that hides part of it too far away keeps its words; a model beside it is added
    r = _los(capsys, scene, "v5", "t5")
    # (with its share of the hitbox, as the cover reasons give theirs: tests/test_review16_dispute2.py)
    assert r["cover"] == "none" and re.search(r"far-wall hides \d+% of its hitbox but is 2\.12\" away",
                                              r["cover_reason"]), r["cover_reason"]


def test_the_los_picture_legend_explains_a_crouched_models_faint_outline(view_app, tmp_path, monkeypatch):
    """A Crouched target wears a faint outline of its standing hitbox in the pictures
    (meshes: the ghost), while every ray goes to its base-high hitbox: unexplained, a referee
    reads the outline as the hitbox the lines missed. The legend now says what it is; a
    table with no Crouched or Dead model keeps the old legend."""
    from engine import sight
    from engine.scene import load_scene
    from engine.view import pictures as P
    from tools.loading import build_world
    scene = _write(tmp_path, "tower.yaml", TOWER)
    world = build_world(load_scene(str(scene)), str(scene))
    captions = []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        captions.append(self.caption_np.node().getText())
        return orig(self, path, important)
    monkeypatch.setattr(P._Stage, "shoot", shoot)
    r = sight.los(world, "archer", "croucher")
    P.los_pictures(world, r, str(tmp_path / "pics"))
    assert len(captions) == 2
    assert all(P.GHOST_LEGEND in c for c in captions), captions[0]
    standing = TOWER.replace(", states: [Crouched]", "").replace("[20.8, 10]", "[20.9, 10]")
    scene2 = _write(tmp_path, "standing.yaml", standing)
    world2 = build_world(load_scene(str(scene2)), str(scene2))
    assert P.ghost_legend(world2) == "" and P.ghost_legend(world).startswith(P.GHOST_LEGEND)
    # and it names the model that wears it (a referee looks for it among several)
    assert P.ghost_legend(world) == P.GHOST_LEGEND + ": croucher (Crouched); "
    # the legend still ends the caption
    assert all(c.endswith(P.LOS_LEGEND) for c in captions)


# a champion in base contact with a Flying model (front) and with a guard behind it, which
# engages it (the guard faces it): the table stands the champion Engaged
MELEE = """\
table: [24, 24]
models:
  - {id: champ, side: red, profile: sample-red#champion, at: [10, 10], facing: 0}
  - {id: fly, side: blue, size: M, at: [11.26, 10, 0], facing: 180, states: [Flying]}
  - {id: foot, side: blue, profile: sample-blue#guard, at: [8.74, 10], facing: 0}
  - {id: veil, side: blue, size: M, at: [10, 14], facing: 180, states: [Shrouded]}
"""


def test_measure_says_when_an_attack_in_reach_is_barred_by_the_states(tmp_path, capsys):
    """`measure champ fly` printed "Bearded Axe: in reach at 0.00"" for a Flying model that
    only a Flying model may target in melee, and "Throwing Axe: in range" for a champion the
    table stands Engaged (no Ranged Attack): a player reads "in reach" as "may strike". The line
    now adds the rules engine's reason; JSON weapons carry it as "barred"."""
    scene = _write(tmp_path, "melee.yaml", MELEE)
    rc, out, _ = run_cli(capsys, "measure", str(scene), "champ", "fly")
    assert rc == 0
    axe = next(ln for ln in out.splitlines() if ln.strip().startswith("Bearded Axe:"))
    assert axe.strip().startswith('Bearded Axe: in reach at 0.00" (RCH 0"); but fly cannot be its target: ')
    assert "Flying" in axe and "Melee Attacks" in axe
    throw = next(ln for ln in out.splitlines() if ln.strip().startswith("Throwing Axe:"))
    assert "; but champ cannot declare a Ranged Attack: Engaged" in throw
    rc, out, _ = run_cli(capsys, "measure", str(scene), "champ", "fly", "--json")
    ws = {w["name"]: w for w in json.loads(out)["weapons"]}
    assert "Flying" in ws["Bearded Axe"]["barred"] and "Engaged" in ws["Throwing Axe"]["barred"]
    # the guard, not Engaged by anyone it faces away from, strikes the champion: no "but"
    rc, out, _ = run_cli(capsys, "measure", str(scene), "foot", "champ", "--json")
    assert [w["barred"] for w in json.loads(out)["weapons"]] == [None]
    # a Shrouded model in range: only Perceive may target it
    rc, out, _ = run_cli(capsys, "measure", str(scene), "champ", "veil", "--weapon", "Throwing Axe")
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("Throwing Axe:"))
    assert "in range" in line and "but" in line


SIZES = """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 12, 0], size: [0.5, 6, 1]}
models:
  - {id: v, side: red, size: M, at: [4, 12], facing: 0}
  - {id: odd, side: blue, base_mm: 30, height_mm: 40, at: [12.9, 10], facing: 180}
  - {id: wide, side: blue, base_mm: 55, height_mm: 40, at: [13.4, 13.5], facing: 180}
"""


def test_a_model_given_in_millimetres_gets_cover_by_the_size_the_rules_play_it_as(tmp_path, capsys):
    """A 30 x 40 mm model (base_mm/height_mm, no size, no profile) 0.06" behind a 1" wall that
    hides half of it had "no cover: odd is size unknown". The rules play it as Size S (the
    largest Size whose table base fits its base: docs/rulings.md, `eldfall check` says so), and
    a Small model gets cover; a 55 mm one plays as H, and gets none, saying why."""
    scene = _write(tmp_path, "sizes.yaml", SIZES)
    r = _los(capsys, scene, "v", "odd")
    assert r["los"] and (r["cover"], r["cover_piece"]) == ("light", "wall"), r["cover_reason"]
    # the wall: 12.25 to the base's rim at 12.9 - 15/25.4
    assert f"{12.9 - 15 / 25.4 - 12.25:.2f}\" away" in r["cover_reason"]
    r = _los(capsys, scene, "v", "wide")
    assert r["cover"] == "none"
    assert r["cover_reason"] == "wide is size H (by its 55 mm base: no size given): only S, M, L get cover"


# pyro (a spell that places a Circular S; Awareness 11") behind a 3" wall that hides b1 wholly
BEHIND_WALL = """\
table: [24, 24]
terrain:
  - {id: wall, shape: box, at: [12, 8, 0], size: [6, 0.5, 3]}
models:
  - {id: pyro, side: red, profile: PROFILE, at: [12, 4], facing: 90}
  - {id: b1, side: blue, size: M, at: [12.6, 12], facing: 270}
"""

MORTAR_PARTY = """\
party: Test mortar
game: eldfall
profiles:
  mortar:
    size: M
    stats: {STA: 2, SPD: 5, ARM: 2, HP: 2, OFF: 8, DEF: 9, ACC: 12, INT: 10, AG: 4, T: 9, M: 10}
    items:
      - {name: Mortar, kind: ranged, pw: 10, stk: 1, bands: {"0-24": 0}, traits: [Targetless, Circular S]}
"""


def test_aoe_says_what_lets_a_legal_attack_reach_a_target_it_does_not_see(tmp_path, capsys):
    """`aoe --template circle-s --target b1 --by pyro` said "legal" with a 3" wall between them
    and not a word of it: the spell reaches b1 through pyro's Casting Aura (halved, no Cover).
    A Targetless weapon needs no LoS. Both now say so in a note (JSON `no_los_notes`)."""
    scene = _write(tmp_path, "wall.yaml", BEHIND_WALL.replace("PROFILE", "sample-red#mage"))
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "b1", "--by", "pyro")
    assert rc == 0 and out.splitlines()[0] == "circle-s on b1 by pyro: legal"
    assert ("  note: pyro has no LoS to b1 (blocked by wall): a spell reaches it inside pyro's Casting Aura "
            "(11\"), with its casting attribute halved, and b1 gets no Cover") in out.splitlines()
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-s", "--target", "b1", "--by", "pyro",
                         "--json")
    assert json.loads(out)["no_los_notes"][0].startswith("pyro has no LoS to b1 (blocked by wall): a spell")
    models = tmp_path / "mymodels"
    models.mkdir()
    (models / "test-mortar.yaml").write_text(MORTAR_PARTY)
    scene2 = _write(tmp_path, "mortar.yaml", BEHIND_WALL.replace("PROFILE", "test-mortar#mortar"))
    rc, out, err = run_cli(capsys, "aoe", str(scene2), "--template", "circle-s", "--target", "b1", "--by", "pyro",
                           "--models-dir", str(models))
    assert rc == 0 and out.splitlines()[0] == "circle-s on b1 by pyro: legal", out + err
    assert ("  note: pyro has no LoS to b1 (blocked by wall): its Mortar is Targetless and needs none; "
            "b1 gets no Cover") in out.splitlines()
    # with the wall gone: it sees b1, no note
    open_ = BEHIND_WALL.replace("PROFILE", "sample-red#mage").replace("size: [6, 0.5, 3]", "size: [6, 0.5, 0.3]")
    rc, out, _ = run_cli(capsys, "aoe", str(_write(tmp_path, "open.yaml", open_)), "--template", "circle-s",
                         "--target", "b1", "--by", "pyro")
    assert rc == 0 and "no LoS" not in out


def test_the_visible_the_hidden_and_the_underside_shares_add_up(tmp_path, capsys):
    # "57% visible" beside "low-wall ... hides 34% of its hitbox": the 34% was of the side
    # and top alone, and the unseen underside of the base (14%) was said nowhere
    import re
    scene = _write(tmp_path, "tower.yaml", TOWER)
    rc, out, err = run_cli(capsys, "los", str(scene), "archer", "mage")
    assert rc == 0, err
    vis = float(re.search(r"visible: ([\d.]+)% of", out).group(1))
    under = float(re.search(r"; ([\d.]+)% is the underside of its base, unseen from here", out).group(1))
    hides = float(re.search(r"low-wall is 0.12\" away and hides (\d+)% of its hitbox", out).group(1))
    assert under > 5 and abs(vis + under + hides - 100) <= 1.0, out
    # on open ground, level, every point is seen: no underside line
    rc, out, err = run_cli(capsys, "los", str(scene), "mage", "postman")
    assert "underside" not in out
