"""The reference tables served at ``…/tables``: the difficulty ladder with the groups each
level needs (D2), the bets ("Bolstering") and the seed's two odds tables as printed."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.quick_shot.rules.difficulties import (
    DICE_FOR_BET,
    GROUPS_NEEDED,
    LABELS,
    LEVELS,
    Difficulty,
)
from service.rulesets.quick_shot.rules.published import (
    DIFFICULTY_TABLE,
    MULTI_ACTION_TABLE,
    PublishedTable,
)

__all__ = [
    "TABLES",
    "QuickShotBet",
    "QuickShotBetsTable",
    "QuickShotDifficultiesTable",
    "QuickShotDifficultyRow",
    "QuickShotPublishedOdds",
    "QuickShotPublishedOddsTable",
    "QuickShotTable",
    "QuickShotTableList",
]

Title = Annotated[str, Meta(max_length=80)]
Source = Annotated[str, Meta(max_length=120, description="The seed's heading(s).")]
Percent = Annotated[int, Meta(ge=0, le=100)]


class QuickShotDifficultyRow(Value, frozen=True, kw_only=True):
    """One level: the groups of good dice whose effect is exactly it (D2)."""

    value: Annotated[int, Meta(ge=1, le=5)]
    name: Difficulty
    label: Annotated[str, Meta(max_length=20)]
    needs: Annotated[str, Meta(max_length=120)]


class QuickShotBet(Value, frozen=True, kw_only=True):
    """A WP bet and the dice it rolls."""

    wp: Annotated[int, Meta(ge=0, le=3)]
    dice: Annotated[int, Meta(ge=8, le=10)]


class QuickShotPublishedOdds(Value, frozen=True, kw_only=True):
    """One printed row, whole percents."""

    table: PublishedTable
    row: Annotated[str, Meta(max_length=16, examples=["(2,1,1)"])]
    wp_bet: Annotated[int, Meta(ge=0, le=3)]
    critical_failure: Percent
    failure: Percent
    success: Percent
    critical_success: Percent


class QuickShotDifficultiesTable(
    Value, frozen=True, kw_only=True, tag_field="name", tag="difficulties"
):
    """ "Effect 1: Minor" … "Effect 5: Overwhelming"."""

    title: Title
    source: Source
    rows: Annotated[tuple[QuickShotDifficultyRow, ...], Meta(max_length=5)]


class QuickShotBetsTable(Value, frozen=True, kw_only=True, tag_field="name", tag="bets"):
    """ "Bolstering": 0, 1 or 3 WP."""

    title: Title
    source: Source
    rows: Annotated[tuple[QuickShotBet, ...], Meta(max_length=3)]


class QuickShotPublishedOddsTable(
    Value, frozen=True, kw_only=True, tag_field="name", tag="published-odds"
):
    """The seed's difficulty table, then its multi-action table, verbatim."""

    title: Title
    source: Source
    rows: Annotated[tuple[QuickShotPublishedOdds, ...], Meta(max_length=40)]


QuickShotTable = QuickShotDifficultiesTable | QuickShotBetsTable | QuickShotPublishedOddsTable


class QuickShotTableList(Value, frozen=True, kw_only=True):
    """Every Quick Shot table, each tagged by `name`."""

    tables: Annotated[tuple[QuickShotTable, ...], Meta(max_length=3)]


def _row(levels: tuple[int, ...]) -> str:
    return "(" + ",".join(map(str, levels)) + ")"


def _published(
    table: PublishedTable, levels: tuple[int, ...], bet: int, cells: tuple[int, int, int, int]
) -> QuickShotPublishedOdds:
    critical_failure, failure, success, critical_success = cells
    return QuickShotPublishedOdds(
        table=table,
        row=_row(levels),
        wp_bet=bet,
        critical_failure=critical_failure,
        failure=failure,
        success=success,
        critical_success=critical_success,
    )


TABLES: dict[str, QuickShotTable] = {
    str(table.__struct_config__.tag): table
    for table in (
        QuickShotDifficultiesTable(
            title="Difficulties and the groups of good dice they need",
            source="Effect 1: Minor … Effect 5: Overwhelming; Calculating Effect (D2)",
            rows=tuple(
                QuickShotDifficultyRow(
                    value=LEVELS[d], name=d, label=LABELS[d], needs=GROUPS_NEEDED[d]
                )
                for d in Difficulty
            ),
        ),
        QuickShotBetsTable(
            title="Willpower bets",
            source="Bolstering",
            rows=tuple(QuickShotBet(wp=wp, dice=dice) for wp, dice in DICE_FOR_BET.items()),
        ),
        QuickShotPublishedOddsTable(
            title="The seed's published odds (TN 5), whole percents",
            source="Step 2: Clarification; Multiple Effects: Multi-Actions",
            rows=(
                *(
                    _published(PublishedTable.DIFFICULTY, levels, bet, cells)
                    for (levels, bet), cells in DIFFICULTY_TABLE.items()
                ),
                *(
                    _published(PublishedTable.MULTI_ACTION, levels, 0, cells)
                    for levels, cells in MULTI_ACTION_TABLE.items()
                ),
            ),
        ),
    )
}
