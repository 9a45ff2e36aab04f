"""The cost estimate of a roll of the pools' odds ("Rolling The Bones"): what the service
reads before choosing to compute them in line or in its pool (service.http.odds.gate)."""

from __future__ import annotations

from service.rulesets.travelogue.rules.odds import MAX_ODDS_DICE
from service.rulesets.travelogue.rules.odds_cost import REFUSED_US, pools_odds_cost
from service.rulesets.travelogue.rules.roll import PoolsRequest
from service.rulesets.travelogue.rules.stats import Stats, Track

NINES = Stats(avoid=9, armor=9, angel=9, allies=9)


def cost(shooter: int, angel: int) -> int:
    pools = {"shooter": Track(aim=3, ammo=shooter), "angel": Track(aim=3, ammo=angel)}
    return pools_odds_cost(PoolsRequest(**pools, stats=NINES))


def test_more_dice_in_either_pool_never_cost_less() -> None:
    for other in (0, 10, MAX_ODDS_DICE):
        shooter = [cost(n, other) for n in range(MAX_ODDS_DICE + 1)]
        angel = [cost(other, n) for n in range(MAX_ODDS_DICE + 1)]
        assert shooter == sorted(shooter) == angel


def test_a_pool_over_the_odds_bound_is_refused_before_anything_is_counted() -> None:
    """Over 30 dice a pool is the rules' `too-many-dice`: nothing to estimate."""
    assert cost(MAX_ODDS_DICE + 1, 0) == cost(0, 1000) == REFUSED_US
    assert cost(MAX_ODDS_DICE, MAX_ODDS_DICE) > REFUSED_US
