"""Rate limiting per API key (or client address), shared by every replica through Redis.

Fixed windows counted in Redis, spent from local leases. Each identity has one counter in
Redis (``bullseye:ratelimit:{<identity>}:<rate>``, hash-tagged so that a Redis Cluster
keeps it on one node) that lives one window: the window starts with its first lease and
ends when the key expires, on Redis's clock. (Fixed windows, unlike the sliding-window
counter this replaced: a burst at one window's end and the next's start can see up to
twice the limit within one window's length.) A worker asks the counter for a *lease* of up to ``k``
requests with one script call, then admits that identity's requests locally until the
lease is spent or the window ends, so a request costs one Redis round trip or none.

The bound: the script grants only what the window has left, and a worker spends a lease
only before the window's end as Redis reported it (measured from when the call was
sent), so **all workers and replicas together never admit more than the limit in a
window**: no over-admission. The price is the other way: requests leased by a worker but
not yet admitted when the window runs out are lost to the others, at most ``k - 1`` per
worker (fewer admitted than the limit only if an identity's traffic stops reaching a
worker that still holds some). The bound assumes Redis keeps its counters: a restart or
failover that loses one mid-window starts a fresh window while workers still hold leases
of the old, so that window may admit up to the limit again plus those leases. ``k``
adapts: a worker's first lease in a window is 1 request, each next one twice the last,
up to ``lease_cap(limit)`` = 1 % of the limit (at least 1, at most 1 000), so limits
below 200 per window lease one request at a time and are exact, and a busy identity asks
Redis about once per 1 % of its limit. A window found spent is remembered until its end:
refusals cost no Redis call.

``RateLimit-Remaining`` is what Redis had not leased out at this worker's last lease plus
what the worker still holds: exact when leases are one request, otherwise it lags what
other workers leased since (within their leases).

Only a configured key counts apart: a request with no key or an unknown one counts
against its client address, so made-up keys cannot each earn a fresh window (nor a Redis
key). If Redis cannot answer within ``RATE_LIMIT_BUDGET_SECONDS`` the limiter steps
aside, and stays aside for a second so that a hung Redis costs one request that budget,
not every request.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import structlog
from redis.exceptions import RedisError

from service.http.shell.rates import parse_rate
from service.metrics import REDIS_ERRORS

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from service.settings import Settings

__all__ = [
    "STAND_ASIDE_SECONDS",
    "Decision",
    "RateLimiter",
    "lease_cap",
]

# After Redis failed to answer in time, the limiter is not asked again for this long.
STAND_ASIDE_SECONDS = 1.0
# The largest lease: 1 % of the limit, within these bounds.
LEASE_SHARE = 100
MAX_LEASE = 1000

_log = structlog.get_logger("service.ratelimit")

# KEYS[1]: the identity's counter. ARGV: the limit, the lease wanted, the window in ms.
# Grants only what the window has left; a window begins with its first lease. Returns
# the grant, the window's count after it, and the ms the window has left.
_LEASE = """
local ttl = redis.call('PTTL', KEYS[1])
local used = 0
if ttl > 0 then
  used = tonumber(redis.call('GET', KEYS[1])) or 0
else
  ttl = tonumber(ARGV[3])
end
local grant = math.min(tonumber(ARGV[2]), tonumber(ARGV[1]) - used)
if grant <= 0 then
  return {0, used, ttl}
end
if used == 0 then
  redis.call('SET', KEYS[1], grant, 'PX', ttl)
else
  redis.call('INCRBY', KEYS[1], grant)
end
return {grant, used + grant, ttl}
"""


def lease_cap(limit: int) -> int:
    """The most requests a worker leases at once for a window of ``limit``."""
    return min(MAX_LEASE, max(1, limit // LEASE_SHARE))


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


class _Lease:
    """One identity's window as this worker knows it."""

    __slots__ = ("deadline", "left", "size", "used")

    def __init__(self, deadline: float, left: int, used: int, size: int) -> None:
        self.deadline = deadline  # monotonic; never after the window's end in Redis
        self.left = left  # leased here, not yet admitted
        self.used = used  # the window's count in Redis at the last lease (all workers)
        self.size = size  # the lease last asked for


