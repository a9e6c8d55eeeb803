"""``eldfall replay LOG [--to EVENT]``: the state of a logged game at an event.

The log's header rebuilds the game on its scene; every action up to event
``--to`` (default: all) is applied again, and each re-created event must
equal the logged one. A torn last line is dropped with a warning. The header's
units and scene block must be what the scene file (and its profiles) gives now:
a value edited by hand is one problem line each (``LOG:1: units[0] (id).stats.HP:
the log has 9, the scene gives 2 ...``). The scene's profiles are read from the
folder the header's ``scene.models_dir`` names (``eldfall play --models-dir``), or
``--models-dir``. Prints the state (models, HP, AP, states, positions) and its hash;
``--json``: the game, seed, ``to``, the log's and the replay's event counts, the state, its
hash and the outcome (with ``--events``, ``narration``: ``[event number, line]`` pairs). An
event no action of the log made (one added by hand) is refused at its line. The geometry
settings the game was played on (``eldfall play --settings``, ``--set templates.KEY``), which
the header's ``scene.geometry`` records, rebuild its table: a bad block is one line each at
``LOG:1: scene.geometry.KEY``.
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
from tools.loading import counted, file_argument

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # the repository's folder


def add_arguments(p) -> None:
    p.add_argument("log", help="a game log (JSON lines) from eldfall play --log")
    p.add_argument("--to", type=int, default=None, metavar="EVENT",
                   help="replay the actions logged before event number EVENT (events are numbered "
                        "from 0; each action with all its consequences): undo")
    p.add_argument("--events", action="store_true", help="also print the events replayed")
    p.add_argument("--json", action="store_true", help="the state as JSON")
    p.add_argument("--models-dir", default=None,
                   help="where party#name profiles are looked up (default: the folder the log's header "
                        "names, which eldfall play --models-dir records; else the repository's models/)")


def replayed_line(game_name: str, seed, to: int | None, made: int, logged: int) -> str:
    """What was replayed and where the game stands: ``to`` (--to) counts the log's events
    from 0; every action logged before event ``to`` is replayed with all its consequences,
    so the game stands after its event ``made - 1`` (``made`` events re-created)."""
    head = f"{game_name} game, seed {seed}: "
    last = f"after event {made - 1}" if made else "before any event"
    if made <= logged:
        tail = f"the game stands {last} ({made} of the log's {counted(logged, 'event')}, numbered from 0)"
    else:
        # the last action's consequences were cut off (a torn last line): re-made here
        tail = (f"the game stands {last} ({made} events, numbered from 0: the log's "
                f"{counted(logged, 'event')} and {counted(made - logged, 'more', 'more')} that its last action made again)")
    if to is None:
        return head + "replayed every action of the log; " + tail
    return (head + f"replayed every action logged before event {to} (--to counts the log's events "
            f"from 0), each with all its consequences; " + tail)


#: what each Eldfall decision the game waits for is, in words ({who}: the side or model)
WAITING = {
    "setup": "the game to be set up",
    "order": "{who}, the initiative winner, to choose who plays first",
    "tactical": "{who} to activate a model or end its turn (Tactical Phase)",
    "stratagem": "{who} to use a Stratagem or pass (Strategic Phase)",
    "strategic": "{who} to close its Strategic Phase",
    "crouch": "{who} to crouch or stand up models as a Reaction, or pass",
    "movement": "{who} to make its Movement Step",
    "reaction": "{who} to declare Reactions or pass (Reaction Step)",
    "reaction-late": "{who} to declare a Reaction now that the action is declared, or pass",
    "reaction-change": "{who} to change a Dodge or Perceive Reaction into an Attack, or pass",
    "action": "{who} to declare its action (Action Step)",
    "duel-answer": "{who} to accept or refuse the Duel",
    "turn-on-hit": "{who} to turn when Hit, or keep its facing",
    "dodge-move": "{who} to make its Dodge move",
    "stand-up": "{who} to stand up or stay Crouched (its Incapacitated State has ended)",
}


def waiting_line(pending) -> str | None:
    """What the game waits for, in words ("next: blue to activate a model ..."); None when
    the game has no pending decision (over, or a Legends of Norova game with no blow of an
    Attack of Opportunity waiting: its ``aoo_pending``)."""
    if isinstance(pending, dict) and "mover" in pending:     # Legends of Norova's waiting blow
        return (f"next: waiting for {pending['model']} to choose its blow on {pending['mover']} "
                "(Attack of Opportunity: the plain attack or a skill)")
    if not pending or not isinstance(pending, (tuple, list)) or len(pending) != 2:
        return None
    kind, who = pending
    if kind == "over":
        return None
    text = WAITING.get(kind)
    if text is None:        # a decision this table does not know yet: still in words
        text = "{who} to decide (" + str(kind).replace("-", " ") + ")"
    return "next: waiting for " + text.format(who=who or "a player")


def read_game_log(path: str):
    """``rules.core.log.read_log(path)``, with every problem as an ``InputError``."""
    from engine.errors import InputError, Problem
    from rules.core.errors import LogError
    from rules.core.log import read_log
    try:
        return read_log(path)
    except LogError as exc:
        raise InputError(Problem(exc.file, exc.line, exc.path, exc.message)) from None


def _sha256(path: str) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def scene_file(log: str, scene: dict) -> str:
    """The scene file of a log's header. ``eldfall play`` logs the path as it was
    given, relative to the folder it ran in; from another folder, the same path
    under the log's folder or the repository is taken when its content is the
    logged one (``scene.sha256``), so ``eldfall replay /path/to/game.log`` works
    from anywhere."""
    from engine.errors import InputError, Problem
    path = scene.get("path") if isinstance(scene, dict) else None
    if isinstance(path, str) and os.path.isfile(path):
        return path
    want = scene.get("sha256") if isinstance(scene, dict) else None
    if isinstance(path, str) and path and not os.path.isabs(path) and isinstance(want, str):
        for base in (os.path.dirname(os.path.abspath(log)), REPO):
            cand = os.path.join(base, path)
            if os.path.isfile(cand) and _sha256(cand) == want:
                return cand
    if not isinstance(path, str) or not path.strip():
        raise InputError(Problem(log, 1, "scene.path", f"expected the scene file's path, got {path!r}"))
    where = (" (the path is from the folder the game was played in: run eldfall replay there)"
             if isinstance(path, str) and path and not os.path.isabs(path) else "")
    raise InputError(Problem(log, 1, "scene.path", f"the scene {path!r} is not there{where}"))


def models_folder(log: str, scene: dict, given: str | None, scene_path: str = "") -> str | None:
    """Where the replay looks the scene's ``party#name`` profiles up: ``--models-dir`` when
    given, else the folder the header's ``scene.models_dir`` names (``eldfall play
    --models-dir`` records it as given: from another folder, the same path under the scene
    file's folder, the log's or the repository is taken), else None (the repository's
    ``models/``)."""
    from engine.errors import InputError, Problem
    if given is not None:
        return given
    folder = scene.get("models_dir") if isinstance(scene, dict) else None
    if folder is None:
        return None
    if not isinstance(folder, str) or not folder.strip():
        raise InputError(Problem(log, 1, "scene.models_dir",
                                 f"expected the models folder's path, got {folder!r} (an edited log?)"))
    if os.path.isdir(folder):
        return folder
    if not os.path.isabs(folder):
        bases = [os.path.dirname(os.path.abspath(scene_path))] if scene_path else []
        for base in bases + [os.path.dirname(os.path.abspath(log)), REPO]:
            cand = os.path.join(base, folder)
            if os.path.isdir(cand):
                return cand
    where = (" (the path is from the folder the game was played in: run eldfall replay there, "
             "or give --models-dir)" if not os.path.isabs(folder) else " (give --models-dir)")
    raise InputError(Problem(log, 1, "scene.models_dir",
                             f"the models folder {folder!r} the game's profiles were read from is not there{where}"))


def _differences(path: str, logged, made, out: list) -> None:
    """``(key.path, logged, made)`` for every leaf where two JSON values differ."""
    if isinstance(logged, dict) and isinstance(made, dict):
        for k in sorted(set(logged) | set(made), key=str):
            sub = f"{path}.{k}" if path else str(k)
            if k not in made:
                out.append((sub, logged[k], _NONE))
            elif k not in logged:
                out.append((sub, _NONE, made[k]))
            else:
                _differences(sub, logged[k], made[k], out)
    elif isinstance(logged, list) and isinstance(made, list) and len(logged) == len(made):
        for i, (a, b) in enumerate(zip(logged, made)):
            _differences(f"{path}[{i}]", a, b, out)
    elif type(logged) is not type(made) or logged != made:
        if isinstance(logged, (int, float)) and isinstance(made, (int, float)) and \
                not isinstance(logged, bool) and not isinstance(made, bool) and logged == made:
            return          # 2 and 2.0: the same number
        out.append((path, logged, made))


_NONE = object()        # a key one side of a comparison lacks


def _shown(value) -> str:
    if value is _NONE:
        return "nothing"
    text = json.dumps(value, sort_keys=True, allow_nan=True)
    return text if len(text) <= 60 else text[:57] + "..."


#: at most this many lines for a header that differs from its scene
MAX_HEADER_LINES = 20


def scene_header(scene, world, table=None) -> dict:
    """The ``units`` and ``scene`` a log header of this scene holds (as ``eldfall play`` writes
    them, on the geometry settings ``table``), as plain JSON data. Before the replay: the
    replay moves the World's models."""
    from tools import gameplay
    from tools.roster import units_from_scene
    return json.loads(json.dumps({"units": [u.to_dict() for u in units_from_scene(scene, world)],
                                  "scene": gameplay.scene_info(scene, table=table)}))


