"""The odds' cost estimate (rules/odds_cost.py): a pure function of a request's dice, so a
gate can bound a request before running it. Its calibration is measured, not tested here
(no timing assertions); these check what it depends on, and on what not."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from service.rulesets.opend6.rules.odds import RollDice
from service.rulesets.opend6.rules.odds_cost import (
    REFUSED_COST,
    dice_odds_cost,
    opposed_dice_cost,
    opposed_odds_cost,
    roll_odds_cost,
)
from service.rulesets.opend6.rules.opposed import OpposedRequest
from service.rulesets.opend6.rules.roll_odds import OpposedOddsRequest
from service.rulesets.opend6.rules.spec import CriticalFailure, OddsRequest, RollRequest

CANCEL, COMPLICATION = CriticalFailure.CANCEL_HIGHEST, CriticalFailure.COMPLICATION


def dice(regular: int, cp: int = 0, option: CriticalFailure = CANCEL, pips: int = 0) -> RollDice:
    return RollDice(regular=regular, cp_dice=cp, pips=pips, critical_failure=option)


@pytest.mark.parametrize("option", [CANCEL, COMPLICATION])
def test_more_dice_cost_more(option):
    """More regular dice or Character Point dice: a longer finite part, more exploding dice."""
    for regular in (0, 5, 40, 119):
        assert dice_odds_cost(dice(regular + 1, option=option)) > dice_odds_cost(
            dice(regular, option=option)
        )
        assert dice_odds_cost(dice(regular, 1, option)) > dice_odds_cost(dice(regular, 0, option))
        assert opposed_dice_cost(dice(regular + 5, option=option), dice(3)) > opposed_dice_cost(
            dice(regular, option=option), dice(3)
        )


def test_cancel_highest_costs_more_than_complication():
    """ "Wild Die", D5: cancel_highest's total has two parts (first toss 1…5 or 6)."""
    assert dice_odds_cost(dice(30, 5, CANCEL)) > dice_odds_cost(dice(30, 5, COMPLICATION))
    assert opposed_dice_cost(dice(30, 5, CANCEL), dice(30, 5, CANCEL)) > opposed_dice_cost(
        dice(30, 5, COMPLICATION), dice(30, 5, COMPLICATION)
    )


def test_the_largest_pools_are_the_dearest():
    """D7's bounds: 120 dice and 20 Character Points a roll. Two sides alike are built once,
    so the dearest opposed request has two different sides of nearly the most dice."""
    worst = opposed_dice_cost(dice(119, 20), dice(119, 19))
    assert worst > opposed_dice_cost(dice(119, 20), dice(119, 20))
    assert worst > opposed_dice_cost(dice(119, 20), dice(118, 19))
    assert worst > opposed_dice_cost(dice(60, 20), dice(119, 19))
    assert dice_odds_cost(dice(119, 20)) > dice_odds_cost(dice(119, 19))


def side(code: str, **more: Any) -> dict[str, Any]:
    return {"base": {"type": "skill", "code": code}, **more}


def test_pips_difficulty_and_handicaps_cost_nothing():
    """Pips, related rolls, difficulties and modifiers only move a sum's window (D17)."""
    plain = msgspec.convert({"initiator": side("4D"), "resister": side("3D")}, OpposedOddsRequest)
    moved = msgspec.convert(
        {
            "initiator": side("4D+2", related=[{"label": "search", "result_points": 40}]),
            "resister": side("3D", bonuses=[{"label": "x", "pips": -50}]),
            "modifiers": {"initiator": [{"label": "dark", "value": 100}]},
        },
        OpposedOddsRequest,
    )
    assert opposed_odds_cost(moved) == opposed_odds_cost(plain) > 0
    easy = msgspec.convert(
        {**side("5D"), "difficulty": {"kind": "number", "value": 5}}, OddsRequest
    )
    hard = msgspec.convert(
        {**side("5D+3"), "difficulty": {"kind": "number", "value": 200}}, OddsRequest
    )
    assert roll_odds_cost(easy) == roll_odds_cost(hard) > 0


def test_a_roll_costs_odds_work_only_with_odds():
    """`with_odds`: a roll asks for its odds twin's work, or none; the same for opposed."""
    body = {**side("6D"), "character_points": {"before": 2}, "seed": 3}
    with_odds = msgspec.convert({**body, "with_odds": True}, RollRequest)
    odds_twin = msgspec.convert({k: v for k, v in body.items() if k != "seed"}, OddsRequest)
    assert roll_odds_cost(msgspec.convert(body, RollRequest)) == 0
    assert roll_odds_cost(with_odds) == roll_odds_cost(odds_twin) > 0
    sides = {"initiator": side("4D", seed=1), "resister": side("3D", seed=2)}
    assert opposed_odds_cost(msgspec.convert(sides, OpposedRequest)) == 0
    assert opposed_odds_cost(
        msgspec.convert({**sides, "with_odds": True}, OpposedRequest)
    ) == opposed_odds_cost(
        msgspec.convert({"initiator": side("4D"), "resister": side("3D")}, OpposedOddsRequest)
    )


def test_what_is_refused_or_one_toss_costs_next_to_nothing():
    """ "Special Difficulties" (D14): one toss; a code below 1D is refused at once (D3)."""
    wild_only = msgspec.convert(
        {**side("40D"), "difficulty": {"kind": "wild_die_only"}}, OddsRequest
    )
    assert roll_odds_cost(wild_only) == REFUSED_COST
    zero = msgspec.convert({**side("1D"), "bonuses": [{"label": "x", "dice": -1}]}, OddsRequest)
    assert roll_odds_cost(zero) == REFUSED_COST
    refused = msgspec.convert(
        {"initiator": side("1D", bonuses=[{"label": "x", "dice": -1}]), "resister": side("3D")},
        OpposedOddsRequest,
    )
    assert opposed_odds_cost(refused) == REFUSED_COST
