"""``/v1/quick-shot/gambles`` and ``…/gambles/odds``: one gamble, and its exact odds,
declared (the platform builds the routes: :mod:`service.http.shell.declared`)."""

from __future__ import annotations

from service.http.shell.declared import OddsOperation, OddsTwin, RollOperation, stateless_routes
from service.rulesets.quick_shot.api.examples import GAMBLE_EXAMPLES, ODDS_EXAMPLES
from service.rulesets.quick_shot.api.problems import GambleProblem
from service.rulesets.quick_shot.rules.gambles import (
    QuickShotGambleRequest,
    QuickShotGambleResult,
    QuickShotOddsRequest,
    resolve_gamble,
)
from service.rulesets.quick_shot.rules.odds import gamble_odds, gamble_odds_request
from service.rulesets.quick_shot.rules.odds_answer import QuickShotOddsAnswer
from service.rulesets.quick_shot.rules.odds_cost import gamble_odds_cost

__all__ = ["GAMBLES"]

_GAMBLE_DESCRIPTION = """\
One gamble ("Gambles", "Step 1: Initiation" … "Step 4: Resolution"): one or more actions,
each a difficulty `minor` 1 … `overwhelming` 5 ("Effect 1: Minor" … "Effect 5:
Overwhelming"); two or more are a multi-action.

1. **Dice** ("Bolstering", D2): 8 d8s, 9 with a 1 WP bet, 10 with a 3 WP bet (a 2 WP bet:
   422 `wp-bet-invalid`). A die is **good** at TN − 1 and up, never a 1 (faces 4–8 at the
   seed's TN 5; `target_number` 3–7 is the stat's TN after charges, "Cost").
2. **Effect** (D2, the service's reconstruction from the seed's odds tables): a group of
   good dice is worth 1 + one per die matching another in it: a pair is Common, three of
   a kind or two pairs Hard, and so on (`GET …/tables/difficulties`). `pool_effect` is
   every good die as one group.
3. **Actions take disjoint groups** ("Multiple Effects: Multi-Actions", D3), decided in
   list order: each action succeeds iff it can together with every earlier success, so
   put the one that matters first. A success reports a minimal group of effect exactly
   its level; a failure takes no dice. **Team Work** lowers a level by one, never below
   Minor (D6). **Damage, fatigue, paradox** are actions of `kind` `injury`, `fatigue`,
   `paradox` with a `consequence` each (D7).
4. **Outcome** (D4): success only if every action succeeds. **Criticals** (D5): two or
   more 1s among all dice; on a success every action is a critical success, on a failure
   the first failed action is the critical failure.
5. **Willpower** (D1, D8): success keeps the bet (+1 on a critical), failure loses it (−1
   more on a critical). Send `willpower` (the pool and what it holds) to have the bet
   checked (422 `wp-insufficient`, `drive-required`) and `balance_after` reported; a
   critical failure with no WP left after the bet sets `shortfall` and the warning
   `critical-without-wp`. The service stores nothing.

**Step 3: Going for It** (D9): `decline: true` accepts failure: nothing is rolled, every
action fails, no critical, no WP changes (with `faces` or `seed`: 422
`decline-with-dice`). Every action Minor: the warning `roll-not-needed`, rolled anyway.

**Dice source**: a strong RNG by default; `seed` draws the kernel's seeded dice; `faces`
are the table's dice, base dice first, then the WP dice, exactly as many as the bet rolls
(422 `faces-missing` with `missing`, `faces-extra` with `extra`; with `seed`:
`faces-and-seed`). Refusals come all at once, in that order. Sending the answer's
`faces` back replays the gamble.

**Odds in the same call**: `with_odds: true` adds `odds`, exactly what
`quickShotGambleOdds` answers for this gamble's actions, bet and TN: the odds before the
dice, never conditioned on them — a declined gamble's too, the odds a player weighs at
"Step 3: Going for It". The gamble's refusals come first, all at once, as without the
flag. The odds go through the same odds gate as `quickShotGambleOdds` (docs/odds.md):
422 `odds-too-costly` or 503 `odds-busy` as it would answer. Without the flag `odds` is
null and nothing is computed.

**Receipt**: `receipt: true` signs the answer (`receipt`, a compact JWS over the request,
the answer with its `odds`, and the faces in rolling order: the 8 base dice, then the WP
dice, as `faces` lists them; none for a declined gamble); see `docs/verifiable-rolls.md`.
"""

_ODDS_DESCRIPTION = """\
The exact odds of a gamble before it is rolled — what a player consults at "Step 3: Going
for It" — for the `quickShotGamble` body without `faces`, `seed`, `decline` or
`willpower` (any of them is a 400), with the same `wp-bet-invalid`.

Every pool the 8, 9 or 10 d8s can show is counted with its multinomial weight — by how
many dice show a 1, a junk face or a good one and how the good dice match, never
simulated — so each probability is a whole number of 8^dice_count. Like every game's
odds, each is `{p, exact}`: `exact` the fraction reduced (a Common: 14596615/16777216,
already in lowest terms; its critical success `"1662535/8388608"`), `p` it to 12 decimals.
`success` is every action succeeding (D4), `critical` two or more 1s,
`critical_success`/`critical_failure` the two together; `actions` each action's success
under the list-order rule (D3), on effective levels (team work, D6).

`published` is the seed's row ("Step 2: Clarification" by difficulty and bet,
"Multiple Effects: Multi-Actions" by levels at no bet; the difficulty table first) at TN
5, null off the tables. The dice model is a reconstruction (D2): read as floors, the
printed whole percents lie within `tolerance_pp` (4) of these odds.

`quickShotGamble` with `with_odds: true` answers these same odds beside the gamble.
"""


GAMBLE_ODDS = OddsTwin(
    request=QuickShotOddsRequest,
    answer=QuickShotOddsAnswer,
    compute=gamble_odds,
    cost=gamble_odds_cost,
)

GAMBLES = stateless_routes(
    "/gambles",
    ruleset="quick-shot",
    operations=[
        RollOperation(
            path="/",
            operation_id="quickShotGamble",
            summary="Make a gamble",
            description=_GAMBLE_DESCRIPTION,
            examples=GAMBLE_EXAMPLES,
            request=QuickShotGambleRequest,
            answer=QuickShotGambleResult,
            rules=resolve_gamble,
            odds=GAMBLE_ODDS,
            odds_request=gamble_odds_request,
            problem=GambleProblem,
        ),
        OddsOperation(
            path="/odds",
            operation_id="quickShotGambleOdds",
            summary="Exact odds of a gamble",
            description=_ODDS_DESCRIPTION,
            examples=ODDS_EXAMPLES,
            odds=GAMBLE_ODDS,
        ),
    ],
)
