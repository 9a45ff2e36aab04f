"""``routed_path`` must be the path Litestar routes by, whatever the spelling: the rate
limit and the request log decide on it (a hand-made copy of Litestar's behaviour, so it is
checked against Litestar itself)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from litestar import Litestar, Request, get

from service.http.shell.middleware import routed_path
from tests.support.asgi import post_scope

SPELLINGS = [
    "/",
    "/v1/checks",
    "//v1/checks",
    "/v1//checks",
    "/v1/checks/",
    "///v1///checks///",
    "/v1/tables/effort",
    "/v1/tables//effort/",
    "/x/v1/checks",
    "",
]


@get("/{rest:path}", sync_to_thread=False)
def _echo(request: Request[Any, Any, Any]) -> str:
    return str(request.scope["path"])


@get("/", sync_to_thread=False)
def _root(request: Request[Any, Any, Any]) -> str:
    return str(request.scope["path"])


def _litestar_routes(path: str, root_path: str) -> str:
    app = Litestar([_echo, _root])
    scope: dict[str, Any] = {**post_scope(path), "method": "GET", "root_path": root_path}
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(app(scope, receive, send))  # type: ignore[arg-type]
    return bytes(sent[-1]["body"]).decode().strip('"')


@pytest.mark.parametrize("root_path", ["", "/x"])
@pytest.mark.parametrize("path", SPELLINGS)
def test_routed_path_is_the_path_litestar_routes(path: str, root_path: str) -> None:
    scope = {**post_scope(path), "root_path": root_path}
    assert routed_path(scope) == _litestar_routes(path, root_path)  # type: ignore[arg-type]
