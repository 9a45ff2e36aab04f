"""Generated roll signing keys, shared between replicas through Redis.

A replica without ``ROLL_SIGNING_KEYS`` signs with a key of its own, whose private half
never leaves its process. Its *public* key is published in Redis, so every replica's
``/.well-known/jwks.json`` and ``POST /v1/receipts/verify`` know the key of every replica
that signed, for ``ROLL_KEY_RETENTION_SECONDS`` after it stopped
(docs/verifiable-rolls.md, "Keys shared through Redis").

**Storage.** One hash, :data:`HASH_KEY` (one key: one Redis Cluster node), a field per
kid whose value is ``{"until":<ms>,"jwk":{…}}``: the public JWK, published until that
time on Redis's clock. Every worker calls one script each :attr:`PublishedKeys.period`
(its heartbeat): it sets the worker's own entry to now + retention + one period, drops
lapsed entries, keeps the hash's own expiry at its latest entry and returns the live
ones, so one round trip both publishes and reads. A live replica's key never lapses; an
ended one's lapses between the retention and the retention plus one period after it
ended (its last heartbeat was at most a period before).

**Readers.** Each worker answers from what it last read (its view), every key until the
time Redis said it lapses, measured on the worker's clock: the JWK Set and a verification
never wait on Redis. A verification naming a kid the view lacks asks once
(:meth:`PublishedKeys.refresh`): it waits for a read that began after it arrived, shared
with every verification waiting then, at most one a second per worker, and answers from
that.

**Redis down.** Signing never touches Redis. The JWK Set and verifications answer from
the view; the heartbeat retries every period and says so in the log once per outage.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import re
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

import msgspec
import structlog
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from jwt.utils import base64url_decode
from redis.exceptions import RedisError

from service.http.contract.problems import is_out_of_memory
from service.http.receipts.roll_keys import Jwks, PublicJwk, thumbprint
from service.metrics import REDIS_ERRORS

if TYPE_CHECKING:
    import redis.asyncio as aioredis

    from service.http.receipts.roll_keys import RollKeys

__all__ = [
    "HASH_KEY",
    "MAX_PERIOD_SECONDS",
    "READS_APART_SECONDS",
    "PublishedKeys",
    "period_for",
]

HASH_KEY: Final = "bullseye:roll-keys"
# The heartbeat (and the view's refresh) at least this often; a third of the retention
# when that is shorter, so a live key outlasts two missed beats.
MAX_PERIOD_SECONDS = 10.0
# Reads for unknown kids, at most one per this many seconds per worker: made-up kids
# cost Redis one read a second, not one per verification.
READS_APART_SECONDS = 1.0
# A kid as this service names keys: an RFC 7638 thumbprint, 32 bytes in base64url.
_KID = re.compile(r"[A-Za-z0-9_-]{43}")

# KEYS[1]: the published keys. ARGV[1]: how long this worker's key stays published from
# now, in ms (0: publish nothing, read only); ARGV[2] its kid, ARGV[3] its public JWK as
# JSON. Drops lapsed entries; returns Redis's time in ms and the live entries.
_BEAT: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local hold = tonumber(ARGV[1])
if hold > 0 then
  redis.call('HSET', KEYS[1], ARGV[2],
             string.format('{"until":%d,"jwk":%s}', now + hold, ARGV[3]))
end
local live, last = {}, 0
local entries = redis.call('HGETALL', KEYS[1])
for i = 1, #entries, 2 do
  local until_ms = tonumber(string.match(entries[i + 1], '^{"until":(%d+),'))
  if until_ms ~= nil and until_ms > now then
    live[#live + 1] = entries[i + 1]
    if until_ms > last then last = until_ms end
  else
    redis.call('HDEL', KEYS[1], entries[i])
  end
end
if last > 0 then
  redis.call('PEXPIREAT', KEYS[1], last)
end
return {now, live}
"""

_log = structlog.get_logger("service.receipts")

Condition = Literal["ready", "full", "unreachable"]


