"""Readable lines for the events of an Eldfall game (the play summary)."""
from __future__ import annotations

import math

from rules.core.text import point_words, side_wins

_EPS = 1e-4           # a point of the path is on a leg, or at the end (as the rules compare)


def _pt(p) -> str:
    return point_words(p, 1)


# The latest Movement Step of each model as its "movement" event told it, so that a
# reaction aimed at a point of the mover's path is told in words ("where it began its
# Walk"): line() is called event by event (the play summary, the view's banner) and
# the declaration names only the point. An "activate" forgets the model's last move,
# a "setup" (a new game) every move.
_MOVES: dict[str, dict] = {}
# Each model's movements and activations by event number (None: an activation), so that
# a declaration told again after later events (the view's event log, narrated anew from
# an earlier decision) is told against the move its mover had made then, not a later one;
# an event told at a number forgets what another (undone) event there left.
_PAST: dict[str, dict[int, dict | None]] = {}


# The initiative rolls of the present roll-off ((side, total) in order), so that a tie
# and the winner (who chooses the turn order) are told: the events name neither.
_INITIATIVE: list = []


# The reactive models the present offer names (the Reaction Step's qualified models, a
# Foresight offer, a change to an Attack) that have not answered it yet, and the
# Reactions declared in this Activation Sequence: a pass ("reactions_done") of a log
# whose event names only the side then names who did not react. The rules' own event
# names them (``models``, ``kept``): that one is told as the game has it, whatever the
# narration saw before (an undo, a log panel narrated backwards).
_OFFER: dict = {"kind": None, "models": [], "reactions": {}, "active": None}


def _remember(k: str, d: dict, seq: int | None = None) -> None:
    if k == "setup":
        _MOVES.clear()
        _PAST.clear()
        _INITIATIVE.clear()
    if seq is not None and seq >= 0:
        for past in _PAST.values():
            past.pop(seq, None)       # another game's event at this number (an undo)
        if k in ("activate", "movement") and d.get("model"):
            _PAST.setdefault(d["model"], {})[seq] = d if k == "movement" else None
    if k in ("setup", "activate"):
        # (the activated model: a Panicked M roll of any other model is a reactor's)
        _OFFER.update(kind=None, models=[], reactions={}, active=d.get("model"))
    if k == "activate":
        _MOVES.pop(d.get("model"), None)
    elif k == "movement" and d.get("model"):
        _MOVES[d["model"]] = d
    elif k == "reaction_step":
        _OFFER.update(kind="step", models=list(d.get("qualified") or ()))
    elif k == "late_reaction_offered":
        _OFFER.update(kind="late", models=list(d.get("models") or ()))
    elif k == "reaction_change_offered":
        _OFFER.update(kind="change", models=list(d.get("models") or ()))
    elif (k == "declare" and d.get("role") == "reactive") or k == "reaction_changed":
        _OFFER["models"] = [m for m in _OFFER["models"] if m != d.get("model")]
        what = d.get("action") or d.get("to")
        if what:
            _OFFER["reactions"][d.get("model")] = what


def _moves_at(seq: int | None) -> dict:
    """The move each model had made in its activation when the event ``seq`` happened
    (model -> its "movement" event): the latest one told, unless that one came after
    ``seq`` (a later activation's: then the one before ``seq``, if any). A model whose
    move the narration has forgotten (at its next activation, as last told) has none."""
    out = dict(_MOVES)
    if seq is None or seq < 0:
        return out
    for m, mv in _MOVES.items():
        past = _PAST.get(m) or {}
        told = next((n for n, v in past.items() if v is mv), None)
        if told is None or told < seq:
            continue
        before = [n for n in past if n < seq]
        out[m] = past[max(before)] if before else None
    return {m: mv for m, mv in out.items() if mv is not None}


def _did_not_react(d: dict | None = None, moves: dict | None = None) -> str | None:
    """The line of a pass (``d``: its "reactions_done" event's data) that closes an
    offer: who did not take it (a kept reaction told against ``moves``, as
    :func:`declared`)."""
    rest, kind, kept = list(_OFFER["models"]), _OFFER["kind"], _OFFER["reactions"]
    _OFFER["models"] = []
    if d and "models" in d:
        rest, kind, kept = list(d["models"]), d.get("offer"), d.get("kept") or {}
    if not rest:
        return None
    if kind == "change":
        return "  " + "; ".join(
            f"{m} keeps its reaction" + (f" ({declared(kept[m], moves)})"
                                         if m in kept else "") for m in rest)
    who = ", ".join(rest)
    verb = "does" if len(rest) == 1 else "do"
    if kind == "late":
        return f"  {who} still {verb} not react (Foresight)"
    return f"  {who} {verb} not react"


