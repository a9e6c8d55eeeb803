"""Difficult ground slows a model once: the geometry charges two per inch in the area, and
the game's SPD for a movement is not halved again for the area it stands in. A SPD 5 model
starting in mud walks 2.5" through it in a game, as `eldfall move` says (it walked 1.5")."""
from __future__ import annotations

from eldfall_scenario import BASE_STATS, engine_game


def mud_game():
    from engine.scene import TerrainSpec
    return engine_game({"r1": ("red", 4, 18, 0), "b1": ("blue", 32, 30, 180)},
                       [TerrainSpec("mud", "box", (8, 18, 0), size=(12, 12, 0.01), tags=("area", "shallow-water"))],
                       dict(BASE_STATS, SPD=5, AG=6))


def test_a_model_in_shallow_water_walks_half_its_spd_not_a_quarter():
    g = mud_game()
    assert "shallow-water" in g.geo.environments("r1")
    assert g.speed("r1") == 5 and g.allowance("r1", "walk") == 5.0
    # the water charges two per inch: 2.4" through it costs 4.8", within the allowance
    ok = g.geo.check_move("r1", "walk", [(6.4, 18, 0)], g.allowance("r1", "walk"))
    assert ok.legal, ok.reason
    far = g.geo.check_move("r1", "walk", [(6.6, 18, 0)], g.allowance("r1", "walk"))
    assert not far.legal
    # the water's other halving stays: AG halved while standing in it
    assert g.stat("r1", "AG") == 3
    assert g.stat("r1", "SPD") == 3          # the stat as the profile panel shows it in the water
