"""Recording dice: every face, in rolling order, as a roll receipt lists them."""

from __future__ import annotations

import random

from service.kernel.dice import RecordingDice, with_seed


class Script:
    """Dice that show the faces they are given, in order."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face


def test_recording_dice_keep_every_face_in_rolling_order():
    dice = RecordingDice(Script(4, 20, 1, 4))
    rolled = [dice.randint(1, 20) for _ in range(4)]
    assert rolled == [4, 20, 1, 4]
    assert dice.faces == [4, 20, 1, 4]


def test_a_seed_rolls_on_the_same_tape():
    """A caller's seed replaces the server's dice; a receipt must still list its faces, after
    those rolled before and before those rolled after."""
    dice = RecordingDice(Script(6, 2))
    first = dice.randint(1, 6)
    reproducible = with_seed(dice, 99)
    seeded_faces = [reproducible.randint(1, 6) for _ in range(3)]
    last = dice.randint(1, 6)
    expected = random.Random(99)
    assert seeded_faces == [expected.randint(1, 6) for _ in range(3)]
    assert dice.faces == [first, *seeded_faces, last] == [6, *seeded_faces, 2]
    assert dice.seeded  # the caller's seed chose some of the faces


def test_dice_without_a_seed_say_no_seed_chose_them():
    dice = RecordingDice(Script(5))
    dice.randint(1, 6)
    assert with_seed(dice, None) is dice
    assert not dice.seeded


def test_without_recording_a_seed_gives_plain_seeded_dice_and_no_seed_the_dice_themselves():
    rng = Script(3)
    assert with_seed(rng, None) is rng
    plain = with_seed(rng, 5)
    assert not isinstance(plain, RecordingDice)
    expected = random.Random(5)
    assert [plain.randint(1, 20) for _ in range(5)] == [expected.randint(1, 20) for _ in range(5)]
