"""Event streams of sessions over HTTP (docs/sessions.md): comment-only
keep-alives, an ending event when a session expires, stream tickets for clients that cannot
send headers, and a refusal (503 problem) past a worker's stream limit — the service run as
its own process, as a user starts it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from tests.support.bullseye_conflicts import bearer, conflict_body, faces
from tests.support.served import ServedApp
from tests.support.sse import read_sse


def _served(redis_url: str, log: Path, **env: str) -> Iterator[str]:
    app = ServedApp({"REDIS_URL": redis_url, "SSE_KEEP_ALIVE_SECONDS": "0.2", **env}, log)
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Keep-alives every 0.2 s."""
    yield from _served(redis_url, tmp_path_factory.mktemp("streams") / "service.log")


@pytest.fixture
def served_two_streams(redis_url: str, tmp_path: Path) -> Iterator[str]:
    """At most two open streams per worker."""
    yield from _served(redis_url, tmp_path / "service.log", SSE_MAX_CONNECTIONS="2")


def created(url: str) -> dict:
    answer = httpx.post(f"{url}/v1/conflicts", json=conflict_body())
    assert answer.status_code == 201
    return answer.json()


def test_keep_alives_are_comment_lines_only(served: str) -> None:
    """A bare `data:` line would fire an empty message in every browser."""
    conflict = created(served)
    url = f"{served}/v1/conflicts/{conflict['id']}/events"
    with httpx.stream("GET", url, headers=bearer(conflict["tokens"]["gm"]), timeout=10) as stream:
        assert stream.status_code == 200
        assert stream.headers["content-type"].startswith("text/event-stream")
        raw = b""
        for chunk in stream.iter_bytes():
            raw += chunk
            if raw.count(b"\n\n") >= 3:
                break
    frames = [frame for frame in raw.split(b"\n\n") if frame]
    assert len(frames) >= 3
    for frame in frames:
        assert all(line.startswith(b":") for line in frame.split(b"\n")), frame


def test_a_stream_ends_with_an_event_when_its_conflict_expires(served: str, redis_url: str) -> None:
    conflict = created(served)
    gm = bearer(conflict["tokens"]["gm"])
    base = f"{served}/v1/conflicts/{conflict['id']}"
    with httpx.Client(timeout=10) as client:
        body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
        assert client.post(f"{base}/rounds", json=body, headers=gm).status_code == 200
        store = redis.Redis.from_url(redis_url)
        with client.stream("GET", f"{base}/events", headers=gm) as stream:
            lines = stream.iter_lines()
            (resolved,) = read_sse(lines, 1)
            assert resolved["event"] == "round.resolved"
            started = time.monotonic()
            store.pexpire(CONFLICTS.kind.state(conflict["id"]), 100)  # its time runs out
            (ending,) = read_sse(lines, 1)
            rest = list(lines)  # the server ends the stream
    assert ending == {"event": "conflict.expired", "data": '{"type":"conflict.expired"}'}
    assert time.monotonic() - started < 5
    assert not [line for line in rest if line and not line.startswith(":")]


def test_an_event_source_connects_with_a_ticket_instead_of_a_token(served: str) -> None:
    conflict = created(served)
    base = f"{served}/v1/conflicts/{conflict['id']}"
    ana = bearer(conflict["tokens"]["players"]["ana"])
    issued = httpx.post(f"{base}/events/tickets", headers=ana)
    assert issued.status_code == 201
    ticket = issued.json()
    assert ticket["expires_in"] == 60
    assert conflict["tokens"]["players"]["ana"] not in ticket["ticket"]
    submitted = httpx.post(
        f"{base}/rounds/1/checks", json={"participant": "ana", **faces(4)}, headers=ana
    )
    assert submitted.status_code == 202
    # No Authorization header, as a browser's EventSource sends none.
    with httpx.stream(
        "GET", f"{base}/events", params={"ticket": ticket["ticket"]}, timeout=10
    ) as stream:
        assert stream.status_code == 200
        (received,) = read_sse(stream, 1)
    assert received["event"] == "submission.received"


@pytest.mark.parametrize("which", ["unknown", "another conflict's"])
def test_a_ticket_opens_only_its_own_conflict(served: str, which: str) -> None:
    conflict, other = created(served), created(served)
    ticket = "not-a-ticket"
    if which != "unknown":
        issued = httpx.post(
            f"{served}/v1/conflicts/{other['id']}/events/tickets",
            headers=bearer(other["tokens"]["gm"]),
        )
        ticket = issued.json()["ticket"]
    answer = httpx.get(
        f"{served}/v1/conflicts/{conflict['id']}/events", params={"ticket": ticket}, timeout=10
    )
    assert answer.status_code == 401
    assert answer.json()["type"] == "/problems/unauthorized"


def test_past_the_stream_limit_a_request_is_refused_before_streaming(
    served_two_streams: str,
) -> None:
    conflict = created(served_two_streams)
    url = f"{served_two_streams}/v1/conflicts/{conflict['id']}/events"
    gm = bearer(conflict["tokens"]["gm"])
    with httpx.Client(timeout=10) as client:
        with (
            client.stream("GET", url, headers=gm) as first,
            client.stream("GET", url, headers=gm) as second,
        ):
            assert (first.status_code, second.status_code) == (200, 200)
            refused = client.get(url, headers=gm)
            assert refused.status_code == 503
            assert refused.headers["content-type"].startswith("application/problem+json")
            assert refused.json()["type"] == "/problems/too-many-streams"
            assert int(refused.headers["retry-after"]) >= 1
        # Both clients left: the worker takes streams again once it notices (at its next
        # keep-alive), without a restart.
        deadline = time.monotonic() + 5
        while True:
            with client.stream("GET", url, headers=gm) as again:
                if again.status_code == 200:
                    break
            assert time.monotonic() < deadline, "the closed streams were never released"
            time.sleep(0.1)
