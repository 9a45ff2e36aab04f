"""The reference tables served at ``…/tables`` and ``…/basic-talents``: the seed's ladders
with the service's own short descriptions (rows in rules/scale.py)."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.self_conflict.rules.scale import (
    HUMANOID_BASIC_TALENTS,
    OUTCOME_BANDS,
    STATUS_LADDER,
    TALENT_SCALE,
    SelfConflictBasicTalent,
    SelfConflictTableRow,
)

__all__ = [
    "BASIC_TALENT_SETS",
    "TABLES",
    "SelfConflictBasicTalentSet",
    "SelfConflictBasicTalentSets",
    "SelfConflictTable",
    "SelfConflictTableList",
]


class SelfConflictTable(Value, frozen=True, kw_only=True):
    """One ladder: its `name` (as in the path), a title, the seed heading it comes from,
    and its rows."""

    name: Annotated[str, Meta(max_length=32)]
    title: Annotated[str, Meta(max_length=80)]
    source: Annotated[str, Meta(max_length=80, description="The seed's heading.")]
    rows: Annotated[tuple[SelfConflictTableRow, ...], Meta(max_length=13)]


class SelfConflictTableList(Value, frozen=True, kw_only=True):
    """Every Self/Conflict table."""

    tables: Annotated[tuple[SelfConflictTable, ...], Meta(max_length=8)]


class SelfConflictBasicTalentSet(Value, frozen=True, kw_only=True):
    """The Basic Talents shared by every object of one type."""

    name: Annotated[str, Meta(max_length=40)]
    talents: Annotated[tuple[SelfConflictBasicTalent, ...], Meta(max_length=32)]


class SelfConflictBasicTalentSets(Value, frozen=True, kw_only=True):
    """The suggested Basic Talent sets (only the seed's humanoid one)."""

    sets: Annotated[tuple[SelfConflictBasicTalentSet, ...], Meta(max_length=8)]


TABLES: dict[str, SelfConflictTable] = {
    table.name: table
    for table in (
        SelfConflictTable(
            name="talent-scale", title="Talent scale", source="The Scale", rows=TALENT_SCALE
        ),
        SelfConflictTable(
            name="status", title="Status ladder", source="Status", rows=STATUS_LADDER
        ),
        SelfConflictTable(
            name="outcome",
            title="Outcomes (each row starts its band of points)",
            source="Task resolution and other rules",
            rows=OUTCOME_BANDS,
        ),
    )
}

BASIC_TALENT_SETS = SelfConflictBasicTalentSets(
    sets=(SelfConflictBasicTalentSet(name="humanoid", talents=HUMANOID_BASIC_TALENTS),)
)
