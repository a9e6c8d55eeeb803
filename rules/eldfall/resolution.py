"""Declarations (what a declared action needs) and the Resolution Step (step 5).

Sources: seeds/eldfall-actions.txt (Attack, Assist, Death Blow, Dodge,
Interact, Nothing, Perceive, Trade, Issue a Duel, Ritual, Uncover) and
../shared/rules/eldfall-facts.md (Dice, Reach, Cover, Traits).

Resolution is simultaneous: every attack's modified attribute is fixed first
(with the mover standing where each reaction aimed), then the dice are rolled
in a fixed order (the active model's strikes target by target, then the
reactions in declaration order, then the Dodge rolls, then the damage rolls),
Confrontations and Dodges decided, and only then Wounds, States and moves
applied. A model at 0 HP becomes Incapacitated at the end of the sequence.
"""
from __future__ import annotations

import math

from rules.eldfall import combat as cb
from rules.eldfall import conditions as cd
from rules.eldfall import spells as sp
from rules.eldfall.actions import ATTACKS, Declare
from rules.eldfall import reactions as rx
from rules.eldfall import availability as av
from rules.eldfall import tokens as tk

EPS = 1e-6


# ----------------------------------------------------------------------
# declarations
def why_not_declaration(game, d: Declare, role: str) -> str | None:
    m = game.models[d.model]
    a = d.action
    if d.point is not None and role == "active" and a not in ATTACKS:
        return "only a Reaction is aimed at a point of the path (or a Targetless Attack at the ground)"
    if len({t for t in d.target_ids}) != len(d.targets):
        return "a target is named twice"
    if any(n < 1 for _, n in d.targets):
        return "each target needs at least 1 Strike"
    if a == "Perceive" and len(d.targets) == 1 and tk.is_token(game, d.target_ids[0]):
        if d.weapon is not None or d.spell is not None:
            return "Perceive uses no weapon or spell"
        return tk.why_not_perceive(game, d, game.tokens[d.target_ids[0]])
    for t in d.target_ids:
        if t not in game.models or not game.models[t].on_table:
            return f"no model {t!r} on the table"
    if d.knockback is not None and a not in ATTACKS:
        return f"{a} pushes nothing: knockback= is for an Attack with Knockback"
    if d.place is not None and a not in ATTACKS and not (
            a == "Assist" and sp.is_transmutation(game.spell(d.model, d.spell))):
        return (f"{a} lays no template: place= is for an Attack with a template "
                "(or where a Transmutation's token lies)")
    # a key the action has no use for is refused, not silently logged with it
    if d.spell is not None and a not in ATTACKS + ("Assist", "Ritual"):
        return f"{a} casts no Spell: spell= is for a Spell Attack, an Assist or a Ritual"
    if d.items and a != "Trade":
        return f"{a} exchanges no Items: items= is for Trade"
    if d.attribute is not None and a != "Dodge":
        return f"{a} names no attribute: attribute= is for Dodge (AG, or T when Immobilized)"
    if d.objective is not None and a != "Interact":
        return f"{a} names no quest object: objective= is for Interact"
    if a in ATTACKS:
        point = rx.reaction_point(game, d) if role == "reactive" else None
        with game.mover_at(point):
            r = _why_not_attack(game, d, role)
        # the push happens where the models stand when the Hit resolves
        return r or why_not_knockback(game, d)
    if a not in ("Assist", "Dodge", "Perceive", "Interact", "Trade", "Nothing", "Death Blow",
                 "Issue a Duel", "Ritual", "Uncover"):
        return f"unknown action {a!r}"
    if d.weapon is not None and a not in ATTACKS:
        return f"{a} uses no weapon"
    if a == "Dodge":
        if d.targets:
            return "Dodge has no target (the target is the model itself)"
        if d.attribute not in (None, "AG", "T"):
            return "Dodge uses AG (or T when Immobilized)"
        if d.attribute == "T" and "Immobilized" not in m.states:
            return "only an Immobilized model may Dodge with T"
        return None
    if a == "Nothing":
        if d.targets or d.spell or d.items:
            return "Nothing takes no target"
        return None
    if a == "Assist":
        return sp.why_not_assist(game, d, role)
    if a == "Ritual":
        return sp.why_not_ritual(game, d)
    if a == "Uncover":
        if d.targets:
            return "Uncover has no target: it reveals everything hidden within Awareness"
        return None
    if a == "Interact":
        return why_not_interact(game, d)
    if len(d.targets) != 1:
        return f"{a} has exactly one target"
    t = d.target_ids[0]
    tm = game.models[t]
    if a == "Death Blow":
        if tm.side == m.side:
            return "Death Blow targets an enemy model"
        r = cd.targeting_block(tm.states, a, attacker_states=m.states)
        if r:
            return r
        if not game.geo.base_contact(d.model, t):
            return f"Death Blow needs Base Contact with {t}"
        return None
    if a == "Perceive":
        if tm.side == m.side:
            return "Perceive reveals an enemy"
        if "Shrouded" not in tm.states:
            return f"{t} is not hidden (Shrouded)"
        if not game.geo.in_awareness(d.model, t):
            return f"{t} is not within {d.model}'s Awareness"
        if not game.has_los(d.model, t):
            return f"no LoS to {t}"
        return None
    if a in ("Trade", "Issue a Duel"):
        # Shrouded: "Cannot be targeted by any Action other than Perceive" (eldfall-states.txt)
        r = cd.targeting_block(tm.states, a, attacker_states=m.states)
        if r:
            return r
    if a == "Trade":
        if tm.side != m.side or t == d.model:
            return "Trade is with another allied model"
        if not game.geo.base_contact(d.model, t):
            return f"Trade needs Base Contact with {t}"
        if not d.items:
            return "Trade needs at least one acquired Item"
        _, _, missing = _trade_split(m.items, tm.items, d.items)
        if missing:
            return (f"neither {d.model} nor {t} has an acquired item {missing[0]!r} "
                    "(default Items cannot be traded)")
        return None
    if a == "Issue a Duel":
        if game.duel is not None:
            return "a Duel is already under way"
        if m.summoned_by or m.unit.extra.get("summoned"):
            return "only original party members can Issue a Duel"
        if tm.side == m.side:
            return "a Duel is issued to an enemy model"
        if tm.out or tm.summoned_by:
            return f"{t} cannot fight a Duel"
        if not game.has_los(d.model, t):
            return f"no LoS to {t}"
        return None
    return None


def knockback_limit(game) -> float:
    """The table setting ``knockback_max_angle_deg``: a chosen push direction makes
    an angle strictly less than this with the line directly away from the attacker."""
    from rules.eldfall.table_settings import resolve
    return float(resolve(game.settings.get("table_settings")).knockback_max_angle_deg)


