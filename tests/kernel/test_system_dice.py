"""The server's dice: buffered system randomness, every face exactly as likely."""

from __future__ import annotations

import collections
import os

import pytest

from service.kernel import system_dice
from service.kernel.system_dice import SystemDice


def _faces_of_every_byte(sides: int) -> collections.Counter[int]:
    """The face each of the 256 byte values gives (rejected ones give none)."""
    dice = SystemDice()
    counts: collections.Counter[int] = collections.Counter()
    sentinel = 0  # every rejected byte is followed by 0, which is always accepted
    for value in range(256):
        system_dice._bytes = iter(bytes([value, sentinel]))
        face = dice.randint(1, sides)
        if next(system_dice._bytes, None) is None:  # the sentinel was used: value rejected
            continue
        counts[face] += 1
    return counts


@pytest.mark.parametrize("sides", [2, 3, 6, 10, 20, 100, 255, 256])
def test_each_face_is_reached_by_as_many_byte_values(sides: int) -> None:
    counts = _faces_of_every_byte(sides)
    assert sorted(counts) == list(range(1, sides + 1))
    assert set(counts.values()) == {256 // sides}


def test_faces_stay_in_range_and_larger_ranges_fall_back() -> None:
    dice = SystemDice()
    assert {dice.randint(1, 20) for _ in range(2000)} == set(range(1, 21))
    assert {dice.randint(-2, -1) for _ in range(200)} == {-2, -1}
    assert all(1 <= dice.randint(1, 10_000) <= 10_000 for _ in range(200))
    assert dice.randint(7, 7) == 7
    assert 0.0 <= dice.random() < 1.0


def test_a_forked_child_rolls_its_own_dice() -> None:
    dice = SystemDice()
    dice.randint(1, 20)  # the parent holds a buffer now
    read, write = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child
        os.write(write, bytes(dice.randint(1, 20) for _ in range(32)))
        os._exit(0)
    os.close(write)
    theirs = os.read(read, 64)
    os.close(read)
    os.waitpid(child, 0)
    ours = bytes(dice.randint(1, 20) for _ in range(32))
    assert len(theirs) == 32
    assert theirs != ours  # the same 32 rolls: 1 chance in 20**32
