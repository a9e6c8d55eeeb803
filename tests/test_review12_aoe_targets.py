"""Review 12: one `eldfall aoe` for a template attack whose Strikes (STK > 1) are shared
between several main targets (eldfall-actions-attack-section.txt, Attack, In Active Role:
"May distribute Strikes among multiple targets (up to STK value)"; facts, Templates (AoE):
"With STK > 1 the attacker places that many templates", "A model under several templates
suffers each"). Before: `--target` took one id (a second replaced the first), so each
target needed its own run and nobody added the runs up.

The table (1" = 25.4 mm; Circular S radius 35 mm = 1.378", M base radius 0.63"):
red-mage at (4, 10) facing +x; blue-a (12, 10) and blue-b (12, 12.2) are the main
targets; blue-c (13.3, 11.1) is 1.70" from each, so its base (1.70 - 0.63 = 1.07" from
each centre) is under both circles; red-pal (12, 13.6) is 1.4" from blue-b only; blue-far
(24, 4) is behind a 4" wall (x 19.75-20.25, y 1-7), 20.9" from the mage: no LoS, outside
its Casting Aura.
"""
from __future__ import annotations

import json
import re

import pytest

from cli_run import run_cli  # noqa: E402
from scene_files import burster_models, write

SCENE = """name: several
games: [eldfall]
table: [30, 30]
terrain:
  - {id: wall, shape: box, at: [20, 4, 0], size: [0.5, 6, 4]}
models:
  - {id: red-mage, side: red, %s, at: [4, 10], facing: 0%s}
  - {id: red-pal, side: red, size: M, at: [12, 13.6], facing: 0}
  - {id: blue-a, side: blue, size: M, at: [12, 10], facing: 180}
  - {id: blue-b, side: blue, size: M, at: [12, 12.2], facing: 180}
  - {id: blue-c, side: blue, size: M, at: [13.3, 11.1], facing: 180}
  - {id: blue-far, side: blue, size: M, at: [24, 4], facing: 180}
"""


def table(tmp_path, stk=2, profile=True, states=""):
    """The scene and the models folder, as the arguments that start `eldfall aoe`."""
    burster_models(tmp_path, stk, gust=True)
    who = "profile: test-party#burster" if profile else "size: M"
    scene = write(tmp_path, "s.yaml", SCENE % (who, f", states: [{states}]" if states else ""))
    return ["aoe", str(scene), "--models-dir", str(tmp_path / "models")]


def aoe(capsys, base, *argv):
    rc, out, err = run_cli(capsys, *base, *argv)
    assert rc == 0, err
    return out


def aoe_json(capsys, base, *argv):
    return json.loads(aoe(capsys, base, *argv, "--json"))


def targets(*ids):
    return [a for t in ids for a in ("--target", t)]


# ----------------------------------------------------------------------------- one run, several templates
def test_two_main_targets_are_judged_in_one_run_and_add_up_as_the_single_runs(capsys, tmp_path):
    base = table(tmp_path)
    both = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-b"))
    one = [aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", "--target", t)
           for t in ("blue-a", "blue-b")]
    assert both["targets"] == ["blue-a", "blue-b"] and both["count"] == 2
    assert both["legal"] and both["reason"] == ""
    for k, single in enumerate(one):
        tk = both["templates"][k]
        # template k is the single run on target k: the same placement, verdict and models hit
        assert tk["target"] == single["target"] and tk["legal"] == single["legal"]
        assert tk["placement"] == single["placements"][0]
        assert sorted(tk["affected"]) == sorted(h["id"] for h in single["affected"])
    # a model under k templates is listed once with count k, and says which
    counts = {}
    for single in one:
        for h in single["affected"]:
            counts[h["id"]] = counts.get(h["id"], 0) + 1
    assert {h["id"]: h["count"] for h in both["affected"]} == counts
    assert counts["blue-c"] == 2                       # the model between the two targets
    c = next(h for h in both["affected"] if h["id"] == "blue-c")
    assert c["templates"] == [0, 1]
    # the outlines, one per template
    assert len(both["outlines"]) == 2 and len(both["placements"]) == 2


