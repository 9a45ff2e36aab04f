"""Exact odds of a talent check, before it is rolled (docs/self-conflict.md, "How the odds
are computed").

Each main die scores on its own — under 6, over 0, equal a re-roll d6 (D6) — so the
points of all 36 natural pairs are the convolution of the two dice's point
distributions. The two criticals are the only pairs scored differently (no points, the
outcome fixed, D2), so their two branches are taken out of that product and counted
apart. Every answer is a whole number of 1296ths (two dice, and at most two re-rolls):
enumerated with service.kernel.exact, never simulated, memoized per (level, GM sum,
karma modifier).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Annotated

from msgspec import Meta

from service.kernel.errors import RulesError
from service.kernel.exact import Pmf, combine, convolve, point, uniform
from service.kernel.values import Value
from service.rulesets.self_conflict.rules.checks import (
    CRITICAL_FAILURE_FACE,
    CRITICAL_SUCCESS_FACE,
    MARGINAL_FROM,
    OVER_POINTS,
    TOTAL_AT,
    UNDER_POINTS,
    SelfConflictCheckWarning,
    SelfConflictComparison,
    TalentOddsRequest,
    compare,
    refusals,
    shape_warnings,
)

__all__ = [
    "DENOMINATOR",
    "SelfConflictChance",
    "SelfConflictCriticalOdds",
    "SelfConflictOutcomeOdds",
    "SelfConflictPointsOdds",
    "TalentOdds",
    "TalentOddsAnswer",
    "exact_odds",
    "talent_odds",
]

SIDES = 6
DENOMINATOR = SIDES**4  # two main dice and up to two re-rolls
DECIMALS = 12


Exact1296 = Annotated[
    str,
    Meta(
        pattern=r"^[0-9]{1,4}/1296$",
        max_length=9,
        description="A fraction of 1296, unreduced.",
        examples=["661/1296"],
    ),
]


class SelfConflictChance(Value, frozen=True, kw_only=True):
    """A probability: `p` to 12 decimals and `exact` as an unreduced fraction of 1296."""

    p: Annotated[float, Meta(ge=0, le=1)]
    exact: Exact1296


class SelfConflictOutcomeOdds(Value, frozen=True, kw_only=True):
    """Each outcome, criticals included (a critical success is a total success, a critical
    failure a failure)."""

    failure: SelfConflictChance
    marginal_success: SelfConflictChance
    total_success: SelfConflictChance


class SelfConflictCriticalOdds(Value, frozen=True, kw_only=True):
    """Natural 1 and 1, natural 6 and 6: 36/1296 each, whatever the modifiers (D2)."""

    success: SelfConflictChance
    failure: SelfConflictChance


class SelfConflictPointsOdds(Value, frozen=True, kw_only=True):
    """One total of a check that was not a critical."""

    total: Annotated[int, Meta(ge=0, le=12)]
    p: Annotated[float, Meta(ge=0, le=1)]
    exact: Exact1296


class TalentOddsAnswer(Value, frozen=True, kw_only=True):
    """The odds of a check, exact."""

    talent_level: Annotated[int, Meta(ge=0, le=6)]
    conflict_modifier: Annotated[int, Meta(ge=-10, le=10, description="The GM's sum.")]
    karma_modifier: Annotated[int, Meta(ge=-10, le=10)]
    outcomes: SelfConflictOutcomeOdds
    critical: SelfConflictCriticalOdds
    at_least_marginal: Annotated[
        SelfConflictChance, Meta(description="Marginal or total success, criticals included.")
    ]
    reroll: Annotated[
        SelfConflictChance, Meta(description="At least one re-roll die (never on a critical).")
    ]
    points: Annotated[
        tuple[SelfConflictPointsOdds, ...],
        Meta(
            max_length=13,
            description="Totals of the non-critical checks (those of probability 0 left "
            "out); with the two criticals they make 1296/1296.",
        ),
    ]
    warnings: Annotated[tuple[SelfConflictCheckWarning, ...], Meta(max_length=4)]


class TalentOdds(Value, frozen=True, kw_only=True):
    """The odds as numerators over 1296, for the answer and for tests."""

    failure: int
    marginal_success: int
    total_success: int
    critical_success: int
    critical_failure: int
    reroll: int
    points: tuple[int, ...]  # by total 0…12, non-critical checks only


def _points(modified: int, level: int) -> Pmf:
    """One main die's points once its face is known (D3, D6)."""
    comparison = compare(modified, level)
    if comparison is SelfConflictComparison.UNDER:
        return point(UNDER_POINTS)
    if comparison is SelfConflictComparison.OVER:
        return point(OVER_POINTS)
    return uniform(1, SIDES)


