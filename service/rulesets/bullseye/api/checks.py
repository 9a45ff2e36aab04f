"""``/v1/checks``: stateless checks, one or a batch."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, post
from litestar.params import Body
from msgspec import Meta

from service.http.body import StrictJson
from service.http.context import new_id
from service.http.problems import problem_responses
from service.http.receipts import receipt_dice, receipts_of, with_receipt
from service.http.registry import ServerDice
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.bullseye.api.examples import BATCH_EXAMPLES, CHECK_EXAMPLES
from service.rulesets.bullseye.rules.checks import CheckRequest, CheckResult, resolve_check

__all__ = ["BatchRequest", "BatchResult", "CheckController"]

MAX_BATCH = 100


class BatchRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Several independent checks, resolved in order."""

    checks: Annotated[tuple[CheckRequest, ...], Meta(min_length=1, max_length=MAX_BATCH)]


class BatchResult(Value, frozen=True, kw_only=True):
    """The results, in the order of the request's checks."""

    results: tuple[CheckResult, ...]


_CHECK_DESCRIPTION = """\
Resolves one check (§2): yield = die result + total modifier, spread = yield − target,
outcome success / failure / stalemate, the narrative labels of §2.1.3, §2.3.1 and §2.4.1,
and who narrates (§5.1).

* **Qualities** (§6.3): per type — core, intrinsic, experiential, material — the largest
  applies in full, a second at half (rounded toward zero), a third or later not at all.
  `negative` qualities are not capped: every one applies in full.
* **Situational** modifiers should total −5…+5 (§6.3): a warning, or 422 with `strict`.
* **Impairment** comes from `depletable` scores (§3.2.3; the greatest only, §7.6); an
  incapacitated or retired character cannot check (422).
* **Dice** (§7.1): the server rolls (`seed` makes it reproducible) unless `roll.faces`
  gives the faces rolled at the table. `quick10` takes 10 (§2.5; refused when the
  depletable quality is at issue); `bullseye` replaces the die result with 20 (§7.2).
* **Depletion** (§2.4.2, §3.2.2): with a `depletion` block the loser suffers
  |spread| + winner's threat + loser's depletion modifier, if positive; a stalemate
  depletes nobody.
* **Restoration** (§3.2.6): with a `restoration` block a success restores as many points
  as its spread, never above the maximum; a failure or a stalemate restores nothing. Give
  exactly one of `restoration.depletable` (the name of one of the actor's own `depletable`
  scores: the patient's own check, so the actor must be fit to check) or
  `restoration.patient` (someone else's score: a healer's check; the patient may be
  incapacitated). Refused (422): both or neither (`restoration-target`), a name not in
  `depletable` (`unknown-depletable`), a retired patient (`patient-retired`: out of the
  game, §3.2.5), a patient's score above its maximum (`current-above-maximum`), or a
  `depletion` block as well (`restoration-with-depletion`: a check restores or depletes,
  not both). A Quick 10 may restore. The answer's `restoration` reports the points
  `restored` and the score `after`, with its condition; it is null without a request.
"""


class CheckController(Controller):
    """Stateless checks."""

    path = "/checks"
    tags = ["checks"]

    @post(
        "/",
        operation_id="resolveCheck",
        summary="Resolve a check",
        description=_CHECK_DESCRIPTION,
        dto=StrictJson[CheckRequest],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 413, 415, 422),
    )
    async def resolve(
        self,
        data: Annotated[CheckRequest, Body(examples=CHECK_EXAMPLES)],
        rng: ServerDice,
        request: Request[Any, Any, Any],
    ) -> CheckResult:
        """Resolve one check; sign it when asked (``receipt``)."""
        dice = receipt_dice(rng, data.receipt)
        answer = resolve_check(data, dice, new_id())
        return await with_receipt(
            answer,
            dice,
            request,
            ruleset="bullseye",
            operation="resolveCheck",
            table=data.roll is not None,
        )

    @post(
        "/batch",
        operation_id="resolveCheckBatch",
        summary="Resolve up to 100 checks at once",
        description="Each check is resolved as by `resolveCheck`, in order. If any is refused, "
        "none is returned: the 422 lists every refused check's reasons, each pointer under "
        "`/checks/{index}`. A check with `receipt: true` is signed on its own: its receipt's "
        "`request_sha256` is the digest of its item of `checks`, as sent.",
        dto=StrictJson[BatchRequest],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 413, 415, 422),
    )
    async def resolve_batch(
        self,
        data: Annotated[BatchRequest, Body(examples=BATCH_EXAMPLES)],
        rng: ServerDice,
        request: Request[Any, Any, Any],
    ) -> BatchResult:
        """Resolve every check, or refuse the whole batch with every reason. A check that
        asks for a receipt is signed with its own item of the body as its request."""
        results: list[CheckResult] = []
        concerns: list[Concern] = []
        rolled = []
        for index, check in enumerate(data.checks):
            dice = receipt_dice(rng, check.receipt)
            try:
                results.append(resolve_check(check, dice, new_id()))
            except RulesError as error:
                concerns.extend(error.under(f"/checks/{index}").concerns)
            rolled.append(dice)
        if concerns:
            raise RulesError.from_concerns(concerns)
        if any(check.receipt for check in data.checks):
            sent = msgspec.json.decode(await request.body())["checks"]
            receipts = receipts_of(request)
            results = [
                receipts.signed(
                    result,
                    dice,
                    item,
                    ruleset="bullseye",
                    operation="resolveCheckBatch",
                    table=check.roll is not None,
                )
                for result, dice, item, check in zip(
                    results, rolled, sent, data.checks, strict=True
                )
            ]
        return BatchResult(results=tuple(results))
