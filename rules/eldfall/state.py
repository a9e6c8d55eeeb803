"""The mutable state of an Eldfall game: models, activations, the pending decision."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rules.core.units import Unit

# The states that change a stat (seeds/eldfall-states.txt, Summary Table, "Key
# Stat Changes"): halvings apply after every other modifier, rounding up.
STAT_HALVINGS: dict[str, tuple[str, ...]] = {
    "Confused": ("OFF", "DEF", "ACC", "INT", "AG", "M"),
    "Crippled": ("SPD", "AG"),
    "Slowed": ("SPD",),
    "Crouched": ("SPD", "ARM"),
    "Weakened": ("T",),
}
STAT_DOUBLINGS: dict[str, tuple[str, ...]] = {"Flying": ("SPD",)}
STAT_MODIFIERS: dict[str, dict[str, int]] = {"Weakened": {"STA": -1}}

OUT_STATES = frozenset({"Dead", "Incapacitated", "Petrified"})


@dataclass
class ModelState:
    unit: Unit
    hp: int
    ap: int = 0
    states: frozenset = frozenset()
    removed: bool = False                  # removed from play (fled, or a summon whose caster fell)
    summoned_by: str | None = None
    reserve: bool = False                  # a creature not (yet) on the table
    engaged_by: frozenset = frozenset()
    items: tuple = ()                      # acquired items (Trade)
    mana: int = 0
    enchantments: tuple = ()               # ((spell name, caster id, stat mods dict), ...)
    # state -> when it ends: "strategic" (the model's next Strategic Phase) | "morale"
    # (Broken Morale restored) | "sequence" (the end of the Activation Sequence) |
    # "enchantment CASTER: NAME" (that Enchantment ends: spells.enchantment_expiry)
    expiry: dict = field(default_factory=dict)
    incap_by_effect: bool = False
    # its Broken Morale Panicked was removed by an ability (a Stratagem, a spell)
    # while the party stayed broken: not given again until morale is restored
    rallied: bool = False
    on_vertical: bool = False              # ended a Climb on a vertical surface
    # lasting Stratagem effects: ((name, side, mods, until, states it gave), ...);
    # until: "turn" | "round" | "game" | "upkeep" (rules/eldfall/stratagems.py)
    boosts: tuple = ()
    # a rider (Unit.extra["mounted"]): on its mount until it becomes Crouched,
    # then dismounted for the rest of the game (Unit.extra["dismounted"]: the
    # stat changes that then apply; docs/rulings.md, "Riders")
    mounted: bool = False
    dismounted: bool = False

    @property
    def rider(self) -> bool:
        """Declared a rider (mounted at the start), mounted or not now."""
        return bool(self.unit.extra.get("mounted"))

    def dismount_mod(self, stat: str) -> int:
        """The change a dismount makes to ``stat`` (0 while mounted or never a rider)."""
        if not self.dismounted:
            return 0
        return int((self.unit.extra.get("dismounted") or {}).get(stat, 0))

    @property
    def id(self) -> str:
        return self.unit.id

    @property
    def side(self) -> str:
        return self.unit.side

    @property
    def on_table(self) -> bool:
        return not self.removed and not self.reserve

    @property
    def out(self) -> bool:
        """Off the table, Dead, Incapacitated or Petrified: neither acts nor reacts."""
        return not self.on_table or bool(self.states & OUT_STATES)

    def to_dict(self) -> dict:
        return {"id": self.id, "side": self.side, "hp": self.hp, "ap": self.ap,
                "states": sorted(self.states), "removed": self.removed,
                "summoned_by": self.summoned_by, "reserve": self.reserve,
                "engaged_by": sorted(self.engaged_by), "items": list(self.items),
                "mana": self.mana, "enchantments": [[n, c, dict(sorted(m.items()))]
                                                    for n, c, m in self.enchantments],
                "expiry": dict(sorted(self.expiry.items())), "incap_by_effect": self.incap_by_effect,
                "on_vertical": self.on_vertical,
                # only when set: the hashes of the other games stay as they were
                **({"rallied": True} if self.rallied else {}),
                # only when there is one: the hashes of games without Stratagems stay as they were
                **({"boosts": [[n, sd, dict(sorted(md.items())), u, list(st)]
                               for n, sd, md, u, st in self.boosts]} if self.boosts else {}),
                # only for riders: the hashes of games without them stay as they were
                **({"mounted": self.mounted, "dismounted": self.dismounted} if self.rider else {})}


@dataclass
class Activation:
    """One activation sequence in progress."""
    model: str
    step: str = "movement"                 # movement | reaction | action | resolution | turn-on-hit | dodge-move
    movement: str | None = None            # the seed name: Idle Walk Run Climb Jump
    start: tuple = (0.0, 0.0, 0.0)
    path: tuple = ()
    crouch_changed_self: bool = False      # the activated model changed Crouched in its Move
    panic_failed: bool = False
    forced: Any = None                     # availability.Forced or None
    qualified: dict = field(default_factory=dict)   # reactive id -> {"los", "aware", "seen", "opp"}
    opportunity: list = field(default_factory=list)  # [(enemy id, point where the path entered its reach)]
    panic_failed_reactors: frozenset = frozenset()
    reactions: dict = field(default_factory=dict)   # reactive id -> Declare
    action: Any = None                     # the active model's Declare
    was_shrouded: frozenset = frozenset()
    surprised: frozenset = frozenset()     # targets of a Surprise Attack (halved stats)
    dodge_queue: list = field(default_factory=list)
    dodge_success: dict = field(default_factory=dict)
    spells_cast: int = 0
    change_candidates: list = field(default_factory=list)   # Dodge/Perceive that may become Attacks
    late_candidates: list = field(default_factory=list)     # Foresight: may react in the Action Step
    # Crouched as a Reaction: the window now open ("start" | "end" of the
    # Movement Step, None when closed) and the reactive models that changed
    # Crouched in this sequence (once each)
    crouch_window: str | None = None
    crouch_changed: frozenset = frozenset()
    # Turning when Hit: victim -> the attackers whose Hits it suffered (in the
    # Resolution Step's order), and the hit models whose player still chooses a facing
    hit_by: dict = field(default_factory=dict)
    turn_queue: list = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"model": self.model, "step": self.step, "movement": self.movement,
                "path": [list(p) for p in self.path],
                "reactions": {k: str(v) for k, v in sorted(self.reactions.items())},
                "action": None if self.action is None else str(self.action),
                "dodge_queue": list(self.dodge_queue), "surprised": sorted(self.surprised),
                "crouch_window": self.crouch_window, "crouch_changed": sorted(self.crouch_changed),
                "crouch_self": self.crouch_changed_self,
                # only while one waits: the hashes of the other states stay as they were
                **({"turn_queue": list(self.turn_queue),
                    "hit_by": {k: list(v) for k, v in sorted(self.hit_by.items())}}
                   if self.turn_queue else {})}
