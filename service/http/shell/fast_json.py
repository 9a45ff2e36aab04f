"""A hot JSON route served in one step, documented as any other handler.

Litestar serves a handler through its general machinery: a kwargs model resolving each
parameter and dependency, a DTO instance and the signature model per request, a
``Response`` rendered through its response handler. For the service's hottest routes that
machinery cost more instructions than the rules themselves. Declaring
``middleware=[FastJson]`` on such a handler keeps the handler exactly as it is — its
signature, DTO and ``responses`` still make its OpenAPI operation, and the handler's own
function still does the work — but serves its requests here, ahead of Litestar's route
handling: the guards, the path and header parameters, the body read within the route's
limit (413), the handler's :class:`~service.http.contract.body.StrictJson` decoder (415 and every
400 with its pointer, the same code as Litestar's path), the handler's own function, and
its answer — a value, or a ``Response`` of bytes — sent in one step. Errors propagate to
the app's exception handler as on Litestar's path.

A parameter this path would not take as Litestar does — out of its declared bounds, a
header sent twice, a required one missing — sends the request down Litestar's own path
instead, before any of the body is read, so its refusal is Litestar's word for word.

What it serves is checked once, at the first request: an async handler whose parameters
are ``data`` (a ``StrictJson`` DTO), ``request``, path and header parameters (``str`` or
``int``, bounded by length or value at most) and dependencies made by plain sync functions
without parameters, with no lifecycle hooks, cookies, background task or cache. Anything
else is refused loudly (a ``TypeError``: a 500 whose traceback is logged) rather than
served differently from Litestar. With ``FAST_PATHS=off`` every request goes down
Litestar's own path.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import msgspec
from litestar.enums import ParamType
from litestar.exceptions import ClientException, InternalServerException
from litestar.exceptions.http_exceptions import RequestEntityTooLarge
from litestar.params import ParameterKwarg
from litestar.response import Response
from litestar.serialization import get_serializer

from service.compat.litestar import (
    after_request_hooks,
    handler_parameters,
    keep_body,
    parameter_marker,
    response_handler,
)
from service.http.contract.body import StrictJson
from service.http.contract.errors import MissingBodyError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from litestar.connection import Request
    from litestar.handlers import HTTPRouteHandler
    from litestar.types import ASGIApp, Receive, ReceiveMessage, Scope, Send
    from litestar.typing import FieldDefinition

__all__ = ["FastJson"]

_JSON = "application/json"
_CONTENT_TYPE = b"content-type"
_CONTENT_LENGTH = b"content-length"
_NO_BODY = frozenset({204, 304})  # and every status below 200, as Litestar's ASGIResponse


@dataclass(frozen=True, slots=True)
class _Parameter:
    """A path or header parameter: where it comes from, and the bounds Litestar would
    check (on a string's length, or an integer's value)."""

    name: str
    header: bytes | None  # its header's name, lower-case; None: a path parameter
    required: bool
    measure: Callable[[Any], float]  # len for a string, the value for an integer
    low: float
    high: float


@dataclass(frozen=True, slots=True)
class _Plan:
    """What serving one handler takes, resolved from the handler once."""

    handler: HTTPRouteHandler
    fn: Callable[..., Any]
    dto: type[StrictJson[Any]] | None  # None: the handler takes no body
    limit: float
    request_class: type[Request[Any, Any, Any]]
    guarded: bool
    wants_request: bool
    parameters: tuple[_Parameter, ...]
    headers_read: frozenset[bytes]
    providers: tuple[tuple[str, Callable[[], Any]], ...]
    encode: Callable[[Any], bytes]
    status: int
    headers: tuple[tuple[bytes, bytes], ...]
    header_values: dict[str, str]  # the same, as a returned Response's are merged


_BOUNDS = ("gt", "ge", "lt", "le", "min_length", "max_length")
_UNCHECKED = ("multiple_of", "pattern", "min_items", "max_items")  # checked by Litestar only


def _parameter(name: str, field: FieldDefinition, path_parameters: set[str]) -> _Parameter | None:
    """``name``'s parameter as this path takes it; None when it is no path or header
    parameter this path can take exactly as Litestar does."""
    kwarg = parameter_marker(field)
    if kwarg is not None and not isinstance(kwarg, ParameterKwarg):
        return None
    if name in path_parameters:
        if kwarg is not None and kwarg.name not in (None, name):
            return None  # an aliased path parameter
        header = None
    elif isinstance(kwarg, ParameterKwarg) and kwarg.param_type is ParamType.HEADER:
        header = (kwarg.name or name).lower().encode("latin-1")
    else:
        return None
    if field.is_optional:  # a header that may be absent: None then
        if header is None or (field.has_default and field.default is not None):
            return None
        inner = next(arg for arg in field.args if arg is not type(None))
    else:
        inner = field.annotation
    if not (inner is str or (inner is int and header is None)):
        return None
    if kwarg is not None and any(getattr(kwarg, key) is not None for key in _UNCHECKED):
        return None
    bound = {key: getattr(kwarg, key, None) for key in _BOUNDS}
    if inner is str:
        if any(bound[key] is not None for key in ("gt", "ge", "lt", "le")):
            return None
        low = bound["min_length"] or 0
        high = math.inf if bound["max_length"] is None else bound["max_length"]
        return _Parameter(name, header, not field.is_optional, len, low, high)
    if bound["min_length"] is not None or bound["max_length"] is not None:
        return None
    low = max(
        -math.inf if bound["ge"] is None else bound["ge"],
        -math.inf if bound["gt"] is None else math.floor(bound["gt"]) + 1,
    )
    high = min(
        math.inf if bound["le"] is None else bound["le"],
        math.inf if bound["lt"] is None else math.ceil(bound["lt"]) - 1,
    )
    return _Parameter(name, header, True, int, low, high)


def _plan(handler: HTTPRouteHandler, scope: Scope) -> _Plan:
    """The plan for ``handler``, or a ``TypeError`` naming what this path would serve
    differently from Litestar's."""

    def refuse(reason: str) -> TypeError:
        return TypeError(f"FastJson cannot serve {handler}: {reason}")

    signature = handler_parameters(handler)
    dto = handler.resolve_data_dto()
    if "data" in signature and (dto is None or not issubclass(dto, StrictJson)):
        raise refuse("its body is not decoded by a StrictJson DTO")
    if handler.has_sync_callable:
        raise refuse("it is not async")
    if (
        handler.resolve_before_request()
        or handler.resolve_after_response()
        or any(after_request_hooks(handler))
        or handler.resolve_response_cookies()
        or handler.background
        or handler.cache
    ):
        raise refuse("it has lifecycle hooks, cookies, a background task or a cache")
    dependencies = handler.resolve_dependencies()
    path_parameters = set(scope.get("path_params", ()))
    providers = []
    parameters = []
    for name, field in signature.items():
        if name in ("data", "request"):
            continue
        provide = dependencies.get(name)
        if provide is not None:
            if not provide.has_sync_callable or inspect.signature(provide.dependency).parameters:
                raise refuse(f"its dependency {name!r} is not a parameterless sync function")
            providers.append((name, provide.dependency))
            continue
        parameter = _parameter(name, field, path_parameters)
        if parameter is None:
            raise refuse(
                f"its parameter {name!r} is neither a dependency nor a path or header "
                "parameter it can take as Litestar does"
            )
        parameters.append(parameter)
    encoder = msgspec.json.Encoder(enc_hook=get_serializer(handler.resolve_type_encoders()))
    headers = [
        header for header in handler.resolve_response_headers() if not header.documentation_only
    ]
    return _Plan(
        handler=handler,
        fn=handler.fn,
        dto=cast("type[StrictJson[Any]]", dto) if "data" in signature else None,
        limit=handler.resolve_request_max_body_size() or math.inf,
        request_class=handler.resolve_request_class(),
        guarded=bool(handler.resolve_guards()),
        wants_request="request" in signature,
        parameters=tuple(parameters),
        headers_read=frozenset(
            {_CONTENT_TYPE, _CONTENT_LENGTH}
            | {parameter.header for parameter in parameters if parameter.header is not None}
        ),
        providers=tuple(providers),
        encode=encoder.encode,
        status=handler.status_code,
        headers=tuple(
            (header.name.lower().encode("latin-1"), (header.value or "").encode("latin-1"))
            for header in headers
        ),
        header_values={header.name: header.value or "" for header in headers},
    )


