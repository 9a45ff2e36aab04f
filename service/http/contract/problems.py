"""RFC 9457 problem details for every error the service returns, mapped in one place."""

from __future__ import annotations

import re
from http import HTTPStatus
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
import structlog
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.response import Response
from msgspec import Meta
from redis.exceptions import OutOfMemoryError

from service.http.contract.context import CLIENT_GONE, current_request_id, new_id
from service.http.contract.errors import (
    ApiKeyRequired,
    MissingBodyError,
    OddsBusy,
    RequestInFlight,
    SessionFull,
    StoreError,
    StoreFull,
    TooManyClientStreams,
    TooManySessions,
    TooManySessionStreams,
    TooManyStreams,
    UnreadableBodyError,
    UnreplicatedError,
)
from service.http.contract.problem_types import PROBLEM_TYPES, RETRY_AFTER
from service.http.contract.validation import (
    UNKNOWN,
    InvalidBodyError,
    Violation,
    explain,
    explain_parameter,
)
from service.kernel.errors import Concern, RulesError
from service.kernel.values import Value

if TYPE_CHECKING:
    from collections.abc import Mapping

    from litestar import Request

__all__ = [
    "PROBLEM_MEDIA_TYPE",
    "UNREPLICATED_DETAIL",
    "Problem",
    "ProblemError",
    "handle_exception",
    "is_out_of_memory",
    "problem_body",
    "problem_response",
    "problem_responses",
]

PROBLEM_MEDIA_TYPE = "application/problem+json"
# A write Redis made but no replica confirmed in time (REDIS_WAIT_REPLICAS): its outcome is
# open until a replica holds it, and a retry with the same key settles it either way.
UNREPLICATED_DETAIL = (
    "The change was made, but fewer replicas than the service waits for (REDIS_WAIT_REPLICAS) "
    "confirmed it in time, so a failover now could still undo it. Retry with the same "
    "Idempotency-Key: the retry answers with this change's own answer once a replica holds "
    "it, or makes the change once if a failover undid it. Without a key, read the session "
    "before sending the change again."
)
_log = structlog.get_logger("service.errors")


class ProblemError(Value, frozen=True, kw_only=True, omit_defaults=True):
    """One precise reason: a stable `code` to branch on, where (a JSON pointer into the
    body, or a parameter) and why."""

    code: str
    detail: str
    pointer: Annotated[str | None, Meta(description="A JSON pointer into the body.")] = None
    parameter: Annotated[str | None, Meta(description="The parameter (or header) at fault.")] = None


class Problem(Value, frozen=True, kw_only=True, omit_defaults=True):
    """An RFC 9457 problem detail; `errors` always holds at least one item, and
    `request_id` is the answer's `X-Request-ID`."""

    type: str
    title: str
    status: int
    detail: str
    errors: Annotated[
        tuple[ProblemError, ...],
        Meta(
            min_length=1,
            description="What is wrong, each with a stable `code` to branch on: at least "
            "one (a problem with nothing more to say names its own code).",
        ),
    ]
    # Every answer has an id (service.http.shell.middleware sets it before anything can answer).
    request_id: str


_STATUS_CODES = {
    400: "invalid-parameter",
    401: "unauthorized",
    403: "forbidden",
    404: "not-found",
    405: "method-not-allowed",
    408: "body-too-slow",
    409: "concurrent-update",
    412: "precondition-failed",
    413: "body-too-large",
    415: "unsupported-media-type",
    422: "idempotency-key-reused",
    503: "store-unavailable",
}


_CODE_OF_EXCEPTION: dict[type[HTTPException], str] = {
    RequestInFlight: "request-in-flight",
    SessionFull: "session-full",
    TooManyStreams: "too-many-streams",
    TooManyClientStreams: "too-many-client-streams",
    TooManySessionStreams: "too-many-session-streams",
    TooManySessions: "too-many-sessions",
    ApiKeyRequired: "api-key-required",
    StoreFull: "state-store-full",
    OddsBusy: "odds-busy",
}


