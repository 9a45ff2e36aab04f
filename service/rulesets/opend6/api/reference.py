"""``/v1/opend6/die-codes`` and ``/v1/opend6/tables``: die-code arithmetic and the
reference tables (difficulties, rushing, preparing, Character Point limits, alternate
attributes)."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.http.contract.tables import table_name, table_named
from service.rulesets.opend6.api.views import (
    MAX_PLUS,
    AlternateAttributesTable,
    CharacterPointLimitsTable,
    DieCodeRequest,
    DieCodeResult,
    DifficultiesTable,
    OpenD6Table,
    OpenD6TableList,
    PreparingTable,
    RushingTable,
)
from service.rulesets.opend6.rules.codes import code_of, subtract
from service.rulesets.opend6.rules.difficulties import (
    ALTERNATE_ATTRIBUTES,
    CHARACTER_POINT_LIMITS,
    DIFFICULTY_LEVELS,
    MAX_PREPARING_DICE,
    MIN_RUSHABLE_SECONDS,
    MIN_RUSHED_PERCENT,
    PREPARING_STEPS,
    RUSHING_STEPS,
    derived_difficulty,
    label_for,
)

__all__ = [
    "DIE_CODE_EXAMPLES",
    "OPEND6_TABLES",
    "DieCodeController",
    "OpenD6TableController",
    "die_code_arithmetic",
]

TAGS = ["opend6"]

DIE_CODE_EXAMPLES = [
    Example(
        summary="A Fate Point and a piece of equipment",
        description="4D+2 doubled is 8D+4; +1D of equipment makes 9D+4 (D1, D6).",
        value={"code": "4D+2", "double": True, "plus": ["1D"]},
    ),
    Example(
        summary="Borrowing a die",
        description="4D+1 − 3D+2: a die becomes three pips, leaving 0D+2.",
        value={"code": "4D+1", "minus": "3D+2"},
    ),
    Example(
        summary="A derived difficulty",
        description="An urchin's Charisma 3D: derived difficulty 6, Easy (D9).",
        value={"code": "3d"},
    ),
]


def die_code_arithmetic(request: DieCodeRequest) -> DieCodeResult:
    """``code`` (doubled if asked), plus each of ``plus``, minus ``minus``.

    Raises:
        RulesError: ``invalid-code`` (a component above 40), ``negative-code`` (the result
            below 0D, at ``/minus``).
    """
    code = code_of(request.code, "/code")
    if request.double:
        code = code.doubled()
    for index, text in enumerate(request.plus):
        code = code.plus(code_of(text, f"/plus/{index}"))
    if request.minus is not None:
        code = subtract(code, code_of(request.minus, "/minus"), "/minus")
    rollable = code.dice >= 1
    derived = derived_difficulty(code)
    return DieCodeResult(
        result=code.text,
        dice=code.dice,
        pips=code.pips,
        normalised=code.normalised().text,
        rollable=rollable,
        regular_dice=code.dice - 1 if rollable else 0,
        derived_difficulty=derived,
        derived_label=label_for(derived),
    )


_DIE_CODES_DESCRIPTION = f"""\
Adds, doubles and subtracts die codes ("Rolling Dice"): `code`, doubled when `double` is
true (dice and pips each twice over: `4D+2 → 8D+4`, as a Fate Point doubles the base before
any bonus, D1, D6), plus every code of `plus` (≤ {MAX_PLUS}; per component, `2D+2 + 1D+1 =
3D+3`, D1), minus `minus` (a die borrowed as three pips only when needed: `4D+1 − 3D+2 =
0D+2`). Codes take `d` or `D`; answers are upper-case.

* `result`, `dice`, `pips`: the code; pips never become dice (D1), so `0D+5` stays `0D+5`.
* `normalised`: every three pips shown as a die (`0D+5 → 1D+2`), for display only.
* `rollable`: at least 1D; `0D+n` is a value, never rolled (D3). `regular_dice`: dice − 1,
  the last die being the Wild Die; 0 when not rollable.
* `derived_difficulty`: 2 × dice + pips of `result` (D9; "Special Difficulties": an urchin's
  Charisma 3D → 6), `derived_label` its standard level (D8).

