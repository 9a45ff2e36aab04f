"""Rearranging WP between drives during an extended vacation ("Rearranging WP", D13).

Every two WP removed from one drive add one to another; the moves apply in order, each to
the balances the earlier ones left. A vacation lasts a week at least. The seed's longer
vacation or solid justification for large changes is the GM's call, so it is a warning.
The general pool is not a drive and takes no part.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

__all__ = [
    "LARGE_REARRANGEMENT",
    "MIN_VACATION_DAYS",
    "WP_PER_POINT_ADDED",
    "QuickShotRearrangeDrive",
    "QuickShotRearrangeMove",
    "QuickShotRearrangeReport",
    "QuickShotRearrangeRequest",
    "QuickShotRearrangeWarning",
    "QuickShotRearrangeWarningCode",
    "QuickShotRearrangedDrive",
    "rearrange",
]

MIN_VACATION_DAYS = 7  # "Rearranging WP": an extended vacation lasts at least a week
WP_PER_POINT_ADDED = 2  # "Rearranging WP": two removed, one added
LARGE_REARRANGEMENT = 6  # D13: from this many WP removed, the seed asks for more (a warning)

DriveName = Annotated[str, Meta(min_length=1, max_length=60)]


class QuickShotRearrangeDrive(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A drive and the WP it holds before the vacation."""

    name: DriveName
    wp: Annotated[int, Meta(ge=0, le=100)]


class QuickShotRearrangeMove(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """WP taken from one drive (an even number) for another; names compare trimmed,
    ignoring case."""

    from_: DriveName = msgspec.field(name="from")
    to: DriveName
    removed: Annotated[
        int, Meta(ge=1, le=100, description="WP taken from `from`, even: half is added to `to`.")
    ]


class QuickShotRearrangeRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The drives, the moves in the order they apply, and the vacation's length."""

    drives: Annotated[tuple[QuickShotRearrangeDrive, ...], Meta(min_length=1, max_length=16)]
    moves: Annotated[tuple[QuickShotRearrangeMove, ...], Meta(min_length=1, max_length=16)]
    vacation_days: Annotated[int, Meta(ge=1, le=3650, description="At least 7 (D13).")]


class QuickShotRearrangedDrive(Value, frozen=True, kw_only=True):
    """A drive before and after the vacation."""

    name: DriveName
    wp_before: Annotated[int, Meta(ge=0, le=100)]
    wp_after: Annotated[int, Meta(ge=0, le=900)]


class QuickShotRearrangeWarningCode(StrEnum):
    """Guidance on a rearrangement, never a refusal."""

    LARGE_REARRANGEMENT = "large-rearrangement"


class QuickShotRearrangeWarning(Value, frozen=True, kw_only=True):
    """One piece of guidance: what and why."""

    code: QuickShotRearrangeWarningCode
    detail: Annotated[str, Meta(max_length=400)]


class QuickShotRearrangeReport(Value, frozen=True, kw_only=True):
    """The drives after every move, and the WP the moves took, added and lost."""

    drives: Annotated[tuple[QuickShotRearrangedDrive, ...], Meta(max_length=16)]
    removed: Annotated[int, Meta(ge=0, le=1600)]
    added: Annotated[int, Meta(ge=0, le=800)]
    lost: Annotated[int, Meta(ge=0, le=800)]
    warnings: Annotated[tuple[QuickShotRearrangeWarning, ...], Meta(max_length=4)]


def _key(name: str) -> str:
    return name.strip().casefold()


def _name_concerns(request: QuickShotRearrangeRequest) -> list[Concern]:
    """Each move's removal even, its drives named once each in the list, and different."""
    concerns: list[Concern] = []
    counts: dict[str, int] = {}
    for drive in request.drives:
        counts[_key(drive.name)] = counts.get(_key(drive.name), 0) + 1
    for index, move in enumerate(request.moves):
        at = f"/moves/{index}"
        if move.removed % WP_PER_POINT_ADDED:
            concerns.append(
                Concern(
                    code="quick-shot/rearrange-odd",
                    pointer=f"{at}/removed",
                    detail=f"{move.removed} WP removed: every two removed add one, so a move "
                    'removes an even number ("Rearranging WP", D13).',
                )
            )
        for field, name in (("from", move.from_), ("to", move.to)):
            if (count := counts.get(_key(name), 0)) != 1:
                held = "no drive" if count == 0 else f"{count} drives"
                concerns.append(
                    Concern(
                        code="quick-shot/unknown-drive",
                        pointer=f"{at}/{field}",
                        detail=f"'{name.strip()}' names {held} in `drives`; a move names "
                        "exactly one (the general pool is not a drive).",
                    )
                )
        if _key(move.from_) == _key(move.to):
            concerns.append(
                Concern(
                    code="quick-shot/same-drive",
                    pointer=f"{at}/to",
                    detail=f"The move takes WP from '{move.from_.strip()}' and gives it back: "
                    "WP moves from one drive to another.",
                )
            )
    return concerns


def rearrange(request: QuickShotRearrangeRequest) -> QuickShotRearrangeReport:
    """Apply the moves in order.

    Raises:
        RulesError: `rearrange-odd`, `unknown-drive`, `same-drive` (every move's, at once),
            `vacation-too-short` with them; when every move names its drives rightly, the
            first move taking more than its drive then holds, `wp-insufficient`.
    """
    concerns = _name_concerns(request)
    vacation = None
    if request.vacation_days < MIN_VACATION_DAYS:
        vacation = Concern(
            code="quick-shot/vacation-too-short",
            pointer="/vacation_days",
            detail=f"A vacation of {request.vacation_days} day(s); rearranging WP takes an "
            f'extended vacation of at least {MIN_VACATION_DAYS} ("Rearranging WP").',
        )
    if concerns:
        raise RulesError.from_concerns([*concerns, *([vacation] if vacation else [])])

    index_of = {_key(drive.name): index for index, drive in enumerate(request.drives)}
    wp = [drive.wp for drive in request.drives]
    for index, move in enumerate(request.moves):
        source, target = index_of[_key(move.from_)], index_of[_key(move.to)]
        if move.removed > wp[source]:
            # Later moves build on this one's result: only the first overdraft is reported.
            concerns.append(
                Concern(
                    code="quick-shot/wp-insufficient",
                    pointer=f"/moves/{index}/removed",
                    detail=f"Move {index} removes {move.removed} WP from "
                    f"'{request.drives[source].name.strip()}', which then holds {wp[source]}.",
                )
            )
            break
        wp[source] -= move.removed
        wp[target] += move.removed // WP_PER_POINT_ADDED
    if vacation is not None:
        concerns.append(vacation)
    if concerns:
        raise RulesError.from_concerns(concerns)

    removed = sum(move.removed for move in request.moves)
    added = removed // WP_PER_POINT_ADDED
    warnings = []
    if removed >= LARGE_REARRANGEMENT:
        warnings.append(
            QuickShotRearrangeWarning(
                code=QuickShotRearrangeWarningCode.LARGE_REARRANGEMENT,
                detail=f"{removed} WP removed: a change this large may need a longer vacation "
                'or a solid reason for the character\'s new priorities ("Rearranging WP", '
                "D13); the GM decides.",
            )
        )
    return QuickShotRearrangeReport(
        drives=tuple(
            QuickShotRearrangedDrive(name=drive.name, wp_before=drive.wp, wp_after=after)
            for drive, after in zip(request.drives, wp, strict=True)
        ),
        removed=removed,
        added=added,
        lost=removed - added,
        warnings=tuple(warnings),
    )
