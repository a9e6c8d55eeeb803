"""Review 9 (Norova, 4): a character low from a crawl gets up as it walks or
sprints, so the route is judged for it standing; the table's Crouched hitbox (its
base's height) refused every step higher than that ("taller than the hitbox")."""
from rules.norova.actions import Move
from test_norova_helpers import arena_game


def test_a_character_low_from_a_crawl_walks_over_the_low_wall():
    g = arena_game()
    g.geometry.place("knight", (12.0, 7.0, 0.0), 90)      # south of the 1" low wall (y 8.75-9.25)
    g.queue.insert(0, "knight")
    knight = g.fighters["knight"]
    knight.low = True
    g._sync_states(knight)
    assert "Crouched" in g.geometry.world.hitbox("knight").states
    for mode in ("walk", "sprint"):
        assert g.why_illegal(Move("knight", mode, ((12.0, 11.0, 0.0),))) is None, mode
    # asking did not stand it up; a crawl stays low and keeps the low hitbox
    assert knight.low and "Crouched" in g.geometry.world.hitbox("knight").states
    g.apply(Move("knight", "walk", ((12.0, 11.0, 0.0),)))
    assert not knight.low and "Crouched" not in g.geometry.world.hitbox("knight").states
