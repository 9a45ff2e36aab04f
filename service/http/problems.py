"""RFC 9457 problem details for every error the service returns, mapped in one place."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

import msgspec
import structlog
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.response import Response

from service.http.context import current_request_id
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

if TYPE_CHECKING:
    from collections.abc import Iterable

    from litestar import Request

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "PROBLEM_TYPES",
    "Problem",
    "ProblemError",
    "ProblemType",
    "SessionFull",
    "StoreError",
    "StoreUnavailable",
    "TooManyStreams",
    "UnsupportedMediaType",
    "handle_exception",
    "problem_responses",
    "problem_type",
    "register_problems",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"
_log = structlog.get_logger("service.errors")


class ProblemError(Value, frozen=True, kw_only=True, omit_defaults=True):
    """One precise reason: where (a JSON pointer into the body, or a parameter) and why."""

    detail: str
    pointer: str | None = None
    parameter: str | None = None
    code: str | None = None


class Problem(Value, frozen=True, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem detail."""

    type: str
    title: str
    status: int
    detail: str
    errors: tuple[ProblemError, ...] = ()
    request_id: str | None = None


class ProblemType(Value, frozen=True, kw_only=True):
    """What ``GET /problems/{code}`` says about one problem type."""

    code: str
    type: str
    status: int
    title: str
    description: str


def _type(code: str, status: int, title: str, description: str) -> ProblemType:
    return ProblemType(
        code=code, type=f"/problems/{code}", status=status, title=title, description=description
    )


PROBLEM_TYPES: dict[str, ProblemType] = {
    p.code: p
    for p in (
        _type(
            "invalid-body",
            400,
            "Body does not match the schema",
            "The JSON body is well-formed but breaks the published schema: a wrong "
            "type, a value out of bounds, a missing or unknown field. Each error has "
            "a JSON pointer to the offending value.",
        ),
        _type("malformed-json", 400, "Malformed JSON", "The body is not valid JSON."),
        _type("missing-body", 400, "Body required", "This operation needs a JSON body."),
        _type(
            "invalid-parameter",
            400,
            "Invalid parameter",
            "A path or query parameter is missing, of the wrong type or out of bounds.",
        ),
        _type("not-found", 404, "Not found", "No such resource, or it has expired."),
        _type(
            "method-not-allowed",
            405,
            "Method not allowed",
            "The resource exists but not for this method; see the Allow header.",
        ),
        _type(
            "body-too-large",
            413,
            "Body too large",
            "Request bodies are limited (64 KiB by default, MAX_BODY_BYTES).",
        ),
        _type(
            "unsupported-media-type",
            415,
            "Unsupported media type",
            "Bodies must be JSON: Content-Type application/json.",
        ),
        _type(
            "unauthorized",
            401,
            "Token required",
            "Session routes (a conflict, a scene, …) need one of that session's tokens: "
            "Authorization: Bearer <token>, or the ruleset's token header "
            "(X-Conflict-Token for Bullseye conflicts); an event stream also takes a stream "
            "ticket.",
        ),
        _type(
            "api-key-required",
            401,
            "API key required",
            "This deployment requires a service API key on /v1 routes: X-API-Key: <key> "
            "or Authorization: Bearer <key>.",
        ),
        _type(
            "rate-limited",
            429,
            "Too many requests",
            "This API key (or client address) sent more requests than RATE_LIMIT allows; "
            "retry after Retry-After seconds. RateLimit-* headers show the budget.",
        ),
        _type(
            "forbidden",
            403,
            "Not allowed for this token",
            "The token opens the session but its role may not do this (the detail says "
            "whose move it is): in a Bullseye conflict only the GM resolves rounds, makes the "
            "outcome check and deletes, and a player submits only their own checks. An "
            "Idempotency-Key is also bound to the participant who first sent it.",
        ),
        _type(
            "concurrent-update",
            409,
            "Concurrent update",
            "Too many clients changed the conflict at the same moment; retry.",
        ),
        _type(
            "request-in-flight",
            409,
            "Request in flight",
            "The first request with this Idempotency-Key has not finished; retry shortly.",
        ),
        _type(
            "session-full",
            409,
            "Session full",
            "The session's stored record (state, history and tokens) would pass its ceiling "
            "(SESSION_MAX_BYTES, 1 MiB by default); nothing was written. End it and start "
            "another.",
        ),
        _type(
            "too-many-streams",
            503,
            "Too many event streams",
            "This worker holds as many event streams open as SSE_MAX_CONNECTIONS allows; "
            "retry after Retry-After seconds (another replica may take it).",
        ),
        _type(
            "precondition-failed",
            412,
            "Version mismatch",
            "If-Match named a version the session is no longer at; GET it again.",
        ),
        _type(
            "idempotency-key-reused",
            422,
            "Idempotency-Key reused",
            "The same Idempotency-Key was sent with another body, or to another operation "
            "(method and path): a key names one request.",
        ),
        _type(
            "internal-error",
            500,
            "Internal error",
            "An unexpected error. It is logged with the request id; nothing internal is returned.",
        ),
        _type(
            "store-unavailable",
            503,
            "State store unavailable",
            "Redis, where conflict state lives, cannot be reached. Retry after the "
            "Retry-After header's seconds.",
        ),
    )
}


