"""``create_app(settings)``: the one place the service is wired together."""

from __future__ import annotations

import asyncio
import gc
import secrets
import signal
import threading
import time
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from litestar import Litestar, Router
from litestar.config.cors import CORSConfig
from litestar.datastructures import ResponseHeader, State
from litestar.di import Provide
from litestar.enums import ScopeType
from litestar.exceptions import NotFoundException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme, Tag
from litestar.static_files import create_static_files_router
from swagger_ui_bundle import swagger_ui_path

from service.api.access import ApiKeyGuard, key_hashes
from service.api.characters import CharacterController
from service.api.checks import CheckController
from service.api.conflicts import CREATED_LINKS, ConflictController
from service.api.context import REQUEST_ID, new_id
from service.api.openapi import openapi_document, openapi_json
from service.api.operations import OperationsController
from service.api.problems import handle_exception, problem_response
from service.api.ratelimit import Decision, RateLimiter, identity_of
from service.api.reference import ConditionController, TableController
from service.bullseye.dice import RandomSource
from service.logging import configure_logging, log_request
from service.metrics import RATE_LIMITED, observe_request
from service.settings import Settings
from service.store.client import make_client
from service.store.conflicts import ConflictStore

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from types import FrameType

    from litestar.types import Message, Receive, Scope, Send

__all__ = ["API_VERSION", "BullseyeApp", "create_app", "published_openapi"]

API_VERSION = "1.0.0"
MAX_REQUEST_ID = 128
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


_DESCRIPTION = """\
Runs the tabletop role-playing game **Bullseye v1.0** for other software: d20 checks with
the book's modifier rules, conditions from depletable scores, and the narrative tables.
Section numbers (§2.1.2) refer to the rulebook. Where the book is ambiguous the service
applies the decisions listed in the project README's "Rules as applied, and decisions".

Every error is an RFC 9457 `application/problem+json` document whose `type` resolves at
`GET /problems/{code}`; validation problems list each error with a JSON pointer.
"""

OPENAPI_LINKS = {"createConflict": CREATED_LINKS}


def _valid_request_id(raw: bytes) -> str | None:
    text = raw.decode("latin-1")
    if 0 < len(text) <= MAX_REQUEST_ID and text.isascii() and text.isprintable():
        return text
    return None