def header_problems(log: str, header: dict, scene, made: dict) -> list:
    """The log header's units and scene data against what its scene file (and the profiles it
    names) gives now (``made``: :func:`scene_header`): ``eldfall play`` writes them from the
    scene, and the replay plays the header's, so a header edited by hand (a model given more
    HP, a token moved) would replay as another game with no word said. One problem per value
    that differs (line 1)."""
    from engine.errors import Problem
    from tools import gameplay
    why = "(an edited log?)"
    why_units = ("(an edited log, or the scene's profiles changed since the game was played, "
                 "or were read from another models folder)")
    out: list = []
    made_units = made["units"]
    logged_units = header.get("units")
    by_id = {u.get("id"): i for i, u in enumerate(made_units)}
    if not isinstance(logged_units, list) or [u.get("id") if isinstance(u, dict) else None
                                              for u in logged_units] != list(by_id):
        ids = [u.get("id") if isinstance(u, dict) else u for u in (logged_units or [])] \
            if isinstance(logged_units, list) else logged_units
        return [Problem(log, 1, "units", f"the log's models {_shown(ids)} are not the scene's "
                                         f"{_shown(list(by_id))} {why_units}")]
    diffs: list = []
    _differences("units", logged_units, made_units, diffs)
    made_scene = made["scene"]
    logged_scene = header.get("scene") if isinstance(header.get("scene"), dict) else {}
    # where the files are (the scene's path, its hash, the models folder) is checked apart
    logged_scene = {k: v for k, v in logged_scene.items() if k not in gameplay.WHERE_KEYS}
    made_scene = {k: v for k, v in made_scene.items() if k not in gameplay.WHERE_KEYS}
    _differences("scene", logged_scene, made_scene, diffs)
    for key, a, b in diffs[:MAX_HEADER_LINES]:
        tail = why
        if key.startswith(f"scene.{gameplay.GEOMETRY_KEY}"):   # the settings, not the scene file
            out.append(Problem(log, 1, key, f"the log has {_shown(a)}, the settings of this game give "
                                            f"{_shown(b)} (an edited log, or a game on other settings)"))
            continue
        if key.startswith("units["):      # name the model: units[3] is hard to find by hand
            i = int(key[6:key.index("]")])
            key = key.replace(f"units[{i}]", f"units[{i}] ({made_units[i]['id']})", 1)
            tail = why_units
        out.append(Problem(log, 1, key, f"the log has {_shown(a)}, the scene gives {_shown(b)} {tail}"))
    if len(diffs) > MAX_HEADER_LINES:
        out.append(Problem(log, 1, "units", f"and {len(diffs) - MAX_HEADER_LINES} more values differ"))
    return out


