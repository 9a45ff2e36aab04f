"""FastJson serves a handler as Litestar's own path would: the same answers, the same problems.

Each case is sent to one handler declared twice, once served by Litestar and once with
``middleware=[FastJson]``; everything but the request id must be equal.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Annotated, Any

import msgspec
import pytest
from litestar import Litestar, Request, get, post
from litestar.di import NamedDependency, Provide
from litestar.params import HeaderParameter, Parameter
from litestar.response import Response
from litestar.testing import TestClient
from msgspec import Meta

from service.http.contract.body import StrictJson
from service.http.contract.problems import handle_exception
from service.http.shell.fast_json import FastJson
from service.kernel.errors import Concern, RulesError
from tests.support.asgi import post_scope

LIMIT = 1024


class Item(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    name: Annotated[str, Meta(min_length=1)]
    count: int = 1


class Order(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    items: Annotated[tuple[Item, ...], Meta(max_length=3)]
    note: str | None = None


class Answer(msgspec.Struct, frozen=True, kw_only=True):
    total: int
    first: str
    seen: int  # the length of the body the handler's request reads
    tag: str


async def _answer(data: Order, tag: str, request: Request[Any, Any, Any]) -> Answer:
    if data.note == "refuse":
        # Any catalogued code: a RulesError becomes its problem, extensions and all.
        raise RulesError(
            "odds-too-costly",
            "Refused.",
            (Concern(code="odds-too-costly", pointer="/note", detail="No."),),
            {"max_cost_ms": 1.0},
        )
    total = sum(item.count for item in data.items)
    return Answer(total=total, first=data.items[0].name, seen=len(await request.body()), tag=tag)


@post("/litestar", dto=StrictJson[Order], return_dto=None, status_code=200)
async def via_litestar(
    data: Order, tag: NamedDependency[str], request: Request[Any, Any, Any]
) -> Answer:
    return await _answer(data, tag, request)


@post("/fast", dto=StrictJson[Order], return_dto=None, status_code=200, middleware=[FastJson])
async def via_fast(
    data: Order, tag: NamedDependency[str], request: Request[Any, Any, Any]
) -> Answer:
    return await _answer(data, tag, request)


@post("/unservable", dto=StrictJson[Order], return_dto=None, middleware=[FastJson])
async def unservable(data: Order, limit: int) -> Answer:  # a query parameter
    return Answer(total=limit, first="", seen=0, tag="")


# Shaped as the session routes: path and header parameters, a Response of bytes or none.
Key = Annotated[str, Parameter(max_length=8, description="A key.")]
Number = Annotated[int, Parameter(ge=1, le=99, description="A number.")]
Match = Annotated[str | None, HeaderParameter(name="If-Match", max_length=6, required=False)]


def _stored(key: str, number: int, match: str | None) -> Response[Any]:
    if match == '"304"':
        return Response(None, status_code=304, headers={"ETag": '"304"'})
    if match == "struct":  # not bytes: Litestar renders it
        return Response(Answer(total=number, first=key, seen=0, tag=""), headers={"ETag": "s"})
    if match == "text":
        return Response(b"plain", media_type="text/plain", status_code=202)
    if match == "typed":
        return Response(b"{}", headers={"Content-Type": "application/problem+json"})
    body = json.dumps({"key": key, "number": number, "match": match}).encode()
    return Response(body, status_code=201 if number > 50 else 200, headers={"ETag": f'"{number}"'})


@get("/litestar/{key:str}/{number:int}")
async def read_litestar(key: Key, number: Number, if_match: Match = None) -> Response[Any]:
    return _stored(key, number, if_match)


@get("/fast/{key:str}/{number:int}", middleware=[FastJson])
async def read_fast(key: Key, number: Number, if_match: Match = None) -> Response[Any]:
    return _stored(key, number, if_match)


@post("/litestar/{key:str}", dto=StrictJson[Order], return_dto=None)
async def act_litestar(
    key: Key, data: Order, request: Request[Any, Any, Any], if_match: Match = None
) -> Response[Any]:
    return _stored(key, len(data.items) + len(await request.body()), if_match)


@post("/fast/{key:str}", dto=StrictJson[Order], return_dto=None, middleware=[FastJson])
async def act_fast(
    key: Key, data: Order, request: Request[Any, Any, Any], if_match: Match = None
) -> Response[Any]:
    return _stored(key, len(data.items) + len(await request.body()), if_match)


def _app(*, problems: bool = True) -> Litestar:
    return Litestar(
        [
            via_litestar,
            via_fast,
            unservable,
            read_litestar,
            read_fast,
            act_litestar,
            act_fast,
        ],
        dependencies={"tag": Provide(lambda: "provided", sync_to_thread=False)},
        exception_handlers={Exception: handle_exception} if problems else {},
        request_max_body_size=LIMIT,
        logging_config=None,
        debug=not problems,  # Litestar's own 500 then shows the error
    )


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient[Litestar]]:
    with TestClient(_app()) as test_client:
        yield test_client


JSON = "application/json"
ORDER = {"items": [{"name": "bolt", "count": 2}, {"name": "nut"}]}
CASES: dict[str, tuple[bytes, str | None]] = {
    "valid": (json.dumps(ORDER).encode(), JSON),
    "a +json type with parameters": (json.dumps(ORDER).encode(), "application/x+json; v=1"),
    "an integral float": (b'{"items": [{"name": "a", "count": 3.0}]}', JSON),
    "unknown field": (b'{"items": [{"name": "a", "colour": "red"}]}', JSON),
    "wrong type": (b'{"items": [{"name": "a", "count": "3"}]}', JSON),
    "too many items": (json.dumps({"items": [{"name": "a"}] * 4}).encode(), JSON),
    "empty string": (b'{"items": [{"name": ""}]}', JSON),
    "missing field": (b"{}", JSON),
    "malformed": (b'{"items": [', JSON),
    "not UTF-8": (b'{"items": [{"name": "\xff"}]}', JSON),
    "too deep": (b"[" * 5000, JSON),
    "no body": (b"", JSON),
    "text/plain": (json.dumps(ORDER).encode(), "text/plain"),
    "no content type": (json.dumps(ORDER).encode(), None),
    "too large": (json.dumps({**ORDER, "note": "x" * LIMIT}).encode(), JSON),
    "a rule refuses": (json.dumps({**ORDER, "note": "refuse"}).encode(), JSON),
}


# Without the service's middleware no request has an id: each problem draws its own.
_REQUEST_ID = re.compile(rb'"request_id":"[0-9a-f]{32}"')


def _one_id(content: bytes) -> bytes:
    return _REQUEST_ID.sub(b'"request_id":"-"', content)


def _seen(client: TestClient[Litestar], path: str, body: bytes, content_type: str | None) -> Any:
    headers = {"content-type": content_type} if content_type else {}
    response = client.post(path, content=body, headers=headers)
    return response.status_code, sorted(response.headers.items()), _one_id(response.content)


@pytest.mark.parametrize("case", CASES)
def test_served_as_litestar_serves_it(client: TestClient[Litestar], case: str) -> None:
    body, content_type = CASES[case]
    fast = _seen(client, "/fast", body, content_type)
    assert fast == _seen(client, "/litestar", body, content_type)
    assert fast[0] in (200, 400, 413, 415, 422)


def test_the_answer_is_the_handlers(client: TestClient[Litestar]) -> None:
    response = client.post("/fast", json=ORDER)
    seen = len(response.request.content)
    assert response.json() == {"total": 3, "first": "bolt", "seen": seen, "tag": "provided"}


def _asgi_post(app: Litestar, chunks: list[bytes], headers: list[tuple[bytes, bytes]]) -> Any:
    """POST /fast with the body in ``chunks``, as a server passes a body that arrives in
    pieces; (status, body)."""
    sent: list[dict[str, Any]] = []
    pending = [
        {"type": "http.request", "body": chunk, "more_body": index < len(chunks) - 1}
        for index, chunk in enumerate(chunks)
    ]

    async def receive() -> dict[str, Any]:
        return pending.pop(0) if pending else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = post_scope("/fast", headers)

    async def run() -> None:
        await app(scope, receive, send)  # type: ignore[arg-type]

    asyncio.run(run())
    status = next(m["status"] for m in sent if m["type"] == "http.response.start")
    return status, b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")


def test_a_body_in_pieces_is_read_whole() -> None:
    body = json.dumps(ORDER).encode()
    status, answer = _asgi_post(_app(), [body[:5], b"", body[5:20], body[20:]], [])
    assert status == 200
    assert json.loads(answer)["seen"] == len(body)


def test_pieces_past_the_limit_are_refused_without_a_content_length() -> None:
    status, answer = _asgi_post(_app(), [b'{"items": ['] + [b" " * 400] * 3, [])
    assert status == 413
    assert json.loads(answer)["type"] == "/problems/body-too-large"


def test_a_content_length_past_the_limit_is_refused_before_the_body() -> None:
    status, answer = _asgi_post(_app(), [], [(b"content-length", str(LIMIT + 1).encode())])
    assert status == 413
    assert json.loads(answer)["type"] == "/problems/body-too-large"


def test_a_handler_it_cannot_serve_as_litestar_would_is_refused_loudly() -> None:
    with TestClient(_app(problems=False)) as test_client:
        response = test_client.post("/unservable?limit=3", json=ORDER)
    assert response.status_code == 500
    assert "FastJson cannot serve" in response.text
    assert "'limit' is neither a dependency nor a path or header parameter" in response.text


READS: dict[str, tuple[str, list[tuple[str, str]]]] = {
    "valid": ("/k/7", []),
    "with If-Match": ("/k/60", [("if-match", "abc")]),
    "a key too long": ("/abcdefghi/7", []),
    "a number below its bound": ("/k/0", []),
    "a number above its bound": ("/k/100", []),
    "an If-Match too long": ("/k/7", [("if-match", "abcdefg")]),
    "If-Match twice": ("/k/7", [("if-match", "a"), ("if-match", "b")]),
    "an empty If-Match": ("/k/7", [("if-match", "")]),
    "not modified": ("/k/7", [("if-match", '"304"')]),
    "a Struct": ("/k/7", [("if-match", "struct")]),
    "text": ("/k/7", [("if-match", "text")]),
    "its own content type": ("/k/7", [("if-match", "typed")]),
}


def _read(client: TestClient[Litestar], path: str, headers: list[tuple[str, str]]) -> Any:
    response = client.get(path, headers=headers)
    return response.status_code, sorted(response.headers.multi_items()), _one_id(response.content)


@pytest.mark.parametrize("case", READS)
def test_a_read_with_parameters_is_served_as_litestar_serves_it(
    client: TestClient[Litestar], case: str
) -> None:
    path, headers = READS[case]
    fast = _read(client, "/fast" + path, headers)
    assert fast == _read(client, "/litestar" + path, headers)
    assert fast[0] in (200, 201, 202, 304, 400)


@pytest.mark.parametrize(
    ("key", "headers", "body"),
    [
        ("k", [], json.dumps(ORDER)),
        ("k", [("if-match", '"304"')], json.dumps(ORDER)),
        ("abcdefghi", [], json.dumps(ORDER)),  # the key's refusal, not the body's
        ("abcdefghi", [], "{"),  # the body's refusal first, as Litestar reads it first
        ("k", [("if-match", "abcdefg")], json.dumps(ORDER)),
        ("k", [], '{"items": []'),
        ("k", [("if-match", "struct")], json.dumps({"items": [{"name": "n"}] * 3})),
    ],
)
def test_a_write_with_parameters_is_served_as_litestar_serves_it(
    client: TestClient[Litestar], key: str, headers: list[tuple[str, str]], body: str
) -> None:
    def seen(path: str) -> Any:
        sent = [("content-type", JSON), *headers]
        response = client.post(f"{path}/{key}", content=body, headers=sent)
        content = _one_id(response.content)
        return response.status_code, sorted(response.headers.multi_items()), content

    fast = seen("/fast")
    assert fast == seen("/litestar")
    assert fast[0] in (200, 201, 304, 400)
