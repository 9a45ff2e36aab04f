"""Sessions in Redis: an envelope hash, history and events kept apart, writes by Lua CAS.

Per session (every key under the hash tag ``{<id>}``, see :mod:`service.sessions.keys`):

* the **envelope** hash: ``v`` version, ``s`` the domain state, ``a`` the token hashes,
  ``t`` the TTL in ms, ``n`` the bytes of token hashes and history kept. Version and TTL
  live here, never in the domain value;
* the **history** list: what actions appended (rounds, moves), pushed by the write that
  made them and read on demand, so a write costs the same at round 100 as at round 1;
* the **events** stream, read by event-stream clients;
* the **answers** hash: the first answer to each participant's ``Idempotency-Key``, each
  participant's last ``answers_per_owner`` of them (its oldest dropped first), with a
  list of their order (:mod:`service.sessions.idempotency`).

Every write sets the TTL of all of them again; the state, its history, its events and its
answer land in one script, together or not at all. A write whose stored bytes (state,
access, history and answers, ``n`` in the envelope) would pass ``max_bytes`` is refused
whole.

With ``replicas`` (``REDIS_WAIT_REPLICAS``) a write or delete is answered only once that
many replicas hold it (``WAIT`` behind its script, on its connection); fewer in time
raise :class:`~service.http.contract.errors.UnreplicatedError` (a 503), the write staying made. A
replayed answer is confirmed the same way (:meth:`SessionStore.confirm`) before it is
given: its write may be one that was answered 503 for want of a replica.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import msgspec
from redis.exceptions import RedisError

from service.http.contract.errors import StoreError, UnreplicatedError
from service.kernel.values import Value
from service.metrics import REDIS_ERRORS, SESSION_COPIES, WRITES_UNREPLICATED
from service.sessions.access import Access
from service.sessions.idempotency import ANSWERS_TO_DROP

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from service.kernel.events import Event
    from service.sessions.client import RedisClient, ReplicaWait
    from service.sessions.keys import SessionKind

__all__ = [
    "EVENTS_MAXLEN",
    "Committed",
    "Full",
    "Kept",
    "Replayed",
    "SessionStore",
    "Stale",
    "Stored",
    "WriteResult",
]

S = TypeVar("S", bound=Value)

EVENTS_MAXLEN = 1000
CLOSED_EVENTS_TTL_MS = 300_000  # stream clients still see the closing event for five minutes

# KEYS: 1 envelope, 2 events, 3 history, 4 the pending marker of the idempotency key (the
# envelope key when unused), 5 the answers hash, 6 their order.
# ARGV: 1 expected version ("0": must not exist), 2 state, 3 access (given at creation
# only, with the TTL; "" afterwards), 4 ttl ms, 5 max bytes, 6 events maxlen, 7 the answer
# to keep under the idempotency key ("" none), 8 event count n, 9 history count m,
# 10 the key's field, 11 its owner's tag, 12 answers kept per owner, then n type/data
# pairs, then m history entries.
# An idempotency key that already holds an answer ("D…") wins over everything: a retry of
# a write whose reply was lost must not apply it again. The answer kept counts in the
# session's bytes, and drops its owner's oldest past the limit.
_WRITE = (
    ANSWERS_TO_DROP
    + """
if ARGV[7] ~= '' then
  local held = redis.call('HGET', KEYS[5], ARGV[10])
  if held then return {'replay', held} end
end
local now = redis.call('HMGET', KEYS[1], 'v', 'n')
local current = now[1]
if ARGV[1] == '0' then
  if current then return {'stale', '', '', '', '', '', ''} end
elseif current ~= ARGV[1] then
  local held = redis.call('HMGET', KEYS[1], 'v', 's', 'a', 't', 'n')
  return {'stale', held[1] or '', held[2] or '', held[3] or '', held[4] or '', held[5] or '',
          tostring(redis.call('PTTL', KEYS[1]))}
end
local n, m = tonumber(ARGV[8]), tonumber(ARGV[9])
local kept = tonumber(now[2] or '0') + string.len(ARGV[3])
for i = 1, m do kept = kept + string.len(ARGV[12 + 2 * n + i]) end
local count, drop = 0, {}
if ARGV[7] ~= '' then
  local freed
  count, drop, freed = answers_to_drop(KEYS[5], KEYS[6], ARGV[11], tonumber(ARGV[12]))
  kept = kept + string.len(ARGV[7]) - freed
end
if kept + string.len(ARGV[2]) > tonumber(ARGV[5]) then
  return {'full', tostring(kept + string.len(ARGV[2]))}