def test_the_text_gives_each_templates_verdict_and_the_combined_list(capsys, tmp_path):
    base = table(tmp_path)
    out = aoe(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-b"))
    lines = out.splitlines()
    assert lines[0] == "circle-s on blue-a, blue-b by red-mage, 2 templates (STK 2: Fire Rain): legal"
    assert lines[1].startswith("  template 1 on blue-a: legal; centre (12.00, 10.00) on the surface")
    assert lines[2].startswith("  template 2 on blue-b: legal; centre (12.00, 12.20) on the surface")
    row = {ln.split()[0]: ln for ln in lines if re.match(r"\s{4}\S+\s+(full|partial|touching)\s", ln)}
    assert row["blue-c"].rstrip().endswith("x2  enemy  templates 1, 2"), row
    assert row["red-pal"].rstrip().endswith("x1  ally   template 2"), row
    assert "affected (4: 3 enemies, 1 ally):" in out
    assert lines[-1].startswith("  scene sha256: ")


def test_a_template_on_a_target_no_attack_may_take_is_illegal_and_says_which(capsys, tmp_path):
    base = table(tmp_path)
    d = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-far"))
    single = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", "--target", "blue-far")
    assert not single["legal"] and "no LoS" in single["reason"]
    assert not d["legal"]
    assert d["templates"][0]["legal"] and not d["templates"][1]["legal"]
    assert d["templates"][1]["reason"] == single["reason"]
    assert d["reason"] == f"template 2 on blue-far: {single['reason']}"
    out = aoe(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-far"))
    assert out.splitlines()[0].endswith(": ILLEGAL")
    assert "  template 1 on blue-a: legal;" in out and "  template 2 on blue-far: ILLEGAL;" in out


def test_a_target_named_twice_gets_two_templates(capsys, tmp_path):
    base = table(tmp_path)
    twice = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-a"))
    counted = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", "--target", "blue-a",
                       "--count", "2")
    assert twice["legal"] and twice["count"] == 2
    assert [(h["id"], h["count"]) for h in twice["affected"]] == \
        [(h["id"], h["count"]) for h in counted["affected"]]


# ----------------------------------------------------------------------------- STK and the user's states
def test_no_more_templates_than_the_users_stk(capsys, tmp_path):
    base = table(tmp_path, stk=2)
    argv = ("--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-b", "blue-c"))
    d = aoe_json(capsys, base, *argv)
    assert not d["legal"] and all(t["legal"] for t in d["templates"])     # each is fine on its own
    assert d["reason"] == ("red-mage's Fire Rain has STK 2: one template per Strike, so it places at "
                           "most 2 templates, not 3")
    assert d["stk"] == {"attack": "Fire Rain", "stk": 2}
    assert aoe(capsys, base, *argv).splitlines()[1] == f"  why: {d['reason']}"
    # STK 3: the same three templates are legal
    assert aoe_json(capsys, table(tmp_path, stk=3), *argv)["legal"]
    # the spray's STK is its own attack's (Gust, STK 3), not the circle's
    spray = aoe_json(capsys, table(tmp_path, stk=1), "--template", "spray-s", "--by", "red-mage",
                     *targets("blue-a", "blue-a", "blue-a"))
    assert spray["stk"] == {"attack": "Gust", "stk": 3} and "STK" not in spray["reason"]
    # no profile: the STK is not known, only the 20 templates an attack may place bound it
    plain = aoe_json(capsys, table(tmp_path, profile=False), *argv)
    assert plain["legal"] and "stk" not in plain


def test_a_crouched_user_places_one_template_whatever_its_targets(capsys, tmp_path):
    base = table(tmp_path, stk=2, states="Crouched")
    d = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-b"))
    assert not d["legal"]
    assert "red-mage strikes at most 1 time (Crouched: STK capped at 1), so it places at most " \
           "1 template, not 2" in d["reason"]


