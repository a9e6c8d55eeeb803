"""Crouched as a Reaction (eldfall-states.txt "Crouched"): the reactive player's
models enter or cancel Crouched at the start and at the end of the activated
model's Movement Step."""
import pytest

from rules.core.dice import Dice
from rules.core.errors import IllegalAction
from rules.core.log import EventLog, read_log
from rules.eldfall.actions import Action, Activate, Crouch, Declare, Move, Pass
from tests.eldfall_scenario import BOW, SWORD, kinds, setup, unit


def two(rolls=(), settings=None, boxes=(), b_at=(10, 20), b_states=(), **kw):
    r = unit("r1", "red", 10, 5, weapons=[BOW, SWORD])
    b = unit("b1", "blue", *b_at, states=list(b_states), **kw)
    b2 = unit("b2", "blue", 30, 33, facing=90.0)        # looks away: never reacts
    return setup([r, b, b2], list(rolls), settings=settings, boxes=boxes)


def _replay(path, geo):
    """The log read back and replayed (checked event by event) on ``geo``,
    with the dice the log recorded."""
    from rules.eldfall.sequence import EldfallGame
    header, events, warnings = read_log(path)
    assert not warnings
    rolls = [e["data"]["value"] for e in events if e["kind"] == "roll"]
    return EldfallGame.replay(header, events, geo, check=True, dice=Dice.fixed(rolls))


def test_the_text_form_round_trips():
    a = Crouch("blue", (("b1", True), ("b2", False)))
    assert str(a) == "crouch blue b1:on b2:off"
    assert Action.parse(str(a)) == a
    with pytest.raises(ValueError):
        Action.parse("crouch blue b1")


def test_start_window_opens_before_the_move_and_the_hitbox_shrinks():
    g = two()
    g.apply(Activate("r1"))
    assert g.pending == ("crouch", "blue") and g.act.crouch_window == "start"
    opts = g.legal_actions().list()
    assert Pass("blue") in opts and Crouch("blue", (("b1", True),)) in opts
    assert Crouch("blue", (("b1", True), ("b2", True))) in opts
    assert g.geo.models["b1"].height > 1.5
    ev = g.apply(Crouch("blue", (("b1", True),)))
    cr = kinds(ev, "crouch_reaction")[0].data
    assert cr == {"side": "blue", "window": "start", "mover": "r1", "changes": {"b1": True}}
    assert "Crouched" in g.models["b1"].states
    assert g.geo.models["b1"].height < 0.2            # the geometry was told
    assert g.pending == ("movement", "r1")


def test_a_start_crouch_behind_a_low_wall_hides_the_reactor_from_the_whole_path():
    wall = ("wall", 5, 18.5, 15, 19, 1.0)
    path = ((12.0, 8.0, 0.0),)
    standing = two(boxes=[wall])
    standing.apply(Activate("r1"))
    standing.apply(Pass("blue"))
    standing.apply(Move("r1", "walk", path))
    assert standing.act.qualified["b1"]["los"]            # sees over the wall
    assert standing.pending == ("reaction", "blue")

    g = two(boxes=[wall])
    g.apply(Activate("r1"))
    g.apply(Crouch("blue", (("b1", True),)))
    g.apply(Move("r1", "walk", path))
    assert "b1" not in g.act.qualified                    # hidden all along: no reaction
    # no Reaction Step: the end window stands on its own (b2 may still crouch)
    assert g.pending == ("crouch", "blue") and g.act.crouch_window == "end"
    assert Crouch("blue", (("b1", False),)) not in g.legal_actions().list()   # once per sequence
    with pytest.raises(IllegalAction, match="already changed Crouched"):
        g.apply(Crouch("blue", (("b1", False),)))


def test_end_of_step_crouch_gives_light_cover_against_the_active_shot():
    g = two(rolls=[5, 5, 20, 20], b_at=(10, 17))
    g.apply(Activate("r1"))
    g.apply(Pass("blue"))
    g.apply(Move("r1", "idle"))
    assert g.pending == ("reaction", "blue") and g.act.crouch_window == "end"
    assert Crouch("blue", (("b1", True),)) in g.legal_actions().list()
    g.apply(Crouch("blue", (("b1", True),)))
    assert g.pending == ("reaction", "blue") and g.act.crouch_window is None
    g.apply(Pass("blue"))
    ev = g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 2),)))
    att = kinds(ev, "attack")[0].data
    assert att["modifiers"].get("cover") == -2                       # Crouched: Light Cover
    assert [e.data["arm"] for e in kinds(ev, "damage")] == [2, 2]    # ARM 3 halved, rounded up


