"""One readable line per Norova event (``eldfall play`` prints them); None: not shown."""
from __future__ import annotations

import re

from rules.core.text import point_words


def _pt(p) -> str:
    """A point of a route, in plan (a leg's end may be part-way down a drop)."""
    return f"({p[0]:.2f}, {p[1]:.2f})"


def _end(p) -> str:
    """Where a move ends (the mover stands there), to 0.01", with its height when that is
    off the table, as Eldfall's lines ("(20.90, 6.00), 1.50\" up,"): the comma sets the
    height off from the facing that follows."""
    s = point_words(p, 2)
    return s + "," if s.endswith(" up") else s


# the data's keys (skills, spells, weapons, items, checks) read as words: "aimed shot"
def _key(name) -> str:
    return str(name).replace("_", " ")


_RX_KEY = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def _words(text, keep=()) -> str:
    """A reason that names data keys ("frost_shard from hexer"), the keys as words;
    the model ids named in the event (``keep``) stay as they are."""
    return _RX_KEY.sub(lambda m: m.group(0) if m.group(0) in keep else _key(m.group(0)), str(text))


# the characters' ids (a "setup" event names them all; a turn, the active one): a
# reason's snake_case word that is an id stays as it is. line() is called event by
# event, so the narration keeps this much between calls.
_IDS: set[str] = set()
# (id, pool) -> the pool's maximum (a recovery capped there says so)
_MAX: dict[tuple[str, str], int] = {}
# a turn has ended and no other has begun: a character that waited comes back to its turn
# with no new "turn" event (its turn began before the wait); its first event says so
_BETWEEN: list[bool] = [False]
# the text of the last action (an aided attack's event names its aiders; the action, how),
# and that of each aided attack's action by the attack event's seq (``misses`` reads a
# decision's events, the action first, before the front ends narrate them one by one)
_LAST_ACTION: list[str | None] = [None]
_AID_ACTIONS: dict[int, str] = {}
_SEQ: list[int | None] = [None]
# the legs of the move being narrated (a second leg, past a failed Attack of Opportunity,
# goes "on")
_LEGS: list[int] = [0]


def _remember(k: str, d: dict) -> None:
    if k == "setup":
        _IDS.clear()
        _IDS.update(str(c.get("id")) for c in d.get("characters") or ())
        # each character's pools at the start: their maxima
        _MAX.clear()
        _MAX.update({(str(c.get("id")), pool): c[pool] for c in d.get("characters") or ()
                     for pool in ("vitality", "soul", "power") if isinstance(c.get(pool), int)})
        _LEGS[0] = 0
    elif k in ("turn", "move") and d.get("model"):
        _IDS.add(str(d["model"]))
    if k in ("turn", "round", "setup", "game_over"):
        _BETWEEN[0] = False


def _dying_save(k: str, d: dict) -> bool:
    """A Dying character's Vitality save (its roll, the save, its outcome), made in place of
    its turn with no "turn" event."""
    return (k == "state" or k == "save" and d.get("why") == "dying"
            or k == "roll" and str(d.get("why", "")).endswith("save: dying"))


def _waiter_back(k: str, d: dict) -> str | None:
    """The line "-- X's active turn goes on (it waited)" when this event is the first of a
    character that waited, back at the head of the queue after the others' turns."""
    if k == "turn_end" or not _BETWEEN[0] or k in ("action", "initiative") or _dying_save(k, d):
        return None
    _BETWEEN[0] = False
    who = d.get("model")
    return f"-- {who}'s active turn goes on (it waited)" if isinstance(who, str) else None


# the keys of an event's data that name a character
_MODEL_KEYS = ("model", "target", "mover", "attacker", "to")
_HAND = {"main": "main hand", "off": "off hand", "dual": "both hands"}
# a check's name where its key reads poorly; "": the reason names it ("focus on B")
_CHECK = {"aoo_hit": "hit roll", "ranged_hit": "ranged hit roll",
          "ranged_hit_long": "ranged hit roll at long range", "focused": ""}
# checks whose reason says what the character tries ("catch soul draught", "spot hexer")
_TRIES = {"catch": lambda why: why.replace("catch ", "catch the ", 1), "perceive": lambda why: why}
# the critical hit check's outcomes (seed "Critical Hits", "Critical Critical Hits")
_CRIT = {"crit": "critical hit, power doubled", "double": "double crit, power added three times",
         "deathblow": "deathblow", "fumble": "fumble"}


