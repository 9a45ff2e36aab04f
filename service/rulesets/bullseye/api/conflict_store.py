"""Conflict state in Redis: one hash per conflict, compare-and-set by Lua, events in a Stream.

Every key of one conflict shares the hash tag ``{<id>}``, so each script touches one slot
and the design runs unchanged on Redis Cluster. Every write sets the TTL again; the state
write, its events and its idempotency record happen in one script, so they land together
or not at all.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, cast

import msgspec
from redis.exceptions import RedisError

from service.http.problems import StoreError
from service.kernel.values import Value
from service.metrics import CONFLICT_COPIES, REDIS_ERRORS
from service.rulesets.bullseye.rules.conflicts import Conflict, Event

if TYPE_CHECKING:
    from service.sessions.client import RedisClient

__all__ = [
    "Access",
    "ConflictStore",
    "IdempotencyRecord",
    "Loaded",
    "NotWritten",
]

_PREFIX = "bullseye:conflict:"
EVENTS_MAXLEN = 1000
CLOSED_EVENTS_TTL_MS = 300_000  # SSE clients still see conflict.closed for five minutes
PENDING_TTL_MS = 30_000  # an in-flight idempotent request holds its key this long at most

# KEYS: state, events, idempotency. ARGV: expected version ("0": must not exist), new
# version, state, access ("" keeps it), ttl ms, event count, then type/data pairs, then the
# idempotency record ("" for none). Returns 1 when written; otherwise what is stored now,
# {state, access} ('' when gone), so that a writer that was behind retries without a read.
_CAS = """
local current = redis.call('HGET', KEYS[1], 'v')
if ARGV[1] == '0' then
  if current then return {'', ''} end
elseif current ~= ARGV[1] then
  local now = redis.call('HMGET', KEYS[1], 's', 'a')
  return {now[1] or '', now[2] or ''}
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 's', ARGV[3])
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'a', ARGV[4]) end
local ttl = tonumber(ARGV[5])
redis.call('PEXPIRE', KEYS[1], ttl)
local n = tonumber(ARGV[6])
for i = 0, n - 1 do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[8 + 2 * n], '*',
             'type', ARGV[7 + 2 * i], 'data', ARGV[8 + 2 * i])
end
if n > 0 or redis.call('EXISTS', KEYS[2]) == 1 then redis.call('PEXPIRE', KEYS[2], ttl) end
local record = ARGV[7 + 2 * n]
if record ~= '' then redis.call('SET', KEYS[3], record, 'PX', ttl) end
return 1
"""

# KEYS: state. ARGV: the version of the reader's copy. Returns 1 when the copy is current
# (then nothing else crosses the wire), 0 when the conflict is gone, else {state, access}.
_READ_IF_CHANGED = """
local now = redis.call('HMGET', KEYS[1], 'v', 's', 'a')
if not now[2] or not now[3] then return 0 end
if now[1] == ARGV[1] then return 1 end
return {now[2], now[3]}
"""

# KEYS: state, events. ARGV: event data, ttl ms of what stays. The access hashes stay as
# long as the stream, so event-stream readers can still authenticate and see the end.
_DELETE = """
if redis.call('HDEL', KEYS[1], 's', 'v') == 0 then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', '1000', '*', 'type', 'conflict.closed', 'data', ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
"""


class Access(Value, frozen=True, kw_only=True):
    """SHA-256 hashes of a conflict's tokens; the tokens themselves are never stored."""

    gm: str
    players: dict[str, str]


class Loaded(Value, frozen=True, kw_only=True):
    """A conflict as read, with who may act on it."""

    conflict: Conflict
    access: Access


class IdempotencyRecord(Value, frozen=True, kw_only=True):
    """The first response to an idempotent request (or that it is still in flight)."""

    body_hash: str
    pending: bool = False
    status: int = 0
    body: bytes = b""
    headers: dict[str, str] = {}


def _tag(conflict_id: str) -> str:
    return f"{_PREFIX}{{{conflict_id}}}"


def token_hash(token: str) -> str:
    """What is stored of a token."""
    return hashlib.sha256(token.encode()).hexdigest()


class NotWritten(Value, frozen=True, kw_only=True):
    """A compare-and-set that did not land: what is stored now (None: the conflict is gone)."""

    current: Loaded | None


