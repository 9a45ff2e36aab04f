"""Conflicts across real processes: two instances on one Redis, concurrency, outages, SSE."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from service.embedded_redis import EmbeddedRedis
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.served import ServedApp
from tests.support.sse import read_sse


@pytest.fixture(scope="module")
def second_url(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A second instance of the service on the same Redis."""
    app = ServedApp({"REDIS_URL": redis_url}, tmp_path_factory.mktemp("second") / "service.log")
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()


def twelve_players() -> dict:
    players = [
        {
            "id": f"p{i}",
            "name": f"Player {i}",
            "qualities": [{"name": "Stubborn", "type": "intrinsic", "magnitude": 5}],
        }
        for i in range(12)
    ]
    return conflict_body(players=players, dice_source="client")


def test_one_instance_creates_and_another_reads_and_advances(
    served_url: str, second_url: str
) -> None:
    created = httpx.post(f"{served_url}/v1/conflicts", json=conflict_body()).json()
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    assert httpx.get(second_url + path, headers=bearer(gm)).json()["scores"] == created["scores"]
    body = {
        "gm": {"roll": {"faces": [9]}},
        "players": {"ana": {"roll": {"faces": [9]}}, "bo": {"roll": {"faces": [9]}}},
    }
    assert (
        httpx.post(f"{second_url}{path}/rounds", json=body, headers=bearer(gm)).status_code == 200
    )
    assert httpx.get(served_url + path, headers=bearer(gm)).json()["round"] == 2


def test_fifty_concurrent_submissions_from_two_processes_lose_nothing(
    served_url: str, second_url: str
) -> None:
    """13 participants (GM + 12 PCs), 50 submissions at once spread over both instances:
    each participant is accepted exactly once, the round resolves exactly once."""
    created = httpx.post(f"{served_url}/v1/conflicts", json=twelve_players()).json()
    cid, tokens = created["id"], created["tokens"]
    participants = ["gm", *tokens["players"]]
    token_of = {"gm": tokens["gm"], **tokens["players"]}

    async def submit(index: int, client: httpx.AsyncClient) -> tuple[str, int]:
        who = participants[index % len(participants)]
        base = (served_url, second_url)[index % 2]
        response = await client.post(
            f"{base}/v1/conflicts/{cid}/rounds/1/checks",
            # Every die shows 10: all ties, so this round cannot decide the conflict.
            json={"participant": who, "roll": {"faces": [10]}},
            headers=bearer(token_of[who]),
        )
        return who, response.status_code

    async def storm() -> list[tuple[str, int]]:
        limits = httpx.Limits(max_connections=60)
        async with httpx.AsyncClient(timeout=30, limits=limits) as client:
            return await asyncio.gather(*(submit(i, client) for i in range(50)))

    results = asyncio.run(storm())
    accepted = [who for who, status in results if status in (200, 202)]
    assert sorted(accepted) == sorted(participants), results
    assert Counter(status for _, status in results) == {202: 12, 200: 1, 409: 37}
    state = httpx.get(f"{served_url}/v1/conflicts/{cid}", headers=bearer(tokens["gm"])).json()
    assert (state["round"], len(state["rounds"])) == (2, 1), {
        k: state[k] for k in ("status", "round", "scores", "version", "submitted", "winner")
    }
    assert set(state["rounds"][0]["players"]) == set(tokens["players"])
    assert state["version"] == 1 + 13


