"""service.compat: each library's private parts, pinned to the versions they were checked
against (an upgrade fails here first, loudly), and each piece against the real library."""

from __future__ import annotations

import asyncio
import importlib.metadata
from typing import Annotated

import pytest
import redis.asyncio as aioredis
from litestar import Litestar, Request, Response, Router, post
from litestar.params import Body, BodyKwarg, HeaderParameter, ParameterKwarg
from litestar.testing import TestClient
from litestar.types import ASGIApp, Receive, Scope, Send
from prometheus_client import CollectorRegistry, Histogram
from redis.exceptions import BusyLoadingError, NoPermissionError, ReadOnlyError

from service import compat
from service.compat import litestar as litestar_compat
from service.compat import prometheus_client as prometheus_compat
from service.compat import redis as redis_compat

PINNED = [
    ("litestar", litestar_compat.CHECKED),
    ("redis", redis_compat.CHECKED),
    ("prometheus-client", prometheus_compat.CHECKED),
]


@pytest.mark.parametrize(("distribution", "checked"), PINNED)
def test_the_installed_release_is_one_the_compat_module_was_checked_against(
    distribution: str, checked: tuple[str, ...]
) -> None:
    assert compat.version_checked(distribution, checked) is None


def test_another_release_is_named_with_what_to_do() -> None:
    installed = importlib.metadata.version("litestar")
    said = compat.version_checked("litestar", ("1.0",))
    assert said is not None
    assert f"litestar {installed} is installed" in said
    assert "checked against 1.0 only" in said


# Litestar ---------------------------------------------------------------------------------


def _after(response: Response[object]) -> Response[object]:
    return response


@post("/orders/{order_id:int}", status_code=200)
async def order(
    order_id: int,
    data: Annotated[dict[str, int], Body(title="An order")],
    mode: Annotated[str, HeaderParameter(name="X-Mode", max_length=5)],
    request: Request[object, object, object],
) -> dict[str, object]:
    return {"order": order_id, "mode": mode, "body": (await request.body()).decode()}


def _app() -> Litestar:
    return Litestar([Router("/v1", route_handlers=[order], after_request=_after)])


def test_a_handler_s_parameters_and_return_as_litestar_parsed_them() -> None:
    app = _app()
    handler = app.route_handler_method_map["/v1/orders/{order_id:int}"]["POST"]
    parameters = litestar_compat.handler_parameters(handler)
    assert set(parameters) == {"order_id", "data", "mode", "request"}
    header = litestar_compat.parameter_marker(parameters["mode"])
    assert isinstance(header, ParameterKwarg)
    assert (header.param_type.value, header.name, header.max_length) == ("header", "X-Mode", 5)
    body = litestar_compat.parameter_marker(parameters["data"])
    assert isinstance(body, BodyKwarg)
    assert body.title == "An order"
    assert litestar_compat.parameter_marker(parameters["order_id"]) is None
    assert litestar_compat.handler_return_annotation(handler) == dict[str, object]
    assert len(list(litestar_compat.after_request_hooks(handler))) == 1
    assert callable(litestar_compat.response_handler(handler))
    bare = Litestar([echo]).route_handler_method_map["/echo"]["POST"]
    assert list(litestar_compat.after_request_hooks(bare)) == []


seen: list[bytes] = []


@post("/echo", status_code=200)
async def echo(request: Request[object, object, object]) -> None:
    seen.append(await request.body())


