"""Character creation (§3.3) and its variants (§7.3 – §7.6): validate a sheet, count its points.

Validation never stops at the first problem: every finding is reported at once, each with
a stable code, a JSON pointer into the submitted document and a sentence a player can act on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.bounds import Name
from service.kernel.values import Value
from service.rulesets.bullseye.rules.conditions import Thresholds, thresholds
from service.rulesets.bullseye.rules.modifiers import Quality, QualityType

__all__ = [
    "ADDITIONAL_RANGE",
    "BASE_BUDGET",
    "CORE_MAGNITUDE",
    "DEPLETABLE_BASE",
    "DEPLETABLE_MAX",
    "STARTING_MAGNITUDE",
    "Character",
    "CharacterValidationReport",
    "DepletableQuality",
    "Finding",
    "Points",
    "Quality",
    "QualityCondition",
    "SheetCode",
    "Variants",
    "validate_character",
]

BASE_BUDGET = 60  # §3.3.2
CONFLICTS_PER_ADVANCEMENT_POINT = 10  # §7.4
CORE_MAGNITUDE = 8  # §3.3.3
STARTING_MAGNITUDE = 7  # §3.3.3
ADDITIONAL_RANGE = (1, 6)  # §3.3.3
POINTS_PER_ADDITIONAL_PLUS_ONE = 2  # §3.3.3
MAX_PER_TYPE = 3  # §3.3.3, starting quality included
DEPLETABLE_BASE = 20  # §3.3.4
DEPLETABLE_MAX = 60  # §3.3.4
DEPLETION_MODIFIER_BEST = -10  # §3.3.5
POINTS_PER_DEPLETION_STEP = 4  # §3.3.5
NEGATIVE_RANGE = (-10, -1)  # decision: the book names negative qualities but never prices them

BOUGHT_TYPES = (QualityType.INTRINSIC, QualityType.EXPERIENTIAL, QualityType.MATERIAL)

MAX_SHEET_QUALITIES = 24
Summary = Annotated[str, Meta(max_length=2000, description="Free text about the character.")]
DepletableMaximum = Annotated[
    int, Meta(ge=0, le=1000, description="A depletable quality's score at creation (§3.3.4).")
]
CharacterDepletionModifier = Annotated[
    int, Meta(ge=-100, le=100, description="The character's depletion modifier (§3.3.5).")
]
ConflictCount = Annotated[
    int, Meta(ge=0, le=100000, description="Conflicts played, for advancement (§7.4).")
]


class SheetCode(StrEnum):
    """Stable codes of what a character sheet can get wrong (or should know)."""

    BLANK_NAME = "blank-name"
    DUPLICATE_QUALITY_NAME = "duplicate-quality-name"
    DUPLICATE_DEPLETABLE_NAME = "duplicate-depletable-name"
    DUPLICATE_CHARACTER_NAME = "duplicate-character-name"
    CORE_MISSING = "core-missing"
    CORE_NOT_UNIQUE = "core-not-unique"
    CORE_MAGNITUDE = "core-magnitude"
    STARTING_QUALITY_MISSING = "starting-quality-missing"
    TOO_MANY_OF_TYPE = "too-many-of-type"
    ADDITIONAL_OUT_OF_RANGE = "additional-out-of-range"
    NEGATIVE_OUT_OF_RANGE = "negative-out-of-range"
    NEGATIVE_QUALITY_FREE = "negative-quality-free"
    DEPLETABLE_COUNT = "depletable-count"
    DEPLETABLE_OUT_OF_RANGE = "depletable-out-of-range"
    DEPLETION_MODIFIER_OUT_OF_RANGE = "depletion-modifier-out-of-range"
    OVER_BUDGET = "over-budget"
    POINTS_UNSPENT = "points-unspent"
    NOT_YET_DEFINED = "not-yet-defined"
    ESTABLISHED_QUALITY_CHANGED = "established-quality-changed"
    ESTABLISHED_QUALITY_REMOVED = "established-quality-removed"
    ESTABLISHED_DEPLETABLE_CHANGED = "established-depletable-changed"
    ESTABLISHED_DEPLETABLE_REMOVED = "established-depletable-removed"
    ESTABLISHED_DEPLETION_MODIFIER_CHANGED = "established-depletion-modifier-changed"
    PREVIOUS_IGNORED = "previous-ignored"


class Finding(Value, frozen=True, kw_only=True):
    """One violation or warning: what, where (a JSON pointer) and why."""

    code: SheetCode
    pointer: str
    detail: str


class DepletableQuality(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A depletable quality at creation: its name and maximum score (§3.3.4)."""

    name: Name
    maximum: DepletableMaximum


