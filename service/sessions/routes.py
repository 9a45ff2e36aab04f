"""The routes every kind of session shares: its event stream, and the stream tickets that
let a browser's ``EventSource`` (which cannot send headers) open it.

A ruleset declares them once per kind with :func:`stream_routes` and mounts the router it
returns beside its own controller; conflicts, scenes and every later kind get the same two
operations, worded alike, with the same security and problems.
"""

# No ``from __future__ import annotations``: the handlers' annotations are evaluated where
# the handlers are made, since the name of their path parameter is the kind's own.

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from litestar import Request, Router, get, post
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import PathParameter
from litestar.response import Stream

from service.http.contract.problems import problem_responses
from service.http.shell.keys import KEY_BY_TICKET
from service.kernel.events import event_names
from service.sessions.host import SessionSpec, StreamTicket, session_host
from service.sessions.params import (
    SECRET_HEADERS,
    LastEventId,
    LastEventIdQuery,
    StreamTicketParam,
)

__all__ = ["Security", "StreamRoutes", "stream_routes"]

Security = list[dict[str, list[str]]]


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamRoutes:
    """A kind's event-stream and stream-ticket routes (``router``), and their ids."""

    router: Router
    kind: str
    id_parameter: str
    ticket_operation_id: str
    events_operation_id: str

    def links(self) -> dict[str, Any]:
        """OpenAPI links from the answer creating a session (its id at ``/id``) to both
        routes (the token is a credential: a security scheme, not a link parameter)."""

        def to(operation_id: str) -> dict[str, Any]:
            return {
                "operationId": operation_id,
                "parameters": {self.id_parameter: "$response.body#/id"},
                "description": f"With a token of the {self.kind} (`tokens` in this answer).",
            }

        return {
            "CreateStreamTicket": to(self.ticket_operation_id),
            "StreamEvents": to(self.events_operation_id),
        }


def _events_description(kind: str, events: Sequence[str], ticket_operation_id: str) -> str:
    return (
        "`text/event-stream` of "
        + ", ".join(f"`{name}`" for name in events)
        + f", each with an `id:` (but `{kind}.expired`). Reconnect with `Last-Event-ID` to "
        "resume without missing any. Keep-alives are comment lines. The stream ends after "
        f"`{kind}.closed` (the {kind} was deleted) or `{kind}.expired` (its time ran out). "
        "A browser's EventSource, which cannot send headers, passes a stream ticket instead: "
        f"`?ticket=` (see `{ticket_operation_id}`), each ticket once; it resumes with "
        "`?last_event_id=` when it reconnects with a new ticket. Where the deployment "
        "requires API keys, a ticket also stands for the key it was asked with: the stream "
        "opens with `?ticket=` alone. A worker holds at most "
        "`SSE_MAX_CONNECTIONS` streams; past that, 503 `too-many-streams` with Retry-After. "
        f"Over every worker and replica, a {kind} has at most `SSE_MAX_PER_SESSION` streams "
        "open and a client (its API key, else its address) at most `SSE_MAX_PER_CLIENT`: "
        "past those, 429 `too-many-session-streams` or `too-many-client-streams`."
    )


def stream_routes(
    spec: SessionSpec[Any],
    *,
    path: str,
    id_parameter: str,
    security: Security,
    tags: Sequence[str],
    ticket_operation_id: str,
    events_operation_id: str,
    events: Any,
) -> StreamRoutes:
    """``POST {path}/{id}/events/tickets`` and ``GET {path}/{id}/events`` for ``spec``'s kind.

    ``path``: where the kind's sessions are, within the ruleset's router (``/scenes``);
    ``id_parameter``: the name its other routes give the session's id (``scene_id``);
    ``security``: the token requirements of its routes (a stream also opens with a
    ticket); ``events``: the union of the event types its stream carries (each frame's
    ``data`` is one of them, ``type`` and all), published as the stream's schema.
    """
    kind = spec.kind.kind
    names = (*event_names(events), spec.kind.expired_event)
    template = f"/{{{id_parameter}:str}}/events"

    @post(
        template + "/tickets",
        operation_id=ticket_operation_id,
        security=security,
        summary=f"A ticket for the {kind}'s event stream",
        description=f"Any token of the {kind} may ask. The ticket opens "
        "`GET …/events?ticket=<ticket>` as the same participant, once, within `expires_in` "
        "seconds (`STREAM_TICKET_SECONDS`), so a browser's EventSource connects without a "
        f"token in its URL; it opens no other route and no other {kind}. Single use, so a "
        "URL read from a log opens nothing: to reconnect, ask a new ticket and open "
        "`…/events?ticket=<new>&last_event_id=<the last id received>`. The answer is "
        "`Cache-Control: no-store`.",
        status_code=201,
        response_headers=SECRET_HEADERS,
        responses=problem_responses(400, 401, 404, 503),
    )
    async def issue_ticket(
        session_id: Annotated[
            str, PathParameter(name=id_parameter, max_length=64, description=f"The {kind}'s id.")
        ],
        request: Request[Any, Any, Any],
    ) -> StreamTicket:
        """Issue a ticket."""
        return await session_host(request).stream_ticket(spec, session_id, request)

    @get(
        template,
        operation_id=events_operation_id,
        security=[*security, {}],  # or a ticket, a query parameter
        summary=f"Server-sent events of the {kind}",
        description=_events_description(kind, names, ticket_operation_id),
        responses={
            200: ResponseSpec(
                data_container=events,
                media_type="text/event-stream",
                generate_examples=False,
                description=f"Server-sent events: each frame's `event:` is its name and its "
                "`data:` the event as JSON, one of the schemas here (its `type` member that "
                f"same name); the last, `{spec.kind.expired_event}`, is "
                f'`{{"type": "{spec.kind.expired_event}"}}` alone.',
            ),
            **problem_responses(400, 401, 404, 503),
        },
        media_type="text/event-stream",
        opt={KEY_BY_TICKET: True},
    )
    async def stream_events(
        session_id: Annotated[
            str, PathParameter(name=id_parameter, max_length=64, description=f"The {kind}'s id.")
        ],
        request: Request[Any, Any, Any],
        last_event_id: LastEventId = None,
        last_event_id_query: LastEventIdQuery = None,
        ticket: StreamTicketParam = None,
    ) -> Stream:
        """Stream the session's events."""
        return await session_host(request).event_stream(
            spec,
            session_id,
            request,
            last_event_id=last_event_id or last_event_id_query,
            ticket=ticket,
        )

    return StreamRoutes(
        router=Router(path, route_handlers=[issue_ticket, stream_events], tags=list(tags)),
        kind=kind,
        id_parameter=id_parameter,
        ticket_operation_id=ticket_operation_id,
        events_operation_id=events_operation_id,
    )
