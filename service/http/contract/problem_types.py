"""The problem catalog: every problem ``type`` the service can answer with, each resolvable
at ``GET /problems/{code}``. The shell's own types are here; each ruleset registers its
rule codes into it (a ruleset's codes carry its id: ``/problems/<id>/<code>``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from service.kernel.values import Value

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["PROBLEM_TYPES", "RETRY_AFTER", "ProblemType", "problem_type", "register_problems"]


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
            "The JSON body is well-formed but breaks the published schema. The error "
            "points at the offending member (a JSON pointer) and says why, with a code: "
            "unknown-field, missing-field, wrong-type, invalid-choice (the allowed values "
            "listed), pattern-mismatch (described by an example) or out-of-range (a "
            "number's bounds, a string's or list's length).",
        ),
        _type("malformed-json", 400, "Malformed JSON", "The body is not valid JSON."),
        _type(
            "invalid-precondition",
            400,
            "Malformed precondition",
            "If-Match or If-None-Match is not `*` nor a list of entity-tags (RFC 9110 "
            '§8.8.3): an entity-tag is quoted, `"3"` (a weak one `W/"3"`), and several are '
            "separated by commas. Send the ETag as it came.",
        ),
        _type(
            "transfer-encoding-refused",
            400,
            "Transfer-Encoding refused",
            "Bodies are framed by Content-Length only. A request carrying Transfer-Encoding "
            "— alone, or beside a Content-Length, the ambiguity request smuggling through a "
            "proxy relies on (RFC 9112 §6.1, §6.3) — is refused before its body is read, "
            "and the connection is closed.",
        ),
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
            "body-too-slow",
            408,
            "Body too slow",
            "The request's body did not arrive within BODY_READ_TIMEOUT_SECONDS (10 s by "
            "default) of its headers; the connection is closed. Nothing was applied.",
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
            "Session token missing or not accepted",
            "Session routes (a conflict, a scene, …) need one of that session's tokens: "
            "Authorization: Bearer <token>, or the ruleset's token header "
            "(X-Conflict-Token for Bullseye conflicts); an event stream also takes a stream "
            "ticket.",
        ),
        _type(
            "api-key-required",
            401,
            "API key missing or not accepted",
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
            "outcome check and deletes, and a player submits only their own checks.",
        ),
        _type(
            "cors-refused",
            403,
            "Cross-origin call refused",
            "A browser's preflight for a call from a page of another origin was refused: "
            "the origin is not in CORS_ORIGINS (or CORS_ORIGINS is empty), or the method or "
            "a request header is not one the service takes. `errors` names each refusal "
            "(`origin-not-allowed`, `method-not-allowed`, `header-not-allowed`) and the "
            "preflight header it read.",
        ),
        _type(
            "concurrent-update",
            409,
            "Concurrent update",
            "Too many clients changed the session at the same moment (or a new session's "
            "id was taken): nothing was written; retry after Retry-After seconds.",
        ),
        _type(
            "request-in-flight",
            409,
            "Request in flight",
            "The first request with this Idempotency-Key has not finished; retry after "
            "Retry-After seconds to get its answer.",
        ),
        _type(
            "session-full",
            409,
            "Session full",
            "The session's stored record (state, history, tokens and the answers kept for "
            "Idempotency-Keys) would pass its ceiling (SESSION_MAX_BYTES, 1 MiB by default); "
            "nothing was written. End it and start another.",
        ),
        _type(
            "ttl-too-long",
            422,
            "Session TTL too long",
            "A session's `ttl_seconds` asks it to wait untouched longer than this "
            "deployment allows (SESSION_TTL_MAX_SECONDS, 24 h by default).",
        ),
        _type(
            "client-seeds-at-creation",
            422,
            "Client seeds at creation",
            "A provably fair session publishes its commitment before it takes any client "
            "seed, so the creation body's `client_seeds` (deprecated) must be absent, null "
            "or empty. Create the session, then let each participant add its own seed with "
            "its token: `POST …/{id}/client-seeds`.",
        ),
        _type(
            "client-seeds-without-server-dice",
            422,
            "Client seeds without the server's dice",
            "Client seeds feed the server's provably fair dice; a session whose dice are "
            "the table's (or a caller-seeded game's) has none to feed: it takes no client "
            "seed, at creation or after, and awaits none (`await_client_seeds`).",
        ),
        _type(
            "client-seed-already-given",
            409,
            "Client seed already given",
            "This participant (the one the token opens) has added its client seed to the "
            "session already; each participant adds one, and nobody adds another's.",
        ),
        _type(
            "client-seeds-closed",
            409,
            "Client seeds closed",
            "The session's first action that draws the server's dice has been made (or the "
            "session has ended): the client seeds are closed, and a seed now is refused, "
            "changing nothing.",
        ),
        _type(
            "client-seeds-awaited",
            409,
            "Client seeds awaited",
            "The session was created with `await_client_seeds: true` and some participant "
            "has not added its client seed yet: no action draws the server's dice before "
            "then. `awaiting` (and the session's `fairness.awaiting_seeds`) names them; "
            "nothing was applied. Actions that roll nothing go ahead.",
        ),
        _type(
            "receipts-without-server-dice",
            422,
            "Receipts without the server's dice",
            "`receipts: true` asks a session to sign every action that rolls the server's "
            "dice; a session whose dice are the table's (or a caller-seeded game's) rolls "
            "none, so no receipt would ever come. Create it without `receipts`, or with "
            "the server's dice.",
        ),
        _type(
            "too-many-streams",
            503,
            "Too many event streams",
            "This worker holds as many event streams open as SSE_MAX_CONNECTIONS allows; "
            "retry after Retry-After seconds (another replica may take it).",
        ),
        _type(
            "too-many-client-streams",
            429,
            "Too many event streams for this client",
            "This client (its API key, else its address) holds as many event streams open, "
            "over every worker and replica, as SSE_MAX_PER_CLIENT allows; close one, or "
            "retry after Retry-After seconds.",
        ),
        _type(
            "too-many-session-streams",
            429,
            "Too many event streams on this session",
            "This session has as many event streams open, over every worker and replica, "
            "as SSE_MAX_PER_SESSION allows; close one, or retry after Retry-After seconds.",
        ),
        _type(
            "too-many-sessions",
            429,
            "Too many live sessions",
            "This client (its API key, else its address) keeps as many live sessions as "
            "SESSIONS_PER_CLIENT allows: end one (DELETE) or let one expire; Retry-After "
            "says when the first one expires untouched.",
        ),
        _type(
            "odds-busy",
            503,
            "Odds pool busy",
            "Odds too heavy to compute in line are computed in a pool of processes, and "
            "every place in this worker's pool is taken (ODDS_WORKERS computing, ODDS_QUEUE "
            "waiting), or a pool process died while computing this request, or the "
            "computation ran past its deadline (ODDS_DEADLINE_MS, five times ODDS_MAX_MS "
            "by default, from when its process took it) and was abandoned, its process "
            "replaced. The `detail` says which. Retry after Retry-After seconds.",
        ),
        _type(
            "odds-too-costly",
            422,
            "Odds too costly",
            "The odds asked for would take longer to compute than the service allows for "
            "one request (ODDS_MAX_MS, 1000 ms by default; the inline budget ODDS_INLINE_MS "
            "when the deployment runs no odds pool). The cost is estimated from the request "
            "before anything is computed, the same on every machine: `estimated_cost_ms` "
            "says the estimate and `max_cost_ms` the limit. Ask for fewer dice or smaller "
            "differences.",
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
        _type(
            "state-store-full",
            503,
            "State store full",
            "Redis refused the write: it has reached its maxmemory and evicts nothing "
            "(or nothing evictable is left). Nothing was written; stateless routes still "
            "answer. Operators: raise maxmemory or lower session TTLs.",
        ),
    )
}


# The problems a retry can cure, and how many seconds to wait unless the raiser names its
# own wait (the state store's REDIS_RETRY_AFTER_SECONDS, the rate limit's window). Their
# answers always carry Retry-After and no other answer does, rule conflicts included
# (service.http.contract.problems.problem_response applies it to every problem).
RETRY_AFTER: dict[str, int] = {
    "concurrent-update": 1,  # a lost compare-and-set: the next try reads the new version
    "request-in-flight": 1,  # the first request with the key is about to finish
    "rate-limited": 1,
    "store-unavailable": 2,
    "state-store-full": 2,
    "too-many-streams": 2,
    "too-many-client-streams": 5,  # a stream that ends gives its place back at once
    "too-many-session-streams": 5,
    "too-many-sessions": 60,
    "odds-busy": 1,  # a place frees as soon as one computation ends
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
