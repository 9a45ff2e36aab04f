"""What the odds of a check answer with: every probability a kernel
:class:`~service.kernel.chance.Chance` (``p`` and a reduced ``exact``), the totals listed
flat as ``{total, p, exact}``.

Its own module, apart from the enumeration (:mod:`.odds`), because a check's answer
carries it too (``with_odds``).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.chance import Chance, Exact, Probability
from service.kernel.values import Value
from service.rulesets.self_conflict.rules.check_warnings import SelfConflictCheckWarning

__all__ = [
    "SelfConflictCriticalOdds",
    "SelfConflictOutcomeOdds",
    "SelfConflictPointsOdds",
    "TalentOddsAnswer",
]


class SelfConflictOutcomeOdds(Value, frozen=True, kw_only=True):
    """Each outcome, criticals included (a critical success is a total success, a critical
    failure a failure)."""

    failure: Chance
    marginal_success: Chance
    total_success: Chance


class SelfConflictCriticalOdds(Value, frozen=True, kw_only=True):
    """Natural 1 and 1, natural 6 and 6: 1/36 each, whatever the modifiers (D2)."""

    success: Chance
    failure: Chance


class SelfConflictPointsOdds(Value, frozen=True, kw_only=True):
    """One total of a check that was not a critical, and its probability."""

    total: Annotated[int, Meta(ge=0, le=12)]
    p: Probability
    exact: Exact


class TalentOddsAnswer(Value, frozen=True, kw_only=True):
    """The odds of a check, exact."""

    talent_level: Annotated[int, Meta(ge=0, le=6)]
    conflict_modifier: Annotated[int, Meta(ge=-10, le=10, description="The GM's sum.")]
    karma_modifier: Annotated[int, Meta(ge=-10, le=10)]
    outcomes: SelfConflictOutcomeOdds
    critical: SelfConflictCriticalOdds
    at_least_marginal: Annotated[
        Chance, Meta(description="Marginal or total success, criticals included.")
    ]
    reroll: Annotated[Chance, Meta(description="At least one re-roll die (never on a critical).")]
    points: Annotated[
        tuple[SelfConflictPointsOdds, ...],
        Meta(
            max_length=13,
            description="Totals of the non-critical checks (those of probability 0 left "
            "out); with the two criticals (1/36 each) they make 1.",
        ),
    ]
    warnings: Annotated[tuple[SelfConflictCheckWarning, ...], Meta(max_length=4)]
