"""Loading and checking the YAML data tables of ``rules/eldfall/data/``.

Internal helper of availability.py, conditions.py, reaction_rules.py and
tables.py. Files are read once (``yaml.safe_load``, the C loader when
present) and cached; a malformed file raises ``TableDataError`` with the file
and key path of every problem found.
"""
from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import yaml

from .table_settings import TableDataError

DATA_DIR = Path(__file__).resolve().parent / "data"

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@functools.lru_cache(maxsize=None)
def load(name: str) -> Any:
    """The parsed content of ``data/<name>`` (cached; do not mutate it)."""
    path = DATA_DIR / name
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise TableDataError([(str(path), None, "", f"cannot read: {exc.strerror or exc}")]) from None
    try:
        data = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        raise TableDataError([(str(path), line, "", f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    if not isinstance(data, dict):
        raise TableDataError([(str(path), None, "", "must be a mapping at the top level")])
    return data


class Checker:
    """Collects problems while a module checks its table."""

    def __init__(self, name: str):
        self.file = str(DATA_DIR / name)
        self.problems: list[tuple[str, int | None, str, str]] = []

    def fail(self, path: str, message: str) -> None:
        self.problems.append((self.file, None, path, message))

    def need(self, mapping: Any, key: str, path: str, kind: type | tuple[type, ...]) -> Any:
        if not isinstance(mapping, dict) or key not in mapping:
            self.fail(f"{path}.{key}" if path else key, "missing")
            return None
        value = mapping[key]
        if not isinstance(value, kind):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            self.fail(f"{path}.{key}" if path else key, f"must be {names}, not {type(value).__name__}")
            return None
        return value

    def names(self, values: Any, path: str, known: set[str] | frozenset[str], what: str) -> list[str]:
        if not isinstance(values, list):
            self.fail(path, f"must be a list of {what} names")
            return []
        out = []
        for i, v in enumerate(values):
            if v not in known:
                self.fail(f"{path}[{i}]", f"unknown {what} {v!r}; known: {', '.join(sorted(known))}")
            else:
                out.append(v)
        return out

    def done(self) -> None:
        if self.problems:
            raise TableDataError(self.problems)
