"""The base of every value the service decodes, keeps or answers with."""

from __future__ import annotations

import msgspec

__all__ = ["Value"]


class Value(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """Immutable, built by keyword, and not tracked by Python's cycle collector.

    Values never take part in reference cycles, and a worker may hold many thousands of
    them (each remembered conflict is a tree of them): tracked, they made the collector's
    full passes the longest pauses of a busy worker. Options are inherited by subclasses.
    """
