"""Model profiles: ``models/<party>.yaml`` -> :class:`~engine.scene.Profile`.

A scene names a profile ``party#name``: the profile ``name`` of the file
``<models_dir>/<party>.yaml``. References are names, never paths. The file
format is documented in docs/scene-format.md ("Profiles").

Every model also has two implicit attack profiles from the rulebook
(eldfall-actions.txt, Melee Attack): **Unarmed** (PW: T or AG-3, taken as
the higher, RCH 0, STK 1, Unkeen) and, when it carries a shield, **Shield
Bash** (PW: T, RCH 0, STK 1, Knockback 1, Unkeen). :func:`model_weapons`
adds them, computed from a model's merged stats.
"""
from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from engine.errors import InputError, Problem
from engine.scene import HP_ZERO, STAT_NAMES, Profile, Spell, Weapon, default_models_dir

PARTY_KEYS = ("party", "game", "notes", "profiles")
# plus one block per other game ("norova": the Legends of Norova sheet), kept
# as plain data in Profile.extra[game] for that game's rules to read and check
GAME_BLOCKS = ("norova",)
PROFILE_KEYS = ("name", "size", "leader", "stats", "classes", "traits", "skills", "affinities",
                "items", "spells", "notes") + GAME_BLOCKS
ITEM_KINDS = ("melee", "ranged", "shield", "gear")
ITEM_KEYS = {
    "melee": ("name", "kind", "rch", "pw", "stk", "traits", "hands", "notes"),
    "ranged": ("name", "kind", "pw", "stk", "traits", "hands", "bands", "notes"),
    "shield": ("name", "kind", "traits", "hands", "notes"),
    "gear": ("name", "kind", "traits", "hands", "notes"),
}
ITEM_REQUIRED = {"melee": ("name", "rch", "pw"), "ranged": ("name", "pw", "bands"),
                 "shield": ("name",), "gear": ("name",)}
# the five spell types of the rulebook (eldfall-actions.txt, Spell Attack)
STAR_PW = "\u272f"                  # ✯: an Enchantment whose target's Attacks gain the Spell type
SPELL_TYPES = ("Sorcery", "Healing", "Enchantment", "Conjuration", "Transmutation")
SPELL_KEYS = ("name", "type", "affinity", "mana", "pw", "stk", "range", "melee", "template",
              "target", "bands", "traits", "effect")
SPELL_REQUIRED = ("name", "type", "affinity", "mana")
SPELL_TARGETS = ("enemy", "ally", "self", "any")
TEMPLATES = ("circular-s", "circular-l", "spray-s", "spray-l")
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
_BAND_RE = re.compile(r'^\s*(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)\s*(?:"|in|inches)?\s*$')

MAX_BAND = 120.0                # inches: a range band ends at most here (a spell's range, too)
# what the Eldfall rules read from a spell's effect text (rules/eldfall/spells.py,
# spell_effect): "+2 ARM" (summed per stat) and "regains 1 HP" (the first one);
# each within a Stratagem's bounds (-20..20 per stat, 0..20 HP healed)
_EFFECT_MOD = re.compile(r"([+-]\d+)\s*(STA|SPD|ARM|HP|OFF|DEF|ACC|INT|AG|T|M)\b")
_EFFECT_HEAL = re.compile(r"regains?\s+(\d+)\s*HP", re.I)
MAX_EFFECT = 20

_CACHE: dict[tuple[str, str], dict[str, Profile]] = {}
_CACHE_WARNINGS: dict[tuple[str, str], tuple[Problem, ...]] = {}
# the warnings of the party file last loaded under each shown name (party_warnings)
_WARNINGS: dict[str, tuple[Problem, ...]] = {}

# the traits (and the skill Foresight) the referee's rules read, by these exact names
# (eldfall-facts.md "Traits the core rules name"; rules/eldfall/combat.py has_trait); a
# number after one ("Knockback (2)", "Knockback 2") is its value
RULES_TRAITS = ("Knockback", "Knockdown", "Surprise Attack", "Unkeen", "Poison I", "Poison II",
                "Armor-Piercing", "Ignore Armor", "Targetless", "Vigilance", "Acute Senses",
                "Watchful", "Foresight", "Snipe")
