"""Prometheus /metrics: what an operator scrapes, summed over every worker."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.metrics import sample
from tests.support.served import ServedApp
from tests.support.session_kinds import KINDS


def test_metrics_count_requests_and_conflicts_across_two_workers(
    redis_url: str, tmp_path: Path
) -> None:
    app = ServedApp({"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2"}, tmp_path / "log")
    try:
        app.wait_ready()
        with httpx.Client(base_url=app.url) as client:  # new connections reach both workers
            for _ in range(20):
                client.post(
                    "/v1/checks", json={"target": 5, "seed": 1}, headers={"Connection": "close"}
                )
            created = client.post("/v1/conflicts", json=conflict_body()).json()
            for kind in KINDS[1:]:  # a scene and a game
                assert client.post(kind.collection, json=kind.body()).status_code == 201
            body = {
                "gm": {"roll": {"faces": [20]}},
                "players": {"ana": {"roll": {"faces": [1]}}, "bo": {"roll": {"faces": [1]}}},
            }
            client.post(
                f"/v1/conflicts/{created['id']}/rounds",
                json=body,
                headers=bearer(created["tokens"]["gm"]),
            )
            scraped = client.get("/metrics")
    finally:
        app.stop()
    assert scraped.status_code == 200
    assert scraped.headers["content-type"] == "text/plain; version=1.0.0; charset=utf-8"
    text = scraped.text
    checks = sample(
        text, "bullseye_http_requests_total", method="POST", route="/v1/checks", status="200"
    )
    assert checks == 20
    assert sample(text, "bullseye_http_request_duration_seconds_count", route="/v1/checks") == 20
    assert sample(text, "bullseye_conflicts_created_total") == 1
    # Every kind counted (integrators' review: only conflicts had a created metric).
    for kind in KINDS:
        labels = {"ruleset": kind.ruleset, "kind": kind.kind}
        assert sample(text, "bullseye_sessions_created_total", **labels) == 1, kind.kind
    assert sample(text, "bullseye_conflicts_decided_total") == 1
    assert "bullseye_redis_errors_total" in text