def away_bearing(game, victim: str, attacker: str) -> float | None:
    """The direction (degrees CCW from +x) directly away from ``attacker`` through
    ``victim``; None when they stand on one spot (every direction is away)."""
    vx, vy, _ = game.geo.position(victim)
    ax, ay, _ = game.geo.position(attacker)
    if math.hypot(vx - ax, vy - ay) < EPS:
        return None
    return math.degrees(math.atan2(vy - ay, vx - ax)) % 360.0


def angle_between(a: float, b: float) -> float:
    """The unsigned angle (0..180 degrees) between two bearings."""
    return abs((float(a) - float(b) + 180.0) % 360.0 - 180.0)


def knockback_off_line(game, victim: str, attacker: str, direction: float | None) -> str | None:
    """Why ``direction`` is not "away from the attacker" for this pair (None: it is)."""
    if direction is None:
        return None
    away = away_bearing(game, victim, attacker)
    if away is None:
        return None
    off = angle_between(direction, away)
    limit = knockback_limit(game)
    if off <= 1e-6 or off < limit - 1e-9:
        return None
    return (f"the Knockback direction {direction:g}\u00b0 is {off:.1f}\u00b0 off the line directly "
            f"away from {attacker} ({away:.1f}\u00b0): a Knockback pushes the model away from "
            f"the attacker (less than {limit:g}\u00b0 off it, table setting knockback_max_angle_deg)")


def why_not_knockback(game, d: Declare) -> str | None:
    """A declared push direction (``knockback=``): the Attack's weapon or spell has
    Knockback, and the direction is away from the attacker for every target
    (eldfall-facts.md, Movement: "moved X\" away from the attacker, direction of
    the attacker's choice"; docs/rulings.md "Knockback direction")."""
    if d.knockback is None:
        return None
    prof = attack_profile(game, d)
    name = (prof or {}).get("name") or d.weapon or d.spell
    if prof is None or not cb.trait_value(list(prof.get("traits", [])), "Knockback"):
        return f"{name} has no Knockback: knockback= names the direction of its push"
    for t in d.target_ids:
        r = knockback_off_line(game, t, d.model, d.knockback)
        if r:
            return f"{t}: {r}"
    return None


def _trade_split(mine, theirs, named) -> tuple[list, list, list]:
    """Trade "Exchanges Items between allied models" (eldfall-actions.txt): each
    named acquired Item is the declarer's (it goes to the partner) or, when the
    declarer has no more of that name, the partner's (it comes to the declarer).
    Returns (given, received, not held by either)."""
    mine, theirs = list(mine), list(theirs)
    give, take, missing = [], [], []
    for it in named:
        if it in mine:
            mine.remove(it)
            give.append(it)
        elif it in theirs:
            theirs.remove(it)
            take.append(it)
        else:
            missing.append(it)
    return give, take, missing


def why_not_interact(game, d: Declare) -> str | None:
    objs = {o["id"]: o for o in game.settings.get("objectives") or []}
    if d.objective is None:
        return "Interact names its quest object or token (objective=...)"
    if tk.is_token(game, d.objective) and d.objective not in objs:
        return tk.why_not_interact(game, d, game.tokens[d.objective])
    o = objs.get(d.objective)
    if o is None:
        return f"no quest object {d.objective!r} in this scenario"
    if d.targets:
        return "Interact targets a quest object, not a model"
    if game.objectives_done.get(d.objective):
        return f"{d.objective} is already done"
    touches = getattr(game.geo, "touches", None)
    if touches is None or not touches(d.model, d.objective):
        return f"{d.model} is not in Base Contact with {d.objective}"
    return None


def attack_profile(game, d: Declare) -> dict | None:
    """The weapon or spell used by an Attack as one profile dict."""
    if d.action == "Spell Attack":
        s = game.spell(d.model, d.spell)
        if s is None:
            return None
        return {"name": s["name"], "kind": "spell", "melee": bool(s.get("melee")),
                "rch": float(s.get("rng", 0)), "rng": float(s.get("rng", 0)), "pw": s.get("pw", 0),
                "stk": int(s.get("stk", 1)), "traits": list(s.get("traits", [])),
                "bands": s.get("bands") or [], "template": s.get("template", ""),
                "type": s.get("type", ""), "effect": s.get("effect", "")}
    w = game.weapon(d.model, d.weapon)
    if w is None:
        return None
    p = dict(w)
    p.setdefault("template", next((t.lower() for t in w.get("traits", [])
                                   if t.lower().replace(" ", "-") in sp.TEMPLATES), ""))
    return p


