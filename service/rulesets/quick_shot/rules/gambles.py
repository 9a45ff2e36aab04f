"""One gamble ("Gambles", "Step 1: Initiation" … "Step 4: Resolution"): the actions, the
dice a bet buys, the groups each action takes, criticals and willpower.

Order: refuse what the rules cannot take (D2's bets, the dice's source, D9), roll or read
the dice (base dice first, then the WP dice), find the good ones (TN − 1 and up, D2),
decide the actions in list order on disjoint groups (D3), then the overall outcome (D4),
criticals (D5), consequences (D7) and the WP that changes hands (D8).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Annotated

import msgspec
from msgspec import Meta

from service.kernel.bounds import Label, Seed
from service.kernel.dice import FaceRefusals, RandomSource, dice_source
from service.kernel.errors import Concern, RulesError
from service.kernel.receipts import Receipt, ReceiptWanted
from service.kernel.summary import Summary
from service.kernel.values import Value
from service.rulesets.quick_shot.rules.bets import (
    QuickShotWillpower,
    QuickShotWpResult,
    WpSource,
    settle,
)
from service.rulesets.quick_shot.rules.difficulties import (
    BASE_DICE,
    DICE_FOR_BET,
    LEVELS,
    MAX_ACTIONS,
    MAX_TARGET_NUMBER,
    MIN_TARGET_NUMBER,
    SEED_TARGET_NUMBER,
    SIDES,
    Difficulty,
    effective_level,
    good_faces,
)
from service.rulesets.quick_shot.rules.effect import list_order_successes, plan, pool_effect
from service.rulesets.quick_shot.rules.odds_answer import QuickShotOddsAnswer
from service.rulesets.quick_shot.rules.summary import gamble_summary

__all__ = [
    "ActionKind",
    "Consequence",
    "QuickShotAction",
    "QuickShotActionResult",
    "QuickShotCritical",
    "QuickShotDie",
    "QuickShotDieRole",
    "QuickShotGambleRequest",
    "QuickShotGambleResult",
    "QuickShotGambleShape",
    "QuickShotOddsRequest",
    "QuickShotOutcome",
    "QuickShotResult",
    "QuickShotWarning",
    "QuickShotWarningCode",
    "critical_of",
    "dice_count",
    "effective_levels",
    "resolve_gamble",
    "shape_refusals",
]

MAX_DICE = max(DICE_FOR_BET.values())
CRITICAL_ONES = 2  # "Criticals": a set of ones (D5)

Face = Annotated[int, Meta(ge=1, le=SIDES, description="One face of a d8.")]


class ActionKind(StrEnum):
    """What an action stands for (D7): the player's aim, or a danger the GM adds."""

    PRIMARY = "primary"
    INJURY = "injury"
    FATIGUE = "fatigue"
    PARADOX = "paradox"


class Consequence(StrEnum):
    """What an added action's result means ("Damage", "Fatigue", "Paradox", D7)."""

    WOUND_KEPT_SAFE = "wound-kept-safe"
    INJURY_WORSENS = "injury-worsens"
    INJURY_WORSENS_BADLY = "injury-worsens-badly"
    FATIGUE_HELD = "fatigue-held"
    FATIGUE_TELLS = "fatigue-tells"
    FATIGUE_COLLAPSE = "fatigue-collapse"
    COHESION_KEPT = "cohesion-kept"
    PARADOX_EFFECT = "paradox-effect"
    PARADOX_EFFECT_SEVERE = "paradox-effect-severe"


# kind → (success, failure, critical failure)
_CONSEQUENCES = {
    ActionKind.INJURY: (
        Consequence.WOUND_KEPT_SAFE,
        Consequence.INJURY_WORSENS,
        Consequence.INJURY_WORSENS_BADLY,
    ),
    ActionKind.FATIGUE: (
        Consequence.FATIGUE_HELD,
        Consequence.FATIGUE_TELLS,
        Consequence.FATIGUE_COLLAPSE,
    ),
    ActionKind.PARADOX: (
        Consequence.COHESION_KEPT,
        Consequence.PARADOX_EFFECT,
        Consequence.PARADOX_EFFECT_SEVERE,
    ),
}


