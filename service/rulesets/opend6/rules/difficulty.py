"""The difficulty a roll is judged against ("Standard Difficulties", "Special
Difficulties", "Generic Modifiers"): its base number, then what raises it, by source."""

from __future__ import annotations

from enum import StrEnum

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.opend6.rules import difficulties
from service.rulesets.opend6.rules.codes import code_of
from service.rulesets.opend6.rules.spec import (
    DerivedDifficulty,
    DifficultyKind,
    Level,
    NumberDifficulty,
    OddsRequest,
    RollRequest,
    StandardDifficulty,
    UntrainedBase,
    WildDieOnlyDifficulty,
)

__all__ = [
    "DifficultyModifier",
    "DifficultyModifierSource",
    "ResolvedDifficulty",
    "resolve_difficulty",
]


class DifficultyModifierSource(StrEnum):
    """Why the difficulty moved."""

    UNSKILLED = "unskilled"
    RUSHING = "rushing"
    GENERIC = "generic"


class DifficultyModifier(Value, frozen=True, kw_only=True):
    source: DifficultyModifierSource
    label: str
    value: int


class ResolvedDifficulty(Value, frozen=True, kw_only=True):
    """The difficulty as judged: its kind, level (if any), base number, every modifier and
    the final value with its range's label."""

    kind: DifficultyKind
    level: Level | None
    base: int
    modifiers: tuple[DifficultyModifier, ...]
    value: int
    label: str


def resolve_difficulty(
    request: RollRequest | OddsRequest, concerns: list[Concern]
) -> ResolvedDifficulty | None:
    """The difficulty of ``request`` (None without one); refusals go to ``concerns``."""
    asked = request.difficulty
    if asked is None:
        return None
    level: Level | None = None
    match asked:
        case StandardDifficulty():
            level = asked.level
            try:
                base = difficulties.standard_difficulty(asked.level, asked.value, "/difficulty")
            except RulesError as error:
                concerns.extend(error.concerns)
                base = difficulties.level_row(asked.level).default
        case NumberDifficulty():
            base = asked.value
        case DerivedDifficulty():
            base = difficulties.derived_difficulty(code_of(asked.code, "/difficulty/code"))
        case WildDieOnlyDifficulty():
            base = 0
    modifiers = []
    if isinstance(request.base, UntrainedBase) and request.base.unskilled_modifier:
        modifiers.append(
            DifficultyModifier(
                source=DifficultyModifierSource.UNSKILLED,
                label="untrained",
                value=request.base.unskilled_modifier,
            )
        )
    if request.time is not None and request.time.taken_seconds < request.time.normal_seconds:
        try:
            rushing = difficulties.rushing_modifier(
                request.time.normal_seconds, request.time.taken_seconds
            )
        except RulesError as error:
            concerns.extend(error.concerns)
            rushing = 0
        if rushing:
            modifiers.append(
                DifficultyModifier(
                    source=DifficultyModifierSource.RUSHING, label="rushing", value=rushing
                )
            )
    modifiers += [
        DifficultyModifier(
            source=DifficultyModifierSource.GENERIC, label=item.label, value=item.value
        )
        for item in asked.modifiers
    ]
    value = base + sum(item.value for item in modifiers)
    return ResolvedDifficulty(
        kind=DifficultyKind(str(asked.__struct_config__.tag)),
        level=level,
        base=base,
        modifiers=tuple(modifiers),
        value=value,
        label=difficulties.label_for(value),
    )