def _fast_paths_on(scope: Scope) -> bool:
    """Unless the app's settings say ``FAST_PATHS=off`` (an app without settings: on)."""
    settings = scope["litestar_app"].state.get("settings")
    return getattr(settings, "fast_paths", "on") == "on"


class FastJson:
    """Handler middleware serving the handler's requests itself (see the module): declare
    ``middleware=[FastJson]`` beside ``dto=StrictJson[Model], return_dto=None``."""

    __slots__ = ("_app", "_plan")

    def __init__(self, app: ASGIApp) -> None:
        self._app = app  # Litestar's route: for a parameter this path leaves to it
        self._plan: _Plan | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        plan = self._plan
        if plan is None:
            if not _fast_paths_on(scope):  # FAST_PATHS=off: Litestar serves it all
                await self._app(scope, receive, send)
                return
            plan = self._plan = _plan(cast("HTTPRouteHandler", scope["route_handler"]), scope)
        request = None
        if plan.guarded:
            request = plan.request_class(scope, receive, send)
            await plan.handler.authorize_connection(request)
        found: dict[bytes, bytes] = {}
        twice = False
        wanted = plan.headers_read
        for header, raw in scope["headers"]:
            if header in wanted:
                twice = twice or header in found
                found[header] = raw
        kwargs: dict[str, Any] = {}
        if plan.parameters:
            path_params = scope["path_params"]
            for parameter in plan.parameters:
                value: Any
                if parameter.header is None:
                    value = path_params[parameter.name]
                elif (sent := found.get(parameter.header)) is not None:
                    value = sent.decode("latin-1")
                elif parameter.required:
                    value = None
                else:
                    kwargs[parameter.name] = None
                    continue
                if value is None or not parameter.low <= parameter.measure(value) <= parameter.high:
                    await self._app(scope, receive, send)  # Litestar's refusal, as it words it
                    return
                kwargs[parameter.name] = value
        if twice:  # Litestar would read the first
            await self._app(scope, receive, send)
            return
        if plan.dto is not None:
            kwargs["data"] = await _data(plan, scope, receive, found)
        for parameter_name, provide in plan.providers:
            kwargs[parameter_name] = provide()
        if plan.wants_request:
            kwargs["request"] = request or plan.request_class(scope, receive, send)
        answer = await plan.fn(**kwargs)
        if isinstance(answer, Response):
            await _send_response(plan, answer, scope, receive, send, kwargs.get("request"))
            return
        content = plan.encode(answer)
        await send(
            {
                "type": "http.response.start",
                "status": plan.status,
                "headers": [
                    (_CONTENT_TYPE, b"application/json"),
                    (_CONTENT_LENGTH, str(len(content)).encode()),
                    *plan.headers,
                ],
            }
        )
        await send({"type": "http.response.body", "body": content, "more_body": False})


