"""Modifiers (§2.2) and how many of them a check may use (§6.3)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from service.kernel.bounds import Label, Name
from service.kernel.errors import Concern
from service.kernel.values import Value
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.limits import Magnitude

__all__ = [
    "CAPPED_TYPES",
    "SITUATIONAL_RANGE",
    "ModifierLine",
    "ModifierSource",
    "Quality",
    "QualityType",
    "Situational",
    "half_toward_zero",
    "quality_modifiers",
    "situational_modifiers",
]

SITUATIONAL_RANGE = (-5, 5)  # §6.3: the situational total for one check


class QualityType(StrEnum):
    """The forms of quality (§3.1.1)."""

    CORE = "core"
    INTRINSIC = "intrinsic"
    EXPERIENTIAL = "experiential"
    MATERIAL = "material"
    NEGATIVE = "negative"


class ModifierSource(StrEnum):
    """Where a modifier comes from (§2.2.2–§2.2.4; §4.4 for the conflict score)."""

    QUALITY = "quality"
    SITUATIONAL = "situational"
    IMPAIRMENT = "impairment"
    CONFLICT_SCORE = "conflict_score"


class Quality(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A quality (§3.1): on a character's sheet, or proposed for a check (§2.2)."""

    name: Name
    type: QualityType
    magnitude: Magnitude


class Situational(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A situational modifier the GM announces (§2.2.3)."""

    label: Label
    magnitude: Magnitude


class ModifierLine(Value, frozen=True, kw_only=True):
    """One modifier as proposed and as applied, with the reason when they differ."""

    source: ModifierSource
    name: str
    type: QualityType | None
    magnitude: int
    applied: int
    note: str | None = None


# §6.3 limits one modifier per type for these four only; `negative` qualities all apply in
# full (decision: the book names core, intrinsic, experiential and material, nothing else).
CAPPED_TYPES = frozenset(
    {QualityType.CORE, QualityType.INTRINSIC, QualityType.EXPERIENTIAL, QualityType.MATERIAL}
)


# Bound once: a check builds a line per modifier, and an enum attribute lookup is not free.
_QUALITY, _SITUATIONAL = ModifierSource.QUALITY, ModifierSource.SITUATIONAL


def half_toward_zero(magnitude: int) -> int:
    """Half a magnitude, rounded toward zero: +5 → +2, -3 → -1 (decision on §6.3)."""
    half = abs(magnitude) // 2
    return half if magnitude >= 0 else -half


def _ordinal(rank: int) -> str:
    return {1: "second", 2: "third"}.get(rank, f"{rank + 1}th")


def quality_modifiers(
    qualities: Sequence[Quality], pointer: str = "/qualities"
) -> tuple[list[ModifierLine], list[Concern]]:
    """§6.3: per capped type, the largest quality in full, a second at half, no more.

    The cap covers the four types §6.3 lists (core, intrinsic, experiential, material);
    every `negative` quality applies in full, with no note and no concern (decision).
    Returns the lines in the order proposed, and a concern for each quality refused.
    """
    seen: set[QualityType] = set()
    for quality in qualities:  # a loop: no list, no set of a list, stops at a repeat
        kind = quality.type
        if kind in CAPPED_TYPES:
            if kind in seen:
                break
            seen.add(kind)
    else:
        # At most one quality per capped type, the usual case: each applies in full.
        return [
            ModifierLine(
                source=_QUALITY,
                name=quality.name,
                type=quality.type,
                magnitude=quality.magnitude,
                applied=quality.magnitude,
            )
            for quality in qualities
        ], []
    rank_of: dict[int, int] = {}
    by_type: dict[QualityType, list[int]] = {}
    for index, quality in enumerate(qualities):
        if quality.type in CAPPED_TYPES:
            by_type.setdefault(quality.type, []).append(index)
    for indices in by_type.values():
        ordered = sorted(indices, key=lambda i: -abs(qualities[i].magnitude))  # stable
        rank_of.update((index, rank) for rank, index in enumerate(ordered))

    lines: list[ModifierLine] = []
    concerns: list[Concern] = []
    for index, quality in enumerate(qualities):
        rank = rank_of.get(index, 0)  # a negative quality is never ranked: always in full
        applied, note = quality.magnitude, None
        if rank == 1:
            applied = half_toward_zero(quality.magnitude)
            note = f"second {quality.type} quality: half its magnitude, rounded toward zero (§6.3)"
        elif rank >= 2:
            applied = 0
            note = f"{_ordinal(rank)} {quality.type} quality: not applied (§6.3)"
            concerns.append(
                Concern(
                    code=RuleCode.TOO_MANY_QUALITIES_OF_TYPE,
                    pointer=f"{pointer}/{index}",
                    detail=f"Only two {quality.type} qualities count on one check (§6.3); "
                    f"'{quality.name}' is the {_ordinal(rank)}.",
                )
            )
        lines.append(
            ModifierLine(
                source=_QUALITY,
                name=quality.name,
                type=quality.type,
                magnitude=quality.magnitude,
                applied=applied,
                note=note,
            )
        )
    return lines, concerns


def situational_modifiers(
    situational: Sequence[Situational], pointer: str = "/situational"
) -> tuple[list[ModifierLine], list[Concern]]:
    """Situational modifiers apply as given; a total outside -5…+5 is a concern (§6.3)."""
    lines = []
    total = 0
    for item in situational:
        total += item.magnitude
        lines.append(
            ModifierLine(
                source=_SITUATIONAL,
                name=item.label,
                type=None,
                magnitude=item.magnitude,
                applied=item.magnitude,
            )
        )
    low, high = SITUATIONAL_RANGE
    concerns = []
    if not low <= total <= high:
        concerns.append(
            Concern(
                code=RuleCode.SITUATIONAL_OUT_OF_RANGE,
                pointer=pointer,
                detail=f"Situational modifiers total {total:+d}; §6.3 keeps them within "
                f"{low}…{high:+d}. Fold the rest into the target (§6.4).",
            )
        )
    return lines, concerns
