"""Expanded conflicts (§4): scores, simultaneous rounds, decision and the final outcome check.

A conflict is a value. ``apply(conflict, action, actor, rng)`` returns the next value, the
events it caused and the round it resolved (if any), or refuses — including when the actor
(``gm`` or a player id) may not take the action; storing them is the session engine's
business, so the rules never see Redis.
"""

from __future__ import annotations

from service.kernel.dice import RandomSource
from service.kernel.sessions import GM, Applied, require_gm
from service.rulesets.bullseye.rules.conflicts.events import (
    CONFLICT_EVENTS,
    BullseyeDecided,
    ConflictClosed,
    ConflictDecided,
    ConflictEvent,
    OutcomeMade,
    RoundResolved,
    SubmissionReceived,
)
from service.rulesets.bullseye.rules.conflicts.model import (
    MAX_PLAYERS,
    Action,
    CloseRound,
    Conflict,
    ConflictStatus,
    DecideBullseye,
    DiceSource,
    OppositionSpec,
    OutcomeCheck,
    OutcomeLoss,
    OutcomeRequest,
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
from service.rulesets.bullseye.rules.conflicts.opening import new_conflict, opening_scores
from service.rulesets.bullseye.rules.conflicts.outcome import make_outcome
from service.rulesets.bullseye.rules.conflicts.rounds import (
    bullseyes_left,
    close_round,
    decide_bullseye,
    deciding,
    resolve_round,
    submit,
    submitted,
    waiting_for,
)

__all__ = [
    "CONFLICT_EVENTS",
    "GM",
    "MAX_PLAYERS",
    "Action",
    "Applied",
    "BullseyeDecided",
    "CloseRound",
    "Conflict",
    "ConflictClosed",
    "ConflictDecided",
    "ConflictEvent",
    "ConflictStatus",
    "DecideBullseye",
    "DiceSource",
    "OppositionSpec",
    "OutcomeCheck",
    "OutcomeLoss",
    "OutcomeMade",
    "OutcomeRequest",
    "Pairing",
    "PairingLoser",
    "ParticipantCheck",
    "PlayerSpec",
    "ResolveRound",
    "Round",
    "RoundResolved",
    "Scores",
    "Side",
    "SubmissionReceived",
    "Submit",
    "apply",
    "bullseyes_left",
    "deciding",
    "finished",
    "may_end",
    "new_conflict",
    "opening_scores",
    "submitted",
    "waiting_for",
]


def apply(
    conflict: Conflict, action: Action, actor: str, rng: RandomSource, check_id: str = ""
) -> Applied[Conflict]:
    """The conflict after ``actor`` (``gm`` or a player id) takes ``action``: the events it
    caused and the round it resolved.

    Raises:
        NotPermittedError: the actor's role may not take this action.
        RulesError: the action is against the rules or the conflict's state.
    """
    match action:
        case ResolveRound():
            return resolve_round(conflict, action, actor, rng)
        case Submit():
            return submit(conflict, action, actor, rng)
        case DecideBullseye():
            return decide_bullseye(conflict, action, actor)
        case CloseRound():
            return close_round(conflict, action, actor)
        case OutcomeRequest():
            return make_outcome(conflict, action, actor, rng, check_id)


def finished(conflict: Conflict) -> bool:
    """Whether the conflict can roll no more: its outcome check (§4.4) is its last roll.
    A decided conflict still has that check to make, so deciding it is not the end."""
    return conflict.outcome is not None


def may_end(actor: str) -> None:
    """Only the GM ends (deletes) a conflict.

    Raises:
        NotPermittedError: the actor is a player.
    """
    require_gm(actor, "end the conflict")
