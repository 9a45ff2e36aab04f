"""§4.3 in odds: the round in progress, pairing by pairing and as a whole.

Each participant's yield is a distribution (:mod:`..yield_odds`): the conflict's dice plus
the total modifier of **every** quality declared for it (§6.3's caps applied, as a check
naming them all would have them) and the impairment of its depletable scores (§3.2.3,
the greatest under §7.6) — no situational modifier, no Quick 10, no bullseye. A check
already submitted this round is its yield as it stands, a point, for a reader who may see
that roll; to anyone else it stays hidden and is forecast like one not yet made.

A pairing is a check of the player's against the GM's yield as its target (§4.3), so its
spread and who it depletes by how much are :func:`..yield_odds.spread_pmf` and
:func:`..yield_odds.loss_weights`, as for any check. The pairings of one round are not
independent — they share the GM's one yield — so the round's losses are summed with that
yield held fixed, then mixed over its distribution.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from service.kernel.exact import Pmf, combine, point
from service.kernel.sessions import GM
from service.rulesets.bullseye.rules.checks import DepletableScore, modifier_lines
from service.rulesets.bullseye.rules.conflicts.model import Conflict
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser
from service.rulesets.bullseye.rules.modifiers import ModifierLine
from service.rulesets.bullseye.rules.yield_odds import (
    LossWeights,
    die_result_pmf,
    loss_weights,
    spread_pmf,
    yield_pmf,
)

__all__ = [
    "Checker",
    "Losses",
    "RoundTables",
    "YieldBasis",
    "checkers",
    "joint_cost",
    "joint_losses",
    "loss_marginals",
    "pairing_losses",
    "round_tables",
    "sees",
]

# (players' loss, opposition's loss) → weight
Losses = dict[tuple[int, int], int]


class YieldBasis(StrEnum):
    """What a participant's yield in the forecast rests on."""

    DECLARED = "declared"  # not checked yet: every declared quality, its impairment, the dice
    SUBMITTED = "submitted"  # checked this round, the roll seen by the reader: a known yield
    HIDDEN = "hidden"  # checked, but the roll is not the reader's to see: as DECLARED


@dataclass(frozen=True, slots=True)
class Checker:
    """One participant's yield as the forecast takes it, and its side in a pairing."""

    participant: str
    basis: YieldBasis
    yield_: Pmf
    modifiers: tuple[ModifierLine, ...]
    total_modifier: int
    known: int | None  # the submitted yield, when the reader may see it
    side: DepletionSide


def sees(conflict: Conflict, viewer: str, participant: str) -> bool:
    """Whether ``viewer`` has seen ``participant``'s pending roll: a roll is shown only to
    whoever submitted it — the player itself, or the GM for its own check and those it
    made for absent players (``on_behalf``)."""
    if participant not in conflict.pending:
        return False
    by_gm = participant == GM or participant in conflict.on_behalf
    return viewer == GM if by_gm else viewer == participant


def _side(conflict: Conflict, participant: str) -> DepletionSide:
    if participant == GM:
        spec = conflict.opposition
        return DepletionSide(threat=spec.threat, depletion_modifier=spec.depletion_modifier)
    player = next(p for p in conflict.players if p.id == participant)
    return DepletionSide(threat=player.threat, depletion_modifier=player.depletion_modifier)


def _declared_checker(conflict: Conflict, participant: str, basis: YieldBasis) -> Checker:
    """Every declared quality and the impairment, lenient (§6.3's third of a type is simply
    not applied, as in a lenient check)."""
    qualities = conflict.opposition.qualities
    depletables: tuple[DepletableScore, ...] = ()
    if participant != GM:
        player = next(p for p in conflict.players if p.id == participant)
        qualities, depletables = player.qualities, player.depletables
    lines, _ = modifier_lines(qualities, (), depletables, strict=False)
    total = sum(line.applied for line in lines)
    return Checker(
        participant=participant,
        basis=basis,
        yield_=yield_pmf(die_result_pmf(conflict.dice), total),
        modifiers=lines,
        total_modifier=total,
        known=None,
        side=_side(conflict, participant),
    )


def checkers(conflict: Conflict, viewer: str | None) -> tuple[Checker, tuple[Checker, ...]]:
    """The GM's checker and each player's, in the conflict's order, as ``viewer`` may know
    them (``None``: a fresh round, nothing submitted)."""

    def one(participant: str) -> Checker:
        if viewer is None or participant not in conflict.pending:
            return _declared_checker(conflict, participant, YieldBasis.DECLARED)
        if not sees(conflict, viewer, participant):
            return _declared_checker(conflict, participant, YieldBasis.HIDDEN)
        effort = conflict.pending[participant]
        return Checker(
            participant=participant,
            basis=YieldBasis.SUBMITTED,
            yield_=point(effort.yield_),
            modifiers=effort.modifiers,
            total_modifier=effort.total_modifier,
            known=effort.yield_,
            side=_side(conflict, participant),
        )

    return one(GM), tuple(one(player.id) for player in conflict.players)


