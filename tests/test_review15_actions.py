"""Review 15 of the Eldfall rules engine against eldfall-actions.txt (the Actions page,
line by line): defects found and fixed.

Area of Effect: where the template lies.

* An Attack with a template on a model always had its template centred on the main
  target (a circle) or aimed at its centre (a spray): the attacker could not choose the
  spot, although the AoE rules bind it only by "The main target must be fully covered
  by the template" and then "All models whose Hitboxes are at least partially covered
  are affected" (two enemies side by side: the centred circle caught one, a circle
  moved toward the second catches both). ``Declare.place`` (``place=x,y,z``, Active
  Role, one main target) lays it there: a circle's centre, a spray's aim point; it is
  refused (with the reason) where the main target would not be fully covered, and the
  narration says where it lies. The legal actions offer a circle moved toward each
  enemy near enough to be caught, and the greedy bot weighs them.

The Resolution Step:

* a Dodge rolled AG against every attacker that targeted the model, even one whose
  Attack had already failed (out of range when measured, Realism measuring): an
  Immobilized model thus had a second chance ("A successful Dodge also cancels States
  that require a successful Dodge to remove (e.g. Immobilized)") from an Attack that
  never happened, and "b1 dodges vs r1" was told against a failed Attack. It now
  rolls once per attacker whose Attack is rolled ("Against multiple attackers:
  separate AG roll for each").

The play summary (``eldfall play``, ``eldfall replay --events``):

* a Dodge against an Enchantment read "b1 dodges: AG 10 -> success" and then "r1 hits
  b1 with Curse": the Spell Types table's "Enchantment ... Cannot be Dodged" was
  applied but never said. The dodge line now names the Enchantment it cannot dodge;
* a Duel accepted restored the duellists' AP to their Stamina and took every other
  model's AP away, in silence ("both dueling models' AP are restored to their Stamina
  value", "No other models may activate or react during the duel"); a summoned
  creature's AP ("immediately receives AP equal to its Stamina") was not told either.

The legal actions (``generate_actions``: the bots' list and the hotseat view's menu):

* an Assist spell with STK > 1 ("STK determines number of targets (same as Attack)")
  was only ever offered on one model: neither a bot nor a hotseat player (the view's
  split entry opens only when the rules list a declaration with several targets) could
  heal two allies at once. The Active Role now lists it on STK models together, and the
  greedy bot values an Assist by every model it targets (it heals two hurt models
  at once rather than one);
* ``why_illegal`` took an Assist naming one ally with 2 "Strikes" (``targets=r2:2``,
  what the view's split entry makes of a second click on the same ally): it was logged
  and cast once. An Assist takes each target once;
* a Trade ("May exchange any number of acquired Items") was offered only with all of
  one model's Items: a model carrying a Potion and a Rope could not hand over the Rope
  alone in the hotseat view. Each Item alone (either way) and the whole swap are listed.
"""
from __future__ import annotations

from rules.core.units import Unit, spell_dict
from rules.eldfall.actions import Activate, Declare, DuelAnswer, Move, Pass
from rules.eldfall.narrate import Summary
from tests.eldfall_scenario import BASE_STATS, SWORD, setup, unit

CURSE = spell_dict("Curse", "Enchantment", "Water", mana=0, rng=12, effect="-2 DEF", target="enemy")


def _activate_idle(g, model, reactions=()):
    """The play summary of ``model`` activated Idle, ``reactions`` declared, every other
    window passed up to its Action Step; returns (summary, lines)."""
    s = Summary()
    out = s.feed(g.apply(Activate(model)))
    while g.pending[0] == "crouch":
        out += s.feed(g.apply(Pass(g.pending[1])))
    out += s.feed(g.apply(Move(model, "idle")))
    for r in reactions:
        out += s.feed(g.apply(r))
    while g.pending[0] != "action":
        out += s.feed(g.apply(Pass(g.pending[1])))
    return s, out


def test_a_dodge_against_an_enchantment_says_the_enchantment_cannot_be_dodged():
    g = setup([unit("r1", "red", 10, 5, spells=[CURSE], affinities=["Water"]),
               unit("b1", "blue", 10, 12, facing=270)], [5] * 20)
    s, out = _activate_idle(g, "r1", [Declare("b1", "Dodge")])
    out += s.feed(g.apply(Declare("r1", "Spell Attack", spell="Curse", targets=(("b1", 1),)))) + s.close()
    dodge = next(x for x in out if "b1 dodges" in x)
    assert dodge == "    b1 dodges: AG 10 -> success (r1's Curse: an Enchantment cannot be Dodged)", out
    assert any(e[0] == "Curse" for e in g.models["b1"].enchantments)      # it still holds
    assert "    r1 hits b1 with Curse (roll 5)" in out