Refused (422): a result below 0D (`opend6/negative-code`, pointer `/minus`); a component
above 40 (`opend6/invalid-code`).
"""


class DieCodeController(Controller):
    """Die-code arithmetic."""

    path = "/die-codes"
    tags = TAGS

    @post(
        "/",
        operation_id="openD6DieCodes",
        summary="Add, double and subtract die codes",
        description=_DIE_CODES_DESCRIPTION,
        dto=StrictJson[DieCodeRequest],
        return_dto=None,
        status_code=200,
        sync_to_thread=False,
        responses=problem_responses(400, 413, 415, 422),
    )
    def die_codes(
        self, data: Annotated[DieCodeRequest, Body(examples=DIE_CODE_EXAMPLES)]
    ) -> DieCodeResult:
        """The code that results, and what it means at the table."""
        return die_code_arithmetic(data)


OPEND6_TABLES: dict[str, OpenD6Table] = {
    str(table.__struct_config__.tag): table
    for table in (
        DifficultiesTable(
            title="Standard difficulties",
            headings=("Standard Difficulties", "Special Difficulties"),
            decisions=("D8", "D9"),
            description="Each level's range of difficulty numbers. A level named without a "
            "number stands for its range's top (D8); a number takes the label of the range "
            "that holds it, 0 or below Automatic. A derived difficulty is 2 × dice + pips of "
            "the target's code (D9).",
            rows=DIFFICULTY_LEVELS,
        ),
        RushingTable(
            title="Rushing",
            headings=("Rushing",),
            decisions=("D11",),
            description="Doing a task in less than its normal time raises the difficulty by "
            "the share of time saved, rounded down to a row (D11). Only tasks of "
            f"{MIN_RUSHABLE_SECONDS} s or more can be rushed, and never below "
            f"{MIN_RUSHED_PERCENT}% of their normal time.",
            minimum_task_seconds=MIN_RUSHABLE_SECONDS,
            minimum_time_percent=MIN_RUSHED_PERCENT,
            rows=RUSHING_STEPS,
        ),
        PreparingTable(
            title="Preparing",
            headings=("Preparing",),
            decisions=("D11",),
            description="Taking longer than the normal time adds a regular die for each "
            f"whole doubling of it (×3 counts as ×2), at most +{MAX_PREPARING_DICE}D (D11).",
            maximum_bonus_dice=MAX_PREPARING_DICE,
            rows=PREPARING_STEPS,
        ),
        CharacterPointLimitsTable(
            title="Character Point limits",
            headings=("Character Points",),
            decisions=("D7",),
            description="The most Character Points one roll may take, spent before and after "
            "together, as the GM sets it by the adventure's challenge; the seed's "
            "“unlimited” is 20 here, so every request's work is bounded (D7).",
            rows=CHARACTER_POINT_LIMITS,
        ),
        AlternateAttributesTable(
            title="Alternate attributes",
            headings=("Alternate Attribute Option",),
            decisions=("D12",),
            description="Skills the GM may roll with another attribute than their governing "
            "one, and when each fits. The roll is that attribute plus the skill's adds, "
            "skill − governing attribute (D12).",
            rows=ALTERNATE_ATTRIBUTES,
        ),
    )
}


class OpenD6TableController(Controller):
    """OpenD6's reference tables."""

    path = "/tables"
    tags = TAGS

    @get(
        "/",
        operation_id="openD6Tables",
        summary="Every OpenD6 reference table",
        description="Difficulties (D8, D9), rushing and preparing (D11), Character Point "
        "limits (D7) and alternate attributes (D12), each tagged by `name`.",
        sync_to_thread=False,
    )
    def list_tables(self) -> OpenD6TableList:
        """All five tables."""
        return OpenD6TableList(tables=tuple(OPEND6_TABLES.values()))

    @get(
        "/{name:str}",
        operation_id="openD6Table",
        summary="One OpenD6 reference table",
        description="`name` is one of: " + ", ".join(f"`{n}`" for n in OPEND6_TABLES) + ".",
        sync_to_thread=False,
        responses=problem_responses(400, 404),
    )
    def get_table(self, name: Annotated[str, table_name("difficulties")]) -> OpenD6Table:
        """One table by name."""
        return table_named(OPEND6_TABLES, name, "OpenD6 table")
