"""An Enchantment of PW ✯: "target's Attacks gain the Spell type" (eldfall-actions.txt, Spell
Types table). Its target's Attacks carry the Spell type for as long as the Enchantment lasts
(until its caster's next Strategic Phase); a spell with a number for PW gives nothing."""
import pytest

from engine.errors import InputError
from engine.profiles import STAR_PW, load_party
from rules.core.units import spell_dict, weapon_dict
from rules.eldfall import narrate
from rules.eldfall.actions import Declare, EndTurn
from tests.eldfall_scenario import BOW, kinds, setup, to_action, unit

BLADE = spell_dict("Spirit Blade", "Enchantment", "Fire", 1, pw=STAR_PW, target="ally", rng=12,
                   effect="The target's Attacks gain the Spell type.")
WARD = spell_dict("Ember Ward", "Enchantment", "Fire", 1, target="ally", rng=12, effect="+2 ARM")
BOLT = spell_dict("Fire Bolt", "Sorcery", "Fire", 1, 12, 1, 24)


def _game(spell_name):
    mage = unit("r1", "red", 10, 5, weapons=[weapon_dict("Staff", "melee", 1, 7, 1)], affinities=["Fire"])
    mage.spells = [BLADE, WARD, BOLT]
    fighter = unit("r2", "red", 12, 5, weapons=[BOW], affinities=["Fire"])
    fighter.spells = [BOLT]
    g = setup([mage, fighter, unit("b1", "blue", 12, 8, facing=270)], [3] + [10] * 40)
    to_action(g, "r1")
    g.apply(Declare("r1", "Assist", spell=spell_name, targets=(("r2", 1),)))
    return g


def _attack(g, **kw):
    to_action(g, "r2")
    return kinds(g.apply(Declare("r2", targets=(("b1", 1),), **kw)), "attack")[0]


def test_the_targets_attacks_gain_the_spell_type_and_the_narration_says_it():
    g = _game("Spirit Blade")
    ev = _attack(g, action="Ranged Attack", weapon=BOW["name"])
    assert ev.data["spell_type"] == ["Spirit Blade"]
    text = narrate.line(ev)
    assert "of the Spell type: Enchantment Spirit Blade, PW \u272f" in text, text
    assert ev.data["stat"] == "ACC"       # the weapon's attack is not cast: ACC, not INT


def test_a_numbered_pw_enchantment_gives_no_spell_type():
    ev = _attack(_game("Ember Ward"), action="Ranged Attack", weapon=BOW["name"])
    assert "spell_type" not in ev.data
    assert "Spell type" not in narrate.line(ev)


def test_a_spell_attack_is_a_spell_already():
    ev = _attack(_game("Spirit Blade"), action="Spell Attack", spell="Fire Bolt")
    assert "spell_type" not in ev.data and ev.data["stat"] == "INT"


def test_the_spell_type_ends_with_the_enchantment_at_the_casters_strategic_phase():
    g = _game("Spirit Blade")
    assert g.models["r2"].enchantments
    g.apply(EndTurn("red")) if g.pending == ("tactical", "red") else None
    g.apply(EndTurn("blue"))
    assert not g.models["r2"].enchantments
    ev = _attack(g, action="Ranged Attack", weapon=BOW["name"])
    assert "spell_type" not in ev.data


def _party(tmp_path, pw, stype="Enchantment"):
    (tmp_path / "p.yaml").write_text(
        "party: P\n"
        "profiles:\n"
        "  mage:\n"
        "    name: Mage\n"
        "    size: M\n"
        "    stats: {STA: 2, SPD: 5, ARM: 1, HP: 2, OFF: 8, DEF: 9, ACC: 10, INT: 16, AG: 11, T: 9, M: 14}\n"
        "    affinities: [Fire]\n"
        "    spells:\n"
        f"      - {{name: Spirit Blade, type: {stype}, affinity: Fire, mana: 1, pw: '{pw}', target: ally, range: 12}}\n",
        encoding="utf-8")
    return load_party("p", tmp_path)


@pytest.mark.parametrize("written", ["\u272f", "*"])
def test_a_party_file_takes_pw_star_on_an_enchantment(tmp_path, written):
    assert _party(tmp_path, written)["mage"].spells[0].pw == STAR_PW


def test_pw_star_on_another_type_is_one_line_at_its_key(tmp_path):
    with pytest.raises(InputError) as e:
        _party(tmp_path, "*", stype="Sorcery")
    lines = [str(p) for p in e.value.problems]
    assert len(lines) == 1 and "spells[0].pw" in lines[0] and ":9:" in lines[0], lines
    assert "Enchantment's" in lines[0]
