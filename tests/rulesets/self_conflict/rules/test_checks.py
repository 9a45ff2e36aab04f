"""One talent check (docs/self-conflict.md, "How a check is resolved"), each test citing the seed's
heading: "Task resolution and other rules" (TR), its karma paragraph (Karma), "The Scale".

L is the talent level, m the GM's sum on Conflict, k the karma modifier on Self; faces are
given in rolling order (Self, Conflict, re-rolls Self's first).
"""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.self_conflict.rules.checks import (
    SelfConflictComparison,
    SelfConflictCritical,
    SelfConflictDieRole,
    SelfConflictOutcome,
    TalentCheckRequest,
    TalentCheckResult,
    resolve_check,
)


class NoDice:
    """Where the table supplies every face the server must not roll."""

    def randint(self, a: int, b: int) -> int:
        raise AssertionError("the server rolled although faces were supplied")


def request(
    level: int, faces: list[int] | None = None, m: int = 0, **fields: Any
) -> TalentCheckRequest:
    body: dict[str, Any] = {"talent": {"level": level}, **fields}
    if m:
        body["conflict_modifiers"] = [{"label": "GM", "value": part} for part in _split(m)]
    if faces is not None:
        body["faces"] = faces
    return msgspec.convert(body, TalentCheckRequest)


