"""The one-line summary of a gamble (rules/summary.py), in the text's words: the dice and
the TN, each action's difficulty ("Effect 1: Minor" … "Effect 5: Overwhelming") with its
result, effect and consequence (D7), the outcome ("Step 4: Resolution", "Criticals", D5),
the WP that changed hands ("Bolstering", D8), and a declined gamble ("Step 3: Going for
It", D9)."""

from __future__ import annotations

import random
import re
from typing import Any

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel.summary import SUMMARY_PATTERN
from service.rulesets.quick_shot.rules.gambles import (
    QuickShotGambleRequest,
    QuickShotGambleResult,
    resolve_gamble,
)


def gamble(**body: Any) -> QuickShotGambleResult:
    return resolve_gamble(msgspec.convert(body, QuickShotGambleRequest), random.Random(0), "g")


def test_a_pair_of_good_dice_makes_a_common_effect() -> None:
    """ "Step 4: Resolution": faces TN − 1 and up are good (D2); a pair is effect 2."""
    result = gamble(actions=[{"difficulty": "common"}], faces=[5, 5, 2, 3, 2, 3, 2, 3])
    assert result.summary == "8 dice at TN 5: Common success (effect 2): Success"


def test_a_multi_action_needs_a_group_for_each_action() -> None:
    """ "Multiple Effects: Multi-Actions": three 6s make one pair, not two (D3)."""
    result = gamble(
        actions=[{"difficulty": "common"}, {"difficulty": "common"}],
        faces=[6, 6, 6, 2, 3, 2, 3, 2],
    )
    assert result.summary == ("8 dice at TN 5: Common success (effect 2), Common failure: Failure")


def test_a_critical_failure_names_the_consequence_and_the_wp_lost() -> None:
    """ "Criticals", "Damage", "Bolstering": two 1s and a failed injury, the bet and one
    more WP lost (D5, D7, D8)."""
    result = gamble(
        actions=[{"difficulty": "common"}, {"difficulty": "minor", "kind": "injury"}],
        wp_bet=1,
        willpower={"source": "drive", "drive": "Protect the crew", "available": 4},
        faces=[1, 1, 6, 6, 2, 3, 2, 3, 2],
    )
    assert result.summary == (
        "9 dice at TN 5 (1 WP bet): Common success (effect 2), Minor injury failure "
        "(injury-worsens-badly): Critical failure; WP -2"
    )


def test_a_declined_gamble_rolls_nothing() -> None:
    """ "Step 3: Going for It": the player accepts failure (D9)."""
    assert gamble(actions=[{"difficulty": "overwhelming"}], decline=True).summary == (
        "Declined, nothing rolled"
    )


def test_six_actions_that_would_not_fit_are_counted() -> None:
    """Up to six actions (D3): the line counts the successes when naming each would run
    past 200 characters."""
    six = [{"difficulty": "overwhelming", "kind": "paradox"}] * 6
    result = gamble(actions=six, wp_bet=3, faces=[2] * 10)
    assert result.summary == "10 dice at TN 5 (3 WP bet): 0 of 6 actions succeed: Failure; WP -3"


@settings(max_examples=200, deadline=None)
@given(
    difficulties=st.lists(
        st.sampled_from(["minor", "common", "hard", "difficult", "overwhelming"]),
        min_size=1,
        max_size=6,
    ),
    bet=st.sampled_from([0, 1, 3]),
    target=st.integers(3, 7),
    seed=st.integers(0, 2**32),
)
def test_every_gamble_reads_as_one_line_with_its_outcome(
    difficulties: list[str], bet: int, target: int, seed: int
) -> None:
    """Whatever the actions, bet and TN, the line fits the published pattern, counts the
    dice rolled and names the outcome."""
    result = gamble(
        actions=[{"difficulty": d} for d in difficulties],
        wp_bet=bet,
        target_number=target,
        seed=seed,
    )
    assert re.fullmatch(SUMMARY_PATTERN, result.summary)
    assert result.summary.startswith(f"{result.dice_count} dice at TN {target}")
    assert f": {result.outcome_label}" in result.summary
