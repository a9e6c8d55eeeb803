"""Eldfall Reactions: who may react, with what, and the Attack of Opportunity.

Source: ``seeds/eldfall-reactions.txt`` (Core Rules, Available Reactions,
Attack of Opportunity, Reaction Against Shrouded or Flying Models,
Restrictions by State, Notes). Data: ``data/reactions.yaml``; the per-state
action lists themselves come from ``availability`` (one source of truth), and
the Reactions page's state table is checked against them in the tests.

Public API
----------
``allowed_reactions(states, has_los, in_awareness, *, activated_states=None,
activated_is_engager=False, panic_failed=False, aoo_declared=False,
environment=frozenset(), settings=None, retaliating=False) -> frozenset[str]``
    The Normal Actions a reactive model may declare against the Activated
    model. ``has_los``: the reactor had LoS to the Activated model at some
    point of its movement (geometry: ``PathSight.had_los``);
    ``in_awareness``: the Activated model is (was) within its Awareness;
    ``activated_states``: the Activated model's States (None: unknown, no
    target check); ``activated_is_engager``: the Activated model is one of
    those Engaging the reactor (Engaged: automatic LoS to them);
    ``panic_failed``: the reactor is Panicked and failed its M roll;
    ``retaliating``: the Activated model declared a Melee Attack at the reactor
    (a Foresight reaction comes after that declaration): a Flying one may then be
    attacked back in melee;
    ``aoo_declared``: it already declared an Attack of Opportunity this
    sequence (then no other Reaction).
``reaction_reasons(...) -> dict[str, str | None]``  same arguments; for every
    action None (allowed) or the reason it is not.
``dodge_agility_halved(had_los) -> bool``  Dodge without LoS: AG halved.
``reaction_row(action) -> dict``  the Available Reactions row(s) of an action.
``may_declare_attack_of_opportunity(reactor_states, *, attack, enters_reach,
moving_toward=False, already_reacted=False, settings=None) -> str | None``
``measure_before_declaring(mode) -> bool``  "Assisted" | "Standard" | "Realism".
``may_switch_to_attack(declared, activated_states, activated_attacks) -> bool``
``may_react_late(has_foresight, reacted_in_reaction_step) -> bool``  Foresight.
``dodge_order_chooser() -> str``  "active": both Dodge, the Active player orders.
``reaction_table() -> dict``  the raw tables for the HUD.
``REACTION_AP_COST`` = 1.
"""
from __future__ import annotations

import copy
from typing import Any, Iterable, Mapping

from . import availability as _av
from . import conditions as _cond
from ._tabledata import Checker, load
from .availability import ACTIONS, ATTACK_ACTIONS, NORMAL_ACTIONS
from .table_settings import TableSettings, resolve

_FILE = "reactions.yaml"


def _build() -> dict[str, Any]:
    data = load(_FILE)
    c = Checker(_FILE)
    known = set(ACTIONS)
    rows = c.need(data, "available", "", list) or []
    by_action: dict[str, list[dict]] = {}
    for i, row in enumerate(rows):
        p = f"available[{i}]"
        c.need(row, "reaction", p, str)
        for a in c.names(c.need(row, "actions", p, list) or [], f"{p}.actions", known, "action"):
            by_action.setdefault(a, []).append(row)
        c.need(row, "requires_los", p, bool)
        c.need(row, "requires_awareness", p, bool)
    for a in NORMAL_ACTIONS - {"Death Blow"}:
        if a not in by_action:
            c.fail("available", f"no row covers {a}")
    for i, row in enumerate(c.need(data, "by_state", "", list) or []):
        p = f"by_state[{i}]"
        if row.get("state") not in _av.KNOWN_STATES:
            c.fail(f"{p}.state", f"unknown state {row.get('state')!r}")
        if row.get("allowed") != "any":
            c.names(row.get("allowed"), f"{p}.allowed", known, "action")
    aoo = c.need(data, "attack_of_opportunity", "", dict) or {}
    c.need(aoo, "measure_before_declaring", "attack_of_opportunity", dict)
    sw = c.need(data, "switch_to_attack", "", dict) or {}
    c.names(sw.get("activated_states", []), "switch_to_attack.activated_states", set(_av.KNOWN_STATES), "state")
    c.names(sw.get("declared", []), "switch_to_attack.declared", known, "action")
    c.done()
    return {"data": data, "by_action": by_action}


_T = _build()

REACTION_AP_COST: int = int(_T["data"]["core"]["ap_cost"])