_TRAIT_VALUE = re.compile(r"\s*\(?\s*\d+(?:\.\d+)?\s*\)?\s*$")


def _display(path: Path) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:
        return str(path)
    return str(path) if rel.startswith("..") else rel


def known_parties(models_dir: str | Path | None = None) -> list[str]:
    folder = Path(models_dir) if models_dir is not None else default_models_dir()
    try:
        return sorted(p.stem for p in folder.glob("*.yaml") if p.is_file())
    except OSError:
        return []


def _names_profile(ref: str, display: str) -> bool:
    """Does ``ref`` name the profile whose display name is ``display``: the whole name in
    any case, spelt with - for spaces, or one of its words (``kaelen``: Kaelen the Knight)?"""
    ref = ref.lower()
    words = {w.lower() for w in re.split(r"[^\w'-]+", display) if len(w) > 3}
    return ref in words or ref in (display.lower(), re.sub(r"[^\w-]+", "-", display).strip("-").lower())


def load_party(name: str, models_dir: str | Path | None = None) -> dict[str, Profile]:
    """All profiles of ``<models_dir>/<name>.yaml``, by profile name, in file
    order. Raises ``InputError`` (every problem of the file) if it is bad."""
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise InputError(Problem("<party>", None, "", f"{name!r} is not a party name (a file name in models/, without .yaml)"))
    folder = Path(models_dir) if models_dir is not None else default_models_dir()
    path = folder / f"{name}.yaml"
    file = _display(path)
    from engine.validate import read_input_file
    data = read_input_file(path, file)     # a FIFO or a device is refused, never read
    import hashlib
    key = (str(path.resolve()), hashlib.sha256(data).hexdigest())   # by content: an edit is never stale
    if key not in _CACHE:
        if len(_CACHE) > 64:
            _CACHE.clear()
            _CACHE_WARNINGS.clear()
        try:
            found: list[Problem] = []
            _CACHE[key] = _read_party(path, file, name, data, found)
            _CACHE_WARNINGS[key] = tuple(found)
        except InputError:
            raise
        except Exception as exc:
            raise InputError(Problem(file, None, "", f"internal error while loading: {type(exc).__name__}: {exc}")) from None
    _WARNINGS[file] = _CACHE_WARNINGS.get(key, ())
    return dict(_CACHE[key])


def load_profile(ref: str, models_dir: str | Path | None = None) -> Profile:
    """The profile ``party#name``; raises ``InputError`` if it does not resolve."""
    folder = Path(models_dir) if models_dir is not None else default_models_dir()
    profile, why, problems = resolve_ref(ref, folder)
    if profile is None:
        raise InputError(list(problems) + [Problem("<profile>", None, "profile", why or "does not resolve")])
    return profile


