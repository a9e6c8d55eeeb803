"""Which actions a model may declare: the seeds' availability tables.

Source: ``seeds/eldfall-actions.txt``, "Action Availability by Situation"
(By Role, By State, Run / Special Movement Restriction), the Panicked rules of
``seeds/eldfall-states.txt`` and the movement column of its Summary Table.
The data is ``data/availability.yaml``; rulings are settings
(:class:`rules.eldfall.table_settings.TableSettings`).

Public API
----------
``ACTIONS``            tuple[str, ...]: the 13 action names, in the table's order.
``NORMAL_ACTIONS``, ``SPECIAL_ACTIONS``, ``ATTACK_ACTIONS``: frozensets of names.
``MOVEMENTS``          ("Idle", "Walk", "Run", "Climb", "Jump").
``SPECIAL_MOVEMENTS``  frozenset({"Run", "Climb", "Jump"}): only Nothing after them.
``KNOWN_STATES``       tuple of the 17 state names.

``allowed_actions(role, movement, states, *, panic_failed=False,
environment=frozenset(), settings=None) -> frozenset[str]``
    The actions the model may declare. ``role`` "active" | "reactive";
    ``movement`` the movement declared in the Movement Step (one of
    MOVEMENTS) for the active role, None for a reaction; ``states`` the
    model's states; ``panic_failed`` True when the model is Panicked and
    failed its Morale roll at the start of this activation/reaction;
    ``environment`` the area tags its base touches (``deep-water`` forbids
    Attacks, Assist, Ritual, Jump). A movement the states forbid gives the
    empty set (the declaration itself is illegal).
``why_not(role, movement, states, action, ...) -> str | None``
    None when ``action`` is allowed, else the first reason in a fixed order:
    unknown action -> role -> movement -> state -> panic -> environment.
``allowed_movements(states, *, panic_failed=False, environment=frozenset(),
settings=None) -> frozenset[str]``
    The movements the active model may declare (Idle included when it may
    stay still). Empty when it cannot activate.
``movement_constraints(states) -> dict[str, str]``  e.g. Engaged: Walk
    directly toward the engager.
``forced_declaration(states, *, panic_failed=False, settings=None)
-> Forced | None``  the Panicked declaration the model must make, if any.
``target_restrictions(role, states, *, panic_failed=False, settings=None)
-> dict[str, tuple[str, ...]]``  per action, the printed restrictions on
    what it may target (e.g. Engaged: {"Assist": ("self",)}).
``strike_cap(role, action, states) -> int | None``  the STK cap (reactive 1,
    Crouched 1, Flying melee 1); None when uncapped.
``spell_type_allowed(spell_type, role) -> bool``  Spell Types table, Role column.
``availability_table(settings=None) -> dict``  the raw tables for the HUD:
    {"by_role": [...], "by_state": [...], "by_movement": [...],
     "panicked_failed": {...}, "movement_by_state": {...}}.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from ._tabledata import Checker, load
from .table_settings import TableSettings, resolve

_FILE = "availability.yaml"

ROLES = ("active", "reactive")
MOVEMENTS = ("Idle", "Walk", "Run", "Climb", "Jump")


def _check_and_build() -> dict[str, Any]:
    data = load(_FILE)
    c = Checker(_FILE)
    known_states = c.need(data, "known_states", "", list) or []
    rows = c.need(data, "actions", "", list) or []
    actions: list[dict] = []
    for i, row in enumerate(rows):
        p = f"actions[{i}]"
        name = c.need(row, "name", p, str)
        kind = c.need(row, "kind", p, str)
        if kind not in (None, "normal", "special"):
            c.fail(f"{p}.kind", f"must be normal or special, not {kind!r}")
        c.need(row, "active", p, bool)
        c.need(row, "reactive", p, bool)
        if name:
            actions.append(row)
    names = [r["name"] for r in actions]
    if len(set(names)) != len(names):
        c.fail("actions", "an action is listed twice")
    known = set(names)
    movements = {}
    for i, row in enumerate(c.need(data, "movements", "", list) or []):
        p = f"movements[{i}]"
        name = c.need(row, "name", p, str)
        if name not in MOVEMENTS:
            c.fail(f"{p}.name", f"unknown movement {name!r}; known: {', '.join(MOVEMENTS)}")
            continue
        allowed = c.need(row, "allowed", p, list) or []
        c.names(allowed, f"{p}.allowed", known | {"normal", "special"}, "action")
        movements[name] = row
    for m in MOVEMENTS:
        if m not in movements:
            c.fail("movements", f"no row for {m}")
    by_state = {}
    for i, row in enumerate(c.need(data, "states", "", list) or []):
        p = f"states[{i}]"
        name = c.need(row, "name", p, str)
        if name not in known_states:
            c.fail(f"{p}.name", f"unknown state {name!r}")
            continue
        allowed = row.get("allowed")
        if allowed != "all":
            c.names(allowed, f"{p}.allowed", known, "action")
        for setting, extra in (row.get("with_setting") or {}).items():
            if setting not in TableSettings.__dataclass_fields__:
                c.fail(f"{p}.with_setting.{setting}", "unknown setting")
            c.names(extra, f"{p}.with_setting.{setting}", known, "action")
        by_state[name] = row
    pf = c.need(data, "panicked_failed", "", dict) or {}
    for key in ("reactive", "active", "active_engaged"):
        row = c.need(pf, key, "panicked_failed", dict) or {}
        c.names(row.get("allowed"), f"panicked_failed.{key}.allowed", known, "action")
    mbs = c.need(data, "movement_by_state", "", dict) or {}
    for name, row in mbs.items():
        if name not in known_states:
            c.fail(f"movement_by_state.{name}", "unknown state")
        elif row.get("allowed") != "all":
            c.names(row.get("allowed"), f"movement_by_state.{name}.allowed", set(MOVEMENTS), "movement")
    envs = data.get("environments") or {}
    for env, row in envs.items():
        c.names(row.get("forbidden_actions", []), f"environments.{env}.forbidden_actions", known, "action")
        c.names(row.get("forbidden_movements", []), f"environments.{env}.forbidden_movements",
                set(MOVEMENTS), "movement")
    always = c.names(c.need(data, "always_available", "", list) or [], "always_available", known, "action")
    c.done()
    return {
        "data": data, "actions": actions, "movements": movements, "by_state": by_state,
        "known_states": tuple(known_states), "always": frozenset(always),
    }


_T = _check_and_build()

ACTIONS: tuple[str, ...] = tuple(r["name"] for r in _T["actions"])
NORMAL_ACTIONS = frozenset(r["name"] for r in _T["actions"] if r["kind"] == "normal")
SPECIAL_ACTIONS = frozenset(r["name"] for r in _T["actions"] if r["kind"] == "special")
ATTACK_ACTIONS = frozenset(r["name"] for r in _T["actions"] if r.get("attack"))
SPECIAL_MOVEMENTS = frozenset(m for m, r in _T["movements"].items() if r["type"] == "special")
KNOWN_STATES: tuple[str, ...] = _T["known_states"]
_ORDER = {a: i for i, a in enumerate(ACTIONS)}
_ALL_MOVEMENTS = frozenset(MOVEMENTS)
_CANNOT_ACT = frozenset(s for s, r in _T["by_state"].items() if r.get("allowed") == [])


def _ordered(names: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(names, key=_ORDER.__getitem__))


def _check_states(states: Iterable[str]) -> frozenset[str]:
    st = frozenset(states)
    bad = st - set(KNOWN_STATES)
    if bad:
        raise ValueError(f"unknown state(s) {sorted(bad)}; known: {', '.join(KNOWN_STATES)}")
    return st


def _expand(allowed: Iterable[str]) -> set[str]:
    out: set[str] = set()
    for a in allowed:
        if a == "normal":
            out |= NORMAL_ACTIONS
        elif a == "special":
            out |= SPECIAL_ACTIONS
        else:
            out.add(a)
    return out


@dataclass(frozen=True)
class Forced:
    """A declaration the model must make (Panicked).

    movement: "Run" toward the nearest open field edge, or "Idle";
    actions: the only actions it may then declare; reason: the rule applied;
    cancels_crouched: the model must leave Crouched at the start of the
    Movement Step to run.
    """
    movement: str
    actions: frozenset[str]
    reason: str
    toward_edge: bool = False
    cancels_crouched: bool = False


def forced_declaration(states: Iterable[str], *, panic_failed: bool = False,
                       settings: TableSettings | Mapping | None = None) -> Forced | None:
    """The declaration a Panicked model must make in the active role, or None.

    - Panicked + Engaged at activation start: Idle + Dodge (State Priorities;
      by default only on a failed Morale roll, setting
      ``panicked_engaged_needs_failed_roll``).
    - failed Morale roll: a full Run toward the nearest open field edge, then
      Nothing (By State, "Panicked (failed M roll, Active)").
    - ruling: an Immobilized model cannot run, so it declares Idle + Dodge as
      an Engaged one does.
    """
    st = _check_states(states)
    s = resolve(settings)
    if "Panicked" not in st:
        if panic_failed:
            raise ValueError("panic_failed given for a model that is not Panicked")
        return None
    if st & _CANNOT_ACT:
        return None
    pf = _T["data"]["panicked_failed"]
    engaged_rule = panic_failed or not s.panicked_engaged_needs_failed_roll
    if "Engaged" in st and engaged_rule:
        row = pf["active_engaged"]
        return Forced(row["movement"], frozenset(row["allowed"]),
                      "Panicked and Engaged at Activation start: declares Idle + Dodge")
    if not panic_failed:
        return None
    if "Immobilized" in st:
        row = pf["active_engaged"]
        return Forced(row["movement"], frozenset(row["allowed"]),
                      "Panicked (failed M roll) but Immobilized: cannot Run, declares Idle + Dodge (ruling)")
    row = pf["active"]
    return Forced(row["movement"], frozenset(row["allowed"]),
                  "Panicked (failed M roll, Active): forced Run toward the nearest field edge, then Nothing",
                  toward_edge=True, cancels_crouched="Crouched" in st)


def allowed_movements(states: Iterable[str], *, panic_failed: bool = False,
                      environment: Iterable[str] = frozenset(),
                      settings: TableSettings | Mapping | None = None) -> frozenset[str]:
    """Movements the active model may declare in its Movement Step.

    Intersection over its states of the States page's movement column
    (Crouched: Idle, Walk; Engaged: Idle, Walk toward the engager;
    Immobilized: Idle; Incapacitated/Dead/Petrified: none), minus what the
    environment forbids (deep-water: Jump). A forced Panicked declaration
    replaces all of it (a Crouched model stands up to run).
    """
    st = _check_states(states)
    if st & _CANNOT_ACT:
        return frozenset()
    forced = forced_declaration(st, panic_failed=panic_failed, settings=settings)
    if forced is not None:
        return frozenset({forced.movement})
    out = set(MOVEMENTS)
    for name in st:
        row = _T["data"]["movement_by_state"].get(name)
        if row is not None and row["allowed"] != "all":
            out &= set(row["allowed"])
    for env in environment:
        row = (_T["data"].get("environments") or {}).get(env)
        if row:
            out -= set(row.get("forbidden_movements", []))
    return frozenset(out)


def movement_constraints(states: Iterable[str]) -> dict[str, str]:
    """Constraints on how an allowed movement may be made, per State (e.g.
    Engaged: a Walk must move directly toward the enemy causing it)."""
    st = _check_states(states)
    out = {}
    for name in sorted(st):
        row = _T["data"]["movement_by_state"].get(name) or {}
        if row.get("constraint"):
            out[name] = row["constraint"]
    return out


def _state_allowed(name: str, s: TableSettings, role: str = "active") -> set[str] | None:
    """The By State row of ``name`` as a set (None = no restriction)."""
    row = _T["by_state"].get(name)
    if row is None:
        return None
    rws = row.get("reactive_with_setting")
    if role == "reactive" and rws and getattr(s, rws["setting"]) == rws["value"]:
        return set(rws["allowed"]) | _T["always"]
    for setting, value in (row.get("all_with_setting") or {}).items():
        if getattr(s, setting) == value:
            return None
    if row["allowed"] == "all":
        return None
    allowed = set(row["allowed"])
    for setting, extra in (row.get("with_setting") or {}).items():
        if getattr(s, setting):
            allowed |= set(extra)
    if allowed:
        allowed |= _T["always"]
    return allowed


def _reasons(role: str, movement: str | None, states: Iterable[str], panic_failed: bool,
             environment: Iterable[str], settings) -> dict[str, str | None]:
    """action -> None (allowed) or the reason it is not (a fresh dict)."""
    return dict(_reasons_cached(role, movement, frozenset(states), bool(panic_failed),
                                frozenset(environment), resolve(settings)))


@functools.lru_cache(maxsize=8192)
def _reasons_cached(role: str, movement: str | None, states: frozenset[str], panic_failed: bool,
                    environment: frozenset[str], settings: TableSettings) -> tuple[tuple[str, str | None], ...]:
    return tuple(_compute_reasons(role, movement, states, panic_failed, environment, settings).items())


def _compute_reasons(role: str, movement: str | None, states: Iterable[str], panic_failed: bool,
                     environment: Iterable[str], settings) -> dict[str, str | None]:
    if role not in ROLES:
        raise ValueError(f"role must be 'active' or 'reactive', not {role!r}")
    if role == "active" and movement not in MOVEMENTS:
        raise ValueError(f"movement must be one of {', '.join(MOVEMENTS)} in the active role, not {movement!r}")
    if role == "reactive" and movement is not None:
        raise ValueError("movement must be None for a reaction")
    st = _check_states(states)
    s = resolve(settings)
    env = frozenset(environment)
    why: dict[str, str | None] = {}

    def deny(actions: Iterable[str], reason: str) -> None:
        for a in actions:
            if why.get(a) is None:
                why[a] = reason

    for a in ACTIONS:
        why[a] = None
    # 1. role (By Role table)
    if role == "reactive":
        for r in _T["actions"]:
            ok = r["reactive"] or (r["name"] == "Trade" and s.trade_as_reaction)
            if not ok:
                # the By Role table's ✗ in the Reactive Role column
                special = " (a Special Action)" if r["name"] in SPECIAL_ACTIONS else ""
                deny([r["name"]], f"{r['name']}{special} is not a valid Reaction: the Actions page's "
                                  "By Role table allows it in the Active Role only")
    # 2. movement (Run / Special Movement Restriction table + States movement column)
    forced = forced_declaration(st, panic_failed=panic_failed, settings=s) if role == "active" else None
    if role == "active":
        legal = allowed_movements(st, panic_failed=panic_failed, environment=env, settings=s)
        if movement not in legal:
            if forced is not None:
                reason = f"{forced.reason}: {movement} may not be declared"
            elif not legal:
                reason = "the model cannot move or act in its states " + ", ".join(sorted(st))
            else:
                blockers = [n for n in sorted(st)
                            if (_T["data"]["movement_by_state"].get(n) or {}).get("allowed", "all") != "all"
                            and movement not in _T["data"]["movement_by_state"][n]["allowed"]]
                where = f"{', '.join(blockers)}" if blockers else "the environment"
                reason = f"{movement} may not be declared while {where} (allowed: {', '.join(_ordered_m(legal))})"
            deny(ACTIONS, reason)
        row = _T["movements"][movement]
        ok = _expand(row["allowed"])
        if movement in SPECIAL_MOVEMENTS:
            deny([a for a in ACTIONS if a not in ok], f"{movement} was declared: only Nothing is allowed")
        else:
            deny([a for a in ACTIONS if a not in ok],
                 "Special Actions require Idle in the Movement Step")
    # 3. states (By State table)
    for name in sorted(st):
        allowed = _state_allowed(name, s, role)
        if allowed is None:
            continue
        if not allowed:
            deny(ACTIONS, f"a model in the {name} State can perform no Actions or Reactions")
        else:
            deny([a for a in ACTIONS if a not in allowed],
                 f"{name}: only {', '.join(_ordered(allowed))} may be declared")
    # 4. Panicked
    if panic_failed and "Panicked" not in st:
        raise ValueError("panic_failed given for a model that is not Panicked")
    if role == "reactive" and panic_failed:
        ok = set(_T["data"]["panicked_failed"]["reactive"]["allowed"])
        deny([a for a in ACTIONS if a not in ok],
             "Panicked (failed M roll, Reactive): only Dodge (toward the field edge) or Nothing")
    if role == "active" and forced is not None:
        deny([a for a in ACTIONS if a not in forced.actions], forced.reason)
    # 5. environment
    for e in sorted(env):
        row = (_T["data"].get("environments") or {}).get(e)
        if row:
            deny(row.get("forbidden_actions", []), f"not allowed in {e}")
    return why


def _ordered_m(ms: Iterable[str]) -> list[str]:
    return [m for m in MOVEMENTS if m in set(ms)]


def allowed_actions(role: str, movement: str | None, states: Iterable[str] = frozenset(), *,
                    panic_failed: bool = False, environment: Iterable[str] = frozenset(),
                    settings: TableSettings | Mapping | None = None) -> frozenset[str]:
    """The actions the model may declare (see the module docstring).

    >>> sorted(allowed_actions("active", "Run", frozenset()))
    ['Nothing']
    >>> sorted(allowed_actions("reactive", None, {"Blinded"}))
    ['Assist', 'Dodge', 'Nothing']
    """
    why = _reasons(role, movement, states, panic_failed, environment, settings)
    return frozenset(a for a, r in why.items() if r is None)


def why_not(role: str, movement: str | None, states: Iterable[str], action: str, *,
            panic_failed: bool = False, environment: Iterable[str] = frozenset(),
            settings: TableSettings | Mapping | None = None) -> str | None:
    """None if ``action`` may be declared, else the reason it may not (the first
    rule that forbids it, in the order role, movement, state, panic, environment)."""
    if action not in _ORDER:
        return f"unknown action {action!r}; known: {', '.join(ACTIONS)}"
    return _reasons(role, movement, states, panic_failed, environment, settings)[action]


def target_restrictions(role: str, states: Iterable[str], *, panic_failed: bool = False,
                        settings: TableSettings | Mapping | None = None) -> dict[str, tuple[str, ...]]:
    """Printed restrictions on what each action may target, merged over the
    role and the states. Keys are action names; values the restrictions
    (all of them apply). Only actions with a restriction appear; a
    restriction says nothing about whether the action is allowed (ask
    ``allowed_actions``). Dodge has no target (the target is the model).
    """
    st = _check_states(states)
    s = resolve(settings)
    out: dict[str, list[str]] = {}

    def add(action: str, text: str) -> None:
        out.setdefault(action, [])
        if text not in out[action]:
            out[action].append(text)

    if role == "reactive":
        for a in ATTACK_ACTIONS | {"Perceive"}:
            add(a, "the Activated model only")
        add("Assist", "self or other allied models")
        add("Ranged Attack", "at a declared point of the Activated model's movement path")
    for name in sorted(st):
        row = _T["by_state"].get(name)
        if not row:
            continue
        for action, text in (row.get("targets") or {}).items():
            if action == "Spell Attack" and name == "Engaged" and not s.engaged_melee_spells:
                continue
            add(action, text)
    if panic_failed and role == "reactive":
        for action, text in (_T["data"]["panicked_failed"]["reactive"].get("targets") or {}).items():
            add(action, text)
    return {k: tuple(v) for k, v in out.items()}


def strike_cap(role: str, action: str, states: Iterable[str]) -> int | None:
    """The cap on STK for ``action``: 1 in the Reactive Role (every Attack),
    1 while Crouched, 1 for Melee Attacks while Flying; None when uncapped."""
    st = _check_states(states)
    caps = []
    if role == "reactive" and action in ATTACK_ACTIONS:
        caps.append(1)
    for name in st:
        cap = (_T["by_state"].get(name) or {}).get("strike_cap")
        if isinstance(cap, int):
            caps.append(cap)
        elif isinstance(cap, dict) and action in cap:
            caps.append(int(cap[action]))
    return min(caps) if caps else None


def spell_type_allowed(spell_type: str, role: str) -> bool:
    """Spell Types table, Role column: Sorcery in either role, the rest Active only."""
    roles = (_T["data"].get("spell_roles") or {}).get(spell_type)
    if roles is None:
        raise ValueError(f"unknown spell type {spell_type!r}; known: "
                         + ", ".join(_T["data"].get("spell_roles") or {}))
    return role in roles


def availability_table(settings: TableSettings | Mapping | None = None) -> dict[str, Any]:
    """The raw tables, for the HUD and for documentation.

    by_role: [{"action", "kind", "active", "reactive", "notes"}] (reactive
    reflects the Trade setting); by_state: [{"state", "allowed" (sorted list
    or "all"), "text_allowed", "text_forbidden"}]; by_movement:
    [{"movement", "allowed" (list), "text"}]; panicked_failed; movement_by_state.
    """
    s = resolve(settings)
    by_role = []
    for r in _T["actions"]:
        reactive = r["reactive"] or (r["name"] == "Trade" and s.trade_as_reaction)
        by_role.append({"action": r["name"], "kind": r["kind"], "active": r["active"],
                        "reactive": reactive, "notes": r.get("notes", "")})
    by_state = []
    for name, r in _T["by_state"].items():
        allowed = _state_allowed(name, s)
        by_state.append({"state": name, "allowed": "all" if allowed is None else list(_ordered(allowed)),
                         "text_allowed": r.get("text_allowed", ""),
                         "text_forbidden": r.get("text_forbidden", "")})
    by_movement = [{"movement": m, "allowed": list(_ordered(_expand(_T["movements"][m]["allowed"]))),
                    "text": _T["movements"][m].get("text", "")} for m in MOVEMENTS]
    return {"by_role": by_role, "by_state": by_state, "by_movement": by_movement,
            "panicked_failed": _T["data"]["panicked_failed"],
            "movement_by_state": _T["data"]["movement_by_state"],
            "settings": s.as_dict()}
