"""The ``eldfall`` command: ``main(argv) -> int``.

Each subcommand lives in its own module ``tools/cmd_<name>.py`` with
``add_arguments(parser)`` and ``run(args) -> int``. Modules are imported only
when their subcommand runs, so a command that draws nothing never loads
panda3d.
"""
from __future__ import annotations

import argparse
import importlib
import sys

from engine.errors import InputError

COMMANDS = {
    "check": "validate a scene and print a summary",
    "los": "line of sight and cover between two models (or --all)",
    "aoe": "area templates: coverage, legality, best placement",
    "measure": "distance, reach, awareness and engagement between two models",
    "move": "check a declared move: walk, run, climb, jump",
    "reach": "the reachable area of a model",
    "play": "play a whole game headless (bots)",
    "replay": "print the state of a logged game at an event",
    "simulate": "many bot games and their statistics",
    "view": "the 3D table (window, or --offscreen frames)",
    "demo": "the main job: the view, or pictures when there is no screen",
    "bench": "performance figures (medians and ratios to targets)",
}


def _module(name: str):
    return importlib.import_module(f"tools.cmd_{name}")


def one_line_errors(parser: argparse.ArgumentParser, name: str) -> None:
    """argparse's usage errors become one line on stderr (``eldfall NAME: ...``), exit 2."""
    def error(message: str):
        print(f"eldfall {name}: {message}", file=sys.stderr)
        raise SystemExit(2)
    parser.error = error


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="eldfall", description="A 3D referee for tabletop miniature games.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        one_line_errors(p, name)
        if only is None or name == only:
            _module(name).add_arguments(p)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    name = next((a for a in argv if not a.startswith("-")), None)
    later = next((a for a in argv if a in COMMANDS), None)
    if later is not None and argv[0] != later and argv[0] not in ("-h", "--help"):
        # `eldfall --models-dir DIR check SCENE`: not "unknown command 'DIR'; did you mean
        # 'move'", nor "eldfall los: unrecognized arguments: --json" for an option los takes
        before = " ".join(argv[:argv.index(later)])
        print(f"eldfall: the command comes first, then its arguments and options: eldfall {later} ... {before} "
              f"(got {before!r} before {later!r})", file=sys.stderr)
        return 2
    if name not in COMMANDS:
        if not argv or argv[0] in ("-h", "--help"):
            build_parser(only="").print_help()
            return 0
        # a usage error, said in one line like argparse's (eldfall NAME: ...)
        listed = ", ".join(COMMANDS)
        if name is None:
            print(f"eldfall: expected a command ({listed}), got only {' '.join(argv)!r}", file=sys.stderr)
        else:
            from engine.validate import suggest
            guess = suggest(name, COMMANDS)
            hint = f"; did you mean '{guess}'?" if guess else ""
            print(f"eldfall: unknown command {name!r}{hint} (commands: {listed})", file=sys.stderr)
        return 2
    parser = build_parser(only=name)
    one_line_errors(parser, name)          # arguments left over are reported by the top parser
    args = parser.parse_args(argv)
    try:
        return int(_module(name).run(args) or 0)
    except InputError as exc:
        for problem in list(getattr(exc, "warnings", None) or []) + list(exc.problems):
            print(problem, file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:           # Ctrl-C: stop quietly, as a shell expects
        print(f"eldfall {name}: interrupted", file=sys.stderr)
        return 130
    except OSError as exc:
        # a file or folder of the user's that cannot be written or read (an
        # output file that is a folder, a full disk): one line, never a traceback
        print(os_error_line(exc), file=sys.stderr)
        return 2


def os_error_line(exc: OSError) -> str:
    """``<command line>: PATH: cannot write or read it: WHY`` for an OSError."""
    why = exc.strerror or str(exc) or type(exc).__name__
    name = exc.filename
    if name in ("", b""):
        return "<command line>: a file or folder name is empty (expected a path)"
    if name is None:
        return f"<command line>: cannot write or read a file: {why}"
    if isinstance(name, bytes):
        name = name.decode("utf-8", "replace")
    return f"<command line>: {name}: cannot write or read it: {why}"


if __name__ == "__main__":
    sys.exit(main())