# a skill or spell roll's outcomes (seed "Criticals": natural 20; natural 1 and its d6)
_SKILL = {"crit": "critical success (natural 20)", "success": "success", "failure": "failure",
          "works_anyway": "natural 1, but it works anyway (d6 1)", "backfire": "natural 1: it backfires (d6 6)"}


# a spell's critical hit check names the spell and its target ("mend on cleric"); an
# attack's names its strike ("attack strike 1", "power_strike strike 2")
_SPELL_CHECK = re.compile(r"\S+ on \S+")


def _terms(terms) -> str:
    """What an amount is made of: "longsword 5 + Offensive Power 8" (data keys as words)."""
    return " + ".join(f"{_words(w, _IDS)} {v}" for w, v in terms)


def _difficulty(d: dict) -> str:
    """The number a check is against, with its steps when it has any ("14 (normal 12 +2
    light cover)")."""
    steps = d.get("difficulty")
    if not isinstance(steps, list) or len(steps) < 2:
        return f"{d['target']}"
    (name, base), rest = steps[0], steps[1:]
    return f"{d['target']} ({_key(name)} {base}" + "".join(f" {int(v):+d} {w}" for w, v in rest) + ")"


def _check(d: dict) -> str:
    # the d20, what the trait and each modifier (facing, Focus...) added, the total; an
    # event from before the modifiers were named gives the trait and modifiers together
    add = int(d['total']) - int(d['natural'])
    if d.get("trait") and isinstance(d.get("bonus"), int):
        mods = [(str(w), int(v)) for w, v in d.get("modifiers") or ()]
        rest = add - int(d["bonus"]) - sum(v for _, v in mods)
        s = f"d20 {d['natural']} {int(d['bonus']):+d} {d['trait']}" + "".join(f" {v:+d} {w}" for w, v in mods)
        s += f" {rest:+d}" if rest else ""
        s += f" -> {d['total']} vs {_difficulty(d)}"
    elif d.get("trait"):
        s = f"d20 {d['natural']} {add:+d} {d['trait']} -> {d['total']} vs {d['target']}"
    else:
        s = f"d20 {d['natural']} -> {d['total']} vs {d['target']}"
    if d.get("critical"):
        s += f", natural {'20' if d['critical'] == 'success' else '1'}"
    if d.get("luck"):
        s += f", Luck {d['luck']['total']} vs {d['luck']['target']}"
    return s + (": success" if d["success"] else ": failure")


def _aid_ways(d: dict) -> list[str]:
    """Each aider of an attack event with its way, read from the action it came from
    ("knight (both hands)", "ranger (main hand, aimed shot)"); the bare ids otherwise."""
    text = _AID_ACTIONS.get(_SEQ[0]) if _SEQ[0] is not None else None
    try:
        from rules.norova.actions import Attack, parse
        a = parse(text or _LAST_ACTION[0] or "")
    except (ValueError, TypeError):
        return list(d["aid"])
    if not isinstance(a, Attack) or a.actor != d.get("model") or [x.ally for x in a.aid] != list(d["aid"]):
        return list(d["aid"])
    return [f"{x.ally} ({_HAND.get(x.hand or 'main', x.hand)}" + (f", {_key(x.skill)})" if x.skill else ")")
            for x in a.aid]


def misses(events) -> dict[int, str]:
    """The front ends' pass over a decision's events before its lines (``eldfall play``,
    the view): Norova's rules narrate every miss themselves (no line to add). It notes the
    action of each aided attack, which ``eldfall play`` does not hand to ``line`` (the
    attack's event names the aiders; the action, how each strikes)."""
    action = None
    for ev in events:
        if ev.kind == "action":
            action = ev.data.get("action")
        elif ev.kind == "attack" and ev.data.get("aid") and action and getattr(ev, "seq", -1) >= 0:
            if len(_AID_ACTIONS) > 1000:
                _AID_ACTIONS.clear()
            _AID_ACTIONS[ev.seq] = action
    return {}


def line(ev) -> str | None:
    k, d = ev.kind, ev.data
    _SEQ[0] = getattr(ev, "seq", None)
    _remember(k, d)
    back = _waiter_back(k, d)
    said = _line(k, d)
    if k in ("turn_end", "wait"):
        # the next event may be a character that waited, back at the head of the queue
        _BETWEEN[0] = True
    if back:
        return back + ("\n" + said if said else "")
    return said


