"""A request with both Content-Length and Transfer-Encoding is refused with 400 under every
server the project ships (RFC 9112 §6.1; reliability probe: it was accepted, 200 — the
ambiguity request smuggling through a proxy relies on). uvicorn's parser refuses it itself
(its own plain 400); granian drops the Content-Length and passes the request on, so the
service refuses every request with Transfer-Encoding (bodies are framed by Content-Length
only), with a problem."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.support.served import ServedApp

BODY = b'{"target": 5, "seed": 1}'


def _exchange(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(request)
        received = b""
        while chunk := conn.recv(65536):  # until the server closes the connection
            received += chunk
    return received


@pytest.mark.parametrize("server", ["granian", "uvicorn"])
def test_content_length_and_transfer_encoding_together_are_refused(
    server: str, redis_url: str, tmp_path: Path
) -> None:
    app = ServedApp({"REDIS_URL": redis_url, "SERVER": server}, tmp_path / "log")
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(BODY), BODY)
    head = (
        b"POST /v1/checks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Connection: keep-alive\r\n"
    )
    try:
        app.wait_ready()
        both = _exchange(
            app.port,
            head
            + b"Content-Length: %d\r\nTransfer-Encoding: chunked\r\n\r\n" % len(chunked)
            + chunked,
        )
        chunked_only = _exchange(app.port, head + b"Transfer-Encoding: chunked\r\n\r\n" + chunked)
        plain = _exchange(
            app.port,
            head.replace(b"keep-alive", b"close")
            + b"Content-Length: %d\r\n\r\n" % len(BODY)
            + BODY,
        )
    finally:
        app.stop()
    for refused in (both, chunked_only):
        status_line, _, rest = refused.partition(b"\r\n")
        assert status_line.split()[1] == b"400", refused[:300]
        assert b"connection: close" in rest.lower()
        assert rest.count(b"HTTP/1.1 ") == 0  # one answer, then the connection was closed
        if server == "granian" or refused is chunked_only:
            assert b"/problems/transfer-encoding-refused" in rest
    assert plain.split(b"\r\n", 1)[0].split()[1] == b"200"
