"""Request metrics are counted in-process and written to the shared store by a flush: at
most once a second, within a second of being counted, and exactly as Prometheus's own
histogram would have counted them one by one."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY, CollectorRegistry, Histogram

from service.metrics import FLUSH_SECONDS, REQUEST_SECONDS, flush_requests, observe_request

# Every bound, just below and just above each, far beyond the last, and zero.
_BOUNDS = [bound for bound in REQUEST_SECONDS._upper_bounds if bound != float("inf")]
DURATIONS = [0.0, *_BOUNDS, *(b * 0.999 for b in _BOUNDS), *(b * 1.001 for b in _BOUNDS), 60.0]


def _stored(route: str, suffix: str, **labels: str) -> float:
    name = (
        "bullseye_http_request_duration_seconds" if suffix != "total" else "bullseye_http_requests"
    )
    value = REGISTRY.get_sample_value(
        f"{name}_{suffix}", {"method": "POST", "route": route, **labels}
    )
    return value or 0.0


def test_flushed_counts_are_those_of_observing_each_request_one_by_one() -> None:
    route = "/test/flush/buckets"
    reference = Histogram(
        "reference", "", buckets=REQUEST_SECONDS._upper_bounds[:-1], registry=CollectorRegistry()
    )
    for seconds in DURATIONS:
        observe_request("POST", route, 200, seconds)
        reference.observe(seconds)
    flush_requests()
    expected = {
        s.labels.get("le"): s.value
        for s in next(iter(reference.collect())).samples
        if s.name == "reference_bucket"
    }
    for le, count in expected.items():
        assert _stored(route, "bucket", le=le) == count, le
    assert _stored(route, "count") == len(DURATIONS)
    assert abs(_stored(route, "sum") - sum(DURATIONS)) < 1e-9
    assert _stored(route, "total", status="200") == len(DURATIONS)


def test_counts_reach_the_store_by_a_flush_within_a_second_not_at_once() -> None:
    route = "/test/flush/timer"

    async def serve() -> tuple[float, float]:
        observe_request("POST", route, 201, 0.002)
        observe_request("POST", route, 201, 0.003)
        right_after = _stored(route, "total", status="201")
        await asyncio.sleep(FLUSH_SECONDS * 1.5)  # the running loop flushes meanwhile
        return right_after, _stored(route, "total", status="201")

    right_after, later = asyncio.run(serve())
    assert right_after == 0
    assert later == 2


def test_a_method_outside_the_known_ones_is_counted_as_other() -> None:
    route = "/test/flush/method"
    observe_request("BREW", route, 405, 0.001)
    flush_requests()
    assert (
        REGISTRY.get_sample_value(
            "bullseye_http_requests_total", {"method": "OTHER", "route": route, "status": "405"}
        )
        == 1
    )
