"""Readable lines for the events of an Eldfall game (the play summary)."""
from __future__ import annotations


def _pt(p) -> str:
    return "(" + ", ".join(f"{v:.1f}" for v in p[:2]) + ")"


def declared(text: str) -> str:
    """A declaration in words: ``Ranged Attack with Shortbow at blue-ogre (2 Strikes),
    from (15.0, 20.0)`` for ``declare m 'Ranged Attack' weapon=Shortbow targets=blue-ogre:2 at=..``."""
    from rules.eldfall.actions import Action
    try:
        a = Action.parse(text)
    except ValueError:
        return text.split(" ", 2)[2] if text.count(" ") >= 2 else text
    s = a.action + (f" with {a.weapon}" if a.weapon else "") + (f" [{a.spell}]" if a.spell else "")
    if a.targets:
        s += " at " + ", ".join(m + (f" ({n} Strikes)" if n > 1 else "") for m, n in a.targets)
    if a.objective:
        s += f" on {a.objective}"
    if a.point is not None:
        s += f", at the point {_pt(a.point)} of the mover's path"
    if getattr(a, "knockback", None) is not None:
        s += f", Knockback toward {a.knockback:g}\u00b0"
    return s


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


def line(ev) -> str | None:
    """One line for an event, or None for an event not worth a line."""
    k, d = ev.kind, ev.data
    if k == "turn":
        return f"== Round {d['round']}, {d['side']}'s turn =="
    if k == "initiative":
        return f"initiative: {d['side']} rolls {d['roll']} + M {d['M']} = {d['total']}"
    if k == "order":
        return "turn order: " + ", ".join(d["order"])
    if k == "deployment" and d.get("outside"):
        return "deployment: outside their zone: " + ", ".join(d["outside"])
    if k == "activate":
        return f"{d['model']} activates ({d['ap']} AP left)"
    if k == "forced":
        return f"  {d['model']}: {d['reason']}"
    if k == "movement":
        if d.get("off_table"):
            return f"  {d['model']} runs off the table"
        if d.get("blocked"):
            return f"  {d['model']} cannot run: the way to the field edge is blocked"
        if d["movement"] == "Idle":
            return None
        s = f"  {d['model']} {d['movement'].lower()}s {d.get('distance', 0):.1f}\" to {_pt(d['end'])}" \
            if "end" in d else f"  {d['model']} {d['movement']}"
        if d.get("stopped_by"):
            s += f", stopped by {d['stopped_by']}"
        return s
    if k == "declare":
        if d.get("role") == "active" and " Nothing" in d["action"]:
            return None
        who = ("reacts (Foresight)" if d.get("foresight") else "reacts") \
            if d.get("role") == "reactive" else "declares"
        return f"  {d['model']} {who}: {declared(d['action'])}"
    if k == "reaction_step":
        who = ", ".join(f"{m} ({'LoS' if q['los'] else 'no LoS, in its Awareness'}"
                        f"{', Attack of Opportunity' if q.get('opportunity') else ''})"
                        for m, q in d["qualified"].items())
        return f"  may react to {d['mover']}: {who}"
    if k == "late_reaction_offered":
        return f"  {', '.join(d['models'])} may react now (Foresight), after {declared(d['after'])}"
    if k == "reaction_change_offered":
        return (f"  {', '.join(d['models'])} may change a Dodge or Perceive into an Attack "
                "(the activated model was Shrouded or Flying and declared an Attack)")
    if k == "reaction_void":
        return f"  {d['model']}'s reaction {declared(d['reaction'])} does not resolve ({d['why']})"
    if k == "reaction_changed":
        return f"  {d['model']} changes its reaction {declared(d['from'])} to: {declared(d['to'])}"
    if k == "attack":
        mods = ", ".join(f"{a} {b}" for a, b in d["modifiers"].items())
        s = f"    {d['attacker']} {d['kind']} with {d['with']} on {d['target']}: {d['stat']} {d['attribute']}"
        if mods:
            s += f" (after {mods})"
        if d.get("failed"):
            s += f" -- fails: {d['failed']}"
        return s
    if k == "roll":
        return f"      d{d['sides']}={d['value']}  [{d['why']}]"
    if k == "confrontation":
        return (f"    confrontation {d['a']} {d['a_rolls']} vs {d['b']} {d['b_rolls']}: "
                f"{d['a']} keeps {d['a_hits']}, {d['b']} keeps {d['b_hits']}")
    if k == "dodge":
        return (f"    {d['model']} dodges{' vs ' + d['against'] if d['against'] else ''}: "
                f"{d['stat']} {d['attribute']}{' (halved)' if d['halved'] else ''} -> "
                f"{'success' if d['die']['success'] else 'fail'}")
    if k == "hit":
        return (f"    {d['attacker']} hits {d['model']} with {d['with']} (roll {d['roll']}"
                f"{', critical' if d.get('critical') else ''})")
    if k == "hit_dodged":
        return f"    {d['model']} dodges {d['attacker']}'s hit (roll {d['roll']})"
    if k == "damage":
        return (f"    damage on {d['model']}: needs <= {d['threshold']} (PW {d['pw']} - "
                f"{_armor_words(d)}) -> {'WOUND' if d['wound'] else 'no wound'}")
    if k == "wound":
        return f"    {d['model']} suffers {d['wounds']} Wound(s): HP {d['hp']}"
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
        s = f"    {d['model']} {d['check']}"
        if d.get("aura"):
            s += " (halved: Casting Aura)"
        if d.get("first"):
            s += f": {d['first']['value']} vs {d['first']['target']} -> fail, reroll ({d['helper']} in Base Contact)"
        return s + f": {d['die']['value']} vs {d['die']['target']} -> " \
            f"{'success' if d['die']['success'] else 'fail'}"
    if k == "perceive_nothing":
        return f"    {d['model']} Perceive: {d['target']} is no longer Shrouded, nothing to reveal (no roll)"
    if k == "crouch_reaction":
        if not d["changes"]:
            return None
        ch = ", ".join(f"{m} {'crouches' if on else 'stands up'}" for m, on in d["changes"].items())
        return f"  {d['side']} at the {d['window']} of {d['mover']}'s Movement Step: {ch}"
    if k == "stratagem":
        return (f"  {d['side']}'s Leader {d['leader']} uses the Stratagem {d['name']}"
                f"{' on ' + ', '.join(d['targets']) if d['targets'] else ''}: "
                f"{effect_words(d['effect'])} ({d['uses_left']} use(s) left this {d['per']})")
    if k == "stratagem_ends":
        what = ", ".join([f"{v:+d} {st}" for st, v in d["mods"].items()] + d["states"])
        return f"    {d['model']}: the Stratagem {d['name']} ends ({what})"
    if k == "stratagem_window":
        return f"  Stratagems of {d['side']} (Leader {d['leader']}): " + ", ".join(d["usable"])
    if k == "token":
        what = d.get("item") or d.get("spell") or ""
        s = f"    {d.get('kind', 'the')} token {d['token']}{' (' + what + ')' if what else ''} {d['event']}"
        if d.get("by"):
            s += f" by {d['by']}" + (f"'s {d['how']}" if d.get("how") in ("Perceive", "Uncover") else "")
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
            return f"  {d['model']} moves to {_pt(d['end'])} after its Dodge"
        return None
    if k == "fall":
        return (f"  {d['model']} falls {d['height']:.1f}\" from {d.get('from', 'the vertical surface')} "
                f"({d['why']}): {d['rolls']} AG roll(s)")
    if k == "turn_on_hit":
        old, new = f"{d['from']:.0f}\u00b0", f"{d['to']:.0f}\u00b0"
        auto = " (by itself: turn_on_hit face_attacker)" if d.get("auto") else ""
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
    if k in ("summon", "objective", "trade", "duel", "duel_interference", "knockback_blocked"):
        return f"    {k.replace('_', ' ')}: " + ", ".join(f"{a}={b}" for a, b in d.items())
    if k == "game_over":
        who = f"{d['winner']} wins" if d["winner"] else "draw"
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


def narrate(events, rolls: bool = False) -> list[str]:
    out = []
    for ev in events:
        if ev.kind == "roll" and not rolls:
            continue
        s = line(ev)
        if s is not None:
            out.append(s)
    return out
