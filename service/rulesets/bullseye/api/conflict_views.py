"""What clients send to and see of a conflict; the conflict as a session kind."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.bounds import Name, Timestamp
from service.kernel.fairness import AwaitClientSeeds, ClientSeedsAtCreation, FairnessView
from service.kernel.receipts import ReceiptsAsked
from service.kernel.summary import Summary
from service.kernel.values import Value, as_view
from service.rulesets.bullseye.rules.checks import Effort
from service.rulesets.bullseye.rules.conflicts import (
    MAX_PLAYERS,
    Conflict,
    ConflictStatus,
    DiceSource,
    OppositionSpec,
    OutcomeCheck,
    ParticipantCheck,
    PlayerSpec,
    Round,
    Scores,
    Side,
    bullseyes_left,
    deciding,
    finished,
    submitted,
    waiting_for,
)
from service.rulesets.bullseye.rules.dice import DiceKind
from service.rulesets.bullseye.rules.summary import outcome_summary, round_summary
from service.sessions.host import SessionSpec
from service.sessions.keys import SessionKind
from service.sessions.params import SessionTtl
from service.sessions.receipts import ReceiptsWanted, SessionReceipt

__all__ = [
    "CONFLICTS",
    "BullseyeDecision",
    "ConflictCreated",
    "ConflictTokens",
    "ConflictView",
    "CreateConflict",
    "OppositionView",
    "PlayerView",
    "RoundAnswer",
    "SubmissionAccepted",
    "SubmitCheck",
    "round_answer",
    "view_of",
]

CONFLICTS = SessionSpec(
    kind=SessionKind("bullseye", "conflict"),
    state_type=Conflict,
    history_type=Round,
    token_header="x-conflict-token",  # noqa: S106 - a header name, not a secret
    ended=finished,
)


class CreateConflict(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A new expanded conflict (§4)."""

    name: Name
    players: Annotated[tuple[PlayerSpec, ...], Meta(min_length=1, max_length=MAX_PLAYERS)]
    opposition: OppositionSpec
    depletable_at_issue: Name | None = None
    dice: DiceKind = DiceKind.D20
    dice_source: DiceSource = DiceSource.SERVER
    ttl_seconds: SessionTtl | None = None
    client_seeds: ClientSeedsAtCreation = None
    await_client_seeds: AwaitClientSeeds = False
    receipts: ReceiptsWanted = False


class PlayerView(PlayerSpec, frozen=True, kw_only=True):
    """A PC as the conflict's creation gave it (its score at issue updated by the §4.4
    outcome check): its declared qualities, depletion modifier, threat and bullseyes."""


class OppositionView(OppositionSpec, frozen=True, kw_only=True):
    """The opposition as the conflict's creation gave it."""


class ConflictView(Value, frozen=True, kw_only=True):
    """A conflict as its participants see it: other participants' pending rolls stay hidden."""

    id: str
    name: str
    status: ConflictStatus
    round: int
    scores: Scores
    players: tuple[PlayerView, ...]
    opposition: OppositionView
    dice: DiceKind
    dice_source: DiceSource
    depletable_at_issue: str | None
    rounds: tuple[Round, ...]
    winner: Side | None
    outcome: OutcomeCheck | None
    submitted: tuple[str, ...]
    waiting_for: tuple[str, ...]
    deciding: Annotated[
        tuple[str, ...],
        Meta(
            description="Who has checked this round holding a bullseye and may still spend "
            "it on the roll it saw, or pass (§7.2); the round resolves once this and "
            "`waiting_for` are empty."
        ),
    ]
    bullseyes_left: dict[str, int]
    fairness: Annotated[
        FairnessView | None,
        Meta(
            description="With server dice: the committed seed's `commitment`, the client "
            "seeds and `rolls`; `server_seed` once the outcome check is made (or in "
            "`conflict.closed`). Null with the table's dice."
        ),
    ]
    receipts: ReceiptsAsked
    expires_at: Timestamp
    version: int


class ConflictTokens(Value, frozen=True, kw_only=True):
    """Bearer tokens: shown once, at creation, and stored only as hashes."""

    gm: str
    players: dict[str, str]


class ConflictCreated(ConflictView, frozen=True, kw_only=True):
    """The new conflict and its tokens."""

    tokens: ConflictTokens


class SubmissionAccepted(Value, frozen=True, kw_only=True, tag_field="kind", tag="submission"):
    """A check (or bullseye decision) that waits for the rest of its round (``kind:
    submission``; one that completes the round answers the resolved round, ``kind: round``).

    ``check`` is the participant's own roll, shown only to whoever sent it. With
    ``may_spend_bullseye`` the participant holds a bullseye and may spend it on this roll,
    or pass (§7.2), until the round resolves: ``POST …/rounds/{number}/bullseyes``.
    """

    round: int
    participant: str
    check: Effort
    may_spend_bullseye: bool
    waiting_for: tuple[str, ...]
    deciding: tuple[str, ...]
    summary: Summary
    receipt: SessionReceipt = None


class RoundAnswer(Round, frozen=True, kw_only=True, tag="round"):
    """A resolved round as an action answers it: with its one-line summary and the
    action's receipt, which the conflict's stored rounds never keep."""

    summary: Summary
    receipt: SessionReceipt = None


def round_answer(resolved: Value) -> RoundAnswer:
    """``resolved`` (a conflict's history entry) as an action answers it (its ``receipt``
    the engine's to sign)."""
    assert isinstance(resolved, Round)
    return RoundAnswer(**msgspec.structs.asdict(resolved), summary=round_summary(resolved))


class SubmitCheck(ParticipantCheck, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One participant's check for a round: ``participant`` is ``gm`` or a player id."""

    participant: Annotated[str, Meta(min_length=1, max_length=40)]


class BullseyeDecision(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """§7.2: having seen its roll, ``participant`` spends a bullseye on it (its die result
    becomes 20) or passes (``spend: false``)."""

    participant: Annotated[str, Meta(min_length=1, max_length=40)]
    spend: bool


def _with_summary(outcome: OutcomeCheck | None) -> OutcomeCheck | None:
    """An outcome check stored before summaries existed, given its line (§4.4)."""
    if outcome is None or outcome.summary:
        return outcome
    return msgspec.structs.replace(outcome, summary=outcome_summary(outcome))


def view_of(
    conflict: Conflict, *, version: int, expires_at: float, rounds: tuple[Round, ...]
) -> ConflictView:
    """What a client may see of ``conflict`` (``rounds``: its history, as stored)."""
    return ConflictView(
        id=conflict.id,
        name=conflict.name,
        status=conflict.status,
        round=conflict.round,
        scores=conflict.scores,
        players=tuple(as_view(player, PlayerView) for player in conflict.players),
        opposition=as_view(conflict.opposition, OppositionView),
        dice=conflict.dice,
        dice_source=conflict.dice_source,
        depletable_at_issue=conflict.depletable_at_issue,
        rounds=(*conflict.legacy_rounds, *rounds),
        winner=conflict.winner,
        outcome=_with_summary(conflict.outcome),
        submitted=submitted(conflict),
        waiting_for=waiting_for(conflict),
        deciding=deciding(conflict),
        bullseyes_left={p.id: bullseyes_left(conflict, p.id) for p in conflict.players},
        fairness=None if conflict.fairness is None else conflict.fairness.view(),
        receipts=conflict.receipts,
        expires_at=datetime.fromtimestamp(expires_at, UTC),
        version=version,
    )
