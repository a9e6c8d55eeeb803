"""Eldfall States: effects, removal, no stacking, State Priorities, stat changes.

Source: ``seeds/eldfall-states.txt`` (Summary Table, Detailed Rules, State
Interactions, State Priorities) and ``rules/eldfall-facts.md``. The data is
``data/states.yaml``; rulings are settings
(:class:`rules.eldfall.table_settings.TableSettings`). States are plain
strings held in a ``frozenset``; every function is pure.

Public API
----------
``STATES``                     tuple[str, ...]: the 16 States + Petrified.
``CAUSES``                     dict cause -> description (the removal events).
``PRIORITIES``                 tuple of the State Priorities rows (dicts).
``Note``                       a ``str`` with a ``.code`` (stable, for the engine):
    "flying_cancelled", "dismount_rider", "entered", "no_stacking",
    "dead_no_change", "cannot_enter", "dead", "shrouded_cancelled",
    "surprise_attack", "removed_from_play_as_loss", "may_cancel_crouched".
``StateRuleError(ValueError)`` a removal or entry the rules forbid.

``add_state(states, name, *, voluntary=False, settings=None)
-> tuple[frozenset[str], list[Note]]``
    Enter ``name`` and apply the State Priorities (Flying cancelled on
    Crouched/Immobilized/Petrified/Dead/Incapacitated, Incapacitated enters
    Crouched, rider dismounted, Flying ends Engaged). Already held: no change
    (a Note "no_stacking"). A Dead model gains nothing new. A state that
    would at once cancel Flying stops a model from *entering* Flying.
    ``voluntary=True``: the model chooses it (Flying may not choose Crouched:
    StateRuleError).
``remove_state(states, name, cause, *, origin=None, settings=None) -> frozenset``
    Remove ``name`` for ``cause`` (a key of ``CAUSES``); raises
    StateRuleError if that cause does not end that State (e.g. Dead never
    ends; Immobilized only on "dodge_success"; Weakened at
    "strategic_phase" only with ``origin="Poison I"``, Incapacitated only
    with ``origin="effect"``, Panicked only with ``origin="Friendly Fire"``).
    A Dead model keeps all its States; an Incapacitated one stays Crouched.
    Not held: returned unchanged.
``removal_causes(name) -> dict[str, str | None]`` cause -> origin it needs.
``on_wound(states) -> (states, notes)``  Incapacitated + Wound -> Dead.
``on_action_declared(states, action, settings=None) -> (states, notes)``
    Shrouded cancelled by any declaration but Nothing; Surprise Attack note
    when it is an Attack.
``on_activation_start(states, *, morale_failed=False, settings=None)
-> availability.Forced | None``  the forced Panicked declaration.
``on_past_edge(states) -> list[Note]``  Panicked: removed from play, a loss.
``needs_morale_roll(states) -> bool``  Panicked: roll M at each Activation/Reaction.
``strategic_rolls(states) -> list[dict]``  Bleeding T, Poisoned T-6: each
    {"state", "stat", "modifier", "on_fail"}.
``expiring_at_strategic_phase(states, origins=None) -> frozenset[str]``
``can_activate(states)``, ``can_react(states)``, ``receives_ap(states)``
``allowed_movements(states, *, panic_failed=False, environment=frozenset(),
settings=None) -> frozenset[str]`` (same as availability.allowed_movements)
``hitbox_shrinks(states) -> bool``  Crouched or Dead.
``sight_rule(states) -> str``  "none" (Blinded) > "all" (Flying: LoS to and
    from every model) > "360" (Shrouded) > "normal".
``seen_by_all(states) -> bool``  Flying: every model has LoS to it.
``auto_los_to_engagers(states) -> bool``  Engaged.
``cover_rule(states) -> str``  "none" (Flying gets no Cover) | "light"
    (Crouched counts as in Light Cover vs Ranged) | "normal".
``causes_engagement(states)``, ``can_be_engaged(states)``,
``ends_engagement(engager_states)`` (engager Incapacitated/Petrified/Crouched/Dead).
``targeting_block(target_states, action, *, attacker_states=frozenset(),
retaliating=False) -> str | None``  why ``action`` may not target the model.
``crouch_change_allowed(states, when, *, dodge_success=False, voluntary=True,
settings=None) -> str | None`` why Crouched may not be entered/cancelled now.
``ignored_for_game(states)``, ``uses_abilities(states)``, ``obstructs_movement(states)``.
``modified_stats(base_stats, states, environment=frozenset(), *,
modifiers=None, effects=(), settings=None) -> dict[str, int]``
    Additive changes first (Weakened STA -1, ``modifiers``), then every
    halving and doubling as one factor, rounding up once, then caps
    (Crouched STK 1). Unknown stats pass through. Never below 0.
``upkeep_ap(base_stats, states, *, watchful=False, reactive=False) -> int``
``state_info(name) -> dict``  the states.yaml entry (read-only copy).
"""
from __future__ import annotations

