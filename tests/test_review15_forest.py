"""A ranged attack through a Forest area gets -3, as one within does.

eldfall-facts.md, Environments: "Forest (ranged -3 through or within; no LoS through
two Forest areas)". Only "within" was applied (the attacker's or the target's base in
a Forest area): a shot whose every line of fire crossed one Forest area, neither model
in it, had no penalty. "Through" is judged on the engine's lines of sight: the target
is seen, and would not be if one Forest area blocked (``forest_limit`` 1).
"""
from __future__ import annotations

import pytest

from engine.scene import TerrainSpec
from rules.eldfall import resolution
from rules.eldfall.actions import Declare
from tests.eldfall_scenario import BOW, engine_game

# r1 shoots north; a 6" x 3" Forest area lies across x 7-13 at y 10.5-13.5
WOOD = TerrainSpec("wood", "box", (10, 12, 0), size=(6, 3, 0.2), tags=frozenset({"area", "forest"}))
POS = {"r1": ("red", 10, 4, 90), "b1": ("blue", 10, 20, 270),      # behind the wood
       "b2": ("blue", 24, 18, 270),                                # clear of it
       "b3": ("blue", 7.8, 12, 270)}                               # in it, off the line


def _mods(g, target):
    decl = Declare("r1", "Ranged Attack", weapon="Bow", targets=((target, 1),))
    st = resolution.Strike("r1", target, decl, "active", dict(BOW), 1)
    resolution._attack_attribute(g, st)
    assert not st.failed, st.failed
    return st.mods


@pytest.fixture(scope="module")
def game():
    return engine_game(POS, [WOOD], weapons=[BOW])


def test_a_shot_through_one_forest_area_gets_minus_three(game):
    assert game.has_los("r1", "b1")                  # one Forest area does not block LoS
    assert game.geo.through_forest("r1", "b1")
    assert _mods(game, "b1").get("forest") == -3


def test_a_shot_clear_of_the_forest_and_one_within_it(game):
    assert not game.geo.through_forest("r1", "b2")
    assert "forest" not in _mods(game, "b2")
    assert _mods(game, "b3").get("forest") == -3     # within: as before, -3 once


def test_a_line_round_the_forest_is_no_shot_through_it():
    # the wood now covers only the left half of the line: a line of fire passes beside it
    half = TerrainSpec("wood", "box", (7.5, 12, 0), size=(3, 3, 0.2), tags=frozenset({"area", "forest"}))
    g = engine_game({"r1": ("red", 10, 4, 90), "b1": ("blue", 10, 20, 270)}, [half], weapons=[BOW])
    assert g.has_los("r1", "b1") and not g.geo.through_forest("r1", "b1")
    assert "forest" not in _mods(g, "b1")
