"""One talent check ("Task resolution and other rules"): the Self and Conflict dice
against a talent level, criticals, GM modifiers, karma and re-rolls.

The order is the seed's summary: the dice, then criticals (on the natural faces;
a critical ends the roll, D2), modify (Conflict by the GM, Self by karma only; never
clamped, D3), compare each with the level — under 6 points, over 0, equal one re-roll die
worth its face (D6) — and read the total: 0–5 failure, 6–11 marginal, 12 total success.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.bounds import Seed
from service.kernel.dice import FaceRefusals, RandomSource, TableFaces, dice_source
from service.kernel.errors import Concern, RulesError
from service.kernel.receipts import Receipt, ReceiptWanted
from service.kernel.summary import Summary
from service.kernel.values import Value
from service.rulesets.self_conflict.rules.check_warnings import (
    SelfConflictCheckWarning,
    SelfConflictCheckWarningCode,
)
from service.rulesets.self_conflict.rules.odds_answer import TalentOddsAnswer
from service.rulesets.self_conflict.rules.scale import (
    MAX_LEVEL,
    MIN_LEVEL,
    label_mismatch,
    talent_label,
    written_talent,
)
from service.rulesets.self_conflict.rules.summary import check_summary

__all__ = [
    "CRITICAL_FAILURE_FACE",
    "CRITICAL_SUCCESS_FACE",
    "KARMA_LABEL",
    "MARGINAL_FROM",
    "MAX_MODIFIER_SUM",
    "OVER_POINTS",
    "TOTAL_AT",
    "UNDER_POINTS",
    "WARN_MODIFIER_ABOVE",
    "SelfConflictCheckWarning",
    "SelfConflictCheckWarningCode",
    "SelfConflictComparison",
    "SelfConflictCritical",
    "SelfConflictDie",
    "SelfConflictDieRole",
    "SelfConflictGmModifier",
    "SelfConflictKarma",
    "SelfConflictKarmaResult",
    "SelfConflictMainDie",
    "SelfConflictModifierLine",
    "SelfConflictModifierSource",
    "SelfConflictOutcome",
    "SelfConflictTalent",
    "SelfConflictTalentView",
    "TalentCheckRequest",
    "TalentCheckResult",
    "TalentCheckShape",
    "TalentOddsRequest",
    "compare",
    "die_points",
    "outcome_of",
    "refusals",
    "resolve_check",
    "shape_warnings",
]

CRITICAL_SUCCESS_FACE, CRITICAL_FAILURE_FACE = 1, 6
UNDER_POINTS, OVER_POINTS = 6, 0
MARGINAL_FROM, TOTAL_AT = 6, 12  # the outcome bands: 0–5, 6–11, 12
MAX_MODIFIER_SUM = 10  # D4: past −7/+6 nothing changes; ±10 leaves room and a bound
WARN_MODIFIER_ABOVE = 2  # D4: the seed expects small modifiers, so more is only a warning
KARMA_LABEL = "karma"

Face = Annotated[int, Meta(ge=1, le=6, description="One face of a d6.")]
Level = Annotated[
    int, Meta(ge=MIN_LEVEL, le=MAX_LEVEL, description='"The Scale": 0 Not at all … 6 Extremely.')
]


class SelfConflictTalent(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The talent the object rolls against ("Talents", "The Scale")."""

    name: (
        Annotated[
            str,
            Meta(
                min_length=1,
                max_length=200,
                description="Free-form, a word or a sentence; only used to write the talent "
                "(`Fairly dangerous(4)`, D14).",
            ),
        ]
        | None
    ) = None
    level: Level


