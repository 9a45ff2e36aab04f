"""``/v1/self-conflict/tables[/{name}]`` and ``…/basic-talents``: the seed's ladders and the
humanoid Basic Talents, with the service's own descriptions."""

from __future__ import annotations

from typing import Annotated

from litestar import Controller, get

from service.http.contract.problems import problem_responses
from service.http.contract.tables import table_name, table_named
from service.rulesets.self_conflict.rules.tables import (
    BASIC_TALENT_SETS,
    TABLES,
    SelfConflictBasicTalentSets,
    SelfConflictTable,
    SelfConflictTableList,
)

__all__ = ["SelfConflictBasicTalentController", "SelfConflictTableController"]

TAGS = ["self-conflict"]


class SelfConflictTableController(Controller):
    """Self/Conflict's reference tables."""

    path = "/tables"
    tags = TAGS

    @get(
        "/",
        operation_id="selfConflictTables",
        summary="Every Self/Conflict table",
        description='"The Scale" of talents (0 Not at all … 6 Extremely), the "Status" '
        "ladder (0 Fate under GM control … 6 Good) and the outcomes (rows start each band "
        "of points: 0 Failure, 6 Marginal success — the seed's nominal success too — 12 "
        "Total success), labels in sentence case (D14), descriptions in the service's own "
        "words.",
        sync_to_thread=False,
    )
    def list_tables(self) -> SelfConflictTableList:
        """All three tables."""
        return SelfConflictTableList(tables=tuple(TABLES.values()))

    @get(
        "/{name:str}",
        operation_id="selfConflictTable",
        summary="One Self/Conflict table",
        description="`name` is one of: " + ", ".join(f"`{n}`" for n in TABLES) + ".",
        sync_to_thread=False,
        responses=problem_responses(400, 404),
    )
    def get_table(self, name: Annotated[str, table_name("talent-scale")]) -> SelfConflictTable:
        """One table by name."""
        return table_named(TABLES, name, "Self/Conflict table")


class SelfConflictBasicTalentController(Controller):
    """The suggested Basic Talent sets."""

    path = "/basic-talents"
    tags = TAGS

    @get(
        "/",
        operation_id="selfConflictBasicTalents",
        summary="Suggested Basic Talent sets",
        description='"Talents": the humanoid set (Agile, Dangerous, Disciplined, Handy, '
        "Influential, Witty, Tough), each with what it measures in the service's words. "
        "Basic Talents are permanent, one set per object type, fixed by the GM; the "
        "split into basic and gained is optional (D13). Send a set as `basic_talents` to "
        "`selfConflictValidateObject` to check an object against it.",
        sync_to_thread=False,
    )
    def basic_talents(self) -> SelfConflictBasicTalentSets:
        """The sets."""
        return BASIC_TALENT_SETS
