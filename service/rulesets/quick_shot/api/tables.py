"""``/v1/quick-shot/tables[/{name}]``: the difficulty ladder, the bets and the seed's
published odds."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get

from service.http.contract.problems import problem_responses
from service.http.contract.tables import table_name, table_named
from service.rulesets.quick_shot.rules.tables import TABLES, QuickShotTable, QuickShotTableList

__all__ = ["QuickShotTableController"]


class QuickShotTableController(Controller):
    """Quick Shot's reference tables."""

    path = "/tables"
    tags = ["quick-shot"]

    @get(
        "/",
        operation_id="quickShotTables",
        summary="Every Quick Shot table",
        description='`difficulties` ("Effect 1: Minor" … "Effect 5: Overwhelming", each '
        'with the groups of good dice of exactly its effect, D2), `bets` ("Bolstering": '
        "0, 1, 3 WP → 8, 9, 10 dice) and `published-odds` (the seed's two tables as printed, "
        "whole percents at TN 5), each tagged by `name`.",
        sync_to_thread=False,
    )
    def list_tables(self) -> QuickShotTableList:
        """All three tables."""
        return QuickShotTableList(tables=tuple(TABLES.values()))

    @get(
        "/{name:str}",
        operation_id="quickShotTable",
        summary="One Quick Shot table",
        description="`name` is one of: " + ", ".join(f"`{n}`" for n in TABLES) + ".",
        sync_to_thread=False,
        responses=problem_responses(400, 404),
    )
    def get_table(self, name: Annotated[str, table_name("difficulties")]) -> QuickShotTable:
        """One table by name."""
        return table_named(TABLES, name, "Quick Shot table")
