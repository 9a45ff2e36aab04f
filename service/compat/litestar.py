"""Litestar's undocumented parts the service relies on, checked against :data:`CHECKED`.

- A handler's parsed signature (``parsed_fn_signature``), a parameter's
  ``kwarg_definition``, its ``ownership_layers`` and ``get_response_handler``: the one-step
  JSON path (:mod:`service.http.shell.fast_json`) serves a handler as Litestar would, and the
  published document reads what a handler takes.
- ``ScopeState``: where ``Request.body()`` finds a body already read.
- ``Router._handle_routing``: the routing step the routing cache remembers.
- A handler's ``resolve_exception_handlers``, replaced by a copy of what it merged once.
- A DTO's class-level backend maps: a DTO for a tagged union, which ``DTO[...]`` refuses.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from litestar.utils.scope.state import ScopeState

if TYPE_CHECKING:
    from litestar import Litestar
    from litestar._openapi.schema_generation import (  # for DTOs' create_openapi_schema
        SchemaCreator as SchemaCreator,
    )
    from litestar.handlers import HTTPRouteHandler
    from litestar.types import Scope
    from litestar.typing import FieldDefinition

__all__ = [
    "CHECKED",
    "after_request_hooks",
    "dto_class_state",
    "handler_parameters",
    "handler_return_annotation",
    "keep_body",
    "parameter_marker",
    "remember_routes",
    "resolve_exception_handlers_once",
    "response_handler",
]

CHECKED = ("2.25",)


def handler_parameters(handler: HTTPRouteHandler) -> dict[str, FieldDefinition]:
    """The handler function's parameters, as Litestar parsed them."""
    return dict(handler.parsed_fn_signature.parameters)


def handler_return_annotation(handler: HTTPRouteHandler) -> Any:
    """The handler function's return annotation, as Litestar parsed it."""
    return handler.parsed_fn_signature.return_type.annotation


def parameter_marker(field: FieldDefinition) -> object | None:
    """The ``Parameter(...)``/``Body(...)`` a parameter is annotated with, if any
    (Litestar keeps it as the field's ``kwarg_definition``)."""
    return field.kwarg_definition


def after_request_hooks(handler: HTTPRouteHandler) -> Iterable[object]:
    """Every ``after_request`` hook of the layers that own ``handler``."""
    return [layer.after_request for layer in handler.ownership_layers if layer.after_request]


def response_handler(handler: HTTPRouteHandler) -> Callable[..., Any]:
    """Litestar's response handler for a handler returning a ``Response``."""
    return handler.get_response_handler(is_response_type_data=True)


def keep_body(scope: Scope, body: bytes) -> None:
    """Have ``Request.body()`` answer ``body``, already read from the ASGI channel."""
    ScopeState.from_scope(scope).body = body


def remember_routes(app: Litestar, routes: int) -> None:
    """Keep the routing of up to ``routes`` paths (Litestar's own cache keeps 1 024)."""
    router = app.asgi_router
    router.handle_routing = lru_cache(routes)(router._handle_routing)


def dto_class_state() -> dict[str, Any]:
    """The class attributes a DTO class made by hand (not through ``DTO[...]``) needs."""
    return {"_type_backend_map": {}, "_handler_backend_map": {}}


def resolve_exception_handlers_once(app: Litestar) -> None:
    """Litestar's router asks a request's route handler for its exception handlers on every
    request, and each time they are merged anew up the handler's layers (its docstring says
    memoized; it is not): ~10 kIr a request. The layers never change once the app is built,
    so each handler's are merged here once, and every request gets a copy of them (a copy:
    nothing a request does can reach the next one). Handlers whose class keeps no instance
    dictionary (Litestar's own, made without a decorator) merge as before."""
    for route in app.routes:
        for handler in getattr(route, "route_handlers", ()):
            if hasattr(handler, "__dict__"):
                handler.resolve_exception_handlers = handler.resolve_exception_handlers().copy
