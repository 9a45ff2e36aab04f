"""Dice kinds of §7.1 and the faces they may show."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from service.kernel.errors import Concern
from service.rulesets.bullseye.rules.codes import RuleCode

if TYPE_CHECKING:
    from service.kernel.dice import RandomSource

__all__ = ["DICE", "DiceKind", "DiceSpec", "face_concerns", "roll", "supplied_roll_concerns"]


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
    """Why client-supplied ``faces`` could not have come from ``kind``, if they could not."""
    spec = DICE[kind]
    if len(faces) != spec.count:
        return [
            Concern(
                code=RuleCode.ILLEGAL_FACES,
                pointer=pointer,
                detail=f"{kind} rolls {spec.count} {'die' if spec.count == 1 else 'dice'}, "
                f"so it shows {spec.count} face{'' if spec.count == 1 else 's'}, not {len(faces)}.",
            )
        ]
    return [
        Concern(
            code=RuleCode.ILLEGAL_FACES,
            pointer=f"{pointer}/{index}",
            detail=f"A d{spec.sides} shows 1 to {spec.sides}; {face} is not a face of it.",
        )
        for index, face in enumerate(faces)
        if not 1 <= face <= spec.sides
    ]


def supplied_roll_concerns(
    kind: DiceKind, faces: tuple[int, ...], seed: int | None, prefix: str
) -> list[Concern]:
    """Faces rolled at the table: they must fit the dice (§7.1), and a seed (which asks the
    server to roll) cannot come with them. ``prefix``: where the check sits in the body."""
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
            Concern(
                code=RuleCode.ROLL_WITH_SEED,
                pointer=f"{prefix}/seed",
                detail="A seed makes the server roll; it cannot be combined with supplied faces.",
            )
        )
    return concerns + face_concerns(kind, faces, f"{prefix}/roll/faces")
