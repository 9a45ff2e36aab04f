"""prometheus_client's private parts the request metrics rely on, checked against
:data:`CHECKED`: a histogram's bounds, bucket counters and sum, so that a second's requests
are written in one pass instead of one locked ``observe`` each."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from prometheus_client import Histogram

__all__ = ["CHECKED", "add_observations", "upper_bounds"]

CHECKED = ("0.26",)


def upper_bounds(histogram: Histogram) -> tuple[float, ...]:
    """The histogram's bucket bounds (the last is +Inf)."""
    return tuple(histogram._upper_bounds)


def add_observations(histogram: Histogram, seconds: float, counts: list[float]) -> None:
    """As many ``observe`` calls as ``counts`` holds per bucket, summing to ``seconds``."""
    histogram._sum.inc(seconds)
    for bucket, count in zip(histogram._buckets, counts, strict=True):
        if count:
            bucket.inc(count)
