"""The odds of a roll before it is made: the rolled code and difficulty of the request,
the exact distribution of :mod:`service.rulesets.opend6.rules.odds`; and a roll or an
opposed roll that asks for its odds in the same call (`with_odds`): its answer, and the
odds request it makes (the service computes those through its odds gate)."""

from __future__ import annotations

from typing import Annotated, Any, TypeVar

import msgspec
from msgspec import Meta

from service.kernel.chance import chance
from service.kernel.dice import RandomSource
from service.kernel.errors import RulesError
from service.kernel.receipts import Receipt
from service.kernel.summary import Summary
from service.kernel.values import Value
from service.rulesets.opend6.rules.difficulty import ResolvedDifficulty, resolve_difficulty
from service.rulesets.opend6.rules.odds import (
    DifficultyChances,
    OpposedOdds,
    RollChances,
    RollDice,
    RollOdds,
    SuccessOdds,
    WildDieOnlyOdds,
    chances,
    legacy_odds,
    opposed_odds,
    wild_die_only_chances,
    wild_die_only_odds,
)
from service.rulesets.opend6.rules.opposed import (
    OpposedModifiers,
    OpposedRequest,
    OpposedResult,
    handicap,
    resolve_opposed,
)
from service.rulesets.opend6.rules.rolled_code import rolled_code
from service.rulesets.opend6.rules.rolls import (
    RollResult,
    points_concerns,
    related_skill_modifier,
    resolve_roll,
)
from service.rulesets.opend6.rules.spec import (
    Level,
    OddsRequest,
    RollRequest,
    RollShape,
    StandardDifficulty,
    WildDieOnlyDifficulty,
)
from service.rulesets.opend6.rules.summary import opposed_summary, roll_summary

__all__ = [
    "OddsAnswer",
    "OpposedAnswer",
    "OpposedOddsAnswer",
    "OpposedOddsRequest",
    "RollAnswer",
    "opposed_odds_request",
    "opposed_roll_odds",
    "roll",
    "roll_dice",
    "roll_odds",
    "roll_odds_request",
    "roll_opposed",
]


_DEPRECATED = (
    "**Deprecated**, kept byte for byte until a new version removes it: read `chances`, "
    "which always holds the same figures in one shape, by `kind` (docs/opend6.md, "
    '"Odds in one shape"). '
)


class OddsAnswer(Value, frozen=True, kw_only=True):
    """What the roll would be, and its odds in one shape: ``chances``, tagged by ``kind``
    (``total``, ``difficulty`` or ``wild_die_only``). ``odds`` and ``wild_die_only`` are
    the same figures in the first release's shape, deprecated."""

    rolled_code: str
    regular_dice: int
    cp_dice: int
    pips: int
    difficulty: ResolvedDifficulty | None
    chances: RollChances
    odds: Annotated[
        RollOdds | None,
        Meta(
            description=_DEPRECATED + "A rolled total's odds; null for a Wild-Die-only "
            "difficulty. `p_success` and `p_success_with_complication` are null without a "
            "difficulty.",
            extra_json_schema={"deprecated": True},
        ),
    ]
    wild_die_only: Annotated[
        WildDieOnlyOdds | None,
        Meta(
            description=_DEPRECATED + "A Wild-Die-only difficulty's odds (D14); else null.",
            extra_json_schema={"deprecated": True},
        ),
    ]


class OpposedOddsRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Two rolls before they are made."""

    initiator: RollShape
    resister: RollShape
    modifiers: OpposedModifiers = OpposedModifiers()


class OpposedOddsAnswer(Value, frozen=True, kw_only=True):
    """The initiator's chance to win (ties are its own, D2), exactly."""

    initiator_code: str
    resister_code: str
    odds: OpposedOdds


