"""Session 11 review of the Eldfall actions against the user's pages
(seeds/eldfall-actions.txt, eldfall-states.txt, shared/rules/eldfall-facts.md):
each test plays a position through the public API and checks one rule sentence."""
from rules.core.units import spell_dict
from rules.eldfall.actions import Declare
from tests.eldfall_scenario import kinds, setup, to_action, unit

BASE = 32 / 25.4                     # a Medium base, inches

# a Melee-Type spell: "Requires a Melee Weapon or a Melee-Type Spell within Reach"
TOUCH = spell_dict("Touch", "Sorcery", "Fire", 0, pw=12, stk=2, rng=1, melee=True)
HEX = spell_dict("Hex", "Enchantment", "Fire", 0, rng=12, effect="-2 DEF")


def _caster(*spells, **kw):
    u = unit("r1", "red", 10, 10, weapons=[], affinities=["Fire"], stats=dict(STA=3), **kw)
    u.spells = list(spells)
    return u


# --- a Melee-Type Spell's Attack is a Melee Attack ---------------------------------
def test_a_melee_spell_cannot_target_a_flying_model_from_the_ground():
    # States, Flying: "Cannot be targeted by Melee Attacks -- except by models also
    # in the Flying State"; a Sword cannot, so neither can a melee-type spell
    g = setup([_caster(TOUCH), unit("b1", "blue", 10, 10 + BASE + 0.5, states=["Flying"])], [5] * 10)
    to_action(g, "r1")
    why = g.why_illegal(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 1),)))
    assert "cannot be targeted by Melee Attacks" in (why or "")
    # a Flying caster may
    g = setup([_caster(TOUCH, states=["Flying"]),
               unit("b1", "blue", 10, 10 + BASE + 0.5, states=["Flying"])], [5] * 10)
    to_action(g, "r1")
    assert g.why_illegal(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 1),))) is None


def test_a_flying_caster_strikes_once_with_a_melee_spell():
    # States, Flying: "Has Melee Attack Strike value of 1 (cannot be increased)"
    g = setup([_caster(TOUCH, states=["Flying"]), unit("b1", "blue", 10, 10 + BASE + 0.5)], [5] * 10)
    to_action(g, "r1")
    why = g.why_illegal(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 2),)))
    assert why == "2 Strikes declared, STK is 1"
    assert g.why_illegal(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 1),))) is None
    # on foot the spell's STK 2 stands
    g = setup([_caster(TOUCH), unit("b1", "blue", 10, 10 + BASE + 0.5)], [5] * 10)
    to_action(g, "r1")
    assert g.why_illegal(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 2),))) is None


def test_a_melee_spell_reaches_through_the_casting_aura_at_half_the_attribute():
    # facts, Reach: "In the Active Role a caster may target a model inside its Aura
    # without LoS, at a halved casting attribute" -- every spell, a Melee-Type one
    # too (ruling "Spell effects": "for Spell Attacks and Assist spells alike").
    # b1 stands in Reach behind r1 (both face away: no one is Engaged): no LoS,
    # inside r1's Awareness
    g = setup([_caster(TOUCH, facing=270), unit("b1", "blue", 10, 10 + BASE + 0.5, facing=90)],
              [5] * 10)
    assert not g.has_los("r1", "b1") and g.geo.in_awareness("r1", "b1")
    to_action(g, "r1")
    d = Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 1),))
    assert g.why_illegal(d) is None
    g.apply(d)
    att = kinds(g.events, "attack")[-1].data
    assert att["attribute"] == 6 and att["modifiers"] == {"aura": "halved"}     # INT 12 / 2
    # with LoS it is the whole INT
    g = setup([_caster(TOUCH, facing=90), unit("b1", "blue", 10, 10 + BASE + 0.5, facing=90)],
              [5] * 10)
    to_action(g, "r1")
    g.apply(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 1),)))
    assert kinds(g.events, "attack")[-1].data["attribute"] == 12


