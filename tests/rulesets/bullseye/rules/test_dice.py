"""§7.1 dice kinds: faces, ranges, fairness of server rolls and checks of supplied faces."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.dice import (
    DICE,
    DiceKind,
    DiceSpec,
    count_members,
    face_concerns,
    roll,
)

# kind → (number of dice, sides of each die, lowest die result, highest die result), §7.1
EXPECTED = {
    DiceKind.D20: (1, 20, 1, 20),
    DiceKind.TWO_D10: (2, 10, 2, 20),
    DiceKind.THREE_D6: (3, 6, 3, 18),
    DiceKind.FOUR_D6_MINUS_4: (4, 6, 0, 20),
}

# How many face combinations give each die result, counted by hand from the book's dice.
# 3d6 is the classic bell: 1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1.
THREE_D6_WAYS = {
    3: 1,
    4: 3,
    5: 6,
    6: 10,
    7: 15,
    8: 21,
    9: 25,
    10: 27,
    11: 27,
    12: 25,
    13: 21,
    14: 15,
    15: 10,
    16: 6,
    17: 3,
    18: 1,
}

ALL_KINDS = list(DiceKind)


def all_faces(sides: int, count: int):
    return itertools.product(range(1, sides + 1), repeat=count)


def test_section_7_1_there_are_exactly_four_dice_kinds():
    """§7.1: d20 (the default) and the three alternates 2d10, 3d6, 4d6-4."""
    assert sorted(kind.value for kind in DiceKind) == ["2d10", "3d6", "4d6-4", "d20"]
    assert set(DICE) == set(DiceKind)


@pytest.mark.parametrize("kind", ALL_KINDS, ids=str)
def test_section_7_1_face_count_and_sides(kind):
    """§7.1: each kind rolls a fixed number of dice of a fixed size."""
    count, sides, _, _ = EXPECTED[kind]
    assert (DICE[kind].count, DICE[kind].sides) == (count, sides)


@pytest.mark.parametrize("kind", ALL_KINDS, ids=str)
def test_section_7_1_lowest_and_highest_die_result(kind):
    """§7.1: d20 1–20, 2d10 2–20, 3d6 3–18, 4d6-4 0–20."""
    _, _, low, high = EXPECTED[kind]
    assert (DICE[kind].lowest, DICE[kind].highest) == (low, high)


@pytest.mark.parametrize("kind", ALL_KINDS, ids=str)
def test_section_7_1_every_face_combination_gives_every_result_in_range(kind):
    """§7.1: enumerating every face combination hits exactly low..high, nothing outside."""
    count, sides, low, high = EXPECTED[kind]
    results = {DICE[kind].result(faces) for faces in all_faces(sides, count)}
    assert results == set(range(low, high + 1))


def test_section_7_1_four_d6_minus_four_subtracts_four():
    """§7.1: 4d6-4 is the sum of four d6 less 4 (so 0…20)."""
    spec = DICE[DiceKind.FOUR_D6_MINUS_4]
    assert spec.result((1, 1, 1, 1)) == 0
    assert spec.result((6, 6, 6, 6)) == 20
    assert spec.result((3, 5, 2, 6)) == 12


def test_section_7_1_dice_spec_arithmetic():
    """§7.1: a spec's bounds and result are count·1+offset … count·sides+offset."""
    spec = DiceSpec(count=2, sides=10)
    assert (spec.lowest, spec.highest, spec.result((4, 9))) == (2, 20, 13)
    shifted = DiceSpec(count=3, sides=6, offset=-4)
    assert (shifted.lowest, shifted.highest, shifted.result((1, 2, 3))) == (-1, 14, 2)


def test_section_7_1_three_d6_bell_curve_by_enumeration():
    """§7.1: 3d6 is bell-shaped (the classic counts over 216 combinations)."""
    spec = DICE[DiceKind.THREE_D6]
    ways = Counter(spec.result(faces) for faces in all_faces(6, 3))
    assert dict(ways) == THREE_D6_WAYS


