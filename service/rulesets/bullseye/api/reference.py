"""``/v1/conditions`` and ``/v1/tables``: the book's reference data."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get
from litestar.exceptions import NotFoundException
from litestar.openapi.spec import Example
from litestar.params import Parameter

from service.http.contract.problems import problem_responses
from service.http.contract.tables import table_name
from service.kernel.errors import RulesError
from service.kernel.values import Value
from service.rulesets.bullseye.rules.conditions import State, Thresholds, condition, score_concerns
from service.rulesets.bullseye.rules.tables import TABLES, Table, TableName

__all__ = ["ConditionController", "ConditionView", "TableController", "TableList"]


class ConditionView(Value, frozen=True, kw_only=True):
    """A depletable score's condition and the thresholds that govern it."""

    maximum: int
    current: int
    impairment: int
    state: State
    thresholds: Thresholds


class TableList(Value, frozen=True, kw_only=True):
    """Every narrative table."""

    tables: tuple[Table, ...]


class ConditionController(Controller):
    """Conditions from a depletable score."""

    path = "/conditions"
    tags = ["reference"]

    @get(
        "/",
        operation_id="getCondition",
        summary="Condition at a depletable score",
        description="Impairment −2 at three-quarters of the maximum, −5 at one-half (§3.2.3), "
        "incapacitated at one-quarter (§3.2.4), retired at zero or below (§3.2.5); each "
        "mark rounded down. Example: maximum 42 → −2 at 31, −5 at 21, incapacitated at 10.",
        sync_to_thread=False,
        responses=problem_responses(400, 422),
    )
    def condition(
        self,
        maximum: Annotated[
            int,
            Parameter(
                ge=1, le=100000, description="The maximum score.", examples=[Example(value=42)]
            ),
        ],
        current: Annotated[
            int,
            Parameter(
                ge=-100000,
                le=100000,
                description="The current score.",
                examples=[Example(value=21)],
            ),
        ],
    ) -> ConditionView:
        """The condition at ``current`` of ``maximum``."""
        if concerns := score_concerns(maximum, current, parameter="current"):
            raise RulesError.from_concerns(concerns)
        now = condition(maximum, current)
        return ConditionView(
            maximum=maximum,
            current=current,
            impairment=now.impairment,
            state=now.state,
            thresholds=now.thresholds,
        )


class TableController(Controller):
    """The narrative tables."""

    path = "/tables"
    tags = ["reference"]

    @get("/", operation_id="listTables", summary="Every narrative table", sync_to_thread=False)
    def list_tables(self) -> TableList:
        """All six tables."""
        return TableList(tables=tuple(TABLES.values()))

    @get(
        "/{name:str}",
        operation_id="getTable",
        summary="One narrative table",
        description="`name` is one of: " + ", ".join(f"`{n}`" for n in TableName) + ". "
        "A value falls in the highest row at or below it; below the bottom row, the bottom row.",
        sync_to_thread=False,
        responses=problem_responses(400, 404),
    )
    def get_table(
        self,
        name: Annotated[str, table_name("spread")],
    ) -> Table:
        """One table by name."""
        try:
            return TABLES[TableName(name)]
        except ValueError:
            raise NotFoundException(detail=f"No table named '{name}'.") from None
