"""Input checking: YAML with line numbers, a small declarative checker, and
the placement checks that need geometry.

* :func:`read_yaml` parses a file with ``yaml.safe_load`` semantics (the C
  safe loader when present) and records the line of every key and list item,
  so that each :class:`~engine.errors.Problem` can name ``file:line``.
* :class:`Checker` collects *every* problem of a document (it never stops at
  the first) with a key path such as ``terrain[2].size``.
* :func:`check_placement` takes a built ``engine.world.World`` and reports
  models off the table, overlapping each other, floating, or inside solid
  terrain.

This module imports only the standard library, PyYAML and (inside
:func:`check_placement`) numpy; it never imports the World itself.
"""
from __future__ import annotations

import difflib
import math
import os
import re
import stat
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import yaml

from engine.errors import InputError, Problem

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np

    from engine.world import World

KeyPath = tuple[Any, ...]

MAX_FILE_BYTES = 8 * 1024 * 1024      # a scene or party file bigger than this is refused
MAX_NODES = 200_000                   # YAML values reached through aliases (stops "billion laughs")
MAX_GRID_SIDE = 513                   # heightfield rows and columns (engine.scene.MAX_GRID)
# distinct YAML values of a file: the largest heightfield (513 x 513) and the rest of a scene
MAX_VALUES = MAX_GRID_SIDE * MAX_GRID_SIDE + MAX_NODES
MAX_DEPTH = 64                        # nesting of lists and mappings
MAX_LENGTH = 10_000.0                 # inches: no coordinate or length beyond this
WARNING = "warning: "                 # prefix of a warning's message

_Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# --------------------------------------------------------------------------- #
# key paths and lines
# --------------------------------------------------------------------------- #
def keypath(path: Sequence[Any]) -> str:
    """``("terrain", 2, "size")`` -> ``"terrain[2].size"``."""
    out = ""
    for part in path:
        if isinstance(part, int) and not isinstance(part, bool):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out


class Lines(dict):
    """Key path (tuple) -> 1-based line: of the key for a mapping entry, of
    the item for a list item. :meth:`of` falls back to the nearest parent."""

    def of(self, path: Sequence[Any]) -> int | None:
        path = tuple(path)
        while path:
            if path in self:
                return self[path]
            path = path[:-1]
        return self.get((), None)


class _YamlProblem(Exception):
    def __init__(self, line: int | None, message: str):
        self.line, self.message = line, message


def _line(mark) -> int | None:
    return None if mark is None else mark.line + 1


_FILE_KINDS = ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
               (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))