def _on_leg(p, a, b) -> bool:
    """``p`` lies on the leg from ``a`` to ``b`` seen from above: the route's height
    follows the ground, a step, a climb's face, not the straight line between the ends."""
    ab = [y - x for x, y in zip(a[:2], b[:2])]
    L2 = sum(v * v for v in ab)
    t = 0.0 if L2 < _EPS * _EPS else max(0.0, min(1.0, sum((q - x) * v for q, x, v in zip(p, a, ab)) / L2))
    return math.dist(p[:2], [x + t * v for x, v in zip(a, ab)]) < _EPS


def _length(a, b, climb: bool) -> float:
    """A part of a move as the rules measure it: on the table (a drop or a step adds
    nothing); a Climb counts its height too, up or down (rulings "Climb": "the
    vertical distance of every climb ... plus the horizontal route")."""
    plan = math.dist(a[:2], b[:2])
    return plan + abs(b[2] - a[2]) if climb and len(a) > 2 and len(b) > 2 else plan


def _back_from_end(p, path, end, climb: bool = False) -> float | None:
    """How far along the move ``p`` is from its end: the move ran from its (untold)
    start straight to ``path[0]``, then leg by leg, and stopped at ``end`` (short of
    the last waypoint when an enemy stopped it); ``climb``: a Climb, its height counted.
    None: ``p`` is not on the legs that are known and the move has no first leg to
    hold it."""
    pts = [tuple(q) for q in path]
    if not pts or math.dist(pts[-1], end) > _EPS:
        cut = next((i for i in range(1, len(pts)) if _on_leg(end, pts[i - 1], pts[i])), None)
        pts = [end] if cut is None else pts[:cut] + [end]
    tail = 0.0
    for i in range(len(pts) - 1, 0, -1):
        if _on_leg(p, pts[i - 1], pts[i]):
            return tail + _length(p, pts[i], climb)
        tail += _length(pts[i - 1], pts[i], climb)
    return tail + _length(p, pts[0], climb)           # on the first leg, from where the move began


def _where(a, mv: dict | None) -> str | None:
    """Where on the mover's move (its "movement" event ``mv``) the reaction ``a`` is
    aimed, in words; None when the point does not fit that move."""
    if mv and mv.get("movement") == "Idle":
        return "where it stands (it did not move)"
    if not mv or "end" not in mv:
        return None
    p, end, verb = tuple(a.point), tuple(mv["end"]), mv["movement"]
    total = float(mv.get("distance") or 0.0)
    back = _back_from_end(p, mv.get("path") or (), end, climb=verb == "Climb")
    if back is None or back > total + 1e-3:
        return None
    if back < _EPS:
        return f"at the end of its {verb}"
    if a.action == "Melee Attack":
        # a melee reaction is aimed at the end or where the mover entered its Reach
        return f"where it entered {a.model}'s Reach ({back:.1f}\" before the end of its {verb})"
    if abs(back - total) < 1e-3:
        return f"where it began its {verb}"
    return f"{back:.1f}\" before the end of its {total:.1f}\" {verb}"


def declared(text: str, moves: dict | None = None) -> str:
    """A declaration in words: ``Ranged Attack with Shortbow at blue-ogre (2 Strikes)``
    for ``declare m 'Ranged Attack' weapon=Shortbow targets=blue-ogre:2``. A reaction's
    point of the mover's path is told against the mover's move when ``moves`` (model ->
    its "movement" event) has it ("where it began its Walk"), else as a point."""
    from rules.eldfall.actions import Action
    try:
        a = Action.parse(text)
    except ValueError:
        return text.split(" ", 2)[2] if text.count(" ") >= 2 else text
    s = a.action + (f" with {a.weapon}" if a.weapon else "") + (f" [{a.spell}]" if a.spell else "")
    if getattr(a, "attribute", None):
        s += f" (rolling {a.attribute})"
    if a.targets:
        s += " at " + ", ".join(m + (f" ({n} Strikes)" if n > 1 else "") for m, n in a.targets)
    if getattr(a, "items", None):
        s += " (items: " + ", ".join(a.items) + ")"
    if a.objective:
        s += f" on {a.objective}"
    if a.point is not None and not a.targets and a.action in ("Melee Attack", "Ranged Attack",
                                                              "Spell Attack"):
        s += f" at the ground at {_pt(a.point)} (Targetless)"
    elif a.point is not None:
        mover = a.targets[0][0] if a.targets else None
        where = _where(a, (moves or {}).get(mover))
        s += f", {where}" if where else f", at the point {_pt(a.point)} of the mover's path"
    if getattr(a, "knockback", None) is not None:
        s += f", Knockback toward {a.knockback:g}\u00b0"
    if getattr(a, "place", None) is not None:
        # an Assist's place= is where a Transmutation's token lies (no template)
        s += f", its {'token' if a.action == 'Assist' else 'template'} laid at {_pt(a.place)}"
    return s


