"""Behind a proxy: the client address comes from X-Forwarded-For only when the proxy is trusted.

It matters for RATE_LIMIT without API keys, which counts per client address; both servers
``python -m service`` can run take the trusted proxies from FORWARDED_ALLOW_IPS.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.support.served import ServedApp


def _check(app: ServedApp, forwarded_for: str) -> int:
    return httpx.post(
        f"{app.url}/v1/checks",
        json={"target": 5, "seed": 1},
        headers={"X-Forwarded-For": forwarded_for},
    ).status_code


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_a_trusted_proxy_names_the_client_each_limit_counts(
    server: str, redis_url: str, tmp_path: Path
) -> None:
    env = {
        "REDIS_URL": redis_url,
        "SERVER": server,
        "RATE_LIMIT": "2/minute",
        "FORWARDED_ALLOW_IPS": "127.0.0.1",
    }
    app = ServedApp(env, tmp_path / "service.log")
    try:
        app.wait_ready()
        first = [_check(app, f"198.51.100.{7 if server == 'granian' else 8}") for _ in range(3)]
        other = _check(app, f"198.51.100.{17 if server == 'granian' else 18}")
    finally:
        app.stop()
    assert first == [200, 200, 429]
    assert other == 200


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_an_untrusted_peer_cannot_choose_its_address(
    server: str, redis_url: str, tmp_path: Path
) -> None:
    """The test client (127.0.0.1) is not a trusted proxy here: every forged address counts
    as the one peer it is. (Each server gets its own limit, so their counts stay apart.)"""
    limit = {"granian": 2, "uvicorn": 3}[server]
    env = {
        "REDIS_URL": redis_url,
        "SERVER": server,
        "RATE_LIMIT": f"{limit}/minute",
        "FORWARDED_ALLOW_IPS": "192.0.2.1",
    }
    app = ServedApp(env, tmp_path / "service.log")
    try:
        app.wait_ready()
        answers = [_check(app, f"203.0.113.{n}") for n in range(limit + 1)]
    finally:
        app.stop()
    assert answers == [200] * limit + [429]


def test_trusting_every_peer_is_warned_at_start(redis_url: str, tmp_path: Path) -> None:
    """Security review: with ``FORWARDED_ALLOW_IPS="*"`` behind a proxy that appends to
    X-Forwarded-For, a client picks its own identity. The service still starts (a proxy that
    overwrites the header makes it safe, as the compose file's does) but says so."""
    app = ServedApp({"REDIS_URL": redis_url, "FORWARDED_ALLOW_IPS": "*"}, tmp_path / "log")
    try:
        app.wait_ready()
    finally:
        app.stop()
    warned = [
        line for line in app.log.read_text().splitlines() if "forwarded_allow_ips_any" in line
    ]
    assert len(warned) == 1
    assert '"level":"warning"' in warned[0]