import copy
import math
from fractions import Fraction
from typing import Any, Iterable, Mapping

from . import availability as _av
from ._tabledata import Checker, load
from .availability import ATTACK_ACTIONS, Forced, KNOWN_STATES
from .table_settings import TableSettings, resolve

_FILE = "states.yaml"

_STAT_OPS = ("half", "double")
# profile stats (engine.scene.Profile) + STK (a weapon's, capped by Crouched)
STAT_NAMES = ("STA", "SPD", "ARM", "HP", "OFF", "DEF", "ACC", "INT", "AG", "T", "M", "STK")


class StateRuleError(ValueError):
    """A State change the rules forbid; the message names the rule."""


class Note(str):
    """A human-readable note with a stable machine code (``.code``)."""

    code: str

    def __new__(cls, text: str, code: str) -> "Note":
        obj = super().__new__(cls, text)
        obj.code = code
        return obj

    def __repr__(self) -> str:
        return f"Note({str(self)!r}, code={self.code!r})"


def _parse_ops(ops: Any, path: str, c: Checker) -> list[tuple[str, int]]:
    out = []
    stat = path.rsplit(".", 1)[-1]
    if stat not in STAT_NAMES:      # e.g. an unquoted OFF, which YAML reads as false
        c.fail(path, f"unknown stat; known: {', '.join(STAT_NAMES)} (quote \"OFF\" in YAML)")
    if not isinstance(ops, list):
        c.fail(path, "must be a list of changes (half, double, add N, cap N)")
        return out
    for i, op in enumerate(ops):
        if op in _STAT_OPS:
            out.append((op, 0))
            continue
        parts = str(op).split()
        if len(parts) == 2 and parts[0] in ("add", "cap"):
            try:
                out.append((parts[0], int(parts[1])))
                continue
            except ValueError:
                pass
        c.fail(f"{path}[{i}]", f"unknown change {op!r}; use half, double, 'add N' or 'cap N'")
    return out


def _build() -> dict[str, Any]:
    data = load(_FILE)
    c = Checker(_FILE)
    causes = c.need(data, "causes", "", dict) or {}
    states: dict[str, dict] = {}
    for i, row in enumerate(c.need(data, "states", "", list) or []):
        p = f"states[{i}]"
        name = c.need(row, "name", p, str)
        if name is None:
            continue
        if name in states:
            c.fail(f"{p}.name", f"{name} is defined twice")
        c.need(row, "can_activate", p, bool)
        c.need(row, "can_react", p, bool)
        removed = []
        for j, entry in enumerate(row.get("removed_by", [])):
            if isinstance(entry, str):
                cause, only = entry, None
            else:
                cause, only = entry.get("cause"), entry.get("only_if")
            if cause not in causes:
                c.fail(f"{p}.removed_by[{j}]", f"unknown cause {cause!r}; known: {', '.join(causes)}")
            removed.append((cause, only))
        row = dict(row)
        row["_removed"] = removed
        row["_stats"] = {str(stat): _parse_ops(ops, f"{p}.stats.{stat}", c)
                         for stat, ops in (row.get("stats") or {}).items()}
        for key in ("enters", "blocks_voluntary"):
            c.names(row.get(key, []), f"{p}.{key}", set(KNOWN_STATES), "state")
        states[name] = row
    if tuple(states) != tuple(KNOWN_STATES):
        c.fail("states", f"must define exactly {', '.join(KNOWN_STATES)} in that order "
                         f"(availability.yaml known_states); got {', '.join(states)}")
    prios = []
    for i, row in enumerate(c.need(data, "priorities", "", list) or []):
        p = f"priorities[{i}]"
        c.need(row, "situation", p, str)
        when = c.need(row, "when", p, dict) or {}
        result = c.need(row, "result", p, dict) or {}
        for key in ("has", "gains"):
            c.names(when.get(key, []), f"{p}.when.{key}", set(KNOWN_STATES), "state")
        for key in ("cancel", "enter"):
            c.names(result.get(key, []), f"{p}.result.{key}", set(KNOWN_STATES), "state")
        if when.get("event") not in (None, "wound", "activation_start", "past_edge", "declare"):
            c.fail(f"{p}.when.event", f"unknown event {when.get('event')!r}")
        prios.append(row)
    extra = {}
    for section in ("environment_stats", "effect_stats"):
        extra[section] = {k: {str(stat): _parse_ops(ops, f"{section}.{k}.{stat}", c) for stat, ops in v.items()}
                          for k, v in (data.get(section) or {}).items()}
    c.done()
    return {"states": states, "causes": dict(causes), "priorities": prios, **extra}


