"""One shape for every probability an odds answer gives: ``{p, exact}``.

``exact`` is the probability as a reduced fraction, always ``numerator/denominator``
(``0/1`` and ``1/1`` included), so a client compares answers across games, replicas and
releases by string, and a test checks them against a rulebook's arithmetic; ``p`` is the
same number rounded to 12 decimals for display and quick comparisons. Every ruleset
answers with :class:`Chance` (or a struct that carries its two fields), made by
:func:`chance`, never by formatting fractions itself.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = ["DECIMALS", "MAX_DIGITS", "Chance", "Exact", "Probability", "chance", "fraction_of"]

DECIMALS = 12
# Digits of a numerator or denominator: Python's own cap on writing an int out (4 300).
# Exact odds are long for long shots: OpenD6's opposed odds of 120D pools, hundreds of
# pips and modifiers apart, reach about 1 650 digits (6⁻ᵏ for k explosions).
MAX_DIGITS = 4300

Exact = Annotated[
    str,
    Meta(
        pattern=rf"^(0|[1-9][0-9]{{0,{MAX_DIGITS - 1}}})/[1-9][0-9]{{0,{MAX_DIGITS - 1}}}$",
        max_length=2 * MAX_DIGITS + 1,
        description="A probability as a reduced fraction, numerator/denominator "
        "(0/1 and 1/1 included).",
        examples=["767/1296"],
    ),
]
Probability = Annotated[
    float,
    Meta(ge=0, le=1, description="`exact` rounded to 12 decimals.", examples=[0.591820987654]),
]


class Chance(Value, frozen=True, kw_only=True):
    """A probability: `p` rounded to 12 decimals, `exact` as a reduced fraction."""

    p: Probability
    exact: Exact


def fraction_of(value: Fraction | int) -> tuple[float, str]:
    """``value``'s two forms: rounded to 12 decimals (from the exact quotient, so no
    float error creeps in before the rounding) and ``numerator/denominator`` reduced."""
    value = Fraction(value)
    if not 0 <= value <= 1:
        raise ValueError(f"a probability lies in 0…1, not {value}")
    rounded = round(value.numerator / value.denominator, DECIMALS)
    return rounded, f"{value.numerator}/{value.denominator}"


def chance(value: Fraction | int) -> Chance:
    """The :class:`Chance` of an exact probability."""
    p, exact = fraction_of(value)
    return Chance(p=p, exact=exact)
