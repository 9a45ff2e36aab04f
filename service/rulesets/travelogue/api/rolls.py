"""``/v1/travelogue/rolls`` and ``…/rolls/odds``: one roll of the pools, and its exact odds,
declared (the platform builds the routes: :mod:`service.http.shell.declared`)."""

from __future__ import annotations

from service.http.shell.declared import (
    OddsOperation,
    OddsTwin,
    RollOperation,
    stateless_routes,
    without_id,
)
from service.rulesets.travelogue.api.examples import ODDS_EXAMPLES, ROLL_EXAMPLES
from service.rulesets.travelogue.api.problems import RollProblem
from service.rulesets.travelogue.rules.odds import (
    PoolsOdds,
    PoolsRollResult,
    pools_odds,
    pools_odds_request,
    roll_answer,
)
from service.rulesets.travelogue.rules.odds_cost import pools_odds_cost
from service.rulesets.travelogue.rules.roll import PoolsRequest, PoolsRollRequest

__all__ = ["ROLLS"]

_ROLL_DESCRIPTION = """\
One roll of a bullseye's pools: the book's steps 3–7 of an attention ("When All The Flags
Are Gone", "Rolling The Bones", "Caught Or Escape"), as a game's `roll_pools` applies them.
Nothing is stored, and no step before (the Shooter's +1) or after (risk, buy-out) is applied.

3. **S**: the Shooter rolls Ammo dice; each face at most his Aim is `counted`.
4. **A**: the same for the Angel (0 Ammo rolls nothing).
5. With lo and hi the smallest and largest of the four stats: S − A above lo is
   `caught`, A − S above hi `escaped`, else `running`.
6. **Cracking**: the Shooter's dice sum (every die, counted or not) above Avoid × Allies.
7. **Exposure**: the Angel's dice sum above Armor × Angel.

Cracking and exposure together put the focus at risk once (`at_risk`; the words only
colour the scene, D12), and in a game risk counts only while he keeps `running` (D13).
Stats are taken as they stand (0…9 each, any total: buy-outs lower them).

**Dice** (D28): `faces` are the table's — exactly Ammo faces per pool (else 422
`faces-missing` with `missing: {shooter, angel}`, or `faces-extra`), each 1…6 (else
`face-out-of-range`); `seed` (0…2^63−1) draws the server's seeded dice, the Shooter's then
the Angel's, reproducibly; neither: the server's strong dice. Both: 422 `faces-and-seed`.
A pool may hold as many dice as a game's track allows (Ammo ≤ 1000).

**Odds in the same call**: `with_odds: true` adds `odds`, exactly what
`travelogueRollOdds` answers for the same pools and stats: the odds before the dice, never
conditioned on them (so at most 30 dice a pool: else 422 `too-many-dice`, after the
dice's own refusals). The odds go through the same odds gate as `travelogueRollOdds`
(docs/odds.md): 422 `odds-too-costly` or 503 `odds-busy` as it would answer. Without the
flag `odds` is null and nothing is computed.

**Receipt**: `receipt: true` signs the answer (`receipt`, a compact JWS over the request,
the answer with its `odds`, and the faces in rolling order: the Shooter's dice, then the
Angel's, as `shooter_dice` and `angel_dice` list them); see `docs/verifiable-rolls.md`.
The answer has no `id`, so the receipt's `id` is empty: its `time` and digests tell it apart.
"""

_ODDS_DESCRIPTION = """\
The exact odds of a roll of the pools before it is made: the `travelogueRoll` body
without `faces` or `seed` (either is a 400), at most **30 dice a pool** (else 422
`too-many-dice`), so every request's work is bounded.

Counted, never simulated: S and A are binomial (a die counts with probability Aim/6), and
because the Shooter's sum and his number come from the same dice (a big sum means few
counted dice), risk is counted jointly with the outcome, pool by pool, over every roll.
Like every game's odds, each probability is `{p, exact}`: `exact` a reduced fraction
(`"1/12"`, `"0/1"`), `p` it to 12 decimals; the distributions list `{number, p, exact}`.

* `caught`, `escaped`, `running` (step 5); `cracking` (6), `exposure` (7), `at_risk`
  (either, D12); `risk_asked`: running **and** at risk — the rolls that ask the player
  to buy out or let the ring flip (D13).
* `shooter_number`, `angel_number`: the distributions of S and A (values of probability
  0 left out).
* `go_for_broke`: the same pools rolled going for broke ("Getting Caught, Getting Away"):
  S > A caught, A > S escaped, a tie `at_large` (D23).

"Caught Or Escape" (stats 2/1/3/2, Shooter 2/3, Angel 3/2): caught 1/12, escaped 0,
running 11/12, cracking 53/54, exposure 11/12, at risk 647/648, risk asked 593/648.

`travelogueRoll` with `with_odds: true` answers these same odds beside the roll.
"""


POOLS_ODDS = OddsTwin(
    request=PoolsRequest,
    answer=PoolsOdds,
    compute=pools_odds,
    cost=pools_odds_cost,
)

ROLLS = stateless_routes(
    "/rolls",
    ruleset="travelogue",
    operations=[
        RollOperation(
            path="/",
            operation_id="travelogueRoll",
            summary="Roll the Shooter's and the Angel's pools",
            description=_ROLL_DESCRIPTION,
            examples=ROLL_EXAMPLES,
            request=PoolsRollRequest,
            answer=PoolsRollResult,
            rules=without_id(roll_answer),
            odds=POOLS_ODDS,
            odds_request=pools_odds_request,
            problem=RollProblem,
        ),
        OddsOperation(
            path="/odds",
            operation_id="travelogueRollOdds",
            summary="Exact odds of a roll of the pools",
            description=_ODDS_DESCRIPTION,
            examples=ODDS_EXAMPLES,
            odds=POOLS_ODDS,
        ),
    ],
)
