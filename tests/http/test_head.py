"""HEAD on the probes (`/healthz`, `/readyz`) answers as GET does — status and headers,
Content-Length included — without a body, under the real server as in-process; monitors
and load balancers that probe with HEAD get 200, not 405."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.openapi import default_document


@pytest.mark.parametrize("path", ["/healthz", "/readyz"])
def test_head_is_get_without_the_body_under_the_server(served_url: str, path: str) -> None:
    got = httpx.get(f"{served_url}{path}")
    head = httpx.head(f"{served_url}{path}")
    assert (head.status_code, got.status_code) == (200, 200)
    assert head.content == b""
    assert head.headers["content-type"] == got.headers["content-type"] == "application/json"
    assert int(head.headers["content-length"]) == len(got.content) > 0
    assert head.headers["x-request-id"]


def test_head_of_readiness_without_redis_is_503_with_retry_after_and_no_body(
    tmp_path: Path,
) -> None:
    nowhere = Settings(
        redis_url=f"unix://{tmp_path / 'no-redis.sock'}",
        redis_socket_timeout=0.2,
        redis_connect_timeout=0.2,
    )
    with TestClient(create_app(nowhere)) as client:
        head = client.head("/readyz")
        assert head.status_code == 503
        assert head.content == b""
        assert head.headers["content-type"].startswith("application/problem+json")
        assert head.headers["retry-after"] == "2"
        assert client.head("/healthz").status_code == 200


def test_head_never_carries_a_body_even_where_it_is_not_allowed(client: TestClient) -> None:
    refused = client.head("/v1/checks")
    assert refused.status_code == 405
    assert refused.content == b""


def test_head_is_published_without_content() -> None:
    paths = default_document()["paths"]
    for path, name in (("/healthz", "Health"), ("/readyz", "Readiness")):
        assert paths[path]["get"]["operationId"] == f"get{name}"
        head = paths[path]["head"]
        assert head["operationId"] == f"head{name}"
        assert all("content" not in response for response in head["responses"].values())
        assert set(head["responses"]) == set(paths[path]["get"]["responses"])
