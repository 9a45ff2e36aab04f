"""The bodies of ``/v1/opend6/die-codes`` and ``/v1/opend6/tables``."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.opend6.rules.codes import MAX_COMPONENT, CodeText
from service.rulesets.opend6.rules.difficulties import (
    AlternateAttributes,
    CharacterPointLimit,
    DifficultyLevel,
    PreparingStep,
    RushingStep,
)

__all__ = [
    "MAX_PLUS",
    "AlternateAttributesTable",
    "CharacterPointLimitsTable",
    "DieCodeRequest",
    "DieCodeResult",
    "DifficultiesTable",
    "OpenD6Table",
    "OpenD6TableList",
    "PreparingTable",
    "RushingTable",
]

MAX_PLUS = 10
# Largest result: the code doubled (2 × 40) plus ten codes of 40 → 480 dice, 480 pips.
_MAX_RESULT = 2 * MAX_COMPONENT + MAX_PLUS * MAX_COMPONENT

Count = Annotated[int, Meta(ge=0, le=_MAX_RESULT)]
ResultText = Annotated[
    str, Meta(max_length=12, description="An upper-case die code: `8D+4`, `0D+2`, `3D`.")
]
Title = Annotated[str, Meta(min_length=1, max_length=80)]
Headings = Annotated[
    tuple[Annotated[str, Meta(max_length=80)], ...],
    Meta(max_length=4, description="The seed's headings the table comes from."),
]
Decisions = Annotated[
    tuple[
        Annotated[
            str,
            Meta(
                pattern="^D[0-9]{1,2}$",
                max_length=3,
                description="A decision's number, `D` and one or two digits.",
                examples=["D7"],
            ),
        ],
        ...,
    ],
    Meta(max_length=4, description="The decisions it applies (docs/opend6.md)."),
]
Description = Annotated[str, Meta(max_length=600)]
Rows = Meta(max_length=10)


class DieCodeRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Die-code arithmetic ("Rolling Dice"): `code`, doubled if asked, plus every code of
    `plus`, minus `minus`."""

    code: CodeText
    plus: Annotated[
        tuple[CodeText, ...],
        Meta(
            max_length=MAX_PLUS,
            description="Codes added per component, dice to dice and pips to pips "
            "(`2D+2 + 1D+1 = 3D+3`, D1).",
        ),
    ] = ()
    minus: Annotated[
        CodeText | None,
        Meta(
            description="A code subtracted last, a die borrowed as three pips when needed "
            "(`4D+1 − 3D+2 = 0D+2`); a result below 0D is refused: 422 `opend6/negative-code`."
        ),
    ] = None
    double: Annotated[
        bool,
        Meta(
            description="Double `code`'s dice and pips (`4D+2 → 8D+4`, as a Fate Point doubles "
            "the base, D1, D6) before `plus` and `minus` apply."
        ),
    ] = False


class DieCodeResult(Value, frozen=True, kw_only=True):
    """The resulting code and what it means at the table."""

    result: Annotated[ResultText, Meta(description="The code, pips kept as pips (D1).")]
    dice: Count
    pips: Count
    normalised: Annotated[
        str,
        Meta(
            max_length=12,
            description="Every three pips shown as a die (`4D+5 → 5D+2`): for display "
            "only, a roll never turns pips into dice (D1).",
        ),
    ]
    rollable: Annotated[
        bool,
        Meta(description="At least 1D: `0D+n` is a value, never rolled (D3)."),
    ]
    regular_dice: Annotated[
        int,
        Meta(
            ge=0,
            le=_MAX_RESULT,
            description="Dice rolled besides the Wild Die (dice − 1); 0 if not rollable.",
        ),
    ]
    derived_difficulty: Annotated[
        int,
        Meta(
            ge=0,
            le=3 * _MAX_RESULT,
            description='"Special Difficulties", derived: 2 × dice + pips of `result` (D9; '
            "3D → 6).",
        ),
    ]
    derived_label: Annotated[
        str,
        Meta(max_length=20, description="The standard level whose range holds it (D8)."),
    ]


class DifficultiesTable(Value, frozen=True, kw_only=True, tag_field="name", tag="difficulties"):
    """ "Standard Difficulties": each level's range and the number it stands for alone."""

    title: Title
    headings: Headings
    decisions: Decisions
    description: Description
    rows: Annotated[tuple[DifficultyLevel, ...], Rows]


class RushingTable(Value, frozen=True, kw_only=True, tag_field="name", tag="rushing"):
    """ "Rushing": the difficulty modifier by share of the normal time saved."""

    title: Title
    headings: Headings
    decisions: Decisions
    description: Description
    minimum_task_seconds: Annotated[
        int, Meta(ge=0, le=100, description="Shorter tasks cannot be rushed.")
    ]
    minimum_time_percent: Annotated[
        int, Meta(ge=0, le=100, description="No task takes less of its normal time.")
    ]
    rows: Annotated[tuple[RushingStep, ...], Rows]


class PreparingTable(Value, frozen=True, kw_only=True, tag_field="name", tag="preparing"):
    """ "Preparing": bonus dice by whole doublings of the normal time."""

    title: Title
    headings: Headings
    decisions: Decisions
    description: Description
    maximum_bonus_dice: Annotated[int, Meta(ge=0, le=10)]
    rows: Annotated[tuple[PreparingStep, ...], Rows]


class CharacterPointLimitsTable(
    Value, frozen=True, kw_only=True, tag_field="name", tag="character-point-limits"
):
    """ "Character Points": the most one roll may take, by the adventure's challenge."""

    title: Title
    headings: Headings
    decisions: Decisions
    description: Description
    rows: Annotated[tuple[CharacterPointLimit, ...], Rows]


class AlternateAttributesTable(
    Value, frozen=True, kw_only=True, tag_field="name", tag="alternate-attributes"
):
    """ "Alternate Attribute Option": skills the seed pairs with other attributes."""

    title: Title
    headings: Headings
    decisions: Decisions
    description: Description
    rows: Annotated[tuple[AlternateAttributes, ...], Rows]


OpenD6Table = (
    DifficultiesTable
    | RushingTable
    | PreparingTable
    | CharacterPointLimitsTable
    | AlternateAttributesTable
)


class OpenD6TableList(Value, frozen=True, kw_only=True):
    """Every OpenD6 reference table, each tagged by `name`."""

    tables: Annotated[tuple[OpenD6Table, ...], Meta(max_length=10)]