def problem_type(code: str, status: int, title: str, description: str) -> ProblemType:
    """A catalog entry: its ``type`` is ``/problems/{code}``, resolvable by GET."""
    return _type(code, status, title, description)


def register_problems(types: Iterable[ProblemType]) -> None:
    """Add a ruleset's problem types to the catalog (again: a no-op; a clash: an error).

    The catalog is per process: every app built in it serves the same rulesets.
    """
    for kind in types:
        held = PROBLEM_TYPES.setdefault(kind.code, kind)
        if held != kind:
            raise ValueError(f"problem code {kind.code!r} is registered twice, differently")


_STATUS_CODES = {
    400: "invalid-parameter",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    409: "concurrent-update",
    412: "precondition-failed",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "idempotency-key-reused",
    503: "store-unavailable",
}


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


class PreconditionFailed(HTTPException):
    """If-Match names another version."""

    status_code = 412


class IdempotencyKeyReused(HTTPException):
    """The Idempotency-Key came with another body."""

    status_code = 422


class UnsupportedMediaType(HTTPException):
    """The body is not JSON."""

    status_code = 415


class StoreError(Exception):
    """The state store (Redis) could not be reached or answered with an error: a 503."""


class StoreUnavailable(HTTPException):
    """Redis cannot be reached."""

    status_code = 503


_CODE_OF_EXCEPTION: dict[type[HTTPException], str] = {
    RequestInFlight: "request-in-flight",
    SessionFull: "session-full",
    TooManyStreams: "too-many-streams",
    ApiKeyRequired: "api-key-required",
}


def problem_response(
    code: str,
    detail: str,
    *,
    errors: tuple[ProblemError, ...] = (),
    headers: dict[str, str] | None = None,
) -> Response[bytes]:
    """A problem+json response of the catalogued type ``code``."""
    kind = PROBLEM_TYPES[code]
    problem = Problem(
        type=kind.type,
        title=kind.title,
        status=kind.status,
        detail=detail,
        errors=errors,
        request_id=current_request_id(),
    )
    return Response(
        content=msgspec.json.encode(problem),
        status_code=kind.status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=headers,
    )


_AT_PATH = re.compile(r"^(?P<detail>.*?)(?: - at `(?P<path>\$[^`]*)`)?$", re.DOTALL)
_STEP = re.compile(r"\.([^.\[]+)|\[(\d+|\.\.\.)\]")
_MISSING_PARAMETER = re.compile(r"parameter '(?P<name>[^']+)'")
_NAMED_FIELD = re.compile(r"^Object (?:contains unknown|missing required) field `(?P<field>.*)`$")


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer_from_msgspec(message: str) -> tuple[str, str]:
    """Split a msgspec error message into (JSON pointer, reason).

    ``"Expected `int` <= 10 - at `$.qualities[0].magnitude`"`` → ``("/qualities/0/magnitude",
    "Expected `int` <= 10")``; a named missing or unknown field extends the pointer to it.
    """
    match = _AT_PATH.match(message)
    assert match is not None  # the pattern matches any string
    detail, path = match["detail"], match["path"] or "$"
    pointer = "".join(
        "/" + (_escape(name) if name else ("-" if index == "..." else index))
        for name, index in _STEP.findall(path[1:])
    )
    if field := _NAMED_FIELD.match(detail):
        pointer += "/" + _escape(field["field"])
    return pointer, detail


