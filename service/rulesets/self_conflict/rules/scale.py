"""The seed's ladders as data: "The Scale" of talents, the "Status" ladder, the outcome
bands of "Task resolution and other rules" and the humanoid Basic Talents ("Talents"),
plus how a talent is written (D14).

Labels and numbers are the seed's, in sentence case (D14); every description is this
project's own wording.
"""

from __future__ import annotations

import re
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = [
    "HUMANOID_BASIC_TALENTS",
    "MAX_LEVEL",
    "MIN_LEVEL",
    "OUTCOME_BANDS",
    "STATUS_GOOD",
    "STATUS_LADDER",
    "TALENT_SCALE",
    "SelfConflictBasicTalent",
    "SelfConflictTableRow",
    "base_name",
    "label_mismatch",
    "leading_label",
    "status_label",
    "talent_label",
    "written_talent",
]

MIN_LEVEL, MAX_LEVEL = 0, 6
STATUS_GOOD = 6  # a new object's usual status, and the default

RowText = Annotated[str, Meta(min_length=1, max_length=200)]


class SelfConflictTableRow(Value, frozen=True, kw_only=True):
    """One rung of a ladder: its number, the seed's label and what it means here."""

    value: Annotated[int, Meta(ge=0, le=12)]
    label: Annotated[str, Meta(min_length=1, max_length=40)]
    description: RowText


class SelfConflictBasicTalent(Value, frozen=True, kw_only=True):
    """A Basic Talent of a set and what it measures (the service's own words)."""

    name: Annotated[str, Meta(min_length=1, max_length=40)]
    measures: RowText


TALENT_SCALE: tuple[SelfConflictTableRow, ...] = tuple(
    SelfConflictTableRow(value=value, label=label, description=description)
    for value, label, description in (
        (
            0,
            "Not at all",
            "The object lacks the talent: rolled for a task wholly new to it, or noted on "
            "the sheet as a handicap.",
        ),
        (1, "Not very", "Weak. A rare level, kept for special cases."),
        (2, "Somewhat", "Below the middle but usable. A common level."),
        (3, "Moderately", "Middling competence. A common level."),
        (4, "Fairly", "Capable: enough to get real work done. A common level."),
        (5, "Very", "Highly capable; the top of the common levels."),
        (
            6,
            "Extremely",
            "Exceptional. A rare level: many of them suggest the concept is too strong.",
        ),
    )
)

STATUS_LADDER: tuple[SelfConflictTableRow, ...] = tuple(
    SelfConflictTableRow(value=value, label=label, description=description)
    for value, label, description in (
        (0, "Fate under GM control", "Out of the players' hands: the GM decides what follows."),
        (1, "Incapacitated", "Unable to act at all."),
        (2, "Reeling", "Barely holding together; almost anything is hard."),
        (3, "Battered", "Badly hurt or damaged."),
        (4, "Injured", "A real injury or breakage that hampers some actions, not others."),
        (5, "Bruised", "Minor harm, felt but rarely decisive."),
        (6, "Good", "Sound and fully working: the usual state of a new object."),
    )
)

OUTCOME_BANDS: tuple[SelfConflictTableRow, ...] = (
    SelfConflictTableRow(
        value=0,
        label="Failure",
        description="0–5 points: the task fails, at least in part. A critical failure "
        "(natural 6 and 6) lands here too.",
    ),
    SelfConflictTableRow(
        value=6,
        label="Marginal success",
        description="6–11 points: done, but with a flaw or by luck; the seed also calls it "
        "a nominal success (D14).",
    ),
    SelfConflictTableRow(
        value=12,
        label="Total success",
        description="12 points: done in full. A critical success (natural 1 and 1) lands here too.",
    ),
)

HUMANOID_BASIC_TALENTS: tuple[SelfConflictBasicTalent, ...] = tuple(
    SelfConflictBasicTalent(name=name, measures=measures)
    for name, measures in (
        ("Agile", "Moving the whole body well: balance, coordination, suppleness."),
        ("Dangerous", "Capacity and appetite for violence: force, ferocity, menace."),
        ("Disciplined", "Self-control: keeping to a course, an order or a routine."),
        ("Handy", "Skill of the hands: making, mending, fine work."),
        ("Influential", "Sway over other people: charm and presence, not rank or wealth."),
        ("Witty", "Speed of thought."),
        ("Tough", "Resistance of body and mind to pain, strain and fear."),
    )
)

_LABELS = {row.value: row.label for row in TALENT_SCALE}
_STATUS_LABELS = {row.value: row.label for row in STATUS_LADDER}
# Longest label first, so "not very good" reads as Not very, never as Very.
_LEADING = re.compile(
    r"^\s*(?P<label>"
    + "|".join(re.escape(label) for label in sorted(_LABELS.values(), key=len, reverse=True))
    + r")\s+(?P<rest>\S.*)$",
    re.IGNORECASE | re.DOTALL,
)


def talent_label(level: int) -> str | None:
    """ "The Scale": the label of a level 0–6 (`Fairly` for 4); None off the scale."""
    return _LABELS.get(level)


def status_label(level: int) -> str | None:
    """ "Status": the label of a status 0–6 (`Injured` for 4); None off the ladder."""
    return _STATUS_LABELS.get(level)


def leading_label(name: str) -> int | None:
    """The level whose label a talent's name already starts with (longest match, any
    case: `very good with horses` → 5), or None."""
    match = _LEADING.match(name)
    if match is None:
        return None
    label = match["label"].casefold()
    return next(level for level, text in _LABELS.items() if text.casefold() == label)


def label_mismatch(name: str, level: int) -> str | None:
    """What to say when a talent's name starts with another level's label (D14)."""
    named = leading_label(name)
    if named is None or named == level:
        return None
    return (
        f"The name says {talent_label(named)} ({named}) but the level is "
        f"{level} ({talent_label(level)})."
    )


def base_name(name: str) -> str:
    """The name without a leading scale label, trimmed and case-folded: how Basic Talents
    and duplicates are matched (`Somewhat Agile` and `agile` are one talent)."""
    match = _LEADING.match(name)
    return (match["rest"] if match else name).strip().casefold()


def written_talent(name: str, level: int) -> str:
    """D14: `"{label} {name}({level})"` (`dangerous`, 4 → `Fairly dangerous(4)`); a name
    already starting with a label stays as it is (`very good with horses(5)`); a level off
    the scale gets no label. Names keep their case."""
    name = name.strip()
    label = talent_label(level)
    if label is None or leading_label(name) is not None:
        return f"{name}({level})"
    return f"{label} {name}({level})"
