"""Validating an object ("Creating Objects", steps 1–6): concept, story, talents, signs,
status, goal and objectives. Every violation and warning is reported at once, each with a
code and a JSON pointer into the request; a sheet that breaks the rules is still an
answer, never a refusal.

Violations are what the steps require (D9, D10, D11, D13); the seed's guidance (rare
levels, sentence-like gained talents, status notes) is only ever a warning (D12, D15).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.self_conflict.rules.scale import (
    MAX_LEVEL,
    MIN_LEVEL,
    STATUS_GOOD,
    base_name,
    label_mismatch,
    status_label,
    talent_label,
    written_talent,
)

__all__ = [
    "MIN_STORY_SENTENCES",
    "SelfConflictFinding",
    "SelfConflictObject",
    "SelfConflictObjectReport",
    "SelfConflictObjectTalent",
    "SelfConflictObjectValidation",
    "SelfConflictSheetCode",
    "SelfConflictStatus",
    "SelfConflictStatusView",
    "SelfConflictTalentKind",
    "SelfConflictWrittenTalent",
    "sentences",
    "validate_object",
]

MIN_STORY_SENTENCES = 3  # D9: the seed's "a few sentences", read as three
MANY_SIXES = 3  # D12
RARE_LEVELS = (1, 6)
MIN_RARE = 2  # D12: at least two rare levels, and more than a quarter of those rated 1–6

WideLevel = Annotated[
    int,
    Meta(
        ge=-100,
        le=100,
        description="Wide on purpose: a level off the 0–6 scale is reported as a violation "
        "with the rest, not refused.",
    ),
]
Text = Annotated[str, Meta(max_length=200)]


class SelfConflictTalentKind(StrEnum):
    """Basic (permanent, one set per object type) or gained (skills, crew, unique
    abilities); the split is optional (D13)."""

    BASIC = "basic"
    GAINED = "gained"


class SelfConflictObjectTalent(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A talent on the sheet: a free-form name with a level ("Talents")."""

    name: Annotated[str, Meta(min_length=1, max_length=200)]
    level: WideLevel
    kind: SelfConflictTalentKind | None = None


