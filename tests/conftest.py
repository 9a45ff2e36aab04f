"""Shared fixtures: a real Redis (embedded unless REDIS_URL is set) and the real app.

Under pytest-xdist (``make test`` runs ``-n auto``) every worker is its own process with its
own session fixtures: its own embedded Redis and its own served app, on free ports, in
its own temporary directory.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.settings import Settings
from tests.support.served import ServedApp


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``heavy`` first, by their weight (``heavy(3)``; 1 if none given), the
    heaviest first; the rest in their order. A long test started last would keep one
    worker busy long after the others ran out of tests."""

    def heaviest_first(item: pytest.Item) -> float:
        heavy = item.get_closest_marker("heavy")
        return 0 if heavy is None else -float(heavy.args[0] if heavy.args else 1)

    items.sort(key=heaviest_first)


@pytest.fixture(scope="session")
def redis_url() -> Iterator[str]:
    """REDIS_URL when set (CI against a real server), else a private embedded redis-server."""
    if url := os.environ.get("REDIS_URL"):
        if int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")) > 1:
            # Some tests read server-wide counts (commandstats, the limiter's keys).
            pytest.fail("REDIS_URL is one server for every worker: run the tests with -n 0")
        yield url
        return
    with EmbeddedRedis() as url:
        yield url


@pytest.fixture
def settings(redis_url: str) -> Settings:
    # Every app of these generates its roll signing key and publishes it in the worker's
    # one Redis: kept a minute, not a day, so each new app reads the few of the last
    # minute, not the hundreds of the whole run.
    return Settings(redis_url=redis_url, log_format="json", roll_key_retention_seconds=60)


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    """The real app (lifespan and all) with seeded server dice."""
    with TestClient(create_app(settings, rng=random.Random(7))) as test_client:
        yield test_client


@pytest.fixture(scope="session")
def served_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service served over HTTP by its own process, against the test Redis."""
    # Shared by every test of the worker, Schemathesis's fuzzing and the travelogue's bots
    # (hundreds of players) among them, all from one address: no quota of live sessions,
    # nor of one client's streams (tests/sessions/test_session_quota.py and
    # test_stream_limits.py have their own).
    env = {"REDIS_URL": redis_url, "SESSIONS_PER_CLIENT": "0", "SSE_MAX_PER_CLIENT": "100000"}
    app = ServedApp(env, tmp_path_factory.mktemp("served") / "service.log")
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()


@pytest.fixture(autouse=True)
def _fresh_session_quotas(request: pytest.FixtureRequest) -> Iterator[None]:
    """Each test starts with no live sessions counted against its client (every in-process
    test client is one address, "testclient"): the sessions earlier tests left behind
    would otherwise fill SESSIONS_PER_CLIENT."""
    yield
    if "redis_url" in request.fixturenames:
        store = redis.Redis.from_url(request.getfixturevalue("redis_url"))
        try:
            for key in store.scan_iter("bullseye:sessions:{*", count=1000):
                store.delete(key)
        finally:
            store.close()
