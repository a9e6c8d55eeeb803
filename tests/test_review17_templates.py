"""Review 17: where a circle's card lies over scenery beside its main target, a setting
(``TemplateSettings.circle_card``, ``eldfall aoe --set circle_card=rest|hold``): resting on the
scenery's top (the default) or held flat at the target's level. Numbers worked by hand in the
comments (1" = 25.4 mm; a Circular L has radius 2.3622", an M base 0.6299", an S base 0.4921")."""
from __future__ import annotations

import json

import pytest

from cli_run import run_cli  # noqa: E402
from engine import templates as T
from engine.errors import InputError
from scene_files import world_of, write  # noqa: E402

# blue-t on the table beside a 1.5" crate (x 11-13, y 9-11): taller than the lift, lower than
# the band's top (3"). blue-far stands behind the crate on the table (its base from x 13.02),
# blue-top on the crate (z 1.5). From a card on the table the crate hides blue-far.
CRATE = """table: [30, 30]
terrain:
  - {id: crate, shape: box, at: [12, 10, 0], size: [2, 2, 1.5]}
models:
  - {id: red-mage, side: red, size: M, at: [4, 16], facing: 0}
  - {id: blue-t, side: blue, size: M, at: [10, 10], facing: 180}
  - {id: blue-far, side: blue, size: M, at: [13.65, 10], facing: 180}
  - {id: blue-top, side: blue, size: S, at: [12, 10.5], facing: 180}
"""
REST, HOLD = T.TemplateSettings(), T.TemplateSettings(circle_card="hold")
LIFT = REST.lift()                      # 0.04", the sight settings' template_centre_raise_in


@pytest.fixture
def crate(tmp_path):
    return world_of(tmp_path, CRATE)


def _hit(res) -> set[str]:
    return {h.id for h in res.affected}


def test_a_centre_over_the_crate_rests_on_its_top_or_is_refused_when_held(crate):
    assert crate.hitbox("blue-top").z == pytest.approx(1.5)
    # (11.2, 10): 1.2" from blue-t, inside the 1.7323" (2.3622 - 0.6299) that keeps it fully
    # covered, and over the crate. Resting, the card lies on the crate's top: LoS from z 1.54,
    # which sees blue-t, blue-top on the crate and blue-far behind it (its edge 1.82" from the
    # centre, under the 2.36" radius); the band stays about blue-t's base: z -3 to 3
    rest = T.template(crate, "circle-l", user="red-mage", target="blue-t", at=(11.2, 10.0), settings=REST)
    assert rest.legal, rest.reason
    assert _hit(rest) == {"blue-t", "blue-far", "blue-top"}
    assert rest.origin == pytest.approx((11.2, 10.0, 1.5 + LIFT))
    assert rest.placements[0].band == (-3.0, 3.0) and rest.placements[0].centre_z == pytest.approx(1.5)
    # held at blue-t's level (z 0) the centre would be 0.04" up inside the crate: no card lies there
    with pytest.raises(InputError, match=r"\(11.2, 10\) is inside crate at the target's level \(z 0.00\)"):
        T.template(crate, "circle-l", user="red-mage", target="blue-t", at=(11.2, 10.0), settings=HOLD)
    # on blue-t's centre, off the crate, both settings lay the same card on the table: LoS from
    # z 0.04, which the crate hides blue-far from; blue-top (z 1.5 to 2.67, in the band) is
    # seen over the crate's near edge (1" away: the line to its base edge, x 11.51 z 2.67,
    # passes x 11 at z 1.78, over the 1.5" top)
    for s in (REST, HOLD):
        res = T.template(crate, "circle-l", user="red-mage", target="blue-t", settings=s)
        assert res.legal and _hit(res) == {"blue-t", "blue-top"}, s.circle_card
        assert res.origin == pytest.approx((10.0, 10.0, LIFT)) and res.placements[0].band == (-3.0, 3.0)
        assert res.placements[0].centre_z is None


def test_the_best_circle_under_each_setting(crate):
    # resting, only centres over the crate reach blue-far with LoS; held, none of those lies
    rest = T.best_placement(crate, "circle-l", user="red-mage", target="blue-t", settings=REST)
    assert rest.legal and _hit(rest) == {"blue-t", "blue-far", "blue-top"}
    assert rest.placements[0].centre[0] >= 11.0 and rest.origin[2] == pytest.approx(1.5 + LIFT)
    hold = T.best_placement(crate, "circle-l", user="red-mage", target="blue-t", settings=HOLD)
    assert hold.legal and _hit(hold) == {"blue-t", "blue-top"}
    assert hold.placements[0].centre[0] < 11.0 and hold.origin[2] == pytest.approx(LIFT)
    assert hold.placements[0].band == (-3.0, 3.0)
    # the centre it proposes, asked again under the same setting: the same verdict
    c = hold.placements[0].centre
    again = T.template(crate, "circle-l", user="red-mage", target="blue-t", at=c, settings=HOLD)
    assert again.legal and _hit(again) == _hit(hold)


