"""What the exact odds of a talent check cost to compute, estimated from the request
before anything is computed (µs, cold, on the reference machine: 2 cores), so the service
can choose where to compute them (service.http.odds.gate).

Two dice and at most two re-rolls: the same small enumeration whatever the level,
modifiers or karma, measured at 85–155 µs cold (every memo cleared); the estimate is
half as much again.
"""

from __future__ import annotations

from service.rulesets.self_conflict.rules.checks import TalentOddsRequest

__all__ = ["talent_odds_cost"]

_MEASURED_US = 155
_MARGIN = 1.5


def talent_odds_cost(_: TalentOddsRequest) -> int:
    """µs to answer ``selfConflictCheckOdds``: the same for every check."""
    return round(_MARGIN * _MEASURED_US)
