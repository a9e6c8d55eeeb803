"""Review 11: Eldfall rules invariants over whole bot games.

Seeded random and greedy bot games on the scenes' rosters (the flat table for
speed, a few on the 3D table), checked after every applied action against
what the seed pages imply (seeds/eldfall-states.txt, eldfall-actions.txt,
eldfall-reactions.txt, rules/eldfall-facts.md): AP and HP bounds, the out of
play never act, the State Priorities, one Activation at a time, legality,
one Reaction per model per Activation Sequence, replay and undo/redo give the
same state, the game ends, VP and Broken Morale, engagement pairs.
"""
from __future__ import annotations

import functools
import random
from pathlib import Path

import pytest

from rules.core.game import Termination
from rules.eldfall import BOTS, game_from_log, new_game
from rules.eldfall import conditions as cd
from rules.eldfall.actions import Activate, Declare, Move

ROOT = Path(__file__).resolve().parents[1]
SCENES = ("open", "skirmish", "warbands", "ritual", "arena")


# ----------------------------------------------------------------------
# the tables
@functools.lru_cache(maxsize=None)
def _scene(name):
    from engine.scene import load_scene
    return load_scene(str(ROOT / "scenes" / f"{name}.yaml"))


def flat_game(name, seed, settings=None):
    """The scene's roster, tokens and Stratagems on the flat table (no terrain)."""
    from rules.core.flat import FlatGeometry
    from tools.gameplay import scene_info
    from tools.roster import units_from_scene
    scene = _scene(name)
    units = units_from_scene(scene)
    geo = FlatGeometry(tuple(scene.table))
    for u in units:
        if not u.extra.get("reserve"):
            geo.add_model(u, u.at, u.facing)
    return new_game(units, geo, seed=seed, settings=settings, scene_info=scene_info(scene))


def flat_geometry_for(header):
    from rules.core.flat import FlatGeometry
    from rules.core.units import Unit
    geo = FlatGeometry(tuple(header["scene"]["table"]))
    for d in header["units"]:
        u = Unit.from_dict(d)
        if not u.extra.get("reserve"):
            geo.add_model(u, u.at, u.facing)
    return geo


# ----------------------------------------------------------------------
# the invariants
# the decisions whose legal actions are listed in full (movements are sampled)
LISTED = ("order", "tactical", "crouch", "reaction", "reaction-change", "reaction-late",
          "action", "turn-on-hit", "duel-answer", "stratagem")


