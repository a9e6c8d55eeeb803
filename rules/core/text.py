"""Shared pieces of the actions' text form."""
from __future__ import annotations


def split_keywords(tokens: list[str]) -> tuple[list[str], dict[str, str]]:
    """Split ``["a", "k=v"]`` into positional words and ``key=value`` pairs.

    A key given twice is a ``ValueError``.
    """
    pos: list[str] = []
    kw: dict[str, str] = {}
    for t in tokens:
        if "=" in t:
            k, v = t.split("=", 1)
            if k in kw:
                raise ValueError(f"{k}= given twice")
            kw[k] = v
        else:
            pos.append(t)
    return pos, kw


def point_words(p, digits: int = 1) -> str:
    """A point of the table as a reader takes it: ``(x, y)``, and its height when it is off
    the table (``(12.0, 5.0), 3.00" up``): a move onto a tower does not end on the ground.
    The height to 0.01" whatever ``digits`` (as ``eldfall los`` gives heights): a floor at
    2.75" does not read "2.8" up", a wall top at 3.95" not "4.0" up"."""
    xy = "(" + ", ".join(f"{float(v):.{digits}f}" for v in p[:2]) + ")"
    z = float(p[2]) if len(p) > 2 else 0.0
    return xy + (f", {z:.2f}\" up" if round(z, 2) > 0 else "")


def side_wins(side: str) -> str:
    """"red wins", "foes win": a side named by a plural noun (Legends of Norova's "foes")
    takes the plural verb.

    >>> side_wins("red"), side_wins("foes"), side_wins("party"), side_wins("Black Cross")
    ('red wins', 'foes win', 'party wins', 'Black Cross wins')
    """
    word = str(side).split()[-1] if str(side).split() else str(side)
    plural = len(word) > 2 and word.endswith("s") and not word.endswith(("ss", "us", "is"))
    return f"{side} {'win' if plural else 'wins'}"
