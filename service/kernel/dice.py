"""Randomness as the rules receive it: a parameter, never a global.

The one dice source of every game (issue 38). The rules roll a :class:`RandomSource`
whatever its kind: the server's strong dice (:func:`strong`), reproducible ones for a
caller's ``seed`` (:func:`seeded`, :func:`with_seed`), a provably fair session's
(``kernel.fairness.FairDice``), or the faces rolled at the table, given in rolling order
(:class:`TableFaces`); :func:`dice_source` picks it for a request. How the table's faces
are refused is here too, once for every game (:class:`FaceRefusals`): `faces-missing`,
`faces-extra`, `faces-and-seed`, `face-out-of-range`, and `faces-not-allowed` (faces sent
to a session that rolls the server's dice), each under its ruleset's namespace; a ruleset
keeps only its twist (OpenD6's exploding chains, Self/Conflict's die roles) and its words.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from service.kernel.errors import Concern
from service.kernel.system_dice import SystemDice

__all__ = [
    "FACES_AND_SEED",
    "FACES_EXTRA",
    "FACES_MISSING",
    "FACES_NOT_ALLOWED",
    "FACE_OUT_OF_RANGE",
    "FaceRefusals",
    "RandomSource",
    "RecordingDice",
    "TableFaces",
    "dice_source",
    "seeded",
    "strong",
    "with_seed",
]

# The refusals of the table's faces, the same in every game (a ruleset's namespace first).
FACES_MISSING = "faces-missing"
FACES_EXTRA = "faces-extra"
FACES_AND_SEED = "faces-and-seed"
FACE_OUT_OF_RANGE = "face-out-of-range"
# Faces sent to a session whose dice are the server's (Bullseye's, OpenD6's and
# Travelogue's sessions).
FACES_NOT_ALLOWED = "faces-not-allowed"


@runtime_checkable
class RandomSource(Protocol):
    """What the rules need of a random generator (``random.Random`` or ``SystemRandom``)."""

    def randint(self, a: int, b: int, /) -> int:  # pragma: no cover - protocol
        """A uniform integer in ``a..b``, both inclusive."""
        ...


def strong() -> RandomSource:
    """The server's strong dice: the system's random source (``kernel.system_dice``)."""
    return SystemDice()


def seeded(seed: int) -> RandomSource:
    """A reproducible generator for a caller's ``seed`` (never for secrecy)."""
    return random.Random(seed)  # noqa: S311 - a seed asks for a reproducible roll


class RecordingDice:
    """Dice that keep every face they give, in rolling order: what a roll receipt signs.

    Rules see a plain :class:`RandomSource`; only a request that asks for a receipt pays
    for the recording.
    """

    __slots__ = ("_source", "faces", "seeded")

    def __init__(self, source: RandomSource, faces: list[int] | None = None) -> None:
        self._source = source
        self.faces: list[int] = [] if faces is None else faces
        self.seeded = False  # some face came from a caller's seed (with_seed)

    def randint(self, a: int, b: int, /) -> int:
        """A face of ``source``, recorded."""
        face = self._source.randint(a, b)
        self.faces.append(face)
        return face


def with_seed(rng: RandomSource, seed: int | None) -> RandomSource:
    """The dice a roll uses: ``rng``, or reproducible ones for a caller's ``seed``. When
    ``rng`` records, the seeded dice record on the same tape, so a receipt lists them, and
    ``rng`` notes that the caller's seed chose them."""
    if seed is None:
        return rng
    dice = seeded(seed)
    if isinstance(rng, RecordingDice):
        rng.seeded = True
        return RecordingDice(dice, rng.faces)
    return dice


class TableFaces:
    """The dice rolled at the table: the faces given, read one a die in rolling order.

    The rules roll them like any other source; :attr:`left` says how many are still
    unread, so a ruleset can count what a roll needs before reading (a face read past the
    end is an ``IndexError``: the count is the rules' to check, through
    :meth:`FaceRefusals.count`).
    """

    __slots__ = ("_faces", "read")

    def __init__(self, faces: Sequence[int]) -> None:
        self._faces = faces
        self.read = 0  # faces read so far

    @property
    def left(self) -> int:
        """The faces given and not read yet."""
        return len(self._faces) - self.read

    def randint(self, a: int, b: int, /) -> int:
        """The next face given (its range is checked by :meth:`FaceRefusals.out_of_range`)."""
        face = self._faces[self.read]
        self.read += 1
        return face


