"""``eldfall play SCENE --bots``: a whole game, bot against bot, headless.

Prints which bot plays which side, then a readable turn-by-turn summary (``--rolls`` adds every die; the game's
``narrate.Summary`` where it has one: an Idle movement's own line, the AP a reaction
leaves, the "may react to" line after the reactive side's crouch at the end of the
Movement Step) and the outcome; ``--log FILE`` writes the JSON-lines event log (flushed and fsynced
after every event), which ``eldfall replay`` reads back; the log may not be the scene file,
nor a party or mesh file the scene reads. ``--seed`` is 0 or more (the dice take -N as N). ``--models-dir DIR``: the
scene's ``party#name`` profiles are in DIR (the log's header records it). ``--settings FILE``
(the sight settings, read as ``eldfall los --settings`` reads them) and ``--set
templates.KEY=VALUE`` (a template setting, as ``eldfall aoe --set KEY=VALUE``) are the table's
geometry settings: the game is played on them, the log's header records those changed
from the defaults (``eldfall replay`` plays on them again) and the summary names them.

An Attack with a Knockback weapon may name the push direction in its text form
(``declare r1 'Melee Attack' weapon=Maul targets=b1:1 knockback=45.0``: degrees
counter-clockwise from the table's +x axis; none: directly away from the
attacker); the summary shows it ("Knockback toward 45°"). The greedy bot names
one when it throws the target off a ledge.
"""
from __future__ import annotations

import importlib
import json
import sys
from tools.loading import counted, file_argument


def add_arguments(p) -> None:
    p.add_argument("scene", help="scene YAML file")
    p.add_argument("--bots", nargs="?", const="greedy", default=None, metavar="KIND[,KIND]",
                   help="bot vs bot (default greedy; e.g. --bots random, or --bots greedy,random: one per "
                        "side: the summary's first line and the JSON's sides say which plays which)")
    p.add_argument("--seed", type=int, default=0, help="the game's dice seed (default 0)")
    p.add_argument("--log", metavar="FILE", help="write the event log here (JSON lines)")
    p.add_argument("--game", choices=("eldfall", "norova"), help="game system (default: the scene's)")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="a rules setting (e.g. rounds=3, confrontation_ties=keep, or the table "
                        "settings as a mapping: 'table_settings={turn_on_hit: face_attacker, "
                        "knockback_max_angle_deg: 45}'), or a template setting as templates.KEY=VALUE "
                        "(e.g. templates.circle_card=hold, as eldfall aoe --set takes it); repeatable")
    p.add_argument("--settings", metavar="FILE",
                   help="sight settings for the table (as eldfall los --settings: a settings file, a saved "
                        "los --json verdict or its settings block; default engine/data/sight.yaml)")
    p.add_argument("--rolls", action="store_true",
                   help="show every die roll (not with --quiet or --json, which print only the outcome: "
                        "a warning says so)")
    p.add_argument("--quiet", action="store_true", help="only the outcome")
    p.add_argument("--json", action="store_true", help="the outcome as JSON")
    p.add_argument("--models-dir", default=None,
                   help="where party#name profiles are looked up (default: the repository's models/); "
                        "the log records it, so eldfall replay finds the same profiles")


def _narrator(name: str):
    """The game's narration: (``line(event)``, ``misses(events)``: the lines its attacks
    that hit nothing get after their last event, by that event's index; the rules emit
    no event for a miss)."""
    try:
        mod = importlib.import_module(f"rules.{name}.narrate")
        return mod.line, getattr(mod, "misses", lambda events: {})
    except ImportError:
        def line(ev):
            if ev.kind in ("roll",):
                return None
            return f"{ev.kind}: " + ", ".join(f"{k}={v}" for k, v in ev.data.items())
        return line, lambda events: {}


def _summary(name: str, rolls: bool, status, **kw):
    """The game's own play summary (``rules.<game>.narrate.Summary``: fed each decision's
    events, it orders and adds lines the event-by-event narration cannot), or None."""
    try:
        cls = getattr(importlib.import_module(f"rules.{name}.narrate"), "Summary", None)
    except ImportError:
        return None
    return cls(rolls=rolls, status=status, **kw) if cls is not None else None


def _status(game) -> str | None:
    """One line at the end of each turn: models standing, HP, VP per side."""
    models = getattr(game, "models", None)
    if not models:
        return None
    parts = []
    for side in getattr(game, "sides", []):
        ms = [m for m in models.values() if m.side == side and m.on_table]
        up = [m for m in ms if not (m.states & {"Dead", "Incapacitated"})]
        parts.append(f"{side} {len(up)}/{len(ms)} standing, HP {sum(m.hp for m in up)}, "
                     f"VP {game.vp.get(side, 0)}")
    return "  -- end of turn: " + "; ".join(parts)


def status_lines(game) -> dict:
    """Record the status line at each End Phase as the game then stands: event seq ->
    line. (One decision may run on past the End Phase into the next turn's Strategic
    Phase, whose Recovery Checks and Bleeding rolls change HP and States before the
    events are printed.)"""
    lines: dict = {}

    def listen(ev):
        if ev.kind == "phase" and ev.data.get("phase") == "end":
            s = _status(game)
            if s:
                lines[ev.seq] = s
    game.listeners.append(listen)
    return lines


