"""What the exact odds of a roll of the pools cost to compute, estimated from the request
before anything is computed (µs, cold, on the reference machine: 2 cores), so the service
can choose where to compute them (service.http.odds.gate).

The work is each pool counted die by die (about 28 µs a die, at the highest thresholds)
and then every pair of the two pools' numbers (about 1 µs a pair): measured with 0…30
dice a pool, Aim 3 (counted and missed faces both) and every stat 9; the estimate is half
as much again, for the timings' spread. 30 dice against 30: about 4 ms.
"""

from __future__ import annotations

from service.rulesets.travelogue.rules.odds import MAX_ODDS_DICE
from service.rulesets.travelogue.rules.roll import PoolsRequest

__all__ = ["REFUSED_US", "pools_odds_cost"]

REFUSED_US = 100  # a pool over MAX_ODDS_DICE: refused before anything is counted
_MARGIN = 1.5


def pools_odds_cost(request: PoolsRequest) -> int:
    """µs to answer ``travelogueRollOdds`` (or a game's odds) with ``request``."""
    shooter, angel = request.shooter.ammo, request.angel.ammo
    if max(shooter, angel) > MAX_ODDS_DICE:
        return REFUSED_US
    return round(_MARGIN * (50 + 28 * (shooter + angel) + (shooter + 1) * (angel + 1)))
