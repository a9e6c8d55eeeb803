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
    """

    def __init__(self, problems: list[Problem] | Problem | str):
        if isinstance(problems, str):
            problems = [Problem("<input>", None, "", problems)]
        elif isinstance(problems, Problem):
            problems = [problems]
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
