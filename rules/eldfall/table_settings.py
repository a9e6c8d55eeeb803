"""Settings for the Eldfall data tables: the rulings players could disagree on.

Every field is a place where the user's seed pages contradict each other or
are silent; the default is the ruling recorded in
``docs/rulings.md ("Eldfall tables")`` (each field names its heading there).

    >>> from rules.eldfall.table_settings import TableSettings
    >>> s = TableSettings.from_mapping({"trade_as_reaction": True})
    >>> s.trade_as_reaction
    True

``from_mapping`` validates a plain mapping (from a scene's or a game's
``settings:`` block) and raises :class:`TableDataError` naming every bad key.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass, fields
from typing import Any, Mapping


class TableDataError(ValueError):
    """Bad table data or bad table settings.

    ``problems`` is a list of ``(file, line, keypath, message)`` tuples, the
    same shape as ``engine.errors.Problem`` (the rules package may not import
    the engine; a caller in ``tools/`` converts them with
    ``InputError([Problem(*p) for p in err.problems])``).
    """

    def __init__(self, problems: list[tuple[str, int | None, str, str]]):
        self.problems = list(problems)
        lines = []
        for file, line, path, message in self.problems:
            where = f"{file}:{line}" if line else file
            lines.append(f"{where}: {path}: {message}" if path else f"{where}: {message}")
        super().__init__("\n".join(lines))


# choices for the string-valued settings
_CHOICES: dict[str, tuple[str, ...]] = {
    "shrouded_actions": ("table", "any"),
    "reaction_qualification": ("table", "all"),
    "multiple_halving": ("stack", "once"),
    "shrouded_reactions": ("actions", "dodge"),
    "awareness_ag": ("profile", "modified"),
    "turn_on_hit": ("choose", "always", "face_attacker", "never"),
}

# the number-valued settings: (lowest, highest), both allowed
_RANGES: dict[str, tuple[float, float]] = {
    "knockback_max_angle_deg": (0.0, 90.0),
}


@dataclass(frozen=True)
class TableSettings:
    """Rulings on the seed tables (defaults = the recorded rulings).

    trade_as_reaction
        False: Trade is Active Role only (Actions page, "By Role" table).
        True: Trade may be a Reaction (Reactions page, "Available Reactions").
        Ruling "Trade as a reaction".
    engaged_melee_spells
        True: an Engaged model may declare a Spell Attack with a melee-type
        spell (a melee spell attack *is* a Melee Attack, Actions page
        "Melee Attack"); False: Spell Attack is forbidden while Engaged.
        Ruling "Spell Attack while Engaged".
    shrouded_actions
        "table": a Shrouded model may only declare Nothing, Dodge or an Attack
        (Actions page "By State"); "any": it may declare anything, and any
        declaration but Nothing cancels Shrouded (States page, Shrouded).
        Ruling "What a Shrouded model may declare".
    shrouded_reactions
        "actions": a Shrouded model reacts as the Actions page's By State row
        allows (Nothing, Dodge, Attack); "dodge": only Dodge (and Nothing),
        as the Reactions page's "Restrictions by State" row prints.
        Ruling "Reactions of a Shrouded model".
    shrouded_dodge_keeps_state
        False: declaring Dodge cancels Shrouded like every Normal Action other
        than Nothing (State Priorities); True: Dodge is "free" (States summary
        "Dodge only freely"). Ruling "Shrouded and Dodge".
    crouch_change_after_failed_dodge
        True: after a Dodge, successful or not, the model may enter or cancel
        Crouched (Actions page, Dodge); False: only after a successful Dodge
        (States page, Crouched). Immobilized models need a success either way.
        Ruling "Crouched after a failed Dodge".
    panicked_engaged_needs_failed_roll
        True: the "Panicked and Engaged -> Idle + Dodge" priority applies only
        on a failed Morale roll (States page, Panicked); False: always (the
        State Priorities table does not mention the roll).
        Ruling "Panicked and Engaged".
    multiple_halving
        "stack": each halving source halves again (Crouched + Slowed = SPD/4);
        "once": a stat is halved at most once and doubled at most once.
        Ruling "Several halvings of one stat".
    reaction_qualification
        "table": the Available Reactions table's LoS column as printed: Attacks
        and Perceive need LoS to the Activated model at some point of its
        movement, Dodge needs LoS or Awareness, Assist, Interact, Trade and
        Nothing ("—") need neither (so a Blinded model can Assist itself, as
        the Restrictions by State table allows); "all": every Reaction but
        Dodge (LoS or Awareness) and Nothing needs LoS ("A Reaction normally
        requires Line of Sight").
        Ruling "Which reactions need LoS".
    awareness_required_for_all_reactions
        False: only an Engaged model is barred from reacting against models
        outside its Awareness; True: every reacting model is (the Reactions
        page "Notes" read literally). Ruling "Reacting outside Awareness".
    jump_round_up
        False: Jump distance is SPD / 2 exactly (as printed; Climb and the
        Dodge move say "rounded up", Jump does not); True: rounded up.
        Ruling "Jump distance rounding".
    awareness_ag
        "profile": Awareness (and the Casting Aura) is the profile's AG inches (+3
        Acute Senses); "modified": the model's AG as modified at the moment (States,
        environments, effects, Enchantments: a Crippled model's Awareness halves).
        Ruling "Awareness and Casting Aura".
    turn_on_hit
        "choose": after the Resolution Step each model that suffered a Hit (still
        on the table, not Dead, Incapacitated or Petrified) and has an attacker
        that hit it outside its Front arc may turn: its player chooses a new
        facing or keeps it (a ``turn`` decision, pending "turn-on-hit"); a model
        hit only from its Front keeps its facing unasked. "always": the decision
        after every Hit, from the front too (the rule to the letter,
        eldfall-facts.md "Line of sight"); "face_attacker": no decision, the hit
        model turns to face the first attacker that hit it (quicker for bots and
        attract mode); "never": no turning when Hit.
        Ruling "Turning when Hit".
    knockback_max_angle_deg
        Knockback (X) moves the hit model "away from the attacker, direction of
        the attacker's choice" (eldfall-facts.md, Movement): a declared push
        direction (``Declare.knockback``) is legal when it makes an angle
        strictly less than this many degrees with the line directly away from
        the attacker (90: any direction that takes the model farther away; 0:
        only directly away). A number from 0 to 90. Ruling "Knockback direction".
    """

    trade_as_reaction: bool = False
    engaged_melee_spells: bool = True
    shrouded_actions: str = "table"
    shrouded_reactions: str = "actions"
    shrouded_dodge_keeps_state: bool = False
    crouch_change_after_failed_dodge: bool = True
    panicked_engaged_needs_failed_roll: bool = True
    multiple_halving: str = "stack"
    reaction_qualification: str = "table"
    awareness_required_for_all_reactions: bool = False
    jump_round_up: bool = False
    awareness_ag: str = "profile"
    turn_on_hit: str = "choose"
    knockback_max_angle_deg: float = 90.0

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any] | None, file: str = "<settings>",
                     prefix: str = "settings") -> "TableSettings":
        """Build settings from a mapping; unknown keys and bad values raise
        :class:`TableDataError` listing every problem."""
        if data is None:
            return cls()
        if not isinstance(data, Mapping):
            raise TableDataError([(file, None, prefix, "must be a mapping of setting: value")])
        from rules.core.settings import did_you_mean, given_words
        known = {f.name: f for f in fields(cls)}
        problems = []
        values: dict[str, Any] = {}
        for key, value in data.items():
            path = f"{prefix}.{key}"
            if key not in known:
                problems.append((file, None, path, f"unknown setting{did_you_mean(key, known)}; known: "
                                 + ", ".join(sorted(known))))
                continue
            if key in _CHOICES:
                if value not in _CHOICES[key]:
                    problems.append((file, None, path, f"must be one of {', '.join(_CHOICES[key])}, not {given_words(value)}"))
                    continue
            elif key in _RANGES:
                lo, hi = _RANGES[key]
                if isinstance(value, bool) or not isinstance(value, (int, float)) or \
                        not lo <= float(value) <= hi:
                    problems.append((file, None, path, f"must be a number from {lo:g} to {hi:g}, not {given_words(value)}"))
                    continue
                value = float(value)
            elif not isinstance(value, bool):
                problems.append((file, None, path, f"must be true or false, not {given_words(value)}"))
                continue
            values[key] = value
        if problems:
            raise TableDataError(problems)
        return cls(**values)

    def as_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


DEFAULT_SETTINGS = TableSettings()


def resolve(settings: TableSettings | Mapping[str, Any] | None) -> TableSettings:
    """Accept a TableSettings, a plain mapping, or None (the defaults)."""
    if settings is None:
        return DEFAULT_SETTINGS
    if isinstance(settings, TableSettings):
        return settings
    try:
        key = frozenset(settings.items())
    except (TypeError, AttributeError):
        return TableSettings.from_mapping(settings)
    return _from_items(key)


@functools.lru_cache(maxsize=256)
def _from_items(items: frozenset) -> TableSettings:
    return TableSettings.from_mapping(dict(items))
