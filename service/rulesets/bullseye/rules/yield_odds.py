"""Exact distributions of a check's die result, yield and spread (§2.1.2, §2.4, §7.1), and
of who a spread depletes by how much (§2.4.2, §3.2.2): the pieces every Bullseye odds
answer is built from — a check against a target and a conflict's pairings alike.

Every distribution is a :class:`service.kernel.exact.Pmf` over one common denominator, so
its probabilities are exact fractions.
"""

from __future__ import annotations

from service.kernel.exact import Pmf, convolve, negated, point, shift, sum_of, uniform
from service.rulesets.bullseye.rules.checks import BULLSEYE_RESULT, QUICK10_RESULT
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser, settle
from service.rulesets.bullseye.rules.dice import DICE, DiceKind

__all__ = [
    "LossWeights",
    "die_result_pmf",
    "held_bullseye",
    "loss_weights",
    "spread_pmf",
    "yield_pmf",
]

# (loser, amount) → weight over the spread's denominator
LossWeights = dict[tuple[Loser, int], int]

_DIE_RESULTS = {
    kind: shift(sum_of(uniform(1, spec.sides), spec.count), spec.offset)
    for kind, spec in DICE.items()
}


def die_result_pmf(kind: DiceKind, *, quick10: bool = False, bullseye: bool = False) -> Pmf:
    """The die result of ``kind`` (§7.1): d20 uniform, 2d10 and 3d6 and 4d6−4 summed;
    a Quick 10 is 10 (§2.5), a bullseye spent 20 (§7.2), whatever the dice."""
    if quick10:
        return point(QUICK10_RESULT)
    if bullseye:
        return point(BULLSEYE_RESULT)
    return _DIE_RESULTS[kind]


def held_bullseye(die_result: Pmf, spend_below: int) -> Pmf:
    """The die result of a player holding a bullseye who spends it, after seeing the roll
    (§7.2), on every result below ``spend_below``: that mass moves to 20, the rest stays.
    Against a target ``T`` with total modifier ``M`` a roll fails to succeed below
    ``T − M + 1``; a 20 is never worse than the roll it replaces (no §7.1 dice show more)."""
    moved = sum(
        weight
        for index, weight in enumerate(die_result.weights)
        if die_result.low + index < spend_below
    )
    if not moved:
        return die_result
    kept = {
        die_result.low + index: weight
        for index, weight in enumerate(die_result.weights)
        if weight and die_result.low + index >= spend_below
    }
    kept[BULLSEYE_RESULT] = kept.get(BULLSEYE_RESULT, 0) + moved
    low, high = min(kept), max(kept)
    weights = tuple(kept.get(value, 0) for value in range(low, high + 1))
    return Pmf(low, weights, die_result.denominator)


def yield_pmf(die_result: Pmf, total_modifier: int) -> Pmf:
    """``Y = die result + total modifier`` (§2.1.2)."""
    return shift(die_result, total_modifier)


def spread_pmf(actor_yield: Pmf, opposition_yield: Pmf) -> Pmf:
    """``Δ = actor's yield − the opposing yield`` (§2.4): a target is :func:`point`, a
    GM's check in a pairing (§4.3) its own yield distribution."""
    return convolve(actor_yield, negated(opposition_yield))


def loss_weights(spread: Pmf, actor: DepletionSide, opposition: DepletionSide) -> LossWeights:
    """Who loses how much at each spread, by the one rule of :func:`settle` (a stalemate
    depletes nobody), gathered: the weights are over ``spread.denominator``."""
    weights: LossWeights = {}
    for index, weight in enumerate(spread.weights):
        if weight:
            key = settle(spread.low + index, actor, opposition)
            weights[key] = weights.get(key, 0) + weight
    return weights
