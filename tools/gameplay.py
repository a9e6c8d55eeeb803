"""Shared by ``eldfall play``, ``replay`` and ``simulate``: a scene -> a game system's game.

The game system is a package ``rules.<game>`` exposing ``new_game``,
``game_from_log`` and ``BOTS``; the geometry is the engine's World behind
``engine.geometry.WorldGeometry``.
"""
from __future__ import annotations

import dataclasses
import importlib
import os
import re

from engine.errors import InputError, Problem

GAMES = ("eldfall", "norova")

#: the key of a log header's scene block that holds the geometry settings changed from the
#: defaults (absent when none is: the logs of games on the defaults keep their headers)
GEOMETRY_KEY = "geometry"

#: ``--set templates.KEY=VALUE``: a template setting (engine.templates.RULE_CHOICES), for the
#: table's geometry, not for the rules
TEMPLATE_PREFIX = "templates."


@dataclasses.dataclass(frozen=True)
class TableSettings:
    """The geometry settings a game is played on, as a dispute is judged on them: ``sight``
    (engine.sight_settings.SightSettings, ``--settings FILE`` as ``eldfall los`` reads it) and
    ``templates`` (engine.templates.TemplateSettings, ``--set templates.KEY=VALUE``); None:
    the defaults."""
    sight: object = None
    templates: object = None

    def geometry(self, world):
        """The rules' Geometry over ``world`` on these settings."""
        from engine.geometry import WorldGeometry
        return WorldGeometry(world, sight_settings=self.sight, template_settings=self.templates)

    def changed(self) -> dict:
        """The header's block: ``{"sight": {section: {key: value}}, "templates": {key: value}}``,
        only the settings that differ from the defaults, as a settings file gives them
        (``{}`` when none does)."""
        out: dict = {}
        if self.sight is not None:
            from engine.sight_settings import _KEYS, default_settings
            base, sight = default_settings(), {}
            for keys, name in _KEYS.items():
                v = getattr(self.sight, name)
                if v != getattr(base, name):
                    node = sight
                    for k in keys[:-1]:
                        node = node.setdefault(k, {})
                    node[keys[-1]] = list(v) if isinstance(v, tuple) else v
            if sight:
                out["sight"] = sight
        if self.templates is not None and self.templates.changed():
            out["templates"] = dict(self.templates.changed())
        return out

    def words(self) -> str:
        """``"; settings changed from the defaults: exceptions.area_height piece, ..."`` ("" when
        none is), as ``eldfall los`` says them."""
        from tools.cmd_los import changed_settings
        ch = changed_settings(self.sight) if self.sight is not None else []
        for k, v in (self.templates.changed() if self.templates is not None else {}).items():
            v = str(v).lower() if isinstance(v, bool) else format(v, "g") if isinstance(v, float) else v
            ch.append(f"{TEMPLATE_PREFIX}{k} {v}")
        return f"; settings changed from the defaults: {', '.join(ch)}" if ch else ""


def split_settings(settings: dict) -> tuple[dict, object]:
    """``--set`` taken apart: (the rules' settings, the TemplateSettings of its
    ``templates.KEY`` entries, None when there are none). Each entry is checked by
    ``engine.templates.settings_from``: one ``--set templates.KEY`` line per problem."""
    rules = {k: v for k, v in settings.items() if not k.startswith(TEMPLATE_PREFIX)}
    given = {k[len(TEMPLATE_PREFIX):]: v for k, v in settings.items() if k.startswith(TEMPLATE_PREFIX)}
    if not given:
        return rules, None
    from engine import templates as et
    try:
        return rules, et.settings_from(given)
    except InputError as exc:
        raise InputError([dataclasses.replace(p, path="--set " + TEMPLATE_PREFIX + p.path.split(" ", 1)[-1])
                          for p in exc.problems]) from None


def command_settings(args) -> tuple[dict, TableSettings]:
    """``--set`` and ``--settings FILE`` of play, simulate and view: (the rules' settings, the
    table's). The sight settings are read as ``eldfall los --settings`` reads them (a saved
    ``--json`` verdict or its settings block too); every problem is one line, before any
    file is read or written."""
    from engine.sight_settings import load_settings
    rules, templates = split_settings(parse_settings(getattr(args, "set", None)))
    path = getattr(args, "settings", None)
    return rules, TableSettings(load_settings(path) if path is not None else None, templates)


