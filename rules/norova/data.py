"""The Norova rule data: ``rules/norova/data/*.yaml`` with the game's settings on top.

Every rule number lives in the data files; a game's ``settings`` mapping
overrides any key of ``rules.yaml`` (nested mappings merge). Bad settings or a
bad data file raise :class:`NorovaDataError`, one line per problem
(``file: key.path: what is wrong``).
"""
from __future__ import annotations

import copy
import functools
import math
from pathlib import Path

import yaml

from rules.core.settings import did_you_mean, expand_dotted, given_words

DATA = Path(__file__).with_name("data")
ARCS = ("front", "side", "rear")
WEAPON_KINDS = ("melee", "thrown", "bow")
SPELL_TYPES = ("damage", "healing")
POOLS = ("vitality", "soul", "power")
TRAITS = ("focus", "perceive", "react", "evade", "luck")


class NorovaDataError(ValueError):
    """Bad rule data, settings or character block. ``problems``: one line each."""

    def __init__(self, problems: list[str] | str):
        self.problems = [problems] if isinstance(problems, str) else list(problems)
        super().__init__("\n".join(self.problems))


@functools.lru_cache(maxsize=None)
def _load(name: str) -> dict:
    path = DATA / name
    with open(path, encoding="utf-8") as fh:
        doc = yaml.safe_load(fh)
    if not isinstance(doc, dict):
        raise NorovaDataError(f"{path}: must be a mapping")
    return doc


def merge(base: dict, over: dict, path: str = "", problems: list | None = None) -> dict:
    """``base`` updated by ``over``; nested mappings merge. Unknown keys are problems."""
    out = copy.deepcopy(base)
    for k, v in over.items():
        key = f"{path}.{k}" if path else str(k)
        if k not in base:
            if problems is not None:
                problems.append(f"settings: {key}: unknown setting{did_you_mean(k, base)} "
                                f"(known: {', '.join(sorted(map(str, base)))})")
            continue
        if isinstance(base[k], dict) and isinstance(v, dict):
            out[k] = merge(base[k], v, key, problems)
        elif isinstance(base[k], dict) != isinstance(v, dict) or (
                isinstance(base[k], bool) != isinstance(v, bool)) or (
                isinstance(base[k], (int, float)) and not isinstance(v, (int, float))) or (
                isinstance(base[k], list) and not isinstance(v, list)) or (
                isinstance(base[k], str) and not isinstance(v, str)):
            if problems is not None:
                problems.append(f"settings: {key}: must be {_KIND_WORDS.get(type(base[k]), 'a value')}, "
                                f"not {given_words(v)}")
        else:
            out[k] = copy.deepcopy(v)
    return out


# what a setting must be, in words (the default's type)
_KIND_WORDS = {bool: "true or false", int: "a whole number", float: "a number", str: "a name",
               list: "a list", dict: "a mapping"}


