"""Rate limits shared by processes through Redis; never in the way when Redis is down."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.support.metrics import sample
from tests.support.served import ServedApp


def test_the_limit_holds_for_the_sum_of_two_processes(redis_url: str, tmp_path: Path) -> None:
    env = {"REDIS_URL": redis_url, "RATE_LIMIT": "10/minute"}
    first = ServedApp(env, tmp_path / "first.log")
    second = ServedApp(env, tmp_path / "second.log")
    try:
        first.wait_ready()
        second.wait_ready()
        answers = [
            httpx.post(f"{(first, second)[i % 2].url}/v1/checks", json={"target": 5, "seed": 1})
            for i in range(16)
        ]
        refusals = sum(
            sample(httpx.get(f"{app.url}/metrics").text, "bullseye_rate_limited_total")
            for app in (first, second)
        )
    finally:
        first.stop()
        second.stop()
    assert [a.status_code for a in answers] == [200] * 10 + [429] * 6
    assert refusals == 6
    assert [a.headers["ratelimit-remaining"] for a in answers[:10]] == [
        str(n) for n in range(9, -1, -1)
    ]
    assert all(1 <= int(a.headers["ratelimit-reset"]) <= 60 for a in answers), [
        a.headers["ratelimit-reset"] for a in answers
    ]
    refused = answers[-1]
    assert refused.json()["type"] == "/problems/rate-limited"
    assert refused.headers["ratelimit-limit"] == "10"
    assert 1 <= int(refused.headers["retry-after"]) <= 60


def test_health_is_never_limited_and_keys_count_apart(redis_url: str, tmp_path: Path) -> None:
    env = {"REDIS_URL": redis_url, "RATE_LIMIT": "3/minute", "API_KEYS": "key-a,key-b"}
    app = ServedApp(env, tmp_path / "log")
    try:
        app.wait_ready()
        for _ in range(5):
            assert httpx.get(f"{app.url}/healthz").status_code == 200

        def check(key: str) -> int:
            return httpx.post(
                f"{app.url}/v1/checks", json={"target": 5}, headers={"X-API-Key": key}
            ).status_code

        assert [check("key-a") for _ in range(4)] == [200, 200, 200, 429]
        assert check("key-b") == 200
    finally:
        app.stop()


def test_an_unreachable_limiter_refuses_nothing(tmp_path: Path) -> None:
    env = {"REDIS_URL": f"unix://{tmp_path / 'gone.sock'}", "RATE_LIMIT": "1/minute"}
    app = ServedApp(env, tmp_path / "log")
    try:
        app.wait_ready()
        for _ in range(3):
            response = httpx.post(f"{app.url}/v1/checks", json={"target": 5, "seed": 1})
            assert response.status_code == 200
            assert "ratelimit-limit" not in response.headers
        metrics = httpx.get(f"{app.url}/metrics").text
    finally:
        app.stop()
    assert sample(metrics, "bullseye_redis_errors_total") >= 3
