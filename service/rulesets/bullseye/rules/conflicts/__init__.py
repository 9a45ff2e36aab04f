"""Expanded conflicts (§4): scores, simultaneous rounds, decision and the final outcome check.

A conflict is a value. ``apply(conflict, action, rng)`` returns the next value, the events
it caused and the round it resolved (if any); storing them is the session engine's
business, so the rules never see Redis.
"""

from __future__ import annotations

from service.kernel.dice import RandomSource
from service.kernel.sessions import GM, Applied
from service.rulesets.bullseye.rules.conflicts.events import (
    CONFLICT_EVENTS,
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
    Conflict,
    ConflictStatus,
    DiceSource,
    OppositionSpec,
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
    "Conflict",
    "ConflictClosed",
    "ConflictDecided",
    "ConflictEvent",
    "ConflictStatus",
    "DiceSource",
    "OppositionSpec",
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
    "new_conflict",
    "opening_scores",
    "submitted",
    "waiting_for",
]


def apply(
    conflict: Conflict, action: Action, rng: RandomSource, check_id: str = ""
) -> Applied[Conflict]:
    """The conflict after ``action``, the events it caused and the round it resolved.

    Raises:
        RulesError: the action is against the rules or the conflict's state.
    """
    match action:
        case ResolveRound():
            return resolve_round(conflict, action, rng)
        case Submit():
            return submit(conflict, action, rng)
        case OutcomeRequest():
            return make_outcome(conflict, action, rng, check_id)