def test_no_crouch_once_a_reaction_is_declared():
    g = two(b_at=(10, 17))
    g.apply(Activate("r1"))
    g.apply(Pass("blue"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    # b1 reacted; the reaction step goes on only if b2 could react: either way no crouch now
    if g.pending[0] == "reaction":
        assert not any(isinstance(a, Crouch) for a in g.legal_actions().list())
    with pytest.raises(IllegalAction):
        g.apply(Crouch("blue", (("b2", True),)))


def test_a_reactive_crouch_ends_the_engagement_it_causes():
    g = two(b_at=(10, 6.27))                  # in base contact: r1 is Engaged by b1
    g._update_engagement()
    assert "Engaged" in g.models["r1"].states
    g.apply(Activate("r1"))
    with pytest.raises(IllegalAction):        # Engaged: no Run (auto-pass checks first)
        g.apply(Move("r1", "run", ((10.0, 14.0, 0.0),)))
    assert g.pending == ("crouch", "blue")    # nothing happened
    g.apply(Crouch("blue", (("b1", True),)))
    assert "Engaged" not in g.models["r1"].states and not g.models["r1"].engaged_by
    assert g.why_illegal(Move("r1", "run", ((1.0, 5.0, 0.0),))) is None


def test_who_may_change_crouched():
    g = two(b_states=["Flying"])
    g.apply(Activate("r1"))
    assert g.why_illegal(Crouch("blue", (("b1", True),))) == \
        "a Flying model cannot voluntarily become Crouched"
    assert g.why_illegal(Crouch("blue", (("r1", True),))) == "r1 is not the reactive player's"
    assert g.why_illegal(Crouch("red", (("r1", True),))) == "it is blue's decision, not red's"
    assert g.why_illegal(Crouch("blue", (("b2", True),))) is None
    assert g.why_illegal(Crouch("blue", (("b2", False),))) == "b2 is not Crouched"
    assert g.why_illegal(Crouch("blue", ())) == "name at least one model (pass declines)"
    assert g.why_illegal(Crouch("blue", (("b2", True), ("b2", True)))) == "b2 is named twice"

    im = two(b_states=["Immobilized"])
    im.apply(Activate("r1"))
    assert "Immobilized" in im.why_illegal(Crouch("blue", (("b1", True),)))

    inc = two(b_states=["Incapacitated"])
    inc.apply(Activate("r1"))
    assert "b1" not in inc.crouch_eligible()


def test_the_ap_cost_setting_and_the_off_setting():
    g = two(settings={"crouch_reaction_ap": 1})
    g.apply(Activate("r1"))
    ap = g.models["b1"].ap
    g.apply(Crouch("blue", (("b1", True),)))
    assert g.models["b1"].ap == ap - 1
    g.models["b2"].ap = 0
    off = two(settings={"crouch_reaction": False})
    off.apply(Activate("r1"))
    assert off.pending == ("movement", "r1")


def test_no_eligible_model_no_window():
    g = two(b_states=["Immobilized"])
    g.models["b2"].states = frozenset({"Dead"})
    g.apply(Activate("r1"))
    assert g.pending == ("movement", "r1")


def test_the_next_decision_closes_a_window_as_a_logged_pass(tmp_path):
    path = tmp_path / "crouch.jsonl"
    g = two()
    g.start_log(EventLog(path))
    g.apply(Activate("r1"))
    ev = g.apply(Move("r1", "idle"))                # the active player moves on
    acts = [e.data["action"] for e in ev if e.kind == "action"]
    assert acts == ["pass blue", "move r1 idle"]
    assert kinds(ev, "crouch_reaction")[0].data["changes"] == {}
    g.log.close()
    again = _replay(path, type(g.geo)((36.0, 36.0)))
    assert again.state_dict() == g.state_dict()     # (the dice were swapped for fixed ones)


def test_a_scripted_game_with_crouches_replays_bit_for_bit(tmp_path):
    from rules.core.flat import FlatGeometry
    path = tmp_path / "g.jsonl"
    g = two(rolls=[5, 5, 20, 20], b_at=(10, 17))
    g.start_log(EventLog(path))
    g.apply(Activate("r1"))
    g.apply(Crouch("blue", (("b2", True),)))
    g.apply(Move("r1", "idle"))
    g.apply(Crouch("blue", (("b1", True),)))
    g.apply(Pass("blue"))
    g.apply(Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 2),)))
    g.log.close()
    geo = FlatGeometry((36.0, 36.0))
    again = _replay(path, geo)
    assert again.state_dict() == g.state_dict()     # (the dice were swapped for fixed ones)
    assert geo.models["b1"].height < 0.2 and geo.models["b2"].height < 0.2


def test_on_the_real_world_a_crouch_behind_the_low_wall_breaks_los():
    from tools import gameplay
    from rules.eldfall.actions import ChooseOrder
    mod, g = gameplay.new_game("scenes/ritual.yaml", "eldfall", seed=2)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == "red"))
    g.dice = Dice.fixed([])
    g.geo.place("blue-warden", (12.0, 17.9, 0.0), 270.0)     # just behind the 1" wall
    g.geo.place("red-archer", (12.0, 6.0, 0.0), 90.0)
    assert g.geo.sight("red-archer", "blue-warden").los
    g.apply(Activate("red-summoner"))
    assert g.pending == ("crouch", "blue")
    g.apply(Crouch("blue", (("blue-warden", True),)))
    assert g.geo.world.hitbox("blue-warden").height < 0.2
    assert not g.geo.sight("red-archer", "blue-warden").los
