"""Norova bots: ``choose(game) -> action`` for the active character.

* :class:`RandomBot` picks uniformly among the legal actions (ending the turn
  is one of them), from its own seeded generator.
* :class:`GreedyBot` strikes the blow of an Attack of Opportunity that hit with the
  best expected outcome (plain, or a skill it can pay for without a save: its damage
  times the chance its success roll lets it strike, a kill counting extra), drinks a
  potion when badly hurt, tries to spot a hidden
  enemy in sight (Perceive), casts its best damage
  spell, attacks the target it hurts most (with its best hand and skill, and
  the allies' aids that add to it: none past what kills),
  otherwise walks (or sprints) to the nearest enemy, turning to face it; when
  no straight move gets nearer (a wall or a pillar between), it walks round
  the scenery along a route of ``rules.norova.planner``, or climbs where no
  walk goes (scenery higher than the Norova step height, ``move.step_height``).
"""
from __future__ import annotations

import heapq
import math
import random
import weakref

from rules.norova.mechanics import facing_towards as mx_facing
from rules.norova.planner import WalkMap, Plan, cell_centre as _cell_centre

from rules.norova.actions import (Attack, Cast, EndTurn, Equip, Move, Perceive, Reload, Stand, Turn,
                                  UsePotion, UseSkill, Wait)


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0, side: str | None = None):
        self.rng = random.Random(seed)
        self.side = side

    def choose(self, game):
        # the game's list, computed once per state (``list(view)`` would compute it twice:
        # once for the length hint, once for the items)
        actions = game.legal_actions().list()
        # waiting forever is legal but pointless: make it rare
        weights = [0.1 if isinstance(a, Wait) else 1.0 for a in actions]
        return self.rng.choices(actions, weights=weights, k=1)[0]


def _expected_part(game, mid: str, hand: str, skill: str | None) -> float:
    f = game.f(mid)
    names = [f.main, f.off] if hand == "dual" else [f.main if hand == "main" else f.off]
    total = 0.0
    for name, h in zip(names, ["main", "off"] if hand == "dual" else [hand]):
        w = game.weapon(name)
        if w["kind"] == "bow":
            total += w["damage"] + (game.data.ammo[w["ammo"]]["damage"] if w.get("ammo") else 0) + f.sheet.bow_power
        elif w["hands"] == 2:
            total += w["damage"] + 2 * f.sheet.offensive_power
        elif h == "off":
            total += w["damage"] + f.sheet.offensive_power // 2
        else:
            total += w["damage"] + f.sheet.offensive_power
    if skill:
        sk = game.data.skills[skill]
        total = (total + sk.get("damage", 0)) * sk.get("strikes", 1)
    return total


def skill_chance(game, mid: str, skill: str) -> float:
    """The chance that ``mid``'s success roll of ``skill`` lets it strike (seed "Using
    Skills and Spells", "Criticals"): a natural 20, a natural 2-19 that makes the
    difficulty, or a natural 1 whose d6 says it works anyway."""
    sk = game.data.skills[skill]
    target = game.data.difficulty(sk["difficulty"])
    bonus = game.f(mid).sheet.trait(sk["trait"])
    made = sum(1 for nat in range(2, 20) if nat + bonus >= target) + 1
    fumble = game.data.criticals["skill_fumble_d6"]
    anyway = sum(1 for d6 in range(1, 7) if fumble.get(d6) == "works_anyway") / 6.0
    return (made + anyway) / 20.0


def aoo_blow(game):
    """The greedy choice of the waiting Attack of Opportunity's blow (``game.aoo_options``):
    the best expected outcome against the mover, each option's damage (``_expected_part``)
    times the chance it lands (a skill's success roll), up to the mover's Vitality, and a
    kill worth 5 more (as for an attack); a skill whose cost needs a save is no option
    (no gamble), and of two alike the plain one (no Power spent)."""
    options = game.aoo_options()
    p = game.aoo_pending
    left = max(1, game.f(p["mover"]).vitality)
    best = None
    for a in options:
        if a.skill is not None:
            cost = game.data.skills[a.skill].get("cost", {})
            if not all(getattr(game.f(a.actor), pool) >= n for pool, n in cost.items()):
                continue
            chance = skill_chance(game, a.actor, a.skill)
        else:
            chance = 1.0
        dmg = _expected_part(game, a.actor, a.hand, a.skill)
        value = chance * (min(dmg, left) + (5.0 if dmg >= left else 0.0))
        spent = 0.01 * sum((game.data.skills[a.skill].get("cost") or {}).values()) if a.skill else 0.0
        key = (value - spent, a.skill is None)
        if best is None or key > best[0]:
            best = (key, a)
    return best[1]


