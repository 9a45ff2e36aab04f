"""Randomness as the rules receive it: a parameter, never a global."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

__all__ = ["RandomSource", "seeded"]


@runtime_checkable
class RandomSource(Protocol):
    """What the rules need of a random generator (``random.Random`` or ``SystemRandom``)."""

    def randint(self, a: int, b: int, /) -> int:  # pragma: no cover - protocol
        """A uniform integer in ``a..b``, both inclusive."""
        ...


def seeded(seed: int) -> RandomSource:
    """A reproducible generator for a caller's ``seed`` (never for secrecy)."""
    return random.Random(seed)  # noqa: S311 - a seed asks for a reproducible roll
