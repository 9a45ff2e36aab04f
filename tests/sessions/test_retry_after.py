"""Every 409 and 503 a retry can cure carries Retry-After, and the retry does cure it; a
rule conflict carries none. Real faults against real Redis: another writer that wins every
compare-and-set (through a proxy that lets it act first), a write held on its way while
its retry arrives, a stopped Redis, a Redis at its maxmemory."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.sessions.engine import MAX_WRITE_ATTEMPTS
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, conflict_body, create, faces
from tests.support.problems import assert_problem
from tests.support.proxy import HoldingProxy

TIED = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}


@pytest.fixture
def through_proxy(proxy: HoldingProxy) -> Iterator[TestClient]:
    settings = Settings(redis_url=proxy.url, redis_socket_timeout=3.0, log_format="json")
    with TestClient(create_app(settings, rng=random.Random(5))) as client:
        yield client


def test_a_lost_compare_and_set_is_409_with_retry_after_and_the_retry_goes_through(
    through_proxy: TestClient, proxy: HoldingProxy, redis_url: str
) -> None:
    """Another writer moves the conflict on before each of the request's writes reaches
    Redis: every attempt loses its compare-and-set, and the request gives up."""
    client = through_proxy
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}/rounds", bearer(created["tokens"]["gm"])
    store = client.app.state.sessions.engine(CONFLICTS).store
    rival = redis.Redis.from_url(redis_url)
    envelope = CONFLICTS.kind.state(created["id"])
    proxy.before_each(store.write_sha.encode(), lambda: rival.hincrby(envelope, "v", 1))
    try:
        lost = client.post(path, json=TIED, headers=gm)
        keyed = client.post(path, json=TIED, headers={**gm, "Idempotency-Key": "k-cas"})
    finally:
        proxy.before_each(store.write_sha.encode(), None)
        rival.close()
    assert proxy.preceded == 2 * MAX_WRITE_ATTEMPTS  # every attempt of both lost
    for answer in (lost, keyed):
        assert_problem(answer, 409, "concurrent-update")
        assert answer.headers["retry-after"] == "1"
    time.sleep(int(keyed.headers["retry-after"]))
    retried = client.post(path, json=TIED, headers={**gm, "Idempotency-Key": "k-cas"})
    assert retried.status_code == 200, retried.text  # the key was not kept by the loser
    assert retried.json()["number"] == 1


def test_a_retry_while_the_first_request_runs_is_409_with_retry_after(
    through_proxy: TestClient, proxy: HoldingProxy
) -> None:
    """The first request's write is held on its way to Redis; its retry (same key, same
    body) arrives meanwhile: 409 request-in-flight, and after Retry-After the first answer."""
    client = through_proxy
    created = create(client, dice_source="server")
    path = f"/v1/conflicts/{created['id']}/rounds"
    keyed = {**bearer(created["tokens"]["gm"]), "Idempotency-Key": "k-flight"}
    round_ = {"gm": {}, "players": {"ana": {}, "bo": {}}}
    store = client.app.state.sessions.engine(CONFLICTS).store
    proxy.delay_next(store.write_sha.encode(), 1.5)
    first: list[httpx.Response] = []
    running = threading.Thread(
        target=lambda: first.append(client.post(path, json=round_, headers=keyed))
    )
    running.start()
    try:
        deadline = time.monotonic() + 5
        while proxy.delayed == 0:  # the first request is writing
            assert time.monotonic() < deadline
            time.sleep(0.01)
        meanwhile = client.post(path, json=round_, headers=keyed)
    finally:
        running.join()
    assert_problem(meanwhile, 409, "request-in-flight")
    assert meanwhile.headers["retry-after"] == "1"
    (answered,) = first
    assert answered.status_code == 200, answered.text
    time.sleep(int(meanwhile.headers["retry-after"]))
    retried = client.post(path, json=round_, headers=keyed)
    assert retried.status_code == 200
    assert retried.content == answered.content  # the first answer, not a second round


def test_a_stopped_redis_is_503_with_the_configured_retry_after_and_cured_by_its_return(
    tmp_path: Path,
) -> None:
    server = EmbeddedRedis(directory=tmp_path / "redis")
    settings = Settings(
        redis_url=server.start(),
        redis_socket_timeout=0.3,
        redis_connect_timeout=0.3,
        redis_retry_after_seconds=3,
        log_format="json",
    )
    try:
        with TestClient(create_app(settings, rng=random.Random(6))) as client:
            created = create(client)
            base, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
            server.stop()
            for answer in (
                client.post("/v1/conflicts", json=conflict_body()),
                client.get(base, headers=gm),
                client.post(f"{base}/rounds", json=TIED, headers=gm),
                client.post(f"{base}/events/tickets", headers=gm),
                client.get("/readyz"),
            ):
                assert_problem(answer, 503, "store-unavailable")
                assert answer.headers["retry-after"] == "3"
            assert client.post("/v1/checks", json={"target": 5, "seed": 1}).status_code == 200
            server.start()
            assert client.post("/v1/conflicts", json=conflict_body()).status_code == 201
    finally:
        server.stop()


def test_a_full_redis_is_503_with_the_configured_retry_after(tmp_path: Path) -> None:
    with EmbeddedRedis(directory=tmp_path / "redis") as url:
        settings = Settings(redis_url=url, redis_retry_after_seconds=4, log_format="json")
        with TestClient(create_app(settings)) as client:
            admin = redis.Redis.from_url(url)
            admin.config_set("maxmemory-policy", "noeviction")
            admin.config_set("maxmemory", 1)
            refused = client.post("/v1/conflicts", json=conflict_body())
            admin.config_set("maxmemory", 0)
            admin.close()
            assert_problem(refused, 503, "state-store-full")
            assert refused.headers["retry-after"] == "4"
            assert client.post("/v1/conflicts", json=conflict_body()).status_code == 201


def test_conflicts_no_retry_can_cure_carry_no_retry_after(client: TestClient) -> None:
    """A rule conflict (§4.3: a round other than the current one) stays a conflict however
    often it is sent (a session past its ceiling, too: test_session_store)."""
    created = create(client)
    base, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
    wrong = client.post(f"{base}/rounds/2/checks", json={"participant": "gm", **faces(9)},
                        headers=gm)  # fmt: skip
    assert_problem(wrong, 409, "wrong-round")
    assert "retry-after" not in wrong.headers
    assert client.post(f"{base}/rounds", json=TIED, headers=gm).status_code == 200
    again = client.post(f"{base}/rounds/1/checks", json={"participant": "gm", **faces(9)},
                        headers=gm)  # fmt: skip
    assert again.status_code == 409
    assert "retry-after" not in again.headers
