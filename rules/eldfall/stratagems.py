"""Stratagems: a side's Leader's tricks, used in the active player's Strategic Phase.

Sources: ../shared/rules/eldfall-facts.md ("Turn structure": the Strategic
Phase includes Stratagems), seeds/eldfall-states.txt (Incapacitated: "An
incapacitated Leader cannot use Stratagems"), seeds/eldfall-actions.txt (Issue
a Duel: "Stratagems can be used during a duel"). The pages define no
Stratagem: a group writes its own as data (docs/scene-format.md,
"Stratagems"), the scene's ``stratagems:`` block, which reaches the game as
``scene_info["stratagems"]`` (so a log's header carries them).

One Stratagem, as plain data (``normalize`` fills the defaults)::

    {"name": "Rally", "text": "", "uses": 1, "per": "game" | "turn",
     "target": "own" | "enemy" | "leader" | "all-own" | "all-enemy",
     "range": None | inches from the Leader, "awareness": False | True,
     "effect": {"heal": 0, "mods": {"DEF": 2}, "states": [], "remove": [],
                "ap": 0, "duration": "turn" | "round" | "game"}}

The effect is the spells' vocabulary (rules/eldfall/spells.py: heal, stat
mods, states to add, states to remove) plus ``ap``; spells.apply_effect does
the heal and the states for both. Mods and added states last ``duration``:
``turn`` (to this turn's End Phase), ``round`` (to the side's next Strategic
Phase, as an Enchantment) or ``game``. ``ap`` adds to the AP the model
receives at this turn's Upkeep Phase. A State the model already has from
another source lasts until the longest-lasting of them ends (docs/rulings.md,
"A State given by two sources"): the boost is one more source (``gives``).
"""
from __future__ import annotations

from rules.eldfall import spells as sp
from rules.eldfall.combat import MEASURE_TOLERANCE

TARGETS = ("own", "enemy", "leader", "all-own", "all-enemy")
PER = ("game", "turn")
DURATIONS = ("turn", "round", "game")
MOD_STATS = ("STA", "SPD", "ARM", "OFF", "DEF", "ACC", "INT", "AG", "T", "M")
KEYS = ("name", "text", "uses", "per", "target", "range", "awareness", "effect")
EFFECT_KEYS = ("heal", "mods", "states", "remove", "ap", "duration")
MAX_USES = 99
MAX_MOD = 20
MAX_HEAL = 20
MAX_AP = 10
MAX_PER_SIDE = 50