_WALK_MAPS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def walk_map(game) -> WalkMap | None:
    """The table's walking map (one per geometry, shared by the bots of a game);
    None when the table's size is unknown."""
    geo = game.geometry
    try:
        wm = _WALK_MAPS.get(geo)
    except TypeError:            # a geometry that takes no weak reference: no cache
        wm = None
    if wm is None:
        table = game.scene_info.get("table") or getattr(geo, "table", None)
        if not table or len(table) != 2:
            return None
        wm = WalkMap(geo, (float(table[0]), float(table[1])))
        try:
            _WALK_MAPS[geo] = wm
        except TypeError:
            pass
    return wm


def walk_map_for(game, wm: WalkMap | None) -> WalkMap | None:
    """The walking map ``wm`` (of an earlier game on the same terrain: its ground
    samples are of the static scenery only) serving ``game``'s geometry too, when its
    table is the same size; else the game's own. Returns the map its bots will use."""
    geo = game.geometry
    table = game.scene_info.get("table") or getattr(geo, "table", None)
    if wm is None or not table or len(table) != 2 or (wm.W, wm.D) != (float(table[0]), float(table[1])):
        return walk_map(game)
    wm.geo = geo
    try:
        _WALK_MAPS[geo] = wm
    except TypeError:
        return None
    return wm


