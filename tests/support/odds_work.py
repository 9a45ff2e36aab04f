"""Work for the odds gate's tests that holds the interpreter as the heaviest exact odds
do: one big-integer multiplication, which no thread switch interrupts. Module-level, so a
pool process imports it by name as it would a ruleset's odds."""

from __future__ import annotations

from service.kernel.values import Value

__all__ = ["Square", "Squared", "square", "square_cost"]


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