def _why_not_attack(game, d: Declare, role: str) -> str | None:
    m = game.models[d.model]
    a = d.action
    ground = is_ground_attack(d, role)
    if d.point is not None and role == "active" and d.targets:
        return ("an Attack at the ground names no model: give targets= or at=, not both")
    if not d.targets and not ground:
        return ("a Reaction targets the Activated model, never the ground"
                if role == "reactive" and d.point is not None else "an Attack needs a target")
    if a == "Spell Attack":
        if d.weapon is not None:
            return "a Spell Attack names a spell, not a weapon"
        s = game.spell(d.model, d.spell)
        if s is None:
            return f"{d.model} has no spell {d.spell!r}"
        r = sp.why_not_cast(game, d.model, s, role)
        if r:
            return r
        if s.get("type") == "Conjuration":
            # "Conjuration ... Active only (via Ritual)" (Spell Types)
            return "a Conjuration is cast with the Ritual action"
        if s.get("target", "enemy") not in ("enemy", "any"):
            whom = "only its caster" if s.get("target") == "self" else "allies"
            return f"{s['name']} targets {whom}: cast it as an Assist"
        if sp.is_transmutation(s):
            # "Affects the environment" (Spell Types): its token is laid, no model attacked
            return (f"{s['name']} is a Transmutation: cast it as an Assist that lays its token "
                    "(place=x,y,z)")
    else:
        if d.spell is not None:
            return f"a {a} uses an Item, not a spell"
        w = game.weapon(d.model, d.weapon)
        if w is None:
            return f"{d.model} has no weapon {d.weapon!r}"
        want = "melee" if a == "Melee Attack" else "ranged"
        if w["kind"] != want:
            return f"{w['name']} is not a {want} weapon"
    prof = attack_profile(game, d)
    stk = 1 if role == "reactive" else int(prof.get("stk", 1))
    melee = bool(a == "Melee Attack" or prof.get("melee"))
    if dense_strike(game, d.model, d.target_ids, melee, float(prof.get("rch", 0))):
        stk = max(1, stk - 1)            # Dense: -1 STK for reach 1"+ melee and ranged
    if not melee:
        r = hazy_block(game, d.model, d.target_ids)
        if r:
            return r
    # a Melee-Type Spell's Attack is a Melee Attack ("Requires a Melee Weapon or a
    # Melee-Type Spell within Reach"): the caps and the targeting rules of Melee
    # Attacks bind it too (Flying: "Melee Attack Strike value of 1"; "Cannot be
    # targeted by Melee Attacks -- except by models also in the Flying State")
    as_action = "Melee Attack" if melee else a
    caps = [c for c in (av.strike_cap(role, a, m.states), av.strike_cap(role, as_action, m.states))
            if c is not None]
    if caps:
        stk = min([stk] + caps)
    if d.strikes > stk:
        return f"{d.strikes} Strikes declared, STK is {stk}"
    # Targetless: the Attack's own "LoS to the target" is waived (eldfall-actions.txt,
    # Attack: "unless stated otherwise, e.g. Targetless"); Reach, range, States, the
    # template's own LoS and the Reaction's qualification stay (ruling "Targetless")
    targetless = is_targetless(prof)
    if a == "Spell Attack" and "Engaged" in m.states and not melee:
        # ruling "Spell Attack while Engaged": a melee-type spell within Reach only
        return f"{d.model} is Engaged: only a melee-type spell within Reach, not {prof.get('name', d.spell)}"
    if ground:
        if d.place is not None:
            return "an Attack at the ground lies where at= puts it: place= is for an Attack on a model"
        return _why_not_ground(game, d, prof, melee)
    if d.place is not None:
        r = _why_not_place(game, d, prof, role)
        if r:
            return r
    for t in d.target_ids:
        tm = game.models[t]
        if tm.side == m.side:
            return f"{t} is not an enemy (friendly models are Assisted, not Attacked)"
        retaliating = False
        act = game.act
        if act is not None and role == "reactive" and melee and act.action is not None:
            # a Flying model that declared a Melee Attack at this one may be attacked back
            retaliating = (is_melee_attack(game, act.action) and d.model in act.action.target_ids)
        elif act is not None and role == "active" and melee:
            # ... and so may a Flying reactor that declared a Melee Attack at the Activated
            # model (its Reaction is declared before the Action Step): "if a Flying model
            # declares a Melee Attack against a non-Flying model, that model may declare a
            # Melee Attack back at it" (eldfall-states.txt, Flying)
            back = act.reactions.get(t)
            retaliating = bool(back is not None and is_melee_attack(game, back)
                               and d.model in back.target_ids)
        r = cd.targeting_block(tm.states, as_action, attacker_states=m.states, retaliating=retaliating)
        if r:
            return r
        measured = game.settings["measuring"] != "realism"   # Realism: declare, then measure
        if melee:
            reach = float(prof.get("rch", 0))
            if measured and not game.geo.in_reach(d.model, t, reach):
                return (f"{t} is out of Reach ({game.geo.distance(d.model, t):.2f}\" > "
                        f"RCH {reach:g}\")")
            if not targetless and not game.has_los(d.model, t) and \
                    not _aura_target(game, d, prof, role, t):
                return f"no LoS to {t}"
            continue
        dist = game.geo.distance(d.model, t)
        if not measured:
            pass
        elif prof.get("bands"):
            if cb.band_modifier(prof["bands"], dist) is None:
                lo = float(prof["bands"][0][0])
                return (f"{t} is out of range ({dist:.2f}\" inside the minimum range of {lo:g}\")" if dist < lo
                        else f"{t} is out of range ({dist:.2f}\" beyond the last band)")
        elif prof.get("kind") == "spell" and prof.get("rng", 0) > 0 and \
                dist > prof["rng"] + cb.MEASURE_TOLERANCE:
            return f"{t} is out of range ({dist:.2f}\" > {prof['rng']:g}\")"
        if not targetless and not game.has_los(d.model, t) and \
                not _aura_target(game, d, prof, role, t):
            return f"no LoS to {t}"
        if prof.get("template") and d.place is not None:
            tc = placed_template(game, d.model, prof, t, d.place)
            if not tc.legal:
                return f"the template cannot lie at {_xy(d.place)}: {tc.reason}"
        elif prof.get("template"):
            tc = game.geo.best_template(sp.template_kind(prof["template"]), user=d.model, target=t)
            if not tc.legal:
                return f"the template cannot cover {t}: {tc.reason}"
        if prof.get("type") == "Enchantment" and any(e[0] == prof["name"] for e in tm.enchantments):
            # as the Assist refuses it: "Max 1 Enchantment of same name per model"
            return f"{t} already has the Enchantment {prof['name']} (max 1 of a name per model)"
    return None


def dense_strike(game, attacker: str, targets, melee: bool, rch: float) -> bool:
    """Dense (eldfall-facts.md, Environments: "-1 STK for reach 1+ melee and for ranged
    within or through"): a melee Attack of reach 1" or more made from within a Dense
    area; a ranged Attack made from within one, or at a model that stands in one (the
    line of fire goes through the area to reach it). A line that only crosses a Dense
    area between two models outside it is not seen by the rules (the geometry tells
    only which areas a base touches)."""
    return dense_rule("dense" in game.geo.environments(attacker),
                      any("dense" in game.geo.environments(t) for t in targets
                          if t in game.models and game.models[t].on_table), melee, rch)


def dense_rule(attacker_in: bool, target_in: bool, melee: bool, rch: float) -> bool:
    """``dense_strike`` from which of the two stand in a Dense area."""
    if attacker_in:
        return not melee or rch >= 1
    return not melee and target_in


def hazy_block(game, attacker: str, targets) -> str | None:
    """Hazy (eldfall-facts.md, Environments: "no ranged attacks through"): why a ranged
    Attack (a weapon's or a spell's) may not be made, when the attacker or a target stands
    in a Hazy area (its base touches one: the line of fire would pass through the haze);
    None otherwise. A line that only crosses a Hazy area between two models outside it
    is not seen by the rules (the geometry tells only which areas a base touches)."""
    return hazy_reason([m for m in (attacker, *targets) if m in game.models and game.models[m].on_table
                        and "hazy" in game.geo.environments(m)])


def hazy_reason(in_haze) -> str | None:
    """``hazy_block``'s words for the models (attacker first) that stand in a Hazy area."""
    if not in_haze:
        return None
    return (f"no ranged Attack through a Hazy area: {in_haze[0]} stands in one "
            "(Hazy: no ranged attacks through)")


def _xy(p) -> str:
    return f"({float(p[0]):.2f}, {float(p[1]):.2f})"


