"""Hidden Item and Spell tokens: Perceive, Uncover, Interact (eldfall-actions.txt)."""
import pytest

from rules.core.dice import Dice
from rules.core.errors import IllegalAction
from rules.core.flat import FlatGeometry
from rules.core.log import EventLog, read_log
from rules.core.units import spell_dict
from rules.eldfall.actions import Activate, ChooseOrder, Declare, DuelAnswer, EndTurn, Move, Pass
from rules.eldfall.sequence import EldfallGame
from tests.eldfall_scenario import SWORD, kinds, unit

SNARE = spell_dict("Rune Snare", "Transmutation", "Earth", 1, target="self",
                   effect="A rune hidden on the ground.")
R = 25.0 / 25.4 / 2          # a token's radius (a Small base)
B = 32 / 25.4 / 2            # a Medium model's base radius


def tok(id, side, x, y, kind="item", hidden=True, **kw):
    d = {"id": id, "kind": kind, "side": side, "at": [x, y], "hidden": hidden}
    d.update(kw)
    return d


def game(units, tokens, rolls=(), boxes=(), first="red", settings=None):
    geo = FlatGeometry((36, 36), boxes=boxes)
    for u in units:
        geo.add_model(u, u.at, u.facing)
    g = EldfallGame(units, geo, seed=1, settings=settings,
                    scene_info={"table": [36, 36], "tokens": tokens})
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    g.dice = Dice.fixed(list(rolls))
    return g


def red_and_blue(**kw):
    r = unit("r1", "red", 10, 5, **kw)
    b = unit("b1", "blue", 30, 33, facing=90.0)          # far, looking away: never reacts
    return [r, b]


def act(g, model, move=None):
    g.apply(Activate(model))
    g.apply(move or Move(model, "idle"))                 # closes a Crouched window as a Pass
    while g.pending[0] in ("reaction", "crouch"):        # no reactions, no crouching
        g.apply(Pass(g.pending[1]))


def perceive(model, target):
    return Declare(model, "Perceive", targets=((target, 1),))


def test_perceive_reveals_a_hidden_enemy_item_on_a_success():
    g = game(red_and_blue(), [tok("cache", "blue", 10, 9, item="Healing Draught")], rolls=[5])
    act(g, "r1")
    assert perceive("r1", "cache") in g.legal_actions().list()
    ev = g.apply(perceive("r1", "cache"))
    chk = kinds(ev, "check")[0].data
    assert chk["check"] == "Perceive" and chk["target"] == "cache" and chk["die"]["target"] == 12
    t = kinds(ev, "token")[0].data
    assert t["event"] == "revealed" and t["by"] == "r1" and t["how"] == "Perceive"
    assert not g.tokens["cache"].hidden
    assert {"id": "cache", "hidden": False}.items() <= g.state_dict()["tokens"][0].items()


def test_perceive_fails_on_a_roll_over_int():
    g = game(red_and_blue(), [tok("cache", "blue", 10, 9)], rolls=[13])
    act(g, "r1")
    ev = g.apply(perceive("r1", "cache"))
    assert not kinds(ev, "token") and g.tokens["cache"].hidden


@pytest.mark.parametrize("token,boxes,why", [
    (tok("t", "blue", 10, 20), (), "not within r1's Awareness"),
    (tok("t", "blue", 10, 2.5), (), "no LoS to t"),                           # behind it
    (tok("t", "blue", 10, 10), [("wall", 8, 7, 12, 7.5, 2.5)], "no LoS to t"),   # behind a wall
    (tok("t", "red", 10, 9), (), "own token"),
    (tok("t", "blue", 10, 9, hidden=False), (), "not hidden"),
])
def test_perceive_needs_a_hidden_enemy_token_in_awareness_and_sight(token, boxes, why):
    g = game(red_and_blue(), [token], boxes=boxes)
    act(g, "r1")
    assert why in g.why_illegal(perceive("r1", "t"))
    assert perceive("r1", "t") not in g.legal_actions().list()


def test_a_reaction_cannot_perceive_a_token():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 10, 12)                     # sees r1, reacts
    g = game([r, b], [tok("t", "red", 11, 11)])
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    assert g.pending[0] == "reaction"
    why = g.why_illegal(perceive("b1", "t"))       # a Reaction reveals only the activated model
    assert why and ("activated model" in why.lower())
    assert perceive("b1", "t") not in g.legal_actions().list()


