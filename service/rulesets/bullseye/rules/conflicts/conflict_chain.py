"""Who wins the whole conflict (§4.3's decision, §4.4's winner) from the scores as they
stand: a Markov chain over (players' score, opposition's score), solved exactly or
simulated with a seed.

Every round after the current one is alike: the same declared qualities, the same
impairments (checks during a conflict never touch a depletable score, §4.3), so the same
joint distribution of (players' loss, opposition's loss). The round in progress has its
own (some yields may be known). Scores never rise, so the states can be solved in order
of their scores, each from smaller ones, a round that costs nobody anything (the chain
staying put) divided out. The service's round limit (``MAX_ROUNDS``) and bullseyes
(§7.2) are left out: the chain plays on as at the table, nobody spending a bullseye.

Decided (§4.3, and the service's sudden-death decision): after a round, a score at or
below 0 with the two scores different ends it, the higher winning; both at or below 0 and
equal plays on. From such a tie only the next round's two losses matter: the players win
if they lose less, so its value is the same at every tied score.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random

from service.kernel.exact import Pmf
from service.rulesets.bullseye.rules.conflicts.round_odds import Losses
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser, settle

__all__ = [
    "DiceSampler",
    "Ending",
    "Tally",
    "after_round",
    "digits_bound",
    "simulate",
    "solve",
    "states_cost",
    "wilson",
]

GOES_ON, PLAYERS, OPPOSITION, SUDDEN_DEATH = range(4)
Z95 = 1.959963984540054  # the normal quantile of 0.975


def after_round(players: int, opposition: int) -> int:
    """What the scores after a round mean (§4.3): it goes on, one side has won, or both
    are at or below 0 and equal (sudden death: it goes on)."""
    if players > 0 and opposition > 0:
        return GOES_ON
    if players == opposition:
        return SUDDEN_DEATH
    return PLAYERS if players > opposition else OPPOSITION


@dataclass(frozen=True, slots=True)
class Ending:
    """The exact chances of each way the conflict ends, and how many rounds it takes on
    average from the round in progress (None: it may never end)."""

    players: Fraction
    opposition: Fraction
    undecided: Fraction
    expected_rounds: float | None
    states: int


@dataclass(frozen=True, slots=True)
class _Fresh:
    """What the chain needs of a fresh round's joint losses."""

    entries: tuple[tuple[int, int, int], ...]  # (a, b, weight), (0, 0) left out, by a then b
    denominator: int
    stays: int  # the weight of (0, 0): the round changes nothing
    ties: int  # the weight of a == b (0 included): a sudden-death round that goes on
    players_ahead: int  # the weight of a < b: the players lose less

    @classmethod
    def of(cls, losses: Losses, denominator: int) -> _Fresh:
        entries = tuple(sorted((a, b, w) for (a, b), w in losses.items() if (a, b) != (0, 0) and w))
        return cls(
            entries=entries,
            denominator=denominator,
            stays=losses.get((0, 0), 0),
            ties=sum(w for (a, b), w in losses.items() if a == b),
            players_ahead=sum(w for (a, b), w in losses.items() if a < b),
        )

    @property
    def moves(self) -> int:
        return self.denominator - self.stays

    @property
    def breaks_ties(self) -> int:
        return self.denominator - self.ties


def states_cost(fresh: Losses, players: int, opposition: int) -> int:
    """The terms :func:`solve` adds: for every state with both scores positive up to the
    current ones, one per round outcome that leaves both positive (and one for the state
    itself), counted outcome by outcome without visiting the states."""
    if players <= 0 or opposition <= 0:
        return 0
    terms = players * opposition
    for a, b in fresh:
        if (a, b) != (0, 0) and a < players and b < opposition:
            terms += (players - a) * (opposition - b)
    return terms