def _why_not_place(game, d: Declare, prof: dict, role: str) -> str | None:
    """``place=``: where the template of an Attack on a model lies. "The main target must
    be fully covered by the template" (eldfall-actions.txt, AoE rules) is the only bound
    the page puts on it: the attacker chooses the spot (a circle's centre, a spray's aim
    point). Active Role, one target (one template), a template weapon or spell."""
    name = prof.get("name") or d.weapon or d.spell
    if not prof.get("template"):
        return f"{name} has no template: place= lays a template"
    if role != "active":
        return ("a Reaction's template lies on the Activated model where the Reaction is aimed: "
                "place= is for the Active Role")
    if len(d.targets) != 1:
        return "place= lays one template: name one main target"
    if not all(math.isfinite(float(v)) for v in d.place):
        return f"place= is a point x,y,z, not {d.place!r}"
    x, y = float(d.place[0]), float(d.place[1])
    w, dp = (float(v) for v in game.table[:2])
    if not (0.0 <= x <= w and 0.0 <= y <= dp):
        return f"the point ({x:g}, {y:g}) is off the {w:g}x{dp:g} table"
    return None


def placed_template(game, user: str, prof: dict, target: str, place, count: int = 1):
    """The template of an Attack on ``target`` laid at ``place`` (``Declare.place``): a
    circle centred there, a spray from the user's base aimed there (its height band the
    attacker's choice, as for an Attack at the ground: down when the point lies below
    the user's base, else up)."""
    kind = sp.template_kind(prof["template"])
    if kind.startswith("circle"):
        return game.geo.template(kind, user=user, target=target, at=tuple(place), count=count)
    band = "down" if float(place[2]) < float(game.geo.position(user)[2]) - 1e-6 else "up"
    return game.geo.template(kind, user=user, target=target, aim=tuple(place), band=band, count=count)


def is_ground_attack(d: Declare, role: str = "active") -> bool:
    """An Attack aimed at a point of a field surface (``at=``) instead of a model: the
    Targetless trait's "does not require a model as a target" (Core Rules p.73;
    eldfall-facts.md, Cover: "Targetless attacks at the ground"). Active Role only:
    a Reaction targets the Activated model (eldfall-reactions.txt, Who Can React)."""
    return d.action in ATTACKS and role == "active" and d.point is not None and not d.targets


def ground_template(game, user: str, prof: dict, point):
    """The template of an Attack at the ground: a circle centred on the surface at
    (or below) ``point``, a spray from the user's base aimed at it (its height band
    the attacker's choice, eldfall-facts.md Templates: down when the point lies
    below the user's base, else up)."""
    kind = sp.template_kind(prof["template"])
    if kind.startswith("circle"):
        return game.geo.template(kind, user=user, at=tuple(point))
    band = "down" if float(point[2]) < float(game.geo.position(user)[2]) - 1e-6 else "up"
    return game.geo.template(kind, user=user, aim=tuple(point), band=band)


def _why_not_ground(game, d: Declare, prof: dict, melee: bool) -> str | None:
    """An Attack at the ground (``is_ground_attack``): a Targetless weapon or spell
    with a template, the point on the table, on (not above) its surface, within
    Reach or range, and the template placeable there."""
    name = prof.get("name") or d.weapon or d.spell
    if not is_targetless(prof):
        return (f"{name} has no Targetless trait: only a Targetless Attack is aimed at the "
                "ground; name the target model")
    if not prof.get("template"):
        return f"{name} has no template: an Attack at the ground would hit no model"
    x, y, z = (float(v) for v in d.point)
    w, dp = (float(v) for v in game.table[:2])
    if not (0.0 <= x <= w and 0.0 <= y <= dp):
        return f"the point ({x:g}, {y:g}) is off the {w:g}x{dp:g} table"
    top = float(game.geo.ground(x, y)[2])
    if z > top + 0.05:
        return (f"the point ({x:g}, {y:g}, {z:g}) is in the air: the surface under it is at "
                f"z={top:.2f}")
    if game.settings["measuring"] != "realism":          # Realism: declare, then measure
        dist = game.geo.point_distance(d.model, d.point)
        if melee:
            reach = float(prof.get("rch", 0))
            if dist > reach + cb.MEASURE_TOLERANCE:
                return f"the point is out of Reach ({dist:.2f}\" > RCH {reach:g}\")"
        elif prof.get("bands"):
            if cb.band_modifier(prof["bands"], dist) is None:
                lo = float(prof["bands"][0][0])
                return (f"the point is out of range ({dist:.2f}\" inside the minimum range of {lo:g}\")"
                        if dist < lo else f"the point is out of range ({dist:.2f}\" beyond the last band)")
        elif prof.get("kind") == "spell" and prof.get("rng", 0) > 0 and \
                dist > prof["rng"] + cb.MEASURE_TOLERANCE:
            return f"the point is out of range ({dist:.2f}\" > {prof['rng']:g}\")"
    tc = ground_template(game, d.model, prof, d.point)
    if not tc.legal:
        return f"the template cannot lie there: {tc.reason}"
    return None


def is_melee_attack(game, d: Declare) -> bool:
    """A Melee Attack, or a Spell Attack with a Melee-Type Spell (eldfall-actions.txt,
    Melee Attack: "Requires a Melee Weapon or a Melee-Type Spell within Reach")."""
    if d.action == "Melee Attack":
        return True
    if d.action == "Spell Attack":
        s = game.spell(d.model, d.spell)
        return bool(s and s.get("melee"))
    return False


def _aura_target(game, d: Declare, prof: dict, role: str, t: str) -> bool:
    """Casting Aura: in the Active Role a spell may target a model inside the
    caster's Awareness without LoS, at a halved casting attribute (eldfall-facts.md,
    "Reach"), a Melee-Type spell as a ranged one."""
    return (prof.get("kind") == "spell" and role == "active"
            and game.geo.in_awareness(d.model, t, _acute(game.models[d.model])))


def is_targetless(prof: dict | None) -> bool:
    """The weapon's or spell's Targetless trait: its Attack needs no LoS to the target."""
    return bool(prof) and cb.has_trait(prof.get("traits", []), "Targetless")


def snipes(m, prof: dict | None) -> bool:
    """The Snipe ability (eldfall-facts.md, Cover: "Targetless attacks at the ground and the
    Snipe ability ignore cover"): a skill or trait of the attacking model's, or a trait of the
    weapon or spell it attacks with. It ignores every Cover, a Crouched target's included
    (docs/rulings.md, "Snipe")."""
    own = list(m.unit.skills) + list(m.unit.traits)
    return cb.has_trait(own + list((prof or {}).get("traits", []) or []), "Snipe")


def _acute(m) -> float:
    """Awareness beyond AG is the geometry's business (Acute Senses: +3")."""
    return 0.0


