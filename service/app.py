"""``create_app(settings)``: the one place the service is wired together."""

from __future__ import annotations

import asyncio
import gc
import signal
import threading
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from litestar import Litestar, Router
from litestar.datastructures import ResponseHeader, State
from litestar.di import Provide
from litestar.exceptions import NotFoundException
from litestar.openapi import OpenAPIConfig
from litestar.openapi.spec import Components, SecurityScheme, Tag
from litestar.static_files import create_static_files_router
from structlog import get_logger
from swagger_ui_bundle import swagger_ui_path

from service.compat.litestar import remember_routes, resolve_exception_handlers_once
from service.configuration import check_settings
from service.hosted import RULESETS
from service.http.contract.problem_types import RETRY_AFTER, register_problems
from service.http.contract.problems import handle_exception
from service.http.contract.registry import RulesetList
from service.http.odds.gate import OddsGate
from service.http.receipts.published_keys import PublishedKeys
from service.http.receipts.roll_keys import RollKeys
from service.http.receipts.routes import ReceiptController
from service.http.receipts.signing import RollReceipts
from service.http.shell.cors import CorsPolicy
from service.http.shell.keys import ApiKeyGuard, ApiKeys, new_key, split_keys
from service.http.shell.middleware import RequestShell
from service.http.shell.openapi import Published, openapi_document, openapi_json
from service.http.shell.operations import (
    OperationsController,
    Readiness,
    RulesetIndexController,
    ruleset_index,
    store_condition,
)
from service.http.shell.ratelimit import RateLimiter
from service.kernel.dice import RandomSource, strong
from service.logging import configure_logging
from service.metrics import flush_requests
from service.sessions.client import ReplicaWait, make_client
from service.sessions.host import SessionHost
from service.sessions.quota import SessionQuota
from service.sessions.stream import StreamGate
from service.sessions.stream_leases import StreamLeases, lease_ms_for
from service.settings import Settings

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from types import FrameType


__all__ = ["API_VERSION", "create_app", "published_openapi"]

API_VERSION = "1.0.0"
_DESCRIPTION = """\
Runs tabletop role-playing games for other software. `GET /v1/rulesets` lists the games
hosted and where their routes are mounted. Where a book is ambiguous the service applies
the decisions listed in each game's guide, `docs/<ruleset id>.md` in the project's
repository.

Every error is an RFC 9457 `application/problem+json` document whose `type` resolves at
`GET /problems/{code}`; validation problems list each error with a JSON pointer. One
exception, undeclared on the operations because the service never sees the request: the
server answers 431 with no body to request headers over `MAX_HEADER_BYTES` (16 KiB by
default) or more than 100 fields, and closes a connection whose headers take longer than
`HEADER_READ_TIMEOUT_SECONDS` (10 s). A body slower than `BODY_READ_TIMEOUT_SECONDS` is a
408 problem (`body-too-slow`).

Every odds operation (`…/odds`) estimates its request's cost before computing anything:
within `ODDS_INLINE_MS` (2 ms) the worker computes it, within `ODDS_MAX_MS` (1 s) a pool
of processes beside the worker does, so no odds stall other requests; costlier odds are
refused with 422 `odds-too-costly` (the limit and the estimate named). A full pool, or a
pooled computation still running at its deadline (`ODDS_DEADLINE_MS`, 5 s by default:
its process is killed), answers 503 `odds-busy` with Retry-After. A repeated request is
answered from the worker's cache; `Server-Timing` says which path served it.
"""


def _description() -> str:
    games = "\n".join(f"* **{r.title}** (`{r.route_prefix}`): {r.description}" for r in RULESETS)
    return f"{_DESCRIPTION}\n{games}\n"


OPENAPI_LINKS = {operation: links for r in RULESETS for operation, links in r.links.items()}
SCHEMA_PREFIXES = {
    operation: r.schema_prefix for r in RULESETS for operation, _, _ in r.operations()
}
# The published document by whether API keys are required: it depends on nothing else (the
# registry is fixed per process), and building it is most of an app's start-up (0.4 s).
_PUBLISHED: dict[bool, bytes] = {}