def header_settings(log: str, scene: dict) -> TableSettings:
    """The TableSettings a log's header records (its scene block's ``geometry``); a bad block
    is one problem per setting at ``LOG:1: scene.geometry.KEY``."""
    block = scene.get(GEOMETRY_KEY) if isinstance(scene, dict) else None
    if block is None:
        return TableSettings()
    where = f"scene.{GEOMETRY_KEY}"
    if not isinstance(block, dict):
        raise InputError(Problem(log, 1, where, f"must be a mapping of sight and templates settings, "
                                                f"not {block!r} (an edited log?)"))
    from engine import templates as et
    from engine.sight_settings import settings_from_dict
    problems = [Problem(log, 1, f"{where}.{k}", "unknown block; known: sight, templates (an edited log?)")
                for k in block if k not in ("sight", "templates")]
    sight = templates = None
    try:
        if "sight" in block:
            sight = settings_from_dict(block["sight"], log)
    except InputError as exc:
        problems += [Problem(log, 1, ".".join(filter(None, (where, "sight", p.path))), p.message)
                     for p in exc.problems]
    given = block.get("templates", {})
    if not isinstance(given, dict):
        problems.append(Problem(log, 1, f"{where}.templates", f"must be a mapping of template settings, "
                                                              f"not {given!r} (an edited log?)"))
    else:
        try:
            templates = et.settings_from(given) if given else None
        except InputError as exc:        # each a ``--set KEY`` problem: said at its key here
            problems += [Problem(log, 1, f"{where}.templates.{p.path.split(' ', 1)[-1]}", p.message)
                         for p in exc.problems]
    if problems:
        raise InputError(problems)
    return TableSettings(sight, templates)


def game_module(name: str):
    if name not in GAMES:
        raise InputError(Problem("<command line>", None, "--game", f"unknown game {name!r} ({', '.join(GAMES)})"))
    return importlib.import_module(f"rules.{name}")


def load_table(scene_path: str, models_dir: str | None = None, table: TableSettings | None = None):
    """(scene, world, geometry) for a scene file; its ``party#name`` profiles are looked up
    in ``models_dir`` (``--models-dir``; default: the repository's ``models/``); the geometry
    is on the ``table`` settings (default: the defaults)."""
    from tools.loading import build_world, load_scene_argument
    if not os.path.exists(scene_path):
        raise InputError(Problem(scene_path, None, "", "no such scene file"))
    scene = load_scene_argument(scene_path, models_dir)
    world = build_world(scene, scene_path)     # a table eldfall check refuses is refused here too
    return scene, world, (table or TableSettings()).geometry(world)


#: the keys of a log header's scene block that say where the files are, not what the table is
WHERE_KEYS = ("path", "sha256", "models_dir")


def scene_info(scene, models_dir: str | None = None, table: TableSettings | None = None) -> dict:
    """The scene block of a game's log header. ``models_dir``: the ``--models-dir`` the
    profiles were read from, as given (absent: the repository's ``models/``), so that
    ``eldfall replay`` finds the same profiles. ``table``: the geometry settings, recorded
    under ``geometry`` when any differs from the defaults (``TableSettings.changed``)."""
    where = {"models_dir": str(models_dir)} if models_dir is not None else {}
    changed = table.changed() if table is not None else {}
    return {"path": scene.path, "sha256": scene.sha256, **where, "name": scene.name,
            **({GEOMETRY_KEY: changed} if changed else {}),
            "table": [float(v) for v in scene.table],
            "deployment": {k: [[float(a) for a in p] for p in v] for k, v in scene.deployment.items()},
            # per-game blocks of the scene (e.g. `norova: {flying: true}`), as plain data
            **{k: v for k, v in (getattr(scene, "extra", None) or {}).items() if k not in WHERE_KEYS + ("table",)}}


def pick_game(scene, requested: str | None) -> str:
    if requested:
        if scene.games and requested not in scene.games:
            raise InputError(Problem(scene.path, None, "games",
                                     f"this scene is for {', '.join(scene.games)}, not {requested}"))
        return requested
    return scene.games[0] if scene.games else "eldfall"