end
local ttl = tonumber(ARGV[4])
if ARGV[3] ~= '' then
  redis.call('HSET', KEYS[1], 'v', 1, 's', ARGV[2], 'n', kept, 'a', ARGV[3], 't', ttl)
else
  redis.call('HSET', KEYS[1], 'v', tonumber(current) + 1, 's', ARGV[2], 'n', kept)
end
redis.call('PEXPIRE', KEYS[1], ttl)
for i = 0, n - 1 do
  redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[6], '*',
             'type', ARGV[13 + 2 * i], 'data', ARGV[14 + 2 * i])
end
redis.call('PEXPIRE', KEYS[2], ttl)
for i = 1, m do redis.call('RPUSH', KEYS[3], ARGV[12 + 2 * n + i]) end
redis.call('PEXPIRE', KEYS[3], ttl)
if ARGV[7] ~= '' then
  keep_answer(KEYS[5], KEYS[6], ARGV[11], ARGV[10], ARGV[7], count, drop, ttl)
  redis.call('DEL', KEYS[4])
else
  redis.call('PEXPIRE', KEYS[5], ttl)
  redis.call('PEXPIRE', KEYS[6], ttl)
end
return {'ok'}
"""
)

# KEYS: envelope, history. ARGV: the version of the reader's copy ("" none), "1" to include
# the history. Returns 1 when the copy is current (nothing else crosses the wire), 0 when
# the session is gone, else {version, state, access, ttl, pttl, history…}.
_READ = """
local now = redis.call('HMGET', KEYS[1], 'v', 's', 'a', 't')
if not now[2] or not now[3] then return 0 end
if now[1] == ARGV[1] then return 1 end
local answer = {now[1], now[2], now[3], now[4] or '', tostring(redis.call('PTTL', KEYS[1]))}
if ARGV[2] == '1' then
  for _, entry in ipairs(redis.call('LRANGE', KEYS[2], 0, -1)) do table.insert(answer, entry) end
