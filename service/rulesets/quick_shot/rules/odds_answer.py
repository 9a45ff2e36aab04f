"""What the odds of a gamble answer with: every probability a kernel
:class:`~service.kernel.chance.Chance` (``p`` and a reduced ``exact``), beside the seed's
published row.

Its own module, apart from the counting (:mod:`.odds`), because a gamble's answer carries
it too (``with_odds``).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.chance import Chance
from service.kernel.values import Value
from service.rulesets.quick_shot.rules.difficulties import MAX_ACTIONS
from service.rulesets.quick_shot.rules.published import PublishedTable

__all__ = ["QuickShotActionOdds", "QuickShotOddsAnswer", "QuickShotPublishedRow"]


class QuickShotActionOdds(Value, frozen=True, kw_only=True):
    """One action's chance of success under the list-order rule (D3)."""

    index: Annotated[int, Meta(ge=0, le=MAX_ACTIONS - 1)]
    success: Chance


Percent = Annotated[int, Meta(ge=0, le=100)]


class QuickShotPublishedRow(Value, frozen=True, kw_only=True):
    """The seed's row for this gamble, as printed (whole percents, read as floors, D2)."""

    table: PublishedTable
    row: Annotated[str, Meta(max_length=16, examples=["(2,2)"])]
    critical_failure: Percent
    failure: Percent
    success: Percent
    critical_success: Percent


class QuickShotOddsAnswer(Value, frozen=True, kw_only=True):
    """The exact odds of a gamble under the service's dice model (D2), beside the seed's
    published row when it has one."""

    dice_count: Annotated[int, Meta(ge=8, le=10)]
    levels: Annotated[
        tuple[Annotated[int, Meta(ge=1, le=5)], ...],
        Meta(min_length=1, max_length=MAX_ACTIONS, description="Effective levels, in order."),
    ]
    success: Annotated[Chance, Meta(description="Every action succeeds (D4).")]
    failure: Chance
    critical_success: Chance
    critical_failure: Chance
    critical: Annotated[Chance, Meta(description="Two or more 1s, either way (D5).")]
    actions: Annotated[tuple[QuickShotActionOdds, ...], Meta(min_length=1, max_length=6)]
    published: QuickShotPublishedRow | None
    tolerance_pp: Annotated[
        int,
        Meta(
            ge=0,
            le=100,
            description="How far (percentage points) the model may stray from a published "
            "cell + 0.5 (D2).",
        ),
    ]
