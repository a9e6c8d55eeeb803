"""The Reaction Step (step 3) and Attacks of Opportunity.

Source: seeds/eldfall-reactions.txt (Core Rules v1.6 p.41-43).

* Only models of the reactive player react, 1 AP each, once per activation
  sequence, and only against the activated model.
* A model qualifies with LoS to the activated model at any point of its
  movement, or with the mover in its Awareness; without LoS it may Dodge
  (with halved AG) or declare what needs no LoS (Assist, Nothing: the
  Available Reactions table, setting ``reaction_qualification``).
* An Engaged model has LoS to the models engaging it, but cannot react to a
  model outside its Awareness.
* A melee reaction may be aimed only at the point where the mover entered its
  Reach (an Attack of Opportunity) or at the end of the move; a ranged reaction
  names its point on the path (one where the reacting model had LoS).
* Panicked models roll M when the Reaction Step opens (the beginning of their
  Reaction); on a failure only Dodge or Nothing.
"""
from __future__ import annotations

import math

from rules.eldfall import combat as cb
from rules.eldfall import conditions as cd
from rules.eldfall import reaction_rules as rr
from rules.eldfall.actions import ATTACKS, Declare

EPS = 1e-6


def candidates(game) -> list[str]:
    """Reactive models that could react at all (before LoS/Awareness)."""
    out = []
    for m in game.side_models(game.reactive_side):
        if m.out or m.ap < 1 or not cd.can_react(m.states):
            continue
        if game.duel and m.id not in game._duel_models():
            continue
        out.append(m.id)
    return out


def observe_path(game, mover: str, path: list) -> None:
    """Who saw the mover along its path (called before it moves)."""
    act = game.act
    obs = candidates(game)
    act.qualified = {}
    if not obs:
        return
    # the observers' own LoS: an Engaged one sees the models engaging it (the
    # Reaction Step adds them), not every enemy whose Reach it stands in
    with game.own_sight(*obs):
        sights = game.geo.sight_along_path(mover, path, obs)
    for s in sights:
        act.qualified[s.observer] = {
            "los": bool(s.had_los), "aware": bool(s.entered_awareness),
            "seen": [tuple(p) for p in (getattr(s, "seen", None) or
                                        [p for p in (s.first, s.last) if p is not None])],
        }


def open_reaction_step(game) -> None:
    """Work out who qualifies (LoS at any point, or Awareness) and roll Panic."""
    act = game.act
    mover = act.model
    if game.models[mover].out:
        act.qualified = {}
        return
    end = tuple(game.geo.position(mover))
    q = {}
    for mid in candidates(game):
        m = game.models[mid]
        prev = act.qualified.get(mid, {"los": False, "aware": False, "seen": []})
        seen = list(prev["seen"])
        end_seen = any(math.dist(p, end) < 1e-6 for p in seen)
        # LoS now only matters if it could add the end point or LoS itself
        los_now = False if (prev["los"] and end_seen) else game.has_los(mid, mover)
        if los_now and not end_seen:
            seen.append(end)
        los = bool(prev["los"] or los_now)
        if "Blinded" in m.states:
            los, seen = False, []
        elif cd.seen_by_all(game.models[mover].states) or cd.sight_rule(m.states) == "all":
            los = True
            if not any(math.dist(p, end) < 1e-6 for p in seen):
                seen.append(end)
        aware = bool(prev["aware"] or game.geo.in_awareness(mid, mover))
        if mover in m.engaged_by and "Blinded" not in m.states:
            # Engaged: automatic LoS to its engagers; but a Blinded model has "no LoS
            # (except to itself)": Blinded wins, as in has_los and reaction_rules
            los = True
            if not any(math.dist(p, end) < 1e-6 for p in seen):
                seen.append(end)
        if "Engaged" in m.states and not aware:
            continue                      # cannot react to a model outside its Awareness
        if not (los or aware):
            continue
        opp = None
        for e, p in act.opportunity:
            if e == mid:
                opp = tuple(p)
                break
        q[mid] = {"los": los, "aware": aware, "seen": seen, "opp": opp}
    act.qualified = q
    failed = set()
    for mid in q:
        m = game.models[mid]
        if cd.needs_morale_roll(m.states):
            r = game.roll("Panicked: M roll (reaction)", model=mid)
            d = cb.judge(r, game.stat(mid, "M"))
            game.emit("check", {"model": mid, "check": "Panicked", "die": d.to_dict()})
            if not d.success:
                failed.add(mid)
    act.panic_failed_reactors = frozenset(failed)
    if q:
        game.emit("reaction_step", {"mover": mover, "qualified": {
            k: {"los": v["los"], "aware": v["aware"], "opportunity": v["opp"] is not None}
            for k, v in sorted(q.items())}})


