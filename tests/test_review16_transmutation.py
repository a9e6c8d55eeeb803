"""Review 16: casting a Transmutation lays its token; a State given by two sources;
the Reaction Step's words.

* eldfall-actions.txt, Spell Types: "Transmutation || Permanent || Active only ||
  Affects the environment. Remains on the field until removed or destroyed." A
  successful cast lays a hidden spell token of the caster's side where the caster
  chooses (within the spell's range; in Base Contact when it has none); before, the
  cast spent mana, rolled and left nothing.
* eldfall-states.txt, Weakened: "Next Strategic Phase (Weak Poison); specific
  abilities": a State given again by a source that lasts longer lasts as long as it.
* A reaction without LoS is offered no Attack: the words name no Attack of
  Opportunity then.
"""
from __future__ import annotations

import math

import pytest

from rules.core.dice import Dice
from rules.core.flat import FlatGeometry
from rules.core.log import EventLog, read_log
from rules.core.units import spell_dict
from rules.eldfall import narrate
from rules.eldfall import tokens as tk
from rules.eldfall.actions import Declare, Pass
from rules.eldfall.bots import GreedyBot, RandomBot
from rules.eldfall.sequence import EldfallGame
from tests.eldfall_scenario import at_action, kinds, setup, unit

SNARE = spell_dict("Rune Snare", "Transmutation", "Earth", 1, target="self",
                   effect="A rune hidden on the ground.")
WARD = spell_dict("Stone Ward", "Transmutation", "Earth", 0, rng=6, target="self")
R = tk.DEFAULT_BASE_MM / tk.MM_PER_INCH / 2        # a token's radius
B = 32 / 25.4 / 2                                    # a Medium base's radius


def caster(x=10, y=5, spells=(SNARE,), **kw):
    u = unit("r1", "red", x, y, affinities=["Earth"], **kw)
    u.spells = list(spells)
    return u


def cast_game(rolls=(), spells=(SNARE,), blue=(30, 33), facing=90.0):
    r = caster(spells=spells)
    b = unit("b1", "blue", *blue, facing=facing)       # far, looking away: never reacts
    g = setup([r, b], [])
    at_action(g)
    assert g.models["r1"].mana >= 1                      # gained by the AP it spent
    g.dice = Dice.fixed(list(rolls))
    return g


def snare_at(p, spell="Rune Snare"):
    return Declare("r1", "Assist", spell=spell, place=p)


def front(g):
    """The token's spot in Base Contact straight in front of r1."""
    from rules.eldfall import spells as sp
    return sp.contact_spot(g, "r1", g.geo.facing("r1"))


# ---------------------------------------------------------------- the cast
def test_a_successful_cast_lays_a_hidden_token_of_the_casters_side_in_base_contact():
    g = cast_game(rolls=[4])
    legal = [a for a in g.legal_actions().list() if a.action == "Assist"]
    # offered as placements (no model named), in Base Contact in front first
    assert legal and all(a.place is not None and not a.targets for a in legal)
    p = legal[0].place
    assert p == front(g) and p[1] > 5
    mana = g.models["r1"].mana
    ev = g.apply(legal[0])
    assert g.models["r1"].mana == mana - 1                         # its mana paid
    assert kinds(ev, "check")[0].data["check"] == "cast Rune Snare"
    placed = [e.data for e in kinds(ev, "token")]
    assert [d["event"] for d in placed] == ["placed"]
    t = g.tokens[placed[0]["token"]]
    assert (t.kind, t.side, t.spell, t.caster, t.hidden) == ("spell", "red", "Rune Snare", "r1", True)
    assert t.id == "r1-rune-snare-1" and tk.in_contact(g, "r1", t)
    assert t.at == pytest.approx(p)
    # narration: the declaration and the token
    lines = narrate.narrate(ev)
    assert any("Assist [Rune Snare], its token laid at (10.0, 6.1)" in ln for ln in lines), lines
    assert any("spell token r1-rune-snare-1 (Rune Snare) placed by r1 at (10.0, 6.1), hidden" in ln
               for ln in lines), lines
    assert "r1-rune-snare-1 spell token, hidden" in g.summary()


def test_a_failed_cast_pays_its_mana_and_lays_nothing():
    g = cast_game(rolls=[20])
    mana = g.models["r1"].mana
    ev = g.apply(snare_at(front(g)))
    assert g.models["r1"].mana == mana - 1 and not kinds(ev, "token") and list(g.tokens) == []


