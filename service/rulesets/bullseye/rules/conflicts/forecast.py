"""The conflict forecast: the round in progress pairing by pairing (§4.3), and who wins
the whole conflict (§4.3's decision, §4.4).

A pure function of the conflict as stored, its version and the reader's role (which
submitted rolls the reader has seen), with every cost bounded before it is paid: so it
can be cached by version, or run away from the event loop, by its caller.

What it assumes, where the book leaves a participant a choice (a decision, documented in
docs/bullseye.md, "The conflict forecast"): each participant checks with every quality
declared for it (§6.3's caps applied), its impairment (§3.2.3, §7.6), the conflict's
dice; no situational modifier, no Quick 10, no bullseye — unless a check already
submitted says otherwise, and the reader has seen it.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from functools import cached_property
from random import Random
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.chance import MAX_DIGITS, Chance, Exact, Probability, chance, fraction_of
from service.kernel.exact import Pmf, mean
from service.kernel.values import Value
from service.rulesets.bullseye.rules.conflicts.conflict_chain import (
    GOES_ON,
    OPPOSITION,
    PLAYERS,
    SUDDEN_DEATH,
    DiceSampler,
    after_round,
    digits_bound,
    simulate,
    solve,
    states_cost,
    wilson,
)
from service.rulesets.bullseye.rules.conflicts.model import (
    Conflict,
    ConflictStatus,
    PairingLoser,
    Scores,
    Side,
)
from service.rulesets.bullseye.rules.conflicts.round_odds import (
    Checker,
    Losses,
    YieldBasis,
    checkers,
    joint_cost,
    joint_losses,
    loss_marginals,
    pairing_losses,
    round_tables,
    sees,
)
from service.rulesets.bullseye.rules.depletion import Loser
from service.rulesets.bullseye.rules.modifiers import ModifierLine

__all__ = [
    "BOUNDS",
    "Bounds",
    "ConflictForecast",
    "ExactOutlook",
    "ForecastRequest",
    "LossAmountChance",
    "PairingForecast",
    "PairingLoss",
    "ParticipantForecast",
    "RoundDecision",
    "RoundForecast",
    "ScoresAfter",
    "SimulatedChance",
    "SimulatedOutlook",
    "SimulationReason",
    "YieldBasis",
    "forecast",
    "forecast_of",
    "forecast_request",
    "simulation_seed",
]


@dataclass(frozen=True, slots=True)
class Bounds:
    """What one forecast may cost, each bound checked before the work it bounds.

    Measured on a 2-core machine (docs/bullseye.md, "The conflict forecast"): a unit of
    ``joint_terms`` (one addition of the round's joint losses) or ``chain_terms`` (one
    term of the exact chain) or ``simulation_draws`` (one random draw) is well under a
    microsecond, so each path keeps to tens of milliseconds.
    """

    joint_terms: int = 150_000
    chain_terms: int = 50_000
    digits: int = MAX_DIGITS  # the longest numerator or denominator `Chance.exact` may carry
    scores_listed: int = 1_000  # the round's joint listed up to this many entries
    simulation_draws: int = 80_000
    max_runs: int = 20_000
    min_runs: int = 20
    round_cap_factor: int = 10
    min_round_cap: int = 100


BOUNDS = Bounds()


class SimulatedChance(Value, frozen=True, kw_only=True):
    """A simulated probability: the share of the runs, with its Wilson 95 % interval."""

    p: Annotated[float, Meta(ge=0, le=1, description="The share of the runs (12 decimals).")]
    low: Annotated[float, Meta(ge=0, le=1, description="The interval's lower end.")]
    high: Annotated[float, Meta(ge=0, le=1, description="The interval's upper end.")]
    runs: Annotated[int, Meta(ge=1, description="Conflicts simulated.")]


class ParticipantForecast(Value, frozen=True, kw_only=True):
    """One participant's yield as the forecast takes it.

    ``basis``: `declared` — not checked yet, so every declared quality, the impairment and
    the dice; `submitted` — checked this round and seen by the reader, so its ``yield``;
    `hidden` — checked, but its roll is not the reader's to see, so as `declared`.
    """

    participant: str
    basis: YieldBasis
    total_modifier: int
    modifiers: tuple[ModifierLine, ...]
    yield_: Annotated[
        int | None, Meta(description="The submitted yield (basis `submitted`), else null.")
    ] = msgspec.field(name="yield")
    may_spend_bullseye: Annotated[
        bool,
        Meta(
            description="Submitted holding a bullseye, it may still spend it (§7.2): the "
            "forecast takes its yield as it stands."
        ),
    ]


class PairingLoss(Value, frozen=True, kw_only=True):
    """One way a pairing can end: whose side loses, how much (§4.3), and its chance."""

    loser: PairingLoser
    amount: int
    p: Probability
    exact: Exact


class PairingForecast(Value, frozen=True, kw_only=True):
    """§4.3, one pairing: the player's yield against the GM's."""

    player: str
    player_wins: Chance
    gm_wins: Chance
    stalemate: Chance
    losses: tuple[PairingLoss, ...]


class LossAmountChance(Value, frozen=True, kw_only=True):
    """A side's total loss in the round and its chance."""

    amount: int
    p: Probability
    exact: Exact


