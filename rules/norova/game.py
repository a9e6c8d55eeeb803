"""Legends of Norova: the Active Turn combat rules on the shared rules/core Game.

Source: ../shared/seeds/norova-active-turn.txt. The numbers live in
rules/norova/data/*.yaml; the project's simple rules for the seed's gaps are
listed in docs/rulings.md ("Legends of Norova").

Round: every character able to fight acts once, highest initiative first
(d20 + React, rolled when the fight starts). The character at the head of the
queue is *active*: it may ``wait`` (act later, after the next character) as
long as it has done nothing this turn, then takes at most one each of the
Attack, Move, Support and Magic actions, and ``end``s its turn (unused
actions are lost). Geometry comes only through the rules/core Geometry
protocol.
"""
from __future__ import annotations

import contextlib
import itertools
import math
from dataclasses import dataclass, field
from typing import Iterator

from rules.core import Dice, Game, Outcome, Termination, Unit
from rules.norova import mechanics as mx
from rules.norova.actions import (Action, Aid, AooAttack, Attack, Cast, EndTurn, Equip, Focus, Move,
                                  Perceive, Reload, Stand, ThrowPotion, Turn, UsePotion, UseSkill, Wait,
                                  parse)
from rules.norova.data import NorovaDataError, RuleData
from rules.norova.sheet import Sheet, block_from_eldfall, sheet_from_block

SLOTS = ("attack", "move", "support", "magic")
SLOT_NAMES = {"attack": "Attack", "move": "Move", "support": "Support", "magic": "Magic"}
# the most aided attacks offered on one target with every hand and skill of each aider;
# beyond it, groups of several aiders aid with their plain attacks (legal_actions stays short)
AIDED_ATTACKS = 64
ENGINE_MODE = {"walk": "walk", "sprint": "walk", "crawl": "walk", "fly": "fly", "climb": "climb"}
# the table's state of a character while its crawl is judged, with Crouched (engine.motion's
# CRAWLING_STATE): low for the room it needs, stepping up as it would standing
CRAWLING = "Crawling"


@dataclass
class Fighter:
    """One character's state during a fight."""
    id: str
    side: str
    name: str
    sheet: Sheet
    radius: float
    height: float
    vitality: int
    soul: int
    power: int
    main: str | None
    off: str | None
    inventory: dict[str, int]
    ammo: dict[str, int]
    status: str = "active"            # active | dying | stable | dead
    prone: bool = False               # down (fallen): no attacks, getting up is the move
    low: bool = False                 # crawled: keeps low behind cover, still fights
    hidden: bool = False
    unloaded: list[str] = field(default_factory=list)
    initiative: int = 0
    init_roll: int = 0
    slots: dict[str, bool] = field(default_factory=lambda: {s: False for s in SLOTS})
    turn_started: bool = False
    acted: bool = False
    turn_done: bool = False
    charging: dict | None = None
    focus: dict[str, int] = field(default_factory=dict)
    perceived: list[str] = field(default_factory=list)
    # enemies it fought (either way), each with the game's clock at the fight; ``turn_marks``:
    # the clock at the start of its last two turns (a fight since the start of its previous
    # turn is "an enemy who attacked you (or vice versa)" for the Attack of Opportunity)
    attacked: dict[str, int] = field(default_factory=dict)
    turn_marks: list[int] = field(default_factory=list)
    aoo_made: int = 0
    save_locked: dict[str, int] = field(default_factory=dict)

    @property
    def able(self) -> bool:
        return self.status == "active"

    def to_dict(self) -> dict:
        return {"id": self.id, "vitality": self.vitality, "soul": self.soul, "power": self.power,
                "main": self.main, "off": self.off, "inventory": dict(sorted(self.inventory.items())),
                "ammo": dict(sorted(self.ammo.items())), "status": self.status, "prone": self.prone,
                "low": self.low,
                "hidden": self.hidden, "unloaded": sorted(self.unloaded), "initiative": self.initiative,
                "slots": dict(self.slots), "turn_started": self.turn_started, "acted": self.acted,
                "turn_done": self.turn_done, "charging": self.charging, "focus": dict(sorted(self.focus.items())),
                "perceived": sorted(self.perceived), "attacked": dict(sorted(self.attacked.items())),
                "turn_marks": list(self.turn_marks),
                "aoo_made": self.aoo_made, "save_locked": dict(sorted(self.save_locked.items()))}


def _aid_groups(ways: dict) -> list[list]:
    """Every group of aiders (one or more allies, in scene order), each ally's aid ways a
    list: smaller groups first, then by the allies' order."""
    allies = list(ways)
    groups = [[ways[allies[i]] for i in range(len(allies)) if bits >> i & 1]
              for bits in range(1, 1 << len(allies))]
    groups.sort(key=lambda g: (len(g), [allies.index(w[0].ally) for w in g]))
    return groups


