"""Prometheus metrics, shared by every worker process of one server.

With several workers each process writes its samples under ``PROMETHEUS_MULTIPROC_DIR``
(``python -m service`` sets one up) and ``/metrics`` aggregates them, so a scrape sees
the whole server whichever worker answers it.
"""

from __future__ import annotations

import os
from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Histogram,
    generate_latest,
)
from prometheus_client.multiprocess import MultiProcessCollector

__all__ = [
    "CONFLICTS_CREATED",
    "CONFLICTS_DECIDED",
    "CONTENT_TYPE",
    "RATE_LIMITED",
    "REDIS_ERRORS",
    "REQUESTS",
    "REQUEST_SECONDS",
    "SESSION_COPIES",
    "exposition",
    "observe_request",
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
CONFLICTS_DECIDED = Counter("bullseye_conflicts_decided", "Expanded conflicts decided.")
REDIS_ERRORS = Counter("bullseye_redis_errors", "Redis calls that failed.")
RATE_LIMITED = Counter(
    "bullseye_rate_limited", "Requests refused by the rate limiter, by route.", ["route"]
)
SESSION_COPIES = Counter(
    "bullseye_session_copies",
    "Remembered session copies put to use, by kind (conflict, …) and whether they were "
    "still current (mostly stale: requests for one session are spread over many workers).",
    ["kind", "found"],
)


_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_request_children: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def observe_request(method: str, route: str, status: int, seconds: float) -> None:
    """Count one answered request and its duration.

    The labelled children are looked up once per (method, route, status): ``labels()``
    costs more than the increment itself.
    """
    if method not in _METHODS:
        method = "OTHER"  # bounded label values, whatever a client sends
    key = (method, route, status)
    children = _request_children.get(key)
    if children is None:
        children = (REQUESTS.labels(method, route, status), REQUEST_SECONDS.labels(method, route))
        _request_children[key] = children
    children[0].inc()
    children[1].observe(seconds)


def exposition() -> bytes:
    """The text exposition of every metric of this server (all workers)."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry)
    return generate_latest(REGISTRY)