def read_input_file(path: str | Path, display: str | None = None, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a user's input file (a scene, a party file), at most ``limit``.

    Raises ``InputError`` (one problem, no line) for a missing or unreadable
    file, a folder, anything that is not a regular file (a device such as
    /dev/zero, a FIFO, a socket: never read, never waited on) and a file over
    ``limit`` bytes (also one that reports a smaller size than it reads).
    """
    file = str(path) if display is None else display
    if not str(path).strip() or not file.strip():
        # an empty name on the command line (Path("") would read the current folder)
        raise InputError(Problem("<command line>", None, "", "expected a file name, got an empty text"))
    try:
        # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise InputError(Problem(file, None, "", "file not found")) from None
    except IsADirectoryError:
        raise InputError(Problem(file, None, "", "is a folder, not a YAML file")) from None
    except PermissionError:
        raise InputError(Problem(file, None, "", "permission denied")) from None
    except OSError as exc:
        raise InputError(Problem(file, None, "", f"cannot read: {exc.strerror or exc}")) from None
    except ValueError:                  # a NUL byte in the name
        raise InputError(Problem(file, None, "", "cannot read: not a usable file name")) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise InputError(Problem(file, None, "", "is a folder, not a YAML file"))
        if not stat.S_ISREG(st.st_mode):
            kind = next((name for test, name in _FILE_KINDS if test(st.st_mode)), "an unusual file")
            raise InputError(Problem(file, None, "", f"not a regular file ({kind})"))
        if st.st_size > limit:
            raise InputError(Problem(file, None, "", f"file too large ({st.st_size} bytes; the limit is {limit})"))
        with os.fdopen(fd, "rb") as fh:
            fd = -1                     # closed with fh
            data = fh.read(limit + 1)
    except PermissionError:
        raise InputError(Problem(file, None, "", "permission denied")) from None
    except OSError as exc:
        raise InputError(Problem(file, None, "", f"cannot read: {exc.strerror or exc}")) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise InputError(Problem(file, None, "", f"file too large (over the limit of {limit} bytes)"))
    return data


def output_folder(path: str | Path, flag: str = "--picture", create: bool = False,
                  files: Iterable[str] = ()) -> str:
    """Check that ``path`` can be the folder a command writes into (``--picture
    DIR``, ``--out DIR``): a folder, or one that can be made, writable. Call it
    before any work, so that a bad folder means nothing written; ``create``
    then makes it (with its parents). ``files``: the names the command will
    write there; one that exists as a folder (or anything but a plain file)
    cannot be written, nor one that is read-only. Returns ``path``; raises
    ``InputError`` (one problem: ``<command line>: FLAG: 'path': what is wrong``)."""
    text = str(path)

    def bad(message: str) -> InputError:
        return InputError(Problem("<command line>", None, flag, f"{text!r}: {message}"))

    if not text.strip():
        raise InputError(Problem("<command line>", None, flag, "expected a folder, got an empty text"))
    if "\x00" in text:
        raise bad("not a usable folder name")
    target = Path(text).expanduser()
    for folder in (target,) + tuple(target.parents):     # the folder, or its nearest existing parent
        try:
            st = os.stat(folder)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            raise bad(f"cannot use it ({exc.strerror or exc})") from None
        what = "is a file, not a folder" if stat.S_ISREG(st.st_mode) else "is not a folder"
        if not stat.S_ISDIR(st.st_mode):
            raise bad(what if folder == target else f"'{folder}' {what}")
        if not os.access(folder, os.W_OK | os.X_OK):
            raise bad("permission denied" if folder == target else f"cannot make it in '{folder}': permission denied")
        break
    for name in files:
        try:
            st = os.stat(target / name)
        except (FileNotFoundError, NotADirectoryError):
            continue
        except OSError as exc:
            raise bad(f"cannot write {name} there ({exc.strerror or exc})") from None
        if stat.S_ISDIR(st.st_mode):
            raise bad(f"cannot write {name} there: it is a folder")
        if not stat.S_ISREG(st.st_mode):
            raise bad(f"cannot write {name} there: it is not a plain file")
        if not os.access(target / name, os.W_OK):
            raise bad(f"cannot write {name} there: permission denied")
    if create:
        try:
            os.makedirs(target, exist_ok=True)
        except OSError as exc:
            raise bad(f"cannot make this folder ({exc.strerror or exc})") from None
    return text


# a no-break space where YAML's syntax needs a space: in a line's indent, after a list's
# dash, or right after a plain key's colon (U+00A0 inside a text is the text's own)
# (an indent of them before a list's dash or a key: a line of free text may begin with one)
_NBSP_RE = re.compile(r"^[ \u00a0]*\u00a0[ \u00a0]*(?:-|[A-Za-z0-9_.+-]+:)(?:[ \u00a0]|$)"
                      r"|^[ \u00a0]*-\u00a0|^[ ]*(?:- +)*[A-Za-z0-9_.+-]+:\u00a0", re.MULTILINE)


def read_yaml(path: str | Path, display: str | None = None, data: bytes | None = None
              ) -> tuple[Any, Lines, bytes]:
    """Read ``path``; return ``(value, lines, raw_bytes)``.

    The value is what ``yaml.safe_load`` gives. Raises ``InputError`` for a
    missing or unreadable file, one that is not a regular file, a file too
    large (:func:`read_input_file`), bad UTF-8, YAML syntax, duplicate keys,
    tags that safe_load refuses, documents of more than :data:`MAX_VALUES`
    values and aliases that expand beyond :data:`MAX_NODES` more values.
    ``display`` is the name used in problems (default ``str(path)``).
    """
    file = str(path) if display is None else display
    if data is None:
        data = read_input_file(path, file)
    for bom, name in ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
                      (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16")):
        if data.startswith(bom):        # e.g. Notepad's "Unicode"
            raise InputError(Problem(file, 1, "", f"the file is {name} text; save it as UTF-8"))
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InputError(Problem(file, line, "", "not valid UTF-8 text")) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise InputError(Problem(file, line, "", "not a text file (contains a NUL byte)"))
    nbsp = _NBSP_RE.search(text)
    if nbsp is not None:
        # YAML takes U+00A0 for a letter: `table:<NBSP>[36, 36]` is one text, an indent
        # of them no indent at all; said as such, not as what the text then reads as
        line = text[: nbsp.start()].count("\n") + 1
        raise InputError(Problem(file, line, "", "a no-break space (U+00A0, as a web page or a word "
                                                 "processor gives) where YAML needs a plain space"))
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        what = exc.problem or exc.context or "syntax error"
        if exc.problem and exc.context and exc.context_mark is not None:
            what += f" ({exc.context} at line {exc.context_mark.line + 1})"
        here = text[mark.index:mark.index + 1] if mark is not None and 0 <= mark.index < len(text) else ""
        if here == "\t" or "tab character" in (exc.problem or ""):
            what = "a tab character; YAML indents with spaces only"
        elif "another document" in (exc.problem or ""):
            what = "a second document ('---'); a file holds one document"
        raise InputError(Problem(file, _line(mark), "", f"YAML syntax error: {what}")) from None
    except yaml.YAMLError as exc:
        raise InputError(Problem(file, None, "", f"YAML error: {exc}")) from None
    except RecursionError:
        raise InputError(Problem(file, None, "", f"YAML nested too deeply (limit {MAX_DEPTH})")) from None
    finally:
        loader.dispose()
    lines = Lines()
    if node is None or (isinstance(node, yaml.ScalarNode) and node.tag == "tag:yaml.org,2002:null"):
        # no document (empty, only comments, ---, or a bare null): a problem with
        # it names the file alone, never a line
        return None, lines, data
    lines[()] = _line(node.start_mark)
    builder = _Builder(lines)
    try:
        value = builder.build(node, (), 0)
    except _YamlProblem as exc:
        raise InputError(Problem(file, exc.line, "", exc.message)) from None
    if builder.problems:
        raise InputError([Problem(file, ln, keypath(p), m) for ln, p, m in builder.problems])
    if builder.expanded:
        _alias_lines(text, lines)
    return value, lines, data


def _alias_lines(text: str, lines: Lines) -> None:
    """Where an alias stands for a whole value (``- *veteran``), the lines of that value and
    of all under it are the alias's own: the composer shares the anchored node, whose marks
    are the anchor's, so a problem of ``models[3]`` written ``- *a`` on line 6 was said at
    the anchor's line. (A merge, ``<<: *defaults``, keeps the anchor's lines: its keys are
    written there.) From the parser's events, which keep every alias's mark."""
    found: dict[tuple, int] = {}
    stack: list[dict] = []
    skip = 0                        # inside a list or mapping used as a key: no path
    for ev in yaml.parse(text, Loader=_Loader):
        if isinstance(ev, (yaml.StreamStartEvent, yaml.StreamEndEvent,
                           yaml.DocumentStartEvent, yaml.DocumentEndEvent)):
            continue
        starts = isinstance(ev, (yaml.SequenceStartEvent, yaml.MappingStartEvent))
        if skip:
            skip += 1 if starts else -1 if isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)) else 0
            continue
        if isinstance(ev, (yaml.SequenceEndEvent, yaml.MappingEndEvent)):
            stack.pop()
            continue
        top = stack[-1] if stack else None
        if top is not None and top["map"] and top["key"]:
            top["key"] = False          # this node is a key
            top["k"] = ev.value if isinstance(ev, yaml.ScalarEvent) else None
            skip = 1 if starts else 0
            continue
        if top is None:
            path = ()
        elif top["path"] is None:
            path = None
        elif top["map"]:
            top["key"] = True
            path = None if top["k"] is None else top["path"] + (top["k"],)
        else:
            top["i"] += 1
            path = top["path"] + (top["i"],)
        if isinstance(ev, yaml.AliasEvent):
            if path and path[-1] != "<<":
                found[path] = _line(ev.start_mark)
        elif starts:
            stack.append({"map": isinstance(ev, yaml.MappingStartEvent), "key": True, "k": None,
                          "i": -1, "path": path})
    # a key's text as the parser gives it; the builder's keys are its values (the same for
    # every key the loaders read, which are texts)
    for at, line in sorted(found.items(), key=lambda kv: len(kv[0])):
        n = len(at)
        for k in [k for k in lines if k[:n] == at]:
            lines[k] = line
        lines[at] = line


_OCTAL_RE = re.compile(r"^[-+]?0[0-7_]+$")


def misread_number(node, value) -> str | None:
    """Why a plain number YAML 1.1 reads otherwise than it looks is refused: a
    leading 0 makes it octal (``010`` is 8; ``05`` is 5 either way), a colon base
    60 (``1:30`` is 90). Said, never taken silently; None when it is fine."""
    if node.style not in (None, "") or isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    text = str(node.value)
    if isinstance(value, int) and _OCTAL_RE.match(text):
        plain = text.replace("_", "").lstrip("+-").lstrip("0") or "0"
        if int(plain) == abs(value):
            return None             # 05 is 5 either way
        return (f"{text} is an octal number in YAML (it reads as {value}); write {'-' if text.startswith('-') else ''}"
                f"{plain} without the leading 0 (or quote it for a text)")
    if ":" in text:
        return f"{text} is a base-60 number in YAML (it reads as {value:g}); write the number (or quote it for a text)"
    return None


class _Builder:
    """Turns a composed node tree into Python values as ``yaml.safe_load``
    would, recording lines, refusing duplicate keys and runaway aliases."""

    def __init__(self, lines: Lines):
        self.lines = lines
        self.count = 0                  # distinct values
        self.expanded = 0               # values reached again through an alias
        self.seen: set[int] = set()
        self.active: set[int] = set()
        self.problems: list[tuple[int | None, KeyPath, str]] = []
        self.merged: dict[int, int] = {}    # mapping node -> how many of its entries a merge gave
        self.constructor = yaml.constructor.SafeConstructor()

    def scalar(self, node) -> Any:
        try:
            value = self.constructor.construct_object(node, deep=True)
            # a float too large for a float (1.0e+400): infinite, said in words later
            return too_large(value, str(node.value)) if isinstance(value, float) else value
        except yaml.constructor.ConstructorError as exc:
            raise _YamlProblem(_line(node.start_mark), f"YAML error: {exc.problem}") from None
        except Exception as exc:  # e.g. a timestamp such as 2024-13-45
            text = str(node.value)
            shown = text if len(text) <= 40 else text[:37] + "..."
            why = str(exc)
            if isinstance(exc, ValueError) and "integer string conversion" in why:
                why = f"a whole number of {len(text)} digits is too long"
            raise _YamlProblem(_line(node.start_mark), f"cannot read value {shown!r}: {why}") from None

    def build(self, node, path: KeyPath, depth: int) -> Any:
        if id(node) in self.seen:       # only an alias makes the composer share a node
            self.expanded += 1
            if self.expanded > MAX_NODES:
                raise _YamlProblem(_line(node.start_mark),
                                   f"document too large (over {MAX_NODES} values, aliases expanded)")
        else:
            self.seen.add(id(node))
            self.count += 1
            if self.count > MAX_VALUES:
                raise _YamlProblem(_line(node.start_mark), f"document too large (over {MAX_VALUES} values)")
        if depth > MAX_DEPTH:
            raise _YamlProblem(_line(node.start_mark), f"YAML nested too deeply (limit {MAX_DEPTH})")
        if isinstance(node, yaml.ScalarNode):
            value = self.scalar(node)
            why = misread_number(node, value)
            if why:
                self.problems.append((_line(node.start_mark), path, why))
            return value
        if id(node) in self.active:
            raise _YamlProblem(_line(node.start_mark), "recursive YAML alias")
        if node.tag not in ("tag:yaml.org,2002:seq", "tag:yaml.org,2002:map"):
            # !!set, !!omap, !!pairs: what safe_load builds, we build with the constructor
            if node.tag not in ("tag:yaml.org,2002:set", "tag:yaml.org,2002:omap", "tag:yaml.org,2002:pairs"):
                raise _YamlProblem(_line(node.start_mark), f"YAML error: unsupported tag {node.tag!r}")
            return self.scalar(node)
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.SequenceNode):
                out = []
                for i, item in enumerate(node.value):
                    self.lines.setdefault(path + (i,), _line(item.start_mark))
                    out.append(self.build(item, path + (i,), depth + 1))
                return out
            # a merge (<<: *defaults) puts its entries first; a key written in the
            # mapping itself overrides a merged one, as safe_load does (counted
            # once per node: flattening removes the << entries, and an alias builds
            # the same node again)
            if id(node) not in self.merged:
                own = sum(1 for k, _ in node.value if k.tag != "tag:yaml.org,2002:merge")
                try:
                    self.constructor.flatten_mapping(node)
                except yaml.constructor.ConstructorError as exc:
                    raise _YamlProblem(_line(exc.problem_mark), f"YAML error: {exc.problem}") from None
                self.merged[id(node)] = len(node.value) - own
            merged = self.merged[id(node)]
            out: dict = {}
            from_merge: set = set()
            for n, (key_node, value_node) in enumerate(node.value):
                if not isinstance(key_node, yaml.ScalarNode):
                    self.problems.append((_line(key_node.start_mark), path, "a key must be a plain value, not a list or mapping"))
                    continue
                key = self.scalar(key_node)
                if isinstance(key, bool) and not key_node.style:
                    # YAML 1.1 reads a plain OFF / on / yes key as a boolean; no key
                    # of ours is a boolean, and OFF is a stat: keep the text
                    key = key_node.value
                try:
                    hash(key)
                except TypeError:
                    self.problems.append((_line(key_node.start_mark), path, f"unusable key {key_node.value!r}"))
                    continue
                if key in out and (n < merged or key in from_merge):
                    # the later entry wins, in the first one's place (safe_load's dict)
                    from_merge.discard(key)
                    for k in [k for k in self.lines if k[:len(path) + 1] == path + (key,)]:
                        del self.lines[k]
                elif key in out:
                    first = self.lines.get(path + (key,))
                    self.problems.append((_line(key_node.start_mark), path + (key,),
                                          f"duplicate key (first at line {first})"))
                    continue
                if n < merged:
                    from_merge.add(key)
                self.lines[path + (key,)] = _line(key_node.start_mark)
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        finally:
            self.active.discard(id(node))


# --------------------------------------------------------------------------- #
# the checker
# --------------------------------------------------------------------------- #
def describe(value: Any) -> str:
    """How a wrong value reads in a message: ``'abc'``, ``a list``, ``nothing``."""
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return repr(shown)
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return f"a list of {len(value)}"
    return f"a {type(value).__name__}"


def yaml_text(value: Any) -> str:
    """A scalar as YAML writes it: ``null``, ``true``, ``1.5``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def suggest(word: Any, choices: Iterable[str]) -> str | None:
    choices = list(choices)
    if not isinstance(word, str):
        word = str(word)
    lower = {c.lower(): c for c in choices}
    if word.lower() in lower:
        return lower[word.lower()]
    hits = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    if not hits:
        hits = difflib.get_close_matches(word.lower(), list(lower), n=1, cutoff=0.6)
        hits = [lower[h] for h in hits]
    return hits[0] if hits else None


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


