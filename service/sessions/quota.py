"""Live sessions per client: at most ``SESSIONS_PER_CLIENT`` of every kind together, for one
client (its API key, else its address), so that no caller grows Redis without bound.

Each client has a sorted set of the sessions it created (their envelope keys), scored by
creation time. A creation adds its session in one script that answers whether the set is
within the limit; only when it is not does the creator look at which of its sessions are
still live (stored, not deleted: a deleted session keeps only its access for a while) and
drop the rest; if it is still over, it takes its own place back and is refused with 429.
Two creations racing at the limit may both be refused; never both admitted past it. The
set lives as long as a session may wait untouched, twice over, from the client's last
creation.
"""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING, Final, cast

from redis.exceptions import RedisError

from service.http.contract.errors import StoreError, TooManySessions
from service.metrics import REDIS_ERRORS

if TYPE_CHECKING:
    from service.sessions.client import RedisClient

__all__ = ["SessionQuota"]

# KEYS[1]: the client's set. ARGV: the session's key, the set's TTL (ms), the limit. 0
# when within the limit; else Redis's time (ms) and the other members with the time each
# was added, to be checked.
_ADD: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
if redis.call('ZCARD', KEYS[1]) <= tonumber(ARGV[3]) then return 0 end
local answer = {tostring(now)}
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do
  table.insert(answer, member)
end
return answer
"""
# A member not yet stored is a creation still under way, not a session gone, for this
# long after it was added: a creation's write is answered within a few socket timeouts.
PENDING_MS: Final = 30_000

# KEYS[1]: a session's envelope. Its PTTL while the session is stored; -3 once deleted
# (only its access stays, for stream readers); -2 when there is none (expired, or not
# stored yet).
_LIVE: Final = """
if redis.call('HEXISTS', KEYS[1], 's') == 1 then return redis.call('PTTL', KEYS[1]) end
if redis.call('EXISTS', KEYS[1]) == 1 then return -3 end
return -2
"""


class SessionQuota:
    """Places for new sessions, per client; one per worker."""

    def __init__(self, client: RedisClient, *, per_client: int, set_ttl_ms: int) -> None:
        self._client = client
        self._add = client.register_script(_ADD)
        self._live = client.register_script(_LIVE)
        self.per_client = per_client
        self._set_ttl_ms = set_ttl_ms

    @staticmethod
    def _set_key(identity: str) -> str:
        return "bullseye:sessions:{" + identity + "}"

    async def take(self, identity: str, session_key: str) -> None:
        """A place for the session stored at ``session_key``, or 429 ``too-many-sessions``.

        Raises:
            TooManySessions: the client keeps ``per_client`` live sessions already.
            StoreError: Redis did not answer.
        """
        if not self.per_client:
            return
        key = self._set_key(identity)
        try:
            answer = await self._add(
                keys=[key], args=[session_key, self._set_ttl_ms, self.per_client]
            )
            if not answer:
                return
            now, *flat = (item.decode() for item in cast("list[bytes]", answer))
            added = {flat[i]: float(flat[i + 1]) for i in range(0, len(flat), 2)}
            others = [member for member in added if member != session_key]
            lives = await asyncio.gather(*(self._live(keys=[other], args=[]) for other in others))
            # Deleted is gone. Absent and added a while ago is gone too (expired: a session
            # lives at least a minute); absent and added just now is a creation under way.
            gone = [
                other
                for other, left in zip(others, lives, strict=True)
                if int(left) == -3 or (int(left) == -2 and int(now) - added[other] > PENDING_MS)
            ]
            if gone:
                await self._client.zrem(key, *gone)
            live = [
                max(int(left), 0)
                for other, left in zip(others, lives, strict=True)
                if other not in gone
            ]
            if len(live) < self.per_client:
                return
            await self._client.zrem(key, session_key)
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        soonest = min((left for left in live if left > 0), default=1000)
        raise TooManySessions(
            detail=f"This client (its API key, else its address) keeps {self.per_client} live "
            "sessions, its limit (SESSIONS_PER_CLIENT): end one (DELETE), or wait until one "
            "expires untouched.",
            headers={"Retry-After": str(max(1, math.ceil(soonest / 1000)))},
        )

    async def give_back(self, identity: str, session_key: str) -> None:
        """The place of a session that was not created after all (best effort: it is
        found gone and dropped at the client's next check anyway)."""
        if not self.per_client:
            return
        try:
            await self._client.zrem(self._set_key(identity), session_key)
        except RedisError:
            REDIS_ERRORS.inc()
