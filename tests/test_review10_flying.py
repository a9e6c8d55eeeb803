"""A Flying model stops Flying by choice (eldfall-states.txt, Flying: removed
by "... Crouched; or voluntary"): ``Move(..., land="start"|"end")``, docs/rulings.md
"Stopping Flying"."""
import pytest

from rules.eldfall.actions import Action, Activate, ChooseOrder, Move, Pass
from rules.eldfall.bots import RandomBot
from rules.eldfall.narrate import narrate
from tests.eldfall_scenario import kinds, setup, unit

SCENE = """\
name: Flyers
games: [eldfall]
table: [36, 36]
terrain:
  - {id: crate, shape: box, at: [10, 10, 0], size: [3, 3, 2]}
models:
  - {id: red-a, side: red, profile: sample-red#champion, at: [10, 10, 2], facing: 0, states: [Flying]}
  - {id: red-b, side: red, profile: sample-red#archer, at: [20, 10, 5], facing: 0, states: [Flying]}
  - {id: blue-c, side: blue, profile: sample-blue#warden, at: [30, 30], facing: 180}
"""


def at_movement(units, model="r1", rolls=()):
    """Red activates ``model``; blue passes its Crouched window: red's movement is pending."""
    g = setup(units, list(rolls))
    g.apply(Activate(model))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    assert g.pending == ("movement", model)
    return g


def flyer(**kw):
    return unit("r1", "red", 10, 5, states=["Flying"], **kw)


def far():
    return unit("b1", "blue", 30, 30)


def test_land_round_trips_in_the_log_text_and_a_bad_value_is_refused():
    a = Move("r1", "walk", ((10.0, 9.0, 0.0),), land="start")
    assert str(a) == "move r1 walk 10.0,9.0,0.0 land=start"
    assert Action.parse(str(a)) == a
    assert Action.parse("move r1 idle land=end") == Move("r1", "idle", land="end")
    with pytest.raises(ValueError, match="land is start or end"):
        Action.parse("move r1 idle land=middle")


def test_landing_at_the_start_walks_at_the_grounded_speed():
    g = at_movement([flyer(), far()])
    assert g.stat("r1", "SPD") == 10                       # Flying doubles SPD 5
    assert g.why_illegal(Move("r1", "walk", ((10.0, 13.0, 0.0),))) is None      # an 8" flight
    assert "more than 5.00" in g.why_illegal(Move("r1", "walk", ((10.0, 13.0, 0.0),), land="start"))
    ev = g.apply(Move("r1", "walk", ((10.0, 9.0, 0.0),), land="start"))
    assert "Flying" not in g.models["r1"].states and g.stat("r1", "SPD") == 5
    st = kinds(ev, "states")[0].data
    assert st["removed"] == ["Flying"] and "by choice at the start" in st["why"]
    assert [e.kind for e in ev].index("states") < [e.kind for e in ev].index("movement")
    assert "    r1: -Flying (stops Flying by choice at the start of the Movement Step)" in narrate(ev)


def test_landing_at_the_end_comes_after_the_flight():
    g = at_movement([flyer(), far()])
    ev = g.apply(Move("r1", "walk", ((10.0, 13.0, 0.0),), land="end"))
    assert g.geo.position("r1")[:2] == (10.0, 13.0) and "Flying" not in g.models["r1"].states
    kinds_ = [e.kind for e in ev]
    assert kinds_.index("movement") < kinds_.index("states")
    assert "by choice at the end" in kinds(ev, "states")[0].data["why"]


def test_a_walk_after_landing_meets_the_grounded_enemies_reach():
    """Landed at the start, the walk is no flight: a grounded enemy's reach counts."""
    b = unit("b1", "blue", 12, 8)
    walk = ((10.0, 10.0, 0.0),)
    g = at_movement([flyer(), b])
    g.apply(Move("r1", "walk", walk))
    assert g.act.opportunity == []                          # a flight: only Flying enemies reach it
    g = at_movement([flyer(), b])
    g.apply(Move("r1", "walk", walk, land="start"))
    assert [e for e, _ in g.act.opportunity] == ["b1"]


def test_who_may_land_and_when():
    g = at_movement([unit("r1", "red", 10, 5), far()])
    assert g.why_illegal(Move("r1", "idle", land="start")) == "r1 is not Flying: it has nothing to land from"
    g = at_movement([flyer(), far()])
    assert g.why_illegal(Move("r1", "idle", land="later")) == \
        "land is start or end (of the Movement Step), not 'later'"
    # Flying may not Crouch by choice; landed first, it may
    assert g.why_illegal(Move("r1", "idle", crouch_end=True)) == \
        "a Flying model cannot voluntarily become Crouched"
    assert g.why_illegal(Move("r1", "idle", land="start", crouch_end=True)) is None
    assert g.why_illegal(Move("r1", "idle", land="end", crouch_end=True)) is None
    assert g.why_illegal(Move("r1", "idle", land="start", crouch_start=True)) is None
    assert g.why_illegal(Move("r1", "idle", land="end", crouch_start=True)) == \
        "a Flying model cannot voluntarily become Crouched"
    g.apply(Move("r1", "idle", land="start", crouch_end=True))
    assert g.models["r1"].states == frozenset({"Crouched"})