# YAML 1.1 (PyYAML) reads 1e300, 1e-9 and 1.0e300 as text: only 1.0e+300 is a
# number there. Where a number is expected such a text is one.
_EXPONENT_RE = re.compile(r"^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+$")


class TooLarge(float):
    """A number written in the file that is too large for a float (``1e400``):
    infinite, with the text as written, so that a message can say it in words
    ("1e400 is too large") rather than "inf"."""

    def __new__(cls, value: float = math.inf, text: str = ""):
        out = super().__new__(cls, value)
        out.text = text or repr(float(value))
        return out

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


_INF_TEXT_RE = re.compile(r"^[-+]?\.(?:inf|Inf|INF)$")     # YAML's own infinity: meant, not too large


def too_large(value: Any, text: str) -> Any:
    """``value`` as a :class:`TooLarge` when it is a float that overflowed from ``text``."""
    if isinstance(value, float) and math.isinf(value) and not _INF_TEXT_RE.match(text.strip()):
        return TooLarge(value, text.strip())
    return value


def exponent_number(value: Any) -> Any:
    """``"1e300"`` -> ``1e+300``; ``"1e400"`` -> a :class:`TooLarge`; any other value
    unchanged (NaN and inf stay text)."""
    if isinstance(value, str) and _EXPONENT_RE.match(value.strip()):
        return too_large(float(value.strip()), value)
    return value


