"""What a scene's answers show of what its creation and its moves sent: each request shape
as its own answer schema (:func:`service.kernel.values.as_view`), so a generated client
sees every field the service sends as required (a request may leave it out)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from msgspec import Meta

from service.kernel.values import as_view
from service.rulesets.opend6.rules.scenes.model import (
    SceneParticipant,
    ScenePendingRoll,
    SceneRollSpec,
    SceneRules,
)
from service.rulesets.opend6.rules.spec import (
    AlternateBase,
    AttributeBase,
    Bonus,
    DeclaredActions,
    DerivedDifficulty,
    EquipmentBase,
    Faces,
    NumberDifficulty,
    SkillBase,
    StandardDifficulty,
    UntrainedBase,
    WildDieOnlyDifficulty,
)

__all__ = [
    "BaseView",
    "BonusView",
    "DeclaredActionsView",
    "DerivedDifficultyView",
    "DifficultyView",
    "FacesView",
    "NumberDifficultyView",
    "SceneParticipantView",
    "ScenePendingRollView",
    "SceneRollSpecView",
    "SceneRulesView",
    "StandardDifficultyView",
    "UntrainedBaseView",
    "WildDieOnlyDifficultyView",
    "pending_view",
]


class SceneRulesView(SceneRules, frozen=True, kw_only=True):
    """The GM's choices for the scene, every one as it stands."""


class SceneParticipantView(SceneParticipant, frozen=True, kw_only=True):
    """A participant as the scene's creation gave it (its round: `round` beside it)."""


class UntrainedBaseView(UntrainedBase, frozen=True, kw_only=True):
    """ "Untrained Skill Use": the governing attribute, and the unskilled modifier."""


BaseView = Annotated[
    SkillBase | AttributeBase | UntrainedBaseView | AlternateBase | EquipmentBase,
    Meta(description="What rolls, by `type`."),
]


class BonusView(Bonus, frozen=True, kw_only=True):
    """Extra regular dice and pips; negative is a penalty."""


class FacesView(Faces, frozen=True, kw_only=True):
    """The table's dice as the roll sent them (the roll's own `faces` has every die)."""


class SceneRollSpecView(SceneRollSpec, frozen=True, kw_only=True):
    """What the participant rolled, as its `roll` move sent it."""

    base: BaseView
    bonuses: tuple[BonusView, ...] = ()
    faces: FacesView | None = None


class StandardDifficultyView(StandardDifficulty, frozen=True, kw_only=True):
    """A level, and the GM's number within its range (null: the range's top, D8)."""


class NumberDifficultyView(NumberDifficulty, frozen=True, kw_only=True):
    """A number the GM set."""


class DerivedDifficultyView(DerivedDifficulty, frozen=True, kw_only=True):
    """ "Special Difficulties": from the target's code, 2 × dice + pips (D9)."""


class WildDieOnlyDifficultyView(WildDieOnlyDifficulty, frozen=True, kw_only=True):
    """ "Special Difficulties": one toss of the Wild Die decides (D14)."""


DifficultyView = Annotated[
    StandardDifficultyView
    | NumberDifficultyView
    | DerivedDifficultyView
    | WildDieOnlyDifficultyView,
    Meta(description="What the total must reach, by `kind`."),
]


class DeclaredActionsView(DeclaredActions, frozen=True, kw_only=True):
    """The actions declared and the allotment: the multi-action penalty in force."""


class ScenePendingRollView(ScenePendingRoll, frozen=True, kw_only=True):
    """A roll made and waiting for the GM's resolution (D18); points may still be spent."""

    move: SceneRollSpecView
    difficulty: DifficultyView | None = None
    actions: DeclaredActionsView | None = None


def pending_view(roll: ScenePendingRoll) -> ScenePendingRollView:
    """A pending roll as answers show it. Only what its move sent is converted: its result
    (up to 120 dice) is an answer's type already."""
    sent: dict[str, Any] = {
        "move": as_view(roll.move, SceneRollSpecView),
        "difficulty": (
            None
            if roll.difficulty is None
            else msgspec.convert(msgspec.to_builtins(roll.difficulty), DifficultyView)
        ),
        "actions": None if roll.actions is None else as_view(roll.actions, DeclaredActionsView),
    }
    return ScenePendingRollView(**(msgspec.structs.asdict(roll) | sent))
