"""What a sheet's charges pay for ("Cost", "Charges", D10–D12).

Each extra takes a charge of its own type; each step a stat's target number sits away from
5 takes a significant charge, whichever way it moved (D12); each general-pool point above 5
takes a major charge (D11). Five minors combine into a significant and five significants
into a major; nothing is ever split back down (D10). So a shortfall of majors is made up
from significants, then every significant still short from minors, and what minors cannot
cover is the sheet's shortfall, counted in minor charges.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = [
    "BASE_GENERAL_POOL",
    "BASE_TARGET_NUMBER",
    "COMBINE",
    "QuickShotChargeAccount",
    "QuickShotChargeCombinations",
    "QuickShotChargeCount",
    "QuickShotExtraType",
    "QuickShotSignedChargeCount",
    "account",
    "needs",
]

BASE_GENERAL_POOL = 5  # "General Pool": most characters have 5 WP
BASE_TARGET_NUMBER = 5  # "Step 4: Resolution": every roll is against 5 until charges move it
COMBINE = 5  # "Cost": five of a type make one of the next

Count = Annotated[int, Meta(ge=0)]
SignedCount = Annotated[
    int,
    Meta(
        description="Earned less needed after combining; below 0 only in minor charges, by "
        "`missing_minor_equivalent`."
    ),
]


class QuickShotExtraType(StrEnum):
    """ "Types": the expected influence of an extra, and the charge it costs ("Cost")."""

    MINOR = "minor"
    SIGNIFICANT = "significant"
    MAJOR = "major"


class QuickShotChargeCount(Value, frozen=True, kw_only=True):
    """A count of charges by type."""

    minor: Count
    significant: Count
    major: Count


class QuickShotSignedChargeCount(Value, frozen=True, kw_only=True):
    """What is left of each type once the sheet is paid for (D10)."""

    minor: SignedCount
    significant: SignedCount
    major: SignedCount


class QuickShotChargeCombinations(Value, frozen=True, kw_only=True):
    """The combinations the sheet needs ("Cost"): each uses five of the lower type."""

    minor_to_significant: Count
    significant_to_major: Count


class QuickShotChargeAccount(Value, frozen=True, kw_only=True):
    """Charges earned, charges needed, and how the difference was bridged."""

    earned: QuickShotChargeCount
    needed: QuickShotChargeCount
    combined: QuickShotChargeCombinations
    remaining: QuickShotSignedChargeCount
    missing_minor_equivalent: Annotated[
        int,
        Meta(ge=0, description="Minor charges short after every allowed combination (D10)."),
    ]


def needs(
    extras: Iterable[QuickShotExtraType], target_numbers: Iterable[int], pool_maximum: int
) -> QuickShotChargeCount:
    """What a sheet's purchases cost before any combining: a charge of its type per extra,
    a significant per target-number step away from 5 (signed both ways, D12) and a major
    per general-pool point above 5 (D11)."""
    types = list(extras)
    steps = sum(abs(tn - BASE_TARGET_NUMBER) for tn in target_numbers)
    return QuickShotChargeCount(
        minor=types.count(QuickShotExtraType.MINOR),
        significant=types.count(QuickShotExtraType.SIGNIFICANT) + steps,
        major=types.count(QuickShotExtraType.MAJOR) + max(0, pool_maximum - BASE_GENERAL_POOL),
    )


def account(earned: QuickShotChargeCount, needed: QuickShotChargeCount) -> QuickShotChargeAccount:
    """Pay for ``needed`` from ``earned``, combining upward only where a type runs short."""
    to_major = max(0, needed.major - earned.major)
    significants_used = needed.significant + COMBINE * to_major
    to_significant = max(0, significants_used - earned.significant)
    minors_used = needed.minor + COMBINE * to_significant
    return QuickShotChargeAccount(
        earned=earned,
        needed=needed,
        combined=QuickShotChargeCombinations(
            minor_to_significant=to_significant, significant_to_major=to_major
        ),
        remaining=QuickShotSignedChargeCount(
            minor=earned.minor - minors_used,
            significant=earned.significant + to_significant - significants_used,
            major=earned.major + to_major - needed.major,
        ),
        missing_minor_equivalent=max(0, minors_used - earned.minor),
    )
