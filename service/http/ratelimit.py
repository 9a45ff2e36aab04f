"""Rate limiting per API key (or client address), shared by every replica through Redis.

Built on the ``limits`` library's sliding-window counter with its Redis storage, so the
limit holds for the sum of all workers and replicas. Only a configured key counts apart:
a request with no key or an unknown one counts against its client address, so made-up
keys cannot each earn a fresh window (nor a Redis key). If Redis cannot answer within
``RATE_LIMIT_BUDGET_SECONDS`` the limiter steps aside, and stays aside for a second so
that a hung Redis costs one request that budget, not every request.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import structlog
from limits import RateLimitItem, parse
from limits.aio.storage import RedisClusterStorage, RedisStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.errors import StorageError

from service.metrics import REDIS_ERRORS
from service.settings import Settings

__all__ = ["STAND_ASIDE_SECONDS", "Decision", "RateLimiter", "identity_of", "limits_uri"]

# After Redis failed to answer in time, the limiter is not asked again for this long.
STAND_ASIDE_SECONDS = 1.0

_log = structlog.get_logger("service.ratelimit")


def limits_uri(redis_url: str, *, cluster: bool = False) -> str:
    """The ``limits`` storage URI for a redis-py URL."""
    if cluster:
        return "async+redis+cluster://" + redis_url.partition("://")[2]
    if redis_url.startswith("unix://"):
        return "async+redis+unix://" + redis_url.removeprefix("unix://")
    return "async+" + redis_url


@dataclass(frozen=True, slots=True)
class Decision:
    """What the limiter says of one request, and the ``RateLimit-*`` headers it earns."""

    allowed: bool
    limit: int
    remaining: int
    reset_seconds: int

    def headers(self) -> list[tuple[bytes, bytes]]:
        """``RateLimit-Limit/Remaining/Reset``, on every answer it counted."""
        return [
            (b"ratelimit-limit", str(self.limit).encode()),
            (b"ratelimit-remaining", str(self.remaining).encode()),
            (b"ratelimit-reset", str(self.reset_seconds).encode()),
        ]

    @property
    def retry_after(self) -> int:
        """Seconds until a refused request may be sent again: the window's reset."""
        return max(1, self.reset_seconds)


class RateLimiter:
    """One per process, made in the lifespan; ``None`` limit means off."""

    def __init__(self, settings: Settings) -> None:
        assert settings.rate_limit, "only made when RATE_LIMIT is set"
        assert settings.redis_url, "REDIS_URL is set by then"
        self.item: RateLimitItem = parse(settings.rate_limit)
        storage_class = RedisClusterStorage if settings.redis_cluster else RedisStorage
        uri = limits_uri(settings.redis_url, cluster=settings.redis_cluster)
        storage = storage_class(
            uri,
            implementation="redispy",
            wrap_exceptions=True,
            key_prefix="bullseye:ratelimit",
            socket_timeout=settings.redis_socket_timeout,
            socket_connect_timeout=settings.redis_connect_timeout,
        )
        self._limiter = SlidingWindowCounterRateLimiter(storage)
        self._budget = settings.rate_limit_budget_seconds
        self._aside_until = 0.0

    async def decide(self, identity: str) -> Decision | None:
        """Count one request of ``identity``; None when Redis cannot say in time (fail open)."""
        if self._aside_until and time.monotonic() < self._aside_until:
            return None
        try:
            async with asyncio.timeout(self._budget):
                allowed = await self._limiter.hit(self.item, identity)
                stats = await self._limiter.get_window_stats(self.item, identity)
        except (StorageError, TimeoutError) as error:
            REDIS_ERRORS.inc()
            self._aside_until = time.monotonic() + STAND_ASIDE_SECONDS
            _log.warning("rate_limiter_unavailable", error=type(error).__name__)
            return None
        self._aside_until = 0.0
        reset = max(0, int(stats.reset_time - time.time() + 0.999))
        if reset == 0 and stats.remaining < self.item.amount:
            # limits reports 0 for a window's very first hit (its key's TTL is a whole
            # multiple of the window); that hit counts for the whole window.
            reset = self.item.get_expiry()
        return Decision(
            allowed=allowed,
            limit=self.item.amount,
            remaining=max(0, stats.remaining),
            reset_seconds=reset,
        )


def identity_of(key_digest: str | None, client_host: str | None) -> str:
    """Who a request counts against: a configured API key (by its SHA-256 hex digest),
    else its client address."""
    if key_digest:
        return "key:" + key_digest[:32]
    return "addr:" + (client_host or "unknown")