def resolve_ref(ref: str, models_dir: Path) -> tuple[Profile | None, str | None, list[Problem]]:
    """``(profile, None, [])`` or ``(None, why, problems of the party file)``."""
    if not isinstance(ref, str):
        return None, f"expected party#name, got {ref!r}", []
    if "/" in ref or "\\" in ref or ref.endswith((".yaml", ".yml")):
        return None, f"'{ref}': a profile is named party#name (a party file in models/), never a path", []
    if ref.count("#") != 1:
        return None, f"expected party#name (e.g. sample-red#archer), got '{ref}'", []
    party, name = ref.split("#")
    if not NAME_RE.match(party) or not NAME_RE.match(name):
        return None, f"expected party#name with letters, digits, - and _ (e.g. sample-red#archer), got '{ref}'", []
    folder = Path(models_dir)
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        return None, f"no party '{party}': the models folder '{_display(folder)}' {what}", []
    known = known_parties(models_dir)
    if party not in known:
        from engine.validate import suggest
        guess = suggest(party, known)
        hint = f"; did you mean '{guess}'?" if guess else (f" (known: {', '.join(known)})" if known else "")
        if guess is None and Path(models_dir).resolve() == default_models_dir().resolve():
            hint += "; a party file of your own: --models-dir DIR"
        other = next((folder / f"{party}{ext}" for ext in (".yml", ".YAML", ".YML", ".yaml.txt")
                      if (folder / f"{party}{ext}").is_file()), None)
        if other is not None:
            # `mine.yml` beside the scene's `mine#fighter`: only NAME.yaml is read
            hint += f"; {_display(other)} is there, but a party file is named {party}.yaml"
        return None, f"no party '{party}' in {_display(Path(models_dir))}/{hint}", []
    try:
        profiles = load_party(party, models_dir)
    except InputError as exc:
        # the party file's problems come first (engine.scene lists other files' first)
        return None, f"party '{party}' has errors (listed above)", exc.problems
    if name not in profiles:
        from engine.validate import suggest
        guess = suggest(name, profiles)
        hint = f"; did you mean '{guess}'?" if guess else f" (it has: {', '.join(profiles)})"
        if guess is None:
            # the name printed on the card ("Kaelen the Knight"), or a word of it, for its key
            by_name = [k for k, prof in profiles.items() if _names_profile(name, str(prof.name))]
            if len(by_name) == 1:
                hint = f"; did you mean '{by_name[0]}' ({profiles[by_name[0]].name})?"
        return None, f"no profile '{name}' in {_display(Path(models_dir) / (party + '.yaml'))}{hint}", []
    return profiles[name], None, []


# --------------------------------------------------------------------------- #
def _read_party(path: Path, file: str, party: str, data: bytes,
                warnings: list | None = None) -> dict[str, Profile]:
    from engine.units import size_table
    from engine.validate import Checker, read_yaml

    from engine.validate import MAX_FILE_BYTES
    if len(data) > MAX_FILE_BYTES:
        raise InputError(Problem(file, None, "", f"file too large ({len(data)} bytes; the limit is {MAX_FILE_BYTES})"))
    value, lines, _ = read_yaml(path, display=file, data=data)
    ck = Checker(file, lines)
    doc = ck.mapping(value, (), "a mapping with party and profiles")
    if doc is None:
        ck.raise_if_any()
    ck.keys(doc, (), PARTY_KEYS, required=("party", "profiles"), what="a party file")
    title = ck.string(doc["party"], ("party",)) if "party" in doc else None
    if "game" in doc:
        from engine.scene import GAMES
        ck.string(doc["game"], ("game",), choices=GAMES)
    out: dict[str, Profile] = {}
    profs = ck.mapping(doc.get("profiles"), ("profiles",), "a mapping name -> profile") if "profiles" in doc else None
    leaders = []
    for pname, body in (profs or {}).items():
        p = ("profiles", pname)
        if not isinstance(pname, str) or not NAME_RE.match(pname):
            ck.error(p, f"{pname!r} is not a profile name (letters, digits, - and _)")
            continue
        prof = _profile(ck, body, p, f"{party}#{pname}", pname, title or party, file, size_table())
        if prof is not None:
            out[pname] = prof
            if prof.leader:
                leaders.append(pname)
    if profs is not None and not profs:
        ck.error(("profiles",), "no profiles")
    ck.raise_if_any()
    if warnings is not None:
        warnings.extend(ck.warnings)
    return out


