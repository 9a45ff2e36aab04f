"""What an odds request will cost, known before it runs: an estimate in microseconds of
one worker's CPU, from the request's dice alone, for a gate that computes cheap requests
in line and sends dear ones off the event loop (or refuses them).

The work (:mod:`service.rulesets.opend6.rules.odds`) grows with each side's finite part,
``L = 5·regular + 4·cp_dice + 6`` values of numbers about ``B = 2.585·regular + 2.322·cp_dice``
bits long (``6^regular·5^cp_dice``), and with its exploding dice (``cp_dice + 1``):

* building a side (its regular dice, the sum less the highest, the CP dice's faces), once
  per ``(regular, cp_dice)``: a few big-integer convolutions of ``L`` terms;
* one roll's listing: a prefix of ``L`` and more totals under each part of its total
  (`cancel_highest` has two parts, the Wild Die's first toss 1…5 or 6; `complication` one);
* its "at least" rows (``chances.at_least``): one more reduced fraction per listed total,
  about ``L`` of them, once per roll whatever its parts;
* an opposed pair: for each pair of parts, six products of ``L/6`` terms of ``B`` bits
  (Karatsuba, so ``(size)^1.585``) and a closed-form sum over ``L/6`` gaps of degree
  ``cp_dice``.

Calibration: ``time.process_time`` of each piece, cold (every cache emptied), the least
of three runs, on this service's 2-core build machine (Python 3.11, shared with other jobs,
so CPU time rather than wall time) over every ``regular`` of 0, 2, 5, 10, 20, 40, 60, 90,
119 and ``cp_dice`` of 0, 2, 5, 10, 20 (one roll), and 0, 5, 20, 60, 119 by 0, 5, 20 on
each side under both options (opposed). The coefficients are a least-squares fit of the
relative error; ``SAFETY`` then lifts them so that, over 40 random opposed and 40 random
single odds requests measured end to end the same way, the estimate was above the
measured time every time, and at most 2.5 times above it (measured/estimate 0.40–0.81).
Cached answers cost far less: this is the cold cost. The dearest request the bounds
allow, two different sides of nearly the most dice (120D with 20 Character Point dice
against 120D with 19, `cancel_highest`: both sides built), is estimated at 90 ms
(measured 73 ms); the dearest single roll (120D, 20 CP dice) at 64 ms (measured 50 ms).
The "at least" rows came later, fitted the same way over ``regular`` 2…119 and ``cp_dice``
0…20 (0.5 ms at 3D, 7–10 ms at 120D with 20 CP dice, on a machine loaded well past its
cores, so an upper reading); the dearest single roll is now estimated at 77 ms.
"""

from __future__ import annotations

from service.kernel.errors import RulesError
from service.rulesets.opend6.rules.odds import RollDice
from service.rulesets.opend6.rules.opposed import OpposedRequest
from service.rulesets.opend6.rules.roll_odds import OpposedOddsRequest, roll_dice
from service.rulesets.opend6.rules.spec import (
    CriticalFailure,
    OddsRequest,
    RollRequest,
    WildDieOnlyDifficulty,
)

__all__ = [
    "REFUSED_COST",
    "SAFETY",
    "dice_odds_cost",
    "opposed_dice_cost",
    "opposed_odds_cost",
    "roll_odds_cost",
]

SAFETY = 1.6
REFUSED_COST = 50.0  # µs: a request refused before any odds (a code that cannot be rolled)


def dice_odds_cost(dice: RollDice) -> float:
    """Microseconds to answer one roll's odds cold (build, listing, "at least" rows,
    success chances)."""
    parts = _parts(dice)
    size = _length(dice) / 100
    listing = 420 + parts * (198 * size + 227 * size**2 + 39 * (dice.cp_dice + 1))
    at_least = 400 + 11 * _length(dice)
    return SAFETY * (_build(dice) + listing + at_least)


def opposed_dice_cost(initiator: RollDice, resister: RollDice) -> float:
    """Microseconds to answer an opposed pair's odds cold (both sides built, every pair of
    parts summed), whatever the pips and handicaps (they only move the sum's window)."""
    build = _build(initiator)
    if (resister.regular, resister.cp_dice) != (initiator.regular, initiator.cp_dice):
        build += _build(resister)
    pairs = 0.0
    for count_a in _counts(initiator):
        for count_b in _counts(resister):
            span = _length(initiator) + _length(resister)
            bits = _bits(initiator) + _bits(resister)
            product = (span / 12 * bits / 3000) ** 1.585
            pairs += (
                43
                + 35 * span / 100
                + 25 * product
                + 16 * span / 6 * (count_a + count_b) / 100
                + 16.5 * (count_a + count_b + 1) ** 2 / 100
            )
    return SAFETY * (build + pairs)


def roll_odds_cost(request: OddsRequest | RollRequest) -> float:
    """Microseconds of odds work ``request`` asks for: an odds request's, or a roll's with
    ``with_odds`` (0 without: a roll alone is cheap). A Wild-Die-only difficulty is one
    toss; a code that cannot be rolled is refused at once."""
    if isinstance(request, RollRequest) and not request.with_odds:
        return 0.0
    if isinstance(request.difficulty, WildDieOnlyDifficulty):
        return REFUSED_COST
    try:
        _, dice = roll_dice(request)
    except RulesError:
        return REFUSED_COST
    return dice_odds_cost(dice)  # an automatic difficulty lists the distribution too


def opposed_odds_cost(request: OpposedOddsRequest | OpposedRequest) -> float:
    """Microseconds of odds work ``request`` asks for: an opposed odds request's, or an
    opposed roll's with ``with_odds`` (0 without)."""
    if isinstance(request, OpposedRequest) and not request.with_odds:
        return 0.0
    try:
        (_, initiator), (_, resister) = roll_dice(request.initiator), roll_dice(request.resister)
    except RulesError:
        return REFUSED_COST
    return opposed_dice_cost(initiator, resister)


def _counts(dice: RollDice) -> tuple[int, ...]:
    """The exploding dice of each part of the total (module docstring)."""
    if CriticalFailure(dice.critical_failure) == CriticalFailure.COMPLICATION:
        return (dice.cp_dice + 1,)
    return (dice.cp_dice, dice.cp_dice + 1)


def _parts(dice: RollDice) -> int:
    return len(_counts(dice))


def _length(dice: RollDice) -> int:
    return 5 * dice.regular + 4 * dice.cp_dice + 6


def _bits(dice: RollDice) -> float:
    return 2.585 * dice.regular + 2.322 * dice.cp_dice + 8


def _build(dice: RollDice) -> float:
    size = _length(dice) / 100
    return 22 + 233 * size + 275 * size**2