def parse_settings(pairs) -> dict:
    """``["rounds=3", "confrontation_ties=keep"]`` -> a settings dict (YAML values)."""
    import yaml
    out = {}
    for p in pairs or ():
        key, sep, value = p.partition("=")
        if not sep or not key:
            raise InputError(Problem("<command line>", None, "--set", f"expected KEY=VALUE, not {p!r}"))
        if key.strip() in out:
            # as a scene's repeated key: one of the two would be dropped without a word
            first = next(q for q in pairs if q.partition("=")[0].strip() == key.strip())
            raise InputError(Problem("<command line>", None, f"--set {key.strip()}",
                                     f"given twice ({first}, then {p}): give it once"))
        try:
            out[key.strip()] = yaml.safe_load(value)
            node = yaml.compose(value, Loader=yaml.SafeLoader)
        except yaml.YAMLError:
            raise InputError(Problem("<command line>", None, f"--set {key.strip()}",
                                     f"expected a YAML value after '{key.strip()}=' (a number, true or false, "
                                     f"a name, [a, list] or {{a: mapping}}), got {value!r}, which is not one "
                                     f"(quote a text that holds : [ ] {{ }} or #)")) from None
        if isinstance(node, yaml.ScalarNode):
            from engine.validate import misread_number
            why = misread_number(node, out[key.strip()])
            if why:                     # rounds=010 would be 8 rounds
                raise InputError(Problem("<command line>", None, f"--set {key}", why))
        if not value.strip():
            raise InputError(Problem("<command line>", None, f"--set {key}",
                                     f"expected a value after '{key}=', got nothing"))
    return out


_NOROVA_SETTING = re.compile(r"^settings: ([\w.]+):")


_SHEET_KEY = re.compile(r"^([^\s:]+)\.(norova(?:\.[^\s:]+)?): (.*)$")


def _sheet_problem(text: str, scene) -> Problem | None:
    """A Norova sheet's problem (``ID.norova.KEY: what``) at its line in the party file that
    holds the model's profile (``FILE:LINE: PROFILE.norova.KEY: what``); None when the text
    is no such problem or the profile has no file."""
    m = _SHEET_KEY.match(text)
    if m is None or scene is None:
        return None
    spec = next((x for x in scene.models if x.id == m.group(1)), None)
    prof = getattr(spec, "profile", None)
    if prof is None or not prof.file:
        return None
    from engine.validate import read_yaml
    pname = prof.ref.split("#", 1)[-1]
    key = tuple(m.group(2).split("."))
    try:
        _, lines, _ = read_yaml(prof.file)
    except InputError:
        return Problem(prof.file, prof.line or None, f"profiles.{pname}.{m.group(2)}", m.group(3))
    return Problem(prof.file, lines.of(("profiles", pname) + key) or prof.line or None,
                   f"profiles.{pname}.{m.group(2)}", f"{m.group(3)} (model {m.group(1)})")


_TOKEN_KEY = re.compile(r"^token ([^\s:]+): (?:(side|kind|at) )?(.*)$")


def _token_problem(text: str, scene) -> Problem | None:
    """A token's problem as the rules say it (``token ID: side 'x' is not one of ...``) at
    its line in the scene (``FILE:LINE: tokens[i].side: ...``); None when the text is no
    such problem or the token is not found."""
    m = _TOKEN_KEY.match(text)
    path = getattr(scene, "path", None)
    if m is None or not path:
        return None
    toks = [t.get("id") for t in (getattr(scene, "extra", {}) or {}).get("tokens", ())]
    if m.group(1) not in toks:
        return None
    i = toks.index(m.group(1))
    key = ("tokens", i) + ((m.group(2),) if m.group(2) else ())
    from engine.validate import read_yaml
    try:
        _, lines, _ = read_yaml(path)
        line = lines.of(key) or lines.of(key[:2])
    except InputError:
        line = None
    what = f"{m.group(2)} {m.group(3)}" if m.group(2) else m.group(3)
    return Problem(path, line, ".".join([f"tokens[{i}]"] + list(key[2:])),
                   f"{what}: a game of the scene cannot start")


def _scene_problem(text: str, scene, scene_path: str) -> Problem:
    """A rules error about the scene at its line: a Norova sheet's, a token's, else the
    scene's models'."""
    return (_sheet_problem(text, scene) or _token_problem(text, scene)
            or Problem(scene_path, None, "models", text))


def game_problems(exc: Exception, scene_path: str, with_settings: bool, scene=None) -> list[Problem]:
    """A rules error at the start of a game as Problems, one per line of it: a setting's
    as ``<command line>: --set KEY: what is wrong`` (Norova's ``settings: KEY: `` prefix
    dropped, the key is said once), a Norova sheet's at its line in the party file (with
    ``scene``: ``_sheet_problem``), any other as the scene's models'."""
    lines = [str(p) for p in getattr(exc, "problems", None) or str(exc).splitlines() or [str(exc)]]
    eldfall_key = getattr(exc, "key", None)
    out = []
    for text in lines:
        m = _NOROVA_SETTING.search(text) if with_settings else None
        if m:
            out.append(Problem("<command line>", None, f"--set {m.group(1)}", text[m.end():].strip()))
        elif with_settings and eldfall_key:
            out.append(Problem("<command line>", None, f"--set {eldfall_key}", text))
        else:
            out.append(_scene_problem(text, scene, scene_path))
    return out


