"""Review 17 (Norova): a crawl is judged low. Seed "Crawling" (norova-active-turn.txt):
"Crawling lets you move while staying low to the ground". A crawl's route needs only the
table's Crouched hitbox (its base's height) of room under scenery, yet steps up as a walk
does; a crawl that ends under an overhang leaves the character low there, and getting up
(Stand, or any other move) needs room for the standing hitbox where it is.

The scene: a table-high slab (underside 1", top 1.2") the 1.77" knight does not fit under
standing and does crawling, and a 0.8" step the crawl climbs as a walk would."""
import pytest

from engine import motion
from rules.norova.actions import Move, Stand
from rules.norova.bots import GreedyBot
from scene_files import write, world_of
from tools import gameplay

SCENE = """name: Crawl under a slab
games: [norova]
table: [12, 12]
terrain:
  - {id: slab, shape: box, at: [6, 6, 1], size: [4, 4, 0.2]}     # x 4-8, y 4-8, z 1-1.2
  - {id: step, shape: box, at: [2, 8.5, 0], size: [4, 1, 0.8]}   # x 0-4, y 8-9
models:
  - {id: knight, side: party, profile: norova-party#knight, at: [2.5, 6], facing: 0}
  - {id: brute,  side: foes,  profile: norova-foes#brute,   at: [11, 11], facing: 270}
"""
UNDER = (5.5, 6.0, 0.0)          # under the slab, its base wholly under it


def _game(tmp_path):
    _, g = gameplay.new_game(str(write(tmp_path, "crawl.yaml", SCENE)), "norova", 1)
    g.queue.remove("knight")
    g.queue.insert(0, "knight")
    return g


def _under(g):
    """The knight crawled under the slab, its move again to make."""
    g.apply(Move("knight", "crawl", (UNDER,)))
    f = g.fighters["knight"]
    f.slots["move"] = False
    return f


def test_a_crawl_goes_under_the_slab_and_a_walk_does_not(tmp_path):
    g = _game(tmp_path)
    hb = g.geometry.world.hitbox("knight")
    assert hb.full_height > 1.2 and hb.height == hb.full_height       # standing: taller than the slab's underside
    # a walk stands up: the standing knight has no room under it (it would end on its top)
    assert "not at the declared z 0" in g.why_illegal(Move("knight", "walk", (UNDER,)))
    assert "rise needs a climb" in g.why_illegal(Move("knight", "walk", (UNDER[:2],)))
    # a crawl is low: the Crouched hitbox fits (it was judged standing and refused the same)
    assert g.why_illegal(Move("knight", "crawl", (UNDER,))) is None
    assert hb.states == frozenset()                   # (asking does not change the pose)
    f = _under(g)
    assert f.low and not f.prone
    assert (hb.x, hb.y, hb.z) == pytest.approx(UNDER)
    assert hb.states == frozenset({"Crouched"})       # left low under the slab


def test_under_the_slab_it_may_not_get_up_only_crawl_out(tmp_path):
    g = _game(tmp_path)
    _under(g)
    why = "knight cannot {} here: there is no room over it for its standing height (1.77\"); crawl out first"
    assert g.why_illegal(Stand("knight")) == why.format("stand up")
    out = ((2.5, 6.0, 0.0),)
    for mode in ("walk", "sprint"):
        assert g.why_illegal(Move("knight", mode, out)) == why.format(f"get up to {mode}"), mode
    assert g.why_illegal(Move("knight", "crawl", out)) is None
    assert g.geometry.world.hitbox("knight").states == frozenset({"Crouched"})   # the pose is put back
    # crawled out into the open, it may stand up and walk again
    g.apply(Move("knight", "crawl", out))
    g.fighters["knight"].slots["move"] = False
    assert g.why_illegal(Stand("knight")) is None
    assert g.why_illegal(Move("knight", "walk", ((1.0, 6.0, 0.0),))) is None


def test_the_move_list_and_the_bot_offer_only_crawls_under_the_slab(tmp_path):
    g = _game(tmp_path)
    _under(g)
    offered = [a for a in g.legal_actions() if isinstance(a, (Move, Stand))]
    assert offered and all(isinstance(a, Move) and a.mode == "crawl" for a in offered), [str(a) for a in offered]
    a = GreedyBot(1).choose(g)
    assert g.why_illegal(a) is None
    assert not isinstance(a, Stand) and not (isinstance(a, Move) and a.mode != "crawl"), str(a)


