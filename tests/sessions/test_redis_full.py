"""A Redis at its maxmemory is a distinct 503 (state-store-full), logged, and /readyz says so;
nothing stored is lost and stateless routes keep answering."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, conflict_body, create
from tests.support.problems import assert_problem

ROUND = {"gm": {}, "players": {"ana": {}, "bo": {}}}


@pytest.fixture
def own_redis() -> Iterator[str]:
    """A Redis of this test's own: filling the shared one would fail other tests."""
    with EmbeddedRedis() as url:
        yield url


def test_a_full_redis_refuses_writes_with_state_store_full(
    own_redis: str, capfd: pytest.CaptureFixture[str]
) -> None:
    with TestClient(
        create_app(Settings(redis_url=own_redis, log_format="json"), rng=random.Random(3))
    ) as client:
        created = create(client)
        path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
        before = client.get(path, headers=bearer(gm)).json()
        admin = redis.Redis.from_url(own_redis)
        admin.config_set("maxmemory-policy", "noeviction")
        admin.config_set("maxmemory", 1)
        try:
            refused = client.post("/v1/conflicts", json=conflict_body())
            assert_problem(refused, 503, "state-store-full")
            assert refused.headers["retry-after"]
            round_refused = client.post(f"{path}/rounds", json=ROUND, headers=bearer(gm))
            assert_problem(round_refused, 503, "state-store-full")
            assert_problem(client.get("/readyz"), 503, "state-store-full")
            assert client.post("/v1/checks", json={"target": 5, "seed": 1}).status_code == 200
            assert client.get(path, headers=bearer(gm)).json() == before
        finally:
            admin.config_set("maxmemory", 0)
            admin.close()
        assert client.get("/readyz").status_code == 200
        assert client.post(f"{path}/rounds", json=ROUND, headers=bearer(gm)).status_code == 200
    logged = [json.loads(line) for line in capfd.readouterr().err.splitlines() if line[:1] == "{"]
    full = [line for line in logged if line.get("event") == "state_store_full"]
    assert full
    assert "OOM" in full[0]["error"]