# ----------------------------------------------------------------------------- --at, --aim, --band, --best
def test_at_is_given_once_per_template_in_the_order_of_the_targets(capsys, tmp_path):
    base = table(tmp_path)
    d = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-b"),
                 "--at", "12.3,10.2", "--at", "12.1,12.5")
    assert [t["placement"]["at"] for t in d["templates"]] == [[12.3, 10.2], [12.1, 12.5]]
    for t, at in zip(d["templates"], ("12.3,10.2", "12.1,12.5")):
        single = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", "--target", t["target"],
                          "--at", at)
        assert t["legal"] == single["legal"] and t["reason"] == single["reason"]
    # swapped: each circle must cover its own target, so both fail
    d = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-b", "blue-a"),
                 "--at", "12.3,10.2", "--at", "12.1,12.5")
    assert not d["templates"][0]["legal"] and not d["templates"][1]["legal"]
    assert "template 1 on blue-b: main target blue-b is not fully covered" in d["reason"]


def test_aim_and_band_once_per_spray(capsys, tmp_path):
    base = table(tmp_path)
    d = aoe_json(capsys, base, "--template", "spray-s", "--by", "red-mage", *targets("blue-a", "blue-b"),
                 "--aim", "13,10", "--aim", "13,12.4", "--band", "up", "--band", "down")
    assert [t["placement"]["band_choice"] for t in d["templates"]] == ["up", "down"]
    assert [t["placement"]["aim"] for t in d["templates"]] == [[13.0, 10.0], [13.0, 12.4]]
    # one --band is every template's
    d = aoe_json(capsys, base, "--template", "spray-s", "--by", "red-mage", *targets("blue-a", "blue-b"),
                 "--band", "down")
    assert [t["placement"]["band_choice"] for t in d["templates"]] == ["down", "down"]


def test_best_places_each_template_for_its_own_target_and_the_text_gives_it_back(capsys, tmp_path):
    base = table(tmp_path)
    argv = ("--template", "circle-s", "--by", "red-mage")
    d = aoe_json(capsys, base, *argv, *targets("blue-a", "blue-b"), "--best")
    for t in d["templates"]:
        single = aoe_json(capsys, base, *argv, "--target", t["target"], "--best")
        assert t["placement"] == single["placements"][0] and t["legal"] == single["legal"]
        assert t["search"]["candidates"] == single["search"]["candidates"]
    # the centres the text prints, given back with --at in order, get the same verdict
    out = aoe(capsys, base, *argv, *targets("blue-a", "blue-b"), "--best")
    centres = re.findall(r"template \d on \S+: \w+; centre \(([\d.]+), ([\d.]+)\)", out)
    assert len(centres) == 2 and "    search: " in out
    again = aoe_json(capsys, base, *argv, *targets("blue-a", "blue-b"),
                     *[a for x, y in centres for a in ("--at", f"{x},{y}")])
    assert again["legal"] == d["legal"]
    assert [(h["id"], h["count"], h["templates"]) for h in again["affected"]] == \
        [(h["id"], h["count"], h["templates"]) for h in d["affected"]]


def test_count_equal_to_the_targets_changes_nothing(capsys, tmp_path):
    base = table(tmp_path)
    argv = ("--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-b"))
    assert aoe(capsys, base, *argv, "--count", "2") == aoe(capsys, base, *argv)


# ----------------------------------------------------------------------------- contradictions: refused
@pytest.mark.parametrize("extra, lines", [
    (["--count", "3"], ["--target: 2 main targets place 2 templates (one each), but --count is 3"]),
    (["--at", "12,10"], ["--target: 2 main targets place 2 templates (one each), but --at is given 1 time"]),
    (["--at", "12,10", "--at", "12,12", "--at", "1,1"], ["but --at is given 3 times"]),
    (["--best", "--at", "12,10", "--at", "12,12"], ["--best: searches the placement itself"]),
    (["--count", "1", "--at", "12,10"], ["but --count is 1", "but --at is given 1 time"]),
    (["--target", "nobody"], ["--target: unknown model 'nobody'"]),
    (["--aim", "1,1", "--band", "up"], ["--aim: a circle has no aim", "--band: a circle's band is fixed"]),
])
def test_contradictory_combinations_are_one_line_each_and_write_nothing(capsys, tmp_path, extra, lines):
    base = table(tmp_path)
    pic = tmp_path / "pic"
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", "--by", "red-mage",
                           *targets("blue-a", "blue-b"), *extra, "--picture", str(pic))
    assert rc == 2 and out == "", out
    got = err.strip().splitlines()
    assert len(got) == len(lines), err
    for ln, want in zip(got, lines):
        assert ln.startswith("<command line>: ") and want in ln, (ln, want)
    assert not (pic / "aoe.png").exists()


