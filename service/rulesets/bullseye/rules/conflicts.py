"""Expanded conflicts (§4): scores, simultaneous rounds, decision and the final outcome check.

A conflict is a value. ``apply(conflict, action, rng, now)`` returns the next value and the
events it caused; storing them is the caller's business, so the rules never see Redis.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.bounds import Name, Seed
from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.bullseye.rules.checks import (
    CheckRequest,
    CheckResult,
    DepletableScore,
    DepletionAtIssue,
    DepletionSide,
    Effort,
    SuppliedRoll,
    modifier_lines,
    resolve_check,
    roll_effort,
)
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conditions import State, condition, score_concerns
from service.rulesets.bullseye.rules.depletion import depletion_amount
from service.rulesets.bullseye.rules.dice import DiceKind, face_concerns
from service.rulesets.bullseye.rules.limits import (
    MAX_CHECK_QUALITIES,
    MAX_ROUNDS,
    MAX_SITUATIONAL,
    Protection,
    Target,
    Threat,
)
from service.rulesets.bullseye.rules.modifiers import (
    ModifierLine,
    ModifierSource,
    QualityUse,
    Situational,
)

__all__ = [
    "GM",
    "MAX_PLAYERS",
    "Conflict",
    "ConflictStatus",
    "DiceSource",
    "Event",
    "OppositionSpec",
    "OutcomeRequest",
    "Pairing",
    "PairingLoser",
    "ParticipantCheck",
    "PlayerSpec",
    "ResolveRound",
    "Round",
    "Scores",
    "Side",
    "Submit",
    "apply",
    "new_conflict",
    "opening_scores",
]

GM = "gm"
MAX_PLAYERS = 12
PLAYER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")

PlayerId = Annotated[
    str,
    Meta(
        pattern=PLAYER_ID.pattern,
        description="A player's id: letters, digits, '_' or '-', 1–40 characters, not 'gm'.",
    ),
]
Bullseyes = Annotated[int, Meta(ge=0, le=100, description="Bullseyes the player holds (§7.2).")]
RoundNumber = Annotated[int, Meta(ge=1, le=100000)]


class ConflictStatus(StrEnum):
    """Where a conflict stands."""

    ACTIVE = "active"
    DECIDED = "decided"
    CLOSED = "closed"


class Side(StrEnum):
    """The two sides of an expanded conflict (§4.2)."""

    PLAYERS = "players"
    OPPOSITION = "opposition"


class PairingLoser(StrEnum):
    """Whose score a pairing cost (§4.3); a tie costs nobody."""

    PLAYERS = "players"
    OPPOSITION = "opposition"
    NONE = "none"


class DiceSource(StrEnum):
    """Who rolls: the server, or the participants at the table (faces supplied)."""

    SERVER = "server"
    CLIENT = "client"


class PlayerSpec(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A PC in the conflict: the qualities relevant to it make the players' score (§4.2)."""

    id: PlayerId
    name: Name
    qualities: Annotated[tuple[QualityUse, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    depletion_modifier: Protection = 0
    threat: Threat = 0
    bullseyes: Bullseyes = 0
    depletable: DepletableScore | None = None


class OppositionSpec(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The opposition the GM runs."""

    name: Name
    qualities: Annotated[tuple[QualityUse, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    depletion_modifier: Protection = 0
    threat: Threat = 0


class ParticipantCheck(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One participant's check in a conflict: a check without a target."""

    qualities: Annotated[tuple[QualityUse, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    situational: Annotated[tuple[Situational, ...], Meta(max_length=MAX_SITUATIONAL)] = ()
    roll: SuppliedRoll | None = None
    seed: Seed | None = None
    bullseye: bool = False
    strict: bool = False


class Scores(Value, frozen=True, kw_only=True):
    """Both sides' conflict scores."""

    players: int
    opposition: int


class Pairing(Value, frozen=True, kw_only=True):
    """The GM's yield against one player's, and what it cost the loser's side (§4.3)."""

    player: str
    gm_yield: int
    player_yield: int
    spread: int
    loser: PairingLoser
    amount: int


class Round(Value, frozen=True, kw_only=True):
    """A resolved round."""

    number: int
    gm: Effort
    players: dict[str, Effort]
    pairings: tuple[Pairing, ...]
    scores_before: Scores
    scores_after: Scores
    decided: bool
    winner: Side | None


class Conflict(Value, frozen=True, kw_only=True):
    """An expanded conflict: everything needed to continue it, and its history.

    New fields always get defaults, so conflicts stored by an older release still decode.
    """

    id: str
    name: str
    status: ConflictStatus
    round: int
    scores: Scores
    players: tuple[PlayerSpec, ...]
    opposition: OppositionSpec
    dice: DiceKind
    dice_source: DiceSource
    depletable_at_issue: str | None
    rounds: tuple[Round, ...] = ()
    winner: Side | None = None
    outcome: CheckResult | None = None
    pending: dict[str, Effort] = {}
    bullseyes_used: dict[str, int] = {}
    version: int = 1
    created_at: float = 0.0
    expires_at: float = 0.0
    ttl_seconds: int = 86400


class ResolveRound(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The GM resolves the whole current round at once."""

    gm: ParticipantCheck
    players: dict[str, ParticipantCheck]


class Submit(Value, frozen=True, kw_only=True):
    """One participant's check for round ``number``."""

    number: int
    participant: str
    check: ParticipantCheck


class OutcomeRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """§4.4: the winning side's final check against ``target``.

    ``checks`` holds the check each candidate would make: ``gm`` when the opposition won;
    one or more player ids when the players won (the highest total modifier makes it).
    """

    target: Target
    checks: Annotated[dict[str, ParticipantCheck], Meta(min_length=1, max_length=MAX_PLAYERS)]


class Event(Value, frozen=True, kw_only=True):
    """Something that happened to a conflict, for its event stream."""

    type: str
    data: dict[str, object]


Action = ResolveRound | Submit | OutcomeRequest


def opening_scores(players: tuple[PlayerSpec, ...]) -> Scores:
    """§4.2: players' score is the total magnitude of every PC's relevant qualities;
    the opposition's is that times the number of PCs."""
    total = sum(quality.magnitude for player in players for quality in player.qualities)
    return Scores(players=total, opposition=total * len(players))


def _refuse(code: RuleCode, pointer: str, detail: str) -> Concern:
    return Concern(code=code, pointer=pointer, detail=detail)


def _depletable_concerns(
    player: PlayerSpec, index: int, depletable_at_issue: str | None
) -> list[Concern]:
    """A PC's depletable score must be possible (§3.2.6), name the quality at issue if one
    is, and leave the PC fit to take part (§3.2.4, §3.2.5)."""
    score = player.depletable
    if score is None:
        return []
    pointer = f"/players/{index}/depletable"
    concerns = score_concerns(score.maximum, score.current, f"{pointer}/current")
    if depletable_at_issue is not None and score.name.casefold() != depletable_at_issue.casefold():
        concerns.append(
            _refuse(
                RuleCode.UNKNOWN_DEPLETABLE,
                f"{pointer}/name",
                f"The conflict puts '{depletable_at_issue}' at issue; {player.name}'s "
                f"score is for '{score.name}'.",
            )
        )
    return concerns or _fitness_concerns(player, f"{pointer}/current")


def _fitness_concerns(player: PlayerSpec, pointer: str) -> list[Concern]:
    """§3.2.4, §3.2.5: an incapacitated or retired PC takes no part."""
    if player.depletable is None:
        return []
    score = player.depletable
    state = condition(score.maximum, score.current).state
    if state is State.RETIRED:
        return [
            _refuse(
                RuleCode.CHARACTER_RETIRED,
                pointer,
                f"{player.name} is out of the game (§3.2.5) and cannot take part.",
            )
        ]
    if state is State.INCAPACITATED:
        return [
            _refuse(
                RuleCode.CHARACTER_INCAPACITATED,
                pointer,
                f"{player.name} is incapacitated (§3.2.4) and cannot take part.",
            )
        ]
    return []


def new_conflict(
    *,
    conflict_id: str,
    name: str,
    players: tuple[PlayerSpec, ...],
    opposition: OppositionSpec,
    dice: DiceKind,
    dice_source: DiceSource,
    depletable_at_issue: str | None,
    now: float,
    ttl_seconds: int,
) -> tuple[Conflict, list[Event]]:
    """A new conflict at round 1 with its §4.2 scores.

    Raises:
        RulesError: duplicate or reserved player ids, unfit PCs, or no score to play for.
    """
    concerns: list[Concern] = []
    seen: set[str] = set()
    for index, player in enumerate(players):
        if player.id.casefold() == GM or player.id.casefold() in seen:
            concerns.append(
                _refuse(
                    RuleCode.INVALID_PLAYER_ID,
                    f"/players/{index}/id",
                    f"Player ids must be unique and not '{GM}'; '{player.id}' is taken.",
                )
            )
        seen.add(player.id.casefold())
        concerns.extend(_depletable_concerns(player, index, depletable_at_issue))
    scores = opening_scores(players)
    if scores.players <= 0:
        concerns.append(
            _refuse(
                RuleCode.NO_CONFLICT_SCORE,
                "/players",
                f"The players' relevant qualities total {scores.players:+d}; a conflict needs a "
                "positive score to play for (§4.2).",
            )
        )
    if concerns:
        raise RulesError.from_concerns(concerns)
    conflict = Conflict(
        id=conflict_id,
        name=name,
        status=ConflictStatus.ACTIVE,
        round=1,
        scores=scores,
        players=players,
        opposition=opposition,
        dice=dice,
        dice_source=dice_source,
        depletable_at_issue=depletable_at_issue,
        created_at=now,
        expires_at=now + ttl_seconds,
        ttl_seconds=ttl_seconds,
    )
    # No event yet: a Redis stream costs ~4.7 KB, and an open conflict that nobody has
    # acted on should cost its state only (the stream starts with the first submission).
    return conflict, []


def _scores(scores: Scores) -> dict[str, object]:
    return {"players": scores.players, "opposition": scores.opposition}


def _player(conflict: Conflict, player_id: str) -> PlayerSpec | None:
    return next((p for p in conflict.players if p.id == player_id), None)


def _check_concerns(
    conflict: Conflict, participant: str, check: ParticipantCheck, pointer: str
) -> list[Concern]:
    """What the conflict's dice source, the participant's fitness and bullseyes forbid."""
    concerns: list[Concern] = []
    if conflict.dice_source is DiceSource.SERVER:
        if check.roll is not None:
            concerns.append(
                _refuse(
                    RuleCode.FACES_NOT_ALLOWED,
                    f"{pointer}/roll",
                    "This conflict's dice are rolled by the server "
                    "(dice_source: server); faces cannot be supplied.",
                )
            )
        if check.seed is not None:
            concerns.append(
                _refuse(
                    RuleCode.SEED_NOT_ALLOWED,
                    f"{pointer}/seed",
                    "This conflict's dice are rolled by the server "
                    "(dice_source: server); seeds cannot be chosen.",
                )
            )
    elif check.roll is not None:
        if check.seed is not None:
            concerns.append(
                _refuse(
                    RuleCode.ROLL_WITH_SEED,
                    f"{pointer}/seed",
                    "Supplied faces and a seed cannot be combined.",
                )
            )
        concerns.extend(face_concerns(conflict.dice, check.roll.faces, f"{pointer}/roll/faces"))
    player = _player(conflict, participant)
    if player is None:
        if check.bullseye:
            concerns.append(
                _refuse(
                    RuleCode.NO_BULLSEYE_LEFT,
                    f"{pointer}/bullseye",
                    "Bullseyes belong to players (§7.2), not the GM.",
                )
            )
        return concerns
    concerns.extend(_fitness_concerns(player, pointer))
    if check.bullseye and conflict.bullseyes_used.get(participant, 0) >= player.bullseyes:
        concerns.append(
            _refuse(
                RuleCode.NO_BULLSEYE_LEFT,
                f"{pointer}/bullseye",
                f"{player.name} has no bullseye left (§7.2).",
            )
        )
    return concerns


def _depletable_of(conflict: Conflict, participant: str) -> tuple[DepletableScore, ...]:
    player = _player(conflict, participant)
    return (player.depletable,) if player and player.depletable else ()


def _effort(
    conflict: Conflict,
    participant: str,
    check: ParticipantCheck,
    rng: RandomSource,
    pointer: str,
) -> Effort:
    """Roll one participant's check under the conflict's dice rules."""
    if concerns := _check_concerns(conflict, participant, check, pointer):
        raise RulesError.from_concerns(concerns)
    lines, warnings = modifier_lines(
        check.qualities,
        check.situational,
        _depletable_of(conflict, participant),
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


def _bullseyes_after(conflict: Conflict, checks: dict[str, ParticipantCheck]) -> dict[str, int]:
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


def _resolve(conflict: Conflict, gm: Effort, efforts: dict[str, Effort]) -> tuple[Conflict, Round]:
    """§4.3: every pairing against the scores from before the round, applied at once."""
    before = conflict.scores
    lost = dict.fromkeys(PairingLoser, 0)
    pairings = []
    for player in conflict.players:
        effort = efforts[player.id]
        spread = gm.yield_ - effort.yield_
        if spread > 0:
            loser = PairingLoser.PLAYERS
            amount = depletion_amount(spread, conflict.opposition.threat, player.depletion_modifier)
        elif spread < 0:
            loser = PairingLoser.OPPOSITION
            amount = depletion_amount(spread, player.threat, conflict.opposition.depletion_modifier)
        else:
            loser, amount = PairingLoser.NONE, 0
        lost[loser] += amount
        pairings.append(
            Pairing(
                player=player.id,
                gm_yield=gm.yield_,
                player_yield=effort.yield_,
                spread=abs(spread),
                loser=loser,
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
        rounds=(*conflict.rounds, round_),
        pending={},
        status=ConflictStatus.DECIDED if winner else ConflictStatus.ACTIVE,
        winner=winner,
    )
    return next_conflict, round_


def _round_events(round_: Round) -> list[Event]:
    events = [
        Event(
            type="round.resolved",
            data={"round": round_.number, "scores": _scores(round_.scores_after)},
        )
    ]
    if round_.winner is not None:
        events.append(Event(type="conflict.decided", data={"winner": round_.winner.value}))
    return events


def _resolve_round(
    conflict: Conflict, action: ResolveRound, rng: RandomSource
) -> tuple[Conflict, list[Event]]:
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
        _refuse(RuleCode.UNKNOWN_PLAYER, f"/players/{pid}", f"No player '{pid}' in this conflict.")
        for pid in action.players
        if pid not in expected
    ] + [
        _refuse(
            RuleCode.PLAYER_CHECK_MISSING,
            "/players",
            f"Player '{pid}' has no check; every player checks each round (§4.3).",
        )
        for pid in sorted(expected - set(action.players))
    ]
    if concerns:
        raise RulesError.from_concerns(concerns)
    refused = _check_concerns(conflict, GM, action.gm, "/gm")
    for player in conflict.players:
        pointer = f"/players/{player.id}"
        refused += _check_concerns(conflict, player.id, action.players[player.id], pointer)
    if refused:  # every refused check at once, and nothing rolled
        raise RulesError.from_concerns(refused)
    gm = _effort(conflict, GM, action.gm, rng, "/gm")
    efforts = {
        p.id: _effort(conflict, p.id, action.players[p.id], rng, f"/players/{p.id}")
        for p in conflict.players
    }
    checks = {GM: action.gm, **action.players}
    conflict = msgspec.structs.replace(conflict, bullseyes_used=_bullseyes_after(conflict, checks))
    conflict, round_ = _resolve(conflict, gm, efforts)
    return conflict, _round_events(round_)


def _submit(conflict: Conflict, action: Submit, rng: RandomSource) -> tuple[Conflict, list[Event]]:
    _require_active(conflict)
    if action.number != conflict.round:
        raise RulesError(
            RuleCode.WRONG_ROUND, f"The conflict is at round {conflict.round}, not {action.number}."
        )
    if action.participant != GM and _player(conflict, action.participant) is None:
        raise RulesError(
            RuleCode.UNKNOWN_PLAYER,
            f"No player '{action.participant}' in this conflict.",
            (
                _refuse(
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
        bullseyes_used=_bullseyes_after(conflict, {action.participant: action.check}),
    )
    events = [
        Event(
            type="submission.received",
            data={"round": conflict.round, "participant": action.participant},
        )
    ]
    if len(pending) < len(conflict.players) + 1:
        return conflict, events
    efforts = {p.id: pending[p.id] for p in conflict.players}
    conflict, round_ = _resolve(conflict, pending[GM], efforts)
    return conflict, events + _round_events(round_)


def _outcome(
    conflict: Conflict, action: OutcomeRequest, rng: RandomSource, check_id: str
) -> tuple[Conflict, list[Event]]:
    """§4.4: the winners' final check, their remaining score as a bonus."""
    if conflict.status is not ConflictStatus.DECIDED or conflict.winner is None:
        raise RulesError(
            RuleCode.CONFLICT_NOT_DECIDED,
            "The outcome check comes after the conflict is decided (§4.4).",
        )
    if conflict.outcome is not None:
        raise RulesError(RuleCode.OUTCOME_ALREADY_MADE, "The outcome check has been made.")
    winners = conflict.winner
    allowed = {GM} if winners is Side.OPPOSITION else {p.id for p in conflict.players}
    if strangers := [member for member in action.checks if member not in allowed]:
        who = "the GM ('gm')" if winners is Side.OPPOSITION else "the players"
        raise RulesError.from_concerns(
            [
                _refuse(
                    RuleCode.NOT_ON_WINNING_SIDE,
                    f"/checks/{member}",
                    f"The {winners.value} won; the final check is made by {who} (§4.4).",
                )
                for member in strangers
            ]
        )
    score = conflict.scores.players if winners is Side.PLAYERS else conflict.scores.opposition
    bonus = (
        ModifierLine(
            source=ModifierSource.CONFLICT_SCORE,
            name="remaining conflict score",
            type=None,
            magnitude=score,
            applied=score,
            note="§4.4: the winning side's remaining conflict score",
        ),
    )

    def request_for(member: str, check: ParticipantCheck) -> CheckRequest:
        player = _player(conflict, member)
        mine = (
            (player.threat, player.depletion_modifier)
            if player
            else (conflict.opposition.threat, conflict.opposition.depletion_modifier)
        )
        theirs = (
            (conflict.opposition.threat, conflict.opposition.depletion_modifier)
            if player
            else (0, 0)
        )
        at_issue = None
        if conflict.depletable_at_issue is not None:
            at_issue = DepletionAtIssue(
                actor=DepletionSide(threat=mine[0], depletion_modifier=mine[1]),
                opposition=DepletionSide(threat=theirs[0], depletion_modifier=theirs[1]),
            )
        return CheckRequest(
            target=action.target,
            qualities=check.qualities,
            situational=check.situational,
            depletable=_depletable_of(conflict, member),
            depletion=at_issue,
            dice=conflict.dice,
            roll=check.roll,
            seed=check.seed,
            bullseye=check.bullseye,
            strict=check.strict,
        )

    # The player with the highest total modifier makes it (§4.4); ties: the first listed.
    def total(member: str) -> int:
        check = action.checks[member]
        lines, _ = modifier_lines(
            check.qualities, check.situational, _depletable_of(conflict, member), strict=False
        )
        return sum(line.applied for line in lines)

    maker = max(action.checks, key=total)
    check = action.checks[maker]
    if concerns := _check_concerns(conflict, maker, check, f"/checks/{maker}"):
        raise RulesError.from_concerns(concerns)
    result = resolve_check(request_for(maker, check), rng, check_id, bonus=bonus)
    conflict = msgspec.structs.replace(
        conflict,
        outcome=result,
        bullseyes_used=_bullseyes_after(conflict, {maker: check}),
    )
    return conflict, [
        Event(type="outcome.made", data={"by": maker, "outcome": result.outcome.value})
    ]


def apply(
    conflict: Conflict, action: Action, rng: RandomSource, check_id: str = ""
) -> tuple[Conflict, list[Event]]:
    """The conflict after ``action``, and the events it caused.

    Raises:
        RulesError: the action is against the rules or the conflict's state.
    """
    match action:
        case ResolveRound():
            return _resolve_round(conflict, action, rng)
        case Submit():
            return _submit(conflict, action, rng)
        case OutcomeRequest():
            return _outcome(conflict, action, rng, check_id)
