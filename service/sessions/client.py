"""The process's one ``redis.asyncio`` client: bounded blocking pool, explicit timeouts.

Its Lua scripts (every session read and write, the idempotency keys' claims) take a lean
path of their own (:class:`LeanScript`; redis-py's own with ``FAST_PATHS=off``): each
call's ``EVALSHA`` packed by hiredis in one step; sent over one of a few connections
(:class:`Lanes`, as many as ``REDIS_MAX_CONNECTIONS`` besides redis-py's pool) that
redis-py opens and then hands to a protocol parsing with hiredis (:class:`Link`); one
deadline timer per command. redis-py's
own path costs about four times as many instructions per call (its pool's lock and
condition and a timer, a task and a timer for the send, a timer for the read, stream
reader and writer, observability hooks); everything else keeps using it. A Redis Cluster
client keeps redis-py's scripts (they find each key's node).

With Redis Sentinel (``REDIS_SENTINELS``) both paths connect through redis-py's Sentinel
pool: each new connection asks the sentinels where the master is. Every connection is
closed when the sentinels announce a new master (:class:`MasterSwitches`), and a lean one
also when it fails (the old master died) or answers READONLY (it reached a replica), so
the next command connects to the new master.

:class:`ReplicaWait` sends ``WAIT`` right behind a write script, on its connection (what
WAIT counts is that connection's writes): in the same packet on the lean path, in one
pipeline to the key's node on a cluster.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import TYPE_CHECKING, Any, cast

import hiredis
import redis
import redis.asyncio as aioredis
from redis.asyncio.connection import SSLConnection, parse_url
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript
from redis.exceptions import (
    AskError,
    ClusterDownError,
    ConnectionError,
    DataError,
    InvalidResponse,
    NoScriptError,
    ReadOnlyError,
    RedisClusterException,
    RedisError,
    ResponseError,
    TimeoutError,
    TryAgainError,
)
from redis.sentinel import Sentinel as SyncSentinel

from service.compat.redis import parse_error, take_socket
from service.settings import sentinel_addresses

if TYPE_CHECKING:
    from redis.asyncio.connection import AbstractConnection

    from service.settings import Settings

__all__ = [
    "LeanScript",
    "RedisClient",
    "ReplicaWait",
    "SentinelBlockingPool",
    "SessionRedis",
    "make_client",
    "sentinel_master",
]


RedisClient = aioredis.Redis | aioredis.RedisCluster


def make_client(settings: Settings, *, for_streams: bool = False) -> RedisClient:
    """A client for ``settings.redis_url`` (or the master the sentinels name). Connects
    lazily, so start-up never waits on Redis.

    ``for_streams``: a separate pool for blocking stream reads (SSE), so that many open
    event streams never starve the requests that change state.
    """
    assert settings.redis_configured, "python -m service embeds a Redis when none is set"
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
        assert settings.redis_url
        # Every key of one session shares a hash tag, so each script runs on one node.
        return aioredis.RedisCluster.from_url(
            settings.redis_url,
            max_connections=max_connections,
            socket_timeout=socket_timeout,
            socket_connect_timeout=settings.redis_connect_timeout,
            retry=once,
        )
    options: dict[str, Any] = {
        "max_connections": max_connections,
        "timeout": settings.redis_pool_timeout,
        "socket_timeout": socket_timeout,
        "socket_connect_timeout": settings.redis_connect_timeout,
        "health_check_interval": 30,
        "retry": once,
    }
    lean = settings.fast_paths == "on"
    if settings.redis_sentinels:
        sentinel_pool = _sentinel_pool(settings, options)
        client = SessionRedis(connection_pool=sentinel_pool, retry=once, lean=lean)
        client.follow_switches()
        return client
    assert settings.redis_url
    pool = aioredis.BlockingConnectionPool.from_url(settings.redis_url, **options)
    return SessionRedis(connection_pool=pool, retry=once, lean=lean)


class SentinelBlockingPool(SentinelConnectionPool, aioredis.BlockingConnectionPool):
    """redis-py's Sentinel pool (each connection asks the sentinels for the master's
    address as it connects) that waits for a free connection, as the single server's
    pool does, instead of failing at once when all are in use."""


def _sentinel_pool(settings: Settings, options: dict[str, Any]) -> SentinelBlockingPool:
    """The master's pool: its address from the sentinels; credentials, database and TLS
    from REDIS_URL (whose host is the master's name: see the settings)."""
    sentinels = Sentinel(  # type: ignore[no-untyped-call]
        sentinel_addresses(settings.redis_sentinels),
        sentinel_kwargs={**_sentinel_options(settings), "retry": options["retry"]},
    )
    options = {**_master_options(settings), **options}
    return SentinelBlockingPool(  # type: ignore[no-untyped-call]
        settings.redis_sentinel_master, sentinels, is_master=True, **options
    )


def _sentinel_options(settings: Settings) -> dict[str, Any]:
    """How to talk to the sentinels themselves (each is asked in turn anyway: no retry)."""
    return {
        "socket_timeout": settings.redis_socket_timeout,
        "socket_connect_timeout": settings.redis_connect_timeout,
        "password": settings.redis_sentinel_password,
    }


def _master_options(settings: Settings) -> dict[str, Any]:
    """REDIS_URL's credentials, database and TLS, for the master the sentinels name."""
    if not settings.redis_url:
        return {}
    url = dict(parse_url(settings.redis_url))
    url.pop("host", None)
    if url.pop("connection_class", None) is SSLConnection:
        url["ssl"] = True  # the Sentinel pool's own TLS connection class
    return url


def sentinel_master(settings: Settings) -> redis.Redis:
    """A synchronous client of the master the sentinels name (for checks at start-up)."""
    sentinels = SyncSentinel(  # type: ignore[no-untyped-call]
        sentinel_addresses(settings.redis_sentinels), sentinel_kwargs=_sentinel_options(settings)
    )
    master: redis.Redis = sentinels.master_for(  # type: ignore[no-untyped-call]
        settings.redis_sentinel_master,
        socket_timeout=2,
        socket_connect_timeout=2,
        **_master_options(settings),
    )
    return master


class SessionRedis(aioredis.Redis):
    """redis-py's client, whose registered scripts run on :class:`LeanScript`'s path
    (``lean``; with ``FAST_PATHS=off``, on redis-py's own)."""

    def __init__(
        self, *, connection_pool: aioredis.BlockingConnectionPool, retry: Retry, lean: bool = True
    ) -> None:
        super().__init__(connection_pool=connection_pool, retry=retry)
        self.lean = lean
        self.lanes = Lanes(connection_pool)  # opens nothing until a lean script is called
        self._switches: asyncio.Task[None] | None = None

    def register_script(self, script: str | bytes) -> AsyncScript:  # type: ignore[override]
        return LeanScript(self, script) if self.lean else super().register_script(script)

    def follow_switches(self) -> None:
        """Listen for the sentinels' ``+switch-master`` (in the running event loop)."""
        pool = self.connection_pool
        assert isinstance(pool, SentinelConnectionPool)
        self._switches = asyncio.get_running_loop().create_task(
            MasterSwitches(pool, self.switched).follow()
        )

    async def switched(self) -> None:
        """The master changed: close every connection (idle or busy) to the old one, so
        that each connects again to the master the sentinels name now."""
        await self.lanes.aclose()
        await self.connection_pool.disconnect(inuse_connections=True)

    async def aclose(self, close_connection_pool: bool | None = None) -> None:
        if self._switches is not None:
            self._switches.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._switches
        await self.lanes.aclose()
        await super().aclose(close_connection_pool)
        if isinstance(self.connection_pool, SentinelConnectionPool):
            await self.connection_pool.sentinel_manager.aclose()


class MasterSwitches:
    """Sentinel's announcement that a master moved (``+switch-master``), heard from one of
    the sentinels at a time. A failover promotes a replica while the old master may well be
    alive (a manual failover, a partition): Sentinel demotes it, and closes its clients, only
    some ten seconds later, and writes it takes meanwhile are lost when it resyncs. So a
    connection to the old master is closed as soon as the switch is announced, not when it
    breaks. The master's address is also compared whenever listening (re)starts, so a
    switch announced while no sentinel was heard is not missed."""

    def __init__(
        self, pool: SentinelConnectionPool, switched: Callable[[], Awaitable[None]]
    ) -> None:
        self._pool = pool
        self._switched = switched
        self._name = str(pool.service_name).encode()

    async def follow(self) -> None:
        """Listen until cancelled, from the next sentinel whenever one stops answering."""
        while True:
            for sentinel in list(self._pool.sentinel_manager.sentinels):
                with contextlib.suppress(RedisError, OSError):
                    await self._listen(sentinel.connection_pool.connection_kwargs)
            await asyncio.sleep(1)

    async def _listen(self, kwargs: dict[str, Any]) -> None:
        # A connection of its own, with no read timeout: it waits for announcements.
        listener = aioredis.Redis(
            host=kwargs["host"],
            port=kwargs["port"],
            password=kwargs.get("password"),
            socket_connect_timeout=kwargs.get("socket_connect_timeout"),
            socket_keepalive=True,
        )
        try:
            async with listener.pubsub() as pubsub:
                await pubsub.subscribe("+switch-master")
                known = self._pool.master_address
                now = await self._pool.sentinel_manager.discover_master(self._pool.service_name)
                if known is not None and tuple(now) != tuple(known):
                    await self._switched()
                async for message in pubsub.listen():
                    # "<name> <old ip> <old port> <new ip> <new port>"
                    named = message["data"].split()[:1] if message["type"] == "message" else []
                    if named == [self._name]:
                        await self._switched()
        finally:
            await listener.aclose()


class Lanes:
    """The lean path's connections: at most the pool's ``max_connections`` of them, each
    serving one command at a time. The one used last is used next, so a worker whose
    requests do not overlap talks over one connection.

    Each command runs under one timer of ``socket_timeout`` (connecting has its own). A
    command that fails other than by Redis's answer (a timeout, a dropped connection, a
    cancellation) closes its connection, so a late reply is never read as the next
    command's (redis-py issue #2624); the next command on that lane connects afresh, as
    does one whose connection Redis closed meanwhile (a restart). So does one whose
    connection answered READONLY: it reached a replica (a demoted master), and connecting
    again asks where the master is now. A new connection to another address than the last
    one (the sentinels named a new master) closes the idle ones to the old address.
    """

    def __init__(self, pool: aioredis.BlockingConnectionPool) -> None:
        kwargs = dict(pool.connection_kwargs)
        self.deadline: float | None = kwargs.get("socket_timeout")
        connect = kwargs.get("socket_connect_timeout")
        self._connect_deadline = (
            None if connect is None or self.deadline is None else connect + self.deadline
        )
        kwargs.update(socket_timeout=None, health_check_interval=0)  # the deadline's job
        self._kwargs = kwargs
        self._connection_class = pool.connection_class
        self._max = pool.max_connections
        self._wait = pool.timeout
        self._lanes = 0
        self._address: object = None  # where the last connection went
        self._idle: list[Link | None] = []  # None: a lane without a connection yet
        self._open: set[Link] = set()
        self._waiters: deque[asyncio.Future[Link | None]] = deque()

    async def call(self, packed: bytes, script: LeanScript | None = None) -> Any:
        """Send ``packed`` (one command), read its reply. ``script``: the command is that
        script's EVALSHA, loaded and sent again if Redis no longer knows it."""
        link = self._idle.pop() if self._idle else await self._take()
        clean = False
        try:
            if link is None or link.closed:
                if link is not None:
                    self._open.discard(link)
                link = await self._connect()
            reply = await link.call(packed, self.deadline)
            if script is not None and isinstance(reply, NoScriptError):
                # The script cache was flushed (a restart): load it, send it again.
                await link.call(script.load_command, self.deadline)
                reply = await link.call(packed, self.deadline)
            # As redis-py does: an error reply that its parser makes a ConnectionError
            # (LOADING, NOAUTH, WRONGPASS, "max number of clients reached") also ends the
            # connection; any error reply is raised, never returned as a result.
            clean = not isinstance(reply, ConnectionError)
        finally:
            if not clean and link is not None:
                link.close()
            self._release(link)
        if isinstance(reply, RedisError):
            raise _demoted(reply, link)
        return reply

    async def call_then_wait(
        self, packed: bytes, script: LeanScript, wait: bytes, waited: float
    ) -> tuple[Any, Any]:
        """:meth:`call`, with ``wait`` (a WAIT command) sent right behind ``packed`` on the
        same connection: both replies, the script's raised if it is an error. ``waited``:
        the WAIT's own timeout, added to the deadline. (Apart from :meth:`call`, whose
        every instruction counts on the path without WAIT.)"""
        link = self._idle.pop() if self._idle else await self._take()
        deadline = None if self.deadline is None else self.deadline + waited
        clean = False
        try:
            if link is None or link.closed:
                if link is not None:
                    self._open.discard(link)
                link = await self._connect()
            reply, acked = await link.call_pair(packed + wait, deadline)
            if isinstance(reply, NoScriptError):
                await link.call(script.load_command, self.deadline)
                reply, acked = await link.call_pair(packed + wait, deadline)
            clean = not isinstance(reply, ConnectionError) and not isinstance(
                acked, ConnectionError
            )
        finally:
            if not clean and link is not None:
                link.close()
            self._release(link)
        for answer in (reply, acked):
            if isinstance(answer, RedisError):
                raise _demoted(answer, link)
        return reply, acked

    async def _connect(self) -> Link:
        # Connecting has its own bound, as with redis-py: the socket's connect timeout,
        # then the handshake's replies within a socket timeout.
        try:
            async with asyncio.timeout(self._connect_deadline):
                link = await Link.open(self._connection_class(**self._kwargs))
        except builtins_timeout as error:
            raise TimeoutError("Timeout connecting to Redis") from error
        self._open.add(link)
        if link.address != self._address:
            self._address = link.address
            for index, idle in enumerate(self._idle):
                if idle is not None and idle.address != link.address:
                    idle.close()
                    self._open.discard(idle)
                    self._idle[index] = None
        return link

    async def _take(self) -> Link | None:
        if self._lanes < self._max:
            self._lanes += 1
            return None
        waiter: asyncio.Future[Link | None] = asyncio.get_running_loop().create_future()
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

    def _release(self, link: Link | None) -> None:
        while self._waiters:
            waiter = self._waiters.popleft()
            if not waiter.done():
                waiter.set_result(link)
                return
        self._idle.append(link)

    async def aclose(self) -> None:
        for link in self._open:
            link.close()
        self._open.clear()
        self._idle = [None] * len(self._idle)


class Link(asyncio.Protocol):
    """One connection to Redis: redis-py connects it (socket, TLS, AUTH or HELLO, SELECT,
    client name, under its connect timeout), then hands its socket over to this protocol,
    which feeds what arrives to hiredis and hands each reply to the command waiting for it
    (in order). Cheaper than redis-py's connection by its stream reader and writer: the
    reply is in hand when the data arrives."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._stream = writer  # kept: it closes the socket when collected
        self._transport = cast("asyncio.Transport", writer.transport)
        self._replies = hiredis.Reader(protocolError=InvalidResponse, replyError=parse_error)
        self._waiting: deque[asyncio.Future[Any]] = deque()
        self._loop = asyncio.get_running_loop()
        self.closed = False
        self.address: object = None  # (host, port) as redis-py connected it

    @classmethod
    async def open(cls, conn: AbstractConnection) -> Link:
        await conn.connect()  # type: ignore[no-untyped-call]
        if await conn.can_read():
            await conn.disconnect()
            raise ConnectionError("Redis sent data before any command")
        link = cls(take_socket(conn))  # redis-py never reads or closes it again
        link.address = (getattr(conn, "host", None), getattr(conn, "port", None))
        link._transport.set_protocol(link)
        return link

    async def call(self, packed: bytes, deadline: float | None) -> Any:
        """The reply to ``packed`` within ``deadline`` seconds (else the connection is
        closed and TimeoutError raised); a reply that is an error comes back, not raised."""
        if self.closed:
            raise ConnectionError("Connection closed")
        reply = self._loop.create_future()
        self._waiting.append(reply)
        self._transport.write(packed)
        if deadline is None:
            return await reply
        # One timer, and no cancellation: on expiry the reply fails with TimeoutError.
        timer = self._loop.call_later(deadline, self._expire, deadline)
        try:
            return await reply
        finally:
            timer.cancel()

    async def call_pair(self, packed: bytes, deadline: float | None) -> tuple[Any, Any]:
        """The two replies to ``packed`` (two commands), both within ``deadline``."""
        if self.closed:
            raise ConnectionError("Connection closed")
        first, second = self._loop.create_future(), self._loop.create_future()
        self._waiting.extend((first, second))
        self._transport.write(packed)
        timer = (
            None if deadline is None else self._loop.call_later(deadline, self._expire, deadline)
        )
        try:
            return await first, await second
        finally:
            if timer is not None:
                timer.cancel()

    def _expire(self, deadline: float) -> None:
        self.close(TimeoutError(f"Timeout reading from Redis ({deadline} s)"))

    def data_received(self, data: bytes) -> None:
        self._replies.feed(data)
        try:
            while (reply := self._replies.gets()) is not False:
                waiting = self._waiting.popleft()
                if not waiting.done():
                    waiting.set_result(reply)
        except (IndexError, InvalidResponse) as error:  # a reply nobody asked for: out of step
            self.close(ConnectionError(f"Out of step with Redis: {error}"))

    def eof_received(self) -> bool:
        return False  # closes the transport

    def connection_lost(self, exc: Exception | None) -> None:
        self.close(ConnectionError(f"Connection closed by Redis ({exc or 'EOF'})"))

    def close(self, error: Exception | None = None) -> None:
        """Close the connection; every command still waiting on it fails with ``error``."""
        if not self.closed:
            self.closed = True
            self._transport.close()
        while self._waiting:
            waiting = self._waiting.popleft()
            if not waiting.done():
                waiting.set_exception(error or ConnectionError("Connection closed"))


builtins_timeout = asyncio.TimeoutError  # the builtin TimeoutError since Python 3.11


def _demoted(error: RedisError, link: Link | None) -> RedisError:
    """``error``, to raise. A READONLY one (from a script too) says the connection reached
    a replica, a demoted master: it is closed, so that the next command connects again
    (through the sentinels, to the master they name now)."""
    if link is not None and (isinstance(error, ReadOnlyError) or "READONLY" in str(error)):
        link.close()
    return error


def _pack(command: tuple[bytes | str | int | float, ...]) -> bytes:
    """One RESP command (hiredis's packer, as redis-py's with hiredis)."""
    try:
        packed: bytes = hiredis.pack_command(command)  # type: ignore[arg-type]  # stub: 1-tuples
    except TypeError as error:  # a bool or None, say: refused as redis-py refuses it
        raise DataError(f"Invalid input for a Redis command: {error}") from None
    return packed


class LeanScript(AsyncScript):
    """A Lua script, called as redis-py's (``await script(keys=…, args=…)``), on the lean
    path: each call's ``EVALSHA`` packed in one step by hiredis."""

    def __init__(self, client: SessionRedis, script: str | bytes) -> None:
        source = script.encode() if isinstance(script, str) else script
        super().__init__(client, source)
        self._lanes = client.lanes
        self._sha = self.sha.encode() if isinstance(self.sha, str) else self.sha
        self.load_command = _pack((b"SCRIPT", b"LOAD", source))

    def pack(self, keys: Sequence[bytes | str], args: Iterable[bytes | str | int | float]) -> bytes:
        """The EVALSHA command of one call (packed by hiredis, as redis-py packs it)."""
        return _pack((b"EVALSHA", self._sha, len(keys), *keys, *args))

    def call_then_wait(
        self,
        keys: Sequence[bytes | str],
        args: Iterable[bytes | str | int | float],
        wait: bytes,
        waited: float,
    ) -> Coroutine[Any, Any, tuple[Any, Any]]:
        """The call with ``wait`` (a packed WAIT) right behind it on its connection."""
        return self._lanes.call_then_wait(self.pack(keys, args), self, wait, waited)

    def __call__(  # type: ignore[override]
        self,
        keys: Sequence[bytes | str] | None = None,
        args: Iterable[bytes | str | int | float] | None = None,
        client: Any = None,
    ) -> Coroutine[Any, Any, Any]:
        # Not a coroutine itself: the caller awaits the lanes' call directly.
        if client is not None:
            return super().__call__(keys, args, client)
        return self._lanes.call(self.pack(keys or (), args or ()), self)


class ReplicaWait:
    """``WAIT replicas timeout_ms`` right behind a script call, on the connection the
    script ran on: WAIT counts the replicas holding everything that connection wrote."""

    def __init__(self, replicas: int, timeout_ms: int) -> None:
        self.replicas = replicas
        self.timeout_ms = timeout_ms
        self._packed = _pack((b"WAIT", replicas, timeout_ms))

    async def call(
        self, script: AsyncScript, keys: Sequence[bytes | str], args: Sequence[Any]
    ) -> tuple[Any, int]:
        """The script's reply (an error raised) and how many replicas acknowledged."""
        if isinstance(script, LeanScript):
            reply, acked = await script.call_then_wait(
                keys, args, self._packed, self.timeout_ms / 1000
            )
            return reply, int(acked)
        if isinstance(script.registered_client, aioredis.RedisCluster):
            return await self._on_cluster(script, keys, args)
        return await self._in_pipeline(script, keys, args)

    async def _in_pipeline(
        self, script: AsyncScript, keys: Sequence[bytes | str], args: Sequence[Any]
    ) -> tuple[Any, int]:
        # redis-py's own path (FAST_PATHS=off): a pipeline sends both on one connection.
        client = cast("aioredis.Redis", script.registered_client)
        for attempt in (1, 2):
            async with client.pipeline(transaction=False) as pipe:
                pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
                pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
                reply, acked = await pipe.execute(raise_on_error=False)
            if not (isinstance(reply, NoScriptError) and attempt == 1):
                break
            await client.script_load(script.script)
        for answer in (reply, acked):
            if isinstance(answer, BaseException):
                raise answer
        return reply, int(acked)

    async def _on_cluster(
        self, script: AsyncScript, keys: Sequence[bytes | str], args: Sequence[Any]
    ) -> tuple[Any, int]:
        # One pipeline to the node of the keys' slot: the script, then WAIT aimed at that
        # node, go over one of its connections. No redirection: a script sent on elsewhere
        # would leave the WAIT counting another connection's writes (the MOVED is raised
        # instead: a 503, whose retry with the same Idempotency-Key is safe).
        cluster = cast("aioredis.RedisCluster", script.registered_client)
        first = keys[0] if isinstance(keys[0], str) else keys[0].decode()
        try:
            await cluster.initialize()  # at once when it knows the nodes already
            for attempt in (1, 2):
                pipe = cluster.pipeline()
                pipe.execute_command("EVALSHA", script.sha, len(keys), *keys, *args)
                node = cluster.get_node_from_key(first)
                pipe.execute_command("WAIT", self.replicas, self.timeout_ms, target_nodes=node)
                reply, acked = await pipe.execute(raise_on_error=False, allow_redirections=False)
                if not (isinstance(reply, NoScriptError) and attempt == 1):
                    break
                await cluster.script_load(script.script)
            for answer in (reply, acked):
                if isinstance(answer, BaseException):
                    raise answer
        except (RedisError, RedisClusterException) as error:
            if not isinstance(error, ResponseError) or isinstance(error, _MOVED):
                await self._ask_again(cluster, first)
            if isinstance(error, RedisError):
                raise
            raise ConnectionError(str(error)) from error  # no slot known for it (yet)
        return reply, int(acked)

    @staticmethod
    async def _ask_again(cluster: aioredis.RedisCluster, key: str) -> None:
        """A pipeline that failed (a node gone, a slot moved) does not make redis-py's
        cluster client learn the new layout, as any failed command does: one such
        command on the key, through its own path, does."""
        with contextlib.suppress(RedisError, RedisClusterException):
            await cluster.exists(key)


# A slot served elsewhere now (a failover, a resharding): the layout to learn again.
_MOVED = (AskError, ClusterDownError, TryAgainError)
