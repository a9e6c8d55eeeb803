"""Review 13: `eldfall aoe`, its templates, height limits and pictures, checked with a ruler.

The table (1" = 25.4 mm; Circular S radius 35 mm = 1.378", M base radius 16 mm = 0.63"):
red-mage at (4, 10) facing +x; blue-a (12, 10) and blue-b (12, 14) stand in the open;
blue-far (24, 4) is behind a 4" wall (x 19.75-20.25, y 1-7), 20.9" from the mage: no LoS,
outside its Casting Aura, so a template on it is illegal.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

from cli_run import run_cli  # noqa: E402
from scene_files import burster_models, write

SCENE = """name: review13
games: [eldfall]
table: [30, 30]
terrain:
  - {id: wall, shape: box, at: [20, 4, 0], size: [0.5, 6, 4]}
models:
  - {id: red-mage, side: red, profile: test-party#burster, at: [4, 10], facing: 0}
  - {id: blue-a, side: blue, size: M, at: [12, 10], facing: 180}
  - {id: blue-b, side: blue, size: M, at: [12, 14], facing: 180}
  - {id: blue-far, side: blue, size: M, at: [24, 4], facing: 180}
"""


def table(tmp_path, scene=SCENE):
    models = burster_models(tmp_path)
    path = write(tmp_path, "s.yaml", scene)
    return ["aoe", str(path), "--models-dir", str(models)]


def targets(*ids):
    return [a for t in ids for a in ("--target", t)]


# ----------------------------------------------------------------------------- the picture
def _fill_colour(node) -> tuple:
    """The colour of the first vertex of the GeomNode ``node``."""
    from panda3d.core import GeomVertexReader
    geom = node.node().getGeom(0)
    reader = GeomVertexReader(geom.getVertexData(), "color")
    c = reader.getData4f()
    return (round(c[0], 2), round(c[1], 2), round(c[2], 2))


def test_the_picture_rings_every_main_target_and_colours_each_template_by_its_own_verdict(
        view_app, capsys, tmp_path, monkeypatch):
    # template 1 on blue-a is legal on its own; template 2 on blue-far is not (no LoS, out of
    # the Aura). Before: the picture drew both templates in the whole attack's red, one
    # centre dot (the first template's) and no main target ringed at all
    from engine.view import pictures as P
    seen = []
    orig = P._Stage.shoot

    def shoot(self, path, important=()):
        tmpl = {k: self.overlay.find(f"**/aoe-template-{k}") for k in (1, 2)}
        seen.append({"rings": dict(self.table.highlights), "important": list(important),
                     "fills": {k: (None if n.isEmpty() else _fill_colour(n.find("**/template-0")))
                               for k, n in tmpl.items()},
                     "dots": self.overlay.findAllMatches("**/template-origin").getNumPaths(),
                     "labels": [self.overlay.find(f"**/aoe-template-label-{k}").isEmpty() for k in (1, 2)]})
        return orig(self, path, important)
    monkeypatch.setattr(P._Stage, "shoot", shoot)
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--by", "red-mage",
                           *targets("blue-a", "blue-far"), "--picture", str(tmp_path / "pic"))
    assert rc == 0, err
    assert "template 1 on blue-a: legal" in out and "template 2 on blue-far: ILLEGAL" in out
    look, = seen
    white = (1, 1, 1, 0.9)
    assert look["rings"].get("blue-a") == white and look["rings"].get("blue-far") == white, look["rings"]
    assert {"blue-a", "blue-far", "red-mage"} <= set(look["important"])
    orange, red = (1.0, 0.55, 0.1), (0.9, 0.1, 0.1)
    assert look["fills"] == {1: orange, 2: red}, look["fills"]
    assert look["dots"] == 2 and look["labels"] == [False, False]
    assert (tmp_path / "pic" / "aoe.png").is_file()


def test_the_default_caption_names_the_main_targets():
    from types import SimpleNamespace

    from engine.view.pictures import aoe_caption
    res = SimpleNamespace(template="circle-s", legal=True, reason="", affected=(),
                          targets=("blue-a", "blue-b"))
    assert aoe_caption(res).startswith("circle-s on blue-a, blue-b: legal")


# ----------------------------------------------------------------------------- bad options
@pytest.mark.parametrize("bands", [("up", "down"), ("down", "up", "down")])
def test_two_different_bands_for_one_main_target_are_refused(capsys, tmp_path, bands):
    # before: the last --band was taken without a word (a user who typed "--band up" first
    # got a "down" spray); one main target has one band for all its templates
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", "spray-s", "--by", "red-mage", "--target", "blue-a",
                           *[a for b in bands for a in ("--band", b)])
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, (out, err)
    assert f"--band: given {len(bands)} times ({', '.join(bands)}) for one main target" in err
    # the same band twice says the same thing twice: no contradiction
    rc, out, err = run_cli(capsys, *base, "--template", "spray-s", "--by", "red-mage", "--target", "blue-a",
                           "--band", "down", "--band", "down")
    assert rc == 0 and "band down: z -5.00 to 0.00" in out, err


# ----------------------------------------------------------------------------- the JSON
def test_a_base_that_only_touches_the_outline_reads_touching_in_the_json_as_in_the_text(capsys, tmp_path):
    # blue-edge's centre is 2.0083" from blue-a's: 1.378" (Circular S) + 0.630" (M base) =
    # 2.0079", so its base is 0.0004" outside the circle: touching (within 0.001"), 0% under
    # it. The text said "touching", the JSON "partial" with a covered fraction of 0
    scene = SCENE + "  - {id: blue-edge, side: blue, size: M, at: [12, 7.9917], facing: 180}\n"
    base = table(tmp_path, scene)
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--target", "blue-a")
    assert rc == 0, err
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("blue-edge"))
    assert "touching" in line, line
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--target", "blue-a", "--json")
    hit = next(h for h in json.loads(out)["affected"] if h["id"] == "blue-edge")
    assert hit["covered_fraction"] == 0 and hit["coverage"] == "touching", hit
    a = next(h for h in json.loads(out)["affected"] if h["id"] == "blue-a")
    assert a["coverage"] == "full"


# ----------------------------------------------------------------------------- the words
def test_a_main_target_wholly_outside_gets_one_distance_as_in_the_list_of_models(capsys, tmp_path):
    # the circle at (12, 17): blue-b (12, 14) is 3" from its centre, its base 3 - 0.63 - 1.378
    # = 0.992" from the edge and its far edge 3 + 0.63 - 1.378 = 2.252" out. Before, the reason
    # said "0.0% of its base is under the template, its edge is 2.25" outside" while the list
    # below said "0.99" from its edge": two distances for one base and one template
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--target", "blue-b", "--at", "12,17")
    assert rc == 0, err
    assert ("main target blue-b is not fully covered: none of its base is under the template, its nearest "
            "edge is 0.99\" outside and its far edge 2.25\"") in out, out
    assert "blue-b    outside the template (0.99\" from its edge)" in out, out
    assert "0.0% of its base" not in out


# ----------------------------------------------------------------------------- the Attack on the main target
LOBBERS = """party: Lobbers
game: eldfall
profiles:
  lobber:
    name: Lobber
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 9, AG: 11, T: 9, M: 9}
    items:
      - {name: Bomb Lobber, kind: ranged, pw: 10, stk: 1, bands: {"0-24": 0}, traits: [Circular S, Targetless]}
  thrower:
    name: Thrower
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 9, AG: 11, T: 9, M: 9}
    items:
      - {name: Fire Pot, kind: ranged, pw: 10, stk: 1, bands: {"0-24": 0}, traits: [Circular S]}
