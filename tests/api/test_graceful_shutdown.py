"""SIGTERM (a rollout, a scale-down): the server stops accepting and finishes what it has."""

from __future__ import annotations

import json
import signal
import socket
import time
from pathlib import Path

import pytest

from tests.conftest import ServedApp

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