def test_section_7_1_two_d10_weighted_to_the_centre():
    """§7.1: 2d10 favours middle results: 11 is the most common (10 ways in 100)."""
    spec = DICE[DiceKind.TWO_D10]
    ways = Counter(spec.result(faces) for faces in all_faces(10, 2))
    assert ways[11] == 10
    assert ways[2] == ways[20] == 1
    assert max(ways.values()) == 10


@pytest.mark.parametrize("kind", ALL_KINDS, ids=str)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_section_7_1_roll_returns_only_legal_faces(kind, seed):
    """§7.1: a server roll shows `count` faces, each 1..sides, and a result within range."""
    count, sides, low, high = EXPECTED[kind]
    faces = roll(kind, random.Random(seed))
    assert len(faces) == count
    assert all(1 <= face <= sides for face in faces)
    assert low <= DICE[kind].result(faces) <= high
    assert face_concerns(kind, faces, "/roll/faces") == []


@pytest.mark.parametrize("kind", ALL_KINDS, ids=str)
def test_section_7_1_roll_with_a_seed_is_reproducible(kind):
    """§7.1: the same seed gives the same faces, in the same order."""
    rng_a, rng_b = random.Random(2024), random.Random(2024)
    sequence = [roll(kind, rng_a) for _ in range(20)]
    assert sequence == [roll(kind, rng_b) for _ in range(20)]
    assert len(set(sequence)) > 1  # the generator advances between rolls


def test_section_7_1_roll_works_with_system_random():
    """§7.1: the server's strong generator (SystemRandom) also rolls legal faces."""
    faces = roll(DiceKind.THREE_D6, random.SystemRandom())
    assert len(faces) == 3
    assert all(1 <= face <= 6 for face in faces)


def exact_distribution(kind: DiceKind) -> dict[int, float]:
    """P(result) by enumerating every face combination (independently of DiceSpec.result)."""
    count, sides, low, high = EXPECTED[kind]
    offset = low - count  # 0 for all but 4d6-4
    ways = Counter(sum(faces) + offset for faces in all_faces(sides, count))
    total = sides**count
    return {result: ways[result] / total for result in range(low, high + 1)}


def test_exact_distribution_helper_is_right_for_3d6():
    """§7.1: the chi-square reference itself matches the hand-counted 3d6 bell."""
    assert {r: round(p * 216) for r, p in exact_distribution(DiceKind.THREE_D6).items()} == (
        THREE_D6_WAYS
    )
    assert exact_distribution(DiceKind.FOUR_D6_MINUS_4)[0] == pytest.approx(1 / 1296)
    assert exact_distribution(DiceKind.D20)[7] == pytest.approx(1 / 20)


@pytest.mark.parametrize("kind", ALL_KINDS, ids=str)
def test_section_7_1_server_rolls_fit_the_exact_distribution(kind):
    """§7.1: chi-square goodness of fit of 20 000 seeded rolls against the enumerated odds.

    Deterministic: the generator is seeded, so the p-value is the same on every run.
    """
    samples = 20_000
    rng = random.Random(12345)
    spec = DICE[kind]
    observed = Counter(spec.result(roll(kind, rng)) for _ in range(samples))
    distribution = exact_distribution(kind)
    assert set(observed) <= set(distribution)
    values = sorted(distribution)
    f_obs = [observed[value] for value in values]
    f_exp = [distribution[value] * samples for value in values]
    assert min(f_exp) > 5  # the chi-square approximation holds
    _, p_value = chisquare(f_obs, f_exp)
    assert p_value > 0.001


def test_section_7_1_chi_square_would_catch_a_biased_die():
    """§7.1: the fairness test has teeth: a d20 that never shows 20 fails it."""
    rng = random.Random(12345)
    observed = Counter(rng.randint(1, 19) for _ in range(20_000))
    f_obs = [observed[value] for value in range(1, 21)]
    _, p_value = chisquare(f_obs, [1000.0] * 20)
    assert p_value < 0.001


