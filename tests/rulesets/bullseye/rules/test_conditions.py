"""§3.2.3–§3.2.6: impairment, incapacitation, retirement and restoration of a depletable score."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conditions import (
    MAJOR_IMPAIRMENT,
    MINOR_IMPAIRMENT,
    State,
    Thresholds,
    condition,
    restore,
    score_concerns,
    thresholds,
)

BOOK_MAXIMUM = 42  # §3.2.3's own example


def test_section_3_2_3_impairment_penalties_are_minus_two_and_minus_five():
    """§3.2.3: the two levels of impairment are −2 and −5."""
    assert (MINOR_IMPAIRMENT, MAJOR_IMPAIRMENT) == (-2, -5)


def test_section_3_2_3_thresholds_of_the_book_example():
    """§3.2.3/§3.2.4: maximum 42 → −2 at 31, −5 at 21, incapacitated at 10 (rounded down)."""
    marks = thresholds(BOOK_MAXIMUM)
    assert (marks.minor, marks.major, marks.incapacitated) == (31, 21, 10)
    assert marks == Thresholds(minor=31, major=21, incapacitated=10)


@pytest.mark.parametrize(
    ("maximum", "expected"),
    [(20, (15, 10, 5)), (21, (15, 10, 5)), (23, (17, 11, 5)), (60, (45, 30, 15)), (1, (0, 0, 0))],
)
def test_section_3_2_3_thresholds_round_down(maximum, expected):
    """§3.2.3/§3.2.4: three-quarters, one-half, one-quarter, each rounded down."""
    marks = thresholds(maximum)
    assert (marks.minor, marks.major, marks.incapacitated) == expected


@pytest.mark.parametrize("current", [42, 35, 32])
def test_section_3_2_3_book_example_healthy_above_31(current):
    """§3.2.3: with maximum 42, any score above 31 (e.g. 32) carries no penalty."""
    now = condition(BOOK_MAXIMUM, current)
    assert (now.impairment, now.state) == (0, State.HEALTHY)


@pytest.mark.parametrize("current", [31, 27, 22])
def test_section_3_2_3_book_example_minus_two_from_31_to_22(current):
    """§3.2.3: with maximum 42, −2 when the score drops to 31, and still −2 down to 22."""
    now = condition(BOOK_MAXIMUM, current)
    assert (now.impairment, now.state) == (-2, State.IMPAIRED)


@pytest.mark.parametrize("current", [21, 15, 11])
def test_section_3_2_3_book_example_minus_five_from_21(current):
    """§3.2.3: with maximum 42, −5 when the score drops to 21; at 11 not yet incapacitated."""
    now = condition(BOOK_MAXIMUM, current)
    assert (now.impairment, now.state) == (-5, State.IMPAIRED)


@pytest.mark.parametrize("current", [10, 5, 1])
def test_section_3_2_4_book_example_incapacitated_at_ten(current):
    """§3.2.4: one quarter of 42 rounded down is 10: incapacitated at 10 and below."""
    assert condition(BOOK_MAXIMUM, current).state is State.INCAPACITATED


def test_section_3_2_4_not_incapacitated_at_eleven():
    """§3.2.4: above the one-quarter mark (11 of 42) the character can act."""
    assert condition(BOOK_MAXIMUM, 11).state is not State.INCAPACITATED


@pytest.mark.parametrize("current", [0, -1, -30])
def test_section_3_2_5_retired_at_zero_and_below(current):
    """§3.2.5: a score of 0 or less retires the character."""
    assert condition(BOOK_MAXIMUM, current).state is State.RETIRED


def test_section_3_2_5_one_point_is_not_retired():
    """§3.2.5: a score of 1 is not zero: incapacitated (42), not retired."""
    assert condition(BOOK_MAXIMUM, 1).state is State.INCAPACITATED


def test_section_3_2_3_condition_reports_its_thresholds():
    """§3.2.3: the condition carries the marks it was judged by."""
    assert condition(BOOK_MAXIMUM, 30).thresholds == Thresholds(
        minor=31, major=21, incapacitated=10
    )


def test_section_3_2_3_small_maximum():
    """§3.2.3–§3.2.5: maximum 4 → marks 3, 2, 1: 4 healthy, 3 −2, 2 −5, 1 incapacitated."""
    states = [(condition(4, s).impairment, condition(4, s).state) for s in (4, 3, 2, 1, 0)]
    assert states == [
        (0, State.HEALTHY),
        (-2, State.IMPAIRED),
        (-5, State.IMPAIRED),
        (-5, State.INCAPACITATED),
        (-5, State.RETIRED),
    ]


@pytest.mark.parametrize(
    ("current", "amount", "after"),
    [(20, 5, 25), (40, 5, 42), (42, 1, 42), (10, 32, 42), (10, 100, 42), (0, 3, 3), (30, 0, 30)],
)
def test_section_3_2_6_restore_never_above_maximum(current, amount, after):
    """§3.2.6: restoration raises the score, never above the maximum (42)."""
    assert restore(BOOK_MAXIMUM, current, amount) == after


def test_section_3_2_6_restore_never_lowers():
    """§3.2.6: restoring a negative amount does not deplete."""
    assert restore(BOOK_MAXIMUM, 20, -5) == 20


def test_section_3_2_6_score_above_maximum_is_a_concern():
    """§3.2.6: a current score of 43 against a maximum of 42 is impossible."""
    concerns = score_concerns(42, 43, "/depletable/0/current")
    assert [(c.code, c.pointer) for c in concerns] == [
        (RuleCode.CURRENT_ABOVE_MAXIMUM, "/depletable/0/current")
    ]
    assert concerns[0].code == "current-above-maximum"
    assert "43" in concerns[0].detail
    assert "42" in concerns[0].detail


@pytest.mark.parametrize("current", [42, 41, 0, -5])
def test_section_3_2_6_score_at_or_below_maximum_is_fine(current):
    """§3.2.6: a score equal to or below the maximum raises no concern."""
    assert score_concerns(42, current, "/x") == []


STATE_RANK = {State.HEALTHY: 0, State.IMPAIRED: 1, State.INCAPACITATED: 2, State.RETIRED: 3}


@settings(max_examples=200, deadline=None)
@given(
    maximum=st.integers(min_value=1, max_value=500),
    data=st.data(),
)
def test_section_3_2_3_property_a_lower_score_is_never_better(maximum, data):
    """§3.2.3–§3.2.5: a lower score never has a milder impairment or a better state."""
    higher = data.draw(st.integers(min_value=-50, max_value=maximum), label="higher")
    lower = data.draw(st.integers(min_value=-60, max_value=higher), label="lower")
    high, low = condition(maximum, higher), condition(maximum, lower)
    assert low.impairment <= high.impairment
    assert STATE_RANK[low.state] >= STATE_RANK[high.state]


@settings(max_examples=200, deadline=None)
@given(maximum=st.integers(min_value=1, max_value=100_000), data=st.data())
def test_section_3_2_3_property_conditions_follow_the_quarter_marks(maximum, data):
    """§3.2.3–§3.2.5: the condition at any score matches the rounded-down quarter marks."""
    current = data.draw(st.integers(min_value=-10, max_value=maximum))
    now = condition(maximum, current)
    # For an integer score, S <= floor(k*M/4) exactly when 4*S <= k*M.
    if 2 * current <= maximum:
        assert now.impairment == -5
    elif 4 * current <= 3 * maximum:
        assert now.impairment == -2
    else:
        assert now.impairment == 0
    assert now.impairment in (0, -2, -5)
    if current <= 0:
        assert now.state is State.RETIRED
    elif 4 * current <= maximum:
        assert now.state is State.INCAPACITATED
    elif now.impairment:
        assert now.state is State.IMPAIRED
    else:
        assert now.state is State.HEALTHY


@settings(max_examples=100, deadline=None)
@given(
    maximum=st.integers(min_value=1, max_value=1000),
    current=st.integers(min_value=-100, max_value=1000),
    amount=st.integers(min_value=-100, max_value=2000),
)
def test_section_3_2_6_property_restore_bounded_by_maximum(maximum, current, amount):
    """§3.2.6: restored score ≤ maximum, and never below the score before (when it was legal)."""
    after = restore(maximum, min(current, maximum), amount)
    assert after <= maximum
    assert after >= min(current, maximum)