def test_an_sse_client_sees_every_event_in_order_and_resumes(served_url: str) -> None:
    created = httpx.post(f"{served_url}/v1/conflicts", json=conflict_body()).json()
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    ana = tokens["players"]["ana"]
    with httpx.Client(base_url=served_url, timeout=30) as client:
        for who in ("ana", "bo"):
            token = tokens["players"][who]
            client.post(
                f"{path}/rounds/1/checks",
                json={"participant": who, "roll": {"faces": [5]}},
                headers=bearer(token),
            )
        with client.stream("GET", f"{path}/events", headers=bearer(ana)) as stream:
            assert stream.headers["content-type"].startswith("text/event-stream")
            first = read_sse(stream, 2)
        assert [e["event"] for e in first] == ["submission.received", "submission.received"]
        assert json.loads(first[1]["data"]) == {
            "type": "submission.received",  # the event's name, as its published schema says
            "round": 1,
            "participant": "bo",
            "by": "bo",
        }
        client.post(
            f"{path}/rounds/1/checks",
            json={"participant": "gm", "roll": {"faces": [5]}},
            headers=bearer(tokens["gm"]),
        )
        client.delete(path, headers=bearer(tokens["gm"]))
        resume = {**bearer(ana), "Last-Event-ID": first[-1]["id"]}
        with client.stream("GET", f"{path}/events", headers=resume) as stream:
            rest = read_sse(stream, 10)
    assert [e["event"] for e in rest] == [
        "submission.received",
        "round.resolved",
        "conflict.closed",
    ]
    ids = [e["id"] for e in first + rest]
    assert ids == sorted(ids, key=lambda i: tuple(int(p) for p in i.split("-")))


def test_redis_outage_503s_conflicts_only_and_recovery_loses_nothing(tmp_path: Path) -> None:
    """Redis with AOF stops mid-test: conflict routes 503 + Retry-After, checks still 200,
    /readyz 503; Redis back on the same data: the service recovers without a restart."""
    data = tmp_path / "redis"
    aof = ("--appendonly", "yes", "--appendfsync", "always")
    server = EmbeddedRedis(*aof, directory=data)
    restarted = EmbeddedRedis(*aof, directory=data)
    url = server.start()
    app = ServedApp(
        {"REDIS_URL": url, "REDIS_SOCKET_TIMEOUT": "0.5", "REDIS_CONNECT_TIMEOUT": "0.5"},
        tmp_path / "service.log",
    )
    try:
        app.wait_ready()
        created = httpx.post(f"{app.url}/v1/conflicts", json=conflict_body()).json()
        path, gm = f"{app.url}/v1/conflicts/{created['id']}", created["tokens"]["gm"]
        body = {
            "gm": {"roll": {"faces": [9]}},
            "players": {"ana": {"roll": {"faces": [9]}}, "bo": {"roll": {"faces": [9]}}},
        }
        assert httpx.post(f"{path}/rounds", json=body, headers=bearer(gm)).status_code == 200

        server.stop()
        for response in (
            httpx.get(path, headers=bearer(gm)),
            httpx.post(f"{path}/rounds", json=body, headers=bearer(gm)),
            httpx.post(f"{app.url}/v1/conflicts", json=conflict_body()),
        ):
            assert response.status_code == 503, response.text
            assert response.headers["retry-after"] == "2"
            assert response.json()["type"] == "/problems/store-unavailable"
        assert httpx.post(f"{app.url}/v1/checks", json={"target": 5, "seed": 1}).status_code == 200
        assert httpx.get(f"{app.url}/readyz").status_code == 503

        restarted.start()
        assert httpx.get(f"{app.url}/readyz").status_code == 200
        state = httpx.get(path, headers=bearer(gm)).json()
        assert (state["round"], state["version"]) == (2, 2)
        # Scripts are gone from the restarted server; the write reloads them (NOSCRIPT).
        assert httpx.post(f"{path}/rounds", json=body, headers=bearer(gm)).status_code == 200
    finally:
        app.stop()
        server.stop()
        restarted.stop()


def test_the_service_starts_and_serves_checks_while_redis_is_unreachable(tmp_path: Path) -> None:
    app = ServedApp({"REDIS_URL": f"unix://{tmp_path / 'nobody-home.sock'}"}, tmp_path / "log")
    try:
        app.wait_ready()
        assert httpx.post(f"{app.url}/v1/checks", json={"target": 5, "seed": 1}).status_code == 200
        assert httpx.get(f"{app.url}/readyz").status_code == 503
        refused = httpx.post(f"{app.url}/v1/conflicts", json=conflict_body())
        assert refused.status_code == 503
        assert refused.headers["retry-after"] == "2"
    finally:
        app.stop()
