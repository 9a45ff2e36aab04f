"""A single check (§2): modifiers, roll, yield, spread, outcome, labels, depletion and
restoration (§3.2.6)."""

from __future__ import annotations

from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.bounds import Name, Seed
from service.kernel.dice import RandomSource, with_seed
from service.kernel.errors import Concern, RulesError
from service.kernel.receipts import Receipt, ReceiptWanted
from service.kernel.summary import Summary
from service.kernel.values import Value
from service.rulesets.bullseye.rules.check_odds_answer import CheckOdds
from service.rulesets.bullseye.rules.codes import RuleCode
from service.rulesets.bullseye.rules.conditions import (
    State,
    condition,
    fitness_concerns,
    impairment_of,
    restore,
    score_concerns,
)
from service.rulesets.bullseye.rules.depletion import DepletionSide, Loser, settle
from service.rulesets.bullseye.rules.dice import (
    DICE,
    DiceKind,
    count_members,
    roll,
    supplied_roll_concerns,
)
from service.rulesets.bullseye.rules.limits import (
    MAX_CHECK_QUALITIES,
    MAX_DEPLETABLES,
    MAX_SITUATIONAL,
    Face,
    Score,
    ScoreMaximum,
    Target,
)
from service.rulesets.bullseye.rules.modifiers import (
    ModifierLine,
    ModifierSource,
    Quality,
    Situational,
    quality_modifiers,
    situational_modifiers,
)
from service.rulesets.bullseye.rules.narration import Narrator, Outcome, narrator_for, outcome_of
from service.rulesets.bullseye.rules.summary import check_summary
from service.rulesets.bullseye.rules.tables import TABLES, TableName, labeller

__all__ = [
    "BULLSEYE_RESULT",
    "QUICK10_RESULT",
    "CheckRequest",
    "CheckResult",
    "CheckShape",
    "DepletableAfter",
    "DepletableScore",
    "DepletionAtIssue",
    "DepletionResult",
    "DepletionSide",
    "Effort",
    "Loser",
    "Restoration",
    "RestorationResult",
    "SuppliedRoll",
    "affected_scores",
    "check_refusals",
    "modifier_lines",
    "resolve_check",
    "restored_current",
    "restored_score",
    "roll_effort",
    "spend_bullseye",
]

QUICK10_RESULT = 10  # §2.5
BULLSEYE_RESULT = 20  # §7.2


