"""Die codes ("Rolling Dice"): ``<dice>D[+<pips>]``, and their arithmetic.

Arithmetic is per component (``2D+2 + 1D+1 = 3D+3``; doubling ``4D+2 → 8D+4``): pips never
become dice in a roll (D1). One die is worth three pips only when a code is subtracted
(borrowing: ``4D+1 − 3D+2 = 0D+2``) and when codes are ordered (``3·dice + pips``).
"""

from __future__ import annotations

import re
from typing import Annotated

from msgspec import Meta

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

__all__ = [
    "CODE_PATTERN",
    "MAX_COMPONENT",
    "PIPS_PER_DIE",
    "CodeText",
    "DieCode",
    "code_of",
    "subtract",
]

MAX_COMPONENT = 40  # dice and pips of a written code, each 0…40
PIPS_PER_DIE = 3
CODE_PATTERN = r"^[0-9]{1,2}[Dd](\+[0-9]{1,2})?$"
_CODE = re.compile(CODE_PATTERN)

CodeText = Annotated[
    str,
    Meta(
        pattern=CODE_PATTERN,
        max_length=6,
        description="A die code, `<dice>D[+<pips>]` (dice and pips 0…40; `d` accepted): "
        "`3D`, `4D+2`.",
        examples=["4D+2", "3D"],
    ),
]


class DieCode(Value, frozen=True, kw_only=True):
    """A number of dice and pips. In a roll the pips add to the total; never negative."""

    dice: int
    pips: int = 0

    @property
    def text(self) -> str:
        """Upper-case, as answers write it: ``4D+2``, ``3D``."""
        return f"{self.dice}D+{self.pips}" if self.pips else f"{self.dice}D"

    @property
    def in_pips(self) -> int:
        """The code's size for ordering and subtraction: three pips a die."""
        return PIPS_PER_DIE * self.dice + self.pips

    def plus(self, other: DieCode) -> DieCode:
        """Per component: ``2D+2 + 1D+1 = 3D+3`` (D1)."""
        return DieCode(dice=self.dice + other.dice, pips=self.pips + other.pips)

    def doubled(self) -> DieCode:
        """Dice and pips twice over: ``4D+2 → 8D+4`` (a Fate Point, D1)."""
        return DieCode(dice=2 * self.dice, pips=2 * self.pips)

    def minus(self, other: DieCode) -> DieCode | None:
        """Borrowing a die as three pips when needed: ``4D+1 − 3D+2 = 0D+2``; a die taken
        from pips only when there is no die left (``0D+5 − 1D = 0D+2``); ``None`` when
        ``other`` is the larger code (by ``in_pips``)."""
        dice, pips = self.dice - other.dice, self.pips - other.pips
        while pips < 0 and dice > 0:
            dice, pips = dice - 1, pips + PIPS_PER_DIE
        while dice < 0 and pips >= PIPS_PER_DIE:
            dice, pips = dice + 1, pips - PIPS_PER_DIE
        if dice < 0 or pips < 0:
            return None
        return DieCode(dice=dice, pips=pips)

    def normalised(self) -> DieCode:
        """Every three pips shown as a die, for display only: ``4D+5 → 5D+2``. A roll never
        turns pips into dice (D1)."""
        extra, pips = divmod(self.pips, PIPS_PER_DIE)
        return DieCode(dice=self.dice + extra, pips=pips)


def subtract(code: DieCode, other: DieCode, pointer: str = "") -> DieCode:
    """``code − other``, borrowing a die as three pips when needed (``4D+1 − 3D+2 = 0D+2``).

    Raises:
        RulesError: ``negative-code``: ``other`` is the larger code; codes are never negative.
    """
    difference = code.minus(other)
    if difference is None:
        detail = (
            f"{code.text} − {other.text} is below 0D: a die code is never negative "
            "(a penalty is a modifier, not a code)."
        )
        raise RulesError(
            "opend6/negative-code",
            detail,
            (Concern(code="opend6/negative-code", pointer=pointer or None, detail=detail),),
        )
    return difference


def code_of(text: str, pointer: str = "") -> DieCode:
    """Parse a written die code (the schema has already checked its shape).

    Raises:
        RulesError: ``invalid-code``: a component above 40.
    """
    match = _CODE.match(text)
    if match is None:
        raise RulesError("opend6/invalid-code", f"'{text}' is not a die code like 3D+1.")
    dice_text, _, pips_text = text.upper().partition("D")
    dice, pips = int(dice_text), int(pips_text.lstrip("+") or 0)
    if dice > MAX_COMPONENT or pips > MAX_COMPONENT:
        detail = f"'{text}': dice and pips are each at most {MAX_COMPONENT}."
        raise RulesError(
            "opend6/invalid-code",
            detail,
            (Concern(code="opend6/invalid-code", pointer=pointer or None, detail=detail),),
        )
    return DieCode(dice=dice, pips=pips)
