"""Bots that play whole games headless.

* :class:`RandomBot` picks at random among the legal actions (its own seeded
  generator, so a game with bots is reproducible from the seeds); ending the
  turn early and Issuing a Duel (which stops everyone else) are drawn a tenth as
  often, and a movement is drawn as a random
  mode then a random reachable point (an Idle sometimes changes Crouched, or
  lands a Flying model; the move after a Dodge likewise: stay,
  change Crouched, or a random reachable point), so that not every sampled
  point has to be checked. Turning when Hit is drawn among the listed facings
  from a generator of its own, and so is standing up (or staying Crouched) when
  a model's Incapacitated State ends. An Attack at the ground (a Targetless template aimed
  at a point: under an enemy, or between two) is one more choice per weapon or spell,
  and so are the placements of a Transmutation's token.
* :class:`GreedyBot` prefers the attack with the best expected Wounds (a template's:
  every model under it, enemies less allies), stays where it can attack well, else
  moves to where it can attack best and takes Cover on the way, and closes on the
  enemy when no nearer point beats staying (Cover alone is no reason to wait), Death-Blows what it
  can, reacts with its best attack (or a Dodge when threatened), and turns a
  model hit from outside its Front arc to face its nearest attacker. With a
  Knockback weapon it picks the push direction that throws the target off a
  ledge when a few tried directions find one (else directly away). It keeps a
  Flying model in the air (double SPD, out of reach of grounded melee). A model
  whose Incapacitated State ends stands up, unless crouching hides it from an enemy
  that could shoot it. A Targetless template is also weighed aimed at the ground (under each enemy and
  between two near ones: the enemies under it less the allies), so it is thrown
  there when that catches more, or catches enemies no named target would. A
  Transmutation's token is worth a little (0.04: below any Attack worth making)
  while its caster has none of that spell on the field, nothing after.
"""
from __future__ import annotations

import itertools
import math
import random

