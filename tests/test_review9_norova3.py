"""Review 9 (Norova, 3): the falls of a move are rolled where they are on its route.

Legends of Norova's falling rule (docs/rulings.md "Falling and being down"; "Climbing
and swimming": a walk may go down more than the step height at once, a jump down, and
the drop is the falling rule, 1d6 per full 2"). The geometry reports a route's drops
(its ``steps`` down, and any ``falls``, each fall now with ``at``: where it lands);
the rules roll each as the mover passes it. A move stopped by an Attack of
Opportunity rolls the falls before the stop and none after it; a move not stopped
rolls each of its falls once, and the narration says where the mover fell.
"""
from pathlib import Path

import pytest

from rules.core import Dice
from rules.core.geometry import FallAnswer
from rules.norova import NorovaGame, narrate
from rules.norova.actions import Move
from test_norova_helpers import Geo, game, kinds, rolls, unit

ROOT = Path(__file__).resolve().parents[1]

# a 2.5" ledge (x 0-8): a 3" tall character walks off its east edge (1d6)
LEDGE = [("ledge", 0.0, 0.0, 8.0, 30.0, 2.5)]
# two 2.5" drops: 5" (x 0-5), then 2.5" (x 5-8), then the table
STAIRS = [("upper", 0.0, 0.0, 5.0, 30.0, 5.0), ("lower", 5.0, 0.0, 8.0, 30.0, 2.5)]


def tall(uid, side, x, y, facing, z=0.0, height=3.0):
    u = unit(uid, side, x, y, facing)
    u.height = height
    u.at = (float(x), float(y), float(z))
    return u


def scene(b_at, b_z, boxes=LEDGE, a_at=(6.0, 5.0, 2.5), a_height=3.0, geo=None):
    """A (tall) standing on the scenery at ``a_at`` facing east; B faces south."""
    us = [tall("A", "red", a_at[0], a_at[1], 0, a_at[2], a_height), unit("B", "blue", b_at[0], b_at[1], 270)]
    if geo is None:
        g = game(us, boxes=boxes)
    else:
        g0 = geo((30, 30), boxes)
        for u in us:
            g0.add(u.id, u.at[0], u.at[1], facing=u.facing, base=u.base, height=u.height)
        g = NorovaGame(us, g0, dice=Dice.fixed([20, 19]))
    g.geometry.place("A", a_at, 0)
    g.geometry.place("B", (b_at[0], b_at[1], b_z), 270)
    return g


def _order(evs):
    return [e.kind for e in evs if e.kind in ("move_leg", "fall", "aoo", "check", "move", "strike")]


def _fall_rolls(evs):
    return [e.data["value"] for e in evs if e.kind == "roll" and e.data["why"] == "falling damage"]


def _lines(evs):
    return [ln.strip() for ln in map(narrate.line, evs) if ln]


# ---- a move not stopped ------------------------------------------------------------------
def test_a_walk_off_a_ledge_rolls_its_fall_once_and_says_where():
    g = scene((25.0, 25.0), 0.0)              # B far away: no Attack of Opportunity
    rolls(g, [4])
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    falls = kinds(evs, "fall")
    assert len(falls) == 1 and falls[0]["height"] == pytest.approx(2.5) and falls[0]["dice"] == 1
    # where: the route's point at the ledge's edge (the base leaves the ledge 0.63" past x 8)
    assert 8.0 < falls[0]["at"][0] < 8.8 and falls[0]["at"][1] == pytest.approx(5.0)
    assert falls[0]["along"] == pytest.approx(falls[0]["at"][0] - 6.0)
    assert _fall_rolls(evs) == [4]
    assert g.f("A").vitality == 26 and g.f("A").prone
    x = falls[0]["at"][0]
    assert f"A falls 2.5\" at ({x:.2f}, 5.00) (1d6)" in _lines(evs)
    assert _order(evs) == ["fall", "move"]                  # it fell on the way to its end


def test_a_failed_aoo_hit_check_lets_the_mover_go_on_and_fall_beyond_it():
    g = scene((7.0, 7.2), 2.5)                # B on the ledge: the AoO comes before the drop
    rolls(g, [11, 4])                         # the hit check fails (11 < 12); the fall's d6
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert _order(evs) == ["move_leg", "aoo", "check", "fall", "move"]
    assert kinds(evs, "move")[0]["stopped"] is False
    assert _fall_rolls(evs) == [4] and g.f("A").vitality == 26


