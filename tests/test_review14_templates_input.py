"""Review 14: `eldfall aoe` against the rules engine (the Attack's range, an Attack at the
ground), and bad input.

The table: burster at (4, 10) facing +x, whose Fire Rain (Sorcery, range 12, STK 2) places
Circular S templates and is not Targetless; bomber at (4, 16) facing +x, whose Fire Pot (a
Targetless ranged weapon, bands 0-8 and 9-12) places them too. blue-near (12, 10) is 6.74"
from the burster (closest points of the M hitboxes: 8 - 2 x 0.63), blue-far (20, 4) 15.83",
beyond Fire Rain's 12", in the open.
"""
from __future__ import annotations

import json

from cli_run import run_cli  # noqa: E402
from scene_files import write

PARTY = """party: Test
game: eldfall
profiles:
  burster:
    name: Burster
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}
    affinities: [Fire]
    spells:
      - {name: Fire Rain, type: Sorcery, affinity: Fire, mana: 2, pw: 10, stk: 2, range: 12, template: circular-s}
  bomber:
    name: Bomber
    size: M
    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 12, INT: 9, AG: 11, T: 9, M: 14}
    items:
      - {name: Fire Pot, kind: ranged, pw: 9, stk: 1, bands: {"0-8": 0, "9-12": -3}, traits: [Targetless, Circular S]}
"""

SCENE = """name: review14
games: [eldfall]
table: [30, 30]
models:
  - {id: burster, side: red, profile: test14#burster, at: [4, 10], facing: 0}
  - {id: bomber, side: red, profile: test14#bomber, at: [4, 16], facing: 0}
  - {id: blue-near, side: blue, size: M, at: [12, 10], facing: 180}
  - {id: blue-far, side: blue, size: M, at: [20, 4], facing: 180}
"""


def table(tmp_path):
    write(tmp_path, "models/test14.yaml", PARTY)
    path = write(tmp_path, "s.yaml", SCENE)
    return ["aoe", str(path), "--models-dir", str(tmp_path / "models"), "--template", "circle-s"]


def verdict(capsys, *argv):
    rc, out, err = run_cli(capsys, *argv, "--json")
    assert rc == 0, err
    d = json.loads(out)
    return d["legal"], d["reason"]


# ----------------------------------------------------------------------------- the Attack's range
def test_a_main_target_beyond_the_range_of_the_attack_that_places_the_template_is_illegal(capsys, tmp_path):
    # before: "legal" for blue-far 15.83" away, while eldfall play refuses the same Fire Rain
    # ("blue-far is out of range (15.83" > 12")")
    base = table(tmp_path)
    assert verdict(capsys, *base, "--by", "burster", "--target", "blue-near") == (True, "")
    legal, why = verdict(capsys, *base, "--by", "burster", "--target", "blue-far")
    assert not legal
    assert why == 'main target blue-far is out of reach of burster\'s Fire Rain (out of range: 15.83" is beyond 12")'
    # the text says it too, and --best (which searches the placement, not the range) as well
    rc, out, err = run_cli(capsys, *base, "--by", "burster", "--target", "blue-far", "--best")
    assert rc == 0, err
    assert out.splitlines()[0] == "circle-s on blue-far by burster: ILLEGAL", out
    assert "out of range: 15.83\" is beyond 12\"" in out.splitlines()[1]


def test_each_main_target_of_several_is_judged_for_range(capsys, tmp_path):
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--by", "burster", "--target", "blue-near", "--target", "blue-far")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].endswith(": ILLEGAL"), out
    assert "template 2 on blue-far: main target blue-far is out of reach of burster's Fire Rain" in lines[1]
    assert "template 1 on blue-near: main target" not in lines[1]
    assert any(ln.startswith("  template 1 on blue-near: legal") for ln in lines), out


def test_a_weapon_band_decides_the_range_of_a_targetless_attack_too(capsys, tmp_path):
    # the Fire Pot needs no LoS (Targetless) but still reaches only 12": blue-far is 18.74"
    # from the bomber, blue-near 8.74" (between the printed bands: the 9-12" one counts)
    base = table(tmp_path)
    assert verdict(capsys, *base, "--by", "bomber", "--target", "blue-near") == (True, "")
    legal, why = verdict(capsys, *base, "--by", "bomber", "--target", "blue-far")
    assert not legal and "bomber's Fire Pot (out of range:" in why and 'is beyond 12"' in why, why


