"""The server's dice: the system's random source, read in blocks rather than once a die.

``random.SystemRandom.randint`` reads ``os.urandom`` once per die, through four Python
calls (``randint``, ``randrange``, ``_randbelow``, ``getrandbits``): in a stateless check
that was more than a tenth of its instructions, for one byte of entropy. Here a die of
at most 256 faces takes one byte from a block of ``BYTES_PER_DRAW`` read at once, by
rejection sampling, so every face stays exactly equally likely; anything else
(larger ranges, ``random()``) is ``SystemRandom``'s own.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

__all__ = ["BYTES_PER_DRAW", "SystemDice"]

# Bytes read per system call (a d20 uses one byte 94 % of the time: 240 of 256 values).
BYTES_PER_DRAW = 4096
_bytes: Iterator[int] = iter(b"")


def _forget_bytes() -> None:
    """A forked child draws its own: the parent's remaining bytes are the parent's."""
    global _bytes
    _bytes = iter(b"")


os.register_at_fork(after_in_child=_forget_bytes)


def _byte() -> int:
    # ``next`` on a bytes iterator is atomic: two threads never share a byte.
    global _bytes
    try:
        return next(_bytes)
    except StopIteration:
        _bytes = iter(os.urandom(BYTES_PER_DRAW))
        return next(_bytes)


class SystemDice(random.SystemRandom):
    """``SystemRandom`` whose ``randint`` reads buffered system randomness (see the module)."""

    def randint(self, a: int, b: int) -> int:
        """A uniform integer in ``a..b``, both inclusive."""
        faces = b - a + 1
        if not 0 < faces <= 256:
            return super().randint(a, b)
        # The largest multiple of ``faces`` within a byte: bytes from it up are redrawn, so
        # each face is reached by exactly as many byte values.
        accepted = 256 - 256 % faces
        while (value := _byte()) >= accepted:
            pass
        return a + value % faces
