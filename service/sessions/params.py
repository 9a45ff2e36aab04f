"""The request headers and parameters every session route shares, as OpenAPI declares them."""

from __future__ import annotations

from typing import Annotated

from litestar.datastructures import ResponseHeader
from litestar.params import HeaderParameter, QueryParameter

__all__ = [
    "CREATED_HEADERS",
    "VERSION_HEADERS",
    "IdempotencyKey",
    "IfMatch",
    "IfNoneMatch",
    "LastEventId",
    "StreamTicketParam",
]

# Declared for the OpenAPI document (service.http.openapi_contract describes them).
VERSION_HEADERS = [ResponseHeader(name="ETag", documentation_only=True)]
CREATED_HEADERS = [*VERSION_HEADERS, ResponseHeader(name="Location", documentation_only=True)]

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        max_length=255,
        required=False,
        description="Retry safely: the same key, token, operation and body return the first "
        "answer without applying the change again, even when the first reply was lost. The "
        "same key with another body or operation → 422; from another participant → 403; "
        "while the first is still running → 409.",
    ),
]
IfMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-Match",
        max_length=32,
        required=False,
        description='Act only if the session is still at this version: `"<version>"` '
        "(its ETag); 412 otherwise.",
    ),
]
IfNoneMatch = Annotated[
    str | None,
    HeaderParameter(
        name="If-None-Match",
        max_length=32,
        required=False,
        description='`"<version>"` (an ETag read before): 304 with no body while the '
        "session is still at that version.",
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
StreamTicketParam = Annotated[
    str | None,
    QueryParameter(
        name="ticket",
        max_length=64,
        required=False,
        description="A stream ticket (from `…/events/tickets`) instead of a token, for "
        "clients such as a browser's EventSource that cannot send headers.",
    ),
]
