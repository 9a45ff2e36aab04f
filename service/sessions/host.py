"""The session engine as the app holds it: made in the lifespan, provided to handlers.

A ruleset describes each kind of session it keeps (:class:`SessionSpec`); its routes ask
the host for that kind's engine, event reader and stream tickets. The host knows no rule.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import msgspec
from litestar.exceptions import NotFoundException
from redis.exceptions import RedisError

from service.http.contract.errors import ApiKeyRequired, StoreError, Unauthorized
from service.kernel.values import Value
from service.metrics import REDIS_ERRORS
from service.sessions.engine import SessionEngine
from service.sessions.quota import SessionQuota
from service.sessions.store import SessionStore
from service.sessions.stream import (
    EventReader,
    StreamGate,
    event_stream_response,
    is_stream_id,
)
from service.sessions.stream_leases import StreamLeases

if TYPE_CHECKING:
    from litestar import Request
    from litestar.response import Stream

    from service.http.shell.keys import ApiKeys
    from service.kernel.dice import RandomSource
    from service.sessions.client import RedisClient, ReplicaWait
    from service.sessions.keys import SessionKind
    from service.settings import Settings

__all__ = ["SessionHost", "SessionSpec", "StreamTicket", "TicketHolder", "session_host"]

S = TypeVar("S", bound=Value)


@dataclass(frozen=True, slots=True, eq=False)
class SessionSpec(Generic[S]):
    """One kind of session of a ruleset: its keys, its state and history types, and the
    header its tokens may travel in (besides ``Authorization``); ``ended``: whether a
    state of it can roll no more — when a provably fair session's seed is revealed."""

    kind: SessionKind
    state_type: type[S]
    history_type: Any
    token_header: str
    ended: Callable[[S], bool] | None = None


class StreamTicket(Value, frozen=True, kw_only=True):
    """A short-lived credential for one session's event stream, for clients such as a
    browser's ``EventSource`` that cannot send headers: ``…/events?ticket=<ticket>``."""

    ticket: str
    expires_in: int