def _line(k: str, d: dict) -> str | None:
    # the ids of the characters the event names (not every text of it: a reason such as
    # "second_wind" is a data key, read as words)
    ids = _IDS | {d[k] for k in _MODEL_KEYS if isinstance(d.get(k), str)}
    if k == "roll":
        if d.get("why") == "initiative":
            return None                   # the initiative line gives them
        return f"    roll d{d['sides']} = {d['value']} ({_words(d['why'], _IDS)})"
    if k == "action":
        _LAST_ACTION[0] = d.get("action")
        return None
    if k == "setup":
        return "Legends of Norova: " + ", ".join(f"{c['id']} ({c['side']}, Vitality {c['vitality']})"
                                                 for c in d["characters"])
    if k == "initiative":
        # each total with its d20 and the trait's part: ties go to the higher trait, then
        # the scene's order (a player checking the order sees why)
        order = d["order"]
        said = "Initiative: " + ", ".join(
            f"{o['model']} {o['total']}" + (f" (d20 {o['roll']} {int(o['total']) - int(o['roll']):+d})"
                                            if o.get("roll") is not None else "") for o in order)
        # a tie of the same d20 and trait (the same total and bonus) goes by the scene's
        # order, which the numbers do not show
        same = [f"{a['model']} before {b['model']}" for a, b in zip(order, order[1:])
                if a.get("roll") is not None and (a["total"], a["roll"]) == (b["total"], b.get("roll"))]
        return said + (f" (ties: {', '.join(same)}, in the scene's order)" if same else "")
    if k == "round":
        return f"== Round {d['round']} =="
    if k == "turn":
        return f"-- {d['model']}'s active turn"
    if k == "turn_end":
        lost = f" (unused: {', '.join(d['lost'])})" if d["lost"] else ""
        return f"   {d['model']} ends its turn{lost}"
    if k == "wait":
        return f"   {d['model']} waits; next: {', '.join(d['queue'][:3])}"
    if k == "move":
        _LEGS[0] = 0                      # the move is over: its next leg is another move's
        if not d["moved"]:
            return f"   {d['model']} does not move ({d.get('why', '')})"
        verb = {"fly": "flies"}.get(d["mode"], d["mode"] + "s")
        if d.get("stopped"):
            # after the move_leg line (it came to the point) and the successful hit check
            return f"   {d['model']} is stopped at {_end(d['end'])} facing {d['facing']:.0f}: its move is over"
        on = " on" if d.get("legs") else ""
        return f"   {d['model']} {verb}{on} to {_end(d['end'])} facing {d['facing']:.0f}"
    if k == "move_leg":
        verb = {"fly": "flies"}.get(d["mode"], d["mode"] + "s")
        _LEGS[0] += 1
        on = " on" if _LEGS[0] > 1 else ""
        return f"   {d['model']} {verb}{on} to {_pt(d['end'])}"
    if k == "turn_facing":
        return f"   {d['model']} turns to {d['facing']:.0f}\u00b0"
    if k == "stand":
        return f"   {d['model']} gets up"
    if k == "aoo":
        where = f", {d['along']:.1f}\" into its move" if d.get("along") is not None else f" at {_pt(d['at'])}"
        return f"   Attack of Opportunity: {d['model']} on {d['mover']}{where} ({d['why']})"
    if k == "aoo_choice":
        # the hit check succeeded and the attacker has attack skills it could use: its choice
        ways = ["a plain attack"] + [_key(s) for s in d.get("skills") or ()]
        return (f"   {d['model']} chooses its blow on {d['mover']} ({_HAND.get(d['hand'], d['hand'])}): "
                f"{', '.join(ways[:-1])} or {ways[-1]}")
    if k == "aoo_strike":
        how = f"using {_key(d['skill'])}" if d.get("skill") else "a plain attack"
        return f"   {d['model']} strikes {d['target']} back ({_HAND.get(d['hand'], d['hand'])}), {how}"
    if k == "attack":
        aid = f" aided by {', '.join(_aid_ways(d))}" if d["aid"] else ""
        sk = f" with {_key(d['skill'])}" if d["skill"] else ""
        return f"   {d['model']} attacks {d['target']} ({_HAND.get(d['hand'], d['hand'])}){sk}{aid}"
    if k == "check":
        name = _CHECK.get(d["check"], _key(d["check"]))
        why = _words(d["why"], ids) if d.get("why") else ""
        what = f"{name} ({why})" if name and why else name or why or _key(d["check"])
        if d["check"] in _TRIES and why:
            # "knight tries to catch the soul draught", not "knight catch (catch soul draught)"
            what = "tries to " + _TRIES[d["check"]](why)
        return f"     {d['model']} {what}: {_check(d)}"
    if k == "skill_roll":
        add = int(d["total"]) - int(d["natural"])
        trait = f" {add:+d} {d['trait']}" if d.get("trait") else ""
        if d["outcome"] == "failure" and int(d["natural"]) == 1:
            said = "natural 1, a plain failure (d6 2-5)"
        else:
            said = _SKILL.get(d["outcome"], _key(d["outcome"]))
        return f"     {d['model']} {_key(d['what'])}: d20 {d['natural']}{trait} -> {d['total']} vs {d['target']}: {said}"
    if k == "critical_check":
        said = _CRIT.get(d['result'], _key(d['result'])) if d['result'] else 'no critical'
        if d['result'] == "deathblow" and _SPELL_CHECK.fullmatch(str(d.get("what", ""))):
            # seed "Critical Critical Hits": on a spell's critical hit the 6 is Epic Casting
            # (the target killed or fully restored), not a Deathblow
            said = "epic casting"
        nat = int(d["natural"])
        if nat == 20 and isinstance(d.get("d6"), int):
            roll = f"d20 20, d6 {d['d6']}"           # the Critical Critical Hit's d6
        elif nat not in (1, 20) and isinstance(d.get("bonus"), int) and d.get("target") is not None:
            # a Normal check like any other: the numbers that make it a critical or not
            roll = f"d20 {nat} {int(d['bonus']):+d} {d.get('trait') or ''}".rstrip() + \
                f" -> {d.get('total', nat + int(d['bonus']))} vs {d['target']}"
        else:
            roll = f"d20 {nat}"
        return f"     {d['model']} critical hit check: {roll}: {said}"
    if k == "strike":
        # a multi-attack skill's strikes apart: "strike 2 of 2: hit: ..."
        m = re.search(r"strike (\d+)$", str(d.get("what", "")))
        which = f"strike {m.group(1)} of {d['strikes']}: " if m and isinstance(d.get("strikes"), int) else ""
        if d.get("deathblow"):
            return f"     {which}DEATHBLOW on {d['target']}"
        if d["hit"]:
            parts = d.get("parts") or []
            # what the damage is made of ("longsword 5 + Offensive Power 8"); an aided strike:
            # each part's share ("cleric 9 + knight 16"; the "takes" line that follows gives
            # what each is made of)
            if len(parts) > 1:
                share = " (" + " + ".join(f"{p['model']} {p['damage']}" for p in parts) + ")"
            elif parts and parts[0].get("terms"):
                share = f" ({_terms(parts[0]['terms'])})"
            else:
                share = ""
            return f"     {which}hit: {d['damage']} damage to {d['target']}{share}"
        return f"     {which}no hit on {d['target']} ({d.get('why', '')})"
    if k == "damage":
        # a spell's damage with what it is made of (a strike's is on its "hit" line)
        made = f": {_terms(d['terms'])}" if d.get("terms") else ""
        return f"     {d['model']} takes {d['amount']} damage{made} ({max(0, d['vitality'])} Vitality left)"
    if k == "heal":
        why, pool = _words(d["why"], ids), d["pool"]
        if d.get("terms"):
            why = _terms(d["terms"])          # a spell's value and Runic Power: "mend 6 + Runic Power 3"
        top, now = _MAX.get((d["model"], pool)), d.get(pool)
        if top is not None and isinstance(now, int) and now >= top:
            # capped at the maximum: it gained at most the amount (a knight at 34/34 who
            # drinks a healing potion gains nothing, not "10 vitality")
            return f"     {d['model']} is back to its full {top} {pool.title()} ({why}: up to {d['amount']})"
        left = f": {pool.title()} {now}/{top}" if top is not None and isinstance(now, int) else ""
        return f"     {d['model']} recovers {d['amount']} {pool} ({why}){left}"
    if k == "state":
        # the reason may name a data key ("healing_potion", "flame_burst"): as words
        return f"   {d['model']} is {d['status']} ({_words(d['why'], ids)})"
    if k == "save":
        # the sheet's save bonus, where the event gives it ("d20 8 +3 save -> 11 vs 12")
        bonus = f" {int(d['bonus']):+d} save" if isinstance(d.get("bonus"), int) else ""
        s = f"     {d['model']} {d['stat']} save ({_words(d['why'], ids)}): d20 {d['natural']}{bonus} -> {d['total']} vs {d['target']}"
        if d.get("critical"):
            s += f", natural {'20' if d['critical'] == 'success' else '1'}"
        s += ": success" if d.get("success") else ": failure"
        if d.get("recovered"):
            s += f"; recovers {d['recovered']} {d['stat']}"
        if d.get("lost"):
            s += f"; loses {d['lost']} {d['stat']}"
        return s
    if k == "spell":
        if not d["cast"]:
            return f"   {d['model']}'s {_key(d['spell'])}: {_words(d['why'], ids)}"
        on = f"{_key(d['spell'])} on " + (", ".join("itself" if t == d["model"] else t for t in d["targets"])
                                          or "nobody")
        parts = d.get("parts")
        # an aided spell: each ally's own spell
        aided = [f"{p['model']} ({_key(p['spell'])})" for p in (parts or [])[1:]]
        on += f" aided by {', '.join(aided)}" if aided else ""
        if parts and not any(p["outcome"] in ("crit", "success", "works_anyway", "backfire") for p in parts):
            return f"   {d['model']} casts {on}: it fails"
        return f"   {d['model']} casts {on}"
    if k == "spell_charging":
        return f"   {d['model']} is casting {_key(d['spell'])} (ready in round {d['ready_round']})"
    if k == "spell_ready":
        return f"   {d['model']} releases {_key(d['spell'])}"
    if k == "focus":
        return (f"   {d['model']} focuses on {d['target']}: Evade -{d['reduction']}" if d["success"]
                else f"   {d['model']} fails to focus on {d['target']}")
    if k == "cost":
        if not d["paid"] and not d.get("failed"):
            return None           # a skill with no cost (second wind): nothing was spent
        paid = ", ".join(f"{v} {p}" for p, v in d["paid"].items()) or "nothing"
        return f"     {d['model']} spends {paid} ({_words(d['why'], ids)})" + (f"; cannot pay {d['failed']}" if d.get("failed") else "")
    if k == "potion":
        return f"   {d['model']} gives {_key(d['item'])} to {d['target']}" if d["target"] != d["model"] else \
            f"   {d['model']} drinks {_key(d['item'])}"
    if k == "throw_potion":
        return f"   {d['model']} throws {_key(d['item'])} to {d['to']} (in its path: {', '.join(d['path'])})"
    if k == "caught":
        return f"     {d['model']} catches {_key(d['item'])}"
    if k == "shattered":
        return f"     the {_key(d['item'])} shatters"
    if k == "equip":
        return (f"   {d['model']} now holds {_key(d['main'] or 'nothing')} in its main hand, "
                f"{_key(d['off'] or 'nothing')} in its off hand")
    if k == "reload":
        return f"   {d['model']} reloads its {_key(d['weapon'])}"
    if k == "hidden":
        return f"   {d['model']} is {'hidden' if d['hidden'] else 'no longer hidden'} ({d['why']})"
    if k == "fall":
        where = f" at ({d['at'][0]:.2f}, {d['at'][1]:.2f})" if d.get("at") else ""
        return f"     {d['model']} falls {d['height']:.1f}\"{where} ({d['dice']}d6)"
    if k == "thrown_away":
        return f"     {d['model']} throws away its {_key(d['weapon'])}"
    if k == "mishap":
        return f"     {d['model']}'s {_key(d.get('skill') or d.get('spell') or 'action')} goes wrong: {_key(d['result'])}"
    if k == "no_damage":
        return f"     {d['model']} deals no damage ({d['why']})"
    if k == "backfire":
        now = f": it {'heals' if d['now'] == 'healing' else 'harms'} {d['target']}" if d.get("now") else ""
        if isinstance(d.get("lost"), dict):
            # a support skill that restores a pool drains it instead: how much, and what is left
            now = ": " + ", ".join(f"{d['model']} loses {n} {pool}" + (
                f" ({pool.title()} {d[pool]}/{_MAX[(d['model'], pool)]})"
                if isinstance(d.get(pool), int) and (d["model"], pool) in _MAX else "")
                for pool, n in d["lost"].items())
        return f"     {d['model']}'s {_key(d['what'])} backfires{now}"
    if k == "blocked":
        return f"     {_key(d['spell'])} does not reach {d['model']} ({_words(d['why'], ids)})"
    if k == "epic_casting":
        return f"     epic casting of {_key(d['spell'])}: {d['target']} {_key(d['effect'])}"
    if k == "game_over":
        return f"== Game over: {d['winner'] or 'draw'} ({d['termination']}: {d['detail']})"
    if k == "roll":
        return None
    return f"   {k}: " + ", ".join(f"{a}={b}" for a, b in d.items())
