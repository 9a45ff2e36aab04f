"""A scene in combat rounds ("Performing Actions in Rounds") as a value: who takes part,
the order, each participant's round so far, and the rolls waiting for the GM."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from msgspec import Meta

from service.kernel.bounds import Seed
from service.kernel.fairness import Fairness
from service.kernel.values import Value
from service.rulesets.opend6.rules.codes import CodeText
from service.rulesets.opend6.rules.initiative import DecidedBy
from service.rulesets.opend6.rules.rolls import RollResult
from service.rulesets.opend6.rules.spec import (
    MAX_POINTS,
    Base,
    Bonus,
    CPLimit,
    CriticalFailure,
    DeclaredActions,
    Difficulty,
    Faces,
    OpenD6Label,
    Related,
    RollKind,
    TaskTime,
)

__all__ = [
    "MAX_PARTICIPANTS",
    "MAX_PENDING",
    "MAX_RESOLVED",
    "InitiativeMethod",
    "Scene",
    "SceneDiceSource",
    "SceneOrderPlace",
    "SceneParticipant",
    "SceneParticipantRound",
    "ScenePendingRoll",
    "ScenePhase",
    "ScenePlayer",
    "ScenePoints",
    "SceneResolvedRoll",
    "SceneRollSpec",
    "SceneRules",
    "SceneStatus",
]

MAX_PARTICIPANTS = 30
MAX_PENDING = 30
MAX_RESOLVED = 100  # related rolls remembered: this round's and the last, newest first
SceneId = Annotated[
    str,
    Meta(
        pattern=r"^[a-z0-9_-]{1,40}$",
        description="An id: a-z, 0-9, '_' or '-', 1–40.",
        examples=["ana"],
    ),
]
PointCount = Annotated[int, Meta(ge=0, le=1_000_000)]


class InitiativeMethod(StrEnum):
    """ "Initiative": the GM names who goes first (`first_action`, Method 1), or everyone
    rolls once a scene or once a round (Methods 2 and 3; D15)."""

    FIRST_ACTION = "first_action"
    ROLLED_PER_SCENE = "rolled_per_scene"
    ROLLED_PER_ROUND = "rolled_per_round"


class SceneDiceSource(StrEnum):
    SERVER = "server"
    CLIENT = "client"


class SceneRules(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The GM's choices for the scene."""

    initiative: InitiativeMethod = InitiativeMethod.ROLLED_PER_ROUND
    critical_failure: CriticalFailure = CriticalFailure.CANCEL_HIGHEST
    character_point_limit: CPLimit = None
    cp_with_fp: bool = False
    optional_initiative_bonus: bool = False
    climax: Annotated[
        bool,
        Meta(
            description='The adventure\'s climax ("Fate Points"): climactic Fate Points may be '
            "spent more than once in the scene (still once a round each)."
        ),
    ] = False
    dice_source: SceneDiceSource = SceneDiceSource.SERVER


