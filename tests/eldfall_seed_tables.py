"""The tables of the user's Eldfall seed pages, parsed for table-driven tests.

The seeds live beside the clone: ``<repo>/../shared/seeds/``. When they are
there, the tables are parsed from them (MediaWiki ``{| ... |}`` tables, and
the tab-separated tables of the Reactions page). When they are not, the same
parser reads the transcription kept in ``eldfall_seed_transcription.py``
(a verbatim copy of every table and its heading), so the tests always run.
``test_transcription_matches_seeds`` keeps the two in step.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# ELDFALL_SEEDS overrides the place (point it at nothing to test the fallback)
SEEDS_DIR = Path(os.environ.get("ELDFALL_SEEDS") or REPO.parent / "shared" / "seeds")

PAGES = ("eldfall-actions.txt", "eldfall-actions-attack-section.txt",
         "eldfall-reactions.txt", "eldfall-states.txt")


@dataclass(frozen=True)
class Table:
    page: str
    heading: str            # the section heading above the table
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def column(self, name: str) -> int:
        return self.header.index(name)

    def dicts(self) -> list[dict[str, str]]:
        return [dict(zip(self.header, r)) for r in self.rows]


def clean(cell: str) -> str:
    """Wiki markup to plain text: [[a|b]] -> b, [[a]] -> a, '''x''' -> x."""
    cell = re.sub(r"\[\[[^\]|]*\|([^\]]*)\]\]", r"\1", cell)
    cell = re.sub(r"\[\[([^\]]*)\]\]", r"\1", cell)
    cell = cell.replace("'''", "").replace("''", "")
    return cell.strip()


_HEADING = re.compile(r"^(=+)\s*(.*?)\s*\1\s*$")


def parse_wikitables(page: str, text: str) -> list[Table]:
    tables: list[Table] = []
    heading = ""
    header: list[str] | None = None
    rows: list[list[str]] = []
    current: list[str] | None = None
    inside = False
    for raw in text.splitlines():
        line = raw.strip()
        m = _HEADING.match(line)
        if m and not inside:
            heading = m.group(2)
            continue
        if line.startswith("{|"):
            inside, header, rows, current = True, None, [], None
            continue
        if not inside:
            continue
        if line.startswith("|}"):
            if current:
                rows.append(current)
            tables.append(Table(page, heading, tuple(header or ()), tuple(tuple(r) for r in rows)))
            inside = False
            continue
        if line.startswith("!"):
            header = [clean(c) for c in line[1:].split("!!")]
        elif line.startswith("|-"):
            if current:
                rows.append(current)
            current = []
        elif line.startswith("|"):
            if current is None:
                current = []
            current.extend(clean(c) for c in line[1:].split("||"))
    return tables


def parse_tab_tables(page: str, text: str) -> list[Table]:
    """Tables written as tab-separated lines (the Reactions page)."""
    tables: list[Table] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        if "\t" in lines[i]:
            heading = ""
            for j in range(i - 1, -1, -1):
                if lines[j].strip():
                    heading = lines[j].strip()
                    break
            header = tuple(c.strip() for c in lines[i].split("\t"))
            rows = []
            i += 1
            while i < len(lines) and "\t" in lines[i]:
                rows.append(tuple(c.strip() for c in lines[i].split("\t")))
                i += 1
            tables.append(Table(page, heading, header, tuple(rows)))
        else:
            i += 1
    return tables


def parse_page(page: str, text: str) -> list[Table]:
    return parse_wikitables(page, text) + parse_tab_tables(page, text)


def seeds_present() -> bool:
    return all((SEEDS_DIR / p).is_file() for p in PAGES)


def page_tables(page: str) -> list[Table]:
    """Every table of ``page``: from the seeds when present, else the transcription."""
    if seeds_present():
        return parse_page(page, (SEEDS_DIR / page).read_text(encoding="utf-8"))
    import sys
    here = str(Path(__file__).resolve().parent)
    if here not in sys.path:
        sys.path.insert(0, here)
    from eldfall_seed_transcription import TRANSCRIPTION
    return parse_page(page, TRANSCRIPTION[page])


def table(page: str, heading: str) -> Table:
    found = [t for t in page_tables(page) if t.heading == heading]
    if len(found) != 1:
        raise LookupError(f"{page}: {len(found)} tables under heading {heading!r}")
    return found[0]