# ----------------------------------------------------------------------
# the Resolution Step
class Strike:
    """The dice one attacker rolls against one target."""

    def __init__(self, attacker, target, decl, role, prof, n):
        self.attacker, self.target, self.decl, self.role, self.prof, self.n = (
            attacker, target, decl, role, prof, n)
        self.attr = 0
        self.mods: dict = {}
        self.failed: str | None = None
        self.dice: list = []
        self.hits: list = []
        self.victims: list[str] = [target] if target is not None else []
        self.ff_allies: list[str] = []
        self.enchantment = prof.get("type") == "Enchantment"
        # an Attack at the ground (target None): the point it is aimed at
        self.ground = tuple(decl.point) if target is None and decl.point is not None else None

    def label(self) -> str:
        if self.target is None:
            return f"{self.attacker} {self.prof['name']} at the ground"
        return f"{self.attacker} {self.prof['name']} vs {self.target}"


def _attack_attribute(game, st: Strike, with_cover: bool = True) -> None:
    """The modified attribute of one attack. ``with_cover`` False (bots' quick
    estimates only): terrain Cover is not measured (Crouched still counts)."""
    a = st.decl.action
    m = game.models[st.attacker]
    prof = st.prof
    mods = {}
    halvings = 0
    if a == "Spell Attack":
        stat = sp.casting_stat(m)
    elif a == "Melee Attack":
        stat = "OFF" if st.role == "active" else "DEF"
    else:
        stat = "ACC"
    melee = a == "Melee Attack" or prof.get("melee")
    if st.ground is not None:
        _ground_attribute(game, st, stat, bool(melee))
        return
    if not melee:
        # a Shrouded model's Attack was declared with its 360 degree LoS (Shrouded: "360° LoS";
        # declaring it gains Surprise Attack): the Shrouded State it gave up by declaring does
        # not turn its own Attack away from a target behind it
        all_round = st.attacker in getattr(game.act, "was_shrouded", ())
        los = game.has_los(st.attacker, st.target, moving=all_round)
        sight = game.geo.sight(st.attacker, st.target, fraction=True, moving=all_round) \
            if (los and with_cover) else None         # cover needs the hidden share
        dist = game.geo.distance(st.attacker, st.target)
        tstates = game.models[st.target].states
        if not los and is_targetless(prof):
            # aimed without LoS, at the ground where the target stands: not halved (the
            # Casting Aura's price is for a spell that needs LoS), and "Targetless attacks
            # at the ground ... ignore cover" (eldfall-facts.md, Cover)
            mods["targetless"] = "no LoS"
        elif not los and not (a == "Spell Attack" or prof.get("kind") == "spell"):
            # only a spell reaches through the Casting Aura: a weapon's Ranged Attack "Requires
            # LoS at the declared point of attack" (eldfall-actions.txt), so it fails
            st.failed = "no LoS to the target (a weapon cannot aim through the Casting Aura)"
        elif not los:
            halvings += 1                 # Casting Aura: halved, and the target gets no Cover
            mods["aura"] = "halved"
        else:
            cover = sight.cover if sight is not None else "none"
            rule = cd.cover_rule(tstates)
            if rule == "none":
                cover = "none"
            elif rule == "light" and cover == "none":
                cover = "light"
            if cover != "none" and snipes(m, prof):
                mods["snipe"] = cover    # "the Snipe ability ignore[s] cover" (facts: Cover)
            elif cover == "light":
                mods["cover"] = -2
            elif cover == "heavy":
                mods["cover"] = -4
        _range(st, prof, dist, mods)
        envs = game.geo.environments(st.attacker) | game.geo.environments(st.target)
        haze = hazy_block(game, st.attacker, [st.target])
        if haze and not st.failed:
            st.failed = haze             # (where a reaction is aimed, the mover's point)
        if "forest" in envs:
            mods["forest"] = -3          # ranged attacks within a Forest (facts: Environments)
        elif los and game.geo.through_forest(st.attacker, st.target, moving=all_round):
            mods["forest"] = -3          # ... or through one: every line of fire crosses a Forest
        if "dark" in envs:
            aw = m.unit.stat("AG") + (3 if cb.has_trait(m.unit.traits, "Acute Senses") else 0)
            if dist > aw / 2:
                mods["dark"] = -3        # Dark: -3 beyond half the attacker's Awareness
        allies = [o.id for o in game.models.values()
                  if o.side == m.side and o.id != st.attacker and o.on_table
                  and not cd.ignored_for_game(o.states) and game.geo.base_contact(o.id, st.target)]
        if allies:
            mods["friendly fire"] = -4 * len(allies)
            st.ff_allies = allies
        st.distance = dist
    else:
        reach = float(prof.get("rch", 0))
        if not game.geo.in_reach(st.attacker, st.target, reach):
            st.failed = f"out of Reach ({game.geo.distance(st.attacker, st.target):.2f}\")"
        if prof.get("kind") == "spell" and not is_targetless(prof) and \
                not game.has_los(st.attacker, st.target):
            halvings += 1                 # a Melee-Type spell through the Casting Aura: halved
            mods["aura"] = "halved"
    st.stat = stat
    st.mods = mods
    st.attr = game.stat(st.attacker, stat, mods=sum(v for v in mods.values() if isinstance(v, int)),
                        halvings=halvings)


def _range(st: Strike, prof: dict, dist: float, mods: dict) -> None:
    """A ranged attack's range at ``dist``: its band's modifier into ``mods`` (or a spell's
    plain range), ``st.failed`` beyond the last band."""
    if prof.get("bands"):
        bm = cb.band_modifier(prof["bands"], dist)
        if bm is None:
            st.failed = f"out of range at {dist:.2f}\""
        elif bm:
            mods["range"] = bm
    elif prof.get("kind") == "spell" and prof.get("rng", 0) > 0 and \
            dist > prof["rng"] + cb.MEASURE_TOLERANCE:
        st.failed = f"out of range at {dist:.2f}\""


def _ground_attribute(game, st: Strike, stat: str, melee: bool) -> None:
    """The modified attribute of an Attack at the ground: no LoS needed and no Cover
    ("Targetless attacks at the ground ... ignore cover", eldfall-facts.md), no
    Friendly Fire (there is no target to be in Base Contact with); range bands, Reach,
    Forest and Dark measured to the point as for a model."""
    m = game.models[st.attacker]
    prof = st.prof
    mods: dict = {"targetless": "at the ground"}
    dist = game.geo.point_distance(st.attacker, st.ground)
    if melee:
        reach = float(prof.get("rch", 0))
        if dist > reach + cb.MEASURE_TOLERANCE:
            st.failed = f"out of Reach ({dist:.2f}\")"
    else:
        _range(st, prof, dist, mods)
        envs = game.geo.environments(st.attacker)
        haze = hazy_block(game, st.attacker, [])
        if haze and not st.failed:
            st.failed = haze
        if "forest" in envs:
            mods["forest"] = -3
        if "dark" in envs:
            aw = m.unit.stat("AG") + (3 if cb.has_trait(m.unit.traits, "Acute Senses") else 0)
            if dist > aw / 2:
                mods["dark"] = -3
    st.distance = dist
    st.stat = stat
    st.mods = mods
    st.attr = game.stat(st.attacker, stat, mods=sum(v for v in mods.values() if isinstance(v, int)))