def waiting(game) -> list[str]:
    """Qualified models that have not reacted yet and still have AP."""
    act = game.act
    return [m for m in act.qualified if m not in act.reactions and game.models[m].ap >= 1
            and not game.models[m].out]


def any_can_react(game) -> bool:
    return bool(waiting(game))


def why_not_reaction(game, d: Declare) -> str | None:
    act = game.act
    mid = d.model
    m = game.models[mid]
    if mid in act.reactions:
        return f"{mid} has already reacted in this Activation Sequence"
    q = act.qualified.get(mid)
    if q is None:
        if m.out or not cd.can_react(m.states):
            return f"{mid} cannot react ({', '.join(sorted(m.states)) or 'out'})"
        if m.ap < 1:
            return f"{mid} has no AP left to react"
        return f"{mid} never had LoS to {act.model} during its movement and it is not in its Awareness"
    if m.ap < 1:
        return f"{mid} has no AP left to react"
    mover = game.models[act.model]
    # a reaction declared after the Activated model's declaration (Foresight): a Flying
    # model that declared a Melee Attack at this one may be attacked back in melee
    from rules.eldfall.resolution import is_melee_attack
    retaliating = bool(act.action is not None and is_melee_attack(game, act.action)
                       and mid in act.action.target_ids)
    why = rr.reaction_reasons(m.states, bool(q["los"]), bool(q["aware"]),
                              activated_states=mover.states,
                              activated_is_engager=act.model in m.engaged_by,
                              panic_failed=mid in act.panic_failed_reactors,
                              environment=game.geo.environments(mid),
                              settings=game.settings.get("table_settings"),
                              retaliating=retaliating)
    if why.get(d.action):
        if not q["los"] and why[d.action].startswith("needs LoS"):
            ok = [a + (" (halved AG)" if a == "Dodge" else "")
                  for a in ("Dodge", "Assist", "Nothing") if why.get(a) is None]
            return (f"{mid} never had LoS to {act.model} during its movement: only "
                    f"{', '.join(ok)} (the mover is in its Awareness)")
        return why[d.action]
    if d.action in ATTACKS or d.action == "Perceive":
        if d.target_ids != (act.model,):
            return f"a Reaction may only target the activated model {act.model}"
        if d.strikes != 1:
            return "in the Reactive Role STK is always 1"
    if d.point is not None:
        if d.action not in ATTACKS:
            return "only an Attack reaction is aimed at a point of the path"
        if not _point_ok(game, d, q):
            return "that point is not on the mover's path where it could be attacked"
    return game._why_not_declare(d, "reactive")


def _point_ok(game, d: Declare, q: dict) -> bool:
    """A melee reaction (a Melee Attack, or a Spell Attack with a Melee-Type
    spell) is aimed where the mover entered the reacting model's Reach (the
    Attack of Opportunity, "declared at the moment the Activated model enters
    your Reach ... at that point along the movement path") or at the end of the
    move, where it stands for the Action Step (the Reach a melee reaction
    needs, "Target must be within Melee RCH"): never at another point it was
    seen at. A ranged reaction names any point of the path where the reacting
    model had LoS ("Must specify exact point on movement path").
    Source: eldfall-reactions.txt, "Available Reactions", "Attack of Opportunity"."""
    p = d.point
    spell = game.spell(d.model, d.spell) if d.action == "Spell Attack" else None
    if d.action == "Melee Attack" or (spell and spell.get("melee")):
        if q.get("opp") is not None and math.dist(q["opp"], p) < 1e-4:
            return True
        end = tuple(game.geo.position(game.act.model))
        return math.dist(end, p) < 1e-4
    return any(math.dist(s, p) < 1e-4 for s in q["seen"])