@pytest.mark.parametrize("extra, want", [
    (["--aim", "13,10"], "--target: 2 main targets place 2 templates (one each), but --aim is given 1 time"),
    (["--band", "up", "--band", "down", "--band", "up"], "but --band is given 3 times"),
    (["--target", "red-mage"], "--target: red-mage cannot be the main target of its own spray"),
])
def test_spray_contradictions_are_refused(capsys, tmp_path, extra, want):
    base = table(tmp_path)
    rc, out, err = run_cli(capsys, *base, "--template", "spray-s", "--by", "red-mage",
                           *targets("blue-a", "blue-b"), *extra)
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1 and want in err, err


def test_more_main_targets_than_any_stk_is_refused(capsys, tmp_path):
    base = table(tmp_path, profile=False)
    rc, out, err = run_cli(capsys, *base, "--template", "circle-s", *targets(*["blue-a"] * 21))
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--target: 21 main targets named" in err and "at most 20 templates" in err


# ----------------------------------------------------------------------------- the picture
def test_the_picture_shows_every_template_with_the_texts_verdict(capsys, tmp_path, monkeypatch):
    from engine.view import pictures as P
    seen = []

    def fake(world, result, out_dir, name="aoe.png", *, caption=None, frame=()):
        seen.append((result, caption, list(frame)))
        return str(tmp_path / name)
    monkeypatch.setattr(P, "aoe_picture", fake)
    base = table(tmp_path)
    out = aoe(capsys, base, "--template", "circle-s", "--by", "red-mage", *targets("blue-a", "blue-far"),
              "--picture", str(tmp_path / "pic"))
    (res, caption, frame), = seen
    text = out.splitlines()
    assert caption.startswith("\n".join(text[:4]) + "\n"), caption    # verdict, why, both templates
    assert len(res.outlines) == 2 and not res.legal
    assert "blue-c 16.1% x1 enemy (template 1)" in caption and "blue-far full x1 enemy (template 2)" in caption
    assert {"blue-a", "blue-far"} <= set(frame)                        # both main targets framed


def test_a_model_outside_every_template_is_measured_to_the_nearest_one(capsys, tmp_path):
    # blue-far (24, 4) is 13.42" from blue-a's centre and 14.53" from blue-b's: the reason
    # names every template and the nearest edge (13.42 - 1.378 - 0.63), not "the template"
    base = table(tmp_path)
    out = aoe(capsys, base, "--template", "circle-s", *targets("blue-a", "blue-b"))
    line = next(ln for ln in out.splitlines() if ln.strip().startswith("blue-far"))
    assert "outside every template (11.41\" from the nearest one's edge)" in line, line
    one = aoe(capsys, base, "--template", "circle-s", "--target", "blue-a")
    assert "blue-far" in one and "outside the template (11.41\" from its edge)" in one


def test_count_over_the_users_stk_on_one_target_is_illegal_too(capsys, tmp_path):
    # `--count 3` on one main target places three templates as three targets would: the
    # same STK bound, the same reason
    base = table(tmp_path, stk=2)
    d = aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", "--target", "blue-a",
                 "--count", "3")
    assert not d["legal"]
    assert d["reason"] == ("red-mage's Fire Rain has STK 2: one template per Strike, so it places at "
                           "most 2 templates, not 3")
    assert aoe_json(capsys, base, "--template", "circle-s", "--by", "red-mage", "--target", "blue-a",
                    "--count", "2")["legal"]
    assert aoe_json(capsys, table(tmp_path, profile=False), "--template", "circle-s", "--by", "red-mage",
                    "--target", "blue-a", "--count", "3")["legal"]
