"""§4.3: rounds — every participant's check, the pairings, the scores, the decision; §7.2
bullseyes spent after seeing the roll."""

from __future__ import annotations

import msgspec

from service.kernel.dice import RandomSource
from service.kernel.errors import Concern, RulesError
from service.kernel.events import Event
from service.kernel.sessions import GM, Applied, require_gm, require_gm_or_self
from service.rulesets.bullseye.rules.checks import (
    DepletableScore,
    Effort,
    modifier_lines,
    roll_effort,
    spend_bullseye,
)
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conflicts.declared import named_qualities
from service.rulesets.bullseye.rules.conflicts.events import (
    BullseyeDecided,
    ConflictDecided,
    RoundResolved,
    SubmissionReceived,
)
from service.rulesets.bullseye.rules.conflicts.model import (
    CloseRound,
    Conflict,
    ConflictStatus,
    DecideBullseye,
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
from service.rulesets.bullseye.rules.depletion import Loser, settle
from service.rulesets.bullseye.rules.dice import FACES, supplied_roll_concerns
from service.rulesets.bullseye.rules.limits import MAX_ROUNDS
from service.rulesets.bullseye.rules.modifiers import Quality

__all__ = [
    "bullseyes_after",
    "bullseyes_left",
    "close_round",
    "decide_bullseye",
    "deciding",
    "examine",
    "player_of",
    "resolve_round",
    "submit",
    "submitted",
    "waiting_for",
]


def player_of(conflict: Conflict, player_id: str) -> PlayerSpec | None:
    for player in conflict.players:  # a loop: no generator per lookup (a view asks per PC)
        if player.id == player_id:
            return player
    return None


def bullseyes_left(conflict: Conflict, participant: str) -> int:
    """Bullseyes a player still holds (§7.2); the GM holds none."""
    player = player_of(conflict, participant)
    return player.bullseyes - conflict.bullseyes_used.get(participant, 0) if player else 0


def _quick10_concerns(check: ParticipantCheck, pointer: str) -> list[Concern]:
    """§2.5 in a conflict: a Quick 10 rolls nothing, so neither faces nor a bullseye."""
    if not check.quick10:
        return []
    concerns = []
    if check.roll is not None:
        concerns.append(
            refuse(
                RuleCode.QUICK10_WITH_ROLL,
                f"{pointer}/roll",
                "A Quick 10 replaces the roll (§2.5); do not also supply faces.",
            )
        )
    if check.bullseye:
        concerns.append(
            refuse(
                RuleCode.QUICK10_WITH_BULLSEYE,
                f"{pointer}/bullseye",
                "A bullseye replaces a rolled result (§7.2); a Quick 10 rolls nothing.",
            )
        )
    return concerns


def examine(
    conflict: Conflict,
    participant: str,
    player: PlayerSpec | None,
    check: ParticipantCheck,
    pointer: str,
) -> tuple[tuple[Quality, ...], list[Concern]]:
    """What the conflict's dice source, the declared qualities, the participant's fitness
    and bullseyes forbid, and the declared qualities the check names. ``player`` is the
    checker already found (None for the GM): a round examines each check once."""
    concerns: list[Concern] = []
    roll = check.roll
    if conflict.dice_source is _SERVER:
        if roll is not None:
            concerns.append(
                FACES.faces_not_allowed(
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
    elif roll is not None:
        concerns.extend(supplied_roll_concerns(conflict.dice, roll.faces, check.seed, pointer))
    if check.quick10:
        concerns.extend(_quick10_concerns(check, pointer))
    if player is None:
        who, declared = conflict.opposition.name, conflict.opposition.qualities
    else:
        who, declared = player.name, player.qualities
    qualities, undeclared = named_qualities(who, declared, check.qualities, pointer)
    if undeclared:
        concerns += undeclared
    if player is None:
        if check.bullseye:
            concerns.append(
                refuse(
                    RuleCode.NO_BULLSEYE_LEFT,
                    f"{pointer}/bullseye",
                    "Bullseyes belong to players (§7.2), not the GM.",
                )
            )
        return qualities, concerns
    if player.depletable is not None:
        concerns.extend(player_fitness(player, pointer))
    if check.bullseye and player.bullseyes - conflict.bullseyes_used.get(participant, 0) <= 0:
        concerns.append(
            refuse(
                RuleCode.NO_BULLSEYE_LEFT,
                f"{pointer}/bullseye",
                f"{player.name} has no bullseye left (§7.2).",
            )
        )
    return qualities, concerns


def _effort(
    conflict: Conflict,
    participant: str,
    player: PlayerSpec | None,
    check: ParticipantCheck,
    rng: RandomSource,
) -> Effort:
    """Roll one participant's check (``player``, or None for the GM) under the conflict's
    dice rules."""
    qualities, concerns = examine(conflict, participant, player, check, "")
    if concerns:
        raise RulesError.from_concerns(concerns)
    return _roll(conflict, check, qualities, player.depletables if player else (), rng)


def _roll(
    conflict: Conflict,
    check: ParticipantCheck,
    qualities: tuple[Quality, ...],
    depletables: tuple[DepletableScore, ...],
    rng: RandomSource,
) -> Effort:
    """Roll a check that :func:`examine` has found nothing against, with the declared
    qualities it found."""
    lines, warnings = modifier_lines(qualities, check.situational, depletables, strict=check.strict)
    return roll_effort(
        lines,
        dice=conflict.dice,
        rng=rng,
        supplied=check.roll,
        seed=check.seed,
        quick10=check.quick10,
        bullseye=check.bullseye,
        warnings=tuple(warnings),
    )


def bullseyes_after(conflict: Conflict, checks: dict[str, ParticipantCheck]) -> dict[str, int]:
    used = dict(conflict.bullseyes_used)
    for participant, check in checks.items():
        if check.bullseye and participant != GM:
            used[participant] = used.get(participant, 0) + 1
    return used


def _require_round(conflict: Conflict, number: int) -> None:
    """The conflict takes rounds and ``number`` is the one in play."""
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
    if number != conflict.round:
        raise RulesError(
            RuleCode.WRONG_ROUND, f"The conflict is at round {conflict.round}, not {number}."
        )


# In a pairing the player acts and the GM's side opposes.
_PAIRING_LOSER = {
    Loser.ACTOR: PairingLoser.PLAYERS,
    Loser.OPPOSITION: PairingLoser.OPPOSITION,
    Loser.NONE: PairingLoser.NONE,
}
# Bound once: a round reads them for every check and pairing.
_SERVER, _ACTIVE, _DECIDED = DiceSource.SERVER, ConflictStatus.ACTIVE, ConflictStatus.DECIDED
_PLAYERS_LOST = PairingLoser.PLAYERS


def _resolve(
    conflict: Conflict,
    gm: Effort,
    efforts: dict[str, Effort],
    bullseyes_used: dict[str, int] | None = None,
) -> tuple[Conflict, Round]:
    """§4.3: every pairing against the scores from before the round, applied at once.
    ``bullseyes_used``, when given, replaces the conflict's in the same step."""
    before = conflict.scores
    players_lost = opposition_lost = 0
    pairings = []
    gm_side = conflict.opposition
    gm_yield = gm.yield_
    for player in conflict.players:
        player_yield = efforts[player.id].yield_
        # The player's check against the GM's yield as its target (§4.3): the spread is
        # signed as any check's, and depletion is settled by the same rule (§2.4.2).
        spread = player_yield - gm_yield
        loser, amount = settle(spread, player, gm_side)
        lost = _PAIRING_LOSER[loser]
        if lost is _PLAYERS_LOST:
            players_lost += amount
        else:  # the opposition's, or a stalemate's 0
            opposition_lost += amount
        pairings.append(
            Pairing(
                player=player.id,
                gm_yield=gm_yield,
                player_yield=player_yield,
                spread=spread,
                loser=lost,
                amount=amount,
            )
        )
    after = Scores(
        players=before.players - players_lost, opposition=before.opposition - opposition_lost
    )
    winner: Side | None = None
    if (after.players <= 0 or after.opposition <= 0) and after.players != after.opposition:
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
        on_behalf=conflict.on_behalf,
    )
    next_conflict = msgspec.structs.replace(
        conflict,
        round=conflict.round + (0 if winner else 1),
        scores=after,
        pending={},
        deciding=(),
        on_behalf=(),
        status=_DECIDED if winner else _ACTIVE,
        winner=winner,
        bullseyes_used=conflict.bullseyes_used if bullseyes_used is None else bullseyes_used,
    )
    return next_conflict, round_


def _round_events(round_: Round) -> tuple[Event, ...]:
    resolved = RoundResolved(round=round_.number, scores=round_.scores_after)
    if round_.winner is None:
        return (resolved,)
    return (resolved, ConflictDecided(winner=round_.winner))


def _roster_concerns(conflict: Conflict, action: ResolveRound) -> list[Concern]:
    """Every player checks, and nobody else (§4.3)."""
    checks = action.players
    if len(checks) == len(conflict.players):  # ids are unique: then one each, or a stranger
        for player in conflict.players:
            if player.id not in checks:
                break
        else:
            return []
    expected = {p.id for p in conflict.players}
    return [
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


def resolve_round(
    conflict: Conflict, action: ResolveRound, actor: str, rng: RandomSource
) -> Applied[Conflict]:
    """§4.3: the GM resolves the whole current round at once, every player checking (the
    GM has every roll in hand, so bullseyes are declared with the checks).

    Each check is examined once (its declared qualities found, its checker's fitness and
    bullseyes read), every refusal reported together, and only then is anything rolled."""
    require_gm(actor, "resolve a whole round")
    _require_round(conflict, conflict.round)
    if conflict.pending:
        raise RulesError(
            RuleCode.ROUND_IN_PROGRESS,
            f"Round {conflict.round} already has submissions "
            f"({', '.join(sorted(conflict.pending))}); finish it one check at a "
            "time.",
        )
    if concerns := _roster_concerns(conflict, action):
        raise RulesError.from_concerns(concerns)
    checks = action.players
    gm_qualities, refused = examine(conflict, GM, None, action.gm, "/gm")
    examined = []
    for player in conflict.players:
        check = checks[player.id]
        qualities, concerns = examine(conflict, player.id, player, check, f"/players/{player.id}")
        if concerns:
            refused += concerns
        examined.append((player, check, qualities))
    if refused:  # every refused check at once, and nothing rolled
        raise RulesError.from_concerns(refused)
    gm = _roll(conflict, action.gm, gm_qualities, (), rng)
    efforts = {}
    for player, check, qualities in examined:  # in the players' order, as the dice fall
        efforts[player.id] = _roll(conflict, check, qualities, player.depletables, rng)
    conflict, round_ = _resolve(conflict, gm, efforts, bullseyes_after(conflict, checks))
    return Applied(conflict, _round_events(round_), (round_,))


def _may_spend_later(
    conflict: Conflict, player: PlayerSpec | None, check: ParticipantCheck
) -> bool:
    """§7.2 with server dice: a holder sees its roll first, then spends or passes."""
    return (
        player is not None
        and conflict.dice_source is _SERVER
        and not check.bullseye
        and not check.quick10
        and player.bullseyes - conflict.bullseyes_used.get(player.id, 0) > 0
    )


def _resolve_if_complete(conflict: Conflict, events: tuple[Event, ...]) -> Applied[Conflict]:
    """Resolve the round once every check is in and every bullseye decided."""
    if waiting_for(conflict) or conflict.deciding:
        return Applied(conflict, events)
    efforts = {p.id: conflict.pending[p.id] for p in conflict.players}
    conflict, round_ = _resolve(conflict, conflict.pending[GM], efforts)
    return Applied(conflict, (*events, *_round_events(round_)), (round_,))


def submit(conflict: Conflict, action: Submit, actor: str, rng: RandomSource) -> Applied[Conflict]:
    """One participant's check (the GM may send a player's); the round resolves when every
    check is in and every bullseye holder has spent or passed (§4.3, §7.2)."""
    require_gm_or_self(actor, action.participant, "submit a check")
    _require_round(conflict, action.number)
    player = None if action.participant == GM else player_of(conflict, action.participant)
    if action.participant != GM and player is None:
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
    effort = _effort(conflict, action.participant, player, action.check, rng)
    may_spend = _may_spend_later(conflict, player, action.check)
    for_someone_else = actor != action.participant
    conflict = msgspec.structs.replace(
        conflict,
        pending={**conflict.pending, action.participant: effort},
        deciding=(*conflict.deciding, action.participant) if may_spend else conflict.deciding,
        on_behalf=(
            (*conflict.on_behalf, action.participant) if for_someone_else else conflict.on_behalf
        ),
        bullseyes_used=bullseyes_after(conflict, {action.participant: action.check}),
    )
    received = SubmissionReceived(round=conflict.round, participant=action.participant, by=actor)
    return _resolve_if_complete(conflict, (received,))


def decide_bullseye(conflict: Conflict, action: DecideBullseye, actor: str) -> Applied[Conflict]:
    """§7.2: spend a bullseye on a roll already seen (its die result becomes 20), or pass."""
    require_gm_or_self(actor, action.participant, "spend or pass a bullseye")
    _require_round(conflict, action.number)
    if action.participant not in conflict.deciding:
        raise RulesError(
            RuleCode.NOT_DECIDING,
            f"'{action.participant}' has no bullseye decision pending in round "
            f"{conflict.round}: it has not submitted, holds no bullseye, or has decided.",
        )
    pending = conflict.pending
    used = conflict.bullseyes_used
    if action.spend:
        pending = {**pending, action.participant: spend_bullseye(pending[action.participant])}
        used = {**used, action.participant: used.get(action.participant, 0) + 1}
    conflict = msgspec.structs.replace(
        conflict,
        pending=pending,
        bullseyes_used=used,
        deciding=tuple(p for p in conflict.deciding if p != action.participant),
    )
    decided = BullseyeDecided(
        round=conflict.round, participant=action.participant, spent=action.spend, by=actor
    )
    return _resolve_if_complete(conflict, (decided,))


def close_round(conflict: Conflict, action: CloseRound, actor: str) -> Applied[Conflict]:
    """The GM stops waiting for bullseye decisions: whoever has not decided passes."""
    require_gm(actor, "close a round")
    _require_round(conflict, action.number)
    if missing := waiting_for(conflict):
        raise RulesError(
            RuleCode.CHECKS_OUTSTANDING,
            f"Round {conflict.round} still waits for checks from {', '.join(missing)}; "
            "the GM may submit them for absent players.",
        )
    passed = tuple(
        BullseyeDecided(round=conflict.round, participant=p, spent=False, by=actor)
        for p in conflict.deciding
    )
    return _resolve_if_complete(msgspec.structs.replace(conflict, deciding=()), passed)


def waiting_for(conflict: Conflict) -> tuple[str, ...]:
    """Who has yet to check in the current round (none once the conflict is decided)."""
    if conflict.status is not ConflictStatus.ACTIVE:
        return ()
    pending = conflict.pending
    return tuple([p for p in (GM, *[p.id for p in conflict.players]) if p not in pending])


def deciding(conflict: Conflict) -> tuple[str, ...]:
    """Who has checked this round holding a bullseye and may still spend it (§7.2)."""
    return conflict.deciding if conflict.status is ConflictStatus.ACTIVE else ()


def submitted(conflict: Conflict) -> tuple[str, ...]:
    """Who has checked in the current round so far (their dice stay hidden until it ends)."""
    return tuple(p for p in (GM, *(p.id for p in conflict.players)) if p in conflict.pending)