def test_an_accepted_duel_tells_the_ap_it_restores_and_takes_away():
    g = setup([unit("r1", "red", 10, 10), unit("b1", "blue", 10, 20, facing=270),
               unit("b2", "blue", 30, 30, facing=270)], [5] * 20)
    s, out = _activate_idle(g, "r1")
    out += s.feed(g.apply(Declare("r1", "Issue a Duel", targets=(("b1", 1),))))
    out += s.feed(g.apply(DuelAnswer("blue", True))) + s.close()
    i = out.index("  b1 accepts the Duel with r1")
    assert out[i + 1:i + 3] == [
        "    r1's AP restored to its STA: 2 AP (Duel accepted)",
        "    b2 loses its AP: no other model may activate or react during the Duel"], out
    assert (g.models["r1"].ap, g.models["b2"].ap) == (2, 0)


def test_a_summoned_creature_is_told_its_ap():
    call = spell_dict("Call", "Conjuration", "Water", mana=0, effect="summon wolf", target="self")
    # a reserve creature (extra.reserve, extra.tier) the Conjuration summons
    wolf = Unit("wolf", "red", name="wolf", stats=dict(BASE_STATS, STA=1), weapons=[SWORD],
                at=(0.0, 0.0, 0.0), facing=90.0, extra={"reserve": True, "tier": 1})
    g = setup([unit("r1", "red", 10, 10, spells=[call], affinities=["Water"]), wolf,
               unit("b1", "blue", 10, 25, facing=270)], [5] * 20)
    s, out = _activate_idle(g, "r1")
    assert g.why_illegal(Declare("r1", "Ritual", spell="Call")) is None
    out += s.feed(g.apply(Declare("r1", "Ritual", spell="Call"))) + s.close()
    i = next(k for k, x in enumerate(out) if "summons wolf" in x)
    assert out[i + 1] == "    wolf receives AP equal to its STA: 1 AP (summoned)", out
    assert g.models["wolf"].ap == 1


MEND = spell_dict("Mend", "Healing", "Water", mana=0, rng=12, effect="regains 1 HP", target="ally", stk=2)


def _healer():
    g = setup([unit("r1", "red", 10, 5, spells=[MEND], affinities=["Water"]),
               unit("r2", "red", 13, 5), unit("b1", "blue", 10, 25, facing=270)], [5] * 20)
    g.models["r1"].hp = g.models["r2"].hp = 1
    _activate_idle(g, "r1")
    return g


def test_an_assist_with_stk_2_is_offered_on_two_models_at_once():
    g = _healer()
    both = Declare("r1", "Assist", spell="Mend", targets=(("r1", 1), ("r2", 1)))
    assert both in list(g.generate_actions()), [str(a) for a in g.generate_actions()]
    g.apply(both)
    assert (g.models["r1"].hp, g.models["r2"].hp) == (2, 2)


def test_the_greedy_bot_heals_two_hurt_models_at_once():
    from rules.eldfall.bots import GreedyBot
    g = _healer()
    a = GreedyBot(1).choose(g)
    assert a == Declare("r1", "Assist", spell="Mend", targets=(("r1", 1), ("r2", 1))), str(a)


def test_an_assist_names_each_target_once():
    g = _healer()
    twice = Declare("r1", "Assist", spell="Mend", targets=(("r2", 2),))
    assert "each target once" in (g.why_illegal(twice) or ""), g.why_illegal(twice)


def test_a_trade_of_one_item_of_several_is_offered():
    g = setup([unit("r1", "red", 10, 10), unit("r2", "red", 11.26, 10),
               unit("b1", "blue", 10, 30, facing=270)], [5] * 20)
    g.models["r1"].items, g.models["r2"].items = ("Potion", "Rope"), ("Key",)
    _activate_idle(g, "r1")
    offered = {a.items for a in g.generate_actions() if a.action == "Trade"}
    assert {("Rope",), ("Potion",), ("Key",), ("Potion", "Rope", "Key")} <= offered, offered
    g.apply(Declare("r1", "Trade", targets=(("r2", 1),), items=("Rope",)))
    assert (g.models["r1"].items, g.models["r2"].items) == (("Potion",), ("Key", "Rope"))


def test_a_dodge_rolls_no_die_against_an_attack_that_failed():
    from tests.eldfall_scenario import BOW
    # b1 (Immobilized) activates; r1 shoots from beyond the Bow's last band (Realism:
    # declared unmeasured, it fails), r2 from 8" away; b1 Dodges
    g = setup([unit("b1", "blue", 10, 30, facing=270), unit("r1", "red", 10, 3, weapons=[BOW]),
               unit("r2", "red", 12, 22, weapons=[BOW])],
              [5, 15, 5, 20, 20, 20], settings={"measuring": "realism"}, first="blue")
    g.add_state("b1", "Immobilized", "test")
    _activate_idle(g, "b1", [Declare("r1", "Ranged Attack", weapon="Bow", targets=(("b1", 1),)),
                             Declare("r2", "Ranged Attack", weapon="Bow", targets=(("b1", 1),))])
    g.apply(Declare("b1", "Dodge"))
    attacks = {e.data["attacker"]: e.data["failed"] for e in g.events if e.kind == "attack"}
    assert attacks["r1"] and not attacks["r2"], attacks
    dodges = [e.data for e in g.events if e.kind == "dodge"]
    assert [d["against"] for d in dodges] == ["r2"], dodges      # r2's roll 5, then AG: 15
    assert not dodges[0]["die"]["success"]
    assert "Immobilized" in g.models["b1"].states               # no second chance vs r1