def resolve(game) -> None:
    act = game.act
    decls = []
    if act.action is not None:
        decls.append((act.model, act.action, "active"))
    for mid, d in act.reactions.items():
        decls.append((mid, d, "reactive"))
    # Surprise Attack: a Shrouded model's Attack halves its targets' OFF DEF ACC AG INT
    surprised = set()
    for mid, d, role in decls:
        if d.action not in ATTACKS:
            continue
        prof = attack_profile(game, d) or {}
        if mid in act.was_shrouded or cb.has_trait(prof.get("traits", []), "Surprise Attack"):
            surprised |= set(d.target_ids)
    if surprised:
        act.surprised = frozenset(surprised)
        game.emit("surprise_attack", {"targets": sorted(surprised)})
    hidden = {mid for mid, m in game.models.items() if "Shrouded" in m.states}

    # 1. fix every attack's attribute (the mover where each reaction aimed)
    strikes: list[Strike] = []
    for mid, d, role in decls:
        if d.action not in ATTACKS:
            continue
        prof = attack_profile(game, d)
        point = rx.reaction_point(game, d) if role == "reactive" else None
        with game.mover_at(point):
            if is_ground_attack(d, role):
                # an Attack at the ground: one template at the point; it Hits every
                # model it covers (the user excepted) and has no main target
                st = Strike(mid, None, d, role, prof, 1)
                _attack_attribute(game, st)
                if not st.failed:
                    tc = ground_template(game, mid, prof, st.ground)
                    if tc.legal:
                        st.victims = [h.id for h in tc.affected
                                      if h.id != mid and h.los_from_origin and h.in_band
                                      and h.id in game.models]
                        more = set(st.victims) - set(act.surprised)
                        if more and (mid in act.was_shrouded or cb.has_trait(
                                prof.get("traits", []), "Surprise Attack")):
                            # Surprise Attack: the models under the template are its targets
                            act.surprised = act.surprised | frozenset(more)
                            game.emit("surprise_attack", {"targets": sorted(more)})
                    else:
                        st.failed = f"the template cannot lie there: {tc.reason}"
                strikes.append(st)
            for t, n in d.targets:
                st = Strike(mid, t, d, role, prof, n)
                _attack_attribute(game, st)
                if prof.get("template") and not st.failed:
                    if d.place is not None and role == "active":
                        # where the attacker laid it (checked legal at the declaration)
                        tc = placed_template(game, mid, prof, t, d.place, count=n)
                    else:
                        tc = game.geo.template(sp.template_kind(prof["template"]), user=mid,
                                               target=t, count=n)
                    if not tc.legal:
                        tc = game.geo.best_template(sp.template_kind(prof["template"]), user=mid,
                                                    target=t)
                    st.victims = [h.id for h in tc.affected
                                  if h.id != mid and h.los_from_origin and h.in_band
                                  and h.id in game.models]
                    if t not in st.victims:
                        st.victims.insert(0, t)
                    more = set(st.victims) - set(act.surprised)
                    if more and (mid in act.was_shrouded or cb.has_trait(
                            prof.get("traits", []), "Surprise Attack")):
                        # Surprise Attack: every model the template covers is a target of
                        # the Attack, as under a template aimed at the ground
                        act.surprised = act.surprised | frozenset(more)
                        game.emit("surprise_attack", {"targets": sorted(more)})
                strikes.append(st)
        if d.action == "Spell Attack":
            sp.pay_mana(game, mid, game.spell(mid, d.spell))
            act.spells_cast += 1

    # 2. attack dice
    for st in strikes:
        ev = {"attacker": st.attacker, "target": st.target, "with": st.prof["name"],
              "kind": st.decl.action, "role": st.role, "stat": st.stat,
              "attribute": st.attr, "modifiers": st.mods, "strikes": st.n,
              "failed": st.failed, "victims": st.victims}
        if st.ground is not None:
            ev["at"] = list(st.ground)
        gifts = sp.spell_type_gifts(game, st.attacker) if st.decl.action != "Spell Attack" else []
        if gifts:
            ev["spell_type"] = gifts          # an Enchantment of PW ✯ on the attacker
        game.emit("attack", ev)
        if st.failed:
            continue
        for _ in range(st.n):
            v = game.roll(f"attack: {st.label()}", attacker=st.attacker, target=st.target)
            st.dice.append(cb.judge(v, st.attr))

    # 3. confrontations
    ties = game.settings["confrontation_ties"]
    done = set()
    for i, a in enumerate(strikes):
        a_hits = [x for x in a.dice if x.success]
        partner = None
        for j, b in enumerate(strikes):
            if j != i and b.attacker == a.target and b.target == a.attacker and not b.failed:
                partner = j
                break
        if partner is not None and not a.failed:
            key = tuple(sorted((i, partner)))
            b = strikes[partner]
            sa, sb = cb.confront(a.dice, b.dice, ties)
            a.hits = sa
            if key not in done:
                done.add(key)
                game.emit("confrontation", {"a": a.attacker, "b": b.attacker,
                                            "a_rolls": [x.value for x in a.dice],
                                            "b_rolls": [x.value for x in b.dice],
                                            "a_hits": [x.value for x in sa],
                                            "b_hits": [x.value for x in sb], "ties": ties})
        else:
            a.hits = a_hits
    # AoE nullified when the main target wins the Confrontation against the caster
    for st in strikes:
        if len(st.victims) > 1 or st.prof.get("template"):
            back = [b for b in strikes if b.attacker == st.target and b.target == st.attacker]
            if back and back[0].hits and not st.hits:
                st.victims = []

    # 4. friendly fire: a roll of 17-20 hits an allied model in base contact instead
    ff_hits: list[tuple[Strike, object, str]] = []
    for st in strikes:
        if not st.ff_allies:
            continue
        for die in st.dice:
            if 17 <= die.value <= 20:
                ally = st.ff_allies[0]
                if len(st.ff_allies) > 1:
                    k = game.roll(f"friendly fire: which ally ({len(st.ff_allies)})",
                                  sides=len(st.ff_allies), attacker=st.attacker)
                    ally = st.ff_allies[k - 1]
                game.emit("friendly_fire", {"attacker": st.attacker, "ally": ally, "roll": die.value})
                ff_hits.append((st, cb.Die(die.value, die.target, True, False), ally))
        st.hits = [h for h in st.hits if not (17 <= h.value <= 20)]

    # 5. dodges: one AG roll per attacker (one roll when no one attacks)
    dodged: dict[tuple[str, str], bool] = {}
    for mid, d, role in decls:
        if d.action != "Dodge":
            continue
        m = game.models[mid]
        attackers = []
        for st in strikes:
            # an Attack that failed before its dice (out of range or Reach, no LoS) is no
            # Attack to dodge: a roll against it would be a second chance (Immobilized)
            if mid in st.victims and st.attacker not in attackers and not st.enchantment \
                    and not st.failed:
                attackers.append(st.attacker)
        # "Enchantment ... Cannot be Dodged" (eldfall-actions.txt, Spell Types): the roll
        # below is not made against it, and the narration says so (else a successful Dodge
        # followed by the Enchantment's Hit reads as a contradiction)
        undodgeable = []
        for st in strikes:
            if mid in st.victims and st.enchantment and not st.failed:
                w = f"{st.attacker}'s {st.prof['name']}"
                if w not in undodgeable:
                    undodgeable.append(w)
        stat = d.attribute or "AG"
        halv = 0
        if role == "reactive" and not act.qualified.get(mid, {}).get("los", True):
            halv = 1
        target = game.stat(mid, stat, halvings=halv)
        success_any = False
        for att in attackers or [None]:
            v = game.roll(f"Dodge: {mid} {stat}" + (f" vs {att}" if att else ""), model=mid)
            die = cb.judge(v, target)
            game.emit("dodge", {"model": mid, "against": att, "stat": stat, "attribute": target,
                                "halved": bool(halv), "die": die.to_dict(),
                                **({"undodgeable": undodgeable} if undodgeable else {})})
            if att is not None:
                dodged[(mid, att)] = die.success
            success_any = success_any or die.success
        act.dodge_success[mid] = success_any
        if success_any and "Immobilized" in m.states:
            game.remove_state(mid, "Immobilized", "successful Dodge")

    # 6. damage and effects, simultaneous
    wounds: dict[str, int] = {}
    effects: list[tuple] = []
    hit_list: list[tuple[Strike, object, str]] = []
    for st in strikes:
        for die in st.hits:
            for v in st.victims:
                hit_list.append((st, die, v))
    hit_list.extend(ff_hits)
    for st, die, victim in hit_list:
        vm = game.models[victim]
        if not vm.on_table or "Dead" in vm.states:
            continue
        if dodged.get((victim, st.attacker)) and not die.critical:
            game.emit("hit_dodged", {"model": victim, "attacker": st.attacker, "roll": die.value})
            continue
        traits = list(st.prof.get("traits", []))
        if victim in act.surprised or st.attacker in act.was_shrouded:
            traits.append("Surprise Attack")
        game.emit("hit", {"attacker": st.attacker, "model": victim, "roll": die.value,
                          "critical": die.critical, "with": st.prof["name"]})
        seen_by = act.hit_by.setdefault(victim, [])
        if st.attacker not in seen_by:
            seen_by.append(st.attacker)        # it may turn (sequence._open_turns)
        if st.enchantment:
            effects.append(("enchant", victim, st))
            continue
        if st.prof.get("kind") == "spell" and st.prof.get("type") == "Sorcery":
            # a Sorcery's effect lasts until the end of the Activation Sequence (Spell Types)
            for name in sp.spell_effect(st.prof).get("states", ()):
                effects.append(("state", victim, name, "sequence"))
        pw = game.weapon_pw(st.attacker, st.prof) if st.prof.get("kind") != "spell" else \
            cb.spell_pw(st.prof)
        arm = game.stat(victim, "ARM")
        thr = cb.wound_threshold(pw, arm, die.critical, traits)
        r = game.roll(f"damage: {st.prof['name']} on {victim}", model=victim, attacker=st.attacker)
        wounded = 0 < thr and r <= thr
        game.emit("damage", {"model": victim, "roll": r, "pw": pw, "arm": arm,
                             "threshold": thr, "critical": die.critical, "wound": wounded})
        if wounded and cb.has_trait(traits, "Unkeen"):
            u = game.roll(f"Unkeen: {victim} T roll", model=victim)
            ud = cb.judge(u, game.stat(victim, "T"))
            game.emit("check", {"model": victim, "check": "Unkeen", "die": ud.to_dict()})
            if ud.success:
                wounded = False
        if wounded:
            wounds[victim] = wounds.get(victim, 0) + 1
            if cb.has_trait(traits, "Poison II"):
                effects.append(("state", victim, "Weakened", "strategic"))
                effects.append(("state", victim, "Poisoned", None))
            elif cb.has_trait(traits, "Poison I"):
                effects.append(("state", victim, "Weakened", "strategic"))
        kb = cb.trait_value(traits, "Knockback")
        big = cb.size_steps(game.models[st.attacker].unit.size, vm.unit.size) >= 2
        if kb and not big:
            effects.append(("knockback", victim, st.attacker, kb, st.decl.knockback))
        if cb.has_trait(traits, "Knockdown") and not big:
            effects.append(("state", victim, "Crouched", None))
    for st, die, ally in ff_hits:
        effects.append(("ff_panic", ally))
    for victim, n in wounds.items():
        game.wound(victim, n, "Attack")
    for eff in effects:
        if eff[0] == "state":
            _, v, name, exp = eff
            if game.models[v].on_table and "Dead" not in game.models[v].states:
                game.add_state(v, name, "trait", expiry=exp)
        elif eff[0] == "knockback":
            _knockback(game, eff[1], eff[2], eff[3], eff[4])
        elif eff[0] == "enchant":
            sp.apply_enchantment(game, eff[2].attacker, eff[1], game.spell(eff[2].attacker,
                                                                         eff[2].decl.spell))
        elif eff[0] == "ff_panic":
            ally = eff[1]
            am = game.models[ally]
            if not am.out and "Panicked" not in am.states:
                v = game.roll("Friendly Fire: M roll", model=ally)
                dd = cb.judge(v, game.stat(ally, "M"))
                game.emit("check", {"model": ally, "check": "Friendly Fire", "die": dd.to_dict()})
                if not dd.success:
                    game.add_state(ally, "Panicked", "Friendly Fire", expiry="strategic")

    # 7. the other actions (a Perceive reveals a model hidden when the step began:
    # one that revealed itself by its declaration has nothing left to reveal)
    for mid, d, role in decls:
        gone = [t for t in d.target_ids if t in game.models and not game.models[t].on_table]
        why = None
        if d.action in OTHER_ACTIONS and not game.models[mid].on_table:
            why = "it is no longer on the table"
        elif d.action in OTHER_ACTIONS and gone and len(gone) == len(d.target_ids):
            why = f"{', '.join(gone)} {'is' if len(gone) == 1 else 'are'} no longer on the table"
        if why:
            # taken off the table in this step (a summoner fell: "Creatures summoned
            # by a caster are removed from the field when the caster becomes
            # Incapacitated or Dead"): nothing is left to act, or to act on
            game.emit("reaction_void" if role == "reactive" else "action_void",
                      {"model": mid, ("reaction" if role == "reactive" else "action"): str(d),
                       "why": why})
            continue
        _resolve_other(game, mid, d, role, hidden)


