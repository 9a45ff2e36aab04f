"""What the exact odds of a gamble cost to compute, estimated from the request before
anything is computed (µs, cold, on the reference machine: 2 cores), so the service can
choose where to compute them (service.http.odds.gate).

Cold, a gamble's odds first fold every pool of its dice at its TN into shapes, then decide
each shape for the list of actions (both memoized by the rules, here counted as
forgotten). Measured with every memo cleared, at every TN (3…7, TN 4 the costliest) and
bet, with one, three and six actions: 8 dice about 0.9 ms and 0.27 ms an action more,
9 dice 1.45 and 0.45, 10 dice 2.2 and 0.58; the estimate is half as much again, for the
timings' spread.
"""

from __future__ import annotations

from service.rulesets.quick_shot.rules.gambles import QuickShotOddsRequest, dice_count

__all__ = ["REFUSED_US", "gamble_odds_cost"]

REFUSED_US = 100  # a bet the rules refuse
_MARGIN = 1.5
# dice: (µs for the first action, µs each further action)
_MEASURED = {8: (900, 270), 9: (1450, 450), 10: (2200, 580)}


def gamble_odds_cost(request: QuickShotOddsRequest) -> int:
    """µs to answer ``quickShotGambleOdds`` with ``request``."""
    dice = dice_count(request.wp_bet)
    if dice is None:
        return REFUSED_US
    first, each = _MEASURED[dice]
    return round(_MARGIN * (first + each * (len(request.actions) - 1)))