def reaction_row(action: str) -> dict[str, Any]:
    """The Available Reactions requirements of ``action``: {"reactions": row
    names, "requires_los", "requires_awareness", "base_contact"} (an action on
    two rows, Spell Attack, needs what both need)."""
    rows = _T["by_action"].get(action)
    if rows is None:
        raise ValueError(f"{action!r} is not a Reaction; Reactions are Normal Actions: "
                         + ", ".join(sorted(_T["by_action"])))
    return {"reactions": [r["reaction"] for r in rows],
            "requires_los": any(r["requires_los"] for r in rows),
            "requires_awareness": all(r["requires_awareness"] for r in rows),
            "base_contact": next((r.get("base_contact") for r in rows if r.get("base_contact")), None)}


def _needs_los(action: str, s: TableSettings) -> bool:
    if action == "Nothing":
        return False
    if action == "Dodge":
        return False                      # Dodge qualifies by LoS or by Awareness
    if s.reaction_qualification == "all" or action not in _T["by_action"]:
        return True
    return reaction_row(action)["requires_los"]


def reaction_reasons(states: Iterable[str], has_los: bool, in_awareness: bool, *,
                     activated_states: Iterable[str] | None = None,
                     activated_is_engager: bool = False, panic_failed: bool = False,
                     aoo_declared: bool = False, environment: Iterable[str] = frozenset(),
                     settings: TableSettings | Mapping | None = None,
                     retaliating: bool = False) -> dict[str, str | None]:
    """For every action, None if the reactor may declare it, else why not
    (checked in the order: can react -> Attack of Opportunity -> Awareness ->
    role and State tables -> LoS qualification -> target). ``retaliating``: the
    Activated model has declared a Melee Attack at the reactor (a reaction declared
    after the Action Step's declaration: Foresight), so a Flying Activated model may
    be attacked back in melee (eldfall-states.txt, Flying)."""
    st = frozenset(states)
    s = resolve(settings)
    why: dict[str, str | None] = {a: None for a in ACTIONS}

    def deny(actions: Iterable[str], reason: str) -> None:
        for a in actions:
            if why[a] is None:
                why[a] = reason

    if not _cond.can_react(st):
        deny(ACTIONS, "cannot perform Reactions in the States " + ", ".join(sorted(st)))
    if aoo_declared:
        deny(ACTIONS, "an Attack of Opportunity was declared: no other Reaction in this Activation Sequence")
    if not in_awareness:
        if "Engaged" in st:
            deny(ACTIONS, "an Engaged model cannot react against models outside its Awareness")
        elif s.awareness_required_for_all_reactions:
            deny(ACTIONS, "cannot react against models outside its Awareness (setting)")
    base = _av._reasons("reactive", None, st, panic_failed, environment, s)
    for a, r in base.items():
        if r is not None:
            deny([a], r)
    # LoS: Blinded sees nothing; Flying sees (and is seen by) every model;
    # Engaged sees the models engaging it.
    sight = _cond.sight_rule(st)
    los = has_los
    if sight == "none":
        los = False
    elif sight == "all":
        los = True
    elif activated_states is not None and _cond.seen_by_all(activated_states):
        los = True
    elif activated_is_engager and _cond.auto_los_to_engagers(st):
        los = True
    if not los:
        deny([a for a in ACTIONS if _needs_los(a, s)],
             "needs LoS to the Activated model at some point of its movement")
        if not in_awareness:
            deny(["Dodge"], "Dodge needs LoS to the Activated model or the Activated model within Awareness")
    if not in_awareness:
        deny([a for a in ACTIONS if a in _T["by_action"] and reaction_row(a)["requires_awareness"]
              and a != "Dodge"], "the Activated model must be within Awareness")
    # targets: the Reaction targets the Activated model
    if activated_states is not None:
        act = frozenset(activated_states)
        for a in ATTACK_ACTIONS | {"Perceive"}:
            block = _cond.targeting_block(act, a, attacker_states=st, retaliating=retaliating)
            if block:
                deny([a], block)
        if "Shrouded" not in act:
            deny(["Perceive"], "Perceive reveals a Shrouded or Hidden token: the Activated model is not Shrouded")
    return why


