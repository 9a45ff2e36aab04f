"""FAST_PATHS=off (#38): every route served through plain Litestar and plain redis-py gives
the same answers, byte for byte, as the fast paths; /readyz says which paths serve.

CI also runs tests/http and tests/sessions whole with FAST_PATHS=off (`make test-plain`)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.examples import STATELESS, operation_routes
from tests.support.refusal_cases import STATELESS_CASES

# Headers that differ between any two answers: when, how long it took, and the length of
# a body whose ids differ (they are drawn fresh for every roll).
_VARYING = {"date", "server-timing", "content-length"}
_ROLL_ID = re.compile(rb'"id":"[0-9a-f]{32}[^"]*"')
_BAD_BODIES = [
    ("malformed JSON", b'{"target": ', "application/json"),
    ("not JSON", b"target=10", "application/x-www-form-urlencoded"),
    ("no body", b"", "application/json"),
    ("a string for an integer", b'{"target": "10"}', "application/json"),
    ("an unknown member", b'{"target": 10, "targte": 3}', "application/json"),
    ("too large", b'{"target": 10, "x": "' + b"a" * 70_000 + b'"}', "application/json"),
]


@pytest.fixture
def both(settings: Settings) -> Iterator[tuple[TestClient, TestClient]]:
    """The app with its fast paths, and without, each with the same seeded dice."""
    with ExitStack() as stack:
        clients = [
            stack.enter_context(
                TestClient(
                    create_app(
                        msgspec.structs.replace(settings, fast_paths=mode),
                        rng=random.Random(7),
                    )
                )
            )
            for mode in ("on", "off")
        ]
        yield clients[0], clients[1]


def _answer(client: TestClient, method: str, path: str, **kwargs: Any) -> tuple[Any, ...]:
    headers = {"X-Request-ID": "same", **kwargs.pop("headers", {})}
    response = client.request(method, path, headers=headers, **kwargs)
    kept = sorted((k, v) for k, v in response.headers.items() if k not in _VARYING)
    return response.status_code, kept, _ROLL_ID.sub(b'"id":"?"', response.content)


def test_every_stateless_example_and_refusal_answers_the_same_both_ways(
    both: tuple[TestClient, TestClient],
) -> None:
    fast, plain = both
    routes = operation_routes()
    sent = [(op, body) for op, _, body in STATELESS if "{" not in routes[op][1]]
    sent += [(case.operation_id, case.body) for case in STATELESS_CASES]
    assert len(sent) > 60
    for operation_id, body in sent:
        method, path = routes[operation_id]
        answers = [_answer(client, method, path, json=body) for client in (fast, plain)]
        assert answers[0] == answers[1], operation_id


@pytest.mark.parametrize(("case", "content", "content_type"), _BAD_BODIES)
def test_a_bad_body_on_the_hottest_route_is_refused_the_same_both_ways(
    both: tuple[TestClient, TestClient], case: str, content: bytes, content_type: str
) -> None:
    answers = [_bad(client, content, content_type) for client in both]
    assert answers[0][0] >= 400, case
    assert answers[0] == answers[1], case


def _bad(client: TestClient, content: bytes, content_type: str) -> tuple[Any, ...]:
    headers = {"Content-Type": content_type}
    return _answer(client, "POST", "/v1/checks", content=content, headers=headers)


def test_readiness_names_the_fast_paths_that_serve(both: tuple[TestClient, TestClient]) -> None:
    fast, plain = both
    assert fast.get("/readyz").json()["fast_paths"] == [
        "json-routes",
        "routing-cache",
        "exception-handlers-once",
        "lean-redis-scripts",
    ]
    assert plain.get("/readyz").json()["fast_paths"] == []


def test_fast_paths_is_on_or_off(monkeypatch: pytest.MonkeyPatch) -> None:
    assert Settings.from_env({"FAST_PATHS": "OFF"}).fast_paths == "off"
    with pytest.raises(ValueError, match="FAST_PATHS"):
        Settings.from_env({"FAST_PATHS": "sometimes"})
    monkeypatch.setenv("FAST_PATHS", "sometimes")
    with pytest.raises(ValueError, match="FAST_PATHS must be on or off, not 'sometimes'"):
        Settings()