# --- Enchantment: "Max 1 Enchantment of same name per model" ----------------------
def test_an_enchantment_attack_is_refused_on_a_model_that_already_has_it():
    # the Assist refuses it; the Attack spent the AP (and the mana) for nothing
    g = setup([_caster(HEX), unit("b1", "blue", 10, 15)], [5] * 20)
    to_action(g, "r1")
    hex_b1 = Declare("r1", "Spell Attack", spell="Hex", targets=(("b1", 1),))
    g.apply(hex_b1)
    assert [e[0] for e in g.models["b1"].enchantments] == ["Hex"]
    to_action(g, "r1")
    assert "already has the Enchantment Hex" in (g.why_illegal(hex_b1) or "")


def test_a_flyer_that_casts_a_melee_spell_may_be_attacked_back_in_melee():
    # States, Flying: "if a Flying model declares a Melee Attack against a non-Flying
    # model, that model may declare a Melee Attack back at it" -- a Melee-Type
    # spell's Attack is such a Melee Attack
    from rules.eldfall.actions import Activate, Move
    g = setup([_caster(TOUCH, states=["Flying"]), unit("b1", "blue", 10, 12)], [20] * 10)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "idle"))
    g.apply(Declare("b1", "Dodge"))
    g.apply(Declare("r1", "Spell Attack", spell="Touch", targets=(("b1", 1),)))
    assert g.pending == ("reaction-change", "blue")
    back = Declare("b1", "Melee Attack", weapon="Sword", targets=(("r1", 1),))
    assert g.why_illegal(back) is None
    ev = g.apply(back)
    assert [e.data["attacker"] for e in kinds(ev, "attack")] == ["r1", "b1"]


# --- Spell Types: "Conjuration ... Active only (via Ritual)" -----------------------
def test_a_conjuration_declared_as_a_spell_attack_is_sent_to_the_ritual():
    # it was refused with "targets allies: cast it as an Assist", and the Assist
    # then refused it too ("cast with the Ritual action")
    call = spell_dict("Call", "Conjuration", "Fire", 0, target="self", effect="summon w1")
    snare = spell_dict("Snare", "Transmutation", "Fire", 0, target="self")
    w1 = unit("w1", "red", 0, 0)
    w1.extra["reserve"] = True
    g = setup([_caster(call, snare), w1, unit("b1", "blue", 10, 15)], [5] * 10)
    to_action(g, "r1")
    attack = Declare("r1", "Spell Attack", spell="Call", targets=(("b1", 1),))
    assert g.why_illegal(attack) == "a Conjuration is cast with the Ritual action"
    assert g.why_illegal(Declare("r1", "Ritual", spell="Call")) is None
    attack = Declare("r1", "Spell Attack", spell="Snare", targets=(("b1", 1),))
    assert g.why_illegal(attack) == "Snare targets only its caster: cast it as an Assist"


# --- a declaration's keys: "Must declare: target(s), ... Item or Spell used" -------
def test_keys_an_action_has_no_use_for_are_refused():
    # a Dodge "has no target" and casts nothing: `declare r1 Dodge spell=Hex` was
    # accepted and logged with a spell it never cast (likewise items=, attribute=,
    # objective= on actions that take none)
    g = setup([_caster(HEX), unit("b1", "blue", 10, 15)], [5] * 10)
    to_action(g, "r1")
    assert "casts no Spell" in g.why_illegal(Declare("r1", "Dodge", spell="Hex"))
    assert "casts no Spell" in g.why_illegal(Declare("r1", "Nothing", spell="Hex"))
    assert "exchanges no Items" in g.why_illegal(Declare("r1", "Dodge", items=("Rope",)))
    assert "names no attribute" in g.why_illegal(Declare("r1", "Nothing", attribute="AG"))
    assert "names no quest object" in g.why_illegal(Declare("r1", "Dodge", objective="well"))
    assert g.why_illegal(Declare("r1", "Dodge", attribute="AG")) is None
    assert g.why_illegal(Declare("r1", "Dodge")) is None


