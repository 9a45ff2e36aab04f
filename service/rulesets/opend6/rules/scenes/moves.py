"""What can happen in a scene: one tagged union of moves, each naming the round it is for."""

from __future__ import annotations

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
    "SceneDeclare",
    "SceneEnd",
    "SceneEndTurn",
    "SceneInitiative",
    "SceneInitiativeRoll",
    "SceneMove",
    "SceneNextRound",
    "SceneResolve",
    "SceneRoll",
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
    rest, for the whole scene."""

    first: Annotated[tuple[Participant, ...], Meta(min_length=1, max_length=30)]


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


class SceneRoll(_Move, frozen=True, kw_only=True, tag="roll"):
    """A roll, left pending for the GM's resolution (D18)."""

    participant: Participant
    spec: SceneRollSpec


class SceneSpendCharacterPoints(_Move, frozen=True, kw_only=True, tag="spend_character_points"):
    """ "Character ScenePoints" after seeing a pending roll: CP dice added before it resolves."""

    roll: Annotated[str, Meta(min_length=1, max_length=64)]
    count: Annotated[int, Meta(ge=1, le=MAX_POINTS)]


class SceneResolve(_Move, frozen=True, kw_only=True, tag="resolve"):
    """The GM judges a pending roll: the difficulty (never the player's), the
    Critical-Failure option and modifiers."""

    roll: Annotated[str, Meta(min_length=1, max_length=64)]
    difficulty: Difficulty | None = None
    critical_failure: CriticalFailure | None = None
    modifiers: Modifiers = ()


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
    | SceneNextRound
    | SceneEnd,
    Meta(description="One move, by `type`."),
]
