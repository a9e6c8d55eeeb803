"""The other tables of the Eldfall Actions page: activation sequence, movement
distances, spell types, AoE templates, the recovery check, and the numbers the
action rules print (profiles, attributes, modifiers, duel, ritual).

Source: ``seeds/eldfall-actions.txt``; data: ``data/tables.yaml``.

Public API
----------
``ACTIVATION_STEPS``  tuple of {"step", "name", "who", "what"} (5 rows).
``activation_steps() -> list[dict]``  a copy of them.
``MOVEMENT_NAMES``    ("Idle", "Walk", "Run", "Climb", "Jump").
``movement_distance(movement, spd, *, settings=None) -> float``  inches
    (Idle 0, Walk SPD, Run 2 SPD, Climb ceil(SPD/2), Jump SPD/2; pass the
    *modified* SPD, see conditions.modified_stats).
``dodge_move_distance(spd) -> int``  after a Dodge: ceil(SPD/2).
``movement_row(movement) -> dict``
``SPELL_TYPES``  names; ``spell_type(name) -> dict`` (duration, roles, lasts,
    dodgeable, max_same_name_per_model, requires_action, ...).
``casting_rules() -> dict``
``TEMPLATES``    names; ``template(name) -> dict`` with ``size_in`` (inches)
    added; ``aoe_rules() -> dict``.
``profile(name, stats) -> dict``  "Unarmed" / "Shield Bash" with PW options
    computed from the stats: {"pw_options": [..], "pw": best, "rch", "stk", "traits"}.
``roll_attribute(action, role, *, spell=False, mystic=False, immobilized=False)
-> tuple[str, ...]``  the attribute(s) a roll uses; ``uncover_halved()`` True.
``friendly_fire_modifier(allies_in_contact) -> int``; ``friendly_fire_hits_ally(roll, allies_in_contact) -> bool``
``cover_modifier(cover) -> int``  "none" 0, "light" -2, "heavy" -4.
``duel_vp(result) -> dict``  result "win" | "draw": VP per side.
``ritual_rules() -> dict``; ``summoning_allowed(tiers_on_field, new_tier, caster_modified_sta) -> bool``
``recovery_check() -> dict``; ``recovery_reroll_allowed(ally_in_contact, incapacitated_engaged, ally_engaged) -> bool``;
``recovery_outcome(success) -> dict``.
``tables() -> dict``  everything, for the HUD.
"""
from __future__ import annotations

import copy
import math
from fractions import Fraction
from typing import Any, Iterable, Mapping

from ._tabledata import Checker, load
from .table_settings import TableSettings, resolve

_FILE = "tables.yaml"
MM_PER_INCH = 25.4


def _build() -> dict[str, Any]:
    data = load(_FILE)
    c = Checker(_FILE)
    steps = c.need(data, "activation_sequence", "", list) or []
    for i, row in enumerate(steps):
        if row.get("step") != i + 1:
            c.fail(f"activation_sequence[{i}].step", f"must be {i + 1}")
        for k in ("name", "who", "what"):
            c.need(row, k, f"activation_sequence[{i}]", str)
    moves = {}
    for i, row in enumerate(c.need(data, "movements", "", list) or []):
        p = f"movements[{i}]"
        name = c.need(row, "name", p, str)
        c.need(row, "factor", p, (int, float))
        if row.get("rounding") not in ("up", "none"):
            c.fail(f"{p}.rounding", "must be up or none")
        moves[name] = row
    spells = {}
    for i, row in enumerate(c.need(data, "spell_types", "", list) or []):
        p = f"spell_types[{i}]"
        name = c.need(row, "name", p, str)
        roles = c.need(row, "roles", p, list) or []
        for r in roles:
            if r not in ("active", "reactive"):
                c.fail(f"{p}.roles", f"unknown role {r!r}")
        spells[name] = row
    temps = {}
    for i, row in enumerate(c.need(data, "templates", "", list) or []):
        p = f"templates[{i}]"
        name = c.need(row, "name", p, str)
        c.need(row, "size_mm", p, (int, float))
        c.need(row, "band_in", p, (int, float))
        if row.get("shape") not in ("circle", "spray"):
            c.fail(f"{p}.shape", "must be circle or spray")
        temps[name] = row
    stats = {"STA", "SPD", "ARM", "HP", "OFF", "DEF", "ACC", "INT", "AG", "T", "M"}
    for action, row in (data.get("attributes") or {}).items():
        for role, attr in row.items():
            for a in (attr if isinstance(attr, list) else [attr]):
                if role != "halved" and a not in stats:   # an unquoted OFF reads as false
                    c.fail(f"attributes.{action}.{role}", f"unknown stat {a!r} (quote \"OFF\")")
    for key in ("profiles", "attributes", "modifiers", "duel", "ritual", "recovery_check", "aoe_rules",
                "casting", "dodge_move"):
        c.need(data, key, "", dict)
    c.done()
    return {"data": data, "moves": moves, "spells": spells, "templates": temps}