def test_where_the_token_may_lie():
    g = cast_game()
    ok = front(g)
    assert g.why_illegal(snare_at(ok)) is None
    why = g.why_illegal(Declare("r1", "Assist", spell="Rune Snare"))
    assert "place=x,y,z names where its token lies" in why
    why = g.why_illegal(Declare("r1", "Assist", spell="Rune Snare", targets=(("r1", 1),), place=ok))
    assert "it targets no model" in why
    # no range: in Base Contact only
    why = g.why_illegal(snare_at((10.0, 8.0, 0.0)))
    assert "has no range: its token lies in Base Contact with r1" in why
    assert "under r1's base" in g.why_illegal(snare_at((10.0, 5.5, 0.0)))
    assert "not on the surface" in g.why_illegal(snare_at((ok[0], ok[1], 2.0)))
    assert "lays no template" in g.why_illegal(
        Declare("r1", "Dodge", place=ok))
    # with a range: anywhere within it (the token's edge), in LoS or the Casting Aura
    g = cast_game(spells=(WARD,))
    near = (10.0, 5 + B + 5.5 + R, 0.0)
    far = (10.0, 5 + B + 6.5 + R, 0.0)
    assert g.why_illegal(snare_at(near, "Stone Ward")) is None
    assert "out of range" in g.why_illegal(snare_at(far, "Stone Ward"))
    behind = (14.0, 3.0, 0.0)                  # out of its Front arc: no LoS
    assert g.why_illegal(snare_at(behind, "Stone Ward")) is None        # inside the Casting Aura
    g.geo.models["r1"].awareness = 2.0
    assert "no LoS to (14, 3), and it is not inside r1's Casting Aura" in \
        g.why_illegal(snare_at(behind, "Stone Ward"))
    legal = [a for a in g.legal_actions().list() if a.action == "Assist"]
    assert any(math.dist(a.place[:2], (10, 5)) > 5 for a in legal)     # at range too


def test_a_transmutation_aimed_at_an_enemy_is_no_attack():
    glyph = spell_dict("Glyph", "Transmutation", "Earth", 0, rng=12, target="enemy")
    g = cast_game(spells=(glyph,), blue=(10, 12), facing=270.0)
    legal = [a for a in g.legal_actions().list() if a.spell == "Glyph"]
    assert legal and all(a.action == "Assist" and a.place is not None for a in legal)
    why = g.why_illegal(Declare("r1", "Spell Attack", spell="Glyph", targets=(("b1", 1),)))
    assert why == "Glyph is a Transmutation: cast it as an Assist that lays its token (place=x,y,z)"


def test_the_enemy_perceives_a_laid_token():
    g = cast_game(rolls=[4], blue=(10, 9), facing=270.0)
    g.apply(snare_at(front(g)))
    tid = "r1-rune-snare-1"
    # blue's turn: its model Perceives the token (an enemy's hidden spell token)
    for _ in range(6):
        if g.pending == ("tactical", "blue"):
            break
        g.apply(g.legal_actions().list()[-1] if g.pending[0] == "tactical" else Pass(g.pending[1]))
    g.dice = Dice.fixed([3])
    at_action(g, "b1")
    assert Declare("b1", "Perceive", targets=((tid, 1),)) in g.legal_actions().list()
    ev = g.apply(Declare("b1", "Perceive", targets=((tid, 1),)))
    assert [e.data["event"] for e in kinds(ev, "token")] == ["revealed"]


def test_no_transmutation_in_the_reactive_role():
    r = caster()
    b = unit("b1", "blue", 10, 9)
    g = setup([r, b], [], first="blue")
    g.models["r1"].mana = 3
    from rules.eldfall.actions import Activate, Move
    g.apply(Activate("b1"))
    g.apply(Move("b1", "idle"))
    while g.pending[0] == "crouch":
        g.apply(Pass(g.pending[1]))
    assert g.pending == ("reaction", "red")
    assert not [a for a in g.legal_actions().list() if getattr(a, "spell", None) == "Rune Snare"]
    why = g.why_illegal(Declare("r1", "Assist", spell="Rune Snare", place=(10.0, 5 + B + R, 0.0)))
    assert "Active Role only" in why


def test_the_cast_replays_and_undoes(tmp_path):
    path = tmp_path / "t.jsonl"
    g = cast_game(rolls=[4])
    before = g.state_dict()
    g.start_log(EventLog(path))
    g.apply(snare_at(front(g)))
    g.log.close()
    header, events, _ = read_log(path)
    assert not header["scene"].get("tokens")                       # the header holds no cast token

    def replay(evs):
        geo = FlatGeometry((36, 36))
        rolls = [e["data"]["value"] for e in evs if e["kind"] == "roll"]
        return EldfallGame.replay(header, evs, geo, check=True, dice=Dice.fixed(rolls))
    again = replay(events)
    assert again.state_dict() == g.state_dict() and "r1-rune-snare-1" in again.tokens
    # undo (the log up to the cast): no token, the state as it was
    k = next(i for i, e in enumerate(events) if e["kind"] == "action" and "Rune Snare" in e["data"]["action"])
    undone = replay(events[:k])
    assert undone.state_dict() == before and not undone.tokens


