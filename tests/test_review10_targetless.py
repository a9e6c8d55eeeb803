"""The Targetless trait: an Attack with it needs no LoS to its target.

Source: seeds/eldfall-actions.txt, Attack ("LoS to the target (unless stated
otherwise, e.g. [[Targetless]])") and eldfall-facts.md, Cover ("Targetless
attacks at the ground ... ignore cover"). Everything else (range, Reach, the
States, the template's own LoS, a Reaction's qualification) is as ever.
"""
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall import narrate
from rules.eldfall.actions import Activate, Declare, Move
from tests.eldfall_scenario import BOW, at_action, kinds, setup, to_action, unit, walled_game

# a lobbed bomb: Targetless, ranged bands as a bow's
BOMB = weapon_dict("Bomb", "ranged", pw=10, stk=1, bands=[(0, 12, 0), (12, 24, -3)],
                   traits=["Targetless"])
MORTAR = weapon_dict("Mortar", "ranged", pw=10, stk=1, bands=[(0, 12, 0)], traits=["Targetless"])
FLAIL = weapon_dict("Chain Flail", "melee", rch=2, pw=10, stk=1, traits=["Targetless"])
HEX = spell_dict("Hex Rain", "Sorcery", mana=0, pw=10, rng=18, traits=["Targetless"])
BOLT = spell_dict("Bolt", "Sorcery", mana=0, pw=10, rng=18)
MEND = spell_dict("Mend", "Healing", mana=0, rng=12, target="ally", effect="regains 1 HP",
                  traits=["Targetless"])
# a wall between (10, 5) and (10, 15): it hides b1 from r1 completely
WALL = [("wall", 6, 9.5, 14, 10, 4)]


def _game(red_weapons, *, blue_at=(10, 15), boxes=WALL, rolls=(), red_kw=None, blue=None, **kw):
    units = [unit("r1", "red", 10, 5, weapons=red_weapons, **(red_kw or {})),
             unit("b1", "blue", *blue_at, facing=270)] + list(blue or [])
    return setup(units, rolls=rolls, boxes=boxes, **kw)


def ranged(weapon, target="b1", n=1):
    return Declare("r1", "Ranged Attack", weapon=weapon, targets=((target, n),))


def test_a_targetless_ranged_attack_needs_no_los():
    g = to_action(_game([BOW, BOMB]), "r1")
    assert not g.has_los("r1", "b1")
    assert g.why_illegal(ranged("Bow")) == "no LoS to b1"
    assert g.why_illegal(ranged("Bomb")) is None


def test_legal_actions_offer_the_targetless_attack_only():
    g = to_action(_game([BOW, BOMB]), "r1")
    attacks = [a for a in g.legal_actions() if isinstance(a, Declare) and a.action == "Ranged Attack"]
    assert [a.weapon for a in attacks] == ["Bomb"]
    assert attacks[0].target_ids == ("b1",)


def test_unseen_targetless_attack_is_not_halved_and_ignores_cover():
    # b1 Crouched would have Light Cover; unseen, a Targetless attack ignores it and
    # is not halved as a Casting Aura spell would be
    g = to_action(_game([BOMB], rolls=[20], blue=[]), "r1")
    g.models["b1"].states = frozenset({"Crouched"})
    ev = g.apply(ranged("Bomb"))
    a = kinds(ev, "attack")[0].data
    assert a["attribute"] == 13 and a["modifiers"] == {"targetless": "no LoS"}
    assert narrate.line(kinds(ev, "attack")[0]).endswith(
        "ACC 13 (Targetless: no LoS needed, no Cover)")


def test_seen_targetless_attack_keeps_cover():
    # with LoS the attack is aimed at the model: the target's Cover stands
    g = to_action(_game([BOMB], boxes=[], rolls=[20]), "r1")
    g.models["b1"].states = frozenset({"Crouched"})
    assert g.has_los("r1", "b1")
    a = kinds(g.apply(ranged("Bomb")), "attack")[0].data
    assert a["modifiers"] == {"cover": -2} and a["attribute"] == 11


def test_targetless_range_is_as_ever():
    g = at_action(_game([MORTAR], blue_at=(10, 20)))
    assert g.why_illegal(ranged("Mortar")).startswith("b1 is out of range (")
    assert [a for a in g.legal_actions() if isinstance(a, Declare) and a.weapon == "Mortar"] == []


def test_targetless_melee_needs_reach_not_los():
    # a screen in the 0.64" between the bases hides b1, which stays within RCH 2"
    g = to_action(_game([FLAIL], blue_at=(10, 6.9), boxes=[("screen", 8, 5.75, 12, 6.15, 4)]), "r1")
    assert not g.has_los("r1", "b1")
    assert g.why_illegal(Declare("r1", "Melee Attack", weapon="Chain Flail",
                                 targets=(("b1", 1),))) is None
    g = to_action(_game([FLAIL], blue_at=(10, 15)), "r1")
    assert g.why_illegal(Declare("r1", "Melee Attack", weapon="Chain Flail",
                                 targets=(("b1", 1),))).startswith("b1 is out of Reach (")