"""

WALLED = """name: walled
games: [eldfall]
table: [30, 30]
terrain:
  - {id: wall, shape: box, at: [8, 10, 0], size: [0.5, 6, 4]}
models:
  - {id: red-user, side: red, profile: lobbers#%s, at: [4, 10], facing: 0}
  - {id: blue-hid, side: blue, size: M, at: [11, 10], facing: 180}
  - {id: blue-far, side: blue, size: M, at: [20, 10], facing: 180}
"""


@pytest.mark.parametrize("who, target, legal, why", [
    # Targetless: "LoS to the target (unless stated otherwise, e.g. Targetless)"; before, the
    # Bomb Lobber's template on blue-far (14.74" away, beyond the 11" Awareness, behind the
    # wall) was ILLEGAL for want of LoS
    ("lobber", "blue-far", True, None),
    ("lobber", "blue-hid", True, None),
    # blue-hid is 5.74" away, inside the 11" Awareness: before, the Casting Aura made a plain
    # weapon's template legal without LoS; the Aura is a spell's
    ("thrower", "blue-hid", False,
     "red-user has no LoS to main target blue-hid: its Fire Pot (a weapon, not Targetless) needs it"),
])
def test_the_attack_that_places_the_template_decides_whether_los_is_needed(capsys, tmp_path, who, target,
                                                                           legal, why):
    write(tmp_path, "models/lobbers.yaml", LOBBERS)
    scene = write(tmp_path, "w.yaml", WALLED % who)
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--models-dir", str(tmp_path / "models"),
                           "--template", "circle-s", "--by", "red-user", "--target", target, "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["legal"] is legal, d["reason"]
    if why:
        assert why in d["reason"], d["reason"]
    # the circle's own LoS (from its centre) is another matter: the target is hit either way
    assert [h["id"] for h in d["affected"]] == [target]


@pytest.mark.parametrize("name, key", [("circular-s", "circle-s"), ("Circular L", "circle-l"),
                                       ("SPRAY-S", "spray-s"), ("spray_l", "spray-l")])
def test_the_books_and_the_party_files_template_names_are_taken(capsys, tmp_path, name, key):
    # a party file spells a spell's template "circular-s" (docs/scene-format.md), the book
    # "Circular S": before, `--template circular-s` was "unknown template"
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", name, "--by", "red-mage", "--target", "blue-a", "--json")
    assert rc == 0, err
    assert json.loads(out)["template"] == key


def test_an_unknown_template_names_the_option(capsys, tmp_path):
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", "circle-m", "--target", "blue-a")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--template: unknown template 'circle-m' (known: circle-s, circle-l, spray-s, spray-l" in err


LEDGE = """name: ledge
games: [eldfall]
table: [30, 30]
terrain:
  - {id: tower, shape: box, at: [4, 10, 0], size: [3, 3, 3.5]}
models:
  - {id: red-brute, side: red, size: M, at: [4.5, 10], facing: 0}
  - {id: blue-t, side: blue, size: M, at: [10, 10], facing: 180}
"""


def test_a_spray_out_of_its_band_says_where_and_which_band_reaches_the_target(capsys, tmp_path):
    # red-brute on a 3.5" tower; blue-t on the ground, its hitbox 0 to 1.77": the up band
    # (3.5 to 8.5) misses it by 3.5 - 1.77 = 1.73", below; the down band (-1.5 to 3.5) holds
    # it. Before: "out of the template's height band (1.73" beyond it)": no word of where, nor
    # of the band the attacker may choose
    scene = write(tmp_path, "l.yaml", LEDGE)
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "spray-s", "--by", "red-brute",
                           "--target", "blue-t")
    assert rc == 0, err
    assert ("main target blue-t is out of the template's height band (1.73\" beyond it, below band z 3.50 to "
            "8.50); the band down reaches it (--band down)") in out, out
    rc, out, err = run_cli(capsys, "aoe", str(scene), "--template", "spray-s", "--by", "red-brute",
                           "--target", "blue-t", "--band", "down")
    assert rc == 0 and out.startswith("spray-s on blue-t by red-brute: legal"), out


def test_an_illegal_attack_lists_the_models_it_would_affect_not_affected(capsys, tmp_path):
    # the template on blue-far cannot be placed (no LoS, outside the Aura): its models are
    # those it would affect. Before, "affected (2 ...)" under "ILLEGAL" read as hits
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-far"))
    assert rc == 0 and ": ILLEGAL" in out.splitlines()[0], err
    assert "\n  would be affected (2: 2 enemies, 0 allies):\n" in out, out
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--by", "red-mage", "--target", "blue-far")
    assert ": ILLEGAL" in out.splitlines()[0] and "\n  would be affected (1: 1 enemy, 0 allies):\n" in out, out
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--by", "red-mage", "--target", "blue-a")
    assert ": legal" in out.splitlines()[0] and "\n  affected (1: 1 enemy, 0 allies):\n" in out, out


@pytest.mark.parametrize("several", [False, True])
def test_every_centre_off_the_table_is_one_line(capsys, tmp_path, several):
    # before: only the first centre off the 30x30 table was named
    base = table(tmp_path)
    who = targets("blue-a", "blue-b") if several else ["--target", "blue-a", "--count", "2"]
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", *who, "--at", "40,1", "--at", "12,31",
                           "--picture", str(tmp_path / "pic"))
    assert rc == 2 and out == "", out
    assert err.strip().splitlines() == ["<command line>: --at: (40, 1) is off the 30x30 table (--at 1 of 2)",
                                        "<command line>: --at: (12, 31) is off the 30x30 table (--at 2 of 2)"]
    assert not (tmp_path / "pic" / "aoe.png").exists()