class ScenePlayer(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A player at the table: gets a token, controls participants."""

    id: SceneId
    name: OpenD6Label


class SceneParticipant(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A character (or, for the GM, a group of up to 100 that acts as one, D19)."""

    id: SceneId
    name: OpenD6Label
    controller: Annotated[str, Meta(min_length=1, max_length=40)] = "gm"
    members: Annotated[int, Meta(ge=1, le=100)] = 1
    acumen: CodeText
    agility: CodeText
    search: CodeText | None = None
    dodge: CodeText | None = None
    goes_first: Annotated[int, Meta(ge=0, le=10)] = 0
    edge: Annotated[int, Meta(ge=0, le=10)] = 0
    bonus_ranks: Annotated[int, Meta(ge=0, le=60)] = 0
    action_allotment: Annotated[int, Meta(ge=1, le=10)] = 1
    character_points: PointCount = 0
    fate_points: PointCount = 0
    climactic_used: Annotated[
        bool,
        Meta(
            description="A climactic Fate Point already spent this game session (D19: the "
            "service's session is the scene; carry it over from an earlier scene here)."
        ),
    ] = False


class SceneStatus(StrEnum):
    ACTIVE = "active"
    ENDED = "ended"


class ScenePhase(StrEnum):
    """Where the round stands: rolling initiative, taking turns, or the round's end when
    waiters with actions left may still act (D18)."""

    INITIATIVE = "initiative"
    TURNS = "turns"
    ROUND_END = "round_end"


class SceneOrderPlace(Value, frozen=True, kw_only=True):
    """A place in the order: `decided_by` is the key that put it ahead of the next, `gm`
    (named by `set_order`) or `unable` (placed last, unable when the order was set)."""

    participant: str
    total: int | None
    decided_by: Literal[DecidedBy, "gm", "unable"] | None


class ScenePoints(Value, frozen=True, kw_only=True):
    character_points: int
    fate_points: int


class SceneParticipantRound(Value, frozen=True, kw_only=True):
    """One participant's round so far: actions declared and left, the multi-action
    penalty they cost, and whether it is waiting, done or able to act at all; `rolls`
    made this round, a `climactic` Fate Point doubling them, and a GM's `moved_up` grant.
    `climactic_used` and `points` carry over from round to round."""

    declared: int | None = None
    actions_left: int = 0
    penalty_dice: int = 0
    waiting: bool = False
    turn_done: bool = False
    able: bool = True
    initiative: int | None = None
    rolls: int = 0
    climactic: bool = False
    climactic_used: bool = False
    moved_up: bool = False
    points: ScenePoints


class SceneRollSpec(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What a participant rolls in a scene: a roll spec without the parts the scene
    supplies (declared actions, the CP limit, available points, `cp_with_fp`)."""

    base: Base
    kind: RollKind = RollKind.ACTION
    bonuses: Annotated[tuple[Bonus, ...], Meta(max_length=20)] = ()
    time: TaskTime | None = None
    fate_point: bool = False
    character_points: Annotated[int, Meta(ge=0, le=MAX_POINTS)] = 0
    faces: Faces | None = None
    seed: Seed | None = None


class ScenePendingRoll(Value, frozen=True, kw_only=True):
    """A roll made and waiting for the GM's resolution (D18); points may still be spent."""

    id: str
    round: int
    participant: str
    by: str
    move: SceneRollSpec
    roll: RollResult
    opposes: str | None = None
    difficulty: Difficulty | None = None
    related: tuple[Related, ...] = ()
    climactic: bool = False
    actions: DeclaredActions | None = None  # the multi-action penalty in force when rolled


class SceneResolvedRoll(Value, frozen=True, kw_only=True):
    """A roll resolved against a difficulty (or opposed) this round or the last: its result
    points may help one later related roll, once ("Free Actions (related skills)")."""

    id: str
    round: int
    participant: str
    result_points: int
    used: bool = False


class Scene(Value, frozen=True, kw_only=True, omit_defaults=True):
    """Everything needed to continue a scene; its move log is history, kept apart."""

    id: str
    name: str
    rules: SceneRules
    players: tuple[ScenePlayer, ...]
    participants: tuple[SceneParticipant, ...]
    status: SceneStatus = SceneStatus.ACTIVE
    round: int = 1
    phase: ScenePhase = ScenePhase.INITIATIVE
    elapsed_seconds: int = 0
    order: tuple[SceneOrderPlace, ...] = ()
    current: str | None = None
    interrupting: str | None = None
    rounds: dict[str, SceneParticipantRound] = {}
    pending: tuple[ScenePendingRoll, ...] = ()
    resolved: tuple[SceneResolvedRoll, ...] = ()
    rolls_made: int = 0
    # Server dice committed to at creation (docs/verifiable-rolls.md); null for table dice.
    fairness: Fairness | None = None
    # Answers of actions that roll server dice carry a signed receipt (service.sessions).
    receipts: bool = False
