"""``Idempotency-Key``: one request, applied at most once, its first answer replayed.

A key belongs to its session (it is stored under the session's hash tag) and to the
participant who sends it (the role its token opens): the same key from another participant
is another request. It is bound to the method and path, and to the body. The caller is
authorized before anything stored is replayed.

While the first request runs, a *pending* marker (``P…``, its own key with a short lease)
says so: a retry meanwhile is told 409. The write script stores the *answer* (``D…``) in
the session's answers hash in the same step as the state, and refuses to apply anything
under a key that already holds an answer. So a write whose reply was lost (a timeout, a
dropped connection) is never applied twice: its retry finds the answer. A request that
failed without writing takes its own marker back (only its own: compared in the script);
if Redis could not be told, the marker's lease is short (three socket timeouts), so a
retry after Redis comes back is not locked out for long. The marker is a courtesy, never
the guarantee: two runs of the same request are safe, since the second write finds the
first one's answer.

Answers are counted in the session's stored bytes (``SESSION_MAX_BYTES``), and each
participant keeps its last ``IDEMPOTENCY_KEYS_KEPT`` of them, its oldest dropped first:
no participant can grow Redis, or crowd out another's answers, by sending keys. A refusal
is kept the same way when it fits; when it does not, it is answered and not kept.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, cast

import msgspec
from litestar.response import Response
from redis.exceptions import RedisError

from service.http.contract.context import new_id
from service.http.contract.errors import (
    Forbidden,
    IdempotencyKeyReused,
    RequestInFlight,
    StoreError,
)
from service.kernel.values import Value
from service.metrics import REDIS_ERRORS
from service.sessions.keys import idempotency_field, owner_tag

if TYPE_CHECKING:
    from service.sessions.client import RedisClient
    from service.sessions.keys import SessionKind

__all__ = [
    "ANSWERED",
    "ANSWERS_TO_DROP",
    "PENDING",
    "REPLAYED_HEADER",
    "Claim",
    "Idempotency",
    "IdempotencyRecord",
]

# On an answer replayed for a retried key (as Stripe's API says it): the change was not
# applied again.
REPLAYED_HEADER = "Idempotent-Replayed"
PENDING = b"P"
ANSWERED = b"D"

# KEYS: the pending marker, the answers hash, the key as a release before 2026-12 kept it.
# ARGV: marker, lease ms, the key's field. 1 when claimed, else the answer or marker held.
_CLAIM = """
local held = redis.call('HGET', KEYS[2], ARGV[3])
if held then return held end
local legacy = redis.call('GET', KEYS[3])
if legacy and string.byte(legacy, 1) == 68 then return legacy end
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return redis.call('GET', KEYS[1]) or 1
"""

# KEYS: the pending marker. ARGV: the marker this request set. Deletes it only if it is
# still that marker: a retry's marker (after this one's lease ran out) stays.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""

# Lua shared by the write and keep scripts: which of a participant's kept answers one more
# would drop (its oldest, past ``limit``), and the bytes they free.
# KEYS[a] the answers hash, KEYS[o] the order list; returns count after, drop list, freed.
ANSWERS_TO_DROP = """
local function answers_to_drop(answers, order, tag, limit)
  local count = tonumber(redis.call('HGET', answers, '#' .. tag) or '0') + 1
  local drop, freed = {}, 0
  if count > limit then
    local prefix = tag .. ':'
    for _, entry in ipairs(redis.call('LRANGE', order, 0, -1)) do
      if count - #drop <= limit then break end
      if string.sub(entry, 1, #prefix) == prefix then
        table.insert(drop, entry)
        freed = freed + redis.call('HSTRLEN', answers, string.sub(entry, #prefix + 1))
      end
    end
  end
  return count - #drop, drop, freed
end
local function keep_answer(answers, order, tag, field, answer, count, drop, ttl)
  redis.call('HSET', answers, field, answer, '#' .. tag, count)
  redis.call('RPUSH', order, tag .. ':' .. field)
  for _, entry in ipairs(drop) do
    redis.call('LREM', order, 1, entry)
    redis.call('HDEL', answers, string.sub(entry, #tag + 2))
  end
  redis.call('PEXPIRE', answers, ttl)
  redis.call('PEXPIRE', order, ttl)
end
"""

# KEYS: the pending marker, the answers hash, the order list, the envelope. ARGV: this
# request's marker, its answer, the key's field, the owner tag, answers kept per owner,
# the session's byte ceiling. Keeps the answer unless another run's answer or marker
# holds the key (then returns it: never overwritten by this one's), or the session is
# gone, or it would pass the ceiling (then 1, not kept).
_KEEP = (
    ANSWERS_TO_DROP
    + """
local held = redis.call('HGET', KEYS[2], ARGV[3])
if held then return held end
local marker = redis.call('GET', KEYS[1])
if marker and marker ~= ARGV[1] then return marker end
redis.call('DEL', KEYS[1])
local envelope = redis.call('HMGET', KEYS[4], 'v', 'n')
if not envelope[1] then return 1 end
local count, drop, freed = answers_to_drop(KEYS[2], KEYS[3], ARGV[4], tonumber(ARGV[5]))
local kept = tonumber(envelope[2] or '0') + string.len(ARGV[2]) - freed
if kept + redis.call('HSTRLEN', KEYS[4], 's') > tonumber(ARGV[6]) then return 1 end
redis.call('HSET', KEYS[4], 'n', kept)
keep_answer(KEYS[2], KEYS[3], ARGV[4], ARGV[3], ARGV[2], count, drop,
            redis.call('PTTL', KEYS[4]))
return 1
"""
)


class IdempotencyRecord(Value, frozen=True, kw_only=True):
    """Who sent a key with what, and (once answered) the answer."""

    principal: str
    method: str
    path: str
    body_hash: str
    owner: str = ""  # the request that holds a pending marker
    status: int = 0
    body: bytes = b""
    headers: dict[str, str] = {}


class Claim(Value, frozen=True, kw_only=True):
    """A key this request holds while it runs: ``field`` where the participant's key is
    kept, ``owner`` the participant's tag (:mod:`service.sessions.keys`)."""

    key: str
    field: str
    owner: str
    request: IdempotencyRecord
    marker: bytes


_encode = msgspec.msgpack.Encoder().encode
_decode = msgspec.msgpack.Decoder(IdempotencyRecord).decode


def _record(held: bytes) -> IdempotencyRecord:
    return _decode(held[1:])


def answer_bytes(
    request: IdempotencyRecord, status: int, body: bytes, headers: dict[str, str]
) -> bytes:
    """What the key keeps once answered."""
    answered = msgspec.structs.replace(request, owner="", status=status, body=body, headers=headers)
    return ANSWERED + _encode(answered)


class Idempotency:
    """Claims, releases and replays of one kind of session's keys."""

    def __init__(
        self,
        client: RedisClient,
        kind: SessionKind,
        *,
        lease_ms: int,
        kept_per_owner: int,
        max_bytes: int,
    ) -> None:
        self._client = client
        self._kind = kind
        self._lease_ms = lease_ms
        self._kept_per_owner = kept_per_owner
        self._max_bytes = max_bytes
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)
        self._keep = client.register_script(_KEEP)

    async def claim(
        self, session_id: str, key: str, *, principal: str, method: str, path: str, body: bytes
    ) -> Claim | Response[bytes]:
        """Hold ``key`` for this request; or the first answer to it, replayed.

        Raises:
            Forbidden: a key kept by a release before 2026-12 was first sent by another
                participant (keys are each participant's own since).
            IdempotencyKeyReused: the key came with another operation or body.
            RequestInFlight: the first request with the key is still running.
        """
        request = IdempotencyRecord(
            principal=principal,
            method=method,
            path=path,
            body_hash=hashlib.sha256(body).hexdigest(),
            owner=new_id(),
        )
        marker = PENDING + _encode(request)
        field = idempotency_field(principal, key)
        keys = [
            self._kind.pending(session_id, field),
            self._kind.answers(session_id),
            self._kind.idempotency(session_id, key),
        ]
        try:
            held = await self._claim(keys=keys, args=[marker, self._lease_ms, field])
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        if held == 1:
            return Claim(
                key=key, field=field, owner=owner_tag(principal), request=request, marker=marker
            )
        return replay(cast("bytes", held), request)

    async def release(self, session_id: str, claim: Claim) -> None:
        """Give the key back after a failure that wrote nothing (best effort: a lease
        ends it anyway)."""
        try:
            await self._release(
                keys=[self._kind.pending(session_id, claim.field)], args=[claim.marker]
            )
        except RedisError:
            REDIS_ERRORS.inc()

    async def keep(self, session_id: str, claim: Claim, answer: bytes) -> bytes | None:
        """Keep an answer that was not written with the state (a refusal), if the key is
        still this request's and it fits the session's bytes; else what the key holds now
        (another run's answer or marker, after this request's lease ran out)."""
        keys = [
            self._kind.pending(session_id, claim.field),
            self._kind.answers(session_id),
            self._kind.answer_order(session_id),
            self._kind.state(session_id),
        ]
        args: list[bytes | str | int] = [
            claim.marker,
            answer,
            claim.field,
            claim.owner,
            self._kept_per_owner,
            self._max_bytes,
        ]
        try:
            held = await self._keep(keys=keys, args=args)
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return None if held == 1 else cast("bytes", held)


def replay(held: bytes, request: IdempotencyRecord) -> Response[bytes]:
    """The stored answer for ``request``, once it is shown to be the same request."""
    first = _record(held)
    if first.principal != request.principal:  # only a record of a release before 2026-12
        raise Forbidden(
            detail="This Idempotency-Key was first sent with another participant's token."
        )
    if (first.method, first.path) != (request.method, request.path):
        raise IdempotencyKeyReused(
            detail=f"This Idempotency-Key was first sent to {first.method} {first.path}."
        )
    if first.body_hash != request.body_hash:
        raise IdempotencyKeyReused(detail="This Idempotency-Key came with another body.")
    if held[:1] == PENDING:
        raise RequestInFlight(
            detail="The first request with this Idempotency-Key is still running; retry shortly."
        )
    return Response(
        first.body,
        status_code=first.status,
        headers={**first.headers, REPLAYED_HEADER: "true"},
        media_type=first.headers.get("content-type", "application/json"),
    )