def _profile(ck, body, p, ref, pname, party_title, file, sizes) -> Profile | None:
    d = ck.mapping(body, p, "a profile (a mapping with size, stats, ...)")
    if d is None:
        return None
    before = len(ck.problems)
    ck.keys(d, p, PROFILE_KEYS, required=("stats",), what="a profile")
    display = ck.string(d["name"], p + ("name",)) if "name" in d else pname
    size = d.get("size", "M")
    if not isinstance(size, str) or size not in sizes:
        from engine.scene import unknown_size
        ck.error(p + ("size",), unknown_size(size, sizes))
    leader = ck.boolean(d["leader"], p + ("leader",)) if "leader" in d else False
    stats: dict[str, int] = {}
    if "stats" in d:
        sd = ck.mapping(d["stats"], p + ("stats",), "a mapping of stats (STA, SPD, ...)")
        if sd is not None:
            ck.keys(sd, p + ("stats",), STAT_NAMES, required=STAT_NAMES, what="stats")
            for k in STAT_NAMES:
                if k in sd:
                    n = ck.number(sd[k], p + ("stats", k), integer=True, lo=0, hi=99)
                    if n == 0 and k == "HP":
                        ck.error(p + ("stats", k), HP_ZERO)
                    elif n is not None:
                        stats[k] = int(n)
    lists = {}
    for key in ("classes", "traits", "skills", "affinities"):
        lists[key] = ck.strings(d[key], p + (key,)) if key in d else ()
    for key in ("traits", "skills"):
        _trait_spelling(ck, lists[key], p + (key,))
    weapons: list[Weapon] = []
    gear: list[str] = []
    shield = False
    hands = 0
    if "items" in d:
        items = ck.sequence(d["items"], p + ("items",), "a list of items")
        for i, it in enumerate(items or []):
            res = _item(ck, it, p + ("items", i))
            if res is None:
                continue
            kind, obj, h = res
            hands += h
            if kind == "shield":
                shield = True
                gear.append(obj)
            elif kind == "gear":
                gear.append(obj)
            else:
                weapons.append(obj)
    spells: list[Spell] = []
    if "spells" in d:
        sp = ck.sequence(d["spells"], p + ("spells",), "a list of spells")
        for i, s in enumerate(sp or []):
            spell = _spell(ck, s, p + ("spells", i), lists.get("affinities") or ())
            if spell is not None:
                spells.append(spell)
        if spells and not lists.get("affinities"):
            ck.error(p + ("affinities",), "missing: a caster needs the Affinity of its spells' elements",
                     line=ck.lines.of(p + ("spells",)))
    for game in GAME_BLOCKS:
        if game in d:
            ck.mapping(d[game], p + (game,), f"a mapping (the {game} sheet)")
    # names as written (a bad item still has its name), each repeat at its own line
    seen: dict[str, int | None] = {}
    for key in ("items", "spells"):
        for i, it in enumerate(d.get(key) if isinstance(d.get(key), list) else []):
            n = it.get("name") if isinstance(it, dict) else None
            if not isinstance(n, str):
                continue
            q = p + (key, i, "name")
            if n in seen:
                ck.error(q, f"item or spell '{n}' is listed twice (first at line {seen[n]})")
            else:
                seen[n] = ck.lines.of(q)
    if len(ck.problems) != before or display is None or leader is None or any(v is None for v in lists.values()):
        return None
    extra: dict[str, Any] = {"hands_used": hands}
    if "notes" in d and isinstance(d["notes"], str):
        extra["notes"] = d["notes"]
    for game in GAME_BLOCKS:
        if game in d:
            extra[game] = d[game]
    return Profile(ref=ref, name=display, stats=stats, size=size, classes=lists["classes"],
                   traits=lists["traits"], skills=lists["skills"], affinities=lists["affinities"],
                   weapons=tuple(weapons), spells=tuple(spells), leader=bool(leader), extra=extra,
                   shield=shield, gear=tuple(gear), party=party_title, file=file,
                   line=ck.lines.of(p) or 0)


