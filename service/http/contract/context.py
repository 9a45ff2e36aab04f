"""Per-request context: the request id, visible to handlers and every log line."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextvars import ContextVar

__all__ = ["CLIENT_GONE", "IDS_PER_DRAW", "REQUEST_ID", "current_request_id", "new_id"]

REQUEST_ID: ContextVar[str | None] = ContextVar("request_id", default=None)
# Set when the client hung up before its answer began: the error that follows is not ours.
CLIENT_GONE: ContextVar[bool] = ContextVar("client_gone", default=False)


def current_request_id() -> str | None:
    """The id of the request being served, if any."""
    return REQUEST_ID.get()


# Ids drawn per system call: one call to the system's random source fills this many.
IDS_PER_DRAW = 256
_ids: Iterator[str] = iter(())


def _draw() -> Iterator[str]:
    # Split in C: a space after every 16 bytes' hex digits.
    return iter(os.urandom(16 * IDS_PER_DRAW).hex(" ", 16).split())


def _forget_ids() -> None:
    """A forked child draws its own: the parent's remaining ids are the parent's."""
    global _ids
    _ids = iter(())


os.register_at_fork(after_in_child=_forget_ids)


def new_id() -> str:
    """A fresh 128-bit random id in hex (as ``uuid4().hex``, from the system's random source).

    The random bytes are drawn for ``IDS_PER_DRAW`` ids at a time: a system call per id
    was most of an id's cost. ``next`` on a list iterator is atomic, so two threads never
    get the same id; a draw that races another only discards unused ids.
    """
    global _ids
    try:
        return next(_ids)
    except StopIteration:
        _ids = _draw()
        return next(_ids)
