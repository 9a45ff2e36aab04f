"""Validating a character sheet ("General Pool", "Drives", "Extras", "Types", "Cost",
"Charges", D10–D12): its stats' target numbers, general pool, drives and extras against
the charges it earned.

Every violation and warning is reported at once, each with a code and a JSON pointer into
the request; a sheet that breaks the rules is still an answer, never a refusal. The
schema's ranges are wider than the rules' (a target number 1–9, say) so that such breaks
are reported with the rest.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.quick_shot.rules.charges import (
    BASE_GENERAL_POOL,
    BASE_TARGET_NUMBER,
    QuickShotChargeAccount,
    QuickShotChargeCount,
    QuickShotExtraType,
    account,
    needs,
)

__all__ = [
    "MAX_TARGET_NUMBER",
    "MIN_DESCRIPTION_WORDS",
    "MIN_TARGET_NUMBER",
    "QuickShotCharacter",
    "QuickShotCharacterCharges",
    "QuickShotCharacterDrive",
    "QuickShotCharacterExtra",
    "QuickShotCharacterFinding",
    "QuickShotCharacterReport",
    "QuickShotCharacterStat",
    "QuickShotCharacterValidation",
    "QuickShotGeneralPool",
    "QuickShotGeneralPoolView",
    "QuickShotSheetCode",
    "QuickShotWillpowerTotals",
    "validate_character",
]

MIN_TARGET_NUMBER = 3  # the service's range for a stat's TN (a gamble takes 3…7)
MAX_TARGET_NUMBER = 7
# "Types", "Extras": the stronger the extra, the longer its description should be.
MIN_DESCRIPTION_WORDS = {
    QuickShotExtraType.MINOR: 3,
    QuickShotExtraType.SIGNIFICANT: 6,
    QuickShotExtraType.MAJOR: 10,
}

StatName = Annotated[str, Meta(min_length=1, max_length=60)]
Wp = Annotated[int, Meta(ge=0, le=100)]
Charges = Annotated[int, Meta(ge=0, le=1000)]


class QuickShotCharacterStat(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A stat and the target number its gambles roll against ("Cost": 5 until charges
    move it)."""

    name: StatName
    target_number: Annotated[
        int,
        Meta(
            ge=1,
            le=9,
            description="Wide on purpose: outside 3–7 is reported as a violation with the rest.",
        ),
    ] = BASE_TARGET_NUMBER


