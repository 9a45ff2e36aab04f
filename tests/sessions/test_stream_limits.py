"""Event streams are capped per session and per client over every worker, not only per
worker (security review: with SSE_MAX_CONNECTIONS=3, three streams on an attacker's own
session made a victim's stream answer 503)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.problems import assert_problem
from tests.support.served import ServedApp
from tests.support.session_kinds import KINDS, Session

GAME = next(kind for kind in KINDS if kind.kind == "game")
ATTACKER = "attacker-key-0123456789abcdefghijklmnop"
VICTIM = "victim-key-0123456789abcdefghijklmnopqr"
SECRET = "secret-0123456789abcdefghijklmnopqrstuvwxyz"


@contextlib.contextmanager
def _served(redis_url: str, tmp_path: Path, count: int, **env: str) -> Iterator[list[ServedApp]]:
    apps = [
        ServedApp(
            {"REDIS_URL": redis_url, "SSE_KEEP_ALIVE_SECONDS": "1", **env}, tmp_path / f"{n}.log"
        )
        for n in range(count)
    ]
    try:
        for app in apps:
            app.wait_ready()
        yield apps
    finally:
        for app in apps:
            app.stop()


def _open(stack: contextlib.ExitStack, url: str, session: Session, key: str) -> httpx.Response:
    client = stack.enter_context(httpx.Client(base_url=url, timeout=10))
    headers = {**session.player, "X-API-Key": key}
    response = stack.enter_context(client.stream("GET", f"{session.path}/events", headers=headers))
    if response.status_code != 200:
        response.read()
    return response


def _game(url: str, key: str) -> Session:
    with httpx.Client(base_url=url, timeout=10, headers={"X-API-Key": key}) as client:
        return GAME.create(client)


@pytest.mark.served
def test_one_client_cannot_take_every_stream_of_a_worker(redis_url: str, tmp_path: Path) -> None:
    env = {
        "SSE_MAX_CONNECTIONS": "3",
        "SSE_MAX_PER_CLIENT": "2",
        "API_KEYS": f"{ATTACKER},{VICTIM}",
        "API_KEY_SECRET": SECRET,
    }
    with _served(redis_url, tmp_path, 1, **env) as (app,), contextlib.ExitStack() as stack:
        own = _game(app.url, ATTACKER)
        taken = [_open(stack, app.url, own, ATTACKER) for _ in range(3)]
        victims = _game(app.url, VICTIM)
        victim = _open(stack, app.url, victims, VICTIM)
        statuses = [response.status_code for response in taken]
        refused, victim_status = taken[-1], victim.status_code
        assert_problem(refused, 429, "too-many-client-streams")
    assert statuses == [200, 200, 429]
    assert int(refused.headers["retry-after"]) >= 1
    assert victim_status == 200


@pytest.mark.served
def test_a_sessions_streams_are_counted_over_every_process(redis_url: str, tmp_path: Path) -> None:
    """Two servers (as two replicas) on one Redis: the session's cap holds for their sum, and
    a stream that ends gives its place back at once."""
    env = {"SSE_MAX_PER_SESSION": "2", "API_KEYS": ATTACKER, "API_KEY_SECRET": SECRET}
    with _served(redis_url, tmp_path, 2, **env) as (first, second):
        session = _game(first.url, ATTACKER)
        with contextlib.ExitStack() as stack:
            opened = [_open(stack, app.url, session, ATTACKER) for app in (first, second)]
            with contextlib.ExitStack() as inner:
                third = _open(inner, first.url, session, ATTACKER)
                assert_problem(third, 429, "too-many-session-streams")
            assert [response.status_code for response in opened] == [200, 200]
        # Both closed: their places are free again, once the server has seen them go (it
        # gives a place back as it ends the stream, not when a lease lapses, 5 s later).
        for _ in range(50):
            with contextlib.ExitStack() as stack:
                again = [_open(stack, second.url, session, ATTACKER) for _ in range(2)]
                if [response.status_code for response in again] == [200, 200]:
                    break
            time.sleep(0.05)
        else:
            pytest.fail("the closed streams' places were not given back")