# ---------------------------------------------------------------- the bots
def test_the_greedy_bot_lays_one_snare_and_prefers_an_attack():
    g = cast_game(rolls=[4] * 6)
    d = GreedyBot(1).choose(g)
    assert d.action == "Assist" and d.place is not None         # nothing better to do
    g.apply(d)
    assert GreedyBot._action_value(g, "r1", snare_at(front(g)), True) == 0.0    # one is enough
    # an enemy in reach: the attack, not the snare
    g = cast_game(rolls=[4] * 6, blue=(10, 5 + 2 * B + 0.5))
    d = GreedyBot(1).choose(g)
    assert d.action == "Melee Attack", d


def test_the_random_bot_draws_the_placements_together():
    g = cast_game()
    bot = RandomBot(3)
    opts = g.legal_actions().list()
    n = sum(1 for a in opts if getattr(a, "place", None) is not None)
    assert n >= 4
    picks = [bot.choose(g) for _ in range(200)]
    share = sum(1 for a in picks if getattr(a, "place", None) is not None) / len(picks)
    others = len(opts) - n + 1
    assert share < 3.0 / others, (share, others)        # about 1 in `others`, not n of them


# ---------------------------------------------------------------- a State from two sources
def _weak_game():
    g = setup([unit("r1", "red", 10, 5), unit("b1", "blue", 30, 33, facing=90.0)], [])
    return g


def test_a_lasting_source_keeps_a_state_past_the_first_sources_end():
    g = _weak_game()
    g.add_state("r1", "Weakened", "Poison I", expiry="strategic")
    g.add_state("r1", "Weakened", "Recovery Check")              # no end: until removed
    assert "Weakened" not in g.models["r1"].expiry
    g._strategic("red")
    assert "Weakened" in g.models["r1"].states


def test_a_sequence_state_given_again_until_the_strategic_phase_outlasts_the_sequence():
    g = _weak_game()
    at_action(g)
    g.add_state("r1", "Weakened", "Sorcery", expiry="sequence")
    g.add_state("r1", "Weakened", "Poison I", expiry="strategic")
    assert g.models["r1"].expiry["Weakened"] == ("sequence", "strategic")
    g.apply(Declare("r1", "Nothing"))                            # the sequence ends
    m = g.models["r1"]
    assert "Weakened" in m.states and m.expiry["Weakened"] == "strategic"
    g._strategic("red")
    assert "Weakened" not in m.states and "Weakened" not in m.expiry


def test_one_source_given_twice_and_a_lasting_state_keep_their_marks():
    g = _weak_game()
    g.add_state("r1", "Weakened", "Poison I", expiry="strategic")
    g.add_state("r1", "Weakened", "Poison I", expiry="strategic")
    assert g.models["r1"].expiry["Weakened"] == "strategic"
    g.add_state("r1", "Slowed", "scene")
    g.add_state("r1", "Slowed", "Sorcery", expiry="sequence")
    assert "Slowed" not in g.models["r1"].expiry                # lasting already


# ---------------------------------------------------------------- the Reaction Step's words
def test_no_attack_of_opportunity_is_offered_without_los():
    from rules.core.game import Event
    q = {"b1": {"los": False, "aware": True, "opportunity": True},
         "b2": {"los": True, "aware": True, "opportunity": True}}
    s = narrate.line(Event("reaction_step", {"mover": "r1", "qualified": q}))
    assert s == ("  may react to r1: b1 (no LoS, in its Awareness), "
                 "b2 (LoS, Attack of Opportunity)"), s


# ---------------------------------------------------------------- the hotseat view
def test_the_hotseat_lays_the_token_where_the_ground_is_clicked_and_draws_it(view_app, tmp_path):
    pytest.importorskip("panda3d")
    import os
    from tools.cmd_view import load_world
    from view_fixtures import ROOT, at_action_step, menu_key, press
    world = load_world(os.path.join(ROOT, "scenes", "ritual.yaml"))
    c = at_action_step(view_app, world, None, tmp_path, "red-summoner")
    try:
        g, layer = c.game, c.table.tokens
        g.dice = Dice.fixed([2])
        key = menu_key(c, "Assist [Rune Snare] -> click the ground")
        assert press(view_app, key) == "target" and c.token_place
        x, y, z = g.geo.position("red-summoner")
        aim = (x + 3.0, y, 0.0)                  # to its right: the token in Base Contact there
        events = press(view_app, "mouse1", pixel=view_app.project(aim))
        placed = [e.data for e in events or () if e.kind == "token"]
        assert placed and placed[0]["event"] == "placed", (events, c.message)
        tid = placed[0]["token"]
        t = g.tokens[tid]
        assert t.side == "red" and t.hidden and tk.in_contact(g, "red-summoner", t)
        assert t.at[0] > x + 0.5 and abs(t.at[1] - y) < 0.05           # toward the click
        # drawn mid-game: a muted disc with "?", where the game has it
        assert tid in layer.ids() and layer.label_text(tid) == "?"
        assert layer.looks[tid].at == pytest.approx(t.at)
        press(view_app, "control-z")                 # undo: the game before the cast
        assert tid not in c.game.tokens and tid not in layer.ids()
        assert c.game.pending == ("action", "red-summoner")
    finally:
        c.close()