class QuickShotResult(StrEnum):
    """One action's result."""

    SUCCESS = "success"
    FAILURE = "failure"


class QuickShotOutcome(StrEnum):
    """The gamble's outcome: `declined` when the player accepted failure (D9)."""

    SUCCESS = "success"
    FAILURE = "failure"
    DECLINED = "declined"


class QuickShotCritical(StrEnum):
    """Two or more 1s among all dice, on a success or a failure (D5)."""

    SUCCESS = "success"
    FAILURE = "failure"


class QuickShotDieRole(StrEnum):
    """A base die, or one a WP bet bought ("Bolstering")."""

    BASE = "base"
    WP = "wp"


class QuickShotWarningCode(StrEnum):
    """Guidance the gamble went ahead despite."""

    ROLL_NOT_NEEDED = "roll-not-needed"
    CRITICAL_WITHOUT_WP = "critical-without-wp"


class QuickShotAction(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One action of the gamble ("Step 2: Clarification"); two or more are a
    multi-action."""

    difficulty: Annotated[
        Difficulty,
        Meta(description='"Effect 1: Minor" … "Effect 5: Overwhelming": levels 1–5.'),
    ]
    kind: Annotated[
        ActionKind,
        Meta(description="`injury`, `fatigue`, `paradox`: an action the GM adds (D7)."),
    ] = ActionKind.PRIMARY
    teamwork: Annotated[
        bool, Meta(description='"Team Work": one level easier, never below Minor (D6).')
    ] = False
    label: Label | None = None


class QuickShotGambleShape(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Everything that shapes a gamble, short of its dice."""

    actions: Annotated[
        tuple[QuickShotAction, ...],
        Meta(
            min_length=1,
            max_length=MAX_ACTIONS,
            description="Decided in this order on disjoint groups of dice (D3): put the "
            "action that matters most first.",
        ),
    ]
    wp_bet: Annotated[
        int,
        Meta(
            ge=0,
            le=3,
            description='"Bolstering": 0, 1 (a ninth die) or 3 WP (a ninth and tenth); 2 is '
            "refused (422 `wp-bet-invalid`).",
        ),
    ] = 0
    target_number: Annotated[
        int,
        Meta(
            ge=MIN_TARGET_NUMBER,
            le=MAX_TARGET_NUMBER,
            description='The stat\'s TN after charges ("Cost"); a die is good at TN − 1 and up '
            "(D2).",
        ),
    ] = SEED_TARGET_NUMBER


class QuickShotOddsRequest(QuickShotGambleShape, frozen=True, kw_only=True):
    """A gamble before it is rolled: the `quickShotGamble` body without `faces`, `seed`,
    `decline` or `willpower`."""


class QuickShotGambleRequest(QuickShotGambleShape, frozen=True, kw_only=True):
    """One gamble: the actions, the bet, the TN, and optionally the dice."""

    decline: Annotated[
        bool,
        Meta(description='"Step 3: Going for It": accept failure, roll nothing (D9).'),
    ] = False
    willpower: QuickShotWillpower | None = None
    faces: (
        Annotated[
            tuple[Face, ...],
            Meta(
                min_length=1,
                max_length=MAX_DICE,
                description="The table's dice: the 8 base dice first, then the WP dice; "
                "exactly as many as the bet buys.",
            ),
        ]
        | None
    ) = None
    seed: Seed | None = None
    with_odds: Annotated[
        bool,
        Meta(
            description="Also answer `odds`: exactly what `quickShotGambleOdds` answers for "
            "this gamble's actions, bet and TN (declined too: they are what a player "
            "consults before declining)."
        ),
    ] = False
    receipt: ReceiptWanted = False


class QuickShotDie(Value, frozen=True, kw_only=True):
    """One die rolled, and the action whose group it joined (null: none)."""

    index: Annotated[int, Meta(ge=0, le=MAX_DICE - 1)]
    face: Face
    role: QuickShotDieRole
    good: bool
    one: bool
    action: Annotated[int, Meta(ge=0, le=MAX_ACTIONS - 1)] | None


class QuickShotActionResult(Value, frozen=True, kw_only=True):
    """One action decided. `effect` is exactly its effective level on a success (its group
    is minimal), 0 on a failure."""

    index: Annotated[int, Meta(ge=0, le=MAX_ACTIONS - 1)]
    difficulty: Difficulty
    level: Annotated[int, Meta(ge=1, le=5)]
    effective_level: Annotated[int, Meta(ge=1, le=5)]
    kind: ActionKind
    teamwork: bool
    label: Label | None
    result: QuickShotResult
    critical: QuickShotCritical | None
    effect: Annotated[int, Meta(ge=0, le=5)]
    dice: Annotated[tuple[Annotated[int, Meta(ge=0, le=MAX_DICE - 1)], ...], Meta(max_length=10)]
    consequence: Consequence | None


class QuickShotWarning(Value, frozen=True, kw_only=True):
    """Guidance the gamble went ahead despite."""

    code: QuickShotWarningCode
    detail: Annotated[str, Meta(max_length=300)]


class QuickShotGambleResult(Value, frozen=True, kw_only=True):
    """Everything one gamble produced. Sending `faces` back replays it exactly."""

    id: Annotated[str, Meta(max_length=64)]
    dice_count: Annotated[int, Meta(ge=0, le=MAX_DICE, description="8, 9 or 10; 0 declined.")]
    target_number: Annotated[int, Meta(ge=MIN_TARGET_NUMBER, le=MAX_TARGET_NUMBER)]
    good_faces: Annotated[tuple[Face, ...], Meta(max_length=7)]
    faces: Annotated[tuple[Face, ...], Meta(max_length=MAX_DICE)]
    dice: Annotated[tuple[QuickShotDie, ...], Meta(max_length=MAX_DICE)]
    pool_effect: Annotated[
        int, Meta(ge=0, le=MAX_DICE, description="All good dice as one group (D2).")
    ]
    ones: Annotated[int, Meta(ge=0, le=MAX_DICE)]
    actions: Annotated[tuple[QuickShotActionResult, ...], Meta(min_length=1, max_length=6)]
    outcome: QuickShotOutcome
    critical: QuickShotCritical | None
    outcome_label: Annotated[
        str,
        Meta(
            max_length=20,
            description="Success, Failure, Critical success, Critical failure or Declined.",
        ),
    ]
    wp: QuickShotWpResult
    warnings: Annotated[tuple[QuickShotWarning, ...], Meta(max_length=2)]
    summary: Summary
    odds: Annotated[
        QuickShotOddsAnswer | None,
        Meta(
            description="With `with_odds`: the gamble's odds before its dice, as "
            "`quickShotGambleOdds` answers them; else null."
        ),
    ]
    receipt: Receipt = None


def effective_levels(shape: QuickShotGambleShape) -> tuple[int, ...]:
    """Each action's level after team work (D6), in list order."""
    return tuple(effective_level(a.difficulty, a.teamwork) for a in shape.actions)


def dice_count(wp_bet: int) -> int | None:
    """The dice a bet buys ("Bolstering"); None for a bet the rules do not know."""
    return DICE_FOR_BET.get(wp_bet)


def critical_of(ones: int) -> bool:
    """ "Criticals": a set of ones, two or more among all dice (D5)."""
    return ones >= CRITICAL_ONES


_FACES = FaceRefusals("quick-shot")


def _concern(code: str, pointer: str, detail: str) -> Concern:
    return Concern(code=f"quick-shot/{code}", pointer=pointer, detail=detail)


def shape_refusals(shape: QuickShotGambleShape) -> list[Concern]:
    """What refuses a gamble and its odds alike: a bet of 2 WP (D2)."""
    if dice_count(shape.wp_bet) is None:
        return [
            _concern(
                "wp-bet-invalid",
                "/wp_bet",
                f'A bet of {shape.wp_bet} WP buys no dice: "Bolstering" knows 0, 1 (one more '
                "die) and 3 (two more).",
            )
        ]
    return []


def _refusals(request: QuickShotGambleRequest) -> tuple[list[Concern], dict[str, object]]:
    """Every refusal, in the published order, and the problem's extension members."""
    concerns = shape_refusals(request)
    extensions: dict[str, object] = {}
    if request.faces is not None and request.seed is not None:
        concerns.append(_FACES.faces_and_seed("Give the table's faces or a seed, not both."))
    if request.decline and (request.faces is not None or request.seed is not None):
        concerns.append(
            _concern(
                "decline-with-dice",
                "/decline",
                "A declined gamble rolls nothing (D9): send no faces or seed with it.",
            )
        )
    needed = dice_count(request.wp_bet)
    if request.faces is not None and needed is not None:
        given = len(request.faces)
        detail = f"A {request.wp_bet} WP bet rolls {needed} dice; {given} face(s) given."
        wrong = _FACES.count(
            given, needed, "/faces", missing=lambda _: detail, extra=lambda _: detail
        )
        if wrong is not None:
            concerns.append(wrong)
            if given < needed:
                extensions.setdefault("missing", needed - given)
            else:
                extensions.setdefault("extra", given - needed)
    willpower = request.willpower
    if willpower is not None:
        if willpower.source is WpSource.DRIVE and willpower.drive is None:
            concerns.append(
                _concern(
                    "drive-required",
                    "/willpower/drive",
                    'A bet from a drive names the drive ("Drives").',
                )
            )
        if request.wp_bet > willpower.available:
            concerns.append(
                _concern(
                    "wp-insufficient",
                    "/willpower/available",
                    f"A bet of {request.wp_bet} WP needs that much; the pool holds "
                    f"{willpower.available}.",
                )
            )
    return concerns, extensions


def _consequence(
    kind: ActionKind, success: bool, critical: QuickShotCritical | None
) -> Consequence | None:
    if kind is ActionKind.PRIMARY:
        return None
    kept, failed, badly = _CONSEQUENCES[kind]
    if success:
        return kept
    return badly if critical is QuickShotCritical.FAILURE else failed


def _roll(request: QuickShotGambleRequest, rng: RandomSource, count: int) -> tuple[int, ...]:
    source = dice_source(rng, request.faces, request.seed)
    return tuple(source.randint(1, SIDES) for _ in range(count))


def resolve_gamble(
    request: QuickShotGambleRequest, rng: RandomSource, gamble_id: str
) -> QuickShotGambleResult:
    """Roll (or read the table's faces) and decide one gamble; `odds` stays null (the
    odds asked are attached by the service, see
    :func:`~service.rulesets.quick_shot.rules.odds.gamble_odds_request`).

    Raises:
        RulesError: every refusal at once, in this order: `wp-bet-invalid`,
            `faces-and-seed`, `decline-with-dice`, `faces-missing` (extension `missing`) or
            `faces-extra` (`extra`), `drive-required`, `wp-insufficient`.
    """
    concerns, extensions = _refusals(request)
    if concerns:
        raise RulesError.from_concerns(concerns, extensions)

    levels = effective_levels(request)
    good = good_faces(request.target_number)
    warnings = []
    if request.decline:
        faces: tuple[int, ...] = ()
    else:
        count = dice_count(request.wp_bet)
        assert count is not None
        faces = _roll(request, rng, count)
        if all(level == 1 for level in levels):
            warnings.append(
                QuickShotWarning(
                    code=QuickShotWarningCode.ROLL_NOT_NEEDED,
                    detail='Every action is Minor: "Effect 1: Minor" asks for no roll unless '
                    "it is part of a multi-action. Rolled anyway.",
                )
            )

    # The good dice by face, highest first: position p of the counts is face by_face[p].
    tally = Counter(face for face in faces if face in good)
    by_face = sorted(tally, reverse=True)
    counts = tuple(tally[face] for face in by_face)
    successes = list_order_successes(counts, levels) if faces else (False,) * len(levels)
    won = [level for level, ok in zip(levels, successes, strict=True) if ok]
    groups = iter(plan(counts, tuple(won)) or ())

    # Which dice each successful action's group takes: the earliest dice of each face.
    free = {face: [i for i, f in enumerate(faces) if f == face] for face in by_face}
    served: dict[int, int] = {}
    dice_of: list[tuple[int, ...]] = []
    for index, ok in enumerate(successes):
        taken: list[int] = []
        if ok:
            for position, size in next(groups):
                face = by_face[position]
                taken += free[face][:size]
                free[face] = free[face][size:]
        for die in taken:
            served[die] = index
        dice_of.append(tuple(sorted(taken)))

    ones = sum(1 for face in faces if face == 1)
    overall = bool(faces) and all(successes)
    critical = None
    if critical_of(ones):
        critical = QuickShotCritical.SUCCESS if overall else QuickShotCritical.FAILURE
    first_failed = next((i for i, ok in enumerate(successes) if not ok), None)

    actions = []
    for index, (action, level, ok) in enumerate(
        zip(request.actions, levels, successes, strict=True)
    ):
        if critical is QuickShotCritical.SUCCESS or (
            critical is QuickShotCritical.FAILURE and index == first_failed
        ):
            action_critical = critical
        else:
            action_critical = None
        actions.append(
            QuickShotActionResult(
                index=index,
                difficulty=action.difficulty,
                level=LEVELS[action.difficulty],
                effective_level=level,
                kind=action.kind,
                teamwork=action.teamwork,
                label=action.label,
                result=QuickShotResult.SUCCESS if ok else QuickShotResult.FAILURE,
                critical=action_critical,
                effect=level if ok else 0,
                dice=dice_of[index],
                consequence=_consequence(action.kind, ok, action_critical),
            )
        )

    wp = settle(
        request.wp_bet,
        request.willpower,
        declined=request.decline,
        success=overall,
        critical=critical is not None,
    )
    if wp.shortfall:
        warnings.append(
            QuickShotWarning(
                code=QuickShotWarningCode.CRITICAL_WITHOUT_WP,
                detail='"Critical Failure": less than 1 WP was left to lose after the bet; '
                "the GM imposes an additional, significantly negative effect instead (D8).",
            )
        )
    result = QuickShotGambleResult(
        id=gamble_id,
        dice_count=len(faces),
        target_number=request.target_number,
        good_faces=good,
        faces=faces,
        dice=_dice(faces, good, served),
        pool_effect=pool_effect(counts),
        ones=ones,
        actions=tuple(actions),
        outcome=_outcome(request.decline, overall),
        critical=critical,
        outcome_label=_label(request.decline, overall, critical),
        wp=wp,
        warnings=tuple(warnings),
        summary="",  # read off the finished result, below
        odds=None,
    )
    return msgspec.structs.replace(result, summary=gamble_summary(result))


def _dice(
    faces: Sequence[int], good: Sequence[int], served: dict[int, int]
) -> tuple[QuickShotDie, ...]:
    return tuple(
        QuickShotDie(
            index=index,
            face=face,
            role=QuickShotDieRole.BASE if index < BASE_DICE else QuickShotDieRole.WP,
            good=face in good,
            one=face == 1,
            action=served.get(index),
        )
        for index, face in enumerate(faces)
    )


def _outcome(declined: bool, overall: bool) -> QuickShotOutcome:
    if declined:
        return QuickShotOutcome.DECLINED
    return QuickShotOutcome.SUCCESS if overall else QuickShotOutcome.FAILURE


def _label(declined: bool, overall: bool, critical: QuickShotCritical | None) -> str:
    if declined:
        return "Declined"
    text = "success" if overall else "failure"
    return f"Critical {text}" if critical is not None else text.capitalize()
