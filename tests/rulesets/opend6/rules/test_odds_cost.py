"""The cost estimate of OpenD6's odds ("Rolling Dice", "Character Points", "Opposed
Difficulties"): what the service reads before choosing to compute odds in line, in its
pool or not at all (service.http.odds_gate). Timings are for make bench; these check the
estimate's shape: more dice never cost less, refusals cost nothing, and where the default
limit (1 s) falls."""

from __future__ import annotations

from typing import Any

import msgspec

from service.rulesets.opend6.rules.odds_cost import (
    REFUSED_US,
    opposed_odds_cost,
    roll_odds_cost,
)
from service.rulesets.opend6.rules.roll_odds import OpposedOddsRequest
from service.rulesets.opend6.rules.spec import OddsRequest

DEFAULT_LIMIT_US = 1_000_000


def side(dice: int, cp: int = 0, pips: int = 0) -> dict[str, Any]:
    """A roll of ``dice`` dice (a code of at most 40D, then +20D bonuses), ``cp`` Character
    Point dice and ``pips`` more in related-skill modifiers."""
    bonuses = [{"label": "gear", "dice": min(20, dice - n)} for n in range(40, dice, 20)]
    related = []
    while pips:
        step = max(-250, min(pips, 250))
        related.append({"label": "earlier", "result_points": 2 * step})
        pips -= step
    return {
        "base": {"type": "skill", "code": f"{min(dice, 40)}D"},
        "bonuses": bonuses,
        "related": related,
        "character_points": {"before": cp},
    }


def roll(dice: int, cp: int = 0, **more: Any) -> int:
    return roll_odds_cost(msgspec.convert({**side(dice, cp), **more}, OddsRequest))


def opposed(initiator: dict[str, Any], resister: dict[str, Any]) -> int:
    body = {"initiator": initiator, "resister": resister}
    return opposed_odds_cost(msgspec.convert(body, OpposedOddsRequest))


def test_more_dice_or_character_point_dice_never_cost_less() -> None:
    """ "Rolling Dice", "Character Points": each die more lists more totals."""
    for cp in (0, 1, 5, 20):
        costs = [roll(dice, cp) for dice in range(1, 121)]
        assert costs == sorted(costs), cp
    for dice in (1, 30, 120):
        costs = [roll(dice, cp) for cp in range(21)]
        assert costs == sorted(costs), dice


def test_opposed_odds_cost_more_the_further_apart_the_fixed_parts() -> None:
    """ "Opposed Difficulties": the initiator's totals are listed up to the resister's
    reach plus the difference of their pips, so a resister far ahead costs more."""
    costs = [opposed(side(60, 5), side(60, 5, pips)) for pips in range(-1000, 2501, 250)]
    assert costs == sorted(costs)
    assert costs[-1] > 10 * costs[0]


def test_the_default_limit_admits_every_roll_and_the_largest_pools_opposed() -> None:
    """The largest roll (120 dice, 20 Character Points) and two of them opposed on equal
    terms are computed (in the pool); pools 4000 points apart are refused."""
    largest = side(120, 20)
    assert roll(120, 20) < opposed(largest, largest) < DEFAULT_LIMIT_US
    assert opposed(side(120, 20, -2000), side(120, 20, 2000)) > DEFAULT_LIMIT_US


def test_what_the_rules_refuse_is_estimated_as_nothing_to_compute() -> None:
    """Refused before any odds are computed, so the rules' own problem answers: too many
    dice (above 120), Character Points over the limit (D7), or a Wild-Die-only
    difficulty (D14), which lists nothing."""
    assert roll(121) == REFUSED_US
    assert roll(120, 20, character_point_limit=5) == REFUSED_US
    assert roll(120, 20, difficulty={"kind": "wild_die_only"}) == REFUSED_US
    assert opposed(side(121), side(120, 20, 2000)) == REFUSED_US
