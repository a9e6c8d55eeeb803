"""What is legal now, generated lazily (for ``game.legal_actions()`` and the bots).

Every generated action passes ``game.why_illegal``. Continuous choices
(movement end points, Dodge moves) are sampled: the geometry's reachable
points (``bot_move_candidates`` per mode), plus "stay". A membership test
(``action in game.legal_actions()``) accepts any legal point, sampled or not.
"""
from __future__ import annotations

import itertools
import math
from typing import Iterator

from rules.eldfall import availability as av
from rules.eldfall.actions import (ATTACKS, Activate, ChooseOrder, Crouch, Declare, DodgeMove,
                                   DuelAnswer, EndTurn, Move, Pass, StandUp, Turn, UseStratagem)
from rules.eldfall import combat as cb


def generate(game) -> Iterator:
    kind, who = game.pending
    if game.is_over:
        return
    if kind == "order":
        yield from _ok(game, [ChooseOrder(who, True), ChooseOrder(who, False)])
    elif kind == "tactical":
        for m in game.side_models(who):
            a = Activate(m.id)
            if game.why_illegal(a) is None:
                yield a
        yield EndTurn(who)
    elif kind == "movement":
        yield from _moves(game, who)
    elif kind == "crouch":
        yield Pass(who)
        yield from crouch_options(game, who)
    elif kind == "reaction":
        from rules.eldfall import reactions as rx
        for mid in rx.waiting(game):
            for d in declarations(game, mid, "reactive"):
                if game.why_illegal(d) is None:
                    yield d
        yield Pass(who)
        if game.act.crouch_window is not None:
            yield from crouch_options(game, who)
    elif kind == "reaction-late":
        for mid in game.act.late_candidates:
            for d in declarations(game, mid, "reactive"):
                if game.why_illegal(d) is None:
                    yield d
        yield Pass(who)
    elif kind == "reaction-change":
        for mid in game.act.change_candidates:
            for d in declarations(game, mid, "reactive"):
                if d.action in ATTACKS and game.why_illegal(d) is None:
                    yield d
        yield Pass(who)
    elif kind == "action":
        for d in declarations(game, who, "active"):
            if game.why_illegal(d) is None:
                yield d
    elif kind == "dodge-move":
        yield from _dodge_moves(game, who)
    elif kind == "turn-on-hit":
        yield from turn_options(game, who)
    elif kind == "duel-answer":
        yield DuelAnswer(who, True)
        yield DuelAnswer(who, False)
    elif kind == "stratagem":
        yield Pass(who)
        yield from stratagem_options(game, who)
    elif kind == "stand-up":
        # Incapacitated has ended: stand up or stay Crouched; last a Pass, which stays
        # too (a front end that knows only Pass)
        yield from _ok(game, [StandUp(who, True), StandUp(who, False)])
        yield Pass(game.models[who].side)


def stratagem_options(game, side: str) -> Iterator:
    """Each usable Stratagem on each model it may name (or once, when it names none)."""
    from rules.eldfall import stratagems as sg
    for s, targets in sg.usable(game, side):
        if s["target"] in ("own", "enemy"):
            for t in targets:
                yield from _ok(game, [UseStratagem(side, s["name"], t)])
        else:
            yield from _ok(game, [UseStratagem(side, s["name"])])


def crouch_options(game, side: str) -> Iterator:
    """Crouched as a Reaction: each eligible model's change alone, and all of
    them at once (any other subset is legal too, but not listed)."""
    elig = game.crouch_eligible()
    changes = [(mid, "Crouched" not in game.models[mid].states) for mid in elig]
    for c in changes:
        yield Crouch(side, (c,))
    if len(changes) > 1:
        yield Crouch(side, tuple(changes))


def _ok(game, actions):
    for a in actions:
        if game.why_illegal(a) is None:
            yield a


def move_candidates(game, model: str, mode: str) -> list:
    n = int(game.settings["bot_move_candidates"])
    try:
        return game.geo.reachable_points(model, mode, float(game.speed(model)), limit=n,
                                         enemies=game.enemy_reaches(model))
    except Exception:      # noqa: BLE001 -- a geometry that cannot sample: no candidates
        return []