def test_uncover_reveals_every_hidden_enemy_token_and_shrouded_model_in_awareness():
    r = unit("r1", "red", 10, 5)
    b = unit("b1", "blue", 30, 33, facing=90.0)
    s = unit("b2", "blue", 4, 5, states=["Shrouded"])        # behind r1's back: no LoS needed
    toks = [tok("near", "blue", 10, 2), tok("spell", "blue", 16, 5, kind="spell", spell="Rune Snare",
                                                caster="b1"),
            tok("far", "blue", 10, 25), tok("mine", "red", 12, 5)]
    b.spells = [SNARE]
    g = game([r, b, s], toks, rolls=[6])                     # INT 12 halved: 6
    act(g, "r1")
    ev = g.apply(Declare("r1", "Uncover"))
    chk = [e.data for e in kinds(ev, "check") if e.data["check"] == "Uncover"][0]
    assert chk["die"]["target"] == 6 and chk["tokens"] == ["near", "spell"] and chk["hidden"] == ["b2"]
    assert not g.tokens["near"].hidden and not g.tokens["spell"].hidden
    assert g.tokens["far"].hidden and g.tokens["mine"].hidden
    assert "Shrouded" not in g.models["b2"].states


def test_uncover_that_fails_reveals_nothing():
    g = game(red_and_blue(), [tok("near", "blue", 10, 2)], rolls=[7])
    act(g, "r1")
    g.apply(Declare("r1", "Uncover"))
    assert g.tokens["near"].hidden


def interact(model, token):
    return Declare(model, "Interact", objective=token)


def test_a_revealed_item_is_picked_up_in_base_contact():
    y = 5 + B + R                                          # the token's disc touches the base
    toks = [tok("cache", "blue", 10, y, item="Healing Draught"), tok("far", "blue", 10, y + 1.0,
                                                                     hidden=False)]
    g = game(red_and_blue(), toks, rolls=[3])
    act(g, "r1")
    assert "hidden: reveal it first" in g.why_illegal(interact("r1", "cache"))
    assert "not in Base Contact" in g.why_illegal(interact("r1", "far"))
    assert interact("r1", "cache") not in g.legal_actions().list()
    g.apply(perceive("r1", "cache"))
    act(g, "r1")
    assert interact("r1", "cache") in g.legal_actions().list()
    ev = g.apply(interact("r1", "cache"))
    assert kinds(ev, "token")[0].data["event"] == "picked up"
    assert g.models["r1"].items == ("Healing Draught",)
    assert g.tokens["cache"].removed and g.tokens["cache"].by == "r1"


def test_its_owner_may_pick_up_its_own_hidden_item():
    b = unit("b1", "blue", 10, 20)
    r = unit("r1", "red", 30, 3, facing=270.0)
    g = game([r, b], [tok("cache", "blue", 10, 20 + B + R)], first="blue")
    act(g, "b1")
    ev = g.apply(interact("b1", "cache"))
    assert [e.data["event"] for e in kinds(ev, "token")] == ["revealed", "picked up"]
    assert g.models["b1"].items == ("cache",)              # no item name given: the id


def test_an_enemy_removes_a_revealed_spell_token_its_caster_cannot():
    r = unit("r1", "red", 10, 5)
    r.spells = [SNARE]
    b = unit("b1", "blue", 10, 20)
    t = tok("snare", "red", 10, 20 - B - R, kind="spell", spell="Rune Snare", caster="r1")
    g = game([r, b], [t], rolls=[4], first="blue")
    act(g, "b1")
    assert "hidden: reveal it first" in g.why_illegal(interact("b1", "snare"))
    g.apply(perceive("b1", "snare"))
    act(g, "b1")
    ev = g.apply(interact("b1", "snare"))
    d = kinds(ev, "token")[0].data
    assert d["event"] == "destroyed" and d["spell"] == "Rune Snare" and d["caster"] == "r1"
    assert g.tokens["snare"].removed and g.models["b1"].items == ()
    g2 = game([r, b], [dict(t, hidden=False, at=[10, 5 + B + R])])
    act(g2, "r1")
    assert "only an enemy removes it" in g2.why_illegal(interact("r1", "snare"))


