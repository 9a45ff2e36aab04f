"""The odds in one shape (`chances`, tagged by `kind`) and the chance of at least each total
without a difficulty ("Wild Die", "Character Points", "Determining Success", "Standard
Difficulties", "Special Difficulties"; D2, D4, D5, D14; docs/opend6.md, "Odds in one
shape").

`at_least` is checked against a walk of every toss the rules allow — regular dice, the
Wild Die's first toss, each 6 rolled again, each Character Point die — summed exactly up to
a bound, not against the service's closed forms."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import msgspec
import pytest

from service.rulesets.opend6.rules.odds import (
    DifficultyChances,
    RollChances,
    TotalChances,
    WildDieOnlyChances,
)
from service.rulesets.opend6.rules.roll_odds import OddsAnswer, roll_odds
from service.rulesets.opend6.rules.spec import OddsRequest

SIXTH = Fraction(1, 6)


def tosses(running: int, chance: Fraction, exploding: int, bound: int, out: dict[int, Fraction]):
    """Roll ``exploding`` dice that go on on a 6 ("Wild Die", "Character Points": a later 1
    is plain), adding each face; every way that stays ≤ ``bound`` lands in ``out``."""
    if running > bound:  # every later toss adds at least 1: this branch is past the bound
        return
    if exploding == 0:
        out[running] = out.get(running, Fraction(0)) + chance
        return
    for face in range(1, 7):
        left = exploding if face == 6 else exploding - 1  # a 6 counts and is rolled again
        tosses(running + face, chance * SIXTH, left, bound, out)


def walked(code_dice: int, pips: int, cp: int, option: str, bound: int) -> dict[int, Fraction]:
    """P(total = t) for every t ≤ ``bound``, from the rules toss by toss."""
    out: dict[int, Fraction] = {}
    regular = code_dice - 1
    for faces in itertools.product(range(1, 7), repeat=regular):
        chance = SIXTH**regular
        for first in range(1, 7):  # the Wild Die's first toss
            if first == 1 and option == "cancel_highest":  # D4: it and the highest go
                base = sum(faces) - max(faces, default=0)
                tosses(base + pips, chance * SIXTH, cp, bound, out)
            elif first == 6:  # a Critical Success: it counts and the Wild Die goes on
                tosses(sum(faces) + 6 + pips, chance * SIXTH, cp + 1, bound, out)
            else:  # 2…5, or a 1 that counts with a complication (D5)
                tosses(sum(faces) + first + pips, chance * SIXTH, cp, bound, out)
    return out


def odds_of(code: str, cp: int = 0, **more: Any) -> OddsAnswer:
    body = {"base": {"type": "skill", "code": code}, "character_points": {"before": cp}, **more}
    return roll_odds(msgspec.convert(body, OddsRequest))


def exact(row: Any) -> Fraction:
    return Fraction(row.exact)


CASES = [
    (1, 0, 0, "cancel_highest"),
    (1, 0, 0, "complication"),
    (2, 1, 0, "cancel_highest"),
    (3, 0, 0, "cancel_highest"),
    (3, 2, 0, "complication"),
    (2, 0, 1, "cancel_highest"),
    (1, 2, 1, "complication"),
    (4, 0, 0, "cancel_highest"),
]


@pytest.mark.parametrize(("dice", "pips", "cp", "option"), CASES)
def test_at_least_each_total_is_the_walk_of_every_toss(dice, pips, cp, option) -> None:
    """ "Determining Success": the chance to meet t, for every t from the lowest total the
    roll can make, equals 1 − P(total ≤ t − 1) summed over every toss sequence."""
    bound = 30
    answer = odds_of(f"{dice}D+{pips}", cp, critical_failure=option)
    chances = answer.chances
    assert isinstance(chances, TotalChances)
    below = walked(dice, pips, cp, option, bound)
    lowest = min(total for total, p in below.items() if p)
    rows = {row.total: exact(row) for row in chances.at_least}
    assert chances.at_least[0].total == lowest
    assert [row.total for row in chances.at_least] == list(range(lowest, chances.tail.above + 1))
    for t in range(lowest, bound + 1):
        at_most = sum((p for total, p in below.items() if total <= t - 1), Fraction(0))
        assert rows[t] == 1 - at_most, t


def test_one_die_by_hand() -> None:
    """1D, `cancel_highest` ("Wild Die", D4): a first 1 leaves nothing (total 0); 2…5 each
    1/6; a 6 adds at least 1 more. So P(≥ 1) = 5/6 = P(≥ 2), P(≥ 6) = 1/6 = P(≥ 7)."""
    rows = {row.total: row.exact for row in odds_of("1D").chances.at_least}  # type: ignore[union-attr]
    assert [rows[t] for t in range(8)] == [
        "1/1", "5/6", "5/6", "2/3", "1/2", "1/3", "1/6", "1/6"
    ]  # fmt: skip


@pytest.mark.parametrize("option", ["cancel_highest", "complication"])
@pytest.mark.parametrize("value", [3, 10, 15, 26])
def test_at_least_is_what_a_difficulty_of_that_number_succeeds_with(option, value) -> None:
    """ "Determining Success": meeting the difficulty succeeds (D2), so a number
    difficulty of t succeeds exactly as often as `at_least` says of t, under the roll's
    own Critical Failure option."""
    open_ = odds_of("3D+2", 1, critical_failure=option).chances
    judged = odds_of(
        "3D+2", 1, critical_failure=option, difficulty={"kind": "number", "value": value}
    ).chances
    assert isinstance(open_, TotalChances)
    assert isinstance(judged, DifficultyChances)
    # Below the first row (3D+2 with a CP die never totals under 4) the chance is 1.
    row = next((row.exact for row in open_.at_least if row.total == value), "1/1")
    assert (value < open_.at_least[0].total) == (value == 3)
    assert getattr(judged.success, option).exact == row
    assert judged.at_least == open_.at_least  # a difficulty changes no "at least" figure
    assert judged.needed == value


def test_a_resisting_roll_needs_one_more() -> None:
    """D2: a resisting roll must beat the difficulty, so it needs the difficulty + 1."""
    judged = odds_of(
        "3D", roller_is_initiator=False, difficulty={"kind": "standard", "level": "easy"}
    ).chances
    assert isinstance(judged, DifficultyChances)
    assert judged.needed == 11  # Easy alone is 10 (D8)
    row = next(row for row in judged.at_least if row.total == 11)
    assert judged.success.cancel_highest.exact == row.exact


def test_each_kind_sends_its_own_members_and_no_null_sibling() -> None:
    """One shape by `kind`: a total without a difficulty has no success members at all; a
    difficulty adds them; Wild Die Only is one toss, 1/6, 2/3, 1/6 (D14)."""
    total = msgspec.to_builtins(odds_of("3D").chances)
    judged = msgspec.to_builtins(odds_of("3D", difficulty={"kind": "number", "value": 10}).chances)
    wild = msgspec.to_builtins(odds_of("3D", difficulty={"kind": "wild_die_only"}).chances)
    assert total["kind"] == "total"
    assert "success" not in total
    assert "needed" not in total
    assert judged["kind"] == "difficulty"
    assert judged["success"]["cancel_highest"]["exact"] == "767/1296"  # the guide's 3D vs 10
    assert wild == {
        "kind": "wild_die_only",
        "critical_success": {"p": 0.166666666667, "exact": "1/6"},
        "success": {"p": 0.666666666667, "exact": "2/3"},
        "complication": {"p": 0.166666666667, "exact": "1/6"},
    }
    for shape in (total, judged, wild):
        assert all(value is not None for value in shape.values())
        assert (
            type(msgspec.convert(shape, RollChances)).__name__
            == {
                "total": "TotalChances",
                "difficulty": "DifficultyChances",
                "wild_die_only": "WildDieOnlyChances",
            }[shape["kind"]]
        )


def test_an_automatic_task_succeeds_whatever_the_dice() -> None:
    """ "Standard Difficulties": an automatic task succeeds without a roll."""
    judged = odds_of("2D", difficulty={"kind": "standard", "level": "automatic"}).chances
    assert isinstance(judged, DifficultyChances)
    assert (judged.success.cancel_highest.exact, judged.success.complication.exact) == (
        "1/1",
        "1/1",
    )
    assert judged.success_with_complication.exact == "0/1"


@pytest.mark.parametrize(
    "more",
    [
        {},
        {"difficulty": {"kind": "number", "value": 12}, "critical_failure": "complication"},
        {"difficulty": {"kind": "standard", "level": "automatic"}},
        {"difficulty": {"kind": "wild_die_only"}},
    ],
)
def test_the_deprecated_members_carry_the_same_figures(more: dict[str, Any]) -> None:
    """Migration: `odds` and `wild_die_only`, the first release's shape, still answer, with
    exactly the figures of `chances` (docs/opend6.md, "Odds in one shape")."""
    answer = odds_of("3D+1", **more)
    chances = answer.chances
    if isinstance(chances, WildDieOnlyChances):
        assert answer.odds is None
        assert msgspec.to_builtins(answer.wild_die_only) == {
            k: v for k, v in msgspec.to_builtins(chances).items() if k != "kind"
        }
        return
    assert answer.wild_die_only is None
    assert answer.odds is not None
    assert answer.odds.distribution == chances.distribution
    assert (answer.odds.tail, answer.odds.mean_exact) == (chances.tail, chances.mean_exact)
    assert answer.odds.p_critical_failure == chances.critical_failure
    if isinstance(chances, DifficultyChances):
        assert answer.odds.p_success == chances.success
        assert answer.odds.p_success_with_complication == chances.success_with_complication
    else:
        assert (answer.odds.p_success, answer.odds.p_success_with_complication) == (None, None)