# C0 and C1 control characters but the line break and the tab, and the
# bidirectional embeddings, overrides and isolates (U+202A-202E, U+2066-2069),
# which reorder what follows them on the terminal's line: "a\u202e" would print the
# rest of a verdict line (its inches, its cover) backwards
_CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

ID_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:+-]{0,63}$")


class Checker:
    """Collects problems for one file. Every method returns the cleaned value
    or ``None`` after recording what is wrong."""

    def __init__(self, file: str, lines: Lines | None = None):
        self.file = file
        self.lines = lines if lines is not None else Lines()
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []

    # -- recording -------------------------------------------------------- #
    def error(self, path: Sequence[Any], message: str, line: int | None = None) -> None:
        self.problems.append(Problem(self.file, line if line is not None else self.lines.of(path), keypath(path), message))

    def warn(self, path: Sequence[Any], message: str, line: int | None = None) -> None:
        self.warnings.append(Problem(self.file, line if line is not None else self.lines.of(path), keypath(path), WARNING + message))

    def raise_if_any(self) -> None:
        if self.problems:
            raise InputError(self.problems)

    # -- structure -------------------------------------------------------- #
    def mapping(self, value: Any, path: Sequence[Any], what: str = "a mapping") -> dict | None:
        if isinstance(value, dict):
            return value
        self.error(path, f"expected {what}, got {describe(value)}")
        return None

    def sequence(self, value: Any, path: Sequence[Any], what: str = "a list") -> list | None:
        if isinstance(value, list):
            return value
        self.error(path, f"expected {what}, got {describe(value)}")
        return None

    def keys(self, value: dict, path: Sequence[Any], allowed: Iterable[str],
             required: Iterable[str] = (), what: str = "", hints: dict[str, str] | None = None) -> bool:
        """Unknown keys (with a 'did you mean') and missing ones. True if clean."""
        allowed = list(allowed)
        ok = True
        for key in value:
            if key in allowed:
                continue
            ok = False
            guess = suggest(key, allowed)
            where = f" for {what}" if what else ""
            # a key as written: 1 is not the list index [1], ~ is null, not None
            shown = key if isinstance(key, str) else yaml_text(key)
            line = self.lines.of(tuple(path) + (key,))
            if guess is not None:
                self.error(tuple(path) + (shown,), f"unknown key{where}; did you mean '{guess}'?", line=line)
            else:
                self.error(tuple(path) + (shown,), f"unknown key{where}; allowed: {', '.join(sorted(allowed))}",
                           line=line)
        for key in required:
            if key not in value:
                ok = False
                hint = (hints or {}).get(key)
                where = f" ({what} needs {hint})" if what and hint else (f" ({what})" if what else "")
                self.error(tuple(path) + (key,), f"missing{where}", line=self.lines.of(path))
        return ok

    # -- scalars ---------------------------------------------------------- #
    def number(self, value: Any, path: Sequence[Any], *, positive: bool = False, nonneg: bool = False,
               integer: bool = False, lo: float | None = None, hi: float | None = None,
               limit: float | None = MAX_LENGTH) -> float | None:
        kind = "a whole number" if integer else "a number"
        value = exponent_number(value)
        if not _is_number(value):
            self.error(path, f"expected {kind}, got {describe(value)}")
            return None
        if isinstance(value, TooLarge):
            shown = value.text if len(value.text) <= 40 else value.text[:37] + "..."
            self.error(path, f"{shown} is too large" if value > 0 else f"{shown} is too large a negative number")
            return None
        if isinstance(value, int) and abs(value) > 2 ** 53:
            try:                        # YAML integers have no size limit; ours do
                value = float(value)
            except OverflowError:
                self.error(path, f"expected {kind} of a usable size, got one of {len(str(abs(value)))} digits")
                return None
        if integer and isinstance(value, float):
            if not value.is_integer():
                self.error(path, f"expected {kind}, got {describe(value)}")
                return None
            value = int(value)
        if isinstance(value, float) and not math.isfinite(value):
            self.error(path, f"expected a finite number, got {value}")
            return None
        if positive and value <= 0:
            self.error(path, f"must be greater than 0, got {value:g}")
            return None
        if nonneg and value < 0:
            self.error(path, f"must not be negative, got {value:g}")
            return None
        if lo is not None and value < lo:
            self.error(path, f"must be at least {lo:g}, got {value:g}")
            return None
        if hi is not None and value > hi:
            self.error(path, f"must be at most {hi:g}, got {value:g}")
            return None
        if limit is not None and abs(value) > limit:
            self.error(path, f"must be within +-{limit:g}, got {value:g}")
            return None
        return int(value) if integer else float(value)

    def numbers(self, value: Any, path: Sequence[Any], count: int | tuple[int, ...], *,
                positive: bool = False, nonneg: bool = False, names: str = "") -> tuple[float, ...] | None:
        """A list of ``count`` numbers (or one of several counts)."""
        counts = (count,) if isinstance(count, int) else tuple(count)
        want = " or ".join(str(c) for c in counts)
        label = f"{want} numbers" + (f" ({names})" if names else "")
        if not isinstance(value, list):
            self.error(path, f"expected a list of {label}, got {describe(value)}")
            return None
        if len(value) not in counts:
            self.error(path, f"expected {want} numbers, got {len(value)}")
            return None
        out = [self.number(v, tuple(path) + (i,), positive=positive, nonneg=nonneg) for i, v in enumerate(value)]
        if any(v is None for v in out):
            return None
        return tuple(out)

    def string(self, value: Any, path: Sequence[Any], *, choices: Sequence[str] | None = None,
               pattern: re.Pattern | None = None, what: str = "a text", allow_empty: bool = False,
               lines: bool = False) -> str | None:
        """A text. No control characters (an escape sequence would reach the
        player's terminal); a line break only where ``lines`` (free text such
        as a description), else one trailing break is dropped (``name: >``)."""
        if not isinstance(value, str):
            self.error(path, f"expected {what}, got {describe(value)}")
            return None
        if not value.strip() and not allow_empty:
            self.error(path, f"expected {what}, got an empty text")
            return None
        bad = _CONTROL_RE.search(value)
        if bad:
            self.error(path, f"a text may not hold the control character {bad.group()!r} "
                             f"(at character {bad.start() + 1})")
            return None
        if not lines and "\n" in value.rstrip("\n"):
            self.error(path, f"expected {what} on one line, got {value.rstrip(chr(10)).count(chr(10)) + 1} lines")
            return None
        if not lines:
            value = value.rstrip("\n")
        if choices is not None and value not in choices:
            guess = suggest(value, choices)
            hint = f"; did you mean '{guess}'?" if guess else ""
            self.error(path, f"unknown value {value!r}{hint} (allowed: {', '.join(choices)})")
            return None
        if pattern is not None and not pattern.match(value):
            # which character, when one is to blame: "ä" is a letter to the user, not to an id
            odd = next((c for c in value if not (c.isascii() and (c.isalnum() or c in "_.:+-"))), None)
            what = f" ({odd!r} is not allowed)" if odd is not None else ""
            self.error(path, f"{value!r} is not a valid id{what}: the letters A-Z and a-z, digits and - _ . : +, "
                             "at most 64, starting with a letter or digit")
            return None
        return value

    def boolean(self, value: Any, path: Sequence[Any]) -> bool | None:
        if isinstance(value, bool):
            return value
        self.error(path, f"expected true or false, got {describe(value)}")
        return None

    def strings(self, value: Any, path: Sequence[Any], *, choices: Sequence[str] | None = None,
                what: str = "a list of texts", unique: bool = True) -> tuple[str, ...] | None:
        single = isinstance(value, str)
        if single:                      # a single word is fine where a list is expected
            value = [value]
        if not isinstance(value, list):
            self.error(path, f"expected {what}, got {describe(value)}")
            return None
        out: list[str] = []
        ok = True
        for i, v in enumerate(value):
            # a single word's problem is the key's (tags: laddr), not an item's (tags[0])
            s = self.string(v, tuple(path) if single else tuple(path) + (i,), choices=choices)
            if s is None:
                ok = False
            elif unique and s in out:
                self.error(tuple(path) + (i,), f"{s!r} is listed twice")
                ok = False
            else:
                out.append(s)
        return tuple(out) if ok else None


