"""The request headers and parameters every session route shares, as OpenAPI declares them."""

from __future__ import annotations

from typing import Annotated

from litestar.datastructures import ResponseHeader
from litestar.params import HeaderParameter, QueryParameter
from msgspec import Meta

__all__ = [
    "CREATED_HEADERS",
    "SECRET_HEADERS",
    "VERSION_HEADERS",
    "IdempotencyKey",
    "IfMatch",
    "IfNoneMatch",
    "LastEventId",
    "LastEventIdQuery",
    "SessionTtl",
    "StreamTicketParam",
]

# Declared for the OpenAPI document (service.http.contract.openapi_contract describes them).
VERSION_HEADERS = [ResponseHeader(name="ETag", documentation_only=True)]
# Sent (and declared) on every answer that carries a secret: no cache keeps it.
SECRET_HEADERS = [ResponseHeader(name="Cache-Control", value="no-store")]
# A session's creation answers its tokens.
CREATED_HEADERS = [
    *VERSION_HEADERS,
    ResponseHeader(name="Location", documentation_only=True),
    *SECRET_HEADERS,
]

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        max_length=255,
        required=False,
        description="Retry safely: the same key, token, operation and body return the first "
        "answer without applying the change again, even when the first reply was lost. A key "
        "is its participant's own (another participant's same key is another request). The "
        "same key with another body or operation → 422; while the first is still running → "
        "409. Each participant's last IDEMPOTENCY_KEYS_KEPT (16) answers are kept, counted "
        "in the session's bytes.",
    ),
]
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        required=False,
        description='Act only if the session is still at this version: `"<version>"` '
        "(its ETag), a list of such tags (any may match; a weak `W/` tag never does), or "
        "`*` (any version: the session exists); 412 otherwise (RFC 9110 §13.1.1). An "
        "unquoted value is 400 `invalid-precondition`. Its length is bounded by the "
        "headers' (MAX_HEADER_BYTES); it is read in time linear in it.",
    ),
]
IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        required=False,
        description='`"<version>"` (an ETag read before), a list of tags (weak `W/` ones '
        "match too), or `*`: 304 with no body while the session is at one of them (RFC 9110 "
        "§13.1.2). An unquoted value is 400 `invalid-precondition`.",
    ),
]
LastEventId = Annotated[
    str | None,
    HeaderParameter(
        name="Last-Event-ID",
        max_length=64,
        required=False,
        description="Resume after this event id.",
    ),
]
LastEventIdQuery = Annotated[
    str | None,
    QueryParameter(
        name="last_event_id",
        max_length=64,
        required=False,
        description="Resume after this event id, as `Last-Event-ID` does (which wins when "
        "both are sent): for a browser that opens a new EventSource with a new ticket, "
        "which cannot set the header.",
    ),
]
StreamTicketParam = Annotated[
    str | None,
    QueryParameter(
        name="ticket",
        max_length=64,
        required=False,
        description="A stream ticket (from `…/events/tickets`) instead of a token, for "
        "clients such as a browser's EventSource that cannot send headers. Single use: "
        "it opens one stream, once; to reconnect, ask a new ticket and resume with "
        "`last_event_id`.",
    ),
]

# A new session's own time to wait untouched (every kind's creation takes it).
SessionTtl = Annotated[
    int,
    Meta(
        ge=60,
        le=604800,
        description="Seconds the session lives untouched (every change restarts the clock); "
        "by default CONFLICT_TTL_SECONDS (24 h). A deployment bounds it by "
        "SESSION_TTL_MAX_SECONDS (24 h by default): past that, 422 `ttl-too-long`.",
    ),
]