class Checker:
    """Checks one game after every applied action; raises AssertionError."""

    def __init__(self, g):
        self.g = g
        self.seq_reactors: dict[str, int] = {}
        self.active = None                 # the model of the Activation in progress
        self.crouch_changed = set()
        self.movement = None
        self.states_before = {}
        self.shrouded_declares = []
        self.ap_boost: dict[str, int] = {}
        self.upkeep_boost: dict[str, int] = {}
        self.hp_max = {mid: m.unit.stat("HP", 1) for mid, m in g.models.items()}

    # before the action
    def before(self, a):
        g = self.g
        assert not g.is_over
        why = g.why_illegal(a)
        assert why is None, f"the bot chose an illegal action {a}: {why}"
        kind = g.pending[0]
        if kind in LISTED:
            listed = g.legal_actions().list()
            assert listed, f"nothing legal in {g.pending}"
            for x in listed:
                assert g.why_illegal(x) is None, f"listed {x} is illegal: {g.why_illegal(x)}"
        else:                  # sampled movements: at least one (the viewer's menu)
            assert g.legal_actions(), f"nothing legal in {g.pending}"
        if isinstance(a, Activate):
            assert g.act is None, f"{a} while {g.act.model} is activated"
            assert not g.models[a.model].out
        if isinstance(a, Declare) and kind in ("reaction", "reaction-late"):
            m = g.models[a.model]
            assert not m.out, f"out-of-play {a.model} reacts: {a}"
        self.ap_before = {mid: m.ap for mid, m in g.models.items()}
        self.states_before = {mid: m.states for mid, m in g.models.items()}
        self.kind = kind
        if isinstance(a, Move):
            self._movement(a)
        self.shrouded_declares = []

    # after the action
    def after(self, a, start):
        g = self.g
        evs = g.events[start:]
        self._events(evs)
        for mid in self.shrouded_declares:
            assert "Shrouded" not in g.models[mid].states, f"{mid} acted and stays Shrouded"
        for mid, m in g.models.items():
            assert 0 <= m.hp <= self.hp_max[mid], f"{mid} HP {m.hp}"
            assert m.ap >= 0, f"{mid} AP {m.ap}"
            self._states(m)
        if g.act is None:
            self.active = None
        if g.act is None and not g.is_over:
            self._between_sequences()
        if g.is_over:
            self._end()

    def _events(self, evs):
        g = self.g
        for ev in evs:
            d = ev.data
            if ev.kind == "activate":
                assert self.active is None, f"{d['model']} activates during {self.active}'s Activation"
                self.active = d["model"]
                self.seq_reactors = {}
                self.crouch_changed = set()
                self.movement = None
            elif ev.kind == "movement":
                self.movement = d["movement"]
            elif ev.kind == "declare" and d.get("role") == "reactive":
                mid = d["model"]
                self.seq_reactors[mid] = self.seq_reactors.get(mid, 0) + 1
                assert self.seq_reactors[mid] == 1, f"{mid} reacted twice in one sequence"
                self._declaration(type(g).parse_action(d["action"]), "reactive", d["against"])
            elif ev.kind == "declare" and d.get("role") == "active":
                self._declaration(type(g).parse_action(d["action"]), "active", None)
            elif ev.kind == "phase" and d["phase"] == "upkeep":
                self.upkeep_boost, self.ap_boost = self.ap_boost, {}
            elif ev.kind == "stratagem" and d["effect"].get("ap"):
                for t in d["targets"]:       # +AP at the next Upkeep
                    self.ap_boost[t] = self.ap_boost.get(t, 0) + int(d["effect"]["ap"])
            elif ev.kind == "crouch_reaction":
                for mid in d["changes"]:
                    assert mid not in self.crouch_changed, f"{mid} changed Crouched twice"
                    self.crouch_changed.add(mid)
                    assert not (self.states_before[mid] & {"Dead", "Incapacitated"})
            elif ev.kind == "ap":
                why = d["why"]
                up = self.ap_before.get(d["model"], 0)
                if d["ap"] > up:
                    assert why.startswith(("Upkeep", "Duel accepted", "summoned")), \
                        f"{d['model']} gained AP ({up} -> {d['ap']}): {why}"
                if why in ("Activation", "Reaction", "Reaction (Foresight)"):
                    assert d["ap"] == up - 1, f"{d['model']} {why}: {up} -> {d['ap']} AP"
                if why.startswith("Upkeep"):
                    m = g.models[d["model"]]
                    assert not (m.states & {"Fatigued", "Dead", "Incapacitated"}) or d["ap"] == 0, \
                        f"{m.id} {sorted(m.states)} gets {d['ap']} AP in the Upkeep"
                    assert d["ap"] == self._upkeep_ap(m), f"{m.id} gets {d['ap']} AP in the Upkeep"
                self.ap_before[d["model"]] = d["ap"]

    def _upkeep_ap(self, m):
        """Upkeep: "give each model AP equal to its STA" (modified: Enchantments,
        Stratagems, a dismount; Weakened -1), none when Fatigued, Incapacitated,
        Dead; Watchful doubles it in the Reactive Role; a Stratagem's +AP on top."""
        g = self.g
        if m.states & {"Fatigued", "Incapacitated", "Dead", "Petrified"} or not m.on_table:
            return 0
        sta = m.unit.stat("STA") + sum(int(e[2].get("STA", 0)) for e in m.enchantments) + \
            sum(int(b[2].get("STA", 0)) for b in m.boosts) + m.dismount_mod("STA")
        sta = max(0, sta - (1 if "Weakened" in m.states else 0))
        if m.side != g.active_side and any(t.split(" ")[0].lower() == "watchful"
                                           for t in m.unit.traits):
            sta *= 2
        bonus = self.upkeep_boost.get(m.id, 0)
        return sta + bonus if sta > 0 else 0

    def _movement(self, a):
        st = self.states_before[a.model]
        name = a.mode.capitalize()
        if a.crouch_start is None and "Crouched" in st:
            assert name in ("Walk", "Idle"), f"Crouched {a.model} declares {name}"
        if "Engaged" in st:
            assert name in ("Walk", "Idle"), f"Engaged {a.model} declares {name}"
        if "Immobilized" in st:
            assert name == "Idle", f"Immobilized {a.model} declares {name}"

    def _declaration(self, d, role, against):
        st = self.states_before[d.model]
        act = d.action
        targets = [t for t, _ in d.targets]
        assert not (st & {"Dead", "Incapacitated", "Petrified"}), f"{d.model} {sorted(st)}: {d}"
        if role == "reactive":
            assert act not in ("Death Blow", "Issue a Duel", "Ritual", "Uncover"), str(d)
            assert all(n == 1 for _, n in d.targets) and len(d.targets) <= 1, f"reactive STK: {d}"
            if act in ("Melee Attack", "Ranged Attack", "Spell Attack", "Perceive"):
                assert targets == [against], f"a Reaction targets {targets}, not {against}"
        else:
            if self.movement in ("Run", "Climb", "Jump"):
                assert act == "Nothing", f"{d} after {self.movement}"
            if act in ("Issue a Duel", "Ritual", "Uncover"):
                assert self.movement == "Idle", f"{d} after {self.movement}"
        if act == "Nothing":
            return
        if "Shrouded" in st and act != "Dodge":
            self.shrouded_declares.append(d.model)
        if "Engaged" in st:
            assert act in ("Melee Attack", "Spell Attack", "Assist", "Dodge"), f"Engaged: {d}"
            if act == "Assist":
                assert targets in ([], [d.model]), f"Engaged Assist: {d}"
        if "Blinded" in st:
            assert act in ("Assist", "Dodge"), f"Blinded: {d}"
        if "Immobilized" in st:
            assert act == "Dodge", f"Immobilized: {d}"
        if "Crouched" in st or ("Flying" in st and act == "Melee Attack"):
            assert sum(n for _, n in d.targets) <= 1 or act in ("Assist",), f"STK 1: {d}"

    def _states(self, m):
        st = m.states
        assert not ({"Flying", "Crouched"} <= st), f"{m.id} Flying and Crouched"
        for s in ("Incapacitated", "Dead", "Immobilized", "Petrified"):
            assert not ({"Flying", s} <= st), f"{m.id} Flying and {s}"
        if "Incapacitated" in st and "Dead" not in st:
            assert "Crouched" in st, f"{m.id} Incapacitated but not Crouched"
        if m.mounted:
            assert "Crouched" not in st, f"{m.id} rides while Crouched"
        if "Flying" in st:
            assert "Engaged" not in st and not m.engaged_by
        assert ("Engaged" in st) == bool(m.engaged_by) or not m.on_table, \
            f"{m.id} Engaged {'Engaged' in st} by {sorted(m.engaged_by)}"
        if "Dead" in st:
            assert m.hp == 0

    def _between_sequences(self):
        g = self.g
        for m in g.models.values():
            if m.on_table and m.hp == 0:
                assert m.states & {"Incapacitated", "Dead"}, f"{m.id} at 0 HP stands"
        self._engagement()
        self._morale()

    def _engagement(self):
        g = self.g
        for m in g.models.values():
            if not m.on_table:
                assert not m.engaged_by
                continue
            for e in m.engaged_by:
                o = g.models[e]
                assert o.side != m.side and o.on_table, f"{e} engages {m.id}"
                assert cd.causes_engagement(o.states), f"{e} {sorted(o.states)} engages {m.id}"
                assert g.geo.in_reach(e, m.id, g.melee_reach(e)), f"{e} engages {m.id} out of reach"
                with g.own_sight(e):
                    assert g.geo.sight(e, m.id).los, f"{e} engages {m.id} without its own LoS"
            if not cd.can_be_engaged(m.states):
                continue
            for o in g.enemies(m.id):
                if o.id in m.engaged_by or not g.can_engage(o.id):
                    continue
                if not g.geo.in_reach(o.id, m.id, g.melee_reach(o.id)):
                    continue
                with g.own_sight(o.id):
                    seen = g.geo.sight(o.id, m.id).los
                assert not seen, f"{o.id} has {m.id} in reach and LoS but does not engage it"

    def _morale(self):
        g = self.g
        for s in g.sides:
            alive = sum(1 for m in g.models.values() if m.side == s and not m.summoned_by
                        and not m.reserve and not m.removed
                        and not (m.states & {"Dead", "Incapacitated"}))
            broken = alive * 2 < g.original[s]
            assert (s in g.broken) == broken, f"{s}: {alive} of {g.original[s]}, broken {g.broken}"
            if broken:
                for m in g.side_models(s):
                    if "Dead" not in m.states and not m.rallied:
                        assert "Panicked" in m.states, f"{m.id} of broken {s} not Panicked"

    def _end(self):
        g = self.g
        o = g.outcome
        assert o.termination != Termination.STALEMATE, f"stalemate after {g.decisions} decisions"
        if o.termination == Termination.DUEL:
            return
        cap = int(g.settings["vp_cap"])
        per = int(g.settings["vp_per_casualty"])
        for s in g.sides:
            foe = g.other(s)
            down = sum(1 for m in g.models.values() if m.side == foe and not m.summoned_by
                       and not m.reserve and (m.removed or m.states & {"Dead", "Incapacitated"}))
            assert g.vp[s] <= cap
            # VP come from casualties and objectives only: at least the casualties' worth
            assert g.vp[s] >= min(cap, per * down), f"{s} VP {g.vp[s]}, {down} casualties"
        a, b = g.sides
        want = None if g.vp[a] == g.vp[b] else (a if g.vp[a] > g.vp[b] else b)
        assert o.winner == want