@dataclass(slots=True)
class SessionHost:
    """The Redis clients, the settings, the server's dice and each kind's engine, for one
    worker (made in the app's lifespan; see :func:`session_host`)."""

    settings: Settings
    client: RedisClient
    streams_client: RedisClient
    stopping: asyncio.Event
    gate: StreamGate
    leases: StreamLeases
    quota: SessionQuota
    rng: RandomSource  # the server's dice, for rules that roll in a session
    # Session writes wait for this many replicas (REDIS_WAIT_REPLICAS; None: they don't).
    replicas: ReplicaWait | None = None
    _engines: dict[SessionSpec[Any], SessionEngine[Any]] = field(default_factory=dict)

    def engine(self, spec: SessionSpec[S]) -> SessionEngine[S]:
        """The engine of ``spec``'s kind (one per worker, so its memory is shared)."""
        engine = self._engines.get(spec)
        if engine is None:
            settings = self.settings
            store = SessionStore(
                self.client,
                spec.kind,
                spec.state_type,
                spec.history_type,
                max_bytes=settings.session_max_bytes,
                recent_count=settings.recent_sessions,
                recent_bytes=settings.recent_session_bytes,
                answers_per_owner=settings.idempotency_keys_kept,
                replicas=self.replicas,
            )
            engine = SessionEngine(
                store,
                self.client,
                spec.token_header,
                default_ttl_ms=settings.conflict_ttl_seconds * 1000,
                # A request whose Redis calls all time out gives up within a few socket
                # timeouts; its key's pending marker need not outlive that by much.
                pending_lease_ms=max(1000, int(3000 * settings.redis_socket_timeout)),
                rng=self.rng,
                quota=self.quota,
                max_ttl_ms=settings.session_ttl_max_seconds * 1000,
                ended=spec.ended,
            )
            self._engines[spec] = engine
        return cast("SessionEngine[S]", engine)

    def reader(self, spec: SessionSpec[Any]) -> EventReader:
        """Event-stream reads of ``spec``'s kind, over the streams' own pool."""
        return EventReader(self.streams_client, spec.kind)

    async def issue_ticket(
        self, kind: SessionKind, session_id: str, holder: TicketHolder
    ) -> StreamTicket:
        """A ticket opening ``session_id``'s stream as ``holder``, once, for a short while."""
        ticket = secrets.token_urlsafe(24)
        seconds = self.settings.stream_ticket_seconds
        try:
            await self.client.set(
                kind.ticket(session_id, ticket), _encode_holder(holder), px=seconds * 1000
            )
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return StreamTicket(ticket=ticket, expires_in=seconds)

    async def ticket_holder(self, kind: SessionKind, session_id: str, ticket: str) -> TicketHolder:
        """Whom a stream ticket was issued to (401 when unknown, expired, used or another
        session's). Used up by this call: a ticket opens one stream, once, so a URL that a
        proxy logged opens nothing."""
        try:
            held = await self.client.getdel(kind.ticket(session_id, ticket))
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        if held is None:
            raise Unauthorized(
                detail=f"This stream ticket does not open this {kind.kind} (or has expired, "
                "or was used: a ticket opens one stream; ask a new one to reconnect)."
            )
        return _decode_holder(cast("bytes", held))

    async def token_role(
        self, spec: SessionSpec[Any], session_id: str, request: Request[Any, Any, Any]
    ) -> str:
        """The role the request's token opens in the session (401 without one, before the
        session is looked up; 404 for an unknown session), reading only its tokens."""
        engine = self.engine(spec)
        engine.require_token(request)
        access = await engine.store.load_access(session_id)
        if access is None:
            raise NotFoundException(
                detail=f"No {spec.kind.kind} '{session_id}' (unknown or expired)."
            )
        return engine.role(request, access)

    async def stream_ticket(
        self, spec: SessionSpec[Any], session_id: str, request: Request[Any, Any, Any]
    ) -> StreamTicket:
        """A ticket to the session's event stream for the request's token, as its role, and
        for its client: with API keys required, the key it came with (it passed the key
        guard) goes with the ticket, so the stream opens without the key header, which a
        browser's EventSource cannot send."""
        role = await self.token_role(spec, session_id, request)
        api_keys: ApiKeys = request.app.state.api_keys
        holder = TicketHolder(
            role=role, client=api_keys.identity(request.scope), keyed=api_keys.required
        )
        return await self.issue_ticket(spec.kind, session_id, holder)

    async def event_stream(
        self,
        spec: SessionSpec[Any],
        session_id: str,
        request: Request[Any, Any, Any],
        *,
        last_event_id: str | None,
        ticket: str | None,
    ) -> Stream:
        """A session's events as SSE for a token of it (or a stream ticket), resumed after
        ``last_event_id`` when it is a stream id; 404 for an unknown session."""
        api_keys: ApiKeys = request.app.state.api_keys
        if ticket is not None:
            holder = await self.ticket_holder(spec.kind, session_id, ticket)
            if api_keys.required and not holder.keyed:
                raise ApiKeyRequired(detail="This ticket was issued without an API key.")
            client = holder.client
        else:
            await self.token_role(spec, session_id, request)
            client = api_keys.identity(request.scope)
        return await event_stream_response(
            self.reader(spec),
            session_id,
            last_event_id if last_event_id and is_stream_id(last_event_id) else "0",
            stopping=self.stopping,
            keep_alive_seconds=self.settings.sse_keep_alive_seconds,
            gate=self.gate,
            leases=self.leases,
            identity=client,
            retry_after=self.settings.redis_retry_after_seconds,
        )


class TicketHolder(Value, frozen=True, kw_only=True):
    """Whom a stream ticket opens the stream for: the participant (``role``), its client
    (as :meth:`~service.http.shell.keys.ApiKeys.identity` counts it) and whether it came with a
    configured API key."""

    role: str
    client: str
    keyed: bool = False


_encode_holder = msgspec.json.Encoder().encode
_decode_holder_json = msgspec.json.Decoder(TicketHolder).decode


def _decode_holder(held: bytes) -> TicketHolder:
    if held[:1] == b"{":
        return _decode_holder_json(held)
    # A ticket issued by the previous release held only the role.
    return TicketHolder(role=held.decode(), client="unknown")


def session_host(request: Request[Any, Any, Any]) -> SessionHost:
    """The worker's host, for a session route.

    Read off the app rather than injected: a Litestar dependency costs its resolution on
    every request — 20 µs, 6 % of a conflict read, measured — and two of them an anyio
    task group, a tenth of a round. Session routes are the service's hot path.
    """
    host: SessionHost = request.app.state.sessions
    return host
