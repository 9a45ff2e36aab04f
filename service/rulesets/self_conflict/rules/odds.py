"""Exact odds of a talent check, before it is rolled (docs/self-conflict.md, "How the odds
are computed").

Each main die scores on its own — under 6, over 0, equal a re-roll d6 (D6) — so the
points of all 36 natural pairs are the convolution of the two dice's point
distributions. The two criticals are the only pairs scored differently (no points, the
outcome fixed, D2), so their two branches are taken out of that product and counted
apart. Every probability is a whole number of 1296ths (two dice, and at most two
re-rolls), counted in integers with service.kernel.exact, never simulated, memoized per
(level, GM sum, karma modifier), and answered as every game answers odds: a
:class:`~service.kernel.chance.Chance`, its fraction reduced ("661/1296", "1/36").
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from service.kernel.chance import chance, fraction_of
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
    SelfConflictComparison,
    TalentCheckRequest,
    TalentCheckShape,
    TalentOddsRequest,
    compare,
    refusals,
    shape_warnings,
)
from service.rulesets.self_conflict.rules.odds_answer import (
    SelfConflictCriticalOdds,
    SelfConflictOutcomeOdds,
    SelfConflictPointsOdds,
    TalentOddsAnswer,
)

__all__ = [
    "DENOMINATOR",
    "TalentOdds",
    "exact_odds",
    "talent_odds",
    "talent_odds_request",
]

SIDES = 6
DENOMINATOR = SIDES**4  # two main dice and up to two re-rolls


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


def _of_all(numerator: int) -> Fraction:
    return Fraction(numerator, DENOMINATOR)


def _points_odds(total: int, weight: int) -> SelfConflictPointsOdds:
    p, exact = fraction_of(_of_all(weight))
    return SelfConflictPointsOdds(total=total, p=p, exact=exact)


def talent_odds(request: TalentCheckShape) -> TalentOddsAnswer:
    """The exact odds of ``request`` (an odds body, or a check's: its dice play no part).

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
            failure=chance(_of_all(odds.failure)),
            marginal_success=chance(_of_all(odds.marginal_success)),
            total_success=chance(_of_all(odds.total_success)),
        ),
        critical=SelfConflictCriticalOdds(
            success=chance(_of_all(odds.critical_success)),
            failure=chance(_of_all(odds.critical_failure)),
        ),
        at_least_marginal=chance(_of_all(odds.marginal_success + odds.total_success)),
        reroll=chance(_of_all(odds.reroll)),
        points=tuple(
            _points_odds(total, weight) for total, weight in enumerate(odds.points) if weight
        ),
        warnings=shape_warnings(request),
    )


def talent_odds_request(request: TalentCheckRequest) -> TalentOddsRequest | None:
    """What ``selfConflictCheckOdds`` is asked for a check that asks ``with_odds``: the
    same body without `faces`, `seed`, `with_odds` and `receipt` (the shape, never the
    dice, so the odds before the roll); None when it does not ask. The service attaches
    them through its odds gate once :func:`resolve_check` accepts the check."""
    if not request.with_odds:
        return None
    return TalentOddsRequest(
        **{name: getattr(request, name) for name in TalentOddsRequest.__struct_fields__}
    )
