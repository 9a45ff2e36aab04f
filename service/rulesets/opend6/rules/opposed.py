"""Opposed rolls ("Opposed Difficulties"): each side's total is the other's difficulty;
the initiator wins ties."""

from __future__ import annotations

from typing import Literal

from service.kernel.dice import RandomSource
from service.kernel.errors import RulesError
from service.kernel.values import Value
from service.rulesets.opend6.rules.rolls import RollResult, damage_bonus, resolve_roll
from service.rulesets.opend6.rules.spec import (
    Base,
    Modifiers,
    RollKind,
    RollRequest,
    RollSpec,
    UntrainedBase,
    WithOdds,
)

__all__ = [
    "OpposedModifiers",
    "OpposedRequest",
    "OpposedResult",
    "OpposedSide",
    "handicap",
    "judge_opposed",
    "resolve_opposed",
]


class OpposedModifiers(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """ "Generic Modifiers" that raise a side's difficulty, i.e. count against its total."""

    initiator: Modifiers = ()
    resister: Modifiers = ()


class OpposedRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Two rolls against each other: the one who acts, and the one who resists."""

    initiator: RollSpec
    resister: RollSpec
    modifiers: OpposedModifiers = OpposedModifiers()
    with_odds: WithOdds = False


class OpposedSide(Value, frozen=True, kw_only=True):
    """One side: its roll, and what counts against its total (D17)."""

    roll: RollResult
    handicap: int
    net: int


class OpposedResult(Value, frozen=True, kw_only=True):
    """``margin`` = the initiator's net total less the resister's; ≥ 0 the initiator wins."""

    initiator: OpposedSide
    resister: OpposedSide
    margin: int
    winner: Literal["initiator", "resister"]
    result_points: int
    damage_bonus: int | None


def handicap(base: Base, modifiers: Modifiers) -> int:
    """What raises a side's difficulty: its unskilled modifier and generic modifiers (D17)."""
    unskilled = base.unskilled_modifier if isinstance(base, UntrainedBase) else 0
    return unskilled + sum(item.value for item in modifiers)


def _request(spec: RollSpec) -> RollRequest:
    return RollRequest(**{name: getattr(spec, name) for name in RollSpec.__struct_fields__})


def resolve_opposed(request: OpposedRequest, rng: RandomSource, roll_id: str) -> OpposedResult:
    """Roll both sides; the initiator wins iff A − uA − mA ≥ B − uB − mB (D17, D2).

    Raises:
        RulesError: either roll refused (pointers under /initiator or /resister).
    """
    rolls = []
    for name, spec in (("initiator", request.initiator), ("resister", request.resister)):
        try:
            rolls.append(resolve_roll(_request(spec), rng, f"{roll_id}-{name[0]}"))
        except RulesError as error:
            raise error.under(f"/{name}") from None
    first, second = rolls
    return judge_opposed(
        (first, handicap(request.initiator.base, request.modifiers.initiator)),
        (second, handicap(request.resister.base, request.modifiers.resister)),
        attack=request.initiator.kind is RollKind.ATTACK,
    )


def judge_opposed(
    initiator: tuple[RollResult, int], resister: tuple[RollResult, int], *, attack: bool
) -> OpposedResult:
    """Two rolls made, each with its handicap: the initiator wins iff its net total is at
    least the resister's (D17, D2); a won attack gets the damage bonus (D10)."""
    sides = []
    for roll, against in (initiator, resister):
        assert roll.total is not None
        sides.append(OpposedSide(roll=roll, handicap=against, net=roll.total - against))
    margin = sides[0].net - sides[1].net
    won = margin >= 0
    bonus = None
    if attack:
        bonus = damage_bonus(margin) if won else 0
    return OpposedResult(
        initiator=sides[0],
        resister=sides[1],
        margin=margin,
        winner="initiator" if won else "resister",
        result_points=margin,
        damage_bonus=bonus,
    )