class RuleData:
    """The merged rule data and the catalogues (weapons, skills, spells, items)."""

    def __init__(self, settings: dict | None = None):
        problems: list[str] = []
        self._given = expand_dotted(dict(settings or {}))
        self.rules = merge(_load("rules.yaml"), self._given, "", problems)
        self.criticals = _load("criticals.yaml")
        w = _load("weapons.yaml")
        # seed "Support Actions": "Reloading: Required for most projectile weapons unless the
        # weapon states otherwise": a bow (or crossbow) is reloaded after each shot unless its
        # entry says `reload: false` (a copy: the loaded file is shared)
        self.weapons: dict[str, dict] = {
            n: ({"reload": True, **v} if isinstance(v, dict) and v.get("kind") == "bow" else v)
            for n, v in w["weapons"].items()}
        self.ammo: dict[str, dict] = w["ammo"]
        self.skills: dict[str, dict] = _load("skills.yaml")["skills"]
        sp = _load("spells.yaml")
        self.spells: dict[str, dict] = sp["spells"]
        self.opposing = {frozenset(p) for p in sp["opposing_elements"]}
        self.items: dict[str, dict] = _load("items.yaml")["items"]
        problems += self._validate()
        if problems:
            raise NorovaDataError(problems)

    # ---- lookups ------------------------------------------------------
    def difficulty(self, name: str | int) -> int:
        if isinstance(name, int):
            return name
        return int(self.rules["difficulty"][name])

    def check(self, name: str) -> tuple[str | None, int]:
        """(trait, difficulty number) of a kind of check."""
        c = self.rules["checks"][name]
        return c.get("trait"), self.difficulty(c["difficulty"])

    def check_difficulty_name(self, name: str) -> str:
        """The difficulty of a kind of check in words ("normal"; a number as it is)."""
        d = self.rules["checks"][name]["difficulty"]
        return str(d).replace("_", " ")

    def area_radius(self, area: str) -> float:
        return float(self.rules["areas"][area])

    def opposed(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.opposing

    def fumble(self, d6: int) -> str:
        return self.criticals["skill_fumble_d6"][d6]

    def crit_crit(self, d6: int) -> str:
        return self.criticals["critical_critical_d6"][d6]

    # ---- validation ---------------------------------------------------
    def _source(self, path: str) -> str:
        """Where a rule key's value comes from: ``settings`` (the game's, e.g. ``--set``)
        or ``rules.yaml``: a problem names the one its user can fix."""
        node = self._given
        for part in path.split("."):
            if not isinstance(node, dict) or part not in node:
                return "rules.yaml"
            node = node[part]
        return "settings"

    def _rule_problem(self, path: str, what: str) -> str:
        return f"{self._source(path)}: {path}: {what}"

    def _validate(self) -> list[str]:
        p: list[str] = []
        r = self.rules
        bad = self._rule_problem
        diffs = r["difficulty"]
        for k, v in diffs.items():
            if isinstance(v, bool) or not isinstance(v, int):
                p.append(bad(f"difficulty.{k}", f"must be a whole number, not {given_words(v)}"))
        for k, c in r["checks"].items():
            if c.get("difficulty") not in diffs:
                p.append(bad(f"checks.{k}.difficulty", f"unknown difficulty {given_words(c.get('difficulty'))} "
                                                       f"(known: {', '.join(map(str, diffs))})"))
            if "trait" in c and c["trait"] not in TRAITS:
                p.append(bad(f"checks.{k}.trait", f"unknown trait {c['trait']!r} (known: {', '.join(TRAITS)})"))
        f = r["facing"]
        if not (0 < f["front_half_angle"] <= 180 and 0 <= f["rear_half_angle"] <= 180
                and f["front_half_angle"] + f["rear_half_angle"] <= 180):
            p.append(bad("facing", "the front and rear half angles must be in 0..180 and add up to 180 at most, "
                                   f"not {given_words(f['front_half_angle'])} and {given_words(f['rear_half_angle'])}"))
        for arc in ARCS:
            if not isinstance(f["evade_modifier"].get(arc), int):
                p.append(bad(f"facing.evade_modifier.{arc}",
                             f"must be a whole number, not {given_words(f['evade_modifier'].get(arc))}"))
        for k, v in r["areas"].items():
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0 < v < math.inf:
                p.append(bad(f"areas.{k}", f"must be a positive number of inches, not {given_words(v)}"))
        p += self._validate_numbers()
        for side in (1, 2, 3, 4, 5, 6):
            if self.criticals["skill_fumble_d6"].get(side) not in ("works_anyway", "failure", "backfire"):
                p.append(f"criticals.yaml: skill_fumble_d6.{side}: must be works_anyway, failure or backfire")
            if self.criticals["critical_critical_d6"].get(side) not in ("double_crit", "deathblow"):
                p.append(f"criticals.yaml: critical_critical_d6.{side}: must be double_crit or deathblow")
        for name, w in self.weapons.items():
            if w.get("kind") not in WEAPON_KINDS:
                p.append(f"weapons.yaml: weapons.{name}.kind: must be one of {', '.join(WEAPON_KINDS)}")
            if w.get("hands") not in (1, 2):
                p.append(f"weapons.yaml: weapons.{name}.hands: must be 1 or 2")
            if w.get("ammo") is not None and w["ammo"] not in self.ammo:
                p.append(f"weapons.yaml: weapons.{name}.ammo: unknown ammunition {w['ammo']!r}")
            if not isinstance(w.get("reload", False), bool):
                p.append(f"weapons.yaml: weapons.{name}.reload: must be true or false, not {w['reload']!r}")
        for name, s in self.skills.items():
            if s.get("type") not in ("offensive", "support"):
                p.append(f"skills.yaml: skills.{name}.type: must be offensive or support")
            if s.get("difficulty") not in diffs:
                p.append(f"skills.yaml: skills.{name}.difficulty: unknown difficulty")
            for pool in s.get("cost", {}):
                if pool not in POOLS:
                    p.append(f"skills.yaml: skills.{name}.cost.{pool}: not a pool ({', '.join(POOLS)})")
        for name, s in self.spells.items():
            if s.get("type") not in SPELL_TYPES:
                p.append(f"spells.yaml: spells.{name}.type: must be damage or healing")
            if s.get("area") is not None and s["area"] not in r["areas"]:
                p.append(f"spells.yaml: spells.{name}.area: unknown area {s['area']!r}")
            if s.get("area") is None and not s.get("range", 0) > 0:
                p.append(f"spells.yaml: spells.{name}: a spell needs a range or an area")
            if not isinstance(s.get("speed"), int) or s["speed"] < 1:
                p.append(f"spells.yaml: spells.{name}.speed: must be a whole number >= 1")
        for name, it in self.items.items():
            if it.get("restores") not in POOLS:
                p.append(f"items.yaml: items.{name}.restores: must be one of {', '.join(POOLS)}")
        return p


    # every number, list and name of rules.yaml that the rules divide by, count with or
    # look up: a bad one is a one-line problem here, never a traceback or a silent 0 later
    _NUMBERS = (
        # (key path, lowest, highest, whole number, the lowest itself allowed)
        ("initiative.die", 1, None, True, True),
        ("move.sprint_factor", 0, None, False, False),
        ("move.crawl_factor", 0, None, False, False),
        ("move.fly_factor", 0, None, False, False),
        ("move.min_step", 0, None, False, True),
        ("move.step_height", 0, None, False, True),
        ("climbing.allowance_factor", 0, None, False, False),
        ("swimming.allowance_factor", 0, None, False, False),
        ("falling.inches_per_die", 0, None, False, False),
        ("falling.die", 1, None, True, True),
        ("attack_of_opportunity.per_enemy_per_round", 0, None, True, True),
        ("attack_of_opportunity.path_step", 0, None, False, False),
        ("evade.focused_min", None, None, True, True),
        ("evade.fallen_modifier", None, None, True, True),
        ("potions.use_range", 0, None, False, True),
        ("potions.throw_range", 0, None, False, True),
        ("potions.path_width", 0, None, False, True),
        ("critical.crit_power_multiplier", 1, None, True, True),
        ("critical.double_crit_power_multiplier", 1, None, True, True),
        ("critical.skill_crit_effect_multiplier", 1, None, True, True),
        ("critical.skill_crit_power_multiplier", 1, None, True, True),
        ("off_hand_power_fraction", 0, 1, False, True),
        ("two_handed_power_times", 1, None, True, True),
        ("saves.crit_recover_fraction", 0, 1, False, True),
        ("saves.crit_fail_loss_fraction", 0, 1, False, True),
        ("max_rounds", 1, None, True, True),
    )

    def _validate_numbers(self) -> list[str]:
        p: list[str] = []
        bad = self._rule_problem

        def value(path):
            node = self.rules
            for part in path.split("."):
                node = node[part]
            return node

        for path, lo, hi, whole, lo_ok in self._NUMBERS:
            v = value(path)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or (
                    whole and not (math.isfinite(v) and v == int(v))):
                p.append(bad(path, f"must be a {'whole ' if whole else ''}number, not {given_words(v)}"))
            elif math.isinf(v):
                # an endless factor or range (.inf) would make every move or area boundless
                p.append(bad(path, f"must be a finite number, not {v!r}"))
            elif v != v or (lo is not None and (v < lo or (v == lo and not lo_ok))) or (hi is not None and v > hi):
                rng = (f"{'at least' if lo_ok else 'more than'} {lo}" if lo is not None else "")
                rng += (" and " if rng and hi is not None else "") + (f"at most {hi}" if hi is not None else "")
                p.append(bad(path, f"must be {rng}, not {given_words(v)}"))
        r = self.rules
        if r["initiative"]["trait"] not in TRAITS:
            p.append(bad("initiative.trait", f"unknown trait {r['initiative']['trait']!r} (known: {', '.join(TRAITS)})"))
        for pool, n in r["move"]["sprint_cost"].items():
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                p.append(bad(f"move.sprint_cost.{pool}", f"must be a whole number, 0 or more, not {given_words(n)}"))
        for k, v in r["perceive_cover_modifier"].items():
            if isinstance(v, bool) or not isinstance(v, int):
                p.append(bad(f"perceive_cover_modifier.{k}", f"must be a whole number, not {given_words(v)}"))
        for path, known in (("attack_of_opportunity.range_kinds", WEAPON_KINDS),
                            ("swimming.no_attack_kinds", WEAPON_KINDS),
                            ("evade.against", WEAPON_KINDS + ("spell",)),
                            ("covered_grades", ("light", "heavy"))):
            for v in value(path):
                if v not in known:
                    p.append(bad(path, f"unknown {v!r} (known: {', '.join(known)})"))
        for v in r["swimming"]["environments"]:
            if not isinstance(v, str):
                p.append(bad("swimming.environments", f"must be environment names, not {given_words(v)}"))
        return p


def rule_data(settings: dict | None = None) -> RuleData:
    return RuleData(settings)


