"""Spells: casting requirements, mana, the five types, Assist effects, Ritual.

Source: seeds/eldfall-actions.txt ("Spell Attack", "Spell Types", "Ritual")
and ../shared/rules/eldfall-facts.md (Casting Aura).

* The caster needs the spell's Affinity, must not have both hands full
  (a Shield + a weapon, or a two-handed Item), casts 1 Spell per Activation,
  and rolls INT (the Mystic class rolls M).
* Types (data/spell_types.yaml): Sorcery (active or reactive, an Attack, until
  the end of the sequence), Healing (active only), Enchantment (active only,
  until the caster's next Strategic Phase, undodgeable, one of a name per
  model), Conjuration (active only, through Ritual, permanent until the caster
  drops), Transmutation (active only, permanent: an Assist that names no model
  and lays a hidden spell token of the caster's side at ``place=``, within the
  spell's range, or in Base Contact when it has none; ``why_not_place``).
* Mana counters: a caster gains ``mana_per_active_ap`` counter(s) for each AP it
  spends in the Active Role; every spell costs its mana (setting
  ``spell_mana: conjuration`` charges only Conjurations).
* Ritual: Idle, pays the Conjuration's mana, no roll; the creature (a reserve
  unit of the roster named by the spell's ``effect: summon <unit id>``: a scene
  model with ``reserve: true``) comes in Base Contact with the caster, on free
  level ground, with AP = its STA. The Summoning Limit (sum of
  the Tiers of the caster's creatures) may not exceed the caster's modified STA.
"""
from __future__ import annotations

import functools
import math
import re
from pathlib import Path

import yaml

from rules.eldfall import availability as av
from rules.eldfall import combat as cb
from rules.eldfall import conditions as cd

DATA = Path(__file__).with_name("data")
TEMPLATES = ("circular-s", "circular-l", "spray-s", "spray-l", "circle-s", "circle-l")
STATS = ("STA", "SPD", "ARM", "HP", "OFF", "DEF", "ACC", "INT", "AG", "T", "M")


