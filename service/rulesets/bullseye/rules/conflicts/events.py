"""What happens to a conflict, as its event stream tells it: one union, one list of names."""

from __future__ import annotations

import msgspec

from service.kernel.events import Event, event_names
from service.kernel.fairness import ClientSeedAdded, RevealedSeed
from service.rulesets.bullseye.rules.conflicts.model import Scores, Side
from service.rulesets.bullseye.rules.narration import Outcome

__all__ = [
    "CONFLICT_EVENTS",
    "BullseyeDecided",
    "ConflictClosed",
    "ConflictDecided",
    "ConflictEvent",
    "OutcomeMade",
    "RoundResolved",
    "SubmissionReceived",
]


class SubmissionReceived(Event, frozen=True, kw_only=True, tag="submission.received"):
    """A participant's check for the round is in (its dice stay hidden until the round).
    ``by`` is who sent it: the participant, or ``gm`` for an absent player."""

    round: int
    participant: str
    by: str | None = None  # None in events stored before the GM could submit for others


class BullseyeDecided(Event, frozen=True, kw_only=True, tag="bullseye.decided"):
    """§7.2: a participant who saw its roll spent a bullseye on it, or passed (``by`` the GM
    when it decided for the player or closed the round)."""

    round: int
    participant: str
    spent: bool
    by: str


class RoundResolved(Event, frozen=True, kw_only=True, tag="round.resolved"):
    """§4.3: a round's pairings were applied; the scores after it."""

    round: int
    scores: Scores


class ConflictDecided(Event, frozen=True, kw_only=True, tag="conflict.decided"):
    """§4.3: one side's score fell to 0 or below, the other's stayed higher."""

    winner: Side


class OutcomeMade(Event, frozen=True, kw_only=True, tag="outcome.made"):
    """§4.4: the winning side made its final check."""

    by: str
    outcome: Outcome
    server_seed: RevealedSeed = msgspec.UNSET


class ConflictClosed(Event, frozen=True, kw_only=True, tag="conflict.closed"):
    """The GM ended the conflict; the stream's last event."""

    server_seed: RevealedSeed = msgspec.UNSET


ConflictEvent = (
    ClientSeedAdded  # a participant's seed, added before the first roll (kernel.fairness)
    | SubmissionReceived
    | BullseyeDecided
    | RoundResolved
    | ConflictDecided
    | OutcomeMade
    | ConflictClosed
)

# The stream also ends with ``conflict.expired`` when the conflict's time runs out (the
# session engine says so; no rule causes it).
CONFLICT_EVENTS = (*event_names(ConflictEvent), "conflict.expired")