def best_approach(game, mid: str, score):
    """``min(game.candidate_moves(mid, spread=False), key=score)`` (None when it yields
    none), asking the route check (the costly question) only of the moves that could
    still beat the best so far: each of its sequences yields its first legal move, and
    none after a move scoring no better than the best can. The sequences are asked best
    first (the one whose moves left could score least, one move at a time), so that a good
    move found early spares the checks of the others."""
    best = best_score = None
    seqs = game.approach_sequences(mid)
    scores = [[score(a) for a in seq] for seq in seqs]
    # (the least score left in sequence k from move i, k, i): a sequence's moves are asked
    # in its order, its first legal one ends it
    heap = [(min(sc), k, 0) for k, sc in enumerate(scores) if sc]
    heapq.heapify(heap)
    while heap:
        bound, k, i = heapq.heappop(heap)
        if best is not None and bound >= best_score:
            break                       # no move left in any sequence can beat the best
        if game.why_illegal(seqs[k][i]) is None:
            if best is None or scores[k][i] < best_score:
                best, best_score = seqs[k][i], scores[k][i]
        elif i + 1 < len(seqs[k]):
            heapq.heappush(heap, (min(scores[k][i + 1:]), k, i + 1))
    return best


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0, side: str | None = None):
        self.rng = random.Random(seed)
        self.side = side

    def _detour(self, game, mid: str, enemies: list[str]):
        """A walk (or a sprint) along a route round the scenery towards a place to
        attack one of the three nearest enemies from (``rules.norova.planner``):
        the one with the least walking left after it; None when no route gets
        nearer or the rules refuse every proposal."""
        f = game.f(mid)
        if f.prone or game.swimming(mid):
            return None
        wm = walk_map(game)
        if wm is None:
            return None
        # every enemy base not dead blocks: the table stops a walk at contact with one
        foes = set(game.enemies(mid, able_only=False)) - {o.id for o in game.fighters.values() if o.status == "dead"}
        bases = {o.id: (*game.pos(o.id)[:2], o.radius) for o in game.fighters.values() if o.id != mid}
        plan = Plan(wm, game.pos(mid), f.radius, f.height, [bases[e] for e in foes],
                    [b for o, b in bases.items() if o not in foes], step=game.r["move"]["step_height"])
        if not plan.start:
            return None
        reach = max(0.0, game.weapon_range(mid, "main"))
        reach = max(0.05, min(reach * 0.8, reach - 0.1))
        modes = [("walk", 0.0)]
        cost = game.r["move"]["sprint_cost"]
        if all(getattr(f, pool) >= n for pool, n in cost.items()):     # no gamble on a save
            modes.append(("sprint", 0.6))
        best = None
        for e in sorted(enemies, key=lambda e: (game.geometry.distance(mid, e), e))[:3]:
            target = bases[e]
            allowance = max(game.move_allowance(mid, m) for m, _ in modes)
            field = plan.distance_field(plan.attack_cells(target, reach), extra=allowance + 1.0)
            left = plan.remaining(field)
            if left < 0.25:
                # "there" by the plan, yet no attack was legal (cover the plan missed):
                # somewhere else within reach
                field = plan.distance_field([c for c in plan.attack_cells(target, reach)
                                             if math.dist(_cell_centre(c), plan.here[:2]) > 1.0],
                                            extra=allowance + 1.0)
                left = plan.remaining(field)
            for mode, penalty in modes:
                costs, pred = plan.costs(game.move_allowance(mid, mode) - 0.05)
                ends = sorted((field[c], v, c) for c, v in costs.items() if c in field and plan.endable(c))
                tried = 0
                for d, _, c in ends:
                    if d + 0.25 >= left or tried >= 3:
                        break
                    if best is not None and d + penalty >= best[0]:
                        break
                    tried += 1
                    z = plan.here[2]
                    route = tuple((round(x, 3), round(y, 3), round(z, 3)) for x, y in plan.route(c, pred))
                    ep = game.pos(e)
                    a = Move(mid, mode, route, round(mx_facing(route[-1], ep), 2))
                    if game.why_illegal(a) is None:
                        best = (d + penalty, str(a), a)
                        break
        return None if best is None else best[2]

    def choose(self, game):
        """The first good action, trying the kinds in order of priority; the
        legality of each kind is checked only when it is considered (line of
        sight is the costly question)."""
        if game.aoo_pending is not None:
            return aoo_blow(game)
        mid = game.active_model
        f = game.f(mid)
        cands: dict[type, list] = {}
        for a in game.candidate_actions(mid, moves=False):
            cands.setdefault(type(a), []).append(a)

        def legal(kind, pred=lambda a: True):
            return [a for a in cands.get(kind, []) if pred(a) and game.why_illegal(a) is None]

        def affordable(who, cost):       # no gamble on a save to pay a cost
            return all(getattr(game.f(who), pool) >= n for pool, n in cost.items())

        def cheap_attack(a):
            parts = [(mid, a.skill)] + [(al.ally, al.skill) for al in a.aid]
            return all(sk is None or affordable(who, game.data.skills[sk].get("cost", {})) for who, sk in parts)

        def cheap_cast(a):
            parts = [(mid, a.spell)] + [(al.ally, al.skill) for al in a.aid]
            return all(affordable(who, game.data.spells[sp].get("cost", {})) for who, sp in parts)

        # 1. badly hurt: a potion
        if f.vitality * 3 <= f.sheet.vitality:
            for a in legal(UsePotion, lambda a: a.target == mid and
                           game.data.items[a.item]["restores"] == "vitality"):
                return a
        # 2. a dying ally: a potion or a healing spell; a dead one: a healing spell (only
        # a spell revives the dead)
        dying = {o.id for o in game.fighters.values() if o.side == f.side and o.status == "dying"}
        dead = {o.id for o in game.fighters.values() if o.side == f.side and o.status == "dead"}
        if dying or dead:
            # only Vitality brings a Dying ally back (a Soul draught would be wasted on it)
            for a in legal(UsePotion, lambda a: a.target in dying
                           and game.data.items[a.item]["restores"] == "vitality") + legal(
                    Cast, lambda a: a.target in dying | dead and game.data.spells[a.spell]["type"] == "healing"
                    and cheap_cast(a)):
                return a
            # a Dying ally within reach but not faced: turn to it (a potion is given only to
            # an ally the giver faces), the potion comes next
            here = game.pos(mid)
            faces = {round(mx_facing(here, game.pos(o)), 2): o for o in sorted(dying)}
            if any(n > 0 and game.data.items.get(i, {}).get("restores") == "vitality"
                   for i, n in f.inventory.items()):
                for a in legal(Turn, lambda a: a.facing in faces):
                    return a

        # 2b. a hidden enemy in sight: try to spot it (free, once per enemy and round); a
        # hidden enemy cannot be attacked or targeted until it is spotted
        hidden = sorted((o.id for o in game.fighters.values() if o.side != f.side and o.able and o.hidden),
                        key=lambda e: (game.geometry.distance(mid, e), e))
        for e in hidden:
            for a in legal(Perceive, lambda a: a.target == e):
                return a

        def first_legal(scored):
            """The best-scored candidate that is legal: legality (line of sight and
            cover, the costly questions) is asked best first, only until one passes."""
            for _, _, a in sorted(scored, key=lambda t: (-t[0], t[1])):
                if game.why_illegal(a) is None:
                    return a
            return None

        # 3. the best damage spell (single target, then areas that hit no friend)
        spells = []
        for a in cands.get(Cast, []):
            sp = game.data.spells[a.spell]
            if sp["type"] != "damage" or not cheap_cast(a):
                continue
            if sp.get("area"):
                r = game.data.area_radius(sp["area"])
                inside = [o for o in game.fighters.values() if o.id != mid and o.status != "dead"
                          and game.geometry.distance(mid, o.id) <= r]
                hit = [o for o in inside if o.status == "active"]
                # a friend in the area, even one down (Dying or Stable: any damage kills it)
                if not hit or any(o.side == f.side for o in inside):
                    continue
                score = sp["value"] * len(hit)
            else:
                if game.geometry.distance(mid, a.target) > sp["range"]:
                    continue
                score = sp["value"] + 2 * len(a.aid)
            spells.append((score, str(a), a))
        best = first_legal(spells)
        if best is not None:
            return best
        # 4. the best attack
        attacks = []
        for a in cands.get(Attack, []):
            if not cheap_attack(a) or (a.hand in ("off", "dual") and f.off is None):
                continue
            if game.geometry.distance(mid, a.target) > game.weapon_range(mid, a.hand) + 1e-6:
                continue
            t = game.f(a.target)
            own = _expected_part(game, mid, a.hand, a.skill)
            aid = sum(_expected_part(game, al.ally, al.hand, al.skill) for al in a.aid)
            kill = 5.0 if own + aid >= t.vitality else 0.0
            # an aid spends the ally's attack (and the Power of its skill): what it adds past
            # the kill is worth nothing, and of two attacks that do as well, fewer aiders and
            # fewer of their skills win
            dmg = own + min(aid, max(0.0, t.vitality - own))
            spent = 0.01 * sum(1 + (al.skill is not None) for al in a.aid)
            attacks.append((dmg + kill - 0.1 * t.vitality - spent, str(a), a))
        best = first_legal(attacks)
        if best is not None:
            return best
        # 5. a weapon to reload, a bow without arrows to put away, or getting up
        for a in legal(Reload):
            return a
        main = game.weapon(f.main)
        if main["kind"] == "bow" and main.get("ammo") and f.ammo.get(main["ammo"], 0) <= 0:
            swaps = legal(Equip, lambda a: a.main != f.main and (a.main is None or game.weapon(a.main)["kind"] == "melee"))
            if swaps:
                return max(swaps, key=lambda a: (game.weapon(a.main)["damage"], str(a)))
        if f.prone and not f.slots["attack"]:
            for a in legal(Stand):
                return a
        # 6. close in on the nearest enemy (walk if it reaches, else sprint), or face it
        enemies = game.enemies(mid)
        if not f.slots["move"] and not f.slots["attack"] and enemies:
            near = min(enemies, key=lambda e: (game.geometry.distance(mid, e), e))
            here = game.pos(mid)
            ep = game.pos(near)

            # in plan, but in 3D where the two stand at different heights, or where a flight
            # comes down (a harpy that lands on a pillar over its enemy is no nearer in plan
            # anywhere it could fly: it must come down off it)
            high = abs(here[2] - ep[2]) > 0.5
            wm = walk_map(game)

            def score(a):
                end = a.route[-1]
                dims = 3 if wm is not None and (high or a.mode == "fly") else 2
                if dims == 3:
                    # where it comes to rest, as far as the bot tells before the route check:
                    # on the highest ground under its base (as a flight lands)
                    end = (end[0], end[1], wm.highest_under(end[0], end[1], f.radius))
                cost = {"walk": 0.0, "fly": 0.0, "crawl": 0.3, "climb": 0.3, "sprint": 0.6}[a.mode]
                return (math.dist(end[:dims], ep[:dims]) + cost, str(a))
            best = best_approach(game, mid, score)
            perched = best is not None and best.mode == "fly" and wm is not None and \
                wm.highest_under(best.route[-1][0], best.route[-1][1], f.radius) > ep[2] + 0.5
            if wm is not None and (high or perched):
                # ``best_approach`` takes each sequence's first legal move, and a flight's first
                # may land on scenery high over the enemy: the others of each sequence too
                for a in sorted((a for seq in game.approach_sequences(mid) for a in seq), key=score):
                    if best is not None and score(a) >= score(best):
                        break
                    if game.why_illegal(a) is None:
                        best = a
                        break
            dims = 3 if wm is not None and (high or (best is not None and best.mode == "fly")) else 2
            if best is not None and score(best)[0] + 1e-6 < math.dist(here[:dims], ep[:dims]):
                return best
            # no straight move gets nearer (a wall or a pillar between): walk round it
            detour = self._detour(game, mid, enemies)
            if detour is not None:
                return detour
            # no walk round either (shut in by scenery higher than a step): climb
            d0 = math.dist(here[:2], game.pos(near)[:2])
            for a in game.climb_moves(mid):
                if math.dist(a.route[-1][:2], game.pos(near)[:2]) + 1e-6 < d0:
                    return a
            face = round(mx_facing(here, game.pos(near)), 2)
            for a in legal(Turn, lambda a: a.facing == face):
                return a
        # 7. a support skill, or done (no Focus: one here has no attack to follow this turn,
        # and it lasts only to the turn's end)
        for a in legal(UseSkill, lambda a: game.data.skills[a.skill].get("effect") == "restore"
                       and f.power < f.sheet.power // 2):
            return a
        return EndTurn(mid)
