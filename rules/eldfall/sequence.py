"""The Eldfall game: rounds, turns, phases and the activation sequence.

Sources: seeds/eldfall-actions.txt (Activation Sequence, Movements, Actions,
Recovery Check), seeds/eldfall-reactions.txt, seeds/eldfall-states.txt and
../shared/rules/eldfall-facts.md (Turn structure, Dice).

The game is a state machine. At every moment one decision is pending
(``game.pending``):

=============  ==========================  ===============================
pending        who decides                 actions
=============  ==========================  ===============================
order          the initiative winner       ChooseOrder
tactical       the active player           Activate, EndTurn
stratagem      the active player           UseStratagem, Pass (the Strategic Phase, while its
                                           Leader stands and it has a Stratagem to use)
crouch         the reactive player         Crouch, Pass (Crouched as a Reaction: the
                                           start, or the end when no Reaction Step opens)
movement       the active player           Move (step 2)
reaction       the reactive player         Declare (step 3), Pass, Crouch (before any
                                           reaction: the end of the Movement Step)
action         the active player           Declare (step 4)
turn-on-hit    the hit model's player      Turn, Pass (= keep; after step 5: a model that
                                           suffered a Hit may turn, table setting turn_on_hit)
dodge-move     the dodging model's player  DodgeMove (after step 5)
stand-up       the model's player          StandUp, Pass (= stay Crouched; a model whose
                                           Incapacitated State has just ended may cancel
                                           the Crouched State it kept)
duel-answer    the challenged player       DuelAnswer
=============  ==========================  ===============================

Everything else (the rest of the Strategic Phase, the Upkeep Phase, the
Resolution Step, the End Phase) happens by itself between decisions, each
change an event.
"""
from __future__ import annotations

import contextlib
import functools
import math
from pathlib import Path
from typing import Iterator

import yaml

from rules.core.dice import Dice
from rules.core.errors import SettingError
from rules.core.game import Game, Outcome, Termination
from rules.core.settings import given_words
from rules.core.units import Unit
from rules.eldfall import availability as av
from rules.eldfall import combat as cb
from rules.eldfall import reactions as rx
from rules.eldfall import conditions as cd
from rules.eldfall import resolution as rs
from rules.eldfall import spells as sp
from rules.eldfall import stratagems as sg
from rules.eldfall import tables
from rules.eldfall.actions import (ATTACKS, MOVEMENT_NAMES, Action, Activate, ChooseOrder, Crouch,
                                   Declare, DodgeMove, DuelAnswer, EndTurn, Move, Pass,
                                   StandUp, Turn, UseStratagem)
from rules.eldfall.state import OUT_STATES, Activation, ModelState

DATA = Path(__file__).with_name("data")
EPS = 1e-6


