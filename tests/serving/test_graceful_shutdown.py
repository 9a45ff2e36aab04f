"""SIGTERM (a rollout, a scale-down): the server stops accepting and finishes what it has."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path

import httpx
import pytest

from tests.support.bullseye_conflicts import conflict_body
from tests.support.served import ServedApp

CHECK = json.dumps({"target": 12, "seed": 3}).encode()


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=5)


def _read_response(sock: socket.socket) -> bytes:
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return data


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_a_request_in_flight_at_sigterm_is_answered_and_the_process_exits_cleanly(
    server: str, redis_url: str, tmp_path: Path
) -> None:
    app = ServedApp({"REDIS_URL": redis_url, "SERVER": server}, tmp_path / "service.log")
    app.wait_ready()
    try:
        in_flight = _connect(app.port)
        in_flight.sendall(
            b"POST /v1/checks HTTP/1.1\r\nHost: bullseye\r\nContent-Type: application/json\r\n"
            b"Content-Length: %d\r\n\r\n" % len(CHECK) + CHECK[:5]
        )
        time.sleep(0.5)  # the server has the head of the request and waits for its body
        app.process.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        with pytest.raises(ConnectionRefusedError):
            _connect(app.port).close()  # no new connections once shutting down
        assert app.process.poll() is None, "it waits for the request in flight"

        in_flight.sendall(CHECK[5:])
        answer = _read_response(in_flight)
        in_flight.close()
        code = app.process.wait(timeout=15)
    finally:
        app.stop()
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200"), answer
    assert json.loads(body)["target"] == 12
    assert code == 0
    lines = [json.loads(line) for line in app.log.read_text().splitlines() if line.startswith("{")]
    answered = [e for e in lines if e.get("event") == "request" and e["path"] == "/v1/checks"]
    assert [e["status"] for e in answered] == [200], "the request line is written before exit"


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_an_open_event_stream_ends_at_sigterm_instead_of_holding_the_worker(
    server: str, redis_url: str, tmp_path: Path
) -> None:
    """A stream never finishes by itself: on SIGTERM it ends with a comment saying to
    reconnect, and the worker exits long before its 10 s grace is up."""
    app = ServedApp({"REDIS_URL": redis_url, "SERVER": server}, tmp_path / "service.log")
    app.wait_ready()
    try:
        created = httpx.post(f"{app.url}/v1/conflicts", json=conflict_body()).json()
        headers = {"Authorization": f"Bearer {created['tokens']['gm']}"}
        url = f"{app.url}/v1/conflicts/{created['id']}/events"
        with httpx.stream("GET", url, headers=headers, timeout=30) as stream:
            assert stream.status_code == 200
            lines = stream.iter_lines()
            time.sleep(0.5)  # the stream waits for events
            stopped_at = time.monotonic()
            app.process.send_signal(signal.SIGTERM)
            received = list(lines)  # until the server ends the stream
            ended_after = time.monotonic() - stopped_at
        code = app.process.wait(timeout=15)
        exited_after = time.monotonic() - stopped_at
    finally:
        app.stop()
    assert ": server stopping; reconnect with Last-Event-ID" in received
    assert ended_after < 3, ended_after
    assert exited_after < 6, exited_after
    assert code == 0
    logged = [json.loads(x) for x in app.log.read_text().splitlines() if x.startswith("{")]
    path = url.removeprefix(app.url)
    assert [e["status"] for e in logged if e.get("path") == path] == [200]
