"""Scene file -> World for the commands, never with a traceback for bad input."""
from __future__ import annotations

from engine.errors import InputError, Problem


def build_world(scene, path: str = "", placement: bool = True):
    """Build the World of a loaded scene; anything unexpected becomes a Problem.

    ``placement``: also refuse a table ``eldfall check`` refuses (a model inside
    terrain or another model, floating, off the table), so that no command gives
    a verdict on a setup the players could not have made.
    """
    from engine.validate import check_placement
    from engine.world import World
    try:
        world = World(scene)
        problems = check_placement(world) if placement else []
    except InputError:
        raise
    except Exception as exc:  # noqa: BLE001 - user input must never show a traceback
        raise InputError(_build_problem(scene, path, exc)) from None
    if problems:
        raise InputError(problems)
    return world


def load_world(path: str, models_dir: str | None = None):
    """Load a scene file and build its World."""
    return build_world(load_scene_argument(path, models_dir), path)


def models_dir_problem(models_dir) -> Problem | None:
    """``--models-dir`` naming no folder is one problem of the command line, not one line per
    model that names a profile (and a problem even when the scene names none)."""
    import os
    if models_dir is None or not str(models_dir).strip():
        return None         # (an empty text: load_scene says "expected a folder, got an empty text")
    if os.path.isdir(models_dir):
        return None
    what = "is not a folder" if os.path.exists(models_dir) else "no such folder"
    return Problem("<command line>", None, "--models-dir", f"'{models_dir}': {what}")


def load_scene_argument(path: str, models_dir: str | None = None):
    """``engine.scene.load_scene`` for a command: a ``--models-dir`` that is no folder is said
    once, as a command-line problem, with the scene's other problems."""
    from engine.scene import load_scene
    bad = models_dir_problem(models_dir)
    try:
        scene = load_scene(path, models_dir=models_dir)
    except InputError as exc:
        if bad is None:
            raise
        # every profile's "the models folder ... does not exist" is that one problem
        rest = [p for p in exc.problems if not (p.path.endswith(".profile") and "the models folder" in p.message)]
        err = InputError([bad] + rest)
        err.warnings = list(getattr(exc, "warnings", None) or [])
        raise err from None
    if bad is not None:
        raise InputError(bad)
    return scene


def eldfall_rules_note(world, command: str) -> str | None:
    """On a scene that is not for Eldfall (``games: [norova]``) ``eldfall move``, ``reach``
    and ``measure`` still judge by Eldfall's rules (its Walk/Run/Climb/Jump, free climbing up
    to the hitbox, Awareness, engagement): a line that says so, else None."""
    games = tuple(getattr(world.scene, "games", ("eldfall",)) or ("eldfall",))
    if "eldfall" in games:
        return None
    what = {"move": "Eldfall's Walk, Run, Climb and Jump (free climbing up to the hitbox)",
            "reach": "Eldfall's Walk and Run (free climbing up to the hitbox)",
            "measure": "Eldfall's reach, range bands, Awareness and engagement"}.get(command, "Eldfall's rules")
    names = {"norova": "Legends of Norova"}
    own = ", ".join(names.get(g, g) for g in games)
    movement = " (a 1\" step height, Sprint, Crawl)" if command in ("move", "reach") and "norova" in games else ""
    return (f"  note: judged by {what}; this scene is for {own}, whose own rules{movement} "
            "eldfall play and eldfall view apply")


def _build_problem(scene, path: str, exc: Exception) -> Problem:
    """Why the World could not be built: the first terrain piece whose solid
    cannot be made, at its line, when one is to blame; else the error itself."""
    from engine import shapes
    from engine.scene import cached_mesh
    file = scene.path or path
    for spec in scene.terrain:
        try:
            shapes.piece_mesh(spec, cached_mesh(spec.file) if spec.file else None)
        except Exception as why:  # noqa: BLE001
            where = f"terrain[{spec.index}]" if spec.index >= 0 else f"terrain.{spec.id}"
            return Problem(file, spec.line or None, where,
                           f"cannot build the {spec.shape} '{spec.id}': {why or type(why).__name__}")
    return Problem(file, None, "", f"cannot build the table: {exc or type(exc).__name__}")


def file_argument(text: str, what: str, flag: str = "") -> str:
    """A file named on the command line, which must not be an empty text (an empty
    name would read as "no such file ''", or as no file asked for at all)."""
    if not str(text).strip():
        raise InputError(Problem("<command line>", None, flag, f"expected {what}, got an empty text"))
    return text


def counted(n: int, one: str, many: str | None = None) -> str:
    """"1 cell", "2 cells": ``n`` and the word that goes with it (``many``: the plural
    when it is not ``one`` + "s")."""
    return f"{n} {one if n == 1 else (many or one + 's')}"
