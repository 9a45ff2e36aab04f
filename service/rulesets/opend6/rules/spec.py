"""What a roll asks for: its base code, what modifies it, the points spent and the dice.

Bounds are the service's (docs/opend6.md, "Further decisions"): every number is limited so
a request's work is bounded (D7).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.bounds import Seed
from service.kernel.values import Value
from service.rulesets.opend6.rules.codes import CodeText

__all__ = [
    "MAX_CHAIN",
    "MAX_DICE",
    "MAX_POINTS",
    "AlternateBase",
    "AttributeBase",
    "Available",
    "AvailableView",
    "Base",
    "BaseType",
    "Bonus",
    "CPLimit",
    "CharacterPoints",
    "CriticalFailure",
    "DeclaredActions",
    "DerivedDifficulty",
    "Difficulty",
    "DifficultyKind",
    "EquipmentBase",
    "Faces",
    "Level",
    "Modifier",
    "Modifiers",
    "NumberDifficulty",
    "OddsRequest",
    "OpenD6Label",
    "Related",
    "RollKind",
    "RollRequest",
    "RollShape",
    "RollSpec",
    "RolledFaces",
    "SkillBase",
    "StandardDifficulty",
    "TaskTime",
    "UntrainedBase",
    "WildDieOnlyDifficulty",
    "WithOdds",
    "cp_limit",
    "cp_limit_text",
]

MAX_DICE = 120  # dice in one roll, regular and Wild
MAX_CHAIN = 100  # tosses of one exploding die (D7)
MAX_POINTS = 20  # Character Points on one roll: "unlimited" is 20 (D7)


def cp_limit(limit: int | None) -> int:
    """The Character Points one roll may take, before and after together, under the GM's
    ``character_point_limit``: null is the seed's "unlimited", which is 20 (D7). Every
    roll, its odds, initiative and a scene's points read the limit through here."""
    return MAX_POINTS if limit is None else limit


CPLimit = Annotated[
    Annotated[int, Meta(ge=0, le=MAX_POINTS)] | None,
    Meta(
        description='"Character Points": the most a roll takes, before and after together '
        '(easy 2, cinematic 5); null is universe-shaking "unlimited", 20 a roll (D7).'
    ),
]


def cp_limit_text(limit: int | None) -> str:
    """The limit as a refusal names it."""
    if limit is None:
        return f'{MAX_POINTS} ("unlimited" is {MAX_POINTS} a roll, D7)'
    return f"{limit} (the GM's `character_point_limit`)"


OpenD6Label = Annotated[str, Meta(min_length=1, max_length=80)]
Face = Annotated[int, Meta(ge=1, le=6)]
Chain = Annotated[
    tuple[Face, ...],
    Meta(
        min_length=1,
        max_length=MAX_CHAIN,
        description="One exploding die's tosses: 6s, then one face that is not a 6.",
    ),
]


class RollKind(StrEnum):
    """What the roll is for: the multi-action penalty spares damage, resistance and
    initiative (D13); only an `attack` earns a damage bonus (D10)."""

    ACTION = "action"
    ATTACK = "attack"
    FREE = "free"
    DAMAGE = "damage"
    DAMAGE_RESISTANCE = "damage_resistance"
    INITIATIVE = "initiative"


class CriticalFailure(StrEnum):
    """The GM's option on a Wild Die's initial 1 ("Wild Die"); default `cancel_highest` (D5)."""

    CANCEL_HIGHEST = "cancel_highest"
    COMPLICATION = "complication"


class SkillBase(Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="skill"):
    """A skill's code."""

    code: CodeText


class AttributeBase(Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="attribute"):
    """An attribute's code."""

    code: CodeText


class UntrainedBase(Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="untrained"):
    """ "Untrained Skill Use": the governing attribute rolls; the difficulty rises by the
    unskilled modifier ("Unskilled Attempts"; 0 where the seed exempts the task)."""

    attribute: CodeText
    unskilled_modifier: Annotated[int, Meta(ge=0, le=50)] = 5


class AlternateBase(Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="alternate"):
    """ "Alternate Attribute Option": the skill's adds over its governing attribute (skill −
    governing attribute, D12) on another attribute."""

    skill: CodeText
    governing_attribute: CodeText
    attribute: CodeText


class EquipmentBase(Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag="equipment"):
    """An item's own code (a weapon's damage): not the character's, so no Fate Point (D6)."""

    code: CodeText


Base = Annotated[
    SkillBase | AttributeBase | UntrainedBase | AlternateBase | EquipmentBase,
    Meta(description="What rolls, by `type`."),
]


class BaseType(StrEnum):
    """What rolls: the `type` of each member of :data:`Base`."""

    SKILL = "skill"
    ATTRIBUTE = "attribute"
    UNTRAINED = "untrained"
    ALTERNATE = "alternate"
    EQUIPMENT = "equipment"


