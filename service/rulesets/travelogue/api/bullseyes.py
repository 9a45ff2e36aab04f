"""``/v1/travelogue/bullseyes/validate``: a table's bullseyes checked before a game."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Annotated, TypeVar

from litestar import Controller, post
from litestar.params import Body
from msgspec import Meta

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.kernel.values import Value
from service.rulesets.travelogue.api.examples import VALIDATE_EXAMPLES
from service.rulesets.travelogue.rules.setup import SetupReport, check_setup, setup_cost
from service.rulesets.travelogue.rules.sheet import MAX_PLAYERS, Sheet

__all__ = ["INLINE_SETUP_COST", "BullseyeController", "BullseyesValidation", "with_setup_check"]

T = TypeVar("T")

# A set-up whose texts hold more non-ASCII characters than this (about 1.5 ms of NFKC at
# worst) is checked on a worker thread; at the body limit the check takes about 20 ms,
# which the event loop should not wait for. ASCII set-ups, nearly all of them, stay inline:
# a thread would cost about as much as their check (docs/input-costs.md).
INLINE_SETUP_COST = 1000


async def with_setup_check(sheets: Sequence[Sheet], work: Callable[[], T]) -> T:
    """``work`` (which checks ``sheets`` first), inline when the check is cheap, else on a
    worker thread. The thread still takes the GIL, but gives it back to the event loop
    between texts, every few milliseconds at most, rather than after the whole check."""
    if setup_cost(sheets) <= INLINE_SETUP_COST:
        return work()
    return await asyncio.to_thread(work)


class BullseyesValidation(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The table's bullseyes, as a game's creation takes them."""

    bullseyes: Annotated[
        tuple[Sheet, ...],
        Meta(
            min_length=1,
            max_length=MAX_PLAYERS,
            description="1–6 sheets; fewer than 4 is the violation `player-count`.",
        ),
    ]


_VALIDATE_DESCRIPTION = """\
Checks the table's bullseyes ("The Set Up", "Bullseyes", "Your Name", "The Blanks") and
reports **every** violation and warning at once, each with a `code`, a JSON `pointer` into
this request and a sentence. Nothing is stored. A set-up that breaks the rules is still a
**200** with `valid: false`; only a malformed body is a 400. A game's creation runs the
same check and refuses a bad set-up with 422 `invalid-setup`, its `errors` these
violations (codes prefixed `travelogue/`).

**Violations**: `player-count` (4–6 players); `duplicate-player` (at the later sheet);
`blank-text` (name, shooter, angel and beef all filled in); `text-too-long` (name ≤ 40,
shooter and angel ≤ 120, beef ≤ 200 characters as sent); `points-not-nine` (the four stats
share exactly 9 points, D3); `duplicate-name` (names compared normalised, at the later one:
a name is the only handle the others have, D4); `not-connected` (D2, at each bullseye
outside the first one's component); `stat-range` (each stat 0–9, D3: the schema takes
any stat from −1000 to 1000, so a stat out of range is reported here with the rest, not
refused alone as a 400).

**Connected** (D2): two bullseyes are linked when their shooters or their beefs are equal
after Unicode NFKC, case folding, trimming and collapsing whitespace ("The Syndicate" is
" the  syndicate "); angels are never compared. All bullseyes must form **one** component:
{A, B} sharing a shooter and {C, D} a beef is not connected. `components` lists the groups
as positions in `bullseyes`.

**Warning**: `stat-zero` — a stat of 0 is allowed, the text only discourages it (D3).

Set by the service at a game's creation and never sent: Shooter Aim 1 Ammo 1, Angel Aim 0
Ammo 0, empty circles.
"""


class BullseyeController(Controller):
    """Set-up validation, stateless."""

    path = "/bullseyes"
    tags = ["travelogue"]

    @post(
        "/validate",
        operation_id="travelogueValidateBullseyes",
        summary="Validate a table's bullseyes",
        description=_VALIDATE_DESCRIPTION,
        dto=StrictJson[BullseyesValidation],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 413, 415),
    )
    async def validate(
        self, data: Annotated[BullseyesValidation, Body(examples=VALIDATE_EXAMPLES)]
    ) -> SetupReport:
        """Every violation and warning, and the link graph's components."""
        return await with_setup_check(data.bullseyes, lambda: check_setup(data.bullseyes))
