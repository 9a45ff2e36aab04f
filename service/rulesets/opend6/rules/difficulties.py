"""Difficulties and what moves them: "Standard Difficulties", "Special Difficulties"
(derived), "Rushing", "Preparing", the "Character Points" limits and the "Alternate
Attribute Option" pairs, as data and pure functions.

The level names and numbers are the seed's; the descriptions are this project's own words.
Decisions (docs/opend6.md): a level alone stands for its range's top (D8), a
derived difficulty is 2 × dice + pips (D9), "Rushing" rounds the time saved down to a
listed step and "Preparing" counts whole doublings (D11), "unlimited" Character Points
are 20 a roll (D7).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.opend6.rules.codes import DieCode
from service.rulesets.opend6.rules.spec import Level, cp_limit

__all__ = [
    "ALTERNATE_ATTRIBUTES",
    "CHARACTER_POINT_LIMITS",
    "DIFFICULTY_LEVELS",
    "MAX_PREPARING_DICE",
    "MIN_RUSHABLE_SECONDS",
    "MIN_RUSHED_PERCENT",
    "PREPARING_STEPS",
    "RUSHING_STEPS",
    "AlternateAttributes",
    "AlternateUse",
    "AttributeName",
    "Challenge",
    "CharacterPointLimit",
    "DifficultyLevel",
    "Level",
    "PreparingStep",
    "RushingStep",
    "alternates_for",
    "character_point_limit",
    "derived_difficulty",
    "label_for",
    "level_for",
    "level_row",
    "preparing_dice",
    "rushing_modifier",
    "standard_difficulty",
]


# Bounds of the reference rows as published (every answer field is bounded).
Number = Annotated[int, Meta(ge=0, le=100)]
ShortText = Annotated[str, Meta(min_length=1, max_length=80)]

# --- "Standard Difficulties" -------------------------------------------------------------


class DifficultyLevel(Value, frozen=True, kw_only=True):
    """One standard level: the number it stands for alone (its range's top, D8), its range
    (`maximum` null: no upper end) and what it means."""

    level: Level
    label: ShortText
    default: Annotated[Number, Meta(description="The number the level stands for alone (D8).")]
    minimum: Number
    maximum: Annotated[Number | None, Meta(description="Null: no upper end (Legendary).")]
    description: ShortText


DIFFICULTY_LEVELS: tuple[DifficultyLevel, ...] = tuple(
    DifficultyLevel(
        level=level, label=label, default=default, minimum=low, maximum=high, description=text
    )
    for level, label, default, low, high, text in (
        (Level.AUTOMATIC, "Automatic", 0, 0, 0, "Nothing to roll: it simply succeeds."),
        (Level.VERY_EASY, "Very Easy", 5, 1, 5, "Rolled only when it matters to the story."),
        (Level.EASY, "Easy", 10, 6, 10, "Routine for the trained; a test for a novice."),
        (Level.MODERATE, "Moderate", 15, 11, 15, "An average character fails it fairly often."),
        (Level.DIFFICULT, "Difficult", 20, 16, 20, "The inexperienced need a lot of luck."),
        (Level.VERY_DIFFICULT, "Very Difficult", 25, 21, 25, "Only the talented do it often."),
        (Level.HEROIC, "Heroic", 30, 26, 30, "Nearly impossible; luck or mastery may do it."),
        (Level.LEGENDARY, "Legendary", 31, 31, None, "Beyond heroic: a slim chance at best."),
    )
)
_BY_LEVEL = {row.level: row for row in DIFFICULTY_LEVELS}


def level_row(level: Level) -> DifficultyLevel:
    """The table row of ``level``."""
    return _BY_LEVEL[level]


def level_for(value: int) -> Level:
    """The level whose range holds ``value``; 0 or below is Automatic ("Standard
    Difficulties"; intimidation 10 → Easy)."""
    for row in DIFFICULTY_LEVELS:
        if row.maximum is None or value <= row.maximum:
            return row.level
    raise AssertionError("the last level has no upper end")  # pragma: no cover


def label_for(value: int) -> str:
    """The label of the level whose range holds ``value``: ``10 → "Easy"``, ``≤ 0 →
    "Automatic"``, ``31`` and above ``"Legendary"``."""
    return _BY_LEVEL[level_for(value)].label


def _span(row: DifficultyLevel) -> str:
    if row.maximum is None:
        return f"{row.minimum} or more"
    return str(row.minimum) if row.minimum == row.maximum else f"{row.minimum}–{row.maximum}"


def standard_difficulty(level: Level, value: int | None = None, pointer: str = "") -> int:
    """The number of a standard difficulty: ``value`` if given, else the level's range top
    (D8: Easy alone is 10, Legendary 31).

    Raises:
        RulesError: ``value-outside-level``: ``value`` is not in the level's range (the
            concern points at ``{pointer}/value``).
    """
    row = _BY_LEVEL[level]
    if value is None:
        return row.default
    if value < row.minimum or (row.maximum is not None and value > row.maximum):
        detail = f"{value} is not {row.label} ({_span(row)}); it is {label_for(value)}."
        raise RulesError(
            "opend6/value-outside-level",
            detail,
            (
                Concern(
                    code="opend6/value-outside-level", pointer=f"{pointer}/value", detail=detail
                ),
            ),
        )
    return value


# --- "Special Difficulties": derived ----------------------------------------------------


def derived_difficulty(code: DieCode) -> int:
    """A difficulty derived from the target's code: twice the dice, plus the pips once (D9;
    an urchin's Charisma 3D → 6). No unskilled modifier on the target's side."""
    return 2 * code.dice + code.pips


# --- "Rushing" ---------------------------------------------------------------------------

MIN_RUSHABLE_SECONDS = 10  # "two or more rounds": a shorter task cannot be rushed
MIN_RUSHED_PERCENT = 25  # no task is done in under a quarter of its normal time


class RushingStep(Value, frozen=True, kw_only=True):
    """Saving at least `saved_percent` of the normal time raises the difficulty by
    `modifier` (the time saved is rounded down to a listed step, D11)."""

    saved_percent: Annotated[Number, Meta(description="The least share of time saved, %.")]
    modifier: Annotated[Number, Meta(description="Added to the difficulty.")]
    description: ShortText


RUSHING_STEPS: tuple[RushingStep, ...] = (
    RushingStep(saved_percent=0, modifier=0, description="Under a quarter saved: no change."),
    RushingStep(saved_percent=25, modifier=5, description="A quarter of the time saved."),
    RushingStep(saved_percent=50, modifier=10, description="Half the time saved."),
    RushingStep(
        saved_percent=75,
        modifier=20,
        description="Three quarters saved: the most; anything faster is refused.",
    ),
)


def rushing_modifier(normal_seconds: int, taken_seconds: int, pointer: str = "/time") -> int:
    """The difficulty modifier for doing a task in ``taken_seconds`` instead of
    ``normal_seconds`` ("Rushing"): the share of time saved, rounded down to a step of
    :data:`RUSHING_STEPS` (D11). No time saved (``taken ≥ normal``): 0. An hour's task
    done in 1800 s: +10; in 2700 s: +5; in 900 s: +20.

    Raises:
        RulesError: ``rush-short-task`` (at ``{pointer}/normal_seconds``): a task under
            10 s cannot be rushed; ``rush-too-far`` (at ``{pointer}/taken_seconds``): taking
            less than a quarter of the normal time.
    """
    if taken_seconds >= normal_seconds:
        return 0
    if normal_seconds < MIN_RUSHABLE_SECONDS:
        detail = (
            f"A task that normally takes {normal_seconds} s cannot be rushed: only tasks of "
            f"{MIN_RUSHABLE_SECONDS} s (two rounds) or more can."
        )
        raise RulesError(
            "opend6/rush-short-task",
            detail,
            (
                Concern(
                    code="opend6/rush-short-task",
                    pointer=f"{pointer}/normal_seconds",
                    detail=detail,
                ),
            ),
        )
    if 100 * taken_seconds < MIN_RUSHED_PERCENT * normal_seconds:
        shortest = -(-MIN_RUSHED_PERCENT * normal_seconds // 100)
        detail = (
            f"{taken_seconds} s is under a quarter of the normal {normal_seconds} s: the "
            f"task takes at least {shortest} s."
        )
        raise RulesError(
            "opend6/rush-too-far",
            detail,
            (
                Concern(
                    code="opend6/rush-too-far", pointer=f"{pointer}/taken_seconds", detail=detail
                ),
            ),
        )
    saved = normal_seconds - taken_seconds
    modifier = 0
    for step in RUSHING_STEPS:
        if 100 * saved >= step.saved_percent * normal_seconds:
            modifier = step.modifier
    return modifier


# --- "Preparing" -------------------------------------------------------------------------

MAX_PREPARING_DICE = 3


class PreparingStep(Value, frozen=True, kw_only=True):
    """Taking at least `time_multiple` times the normal time adds `bonus_dice` regular dice
    to the roll (whole doublings only, at most +3D: D11)."""

    doublings: Number
    time_multiple: Annotated[Number, Meta(description="Times the normal time, at least.")]
    bonus_dice: Annotated[Number, Meta(description="Regular dice added to the roll.")]


PREPARING_STEPS: tuple[PreparingStep, ...] = tuple(
    PreparingStep(doublings=n, time_multiple=2**n, bonus_dice=n)
    for n in range(MAX_PREPARING_DICE + 1)
)


def preparing_dice(normal_seconds: int, taken_seconds: int) -> int:
    """Regular dice gained by taking longer ("Preparing"): +1D for each whole doubling of
    the normal time, at most +3D (D11). ×2 and ×3 → 1, ×4 → 2, ×8 and ×16 → 3."""
    dice = 0
    while dice < MAX_PREPARING_DICE and taken_seconds >= normal_seconds * 2 ** (dice + 1):
        dice += 1
    return dice


# --- "Character Points": the GM's limit a roll ------------------------------------------


class Challenge(StrEnum):
    """How hard the adventure is; it sets the Character Points a roll may take."""

    EASY = "easy"
    CINEMATIC = "cinematic"
    UNIVERSE_SHAKING = "universe_shaking"


class CharacterPointLimit(Value, frozen=True, kw_only=True):
    """At most `limit` Character Points on one roll, before and after together."""

    challenge: Challenge
    label: ShortText
    limit: Number
    description: ShortText


CHARACTER_POINT_LIMITS: tuple[CharacterPointLimit, ...] = (
    CharacterPointLimit(
        challenge=Challenge.EASY,
        label="Easy",
        limit=2,
        description="Adventures of easy challenges.",
    ),
    CharacterPointLimit(
        challenge=Challenge.CINEMATIC,
        label="Cinematic",
        limit=5,
        description="More cinematic adventures.",
    ),
    CharacterPointLimit(
        challenge=Challenge.UNIVERSE_SHAKING,
        label="Universe-shaking",
        limit=cp_limit(None),  # "unlimited": a null `character_point_limit` (D7)
        description="No limit in the seed; the service's bound is 20 a roll (D7).",
    ),
)
_CP_LIMITS = {row.challenge: row.limit for row in CHARACTER_POINT_LIMITS}


def character_point_limit(challenge: Challenge) -> int:
    """Character Points one roll may take at ``challenge``: 2, 5, or 20 for "unlimited"
    (D7)."""
    return _CP_LIMITS[challenge]


# --- "Alternate Attribute Option" --------------------------------------------------------


class AttributeName(StrEnum):
    """The six attributes."""

    AGILITY = "agility"
    COORDINATION = "coordination"
    PHYSIQUE = "physique"
    INTELLECT = "intellect"
    ACUMEN = "acumen"
    CHARISMA = "charisma"


class AlternateUse(Value, frozen=True, kw_only=True):
    """An attribute a skill may be rolled with, and when."""

    attribute: AttributeName
    use: ShortText


class AlternateAttributes(Value, frozen=True, kw_only=True):
    """Skills the seed pairs with other attributes, each with the situation that calls for
    it. The adds carried over are skill − governing attribute (D12)."""

    skills: Annotated[tuple[ShortText, ...], Meta(max_length=10)]
    attributes: Annotated[tuple[AlternateUse, ...], Meta(max_length=6)]


def _pair(skills: str, *uses: tuple[AttributeName, str]) -> AlternateAttributes:
    return AlternateAttributes(
        skills=tuple(skills.split()),
        attributes=tuple(AlternateUse(attribute=a, use=use) for a, use in uses),
    )


_A = AttributeName
ALTERNATE_ATTRIBUTES: tuple[AlternateAttributes, ...] = (
    _pair(
        "climbing jumping running swimming",
        (_A.PHYSIQUE, "how far"),
        (_A.AGILITY, "getting past obstacles"),
    ),
    _pair("command", (_A.CHARISMA, "leadership"), (_A.INTELLECT, "tactics")),
    _pair(
        "disguise",
        (_A.ACUMEN, "making a disguise, above all for someone else"),
        (_A.CHARISMA, "carrying one off"),
    ),
    _pair(
        "flying",
        (_A.PHYSIQUE, "wings, or the body's strain at speed"),
        (_A.AGILITY, "getting past obstacles"),
    ),
    _pair("healing", (_A.INTELLECT, "knowledge and diagnosis"), (_A.COORDINATION, "surgery")),
    _pair(
        "riding",
        (_A.AGILITY, "travelling on a mount"),
        (_A.ACUMEN, "judging a mount or a rider's style"),
    ),
    _pair("traps", (_A.INTELLECT, "knowing and spotting mechanisms"), (_A.ACUMEN, "setting one")),
)


def alternates_for(skill: str) -> tuple[AlternateUse, ...]:
    """The alternate attributes the seed lists for ``skill`` (case-insensitive); none: ()."""
    wanted = skill.strip().lower()
    for row in ALTERNATE_ATTRIBUTES:
        if wanted in row.skills:
            return row.attributes
    return ()
