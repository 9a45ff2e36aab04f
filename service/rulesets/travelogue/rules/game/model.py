"""A game's state: the bullseyes, their targets, the twelve flags and where the phase
stands ("The Set Up", "Evidence Flag", "When All The Flags Are Gone").

Bounded by 6 players and 12 flags. What can be derived (the middle, the hot lead, a ring's
flags, the next cost, who is awaited) is computed from it, so it cannot drift.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.errors import Concern
from service.kernel.fairness import Fairness
from service.kernel.values import Value
from service.rulesets.travelogue.rules.pools import Pools
from service.rulesets.travelogue.rules.stats import Stat, Stats

__all__ = [
    "FLAG_COUNT",
    "MAX_ACTIONS",
    "MAX_ATTENTIONS",
    "Attention",
    "Bullseye",
    "Departure",
    "Ending",
    "EndingReason",
    "Figure",
    "FinalRoll",
    "Flag",
    "Focus",
    "Game",
    "GameStatus",
    "Hand",
    "Kind",
    "Move",
    "MoveResult",
    "Moved",
    "Neighbours",
    "Place",
    "Player",
    "Pool",
    "Resolution",
    "Ring",
    "RingState",
    "Risk",
    "Status",
    "Step",
    "WhoseDice",
]

FLAG_COUNT = 12
MAX_ACTIONS = 10_000  # D29
MAX_ATTENTIONS = 300  # D29

# A track grows by one an accept or an attention and by what departures hand on; the
# state's bound is generous so that a stored game always decodes again.
Points = Annotated[int, Meta(ge=0, le=1_000_000)]
Count = Annotated[int, Meta(ge=0, le=1_000_000)]


class Ring(StrEnum):
    """A target's four rings (D1); the centre is the bullseye himself."""

    LOVED_ONES = "loved_ones"
    FRIENDS = "friends"
    POSSESSIONS = "possessions"
    REPUTATION = "reputation"

    @property
    def label(self) -> str:
        return _RING_LABELS[self]


_RING_LABELS = {ring: ring.value.replace("_", " ").title() for ring in Ring}


class Kind(StrEnum):
    """What a flag adds to a track: odd numbers Aim, even Ammo unless set (D5)."""

    AIM = "aim"
    AMMO = "ammo"


class Place(StrEnum):
    BOX = "box"
    MIDDLE = "middle"
    HAND = "hand"
    RING = "ring"
    HOT_LEAD = "hot_lead"


class Status(StrEnum):
    RUNNING = "running"
    CAUGHT = "caught"
    ESCAPED = "escaped"
    AT_LARGE = "at_large"


class GameStatus(StrEnum):
    ACTIVE = "active"
    ENDED = "ended"
    CLOSED = "closed"


class WhoseDice(StrEnum):
    SERVER = "server"
    TABLE = "table"


class Step(StrEnum):
    """What the game waits for (the design's `waiting_for.step`)."""

    PLAY = "play"
    PLAY_TAKEN = "play.taken"
    PLAY_HANDED = "play.handed"
    ATTENTION_ROLL = "attention.roll"
    ATTENTION_POOLS = "attention.pools"
    ATTENTION_RISK = "attention.risk"
    ATTENTION_SCENE = "attention.scene"
    DEPARTURE_VOTE = "departure.vote"
    DEPARTURE_FINAL = "departure.final"
    DEPARTURE_DISTRIBUTE = "departure.distribute"
    MOVES_LOWER = "moves.lower"
    MOVES_UPPER = "moves.upper"
    ENDED = "ended"


class Focus(StrEnum):
    RING = "ring"
    CENTRE = "centre"


class Resolution(StrEnum):
    BOUGHT_OUT = "bought_out"
    FLIPPED = "flipped"
    CAUGHT = "caught"


class MoveResult(StrEnum):
    PENDING = "pending"
    MOVED = "moved"
    PASSED = "passed"
    SKIPPED = "skipped"


class EndingReason(StrEnum):
    NONE_RUNNING = "none_running"
    WENT_FOR_BROKE = "went_for_broke"
    LIMIT = "limit"


class Figure(Value, frozen=True, kw_only=True):
    """A Shooter or an Angel: its name and its Aim and Ammo."""

    name: str
    aim: Points
    ammo: Points


class RingState(Value, frozen=True, kw_only=True):
    """A ring's circle (its last buy-out's cost, 0 if none) and its permanent X (D15)."""

    circle: Count = 0
    flipped: bool = False


