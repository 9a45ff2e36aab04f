"""Exact odds of a gamble before it is rolled (D2, D3): every pool the dice can show,
counted with its integer multinomial weight, so each probability is a whole number of
8^dice_count — never simulated — answered as every game answers odds: a
:class:`~service.kernel.chance.Chance`, its fraction reduced.

What decides a gamble is only the shape of the good dice's matches (the sorted counts of
the good faces) and whether two 1s came up, so the pools are first counted by those
shapes (not listed one by one; cached per TN and dice count), and the list-order rule
(D3) is then decided once a shape (cached per shape and levels).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction
from functools import lru_cache
from math import factorial, prod

from service.kernel.chance import Chance, chance
from service.kernel.errors import RulesError
from service.kernel.values import Value
from service.rulesets.quick_shot.rules.difficulties import SIDES, good_faces
from service.rulesets.quick_shot.rules.effect import list_order_successes
from service.rulesets.quick_shot.rules.gambles import (
    QuickShotGambleRequest,
    QuickShotGambleShape,
    QuickShotOddsRequest,
    critical_of,
    dice_count,
    effective_levels,
    shape_refusals,
)
from service.rulesets.quick_shot.rules.odds_answer import (
    QuickShotActionOdds,
    QuickShotOddsAnswer,
    QuickShotPublishedRow,
)
from service.rulesets.quick_shot.rules.published import published_row

__all__ = [
    "TOLERANCE_PP",
    "GambleOdds",
    "exact_odds",
    "gamble_odds",
    "gamble_odds_request",
    "pool_shapes",
]

TOLERANCE_PP = 4  # D2: the model misses the seed's tables (read as floors) by ≤ 3.9 pp

Shape = tuple[int, ...]


class GambleOdds(Value, frozen=True, kw_only=True):
    """The odds as numerators over ``denominator`` = 8^dice_count, for the answer and tests."""

    denominator: int
    success: int
    critical_success: int
    critical_failure: int
    critical: int
    actions: tuple[int, ...]


def _partitions(total: int, parts: int, largest: int) -> Iterator[Shape]:
    """The partitions of ``total`` into at most ``parts`` parts of at most ``largest``,
    each in decreasing order."""
    if total == 0:
        yield ()
        return
    if parts == 0:
        return
    for first in range(min(total, largest), 0, -1):
        for rest in _partitions(total - first, parts - 1, first):
            yield (first, *rest)


def _good_ways(shape: Shape, good: int) -> int:
    """How many ways ``sum(shape)`` distinguishable dice show ``good`` faces in exactly
    these match counts: which faces take the parts, times how the dice fill them."""
    faces = factorial(good) // factorial(good - len(shape))
    faces //= prod(factorial(n) for n in Counter(shape).values())
    return faces * factorial(sum(shape)) // prod(factorial(n) for n in shape)


@lru_cache(maxsize=64)
def pool_shapes(target_number: int, dice: int) -> tuple[tuple[bool, Shape, int], ...]:
    """(two 1s or more, the good faces' sorted counts, ways) over every pool of ``dice``
    d8s: the ways sum to 8^dice. Counted by how many dice show a 1, a junk face or a good
    one, and how the good dice match — a few hundred terms, not every pool."""
    good = len(good_faces(target_number))
    junk = SIDES - 1 - good
    folded: Counter[tuple[bool, Shape]] = Counter()
    for ones in range(dice + 1):
        for junked in range(dice - ones + 1):
            rolled_good = dice - ones - junked
            split = factorial(dice) // (
                factorial(ones) * factorial(junked) * factorial(rolled_good)
            )
            if junked and not junk:
                continue
            around = split * junk**junked
            for shape in _partitions(rolled_good, good, rolled_good):
                folded[critical_of(ones), shape] += around * _good_ways(shape, good)
    return tuple((critical, shape, ways) for (critical, shape), ways in folded.items())


@lru_cache(maxsize=4096)
def exact_odds(levels: tuple[int, ...], target_number: int, dice: int) -> GambleOdds:
    """The gamble's odds in 8^dice-ths, every pool shape decided by D3's list order."""
    success = critical_success = critical = 0
    actions = [0] * len(levels)
    for is_critical, shape, ways in pool_shapes(target_number, dice):
        results = list_order_successes(shape, levels)
        for index, ok in enumerate(results):
            if ok:
                actions[index] += ways
        if all(results):
            success += ways
            if is_critical:
                critical_success += ways
        if is_critical:
            critical += ways
    return GambleOdds(
        denominator=SIDES**dice,
        success=success,
        critical_success=critical_success,
        critical_failure=critical - critical_success,
        critical=critical,
        actions=tuple(actions),
    )


def gamble_odds(request: QuickShotGambleShape) -> QuickShotOddsAnswer:
    """The exact odds of ``request`` (an odds body, or a gamble's: its dice, decline and
    willpower play no part).

    Raises:
        RulesError: `wp-bet-invalid`, as the gamble itself would.
    """
    if concerns := shape_refusals(request):
        raise RulesError.from_concerns(concerns)
    dice = dice_count(request.wp_bet)
    assert dice is not None
    levels = effective_levels(request)
    odds = exact_odds(levels, request.target_number, dice)

    def of_all(numerator: int) -> Chance:
        return chance(Fraction(numerator, odds.denominator))

    return QuickShotOddsAnswer(
        dice_count=dice,
        levels=levels,
        success=of_all(odds.success),
        failure=of_all(odds.denominator - odds.success),
        critical_success=of_all(odds.critical_success),
        critical_failure=of_all(odds.critical_failure),
        critical=of_all(odds.critical),
        actions=tuple(
            QuickShotActionOdds(index=index, success=of_all(numerator))
            for index, numerator in enumerate(odds.actions)
        ),
        published=_published(levels, request.wp_bet, request.target_number),
        tolerance_pp=TOLERANCE_PP,
    )


def _published(
    levels: tuple[int, ...], bet: int, target_number: int
) -> QuickShotPublishedRow | None:
    """The seed's tables are for TN 5 only."""
    found = published_row(levels, bet) if target_number == 5 else None
    if found is None:
        return None
    table, (critical_failure, failure, success, critical_success) = found
    key = sorted(levels, reverse=True)
    return QuickShotPublishedRow(
        table=table,
        row="(" + ",".join(map(str, key)) + ")",
        critical_failure=critical_failure,
        failure=failure,
        success=success,
        critical_success=critical_success,
    )


def gamble_odds_request(request: QuickShotGambleRequest) -> QuickShotOddsRequest | None:
    """What ``quickShotGambleOdds`` is asked for a gamble that asks ``with_odds``: its
    actions, bet and TN (never the dice, so the odds before the roll; a declined gamble's
    too, the odds a player weighs before declining, D9); None when it does not ask. The
    service attaches them through its odds gate once :func:`resolve_gamble` decides it."""
    if not request.with_odds:
        return None
    return QuickShotOddsRequest(
        **{name: getattr(request, name) for name in QuickShotOddsRequest.__struct_fields__}
    )
