"""Exact odds of one roll of the pools, before it is rolled (steps 3–7; "Rolling The
Bones", "Caught Or Escape"), and of the same pools going for broke (D23).

Each pool's dice are alike and independent, and a die counts when its face is at most
the Aim, so a pool of ``n`` dice with Aim ``a`` (read as 0…6) has ``k`` counted dice in
``C(n, k) · aᵏ · (6 − a)ⁿ⁻ᵏ`` of its ``6ⁿ`` rolls: the number is binomial. Risk needs
more: cracking and the outcome both depend on the Shooter's dice (a high sum comes with
few counted dice), so they are not independent. For each ``k`` the rolls whose sum stays
at most the threshold (Avoid × Allies, or Armor × Angel) number ``C(n, k)`` times the
ways ``k`` faces of 1…a and ``n − k`` faces of a+1…6 sum to it or less: a small count over
sums 0…81 (the product of two stats is at most 81). The two pools are independent, so

    P(outcome ∧ at risk) = Σ_(S, A) of that outcome [P(S) · P(A) − P(S, quiet) · P(A, quiet)]

with "quiet" the pool's sum not above its threshold. Everything is counted in integers
over ``6^(shooter dice + angel dice)``; nothing is simulated, and 30 dice a pool take
well under a millisecond. Each probability is answered as every game answers odds: a
:class:`~service.kernel.chance.Chance` (the values of S and A flat, ``{number, p, exact}``).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.chance import Chance, Exact, Probability, chance, fraction_of
from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.receipts import Receipt
from service.kernel.summary import Summary
from service.kernel.values import Value
from service.rulesets.travelogue.rules.pools import (
    FinalOutcome,
    PoolOutcome,
    Pools,
    final_outcome,
    pool_outcome,
)
from service.rulesets.travelogue.rules.roll import PoolsRequest, PoolsRollRequest, roll_pools
from service.rulesets.travelogue.rules.stats import Track
from service.rulesets.travelogue.rules.summary import pools_summary

__all__ = [
    "MAX_ODDS_DICE",
    "BrokeOdds",
    "NumberChance",
    "PoolCounts",
    "PoolsOdds",
    "PoolsRollResult",
    "check_odds_dice",
    "pool_counts",
    "pools_odds",
    "pools_odds_request",
    "roll_answer",
]

SIDES = 6
MAX_ODDS_DICE = 30  # per pool: a request's work stays bounded (the design's bound)


class NumberChance(Value, frozen=True, kw_only=True):
    """One value of a pool's number (its counted dice) and its probability."""

    number: Annotated[int, Meta(ge=0, le=MAX_ODDS_DICE)]
    p: Probability
    exact: Exact


class BrokeOdds(Value, frozen=True, kw_only=True):
    """Going for broke with these pools: S > A caught, A > S escaped, a tie at large (D23)."""

    caught: Chance
    escaped: Chance
    at_large: Chance


_Numbers = Annotated[
    tuple[NumberChance, ...],
    Meta(max_length=MAX_ODDS_DICE + 1, description="Values of probability 0 left out."),
]


class PoolsOdds(Value, frozen=True, kw_only=True):
    """The exact odds of one roll of the pools (steps 3–7) and of going for broke."""

    smallest_stat: Annotated[int, Meta(ge=0, le=9)]
    largest_stat: Annotated[int, Meta(ge=0, le=9)]
    avoid_x_allies: Annotated[int, Meta(ge=0, le=81)]
    armor_x_angel: Annotated[int, Meta(ge=0, le=81)]
    caught: Annotated[Chance, Meta(description="Step 5: S − A above the smallest stat.")]
    escaped: Annotated[Chance, Meta(description="Step 5: A − S above the largest stat.")]
    running: Annotated[Chance, Meta(description="Step 5: neither.")]
    cracking: Annotated[Chance, Meta(description="Step 6: Shooter sum above Avoid × Allies.")]
    exposure: Annotated[Chance, Meta(description="Step 7: Angel sum above Armor × Angel.")]
    at_risk: Annotated[Chance, Meta(description="Cracking or exposure, or both (D12).")]
    risk_asked: Annotated[
        Chance,
        Meta(
            description="Running and at risk: the roll asks for a buy-out or a flip (risk "
            "counts only while he runs, D13)."
        ),
    ]
    shooter_number: Annotated[_Numbers, Meta(description="S: the Shooter's dice ≤ his Aim.")]
    angel_number: Annotated[_Numbers, Meta(description="A: the Angel's dice ≤ her Aim.")]
    go_for_broke: BrokeOdds