# the declarations that act in step 7, after the attacks' Wounds and States
OTHER_ACTIONS = ("Death Blow", "Perceive", "Uncover", "Trade", "Interact", "Assist", "Ritual")


def _knockback(game, victim: str, attacker: str, dist: float, direction: float | None = None) -> None:
    """Knockback (X): the hit model is moved X" away from the attacker, in the
    direction the attacker declared (``Declare.knockback``, degrees CCW from +x),
    or directly away when it declared none, or when the declared one is not away
    from this model where it stands now (a model the declaration did not name:
    a template's, a Friendly Fire ally; ruling "Knockback direction")
    (the geometry's "push": not a movement of its own, so its States do not
    restrict it). Scenery or an enemy in the way stops it there; pushed off a
    ledge it goes the whole X" and falls onto the surface below, with the fall
    rules (one AG roll per whole half SPD fallen beyond half SPD, a Wound per
    failure). Where it would end off the table or inside a model, the push is
    shortened by halves. Sources: eldfall-facts.md "Movement" (Knockback, Jump,
    Fall damage); docs/rulings.md "Knockback off a ledge"."""
    vm = game.models[victim]
    if not vm.on_table or "Dead" in vm.states:
        return
    vx, vy, vz = game.geo.position(victim)
    ax, ay, _ = game.geo.position(attacker)
    why = f"Knockback {dist:g} from {attacker}"
    if direction is not None and knockback_off_line(game, victim, attacker, direction):
        why += f", directly away: {float(direction):g}\u00b0 is not away from {attacker}"
        direction = None
    if direction is not None:
        rad = math.radians(float(direction))
        dx, dy = math.cos(rad), math.sin(rad)
        why += f", toward {float(direction):g}\u00b0"
    else:
        dx, dy = vx - ax, vy - ay
        L = math.hypot(dx, dy)
        if L < EPS:
            dx, dy, L = 1.0, 0.0, 1.0
        dx, dy = dx / L, dy / L
    d = float(dist)
    foes = {e.id: -1.0 for e in game.enemies(victim)}
    spd = float(game.speed(victim))
    for _ in range(6):
        end = (vx + dx * d, vy + dy * d, vz)
        mv = game.geo.check_move(victim, "push", [end], spd, enemies=foes)
        if mv.legal:
            game.place(victim, tuple(mv.end), why=why)
            for f in getattr(mv, "falls", ()) or ():
                game.emit("fall", {"model": victim, "height": float(f.height), "rolls": int(f.rolls),
                                   "from": "a ledge", "why": why})
                game.fall_rolls(victim, f)
            return
        d /= 2
        if d < 0.05:
            break
    game.emit("knockback_blocked", {"model": victim, "attacker": attacker,
                                    **({} if direction is None else {"direction": float(direction)})})