# --------------------------------------------------------------------------- #
# placement (needs the World)
# --------------------------------------------------------------------------- #
EPS_SURFACE = 0.02       # inches: a hitbox may touch a surface (stand on it, lean on a wall)
FLOAT_TOLERANCE = 0.05   # inches: a model whose base is higher than this above its support floats
OVERLAP_TOLERANCE = 1e-3 # inches: hitboxes closer than this are touching, not overlapping
WALKABLE_MIN_NZ = 0.5    # a surface a model may stand on (as engine.world): slopes up to 60 degrees


def hitbox_samples(x: float, y: float, z: float, radius: float, height: float,
                   eps: float = EPS_SURFACE) -> tuple["np.ndarray", "np.ndarray"]:
    """Segments that sweep the inside of a hitbox (a vertical cylinder),
    shrunk by ``eps`` on every side so that touching is not "inside".

    Returns ``(starts (n,3), ends (n,3))`` inches: vertical segments on the
    axis and on two rings (0.5 r and the rim), horizontal chords (8
    diameters + a rim polygon) at 5 heights. A surface that crosses the
    shrunk cylinder crosses at least one of them unless it is smaller than
    the lattice spacing (about r/4 across, height/5 tall).
    """
    import numpy as np

    r = max(radius - eps, radius * 0.5)
    z0, z1 = z + eps, z + max(height - eps, eps * 2)
    starts, ends = [], []
    # vertical segments
    pts = [(0.0, 0.0)]
    for frac, n in ((0.5, 8), (1.0, 16)):
        for k in range(n):
            a = 2 * math.pi * k / n
            pts.append((frac * r * math.cos(a), frac * r * math.sin(a)))
    for px, py in pts:
        starts.append((x + px, y + py, z0))
        ends.append((x + px, y + py, z1))
    # horizontal chords and rim polygon at several heights
    levels = np.linspace(z0, z1, 5)
    rim = 16
    for zz in levels:
        for k in range(8):
            a = math.pi * k / 8
            c, s = math.cos(a) * r, math.sin(a) * r
            starts.append((x - c, y - s, zz))
            ends.append((x + c, y + s, zz))
        for k in range(rim):
            a0, a1 = 2 * math.pi * k / rim, 2 * math.pi * (k + 1) / rim
            starts.append((x + r * math.cos(a0), y + r * math.sin(a0), zz))
            ends.append((x + r * math.cos(a1), y + r * math.sin(a1), zz))
    return np.asarray(starts, float), np.asarray(ends, float)


def _piece_name(pieces, index: int) -> str:
    if 0 <= index < len(pieces) and pieces[index].id != "table":
        return pieces[index].id
    return "the table"


_EDGE_CACHE: dict[int, tuple] = {}


def _terrain_edges(world):
    """Unique edges of the static terrain: (a (e,3), b (e,3), lo (e,3), hi (e,3),
    min nz of the faces on each edge (e,), piece index (e,)). Cached per mesh."""
    import numpy as np
    mesh = world.terrain
    key = id(mesh)
    hit = _EDGE_CACHE.get(key)
    if hit is not None and hit[0] is mesh:
        return hit[1]
    edges = np.asarray(mesh.edges_unique)
    inverse = np.asarray(mesh.edges_unique_inverse)
    faces_of = np.asarray(mesh.edges_face)
    nz = np.asarray(mesh.face_normals)[:, 2]
    min_nz = np.full(len(edges), np.inf)
    np.minimum.at(min_nz, inverse, nz[faces_of])
    piece = np.zeros(len(edges), dtype=np.int64)
    piece[inverse] = np.asarray(world.tri_piece)[faces_of]
    v = np.asarray(mesh.vertices)
    a, b = v[edges[:, 0]], v[edges[:, 1]]
    data = (a, b, np.minimum(a, b), np.maximum(a, b), min_nz, piece)
    if len(_EDGE_CACHE) > 8:
        _EDGE_CACHE.clear()
    _EDGE_CACHE[key] = (mesh, data)
    return data


