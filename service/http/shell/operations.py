"""Operational routes: health, readiness, problem types, the OpenAPI document and its docs."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import Annotated, Any, Literal

from litestar import Controller, HttpMethod, Request, get, route
from litestar.di import NamedDependency
from litestar.exceptions import NotFoundException
from litestar.openapi.spec import Example
from litestar.params import Parameter
from litestar.response import Response
from msgspec import Meta
from redis.exceptions import RedisError

from service.http.contract.errors import StoreFull, StoreUnavailable
from service.http.contract.preconditions import entity_tags
from service.http.contract.problem_types import PROBLEM_TYPES, ProblemType
from service.http.contract.problems import is_out_of_memory, problem_responses
from service.http.contract.registry import Ruleset, RulesetInfo, RulesetList
from service.http.receipts.signing import receipts_of
from service.http.shell.compression import accepts_gzip
from service.http.shell.openapi import Published
from service.kernel.values import Value
from service.metrics import CONTENT_TYPE, FLUSH_SECONDS, exposition, shared_by_workers
from service.settings import Settings

__all__ = [
    "DOCS_HTML",
    "Health",
    "OperationsController",
    "ProblemTypeList",
    "Readiness",
    "Ready",
    "RulesetIndexController",
    "ruleset_index",
    "store_condition",
]


# The state store's condition now: "ready", "unreachable" or "full" (see store_condition).
Readiness = NamedDependency[Callable[[], Awaitable[str]]]
READY_PROBE_KEY = "bullseye:readyz"


async def store_condition(client: Any, timeout: float) -> str:
    """``ready`` when Redis takes a tiny expiring write within ``timeout`` seconds, ``full``
    when it refuses it for its maxmemory, else ``unreachable``. A write, not a PING: a full
    Redis still answers PING."""
    try:
        await asyncio.wait_for(client.set(READY_PROBE_KEY, b"1", px=1000), timeout)
    except (RedisError, OSError, TimeoutError) as error:
        return "full" if is_out_of_memory(error) else "unreachable"
    return "ready"


class ProblemTypeList(Value, frozen=True, kw_only=True):
    """Every problem type the service can answer with."""

    problems: tuple[ProblemType, ...]


class Health(Value, frozen=True, kw_only=True):
    """Liveness or readiness."""

    status: Literal["ok", "ready"]


class Ready(Value, frozen=True, kw_only=True):
    """Ready to serve, and what an operator should know about it."""

    status: Literal["ready"]
    roll_signing_keys: Annotated[
        Literal["configured", "generated"],
        Meta(
            description="Where the keys signing roll receipts come from: ROLL_SIGNING_KEYS, "
            "or a key generated at start-up (published through Redis to every replica: its "
            "receipts verify online until ROLL_KEY_RETENTION_SECONDS after the service stops)."
        ),
    ]
    roll_signing_kid: Annotated[
        str, Meta(description="The kid of the key that signs receipts here.")
    ]
    roll_keys_published: Annotated[
        int,
        Meta(
            ge=1,
            description="How many keys `/.well-known/jwks.json` publishes here now: the "
            "configured ones; with a generated key, this replica's and every other "
            "replica's read from Redis.",
        ),
    ]
    fast_paths: Annotated[
        list[FastPath],
        Meta(
            description="The fast paths serving here (FAST_PATHS, default on): `json-routes` "
            "(the hottest routes served in one step), `routing-cache` (routing kept for 8 192 "
            "paths), `exception-handlers-once` (each route's merged at start), "
            "`lean-redis-scripts` (session scripts on the lean Redis path; never with "
            "REDIS_CLUSTER). Empty with FAST_PATHS=off: plain Litestar and plain redis-py, the "
            "same answers at more instructions each."
        ),
    ]
    detail: Annotated[
        str | None, Meta(description="A note for the operator, or null when there is none.")
    ]


FastPath = Literal["json-routes", "routing-cache", "exception-handlers-once", "lean-redis-scripts"]


def fast_paths(settings: Settings) -> list[FastPath]:
    """The fast paths ``settings`` turn on, as :class:`Ready` names them."""
    if settings.fast_paths == "off":
        return []
    on: list[FastPath] = ["json-routes", "routing-cache", "exception-handlers-once"]
    return on if settings.redis_cluster else [*on, "lean-redis-scripts"]


_GENERATED_KEY_NOTE = (
    "Roll receipts are signed with a key generated at start-up (ROLL_SIGNING_KEYS is not "
    "set), published through Redis to every replica's JWKS: they verify online while this "
    "service runs and for ROLL_KEY_RETENTION_SECONDS after it stops."
)


DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Tabletop rules service — API</title>
  <link rel="icon" href="data:,">
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({
      url: "/openapi.json", dom_id: "#swagger-ui", validatorUrl: null,
      deepLinking: true, tryItOutEnabled: true,
    });
  </script>
</body>
</html>
"""


