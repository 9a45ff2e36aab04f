"""Slow and huge requests are bounded (docs/slow-and-huge-requests.md): the served process,
real sockets.

Header size, header count and the header deadline are granian's (service.serving); the
body's deadline is the app's own, so it holds under uvicorn too.
"""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.support.metrics import sample
from tests.support.served import ServedApp

BOUNDS = {"HEADER_READ_TIMEOUT_SECONDS": "1", "BODY_READ_TIMEOUT_SECONDS": "1"}


@pytest.fixture(scope="module")
def bounded(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServedApp]:
    """The service as deployed by default (granian), with 1-second read deadlines."""
    log = tmp_path_factory.mktemp("bounded") / "service.log"
    app = ServedApp({"REDIS_URL": redis_url, **BOUNDS}, log)
    try:
        app.wait_ready()
        yield app
    finally:
        app.stop()


def _connect(port: int, timeout: float = 10) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=timeout)


def _read_all(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    data = b""
    try:
        while chunk := connection.recv(65536):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def _healthz(url: str) -> int:
    return httpx.get(url + "/healthz", timeout=5).status_code


def test_a_64_mib_header_is_refused_with_431_and_does_not_hold_up_other_requests(
    bounded: ServedApp,
) -> None:
    with _connect(bounded.port) as connection:
        # Refused long before the last byte is sent: the answer is already waiting.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            connection.sendall(
                b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (64 << 20) + b"\r\n\r\n"
            )
        answer = _read_all(connection)
    assert answer.startswith(b"HTTP/1.1 431 "), answer[:200]
    assert _healthz(bounded.url) == 200


def test_a_header_just_under_max_header_bytes_is_served(bounded: ServedApp) -> None:
    headers = {"X-Padding": "a" * 12_000}  # MAX_HEADER_BYTES is 16 KiB by default
    assert httpx.get(bounded.url + "/healthz", headers=headers, timeout=5).status_code == 200


def test_more_than_100_header_fields_are_refused_with_431(bounded: ServedApp) -> None:
    def get_with(fields: int) -> bytes:
        lines = b"".join(b"X-Field-%d: v\r\n" % n for n in range(fields))
        with _connect(bounded.port) as connection:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + lines + b"\r\n")
            return connection.recv(65536)

    assert get_with(90).startswith(b"HTTP/1.1 200 ")
    assert get_with(120).startswith(b"HTTP/1.1 431 ")


def test_300_slowloris_connections_are_closed_at_the_header_deadline_and_never_block(
    bounded: ServedApp,
) -> None:
    held = [_connect(bounded.port) for _ in range(300)]
    try:
        for connection in held:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        assert _healthz(bounded.url) == 200  # served while all 300 are held
        # HEADER_READ_TIMEOUT_SECONDS is 1: each one is closed, with nothing answered.
        closed = [_read_all(connection) for connection in held]
    finally:
        for connection in held:
            connection.close()
    assert all(not answer or answer.startswith(b"HTTP/1.1 408 ") for answer in closed), {
        answer[:40] for answer in closed
    }
    assert _healthz(bounded.url) == 200


def test_an_idle_keep_alive_connection_is_closed_at_the_header_deadline(
    bounded: ServedApp,
) -> None:
    with _connect(bounded.port) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert connection.recv(65536).startswith(b"HTTP/1.1 200 ")
        assert _read_all(connection) == b""  # closed by the server, not by the socket timeout


def _count(url: str, status: str) -> float:
    text = httpx.get(url + "/metrics", timeout=5).text
    return sample(text, "bullseye_http_requests_total", route="/v1/checks", status=status)


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_a_body_slower_than_its_deadline_is_refused_with_a_408_problem(
    server: str, redis_url: str, tmp_path: Path
) -> None:
    app = ServedApp({"REDIS_URL": redis_url, "SERVER": server, **BOUNDS}, tmp_path / "log")
    try:
        app.wait_ready()
        with _connect(app.port) as connection:
            connection.sendall(
                b"POST /v1/checks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n" + b'{"target": 1'
            )
            answer = _read_all(connection)  # then the server closes the connection
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 408 "), answer[:300]
        assert b"application/problem+json" in head.lower()
        problem = json.loads(body)
        assert problem["type"] == "/problems/body-too-slow"
        assert problem["status"] == 408
        assert "BODY_READ_TIMEOUT_SECONDS" in problem["detail"]
        assert _count(app.url, "408") == 1
        assert _count(app.url, "500") == 0
    finally:
        app.stop()