_T = _build()

ACTIVATION_STEPS: tuple[dict, ...] = tuple(
    {k: r[k] for k in ("step", "name", "who", "what")} for r in _T["data"]["activation_sequence"])
MOVEMENT_NAMES: tuple[str, ...] = tuple(_T["moves"])
SPELL_TYPES: tuple[str, ...] = tuple(_T["spells"])
TEMPLATES: tuple[str, ...] = tuple(_T["templates"])


def activation_steps() -> list[dict]:
    """The 5 steps of the Activation Sequence: {"step", "name", "who", "what"}."""
    return [dict(s) for s in ACTIVATION_STEPS]


def movement_row(movement: str) -> dict:
    if movement not in _T["moves"]:
        raise ValueError(f"unknown movement {movement!r}; known: {', '.join(MOVEMENT_NAMES)}")
    return copy.deepcopy(_T["moves"][movement])


def _scaled(spd: float, factor: float, rounding: str) -> float:
    value = Fraction(spd).limit_denominator(10**6) * Fraction(factor).limit_denominator(10**6)
    if rounding == "up":
        return float(math.ceil(value))
    return float(value)


def movement_distance(movement: str, spd: float, *, settings: TableSettings | Mapping | None = None) -> float:
    """The most a ``movement`` may cover, inches, for the model's modified SPD.

    >>> [movement_distance(m, 5) for m in ("Idle", "Walk", "Run", "Climb", "Jump")]
    [0.0, 5.0, 10.0, 3.0, 2.5]
    """
    row = movement_row(movement)
    if spd < 0:
        raise ValueError("SPD cannot be negative")
    rounding = row["rounding"]
    if movement == "Jump" and resolve(settings).jump_round_up:
        rounding = "up"
    return _scaled(spd, row["factor"], rounding)


def dodge_move_distance(spd: float) -> float:
    """After a Dodge (either result): up to SPD / 2, rounded up."""
    d = _T["data"]["dodge_move"]
    return _scaled(spd, d["factor"], d["rounding"])


def spell_type(name: str) -> dict:
    """The Spell Types row of ``name`` (plus the data flags)."""
    if name not in _T["spells"]:
        raise ValueError(f"unknown spell type {name!r}; known: {', '.join(SPELL_TYPES)}")
    row = copy.deepcopy(_T["spells"][name])
    row.setdefault("dodgeable", True)
    row.setdefault("max_same_name_per_model", None)
    row.setdefault("requires_action", None)
    row.setdefault("mana_cost", False)
    return row


def casting_rules() -> dict:
    """Requirements to cast Spells (affinity, hands, one per Activation, INT / M)."""
    return copy.deepcopy(_T["data"]["casting"])


def template(name: str) -> dict:
    """The AoE table row of ``name``, with ``size_in`` = size_mm / 25.4."""
    if name not in _T["templates"]:
        raise ValueError(f"unknown template {name!r}; known: {', '.join(TEMPLATES)}")
    row = copy.deepcopy(_T["templates"][name])
    row["size_in"] = row["size_mm"] / MM_PER_INCH
    return row


def aoe_rules() -> dict:
    return copy.deepcopy(_T["data"]["aoe_rules"])


def profile(name: str, stats: Mapping[str, int]) -> dict:
    """The Unarmed or Shield Bash profile for a model's (modified) stats.
    Unarmed PW is "T or AG−3": both options and the better one."""
    rows = _T["data"]["profiles"]
    if name not in rows:
        raise ValueError(f"unknown profile {name!r}; known: {', '.join(rows)}")
    row = rows[name]
    options = []
    for term in row["pw"]:
        if "-" in term:
            stat, minus = term.split("-")
            options.append(max(int(stats[stat]) - int(minus), 0))
        else:
            options.append(int(stats[term]))
    return {"name": name, "pw_options": options, "pw": max(options), "rch": row["rch"], "stk": row["stk"],
            "traits": list(row["traits"]), "needs": row.get("needs")}


