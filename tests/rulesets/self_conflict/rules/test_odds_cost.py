"""The cost estimate of a talent check's odds ("Task resolution and other rules"): two
dice and at most two re-rolls, the same small enumeration for every check, so the service
always computes it in line (service.http.odds.gate)."""

from __future__ import annotations

import msgspec

from service.rulesets.self_conflict.rules.checks import TalentOddsRequest
from service.rulesets.self_conflict.rules.odds_cost import talent_odds_cost
from service.settings import Settings


def test_every_check_costs_the_same_and_fits_the_default_inline_budget() -> None:
    costs = {
        talent_odds_cost(
            msgspec.convert(
                {
                    "talent": {"name": "Pilot", "level": level},
                    "conflict_modifiers": [{"label": "GM", "value": modifier}],
                    "karma": {"balance": 10, "modifier": karma},
                },
                TalentOddsRequest,
            )
        )
        for level in range(7)
        for modifier in (-6, 0, 6)
        for karma in (-5, 0, 5)
    }
    assert len(costs) == 1
    assert costs.pop() <= Settings().odds_inline_ms * 1000
