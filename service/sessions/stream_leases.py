"""Event streams counted across every worker and replica: at most ``SSE_MAX_PER_SESSION``
open on one session and ``SSE_MAX_PER_CLIENT`` for one client (its API key, else its
address), besides each worker's own ``SSE_MAX_CONNECTIONS``.

Each open stream holds a *lease* in two Redis sorted sets — the session's (under its hash
tag) and the client's — scored by when the lease lapses on Redis's clock. A stream renews
its leases as it runs and gives them back when it ends; a worker that dies mid-stream
leaves leases that lapse within ``lease_ms``, so a crash never holds a place for long. Each
set is checked and written by one script, so concurrent opens never pass its limit. The
two sets may sit on different Cluster nodes: the client's is taken first and given back if
the session's refuses.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import structlog
from redis.exceptions import RedisError

from service.http.contract.context import new_id
from service.http.contract.errors import StoreError, TooManyClientStreams, TooManySessionStreams
from service.metrics import REDIS_ERRORS

if TYPE_CHECKING:
    from service.sessions.client import RedisClient
    from service.sessions.keys import SessionKind

__all__ = ["StreamLease", "StreamLeases", "lease_ms_for"]

# KEYS[1]: the sorted set. ARGV: the lease's id, the limit (0: renew, whatever the count),
# its length in ms. 1 when held, 0 when the set is full.
_TAKE: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local limit = tonumber(ARGV[2])
if limit > 0 and redis.call('ZSCORE', KEYS[1], ARGV[1]) == false
   and redis.call('ZCARD', KEYS[1]) >= limit then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

_log = structlog.get_logger("service.streams")


def lease_ms_for(keep_alive_seconds: float) -> int:
    """A lease outlives three keep-alive periods (a stream renews once per period), and
    five seconds at least."""
    return max(5000, int(3000 * keep_alive_seconds))


@dataclass(slots=True)
class StreamLease:
    """One open stream's places: in its session's set and its client's."""

    id: str
    session_key: str
    client_key: str
    renewed_at: float = 0.0


class StreamLeases:
    """Takes, renews and gives back the leases of one worker's streams."""

    def __init__(
        self,
        client: RedisClient,
        *,
        per_session: int,
        per_client: int,
        lease_ms: int,
        retry_after: int,
    ) -> None:
        self._client = client
        self._take = client.register_script(_TAKE)
        self.per_session = per_session
        self.per_client = per_client
        self.lease_ms = lease_ms
        self._retry_after = retry_after
        self._releasing: set[asyncio.Task[None]] = set()

    async def take(self, kind: SessionKind, session_id: str, identity: str) -> StreamLease:
        """Places for one more stream of ``identity`` on the session, or a 429 refusal.

        Raises:
            TooManyClientStreams: the client holds ``per_client`` streams already.
            TooManySessionStreams: the session has ``per_session`` open already.
            StoreError: Redis did not answer.
        """
        lease = StreamLease(
            id=new_id(),
            session_key=f"{kind.state(session_id)}:streams",
            client_key="bullseye:streams:{" + identity + "}",
            renewed_at=asyncio.get_running_loop().time(),
        )
        retry = {"Retry-After": str(self._retry_after)}
        if not await self._call(lease.client_key, lease.id, self.per_client):
            raise TooManyClientStreams(
                detail=f"This client (its API key, else its address) holds {self.per_client} "
                "event streams, its limit (SSE_MAX_PER_CLIENT); close one, or retry.",
                headers=retry,
            )
        try:
            taken = await self._call(lease.session_key, lease.id, self.per_session)
        except BaseException:
            self.release(lease)
            raise
        if not taken:
            self.release(lease)
            raise TooManySessionStreams(
                detail=f"This {kind.kind} has {self.per_session} event streams open, its "
                "limit (SSE_MAX_PER_SESSION); close one, or retry.",
                headers=retry,
            )
        return lease

    async def renew(self, lease: StreamLease) -> None:
        """Keep ``lease`` from lapsing, at most once a third of its length; a failure is
        only logged (the stream goes on, and its places lapse)."""
        now = asyncio.get_running_loop().time()
        if now - lease.renewed_at < self.lease_ms / 3000:
            return
        lease.renewed_at = now
        try:
            await self._call(lease.client_key, lease.id, 0)
            await self._call(lease.session_key, lease.id, 0)
        except StoreError as error:
            _log.warning("stream_lease_not_renewed", error=str(error))

    def release(self, lease: StreamLease) -> None:
        """Give ``lease``'s places back, in the background (best effort: they lapse anyway)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # collected outside the loop: the lease lapses by itself
            return
        task = loop.create_task(self._release(lease))
        self._releasing.add(task)
        task.add_done_callback(self._releasing.discard)

    async def _release(self, lease: StreamLease) -> None:
        try:
            await self._client.zrem(lease.client_key, lease.id)
            await self._client.zrem(lease.session_key, lease.id)
        except RedisError:
            REDIS_ERRORS.inc()

    async def _call(self, key: str, lease_id: str, limit: int) -> bool:
        try:
            return bool(await self._take(keys=[key], args=[lease_id, limit, self.lease_ms]))
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
