"""``/v1/self-conflict/checks`` and ``…/checks/odds``: one talent check, and its exact odds,
declared (the platform builds the routes: :mod:`service.http.shell.declared`)."""

from __future__ import annotations

from service.http.shell.declared import OddsOperation, OddsTwin, RollOperation, stateless_routes
from service.rulesets.self_conflict.api.examples import CHECK_EXAMPLES, ODDS_EXAMPLES
from service.rulesets.self_conflict.api.problems import CheckProblem
from service.rulesets.self_conflict.rules.checks import (
    TalentCheckRequest,
    TalentCheckResult,
    TalentOddsRequest,
    resolve_check,
)
from service.rulesets.self_conflict.rules.odds import talent_odds, talent_odds_request
from service.rulesets.self_conflict.rules.odds_answer import TalentOddsAnswer
from service.rulesets.self_conflict.rules.odds_cost import talent_odds_cost

__all__ = ["CHECKS"]


_CHECK_DESCRIPTION = """\
One talent check ("Task resolution and other rules"): the **Self** die (the object) and
the **Conflict** die (the task), each compared with the talent's level 0–6 ("The Scale").

1. **Roll** two distinguishable d6; the natural faces are kept.
2. **Criticals**, on the natural faces only, whatever the level, modifiers or karma:
   1 + 1 is a critical success (`outcome` `total_success`), 6 + 6 a critical failure
   (`failure`). A critical ends the roll (D2): no re-roll, no points, `total` null; the
   main dice still show `modified` and `comparison`, for narration.
3. **Modify**: the GM's `conflict_modifiers` go on the Conflict die only (+ is harder;
   each −6…+6, at most 8, summing to −10…+10, else 422 `conflict-modifier-out-of-range`;
   a sum beyond ±2 is applied with the warning `conflict-modifier-large`: the seed's "one
   or two points" is guidance, D4). The Self die takes the karma modifier alone: there is
   no field for a GM's Self modifier. Nothing is clamped: dice compare as integers, so
   every point counts even at levels 0 and 6 (D3).
4. **Compare** each modified main die with the level: below → 6 points (`under`), above
   → 0 (`over`), equal → one re-roll die worth its face (`equal`). Re-roll dice are raw
   points: never modified, compared or critical, so totals stay 0–12 (D6).
5. **Total**: 0–5 `failure`, 6–11 `marginal_success` (the seed's "nominal" success too,
   D14), 12 `total_success`. `outcome_label` is sentence case: Failure, Marginal success,
   Total success, Critical success, Critical failure; talent names keep their case (D14).

**Karma** (the seed's last rule; D1, D5): send the object's `karma.balance` and, to spend,
a signed `karma.modifier` k for the Self die (negative helps). It costs |k| (more than the
balance: 422 `karma-insufficient` at `/karma/modifier`), is stated before the roll — with
`faces`, collect k first — never touches a re-roll, and is spent even on a critical. A
critical of either kind gains 1 (at most 1 a check). The service stores nothing (D1):
keep `karma.balance_after` = balance − |k| + gained on the object; losing karma when an
object dies, splits or merges is the GM's call, applied by the client.

**Dice** (D7): a strong RNG by default; `seed` draws the kernel's seeded dice in rolling
order; `faces` are the table's dice in rolling order — Self, Conflict, then the re-rolls,
Self's first — exactly as many as the rules use, so every reported die is one the rules
used. The count is checked once the natural pair is known: too few → 422 `faces-missing`
whose extension members `missing` (a count) and `roles` name the dice still to roll; too
many → 422 `faces-extra`; a face outside 1–6 → 400 at `/faces/<i>`; `faces` with `seed`
→ 422 `faces-and-seed`. The refusals of steps 3 and karma come first, all at once; the
faces are only counted for a check the rules accept. Sending the answer's `faces` back
replays the check.

**Odds in the same call**: `with_odds: true` adds `odds`, exactly what
`selfConflictCheckOdds` answers for this body without `faces`, `seed`, `with_odds` and
`receipt`: the
odds before the dice, never conditioned on them. The check's refusals come first, all at
once, as without the flag. The odds go through the same odds gate as
`selfConflictCheckOdds` (docs/odds.md): 422 `odds-too-costly` or 503 `odds-busy` as it
would answer. Without the flag `odds` is null and nothing is computed.

**Receipt**: `receipt: true` signs the answer (`receipt`, a compact JWS over the request,
the answer with its `odds`, and the faces in rolling order: Self, Conflict, then the
re-rolls, as `faces` lists them); see `docs/verifiable-rolls.md`.

**Status** never enters a check (D8): the seed gives it no formula, so the GM expresses an
object's status through Conflict modifiers. There is no opposed check (D16): the seed
resolves an object against a task, so machine against machine is two checks.
"""

_ODDS_DESCRIPTION = """\
The exact odds of a check before it is rolled: the `selfConflictCheck` body without
`faces` or `seed` (either is a 400), with the same 422s and warnings.

Every main-die pair (36) and, where a die equals the level, every re-roll face is
enumerated — never simulated — so each probability is a whole number of 1296ths. Like
every game's odds, each is `{p, exact}`: `exact` the fraction reduced (`"661/1296"`,
`"1/36"`, `"0/1"`), `p` it to 12 decimals; `points` lists `{total, p, exact}`.

* `outcomes`: `failure`, `marginal_success`, `total_success`, criticals included (D2:
  1 + 1 is a total success, 6 + 6 a failure, whatever the level or modifiers).
* `critical`: `success` and `failure`, always 1/36 each.
* `at_least_marginal`, and `reroll` (at least one re-roll die).
* `points`: the totals of the checks that are not criticals (totals of probability 0
  left out).

GM modifiers and karma are compared unclamped (D3), so at level 0 a −2 on Conflict or on
Self (karma) both give 1044/216/36 in 1296ths (failure/marginal/total: 29/36, 1/6,
1/36), and a −7 on Conflict 36/1224/36; past −7 or +6 nothing changes. Level 4, no
modifier: 274/661/361 (137/648, 661/1296, 361/1296).

`selfConflictCheck` with `with_odds: true` answers these same odds beside the check.
"""


TALENT_ODDS = OddsTwin(
    request=TalentOddsRequest, answer=TalentOddsAnswer, compute=talent_odds, cost=talent_odds_cost
)

CHECKS = stateless_routes(
    "/checks",
    ruleset="self-conflict",
    operations=[
        RollOperation(
            path="/",
            operation_id="selfConflictCheck",
            summary="Make a talent check",
            description=_CHECK_DESCRIPTION,
            examples=CHECK_EXAMPLES,
            request=TalentCheckRequest,
            answer=TalentCheckResult,
            rules=resolve_check,
            odds=TALENT_ODDS,
            odds_request=talent_odds_request,
            problem=CheckProblem,
        ),
        OddsOperation(
            path="/odds",
            operation_id="selfConflictCheckOdds",
            summary="Exact odds of a talent check",
            description=_ODDS_DESCRIPTION,
            examples=ODDS_EXAMPLES,
            odds=TALENT_ODDS,
        ),
    ],
)
