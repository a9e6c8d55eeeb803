"""Dice arithmetic of Eldfall: roll-under d20, criticals, confrontation, damage.

Source: ../shared/rules/eldfall-facts.md "Dice" (Core Rules v1.6 p.17, 27-28)
and seeds/eldfall-actions.txt "Attack". Pure functions: the game rolls the dice
(as events) and hands the values in.

* A roll succeeds when it is <= the modified attribute. A modified attribute of
  0 (or less) fails automatically, even on a 1.
* A 1 is a critical; with an attribute over 20, a 20 is a critical too.
* Halving and doubling come after the other modifiers, rounding up.
* Confrontation: a success survives if it is a critical, or if it is higher than
  every non-critical success of the opponent and the opponent rolled no
  critical. The book: a success cancels the opponent's successes of *equal or
  lower* value (``ties="cancel"``, default); the seed page says "lower"
  (``ties="keep"``: equal successes both stand). Both sides' criticals all hit.
* Damage: per Hit one d20; a Wound when it is <= PW - ARM. A critical Hit sets
  ARM to 0; Ignore Armor makes it 0; Armor-Piercing halves it (rounding up).
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

SIZES = ("S", "M", "L", "H", "G", "C", "E")
# The referee's measuring tolerance, inches: a distance within it of a printed limit (a
# range band's ends, a spell's range, Reach) is at that limit. The same 0.001" as the
# table's Reach, Base Contact and Awareness (engine.measure.CONTACT_TOLERANCE; the
# rules never import the engine) and as `eldfall measure`'s bands (docs/rulings.md,
# "Range bands": whole inches, inclusive within the 0.001" measuring tolerance).
MEASURE_TOLERANCE = 1e-3


def halve(v: int) -> int:
    """Half, rounding up (Eldfall rounds every halving up)."""
    return int(math.ceil(v / 2))


def effective(base: int, mods: int = 0, halvings: int = 0, doublings: int = 0) -> int:
    """The modified attribute: base + modifiers, then doubled, then halved (rounding up)."""
    v = int(base) + int(mods)
    for _ in range(doublings):
        v *= 2
    for _ in range(halvings):
        v = halve(v)
    return max(0, v)


@dataclass(frozen=True)
class Die:
    value: int
    target: int
    success: bool
    critical: bool

    def to_dict(self) -> dict:
        return {"value": self.value, "target": self.target, "success": self.success,
                "critical": self.critical}


def judge(value: int, target: int) -> Die:
    """One d20 against a modified attribute."""
    if target <= 0:
        return Die(value, target, False, False)
    crit = value == 1 or (target > 20 and value == 20)
    return Die(value, target, crit or value <= target, crit)


def confront(a: Sequence[Die], b: Sequence[Die], ties: str = "cancel") -> tuple[list[Die], list[Die]]:
    """The surviving successes of each side of a Confrontation."""
    if ties not in ("cancel", "keep"):
        raise ValueError(f"ties must be cancel or keep, not {ties!r}")

    def survivors(mine, theirs):
        their_crit = any(d.critical for d in theirs)
        their_best = max((d.value for d in theirs if d.success and not d.critical), default=0)
        out = []
        for d in mine:
            if not d.success:
                continue
            if d.critical:
                out.append(d)
            elif not their_crit and (d.value > their_best if ties == "cancel" else d.value >= their_best):
                out.append(d)
        return out

    return survivors(a, b), survivors(b, a)


def armor_for_hit(arm: int, critical: bool, traits: Iterable[str]) -> int:
    t = {trait_key(x) for x in traits}
    if critical or "ignore armor" in t:
        return 0
    if "armor-piercing" in t:
        return halve(arm)
    return max(0, int(arm))


def wound_threshold(pw: int, arm: int, critical: bool, traits: Iterable[str]) -> int:
    """A damage roll <= this is a Wound (<= 0: no roll can wound)."""
    return int(pw) - armor_for_hit(arm, critical, traits)


_TRAIT = re.compile(r"^\s*([A-Za-z][A-Za-z \-]*?)\s*(?:\(?\s*([IVX]+|\d+(?:\.\d+)?)\s*\)?)?\s*$")


def trait_name(t: str) -> str:
    """'Knockback (2)' -> 'Knockback'; 'Poison II' -> 'Poison II' (kept: two traits)."""
    t = t.strip()
    if t[:6].lower() == "poison":
        return t.replace("(", "").replace(")", "").strip()
    m = _TRAIT.match(t)
    return m.group(1).strip() if m else t


def spell_pw(prof: dict) -> int:
    """A spell's PW as a whole number for its damage roll: an Enchantment's ✯ (its target's
    Attacks gain the Spell type; an Enchantment makes no damage roll) and none count 0."""
    try:
        return int(prof.get("pw") or 0)
    except (TypeError, ValueError):
        return 0


def trait_key(t: str) -> str:
    """A trait's name as the rules compare it: :func:`trait_name` in lower case, as the
    engine reads a trait (line of sight's Vigilance, ``measure``'s Acute Senses: any case),
    so a profile's ``acute senses`` is the same trait to the game as to ``measure``."""
    return trait_name(t).lower()


def trait_value(traits: Iterable[str], name: str) -> float | None:
    """The number of a trait such as 'Knockback 1' / 'Knockback (1)'; 0 when it has none.
    Names in any case (:func:`trait_key`)."""
    key = name.lower()
    for t in traits:
        if trait_key(t) == key:
            m = _TRAIT.match(t.strip())
            if m and m.group(2) and m.group(2)[0].isdigit():
                return float(m.group(2))
            return 0.0
    return None


def has_trait(traits: Iterable[str], name: str) -> bool:
    """Whether ``traits`` hold the trait ``name``, in any case (:func:`trait_key`)."""
    key = name.lower()
    return any(trait_key(t) == key for t in traits)


def size_steps(a: str, b: str) -> int:
    """How many Sizes b is larger than a."""
    ia = SIZES.index(a) if a in SIZES else 1
    ib = SIZES.index(b) if b in SIZES else 1
    return ib - ia


def band_modifier(bands: Sequence[Sequence[float]], distance: float) -> int | None:
    """The ACC modifier of a ranged weapon at ``distance``; None when out of range.

    Bands are inclusive ``(min, max, mod)``, within ``MEASURE_TOLERANCE`` (20.0005"
    is in 0-20, as `eldfall measure` says); a distance between two printed bands
    (e.g. 20.4" with 0-20 and 21-40) belongs to the farther band; one closer than
    the first band's printed minimum is out of range (ruling "Range bands").
    """
    if not bands or distance < float(bands[0][0]) - MEASURE_TOLERANCE:
        return None
    for lo, hi, mod in bands:
        if distance <= hi + MEASURE_TOLERANCE:
            return int(mod)
    return None


def p_success(target: int) -> float:
    """Probability that one d20 succeeds against ``target``."""
    if target <= 0:
        return 0.0
    if target >= 20:
        return 1.0
    return target / 20.0


def p_wound(threshold: int) -> float:
    return max(0.0, min(20, threshold)) / 20.0