def period_for(retention_seconds: float) -> float:
    """The heartbeat's period for a retention: a third of it, at most 10 s."""
    return min(MAX_PERIOD_SECONDS, retention_seconds / 3)


class _Entry(msgspec.Struct, frozen=True):
    """One published key, as the script stores it."""

    until: int
    jwk: PublicJwk


@dataclass(frozen=True, slots=True)
class _Known:
    """Another replica's key, as this worker last read it."""

    jwk: PublicJwk
    public: Ed25519PublicKey
    lapses: float  # time.monotonic(): when Redis drops it, on this worker's clock


class PublishedKeys:
    """This worker's own keys, published, and the keys every replica publishes, as last
    read. Made with the app; :meth:`start` (in the lifespan) begins the heartbeat."""

    def __init__(self, own: RollKeys, *, retention_seconds: float) -> None:
        self.own = own
        self.retention_seconds = retention_seconds
        self.period = period_for(retention_seconds)
        signing = own.signing
        self._publish_args = (
            int((retention_seconds + self.period) * 1000),
            signing.kid,
            msgspec.json.encode(signing.jwk),
        )
        self._others: dict[str, _Known] = {}
        self._jwks = own.jwks()
        self._jwks_lapses = math.inf  # when a key of the cached set lapses
        self._script: Any = None
        self._heartbeat: asyncio.Task[None] | None = None
        self._flight: asyncio.Task[None] | None = None
        self._view_read_at = -math.inf  # when the read the view is from began
        self._tried_at = -math.inf  # when the last finished read began (answered or not)
        self._read_ok = True  # whether it was answered
        self._read_done = asyncio.Event()  # set (and replaced) as each read finishes
        self._started_at = -math.inf  # when the last read began
        self.published = False  # the own key was in Redis as of the last heartbeat

    @property
    def max_age(self) -> int:
        """How long a client may keep the JWK Set: one period (a new replica's key reaches
        every worker's view within one), in whole seconds."""
        return max(1, math.ceil(self.period))

    def start(self, client: aioredis.Redis | aioredis.RedisCluster) -> None:
        """Publish now and every period, with ``client`` (the lifespan's), until
        :meth:`aclose`. Never waits on Redis: the first beat runs as a task."""
        self._script = client.register_script(_BEAT)
        self._tried_at, self._read_done = -math.inf, asyncio.Event()  # this event loop's
        self._heartbeat = asyncio.create_task(self._beat_forever())

    async def aclose(self) -> None:
        """Stop the heartbeat (the key stays published for the retention)."""
        for task in (self._heartbeat, self._flight):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._heartbeat = self._flight = None
        self._tried_at = math.inf  # no verification waits for a read any more
        self._read_done.set()

    def by_kid(self, kid: str) -> Ed25519PublicKey | None:
        """The public key named ``kid``: this worker's own, or another replica's not lapsed."""
        if (own := self.own.by_kid(kid)) is not None:
            return own.public
        known = self._others.get(kid)
        if known is None or known.lapses <= time.monotonic():
            return None
        return known.public

    def jwks(self) -> Jwks:
        """The own keys (the signing one first), then every other replica's, by kid."""
        if self._jwks_lapses <= time.monotonic():
            self._rebuild_jwks()
        return self._jwks

    @staticmethod
    def worth_asking(kid: str | None) -> bool:
        """Whether ``kid`` could name a published key (a thumbprint's shape)."""
        return kid is not None and _KID.fullmatch(kid) is not None

    async def refresh(self, since: float) -> bool:
        """Wait for a read of the published keys that began at ``since`` (time.monotonic())
        or later — a heartbeat's, or one asked for here: one at a time, at most one per
        :data:`READS_APART_SECONDS`, shared by every caller — and say whether Redis
        answered it."""
        if self._script is None:  # an app run without its lifespan: nothing to read with
            return False
        while self._tried_at < since:
            if self._flight is None:
                self._flight = asyncio.create_task(self._read_apart())
            await self._read_done.wait()
        return self._read_ok

    async def beat(self) -> Condition:
        """Publish the own key and read every other now: ``ready`` when Redis took it,
        ``full`` when it refused it for its maxmemory, else ``unreachable``."""
        return await self._call(self._publish_args)

    async def _beat_forever(self) -> None:
        # At a fixed rate, not a period after each beat: beats drifting apart would let a
        # live key come closer to lapsing. A beat late (Redis slow) is not made up for.
        due = time.monotonic()
        task = asyncio.current_task()
        while True:
            await self.beat()
            if task is not None and task.cancelling():
                # Cancelled in the middle of a beat, whose Redis call on redis-py's own
                # path (FAST_PATHS=off) reported it as a failed call: stop all the same.
                raise asyncio.CancelledError
            due = max(due + self.period, time.monotonic())
            await asyncio.sleep(due - time.monotonic())

    async def _read_apart(self) -> None:
        try:
            wait = self._started_at + READS_APART_SECONDS - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self._call((0, "", b""))
        finally:
            self._flight = None

    async def _call(self, args: tuple[int, str, bytes]) -> Condition:
        assert self._script is not None, "start() first"
        started = self._started_at = time.monotonic()
        publishing = args[0] > 0
        try:
            reply = await self._script(keys=[HASH_KEY], args=args)
            now_ms, entries = int(reply[0]), list(reply[1])
        except (RedisError, OSError, TimeoutError, LookupError, ValueError, TypeError) as error:
            REDIS_ERRORS.inc()
            if self._read_ok:  # once per outage
                _log.warning(
                    "roll_keys_unavailable",
                    error=type(error).__name__,
                    note="the keys other replicas publish cannot be read, nor this one's "
                    "published: signing goes on; the JWK Set and verification answer from "
                    "the keys read last",
                )
            self._finished(started, ok=False)
            if publishing:
                self.published = False
            return "full" if is_out_of_memory(error) else "unreachable"
        if not self._read_ok:
            _log.info("roll_keys_available")
        self._finished(started, ok=True)
        if publishing:
            self.published = True
        if started >= self._view_read_at:  # never a slower, older read over a newer one
            self._adopt(started, now_ms, entries)
        return "ready"

    def _finished(self, started: float, *, ok: bool) -> None:
        if started >= self._tried_at:
            self._tried_at, self._read_ok = started, ok
        done, self._read_done = self._read_done, asyncio.Event()
        done.set()

    def _adopt(self, read_at: float, now_ms: int, entries: list[bytes]) -> None:
        """The view from a read begun at ``read_at`` whose script ran at ``now_ms``."""
        others: dict[str, _Known] = {}
        for raw in entries:
            try:
                entry = msgspec.json.decode(raw, type=_Entry)
                jwk = entry.jwk
                if self.own.by_kid(jwk.kid) is not None:
                    continue
                known = self._others.get(jwk.kid)
                if known is not None and known.jwk == jwk:
                    public = known.public
                elif thumbprint(jwk.x) == jwk.kid:
                    public = Ed25519PublicKey.from_public_bytes(base64url_decode(jwk.x))
                else:
                    continue  # a kid that is not its key's thumbprint: not one of ours
            except (msgspec.DecodeError, ValueError, TypeError) as error:
                _log.warning("roll_key_unreadable", error=str(error))
                continue
            # Measured from when the read began: never later than Redis drops it.
            lapses = read_at + (entry.until - now_ms) / 1000
            others[jwk.kid] = _Known(jwk=jwk, public=public, lapses=lapses)
        self._others = others
        self._view_read_at = read_at
        self._rebuild_jwks()

    def _rebuild_jwks(self) -> None:
        now = time.monotonic()
        live = sorted((k for k in self._others.values() if k.lapses > now), key=_by_kid)
        self._jwks = Jwks(keys=(*self.own.jwks().keys, *(k.jwk for k in live)))
        self._jwks_lapses = min((k.lapses for k in live), default=math.inf)


def _by_kid(known: _Known) -> str:
    return known.jwk.kid