def _moves(game, model: str) -> Iterator:
    m = game.models[model]
    crouched = "Crouched" in m.states
    yield from _ok(game, [Move(model, "idle")])
    yield from _ok(game, [Move(model, "idle", crouch_end=not crouched)])
    for mode in ("walk", "run", "climb", "jump"):
        a0 = Move(model, mode, ((0.0, 0.0, 0.0),))
        reason = game.check_phase(a0) or game.check_actor(a0)
        if reason:
            continue
        name = {"walk": "Walk", "run": "Run", "climb": "Climb", "jump": "Jump"}[mode]
        allowed = av.allowed_movements(m.states, panic_failed=game.act.panic_failed,
                                       environment=game.geo.environments(model),
                                       settings=game.settings.get("table_settings"))
        if name not in allowed:
            continue
        pts = move_candidates(game, model, mode) if mode in ("walk", "run") else []
        if mode == "run":
            pts = pts[:max(2, len(pts) // 2)]
        for p in pts:
            yield from _ok(game, [Move(model, mode, (tuple(p),))])
        if mode == "walk" and pts:
            yield from _ok(game, [Move(model, mode, (tuple(pts[0]),), crouch_end=not crouched)])
    if crouched:
        yield from _stand_and_run(game, model)
    if "Flying" in m.states:
        yield from _land_options(game, model)


def _land_options(game, model: str) -> Iterator:
    """A Flying model may stop Flying by choice at the start or the end of its
    Movement Step (docs/rulings.md, "Stopping Flying"): land where it is and stay,
    fly then land, or land and then walk (no longer doubled: SPD as on foot)."""
    m = game.models[model]
    yield from _ok(game, [Move(model, "idle", land="start")])
    pts = move_candidates(game, model, "walk")
    if pts:
        yield from _ok(game, [Move(model, "walk", (tuple(pts[0]),), land="end")])
    if game._why_not_land(model, m.states, here=True):
        return
    landed = frozenset(m.states - {"Flying"})
    n = int(game.settings["bot_move_candidates"])
    try:
        with game.states_for_geometry(model, landed), game.landed_for_geometry(model, True):
            pts = game.geo.reachable_points(model, "walk", float(game._speed_with(model, landed)),
                                            limit=n, enemies=game.enemy_reaches(model, landed))
    except Exception:      # noqa: BLE001 -- a geometry that cannot sample: no candidates
        pts = []
    for p in pts[:max(2, len(pts) // 2)]:
        yield from _ok(game, [Move(model, "walk", (tuple(p),), land="start")])


def _stand_and_run(game, model: str) -> Iterator:
    """A Crouched model may cancel Crouched at the start of its Movement Step
    (eldfall-states.txt, "Entering/Leaving Crouched") and then Run, which Crouched
    alone forbids ("Walk or Idle only")."""
    m = game.models[model]
    standing = frozenset(m.states - {"Crouched"})
    if game._why_not_crouch(model, False, m.states):
        return
    allowed = av.allowed_movements(standing, panic_failed=game.act.panic_failed,
                                   environment=game.geo.environments(model),
                                   settings=game.settings.get("table_settings"))
    if "Run" not in allowed:
        return
    n = int(game.settings["bot_move_candidates"])
    try:
        with game.states_for_geometry(model, standing):
            pts = game.geo.reachable_points(model, "run", float(game._speed_with(model, standing)),
                                            limit=n, enemies=game.enemy_reaches(model))
    except Exception:      # noqa: BLE001 -- a geometry that cannot sample: no candidates
        pts = []
    for p in pts[:max(2, len(pts) // 2)]:
        yield from _ok(game, [Move(model, "run", (tuple(p),), crouch_start=False)])


def turn_options(game, model: str) -> Iterator:
    """Turning when Hit: keep the facing, face each attacker that hit it, or one
    of the eight compass facings (any other facing is legal too, but not listed);
    last a Pass, which keeps the facing too."""
    yield Turn(model)
    seen = {round(float(game.geo.facing(model)) % 360.0, 6)}
    facings = [game.face_toward(model, a) for a in game.act.hit_by.get(model, ())
               if game.models[a].on_table]
    facings += [float(k * 45) for k in range(8)]
    for f in facings:
        if f is None or round(f % 360.0, 6) in seen:
            continue
        seen.add(round(f % 360.0, 6))
        yield Turn(model, f)
    yield Pass(game.models[model].side)      # = keep (a front end that knows only Pass)


def _dodge_moves(game, model: str) -> Iterator:
    m = game.models[model]
    yield DodgeMove(model)
    crouched = "Crouched" in m.states
    yield from _ok(game, [DodgeMove(model, crouch=not crouched)])
    spd = cb.halve(game.speed(model))
    enemies = game.enemy_reaches(model)
    if "Engaged" in m.states:
        enemies = {k: -1.0 for k in enemies}
    try:
        with game.dodge_move_geometry(model):       # any direction, Engaged or not
            pts = game.geo.reachable_points(model, "walk", float(spd),
                                            limit=max(2, int(game.settings["bot_move_candidates"]) // 2),
                                            enemies=enemies)
    except Exception:      # noqa: BLE001
        pts = []
    edges = game.panic_dodge_edges(model)
    if edges:
        # a Panicked reactor that failed its M roll Dodges only toward the nearest field
        # edge: the sampled points rarely lie that way, so offer the straight moves to it
        # (the whole SPD/2, and half of it)
        x, y, z = game.geo.position(model)
        for _, axis, sign in edges:
            for d in (float(spd), float(spd) / 2):
                q = [x, y, z]
                q[axis] += sign * d
                pts = list(pts) + [tuple(q)]
    for p in pts:
        yield from _ok(game, [DodgeMove(model, (tuple(p),))])


def declarations(game, model: str, role: str) -> Iterator[Declare]:
    """Candidate declarations of a model (each still checked by the caller)."""
    m = game.models[model]
    act = game.act
    mover = act.model if act else None
    yield Declare(model, "Nothing")
    yield Declare(model, "Dodge")
    if "Immobilized" in m.states:
        yield Declare(model, "Dodge", attribute="T")
    foes = [e.id for e in game.enemies(model)] if role == "active" else [mover]
    # attacks
    for w in game.weapons(model):
        action = "Melee Attack" if w["kind"] == "melee" else "Ranged Attack"
        stk = 1 if role == "reactive" else max(1, int(w.get("stk", 1)))
        yield from _attack_splits(game, model, action, foes, stk, weapon=w["name"], role=role)
    for s in m.unit.spells:
        t = s.get("target", "enemy")
        if s.get("type") == "Conjuration":
            if role == "active":
                yield Declare(model, "Ritual", spell=s["name"])
            continue
        if s.get("type") == "Transmutation":
            # its token placed on the field (spells.placements; Active Role only)
            if role == "active":
                from rules.eldfall import spells as sp
                yield from sp.placements(game, model, s)
            continue
        if t in ("enemy", "any"):
            stk = 1 if role == "reactive" else max(1, int(s.get("stk", 1)))
            yield from _attack_splits(game, model, "Spell Attack", foes, stk, spell=s["name"],
                                      role=role)
        if t in ("ally", "self", "any"):
            friends = [model] + [x.id for x in game.allies(model)]
            for a in friends:
                yield Declare(model, "Assist", spell=s["name"], targets=((a, 1),))
            # "STK determines number of targets (same as Attack)": an Active Role Assist
            # with STK > 1 may take up to STK models at once, as an Attack shares its
            # Strikes (the view's split entry and the bots need one such declaration)
            stk = max(1, int(s.get("stk", 1)))
            if role == "active" and t != "self" and stk > 1 and len(friends) > 1:
                for combo in itertools.combinations(friends, min(stk, len(friends))):
                    yield Declare(model, "Assist", spell=s["name"], targets=tuple((c, 1) for c in combo))
    if role == "active":
        for e in game.enemies(model):
            if "Incapacitated" in e.states:
                yield Declare(model, "Death Blow", targets=((e.id, 1),))
            if "Shrouded" in e.states:
                yield Declare(model, "Perceive", targets=((e.id, 1),))
        yield Declare(model, "Uncover")
        for e in game.enemies(model):
            yield Declare(model, "Issue a Duel", targets=((e.id, 1),))
        yield from _trades(game, model)
    else:
        if mover and "Shrouded" in game.models[mover].states:
            yield Declare(model, "Perceive", targets=((mover, 1),))
        from rules.eldfall.table_settings import resolve
        if resolve(game.settings.get("table_settings")).trade_as_reaction:
            # the Reactions page's Trade row, when the table plays it (docs/rulings.md,
            # "Trade as a reaction"): offered as the Active Role offers it
            yield from _trades(game, model)
    for o in game.settings.get("objectives") or []:
        yield Declare(model, "Interact", objective=o["id"])
    from rules.eldfall import tokens as tk
    for action, tid in tk.candidates(game, model, role):
        if action == "Perceive":
            yield Declare(model, "Perceive", targets=((tid, 1),))
        else:
            yield Declare(model, "Interact", objective=tid)


def _trades(game, model: str) -> Iterator[Declare]:
    """The Trades with each ally (each still checked by the caller): "May exchange any
    number of acquired Items" (eldfall-actions.txt, Trade), so each Item alone either
    way, all of this model's, all of the ally's (they come to this model), and both
    sets swapped (a name the model does not hold comes from the partner:
    ``resolution._trade_split``)."""
    mine = tuple(game.models[model].items)
    for a in game.allies(model):
        theirs = tuple(a.items)
        offers = [(it,) for it in dict.fromkeys(mine + theirs)]
        offers += [mine, theirs, mine + theirs]
        seen = set()
        for items in offers:
            if items and items not in seen:
                seen.add(items)
                yield Declare(model, "Trade", targets=((a.id, 1),), items=items)


def ground_declarations(game, model: str) -> Iterator[Declare]:
    """Candidate Attacks at the ground (docs/rulings.md, "Targetless": a Targetless
    template aimed at a point of a field surface, Active Role), each still checked by
    the caller: every Targetless weapon or spell with a template, aimed at the surface
    under each enemy on the table and midway between two enemies close enough for one
    template to catch both (a few points, not a search)."""
    from rules.eldfall.resolution import attack_profile, is_targetless
    m = game.models[model]
    uses = [("Melee Attack" if w["kind"] == "melee" else "Ranged Attack", w["name"], None)
            for w in game.weapons(model)]
    uses += [("Spell Attack", None, s["name"]) for s in m.unit.spells
             if s.get("target", "enemy") in ("enemy", "any") and s.get("type") != "Conjuration"]
    profs = []
    for action, weapon, spell in uses:
        prof = attack_profile(game, Declare(model, action, weapon=weapon, spell=spell))
        if prof and is_targetless(prof) and prof.get("template"):
            profs.append((action, weapon, spell))
    if not profs:
        return
    at = [tuple(float(v) for v in game.geo.position(e.id)) for e in game.enemies(model)]
    xy = [(p[0], p[1]) for p in at]
    for i, j in itertools.combinations(range(len(at)), 2):
        if math.dist(xy[i], xy[j]) <= 6.0:        # a Spray L is about 10" long, a Circular L 4.7" wide
            xy.append(((xy[i][0] + xy[j][0]) / 2, (xy[i][1] + xy[j][1]) / 2))
    points, seen = [], set()
    for k, (x, y) in enumerate(xy):
        try:
            top = float(game.geo.ground(x, y)[2])
        except Exception:      # noqa: BLE001 -- a geometry that cannot say: no point here
            continue
        # a model's own base height (under an overhang, below the top surface), else the top
        zs = [at[k][2]] if k < len(at) and at[k][2] <= top + 0.05 else []
        for z in zs + [top]:
            p = (round(x, 3), round(y, 3), round(z, 3))
            if p not in seen:
                seen.add(p)
                points.append(p)
    for action, weapon, spell in profs:
        for p in points:
            yield Declare(model, action, weapon=weapon, spell=spell, point=p)


def _placements(game, model, action, foes, stk, weapon=None, spell=None):
    """A circle template's other placements on each target (``Declare.place``; the AoE
    rules bind it only to cover the main target fully): its centre moved from the
    target's toward each other enemy near enough to be caught, as far as the target stays
    covered (a few candidates, not a search; ``eldfall aoe --best`` searches). A
    Targetless template is left out: its Attack at the ground (``ground_declarations``)
    already lays it between enemies."""
    from rules.core.flat import TEMPLATES_MM
    from rules.eldfall import spells as sp
    from rules.eldfall.resolution import attack_profile, is_targetless
    prof = attack_profile(game, Declare(model, action, weapon=weapon, spell=spell))
    kind = sp.template_kind((prof or {}).get("template") or "")
    if kind not in ("circle-s", "circle-l") or is_targetless(prof):
        return
    R = TEMPLATES_MM[kind] / 25.4 / 2
    for f in foes:
        if f is None or f not in game.models or not game.models[f].on_table:
            continue
        fx, fy, fz = game.geo.position(f)
        slack = R - game.models[f].unit.base / 2 - 0.02
        if slack <= 0:
            continue
        for e in game.enemies(model):
            if e.id == f or not e.on_table:
                continue
            ex, ey, _ = game.geo.position(e.id)
            dist = math.hypot(ex - fx, ey - fy)
            if dist < 1e-6 or dist - slack > R + e.unit.base / 2:
                continue                     # never under the template, however it lies
            k = min(slack, dist) / dist
            place = (round(fx + (ex - fx) * k, 3), round(fy + (ey - fy) * k, 3), fz)
            yield Declare(model, action, weapon=weapon, spell=spell, targets=((f, stk),), place=place)


def _dense(game, model, target, action, weapon=None, spell=None) -> bool:
    """Whether a Dense area takes a Strike off this Attack (resolution.dense_strike)."""
    from rules.eldfall.resolution import dense_strike
    prof = game.weapon(model, weapon) if weapon is not None else game.spell(model, spell)
    if prof is None:
        return False
    melee = action == "Melee Attack" or bool(prof.get("melee"))
    return dense_strike(game, model, [target], melee,
                        float(prof.get("rch", prof.get("rng", 0)) or 0))


def _attack_splits(game, model, action, foes, stk, weapon=None, spell=None, role="active"):
    """All Strikes on one target, one Strike on each of up to STK targets, and
    (reactive) the points of the path a ranged reaction may aim at."""
    for f in foes:
        if f is None:
            continue
        yield Declare(model, action, weapon=weapon, spell=spell, targets=((f, stk),))
        if stk > 2 and _dense(game, model, f, action, weapon, spell):
            # one Strike fewer: all the Strikes a Dense area leaves (-1 STK)
            yield Declare(model, action, weapon=weapon, spell=spell, targets=((f, stk - 1),))
        if stk > 1:
            yield Declare(model, action, weapon=weapon, spell=spell, targets=((f, 1),))
    if role == "active":
        yield from _placements(game, model, action, foes, stk, weapon, spell)
    if role == "active" and stk > 1 and len(foes) > 1:
        for combo in itertools.combinations(foes, min(stk, len(foes))):
            if len(combo) > 1:
                yield Declare(model, action, weapon=weapon, spell=spell,
                              targets=tuple((c, 1) for c in combo))
    if role == "reactive" and game.act is not None:
        q = game.act.qualified.get(model) or {}
        pts = []
        if q.get("opp") is not None and action in ("Melee Attack", "Spell Attack"):
            pts.append(q["opp"])
        if action in ("Ranged Attack", "Spell Attack") and q.get("seen"):
            seen = q["seen"]
            pts += [seen[0], seen[len(seen) // 2], seen[-1]]
        done = set()
        for p in pts:
            p = tuple(p)
            if p in done:
                continue
            done.add(p)
            for f in foes:
                yield Declare(model, action, weapon=weapon, spell=spell, targets=((f, 1),), point=p)
