"""The exact odds agree with the service's own roller: seeded rolls through
``resolve_roll``, within 4σ ("Wild Die", "Character Points")."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import msgspec
import pytest

from service.rulesets.opend6.rules.opposed import OpposedRequest, resolve_opposed
from service.rulesets.opend6.rules.roll_odds import OpposedOddsRequest, opposed_roll_odds, roll_odds
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
    p = getattr(exact.p_success, option).p
    rng = random.Random(20261123)
    roll = msgspec.convert(shape, RollRequest)
    wins = sum(resolve_roll(roll, rng, "").outcome is RollOutcome.SUCCESS for _ in range(SAMPLES))
    sigma = math.sqrt(p * (1 - p) / SAMPLES)
    assert abs(wins / SAMPLES - p) <= 4 * sigma
    # Every listed total of 1 % or more, too.
    totals = [resolve_roll(roll, rng, "").total for _ in range(SAMPLES)]
    for row in exact.distribution:
        if row.p >= 0.01:
            seen = totals.count(row.total) / SAMPLES
            spread = math.sqrt(row.p * (1 - row.p) / SAMPLES)
            assert abs(seen - row.p) <= 4 * spread, row


OPPOSED_ROLLS = 200_000


@pytest.mark.heavy(2)
def test_opposed_odds_match_200_000_seeded_opposed_rolls_of_the_real_roller() -> None:
    """ "Opposed Difficulties" (ties to the initiator, D2; handicaps, D17), "Wild Die" (D4,
    D5), "Character Points": the exact P(initiator wins) within 4σ of 200 000 seeded
    opposed rolls made by ``resolve_opposed`` itself. A 3D+1 attack with a Character Point
    die (cancel_highest) against a dodge of 4D under `complication`, the dim light counting
    2 against the attacker: every piece of the model at once."""
    sides = {
        "initiator": {
            "base": {"type": "skill", "code": "3D+1"},
            "kind": "attack",
            "character_points": {"before": 1},
        },
        "resister": {"base": {"type": "skill", "code": "4D"}, "critical_failure": "complication"},
        "modifiers": {"initiator": [{"label": "dim light", "value": 2}]},
    }
    exact = opposed_roll_odds(msgspec.convert(sides, OpposedOddsRequest)).odds.p_initiator_wins
    p = float(Fraction(exact.exact))
    request = msgspec.convert(sides, OpposedRequest)
    rng = random.Random(24)
    wins = sum(
        resolve_opposed(request, rng, "").winner == "initiator" for _ in range(OPPOSED_ROLLS)
    )
    sigma = math.sqrt(p * (1 - p) / OPPOSED_ROLLS)
    assert abs(wins / OPPOSED_ROLLS - p) <= 4 * sigma, (wins, p)
