"""``Idempotency-Key``: one request, applied at most once, its first answer replayed.

A key is bound to its session (it is stored under the session's hash tag), to the
principal who sent it (the role its token opens), to the method and path, and to the body.
The caller is authorized before anything stored is replayed.

While the first request runs, the key holds a *pending* marker (``P…``): a retry meanwhile
is told 409. The write script replaces the marker by the *answer* (``D…``) in the same
step as the state, and refuses to apply anything under a key that already holds an
answer. So a write whose reply was lost (a timeout, a dropped connection) is never applied
twice: its retry finds the answer. A request that failed without writing takes its own
marker back (only its own: compared in the script); if Redis could not be told, the
marker's lease is short (three socket timeouts), so a retry after Redis comes back is not
locked out for long. The marker is a courtesy, never the guarantee: two runs of the same
request are safe, since the second write finds the first one's answer.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, cast

import msgspec
from litestar.response import Response
from redis.exceptions import RedisError

from service.http.context import new_id
from service.http.errors import Forbidden, IdempotencyKeyReused, RequestInFlight, StoreError
from service.kernel.values import Value
from service.metrics import REDIS_ERRORS

if TYPE_CHECKING:
    from service.sessions.client import RedisClient
    from service.sessions.keys import SessionKind

__all__ = ["ANSWERED", "PENDING", "Claim", "Idempotency", "IdempotencyRecord"]

PENDING = b"P"
ANSWERED = b"D"

# KEYS: the idempotency key. ARGV: marker, lease ms. 1 when claimed, else what it holds.
_CLAIM = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return 1 end
return redis.call('GET', KEYS[1]) or 1
"""

# KEYS: the idempotency key. ARGV: the marker this request set. Deletes it only if it is
# still that marker: an answer written meanwhile (the reply was lost) stays.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


# KEYS: the idempotency key. ARGV: this request's marker, its answer, ttl ms. Keeps the
# answer only while the key still holds this request's marker (or nothing); else returns
# what it holds — another run's answer must never be overwritten by this one's.
_KEEP = """
local held = redis.call('GET', KEYS[1])
if held and held ~= ARGV[1] then return held end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
return 1
"""


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
    """A key this request holds while it runs."""

    key: str
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

    def __init__(self, client: RedisClient, kind: SessionKind, *, lease_ms: int) -> None:
        self._client = client
        self._kind = kind
        self._lease_ms = lease_ms
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)
        self._keep = client.register_script(_KEEP)

    async def claim(
        self, session_id: str, key: str, *, principal: str, method: str, path: str, body: bytes
    ) -> Claim | Response[bytes]:
        """Hold ``key`` for this request; or the first answer to it, replayed.

        Raises:
            Forbidden: the key was first sent by another participant.
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
        redis_key = self._kind.idempotency(session_id, key)
        try:
            held = await self._claim(keys=[redis_key], args=[marker, self._lease_ms])
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        if held == 1:
            return Claim(key=key, request=request, marker=marker)
        return replay(cast("bytes", held), request)

    async def release(self, session_id: str, claim: Claim) -> None:
        """Give the key back after a failure that wrote nothing (best effort: a lease
        ends it anyway)."""
        try:
            await self._release(
                keys=[self._kind.idempotency(session_id, claim.key)], args=[claim.marker]
            )
        except RedisError:
            REDIS_ERRORS.inc()

    async def keep(self, session_id: str, claim: Claim, answer: bytes, ttl_ms: int) -> bytes | None:
        """Keep an answer that was not written with the state (a refusal), if the key is
        still this request's; else what the key holds now (another run's answer or marker,
        after this request's lease ran out)."""
        redis_key = self._kind.idempotency(session_id, claim.key)
        try:
            held = await self._keep(keys=[redis_key], args=[claim.marker, answer, ttl_ms])
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return None if held == 1 else cast("bytes", held)


def replay(held: bytes, request: IdempotencyRecord) -> Response[bytes]:
    """The stored answer for ``request``, once it is shown to be the same request."""
    first = _record(held)
    if first.principal != request.principal:
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
        headers=first.headers,
        media_type=first.headers.get("content-type", "application/json"),
    )
