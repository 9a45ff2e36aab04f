"""The shell's HTTP errors: each becomes a catalogued problem in the one exception handler."""

from __future__ import annotations

from litestar.exceptions import HTTPException

__all__ = [
    "ApiKeyRequired",
    "BodyTooSlow",
    "ConcurrentUpdate",
    "Forbidden",
    "IdempotencyKeyReused",
    "MissingBodyError",
    "OddsBusy",
    "PreconditionFailed",
    "RequestInFlight",
    "SessionFull",
    "StoreError",
    "StoreFull",
    "StoreUnavailable",
    "TooManyClientStreams",
    "TooManySessionStreams",
    "TooManySessions",
    "TooManyStreams",
    "Unauthorized",
    "UnreadableBodyError",
    "UnreplicatedError",
    "UnsupportedMediaType",
]


class Unauthorized(HTTPException):
    """No token, or one that does not open this session."""

    status_code = 401

    def __init__(self, detail: str) -> None:
        super().__init__(detail=detail, headers={"WWW-Authenticate": "Bearer"})


class ApiKeyRequired(HTTPException):
    """API keys are configured and the request carries none of them."""

    status_code = 401

    def __init__(self, detail: str) -> None:
        super().__init__(detail=detail, headers={"WWW-Authenticate": 'Bearer realm="api"'})


class Forbidden(HTTPException):
    """A valid token for another role."""

    status_code = 403


class ConcurrentUpdate(HTTPException):
    """Too many writers at once."""

    status_code = 409


class RequestInFlight(HTTPException):
    """The first request with this Idempotency-Key is still running."""

    status_code = 409


class SessionFull(HTTPException):
    """A write would take a session past its ceiling of stored bytes."""

    status_code = 409


class TooManyStreams(HTTPException):
    """This worker holds as many event streams open as it may."""

    status_code = 503


class TooManyClientStreams(HTTPException):
    """The client (its API key, else its address) holds as many event streams as it may."""

    status_code = 429


class TooManySessionStreams(HTTPException):
    """The session has as many event streams open as it may."""

    status_code = 429


class TooManySessions(HTTPException):
    """The client (its API key, else its address) keeps as many live sessions as it may."""

    status_code = 429


class OddsBusy(HTTPException):
    """The worker's odds pool has no place free, or lost a process while computing."""

    status_code = 503


class PreconditionFailed(HTTPException):
    """If-Match names another version."""

    status_code = 412


class IdempotencyKeyReused(HTTPException):
    """The Idempotency-Key came with another body."""

    status_code = 422


class UnsupportedMediaType(HTTPException):
    """The body is not JSON."""

    status_code = 415


class BodyTooSlow(HTTPException):
    """The body did not arrive within BODY_READ_TIMEOUT_SECONDS of the request's start."""

    status_code = 408


class StoreError(Exception):
    """The state store (Redis) could not be reached or answered with an error: a 503."""


class UnreplicatedError(StoreError):
    """A write the primary made but fewer replicas than ``REDIS_WAIT_REPLICAS``
    acknowledged within ``REDIS_WAIT_TIMEOUT_MS``: a failover now could undo it."""

    def __init__(self, acknowledged: int, wanted: int) -> None:
        super().__init__(f"{acknowledged} of {wanted} replicas acknowledged the write in time")
        self.acknowledged = acknowledged
        self.wanted = wanted


class StoreUnavailable(HTTPException):
    """Redis cannot be reached."""

    status_code = 503


class StoreFull(HTTPException):
    """Redis refuses writes: it has reached its ``maxmemory``."""

    status_code = 503


class UnreadableBodyError(Exception):
    """A body the JSON decoder cannot read: not UTF-8, or nested past its depth limit."""

    def __init__(self, code: str, detail: str) -> None:
        super().__init__(detail)
        self.code = code
        self.detail = detail


class MissingBodyError(Exception):
    """An operation that needs a JSON body got none (Litestar says so with a
    ``ValidationException`` on ``data``; :mod:`service.http.shell.fast_json` with this)."""
