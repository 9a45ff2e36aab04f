"""Steps 3–7 of an attention, with the book's own numbers."""

from __future__ import annotations

from service.rulesets.travelogue.rules.pools import (
    FinalOutcome,
    PoolOutcome,
    final_outcome,
    resolve_pools,
)
from service.rulesets.travelogue.rules.stats import Stats, Track

STATS = Stats(avoid=2, armor=1, angel=3, allies=2)


def test_rolling_the_bones_shooter_aim_2_faces_2_6_5_make_1() -> None:
    """'Rolling The Bones': Ammo 3, Aim 2, faces 2, 6, 5 → the Shooter's number is 1."""
    pools = resolve_pools(Track(aim=2, ammo=3), Track(aim=0, ammo=0), STATS, (2, 6, 5), ())
    assert pools.shooter_number == 1
    assert [die.counted for die in pools.shooter_dice] == [True, False, False]


def test_caught_or_escape_the_books_example_keeps_running() -> None:
    """'Caught Or Escape': stats 2/1/3/2, S 1 and A 2: A − S = 1 is not above 3, running;
    sums 13 > 2 × 2 (cracking) and 4 > 1 × 3 (exposure)."""
    pools = resolve_pools(Track(aim=2, ammo=3), Track(aim=3, ammo=2), STATS, (2, 6, 5), (1, 3))
    assert (pools.shooter_number, pools.angel_number) == (1, 2)
    assert pools.outcome is PoolOutcome.RUNNING
    assert (pools.shooter_sum, pools.avoid_x_allies, pools.cracking) == (13, 4, True)
    assert (pools.angel_sum, pools.armor_x_angel, pools.exposure) == (4, 3, True)
    assert pools.at_risk


def test_caught_or_escape_edges_at_the_smallest_and_largest_stat() -> None:
    """'Caught Or Escape': S − A = lo runs, lo + 1 is caught; A − S = hi runs, hi + 1
    escapes (lo 1, hi 3 here)."""
    shooter, angel = Track(aim=6, ammo=4), Track(aim=6, ammo=4)

    def outcome(s: int, a: int) -> PoolOutcome:
        return resolve_pools(shooter, angel, STATS, (1,) * s, (1,) * a).outcome

    assert outcome(1, 0) is PoolOutcome.RUNNING
    assert outcome(2, 0) is PoolOutcome.CAUGHT
    assert outcome(0, 3) is PoolOutcome.RUNNING
    assert outcome(0, 4) is PoolOutcome.ESCAPED


def test_going_for_broke_a_tie_is_at_large() -> None:
    """'Getting Caught, Getting Away', D23: higher number wins, a tie stays at large."""
    assert final_outcome(2, 1) is FinalOutcome.CAUGHT
    assert final_outcome(1, 2) is FinalOutcome.ESCAPED
    assert final_outcome(1, 1) is FinalOutcome.AT_LARGE
