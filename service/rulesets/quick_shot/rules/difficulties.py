"""The difficulty ladder ("Effect 1: Minor" … "Effect 5: Overwhelming"), team work (D6)
and the dice a willpower bet buys ("Bolstering", D2)."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType

__all__ = [
    "BASE_DICE",
    "DICE_FOR_BET",
    "GROUPS_NEEDED",
    "LABELS",
    "LEVELS",
    "MAX_ACTIONS",
    "MAX_TARGET_NUMBER",
    "MIN_TARGET_NUMBER",
    "SEED_TARGET_NUMBER",
    "SIDES",
    "Difficulty",
    "effective_level",
    "good_faces",
]

SIDES = 8  # "Step 4: Resolution": d8s (D2)
BASE_DICE = 8
SEED_TARGET_NUMBER = 5
MIN_TARGET_NUMBER, MAX_TARGET_NUMBER = 3, 7  # "Cost": a stat's TN moved by charges
# "Bolstering": a 1 WP bet adds a die, a 3 WP bet two; 2 WP is not a bet the tables know.
DICE_FOR_BET = MappingProxyType({0: BASE_DICE, 1: BASE_DICE + 1, 3: BASE_DICE + 2})
# "Multiple Effects: Multi-Actions" sets no limit; six actions bound a gamble's work.
MAX_ACTIONS = 6


class Difficulty(StrEnum):
    """The GM's difficulty for one action ("Step 2: Clarification")."""

    MINOR = "minor"
    COMMON = "common"
    HARD = "hard"
    DIFFICULT = "difficult"
    OVERWHELMING = "overwhelming"


LEVELS = MappingProxyType({difficulty: level for level, difficulty in enumerate(Difficulty, 1)})
LABELS = MappingProxyType({difficulty: difficulty.value.capitalize() for difficulty in Difficulty})
# The groups of good dice whose effect is exactly each level (D2).
GROUPS_NEEDED = MappingProxyType(
    {
        Difficulty.MINOR: "one good die",
        Difficulty.COMMON: "a pair",
        Difficulty.HARD: "three of a kind, or two pairs",
        Difficulty.DIFFICULT: "four of a kind, three and two, or three pairs",
        Difficulty.OVERWHELMING: "five of a kind, four and two, three and three, three and "
        "two and two, or four pairs",
    }
)


def effective_level(difficulty: Difficulty, teamwork: bool) -> int:
    """ "Team Work": one level easier, never below Minor (D6)."""
    level = LEVELS[difficulty]
    return max(1, level - 1) if teamwork else level


def good_faces(target_number: int) -> tuple[int, ...]:
    """The faces that count at this TN: TN − 1 and up, never a 1 (D2; faces 4–8 at TN 5)."""
    return tuple(range(max(2, target_number - 1), SIDES + 1))
