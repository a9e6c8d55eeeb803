"""Review 11: area templates, checked as players disputing a blast would (numbers worked by
hand in the comments; 1" = 25.4 mm)."""
from __future__ import annotations

import pytest

from cli_run import run_cli  # noqa: E402
from engine import templates as T
from engine.errors import InputError
from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.world import World
from scene_files import write


def states_world(target_states=("Dead",)):
    """red-mage at (5, 10) facing +x; blue-t at (10, 10) in ``target_states``; blue-near
    1.5" beside it; a 4" block (x 13-17, y 18-22) far from both."""
    terrain = (TerrainSpec("block", "box", (15.0, 20.0, 0.0), size=(4.0, 4.0, 4.0)),)
    models = (ModelSpec("red-mage", "red", 32, 45, (5.0, 10.0, None)),
              ModelSpec("blue-t", "blue", 32, 45, (10.0, 10.0, None), states=tuple(target_states)),
              ModelSpec("blue-near", "blue", 32, 45, (10.0, 11.5, None)))
    return World(Scene("", (30, 30), terrain, models))


# ----------------------------------------------------------------------------- who may be the main target
def test_a_dead_main_target_makes_the_template_illegal():
    # eldfall-states.txt, Dead: "ignored for all game impacts"; the template never affects it
    # (rulings), so it cannot be the main target either. Before: "legal", affecting only
    # blue-near, with the Dead target listed as not affected.
    w = states_world()
    res = T.template(w, "circle-l", target="blue-t")
    assert not res.legal and "main target blue-t is Dead" in res.reason
    assert res.miss("blue-t") is not None and res.hit("blue-near") is not None
    spray = T.template(w, "spray-l", user="red-mage", target="blue-t")
    assert not spray.legal and "is Dead" in spray.reason


def test_the_best_placement_on_a_dead_target_searches_nothing():
    # before: the search ran, found no centre that "hits" the target and proposed one
    # hitting blue-near, with "0 cover the target fully" and no word of why
    w = states_world()
    for kind in ("circle-s", "spray-s"):
        res = T.best_placement(w, kind, user="red-mage", target="blue-t")
        assert not res.legal and "is Dead" in res.reason
        assert res.search["candidates"] == 0 and "Dead" in res.search["note"]


SHROUDED = """name: shrouded
games: [eldfall]
table: [30, 30]
models:
  - {id: red-mage, side: red, size: M, at: [5, 10], facing: 0}
  - {id: blue-t, side: blue, size: M, at: [10, 10], facing: 180, states: [%s]}
  - {id: blue-near, side: blue, size: M, at: [10, 11.5], facing: 180}
"""


@pytest.mark.parametrize("state,why", [
    ("Shrouded", "cannot be targeted: a Shrouded model cannot be targeted by Actions other than Perceive"),
    ("Dead", "main target blue-t is Dead"),
])
def test_aoe_refuses_a_main_target_no_attack_may_target(capsys, tmp_path, state, why):
    # eldfall-states.txt, Shrouded: "Cannot be targeted by any Action other than Perceive".
    # Before: "legal" for both (only the side, LoS and Casting Aura were checked)
    scene = write(tmp_path, "s.yaml", SHROUDED % state)
    for tmpl in (["circle-l"], ["spray-l"]):
        rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", *tmpl, "--target", "blue-t",
                             "--by", "red-mage")
        assert rc == 0 and "ILLEGAL" in out.splitlines()[0] and why in out, out
        assert out.count("is Dead") <= 1                 # said once, not twice


def test_a_shrouded_model_caught_in_the_blast_is_still_affected(capsys, tmp_path):
    # only targeting is barred: blue-near as the main target, the Shrouded blue-t 1.5" away is hit
    scene = write(tmp_path, "s.yaml", SHROUDED % "Shrouded")
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-near",
                         "--by", "red-mage", "--json")
    import json
    res = json.loads(out)
    assert rc == 0 and res["legal"], res["reason"]
    assert {h["id"] for h in res["affected"]} == {"blue-t", "blue-near"}


# ----------------------------------------------------------------------------- --at X,Y,Z
def test_a_targetless_circle_given_a_z_far_above_the_scenery_lies_on_its_top():
    # "at or below Z": from z 1e30 the highest surface under (15, 20) is the block's top, 4".
    # Before: the ray caster started at z 1e30 in float32 and found nothing: "no surface at
    # or below z=1e+30"
    w = states_world(())
    for z in (1e30, 1e6, 100.0, 4.0):
        pl = T.place_circle(w, "circle-s", at=(15.0, 20.0, z))
        assert pl.surface == pytest.approx(4.0) and pl.band == pytest.approx((1.0, 7.0)), z
    with pytest.raises(InputError, match="no surface at or below"):
        T.place_circle(w, "circle-s", at=(15.0, 20.0, -1.0))


