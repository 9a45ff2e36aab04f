"""The table's dice (D28): exactly the faces a roll needs, each 1…6.

Every check names the member at fault with a JSON pointer under ``pointer`` (the
request's ``/faces`` or ``/action/faces``), and `faces-missing` says how many are
missing, per pool, in its ``missing`` member.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

__all__ = ["Face", "PoolFaces", "check_die", "check_pools"]

# Bounded for the schema only; a face outside 1…6 is the rules' `face-out-of-range`.
Face = Annotated[int, Meta(ge=-1000, le=1000, description="A d6 face, 1…6.")]
_Faces = Annotated[tuple[Face, ...], Meta(max_length=1000)]


class PoolFaces(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The table's faces for one roll of the pools: the Shooter's dice, then the Angel's."""

    shooter: _Faces = ()
    angel: _Faces = ()


def _out_of_range(faces: tuple[int, ...], pointer: str) -> list[Concern]:
    return [
        Concern(
            code="travelogue/face-out-of-range",
            pointer=f"{pointer}/{i}",
            detail=f"A die shows 1 to 6, not {face}.",
        )
        for i, face in enumerate(faces)
        if not 1 <= face <= 6
    ]


def check_die(face: int | None, pointer: str) -> int:
    """The attention die from the table: one face, 1…6."""
    if face is None:
        raise RulesError(
            "travelogue/faces-missing",
            "This roll needs the table's die: one face, 1 to 6.",
            (
                Concern(
                    code="travelogue/faces-missing", pointer=pointer, detail="The die is missing."
                ),
            ),
            {"missing": 1},
        )
    if not 1 <= face <= 6:
        detail = f"A die shows 1 to 6, not {face}."
        concern = Concern(code="travelogue/face-out-of-range", pointer=pointer, detail=detail)
        raise RulesError("travelogue/face-out-of-range", detail, (concern,))
    return face


def check_pools(
    faces: PoolFaces | None, shooter_dice: int, angel_dice: int, pointer: str
) -> PoolFaces:
    """The table's faces for pools of ``shooter_dice`` and ``angel_dice`` dice: exactly
    that many each (else `faces-missing` with ``missing: {shooter, angel}``, or
    `faces-extra`), every one 1…6 (else `face-out-of-range` at each bad face)."""
    given = faces or PoolFaces()
    missing = {
        "shooter": max(0, shooter_dice - len(given.shooter)),
        "angel": max(0, angel_dice - len(given.angel)),
    }
    if any(missing.values()):
        concerns = tuple(
            Concern(
                code="travelogue/faces-missing",
                pointer=f"{pointer}/{pool}",
                detail=f"{count} more {pool} {'die is' if count == 1 else 'dice are'} needed.",
            )
            for pool, count in missing.items()
            if count
        )
        detail = (
            f"The table's dice are needed: {shooter_dice} Shooter and {angel_dice} Angel "
            f"(missing {missing['shooter']} and {missing['angel']})."
        )
        raise RulesError("travelogue/faces-missing", detail, concerns, {"missing": missing})
    extra = [
        Concern(
            code="travelogue/faces-extra",
            pointer=f"{pointer}/{pool}/{needed}",
            detail=f"The {pool} pool rolls {needed} {'die' if needed == 1 else 'dice'}, "
            f"not {len(sent)}.",
        )
        for pool, sent, needed in (
            ("shooter", given.shooter, shooter_dice),
            ("angel", given.angel, angel_dice),
        )
        if len(sent) > needed
    ]
    if extra:
        raise RulesError.from_concerns(extra)
    bad = _out_of_range(given.shooter, f"{pointer}/shooter") + _out_of_range(
        given.angel, f"{pointer}/angel"
    )
    if bad:
        raise RulesError.from_concerns(bad)
    return given