def read_file_clash(log: str, scene_path: str, game, settings_path: str | None = None) -> str | None:
    """Why ``--log`` may not be written: it is the scene file itself, a party or mesh file
    the scene reads, or the ``--settings`` file (the log would overwrite it, and the game's
    own scene with it); None when it is none of them."""
    import os
    if not os.path.exists(log):
        return None
    geo = getattr(game, "geo", None) or getattr(game, "geometry", None)
    scene = getattr(getattr(geo, "world", None), "scene", None)
    read = [(scene_path, "the scene file")] + ([(settings_path, "the --settings file")] if settings_path else [])
    if scene is not None:
        base = os.path.dirname(os.path.abspath(scene_path))
        for spec in list(scene.models) + list(getattr(scene, "reserves", ())):
            prof = getattr(spec, "profile", None)
            if prof is not None and prof.file:
                read.append((prof.file, f"the party file of {spec.id}'s profile"))
        for t in scene.terrain:
            if getattr(t, "file", None):
                read.append((os.path.join(base, t.file), f"the mesh file of terrain piece {t.id}"))
    for path, what in read:
        try:
            if os.path.exists(path) and os.path.samefile(log, path):
                return f"{log} is {what}: the log would overwrite it (give the log another name)"
        except OSError:
            continue
    return None


def run(args) -> int:
    from engine.errors import InputError, Problem
    from rules.core.errors import LogError
    from rules.core.log import EventLog
    from tools import gameplay
    if args.bots is None:
        raise InputError(Problem("<command line>", None, "--bots",
                                 "only bot games can be played headless: add --bots"))
    file_argument(args.scene, "a scene file")
    gameplay.check_seed(args.seed)
    if args.log is not None:
        file_argument(args.log, "a file name for the log", "--log")
    if not args.bots.strip():
        raise InputError(Problem("<command line>", None, "--bots", "expected KIND[,KIND], got an empty text"))
    settings, table = gameplay.command_settings(args)
    warnings: list = []
    mod, game = gameplay.new_game(args.scene, args.game, args.seed, settings=settings,
                                  models_dir=args.models_dir, warnings=warnings, table=table)
    names = gameplay.bot_names(args.bots, mod, game)
    clash = read_file_clash(args.log, args.scene, game, args.settings) if args.log else None
    if clash:
        raise InputError(Problem("<command line>", None, "--log", clash))
    log = None
    if args.log:
        # only now that the game can start: a bad argument leaves an old log as it was
        try:
            log = EventLog(args.log)
            game.start_log(log)
        except LogError as exc:
            if log is not None:
                log.close()
            raise InputError(Problem(args.log, None, "", exc.message)) from None
    for w in warnings:          # the scene's warnings (as check says them): before the game, once
        print(w, file=sys.stderr)
    if args.rolls and (args.quiet or args.json):
        # --quiet and --json print only the outcome, so no die could be shown: said, not dropped
        print(f"<command line>: --rolls: warning: ignored with {'--json' if args.json else '--quiet'}, "
              "which prints only the outcome (leave it out to see every die roll)", file=sys.stderr)
    line, misses = _narrator(game.game_name)
    out = sys.stdout
    quiet = args.quiet or args.json
    statuses = status_lines(game)
    summary = _summary(game.game_name, args.rolls, lambda ev: statuses.pop(ev.seq, None))

    def show(action, events):
        if quiet:
            return
        if summary is not None:
            for s in summary.feed(events):
                print(s, file=out)
            return
        events = list(events)
        missed = misses(events)
        for i, ev in enumerate(events):
            if ev.kind == "phase" and ev.data.get("phase") == "end":
                status = statuses.pop(ev.seq, None)
                if status:
                    print(status, file=out)
            elif not (ev.kind == "action" or ev.kind == "roll" and not args.rolls):
                s = line(ev)
                if s:
                    print(s, file=out)
            if i in missed:
                print(missed[i], file=out)

    sides = gameplay.sides(game)
    if not quiet:       # which bot plays which side: the text never said it
        print(f"{game.game_name} game on {args.scene}, seed {args.seed}: "
              + ", ".join(f"{side} {names[i % len(names)]} bot" for i, side in enumerate(sides))
              + table.words(), file=out)
    show(None, game.events)

    try:
        n = gameplay.play_out(game, mod, names, args.seed, on_action=show)
    except LogError as exc:          # a write failed mid-game (disk full): the log keeps its whole lines
        raise InputError(Problem(args.log, None, "", exc.message)) from None
    finally:
        if log is not None:
            log.close()
    if summary is not None and not quiet:
        for s in summary.close():
            print(s, file=out)
    if args.json:
        print(json.dumps({"game": game.game_name, "seed": args.seed, "bots": names, "sides": sides,
                          "scene": args.scene, "settings": settings, "log": args.log,
                          "geometry": table.changed(),
                          "decisions": n, "events": len(game.events),
                          "outcome": game.outcome.to_dict(), "state_hash": game.state_hash()},
                         sort_keys=True))
    else:
        if hasattr(game, "summary") and not args.quiet:
            print(game.summary())
        print(f"outcome: {game.outcome}  ({counted(n, 'decision')}, {counted(len(game.events), 'event')}"
              + (f", log {args.log}" if args.log else "") + ")")
    return 0
