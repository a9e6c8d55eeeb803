"""Norova bots: ``choose(game) -> action`` for the active character.

* :class:`RandomBot` picks uniformly among the legal actions (ending the turn
  is one of them), from its own seeded generator.
* :class:`GreedyBot` drinks a potion when badly hurt, casts its best damage
  spell, attacks the target it hurts most (with its best hand and skill),
  otherwise walks (or sprints) to the nearest enemy, turning to face it.
"""
from __future__ import annotations

import math
import random

from rules.norova.actions import (Attack, Cast, EndTurn, Focus, Move, Reload, Stand, Turn, UsePotion,
                                  UseSkill, Wait)


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0, side: str | None = None):
        self.rng = random.Random(seed)
        self.side = side

    def choose(self, game):
        actions = list(game.legal_actions())
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


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0, side: str | None = None):
        self.rng = random.Random(seed)
        self.side = side

    def choose(self, game):
        mid = game.active_model
        f = game.f(mid)
        legal = list(game.legal_actions())
        by_type: dict[type, list] = {}
        for a in legal:
            by_type.setdefault(type(a), []).append(a)
        # 1. badly hurt: a potion
        if f.vitality * 3 <= f.sheet.vitality:
            for a in by_type.get(UsePotion, []):
                if a.target == mid and game.data.items[a.item]["restores"] == "vitality":
                    return a
        # 2. a dying ally within reach: a potion or a healing spell
        for a in by_type.get(UsePotion, []) + by_type.get(Cast, []):
            t = getattr(a, "target", None)
            if t and t != mid and game.f(t).status in ("dying",) and t in game.fighters and (
                    isinstance(a, UsePotion) or game.data.spells[a.spell]["type"] == "healing"):
                return a
        # 3. the best damage spell (single target, then areas that hit no friend)
        spells = []
        for a in by_type.get(Cast, []):
            sp = game.data.spells[a.spell]
            if sp["type"] != "damage":
                continue
            if sp.get("area"):
                r = game.data.area_radius(sp["area"])
                hit = [o for o in game.fighters.values() if o.id != mid and o.status == "active"
                       and game.geometry.distance(mid, o.id) <= r]
                if not hit or any(o.side == f.side for o in hit):
                    continue
                score = sp["value"] * len(hit)
            else:
                score = sp["value"] + 2 * len(a.aid)
            spells.append((score, str(a), a))
        if spells:
            return max(spells)[2]
        # 4. the best attack
        attacks = []
        for a in by_type.get(Attack, []):
            t = game.f(a.target)
            dmg = _expected_part(game, mid, a.hand, a.skill)
            dmg += sum(_expected_part(game, al.ally, al.hand, al.skill) for al in a.aid)
            kill = 5.0 if dmg >= t.vitality else 0.0
            attacks.append((dmg + kill - 0.1 * t.vitality, str(a), a))
        if attacks:
            return max(attacks)[2]
        # 5. a ranged weapon that needs reloading
        if by_type.get(Reload):
            return by_type[Reload][0]
        if f.prone and by_type.get(Stand) and not f.slots["attack"]:
            return by_type[Stand][0]
        # 6. close in on the nearest enemy (walk if it reaches, else sprint)
        if not f.slots["move"] and not f.slots["attack"]:
            enemies = game.enemies(mid)
            if enemies:
                near = min(enemies, key=lambda e: game.geometry.distance(mid, e))
                moves = [a for a in by_type.get(Move, []) if a.mode in ("walk", "sprint", "crawl", "fly")]
                if moves:
                    def score(a):
                        end = a.route[-1]
                        ep = game.pos(near)
                        d = math.dist(end[:2], ep[:2])
                        cost = {"walk": 0.0, "fly": 0.0, "crawl": 0.3, "sprint": 0.6}[a.mode]
                        return (d + cost, str(a))
                    best = min(moves, key=score)
                    if score(best)[0] + 1e-6 < math.dist(game.pos(mid)[:2], game.pos(near)[:2]):
                        return best
                turns = [a for a in by_type.get(Turn, [])]
                if turns:
                    return turns[0]
        # 7. a Focus on the nearest enemy in sight, a support skill, or done
        if not f.slots["attack"] and by_type.get(Focus):
            return by_type[Focus][0]
        for a in by_type.get(UseSkill, []):
            if game.data.skills[a.skill].get("effect") == "restore" and f.power < f.sheet.power // 2:
                return a
        return EndTurn(mid)