_T = _build()

STATES: tuple[str, ...] = tuple(_T["states"])
CAUSES: dict[str, str] = dict(_T["causes"])
PRIORITIES: tuple[dict, ...] = tuple(copy.deepcopy(p) for p in _T["priorities"])


def _st(states: Iterable[str]) -> frozenset[str]:
    st = frozenset(states)
    bad = st - set(STATES)
    if bad:
        raise ValueError(f"unknown state(s) {sorted(bad)}; known: {', '.join(STATES)}")
    return st


def _name(name: str) -> None:
    if name not in _T["states"]:
        raise ValueError(f"unknown state {name!r}; known: {', '.join(STATES)}")


def _row(name: str) -> dict:
    return _T["states"][name]


def state_info(name: str) -> dict:
    """The states.yaml entry of ``name`` (a deep copy, without private keys)."""
    _name(name)
    return {k: copy.deepcopy(v) for k, v in _row(name).items() if not k.startswith("_")}


# ------------------------------------------------------------------ entering and priorities

def _flying_cancellers() -> frozenset[str]:
    out: set[str] = set()
    for p in _T["priorities"]:
        if "Flying" in p["result"].get("cancel", []) and p["when"].get("has") == ["Flying"]:
            out |= set(p["when"].get("gains", []))
    return frozenset(out)


_FLYING_CANCELLERS = _flying_cancellers()


def _apply_gain(st: set[str], name: str, notes: list[Note], depth: int = 0) -> None:
    """Enter ``name`` into ``st`` (mutated) and run the gain priorities."""
    if depth > 10:                       # the data cannot loop, but never spin
        raise StateRuleError("State Priorities loop")
    if name in st:
        notes.append(Note(f"{name} already held: States of the same name cannot stack", "no_stacking"))
        return
    st.add(name)
    if depth:
        notes.append(Note(f"{name} entered", "entered"))
    for p in _T["priorities"]:
        when, result = p["when"], p["result"]
        if when.get("event") or name not in when.get("gains", []):
            continue
        if not set(when.get("has", [])) <= st:
            continue
        for cancel in result.get("cancel", []):
            if cancel in st:
                st.discard(cancel)
                code = "flying_cancelled" if cancel == "Flying" else f"{cancel.lower()}_cancelled"
                notes.append(Note(f"{cancel} cancelled: {p['situation']}", code))
        if result.get("effect"):
            notes.append(Note(f"{p.get('result_text', result['effect'])}: {p['situation']}", result["effect"]))
        for enter in result.get("enter", []):
            _apply_gain(st, enter, notes, depth + 1)


def add_state(states: Iterable[str], name: str, *, voluntary: bool = False,
              settings: TableSettings | Mapping | None = None) -> tuple[frozenset[str], list[Note]]:
    """Enter State ``name``; returns (new states, notes of what else happened).

    >>> s, notes = add_state({"Flying"}, "Crouched")
    >>> sorted(s), [n.code for n in notes]
    (['Crouched'], ['flying_cancelled', 'dismount_rider'])
    """
    st = set(_st(states))
    _name(name)
    notes: list[Note] = []
    if "Dead" in st and name != "Dead":
        return frozenset(st), [Note(f"a Dead model keeps the States it had and gains no new one ({name})",
                                    "dead_no_change")]
    if name in st:
        return frozenset(st), [Note(f"{name} already held: States of the same name cannot stack",
                                    "no_stacking")]
    if voluntary:
        for held in sorted(st):
            if name in _row(held).get("blocks_voluntary", []):
                raise StateRuleError(f"a {held} model cannot voluntarily become {name}")
    if name == "Flying":
        blockers = sorted(st & _FLYING_CANCELLERS)
        if blockers:
            return frozenset(st), [Note(f"cannot enter Flying while {', '.join(blockers)} "
                                        "(it would be cancelled at once)", "cannot_enter")]
    if name == "Engaged":
        no = [h for h in sorted(st) if not (_row(h).get("engagement") or {}).get("can_be", True)]
        if no:
            return frozenset(st), [Note(f"a {no[0]} model cannot become Engaged", "cannot_enter")]
    _apply_gain(st, name, notes)
    return frozenset(st), notes