def _edges_through(world, hb, pieces) -> list[str]:
    """Pieces with a triangle edge inside the (shrunk) hitbox: exact where the
    sampled segments can miss a corner or a thin sliver. Edges between two
    walkable faces (a slope the base stands on) may rise under the base by
    radius * tan(slope), as in the sampled test."""
    import numpy as np
    from engine.world import segments_hit_cylinders
    a, b, lo, hi, min_nz, piece = _terrain_edges(world)
    r = max(float(hb.radius) - EPS_SURFACE, float(hb.radius) * 0.5)
    z0 = float(hb.z) + EPS_SURFACE
    z1 = float(hb.z) + max(float(hb.height) - EPS_SURFACE, 2 * EPS_SURFACE)
    x, y = float(hb.x), float(hb.y)
    near = ((hi[:, 0] >= x - r) & (lo[:, 0] <= x + r) & (hi[:, 1] >= y - r) & (lo[:, 1] <= y + r)
            & (hi[:, 2] >= z0) & (lo[:, 2] <= z1))
    idx = np.nonzero(near)[0]
    if len(idx) == 0:
        return []
    t = segments_hit_cylinders(a[idx], b[idx], np.array([[x, y, z0]]), np.array([r]), np.array([z1 - z0]))[:, 0]
    inside = np.isfinite(t)
    if not inside.any():
        return []
    idx, t = idx[inside], t[inside]
    # the part of each edge inside the cylinder: its lowest point decides for slopes
    p_in = a[idx] + (b[idx] - a[idx]) * t[:, None]
    nz = min_nz[idx]
    walk = nz >= WALKABLE_MIN_NZ
    with np.errstate(divide="ignore", invalid="ignore"):
        rise = float(hb.radius) * np.sqrt(np.maximum(0.0, 1 - nz * nz)) / np.maximum(nz, 1e-9)
    standing = walk & (np.minimum(p_in[:, 2], np.minimum(a[idx, 2], b[idx, 2]).clip(min=z0))
                       <= float(hb.z) + rise + 2 * EPS_SURFACE)
    names: list[str] = []
    for pi in piece[idx[~standing]]:
        name = _piece_name(pieces, int(pi))
        if name not in names:
            names.append(name)
    return names


HANG_TOLERANCE = 0.05    # inches: a base this close to a steep face of a solid piece hangs on it
HANG_SEARCH = 1.0        # inches: a steep face this near a floating base is named in the problem


def _slab_distance(tri: "np.ndarray", x: float, y: float, z0: float, z1: float) -> float:
    """Horizontal distance from the vertical line through (x, y) to the part of
    the triangle ``tri`` (3, 3) between heights z0 and z1 (inf when it has none):
    the triangle clipped to the slab, projected, its distance to the point."""
    poly = [tuple(v) for v in tri]
    for lo, sign in ((z0, 1.0), (z1, -1.0)):         # keep z >= z0, then z <= z1
        out = []
        for k, a in enumerate(poly):
            b = poly[(k + 1) % len(poly)]
            da, db = sign * (a[2] - lo), sign * (b[2] - lo)
            if da >= 0:
                out.append(a)
            if (da >= 0) != (db >= 0):
                t = da / (da - db)
                out.append(tuple(a[i] + t * (b[i] - a[i]) for i in range(3)))
        poly = out
        if not poly:
            return math.inf
    best = math.inf
    inside = len(poly) >= 3
    sign0 = 0.0
    for k, a in enumerate(poly):
        b = poly[(k + 1) % len(poly)]
        ex, ey = b[0] - a[0], b[1] - a[1]
        px, py = x - a[0], y - a[1]
        ee = ex * ex + ey * ey
        t = 0.0 if ee <= 0 else min(1.0, max(0.0, (px * ex + py * ey) / ee))
        best = min(best, math.hypot(px - t * ex, py - t * ey))
        cross = ex * py - ey * px
        if abs(cross) > 1e-12:
            if sign0 == 0.0:
                sign0 = math.copysign(1.0, cross)
            elif math.copysign(1.0, cross) != sign0:
                inside = False
    return 0.0 if inside and sign0 != 0.0 else best


def steep_face_near(world, x: float, y: float, z: float, radius: float,
                    search: float = HANG_TOLERANCE) -> tuple[str, float] | None:
    """The solid piece with a steep face (a vertical surface: too steep to stand
    on) nearest to the rim of a base of ``radius`` at (x, y, z), at the base's
    height (within :data:`HANG_TOLERANCE` up or down), and the gap between them
    in inches (0 when touching); None when no such face is within ``search``.
    Exact: each triangle is clipped to that height band."""
    import numpy as np
    mesh = world.terrain
    if len(getattr(mesh, "faces", ())) == 0:
        return None
    tris = np.asarray(mesh.triangles)
    nz = np.asarray(mesh.face_normals)[:, 2]
    lo, hi = tris.min(axis=1), tris.max(axis=1)
    reach = radius + search
    z0, z1 = z - HANG_TOLERANCE, z + HANG_TOLERANCE
    tri_piece = np.asarray(world.tri_piece)
    near = ((np.abs(nz) < WALKABLE_MIN_NZ) & (tri_piece != 0)
            & (hi[:, 0] >= x - reach) & (lo[:, 0] <= x + reach) & (hi[:, 1] >= y - reach)
            & (lo[:, 1] <= y + reach) & (hi[:, 2] >= z0) & (lo[:, 2] <= z1))
    best: tuple[str, float] | None = None
    for t in np.nonzero(near)[0]:
        gap = max(0.0, _slab_distance(tris[t], x, y, z0, z1) - radius)
        if gap <= search and (best is None or gap < best[1]):
            best = (_piece_name(list(world.pieces), int(tri_piece[t])), gap)
    return best