def roll_attribute(action: str, role: str, *, spell: bool = False, mystic: bool = False,
                   immobilized: bool = False) -> tuple[str, ...]:
    """The attribute(s) the roll of ``action`` uses (several = the player's choice).

    Melee: OFF active, DEF reactive; Ranged: ACC; with a Spell: INT (a Mystic:
    M); Dodge: AG (Immobilized: AG or T); Perceive: INT; Uncover: INT (halved,
    ``uncover_halved()``); "Recovery Check": T.
    """
    rows = _T["data"]["attributes"]
    if action not in rows:
        raise ValueError(f"no roll for {action!r}; rolls: {', '.join(rows)}")
    row = rows[action]
    if role not in ("active", "reactive"):
        raise ValueError("role must be active or reactive")
    if immobilized and "immobilized" in row:
        return tuple(row["immobilized"])
    if spell or action == "Spell Attack":
        attr = row.get("spell", "INT")
    else:
        if role not in row:
            raise ValueError(f"{action} is not rolled in the {role} role")
        attr = row[role]
    if attr == "INT" and mystic and (spell or action in ("Spell Attack", "Assist")):
        attr = _T["data"]["casting"]["mystic_attribute"]
    return (attr,)


def uncover_halved() -> bool:
    return bool(_T["data"]["attributes"]["Uncover"].get("halved"))


def friendly_fire_modifier(allies_in_contact: int) -> int:
    """−4 per allied model in Base Contact with the target (stackable)."""
    if allies_in_contact < 0:
        raise ValueError("allies_in_contact cannot be negative")
    return _T["data"]["modifiers"]["friendly_fire_per_ally"] * allies_in_contact


def friendly_fire_hits_ally(roll: int, allies_in_contact: int) -> bool:
    """A roll of 17–20 hits an allied model instead (when one is in contact)."""
    lo, hi = _T["data"]["modifiers"]["friendly_fire_hits_ally"]
    return allies_in_contact > 0 and lo <= roll <= hi


def cover_modifier(cover: str) -> int:
    table = _T["data"]["modifiers"]["cover"]
    if cover not in table:
        raise ValueError(f"cover must be one of {', '.join(table)}, not {cover!r}")
    return table[cover]


def duel_vp(result: str) -> dict[str, int]:
    """VP for a Duel that ends the game: "win" {"winner": 6, "loser": 0};
    "draw" {"each": 3}."""
    d = _T["data"]["duel"]
    if result == "win":
        return {"winner": d["vp_winner"], "loser": 0}
    if result == "draw":
        return {"each": d["vp_draw_each"]}
    raise ValueError("result must be win or draw")


def ritual_rules() -> dict:
    return copy.deepcopy(_T["data"]["ritual"])


def summoning_allowed(tiers_on_field: Iterable[int], new_tier: int, caster_modified_sta: int) -> bool:
    """Summoning Limit = the creature's Tier; the total of all the caster's
    summoned creatures on the field may not exceed its modified STA."""
    return sum(tiers_on_field) + new_tier <= caster_modified_sta


def recovery_check() -> dict:
    """The Recovery Check rule: when, who, roll, success/failure, reroll."""
    return copy.deepcopy(_T["data"]["recovery_check"])


def recovery_reroll_allowed(ally_in_contact: bool, incapacitated_engaged: bool, ally_engaged: bool) -> bool:
    """One reroll if an allied model is in Base Contact and neither model is Engaged."""
    return ally_in_contact and not incapacitated_engaged and not ally_engaged


def recovery_outcome(success: bool) -> dict:
    """Success: {"regain_hp": 1, "enter": ["Weakened"], "cancel": ["Incapacitated"]};
    failure: {"remain": "Incapacitated"}."""
    rc = _T["data"]["recovery_check"]
    return copy.deepcopy(rc["success"] if success else rc["failure"])


def tables() -> dict:
    """Every table of this module (a deep copy), for the HUD."""
    return copy.deepcopy(_T["data"])