# Young objects a worker allocates (net) before the cycle collector runs; Python's default
# is 700. A session request leaves dozens alive (the remembered copies and their history),
# so at 700 the collector ran every dozen requests and walked the older generations often:
# 33 µs of a conflict round's CPU and 20 of a read's, in process with 2 000 open
# conflicts (`python -m tests.bench.profile`'s GC watch), against 4 and 1 at 10 000, whose
# slowest pause was no longer. Cycles are rare here: reference counting frees the rest.
YOUNG_OBJECTS_PER_COLLECTION = 10_000


# Paths whose routing Litestar keeps (its own default: 1 024). Every session's id makes
# paths of its own, so a worker serving more open sessions than that walked the route trie
# again on nearly every session request (about 23 kIr); each path kept costs about 0.8 KiB
# (tracemalloc), so 6 MiB at most.
ROUTES_REMEMBERED = 8192


def _fast_paths(app: Litestar) -> None:
    # Both rest on Litestar's internals (service.compat.litestar); FAST_PATHS=off skips them.
    remember_routes(app, ROUTES_REMEMBERED)
    resolve_exception_handlers_once(app)


def _settle_memory(_: Litestar) -> None:
    """Keep what start-up built (modules, routes, the OpenAPI document) out of the cycle
    collector's passes: they live as long as the worker, and walking them again on every
    full collection was what made a busy worker's slowest answers slow. Then let the
    young generation grow before each pass (:data:`YOUNG_OBJECTS_PER_COLLECTION`)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS_PER_COLLECTION, *gc.get_threshold()[1:])


def _end_event_streams_on_stop(app: Litestar) -> None:
    """Chain onto the server's own SIGTERM and SIGINT handling: open event streams end at
    once (their clients resume with Last-Event-ID) instead of holding a stopping worker
    for the whole grace period, since a stream never finishes by itself."""
    if threading.current_thread() is not threading.main_thread():
        return  # only the main thread receives signals (an app run by a test client)
    loop = asyncio.get_running_loop()
    stopping: asyncio.Event = app.state.sessions.stopping
    for signum in (signal.SIGTERM, signal.SIGINT):
        previous = signal.getsignal(signum)
        if not callable(previous):
            continue  # no server handler to chain onto: leave the default alone

        def on_stop(number: int, frame: FrameType | None, then: Any = previous) -> None:
            loop.call_soon_threadsafe(stopping.set)
            then(number, frame)

        signal.signal(signum, on_stop)


def _roll_keys(settings: Settings) -> RollKeys:
    """The keys receipts are signed with: ``ROLL_SIGNING_KEYS``, or one made now (said in
    the log unless ``python -m service`` made it for its workers and said so itself)."""
    if settings.roll_signing_keys is None:
        keys = RollKeys.generate()
        get_logger("service").info(
            "roll signing key generated",
            kid=keys.signing.kid,
            note="ROLL_SIGNING_KEYS is not set: this key's public half is published through "
            "Redis to every replica's JWKS while this process runs and for "
            f"ROLL_KEY_RETENTION_SECONDS ({settings.roll_key_retention_seconds}) after; set "
            "it for receipts that verify online longer",
        )
        return keys
    return RollKeys.parse(
        settings.roll_signing_keys, generated=settings.roll_signing_keys_generated
    )


def _api_keys(settings: Settings) -> ApiKeys:
    """The configured keys under ``API_KEY_SECRET``, or under a secret made now (said in
    the log: replicas with different secrets count one key's rate limit apart)."""
    keys = split_keys(settings.api_keys)
    secret = settings.api_key_secret
    if secret is None:
        secret = new_key()
        if keys:
            get_logger("service").warning(
                "api key secret generated",
                note="API_KEY_SECRET is not set: this process keeps its API keys under a "
                "secret of its own; give every replica the same one "
                "(python -m service.http.shell.keys makes one)",
            )
    return ApiKeys(keys, secret)


def _flush_metrics(_: Litestar) -> None:
    """A stopping worker writes out the requests it counted since its last flush."""
    flush_requests()


def _hidden(*_: Any) -> None:
    """Guard for Litestar's own schema routes: the service publishes its own document."""
    raise NotFoundException


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
    settings = check_settings(settings or Settings.from_env())
    configure_logging(settings)
    cors = CorsPolicy.from_setting(settings.cors_origins)

    @asynccontextmanager
    async def redis_client(app: Litestar) -> AsyncIterator[None]:
        # Made here, never at import: each event loop (worker, test client) gets its own.
        client = make_client(settings)
        streams_client = make_client(settings, for_streams=True)
        app.state.sessions = SessionHost(
            settings=settings,
            client=client,
            streams_client=streams_client,
            stopping=asyncio.Event(),  # set when the worker is told to stop
            gate=StreamGate(settings.sse_max_connections),
            leases=StreamLeases(
                client,
                per_session=settings.sse_max_per_session,
                per_client=settings.sse_max_per_client,
                lease_ms=lease_ms_for(settings.sse_keep_alive_seconds),
                retry_after=RETRY_AFTER["too-many-client-streams"],
            ),
            quota=SessionQuota(
                client,
                per_client=settings.sessions_per_client,
                set_ttl_ms=2 * settings.session_ttl_max_seconds * 1000,
            ),
            rng=server_rng,
            replicas=(
                ReplicaWait(settings.redis_wait_replicas, settings.redis_wait_timeout_ms)
                if settings.redis_wait_replicas
                else None
            ),
        )
        limiter = RateLimiter(settings, make_client(settings)) if settings.rate_limit else None
        shell.rate_limiter = limiter
        if published is not None:
            published.start(client)
        try:
            yield
        finally:
            if published is not None:
                await published.aclose()
            await client.aclose()
            await streams_client.aclose()
            if limiter is not None:
                await limiter.aclose()

    @asynccontextmanager
    async def odds_gate(app: Litestar) -> AsyncIterator[None]:
        # Per app, like the Redis client: each worker its own cache and (lazily) its pool.
        app.state.odds_gate = gate = OddsGate(settings)
        try:
            yield
        finally:
            await gate.aclose()

    def publish_openapi(app: Litestar) -> None:
        keys_required = api_keys.required
        if (document := _PUBLISHED.get(keys_required)) is None:
            document = openapi_json(
                openapi_document(
                    app,
                    OPENAPI_LINKS,
                    api_keys_required=keys_required,
                    schema_prefixes=SCHEMA_PREFIXES,
                )
            )
            _PUBLISHED[keys_required] = document
        app.state.openapi_json = Published.of(document)

    server_rng: RandomSource = rng or strong()

    def provide_rng() -> RandomSource:
        return server_rng

    roll_keys = _roll_keys(settings)
    # Generated keys are shared through Redis (from the lifespan on); configured ones every
    # replica has already.
    published = (
        PublishedKeys(roll_keys, retention_seconds=settings.roll_key_retention_seconds)
        if roll_keys.generated
        else None
    )
    receipts = RollReceipts(roll_keys, published)  # in the state: see service.http.receipts.signing
    api_keys = _api_keys(settings)

    for ruleset in RULESETS:
        register_problems(ruleset.problems)
    index = ruleset_index(RULESETS)

    def provide_index() -> RulesetList:
        return index

    def provide_settings() -> Settings:
        return settings

    def provide_readiness(state: State) -> Readiness:
        sessions: SessionHost = state.sessions

        async def ready() -> str:
            condition = await store_condition(sessions.client, settings.redis_socket_timeout)
            if condition == "ready" and published is not None and not published.published:
                # Ready only once other replicas can find this one's key: a first heartbeat
                # not yet answered, or one that failed, is sent now.
                condition = await published.beat()
            return condition

        return ready

    def provide_odds_gate(state: State) -> OddsGate:
        gate: OddsGate = state.odds_gate
        return gate

    def provide_openapi(state: State) -> Published:
        document: Published = state.openapi_json
        return document

    app = Litestar(
        route_handlers=[
            *(ruleset.router for ruleset in RULESETS),
            RulesetIndexController,
            ReceiptController,
            OperationsController,
            create_static_files_router(
                path="/docs/assets", directories=[swagger_ui_path], include_in_schema=False
            ),
        ],
        dependencies={
            "rng": Provide(provide_rng, sync_to_thread=False),
            "ruleset_index": Provide(provide_index, sync_to_thread=False),
            "settings": Provide(provide_settings, sync_to_thread=False),
            "readiness": Provide(provide_readiness, sync_to_thread=False),
            "openapi_document": Provide(provide_openapi, sync_to_thread=False),
            "odds_gate": Provide(provide_odds_gate, sync_to_thread=False),
        },
        exception_handlers={Exception: handle_exception},
        guards=[ApiKeyGuard(api_keys)] if api_keys.required else [],
        cors_config=cors.config,
        lifespan=[redis_client, odds_gate],
        on_startup=[
            publish_openapi,
            *([_settle_memory, _end_event_streams_on_stop] if worker else []),
        ],
        on_shutdown=[_flush_metrics],
        state=State({"settings": settings, "receipts": receipts, "api_keys": api_keys}),
        request_max_body_size=settings.max_body_bytes,
        response_headers=[
            ResponseHeader(
                name="X-Request-ID",
                description="The request's id: echoed from the request, or generated.",
                documentation_only=True,
            )
        ],
        openapi_config=OpenAPIConfig(
            title="Tabletop rules service",
            version=API_VERSION,
            description=_description(),
            tags=[
                *(tag for ruleset in RULESETS for tag in ruleset.tags),
                Tag(
                    name="receipts",
                    description="Signed roll receipts of every ruleset: the public keys and "
                    "a verifier (docs/verifiable-rolls.md).",
                ),
                Tag(
                    name="operations",
                    description="Health, readiness, problem types, the hosted rulesets.",
                ),
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
                    "sceneToken": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="An OpenD6 scene's GM or player token, from its "
                        "creation. Scene routes also accept it as the X-Scene-Token header.",
                    ),
                    "sceneTokenHeader": SecurityScheme(
                        type="apiKey",
                        name="X-Scene-Token",
                        security_scheme_in="header",
                        description="An OpenD6 scene's token in its own header (leaves "
                        "Authorization free for an API key as a bearer token).",
                    ),
                    "gameToken": SecurityScheme(
                        type="http",
                        scheme="bearer",
                        description="A travelogue game's player token, from its creation. "
                        "Game routes also accept it as the X-Game-Token header.",
                    ),
                    "gameTokenHeader": SecurityScheme(
                        type="apiKey",
                        name="X-Game-Token",
                        security_scheme_in="header",
                        description="A travelogue game's player token in its own header "
                        "(leaves Authorization free for an API key as a bearer token).",
                    ),
                    "conflictTokenHeader": SecurityScheme(
                        type="apiKey",
                        name="X-Conflict-Token",
                        security_scheme_in="header",
                        description="A conflict's GM or player token in its own header "
                        "(leaves Authorization free for an API key as a bearer token).",
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
    if settings.fast_paths == "on":
        _fast_paths(app)
    shell = RequestShell(
        app.asgi_handler,
        api_keys=api_keys,
        body_read_seconds=settings.body_read_timeout_seconds,
        cors=cors,
    )
    app.asgi_handler = shell
    return app


def published_openapi(settings: Settings) -> bytes:
    """The OpenAPI document an app built with ``settings`` serves at ``/openapi.json``."""
    return openapi_json(
        openapi_document(
            create_app(settings),
            OPENAPI_LINKS,
            api_keys_required=bool(split_keys(settings.api_keys)),
            schema_prefixes=SCHEMA_PREFIXES,
        )
    )
