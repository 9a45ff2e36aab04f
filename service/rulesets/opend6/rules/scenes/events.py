"""What happens in a scene, as its event stream and its round log tell it."""

from __future__ import annotations

import msgspec

from service.kernel.events import Event, event_names
from service.kernel.fairness import ClientSeedAdded, RevealedSeed
from service.kernel.values import Value
from service.rulesets.opend6.rules.opposed import OpposedResult
from service.rulesets.opend6.rules.rolls import RollOutcome, RollResult
from service.rulesets.opend6.rules.scenes.moves import SceneMoveType

__all__ = [
    "SCENE_EVENTS",
    "ActionsDeclared",
    "InitiativeRolled",
    "InterruptStarted",
    "OrderSet",
    "ParticipantAble",
    "ParticipantWaited",
    "RollMade",
    "RollResolved",
    "RoundStarted",
    "SceneClosed",
    "SceneEnded",
    "SceneEvent",
    "SceneLogEntry",
    "ScenePointsSpent",
    "TurnEnded",
    "TurnStarted",
]


class InitiativeRolled(Event, frozen=True, kw_only=True, tag="initiative.rolled"):
    round: int
    participant: str
    total: int


class OrderSet(Event, frozen=True, kw_only=True, tag="order.set"):
    round: int
    order: tuple[str, ...]


class TurnStarted(Event, frozen=True, kw_only=True, tag="turn.started"):
    round: int
    participant: str


class ActionsDeclared(Event, frozen=True, kw_only=True, tag="actions.declared"):
    round: int
    participant: str
    actions: int
    penalty_dice: int


class RollMade(Event, frozen=True, kw_only=True, tag="roll.made"):
    """A roll is in; its dice are in the scene's `pending` (the GM resolves it)."""

    round: int
    participant: str
    roll: str
    by: str


class ScenePointsSpent(Event, frozen=True, kw_only=True, tag="points.spent"):
    """Character Points after a roll (`roll`), or a climactic Fate Point (`climactic`)."""

    round: int
    participant: str
    roll: str | None = None
    character_points: int = 0
    fate_points: int = 0
    climactic: bool = False


class RollResolved(Event, frozen=True, kw_only=True, tag="roll.resolved"):
    round: int
    participant: str
    roll: str
    total: int | None
    outcome: RollOutcome | None


class InterruptStarted(Event, frozen=True, kw_only=True, tag="interrupt.started"):
    """A waiter acts on another's pending roll, or the GM moved a participant up (D18)."""

    round: int
    participant: str
    moved_up: bool = False


class ParticipantAble(Event, frozen=True, kw_only=True, tag="participant.able"):
    round: int
    participant: str
    able: bool


class ParticipantWaited(Event, frozen=True, kw_only=True, tag="participant.waited"):
    round: int
    participant: str


class TurnEnded(Event, frozen=True, kw_only=True, tag="turn.ended"):
    round: int
    participant: str


class RoundStarted(Event, frozen=True, kw_only=True, tag="round.started"):
    round: int


class SceneEnded(Event, frozen=True, kw_only=True, tag="scene.ended"):
    round: int
    server_seed: RevealedSeed = msgspec.UNSET


class SceneClosed(Event, frozen=True, kw_only=True, tag="scene.closed"):
    """The GM deleted the scene; the stream's last event."""

    server_seed: RevealedSeed = msgspec.UNSET


SceneEvent = (
    ClientSeedAdded  # a participant's seed, added before the first roll (kernel.fairness)
    | InitiativeRolled
    | OrderSet
    | TurnStarted
    | ActionsDeclared
    | RollMade
    | ScenePointsSpent
    | RollResolved
    | InterruptStarted
    | ParticipantAble
    | ParticipantWaited
    | TurnEnded
    | RoundStarted
    | SceneEnded
    | SceneClosed
)
SCENE_EVENTS = (*event_names(SceneEvent), "scene.expired")


class SceneLogEntry(Value, frozen=True, kw_only=True):
    """One move in the scene's log (``GET …/rounds/{n}``): who made it, for whom, a
    resolved roll's full result (`opposed`: both sides, when one roll opposed another), and
    an initiative move's rolls (`initiative`, in the move's order, faces and all: with the
    server's fair dice they are one roll number's draws, re-derivable from its seed)."""

    round: int
    move: SceneMoveType
    by: str
    participant: str | None = None
    roll_id: str | None = None
    result: RollResult | None = None
    opposed: OpposedResult | None = None
    # Absent but on initiative moves: entries stored before it encode as they did.
    initiative: tuple[RollResult, ...] | msgspec.UnsetType = msgspec.UNSET
