"""The book's narrative tables (§2.1.3, §2.2.1, §2.3.1, §2.4.1, §2.4.3, §3.1.4) as data.

Row values and labels are the book's; descriptions are this project's own words.
A value takes the label of the highest row at or below it; a value below the bottom
row takes the bottom row (decision, see docs/bullseye.md, "Rules as applied, and
decisions").
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable
from enum import StrEnum

from service.kernel.values import Value

__all__ = ["TABLES", "Row", "Table", "TableName", "band", "labeller"]


class TableName(StrEnum):
    """The six narrative tables."""

    YIELD = "yield"
    MODIFIER = "modifier"
    TARGET = "target"
    SPREAD = "spread"
    DEPLETION = "depletion"
    MAGNITUDE = "magnitude"


class Row(Value, frozen=True, kw_only=True):
    """One row: the value where a band starts, its label and what it means."""

    value: int
    label: str
    description: str


class Table(Value, frozen=True, kw_only=True):
    """A narrative table, rows in ascending value."""

    name: TableName
    title: str
    section: str
    rows: tuple[Row, ...]

    def label_for(self, value: int) -> str:
        """The label of the band that ``value`` falls in."""
        return band(self, value).label


def band(table: Table, value: int) -> Row:
    """The highest row at or below ``value``; the bottom row below the table."""
    starts = _STARTS.get(id(table)) or tuple(row.value for row in table.rows)
    return table.rows[max(0, bisect_right(starts, value) - 1)]


def labeller(table: Table) -> Callable[[int], str]:
    """``table.label_for`` as a function over the table's starts and labels, indexed once:
    what a check calls for every yield (a round, five times)."""
    starts = tuple(row.value for row in table.rows)
    labels = tuple(row.label for row in table.rows)
    bottom = labels[0]

    def label_for(value: int) -> str:
        index = bisect_right(starts, value)
        return labels[index - 1] if index else bottom

    return label_for


def _rows(*rows: tuple[int, str, str]) -> tuple[Row, ...]:
    return tuple(Row(value=v, label=label, description=d) for v, label, d in rows)


TABLES: dict[TableName, Table] = {
    TableName.YIELD: Table(
        name=TableName.YIELD,
        title="Yield",
        section="§2.1.3",
        rows=_rows(
            (-5, "Abysmal", "Untrained and inept, in bad conditions."),
            (0, "Poor", "Untrained or inept, or an ordinary effort in bad conditions."),
            (5, "Mediocre", "A half-hearted effort from someone ordinary."),
            (10, "Average", "What an ordinary person manages on an ordinary day."),
            (15, "Above Average", "An ordinary person doing well, or a master having an off day."),
            (20, "Good", "An ordinary person at their very best; routine for an expert."),
            (25, "Great", "An expert doing well; an elite performer on a bad day."),
            (30, "Excellent", "An expert at their peak; routine for the elite."),
            (35, "Superb", "The elite doing well, or an expert in ideal conditions."),
            (40, "Peerless", "The elite at their peak in ideal conditions."),
        ),
    ),
    TableName.MODIFIER: Table(
        name=TableName.MODIFIER,
        title="Modifier",
        section="§2.2.1",
        rows=_rows(
            (-10, "Major Handicap", "Circumstances that cripple the attempt."),
            (-5, "Moderate Handicap", "Circumstances that clearly get in the way."),
            (-1, "Minor Hindrance", "A small annoyance."),
            (0, "No Effect", "Ordinary circumstances and ordinary tools."),
            (1, "Minor Boon", "A small help."),
            (5, "Moderate Benefit", "Circumstances that clearly help."),
            (10, "Major Benefit", "Circumstances that make the attempt far easier."),
            (15, "Overwhelming Benefit", "Help that takes most of the difficulty away."),
            (20, "Ultimate Benefit", "Help that all but does the job itself."),
        ),
    ),
    TableName.TARGET: Table(
        name=TableName.TARGET,
        title="Target",
        section="§2.3.1",
        rows=_rows(
            (0, "Nearly Certain", "Only a fluke could spoil it."),
            (5, "Easy", "Most people manage without thinking."),
            (10, "Average", "Needs ordinary competence."),
            (15, "Hard", "Needs real skill or effort."),
            (20, "Challenging", "Beyond most untrained people."),
            (25, "Daunting", "Hard even for a trained professional."),
            (30, "Heroic", "The stuff of stories."),
            (35, "Herculean", "A feat few could ever perform."),
            (40, "Nearly Impossible", "Only the greatest, with luck."),
        ),
    ),
    TableName.SPREAD: Table(
        name=TableName.SPREAD,
        title="Spread",
        section="§2.4.1",
        rows=_rows(
            (-20, "Utter Catastrophe", "Failure that makes things much worse."),
            (-15, "Significant Failure", "Failure with a painful setback."),
            (-10, "Notable Failure", "A clear, visible failure."),
            (-5, "Narrow Miss", "So close; nothing gained."),
            (0, "Mere Success", "The goal is reached, no more."),
            (5, "Solid Success", "Done well, with a little to spare."),
            (10, "Notable Success", "Done very well, with an extra benefit."),
            (15, "Significant Success", "A triumph with lasting advantage."),
            (20, "Flawless Victory", "Everything goes right and then some."),
        ),
    ),
    TableName.DEPLETION: Table(
        name=TableName.DEPLETION,
        title="Depletion modifier",
        section="§2.4.3",
        rows=_rows(
            (
                -20,
                "Virtually Harmless / Supremely Protective",
                "Barely a threat; near-total protection.",
            ),
            (-15, "Extremely Safe / Protective", "A nuisance; heavy protection."),
            (-10, "Generally Safe / Protective", "Seldom harmful; solid protection."),
            (-5, "Relatively Safe / Protective", "Can hurt a little; some protection."),
            (0, "Barely Dangerous / No Protection", "An ordinary threat; ordinary clothes."),
            (5, "Relatively Dangerous", "A real threat to the unwary."),
            (10, "Generally Dangerous", "Serious harm is likely."),
            (15, "Extremely Dangerous", "Grave harm is likely."),
            (20, "Supremely Dangerous", "Ruin for almost anyone."),
        ),
    ),
    TableName.MAGNITUDE: Table(
        name=TableName.MAGNITUDE,
        title="Quality magnitude",
        section="§3.1.4",
        rows=_rows(
            (0, "Unskilled", "No training at all."),
            (1, "Minimally Trained", "Knows the basics."),
            (5, "Competent", "A working professional's everyday level."),
            (10, "Professional", "Highly trained."),
            (15, "Expert", "Among the best in the field."),
            (20, "Peerless", "The best there is."),
        ),
    ),
}

# Every check looks up three labels: the book's tables are indexed once, at import.
_STARTS: dict[int, tuple[int, ...]] = {
    id(table): tuple(row.value for row in table.rows) for table in TABLES.values()
}