def _int(v, where: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or int(v) != v:
        raise ValueError(f"{where} must be a whole number, not {v!r}")
    if not lo <= int(v) <= hi:
        raise ValueError(f"{where} must be {lo} to {hi}, not {v!r}")
    return int(v)


def normalize_one(d, where: str) -> dict:
    """One Stratagem's plain data with its defaults, or ValueError."""
    if not isinstance(d, dict):
        raise ValueError(f"{where}: a Stratagem is a mapping, not {d!r}")
    unknown = sorted(set(d) - set(KEYS), key=str)
    if unknown:
        raise ValueError(f"{where}: unknown keys {unknown}")
    name = d.get("name")
    if not isinstance(name, str) or not name.strip() or "=" in name or len(name) > 80:
        raise ValueError(f"{where}.name: a Stratagem needs a name (a text without '=', at most 80)")
    text = d.get("text", "")
    if not isinstance(text, str):
        raise ValueError(f"{where}.text must be a text")
    per = d.get("per", "game")
    if per not in PER:
        raise ValueError(f"{where}.per must be game or turn, not {per!r}")
    target = d.get("target", "own")
    if target not in TARGETS:
        raise ValueError(f"{where}.target must be one of {', '.join(TARGETS)}, not {target!r}")
    rng = d.get("range")
    if rng is not None:
        if isinstance(rng, bool) or not isinstance(rng, (int, float)) or not 0 <= rng <= 1000:
            raise ValueError(f"{where}.range must be inches (0 to 1000), not {rng!r}")
        rng = float(rng)
    aware = d.get("awareness", False)
    if not isinstance(aware, bool):
        raise ValueError(f"{where}.awareness must be true or false")
    e = d.get("effect")
    if not isinstance(e, dict):
        raise ValueError(f"{where}.effect: a mapping of heal, mods, states, remove, ap, duration")
    unknown = sorted(set(e) - set(EFFECT_KEYS), key=str)
    if unknown:
        raise ValueError(f"{where}.effect: unknown keys {unknown}")
    mods = e.get("mods") or {}
    if not isinstance(mods, dict):
        raise ValueError(f"{where}.effect.mods: a mapping stat -> modifier")
    clean_mods = {}
    for k, v in mods.items():
        if k not in MOD_STATS:
            raise ValueError(f"{where}.effect.mods.{k}: not a stat a Stratagem may change "
                             f"({', '.join(MOD_STATS)})")
        n = _int(v, f"{where}.effect.mods.{k}", -MAX_MOD, MAX_MOD)
        if n:
            clean_mods[k] = n
    lists = {}
    for key, allowed in (("states", sp.EFFECT_STATES), ("remove", sp.REMOVABLE_STATES)):
        v = e.get(key) or []
        if isinstance(v, str):
            v = [v]
        if not isinstance(v, list) or any(s not in allowed for s in v) or len(set(v)) != len(v):
            raise ValueError(f"{where}.effect.{key}: a list of distinct states of "
                             f"{', '.join(allowed)}, not {v!r}")
        lists[key] = list(v)
    heal = _int(e.get("heal", 0), f"{where}.effect.heal", 0, MAX_HEAL)
    ap = _int(e.get("ap", 0), f"{where}.effect.ap", 0, MAX_AP)
    duration = e.get("duration", "round")
    if duration not in DURATIONS:
        raise ValueError(f"{where}.effect.duration must be turn, round or game, not {duration!r}")
    if not (clean_mods or lists["states"] or lists["remove"] or heal or ap):
        raise ValueError(f"{where}.effect does nothing")
    return {"name": name, "text": text, "uses": _int(d.get("uses", 1), f"{where}.uses", 1, MAX_USES),
            "per": per, "target": target, "range": rng, "awareness": aware,
            "effect": {"heal": heal, "mods": dict(sorted(clean_mods.items())),
                       "states": lists["states"], "remove": lists["remove"], "ap": ap,
                       "duration": duration}}


def normalize(defs, sides) -> dict[str, list[dict]]:
    """``{side: [Stratagem, ...]}`` for the game's sides (ValueError when bad)."""
    if not defs:
        return {}
    if not isinstance(defs, dict):
        raise ValueError("stratagems: a mapping side -> list of Stratagems")
    out: dict[str, list[dict]] = {}
    for side, items in defs.items():
        if side not in sides:
            raise ValueError(f"stratagems.{side}: no such side (sides: {', '.join(sides)})")
        if not isinstance(items, list) or len(items) > MAX_PER_SIDE:
            raise ValueError(f"stratagems.{side}: a list of at most {MAX_PER_SIDE} Stratagems")
        got = [normalize_one(d, f"stratagems.{side}[{i}]") for i, d in enumerate(items)]
        names = [g["name"] for g in got]
        if len(set(names)) != len(names):
            raise ValueError(f"stratagems.{side}: two Stratagems share a name")
        if got:
            out[side] = got
    return out


# ---------------------------------------------------------------------------
# the game's side: who may use what, on whom
def find(game, side: str, name: str) -> dict | None:
    for s in game.stratagems.get(side, ()):
        if s["name"] == name:
            return s
    return None


def uses_left(game, side: str, s: dict) -> int:
    used = game.stratagem_used.get(side, {}).get(s["name"], [0, 0])
    return s["uses"] - (used[0] if s["per"] == "game" else used[1])


def _eligible(game, s: dict, leader: str, model) -> bool:
    if not model.on_table or "Dead" in model.states:
        return False
    if model.id == leader:
        return True
    if s["range"] is not None and game.geo.distance(leader, model.id) > s["range"] + MEASURE_TOLERANCE:
        return False
    if s["awareness"] and not game.geo.in_awareness(leader, model.id):
        return False
    return True


def targets(game, side: str, s: dict) -> list[str]:
    """The models this Stratagem may name now (own/enemy), or falls on (the others)."""
    leader = game._leader(side)
    if leader is None:
        return []
    t = s["target"]
    if t == "leader":
        return [leader]
    pool = game.side_models(side) if t in ("own", "all-own") else \
        [m for m in game.models.values() if m.side != side]
    return [m.id for m in pool if _eligible(game, s, leader, m)]


def why_not(game, side: str, name: str, target: str | None) -> str | None:
    if game.pending != ("stratagem", side):
        return "Stratagems are used in the active player's Strategic Phase"
    leader = game._leader(side)
    if leader is None:
        return f"{side}'s Leader is not on the table or is Incapacitated: no Stratagems"
    s = find(game, side, name)
    if s is None:
        known = ", ".join(x["name"] for x in game.stratagems.get(side, ())) or "none"
        return f"{side} has no Stratagem {name!r} (it has: {known})"
    limit = int(game.settings["stratagems_per_phase"])
    if game.stratagem_phase_uses >= limit:
        return f"{limit} Stratagem(s) per Strategic Phase (setting stratagems_per_phase)"
    if uses_left(game, side, s) <= 0:
        return f"{name} is used up ({s['uses']} per {s['per']})"
    ok = targets(game, side, s)
    if s["target"] in ("own", "enemy"):
        if target is None:
            return f"{name} names a target ({'a model of ' + side if s['target'] == 'own' else 'an enemy'})"
        if target not in game.models:
            return f"no model {target!r}"
        tm = game.models[target]
        if (tm.side == side) != (s["target"] == "own"):
            return f"{name} targets {'a model of ' + side if s['target'] == 'own' else 'an enemy'}, not {target}"
        if target not in ok:
            if not tm.on_table or "Dead" in tm.states:
                return f"{target} is not on the table or is Dead"
            rule = []
            if s["range"] is not None:
                rule.append(f"within {s['range']:g}\" of {leader}")
            if s["awareness"]:
                rule.append(f"within {leader}'s Awareness")
            return f"{target} is not {' and '.join(rule)}"
        return None
    if target is not None:
        return f"{name} names no target (it falls on {s['target'].replace('-', ' ')})"
    if not ok:
        return f"{name}: no model qualifies"
    return None


def usable(game, side: str) -> list[tuple[dict, list[str]]]:
    """The Stratagems ``side`` could use now, with their targets (the window opens
    only when there is one)."""
    leader = game._leader(side)
    if leader is None or game.stratagem_phase_uses >= int(game.settings["stratagems_per_phase"]):
        return []
    out = []
    for s in game.stratagems.get(side, ()):
        if uses_left(game, side, s) <= 0:
            continue
        t = targets(game, side, s)
        if t:
            out.append((s, t))
    return out


def use(game, side: str, name: str, target: str | None) -> None:
    """Apply a checked use: count it, log it, then its effect on each model."""
    s = find(game, side, name)
    leader = game._leader(side)
    used = game.stratagem_used.setdefault(side, {}).setdefault(name, [0, 0])
    used[0] += 1
    used[1] += 1
    game.stratagem_phase_uses += 1
    hit = [target] if target is not None else targets(game, side, s)
    eff = s["effect"]
    game.emit("stratagem", {"side": side, "name": name, "leader": leader, "targets": hit,
                            "effect": eff, "uses_left": uses_left(game, side, s),
                            "per": s["per"]})
    why = f"Stratagem {name}"
    for t in hit:
        sp.apply_effect(game, t, eff, why, add_states=False)
        lasting = tuple(_give_states(game, t, eff, why))
        if eff["mods"] or lasting:
            add_boost(game, t, name, side, eff["mods"], eff["duration"], lasting)
        if eff["ap"]:
            add_boost(game, t, name, side, {"AP": eff["ap"]}, "upkeep", ())


def _give_states(game, model: str, eff: dict, why: str) -> list[str]:
    """Give the effect's States; return those this boost is a source of (it ends them
    when it ends, unless another source still gives them: docs/rulings.md, "A State
    given by two sources"). A new State is the boost's; one the model has with a
    source that ends (an expiry mark, another boost) gets this boost as one more
    source; one that lasts until removed stays so. A ``game`` Stratagem is a source
    with no end: the State lasts until removed (``EldfallGame._given_again``)."""
    m = game.models[model]
    ends = eff["duration"] != "game"
    out = []
    for st in eff["states"]:
        had = st in m.states
        if had and ends:
            if m.expiry.get(st) or gives(m, st):
                out.append(st)
            continue
        game.add_state(model, st, why)
        if ends and st in m.states:
            out.append(st)
    return out


def gives(m, state: str) -> bool:
    """A lasting Stratagem boost of the model is a source of ``state``."""
    return any(state in b[4] for b in m.boosts)


def forget(m, state: str) -> None:
    """No boost is a source of ``state`` any more (it lasts until removed, or it was
    removed and is given anew)."""
    if gives(m, state):
        m.boosts = tuple(b[:4] + (tuple(x for x in b[4] if x != state),) for b in m.boosts)


def add_boost(game, model: str, name: str, side: str, mods: dict, until: str, states) -> None:
    m = game.models[model]
    m.boosts = tuple(m.boosts) + ((name, side, dict(mods), until, tuple(states)),)


def end_boosts(game, side: str, until: str) -> None:
    """The Stratagem effects of ``side`` lasting ``until`` end now (its mods go,
    and the states they gave unless another source still gives them: another boost,
    or an expiry mark)."""
    for m in game.models.values():
        ending = [b for b in m.boosts if b[1] == side and b[3] == until]
        if not ending:
            continue
        m.boosts = tuple(b for b in m.boosts if not (b[1] == side and b[3] == until))
        kept = {st for b in m.boosts for st in b[4]}
        for b in ending:
            if until != "upkeep":
                game.emit("stratagem_ends", {"model": m.id, "name": b[0], "side": side,
                                             "mods": b[2], "states": list(b[4])})
            for st in b[4]:
                if st not in kept and not m.expiry.get(st):
                    game.remove_state(m.id, st, f"Stratagem {b[0]} ends")


def boost_mod(m, stat: str) -> int:
    return sum(int(b[2].get(stat, 0)) for b in m.boosts)