class NorovaGame(Game):
    game_name = "norova"

    def __init__(self, units: list[Unit], geometry, seed: int = 0, settings: dict | None = None,
                 scene_info: dict | None = None, *, dice: Dice | None = None, log=None):
        super().__init__(seed=seed, dice=dice, settings=settings, scene_info=scene_info, log=log)
        self.data = RuleData(settings)
        self.r = self.data.rules
        self.geometry = geometry
        self.units = [u if isinstance(u, Unit) else Unit.from_dict(u) for u in units]
        self.fighters: dict[str, Fighter] = {}
        problems: list[str] = []
        for u in self.units:
            block = (u.extra or {}).get("norova")
            if block is None and isinstance((u.extra or {}).get("extra"), dict):
                block = u.extra["extra"].get("norova")
            if block is None:
                block = block_from_eldfall(u, self.data)
            try:
                sheet = sheet_from_block(block, self.data, where=f"{u.id}.norova")
            except NorovaDataError as exc:
                problems += exc.problems
                continue
            self.fighters[u.id] = Fighter(
                id=u.id, side=u.side, name=u.name or u.id, sheet=sheet, radius=u.base / 2,
                height=u.height, vitality=sheet.vitality, soul=sheet.soul, power=sheet.power,
                main=sheet.equipment["main"], off=sheet.equipment["off"],
                inventory=dict(sheet.inventory), ammo=dict(sheet.ammo),
                # a model the scene sets Crouched (the table's low pose, behind cover) is low,
                # as after a crawl: it still fights; "Prone" is Norova's fallen (getting up is
                # its move, no attack till then)
                hidden="Hidden" in u.states, prone="Prone" in u.states,
                low="Crouched" in u.states and "Prone" not in u.states)
        if problems:
            raise NorovaDataError(problems)
        if len({f.side for f in self.fighters.values()}) < 2:
            raise NorovaDataError("a Norova fight needs characters of at least two sides")
        for u in self.units:
            self.geometry.place(u.id, tuple(u.at), u.facing)
            self._sync_states(self.fighters[u.id])
        # a walk may jump down any drop, which these rules judge as a fall, or refuse with
        # ``move.drop_needs_climb`` (``_step_problem``; docs/rulings.md, "Climbing and
        # swimming"): the table's own limit (its free climbing) is Eldfall's
        self.geometry.set_walk_drop(math.inf)
        self.round = 0
        self.clock = 0              # counts turn starts and fights (the Attack of Opportunity's memory)
        self.queue: list[str] = []
        # an Attack of Opportunity that hit, its blow waiting for the attacker's choice (plain
        # or with a skill): {"model", "mover", "hand", "skills"}; None: no choice waits
        self.aoo_pending: dict | None = None
        self.emit("setup", {"game": self.game_name, "characters": [
            {"id": f.id, "side": f.side, "vitality": f.vitality, "soul": f.soul, "power": f.power}
            for f in self.fighters.values()]})
        self._roll_initiative()
        self._start_round()

    # ---- construction from a log ---------------------------------------
    def header(self) -> dict:
        return {"game": self.game_name, "seed": self.seed, "scene": self.scene_info,
                "units": [u.to_dict() for u in self.units], "settings": self.settings}

    @classmethod
    def from_header(cls, header: dict, geometry, dice: Dice | None = None) -> "NorovaGame":
        units = [Unit.from_dict(d) for d in header.get("units", [])]
        return cls(units, geometry, seed=int(header.get("seed", 0)), settings=header.get("settings") or {},
                   scene_info=header.get("scene") or {}, dice=dice)

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return parse(text)

    # ---- small helpers ----------------------------------------------------
    def f(self, mid: str) -> Fighter:
        return self.fighters[mid]

    @property
    def active_model(self) -> str | None:
        """The character who decides now: the one whose active turn it is, or, while an
        Attack of Opportunity's blow waits for its choice, the attacking character."""
        if self.aoo_pending is not None and not self.is_over:
            return self.aoo_pending["model"]
        return self.queue[0] if self.queue and not self.is_over else None

    @property
    def active_side(self) -> str | None:
        m = self.active_model
        return None if m is None else self.fighters[m].side

    def enemies(self, mid: str, able_only: bool = True) -> list[str]:
        side = self.fighters[mid].side
        return [o.id for o in self.fighters.values() if o.side != side and (o.able or not able_only)]

    def allies(self, mid: str) -> list[str]:
        side = self.fighters[mid].side
        return [o.id for o in self.fighters.values() if o.side == side and o.id != mid and o.able]

    def pos(self, mid: str):
        return self.geometry.position(mid)

    def weapon(self, name: str | None) -> dict:
        return self.data.weapons[name or "unarmed"]

    def _sync_states(self, f: Fighter) -> None:
        states = set()
        if f.status == "dead":
            states.add("Dead")
        elif f.prone or f.low or f.status in ("dying", "stable"):
            states.add("Crouched")
        self.geometry.set_states(f.id, sorted(states))

    def _sight(self, a: str, b: str):
        """All-round line of sight (the Norova arcs are checked by the rules)."""
        return self.geometry.sight(a, b, moving=True)

    def _cover(self, a: str, b: str):
        """Line of sight with the cover grade decided (the engine needs ``fraction`` for it)."""
        return self.geometry.sight(a, b, moving=True, fraction=True)

    def _covered(self, s) -> bool:
        """Seed "Dealing With Hidden and Covered Targets": covered is "behind an obstacle".
        The geometry's cover grade counts only with the piece that gives it: a
        character low to the ground (the table's Crouched: fallen, crawled) has Light
        cover by itself there, with no obstacle between."""
        return s.cover in self.r["covered_grades"] and s.cover_piece is not None

    def in_front(self, viewer: str, other: str) -> bool:
        half = self.r["facing"]["front_half_angle"]
        return mx.relative_angle(self.pos(viewer), self.geometry.facing(viewer), self.pos(other)) <= half + 1e-9

    def arc(self, defender: str, attacker: str) -> str:
        fc = self.r["facing"]
        return mx.arc_of(self.pos(defender), self.geometry.facing(defender), self.pos(attacker),
                         fc["front_half_angle"], fc["rear_half_angle"])

    def swimming(self, mid: str) -> bool:
        return bool(set(self.r["swimming"]["environments"]) & set(self.geometry.environments(mid)))

    def flying_allowed(self) -> bool:
        info = self.scene_info.get("norova") if isinstance(self.scene_info.get("norova"), dict) else {}
        return bool(self.r["move"]["flying_allowed"] or info.get("flying") or self.scene_info.get("flying"))

    def walk_step_height(self) -> float:
        """The highest rise a walk, sprint or crawl takes at once (``move.step_height``);
        higher needs a climb. For front ends that shade where a walk can go."""
        return float(self.r["move"]["step_height"])

    def move_allowance(self, mid: str, mode: str) -> float:
        f, mv = self.fighters[mid], self.r["move"]
        rate = f.sheet.move
        factor = {"walk": 1.0, "sprint": mv["sprint_factor"], "crawl": mv["crawl_factor"],
                  "fly": mv["fly_factor"], "climb": self.r["climbing"]["allowance_factor"]}[mode]
        if mode != "fly" and self.swimming(mid):
            factor *= self.r["swimming"]["allowance_factor"]
        return rate * factor

    def weapon_range(self, mid: str, hand: str) -> float:
        f = self.fighters[mid]
        if hand == "dual":
            return min(self.weapon(f.main)["range"], self.weapon(f.off)["range"])
        return self.weapon(f.main if hand == "main" else f.off)["range"]

    def aoo_hand(self, mid: str) -> tuple[str, float] | None:
        """The hand (and its range) an Attack of Opportunity is made with, or None."""
        f = self.fighters[mid]
        kinds = self.r["attack_of_opportunity"]["range_kinds"]
        best = None
        for hand, name in (("main", f.main), ("off", f.off)):
            if name is None and hand == "off":
                continue
            w = self.weapon(name)
            if w["kind"] in kinds and self._weapon_ready(f, name):
                if best is None or w["range"] > best[1]:
                    best = (hand, float(w["range"]))
        return best

    def _weapon_ready(self, f: Fighter, name: str | None) -> bool:
        w = self.weapon(name)
        if w["kind"] == "bow":
            if w.get("ammo") and f.ammo.get(w["ammo"], 0) <= 0:
                return False
            if w.get("reload") and name in f.unloaded:
                return False
        return True

    def action_slots(self, character: str) -> dict[str, bool]:
        """The four action slots of the round: ``{"Attack": used?, "Move": ..., "Support": ..., "Magic": ...}``."""
        f = self.fighters[character]
        return {SLOT_NAMES[s]: bool(f.slots[s]) for s in SLOTS}

    # ---- costs and saves --------------------------------------------------
    def can_pay(self, f: Fighter, cost: dict) -> str | None:
        for pool, amount in cost.items():
            have = getattr(f, pool)
            if have >= amount:
                continue
            if not self.r["saves"]["short_cost_save"]:
                return f"{f.id} has {have} {pool.title()}, the cost is {amount}"
            if f.save_locked.get(pool, -1) >= self.round:
                return f"{f.id} has {have} {pool.title()} (cost {amount}) and may not attempt a {pool.title()} save this round"
        return None

    def save(self, f: Fighter, stat: str, why: str) -> mx.CheckResult:
        """A Vitality / Soul / Power save with its critical results (seed "Rolling Critical with Saves")."""
        _, target = self.data.check("save")
        nat = self.roll(f"{stat} save: {why}", 20, model=f.id)
        res = mx.trait_check(nat, f.sheet.saves.get(stat, 0), target)
        sv = self.r["saves"]
        full = getattr(f.sheet, stat)
        data = {"model": f.id, "stat": stat, "why": why, **res.to_dict(), "bonus": f.sheet.saves.get(stat, 0)}
        if res.critical == "success":
            gain = int(math.ceil(full * sv["crit_recover_fraction"]))
            setattr(f, stat, min(full, getattr(f, stat) + gain))
            data["recovered"] = gain
        elif res.critical == "failure":
            f.save_locked[stat] = self.round + 1
            data["locked_until_round"] = self.round + 1
            if stat in ("power", "soul"):
                loss = int(math.ceil(full * sv["crit_fail_loss_fraction"]))
                setattr(f, stat, max(0, getattr(f, stat) - loss))
                data["lost"] = loss
        self.emit("save", data)
        return res

    def pay(self, f: Fighter, cost: dict, why: str) -> bool:
        """Spend a cost; a pool too low for it needs a save (a GAP rule). False: not paid."""
        paid = {}
        for pool, amount in cost.items():
            have = getattr(f, pool)
            if have >= amount:
                setattr(f, pool, have - amount)
                paid[pool] = amount
                continue
            res = self.save(f, pool, f"pay {amount} {pool} for {why}")
            if res.critical == "success":
                paid[pool] = 0
                continue
            if not res.success:
                self.emit("cost", {"model": f.id, "why": why, "paid": paid, "failed": pool})
                return False
            paid[pool] = getattr(f, pool)
            setattr(f, pool, 0)
        self.emit("cost", {"model": f.id, "why": why, "paid": paid})
        return True

    # ---- checks -------------------------------------------------------------
    def trait_check(self, mid: str, kind: str, modifier: int = 0, difficulty_add: int = 0,
                    why: str = "", trait: str | None = None, *, modifiers=(),
                    difficulty_mods=()) -> mx.CheckResult:
        """d20 + trait + modifier >= difficulty; natural 20 / 1 always succeed / fail.

        ``modifiers``: the modifiers of the roll, each ``(what, value)`` (the facing, a
        Focus); ``difficulty_mods``: the steps added to the difficulty number (cover); both
        are added to ``modifier`` / ``difficulty_add`` and named apart in the event, so that
        its line adds up ("d20 10 +3 evade -2 side -> 11 vs 12").
        After a natural 1 a Luck check may save it (seed: "a follow-up Luck check").
        """
        f = self.fighters[mid]
        t, target = self.data.check(kind)
        t = trait or t
        base = target
        mods = [[str(w), int(v)] for w, v in modifiers if int(v)]
        dmods = [[str(w), int(v)] for w, v in difficulty_mods if int(v)]
        modifier += sum(v for _, v in mods)
        target += difficulty_add + sum(v for _, v in dmods)
        nat = self.roll(f"{kind}: {why}" if why else kind, 20, model=mid)
        res = mx.trait_check(nat, f.sheet.trait(t) + modifier, target)
        data = {"model": mid, "check": kind, "trait": t, "why": why, **res.to_dict(),
                "bonus": f.sheet.trait(t)}
        if mods:
            data["modifiers"] = mods
        if dmods:
            data["difficulty"] = [[self.data.check_difficulty_name(kind), base]] + dmods
        if res.critical == "failure" and self.r["trait_fumble_luck_check"] and kind != "luck_follow_up":
            lt, ltarget = self.data.check("luck_follow_up")
            lnat = self.roll(f"luck follow-up: {kind}", 20, model=mid)
            luck = mx.trait_check(lnat, f.sheet.trait(lt), ltarget)
            data["luck"] = luck.to_dict()
            if luck.success:
                res = mx.CheckResult(res.natural, res.total, res.target, True, "failure")
        data["success"] = res.success
        self.emit("check", data)
        return res

    def skill_roll(self, mid: str, trait: str, difficulty: str | int, why: str) -> tuple[str, mx.CheckResult]:
        """A skill or spell success roll: ("crit" | "success" | "works_anyway" | "failure" | "backfire", roll)."""
        f = self.fighters[mid]
        target = self.data.difficulty(difficulty)
        nat = self.roll(f"skill roll: {why}", 20, model=mid)
        res = mx.trait_check(nat, f.sheet.trait(trait), target)
        if nat == 20:
            outcome = "crit"
        elif nat == 1:
            d6 = self.roll(f"critical failure: {why}", 6, model=mid)
            outcome = self.data.fumble(d6)
        else:
            outcome = "success" if res.success else "failure"
        self.emit("skill_roll", {"model": mid, "what": why, "trait": trait, **res.to_dict(), "outcome": outcome})
        return outcome, res

    def critical_hit_check(self, mid: str, why: str, backfire: bool = False) -> str | None:
        """The free critical hit check: None | "crit" | "double" | "deathblow" | "fumble".

        ``backfire``: the skill or spell already backfired (its natural 1 and d6 6): it does
        the opposite of what was intended, so no Deathblow nor Epic Casting for it (that
        would kill the target it is now healing): its 6 is a double crit on what it does."""
        f = self.fighters[mid]
        trait, target = self.data.check("critical_hit")
        nat = self.roll(f"critical hit check: {why}", 20, model=mid)
        bonus = f.sheet.trait(trait)
        # the numbers, so that the line adds up ("d20 9 +2 luck -> 11 vs 12: no critical")
        data = {"model": mid, "what": why, "natural": nat, "trait": trait, "bonus": bonus,
                "total": nat + bonus, "target": target}
        if nat == 20:
            d6 = self.roll(f"critical critical: {why}", 6, model=mid)
            data["d6"] = d6
            out = "deathblow" if self.data.crit_crit(d6) == "deathblow" and not backfire else "double"
        elif nat == 1:
            out = "fumble"
        else:
            out = "crit" if nat + bonus >= target else None
        self.emit("critical_check", {**data, "result": out})
        return out

    # ---- flow -------------------------------------------------------------
    def _roll_initiative(self) -> None:
        ini = self.r["initiative"]
        order = []
        for i, f in enumerate(self.fighters.values()):
            # a Dying character keeps a place: its turn is its Vitality save (with
            # ``reroll_each_round`` it would otherwise never make one again)
            if f.status not in ("active", "dying"):
                continue
            nat = self.roll("initiative", int(ini["die"]), model=f.id)
            f.init_roll = nat
            f.initiative = nat + f.sheet.trait(ini["trait"])
            order.append((-f.initiative, -f.sheet.trait(ini["trait"]), i, f.id))
        order.sort()
        self.order = [o[3] for o in order]
        self.emit("initiative", {"order": [{"model": m, "total": self.fighters[m].initiative,
                                            "roll": self.fighters[m].init_roll} for m in self.order]})

    def _start_round(self) -> None:
        if self.is_over:
            return
        self.round += 1
        if self.round > int(self.r["max_rounds"]):
            self._finish_turn_limit()
            return
        if self.round > 1 and self.r["initiative"]["reroll_each_round"]:
            self._roll_initiative()
        for f in self.fighters.values():
            f.slots = {s: False for s in SLOTS}
            f.turn_started = f.acted = f.turn_done = False
            f.focus, f.perceived = {}, []
            f.aoo_made = 0
        self.queue = [m for m in self.order if self.fighters[m].status in ("active", "dying")]
        self.emit("round", {"round": self.round, "queue": list(self.queue)})
        self._advance()

    def _advance(self) -> None:
        """Bring the next character able to act to the head of the queue."""
        while not self.is_over:
            if not self.queue:
                self._start_round()
                return
            head = self.fighters[self.queue[0]]
            if head.status == "dying" and not head.turn_started:
                head.turn_started = True
                self._dying_save(head)
                if self.is_over:
                    return
            if not head.able:
                head.turn_done = True
                self.queue.pop(0)
                continue
            if not head.turn_started:
                head.turn_started = True
                self.clock += 1
                head.turn_marks = (head.turn_marks + [self.clock])[-2:]
                self.emit("turn", {"model": head.id, "round": self.round})
                self._charging_turn(head)
                if self.is_over:
                    return
                if not head.able:
                    continue
                if all(head.slots.values()):
                    self._end_turn(head, "no actions left")
                    continue
            return

    def _end_turn(self, f: Fighter, why: str = "") -> None:
        f.turn_done = True
        f.focus = {}
        lost = [SLOT_NAMES[s] for s in SLOTS if not f.slots[s]]
        self.emit("turn_end", {"model": f.id, "lost": lost, "why": why})
        if self.queue and self.queue[0] == f.id:
            self.queue.pop(0)
        else:
            self.queue = [m for m in self.queue if m != f.id]

    def _dying_save(self, f: Fighter) -> None:
        res = self.save(f, "vitality", "dying")
        if res.critical == "success":
            f.status = "active"
            f.prone = True
            f.turn_started = False
            self.emit("state", {"model": f.id, "status": "active", "why": "critical Vitality save",
                                "vitality": f.vitality})
        elif res.critical == "failure":
            self._kill(f, "critical failure of a Vitality save")
        elif res.success:
            f.status = "stable"
            self.emit("state", {"model": f.id, "status": "stable", "why": "Vitality save"})
        else:
            self.emit("state", {"model": f.id, "status": "dying", "why": "failed Vitality save"})
        self._sync_states(f)
        self._check_end()

    def _charging_turn(self, f: Fighter) -> None:
        if not f.charging:
            return
        f.slots["magic"] = True
        if f.charging["ready_round"] <= self.round:
            ch, f.charging = f.charging, None
            self.emit("spell_ready", {"model": f.id, "spell": ch["spell"], "round": self.round})
            self._resolve_spell(f.id, ch["spell"], ch["target"], ())
            self._check_end()
        else:
            self.emit("spell_charging", {"model": f.id, "spell": f.charging["spell"],
                                         "ready_round": f.charging["ready_round"]})

    def _check_end(self) -> None:
        if self.is_over:
            return
        sides = sorted({f.side for f in self.fighters.values() if f.able})
        all_sides = sorted({f.side for f in self.fighters.values()})
        if len(sides) <= 1:
            scores = self._scores()
            if sides:
                self.finish(Outcome(Termination.ELIMINATION, sides[0], scores,
                                    f"no character of {', '.join(s for s in all_sides if s not in sides)} can fight"))
            else:
                self.finish(Outcome(Termination.ELIMINATION, None, scores, "no character can fight"))

    def _scores(self) -> dict:
        out: dict[str, int] = {}
        for f in self.fighters.values():
            out[f.side] = out.get(f.side, 0) + (f.vitality if f.able else 0)
        return out

    def _finish_turn_limit(self) -> None:
        scores = self._scores()
        best = max(scores.values())
        leaders = [s for s, v in scores.items() if v == best]
        self.finish(Outcome(Termination.TURN_LIMIT, leaders[0] if len(leaders) == 1 else None, scores,
                            f"{int(self.r['max_rounds'])} round{'' if self.r['max_rounds'] == 1 else 's'} played; "
                            "the side with the most Vitality left"))

    # ---- damage -------------------------------------------------------------
    def _kill(self, f: Fighter, why: str) -> None:
        f.status = "dead"
        f.vitality = min(f.vitality, 0)
        f.charging = None
        self.emit("state", {"model": f.id, "status": "dead", "why": why})
        self._sync_states(f)

    def damage(self, target: str, amount: int, why: str, *, terms=()) -> None:
        """``terms``: what the amount is made of, each ``(what, value)`` (a spell's value and
        Runic Power), given in the event when the amount is not told before (a strike's is)."""
        f = self.fighters[target]
        if f.status == "dead" or amount <= 0:
            return
        if f.status in ("dying", "stable"):
            if self.r["dying"]["damage_kills"]:
                self._kill(f, f"hit while {f.status}: {why}")
            return
        f.vitality -= amount
        self.emit("damage", {"model": target, "amount": amount, "vitality": f.vitality, "why": why,
                             **({"terms": [list(t) for t in terms]} if terms else {})})
        if f.vitality <= 0:
            f.vitality = 0
            f.status = "dying"
            f.prone = True
            f.charging = None
            self.emit("state", {"model": target, "status": "dying", "why": "Vitality 0"})
            self._sync_states(f)

    def heal(self, target: str, pool: str, amount: int, why: str, *, revive: bool = False,
             terms=()) -> None:
        """Restore ``amount`` of a pool. ``revive``: a spell's healing, which also brings the
        dead back (seed: "dead and can only be revived by spell"), down on the ground."""
        f = self.fighters[target]
        if amount <= 0 or (f.status == "dead" and not (revive and pool == "vitality")):
            return
        if f.status == "dead":
            f.vitality = 0
            f.status, f.prone = "stable", True      # healed from 0 below, as a Stable character
        full = getattr(f.sheet, pool)
        new = min(full, getattr(f, pool) + amount)
        setattr(f, pool, new)
        self.emit("heal", {"model": target, "pool": pool, "amount": amount, pool: new, "why": why,
                           **({"terms": [list(t) for t in terms]} if terms else {})})
        if pool == "vitality" and f.status in ("dying", "stable") and new > 0:
            f.status = "active"
            self.emit("state", {"model": target, "status": "active", "why": why})
            self._sync_states(f)

    # ---- the checked entry point: hooks -----------------------------------
    def check_phase(self, action) -> str | None:
        if not isinstance(action, Action):
            return f"not a Norova action: {action!r}"
        if not self.is_over and not self.queue:
            return "no character is active"
        p = self.aoo_pending
        if p is not None and not isinstance(action, AooAttack):
            return (f"{p['model']}'s Attack of Opportunity has hit {p['mover']}: {p['model']} first "
                    "chooses its blow (a plain attack or a skill)")
        if p is None and isinstance(action, AooAttack):
            return "no Attack of Opportunity waits for its blow"
        return None

    def check_actor(self, action) -> str | None:
        if action.actor not in self.fighters:
            return f"no character {action.actor!r}"
        if isinstance(action, AooAttack):
            who = self.aoo_pending["model"]
            return None if action.actor == who else f"it is {who}'s Attack of Opportunity, not {action.actor}'s"
        if action.actor != self.queue[0]:
            return f"it is {self.queue[0]}'s active turn, not {action.actor}'s"
        return None

    def check_rule(self, action) -> str | None:
        f = self.fighters[action.actor]
        if action.slot is not None and f.slots[action.slot]:
            return f"{f.id} has already used its {SLOT_NAMES[action.slot]} action this round"
        method = getattr(self, f"_why_{type(action).__name__.lower()}")
        return method(action, f)

    def perform(self, action) -> None:
        if isinstance(action, AooAttack):
            # the blow out of the mover's turn: the attacker acts in none of its own slots;
            # then the mover's turn goes on
            f = self.fighters[self.aoo_pending["mover"]]
            self.aoo_pending = None
            self._aoo_blow(action.actor, f.id, action.hand, action.skill, chosen=True)
        else:
            f = self.fighters[action.actor]
            if not isinstance(action, (Wait, EndTurn)):
                f.acted = True
            if action.slot is not None:
                f.slots[action.slot] = True
            getattr(self, f"_do_{type(action).__name__.lower()}")(action, f)
        self._check_end()
        if self.is_over or self.aoo_pending is not None:
            return                # (a blow to choose: the mover's turn waits for it)
        if self.queue and self.queue[0] == f.id and (not f.able or all(f.slots.values())):
            self._end_turn(f, "no actions left" if f.able else f.status)
        if not self.queue or self.queue[0] != f.id or not f.able:
            self._advance()

    # ---- wait / end -------------------------------------------------------
    def _why_wait(self, a: Wait, f: Fighter) -> str | None:
        if f.acted:
            return f"{f.id} has already acted this turn: it can no longer wait"
        if not self._to_act(f.id):
            return f"no character is left to act after {f.id} this round"
        if self._wait_place(f.id) is None:
            # a wait passes a character that has not waited itself: two characters could
            # otherwise hand the turn back and forth and the round would never end
            return f"every character after {f.id} has waited this round too: {f.id} acts now"
        return None

    def _wait_place(self, mid: str) -> int | None:
        """Where a wait puts ``mid`` in the queue: right after the next character that has
        not waited this round (those that did wait, between, keep their places ahead of it);
        None when every character after it has waited. Seed "Actions": "You may choose to
        wait and act later in the round, even after a character with a lower initiative":
        a character that waited does not take that choice from the next one."""
        waited = self._waited_this_round()
        for i, other in enumerate(self.queue[1:], start=1):
            if other != mid and other not in waited and self.fighters[other].status in ("active", "dying"):
                return i
        return None

    def _to_act(self, mid: str | None = None) -> list[str]:
        """The characters after the head of the queue (but ``mid``) that still take a turn
        this round: not those killed (or made Stable) since the round began, who stay in the
        queue until their place comes and are passed over then."""
        return [m for m in self.queue[1:] if m != mid and self.fighters[m].status in ("active", "dying")]

    def _waited_this_round(self) -> set[str]:
        out = set()
        for e in reversed(self.events):
            if e.kind == "round":
                break
            if e.kind == "wait":
                out.add(e.data["model"])
        return out

    def _do_wait(self, a: Wait, f: Fighter) -> None:
        at = self._wait_place(f.id)
        self.queue.pop(0)
        self.queue.insert(at, f.id)
        # who comes next: not a character killed since the round began (passed over at its place)
        self.emit("wait", {"model": f.id, "queue": [m for m in self.queue if m == f.id
                                                    or self.fighters[m].status in ("active", "dying")]})

    def _why_endturn(self, a: EndTurn, f: Fighter) -> str | None:
        return None

    def _do_endturn(self, a: EndTurn, f: Fighter) -> None:
        self._end_turn(f, "ended")

    # ---- movement -----------------------------------------------------------
    def _why_turn(self, a: Turn, f: Fighter) -> str | None:
        if not math.isfinite(a.facing):
            return "the facing must be a number of degrees"
        return None

    def _do_turn(self, a: Turn, f: Fighter) -> None:
        self.geometry.set_facing(f.id, a.facing % 360.0)
        self.emit("turn_facing", {"model": f.id, "facing": a.facing % 360.0})

    def _why_stand(self, a: Stand, f: Fighter) -> str | None:
        if not (f.prone or f.low):
            return f"{f.id} is not down: there is nothing to get up from"
        return self._no_room_to_stand(f, "stand up")

    def _no_room_to_stand(self, f: Fighter, what: str) -> str | None:
        """Why ``f``, low (crawled or fallen), cannot ``what`` where it is: its standing
        hitbox has no room there (under an overhang lower than the standing character),
        as the geometry judges a standing model's stance at its own place."""
        here = tuple(self.pos(f.id))
        with self._posed(f, []):
            mv = self.geometry.check_move(f.id, "walk", [here], 1.0)
        if mv.legal:
            return None
        return (f"{f.id} cannot {what} here: there is no room over it for its standing height "
                f"({f.height:.2f}\"); crawl out first")

    def _do_stand(self, a: Stand, f: Fighter) -> None:
        f.prone = f.low = False
        self._sync_states(f)
        self.emit("stand", {"model": f.id})

    def move_check(self, a: Move):
        """(the geometry's route check, the Norova allowance).

        The route's terrain is checked by the geometry; its length (the
        geometry's ``distance``, the route's cost) is compared with the Norova
        allowance here. The geometry gets a generous ``speed`` so that its own
        game's mode factors (an engine may halve a climb itself) never cut the
        Norova allowance twice.
        """
        enemies = {e: 0.0 for e in self.enemies(a.actor)}
        allowance = self.move_allowance(a.actor, a.mode)
        with self.judged_pose(a.actor, a.mode):
            mv = self.geometry.check_move(a.actor, ENGINE_MODE[a.mode], list(a.route), 4.0 * allowance + 1.0,
                                          enemies=enemies)
        return mv, allowance

    @contextlib.contextmanager
    def judged_pose(self, mid: str, mode: str):
        """The table's pose a route of ``mode`` is judged in, meanwhile. A crawl is low
        (seed "Crawling": "staying low to the ground"): the table's Crouched hitbox (its
        base's height) is the room it needs under an overhang, and with ``CRAWLING`` it
        steps up as a walk does (``walk_step_height``: higher needs a climb). Any other
        move of a character low from a crawl gets up as it goes: it is judged standing.
        Front ends shade a route's reach in it too."""
        f = self.fighters.get(mid)
        states = None
        if f is not None and mode == "crawl":
            states = ["Crouched", CRAWLING]
        elif f is not None and f.low and not f.prone:
            states = []
        with (contextlib.nullcontext() if states is None else self._posed(f, states)):
            yield

    @contextlib.contextmanager
    def _posed(self, f: Fighter, states: list[str]):
        """``f`` given the table's ``states`` meanwhile (its own ones back after)."""
        self.geometry.set_states(f.id, states)
        try:
            yield
        finally:
            self._sync_states(f)

    def _why_move(self, a: Move, f: Fighter) -> str | None:
        if a.mode not in ENGINE_MODE:
            return f"unknown movement mode {a.mode!r} ({', '.join(ENGINE_MODE)})"
        if not a.route:
            return "a move needs at least one point"
        if a.facing is not None and not math.isfinite(a.facing):
            return "the facing must be a number of degrees"
        if any(not all(math.isfinite(v) for v in p) for p in a.route):
            return "a route point is not a number"
        if f.prone and a.mode != "crawl":
            return f"{f.id} is down: it may only crawl, or stand up (its move)"
        if f.low and a.mode != "crawl":
            # a walk, sprint, climb or flight gets up where it sets off
            why = self._no_room_to_stand(f, f"get up to {a.mode}")
            if why:
                return why
        if a.mode == "sprint":
            if self.r["swimming"]["no_sprint"] and self.swimming(f.id):
                return f"{f.id} is swimming and cannot sprint"
            why = self.can_pay(f, self.r["move"]["sprint_cost"])
            if why:
                return f"cannot sprint: {why}"
        if a.mode == "fly":
            if "flying" not in f.sheet.abilities:
                return f"{f.id} cannot fly"
            if not self.flying_allowed():
                return "the scene does not allow flying"
        start = self.pos(f.id)
        flat = mx.route_length([start] + list(a.route))
        if flat < self.r["move"]["min_step"]:
            return "the route is too short to be a move (turning is its own move)"
        allowance = self.move_allowance(f.id, a.mode)
        if flat > allowance + 1e-6:
            # its length on the table already exceeds the allowance: say so in Norova's
            # numbers (the geometry's own refusal would quote the generous speed it is given)
            return f"the route is {flat:.2f}\" long, more than the {allowance:g}\" of this {a.mode}"
        mv, allowance = self.move_check(a)
        if not mv.legal:
            return f"illegal route: {_norova_reason(mv.reason)}"
        if mv.distance > allowance + 1e-6:
            return f"the route is {mv.distance:.2f}\" long, more than the {allowance:g}\" of this {a.mode}"
        if mv.stopped_by is not None and math.dist(mv.end[:2], a.route[-1][:2]) > 1e-3:
            return f"the route runs into {mv.stopped_by}'s base before its end"
        if mv.ends_on_vertical:
            return "a move may not end on a vertical surface (climb to the top)"
        return self._step_problem(a, mv)

    def _step_problem(self, a: Move, mv) -> str | None:
        """Why a walk, sprint or crawl needs a climb: a rise at once (the geometry's
        ``steps``) of more than ``move.step_height``, or a drop of more with
        ``move.drop_needs_climb`` (seed "Obstacles": "When climbing or swimming is
        required, refer to the climbing and swimming rules")."""
        if a.mode in ("climb", "fly"):
            return None
        top = float(self.r["move"]["step_height"])
        for s in getattr(mv, "steps", ()) or ():
            h = float(s.height)
            piece = getattr(s, "piece", None)
            whose = f"the {piece}'s" if piece else "a"
            if h > top + 1e-6:
                return f"{whose} {round(h, 2):g}\" rise needs a climb"
            if -h > top + 1e-6 and self.r["move"]["drop_needs_climb"]:
                return f"{whose} {round(-h, 2):g}\" drop needs a climb"
        return None

    def _do_move(self, a: Move, f: Fighter) -> None:
        if a.mode == "sprint":
            if not self.pay(f, self.r["move"]["sprint_cost"], "sprint"):
                self.emit("move", {"model": f.id, "mode": a.mode, "moved": False, "why": "sprint cost not paid"})
                return
        mv, allowance = self.move_check(a)
        start = tuple(self.pos(f.id))
        route = [start] + [tuple(p) for p in a.route[:-1]] + [tuple(mv.end)]
        # a hidden crawler stays hidden: no enemy sees it to strike (seed: "If you cannot
        # see an enemy you cannot attack them"); any other move ends hiding as it sets off
        sneaking = f.hidden and a.mode == "crawl"
        if a.mode != "crawl" and f.hidden:
            f.hidden = False
            self.emit("hidden", {"model": f.id, "hidden": False, "why": "moved"})
        # the events follow the table: the mover goes to the point where an Attack of
        # Opportunity triggers (a "move_leg"), the enemy makes its hit check there, and
        # on a success the mover stops at that point and takes the attack
        # the falls (drops) along the route, in its order: each is rolled as the mover
        # comes past it (before the event that takes it farther), so a move stopped by an
        # Attack of Opportunity rolls those before the stop and none after it; a mover a
        # fall takes out (Vitality 0) lies where it landed, its move over
        falls = self._route_falls(a, mv, route)
        legs, at = 0, start

        def fall_until(along: float) -> bool:
            while falls and falls[0][0] < along - 1e-6:
                s, height, where, land = falls.pop(0)
                self._fall(f, height, where, s)
                if not f.able:
                    face = _travel_facing(route[:_route_index(route, s) + 1] + [land], self.geometry.facing(f.id))
                    self.geometry.place(f.id, (land[0], land[1]), face % 360.0)
                    self._settle_move(f, a, tuple(self.pos(f.id)), face, allowance, stop=True, legs=legs)
                    return True
            return False

        for trig in ([] if sneaking else self._aoo_triggers(f, route, a.mode)):
            along, e, p, why, idx, hand = trig
            if fall_until(along):
                return
            face = _travel_facing(route[:idx + 1] + [p], self.geometry.facing(f.id))
            if math.dist(at[:2], p[:2]) > 1e-9:
                legs += 1
                self.emit("move_leg", {"model": f.id, "mode": a.mode, "end": [round(v, 6) for v in p],
                                       "facing": face % 360.0, "along": round(along, 6), "why": "attack of opportunity"})
                at = p
            if self._attack_of_opportunity(f, e, p, why, along, face):
                self._settle_move(f, a, tuple(self.pos(f.id)), face, allowance, stop=True, legs=legs)
                skills = self.aoo_skills(e, hand)
                if skills:
                    # "Skills can be used in an Attack of Opportunity but not spells": the
                    # attacker's side chooses the blow (an ``aoo`` action) before the mover's
                    # turn goes on; with no skill it could use, the plain blow, at once
                    self.aoo_pending = {"model": e, "mover": f.id, "hand": hand, "skills": skills}
                    self.emit("aoo_choice", {"model": e, "mover": f.id, "hand": hand, "skills": list(skills)})
                    return
                self._aoo_blow(e, f.id, hand, None)
                return
        if fall_until(math.inf):
            return
        end = tuple(mv.end)
        face = a.facing if a.facing is not None else _travel_facing(route, self.geometry.facing(f.id))
        self.geometry.place(f.id, end, face % 360.0)
        self._settle_move(f, a, end, face, allowance, stop=False, legs=legs)

    def _route_falls(self, a: Move, mv, route) -> list[tuple]:
        """The falls of a move, in route order: ``(inches along the route, height, where,
        where it lands)``. They are the geometry's ``falls`` (each placed on the route by
        its landing point ``at``; one without it at the route's end) and, for a walk,
        sprint or crawl, each step down of more than ``move.step_height`` (the geometry's
        ``steps``, ``at`` the route's point just before it; it lands 0.1" on): a jump
        down, the falling rule (rulings "Climbing and swimming"). A step down at the same
        place as a reported fall of the same height is that fall, not a second one. A
        climb climbs down; a flight lands."""
        total = mx.route_length(route)
        out = []
        for fl in getattr(mv, "falls", ()) or ():
            p = getattr(fl, "at", None)
            if p is None:
                out.append((total, float(fl.height), None, tuple(route[-1])))
            else:
                p = tuple(float(v) for v in p)
                out.append((_along_route(route, p), float(fl.height), p, p))
        if a.mode in ("walk", "sprint", "crawl"):
            top = float(self.r["move"]["step_height"])
            for st in getattr(mv, "steps", ()) or ():
                h = -float(st.height)
                if h <= top + 1e-6:
                    continue
                p = tuple(float(v) for v in st.at)
                s = _along_route(route, p)
                if any(abs(h - o[1]) <= 0.1 and -0.1 <= o[0] - s <= 1.0 for o in out):
                    continue
                out.append((s, h, p, _point_along(route, min(total, s + 0.1))))
        out.sort(key=lambda o: o[0])
        return out

    def _settle_move(self, f: Fighter, a: Move, end, face: float, allowance: float, *, stop: bool,
                     legs: int) -> None:
        """The mover's posture after a move, and the ``move`` event (where it ended)."""
        if a.mode == "crawl":
            f.low = True             # low behind cover; not fallen: it may still attack
        elif f.low:
            f.low = False            # a walk or sprint gets up as it goes
        self._sync_states(f)
        self.emit("move", {"model": f.id, "mode": a.mode, "moved": True, "allowance": allowance,
                           "end": [round(v, 6) for v in end], "facing": face % 360.0,
                           "stopped": stop, "legs": legs})

    def _fall(self, f: Fighter, height: float, where=None, along: float | None = None) -> None:
        """A fall of ``height`` at ``where`` (a point of the route, ``along`` inches down it)."""
        fr = self.r["falling"]
        dice = int(height // fr["inches_per_die"])
        ev = {"model": f.id, "height": height, "dice": dice}
        if where is not None:
            ev["at"] = [round(float(v), 6) for v in where]
        if along is not None:
            ev["along"] = round(float(along), 6)
        self.emit("fall", ev)
        if dice <= 0:
            return
        total = sum(self.roll("falling damage", fr["die"], model=f.id) for _ in range(dice))
        if fr["knocks_down"] and f.able:
            f.prone = True
            self._sync_states(f)
        self.damage(f.id, total, f"a fall of {height:.1f}\"")

    def _aoo_triggers(self, mover: Fighter, route, mode: str = "walk") -> list[tuple]:
        """Seed "Attack of Opportunity": the enemies the route gives one, in the order the
        mover reaches them: (inches along, enemy, point, why, sample index, hand).

        The attack comes at a point where the enemy could strike the mover (seed "Dealing
        With Hidden and Covered Targets": it sees it there, and no obstacle is between:
        "You cannot hit a target beyond or through an obstacle"): entering range while
        facing, at the first such point in range and in the enemy's front arc; moving away
        after a fight, at the last such point before the mover leaves the range."""
        ao = self.r["attack_of_opportunity"]
        samples = mx.route_samples(route, float(ao["path_step"]))
        triggers = []
        for e in self.enemies(mover.id):
            ef = self.fighters[e]
            if ef.prone and not self.r["fallen"]["can_attack"]:
                continue
            if ef.aoo_made >= ao["per_enemy_per_round"]:
                continue
            ah = self.aoo_hand(e)
            if ah is None:
                continue
            rng = ah[1]
            epos, efac = self.pos(e), self.geometry.facing(e)

            def dist(p):
                return mx.cylinder_distance(p, mover.radius, mover.height, epos, ef.radius, ef.height)

            fought = self.fought_recently(mover.id, e)
            inside0 = dist(samples[0][1]) <= rng + 1e-6
            away_done = False
            hit_at = None
            stayed = inside0          # in range all the way from the start so far
            for i, (s, p) in enumerate(samples[1:], start=1):
                d = dist(p)
                stayed = stayed and d <= rng + 1e-6
                if ao["entered_range_while_facing"] and d <= rng + 1e-6 and mx.relative_angle(
                        epos, efac, p) <= self.r["facing"]["front_half_angle"] + 1e-9:
                    if self._can_strike_at(e, mover, p, mode):
                        # a mover that set off within the range did not enter it: it moved
                        # within it (seed: "You move within or across an enemy's range")
                        hit_at = (s, p, "moved within range while faced" if stayed
                                  else "entered range while facing", i)
                        break
                    continue          # behind an obstacle here: no blow through it
                if ao["moved_away_after_attack"] and fought and inside0 and not away_done and d > rng + 1e-6:
                    away_done = True
                    # the last point still in range where the enemy could strike
                    for k in range(i - 1, -1, -1):
                        if self._can_strike_at(e, mover, samples[k][1], mode):
                            hit_at = (samples[k][0], samples[k][1], "moved away after a fight", k)
                            break
                    if hit_at is not None:
                        break
            if hit_at is not None:
                triggers.append((hit_at[0], e, hit_at[1], hit_at[2], hit_at[3], ah[0]))
        # the sample's index in the route's own points (for the facing of travel)
        return [(s, e, p, why, _route_index(route, s), hand) for s, e, p, why, idx, hand in sorted(triggers)]

    def _can_strike_at(self, e: str, mover: Fighter, p, mode: str) -> bool:
        """Could enemy ``e`` strike ``mover`` with the mover at route point ``p``: line of
        sight, and no scenery piece covering it (an obstacle between them)? The mover is
        put there for the question (standing, or low for a crawl) and back after it."""
        here, face = tuple(self.pos(mover.id)), self.geometry.facing(mover.id)
        # (x, y): the table stands the base on the surface under it (near its level)
        self.geometry.place(mover.id, (p[0], p[1]), face)
        step = float(self.r["move"]["step_height"])
        z = self.pos(mover.id)[2]
        if z < p[2] - step - 1e-6:
            # a geometry that put it far below the route's own height (a table that puts an
            # (x, y) on the table's top): the surface at the point, no higher than the route
            top = self.geometry.ground(p[0], p[1])[2]
            if top > z:
                self.geometry.place(mover.id, (p[0], p[1], min(top, p[2] + step)), face)
        self.geometry.set_states(mover.id, ["Crouched"] if mode == "crawl" else [])
        try:
            s = self._cover(e, mover.id)
        finally:
            self.geometry.place(mover.id, here, face)
            self._sync_states(mover)
        return bool(s.los) and not self._covered(s)

    def aoo_skills(self, e: str, hand: str) -> list[str]:
        """The attack skills ``e`` could use in the blow of its Attack of Opportunity with
        ``hand`` (as in an attack: known, an attack skill, for the hand's weapons, its cost
        payable), in its sheet's order; never a spell."""
        f = self.fighters[e]
        return [s for s in f.sheet.skills if self.data.skills.get(s, {}).get("type") == "offensive"
                and self._why_way(e, hand, s) is None]

    def aoo_options(self) -> list[AooAttack]:
        """The blows the waiting Attack of Opportunity may be struck with: the plain attack,
        then each usable skill (none when no blow waits)."""
        p = self.aoo_pending
        if p is None or self.is_over:
            return []
        return [AooAttack(p["model"], p["mover"], p["hand"], sk) for sk in (None, *p["skills"])]

    def _why_aooattack(self, a: AooAttack, f: Fighter) -> str | None:
        p = self.aoo_pending
        if a.target != p["mover"]:
            return f"{f.id}'s Attack of Opportunity is on {p['mover']}, not {a.target}"
        if a.hand != p["hand"]:
            return f"{f.id}'s Attack of Opportunity is made with its {p['hand']} hand, not its {a.hand}"
        if a.skill is not None:
            if a.skill in self.data.spells and a.skill not in self.data.skills:
                return f"{a.skill} is a spell: an Attack of Opportunity takes skills but not spells"
            why = self._why_way(f.id, a.hand, a.skill)
            if why:
                return why
        return None

    def _aoo_blow(self, e: str, mover: str, hand: str, skill: str | None, chosen: bool = False) -> None:
        """The blow of ``e``'s Attack of Opportunity on ``mover`` (its hit check succeeded):
        ``chosen``: after the attacker's choice (an ``aoo`` action), which the events say."""
        if chosen:
            self.emit("aoo_strike", {"model": e, "target": mover, "hand": hand, "skill": skill})
        self._strike_sequence(e, mover, [self._plain_part(e, hand, mover, skill)], allow_evade=bool(
            self.r["attack_of_opportunity"]["allows_evade"]), why="attack of opportunity")
        self._note_fought(e, mover)
        ef = self.fighters[e]
        if ef.hidden:         # it attacked (seed: hidden ends when it attacks)
            ef.hidden = False
            self.emit("hidden", {"model": e, "hidden": False, "why": "attacked"})

    def _attack_of_opportunity(self, mover: Fighter, e: str, p, why: str, along: float, face: float) -> bool:
        """Enemy ``e``'s hit check at point ``p``; True: the mover stops there (put on the
        surface at that point, facing its way of travel) and takes the attack."""
        ef = self.fighters[e]
        ef.aoo_made += 1
        self.emit("aoo", {"model": e, "mover": mover.id, "why": why, "at": [round(v, 6) for v in p],
                          "along": round(along, 6)})
        res = self.trait_check(e, "aoo_hit", why=f"attack of opportunity on {mover.id}")
        if not res.success:
            return False
        # (x, y) only: the table puts the base on the surface under it
        self.geometry.place(mover.id, (p[0], p[1]), face % 360.0)
        return True

    # ---- attacks -----------------------------------------------------------
    def _why_target(self, attacker: str, target: str, rng: float, *, front: bool = True,
                    enemy: bool = True) -> str | None:
        if target not in self.fighters:
            return f"no character {target!r}"
        t = self.fighters[target]
        a = self.fighters[attacker]
        if enemy and t.side == a.side:
            return f"{target} is not an enemy of {attacker}"
        if not t.able:
            return f"{target} is {t.status}"
        d = self.geometry.distance(attacker, target)
        if d > rng + 1e-6:
            return f"{target} is {d:.2f}\" away, out of range ({rng:g}\")"
        s = self._cover(attacker, target)          # one question: sight with its cover grade
        if not s.los:
            return f"{attacker} cannot see {target}"
        if self._covered(s):
            return f"{target} is covered by {s.cover_piece}: {attacker} must be on the same side of it"
        if t.hidden:
            return f"{target} is hidden: {attacker} must first spot it with a Perceive check"
        if front and self.r["facing"]["attack_only_front"] and not self.in_front(attacker, target):
            return f"{target} is not in {attacker}'s front arc (you can only attack to your front)"
        return None

    def _why_hand(self, f: Fighter, hand: str) -> str | None:
        if hand == "off":
            if f.off is None:
                return f"{f.id} holds nothing in its off hand"
        if hand == "dual":
            if "dual_wielding" not in f.sheet.abilities:
                return f"{f.id} lacks the dual wielding ability"
            if f.main is None or f.off is None:
                return f"{f.id} needs a weapon in each hand to dual wield"
            if any(self.weapon(w)["kind"] != "melee" for w in (f.main, f.off)):
                return "dual wielding takes two melee weapons"
        names = [f.main, f.off] if hand == "dual" else [f.main if hand == "main" else f.off]
        for n in names:
            w = self.weapon(n)
            if w["kind"] == "bow":
                if w.get("ammo") and f.ammo.get(w["ammo"], 0) <= 0:
                    return f"{f.id} has no {w['ammo']} left for its {n}"
                if w.get("reload") and n in f.unloaded:
                    return f"{f.id}'s {n} must be reloaded (a support action)"
                if self.swimming(f.id) and "bow" in self.r["swimming"]["no_attack_kinds"]:
                    return f"{f.id} is swimming and cannot shoot"
        return None

    def _why_part(self, mid: str, hand: str, skill: str | None, target: str) -> str | None:
        return self._why_way(mid, hand, skill) or self._why_target(mid, target, self.weapon_range(mid, hand))

    def _why_way(self, mid: str, hand: str, skill: str | None) -> str | None:
        """Can ``mid`` strike with this hand and skill at all (whatever the target)?"""
        f = self.fighters[mid]
        if f.prone and not self.r["fallen"]["can_attack"]:
            return f"{mid} is down and cannot attack (stand up first)"
        why = self._why_hand(f, hand)
        if why:
            return why
        if skill is not None:
            if skill not in f.sheet.skills:
                return f"{mid} does not know the skill {skill!r}"
            sk = self.data.skills[skill]
            if sk["type"] != "offensive":
                return f"{skill} is a support skill, not an attack"
            kinds = {self.weapon(n)["kind"] for n in ([f.main, f.off] if hand == "dual" else
                                                      [f.main if hand == "main" else f.off])}
            if not kinds <= set(sk["weapon_kinds"]):
                return f"{skill} works with {', '.join(sk['weapon_kinds'])} weapons"
            why = self.can_pay(f, sk.get("cost", {}))
            if why:
                return why
        return None

    def _why_attack(self, a: Attack, f: Fighter) -> str | None:
        why = self._why_part(f.id, a.hand, a.skill, a.target)
        if why:
            return why
        seen = set()
        for aid in a.aid:
            if aid.ally in seen or aid.ally == f.id:
                return f"{aid.ally} is listed twice in the attack"
            seen.add(aid.ally)
            why = self._why_aider(f, aid.ally)
            if why:
                return why
            why = self._why_part(aid.ally, aid.hand or "main", aid.skill, a.target)
            if why:
                return f"aid by {aid.ally}: {why}"
            if not self._aid_fits(aid.skill, a.skill):
                return (f"aid by {aid.ally}: a multi-attack skill can only aid the same skill "
                        f"({a.skill or 'a single attack'} here)")
        return None

    def _why_aider(self, f: Fighter, ally: str) -> str | None:
        """Can ``ally`` give up its attack action to aid ``f`` now (whatever the strike)?"""
        if ally not in self.fighters:
            return f"no character {ally!r}"
        al = self.fighters[ally]
        if al.side != f.side:
            return f"{ally} is not an ally of {f.id}"
        if not al.able:
            return f"{ally} is {al.status}"
        if al.turn_done or al.acted:
            return f"{ally} has already taken its turn this round: it cannot aid"
        if al.slots["attack"]:
            return f"{ally} has already used its Attack action"
        return None

    def _aid_fits(self, aid_skill: str | None, skill: str | None) -> bool:
        """A single attack aids any attack (it joins the first strike); a multi-attack skill
        aids only the same skill, strike by strike (seed "Aided Attacks")."""
        return aid_skill is None or self.data.skills[aid_skill]["strikes"] <= 1 or aid_skill == skill

    def _plain_part(self, mid: str, hand: str, target: str, skill: str | None = None) -> dict:
        return {"model": mid, "hand": hand, "skill": skill}

    def _do_attack(self, a: Attack, f: Fighter) -> None:
        parts = [self._plain_part(f.id, a.hand, a.target, a.skill)]
        for aid in a.aid:
            al = self.fighters[aid.ally]
            al.slots["attack"] = True
            parts.append(self._plain_part(aid.ally, aid.hand or "main", a.target, aid.skill))
        self.emit("attack", {"model": f.id, "target": a.target, "hand": a.hand, "skill": a.skill,
                             "aid": [p["model"] for p in parts[1:]]})
        self._strike_sequence(f.id, a.target, parts, allow_evade=True, why="attack")
        for p in parts:
            self._note_fought(p["model"], a.target)
            pf = self.fighters[p["model"]]
            if pf.hidden:
                pf.hidden = False
                self.emit("hidden", {"model": pf.id, "hidden": False, "why": "attacked"})

    def _note_fought(self, a: str, b: str) -> None:
        self.clock += 1
        self.fighters[a].attacked[b] = self.clock
        self.fighters[b].attacked[a] = self.clock

    def fought_recently(self, mover: str, enemy: str) -> bool:
        """Did ``mover`` and ``enemy`` fight (either attacked the other) since the start of the
        mover's previous turn? A fight in the last round, whoever's turn it came in: with a
        fixed initiative the enemy's blow lands after the mover's turn, and moving away at its
        next turn is the disengaging the seed's first trigger is about."""
        f = self.fighters[mover]
        at = f.attacked.get(enemy)
        if at is None:
            return False
        since = f.turn_marks[-2] if len(f.turn_marks) >= 2 else 0
        return at > since

    def _part_setup(self, part: dict, target: str) -> dict:
        """Pay a part's skill and roll its skill / hit checks. Returns its resolved state."""
        mid, hand, skill = part["model"], part["hand"], part["skill"]
        f = self.fighters[mid]
        names = [f.main, f.off] if hand == "dual" else [f.main if hand == "main" else f.off]
        st = {"model": mid, "hand": hand, "skill": skill, "weapons": names, "ok": True,
              "skill_crit": False, "backfire": False, "strikes": 1}
        if skill:
            sk = self.data.skills[skill]
            st["strikes"] = int(sk["strikes"])
            if not self.pay(f, sk.get("cost", {}), skill):
                st["ok"] = False
                return st
            outcome, _ = self.skill_roll(mid, sk["trait"], sk["difficulty"], skill)
            st["skill_outcome"] = outcome
            if outcome == "crit":
                st["skill_crit"] = True
            elif outcome == "failure":
                st["ok"] = False
                return st
            elif outcome == "backfire":
                st["backfire"] = True
        kinds = {self.weapon(n)["kind"] for n in names}
        if kinds & {"thrown", "bow"}:
            w = self.weapon(names[0])
            short = w.get("short_range")
            far = short is not None and self.geometry.distance(mid, target) > short + 1e-6
            res = self.trait_check(mid, "ranged_hit_long" if far else "ranged_hit",
                                   why=f"{names[0]} at {target}")
            self._spend_shot(f, names[0], hand)
            if not res.success:
                st["ok"] = False
        return st

    def _spend_shot(self, f: Fighter, name: str, hand: str = "main") -> None:
        """An arrow or bolt spent (a reload due), or a thrown weapon gone from the hand
        that threw it (``hand``: a javelin in each hand, the off hand's throw keeps the
        main hand's)."""
        w = self.weapon(name)
        if w["kind"] == "bow":
            if w.get("ammo"):
                f.ammo[w["ammo"]] = f.ammo.get(w["ammo"], 0) - 1
            if w.get("reload") and name not in f.unloaded:
                f.unloaded.append(name)
        elif w["kind"] == "thrown":
            if hand == "off" and f.off == name:
                f.off = None
            elif f.main == name:
                f.main = None
            elif f.off == name:
                f.off = None
            self.emit("thrown_away", {"model": f.id, "weapon": name})

    def _part_damage(self, st: dict, strike: int) -> dict | None:
        """One part's contribution to one strike (critical hit check included); None: no damage."""
        f = self.fighters[st["model"]]
        sk = self.data.skills[st["skill"]] if st["skill"] else None
        crit = self.critical_hit_check(f.id, f"{st['skill'] or 'attack'} strike {strike + 1}",
                                       backfire=st["backfire"])
        out = {"model": f.id, "damage": 0, "deathblow": False, "backfire": st["backfire"]}
        if crit == "fumble":
            if sk is not None:
                d6 = self.roll(f"critical mishap: {st['skill']}", 6, model=f.id)
                mishap = self.data.fumble(d6)
                self.emit("mishap", {"model": f.id, "skill": st["skill"], "result": mishap})
                if mishap == "failure":
                    return None
                if mishap == "backfire":
                    out["backfire"] = True
                crit = None
            else:
                self.emit("no_damage", {"model": f.id, "why": "natural 1 on the critical hit check"})
                return None
        if crit == "deathblow":
            out["deathblow"] = True
        mult = mx.critical_multiplier(st["skill_crit"], {"crit": "crit", "double": "double",
                                                         "deathblow": "double"}.get(crit), self.r["critical"])
        eff = self.r["critical"]["skill_crit_effect_multiplier"] if st["skill_crit"] else 1
        total = 0
        # what the damage is made of, each (what, value): "longsword 5 + Offensive Power 8"
        terms: list[list] = []
        hands = ["main", "off"] if st["hand"] == "dual" else [st["hand"]]
        for name, hand in zip(st["weapons"], hands):
            w = self.weapon(name)
            dmg = int(w["damage"])
            terms.append([name or "unarmed", dmg])
            if w["kind"] == "bow":        # bow + arrow; Bow Power; always the dominant hand
                if w.get("ammo"):
                    arrow = int(self.data.ammo[w["ammo"]]["damage"])
                    dmg += arrow
                    terms.append([w["ammo"], arrow])
                power, how, pname = f.sheet.bow_power, "bow", "Bow Power"
            else:
                power, how, pname = f.sheet.offensive_power, hand, "Offensive Power"
            pw = mx.power_term(power, how, w["hands"] == 2 and how != "bow", mult,
                               self.r["off_hand_power_fraction"], self.r["two_handed_power_times"])
            dmg += pw
            if pw:
                terms.append([pname, pw])
            total += dmg
        if sk is not None and int(sk.get("damage", 0)) * eff:
            total += int(sk.get("damage", 0)) * eff
            terms.append([st["skill"], int(sk.get("damage", 0)) * eff])
        out["damage"] = total
        out["multiplier"] = mult
        out["terms"] = terms
        return out

    def _strike_sequence(self, attacker: str, target: str, parts: list[dict], *, allow_evade: bool,
                         why: str) -> None:
        states = [self._part_setup(p, target) for p in parts]
        n = states[0]["strikes"]
        kinds = {self.weapon(w)["kind"] for w in states[0]["weapons"]}
        allow_evade = allow_evade and bool(kinds & set(self.r["evade"]["against"]))
        # a multi-attack skill's strikes are told apart ("strike 2 of 2: no hit on B ...")
        many = {"strikes": n} if n > 1 else {}
        for k in range(n):
            if not self.fighters[target].able:
                break
            # an aid is "added to your ally's total ... rather than attacking independently":
            # it lands only with a main strike that connects (hit, skill roll, no natural 1
            # on the critical hit check); otherwise the strike misses as a whole
            main = self._part_damage(states[0], k) if states[0]["ok"] else None
            if main is None:
                self.emit("strike", {"attacker": attacker, "target": target, "what": f"{why} strike {k + 1}",
                                     "hit": False, "why": f"{attacker}'s attack does not connect"
                                     + (": the aid adds nothing" if len(states) > 1 else ""), **many})
                continue
            contribs = [main]
            for st in states[1:]:
                if not st["ok"]:
                    continue
                if k >= st["strikes"]:
                    continue          # a single aided attack joins the first strike only
                c = self._part_damage(st, k)
                if c is not None:
                    contribs.append(c)
            self._land_strike(attacker, target, contribs, allow_evade, f"{why} strike {k + 1}", many)

    def _land_strike(self, attacker: str, target: str, contribs: list[dict], allow_evade: bool,
                     why: str, many: dict | None = None) -> None:
        many = many or {}
        if not contribs:
            self.emit("strike", {"attacker": attacker, "target": target, "what": why, "hit": False,
                                 "why": "no part of the strike connects", **many})
            return
        for c in contribs:
            if c["backfire"]:
                self.emit("backfire", {"model": c["model"], "what": why})
                self.damage(c["model"], c["damage"], f"backfire of {why}")
        contribs = [c for c in contribs if not c["backfire"]]
        if not contribs:
            return
        if any(c["deathblow"] for c in contribs):
            self.emit("strike", {"attacker": attacker, "target": target, "what": why, "hit": True,
                                 "deathblow": True, **many})
            self._kill(self.fighters[target], f"deathblow ({why})")
            return
        total = sum(c["damage"] for c in contribs)
        if allow_evade and self._evade(target, attacker, why):
            self.emit("strike", {"attacker": attacker, "target": target, "what": why, "hit": False,
                                 "why": "evaded", "damage": total, **many})
            return
        self.emit("strike", {"attacker": attacker, "target": target, "what": why, "hit": True,
                             "damage": total, "parts": [{"model": c["model"], "damage": c["damage"],
                                                         "terms": c.get("terms", [])}
                                                        for c in contribs], **many})
        # an aided strike's damage: what each part is made of (the "hit" line gives the shares)
        self.damage(target, total, why, terms=[[f"{c['model']}'s {w}", v] for c in contribs
                                               for w, v in c.get("terms", [])] if len(contribs) > 1 else ())

    def evade_value(self, target: str, attacker: str) -> tuple[int, str]:
        t = self.fighters[target]
        arc = self.arc(target, attacker)
        mod = self.r["facing"]["evade_modifier"][arc]
        red = self.fighters[attacker].focus.get(target, 0)
        other = self.r["evade"]["fallen_modifier"] if t.prone else 0
        return mx.reduced_evade(t.sheet.trait("evade"), red, mod, self.r["evade"]["focused_min"], other), arc

    def evade_modifiers(self, target: str, attacker: str) -> tuple[list[tuple[str, int]], str]:
        """The modifiers of ``target``'s Evade against ``attacker``, each ``(what, value)``
        (the attacker's Focus, the facing, being down), and the arc: they add up to
        ``evade_value`` less the Evade trait."""
        t = self.fighters[target]
        evade = t.sheet.trait("evade")
        value, arc = self.evade_value(target, attacker)
        red = self.fighters[attacker].focus.get(target, 0)
        focused = mx.reduced_evade(evade, red, 0, self.r["evade"]["focused_min"]) - evade
        arc_mod = int(self.r["facing"]["evade_modifier"][arc])
        mods = [(f"{attacker}'s focus", focused), (f"{arc} attack", arc_mod)]
        down = value - evade - focused - arc_mod
        if down:
            mods.append(("down", down))
        return mods, arc

    def _evade(self, target: str, attacker: str, why: str) -> bool:
        mods, arc = self.evade_modifiers(target, attacker)
        res = self.trait_check(target, "evade", modifiers=mods, why=f"{why} from {attacker} ({arc})")
        return res.success

    # ---- potions and support -----------------------------------------------------
    def _why_throwpotion(self, a: ThrowPotion, f: Fighter) -> str | None:
        if self.data.items.get(a.item, {}).get("kind") != "potion":
            return f"{a.item!r} is not a potion"
        if f.inventory.get(a.item, 0) <= 0:
            return f"{f.id} carries no {a.item}"
        if a.to not in self.fighters or a.to == f.id:
            return f"{a.to!r} is not another character"
        t = self.fighters[a.to]
        if t.side != f.side:
            return f"{a.to} is not an ally"
        if not t.able:
            return f"{a.to} is {t.status}: it cannot catch a potion"
        d = self.geometry.distance(f.id, a.to)
        if d > self.r["potions"]["throw_range"] + 1e-6:
            return f"{a.to} is {d:.2f}\" away; a potion is thrown {self.r['potions']['throw_range']}\" at most"
        # sight over the scenery only: a character in the way does not stop the throw, it
        # is in the potion's path and gets its React check to catch it (seed "Support Actions")
        if not self.geometry.sight(f.id, a.to, moving=True, models_block=False).los:
            return f"{f.id} cannot see {a.to} past the scenery"
        return None

    def _do_throwpotion(self, a: ThrowPotion, f: Fighter) -> None:
        f.inventory[a.item] -= 1
        centres = {m: self.pos(m) for m, o in self.fighters.items() if m != f.id and o.able}
        if a.to not in centres:
            centres[a.to] = self.pos(a.to)
        radii = {m: self.fighters[m].radius for m in centres}
        src, dst = self.pos(f.id), self.pos(a.to)
        # the path runs between the thrower's and the catcher's hitboxes, in height too: a
        # character on a ledge above it (or in a pit below it) is not in the potion's path
        bands = {m: (float(p[2]), float(p[2]) + self.fighters[m].height) for m, p in centres.items()}
        on_path = [m for s, m in mx.segment_hits(src, dst, centres, radii, self.r["potions"]["path_width"],
                                                 bands, (float(src[2]), float(src[2]) + f.height), bands[a.to])]
        if a.to in on_path:
            on_path = on_path[:on_path.index(a.to) + 1]
        self.emit("throw_potion", {"model": f.id, "item": a.item, "to": a.to, "path": on_path})
        for m in on_path:
            if not self.fighters[m].able:
                continue
            if self.trait_check(m, "catch", why=f"catch {a.item}").success:
                self.fighters[m].inventory[a.item] = self.fighters[m].inventory.get(a.item, 0) + 1
                self.emit("caught", {"model": m, "item": a.item})
                return
        self.emit("shattered", {"item": a.item})

    def _why_usepotion(self, a: UsePotion, f: Fighter) -> str | None:
        it = self.data.items.get(a.item)
        if it is None or it.get("kind") != "potion":
            return f"{a.item!r} is not a potion"
        if f.inventory.get(a.item, 0) <= 0:
            return f"{f.id} carries no {a.item}"
        if a.target not in self.fighters:
            return f"no character {a.target!r}"
        t = self.fighters[a.target]
        if t.side != f.side:
            return f"{a.target} is not an ally"
        if t.status == "dead":
            return f"{a.target} is dead"
        if a.target != f.id:
            d = self.geometry.distance(f.id, a.target)
            pr = self.r["potions"]
            if d > pr["use_range"] + 1e-6:
                return f"{a.target} is {d:.2f}\" away; a potion is given within {pr['use_range']} space"
            if pr["use_needs_facing"] and not self.in_front(f.id, a.target):
                return f"{f.id} must face {a.target} to give it a potion"
        return None

    def _do_usepotion(self, a: UsePotion, f: Fighter) -> None:
        it = self.data.items[a.item]
        f.inventory[a.item] -= 1
        self.emit("potion", {"model": f.id, "item": a.item, "target": a.target})
        self.heal(a.target, it["restores"], int(it["amount"]), a.item)

    def _held_and_carried(self, f: Fighter) -> dict[str, int]:
        have = {k: v for k, v in f.inventory.items() if k in self.data.weapons and v > 0}
        for w in (f.main, f.off):
            if w is not None:
                have[w] = have.get(w, 0) + 1
        return have

    def _why_equip(self, a: Equip, f: Fighter) -> str | None:
        if (a.main, a.off) == (f.main, f.off):
            return "that is the equipment already in hand"
        for hand, held, new in (("main hand", f.main, a.main), ("off hand", f.off, a.off)):
            # claws, a bite: part of the creature, never put away nor swapped
            if held is not None and new != held and self.data.weapons.get(held, {}).get("natural"):
                return f"{f.id}'s {held} ({hand}) is a natural weapon: it cannot be put away"
        have = self._held_and_carried(f)
        need: dict[str, int] = {}
        for n in (a.main, a.off):
            if n is None:
                continue
            if n not in self.data.weapons:
                return f"unknown weapon {n!r}"
            need[n] = need.get(n, 0) + 1
        for n, c in need.items():
            if have.get(n, 0) < c:
                # "does not carry two daggers" (it read "two dagger")
                return f"{f.id} does not carry {f'two {n}' + ('' if n.endswith('s') else 's') if c > 1 else n}"
        if a.main and self.weapon(a.main)["hands"] == 2 and a.off is not None:
            return f"{a.main} is two-handed: the off hand must be empty"
        if a.off and self.weapon(a.off)["hands"] == 2:
            return f"{a.off} is two-handed: put it in the main hand"
        return None

    def _do_equip(self, a: Equip, f: Fighter) -> None:
        for w in (f.main, f.off):
            if w is not None:
                f.inventory[w] = f.inventory.get(w, 0) + 1
        for w in (a.main, a.off):
            if w is not None:
                f.inventory[w] -= 1
        f.inventory = {k: v for k, v in f.inventory.items() if v > 0 or k in self.data.items}
        f.main, f.off = a.main, a.off
        self.emit("equip", {"model": f.id, "main": f.main, "off": f.off})

    def _loadable(self, f: Fighter, name: str | None) -> bool:
        """A held weapon waiting to be reloaded, with its ammunition at hand."""
        if name is None or name not in f.unloaded:
            return False
        ammo = self.weapon(name).get("ammo")
        return not ammo or f.ammo.get(ammo, 0) > 0

    def _why_reload(self, a: Reload, f: Fighter) -> str | None:
        if not any(n in f.unloaded for n in (f.main, f.off) if n):
            return f"{f.id} holds no weapon that needs reloading"
        if not any(self._loadable(f, n) for n in (f.main, f.off)):
            names = [n for n in (f.main, f.off) if n in f.unloaded]
            return f"{f.id} has no {self.weapon(names[0])['ammo']} left to load its {names[0]}"
        return None

    def _do_reload(self, a: Reload, f: Fighter) -> None:
        for n in (f.main, f.off):
            if self._loadable(f, n):
                f.unloaded.remove(n)
                self.emit("reload", {"model": f.id, "weapon": n})
                return

    def _why_focus(self, a: Focus, f: Fighter) -> str | None:
        if a.target in f.focus:
            return f"{f.id} has already focused on {a.target}"
        return self._why_target(f.id, a.target, float("inf"), front=False)

    def _do_focus(self, a: Focus, f: Fighter) -> None:
        res = self.trait_check(f.id, "focused", why=f"focus on {a.target}")
        if res.success:
            f.focus[a.target] = max(1, f.sheet.trait("focus") + 1)     # a success lowers it by 1 at least
        self.emit("focus", {"model": f.id, "target": a.target, "success": res.success,
                            "reduction": f.focus.get(a.target, 0)})

    def _why_useskill(self, a: UseSkill, f: Fighter) -> str | None:
        if a.skill not in f.sheet.skills:
            return f"{f.id} does not know the skill {a.skill!r}"
        sk = self.data.skills[a.skill]
        if sk["type"] != "support":
            return f"{a.skill} is an offensive skill: it is used with an attack"
        why = self.can_pay(f, sk.get("cost", {}))
        if why:
            return why
        if sk.get("effect") == "hide":
            if f.hidden:
                return f"{f.id} is already hidden"
            for e in self.enemies(f.id):
                s = self._sight(e, f.id)
                if s.los and not self._covered(self._cover(e, f.id)):
                    return f"{e} sees {f.id} in the open: hiding needs cover or no line of sight"
        return None

    def _do_useskill(self, a: UseSkill, f: Fighter) -> None:
        sk = self.data.skills[a.skill]
        if not self.pay(f, sk.get("cost", {}), a.skill):
            return
        outcome, _ = self.skill_roll(f.id, sk["trait"], sk["difficulty"], a.skill)
        eff = self.r["critical"]["skill_crit_effect_multiplier"] if outcome == "crit" else 1
        if outcome in ("failure",):
            return
        if sk["effect"] == "hide":
            if outcome == "backfire":
                self.emit("backfire", {"model": f.id, "what": a.skill})
                return
            f.hidden = True
            self.emit("hidden", {"model": f.id, "hidden": True, "why": a.skill})
        elif sk["effect"] == "restore":
            amount = int(sk["amount"]) * eff
            if outcome == "backfire":
                pool = sk["restores"]
                lost = min(amount, getattr(f, pool))     # what it had to lose (a pool stops at 0)
                setattr(f, pool, getattr(f, pool) - lost)
                self.emit("backfire", {"model": f.id, "what": a.skill, "lost": {pool: lost}, pool: getattr(f, pool)})
            else:
                self.heal(f.id, sk["restores"], amount, a.skill)

    def _why_perceive(self, a: Perceive, f: Fighter) -> str | None:
        if a.target not in self.fighters:
            return f"no character {a.target!r}"
        t = self.fighters[a.target]
        if t.side == f.side or not t.able:
            return f"{a.target} is not an enemy able to fight"
        if not t.hidden:
            return f"{a.target} is not hidden"
        if a.target in f.perceived:
            return f"{f.id} has already tried to spot {a.target} this round"
        if not self._sight(f.id, a.target).los:
            return f"{f.id} has no line of sight to {a.target}"
        return None

    def _do_perceive(self, a: Perceive, f: Fighter) -> None:
        f.perceived.append(a.target)
        cover = self._cover(f.id, a.target).cover
        add = int(self.r["perceive_cover_modifier"].get(cover, 0))
        res = self.trait_check(f.id, "perceive", difficulty_mods=[(f"{cover} cover", add)],
                               why=f"spot {a.target}")
        if res.success:
            self.fighters[a.target].hidden = False
            self.emit("hidden", {"model": a.target, "hidden": False, "why": f"spotted by {f.id}"})

    # ---- magic -----------------------------------------------------------------
    def spell_rounds(self, mid: str, spell: str) -> int:
        sp = self.data.spells[spell]
        return max(1, math.ceil(int(sp["speed"]) / self.fighters[mid].sheet.runic_casting_speed))

    def _why_spell_target(self, mid: str, spell: str, target: str | None) -> str | None:
        sp = self.data.spells[spell]
        if sp.get("area"):
            if target is not None:
                return f"{spell} is an area around the caster: it takes no target"
            return None
        if target is None:
            return f"{spell} needs a target"
        if sp["type"] == "healing":
            if target not in self.fighters:
                return f"no character {target!r}"
            t = self.fighters[target]
            if t.side != self.fighters[mid].side:
                return f"{spell} heals: {target} is not an ally"
            # a dead ally is a target: "dead and can only be revived by spell"
            if target == mid:
                return None
            d = self.geometry.distance(mid, target)
            if d > sp["range"] + 1e-6:
                return f"{target} is {d:.2f}\" away, out of range ({sp['range']}\")"
            if sp.get("los") and not self._sight(mid, target).los:
                return f"{mid} cannot see {target}"
            return None
        return self._why_target(mid, target, float(sp["range"]))

    def _why_cast(self, a: Cast, f: Fighter) -> str | None:
        if f.charging:
            return f"{f.id} is still casting {f.charging['spell']}"
        if a.spell not in f.sheet.spells:
            return f"{f.id} does not know the spell {a.spell!r}"
        sp = self.data.spells[a.spell]
        why = self.can_pay(f, sp.get("cost", {})) or self._why_spell_target(f.id, a.spell, a.target)
        if why:
            return why
        if a.aid:
            if sp.get("area"):
                return "aided magic needs a target spell (not an area)"
            if self.spell_rounds(f.id, a.spell) > 1:
                return f"aided magic: {a.spell} takes more than this round for {f.id}"
        seen = set()
        mine = f.sheet.element or sp["element"]
        for aid in a.aid:
            if aid.ally in seen or aid.ally == f.id:
                return f"{aid.ally} is listed twice in the spell"
            seen.add(aid.ally)
            if aid.ally not in self.fighters:
                return f"no character {aid.ally!r}"
            al = self.fighters[aid.ally]
            if al.side != f.side or not al.able:
                return f"{aid.ally} is not an ally able to cast"
            if al.turn_done or al.acted:
                return f"{aid.ally} has already taken its turn this round: it cannot aid"
            if al.slots["magic"] or al.charging:
                return f"{aid.ally} has already used its Magic action"
            if aid.skill not in al.sheet.spells:
                return f"{aid.ally} does not know the spell {aid.skill!r}"
            sp2 = self.data.spells[aid.skill]
            if sp2["type"] != sp["type"]:
                return f"aided magic: both spells must be {sp['type']} spells ({aid.skill} is {sp2['type']})"
            theirs = al.sheet.element or sp2["element"]
            if self.data.opposed(mine, theirs):
                return f"aided magic: {f.id} ({mine}) and {aid.ally} ({theirs}) are of opposing elements"
            if sp2.get("area"):
                return f"aided magic: {aid.skill} is an area spell"
            if self.spell_rounds(aid.ally, aid.skill) > 1:
                return f"aided magic: {aid.skill} takes more than this round for {aid.ally}"
            why = self.can_pay(al, sp2.get("cost", {})) or self._why_spell_target(aid.ally, aid.skill, a.target)
            if why:
                return f"aid by {aid.ally}: {why}"
        return None

    def _do_cast(self, a: Cast, f: Fighter) -> None:
        sp = self.data.spells[a.spell]
        if f.hidden:
            f.hidden = False
            self.emit("hidden", {"model": f.id, "hidden": False, "why": "cast a spell"})
        for aid in a.aid:
            al = self.fighters[aid.ally]
            al.slots["magic"] = True
            if al.hidden:            # joining the cast is casting: it ends hiding as the caster's does
                al.hidden = False
                self.emit("hidden", {"model": al.id, "hidden": False, "why": "cast a spell"})
        if not self.pay(f, sp.get("cost", {}), a.spell):
            self.emit("spell", {"model": f.id, "spell": a.spell, "cast": False, "why": "cost not paid"})
            return
        rounds = self.spell_rounds(f.id, a.spell)
        if rounds > 1:
            f.charging = {"spell": a.spell, "target": a.target, "ready_round": self.round + rounds - 1}
            self.emit("spell_charging", {"model": f.id, "spell": a.spell, "ready_round": self.round + rounds - 1,
                                         "speed": sp["speed"], "runic_casting_speed": f.sheet.runic_casting_speed})
            return
        self._resolve_spell(f.id, a.spell, a.target, a.aid)

    def _spell_part(self, mid: str, spell: str) -> dict:
        sp = self.data.spells[spell]
        outcome, _ = self.skill_roll(mid, sp["trait"], sp["difficulty"], spell)
        return {"model": mid, "spell": spell, "outcome": outcome}

    def _resolve_spell(self, mid: str, spell: str, target: str | None, aid) -> None:
        sp = self.data.spells[spell]
        f = self.fighters[mid]
        parts = [self._spell_part(mid, spell)]
        for al in aid:
            alf = self.fighters[al.ally]
            if not self.pay(alf, self.data.spells[al.skill].get("cost", {}), al.skill):
                continue
            parts.append(self._spell_part(al.ally, al.skill))
        # targets at the moment the spell is released
        if sp.get("area"):
            radius = self.data.area_radius(sp["area"])
            targets = []
            for o in self.fighters.values():
                if o.status == "dead" and sp["type"] == "damage":
                    continue          # a healing area revives the dead allies in it
                if sp["type"] == "damage":
                    if o.id == mid or (not self.r["area_friendly_fire"] and o.side == f.side):
                        continue
                elif o.side != f.side:
                    continue
                if o.id != mid and self.geometry.distance(mid, o.id) > radius + 1e-6:
                    continue
                # seed "Using Skills and Spells": "Targets within the area of effect are
                # affected ... Walls and solid obstacles may block an area of effect": the
                # scenery blocks it, the characters in the area do not (each is a target)
                if sp.get("los") and o.id != mid and not self.geometry.sight(
                        mid, o.id, moving=True, models_block=False).los:
                    self.emit("blocked", {"spell": spell, "model": o.id, "why": "no line of sight from the caster"})
                    continue
                targets.append(o.id)
        else:
            why = self._why_spell_target(mid, spell, target)
            if why:
                self.emit("spell", {"model": mid, "spell": spell, "cast": False, "why": f"fizzles: {why}"})
                return
            targets = [target]
        live = [p for p in parts if p["outcome"] in ("crit", "success", "works_anyway", "backfire")]
        self.emit("spell", {"model": mid, "spell": spell, "cast": True, "targets": targets,
                            "parts": [{"model": p["model"], "spell": p["spell"], "outcome": p["outcome"]}
                                      for p in parts]})
        if not live:
            return
        if live[0] is not parts[0]:
            # the caster's own spell failed: an aided spell "is added to your ally's, increasing
            # their total", so the aid adds to nothing (it is spent all the same)
            for t in targets:
                self.emit("strike", {"attacker": mid, "target": t, "what": spell, "hit": False,
                                     "why": f"{mid}'s {spell} fails: the aid adds nothing"})
            return
        for t in targets:
            total, flipped, deathblow = 0, 0, False      # flipped: the backfired parts' share
            terms: list[list] = []                         # what ``total`` is made of
            for p in live:
                backfire = p["outcome"] == "backfire"
                pf = self.fighters[p["model"]]
                psp = self.data.spells[p["spell"]]
                crit = self.critical_hit_check(p["model"], f"{p['spell']} on {t}", backfire=backfire)
                if crit == "fumble":
                    d6 = self.roll(f"critical mishap: {p['spell']}", 6, model=p["model"])
                    mishap = self.data.fumble(d6)
                    self.emit("mishap", {"model": p["model"], "spell": p["spell"], "result": mishap})
                    if mishap == "failure":
                        if p is parts[0] and len(live) > 1:
                            # the caster's share fails on this target: the aid adds to nothing
                            self.emit("strike", {"attacker": mid, "target": t, "what": spell, "hit": False,
                                                 "why": f"{mid}'s {spell} fails: the aid adds nothing"})
                            break
                        continue
                    crit = None
                    if mishap == "backfire":
                        backfire = True
                if crit == "deathblow":
                    deathblow = True
                skill_crit = p["outcome"] == "crit"
                mult = mx.critical_multiplier(skill_crit, {"crit": "crit", "double": "double",
                                                           "deathblow": "double"}.get(crit), self.r["critical"])
                eff = self.r["critical"]["skill_crit_effect_multiplier"] if skill_crit else 1
                rp = mx.power_term(pf.sheet.runic_power, "spell", False, mult)
                share = int(psp["value"]) * eff + rp
                if backfire:
                    # only the part that backfired does the opposite (an aider's fumble does
                    # not turn the caster's spell)
                    flipped += share
                    self.emit("backfire", {"model": p["model"], "what": p["spell"], "target": t,
                                           "now": "healing" if sp["type"] == "damage" else "damage"})
                else:
                    total += share
                    who = f"{p['model']}'s " if len(live) > 1 else ""
                    terms.append([f"{who}{p['spell']}", int(psp["value"]) * eff])
                    if rp:
                        terms.append([f"{who}Runic Power" if who else "Runic Power", rp])
            if flipped:
                if sp["type"] == "damage":
                    self.heal(t, "vitality", flipped, f"backfire of {spell}")
                else:
                    self.damage(t, flipped, f"backfire of {spell}")
            if not total:
                continue
            backfire = False
            kind = sp["type"]
            if kind == "damage":
                if deathblow and not backfire:
                    self.emit("epic_casting", {"model": mid, "spell": spell, "target": t, "effect": "killed"})
                    self._kill(self.fighters[t], f"epic casting of {spell}")
                    continue
                if self.fighters[t].able and "spell" in self.r["evade"]["against"] and not backfire \
                        and self._evade(t, mid, spell):
                    self.emit("strike", {"attacker": mid, "target": t, "what": spell, "hit": False, "why": "evaded"})
                    continue
                self.damage(t, total, spell, terms=terms)
            else:
                if deathblow and not backfire:
                    self.emit("epic_casting", {"model": mid, "spell": spell, "target": t, "effect": "fully restored"})
                    total, terms = self.fighters[t].sheet.vitality, []
                self.heal(t, "vitality", total, spell, revive=True, terms=terms)

    # ---- legal actions ----------------------------------------------------------
    def generate_actions(self, moves: bool = True) -> Iterator[Action]:
        """Every legal action of the active character (moves: a sample of useful routes)."""
        if self.is_over or not self.queue:
            return
        if self.aoo_pending is not None:
            yield from self.aoo_options()
            return
        mid = self.queue[0]
        for a in dict.fromkeys(self.candidate_actions(mid, moves)):
            if isinstance(a, Move) or self.why_illegal(a) is None:
                yield a

    def candidate_actions(self, mid: str, moves: bool = True) -> Iterator[Action]:
        """Candidate actions of ``mid`` (not yet checked); moves last, and only with ``moves``."""
        f = self.fighters[mid]
        yield EndTurn(mid)
        yield Wait(mid)
        enemies = self.enemies(mid)
        allies = self.allies(mid)
        if not f.slots["attack"]:
            ways = [(hand, sk) for hand in ("main", "off", "dual") for sk in
                    (None, *(s for s in f.sheet.skills if self.data.skills[s]["type"] == "offensive"))]
            for e in enemies:
                for hand, sk in ways:
                    yield Attack(mid, e, hand, sk)
                yield from self.aided_attacks(mid, e, ways)
            for item, n in sorted(f.inventory.items()):
                if n > 0 and item in self.data.items:
                    for al in allies:
                        yield ThrowPotion(mid, item, al)
        if not f.slots["magic"]:
            for sp in f.sheet.spells:
                s = self.data.spells[sp]
                if s.get("area"):
                    yield Cast(mid, sp, None)
                    continue
                pool = [mid] + allies + [o.id for o in self.fighters.values() if o.status in ("dying", "stable", "dead")
                                         and o.side == f.side] if s["type"] == "healing" else enemies
                for t in dict.fromkeys(pool):
                    yield Cast(mid, sp, t)
                    yield from self.aided_casts(mid, sp, t)
        if not f.slots["support"]:
            for item, n in sorted(f.inventory.items()):
                if n > 0 and item in self.data.items:
                    for t in [mid] + [o.id for o in self.fighters.values() if o.side == f.side and o.id != mid]:
                        yield UsePotion(mid, item, t)
            yield Reload(mid)
            for e in enemies:
                yield Focus(mid, e)
            for sk in f.sheet.skills:
                if self.data.skills[sk]["type"] == "support":
                    yield UseSkill(mid, sk)
            if f.main is not None or f.off is not None:
                yield Equip(mid, None, None)          # empty hands: unarmed
            for w in sorted(self._held_and_carried(f)):
                if w == f.main:
                    continue
                keep = f.off if f.off is not None and f.off != w and self.weapon(w)["hands"] == 1 else None
                yield Equip(mid, w, keep)
            # a second weapon drawn into the off hand ("You can change as much equipment as
            # you want" in one support action): beside the one-handed weapon kept in the main
            # hand (a dagger beside the longsword), or, from empty hands or a two-handed
            # weapon, beside each one-handed weapon drawn into the main hand (a bow put away
            # for a shortsword and a dagger)
            have = self._held_and_carried(f)
            one = [w for w in sorted(have) if self.weapon(w)["hands"] == 1]
            mains = [f.main] if f.main is not None and self.weapon(f.main)["hands"] == 1 else one
            for m in mains:
                for w in one:
                    if (m, w) != (f.main, f.off) and have[w] > (w == m):
                        yield Equip(mid, m, w)
        for e in enemies:
            yield Perceive(mid, e)
        if not f.slots["move"]:
            if f.prone or f.low:
                yield Stand(mid)
            for e in enemies:
                if not self.in_front(mid, e):
                    yield Turn(mid, round(mx.facing_towards(self.pos(mid), self.pos(e)), 2))
            if not f.slots["support"] and any(n > 0 and self.data.items.get(i, {}).get("kind") == "potion"
                                              for i, n in f.inventory.items()):
                # "To use a potion on an ally you must be within 1 space and facing them":
                # turning to face an ally within reach (the menu's only way to turn)
                reach = float(self.r["potions"]["use_range"])
                for o in self.fighters.values():
                    if o.side == f.side and o.id != mid and o.status != "dead" and not self.in_front(mid, o.id) \
                            and self.geometry.distance(mid, o.id) <= reach + 1e-6:
                        yield Turn(mid, round(mx.facing_towards(self.pos(mid), self.pos(o.id)), 2))
            if moves:
                yield from self.candidate_moves(mid)

    def aided_attacks(self, mid: str, target: str, ways) -> list[Attack]:
        """``mid``'s aided attacks on ``target`` (not yet checked): each of its ``ways``
        (hand, skill) with every aid that fits it: one ally in each of its ways, several
        allies (in scene order) in every combination of theirs. Where that comes to more
        than ``AIDED_ATTACKS``, groups of two or more allies aid with their first way only
        (the plain main-hand attack when they have it)."""
        ways = [(h, sk) for h, sk in ways if self._why_way(mid, h, sk) is None]
        aids = self.aid_ways(mid, target)
        if not ways or not aids:
            return []
        groups = _aid_groups(aids)

        def attacks(plain_groups: bool) -> list[Attack]:
            out = []
            for hand, sk in ways:
                for g in groups:
                    if plain_groups and len(g) > 1:
                        g = [w[:1] for w in g]
                    for aid in itertools.product(*g):
                        if all(self._aid_fits(x.skill, sk) for x in aid):
                            out.append(Attack(mid, target, hand, sk, aid))
            return out
        out = attacks(False)
        return out if len(out) <= AIDED_ATTACKS else attacks(True)

    def aided_casts(self, mid: str, spell: str, target: str) -> list[Cast]:
        """``mid``'s aided casts of ``spell`` on ``target`` (not yet checked): one ally with
        each of its spells of the same type (damage or healing: seed "Aided Magic", "both
        healing, or both damaging"), several allies (in scene order) in every combination
        of theirs; where that comes to more than ``AIDED_ATTACKS``, groups of two or more
        allies aid with their first such spell only."""
        sp = self.data.spells[spell]
        if sp.get("area") or self.spell_rounds(mid, spell) > 1:
            return []
        ways: dict[str, list[Aid]] = {}
        for al in self.allies(mid):
            a = self.fighters[al]
            if a.turn_done or a.acted or a.slots["magic"] or a.charging:
                continue
            opts = [Aid(al, None, s2) for s2 in a.sheet.spells
                    if self.data.spells[s2]["type"] == sp["type"] and not self.data.spells[s2].get("area")]
            if opts:
                ways[al] = opts
        if not ways:
            return []
        groups = _aid_groups(ways)

        def casts(plain_groups: bool) -> list[Cast]:
            out = []
            for g in groups:
                if plain_groups and len(g) > 1:
                    g = [w[:1] for w in g]
                out += [Cast(mid, spell, target, aid) for aid in itertools.product(*g)]
            return out
        out = casts(False)
        return out if len(out) <= AIDED_ATTACKS else casts(True)

    def aid_ways(self, mid: str, target: str) -> dict[str, list[Aid]]:
        """Each ally able to aid ``mid``'s attack on ``target`` now, with every way it can
        (hand and attack skill it can afford, the target within its reach; sight is left
        to ``why_illegal``): the plain main-hand attack first."""
        f = self.fighters[mid]
        out = {}
        for al in self.allies(mid):
            if self._why_aider(f, al):
                continue
            a = self.fighters[al]
            d = self.geometry.distance(al, target)
            skills = (None, *(s for s in a.sheet.skills if self.data.skills[s]["type"] == "offensive"))
            ways = [Aid(al, hand, sk) for hand in ("main", "off", "dual") for sk in skills
                    if self._why_way(al, hand, sk) is None and d <= self.weapon_range(al, hand) + 1e-6]
            if ways:
                out[al] = ways
        return out

    def candidate_moves(self, mid: str, spread: bool = True) -> Iterator[Action]:
        """A sample of legal moves: the shortest approach to
        the two nearest enemies (walking, sprinting; crawling when down) and, with
        ``spread``, straight moves in eight directions (walk and crawl), and then
        climbs towards the enemies when none of those is legal."""
        f = self.fighters[mid]
        here = self.pos(mid)
        enemies = sorted(self.enemies(mid), key=lambda e: (self.geometry.distance(mid, e), e))
        modes = ["crawl"] if f.prone else ["walk", "sprint"]
        if "flying" in f.sheet.abilities and self.flying_allowed() and not f.prone:
            modes.append("fly")
        reach = max(0.0, self.weapon_range(mid, "main"))
        found = 0
        for mode in modes:
            allowance = self.move_allowance(mid, mode)
            for e in enemies[:2]:
                for a in self._approaches(mid, e, mode, allowance, reach, want=1):
                    found += 1
                    yield a
        if spread:
            near = enemies[0] if enemies else None
            for mode in (["crawl"] if f.prone else ["walk", "crawl"]):
                allowance = self.move_allowance(mid, mode) - 1e-3
                for k in range(8):
                    ang = 2 * math.pi * k / 8
                    q = (round(here[0] + allowance * math.cos(ang), 3),
                         round(here[1] + allowance * math.sin(ang), 3), round(here[2], 3))
                    if not self._plausible_end(mid, q):
                        continue
                    face = round(mx.facing_towards(q, self.pos(near)), 2) if near else None
                    a = Move(mid, mode, (q,), face)
                    if self.why_illegal(a) is None:
                        found += 1
                        yield a
        if spread and not found:
            # no walk goes anywhere (a pit, a ledge too high to step up): climb (the
            # greedy bot asks for climbs itself, after a walk round the scenery)
            yield from self.climb_moves(mid)

    def climb_moves(self, mid: str) -> Iterator[Action]:
        """Legal straight ``climb`` moves towards the two nearest enemies (at most one
        each): shorter steps than the allowance too, since a climb's height counts."""
        f = self.fighters[mid]
        if f.prone:
            return
        here = self.pos(mid)
        enemies = sorted(self.enemies(mid), key=lambda e: (self.geometry.distance(mid, e), e))
        allowance = self.move_allowance(mid, "climb")
        for e in enemies[:2]:
            ep = self.pos(e)
            if math.hypot(ep[0] - here[0], ep[1] - here[1]) < 1e-9:
                continue
            bearing = math.atan2(ep[1] - here[1], ep[0] - here[0])
            tries = 0
            for frac in (0.9, 0.6, 0.4, 0.25):
                done = False
                for dev in (0, 30, -30):
                    b = bearing + math.radians(dev)
                    step = allowance * frac
                    q = (round(here[0] + step * math.cos(b), 3), round(here[1] + step * math.sin(b), 3),
                         round(here[2], 3))
                    if step < self.r["move"]["min_step"] or not self._plausible_end(mid, q):
                        continue
                    tries += 1
                    a = Move(mid, "climb", (q,), round(mx.facing_towards(q, ep), 2))
                    if self.why_illegal(a) is None:
                        yield a
                        done = True
                        break
                if done or tries >= 9:
                    break

    def _plausible_end(self, mid: str, q) -> bool:
        """A cheap filter before the geometry's route check: not onto another base."""
        f = self.fighters[mid]
        for o in self.fighters.values():
            if o.id == mid or o.status == "dead":
                continue
            p = self.pos(o.id)
            if math.hypot(p[0] - q[0], p[1] - q[1]) < f.radius + o.radius - 1e-3:
                return False
        return True

    def approach_sequences(self, mid: str) -> list[list[Move]]:
        """The moves ``candidate_moves(mid, spread=False)`` tries, not yet checked: one
        list per (mode, enemy), in its order; it yields the first legal move of each."""
        f = self.fighters[mid]
        enemies = sorted(self.enemies(mid), key=lambda e: (self.geometry.distance(mid, e), e))
        modes = ["crawl"] if f.prone else ["walk", "sprint"]
        if "flying" in f.sheet.abilities and self.flying_allowed() and not f.prone:
            modes.append("fly")
        reach = max(0.0, self.weapon_range(mid, "main"))
        return [self._approach_moves(mid, e, mode, self.move_allowance(mid, mode), reach)
                for mode in modes for e in enemies[:2]]

    def _approach_moves(self, mid: str, e: str, mode: str, allowance: float, reach: float) -> list[Move]:
        """The straight moves ``_approaches`` tries, in its order (at most six)."""
        return list(self._approach_tries(mid, e, mode, allowance, reach))

    def _approaches(self, mid: str, e: str, mode: str, allowance: float, reach: float,
                    want: int = 2) -> Iterator[Action]:
        """Up to ``want`` legal straight moves that close on enemy ``e``: onto a ring
        just inside the weapon's range around it, or as far as the move goes."""
        found = 0
        for a in self._approach_tries(mid, e, mode, allowance, reach):
            if self.why_illegal(a) is None:
                yield a
                found += 1
                if found >= want:
                    return

    def _approach_tries(self, mid: str, e: str, mode: str, allowance: float,
                        reach: float) -> Iterator[Move]:
        """The straight moves towards enemy ``e`` worth checking, best first (at most six)."""
        f, o = self.fighters[mid], self.fighters[e]
        here, ep = self.pos(mid), self.pos(e)
        d = math.hypot(ep[0] - here[0], ep[1] - here[1])
        ring = f.radius + o.radius + max(0.05, min(reach * 0.8, reach - 0.1))
        pts = []
        for k in range(16):
            ang = 2 * math.pi * k / 16
            pts.append((ep[0] + ring * math.cos(ang), ep[1] + ring * math.sin(ang)))
        if d > 1e-9:
            for dev in (0, 20, -20, 40, -40):
                b = math.atan2(ep[1] - here[1], ep[0] - here[0]) + math.radians(dev)
                step = allowance - 1e-3
                pts.append((here[0] + step * math.cos(b), here[1] + step * math.sin(b)))
        pts.sort(key=lambda p: (math.hypot(p[0] - ep[0], p[1] - ep[1]) > ring + 1e-6,
                                math.hypot(p[0] - here[0], p[1] - here[1])))
        tries = 0
        for p in pts:
            q = (round(p[0], 3), round(p[1], 3), round(here[2], 3))
            step = math.hypot(q[0] - here[0], q[1] - here[1])
            if step > allowance - 1e-4 or step < self.r["move"]["min_step"]:
                continue
            if not self._plausible_end(mid, q):
                continue
            tries += 1
            if tries > 6:
                return
            yield Move(mid, mode, (q,), round(mx.facing_towards(q, ep), 2))

    # ---- the view's questions -------------------------------------------------
    def hud_lines(self, model_id: str | None = None) -> list[str]:
        """Lines of text for a HUD: the round, the active character, ``model_id``'s sheet,
        and last the state of the fight ("Standing: party 4/4, foes 3/5 (party ahead)")."""
        lines = [f"Legends of Norova - round {self.round}"]
        if self.is_over:
            lines.append(f"Over: {self.outcome}")
        elif self.queue:
            lines.append(f"Active: {self.queue[0]} ({self.fighters[self.queue[0]].side})"
                         + (f"; then {', '.join(self._to_act()[:3])}" if self._to_act() else ""))
            if self.aoo_pending is not None:
                p = self.aoo_pending
                lines.append(f"Attack of Opportunity: {p['model']} chooses its blow on {p['mover']} "
                             f"(plain or {', '.join(k.replace('_', ' ') for k in p['skills'])})")
        # the state of the fight for a passer-by: the characters still standing per side
        standing = {side: [0, 0] for side in self.sides}
        for c in self.fighters.values():
            standing[c.side][1] += 1
            standing[c.side][0] += c.status == "active"
        score = "Standing: " + ", ".join(f"{side} {n}/{total}" for side, (n, total) in standing.items())
        best = sorted(standing.items(), key=lambda kv: kv[1][0] / max(1, kv[1][1]), reverse=True)
        if len(best) > 1 and best[0][1][0] / max(1, best[0][1][1]) > best[1][1][0] / max(1, best[1][1][1]):
            score += f" ({best[0][0]} ahead)"
        elif len(best) > 1:
            score += " (even)"
        mid = model_id or self.active_model
        if mid is None or mid not in self.fighters:
            return lines + [score]
        f = self.fighters[mid]
        s = f.sheet
        # its status only when it is out of the fight ("active" read as "its turn now")
        flags = ([] if f.status == "active" else [f.status]) + (["down"] if f.prone else ["low"] if f.low else []) \
            + (["hidden"] if f.hidden else [])
        lines.append(f"{f.name} [{f.id}, {f.side}]" + "".join(" " + x for x in flags) + f"  initiative {f.initiative}")
        lines.append(f"Vitality {f.vitality}/{s.vitality}  Soul {f.soul}/{s.soul}  Power {f.power}/{s.power}")
        slots = self.action_slots(mid)
        lines.append("Actions: " + "  ".join(f"{k} {'used' if used else 'free'}" for k, used in slots.items()))
        def words(key) -> str:           # a data key as words ("throwing knife", "flame burst")
            return str(key).replace("_", " ")
        lines.append(f"Hands: main {words(f.main or 'empty')}, off {words(f.off or 'empty')}"
                     + (f"; reload {', '.join(map(words, f.unloaded))}" if f.unloaded else ""))
        # what it carries besides its hands: potions and weapons to draw, ammunition left
        carried = [f"{words(k)} x{n}" for k, n in sorted(f.inventory.items()) if n > 0]
        ammo = [f"{k}s {n}" for k, n in sorted(f.ammo.items())]
        if carried or ammo:
            lines.append("Carries: " + (", ".join(carried) or "nothing") + ("; " + ", ".join(ammo) if ammo else ""))
        if f.charging:
            lines.append(f"Casting {words(f.charging['spell'])} (ready in round {f.charging['ready_round']})")
        if f.focus:
            lines.append("Focused on: " + ", ".join(f"{t} (-{v} Evade)" for t, v in f.focus.items()))
        return lines + [score]

    @property
    def sides(self) -> list[str]:
        return sorted({f.side for f in self.fighters.values()})

    def summary(self) -> str:
        """The characters at the end (or now), one line each."""
        # a turn limit ends the game as the round after the last begins: that one is not played
        played = min(self.round, int(self.r["max_rounds"]))
        rounds = f"{played} round" + ("" if played == 1 else "s")
        out = [f"After {rounds}:" if self.is_over else f"Round {self.round}:"]
        fs = list(self.fighters.values())
        iw = max([12] + [len(f.id) for f in fs])          # the columns line up for long ids
        sw = max([8] + [len(f.side) for f in fs])
        for f in fs:
            out.append(f"  {f.id:{iw}s} {f.side:{sw}s} {f.status:7s} Vitality {max(0, f.vitality)}/{f.sheet.vitality}"
                       f"  Soul {f.soul}/{f.sheet.soul}  Power {f.power}/{f.sheet.power}")
        return "\n".join(out)

    def state_dict(self) -> dict:
        out = {"round": self.round, "queue": list(self.queue), "order": list(self.order),
               "fighters": [f.to_dict() for f in self.fighters.values()],
               "positions": {m: [round(v, 6) for v in self.pos(m)] for m in self.fighters},
               "facings": {m: round(self.geometry.facing(m), 6) for m in self.fighters}}
        if self.aoo_pending is not None:          # (only then: the hashes of other states stay)
            out["aoo_pending"] = {**self.aoo_pending, "skills": list(self.aoo_pending["skills"])}
        return out


# the table's refusal of a step or a drop taller than the figure names the table's own
# moves ("it needs Climb, Jump or a ladder"): Legends of Norova has no Jump; its way up or
# down such a face is a `climb` move (half rate), or a flight
_TABLE_MOVES = "it needs Climb, Jump or a ladder"


def _norova_reason(reason: str) -> str:
    """The geometry's reason for refusing a route, in Norova's moves."""
    if _TABLE_MOVES not in str(reason):
        return reason
    way = "climb down it (a climb move)" if "a drop of" in str(reason) else "it needs a climb move (or a ladder)"
    return str(reason).replace(_TABLE_MOVES, way)


def _along_route(route, p) -> float:
    """Inches down the route (on the table, as ``mx.route_samples`` measures) to the
    point of it nearest ``p`` (x, y): the first leg that passes within 0.05" of it,
    else the nearest."""
    run, best, best_d = 0.0, 0.0, math.inf
    for a, b in zip(route[:-1], route[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        seg = math.hypot(dx, dy)
        t = 0.0 if seg < 1e-12 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / seg ** 2))
        d = math.hypot(a[0] + t * dx - p[0], a[1] + t * dy - p[1])
        if d <= 0.05:
            return run + t * seg
        if d < best_d:
            best, best_d = run + t * seg, d
        run += seg
    return best


def _point_along(route, along: float):
    """The route's point ``along`` inches down it (on the table)."""
    run = 0.0
    for a, b in zip(route[:-1], route[1:]):
        seg = math.dist(a[:2], b[:2])
        if seg > 0 and along <= run + seg:
            t = (along - run) / seg
            return tuple(float(a[k] + (b[k] - a[k]) * t) for k in range(3))
        run += seg
    return tuple(float(v) for v in route[-1])


def _route_index(route, along: float) -> int:
    """How many of the route's points lie before the point ``along`` inches down it."""
    run = 0.0
    for i, (a, b) in enumerate(zip(route[:-1], route[1:])):
        run += math.dist(a[:2], b[:2])
        if along < run - 1e-9:
            return i
    return max(0, len(route) - 2)


def _travel_facing(route, default: float) -> float:
    for a, b in zip(reversed(route[:-1]), reversed(route[1:])):
        if math.dist(a[:2], b[:2]) > 1e-9:
            return mx.facing_towards(a, b)
    return default
