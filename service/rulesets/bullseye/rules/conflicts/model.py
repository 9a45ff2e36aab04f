"""An expanded conflict (§4) as a value: who takes part, the scores, the round in play."""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.bounds import Name, Seed
from service.kernel.fairness import Fairness
from service.kernel.receipts import SessionReceipt
from service.kernel.values import Value
from service.rulesets.bullseye.rules.checks import (
    CheckResult,
    DepletableAfter,
    DepletableScore,
    Effort,
    SuppliedRoll,
)
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.limits import (
    MAX_CHECK_QUALITIES,
    MAX_DEPLETABLES,
    MAX_SITUATIONAL,
    Protection,
    Target,
    Threat,
)
from service.rulesets.bullseye.rules.modifiers import Quality, Situational

__all__ = [
    "MAX_PLAYERS",
    "Action",
    "CloseRound",
    "Conflict",
    "ConflictStatus",
    "DecideBullseye",
    "DiceSource",
    "OppositionSpec",
    "OutcomeCheck",
    "OutcomeLoss",
    "OutcomeRequest",
    "Pairing",
    "PairingLoser",
    "ParticipantCheck",
    "PlayerSpec",
    "QualityRef",
    "ResolveRound",
    "Round",
    "Scores",
    "Side",
    "Submit",
]

MAX_PLAYERS = 12
PLAYER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")

