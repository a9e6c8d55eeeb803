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
    from engine.scene import load_scene
    return build_world(load_scene(path, models_dir=models_dir), path)


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