# ----------------------------------------------------------------------------- an Attack at the ground
def test_a_template_at_the_ground_needs_a_targetless_attack(capsys, tmp_path):
    # before: "circle-s (Targetless) by burster: legal"; the rules engine: "Fire Rain has no
    # Targetless trait: only a Targetless Attack is aimed at the ground; name the target model"
    base = table(tmp_path)
    legal, why = verdict(capsys, *base, "--by", "burster", "--at", "10,6")
    assert not legal
    assert why == ("burster's Fire Rain has no Targetless trait: only a Targetless Attack is aimed at "
                   "the ground; name the main target (--target ID)")
    # a Targetless weapon may, within its range; without --by nothing is known of the attack
    assert verdict(capsys, *base, "--by", "bomber", "--at", "10,14") == (True, "")
    assert verdict(capsys, *base, "--at", "10,6") == (True, "")


def test_a_template_at_the_ground_beyond_the_attacks_range_is_illegal(capsys, tmp_path):
    # the centre (20, 16) lies 15.37" from the bomber's base edge (16 - 0.63); the Fire Pot
    # reaches 12"
    base = table(tmp_path)
    legal, why = verdict(capsys, *base, "--by", "bomber", "--at", "20,16")
    assert not legal
    assert why == 'the centre is out of reach of bomber: 15.37" from it (Fire Pot 0-12")', why
    rc, out, err = run_cli(capsys, *base, "--by", "bomber", "--at", "10,14", "--at", "20,16")
    assert rc == 0, err
    assert "template 2: the centre is out of reach of bomber" in out and "template 1: the centre" not in out


# ----------------------------------------------------------------------------- the templates file
# docs/rulings.md ("Spray template shape"): the dimensions are in engine/data/templates.yaml,
# "change them there": a file the user edits, read as a scene is
def _templates_file(tmp_path, monkeypatch, edit):
    from engine import templates as T
    text = edit(T.TEMPLATES_FILE.read_text(encoding="utf-8"))
    path = write(tmp_path, "templates.yaml", text)
    monkeypatch.setattr(T, "TEMPLATES_FILE", path)
    return path, text


def _line_of(text, needle, nth=1):
    hits = [k + 1 for k, ln in enumerate(text.splitlines()) if needle in ln]
    return hits[nth - 1]


def test_an_infinite_template_size_is_one_line_not_a_traceback(capsys, tmp_path, monkeypatch):
    # before: shapely's "ValueError: buffer distance must be finite" as a traceback
    path, text = _templates_file(tmp_path, monkeypatch, lambda t: t.replace("diameter_mm: 70", "diameter_mm: .inf"))
    rc, out, err = run_cli(capsys, *table(tmp_path), "--at", "10,6")
    assert rc == 2 and out == ""
    line = _line_of(text, "diameter_mm: .inf")
    assert err.strip() == f"{path}:{line}: circle-s.diameter_mm: must be a positive number, got inf", err


def test_a_duplicate_key_in_the_templates_file_is_refused_at_its_line(capsys, tmp_path, monkeypatch):
    # before: the second diameter won without a word (a scene or a party file refuses it)
    path, text = _templates_file(tmp_path, monkeypatch,
                                 lambda t: t.replace("  diameter_mm: 70\n", "  diameter_mm: 70\n  diameter_mm: 90\n"))
    rc, out, err = run_cli(capsys, *table(tmp_path), "--at", "10,6")
    assert rc == 2 and out == ""
    first, second = _line_of(text, "diameter_mm: 70"), _line_of(text, "diameter_mm: 90")
    assert err.strip() == f"{path}:{second}: circle-s.diameter_mm: duplicate key (first at line {first})", err


def test_a_bad_template_size_is_said_at_its_line(capsys, tmp_path, monkeypatch):
    # before: "templates.yaml: spray-l.wide_mm: must be ..." with no line
    path, text = _templates_file(tmp_path, monkeypatch, lambda t: t.replace("wide_mm: 87", "wide_mm: -87"))
    rc, out, err = run_cli(capsys, *table(tmp_path), "--at", "10,6")
    assert rc == 2 and out == ""
    line = _line_of(text, "wide_mm: -87")
    assert err.strip() == f"{path}:{line}: spray-l.wide_mm: must be a positive number, got -87"


def test_a_templates_file_without_a_book_template_is_refused(capsys, tmp_path, monkeypatch):
    # before: circle-s renamed to circle-x was still found by its name (Circular S) and printed
    # as "circle-x on ..."; deleted, a spell's circular-s template was an "unknown template"
    path, text = _templates_file(tmp_path, monkeypatch, lambda t: t.replace("circle-s:", "circle-x:"))
    rc, out, err = run_cli(capsys, *table(tmp_path), "--at", "10,6")
    assert rc == 2 and out == ""
    assert err.strip() == (f"{path}:{_line_of(text, 'circle-x:')}: circle-s: missing: a templates file keeps "
                           "the book's four (circle-s, circle-l, spray-s, spray-l)"), err


