"""What a game's event stream tells (the design's "Events"), each stamped with the
version it made, when, and by whom."""

from __future__ import annotations

import msgspec

from service.kernel.events import Event, event_names
from service.kernel.fairness import RevealedSeed
from service.rulesets.travelogue.rules.game.model import (
    Allocated,
    EndingReason,
    Focus,
    Kind,
    Moved,
    Resolution,
    Ring,
    Status,
)
from service.rulesets.travelogue.rules.pools import PoolOutcome
from service.rulesets.travelogue.rules.stats import Stat

__all__ = ["GAME_EVENTS", "GameClientSeedAdded", "GameEvent", "GameEventBase"]


class GameEventBase(Event, frozen=True, kw_only=True):
    version: int = 0
    at: str = ""
    actor: str = ""


class GameCreated(GameEventBase, frozen=True, kw_only=True, tag="game.created"):
    players: tuple[str, ...]
    middle: tuple[int, ...]


class FlagTaken(GameEventBase, frozen=True, kw_only=True, tag="flag.taken"):
    flag: int
    reacher: str


class FlagHanded(GameEventBase, frozen=True, kw_only=True, tag="flag.handed"):
    flag: int
    reacher: str
    holder: str
    on_behalf_of: str


class FlagReturned(GameEventBase, frozen=True, kw_only=True, tag="flag.returned"):
    flag: int
    by: str
    rejected: bool


class FlagPlaced(GameEventBase, frozen=True, kw_only=True, tag="flag.placed"):
    flag: int
    bullseye: str
    ring: Ring
    holder: str
    angel_of: str
    kind: Kind


class AngelRenamed(GameEventBase, frozen=True, kw_only=True, tag="angel.renamed"):
    bullseye: str
    name: str


class AttentionBegan(GameEventBase, frozen=True, kw_only=True, tag="attention.began"):
    number: int


class AttentionRolled(GameEventBase, frozen=True, kw_only=True, tag="attention.rolled"):
    number: int
    die: int
    hot_lead_used: int
    total: int
    flag: int
    active: str
    ring: Ring
    focus: Focus
    shooter_bonus: Kind


class PoolsRolled(GameEventBase, frozen=True, kw_only=True, tag="pools.rolled"):
    active: str
    shooter: tuple[int, ...]
    angel: tuple[int, ...]
    shooter_number: int
    angel_number: int
    outcome: PoolOutcome
    at_risk: bool


class RiskResolved(GameEventBase, frozen=True, kw_only=True, tag="risk.resolved"):
    bullseye: str
    focus: Focus
    ring: Ring | None
    cost: int
    resolution: Resolution
    paid: dict[Stat, int]


class GameSceneClosed(GameEventBase, frozen=True, kw_only=True, tag="scene.closed"):
    number: int
    note: str | None = None


class HotLeadSet(GameEventBase, frozen=True, kw_only=True, tag="hot_lead.set"):
    flag: int
    to_middle: tuple[int, ...]


class BullseyeCaught(GameEventBase, frozen=True, kw_only=True, tag="bullseye.caught"):
    bullseye: str


class BullseyeEscaped(GameEventBase, frozen=True, kw_only=True, tag="bullseye.escaped"):
    bullseye: str


class VoteCast(GameEventBase, frozen=True, kw_only=True, tag="vote.cast"):
    voter: str
    go_for_broke: bool


class BrokeAgreed(GameEventBase, frozen=True, kw_only=True, tag="broke.agreed"):
    rollers: tuple[str, ...]


class BrokeDeclined(GameEventBase, frozen=True, kw_only=True, tag="broke.declined"):
    by: str


class FinalRolled(GameEventBase, frozen=True, kw_only=True, tag="final.rolled"):
    bullseye: str
    shooter: tuple[int, ...]
    angel: tuple[int, ...]
    S: int
    A: int
    result: Status


class PointsDistributed(GameEventBase, frozen=True, kw_only=True, tag="points.distributed"):
    bullseye: str
    allocations: tuple[Allocated, ...]
    retired: int
    to_middle: tuple[int, ...]
    note: str | None = None


class FlagMoved(GameEventBase, frozen=True, kw_only=True, tag="flag.moved"):
    neighbour: str  # lower or upper
    mover: str
    moved: Moved


class MovePassed(GameEventBase, frozen=True, kw_only=True, tag="move.passed"):
    neighbour: str
    mover: str
    flag: int


class MoveSkipped(GameEventBase, frozen=True, kw_only=True, tag="move.skipped"):
    neighbour: str
    flag: int


class BatchOpened(GameEventBase, frozen=True, kw_only=True, tag="batch.opened"):
    batch: int
    middle: tuple[int, ...]


class GameEnded(GameEventBase, frozen=True, kw_only=True, tag="game.ended"):
    reason: EndingReason
    fates: dict[str, Status]
    server_seed: RevealedSeed = msgspec.UNSET


class GameClosed(GameEventBase, frozen=True, kw_only=True, tag="game.closed"):
    """Sent by the HTTP layer when the table deletes an ended game."""

    server_seed: RevealedSeed = msgspec.UNSET


GameEvent = (
    GameCreated
    | FlagTaken
    | FlagHanded
    | FlagReturned
    | FlagPlaced
    | AngelRenamed
    | AttentionBegan
    | AttentionRolled
    | PoolsRolled
    | RiskResolved
    | GameSceneClosed
    | HotLeadSet
    | BullseyeCaught
    | BullseyeEscaped
    | VoteCast
    | BrokeAgreed
    | BrokeDeclined
    | FinalRolled
    | PointsDistributed
    | FlagMoved
    | MovePassed
    | MoveSkipped
    | BatchOpened
    | GameEnded
    | GameClosed
)


class GameClientSeedAdded(GameEventBase, frozen=True, kw_only=True, tag="client_seed.added"):
    """A player added its client seed (the session's shared client-seed route, not an
    action: no action's answer carries it), stamped like every event of the game."""

    participant: str
    seed: str


# What the stream tells: every action's events, and the client seeds added.
GAME_EVENTS: tuple[str, ...] = (*event_names(GameEvent), *event_names(GameClientSeedAdded))
