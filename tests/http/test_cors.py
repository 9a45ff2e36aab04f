"""Calls from other origins' pages (CORS_ORIGINS) over real HTTP: a refused preflight is a
problem document saying what was refused; an allowed one names what the page may send; and
a page may read every response header the contract documents."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from service.configuration import load_settings
from service.http.shell.cors import ALLOWED_HEADERS, EXPOSED_HEADERS
from service.settings import SettingsError
from tests.support.openapi import default_document
from tests.support.problems import assert_problem
from tests.support.served import ServedApp

PAGE = "https://vtt.example"
DOCUMENT: dict[str, Any] = default_document()


def _served(redis_url: str, log: Path, **env: str) -> Iterator[str]:
    app = ServedApp({"REDIS_URL": redis_url, **env}, log)
    try:
        app.wait_ready()
        yield app.url
    finally:
        app.stop()


@pytest.fixture(scope="module")
def served(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    log = tmp_path_factory.mktemp("cors") / "service.log"
    yield from _served(redis_url, log, CORS_ORIGINS=f"{PAGE}, https://other.example")


def preflight(url: str, origin: str, method: str, headers: str = "") -> httpx.Response:
    asked = {"Origin": origin, "Access-Control-Request-Method": method}
    if headers:
        asked["Access-Control-Request-Headers"] = headers
    return httpx.options(url, headers=asked)


def test_an_allowed_preflight_names_what_the_page_may_send(served: str) -> None:
    answer = preflight(
        f"{served}/v1/opend6/scenes/s1/moves", PAGE, "POST",
        "content-type, x-scene-token, idempotency-key, if-match",
    )  # fmt: skip
    assert answer.status_code == 204
    assert answer.headers["access-control-allow-origin"] == PAGE
    named = [h.strip().lower() for h in answer.headers["access-control-allow-headers"].split(",")]
    assert len(named) == len(set(named)), f"each header once: {named}"
    allowed = set(named)
    assert {
        "x-scene-token",
        "x-game-token",
        "idempotency-key",
        "if-match",
        "if-none-match",
    } <= allowed
    assert "POST" in answer.headers["access-control-allow-methods"]


@pytest.mark.parametrize(
    ("origin", "method", "headers", "code", "parameter", "named"),
    [
        ("https://evil.example", "POST", "", "origin-not-allowed", "Origin",
         "https://evil.example"),
        (PAGE, "PUT", "", "method-not-allowed", "Access-Control-Request-Method", "PUT"),
        (PAGE, "POST", "content-type, X-Debug", "header-not-allowed",
         "Access-Control-Request-Headers", "X-Debug"),
    ],
    ids=["origin", "method", "header"],
)  # fmt: skip
def test_a_refused_preflight_is_a_problem_naming_what_was_refused(
    served: str, origin: str, method: str, headers: str, code: str, parameter: str, named: str
) -> None:
    answer = preflight(f"{served}/v1/checks", origin, method, headers)
    body = assert_problem(answer, 403, "cors-refused")
    (error,) = body["errors"]
    assert (error["code"], error["parameter"]) == (code, parameter)
    assert named in error["detail"]
    assert named in body["detail"]
    assert "access-control-allow-origin" not in answer.headers
    assert answer.headers["x-request-id"]


def test_every_refusal_of_one_preflight_is_listed(served: str) -> None:
    answer = preflight(f"{served}/v1/checks", "https://evil.example", "PATCH", "x-debug")
    body = assert_problem(answer, 403, "cors-refused")
    assert [e["code"] for e in body["errors"]] == [
        "origin-not-allowed",
        "method-not-allowed",
        "header-not-allowed",
    ]


def test_without_cors_origins_every_preflight_is_refused_with_a_problem(
    redis_url: str, tmp_path: Path
) -> None:
    for url in _served(redis_url, tmp_path / "service.log"):
        answer = preflight(f"{url}/v1/checks", PAGE, "POST", "content-type")
        body = assert_problem(answer, 403, "cors-refused")
        assert "CORS_ORIGINS" in body["detail"]
        # An OPTIONS that is no preflight still lists the methods.
        assert httpx.options(f"{url}/v1/checks").status_code in (200, 204)


def test_an_answer_to_an_allowed_origin_exposes_every_documented_header(served: str) -> None:
    answer = httpx.post(
        f"{served}/v1/checks", json={"target": 5, "seed": 1}, headers={"Origin": PAGE}
    )
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == PAGE
    exposed = {h.strip() for h in answer.headers["access-control-expose-headers"].split(",")}
    assert exposed == set(EXPOSED_HEADERS)


def _declared_response_headers(document: dict[str, Any]) -> set[str]:
    return {
        name
        for item in document["paths"].values()
        for operation in item.values()
        for response in operation["responses"].values()
        for name in response.get("headers", {})
    }


def test_the_exposed_headers_are_every_response_header_the_contract_declares() -> None:
    declared = _declared_response_headers(DOCUMENT)
    assert {"ETag", "Location", "Retry-After", "X-Request-ID", "RateLimit-Remaining"} <= declared
    assert set(EXPOSED_HEADERS) == declared


def test_every_request_header_the_contract_declares_may_be_sent_cross_origin() -> None:
    """Header parameters (If-Match, Idempotency-Key, …) and token headers of every session
    kind (X-Conflict-Token, X-Scene-Token, …) and of the API key."""
    parameters = {
        parameter["name"]
        for item in DOCUMENT["paths"].values()
        for operation in item.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "header"
    }
    schemes = DOCUMENT["components"]["securitySchemes"].values()
    token_headers = {s["name"] for s in schemes if s["type"] == "apiKey" and s["in"] == "header"}
    declared = {name.lower() for name in parameters | token_headers}
    assert {"if-match", "x-scene-token", "x-conflict-token", "x-api-key"} <= declared
    assert declared <= {name.lower() for name in ALLOWED_HEADERS}


@pytest.mark.parametrize(
    "path", ["/.well-known/jwks.json", "/v1/rulesets", "/healthz", "/no-such-route"]
)
@pytest.mark.parametrize("origin", [None, PAGE, "https://stranger.example"])
def test_every_answer_varies_by_origin_when_cors_is_on(
    served: str, path: str, origin: str | None
) -> None:
    """Integrators' review: answers sent without an allowed Origin had no `Vary: Origin`, so
    a shared cache could hand the signing keys to a VTT page without its
    Access-Control-Allow-Origin."""
    answer = httpx.get(served + path, headers={"Origin": origin} if origin else {})
    varies = [v.strip().lower() for v in answer.headers.get_list("vary") for v in v.split(",")]
    assert varies.count("origin") == 1, answer.headers


@pytest.mark.parametrize(
    ("origins", "said"),
    [
        ("https://vtt.example/", "no path"),
        ("vtt.example", "needs a scheme"),
        ("https://vtt.example, https://ok.example/app", "no path"),
        ("https://Vtt.Example", "lower case"),
        ("https://vtt.example:0", "no valid port"),
    ],
)
def test_an_origin_no_browser_sends_stops_the_service_naming_cors_origins(
    origins: str, said: str
) -> None:
    """Integrators' review: `CORS_ORIGINS='https://vtt.example/'` (or no scheme) started,
    then refused every real preflight."""
    with pytest.raises(SettingsError) as stopped:
        load_settings({"CORS_ORIGINS": origins})
    assert "CORS_ORIGINS" in str(stopped.value)
    assert said in str(stopped.value)


def test_origins_as_browsers_send_them_are_taken() -> None:
    taken = "https://vtt.example, http://localhost:3000, https://[::1]:8443, *"
    assert load_settings({"CORS_ORIGINS": taken}).cors_origins == taken