def _resolve_other(game, mid: str, d: Declare, role: str, hidden: set[str]) -> None:
    a = d.action
    m = game.models[mid]
    if a == "Death Blow":
        t = d.target_ids[0]
        game.add_state(t, "Dead", f"Death Blow by {mid}")
        game._after_drop(t)
    elif a == "Perceive" and tk.is_token(game, d.target_ids[0]):
        tk.resolve_perceive(game, mid, game.tokens[d.target_ids[0]])
    elif a == "Perceive" and d.target_ids[0] not in hidden:
        # kept against a model no longer Shrouded (it declared an Attack or a
        # Dodge): no roll, the AP is spent for nothing
        game.emit("perceive_nothing", {"model": mid, "target": d.target_ids[0]})
    elif a == "Perceive":
        t = d.target_ids[0]
        v = game.roll(f"Perceive: {mid} INT", model=mid, target=t)
        die = cb.judge(v, game.stat(mid, "INT"))
        game.emit("check", {"model": mid, "check": "Perceive", "target": t, "die": die.to_dict()})
        if die.success:
            game.remove_state(t, "Shrouded", f"revealed by {mid}'s Perceive")
    elif a == "Uncover":
        v = game.roll(f"Uncover: {mid} INT/2", model=mid)
        die = cb.judge(v, game.stat(mid, "INT", halvings=1))
        hidden = [o.id for o in game.enemies(mid) if "Shrouded" in o.states and
                  game.geo.in_awareness(mid, o.id, _acute(m))]
        toks = tk.hidden_in_awareness(game, mid)
        game.emit("check", {"model": mid, "check": "Uncover", "die": die.to_dict(), "hidden": hidden,
                            "tokens": [t.id for t in toks]})
        if die.success:
            for h in hidden:
                game.remove_state(h, "Shrouded", f"revealed by {mid}'s Uncover")
            for t in toks:
                tk.reveal(game, t, mid, "Uncover")
    elif a == "Trade":
        t = d.target_ids[0]
        tm = game.models[t]
        give, take, _ = _trade_split(m.items, tm.items, d.items)
        mine, theirs = list(m.items), list(tm.items)
        for it in give:
            mine.remove(it)
        for it in take:
            theirs.remove(it)
        m.items = tuple(mine) + tuple(take)
        tm.items = tuple(theirs) + tuple(give)
        game.emit("trade", {"from": mid, "to": t, "items": list(give),
                            **({"received": list(take)} if take else {})})
    elif a == "Interact" and d.objective not in {x["id"] for x in game.settings.get("objectives") or []}:
        tk.resolve_interact(game, mid, game.tokens[d.objective])
    elif a == "Interact":
        o = {x["id"]: x for x in game.settings.get("objectives") or []}[d.objective]
        ok = True
        if o.get("attribute"):
            v = game.roll(f"Interact: {mid} {o['attribute']}", model=mid)
            die = cb.judge(v, game.stat(mid, o["attribute"], mods=int(o.get("modifier", 0))))
            game.emit("check", {"model": mid, "check": "Interact", "die": die.to_dict()})
            ok = die.success
        if ok:
            game.objectives_done[d.objective] = m.side
            game.emit("objective", {"objective": d.objective, "side": m.side, "model": mid})
            if o.get("vp"):
                game._score(m.side, int(o["vp"]), f"quest object {d.objective}")
            if o.get("item"):
                m.items = tuple(m.items) + (str(o["item"]),)
                game.emit("item", {"model": mid, "item": o["item"]})
    elif a == "Assist" and sp.is_transmutation(game.spell(mid, d.spell)):
        sp.resolve_transmutation(game, mid, d)
    elif a == "Assist":
        sp.resolve_assist(game, mid, d)
    elif a == "Ritual":
        sp.resolve_ritual(game, mid, d)