class SelfConflictGmModifier(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One of the GM's modifiers; it always goes on the Conflict die (+ = harder)."""

    label: Annotated[str, Meta(min_length=1, max_length=120)]
    value: Annotated[int, Meta(ge=-6, le=6, description="−6…+6 (D4).")]


class SelfConflictKarma(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The object's karma balance, and the points it stakes on the Self die before the
    roll (D1, D5)."""

    balance: Annotated[
        int,
        Meta(
            ge=0,
            le=100_000,
            description="The object's karma before this check: the service stores none (D1).",
        ),
    ]
    modifier: Annotated[
        int,
        Meta(
            ge=-10,
            le=10,
            description="Added to the Self die (negative helps), costing |modifier| points, "
            "even if the roll is a critical; never on a re-roll (D5).",
        ),
    ] = 0


class TalentCheckShape(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything that shapes a check, short of its dice."""

    talent: SelfConflictTalent
    conflict_modifiers: Annotated[
        tuple[SelfConflictGmModifier, ...],
        Meta(
            max_length=8,
            description="The GM's modifiers on the Conflict die; their sum must lie in −10…+10 "
            "(D4). The Self die has no GM modifier.",
        ),
    ] = ()
    karma: SelfConflictKarma | None = None

    @property
    def conflict_modifier(self) -> int:
        """The GM's modifiers on the Conflict die, summed (D4)."""
        return sum(modifier.value for modifier in self.conflict_modifiers)


class TalentOddsRequest(TalentCheckShape, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A check before it is rolled: the `selfConflictCheck` body without `faces` or `seed`."""


class TalentCheckRequest(TalentCheckShape, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One check: the talent, the GM's Conflict modifiers, karma, and optionally the dice."""

    faces: (
        Annotated[
            tuple[Face, ...],
            Meta(
                min_length=1,
                max_length=4,
                description="The table's dice in rolling order: Self, Conflict, then the "
                "re-rolls (Self's first), exactly as many as the check uses (D7).",
            ),
        ]
        | None
    ) = None
    seed: Seed | None = None
    with_odds: Annotated[
        bool,
        Meta(
            description="Also answer `odds`: exactly what `selfConflictCheckOdds` answers "
            "for this body (without `faces`, `seed` and `with_odds`)."
        ),
    ] = False
    receipt: ReceiptWanted = False


class SelfConflictDieRole(StrEnum):
    """Which die it is: a main die or the re-roll of one."""

    SELF = "self"
    CONFLICT = "conflict"
    SELF_REROLL = "self_reroll"
    CONFLICT_REROLL = "conflict_reroll"


class SelfConflictMainDie(StrEnum):
    """The die a modifier goes on."""

    SELF = "self"
    CONFLICT = "conflict"


class SelfConflictComparison(StrEnum):
    """A modified main die against the talent level."""

    UNDER = "under"
    EQUAL = "equal"
    OVER = "over"


class SelfConflictCritical(StrEnum):
    """Natural 1 and 1, or natural 6 and 6."""

    SUCCESS = "success"
    FAILURE = "failure"


class SelfConflictOutcome(StrEnum):
    """The three outcomes; "nominal" success is `marginal_success` (D14)."""

    FAILURE = "failure"
    MARGINAL_SUCCESS = "marginal_success"
    TOTAL_SUCCESS = "total_success"


class SelfConflictModifierSource(StrEnum):
    """Who applied a modifier: the GM (Conflict) or the object's karma (Self)."""

    GM = "gm"
    KARMA = "karma"


Points = Annotated[int, Meta(ge=0, le=12)]
ModifiedValue = Annotated[int, Meta(ge=-9, le=16)]


class SelfConflictDie(Value, frozen=True, kw_only=True):
    """One die of the check. A main die: `modifier` (karma on Self, the GM's sum on
    Conflict), `modified`, `comparison` with the level and its `points` (null on a
    critical, which scores none). A re-roll: modifier 0, no comparison, points = face."""

    role: SelfConflictDieRole
    face: Face
    modifier: Annotated[int, Meta(ge=-10, le=10)]
    modified: ModifiedValue | None
    comparison: SelfConflictComparison | None
    points: Annotated[int, Meta(ge=0, le=6)] | None


class SelfConflictModifierLine(Value, frozen=True, kw_only=True):
    """A modifier applied, on which die, and why."""

    source: SelfConflictModifierSource
    die: SelfConflictMainDie
    label: Annotated[str, Meta(min_length=1, max_length=120)]
    value: Annotated[int, Meta(ge=-10, le=10)]


class SelfConflictKarmaResult(Value, frozen=True, kw_only=True):
    """Karma in and out (D1, D5): store `balance_after` on the object. Balances are null
    when the request sent no `karma`."""

    balance_before: Annotated[int, Meta(ge=0, le=100_000)] | None
    modifier: Annotated[int, Meta(ge=-10, le=10)]
    spent: Annotated[int, Meta(ge=0, le=10)]
    gained: Annotated[int, Meta(ge=0, le=1, description="1 on a critical of either kind.")]
    balance_after: Annotated[int, Meta(ge=0, le=100_001)] | None


class SelfConflictTalentView(Value, frozen=True, kw_only=True):
    """The talent as rolled: its scale label and, with a name, how it is written (D14)."""

    name: Annotated[str, Meta(max_length=200)] | None
    level: Level
    label: Annotated[str, Meta(max_length=20)]
    written: Annotated[str, Meta(max_length=220)] | None


class TalentCheckResult(Value, frozen=True, kw_only=True):
    """Everything one check produced. Sending `faces` back replays it exactly."""

    id: Annotated[str, Meta(max_length=64)]
    talent: SelfConflictTalentView
    faces: Annotated[
        tuple[Face, ...],
        Meta(min_length=2, max_length=4, description="Every face used, in rolling order."),
    ]
    dice: Annotated[tuple[SelfConflictDie, ...], Meta(min_length=2, max_length=4)]
    modifiers: Annotated[tuple[SelfConflictModifierLine, ...], Meta(max_length=9)]
    critical: SelfConflictCritical | None
    total: Annotated[
        Points | None,
        Meta(description="0–12 points; null on a critical, which ends the roll (D2)."),
    ]
    outcome: SelfConflictOutcome
    outcome_label: Annotated[
        str,
        Meta(
            max_length=20,
            description="Failure, Marginal success, Total success, Critical success or "
            "Critical failure (D14).",
        ),
    ]
    karma: SelfConflictKarmaResult
    warnings: Annotated[tuple[SelfConflictCheckWarning, ...], Meta(max_length=4)]
    summary: Summary
    odds: Annotated[
        TalentOddsAnswer | None,
        Meta(
            description="With `with_odds`: the check's odds before its dice, as "
            "`selfConflictCheckOdds` answers them; else null."
        ),
    ]
    receipt: Receipt = None


def compare(modified: int, level: int) -> SelfConflictComparison:
    """Compared as integers, never clamped (D3): a Conflict die at −1 is under level 0."""
    if modified < level:
        return SelfConflictComparison.UNDER
    if modified > level:
        return SelfConflictComparison.OVER
    return SelfConflictComparison.EQUAL


def die_points(comparison: SelfConflictComparison, reroll: int | None) -> int:
    """Under 6, over 0, equal: the re-roll's face (D6)."""
    if comparison is SelfConflictComparison.UNDER:
        return UNDER_POINTS
    if comparison is SelfConflictComparison.OVER:
        return OVER_POINTS
    assert reroll is not None
    return reroll


def outcome_of(total: int) -> SelfConflictOutcome:
    """0–5 failure, 6–11 marginal success, 12 total success."""
    if total >= TOTAL_AT:
        return SelfConflictOutcome.TOTAL_SUCCESS
    if total >= MARGINAL_FROM:
        return SelfConflictOutcome.MARGINAL_SUCCESS
    return SelfConflictOutcome.FAILURE


_OUTCOME_LABELS = {
    SelfConflictOutcome.FAILURE: "Failure",
    SelfConflictOutcome.MARGINAL_SUCCESS: "Marginal success",
    SelfConflictOutcome.TOTAL_SUCCESS: "Total success",
}


def _critical(self_face: int, conflict_face: int) -> SelfConflictCritical | None:
    if self_face == conflict_face == CRITICAL_SUCCESS_FACE:
        return SelfConflictCritical.SUCCESS
    if self_face == conflict_face == CRITICAL_FAILURE_FACE:
        return SelfConflictCritical.FAILURE
    return None


def refusals(shape: TalentCheckShape) -> list[Concern]:
    """What refuses a check before any die: the GM's sum (D4) and karma beyond the
    balance (D5)."""
    concerns = []
    total = shape.conflict_modifier
    if abs(total) > MAX_MODIFIER_SUM:
        concerns.append(
            Concern(
                code="self-conflict/conflict-modifier-out-of-range",
                pointer="/conflict_modifiers",
                detail=f"The GM's modifiers sum to {total:+d}; the sum must lie in "
                f"−{MAX_MODIFIER_SUM}…+{MAX_MODIFIER_SUM} (D4).",
            )
        )
    karma = shape.karma
    if karma is not None and abs(karma.modifier) > karma.balance:
        concerns.append(
            Concern(
                code="self-conflict/karma-insufficient",
                pointer="/karma/modifier",
                detail=f"A karma modifier of {karma.modifier:+d} costs {abs(karma.modifier)} "
                f"point(s); the object has {karma.balance} (D5).",
            )
        )
    return concerns


def shape_warnings(shape: TalentCheckShape) -> tuple[SelfConflictCheckWarning, ...]:
    """Guidance, never a refusal: a large GM sum (D4), a name whose label disagrees with
    the level (D14)."""
    warnings = []
    total = shape.conflict_modifier
    if abs(total) > WARN_MODIFIER_ABOVE:
        warnings.append(
            SelfConflictCheckWarning(
                code=SelfConflictCheckWarningCode.CONFLICT_MODIFIER_LARGE,
                detail=f"The GM's modifiers sum to {total:+d}; the seed expects small "
                "modifiers as a rule (D4).",
            )
        )
    name, level = shape.talent.name, shape.talent.level
    if name is not None and (mismatch := label_mismatch(name, level)) is not None:
        warnings.append(
            SelfConflictCheckWarning(
                code=SelfConflictCheckWarningCode.TALENT_LABEL_MISMATCH, detail=mismatch
            )
        )
    return tuple(warnings)


_FACES = FaceRefusals("self-conflict")


def _missing_detail(given: int, roles: list[SelfConflictDieRole], known: bool) -> str:
    names = ", ".join(role.value for role in roles)
    more = "" if known else "; re-rolls may follow once both main dice are known"
    return f"{len(roles)} more face(s) needed ({names}) after the {given} given{more} (D7)."


def _refused(concern: Concern, roles: list[SelfConflictDieRole]) -> RulesError:
    """The table's faces refused; `faces-missing` with Self/Conflict's twist: the role of
    each face still needed (``roles``), in rolling order."""
    if concern.code != _FACES.missing_code:
        return RulesError.from_concerns([concern])
    return RulesError(
        concern.code,
        concern.detail,
        (concern,),
        {"missing": len(roles), "roles": [role.value for role in roles]},
    )


def resolve_check(
    request: TalentCheckRequest, rng: RandomSource, check_id: str
) -> TalentCheckResult:
    """Roll (or read the table's faces) and resolve one check; `odds` stays null (the
    odds asked are attached by the service, see
    :func:`~service.rulesets.self_conflict.rules.odds.talent_odds_request`).

    Raises:
        RulesError: `faces-and-seed`, `conflict-modifier-out-of-range`, `karma-insufficient`
            (all at once, before any die); then, with `faces`, `faces-missing` (extension
            members `missing` and `roles`) or `faces-extra`.
    """
    concerns = refusals(request)
    if request.faces is not None and request.seed is not None:
        concerns.insert(
            0, _FACES.faces_and_seed("Give the table's faces or a seed, not both (D7).")
        )
    if concerns:
        raise RulesError.from_concerns(concerns)

    level = request.talent.level
    karma = request.karma
    k = karma.modifier if karma is not None else 0
    m = request.conflict_modifier

    source = dice_source(rng, request.faces, request.seed)  # read in rolling order
    table = source if isinstance(source, TableFaces) else None
    if table is not None and table.left < 2:
        conflict = [SelfConflictDieRole.CONFLICT]
        missing = _missing_detail(table.left, conflict, known=False)
        raise _refused(_FACES.faces_missing("/faces", missing), conflict)
    self_face, conflict_face = source.randint(1, 6), source.randint(1, 6)

    critical = _critical(self_face, conflict_face)
    self_cmp, conflict_cmp = compare(self_face + k, level), compare(conflict_face + m, level)
    needed = (
        []
        if critical is not None
        else [
            role
            for role, comparison in (
                (SelfConflictDieRole.SELF_REROLL, self_cmp),
                (SelfConflictDieRole.CONFLICT_REROLL, conflict_cmp),
            )
            if comparison is SelfConflictComparison.EQUAL
        ]
    )
    if table is not None:
        given, left = table.read + table.left, table.left
        why = "a critical ends the roll" if critical else "one re-roll per equal main die"
        wrong = _FACES.count(
            left,
            len(needed),
            "/faces",
            missing=lambda n: _missing_detail(given, needed[-n:], known=True),
            extra=lambda n: (
                f"{n} face(s) too many: this check uses {2 + len(needed)} ({why}; D2, D7)."
            ),
        )
        if wrong is not None:
            raise _refused(wrong, needed[left:])
    rerolls = [source.randint(1, 6) for _ in needed]

    spare = iter(rerolls)
    self_reroll = next(spare) if self_cmp is SelfConflictComparison.EQUAL and not critical else None
    conflict_reroll = (
        next(spare) if conflict_cmp is SelfConflictComparison.EQUAL and not critical else None
    )
    self_points = None if critical else die_points(self_cmp, self_reroll)
    conflict_points = None if critical else die_points(conflict_cmp, conflict_reroll)

    dice = [
        SelfConflictDie(
            role=SelfConflictDieRole.SELF,
            face=self_face,
            modifier=k,
            modified=self_face + k,
            comparison=self_cmp,
            points=self_points,
        ),
        SelfConflictDie(
            role=SelfConflictDieRole.CONFLICT,
            face=conflict_face,
            modifier=m,
            modified=conflict_face + m,
            comparison=conflict_cmp,
            points=conflict_points,
        ),
    ]
    for role, face in (
        (SelfConflictDieRole.SELF_REROLL, self_reroll),
        (SelfConflictDieRole.CONFLICT_REROLL, conflict_reroll),
    ):
        if face is not None:
            dice.append(
                SelfConflictDie(
                    role=role, face=face, modifier=0, modified=None, comparison=None, points=face
                )
            )

    if critical is SelfConflictCritical.SUCCESS:
        total, outcome, outcome_label = None, SelfConflictOutcome.TOTAL_SUCCESS, "Critical success"
    elif critical is SelfConflictCritical.FAILURE:
        total, outcome, outcome_label = None, SelfConflictOutcome.FAILURE, "Critical failure"
    else:
        assert self_points is not None
        assert conflict_points is not None
        total = self_points + conflict_points
        outcome = outcome_of(total)
        outcome_label = _OUTCOME_LABELS[outcome]

    gained = 1 if critical is not None else 0
    modifiers = [
        SelfConflictModifierLine(
            source=SelfConflictModifierSource.GM,
            die=SelfConflictMainDie.CONFLICT,
            label=modifier.label,
            value=modifier.value,
        )
        for modifier in request.conflict_modifiers
    ]
    if k:
        modifiers.append(
            SelfConflictModifierLine(
                source=SelfConflictModifierSource.KARMA,
                die=SelfConflictMainDie.SELF,
                label=KARMA_LABEL,
                value=k,
            )
        )
    name = request.talent.name
    label = talent_label(level)
    assert label is not None
    result = TalentCheckResult(
        id=check_id,
        talent=SelfConflictTalentView(
            name=name,
            level=level,
            label=label,
            written=written_talent(name, level) if name is not None else None,
        ),
        faces=(self_face, conflict_face, *rerolls),
        dice=tuple(dice),
        modifiers=tuple(modifiers),
        critical=critical,
        total=total,
        outcome=outcome,
        outcome_label=outcome_label,
        karma=SelfConflictKarmaResult(
            balance_before=karma.balance if karma is not None else None,
            modifier=k,
            spent=abs(k),
            gained=gained,
            balance_after=karma.balance - abs(k) + gained if karma is not None else None,
        ),
        warnings=shape_warnings(request),
        summary="",  # read off the finished result, below
        odds=None,
    )
    return msgspec.structs.replace(result, summary=check_summary(result))
