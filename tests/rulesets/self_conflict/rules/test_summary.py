"""The one-line summary of a talent check (rules/summary.py), in the seed's words ("Task
resolution and other rules"): the level on "The Scale", the Self and Conflict dice with
their modifiers and comparison, re-rolls (D6), criticals (D2), points, the outcome label
(D14) and karma (D5)."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.summary import SUMMARY_PATTERN
from service.rulesets.self_conflict.rules.checks import (
    TalentCheckRequest,
    TalentCheckResult,
    resolve_check,
)


def check(**body: Any) -> TalentCheckResult:
    return resolve_check(msgspec.convert(body, TalentCheckRequest), random.Random(0), "c")


def test_each_die_against_the_level_its_points_and_the_outcome() -> None:
    """Under the level 6 points, equal a re-roll worth its face (D6), over 0; 12 is a total
    success. The GM's modifier goes on Conflict, karma on Self (D5)."""
    result = check(
        talent={"name": "dangerous", "level": 4},
        conflict_modifiers=[{"label": "slippery deck", "value": 1}],
        karma={"balance": 2, "modifier": -1},
        faces=[3, 3, 6],
    )
    assert result.summary == (
        "Talent 4 (Fairly): Self 3-1=2 under, Conflict 3+1=4 equal (re-roll 6): 12 points, "
        "Total success; karma spent 1"
    )


def test_six_to_eleven_points_are_a_marginal_success() -> None:
    """ "Task resolution and other rules": 6–11 points (the seed's nominal success, D14)."""
    result = check(
        talent={"level": 4}, conflict_modifiers=[{"label": "storm", "value": 2}], faces=[2, 5]
    )
    assert result.summary == (
        "Talent 4 (Fairly): Self 2 under, Conflict 5+2=7 over: 6 points, Marginal success"
    )


def test_a_critical_ends_the_roll_and_gains_karma() -> None:
    """D2: 1 and 1 a critical success, 6 and 6 a critical failure, whatever the level; no
    points; either gains one karma (D5)."""
    assert check(talent={"level": 4}, faces=[6, 6]).summary == (
        "Talent 4 (Fairly): Self 6, Conflict 6: Critical failure; karma gained 1"
    )
    assert check(talent={"level": 0}, faces=[1, 1]).summary == (
        "Talent 0 (Not at all): Self 1, Conflict 1: Critical success; karma gained 1"
    )


@settings(max_examples=200, deadline=None)
@given(
    level=st.integers(0, 6),
    modifier=st.integers(-6, 6),
    karma=st.integers(-3, 3),
    seed=st.integers(0, 2**32),
)
def test_every_check_reads_as_one_line_with_its_outcome(
    level: int, modifier: int, karma: int, seed: int
) -> None:
    """Whatever the dice, the line fits the published pattern and ends on the points and
    the outcome label (a critical: the label alone, D2), then any karma that moved."""
    result = check(
        talent={"level": level},
        conflict_modifiers=[{"label": "gm", "value": modifier}],
        karma={"balance": 3, "modifier": karma},
        seed=seed,
    )
    assert re.fullmatch(SUMMARY_PATTERN, result.summary)
    points = "" if result.total is None else f"{result.total} points, "
    assert result.summary.split("; karma")[0].endswith(f": {points}{result.outcome_label}")
    assert result.summary.startswith(f"Talent {level} ({result.talent.label}): Self ")
