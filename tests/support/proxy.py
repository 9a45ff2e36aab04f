"""A real TCP proxy in front of Redis that can hold back the reply to one command.

The service talks to Redis through it. ``hold_reply_to(marker, seconds)`` arms it: the next
command whose bytes contain ``marker`` goes through to Redis (which runs it), but its reply
is held for ``seconds`` — past the client's socket timeout — and then the connection is
dropped. That is what a lost reply looks like to the service: a timeout after the write.
``delay_next`` holds a command back before Redis sees it (a slow network or a busy Redis),
and ``before_each`` lets another client act first every time a command passes (a writer
that always wins the race). ``answer_next`` answers the next matching command itself, with
the bytes of a reply Redis gives when it cannot run it (``-LOADING …``), never letting
Redis see it; ``cut_reply_to`` lets the command run and drops the connection halfway
through its reply.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable
from urllib.parse import urlparse

__all__ = ["HoldingProxy"]


def _upstream(url: str) -> socket.socket:
    parsed = urlparse(url)
    if parsed.scheme == "unix":
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(parsed.path)
        return conn
    return socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379))


class HoldingProxy:
    """Listens on 127.0.0.1; forwards every connection to the Redis at ``redis_url``."""

    def __init__(self, redis_url: str) -> None:
        self._redis_url = redis_url
        self._listener = socket.socket()
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(64)
        self.port = int(self._listener.getsockname()[1])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self._lock = threading.Lock()
        self._armed: tuple[bytes, float] | None = None
        self._dropping: bytes | None = None
        self._delaying: tuple[bytes, float] | None = None
        self._before: tuple[bytes, Callable[[], object]] | None = None
        self._answering: tuple[bytes, bytes] | None = None
        self._cutting: bytes | None = None
        self.answered = 0  # commands answered here instead of by Redis, so far
        self.cut_replies = 0  # replies cut halfway, so far
        self.dropped = 0  # commands dropped on their way so far
        self.held = 0  # replies held back so far
        self.delayed = 0  # commands held back on their way so far
        self.preceded = 0  # commands another client's action went before, so far
        self._open: list[socket.socket] = []
        self._running = True
        threading.Thread(target=self._accept, daemon=True).start()

    def hold_reply_to(self, marker: bytes, seconds: float) -> None:
        """Hold the reply to the next command containing ``marker`` for ``seconds``."""
        with self._lock:
            self._armed = (marker, seconds)

    def drop_next(self, marker: bytes) -> None:
        """Drop the connection carrying the next command that contains ``marker``, before
        Redis sees the command: a write lost on its way."""
        with self._lock:
            self._dropping = marker

    def delay_next(self, marker: bytes, seconds: float) -> None:
        """Hold the next command containing ``marker`` for ``seconds`` before Redis sees it."""
        with self._lock:
            self._delaying = (marker, seconds)

    def answer_next(self, marker: bytes, reply: bytes) -> None:
        """Answer the next command containing ``marker`` with ``reply`` (RESP bytes, such as
        ``b"-LOADING Redis is loading the dataset in memory\\r\\n"``); Redis never sees it."""
        with self._lock:
            self._answering = (marker, reply)

    def cut_reply_to(self, marker: bytes) -> None:
        """Let the next command containing ``marker`` run, then drop the connection after
        the first half of its reply."""
        with self._lock:
            self._cutting = marker

    def before_each(self, marker: bytes, action: Callable[[], object] | None) -> None:
        """Run ``action`` (another client's command, say) before each command containing
        ``marker`` reaches Redis; ``None`` stops it."""
        with self._lock:
            self._before = None if action is None else (marker, action)

    def cut(self) -> None:
        """Close every connection open now, as a network fault would; new ones still pass
        (the proxy forwards any TCP service: an HTTP server's clients reconnect too)."""
        with self._lock:
            opened, self._open = self._open, []
        for conn in opened:
            _close(conn)

    def close(self) -> None:
        self._running = False
        self._listener.close()
        for conn in self._open:
            _close(conn)

    def _accept(self) -> None:
        while self._running:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            server = _upstream(self._redis_url)
            with self._lock:
                self._open += [client, server]
            # [0]: when a held reply may go; [1]: 1.0 when the next reply is cut halfway.
            held_until = [0.0, 0.0]
            threading.Thread(
                target=self._requests, args=(client, server, held_until), daemon=True
            ).start()
            threading.Thread(
                target=self._replies, args=(server, client, held_until), daemon=True
            ).start()

    def _requests(self, client: socket.socket, server: socket.socket, held: list[float]) -> None:
        while data := _recv(client):
            with self._lock:
                if self._dropping is not None and self._dropping in data:
                    self._dropping = None
                    self.dropped += 1
                    break
                answer = None
                if self._answering is not None and self._answering[0] in data:
                    answer = self._answering[1]
                    self._answering = None
                    self.answered += 1
                if self._cutting is not None and self._cutting in data:
                    held[1] = 1.0
                    self._cutting = None
                    self.cut_replies += 1
                if self._armed is not None and self._armed[0] in data:
                    held[0] = time.monotonic() + self._armed[1]
                    self._armed = None
                    self.held += 1
                delay = 0.0
                if self._delaying is not None and self._delaying[0] in data:
                    delay = self._delaying[1]
                    self._delaying = None
                    self.delayed += 1
                action = None
                if self._before is not None and self._before[0] in data:
                    action = self._before[1]
                    self.preceded += 1
            if answer is not None:
                try:
                    client.sendall(answer)
                except OSError:
                    break
                continue
            if delay:
                time.sleep(delay)
            if action is not None:
                action()
            try:
                server.sendall(data)
            except OSError:
                break
        _close(client)
        _close(server)

    def _replies(self, server: socket.socket, client: socket.socket, held: list[float]) -> None:
        while data := _recv(server):
            if held[0]:
                time.sleep(max(0.0, held[0] - time.monotonic()))
                break  # the reply is lost: the client timed out long ago
            if held[1]:
                with contextlib.suppress(OSError):
                    client.sendall(data[: max(1, len(data) // 2)])
                break  # the connection drops halfway through the reply
            try:
                client.sendall(data)
            except OSError:
                break
        _close(client)
        _close(server)


def _recv(conn: socket.socket) -> bytes:
    try:
        return conn.recv(65536)
    except OSError:
        return b""


def _close(conn: socket.socket) -> None:
    with contextlib.suppress(OSError):
        conn.shutdown(socket.SHUT_RDWR)
    conn.close()
