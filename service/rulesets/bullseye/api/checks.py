"""``/v1/checks``: stateless checks, one or a batch, and a check's odds."""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, Response, post
from litestar.params import Body
from msgspec import Meta

from service.http.contract.body import StrictJson
from service.http.contract.context import new_id
from service.http.contract.registry import ServerDice
from service.http.odds.gate import (
    ODDS_HEADERS,
    ODDS_RESPONSES,
    OddsGateDependency,
    odds_responses,
    with_odds,
)
from service.http.receipts.signing import receipt_dice, receipts_of, with_receipt
from service.http.shell.fast_json import FastJson
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.bullseye.api.examples import (
    BATCH_EXAMPLES,
    CHECK_EXAMPLES,
    CHECK_ODDS_EXAMPLES,
)
from service.rulesets.bullseye.api.problems import ResolveCheckProblem
from service.rulesets.bullseye.rules.check_odds import (
    CheckOddsRequest,
    check_odds,
    check_odds_request,
)
from service.rulesets.bullseye.rules.check_odds_answer import CheckOdds
from service.rulesets.bullseye.rules.check_odds_cost import check_odds_cost
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
  gives the faces rolled at the table, one a die (422: too few `faces-missing`, with
  `missing`, too many `faces-extra`, with `extra`, a face the die does not show
  `face-out-of-range`, formerly all `illegal-faces`; with a `seed`, `faces-and-seed`,
  formerly `roll-with-seed`). `quick10` takes 10 (§2.5; refused when the
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
* **Odds** in the same call: with `with_odds: true` the answer's `odds` is what
  `checkOdds` answers for this body (less `roll`, `seed` and `with_odds`), computed from
  the rules alone, before and whatever the roll, and through the same odds gate
  (docs/odds.md): 422 `odds-too-costly` or 503 `odds-busy` as `checkOdds` would answer,
  once the check itself is accepted; null when not asked (and then no odds work is done).
"""

_ODDS_DESCRIPTION = """\
The exact odds of a check before it is rolled: the `resolveCheck` body less `roll`, `seed`
and `with_odds` (any of them: 400 `invalid-body`, an `unknown-field` error at its
pointer). Refused (422) for the same reasons, with the same codes and pointers, as the
check itself (an incapacitated or retired actor, a Quick 10 with the depletable quality
at issue, a `strict` §6.3 breach…); the same §6.3 warnings. Computed as fractions, never
simulated: every probability is `{p, exact}` (`exact` a reduced fraction such as "11/20",
`p` its decimal to 12 places).

* `modifiers`, `total_modifier` (M), `target` (T): as the check applies them (§2.2, §6.3).
* Each way of making the check is a `CheckOutcomeOdds`: the distributions of the
  `die_result`, the `yield` (Y = die result + M, §2.1.2, with its §2.1.3 label) and the
  `spread` (Δ = Y − T, §2.4, with its §2.4.1 label); `success` (Δ > 0), `stalemate`
  (Δ = 0), `failure` (Δ < 0); `spread_bands`, each of the nine §2.4.1 rows with the
  probability of the spreads that take its label (the bottom row takes every spread
  below it, the top every spread above); with a `depletion` block, `depletion.losses`,
  who loses how much (§2.4.2, §3.2.2: the loser suffers |Δ| + the winner's threat + its
  own depletion modifier, if positive; a stalemate is `none`, 0) and `depletion.after`,
  the condition each affected score may be left in (§3.2.3–§3.2.5); with a `restoration`
  block, the points it may restore and the condition after (§3.2.6).
* `as_asked`: the check as the body asks it — its `dice` rolled, or 10 with `quick10`
  (§2.5), or 20 with `bullseye` (§7.2).
* `dice_kinds`: each dice kind of §7.1 (d20, 2d10, 3d6, 4d6-4), `rolled`, and
  `with_held_bullseye`. A bullseye is spent after the roll is seen (§7.2), so the figure
  that helps a player decide is that of one who holds a bullseye and spends it exactly
  when the roll would not succeed (a failure or a stalemate; decision): those rolls
  become a die result of 20, never worse than any roll of §7.1 dice, and a successful
  roll is kept. `held_bullseye_spent` is how often that happens.
* `with_spent_bullseye`: a bullseye spent whatever the roll, the die result 20 (§7.2).
* `with_quick10`: a Quick 10, the die result 10 (§2.5) — a fixed outcome, so every
  probability is 1/1 or 0/1; null when the depletable quality is at issue (refused, §2.5).
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
        responses=odds_responses(ResolveCheckProblem),
        # The hottest route: served in one step (service.http.shell.fast_json).
        middleware=[FastJson],
    )
    async def resolve(
        self,
        data: Annotated[CheckRequest, Body(examples=CHECK_EXAMPLES)],
        rng: ServerDice,
        request: Request[Any, Any, Any],
    ) -> CheckResult:
        """Resolve one check, with its odds when asked (``with_odds``, through the odds
        gate); sign it when asked (``receipt``)."""
        dice = receipt_dice(rng, data.receipt)
        answer = await with_odds(
            request,
            resolve_check(data, dice, new_id()),
            check_odds_request(data),
            check_odds,
            cost=check_odds_cost,
            answer_type=CheckOdds,
        )
        return await with_receipt(
            answer,
            dice,
            request,
            ruleset="bullseye",
            operation="resolveCheck",
            table=data.roll is not None,
        )

    @post(
        "/odds",
        operation_id="checkOdds",
        summary="Exact odds of a check",
        description=_ODDS_DESCRIPTION,
        dto=StrictJson[CheckOddsRequest],
        return_dto=None,
        status_code=200,
        responses=ODDS_RESPONSES,
        response_headers=ODDS_HEADERS,
    )
    async def odds(
        self,
        data: Annotated[CheckOddsRequest, Body(examples=CHECK_ODDS_EXAMPLES)],
        odds_gate: OddsGateDependency,
    ) -> Response[CheckOdds]:
        """The odds of one check."""
        return await odds_gate.answer(data, check_odds, cost=check_odds_cost)

    @post(
        "/batch",
        operation_id="resolveCheckBatch",
        summary="Resolve up to 100 checks at once",
        description="Each check is resolved as by `resolveCheck`, in order (each may ask "
        "`with_odds`). If any is refused, "
        "none is returned: the 422 lists every refused check's reasons, each pointer under "
        "`/checks/{index}`. Then the odds of the checks that ask `with_odds`, each through "
        "the odds gate as `checkOdds` (docs/odds.md): any refused (`odds-too-costly`), and "
        "none is returned either, the 422 listing each under `/checks/{index}`. A check "
        "with `receipt: true` is signed on its own: its receipt's "
        "`request_sha256` is the digest of its item of `checks`, as sent.",
        dto=StrictJson[BatchRequest],
        return_dto=None,
        status_code=200,
        responses=ODDS_RESPONSES,
        middleware=[FastJson],
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
        results = await _with_odds(request, results, data.checks)
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


async def _with_odds(
    request: Request[Any, Any, Any], results: list[CheckResult], checks: tuple[CheckRequest, ...]
) -> list[CheckResult]:
    """Each result with its check's odds when it asks ``with_odds`` (through the gate);
    every refusal at once, each under its check's index."""
    if not any(check.with_odds for check in checks):
        return results
    answered: list[CheckResult] = []
    concerns: list[Concern] = []
    for index, (result, check) in enumerate(zip(results, checks, strict=True)):
        if (asked := check_odds_request(check)) is None:
            answered.append(result)
            continue
        try:
            answered.append(
                await with_odds(
                    request,
                    result,
                    asked,
                    check_odds,
                    cost=check_odds_cost,
                    answer_type=CheckOdds,
                )
            )
        except RulesError as error:
            concerns.extend(error.under(f"/checks/{index}").concerns)
        # Each check's odds are computed in line (within the inline budget): let the
        # worker's other requests in between, so a batch of 100 never holds it at once.
        await asyncio.sleep(0)
    if concerns:
        raise RulesError.from_concerns(concerns)
    return answered
