"""Impairment, incapacitation and retirement from a depletable score (§3.2.3–§3.2.6)."""

from __future__ import annotations

from enum import StrEnum

from service.kernel.errors import Concern
from service.kernel.values import Value
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.limits import Score, ScoreMaximum

__all__ = [
    "MAJOR_IMPAIRMENT",
    "MINOR_IMPAIRMENT",
    "Condition",
    "State",
    "Thresholds",
    "condition",
    "impairment_of",
    "restore",
    "score_concerns",
    "thresholds",
]

MINOR_IMPAIRMENT = -2
MAJOR_IMPAIRMENT = -5


class State(StrEnum):
    """How a character stands, from best to worst."""

    HEALTHY = "healthy"
    IMPAIRED = "impaired"
    INCAPACITATED = "incapacitated"
    RETIRED = "retired"


class Thresholds(Value, frozen=True, kw_only=True):
    """The scores at or below which each condition starts (§3.2.3, §3.2.4), rounded down."""

    minor: Score
    major: Score
    incapacitated: Score


class Condition(Value, frozen=True, kw_only=True):
    """A character's condition at one score."""

    impairment: int
    state: State
    thresholds: Thresholds


def thresholds(maximum: ScoreMaximum) -> Thresholds:
    """Three-quarters, one-half and one-quarter of ``maximum``, each rounded down."""
    return Thresholds(minor=3 * maximum // 4, major=maximum // 2, incapacitated=maximum // 4)


def impairment_of(maximum: ScoreMaximum, current: Score) -> int:
    """§3.2.3: −5 at or below half of ``maximum``, −2 at or below three-quarters, else 0."""
    if current <= maximum // 2:
        return MAJOR_IMPAIRMENT
    return MINOR_IMPAIRMENT if current <= 3 * maximum // 4 else 0


def condition(maximum: ScoreMaximum, current: Score) -> Condition:
    """The condition of a character whose depletable score is ``current`` of ``maximum``."""
    marks = thresholds(maximum)
    impairment = impairment_of(maximum, current)
    if current <= 0:
        state = State.RETIRED
    elif current <= marks.incapacitated:
        state = State.INCAPACITATED
    elif impairment:
        state = State.IMPAIRED
    else:
        state = State.HEALTHY
    return Condition(impairment=impairment, state=state, thresholds=marks)


def restore(maximum: ScoreMaximum, current: Score, amount: int) -> int:
    """§3.2.6: restoration raises the score by ``amount``, never above the maximum."""
    return min(maximum, current + max(0, amount))


def score_concerns(
    maximum: int, current: int, pointer: str | None = None, parameter: str | None = None
) -> list[Concern]:
    """A score above its maximum is impossible (§3.2.6); where: a body pointer or a parameter."""
    if current <= maximum:
        return []
    return [
        Concern(
            code=RuleCode.CURRENT_ABOVE_MAXIMUM,
            pointer=pointer,
            parameter=parameter,
            detail=f"The score {current} is above its maximum {maximum} (§3.2.6).",
        )
    ]


def fitness_concerns(who: str, maximum: int, current: int, pointer: str) -> list[Concern]:
    """§3.2.4, §3.2.5: a character incapacitated or retired by a depletable score acts no
    more — makes no check, takes no part in a conflict. ``who`` names it in the detail."""
    if current > 0 and current > maximum // 4:  # fit: the usual case, without a condition
        return []
    state = condition(maximum, current).state
    if state is State.RETIRED:
        return [
            Concern(
                code=RuleCode.CHARACTER_RETIRED,
                pointer=pointer,
                detail=f"{who} is at {current} of {maximum}: out of the game, it makes no "
                "checks and takes no part (§3.2.5).",
            )
        ]
    if state is State.INCAPACITATED:
        return [
            Concern(
                code=RuleCode.CHARACTER_INCAPACITATED,
                pointer=pointer,
                detail=f"{who} is at {current} of {maximum}, at or below one quarter: "
                "incapacitated, it can take no actions until restored above that mark "
                "(§3.2.4).",
            )
        ]
    return []
