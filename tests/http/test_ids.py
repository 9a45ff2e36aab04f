"""Request and check ids: 128 random bits in hex, never repeated, not even across a fork."""

from __future__ import annotations

import os
import re

from service.http.contract.context import IDS_PER_DRAW, new_id


def test_ids_are_32_hex_digits_and_distinct_across_several_draws() -> None:
    ids = [new_id() for _ in range(3 * IDS_PER_DRAW + 7)]
    assert all(re.fullmatch(r"[0-9a-f]{32}", each) for each in ids)
    assert len(set(ids)) == len(ids)


def test_a_forked_worker_draws_its_own_ids_not_the_parents_next_ones() -> None:
    new_id()  # the parent holds part of a draw when the server forks its workers
    reader, writer = os.pipe()
    child = os.fork()
    if child == 0:  # pragma: no cover - the child reports through the pipe
        try:
            os.write(writer, "".join(new_id() for _ in range(4)).encode())
        finally:
            os._exit(0)
    os.close(writer)
    with os.fdopen(reader, "rb") as pipe:
        child_ids = pipe.read().decode()
    os.waitpid(child, 0)
    parent_ids = "".join(new_id() for _ in range(4))
    assert len(child_ids) == len(parent_ids) == 128
    assert child_ids != parent_ids
