"""Units and the size table.

Every length in the engine is in inches; keys that end in ``_mm`` are
millimetres. z is up, the table origin is a corner, facing is in degrees
counter-clockwise from +x.
"""
from __future__ import annotations

import functools
from pathlib import Path

import yaml

MM_PER_INCH = 25.4
DATA = Path(__file__).with_name("data")


def mm(value_mm: float) -> float:
    """Millimetres -> inches."""
    return float(value_mm) / MM_PER_INCH


@functools.lru_cache(maxsize=None)
def size_table() -> dict:
    """The size codes (S M L H G C E) with ``base_mm`` and ``height_mm``."""
    with open(DATA / "sizes.yaml", encoding="utf-8") as fh:
        table = yaml.safe_load(fh)
    return {k: v for k, v in table.items() if isinstance(v, dict)}


@functools.lru_cache(maxsize=None)
def base_height_mm() -> float:
    with open(DATA / "sizes.yaml", encoding="utf-8") as fh:
        return float(yaml.safe_load(fh)["base_height_mm"])


def inches_over(value: float, limit: float) -> str:
    """``value`` (more than ``limit``) with two decimals, or as many more (up to six) as it
    takes to print it above the limit: a route costing 10.004" against 10" reads "10.004",
    never "10.00" (which a player reads as within the allowance)."""
    for d in range(2, 7):
        text = f"{value:.{d}f}"
        if float(text) > limit:
            return text
    return f"{value:.6f}"