def removal_causes(name: str) -> dict[str, str | None]:
    """cause -> the origin the State must have for it (None: any origin)."""
    _name(name)
    return {cause: only for cause, only in _row(name)["_removed"]}


def remove_state(states: Iterable[str], name: str, cause: str, *, origin: str | None = None,
                 settings: TableSettings | Mapping | None = None) -> frozenset[str]:
    """Remove ``name`` because of ``cause``; StateRuleError when the rules say
    that cause does not end it (see the module docstring)."""
    st = _st(states)
    _name(name)
    if cause not in CAUSES:
        raise ValueError(f"unknown cause {cause!r}; known: {', '.join(CAUSES)}")
    s = resolve(settings)
    allowed = removal_causes(name)
    if cause not in allowed:
        printed = _row(name).get("summary", {}).get("removed_by", "specific abilities (ruling)")
        raise StateRuleError(f"{name} is not removed by {cause} ({CAUSES[cause]}); removed by: {printed}")
    need = allowed[cause]
    if need is not None and origin != need:
        raise StateRuleError(f"{name} ends with {cause} only when it was caused by {need}"
                             f" (origin given: {origin!r})")
    if "Dead" in st and name in st:
        raise StateRuleError("a Dead model retains all the States it had when entering Dead")
    if name == "Crouched" and "Incapacitated" in st:
        raise StateRuleError("an Incapacitated model stays Crouched; it may cancel Crouched "
                             "when Incapacitated is cancelled")
    if name == "Crouched" and cause == "dodge":
        if "Immobilized" in st:
            raise StateRuleError("an Immobilized model cannot cancel Crouched unless its Dodge is successful")
        if not s.crouch_change_after_failed_dodge:
            raise StateRuleError("Crouched is cancelled only by a successful Dodge "
                                 "(setting crouch_change_after_failed_dodge is off)")
    if name not in st:
        return st
    return st - {name}


def crouch_change_allowed(states: Iterable[str], when: str, *, dodge_success: bool = False,
                          voluntary: bool = True,
                          settings: TableSettings | Mapping | None = None) -> str | None:
    """None if the model may enter or cancel Crouched now, else why not.

    ``when``: "movement_start" | "movement_end" (its own, or the Activated
    model's Movement Step when reacting) | "after_dodge".
    """
    st = _st(states)
    s = resolve(settings)
    if when not in ("movement_start", "movement_end", "after_dodge"):
        raise ValueError("when must be movement_start, movement_end or after_dodge")
    for n in ("Dead", "Petrified"):
        if n in st:
            return f"a {n} model cannot change State"
    if "Incapacitated" in st:
        return "an Incapacitated model stays Crouched until the State is cancelled"
    if "Flying" in st and "Crouched" not in st and voluntary:
        return "a Flying model cannot voluntarily become Crouched"
    if when == "after_dodge":
        if "Immobilized" in st and not dodge_success:
            return "an Immobilized model cannot enter or cancel Crouched unless its Dodge is successful"
        if not dodge_success and not s.crouch_change_after_failed_dodge:
            return "Crouched changes after a successful Dodge only (setting crouch_change_after_failed_dodge)"
    return None


def on_wound(states: Iterable[str]) -> tuple[frozenset[str], list[Note]]:
    """A Wound suffered: an Incapacitated model becomes Dead (State Priorities).
    (A model at 0 HP becomes Incapacitated at the end of the Activation
    Sequence: the engine calls ``add_state(states, "Incapacitated")`` then.)"""
    st = set(_st(states))
    notes: list[Note] = []
    for p in _T["priorities"]:
        when, result = p["when"], p["result"]
        if when.get("event") == "wound" and set(when.get("has", [])) <= st:
            for enter in result.get("enter", []):
                if enter not in st:
                    notes.append(Note(f"{p['result_text']}: {p['situation']}", enter.lower()))
                    _apply_gain(st, enter, notes)
    return frozenset(st), notes


