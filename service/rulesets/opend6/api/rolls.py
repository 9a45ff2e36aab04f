"""``/v1/opend6/rolls`` and ``/v1/opend6/opposed``, each with its ``…/odds``: a roll and an
opposed roll, and their exact odds, declared (the platform builds the routes:
:mod:`service.http.shell.declared`); initiative, stateless, a controller of its own."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import Controller, Request, post
from litestar.params import Body

from service.http.contract.body import StrictJson
from service.http.contract.context import new_id
from service.http.contract.problems import problem_responses
from service.http.contract.registry import ServerDice
from service.http.receipts.signing import receipt_dice, with_receipt
from service.http.shell.declared import OddsOperation, OddsTwin, RollOperation, stateless_routes
from service.rulesets.opend6.api.examples import (
    INITIATIVE_EXAMPLES,
    ODDS_EXAMPLES,
    OPPOSED_EXAMPLES,
    OPPOSED_ODDS_EXAMPLES,
    ROLL_EXAMPLES,
)
from service.rulesets.opend6.rules.initiative import (
    InitiativeRequest,
    InitiativeResult,
    roll_initiative,
)
from service.rulesets.opend6.rules.odds_cost import opposed_odds_cost, roll_odds_cost
from service.rulesets.opend6.rules.opposed import OpposedRequest
from service.rulesets.opend6.rules.roll_odds import (
    OddsAnswer,
    OpposedAnswer,
    OpposedOddsAnswer,
    OpposedOddsRequest,
    RollAnswer,
    opposed_odds_request,
    opposed_roll_odds,
    roll,
    roll_odds,
    roll_odds_request,
    roll_opposed,
)
from service.rulesets.opend6.rules.spec import OddsRequest, RollRequest

__all__ = ["OPPOSED", "ROLLS", "InitiativeController"]


_ROLL_DESCRIPTION = """\
One roll of a die code ("Rolling Dice"), with everything the rules define for it.

* **The rolled code**, step by step (`steps`): the `base` (`skill`, `attribute`,
  `untrained` — the attribute, the difficulty raised by `unskilled_modifier`, default +5 —
  `alternate` — attribute + the skill's adds over its governing attribute, D12 — or
  `equipment`); a Fate Point doubles the base's dice and pips (D6, not `equipment`, not
  `initiative`); `bonuses` add regular dice and pips (never a Wild Die); "Preparing" adds
  +1D per whole doubling of `time.normal_seconds`, at most +3D (D11); the "Multi-Action
  Penalty" takes 1D per declared action beyond the allotment, except on `damage`,
  `damage_resistance` and `initiative` (D13). Below 1D: 422 `zero-dice` (D3), pointing at
  what took it there (`/actions/declared`, `/bonuses/<i>`, else `/base`); above 120
  dice: 422 `too-many-dice`. Pips never become dice (D1).
* **The dice** (`dice`, each with its `role`): one Wild Die, the rest regular. The Wild
  Die's initial 6 explodes (each 6 counts and is tossed again); its initial 1 is a
  Critical Failure: `critical_failure` `cancel_highest` (default, D5) drops it and the
  highest regular die (D4), `complication` counts everything and sets `complication`; both
  totals are always in `critical_failure`. Character Points (`character_points.before`,
  `.after`) each add an exploding die whose 1 is plain, before + after within
  `character_point_limit` (easy 2, cinematic 5; null is "unlimited", 20 a roll, D7; over
  it: 422 `cp-limit`) and `available`; with a Fate Point only under the GM's `cp_with_fp`
  (else 422 `cp-with-fp`).
* **Dice source**: `faces` from the table (too few: 422 `faces-missing`, saying how many
  more; too many: `faces-extra`, formerly `faces-surplus`; a non-6 inside a chain:
  `wild-chain`), or `seed`, or neither (a strong RNG); `faces` and `seed` both: 422
  `faces-and-seed`, formerly `faces-with-seed`. To spend Character Points after seeing a
  roll, send it again with the answer's `faces` and `character_points.after`: the server
  rolls only the new dice.