def _trait_spelling(ck, traits, p) -> None:
    """A warning for each trait written unlike the name the rules read but close to it
    (``Armour-Piercing``, ``Acute Sense``): the rules match trait names letter for letter
    (in any case), so the model would play without it. A trait far from all of them is
    one of the book's the referee does not model, and is left alone."""
    import difflib
    lower = {t.casefold(): t for t in RULES_TRAITS}
    for j, t in enumerate(traits or ()):
        if not isinstance(t, str):
            continue
        name = " ".join(t.split())
        # as the rules read it (rules/eldfall/combat.py trait_name): "Poison (II)" is Poison II
        base = (_TRAIT_VALUE.sub("", name) if not name.startswith("Poison")
                else " ".join(name.replace("(", " ").replace(")", " ").split()))
        if name in RULES_TRAITS or base in RULES_TRAITS or base.casefold() in lower:
            # in another case only ("acute senses"): the rules read a trait in any case
            # (rules/eldfall/combat.py trait_key), as line of sight and measure do
            continue
        guess = lower.get(base.casefold())
        if guess is None:
            hits = difflib.get_close_matches(base.casefold(), list(lower), n=1, cutoff=0.85)
            guess = lower[hits[0]] if hits else None
        if guess is not None:
            ck.warn(p + (j,), f"{t!r} is not spelt as the rules read it: did you mean {guess!r}? (the rules "
                              f"match the name letter for letter, in any case: as written, the game may play the model without it)")


def party_warnings(file: str) -> tuple[Problem, ...]:
    """The warnings of the party file shown as ``file`` (``Profile.file``), as it was last
    loaded: a trait spelt unlike the one the rules read."""
    return _WARNINGS.get(file, ())


def _describe(v) -> str:
    from engine.validate import describe
    return describe(v)


def _bands(ck, value, p) -> tuple[tuple[float, float, int], ...] | None:
    """``{"0-20": 0, "21-40": -6}`` -> ((0, 20, 0), (21, 40, -6)). Every bad
    band is reported, and every gap or overlap between the good ones."""
    bd = ck.mapping(value, p, 'a mapping of range bands, e.g. {"0-20": 0, "21-40": -6}')
    if bd is None:
        return None
    before = len(ck.problems)
    out = []
    first_ok = False                    # the first band as written is a good one
    for i, (key, mod) in enumerate(bd.items()):
        m = _BAND_RE.match(str(key))
        if not isinstance(key, str) or not m:
            ck.error(p + (key,), f'expected a band such as "0-20", got {_describe(key)}')
            continue
        lo, hi = float(m.group(1)), float(m.group(2))
        n = ck.number(mod, p + (key,), integer=True, lo=-20, hi=20)
        if hi > MAX_BAND:
            # also a band written with hundreds of digits, which float() reads as inf
            ck.error(p + (key,), f"a band may reach at most {MAX_BAND:g} inches (as far as a spell's "
                                 f"range), got '{key}'" if len(key) <= 40 else
                                 f"a band may reach at most {MAX_BAND:g} inches (as far as a spell's "
                                 f"range), got a number of {len(m.group(2))} characters")
            continue
        if hi <= lo:
            ck.error(p + (key,), f"the band ends before it starts ({lo:g} to {hi:g})")
            continue
        first_ok = first_ok or i == 0
        if n is not None:
            out.append((lo, hi, int(n)))
        else:
            out.append((lo, hi, None))      # its modifier is reported; its range is still checked
    if not bd:
        ck.error(p, "no bands")
        return None
    if first_ok and out[0][0] != 0:
        ck.error(p, f"the first band must start at 0, it starts at {out[0][0]:g}")
    for (a0, a1, _), (b0, b1, _) in zip(out, out[1:]):
        if b0 <= a1:
            ck.error(p, f"bands overlap or are out of order ({a0:g}-{a1:g} then {b0:g}-{b1:g})")
        elif b0 - a1 > 1 + 1e-9:
            ck.error(p, f"gap between bands ({a0:g}-{a1:g} then {b0:g}-{b1:g})")
    if len(ck.problems) != before:
        return None
    return tuple(out)