def on_action_declared(states: Iterable[str], action: str,
                       settings: TableSettings | Mapping | None = None) -> tuple[frozenset[str], list[Note]]:
    """A declaration made (either role): Shrouded is cancelled by any action
    but Nothing, and an Attack gains Surprise Attack (State Priorities). With
    ``shrouded_dodge_keeps_state`` a Dodge keeps Shrouded."""
    st = set(_st(states))
    if action not in _av.ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    s = resolve(settings)
    if not (can_activate(st) or can_react(st)):
        raise StateRuleError("a model in the States " + ", ".join(sorted(st)) + " cannot declare Actions")
    notes: list[Note] = []
    if "Shrouded" not in st or action == "Nothing":
        return frozenset(st), notes
    if action == "Dodge" and s.shrouded_dodge_keeps_state:
        return frozenset(st), notes
    st.discard("Shrouded")
    notes.append(Note("Shrouded State is canceled: Shrouded model declares any Action except Nothing",
                      "shrouded_cancelled"))
    if action in ATTACK_ACTIONS:
        notes.append(Note("gains Surprise Attack on that Attack: Shrouded model declares Attack",
                          "surprise_attack"))
    return frozenset(st), notes


def on_activation_start(states: Iterable[str], *, morale_failed: bool = False,
                        settings: TableSettings | Mapping | None = None) -> Forced | None:
    """The declaration forced at the start of an Activation (Panicked), or None.
    ``morale_failed``: the Panicked model failed its M roll (see
    ``needs_morale_roll``). Same as ``availability.forced_declaration``."""
    return _av.forced_declaration(_st(states), panic_failed=morale_failed, settings=settings)


def on_past_edge(states: Iterable[str]) -> list[Note]:
    """A model moved past the field edge: a Panicked one is removed from play and
    counts as a loss (State Priorities). Other models: no note (their move is
    illegal; the engine refuses it)."""
    st = _st(states)
    if "Panicked" in st:
        return [Note("Removed from play (counts as loss): Panicked model would move past field edge",
                     "removed_from_play_as_loss")]
    return []


def needs_morale_roll(states: Iterable[str]) -> bool:
    """Panicked: a Morale roll at the beginning of each Activation or Reaction."""
    st = _st(states)
    return can_activate(st) and any(_row(n).get("morale_roll") for n in st)


def strategic_rolls(states: Iterable[str]) -> list[dict[str, Any]]:
    """Rolls due at the start of the model's Strategic Phase (Bleeding: T;
    Poisoned: T with -6), each {"state", "stat", "modifier", "on_fail"}."""
    st = _st(states)
    if "Dead" in st:
        return []
    out = []
    for n in STATES:
        roll = _row(n).get("strategic_roll") if n in st else None
        if roll:
            out.append({"state": n, **roll})
    return out


def expiring_at_strategic_phase(states: Iterable[str],
                                origins: Mapping[str, str] | None = None) -> frozenset[str]:
    """States that end at the start of this model's Strategic Phase, given the
    origin of each State (``origins``: state -> origin, e.g.
    {"Weakened": "Poison I"}). Fatigued always ends then."""
    st = _st(states)
    origins = origins or {}
    out = set()
    for n in st:
        causes = removal_causes(n)
        if "strategic_phase" in causes:
            need = causes["strategic_phase"]
            if need is None or origins.get(n) == need:
                out.add(n)
    return frozenset(out)


# ------------------------------------------------------------------ capabilities

def can_activate(states: Iterable[str]) -> bool:
    """False for Incapacitated, Dead, Petrified."""
    return all(_row(n)["can_activate"] for n in _st(states))


def can_react(states: Iterable[str]) -> bool:
    """False for Incapacitated, Dead, Petrified (others may be limited:
    see ``reaction_rules.allowed_reactions``)."""
    return all(_row(n)["can_react"] for n in _st(states))


