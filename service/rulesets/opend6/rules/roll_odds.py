"""The odds of a roll before it is made: the rolled code and difficulty of the request,
the exact distribution of :mod:`service.rulesets.opend6.rules.odds`."""

from __future__ import annotations

import msgspec

from service.kernel.errors import RulesError
from service.kernel.values import Value
from service.rulesets.opend6.rules.difficulty import ResolvedDifficulty, resolve_difficulty
from service.rulesets.opend6.rules.odds import (
    OpposedOdds,
    RollDice,
    RollOdds,
    SuccessOdds,
    WildDieOnlyOdds,
    odds,
    opposed_odds,
    wild_die_only_odds,
)
from service.rulesets.opend6.rules.opposed import OpposedModifiers, handicap
from service.rulesets.opend6.rules.rolled_code import rolled_code
from service.rulesets.opend6.rules.rolls import points_concerns, related_skill_modifier
from service.rulesets.opend6.rules.spec import (
    Level,
    OddsRequest,
    RollShape,
    StandardDifficulty,
    WildDieOnlyDifficulty,
)

__all__ = [
    "OddsAnswer",
    "OpposedOddsAnswer",
    "OpposedOddsRequest",
    "opposed_roll_odds",
    "roll_odds",
]


class OddsAnswer(Value, frozen=True, kw_only=True):
    """What the roll would be, and its odds: ``odds`` for a rolled total, or
    ``wild_die_only`` for a Wild-Die-only difficulty (one toss, D14)."""

    rolled_code: str
    regular_dice: int
    cp_dice: int
    pips: int
    difficulty: ResolvedDifficulty | None
    odds: RollOdds | None
    wild_die_only: WildDieOnlyOdds | None


class OpposedOddsRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Two rolls before they are made."""

    initiator: RollShape
    resister: RollShape
    modifiers: OpposedModifiers = OpposedModifiers()


class OpposedOddsAnswer(Value, frozen=True, kw_only=True):
    """The initiator's chance to win (ties are its own, D2), and the most the listing's
    cut-off can make it wrong by."""

    initiator_code: str
    resister_code: str
    odds: OpposedOdds


def _dice(shape: RollShape) -> tuple[str, RollDice]:
    code = rolled_code(shape)
    related = sum(related_skill_modifier(item.result_points) for item in shape.related)
    cp = shape.character_points.before + shape.character_points.after
    dice = RollDice(
        regular=code.dice - 1,
        cp_dice=cp,
        pips=code.pips + related,
        critical_failure=shape.critical_failure,
    )
    return code.text, dice


def roll_odds(request: OddsRequest) -> OddsAnswer:
    """Exact odds of ``request`` (never simulated).

    Raises:
        RulesError: what would refuse the roll itself (points, dice, difficulty).
    """
    concerns = points_concerns(request)
    try:
        text, dice = _dice(request)
    except RulesError as error:
        raise RulesError.from_concerns([*concerns, *error.concerns]) from None
    difficulty = resolve_difficulty(request, concerns)
    if concerns:
        raise RulesError.from_concerns(concerns)
    answer = OddsAnswer(
        rolled_code=text,
        regular_dice=dice.regular,
        cp_dice=dice.cp_dice,
        pips=dice.pips,
        difficulty=difficulty,
        odds=None,
        wild_die_only=None,
    )
    if isinstance(request.difficulty, WildDieOnlyDifficulty):
        return msgspec.structs.replace(answer, wild_die_only=wild_die_only_odds())
    target = difficulty.value if difficulty is not None else None
    if target is not None and not request.roller_is_initiator:
        target += 1  # a resisting roll must beat the difficulty (D2)
    computed = odds(dice, target)
    if isinstance(request.difficulty, StandardDifficulty) and (
        request.difficulty.level is Level.AUTOMATIC
    ):  # nothing is rolled: success, whatever the dice would show
        computed = msgspec.structs.replace(
            computed,
            p_success=SuccessOdds(cancel_highest=1.0, complication=1.0),
            p_success_with_complication=0.0,
        )
    return msgspec.structs.replace(answer, odds=computed)


def opposed_roll_odds(request: OpposedOddsRequest) -> OpposedOddsAnswer:
    """P(initiator wins) = Σ_b P(B = b)·P(A ≥ b + uA + mA − uB − mB) (D17), exact up to the
    resister's listing cut-off (``max_error``)."""
    sides = []
    for name, shape in (("initiator", request.initiator), ("resister", request.resister)):
        concerns = points_concerns(shape)
        try:
            sides.append(_dice(shape))
        except RulesError as error:
            concerns.extend(error.concerns)
        if concerns:
            raise RulesError.from_concerns(concerns).under(f"/{name}")
    shift = handicap(request.initiator.base, request.modifiers.initiator) - handicap(
        request.resister.base, request.modifiers.resister
    )
    (first_text, first), (second_text, second) = sides
    return OpposedOddsAnswer(
        initiator_code=first_text,
        resister_code=second_text,
        odds=opposed_odds(first, second, shift),
    )
