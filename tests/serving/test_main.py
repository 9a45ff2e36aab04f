"""`python -m service`, as `make run` starts it."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import httpx
import pytest
import redis

from service.embedded_redis import EmbeddedRedis
from tests.support.served import ServedApp


def _log_events(log: Path) -> list[dict]:
    events = []
    for line in log.read_text().splitlines():
        if line.startswith("{"):
            events.append(json.loads(line))
    return events


def test_without_redis_url_an_embedded_redis_is_started_and_stopped(tmp_path: Path) -> None:
    """…with a memory ceiling, and a policy that never evicts a session (security review:
    the embedded Redis had no maxmemory)."""
    app = ServedApp({"REDIS_URL": "", "EMBEDDED_REDIS_MAXMEMORY_MB": "64"}, tmp_path / "log")
    try:
        app.wait_ready()
        assert httpx.get(app.url + "/readyz").json()["status"] == "ready"
        check = httpx.post(app.url + "/v1/checks", json={"target": 10, "seed": 3})
        assert check.status_code == 200
        url = next(e for e in _log_events(app.log) if e.get("event") == "redis")["url"]
        with redis.Redis.from_url(url) as embedded:
            config = embedded.config_get("maxmemory*")
    finally:
        assert app.stop() == 0
    redis_events = [e for e in _log_events(app.log) if e.get("event") == "redis"]
    assert redis_events
    assert redis_events[0]["mode"] == "embedded"
    socket_path = Path(redis_events[0]["url"].removeprefix("unix://"))
    assert not socket_path.parent.exists(), "the embedded Redis must be removed on stop"
    assert config["maxmemory"] == str(64 * 1024 * 1024)
    assert config["maxmemory-policy"] == "noeviction"
    assert redis_events[0]["maxmemory_mb"] == 64


@pytest.mark.parametrize("policy", ["allkeys-lru", "volatile-ttl"])
def test_a_redis_that_would_evict_sessions_is_warned_of(policy: str, tmp_path: Path) -> None:
    with EmbeddedRedis("--maxmemory-policy", policy) as url:
        app = ServedApp({"REDIS_URL": url}, tmp_path / "service.log")
        try:
            app.wait_ready()
        finally:
            app.stop()
    (warned,) = (e for e in _log_events(app.log) if e.get("event") == "redis_evicts_sessions")
    assert warned["level"] == "warning"
    assert warned["policy"] == policy


def test_with_redis_url_that_redis_is_used_and_logged(redis_url: str, tmp_path: Path) -> None:
    app = ServedApp({"REDIS_URL": redis_url}, tmp_path / "service.log")
    try:
        app.wait_ready()
        assert httpx.get(app.url + "/readyz").status_code == 200
    finally:
        app.stop()
    events = _log_events(app.log)
    assert {"mode": "external", "url": redis_url}.items() <= next(
        e for e in events if e.get("event") == "redis"
    ).items()
    requests = [e for e in events if e.get("event") == "request"]
    assert requests
    assert all("request_id" in e and "status" in e for e in requests)


@pytest.mark.parametrize(
    ("variable", "value", "message"),
    [
        ("PORT", "not-a-port", "PORT: Expected `int`, got `str`"),
        ("PORT", "70000", "PORT: Expected `int` <= 65535"),
        ("REDIS_URL", "http://x", "REDIS_URL must start with one of redis://"),
        ("REDIS_RETRY_AFTER_SECONDS", "-5", "REDIS_RETRY_AFTER_SECONDS: Expected `int` >= 1"),
        ("REDIS_SOCKET_TIMEOUT", "0", "REDIS_SOCKET_TIMEOUT: Expected `float` > 0.0"),
        ("LOG_FORMAT", "xml", "LOG_FORMAT"),
        # Security review: API keys had no length check and placeholders were accepted.
        ("API_KEYS", "key-1,key-2", "API_KEYS: key 1 of 2 is 5 characters; at least 32"),
        ("API_KEYS", "REPLACE-ME-key-1-0123456789abcdefghij", "API_KEYS: key 1 of 1 looks like a"),
        ("API_KEY_SECRET", "short", "API_KEY_SECRET: the secret is 5 characters"),
        ("REDIS_SENTINELS", "sentinel-1", "REDIS_SENTINELS: 'sentinel-1' is not host:port"),
        ("REDIS_SENTINELS", "a:26379", "REDIS_SENTINEL_MASTER must name the master"),
        ("REDIS_SENTINEL_MASTER", "sessions", "REDIS_SENTINEL_MASTER is set but REDIS_SENTINELS"),
        ("REDIS_WAIT_REPLICAS", "-1", "REDIS_WAIT_REPLICAS: Expected `int` >= 0"),
        ("REDIS_WAIT_TIMEOUT_MS", "0", "REDIS_WAIT_TIMEOUT_MS: Expected `int` >= 1"),
    ],
)
def test_invalid_settings_stop_the_service_with_a_clear_message(
    tmp_path: Path, variable: str, value: str, message: str
) -> None:
    app = ServedApp({variable: value}, tmp_path / "service.log")
    app.process.wait(timeout=20)
    assert app.process.returncode == 2
    output = app.log.read_text()
    assert output.startswith("bullseye: invalid environment")
    assert message in output
    assert "Traceback" not in output
    if variable.startswith("API_KEY"):
        assert value.split(",")[0] not in output  # a secret is described, never quoted


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"REDIS_URL": "redis://redis.example:6379/0"}, "REDIS_URL: with REDIS_SENTINELS the"),
        ({"REDIS_URL": "unix:///run/redis.sock"}, "REDIS_URL: a unix socket cannot be found"),
        ({"REDIS_CLUSTER": "1"}, "REDIS_SENTINELS and REDIS_CLUSTER exclude each other"),
    ],
)
def test_sentinel_settings_that_disagree_stop_the_service(
    tmp_path: Path, extra: dict[str, str], message: str
) -> None:
    env = {"REDIS_SENTINELS": "s1:26379,s2:26379", "REDIS_SENTINEL_MASTER": "sessions", **extra}
    app = ServedApp(env, tmp_path / "service.log")
    app.process.wait(timeout=20)
    assert app.process.returncode == 2
    output = app.log.read_text()
    assert output.startswith("bullseye: invalid environment")
    assert message in output


def test_a_port_already_listened_on_stops_the_service_with_a_clear_message(
    tmp_path: Path,
) -> None:
    """A second `make run` on the same port must not start beside the first one."""
    with socket.socket() as owner:
        owner.bind(("127.0.0.1", 0))
        owner.listen()
        port = owner.getsockname()[1]
        app = ServedApp({"PORT": str(port), "REDIS_URL": ""}, tmp_path / "service.log")
        app.process.wait(timeout=20)
    assert app.process.returncode == 2
    output = app.log.read_text()
    assert output.startswith(f"bullseye: cannot listen on 127.0.0.1:{port}")
    assert "already running" in output
    assert "Traceback" not in output


def test_log_level_is_case_insensitive() -> None:
    from service.settings import Settings

    assert Settings.from_env({"LOG_LEVEL": "debug"}).log_level == "DEBUG"


@pytest.mark.parametrize("path", ["/healthz", "/docs", "/openapi.json"])
def test_served_operational_pages(served_url: str, path: str) -> None:
    assert httpx.get(served_url + path).status_code == 200


def test_logs_never_contain_bodies(redis_url: str, tmp_path: Path) -> None:
    marker = "secret-marker-7f3a"
    app = ServedApp({"REDIS_URL": redis_url}, tmp_path / "service.log")
    try:
        app.wait_ready()
        body = {
            "target": 5,
            "seed": 1,
            "qualities": [{"name": marker, "type": "core", "magnitude": 8}],
        }
        assert httpx.post(app.url + "/v1/checks", json=body).status_code == 200
        bad = {"target": 5, "qualities": [{"name": marker, "type": "core", "magnitude": 800}]}
        assert httpx.post(app.url + "/v1/checks", json=bad).status_code == 400
    finally:
        app.stop()
    log = app.log.read_text()
    assert '"path":"/v1/checks"' in log
    assert marker not in log


def test_logs_name_the_conflict_but_never_keys_or_tokens(redis_url: str, tmp_path: Path) -> None:
    key = "api-key-that-must-not-be-logged-0123456789"
    app = ServedApp({"REDIS_URL": redis_url, "API_KEYS": key}, tmp_path / "service.log")
    try:
        app.wait_ready()
        headers = {"X-API-Key": key}
        created = httpx.post(
            app.url + "/v1/conflicts",
            headers=headers,
            json={
                "name": "Logged",
                "opposition": {"name": "Them"},
                "players": [
                    {
                        "id": "a",
                        "name": "A",
                        "qualities": [{"name": "Q", "type": "core", "magnitude": 8}],
                    }
                ],
            },
        ).json()
        token = created["tokens"]["gm"]
        read = httpx.get(
            f"{app.url}/v1/conflicts/{created['id']}",
            headers={**headers, "Authorization": f"Bearer {token}"},
        )
        assert read.status_code == 200
    finally:
        app.stop()
    log = app.log.read_text()
    assert key not in log
    assert token not in log
    reads = [
        e
        for e in _log_events(app.log)
        if e.get("method") == "GET" and e.get("path", "").startswith("/v1/conflicts/")
    ]
    assert reads
    assert reads[0]["session_id"] == created["id"]