* **Outcome**: against a `difficulty` (`standard` level — a level alone is its range's
  top, D8 — `number`, `derived` 2 × dice + pips of the target's code, D9, or
  `wild_die_only`, one toss, never tossed again: 6 critical success, 1 success with a
  complication, D14; its `faces` are that toss alone, `wild: [<face>]`, anything more 422
  `faces-extra`),
  raised by the unskilled modifier, "Rushing" and generic `modifiers` (D17). Success when
  the total meets it (D2; a resisting roll, `roller_is_initiator: false`, must beat it).
  `result_points` = total − difficulty; `related_skill_modifier` ±max(1, ⌈|rp|/2⌉) for a
  later related roll (D10); an `attack` that succeeds earns `damage_bonus` ⌈rp/5⌉.
* **Odds in the same call**: `with_odds: true` adds `odds`, exactly what `openD6RollOdds`
  answers for the same body less `faces` and `seed`, through the same odds gate
  (docs/odds.md): once the roll is accepted, 422 `odds-too-costly` or 503 `odds-busy` as
  `openD6RollOdds` would answer (null when not asked, and then no odds work is done).
* **Receipt**: `receipt: true` signs the answer (`receipt`, a compact JWS over the request,
  the answer with its `odds`, and the faces the server rolled in rolling order: the
  regular dice, the Wild Die and its explosions, then the Character Point dice — whereas
  `faces` groups them by role); see `docs/verifiable-rolls.md`.
"""


class InitiativeController(Controller):
    """Initiative order, stateless."""

    path = "/initiative"
    tags = ["opend6"]

    @post(
        "/",
        operation_id="openD6Initiative",
        summary="Roll initiative and order the participants",
        description='"Initiative": each participant rolls its Acumen (kind `initiative`: no '
        "multi-action penalty, no Fate Point, `character_points` dice allowed, the Wild Die "
        "with `critical_failure`; D15) unless its `total` is given. With "
        '`optional_initiative_bonus` ("Optional Initiative Bonus") it adds ⌊adds/2⌋ of search '
        "over Acumen, ⌊Agility dice/4⌋ and ⌊bonus_ranks/6⌋ pips (D16). Order: total, then "
        '"Ties/No Rolls": `goes_first`, Acumen, search (absent: Acumen), Agility, dodge '
        "(absent: Agility), `edge` — codes compared as 3 × dice + pips — each highest first, "
        "then listing order (D16). `decided_by` names the key that put each place ahead of "
        "the next. `receipt: true` signs the answer: its faces are every participant's, in "
        "listing order (the order rolled), its `dice_source` `table` when any participant "
        "supplied `faces` (see docs/verifiable-rolls.md).",
        dto=StrictJson[InitiativeRequest],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 413, 415, 422),
    )
    async def initiative(
        self,
        data: Annotated[InitiativeRequest, Body(examples=INITIATIVE_EXAMPLES)],
        rng: ServerDice,
        request: Request[Any, Any, Any],
    ) -> InitiativeResult:
        """Roll and order; sign it when asked (``receipt``)."""
        dice = receipt_dice(rng, data.receipt)
        answer = roll_initiative(data, dice, new_id())
        return await with_receipt(
            answer,
            dice,
            request,
            ruleset="opend6",
            operation="openD6Initiative",
            table=any(entrant.faces is not None for entrant in data.participants),
        )


_ODDS_DESCRIPTION = """\
The exact odds of a roll before it is made — the `openD6Roll` body less `faces` and `seed`
(Character Points before and after are pooled). Computed as fractions, never simulated:
the Wild Die and each Character Point die explode without bound, and the service sums that
infinite series exactly (docs/opend6.md, "How the odds are computed"). Every probability
comes as `exact`, a reduced fraction (`"767/1296"`; long shots have long ones), and `p`,
the same rounded to 12 decimals.

`chances` holds the odds in one shape, tagged by `kind`; every member of a kind is always
sent, none is null:

* `total` (no difficulty) and `difficulty` (a total against one): `distribution`, each
  total with `p` and `exact` under the roll's `critical_failure` option (default
  `cancel_highest`, D5), listed up to the first total T with P(total > T) ≤ 10⁻¹²; `tail`
  (`above`: T), the exact rest, so the listing and the tail sum to exactly 1 (totals no
  roll can make are left out); `mean` (12 decimals) and `mean_exact` (a fraction);
  `at_least`, P(total ≥ t) for every t from the lowest total to T — the chance to meet a
  difficulty of t without naming one ("Determining Success", D2); `critical_success` and
  `critical_failure`, the Wild Die's first toss (1/6 each).
* `difficulty` adds `needed`, the least total that succeeds (the resolved difficulty; + 1
  for a resisting roll, which must beat it, D2), `success` under each option
  (`cancel_highest`, `complication`) and `success_with_complication`, the chance of
  succeeding under `complication` with the Wild Die's first toss a 1. An `automatic`
  difficulty: 1 (and 0).
