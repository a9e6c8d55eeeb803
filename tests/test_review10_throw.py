"""Legends of Norova, review 10: a potion thrown past the characters in the way.

Source: ../shared/seeds/norova-active-turn.txt ("Support Actions": "Throwing a
potion to an ally uses your attack action instead; every target in the path can
make a free React check to catch it, and the first to catch it gets the item").
A throw needs sight over the scenery only: a character in the way does not stop
it, it is in the potion's path and gets its catch check. Every test fixes the
dice (a catch: React + d20 against Normal, 12).
"""
from rules.core.flat import FlatGeometry
from rules.norova.actions import ThrowPotion
from test_norova_helpers import arena_game, game, kinds, rolls, unit


def in_a_row(boxes=()):
    """A throws to A2 straight past B (an enemy), the three in a row 2" apart."""
    return game([unit("A", "red", 5, 5, 0, inventory={"healing_potion": 1}),
                 unit("B", "blue", 7, 5, 180), unit("A2", "red", 9, 5, 180)], boxes=boxes)


# ---- the Geometry protocol: sight over the scenery only -----------------------------------------
def test_flat_sight_over_the_scenery_ignores_the_models_but_not_the_boxes():
    g = FlatGeometry((20, 20), boxes=[("wall", 9.5, 3, 10, 7, 3)])
    for m, x in (("a", 5), ("b", 7), ("c", 9), ("d", 11)):
        g.add(m, x, 5)
    assert not g.sight("a", "c").los                    # b hides c completely
    s = g.sight("a", "c", fraction=True, models_block=False)
    assert s.los and s.visible_fraction == 1.0
    assert not g.sight("a", "d", models_block=False).los   # the wall still does


# ---- the rules on the flat table ------------------------------------------------------------------
def test_a_potion_is_thrown_to_an_ally_hidden_behind_a_character_who_gets_its_catch_first():
    g = in_a_row()
    assert not g.geometry.sight("A", "A2", moving=True).los    # B hides A2 from A completely
    a = ThrowPotion("A", "healing_potion", "A2")
    assert g.why_illegal(a) is None
    rolls(g, [11, 12])                       # B's React check fails (11 < 12), A2's succeeds
    evs = g.apply(a)
    assert kinds(evs, "throw_potion")[0]["path"] == ["B", "A2"]
    assert [(c["model"], c["check"], c["success"]) for c in kinds(evs, "check")] == \
        [("B", "catch", False), ("A2", "catch", True)]
    assert [c["model"] for c in kinds(evs, "caught")] == ["A2"]
    assert g.f("A2").inventory["healing_potion"] == 1 and g.f("A").inventory["healing_potion"] == 0
    assert g.f("B").inventory.get("healing_potion", 0) == 0


def test_the_character_in_the_way_catches_a_potion_first():
    g = in_a_row()
    rolls(g, [12])                           # B's React check: 12, it catches the potion
    evs = g.apply(ThrowPotion("A", "healing_potion", "A2"))
    assert [c["model"] for c in kinds(evs, "caught")] == ["B"]
    assert g.f("B").inventory["healing_potion"] == 1 and g.f("A2").inventory.get("healing_potion", 0) == 0


def test_scenery_between_still_stops_a_throw():
    g = in_a_row(boxes=[("wall", 7.8, 3, 8.2, 7, 3)])
    assert g.why_illegal(ThrowPotion("A", "healing_potion", "A2")) == "A cannot see A2 past the scenery"


# ---- the engine's geometry (the arena) ------------------------------------------------------------
def test_on_the_engine_a_potion_is_thrown_past_the_brute_and_the_brute_may_catch_it():
    from engine import sight as es
    g = arena_game()
    geo = g.geometry
    geo.place("cleric", (3.0, 7.0, 0.0), 0)        # clear of the others and the scenery
    geo.place("brute", (5.0, 7.0, 0.0), 180)
    geo.place("knight", (7.0, 7.0, 0.0), 180)
    g.queue.insert(0, "cleric")
    assert not geo.sight("cleric", "knight", moving=True).los          # the brute hides the knight
    s = geo.sight("cleric", "knight", moving=True, fraction=True, models_block=False)
    # exact: the engine's own answer with its models_block setting off
    ref = es.los(geo.world, "cleric", "knight", moving=True, fraction=True,
                 settings=es.default_settings().replace(models_block=False))
    assert s.los and s.visible_fraction == ref.visible_fraction == 1.0
    # the two questions keep their own answers (asked again, from the cache)
    assert not geo.sight("cleric", "knight", moving=True).los
    a = ThrowPotion("cleric", "healing_potion", "knight")
    assert g.why_illegal(a) is None
    rolls(g, [11])                           # the brute: React 1 + 11 = 12, it catches
    evs = g.apply(a)
    assert kinds(evs, "throw_potion")[0]["path"] == ["brute", "knight"]
    assert [c["model"] for c in kinds(evs, "caught")] == ["brute"]
    assert g.f("brute").inventory["healing_potion"] == 2


def test_on_the_engine_the_ruined_wall_still_stops_a_throw():
    g = arena_game()
    geo = g.geometry
    geo.place("cleric", (12.0, 14.5, 0.0), 90)            # the ruined wall: y 15.75-16.25, 2.5" high
    geo.place("knight", (12.0, 17.5, 0.0), 270)
    g.queue.insert(0, "cleric")
    assert g.why_illegal(ThrowPotion("cleric", "healing_potion", "knight")) == \
        "cleric cannot see knight past the scenery"