def test_bad_tokens_in_a_header_are_refused():
    with pytest.raises(ValueError, match="used twice"):
        game(red_and_blue(), [tok("r1", "blue", 10, 9)])
    with pytest.raises(ValueError, match="side"):
        game(red_and_blue(), [tok("t", "green", 10, 9)])
    with pytest.raises(ValueError, match="caster"):
        game(red_and_blue(), [tok("t", "blue", 10, 9, kind="spell", spell="Rune Snare", caster="r1")])


def test_tokens_travel_in_the_log_and_replay(tmp_path):
    path = tmp_path / "tokens.jsonl"
    g = game(red_and_blue(), [tok("cache", "blue", 10, 5 + B + R, item="Draught")], rolls=[2])
    g.start_log(EventLog(path))
    act(g, "r1")
    g.apply(perceive("r1", "cache"))
    act(g, "r1")
    g.apply(interact("r1", "cache"))
    g.log.close()
    header, events, _ = read_log(path)
    assert header["scene"]["tokens"][0]["id"] == "cache"
    geo = FlatGeometry((36, 36))
    rolls = [e["data"]["value"] for e in events if e["kind"] == "roll"]
    again = EldfallGame.replay(header, events, geo, check=True, dice=Dice.fixed(rolls))
    assert again.state_dict() == g.state_dict()
    assert again.tokens["cache"].removed and again.models["r1"].items == ("Draught",)


# ---------------------------------------------------------------- the real World
def ritual(first):
    from tools import gameplay
    mod, g = gameplay.new_game("scenes/ritual.yaml", "eldfall", seed=4)
    w = g.pending[1]
    g.apply(ChooseOrder(w, w == first))
    return g


def test_ritual_scene_tokens_lie_on_the_table():
    g = ritual("red")
    assert set(g.tokens) == {"red-snare", "blue-cache", "old-relic"}
    assert g.tokens["red-snare"].at == (12.0, 12.0, 0.0) and g.tokens["red-snare"].hidden
    assert g.tokens["old-relic"].hidden is False
    assert abs(g.tokens["blue-cache"].radius - R) < 1e-9


def test_on_the_world_a_standing_stone_hides_the_snare_from_perceive_but_not_from_uncover():
    g = ritual("blue")
    g.geo.place("blue-warden", (6.0, 12.0, 0.0), 0.0)        # the west stone between
    g.dice = Dice.fixed([1, 1])
    act(g, "blue-warden")
    assert g.geo.point_in_awareness("blue-warden", g.tokens["red-snare"].at, R)
    assert not g.geo.point_sight("blue-warden", g.tokens["red-snare"].at, R)
    assert g.why_illegal(perceive("blue-warden", "red-snare")) == "no LoS to red-snare"
    ev = g.apply(Declare("blue-warden", "Uncover"))
    assert [e.data["token"] for e in kinds(ev, "token")] == ["red-snare"]
    assert not g.tokens["red-snare"].hidden


def test_on_the_world_perceive_in_sight():
    g = ritual("blue")
    g.geo.place("blue-marksman", (12.0, 9.0, 0.0), 90.0)       # looking at the snare, 3" off
    g.dice = Dice.fixed([2])
    act(g, "blue-marksman")
    assert g.geo.point_sight("blue-marksman", g.tokens["red-snare"].at, R)
    g.apply(perceive("blue-marksman", "red-snare"))
    assert not g.tokens["red-snare"].hidden
    g.geo.set_facing("blue-marksman", 270.0)                 # turned away: out of its Front arc
    assert not g.geo.point_sight("blue-marksman", g.tokens["red-snare"].at, R)
    # the Tide Warden has Vigilance (360 degrees): turned away, it still sees the token
    g.geo.place("blue-warden", (14.0, 9.0, 0.0), 270.0)
    assert g.geo.point_sight("blue-warden", g.tokens["red-snare"].at, R)


def test_a_duellist_may_perceive_a_token_without_interfering():
    # a token is no model: naming it during a duel is neither interference nor an error
    us = [unit("r1", "red", 10, 5), unit("b1", "blue", 10, 8, facing=270.0),
          unit("b2", "blue", 30, 33, facing=90.0)]
    g = game(us, [tok("cache", "blue", 12, 7, item="Healing Draught")], rolls=[5, 5, 5, 5])
    act(g, "r1")
    g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),)))
    g.apply(DuelAnswer("blue", True))
    act(g, "r1")
    assert perceive("r1", "cache") in g.legal_actions().list()
    g.apply(perceive("r1", "cache"))
    assert g.duel is not None and not g.is_over          # the duel goes on
    assert not g.tokens["cache"].hidden
