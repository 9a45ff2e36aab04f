"""The outermost ASGI layer of every HTTP request: request id, rate limit, security headers,
metrics and the request log.

It wraps the app's whole handler (``Litestar.asgi_handler``, as Litestar's own OpenTelemetry
middleware does), so 404s for unknown routes, 405s and every other framework error carry
``X-Request-ID`` and are counted and logged too. Bodies and credentials are never logged.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any, Final

from litestar.enums import ScopeType
from litestar.utils import normalize_path

from service.http.contract.context import CLIENT_GONE, REQUEST_ID, new_id
from service.http.contract.errors import BodyTooSlow
from service.http.contract.problems import ProblemError, problem_response
from service.http.shell.compression import MIN_BYTES, accepts_gzip, gzipped
from service.logging import log_request
from service.metrics import RATE_LIMITED, observe_request

if TYPE_CHECKING:
    from litestar.response import Response
    from litestar.types import ASGIApp, Message, Receive, ReceiveMessage, Scope, Send

    from service.http.shell.cors import CorsPolicy
    from service.http.shell.keys import ApiKeys
    from service.http.shell.ratelimit import Decision, RateLimiter

__all__ = ["CLIENT_ABORT_STATUS", "MAX_REQUEST_ID", "RequestShell", "routed_path"]

MAX_REQUEST_ID = 128
# Bound once: reading an enum member off its class per request is an enum lookup.
_HTTP: Final = ScopeType.HTTP
# Recorded (not sent) for a request whose client left before the answer began: nginx's
# "client closed request", so aborts never count as the service's own 5xx.
CLIENT_ABORT_STATUS = 499
# The request headers the shell itself reads.
_READ_HERE: Final = frozenset((b"x-request-id", b"transfer-encoding", b"accept-encoding"))
SECURITY_HEADERS = (
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
)
# The docs page runs Swagger UI from this origin only (its one inline script included).
DOCS_HEADERS = (
    *SECURITY_HEADERS,
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self' 'unsafe-inline'; "
        b"style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
    ),
)


def _valid_request_id(raw: bytes) -> str | None:
    text = raw.decode("latin-1")
    if 0 < len(text) <= MAX_REQUEST_ID and text.isascii() and text.isprintable():
        return text
    return None


def _session_id(scope: Scope) -> str | None:
    """The id of the session a request acts on, from a path parameter named ``*_id``."""
    for name, value in scope.get("path_params", {}).items():
        if name.endswith("_id") and isinstance(value, str):
            return value
    return None


def routed_path(scope: Scope) -> str:
    """The path Litestar routes ``scope`` by (``ASGIRouter.__call__``): ``root_path`` cut
    off, then normalised (slashes collapsed, none trailing). Limits are decided on it, so
    that ``//v1/checks`` or ``/v1/checks/``, which reach ``/v1/checks``, count as it does."""
    path: str = scope["path"]
    if root_path := scope.get("root_path", ""):
        path = path.split(root_path, maxsplit=1)[-1]
    if path[:1] == "/" and "//" not in path and (path[-1:] != "/" or path == "/"):
        return path  # already normal: the common case, without normalize_path's regex
    return normalize_path(path)


def _route_of(scope: Scope) -> str:
    """The route template a refused request would have reached, for its metrics."""
    try:
        route = scope["app"].asgi_router.handle_routing(
            path=routed_path(scope), method=scope.get("method")
        )
    except Exception:  # an unknown path or method: Litestar's routing raises for those
        return "unmatched"
    return str(route[4])


class BodyDeadlines:
    """Refuses body reads that outlast their deadline (408), with one timer for all of them.

    ``asyncio.timeout`` around each read armed and cancelled a timer per request: 11 µs of
    a 100 µs check, measured in-process. Here a read only notes its task and deadline; the
    one timer, due at the earliest deadline noted, cancels the tasks found overdue, and
    their reads turn the cancellation into :class:`BodyTooSlow` (as ``asyncio.timeout``
    turns its own into ``TimeoutError``). Reads finish long before their deadline, so
    under load the timer fires about once per deadline period.
    """

    def __init__(self, seconds: float) -> None:
        self._seconds = seconds
        self._waiting: dict[asyncio.Task[Any], float] = {}  # reading task: its deadline
        self._overdue: set[asyncio.Task[Any]] = set()  # cancelled here, not yet resumed
        self._timer: asyncio.TimerHandle | None = None
        self._due = 0.0  # perf_counter time the timer fires at

    async def receive(self, receive: Receive, deadline: float) -> ReceiveMessage:
        """``receive()``, refused with :class:`BodyTooSlow` past ``deadline`` (perf_counter)."""
        task = asyncio.current_task()
        assert task is not None, "an ASGI app runs in a task"
        self._waiting[task] = deadline
        if self._timer is None or deadline < self._due:
            self._arm(deadline)
        try:
            return await receive()
        except asyncio.CancelledError:
            if task not in self._overdue:
                raise
            if task.uncancel() > 0:  # cancelled for another reason as well: that stands
                raise
            raise BodyTooSlow(
                detail=f"The body did not arrive within {self._seconds:g} s "
                "(BODY_READ_TIMEOUT_SECONDS); nothing was applied.",
                headers={"Connection": "close"},
            ) from None
        finally:
            self._waiting.pop(task, None)
            self._overdue.discard(task)

    def _arm(self, due: float) -> None:
        if self._timer is not None:
            self._timer.cancel()
        loop = asyncio.get_running_loop()
        self._due = due
        self._timer = loop.call_later(max(0.0, due - time.perf_counter()), self._expire)

    def _expire(self) -> None:
        self._timer = None
        now = time.perf_counter()
        for task, deadline in list(self._waiting.items()):
            if deadline <= now:
                del self._waiting[task]
                self._overdue.add(task)
                task.cancel()
        if self._waiting:
            self._arm(min(self._waiting.values()))


