"""Calls from web pages of other origins (CORS), as ``CORS_ORIGINS`` allows.

Litestar's ``CORSConfig`` answers the preflights it allows and marks answers for the
browser. Every refusal is the service's own problem instead (``cors-refused``: which origin,
method or header was refused) — Litestar's is a bare ``text/plain`` 400 — decided with the
same config's predicates, so the two cannot disagree. Pages may read every response header
the contract documents (:data:`service.http.contract.openapi_contract.HEADERS`: one list for both).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from litestar.config.cors import CORSConfig
from litestar.constants import DEFAULT_ALLOWED_CORS_HEADERS

from service.http.contract.openapi_contract import HEADERS
from service.http.contract.problems import ProblemError, problem_response

if TYPE_CHECKING:
    from collections.abc import Mapping

    from litestar.response import Response
    from litestar.types import Method

__all__ = ["ALLOWED_HEADERS", "ALLOWED_METHODS", "EXPOSED_HEADERS", "CorsPolicy", "origin_problem"]

# Every response header the published document declares (its components' headers).
EXPOSED_HEADERS: tuple[str, ...] = tuple(HEADERS)
ALLOWED_METHODS: tuple[Method, ...] = ("DELETE", "GET", "HEAD", "OPTIONS", "POST")
# Every request header a route reads: credentials, conditions, idempotency, resumption,
# and each session kind's token header.
ALLOWED_HEADERS = (
    "Authorization",
    "Content-Type",
    "Idempotency-Key",
    "If-Match",
    "If-None-Match",
    "Last-Event-ID",
    "X-API-Key",
    "X-Conflict-Token",
    "X-Game-Token",
    "X-Request-ID",
    "X-Scene-Token",
)
PREFLIGHT_MAX_AGE = 600
_SCHEMES = ("http", "https")


def origin_problem(origin: str) -> str | None:
    """Why ``origin`` (one entry of ``CORS_ORIGINS``) is not an origin a browser sends, or
    None: a browser's ``Origin`` is ``scheme://host[:port]`` and nothing more (RFC 6454),
    so ``https://vtt.example/`` or ``vtt.example`` would match no request at all."""
    if origin == "*":
        return None
    scheme, separator, rest = origin.partition("://")
    if not separator or scheme.lower() not in _SCHEMES:
        return f"{origin!r} needs a scheme: http:// or https:// (as in https://vtt.example)"
    host, colon, port = rest.rpartition(":") if not rest.endswith("]") else (rest, "", "")
    host = host if colon else rest
    if any(mark in rest for mark in "/?#@") or not host or any(c.isspace() for c in rest):
        return f"{origin!r} is not an origin: only scheme://host[:port], no path (not even /)"
    if colon and not (port.isdigit() and 0 < int(port) < 65536):
        return f"{origin!r} has no valid port"
    if origin != origin.lower():
        return f"{origin!r}: write it in lower case, as browsers send it"
    return None


_DEFAULTS = {name.lower() for name in DEFAULT_ALLOWED_CORS_HEADERS}


@dataclass(frozen=True, slots=True)
class CorsPolicy:
    """The origins whose pages may call the service (none: every preflight is refused)."""

    origins: tuple[str, ...]
    config: CORSConfig | None = field(init=False, compare=False)

    def __post_init__(self) -> None:
        config = None
        if self.origins:
            config = CORSConfig(
                allow_origins=list(self.origins),
                allow_methods=list(ALLOWED_METHODS),
                # Litestar always adds its safelisted defaults (Content-Type among them).
                allow_headers=[h for h in ALLOWED_HEADERS if h.lower() not in _DEFAULTS],
                expose_headers=list(EXPOSED_HEADERS),
                max_age=PREFLIGHT_MAX_AGE,
            )
        object.__setattr__(self, "config", config)

    @classmethod
    def from_setting(cls, value: str) -> CorsPolicy:
        """From ``CORS_ORIGINS``: origins separated by commas."""
        return cls(tuple(origin.strip() for origin in value.split(",") if origin.strip()))

    def refusal(self, headers: Mapping[str, str]) -> Response[bytes] | None:
        """The problem answering a preflight (``headers``: its request headers, names in
        lower case) that may not go ahead; None when it may."""
        origin = headers.get("origin", "")
        method = headers.get("access-control-request-method", "")
        requested = [
            name.strip()
            for name in headers.get("access-control-request-headers", "").split(",")
            if name.strip()
        ]
        config = self.config
        if config is None:
            return problem_response(
                "cors-refused",
                "This deployment takes no calls from other origins' pages (CORS_ORIGINS is empty).",
                errors=(_refused("origin-not-allowed", "Origin", f"{origin} is not allowed."),),
            )
        errors: list[ProblemError] = []
        if not config.is_origin_allowed(origin):
            errors.append(
                _refused(
                    "origin-not-allowed",
                    "Origin",
                    f"{origin} is not among the origins allowed (CORS_ORIGINS).",
                )
            )
        if method and method not in config.allow_methods:
            errors.append(
                _refused(
                    "method-not-allowed",
                    "Access-Control-Request-Method",
                    f"{method} is not allowed; allowed: {', '.join(map(str, ALLOWED_METHODS))}.",
                )
            )
        allowed = set(config.allow_headers) | _DEFAULTS
        if unknown := [name for name in requested if name.lower() not in allowed]:
            errors.append(
                _refused(
                    "header-not-allowed",
                    "Access-Control-Request-Headers",
                    f"{', '.join(unknown)} not allowed; allowed: {', '.join(ALLOWED_HEADERS)}.",
                )
            )
        if not errors:
            return None
        detail = " ".join(f"{error.parameter}: {error.detail}" for error in errors)
        return problem_response("cors-refused", detail, errors=tuple(errors))


def _refused(code: str, header: str, detail: str) -> ProblemError:
    return ProblemError(code=code, parameter=header, detail=detail)
