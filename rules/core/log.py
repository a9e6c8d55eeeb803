"""Append-only JSON-lines game logs.

Line 1 is the header (``{"type": "header", "format": 1, "game": ..., "seed": ...,
"scene": {"path", "sha256"}, "units": [...], "settings": {...}}``); every
further line is one event (``{"type": "event", "seq", "kind", "data"}``). The
file is flushed and fsynced after every line, so a crash loses at most the line
being written; :func:`read_log` detects such a torn last line and drops it with a
warning. A log saved again by an editor is read as written: a UTF-8 byte-order mark at
its start and blank lines at its end are no content (a blank line between two lines is
refused: event N is line N + 2, and a gap may be where a log was torn and spliced).
"""
from __future__ import annotations

import json
import os
import stat
from typing import Any

from rules.core.errors import LogError

FORMAT = 1


def dumps(obj: Any) -> str:
    """Canonical one-line JSON (sorted keys, no spaces)."""
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def event_line(seq: int) -> int:
    """The line of a log file that holds event ``seq`` (line 1 is the header)."""
    return seq + 2


class EventLog:
    """A log being written. ``path`` None keeps the lines in memory only."""

    def __init__(self, path: str | os.PathLike | None = None):
        self.path = None if path is None else os.fspath(path)
        self.lines: list[str] = []
        self._fh = None
        self.header: dict | None = None
        if self.path is not None:
            d = os.path.dirname(os.path.abspath(self.path))
            if not os.path.isdir(d):
                raise LogError(f"{'not a folder' if os.path.exists(d) else 'folder does not exist'}: {d}",
                               file=self.path)
            if os.path.lexists(self.path) and not os.path.isfile(self.path):
                raise LogError("not a regular file", file=self.path)
            try:
                self._fh = open(self.path, "w", encoding="utf-8")
            except OSError as exc:
                raise LogError(f"cannot write: {exc.strerror or exc}", file=self.path) from None

    def _write(self, obj: dict) -> None:
        line = dumps(obj)
        self.lines.append(line)
        if self._fh is not None:
            try:
                self._fh.write(line + "\n")
                self._fh.flush()
                os.fsync(self._fh.fileno())
            except OSError as exc:
                raise LogError(f"cannot write: {exc.strerror or exc}", file=self.path) from None

    def write_header(self, header: dict) -> None:
        if self.header is not None:
            raise LogError("the header is already written", file=self.path or "<memory>")
        h = {"type": "header", "format": FORMAT}
        h.update(header)
        self.header = h
        self._write(h)

    def append(self, event) -> None:
        """Write one event (anything with ``to_dict()``, or a dict)."""
        if self.header is None:
            raise LogError("an event before the header", file=self.path or "<memory>")
        d = event.to_dict() if hasattr(event, "to_dict") else dict(event)
        d = {"type": "event", **d}
        self._write(d)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def read_log(path: str | os.PathLike) -> tuple[dict, list[dict], list[str]]:
    """Read a log: ``(header, events, warnings)``.

    ``events`` are dicts with ``seq``, ``kind`` and ``data``. A last line that
    is not valid JSON or lacks its newline is a torn write: it is dropped and a
    warning says so. Anything else wrong raises :class:`LogError`.
    """
    path = os.fspath(path)
    try:
        # a FIFO would block and a device never end: only regular files are logs
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise LogError("not a regular file", file=path)
        with open(path, "rb") as fh:
            raw = fh.read()
    except OSError as exc:
        raise LogError(f"cannot read: {exc.strerror or exc}", file=path) from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        # a torn multi-byte character can only be at the very end
        text = raw.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        # a byte-order mark, as some editors write at the start of a UTF-8 file: not content
        text = text[1:]
    warnings: list[str] = []
    lines = text.split("\n")
    complete = lines[:-1]          # every line that ended with a newline
    tail = lines[-1]
    if not tail.strip():
        # blank lines at the end (an editor's final empty line) are no content: dropped. A
        # blank line between two lines of JSON is still refused below: events are addressed
        # by their line (event N is line N + 2), and a gap may be where a log was torn and
        # spliced together
        while complete and not complete[-1].strip():
            complete.pop()
    if tail.strip():
        warnings.append(f"{path}:{len(lines)}: torn last line dropped "
                        f"({len(tail)} characters without a newline)")
    if not complete:
        if tail.strip():        # the header itself was being written: nothing to replay
            raise LogError(f"no whole line: the header line is torn ({len(tail)} characters "
                           f"without a newline)", file=path, line=1)
        raise LogError("empty log: no header line", file=path, line=1)
    parsed: list[tuple[int, dict]] = []
    for i, line in enumerate(complete, start=1):
        if not line.strip():
            raise LogError("blank line between two lines of the log (blank lines are only "
                           "accepted at its end: one in the middle may be where a log was torn "
                           "or spliced; event N is on line N + 2)", file=path, line=i)
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            if i == len(complete) and not tail.strip() and i > 1:     # a torn header: nothing left
                warnings.append(f"{path}:{i}: torn last line dropped (invalid JSON: {exc.msg})")
                break
            hint = " (is it a game log, from eldfall play --log?)" if i == 1 else ""
            raise LogError(f"invalid JSON: {exc.msg} (column {exc.colno}){hint}", file=path, line=i) from None
        except (ValueError, RecursionError) as exc:
            # JSON that Python's reader cannot take: a whole number of over 4300 digits,
            # arrays nested thousands deep
            why = ("nested too deeply to read" if isinstance(exc, RecursionError)
                   else "a whole number of more than 4300 digits" if "digits" in str(exc)
                   else f"cannot be read: {exc}")
            raise LogError(f"invalid JSON: {why}", file=path, line=i) from None
        if not isinstance(obj, dict):
            raise LogError("a log line must be a JSON object", file=path, line=i)
        parsed.append((i, obj))
    if not parsed:
        raise LogError("no header line", file=path, line=1)
    i, header = parsed[0]
    if header.get("type") != "header":
        raise LogError("the first line is not a header (is it a game log, from eldfall play --log?)",
                       file=path, line=i, path="type")
    if header.get("format") != FORMAT:
        raise LogError(f"unknown log format {header.get('format')!r} (expected {FORMAT})",
                       file=path, line=i, path="format")
    for key in ("game", "seed", "units"):
        if key not in header:
            raise LogError("missing", file=path, line=i, path=key)
    units = header["units"]
    for key, ok, what in (("game", isinstance(header["game"], str), "a string"),
                          ("seed", type(header["seed"]) is int, "a whole number"),
                          ("units", isinstance(units, list) and all(isinstance(u, dict) for u in units),
                           "a list of mappings"),
                          ("scene", isinstance(header.get("scene") or {}, dict), "a mapping"),
                          ("settings", isinstance(header.get("settings") or {}, dict), "a mapping")):
        if not ok:
            shown = repr(header.get(key))
            shown = shown if len(shown) <= 40 else shown[:37] + "..."
            raise LogError(f"must be {what}, not {shown}", file=path, line=i, path=key)
    events: list[dict] = []
    for i, obj in parsed[1:]:
        if obj.get("type") != "event":
            raise LogError("not an event line", file=path, line=i, path="type")
        for key, typ in (("seq", int), ("kind", str), ("data", dict)):
            if not isinstance(obj.get(key), typ):
                raise LogError(f"must be {typ.__name__}", file=path, line=i, path=key)
        if obj["seq"] != len(events):
            raise LogError(f"event out of order: seq {obj['seq']}, expected {len(events)}",
                           file=path, line=i, path="seq")
        events.append({"seq": obj["seq"], "kind": obj["kind"], "data": obj["data"]})
    return header, events, warnings