# ---- a move stopped by an Attack of Opportunity --------------------------------------------
def test_a_move_stopped_before_the_drop_does_not_fall():
    g = scene((7.0, 7.2), 2.5)                # the AoO point (x 6.5) is on the ledge
    rolls(g, [15, 5, 6])                      # hit check, critical hit check (a 6 left over)
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    mv = kinds(evs, "move")[0]
    assert mv["stopped"] is True and mv["end"][0] == pytest.approx(6.5)
    assert kinds(evs, "fall") == [] and _fall_rolls(evs) == []
    assert not g.f("A").prone and g.f("A").vitality == 25


def test_a_move_stopped_after_the_drop_rolls_that_fall_first():
    g = scene((10.5, 7.0), 0.0)               # B on the table: the AoO point (x 9.5) is past the drop
    rolls(g, [4, 15, 5])                      # the fall's d6, B's hit check, its critical check
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert _order(evs) == ["fall", "move_leg", "aoo", "check", "move", "strike"]
    mv = kinds(evs, "move")[0]
    assert mv["stopped"] is True and mv["end"][0] == pytest.approx(9.5)
    fall = kinds(evs, "fall")[0]
    assert fall["dice"] == 1 and fall["along"] < kinds(evs, "aoo")[0]["along"]
    assert _fall_rolls(evs) == [4]
    assert g.f("A").vitality == 30 - 4 - 5 and g.f("A").prone
    lines = _lines(evs)
    fell = next(i for i, ln in enumerate(lines) if ln.startswith("A falls 2.5\" at (8."))
    walk = lines.index("A walks to (9.50, 5.00)")
    aoo = next(i for i, ln in enumerate(lines) if ln.startswith("Attack of Opportunity: B on A"))
    assert fell < walk < aoo


def test_a_mover_a_fall_takes_out_lies_where_it_landed_and_draws_no_attack():
    for b_at in ((10.5, 7.0), (25.0, 25.0)):              # an AoO past the drop, or none
        g = scene(b_at, 0.0)
        g.f("A").vitality = 3
        rolls(g, [4])
        evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
        assert _order(evs) == ["fall", "move"], b_at
        assert g.f("A").status == "dying"
        mv = kinds(evs, "move")[0]
        fall = kinds(evs, "fall")[0]
        assert mv["stopped"] is True and fall["at"][0] < mv["end"][0] < fall["at"][0] + 0.2
        assert g.geometry.position("A")[0] == pytest.approx(mv["end"][0])


def test_a_move_stopped_between_two_drops_rolls_only_the_first():
    g = scene((7.5, 7.2), 2.5, boxes=STAIRS, a_at=(4.0, 5.0, 5.0), a_height=6.0)
    rolls(g, [3, 15, 5, 6])                   # first drop's d6, hit check, critical check (6 left)
    evs = g.apply(Move("A", "walk", ((10.0, 5.0, 0.0),)))
    mv = kinds(evs, "move")[0]
    assert mv["stopped"] is True and mv["end"][0] == pytest.approx(7.0)
    falls = kinds(evs, "fall")
    assert len(falls) == 1 and 5.0 < falls[0]["at"][0] < 5.8       # the upper box's edge only
    assert _fall_rolls(evs) == [3] and g.f("A").vitality == 30 - 3 - 5


def test_both_drops_are_rolled_when_the_move_is_not_stopped():
    g = scene((25.0, 25.0), 0.0, boxes=STAIRS, a_at=(4.0, 5.0, 5.0), a_height=6.0)
    rolls(g, [3, 2])
    evs = g.apply(Move("A", "walk", ((10.0, 5.0, 0.0),)))
    falls = kinds(evs, "fall")
    assert [round(f["height"], 2) for f in falls] == [2.5, 2.5]
    assert falls[0]["along"] < falls[1]["along"] and 8.0 < falls[1]["at"][0] < 8.8
    assert _fall_rolls(evs) == [3, 2] and g.f("A").vitality == 25


def test_a_drop_within_the_step_height_is_no_fall_and_a_climb_climbs_down():
    kerb = [("kerb", 0.0, 0.0, 8.0, 30.0, 0.8)]
    g = scene((25.0, 25.0), 0.0, boxes=kerb, a_at=(6.0, 5.0, 0.8))
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert kinds(evs, "fall") == []
    g = scene((25.0, 25.0), 0.0)
    evs = g.apply(Move("A", "climb", ((9.0, 5.0, 0.0),)))
    assert kinds(evs, "move")[0]["moved"] and kinds(evs, "fall") == []