# --- a facing is a number of degrees ---------------------------------------------
def test_a_facing_that_is_not_a_finite_number_is_refused():
    # `move r1 idle facing=nan` was legal: the model's facing became NaN, so it had
    # no Front arc (no LoS to anything) and the log held a NaN (not JSON)
    import pytest
    from rules.eldfall.actions import Action, Move, Turn
    for text in ("move r1 idle facing=nan", "move r1 walk 11,10,0 facing=inf",
                 "move r1 idle facing=-inf", "move r1 idle facing=north", "turn r1 nan",
                 "turn r1 inf"):
        with pytest.raises(ValueError):
            Action.parse(text)
    with pytest.raises(ValueError, match="finite"):
        Move("r1", "idle", facing=float("nan"))
    with pytest.raises(ValueError, match="finite"):
        Turn("r1", float("inf"))
    assert Action.parse("move r1 idle facing=450.0") == Move("r1", "idle", facing=450.0)
    assert Action.parse("turn r1 450") == Turn("r1", 90.0)


# --- Ritual: the creatures on the field and the Summoning Limit ---------------------
def _ritual_game():
    from test_eldfall_summons import ritual  # noqa: E402
    return ritual()


def _to_ritual(g, caster="red-summoner"):
    from test_eldfall_summons import to_ritual  # noqa: E402
    to_ritual(g, caster)
    g.models[caster].mana = 5


def test_a_creature_dismissed_when_its_summoner_fell_can_be_summoned_again():
    # "Creatures summoned by a caster are removed from the field when the caster
    # becomes Incapacitated": once the caster has recovered, its Conjuration calls the
    # creature again -- it was refused as "ritual-wolf is already on the table"
    g = _ritual_game()
    _to_ritual(g)
    g.apply(Declare("red-summoner", "Ritual", spell="Call the Wolf"))
    g.wound("ritual-wolf", 1, "test")                       # the wolf (HP 1) goes down
    g.wound("red-summoner", 2, "test")                      # the summoner too
    wolf = g.models["ritual-wolf"]
    assert wolf.removed and not wolf.on_table and "Incapacitated" in wolf.states
    g.heal("red-summoner", 1, "test")                       # it recovers
    g.models["red-summoner"].ap = 2
    _to_ritual(g)
    again = Declare("red-summoner", "Ritual", spell="Call the Wolf")
    assert g.why_illegal(again) is None
    ev = g.apply(again)
    s = [e.data for e in ev if e.kind == "summon"][0]
    assert s["model"] == "ritual-wolf" and s["again"] and s["hp"] == 1
    assert wolf.on_table and wolf.hp == 1 and wolf.ap == 1          # AP = its STA 1
    assert not wolf.states & {"Incapacitated", "Crouched", "Dead"}
    assert g.geo.base_contact("red-summoner", "ritual-wolf")
    # on the table now: not twice
    _to_ritual(g)
    assert g.why_illegal(again) == "ritual-wolf is already on the table"


def test_a_dead_creature_no_longer_counts_in_the_summoning_limit():
    # Dead: "Is ignored for all game impacts"; the wolf (Tier 1) lies Dead on the
    # field, so the bear (Tier 2) fits the summoner's STA 2 (an Incapacitated one,
    # which may recover, still counts)
    g = _ritual_game()
    _to_ritual(g)
    g.apply(Declare("red-summoner", "Ritual", spell="Call the Wolf"))
    _to_ritual(g)
    bear = Declare("red-summoner", "Ritual", spell="Call the Bear")
    assert "Summoning Limit: 1 + Tier 2" in g.why_illegal(bear)
    g.set_states("ritual-wolf", g.models["ritual-wolf"].states | {"Incapacitated"}, "test")
    assert "Summoning Limit: 1 + Tier 2" in g.why_illegal(bear)
    g.set_states("ritual-wolf", g.models["ritual-wolf"].states | {"Dead"}, "test")
    assert g.models["ritual-wolf"].on_table
    assert g.why_illegal(bear) is None
