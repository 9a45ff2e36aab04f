"""The base of every value the service decodes, keeps or answers with."""

from __future__ import annotations

from typing import TypeVar

import msgspec

__all__ = ["Value", "as_view"]


class Value(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Immutable, built by keyword, and not tracked by Python's cycle collector.

    Values never take part in reference cycles, and a worker may hold many thousands of
    them (each remembered conflict is a tree of them): tracked, they made the collector's
    full passes the longest pauses of a busy worker. Options are inherited by subclasses.
    """


V = TypeVar("V", bound=msgspec.Struct)


def as_view(value: msgspec.Struct, view: type[V]) -> V:
    """``value`` as ``view``, a subclass of its type that an answer publishes: the same
    fields and the same JSON, its nested request shapes turned into their own views.

    Answers never reuse a request's schema: a field a request may leave out (it has a
    default) an answer always sends. A view's schema is reached by answers alone, so the
    published document lists its every field as required (``http.openapi_contract``). A
    view adds no field of its own, so a stored value (which keeps its defaults, for
    sessions written by an earlier release) always converts.
    """
    return msgspec.convert(msgspec.to_builtins(value), view)