def hanging_models(world: "World") -> dict[str, str]:
    """Models the scene leaves hanging on a vertical surface (a Climb that ended
    there: eldfall-actions.txt, "May end movement on a vertical surface"):
    model id -> the solid piece whose face it hangs on.

    A model hangs when the scene gives its z, it is not Flying, the highest
    support under its base is more than :data:`FLOAT_TOLERANCE` below that z,
    and its base touches a steep face of a solid piece (within
    :data:`HANG_TOLERANCE`) at that height. Each is put in the World at the
    scene's z (``World.add_model`` would have stood it on the support below);
    calling this again changes nothing, and a model moved since (a game) is
    left where it is.
    """
    out: dict[str, str] = {}
    for mid in world.model_ids():
        hb = world.hitbox(mid)
        spec = hb.spec
        given = spec.at[2] if spec is not None and len(spec.at) > 2 else None
        if given is None or "Flying" in hb.states:
            continue
        x, y, z, r = float(hb.x), float(hb.y), float(given), float(hb.radius)
        if abs(x - float(spec.at[0])) > 1e-9 or abs(y - float(spec.at[1])) > 1e-9:
            continue                    # moved since (a game): where it is now is not the scene's
        support = world.stand_z(x, y, r, near_z=z)
        if z - support <= FLOAT_TOLERANCE:
            continue
        if abs(float(hb.z) - z) > 1e-9 and abs(float(hb.z) - support) > 1e-9:
            continue                    # moved since, up or down where it was
        face = steep_face_near(world, x, y, z, r)
        if face is None:
            continue
        out[mid] = face[0]
        if abs(float(hb.z) - z) > 1e-12:
            world.move_model(mid, x, y, z)
    return out


def check_placement(world: "World") -> list[Problem]:
    """Where models stand, against the table, each other and the terrain.

    * a base footprint that is not inside the table;
    * two hitboxes (vertical cylinders) that overlap by more than
      :data:`OVERLAP_TOLERANCE` (touching is base contact, allowed);
    * a hitbox that a solid terrain surface passes through, or that lies
      wholly inside a solid piece (standing on a surface or leaning on a
      wall is allowed: the hitbox is shrunk by :data:`EPS_SURFACE`);
    * a model not Flying whose base is more than :data:`FLOAT_TOLERANCE`
      above the highest support under it.

    Everything is measured on the World's own triangles, in one batch of
    rays for all models. Returns the problems (empty when all is well).
    """
    import numpy as np

    scene = world.scene
    file = scene.path or "<scene>"
    table_w, table_d = (float(v) for v in world.table)
    problems: list[Problem] = []
    hanging_models(world)               # a model hanging on a face is checked where it hangs
    ids = list(world.model_ids())
    boxes = [world.hitbox(i) for i in ids]
    pieces = list(world.pieces)

    def where(hb, key=""):
        spec = hb.spec
        idx = getattr(spec, "index", None)
        path = f"models[{idx}]" if idx is not None else f"models.{hb.id}"
        line = (getattr(spec, "key_lines", None) or {}).get(key) or getattr(spec, "line", 0) or None
        return file, line, path + (f".{key}" if key else "")

    # 1. the table
    for hb in boxes:
        x, y, r = float(hb.x), float(hb.y), float(hb.radius)
        if x - r < -1e-9 or y - r < -1e-9 or x + r > table_w + 1e-9 or y + r > table_d + 1e-9:
            f, ln, p = where(hb, "at")
            problems.append(Problem(f, ln, p, (
                f"model '{hb.id}' is off the table: its base spans x {x - r:.2f}..{x + r:.2f}, "
                f"y {y - r:.2f}..{y + r:.2f}; the table is {table_w:g} x {table_d:g}")))

    # 2. each other (3D: circles in plan and intervals in z)
    for a in range(len(boxes)):
        A = boxes[a]
        for b in range(a + 1, len(boxes)):
            B = boxes[b]
            plan = math.hypot(float(A.x) - float(B.x), float(A.y) - float(B.y))
            depth_plan = float(A.radius) + float(B.radius) - plan
            za0, za1 = float(A.z), float(A.z) + float(A.height)
            zb0, zb1 = float(B.z), float(B.z) + float(B.height)
            depth_z = min(za1, zb1) - max(za0, zb0)
            if depth_plan > OVERLAP_TOLERANCE and depth_z > OVERLAP_TOLERANCE:
                f, ln, p = where(B, "at")
                problems.append(Problem(f, ln, p, (
                    f"model '{B.id}' overlaps model '{A.id}' "
                    f"({depth_plan:.2f}\" in plan, {depth_z:.2f}\" in height)")))

    # 3. terrain: segments through each hitbox, one batch for all models
    if boxes and len(getattr(world.terrain, "faces", ())) > 0:
        seg_s, seg_e, owner = [], [], []
        for k, hb in enumerate(boxes):
            s, e = hitbox_samples(float(hb.x), float(hb.y), float(hb.z), float(hb.radius), float(hb.height))
            seg_s.append(s)
            seg_e.append(e)
            owner.append(np.full(len(s), k))
        s = np.concatenate(seg_s)
        e = np.concatenate(seg_e)
        owner = np.concatenate(owner)
        vec = e - s
        length = np.linalg.norm(vec, axis=1)
        dirs = vec / np.maximum(length, 1e-12)[:, None]
        dist, tri = world.rays.first_hit(s, dirs)
        dist = np.asarray(dist, float)
        tri = np.asarray(tri, int)
        hit = (tri >= 0) & (dist <= length)
        # a base on a slope: the walkable surface it stands on rises under the
        # uphill half of the base by up to radius * tan(slope); that is not "inside"
        normals = np.asarray(world.terrain.face_normals)
        if hit.any():
            nz = normals[np.maximum(tri, 0), 2]
            hit_z = s[:, 2] + dirs[:, 2] * np.where(hit, dist, 0.0)
            base_z = np.array([float(hb.z) for hb in boxes])[owner]
            radius = np.array([float(hb.radius) for hb in boxes])[owner]
            with np.errstate(divide="ignore", invalid="ignore"):
                rise = radius * np.sqrt(np.maximum(0.0, 1 - nz * nz)) / np.maximum(nz, 1e-9)
            standing = (nz >= WALKABLE_MIN_NZ) & (hit_z <= base_z + rise + 2 * EPS_SURFACE)
            hit &= ~standing
        # wholly inside a solid: the first surface straight up (and down, and
        # sideways) from the hitbox centre faces away from the ray
        centres = np.array([(float(hb.x), float(hb.y), float(hb.z) + float(hb.height) / 2) for hb in boxes])
        probe_dirs = np.array([(0, 0, 1), (0, 0, -1), (1, 0, 0), (0, 1, 0), (-1, 0, 0)], float)
        po = np.repeat(centres, len(probe_dirs), axis=0)
        pd = np.tile(probe_dirs, (len(boxes), 1))
        pdist, ptri = world.rays.first_hit(po, pd)
        ptri = np.asarray(ptri, int)
        facing_away = np.zeros(len(ptri), bool)
        okp = ptri >= 0
        facing_away[okp] = np.einsum("ij,ij->i", normals[ptri[okp]], pd[okp]) > 1e-6
        facing_away = facing_away.reshape(len(boxes), len(probe_dirs))
        pieces_of_probe = np.full(len(ptri), -1)
        tri_piece = np.asarray(world.tri_piece)
        pieces_of_probe[okp] = tri_piece[ptri[okp]]
        pieces_of_probe = pieces_of_probe.reshape(len(boxes), len(probe_dirs))
        for k, hb in enumerate(boxes):
            mine = hit & (owner == k)
            names = []
            if mine.any():
                for t in tri[mine]:
                    pi = int(tri_piece[t])
                    name = _piece_name(pieces, pi)
                    if name not in names:
                        names.append(name)
            if not names:
                names = _edges_through(world, hb, pieces)
            if not names and facing_away[k].sum() >= 3:
                for pi in pieces_of_probe[k][facing_away[k]]:
                    name = _piece_name(pieces, int(pi))
                    if name not in names:
                        names.append(name)
            if names:
                f, ln, p = where(hb, "at")
                quoted = ", ".join(f"'{n}'" if n != "the table" else n for n in names[:3])
                why = ""
                at = hb.spec.at if hb.spec is not None else (None, None, 0.0)
                if at[2] is None and (float(hb.x), float(hb.y)) == (float(at[0]), float(at[1])):
                    # the scene left z out: the World stood it on the top surface under its centre
                    _, tri0 = world.rays.first_hit(np.array([[float(hb.x), float(hb.y), world.top_z]]),
                                                   np.array([[0.0, 0.0, -1.0]]))
                    t0 = int(np.asarray(tri0)[0])
                    if t0 >= 0 and normals[t0, 2] < WALKABLE_MIN_NZ:
                        why = (" (the scene gives no z, and the surface under its centre is too steep "
                               "to stand on: more than 60 degrees)")
                problems.append(Problem(f, ln, p, f"model '{hb.id}' is inside terrain: its hitbox "
                                                  f"intersects {quoted}{why}"))
                continue
            # 4. floating: the scene gave z, and the World found no support there
            spec = hb.spec
            given_z = spec.at[2] if spec is not None and len(spec.at) > 2 else None
            if given_z is None or "Flying" in hb.states:
                continue
            if float(given_z) - float(hb.z) > FLOAT_TOLERANCE:
                f, ln, p = where(hb, "at")
                near = steep_face_near(world, float(hb.x), float(hb.y), float(given_z), float(hb.radius),
                                       search=HANG_SEARCH)
                hang = (f"; its base is {near[1]:.2f}\" from the face of '{near[0]}' (a model hangs on a "
                        f"vertical surface its base touches, within {HANG_TOLERANCE:g}\")") if near else ""
                problems.append(Problem(f, ln, p, (
                    f"model '{hb.id}' floats: the scene puts its base at z {float(given_z):.2f} but the highest "
                    f"surface under it is at z {round(float(hb.z), 2) + 0.0:.2f}{hang} (leave z out to stand it "
                    f"there, or give it the Flying state)")))
    problems.extend(_token_placement(world, file))
    problems.sort(key=lambda pr: pr.line or 0)
    return problems


