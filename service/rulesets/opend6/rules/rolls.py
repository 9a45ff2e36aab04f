"""One roll ("Rolling Dice", "Wild Die", "Character Points", "Fate Points"): the rolled
code, every die with its role, the Critical Failure's two totals, the outcome against a
difficulty, result points and what they earn."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

import msgspec

from service.kernel.dice import RandomSource, with_seed
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value, as_view
from service.rulesets.opend6.rules.dice import FACES, rolled_faces, wild_die_only_faces
from service.rulesets.opend6.rules.difficulty import ResolvedDifficulty, resolve_difficulty
from service.rulesets.opend6.rules.rolled_code import BaseCode, CodeStep, RolledCode, rolled_code
from service.rulesets.opend6.rules.spec import (
    AvailableView,
    CriticalFailure,
    EquipmentBase,
    Faces,
    Level,
    RolledFaces,
    RollKind,
    RollRequest,
    RollShape,
    StandardDifficulty,
    WildDieOnlyDifficulty,
    cp_limit,
    cp_limit_text,
)

__all__ = [
    "CriticalFailureTotals",
    "DieRole",
    "PointsUsed",
    "RelatedModifier",
    "RollOutcome",
    "RollResult",
    "RolledDie",
    "WildDieSummary",
    "damage_bonus",
    "points_concerns",
    "related_skill_modifier",
    "resolve_roll",
]

CRITICAL_SUCCESS, CRITICAL_FAILURE = 6, 1


class DieRole(StrEnum):
    """What a die is in the roll."""

    REGULAR = "regular"
    WILD = "wild"
    WILD_EXPLOSION = "wild_explosion"
    CP = "cp"
    CP_EXPLOSION = "cp_explosion"


class Timing(StrEnum):
    """When a Character Point die was bought."""

    BEFORE = "before"
    AFTER = "after"


class RollOutcome(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"
    CRITICAL_SUCCESS = "critical_success"


class RolledDie(Value, frozen=True, kw_only=True):
    """One toss. ``chain`` numbers the exploding die it belongs to (the Wild Die is 0, CP
    dice 1…), ``counted`` is false for a die a Critical Failure cancels."""

    index: int
    role: DieRole
    chain: int | None
    face: int
    counted: bool
    timing: Timing | None = None


class WildDieSummary(Value, frozen=True, kw_only=True):
    """The Wild Die: its first toss, how often it exploded, and what that made the roll."""

    initial: int
    explosions: int
    critical: Literal["success", "failure"] | None


class CriticalFailureTotals(Value, frozen=True, kw_only=True):
    """An initial 1 on the Wild Die: the option applied and both totals, for the GM (D5)."""

    option: CriticalFailure
    cancelled: tuple[int, ...]
    total_if_cancel_highest: int
    total_if_complication: int


class RelatedModifier(Value, frozen=True, kw_only=True):
    """An earlier related roll and what it adds here (D10)."""

    label: str
    result_points: int
    modifier: int


class PointsSpent(Value, frozen=True, kw_only=True):
    character_points: int
    fate_points: int


class PointsUsed(Value, frozen=True, kw_only=True):
    """Points spent on the roll, and what the character has left (when given)."""

    spent: PointsSpent
    available_after: AvailableView | None


class RollResult(Value, frozen=True, kw_only=True):
    """Everything one roll produced. ``faces`` is request-shaped: send it back (with
    ``character_points.after``) to spend Character Points after seeing the roll."""

    id: str
    kind: RollKind
    base: BaseCode
    steps: tuple[CodeStep, ...]
    rolled_code: str
    dice: tuple[RolledDie, ...]
    wild: WildDieSummary | None
    critical_failure: CriticalFailureTotals | None
    complication: bool
    pips: int
    related: tuple[RelatedModifier, ...]
    total: int | None
    difficulty: ResolvedDifficulty | None
    outcome: RollOutcome | None
    result_points: int | None
    related_skill_modifier: int | None
    damage_bonus: int | None
    points: PointsUsed
    faces: RolledFaces | None
    warnings: tuple[Concern, ...]


def related_skill_modifier(result_points: int) -> int:
    """ "Free Actions (related skills)": ±max(1, ⌈|rp|/2⌉), + when rp ≥ 0 (D10)."""
    size = max(1, -(-abs(result_points) // 2))
    return size if result_points >= 0 else -size


def damage_bonus(result_points: int) -> int:
    """A successful attack's damage bonus: ⌈rp/5⌉ (D10)."""
    return -(-result_points // 5) if result_points > 0 else 0


def _refuse(code: str, pointer: str, detail: str) -> Concern:
    return Concern(code=f"opend6/{code}", pointer=pointer, detail=detail)


def points_concerns(request: RollShape) -> list[Concern]:
    """ "Character Points", "Fate Points", "Improving a Roll": what may be spent here."""
    concerns = []
    cp = request.character_points.before + request.character_points.after
    if request.fate_point and request.kind is RollKind.INITIATIVE:
        concerns.append(
            _refuse("fp-not-allowed", "/fate_point", "No Fate Point on initiative (D6).")
        )
    if request.fate_point and isinstance(request.base, EquipmentBase):
        concerns.append(
            _refuse(
                "fp-not-allowed",
                "/fate_point",
                "A Fate Point doubles the character's own code, not equipment's (D6).",
            )
        )
    if cp and request.fate_point and not request.cp_with_fp:
        concerns.append(
            _refuse(
                "cp-with-fp",
                "/character_points",
                "Character Points and a Fate Point on one roll need the GM's cinematic "
                '`cp_with_fp` ("Improving a Roll").',
            )
        )
    if cp > cp_limit(request.character_point_limit):  # null ("unlimited") is 20 too (D7)
        concerns.append(
            _refuse(
                "cp-limit",
                "/character_points",
                f"{cp} Character Points on one roll (before and after together); the limit "
                f"is {cp_limit_text(request.character_point_limit)}.",
            )
        )
    if (available := request.available) is not None:
        if cp > available.character_points:
            concerns.append(
                _refuse(
                    "not-enough-points",
                    "/character_points",
                    f"{cp} Character Points spent, {available.character_points} available.",
                )
            )
        if request.fate_point and available.fate_points < 1:
            concerns.append(_refuse("not-enough-points", "/fate_point", "No Fate Point available."))
    difficulty = getattr(request, "difficulty", None)  # opposed sides have none
    if isinstance(difficulty, WildDieOnlyDifficulty) and (cp or request.fate_point):
        concerns.append(
            _refuse(
                "points-on-wild-die-only",
                "/character_points" if cp else "/fate_point",
                "A Wild-Die-only roll is one toss: no Character Point or Fate Point (D14).",
            )
        )
    if isinstance(request, RollRequest) and request.faces is not None and request.seed is not None:
        concerns.append(FACES.faces_and_seed("Give the table's faces or a seed, not both."))
    return concerns


def _dice_of(faces: Faces) -> list[RolledDie]:
    dice: list[RolledDie] = []

    def add(role: DieRole, chain: int | None, face: int, timing: Timing | None = None) -> None:
        dice.append(
            RolledDie(
                index=len(dice), role=role, chain=chain, face=face, counted=True, timing=timing
            )
        )

    for face in faces.regular:
        add(DieRole.REGULAR, None, face)
    assert faces.wild is not None
    for position, face in enumerate(faces.wild):
        add(DieRole.WILD if position == 0 else DieRole.WILD_EXPLOSION, 0, face)
    cp_chains = [(chain, Timing.BEFORE) for chain in faces.character_points] + [
        (chain, Timing.AFTER) for chain in faces.character_points_after or ()
    ]
    for number, (chain, timing) in enumerate(cp_chains, start=1):
        for position, face in enumerate(chain):
            add(DieRole.CP if position == 0 else DieRole.CP_EXPLOSION, number, face, timing)
    return dice


def _cancelled(dice: list[RolledDie]) -> tuple[int, ...]:
    """The Wild Die's 1 and the highest regular die (the first of equals), D4."""
    wild = next(die.index for die in dice if die.role is DieRole.WILD)
    regular = [die for die in dice if die.role is DieRole.REGULAR]
    if not regular:
        return (wild,)
    highest = max(regular, key=lambda die: (die.face, -die.index))
    return (wild, highest.index)


def resolve_roll(request: RollRequest, rng: RandomSource, roll_id: str) -> RollResult:
    """Roll (or read the table's faces), total it and judge it against the difficulty.

    Raises:
        RulesError: every reason the roll cannot be made as asked, at once.
    """
    concerns = points_concerns(request)
    try:
        code = rolled_code(request)
    except RulesError as error:
        raise RulesError.from_concerns([*concerns, *error.concerns]) from None
    difficulty = resolve_difficulty(request, concerns)
    if (
        not concerns
        and isinstance(request.difficulty, StandardDifficulty)
        and (request.difficulty.level is Level.AUTOMATIC)
    ):
        return _automatic(request, code, difficulty, roll_id)
    source = with_seed(rng, request.seed)
    wild_only = isinstance(request.difficulty, WildDieOnlyDifficulty)
    cp_before, cp_after = request.character_points.before, request.character_points.after
    try:  # the table's faces are checked even when something else is refused: all at once
        if wild_only:
            faces = wild_die_only_faces(request.faces, source)
        else:
            faces = rolled_faces(code.dice - 1, cp_before, cp_after, request.faces, source)
    except RulesError as error:
        concerns.extend(error.concerns)
    if concerns:
        raise RulesError.from_concerns(concerns)
    dice = _dice_of(faces)
    assert faces.wild is not None
    initial = faces.wild[0]
    related = tuple(
        RelatedModifier(
            label=item.label,
            result_points=item.result_points,
            modifier=related_skill_modifier(item.result_points),
        )
        for item in request.related
    )
    pips = 0 if wild_only else code.pips
    added = pips + sum(item.modifier for item in related)
    complication_total = sum(die.face for die in dice) + added
    critical_failure = None
    total = complication_total
    complication = False
    if wild_only:
        total = initial
    elif initial == CRITICAL_FAILURE:
        cancelled = _cancelled(dice)
        cancel_total = complication_total - sum(dice[i].face for i in cancelled)
        critical_failure = CriticalFailureTotals(
            option=request.critical_failure,
            cancelled=cancelled,
            total_if_cancel_highest=cancel_total,
            total_if_complication=complication_total,
        )
        if request.critical_failure is CriticalFailure.CANCEL_HIGHEST:
            total = cancel_total
            dice = [
                msgspec.structs.replace(die, counted=False) if die.index in cancelled else die
                for die in dice
            ]
        else:
            complication = True
    wild = WildDieSummary(
        initial=initial,
        explosions=len(faces.wild) - 1,
        critical=(
            "success"
            if initial == CRITICAL_SUCCESS
            else "failure"
            if initial == CRITICAL_FAILURE
            else None
        ),
    )
    outcome, result_points = None, None
    if difficulty is not None:
        outcome, result_points, complication = _judge(
            request, difficulty, total, initial, complication, wild_only=wild_only
        )
    modifier = related_skill_modifier(result_points) if result_points is not None else None
    bonus = None
    if result_points is not None and request.kind is RollKind.ATTACK:
        bonus = damage_bonus(result_points) if outcome is not RollOutcome.FAILURE else 0
    fate = 1 if request.fate_point else 0
    available = request.available
    return RollResult(
        id=roll_id,
        kind=request.kind,
        base=code.base,
        steps=code.steps,
        rolled_code=code.text,
        dice=tuple(dice),
        wild=wild,
        critical_failure=critical_failure,
        complication=complication,
        pips=pips,
        related=related,
        total=total,
        difficulty=difficulty,
        outcome=outcome,
        result_points=result_points,
        related_skill_modifier=modifier,
        damage_bonus=bonus,
        points=PointsUsed(
            spent=PointsSpent(character_points=cp_before + cp_after, fate_points=fate),
            available_after=(
                AvailableView(
                    character_points=available.character_points - cp_before - cp_after,
                    fate_points=available.fate_points - fate,
                )
                if available is not None
                else None
            ),
        ),
        faces=RolledFaces.of(faces),
        warnings=(),
    )


def _automatic(
    request: RollRequest,
    code: RolledCode,
    difficulty: ResolvedDifficulty | None,
    roll_id: str,
) -> RollResult:
    """ "Standard Difficulties": an automatic task succeeds; nothing is rolled or spent."""
    return RollResult(
        id=roll_id,
        kind=request.kind,
        base=code.base,
        steps=code.steps,
        rolled_code=code.text,
        dice=(),
        wild=None,
        critical_failure=None,
        complication=False,
        pips=code.pips,
        related=(),
        total=None,
        difficulty=difficulty,
        outcome=RollOutcome.SUCCESS,
        result_points=None,
        related_skill_modifier=None,
        damage_bonus=None,
        points=PointsUsed(
            spent=PointsSpent(character_points=0, fate_points=0),
            available_after=(
                as_view(request.available, AvailableView) if request.available is not None else None
            ),
        ),
        faces=None,
        warnings=(),
    )


def _judge(
    request: RollRequest,
    difficulty: ResolvedDifficulty,
    total: int,
    initial: int,
    complication: bool,
    *,
    wild_only: bool,
) -> tuple[RollOutcome, int | None, bool]:
    """ "Determining Success": the total meets the difficulty (a resisting roll must beat
    it, D2); a Wild-Die-only roll reads its one toss (D14)."""
    if wild_only:
        if initial == CRITICAL_SUCCESS:
            return RollOutcome.CRITICAL_SUCCESS, None, False
        return RollOutcome.SUCCESS, None, initial == CRITICAL_FAILURE
    result_points = total - difficulty.value
    won = result_points >= 0 if request.roller_is_initiator else result_points > 0
    return (RollOutcome.SUCCESS if won else RollOutcome.FAILURE), result_points, complication
