"""``REDIS_WAIT_REPLICAS``: a session write is answered once a replica holds it (``WAIT``
behind its script, on its connection), against a real primary and replica — and a Redis
Cluster whose masters each have one. A replica stopped (SIGSTOP) cannot acknowledge: the
write is made on the primary and answered 503, and a retry with the same Idempotency-Key
answers with the write's own answer only once a replica holds it, never applying it twice.
"""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.http.contract.problems import UNREPLICATED_DETAIL
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.ha_redis import ClusterSet, Node, Replicated

ROUND = {
    "gm": {"roll": {"faces": [3]}},
    "players": {"ana": {"roll": {"faces": [12]}}, "bo": {"roll": {"faces": [11]}}},
}


@pytest.fixture(scope="module")
def pair() -> Iterator[Replicated]:
    with Replicated(1) as nodes:
        yield nodes.start()


@contextmanager
def stopped(node: Node) -> Iterator[None]:
    """The node frozen (SIGSTOP): connected, but reading and acknowledging nothing."""
    assert node.process is not None
    os.kill(node.process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(node.process.pid, signal.SIGCONT)


def _app(url: str, **settings: object) -> TestClient:
    every = {"redis_wait_replicas": 1, "redis_wait_timeout_ms": 300, "log_format": "json"}
    configured = Settings(redis_url=url, **{**every, **settings})  # type: ignore[arg-type]
    return TestClient(create_app(configured, rng=random.Random(3)))


def _version(client: redis.Redis, cid: str) -> int:
    return int(client.hget(CONFLICTS.kind.state(cid), "v") or 0)


# The primary holding a conflict (by its id), its replica, and a client reading the replica.
Nodes = Callable[[str], tuple[redis.Redis, Node, redis.Redis]]


def _plays_a_round_through_a_stopped_replica(client: TestClient, nodes: Nodes) -> None:
    created = client.post("/v1/conflicts", json=conflict_body()).json()
    cid, gm = created["id"], bearer(created["tokens"]["gm"])
    primary, replica, replica_client = nodes(cid)
    path = f"/v1/conflicts/{cid}/rounds"
    first = client.post(path, json=ROUND, headers={**gm, "Idempotency-Key": "one"})
    assert first.status_code == 200, first.text
    assert _version(replica_client, cid) == 2  # the replica held it before the answer
    retry = {**gm, "Idempotency-Key": "two"}
    with stopped(replica):
        refused = client.post(path, json=ROUND, headers=retry)
        assert refused.status_code == 503, refused.text
        assert refused.headers["retry-after"] == "2"
        assert refused.json()["type"] == "/problems/store-unavailable"
        assert refused.json()["detail"] == UNREPLICATED_DETAIL
        assert _version(primary, cid) == 3  # made on the primary all the same
        # Its replay waits for the replica too: the answer it would give is the write's.
        assert client.post(path, json=ROUND, headers=retry).status_code == 503
    answered = client.post(path, json=ROUND, headers=retry)
    assert answered.status_code == 200, answered.text
    assert answered.headers["etag"] == '"3"'
    assert answered.json()["number"] == 2
    assert _version(primary, cid) == 3  # applied once
    assert client.post(path, json=ROUND, headers=retry).content == answered.content
    state = client.get(f"/v1/conflicts/{cid}", headers=gm).json()
    assert [r["number"] for r in state["rounds"]] == [1, 2]
    # A delete is answered only once a replica holds it too.
    with stopped(replica):
        assert client.delete(f"/v1/conflicts/{cid}", headers=gm).status_code == 503
    assert client.get(f"/v1/conflicts/{cid}", headers=gm).status_code == 404
    assert _version(replica_client, cid) == 0


def test_writes_wait_for_a_replica(pair: Replicated) -> None:
    primary, replica = pair.client(pair.primary), pair.data[1]
    with _app(pair.url) as client:
        _plays_a_round_through_a_stopped_replica(
            client, lambda _: (primary, replica, pair.client(replica))
        )


def test_without_the_setting_nothing_waits(pair: Replicated) -> None:
    with _app(pair.url, redis_wait_replicas=0) as client, stopped(pair.data[1]):
        created = client.post("/v1/conflicts", json=conflict_body()).json()
        gm = bearer(created["tokens"]["gm"])
        path = f"/v1/conflicts/{created['id']}/rounds"
        assert client.post(path, json=ROUND, headers=gm).status_code == 200


@pytest.mark.heavy
def test_writes_wait_for_a_replica_on_a_cluster() -> None:
    """The script and WAIT go to the conflict's master in one pipeline (redis-py's path)."""

    def nodes(cid: str) -> tuple[redis.Redis, Node, redis.Redis]:
        master = cluster.node_of(CONFLICTS.kind.state(cid))
        replica = cluster.replica_of(master)
        return master.client(), replica, cluster.replica_reader(replica)

    with ClusterSet(3) as cluster:
        cluster.start()
        # No quota of sessions: the first command of the cluster's client is a waited write.
        with _app(cluster.url, redis_cluster=True, sessions_per_client=0) as client:
            _plays_a_round_through_a_stopped_replica(client, nodes)