def narration(game) -> list:
    """``(event number, line)`` for the replayed events: the play summary's lines (an Idle
    movement's own line, the AP a reaction leaves), each at the number of its event."""
    from tools.cmd_play import _narrator, _summary
    summary = _summary(game.game_name, True, None, reorder=False)
    if summary is not None:
        return [(game.events[i].seq, s) for i, s in summary.pairs(game.events)]
    line, misses = _narrator(game.game_name)
    missed = misses(game.events)
    out = []
    for i, ev in enumerate(game.events):
        for s in (line(ev), missed.get(i)):
            if s:
                out.append((ev.seq, s))
    return out


def warning_line(text: str) -> str:
    """A warning of the log reader (``LOG:LINE: what``) as every command prints a warning,
    ``LOG:LINE: warning: what`` (not ``warning: LOG:LINE: ...``, which an editor's or a
    script's ``file:line:`` reader would not find)."""
    import re
    m = re.match(r"^(.*?:\d+): (.*)$", text, re.S)
    return f"{m.group(1)}: warning: {m.group(2)}" if m else f"warning: {text}"


def run(args) -> int:
    from engine.errors import InputError, Problem
    from rules.core.errors import LogError
    from tools import gameplay
    file_argument(args.log, "a game log")
    header, events, warnings = read_game_log(args.log)
    for w in warnings:
        print(warning_line(w), file=sys.stderr)
    if header["game"] not in gameplay.GAMES:
        raise InputError(Problem(args.log, 1, "game",
                                 f"unknown game {header['game']!r} ({', '.join(gameplay.GAMES)})"))
    seed = header.get("seed")
    if isinstance(seed, int) and not isinstance(seed, bool) and seed < 0:
        # eldfall play takes no seed below 0 (the dice would roll seed -N as N): an edited
        # header, said at its line, not as the first die that then differs
        raise InputError(Problem(args.log, 1, "seed",
                                 f"must be 0 or more, got {seed} (eldfall play logs no other: an edited log?)"))
    scene = header.get("scene") or {}
    path = scene_file(args.log, scene)
    sha = _sha256(path)
    if scene.get("sha256") and scene["sha256"] != sha:
        raise InputError(Problem(args.log, 1, "scene.sha256",
                                 f"{path} has changed since the game was logged"))
    if args.to is not None and not 0 <= args.to <= len(events):
        raise InputError(Problem("<command line>", None, "--to",
                                 f"must be between 0 and {len(events)} (the log has {counted(len(events), 'event')}, "
                                 f"numbered from 0)"))
    mod = gameplay.game_module(header["game"])
    models_dir = models_folder(args.log, scene, args.models_dir, path)
    settings = gameplay.header_settings(args.log, scene)        # the table's, as it was played on
    table, world, geo = gameplay.load_table(path, models_dir, settings)
    made = scene_header(table, world, settings)
    if table.games and header["game"] not in table.games:
        raise InputError(Problem(args.log, 1, "game", f"the scene {path!r} is for {', '.join(table.games)}, "
                                                      f"not {header['game']} (an edited log?)"))
    prefix = events if args.to is None else events[:args.to]
    try:
        game = mod.game_from_log(header, prefix, geo)
    except LogError as exc:
        # no line: the rules found the header wrong (line 1)
        problem = Problem(args.log, exc.line or 1, exc.path, exc.message)
        # an event the replay makes otherwise: a header edited by hand is the likelier cause
        first = header_problems(args.log, header, table, made) if (exc.line or 1) > 1 else []
        raise InputError(first + [problem]) from None
    except Exception as exc:  # noqa: BLE001 - an edited log must never show a traceback
        # the rules check what they expect a header to hold, not every type in it: a
        # unit's value of the wrong kind (an edited line 1) fails deeper down
        raise InputError(Problem(args.log, 1, "units", f"cannot rebuild the {header['game']} game from the header "
                                 f"(an edited log?): {type(exc).__name__}: {exc}")) from None
    # the game was rebuilt from the header's units and scene block, which eldfall play wrote
    # from the scene: one edited by hand (more HP, a token moved) replays as another game
    problems = header_problems(args.log, header, table, made)
    if problems:
        raise InputError(problems)
    if args.json:
        # what the text says too: the game and seed, the --to asked for, the events the log
        # holds, and with --events the narration's lines at their event numbers
        out = {"game": game.game_name, "seed": header["seed"], "to": args.to,
               "logged_events": len(events), "events": len(game.events),
               "state_hash": game.state_hash(), "state": game.state_dict(),
               "outcome": None if game.outcome is None else game.outcome.to_dict()}
        if args.events:
            out["narration"] = [[seq, s] for seq, s in narration(game)]
        print(json.dumps(out, sort_keys=True))
        return 0
    if args.events:
        for seq, s in narration(game):
            print(f"{seq:5d} {s}")
    print(replayed_line(game.game_name, header["seed"], args.to, len(game.events), len(events)))
    if hasattr(game, "summary"):
        print(game.summary())
    waiting = waiting_line(getattr(game, "pending", None) or getattr(game, "aoo_pending", None))
    if waiting and game.outcome is None:
        print(waiting)
    if game.outcome is not None:
        print(f"outcome: {game.outcome}")
    print(f"state hash: {game.state_hash()}")
    return 0