class QuickShotGeneralPool(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "General Pool": WP that recovers after a few hours' rest; 5 unless bought up (D11)."""

    maximum: Wp = BASE_GENERAL_POOL
    current: Annotated[Wp, Meta(description="What is left now; null: the pool is full.")] | None = (
        None
    )


class QuickShotCharacterDrive(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "Drives": a named pool of WP with the goal it serves."""

    name: StatName
    goal: Annotated[str, Meta(max_length=300)]
    wp: Wp


class QuickShotCharacterExtra(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "Extras", "Types": a skill, talent, piece of equipment or power, described in a few
    words or sentences, and any limitation on it."""

    name: Annotated[str, Meta(min_length=1, max_length=120)]
    type: QuickShotExtraType
    description: Annotated[str, Meta(max_length=2000)]
    limitation: Annotated[str, Meta(max_length=500)] | None = None


class QuickShotCharacterCharges(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "Cost", "Charges": the charges the character has earned, before any combining."""

    minor: Charges = 0
    significant: Charges = 0
    major: Charges = 0


class QuickShotCharacter(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character sheet as the client keeps it (stateless, D1)."""

    name: Annotated[str, Meta(min_length=1, max_length=120)]
    stats: Annotated[tuple[QuickShotCharacterStat, ...], Meta(max_length=16)] = ()
    general_pool: QuickShotGeneralPool = QuickShotGeneralPool()
    drives: Annotated[tuple[QuickShotCharacterDrive, ...], Meta(max_length=16)] = ()
    extras: Annotated[tuple[QuickShotCharacterExtra, ...], Meta(max_length=64)] = ()
    charges: QuickShotCharacterCharges = QuickShotCharacterCharges()


class QuickShotCharacterValidation(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character to check."""

    character: QuickShotCharacter


class QuickShotSheetCode(StrEnum):
    """What a finding is about. Violations make the sheet invalid; warnings never do."""

    DUPLICATE_NAME = "duplicate-name"
    TARGET_NUMBER_OUT_OF_RANGE = "target-number-out-of-range"
    POOL_OVER_MAXIMUM = "pool-over-maximum"
    CHARGES_INSUFFICIENT = "charges-insufficient"
    GENERAL_POOL_BELOW_FIVE = "general-pool-below-five"
    DRIVE_WITHOUT_GOAL = "drive-without-goal"
    EXTRA_DESCRIPTION_SHORT = "extra-description-short"


class QuickShotCharacterFinding(Value, frozen=True, kw_only=True):
    """One violation or warning: what, where (a JSON pointer into the request) and why."""

    code: QuickShotSheetCode
    pointer: Annotated[str, Meta(max_length=60)]
    detail: Annotated[str, Meta(max_length=400)]


class QuickShotGeneralPoolView(Value, frozen=True, kw_only=True):
    """The general pool: the base every character has, the points bought (D11)."""

    base: Annotated[int, Meta(ge=BASE_GENERAL_POOL, le=BASE_GENERAL_POOL)]
    bought: Annotated[int, Meta(ge=0, le=100)]
    maximum: Wp


class QuickShotWillpowerTotals(Value, frozen=True, kw_only=True):
    """The WP the sheet holds now: the general pool's (its current value, or its maximum
    when no current is given) and the drives' together."""

    general: Wp
    drives: Annotated[int, Meta(ge=0, le=1600)]
    total: Annotated[int, Meta(ge=0, le=1700)]


class QuickShotCharacterReport(Value, frozen=True, kw_only=True):
    """The verdict on a sheet: valid when it has no violation."""

    valid: bool
    violations: Annotated[tuple[QuickShotCharacterFinding, ...], Meta(max_length=200)]
    warnings: Annotated[tuple[QuickShotCharacterFinding, ...], Meta(max_length=200)]
    charges: QuickShotChargeAccount
    general_pool: QuickShotGeneralPoolView
    willpower: QuickShotWillpowerTotals


_Report = Callable[[QuickShotSheetCode, str, str], None]  # adds a violation or a warning


def _words(text: str) -> int:
    return len(text.split())


def validate_character(request: QuickShotCharacterValidation) -> QuickShotCharacterReport:
    """Every violation and warning of ``request.character`` at once, and its charges."""
    sheet = request.character
    violations: list[QuickShotCharacterFinding] = []
    warnings: list[QuickShotCharacterFinding] = []

    def violation(code: QuickShotSheetCode, pointer: str, detail: str) -> None:
        violations.append(QuickShotCharacterFinding(code=code, pointer=pointer, detail=detail))

    def warning(code: QuickShotSheetCode, pointer: str, detail: str) -> None:
        warnings.append(QuickShotCharacterFinding(code=code, pointer=pointer, detail=detail))

    _stats(sheet.stats, violation)
    _general_pool(sheet.general_pool, violation, warning)
    _drives(sheet.drives, violation, warning)
    _extras(sheet.extras, violation, warning)

    earned = QuickShotChargeCount(
        minor=sheet.charges.minor,
        significant=sheet.charges.significant,
        major=sheet.charges.major,
    )
    needed = needs(
        (extra.type for extra in sheet.extras),
        (stat.target_number for stat in sheet.stats),
        sheet.general_pool.maximum,
    )
    charges = account(earned, needed)
    if charges.missing_minor_equivalent:
        violation(
            QuickShotSheetCode.CHARGES_INSUFFICIENT,
            "/character/charges",
            f"The sheet needs {needed.minor} minor, {needed.significant} significant and "
            f'{needed.major} major charge(s) ("Cost"); combining five of a type into one of '
            f"the next still leaves it {charges.missing_minor_equivalent} minor charge(s) "
            "short, and charges are never split (D10).",
        )

    pool = sheet.general_pool
    general = pool.maximum if pool.current is None else pool.current
    drives = sum(drive.wp for drive in sheet.drives)
    return QuickShotCharacterReport(
        valid=not violations,
        violations=tuple(violations),
        warnings=tuple(warnings),
        charges=charges,
        general_pool=QuickShotGeneralPoolView(
            base=BASE_GENERAL_POOL,
            bought=max(0, pool.maximum - BASE_GENERAL_POOL),
            maximum=pool.maximum,
        ),
        willpower=QuickShotWillpowerTotals(general=general, drives=drives, total=general + drives),
    )


def _duplicates(names: Sequence[str], at: str, what: str, violation: _Report) -> None:
    """A name repeated in one list (trimmed, case-folded), reported at the later one."""
    seen: dict[str, int] = {}
    for index, name in enumerate(names):
        key = name.strip().casefold()
        if key in seen:
            violation(
                QuickShotSheetCode.DUPLICATE_NAME,
                f"{at}/{index}/name",
                f"'{name.strip()}' repeats {what} {seen[key]} (names compare trimmed, "
                "ignoring case).",
            )
        else:
            seen[key] = index


def _stats(stats: Sequence[QuickShotCharacterStat], violation: _Report) -> None:
    """ "Cost": each step a target number moves from 5 is bought; the service takes 3…7."""
    _duplicates([stat.name for stat in stats], "/character/stats", "stat", violation)
    for index, stat in enumerate(stats):
        if not MIN_TARGET_NUMBER <= stat.target_number <= MAX_TARGET_NUMBER:
            violation(
                QuickShotSheetCode.TARGET_NUMBER_OUT_OF_RANGE,
                f"/character/stats/{index}/target_number",
                f"Target number {stat.target_number} is outside "
                f"{MIN_TARGET_NUMBER}…{MAX_TARGET_NUMBER}, the range a gamble takes.",
            )


def _general_pool(pool: QuickShotGeneralPool, violation: _Report, warning: _Report) -> None:
    """ "General Pool": 5 WP for most characters, more bought with major charges (D11)."""
    if pool.current is not None and pool.current > pool.maximum:
        violation(
            QuickShotSheetCode.POOL_OVER_MAXIMUM,
            "/character/general_pool/current",
            f"The general pool holds {pool.current} WP, over its maximum of {pool.maximum}.",
        )
    if pool.maximum < BASE_GENERAL_POOL:
        warning(
            QuickShotSheetCode.GENERAL_POOL_BELOW_FIVE,
            "/character/general_pool/maximum",
            f"A general pool of {pool.maximum} WP, below the {BASE_GENERAL_POOL} most "
            'characters have ("General Pool").',
        )


def _drives(
    drives: Sequence[QuickShotCharacterDrive], violation: _Report, warning: _Report
) -> None:
    """ "Drives": each a named WP pool serving a goal."""
    _duplicates([drive.name for drive in drives], "/character/drives", "drive", violation)
    for index, drive in enumerate(drives):
        if not drive.goal.strip():
            warning(
                QuickShotSheetCode.DRIVE_WITHOUT_GOAL,
                f"/character/drives/{index}/goal",
                f"The drive '{drive.name.strip()}' has no goal; a critical failure may take "
                'WP only from a drive related to the action ("Critical Failure").',
            )


def _extras(
    extras: Sequence[QuickShotCharacterExtra], violation: _Report, warning: _Report
) -> None:
    """ "Extras", "Types": named, and described at more length the stronger they are."""
    _duplicates([extra.name for extra in extras], "/character/extras", "extra", violation)
    for index, extra in enumerate(extras):
        least = MIN_DESCRIPTION_WORDS[extra.type]
        if (words := _words(extra.description)) < least:
            warning(
                QuickShotSheetCode.EXTRA_DESCRIPTION_SHORT,
                f"/character/extras/{index}/description",
                f"A {extra.type.value} extra described in {words} word(s); at least {least} "
                '("Types": the stronger the extra, the longer its description).',
            )