def _melee_at_no_point(text: str) -> bool:
    """A declaration of a Melee Attack that names no point of the mover's path."""
    from rules.eldfall.actions import Action
    try:
        a = Action.parse(text)
    except ValueError:
        return False
    return getattr(a, "action", None) == "Melee Attack" and a.point is None


def _armor_words(d: dict) -> str:
    """The ARM a damage roll was made against: a critical sets it to 0, Armor-Piercing
    halves it, Ignore Armor makes it 0 (the threshold is PW - that ARM)."""
    if d["critical"]:
        return "ARM 0, critical"
    arm, used = d["arm"], d["pw"] - d["threshold"]
    if used == arm:
        return f"ARM {arm}"
    if used == 0:
        return "ARM 0, armor ignored"
    if used == -(-arm // 2):
        return f"ARM {used}, halved from {arm}"
    return f"ARM {used} of {arm}"


# the attribute each check rolls against (rules/eldfall: the roll's reason)
_CHECK_STAT = {"Panicked": "M", "Friendly Fire": "M", "Unkeen": "T", "Perceive": "INT",
               "Uncover": "halved INT", "Bleeding": "T", "Poisoned": "T-6", "Fall": "AG", "Recovery": "T"}


def _n(n: int, what: str) -> str:
    return f"{n} {what}" + ("" if n == 1 else "s")


def _uses(n: int) -> str:
    """A Stratagem's uses left in words: "no uses", "1 use", "2 uses" (as the view's
    Stratagems window counts them)."""
    return "no uses" if int(n) == 0 else _n(int(n), "use")


def _dice(values) -> str:
    return " and ".join(str(v) for v in values)


def line(ev) -> str | None:
    """One line for an event, or None for an event not worth a line."""
    k, d = ev.kind, ev.data
    seq = getattr(ev, "seq", None)
    _remember(k, d, seq)
    # the moves a declaration's point is told against (only these events name one)
    moves = _moves_at(seq) if k in ("declare", "reactions_done", "reaction_void", "action_void",
                                    "reaction_changed") else _MOVES
    if k == "turn":
        return f"== Round {d['round']}, {d['side']}'s turn =="
    if k == "initiative":
        if len(_INITIATIVE) >= 2 or any(x[0] == d["side"] for x in _INITIATIVE):
            _INITIATIVE.clear()            # a new roll-off (after a tie)
        _INITIATIVE.append((d["side"], d["total"]))
        s = f"initiative: {d['side']} rolls {d['roll']} + M {d['M']}" + \
            (f" (Leader {d['leader']})" if d.get("leader") else "") + f" = {d['total']}"
        if len(_INITIATIVE) == 2:
            (a, ta), (b, tb) = _INITIATIVE
            s += ": a tie, both roll again" if ta == tb else \
                f": {a if ta > tb else b} wins the initiative and chooses the turn order"
        return s
    if k == "order":
        return "turn order: " + ", ".join(d["order"])
    if k == "deployment" and d.get("outside"):
        return "deployment: outside their zone: " + ", ".join(d["outside"])
    if k == "activate":
        return f"{d['model']} activates ({d['ap']} AP left)"
    if k == "ap":
        # the AP a rule sets outright (eldfall-actions.txt: a Duel accepted, "both dueling
        # models' AP are restored to their Stamina value"; "No other models may activate or
        # react during the duel"; Ritual: "The summoned creature immediately receives AP
        # equal to its Stamina"); the everyday costs are told with the activation/reaction
        why = d.get("why", "")
        if why.startswith("Duel accepted"):
            return f"    {d['model']}'s AP restored to its STA: {d['ap']} AP (Duel accepted)"
        if why == "not in the duel":
            return f"    {d['model']} loses its AP: no other model may activate or react during the Duel"
        if why.startswith("summoned"):
            return f"    {d['model']} receives AP equal to its STA: {d['ap']} AP (summoned)"
        return None
    if k == "forced":
        return f"  {d['model']}: {d['reason']}"
    if k == "movement":
        if d.get("off_table"):
            return f"  {d['model']} runs off the table"
        if d.get("blocked"):
            return f"  {d['model']} cannot run: the way to the field edge is blocked"
        if d["movement"] == "Idle":
            # an Idle that only turns the model is worth a line; a plain Idle shows
            # with the action (or "does nothing")
            return None if d.get("facing") is None else \
                f"  {d['model']} stays in place and turns to {d['facing']:.0f}\u00b0"
        s = f"  {d['model']} {d['movement'].lower()}s {d.get('distance', 0):.1f}\" to {_pt(d['end'])}" \
            if "end" in d else f"  {d['model']} {d['movement']}"
        if d.get("stopped_by"):
            s += f", stopped by {d['stopped_by']}"
        return s
    if k == "declare":
        if d.get("role") == "active" and " Nothing" in d["action"]:
            # after a move, Nothing is the plain case; without one the activation
            # would show nothing at all
            if (_MOVES.get(d["model"]) or {}).get("movement") == "Idle":
                return f"  {d['model']} stays where it is and does nothing"
            return None
        who = ("reacts (Foresight)" if d.get("foresight") else "reacts") \
            if d.get("role") == "reactive" else "declares"
        s = f"  {d['model']} {who}: {declared(d['action'], moves)}"
        mv = moves.get(d.get("against")) if d.get("role") == "reactive" else None
        if mv and "end" in mv and mv.get("movement") != "Idle" and _melee_at_no_point(d["action"]):
            # a melee reaction that names no point is measured where the mover ended (not
            # where it entered the Reach, the Attack of Opportunity, which names that point)
            s += f", at the end of its {mv['movement']}"
        return s
    if k == "reaction_step":
        who = ", ".join(f"{m} ({'LoS' if q['los'] else 'no LoS, in its Awareness'}"
                        # no Attack without LoS ("needs LoS to the Activated model at
                        # some point of its movement"): no Attack of Opportunity either
                        f"{', Attack of Opportunity' if q.get('opportunity') and q['los'] else ''})"
                        for m, q in d["qualified"].items())
        return f"  may react to {d['mover']}: {who}"
    if k == "reactions_done":
        return _did_not_react(d, moves)
    if k == "late_reaction_offered":
        return f"  {', '.join(d['models'])} may react now (Foresight), after {declared(d['after'])}"
    if k == "reaction_change_offered":
        return (f"  {', '.join(d['models'])} may change a Dodge or Perceive into an Attack "
                "(the activated model was Shrouded or Flying and declared an Attack)")
    if k == "reaction_void":
        return f"  {d['model']}'s reaction {declared(d['reaction'], moves)} does not resolve ({d['why']})"
    if k == "action_void":
        return f"  {d['model']}'s action {declared(d['action'], moves)} does not resolve ({d['why']})"
    if k == "reaction_changed":
        return f"  {d['model']} changes its reaction {declared(d['from'], moves)} to: {declared(d['to'], moves)}"
    if k == "attack":
        mods = ", ".join(f"{a} {b}" for a, b in d["modifiers"].items() if a not in ("targetless", "aura", "snipe"))
        on = d["target"] if d.get("target") is not None else f"the ground at {_pt(d.get('at') or (0, 0, 0))}"
        s = f"    {d['attacker']} {d['kind']} with {d['with']} on {on}: {d['stat']} {d['attribute']}"
        # "aura": aimed without LoS (the Casting Aura): halved after the other modifiers
        aura = "halved: no LoS, through the Casting Aura" if d["modifiers"].get("aura") else ""
        if mods or aura:
            s += " (" + "; ".join(x for x in (f"after {mods}" if mods else "", aura) if x) + ")"
        if d["modifiers"].get("targetless"):
            s += " (Targetless: no LoS needed, no Cover)"
        if d["modifiers"].get("snipe"):
            s += f" (Snipe: ignores {d['target']}'s {d['modifiers']['snipe'].capitalize()} Cover)"
        if d.get("spell_type"):
            # eldfall-actions.txt, Spell Types: "If PW = ✯: target's Attacks gain the Spell type"
            s += f" (of the Spell type: Enchantment {_dice(d['spell_type'])}, PW \u272f)"
        if d.get("failed"):
            s += f" -- fails: {d['failed']}"
        elif d.get("target") is None and "at" in d:
            under = ", ".join(d.get("victims") or ()) or "no model"
            s += f"; under its template: {under}"
        return s
    if k == "roll":
        return f"      d{d['sides']}={d['value']}  [{d['why']}]"
    if k == "confrontation":
        return (f"    confrontation: {d['a']} rolls {_dice(d['a_rolls'])}, {d['b']} rolls "
                f"{_dice(d['b_rolls'])}: {d['a']} keeps {_dice(d['a_hits']) or 'no success'}, "
                f"{d['b']} keeps {_dice(d['b_hits']) or 'no success'}")
    if k == "dodge":
        s = (f"    {d['model']} dodges{' vs ' + d['against'] if d['against'] else ''}: "
             f"{d['stat']} {d['attribute']}{' (halved: no LoS during the move)' if d['halved'] else ''} -> "
             f"{'success' if d['die']['success'] else 'fail'}")
        if d.get("undodgeable"):
            # eldfall-actions.txt, Spell Types: an Enchantment "Cannot be Dodged"
            s += f" ({', '.join(d['undodgeable'])}: an Enchantment cannot be Dodged)"
        return s
    if k == "hit":
        return (f"    {d['attacker']} hits {d['model']} with {d['with']} (roll {d['roll']}"
                f"{', critical' if d.get('critical') else ''})")
    if k == "hit_dodged":
        return f"    {d['model']} dodges {d['attacker']}'s hit (roll {d['roll']})"
    if k == "damage":
        return (f"    damage on {d['model']}: needs <= {d['threshold']} (PW {d['pw']} - "
                f"{_armor_words(d)}) -> {'WOUND' if d['wound'] else 'no wound'}")
    if k == "wound":
        return f"    {d['model']} suffers {_n(d['wounds'], 'Wound')}: HP {d['hp']}"
    if k == "states":
        parts = []
        if d["added"]:
            parts.append("+" + ", +".join(d["added"]))
        if d["removed"]:
            parts.append("-" + ", -".join(d["removed"]))
        return f"    {d['model']}: {' '.join(parts)} ({d['why']})"
    if k == "dismount":
        ch = ", ".join(f"{v:+d} {st}" for st, v in d["changes"].items())
        return f"    {d['model']} is dismounted{': ' + ch if ch else ''} ({d['why']})"
    if k == "check":
        s = f"    {d['model']} {d['check']}" + (f" {_CHECK_STAT[d['check']]} roll" if d['check'] in _CHECK_STAT else "")
        if d["check"] == "Dangerous":
            s = f"    {d['model']} touches the Dangerous area {d.get('area')}: Dodge (AG) roll"
        if d.get("target"):
            s += f" on {d['target']}"
        if d.get("aura"):
            s += " (halved: Casting Aura)"
        if d.get("first"):
            s += f": {d['first']['value']} vs {d['first']['target']} -> fail, reroll ({d['helper']} in Base Contact)"
        s += f": {d['die']['value']} vs {d['die']['target']} -> " \
            f"{'success' if d['die']['success'] else 'fail'}"
        if d["check"] == "Panicked" and _OFFER["active"] not in (None, d["model"]) \
                and not d["die"]["success"]:
            # eldfall-states.txt, Panicked: "Reactive Role -- failed M roll: May only declare
            # Dodge (toward the field edge) or Nothing as its Reaction"
            s += ": as a reactor only Dodge (toward the nearest field edge) or Nothing"
        if d["check"] == "Uncover" and d["die"]["success"] and not (d.get("hidden") or d.get("tokens")):
            # a success that reveals nothing says so (a failure says nothing either way: it
            # would tell whether something is hidden there)
            s += " (nothing hidden within its Awareness)"
        return s
    if k == "perceive_nothing":
        return f"    {d['model']} Perceive: {d['target']} is no longer Shrouded, nothing to reveal (no roll)"
    if k == "crouch_reaction":
        if not d["changes"]:
            return None
        ch = ", ".join(f"{m} {'crouches' if on else 'stands up'}" for m, on in d["changes"].items())
        return f"  {d['side']} at the {d['window']} of {d['mover']}'s Movement Step: {ch}"
    if k == "stand_up":
        # eldfall-states.txt, Incapacitated: "When canceled, the model may voluntarily
        # cancel the Crouched State"
        return f"  {d['model']} {'stands up' if d['up'] else 'stays Crouched'} as its Incapacitated State ends"
    if k == "stratagem":
        return (f"  {d['side']}'s Leader {d['leader']} uses the Stratagem {d['name']}"
                f"{' on ' + ', '.join(d['targets']) if d['targets'] else ''}: "
                f"{effect_words(d['effect'])} ({_uses(d['uses_left'])} left this {d['per']})")
    if k == "stratagem_ends":
        what = ", ".join([f"{v:+d} {st}" for st, v in d["mods"].items()] + d["states"])
        return f"    {d['model']}: the Stratagem {d['name']} ends ({what})"
    if k == "stratagem_window":
        return f"  Stratagems of {d['side']} (Leader {d['leader']}): " + ", ".join(d["usable"])
    if k == "token":
        if d.get("event") == "gone":
            return f"    {d['by']} finds the token {d['token']} gone"
        what = d.get("item") or d.get("spell") or ""
        s = f"    {d.get('kind', 'the')} token {d['token']}{' (' + what + ')' if what else ''} {d['event']}"
        if d.get("by"):
            s += f" by {d['by']}" + (f"'s {d['how']}" if d.get("how") in ("Perceive", "Uncover") else "")
        if d.get("event") == "placed":        # a Transmutation's (spells.resolve_transmutation)
            s += f" at {_pt(d['at'])}" + (", hidden" if d.get("hidden") else "")
        return s
    if k == "place":
        return f"    {d['model']} is moved to {_pt(d['at'])} ({d['why']})"
    if k == "heal":
        return f"    {d['model']} regains HP: HP {d['hp']} ({d['why']})"
    if k == "enchantment":
        if not d.get("applied"):
            return f"    {d['model']}: the Enchantment {d['spell']} is not applied ({d.get('why', '')})"
        ch = ", ".join(f"{v:+d} {st}" for st, v in (d.get("mods") or {}).items())
        return (f"    {d['model']} is under the Enchantment {d['spell']}{': ' + ch if ch else ''} "
                f"(until {d['caster']}'s next Strategic Phase)")
    if k == "enchantment_ends":
        return f"    {d['model']}: the Enchantment {d['spell']} of {d['caster']} ends"
    if k == "removed":
        return f"    {d['model']} leaves the table ({d['why']})"
    if k == "friendly_fire":
        return f"    friendly fire: {d['attacker']}'s roll of {d['roll']} hits its ally {d['ally']} instead"
    if k == "dodge_move":
        if d.get("skipped"):
            return f"  {d['model']} cannot move after its Dodge ({d['skipped']})"
        if d.get("end"):
            return (f"  {d['model']} moves to {_pt(d['end'])} after its Dodge"
                    + (f", stopped by {d['stopped_by']}" if d.get("stopped_by") else ""))
        return None
    if k == "land":
        return f"    {d['model']} lands {d['height']:.1f}\" down, at {_pt(d['at'])} (no Fall rolls)"
    if k == "fall":
        return (f"  {d['model']} falls {d['height']:.1f}\" from {d.get('from', 'the vertical surface')} "
                f"({d['why']}): {d['rolls']} AG roll(s)")
    if k == "turn_on_hit":
        old, new = f"{d['from']:.0f}\u00b0", f"{d['to']:.0f}\u00b0"
        auto = " (the table turns a hit model to face its attacker)" if d.get("auto") else ""
        if abs((d["to"] - d["from"] + 180.0) % 360.0 - 180.0) < 1e-6:
            return f"  {d['model']} keeps its facing after the Hit ({old})"
        if d.get("toward"):
            return f"  {d['model']} turns to face {d['toward']} ({old} -> {new}){auto}"
        return f"  {d['model']} turns after the Hit ({old} -> {new}){auto}"
    if k == "ritual":
        return f"  {d['model']} performs the Ritual {d['spell']}" + (
            f": it fails ({d['failed']})" if d.get("failed") else "")
    if k == "disengage":
        return f"    {d['model']} disengages from {', '.join(d['from'])}"
    if k == "vp":
        return f"    {d['side']} VP {d['vp']} ({d['why']})"
    if k == "morale":
        return (f"    {d['side']}'s morale is {'broken' if d['broken'] else 'restored'}: "
                f"{d['alive']} of {d['original']} models standing")
    if k == "surprise_attack":
        return f"    Surprise Attack: OFF, DEF, ACC, AG, INT halved for {', '.join(d['targets'])}"
    if k == "summon":
        return f"    {d['by']} summons {d['model']} with {d['spell']} at {_pt(d['at'])}"
    if k == "objective":
        return f"    {d['model']} ({d['side']}) takes the quest object {d['objective']}"
    if k == "item":
        return f"    {d['model']} now carries {d['item']}"
    if k == "trade":
        got = f" and receives {', '.join(d['received'])}" if d.get("received") else ""
        return f"    {d['from']} gives {', '.join(d['items']) or 'nothing'} to {d['to']}{got}"
    if k == "duel":
        return {"asked": f"  {d['challenger']} challenges {d['challenged']} to a Duel",
                "accepted": f"  {d['challenged']} accepts the Duel with {d['challenger']}",
                "refused": f"  {d['challenged']} refuses the Duel with {d['challenger']}",
                }.get(d.get("state"), f"  Duel of {d['challenger']} and {d['challenged']}: {d.get('state')}")
    if k == "duel_interference":
        return f"    {d['model']} ({d['side']}) interferes with the Duel: {d['side']} loses"
    if k == "knockback_blocked":
        toward = f" toward {d['direction']:g}\u00b0" if d.get("direction") is not None else ""
        return f"    {d['model']} cannot be knocked back{toward} by {d['attacker']}: the way is blocked"
    if k == "game_over":
        who = side_wins(d["winner"]) if d["winner"] else "draw"
        return f"== Game over: {who} ({d['termination']}: {d['detail']}); VP " + \
            ", ".join(f"{a} {b}" for a, b in sorted(d["scores"].items())) + " =="
    return None


def effect_words(e: dict) -> str:
    """A Stratagem's effect in words: "heal 1, +2 DEF, +Shrouded, -Panicked until ..."."""
    parts = []
    if e.get("heal"):
        parts.append(f"heals {e['heal']} HP")
    parts += [f"{v:+d} {st}" for st, v in (e.get("mods") or {}).items()]
    parts += ["+" + st for st in e.get("states") or ()]
    parts += ["-" + st for st in e.get("remove") or ()]
    lasting = bool(e.get("mods") or e.get("states"))
    if e.get("ap"):
        parts.append(f"+{e['ap']} AP at this Upkeep")
    until = {"turn": "until the End Phase", "round": "until the side's next Strategic Phase",
             "game": "for the rest of the game"}.get(e.get("duration"), "")
    s = ", ".join(parts)
    return s + (f" ({until})" if lasting and until else "")


def misses(events) -> dict[int, str]:
    """The attacks whose dice missed, in words, by the index of the event the line
    follows (the attack's last die): the rules emit no event for a miss, so a missed
    attack ended on its attribute line. A hit, a Dodge of a hit, a roll that hit an
    ally instead and a Confrontation (its own line tells what each side keeps) are
    not misses."""
    evs = list(events)
    out: dict[int, str] = {}
    for i, e in enumerate(evs):
        d = e.data
        if e.kind != "attack" or d.get("failed") or "attacker" not in d or "attribute" not in d:
            continue
        a, t = d["attacker"], d.get("target")
        if t is None and "at" in d:
            # an Attack at the ground: a roll that succeeds places the template (on the
            # models it covers, or on no one); only a failed roll misses
            ok = [x.data["value"] for x in evs[i + 1:] if x.kind == "roll"
                  and x.data.get("attacker") == a and x.data.get("target") is None
                  and str(x.data.get("why", "")).startswith("attack")][:1]
            if ok and not cb_judge(ok[0], d["attribute"]):
                last = next(j for j in range(i + 1, len(evs)) if evs[j].kind == "roll"
                            and evs[j].data.get("attacker") == a
                            and str(evs[j].data.get("why", "")).startswith("attack"))
                out[last] = (f"    {a} misses the ground at {_pt(d['at'])} (rolled {ok[0]} against "
                             f"{d.get('stat', 'needed')} {d['attribute']}): its template is not placed")
            continue
        victims = set(d.get("victims") or [t])
        rolls: list | None = []
        last = i
        for j in range(i + 1, len(evs)):
            x, xd = evs[j].kind, evs[j].data
            if x == "sequence_end":
                break
            if x == "roll" and xd.get("attacker") == a and xd.get("target") == t \
                    and str(xd.get("why", "")).startswith("attack"):
                rolls.append(xd.get("value"))
                last = j
            elif x == "confrontation" and a in (xd.get("a"), xd.get("b")):
                rolls = None
                break
            elif (x in ("hit", "hit_dodged") and xd.get("attacker") == a and xd.get("model") in victims
                  or x == "friendly_fire" and xd.get("attacker") == a) and xd.get("roll") in rolls:
                rolls.remove(xd["roll"])
        if not rolls:
            continue
        n = sum(1 for x in evs[i + 1:last + 1] if x.kind == "roll" and x.data.get("attacker") == a
                and x.data.get("target") == t and str(x.data.get("why", "")).startswith("attack"))
        of = f" with {len(rolls)} of {n} Strikes" if n > 1 else ""
        out[last] = (f"    {a} misses {t}{of} (rolled {_dice(rolls)} against "
                     f"{d.get('stat', 'needed')} {d['attribute']})")
    return out


def cb_judge(value: int, attribute: int) -> bool:
    """A die's success against a modified attribute (rules.eldfall.combat.judge)."""
    from rules.eldfall.combat import judge
    return judge(int(value), int(attribute)).success


def narrate(events, rolls: bool = False) -> list[str]:
    """The lines of a list of events, a missed attack's line after its dice."""
    evs = list(events)
    missed = misses(evs)
    out = []
    for i, ev in enumerate(evs):
        if not (ev.kind == "roll" and not rolls):
            s = line(ev)
            if s is not None:
                out.append(s)
        if i in missed:
            out.append(missed[i])
    return out


class Summary:
    """The play summary's lines, fed decision by decision (``eldfall play``): what
    :func:`line` says of each event, a missed attack's line after its dice, and

    * an Idle movement's own line ("r1 stays where it is (Idle)"; its Action then
      reads "r1 does nothing", not "stays where it is and does nothing" again);
    * each reaction with the AP the reacting model has left ("b1 reacts (1 AP
      left): Dodge"), from the "ap" event its Reaction's cost emits;
    * the Reaction Step's "may react to" line after the reactive side's Crouched
      changes at the end of the Movement Step (declared as the Reaction Step opens,
      in the next decision), as the Activation Sequence orders them: the line waits
      until the events show whether such a change follows.

    ``rolls``: every die gets a line; ``status(ev)``: the line an End Phase gets
    (None: none); ``reorder`` False keeps every line at its own event (a listing by
    event number, ``eldfall replay --events``). :meth:`close` gives a line still held
    back when the game ends."""

    def __init__(self, rolls: bool = False, status=None, reorder: bool = True):
        self.rolls = rolls
        self.status = status
        self.reorder = reorder
        self.held: str | None = None        # the "may react to" line, waiting
        self.crouching = False              # the reactive side's end-of-Movement crouch is being told
        self.idle: set = set()              # models whose Idle movement this activation had a line
        self.ap: dict = {}                  # model -> its AP as the latest "ap" event left it

    def _keeps_held(self, ev) -> bool:
        """Whether ``ev`` still belongs before the held "may react to" line: the next
        decision's own action event, or the crouch at the end of the Movement Step."""
        k, d = ev.kind, ev.data
        if k == "action" or (k == "roll" and not self.rolls):
            return True
        if k == "crouch_reaction":
            self.crouching = d.get("window") == "end"
            return self.crouching
        return self.crouching and k in ("states", "ap", "dismount", "land", "engaged")

    def feed(self, events) -> list[str]:
        """The lines of one decision's events (and of a line held back before them)."""
        return [s for _, s in self.pairs(events)]

    def pairs(self, events) -> list[tuple[int, str]]:
        """As :meth:`feed`, each line with the index in ``events`` of the event it is
        told at (a held line: the event it is told before)."""
        evs = list(events)
        missed = misses(evs)
        out: list[tuple[int, str]] = []
        for i, ev in enumerate(evs):
            k, d = ev.kind, ev.data
            if self.held is not None and not self._keeps_held(ev):
                out.append((i, self.held))
                self.held, self.crouching = None, False
            if k == "phase" and d.get("phase") == "end" and self.status is not None:
                s = self.status(ev)
            elif k == "action" or (k == "roll" and not self.rolls):
                s = None
            else:
                s = line(ev)
            if k == "ap":
                self.ap[d["model"]] = d["ap"]
            elif k == "activate":
                self.ap[d["model"]] = d["ap"]
                self.idle.discard(d["model"])
            elif k == "movement" and d.get("movement") == "Idle" and not d.get("forced"):
                # (an Idle that turns the model has its own line already)
                s = s or f"  {d['model']} stays where it is (Idle)"
                self.idle.add(d["model"])
            elif k == "declare" and d.get("role") == "active" and s and d["model"] in self.idle \
                    and s.endswith("stays where it is and does nothing"):
                s = f"  {d['model']} does nothing"
            elif k == "declare" and d.get("role") == "reactive" and s and d["model"] in self.ap:
                left = f"{self.ap[d['model']]} AP left"
                s = s.replace(" reacts (Foresight): ", f" reacts (Foresight, {left}): ", 1) \
                    if d.get("foresight") else s.replace(" reacts: ", f" reacts ({left}): ", 1)
            elif k == "reaction_step" and s and self.reorder:
                self.held, self.crouching, s = s, False, None
            if s:
                out.append((i, s))
            if i in missed:
                out.append((i, missed[i]))
        return out

    def close(self) -> list[str]:
        held, self.held = self.held, None
        return [held] if held else []