def start_problems(scene, world) -> list[Problem]:
    """The models' sheets and the tokens that stop a game the scene is for from starting (a
    Norova sheet of the wrong shape, a token of a side with no model), as ``eldfall play``
    would say them: ``eldfall check`` tells them first.
    (A roster no game could start with, one side or none, is a fine table for a dispute.)"""
    from engine.geometry import WorldGeometry
    from tools.roster import units_from_scene
    out: list[Problem] = []
    for name in scene.games or ("eldfall",):
        try:
            game_module(name).new_game(units_from_scene(scene, world), WorldGeometry(world), seed=0,
                                       scene_info=scene_info(scene))
        except ValueError as exc:
            texts = [str(p) for p in getattr(exc, "problems", None) or str(exc).splitlines()]
            for text in texts:
                if _SHEET_KEY.match(text) or _TOKEN_KEY.match(text):
                    p = _scene_problem(text, scene, scene.path)
                    if p not in out:
                        out.append(p)
    return out


def stat_warnings(scene, game: str | None = None) -> list[Problem]:
    """Warnings for the Eldfall models (reserves too) that lack stats: a model with no profile
    has only the ``stats`` the scene gives it, and the rules read a missing stat as 0 (HP as
    1), so a model given by size alone plays with SPD 0 (it cannot move), OFF 0, ARM 0, ... .
    ``eldfall play`` and ``simulate`` print them; the game still starts."""
    from engine.scene import STAT_NAMES
    from engine.validate import WARNING
    if pick_game(scene, game) != "eldfall":
        return []
    out = []
    for spec in list(scene.models) + list(getattr(scene, "reserves", ())):
        given = set(spec.stats or ())
        missing = [k for k in STAT_NAMES if k not in given]
        if not missing:
            continue
        where = f"models[{spec.index}]" if spec.index >= 0 else f"models.{spec.id}"
        how = ("has no profile and no stats" if not given
               else f"has no profile, and its stats lack {', '.join(missing)}")
        moves = " (SPD 0: it cannot move)" if "SPD" in missing else ""
        hp = " and HP as 1" if "HP" in missing else ""
        out.append(Problem(scene.path or "<scene>", spec.line or None, where,
                           WARNING + f"model '{spec.id}' {how}: the game takes each missing stat as 0"
                           f"{hp}{moves}; give it a profile (party#name) or all eleven stats "
                           f"({' '.join(STAT_NAMES)})"))
    return out


def game_warnings(scene, game: str | None = None) -> list[Problem]:
    """The warnings of a scene that a game played on it should say before it starts, each
    once, in ``eldfall check``'s order: the loader's (a key of the scene's ``eldfall:`` block
    the rules never read, a side with no Leader, ...), a model outside its deployment zone
    (an Eldfall game) and :func:`stat_warnings`. ``play`` used to say only the last, so a
    scene's ``eldfall: {rounds: 3}`` was ignored without a word. Not ``check``'s warnings
    that ``play`` refuses as errors (a side count the game cannot play)."""
    from tools.cmd_check import deployment_warnings
    name = pick_game(scene, game)
    found = list(getattr(scene, "warnings", ()) or ())
    if name == "eldfall":
        found += deployment_warnings(scene)
    file = scene.path or "<scene>"
    found.sort(key=lambda pr: (pr.file == file, pr.file, pr.line or 0))
    out: list[Problem] = []
    for w in found + stat_warnings(scene, name):
        if w not in out:
            out.append(w)
    return out


def objective_problem(scene, objectives) -> Problem | None:
    """``--set objectives=...`` naming a terrain piece the scene does not have: Interact
    needs Base Contact with the piece, so that quest object could never be taken (the
    rules see the table only through the geometry, which does not list the pieces)."""
    if not isinstance(objectives, list):
        return None
    pieces = {t.id for t in scene.terrain}
    for i, o in enumerate(objectives):
        oid = o.get("id") if isinstance(o, dict) else None
        if isinstance(oid, str) and oid not in pieces:
            known = ", ".join(sorted(pieces)) or "none"
            return Problem("<command line>", None, "--set objectives",
                           f"objectives[{i}].id: {scene.path or 'the scene'} has no terrain piece "
                           f"{oid!r} (its pieces: {known})")
    return None