class BullseyeApp(Litestar):
    """Litestar with one outermost layer per HTTP request: the request id and the access log.

    It wraps the whole app, so 404s for unknown routes and every other framework error
    carry ``X-Request-ID`` and are logged too. Bodies and credentials are never logged.
    """

    async def _rate_decision(self, scope: Scope) -> Decision | None:
        """The limiter's word on a /v1 request (None: no limit, or Redis cannot say)."""
        limiter: RateLimiter | None = self.state.rate_limiter
        if limiter is None or not scope["path"].startswith("/v1/"):
            return None
        if scope.get("method") == "OPTIONS":
            return None
        api_key = None
        if self.state.settings.api_keys:
            headers = dict(scope["headers"])
            api_key = headers.get(b"x-api-key", b"").decode("latin-1") or None
            scheme, _, token = headers.get(b"authorization", b"").decode("latin-1").partition(" ")
            if api_key is None and scheme.lower() == "bearer":
                api_key = token.strip() or None
        client = scope.get("client")
        return await limiter.decide(identity_of(api_key, client[0] if client else None))

    async def __call__(  # type: ignore[override]  # plain ASGI types, as Litestar's own middleware
        self, scope: Scope, receive: Receive, send: Send
    ) -> None:
        if scope["type"] != ScopeType.HTTP:
            await super().__call__(scope, receive, send)
            return
        request_id = None
        for name, value in scope["headers"]:
            if name == b"x-request-id":
                request_id = _valid_request_id(value)
                break
        request_id = request_id or new_id()
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        status = 500
        decision = await self._rate_decision(scope) if self.state.rate_limiter else None
        added = [
            *(DOCS_HEADERS if scope["path"] == "/docs" else SECURITY_HEADERS),
            *(decision.headers() if decision else ()),
            (b"x-request-id", request_id.encode()),
        ]

        async def send_with_id(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", ()), *added]
            await send(message)

        try:
            if decision is not None and not decision.allowed:
                RATE_LIMITED.inc()
                refusal = problem_response(
                    "rate-limited",
                    f"More than {decision.limit} requests in the window; retry in "
                    f"{max(1, decision.reset_seconds)} s.",
                )
                await refusal.to_asgi_response(app=None, request=None)(  # type: ignore[arg-type]
                    scope, receive, send_with_id
                )
                return
            await super().__call__(scope, receive, send_with_id)
        finally:
            elapsed = time.perf_counter() - started
            method, route = scope["method"], scope.get("path_template", "unmatched")
            observe_request(method, route, status, elapsed)
            log_request(
                {
                    "request_id": request_id,
                    "method": method,
                    "path": scope["path"],
                    "status": status,
                    "duration_ms": round(elapsed * 1000, 3),
                    "conflict_id": scope.get("path_params", {}).get("conflict_id"),
                }
            )
            REQUEST_ID.reset(token)


def _settle_memory(_: Litestar) -> None:
    """Keep what start-up built (modules, routes, the OpenAPI document) out of the cycle
    collector's passes: they live as long as the worker, and walking them again on every
    full collection was what made a busy worker's slowest answers slow."""
    gc.collect()
    gc.freeze()


def _end_event_streams_on_stop(app: Litestar) -> None:
    """Chain onto the server's own SIGTERM and SIGINT handling: open event streams end at
    once (their clients resume with Last-Event-ID) instead of holding a stopping worker
    for the whole grace period, since a stream never finishes by itself."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread receives signals (an app run by a test client)
    loop = asyncio.get_running_loop()
    stopping: asyncio.Event = app.state.stopping
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        if not callable(previous):
            continue  # no server handler to chain onto: leave the default alone

        def on_stop(number: int, frame: FrameType | None, then: Any = previous) -> None:
            loop.call_soon_threadsafe(stopping.set)
            then(number, frame)

        signal.signal(signum, on_stop)


def _hidden(*_: Any) -> None:
    """Guard for Litestar's own schema routes: the service publishes its own document."""
    raise NotFoundException


def _cors(settings: Settings) -> CORSConfig | None:
    origins = [origin.strip() for origin in settings.cors_origins.split(",") if origin.strip()]
    if not origins:
        return None
    return CORSConfig(
        allow_origins=origins,
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=[
            "Authorization",
            "Content-Type",
            "Idempotency-Key",
            "If-Match",
            "Last-Event-ID",
            "X-API-Key",
            "X-Conflict-Token",
            "X-Request-ID",
        ],
        expose_headers=["ETag", "Location", "Retry-After", "X-Request-ID"],
        max_age=600,
    )


def create_app(
    settings: Settings | None = None,
    *,
    rng: RandomSource | None = None,
    worker: bool = False,
) -> Litestar:
    """Build the app. ``rng`` replaces the server's dice (tests pass a seeded one).

    ``worker``: the app is a server worker's for the worker's whole life. What start-up
    built is frozen out of the cycle collector's passes (``gc.freeze``), and the stop
    signal also ends open event streams (both process-wide, hence not for tests' apps).
    """
    settings = settings or Settings.from_env()
    configure_logging(settings)

    @asynccontextmanager
    async def redis_client(app: Litestar) -> AsyncIterator[None]:
        # Made here, never at import: each event loop (worker, test client) gets its own.
        app.state.redis = make_client(settings)
        app.state.redis_streams = make_client(settings, for_streams=True)
        app.state.stopping = asyncio.Event()  # set when the worker is told to stop
        app.state.conflicts = ConflictStore(app.state.redis, recent_size=settings.recent_conflicts)
        app.state.rate_limiter = RateLimiter(settings) if settings.rate_limit else None
        try:
            yield
        finally:
            await app.state.redis.aclose()
            await app.state.redis_streams.aclose()

    def publish_openapi(app: Litestar) -> None:
        app.state.openapi_json = openapi_json(
            openapi_document(
                app, OPENAPI_LINKS, api_keys_required=bool(key_hashes(settings.api_keys))
            )
        )

    server_rng: RandomSource = rng or secrets.SystemRandom()

    def provide_rng() -> RandomSource:
        return server_rng

    return BullseyeApp(
        route_handlers=[
            CheckController,
            CharacterController,
            ConflictController,
            ConditionController,
            TableController,
            OperationsController,
            create_static_files_router(
                path="/docs/assets", directories=[swagger_ui_path], include_in_schema=False
            ),
        ],
        dependencies={"rng": Provide(provide_rng, sync_to_thread=False)},
        exception_handlers={Exception: handle_exception},
        guards=[ApiKeyGuard(hashes)] if (hashes := key_hashes(settings.api_keys)) else [],
        cors_config=_cors(settings),
        lifespan=[redis_client],
        on_startup=[
            publish_openapi,
            *([_settle_memory, _end_event_streams_on_stop] if worker else []),
        ],
        state=State({"settings": settings, "rate_limiter": None}),
        request_max_body_size=settings.max_body_bytes,
        response_headers=[
            ResponseHeader(
                name="X-Request-ID",
                description="The request's id: echoed from the request, or generated.",
                documentation_only=True,
            )
        ],
        openapi_config=OpenAPIConfig(
            title="Bullseye rules service",
            version=API_VERSION,
            description=_DESCRIPTION,
            tags=[
                Tag(name="checks", description="Stateless checks (§2)."),
                Tag(
                    name="characters", description="Character creation and its variants (§3.3, §7)."
                ),
                Tag(name="conflicts", description="Expanded conflicts (§4), state in Redis."),
                Tag(name="reference", description="Conditions and narrative tables."),
                Tag(name="operations", description="Health, readiness, problem types."),
            ],
            components=Components(
                security_schemes={
                    "apiKey": SecurityScheme(
                        type="apiKey",
                        name="X-API-Key",
                        security_scheme_in="header",
                        description="A service API key; required on /v1 routes only when "
                        "the deployment sets API_KEYS.",
                    ),
                    "apiKeyBearer": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="The service API key as a bearer token (then send a "
                        "conflict's token as X-Conflict-Token).",
                    ),
                    "conflictToken": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A conflict's GM or player token, from its creation. "
                        "Conflict routes also accept it as the X-Conflict-Token header.",
                    ),
                }
            ),
            openapi_router=Router(
                "/_litestar/schema", route_handlers=[], guards=[_hidden], include_in_schema=False
            ),
        ),
        logging_config=None,
        debug=False,
    )


def published_openapi(settings: Settings) -> bytes:
    """The OpenAPI document an app built with ``settings`` serves at ``/openapi.json``."""
    return openapi_json(
        openapi_document(
            create_app(settings),
            OPENAPI_LINKS,
            api_keys_required=bool(key_hashes(settings.api_keys)),
        )
    )
