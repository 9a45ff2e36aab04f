"""Exact odds of a roll of the pools ("Rolling The Bones", "Caught Or Escape", D12, D13,
D23), with the design's numbers and against the rules themselves, rolled."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from service.kernel.chance import Chance
from service.kernel.errors import RulesError
from service.rulesets.travelogue.rules.odds import pool_counts, pools_odds
from service.rulesets.travelogue.rules.pools import PoolOutcome, resolve_pools
from service.rulesets.travelogue.rules.roll import PoolsRequest
from service.rulesets.travelogue.rules.stats import Stats, Track

STATS = Stats(avoid=2, armor=1, angel=3, allies=2)


def request(shooter: tuple[int, int], angel: tuple[int, int], stats: Stats = STATS) -> PoolsRequest:
    """Pools as (aim, ammo)."""
    return PoolsRequest(
        shooter=Track(aim=shooter[0], ammo=shooter[1]),
        angel=Track(aim=angel[0], ammo=angel[1]),
        stats=stats,
    )


def exact(chance: Chance) -> Fraction:
    assert round(float(Fraction(chance.exact)), 12) == chance.p
    return Fraction(chance.exact)


def test_caught_or_escape_odds_are_the_designs() -> None:
    """'Caught Or Escape' (stats 2/1/3/2, Shooter 2/3, Angel 3/2): caught 1/12, escaped 0,
    running 0.916667, cracking 0.981481, exposure 0.916667, at risk 0.998457, risk asked
    (running and at risk) 0.915123."""
    odds = pools_odds(request((2, 3), (3, 2)))
    assert exact(odds.caught) == Fraction(1, 12)
    assert exact(odds.escaped) == 0
    rounded = {
        name: round(getattr(odds, name).p, 6)
        for name in ("running", "cracking", "exposure", "at_risk", "risk_asked")
    }
    assert rounded == {
        "running": 0.916667,
        "cracking": 0.981481,
        "exposure": 0.916667,
        "at_risk": 0.998457,
        "risk_asked": 0.915123,
    }
    # S is binomial(3, 1/3), A binomial(2, 1/2)
    assert [(n.number, n.exact) for n in odds.shooter_number] == [
        (0, "8/27"),
        (1, "4/9"),
        (2, "2/9"),
        (3, "1/27"),
    ]
    assert [(n.number, n.exact) for n in odds.angel_number] == [(0, "1/4"), (1, "1/2"), (2, "1/4")]


def test_a_fresh_bullseyes_pools_always_run_and_crack_a_third_of_the_time() -> None:
    """Set-up: Shooter 1/1, Angel 0/0 — running 1, cracking 1/3 (a 5 or 6 above 2 × 2)."""
    odds = pools_odds(request((1, 1), (0, 0)))
    assert exact(odds.running) == 1
    assert exact(odds.cracking) == Fraction(1, 3)
    assert exact(odds.exposure) == 0
    assert exact(odds.risk_asked) == Fraction(1, 3)


def test_going_for_broke_compares_the_numbers_a_tie_at_large() -> None:
    """D23, 1 die at Aim 6 each (both always count): always a tie, at large."""
    odds = pools_odds(request((6, 1), (6, 1)))
    assert (exact(odds.go_for_broke.at_large), exact(odds.go_for_broke.caught)) == (1, 0)
    # Aim 3 one die each: S > A in a quarter, A > S in a quarter
    odds = pools_odds(request((3, 1), (3, 1)))
    assert exact(odds.go_for_broke.caught) == exact(odds.go_for_broke.escaped) == Fraction(1, 4)


def test_risk_is_counted_with_the_outcome_not_as_if_independent() -> None:
    """D13: one Shooter die at Aim 3 against Avoid × Allies 4 (stats 4/1/3/1 → lo 1): the die
    counts only on 1–3 and cracks only on 5–6, so S = 1 and cracking never come together.
    Multiplying P(running) by P(at risk) would give 1 × 1/3; lo 1 keeps S = 1 running, so
    risk asked is 1/3 — and with lo 0 (stats 5/0/4/0), S = 1 is caught and risk asked is
    still 1/3, not 1/2 × 1/3."""
    odds = pools_odds(request((3, 1), (0, 0), Stats(avoid=4, armor=1, angel=3, allies=1)))
    assert exact(odds.running) == 1
    assert exact(odds.risk_asked) == Fraction(1, 3)
    odds = pools_odds(request((3, 1), (0, 0), Stats(avoid=5, armor=0, angel=4, allies=0)))
    # Avoid × Allies 0: every die cracks; caught on 1–3, running (and at risk) on 4–6
    assert exact(odds.caught) == Fraction(1, 2)
    assert exact(odds.risk_asked) == Fraction(1, 2)
    odds = pools_odds(request((3, 1), (0, 0), Stats(avoid=4, armor=0, angel=4, allies=1)))
    # lo 0: S = 1 caught (1–3); cracking on 5–6 only, all of it running
    assert exact(odds.caught) == Fraction(1, 2)
    assert exact(odds.cracking) == Fraction(1, 3)
    assert exact(odds.risk_asked) == Fraction(1, 3)


def test_a_pools_counts_add_up_to_every_roll() -> None:
    """All 6ⁿ rolls are counted once, the quiet ones among them."""
    for aim in range(7):
        counts = pool_counts(Track(aim=aim, ammo=5), 17)
        assert sum(counts.rolls) == 6**5
        assert all(0 <= q <= r for q, r in zip(counts.quiet, counts.rolls, strict=True))
    # 5 dice sum ≤ 17 in half the rolls (the sum is symmetric about 17.5), whatever the Aim
    assert {sum(pool_counts(Track(aim=aim, ammo=5), 17).quiet) for aim in range(7)} == {3888}


def test_more_than_30_dice_a_pool_are_refused() -> None:
    with pytest.raises(RulesError) as refused:
        pools_odds(request((2, 31), (2, 40)))
    assert [(c.code, c.pointer) for c in refused.value.concerns] == [
        ("travelogue/too-many-dice", "/shooter/ammo"),
        ("travelogue/too-many-dice", "/angel/ammo"),
    ]


@pytest.mark.parametrize(
    ("shooter", "angel", "stats"),
    [
        ((2, 4), (4, 3), Stats(avoid=3, armor=2, angel=2, allies=2)),
        ((3, 9), (2, 7), Stats(avoid=4, armor=3, angel=1, allies=1)),
    ],
)
def test_the_odds_match_rolled_pools_within_four_sigma(
    shooter: tuple[int, int], angel: tuple[int, int], stats: Stats
) -> None:
    """'Rolling The Bones', 'Caught Or Escape': 25 000 seeded rolls through the rules
    themselves land within 4σ of every exact probability."""
    odds = pools_odds(request(shooter, angel, stats))
    rng = random.Random(22)
    rolls = 25_000
    seen = dict.fromkeys(("caught", "escaped", "running", "cracking", "exposure", "risk"), 0)
    s_tie = 0
    for _ in range(rolls):
        pools = resolve_pools(
            Track(aim=shooter[0], ammo=shooter[1]),
            Track(aim=angel[0], ammo=angel[1]),
            stats,
            tuple(rng.randint(1, 6) for _ in range(shooter[1])),
            tuple(rng.randint(1, 6) for _ in range(angel[1])),
        )
        seen[pools.outcome.value] += 1
        seen["cracking"] += pools.cracking
        seen["exposure"] += pools.exposure
        seen["risk"] += pools.at_risk and pools.outcome is PoolOutcome.RUNNING
        s_tie += pools.shooter_number == pools.angel_number
    expected = {
        "caught": odds.caught,
        "escaped": odds.escaped,
        "running": odds.running,
        "cracking": odds.cracking,
        "exposure": odds.exposure,
        "risk": odds.risk_asked,
    }
    expected_tie = odds.go_for_broke.at_large
    for name, count in [*seen.items(), ("tie", s_tie)]:
        p = (expected_tie if name == "tie" else expected[name]).p
        sigma = math.sqrt(rolls * p * (1 - p))
        assert abs(count - rolls * p) <= 4 * sigma + 1e-9, (name, count, rolls * p)
