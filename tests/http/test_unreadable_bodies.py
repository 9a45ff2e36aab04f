"""Bodies the JSON decoder cannot read are 400 problems on every operation, never a 500."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.settings import Settings
from tests.support.problems import assert_problem

DEPTH = 5_000
JSON = {"content-type": "application/json"}


def _json_operations() -> list[str]:
    """Every operation that reads a JSON body, with its path parameters filled in."""
    schema = create_app().openapi_schema.to_schema()
    paths = []
    for path, item in schema["paths"].items():
        for method, operation in item.items():
            if method == "post" and "requestBody" in operation:
                paths.append(path.replace("{conflict_id}", "c1").replace("{number}", "1"))
    return paths


OPERATIONS = _json_operations()
DEEP_BODIES = {
    "top-level array": b"[" * DEPTH + b"]" * DEPTH,
    "under an unknown field": b'{"zz":' + b"[" * DEPTH + b"]" * DEPTH + b"}",
    "objects in objects": b'{"a":' * DEPTH + b"1" + b"}" * DEPTH,
}


@pytest.fixture(scope="module")
def client(redis_url: str) -> Iterator[TestClient]:
    """One app for the module's ~130 requests (six per operation), as a server's worker
    serves many: every one is refused, so none rolls a die or stores anything the next
    could see. Building an app per test was most of the module's time."""
    settings = Settings(redis_url=redis_url, log_format="json")
    with TestClient(create_app(settings)) as test_client:
        yield test_client


def test_every_body_operation_is_probed() -> None:
    assert "/v1/checks" in OPERATIONS
    assert "/v1/conflicts/c1/rounds/1/checks" in OPERATIONS


@pytest.mark.parametrize("path", OPERATIONS)
@pytest.mark.parametrize("shape", DEEP_BODIES)
def test_json_nested_past_the_decoders_depth_is_a_400(
    client: TestClient, path: str, shape: str
) -> None:
    response = client.post(path, content=DEEP_BODIES[shape], headers=JSON)
    body = assert_problem(response, 400, response.json()["type"].rsplit("/", 1)[1])
    assert body["type"] in ("/problems/invalid-body", "/problems/malformed-json")


@pytest.mark.parametrize("path", OPERATIONS)
@pytest.mark.parametrize("body", [b'{"zz": "caf\xe9"}', b'"\xff"', b'{"\xff": 1}'])
def test_invalid_utf8_inside_a_string_is_a_400(client: TestClient, path: str, body: bytes) -> None:
    response = client.post(path, content=body, headers=JSON)
    problem = assert_problem(response, 400, response.json()["type"].rsplit("/", 1)[1])
    assert problem["type"] in ("/problems/invalid-body", "/problems/malformed-json")


def test_invalid_utf8_in_a_known_field_says_so(client: TestClient) -> None:
    response = client.post("/v1/checks", content=b'{"dice": "caf\xe9"}', headers=JSON)
    problem = assert_problem(response, 400, "malformed-json")
    assert problem["errors"] == [
        {
            "code": "invalid-utf8",
            "pointer": "",
            "detail": "A string in the body is not valid UTF-8.",
        }
    ]


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        (b'{"nope": 1}', "unknown-field", "/nope"),
        (b"{}", "missing-field", "/target"),
        (b'{"target": 10, "quick10": "yes"}', "wrong-type", "/quick10"),
        (b'{"target": 10, "seed": -1}', "out-of-range", "/seed"),
    ],
)
def test_schema_errors_carry_a_stable_code(
    client: TestClient, body: bytes, code: str, pointer: str
) -> None:
    response = client.post("/v1/checks", content=body, headers=JSON)
    (error,) = assert_problem(response, 400, "invalid-body")["errors"]
    assert (error["code"], error["pointer"]) == (code, pointer)


def test_a_problem_without_reasons_still_has_an_empty_errors_list(client: TestClient) -> None:
    response = client.get("/v1/conflicts/nope", headers={"Authorization": "Bearer t"})
    errors = assert_problem(response, 404, "not-found")["errors"]
    assert [error["code"] for error in errors] == ["not-found"]