async def _data(plan: _Plan, scope: Scope, receive: Receive, found: dict[bytes, bytes]) -> Any:
    """The body decoded by the handler's DTO, read within the route's limit."""
    assert plan.dto is not None
    announced = found.get(_CONTENT_LENGTH)
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
    keep_body(scope, body)  # what request.body() answers
    content_type = found.get(_CONTENT_TYPE)
    return plan.dto.decode_body(
        content_type.decode("latin-1") if content_type is not None else None, body
    )


async def _send_response(
    plan: _Plan,
    response: Response[Any],
    scope: Scope,
    receive: Receive,
    send: Send,
    request: Request[Any, Any, Any] | None,
) -> None:
    """A returned ``Response``, sent as Litestar's response handler would send it: at once
    when it holds JSON bytes (or nothing), through that handler otherwise."""
    content = response.content
    status = response.status_code or plan.status
    plain = (
        (content is None or isinstance(content, bytes))
        and (response.media_type or _JSON) == _JSON
        and not response.cookies
        and response.background is None
        and status >= 200
        and (status not in _NO_BODY or content in (None, b"", b"null"))
    )
    if not plain:
        handle = cast(
            "Callable[..., Awaitable[ASGIApp]]",
            response_handler(plan.handler),
        )
        asgi = await handle(
            data=response,
            app=scope["litestar_app"],
            request=request or plan.request_class(scope, receive, send),
        )
        await asgi(scope, receive, send)
        return
    merged = {**plan.header_values, **response.headers} if plan.header_values else response.headers
    headers = [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in merged.items()
    ]
    body = b""
    if status not in _NO_BODY:
        body = b"null" if content is None else content
        names = {name for name, _ in headers}
        if _CONTENT_TYPE not in names:
            headers.append((_CONTENT_TYPE, b"application/json"))
        if _CONTENT_LENGTH not in names:
            headers.append((_CONTENT_LENGTH, str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


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
