"""The service, unchanged, against a real Redis Sentinel set-up started here: a primary and
two replicas, each with a password, and three sentinels with their own. Every Redis path —
the session scripts (the lean path), the stream and rate-limiter clients, readiness —
finds the master through the sentinels, and follows the new one as soon as the sentinels
announce it (a manual failover: the old master stays up, taking writes that a resync
would undo, until Sentinel demotes it some ten seconds later). Writes wait for a replica
(REDIS_WAIT_REPLICAS=1), so one sent to the old master meanwhile is never acknowledged."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.sessions.client import make_client
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.ha_redis import MASTER, SentinelSet, wait_until
from tests.support.served import ServedApp
from tests.support.sse import read_sse

pytestmark = pytest.mark.heavy

PASSWORD = "data-secret"
SENTINEL_PASSWORD = "sentinel-secret"
ROUND = {
    "gm": {"roll": {"faces": [3]}},
    "players": {"ana": {"roll": {"faces": [12]}}, "bo": {"roll": {"faces": [11]}}},
}


@pytest.fixture(scope="module")
def sentinels() -> Iterator[SentinelSet]:
    with SentinelSet(2, password=PASSWORD, sentinel_password=SENTINEL_PASSWORD) as nodes:
        yield nodes.start()


def _env(nodes: SentinelSet) -> dict[str, str]:
    return {
        "REDIS_SENTINELS": nodes.addresses,
        "REDIS_SENTINEL_MASTER": MASTER,
        "REDIS_SENTINEL_PASSWORD": SENTINEL_PASSWORD,
        "REDIS_URL": f"redis://:{PASSWORD}@{MASTER}/0",
        "RATE_LIMIT": "100000/minute",
        "SSE_KEEP_ALIVE_SECONDS": "0.5",
        "REDIS_WAIT_REPLICAS": "1",
        "REDIS_WAIT_TIMEOUT_MS": "300",
    }


def _round(client: httpx.Client, path: str, gm: dict[str, str], key: str) -> httpx.Response:
    """A round with ``key``, sent again while the service cannot reach a master yet."""
    deadline = time.monotonic() + 30
    while True:
        answer = client.post(f"{path}/rounds", json=ROUND, headers={**gm, "Idempotency-Key": key})
        if answer.status_code != 503 or time.monotonic() > deadline:
            return answer
        time.sleep(0.1)


def test_every_path_follows_the_master_through_a_failover(
    sentinels: SentinelSet, tmp_path: Path
) -> None:
    # Found through the sentinels, an evicting master is warned of as any other.
    sentinels.client(sentinels.master()).config_set("maxmemory-policy", "volatile-lru")
    app = ServedApp(_env(sentinels), tmp_path / "service.log")
    try:
        app.wait_ready()
        with httpx.Client(base_url=app.url, timeout=30) as client:
            assert client.get("/readyz").status_code == 200
            created = client.post("/v1/conflicts", json=conflict_body()).json()
            cid, gm = created["id"], bearer(created["tokens"]["gm"])
            path = f"/v1/conflicts/{cid}"
            first = _round(client, path, gm, "before")
            assert first.status_code == 200, first.text
            limited = int(first.headers["ratelimit-remaining"])
            old = sentinels.master()
            sentinels.client(old).config_set("maxmemory-policy", "noeviction")
            assert int(sentinels.client(old).hget(CONFLICTS.kind.state(cid), "v") or 0) == 2

            sentinels.sentinel_client(sentinels.sentinels[0]).sentinel_failover(MASTER)
            wait_until(lambda: sentinels.master_port() not in (None, old.port), "a new master")
            switched = time.monotonic()
            new = sentinels.master()
            second = _round(client, path, gm, "after")
            assert second.status_code == 200, second.text
            # Well before Sentinel demotes the old master (and closes its clients).
            assert time.monotonic() - switched < 5
            assert second.json()["number"] == 2
            # The new master holds both rounds: the scripts' connections followed it.
            assert int(sentinels.client(new).hget(CONFLICTS.kind.state(cid), "v") or 0) == 3
            assert _round(client, path, gm, "after").content == second.content
            wait_until(lambda: client.get("/readyz").status_code == 200, "ready again")
            # The rate limiter's client followed too: it counts on in the new master.
            assert int(second.headers["ratelimit-remaining"]) < limited
            assert sentinels.client(new).keys("bullseye:ratelimit:*")
            # The streams' client reads the new master's stream: both rounds' events.
            with client.stream("GET", f"{path}/events", headers=gm) as stream:
                events = [event["event"] for event in read_sse(stream, 2)]
            assert events == ["round.resolved", "round.resolved"]
            assert client.delete(path, headers=gm).status_code == 204
            assert client.get(path, headers=gm).status_code == 404
    finally:
        app.stop()
    logged = [json.loads(line) for line in app.log.read_text().splitlines() if line[:1] == "{"]
    (redis_event,) = (event for event in logged if event.get("event") == "redis")
    assert redis_event["mode"] == "sentinel"
    assert redis_event["master"] == MASTER
    (warned,) = (event for event in logged if event.get("event") == "redis_evicts_sessions")
    assert warned["policy"] == "volatile-lru"
    assert PASSWORD not in app.log.read_text()
    assert SENTINEL_PASSWORD not in app.log.read_text()


def test_a_full_pool_waits_for_a_connection(sentinels: SentinelSet) -> None:
    """As with one server's pool: a request finding every connection busy waits for one
    (up to REDIS_POOL_TIMEOUT) instead of failing at once."""
    settings = Settings(
        redis_sentinels=sentinels.addresses,
        redis_sentinel_master=MASTER,
        redis_sentinel_password=SENTINEL_PASSWORD,
        redis_url=f"redis://:{PASSWORD}@{MASTER}/0",
        redis_max_connections=1,
        redis_pool_timeout=5,
    )

    async def run() -> list[object]:
        client = make_client(settings)
        try:
            return await asyncio.gather(
                *(client.blpop([f"nothing-{n}"], timeout=0.3) for n in range(2))
            )
        finally:
            await client.aclose()

    assert asyncio.run(run()) == [None, None]