class RequestShell:
    """ASGI middleware around the app's handler; one per app.

    ``api_keys``: the configured API keys; a request presenting one of them is limited per
    key, any other per client address. The rate limiter is made in the app's
    lifespan, which sets ``rate_limiter``. ``body_read_seconds``: how long after its
    headers a request's whole body may take to arrive (servers bound only the headers).
    ``cors``: which pages of other origins may call; a preflight it refuses is answered
    here, with a problem.
    """

    def __init__(
        self,
        app: ASGIApp,
        *,
        api_keys: ApiKeys,
        body_read_seconds: float,
        cors: CorsPolicy,
    ) -> None:
        self._app = app
        self._cors = cors
        # With CORS on, an answer may differ by the request's Origin (its
        # Access-Control-Allow-Origin): every answer says so, or a shared cache could
        # hand one origin's answer to another's page.
        self._vary_origin = cors.config is not None
        self._api_keys = api_keys
        self._body_read_seconds = body_read_seconds
        self._deadlines = BodyDeadlines(body_read_seconds)
        # Set by the app's lifespan (RATE_LIMIT; None: off). An attribute of the app's
        # state cost a failed attribute lookup, an exception and a Python call per request.
        self.rate_limiter: RateLimiter | None = None

    async def _rate_decision(
        self, limiter: RateLimiter, scope: Scope, path: str
    ) -> Decision | None:
        """The limiter's word on a /v1 request (None: not limited, or Redis cannot say);
        ``path``: the routed path."""
        if not path.startswith("/v1/") or scope.get("method") == "OPTIONS":
            return None
        return await limiter.decide(self._api_keys.identity(scope))

    def _cors_refusal(self, scope: Scope) -> Response[bytes] | None:
        """The problem answering a CORS preflight that may not go ahead (None: it may, or
        this OPTIONS is no preflight)."""
        headers = {
            name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]
        }
        if "origin" not in headers or "access-control-request-method" not in headers:
            return None
        return self._cors.refusal(headers)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != _HTTP:
            await self._app(scope, receive, send)
            return
        request_id = None
        chunked = False
        gzip_ok = False
        for name, value in scope["headers"]:
            if name not in _READ_HERE:  # the usual header: one set lookup, not three tests
                continue
            if name == b"x-request-id":
                request_id = _valid_request_id(value)
            elif name == b"transfer-encoding":
                chunked = True
            else:
                gzip_ok = accepts_gzip(value)
        request_id = request_id or new_id()
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        deadline = started + self._body_read_seconds
        status = 500
        started_answer = False
        logged = False
        head = scope.get("method") == "HEAD"
        limiter = self.rate_limiter
        raw_path: str = scope["path"]
        # routed_path's common case inline (a call costs more than its test): no root
        # path, and a path already normal.
        if (
            raw_path[:1] == "/"
            and "//" not in raw_path
            and (raw_path[-1:] != "/" or raw_path == "/")
            and not scope.get("root_path")
        ):
            path = raw_path
        else:
            path = routed_path(scope)
        decision = await self._rate_decision(limiter, scope, path) if limiter else None
        added = [
            *(DOCS_HEADERS if path == "/docs" else SECURITY_HEADERS),
            *(decision.headers() if decision else ()),
            (b"x-request-id", request_id.encode()),
        ]

        def account() -> None:
            nonlocal logged
            if logged:
                return
            logged = True
            elapsed = time.perf_counter() - started
            method, route = scope["method"], scope.get("path_template", "unmatched")
            observe_request(method, route, status, elapsed)
            line = {
                "request_id": request_id,
                "method": method,
                "path": path,
                "status": status,
                # Whole microseconds: round(x, 3) on a float runs a decimal conversion.
                "duration_ms": round(elapsed * 1_000_000) / 1000,
                "session_id": _session_id(scope),
            }
            if status == CLIENT_ABORT_STATUS:
                line["client_abort"] = True
            if raw_path != path:  # another spelling of the routed path: shown as sent
                line["raw_path"] = raw_path
            log_request(line)

        async def receive_watching() -> ReceiveMessage:
            nonlocal status
            if started_answer:  # an answer streaming: only a disconnect can come
                return await receive()
            message = await self._deadlines.receive(receive, deadline)
            if message["type"] == "http.disconnect" and not started_answer:
                status = CLIENT_ABORT_STATUS
                CLIENT_GONE.set(True)
            return message

        # A start (and its headers) held while its body is gathered to compress.
        held: tuple[Message, list[tuple[bytes, bytes]]] | None = None
        gathered: list[bytes] = []

        async def send_with_id(message: Message) -> None:
            nonlocal status, started_answer, held
            if head and message["type"] == "http.response.body":
                # A HEAD answer is the GET answer's status and headers (Content-Length
                # included), never its body, whatever the route or server.
                message = {**message, "body": b""}
            if message["type"] == "http.response.start":
                started_answer = True
                if status == CLIENT_ABORT_STATUS:
                    return  # nobody to answer: the handler's error for the lost body
                status = message["status"]
                headers = [*message.get("headers", ()), *added]
                if self._vary_origin:
                    headers = _varying_by_origin(headers)
                message["headers"] = headers
                if gzip_ok and not head and _compressible(headers):
                    held = (message, headers)
                    return
            elif held is not None and message["type"] == "http.response.body":
                gathered.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                body = gzipped(b"".join(gathered))
                start, held_headers = held
                _mark_gzipped(held_headers, len(body))
                account()
                held = None
                await send(start)
                await send({"type": "http.response.body", "body": body, "more_body": False})
                return
            elif status == CLIENT_ABORT_STATUS:
                return
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                # Before the last byte leaves: a stopping server may end the worker as soon
                # as the client has it, before this coroutine runs again.
                account()
            await send(message)

        try:
            if chunked:
                await _answer(_transfer_encoding_refused(), scope, receive, send_with_id)
                return
            if scope.get("method") == "OPTIONS" and (refusal := self._cors_refusal(scope)):
                await _answer(refusal, scope, receive, send_with_id)
                return
            if decision is not None and not decision.allowed:
                scope["path_template"] = _route_of(scope)
                RATE_LIMITED.labels(scope["path_template"]).inc()
                refusal = problem_response(
                    "rate-limited",
                    f"More than {decision.limit} requests in the window; retry in "
                    f"{decision.retry_after} s.",
                    headers={"Retry-After": str(decision.retry_after)},
                )
                await _answer(refusal, scope, receive, send_with_id)
                return
            await self._app(scope, receive_watching, send_with_id)
        finally:
            account()
            REQUEST_ID.reset(token)
            if status == CLIENT_ABORT_STATUS:
                CLIENT_GONE.set(False)