def _item(ck, it, p):
    d = ck.mapping(it, p, "an item (a mapping with name and kind)")
    if d is None:
        return None
    before = len(ck.problems)
    kind = ck.string(d.get("kind"), p + ("kind",), choices=ITEM_KINDS) if "kind" in d else None
    if "kind" not in d:
        ck.error(p + ("kind",), f"missing (one of {', '.join(ITEM_KINDS)})", line=ck.lines.of(p))
        return None
    if kind is None:
        return None
    ck.keys(d, p, ITEM_KEYS[kind], required=ITEM_REQUIRED[kind], what=f"a {kind} item")
    name = ck.string(d["name"], p + ("name",)) if "name" in d else None
    traits = ck.strings(d["traits"], p + ("traits",)) if "traits" in d else ()
    _trait_spelling(ck, traits, p + ("traits",))
    hands = ck.number(d["hands"], p + ("hands",), integer=True, lo=0, hi=2) if "hands" in d else (
        0 if kind == "gear" else 1)
    if kind in ("shield", "gear"):
        if len(ck.problems) != before or name is None:
            return None
        return kind, name, int(hands or 0)
    pw = ck.number(d["pw"], p + ("pw",), integer=True, lo=0, hi=40) if "pw" in d else None
    stk = ck.number(d["stk"], p + ("stk",), integer=True, lo=1, hi=20) if "stk" in d else 1
    rch = ck.number(d["rch"], p + ("rch",), nonneg=True, hi=36) if "rch" in d else 0.0
    bands = _bands(ck, d["bands"], p + ("bands",)) if "bands" in d else ()
    if len(ck.problems) != before or None in (name, pw, stk, rch, bands, traits, hands):
        return None
    return kind, Weapon(name=name, kind=kind, rch=float(rch), pw=int(pw), stk=int(stk), traits=tuple(traits),
                        bands=tuple(bands), hands=int(hands)), int(hands)


def _spell(ck, s, p, affinities) -> Spell | None:
    d = ck.mapping(s, p, "a spell (a mapping with name, type, affinity, mana, ...)")
    if d is None:
        return None
    before = len(ck.problems)
    ck.keys(d, p, SPELL_KEYS, required=SPELL_REQUIRED, what="a spell")
    name = ck.string(d["name"], p + ("name",)) if "name" in d else None
    stype = ck.string(d["type"], p + ("type",), choices=SPELL_TYPES) if "type" in d else None
    affinity = ck.string(d["affinity"], p + ("affinity",)) if "affinity" in d else None
    if affinity is not None and affinities and affinity not in affinities:
        ck.error(p + ("affinity",), f"'{affinity}' is not among the profile's affinities ({', '.join(affinities)}); "
                                    "a caster needs the Affinity of the spell's element")
    mana = ck.number(d["mana"], p + ("mana",), integer=True, lo=0, hi=20) if "mana" in d else None
    pw = _spell_pw(ck, d["pw"], p + ("pw",), stype) if "pw" in d else 0
    stk = ck.number(d["stk"], p + ("stk",), integer=True, lo=1, hi=20) if "stk" in d else 1
    rng = ck.number(d["range"], p + ("range",), nonneg=True, hi=MAX_BAND) if "range" in d else 0.0
    melee = ck.boolean(d["melee"], p + ("melee",)) if "melee" in d else False
    template = ck.string(d["template"], p + ("template",), choices=TEMPLATES) if "template" in d else ""
    target = ck.string(d["target"], p + ("target",), choices=SPELL_TARGETS) if "target" in d else (
        "ally" if stype == "Healing" else ("self" if stype in ("Conjuration", "Transmutation") else "enemy"))
    bands = _bands(ck, d["bands"], p + ("bands",)) if "bands" in d else ()
    traits = ck.strings(d["traits"], p + ("traits",)) if "traits" in d else ()
    _trait_spelling(ck, traits, p + ("traits",))
    effect = ck.string(d["effect"], p + ("effect",), allow_empty=True, lines=True) if "effect" in d else ""
    if effect:
        _effect_numbers(ck, effect, p + ("effect",))
    if stype == "Healing" and target == "enemy":
        ck.error(p + ("target",), "a Healing spell is cast only as an Assist (ally, self or any)")
    if len(ck.problems) != before or None in (name, stype, affinity, mana, pw, stk, rng, melee, template,
                                               target, bands, traits, effect):
        return None
    return Spell(name=name, type=stype, affinity=affinity, mana=int(mana),
                 pw=pw if pw == STAR_PW else int(pw), stk=int(stk),
                 rng=float(rng), traits=tuple(traits), effect=effect, target=target, melee=bool(melee),
                 template=template, bands=tuple(bands))