def roll_dice(shape: RollShape) -> tuple[str, RollDice]:
    """The rolled code's text and the dice its odds see (Character Points pooled).

    Raises:
        RulesError: the code cannot be rolled (zero dice, too many, negative adds).
    """
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
        text, dice = roll_dice(request)
    except RulesError as error:
        raise RulesError.from_concerns([*concerns, *error.concerns]) from None
    difficulty = resolve_difficulty(request, concerns)
    if concerns:
        raise RulesError.from_concerns(concerns)
    if isinstance(request.difficulty, WildDieOnlyDifficulty):
        return OddsAnswer(
            rolled_code=text,
            regular_dice=dice.regular,
            cp_dice=dice.cp_dice,
            pips=dice.pips,
            difficulty=difficulty,
            chances=wild_die_only_chances(),
            odds=None,
            wild_die_only=wild_die_only_odds(),
        )
    needed = difficulty.value if difficulty is not None else None
    if needed is not None and not request.roller_is_initiator:
        needed += 1  # a resisting roll must beat the difficulty (D2)
    rolled = chances(dice, needed)
    if isinstance(rolled, DifficultyChances) and (
        isinstance(request.difficulty, StandardDifficulty)
        and request.difficulty.level is Level.AUTOMATIC
    ):  # nothing is rolled: success, whatever the dice would show
        rolled = msgspec.structs.replace(
            rolled,
            success=SuccessOdds(cancel_highest=chance(1), complication=chance(1)),
            success_with_complication=chance(0),
        )
    return OddsAnswer(
        rolled_code=text,
        regular_dice=dice.regular,
        cp_dice=dice.cp_dice,
        pips=dice.pips,
        difficulty=difficulty,
        chances=rolled,
        odds=legacy_odds(rolled),
        wild_die_only=None,
    )


def opposed_roll_odds(request: OpposedOddsRequest) -> OpposedOddsAnswer:
    """P(initiator wins) = P(A − B ≥ uA + mA − uB − mB) (D17; ties to the initiator),
    exactly (:func:`~service.rulesets.opend6.rules.odds.exact_opposed_odds`).

    Raises:
        RulesError: what would refuse either roll (pointers under /initiator, /resister).
    """
    sides = []
    for name, shape in (("initiator", request.initiator), ("resister", request.resister)):
        concerns = points_concerns(shape)
        try:
            sides.append(roll_dice(shape))
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


class RollAnswer(RollResult, frozen=True, kw_only=True):
    """A roll, its one-line summary, and its odds when the request asked for them
    (`with_odds`; else null)."""

    summary: Summary
    odds: OddsAnswer | None
    receipt: Receipt = None


class OpposedAnswer(OpposedResult, frozen=True, kw_only=True):
    """An opposed roll, its one-line summary, and its odds when the request asked for them
    (`with_odds`; else null)."""

    summary: Summary
    odds: OpposedOddsAnswer | None
    receipt: Receipt = None


def roll(request: RollRequest, rng: RandomSource, roll_id: str) -> RollAnswer:
    """:func:`~service.rulesets.opend6.rules.rolls.resolve_roll` as an answer without
    odds: those it asks for (:func:`roll_odds_request`) are attached by the service,
    through its odds gate, once the roll is accepted.

    Raises:
        RulesError: the roll is refused (its odds would be refused alike).
    """
    result = resolve_roll(request, rng, roll_id)
    return RollAnswer(**_fields_of(result, RollResult), summary=roll_summary(result), odds=None)


def roll_odds_request(request: RollRequest) -> OddsRequest | None:
    """What ``openD6RollOdds`` is asked for a roll that asks ``with_odds``: the same body
    less its dice (Character Points before and after pooled); None when it does not ask."""
    return _shape_of(request, OddsRequest) if request.with_odds else None


def roll_opposed(request: OpposedRequest, rng: RandomSource, roll_id: str) -> OpposedAnswer:
    """:func:`~service.rulesets.opend6.rules.opposed.resolve_opposed` as an answer without
    odds (:func:`opposed_odds_request` gives those it asks for).

    Raises:
        RulesError: either roll is refused (pointers under /initiator or /resister).
    """
    result = resolve_opposed(request, rng, roll_id)
    return OpposedAnswer(
        **_fields_of(result, OpposedResult), summary=opposed_summary(result), odds=None
    )


def opposed_odds_request(request: OpposedRequest) -> OpposedOddsRequest | None:
    """What ``openD6OpposedOdds`` is asked for an opposed roll that asks ``with_odds``:
    both sides less their dice; None when it does not ask."""
    if not request.with_odds:
        return None
    return OpposedOddsRequest(
        initiator=_shape_of(request.initiator, RollShape),
        resister=_shape_of(request.resister, RollShape),
        modifiers=request.modifiers,
    )


S = TypeVar("S", bound=msgspec.Struct)


def _shape_of(value: msgspec.Struct, shape: type[S]) -> S:
    """``value``'s fields that ``shape`` has (a roll less its dice)."""
    return shape(**_fields_of(value, shape))


def _fields_of(value: msgspec.Struct, kind: type[msgspec.Struct]) -> dict[str, Any]:
    return {name: getattr(value, name) for name in kind.__struct_fields__}
