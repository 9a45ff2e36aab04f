"""Randomness as the rules receive it: a parameter, never a global."""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

__all__ = ["RandomSource", "RecordingDice", "seeded", "with_seed"]


@runtime_checkable
class RandomSource(Protocol):
    """What the rules need of a random generator (``random.Random`` or ``SystemRandom``)."""

    def randint(self, a: int, b: int, /) -> int:  # pragma: no cover - protocol
        """A uniform integer in ``a..b``, both inclusive."""
        ...


def seeded(seed: int) -> RandomSource:
    """A reproducible generator for a caller's ``seed`` (never for secrecy)."""
    return random.Random(seed)  # noqa: S311 - a seed asks for a reproducible roll


class RecordingDice:
    """Dice that keep every face they give, in rolling order: what a roll receipt signs.

    Rules see a plain :class:`RandomSource`; only a request that asks for a receipt pays
    for the recording.
    """

    __slots__ = ("_source", "faces", "seeded")

    def __init__(self, source: RandomSource, faces: list[int] | None = None) -> None:
        self._source = source
        self.faces: list[int] = [] if faces is None else faces
        self.seeded = False  # some face came from a caller's seed (with_seed)

    def randint(self, a: int, b: int, /) -> int:
        """A face of ``source``, recorded."""
        face = self._source.randint(a, b)
        self.faces.append(face)
        return face


def with_seed(rng: RandomSource, seed: int | None) -> RandomSource:
    """The dice a roll uses: ``rng``, or reproducible ones for a caller's ``seed``. When
    ``rng`` records, the seeded dice record on the same tape, so a receipt lists them, and
    ``rng`` notes that the caller's seed chose them."""
    if seed is None:
        return rng
    dice = seeded(seed)
    if isinstance(rng, RecordingDice):
        rng.seeded = True
        return RecordingDice(dice, rng.faces)
    return dice
