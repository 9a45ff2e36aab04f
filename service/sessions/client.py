"""The process's one ``redis.asyncio`` client: bounded blocking pool, explicit timeouts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

if TYPE_CHECKING:
    from service.settings import Settings

__all__ = ["RedisClient", "make_client"]


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
    return aioredis.Redis(connection_pool=pool, retry=once)