BALL = spell_dict("Fireball", "Sorcery", "Water", mana=0, pw=10, rng=12, template="circle-s")


def _fireball_pair():
    """r1 with a Circular S spell; b1 and b2 side by side 2.1" apart (centre to centre)."""
    g = setup([unit("r1", "red", 10, 5, spells=[BALL], affinities=["Water"]),
               unit("b1", "blue", 10, 12, facing=270), unit("b2", "blue", 12.1, 12, facing=270)],
              [5] * 20)
    return g, _activate_idle(g, "r1")


def test_the_attacker_lays_the_template_where_it_covers_the_main_target():
    from rules.eldfall.actions import Action
    g, (s, out) = _fireball_pair()
    placed = Declare("r1", "Spell Attack", spell="Fireball", targets=(("b1", 1),), place=(10.7, 12, 0))
    assert Action.parse(str(placed)) == placed and "place=10.7,12.0,0.0" in str(placed)
    assert g.why_illegal(placed) is None
    off = Declare("r1", "Spell Attack", spell="Fireball", targets=(("b1", 1),), place=(11.5, 12, 0))
    assert "not fully covered" in (g.why_illegal(off) or ""), g.why_illegal(off)
    for bad, why in [(Declare("r1", "Dodge", place=(10.7, 12, 0)), "place= is for an Attack"),
                     (Declare("r1", "Spell Attack", spell="Fireball", targets=(("b1", 1),),
                              place=(99, 12, 0)), "off the 36x36 table")]:
        assert why in (g.why_illegal(bad) or ""), g.why_illegal(bad)
    out += s.feed(g.apply(placed)) + s.close()
    assert "  r1 declares: Spell Attack [Fireball] at b1, its template laid at (10.7, 12.0)" in out, out
    assert {e.data["model"] for e in g.events if e.kind == "hit"} == {"b1", "b2"}


def test_a_template_centred_on_the_target_catches_only_it():
    g, (s, out) = _fireball_pair()
    g.apply(Declare("r1", "Spell Attack", spell="Fireball", targets=(("b1", 1),)))
    assert {e.data["model"] for e in g.events if e.kind == "hit"} == {"b1"}


def test_a_weapon_without_a_template_takes_no_place():
    g = setup([unit("r1", "red", 10, 10), unit("b1", "blue", 10, 11.26, facing=270)], [5] * 20)
    _activate_idle(g, "r1")
    d = Declare("r1", "Melee Attack", weapon="Sword", targets=(("b1", 1),), place=(10, 11.3, 0))
    assert "has no template" in (g.why_illegal(d) or ""), g.why_illegal(d)


def test_the_legal_actions_and_the_greedy_bot_move_the_circle_to_catch_two():
    from rules.eldfall.bots import GreedyBot
    g, _ = _fireball_pair()
    placed = [a for a in g.generate_actions() if getattr(a, "place", None) is not None]
    assert placed and all(g.why_illegal(a) is None for a in placed)
    assert any(a.target_ids == ("b1",) and a.place[0] > 10.5 for a in placed), [str(a) for a in placed]
    best = GreedyBot(1).choose(g)
    assert best.place is not None, str(best)


def test_the_placed_template_on_the_real_engine():
    from rules.eldfall.actions import Pass as P
    from tests.eldfall_scenario import engine_game
    pos = {"r1": ("red", 10, 5, 90), "b1": ("blue", 10, 12, 270), "b2": ("blue", 12.1, 12, 270)}
    g = engine_game(pos, [])
    g.models["r1"].unit.spells.append(BALL)
    g.models["r1"].unit.affinities.append("Water")
    g.apply(Activate("r1"))
    while g.pending[0] == "crouch":
        g.apply(P(g.pending[1]))
    g.apply(Move("r1", "idle"))
    while g.pending[0] != "action":
        g.apply(P(g.pending[1]))
    placed = Declare("r1", "Spell Attack", spell="Fireball", targets=(("b1", 1),), place=(10.7, 12, 0))
    assert g.why_illegal(placed) is None
    off = Declare("r1", "Spell Attack", spell="Fireball", targets=(("b1", 1),), place=(11.6, 12, 0))
    assert "fully" in (g.why_illegal(off) or ""), g.why_illegal(off)
    from rules.core.dice import Dice
    g.dice = Dice.fixed([5] * 20)
    g.apply(placed)
    assert {e.data["model"] for e in g.events if e.kind == "hit"} == {"b1", "b2"}