def problem_response(
    code: str,
    detail: str,
    *,
    errors: tuple[ProblemError, ...] = (),
    headers: dict[str, str] | None = None,
    extensions: Mapping[str, object] | None = None,
) -> Response[bytes]:
    """A problem+json response of the catalogued type ``code``; ``extensions`` add members
    (RFC 9457 §3.2) beside the standard ones, never over them. ``Retry-After`` is the
    catalog's to decide (:data:`RETRY_AFTER`): kept from ``headers`` or added for a problem
    a retry can cure, dropped from any other. ``errors`` is never empty: a problem given
    none names itself, so a client may always branch on ``errors[].code``."""
    kind = PROBLEM_TYPES[code]
    problem = Problem(
        type=kind.type,
        title=kind.title,
        status=kind.status,
        detail=detail,
        errors=errors or (ProblemError(code=code, detail=detail),),
        request_id=current_request_id() or new_id(),  # no id only outside a request
    )
    content = msgspec.json.encode(problem)
    if extensions:
        members: dict[str, Any] = msgspec.to_builtins(problem)
        for name, value in extensions.items():
            members.setdefault(name, value)
        content = msgspec.json.encode(members)
    return Response(
        content=content,
        status_code=kind.status,
        media_type=PROBLEM_MEDIA_TYPE,
        headers=_with_retry_after(code, headers),
    )


def _with_retry_after(code: str, headers: dict[str, str] | None) -> dict[str, str] | None:
    named = None
    others: dict[str, str] = {}
    for name, value in (headers or {}).items():
        if name.lower() == "retry-after":
            named = value
        else:
            others[name] = value
    if (wait := RETRY_AFTER.get(code)) is not None:
        others["Retry-After"] = named or str(wait)
    return others or None


_MISSING_PARAMETER = re.compile(r"parameter '(?P<name>[^']+)'")


def _invalid_body(violation: Violation) -> Response[bytes]:
    where = violation.pointer or "The body"
    return problem_response(
        "invalid-body",
        f"{where}: {violation.detail}",
        errors=(
            ProblemError(code=violation.code, pointer=violation.pointer, detail=violation.detail),
        ),
    )


def _missing_body() -> Response[bytes]:
    return problem_response(
        "missing-body",
        "This operation needs a JSON body.",
        errors=(ProblemError(code="missing-body", pointer="", detail="Body is empty."),),
    )


def _parameter_detail(request: Request[Any, Any, Any] | None, name: str, message: str) -> str:
    """A parameter's msgspec message in plain words, said from its declared annotation."""
    annotation: Any = Any
    value: Any = UNKNOWN
    if request is not None and (handler := request.scope.get("route_handler")) is not None:
        declared = {f.name: f.type for f in msgspec.structs.fields(handler.signature_model)}
        annotation = declared.get(name, Any)
        value = request.query_params.get(name, request.scope.get("path_params", {}).get(name))
        if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,30}(?:\.[0-9]{1,30})?", value):
            value = msgspec.json.decode(value)  # a number, shown as one
        value = UNKNOWN if value is None else value
    return explain_parameter(message, annotation, value)


