"""The cost estimate of a gamble's odds ("Step 3: Going for It", "Bolstering"): what the
service reads before choosing to compute them in line or in its pool
(service.http.odds.gate)."""

from __future__ import annotations

import msgspec

from service.rulesets.quick_shot.rules.gambles import QuickShotOddsRequest
from service.rulesets.quick_shot.rules.odds_cost import REFUSED_US, gamble_odds_cost


def cost(actions: int, wp_bet: int) -> int:
    body = {"actions": [{"difficulty": "common"}] * actions, "wp_bet": wp_bet}
    return gamble_odds_cost(msgspec.convert(body, QuickShotOddsRequest))


def test_more_dice_or_more_actions_never_cost_less() -> None:
    """ "Bolstering": a bet of 0, 1 or 3 WP rolls 8, 9 or 10 dice."""
    for actions in range(1, 7):
        assert cost(actions, 0) < cost(actions, 1) < cost(actions, 3)
    for wp_bet in (0, 1, 3):
        costs = [cost(actions, wp_bet) for actions in range(1, 7)]
        assert costs == sorted(set(costs))  # each action more costs more


def test_a_bet_that_buys_no_dice_is_refused_before_anything_is_counted() -> None:
    assert cost(6, 2) == REFUSED_US