def test_a_model_held_high_lands_on_the_surface_without_fall_rolls():
    """A scene may hold a Flying model above the surface; landing sets it down on
    the surface it was measured on, with no AG rolls (the dice are empty)."""
    r = unit("r1", "red", 10, 5, states=["Flying"])
    g = setup([r, far()], [], first="red")
    g.geo.place("r1", (10.0, 5.0, 3.0))
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    ev = g.apply(Move("r1", "idle", land="start"))
    assert g.geo.position("r1") == (10.0, 5.0, 0.0)
    assert kinds(ev, "land")[0].data == {"model": "r1", "height": 3.0, "at": [10.0, 5.0, 0.0]}
    assert not kinds(ev, "roll") and not kinds(ev, "fall")
    assert '    r1 lands 3.0" down, at (10.0, 5.0) (no Fall rolls)' in narrate(ev)


def test_no_landing_inside_another_model():
    r = unit("r1", "red", 10, 5, states=["Flying"])
    r2 = unit("r2", "red", 10, 5)
    g = setup([r, r2, far()], [])
    g.geo.place("r1", (10.0, 5.0, 3.0))
    g.apply(Activate("r1"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    assert g.why_illegal(Move("r1", "idle", land="start")) == \
        "r1 cannot land here: it would end inside r2's hitbox"
    assert g.why_illegal(Move("r1", "idle", land="end")) == \
        "r1 cannot land here: it would end inside r2's hitbox"
    assert g.geo.position("r1") == (10.0, 5.0, 3.0)        # the trial landing is undone
    assert g.why_illegal(Move("r1", "walk", ((14.0, 5.0, 0.0),), land="end")) is None


def test_a_cancelled_flight_lands_the_model_too():
    """Auto-cancellation (Immobilized) ends Flying as well: the model comes down."""
    g = setup([unit("r1", "red", 10, 5, states=["Flying"]), far()], [])
    g.geo.place("r1", (10.0, 5.0, 2.5))
    g.add_state("r1", "Immobilized", "a spell")
    assert "Flying" not in g.models["r1"].states
    assert g.geo.position("r1") == (10.0, 5.0, 0.0)
    assert kinds(g.events, "land")[-1].data["height"] == 2.5


def test_legal_actions_offer_landing_to_flying_models_only():
    g = at_movement([flyer(), far()])
    lands = [a for a in g.legal_actions().list() if isinstance(a, Move) and a.land]
    assert Move("r1", "idle", land="start") in lands
    assert {a.land for a in lands if a.mode == "walk"} == {"start", "end"}
    assert all(g.why_illegal(a) is None for a in lands)
    assert Move("r1", "idle", land="end") in g.legal_actions()
    g = at_movement([unit("r1", "red", 10, 5), far()])
    assert not [a for a in g.legal_actions().list() if isinstance(a, Move) and a.land]


def test_the_random_bot_sometimes_lands_a_flying_model():
    picks = []
    for seed in range(40):
        g = at_movement([flyer(), far()])
        a = RandomBot(seed)._movement(g, "r1")
        if a is not None:
            assert g.why_illegal(a) is None
            picks.append(a)
    assert any(a.land == "start" for a in picks)
    assert not any(a.crouch_end for a in picks)


def _world_game(tmp_path, log=None):
    from tools import gameplay
    path = tmp_path / "fly.yaml"
    path.write_text(SCENE)
    mod, g = gameplay.new_game(str(path), "eldfall", seed=3, log=log)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    return path, g


def test_on_the_table_a_flyer_lands_on_the_crate_under_it_and_the_log_replays(tmp_path):
    from rules.core.log import EventLog, read_log
    from rules.eldfall import game_from_log
    from tools import gameplay
    log = EventLog(tmp_path / "fly.jsonl")
    path, g = _world_game(tmp_path, log)
    for mid in ("red-a", "red-b"):
        g.apply(Activate(mid))
        if g.pending[0] == "crouch":
            g.apply(Pass("blue"))
        g.apply(Move(mid, "idle", land="start"))
        if g.pending[0] == "reaction":
            g.apply(Pass("blue"))
        while g.pending[0] != "tactical":
            g.apply(next(iter(g.legal_actions())))
    assert g.geo.position("red-a") == (10.0, 10.0, 2.0)      # on the crate, not through it
    assert abs(g.geo.position("red-b")[2]) < 1e-6             # held 5" up: down to the table
    assert [e.data["model"] for e in g.events if e.kind == "land"] == ["red-b"]
    log.close()
    header, events, _ = read_log(tmp_path / "fly.jsonl")
    _, _, geo = gameplay.load_table(str(path))
    again = game_from_log(header, events, geo)
    assert again.state_hash() == g.state_hash()
    assert not {"Flying"} & (again.models["red-a"].states | again.models["red-b"].states)


def test_on_the_table_a_flyer_held_high_lands_then_walks_from_the_surface(tmp_path):
    """The walk after a landing at the start is checked from where the model lands
    (not from where it hung in the air), at its grounded SPD."""
    _, g = _world_game(tmp_path)
    g.apply(Activate("red-b"))
    if g.pending[0] == "crouch":
        g.apply(Pass("blue"))
    walk = Move("red-b", "walk", ((20.0, 13.0, 0.0),), land="start")
    assert g.why_illegal(walk) is None
    assert "allowance is 5" in g.why_illegal(Move("red-b", "walk", ((14.0, 10.0, 0.0),), land="start"))
    assert g.geo.position("red-b") == (20.0, 10.0, 5.0)      # the trial landing is undone
    g.apply(walk)
    x, y, z = g.geo.position("red-b")
    assert (x, y) == (20.0, 13.0) and abs(z) < 1e-6
