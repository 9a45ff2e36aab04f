"""Willpower staked on a gamble and what comes back ("Bolstering", "Critical Success",
"Critical Failure", D1, D8). The service keeps no balance: it reports the change, and the
balance after when the client sends the one it holds."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = ["QuickShotWillpower", "QuickShotWpResult", "WpSource", "settle"]

Wp = Annotated[int, Meta(ge=0, le=100)]


class WpSource(StrEnum):
    """Where the bet comes from, and where critical WP goes (D8)."""

    GENERAL = "general"
    DRIVE = "drive"


class QuickShotWillpower(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The pool the bet is staked from, as the client's sheet holds it (D1)."""

    source: WpSource = WpSource.GENERAL
    drive: (
        Annotated[
            str,
            Meta(
                min_length=1,
                max_length=60,
                description='The drive\'s name ("Drives"); required with `source: drive`.',
            ),
        ]
        | None
    ) = None
    available: Annotated[Wp, Meta(description="WP in that pool before the gamble.")]


class QuickShotWpResult(Value, frozen=True, kw_only=True):
    """WP in and out. `change` = `gained` − `lost`; balances and `shortfall` are null when
    the request sent no `willpower`."""

    bet: Annotated[int, Meta(ge=0, le=3)]
    staked: Annotated[int, Meta(ge=0, le=3, description="The bet, or 0 when declined (D9).")]
    lost: Annotated[int, Meta(ge=0, le=4)]
    gained: Annotated[int, Meta(ge=0, le=1)]
    change: Annotated[int, Meta(ge=-4, le=1)]
    source: WpSource | None
    balance_before: Wp | None
    balance_after: Annotated[int, Meta(ge=0, le=101)] | None
    shortfall: Annotated[
        bool | None,
        Meta(
            description="A critical failure found less than 1 WP left after the bet: the GM "
            'imposes a significantly negative effect instead ("Critical Failure").'
        ),
    ]


def settle(
    bet: int,
    willpower: QuickShotWillpower | None,
    *,
    declined: bool,
    success: bool,
    critical: bool,
) -> QuickShotWpResult:
    """D8: success keeps the bet (+1 on a critical); failure loses it (−1 more on a
    critical, as far as the pool holds). Declining stakes nothing (D9)."""
    staked = 0 if declined else bet
    gained = 1 if (not declined and success and critical) else 0
    lost = 0 if (declined or success) else staked + (1 if critical else 0)
    shortfall: bool | None = None
    if willpower is not None:
        shortfall = False
        if lost > willpower.available:
            lost, shortfall = willpower.available, True
    change = gained - lost
    return QuickShotWpResult(
        bet=bet,
        staked=staked,
        lost=lost,
        gained=gained,
        change=change,
        source=willpower.source if willpower is not None else None,
        balance_before=willpower.available if willpower is not None else None,
        balance_after=willpower.available + change if willpower is not None else None,
        shortfall=shortfall,
    )
