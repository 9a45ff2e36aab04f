"""Who narrates a check's resolution (§5.1, §6.5)."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Narrator", "Outcome", "narrator_for", "outcome_of"]


class Outcome(StrEnum):
    """§2.1: the yield exceeds, falls short of, or ties the target."""

    SUCCESS = "success"
    FAILURE = "failure"
    STALEMATE = "stalemate"


class Narrator(StrEnum):
    """The participant who narrates."""

    PLAYER = "player"
    GM = "gm"


# Members bound once: every check asks for them, and an enum attribute lookup is not free.
_SUCCESS, _FAILURE, _STALEMATE = Outcome.SUCCESS, Outcome.FAILURE, Outcome.STALEMATE
_PLAYER, _GM = Narrator.PLAYER, Narrator.GM


def outcome_of(spread: int) -> Outcome:
    """Success above zero, failure below, stalemate at zero (§2.1)."""
    if spread > 0:
        return _SUCCESS
    return _FAILURE if spread < 0 else _STALEMATE


def narrator_for(outcome: Outcome) -> Narrator:
    """The highest yield narrates (§5.1); against a target the GM holds the target's side,
    and a tie is no higher yield for the player, so the GM keeps the right (§6.5)."""
    return _PLAYER if outcome is _SUCCESS else _GM
