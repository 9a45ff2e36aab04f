"""What the published document promises generated clients: declared headers, security and
shell statuses on every operation, typed enums, timestamps, optional request defaults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from service.app import published_openapi
from service.settings import Settings

DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "openapi/openapi.json").read_text()
)
SCHEMAS = DOCUMENT["components"]["schemas"]


def _operations(document: dict[str, Any] = DOCUMENT) -> list[tuple[str, dict[str, Any]]]:
    return [
        (f"{method.upper()} {path}", operation)
        for path, item in document["paths"].items()
        for method, operation in item.items()
    ]


def _header_names(response: dict[str, Any]) -> set[str]:
    return set(response.get("headers", {}))


def _problem_schemas(operation: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        content["schema"]
        for response in operation["responses"].values()
        if (content := response.get("content", {}).get("application/problem+json"))
    ]


@pytest.mark.parametrize(("name", "operation"), _operations(), ids=[n for n, _ in _operations()])
def test_every_problem_of_an_operation_has_one_schema_a_problem_at_least(
    name: str, operation: dict[str, Any]
) -> None:
    """One error type per operation in a generated client (openapi-fetch's `error`): the
    shell's 401, 408 and 429 take the schema of the operation's own problems, which is
    `Problem` or one with every member of `Problem` and optional extension members."""
    schemas = _problem_schemas(operation)
    assert len({json.dumps(schema) for schema in schemas}) <= 1, name
    if not schemas:
        return
    schema = SCHEMAS[schemas[0]["$ref"].removeprefix("#/components/schemas/")]
    problem = SCHEMAS["Problem"]
    assert schema["required"] == problem["required"], name
    assert all(schema["properties"][key] == value for key, value in problem["properties"].items())


V1 = [(name, op) for name, op in _operations() if name.split()[1].startswith("/v1/")]
SESSION = [(name, op) for name, op in V1 if "/v1/conflicts" in name]


@pytest.mark.parametrize(("name", "operation"), V1, ids=[name for name, _ in V1])
def test_every_v1_operation_declares_security_401_and_429(
    name: str, operation: dict[str, Any]
) -> None:
    assert operation.get("security", DOCUMENT["security"]), name
    for status in ("401", "429"):
        content = operation["responses"][status]["content"]
        assert content["application/problem+json"]["schema"] == _problem_schemas(operation)[0]
    assert {"RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"} <= _header_names(
        operation["responses"]["429"]
    )
    assert "Retry-After" in _header_names(operation["responses"]["429"])


@pytest.mark.parametrize(("name", "operation"), SESSION, ids=[name for name, _ in SESSION])
def test_every_session_operation_may_answer_503_with_retry_after(
    name: str, operation: dict[str, Any]
) -> None:
    assert "Retry-After" in _header_names(operation["responses"]["503"])


def test_every_answer_names_its_request_id_as_a_string() -> None:
    header = DOCUMENT["components"]["headers"]["X-Request-ID"]
    assert header["schema"]["type"] == "string"
    for name, operation in _operations():
        for status, response in operation["responses"].items():
            assert "X-Request-ID" in _header_names(response), (name, status)


def test_slow_and_huge_requests_are_stated_408_on_every_operation_with_a_body() -> None:
    """docs/slow-and-huge-requests.md: the server's body-less 431 is stated once, for the
    document (declared per operation it would make every generated client's error type
    optional); the app's 408 is a problem on every operation that reads a body."""
    description = DOCUMENT["info"]["description"]
    assert "431" in description
    assert "MAX_HEADER_BYTES" in description
    assert "HEADER_READ_TIMEOUT_SECONDS" in description
    for name, operation in _operations():
        responses = operation["responses"]
        assert "431" not in responses, name
        if "requestBody" in operation:
            content = responses["408"]["content"]["application/problem+json"]
            assert content["schema"] == _problem_schemas(operation)[0], name
        else:
            assert "408" not in responses, name


def test_session_reads_and_writes_declare_their_etag_and_creates_their_location() -> None:
    operations = dict(_operations())
    for name, statuses in {
        "GET /v1/conflicts/{conflict_id}": ("200", "304"),
        "POST /v1/conflicts/{conflict_id}/rounds": ("200",),
        "POST /v1/conflicts/{conflict_id}/rounds/{number}/checks": ("200", "202"),
        "POST /v1/conflicts/{conflict_id}/outcome": ("200",),
        "POST /v1/conflicts": ("201",),
    }.items():
        for status in statuses:
            assert "ETag" in _header_names(operations[name]["responses"][status]), name
    created = operations["POST /v1/conflicts"]["responses"]["201"]
    assert "Location" in _header_names(created)


def test_api_keys_when_configured_are_required_on_every_v1_operation() -> None:
    document = json.loads(
        published_openapi(
            Settings(redis_url="redis://unused", api_keys="k-0123456789abcdefghijklmnopqrstuv")
        )
    )
    for name, operation in _operations(document):
        if not name.split()[1].startswith("/v1/"):
            continue
        for requirement in operation["security"]:
            assert {"apiKey", "apiKeyBearer"} & set(requirement), (name, requirement)


def test_without_keys_the_key_is_declared_once_and_optional() -> None:
    """Declared for the document (so generated clients need no credentials for checks),
    overridden by the session routes' tokens and by the open operations' none."""
    operations = dict(_operations())
    assert DOCUMENT["security"] == [{}, {"apiKey": []}, {"apiKeyBearer": []}]
    assert "security" not in operations["POST /v1/checks"]
    assert {} not in operations["GET /v1/conflicts/{conflict_id}"]["security"]
    assert operations["GET /healthz"]["security"] == []


def _nodes(node: Any) -> list[dict[str, Any]]:
    found = []
    if isinstance(node, dict):
        found.append(node)
        for value in node.values():
            found += _nodes(value)
    elif isinstance(node, list):
        for item in node:
            found += _nodes(item)
    return found


def test_every_enum_carries_its_type() -> None:
    enums = [node for node in _nodes(SCHEMAS) if "enum" in node]
    assert enums
    assert all(node.get("type") == "string" for node in enums), [
        node for node in enums if node.get("type") != "string"
    ]


def test_timestamps_are_date_times() -> None:
    for schema in SCHEMAS.values():
        for field, spec in schema.get("properties", {}).items():
            if field.endswith("_at"):
                assert spec["format"] == "date-time", field


def test_request_fields_with_defaults_are_optional_and_say_their_default() -> None:
    check = SCHEMAS["CheckRequest"]
    assert check["required"] == ["target"]
    assert "default" not in json.dumps(check)
    assert check["properties"]["quick10"]["description"].endswith("Default: `false`.")


def test_answers_list_every_always_sent_field_as_required() -> None:
    result = SCHEMAS["CheckResult"]
    assert set(result["required"]) == set(result["properties"])


def test_a_submissions_two_answers_differ_by_a_required_kind() -> None:
    operation = DOCUMENT["paths"]["/v1/conflicts/{conflict_id}/rounds/{number}/checks"]["post"]
    kinds = {}
    for status in ("200", "202"):
        ref = operation["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        schema = SCHEMAS[ref.rsplit("/", 1)[1]]
        assert "kind" in schema["required"]
        kinds[status] = schema["properties"]["kind"]["enum"]
    assert kinds == {"200": ["round"], "202": ["submission"]}


def test_request_and_answer_schema_names_pair() -> None:
    operations = dict(_operations())

    def names(name: str) -> tuple[str, str]:
        operation = operations[name]
        body = operation["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        answer = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        return body.rsplit("/", 1)[1], answer.rsplit("/", 1)[1]

    assert names("POST /v1/characters/validate") == (
        "CharacterValidation",
        "CharacterValidationReport",
    )
    assert names("POST /v1/parties/validate") == ("PartyValidation", "PartyValidationReport")
    assert names("POST /v1/checks") == ("CheckRequest", "CheckResult")


def test_optional_header_parameters_are_plain_strings() -> None:
    for name, operation in _operations():
        for parameter in operation.get("parameters", []):
            if parameter["in"] == "header":
                assert parameter["schema"]["type"] == "string", (name, parameter["name"])


def test_every_schema_has_a_plain_name() -> None:
    """Two rulesets' types of one name (an `Outcome` in each) make Litestar publish both
    under their module paths, renaming the first ruleset's schema too and breaking its
    generated clients: every name stays a plain identifier."""
    names = DOCUMENT["components"]["schemas"]
    assert [name for name in names if not name.isidentifier()] == []