def _get_or_head(name: str) -> Callable[..., str]:
    """Operation ids for a route answering GET and HEAD: ``get<name>``, ``head<name>``."""

    def operation_id(_handler: Any, method: str, _path: Any) -> str:
        return f"head{name}" if method == HttpMethod.HEAD else f"get{name}"

    return operation_id


class OperationsController(Controller):
    """Health, readiness, documentation."""

    tags = ["operations"]

    @route(
        "/healthz",
        http_method=[HttpMethod.GET, HttpMethod.HEAD],
        operation_id=_get_or_head("Health"),
        summary="Liveness: the process answers",
        description="Never touches Redis. HEAD answers as GET does, without the body.",
        sync_to_thread=False,
    )
    def healthz(self) -> Health:
        """Never touches Redis."""
        return Health(status="ok")

    @route(
        "/readyz",
        http_method=[HttpMethod.GET, HttpMethod.HEAD],
        operation_id=_get_or_head("Readiness"),
        summary="Readiness: Redis answers",
        description="503 with Retry-After while Redis is unreachable (`store-unavailable`) "
        "or refuses writes for its maxmemory (`state-store-full`). With a generated roll "
        "signing key, ready also means the key is published in Redis, where every replica "
        "finds it. HEAD answers as GET does, without the body.",
        responses=problem_responses(503),
    )
    async def readyz(
        self,
        readiness: Readiness,
        settings: NamedDependency[Settings],
        request: Request[Any, Any, Any],
    ) -> Ready:
        """Redis's condition, by a tiny expiring write."""
        condition = await readiness()
        retry_after = {"Retry-After": str(settings.redis_retry_after_seconds)}
        if condition == "full":
            raise StoreFull(detail="Redis is full: it refuses writes.", headers=retry_after)
        if condition != "ready":
            raise StoreUnavailable(detail="Redis is unreachable.", headers=retry_after)
        receipts = receipts_of(request)
        generated = receipts.keys.generated
        return Ready(
            status="ready",
            roll_signing_keys="generated" if generated else "configured",
            roll_signing_kid=receipts.keys.signing.kid,
            roll_keys_published=len(receipts.jwks().keys),
            fast_paths=fast_paths(settings),
            detail=_GENERATED_KEY_NOTE if generated else None,
        )

    @get("/metrics", include_in_schema=False)
    async def metrics(self, settings: NamedDependency[Settings]) -> Response[bytes]:
        """Prometheus text exposition.

        Each worker writes its request counts to the shared store within FLUSH_SECONDS of
        counting them; with several workers a scrape waits that long first, so that every
        request answered before it began is in it.
        """
        if settings.workers > 1 and shared_by_workers():
            await asyncio.sleep(FLUSH_SECONDS * 1.1)  # a timer may fire a little late
        return Response(exposition(), media_type=CONTENT_TYPE)

    @get(
        "/problems",
        operation_id="listProblemTypes",
        summary="Every problem type",
        description="The index of `/problems/{code}`: every `type` an error can have.",
        sync_to_thread=False,
    )
    def problem_types(self) -> ProblemTypeList:
        """All problem types."""
        return ProblemTypeList(problems=tuple(PROBLEM_TYPES.values()))

    @get(
        "/problems/{code:str}",
        operation_id="getProblemType",
        summary="What a problem type means",
        description="Every problem's `type` is `/problems/{code}`; this explains it.",
        sync_to_thread=False,
        responses=problem_responses(400, 404),
    )
    def problem_type(
        self,
        code: Annotated[
            str,
            Parameter(
                max_length=64,
                description="A problem code.",
                examples=[Example(value="quick10-with-depletion")],
            ),
        ],
    ) -> ProblemType:
        """One problem type."""
        return _problem_type(code)

    @get(
        "/problems/{ruleset:str}/{code:str}",
        operation_id="getRulesetProblemType",
        summary="What one of a ruleset's problem types means",
        description="Rule problems of every ruleset but Bullseye are "
        "`/problems/<ruleset id>/<code>`; this explains one.",
        sync_to_thread=False,
        responses=problem_responses(400, 404),
    )
    def ruleset_problem_type(
        self,
        ruleset: Annotated[
            str, Parameter(max_length=40, description="A ruleset id, as GET /v1/rulesets lists.")
        ],
        code: Annotated[str, Parameter(max_length=64, description="A problem code.")],
    ) -> ProblemType:
        """One of a ruleset's problem types."""
        return _problem_type(f"{ruleset}/{code}")

    @get("/openapi.json", include_in_schema=False, sync_to_thread=False)
    def openapi(
        self, request: Request[Any, Any, Any], openapi_document: NamedDependency[Published]
    ) -> Response[bytes]:
        """The committed contract, as served: with an ETag to revalidate against (304), and
        gzipped for a client that accepts it (1.2 MB of JSON, about a tenth of it gzipped)."""
        document = openapi_document
        headers = {"ETag": document.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        unless = request.headers.get("if-none-match")
        if unless is not None and entity_tags("If-None-Match", unless).any_weakly(document.etag):
            return Response(b"", status_code=304, headers=headers)
        if accepts_gzip(request.headers.get("accept-encoding", "").encode("latin-1")):
            headers["Content-Encoding"] = "gzip"
            return Response(document.gzipped, media_type="application/json", headers=headers)
        return Response(document.body, media_type="application/json", headers=headers)

    @get("/docs", include_in_schema=False, sync_to_thread=False, media_type="text/html")
    def docs(self) -> str:
        """Swagger UI from the swagger-ui-bundle package: no CDN, works offline."""
        return DOCS_HTML


def _problem_type(code: str) -> ProblemType:
    try:
        return PROBLEM_TYPES[code]
    except KeyError:
        raise NotFoundException(detail=f"No problem type '{code}'.") from None


class RulesetIndexController(Controller):
    """The games this service hosts."""

    tags = ["operations"]

    @get(
        "/v1/rulesets",
        operation_id="listRulesets",
        summary="Every ruleset the service hosts",
        description="Each ruleset's id, title, the game text it implements (`source` in one "
        "line, `work` by title, author and year), the prefix its routes are mounted at, its "
        "operation ids and the kinds of session it keeps in Redis.",
        sync_to_thread=False,
        responses=problem_responses(401),
    )
    def rulesets(self, ruleset_index: NamedDependency[RulesetList]) -> RulesetList:
        """The registry, as the app was built from it."""
        return ruleset_index


def ruleset_index(rulesets: Iterable[Ruleset]) -> RulesetList:
    """What ``GET /v1/rulesets`` answers for ``rulesets``."""
    return RulesetList(
        rulesets=tuple(
            RulesetInfo(
                id=ruleset.id,
                title=ruleset.title,
                source=ruleset.source,
                work=ruleset.work,
                route_prefix=ruleset.route_prefix,
                operations=tuple(dict.fromkeys(op for op, _, _ in ruleset.operations())),
                stateful=ruleset.stateful,
            )
            for ruleset in rulesets
        )
    )
