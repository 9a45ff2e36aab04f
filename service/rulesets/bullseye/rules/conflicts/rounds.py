"""§4.3: rounds — every participant's check, the pairings, the scores, the decision."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.kernel.sessions import GM, Applied
from service.rulesets.bullseye.rules.checks import (
    DepletableScore,
    Effort,
    modifier_lines,
    roll_effort,
)
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conflicts.events import (
    ConflictDecided,
    RoundResolved,
    SubmissionReceived,
)
from service.rulesets.bullseye.rules.conflicts.model import (
    Conflict,
    ConflictStatus,
    DiceSource,
    Pairing,
    PairingLoser,
    ParticipantCheck,
    PlayerSpec,
    ResolveRound,
    Round,
    Scores,
    Side,
    Submit,
)
from service.rulesets.bullseye.rules.conflicts.opening import player_fitness, refuse
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser, settle
from service.rulesets.bullseye.rules.dice import supplied_roll_concerns
from service.rulesets.bullseye.rules.limits import MAX_ROUNDS

__all__ = [
    "bullseyes_after",
    "check_concerns",
    "depletable_of",
    "player_of",
    "resolve_round",
    "submit",
    "submitted",
    "waiting_for",
]


def player_of(conflict: Conflict, player_id: str) -> PlayerSpec | None:
    return next((p for p in conflict.players if p.id == player_id), None)


def check_concerns(
    conflict: Conflict, participant: str, check: ParticipantCheck, pointer: str
) -> list[Concern]:
    """What the conflict's dice source, the participant's fitness and bullseyes forbid."""
    concerns: list[Concern] = []
    if conflict.dice_source is DiceSource.SERVER:
        if check.roll is not None:
            concerns.append(
                refuse(
                    RuleCode.FACES_NOT_ALLOWED,
                    f"{pointer}/roll",
                    "This conflict's dice are rolled by the server "
                    "(dice_source: server); faces cannot be supplied.",
                )
            )
        if check.seed is not None:
            concerns.append(
                refuse(
                    RuleCode.SEED_NOT_ALLOWED,
                    f"{pointer}/seed",
                    "This conflict's dice are rolled by the server "
                    "(dice_source: server); seeds cannot be chosen.",
                )
            )
    elif check.roll is not None:
        concerns.extend(
            supplied_roll_concerns(conflict.dice, check.roll.faces, check.seed, pointer)
        )
    player = player_of(conflict, participant)
    if player is None:
        if check.bullseye:
            concerns.append(
                refuse(
                    RuleCode.NO_BULLSEYE_LEFT,
                    f"{pointer}/bullseye",
                    "Bullseyes belong to players (§7.2), not the GM.",
                )
            )
        return concerns
    concerns.extend(player_fitness(player, pointer))
    if check.bullseye and conflict.bullseyes_used.get(participant, 0) >= player.bullseyes:
        concerns.append(
            refuse(
                RuleCode.NO_BULLSEYE_LEFT,
                f"{pointer}/bullseye",
                f"{player.name} has no bullseye left (§7.2).",
            )
        )
    return concerns


def depletable_of(conflict: Conflict, participant: str) -> tuple[DepletableScore, ...]:
    player = player_of(conflict, participant)
    return (player.depletable,) if player and player.depletable else ()


def _effort(
    conflict: Conflict,
    participant: str,
    check: ParticipantCheck,
    rng: RandomSource,
    pointer: str,
) -> Effort:
    """Roll one participant's check under the conflict's dice rules."""
    if concerns := check_concerns(conflict, participant, check, pointer):
        raise RulesError.from_concerns(concerns)
    lines, warnings = modifier_lines(
        check.qualities,
        check.situational,
        depletable_of(conflict, participant),
        strict=check.strict,
    )
    return roll_effort(
        lines,
        dice=conflict.dice,
        rng=rng,
        supplied=check.roll,
        seed=check.seed,
        bullseye=check.bullseye,
        warnings=tuple(warnings),
    )


def bullseyes_after(conflict: Conflict, checks: dict[str, ParticipantCheck]) -> dict[str, int]:
    used = dict(conflict.bullseyes_used)
    for participant, check in checks.items():
        if check.bullseye and participant != GM:
            used[participant] = used.get(participant, 0) + 1
    return used


def _require_active(conflict: Conflict) -> None:
    if conflict.status is not ConflictStatus.ACTIVE:
        raise RulesError(
            RuleCode.CONFLICT_NOT_ACTIVE,
            f"The conflict is {conflict.status}; it takes no more rounds.",
        )
    if conflict.round > MAX_ROUNDS:
        raise RulesError(
            RuleCode.ROUND_LIMIT_REACHED,
            f"The conflict has been through {MAX_ROUNDS} rounds, the service's limit; "
            "settle it at the table and delete it.",
        )


# In a pairing the player acts and the GM's side opposes.
_PAIRING_LOSER = {
    Loser.ACTOR: PairingLoser.PLAYERS,
    Loser.OPPOSITION: PairingLoser.OPPOSITION,
    Loser.NONE: PairingLoser.NONE,
}


def _side(threat: int, depletion_modifier: int) -> DepletionSide:
    return DepletionSide(threat=threat, depletion_modifier=depletion_modifier)


def _resolve(conflict: Conflict, gm: Effort, efforts: dict[str, Effort]) -> tuple[Conflict, Round]:
    """§4.3: every pairing against the scores from before the round, applied at once."""
    before = conflict.scores
    lost = dict.fromkeys(PairingLoser, 0)
    pairings = []
    gm_side = _side(conflict.opposition.threat, conflict.opposition.depletion_modifier)
    for player in conflict.players:
        effort = efforts[player.id]
        # The player's check against the GM's yield as its target (§4.3): the spread is
        # signed as any check's, and depletion is settled by the same rule (§2.4.2).
        spread = effort.yield_ - gm.yield_
        loser, amount = settle(spread, _side(player.threat, player.depletion_modifier), gm_side)
        lost[_PAIRING_LOSER[loser]] += amount
        pairings.append(
            Pairing(
                player=player.id,
                gm_yield=gm.yield_,
                player_yield=effort.yield_,
                spread=spread,
                loser=_PAIRING_LOSER[loser],
                amount=amount,
            )
        )
    after = Scores(
        players=before.players - lost[PairingLoser.PLAYERS],
        opposition=before.opposition - lost[PairingLoser.OPPOSITION],
    )
    winner: Side | None = None
    if min(after.players, after.opposition) <= 0 and after.players != after.opposition:
        winner = Side.PLAYERS if after.players > after.opposition else Side.OPPOSITION
    # Both at or below zero and equal: no winner yet; play on (sudden death, decision).
    round_ = Round(
        number=conflict.round,
        gm=gm,
        players=efforts,
        pairings=tuple(pairings),
        scores_before=before,
        scores_after=after,
        decided=winner is not None,
        winner=winner,
    )
    next_conflict = msgspec.structs.replace(
        conflict,
        round=conflict.round + (0 if winner else 1),
        scores=after,
        pending={},
        status=ConflictStatus.DECIDED if winner else ConflictStatus.ACTIVE,
        winner=winner,
    )
    return next_conflict, round_


def _round_events(round_: Round) -> tuple[Event, ...]:
    resolved = RoundResolved(round=round_.number, scores=round_.scores_after)
    if round_.winner is None:
        return (resolved,)
    return (resolved, ConflictDecided(winner=round_.winner))


def resolve_round(conflict: Conflict, action: ResolveRound, rng: RandomSource) -> Applied[Conflict]:
    """§4.3: the GM resolves the whole current round at once, every player checking."""
    _require_active(conflict)
    if conflict.pending:
        raise RulesError(
            RuleCode.ROUND_IN_PROGRESS,
            f"Round {conflict.round} already has submissions "
            f"({', '.join(sorted(conflict.pending))}); finish it one check at a "
            "time.",
        )
    expected = {p.id for p in conflict.players}
    concerns = [
        refuse(RuleCode.UNKNOWN_PLAYER, f"/players/{pid}", f"No player '{pid}' in this conflict.")
        for pid in action.players
        if pid not in expected
    ] + [
        refuse(
            RuleCode.PLAYER_CHECK_MISSING,
            "/players",
            f"Player '{pid}' has no check; every player checks each round (§4.3).",
        )
        for pid in sorted(expected - set(action.players))
    ]
    if concerns:
        raise RulesError.from_concerns(concerns)
    refused = check_concerns(conflict, GM, action.gm, "/gm")
    for player in conflict.players:
        pointer = f"/players/{player.id}"
        refused += check_concerns(conflict, player.id, action.players[player.id], pointer)
    if refused:  # every refused check at once, and nothing rolled
        raise RulesError.from_concerns(refused)
    gm = _effort(conflict, GM, action.gm, rng, "/gm")
    efforts = {
        p.id: _effort(conflict, p.id, action.players[p.id], rng, f"/players/{p.id}")
        for p in conflict.players
    }
    checks = {GM: action.gm, **action.players}
    conflict = msgspec.structs.replace(conflict, bullseyes_used=bullseyes_after(conflict, checks))
    conflict, round_ = _resolve(conflict, gm, efforts)
    return Applied(conflict, _round_events(round_), (round_,))


def submit(conflict: Conflict, action: Submit, rng: RandomSource) -> Applied[Conflict]:
    """One participant's check; the last one in resolves the round (§4.3)."""
    _require_active(conflict)
    if action.number != conflict.round:
        raise RulesError(
            RuleCode.WRONG_ROUND, f"The conflict is at round {conflict.round}, not {action.number}."
        )
    if action.participant != GM and player_of(conflict, action.participant) is None:
        raise RulesError(
            RuleCode.UNKNOWN_PLAYER,
            f"No player '{action.participant}' in this conflict.",
            (
                refuse(
                    RuleCode.UNKNOWN_PLAYER,
                    "/participant",
                    f"No player '{action.participant}' in this conflict.",
                ),
            ),
        )
    if action.participant in conflict.pending:
        raise RulesError(
            RuleCode.ALREADY_SUBMITTED,
            f"'{action.participant}' has already checked in round {conflict.round}.",
        )
    effort = _effort(conflict, action.participant, action.check, rng, "")
    pending = {**conflict.pending, action.participant: effort}
    conflict = msgspec.structs.replace(
        conflict,
        pending=pending,
        bullseyes_used=bullseyes_after(conflict, {action.participant: action.check}),
    )
    received = SubmissionReceived(round=conflict.round, participant=action.participant)
    if waiting_for(conflict):
        return Applied(conflict, (received,))
    efforts = {p.id: pending[p.id] for p in conflict.players}
    conflict, round_ = _resolve(conflict, pending[GM], efforts)
    return Applied(conflict, (received, *_round_events(round_)), (round_,))


def waiting_for(conflict: Conflict) -> tuple[str, ...]:
    """Who has yet to check in the current round (none once the conflict is decided)."""
    if conflict.status is not ConflictStatus.ACTIVE:
        return ()
    return tuple(p for p in (GM, *(p.id for p in conflict.players)) if p not in conflict.pending)


def submitted(conflict: Conflict) -> tuple[str, ...]:
    """Who has checked in the current round so far (their dice stay hidden until it ends)."""
    return tuple(p for p in (GM, *(p.id for p in conflict.players)) if p in conflict.pending)