* `wild_die_only` (a Wild-Die-only difficulty): `critical_success`, `success`,
  `complication`: 1/6, 2/3, 1/6 (D14).

`odds` and `wild_die_only` are the same figures in the first release's shape (null
siblings, `p_`-prefixed names), **deprecated**: they stay, unchanged, until a new version
of the API removes them (docs/opend6.md, "Odds in one shape").

Cheap enough to call on every keystroke: a 30D code with five Character Point dice takes
a few ms the first time, well under 1 ms after; the largest (120D, 20 Character Point
dice) tens of ms the first time.
"""


ROLL_ODDS = OddsTwin(
    request=OddsRequest,
    answer=OddsAnswer,
    compute=roll_odds,
    cost=roll_odds_cost,
)

ROLLS = stateless_routes(
    "/rolls",
    ruleset="opend6",
    operations=[
        RollOperation(
            path="/",
            operation_id="openD6Roll",
            summary="Roll a die code",
            description=_ROLL_DESCRIPTION,
            examples=ROLL_EXAMPLES,
            request=RollRequest,
            answer=RollAnswer,
            rules=roll,
            odds=ROLL_ODDS,
            odds_request=roll_odds_request,
        ),
        OddsOperation(
            path="/odds",
            operation_id="openD6RollOdds",
            summary="Exact odds of a roll",
            description=_ODDS_DESCRIPTION,
            examples=ODDS_EXAMPLES,
            odds=ROLL_ODDS,
        ),
    ],
)


def _either_side_faces(data: OpposedRequest) -> bool:
    """Whether either side supplied the table's faces (the receipt's ``table``)."""
    return data.initiator.faces is not None or data.resister.faces is not None


OPPOSED_ODDS = OddsTwin(
    request=OpposedOddsRequest,
    answer=OpposedOddsAnswer,
    compute=opposed_roll_odds,
    cost=opposed_odds_cost,
)

OPPOSED = stateless_routes(
    "/opposed",
    ruleset="opend6",
    operations=[
        RollOperation(
            path="/",
            operation_id="openD6Opposed",
            summary="An opposed roll",
            description='"Opposed Difficulties": each side rolls as `openD6Roll` rolls (no '
            "`difficulty`); each side's handicap is its unskilled modifier plus its generic "
            "`modifiers` (D17). `margin` = (initiator total − handicap) − (resister total − "
            "handicap); the initiator wins when it is 0 or more (ties go to the initiator). "
            "`result_points` is the margin, from the initiator's side; an initiating `attack` "
            "that wins earns `damage_bonus` ⌈margin/5⌉ (D10). Refusals point under "
            "`/initiator` or `/resister`. `with_odds: true` adds `odds`, exactly what "
            "`openD6OpposedOdds` answers for both sides less their `faces` and `seed`, through "
            "the same odds gate (docs/odds.md: 422 `odds-too-costly` or 503 `odds-busy` once "
            "the rolls are accepted; null when not asked). `receipt: true` signs the answer: "
            "one receipt for both sides, its "
            "faces the initiator's then the resister's in rolling order, its `dice_source` "
            "`table` when either side supplied `faces` (see docs/verifiable-rolls.md).",
            examples=OPPOSED_EXAMPLES,
            request=OpposedRequest,
            answer=OpposedAnswer,
            rules=roll_opposed,
            odds=OPPOSED_ODDS,
            odds_request=opposed_odds_request,
            table=_either_side_faces,
        ),
        OddsOperation(
            path="/odds",
            operation_id="openD6OpposedOdds",
            summary="Exact odds of an opposed roll",
            description="`odds.p_initiator_wins` = P(A − B ≥ the initiator's handicap − the "
            "resister's) (D17; ties to the initiator, D2), with A and B the two totals, pips "
            "included, each under its own `critical_failure` option: `exact` (a reduced "
            "fraction) and `p` (12 decimals). Exact, not a truncated sum: each total is a "
            "mixture of (6 × the explosions of its exploding dice + a finite part), so the "
            'chance is a finite sum of closed forms (docs/opend6.md, "How the odds are '
            'computed"). Each side is an `openD6RollOdds` body without a difficulty.',
            examples=OPPOSED_ODDS_EXAMPLES,
            odds=OPPOSED_ODDS,
        ),
    ],
)
