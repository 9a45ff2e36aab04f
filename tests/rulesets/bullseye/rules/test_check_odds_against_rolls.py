"""The exact check odds agree with the service's own dice: 200 000 seeded rolls of the real
resolve_check for each dice kind of §7.1, within 4σ (§2.1, §2.4.1, §2.5, §7.2)."""

from __future__ import annotations

import math
import random
from collections import Counter
from fractions import Fraction

import msgspec
import pytest

from service.rulesets.bullseye.rules.check_odds import CheckOddsRequest, check_odds
from service.rulesets.bullseye.rules.checks import CheckRequest, SuppliedRoll, resolve_check
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.narration import Outcome

pytestmark = pytest.mark.heavy(2)

ROLLS = 200_000
# +3 against 12 (the check odds example), with health at issue: every outcome is likely
# enough to test, and the spreads cross four to six §2.4.1 bands whatever the dice.
BODY = {
    "target": 12,
    "qualities": [{"name": "Keen eye", "type": "intrinsic", "magnitude": 3}],
    "depletion": {"actor": {"threat": 2}, "opposition": {"threat": 4}},
}
SEEDS = {
    DiceKind.D20: 20261126,
    DiceKind.TWO_D10: 2010,
    DiceKind.THREE_D6: 36,
    DiceKind.FOUR_D6_MINUS_4: 4640,
}


def within_4_sigma(count: int, p: Fraction) -> bool:
    expected = float(p)
    return abs(count / ROLLS - expected) <= 4 * math.sqrt(expected * (1 - expected) / ROLLS)


def outcome_chances(outcome):
    return {
        Outcome.SUCCESS: Fraction(outcome.success.exact),
        Outcome.STALEMATE: Fraction(outcome.stalemate.exact),
        Outcome.FAILURE: Fraction(outcome.failure.exact),
    }


@pytest.mark.parametrize("dice", list(DiceKind))
def test_200_000_seeded_checks_land_within_4_sigma_of_the_odds(dice: DiceKind) -> None:
    """§2.1 outcomes, §2.4.1 bands of 1 % or more and §3.2.2 losses of 2 % or more, as
    rolled; §7.2 the same with a held bullseye spent on every roll that does not succeed
    (the same faces resolved again with `bullseye`), and how often it is spent."""
    request = msgspec.convert({**BODY, "dice": dice}, CheckRequest)
    answer = check_odds(msgspec.convert({**BODY, "dice": dice}, CheckOddsRequest))
    [exact] = [item for item in answer.dice_kinds if item.dice == dice]
    rng = random.Random(SEEDS[dice])
    # outcome, spread label and (loser, amount) of every check, rolled and with a held bullseye
    rolled: dict[str, Counter] = {"outcome": Counter(), "band": Counter(), "loss": Counter()}
    held: dict[str, Counter] = {"outcome": Counter(), "band": Counter(), "loss": Counter()}
    spent = 0
    for _ in range(ROLLS):
        result = resolve_check(request, rng, "")
        for tally in (rolled, held) if result.outcome is Outcome.SUCCESS else (rolled,):
            tally["outcome"][result.outcome] += 1
            tally["band"][result.spread_label] += 1
            tally["loss"][result.depletion.loser, result.depletion.amount] += 1
        if result.outcome is not Outcome.SUCCESS:
            spent += 1
            supplied = SuppliedRoll(faces=result.faces)
            result = resolve_check(
                msgspec.structs.replace(request, roll=supplied, bullseye=True), rng, ""
            )
            held["outcome"][result.outcome] += 1
            held["band"][result.spread_label] += 1
            held["loss"][result.depletion.loser, result.depletion.amount] += 1

    for tally, odds in ((rolled, exact.rolled), (held, exact.with_held_bullseye)):
        for outcome, p in outcome_chances(odds).items():
            assert within_4_sigma(tally["outcome"][outcome], p), (dice, outcome)
        tested = [b for b in odds.spread_bands if Fraction(b.exact) >= Fraction(1, 100)]
        for band in tested:
            assert within_4_sigma(tally["band"][band.label], Fraction(band.exact)), (dice, band)
        for loss in odds.depletion.losses:
            if Fraction(loss.exact) >= Fraction(2, 100):
                count = tally["loss"][loss.loser, loss.amount]
                assert within_4_sigma(count, Fraction(loss.exact)), (dice, loss)
    assert len([b for b in exact.rolled.spread_bands if Fraction(b.exact) >= 0.01]) >= 3
    assert within_4_sigma(spent, Fraction(exact.held_bullseye_spent.exact))


def test_a_quick_10_and_a_spent_bullseye_are_certain() -> None:
    """§2.5, §7.2: 10 + 3 and 20 + 3 against 12 — whatever the dice source, one outcome,
    which the odds give as 1/1."""
    plain = {key: value for key, value in BODY.items() if key != "depletion"}
    answer = check_odds(msgspec.convert(plain, CheckOddsRequest))
    rng = random.Random(7)
    quick = {
        resolve_check(msgspec.convert({**plain, "quick10": True}, CheckRequest), rng, "").spread
        for _ in range(100)
    }
    bullseye = {
        resolve_check(msgspec.convert({**plain, "bullseye": True}, CheckRequest), rng, "").spread
        for _ in range(100)
    }
    assert answer.with_quick10 is not None
    assert quick == {1}
    assert [(row.value, row.exact) for row in answer.with_quick10.spread] == [(1, "1/1")]
    assert answer.with_quick10.success.exact == "1/1"
    assert bullseye == {11}
    assert [(row.value, row.exact) for row in answer.with_spent_bullseye.spread] == [(11, "1/1")]