def receives_ap(states: Iterable[str]) -> bool:
    """False for Incapacitated, Dead, Petrified (no AP at all) and Fatigued
    (cannot regain AP in the Upkeep Phase)."""
    return all(_row(n).get("receives_ap", True) for n in _st(states))


def allowed_movements(states: Iterable[str], *, panic_failed: bool = False,
                      environment: Iterable[str] = frozenset(),
                      settings: TableSettings | Mapping | None = None) -> frozenset[str]:
    """Movements the model may declare (see availability.allowed_movements)."""
    return _av.allowed_movements(states, panic_failed=panic_failed, environment=environment,
                                 settings=settings)


def hitbox_shrinks(states: Iterable[str]) -> bool:
    """Crouched or Dead: the hitbox shrinks to the size and volume of the base."""
    return any(_row(n).get("hitbox") == "base" for n in _st(states))


_SIGHT_ORDER = ("none", "all", "360", "normal")


def sight_rule(states: Iterable[str]) -> str:
    """The model's own LoS exception: "none" (Blinded: no LoS but to itself),
    "all" (Flying: LoS to every model), "360" (Shrouded: 360° LoS), or
    "normal" (front arc; 360° while moving). The strongest restriction wins:
    a Blinded Flying model sees nothing."""
    rules = {str(_row(n).get("sight", "normal")) for n in _st(states)}
    for r in _SIGHT_ORDER:
        if r in rules:
            return r
    return "normal"


def seen_by_all(states: Iterable[str]) -> bool:
    """Flying: all models have LoS to it."""
    return any(_row(n).get("sight") == "all" for n in _st(states))


def auto_los_to_engagers(states: Iterable[str]) -> bool:
    """Engaged: automatic LoS to every model causing the Engaged State."""
    return any(_row(n).get("sight_extra") == "engagers" for n in _st(states))


def cover_rule(states: Iterable[str]) -> str:
    """"none": cannot benefit from Cover (Flying); "light": counts as in Light
    Cover against Ranged Attacks (Crouched); "normal": the geometry decides."""
    rules = {_row(n).get("cover") for n in _st(states)}
    if "none" in rules:
        return "none"
    if "light" in rules:
        return "light"
    return "normal"


def causes_engagement(states: Iterable[str]) -> bool:
    """May this model make enemies Engaged? No while Crouched, Flying,
    Incapacitated, Dead or Petrified."""
    return all((_row(n).get("engagement") or {}).get("causes", True) for n in _st(states))


def can_be_engaged(states: Iterable[str]) -> bool:
    """May this model become Engaged? No while Flying (or Dead, Petrified)."""
    return all((_row(n).get("engagement") or {}).get("can_be", True) for n in _st(states))


def ends_engagement(engager_states: Iterable[str]) -> bool:
    """True when the engager's States end the Engaged State it causes
    (Incapacitated, Petrified, Crouched or Dead)."""
    return bool(_st(engager_states) & {"Incapacitated", "Petrified", "Crouched", "Dead"})


def targeting_block(target_states: Iterable[str], action: str, *,
                    attacker_states: Iterable[str] = frozenset(),
                    retaliating: bool = False) -> str | None:
    """None if ``action`` may target a model in ``target_states``, else why not.

    Shrouded: only Perceive may target it. Flying: Melee Attacks only by a
    Flying attacker, or back at a Flying model that declared a Melee Attack
    at this one (``retaliating``). Death Blow: only an Incapacitated (not
    Dead) model. Dead: ignored for all game impacts, no action targets it
    (ruling).
    """
    tst = _st(target_states)
    ast = _st(attacker_states)
    if action not in _av.ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    if "Dead" in tst:
        return "a Dead model is ignored for all game impacts"
    if action == "Death Blow" and "Incapacitated" not in tst:
        return "Death Blow can only be declared against an Incapacitated model"
    for n in sorted(tst):
        t = _row(n).get("targeting") or {}
        if "only" in t and action not in t["only"]:
            return f"a {n} model cannot be targeted by Actions other than {', '.join(t['only'])}"
        if action == "Melee Attack" and "melee_only_by" in t:
            if t["melee_only_by"] not in ast and not retaliating:
                return f"a {n} model cannot be targeted by Melee Attacks except by {t['melee_only_by']} models"
    return None


def ignored_for_game(states: Iterable[str]) -> bool:
    """Incapacitated or Dead: ignored for scoring, Friendly Fire, etc.
    (an Incapacitated model is still hit by Attacks, AoEs and Sweeps)."""
    return any(_row(n).get("ignored") for n in _st(states))