class Bullseye(Value, frozen=True, kw_only=True):
    name: str
    shooter: Figure
    angel: Figure
    beef: str
    stats: Stats
    status: Status = Status.RUNNING
    rings: dict[Ring, RingState]
    centre: Count = 0  # the centre's circle


class Player(Value, frozen=True, kw_only=True):
    id: str
    bullseye: Bullseye


class Flag(Value, frozen=True, kw_only=True):
    """One of the twelve flags and where it is: on a ring, ``bullseye`` (a player id) and
    ``ring`` say which."""

    number: Annotated[int, Meta(ge=1, le=FLAG_COUNT)]
    kind: Kind
    place: Place
    bullseye: str | None = None
    ring: Ring | None = None


class Hand(Value, frozen=True, kw_only=True):
    """The flag being reached with (D10): its reacher, and once handed its holder."""

    flag: int
    reacher: str
    holder: str | None = None
    on_behalf_of: str | None = None


class Risk(Value, frozen=True, kw_only=True):
    """A running bullseye's focus at risk (D12–D15) and how it was settled."""

    focus: Focus
    cost: int
    affordable: bool
    resolution: Resolution | None = None
    paid: dict[Stat, int] = msgspec.field(default_factory=dict)


class Attention(Value, frozen=True, kw_only=True):
    """One attention phase: the roll, the flag it found, its bullseye, the pools, the risk."""

    number: int
    die: int
    hot_lead_used: int
    total: int
    flag: int
    kind: Kind
    active: str
    ring: Ring
    focus: Focus
    shooter_bonus: Kind
    pools: Pools | None = None
    risk: Risk | None = None


class Moved(Value, frozen=True, kw_only=True):
    flag: int
    from_bullseye: str
    from_ring: Ring
    to_bullseye: str
    to_ring: Ring


class Move(Value, frozen=True, kw_only=True):
    """One neighbour move (D18–D20): its flag, its mover once the move comes."""

    flag: int
    mover: str | None = None
    result: MoveResult = MoveResult.PENDING
    moved: Moved | None = None


class Neighbours(Value, frozen=True, kw_only=True):
    lower: Move
    upper: Move


class FinalRoll(Value, frozen=True, kw_only=True):
    """A go-for-broke roll (D23): the faces, both numbers, the fate."""

    shooter: tuple[int, ...]
    angel: tuple[int, ...]
    S: int
    A: int
    result: Status


class Pool(Value, frozen=True, kw_only=True):
    """What a leaver hands on (D24, D25): which points, as what, to whom."""

    pool: str
    points: int
    as_: str = msgspec.field(name="as")
    eligible: tuple[str, ...]


class Allocated(Value, frozen=True, kw_only=True):
    pool: str
    to: str
    points: int


class Departure(Value, frozen=True, kw_only=True):
    """A bullseye caught or escaped at an attention ("Getting Caught, Getting Away")."""

    bullseye: str
    result: Status
    voters: tuple[str, ...]
    votes: dict[str, bool] = msgspec.field(default_factory=dict)
    final: dict[str, FinalRoll] = msgspec.field(default_factory=dict)
    pools: tuple[Pool, ...] = ()
    allocations: tuple[Allocated, ...] = ()


class Ending(Value, frozen=True, kw_only=True):
    reason: EndingReason
    fates: dict[str, Status]


class Game(Value, frozen=True, kw_only=True):
    """Everything on the table. Version and expiry are the session engine's."""

    id: str
    name: str
    status: GameStatus = GameStatus.ACTIVE
    dice_source: WhoseDice
    seed: int | None = None  # kept, never shown (the view says only `seeded`)
    step: Step = Step.PLAY
    batch: Count = 1
    attention_count: Count = 0
    rolls: Count = 0  # rolling actions so far: the i-th draws from (seed, i) (D28)
    actions: Count = 0  # actions applied (D29 stops at 10 000)
    retired_points: Count = 0
    warnings: tuple[Concern, ...] = ()
    players: Annotated[tuple[Player, ...], Meta(max_length=6)]
    flags: Annotated[tuple[Flag, ...], Meta(min_length=FLAG_COUNT, max_length=FLAG_COUNT)]
    hand: Hand | None = None
    attention: Attention | None = None
    neighbours: Neighbours | None = None
    departure: Departure | None = None
    ending: Ending | None = None
    # Unseeded server dice committed to at creation (docs/verifiable-rolls.md); null for
    # table dice and for a caller-seeded game, whose dice are public by design (D28).
    fairness: Fairness | None = None
    # Answers of actions that roll server dice carry a signed receipt (service.sessions).
    receipts: bool = False
