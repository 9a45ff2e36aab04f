"""Service-level API keys (optional): when configured, every ``/v1`` route and ``/metrics``
need one.

A key travels as ``X-API-Key: <key>`` or ``Authorization: Bearer <key>``. Keys are held only
as HMAC-SHA256 digests under ``API_KEY_SECRET`` and compared in constant time, so neither
the process nor Redis (whose rate-limit counters are named after a key's digest) holds
anything a key could be found from without that secret. Session tokens work inside that:
send the key in one header and the session's token in the other.

A key must be at least :data:`MIN_KEY_CHARS` characters (128 bits as hex, more in any
richer alphabet) and is refused at start-up when it looks like a placeholder; ``python -m
service.http.shell.keys`` prints a fresh one.

Who a request counts as (:meth:`ApiKeys.identity`): a configured key, else its client
address — for the rate limit, live sessions and event streams alike.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sys
from typing import TYPE_CHECKING, Any

from service.http.contract.errors import ApiKeyRequired

if TYPE_CHECKING:
    from litestar.connection import ASGIConnection
    from litestar.handlers.base import BaseRouteHandler
    from litestar.types import Scope

__all__ = [
    "API_KEY_SCHEMES",
    "KEY_BY_TICKET",
    "MIN_KEY_CHARS",
    "ApiKeyGuard",
    "ApiKeys",
    "guarded",
    "key_problem",
    "new_key",
    "split_keys",
]

# A route's `opt` flag: a request with `?ticket=` is let through without a key, the route
# itself checking that the ticket was issued to a caller that had one (event streams).
KEY_BY_TICKET = "key_by_ticket"
# OpenAPI security schemes for the keys (declared always; required only when configured).
API_KEY_SCHEMES = ("apiKey", "apiKeyBearer")
# 32 hex digits are 128 bits; a key drawn from a richer alphabet carries more.
MIN_KEY_CHARS = 32
# Too few distinct characters: a repeated pattern, not a random key.
MIN_DISTINCT_CHARS = 10
# Words of the example values people forget to replace (deploy/k8s/secret.yaml's among them).
PLACEHOLDERS = ("replace", "change", "example", "placeholder", "your-", "todo", "xxxx")


def split_keys(api_keys: str | None) -> tuple[str, ...]:
    """The keys of ``API_KEYS`` (comma-separated; blank entries ignored)."""
    return tuple(key for key in (part.strip() for part in (api_keys or "").split(",")) if key)


def key_problem(secret: str, what: str) -> str | None:
    """Why ``secret`` (a key, or the HMAC secret) may not be used, or None; never quotes it."""
    if len(secret) < MIN_KEY_CHARS:
        return (
            f"{what} is {len(secret)} characters; at least {MIN_KEY_CHARS} are required "
            "(128 bits): python -m service.http.shell.keys prints one"
        )
    lowered = secret.lower()
    if word := next((word for word in PLACEHOLDERS if word in lowered), None):
        return f"{what} looks like a placeholder (it contains {word!r}): replace it"
    if len(set(secret)) < MIN_DISTINCT_CHARS:
        return f"{what} repeats too few characters to be random: python -m service.http.shell.keys"
    if not secret.isascii() or not secret.isprintable() or " " in secret:
        return f"{what} must be printable ASCII without spaces"
    return None


def new_key() -> str:
    """A fresh key (or secret): 256 random bits, base64url."""
    return secrets.token_urlsafe(32)


def guarded(path: str) -> bool:
    """Whether ``path`` (as routed) needs a key when keys are configured."""
    return path.startswith("/v1/") or path == "/metrics"


class ApiKeys:
    """The configured keys, as HMAC digests under the server's secret."""

    def __init__(self, keys: tuple[str, ...], secret: str) -> None:
        self._secret = secret.encode()
        self.digests = frozenset(self.digest(key) for key in keys)

    @property
    def required(self) -> bool:
        """Whether any key is configured (then ``/v1`` and ``/metrics`` need one)."""
        return bool(self.digests)

    def digest(self, presented: str) -> str:
        """What is kept of a key: HMAC-SHA256 under the server's secret, hex."""
        return hmac.new(self._secret, presented.encode(), hashlib.sha256).hexdigest()

    def known(self, presented: str) -> str | None:
        """The digest of ``presented`` when it is a configured key (constant time over every
        configured key), else None."""
        digest = self.digest(presented)
        matched = False
        for stored in self.digests:
            matched |= hmac.compare_digest(digest, stored)
        return digest if matched else None

    def presented_key(self, headers: dict[bytes, bytes]) -> str | None:
        """The configured key a request's headers carry (``X-API-Key`` first, then a bearer
        token), as its digest; None when neither is a configured key."""
        candidates = [headers.get(b"x-api-key", b"").decode("latin-1")]
        scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
        if scheme.lower() == "bearer":
            candidates.append(token.strip())
        for candidate in candidates:
            if candidate and (digest := self.known(candidate)) is not None:
                return digest
        return None

    def identity(self, scope: Scope) -> str:
        """Who a request counts as: its configured key, else its client address (made-up
        keys count against their address, so they cannot each earn a fresh window)."""
        if self.digests:
            digest = self.presented_key(dict(scope["headers"]))
            if digest is not None:
                return "key:" + digest[:32]
        client = scope.get("client")
        return "addr:" + (client[0] if client else "unknown")


class ApiKeyGuard:
    """A Litestar guard: lets a request through when keys are off or it carries one."""

    def __init__(self, keys: ApiKeys) -> None:
        self._keys = keys

    async def __call__(  # async: Litestar runs a sync guard in a worker thread, per request
        self, connection: ASGIConnection[Any, Any, Any, Any], route: BaseRouteHandler
    ) -> None:
        if not self._keys.required or not guarded(connection.scope["path"]):
            return
        if connection.scope.get("method") == "OPTIONS":
            return
        if route.opt.get(KEY_BY_TICKET) and "ticket" in connection.query_params:
            return  # the ticket carries the key it was issued under (the route checks it)
        if self._keys.presented_key(dict(connection.scope["headers"])) is None:
            raise ApiKeyRequired(detail="Send an API key: X-API-Key or Authorization: Bearer.")


if __name__ == "__main__":
    print(new_key())
    sys.exit(0)