def uses_abilities(states: Iterable[str]) -> bool:
    """False when Incapacitated or Dead: cannot use or benefit from Skills,
    Traits, Upgrades, Items (unless stated otherwise)."""
    return not any(_row(n).get("no_abilities") for n in _st(states))


def obstructs_movement(states: Iterable[str]) -> bool:
    """False for Dead: models move through it (but may not end on top of it)."""
    return all(_row(n).get("obstructs_movement", True) for n in _st(states))


# ------------------------------------------------------------------ stats

def modified_stats(base_stats: Mapping[str, int], states: Iterable[str],
                   environment: Iterable[str] = frozenset(), *,
                   modifiers: Mapping[str, int] | None = None, effects: Iterable[str] = (),
                   halvings: Mapping[str, int] | None = None,
                   settings: TableSettings | Mapping | None = None) -> dict[str, int]:
    """The model's stats under its States, environment and effects.

    ``base_stats``: profile stats (STA SPD ARM HP OFF DEF ACC INT AG T M; an
    ``STK`` key is capped too). ``environment``: area tags its base touches
    (difficult, mountainous: SPD halved; shallow-water: SPD and AG halved).
    ``modifiers``: additive modifiers per stat (cover, range band, ...), applied
    before halving. ``effects``: "Surprise Attack" (halves OFF DEF ACC AG INT of
    the model it targets). ``halvings``: situational halvings per stat (Casting
    Aura, a Dodge without LoS, Uncover), counted with the States' own.

    Order (facts: "Halving and doubling apply after the other modifiers,
    rounding up"): base + adds (Weakened STA -1, ``modifiers``), floored at 0;
    then every halving/doubling multiplied into one factor and applied once,
    rounding up (with ``multiple_halving="once"`` a stat is halved at most once
    and doubled at most once); then caps (Crouched STK 1).

    >>> modified_stats({"SPD": 5, "ARM": 3, "T": 13, "STA": 2}, {"Crouched", "Weakened"})
    {'SPD': 3, 'ARM': 2, 'T': 7, 'STA': 1}
    """
    st = _st(states)
    s = resolve(settings)
    changes: dict[str, list[tuple[str, int]]] = {}

    def collect(table: Mapping[str, list[tuple[str, int]]]) -> None:
        for stat, ops in table.items():
            changes.setdefault(stat, []).extend(ops)

    for n in STATES:
        if n in st:
            collect(_row(n)["_stats"])
    for e in sorted(set(environment)):
        collect(_T["environment_stats"].get(e, {}))
    for e in effects:
        if e not in _T["effect_stats"]:
            raise ValueError(f"unknown effect {e!r}; known: {', '.join(_T['effect_stats'])}")
        collect(_T["effect_stats"][e])
    modifiers = dict(modifiers or {})
    out: dict[str, int] = {}
    for stat, base in base_stats.items():
        value = int(base) + int(modifiers.pop(stat, 0))
        ops = changes.get(stat, [])
        value += sum(n for op, n in ops if op == "add")
        value = max(value, 0)
        halves = sum(1 for op, _ in ops if op == "half") + int((halvings or {}).get(stat, 0))
        doubles = sum(1 for op, _ in ops if op == "double")
        if s.multiple_halving == "once":
            halves, doubles = min(halves, 1), min(doubles, 1)
        factor = Fraction(2) ** (doubles - halves)
        value = math.ceil(Fraction(value) * factor)
        caps = [n for op, n in ops if op == "cap"]
        if caps:
            value = min([value] + caps)
        out[stat] = value
    if modifiers:
        raise ValueError(f"modifiers for stats the model does not have: {sorted(modifiers)}")
    return out


def upkeep_ap(base_stats: Mapping[str, int], states: Iterable[str], *, watchful: bool = False,
              reactive: bool = False) -> int:
    """AP the model receives in the Upkeep Phase: its modified STA (Weakened:
    -1), none when Fatigued, Incapacitated, Dead or Petrified, doubled by
    Watchful in the Reactive Role."""
    st = _st(states)
    if not receives_ap(st):
        return 0
    sta = modified_stats({"STA": base_stats["STA"]}, st)["STA"]
    return sta * 2 if watchful and reactive else sta
