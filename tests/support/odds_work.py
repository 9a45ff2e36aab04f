"""Work for the odds gate's tests that holds the interpreter as the heaviest exact odds
do: one big-integer multiplication, which no thread switch interrupts. Module-level, so a
pool process imports it by name as it would a ruleset's odds."""

from __future__ import annotations

import os
import sys

from service.kernel.values import Value

__all__ = [
    "Imported",
    "Modules",
    "Square",
    "Squared",
    "Who",
    "Whose",
    "imported",
    "imported_cost",
    "square",
    "square_cost",
    "square_underestimated",
    "whose",
    "whose_cost",
]


class Square(Value, frozen=True, kw_only=True):
    """Square the ``bits``-bit number of all ones."""

    bits: int


class Squared(Value, frozen=True, kw_only=True):
    bits: int


def square(data: Square) -> Squared:
    ones = (1 << data.bits) - 1
    return Squared(bits=(ones * ones).bit_length())


def square_cost(data: Square) -> float:
    """µs: a few hundred thousand for four million bits."""
    return data.bits / 10


def square_underestimated(data: Square) -> float:
    """A thousandth of :func:`square_cost`: a cost function with a bug, as a ruleset's
    could have one (forty million bits, about 4 ms: a pool's work, not a refusal)."""
    return data.bits / 10_000


class Modules(Value, frozen=True, kw_only=True):
    names: tuple[str, ...]


class Imported(Value, frozen=True, kw_only=True):
    names: tuple[str, ...]


def imported(data: Modules) -> Imported:
    """Which of ``names`` the process computing this has imported."""
    return Imported(names=tuple(name for name in data.names if name in sys.modules))


def imported_cost(data: Modules) -> float:
    return 10.0


class Who(Value, frozen=True, kw_only=True):
    asking: int  # a different number, a different request (no cache answers it)


class Whose(Value, frozen=True, kw_only=True):
    pid: int


def whose(data: Who) -> Whose:
    """Which process computed this."""
    return Whose(pid=os.getpid())


def whose_cost(data: Who) -> float:
    return 10.0
