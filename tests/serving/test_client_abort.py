"""A client that hangs up mid-body is a client abort (499 in the log and metrics), never a 5xx."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import httpx

from tests.support.metrics import sample
from tests.support.served import ServedApp


def _hang_up_mid_body(port: int) -> None:
    with socket.create_connection(("127.0.0.1", port)) as connection:
        connection.sendall(
            b"POST /v1/checks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 1000\r\n\r\n" + b'{"target": 1'
        )
        time.sleep(0.2)  # the server has begun reading the body


def _count(url: str, status: str) -> float:
    text = httpx.get(url + "/metrics").text
    return sample(text, "bullseye_http_requests_total", route="/v1/checks", status=status)


def test_a_mid_body_disconnect_is_logged_as_an_abort_and_not_counted_as_5xx(
    redis_url: str, tmp_path: Path
) -> None:
    app = ServedApp({"REDIS_URL": redis_url}, tmp_path / "service.log")
    try:
        app.wait_ready()
        _hang_up_mid_body(app.port)
        deadline = time.monotonic() + 5
        while _count(app.url, "499") < 1 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert _count(app.url, "499") == 1
        assert _count(app.url, "500") == 0
    finally:
        app.stop()
    lines = [json.loads(line) for line in app.log.read_text().splitlines() if line[:1] == "{"]
    aborts = [line for line in lines if line.get("path") == "/v1/checks"]
    assert len(aborts) == 1
    assert aborts[0]["status"] == 499
    assert aborts[0]["client_abort"] is True
    assert not [line for line in lines if line.get("level") in ("error", "warning")], lines
