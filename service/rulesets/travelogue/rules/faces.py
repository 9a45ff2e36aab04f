"""The table's dice (D28): exactly the faces a roll needs, each 1…6.

Every check names the member at fault with a JSON pointer under ``pointer`` (the
request's ``/faces`` or ``/action/faces``), and `faces-missing` says how many are
missing, per pool, in its ``missing`` member.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.dice import FaceRefusals
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

__all__ = ["FACES", "Face", "PoolFaces", "check_die", "check_pools"]

# Bounded for the schema only; a face outside 1…6 is the rules' `face-out-of-range`.
Face = Annotated[int, Meta(ge=-1000, le=1000, description="A d6 face, 1…6.")]
_Faces = Annotated[tuple[Face, ...], Meta(max_length=1000)]


class PoolFaces(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The table's faces for one roll of the pools: the Shooter's dice, then the Angel's."""

    shooter: _Faces = ()
    angel: _Faces = ()


# How Travelogue refuses the table's faces: the kernel's four refusals, under its namespace.
FACES = FaceRefusals("travelogue")


def _range_detail(face: int) -> str:
    return f"A die shows 1 to 6, not {face}."


def check_die(face: int | None, pointer: str) -> int:
    """The attention die from the table: one face, 1…6."""
    if face is None:
        missing = FACES.faces_missing(pointer, "The die is missing.")
        detail = "This roll needs the table's die: one face, 1 to 6."
        raise RulesError(missing.code, detail, (missing,), {"missing": 1})
    if not 1 <= face <= 6:
        raise RulesError.from_concerns([FACES.face_out_of_range(pointer, _range_detail(face))])
    return face


def _pool_count(pool: str, given: int, needed: int, pointer: str) -> Concern | None:
    """One pool's faces counted: `faces-missing` at the pool, `faces-extra` at its first
    face too many."""

    def missing(more: int) -> str:
        return f"{more} more {pool} {'die is' if more == 1 else 'dice are'} needed."

    def extra(_: int) -> str:
        return f"The {pool} pool rolls {needed} {'die' if needed == 1 else 'dice'}, not {given}."

    return FACES.count(
        given,
        needed,
        f"{pointer}/{pool}",
        missing=missing,
        extra=extra,
        extra_pointer=f"{pointer}/{pool}/{needed}",
    )


def check_pools(
    faces: PoolFaces | None, shooter_dice: int, angel_dice: int, pointer: str
) -> PoolFaces:
    """The table's faces for pools of ``shooter_dice`` and ``angel_dice`` dice: exactly
    that many each (else `faces-missing` with ``missing: {shooter, angel}``, or
    `faces-extra`), every one 1…6 (else `face-out-of-range` at each bad face)."""
    given = faces or PoolFaces()
    counted = [
        _pool_count(pool, len(sent), needed, pointer)
        for pool, sent, needed in (
            ("shooter", given.shooter, shooter_dice),
            ("angel", given.angel, angel_dice),
        )
    ]
    wrong = [concern for concern in counted if concern is not None]
    short = tuple(concern for concern in wrong if concern.code == FACES.missing_code)
    if short:
        missing = {
            "shooter": max(0, shooter_dice - len(given.shooter)),
            "angel": max(0, angel_dice - len(given.angel)),
        }
        detail = (
            f"The table's dice are needed: {shooter_dice} Shooter and {angel_dice} Angel "
            f"(missing {missing['shooter']} and {missing['angel']})."
        )
        raise RulesError(FACES.missing_code, detail, short, {"missing": missing})
    if wrong:
        raise RulesError.from_concerns(wrong)
    bad = FACES.out_of_range(
        given.shooter, f"{pointer}/shooter", 1, 6, _range_detail
    ) + FACES.out_of_range(given.angel, f"{pointer}/angel", 1, 6, _range_detail)
    if bad:
        raise RulesError.from_concerns(bad)
    return given