INTERESTING = {"removed", "dismount", "duel", "ritual", "trade", "objective", "item", "heal", "enchantment", "friendly_fire", "knockback_blocked", "vp", "perceive_nothing", "stratagem", "summon", "token", "land",
               "fall", "disengage", "turn_on_hit", "reaction_changed", "enchantment_ends", "morale"}


def undo_redo(g, a, regeo):
    """Undo the last action as the viewer does (replay the log without it, on the
    same geometry) and redo it: the same state. Returns the new game."""
    hash_after = g.state_hash()
    evs = g.events
    idx = [i for i, e in enumerate(evs) if e.kind == "action"]
    k = idx[-1]
    header = g.header()
    back = game_from_log(header, [e.to_dict() for e in evs[:k]], regeo(g, header))
    assert len(back.events) == k, f"undo gives {len(back.events)} events, not {k}"
    back.apply(type(g).parse_action(evs[k].data["action"]))
    assert back.state_hash() == hash_after, f"undo + redo of {a} differs"
    return back


def same_geometry(g, header):
    return g.geo


def play_checked(g, kinds, seed, undo_points=6, regeo=same_geometry, max_decisions=3000,
                 fresh=flat_geometry_for):
    bots = {g.sides[0]: BOTS[kinds[0]](seed), g.sides[1]: BOTS[kinds[1]](seed + 7)}
    chk = Checker(g)
    rng = random.Random(seed)
    n = 0
    while not g.is_over:
        a = bots[g.decider()].choose(g)
        chk.before(a)
        start = len(g.events)
        g.apply(a)
        chk.after(a, start)
        n += 1
        assert n < max_decisions, "the game does not end"
        kinds_now = {e.kind for e in g.events[start:]}
        if undo_points and (kinds_now & INTERESTING or rng.random() < 0.01):
            undo_points -= 1
            g = chk.g = undo_redo(g, a, regeo)
    header = g.header()
    again = game_from_log(header, [e.to_dict() for e in g.events], fresh(header))
    assert again.state_hash() == g.state_hash(), "replaying the log gives another state"
    return g