class DepletableScore(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One of the actor's depletable qualities, as it stands before the check."""

    name: Name
    current: Score
    maximum: ScoreMaximum


class DepletionAtIssue(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Declared before the roll: the depletable quality is at issue (§3.2.1)."""

    actor: DepletionSide = DepletionSide()
    opposition: DepletionSide = DepletionSide()
    affects: Annotated[tuple[Name, ...], Meta(max_length=MAX_DEPLETABLES)] = ()


class Restoration(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """§3.2.6: this check restores a depletable score — on a success by its spread, never
    above the maximum; a failure or a stalemate restores nothing. Give exactly one of
    `depletable` and `patient` (both or neither: 422 `restoration-target`). `depletable`
    names one of the actor's own `depletable` scores: the patient's own check, so the actor
    is fit, as for any check (an incapacitated or retired actor is refused, §3.2.4, §3.2.5).
    `patient` is someone else's score: a healer's check. The patient may be incapacitated,
    but a retired one (0 or below, §3.2.5) is out of the game and cannot be restored: 422
    `patient-retired` (decision). A check restores or has a depletable quality at issue,
    not both: with a `depletion` block, 422 `restoration-with-depletion` (decision). A
    Quick 10 (§2.5) may restore."""

    depletable: Annotated[
        Name | None,
        Meta(description="The name of one of the actor's own `depletable` scores to restore."),
    ] = None
    patient: Annotated[
        DepletableScore | None,
        Meta(description="Someone else's depletable score, as it stands before the check."),
    ] = None


class SuppliedRoll(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Faces the player rolled at the table, in place of a server roll."""

    faces: Annotated[tuple[Face, ...], Meta(min_length=1, max_length=4)]


class CheckShape(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A check against a target (§2.1) as it stands before the dice: what a check and its
    odds (``check_odds``) share."""

    target: Target
    qualities: Annotated[tuple[Quality, ...], Meta(max_length=MAX_CHECK_QUALITIES)] = ()
    situational: Annotated[tuple[Situational, ...], Meta(max_length=MAX_SITUATIONAL)] = ()
    depletable: Annotated[tuple[DepletableScore, ...], Meta(max_length=MAX_DEPLETABLES)] = ()
    depletion: DepletionAtIssue | None = None
    restoration: Restoration | None = None
    dice: DiceKind = DiceKind.D20
    quick10: bool = False
    bullseye: bool = False
    strict: bool = False


class CheckRequest(CheckShape, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A check against a target (§2.1)."""

    roll: SuppliedRoll | None = None
    seed: Seed | None = None
    receipt: ReceiptWanted = False
    with_odds: Annotated[
        bool,
        Meta(
            description="Also answer `odds`: the check's odds as they stood before the roll, "
            "as `checkOdds` gives them for this body less `roll`, `seed` and `with_odds`."
        ),
    ] = False


class DepletableAfter(Value, frozen=True, kw_only=True):
    """A depletable quality after the check, with its new condition."""

    name: str
    current: int
    maximum: int
    impairment: int
    state: State


class DepletionResult(Value, frozen=True, kw_only=True):
    """Who lost, by how much, and the actor's affected scores afterwards."""

    loser: Loser
    amount: int
    after: tuple[DepletableAfter, ...]


class RestorationResult(Value, frozen=True, kw_only=True):
    """What a restoring check did (§3.2.6): the points actually restored (0 on a failure
    or a stalemate, and never past the maximum) and the score after, with its condition."""

    name: str
    restored: int
    after: DepletableAfter


class CheckResult(Value, frozen=True, kw_only=True):
    """Everything a check produced, with every modifier explained; `restoration` is null
    unless the request asked for one (§3.2.6), `odds` unless it asked `with_odds`."""

    id: str
    dice: DiceKind
    faces: tuple[int, ...]
    die_result: int
    quick10: bool
    bullseye: bool
    modifiers: tuple[ModifierLine, ...]
    total_modifier: int
    yield_: int = msgspec.field(name="yield")
    target: int
    spread: int
    outcome: Outcome
    yield_label: str
    target_label: str
    spread_label: str
    narrator: Narrator
    depletion: DepletionResult | None
    warnings: tuple[Concern, ...]
    # Read off the finished result by resolve_check; the default lets outcome checks stored
    # before summaries existed decode (§4.4, rules/conflicts/model.py).
    summary: Summary = ""
    restoration: RestorationResult | None = None
    odds: CheckOdds | None = None
    receipt: Receipt = None


# The three tables every check labels its numbers with, looked up once.
_yield_label = labeller(TABLES[TableName.YIELD])
_target_label = labeller(TABLES[TableName.TARGET])
_spread_label = labeller(TABLES[TableName.SPREAD])


def check_refusals(
    request: CheckShape, roll: SuppliedRoll | None = None, seed: int | None = None
) -> list[Concern]:
    """Everything that makes the check impossible as asked, whatever ``strict`` says: the
    check's own, and its odds' (which have no ``roll`` or ``seed``)."""
    concerns: list[Concern] = []

    def refuse(code: RuleCode, pointer: str, detail: str) -> None:
        concerns.append(Concern(code=code, pointer=pointer, detail=detail))

    if request.quick10:
        if request.depletion is not None:
            refuse(
                RuleCode.QUICK10_WITH_DEPLETION,
                "/quick10",
                "A Quick 10 may not be used when a depletable quality is at issue (§2.5).",
            )
        if roll is not None:
            refuse(
                RuleCode.QUICK10_WITH_ROLL,
                "/roll",
                "A Quick 10 replaces the roll (§2.5); do not also supply faces.",
            )
        if request.bullseye:
            refuse(
                RuleCode.QUICK10_WITH_BULLSEYE,
                "/bullseye",
                "A bullseye replaces a rolled result (§7.2); a Quick 10 rolls nothing.",
            )
    if roll is not None:
        concerns.extend(supplied_roll_concerns(request.dice, roll.faces, seed, ""))

    seen: set[str] = set()
    for index, score in enumerate(request.depletable):
        if score.name.casefold() in seen:
            refuse(
                RuleCode.DUPLICATE_DEPLETABLE,
                f"/depletable/{index}/name",
                f"The depletable quality '{score.name}' is listed twice.",
            )
        seen.add(score.name.casefold())
        if above := score_concerns(score.maximum, score.current, f"/depletable/{index}/current"):
            concerns.extend(above)
            continue
        concerns.extend(
            fitness_concerns(
                f"'{score.name}'", score.maximum, score.current, f"/depletable/{index}/current"
            )
        )

    if request.depletion is not None:
        names = {score.name.casefold() for score in request.depletable}
        for index, name in enumerate(request.depletion.affects):
            if name.casefold() not in names:
                refuse(
                    RuleCode.UNKNOWN_DEPLETABLE,
                    f"/depletion/affects/{index}",
                    f"'{name}' is not one of the depletable qualities given in 'depletable'.",
                )
        if not request.depletion.affects and len(request.depletable) > 1:
            refuse(
                RuleCode.AFFECTS_REQUIRED,
                "/depletion/affects",
                "With two depletable qualities, name the one(s) this check affects (§7.6).",
            )
    if request.restoration is not None:
        concerns.extend(_restoration_refusals(request, request.restoration))
    return concerns


def _restoration_refusals(request: CheckShape, restoration: Restoration) -> list[Concern]:
    """§3.2.6: one score to restore, the actor's own or a patient's who is not retired."""
    concerns: list[Concern] = []
    if request.depletion is not None:
        concerns.append(
            Concern(
                code=RuleCode.RESTORATION_WITH_DEPLETION,
                pointer="/restoration",
                detail="A check either restores a depletable score (§3.2.6) or has one at "
                "issue (§3.2.1), not both: drop the depletion block or the restoration.",
            )
        )
    if (restoration.depletable is None) == (restoration.patient is None):
        concerns.append(
            Concern(
                code=RuleCode.RESTORATION_TARGET,
                pointer="/restoration",
                detail="Say whose score this check restores: 'depletable' names one of the "
                "actor's own, 'patient' gives someone else's; exactly one of the two.",
            )
        )
        return concerns
    if restoration.depletable is not None:
        names = {score.name.casefold() for score in request.depletable}
        if restoration.depletable.casefold() not in names:
            concerns.append(
                Concern(
                    code=RuleCode.UNKNOWN_DEPLETABLE,
                    pointer="/restoration/depletable",
                    detail=f"'{restoration.depletable}' is not one of the depletable "
                    "qualities given in 'depletable'.",
                )
            )
    elif restoration.patient is not None:
        patient = restoration.patient
        pointer = "/restoration/patient/current"
        if above := score_concerns(patient.maximum, patient.current, pointer):
            concerns.extend(above)
        elif condition(patient.maximum, patient.current).state is State.RETIRED:
            concerns.append(
                Concern(
                    code=RuleCode.PATIENT_RETIRED,
                    pointer=pointer,
                    detail=f"The patient's '{patient.name}' is at {patient.current}: retired, "
                    "out of the game (§3.2.5), it can no longer be restored.",
                )
            )
    return concerns


def _impairment_lines(scores: tuple[DepletableScore, ...]) -> list[ModifierLine]:
    """§3.2.3 impairment; with several depletable qualities only the greatest applies (§7.6)."""
    if len(scores) == 1:  # the usual case: one score, its impairment (if any) in full
        score = scores[0]
        if impairment := impairment_of(score.maximum, score.current):
            return [_impairment_line(score.name, impairment, None)]
        return []
    impaired = [
        (score.name, impairment)
        for score in scores
        if (impairment := impairment_of(score.maximum, score.current))
    ]
    if not impaired:
        return []
    greatest = min(range(len(impaired)), key=lambda i: impaired[i][1])
    return [
        _impairment_line(name, impairment, None)
        if index == greatest
        else _impairment_line(name, impairment, "only the greatest impairment applies (§7.6)")
        for index, (name, impairment) in enumerate(impaired)
    ]


def _impairment_line(name: str, impairment: int, outdone: str | None) -> ModifierLine:
    """An impairment's line: applied in full, or not at all when ``outdone`` says why."""
    return ModifierLine(
        source=ModifierSource.IMPAIRMENT,
        name=name,
        type=None,
        magnitude=impairment,
        applied=impairment if outdone is None else 0,
        note=outdone,
    )


def affected_scores(request: CheckShape) -> tuple[DepletableScore, ...]:
    """The actor's scores a check at issue depletes: those ``depletion.affects`` names, or
    the one depletable score when it names none (§3.2.1, §7.6); none without a block."""
    if request.depletion is None:
        return ()
    affected = {name.casefold() for name in request.depletion.affects}
    return tuple(
        score
        for score in request.depletable
        if score.name.casefold() in affected or (not affected and len(request.depletable) == 1)
    )


def restored_score(request: CheckShape) -> DepletableScore | None:
    """The score a restoring check restores (§3.2.6): the patient's, or the actor's own
    that ``restoration.depletable`` names; None without a restoration block."""
    restoration = request.restoration
    if restoration is None:
        return None
    if restoration.patient is not None:
        return restoration.patient
    wanted = (restoration.depletable or "").casefold()
    return next(s for s in request.depletable if s.name.casefold() == wanted)


def restored_current(score: DepletableScore, spread: int) -> int:
    """§3.2.6: a success restores ``spread`` points, never above the maximum; a failure or
    a stalemate restores nothing."""
    return restore(score.maximum, score.current, spread) if spread > 0 else score.current


def _depletion(request: CheckRequest, spread: int) -> DepletionResult | None:
    at_issue = request.depletion
    if at_issue is None:
        return None
    loser, amount = settle(spread, at_issue.actor, at_issue.opposition)
    lost = amount if loser is Loser.ACTOR else 0
    after = []
    for score in affected_scores(request):
        current = score.current - lost
        now = condition(score.maximum, current)
        after.append(
            DepletableAfter(
                name=score.name,
                current=current,
                maximum=score.maximum,
                impairment=now.impairment,
                state=now.state,
            )
        )
    return DepletionResult(loser=loser, amount=amount, after=tuple(after))


def _restoration(request: CheckRequest, spread: int) -> RestorationResult | None:
    score = restored_score(request)
    if score is None:
        return None
    current = restored_current(score, spread)
    now = condition(score.maximum, current)
    return RestorationResult(
        name=score.name,
        restored=current - score.current,
        after=DepletableAfter(
            name=score.name,
            current=current,
            maximum=score.maximum,
            impairment=now.impairment,
            state=now.state,
        ),
    )


class Effort(Value, frozen=True, kw_only=True):
    """A participant's roll and modifiers: what a check is before a target meets it."""

    faces: tuple[int, ...]
    die_result: int
    bullseye: bool
    modifiers: tuple[ModifierLine, ...]
    total_modifier: int
    yield_: int = msgspec.field(name="yield")
    yield_label: str
    warnings: tuple[Concern, ...] = ()


def modifier_lines(
    qualities: tuple[Quality, ...],
    situational: tuple[Situational, ...],
    depletable: tuple[DepletableScore, ...],
    *,
    strict: bool,
    bonus: tuple[ModifierLine, ...] = (),
) -> tuple[tuple[ModifierLine, ...], list[Concern]]:
    """Every modifier of a check (§2.2, §6.3) and the §6.3 concerns to warn about.

    Raises:
        RulesError: ``strict`` and a §6.3 "should" is broken.
    """
    if not (qualities or situational or depletable or bonus):
        return (), []  # a bare roll: nothing to add, nothing to warn about
    quality_lines, quality_concerns = quality_modifiers(qualities)
    situational_lines, situational_concerns = situational_modifiers(situational)
    concerns = quality_concerns + situational_concerns
    if concerns and strict:
        raise RulesError.from_concerns(concerns)
    lines = (*quality_lines, *situational_lines, *_impairment_lines(depletable), *bonus)
    return lines, concerns


def _die(
    dice: DiceKind,
    rng: RandomSource,
    supplied: SuppliedRoll | None,
    seed: int | None,
    *,
    quick10: bool,
    bullseye: bool,
) -> tuple[tuple[int, ...], int]:
    """The faces shown and the die result they give (§2.1.2, §2.5, §7.1, §7.2)."""
    if quick10:
        return (), QUICK10_RESULT
    faces = supplied.faces if supplied is not None else roll(dice, with_seed(rng, seed))
    return faces, BULLSEYE_RESULT if bullseye else DICE[dice].result(faces)


def _total(lines: tuple[ModifierLine, ...]) -> int:
    """The modifiers applied, added up (a loop: cheaper than ``sum`` over a generator)."""
    total = 0
    for line in lines:
        total += line.applied
    return total


def roll_effort(
    lines: tuple[ModifierLine, ...],
    *,
    dice: DiceKind,
    rng: RandomSource,
    supplied: SuppliedRoll | None = None,
    seed: int | None = None,
    quick10: bool = False,
    bullseye: bool = False,
    warnings: tuple[Concern, ...] = (),
) -> Effort:
    """Roll (or take the supplied faces, or a Quick 10) and add the modifiers: the yield."""
    faces, die_result = _die(dice, rng, supplied, seed, quick10=quick10, bullseye=bullseye)
    total_modifier = _total(lines)
    yield_ = die_result + total_modifier
    return Effort(
        faces=faces,
        die_result=die_result,
        bullseye=bullseye,
        modifiers=lines,
        total_modifier=total_modifier,
        yield_=yield_,
        yield_label=_yield_label(yield_),
        warnings=warnings,
    )


def spend_bullseye(effort: Effort) -> Effort:
    """§7.2 after the roll is seen: the die result becomes 20; the faces stay on record."""
    yield_ = BULLSEYE_RESULT + effort.total_modifier
    return msgspec.structs.replace(
        effort,
        die_result=BULLSEYE_RESULT,
        bullseye=True,
        yield_=yield_,
        yield_label=_yield_label(yield_),
    )


def _count_members(kind: DiceKind, roll: SuppliedRoll | None) -> dict[str, int]:
    """`missing` or `extra`, the problem's member for faces of the wrong count."""
    return {} if roll is None else count_members(kind, roll.faces)


def resolve_check(
    request: CheckRequest,
    rng: RandomSource,
    check_id: str,
    bonus: tuple[ModifierLine, ...] = (),
) -> CheckResult:
    """Resolve one check; ``rng`` rolls unless the request gives a seed, faces or Quick 10.

    ``bonus`` adds modifiers from outside the check, such as a conflict score (§4.4).

    Raises:
        RulesError: the rules refuse the check; every reason is listed.
    """
    if refusals := check_refusals(request, request.roll, request.seed):
        raise RulesError.from_concerns(refusals, _count_members(request.dice, request.roll))
    lines, warnings = modifier_lines(
        request.qualities,
        request.situational,
        request.depletable,
        strict=request.strict,
        bonus=bonus,
    )
    if request.quick10 and request.seed is not None:
        warnings.append(
            Concern(
                code=RuleCode.SEED_IGNORED,
                pointer="/seed",
                detail="A Quick 10 rolls nothing, so the seed was not used.",
            )
        )
    faces, die_result = _die(
        request.dice,
        rng,
        request.roll,
        request.seed,
        quick10=request.quick10,
        bullseye=request.bullseye,
    )
    total_modifier = _total(lines)
    yield_ = die_result + total_modifier
    spread = yield_ - request.target
    outcome = outcome_of(spread)
    result = CheckResult(
        id=check_id,
        dice=request.dice,
        faces=faces,
        die_result=die_result,
        quick10=request.quick10,
        bullseye=request.bullseye,
        modifiers=lines,
        total_modifier=total_modifier,
        yield_=yield_,
        target=request.target,
        spread=spread,
        outcome=outcome,
        yield_label=_yield_label(yield_),
        target_label=_target_label(request.target),
        spread_label=_spread_label(spread),
        narrator=narrator_for(outcome),
        depletion=_depletion(request, spread),
        warnings=tuple(warnings),
        restoration=_restoration(request, spread),
    )
    return msgspec.structs.replace(result, summary=check_summary(result))