from rules.eldfall import combat as cb
from rules.eldfall import legal
from rules.eldfall.actions import (ATTACKS, Activate, ChooseOrder, Declare, DodgeMove, DuelAnswer,
                                   EndTurn, Move, Pass, StandUp, Turn)


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)
        self._seed = seed

    def choose(self, game):
        kind, who = game.pending
        if kind == "movement":
            a = self._movement(game, who)
            if a is not None:
                return a
        if kind == "dodge-move":
            return self._dodge_move(game, who)
        if kind == "turn-on-hit":
            return self._turn(game, who)
        if kind == "stand-up":
            return self._stand_up(game, who)
        options = game.legal_actions().list()
        if not options:
            raise RuntimeError(f"no legal action in {game.pending}")
        # ending the turn while models still have AP, and duels (no one else acts
        # then), are legal but make short, empty games: drawn a tenth as often
        weights = [0.1 if (isinstance(a, EndTurn) or (isinstance(a, Declare) and a.action ==
                                                     "Issue a Duel")) and len(options) > 1 else 1.0
                   for a in options]
        if kind == "action":
            # an Attack at the ground (Targetless template): its legal points of one weapon
            # or spell drawn together as often as one other choice
            ground = ground_options(game, who)
            per = {}
            for d in ground:
                per[(d.action, d.weapon, d.spell)] = per.get((d.action, d.weapon, d.spell), 0) + 1
            options = options + ground
            weights += [1.0 / per[(d.action, d.weapon, d.spell)] for d in ground]
            # a Transmutation's placements (spells.placements): drawn together as often
            # as one other choice, as the points of an Attack at the ground
            spots = {}
            for d in options:
                if isinstance(d, Declare) and d.action == "Assist" and d.place is not None:
                    spots[d.spell] = spots.get(d.spell, 0) + 1
            weights = [w / spots[d.spell] if isinstance(d, Declare) and d.action == "Assist"
                       and d.place is not None else w for w, d in zip(weights, options)]
        return self.rng.choices(options, weights=weights, k=1)[0]

    def _turn(self, game, model):
        """Turning when Hit: drawn among the listed choices (keep, face each attacker
        that hit it, the eight compass facings) from a generator of its own, so that
        the bot's other draws do not depend on how many Hits it suffered."""
        if not hasattr(self, "turn_rng"):
            self.turn_rng = random.Random(getattr(self, "_seed", 0) * 7919 + 17)
        options = [a for a in game.legal_actions().list() if isinstance(a, Turn)]
        return options[self.turn_rng.randrange(len(options))]

    def _stand_up(self, game, model):
        """Incapacitated has ended: stand up or stay Crouched, an even draw from a
        generator of its own (the bot's other draws do not depend on how many of its
        models recovered)."""
        if not hasattr(self, "stand_rng"):
            self.stand_rng = random.Random(getattr(self, "_seed", 0) * 6007 + 29)
        options = [a for a in game.legal_actions().list() if isinstance(a, StandUp)]
        return options[self.stand_rng.randrange(len(options))]

    def _movement(self, game, model):
        """A random movement without listing every sampled end point: a random
        allowed mode, then random candidate points until one is legal."""
        from rules.eldfall import availability as av
        m = game.models[model]
        allowed = av.allowed_movements(m.states, panic_failed=game.act.panic_failed,
                                       environment=game.geo.environments(model),
                                       settings=game.settings.get("table_settings"))
        modes = sorted(x.lower() for x in allowed if x in ("Idle", "Walk", "Run"))
        if not modes:
            return None
        mode = modes[self.rng.randrange(len(modes))]
        if mode == "idle":
            change = self.rng.random() < 0.15
            if change and "Flying" in m.states:
                a = Move(model, "idle", land="start")     # Flying may not Crouch: it lands
            else:
                a = Move(model, "idle", crouch_end=(not ("Crouched" in m.states)) if change else None)
            return a if game.why_illegal(a) is None else Move(model, "idle")
        try:
            pts = game.geo.reachable_points(model, mode, float(game.speed(model)),
                                            limit=int(game.settings["bot_move_candidates"]),
                                            enemies=game.enemy_reaches(model), checked=False)
        except Exception:      # noqa: BLE001 -- no sampling: stay
            pts = []
        self.rng.shuffle(pts)
        for p in pts[:4]:
            a = Move(model, mode, (tuple(p),))
            if game.why_illegal(a) is None:
                return a
        return None

    def _dodge_move(self, game, model):
        """The move after a Dodge, drawn like a movement: stay (a sixth), change
        Crouched (a sixth), else a random point of the reachable area at SPD/2,
        the first of up to 4 random points the rules accept (else stay). A
        Panicked reactor that failed its M roll: one of the rules' moves toward
        the nearest field edge (else stay)."""
        m = game.models[model]
        stay = DodgeMove(model)
        r = self.rng.random()
        if r < 1 / 6:
            return stay
        if game.panic_dodge_edges(model):
            # a Panicked reactor that failed its M roll may only go toward the nearest
            # field edge: the random points rarely lie that way, the rules' own offer does
            moves = [a for a in legal._dodge_moves(game, model) if a.path]
            return moves[self.rng.randrange(len(moves))] if moves else stay
        if r < 2 / 6:
            a = DodgeMove(model, crouch="Crouched" not in m.states)
            return a if game.why_illegal(a) is None else stay
        enemies = game.enemy_reaches(model)
        if "Engaged" in m.states:
            enemies = {k: -1.0 for k in enemies}
        try:
            with game.dodge_move_geometry(model):   # any direction, Engaged or not
                pts = game.geo.reachable_points(
                    model, "walk", float(cb.halve(game.speed(model))),
                    limit=max(2, int(game.settings["bot_move_candidates"]) // 2),
                    enemies=enemies, checked=False)
        except Exception:      # noqa: BLE001 -- no sampling: stay
            pts = []
        self.rng.shuffle(pts)
        for p in pts[:4]:
            a = DodgeMove(model, (tuple(p),))
            if game.why_illegal(a) is None:
                return a
        return stay


def ground_options(game, model: str) -> list:
    """The legal Attacks at the ground among ``legal.ground_declarations``' few points
    (a Targetless template aimed at the surface under an enemy or between two)."""
    return [d for d in legal.ground_declarations(game, model) if game.why_illegal(d) is None]


def expected_wounds(game, d: Declare, role: str, with_cover: bool = True) -> float:
    """Expected Wounds of an Attack declaration (no Confrontation or Dodge)."""
    from rules.eldfall import reactions as rx
    from rules.eldfall.resolution import Strike, _attack_attribute, attack_profile
    prof = attack_profile(game, d)
    if prof is None:
        return 0.0
    from rules.eldfall.resolution import is_ground_attack
    if is_ground_attack(d, role):
        return _ground_wounds(game, d, prof)
    total = 0.0
    point = rx.reaction_point(game, d) if role == "reactive" else None
    with game.mover_at(point):
        for t, n in d.targets:
            st = Strike(d.model, t, d, role, prof, n)
            _attack_attribute(game, st, with_cover=with_cover)
            if st.failed:
                continue
            tm = game.models[t]
            if "Incapacitated" in tm.states:
                continue
            p_hit = cb.p_success(st.attr)
            if prof.get("template"):
                # every model under the template is Hit (as ``resolution.resolve`` places
                # it): the enemies' expected Wounds less the allies', the target's included
                total += n * p_hit * _named_template_wounds(game, d.model, prof, t, n,
                                                            d.place if role == "active" else None)
                continue
            value = n * p_hit * _wound_chance(game, d.model, prof, t)
            total += value * (1.5 if tm.hp <= 1 else 1.0)
    return total


def _named_template_wounds(game, user: str, prof: dict, target: str, n: int,
                           place=None) -> float:
    """The Wounds one Hit of a template Attack at ``target`` is expected to deal: the
    template placed as ``resolution.resolve`` places it (where ``place`` lays it, else
    at the target, else its best placement), every model under it but the user (the
    target always) weighed by :func:`_template_sum`."""
    from rules.eldfall import spells as sp
    from rules.eldfall.resolution import placed_template
    kind = sp.template_kind(prof["template"])
    tc = placed_template(game, user, prof, target, place, count=n) if place is not None else \
        game.geo.template(kind, user=user, target=target, count=n)
    if not tc.legal:
        tc = game.geo.best_template(kind, user=user, target=target)
    ids = [h.id for h in tc.affected if h.los_from_origin and h.in_band]
    if target not in ids:
        ids.insert(0, target)
    return _template_sum(game, user, prof, ids)


def _template_sum(game, user: str, prof: dict, ids) -> float:
    """The expected Wounds of one Hit on each of ``ids`` (models under a template):
    enemies add, allies subtract, a model at 1 HP counts half again; the user, models
    off the table, Dead or Incapacitated count nothing."""
    side = game.models[user].side
    total = 0.0
    for mid in ids:
        v = game.models.get(mid)
        if mid == user or v is None or "Incapacitated" in v.states or not v.on_table or \
                "Dead" in v.states:
            continue
        value = _wound_chance(game, user, prof, mid) * (1.5 if v.hp <= 1 else 1.0)
        total += -value if v.side == side else value
    return total


def _wound_chance(game, attacker: str, prof: dict, victim: str) -> float:
    """The chance that one Hit wounds ``victim`` (a critical's 5% wounds at PW)."""
    pw = game.weapon_pw(attacker, prof) if prof.get("kind") != "spell" else cb.spell_pw(prof)
    arm = game.stat(victim, "ARM")
    return 0.95 * cb.p_wound(cb.wound_threshold(pw, arm, False, prof.get("traits", []))) + \
        0.05 * cb.p_wound(pw)


def _ground_wounds(game, d: Declare, prof: dict) -> float:
    """Expected Wounds of an Attack at the ground (``at=``, docs/rulings.md
    "Targetless"): one roll, and on a success every model under the template is
    Hit, the user excepted: the enemies' expected Wounds less the allies' (no Dodge)."""
    from rules.eldfall.resolution import Strike, _attack_attribute, ground_template
    st = Strike(d.model, None, d, "active", prof, 1)
    _attack_attribute(game, st)
    if st.failed:
        return 0.0
    tc = ground_template(game, d.model, prof, st.ground)
    if not tc.legal:
        return 0.0
    return cb.p_success(st.attr) * _template_sum(
        game, d.model, prof, [h.id for h in tc.affected if h.los_from_origin and h.in_band])


class _Planner:
    """The game's geometry for a bot weighing a position it does not hold: every
    sight question is answered by ``sight_estimate`` (a planner's guess); all
    else is the geometry itself."""

    def __init__(self, geo):
        self._geo = geo

    def __getattr__(self, name):
        return getattr(self._geo, name)

    def sight(self, viewer, target, *, moving=False, fraction=False):
        return self._geo.sight_estimate(viewer, target, moving=moving, fraction=fraction)


class GreedyBot:
    name = "greedy"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    # ---- helpers -------------------------------------------------------
    def _enemy_distance(self, game, model: str) -> float:
        ds = [game.geo.distance(model, e.id) for e in game.enemies(model)
              if "Incapacitated" not in e.states]
        return min(ds) if ds else 0.0

    def _threat(self, game, model: str, point) -> "_Score":
        """Attack value from ``point``: the best expected Wounds next action + cover.

        Returned as a :class:`_Score`: the attack part and the distance are
        measured now, and so is LoS from the two nearest enemies; the Cover of
        a model they do see (the dear question: the hidden share and the
        covering piece) only when a comparison needs it. At a point the model
        does not hold, every sight question is a planner's guess
        (``geo.sight_estimate``, through :class:`_Planner`), never a ruling;
        from where it stands the answers are the rulings themselves."""
        mid = model
        home, facing = tuple(game.geo.position(mid)), game.geo.facing(mid)
        real = game.geo
        if point is not None:
            game.geo.place(mid, tuple(point), facing)
            game.geo = _Planner(real)      # a position it does not hold: guessed LoS
        try:
            best = 0.0
            for d in itertools.chain(legal.declarations(game, mid, "active"),
                                     legal.ground_declarations(game, mid)):
                if d.action not in ATTACKS and d.action != "Death Blow":
                    continue
                if d.action == "Death Blow":
                    if game.geo.base_contact(mid, d.target_ids[0]):
                        best = max(best, 3.0)
                    continue
                from rules.eldfall.resolution import _why_not_attack
                if _why_not_attack(game, d, "active"):
                    continue
                best = max(best, expected_wounds(game, d, "active", with_cover=False))
            near = sorted(game.enemies(mid), key=lambda e: game.geo.distance(mid, e.id))[:2]
            seen = []          # per near enemy: False (no LoS), True (LoS: Cover still unknown)
            for e in near:
                if "Incapacitated" in e.states:
                    continue
                seen.append((e.id, game.geo.sight(e.id, mid, moving=True).los))
            dist = self._enemy_distance(game, mid)
        finally:
            game.geo = real
            if point is not None:
                game.geo.place(mid, home, facing)
        return _Score(game, mid, point, best, dist, seen)

    # ---- decisions -----------------------------------------------------
    def choose(self, game):
        kind, who = game.pending
        if kind == "order":
            return ChooseOrder(who, True)
        if kind == "duel-answer":
            ch, tgt = game.duel["models"]
            return DuelAnswer(who, game.models[tgt].hp >= game.models[ch].hp)
        if kind == "tactical":
            acts = [a for a in game.legal_actions().list() if isinstance(a, Activate)]
            if not acts:
                return EndTurn(who)
            acts.sort(key=lambda a: (-game.models[a.model].ap,
                                     self._enemy_distance(game, a.model), a.model))
            return acts[0]
        if kind == "movement":
            return self._move(game, who)
        if kind == "action":
            return self._action(game, who)
        if kind in ("reaction", "reaction-late"):
            return self._reaction(game, who)
        if kind == "dodge-move":
            return DodgeMove(who)
        if kind == "turn-on-hit":
            return self._turn(game, who)
        if kind == "stratagem":
            return self._stratagem(game, who)
        if kind == "crouch":
            # Crouched as a Reaction halves SPD and ARM: the greedy bot keeps its
            # models standing (it takes cover by moving)
            return Pass(who)
        if kind == "stand-up":
            return self._stand_up(game, who)
        options = game.legal_actions().list()
        return options[self.rng.randrange(len(options))]

    def _move(self, game, model):
        """Stay when it can already attack well (its attack, not its Cover); else the
        best of the nearest few reachable points (attack value + cover), else walk (or
        run, when far) closer, to a point other than its own."""
        idle = Move(model, "idle")
        if game.why_illegal(idle) is not None:
            options = game.legal_actions().list()
            return options[self.rng.randrange(len(options))]
        here = self._threat(game, model, None)
        if here.best >= 0.3:
            return idle       # its attack from here is worth it (Cover alone is not)
        enemy_xy = [game.geo.position(e.id)[:2] for e in game.enemies(model)
                    if "Incapacitated" not in e.states]

        def near(p):
            return min((math.dist(p[:2], q) for q in enemy_xy), default=0.0)

        def candidates(mode):
            try:
                pts = game.geo.reachable_points(model, mode, float(game.speed(model)),
                                                limit=int(game.settings["bot_move_candidates"]),
                                                enemies=game.enemy_reaches(model), checked=False)
            except Exception:      # noqa: BLE001 -- no sampling: stay
                return []
            return sorted(pts, key=near)

        best, best_score = idle, here
        walks = [Move(model, "walk", (tuple(p),)) for p in candidates("walk")]
        # the three nearest points are weighed first; only the winner's path is
        # checked (the reachable grid offers hardly any point the check refuses;
        # a refused one drops out and the next best is taken)
        scored = [(a, self._threat(game, model, a.path[-1])) for a in walks[:3]]
        while scored:
            top = None
            for i, (a, s) in enumerate(scored):
                if s.beats(best_score if top is None else scored[top][1], 1e-9):
                    top = i
            if top is None:
                break                 # none beats staying
            a, s = scored.pop(top)
            if game.why_illegal(a) is None:
                best, best_score = a, s
                break
        if best is idle:
            # nothing nearer beats staying, and it cannot attack well from here: hiding
            # is no plan (two bots behind one wall would wait out the game), so it
            # closes on the enemy
            start = game.geo.position(model)

            def going(a):         # a move that goes somewhere (no "runs 0.0"")
                return math.dist(a.path[-1][:2], start[:2]) > 0.25 and game.why_illegal(a) is None
            far = self._enemy_distance(game, model)
            if far > game.allowance(model, "walk") + 2:
                for p in candidates("run")[:3]:
                    a = Move(model, "run", (tuple(p),))
                    if going(a):
                        return a
            return next((a for a in walks if going(a)), best)
        return best

    @staticmethod
    def _stand_up(game, model):
        """Incapacitated has ended: stand up (SPD, ARM and STK back in full), unless
        crouching hides it from an enemy that could shoot it standing (the Cover it
        wants: a Crouched hitbox shrinks to its base, behind a low wall it is unseen)."""
        up, stay = StandUp(model, True), StandUp(model, False)
        if game.why_illegal(up) is not None:
            return stay
        shooters = [e.id for e in game.enemies(model) if not e.out and (
            game.weapons(e.id, "ranged") or any(s.get("target") == "enemy" and not s.get("melee")
                                                for s in e.unit.spells))]
        if not shooters:
            return up
        seen_crouched = {e for e in shooters if game.has_los(e, model)}
        with game.states_for_geometry(model, game.models[model].states - {"Crouched"}):
            seen_standing = {e for e in shooters if game.has_los(e, model)}
        return stay if seen_standing - seen_crouched else up

    @staticmethod
    def _turn(game, model):
        """Turning when Hit: face the nearest standing attacker that hit it (else
        the nearest standing enemy); keep the facing when it already does."""
        def standing(mid):
            m = game.models[mid]
            return m.on_table and not (m.states & {"Dead", "Incapacitated"})
        foes = [a for a in game.act.hit_by.get(model, ()) if a != model and standing(a)
                and game.models[a].side != game.models[model].side]
        if not foes:
            foes = [e.id for e in game.enemies(model) if standing(e.id)]
        if not foes:
            return Turn(model)
        foe = min(foes, key=lambda f: (game.geo.distance(model, f), f))
        f = game.face_toward(model, foe)
        if f is None or abs((f - game.geo.facing(model) + 180.0) % 360.0 - 180.0) < 1e-6:
            return Turn(model)
        return Turn(model, f)

    # harmful states put on an enemy, or taken off an own model, by a Stratagem
    _BAD = {"Bleeding": 1.0, "Poisoned": 1.0, "Blinded": 1.5, "Immobilized": 1.0, "Slowed": 0.6,
            "Weakened": 0.8, "Fatigued": 0.6, "Panicked": 0.8, "Stunned": 1.2, "Burning": 1.0}

    def _stratagem(self, game, side):
        """The Stratagem that does the most now (HP healed, harmful states removed
        from its own models or put on enemies, stat boosts and AP for the models
        it reaches), or Pass when none is worth anything."""
        from rules.eldfall import stratagems as sg
        options = game.legal_actions().list()
        best, best_v = None, 0.05
        for a in options:
            if isinstance(a, Pass):
                continue
            st = sg.find(game, side, a.name)
            if st is None:
                continue
            eff = st["effect"]
            hit = [a.target] if a.target is not None else sg.targets(game, side, st)
            v = 0.0
            for t in hit:
                m = game.models[t]
                own = m.side == side
                if eff.get("heal"):
                    lost = m.unit.stat("HP", 1) - m.hp
                    v += min(int(eff["heal"]), max(0, lost)) * (2.0 if "Incapacitated" in m.states else 1.0)
                for x in eff.get("remove") or ():
                    if own and x in m.states:
                        v += self._BAD.get(x, 0.3)
                for x in eff.get("states") or ():
                    if x not in m.states:
                        v += self._BAD.get(x, 0.0) if not own else (0.5 if x in ("Shrouded", "Vigilance") else 0.0)
                mods = sum(int(n) for n in (eff.get("mods") or {}).values())
                v += 0.15 * (mods if own else -mods)
                if own and eff.get("ap"):
                    v += 0.6 * int(eff["ap"])
            if v > best_v:
                best, best_v = a, v
        return best if best is not None else Pass(side)

    def _action(self, game, model):
        options = game.legal_actions().list()
        for d in options:
            if d.action == "Death Blow":
                return d
        # the Attacks at the ground after the listed ones: a tie keeps the named target
        ground = ground_options(game, model)
        options = options + ground
        # (no Cover at the ground: its cheap bound is its value, measured once)
        memo = {d: expected_wounds(game, d, "active") for d in ground}
        best = _first_best(options, 0.0,
                           lambda d: memo[d] if d in memo else self._action_value(game, model, d, False),
                           lambda d: memo[d] if d in memo else self._action_value(game, model, d, True))
        if best is None:
            best = next((d for d in options if d.action == "Nothing"), options[0])
        return with_knockback_direction(game, best)

    @staticmethod
    def _action_value(game, model, d, exact):
        if d.action in ATTACKS:
            return expected_wounds(game, d, "active", with_cover=exact)
        if d.action == "Assist" and d.place is not None:
            # a Transmutation's token: it does nothing to a model (not modelled), so a
            # little, below any Attack worth making, and only while the caster has
            # none of that spell on the field
            return 0.0 if any(t.on_field and t.caster == model and t.spell == d.spell
                              for t in game.tokens.values()) else 0.04
        if d.action == "Assist":
            # each model it targets (an Assist with STK > 1 takes several)
            return sum(0.6 if t.hp < t.unit.stat("HP", 1) else 0.15
                       for t in (game.models[x] for x in d.target_ids))
        if d.action == "Dodge":
            return 0.1 if game.models[model].engaged_by else 0.0
        return 0.0

    def _reaction(self, game, side):
        options = game.legal_actions().list()
        act = game.act

        def value(d, exact):
            if isinstance(d, Pass):
                return None
            if d.action in ATTACKS:
                return expected_wounds(game, d, "reactive", with_cover=exact)
            if d.action == "Dodge":
                mover = act.model
                return 0.12 if game.geo.distance(mover, d.model) <= \
                    max(1.0, game.melee_reach(mover)) + 0.5 else 0.0
            return 0.0
        best = _first_best(options, 0.05, lambda d: value(d, False), lambda d: value(d, True))
        return with_knockback_direction(game, best) if best is not None else Pass(side)


def with_knockback_direction(game, d):
    """``d`` with the push direction (``knockback=``) that throws its one target
    off a ledge, when its weapon or spell has Knockback; else ``d`` unchanged
    (directly away). Cheap: seven directions (directly away, 30 and 60 degrees
    and 5 short of the table setting's limit to each side) are screened with
    ``geo.ground`` at the base's centre after the push; only those over a drop
    are checked with the geometry's "push" (none is made), the deepest drop
    first (directly away first among equals), until one makes the target fall."""
    from dataclasses import replace

    from rules.eldfall import resolution as rs
    if not isinstance(d, Declare) or d.action not in ATTACKS or len(d.targets) != 1 \
            or d.knockback is not None:
        return d
    prof = rs.attack_profile(game, d)
    dist = cb.trait_value(list((prof or {}).get("traits", [])), "Knockback") if prof else 0
    t = d.target_ids[0]
    tm = game.models.get(t)
    if not dist or tm is None or not tm.on_table or \
            cb.size_steps(game.models[d.model].unit.size, tm.unit.size) >= 2:
        return d
    away = rs.away_bearing(game, t, d.model)
    if away is None:
        return d
    limit = rs.knockback_limit(game)
    offsets = [0.0] + [s * o for o in (30.0, 60.0, limit - 5.0) if 0.0 < o < limit for s in (1, -1)]
    vx, vy, vz = game.geo.position(t)
    over = []                 # (drop under the centre, |offset|, offset, end)
    for off in offsets:
        rad = math.radians(away + off)
        end = (vx + math.cos(rad) * dist, vy + math.sin(rad) * dist, vz)
        try:
            drop = vz - float(game.geo.ground(end[0], end[1])[2])
        except Exception:      # noqa: BLE001 -- a geometry that cannot say: directly away
            return d
        if drop > 0.05:
            over.append((-round(drop, 3), abs(off), off, end))
    if not over:
        return d
    foes = {e.id: -1.0 for e in game.enemies(t)}
    spd = float(game.speed(t))
    best = None
    for _, _, off, end in sorted(over):
        try:
            mv = game.geo.check_move(t, "push", [end], spd, enemies=foes)
        except Exception:      # noqa: BLE001 -- a geometry without "push": directly away
            return d
        if mv.legal and sum(float(f.height) for f in (getattr(mv, "falls", ()) or ())) > 0.05:
            best = None if off == 0.0 else round((away + off) % 360.0, 1)
            break
    if best is None:
        return d
    out = replace(d, knockback=best)
    return out if rs.why_not_knockback(game, out) is None else d


def _first_best(options, floor, upper, exact):
    """The first option with the highest exact value above ``floor`` (None if none),
    as a scan ``if value > best: take it`` would choose, measuring the exact
    (dear) value only of options whose cheap upper bound could still win.

    ``upper(d) >= exact(d)`` must hold (an attack's expected Wounds without
    terrain Cover bound those with it: Cover only lowers the attribute). A value
    of None means the option is never taken."""
    ups = []
    for i, d in enumerate(options):
        u = upper(d)
        if u is not None:
            ups.append((u, i))
    ups.sort(key=lambda t: (-t[0], t[1]))
    best_v, best_i = floor, None
    for u, i in ups:
        if u < best_v:
            break             # sorted: no later option can reach the best either
        if u == best_v and (best_i is None or i > best_i):
            continue          # at best a tie that the earlier option wins
        v = exact(options[i])
        if v > best_v or (best_i is not None and v == best_v and i < best_i):
            best_v, best_i = v, i
    return None if best_i is None else options[best_i]


class _Score:
    """A movement score ``attack + cover - 0.02 * distance`` whose Cover terms are
    measured lazily, one near enemy at a time: ``lo``/``hi`` bound the score
    until enough is measured to compare (the model is placed at the point for
    the measuring, then put back). The exact value is summed in the same order
    as a full measurement would, so comparisons decide exactly alike."""
    # the Cover bonus of one near enemy: no LoS 0.25, heavy 0.2, light 0.1, none 0
    _BONUS = {"heavy": 0.2, "light": 0.1}
    _SLACK = 1e-12

    def __init__(self, game, model, point, best, dist, seen):
        self.game, self.model, self.point = game, model, point
        self.best, self.dist, self.seen = best, dist, seen
        self.bonuses = [None if los else 0.25 for _, los in seen]
        self._bounds()

    def _bounds(self):
        if all(b is not None for b in self.bonuses):
            cover = 0.0
            for b in self.bonuses:
                cover += b
            self.value = self.best + cover - 0.02 * self.dist
            self.lo = self.hi = self.value
            return
        self.value = None
        known = sum(b for b in self.bonuses if b is not None)
        unknown = sum(1 for b in self.bonuses if b is None)
        base = self.best + known - 0.02 * self.dist
        self.lo = base - self._SLACK
        self.hi = base + 0.2 * unknown + self._SLACK

    def refine(self) -> bool:
        """Estimate the Cover of the next unmeasured enemy; False if none is left."""
        k = next((i for i, b in enumerate(self.bonuses) if b is None), None)
        if k is None:
            return False
        geo = self.game.geo
        home, facing = tuple(geo.position(self.model)), geo.facing(self.model)
        if self.point is not None:
            geo.place(self.model, tuple(self.point), facing)
        try:
            s = geo.sight_estimate(self.seen[k][0], self.model, moving=True)
        finally:
            if self.point is not None:
                geo.place(self.model, home, facing)
        self.bonuses[k] = 0.25 if not s.los else self._BONUS.get(s.cover, 0.0)
        self._bounds()
        return True

    def exact(self) -> float:
        while self.refine():
            pass
        return self.value

    def less_than(self, x: float) -> bool:
        while True:
            if self.hi < x:
                return True
            if self.lo >= x:
                return False
            if not self.refine():
                return self.value < x

    def beats(self, other: "_Score", eps: float) -> bool:
        """``self > other + eps`` on the exact values."""
        while True:
            if self.lo > other.hi + eps:
                return True
            if self.hi <= other.lo + eps:
                return False
            # narrow the wider of the two first
            first, second = (self, other) if self.hi - self.lo >= other.hi - other.lo else (other, self)
            if not (first.refine() or second.refine()):
                return self.value > other.value + eps


BOTS = {"random": RandomBot, "greedy": GreedyBot}