@functools.lru_cache(maxsize=None)
def spell_types() -> dict:
    with open(DATA / "spell_types.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)["types"]


def template_kind(name: str) -> str:
    n = name.lower().replace(" ", "-").replace("circular", "circle")
    return n


def casting_stat(m) -> str:
    return "M" if "Mystic" in m.unit.classes else "INT"


def hands_full(m) -> bool:
    """Both hands full: a Shield carried with any weapon, or a two-handed Item."""
    items = [w for w in m.unit.weapons if w.get("kind") in ("melee", "ranged", "shield")]
    shield = any(w.get("kind") == "shield" for w in items)
    weapons = [w for w in items if w.get("kind") != "shield"]
    if shield and weapons:
        return True
    return any(int(w.get("hands", 1)) >= 2 for w in weapons)


def mana_cost(game, spell: dict) -> int:
    if game.settings["spell_mana"] == "conjuration" and spell.get("type") != "Conjuration":
        return 0
    return int(spell.get("mana", 0))


def why_not_cast(game, model: str, spell: dict, role: str) -> str | None:
    m = game.models[model]
    t = spell.get("type", "")
    if t not in spell_types():
        return f"{spell['name']}: unknown spell type {t!r}"
    if not av.spell_type_allowed(t, role):
        return f"{t} spells are cast in the Active Role only"
    if spell.get("affinity") and spell["affinity"] not in m.unit.affinities:
        return f"{model} lacks the {spell['affinity']} Affinity for {spell['name']}"
    if hands_full(m):
        return f"{model} has both hands full and cannot cast"
    if game.act is not None and game.act.spells_cast >= 1 and role == "active":
        return "only 1 Spell per Activation"
    if game.act is not None and role == "active" and game.act.action is not None and \
            game.act.action.spell:
        return "only 1 Spell per Activation"
    cost = mana_cost(game, spell)
    if m.mana < cost:
        return f"{spell['name']} costs {cost} mana, {model} has {m.mana}"
    return None


def pay_mana(game, model: str, spell: dict | None) -> None:
    if spell is None:
        return
    cost = mana_cost(game, spell)
    if cost:
        m = game.models[model]
        m.mana = max(0, m.mana - cost)
        game.emit("mana", {"model": model, "mana": m.mana, "why": f"cast {spell['name']}"})


_STAT_MOD = re.compile(r"([+-]\d+)\s*(STA|SPD|ARM|HP|OFF|DEF|ACC|INT|AG|T|M)\b")
_HEAL = re.compile(r"regains?\s+(\d+)\s*HP", re.I)
# the States an effect (a spell's, a Stratagem's) may give, and those it may remove
EFFECT_STATES = ("Bleeding", "Blinded", "Confused", "Crippled", "Immobilized", "Slowed", "Weakened",
                 "Poisoned", "Flying", "Shrouded", "Fatigued")
REMOVABLE_STATES = ("Bleeding", "Blinded", "Confused", "Crippled", "Immobilized", "Slowed",
                    "Weakened", "Poisoned", "Fatigued", "Panicked")
_STATE = re.compile(r"\b(?:gains?|enters?|becomes?)\s+(?:the\s+)?(" + "|".join(EFFECT_STATES)
                    + r")\b")
_REMOVE = re.compile(r"\b(?:removes?|cancels?|cures?)\s+(?:the\s+)?(" + "|".join(REMOVABLE_STATES)
                     + r")\b")
_SUMMON = re.compile(r"summons?\s+([A-Za-z0-9_.\-#]+)", re.I)


def spell_effect(spell: dict) -> dict:
    """What a spell's ``effect`` text does, as data:
    {"heal": n, "mods": {stat: n}, "states": [..], "remove": [..], "summon": id}."""
    text = spell.get("effect", "") or ""
    out: dict = {"mods": {}, "states": [], "remove": []}
    for n, stat in _STAT_MOD.findall(text):
        out["mods"][stat] = out["mods"].get(stat, 0) + int(n)
    h = _HEAL.search(text)
    if h:
        out["heal"] = int(h.group(1))
    out["states"] = _STATE.findall(text)
    out["remove"] = _REMOVE.findall(text)
    s = _SUMMON.search(text)
    if spell.get("summon"):
        out["summon"] = str(spell["summon"])
    elif s:
        out["summon"] = s.group(1)
    return out


def why_not_assist(game, d, role: str) -> str | None:
    m = game.models[d.model]
    if d.spell is None:
        return "Assist names the Spell it uses (spell=...)"
    s = game.spell(d.model, d.spell)
    if s is None:
        return f"{d.model} has no spell {d.spell!r}"
    r = why_not_cast(game, d.model, s, role)
    if r:
        return r
    if s.get("type") == "Conjuration":
        return "a Conjuration is cast with the Ritual action"
    if is_transmutation(s):
        # "Affects the environment": its token is placed, no model is targeted
        if d.targets:
            return (f"{s['name']} is a Transmutation: it targets no model, place=x,y,z names "
                    "where its token lies")
        return why_not_place(game, d.model, s, d.place)
    if s.get("target", "enemy") == "enemy":
        return f"{s['name']} targets enemies: cast it as a Spell Attack"
    if not d.targets:
        return "Assist needs a target (an ally or itself)"
    many = next((t for t, n in d.targets if n > 1), None)
    if many is not None:
        # "STK determines number of targets": an Assist's STK counts models, each taken
        # once (a second "Strike" on one ally would be logged but do nothing more)
        return (f"an Assist takes each target once ({many}:{dict(d.targets)[many]}): its STK is "
                "the number of models it targets")
    stk = max(1, int(s.get("stk", 1)))
    if d.strikes > stk or len(d.targets) > stk:
        return f"{s['name']} has STK {s.get('stk', 1)}: that many targets at most"
    # "STK determines number of targets (same as Attack)": the Reactive Role's
    # STK 1 and the States' caps (Crouched: STK 1) limit an Assist's targets too
    cap = 1 if role == "reactive" else av.strike_cap(role, "Assist", m.states)
    if cap is not None and d.strikes > cap:
        why = "in the Reactive Role" if role == "reactive" else \
            "while " + ", ".join(sorted(n for n in m.states if av.strike_cap(role, "Assist", {n})))
        return f"STK is {cap} {why}: an Assist has {cap} target at most"
    restr = av.target_restrictions(role, m.states, settings=game.settings.get("table_settings"))
    # every restriction applies: an Engaged (or Blinded) reactor's "self" narrows the
    # Reactive Role's "self or other allied models" (eldfall-reactions.txt, Engaged row)
    self_only = "self" in restr.get("Assist", ())
    for t in d.target_ids:
        tm = game.models[t]
        if tm.side != m.side:
            return f"{t} is an enemy: Assist targets allies or the model itself"
        if s.get("target") == "self" and t != d.model:
            return f"{s['name']} targets the caster only"
        if self_only and t != d.model:
            return f"{d.model} may only Assist itself now ({', '.join(sorted(m.states))})"
        if "Dead" in tm.states:
            return f"{t} is Dead"
        if t == d.model:
            continue
        # Shrouded: "Cannot be targeted by any Action other than Perceive" (eldfall-states.txt)
        block = cd.targeting_block(tm.states, "Assist", attacker_states=m.states)
        if block:
            return f"{t}: {block}"
        if not game.has_los(d.model, t) and not _in_aura(game, d.model, t, role):
            return f"no LoS to {t}, and it is not inside {d.model}'s Casting Aura"
        rng = float(s.get("rng", 0))
        if rng > 0 and game.geo.distance(d.model, t) > rng + cb.MEASURE_TOLERANCE:
            return f"{t} is out of range ({game.geo.distance(d.model, t):.2f}\" > {rng:g}\")"
        if rng == 0 and not game.geo.base_contact(d.model, t):
            return f"{t} is not in Base Contact"
        if s.get("type") == "Enchantment" and any(e[0] == s["name"] for e in tm.enchantments):
            return f"{t} already has the Enchantment {s['name']} (max 1 of a name per model)"
    if s.get("type") == "Enchantment" and d.model in d.target_ids and any(
            e[0] == s["name"] for e in m.enchantments):
        return f"{d.model} already has the Enchantment {s['name']}"
    return None


def _in_aura(game, mid: str, t: str, role: str) -> bool:
    """In the Active Role a caster may target a model inside its Casting Aura without
    LoS, at a halved casting attribute (facts, "Reach")."""
    return role == "active" and game.geo.in_awareness(mid, t)


def resolve_assist(game, mid: str, d) -> None:
    s = game.spell(mid, d.spell)
    pay_mana(game, mid, s)
    game.act.spells_cast += 1
    stat = casting_stat(game.models[mid])
    # a target taken off the table in this Resolution Step (its summoner fell) gets nothing
    targets = [t for t in d.target_ids if game.models[t].on_table]
    # a target reached through the Casting Aura (no LoS) halves the casting attribute
    unseen = [t for t in targets if t != mid and not game.has_los(mid, t)]
    v = game.roll(f"cast {s['name']}: {mid} {stat}" + (" (halved: Casting Aura)" if unseen else ""), model=mid)
    die = cb.judge(v, game.stat(mid, stat, halvings=1) if unseen else game.stat(mid, stat))
    game.emit("check", {"model": mid, "check": f"cast {s['name']}", "die": die.to_dict(),
                        **({"aura": "halved"} if unseen else {})})
    if not die.success:
        return
    eff = spell_effect(s)
    # the States a Sorcery or Healing gives last until the end of the Activation
    # Sequence (Spell Types table, Duration), as a Sorcery Attack's do
    lasting = spell_types()[s["type"]]["duration"]
    for t in targets:
        if s.get("type") == "Enchantment":
            apply_enchantment(game, mid, t, s)
        apply_effect(game, t, eff, f"{s['name']} by {mid}",
                     add_states=s.get("type") != "Enchantment",
                     expiry="sequence" if lasting == "end-of-sequence" else None)


def apply_effect(game, target: str, eff: dict, why: str, add_states: bool = True,
                 expiry: str | None = None) -> list[str]:
    """An effect's heal, then the States it removes, then those it gives
    (an Assist spell's, a Stratagem's; ``expiry``: when those end, see
    ``ModelState.expiry``). Returns the States it gave that the model did not have."""
    if eff.get("heal"):
        game.heal(target, eff["heal"], why)
    for st in eff.get("remove", ()):
        game.remove_state(target, st, why)
    added = []
    if add_states:
        for st in eff.get("states", ()):
            had = st in game.models[target].states
            game.add_state(target, st, why, expiry=expiry)
            if not had and st in game.models[target].states:
                added.append(st)
    return added


def apply_enchantment(game, caster: str, target: str, spell: dict | None) -> None:
    if spell is None:
        return
    tm = game.models[target]
    if any(e[0] == spell["name"] for e in tm.enchantments):
        game.emit("enchantment", {"model": target, "spell": spell["name"], "caster": caster,
                                  "applied": False, "why": "max 1 Enchantment of a name per model"})
        return
    eff = spell_effect(spell)
    tm.enchantments = tuple(tm.enchantments) + ((spell["name"], caster, dict(eff["mods"])),)
    game.emit("enchantment", {"model": target, "spell": spell["name"], "caster": caster,
                              "applied": True, "mods": eff["mods"]})
    for st in eff["states"]:
        # a State the Enchantment gives lasts as long as it does (until the caster's
        # next Strategic Phase); one the model already had stays
        game.add_state(target, st, f"Enchantment {spell['name']}",
                       expiry=enchantment_expiry(spell["name"], caster))


STAR_PW = "\u272f"      # ✯ (engine.profiles.STAR_PW; the rules never import the engine)


def spell_type_gifts(game, model: str) -> list[str]:
    """The Enchantments on ``model`` whose PW is ✯: "If PW = ✯: target's Attacks gain the
    Spell type" (eldfall-actions.txt, Spell Types). Each lasts as its Enchantment does
    (until its caster's next Strategic Phase), so it is read from the caster's spell."""
    out = []
    for name, caster, _ in game.models[model].enchantments:
        s = game.spell(caster, name) if caster in game.models else None
        if s is not None and str(s.get("pw", "")).strip() == STAR_PW and name not in out:
            out.append(name)
    return out


def enchantment_expiry(name: str, caster: str) -> str:
    """The ``ModelState.expiry`` mark of a State an Enchantment gave."""
    return f"enchantment {caster}: {name}"


def summons_of(game, caster: str) -> list:
    """The caster's creatures on the field that hold a place in its Summoning Limit:
    not a Dead one ("ignored for all game impacts", eldfall-states.txt; it never
    comes back), nor one removed from the field."""
    return [m for m in game.models.values() if m.summoned_by == caster and m.on_table
            and "Dead" not in m.states]


def tier(unit) -> int:
    return int(unit.extra.get("tier", unit.stats.get("TIER", 1)) or 1)


def why_not_ritual(game, d) -> str | None:
    m = game.models[d.model]
    if d.spell is None:
        return "Ritual names the Conjuration it casts (spell=...)"
    s = game.spell(d.model, d.spell)
    if s is None:
        return f"{d.model} has no spell {d.spell!r}"
    if d.targets:
        return "Ritual has no target"
    if s.get("type") != "Conjuration" and not s.get("ritual"):
        return f"{s['name']} is not a Conjuration (nor a spell that needs the Ritual)"
    r = why_not_cast(game, d.model, s, "active")
    if r:
        return r
    eff = spell_effect(s)
    cid = eff.get("summon")
    if s.get("type") == "Conjuration":
        c = game.models.get(cid) if cid else None
        if c is None or c.side != m.side:
            return f"{s['name']} summons {cid!r}: no such reserve creature of {m.side}"
        if c.on_table:
            return f"{cid} is already on the table"
        used = sum(tier(x.unit) for x in summons_of(game, d.model))
        limit = game.stat(d.model, "STA")
        if used + tier(c.unit) > limit:
            return (f"Summoning Limit: {used} + Tier {tier(c.unit)} would exceed "
                    f"{d.model}'s modified STA {limit}")
        if _summon_spot(game, d.model, c) is None:
            return f"no room in Base Contact with {d.model} for {cid}"
    return None


SUMMON_STEP = 0.25      # inches: the ground under a summoned base may rise or fall this much


def _summon_spot(game, caster: str, c):
    """Where the creature comes: in Base Contact with the caster, the first of
    16 spots around it (in front, then alternately left and right) that is free
    of models and stands on ground level with the caster's (the centre and 8
    points of the base rim within SUMMON_STEP: no wall or ledge under it)."""
    x, y, z = game.geo.position(caster)
    rc = c.unit.base / 2
    r = game.models[caster].unit.base / 2 + rc + 1e-4
    f = math.radians(game.geo.facing(caster))
    for k in range(16):
        a = f + (1 if k % 2 else -1) * ((k + 1) // 2) * math.pi / 8
        p = (x + math.cos(a) * r, y + math.sin(a) * r, z)
        if not game.geo.free_spot(c.id, p, rc, c.unit.height):
            continue
        rim = [(p[0], p[1])] + [(p[0] + math.cos(b) * rc * 0.98, p[1] + math.sin(b) * rc * 0.98)
                                for b in (i * math.pi / 4 for i in range(8))]
        if all(abs(game.geo.ground(px, py)[2] - z) <= SUMMON_STEP for px, py in rim):
            return p
    return None


def resolve_ritual(game, mid: str, d) -> None:
    s = game.spell(mid, d.spell)
    pay_mana(game, mid, s)
    game.act.spells_cast += 1
    eff = spell_effect(s)
    cid = eff.get("summon")
    if s.get("type") != "Conjuration" or not cid:
        game.emit("ritual", {"model": mid, "spell": s["name"]})
        return
    c = game.models[cid]
    spot = _summon_spot(game, mid, c)
    if spot is None:
        game.emit("ritual", {"model": mid, "spell": s["name"], "failed": "no room"})
        return
    again = c.removed
    c.reserve = False
    c.removed = False
    c.summoned_by = mid
    if again:
        # removed from the field with its summoner's fall (or fled): the Ritual calls
        # the creature anew, as the first time (whole HP, the States of its profile)
        c.hp = c.unit.stat("HP", 1)
        c.ap, c.mana, c.items = 0, 0, ()
        c.enchantments, c.boosts, c.engaged_by = (), (), frozenset()
        c.on_vertical = c.incap_by_effect = c.rallied = False
        c.expiry = {}
    game.geo.add_model(c.unit, spot, game.geo.facing(mid))
    game.geo.set_states(cid, c.states)
    game.emit("summon", {"model": cid, "by": mid, "spell": s["name"], "at": list(spot),
                         **({"again": True, "hp": c.hp} if again else {})})
    if again:
        game.set_states(cid, frozenset(c.unit.states), f"summoned again by {mid}")
    game.set_ap(cid, game.stat(cid, "STA"), "summoned: AP = STA")


# ---------------------------------------------------------------- Transmutation
# "Transmutation || Permanent || Active only || Affects the environment. Remains on
# the field until removed or destroyed" (eldfall-actions.txt, Spell Types). Cast as an
# Assist (Active Role) that names no model and places a hidden spell token of the
# caster's side at ``Declare.place`` (docs/rulings.md, "Casting a Transmutation").
PLACE_Z_TOLERANCE = 0.05      # inches: place= lies on the surface under its x, y
CONTACT_GAP = 2e-4            # inches: a base-contact spot's gap (within tokens.CONTACT)


def is_transmutation(spell: dict | None) -> bool:
    return bool(spell) and spell.get("type") == "Transmutation"


def why_not_place(game, model: str, spell: dict, place) -> str | None:
    """Why a Transmutation of ``model`` cannot lay its token at ``place`` (None: it can):
    on the table, on the surface under its x, y, not under a model's base nor on
    another token, within the spell's ``rng`` of the caster (its edge; no ``rng``:
    in Base Contact with it), in LoS of the caster or within its Casting Aura."""
    from rules.eldfall import tokens as tk
    if place is None:
        return (f"{spell['name']} is a Transmutation: place=x,y,z names where its token lies "
                "(it targets no model)")
    if not all(math.isfinite(float(v)) for v in place):
        return f"place= is a point x,y,z, not {place!r}"
    r = tk.DEFAULT_RADIUS
    x, y, z = (float(v) for v in place)
    w, dp = (float(v) for v in game.table[:2])
    if not (r <= x <= w - r and r <= y <= dp - r):
        return f"the token at ({x:g}, {y:g}) would not lie wholly on the {w:g}x{dp:g} table"
    gz = float(game.geo.ground(x, y)[2])
    if abs(gz - z) > PLACE_Z_TOLERANCE:
        return f"place= is not on the surface: the surface under ({x:g}, {y:g}) is at z {gz:.2f}"
    p = (x, y, gz)
    for o in game.models.values():
        if o.on_table and game.geo.point_distance(o.id, p) < r - 1e-3:
            return f"the token would lie under {o.id}'s base"
    for t in game.tokens.values():
        if t.on_field and math.hypot(t.at[0] - x, t.at[1] - y) < t.radius + r - 1e-3 \
                and abs(t.at[2] - gz) < PLACE_Z_TOLERANCE:
            return f"the token would lie on the token {t.id}"
    gap = game.geo.point_distance(model, p) - r
    rng = float(spell.get("rng", 0) or 0)
    if rng > 0 and gap > rng + cb.MEASURE_TOLERANCE:
        return f"({x:g}, {y:g}) is out of range ({gap:.2f}\" > {rng:g}\")"
    if rng <= 0 and gap > tk.CONTACT:
        return (f"{spell['name']} has no range: its token lies in Base Contact with {model} "
                f"({gap:.2f}\" away)")
    if not place_seen(game, model, p) and not game.geo.point_in_awareness(model, p, r):
        return f"no LoS to ({x:g}, {y:g}), and it is not inside {model}'s Casting Aura"
    return None


def place_seen(game, model: str, p) -> bool:
    from rules.eldfall import tokens as tk
    if "Blinded" in game.models[model].states:
        return False
    return bool(game.geo.point_sight(model, tuple(p), tk.DEFAULT_RADIUS))


def contact_spot(game, model: str, bearing: float):
    """The point of the surface where a token touches ``model``'s base in the direction
    ``bearing`` (degrees CCW from +x), 4 decimals."""
    from rules.eldfall import tokens as tk
    x, y, _ = game.geo.position(model)
    d = game.models[model].unit.base / 2 + tk.DEFAULT_RADIUS + CONTACT_GAP
    a = math.radians(bearing)
    px, py = round(x + math.cos(a) * d, 4), round(y + math.sin(a) * d, 4)
    return tuple(round(float(v), 4) for v in game.geo.ground(px, py))


def place_for_click(game, model: str, spell: dict, point):
    """Where a click at ``point`` (the view's ground click) lays the token: a spell with
    no range, in Base Contact with the caster in the click's direction; else the point
    on the surface under the click."""
    x, y, _ = game.geo.position(model)
    px, py = float(point[0]), float(point[1])
    if float(spell.get("rng", 0) or 0) <= 0:
        return contact_spot(game, model, math.degrees(math.atan2(py - y, px - x)))
    return tuple(round(float(v), 4) for v in game.geo.ground(px, py))


def placements(game, model: str, spell: dict):
    """Candidate Transmutation declarations of ``model`` (each still checked by the
    caller): in Base Contact in front, then to the sides and behind (45-degree steps);
    with a range, also at the full range and half of it in front and 45 degrees off."""
    from rules.eldfall import tokens as tk
    from rules.eldfall.actions import Declare
    f = float(game.geo.facing(model))
    pts = [contact_spot(game, model, f + k * 45.0) for k in (0, 1, -1, 2, -2, 3, -3, 4)]
    rng = float(spell.get("rng", 0) or 0)
    if rng > 0:
        x, y, _ = game.geo.position(model)
        r = tk.DEFAULT_RADIUS
        for k in (0, 1, -1):
            a = math.radians(f + k * 45.0)
            for d in (rng, rng / 2):
                c = game.models[model].unit.base / 2 + r + d - 1e-3
                pts.append(tuple(round(float(v), 4) for v in
                                 game.geo.ground(x + math.cos(a) * c, y + math.sin(a) * c)))
    for p in dict.fromkeys(pts):
        yield Declare(model, "Assist", spell=spell["name"], place=p)


def resolve_transmutation(game, mid: str, d) -> None:
    """Pay the mana, roll the casting attribute (halved when the spot is reached through
    the Casting Aura, without LoS); on a success the token lies there, hidden."""
    from rules.eldfall import tokens as tk
    s = game.spell(mid, d.spell)
    pay_mana(game, mid, s)
    game.act.spells_cast += 1
    stat = casting_stat(game.models[mid])
    p = tuple(float(v) for v in d.place)
    p = (p[0], p[1], float(game.geo.ground(p[0], p[1])[2]))
    unseen = not place_seen(game, mid, p)
    v = game.roll(f"cast {s['name']}: {mid} {stat}" + (" (halved: Casting Aura)" if unseen else ""), model=mid)
    die = cb.judge(v, game.stat(mid, stat, halvings=1) if unseen else game.stat(mid, stat))
    game.emit("check", {"model": mid, "check": f"cast {s['name']}", "die": die.to_dict(),
                        **({"aura": "halved"} if unseen else {})})
    if die.success:
        tk.place_spell(game, mid, s["name"], p)