def test_a_template_larger_than_any_table_is_refused(capsys, tmp_path, monkeypatch):
    # before: taken; --best then searched a grid of centres 0.04" apart over the whole disc
    path, text = _templates_file(tmp_path, monkeypatch,
                                 lambda t: t.replace("diameter_mm: 120", "diameter_mm: 5.0e+6"))
    rc, out, err = run_cli(capsys, *table(tmp_path), "--at", "10,6")
    assert rc == 2 and out == ""
    line = _line_of(text, "diameter_mm: 5.0e+6")
    assert err.strip() == f"{path}:{line}: circle-l.diameter_mm: must be at most 1000, got 5e+06"


def test_a_book_template_of_the_wrong_kind_is_refused(capsys, tmp_path, monkeypatch):
    # circle-s and spray-s swapped: before, "--template circle-s" placed a spray
    path, text = _templates_file(tmp_path, monkeypatch, lambda t: t.replace("circle-s:", "TMP:").replace(
        "spray-s:", "circle-s:").replace("TMP:", "spray-s:"))
    rc, out, err = run_cli(capsys, *table(tmp_path), "--at", "10,6")
    assert rc == 2 and out == ""
    kinds = [k + 1 for k, ln in enumerate(text.splitlines()) if ln.strip().startswith("kind:")]
    assert err.strip().splitlines() == [
        f"{path}:{kinds[2]}: circle-s.kind: must be circle (the book's circle-s)",
        f"{path}:{kinds[0]}: spray-s.kind: must be spray (the book's spray-s)"], err


# ----------------------------------------------------------------------------- the user's states
def test_an_engaged_user_places_no_template_with_a_ranged_weapon(capsys, tmp_path):
    # before: "legal" (aoe took the template for a Spell Attack, which Engaged allows); the
    # bomber's only attack that places it is the Fire Pot, a ranged weapon: a Ranged Attack,
    # which an Engaged model may not declare (eldfall-actions.txt, "By State")
    base = table(tmp_path)
    engaged = SCENE.replace("at: [4, 16], facing: 0}", "at: [4, 16], facing: 0, states: [Engaged]}")
    write(tmp_path, "s.yaml", engaged)
    legal, why = verdict(capsys, *base, "--by", "bomber", "--target", "blue-near")
    assert not legal
    assert why.startswith("bomber cannot declare a Ranged Attack (its Fire Pot): Engaged: only Melee Attack, "
                          "Spell Attack"), why
    legal, why = verdict(capsys, *base, "--by", "bomber", "--at", "10,14")
    assert not legal and why.startswith("bomber cannot declare a Ranged Attack (its Fire Pot): Engaged"), why


def test_a_user_the_table_has_engaged_is_judged_engaged(capsys, tmp_path):
    # blue-foe stands in base contact with the bomber, facing it: the bomber is Engaged where
    # the scene stands it, as eldfall move and reach judge it; before, aoe took it for free
    base = table(tmp_path)
    write(tmp_path, "s.yaml", SCENE + "  - {id: blue-foe, side: blue, size: M, at: [5.26, 16], facing: 180}\n")
    rc, out, err = run_cli(capsys, *base, "--by", "bomber", "--target", "blue-near")
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0] == "circle-s on blue-near by bomber: ILLEGAL", out
    assert lines[1].startswith("  why: bomber cannot declare a Ranged Attack (its Fire Pot): Engaged"), out
    assert ("  note: bomber is Engaged by blue-foe (in their melee reach, with LoS, where the scene "
            "stands it) and judged so") in lines
    rc, out, err = run_cli(capsys, *base, "--by", "bomber", "--target", "blue-near", "--json")
    assert rc == 0, err
    d = json.loads(out)
    assert d["legal"] is False and d["user_engaged_by"] == ["blue-foe"]
    # the burster, engaged by no one, places its Fire Rain as before
    rc, out, err = run_cli(capsys, *base, "--by", "burster", "--target", "blue-near", "--json")
    assert json.loads(out)["user_engaged_by"] == [] and json.loads(out)["legal"] is True


# ----------------------------------------------------------------------------- scenes
def test_a_mesh_file_that_names_a_folder_says_so(capsys, tmp_path):
    # before: "'meshes': unsupported mesh format '(none)'" (and "'d.stl': not a file")
    (tmp_path / "meshes" / "d.stl").mkdir(parents=True)
    for name in ("meshes", "meshes/d.stl"):
        path = write(tmp_path, "m.yaml", "name: t\ntable: [24, 24]\nterrain:\n"
                                         f"  - {{id: s, shape: mesh, file: {name}, at: [12, 12, 0]}}\nmodels: []\n")
        rc, out, err = run_cli(capsys, "check", str(path))
        assert rc == 2 and out == ""
        assert err.strip() == (f"{path}:4: terrain[0].file: '{name}': is a folder, not a mesh file "
                               "(allowed: .stl, .obj, .ply, .glb)"), err


