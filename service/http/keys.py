"""Service-level API keys (optional): when configured, every ``/v1`` route needs one.

A key travels as ``X-API-Key: <key>`` or ``Authorization: Bearer <key>``. Keys are held
only as SHA-256 hashes and compared in constant time. Conflict tokens work inside that:
send the key in one header and the conflict's token in the other (or ``X-Conflict-Token``).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import TYPE_CHECKING, Any

from service.http.errors import ApiKeyRequired

if TYPE_CHECKING:
    from litestar.connection import ASGIConnection
    from litestar.handlers.base import BaseRouteHandler

__all__ = ["API_KEY_SCHEMES", "ApiKeyGuard", "key_hashes"]

# OpenAPI security schemes for the keys (declared always; required only when configured).
API_KEY_SCHEMES = ("apiKey", "apiKeyBearer")


def key_hashes(api_keys: str | None) -> tuple[str, ...]:
    """Hashes of the comma-separated keys of ``API_KEYS`` (blank entries ignored)."""
    keys = (key.strip() for key in (api_keys or "").split(","))
    return tuple(hashlib.sha256(key.encode()).hexdigest() for key in keys if key)


def _presented(connection: ASGIConnection[Any, Any, Any, Any]) -> list[str]:
    presented = []
    if key := connection.headers.get("x-api-key"):
        presented.append(key)
    scheme, _, token = connection.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        presented.append(token.strip())
    return presented


class ApiKeyGuard:
    """A Litestar guard: lets a request through when keys are off or it carries one."""

    def __init__(self, hashes: tuple[str, ...]) -> None:
        self._hashes = hashes

    async def __call__(  # async: Litestar runs a sync guard in a worker thread, per request
        self, connection: ASGIConnection[Any, Any, Any, Any], _: BaseRouteHandler
    ) -> None:
        if not self._hashes or not connection.scope["path"].startswith("/v1/"):
            return
        if connection.scope.get("method") == "OPTIONS":
            return
        matched = False
        for presented in _presented(connection):
            digest = hashlib.sha256(presented.encode()).hexdigest()
            for stored in self._hashes:
                matched |= hmac.compare_digest(digest, stored)
        if not matched:
            raise ApiKeyRequired(detail="Send an API key: X-API-Key or Authorization: Bearer.")