def _token_placement(world, file: str) -> list[Problem]:
    """Tokens (``Scene.tokens``): one given a z must lie on a surface there
    (else it floats) and no token may lie inside a solid piece (rays from its
    centre, as for a hitbox's centre, in one batch)."""
    import numpy as np
    tokens = list(getattr(world.scene, "tokens", ()) or ())
    if not tokens:
        return []
    out: list[Problem] = []
    xy = np.array([[t.at[0], t.at[1]] for t in tokens], float)
    given = np.array([np.nan if t.at[2] is None else float(t.at[2]) for t in tokens])
    top = world.surface_height(xy)
    below = world.surface_height(xy, below=np.where(np.isnan(given), top, given))
    z = np.where(np.isnan(given), top, given)
    inside = _tokens_inside(world, tokens, xy, z, file)
    out.extend(inside.values())
    for k, t in enumerate(tokens):
        where = f"tokens[{t.index}].at" if t.index >= 0 else f"tokens.{t.id}.at"
        if t.id in inside:
            continue
        if not np.isnan(given[k]) and (not np.isfinite(below[k]) or given[k] - below[k] > FLOAT_TOLERANCE):
            sup = float(below[k]) if np.isfinite(below[k]) else 0.0
            out.append(Problem(file, getattr(t, "at_line", 0) or t.line or None, where, (
                f"token '{t.id}' floats: the scene puts it at z {given[k]:.2f} but the highest surface "
                f"under it is at z {round(sup, 2) + 0.0:.2f} (leave z out to lay it there)")))
    return out


def _tokens_inside(world, tokens, xy, z, file: str) -> dict:
    """token id -> the Problem of a token whose centre lies inside a solid piece."""
    import numpy as np
    out: dict = {}
    if len(getattr(world.terrain, "faces", ())) == 0:
        return out
    probe_dirs = np.array([(0, 0, 1), (0, 0, -1), (1, 0, 0), (0, 1, 0), (-1, 0, 0)], float)
    centres = np.column_stack([xy, np.nan_to_num(z) + EPS_SURFACE])
    po = np.repeat(centres, len(probe_dirs), axis=0)
    pd = np.tile(probe_dirs, (len(tokens), 1))
    _, ptri = world.rays.first_hit(po, pd)
    ptri = np.asarray(ptri, int)
    normals = np.asarray(world.terrain.face_normals)
    away = np.zeros(len(ptri), bool)
    ok = ptri >= 0
    away[ok] = np.einsum("ij,ij->i", normals[ptri[ok]], pd[ok]) > 1e-6
    away = away.reshape(len(tokens), len(probe_dirs))
    tri_piece = np.asarray(world.tri_piece)
    pieces = list(world.pieces)
    for k, t in enumerate(tokens):
        if away[k].sum() >= 3:
            idx = [int(tri_piece[ptri[k * len(probe_dirs) + j]]) for j in range(len(probe_dirs))
                   if away[k, j]]
            name = _piece_name(pieces, idx[0])
            where = f"tokens[{t.index}].at" if t.index >= 0 else f"tokens.{t.id}.at"
            out[t.id] = Problem(file, getattr(t, "at_line", 0) or t.line or None, where,
                                f"token '{t.id}' is inside terrain: it lies within '{name}'")
    return out
