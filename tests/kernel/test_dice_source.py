"""The one dice source of every game (issue 38): strong, seeded or the table's faces, and
the four refusals of the table's faces, the same codes under each ruleset's namespace."""

from __future__ import annotations

import random

import pytest

from service.kernel.dice import (
    FACE_OUT_OF_RANGE,
    FACES_AND_SEED,
    FACES_EXTRA,
    FACES_MISSING,
    FACES_NOT_ALLOWED,
    FaceRefusals,
    RecordingDice,
    TableFaces,
    dice_source,
    seeded,
    strong,
)
from service.kernel.errors import Concern
from service.kernel.system_dice import SystemDice


class Script:
    """Dice that show the faces they are given, in order (the server's, in a test)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        return self.faces.pop(0)


def test_table_faces_are_read_in_rolling_order() -> None:
    table = TableFaces((6, 1, 4))
    assert [table.randint(1, 6) for _ in range(3)] == [6, 1, 4]
    assert (table.read, table.left) == (3, 0)


def test_table_faces_count_what_is_left() -> None:
    table = TableFaces((3, 5, 2, 2))
    table.randint(1, 6)
    assert (table.read, table.left) == (1, 3)


def test_a_face_past_the_table_s_is_not_invented() -> None:
    table = TableFaces((2,))
    table.randint(1, 6)
    with pytest.raises(IndexError):
        table.randint(1, 6)


def test_faces_given_are_the_source_whatever_the_server_s_dice() -> None:
    source = dice_source(Script(1, 1), (5, 6), None)
    assert isinstance(source, TableFaces)
    assert [source.randint(1, 6), source.randint(1, 6)] == [5, 6]


def test_without_faces_or_seed_the_server_s_dice_roll() -> None:
    server = Script(3)
    assert dice_source(server, None, None) is server


def test_a_seed_rolls_reproducibly() -> None:
    first = dice_source(Script(), None, 42)
    again = dice_source(Script(), None, 42)
    faces = [first.randint(1, 20) for _ in range(10)]
    assert faces == [again.randint(1, 20) for _ in range(10)]
    expected = random.Random(42)
    assert faces == [expected.randint(1, 20) for _ in range(10)]
    replay = seeded(42)
    assert faces == [replay.randint(1, 20) for _ in range(10)]


def test_a_seed_on_recording_dice_records_on_the_same_tape() -> None:
    recording = RecordingDice(Script())
    source = dice_source(recording, None, 7)
    faces = [source.randint(1, 6) for _ in range(3)]
    assert recording.faces == faces
    assert recording.seeded


def test_the_strong_dice_are_the_system_s() -> None:
    dice = strong()
    assert isinstance(dice, SystemDice)
    assert all(1 <= dice.randint(1, 6) <= 6 for _ in range(100))


def test_codes_are_the_same_four_under_each_namespace() -> None:
    refusals = FaceRefusals("opend6")
    assert refusals.missing_code == f"opend6/{FACES_MISSING}" == "opend6/faces-missing"
    assert refusals.extra_code == f"opend6/{FACES_EXTRA}" == "opend6/faces-extra"
    assert refusals.and_seed_code == f"opend6/{FACES_AND_SEED}" == "opend6/faces-and-seed"
    assert refusals.out_of_range_code == f"opend6/{FACE_OUT_OF_RANGE}"


def test_faces_not_allowed_is_one_code_under_each_namespace() -> None:
    """Faces sent to a session on the server's dice: Bullseye's bare code, OpenD6's and
    Travelogue's under their namespaces, each at its pointer in its words."""
    assert FACES_NOT_ALLOWED == "faces-not-allowed"
    assert FaceRefusals("").faces_not_allowed("/roll", "The server rolls.") == Concern(
        code="faces-not-allowed", pointer="/roll", detail="The server rolls."
    )
    concern = FaceRefusals("travelogue").faces_not_allowed("/faces", "Send no faces.")
    assert concern == Concern(
        code="travelogue/faces-not-allowed", pointer="/faces", detail="Send no faces."
    )
    assert FaceRefusals("opend6").not_allowed_code == "opend6/faces-not-allowed"


def test_a_ruleset_without_namespace_has_bare_codes() -> None:
    assert FaceRefusals("").missing_code == "faces-missing"


def test_faces_and_seed_points_at_the_seed() -> None:
    concern = FaceRefusals("travelogue").faces_and_seed("Faces or a seed, not both.")
    assert concern == Concern(
        code="travelogue/faces-and-seed", pointer="/seed", detail="Faces or a seed, not both."
    )


def _count(given: int, needed: int, extra_pointer: str | None = None) -> Concern | None:
    return FaceRefusals("quick-shot").count(
        given,
        needed,
        "/faces",
        missing=lambda n: f"{n} more",
        extra=lambda n: f"{n} too many",
        extra_pointer=extra_pointer,
    )


def test_too_few_faces_are_missing_saying_how_many_more() -> None:
    assert _count(1, 3) == Concern(
        code="quick-shot/faces-missing", pointer="/faces", detail="2 more"
    )


def test_too_many_faces_are_extra_saying_how_many_too_many() -> None:
    assert _count(5, 3) == Concern(
        code="quick-shot/faces-extra", pointer="/faces", detail="2 too many"
    )


def test_extra_faces_may_point_at_the_first_face_too_many() -> None:
    concern = _count(4, 3, extra_pointer="/faces/3")
    assert concern is not None
    assert concern.pointer == "/faces/3"


def test_as_many_faces_as_dice_are_not_refused() -> None:
    assert _count(3, 3) is None


def test_each_face_out_of_range_is_refused_at_its_index() -> None:
    concerns = FaceRefusals("travelogue").out_of_range(
        (0, 3, 7, 6), "/faces/shooter", 1, 6, lambda face: f"not {face}"
    )
    assert concerns == [
        Concern(code="travelogue/face-out-of-range", pointer="/faces/shooter/0", detail="not 0"),
        Concern(code="travelogue/face-out-of-range", pointer="/faces/shooter/2", detail="not 7"),
    ]


def test_faces_in_range_are_not_refused() -> None:
    assert FaceRefusals("x").out_of_range((1, 6), "/faces", 1, 6, str) == []


def test_one_face_out_of_range_is_refused_where_it_is() -> None:
    concern = FaceRefusals("travelogue").face_out_of_range("/faces", "not 9")
    assert concern == Concern(code="travelogue/face-out-of-range", pointer="/faces", detail="not 9")