class ScoresAfter(Value, frozen=True, kw_only=True):
    """Both scores after the round and their chance."""

    players: int
    opposition: int
    p: Probability
    exact: Exact


class RoundDecision(Value, frozen=True, kw_only=True):
    """Whether this round decides the conflict (§4.3), and for whom."""

    players: Chance
    opposition: Chance
    goes_on: Chance


class RoundForecast(Value, frozen=True, kw_only=True):
    """The round in progress as a whole: the pairings share the GM's one yield, so their
    losses are summed with it held fixed, then mixed over its distribution."""

    number: int
    players_loss: tuple[LossAmountChance, ...]
    opposition_loss: tuple[LossAmountChance, ...]
    ends: Annotated[
        RoundDecision | None,
        Meta(description="Null when the round's joint losses are beyond the cost bound."),
    ]
    scores_after: Annotated[
        tuple[ScoresAfter, ...] | None,
        Meta(
            description="The joint distribution of both scores after the round; null when "
            "it has more entries than the bound (`outcomes` says how many) or is beyond "
            "the cost bound."
        ),
    ]
    outcomes: Annotated[
        int | None,
        Meta(description="How many (players, opposition) pairs the round can leave."),
    ]


class ExactOutlook(Value, frozen=True, kw_only=True, tag_field="method", tag="exact"):
    """Who wins the conflict, solved exactly (a Markov chain over both scores)."""

    players: Chance
    opposition: Chance
    undecided: Annotated[
        Chance,
        Meta(
            description="That it is never decided: nobody can lose any more, or every "
            "sudden-death round ties."
        ),
    ]
    expected_rounds: Annotated[
        float | None,
        Meta(
            description="Rounds still to play, the current one included, on average "
            "(null: it may go on for ever)."
        ),
    ]
    states: Annotated[int, Meta(description="Score pairs the chain was solved over.")]


class SimulationReason(StrEnum):
    """Why the whole conflict was simulated rather than solved."""

    ROUND_TOO_LARGE = "round-too-large"
    TOO_MANY_STATES = "too-many-states"
    FRACTION_TOO_LONG = "fraction-too-long"


class SimulatedOutlook(Value, frozen=True, kw_only=True, tag_field="method", tag="simulation"):
    """Who wins the conflict, from seeded simulated conflicts: the same state always gives
    the same answer."""

    players: SimulatedChance
    opposition: SimulatedChance
    unfinished: Annotated[
        int, Meta(description="Runs still undecided at `round_cap` rounds (counted in neither).")
    ]
    expected_rounds: Annotated[
        float, Meta(description="Rounds the runs took on average, the current one included.")
    ]
    round_cap: int
    seed: Annotated[int, Meta(ge=0, le=2**53 - 1)]
    reason: SimulationReason
    detail: str


