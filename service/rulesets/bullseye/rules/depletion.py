"""Depletion: spread as base depletion, adjusted by depletion modifiers (§2.4.2, §3.2.2)."""

from __future__ import annotations

__all__ = ["depletion_amount"]


def depletion_amount(spread: int, winner_threat: int, loser_depletion_modifier: int) -> int:
    """What the loser suffers: ``|spread| + threat + protection``, only if positive (§3.2.2)."""
    return max(0, abs(spread) + winner_threat + loser_depletion_modifier)