def _spell_pw(ck, value, p, stype: str | None):
    """A spell's PW: a whole number 0-40, or ``✯`` (also written ``*``) on an Enchantment:
    "If PW = ✯: target's Attacks gain the Spell type" (eldfall-actions.txt, Spell Types)."""
    if isinstance(value, str) and value.strip() in (STAR_PW, "*"):
        if stype is not None and stype != "Enchantment":
            ck.error(p, f"PW {STAR_PW} is an Enchantment's (its target's Attacks gain the Spell type), "
                        f"not a {stype} spell's: give a whole number 0-40")
            return None
        return STAR_PW
    return ck.number(value, p, integer=True, lo=0, hi=40)


def _effect_numbers(ck, text: str, p) -> None:
    """The numbers the rules read from a spell's effect text stay within a
    Stratagem's bounds: a stat changed by -20..20 in all, 0..20 HP regained (a
    number of thousands of digits would stop the game mid-cast)."""
    def shown(n: str) -> str:
        return n if len(n) <= 12 else f"a number of {len(n.lstrip('+-'))} digits"
    total: dict[str, int] = {}
    for n, stat in _EFFECT_MOD.findall(text):
        if len(n) > 6:
            ck.error(p, f"changes {stat} by {shown(n)}: a spell changes a stat by -{MAX_EFFECT} to +{MAX_EFFECT}")
            return
        total[stat] = total.get(stat, 0) + int(n)
    for stat, n in total.items():
        if abs(n) > MAX_EFFECT:
            ck.error(p, f"changes {stat} by {n:+d} in all: a spell changes a stat by "
                        f"-{MAX_EFFECT} to +{MAX_EFFECT}")
    h = _EFFECT_HEAL.search(text)
    if h and (len(h.group(1)) > 6 or int(h.group(1)) > MAX_EFFECT):
        ck.error(p, f"regains {shown(h.group(1))} HP: a spell heals at most {MAX_EFFECT} HP")


# --------------------------------------------------------------------------- #
def unarmed(stats: dict[str, int]) -> Weapon:
    """Unarmed (eldfall-actions.txt: PW T or AG-3, RCH 0, STK 1, Unkeen).
    PW is the higher of T and AG-3 (docs/rulings.md ("Scenes, profiles and placement"))."""
    t = stats.get("T")
    ag = stats.get("AG")
    options = [v for v in (t, None if ag is None else ag - 3) if v is not None]
    pw = max(0, max(options)) if options else 0
    return Weapon(name="Unarmed", kind="melee", rch=0.0, pw=int(pw), stk=1, traits=("Unkeen",), hands=0)


def shield_bash(stats: dict[str, int]) -> Weapon:
    """Shield Bash (eldfall-actions.txt: PW T, RCH 0, STK 1, Knockback 1, Unkeen)."""
    return Weapon(name="Shield Bash", kind="melee", rch=0.0, pw=int(stats.get("T", 0)), stk=1,
                  traits=("Knockback (1)", "Unkeen"), hands=0)


def model_weapons(profile: Profile | None, stats: dict[str, int]) -> tuple[Weapon, ...]:
    """A model's attack profiles: its weapons, Shield Bash if it has a
    shield, and Unarmed, from the model's merged ``stats``."""
    out = list(profile.weapons) if profile is not None else []
    if profile is not None and profile.shield:
        out.append(shield_bash(stats))
    out.append(unarmed(stats))
    return tuple(out)
