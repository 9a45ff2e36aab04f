"""What can happen in a scene: one tagged union of moves, each naming the round it is for."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.bounds import Seed
from service.kernel.values import Value
from service.rulesets.opend6.rules.scenes.model import SceneRollSpec
from service.rulesets.opend6.rules.spec import (
    MAX_POINTS,
    CriticalFailure,
    Difficulty,
    Faces,
    Modifiers,
)

__all__ = [
    "SceneClimacticFatePoint",
    "SceneDeclare",
    "SceneEnd",
    "SceneEndTurn",
    "SceneInitiative",
    "SceneInitiativeRoll",
    "SceneMove",
    "SceneMoveType",
    "SceneMoveUp",
    "SceneNextRound",
    "SceneResolve",
    "SceneRoll",
    "SceneSetAble",
    "SceneSetOrder",
    "SceneSpendCharacterPoints",
    "SceneWait",
]

RoundNumber = Annotated[int, Meta(ge=1, le=100_000, description="The round this move is for.")]
Participant = Annotated[str, Meta(min_length=1, max_length=40)]


class _Move(Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="type"):
    round: RoundNumber


class SceneInitiativeRoll(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One participant's Acumen roll for the order (CP dice allowed, no Fate Point, D15)."""

    participant: Participant
    character_points: Annotated[int, Meta(ge=0, le=MAX_POINTS)] = 0
    faces: Faces | None = None
    seed: Seed | None = None


class SceneInitiative(_Move, frozen=True, kw_only=True, tag="initiative"):
    """Initiative rolls, each once a scene or a round (the rolled methods)."""

    rolls: Annotated[tuple[SceneInitiativeRoll, ...], Meta(min_length=1, max_length=30)]


class SceneSetOrder(_Move, frozen=True, kw_only=True, tag="set_order"):
    """`first_action` (Method 1): the GM names who goes first; "Ties/No Rolls" orders the
    rest, for the whole scene. No one named (`first` absent or empty): the die codes alone
    order everyone ("Ties/No Rolls": the GM chooses not to roll)."""

    first: Annotated[
        tuple[Participant, ...],
        Meta(
            max_length=30,
            description='Who goes first, in this order; the rest follow by "Ties/No Rolls". '
            'Absent or empty: everyone by "Ties/No Rolls".',
        ),
    ] = ()


class SceneDeclare(_Move, frozen=True, kw_only=True, tag="declare"):
    """On its turn (or interrupting), a participant declares its actions, once a round."""

    participant: Participant
    actions: Annotated[int, Meta(ge=1, le=20)]


class SceneWait(_Move, frozen=True, kw_only=True, tag="wait"):
    """Hold an action: it costs one, rolls nothing, and passes the turn on (D18)."""

    participant: Participant


class SceneEndTurn(_Move, frozen=True, kw_only=True, tag="end_turn"):
    """The participant is done for now (with no roll of its own pending)."""

    participant: Participant


RollId = Annotated[str, Meta(min_length=1, max_length=64)]


class SceneRoll(_Move, frozen=True, kw_only=True, tag="roll"):
    """A roll, left pending for the GM's resolution (D18)."""

    participant: Participant
    spec: SceneRollSpec
    related_rolls: Annotated[
        tuple[RollId, ...],
        Meta(
            max_length=5,
            description='"Free Actions (related skills)": resolved rolls (anyone\'s: helping) '
            "of this round or the last, whose result points modify this total; each once.",
        ),
    ] = ()
    opposes: Annotated[
        RollId | None,
        Meta(
            description='A pending roll this one resists ("Opposed Difficulties"): the GM '
            "resolves the two together, the opposed roll's maker as the initiator. A `free` "
            "roll that opposes is the GM's to grant."
        ),
    ] = None
    difficulty: Annotated[
        Difficulty | None,
        Meta(description="The GM's only: the difficulty, set now (never the player's)."),
    ] = None
    resolve_now: Annotated[
        bool,
        Meta(
            description="The GM's only: resolve at once instead of pending; 409 "
            "`interrupt-window` while a waiter could still interrupt (D18)."
        ),
    ] = False


class SceneSpendCharacterPoints(_Move, frozen=True, kw_only=True, tag="spend_character_points"):
    """ "Character Points" after seeing a pending roll: CP dice added before it resolves."""

    roll: RollId
    count: Annotated[int, Meta(ge=1, le=MAX_POINTS)]


class SceneResolve(_Move, frozen=True, kw_only=True, tag="resolve"):
    """The GM judges a pending roll: the difficulty (never the player's), the
    Critical-Failure option and modifiers."""

    roll: RollId
    difficulty: Difficulty | None = None
    critical_failure: CriticalFailure | None = None
    modifiers: Modifiers = ()


class SceneClimacticFatePoint(_Move, frozen=True, kw_only=True, tag="climactic_fate_point"):
    """ "Fate Points", spent climactically: one Fate Point doubles the participant's rolls
    this round (not initiative, not `equipment`), before its first roll of the round; once
    a scene unless the GM's `climax` (D19)."""

    participant: Participant


class SceneMoveUp(_Move, frozen=True, kw_only=True, tag="move_up"):
    """The GM lets a participant "move up" its turn to react now (a catch, resisting a
    mental attempt): it interrupts at once, and what it does takes its actions."""

    participant: Participant


class SceneSetAble(_Move, frozen=True, kw_only=True, tag="set_able"):
    """The GM marks a participant able or unable to act; an unable one loses its untaken
    turn this round and is skipped until able again."""

    participant: Participant
    able: bool


class SceneNextRound(_Move, frozen=True, kw_only=True, tag="next_round"):
    """The GM ends the round (no roll pending); the next one starts."""


class SceneEnd(_Move, frozen=True, kw_only=True, tag="end_scene"):
    """The GM ends the scene."""


SceneMove = Annotated[
    SceneInitiative
    | SceneSetOrder
    | SceneDeclare
    | SceneWait
    | SceneEndTurn
    | SceneRoll
    | SceneSpendCharacterPoints
    | SceneResolve
    | SceneClimacticFatePoint
    | SceneMoveUp
    | SceneSetAble
    | SceneNextRound
    | SceneEnd,
    Meta(description="One move, by `type`."),
]


class SceneMoveType(StrEnum):
    """A move's `type`: the tag of each member of :data:`SceneMove`."""

    INITIATIVE = "initiative"
    SET_ORDER = "set_order"
    DECLARE = "declare"
    WAIT = "wait"
    END_TURN = "end_turn"
    ROLL = "roll"
    SPEND_CHARACTER_POINTS = "spend_character_points"
    RESOLVE = "resolve"
    CLIMACTIC_FATE_POINT = "climactic_fate_point"
    MOVE_UP = "move_up"
    SET_ABLE = "set_able"
    NEXT_ROUND = "next_round"
    END_SCENE = "end_scene"

    @classmethod
    def of(cls, move: SceneMove) -> SceneMoveType:
        return cls(str(move.__struct_config__.tag))
