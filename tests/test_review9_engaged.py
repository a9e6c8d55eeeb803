"""One "directly toward" (review 9): the rules' `engaged_walk_tolerance_deg` is the
angle the geometry's path check allows too; before, the engine's own 2 degrees
(engine/data/motion.yaml) refused on the real table what the rules' 10 allowed."""
from __future__ import annotations

import math

from rules.eldfall.actions import Activate, ChooseOrder, Move, Pass
from rules.eldfall.sequence import EldfallGame


def _engaged_on_the_real_table(tolerance):
    from tools.gameplay import load_table, scene_info
    from tools.roster import units_from_scene
    scene, world, geo = load_table("scenes/open.yaml")
    units = units_from_scene(scene, world)
    red = next(u for u in units if u.side == "red")
    blue = next(u for u in units if u.side == "blue")
    for mid in list(world.model_ids()):
        if mid not in (red.id, blue.id):
            geo.remove(mid)
    units = [red, blue]
    # the blue model engages the red one from 1" away (its reach); red faces it
    red.at, red.facing = (10.0, 10.0, 0.0), 0.0
    gap = world.hitbox(red.id).radius + world.hitbox(blue.id).radius
    blue.at, blue.facing = (10.0 + gap, 10.0, 0.0), 180.0
    everywhere = {"red": [[0, 0], [36, 36]], "blue": [[0, 0], [36, 36]]}
    settings = {"deployment": everywhere}
    if tolerance is not None:
        settings["engaged_walk_tolerance_deg"] = tolerance
    g = EldfallGame(units, geo, seed=1, scene_info=scene_info(scene), settings=settings)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    assert "Engaged" in g.models[red.id].states
    assert g.pending == ("tactical", "red")
    g.apply(Activate(red.id))
    while g.pending[0] == "crouch":          # the blue player's Crouched window: passed
        g.apply(Pass(g.pending[1]))
    assert g.pending == ("movement", red.id)
    return g, red.id, blue.id


def _walk_off_the_line(g, mid, degrees, length=0.5):
    x, y, _ = g.geo.position(mid)
    a = math.radians(degrees)
    return Move(mid, "walk", ((x + length * math.cos(a), y + length * math.sin(a), 0.0),))


def test_a_walk_5_degrees_off_the_line_is_legal_with_a_10_degree_tolerance():
    g, red, _blue = _engaged_on_the_real_table(10)
    assert g.why_illegal(_walk_off_the_line(g, red, 5.0)) is None
    assert g.why_illegal(_walk_off_the_line(g, red, 15.0)) is not None


def test_the_default_tolerance_is_one_number_for_rules_and_table():
    g, red, _blue = _engaged_on_the_real_table(None)
    assert g.settings["engaged_walk_tolerance_deg"] == 2
    assert g.why_illegal(_walk_off_the_line(g, red, 1.0)) is None
    why = g.why_illegal(_walk_off_the_line(g, red, 5.0))
    assert why is not None and "Engaged" in why
