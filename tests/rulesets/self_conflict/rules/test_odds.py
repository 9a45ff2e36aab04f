"""Exact odds of a talent check (docs/self-conflict.md, "How the odds are computed"), citing
"Task resolution and other rules" (TR) and its karma paragraph.

Numerators are 1296ths, listed failure/marginal/total, criticals included.
"""

from __future__ import annotations

import math
from collections import Counter
from fractions import Fraction
from itertools import product

import msgspec
import pytest

from service.kernel.errors import RulesError
from service.rulesets.self_conflict.rules.checks import (
    SelfConflictCritical,
    SelfConflictOutcome,
    TalentCheckRequest,
    TalentOddsRequest,
    resolve_check,
)
from service.rulesets.self_conflict.rules.odds import exact_odds, talent_odds

LEVELS = range(7)
MODIFIERS = range(-10, 11)


def odds_request(level: int, m: int = 0, k: int = 0) -> TalentOddsRequest:
    body: dict[str, object] = {"talent": {"level": level}, "karma": {"balance": 10, "modifier": k}}
    if m:
        body["conflict_modifiers"] = [
            {"label": "GM", "value": m - m // 2},
            {"label": "GM", "value": m // 2},
        ]
    return msgspec.convert(body, TalentOddsRequest)


def triple(level: int, m: int = 0, k: int = 0) -> tuple[int, int, int]:
    odds = exact_odds(level, m, k)
    return odds.failure, odds.marginal_success, odds.total_success


@pytest.mark.parametrize(
    ("level", "expected"),
    [
        (0, (1260, 0, 36)),
        (1, (1200, 60, 36)),
        (2, (826, 421, 49)),
        (3, (514, 613, 169)),
        (4, (274, 661, 361)),
        (5, (106, 565, 625)),
        (6, (36, 300, 960)),
    ],
)
def test_tr_exact_odds_by_level_without_modifiers(
    level: int, expected: tuple[int, int, int]
) -> None:
    """TR ("The Scale" 0–6, m = k = 0): the design's table, in 1296ths."""
    assert triple(level) == expected


def test_tr_exact_odds_level_four_with_a_gm_plus_two() -> None:
    """TR: L4 m+2 → 478/685/133."""
    assert triple(4, 2) == (478, 685, 133)


def test_tr_and_karma_level_zero_minus_two_on_either_die_is_the_same() -> None:
    """TR, Karma, D3: L0 m−2 = L0 k−2 = 1044/216/36 (a die brought to 0 re-rolls)."""
    assert triple(0, m=-2) == triple(0, k=-2) == (1044, 216, 36)


def test_d3_level_zero_minus_seven_on_conflict_is_always_under() -> None:
    """D3: L0 m−7 → 36/1224/36: Conflict always under, Self always over."""
    assert triple(0, -7) == (36, 1224, 36)


def test_the_answer_gives_p_and_a_reduced_fraction() -> None:
    """TR, L4 (274/661/361 in 1296ths): every probability is the kernel's `{p, exact}`,
    `exact` reduced ("137/648", a critical "1/36"), `p` it to 12 decimals; the totals
    listed `{total, p, exact}` make 1 less the two criticals."""
    answer = talent_odds(odds_request(4))
    assert answer.outcomes.failure.exact == "137/648"
    assert answer.outcomes.marginal_success.exact == "661/1296"
    assert answer.outcomes.marginal_success.p == round(661 / 1296, 12)
    assert answer.critical.success.exact == answer.critical.failure.exact == "1/36"
    assert answer.at_least_marginal.exact == "511/648"  # 1022/1296
    assert answer.reroll.exact == "11/36"  # 396/1296
    points = [Fraction(row.exact) for row in answer.points]
    assert sum(points) == 1 - Fraction(72, 1296)
    assert all(row.p == round(float(Fraction(row.exact)), 12) for row in answer.points)
    assert all(
        Fraction(row.exact).denominator == int(row.exact.split("/")[1]) for row in answer.points
    )
    assert [row.total for row in answer.points] == sorted({row.total for row in answer.points})


def test_the_odds_refuse_what_the_check_refuses() -> None:
    """D4, D5: the same 422s as the check."""
    body = {"talent": {"level": 4}, "karma": {"balance": 0, "modifier": -1}}
    with pytest.raises(RulesError) as caught:
        talent_odds(msgspec.convert(body, TalentOddsRequest))
    assert caught.value.code == "self-conflict/karma-insufficient"


# --- Properties ------------------------------------------------------------------------


@pytest.mark.parametrize("level", LEVELS)
def test_property_numerators_whole_summing_to_1296_with_criticals_36_each(level: int) -> None:
    """TR, D2: for every L, m, k the outcomes make 1296/1296, each critical 36/1296 (the
    points leave out the 72 critical pairs)."""
    for m, k in product(MODIFIERS, MODIFIERS):
        odds = exact_odds(level, m, k)
        assert odds.failure + odds.marginal_success + odds.total_success == 1296
        assert sum(odds.points) == 1296 - 72
        assert all(isinstance(n, int) and n >= 0 for n in odds.points)


def _exhaustive(level: int, m: int, k: int) -> Counter[tuple[object, ...]]:
    """Every four-face tuple (1296 of them) fed to the check as the prefix it needs: a
    prefix of n faces stands for the 6^(4−n) tuples that start with it."""
    base = msgspec.convert(
        {
            "talent": {"level": level},
            "conflict_modifiers": [
                {"label": "a", "value": m - m // 2},
                {"label": "b", "value": m // 2},
            ],
            "karma": {"balance": 10, "modifier": k},
        },
        TalentCheckRequest,
    )
    counts: Counter[tuple[object, ...]] = Counter()

    def run(prefix: tuple[int, ...]) -> None:
        request = msgspec.structs.replace(base, faces=prefix)
        try:
            result = resolve_check(request, None, "")  # type: ignore[arg-type]
        except RulesError as error:
            missing = error.code
        else:
            counts[(result.critical, result.outcome, result.total, len(result.dice) > 2)] += 6 ** (
                4 - len(prefix)
            )
            return
        assert missing == "self-conflict/faces-missing"
        for face in range(1, 7):
            run((*prefix, face))

    for pair in product(range(1, 7), repeat=2):
        run(pair)
    return counts


@pytest.mark.parametrize("level", LEVELS)
def test_property_odds_equal_an_exhaustive_run_of_the_check(level: int) -> None:
    """TR: the enumerated odds are exactly what the check itself does over all 1296
    four-face tuples, for every m and k in −10…10."""
    for m, k in product(MODIFIERS, MODIFIERS):
        counts = _exhaustive(level, m, k)
        assert sum(counts.values()) == 1296
        odds = exact_odds(level, m, k)
        by_outcome: Counter[object] = Counter()
        by_total: Counter[object] = Counter()
        criticals: Counter[object] = Counter()
        for (critical, outcome, total, _), n in counts.items():
            by_outcome[outcome] += n
            if critical is None:
                by_total[total] += n
            else:
                criticals[critical] += n
        assert by_outcome[SelfConflictOutcome.FAILURE] == odds.failure, (m, k)
        assert by_outcome[SelfConflictOutcome.MARGINAL_SUCCESS] == odds.marginal_success
        assert by_outcome[SelfConflictOutcome.TOTAL_SUCCESS] == odds.total_success
        assert [by_total[t] for t in range(13)] == list(odds.points), (m, k)
        assert criticals == {SelfConflictCritical.SUCCESS: 36, SelfConflictCritical.FAILURE: 36}
        assert sum(n for (_, _, _, rerolled), n in counts.items() if rerolled) == odds.reroll


def _at_least_marginal(level: int, m: int = 0, k: int = 0) -> int:
    odds = exact_odds(level, m, k)
    return odds.marginal_success + odds.total_success


def test_property_success_never_falls_as_the_level_rises_nor_rises_with_m_or_k() -> None:
    """TR (a higher level helps; every point added to a die hurts): P(≥ marginal) is
    monotone in L, m and k."""
    for m, k in product(MODIFIERS, MODIFIERS):
        chances = [_at_least_marginal(level, m, k) for level in LEVELS]
        assert chances == sorted(chances), (m, k)
    for level in LEVELS:
        for k in MODIFIERS:
            by_m = [_at_least_marginal(level, m, k) for m in MODIFIERS]
            assert by_m == sorted(by_m, reverse=True), (level, k)
        for m in MODIFIERS:
            by_k = [_at_least_marginal(level, m, k) for k in MODIFIERS]
            assert by_k == sorted(by_k, reverse=True), (level, m)


SAMPLES = 20_000


@pytest.mark.parametrize(("level", "m"), [(4, 0), (0, -2)])
def test_property_seeded_checks_land_within_four_and_a_half_sigma(level: int, m: int) -> None:
    """TR: 20,000 checks with seeds 0…19,999 against the exact odds, every outcome and
    each critical within 4.5σ."""
    base = msgspec.convert(
        {"talent": {"level": level}, "conflict_modifiers": [{"label": "GM", "value": m}]},
        TalentCheckRequest,
    )
    seen: Counter[object] = Counter()
    for seed in range(SAMPLES):
        result = resolve_check(msgspec.structs.replace(base, seed=seed), None, "")  # type: ignore[arg-type]
        seen["outcome", result.outcome] += 1  # tagged: a StrEnum equals its value
        seen["critical", result.critical] += 1
    odds = exact_odds(level, m, 0)
    for key, numerator in (
        (("outcome", SelfConflictOutcome.FAILURE), odds.failure),
        (("outcome", SelfConflictOutcome.MARGINAL_SUCCESS), odds.marginal_success),
        (("outcome", SelfConflictOutcome.TOTAL_SUCCESS), odds.total_success),
        (("critical", SelfConflictCritical.SUCCESS), odds.critical_success),
        (("critical", SelfConflictCritical.FAILURE), odds.critical_failure),
    ):
        p = numerator / 1296
        sigma = math.sqrt(p * (1 - p) / SAMPLES)
        assert abs(seen[key] / SAMPLES - p) <= 4.5 * sigma + 1e-12, (key, seen[key])
