"""The process's one ``redis.asyncio`` client: bounded blocking pool, explicit timeouts.

Its Lua scripts (every session read and write) take a lean path of their own
(:class:`LeanScript`): the ``EVALSHA`` packed from a prefix made once, sent over a
connection of a small pool of redis-py connections (hiredis parsing), under one deadline
timer. redis-py's own path costs ten times as many instructions per call (a pool lock and
condition, a timer for the pool, a task for the send, a timer for the read, its
observability hooks); everything else keeps using it. A Redis Cluster client keeps
redis-py's scripts (they find each key's node).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import ConnectionError, DataError, NoScriptError, ResponseError, TimeoutError

if TYPE_CHECKING:
    from redis.asyncio.connection import AbstractConnection

    from service.settings import Settings

__all__ = ["LeanScript", "RedisClient", "SessionRedis", "make_client"]


RedisClient = aioredis.Redis | aioredis.RedisCluster


def make_client(settings: Settings, *, for_streams: bool = False) -> RedisClient:
    """A client for ``settings.redis_url``. Connects lazily, so start-up never waits on Redis.

    ``for_streams``: a separate pool for blocking stream reads (SSE), so that many open
    event streams never starve the requests that change state.
    """
    assert settings.redis_url, "REDIS_URL must be set (python -m service embeds one otherwise)"
    max_connections = (
        settings.sse_max_connections if for_streams else settings.redis_max_connections
    )
    # A blocking XREAD waits up to the keep-alive interval by itself: the socket outwaits it.
    socket_timeout = settings.redis_socket_timeout + (
        settings.sse_keep_alive_seconds + 5 if for_streams else 0
    )
    # Never sent again by the client on a timeout: a write script whose reply was lost may
    # have run, and only the session engine knows how to retry it safely (redis-py would
    # otherwise resend it up to ten times, and each would find the state moved on).
    once = Retry(NoBackoff(), retries=0)
    if settings.redis_cluster:
        # Every key of one session shares a hash tag, so each script runs on one node.
        return aioredis.RedisCluster.from_url(
            settings.redis_url,
            max_connections=max_connections,
            socket_timeout=socket_timeout,
            socket_connect_timeout=settings.redis_connect_timeout,
            retry=once,
        )
    pool = aioredis.BlockingConnectionPool.from_url(
        settings.redis_url,
        max_connections=max_connections,
        timeout=settings.redis_pool_timeout,
        socket_timeout=socket_timeout,
        socket_connect_timeout=settings.redis_connect_timeout,
        health_check_interval=30,
        retry=once,
    )
    return SessionRedis(connection_pool=pool, retry=once)


class SessionRedis(aioredis.Redis):
    """redis-py's client, whose registered scripts run on :class:`LeanScript`'s path."""

    def __init__(self, *, connection_pool: aioredis.BlockingConnectionPool, retry: Retry) -> None:
        super().__init__(connection_pool=connection_pool, retry=retry)
        self.lanes = Lanes(connection_pool)

    def register_script(self, script: str | bytes) -> AsyncScript:  # type: ignore[override]
        return LeanScript(self, script)

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        await self.lanes.aclose()
        await super().aclose(close_connection_pool)


class Lanes:
    """The lean path's connections: at most the pool's ``max_connections`` of them, each
    serving one command at a time. The one used last is used next, so a worker whose
    requests do not overlap talks over one connection.

    A connection is redis-py's own (it connects, authenticates, selects the database,
    speaks TLS and parses with hiredis as the client would), built without a socket
    timeout: each command runs under one deadline of ``socket_timeout`` instead. A command
    that fails other than by Redis's answer (a timeout, a dropped connection, a
    cancellation) disconnects its connection, so a late reply is never read as the next
    command's (redis-py issue #2624); it connects again when next used.
    """

    def __init__(self, pool: aioredis.BlockingConnectionPool) -> None:
        kwargs = dict(pool.connection_kwargs)
        self.deadline: float | None = kwargs.get("socket_timeout")
        # The deadline covers connecting and every read; redis-py's health checks (a PING
        # before a command every 30 s) are replaced by a look at the socket before each use.
        kwargs.update(socket_timeout=None, health_check_interval=0)
        self._kwargs = kwargs
        self._connection_class = pool.connection_class
        self._max = pool.max_connections
        self._wait = pool.timeout
        self._idle: list[AbstractConnection] = []
        self._all: list[AbstractConnection] = []
        self._waiters: deque[asyncio.Future[AbstractConnection]] = deque()

    async def call(self, packed: bytes, script: LeanScript | None = None) -> Any:
        """Send ``packed`` (one command), read its reply. ``script``: the command is that
        script's EVALSHA, loaded and sent again if Redis no longer knows it."""
        conn = self._idle.pop() if self._idle else await self._take()
        clean = False
        try:
            async with asyncio.timeout(self.deadline):
                if conn.is_connected and await conn.can_read():
                    # Closed by Redis (a restart) while idle, or unread data: start afresh.
                    await conn.disconnect()
                await conn.send_packed_command(packed, check_health=False)
                try:
                    reply = await conn.read_response()
                except NoScriptError:
                    if script is None:
                        raise
                    # The script cache was flushed (a restart): load it, send it again.
                    await conn.send_packed_command(script.load_command, check_health=False)
                    await conn.read_response()
                    await conn.send_packed_command(packed, check_health=False)
                    reply = await conn.read_response()
            clean = True
            return reply
        except ResponseError:
            clean = True  # Redis answered: the connection is in step
            raise
        except builtins_timeout as error:
            raise TimeoutError(f"Timeout talking to Redis ({self.deadline} s)") from error
        finally:
            if not clean and conn.is_connected:
                await conn.disconnect(nowait=True)
            self._release(conn)

    async def _take(self) -> AbstractConnection:
        if len(self._all) < self._max:
            conn = self._connection_class(**self._kwargs)
            self._all.append(conn)
            return conn
        waiter: asyncio.Future[AbstractConnection] = asyncio.get_running_loop().create_future()
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(self._wait):
                return await waiter
        except builtins_timeout as error:
            raise ConnectionError("No connection available.") from error
        except BaseException:
            if waiter.done() and not waiter.cancelled():
                self._release(waiter.result())  # handed over just as this one gave up
            raise
        finally:
            if not waiter.done():
                waiter.cancel()
            with contextlib.suppress(ValueError):
                self._waiters.remove(waiter)

    def _release(self, conn: AbstractConnection) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(conn)
                return
        self._idle.append(conn)

    async def aclose(self) -> None:
        for conn in self._all:
            await conn.disconnect()
        self._idle.clear()
        self._all.clear()