class PoolCounts(Value, frozen=True, kw_only=True):
    """One pool's rolls counted, out of ``6^dice``: ``rolls[k]`` have ``k`` counted dice,
    ``quiet[k]`` of those a sum not above the threshold."""

    dice: int
    rolls: tuple[int, ...]
    quiet: tuple[int, ...]


def _times_faces(poly: list[int], low: int, high: int, limit: int) -> list[int]:
    """``poly`` (counts by sum 0…limit) times one die showing ``low…high``, cut at limit."""
    prefix = [0]
    for weight in poly:
        prefix.append(prefix[-1] + weight)
    # new[s] = Σ poly[s − f] for f in low…high = prefix[s − low + 1] − prefix[max(0, s − high)]
    return (
        [0] * min(low, limit + 1)
        + [prefix[s - low + 1] for s in range(low, min(high, limit + 1))]
        + [prefix[s - low + 1] - prefix[s - high] for s in range(high, limit + 1)]
    )


def _powers(low: int, high: int, count: int, limit: int) -> list[list[int]]:
    """Counts by sum (0…limit) of 0…count dice each showing ``low…high``."""
    powers = [[1] + [0] * limit]
    for _ in range(count):
        powers.append(_times_faces(powers[-1], low, high, limit))
    return powers


def pool_counts(pool: Track, threshold: int) -> PoolCounts:
    """Counts of one pool's rolls by counted dice, and of those whose sum is ≤ threshold."""
    n = pool.ammo
    aim = max(0, min(SIDES, pool.aim))
    rolls = tuple(comb(n, k) * aim**k * (SIDES - aim) ** (n - k) for k in range(n + 1))
    counted = _powers(1, aim, n, threshold) if aim else [[1] + [0] * threshold]
    missed = _powers(aim + 1, SIDES, n, threshold) if aim < SIDES else [[1] + [0] * threshold]
    quiet: list[int] = []
    for k in range(n + 1):
        if k >= len(counted) or n - k >= len(missed):
            quiet.append(0)  # no such roll: all dice count (Aim 6) or none (Aim 0)
            continue
        low, high = counted[k], missed[n - k]
        at_most = 0
        running = 0
        cumulative = []
        for weight in high:
            running += weight
            cumulative.append(running)
        for s, weight in enumerate(low):
            if weight:
                at_most += weight * cumulative[threshold - s]
        quiet.append(comb(n, k) * at_most)
    return PoolCounts(dice=n, rolls=rolls, quiet=tuple(quiet))


def _numbers(counts: PoolCounts) -> tuple[NumberChance, ...]:
    total = SIDES**counts.dice
    found = []
    for number, weight in enumerate(counts.rolls):
        if weight:
            p, exact = fraction_of(Fraction(weight, total))
            found.append(NumberChance(number=number, p=p, exact=exact))
    return tuple(found)


def check_odds_dice(shooter: Track, angel: Track, at: str = "") -> None:
    """At most 30 dice a pool (``at`` prefixes the pointers, `/shooter/ammo` …).

    Raises:
        RulesError: `too-many-dice`, at each pool over the bound.
    """
    concerns = [
        Concern(
            code="travelogue/too-many-dice",
            pointer=f"{at}/{name}/ammo",
            detail=f"Odds are computed for at most {MAX_ODDS_DICE} dice a pool, not {pool.ammo}.",
        )
        for name, pool in (("shooter", shooter), ("angel", angel))
        if pool.ammo > MAX_ODDS_DICE
    ]
    if concerns:
        raise RulesError.from_concerns(concerns)


