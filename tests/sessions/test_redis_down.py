"""With Redis unreachable the service starts, serves checks, and says it is not ready."""

from __future__ import annotations

from pathlib import Path

from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.problems import assert_problem


def test_checks_work_and_readiness_is_503_without_redis(tmp_path: Path) -> None:
    nowhere = Settings(
        redis_url=f"unix://{tmp_path / 'no-redis.sock'}",
        redis_socket_timeout=0.2,
        redis_connect_timeout=0.2,
    )
    with TestClient(create_app(nowhere)) as client:
        assert client.get("/healthz").status_code == 200
        assert client.post("/v1/checks", json={"target": 10, "seed": 1}).status_code == 200
        response = client.get("/readyz")
        assert_problem(response, 503, "store-unavailable")
        assert response.headers["retry-after"] == "2"