def allowed_reactions(states: Iterable[str], has_los: bool, in_awareness: bool, *,
                      activated_states: Iterable[str] | None = None,
                      activated_is_engager: bool = False, panic_failed: bool = False,
                      aoo_declared: bool = False, environment: Iterable[str] = frozenset(),
                      settings: TableSettings | Mapping | None = None,
                      retaliating: bool = False) -> frozenset[str]:
    """The Reactions the model may declare (see the module docstring).

    >>> sorted(allowed_reactions(frozenset(), has_los=False, in_awareness=True))
    ['Assist', 'Dodge', 'Interact', 'Nothing']
    >>> sorted(allowed_reactions(frozenset(), has_los=False, in_awareness=True,
    ...                          settings={"reaction_qualification": "all"}))
    ['Dodge', 'Nothing']
    >>> sorted(allowed_reactions({"Engaged"}, has_los=True, in_awareness=False))
    []
    """
    why = reaction_reasons(states, has_los, in_awareness, activated_states=activated_states,
                           activated_is_engager=activated_is_engager, panic_failed=panic_failed,
                           aoo_declared=aoo_declared, environment=environment, settings=settings,
                           retaliating=retaliating)
    return frozenset(a for a, r in why.items() if r is None)


def dodge_agility_halved(had_los: bool) -> bool:
    """A reactive Dodge by a model that never had LoS during the Movement Step
    uses halved AG."""
    return bool(_T["data"]["qualification"]["dodge_halved_without_los"]) and not had_los


def measure_before_declaring(mode: str) -> bool:
    """Attack of Opportunity: may the Reactive Player measure Reach before
    declaring? Assisted/Standard: yes; Realism: no (declare, then measure)."""
    table = _T["data"]["attack_of_opportunity"]["measure_before_declaring"]
    if mode not in table:
        raise ValueError(f"measuring mode must be one of {', '.join(table)}, not {mode!r}")
    return bool(table[mode])


def may_declare_attack_of_opportunity(reactor_states: Iterable[str], *, attack: str, enters_reach: bool,
                                      moving_toward: bool = False, already_reacted: bool = False,
                                      in_awareness: bool = True,
                                      settings: TableSettings | Mapping | None = None) -> str | None:
    """None if the reactor may declare an Attack of Opportunity now, else why not.

    ``attack``: "Melee Attack" (the Activated model enters the reactor's
    Reach at this point of its path) or "Ranged Attack" (valid while the
    enemy is moving toward the reactor). The Attack then proceeds only if a
    measure confirms the model is within Reach (see
    ``measure_before_declaring``). Cover, RCH and other modifiers apply.
    """
    st = frozenset(reactor_states)
    if attack not in ("Melee Attack", "Ranged Attack"):
        raise ValueError("attack must be 'Melee Attack' or 'Ranged Attack'")
    if already_reacted:
        return "the model already reacted in this Activation Sequence"
    if attack == "Melee Attack" and not enters_reach:
        return "an Attack of Opportunity is declared where the Activated model enters the Reach"
    if attack == "Ranged Attack" and not moving_toward:
        return "a Ranged Attack of Opportunity needs the enemy moving toward the model"
    if not _cond.can_react(st):
        return "cannot perform Reactions in the States " + ", ".join(sorted(st))
    return _av.why_not("reactive", None, st, attack, settings=settings) or (
        "an Engaged model cannot react against models outside its Awareness"
        if "Engaged" in st and not in_awareness else None)


def may_switch_to_attack(declared: str, activated_states: Iterable[str], activated_attacks: bool) -> bool:
    """Reaction Against Shrouded or Flying Models: a reactor that declared
    Dodge or Perceive may change it to an Attack immediately after the Action
    Step, when the Activated model is Shrouded or Flying and declared an Attack."""
    sw = _T["data"]["switch_to_attack"]
    return (declared in sw["declared"] and activated_attacks
            and bool(frozenset(activated_states) & set(sw["activated_states"])))


def may_react_late(has_foresight: bool, reacted_in_reaction_step: bool) -> bool:
    """Foresight: a model that declared no Reaction in the Reaction Step may
    declare one in the Action Step, after the Active model's Action."""
    return has_foresight and not reacted_in_reaction_step


def dodge_order_chooser() -> str:
    """Both Active and Reactive models Dodge: the Active player orders them."""
    return "active"


def reaction_table() -> dict[str, Any]:
    """The raw Reactions tables (deep copies) for the HUD: "available",
    "by_state", "attack_of_opportunity", "switch_to_attack", "core",
    "qualification", "notes"."""
    d = _T["data"]
    return copy.deepcopy({k: d[k] for k in ("core", "qualification", "available", "attack_of_opportunity",
                                            "switch_to_attack", "by_state", "notes")})
