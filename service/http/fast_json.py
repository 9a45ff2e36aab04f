"""A hot JSON route served in one step, documented as any other handler.

Litestar serves a ``@post`` handler through its general machinery: a kwargs model resolving
each parameter and dependency, a DTO instance and the signature model per request, a
``Response`` rendered through its response handler. For the service's hottest stateless
routes that machinery cost more instructions than the rules themselves. Declaring
``middleware=[FastJson]`` on such a handler keeps the handler exactly as it is — its
signature, DTO and ``responses`` still make its OpenAPI operation, and the handler's own
function still does the work — but serves its requests here, ahead of Litestar's route
handling: the guards, the body read within the route's limit (413), the handler's
:class:`~service.http.body.StrictJson` decoder (415 and every 400 with its pointer, the
same code as Litestar's path), the handler's own function, and its answer encoded once.
Errors propagate to the app's exception handler as on Litestar's path.

What it serves is checked once, at the first request: an async handler whose parameters
are ``data`` (a ``StrictJson`` DTO), ``request`` and dependencies made by plain sync
functions without parameters, answering a value rather than a ``Response``, with no
lifecycle hooks, cookies, background task or cache. Anything else is refused loudly (a
``TypeError``: a 500 whose traceback is logged) rather than served differently from Litestar.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import msgspec
from litestar.exceptions import ClientException, InternalServerException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.response import Response
from litestar.serialization import get_serializer
from litestar.utils.scope.state import ScopeState

from service.http.body import StrictJson
from service.http.errors import MissingBodyError

if TYPE_CHECKING:
    from collections.abc import Callable

    from litestar.connection import Request
    from litestar.handlers import HTTPRouteHandler
    from litestar.types import ASGIApp, Receive, ReceiveMessage, Scope, Send

__all__ = ["FastJson"]

_MEDIA_TYPE = b"application/json"


@dataclass(frozen=True, slots=True)
class _Plan:
    """What serving one handler takes, resolved from the handler once."""

    handler: HTTPRouteHandler
    fn: Callable[..., Any]
    dto: type[StrictJson[Any]]
    limit: float
    request_class: type[Request[Any, Any, Any]]
    guarded: bool
    wants_request: bool
    providers: tuple[tuple[str, Callable[[], Any]], ...]
    encode: Callable[[Any], bytes]
    status: int
    headers: tuple[tuple[bytes, bytes], ...]


def _plan(handler: HTTPRouteHandler) -> _Plan:
    """The plan for ``handler``, or a ``TypeError`` naming what this path would serve
    differently from Litestar's."""

    def refuse(reason: str) -> TypeError:
        return TypeError(f"FastJson cannot serve {handler}: {reason}")

    dto = handler.resolve_data_dto()
    if dto is None or not issubclass(dto, StrictJson):
        raise refuse("its body is not decoded by a StrictJson DTO")
    if handler.has_sync_callable:
        raise refuse("it is not async")
    if handler.parsed_fn_signature.return_type.is_subclass_of(Response):
        raise refuse("it answers a Response, not a value")
    if (
        handler.resolve_before_request()
        or handler.resolve_after_response()
        or any(layer.after_request for layer in handler.ownership_layers)
        or handler.resolve_response_cookies()
        or handler.background
        or handler.cache
    ):
        raise refuse("it has lifecycle hooks, cookies, a background task or a cache")
    dependencies = handler.resolve_dependencies()
    providers = []
    for name in handler.parsed_fn_signature.parameters:
        if name in ("data", "request"):
            continue
        provide = dependencies.get(name)
        if (
            provide is None
            or not provide.has_sync_callable
            or inspect.signature(provide.dependency).parameters
        ):
            raise refuse(f"its parameter {name!r} is not a parameterless sync dependency")
        providers.append((name, provide.dependency))
    encoder = msgspec.json.Encoder(enc_hook=get_serializer(handler.resolve_type_encoders()))
    return _Plan(
        handler=handler,
        fn=handler.fn,
        dto=dto,
        limit=handler.resolve_request_max_body_size() or float("inf"),
        request_class=handler.resolve_request_class(),
        guarded=bool(handler.resolve_guards()),
        wants_request="request" in handler.parsed_fn_signature.parameters,
        providers=tuple(providers),
        encode=encoder.encode,
        status=handler.status_code,
        headers=tuple(
            (header.name.lower().encode("latin-1"), (header.value or "").encode("latin-1"))
            for header in handler.resolve_response_headers()
            if not header.documentation_only
        ),
    )


class FastJson:
    """Handler middleware serving the handler's requests itself (see the module): declare
    ``middleware=[FastJson]`` beside ``dto=StrictJson[Model], return_dto=None``."""

    __slots__ = ("_app", "_plan")

    def __init__(self, app: ASGIApp) -> None:
        self._app = app  # Litestar's route, never called: every request is served here
        self._plan: _Plan | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        plan = self._plan
        if plan is None:
            plan = self._plan = _plan(cast("HTTPRouteHandler", scope["route_handler"]))
        request = None
        if plan.guarded:
            request = plan.request_class(scope, receive, send)
            await plan.handler.authorize_connection(request)
        content_type = announced = None
        for name, value in scope["headers"]:
            if name == b"content-type":
                content_type = value.decode("latin-1")
            elif name == b"content-length":
                announced = value
        if announced is not None and _length(announced) > plan.limit:
            raise RequestEntityTooLarge  # before reading any of it
        message = await receive()
        if message["type"] == "http.request" and not message.get("more_body", False):
            body = message.get("body", b"")  # all of it at once, as it most often comes
            if len(body) > plan.limit:
                raise RequestEntityTooLarge
        else:
            body = await _rest_of_body(receive, message, plan.limit)
        if not body:  # as Litestar's path: before the content type is looked at
            raise MissingBodyError
        kwargs = {"data": plan.dto.decode_body(content_type, body)}
        for parameter, provide in plan.providers:
            kwargs[parameter] = provide()
        if plan.wants_request:
            ScopeState.from_scope(scope).body = body  # what request.body() answers
            kwargs["request"] = request or plan.request_class(scope, receive, send)
        content = plan.encode(await plan.fn(**kwargs))
        await send(
            {
                "type": "http.response.start",
                "status": plan.status,
                "headers": [
                    (b"content-type", _MEDIA_TYPE),
                    (b"content-length", str(len(content)).encode()),
                    *plan.headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": content, "more_body": False})


def _length(announced: bytes) -> int:
    try:
        return int(announced)
    except ValueError:
        shown = announced.decode("latin-1")
        raise ClientException(f"Invalid content-length: {shown!r}") from None


async def _rest_of_body(receive: Receive, first: ReceiveMessage, limit: float) -> bytes:
    """The body from its ``first`` message on, within ``limit`` bytes (as Litestar's
    ``Request.stream``: refused as soon as more has arrived)."""
    chunks: list[bytes] = []
    total = 0
    message = first
    while True:
        if message["type"] == "http.disconnect":
            raise InternalServerException("client disconnected prematurely")
        if message["type"] == "http.request":
            if chunk := message.get("body", b""):
                total += len(chunk)
                if total > limit:
                    raise RequestEntityTooLarge
                chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)
        message = await receive()