def test_targetless_spell_beyond_the_aura_without_los():
    g = at_action(_game([], red_kw={"spells": [HEX, BOLT], "affinities": []}, blue_at=(10, 17)))
    hex_ = Declare("r1", "Spell Attack", spell="Hex Rain", targets=(("b1", 1),))
    bolt = Declare("r1", "Spell Attack", spell="Bolt", targets=(("b1", 1),))
    assert not g.geo.in_awareness("r1", "b1")
    assert g.why_illegal(bolt) == "no LoS to b1"
    assert g.why_illegal(hex_) is None


def test_targetless_spell_inside_the_aura_is_not_halved():
    g = to_action(_game([], red_kw={"spells": [HEX], "affinities": []}, rolls=[20],
                        blue_at=(10, 14)), "r1")
    assert g.geo.in_awareness("r1", "b1") and not g.has_los("r1", "b1")
    a = kinds(g.apply(Declare("r1", "Spell Attack", spell="Hex Rain", targets=(("b1", 1),))),
              "attack")[0].data
    assert a["attribute"] == 12 and "aura" not in a["modifiers"]


def test_a_shrouded_target_still_cannot_be_attacked():
    g = to_action(_game([BOMB]), "r1")
    g.models["b1"].states = frozenset({"Shrouded"})
    assert g.why_illegal(ranged("Bomb")) == \
        "a Shrouded model cannot be targeted by Actions other than Perceive"


def test_a_blinded_model_still_cannot_attack():
    g = to_action(_game([BOMB]), "r1")
    g.models["r1"].states = frozenset({"Blinded"})
    assert (g.why_illegal(ranged("Bomb")) or "").startswith("Blinded: only Assist, Dodge, Nothing")


def test_an_assist_with_a_targetless_spell_still_needs_los():
    # the pages name Targetless under Attack only; Assist keeps "LoS required"
    ally = unit("r2", "red", 10, 25)
    g = to_action(_game([], red_kw={"spells": [MEND], "affinities": []}, blue=[ally]), "r1")
    d = Declare("r1", "Assist", spell="Mend", targets=(("r2", 1),))
    assert "no LoS to r2" in (g.why_illegal(d) or "")


def test_reactions_still_need_los_to_qualify():
    # the Reactions page: "A Reaction normally requires Line of Sight"; Targetless
    # waives the Attack's LoS, not the reacting model's qualification
    units = [unit("r1", "red", 10, 5), unit("b1", "blue", 10, 25, facing=270, weapons=[BOMB])]
    g = setup(units, boxes=WALL)
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", ((11.0, 6.0, 0.0),)))
    assert g.pending[0] != "reaction" or "b1" not in g.act.qualified


def test_profile_files_accept_the_trait(tmp_path):
    from engine.profiles import load_party
    (tmp_path / "grenadiers.yaml").write_text(
        "party: Grenadiers\nprofiles:\n  bomber:\n    name: Bomber\n    size: M\n"
        "    stats: {STA: 2, SPD: 5, ARM: 3, HP: 3, OFF: 12, DEF: 11, ACC: 12, INT: 10, AG: 9,"
        " T: 12, M: 13}\n"
        "    items:\n      - {name: Fire Bomb, kind: ranged, pw: 10, stk: 1, bands: {\"0-12\": 0},"
        " traits: [Targetless]}\n", encoding="utf-8")
    prof = load_party("grenadiers", tmp_path)["bomber"]
    bomb = next(w for w in prof.weapons if w.name == "Fire Bomb")
    assert "Targetless" in bomb.traits


def _world_game(weapons, target_y=14.0):
    """r1 and b1 on the real engine, a 4" wall between them (b1 2" behind it)."""
    return at_action(walled_game({"r1": ("red", 10, 5, 90), "b1": ("blue", 10, target_y, 270)}, weapons))


def test_targetless_template_keeps_the_templates_own_los():
    # a Circular template lies on b1: its centre sees b1, so the unseen b1 may be
    # attacked; a Spray needs LoS from the attacker to each model (Templates), so
    # Targetless does not make it legal
    lob = weapon_dict("Fire Pot", "ranged", pw=10, bands=[(0, 24, 0)],
                      traits=["Targetless", "Circular S"])
    jet = weapon_dict("Fire Jet", "ranged", pw=10, bands=[(0, 24, 0)],
                      traits=["Targetless", "Spray L"])
    g = _world_game([lob, jet, BOW], target_y=12.5)
    assert not g.has_los("r1", "b1")
    assert g.why_illegal(ranged("Bow")) == "no LoS to b1"
    assert g.why_illegal(ranged("Fire Pot")) is None
    why = g.why_illegal(ranged("Fire Jet"))
    assert why.startswith("the template cannot cover b1:") and "no LoS from r1" in why