class Bonus(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Extra regular dice and pips (an Advantage, a Special Ability, equipment); negative is
    a penalty. Never a Wild Die."""

    label: OpenD6Label
    dice: Annotated[int, Meta(ge=-20, le=20)] = 0
    pips: Annotated[int, Meta(ge=-50, le=50)] = 0


class Related(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An earlier related roll's result points ("Free Actions (related skills)"); its
    modifier, ±max(1, ⌈|rp|/2⌉), adds to this total (D10)."""

    label: OpenD6Label
    result_points: Annotated[int, Meta(ge=-500, le=500)]


class TaskTime(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The task's normal time and the time taken: more is "Preparing", less "Rushing"."""

    normal_seconds: Annotated[int, Meta(ge=1, le=31_536_000)]
    taken_seconds: Annotated[int, Meta(ge=1, le=31_536_000)]


class DeclaredActions(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "Multi-Action Penalty": −1D per action declared beyond the allotment."""

    declared: Annotated[int, Meta(ge=1, le=20)]
    allotment: Annotated[int, Meta(ge=1, le=10)] = 1


class CharacterPoints(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Character Points spent before the roll and after seeing it ("Character Points")."""

    before: Annotated[int, Meta(ge=0, le=MAX_POINTS)] = 0
    after: Annotated[int, Meta(ge=0, le=MAX_POINTS)] = 0


class Available(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The character's points before this roll, to check the spending against."""

    character_points: Annotated[int, Meta(ge=0, le=1_000_000)] = 0
    fate_points: Annotated[int, Meta(ge=0, le=1_000_000)] = 0


class AvailableView(Available, frozen=True, kw_only=True):
    """A character's points (after a roll: what is left)."""


class Faces(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Dice rolled at the table, in place of the server's: the regular dice, the Wild Die's
    chain and one chain per Character Point die."""

    regular: Annotated[tuple[Face, ...], Meta(max_length=MAX_DICE)] = ()
    wild: Chain | None = None
    character_points: Annotated[tuple[Chain, ...], Meta(max_length=MAX_POINTS)] = ()
    character_points_after: Annotated[tuple[Chain, ...], Meta(max_length=MAX_POINTS)] | None = None


class RolledFaces(Faces, frozen=True, kw_only=True):
    """Every die of a roll: the regular dice, the Wild Die's chain (always), the Character
    Point chains bought before, and after (null: none yet). Sent back as a roll's `faces`
    (with `character_points.after`), it spends Character Points after seeing the roll."""

    wild: Chain

    @classmethod
    def of(cls, faces: Faces) -> RolledFaces:
        """The faces of a roll once made, which always has its Wild Die."""
        assert faces.wild is not None
        return cls(
            regular=faces.regular,
            wild=faces.wild,
            character_points=faces.character_points,
            character_points_after=faces.character_points_after,
        )


class RollShape(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything that shapes a roll, short of its dice (what its odds depend on)."""

    base: Base
    kind: RollKind = RollKind.ACTION
    bonuses: Annotated[tuple[Bonus, ...], Meta(max_length=20)] = ()
    related: Annotated[tuple[Related, ...], Meta(max_length=10)] = ()
    time: TaskTime | None = None
    actions: DeclaredActions | None = None
    fate_point: bool = False
    character_points: CharacterPoints = CharacterPoints()
    character_point_limit: CPLimit = None
    cp_with_fp: bool = False
    available: Available | None = None
    critical_failure: CriticalFailure = CriticalFailure.CANCEL_HIGHEST
    roller_is_initiator: bool = True


class RollSpec(RollShape, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One roll of a character (or an item), everything that shapes it, and its dice."""

    faces: Faces | None = None
    seed: Seed | None = None


class Level(StrEnum):
    """ "Standard Difficulties" levels; a level alone stands for its range's top (D8)."""

    AUTOMATIC = "automatic"
    VERY_EASY = "very_easy"
    EASY = "easy"
    MODERATE = "moderate"
    DIFFICULT = "difficult"
    VERY_DIFFICULT = "very_difficult"
    HEROIC = "heroic"
    LEGENDARY = "legendary"


class Modifier(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A "Generic Modifiers" change to the difficulty."""

    label: OpenD6Label
    value: Annotated[int, Meta(ge=-100, le=100)]


Modifiers = Annotated[tuple[Modifier, ...], Meta(max_length=10)]


class StandardDifficulty(
    Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind", tag="standard"
):
    """A level, and optionally the GM's number within its range."""

    level: Level
    value: Annotated[int, Meta(ge=0, le=200)] | None = None
    modifiers: Modifiers = ()


class NumberDifficulty(
    Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind", tag="number"
):
    """A number the GM sets; it takes its range's label."""

    value: Annotated[int, Meta(ge=-50, le=200)]
    modifiers: Modifiers = ()


class DerivedDifficulty(
    Value, frozen=True, kw_only=True, forbid_unknown_fields=True, tag_field="kind", tag="derived"
):
    """ "Special Difficulties": from the target's code, 2 × dice + pips (D9)."""

    code: CodeText
    modifiers: Modifiers = ()


class WildDieOnlyDifficulty(
    Value,
    frozen=True,
    kw_only=True,
    forbid_unknown_fields=True,
    tag_field="kind",
    tag="wild_die_only",
):
    """ "Special Difficulties": one toss of the Wild Die decides (D14)."""

    modifiers: Modifiers = ()


Difficulty = Annotated[
    StandardDifficulty | NumberDifficulty | DerivedDifficulty | WildDieOnlyDifficulty,
    Meta(description="What the total must reach, by `kind`."),
]


class DifficultyKind(StrEnum):
    """The `kind` of each member of :data:`Difficulty`."""

    STANDARD = "standard"
    NUMBER = "number"
    DERIVED = "derived"
    WILD_DIE_ONLY = "wild_die_only"


WithOdds = Annotated[
    bool,
    Meta(
        description="Also answer the roll's exact odds in `odds`, as its odds operation "
        "would for the same body less the dice (`faces`, `seed`); null when false."
    ),
]


class RollRequest(RollSpec, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A roll, and the difficulty it is made against (none: the total alone)."""

    difficulty: Difficulty | None = None
    with_odds: WithOdds = False


class OddsRequest(RollShape, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A roll before it is made: its odds against the difficulty (Character Points before
    and after are pooled, since the odds do not depend on when they are bought)."""

    difficulty: Difficulty | None = None