def _keeping(app: ASGIApp) -> ASGIApp:
    async def middleware(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            litestar_compat.keep_body(scope, b"kept")
        await app(scope, receive, send)

    return middleware


def test_a_body_kept_in_the_scope_is_what_request_body_answers() -> None:
    seen.clear()
    with TestClient(Litestar([echo], middleware=[_keeping])) as client:
        assert client.post("/echo", content=b"sent").status_code == 200
    with TestClient(Litestar([echo])) as client:
        assert client.post("/echo", content=b"sent").status_code == 200
    assert seen == [b"kept", b"sent"]


def test_remembered_routes_route_as_litestar_does() -> None:
    app = _app()
    litestar_compat.remember_routes(app, 4)
    with TestClient(app) as client:
        for _ in range(3):
            answer = client.post("/v1/orders/7", json={"a": 1}, headers={"X-Mode": "fast"})
            assert answer.status_code == 200
            assert answer.json() == {"order": 7, "mode": "fast", "body": '{"a":1}'}
        assert client.post("/v1/nowhere", json={}).status_code == 404
    info = app.asgi_router.handle_routing.cache_info()  # type: ignore[attr-defined]
    assert info.maxsize == 4
    assert info.hits >= 2


# redis-py ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("reply", "raised"),
    [
        ("LOADING Redis is loading the dataset in memory", BusyLoadingError),
        ("READONLY You can't write against a read only replica.", ReadOnlyError),
        ("NOPERM this user has no permissions", NoPermissionError),
    ],
)
def test_an_error_reply_becomes_what_redis_py_raises_for_it(reply: str, raised: type) -> None:
    assert type(redis_compat.parse_error(reply)) is raised


def test_the_socket_taken_from_a_connection_is_the_connected_one(redis_url: str) -> None:
    async def take() -> bytes:
        pool = aioredis.ConnectionPool.from_url(redis_url)
        conn = pool.make_connection()
        await conn.connect()
        writer = redis_compat.take_socket(conn)
        assert (conn._writer, conn._reader) == (None, None)
        reader = asyncio.StreamReader()
        protocol = asyncio.StreamReaderProtocol(reader)
        writer.transport.set_protocol(protocol)
        writer.write(b"*1\r\n$4\r\nPING\r\n")
        reply = await asyncio.wait_for(reader.readline(), 5)
        writer.close()
        await pool.aclose()
        return reply

    assert asyncio.run(take()) == b"+PONG\r\n"


# prometheus_client ------------------------------------------------------------------------


@pytest.fixture
def histograms() -> tuple[Histogram, Histogram]:
    registry = CollectorRegistry()
    buckets = (0.01, 0.1, 1.0)
    return (
        Histogram("batched", "b", buckets=buckets, registry=registry),
        Histogram("observed", "o", buckets=buckets, registry=registry),
    )


def test_observations_added_in_one_pass_read_as_observe_calls(
    histograms: tuple[Histogram, Histogram],
) -> None:
    batched, observed = histograms
    seconds = [0.005, 0.05, 0.05, 0.5, 5.0]
    for value in seconds:
        observed.observe(value)
    assert prometheus_compat.upper_bounds(batched) == (0.01, 0.1, 1.0, float("inf"))
    prometheus_compat.add_observations(batched, sum(seconds), [1, 2, 1, 1])

    def samples(histogram: Histogram) -> list[tuple[str, dict[str, str], float]]:
        (metric,) = histogram.collect()
        return [
            (sample.name.split("_", 1)[1], sample.labels, sample.value)
            for sample in metric.samples
            if not sample.name.endswith("_created")
        ]

    assert samples(batched) == samples(observed)


def test_exception_handlers_merged_once_handle_as_litestar_merges_them() -> None:
    @post("/fails", status_code=200)
    async def fails() -> None:
        raise KeyError("lost")

    def handled(_: Request[object, object, object], error: Exception) -> Response[str]:
        return Response(f"handled {type(error).__name__}", status_code=418)

    app = Litestar([Router("/v1", route_handlers=[fails], exception_handlers={KeyError: handled})])
    handler = app.route_handler_method_map["/v1/fails"]["POST"]
    merged = handler.resolve_exception_handlers()
    litestar_compat.resolve_exception_handlers_once(app)
    once = handler.resolve_exception_handlers()
    assert once == merged
    assert once is not handler.resolve_exception_handlers()  # a copy for every request
    with TestClient(app) as client:
        answer = client.post("/v1/fails")
    assert (answer.status_code, answer.text) == (418, "handled KeyError")