def _http_exception(request: Request[Any, Any, Any] | None, exc: HTTPException) -> Response[bytes]:
    if isinstance(exc, ValidationException):
        extra = exc.extra if isinstance(exc.extra, list) else []
        if any(isinstance(e, dict) and e.get("key") == "data" for e in extra):
            return _missing_body()
        errors = tuple(
            ProblemError(
                code="invalid-parameter",
                parameter=str(e.get("key", "")),
                detail=_parameter_detail(request, str(e.get("key", "")), str(e.get("message"))),
            )
            for e in extra
            if isinstance(e, dict)
        )
        if not errors and (missing := _MISSING_PARAMETER.search(exc.detail)):
            errors = (
                ProblemError(
                    code="missing-parameter",
                    parameter=missing["name"],
                    detail=f"'{missing['name']}' is required.",
                ),
            )
        detail = errors[0].detail if len(errors) == 1 else "A parameter is invalid."
        if len(errors) == 1 and errors[0].code == "invalid-parameter" and errors[0].parameter:
            detail = f"{errors[0].parameter}: {detail}"
        return problem_response("invalid-parameter", detail, errors=errors)
    code = _CODE_OF_EXCEPTION.get(type(exc)) or _STATUS_CODES.get(exc.status_code)
    if code is None and CLIENT_GONE.get():
        return problem_response("internal-error", "The client left before its body arrived.")
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
                str(exc.code),
                exc.detail,
                errors=tuple(_concern_error(c) for c in exc.concerns),
                extensions=exc.extensions,
            )
        case InvalidBodyError():
            return _invalid_body(exc.violation)
        case msgspec.ValidationError():  # a body decoded without its model at hand
            return _invalid_body(explain(Any, exc))
        case msgspec.DecodeError():
            return problem_response(
                "malformed-json",
                str(exc),
                errors=(ProblemError(code="malformed-json", pointer="", detail=str(exc)),),
            )
        case MissingBodyError():
            return _missing_body()
        case UnreadableBodyError():
            return problem_response(
                "malformed-json",
                exc.detail,
                errors=(ProblemError(code=exc.code, pointer="", detail=exc.detail),),
            )
        case UnreplicatedError():
            _log.warning("write_unreplicated", acknowledged=exc.acknowledged, wanted=exc.wanted)
            return problem_response(
                "store-unavailable",
                UNREPLICATED_DETAIL,
                headers={"Retry-After": str(request.app.state.settings.redis_retry_after_seconds)},
            )
        case StoreError():
            retry_after = request.app.state.settings.redis_retry_after_seconds
            redis_error = type(exc.__cause__).__name__ if exc.__cause__ else None
            if is_out_of_memory(exc.__cause__):
                _log.error("state_store_full", error=str(exc.__cause__), redis_error=redis_error)
                return problem_response(
                    "state-store-full",
                    "Session state (Redis) is full and refused the write; nothing was written.",
                    headers={"Retry-After": str(retry_after)},
                )
            _log.warning("state_store_unavailable", error=str(exc), redis_error=redis_error)
            return problem_response(
                "store-unavailable",
                "Session state (Redis) is unreachable; retry later.",
                headers={"Retry-After": str(retry_after)},
            )
        case HTTPException():
            return _http_exception(request, exc)
        case _:
            _log.exception("unhandled_exception", error_type=type(exc).__name__)
            return problem_response("internal-error", "Unexpected error.")


def is_out_of_memory(error: BaseException | None) -> bool:
    """Whether Redis refused a command for its ``maxmemory`` (from a script too, where the
    refusal comes back as the script's error)."""
    return isinstance(error, OutOfMemoryError) or (
        error is not None and "OOM command not allowed" in str(error)
    )


# What each status means on any operation; the problem's `type` and `errors[].code` say
# exactly which refusal it is (GET /problems lists them all).
_STATUS_MEANINGS = {
    400: "The body or a parameter is malformed or breaks the schema.",
    401: "A token or API key is missing or wrong.",
    403: "The token is valid but its role may not do this.",
    404: "No such resource, or it has expired.",
    409: "Conflicts with the session's state or another request in flight.",
    408: "The body did not arrive within BODY_READ_TIMEOUT_SECONDS.",
    412: "If-Match names another version of the session.",
    413: "The body is larger than MAX_BODY_BYTES.",
    415: "The body is not JSON.",
    422: "A rule refuses the request (see `errors[].code`), or an Idempotency-Key was "
    "reused with another request.",
    503: "The state store (Redis) is unreachable or full, or no more event streams fit.",
}


def problem_responses(
    *statuses: int,
    meanings: Mapping[int, str] | None = None,
    problem: type[Problem] = Problem,
) -> dict[int, ResponseSpec]:
    """OpenAPI entries declaring that an operation may answer ``statuses`` with problems;
    ``meanings`` says what a status means on this operation, where it differs.

    ``problem`` is the schema of every problem the operation answers: :class:`Problem`,
    or a subclass declaring the extension members (RFC 9457 §3.2) its problems can carry,
    each optional (``UNSET``). One schema for all of an operation's statuses (the shell's
    401, 408 and 429 too: :mod:`service.http.contract.openapi_contract`) gives a generated client
    one error type to read them from (openapi-fetch's ``error``), with no narrowing."""
    return {
        status: ResponseSpec(
            data_container=problem,
            media_type=PROBLEM_MEDIA_TYPE,
            description=(meanings or {}).get(status, _STATUS_MEANINGS[status]),
        )
        for status in statuses
    }