def _compressible(headers: list[tuple[bytes, bytes]]) -> bool:
    """Whether an answer with ``headers`` is worth gzip: a known length of at least
    MIN_BYTES, not encoded already, not an event stream (whose frames must go out as they
    come)."""
    length = 0
    for name, value in headers:
        if name == b"content-length":
            length = int(value) if value.isdigit() else 0
        elif name == b"content-encoding" or (
            name == b"content-type" and value.startswith(b"text/event-stream")
        ):
            return False
    return length >= MIN_BYTES


def _mark_gzipped(headers: list[tuple[bytes, bytes]], length: int) -> None:
    """``headers`` of an answer now gzipped, ``length`` bytes long."""
    for index, (name, _) in enumerate(headers):
        if name == b"content-length":
            headers[index] = (name, str(length).encode())
    headers.append((b"content-encoding", b"gzip"))
    for index, (name, value) in enumerate(headers):
        if name.lower() == b"vary":
            headers[index] = (name, value + b", Accept-Encoding")
            return
    headers.append((b"vary", b"Accept-Encoding"))


def _varying_by_origin(headers: list[tuple[bytes, bytes]]) -> list[tuple[bytes, bytes]]:
    """``headers`` with ``Origin`` among the ``Vary`` names (once)."""
    for index, (name, value) in enumerate(headers):
        if name.lower() == b"vary":
            names = {part.strip().lower() for part in value.split(b",")}
            if b"origin" in names or b"*" in names:
                return headers
            headers[index] = (name, value + b", Origin")
            return headers
    headers.append((b"vary", b"Origin"))
    return headers


def _transfer_encoding_refused() -> Response[bytes]:
    """Bodies are framed by Content-Length only. A request with Transfer-Encoding beside a
    Content-Length is the ambiguity request smuggling relies on (RFC 9112 §6.1, §6.3), and
    granian drops the Content-Length before the app sees the request, so every request
    with Transfer-Encoding is refused, unread, and its connection closed."""
    return problem_response(
        "transfer-encoding-refused",
        "This service reads bodies framed by Content-Length only; a request with "
        "Transfer-Encoding is refused unread, and the connection closed.",
        errors=(
            ProblemError(
                code="transfer-encoding-refused",
                parameter="Transfer-Encoding",
                detail="Send the body with a Content-Length, without Transfer-Encoding.",
            ),
        ),
        headers={"Connection": "close"},
    )


async def _answer(response: Response[bytes], scope: Scope, receive: Receive, send: Send) -> None:
    """Send a response made here, before (instead of) the app."""
    asgi_response: Any = response.to_asgi_response(app=None, request=None)  # type: ignore[arg-type]
    await asgi_response(scope, receive, send)