def _http_exception(exc: HTTPException) -> Response[bytes]:
    if isinstance(exc, ValidationException):
        extra = exc.extra if isinstance(exc.extra, list) else []
        if any(isinstance(e, dict) and e.get("key") == "data" for e in extra):
            return problem_response(
                "missing-body",
                "This operation needs a JSON body.",
                errors=(ProblemError(pointer="", detail="Body is empty."),),
            )
        errors = tuple(
            ProblemError(parameter=str(e.get("key", "")), detail=str(e.get("message", "")))
            for e in extra
            if isinstance(e, dict)
        )
        if not errors and (missing := _MISSING_PARAMETER.search(exc.detail)):
            errors = (ProblemError(parameter=missing["name"], detail="Required."),)
        detail = errors[0].detail if len(errors) == 1 else "A parameter is invalid."
        if errors and errors[0].parameter:
            detail = f"{errors[0].parameter}: {detail}" if len(errors) == 1 else detail
        return problem_response("invalid-parameter", detail, errors=errors)
    code = _CODE_OF_EXCEPTION.get(type(exc)) or _STATUS_CODES.get(exc.status_code)
    if code is None:
        _log.warning("unmapped_http_exception", status=exc.status_code)
        return problem_response("internal-error", "Unexpected error.")
    detail = (
        exc.detail
        if exc.detail and exc.detail != HTTPStatus(exc.status_code).phrase
        else (PROBLEM_TYPES[code].title + ".")
    )
    return problem_response(code, detail, headers=dict(exc.headers or {}) or None)


def _concern_error(concern: Concern) -> ProblemError:
    return ProblemError(
        code=str(concern.code),
        pointer=concern.pointer,
        parameter=concern.parameter,
        detail=concern.detail,
    )


def problem_body(error: RulesError) -> tuple[int, bytes]:
    """The status and body of the problem a rules error becomes (kept for idempotent retries)."""
    response = handle_exception(None, error)  # type: ignore[arg-type]
    return response.status_code or 422, response.content


def handle_exception(request: Request[Any, Any, Any], exc: Exception) -> Response[bytes]:
    """The app's one exception handler: everything becomes a problem detail."""
    match exc:
        case RulesError():
            return problem_response(
                str(exc.code), exc.detail, errors=tuple(_concern_error(c) for c in exc.concerns)
            )
        case msgspec.ValidationError():
            pointer, reason = pointer_from_msgspec(str(exc))
            return problem_response(
                "invalid-body",
                f"{reason} at '{pointer or '/'}'.",
                errors=(ProblemError(pointer=pointer, detail=reason),),
            )
        case msgspec.DecodeError():
            return problem_response(
                "malformed-json", str(exc), errors=(ProblemError(pointer="", detail=str(exc)),)
            )
        case StoreError():
            retry_after = request.app.state.settings.redis_retry_after_seconds
            return problem_response(
                "store-unavailable",
                "Session state (Redis) is unreachable; retry later.",
                headers={"Retry-After": str(retry_after)},
            )
        case HTTPException():
            return _http_exception(exc)
        case _:
            _log.exception("unhandled_exception", error_type=type(exc).__name__)
            return problem_response("internal-error", "Unexpected error.")


def problem_responses(*statuses: int) -> dict[int, ResponseSpec]:
    """OpenAPI entries declaring that an operation may answer ``statuses`` with problems."""
    return {
        status: ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=", ".join(
                sorted({p.title for p in PROBLEM_TYPES.values() if p.status == status})
            ),
        )
        for status in statuses
    }