def pairing_losses(player: Checker, gm_yield: Pmf, gm_side: DepletionSide) -> LossWeights:
    """§4.3, one pairing: the player's check against the GM's yield as its target, settled
    as any check (§2.4.2): who loses how much, weights over the product of the two yields'
    denominators. ``gm_yield`` is the GM's whole distribution, or one of its values."""
    return loss_weights(spread_pmf(player.yield_, gm_yield), player.side, gm_side)


def _as_losses(weights: LossWeights) -> Losses:
    """A pairing's loser and amount as (players' loss, opposition's loss); a stalemate
    costs nobody (amount 0)."""
    losses: Losses = {}
    for (loser, amount), weight in weights.items():
        key = (amount, 0) if loser is Loser.ACTOR else (0, amount)
        losses[key] = losses.get(key, 0) + weight
    return losses


@dataclass(frozen=True, slots=True)
class RoundTables:
    """For each GM yield ``g`` (with its weight over ``gm_denominator``), each pairing's
    losses given ``g``, weights over that player's yield denominator."""

    gm: tuple[tuple[int, int, tuple[Losses, ...]], ...]  # (g, weight, per player)
    gm_denominator: int
    player_denominators: tuple[int, ...]

    @property
    def denominator(self) -> int:
        """The denominator of the round's joint losses."""
        total = self.gm_denominator
        for denominator in self.player_denominators:
            total *= denominator
        return total


def round_tables(gm: Checker, players: Iterable[Checker]) -> RoundTables:
    """Every pairing's losses with the GM's yield held at each of its values."""
    players = tuple(players)
    rows = []
    for index, weight in enumerate(gm.yield_.weights):
        if weight:
            g = gm.yield_.low + index
            held = point(g)
            per_player = tuple(_as_losses(pairing_losses(p, held, gm.side)) for p in players)
            rows.append((g, weight, per_player))
    return RoundTables(
        gm=tuple(rows),
        gm_denominator=gm.yield_.denominator,
        player_denominators=tuple(p.yield_.denominator for p in players),
    )


def loss_marginals(tables: RoundTables) -> tuple[Pmf, Pmf]:
    """The distributions of the players' and of the opposition's loss in the round: each a
    sum of the pairings' losses with the GM's yield fixed, mixed over that yield."""
    players_parts: list[tuple[Fraction, Pmf]] = []
    opposition_parts: list[tuple[Fraction, Pmf]] = []
    denominator = tables.denominator // tables.gm_denominator
    for _, weight, per_player in tables.gm:
        share = Fraction(weight, tables.gm_denominator)
        for side, parts in ((0, players_parts), (1, opposition_parts)):
            total = _sum_all([_one_side(losses, side) for losses in per_player])
            parts.append((share, Pmf(0, tuple(total), denominator)))
    return combine(players_parts), combine(opposition_parts)


def _one_side(losses: Losses, side: int) -> list[int]:
    """One side's loss in one pairing, weights by amount from 0."""
    weights = [0] * (max(key[side] for key in losses) + 1)
    for key, weight in losses.items():
        weights[key[side]] += weight
    return weights


def _sum_all(terms: list[list[int]]) -> list[int]:
    """The distribution of a sum of independent amounts (weights by amount from 0): one
    polynomial product, each factor packed into an integer once, a coefficient every
    ``bits`` wide enough for the product's largest (Kronecker substitution; the
    packing is done once, not at every partial product)."""
    bits = sum(sum(term).bit_length() for term in terms) + 1
    product = 1
    for term in terms:
        packed = 0
        for weight in reversed(term):
            packed = (packed << bits) | weight
        product *= packed
    size = sum(len(term) - 1 for term in terms) + 1
    mask = (1 << bits) - 1
    out = []
    for _ in range(size):
        out.append(product & mask)
        product >>= bits
    return out


def joint_cost(tables: RoundTables) -> int:
    """An upper bound on the additions :func:`joint_losses` makes: with the GM's yield
    fixed, each player's outcomes times the (players' loss, opposition's loss) pairs the
    players before it can have reached."""
    cost = 0
    for _, _, per_player in tables.gm:
        reached, top_a, top_b = 1, 0, 0
        for losses in per_player:
            cost += reached * len(losses)
            top_a += max(a for a, _ in losses)
            top_b += max(b for _, b in losses)
            reached = min(reached * len(losses), (top_a + 1) * (top_b + 1))
    return cost


def joint_losses(tables: RoundTables) -> Losses:
    """The round's (players' loss, opposition's loss), exact: with the GM's yield fixed the
    pairings are independent, so their losses add up pair by pair; then weighted by that
    yield's chance. Weights over :attr:`RoundTables.denominator`."""
    total: Losses = {}
    for _, weight, per_player in tables.gm:
        reached: Losses = {(0, 0): weight}
        for losses in per_player:
            reached = _add(reached, losses)
        for key, value in reached.items():
            total[key] = total.get(key, 0) + value
    return total


def _add(reached: Mapping[tuple[int, int], int], losses: Losses) -> Losses:
    out: Losses = {}
    items = tuple(losses.items())
    for (a, b), weight in reached.items():
        for (da, db), more in items:
            key = (a + da, b + db)
            out[key] = out.get(key, 0) + weight * more
    return out