@functools.lru_cache(maxsize=None)
def default_settings() -> dict:
    with open(DATA / "settings.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@functools.lru_cache(maxsize=None)
def builtin_profiles() -> dict:
    with open(DATA / "profiles.yaml", encoding="utf-8") as fh:
        return yaml.safe_load(fh)


#: what a setting that is not just any value of its kind must be, in words
_EXPECTED = {"confrontation_ties": "cancel or keep", "measuring": "assisted, standard or realism",
             "duel_interference": "lose or forbid",
             "table": "[width, depth] in inches (two numbers above 0)"}


def merge_settings(settings: dict | None) -> dict:
    from rules.core.settings import did_you_mean, expand_dotted, kind_words
    s = dict(default_settings())
    # a nested setting named by its dotted key path (``table_settings.awareness_ag=modified``)
    for k, v in expand_dotted(dict(settings or {})).items():
        if k in ("objectives", "deployment", "table_settings"):
            s[k] = v
            continue
        if k not in s:
            raise SettingError(k, f"unknown Eldfall setting {k!r}{did_you_mean(k, s)} "
                                  f"(known: {', '.join(sorted(s))})")
        want = type(s[k])
        ok = isinstance(v, want) and not (want is int and isinstance(v, bool)) or (
            want is float and isinstance(v, int) and not isinstance(v, bool))
        if not ok:
            raise SettingError(k, f"setting {k} must be {_EXPECTED.get(k) or kind_words(s[k])}, "
                                  f"not {given_words(v)}")
        if want in (int, float) and v < 0 and k != "rounds":     # rounds: "at least 1" below
            raise SettingError(k, f"setting {k} must be 0 or more, not {given_words(v)}")
        s[k] = v
    if s["confrontation_ties"] not in ("cancel", "keep"):
        raise SettingError("confrontation_ties", "setting confrontation_ties must be cancel or keep, "
                                                 f"not {given_words(s['confrontation_ties'])}")
    if s["measuring"] not in ("assisted", "standard", "realism"):
        raise SettingError("measuring", "setting measuring must be assisted, standard or realism, "
                                        f"not {given_words(s['measuring'])}")
    if s["crouch_reaction_ap"] > 20:
        raise SettingError("crouch_reaction_ap", "setting crouch_reaction_ap must be 0 to 20, "
                                                 f"not {given_words(s['crouch_reaction_ap'])}")
    if s["duel_interference"] not in ("lose", "forbid"):
        raise SettingError("duel_interference", "setting duel_interference must be lose or forbid, "
                                                f"not {given_words(s['duel_interference'])}")
    if s.get("table_settings") is not None:
        from rules.eldfall.table_settings import TableDataError, TableSettings
        try:
            TableSettings.from_mapping(s["table_settings"])
        except TableDataError as exc:
            # each problem as its dotted setting (setting table_settings.turn_on_hit: ...)
            raise SettingError("table_settings", "\n".join(
                f"setting table_settings{path[len('settings'):]}: {why}" if path.startswith("settings")
                else f"setting table_settings: {why}" for _, _, path, why in exc.problems)) from None
    t = s["table"]
    if not (len(t) == 2 and all(isinstance(n, (int, float)) and not isinstance(n, bool)
                                and math.isfinite(n) and n > 0 for n in t)):
        raise SettingError("table", f"setting table must be [width, depth] in inches (two numbers "
                                    f"above 0), not {given_words(t)}")
    if s.get("objectives") is not None:
        _check_objectives(s["objectives"])
    if s.get("deployment") is not None:
        _check_zones(s["deployment"])
    if s["rounds"] < 1:
        raise SettingError("rounds", f"setting rounds must be at least 1, not {given_words(s['rounds'])}")
    if s["max_actions"] < 1:
        raise SettingError("max_actions", f"setting max_actions must be at least 1, not {given_words(s['max_actions'])}")
    if s["stratagems_per_phase"] > 20:
        raise SettingError("stratagems_per_phase", "setting stratagems_per_phase must be 0 to 20, "
                                                   f"not {given_words(s['stratagems_per_phase'])}")
    return s


#: the keys of a quest object (``settings.objectives``; docs/rulings.md, "Victory points
#: without a quest") and the attributes its Interact may roll
_OBJECTIVE_KEYS = ("id", "vp", "attribute", "modifier", "item")
_OBJECTIVE_STATS = ("STA", "SPD", "ARM", "HP", "OFF", "DEF", "ACC", "INT", "AG", "T", "M")


def _whole(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_objectives(v) -> None:
    """``objectives``: a list of quest objects, each a mapping with an ``id`` (the terrain
    piece to be in Base Contact with), optional ``vp`` (a whole number, 0 or more),
    ``attribute`` (the stat an Interact rolls), ``modifier`` (a whole number) and
    ``item`` (what the model then carries). SettingError names the first problem."""
    def bad(where: str, what: str):
        raise SettingError("objectives", f"setting objectives{where}: {what}")
    if not isinstance(v, list):
        bad("", f"must be a list of quest objects ({{id: PIECE, vp: N, ...}}), not {given_words(v)}")
    seen = set()
    for i, o in enumerate(v):
        if not isinstance(o, dict):
            bad(f"[{i}]", f"must be a mapping ({{id: PIECE, vp: N, ...}}), not {given_words(o)}")
        extra = sorted(str(k) for k in o if k not in _OBJECTIVE_KEYS)
        if extra:
            bad(f"[{i}].{extra[0]}", f"unknown key (known: {', '.join(_OBJECTIVE_KEYS)})")
        if not isinstance(o.get("id"), str) or not o["id"].strip():
            bad(f"[{i}].id", "the quest object's terrain piece id is missing" if "id" not in o
                else f"must be a terrain piece id, not {given_words(o['id'])}")
        if o["id"] in seen:
            bad(f"[{i}].id", f"{o['id']!r} is named twice")
        seen.add(o["id"])
        if "vp" in o and not (_whole(o["vp"]) and o["vp"] >= 0):
            bad(f"[{i}].vp", f"must be a whole number, 0 or more, not {given_words(o['vp'])}")
        if "modifier" in o and not _whole(o["modifier"]):
            bad(f"[{i}].modifier", f"must be a whole number, not {given_words(o['modifier'])}")
        if "attribute" in o and o["attribute"] not in _OBJECTIVE_STATS:
            bad(f"[{i}].attribute", f"must be one of {', '.join(_OBJECTIVE_STATS)}, "
                                    f"not {given_words(o['attribute'])}")
        if "item" in o and (not isinstance(o["item"], str) or not o["item"].strip()):
            bad(f"[{i}].item", f"must be an Item's name, not {given_words(o['item'])}")


def _check_zones(v) -> None:
    """``deployment``: side -> [[x0, y0], [x1, y1]] (two corners of its zone, inches)."""
    if not isinstance(v, dict):
        raise SettingError("deployment", "setting deployment must be a mapping side -> "
                                         f"[[x0, y0], [x1, y1]], not {given_words(v)}")
    for side, z in v.items():
        ok = isinstance(z, list) and len(z) == 2 and all(
            isinstance(c, list) and len(c) == 2 and all(
                isinstance(n, (int, float)) and not isinstance(n, bool) and math.isfinite(n)
                for n in c) for c in z)
        if not ok:
            raise SettingError("deployment", f"setting deployment.{side}: expected two corners "
                                             f"[[x0, y0], [x1, y1]] (inches), not {given_words(z)}")


def _check_rider(u: Unit) -> None:
    """A rider's unit data: mounted is true, dismounted a mapping stat -> int,
    and it does not start Crouched (it would be dismounted already)."""
    if u.extra.get("mounted") is not True:
        raise ValueError(f"model {u.id!r}: extra.mounted must be true or absent")
    dm = u.extra.get("dismounted", {})
    if not isinstance(dm, dict) or not all(isinstance(k, str) and type(v) is int and k != "HP"
                                           for k, v in dm.items()):
        raise ValueError(f"model {u.id!r}: extra.dismounted must map stats (not HP) to whole numbers")
    held = sorted(set(u.states) & {"Crouched", "Incapacitated", "Dead"})
    if held:
        raise ValueError(f"model {u.id!r} is mounted but starts {held[0]} (riders are dismounted "
                         "when their model becomes Crouched)")


# a blocked Panicked run goes as far as it can, to within this (inches)
_FORCED_RUN_PRECISION = 0.05


def expiry_marks(exp) -> tuple:
    """The marks of ``ModelState.expiry[state]`` (one mark, or a tuple of them when
    sources with different ends gave the State: ``EldfallGame._given_again``)."""
    if exp is None:
        return ()
    return (exp,) if isinstance(exp, str) else tuple(exp)


class EldfallGame(Game):
    game_name = "eldfall"

    def __init__(self, units: list[Unit], geometry, seed: int = 0, settings: dict | None = None,
                 scene_info: dict | None = None, dice: Dice | None = None, log=None):
        super().__init__(seed=seed, dice=dice, settings=merge_settings(settings),
                         scene_info=scene_info)
        self.geo = geometry
        self.units = [u if isinstance(u, Unit) else Unit.from_dict(u) for u in units]
        self.models: dict[str, ModelState] = {}
        self.sides: list[str] = []
        for u in self.units:
            if u.id in self.models:
                raise ValueError(f"two models with the id {u.id!r}")
            reserve = bool(u.extra.get("reserve"))
            # Incapacitated is "Triggered when the model's HP reaches 0": a model set up
            # Incapacitated (or Dead) has none left, and its Recovery Check "Regains 1 HP"
            hp = 0 if set(u.states) & {"Incapacitated", "Dead"} else u.stat("HP", 1)
            ms = ModelState(u, hp=hp, states=frozenset(u.states), reserve=reserve,
                            summoned_by=u.extra.get("summoned_by"))
            ms.on_vertical = bool(u.extra.get("on_vertical"))   # a scene left it hanging on a face
            if u.extra.get("mounted"):
                _check_rider(u)
                ms.mounted = True
            self.models[u.id] = ms
            if u.side not in self.sides:
                self.sides.append(u.side)
            present = u.id in set(self.geo.model_ids())
            if not reserve:
                if not present:            # a geometry reused after a removal (undo)
                    self.geo.add_model(u, u.at, u.facing)
                self.geo.place(u.id, u.at, u.facing)
                self.geo.set_states(u.id, ms.states)
            elif present:
                self.geo.remove(u.id)
        # one "directly toward" for the rules and the geometry's path check
        self.geo.set_engaged_tolerance(float(self.settings["engaged_walk_tolerance_deg"]))
        if len(self.sides) != 2:
            raise ValueError(f"Eldfall is played by two sides, this roster has {len(self.sides)}: "
                             f"{', '.join(self.sides) or 'none'}")
        for side in (self.settings.get("deployment") or {}):
            if side not in self.sides:
                raise SettingError("deployment", f"setting deployment names the side {side!r}, "
                                                 f"which has no models (sides: {', '.join(self.sides)})")
        from rules.eldfall import tokens as tk
        self.tokens = tk.build(self, self.scene_info.get("tokens"))
        # Stratagems: side -> [plain data] (rules/eldfall/stratagems.py); uses so
        # far: side -> name -> [this game, this turn]; uses in this Strategic Phase
        self.stratagems = sg.normalize(self.scene_info.get("stratagems"), self.sides)
        self.stratagem_used: dict[str, dict[str, list[int]]] = {}
        self.stratagem_phase_uses = 0
        self.original = {s: sum(1 for m in self.models.values()
                                if m.side == s and not m.reserve and not m.summoned_by)
                         for s in self.sides}
        self.table = tuple(self.scene_info.get("table") or self.settings["table"])
        self.vp = {s: 0 for s in self.sides}
        self.round = 0
        self.order: list[str] = []
        self.turn_index = 0
        self.active_side: str | None = None
        self.phase = "setup"
        self.pending: tuple[str, str] = ("setup", "")
        self.act: Activation | None = None
        self.duel: dict | None = None
        self.broken: set[str] = set()
        self.objectives_done: dict[str, str] = {}
        self.initiative_winner: str | None = None
        self.decisions = 0
        # Incapacitated has ended (eldfall-states.txt: "When canceled, the model may
        # voluntarily cancel the Crouched State"): the models whose player decides that
        # next, in order, and how the game goes on after (``_after_stand_ups``)
        self.stand_queue: list[str] = []
        self.stand_then: tuple | None = None
        if log is not None:
            self.start_log(log)
        self._setup()

    # ------------------------------------------------------------------
    # header, parsing, state
    def header(self) -> dict:
        return {"game": self.game_name, "seed": self.seed, "scene": self.scene_info,
                "units": [u.to_dict() for u in self.units], "settings": self.settings,
                "dice": None if not self.dice.is_fixed else "fixed"}

    @classmethod
    def from_header(cls, header: dict, geometry, dice: Dice | None = None) -> "EldfallGame":
        from rules.core.errors import LogError
        try:
            units = [Unit.from_dict(d) for d in header["units"]]
            s = dict(header.get("settings") or {})
            return cls(units, geometry, seed=int(header["seed"]), settings=s,
                       scene_info=header.get("scene") or {}, dice=dice)
        except (ValueError, KeyError, TypeError) as exc:
            key = getattr(exc, "key", None)           # a SettingError names its setting
            raise LogError(f"the header does not describe an Eldfall game: {exc}",
                           line=1, path=f"settings.{key}" if key else "units") from None

    @classmethod
    def parse_action(cls, text: str) -> Action:
        return Action.parse(text)

    def state_dict(self) -> dict:
        pos = {}
        for mid, m in self.models.items():
            if m.on_table:
                pos[mid] = [round(v, 9) for v in self.geo.position(mid)] + [
                    round(self.geo.facing(mid), 6)]
        return {"round": self.round, "turn_index": self.turn_index, "order": self.order,
                "active": self.active_side, "phase": self.phase, "pending": list(self.pending),
                "vp": self.vp, "broken": sorted(self.broken), "duel": self.duel,
                "objectives": self.objectives_done,
                "models": [m.to_dict() for m in self.models.values()], "positions": pos,
                "tokens": [t.to_dict() for t in self.tokens.values()],
                "activation": None if self.act is None else self.act.to_dict(),
                # only in games with Stratagems: the hashes of the others stay as they were
                **({"stratagems": {"used": {s: {n: list(u) for n, u in sorted(d.items())}
                                            for s, d in sorted(self.stratagem_used.items())},
                                   "phase_uses": self.stratagem_phase_uses}}
                   if self.stratagems else {}),
                # only while one waits: the hashes of the other states stay as they were
                **({"stand_up": {"queue": list(self.stand_queue), "then": list(self.stand_then or ())}}
                   if self.stand_queue else {})}

    # ------------------------------------------------------------------
    # helpers: sides, stats, weapons
    def other(self, side: str) -> str:
        return self.sides[1] if side == self.sides[0] else self.sides[0]

    @property
    def reactive_side(self) -> str | None:
        return None if self.active_side is None else self.other(self.active_side)

    def side_models(self, side: str, *, on_table: bool = True) -> list[ModelState]:
        return [m for m in self.models.values() if m.side == side and (m.on_table or not on_table)]

    def enemies(self, model: str) -> list[ModelState]:
        side = self.models[model].side
        return [m for m in self.models.values() if m.side != side and m.on_table
                and "Dead" not in m.states]

    def allies(self, model: str) -> list[ModelState]:
        side = self.models[model].side
        return [m for m in self.models.values() if m.side == side and m.on_table
                and m.id != model and "Dead" not in m.states]

    def stat(self, model: str, name: str, mods: int = 0, halvings: int = 0, environment: bool = True) -> int:
        """The modified attribute: base + modifiers (enchantments included) first,
        then the States' and environment's halvings and doublings (rounding up,
        conditions.modified_stats), ``halvings`` situational ones among them (with
        the setting ``multiple_halving: once`` a stat is halved once in all).
        ``environment`` False: without the areas the model stands in."""
        m = self.models[model]
        base = m.unit.stat(name)
        add = int(mods)
        for _, _, smods in m.enchantments:
            add += int(smods.get(name, 0))
        if m.boosts:
            add += sg.boost_mod(m, name)
        add += m.dismount_mod(name)
        effects = ()
        if self.act is not None and model in self.act.surprised:
            effects = ("Surprise Attack",)
        env = self.geo.environments(model) if (m.on_table and environment) else frozenset()
        v = cd.modified_stats({name: base}, m.states, env, modifiers={name: add}, effects=effects,
                              halvings={name: halvings},
                              settings=self.settings.get("table_settings"))[name]
        return max(0, v)

    def weapons(self, model: str, kind: str | None = None) -> list[dict]:
        """The model's usable weapon profiles (Items + Unarmed + Shield Bash)."""
        u = self.models[model].unit
        out = [w for w in u.weapons if w.get("kind") in ("melee", "ranged")]
        prof = builtin_profiles()
        out.append(dict(prof["unarmed"]))
        if any(w.get("kind") == "shield" for w in u.weapons):
            out.append(dict(prof["shield_bash"]))
        if kind:
            out = [w for w in out if w.get("kind") == kind]
        return out

    def weapon(self, model: str, name: str | None) -> dict | None:
        for w in self.weapons(model):
            if w["name"] == name:
                return w
        return None

    def spell(self, model: str, name: str | None) -> dict | None:
        for s in self.models[model].unit.spells:
            if s["name"] == name:
                return s
        return None

    @contextlib.contextmanager
    def mover_at(self, point):
        """Temporarily stand the activated model at ``point`` (a reaction's aim)."""
        if point is None or self.act is None:
            yield
            return
        mover = self.act.model
        home, facing = tuple(self.geo.position(mover)), self.geo.facing(mover)
        self.geo.place(mover, tuple(point), facing)
        try:
            yield
        finally:
            self.geo.place(mover, home, facing)

    def weapon_pw(self, model: str, w: dict) -> int:
        pw = w.get("pw", 0)
        if pw == "T or AG-3":
            return max(self.stat(model, "T"), self.stat(model, "AG") - 3)
        if pw == "T":
            return self.stat(model, "T")
        try:
            return int(pw)
        except (TypeError, ValueError):
            return 0

    def melee_reach(self, model: str) -> float:
        """The longest Melee Weapon reach; 0 = base contact. Engaged is "within the Melee
        Weapon Reach" (eldfall-states.txt): a Melee-Type spell is no weapon, so it engages no one."""
        r = max((float(w.get("rch", 0)) for w in self.weapons(model, "melee")), default=0.0)
        return r

    def can_engage(self, model: str) -> bool:
        m = self.models[model]
        return m.on_table and cd.causes_engagement(m.states)

    def has_los(self, viewer: str, target: str, moving: bool = False) -> bool:
        v = self.models[viewer]
        if "Blinded" in v.states:
            return viewer == target
        if target in v.engaged_by:
            return True
        with self.own_sight(viewer):
            return self.geo.sight(viewer, target, moving=moving).los

    @contextlib.contextmanager
    def own_sight(self, *viewers: str):
        """The geometry asked for the viewers' own LoS: without their Engaged State.
        The Engaged model's automatic LoS is to "the models causing the Engaged
        State", which the rules know (``engaged_by``, granted by ``has_los`` and the
        Reaction Step); the 3D table's own guess at them (every enemy whose Reach the
        model stands in, whether that enemy sees it or not) would see too much."""
        eng = [m for m in viewers if "Engaged" in self.models[m].states and self.models[m].on_table]
        for m in eng:
            self.geo.set_states(m, self.models[m].states - {"Engaged"})
        try:
            yield
        finally:
            for m in eng:
                self.geo.set_states(m, self.models[m].states)

    def enemy_reaches(self, model: str, states=None) -> dict[str, float]:
        """Each enemy's longest melee reach for a move of ``model`` (the
        geometry's Attack of Opportunity points; -1: none). An enemy that
        cannot react gives none; a Crouched or Flying one still attacks in
        melee (it only engages nobody); a Flying mover meets only Flying
        enemies' melee (as engine.motion's Flying walk). ``states``: the
        mover's States for the move, if not its present ones (it lands first)."""
        flying = "Flying" in (self.models[model].states if states is None else states)
        return {e.id: (self.melee_reach(e.id) if not e.out and cd.can_react(e.states)
                       and (not flying or "Flying" in e.states) else -1.0)
                for e in self.enemies(model)}

    def speed(self, model: str) -> int:
        """The SPD a movement is measured with: the States' halvings and doublings, not the
        areas' "half speed" (Difficult, Mountainous, Aquatic Shallow): the geometry charges
        every inch of the route in such an area twice (``Geometry.check_move``), so halving
        the SPD of a model standing in one too would slow it twice (docs/rulings.md)."""
        return self.stat(model, "SPD", environment=False)

    def allowance(self, model: str, mode: str) -> float:
        spd = self.speed(model)
        if mode == "walk":
            return float(spd)
        if mode == "run":
            return float(spd * 2)
        if mode == "climb":
            return float(cb.halve(spd))
        if mode == "jump":
            return tables.movement_distance("Jump", spd, settings=self.settings.get("table_settings"))
        return 0.0

    # ------------------------------------------------------------------
    # events for state changes
    def set_states(self, model: str, states, why: str) -> None:
        m = self.models[model]
        new = frozenset(states)
        if new == m.states:
            return
        added, removed = sorted(new - m.states), sorted(m.states - new)
        m.states = new
        for st in removed:
            if st == "Panicked" and "morale" in expiry_marks(m.expiry.get(st)) and m.side in self.broken:
                m.rallied = True           # an ability removed it: Broken Morale gives it no more
            m.expiry.pop(st, None)
        if m.on_table:
            self.geo.set_states(model, new)
            self._sync_awareness(model)
        self.emit("states", {"model": model, "added": added, "removed": removed, "why": why})
        if "Flying" in removed and m.on_table:
            self._set_down(model)
        if "Incapacitated" in removed and "Crouched" in new and model not in self.stand_queue:
            self.stand_queue.append(model)     # its player may stand it up (``_offer_stand_up``)

    def _set_down(self, model: str) -> None:
        """A model that stops Flying (by choice or cancelled) lands on the surface
        under its base, where it was measured while Flying; no Fall rolls
        (docs/rulings.md, "Stopping Flying"). A flight already ends on that
        surface: only a model given a height in the scene comes down."""
        f = self.geo.drop(model, float(self.speed(model)))
        if float(f.height) > EPS:
            self.emit("land", {"model": model, "height": float(f.height),
                               "at": [float(v) for v in self.geo.position(model)]})

    def _sync_awareness(self, model: str | None = None) -> None:
        """With ``awareness_ag: modified``, tell the geometry each model's AG as modified
        now (States, environment, effects, Enchantments), so that Awareness and the
        Casting Aura follow it; with ``profile`` (the default) nothing to do."""
        from rules.eldfall.table_settings import resolve
        if resolve(self.settings.get("table_settings")).awareness_ag != "modified":
            return
        for mid in ([model] if model is not None else list(self.models)):
            m = self.models[mid]
            if not m.on_table:
                continue
            ag = self.stat(mid, "AG")
            if ag != getattr(m, "_aware_ag", None):
                m._aware_ag = ag
                self.geo.set_awareness(mid, ag)

    def add_state(self, model: str, name: str, why: str, expiry: str | None = None,
                  voluntary: bool = False) -> None:
        """Enter a State through conditions.add_state: no stacking, State Priorities."""
        m = self.models[model]
        new, notes = cd.add_state(m.states, name, voluntary=voluntary,
                                  settings=self.settings.get("table_settings"))
        if new == m.states:
            if name in m.states:
                self._given_again(m, name, expiry)
            return
        shown = [n for n in notes if n.code not in ("entered", "dismount_rider", "no_stacking")
                 and not (n.code == "flying_cancelled" and "Flying" not in m.states)]
        self.set_states(model, new, why + "".join(f"; {n}" for n in shown))
        if name == "Incapacitated" and name in new:
            # by an effect with HP left: it ends at the next Strategic Phase, no Recovery Check
            m.incap_by_effect = m.hp > 0
        if name in new and m.boosts:
            sg.forget(m, name)             # given anew: no boost's from before it was removed
        if expiry and name in new:
            m.expiry[name] = expiry
        if m.mounted and any(n.code == "dismount_rider" for n in notes):
            self._dismount(model, f"became Crouched: {why}")
        if not cd.causes_engagement(new) or "Dead" in new:
            self._drop_engagements_by(model)
        if not cd.can_be_engaged(new) and m.engaged_by:
            m.engaged_by = frozenset()
            self.remove_state(model, "Engaged", f"cannot be Engaged while {name}")

    def _given_again(self, m, name: str, expiry: str | None) -> None:
        """A State the model has is given again by another source: it lasts until the
        longest-lasting of its sources ends (docs/rulings.md, "A State given by two
        sources"). One with no end (``expiry`` None: until removed) makes it lasting;
        else its mark joins the others (``ModelState.expiry``: one mark or a tuple), and
        the State ends when the last of them does (``_source_ends``). A lasting
        Stratagem boost that lists the State is a source too (``stratagems.gives``);
        a State with neither a mark nor such a boost already lasts until removed."""
        cur = m.expiry.get(name)
        if cur is None and not sg.gives(m, name):
            return
        if expiry is None:
            m.expiry.pop(name, None)
            sg.forget(m, name)
            return
        marks = sorted(set(expiry_marks(cur)) | {expiry})
        m.expiry[name] = marks[0] if len(marks) == 1 else tuple(marks)

    def _source_ends(self, m, name: str, mark: str, why: str) -> None:
        """The source ``mark`` of the State ``name`` ends: the State ends with it unless
        another source still gives it."""
        left = [x for x in expiry_marks(m.expiry.get(name)) if x != mark]
        if left:
            m.expiry[name] = left[0] if len(left) == 1 else tuple(left)
            return
        m.expiry.pop(name, None)
        if not sg.gives(m, name):          # a Stratagem's boost still gives it
            self.remove_state(m.id, name, why)

    def _dismount(self, model: str, why: str) -> None:
        """State Priorities: "Rider's model becomes Crouched || Rider is
        dismounted" (eldfall-states.txt). For the rest of the game: the seeds
        give no way back onto the mount (docs/rulings.md, "Riders")."""
        m = self.models[model]
        m.mounted = False
        m.dismounted = True
        changes = {k: int(v) for k, v in sorted((m.unit.extra.get("dismounted") or {}).items())}
        self.emit("dismount", {"model": model, "changes": changes, "why": why})

    def remove_state(self, model: str, name: str, why: str) -> None:
        m = self.models[model]
        if name in m.states:
            self.set_states(model, m.states - {name}, why)

    def set_ap(self, model: str, ap: int, why: str) -> None:
        m = self.models[model]
        ap = max(0, int(ap))
        if ap != m.ap:
            m.ap = ap
            self.emit("ap", {"model": model, "ap": ap, "why": why})

    def wound(self, model: str, n: int, why: str) -> None:
        """``n`` Wounds. At 0 HP the model becomes Incapacitated at the end of the
        activation sequence (at once outside one); a Wound on an Incapacitated model
        makes it Dead."""
        m = self.models[model]
        if n <= 0 or "Dead" in m.states or not m.on_table:
            return
        if "Incapacitated" in m.states:
            self.emit("wound", {"model": model, "wounds": n, "hp": m.hp, "why": why})
            self.add_state(model, "Dead", f"wounded while Incapacitated ({why})")
            self._after_drop(model)
            return
        m.hp = max(0, m.hp - n)
        self.emit("wound", {"model": model, "wounds": n, "hp": m.hp, "why": why})
        if m.hp == 0 and self.act is None:
            self._incapacitate(model, why)

    def heal(self, model: str, n: int, why: str) -> None:
        m = self.models[model]
        if n <= 0 or "Dead" in m.states:
            return
        top = m.unit.stat("HP", 1)
        new = min(top, m.hp + n)
        if new != m.hp:
            m.hp = new
            self.emit("heal", {"model": model, "hp": new, "why": why})
        if m.hp > 0 and "Incapacitated" in m.states:
            self.remove_state(model, "Incapacitated", "regained HP")

    def _incapacitate(self, model: str, why: str) -> None:
        m = self.models[model]
        if "Incapacitated" in m.states or "Dead" in m.states:
            return
        self.add_state(model, "Incapacitated", why)
        self._after_drop(model)

    def _after_drop(self, model: str) -> None:
        """A model became Incapacitated or Dead: its summons go, the duel may end."""
        for s in self.models.values():
            if s.summoned_by == model and s.on_table:
                s.removed = True
                s.ap = 0
                self.geo.remove(s.id)
                self.emit("removed", {"model": s.id, "why": f"its summoner {model} fell"})
                self._leave_engagements(s.id, f"{s.id} left the table")
        self._drop_engagements_by(model)

    def _leave_engagements(self, model: str, why: str) -> None:
        """A model that leaves the table (a summon whose caster fell, a Panicked model
        that ran past the edge) engages no one, and no one engages it: the models it
        engaged are free at once, not only at the next end of a sequence or Phase
        (their Reactions in the rest of the turn are not an Engaged model's)."""
        self._drop_engagements_by(model)
        m = self.models[model]
        if m.engaged_by:
            m.engaged_by = frozenset()
            self.emit("engaged", {"model": model, "by": []})
        self.remove_state(model, "Engaged", why)

    def _drop_engagements_by(self, model: str) -> None:
        for o in self.models.values():
            if model in o.engaged_by:
                o.engaged_by = o.engaged_by - {model}
                if not o.engaged_by and "Engaged" in o.states:
                    self.remove_state(o.id, "Engaged", f"{model} no longer engages it")

    def place(self, model: str, point, facing=None, why: str = "move") -> None:
        self.geo.place(model, tuple(point), facing)
        self.emit("place", {"model": model, "at": [float(v) for v in point],
                            "facing": None if facing is None else float(facing), "why": why})

    # ------------------------------------------------------------------
    # setup: deployment and initiative
    def _setup(self) -> None:
        self.emit("setup", {"sides": self.sides, "original": self.original,
                            "table": list(self.table)})
        self._check_deployment()
        # Engaged is worked out "at the end of a Phase": deployment is one, so a
        # model set up in an enemy's Reach is Engaged from the start (the first
        # Recovery Check's reroll asks that "neither model is Engaged"); a party
        # set up below half its models is Panicked before its first Stratagems
        self._sync_awareness()
        for m in self.models.values():
            # a model set up with 0 HP (a scene's `HP: 0`) is Incapacitated from the start
            if m.on_table and m.hp <= 0 and not (m.states & {"Incapacitated", "Dead"}):
                self._incapacitate(m.id, "set up with 0 HP")
        self._update_engagement()
        self._update_morale()
        self.phase = "initiative"
        while True:
            rolls = {}
            for s in self.sides:
                leader = self._leader(s)
                mm = self.stat(leader, "M") if leader else 0
                r = self.roll(f"initiative {s}", side=s)
                rolls[s] = r + mm
                self.emit("initiative", {"side": s, "roll": r, "leader": leader, "M": mm,
                                         "total": r + mm})
            a, b = self.sides
            if rolls[a] != rolls[b]:
                break
        self.initiative_winner = a if rolls[a] > rolls[b] else b
        self.pending = ("order", self.initiative_winner)

    def _leader(self, side: str) -> str | None:
        cands = [m for m in self.side_models(side) if not m.out]
        for m in cands:
            if m.unit.leader:
                return m.id
        return None

    def _check_deployment(self) -> None:
        zones = self.settings.get("deployment") or self.scene_info.get("deployment") or {}
        W, D = self.table
        depth = float(self.settings["deployment_depth"])
        if not zones:
            zones = {self.sides[0]: [[0.0, 0.0], [W, depth]],
                     self.sides[1]: [[0.0, D - depth], [W, D]]}
        out = []
        for m in self.models.values():
            if not m.on_table or m.id not in self.geo.model_ids():
                continue
            z = zones.get(m.side)
            if not z:
                continue
            (x0, y0), (x1, y1) = z
            x, y, _ = self.geo.position(m.id)
            if not (min(x0, x1) - EPS <= x <= max(x0, x1) + EPS and
                    min(y0, y1) - EPS <= y <= max(y0, y1) + EPS):
                out.append(m.id)
        self.emit("deployment", {"zones": {k: [list(p) for p in v] for k, v in zones.items()},
                                 "outside": out})

    # ------------------------------------------------------------------
    # turns and phases
    def _start_round_or_turn(self) -> None:
        while not self.is_over:
            if self.round == 0:
                self.round = 1
            if self.turn_index >= len(self.order):
                if self.round >= int(self.settings["rounds"]):
                    self._end_game(Termination.TURN_LIMIT,
                                   f"after the last player's turn {self.settings['rounds']}")
                    return
                self.turn_index = 0
                self.round += 1
            side = self.order[self.turn_index]
            if self._eliminated_side() is not None:
                return
            self.active_side = side
            self.emit("turn", {"round": self.round, "side": side})
            if self._strategic(side):
                return                     # the Stratagems window waits for the player
            self._after_strategic(side)
            return                         # (_end_phase starts the next turn itself)

    def _after_strategic(self, side: str) -> None:
        """The rest of the Strategic Phase after the Stratagems, then the Upkeep
        Phase and the Tactical Phase (or the End Phase when no model can act). A
        model that passes its Recovery Check may stand up before the rolls that follow
        (the stand-up decision; ``_after_recoveries`` goes on from there)."""
        self._recovery_checks(side)
        if self._offer_stand_up(("strategic-rolls", side)):
            return
        self._after_recoveries(side)

    def _after_recoveries(self, side: str) -> None:
        self._strategic_rest(side)
        if self.is_over:
            return
        self._upkeep(side)
        self.phase = "tactical"
        self.pending = ("tactical", side)
        if self._activatable(side):
            return
        self._end_phase(side)

    def _eliminated_side(self) -> str | None:
        for s in self.sides:
            live = [m for m in self.side_models(s) if not (m.states & {"Dead", "Incapacitated"})]
            if not live:
                fled = any(m.removed for m in self.models.values() if m.side == s)
                self._end_game(Termination.ELIMINATION,
                               f"{s} has every model Incapacitated or Dead"
                               + (" or off the table" if fled else ""))
                return s
        return None

    def _strategic(self, side: str) -> bool:
        """The start of the Strategic Phase: what lasts "until the next Strategic
        Phase" ends; then the Stratagems window opens (True: a decision waits)
        when the side's Leader stands and it has a Stratagem it can use now."""
        self.phase = "strategic"
        self.emit("phase", {"phase": "strategic", "side": side})
        leader = self._leader(side)
        self.emit("stratagems", {"side": side, "available": leader is not None, "leader": leader})
        self.stratagem_phase_uses = 0
        for d in self.stratagem_used.get(side, {}).values():
            d[1] = 0                       # uses per turn start again
        sg.end_boosts(self, side, "round")
        for m in list(self.side_models(side)):
            if "Fatigued" in m.states:
                self.remove_state(m.id, "Fatigued", "next Strategic Phase")
            for st, exp in list(m.expiry.items()):
                if "strategic" in expiry_marks(exp):
                    self._source_ends(m, st, "strategic", "until the next Strategic Phase")
            if m.incap_by_effect and m.hp > 0 and "Incapacitated" in m.states:
                m.incap_by_effect = False
                self.remove_state(m.id, "Incapacitated", "caused by an effect with HP > 0")
        # enchantments cast by this side's models end at their caster's Strategic Phase
        casters = {m.id for m in self.side_models(side, on_table=False)}
        for o in self.models.values():
            keep = tuple(e for e in o.enchantments if e[1] not in casters)
            if keep != o.enchantments:
                for e in o.enchantments:
                    if e[1] in casters:
                        self.emit("enchantment_ends", {"model": o.id, "spell": e[0], "caster": e[1]})
                        mark = sp.enchantment_expiry(e[0], e[1])
                        for st, exp in sorted(o.expiry.items()):
                            if mark in expiry_marks(exp) and "Dead" not in o.states:
                                self._source_ends(o, st, mark, f"the Enchantment {e[0]} ends")
                o.enchantments = keep
        # a model whose Incapacitated ended here (by an effect, with HP left) may stand
        # up before the Stratagems (``_after_stand_ups`` opens them)
        if self._offer_stand_up(("stratagems", side, True)):
            return True
        return self._open_stratagems(side, first=True)

    def _open_stratagems(self, side: str, first: bool = False) -> bool:
        """Open (or keep open) the Stratagems window: True when the side has one
        it can use now (a side without Stratagems never gets the decision)."""
        can = sg.usable(self, side) if self.stratagems.get(side) else []
        if not can:
            return False
        if first:
            self.emit("stratagem_window", {"side": side, "leader": self._leader(side),
                                           "usable": [s["name"] for s, _ in can]})
        self.pending = ("stratagem", side)
        return True

    def _use_stratagem(self, a: UseStratagem) -> None:
        sg.use(self, a.side, a.name, a.target)
        if self._offer_stand_up(("stratagems", a.side, False)):
            return                         # a Stratagem healed an Incapacitated model
        if not self._open_stratagems(a.side):
            self._close_stratagems(a.side)

    def _close_stratagems(self, side: str) -> None:
        self.pending = ("strategic", side)
        self._after_strategic(side)

    def _strategic_rest(self, side: str) -> None:
        """After the Stratagems, in the facts' order ("Stratagems, abilities, recovery
        checks, bleeding/poison rolls"): the Recovery Checks of the models Incapacitated
        now (``_recovery_checks``, before), then the Bleeding and Poisoned rolls, then
        morale and engagement (a model that bleeds to 0 HP here makes its Recovery Check
        next Strategic Phase)."""
        for m in list(self.side_models(side)):
            if "Dead" in m.states:
                continue
            if "Bleeding" in m.states:
                r = self.roll("Bleeding: T roll", model=m.id)
                d = cb.judge(r, self.stat(m.id, "T"))
                self.emit("check", {"model": m.id, "check": "Bleeding", "die": d.to_dict()})
                if not d.success:
                    self.wound(m.id, 1, "Bleeding")
            if "Poisoned" in m.states and "Dead" not in m.states:
                r = self.roll("Poisoned: T-6 roll", model=m.id)
                d = cb.judge(r, self.stat(m.id, "T", mods=-6))
                self.emit("check", {"model": m.id, "check": "Poisoned", "die": d.to_dict()})
                if not d.success:
                    self.wound(m.id, 1, "Poisoned")
        self._update_morale()
        self._update_engagement()
        self._check_duel()        # a duellist that bled or was poisoned to Incapacitated

    def _recovery_checks(self, side: str) -> None:
        for m in list(self.side_models(side)):
            if "Incapacitated" in m.states and "Dead" not in m.states:
                self._recovery(m.id)

    def _recovery(self, model: str) -> None:
        """Recovery Check (seeds/eldfall-actions.txt): T roll, one reroll with an ally
        in base contact when neither is Engaged."""
        m = self.models[model]
        target = self.stat(model, "T")
        r = self.roll("Recovery Check: T roll", model=model)
        d = cb.judge(r, target)
        first = d
        helper = None
        if not d.success:
            if "Engaged" not in m.states:
                for a in self.allies(model):
                    if a.out or "Engaged" in a.states:
                        continue
                    if self.geo.base_contact(model, a.id):
                        helper = a.id
                        break
            if helper is not None:
                r = self.roll("Recovery Check: reroll", model=model, helper=helper)
                d = cb.judge(r, target)
        self.emit("check", {"model": model, "check": "Recovery", "die": d.to_dict(),
                            **({"first": first.to_dict(), "helper": helper} if helper else {})})
        if d.success:
            m.hp = max(m.hp, 1)
            self.emit("heal", {"model": model, "hp": m.hp, "why": "Recovery Check"})
            self.remove_state(model, "Incapacitated", "Recovery Check")
            self.add_state(model, "Weakened", "Recovery Check")

    def _upkeep(self, side: str) -> None:
        self.phase = "upkeep"
        self.emit("phase", {"phase": "upkeep", "side": side})
        for m in self.models.values():
            if m.out or not m.on_table:
                if m.ap and "Incapacitated" not in m.states:
                    self.set_ap(m.id, 0, "cannot receive AP")
                continue
            if self.duel and m.id not in self._duel_models():
                continue
            sta = m.unit.stat("STA") + sum(int(e[2].get("STA", 0)) for e in m.enchantments)
            why = "Upkeep"
            if m.boosts:
                sta += sg.boost_mod(m, "STA")
            sta += m.dismount_mod("STA")
            ap = cd.upkeep_ap({"STA": sta}, m.states,
                              watchful=cb.has_trait(m.unit.traits, "Watchful"),
                              reactive=m.side != side)
            bonus = sg.boost_mod(m, "AP") if m.boosts else 0
            if bonus and ap > 0:
                ap += bonus
                why = "Upkeep + " + ", ".join(f"Stratagem {b[0]} +{b[2]['AP']}" for b in m.boosts
                                              if b[2].get("AP"))
            self.set_ap(m.id, ap, why)
        for m in self.models.values():
            if any(b[3] == "upkeep" for b in m.boosts):   # +AP: this Upkeep only
                m.boosts = tuple(b for b in m.boosts if b[3] != "upkeep")

    def _activatable(self, side: str) -> list[str]:
        return [m.id for m in self.side_models(side) if self._why_not_activate(m.id) is None]

    def _why_not_activate(self, model: str) -> str | None:
        m = self.models.get(model)
        if m is None:
            return f"no model {model!r}"
        if not m.on_table:
            return f"{model} is not on the table"
        if m.states & OUT_STATES:
            st = sorted(m.states & OUT_STATES)[0]
            return f"{model} is {st}: it cannot activate"
        if m.ap < 1:
            return f"{model} has no AP left"
        if self.duel and model not in self._duel_models() and \
                self.settings["duel_interference"] == "forbid":
            return f"{model} is not in the duel"
        return None

    def _end_phase(self, side: str) -> None:
        self.phase = "end"
        self.emit("phase", {"phase": "end", "side": side})
        sg.end_boosts(self, side, "turn")
        if self._offer_stand_up(("end-phase", side)):
            return                         # (a Stratagem's Incapacitated ended with the turn)
        self._end_phase_rest(side)

    def _end_phase_rest(self, side: str) -> None:
        for m in self.models.values():
            if m.ap:
                self.set_ap(m.id, 0, "End Phase: unspent AP discarded")
        self._update_engagement()
        self._update_morale()
        self.active_side = None
        self.turn_index += 1
        self._start_round_or_turn()

    def _end_game(self, why: Termination, detail: str, winner: str | None = "auto") -> None:
        if self.is_over:
            return
        if why != Termination.DUEL:
            per = int(self.settings["vp_per_casualty"])
            for s in self.sides:
                foe = self.other(s)
                down = sum(1 for m in self.models.values() if m.side == foe and not m.summoned_by
                           and not m.reserve and (m.removed or m.states & {"Dead", "Incapacitated"}))
                if per and down:
                    self._score(s, per * down, "casualties")
        if winner == "auto":
            a, b = self.sides
            winner = None if self.vp[a] == self.vp[b] else (a if self.vp[a] > self.vp[b] else b)
        self.phase = "over"
        self.pending = ("over", "")
        self.finish(Outcome(why, winner, dict(self.vp), detail))

    def _score(self, side: str, vp: int, why: str) -> None:
        cap = int(self.settings["vp_cap"])
        new = min(cap, self.vp[side] + vp)
        if new != self.vp[side]:
            self.vp[side] = new
            self.emit("vp", {"side": side, "vp": new, "why": why})

    # ------------------------------------------------------------------
    # engagement and morale
    def _update_engagement(self) -> None:
        for m in self.models.values():
            if not m.on_table:
                continue
            eng = set()
            # an Incapacitated model may be Engaged (the Recovery Check's reroll
            # needs "neither model is Engaged"); Dead, Petrified, Flying may not
            if cd.can_be_engaged(m.states):
                for e in self.enemies(m.id):
                    if not self.can_engage(e.id):
                        continue
                    r = self.melee_reach(e.id)
                    if not self.geo.in_reach(e.id, m.id, r):
                        continue
                    # "within the Melee Weapon Reach and LoS of an enemy model": the
                    # enemy's own LoS (front arc, scenery); base contact is no LoS. The
                    # automatic LoS an Engaged model has to its engagers is for its
                    # reactions: it does not make it engage them back (else a model
                    # that walks up behind an enemy would be Engaged by it, and every
                    # engagement would turn mutual one update later)
                    with self.own_sight(e.id):
                        seen = self.geo.sight(e.id, m.id).los
                    if seen:
                        eng.add(e.id)
            eng = frozenset(eng)
            if eng != m.engaged_by:
                m.engaged_by = eng
                self.emit("engaged", {"model": m.id, "by": sorted(eng)})
            if eng and "Engaged" not in m.states:
                self.add_state(m.id, "Engaged", "within an enemy's Reach and LoS")
            elif not eng and "Engaged" in m.states:
                self.remove_state(m.id, "Engaged", "no enemy engages it")

    def _update_morale(self) -> None:
        for s in self.sides:
            alive = sum(1 for m in self.models.values() if m.side == s and not m.summoned_by
                        and not m.reserve and not m.removed
                        and not (m.states & {"Dead", "Incapacitated"}))
            broken = alive * 2 < self.original[s]
            if broken and s not in self.broken:
                self.broken.add(s)
                self.emit("morale", {"side": s, "broken": True, "alive": alive,
                                     "original": self.original[s]})
            elif not broken and s in self.broken:
                self.broken.discard(s)
                self.emit("morale", {"side": s, "broken": False, "alive": alive,
                                     "original": self.original[s]})
            for m in self.side_models(s):
                if "Dead" in m.states:
                    continue
                if broken and not m.rallied and \
                        "morale" not in expiry_marks(m.expiry.get("Panicked")):
                    # (one already Panicked by a source with an end keeps it while broken)
                    self.add_state(m.id, "Panicked", "Broken Morale", expiry="morale")
                elif not broken:
                    m.rallied = False
                    if "morale" in expiry_marks(m.expiry.get("Panicked")):
                        self._source_ends(m, "Panicked", "morale", "Morale restored")

    # ------------------------------------------------------------------
    # duel
    def _duel_models(self) -> set[str]:
        if not self.duel:
            return set()
        pair = set(self.duel["models"])
        return pair | {m.id for m in self.models.values() if m.summoned_by in pair}

    def _check_duel(self) -> None:
        if not self.duel or self.duel.get("state") != "on":
            return
        a, b = self.duel["models"]
        # Incapacitated or Dead ends it; so does leaving the table (a Panicked
        # duellist that ran past the edge "counts as a loss")
        da = self.models[a].removed or bool(self.models[a].states & {"Dead", "Incapacitated"})
        db = self.models[b].removed or bool(self.models[b].states & {"Dead", "Incapacitated"})
        if not (da or db):
            return
        sa, sb = self.models[a].side, self.models[b].side
        if da and db:
            self._score(sa, int(self.settings["duel_vp_draw"]), "Duel drawn")
            self._score(sb, int(self.settings["duel_vp_draw"]), "Duel drawn")
            self._end_game(Termination.DUEL, f"the duel of {a} and {b} is a draw")
        else:
            win = sb if da else sa
            self._score(win, int(self.settings["duel_vp_win"]), "Duel won")
            self._end_game(Termination.DUEL, f"{b if da else a} won the duel", winner=win)

    def _duel_interference(self, model: str) -> None:
        side = self.models[model].side
        win = self.other(side)
        self.emit("duel_interference", {"model": model, "side": side})
        self._score(win, int(self.settings["duel_vp_win"]), "Duel: interference")
        self._end_game(Termination.DUEL, f"{model} interfered with the duel: {side} loses",
                       winner=win)

    # ------------------------------------------------------------------
    # the checked entry point
    def apply(self, action):
        kind, who = self.pending
        if kind == "crouch" and not isinstance(action, Crouch) and not (
                isinstance(action, Pass) and action.side == who):
            # the game moves on without the reactive player's Crouched
            # declaration: that is its Pass (logged as its own action). The
            # action must be legal after that Pass, else nothing happens.
            nxt = self._after_crouch_pass()
            if nxt is not None:
                saved, self.pending = self.pending, nxt
                try:
                    reason = self.why_illegal(action)
                finally:
                    self.pending = saved
                if reason:
                    from rules.core.errors import IllegalAction
                    raise IllegalAction(reason, action)
            first = self.apply(Pass(who))
            if self.is_over:
                return first
            return first + self.apply(action)
        if kind == "turn-on-hit" and not isinstance(action, (Turn, Pass)):
            # the game moves on without the hit models' choice: each keeps its
            # facing (a Turn ... keep, logged as its own action), then ``action``
            # applies (and is judged) as the next decision: an illegal one is
            # refused after the keeps (keeping changes nothing on the table)
            first = self.apply(Turn(who))
            if self.is_over:
                return first
            return first + self.apply(action)
        if kind == "stand-up" and not isinstance(action, (StandUp, Pass)):
            # likewise the model whose Incapacitated ended stays Crouched (a ``stand
            # MODEL stay``, logged as its own action), then ``action`` is judged
            first = self.apply(StandUp(who, False))
            if self.is_over:
                return first
            return first + self.apply(action)
        self.decisions += 1
        begin = len(self.events)
        events = super().apply(action)
        if not self.is_over and self.stand_queue and self.pending[0] != "stand-up":
            # an Incapacitated State that ended where no stand-up decision is offered
            # by name: the decision comes before the one now pending
            self._offer_stand_up(("pending",) + tuple(self.pending))
            events = self.events[begin:]
        self._sync_awareness()
        if not self.is_over and self.decisions >= int(self.settings["max_actions"]):
            start = len(self.events)
            self._end_game(Termination.STALEMATE, f"the safety stop after {self.decisions} "
                           f"decision{'' if self.decisions == 1 else 's'} (setting max_actions)")
            events = events + self.events[start:]      # the casualty VP too, not only game_over
        return events

    def decider(self) -> str | None:
        """The side that must decide now."""
        kind, who = self.pending
        if kind in ("order", "tactical", "reaction", "reaction-change", "reaction-late",
                    "duel-answer", "crouch", "stratagem"):
            return who
        if kind in ("movement", "action", "dodge-move", "turn-on-hit", "stand-up"):
            return self.models[who].side
        return None

    _KINDS = {"order": (ChooseOrder,), "tactical": (Activate, EndTurn), "movement": (Move,),
              "reaction": (Declare, Pass, Crouch), "reaction-change": (Declare, Pass),
              "reaction-late": (Declare, Pass),
              "crouch": (Crouch, Pass),
              "action": (Declare,), "dodge-move": (DodgeMove,), "turn-on-hit": (Turn, Pass),
              "duel-answer": (DuelAnswer,), "stratagem": (UseStratagem, Pass),
              "stand-up": (StandUp, Pass)}

    def check_phase(self, action) -> str | None:
        kind, who = self.pending
        if kind == "over":
            return None
        ok = self._KINDS.get(kind, ())
        if not isinstance(action, ok):
            names = " or ".join(c.verb for c in ok) or "nothing"
            return f"now is the {kind} decision: it takes {names}, not {type(action).verb}"
        return None

    def check_actor(self, action) -> str | None:
        kind, who = self.pending
        if isinstance(action, Pass) and kind in ("turn-on-hit", "stand-up"):
            side = self.models[who].side   # a Pass keeps the facing (the Crouched State) of the model asked
            return None if action.side == side else f"it is {side}'s decision, not {action.side}'s"
        if isinstance(action, (ChooseOrder, EndTurn, Pass, DuelAnswer, Crouch, UseStratagem)):
            if action.side != who:
                return f"it is {who}'s decision, not {action.side}'s"
            return None
        model = action.model
        if model not in self.models:
            return f"no model {model!r}"
        side = self.models[model].side
        if kind == "tactical":
            if side != who:
                return f"{model} is {side}'s; {who} is the active player"
            return None
        if kind in ("movement", "action", "dodge-move", "turn-on-hit", "stand-up"):
            if model != who:
                return f"it is {who}'s {kind.replace('-', ' ')} step, not {model}'s"
            return None
        if kind in ("reaction", "reaction-change", "reaction-late"):
            if side != who:
                return f"only the reactive player ({who}) reacts now"
            return None
        return None

    def check_rule(self, action) -> str | None:
        kind, _ = self.pending
        pts = tuple(getattr(action, "path", ()) or ()) + ((action.point,) if getattr(action, "point", None) else ())
        if any(not math.isfinite(v) for p in pts for v in p):
            return "a point of the action is not a number"
        if isinstance(action, ChooseOrder) or isinstance(action, EndTurn) or isinstance(action, Pass):
            return None
        if isinstance(action, Crouch):
            return self._why_not_crouch_action(action)
        if isinstance(action, UseStratagem):
            return sg.why_not(self, action.side, action.name, action.target)
        if isinstance(action, Activate):
            return self._why_not_activate(action.model)
        if isinstance(action, Move):
            return self._why_not_move(action)
        if isinstance(action, Declare):
            if kind == "reaction":
                return rx.why_not_reaction(self, action)
            if kind == "reaction-change":
                return rx.why_not_change(self, action)
            if kind == "reaction-late":
                return rx.why_not_late(self, action)
            return self._why_not_declare(action, "active")
        if isinstance(action, DodgeMove):
            return self._why_not_dodge_move(action)
        if isinstance(action, Turn):
            if action.facing is not None and not math.isfinite(action.facing):
                return "a facing is a number of degrees"
            return None
        if isinstance(action, DuelAnswer):
            return None
        if isinstance(action, StandUp):
            return self._why_not_stand_up(action.model) if action.up else None
        return f"unknown action {action!r}"

    def perform(self, action) -> None:
        if isinstance(action, ChooseOrder):
            w = action.side
            self.order = [w, self.other(w)] if action.first else [self.other(w), w]
            self.emit("order", {"order": self.order})
            self.turn_index = 0
            self.round = 0
            self._start_round_or_turn()
        elif isinstance(action, EndTurn):
            self._end_phase(action.side)
        elif isinstance(action, Activate):
            self._activate(action.model)
        elif isinstance(action, Move):
            self._move(action)
        elif isinstance(action, Crouch):
            self._crouch(action)
        elif isinstance(action, UseStratagem):
            self._use_stratagem(action)
        elif isinstance(action, Pass) and self.pending[0] == "stratagem":
            self.emit("stratagems_done", {"side": action.side, "used": self.stratagem_phase_uses})
            self._close_stratagems(action.side)
        elif isinstance(action, Pass) and self.pending[0] == "turn-on-hit":
            self._turn(Turn(self.pending[1]))
        elif isinstance(action, Pass) and self.pending[0] == "stand-up":
            self._stand_up(StandUp(self.pending[1], False))
        elif isinstance(action, StandUp):
            self._stand_up(action)
        elif isinstance(action, Pass) and self.pending[0] == "crouch":
            self.emit("crouch_reaction", {"side": action.side, "window": self.act.crouch_window,
                                          "mover": self.act.model, "changes": {}})
            self._close_crouch_window()
        elif isinstance(action, Pass):
            # who could have reacted and did not, as the game has it (the narration's
            # "b1 does not react"; it holds after an undo, which the narration never sees)
            act, kind = self.act, self.pending[0]
            rest = (list(act.change_candidates) if kind == "reaction-change" else
                    list(act.late_candidates) if kind == "reaction-late" else
                    sorted(m for m in act.qualified if m not in act.reactions))
            self.emit("reactions_done", {"side": action.side, "offer": {
                "reaction": "step", "reaction-late": "late", "reaction-change": "change"}[kind],
                "models": rest, **({"kept": {m: str(act.reactions[m]) for m in rest
                                             if m in act.reactions}}
                                   if kind == "reaction-change" else {})})
            if self.pending[0] == "reaction-change":
                self.act.change_candidates = []
                self._resolve()
            elif self.pending[0] == "reaction-late":
                self.act.late_candidates = []
                self._after_declaration()
            else:
                self._to_action_step()
        elif isinstance(action, Declare):
            if self.pending[0] == "reaction":
                rx.declare_reaction(self, action)
            elif self.pending[0] == "reaction-change":
                rx.change_reaction(self, action)
            elif self.pending[0] == "reaction-late":
                rx.declare_late(self, action)
            else:
                self._declare_action(action)
        elif isinstance(action, DodgeMove):
            self._dodge_move(action)
        elif isinstance(action, Turn):
            self._turn(action)
        elif isinstance(action, DuelAnswer):
            self._duel_answer(action)

    # ------------------------------------------------------------------
    # standing up when Incapacitated ends (eldfall-states.txt, Incapacitated: "When
    # canceled, the model may voluntarily cancel the Crouched State"): the model's
    # player decides at once (pending "stand-up"), before the game goes on
    def _why_not_stand_up(self, model: str) -> str | None:
        m = self.models[model]
        if not m.on_table:
            return f"{model} is not on the table"
        if m.states & OUT_STATES:
            return f"{model} is {sorted(m.states & OUT_STATES)[0]}: it stays Crouched"
        return self._why_not_crouch(model, False, m.states)

    def _offer_stand_up(self, then: tuple) -> bool:
        """True when a model of ``stand_queue`` may still stand up: the first such is
        the pending decision, and ``then`` says how the game goes on once the queue is
        done (``_after_stand_ups``). False: none may (the queue is emptied)."""
        while self.stand_queue and (self.is_over or self._why_not_stand_up(self.stand_queue[0])):
            self.stand_queue.pop(0)        # Incapacitated or Dead again, no longer Crouched, ...
        if not self.stand_queue:
            return False
        if self.act is None:
            self._update_morale()          # the model stands again: its party counts it
        self.stand_then = then
        self.pending = ("stand-up", self.stand_queue[0])
        return True

    def _stand_up(self, a: StandUp) -> None:
        self.stand_queue.pop(0)
        self.emit("stand_up", {"model": a.model, "up": a.up})
        if a.up:
            self.remove_state(a.model, "Crouched", "cancelled by choice: Incapacitated ended")
            if self.act is None:
                self._update_engagement()  # standing, it engages again (Crouched: no one)
        then, self.stand_then = self.stand_then, None
        if not self._offer_stand_up(then):
            self._after_stand_ups(then)

    def _after_stand_ups(self, then: tuple) -> None:
        """The game goes on where the stand-up decisions stopped it (``then``)."""
        tag = then[0]
        if tag == "stratagems":            # the Strategic Phase's Stratagems window
            if not self._open_stratagems(then[1], first=then[2]):
                self._close_stratagems(then[1])
        elif tag == "strategic-rolls":     # after the Recovery Checks
            self._after_recoveries(then[1])
        elif tag == "turns":               # after the Resolution Step
            self._open_turns()
        elif tag == "sequence-end":
            self._close_sequence()
        elif tag == "end-phase":
            self._end_phase_rest(then[1])
        else:                              # "pending": the decision it came before
            self.pending = (then[1], then[2])

    # ------------------------------------------------------------------
    # step 1: activation
    def _activate(self, model: str) -> None:
        m = self.models[model]
        if self.duel and model not in self._duel_models():
            self._duel_interference(model)
            return
        self.set_ap(model, m.ap - 1, "Activation")
        self.phase = "activation"
        act = Activation(model=model, start=tuple(self.geo.position(model)))
        self.act = act
        self.emit("activate", {"model": model, "ap": m.ap})
        if m.unit.spells:
            gain = int(self.settings["mana_per_active_ap"])
            if gain:
                m.mana += gain
                self.emit("mana", {"model": model, "mana": m.mana, "why": "AP spent in the Active Role"})
        if "Panicked" in m.states:
            r = self.roll("Panicked: M roll", model=model)
            d = cb.judge(r, self.stat(model, "M"))
            self.emit("check", {"model": model, "check": "Panicked", "die": d.to_dict()})
            act.panic_failed = not d.success
        forced = av.forced_declaration(m.states, panic_failed=act.panic_failed,
                                       settings=self.settings.get("table_settings"))
        act.forced = forced
        if forced is not None:
            self.emit("forced", {"model": model, "movement": forced.movement,
                                 "actions": sorted(forced.actions), "reason": forced.reason})
            if forced.cancels_crouched:
                self.remove_state(model, "Crouched", "stands up to run")
            if forced.toward_edge:
                self._forced_run(model)
            else:
                act.movement = "Idle"
                self.emit("movement", {"model": model, "movement": "Idle", "forced": True})
            if self.is_over or self.act is None:
                return
            self._to_reaction_step()
            return
        self._open_crouch_window("start")

    # ------------------------------------------------------------------
    # Crouched as a Reaction (eldfall-states.txt, "Crouched"): at the start and
    # at the end of the activated model's Movement Step the reactive player may
    # enter or cancel Crouched for its models, each once per sequence
    def crouch_eligible(self) -> list[str]:
        """The reactive player's models that may change Crouched now."""
        act = self.act
        if act is None or not self.settings["crouch_reaction"]:
            return []
        return [m.id for m in self.side_models(self.reactive_side)
                if self._why_not_reactive_crouch(m.id, "Crouched" not in m.states) is None]

    def _why_not_reactive_crouch(self, model: str, on: bool) -> str | None:
        act = self.act
        m = self.models[model]
        if m.side != self.reactive_side:
            return f"{model} is not the reactive player's"
        if model == act.model:
            return f"{model} is the activated model: it changes Crouched in its own Move"
        if not m.on_table:
            return f"{model} is not on the table"
        if model in act.crouch_changed:
            return f"{model} already changed Crouched in this Activation Sequence"
        if self.duel and self.duel.get("state") == "on" and model not in self._duel_models() \
                and self.settings["duel_interference"] == "forbid":
            return f"{model} is not in the duel"
        cost = int(self.settings["crouch_reaction_ap"])
        if m.ap < cost:
            return f"{model} has {m.ap} AP; changing Crouched costs {cost}"
        when = "movement_start" if act.crouch_window == "start" else "movement_end"
        r = self._why_not_crouch(model, on, m.states) or cd.crouch_change_allowed(
            m.states, when, settings=self.settings.get("table_settings"))
        return r

    def _open_crouch_window(self, when: str) -> None:
        act = self.act
        act.crouch_window = when
        if self.crouch_eligible():
            self.phase = "movement"
            self.pending = ("crouch", self.reactive_side)
            return
        self._close_crouch_window()

    def _close_crouch_window(self) -> None:
        act = self.act
        when, act.crouch_window = act.crouch_window, None
        if when == "start":
            self.phase = "movement"
            self.pending = ("movement", act.model)
        else:
            self._to_action_step()

    def _after_crouch_pass(self) -> tuple[str, str] | None:
        """The decision a Pass in the open Crouched window leads straight to
        (None when the game first acts by itself: an automatic Nothing)."""
        act = self.act
        if act.crouch_window == "start":
            return ("movement", act.model)
        if self.models[act.model].out or act.forced is not None or \
                act.movement in ("Run", "Climb", "Jump"):
            return None
        return ("action", act.model)

    def _why_not_crouch_action(self, a: Crouch) -> str | None:
        act = self.act
        if act is None or act.crouch_window is None:
            return "Crouched as a Reaction is declared at the start or end of the Movement Step"
        if not self.settings["crouch_reaction"]:
            return "Crouched as a Reaction is off (setting crouch_reaction)"
        if not a.changes:
            return "name at least one model (pass declines)"
        seen = set()
        for mid, on in a.changes:
            if mid in seen:
                return f"{mid} is named twice"
            seen.add(mid)
            if mid not in self.models:
                return f"no model {mid!r}"
            r = self._why_not_reactive_crouch(mid, on)
            if r:
                return r
        return None

    def _crouch(self, a: Crouch) -> None:
        act = self.act
        when = act.crouch_window
        cost = int(self.settings["crouch_reaction_ap"])
        self.emit("crouch_reaction", {"side": a.side, "window": when, "mover": act.model,
                                      "changes": {m: on for m, on in a.changes}})
        for mid, on in a.changes:
            act.crouch_changed = act.crouch_changed | {mid}
            if cost:
                self.set_ap(mid, self.models[mid].ap - cost, "Crouched as a Reaction")
            why = f"{'entered' if on else 'cancelled'} at the {when} of {act.model}'s Movement Step"
            if on:
                self.add_state(mid, "Crouched", why, voluntary=True)
            else:
                self.remove_state(mid, "Crouched", why)
        if self.pending[0] == "reaction":
            # the end of the Movement Step, declared as the Reaction Step opens
            act.crouch_window = None
            if not rx.any_can_react(self):
                self._to_action_step()
            return
        self._close_crouch_window()

    def _forced_run(self, model: str) -> None:
        """Panicked, failed M roll: a full Run toward the nearest open field edge."""
        act = self.act
        x, y, z = self.geo.position(model)
        dist, edges = self._nearest_edges(model)
        run = self.allowance(model, "run")
        act.movement = "Run"
        radius = self.models[model].unit.base / 2
        _, axis, sign = edges[0]
        off = None
        if dist - radius <= run + EPS:
            # it goes past the edge only if nothing stops it on the way there
            # (scenery it cannot cross, an enemy at base contact): the run is a
            # movement, and a wall does not let it through
            reach = max(0.0, dist - radius - 1e-4)
            for _, ax, sg_ in edges:
                ex, ey = (sg_, 0.0) if ax == 0 else (0.0, sg_)
                mv = self.geo.check_move(model, "run", [(x + ex * reach, y + ey * reach, z)],
                                         float(self.speed(model)), enemies=self.enemy_reaches(model))
                if mv.legal and mv.stopped_by is None:
                    off = (ax, sg_)
                    break
        dx, dy = (sign, 0.0) if axis == 0 else (0.0, sign)
        if off is not None:
            self.emit("movement", {"model": model, "movement": "Run", "forced": True,
                                   "off_table": True})
            m = self.models[model]
            m.removed = True
            m.ap = 0
            self.geo.remove(model)
            self.emit("removed", {"model": model, "why": "Panicked: ran past the field edge"})
            self._after_drop(model)
            self._leave_engagements(model, f"{model} left the table")
            self._update_morale()
            self.act = None
            self.pending = ("tactical", self.active_side)
            self._check_duel()
            self._after_sequence_checks()
            return
        def straight(length):
            return self.geo.check_move(model, "run", [(x + dx * length, y + dy * length, z)],
                                       float(self.speed(model)), enemies=self.enemy_reaches(model))
        # blocked: it runs as far as it can. Halved until a run is clear, then the distance
        # between the last blocked and that clear one narrowed to _FORCED_RUN_PRECISION
        length, blocked, good = run, None, None
        for _ in range(8):
            mv = straight(length)
            if mv.legal:
                good = (length, mv)
                break
            blocked, length = length, length / 2
        if good is not None and blocked is not None:
            lo, hi = good[0], blocked
            while hi - lo > _FORCED_RUN_PRECISION:
                mid = (lo + hi) / 2
                mv = straight(mid)
                if mv.legal:
                    lo, good = mid, (mid, mv)
                else:
                    hi = mid
        if good is not None:
            self._do_path(model, "Run", [tuple(good[1].end)], good[1], forced=True)
            return
        self.emit("movement", {"model": model, "movement": "Run", "forced": True, "blocked": True})

    # ------------------------------------------------------------------
    # step 2: movement
    def _why_not_move(self, a: Move) -> str | None:
        m = self.models[a.model]
        act = self.act
        if a.mode not in MOVEMENT_NAMES:
            return f"unknown movement {a.mode!r} (idle, walk, run, climb or jump)"
        states = set(m.states)
        if a.land is not None:
            if a.land not in ("start", "end"):
                return f"land is start or end (of the Movement Step), not {a.land!r}"
            r = self._why_not_land(a.model, states, here=a.land == "start" or a.mode == "idle")
            if r:
                return r
            if a.land == "start":
                states.discard("Flying")
        if a.crouch_start is not None:
            r = self._why_not_crouch(a.model, a.crouch_start, states)
            if r:
                return r
            states = (states | {"Crouched"}) if a.crouch_start else (states - {"Crouched"})
        if a.crouch_end is not None:
            if a.crouch_start is not None:
                return "Crouched may change once per activation (start or end of the step)"
        name = MOVEMENT_NAMES[a.mode]
        allowed = av.allowed_movements(states, panic_failed=act.panic_failed,
                                       environment=self.geo.environments(a.model),
                                       settings=self.settings.get("table_settings"))
        if name not in allowed:
            return f"{name} is not allowed now (allowed: {', '.join(sorted(allowed)) or 'none'})"
        if a.crouch_end is not None:
            r = self._why_not_crouch(a.model, a.crouch_end,
                                     states - {"Flying"} if a.land == "end" else states)
            if r:
                return r
        if a.mode == "idle":
            if a.path:
                return "Idle does not move: no path"
            return None
        if not a.path:
            return f"{name} needs a path"
        if "Engaged" in m.states and a.mode == "walk":
            r = self._why_not_toward_engager(a.model, a.path)
            if r:
                return r
        changed = a.crouch_start is not None or a.land == "start"
        with self.states_for_geometry(a.model, states if changed else None), \
                self.landed_for_geometry(a.model, a.land == "start"):
            mv = self.geo.check_move(a.model, a.mode, list(a.path),
                                     float(self._speed_with(a.model, states)),
                                     enemies=self.enemy_reaches(a.model, states))
        if not mv.legal:
            return f"illegal {name}: {mv.reason}"
        return None

    @contextlib.contextmanager
    def states_for_geometry(self, model: str, states):
        """The geometry asked with ``model`` carrying ``states`` (a Crouched model that
        stands up at the start of its Movement Step is checked with its standing
        hitbox); its real states are put back afterwards. ``None``: unchanged."""
        if states is None or set(states) == set(self.models[model].states):
            yield
            return
        self.geo.set_states(model, states)
        try:
            yield
        finally:
            self.geo.set_states(model, self.models[model].states)

    @contextlib.contextmanager
    def landed_for_geometry(self, model: str, land: bool):
        """The geometry asked with ``model`` set down where it would land (it stops
        Flying at the start of its Movement Step); its place is put back afterwards."""
        if not land:
            yield
            return
        p, f = self.geo.position(model), self.geo.facing(model)
        self.geo.drop(model, float(self.speed(model)))
        try:
            yield
        finally:
            self.geo.place(model, p, f)

    def _why_not_land(self, model: str, states, here: bool) -> str | None:
        """Why ``model`` may not stop Flying by choice now (the States page: Flying is
        removed "or voluntary"; docs/rulings.md, "Stopping Flying"). ``here``: it lands
        where it stands (at the start of the step, or after an Idle); after a flight
        it lands where the flight ends, which the movement check already judged."""
        if "Flying" not in states:
            return f"{model} is not Flying: it has nothing to land from"
        try:
            cd.remove_state(states, "Flying", "voluntary", settings=self.settings.get("table_settings"))
        except cd.StateRuleError as exc:
            return str(exc)
        if not here:
            return None
        m = self.models[model]
        with self.landed_for_geometry(model, True):
            x, y, _ = self.geo.position(model)
            for o in self.models.values():
                if o.id == model or not o.on_table:
                    continue
                ox, oy, _ = self.geo.position(o.id)
                # bases overlap and the hitboxes meet: it would end inside that model
                # ("no model may end movement on top of a Dead model")
                if math.hypot(ox - x, oy - y) < (m.unit.base + o.unit.base) / 2 - 0.02 and \
                        self.geo.distance(model, o.id) <= EPS:
                    return f"{model} cannot land here: it would end inside {o.id}'s hitbox"
        return None

    def _why_not_crouch(self, model: str, on: bool, states) -> str | None:
        if on and "Crouched" in states:
            return f"{model} is already Crouched"
        if not on and "Crouched" not in states:
            return f"{model} is not Crouched"
        if on and "Flying" in states:
            return "a Flying model cannot voluntarily become Crouched"
        if "Immobilized" in states:
            return "an Immobilized model cannot enter or cancel Crouched"
        if not on and "Incapacitated" in states:
            return "an Incapacitated model stays Crouched"
        return None

    def _why_not_toward_engager(self, model: str, path) -> str | None:
        m = self.models[model]
        x, y, _ = self.geo.position(model)
        tol = math.radians(float(self.settings["engaged_walk_tolerance_deg"]))
        ex, ey, _ = path[-1]
        hx, hy = ex - x, ey - y
        if math.hypot(hx, hy) < EPS:
            return None
        for e in m.engaged_by:
            px, py, _ = self.geo.position(e)
            tx, ty = px - x, py - y
            ang = abs(math.atan2(hx * ty - hy * tx, hx * tx + hy * ty))
            straight = all(abs(math.atan2((p[0] - x) * ty - (p[1] - y) * tx,
                                          (p[0] - x) * tx + (p[1] - y) * ty)) <= tol + EPS
                           for p in path if math.hypot(p[0] - x, p[1] - y) > EPS)
            if ang <= tol and straight:
                return None
        return (f"{model} is Engaged: a Walk must go directly toward "
                f"{' or '.join(sorted(m.engaged_by))}")

    def _move(self, a: Move) -> None:
        act = self.act
        if a.land == "start":
            self.remove_state(a.model, "Flying", "stops Flying by choice at the start of the Movement Step")
        if a.crouch_start is not None:
            act.crouch_changed_self = True
            if a.crouch_start:
                self.add_state(a.model, "Crouched", "entered at the start of the Movement Step")
            else:
                self.remove_state(a.model, "Crouched", "cancelled at the start of the Movement Step")
        name = MOVEMENT_NAMES[a.mode]
        act.movement = name
        if a.mode == "idle":
            if a.facing is not None:
                self.geo.set_facing(a.model, a.facing)
            self.emit("movement", {"model": a.model, "movement": "Idle", "facing": a.facing})
            act.path = ()
        else:
            mv = self.geo.check_move(a.model, a.mode, list(a.path), float(self.speed(a.model)),
                                     enemies=self.enemy_reaches(a.model))
            self._do_path(a.model, name, list(a.path), mv, facing=a.facing)
            if self.is_over or self.act is None:
                return
        if a.land == "end":
            self.remove_state(a.model, "Flying", "stops Flying by choice at the end of the Movement Step")
        if a.crouch_end is not None:
            act.crouch_changed_self = True
            if a.crouch_end:
                self.add_state(a.model, "Crouched", "entered at the end of the Movement Step")
            else:
                self.remove_state(a.model, "Crouched", "cancelled at the end of the Movement Step")
        self._to_reaction_step()

    def _do_path(self, model: str, name: str, path, mv, facing=None, forced=False) -> None:
        act = self.act
        act.path = tuple(tuple(float(v) for v in p) for p in path)
        act.opportunity = [(e, tuple(float(v) for v in p)) for e, p in
                           (getattr(mv, "opportunity_points", ()) or ())]
        # who saw the mover, before it moves (along the route the geometry resolved)
        route = [tuple(p) for p in (getattr(mv, "path", None) or [])][1:] or list(act.path)
        rx.observe_path(self, model, route)
        end = tuple(mv.end)
        if facing is None:
            sx, sy, _ = act.start
            if math.hypot(end[0] - sx, end[1] - sy) > EPS:
                facing = math.degrees(math.atan2(end[1] - sy, end[0] - sx)) % 360.0
        self.geo.place(model, end, facing)
        self.models[model].on_vertical = bool(getattr(mv, "ends_on_vertical", False))
        self.emit("movement", {"model": model, "movement": name, "path": [list(p) for p in act.path],
                               "end": list(end), "distance": float(mv.distance),
                               "stopped_by": mv.stopped_by, "forced": forced,
                               "facing": facing})
        for f in getattr(mv, "falls", ()) or ():
            self.fall_rolls(model, f)
        for area in getattr(mv, "dangerous", ()) or ():
            if self.models[model].out:
                break
            self.dangerous_roll(model, area)

    def dangerous_roll(self, model: str, area: str) -> None:
        """A Dangerous area touched on the way: a Dodge roll (AG), failed: 1 Wound
        (docs/rulings.md, "Dangerous areas")."""
        r = self.roll("Dangerous area: Dodge roll (AG)", model=model, area=area)
        d = cb.judge(r, self.stat(model, "AG"))
        self.emit("check", {"model": model, "check": "Dangerous", "area": area, "die": d.to_dict()})
        if not d.success:
            self.wound(model, 1, f"dangerous area {area}")

    def fall_rolls(self, model: str, fall) -> None:
        """A fall's AG rolls (one per whole interval fallen, the geometry's count):
        each failed roll is a Wound."""
        for _ in range(int(fall.rolls)):
            r = self.roll("Fall: AG roll", model=model, height=float(fall.height))
            d = cb.judge(r, self.stat(model, "AG"))
            self.emit("check", {"model": model, "check": "Fall", "die": d.to_dict()})
            if not d.success:
                self.wound(model, 1, "fall")

    # ------------------------------------------------------------------
    # step 3: reactions (rules/eldfall/reactions.py decides who qualifies)
    def _to_reaction_step(self) -> None:
        act = self.act
        act.step = "reaction"
        self.phase = "reaction"
        rx.open_reaction_step(self)
        if rx.any_can_react(self):
            self.pending = ("reaction", self.reactive_side)
            # the reactive player may first change Crouched (the end of the
            # Movement Step), before it declares any reaction
            act.crouch_window = "end"
            if not self.crouch_eligible():
                act.crouch_window = None
        else:
            self._open_crouch_window("end")

    # ------------------------------------------------------------------
    # step 4: the action
    def _to_action_step(self) -> None:
        act = self.act
        act.crouch_window = None
        act.step = "action"
        self.phase = "action"
        m = self.models[act.model]
        if m.out:
            # fell during the movement (a fall): the sequence ends with Nothing
            self._declare_action(Declare(act.model, "Nothing"), auto=True)
            return
        if act.movement in ("Run", "Climb", "Jump") and act.forced is None:
            self._declare_action(Declare(act.model, "Nothing"), auto=True)
            return
        if act.forced is not None:
            choice = "Dodge" if "Dodge" in act.forced.actions else "Nothing"
            self._declare_action(Declare(act.model, choice), auto=True)
            return
        self.pending = ("action", act.model)

    def _why_not_declare(self, d: Declare, role: str) -> str | None:
        act = self.act
        m = self.models[d.model]
        panic = act.panic_failed if role == "active" else d.model in act.panic_failed_reactors
        movement = act.movement if role == "active" else None
        if self.duel and self.duel.get("state") == "on" and \
                self.settings["duel_interference"] == "forbid":
            foes = [t for t in d.target_ids if t in self.models and self.models[t].side != m.side]
            if any(t not in self._duel_models() for t in foes):
                return "during the Duel only the duelling models fight each other"
        r = av.why_not(role, movement, m.states, d.action, panic_failed=panic,
                       environment=self.geo.environments(d.model),
                       settings=self.settings.get("table_settings"))
        if r:
            return r
        return rs.why_not_declaration(self, d, role)

    def fall_from_wall(self, model: str, tried: str) -> None:
        """A model on a vertical surface that tries any action but Nothing falls
        (eldfall-actions.txt, Climb): down to the surface below, AG rolls."""
        m = self.models[model]
        m.on_vertical = False
        f = self.geo.drop(model, float(self.speed(model)))
        self.emit("fall", {"model": model, "height": float(f.height), "rolls": int(f.rolls),
                           "why": f"tried {tried} on a vertical surface"})
        self.fall_rolls(model, f)

    def unless_hanging(self, d: Declare) -> Declare:
        """A model left on a vertical surface falls when it declares anything but
        Nothing, and then does Nothing; else ``d`` itself (active or reactive)."""
        if self.models[d.model].on_vertical and d.action != "Nothing":
            self.fall_from_wall(d.model, d.action)
            return Declare(d.model, "Nothing")
        return d

    def declared_states(self, d: Declare) -> None:
        """The States a declaration changes (Shrouded ends, ...; conditions.on_action_declared);
        an attacking model that was Shrouded is remembered for the reactions it allows."""
        m = self.models[d.model]
        new, notes = cd.on_action_declared(m.states, d.action,
                                           settings=self.settings.get("table_settings"))
        if new != m.states:
            if d.action in ATTACKS:
                self.act.was_shrouded = self.act.was_shrouded | {d.model}
            self.set_states(d.model, new, f"declared {d.action}")

    def _declare_action(self, d: Declare, auto: bool = False) -> None:
        act = self.act
        m = self.models[d.model]
        d = self.unless_hanging(d)
        act.action = d
        self.emit("declare", {"model": d.model, "role": "active", "action": str(d), "auto": auto})
        # (a token named by Perceive or Interact is no model: never interference)
        if self.duel and d.target_ids and any(t not in self._duel_models() for t in d.target_ids
                                              if t in self.models and self.models[t].side != m.side):
            self._duel_interference(d.model)
            return
        self.declared_states(d)
        # Foresight (eldfall-reactions.txt, Notes): a model that declared no
        # Reaction in the Reaction Step may declare one now, after this declaration
        act.late_candidates = rx.late_candidates(self)
        self._after_declaration()

    def _after_declaration(self) -> None:
        """The Action Step after the active model's declaration: the Foresight
        reactions, the reactions changed to Attacks, a Duel's answer, then the
        Resolution Step."""
        act = self.act
        d = act.action
        m = self.models[d.model]
        if act.late_candidates:
            self.pending = ("reaction-late", self.reactive_side)
            self.emit("late_reaction_offered", {"models": list(act.late_candidates),
                                                "after": str(d)})
            return
        if d.action in ATTACKS and (d.model in act.was_shrouded or "Flying" in m.states):
            # Reactions against Shrouded or Flying models: a Dodge or Perceive
            # may become an Attack after the Action Step (eldfall-reactions.txt)
            act.change_candidates = [mid for mid, r in act.reactions.items()
                                     if r.action in ("Dodge", "Perceive")
                                     and not self.models[mid].out]
            if act.change_candidates:
                self.pending = ("reaction-change", self.reactive_side)
                self.emit("reaction_change_offered", {"models": list(act.change_candidates)})
                return
        if d.action == "Issue a Duel":
            tgt = d.target_ids[0]
            self.duel = {"models": [d.model, tgt], "state": "asked"}
            self.emit("duel", {"challenger": d.model, "challenged": tgt, "state": "asked"})
            self.pending = ("duel-answer", self.models[tgt].side)
            return
        self._resolve()

    def _duel_answer(self, a: DuelAnswer) -> None:
        ch, tgt = self.duel["models"]
        if a.accept:
            self.duel["state"] = "on"
            self.emit("duel", {"challenger": ch, "challenged": tgt, "state": "accepted"})
            for mid in (ch, tgt):
                self.set_ap(mid, self.stat(mid, "STA"), "Duel accepted: AP restored")
            for o in self.models.values():
                if o.id not in self._duel_models() and o.ap:
                    if self.settings["duel_interference"] == "forbid":
                        self.set_ap(o.id, 0, "not in the duel")
            # the duel "Ends the normal game flow for all other models": a reaction
            # they declared in this sequence's Reaction Step does not resolve (it would
            # act in the duel; the AP stays spent). docs/rulings.md, "Issue a Duel"
            act = self.act
            for mid in [r for r in act.reactions if r not in self._duel_models()]:
                d = act.reactions.pop(mid)
                self.emit("reaction_void", {"model": mid, "reaction": str(d),
                                            "why": "the duel was accepted"})
        else:
            self.emit("duel", {"challenger": ch, "challenged": tgt, "state": "refused"})
            self.duel = None
        self._resolve()

    # ------------------------------------------------------------------
    # step 5: resolution (rules/eldfall/spells.py and combat.py do the work)
    def _resolve(self) -> None:
        act = self.act
        act.step = "resolution"
        self.phase = "resolution"
        rs.resolve(self)
        if self.is_over:
            return
        # a model healed out of Incapacitated in this Resolution Step may stand up
        # now, before the hit models turn and the Dodge moves
        if self._offer_stand_up(("turns",)):
            return
        self._open_turns()

    # ------------------------------------------------------------------
    # turning when Hit (eldfall-facts.md, Line of sight: "a model may also turn
    # when it suffers a Hit"); table setting turn_on_hit (docs/rulings.md)
    def _can_turn(self, model: str) -> bool:
        m = self.models.get(model)
        return m is not None and not m.out

    def face_toward(self, model: str, other: str) -> float | None:
        """The facing (degrees CCW from +x) of ``model`` looking at ``other``'s centre."""
        x, y, _ = self.geo.position(model)
        ox, oy, _ = self.geo.position(other)
        if math.hypot(ox - x, oy - y) < EPS:
            return None
        return round(math.degrees(math.atan2(oy - y, ox - x)) % 360.0, 6)

    def _faces_all(self, model: str) -> bool:
        """Every attacker that hit ``model`` stands in its Front arc (its centre
        in the half-plane ahead of the line across the base)."""
        x, y, _ = self.geo.position(model)
        f = math.radians(float(self.geo.facing(model)))
        for a in self.act.hit_by.get(model, ()):
            if a == model or not self.models[a].on_table:
                continue
            ax, ay, _ = self.geo.position(a)
            if (ax - x) * math.cos(f) + (ay - y) * math.sin(f) < -EPS:
                return False
        return True

    def _open_turns(self) -> None:
        """After the Resolution Step: the models that suffered a Hit turn (or may)."""
        from rules.eldfall.table_settings import resolve
        act = self.act
        mode = resolve(self.settings.get("table_settings")).turn_on_hit
        hit = [mid for mid in act.hit_by if self._can_turn(mid)]
        act.turn_queue = []
        if mode == "face_attacker":
            for mid in hit:
                foe = next((a for a in act.hit_by[mid] if a != mid and self.models[a].on_table), None)
                facing = None if foe is None else self.face_toward(mid, foe)
                if facing is not None:
                    self._do_turn(mid, facing, foe, auto=True)
        elif mode == "choose":
            act.turn_queue = [mid for mid in hit if not self._faces_all(mid)]
        elif mode == "always":
            act.turn_queue = hit
        self._next_turn()

    def _next_turn(self) -> None:
        act = self.act
        while act.turn_queue and not self._can_turn(act.turn_queue[0]):
            act.turn_queue.pop(0)
        if act.turn_queue:
            act.step = "turn-on-hit"
            self.phase = "turn-on-hit"
            self.pending = ("turn-on-hit", act.turn_queue[0])
            return
        self._start_dodge_moves()

    def _turn(self, a: Turn) -> None:
        act = self.act
        act.turn_queue.pop(0)
        toward = None
        if a.facing is not None:
            for foe in act.hit_by.get(a.model, ()):
                f = self.face_toward(a.model, foe) if self.models[foe].on_table else None
                if f is not None and abs((f - a.facing + 180.0) % 360.0 - 180.0) < 1e-6:
                    toward = foe
                    break
        self._do_turn(a.model, a.facing, toward, auto=False)
        self._next_turn()

    def _do_turn(self, model: str, facing: float | None, toward: str | None, auto: bool) -> None:
        old = round(float(self.geo.facing(model)) % 360.0, 6)
        if facing is not None:
            self.geo.set_facing(model, float(facing))
        new = round(float(self.geo.facing(model)) % 360.0, 6)
        self.emit("turn_on_hit", {"model": model, "from": old, "to": new, "toward": toward,
                                  "auto": auto, "attackers": list(self.act.hit_by.get(model, ())),
                                  "why": "suffered a Hit"})

    def _start_dodge_moves(self) -> None:
        act = self.act
        # models that dodged may move SPD/2 and change Crouched, in this order:
        # the active model first, then the reactions in declaration order (ruling)
        queue = []
        if act.action is not None and act.action.action == "Dodge":
            queue.append(act.model)
        for mid, d in act.reactions.items():
            if d.action == "Dodge":
                queue.append(mid)
        act.dodge_queue = [q for q in queue if not self.models[q].out]
        self._next_dodge_move()

    def _next_dodge_move(self) -> None:
        act = self.act
        while act.dodge_queue:
            mid = act.dodge_queue[0]
            m = self.models[mid]
            if "Immobilized" in m.states and not act.dodge_success.get(mid):
                act.dodge_queue.pop(0)
                self.emit("dodge_move", {"model": mid, "skipped": "Immobilized, Dodge failed"})
                continue
            act.step = "dodge-move"
            self.phase = "dodge-move"
            self.pending = ("dodge-move", mid)
            return
        self._end_sequence()

    def _why_not_dodge_move(self, a: DodgeMove) -> str | None:
        m = self.models[a.model]
        if a.crouch is not None:
            r = self._why_not_crouch(a.model, a.crouch, m.states)
            if r:
                return r
            # after a failed Dodge only with crouch_change_after_failed_dodge (docs/rulings.md)
            ok = bool(self.act is not None and self.act.dodge_success.get(a.model))
            r = cd.crouch_change_allowed(m.states, "after_dodge", dodge_success=ok,
                                         voluntary=a.crouch,
                                         settings=self.settings.get("table_settings"))
            if r:
                return r
        if not a.path:
            return None
        mv = self._dodge_move_check(a)
        if not mv.legal:
            return f"illegal Dodge move: {mv.reason}"
        if self.panic_dodge_edges(a.model):
            return self._why_not_toward_edge(a.model, a.path)
        return None

    def _dodge_move_check(self, a: DodgeMove):
        """The table's answer for the move after a Dodge along ``a.path`` (a walk of up
        to SPD / 2, the SPD without Crouched when the move cancels it), asked before the
        move changes anything: where it ends (``end``: at once on Base Contact with an
        enemy, ``stopped_by``) and the Dangerous areas it touches."""
        m = self.models[a.model]
        states = set(m.states)
        if a.crouch is False:
            states.discard("Crouched")
        allowance = float(cb.halve(self._speed_with(a.model, states)))
        enemies = self.enemy_reaches(a.model)
        if "Engaged" in m.states:
            # Disengage: the dodge may leave the engagers' reach
            enemies = {k: -1.0 for k in enemies}
        # the move after a Dodge goes "in any direction": not the Engaged model's
        # Walk, which the table keeps "directly toward" an engager
        with self.dodge_move_geometry(a.model):
            return self.geo.check_move(a.model, "walk", list(a.path), allowance, enemies=enemies)

    def dodge_move_geometry(self, model: str):
        """The geometry asked for the move after a Dodge: "up to SPD / 2 in any
        direction", an Engaged model's Disengage included, so without the Engaged
        State that holds a Walk to its engager (eldfall-actions.txt, "Dodge")."""
        states = self.models[model].states
        return self.states_for_geometry(model, states - {"Engaged"} if "Engaged" in states else None)

    def panic_dodge_edges(self, model: str) -> list:
        """The field edges the move after model's Dodge must go toward: for a Panicked
        reactor that failed its M roll (eldfall-states.txt, Panicked: "Reactive Role --
        failed M roll: May only declare Dodge (toward the field edge) or Nothing") the
        nearest ones (ties: any of them), each as (name, axis, direction); else []
        (its Dodge goes in any direction). Asked by the rules and a front end alike."""
        if self.act is None or model not in self.act.panic_failed_reactors:
            return []
        return self._nearest_edges(model)[1]

    def _nearest_edges(self, model: str) -> tuple[float, list]:
        """The distance from the base centre to the nearest field edge, and every edge that
        near (ties: the player's choice), each as (name, axis, direction)."""
        x, y, _ = self.geo.position(model)
        W, D = self.table
        edges = [(x, ("left", 0, -1.0)), (W - x, ("right", 0, 1.0)), (y, ("bottom", 1, -1.0)),
                 (D - y, ("top", 1, 1.0))]
        near = min(d for d, _ in edges)
        return near, [e for d, e in edges if d <= near + EPS]

    def _why_not_toward_edge(self, model: str, path) -> str | None:
        """Panicked, failed M roll as a reactor: its Dodge moves toward the nearest field edge
        (every leg of the path gets no farther from that edge, and the end is nearer)."""
        near, edges = self._nearest_edges(model)
        start = self.geo.position(model)
        pts = [tuple(start)] + [tuple(p) for p in path]
        for _, axis, sign in edges:
            steps = [sign * (b[axis] - a[axis]) for a, b in zip(pts[:-1], pts[1:])]
            if all(v >= -EPS for v in steps) and sum(steps) > EPS:
                return None
        names = " or ".join(n for n, _, _ in edges)
        return (f"{model} is Panicked (failed M roll): its Dodge may only move toward the nearest "
                f"field edge ({names}, {near:.1f}\" from its centre)")

    def _speed_with(self, model: str, states) -> int:
        m = self.models[model]
        saved = m.states, m.dismounted
        m.states = frozenset(states)
        if m.mounted and "Crouched" in m.states:
            m.dismounted = True            # crouching first dismounts it: its SPD changes too
        try:
            return self.speed(model)
        finally:
            m.states, m.dismounted = saved

    def _dodge_move(self, a: DodgeMove) -> None:
        act = self.act
        act.dodge_queue.pop(0)
        # the table's answer for the move, before the Crouched change (as it was judged):
        # it ends where the table ends it ("Movement ends at once on base contact with an
        # enemy", eldfall-facts.md, Movement), on the surface there, not at the declared end
        mv = self._dodge_move_check(a) if a.path else None
        if a.crouch is not None:
            if a.crouch:
                self.add_state(a.model, "Crouched", "after a Dodge")
            else:
                self.remove_state(a.model, "Crouched", "after a Dodge")
        if a.path:
            end = tuple(float(v) for v in mv.end)
            self.geo.place(a.model, end)
            stopped = getattr(mv, "stopped_by", None)
            self.emit("dodge_move", {"model": a.model, "path": [list(p) for p in a.path],
                                     "end": list(end), **({"stopped_by": stopped} if stopped else {})})
            for area in getattr(mv, "dangerous", ()) or ():
                # "1 Wound on touch unless a Dodge roll passes" (eldfall-facts.md,
                # Environments): the move after a Dodge is a movement of the model too
                if self.models[a.model].out:
                    break
                self.dangerous_roll(a.model, area)
            m = self.models[a.model]
            if m.engaged_by:
                left = [e for e in m.engaged_by if not self.geo.in_reach(e, a.model, self.melee_reach(e))]
                if left:
                    self.emit("disengage", {"model": a.model, "from": sorted(left)})
        else:
            self.emit("dodge_move", {"model": a.model, "path": [], "crouch": a.crouch})
        self._next_dodge_move()

    def _end_sequence(self) -> None:
        act = self.act
        for m in self.models.values():
            for st, exp in list(m.expiry.items()):
                if "sequence" in expiry_marks(exp):   # a Sorcery's or Healing's State (Spell Types table)
                    self._source_ends(m, st, "sequence", "the end of the Activation Sequence")
            if m.on_table and m.hp == 0 and not (m.states & {"Incapacitated", "Dead"}):
                self._incapacitate(m.id, "0 HP at the end of the Activation Sequence")
        if self._offer_stand_up(("sequence-end",)):
            return                         # (a Sorcery's Incapacitated ended with the sequence)
        self._close_sequence()

    def _close_sequence(self) -> None:
        act = self.act
        self.emit("sequence_end", {"model": act.model})
        self.act = None
        self._update_engagement()
        self._update_morale()
        self._check_duel()
        if self.is_over:
            return
        self.phase = "tactical"
        self.pending = ("tactical", self.active_side)
        self._after_sequence_checks()

    def _after_sequence_checks(self) -> None:
        if self.is_over:
            return
        if not self._activatable(self.active_side):
            self._end_phase(self.active_side)

    # ------------------------------------------------------------------
    # what is legal now (for the lazy view and the bots)
    def generate_actions(self) -> Iterator[Action]:
        from rules.eldfall import legal
        return legal.generate(self)

    def summary(self) -> str:
        """One line per model: side, HP, AP, states, position."""
        # before any side is active (the turn order's choice): no "- active"
        lines = [f"round {self.round}, " + (f"{self.active_side} active, " if self.active_side else "")
                 + f"phase {self.phase}, "
                 f"VP " + ", ".join(f"{s} {v}" for s, v in self.vp.items())]
        models = [m for m in self.models.values() if not m.reserve]
        rows = [(m.side, m.id) for m in models] + [(t.side, t.id) for t in self.tokens.values()]
        sw = max([6] + [len(str(sd)) for sd, _ in rows])        # the columns line up for long ids
        iw = max([12] + [len(str(i)) for _, i in rows])

        def at(p) -> str:       # 2 decimals, as `eldfall los` gives heights: a floor at 2.75 is not "2.8"
            return "(" + ", ".join(f"{(0.0 if abs(v) < 0.005 else float(v)):.2f}" for v in p) + ")"
        for m in models:
            where = "off the table" if not m.on_table else at(self.geo.position(m.id))
            lines.append(f"  {m.side:>{sw}} {m.id:<{iw}} HP {m.hp}/{m.unit.stat('HP', 1)} AP {m.ap} "
                         f"{','.join(sorted(m.states)) or '-'} {where}")
        for t in self.tokens.values():
            state = ("taken by " + str(t.by)) if t.removed else ("hidden" if t.hidden else "revealed")
            lines.append(f"  {t.side:>{sw}} {t.id:<{iw}} {t.kind} token, {state} {at(t.at)}")
        return "\n".join(lines)
