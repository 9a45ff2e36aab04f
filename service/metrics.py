"""Prometheus metrics, shared by every worker process of one server.

With several workers each process writes its samples under ``PROMETHEUS_MULTIPROC_DIR``
(``python -m service`` sets one up) and ``/metrics`` aggregates them, so a scrape sees
the whole server whichever worker answers it. The requests (counter and durations) are
counted in-process and written there at most once a second (:func:`flush_requests`).
"""

from __future__ import annotations

import asyncio
import atexit
import os
from bisect import bisect_left

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector

from service.compat.prometheus_client import add_observations, upper_bounds

__all__ = [
    "CONFLICTS_CREATED",
    "CONFLICTS_DECIDED",
    "CONTENT_TYPE",
    "FLUSH_SECONDS",
    "RATE_LIMITED",
    "REDIS_ERRORS",
    "REQUESTS",
    "REQUEST_SECONDS",
    "SESSIONS_CREATED",
    "SESSION_COPIES",
    "WRITES_UNREPLICATED",
    "exposition",
    "flush_requests",
    "observe_request",
    "shared_by_workers",
]

# Without its charset parameter: the response adds one for text media types itself.
CONTENT_TYPE = CONTENT_TYPE_LATEST.replace("; charset=utf-8", "")

REQUESTS = Counter(
    "bullseye_http_requests", "HTTP requests answered.", ["method", "route", "status"]
)
REQUEST_SECONDS = Histogram(
    "bullseye_http_request_duration_seconds",
    "Time to answer an HTTP request.",
    ["method", "route"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
CONFLICTS_CREATED = Counter("bullseye_conflicts_created", "Expanded conflicts created.")
SESSIONS_CREATED = Counter(
    "bullseye_sessions_created", "Sessions created, by ruleset and kind.", ["ruleset", "kind"]
)
CONFLICTS_DECIDED = Counter("bullseye_conflicts_decided", "Expanded conflicts decided.")
REDIS_ERRORS = Counter("bullseye_redis_errors", "Redis calls that failed.")
WRITES_UNREPLICATED = Counter(
    "bullseye_writes_unreplicated",
    "Session writes (and replays) answered 503 because fewer replicas than "
    "REDIS_WAIT_REPLICAS acknowledged them in time.",
)
RATE_LIMITED = Counter(
    "bullseye_rate_limited", "Requests refused by the rate limiter, by route.", ["route"]
)
SESSION_COPIES = Counter(
    "bullseye_session_copies",
    "Remembered session copies put to use, by kind (conflict, …) and whether they were "
    "still current (mostly stale: requests for one session are spread over many workers).",
    ["kind", "found"],
)


# Requests are counted here, in this process, and written to the shared store (the
# multi-process files every worker writes, or the registry) at most once a second: there,
# each request cost three locked writes to memory-mapped files (the counter, the
# histogram's sum and one bucket), against a few list updates here (28.5 → 3.9 kIr,
# make bench-instructions).
FLUSH_SECONDS = 1.0
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_BOUNDS: tuple[float, ...] = upper_bounds(REQUEST_SECONDS)  # the last is +Inf
# (method, route, status): [seconds summed, then one count per bucket of _BOUNDS]
_Tally = list[float]
_pending: dict[tuple[str, str, int], _Tally] = {}
_flush_timer: asyncio.TimerHandle | None = None
_flush_loop: asyncio.AbstractEventLoop | None = None


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """Count one answered request and its duration (written out within FLUSH_SECONDS)."""
    if method not in _METHODS:
        method = "OTHER"  # bounded label values, whatever a client sends
    key = (method, route, status)
    tally = _pending.get(key)
    if tally is None:
        tally = _pending[key] = [0.0] * (len(_BOUNDS) + 1)
        _arm_flush()
    tally[0] += seconds
    # The bucket Histogram.observe would count: the first bound at or above ``seconds``.
    tally[1 + bisect_left(_BOUNDS, seconds)] += 1


def _arm_flush() -> None:
    """Have the running loop flush within FLUSH_SECONDS, unless a flush is due already.

    Without a running loop the counts wait for the next flush, scrape or exit."""
    global _flush_timer, _flush_loop
    if _flush_timer is not None and _flush_loop is not None and not _flush_loop.is_closed():
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return
    _flush_loop, _flush_timer = loop, loop.call_later(FLUSH_SECONDS, flush_requests)


def flush_requests() -> None:
    """Write the requests counted since the last flush to the shared store."""
    global _pending, _flush_timer
    pending, _pending = _pending, {}
    if _flush_timer is not None:
        _flush_timer.cancel()
        _flush_timer = None
    for (method, route, status), tally in pending.items():
        counts = tally[1:]
        REQUESTS.labels(method, route, status).inc(sum(counts))
        add_observations(REQUEST_SECONDS.labels(method, route), tally[0], counts)


atexit.register(flush_requests)


def shared_by_workers() -> bool:
    """Whether the metrics are kept for several worker processes (multi-process mode)."""
    return bool(os.environ.get("PROMETHEUS_MULTIPROC_DIR"))


def exposition() -> bytes:
    """The text exposition of every metric of this server (all workers).

    This process's own counts are flushed first; another worker's reach the shared store
    within FLUSH_SECONDS of being counted (the /metrics route waits that long first).
    """
    flush_requests()
    if shared_by_workers():
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)