class RateLimiter:
    """One per process, made in the lifespan (only when ``RATE_LIMIT`` is set), with a
    Redis client of its own (the sessions' ``make_client``), which ``aclose`` closes."""

    def __init__(self, settings: Settings, client: aioredis.Redis | aioredis.RedisCluster) -> None:
        assert settings.rate_limit, "only made when RATE_LIMIT is set"
        rate = parse_rate(settings.rate_limit)
        self.limit = rate.amount
        self._window_ms = rate.seconds * 1000
        self._cap = lease_cap(rate.amount)
        self._key_suffix = f"}}:{rate}"
        self._client = client
        self._lease = self._client.register_script(_LEASE)
        # The first call sends the script itself (EVAL): one round trip where EVALSHA on a
        # fresh server takes three (NOSCRIPT, SCRIPT LOAD, EVALSHA) within the budget.
        self._script_sent = False
        self._budget = settings.rate_limit_budget_seconds
        self._aside_until = 0.0
        self._leases: dict[str, _Lease] = {}
        # One lease call in flight per identity; other requests of it wait for its answer.
        self._flights: dict[str, asyncio.Future[None]] = {}
        self._sweep_at = 1024

    async def aclose(self) -> None:
        await self._client.aclose()

    async def decide(self, identity: str) -> Decision | None:
        """Count one request of ``identity``; None when Redis cannot say in time (fail open)."""
        while True:
            now = time.monotonic()
            if self._aside_until:
                if now < self._aside_until:
                    return None
                self._aside_until = 0.0
            lease = self._leases.get(identity)
            if lease is not None and now < lease.deadline:
                if lease.left:
                    lease.left -= 1
                    return Decision(
                        True,
                        self.limit,
                        max(0, self.limit - lease.used + lease.left),
                        math.ceil(lease.deadline - now),
                    )
                if lease.used >= self.limit:  # spent until the window ends
                    return Decision(False, self.limit, 0, math.ceil(lease.deadline - now))
            flight = self._flights.get(identity)
            if flight is not None:
                await asyncio.shield(flight)
                continue
            if not await self._renew(identity, lease, now):
                return None

    async def _renew(self, identity: str, lease: _Lease | None, now: float) -> bool:
        """Lease more of ``identity``'s window; False when Redis did not answer in time."""
        size = min(self._cap, lease.size * 2) if lease and now < lease.deadline else 1
        flight = self._flights[identity] = asyncio.get_running_loop().create_future()
        key = "bullseye:ratelimit:{" + identity + self._key_suffix
        try:
            sent = time.monotonic()
            async with asyncio.timeout(self._budget):
                if self._script_sent:
                    reply = await self._lease(keys=[key], args=[self.limit, size, self._window_ms])
                else:
                    reply = await self._client.eval(
                        _LEASE, 1, key, self.limit, size, self._window_ms
                    )
                    self._script_sent = True
                grant, used, ttl_ms = reply
        except (RedisError, TimeoutError) as error:
            REDIS_ERRORS.inc()
            self._aside_until = time.monotonic() + STAND_ASIDE_SECONDS
            _log.warning("rate_limiter_unavailable", error=type(error).__name__)
            return False
        finally:
            del self._flights[identity]
            flight.set_result(None)
        self._leases[identity] = _Lease(sent + ttl_ms / 1000, grant, used, size)
        if len(self._leases) >= self._sweep_at:
            self._sweep()
        return True

    def _sweep(self) -> None:
        """Forget windows that ended, so addresses seen once do not stay forever."""
        now = time.monotonic()
        self._leases = {key: lease for key, lease in self._leases.items() if lease.deadline > now}
        self._sweep_at = max(1024, 2 * len(self._leases))