# ----------------------------------------------------------------------
# the property tests: whole games
SETTINGS = {
    "default": None,
    "ties-keep": {"confrontation_ties": "keep", "crouch_reaction_ap": 1, "duel_interference": "lose",
                  "measuring": "realism"},
    "rulings-b": {"measuring": "standard", "spell_mana": "conjuration", "vp_cap": 3,
                  "table_settings": {"shrouded_actions": "any", "shrouded_reactions": "dodge",
                                     "reaction_qualification": "all", "turn_on_hit": "always",
                                     "awareness_ag": "modified", "multiple_halving": "once",
                                     "panicked_engaged_needs_failed_roll": False,
                                     "crouch_change_after_failed_dodge": False}},
}


@pytest.mark.parametrize("scene,seed,kinds,settings", [
    ("open", 1, ("random", "random"), "default"),
    ("open", 5, ("greedy", "random"), "rulings-b"),
    ("skirmish", 3, ("random", "greedy"), "default"),
    ("warbands", 5, ("random", "random"), "ties-keep"),
    ("warbands", 4, ("greedy", "random"), "default"),
    ("ritual", 0, ("random", "random"), "default"),
    ("ritual", 5, ("greedy", "random"), "rulings-b"),
    ("arena", 0, ("random", "random"), "ties-keep"),
    ("arena", 1, ("greedy", "random"), "default"),
])
def test_flat_table_bot_games_keep_the_invariants(scene, seed, kinds, settings):
    st = dict(SETTINGS[settings] or {})
    if scene == "skirmish":
        st["rounds"] = 2                  # 45 models: two rounds keep it quick
    g = play_checked(flat_game(scene, seed, st or None), kinds, seed)
    assert g.is_over