end
return answer
"""

# KEYS: envelope, events, history, answers, their order. ARGV: closing event type, data,
# ttl ms of what stays. The access hashes stay as long as the stream, so stream readers
# can still authenticate and see the end.
_DELETE = """
if redis.call('HDEL', KEYS[1], 's', 'v', 't', 'n') == 0 then return 0 end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('DEL', KEYS[3], KEYS[4], KEYS[5])
redis.call('XADD', KEYS[2], 'MAXLEN', '~', '1000', '*', 'type', ARGV[1], 'data', ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return 1
"""

# KEYS: the answers hash. A write that changes nothing (its expiry set again as it is) but
# is replicated: the WAIT behind it then covers every write before it, the one whose
# answer is replayed included, whichever connection made that one.
_TOUCH = """
local ttl = redis.call('PTTL', KEYS[1])
if ttl > 0 then redis.call('PEXPIRE', KEYS[1], ttl) end
return ttl
"""


@dataclass(frozen=True, slots=True)
class Stored(Generic[S]):
    """A session as read: its envelope, and its history when it was asked for."""

    version: int
    state: S
    access: Access
    ttl_ms: int
    expires_at: float  # epoch seconds
    history: tuple[Any, ...] | None = None
    # Bytes as stored, for the bound on what a worker remembers.
    state_bytes: int = 0
    access_bytes: int = 0
    history_bytes: int = 0
    # Answers already encoded from this very copy (see SessionStore.rendered); never
    # carried over to a newer copy, so a changed session is always encoded anew.
    rendered: dict[str, bytes] = field(default_factory=dict, init=False, compare=False)

    @property
    def size(self) -> int:
        """Bytes of state, access, (when read) history and answers rendered from it."""
        return (
            self.state_bytes
            + self.access_bytes
            + self.history_bytes
            + sum(len(body) for body in self.rendered.values())
        )


@dataclass(frozen=True, slots=True)
class Kept:
    """An answer a write keeps under a participant's ``Idempotency-Key``: ``field`` and
    ``owner`` as :class:`~service.sessions.idempotency.Claim` names them."""

    field: str
    owner: str
    answer: bytes


@dataclass(frozen=True, slots=True)
class Committed:
    """The write landed as ``version``."""

    version: int


@dataclass(frozen=True, slots=True)
class Stale(Generic[S]):
    """Another writer got there first: what is stored now (None: the session is gone)."""

    current: Stored[S] | None


@dataclass(frozen=True, slots=True)
class Replayed:
    """The idempotency key already held an answer: nothing was written."""

    record: bytes


@dataclass(frozen=True, slots=True)
class Full:
    """The session would pass its ceiling of stored bytes: nothing was written."""

    total: int


WriteResult = Committed | Stale[S] | Replayed | Full


class SessionStore(Generic[S]):
    """Reads and atomic writes of one kind of session; one per process and kind.

    It remembers the sessions this process last read or wrote, up to ``recent_count``
    sessions and ``recent_bytes`` bytes. A read then moves only the version while the copy
    is current. A write may start from the copy (one Redis round trip) while copies have
    lately been current (:meth:`copy_for_write`); a stale copy costs a retry, never an
    update: the compare-and-set refuses it and answers with the stored state.
    """

    def __init__(
        self,
        client: RedisClient,
        kind: SessionKind,
        state_type: type[S],
        history_type: Any,
        *,
        max_bytes: int,
        recent_count: int = 0,
        recent_bytes: int = 0,
        answers_per_owner: int = 16,
        replicas: ReplicaWait | None = None,
    ) -> None:
        """``replicas``: how many replicas must hold each write before it is answered."""
        self.kind = kind
        self._replicas = replicas
        self.max_bytes = max_bytes
        self.answers_per_owner = answers_per_owner
        self._client = client
        self._recent: OrderedDict[str, Stored[S]] = OrderedDict()
        self._recent_count = recent_count
        self._recent_bytes = recent_bytes
        self._recent_size = 0
        self._copies_current = 1.0  # moving share of copies found current; starts trusting
        self._copies_found = {
            found: SESSION_COPIES.labels(kind.kind, "current" if found else "stale")
            for found in (True, False)
        }
        # Counted here and added to the metric within a second: an increment of a
        # multi-process counter is a locked write to a memory-mapped file (~9 kIr), on
        # every read and write that uses a copy.
        self._found_counts = {True: 0, False: 0}
        self._found_flush: asyncio.TimerHandle | None = None
        # Run by EVALSHA (service.sessions.client's lean path, or redis-py's on a cluster),
        # loaded again on NOSCRIPT (e.g. after a restart).
        self._write = client.register_script(_WRITE)
        self._read = client.register_script(_READ)
        self._delete = client.register_script(_DELETE)
        self._touch = client.register_script(_TOUCH)
        self.encode = msgspec.msgpack.Encoder().encode
        self._decode_state = msgspec.msgpack.Decoder(state_type).decode
        self._decode_access = msgspec.msgpack.Decoder(Access).decode
        self._decode_history = msgspec.msgpack.Decoder(history_type).decode

    @property
    def write_sha(self) -> str:
        """The SHA1 of the write script, as Redis knows it (for fault tests)."""
        return str(self._write.sha)

    async def load(self, session_id: str, *, history: bool = False) -> Stored[S] | None:
        """The session as stored, or None when unknown or expired.

        ``history``: also read what the session appended to its record. While this process
        holds a current copy (with its history, if asked for), only the version crosses
        the wire.
        """
        held = self._recent.get(session_id)
        usable = held is not None and (held.history is not None or not history)
        args = [str(held.version) if usable and held is not None else "", "1" if history else ""]
        state_key = self.kind.state(session_id)
        try:  # inline, not through _call: one coroutine fewer on the hottest path
            answer = await self._read(keys=[state_key, f"{state_key}:history"], args=args)
        except RedisError as error:
            raise _failed(error) from error
        if usable:
            self._learn(copy_was_current=answer == 1)
        if answer == 1 and held is not None:
            # Another coroutine may have evicted or forgotten it while this one waited.
            self._remember(session_id, held)
            return held
        if answer == 0:
            self._forget(session_id)
            return None
        version, state, access, ttl, pttl, *entries = cast("list[bytes]", answer)
        stored = self._stored(version, state, access, ttl, pttl, entries if history else None)
        self._remember(session_id, stored)
        return stored

    def recent(self, session_id: str) -> Stored[S] | None:
        """The session as this process last saw it, possibly since changed elsewhere."""
        return self._recent.get(session_id)

    def copy_for_write(self, session_id: str) -> Stored[S] | None:
        """The copy to start a write from without reading, while copies tend to be current."""
        return self._recent.get(session_id) if self._copies_current >= 0.5 else None

    def rendered(
        self, session_id: str, stored: Stored[S], key: str, render: Callable[[], bytes]
    ) -> bytes:
        """``render()``: an answer made only from ``stored`` (``key`` names which), kept
        with it while it is this process's copy, so reads of an unchanged session encode
        it once. Counted in the bytes remembered; not kept past their bound."""
        body = stored.rendered.get(key)
        if body is None:
            body = render()
            if (
                self._recent.get(session_id) is stored
                and self._recent_size + len(body) <= self._recent_bytes
            ):
                stored.rendered[key] = body
                self._recent_size += len(body)
        return body

    @property
    def copies_current(self) -> float:
        """The recent share of remembered copies that were current when used (0…1)."""
        return self._copies_current

    @property
    def remembered_bytes(self) -> int:
        """Bytes of the sessions this process remembers (bounded by ``recent_bytes``)."""
        return self._recent_size

    async def write(
        self,
        session_id: str,
        state: S,
        *,
        expected_version: int,
        ttl_ms: int,
        events: Sequence[Event] = (),
        history: Sequence[Value] = (),
        access: Access | None = None,
        idempotency: Kept | None = None,
        from_copy: bool = False,
    ) -> WriteResult[S]:
        """Store ``state`` as version ``expected_version + 1`` if ``expected_version`` is still
        the stored one (0: the session must not exist yet).

        ``access``: the token hashes, given at creation (they never change).
        ``idempotency``: the participant's key, and the answer to keep under it.
        ``from_copy``: ``expected_version`` is a remembered copy's, not a fresh read's.
        """
        encoded_state = self.encode(state)
        encoded_access = self.encode(access) if access is not None else b""
        entries = [self.encode(entry) for entry in history]
        args: list[Any] = [
            expected_version,
            encoded_state,
            encoded_access,
            ttl_ms,
            self.max_bytes,
            EVENTS_MAXLEN,
            idempotency.answer if idempotency else b"",
            len(events),
            len(entries),
            idempotency.field if idempotency else "",
            idempotency.owner if idempotency else "",
            self.answers_per_owner,
        ]
        for event in events:
            args += [event.type, self.encode(event.data)]
        args += entries
        keys = self.kind.write_keys(session_id, idempotency.field if idempotency else None)
        try:
            if self._replicas is None:
                answer = cast("list[bytes]", await self._write(keys=keys, args=args))
            else:
                answer, acked = await self._replicas.call(self._write, keys, args)
                if answer[0] == b"ok" and acked < self._replicas.replicas:
                    self._forget(session_id)  # this process's copy is a version behind
                    raise _unreplicated(acked, self._replicas.replicas)
        except RedisError as error:
            raise _failed(error) from error
        outcome = answer[0]
        if from_copy:
            self._learn(copy_was_current=outcome == b"ok")
        if outcome == b"ok":
            copy = self._recent.get(session_id)
            # The copy is brought forward only if it is the state this write replaced: one
            # that a concurrent read (or write) in this process already moved on would get
            # this write's history twice, or go back in time.
            if copy is not None and copy.version != expected_version:
                self._forget(session_id)
            elif access is not None or copy is not None:
                self._remember(
                    session_id,
                    _written(
                        copy,
                        state,
                        access,
                        expected_version + 1,
                        ttl_ms,
                        history,
                        state_bytes=len(encoded_state),
                        access_bytes=len(encoded_access),
                        history_bytes=sum(len(entry) for entry in entries),
                    ),
                )
            return Committed(version=expected_version + 1)
        if outcome == b"replay":
            return Replayed(record=answer[1])
        if outcome == b"full":
            return Full(total=int(answer[1]))
        version, state_bytes, access_bytes, ttl, _, pttl = answer[1:7]
        if not state_bytes or not access_bytes:
            self._forget(session_id)
            return Stale(current=None)
        current = self._stored(version, state_bytes, access_bytes, ttl, pttl, None)
        self._remember(session_id, current)
        return Stale(current=current)

    async def history(self, session_id: str) -> tuple[Any, ...]:
        """Everything the session appended to its record, in order."""
        entries = await self._call(self._client.lrange(self.kind.history(session_id), 0, -1))
        return tuple(self._decode_history(entry) for entry in cast("list[bytes]", entries))

    async def delete(self, session_id: str, closing: Event) -> bool:
        """Remove the session; its stream keeps ``closing`` as its last event for a while."""
        self._forget(session_id)
        keys = [
            self.kind.state(session_id),
            self.kind.events(session_id),
            self.kind.history(session_id),
            self.kind.answers(session_id),
            self.kind.answer_order(session_id),
        ]
        args: list[Any] = [closing.type, self.encode(closing.data), CLOSED_EVENTS_TTL_MS]
        if self._replicas is None:
            return bool(await self._call(self._delete(keys=keys, args=args)))
        deleted, acked = await self._call(self._replicas.call(self._delete, keys, args))
        if deleted and acked < self._replicas.replicas:
            raise _unreplicated(acked, self._replicas.replicas)
        return bool(deleted)

    async def confirm(self, session_id: str) -> None:
        """Return once the replicas (``REDIS_WAIT_REPLICAS``) hold everything written to
        the session so far, before a replayed answer is given (at once without them).

        Raises:
            UnreplicatedError: fewer of them did within the timeout.
        """
        if self._replicas is None:
            return
        keys = [self.kind.answers(session_id)]
        _, acked = await self._call(self._replicas.call(self._touch, keys, ()))
        if acked < self._replicas.replicas:
            raise _unreplicated(acked, self._replicas.replicas)

    async def load_access(self, session_id: str) -> Access | None:
        """Who may read the session's events; kept a while after the session is deleted."""
        access = await self._call(self._client.hget(self.kind.state(session_id), "a"))
        return self._decode_access(cast("bytes", access)) if access is not None else None

    async def _call(self, pending: Any) -> Any:
        try:
            return await pending
        except RedisError as error:
            raise _failed(error) from error

    def _stored(
        self,
        version: bytes,
        state: bytes,
        access: bytes,
        ttl: bytes,
        pttl: bytes,
        entries: list[bytes] | None,
    ) -> Stored[S]:
        ttl_ms = int(ttl) if ttl else 0
        return Stored(
            version=int(version),
            state=self._decode_state(state),
            access=self._decode_access(access),
            ttl_ms=ttl_ms,
            expires_at=time.time() + max(0, int(pttl)) / 1000,
            history=(
                tuple(self._decode_history(entry) for entry in entries)
                if entries is not None
                else None
            ),
            state_bytes=len(state),
            access_bytes=len(access),
            history_bytes=sum(len(entry) for entry in entries or ()),
        )

    def _learn(self, *, copy_was_current: bool) -> None:
        self._copies_current += (float(copy_was_current) - self._copies_current) / 16
        self._found_counts[copy_was_current] += 1
        if self._found_flush is None:
            self._found_flush = asyncio.get_running_loop().call_later(1.0, self.flush_counts)

    def flush_counts(self) -> None:
        """Add the copies counted since the last flush to their metric."""
        self._found_flush = None
        for found, count in self._found_counts.items():
            if count:
                self._copies_found[found].inc(count)
                self._found_counts[found] = 0

    def _remember(self, session_id: str, stored: Stored[S]) -> None:
        if not self._recent_count or stored.size > self._recent_bytes:
            self._forget(session_id)
            return
        self._forget(session_id)
        self._recent[session_id] = stored
        self._recent_size += stored.size
        while len(self._recent) > self._recent_count or self._recent_size > self._recent_bytes:
            _, evicted = self._recent.popitem(last=False)
            self._recent_size -= evicted.size

    def _forget(self, session_id: str) -> None:
        gone = self._recent.pop(session_id, None)
        if gone is not None:
            self._recent_size -= gone.size


def _unreplicated(acked: int, wanted: int) -> UnreplicatedError:
    """Counted, and said as a 503 whose write was made (see the problem's detail)."""
    WRITES_UNREPLICATED.inc()
    return UnreplicatedError(acked, wanted)


def _failed(error: RedisError) -> StoreError:
    """Counted, and said as the store being unavailable (503)."""
    REDIS_ERRORS.inc()
    return StoreError(str(error))


def _written(
    copy: Stored[S] | None,
    state: S,
    access: Access | None,
    version: int,
    ttl_ms: int,
    history: Sequence[Value],
    *,
    state_bytes: int,
    access_bytes: int,
    history_bytes: int,
) -> Stored[S]:
    """What this process knows of a session it has just written: a new one's history is
    what it appended; otherwise the history is known only as far as the copy knew it."""
    expires_at = time.time() + ttl_ms / 1000
    if access is not None:
        return Stored(
            version,
            state,
            access,
            ttl_ms,
            expires_at,
            tuple(history),
            state_bytes=state_bytes,
            access_bytes=access_bytes,
            history_bytes=history_bytes,
        )
    assert copy is not None
    known = copy.history is not None
    return Stored(
        version,
        state,
        copy.access,
        ttl_ms,
        expires_at,
        (*copy.history, *history) if copy.history is not None else None,
        state_bytes=state_bytes,
        access_bytes=copy.access_bytes,
        history_bytes=copy.history_bytes + (history_bytes if known else 0),
    )