class SelfConflictStatus(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "Status": 0 Fate under GM control … 6 Good, and what caused it (D8: the GM turns it
    into Conflict modifiers; it never enters a check)."""

    level: WideLevel = STATUS_GOOD
    notes: Annotated[
        tuple[Text, ...],
        Meta(max_length=16, description='The causes, e.g. "dock brawl: two cracked ribs".'),
    ] = ()


class SelfConflictObject(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Any object — a person, a robot, a ship, an army, a nation, a house."""

    name: Annotated[str, Meta(min_length=1, max_length=120)]
    concept: Annotated[str, Meta(max_length=500, description="Step 1: its essence.")] = ""
    type: (
        Annotated[
            str, Meta(max_length=120, description="What kind of object (`humanoid`, `ship`).")
        ]
        | None
    ) = None
    sentient: Annotated[
        bool,
        Meta(description="Required: only a sentient object must have a goal and objectives (D11)."),
    ]
    story: Annotated[
        str, Meta(max_length=20_000, description="Step 2: at least three sentences (D9).")
    ] = ""
    talents: Annotated[tuple[SelfConflictObjectTalent, ...], Meta(max_length=64)] = ()
    signs: Annotated[
        tuple[Text, ...], Meta(max_length=32, description="Step 4: how it shows what it is.")
    ] = ()
    status: SelfConflictStatus = SelfConflictStatus()
    goal: Annotated[str, Meta(max_length=500)] | None = None
    objectives: Annotated[
        tuple[Annotated[str, Meta(max_length=300)], ...], Meta(max_length=16)
    ] = ()
    karma: Annotated[
        int, Meta(ge=0, le=100_000, description="Karma points the object holds (D1).")
    ] = 0


class SelfConflictObjectValidation(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """An object to check, and the GM's Basic Talent set for its type (D13)."""

    object: SelfConflictObject
    basic_talents: (
        Annotated[
            tuple[Annotated[str, Meta(min_length=1, max_length=120)], ...],
            Meta(
                max_length=32,
                description="The Basic Talents every object of this type carries (the "
                "humanoid set is at `GET …/basic-talents`); checked only when sent (D13).",
            ),
        ]
        | None
    ) = None


class SelfConflictSheetCode(StrEnum):
    """What a finding is about. Violations make the sheet invalid; warnings never do."""

    BLANK_NAME = "blank-name"
    CONCEPT_MISSING = "concept-missing"
    STORY_TOO_SHORT = "story-too-short"
    TALENTS_MISSING = "talents-missing"
    DUPLICATE_TALENT_NAME = "duplicate-talent-name"
    TALENT_LEVEL_OUT_OF_SCALE = "talent-level-out-of-scale"
    SIGNS_MISSING = "signs-missing"
    STATUS_OUT_OF_SCALE = "status-out-of-scale"
    GOAL_MISSING = "goal-missing"
    OBJECTIVES_MISSING = "objectives-missing"
    BASIC_TALENT_MISSING = "basic-talent-missing"
    RARE_LEVELS_COMMON = "rare-levels-common"
    MANY_LEVEL_SIX = "many-level-six"
    TALENT_LABEL_MISMATCH = "talent-label-mismatch"
    GAINED_TALENT_TERSE = "gained-talent-terse"
    BASIC_TALENT_UNLISTED = "basic-talent-unlisted"
    STATUS_UNEXPLAINED = "status-unexplained"
    GOAL_ON_NON_SENTIENT = "goal-on-non-sentient"


_Report = Callable[[SelfConflictSheetCode, str, str], None]  # adds a violation or a warning


class SelfConflictFinding(Value, frozen=True, kw_only=True):
    """One violation or warning: what, where (a JSON pointer into the request) and why."""

    code: SelfConflictSheetCode
    pointer: Annotated[str, Meta(max_length=40)]
    detail: Annotated[str, Meta(max_length=400)]


class SelfConflictWrittenTalent(Value, frozen=True, kw_only=True):
    """A talent as the seed writes it (D14): `Fairly dangerous(4)`."""

    pointer: Annotated[str, Meta(max_length=20)]
    written: Annotated[str, Meta(max_length=220)]
    label: Annotated[str, Meta(max_length=20)] | None


class SelfConflictStatusView(Value, frozen=True, kw_only=True):
    """The status and its label (null off the ladder)."""

    level: Annotated[int, Meta(ge=-100, le=100)]
    label: Annotated[str, Meta(max_length=30)] | None


class SelfConflictObjectReport(Value, frozen=True, kw_only=True):
    """The verdict on an object: valid when it has no violation."""

    valid: bool
    violations: Annotated[tuple[SelfConflictFinding, ...], Meta(max_length=400)]
    warnings: Annotated[tuple[SelfConflictFinding, ...], Meta(max_length=400)]
    talents: Annotated[tuple[SelfConflictWrittenTalent, ...], Meta(max_length=64)]
    status: SelfConflictStatusView


# A sentence holds a letter and ends at a run of . ! ? … followed by whitespace, or the end.
# The lookbehind lets a match start only where a run starts, and `++` never gives back what
# it took: one pass, linear. `[.!?…]+(?:\s+|$)` alone retried at every dot of a run not
# followed by whitespace, rescanning the rest of the run each time (quadratic: 20 000 dots
# then a letter took seconds on the event loop).
_SENTENCE_END = re.compile(r"(?<![.!?…])[.!?…]++(?:\s+|$)")


def sentences(text: str) -> int:
    """How many sentences a story holds (D9), in time linear in its length."""
    return sum(1 for part in _SENTENCE_END.split(text) if any(map(str.isalpha, part)))


def _blank(text: str | None) -> bool:
    return text is None or not text.strip()


def validate_object(request: SelfConflictObjectValidation) -> SelfConflictObjectReport:
    """Every violation and warning of ``request.object`` at once."""
    sheet = request.object
    violations: list[SelfConflictFinding] = []
    warnings: list[SelfConflictFinding] = []

    def violation(code: SelfConflictSheetCode, pointer: str, detail: str) -> None:
        violations.append(SelfConflictFinding(code=code, pointer=pointer, detail=detail))

    def warning(code: SelfConflictSheetCode, pointer: str, detail: str) -> None:
        warnings.append(SelfConflictFinding(code=code, pointer=pointer, detail=detail))

    code = SelfConflictSheetCode
    if _blank(sheet.name):
        violation(code.BLANK_NAME, "/object/name", "The object needs a name.")
    # Steps 1–5 are required (D10).
    if _blank(sheet.concept):
        violation(code.CONCEPT_MISSING, "/object/concept", "Step 1, Concept: describe its essence.")
    if (count := sentences(sheet.story)) < MIN_STORY_SENTENCES:
        violation(
            code.STORY_TOO_SHORT,
            "/object/story",
            f"Step 2, Story: {count} sentence(s); at least {MIN_STORY_SENTENCES} (D9).",
        )
    if not sheet.talents:
        violation(code.TALENTS_MISSING, "/object/talents", "Step 3, Talents: at least one.")
    _talents(request, violation, warning)
    if not any(not _blank(sign) for sign in sheet.signs):
        violation(code.SIGNS_MISSING, "/object/signs", "Step 4, Signs: at least one.")
    _status(sheet.status, violation, warning)
    _goals(sheet, violation, warning)

    return SelfConflictObjectReport(
        valid=not violations,
        violations=tuple(violations),
        warnings=tuple(warnings),
        talents=tuple(
            SelfConflictWrittenTalent(
                pointer=f"/object/talents/{index}",
                written=written_talent(talent.name, talent.level),
                label=talent_label(talent.level),
            )
            for index, talent in enumerate(sheet.talents)
        ),
        status=SelfConflictStatusView(
            level=sheet.status.level, label=status_label(sheet.status.level)
        ),
    )


def _talents(request: SelfConflictObjectValidation, violation: _Report, warning: _Report) -> None:
    """ "Talents", "The Scale": names, levels, the guidance on levels, Basic Talents."""
    code = SelfConflictSheetCode
    seen: dict[str, int] = {}
    for index, talent in enumerate(request.object.talents):
        at = f"/object/talents/{index}"
        key = talent.name.strip().casefold()
        if not key:
            violation(code.BLANK_NAME, f"{at}/name", "A talent needs a name.")
        elif key in seen:
            violation(
                code.DUPLICATE_TALENT_NAME,
                f"{at}/name",
                f"'{talent.name.strip()}' repeats talent {seen[key]} (names compare trimmed, "
                "ignoring case).",
            )
        else:
            seen[key] = index
        if not MIN_LEVEL <= talent.level <= MAX_LEVEL:
            violation(
                code.TALENT_LEVEL_OUT_OF_SCALE,
                f"{at}/level",
                f"Level {talent.level} is off the scale (0 Not at all … 6 Extremely).",
            )
        elif (mismatch := label_mismatch(talent.name, talent.level)) is not None:
            warning(code.TALENT_LABEL_MISMATCH, f"{at}/name", mismatch)
        if talent.kind is SelfConflictTalentKind.GAINED and len(talent.name.split()) == 1:
            warning(
                code.GAINED_TALENT_TERSE,
                f"{at}/name",
                "A gained talent written as a descriptive phrase or sentence brings the "
                "object to life better than a single word.",
            )

    levels = [t.level for t in request.object.talents if 1 <= t.level <= MAX_LEVEL]
    rare = sum(1 for level in levels if level in RARE_LEVELS)
    if rare >= MIN_RARE and rare * 4 > len(levels):
        warning(
            code.RARE_LEVELS_COMMON,
            "/object/talents",
            f"{rare} of {len(levels)} rated talents are at 1 or 6, levels meant to be rare (D12).",
        )
    if (sixes := levels.count(MAX_LEVEL)) >= MANY_SIXES:
        warning(
            code.MANY_LEVEL_SIX,
            "/object/talents",
            f"{sixes} talents at 6: the concept may be too powerful (D12).",
        )

    if request.basic_talents is None:
        return
    listed = {name.strip().casefold(): name.strip() for name in request.basic_talents}
    listed.pop("", None)
    carried = {
        base_name(t.name)
        for t in request.object.talents
        if t.kind is not SelfConflictTalentKind.GAINED
    }
    for key, name in listed.items():
        if key not in carried:
            violation(
                code.BASIC_TALENT_MISSING,
                "/object/talents",
                f"The Basic Talent '{name}' is missing: every object of this type has it (D13).",
            )
    for index, talent in enumerate(request.object.talents):
        if talent.kind is SelfConflictTalentKind.BASIC and base_name(talent.name) not in listed:
            warning(
                code.BASIC_TALENT_UNLISTED,
                f"/object/talents/{index}/name",
                f"'{talent.name.strip()}' is marked basic but is not in the type's Basic "
                "Talents (D13).",
            )


def _status(status: SelfConflictStatus, violation: _Report, warning: _Report) -> None:
    """ "Status": on the ladder, and below Good with its cause noted."""
    code = SelfConflictSheetCode
    if status_label(status.level) is None:
        violation(
            code.STATUS_OUT_OF_SCALE,
            "/object/status/level",
            f"Status {status.level} is off the ladder (0 Fate under GM control … 6 Good).",
        )
    elif status.level < STATUS_GOOD and all(_blank(note) for note in status.notes):
        warning(
            code.STATUS_UNEXPLAINED,
            "/object/status/notes",
            f"Status {status_label(status.level)} without a note of its cause; the GM "
            "needs it to turn the status into modifiers (D8).",
        )


def _goals(sheet: SelfConflictObject, violation: _Report, warning: _Report) -> None:
    """ "Goals and objectives": required of sentient objects only (D11)."""
    code = SelfConflictSheetCode
    has_objective = any(not _blank(item) for item in sheet.objectives)
    if sheet.sentient:
        if _blank(sheet.goal):
            violation(code.GOAL_MISSING, "/object/goal", "Step 6: a sentient object needs a goal.")
        if not has_objective:
            violation(
                code.OBJECTIVES_MISSING,
                "/object/objectives",
                "Step 6: a sentient object needs at least one objective.",
            )
        return
    if not _blank(sheet.goal):
        warning(
            code.GOAL_ON_NON_SENTIENT,
            "/object/goal",
            "Goals suit sentient objects; this one's is really its controller's (D11).",
        )
    if has_objective:
        warning(
            code.GOAL_ON_NON_SENTIENT,
            "/object/objectives",
            "Objectives suit sentient objects; these are really its controller's (D11).",
        )