# ----------------------------------------------------------------------------- what blocks the centre
WALLED = """name: walled
games: [eldfall]
table: [30, 30]
terrain:
  - {id: wall, shape: box, at: [11.2, 10, 0], size: [0.3, 6, 3]}
  - {id: wood-a, shape: box, at: [10, 22, 0], size: [4, 4, 3], tags: [area, forest]}
  - {id: wood-b, shape: box, at: [14.5, 22, 0], size: [4, 4, 3], tags: [area, forest]}
models:
  - {id: tgt, side: blue, size: M, at: [9, 10], facing: 0}
  - {id: behind, side: blue, size: M, at: [12.4, 10], facing: 0}
  - {id: in-a, side: blue, size: M, at: [9, 22], facing: 0}
  - {id: in-b, side: blue, size: M, at: [13.3, 22], facing: 0}
"""


def test_a_model_the_centre_cannot_see_names_what_blocks_it(capsys, tmp_path):
    # before: "no LoS from the template's centre" and nothing more, where eldfall los names
    # the wall (or the two Forest areas) for the same line
    path = write(tmp_path, "w.yaml", WALLED)
    rc, out, err = run_cli(capsys, "aoe", str(path), "--template", "circle-l", "--target", "tgt", "--at", "10,10")
    assert rc == 0, err
    assert "    behind  no LoS from the template's centre: blocked by wall" in out.splitlines(), out
    rc, out, err = run_cli(capsys, "aoe", str(path), "--template", "circle-l", "--target", "tgt", "--at", "10,10",
                           "--json")
    miss = {m["id"]: m for m in json.loads(out)["not_affected"]}
    assert miss["behind"]["why"] == "no LoS from the template's centre"
    assert miss["behind"]["blocked"] == "blocked by wall"
    # the main target itself, seen from a centre west of the wall
    rc, out, err = run_cli(capsys, "aoe", str(path), "--template", "circle-l", "--target", "behind", "--at", "10.8,10")
    assert out.splitlines()[1] == "  why: main target behind has no LoS from the template's centre: blocked by wall"
    # no solid in the way: two Forest areas
    rc, out, err = run_cli(capsys, "aoe", str(path), "--template", "circle-l", "--at", "11.8,22")
    assert ("    in-b    no LoS from the template's centre: blocked by wood-a, wood-b (Forest areas: no LoS "
            "through 2 or more)") in out.splitlines(), out


# ----------------------------------------------------------------------------- the command line
def test_an_aim_or_centre_beyond_any_table_is_one_line(capsys, tmp_path):
    # before: --aim 1e300,1e300 was "legal", its aim printed back as a 301-digit number; a
    # centre at z -1e308 put numpy's "RuntimeWarning: overflow encountered in cast" on stderr
    base = table(tmp_path)
    for flag, text in (("--aim", "1e300,1e300"), ("--at", "10,6,-1e308")):
        extra = ["--template", "spray-s"] if flag == "--aim" else []
        rc, out, err = run_cli(capsys, *base, *extra, "--by", "burster", flag, text)
        assert rc == 2 and out == "", out
        assert err.strip() == f"<command line>: {flag}: must be within +-10000 inches, got '{text}'", err
    # a far aim point is only a direction, and is taken
    rc, out, err = run_cli(capsys, *base, "--template", "spray-s", "--by", "burster", "--aim", "9000,10")
    assert rc == 0, err


def test_an_id_with_a_letter_ids_do_not_take_names_the_letter(capsys, tmp_path):
    # before: "'ärcher' is not a valid id (letters, digits and ...)": ä is a letter to a player
    path = write(tmp_path, "u.yaml", "name: t\ntable: [24, 24]\nmodels:\n"
                                     "  - {id: ärcher, side: red, size: M, at: [4, 4], facing: 0}\n")
    rc, out, err = run_cli(capsys, "check", str(path))
    assert rc == 2 and out == ""
    assert err.strip() == (f"{path}:4: models[0].id: 'ärcher' is not a valid id ('ä' is not allowed): the "
                           "letters A-Z and a-z, digits and - _ . : +, at most 64, starting with a letter or digit")


def test_aoe_json_pins_the_party_files_too(capsys):
    # the Casting Aura, the ranges and the Targetless trait judged come from the party files
    import hashlib
    import json
    from pathlib import Path
    from cli_run import run_cli  # noqa: E402
    rc, out, err = run_cli(capsys, "aoe", "scenes/skirmish.yaml", "--template", "circle-s",
                           "--target", "blue-guard", "--json")
    assert rc == 0, err
    parties = json.loads(out)["parties"]
    assert set(parties) == {"models/sample-red.yaml", "models/sample-blue.yaml"}
    for f, sha in parties.items():
        assert sha == hashlib.sha256(Path(f).read_bytes()).hexdigest()