class ConflictStore:
    """Reads and atomic writes of conflicts; one per process, over the process's client.

    It remembers the conflicts this process last read or wrote (``recent``). A read then
    moves only the version while the copy is current. A write can go straight to the
    compare-and-set from the copy (one Redis round trip) as long as copies have lately
    been current (``copy_for_write``): with requests for a conflict spread over many
    workers they mostly are not, and a write that starts from a stale copy costs a
    wasted attempt. Either way a stale copy never costs an update: the compare-and-set
    refuses it and answers with the stored state.
    """

    def __init__(self, client: RedisClient, recent_size: int = 0) -> None:
        self._client = client
        self._recent: OrderedDict[str, Loaded] = OrderedDict()
        self._recent_size = recent_size
        # Moving share of remembered copies found current when put to use; starts trusting.
        self._copies_current = 1.0
        self._copies_found = {
            found: CONFLICT_COPIES.labels("current" if found else "stale")
            for found in (True, False)
        }
        # redis-py runs these by EVALSHA and reloads them on NOSCRIPT (e.g. after a restart).
        self._cas = client.register_script(_CAS)
        self._read_if_changed = client.register_script(_READ_IF_CHANGED)
        self._delete = client.register_script(_DELETE)
        self._encode = msgspec.msgpack.Encoder().encode
        self._decode_conflict = msgspec.msgpack.Decoder(Conflict).decode
        self._decode_access = msgspec.msgpack.Decoder(Access).decode
        self._decode_record = msgspec.msgpack.Decoder(IdempotencyRecord).decode

    @staticmethod
    def state_key(conflict_id: str) -> str:
        """The hash holding version, state and access."""
        return _tag(conflict_id)

    @staticmethod
    def events_key(conflict_id: str) -> str:
        """The stream of the conflict's events."""
        return f"{_tag(conflict_id)}:events"

    @staticmethod
    def idempotency_key(conflict_id: str, key: str) -> str:
        """Where the first response to ``Idempotency-Key: key`` is kept."""
        return f"{_tag(conflict_id)}:idem:{hashlib.sha256(key.encode()).hexdigest()}"

    async def load(self, conflict_id: str) -> Loaded | None:
        """The conflict as stored and its access hashes, or None when unknown or expired.

        When this process remembers the conflict, only the version crosses the wire if the
        copy is current (a client polling an idle conflict costs no decoding).
        """
        state: bytes | None
        access: bytes | None
        held = self._recent.get(conflict_id)
        try:
            if held is None:
                state, access = cast(
                    "list[bytes | None]",
                    await self._client.hmget(self.state_key(conflict_id), ["s", "a"]),
                )
            else:
                answer = await self._read_if_changed(
                    keys=[self.state_key(conflict_id)], args=[held.conflict.version]
                )
                self._learn(copy_was_current=answer == 1)
                if answer == 1:
                    self._recent.move_to_end(conflict_id)
                    return held
                state, access = cast("list[bytes]", answer) if answer != 0 else (None, None)
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        if state is None or access is None:
            self._recent.pop(conflict_id, None)
            return None
        loaded = self._loaded(state, access)
        self._remember(loaded)
        return loaded

    def recent(self, conflict_id: str) -> Loaded | None:
        """The conflict as this process last saw it, possibly since changed elsewhere."""
        return self._recent.get(conflict_id)

    def copy_for_write(self, conflict_id: str) -> Loaded | None:
        """The copy to start a write from without reading, while copies tend to be current."""
        return self._recent.get(conflict_id) if self._copies_current >= 0.5 else None

    @property
    def copies_current(self) -> float:
        """The recent share of remembered copies that were current when used (0…1)."""
        return self._copies_current

    def _learn(self, *, copy_was_current: bool) -> None:
        self._copies_current += (float(copy_was_current) - self._copies_current) / 16
        self._copies_found[copy_was_current].inc()

    def _remember(self, loaded: Loaded) -> None:
        if self._recent_size:
            self._recent[loaded.conflict.id] = loaded
            self._recent.move_to_end(loaded.conflict.id)
            if len(self._recent) > self._recent_size:
                self._recent.popitem(last=False)

    def _loaded(self, state: bytes, access: bytes) -> Loaded:
        return Loaded(conflict=self._decode_conflict(state), access=self._decode_access(access))

    async def load_access(self, conflict_id: str) -> Access | None:
        """Who may read the conflict's events; kept a while after the conflict is deleted."""
        try:
            access = cast("bytes | None", await self._client.hget(self.state_key(conflict_id), "a"))
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return self._decode_access(access) if access is not None else None

    async def write(
        self,
        conflict: Conflict,
        *,
        expected_version: int,
        events: list[Event],
        ttl_ms: int,
        access: Access | None = None,
        idempotency: tuple[str, IdempotencyRecord] | None = None,
        from_copy: bool = False,
    ) -> NotWritten | None:
        """Store ``conflict`` if the stored version is still ``expected_version`` (0: new).

        ``access``: the token hashes, given when the conflict is created (they never
        change). ``idempotency``: the client's Idempotency-Key and the response to keep.
        ``from_copy``: ``expected_version`` is a remembered copy's, not a fresh read's.

        Returns None when written; otherwise what another writer left (or that it is gone).
        """
        conflict_id = conflict.id
        state_key = self.state_key(conflict_id)
        # Every key is under the conflict's hash tag (one slot per script); without an
        # idempotency record the third key is unused, and the state key stands in for it.
        key, record = idempotency if idempotency else ("", None)
        idem_key = self.idempotency_key(conflict_id, key) if record is not None else state_key
        args: list[Any] = [
            expected_version,
            conflict.version,
            self._encode(conflict),
            self._encode(access) if access is not None else b"",
            ttl_ms,
            len(events),
        ]
        for event in events:
            args += [event.type, self._encode(event.data)]
        args += [self._encode(record) if record is not None else b"", EVENTS_MAXLEN]
        try:
            answer = await self._cas(
                keys=[state_key, self.events_key(conflict_id), idem_key],
                args=args,
            )
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        if from_copy:
            self._learn(copy_was_current=answer == 1)
        if answer == 1:
            copy = self._recent.get(conflict_id)
            held = access if access is not None else copy.access if copy is not None else None
            if held is not None:
                self._remember(Loaded(conflict=conflict, access=held))
            return None
        state, stored_access = cast("list[bytes]", answer)
        if not state or not stored_access:
            self._recent.pop(conflict_id, None)
            return NotWritten(current=None)
        current = self._loaded(state, stored_access)
        self._remember(current)
        return NotWritten(current=current)

    async def delete(self, conflict_id: str) -> bool:
        """Remove the conflict; its stream keeps a last ``conflict.closed`` for a while."""
        self._recent.pop(conflict_id, None)
        try:
            deleted = await self._delete(
                keys=[self.state_key(conflict_id), self.events_key(conflict_id)],
                args=[self._encode({}), CLOSED_EVENTS_TTL_MS],
            )
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return bool(deleted)

    async def claim_idempotency(
        self, conflict_id: str, key: str, body_hash: str
    ) -> IdempotencyRecord | None:
        """Mark ``key`` in flight; or return what it already holds (first response or pending)."""
        redis_key = self.idempotency_key(conflict_id, key)
        marker = self._encode(IdempotencyRecord(body_hash=body_hash, pending=True))
        try:
            if await self._client.set(redis_key, marker, nx=True, px=PENDING_TTL_MS):
                return None
            held = cast("bytes | None", await self._client.get(redis_key))
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return self._decode_record(held) if held is not None else None

    async def finish_idempotency(
        self, conflict_id: str, key: str, record: IdempotencyRecord | None, ttl_ms: int
    ) -> None:
        """Keep a response that was not written with the state (a refusal), or release."""
        redis_key = self.idempotency_key(conflict_id, key)
        try:
            if record is None:
                await self._client.delete(redis_key)
            else:
                await self._client.set(redis_key, self._encode(record), px=ttl_ms)
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error

    async def read_events(
        self, conflict_id: str, after: str, block_ms: int
    ) -> list[tuple[str, str, bytes]]:
        """Events after stream id ``after`` ("0": from the start), waiting up to ``block_ms``."""
        try:
            answer = cast(
                "list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]",
                await self._client.xread(
                    {self.events_key(conflict_id): after}, count=100, block=block_ms
                ),
            )
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        events = []
        for _stream, entries in answer or ():
            for entry_id, fields in entries:
                events.append((_text(entry_id), _text(fields[b"type"]), bytes(fields[b"data"])))
        return events

    def decode_event_data(self, data: bytes) -> Any:
        """An event's data as stored."""
        return msgspec.msgpack.decode(data)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