def table_setting_problem(scene, settings) -> Problem | None:
    """``--set table=[W, D]`` on a scene whose ``table`` is another size: the game is played
    on the scene's table (its size comes with the scene), so the setting would be taken
    without a word and do nothing (its JSON would still echo it). None when it is absent
    or the scene's own size."""
    t = (settings or {}).get("table")
    if t is None or not isinstance(t, (list, tuple)) or len(t) != 2:
        return None
    try:
        same = all(abs(float(a) - float(b)) < 1e-9 for a, b in zip(t, scene.table))
    except (TypeError, ValueError):
        return None
    if same:
        return None
    size = " x ".join(f"{float(v):g}" for v in scene.table)
    return Problem("<command line>", None, "--set table",
                   f"the game is played on the scene's table ({size} in {scene.path or 'the scene'}), "
                   f"not {' x '.join(f'{float(v):g}' for v in t)}: change the scene's table: instead "
                   f"(the setting is for a game made without a scene)")


def new_game(scene_path: str, game: str | None, seed: int, log=None, settings: dict | None = None,
             models_dir: str | None = None, warnings: list | None = None,
             table: TableSettings | None = None):
    """(module, game) for a scene; the log (an EventLog) receives the header and events.
    ``models_dir``: where the scene's profiles are (``--models-dir``), recorded in the header.
    ``warnings``: a list that receives :func:`game_warnings` (the scene's warnings, as
    ``eldfall check`` prints them, and :func:`stat_warnings`). ``table``: the geometry
    settings (``--settings``, ``--set templates.KEY``), recorded in the header."""
    from tools.roster import units_from_scene
    scene, world, geo = load_table(scene_path, models_dir, table)
    name = pick_game(scene, game)
    if warnings is not None:
        warnings.extend(game_warnings(scene, name))
    mod = game_module(name)
    units = units_from_scene(scene, world)
    try:
        g = mod.new_game(units, geo, seed=seed, settings=settings or None,
                         scene_info=scene_info(scene, models_dir, table))
    except ValueError as exc:
        raise InputError(game_problems(exc, scene_path, bool(settings), scene)) from None
    lost = objective_problem(scene, (settings or {}).get("objectives")) if name == "eldfall" else None
    if lost:
        raise InputError(lost)
    other = table_setting_problem(scene, settings)
    if other:
        raise InputError(other)
    if log is not None:
        g.start_log(log)
    return mod, g


def check_seed(seed: int) -> None:
    """``--seed`` below 0 is refused (one line, InputError): Python's ``random.Random`` (the
    dice) seeds with the absolute value, so seed -N would roll seed N's dice (a series over
    -5..4 would play seeds 1..4 twice). ``play``, ``simulate``, ``view`` and ``demo``."""
    if seed < 0:
        raise InputError(Problem("<command line>", None, "--seed",
                                 f"must be 0 or more, got {seed} (the dice take a seed -N as N: {seed} "
                                 f"would roll the dice of seed {-seed})"))


def bot_names(spec: str | None, mod, game=None) -> list[str]:
    """The bots of ``--bots KIND[,KIND]``: one for every side, or one per side of ``game``."""
    names = (spec or "greedy").split(",")
    n_sides = 2 if game is None else len(sides(game))
    if len(names) == 1:
        names = names * n_sides
    elif game is not None and len(names) != n_sides:
        raise InputError(Problem("<command line>", None, "--bots",
                                 f"{len(names)} bots for a game of {n_sides} sides "
                                 f"({', '.join(sides(game))}): give one, or one per side"))
    for n in names:
        if n not in mod.BOTS:
            raise InputError(Problem("<command line>", None, "--bots",
                                     f"unknown bot {n!r} ({', '.join(mod.BOTS)})"))
    return names


def decider(game) -> str:
    fn = getattr(game, "decider", None)
    if callable(fn):
        return fn()
    return game.active_side


def sides(game) -> list[str]:
    s = getattr(game, "sides", None)
    if s:
        return list(s)
    return sorted({u.side for u in game.units})


def play_out(game, mod, names: list[str], seed: int, on_action=None) -> int:
    """Bots play the game to its end; returns the number of decisions."""
    bots = {}
    for i, side in enumerate(sides(game)):
        cls = mod.BOTS[names[i % len(names)]]
        try:
            bots[side] = cls(seed * 1000 + i + 1, side=side)
        except TypeError:
            bots[side] = cls(seed * 1000 + i + 1)
    n = 0
    while not game.is_over:
        side = decider(game)
        action = bots[side].choose(game)
        events = game.apply(action)
        n += 1
        if on_action is not None:
            on_action(action, events)
    return n
