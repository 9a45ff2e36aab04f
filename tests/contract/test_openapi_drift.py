"""The committed openapi/openapi.json is the contract: it must equal what the app serves."""

from __future__ import annotations

import json
import subprocess

from litestar.testing import TestClient

from tests.support.served import ROOT

COMMITTED = ROOT / "openapi" / "openapi.json"


def test_committed_document_equals_the_served_one(client: TestClient) -> None:
    served = client.get("/openapi.json")
    assert served.status_code == 200
    assert served.content == COMMITTED.read_bytes(), "run `make openapi` and commit the result"


def test_make_openapi_check_passes() -> None:
    """`make openapi-check` is what CI and the pre-stop hook run."""
    result = subprocess.run(
        ["make", "-s", "openapi-check"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_every_field_of_every_request_body_is_bounded() -> None:
    """docs/shared.md: every integer has bounds, every string a max length,
    every list a max size."""
    schemas = json.loads(COMMITTED.read_text())["components"]["schemas"]
    request_types = [
        "CheckRequest",
        "BatchRequest",
        "Quality",
        "Situational",
        "DepletableScore",
        "DepletionAtIssue",
        "DepletionSide",
        "SuppliedRoll",
    ]
    unbounded = []

    def visit(where: str, node: dict) -> None:
        kinds = node.get("type")
        if "anyOf" in node:
            for option in node["anyOf"]:
                visit(where, option)
        if kinds == "integer" and not ("minimum" in node and "maximum" in node):
            unbounded.append(where)
        if kinds == "string" and "maxLength" not in node and "enum" not in node:
            unbounded.append(where)
        if kinds == "array":
            if "maxItems" not in node:
                unbounded.append(where)
            visit(where + "[]", node["items"])

    for name in request_types:
        schema = schemas[name]
        assert schema.get("additionalProperties") is False, f"{name} accepts unknown fields"
        for field, node in schema["properties"].items():
            visit(f"{name}.{field}", node)
    assert unbounded == []
