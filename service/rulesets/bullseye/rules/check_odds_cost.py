"""What a check's exact odds cost to compute, estimated before anything is computed (µs,
cold, on the reference machine: 2 cores), so the service can choose where to compute them
(service.http.odds.gate).

The work does not grow with the request: four §7.1 dice kinds of at most 21 die results,
each against one target, with or without depletion and restoration. Measured cold (every
memo cleared) over targets −10…40 with a depletable score at issue: at most 0.85 ms; the
estimate is twice that, so it never leaves the worker's inline budget by surprise.
"""

from __future__ import annotations

from service.rulesets.bullseye.rules.checks import CheckShape

__all__ = ["CHECK_ODDS_US", "check_odds_cost"]

CHECK_ODDS_US = 1_700


def check_odds_cost(request: CheckShape) -> int:
    """µs to answer ``checkOdds`` with ``request``: the same for every check."""
    del request
    return CHECK_ODDS_US
