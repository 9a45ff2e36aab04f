"""The kernel's exact distributions, checked against counting by hand and brute force."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from service.kernel import exact
from service.kernel.exact import (
    Pmf,
    combine,
    convolve,
    exploding,
    explosions,
    explosions_at_least,
    highest_of,
    mean,
    point,
    probability_at_least,
    shift,
    sum_of,
    sum_without_highest,
    uniform,
)


def brute(sides: int, n: int, value) -> dict[int, Fraction]:
    """Every face combination of n dice, ``value(faces)`` counted."""
    counts = Counter(value(faces) for faces in itertools.product(range(1, sides + 1), repeat=n))
    return {total: Fraction(ways, sides**n) for total, ways in counts.items()}


def test_uniform_is_one_fair_die():
    die = uniform(1, 6)
    assert dict(die.items()) == {face: Fraction(1, 6) for face in range(1, 7)}
    assert die.complete
    assert mean(die) == Fraction(7, 2)
    with pytest.raises(ValueError):
        uniform(3, 2)


def test_sum_of_three_d6_is_the_classic_bell():
    ways = [1, 3, 6, 10, 15, 21, 25, 27, 27, 25, 21, 15, 10, 6, 3, 1]
    three = sum_of(uniform(1, 6), 3)
    assert dict(three.items()) == {3 + i: Fraction(w, 216) for i, w in enumerate(ways)}
    assert three == convolve(convolve(uniform(1, 6), uniform(1, 6)), uniform(1, 6))


@pytest.mark.parametrize("n", [0, 1, 2, 5, 8])
def test_sum_of_matches_brute_force(n):
    assert dict(sum_of(uniform(1, 4), n).items()) == brute(4, n, sum)


def test_sum_of_zero_dice_is_certainly_zero_and_negative_is_refused():
    assert sum_of(uniform(1, 6), 0) == point(0)
    with pytest.raises(ValueError):
        sum_of(uniform(1, 6), -1)


def test_shift_and_probability_at_least():
    two = shift(sum_of(uniform(1, 6), 2), 3)  # 2d6 + 3
    assert two.low == 5
    assert two.high == 15
    assert probability_at_least(two, 10) == Fraction(21, 36)  # 2d6 ≥ 7
    assert probability_at_least(two, 5) == 1
    assert probability_at_least(two, 16) == 0
    assert two.probability(4) == 0
    assert two.probability(10) == Fraction(1, 6)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_highest_of_matches_brute_force(n):
    assert dict(highest_of(6, n).items()) == brute(6, n, max)
    assert mean(highest_of(6, n)) == sum(p * v for v, p in brute(6, n, max).items())


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5])
def test_sum_without_highest_matches_brute_force(n):
    expected = brute(6, n, lambda faces: sum(faces) - max(faces, default=0))
    assert dict(sum_without_highest(6, n).items()) == expected


def test_combine_takes_signed_coefficients_but_no_negative_result():
    die = uniform(1, 6)
    one = point(1)
    # A die whose 1 is replaced by 0: the whole, minus the 1, plus a 0.
    replaced = combine([(1, die), (-Fraction(1, 6), one), (Fraction(1, 6), point(0))])
    assert dict(replaced.items()) == {0: Fraction(1, 6), **{f: Fraction(1, 6) for f in range(2, 7)}}
    with pytest.raises(ValueError):
        combine([(1, die), (-1, one)])


def test_mean_of_a_prefix_is_refused():
    prefix = exploding(6, 1).prefix(20)
    assert not prefix.complete
    with pytest.raises(ValueError):
        mean(prefix)
    with pytest.raises(ValueError):
        prefix.probability_below(30)


@pytest.mark.parametrize("count", [1, 2, 3, 6])
def test_explosions_follow_the_negative_binomial_formula(count):
    """docs/opend6.md, "How the odds are computed": ``P(ΣX = j) = C(j+m−1, m−1)·⅚ᵐ·6⁻ʲ``."""
    for j in range(12):
        assert (
            explosions(6, count, j)
            == comb(j + count - 1, count - 1) * Fraction(5, 6) ** count * Fraction(1, 6) ** j
        )
        assert explosions_at_least(6, count, j) == 1 - sum(
            explosions(6, count, i) for i in range(j)
        )


def chains(bound: int) -> dict[int, Fraction]:
    """One exploding d6 by its definition: k sixes, then a face 1…5, each toss 1/6."""
    out: dict[int, Fraction] = {}
    for sixes in range(bound // 6 + 1):
        for last in range(1, 6):
            out[6 * sixes + last] = Fraction(1, 6 ** (sixes + 1))
    return out


@pytest.mark.parametrize(
    ("count", "plus"), [(1, None), (2, None), (3, uniform(1, 6)), (0, uniform(1, 6))]
)
def test_exploding_prefix_matches_the_definition(count, plus):
    bound = 40
    scale = 6 ** (bound // 6 + 1)
    one = Pmf(1, tuple(int(chains(bound).get(v, 0) * scale) for v in range(1, bound + 1)), scale)
    expected = sum_of(one, count)
    if plus is not None:
        expected = convolve(expected, plus)
    prefix = exploding(6, count, plus).prefix(bound)
    assert prefix.high == bound
    for value in range(prefix.low, bound + 1):
        assert prefix.probability(value) == expected.probability(value), value


@pytest.mark.parametrize(
    ("count", "plus"), [(1, None), (2, uniform(1, 6)), (4, shift(uniform(1, 3), -5))]
)
def test_exploding_tail_closed_form_agrees_with_the_prefix(count, plus):
    dice = exploding(6, count, plus)
    prefix = dice.prefix(80)
    for threshold in range(dice.low - 3, 82):
        assert dice.probability_at_least(threshold) == probability_at_least(prefix, threshold)


def test_exploding_mean_is_twenty_one_fifths_a_die():
    assert exploding(6, 1).mean() == Fraction(21, 5)
    assert exploding(6, 3, uniform(1, 6)).mean() == Fraction(63, 5) + Fraction(7, 2)
    prefix = exploding(6, 2).prefix(400)
    partial = sum(v * p for v, p in prefix.items())
    assert 0 < Fraction(42, 5) - partial < Fraction(1, 10**40)


@settings(max_examples=60, deadline=None)
@given(
    a=st.lists(st.integers(min_value=0, max_value=2**200), min_size=1, max_size=40),
    b=st.lists(st.integers(min_value=0, max_value=2**70), min_size=1, max_size=40),
)
def test_packed_product_equals_schoolbook(a, b):
    expected = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            expected[i + j] += x * y
    assert exact._product(a, b) == expected


def one_against_one(margin: int) -> Fraction:
    """P(A − B ≥ margin) for two exploding d6, by hand. A = 6X + R, B = 6Y + R', X, Y
    geometric (P(X ≥ n) = 6⁻ⁿ, P(Y = y) = ⅚·6⁻ʸ), R, R' uniform on 1…5. For j ≥ 0,
    P(X − Y ≥ j) = Σ_y ⅚·6⁻ʸ·6^−(y+j) = ⅚·6⁻ʲ·36/35 = 6/7·6⁻ʲ; for j < 0 it is
    1 − P(Y − X ≥ 1 − j) = 1 − 6/7·6^(j−1). A − B ≥ m iff X − Y ≥ ⌈(m − R + R')/6⌉."""

    def gap(j: int) -> Fraction:
        return Fraction(6, 7) / 6**j if j >= 0 else 1 - Fraction(6, 7) * Fraction(6) ** (j - 1)

    return (
        sum(
            (gap(-((r - r2 - margin) // 6)) for r in range(1, 6) for r2 in range(1, 6)),
            Fraction(0),
        )
        / 25
    )


@pytest.mark.parametrize("margin", range(-14, 15))
def test_one_exploding_die_against_another_by_hand(margin):
    """OpenD6's Wild Die against another ("Wild Die"): ``one_against_one``, exactly; with
    ties to the first (margin 0) that is (1 + P(tie))/2 = (1 + 1/7)/2 = 4/7."""
    assert exact.difference_at_least(exploding(6, 1), exploding(6, 1), margin) == (
        one_against_one(margin)
    )
    assert one_against_one(0) == Fraction(4, 7)


def below_and_cut(a, b, margin: int, bound: int) -> tuple[Fraction, Fraction]:
    """Σ over B's totals ≤ bound of P(B = b)·P(A ≥ b + margin) (A's tail by its own closed
    form), and P(B > bound), the most the rest can add."""
    total = sum(
        (p * a.probability_at_least(v + margin) for v, p in b.prefix(bound).items()),
        Fraction(0),
    )
    return total, b.probability_at_least(bound + 1)


PLUSES = [None, uniform(1, 6), sum_of(uniform(1, 6), 3), shift(uniform(1, 3), -4)]


@settings(max_examples=40, deadline=None)
@given(
    count_a=st.integers(min_value=0, max_value=4),
    count_b=st.integers(min_value=0, max_value=4),
    plus_a=st.sampled_from(PLUSES),
    plus_b=st.sampled_from(PLUSES),
    sides=st.sampled_from([2, 4, 6]),
    margin=st.integers(min_value=-40, max_value=40),
)
def test_difference_of_exploding_sums_agrees_with_a_deep_sum(
    count_a, count_b, plus_a, plus_b, sides, margin
):
    """P(A − B ≥ m) lies in [Σ over B ≤ 240, that + P(B > 240)], a window of at most
    2⁻²⁰⁰ or so; and P(A − B ≥ m) + P(B − A ≥ 1 − m) = 1 exactly (the closed form's two
    branches meet)."""
    a, b = exploding(sides, count_a, plus_a), exploding(sides, count_b, plus_b)
    got = exact.difference_at_least(a, b, margin)
    lower, cut = below_and_cut(a, b, margin, 240)
    assert lower <= got <= lower + cut
    assert got + exact.difference_at_least(b, a, 1 - margin) == 1


def test_a_mixture_is_the_weighted_sum_of_its_parts():
    """Parts with the same dice are merged before pairing; the answer is unchanged."""
    a = [
        (Fraction(1, 3), exploding(6, 1, uniform(1, 6))),
        (Fraction(1, 2), exploding(6, 1, uniform(2, 4))),
        (Fraction(1, 6), exploding(6, 2)),
    ]
    b = [(Fraction(3, 4), exploding(6, 0, uniform(1, 6))), (Fraction(1, 4), exploding(6, 2))]
    for margin in (-8, 0, 3, 11):
        pairwise = sum(
            (wa * wb * exact.difference_at_least(pa, pb, margin) for wa, pa in a for wb, pb in b),
            Fraction(0),
        )
        assert exact.mixture_difference_at_least(a, b, margin) == pairwise


def test_a_difference_needs_dice_alike_and_weights_of_no_sign():
    with pytest.raises(ValueError):
        exact.difference_at_least(exploding(6, 1), exploding(4, 1))
    with pytest.raises(ValueError):
        exact.mixture_difference_at_least([(-1, exploding(6, 1))], [(1, exploding(6, 1))])


def test_fraction_text_is_reduced_with_its_sign_on_top():
    assert exact.fraction_text(Fraction(-14, 12)) == "-7/6"
    assert exact.fraction_text(0) == "0/1"
    assert exact.fraction_text(Fraction(9, 3)) == "3/1"