def declare_reaction(game, d: Declare) -> None:
    act = game.act
    m = game.models[d.model]
    act.crouch_window = None          # the end of the Movement Step is over
    game.set_ap(d.model, m.ap - 1, "Reaction")
    d = game.unless_hanging(d)
    act.reactions[d.model] = d
    game.emit("declare", {"model": d.model, "role": "reactive", "action": str(d),
                          "against": act.model})
    game.declared_states(d)
    if not any_can_react(game):
        game._to_action_step()


def reaction_point(game, d: Declare):
    """Where the mover stands for this reaction's measurements."""
    act = game.act
    if d.point is not None:
        return d.point
    q = act.qualified.get(d.model) or {}
    end = tuple(game.geo.position(act.model))
    spell = game.spell(d.model, d.spell) if d.action == "Spell Attack" else None
    if spell is not None and spell.get("melee"):
        # a Melee-Type spell's reaction is a melee reaction: aimed at the end of the move
        # unless it names its point (``_point_ok``), never at the last point it was seen
        return None
    if d.action in ("Ranged Attack", "Spell Attack") and q.get("seen"):
        if any(math.dist(s, end) < 1e-6 for s in q["seen"]):
            return None
        return q["seen"][-1]
    return None


def has_foresight(m) -> bool:
    """The Foresight skill (or trait) on the model's profile."""
    return cb.has_trait(list(m.unit.skills) + list(m.unit.traits), "Foresight")


def late_candidates(game) -> list[str]:
    """Foresight (Notes): the qualified reactive models with Foresight that
    declared no Reaction in the Reaction Step and still have AP; they may
    declare one in the Action Step, after the Active model's declaration."""
    act = game.act
    return [mid for mid in waiting(game)
            if rr.may_react_late(has_foresight(game.models[mid]), mid in act.reactions)]


def why_not_late(game, d: Declare) -> str | None:
    if d.model not in game.act.late_candidates:
        return (f"{d.model} may not react now: only a model with Foresight that declared no "
                "Reaction in the Reaction Step reacts after the Active model's declaration")
    return why_not_reaction(game, d)


def declare_late(game, d: Declare) -> None:
    """A Foresight Reaction, declared in the Action Step (1 AP)."""
    act = game.act
    m = game.models[d.model]
    game.set_ap(d.model, m.ap - 1, "Reaction (Foresight)")
    d = game.unless_hanging(d)
    act.reactions[d.model] = d
    act.late_candidates = [x for x in act.late_candidates if x != d.model]
    game.emit("declare", {"model": d.model, "role": "reactive", "action": str(d),
                          "against": act.model, "foresight": True})
    game.declared_states(d)
    if not act.late_candidates:
        game._after_declaration()


def why_not_change(game, d: Declare) -> str | None:
    """A Dodge or Perceive reaction changed to an Attack against a Shrouded or
    Flying activated model that declared an Attack (no further AP)."""
    act = game.act
    if d.model not in act.change_candidates:
        return f"{d.model} has no Dodge or Perceive reaction to change"
    if d.action not in ATTACKS:
        return "a reaction may only be changed to an Attack"
    if d.target_ids != (act.model,):
        return f"a Reaction may only target the activated model {act.model}"
    if d.strikes != 1:
        return "in the Reactive Role STK is always 1"
    q = act.qualified.get(d.model) or {}
    if not q.get("los"):
        return f"{d.model} has no LoS to {act.model}"
    if d.point is not None and not _point_ok(game, d, q):
        return "that point is not on the mover's path where it could be attacked"
    return game._why_not_declare(d, "reactive")


def change_reaction(game, d: Declare) -> None:
    act = game.act
    old = act.reactions[d.model]
    act.reactions[d.model] = d
    act.change_candidates = [m for m in act.change_candidates if m != d.model]
    game.emit("reaction_changed", {"model": d.model, "from": str(old), "to": str(d)})
    if not act.change_candidates:
        game._resolve()
