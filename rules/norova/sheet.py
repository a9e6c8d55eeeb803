"""A Norova character sheet, read from a unit's ``extra["norova"]`` block.

The block (in a profile of ``models/*.yaml``, see models/norova-party.yaml)::

    norova:
      vitality: 30          # pools: maximum values
      soul: 10
      power: 10
      traits: {focus: 3, perceive: 2, react: 3, evade: 4, luck: 1}
      offensive_power: 4
      bow_power: 2
      runic_power: 0
      runic_casting_speed: 1
      move: 6               # battle move rate, spaces (inches)
      saves: {vitality: 2, soul: 1, power: 1}
      dominant_hand: right  # right | left
      abilities: [dual_wielding, flying]
      element: fire
      equipment: {main_hand: longsword, off_hand: dagger}   # off_hand may be null; a two-handed weapon is in main_hand
      inventory: {healing_potion: 2, javelin: 1}
      ammo: {arrow: 12}
      skills: [power_strike]
      spells: [firebolt]

Unknown keys, unknown catalogue names and bad numbers are problems, each with
its key path.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from rules.norova.data import POOLS, TRAITS, NorovaDataError, RuleData, _load

ABILITIES = ("dual_wielding", "flying")
KEYS = ("vitality", "soul", "power", "traits", "offensive_power", "bow_power", "runic_power",
        "runic_casting_speed", "move", "saves", "dominant_hand", "abilities", "element",
        "equipment", "inventory", "ammo", "skills", "spells")


@dataclass(frozen=True)
class Sheet:
    vitality: int
    soul: int
    power: int
    traits: dict[str, int]
    offensive_power: int
    bow_power: int
    runic_power: int
    runic_casting_speed: int
    move: float
    saves: dict[str, int]
    dominant_hand: str
    abilities: frozenset[str]
    element: str
    equipment: dict[str, str | None]
    inventory: dict[str, int]
    ammo: dict[str, int]
    skills: tuple[str, ...]
    spells: tuple[str, ...]
    extra: dict = field(default_factory=dict, compare=False)

    def trait(self, name: str) -> int:
        return int(self.traits.get(name, 0))


def _int(v, path, problems, minimum=None) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        problems.append(f"{path}: must be a whole number, not {v!r}")
        return 0
    if minimum is not None and v < minimum:
        problems.append(f"{path}: must be at least {minimum}, not {v}")
    return v


def _mapping(v, path, problems, what: str) -> dict:
    """A mapping of the block (empty when absent); anything else is a problem."""
    if v is None:
        return {}
    if not isinstance(v, dict):
        problems.append(f"{path}: must be a mapping of {what}, not {v!r}")
        return {}
    return v


def _names(v, path, problems, what: str) -> list:
    """A list of names of the block (empty when absent): a single text or a number, a name
    that is not a text, are problems (a text would otherwise be read letter by letter)."""
    if v is None:
        return []
    if not isinstance(v, list):
        problems.append(f"{path}: must be a list of {what}, not {v!r}")
        return []
    bad = [n for n in v if not isinstance(n, str)]
    for n in bad:
        problems.append(f"{path}: {n!r} is not a name")
    return [n for n in v if isinstance(n, str)]


def sheet_from_block(block, data: RuleData, where: str = "norova") -> Sheet:
    """Validate one ``norova:`` block; raise :class:`NorovaDataError` listing every problem."""
    p: list[str] = []
    if not isinstance(block, dict):
        raise NorovaDataError(f"{where}: must be a mapping with the Norova stats (see rules/norova/sheet.py)")
    for k in block:
        if k not in KEYS:
            p.append(f"{where}.{k}: unknown key (known: {', '.join(KEYS)})")
    for k in ("vitality", "move"):
        if k not in block:
            p.append(f"{where}.{k}: missing")
    # a Vitality of 0 is no character (at 0 it would be Dying before it began)
    pools = {k: _int(block.get(k, 0), f"{where}.{k}", p, 1 if k == "vitality" else 0) for k in POOLS}
    traits_in = _mapping(block.get("traits"), f"{where}.traits", p, "trait: value")
    traits = {}
    for k, v in traits_in.items():
        if k not in TRAITS:
            p.append(f"{where}.traits.{k}: unknown trait (known: {', '.join(TRAITS)})")
        traits[k] = _int(v, f"{where}.traits.{k}", p)
    for k in TRAITS:
        traits.setdefault(k, 0)
    saves_in = _mapping(block.get("saves"), f"{where}.saves", p, "pool: save bonus")
    saves = {}
    for k, v in saves_in.items():
        if k not in POOLS:
            p.append(f"{where}.saves.{k}: unknown save (known: {', '.join(POOLS)})")
        saves[k] = _int(v, f"{where}.saves.{k}", p)
    for k in POOLS:
        saves.setdefault(k, 0)
    move = block.get("move", 0)
    if isinstance(move, bool) or not isinstance(move, (int, float)) or not 0 < move < float("inf"):
        p.append(f"{where}.move: must be a positive number of spaces, not {move!r}")
        move = 1
    hand = block.get("dominant_hand", "right")
    if hand not in ("right", "left"):
        p.append(f"{where}.dominant_hand: must be right or left, not {hand!r}")
    abilities = _names(block.get("abilities"), f"{where}.abilities", p, "abilities")
    for a in abilities:
        if a not in ABILITIES:
            p.append(f"{where}.abilities: unknown ability {a!r} (known: {', '.join(ABILITIES)})")
    # absent or null: no element (its spells' own count); 0 or false are no element names
    element = block.get("element")
    element = "" if element is None else element
    known_elements = {e for pair in data.opposing for e in pair} | {s["element"] for s in data.spells.values()}
    if not isinstance(element, str):
        p.append(f"{where}.element: must be the name of an element, not {element!r}")
        element = ""
    if element and element not in known_elements:
        p.append(f"{where}.element: unknown element {element!r} (known: {', '.join(sorted(known_elements))})")
    eq = _mapping(block.get("equipment"), f"{where}.equipment", p, "main_hand and off_hand")
    # main_hand: the dominant hand; off_hand: the other (keys chosen so that no
    # YAML 1.1 reader turns them into booleans, as it would "off")
    equipment = {"main": eq.get("main_hand"), "off": eq.get("off_hand")}
    for k in eq:
        if k not in ("main_hand", "off_hand"):
            p.append(f"{where}.equipment.{k}: unknown key (known: main_hand, off_hand)")
    for hand_key, name in (("main_hand", equipment["main"]), ("off_hand", equipment["off"])):
        if name is not None and not isinstance(name, str):
            p.append(f"{where}.equipment.{hand_key}: must be the name of a weapon (or null), not {name!r}")
            equipment["main" if hand_key == "main_hand" else "off"] = name = None
        if name is not None and name not in data.weapons:
            p.append(f"{where}.equipment.{hand_key}: unknown weapon {name!r} (known: {', '.join(data.weapons)})")
    m, o = equipment["main"], equipment["off"]
    if m in data.weapons and data.weapons[m]["hands"] == 2 and o is not None:
        p.append(f"{where}.equipment.off_hand: {m} is two-handed, the off hand must be empty")
    if o in data.weapons and data.weapons[o]["hands"] == 2:
        p.append(f"{where}.equipment.off_hand: {o} is two-handed, put it in main_hand")
    inventory = {}
    for k, v in _mapping(block.get("inventory"), f"{where}.inventory", p, "item: count").items():
        if k not in data.items and k not in data.weapons:
            p.append(f"{where}.inventory.{k}: unknown item or weapon")
        inventory[k] = _int(v, f"{where}.inventory.{k}", p, 0)
    ammo = {}
    for k, v in _mapping(block.get("ammo"), f"{where}.ammo", p, "ammunition: count").items():
        if k not in data.ammo:
            p.append(f"{where}.ammo.{k}: unknown ammunition (known: {', '.join(data.ammo)})")
        ammo[k] = _int(v, f"{where}.ammo.{k}", p, 0)
    skills = tuple(_names(block.get("skills"), f"{where}.skills", p, "skills"))
    for s in skills:
        if s not in data.skills:
            p.append(f"{where}.skills: unknown skill {s!r} (known: {', '.join(data.skills)})")
    spells = tuple(_names(block.get("spells"), f"{where}.spells", p, "spells"))
    for s in spells:
        if s not in data.spells:
            p.append(f"{where}.spells: unknown spell {s!r} (known: {', '.join(data.spells)})")
    rcs = _int(block.get("runic_casting_speed", 1), f"{where}.runic_casting_speed", p, 1)
    powers = {k: _int(block.get(k, 0), f"{where}.{k}", p, 0)
              for k in ("offensive_power", "bow_power", "runic_power")}
    if p:
        raise NorovaDataError(p)
    return Sheet(vitality=pools["vitality"], soul=pools["soul"], power=pools["power"], traits=traits,
                 runic_casting_speed=rcs, move=float(move), saves=saves, dominant_hand=hand,
                 abilities=frozenset(abilities), element=element, equipment=equipment,
                 inventory=inventory, ammo=ammo, skills=skills, spells=spells, **powers)


def _derive(rule: dict, stats: dict) -> int:
    if "fixed" in rule:
        return int(rule["fixed"])
    v = int(stats.get(rule["stat"], 0))
    if "times" in rule:
        v = v * int(rule["times"]) + int(stats.get(rule.get("plus_stat", ""), 0))
    else:
        v = (v - int(rule.get("minus", 0))) // int(rule.get("per", 1))
    return max(int(rule.get("min", 0)), v)


def block_from_eldfall(unit, data: RuleData) -> dict:
    """A ``norova:`` block derived from a unit's Eldfall stats, weapons and spells
    (rules/norova/data/conversion.yaml: the project's simple rule)."""
    cv = _load("conversion.yaml")
    st = dict(unit.stats or {})
    block: dict = {k: _derive(r, st) for k, r in cv["pools"].items()}
    block["traits"] = {k: _derive(r, st) for k, r in cv["traits"].items()}
    block.update({k: _derive(r, st) for k, r in cv["powers"].items()})
    block["move"] = max(1, _derive(cv["move"], st))
    block["runic_casting_speed"] = int(cv["runic_casting_speed"])
    held: list[str] = []
    ammo: dict[str, int] = {}
    inventory = dict(cv["inventory"])
    for w in unit.weapons or []:
        for rule in cv["weapons"]:
            if rule["kind"] != w.get("kind"):
                continue
            if "hands" in rule and int(w.get("hands", 1)) != rule["hands"] and not any(
                    h in str(w.get("name", "")).lower() for h in rule.get("name_has", [])):
                continue
            if "min_rch" in rule and float(w.get("rch", 0)) < rule["min_rch"]:
                continue
            held.append(rule["norova"])
            for k, n in (rule.get("ammo") or {}).items():
                ammo[k] = ammo.get(k, 0) + int(n)
            break
    main = held[0] if held else None
    for extra in held[1:]:
        inventory[extra] = inventory.get(extra, 0) + 1
    block["equipment"] = {"main_hand": main, "off_hand": None}
    block["inventory"] = inventory
    block["ammo"] = ammo
    spells = []
    element = ""
    for sp in unit.spells or []:
        rule = cv["spells"].get(sp.get("type"))
        if rule is None:
            continue
        name = rule if isinstance(rule, str) else rule.get(sp.get("affinity"), rule["default"])
        if name not in spells:
            spells.append(name)
        element = element or cv["elements"].get(sp.get("affinity"), "")
    block["spells"] = spells
    if element:
        block["element"] = element
    return block