class Character(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character sheet as a player submits it."""

    name: Name
    summary: Summary = ""
    qualities: Annotated[tuple[Quality, ...], Meta(max_length=MAX_SHEET_QUALITIES)] = ()
    depletable: Annotated[tuple[DepletableQuality, ...], Meta(max_length=4)] = ()
    depletion_modifier: CharacterDepletionModifier = 0


class Variants(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The §7 variants in play."""

    define_during_play: bool = False  # §7.3
    advancement_conflicts: ConflictCount = 0  # §7.4
    multiple_depletables: bool = False  # §7.6


class Points(Value, frozen=True, kw_only=True):
    """Where the creation points went: `qualities + depletable + depletion_modifier == spent`."""

    budget: int
    spent: int
    remaining: int
    qualities: int
    depletable: int
    depletion_modifier: int


class QualityCondition(Value, frozen=True, kw_only=True):
    """A depletable quality's condition thresholds at its maximum (§3.2.3, §3.2.4)."""

    name: str
    maximum: int
    thresholds: Thresholds


class CharacterValidationReport(Value, frozen=True, kw_only=True):
    """The verdict on a sheet."""

    valid: bool
    violations: tuple[Finding, ...]
    warnings: tuple[Finding, ...]
    points: Points
    conditions: tuple[QualityCondition, ...]


def budget_for(variants: Variants) -> int:
    """60 points (§3.3.2), plus one per 10 conflicts under advancement (§7.4)."""
    return BASE_BUDGET + variants.advancement_conflicts // CONFLICTS_PER_ADVANCEMENT_POINT


def _is_additional(index: int, quality: Quality, starting: dict[QualityType, int]) -> bool:
    return quality.type in BOUGHT_TYPES and starting.get(quality.type) != index


def _starting_indices(qualities: Sequence[Quality]) -> dict[QualityType, int]:
    """The first +7 quality of each bought type is its free starting quality (§3.3.3)."""
    starting: dict[QualityType, int] = {}
    for index, quality in enumerate(qualities):
        if quality.type in BOUGHT_TYPES and quality.magnitude == STARTING_MAGNITUDE:
            starting.setdefault(quality.type, index)
    return starting


def points_for(character: Character, variants: Variants, extra_depletable: int = 0) -> Points:
    """Count the creation points a sheet spends (§3.3.3 – §3.3.5).

    ``extra_depletable`` is what the character puts into a group score (§7.5).
    """
    starting = _starting_indices(character.qualities)
    qualities = sum(
        POINTS_PER_ADDITIONAL_PLUS_ONE * max(0, quality.magnitude)
        for index, quality in enumerate(character.qualities)
        if _is_additional(index, quality, starting)
    )
    depletable = extra_depletable + sum(
        max(0, item.maximum - DEPLETABLE_BASE) for item in character.depletable
    )
    depletion_modifier = POINTS_PER_DEPLETION_STEP * max(0, -character.depletion_modifier)
    spent = qualities + depletable + depletion_modifier
    budget = budget_for(variants)
    return Points(
        budget=budget,
        spent=spent,
        remaining=budget - spent,
        qualities=qualities,
        depletable=depletable,
        depletion_modifier=depletion_modifier,
    )


class _Findings:
    """Collects violations and warnings, each pointer under one prefix."""

    def __init__(self, prefix: str) -> None:
        self.prefix = prefix
        self.violations: list[Finding] = []
        self.warnings: list[Finding] = []

    def violation(self, code: SheetCode, pointer: str, detail: str) -> None:
        self.violations.append(Finding(code=code, pointer=self.prefix + pointer, detail=detail))

    def warning(self, code: SheetCode, pointer: str, detail: str) -> None:
        self.warnings.append(Finding(code=code, pointer=self.prefix + pointer, detail=detail))


def _check_names(character: Character, found: _Findings) -> None:
    if not character.name.strip():
        found.violation(SheetCode.BLANK_NAME, "/name", "The character needs a name.")
    _check_unique(
        ((f"/qualities/{i}", q.name) for i, q in enumerate(character.qualities)),
        SheetCode.DUPLICATE_QUALITY_NAME,
        "quality",
        found,
    )
    _check_unique(
        ((f"/depletable/{i}", d.name) for i, d in enumerate(character.depletable)),
        SheetCode.DUPLICATE_DEPLETABLE_NAME,
        "depletable quality",
        found,
    )


def _check_unique(
    named: Iterable[tuple[str, str]], code: SheetCode, what: str, found: _Findings
) -> None:
    first: dict[str, str] = {}
    for pointer, name in named:
        if not name.strip():
            found.violation(SheetCode.BLANK_NAME, pointer + "/name", f"Every {what} needs a name.")
            continue
        key = name.strip().casefold()
        if key in first:
            found.violation(
                code,
                pointer + "/name",
                f"Another {what} is already called '{first[key]}' (names ignore case); "
                "give this one a different name.",
            )
        first.setdefault(key, name)


def _check_core(character: Character, variants: Variants, found: _Findings) -> None:
    """§3.3.3: exactly one core quality, at +8, never more, never changed."""
    cores = [i for i, q in enumerate(character.qualities) if q.type is QualityType.CORE]
    if not cores:
        if variants.define_during_play:
            found.warning(
                SheetCode.NOT_YET_DEFINED,
                "/qualities",
                "No core quality yet; it is free (+8) whenever you define it (§7.3).",
            )
        else:
            found.violation(
                SheetCode.CORE_MISSING,
                "/qualities",
                "Every character has one core quality at +8 (§3.3.3).",
            )
    for extra in cores[1:]:
        found.violation(
            SheetCode.CORE_NOT_UNIQUE,
            f"/qualities/{extra}",
            "A character has a single core quality (§3.3.3); this is another.",
        )
    for index in cores:
        magnitude = character.qualities[index].magnitude
        if magnitude != CORE_MAGNITUDE:
            found.violation(
                SheetCode.CORE_MAGNITUDE,
                f"/qualities/{index}/magnitude",
                f"The core quality is always +8, never {magnitude:+d} (§3.3.3).",
            )


def _check_bought_types(character: Character, variants: Variants, found: _Findings) -> None:
    """§3.3.3: a free +7 starting quality of each type, and at most two more at +1…+6."""
    starting = _starting_indices(character.qualities)
    low, high = ADDITIONAL_RANGE
    for kind in BOUGHT_TYPES:
        start = starting.get(kind)
        additional = [i for i, q in enumerate(character.qualities) if q.type is kind and i != start]
        if start is None:
            if variants.define_during_play:
                found.warning(
                    SheetCode.NOT_YET_DEFINED,
                    "/qualities",
                    f"No +7 starting {kind} quality yet; it is free whenever you define it (§7.3).",
                )
            else:
                found.violation(
                    SheetCode.STARTING_QUALITY_MISSING,
                    "/qualities",
                    f"Every character starts with one {kind} quality at +7 (§3.3.3).",
                )
        for extra in additional[MAX_PER_TYPE - 1 :]:
            found.violation(
                SheetCode.TOO_MANY_OF_TYPE,
                f"/qualities/{extra}",
                f"Besides the +7 starting {kind} quality, at most {MAX_PER_TYPE - 1} more "
                f"can be bought (§3.3.3); '{character.qualities[extra].name}' would be one "
                "too many.",
            )
        for index in additional:
            magnitude = character.qualities[index].magnitude
            if low <= magnitude <= high:
                continue
            detail = (
                f"An additional {kind} quality is +{low} to +{high} (§3.3.3); this one is "
                f"{magnitude:+d}."
            )
            if start is not None and magnitude == STARTING_MAGNITUDE:
                detail = (
                    f"'{character.qualities[start].name}' is already your free +7 starting "
                    f"{kind} quality; any other {kind} quality is bought at +{low} to +{high} "
                    "(§3.3.3)."
                )
            found.violation(
                SheetCode.ADDITIONAL_OUT_OF_RANGE, f"/qualities/{index}/magnitude", detail
            )


def _check_negatives(character: Character, found: _Findings) -> None:
    """Decision: negative qualities are -1…-10 and cost or refund nothing."""
    low, high = NEGATIVE_RANGE
    for index, quality in enumerate(character.qualities):
        if quality.type is not QualityType.NEGATIVE:
            continue
        if not low <= quality.magnitude <= high:
            found.violation(
                SheetCode.NEGATIVE_OUT_OF_RANGE,
                f"/qualities/{index}/magnitude",
                f"A negative quality is {low} to {high}; this one is {quality.magnitude:+d}.",
            )
        else:
            found.warning(
                SheetCode.NEGATIVE_QUALITY_FREE,
                f"/qualities/{index}",
                "Negative qualities cost and refund no points: the book gives them "
                "no price (§3.1.1).",
            )


def _check_depletables(
    character: Character, variants: Variants, found: _Findings, *, in_group: bool
) -> None:
    """§3.3.4: one depletable quality (two under §7.6; none of its own in a §7.5 group)."""
    count = len(character.depletable)
    own = int(variants.multiple_depletables) + (0 if in_group else 1)
    if count < own and variants.define_during_play:
        missing = own - count
        found.warning(
            SheetCode.NOT_YET_DEFINED,
            "/depletable",
            f"{missing} depletable {'quality' if missing == 1 else 'qualities'} not yet "
            "defined (§7.3).",
        )
    elif count != own:
        if in_group:
            detail = (
                "In a group (§7.5) the shared score replaces a character's own depletable "
                "quality"
                + (
                    "; with two depletable qualities (§7.6) one of your own remains."
                    if variants.multiple_depletables
                    else "; remove this one."
                )
            )
        else:
            wanted = (
                "two depletable qualities (§7.6)" if own == 2 else "one depletable quality (§3.3.4)"
            )
            detail = f"A character has {wanted}; this sheet has {count}."
        found.violation(SheetCode.DEPLETABLE_COUNT, "/depletable", detail)
    for index, item in enumerate(character.depletable):
        if not DEPLETABLE_BASE <= item.maximum <= DEPLETABLE_MAX:
            found.violation(
                SheetCode.DEPLETABLE_OUT_OF_RANGE,
                f"/depletable/{index}/maximum",
                f"A depletable quality starts at {DEPLETABLE_BASE} and can be bought "
                f"up to {DEPLETABLE_MAX} (§3.3.4); this one is {item.maximum}.",
            )


def _check_depletion_modifier(character: Character, found: _Findings) -> None:
    """§3.3.5: 0 down to -10, at 4 points per -1."""
    value = character.depletion_modifier
    if not DEPLETION_MODIFIER_BEST <= value <= 0:
        found.violation(
            SheetCode.DEPLETION_MODIFIER_OUT_OF_RANGE,
            "/depletion_modifier",
            f"The depletion modifier runs from 0 to {DEPLETION_MODIFIER_BEST} "
            f"(§3.3.5); {value:+d} is outside it.",
        )


def _check_budget(
    points: Points, variants: Variants, found: _Findings, group_contribution: int
) -> None:
    if points.spent > points.budget:
        into_group = (
            f", {group_contribution} of them put into the group score (§7.5)"
            if group_contribution
            else ""
        )
        found.violation(
            SheetCode.OVER_BUDGET,
            "",
            f"{points.spent} points spent{into_group}, of a budget of {points.budget} "
            f"(§3.3.2): {points.spent - points.budget} too many.",
        )
    elif points.remaining and not variants.define_during_play:
        verb = "is" if points.remaining == 1 else "are"
        found.warning(
            SheetCode.POINTS_UNSPENT,
            "",
            f"{points.remaining} of {points.budget} points {verb} unspent.",
        )


def _advancement_earned(variants: Variants) -> bool:
    """§7.4: the conflicts played have earned at least one advancement point."""
    return budget_for(variants) > BASE_BUDGET


def _check_established(
    character: Character,
    previous: Character,
    variants: Variants,
    prefix: str,
    previous_prefix: str,
    found: _Findings,
) -> None:
    """§7.3: once written on the sheet, a quality can never change or disappear; nor can
    a depletable quality's maximum or the depletion modifier, except as §7.4 allows."""
    _check_established_qualities(character, previous, prefix, previous_prefix, found)
    advanced = _advancement_earned(variants)
    _check_established_depletables(character, previous, advanced, prefix, previous_prefix, found)
    _check_established_depletion_modifier(character, previous, advanced, prefix, found)


def _check_established_depletables(
    character: Character,
    previous: Character,
    advanced: bool,
    prefix: str,
    previous_prefix: str,
    found: _Findings,
) -> None:
    """§7.3 with §7.4: a depletable quality on the previous sheet is established (matched
    by name, ignoring case); it may not be removed, and its maximum may not change — unless
    advancement points have been earned (§7.4), when it may rise but never fall (decision).
    One not yet on the previous sheet is being defined, at any maximum."""
    now = {d.name.strip().casefold(): (i, d) for i, d in enumerate(character.depletable)}
    for index, before in enumerate(previous.depletable):
        match = now.get(before.name.strip().casefold())
        if match is None:
            found.violations.append(
                Finding(
                    code=SheetCode.ESTABLISHED_DEPLETABLE_REMOVED,
                    pointer=f"{previous_prefix}/depletable/{index}",
                    detail=f"The depletable quality '{before.name}' is established and cannot "
                    "be removed (§7.3).",
                )
            )
            continue
        current_index, after = match
        if after.maximum == before.maximum or (advanced and after.maximum > before.maximum):
            continue
        if advanced:
            detail = (
                f"'{before.name}' is established at {before.maximum}; advancement points "
                f"(§7.4) can raise it, never lower it to {after.maximum} (§7.3)."
            )
        else:
            detail = (
                f"'{before.name}' is established at {before.maximum} and cannot change "
                f"(§7.3); only advancement points, once earned (§7.4), can raise it."
            )
        found.violations.append(
            Finding(
                code=SheetCode.ESTABLISHED_DEPLETABLE_CHANGED,
                pointer=f"{prefix}/depletable/{current_index}/maximum",
                detail=detail,
            )
        )


def _check_established_depletion_modifier(
    character: Character, previous: Character, advanced: bool, prefix: str, found: _Findings
) -> None:
    """§7.3 with §7.4: a depletion modifier the previous sheet had bought (below 0) is
    established: it may not change — unless advancement points have been earned (§7.4),
    when it may improve (go more negative) but never worsen. A previous 0 is the modifier
    before any point went into it: not yet established, so buying it later defines it
    rather than changes it (decision: a sheet has no other way to leave it undefined)."""
    before, after = previous.depletion_modifier, character.depletion_modifier
    if before == 0 or after == before or (advanced and after < before):
        return
    if advanced:
        detail = (
            f"The depletion modifier is established at {before:+d}; advancement points "
            f"(§7.4) can improve it, never worsen it to {after:+d} (§7.3)."
        )
    else:
        detail = (
            f"The depletion modifier is established at {before:+d} and cannot change "
            "(§7.3); only advancement points, once earned (§7.4), can improve it."
        )
    found.violations.append(
        Finding(
            code=SheetCode.ESTABLISHED_DEPLETION_MODIFIER_CHANGED,
            pointer=f"{prefix}/depletion_modifier",
            detail=detail,
        )
    )


def _check_established_qualities(
    character: Character,
    previous: Character,
    prefix: str,
    previous_prefix: str,
    found: _Findings,
) -> None:
    """§7.3: once written on the sheet, a quality can never change or disappear."""
    now = {q.name.strip().casefold(): (i, q) for i, q in enumerate(character.qualities)}
    for index, before in enumerate(previous.qualities):
        match = now.get(before.name.strip().casefold())
        if match is None:
            found.violations.append(
                Finding(
                    code=SheetCode.ESTABLISHED_QUALITY_REMOVED,
                    pointer=f"{previous_prefix}/qualities/{index}",
                    detail=f"'{before.name}' is established and cannot be removed (§7.3).",
                )
            )
            continue
        current_index, after = match
        if (after.type, after.magnitude) != (before.type, before.magnitude):
            found.violations.append(
                Finding(
                    code=SheetCode.ESTABLISHED_QUALITY_CHANGED,
                    pointer=f"{prefix}/qualities/{current_index}",
                    detail=f"'{before.name}' is established as {before.type} "
                    f"{before.magnitude:+d} and cannot change (§7.3).",
                )
            )


def validate_character(
    character: Character,
    variants: Variants,
    previous: Character | None = None,
    *,
    prefix: str = "/character",
    previous_prefix: str = "/previous",
    group_contribution: int | None = None,
) -> CharacterValidationReport:
    """Every violation and warning of ``character`` under ``variants``, and its points.

    ``group_contribution`` is set when the character belongs to a §7.5 group: the points it
    puts into the shared score, paid from its own budget.
    """
    found = _Findings(prefix)
    in_group = group_contribution is not None
    _check_names(character, found)
    _check_core(character, variants, found)
    _check_bought_types(character, variants, found)
    _check_negatives(character, found)
    _check_depletables(character, variants, found, in_group=in_group)
    _check_depletion_modifier(character, found)
    points = points_for(character, variants, extra_depletable=group_contribution or 0)
    _check_budget(points, variants, found, group_contribution or 0)
    if previous is not None:
        if variants.define_during_play:
            _check_established(character, previous, variants, prefix, previous_prefix, found)
        else:
            found.warnings.append(
                Finding(
                    code=SheetCode.PREVIOUS_IGNORED,
                    pointer=previous_prefix,
                    detail="The previous sheet was not compared: established qualities are "
                    "checked only when qualities are defined during play (§7.3).",
                )
            )
    conditions = tuple(
        QualityCondition(name=item.name, maximum=item.maximum, thresholds=thresholds(item.maximum))
        for item in character.depletable
        if item.maximum >= 1
    )
    return CharacterValidationReport(
        valid=not found.violations,
        violations=tuple(found.violations),
        warnings=tuple(found.warnings),
        points=points,
        conditions=conditions,
    )
