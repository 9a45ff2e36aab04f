"""Live sessions per client and a bounded TTL (security review: sessions were created
anonymously, with a TTL the caller picked up to 7 days, so any caller grew Redis without
bound). Every kind of session counts against one quota per client: its API key, else its
address."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings, SettingsError
from tests.support.problems import assert_problem
from tests.support.served import ServedApp
from tests.support.session_kinds import KINDS, Kind

IDS = [f"{kind.ruleset}-{kind.kind}" for kind in KINDS]
KEY_A = "key-a-0123456789abcdefghijklmnopqrstu"
KEY_B = "key-b-0123456789abcdefghijklmnopqrstu"


@pytest.fixture
def quota3(redis_url: str) -> Iterator[TestClient]:
    settings = Settings(
        redis_url=redis_url,
        sessions_per_client=3,
        session_ttl_max_seconds=3600,
        conflict_ttl_seconds=600,
        api_keys=f"{KEY_A},{KEY_B}",
        api_key_secret="secret-0123456789abcdefghijklmnopqrstuvwxyz",
        log_format="json",
    )
    with TestClient(create_app(settings, rng=random.Random(3))) as client:
        yield client


def _create(
    client: TestClient | httpx.Client, kind: Kind, key: str, **extra: object
) -> httpx.Response:
    return client.post(kind.collection, json={**kind.body(), **extra}, headers={"X-API-Key": key})


def test_a_client_keeps_at_most_its_quota_of_live_sessions(quota3: TestClient) -> None:
    created = [_create(quota3, kind, KEY_A) for kind in KINDS]  # one of each kind: 3
    refused = _create(quota3, KINDS[0], KEY_A)
    other = _create(quota3, KINDS[0], KEY_B)  # another client: a quota of its own
    assert [answer.status_code for answer in created] == [201, 201, 201]
    assert_problem(refused, 429, "too-many-sessions")
    assert "SESSIONS_PER_CLIENT" in refused.json()["detail"]
    assert 1 <= int(refused.headers["retry-after"]) <= 600  # the first one's time, untouched
    assert other.status_code == 201


def test_a_deleted_or_expired_session_gives_its_place_back(
    quota3: TestClient, redis_url: str
) -> None:
    conflict, scene, game = KINDS
    first = _create(quota3, conflict, KEY_A).json()
    second = _create(quota3, scene, KEY_A).json()
    _create(quota3, game, KEY_A)
    assert_problem(_create(quota3, conflict, KEY_A), 429, "too-many-sessions")
    deleted = quota3.delete(
        f"{conflict.collection}/{first['id']}",
        headers={"X-API-Key": KEY_A, "X-Conflict-Token": first["tokens"]["gm"]},
    )
    assert deleted.status_code == 204
    assert _create(quota3, conflict, KEY_A).status_code == 201
    # A session whose time runs out (made to run out now, in the real Redis; a session lives
    # a minute at least, so its place was taken at least that long ago).
    store = redis.Redis.from_url(redis_url)
    try:
        for key in store.scan_iter(f"opend6:scene:{{{second['id']}}}*"):
            store.pexpire(key, 1)
        places = next(iter(store.scan_iter("bullseye:sessions:{*")))
        store.zadd(places, {f"opend6:scene:{{{second['id']}}}": 0}, xx=True)
    finally:
        store.close()
    time.sleep(0.01)  # past the millisecond it had left
    assert _create(quota3, scene, KEY_A).status_code == 201


@pytest.mark.parametrize("kind", KINDS, ids=IDS)
def test_a_ttl_past_the_deployments_bound_is_refused(quota3: TestClient, kind: Kind) -> None:
    answer = _create(quota3, kind, KEY_A, ttl_seconds=3601)
    problem = assert_problem(answer, 422, "ttl-too-long")
    assert problem["errors"][0]["pointer"] == "/ttl_seconds"
    assert "3600" in problem["detail"]
    assert _create(quota3, kind, KEY_A, ttl_seconds=3600).status_code == 201


def test_the_default_ttl_may_not_pass_the_bound() -> None:
    with pytest.raises(SettingsError, match="CONFLICT_TTL_SECONDS must be at most"):
        Settings.from_env({"CONFLICT_TTL_SECONDS": "7200", "SESSION_TTL_MAX_SECONDS": "3600"})


def test_creations_racing_at_the_limit_never_pass_it(redis_url: str, tmp_path: Path) -> None:
    """Sixteen creations at once from one address, on two processes (two replicas), against
    a quota of five: never more than five are stored."""
    env = {"REDIS_URL": redis_url, "SESSIONS_PER_CLIENT": "5"}
    apps = [ServedApp(env, tmp_path / f"{n}.log") for n in range(2)]
    game = KINDS[2]
    try:
        for app in apps:
            app.wait_ready()

        def create(n: int) -> int:
            with httpx.Client(base_url=apps[n % 2].url, timeout=10) as client:
                return client.post(game.collection, json=game.body()).status_code

        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(create, range(16)))
    finally:
        for app in apps:
            app.stop()
    assert set(statuses) <= {201, 429}
    assert 1 <= statuses.count(201) <= 5
