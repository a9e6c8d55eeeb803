"""Seeded dice owned by a game.

A :class:`Dice` is either seeded (``Dice(seed)``: Python's Mersenne Twister,
whose state is fully determined by the seed and the rolls made since) or a fixed
sequence injected by a test (``Dice.fixed([1, 20, 7])``). The game reports every
roll as an event; the dice themselves only produce numbers.
"""
from __future__ import annotations

import hashlib
import random
from typing import Iterable


class DiceExhausted(RuntimeError):
    """A fixed sequence ran out of values."""


class Dice:
    def __init__(self, seed: int | None = 0):
        self.seed = 0 if seed is None else int(seed)
        self._rng = random.Random(self.seed)
        self._fixed: list[int] | None = None
        self._pos = 0
        self.count = 0                   # rolls made so far

    @classmethod
    def fixed(cls, values: Iterable[int], seed: int = 0) -> "Dice":
        """Dice that return ``values`` in order (then raise :class:`DiceExhausted`)."""
        d = cls(seed)
        d._fixed = [int(v) for v in values]
        return d

    @property
    def is_fixed(self) -> bool:
        return self._fixed is not None

    def roll(self, sides: int = 20, why: str = "") -> int:
        """One die of ``sides`` faces, 1..sides."""
        if sides < 1:
            raise ValueError(f"a die needs at least one side, not {sides}")
        if self._fixed is not None:
            if self._pos >= len(self._fixed):
                raise DiceExhausted(f"fixed dice exhausted after {self._pos} rolls ({why or 'roll'})")
            value = self._fixed[self._pos]
            self._pos += 1
            if not 1 <= value <= sides:
                raise ValueError(f"fixed die value {value} is not a d{sides} result ({why})")
        else:
            value = self._rng.randint(1, sides)
        self.count += 1
        return value

    def remaining(self) -> list[int] | None:
        """What is left of a fixed sequence (None for seeded dice)."""
        return None if self._fixed is None else self._fixed[self._pos:]

    def state_digest(self) -> str:
        """A short digest of the generator state: equal digests, equal futures."""
        if self._fixed is not None:
            return f"fixed:{self._pos}:{len(self._fixed)}"
        h = hashlib.sha256(repr(self._rng.getstate()).encode()).hexdigest()
        return f"seed:{self.seed}:{self.count}:{h[:16]}"

    def __repr__(self) -> str:
        if self._fixed is not None:
            return f"Dice.fixed({self._fixed!r})"
        return f"Dice({self.seed})"
