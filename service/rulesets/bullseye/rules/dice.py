"""Dice kinds of §7.1 and the faces they may show."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from service.kernel.dice import FaceRefusals

if TYPE_CHECKING:
    from service.kernel.dice import RandomSource
    from service.kernel.errors import Concern

__all__ = [
    "DICE",
    "FACES",
    "DiceKind",
    "DiceSpec",
    "count_members",
    "face_concerns",
    "roll",
    "supplied_roll_concerns",
]

# How Bullseye refuses the table's faces: the kernel's refusals, the same in every game,
# with Bullseye's bare codes (no namespace): `faces-missing`, `faces-extra`,
# `faces-and-seed`, `face-out-of-range` (issue 38).
FACES = FaceRefusals("")


class DiceKind(StrEnum):
    """§7.1: the default d20 and the three alternate dice."""

    D20 = "d20"
    TWO_D10 = "2d10"
    THREE_D6 = "3d6"
    FOUR_D6_MINUS_4 = "4d6-4"


@dataclass(frozen=True, slots=True)
class DiceSpec:
    """``count`` dice of ``sides`` sides, summed, plus ``offset``."""

    count: int
    sides: int
    offset: int = 0

    @property
    def lowest(self) -> int:
        """Smallest die result."""
        return self.count + self.offset

    @property
    def highest(self) -> int:
        """Largest die result."""
        return self.count * self.sides + self.offset

    def result(self, faces: tuple[int, ...]) -> int:
        """The die result the faces give."""
        return sum(faces) + self.offset


DICE: dict[DiceKind, DiceSpec] = {
    DiceKind.D20: DiceSpec(count=1, sides=20),
    DiceKind.TWO_D10: DiceSpec(count=2, sides=10),
    DiceKind.THREE_D6: DiceSpec(count=3, sides=6),
    DiceKind.FOUR_D6_MINUS_4: DiceSpec(count=4, sides=6, offset=-4),
}


def roll(kind: DiceKind, rng: RandomSource) -> tuple[int, ...]:
    """Roll every die of ``kind``; the faces, in the order rolled."""
    spec = DICE[kind]
    if spec.count == 1:
        return (rng.randint(1, spec.sides),)
    return tuple(rng.randint(1, spec.sides) for _ in range(spec.count))


def face_concerns(kind: DiceKind, faces: tuple[int, ...], pointer: str) -> list[Concern]:
    """Why client-supplied ``faces`` could not have come from ``kind``, if they could not:
    the kernel's `faces-missing` or `faces-extra` at the list, else `face-out-of-range` at
    each face the die does not show (§7.1)."""
    spec = DICE[kind]
    given = len(faces)
    if given != spec.count:
        detail = (
            f"{kind} rolls {spec.count} {'die' if spec.count == 1 else 'dice'}, "
            f"so it shows {spec.count} face{'' if spec.count == 1 else 's'}, not {given}."
        )
        wrong = FACES.count(
            given, spec.count, pointer, missing=lambda _: detail, extra=lambda _: detail
        )
        return [] if wrong is None else [wrong]
    sides = spec.sides
    return FACES.out_of_range(
        faces,
        pointer,
        1,
        sides,
        lambda face: f"A d{sides} shows 1 to {sides}; {face} is not a face of it.",
    )


def count_members(kind: DiceKind, faces: tuple[int, ...]) -> dict[str, int]:
    """The problem's extension member for faces of the wrong count, as in every game:
    `missing` (how many more) or `extra` (how many too many); none when the count is
    right."""
    wanted = DICE[kind].count
    given = len(faces)
    if given < wanted:
        return {"missing": wanted - given}
    if given > wanted:
        return {"extra": given - wanted}
    return {}


def supplied_roll_concerns(
    kind: DiceKind, faces: tuple[int, ...], seed: int | None, prefix: str
) -> list[Concern]:
    """Faces rolled at the table: they must fit the dice (§7.1), and a seed (which asks the
    server to roll) cannot come with them (`faces-and-seed`). ``prefix``: where the check
    sits in the body."""
    if seed is None:
        spec = DICE[kind]
        if len(faces) == spec.count:
            sides = spec.sides
            for face in faces:  # a loop: cheaper than all(), min() or max() on 1–4 faces
                if not 1 <= face <= sides:
                    break
            else:
                return []  # the usual case, found without building a pointer
    concerns = []
    if seed is not None:
        concerns.append(
            FACES.faces_and_seed(
                "A seed makes the server roll; it cannot be combined with supplied faces.",
                f"{prefix}/seed",
            )
        )
    return concerns + face_concerns(kind, faces, f"{prefix}/roll/faces")
