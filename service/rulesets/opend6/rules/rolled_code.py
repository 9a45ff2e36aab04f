"""The code a roll rolls, step by step ("Rolling Dice"): base, Fate Point, bonuses,
preparing, the multi-action penalty; then how many dice and whether any are left."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum

import msgspec

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value
from service.rulesets.opend6.rules.codes import DieCode, code_of
from service.rulesets.opend6.rules.difficulties import preparing_dice
from service.rulesets.opend6.rules.spec import (
    MAX_DICE,
    AlternateBase,
    AttributeBase,
    BaseType,
    EquipmentBase,
    RollKind,
    RollShape,
    SkillBase,
    UntrainedBase,
)

__all__ = ["BaseCode", "CodeStep", "RolledCode", "StepName", "repointed", "rolled_code"]

# "Multi-Action Penalty" spares these kinds (D13).
_NO_MULTI_ACTION_PENALTY = frozenset(
    {RollKind.DAMAGE, RollKind.DAMAGE_RESISTANCE, RollKind.INITIATIVE}
)


class StepName(StrEnum):
    """The steps that shape the rolled code, in the order they apply."""

    BASE = "base"
    FATE_POINT = "fate_point"
    BONUS = "bonus"
    PREPARING = "preparing"
    MULTI_ACTION = "multi_action"


class CodeStep(Value, frozen=True, kw_only=True):
    """One change to the code: what it added (dice, pips; negative is a penalty) and the
    code after it."""

    step: StepName
    label: str | None
    dice: int
    pips: int
    code_after: str


class BaseCode(Value, frozen=True, kw_only=True):
    """What rolls: the base's type, its code and, for the alternate-attribute option, the
    skill's adds."""

    type: BaseType
    code: str
    adds: str | None = None


class RolledCode(Value, frozen=True, kw_only=True):
    """The code after every step, and how it got there."""

    base: BaseCode
    steps: tuple[CodeStep, ...]
    dice: int
    pips: int

    @property
    def text(self) -> str:
        return _written(self.dice, self.pips)


def _written(dice: int, pips: int) -> str:
    """A code as the roll has it: ``3D+1``, ``3D``, or with a penalty's pips ``3D-2``."""
    return f"{dice}D{pips:+d}" if pips else f"{dice}D"


def _base(spec: RollShape) -> tuple[BaseCode, DieCode]:
    base = spec.base
    match base:
        case SkillBase() | AttributeBase() | EquipmentBase():
            code = code_of(base.code, "/base/code")
            return BaseCode(type=BaseType(str(base.__struct_config__.tag)), code=code.text), code
        case UntrainedBase():
            code = code_of(base.attribute, "/base/attribute")
            return BaseCode(type=BaseType.UNTRAINED, code=code.text), code
        case AlternateBase():
            skill = code_of(base.skill, "/base/skill")
            governing = code_of(base.governing_attribute, "/base/governing_attribute")
            adds = skill.minus(governing)
            if adds is None:
                detail = (
                    f"The skill {skill.text} is below its governing attribute "
                    f"{governing.text}: it has no adds to carry over (D12)."
                )
                raise RulesError(
                    "opend6/negative-adds",
                    detail,
                    (Concern(code="opend6/negative-adds", pointer="/base/skill", detail=detail),),
                )
            code = code_of(base.attribute, "/base/attribute").plus(adds)
            return BaseCode(type=BaseType.ALTERNATE, code=code.text, adds=adds.text), code


def _multi_action_dice(spec: RollShape) -> int:
    if spec.actions is None or spec.kind in _NO_MULTI_ACTION_PENALTY:
        return 0
    return -max(0, spec.actions.declared - spec.actions.allotment)


def rolled_code(spec: RollShape) -> RolledCode:
    """The code to roll, or the refusals: no die left (D3), too many dice.

    A `zero-dice` refusal points at what left the code below 1D, as a member of ``spec``:
    ``/actions/declared`` (the multi-action penalty), ``/bonuses/<i>`` or ``/base``.

    Raises:
        RulesError: `negative-adds`, `zero-dice`, `too-many-dice`.
    """
    base, code = _base(spec)
    dice, pips = code.dice, code.pips
    steps = [CodeStep(step=StepName.BASE, label=None, dice=dice, pips=pips, code_after=code.text)]
    # Where the code fell below 1D, for the refusal (D3): the last penalty that took it
    # there from 1D or more, else the base itself.
    below = ("/base", f"the base {code.text} is")

    def add(
        step: StepName,
        label: str | None,
        more_dice: int,
        more_pips: int,
        cause: tuple[str, str] | None = None,
    ) -> None:
        nonlocal dice, pips, below
        if cause is not None and dice >= 1 > dice + more_dice:
            below = cause
        dice, pips = dice + more_dice, pips + more_pips
        after = _written(dice, pips)
        steps.append(
            CodeStep(step=step, label=label, dice=more_dice, pips=more_pips, code_after=after)
        )

    if spec.fate_point:  # the base doubles, before bonuses and penalties (D6)
        add(StepName.FATE_POINT, None, dice, pips)
    for index, bonus in enumerate(spec.bonuses):
        cause = (f"/bonuses/{index}", f"the bonus '{bonus.label}' ({bonus.dice:+d}D) takes it")
        add(StepName.BONUS, bonus.label, bonus.dice, bonus.pips, cause)
    preparing = (
        preparing_dice(spec.time.normal_seconds, spec.time.taken_seconds) if spec.time else 0
    )
    if preparing:
        add(StepName.PREPARING, None, preparing, 0)
    if penalty := _multi_action_dice(spec):
        assert spec.actions is not None
        cause = (
            "/actions/declared",
            f"the multi-action penalty ({spec.actions.declared} actions declared, allotment "
            f"{spec.actions.allotment}: {penalty}D) takes it",
        )
        add(StepName.MULTI_ACTION, None, penalty, 0, cause)
    if dice < 1:
        pointer, why = below
        detail = (
            f"The roll comes to {_written(dice, pips)}: {why} below 1D, and every roll needs "
            "at least one die, its Wild Die (D3)."
        )
        raise RulesError(
            "opend6/zero-dice",
            detail,
            (Concern(code="opend6/zero-dice", pointer=pointer, detail=detail),),
        )
    if dice > MAX_DICE:
        detail = f"The roll comes to {dice} dice; the service rolls at most {MAX_DICE}."
        raise RulesError(
            "opend6/too-many-dice",
            detail,
            (Concern(code="opend6/too-many-dice", pointer="", detail=detail),),
        )
    return RolledCode(base=base, steps=tuple(steps), dice=dice, pips=pips)


def repointed(error: RulesError, moved: Mapping[str, str]) -> RulesError:
    """``error`` with the pointers named in ``moved`` replaced: for a roll built from more
    than its request's body (a scene's declared actions, an initiative's Acumen), so a
    refusal points at what the client sent."""
    concerns = tuple(
        msgspec.structs.replace(concern, pointer=moved.get(concern.pointer, concern.pointer))
        if concern.pointer is not None
        else concern
        for concern in error.concerns
    )
    return RulesError(error.code, error.detail, concerns, error.extensions)
