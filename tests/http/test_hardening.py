"""Browser access (CORS from settings) and security headers on every response."""

from __future__ import annotations

from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings

ORIGIN = "https://vtt.example"


def test_cors_is_off_unless_origins_are_configured(client: TestClient) -> None:
    response = client.options(
        "/v1/checks", headers={"Origin": ORIGIN, "Access-Control-Request-Method": "POST"}
    )
    assert "access-control-allow-origin" not in response.headers


def test_configured_origins_may_call_from_a_browser(redis_url: str) -> None:
    settings = Settings(redis_url=redis_url, cors_origins=f"{ORIGIN}, https://other.example")
    with TestClient(create_app(settings)) as client:
        preflight = client.options(
            "/v1/conflicts/x/rounds",
            headers={
                "Origin": ORIGIN,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "content-type, x-conflict-token, idempotency-key",
            },
        )
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == ORIGIN
        allowed = preflight.headers["access-control-allow-headers"].lower()
        assert {"x-conflict-token", "idempotency-key", "x-api-key"} <= {
            h.strip() for h in allowed.split(",")
        }
        response = client.post(
            "/v1/checks", json={"target": 1, "seed": 1}, headers={"Origin": ORIGIN}
        )
        assert response.headers["access-control-allow-origin"] == ORIGIN
        assert "etag" in response.headers["access-control-expose-headers"].lower()
        stranger = client.post(
            "/v1/checks", json={"target": 1}, headers={"Origin": "https://evil.example"}
        )
        assert "access-control-allow-origin" not in stranger.headers


def test_every_response_carries_security_headers(client: TestClient) -> None:
    for response in (client.post("/v1/checks", json={"target": 1}), client.get("/nowhere")):
        assert response.headers["x-content-type-options"] == "nosniff"
        assert response.headers["referrer-policy"] == "no-referrer"
        assert response.headers["x-frame-options"] == "DENY"
    docs = client.get("/docs")
    assert "default-src 'self'" in docs.headers["content-security-policy"]