def dice_source(rng: RandomSource, faces: Sequence[int] | None, seed: int | None) -> RandomSource:
    """The dice a request rolls: the table's ``faces`` when it gives them, else ``rng``
    or, for a caller's ``seed``, reproducible dice (:func:`with_seed`). A request with
    both is refused before (:meth:`FaceRefusals.faces_and_seed`)."""
    if faces is not None:
        return TableFaces(faces)
    return with_seed(rng, seed)


Words = Callable[[int], str]


class FaceRefusals:
    """How a ruleset's table faces are refused: the same codes in every game, under
    the ruleset's ``namespace`` (``opend6``: ``opend6/faces-missing``; an empty one gives
    bare codes, the way Bullseye's are), each at a JSON pointer, in the ruleset's own words.
    """

    __slots__ = (
        "and_seed_code",
        "extra_code",
        "missing_code",
        "not_allowed_code",
        "out_of_range_code",
    )

    def __init__(self, namespace: str) -> None:
        prefix = f"{namespace}/" if namespace else ""
        self.missing_code = prefix + FACES_MISSING
        self.extra_code = prefix + FACES_EXTRA
        self.and_seed_code = prefix + FACES_AND_SEED
        self.out_of_range_code = prefix + FACE_OUT_OF_RANGE
        self.not_allowed_code = prefix + FACES_NOT_ALLOWED

    def faces_and_seed(self, detail: str, pointer: str = "/seed") -> Concern:
        """`faces-and-seed`: the table's faces and a seed for the server's dice, both."""
        return Concern(code=self.and_seed_code, pointer=pointer, detail=detail)

    def faces_not_allowed(self, pointer: str, detail: str) -> Concern:
        """`faces-not-allowed`: faces sent to a session that rolls the server's dice (a
        session whose `dice_source` is the server's)."""
        return Concern(code=self.not_allowed_code, pointer=pointer, detail=detail)

    def faces_missing(self, pointer: str, detail: str) -> Concern:
        """`faces-missing`: the roll needs more faces than were given."""
        return Concern(code=self.missing_code, pointer=pointer, detail=detail)

    def faces_extra(self, pointer: str, detail: str) -> Concern:
        """`faces-extra`: more faces were given than the roll has dice."""
        return Concern(code=self.extra_code, pointer=pointer, detail=detail)

    def count(
        self,
        given: int,
        needed: int,
        pointer: str,
        *,
        missing: Words,
        extra: Words,
        extra_pointer: str | None = None,
    ) -> Concern | None:
        """What is wrong with ``given`` faces for a roll of ``needed`` dice, if anything:
        `faces-missing`, worded by ``missing(how many more)``, or `faces-extra`, worded by
        ``extra(how many too many)`` (at ``extra_pointer`` when given, else ``pointer``)."""
        if given < needed:
            return self.faces_missing(pointer, missing(needed - given))
        if given > needed:
            return self.faces_extra(
                pointer if extra_pointer is None else extra_pointer, extra(given - needed)
            )
        return None

    def face_out_of_range(self, pointer: str, detail: str) -> Concern:
        """`face-out-of-range`: a face no die of the roll shows."""
        return Concern(code=self.out_of_range_code, pointer=pointer, detail=detail)

    def out_of_range(
        self, faces: Sequence[int], pointer: str, low: int, high: int, detail: Words
    ) -> list[Concern]:
        """`face-out-of-range` at ``pointer/<i>`` for each face outside ``low..high``,
        worded by ``detail(face)``."""
        return [
            self.face_out_of_range(f"{pointer}/{i}", detail(face))
            for i, face in enumerate(faces)
            if not low <= face <= high
        ]