def test_a_3d_table_bot_game_keeps_the_invariants_and_its_viewer_undo():
    """On the scene's real World (terrain, LoS, cover), undo as the viewer does it
    (replay on the same World) then redo; the log replays on a fresh World."""
    from tools import gameplay
    path = str(ROOT / "scenes" / "open.yaml")
    _, g = gameplay.new_game(path, "eldfall", 1)
    g = play_checked(g, ("greedy", "random"), 1, fresh=lambda header: gameplay.load_table(path)[2])
    assert g.is_over


# ----------------------------------------------------------------------
# focused tests for the defects the invariants found
def _fled_summoner_game():
    from tests.eldfall_scenario import BOW, SWORD, setup, unit
    # r0 (Panicked, at the edge) summoned rs; rs and b0 engage each other
    us = [unit("r0", "red", 2, 4, leader=True, states=["Panicked"]),
          unit("rs", "red", 20, 6, facing=90, extra={"summoned_by": "r0"}),
          unit("r1", "red", 30, 4),
          unit("b0", "blue", 20, 7.4, facing=270, leader=True, weapons=[SWORD, BOW]),
          unit("b1", "blue", 30, 32)]
    g = setup(us, rolls=[20] * 40)         # r0 fails its M roll: a forced Run off the table
    assert g.models["b0"].engaged_by == {"rs"} and g.models["rs"].engaged_by == {"b0"}
    g.apply(Activate("r0"))
    assert g.models["r0"].removed and g.models["rs"].removed
    return g


def test_a_summon_that_leaves_the_table_engages_no_one_for_the_rest_of_the_turn():
    """Its summoner ran off the table (Panicked): the summon goes too, and the model it
    engaged is no longer Engaged, so it may shoot at the next activated model."""
    g = _fled_summoner_game()
    assert g.pending == ("tactical", "red")
    g.apply(Activate("r1"))
    g.apply(Move("r1", "walk", path=((26.0, 5.0, 0.0),)))
    assert g.pending == ("reaction", "blue")
    b0 = sorted({a.action for a in g.legal_actions().list()
                 if isinstance(a, Declare) and a.model == "b0"})
    # was ['Dodge', 'Nothing']: still Engaged by the wolf that had left the table
    assert b0 == ["Dodge", "Nothing", "Ranged Attack"]
    for mid in ("b0", "rs"):
        assert "Engaged" not in g.models[mid].states and not g.models[mid].engaged_by


def test_a_summon_removed_when_its_caster_falls_frees_the_model_it_engaged():
    from tests.eldfall_scenario import setup, unit
    us = [unit("r0", "red", 5, 4, stats={"HP": 1}, leader=True),
          unit("rs", "red", 20, 6, facing=90, extra={"summoned_by": "r0"}),
          unit("b0", "blue", 20, 7.4, facing=270, leader=True), unit("b1", "blue", 30, 32)]
    g = setup(us, rolls=[20] * 10)
    g.wound("r0", 1, "test")              # outside a sequence: Incapacitated at once
    assert g.models["rs"].removed
    assert not g.models["b0"].engaged_by and "Engaged" not in g.models["b0"].states
    assert not g.models["rs"].engaged_by and "Engaged" not in g.models["rs"].states