builtins_timeout = asyncio.TimeoutError  # the builtin TimeoutError since Python 3.11


def bulk(value: bytes | str | int) -> bytes:
    """One RESP bulk string."""
    if isinstance(value, bytes):
        pass
    elif isinstance(value, str):
        value = value.encode()
    elif isinstance(value, int) and not isinstance(value, bool):
        value = b"%d" % value
    else:
        raise DataError(f"Invalid input of type {type(value).__name__!r} for a Redis command")
    return b"$%d\r\n%b\r\n" % (len(value), value)


class LeanScript(AsyncScript):
    """A Lua script, called as redis-py's (``await script(keys=…, args=…)``), on the lean
    path: ``EVALSHA <sha>`` is packed once, keys and arguments appended per call."""

    def __init__(self, client: SessionRedis, script: str | bytes) -> None:
        source = script.encode() if isinstance(script, str) else script
        super().__init__(client, source)
        self._lanes = client.lanes
        self._head = bulk(b"EVALSHA") + bulk(self.sha)
        self.load_command = b"*3\r\n" + bulk(b"SCRIPT") + bulk(b"LOAD") + bulk(source)

    def pack(self, keys: Sequence[bytes | str], args: Iterable[bytes | str | int]) -> bytes:
        """The EVALSHA command of one call."""
        parts = [bulk(value) for value in args]
        return b"".join(
            (
                b"*%d\r\n" % (3 + len(keys) + len(parts)),
                self._head,
                bulk(len(keys)),
                *[bulk(key) for key in keys],
                *parts,
            )
        )

    async def __call__(  # type: ignore[override]
        self,
        keys: Sequence[bytes | str] | None = None,
        args: Iterable[bytes | str | int] | None = None,
        client: Any = None,
    ) -> Any:
        if client is not None:
            return await super().__call__(keys, args, client)
        return await self._lanes.call(self.pack(keys or (), args or ()), self)
