"""The project's error type for bad input: one line per problem, exit 2."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Problem:
    file: str
    line: int | None
    path: str            # key path, e.g. "terrain[2].size"; "" for the whole file
    message: str

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class InputError(Exception):
    """Bad input (a scene, a profile, a log, a command argument).

    ``problems`` holds every problem found; ``str()`` gives one line each.
    A plain text is a problem of the command line (``<command line>: ...``):
    the engine raises one so for a bad argument (a model id, ``--count``).
    ``warnings`` (Problems) are what the input had that does not fail it,
    for a command to print with the problems.
    """

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem("<command line>", None, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        self.warnings: list[Problem] = []
        super().__init__("\n".join(str(p) for p in self.problems))
