"""Eldfall ranged attacks on the real engine: cover comes from the World's geometry.

The FlatGeometry used by most rules tests decides cover on its own; this test
makes sure the game asks the engine in a way that gets cover decided too.
"""
from engine.geometry import WorldGeometry
from engine.scene import ModelSpec, Scene, TerrainSpec
from engine.world import World
from tests.eldfall_scenario import BASE_STATS, low_wall_shot


def _game(wall_height):
    return low_wall_shot(wall_height).data


def test_low_wall_within_an_inch_gives_light_cover_in_a_real_attack():
    # a 1" wall, lower than the Medium hitbox (1.77"), 0.37" from the target's base
    a = _game(1.0)
    assert a["modifiers"] == {"cover": -2, "range": -3}


def test_no_cover_in_open_ground():
    a = _game(0.01)   # a wall lower than the base: no cover
    assert "cover" not in a["modifiers"]


def _geo(wall_height, target_x=10.0):
    scene = Scene("", (36, 36),
                  terrain=(TerrainSpec("low-wall", "box", (10, 19.25, 0), size=(4, 0.5, wall_height)),),
                  models=(ModelSpec("r1", "red", 32, 45, (10, 5, None), facing=90, stats=dict(BASE_STATS)),
                          ModelSpec("b1", "blue", 32, 45, (target_x, 20.5, None), facing=270,
                                    stats=dict(BASE_STATS))))
    return WorldGeometry(World(scene))


def test_the_bots_estimate_matches_the_ruling_on_clear_cases():
    # behind a low wall: partly hidden, Light; in the open: seen, none; behind a
    # tall wall: hidden. The coarse lattice guesses these as the ruling decides them.
    for h, x, los, cover in ((1.0, 10.0, True, "light"), (0.01, 10.0, True, "none"),
                             (4.0, 10.0, False, "none"), (1.0, 20.0, True, "none")):
        est = _geo(h, x).sight_estimate("r1", "b1", moving=True)
        ruling = _geo(h, x).sight("r1", "b1", moving=True, fraction=True)
        assert (est.los, est.cover) == (ruling.los, ruling.cover) == (los, cover), (h, x)


def test_the_estimate_takes_a_known_ruling_and_is_never_one():
    geo = _geo(1.0)
    est = geo.sight_estimate("r1", "b1")
    ruling = geo.sight("r1", "b1", fraction=True)
    # different lattices: the shares differ (the estimate never fills the ruling's cache)
    assert est.visible_fraction != ruling.visible_fraction
    assert geo.sight_estimate("r1", "b1") is ruling      # known now: the estimate gives the ruling
