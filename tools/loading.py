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
        raise InputError(Problem(scene.path or path, None, "",
                                 f"cannot build the table: {type(exc).__name__}: {exc}")) from None
    if problems:
        raise InputError(problems)
    return world


def load_world(path: str, models_dir: str | None = None):
    """Load a scene file and build its World."""
    from engine.scene import load_scene
    return build_world(load_scene(path, models_dir=models_dir), path)