class ConflictForecast(Value, frozen=True, kw_only=True):
    """The conflict's odds as the reader may know them."""

    conflict: str
    version: int
    status: ConflictStatus
    round: int
    scores: Scores
    participants: tuple[ParticipantForecast, ...]
    pairings: tuple[PairingForecast, ...]
    this_round: RoundForecast | None
    winner: ExactOutlook | SimulatedOutlook


def simulation_seed(conflict_id: str, version: int) -> int:
    """The simulation's seed: from the conflict and its version, so a state's answer never
    changes, under 2^53 so every client reads it whole."""
    digest = hashlib.sha256(f"{conflict_id}:{version}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 11


class _RoundOdds:
    """One round's pieces, each worked out when first asked for: each pairing's losses
    given the GM's yield, the losses' marginals, and the joint losses when enumerating them
    is within the bound (else None)."""

    def __init__(self, gm: Checker, players: tuple[Checker, ...], bounds: Bounds) -> None:
        self.gm, self.players = gm, players
        self.tables = round_tables(gm, players)
        self._bounds = bounds

    @cached_property
    def joint(self) -> Losses | None:
        """(players' loss, opposition's loss) → weight over the tables' denominator."""
        if joint_cost(self.tables) > self._bounds.joint_terms:
            return None
        return joint_losses(self.tables)

    @cached_property
    def marginals(self) -> tuple[Pmf, Pmf]:
        """The players' loss and the opposition's, each summed over the pairings."""
        return loss_marginals(self.tables)

    def sampler(self) -> DiceSampler:
        """The round drawn like the dice."""
        return DiceSampler(self.gm.yield_, self.gm.side, [(p.yield_, p.side) for p in self.players])


class ForecastRequest(Value, frozen=True, kw_only=True):
    """What a forecast is made from: the conflict as stored, its version, and whose rolls
    the reader has seen (``viewer``: its role; the same answer for every reader who has
    seen none may use ``""``)."""

    conflict: Conflict
    version: int
    viewer: str


def forecast_request(conflict: Conflict, *, version: int, viewer: str) -> ForecastRequest:
    """The forecast ``viewer`` reads: its role matters only through the rolls it has seen,
    so a reader who has seen none is asked as nobody (``""``) and every such reader gets
    the same answer (and shares the odds gate's cache)."""
    seen_any = any(sees(conflict, viewer, participant) for participant in conflict.pending)
    return ForecastRequest(conflict=conflict, version=version, viewer=viewer if seen_any else "")


def forecast_of(request: ForecastRequest) -> ConflictForecast:
    """:func:`forecast` of one value (what the odds gate computes, in line or in its pool)."""
    return forecast(request.conflict, version=request.version, viewer=request.viewer)


def forecast(
    conflict: Conflict, *, version: int, viewer: str, bounds: Bounds = BOUNDS
) -> ConflictForecast:
    """The forecast of ``conflict`` at ``version`` for the reader whose role is ``viewer``
    (``gm`` or a player id). A decided conflict answers its settled winner."""
    if conflict.status is not ConflictStatus.ACTIVE:
        return _settled(conflict, version)
    gm, players = checkers(conflict, viewer)
    current = _RoundOdds(gm, players, bounds)
    if any(c.basis is YieldBasis.SUBMITTED for c in (gm, *players)):
        fresh = _RoundOdds(*checkers(conflict, None), bounds)
    else:
        fresh = current  # nothing known: every round alike, this one included
    return ConflictForecast(
        conflict=conflict.id,
        version=version,
        status=conflict.status,
        round=conflict.round,
        scores=conflict.scores,
        participants=tuple(_participant(conflict, c) for c in (gm, *players)),
        pairings=tuple(_pairing(p, gm) for p in players),
        this_round=_round(conflict, current, bounds),
        winner=_winner(conflict, version, current, fresh, bounds),
    )


def _settled(conflict: Conflict, version: int) -> ConflictForecast:
    players = Fraction(conflict.winner is Side.PLAYERS)
    opposition = Fraction(conflict.winner is Side.OPPOSITION)
    return ConflictForecast(
        conflict=conflict.id,
        version=version,
        status=conflict.status,
        round=conflict.round,
        scores=conflict.scores,
        participants=(),
        pairings=(),
        this_round=None,
        winner=ExactOutlook(
            players=chance(players),
            opposition=chance(opposition),
            undecided=chance(1 - players - opposition),
            expected_rounds=0.0,
            states=0,
        ),
    )


def _participant(conflict: Conflict, checker: Checker) -> ParticipantForecast:
    return ParticipantForecast(
        participant=checker.participant,
        basis=checker.basis,
        total_modifier=checker.total_modifier,
        modifiers=checker.modifiers,
        yield_=checker.known,
        may_spend_bullseye=checker.participant in conflict.deciding,
    )


_LOSER = {
    Loser.ACTOR: PairingLoser.PLAYERS,
    Loser.OPPOSITION: PairingLoser.OPPOSITION,
    Loser.NONE: PairingLoser.NONE,
}
_LOSER_ORDER = {PairingLoser.PLAYERS: 0, PairingLoser.OPPOSITION: 1, PairingLoser.NONE: 2}


def _pairing(player: Checker, gm: Checker) -> PairingForecast:
    """§4.3: exactly the odds of the player's check against the GM's yield as a target."""
    weights = pairing_losses(player, gm.yield_, gm.side)
    denominator = player.yield_.denominator * gm.yield_.denominator
    by_loser = dict.fromkeys(Loser, 0)
    for (loser, _), weight in weights.items():
        by_loser[loser] += weight
    losses = sorted(
        ((_LOSER[loser], amount, weight) for (loser, amount), weight in weights.items()),
        key=lambda item: (_LOSER_ORDER[item[0]], item[1]),
    )
    return PairingForecast(
        player=player.participant,
        player_wins=chance(Fraction(by_loser[Loser.OPPOSITION], denominator)),
        gm_wins=chance(Fraction(by_loser[Loser.ACTOR], denominator)),
        stalemate=chance(Fraction(by_loser[Loser.NONE], denominator)),
        losses=tuple(
            PairingLoss(loser=loser, amount=amount, p=p, exact=exact)
            for loser, amount, weight in losses
            for p, exact in [fraction_of(Fraction(weight, denominator))]
        ),
    )


def _amounts(pmf: Pmf) -> tuple[LossAmountChance, ...]:
    return tuple(
        LossAmountChance(amount=value, p=p, exact=exact)
        for value, probability in pmf.items()
        for p, exact in [fraction_of(probability)]
    )


def _round(conflict: Conflict, odds: _RoundOdds, bounds: Bounds) -> RoundForecast:
    ends: RoundDecision | None = None
    listed: tuple[ScoresAfter, ...] | None = None
    joint = odds.joint
    if joint is not None:
        players, opposition = conflict.scores.players, conflict.scores.opposition
        denominator = odds.tables.denominator
        by_kind = [0, 0, 0, 0]
        for (a, b), weight in joint.items():
            by_kind[after_round(players - a, opposition - b)] += weight
        ends = RoundDecision(
            players=chance(Fraction(by_kind[PLAYERS], denominator)),
            opposition=chance(Fraction(by_kind[OPPOSITION], denominator)),
            goes_on=chance(Fraction(by_kind[GOES_ON] + by_kind[SUDDEN_DEATH], denominator)),
        )
        if len(joint) <= bounds.scores_listed:
            listed = tuple(
                ScoresAfter(
                    players=players - a,
                    opposition=opposition - b,
                    p=p,
                    exact=exact,
                )
                for a, b in sorted(joint)
                for p, exact in [fraction_of(Fraction(joint[(a, b)], denominator))]
            )
    players_loss, opposition_loss = odds.marginals
    return RoundForecast(
        number=conflict.round,
        players_loss=_amounts(players_loss),
        opposition_loss=_amounts(opposition_loss),
        ends=ends,
        scores_after=listed,
        outcomes=None if joint is None else len(joint),
    )


def _winner(
    conflict: Conflict, version: int, current: _RoundOdds, fresh: _RoundOdds, bounds: Bounds
) -> ExactOutlook | SimulatedOutlook:
    """Exact when both rounds' joint losses, the chain's states and the fraction's length
    are all within their bounds; else simulated, saying which bound was passed."""
    scores = (conflict.scores.players, conflict.scores.opposition)

    def simulated(reason: SimulationReason, detail: str) -> SimulatedOutlook:
        return _simulated(conflict, version, current, fresh, bounds, reason, detail)

    if current.joint is None or fresh.joint is None:
        return simulated(
            SimulationReason.ROUND_TOO_LARGE,
            f"a round's joint losses take more than {bounds.joint_terms} additions to list",
        )
    cost = states_cost(fresh.joint, *scores)
    if cost > bounds.chain_terms:
        return simulated(
            SimulationReason.TOO_MANY_STATES,
            f"solving the chain takes up to {cost} terms, over the bound {bounds.chain_terms}",
        )
    digits = digits_bound(fresh.joint, fresh.tables.denominator, current.tables.denominator, scores)
    if digits > bounds.digits:
        return simulated(
            SimulationReason.FRACTION_TOO_LONG,
            f"the exact chances could run to {digits} digits, over the {bounds.digits} an "
            "exact fraction may carry",
        )
    ending = solve(
        fresh.joint, fresh.tables.denominator, current.joint, current.tables.denominator, scores
    )
    return ExactOutlook(
        players=chance(ending.players),
        opposition=chance(ending.opposition),
        undecided=chance(ending.undecided),
        expected_rounds=None
        if ending.expected_rounds is None
        else round(ending.expected_rounds, 6),
        states=ending.states,
    )


def _rounds_estimate(fresh: _RoundOdds, scores: tuple[int, int]) -> float:
    """About how many rounds a conflict takes from ``scores``: the fewer of each score
    over its side's mean loss a round."""
    players, opposition = scores
    if players <= 0 or opposition <= 0:
        return 2.0
    players_loss, opposition_loss = fresh.marginals
    times = [
        score / float(mean(loss))
        for score, loss in ((players, players_loss), (opposition, opposition_loss))
        if mean(loss) > 0
    ]
    return 1.0 + min(times, default=0.0)


def _simulated(
    conflict: Conflict,
    version: int,
    current: _RoundOdds,
    fresh: _RoundOdds,
    bounds: Bounds,
    reason: SimulationReason,
    detail: str,
) -> SimulatedOutlook:
    """Seeded runs of the chain, as many as the draw budget allows for the rounds a run
    is expected to take (at least ``min_runs``); each run stops at a round cap."""
    scores = (conflict.scores.players, conflict.scores.opposition)
    first, later = current.sampler(), fresh.sampler()
    estimate = _rounds_estimate(fresh, scores)
    per_run = first.draws + later.draws * max(estimate - 1.0, 0.0)
    runs = max(bounds.min_runs, min(bounds.max_runs, int(bounds.simulation_draws / per_run)))
    round_cap = max(bounds.min_round_cap, math.ceil(bounds.round_cap_factor * estimate))
    seed = simulation_seed(conflict.id, version)
    tally = simulate(first, later, scores, runs=runs, round_cap=round_cap, rng=Random(seed))  # noqa: S311 - reproducible by design
    return SimulatedOutlook(
        players=_estimate(tally.players, runs),
        opposition=_estimate(tally.opposition, runs),
        unfinished=tally.unfinished,
        expected_rounds=round(tally.rounds / runs, 6),
        round_cap=round_cap,
        seed=seed,
        reason=reason,
        detail=f"Simulated: {detail}.",
    )


def _estimate(successes: int, runs: int) -> SimulatedChance:
    low, high = wilson(successes, runs)
    return SimulatedChance(
        p=round(successes / runs, 12), low=round(low, 12), high=round(high, 12), runs=runs
    )