@pytest.mark.parametrize(
    ("kind", "faces"),
    [
        (DiceKind.D20, (20,)),
        (DiceKind.D20, (1,)),
        (DiceKind.TWO_D10, (10, 1)),
        (DiceKind.THREE_D6, (6, 6, 6)),
        (DiceKind.FOUR_D6_MINUS_4, (1, 2, 3, 4)),
    ],
)
def test_section_7_1_legal_faces_raise_no_concern(kind, faces):
    """§7.1: faces a real die of the kind can show are accepted."""
    assert face_concerns(kind, faces, "/roll/faces") == []


@pytest.mark.parametrize(
    ("kind", "faces"),
    [
        (DiceKind.D20, (10, 10)),
        (DiceKind.TWO_D10, (7,)),
        (DiceKind.THREE_D6, (1, 2, 3, 4)),
        (DiceKind.FOUR_D6_MINUS_4, (1, 2, 3)),
    ],
)
def test_section_7_1_wrong_number_of_faces_is_one_concern_at_the_list(kind, faces):
    """§7.1: the wrong number of faces is one concern pointing at the list: faces-missing
    when too few, faces-extra when too many (issue 38: was illegal-faces for both)."""
    concerns = face_concerns(kind, faces, "/roll/faces")
    assert len(concerns) == 1
    few = len(faces) < EXPECTED[kind][0]
    assert concerns[0].code == (RuleCode.FACES_MISSING if few else RuleCode.FACES_EXTRA)
    assert concerns[0].code == ("faces-missing" if few else "faces-extra")
    assert concerns[0].pointer == "/roll/faces"
    assert concerns[0].detail
    wanted = EXPECTED[kind][0]
    assert count_members(kind, faces) == (
        {"missing": wanted - len(faces)} if few else {"extra": len(faces) - wanted}
    )


def test_section_7_1_out_of_range_face_points_at_that_face():
    """§7.1: a 2d10 cannot show 11; the concern points at /roll/faces/1."""
    concerns = face_concerns(DiceKind.TWO_D10, (3, 11), "/roll/faces")
    assert [(c.code, c.pointer) for c in concerns] == [
        (RuleCode.FACE_OUT_OF_RANGE, "/roll/faces/1")
    ]
    assert concerns[0].code == "face-out-of-range"
    assert count_members(DiceKind.TWO_D10, (3, 11)) == {}


def test_section_7_1_every_out_of_range_face_is_reported():
    """§7.1: 3d6 showing 0, 4 and 7: faces 0 and 2 are each reported."""
    concerns = face_concerns(DiceKind.THREE_D6, (0, 4, 7), "/roll/faces")
    assert [c.pointer for c in concerns] == ["/roll/faces/0", "/roll/faces/2"]
    assert all(c.code == RuleCode.FACE_OUT_OF_RANGE for c in concerns)


@pytest.mark.parametrize(
    ("kind", "bad_face"),
    [
        (DiceKind.D20, 21),
        (DiceKind.D20, 0),
        (DiceKind.TWO_D10, 11),
        (DiceKind.THREE_D6, 7),
        (DiceKind.FOUR_D6_MINUS_4, 7),
        (DiceKind.FOUR_D6_MINUS_4, 0),
    ],
)
def test_section_7_1_face_just_outside_the_die_is_illegal(kind, bad_face):
    """§7.1: one past either end of a die's faces is refused."""
    count = EXPECTED[kind][0]
    faces = (1,) * (count - 1) + (bad_face,)
    concerns = face_concerns(kind, faces, "/x")
    assert [c.pointer for c in concerns] == [f"/x/{count - 1}"]


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(ALL_KINDS),
    faces=st.lists(st.integers(min_value=-3, max_value=25), min_size=1, max_size=4),
)
def test_section_7_1_face_concerns_agree_with_the_die(kind, faces):
    """§7.1: faces are legal exactly when there are `count` of them, each 1..sides."""
    count, sides, _, _ = EXPECTED[kind]
    legal = len(faces) == count and all(1 <= face <= sides for face in faces)
    assert (face_concerns(kind, tuple(faces), "/roll/faces") == []) is legal
