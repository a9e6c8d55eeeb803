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