def test_a_crawl_steps_up_as_a_walk_does(tmp_path):
    """The 0.8" step is under the Norova step height (1"): a walk and a crawl both go up it,
    though the Crouched hitbox (0.14") is lower than the step."""
    g = _game(tmp_path)
    top = ((2.5, 8.5),)
    assert g.why_illegal(Move("knight", "walk", top)) is None
    assert g.why_illegal(Move("knight", "crawl", top)) is None
    g.apply(Move("knight", "crawl", top))
    assert g.pos("knight")[2] == pytest.approx(0.8)


def test_a_crouched_model_still_steps_only_its_hitbox(tmp_path):
    """Eldfall's Crouched model is unchanged: its step is its Crouched hitbox's height
    (``step_height: hitbox``); only the crawling state steps as the standing one."""
    world = world_of(tmp_path, SCENE)
    world.set_states("knight", {"Crouched"})
    assert motion.step_height_of(world, "knight") == pytest.approx(world.hitbox("knight").height)
    r = motion.check_path(world, "knight", [(2.5, 8.5)], "walk", speed=6.0)
    assert not r.legal and "is taller than the hitbox (0.14\")" in r.reason
    assert r.reason.endswith("a Crouched model may only Walk")
    world.set_states("knight", {"Crouched", motion.CRAWLING_STATE})
    assert motion.step_height_of(world, "knight") == pytest.approx(world.hitbox("knight").full_height)
    r = motion.check_path(world, "knight", [(2.5, 8.5)], "walk", speed=6.0)
    assert r.legal and r.end[2] == pytest.approx(0.8)
    # a number of inches stays that number
    assert motion.step_height_of(world, "knight", {"step_height": 0.5}) == 0.5


def test_the_crawls_reachable_area_goes_under_the_slab_as_the_path_check_does(tmp_path):
    """The reachable area (the front ends' shading) of a crawl: its steps are as high as the
    standing hitbox's, its room the Crouched one's. It shades under the slab, each end there
    one the path check takes; a standing walk's does not. The crawl keeps to its own level
    where the slab's top is within a step too (the path check's choice): no slab top beside
    the ground. (A vertical face's band, [level + step, level + hitbox], was turned over
    when the step was the higher, and barred every face below the step.)"""
    world = world_of(tmp_path, SCENE)
    for states, n_under in (({"Crouched", motion.CRAWLING_STATE}, 20), (set(), 0)):
        world.set_states("knight", states)
        grid = motion.reachable(world, "knight", "walk", speed=3.0)
        pts = grid.points().tolist()
        under = [p for p in pts if 4.7 < p[0] < 7.3 and 4.7 < p[1] < 7.3 and p[2] < 0.5]
        assert len(under) >= n_under and (n_under or not under), (sorted(states), len(under))
        for p in under[::4]:
            route = [tuple(q) for q in grid.shortest_path(tuple(p))[1:]]
            r = motion.check_path(world, "knight", route, "walk", speed=3.0)
            assert r.legal and r.end[2] == pytest.approx(0.0, abs=0.05), (p, r.reason)
    world.set_states("knight", {"Crouched", motion.CRAWLING_STATE})
    grid = motion.reachable(world, "knight", "walk", speed=3.0)
    # the top beside the knight's row (y 6): from the ground the path check stays under it
    # (a few cells of the top near the 0.8" step, y > 6.5, are still shaded: README gap)
    top = [p for p in grid.points().tolist() if p[1] < 6.5 and p[2] > 1.0]
    assert not top, top[:3]


def test_a_character_low_from_a_crawl_gets_up_to_climb():
    """A climb gets up as it goes, as a walk does: it is judged standing (the table's
    Crouched alone refused it: "Crouched: only Walk (or Idle) may be declared")."""
    from test_norova_helpers import arena_game
    g = arena_game()
    g.geometry.place("knight", (21.0, 3.0, 0.0), 90)      # south of the 1.5" climbable rock
    g.queue.insert(0, "knight")
    knight = g.fighters["knight"]
    knight.low = True
    g._sync_states(knight)
    assert g.why_illegal(Move("knight", "climb", ((21.0, 6.0),))) is None
    assert g.geometry.world.hitbox("knight").states == frozenset({"Crouched"})