def _die(level: int, modifier: int) -> Pmf:
    """A main die's points over its six faces."""
    sixth = Fraction(1, SIDES)
    return combine((sixth, _points(face + modifier, level)) for face in range(1, SIDES + 1))


def _over(pmf: Pmf) -> list[int]:
    """Weights by total 0…12 as numerators of 1296."""
    scale, remainder = divmod(DENOMINATOR, pmf.denominator)
    assert remainder == 0
    weights = [0] * (TOTAL_AT + 1)
    for index, weight in enumerate(pmf.weights):
        weights[pmf.low + index] = weight * scale
    return weights


@lru_cache(maxsize=4096)  # 7 levels × 21 GM sums × 21 karma modifiers at most
def exact_odds(level: int, conflict_modifier: int, karma_modifier: int) -> TalentOdds:
    """The check's odds in 1296ths: all 36 natural pairs scored, less the two criticals'
    branches (D2), which are counted apart."""
    pair = Fraction(1, SIDES * SIDES)
    critical_branches = [
        (
            -pair,
            convolve(
                _points(face + karma_modifier, level), _points(face + conflict_modifier, level)
            ),
        )
        for face in (CRITICAL_SUCCESS_FACE, CRITICAL_FAILURE_FACE)
    ]
    scored = combine(
        [
            (1, convolve(_die(level, karma_modifier), _die(level, conflict_modifier))),
            *critical_branches,
        ]
    )
    points = _over(scored)
    critical = DENOMINATOR // (SIDES * SIDES)  # 36: one pair of the 36
    equal_pairs = sum(
        1
        for self_face in range(1, SIDES + 1)
        for conflict_face in range(1, SIDES + 1)
        if not (
            self_face == conflict_face
            and self_face in (CRITICAL_SUCCESS_FACE, CRITICAL_FAILURE_FACE)
        )
        and SelfConflictComparison.EQUAL
        in (
            compare(self_face + karma_modifier, level),
            compare(conflict_face + conflict_modifier, level),
        )
    )
    return TalentOdds(
        failure=sum(points[:MARGINAL_FROM]) + critical,
        marginal_success=sum(points[MARGINAL_FROM:TOTAL_AT]),
        total_success=points[TOTAL_AT] + critical,
        critical_success=critical,
        critical_failure=critical,
        reroll=equal_pairs * critical,
        points=tuple(points),
    )


def _chance(numerator: int) -> SelfConflictChance:
    return SelfConflictChance(
        p=round(numerator / DENOMINATOR, DECIMALS), exact=f"{numerator}/{DENOMINATOR}"
    )


def talent_odds(request: TalentOddsRequest) -> TalentOddsAnswer:
    """The exact odds of ``request``.

    Raises:
        RulesError: what would refuse the check itself (`conflict-modifier-out-of-range`,
            `karma-insufficient`).
    """
    if concerns := refusals(request):
        raise RulesError.from_concerns(concerns)
    level = request.talent.level
    m = request.conflict_modifier
    k = request.karma.modifier if request.karma is not None else 0
    odds = exact_odds(level, m, k)
    return TalentOddsAnswer(
        talent_level=level,
        conflict_modifier=m,
        karma_modifier=k,
        outcomes=SelfConflictOutcomeOdds(
            failure=_chance(odds.failure),
            marginal_success=_chance(odds.marginal_success),
            total_success=_chance(odds.total_success),
        ),
        critical=SelfConflictCriticalOdds(
            success=_chance(odds.critical_success), failure=_chance(odds.critical_failure)
        ),
        at_least_marginal=_chance(odds.marginal_success + odds.total_success),
        reroll=_chance(odds.reroll),
        points=tuple(
            SelfConflictPointsOdds(
                total=total,
                p=round(weight / DENOMINATOR, DECIMALS),
                exact=f"{weight}/{DENOMINATOR}",
            )
            for total, weight in enumerate(odds.points)
            if weight
        ),
        warnings=shape_warnings(request),
    )
