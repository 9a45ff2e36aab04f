"""``/v1/quick-shot/willpower/rearrange``: WP moved between drives during a vacation
("Rearranging WP")."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.rulesets.quick_shot.rules.rearrange import (
    QuickShotRearrangeReport,
    QuickShotRearrangeRequest,
    rearrange,
)

__all__ = ["REARRANGE_EXAMPLES", "VACATION", "WillpowerController"]

# The design's rearrangement: four WP out of Duty add two to Revenge over a week.
VACATION: dict[str, Any] = {
    "drives": [{"name": "Duty", "wp": 4}, {"name": "Revenge", "wp": 1}],
    "moves": [{"from": "Duty", "to": "Revenge", "removed": 4}],
    "vacation_days": 7,
}

REARRANGE_EXAMPLES = [
    Example(
        summary="A week away: Duty gives way to Revenge",
        description="4 WP removed from Duty add 2 to Revenge: Duty 0, Revenge 3, 2 WP lost.",
        value=VACATION,
    ),
    Example(
        summary="Two moves in order, a large rearrangement",
        description="The second move spends WP the first added; 6 removed in all brings "
        "the warning `large-rearrangement` (D13).",
        value={
            "drives": [
                {"name": "Duty", "wp": 4},
                {"name": "Revenge", "wp": 1},
                {"name": "Family", "wp": 2},
            ],
            "moves": [
                {"from": "Duty", "to": "Revenge", "removed": 4},
                {"from": "Revenge", "to": "Family", "removed": 2},
            ],
            "vacation_days": 21,
        },
    ),
]

_REARRANGE_DESCRIPTION = """\
Moves WP between a character's drives during an extended vacation ("Rearranging WP",
D13): every **two** WP removed from one drive add **one** to another. The moves apply in
order, each to the balances the earlier ones left; names compare trimmed, ignoring case.
The general pool is not a drive. The service stores nothing: keep each `wp_after` on the
sheet (D1). `removed`, `added` and `lost` total the moves (lost = removed − added).

**Errors** (422, every one found at once with a pointer, except as noted):
`rearrange-odd` (a move's `removed` is odd, at `/moves/<i>/removed`), `unknown-drive`
(`from` or `to` names no drive of `drives`, or more than one), `same-drive` (`from` = `to`),
`vacation-too-short` (`vacation_days` below 7: an extended vacation lasts a week at
least); then, once every move names two different drives, `wp-insufficient` at the first
move removing more than its drive holds at that point (later moves build on it).

**Warning** `large-rearrangement` when 6 WP or more are removed in all: the seed may want a
longer vacation or a solid reason for the change, which is the GM's call (D13).
"""


class WillpowerController(Controller):
    """Rearranging WP between drives, stateless."""

    path = "/willpower"
    tags = ["quick-shot"]

    @post(
        "/rearrange",
        operation_id="quickShotRearrangeWillpower",
        summary="Rearrange WP between drives",
        description=_REARRANGE_DESCRIPTION,
        dto=StrictJson[QuickShotRearrangeRequest],
        return_dto=None,
        status_code=200,
        sync_to_thread=False,
        responses=problem_responses(400, 413, 415, 422),
    )
    def rearrange(
        self, data: Annotated[QuickShotRearrangeRequest, Body(examples=REARRANGE_EXAMPLES)]
    ) -> QuickShotRearrangeReport:
        """The drives after every move, or every reason the moves cannot be made."""
        return rearrange(data)