def test_a_held_card_stays_at_the_target_level_whatever_z_is_given(crate):
    # the rules engine lays a template at place=x,y,z: resting, a z on the crate's top lays the
    # card there (the band stays about blue-t's surface); held, the card is at blue-t's level
    on_top = T.place_circle(crate, "circle-l", target="blue-t", at=(11.2, 10.0, 1.5), settings=REST)
    assert on_top.centre_z == pytest.approx(1.5) and on_top.band == (-3.0, 3.0)
    with pytest.raises(InputError, match="inside crate at the target's level"):
        T.place_circle(crate, "circle-l", target="blue-t", at=(11.2, 10.0, 1.5), settings=HOLD)
    held = T.place_circle(crate, "circle-l", target="blue-t", at=(10.5, 10.0, 1.5), settings=HOLD)
    assert held.surface == 0.0 and held.band == (-3.0, 3.0) and held.origin[2] == pytest.approx(LIFT)


def test_a_held_card_beside_a_slope_stays_level(tmp_path):
    # blue-s on a ramp rising 0.25" an inch along +x (z 1 at x 14). Resting, a centre 1.5" up
    # the slope lies on it at z 1.375; held, that point (z 1.04) is 0.335" inside the ramp;
    # 1.5" down the slope the card is held at z 1, over the drop, either way
    w = world_of(tmp_path, "table: [30, 30]\nterrain:\n"
                           "  - {id: ramp, shape: wedge, at: [15, 22, 0], size: [10, 6, 2.5]}\n"
                           "models:\n  - {id: blue-s, side: blue, size: M, at: [14, 22], facing: 0}\n")
    assert w.hitbox("blue-s").z == pytest.approx(1.0)
    up = T.place_circle(w, "circle-l", target="blue-s", at=(15.5, 22.0), settings=REST)
    assert up.origin[2] == pytest.approx(1.375 + LIFT, abs=1e-6)
    with pytest.raises(InputError, match="inside ramp at the target's level"):
        T.place_circle(w, "circle-l", target="blue-s", at=(15.5, 22.0), settings=HOLD)
    down = T.place_circle(w, "circle-l", target="blue-s", at=(12.5, 22.0), settings=HOLD)
    assert down.origin[2] == pytest.approx(1.0 + LIFT) and down.band == pytest.approx((-2.0, 4.0))


def test_aoe_takes_the_setting_and_its_json_carries_it(capsys, tmp_path):
    scene = str(write(tmp_path, "crate.yaml", CRATE))
    base = ("aoe", scene, "--template", "circle-l", "--target", "blue-t", "--by", "red-mage")
    rc, out, err = run_cli(capsys, *base, "--at", "11.2,10")
    assert rc == 0 and "(the card lies on the scenery there, at z 1.50)" in out and "settings:" not in out
    rc, out, err = run_cli(capsys, *base, "--at", "11.2,10", "--set", "circle_card=hold")
    assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "--at: (11.2, 10) is inside crate at the target's level (z 0.00)" in err
    rc, out, err = run_cli(capsys, *base, "--best", "--set", "circle_card=hold")
    assert rc == 0 and "  settings: circle_card=hold\n" in out
    assert "blue-far  outside the template" in out and "LoS from (10.00, 10.00, 0.04)" in out
    # (1e-2: YAML 1.1 reads it as text; taken as a number, as a scene takes it)
    for given, want in ((("--set", "circle_card=hold", "--set", "band_test=base", "--set", "centre_lift=1e-2"),
                         ("hold", "base", 0.01)),
                        ((), ("rest", "hitbox", LIFT))):
        rc, out, err = run_cli(capsys, *base, "--json", *given)
        d = json.loads(out)["settings"]
        assert rc == 0 and (d["circle_card"], d["band_test"], d["centre_lift"]) == want


def test_a_bad_template_setting_is_one_line_each(capsys, tmp_path):
    scene = str(write(tmp_path, "crate.yaml", CRATE))
    rc, out, err = run_cli(capsys, "aoe", scene, "--template", "circle-l", "--target", "blue-t",
                           "--set", "circle_card=held", "--set", "centre_lift=0", "--set", "colour=red",
                           "--set", "models_block=2")
    assert rc == 2 and out == ""
    assert err.strip().splitlines() == [
        "<command line>: --set circle_card: must be one of rest, hold, not 'held'",
        "<command line>: --set centre_lift: must be a number of inches above 0 and at most 100, not 0",
        "<command line>: --set colour: unknown template setting; known: circle_card, band_test, "
        "models_block, front_arc, centre_lift",
        "<command line>: --set models_block: must be true or false, not 2"]