@pytest.mark.parametrize("tmpl", [["circle-l", "--target", "blue-t"], ["spray-l", "--aim", "10,10"]])
@pytest.mark.parametrize("state,why", [
    ("Incapacitated", "the model cannot move or act in its states Crouched, Incapacitated"),
    ("Blinded", "Blinded: only Assist, Dodge, Nothing may be declared"),
    ("Immobilized", "Immobilized: only Dodge, Nothing may be declared"),
])
def test_a_user_whose_state_forbids_attacks_cannot_place_a_template(capsys, tmp_path, tmpl, state, why):
    # eldfall-actions.txt, "By State": Incapacitated (no Actions), Blinded ("Attack (no LoS)"
    # forbidden), Immobilized ("Dodge, Nothing" only). Before: "legal" (a Blinded caster's
    # circle inside its Casting Aura, and every Targetless spray)
    text = (SHROUDED % "").replace("facing: 0}", f"facing: 0, states: [{state}]}}")
    scene = write(tmp_path, "s.yaml", text)
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", *tmpl, "--by", "red-mage")
    assert rc == 0 and "ILLEGAL" in out.splitlines()[0], out
    assert f"red-mage cannot declare an Attack: {why}" in out
    # standing, the same template is legal (the test is the state, not the placement)
    scene = write(tmp_path, "s.yaml", SHROUDED % "")
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", *tmpl, "--by", "red-mage")
    assert rc == 0 and out.splitlines()[0].endswith(": legal"), out


def test_the_spray_search_says_when_only_the_back_arc_would_cover_the_target():
    # red-mage faces +x (0 deg); blue-t stands 5" behind it. Sprays toward it (180 deg)
    # cover it fully but point into the back arc. Before, the search's note said "no
    # placement covers the main target fully", which a player measuring it sees is wrong
    behind = World(Scene("", (30, 30), (), (ModelSpec("red-mage", "red", 32, 45, (10.0, 10.0, None)),
                                             ModelSpec("blue-t", "blue", 32, 45, (5.0, 10.0, None)))))
    res = T.best_placement(behind, "spray-s", user="red-mage", target="blue-t")
    assert not res.legal and "back arc" in res.reason
    assert res.search["note"] == ("only sprays pointing into red-mage's back arc cover the main "
                                  "target fully (facing 0.0 deg)")
    # with the rule off the search finds sprays toward it (then the user's own LoS, which
    # keeps its arcs, says no: the reason is LoS, not coverage)
    free = T.best_placement(behind, "spray-s", user="red-mage", target="blue-t",
                            settings=T.TemplateSettings(front_arc=False))
    assert free.search["feasible"] > 0 and free.hit("blue-t") is None
    # out of reach ahead (15"): the note stays "no placement covers the main target fully"
    ahead = World(Scene("", (30, 30), (), (ModelSpec("red-mage", "red", 32, 45, (5.0, 10.0, None)),
                                            ModelSpec("blue-t", "blue", 32, 45, (20.0, 10.0, None)))))
    far = T.best_placement(ahead, "spray-s", user="red-mage", target="blue-t")
    assert far.search["note"] == "no placement covers the main target fully"


def test_an_engaged_user_may_still_place_a_spell_template(capsys, tmp_path):
    # Engaged forbids Ranged Attacks, not Spell Attacks (the rules engine's table): `aoe`
    # cannot tell a spell from a weapon, so it does not refuse
    text = (SHROUDED % "").replace("facing: 0}", "facing: 0, states: [Engaged]}")
    scene = write(tmp_path, "s.yaml", text)
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-t",
                         "--by", "red-mage")
    assert rc == 0 and out.splitlines()[0].endswith(": legal"), out


def test_a_crouched_user_places_one_template_only(capsys, tmp_path):
    # eldfall-actions.txt, "By State": "Crouched || All (STK capped at 1)"; one template per
    # Strike (facts: "With STK > 1 the attacker places that many templates"). Before: two
    # templates from a Crouched caster were "legal"
    text = (SHROUDED % "").replace("facing: 0}", "facing: 0, states: [Crouched]}")
    scene = write(tmp_path, "s.yaml", text)
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-t",
                         "--by", "red-mage", "--count", "2")
    assert rc == 0 and "ILLEGAL" in out.splitlines()[0], out
    assert ("red-mage strikes at most 1 time (Crouched: STK capped at 1), so it places at most "
            "1 template, not 2") in out
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-t",
                         "--by", "red-mage")
    assert rc == 0 and out.splitlines()[0].endswith(": legal"), out
    # standing, two templates are fine
    scene = write(tmp_path, "s.yaml", SHROUDED % "")
    rc, out, _ = run_cli(capsys, "aoe", str(scene), "--template", "circle-l", "--target", "blue-t",
                         "--by", "red-mage", "--count", "2")
    assert rc == 0 and out.splitlines()[0].endswith(": legal"), out
