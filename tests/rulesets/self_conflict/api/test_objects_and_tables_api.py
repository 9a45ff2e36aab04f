"""Self/Conflict objects, tables and the published contract, through the real app:
``POST /v1/self-conflict/objects/validate``, ``GET …/tables[/{name}]``, ``GET
…/basic-talents`` ("Creating Objects", "The Scale", "Status", "Talents")."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from service.rulesets.self_conflict.api.examples import OBJECT_EXAMPLES
from tests.support.problems import assert_problem

VALIDATE = "/v1/self-conflict/objects/validate"
TABLES = "/v1/self-conflict/tables"
DOCUMENT: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[4] / "openapi/openapi.json").read_text()
)


def _example(index: int) -> dict[str, Any]:
    value = OBJECT_EXAMPLES[index].value
    assert isinstance(value, dict)
    return json.loads(json.dumps(value))  # a deep copy


def test_creating_objects_the_humanoid_example_is_valid(client: TestClient) -> None:
    """ "Creating Objects", "Talents": every step, the humanoid BTs; written talents."""
    response = client.post(VALIDATE, json=_example(0))
    assert response.status_code == 200, response.text
    report = response.json()
    assert (report["valid"], report["violations"], report["warnings"]) == (True, [], [])
    assert report["talents"][1] == {
        "pointer": "/object/talents/1",
        "written": "Fairly dangerous(4)",
        "label": "Fairly",
    }
    assert report["status"] == {"level": 6, "label": "Good"}


def test_creating_objects_every_break_at_once_with_pointers(client: TestClient) -> None:
    """ "Creating Objects": a broken sheet is still a 200, listing every violation."""
    body = _example(0)
    sheet = body["object"]
    sheet.update(story="Short. Too short.", signs=[], goal=None)
    sheet["talents"][0]["level"] = 7
    sheet["talents"][2]["level"] = -1
    sheet["talents"] = [t for t in sheet["talents"] if t["name"] != "Witty"]
    report = client.post(VALIDATE, json=body).json()
    assert report["valid"] is False
    assert [(v["code"], v["pointer"]) for v in report["violations"]] == [
        ("story-too-short", "/object/story"),
        ("talent-level-out-of-scale", "/object/talents/0/level"),
        ("talent-level-out-of-scale", "/object/talents/2/level"),
        ("basic-talent-missing", "/object/talents"),
        ("signs-missing", "/object/signs"),
        ("goal-missing", "/object/goal"),
    ]


def test_creating_objects_the_ship_example_is_valid(client: TestClient) -> None:
    """ "Talents" (the ship with its captain as a GT), "Goals and objectives" (D11)."""
    report = client.post(VALIDATE, json=_example(1)).json()
    assert (report["valid"], report["warnings"]) == (True, [])


def test_creating_objects_sentient_is_required_and_unknown_fields_refused(
    client: TestClient,
) -> None:
    """D11: no sheet skips the question; typos surface as 400s."""
    sheet = _example(1)["object"]
    del sheet["sentient"]
    problem = assert_problem(client.post(VALIDATE, json={"object": sheet}), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == "/object/sentient"
    sheet["sentient"] = False
    sheet["hit_points"] = 10
    assert_problem(client.post(VALIDATE, json={"object": sheet}), 400, "invalid-body")


def test_the_scale_status_and_outcome_tables(client: TestClient) -> None:
    """ "The Scale", "Status", TR: the three tables, sentence-case labels (D14)."""
    listing = client.get(TABLES).json()["tables"]
    assert [t["name"] for t in listing] == ["talent-scale", "status", "outcome"]
    scale = client.get(f"{TABLES}/talent-scale").json()
    assert scale["source"] == "The Scale"
    assert [(r["value"], r["label"]) for r in scale["rows"]] == [
        (0, "Not at all"),
        (1, "Not very"),
        (2, "Somewhat"),
        (3, "Moderately"),
        (4, "Fairly"),
        (5, "Very"),
        (6, "Extremely"),
    ]
    status = client.get(f"{TABLES}/status").json()
    assert [r["label"] for r in status["rows"]][0::6] == ["Fate under GM control", "Good"]
    outcome = client.get(f"{TABLES}/outcome").json()
    assert [(r["value"], r["label"]) for r in outcome["rows"]] == [
        (0, "Failure"),
        (6, "Marginal success"),
        (12, "Total success"),
    ]
    assert all(r["description"] for t in listing for r in t["rows"])


def test_an_unknown_table_is_404(client: TestClient) -> None:
    assert_problem(client.get(f"{TABLES}/hit-points"), 404, "not-found")


def test_talents_the_humanoid_basic_talents(client: TestClient) -> None:
    """ "Talents": the humanoid set, each with what it measures."""
    sets = client.get("/v1/self-conflict/basic-talents").json()["sets"]
    assert [s["name"] for s in sets] == ["humanoid"]
    assert [t["name"] for t in sets[0]["talents"]] == [
        "Agile",
        "Dangerous",
        "Disciplined",
        "Handy",
        "Influential",
        "Witty",
        "Tough",
    ]
    assert all(t["measures"] for t in sets[0]["talents"])


def test_the_ruleset_is_listed_stateless(client: TestClient) -> None:
    rulesets = client.get("/v1/rulesets").json()["rulesets"]
    ruleset = next(r for r in rulesets if r["id"] == "self-conflict")
    assert ruleset["route_prefix"] == "/v1/self-conflict"
    assert ruleset["stateful"] == []
    assert ruleset["work"] == {
        "title": "An untitled 2d6 talent system",
        "author": "JurviZ",
        "year": 2004,
    }
    assert set(ruleset["operations"]) == {
        "selfConflictCheck",
        "selfConflictCheckOdds",
        "selfConflictValidateObject",
        "selfConflictTables",
        "selfConflictTable",
        "selfConflictBasicTalents",
    }


# --- The published contract ---------------------------------------------------------------

_OPERATIONS = [
    operation
    for path, item in DOCUMENT["paths"].items()
    if path.startswith("/v1/self-conflict/")
    for operation in item.values()
]
_REQUESTS = [
    "SelfConflictTalentCheckRequest",
    "SelfConflictTalentOddsRequest",
    "SelfConflictTalent",
    "SelfConflictGmModifier",
    "SelfConflictKarma",
    "SelfConflictObjectValidation",
    "SelfConflictObject",
    "SelfConflictObjectTalent",
    "SelfConflictStatus",
]


def test_every_request_integer_is_bounded_every_string_capped_every_list_sized() -> None:
    """docs/shared.md: bounds on everything, unknown fields refused."""
    schemas = DOCUMENT["components"]["schemas"]
    loose: list[str] = []

    def visit(where: str, node: dict[str, Any]) -> None:
        for option in node.get("anyOf", []):
            visit(where, option)
        kind = node.get("type")
        if kind == "integer" and not ("minimum" in node and "maximum" in node):
            loose.append(where)
        if kind == "string" and "maxLength" not in node and "enum" not in node:
            loose.append(where)
        if kind == "array":
            if "maxItems" not in node:
                loose.append(where)
            visit(f"{where}[]", node["items"])

    for name in _REQUESTS:
        schema = schemas[name]
        assert schema["additionalProperties"] is False, name
        for field, spec in schema["properties"].items():
            visit(f"{name}.{field}", spec)
    assert loose == []


def test_the_descriptions_state_every_decision() -> None:
    """The OpenAPI text names each decision D1…D16 of docs/self-conflict.md."""
    text = " ".join(op["description"] for op in _OPERATIONS)
    stated = {int(n) for n in re.findall(r"\bD([0-9]{1,2})\b", text)}
    assert stated >= set(range(1, 17)), sorted(set(range(1, 17)) - stated)


def test_every_operation_is_named_for_the_ruleset() -> None:
    assert len(_OPERATIONS) == 6
    assert all(op["operationId"].startswith("selfConflict") for op in _OPERATIONS)
    assert all(op["tags"] == ["self-conflict"] for op in _OPERATIONS)


@pytest.mark.parametrize(
    "code",
    [
        "faces-and-seed",
        "faces-missing",
        "faces-extra",
        "conflict-modifier-out-of-range",
        "karma-insufficient",
    ],
)
def test_every_code_is_a_problem_type(client: TestClient, code: str) -> None:
    answer = client.get(f"/problems/self-conflict/{code}")
    assert answer.status_code == 200
    assert answer.json()["status"] == 422