PlayerId = Annotated[
    str,
    Meta(
        pattern=PLAYER_ID.pattern,
        description="A player's id: letters, digits, '_' or '-', 1–40 characters, not 'gm'.",
        examples=["ana"],
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


Depletables = Annotated[tuple[DepletableScore, ...], Meta(min_length=1, max_length=MAX_DEPLETABLES)]


class PlayerSpec(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A PC in the conflict: the qualities relevant to it make the players' score (§4.2).

    ``qualities`` are the PC's declared qualities: its checks in the conflict may use these
    and no others. ``depletable`` is its depletable score, or a list of two under §7.6 (the
    greatest impairment applies; the conflict's ``depletable_at_issue`` names the one at
    issue).
    """

    id: PlayerId
    name: Name
    qualities: Annotated[tuple[Quality, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    depletion_modifier: Protection = 0
    threat: Threat = 0
    bullseyes: Bullseyes = 0
    depletable: DepletableScore | Depletables | None = None

    @property
    def depletables(self) -> tuple[DepletableScore, ...]:
        """Its depletable scores, one or two (§7.6), or none."""
        if self.depletable is None:
            return ()
        if isinstance(self.depletable, DepletableScore):
            return (self.depletable,)
        return self.depletable


class OppositionSpec(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The opposition the GM runs; the GM's checks may use its declared ``qualities`` only."""

    name: Name
    qualities: Annotated[tuple[Quality, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    depletion_modifier: Protection = 0
    threat: Threat = 0


QualityRef = Annotated[
    Quality | Name,
    Meta(
        description="One of the checker's declared qualities: its name, or the declared "
        "object itself (name, type and magnitude as declared)."
    ),
]


class ParticipantCheck(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One participant's check in a conflict: a check without a target.

    ``qualities`` name qualities declared at creation (the player's PC's, or the
    opposition's for the GM); anything else is refused with ``undeclared-quality``.
    ``quick10`` takes 10 instead of rolling (§2.5), refused where the depletable quality is
    at issue (the outcome check of a conflict with one).
    """

    qualities: Annotated[tuple[QualityRef, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    situational: Annotated[tuple[Situational, ...], Meta(max_length=MAX_SITUATIONAL)] = ()
    roll: SuppliedRoll | None = None
    seed: Seed | None = None
    bullseye: bool = False
    quick10: bool = False
    strict: bool = False


class Scores(Value, frozen=True, kw_only=True):
    """Both sides' conflict scores."""

    players: int
    opposition: int


class Pairing(Value, frozen=True, kw_only=True):
    """The GM's yield against one player's, and what it cost the loser's side (§4.3).

    ``spread`` is signed as a check's (yield − target): the player's yield less the GM's,
    positive when the player is higher. The loser suffers ``|spread|`` plus the winner's
    threat plus its own depletion modifier, if positive (§2.4.2).
    """

    player: str
    gm_yield: int
    player_yield: int
    spread: Annotated[
        int, Meta(description="player_yield − gm_yield: positive when the player is higher.")
    ]
    loser: PairingLoser
    amount: int


class Round(Value, frozen=True, kw_only=True, tag_field="kind", tag="round"):
    """A resolved round. Its ``kind`` tells it from a waiting submission's answer; rounds
    stored without one still decode."""

    number: int
    gm: Effort
    players: dict[str, Effort]
    pairings: tuple[Pairing, ...]
    scores_before: Scores
    scores_after: Scores
    decided: bool
    winner: Side | None
    on_behalf: tuple[str, ...] = ()  # players whose check the GM submitted for them


class OutcomeLoss(Value, frozen=True, kw_only=True):
    """What the outcome check cost one side (§4.4): for the players, one PC at a time."""

    side: Side
    player: str | None
    amount: int


class OutcomeCheck(CheckResult, frozen=True, kw_only=True):
    """§4.4: the winning side's final check, who made it, and what it cost whom.

    With a depletable quality at issue, ``losses`` lists each loss and ``players_after``
    every PC's score at issue afterwards; ``depletion`` is the maker's own check's (null
    when the GM makes it: each PC's loss differs, so it is in ``losses``).
    """

    # The action's receipt (service.sessions), never stored: the state keeps null.
    receipt: SessionReceipt = None
    by: str = ""
    losses: tuple[OutcomeLoss, ...] = ()
    players_after: dict[str, DepletableAfter] = {}


class Conflict(Value, frozen=True, kw_only=True, omit_defaults=True):
    """An expanded conflict: everything needed to continue it.

    Its resolved rounds are its history, kept apart (the state a round rewrites stays the
    same size at round 100 as at round 1); version and TTL belong to the store's envelope.
    New fields always get defaults, so conflicts stored by an older release still decode;
    ``legacy_rounds`` holds the rounds such a conflict kept in its state.
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
    winner: Side | None = None
    outcome: OutcomeCheck | None = None
    pending: dict[str, Effort] = {}
    # Submitted this round holding an unspent bullseye: may still spend it (§7.2).
    deciding: tuple[str, ...] = ()
    on_behalf: tuple[str, ...] = ()  # pending checks the GM submitted for their players
    bullseyes_used: dict[str, int] = {}
    legacy_rounds: tuple[Round, ...] = msgspec.field(default=(), name="rounds")
    # Server dice committed to at creation (docs/verifiable-rolls.md); null for table dice.
    fairness: Fairness | None = None
    # Answers of actions that roll server dice carry a signed receipt (service.sessions).
    receipts: bool = False


class ResolveRound(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The GM resolves the whole current round at once."""

    gm: ParticipantCheck
    players: dict[str, ParticipantCheck]


class Submit(Value, frozen=True, kw_only=True):
    """One participant's check for round ``number`` (the GM may submit a player's)."""

    number: int
    participant: str
    check: ParticipantCheck


class DecideBullseye(Value, frozen=True, kw_only=True):
    """§7.2: having seen its roll, a participant spends a bullseye on it or passes."""

    number: int
    participant: str
    spend: bool


class CloseRound(Value, frozen=True, kw_only=True):
    """The GM ends the wait for bullseye decisions: whoever has not decided passes."""

    number: int


class OutcomeRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """§4.4: the winning side's final check against ``target``.

    ``checks`` holds the check each candidate would make: ``gm`` when the opposition won;
    one or more player ids when the players won (the highest total modifier makes it).
    """

    target: Target
    checks: Annotated[dict[str, ParticipantCheck], Meta(min_length=1, max_length=MAX_PLAYERS)]


Action = ResolveRound | Submit | DecideBullseye | CloseRound | OutcomeRequest
