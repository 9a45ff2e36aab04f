"""One gamble, each test citing the seed's heading ("Calculating Effect", "Step 4:
Resolution", "Multiple Effects: Multi-Actions", "Criticals", "Bolstering", "Team Work",
"Step 3: Going for It", "Damage", "Paradox") or the design's decision; the faces and
results are the design's Part 3. TN 5 and no bet unless said.
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.quick_shot.rules.gambles import (
    QuickShotGambleRequest,
    QuickShotGambleResult,
    resolve_gamble,
)


class NoDice:
    """Where the table supplies every face the server must not roll."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("the server rolled although faces were supplied")


def gamble(*difficulties: str, rng: Any = None, **fields: Any) -> QuickShotGambleResult:
    actions = [
        d if isinstance(d, dict) else {"difficulty": d} for d in (difficulties or ("common",))
    ]
    body = msgspec.convert({"actions": actions, **fields}, QuickShotGambleRequest)
    return resolve_gamble(body, rng or NoDice(), "g")


def refusal(*difficulties: str, **fields: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        gamble(*difficulties, **fields)
    return caught.value


def results(answer: QuickShotGambleResult) -> list[str]:
    return [action.result.value for action in answer.actions]


# Calculating Effect / Step 4: Resolution ---------------------------------------------------


def test_calculating_effect_eight_different_faces_make_a_minor() -> None:
    minor = gamble("minor", faces=[1, 2, 3, 4, 5, 6, 7, 8])
    assert (minor.pool_effect, minor.ones, results(minor)) == (1, 1, ["success"])
    assert minor.critical is None
    common = gamble("common", faces=[1, 2, 3, 4, 5, 6, 7, 8])
    assert results(common) == ["failure"]
    assert common.critical is None


@pytest.mark.parametrize(
    ("faces", "effect"),
    [
        ([5, 5, 2, 3, 2, 3, 2, 3], 2),  # a pair: Common
        ([6, 6, 6, 2, 3, 2, 3, 1], 3),  # three of a kind: Hard
        ([4, 4, 7, 7, 2, 3, 2, 3], 3),  # two pairs: Hard
        ([8, 8, 8, 8, 2, 3, 2, 3], 4),  # four of a kind: Difficult
        ([4, 4, 5, 5, 6, 6, 2, 3], 4),  # three pairs: Difficult
        ([7, 7, 7, 7, 7, 2, 3, 2], 5),  # five of a kind: Overwhelming
        ([4, 4, 5, 5, 6, 6, 7, 7], 5),  # four pairs: Overwhelming
        ([2, 3, 2, 3, 2, 3, 2, 3], 0),  # junk only: even a minor fails
    ],
)
def test_calculating_effect_matching_good_dice_add_one_each(faces: list[int], effect: int) -> None:
    """D2: 1 + Σ (count − 1) over the good faces; a level up to the effect succeeds and
    the next one fails."""
    names = ["minor", "common", "hard", "difficult", "overwhelming"]
    assert gamble("minor", faces=faces).pool_effect == effect
    for level, name in enumerate(names, 1):
        expected = "success" if level <= effect else "failure"
        assert results(gamble(name, faces=faces)) == [expected], (name, faces)


def test_cost_a_lower_target_number_makes_threes_good() -> None:
    """ "Cost": at TN 4 faces 3–8 are good, so a pair of 3s is a Common; at TN 5 it is junk."""
    easier = gamble("common", target_number=4, faces=[3, 3, 2, 2, 1, 2, 2, 2])
    assert easier.good_faces == (3, 4, 5, 6, 7, 8)
    assert results(easier) == ["success"]
    assert easier.actions[0].dice == (0, 1)
    assert results(gamble("common", faces=[3, 3, 2, 2, 1, 2, 2, 2])) == ["failure"]


# Multiple Effects: Multi-Actions ------------------------------------------------------------


def test_multi_actions_four_of_a_kind_is_two_disjoint_pairs() -> None:
    answer = gamble("common", "common", faces=[6, 6, 6, 6, 2, 3, 2, 3])
    assert results(answer) == ["success", "success"]
    assert answer.outcome.value == "success"
    assert {answer.actions[0].dice, answer.actions[1].dice} == {(0, 1), (2, 3)}


def test_multi_actions_a_triple_is_never_two_commons() -> None:
    """D3: no die serves two actions; the first action keeps its pair, the second fails."""
    answer = gamble("common", "common", faces=[6, 6, 6, 2, 3, 2, 3, 2])
    assert results(answer) == ["success", "failure"]
    assert answer.outcome.value == "failure"
    assert answer.actions[0].dice == (0, 1)
    assert answer.actions[1].dice == ()
    served = [die.action for die in answer.dice if die.action is not None]
    assert served == [0, 0]


def test_multi_actions_hard_and_minor_take_a_triple_and_a_single() -> None:
    answer = gamble("hard", "minor", faces=[6, 6, 6, 4, 2, 3, 2, 3])
    assert results(answer) == ["success", "success"]
    assert answer.actions[0].dice == (0, 1, 2)
    assert answer.actions[1].dice == (3,)
    assert [a.effect for a in answer.actions] == [3, 1]


def test_multi_actions_list_order_lets_a_later_action_succeed_when_an_earlier_cannot() -> None:
    """D3: an overwhelming first fails on a pair, and takes no dice from the common after it."""
    answer = gamble("overwhelming", "common", faces=[5, 5, 2, 3, 2, 3, 2, 3])
    assert results(answer) == ["failure", "success"]


def test_multi_actions_an_earlier_success_is_kept_over_a_later_one() -> None:
    """D3: two pairs serve hard (first) rather than common + common after it."""
    answer = gamble("hard", "common", "common", faces=[4, 4, 7, 7, 2, 3, 2, 3])
    assert results(answer) == ["success", "failure", "failure"]
    assert answer.actions[0].effect == 3
    assert len(answer.actions[0].dice) == 4


# Criticals / Critical Success / Critical Failure / Bolstering --------------------------------


def test_critical_success_two_ones_on_a_success_gain_a_wp() -> None:
    answer = gamble("common", faces=[1, 1, 5, 5, 2, 3, 2, 3])
    assert (answer.outcome.value, answer.critical) == ("success", "success")
    assert answer.outcome_label == "Critical success"
    assert answer.actions[0].critical == "success"
    assert (answer.wp.gained, answer.wp.change) == (1, 1)


def test_critical_failure_two_ones_on_a_failure_cost_a_wp() -> None:
    answer = gamble("common", faces=[1, 1, 2, 3, 2, 3, 4, 5])
    assert (answer.outcome.value, answer.critical) == ("failure", "failure")
    assert answer.outcome_label == "Critical failure"
    assert (answer.wp.lost, answer.wp.change) == (1, -1)


def test_bolstering_a_one_wp_bet_rolls_a_ninth_die_and_keeps_the_bet() -> None:
    answer = gamble("common", wp_bet=1, faces=[5, 5, 2, 3, 2, 3, 2, 3, 1])
    assert answer.dice_count == 9
    assert answer.outcome.value == "success"
    assert answer.wp.change == 0
    assert answer.wp.staked == 1
    assert [die.role.value for die in answer.dice] == ["base"] * 8 + ["wp"]


def test_bolstering_the_faces_must_be_as_many_as_the_bet_buys() -> None:
    short = refusal("common", wp_bet=1, faces=[5, 5, 2, 3, 2, 3, 2, 3])
    assert short.code == "quick-shot/faces-missing"
    assert short.extensions == {"missing": 1}
    three = refusal("common", wp_bet=3, faces=[5, 5, 2, 3, 2, 3, 2, 3, 1])
    assert three.code == "quick-shot/faces-missing"
    assert three.extensions == {"missing": 1}
    long = refusal("common", faces=[5, 5, 2, 3, 2, 3, 2, 3, 1])
    assert long.code == "quick-shot/faces-extra"
    assert long.extensions == {"extra": 1}
    assert long.concerns[0].pointer == "/faces"


def test_bolstering_a_two_wp_bet_is_refused() -> None:
    error = refusal("common", wp_bet=2)
    assert error.code == "quick-shot/wp-bet-invalid"
    assert error.concerns[0].pointer == "/wp_bet"


def test_critical_failure_lands_on_the_first_failed_action_and_its_consequence() -> None:
    """ "Critical Failure", "Damage" (D5, D7, D8): the primary keeps its pair, the injury's
    minor finds no good die left; two 1s make it a critical failure; the bet and one more
    WP are lost."""
    answer = gamble(
        "common",
        {"difficulty": "minor", "kind": "injury"},
        wp_bet=1,
        faces=[1, 1, 6, 6, 2, 3, 2, 3, 2],
    )
    primary, injury = answer.actions
    assert (primary.result, primary.critical, primary.consequence) == ("success", None, None)
    assert (injury.result, injury.critical) == ("failure", "failure")
    assert injury.consequence == "injury-worsens-badly"
    assert answer.outcome.value == "failure"
    assert answer.wp.change == -2


def test_critical_failure_marks_only_the_first_failed_action() -> None:
    answer = gamble("common", "hard", "hard", faces=[1, 1, 5, 5, 2, 3, 2, 3])
    assert [a.critical for a in answer.actions] == [None, "failure", None]


def test_critical_success_marks_every_action() -> None:
    answer = gamble("common", "minor", faces=[1, 1, 5, 5, 6, 3, 2, 3])
    assert [a.critical for a in answer.actions] == ["success", "success"]


# Willpower of a gamble (D8) ----------------------------------------------------------------


def test_willpower_the_balance_after_is_reported_from_the_pool_sent() -> None:
    answer = gamble(
        "common",
        wp_bet=3,
        willpower={"source": "drive", "drive": "Revenge", "available": 5},
        faces=[2, 3, 2, 3, 2, 3, 2, 3, 4, 6],
    )
    wp = answer.wp
    assert (wp.lost, wp.change, wp.balance_before, wp.balance_after) == (3, -3, 5, 2)
    assert (wp.source, wp.shortfall) == ("drive", False)


def test_critical_failure_without_wp_left_is_a_shortfall() -> None:
    """ "Critical Failure": the bet took the last WP, the extra one is not there."""
    answer = gamble(
        "common",
        wp_bet=1,
        willpower={"available": 1},
        faces=[1, 1, 2, 3, 2, 3, 4, 5, 6],
    )
    wp = answer.wp
    assert (wp.lost, wp.change, wp.balance_after, wp.shortfall) == (1, -1, 0, True)
    assert [w.code for w in answer.warnings] == ["critical-without-wp"]


def test_willpower_refusals_come_in_the_published_order() -> None:
    drive = refusal("common", willpower={"source": "drive", "available": 3})
    assert drive.code == "quick-shot/drive-required"
    poor = refusal("common", wp_bet=3, willpower={"available": 2})
    assert poor.code == "quick-shot/wp-insufficient"
    assert poor.concerns[0].pointer == "/willpower/available"
    both = refusal("common", wp_bet=2, faces=[4] * 8, seed=3)
    assert [c.code for c in both.concerns] == [
        "quick-shot/wp-bet-invalid",
        "quick-shot/faces-and-seed",
    ]


# Team Work, Step 3: Going for It, Damage/Paradox, Effect 1: Minor ---------------------------


def test_team_work_a_hard_action_becomes_common() -> None:
    answer = gamble({"difficulty": "hard", "teamwork": True}, faces=[5, 5, 2, 3, 2, 3, 2, 3])
    action = answer.actions[0]
    assert (action.level, action.effective_level, action.result) == (3, 2, "success")


def test_team_work_never_takes_an_action_below_minor() -> None:
    """D6."""
    answer = gamble({"difficulty": "minor", "teamwork": True}, faces=[4, 2, 2, 3, 2, 3, 2, 3])
    assert answer.actions[0].effective_level == 1


def test_going_for_it_a_declined_gamble_rolls_nothing() -> None:
    answer = gamble("common", {"difficulty": "minor", "kind": "fatigue"}, wp_bet=1, decline=True)
    assert (answer.outcome.value, answer.outcome_label, answer.critical) == (
        "declined",
        "Declined",
        None,
    )
    assert answer.dice_count == 0
    assert answer.faces == ()
    assert answer.dice == ()
    assert results(answer) == ["failure", "failure"]
    assert (answer.wp.staked, answer.wp.change) == (0, 0)
    with pytest.raises(RulesError, match="rolls nothing"):
        gamble("common", decline=True, seed=4)


def test_paradox_a_vulgar_action_may_fail_while_the_primary_succeeds() -> None:
    answer = gamble(
        "common", {"difficulty": "common", "kind": "paradox"}, faces=[7, 7, 2, 3, 2, 3, 2, 3]
    )
    primary, paradox = answer.actions
    assert primary.result == "success"
    assert paradox.result == "failure"
    assert paradox.consequence == "paradox-effect"
    assert answer.outcome.value == "failure"


def test_damage_a_wound_kept_safe_while_the_primary_fails() -> None:
    """D3's reason for list order: the injury first keeps the wound safe."""
    answer = gamble(
        {"difficulty": "minor", "kind": "injury"}, "hard", faces=[7, 7, 2, 3, 2, 3, 2, 3]
    )
    assert [a.consequence for a in answer.actions] == ["wound-kept-safe", None]
    assert results(answer) == ["success", "failure"]


def test_effect_1_minor_alone_needs_no_roll_but_is_rolled() -> None:
    answer = gamble("minor", {"difficulty": "common", "teamwork": True}, faces=[4] * 8)
    assert [w.code for w in answer.warnings] == ["roll-not-needed"]
    assert answer.dice_count == 8


# Dice sources ------------------------------------------------------------------------------


def test_a_seed_replays_and_so_do_the_returned_faces() -> None:
    first = gamble("hard", "minor", wp_bet=3, seed=2010, rng=random.Random(1))
    again = gamble("hard", "minor", wp_bet=3, seed=2010, rng=random.Random(2))
    assert first.faces == again.faces
    assert len(first.faces) == 10
    replayed = gamble("hard", "minor", wp_bet=3, faces=list(first.faces))
    assert msgspec.structs.replace(replayed, id="x") == msgspec.structs.replace(first, id="x")


def test_every_group_reported_is_minimal_and_disjoint() -> None:
    """D3 over many random pools: a reported group has effect exactly its level, and no die
    serves two actions."""
    rng = random.Random(23)
    names = ["minor", "common", "hard", "difficult", "overwhelming"]
    for _ in range(2000):
        actions = [rng.choice(names) for _ in range(rng.randint(1, 4))]
        answer = gamble(*actions, wp_bet=rng.choice([0, 1, 3]), rng=rng)
        seen: set[int] = set()
        for action in answer.actions:
            faces = [answer.faces[i] for i in action.dice]
            assert not seen & set(action.dice)
            seen |= set(action.dice)
            if action.result == "success":
                counts: dict[int, int] = {}
                for face in faces:
                    counts[face] = counts.get(face, 0) + 1
                assert 1 + sum(c - 1 for c in counts.values()) == action.effective_level
                assert all(c >= 2 for c in counts.values()) or len(faces) == 1
                assert all(face >= 4 for face in faces)
            else:
                assert faces == []
                assert action.effect == 0