def digits_bound(
    fresh: Losses, denominator: int, current_denominator: int, scores: tuple[int, int]
) -> int:
    """The most decimal digits the exact chances can have: their denominator divides
    ``current_denominator · B · qᵏ`` (q the weight of a round that moves the scores, B of a
    sudden-death round that breaks the tie, k the most rounds that can still move them:
    each takes at least the least loss off one score)."""
    chain = _Fresh.of(fresh, denominator)
    players, opposition = scores
    least_a = min((a for a, _, _ in chain.entries if a), default=0)
    least_b = min((b for _, b, _ in chain.entries if b), default=0)
    depth = 1
    if players > 0 and least_a:
        depth += -(-players // least_a) - 1
    if opposition > 0 and least_b:
        depth += -(-opposition // least_b) - 1
    logs = math.log10(current_denominator) + math.log10(max(chain.breaks_ties, 1))
    return math.floor(logs + depth * math.log10(max(chain.moves, 1))) + 2  # + rounding


def solve(
    fresh: Losses,
    denominator: int,
    current: Losses,
    current_denominator: int,
    scores: tuple[int, int],
) -> Ending:
    """The exact chances from ``scores`` with the round in progress distributed as
    ``current`` and every later round as ``fresh`` (weights over their denominators).

    Each state ``(p, o)`` with both scores positive is valued from the states a round can
    lead to, all smaller, the chance of standing still divided out. Values are kept as
    integers over ``B·q^k`` (``k`` the most moving rounds left from that state), so the
    only division is the last one.
    """
    chain = _Fresh.of(fresh, denominator)
    players0, opposition0 = scores
    values, rounds = _solve_states(chain, players0, opposition0)
    q, b = chain.moves, chain.breaks_ties
    if q == 0 or b == 0:
        return _solve_degenerate(chain, current, current_denominator, scores, rounds)
    scale = max((k for _, k in values.values()), default=0)
    powers = [q**k for k in range(scale + 1)]
    common = b * powers[scale]
    won_p = won_o = 0  # numerators over current_denominator · common
    expected = 0.0
    for (a, bb), weight in current.items():
        p, o = players0 - a, opposition0 - bb
        kind = after_round(p, o)
        if kind == PLAYERS:
            won_p += weight * common
        elif kind == OPPOSITION:
            won_o += weight * common
        elif kind == SUDDEN_DEATH:
            won_p += weight * chain.players_ahead * powers[scale]
            won_o += weight * (b - chain.players_ahead) * powers[scale]
            expected += weight * _tie_rounds(chain)
        else:
            x, k = values[(p, o)]
            won_p += weight * x * powers[scale - k]
            won_o += weight * (b * powers[k] - x) * powers[scale - k]
            expected += weight * rounds[(p, o)]
    total = current_denominator * common
    return Ending(
        players=Fraction(won_p, total),
        opposition=Fraction(won_o, total),
        undecided=Fraction(total - won_p - won_o, total),
        expected_rounds=1 + expected / current_denominator,
        states=len(values),
    )


def _solve_degenerate(
    chain: _Fresh,
    current: Losses,
    current_denominator: int,
    scores: tuple[int, int],
    rounds: dict[tuple[int, int], float],
) -> Ending:
    """A fresh round never moves the scores (q = 0: whatever the round in progress leaves
    undecided stays so), or never breaks a tie (B = 0: both sides always lose alike, the
    gap never changes, the side ahead wins and a level conflict goes on for ever)."""
    players0, opposition0 = scores
    won_p = won_o = 0
    expected = 0.0
    for (a, bb), weight in current.items():
        p, o = players0 - a, opposition0 - bb
        kind = after_round(p, o)
        if kind == GOES_ON and chain.moves and p != o:
            kind = PLAYERS if p > o else OPPOSITION
            expected += weight * rounds[(p, o)]
        elif kind in (GOES_ON, SUDDEN_DEATH):
            expected = math.inf
        won_p += weight * (kind == PLAYERS)
        won_o += weight * (kind == OPPOSITION)
    mean = 1 + expected / current_denominator
    return Ending(
        players=Fraction(won_p, current_denominator),
        opposition=Fraction(won_o, current_denominator),
        undecided=Fraction(current_denominator - won_p - won_o, current_denominator),
        expected_rounds=None if math.isinf(mean) else mean,
        states=len(rounds),
    )


def _tie_rounds(chain: _Fresh) -> float:
    return math.inf if chain.breaks_ties == 0 else chain.denominator / chain.breaks_ties


def _solve_states(
    chain: _Fresh, players0: int, opposition0: int
) -> tuple[dict[tuple[int, int], tuple[int, int]], dict[tuple[int, int], float]]:
    """Every state with both scores positive up to ``(players0, opposition0)``: its
    players' chance as ``(x, k)`` meaning ``x / (B·q^k)``, and its expected rounds."""
    values: dict[tuple[int, int], tuple[int, int]] = {}
    rounds: dict[tuple[int, int], float] = {}
    if players0 <= 0 or opposition0 <= 0:
        return values, rounds
    q, b, d = chain.moves, chain.breaks_ties, chain.denominator
    regular = q > 0 and b > 0
    ahead = chain.players_ahead
    tie_rounds = _tie_rounds(chain)
    # Terminal weights by d = b − a (the opposition's loss less the players'): from (p, o)
    # a round ending it is a players' win when d > o − p, a tie when d == o − p.
    by_gap: dict[int, int] = {}
    for a, bb, w in chain.entries:
        by_gap[bb - a] = by_gap.get(bb - a, 0) + w
    gaps = sorted(by_gap)
    above = [0] * (len(gaps) + 1)  # above[i]: weight of gaps[i:]
    for i in range(len(gaps) - 1, -1, -1):
        above[i] = above[i + 1] + by_gap[gaps[i]]
    by_a: dict[int, list[tuple[int, int]]] = {}
    for a, bb, w in chain.entries:
        by_a.setdefault(a, []).append((bb, w))
    losses_a = sorted(by_a)
    powers = [1]
    for p in range(1, players0 + 1):
        for o in range(1, opposition0 + 1):
            gap = o - p
            by_depth: dict[int, int] = {}  # k of the state reached → Σ weight · x
            won_inside = tied_inside = 0
            expected = float(d)
            for a in losses_a:
                if a >= p:
                    break
                row = p - a
                for bb, w in by_a[a]:
                    if bb >= o:
                        break
                    state = (row, o - bb)
                    if regular:
                        x, k = values[state]
                        by_depth[k] = by_depth.get(k, 0) + w * x
                    if bb - a > gap:
                        won_inside += w
                    elif bb - a == gap:
                        tied_inside += w
                    expected += w * rounds[state]
            won = above[bisect.bisect_right(gaps, gap)] - won_inside
            tied = by_gap.get(gap, 0) - tied_inside
            if tied:
                expected += tied * tie_rounds
            rounds[(p, o)] = math.inf if q == 0 else expected / q
            if not regular:
                continue
            k = max(by_depth, default=0) + 1
            while len(powers) <= k:
                powers.append(powers[-1] * q)
            x = (won * b + tied * ahead) * powers[k - 1]
            for k2, part in by_depth.items():
                x += part * powers[k - 1 - k2]
            values[(p, o)] = (x, k)
    return values, rounds


# --- simulation -------------------------------------------------------------------------


class DiceSampler:
    """Like the table: the GM's yield, then each player's, each pairing settled by the one
    rule of :func:`settle` — one draw a participant. Every yield is a die result plus a
    fixed modifier, so its distribution is listed outcome by outcome (at most 6⁴ of them)
    and a draw is one index, not a search."""

    def __init__(
        self,
        gm_yield: Pmf,
        gm_side: DepletionSide,
        players: Sequence[tuple[Pmf, DepletionSide]],
    ) -> None:
        self._gm = _outcomes(gm_yield)
        self._players = []
        for yield_, side in players:
            low = yield_.low - gm_yield.high  # the least spread
            high = yield_.high - gm_yield.low
            by_spread = []
            for spread in range(low, high + 1):
                loser, amount = settle(spread, side, gm_side)
                # a stalemate costs nobody: amount 0 either way
                by_spread.append((amount, 0) if loser is Loser.ACTOR else (0, amount))
            outcomes = _outcomes(yield_)
            self._players.append((outcomes, len(outcomes), low, tuple(by_spread)))
        self.draws = 1 + len(players)

    def round(self, rng: Random) -> tuple[int, int]:
        random = rng.random
        gm = self._gm[int(random() * len(self._gm))]
        players = opposition = 0
        for outcomes, count, low, by_spread in self._players:
            a, b = by_spread[outcomes[int(random() * count)] - gm - low]
            players += a
            opposition += b
        return players, opposition


def _outcomes(pmf: Pmf) -> tuple[int, ...]:
    """Each value repeated by its weight: a uniform index draws it with its chance."""
    return tuple(v for i, w in enumerate(pmf.weights) for v in [pmf.low + i] * w)


@dataclass(frozen=True, slots=True)
class Tally:
    """How simulated conflicts ended: won by each side, or still going at the round cap."""

    runs: int
    players: int
    opposition: int
    unfinished: int
    rounds: int  # rounds played, over every run


def simulate(
    current: DiceSampler,
    fresh: DiceSampler,
    scores: tuple[int, int],
    *,
    runs: int,
    round_cap: int,
    rng: Random,
) -> Tally:
    """Play ``runs`` conflicts from ``scores``: the round in progress from ``current``, the
    rest from ``fresh``, each stopped at ``round_cap`` rounds."""
    won = [0, 0, 0, 0]
    played = 0
    for _ in range(runs):
        players, opposition = scores
        sampler = current
        kind = GOES_ON
        for _round in range(round_cap):
            a, b = sampler.round(rng)
            players, opposition = players - a, opposition - b
            played += 1
            kind = after_round(players, opposition)
            if kind in (PLAYERS, OPPOSITION):
                break
            sampler = fresh
        won[kind] += 1
    return Tally(
        runs=runs,
        players=won[PLAYERS],
        opposition=won[OPPOSITION],
        unfinished=won[GOES_ON] + won[SUDDEN_DEATH],
        rounds=played,
    )


def wilson(successes: int, runs: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if runs == 0:
        return 0.0, 1.0
    share = successes / runs
    spread = z * z / runs
    centre = (share + spread / 2) / (1 + spread)
    half = z / (1 + spread) * math.sqrt(share * (1 - share) / runs + spread / (4 * runs))
    return max(0.0, centre - half), min(1.0, centre + half)