# ---- the geometry's fall records: where they land -------------------------------------------
class ReportingGeo(Geo):
    """A geometry that reports each drop of a walk as a fall too (``at``: where it lands)."""

    def check_move(self, model, mode, waypoints, speed, *, enemies=None):
        res = super().check_move(model, mode, waypoints, speed, enemies=enemies)
        if mode == "walk":
            for s in res.steps:
                if s.height < -1.0:
                    res.falls.append(FallAnswer(-s.height, 0, (s.at[0] + 0.1, s.at[1], 0.0)))
        return res


class EndFallGeo(Geo):
    """A geometry that reports a fall without saying where (taken as the route's end)."""

    def check_move(self, model, mode, waypoints, speed, *, enemies=None):
        res = super().check_move(model, mode, waypoints, speed, enemies=enemies)
        if mode == "walk":
            res.falls.append(FallAnswer(4.0, 0))
        return res


def test_a_fall_the_geometry_reports_is_placed_on_the_route_and_rolled_once():
    g = scene((25.0, 25.0), 0.0, geo=ReportingGeo)
    mv = g.geometry.check_move("A", "walk", [(12.0, 5.0, 0.0)], 30.0)
    assert len(mv.falls) == 1 and len(mv.steps) == 1     # the same drop, reported twice
    rolls(g, [4])
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    falls = kinds(evs, "fall")
    assert len(falls) == 1 and _fall_rolls(evs) == [4]
    assert falls[0]["at"][0] == pytest.approx(mv.falls[0].at[0])   # the geometry's landing point
    # stopped before it: not rolled; past it: rolled before the attack
    g = scene((7.0, 7.2), 2.5, geo=ReportingGeo)
    rolls(g, [15, 5, 6])
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert kinds(evs, "move")[0]["stopped"] and kinds(evs, "fall") == []
    g = scene((10.5, 7.0), 0.0, geo=ReportingGeo)
    rolls(g, [4, 15, 5])
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert _order(evs) == ["fall", "move_leg", "aoo", "check", "move", "strike"]


def test_a_fall_reported_without_a_place_counts_at_the_routes_end():
    g = scene((25.0, 25.0), 0.0, boxes=(), a_at=(6.0, 5.0, 0.0), geo=EndFallGeo)
    rolls(g, [1, 2])
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert [f["dice"] for f in kinds(evs, "fall")] == [2] and _fall_rolls(evs) == [1, 2]
    assert "A falls 4.0\" (2d6)" in _lines(evs)
    g = scene((10.5, 7.0), 0.0, boxes=(), a_at=(6.0, 5.0, 0.0), geo=EndFallGeo)
    rolls(g, [15, 5, 6])
    evs = g.apply(Move("A", "walk", ((12.0, 5.0, 0.0),)))
    assert kinds(evs, "move")[0]["stopped"] and kinds(evs, "fall") == []


def test_the_flat_geometry_says_where_a_push_lands():
    g = Geo((30, 30), LEDGE)
    g.add("A", 6.0, 5.0, z=2.5, height=3.0)
    mv = g.check_move("A", "push", [(10.0, 5.0, 2.5)], 6.0)
    assert mv.legal and len(mv.falls) == 1
    assert mv.falls[0].height == pytest.approx(2.5)
    assert mv.falls[0].at == pytest.approx(tuple(mv.end))
    assert FallAnswer(1.0, 0).at is None                    # additive: the old two fields still do


# ---- the real engine ------------------------------------------------------------------------
def test_on_the_engine_a_jump_off_the_rock_is_a_fall_on_the_route():
    """The rock is 1.5" high: a drop of more than the 1" step height is a jump down, the
    falling rule, which rolls no die under 2" (and so knocks nobody down)."""
    import rules.norova as nv
    from engine.geometry import WorldGeometry
    from engine.scene import load_scene
    from engine.world import World
    from tools.roster import units_from_scene
    sc = load_scene(ROOT / "scenes" / "norova-arena.yaml")
    world = World(sc)
    g = nv.new_game(units_from_scene(sc, world), WorldGeometry(world), seed=1)
    g.geometry.place("knight", (21.0, 6.0, 1.5), 0)
    g.queue.insert(0, "knight")
    evs = g.apply(Move("knight", "walk", ((23.3, 6.0, 0.0),)))
    falls = kinds(evs, "fall")
    assert len(falls) == 1 and falls[0]["height"] == pytest.approx(1.5, abs=0.02) and falls[0]["dice"] == 0
    assert 21.9 < falls[0]["at"][0] < 23.3 and falls[0]["at"][1] == pytest.approx(6.0, abs=1e-6)
    assert _fall_rolls(evs) == [] and not g.f("knight").prone