def _split(total: int) -> list[int]:
    """A GM sum as modifiers of −6…+6 each."""
    sign = 1 if total > 0 else -1
    parts = [6 * sign] * (abs(total) // 6)
    if abs(total) % 6:
        parts.append(sign * (abs(total) % 6))
    return parts


def check(level: int, faces: list[int], m: int = 0, **fields: Any) -> TalentCheckResult:
    return resolve_check(request(level, faces, m, **fields), NoDice(), "c")


def refusal(level: int, faces: list[int] | None, m: int = 0, **fields: Any) -> RulesError:
    with pytest.raises(RulesError) as caught:
        resolve_check(request(level, faces, m, **fields), random.Random(1), "c")
    return caught.value


def points(result: TalentCheckResult) -> tuple[int | None, SelfConflictOutcome]:
    return result.total, result.outcome


# --- TR: plain checks at level 4 -------------------------------------------------------


def test_tr_plain_self_under_conflict_over_is_six_marginal() -> None:
    """TR: under → 6 points, over → 0; L4 [3,5] → 6 + 0 = 6, a marginal success."""
    result = check(4, [3, 5])
    assert [(d.comparison, d.points) for d in result.dice] == [
        (SelfConflictComparison.UNDER, 6),
        (SelfConflictComparison.OVER, 0),
    ]
    assert points(result) == (6, SelfConflictOutcome.MARGINAL_SUCCESS)
    assert result.outcome_label == "Marginal success"


def test_tr_plain_both_under_is_twelve_total_success() -> None:
    """TR: both main dice under the level make a total success; L4 [2,3] → 12."""
    result = check(4, [2, 3])
    assert points(result) == (12, SelfConflictOutcome.TOTAL_SUCCESS)
    assert result.outcome_label == "Total success"


def test_tr_plain_both_over_is_zero_failure() -> None:
    """TR: "both over means failure"; L4 [5,6] → 0."""
    result = check(4, [5, 6])
    assert points(result) == (0, SelfConflictOutcome.FAILURE)
    assert result.outcome_label == "Failure"


# --- TR: re-rolls ----------------------------------------------------------------------


def test_tr_both_equal_needs_two_rerolls_named_in_order() -> None:
    """TR: both main dice equal the level, so both re-roll; L4 [4,4] → 422 faces-missing, 2 more:
    self_reroll then conflict_reroll (D7)."""
    error = refusal(4, [4, 4])
    assert error.code == "self-conflict/faces-missing"
    assert error.extensions == {"missing": 2, "roles": ["self_reroll", "conflict_reroll"]}
    assert [c.pointer for c in error.concerns] == ["/faces"]


def test_tr_rerolls_of_six_and_six_are_a_total_success_not_a_critical() -> None:
    """TR: re-roll dice are never critical; L4 [4,4,6,6] → 12, no karma."""
    result = check(4, [4, 4, 6, 6])
    assert points(result) == (12, SelfConflictOutcome.TOTAL_SUCCESS)
    assert result.critical is None
    assert result.karma.gained == 0
    assert [d.role for d in result.dice] == [
        SelfConflictDieRole.SELF,
        SelfConflictDieRole.CONFLICT,
        SelfConflictDieRole.SELF_REROLL,
        SelfConflictDieRole.CONFLICT_REROLL,
    ]


def test_tr_rerolls_of_one_and_one_are_two_points_not_a_critical() -> None:
    """TR: on re-rolls bigger is better; L4 [4,4,1,1] → 2, a failure."""
    result = check(4, [4, 4, 1, 1])
    assert points(result) == (2, SelfConflictOutcome.FAILURE)
    assert result.critical is None


def test_tr_two_rerolls_sum_their_faces() -> None:
    """TR: "calculate the points"; L4 [4,4,3,3] → 6, marginal."""
    assert points(check(4, [4, 4, 3, 3])) == (6, SelfConflictOutcome.MARGINAL_SUCCESS)


@pytest.mark.parametrize(
    ("faces", "total", "outcome"),
    [
        ([2, 4, 6], 12, SelfConflictOutcome.TOTAL_SUCCESS),  # under + equal: total on a 6
        ([2, 4, 5], 11, SelfConflictOutcome.MARGINAL_SUCCESS),
        ([5, 4, 6], 6, SelfConflictOutcome.MARGINAL_SUCCESS),  # over + equal: marginal on a 6
        ([6, 4, 5], 5, SelfConflictOutcome.FAILURE),
    ],
)
def test_tr_one_equal_makes_it_on_a_six(
    faces: list[int], total: int, outcome: SelfConflictOutcome
) -> None:
    """TR: under + equal is a total success only on a re-roll of 6; over + equal a
    marginal success only on a 6 (L4)."""
    result = check(4, faces)
    assert points(result) == (total, outcome)
    reroll = result.dice[2]
    assert (reroll.role, reroll.modifier, reroll.modified, reroll.comparison) == (
        SelfConflictDieRole.CONFLICT_REROLL,
        0,
        None,
        None,
    )
    assert reroll.points == reroll.face == faces[2]


# --- TR: criticals ---------------------------------------------------------------------


def test_tr_natural_one_and_one_is_a_critical_success_and_gains_karma() -> None:
    """TR, Karma: L4 [1,1] → critical success, total_success, no points, karma +1."""
    result = check(4, [1, 1])
    assert result.critical is SelfConflictCritical.SUCCESS
    assert points(result) == (None, SelfConflictOutcome.TOTAL_SUCCESS)
    assert result.outcome_label == "Critical success"
    assert result.karma.gained == 1
    assert all(d.points is None for d in result.dice)
    assert [d.comparison for d in result.dice] == [SelfConflictComparison.UNDER] * 2


def test_tr_no_reroll_after_a_critical_so_a_third_face_is_extra() -> None:
    """TR: no re-roll follows a critical; L4 [1,1,3] → 422 faces-extra."""
    error = refusal(4, [1, 1, 3])
    assert error.code == "self-conflict/faces-extra"
    assert error.concerns[0].pointer == "/faces"


def test_tr_natural_six_and_six_is_a_critical_failure_and_gains_karma() -> None:
    """TR, Karma: L4 [6,6] → critical failure, karma +1."""
    result = check(4, [6, 6])
    assert result.critical is SelfConflictCritical.FAILURE
    assert points(result) == (None, SelfConflictOutcome.FAILURE)
    assert result.outcome_label == "Critical failure"
    assert result.karma.gained == 1


@pytest.mark.parametrize(
    ("level", "faces", "critical"),
    [
        (1, [1, 1], SelfConflictCritical.SUCCESS),  # both dice equal L1: still no re-roll
        (6, [6, 6], SelfConflictCritical.FAILURE),  # both equal L6
        (0, [1, 1], SelfConflictCritical.SUCCESS),  # Self is always over 0 but for this
    ],
)
def test_tr_criticals_whatever_the_level_and_never_a_reroll(
    level: int, faces: list[int], critical: SelfConflictCritical
) -> None:
    """TR: every natural 1 and 1 / 6 and 6 is a critical (D2), even where the
    dice equal the level."""
    result = check(level, faces)
    assert result.critical is critical
    assert len(result.dice) == 2
    assert result.total is None


def test_the_scale_level_zero_fails_a_plain_roll() -> None:
    """ "The Scale", TR: level 0, [1,2] → both over → 0 points."""
    assert points(check(0, [1, 2])) == (0, SelfConflictOutcome.FAILURE)


@pytest.mark.parametrize(
    ("level", "m", "faces", "critical"),
    [(4, 2, [1, 1], SelfConflictCritical.SUCCESS), (6, -2, [6, 6], SelfConflictCritical.FAILURE)],
)
def test_tr_modifiers_do_not_affect_criticals(
    level: int, m: int, faces: list[int], critical: SelfConflictCritical
) -> None:
    """TR: criticals read the natural faces, modifiers aside (D2); the modified dice show."""
    result = check(level, faces, m)
    assert result.critical is critical
    assert result.dice[1].modified == faces[1] + m


# --- TR: GM modifiers (Conflict only, never clamped) -----------------------------------


def test_tr_gm_modifier_makes_conflict_equal_so_a_conflict_reroll_is_missing() -> None:
    """TR, D7: L4 m+1 [3,3] → Conflict 4 = L: 422, 1 missing, ["conflict_reroll"]."""
    error = refusal(4, [3, 3], m=1)
    assert error.extensions == {"missing": 1, "roles": ["conflict_reroll"]}
    assert error.detail.startswith("1 more face(s) needed (conflict_reroll)")


def test_tr_gm_modifier_then_its_reroll() -> None:
    """TR: L4 m+1 [3,3,6] → Self under 6 + Conflict's re-roll 6 = 12."""
    result = check(4, [3, 3, 6], m=1)
    assert points(result) == (12, SelfConflictOutcome.TOTAL_SUCCESS)
    assert (result.dice[1].modifier, result.dice[1].modified) == (1, 4)
    assert result.dice[0].modifier == 0  # the GM never modifies Self


def test_tr_level_zero_conflict_brought_to_zero_equals_the_level() -> None:
    """TR, D3: L0 m−2 [5,2] → Conflict 0 = L0: one re-roll missing."""
    error = refusal(0, [5, 2], m=-2)
    assert error.extensions == {"missing": 1, "roles": ["conflict_reroll"]}


def test_tr_no_clamping_conflict_below_zero_is_under_level_zero() -> None:
    """D3: L0 m−3 [5,2] → Conflict −1 under 0 → 6 points, marginal."""
    result = check(0, [5, 2], m=-3)
    assert result.dice[1].modified == -1
    assert points(result) == (6, SelfConflictOutcome.MARGINAL_SUCCESS)


def test_tr_no_clamping_conflict_above_six_is_over_level_six() -> None:
    """D3: L6 m+2 [3,5] → Conflict 7 over 6 → 6 + 0 = 6."""
    result = check(6, [3, 5], m=2)
    assert result.dice[1].comparison is SelfConflictComparison.OVER
    assert points(result) == (6, SelfConflictOutcome.MARGINAL_SUCCESS)


def test_tr_gm_sum_of_eleven_is_refused() -> None:
    """D4: the GM's sum lies in −10…+10; 11 → 422 at /conflict_modifiers."""
    error = refusal(4, [3, 5], m=11)
    assert error.code == "self-conflict/conflict-modifier-out-of-range"
    assert error.concerns[0].pointer == "/conflict_modifiers"


def test_tr_gm_sum_of_three_is_applied_with_a_warning() -> None:
    """D4, TR: the seed's small-modifier advice is guidance: +3 warns."""
    result = check(4, [3, 5], m=3)
    assert [w.code.value for w in result.warnings] == ["conflict-modifier-large"]
    assert check(4, [3, 5], m=2).warnings == ()
    assert [line.die.value for line in result.modifiers] == ["conflict"]


# --- Karma -----------------------------------------------------------------------------


def test_karma_on_self_spent_before_the_roll() -> None:
    """Karma: L4 k−2, balance 2, [5,5] → Self 3 under: 6, marginal; spent 2, after 0;
    Conflict untouched."""
    result = check(4, [5, 5], karma={"balance": 2, "modifier": -2})
    assert (result.dice[0].modified, result.dice[0].comparison) == (3, SelfConflictComparison.UNDER)
    assert (result.dice[1].modifier, result.dice[1].modified) == (0, 5)
    assert points(result) == (6, SelfConflictOutcome.MARGINAL_SUCCESS)
    karma = result.karma
    assert (
        karma.balance_before,
        karma.modifier,
        karma.spent,
        karma.gained,
        karma.balance_after,
    ) == (
        2,
        -2,
        2,
        0,
        0,
    )
    assert [(line.source.value, line.die.value, line.value) for line in result.modifiers] == [
        ("karma", "self", -2)
    ]


def test_karma_spent_even_on_a_critical_which_gains_one() -> None:
    """Karma, D5: L4 k−1, balance 1, [1,1] → spent 1, gained 1, after 1."""
    result = check(4, [1, 1], karma={"balance": 1, "modifier": -1})
    assert result.critical is SelfConflictCritical.SUCCESS
    assert (result.karma.spent, result.karma.gained, result.karma.balance_after) == (1, 1, 1)


def test_karma_beyond_the_balance_is_refused() -> None:
    """Karma, D5: k−2 with a balance of 1 → 422 karma-insufficient at /karma/modifier."""
    error = refusal(4, [5, 5], karma={"balance": 1, "modifier": -2})
    assert error.code == "self-conflict/karma-insufficient"
    assert error.concerns[0].pointer == "/karma/modifier"


def test_karma_positive_modifier_also_costs() -> None:
    """Karma: "negative or positive modifiers", each point costs one (D5)."""
    result = check(4, [2, 2], karma={"balance": 5, "modifier": 1})
    assert (result.dice[0].modified, result.karma.spent, result.karma.balance_after) == (3, 1, 4)


def test_without_karma_the_balances_are_null_but_a_critical_still_gains() -> None:
    """D1: the client keeps the balance; without it there is none to report."""
    result = check(4, [6, 6])
    assert (result.karma.balance_before, result.karma.balance_after, result.karma.gained) == (
        None,
        None,
        1,
    )


def test_karma_is_never_on_a_reroll() -> None:
    """Karma, D5, D6: L4 k+1 [3,1,2] → Self 4 = L, its re-roll 2 is raw (modifier 0)."""
    result = check(4, [3, 1, 2], karma={"balance": 1, "modifier": 1})
    assert result.dice[2].role is SelfConflictDieRole.SELF_REROLL
    assert (result.dice[2].modifier, result.dice[2].points) == (0, 2)
    assert result.total == 8


# --- D7: the dice's source ---------------------------------------------------------------


def test_d7_faces_and_seed_together_are_refused() -> None:
    """D7: faces + seed → 422 faces-and-seed."""
    error = refusal(4, [3, 5], seed=3)
    assert error.code == "self-conflict/faces-and-seed"


def test_d7_one_face_misses_the_conflict_die() -> None:
    """D7: a single face: the Conflict die is missing (re-rolls may follow)."""
    error = refusal(4, [3])
    assert error.extensions == {"missing": 1, "roles": ["conflict"]}


def test_d7_rule_refusals_come_first_and_together() -> None:
    """D4, D5, D7: every refusal of the request at once, before the faces are counted."""
    error = refusal(4, [4, 4], m=11, karma={"balance": 0, "modifier": 1})
    assert [c.code for c in error.concerns] == [
        "self-conflict/conflict-modifier-out-of-range",
        "self-conflict/karma-insufficient",
    ]
    assert error.extensions == {}


def test_d7_a_seed_reproduces_the_check_and_its_faces_replay_it() -> None:
    """D7: the same seed, or the answer's faces sent back, give the same check."""
    seeded = request(4, None, seed=20_04)
    first = resolve_check(seeded, NoDice(), "a")
    assert resolve_check(seeded, NoDice(), "b").faces == first.faces
    replay = resolve_check(request(4, list(first.faces)), NoDice(), "c")
    assert (replay.dice, replay.total, replay.outcome) == (first.dice, first.total, first.outcome)


def test_d7_server_dice_draw_only_the_rerolls_needed() -> None:
    """D7: the server rolls Self, Conflict, then one re-roll per equal main die."""
    rng = random.Random(5)
    for _ in range(200):
        result = resolve_check(request(3, None), rng, "x")
        equal = sum(d.comparison is SelfConflictComparison.EQUAL for d in result.dice[:2])
        assert len(result.faces) == 2 + (0 if result.critical else equal)


# --- "The Scale", D14: the talent as written ---------------------------------------------


def test_the_scale_the_talent_is_written_with_its_label() -> None:
    """ "Talents", D14: dangerous at 4 → `Fairly dangerous(4)`; no name, no writing."""
    result = check(4, [3, 5], talent={"name": "dangerous", "level": 4})
    assert (result.talent.label, result.talent.written) == ("Fairly", "Fairly dangerous(4)")
    assert check(4, [3, 5]).talent.written is None


def test_the_scale_a_name_whose_label_disagrees_warns() -> None:
    """ "The Scale", D14: `Very agile` rolled at 2 → warning talent-label-mismatch."""
    result = check(2, [3, 5], talent={"name": "Very agile", "level": 2})
    assert [w.code.value for w in result.warnings] == ["talent-label-mismatch"]
    assert result.talent.written == "Very agile(2)"
