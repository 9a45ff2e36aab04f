"""Depletion (§2.4.2, §3.2.2): who loses a check, and by how much.

One rule for a check against a target and for a pairing in a conflict (§4.3): the spread
is always signed from the acting side, ``yield − target`` — in a pairing the player acts
and the GM's yield is the target. A positive spread depletes the opposition, a negative
one the actor, zero nobody; the loser suffers ``|spread|`` plus the winner's threat plus
its own depletion modifier, if that is positive.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Protocol

from service.kernel.values import Value
from service.rulesets.bullseye.rules.limits import Protection, Threat

__all__ = ["DepletionSide", "Loser", "Sided", "depletion_amount", "settle"]


class Loser(StrEnum):
    """Who a check or pairing depletes."""

    ACTOR = "actor"
    OPPOSITION = "opposition"
    NONE = "none"


class DepletionSide(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What one side inflicts (`threat`) and how it is protected (`depletion_modifier`)."""

    threat: Threat = 0
    depletion_modifier: Protection = 0


class Sided(Protocol):
    """Anything with a side's threat and protection: a :class:`DepletionSide`, or a PC or
    the opposition of a conflict as declared (a pairing reads them without copying)."""

    @property
    def threat(self) -> int: ...

    @property
    def depletion_modifier(self) -> int: ...


# Bound once: a round settles a pairing per player.
_ACTOR, _OPPOSITION, _NONE = Loser.ACTOR, Loser.OPPOSITION, Loser.NONE


def depletion_amount(spread: int, winner_threat: int, loser_depletion_modifier: int) -> int:
    """What the loser suffers: ``|spread| + threat + protection``, only if positive (§3.2.2)."""
    return max(0, abs(spread) + winner_threat + loser_depletion_modifier)


def settle(spread: int, actor: Sided, opposition: Sided) -> tuple[Loser, int]:
    """The loser of a signed ``spread`` and what it suffers; a stalemate costs nobody."""
    if spread > 0:
        return _OPPOSITION, depletion_amount(spread, actor.threat, opposition.depletion_modifier)
    if spread < 0:
        return _ACTOR, depletion_amount(spread, opposition.threat, actor.depletion_modifier)
    return _NONE, 0
