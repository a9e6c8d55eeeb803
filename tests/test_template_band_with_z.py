"""A circle on a main target with a centre's z given (``--at X,Y,Z``; the rules engine's
``place=``): the z picks the surface the card lies on, and the height band stays 3" above and
below the target's surface (eldfall-facts.md, Templates), as with no z."""
import pytest

from engine import templates as T
from engine.errors import InputError
from tests.test_review10_templates import crate_world


def test_a_z_on_the_crate_top_keeps_the_band_about_the_target():
    w = crate_world()
    with_z = T.place_circle(w, "circle-l", target="blue-t", at=(11.5, 10.0, 1.0))
    without = T.place_circle(w, "circle-l", target="blue-t", at=(11.5, 10.0))
    assert with_z.band == without.band == (-3.0, 3.0)
    assert with_z.surface == without.surface == 0.0
    assert with_z.centre_z == pytest.approx(1.0) and with_z.origin == pytest.approx(without.origin)


def test_a_z_below_the_target_lays_the_card_below_with_the_targets_band():
    """blue-top stands on the crate (z 1); a centre beside it given z 0 lies on the table."""
    from engine.scene import ModelSpec, Scene
    from engine.world import World
    base = crate_world()
    w = World(Scene("", (30, 30), base.scene.terrain,
                    base.scene.models + (ModelSpec("blue-top", "blue", 32, 45, (12.0, 10.0, None)),)))
    pl = T.place_circle(w, "circle-l", target="blue-top", at=(13.5, 10.0, 0.0))
    assert pl.surface == pytest.approx(1.0) and pl.band == pytest.approx((-2.0, 4.0))
    assert pl.centre_z == pytest.approx(0.0) and pl.origin[2] == pytest.approx(T.TemplateSettings().lift())


def test_a_z_above_the_band_is_refused():
    """The 6" wall's top is above blue-wall's band (z 3): no template lies there."""
    w = crate_world()
    with pytest.raises(InputError, match="above the template's height band"):
        T.place_circle(w, "circle-l", target="blue-wall", at=(22.0, 10.0, 6.0))
