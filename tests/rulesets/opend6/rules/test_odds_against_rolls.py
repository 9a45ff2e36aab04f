"""The exact odds agree with the service's own roller: seeded rolls through
``resolve_roll``, within 4σ ("Wild Die", "Character Points")."""

from __future__ import annotations

import math
import random

import msgspec
import pytest

from service.rulesets.opend6.rules.roll_odds import roll_odds
from service.rulesets.opend6.rules.rolls import RollOutcome, resolve_roll
from service.rulesets.opend6.rules.spec import OddsRequest, RollRequest

SAMPLES = 20_000


@pytest.mark.parametrize("option", ["cancel_highest", "complication"])
def test_odds_match_seeded_rolls_of_the_real_roller(option: str) -> None:
    shape = {
        "base": {"type": "skill", "code": "3D+1"},
        "character_points": {"before": 1},
        "critical_failure": option,
        "difficulty": {"kind": "number", "value": 15},
    }
    exact = roll_odds(msgspec.convert(shape, OddsRequest)).odds
    assert exact is not None
    assert exact.p_success is not None
    p = getattr(exact.p_success, option)
    rng = random.Random(20261123)
    roll = msgspec.convert(shape, RollRequest)
    wins = sum(resolve_roll(roll, rng, "").outcome is RollOutcome.SUCCESS for _ in range(SAMPLES))
    sigma = math.sqrt(p * (1 - p) / SAMPLES)
    assert abs(wins / SAMPLES - p) <= 4 * sigma
    # Every listed total of 1 % or more, too.
    totals = [resolve_roll(roll, rng, "").total for _ in range(SAMPLES)]
    for row in exact.distribution:
        if row.probability >= 0.01:
            seen = totals.count(row.total) / SAMPLES
            spread = math.sqrt(row.probability * (1 - row.probability) / SAMPLES)
            assert abs(seen - row.probability) <= 4 * spread, row
