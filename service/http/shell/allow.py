"""``OPTIONS`` for a path that several handlers of one controller share.

Litestar answers ``OPTIONS`` itself with the methods of the first handler registered for a
path only, so a session's own path (``GET`` and ``DELETE``, each its own handler) would
say ``Allow: GET, OPTIONS``. A controller declares :func:`allow` for such a path instead,
and ``Allow`` names every method (RFC 9110 §9.3.7).

It must be the path's first handler: a controller registers its handlers in the order of
their ids (module, then qualified name), and this module's name sorts before every
ruleset's (``service.http`` < ``service.rulesets``). ``tests/sessions/test_session_paths.py``
fails for every session kind if that stops holding (a Litestar release ordering handlers
otherwise); a path that is not a session's would need a test of its own.
"""

from __future__ import annotations

from litestar import HttpMethod, Response, route
from litestar.handlers import HTTPRouteHandler

__all__ = ["allow"]


def allow(path: str, methods: str) -> HTTPRouteHandler:
    """The ``OPTIONS`` handler of ``path``, answering 204 with ``Allow: methods``."""

    def allowed_methods(self: object) -> Response[None]:
        return Response(None, status_code=204, headers={"Allow": methods})

    options = route(
        path, http_method=[HttpMethod.OPTIONS], include_in_schema=False, sync_to_thread=False
    )
    return options(allowed_methods)