def pools_odds(request: PoolsRequest) -> PoolsOdds:
    """The exact odds of rolling ``request``'s pools (at most 30 dice each).

    Raises:
        RulesError: `too-many-dice`.
    """
    check_odds_dice(request.shooter, request.angel)
    stats = request.stats
    avoid_x_allies, armor_x_angel = stats.avoid * stats.allies, stats.armor * stats.angel
    shooter = pool_counts(request.shooter, avoid_x_allies)
    angel = pool_counts(request.angel, armor_x_angel)
    total = SIDES ** (shooter.dice + angel.dice)
    by_outcome = dict.fromkeys(PoolOutcome, 0)
    broke = dict.fromkeys(FinalOutcome, 0)
    risk_asked = 0
    for s, s_rolls in enumerate(shooter.rolls):
        for a, a_rolls in enumerate(angel.rolls):
            both = s_rolls * a_rolls
            outcome = pool_outcome(s, a, stats)
            by_outcome[outcome] += both
            if outcome is PoolOutcome.RUNNING:
                risk_asked += both - shooter.quiet[s] * angel.quiet[a]
            broke[final_outcome(s, a)] += both
    quiet = sum(shooter.quiet) * sum(angel.quiet)

    def over(weight: int) -> Chance:
        return chance(Fraction(weight, total))

    return PoolsOdds(
        smallest_stat=stats.smallest,
        largest_stat=stats.largest,
        avoid_x_allies=avoid_x_allies,
        armor_x_angel=armor_x_angel,
        caught=over(by_outcome[PoolOutcome.CAUGHT]),
        escaped=over(by_outcome[PoolOutcome.ESCAPED]),
        running=over(by_outcome[PoolOutcome.RUNNING]),
        cracking=chance(1 - Fraction(sum(shooter.quiet), SIDES**shooter.dice)),
        exposure=chance(1 - Fraction(sum(angel.quiet), SIDES**angel.dice)),
        at_risk=over(total - quiet),
        risk_asked=over(risk_asked),
        shooter_number=_numbers(shooter),
        angel_number=_numbers(angel),
        go_for_broke=BrokeOdds(
            caught=over(broke[FinalOutcome.CAUGHT]),
            escaped=over(broke[FinalOutcome.ESCAPED]),
            at_large=over(broke[FinalOutcome.AT_LARGE]),
        ),
    )


class PoolsRollResult(Pools, frozen=True, kw_only=True):
    """A stateless roll of the pools (steps 3–7), its one-line summary and, when asked, its
    odds."""

    summary: Summary
    odds: Annotated[
        PoolsOdds | None,
        Meta(
            description="With `with_odds`: the roll's odds before its dice, as "
            "`travelogueRollOdds` answers them; else null."
        ),
    ]
    receipt: Receipt = None


def roll_answer(request: PoolsRollRequest, rng: RandomSource) -> PoolsRollResult:
    """:func:`roll_pools` as an answer without odds: those it asks for
    (:func:`pools_odds_request`) are attached by the service, through its odds gate, once
    the roll is accepted, so the roll's refusals come first, as without the flag.

    Raises:
        RulesError: those of :func:`roll_pools`.
    """
    pools = roll_pools(request, rng)
    return PoolsRollResult(**msgspec.structs.asdict(pools), summary=pools_summary(pools), odds=None)


def pools_odds_request(request: PoolsRollRequest) -> PoolsRequest | None:
    """What ``travelogueRollOdds`` is asked for a roll that asks ``with_odds``: its pools
    and stats (never the dice, so the odds before the roll; refused alike,
    `too-many-dice` past 30 dice a pool); None when it does not ask."""
    if not request.with_odds:
        return None
    return PoolsRequest(**{name: getattr(request, name) for name in PoolsRequest.__struct_fields__})
