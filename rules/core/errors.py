"""Errors of the rules packages.

``rules`` may not import ``engine``, so it has its own error types. The CLI
turns a :class:`LogError` into one line on stderr and exit status 2.
"""
from __future__ import annotations


class IllegalAction(Exception):
    """An action that the rules forbid now. ``reason`` says why, in words."""

    def __init__(self, reason: str, action: object | None = None):
        self.reason = reason
        self.action = action
        super().__init__(reason if action is None else f"{action}: {reason}")


class LogError(Exception):
    """A game log that cannot be read (bad header, bad event, wrong game)."""

    def __init__(self, message: str, file: str = "<log>", line: int | None = None,
                 path: str = ""):
        self.file = file
        self.line = line
        self.path = path
        self.message = message
        super().__init__(self.one_line())

    def one_line(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.path}: {self.message}" if self.path else f"{where}: {self.message}"


class SettingError(ValueError):
    """A game setting that is unknown or has a bad value; ``key`` names it."""

    def __init__(self, key: str, message: str):
        self.key = key
        super().__init__(message)
