"""The seed's two odds tables as integers (percent): "Step 2: Clarification" (by difficulty
and bet) and "Multiple Effects: Multi-Actions" (by the actions' levels, no bet). Each row:
critical failure, failure (overall), success (overall), critical success."""

from __future__ import annotations

from enum import StrEnum
from types import MappingProxyType

__all__ = ["DIFFICULTY_TABLE", "MULTI_ACTION_TABLE", "PublishedTable", "published_row"]


class PublishedTable(StrEnum):
    """Which of the seed's tables a row comes from."""

    DIFFICULTY = "difficulty"
    MULTI_ACTION = "multi-action"


Cells = tuple[int, int, int, int]

# (levels, highest first; WP bet) → cells
DIFFICULTY_TABLE: MappingProxyType[tuple[tuple[int, ...], int], Cells] = MappingProxyType(
    {
        ((2,), 0): (6, 15, 84, 19),
        ((2,), 1): (4, 9, 90, 26),
        ((2,), 3): (3, 6, 93, 32),
        ((3,), 0): (16, 45, 54, 10),
        ((3,), 1): (14, 33, 66, 16),
        ((3,), 3): (12, 23, 76, 23),
        ((4,), 0): (22, 75, 24, 3),
        ((4,), 1): (23, 62, 37, 7),
        ((4,), 3): (22, 50, 49, 13),
        ((5,), 0): (25, 91, 8, 0),
        ((5,), 1): (28, 84, 15, 2),
        ((5,), 3): (30, 74, 25, 5),
        ((2, 2), 0): (18, 57, 42, 7),
        ((2, 2), 1): (18, 44, 55, 13),
        ((2, 2), 3): (16, 33, 66, 19),
    }
)

# levels, highest first → cells (no bet)
MULTI_ACTION_TABLE: MappingProxyType[tuple[int, ...], Cells] = MappingProxyType(
    {
        (2,): (6, 15, 84, 19),
        (2, 1): (6, 16, 83, 19),
        (2, 1, 1): (9, 22, 77, 16),
        (2, 1, 1, 1): (15, 39, 60, 11),
        (3,): (16, 45, 54, 10),
        (3, 1): (16, 48, 51, 9),
        (2, 2): (18, 57, 42, 7),
        (3, 1, 1): (19, 58, 41, 6),
        (2, 2, 1): (19, 59, 40, 6),
        (2, 2, 1, 1): (21, 68, 31, 4),
        (4,): (22, 75, 24, 3),
        (3, 2): (23, 77, 22, 3),
        (4, 1): (23, 77, 22, 3),
        (3, 2, 1): (23, 80, 19, 2),
        (4, 1, 1): (24, 85, 14, 1),
        (3, 2, 1, 1): (24, 87, 12, 1),
        (2, 2, 2): (25, 89, 10, 1),
        (5,): (25, 91, 8, 0),
        (4, 2): (25, 93, 6, 0),
        (3, 3): (25, 94, 5, 0),
    }
)


def published_row(levels: tuple[int, ...], bet: int) -> tuple[PublishedTable, Cells] | None:
    """The seed's row for these effective levels (any order) and bet; the difficulty table
    wins where both have one."""
    key = tuple(sorted(levels, reverse=True))
    if (cells := DIFFICULTY_TABLE.get((key, bet))) is not None:
        return PublishedTable.DIFFICULTY, cells
    if bet == 0 and (cells := MULTI_ACTION_TABLE.get(key)) is not None:
        return PublishedTable.MULTI_ACTION, cells
    return None
