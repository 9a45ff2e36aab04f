"""Quick Shot's character and WP-rearranging routes as the service publishes them ("Cost",
"Charges", "Rearranging WP", D10–D13): the catalogued problem types, the published
operations, their examples and schema names. `test_characters_api.py` covers the bodies.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from litestar.testing import TestClient

from service.rulesets.quick_shot.api.characters import CHARACTER_EXAMPLES, FIELD_AGENT
from service.rulesets.quick_shot.api.willpower import REARRANGE_EXAMPLES, VACATION
from tests.support.problems import assert_problem

VALIDATE = "/v1/quick-shot/characters/validate"
REARRANGE = "/v1/quick-shot/willpower/rearrange"
CODES = ("rearrange-odd", "unknown-drive", "same-drive", "wp-insufficient", "vacation-too-short")


def test_cost_the_designs_character_through_the_app(client: TestClient) -> None:
    """ "Cost": the Part 3 sheet is valid; 5 minors leave it 1 short (D10)."""
    report = client.post(VALIDATE, json=copy.deepcopy(FIELD_AGENT)).json()
    assert (report["valid"], report["charges"]["remaining"]) == (
        True,
        {"minor": 0, "significant": 0, "major": 0},
    )
    short = CHARACTER_EXAMPLES[1].value
    assert isinstance(short, dict)
    report = client.post(VALIDATE, json=copy.deepcopy(short)).json()
    assert report["charges"]["missing_minor_equivalent"] == 1


def test_rearranging_wp_through_the_app(client: TestClient) -> None:
    """ "Rearranging WP": Duty 0, Revenge 3, 2 lost; removed 3 → 422 `rearrange-odd`."""
    report = client.post(REARRANGE, json=copy.deepcopy(VACATION)).json()
    assert [d["wp_after"] for d in report["drives"]] == [0, 3]
    assert report["lost"] == 2
    body = copy.deepcopy(VACATION)
    body["moves"][0]["removed"] = 3
    problem = assert_problem(client.post(REARRANGE, json=body), 422, "quick-shot/rearrange-odd")
    assert problem["errors"][0]["pointer"] == "/moves/0/removed"


@pytest.mark.parametrize("code", CODES)
def test_every_rearrange_code_is_a_problem_type(client: TestClient, code: str) -> None:
    """Each 422 of D13 resolves at `GET /problems/quick-shot/<code>`."""
    response = client.get(f"/problems/quick-shot/{code}")
    assert response.status_code == 200, response.text
    assert response.json()["status"] == 422


def test_the_operations_are_published_with_their_examples(client: TestClient) -> None:
    """Both operations, named for the ruleset, with every example and prefixed schemas."""
    document: dict[str, Any] = client.get("/openapi.json").json()
    for path, operation_id, examples in (
        (VALIDATE, "quickShotValidateCharacter", CHARACTER_EXAMPLES),
        (REARRANGE, "quickShotRearrangeWillpower", REARRANGE_EXAMPLES),
    ):
        operation = document["paths"][path]["post"]
        assert operation["operationId"] == operation_id
        published = operation["requestBody"]["content"]["application/json"]["examples"]
        assert [e["value"] for e in published.values()] == [e.value for e in examples]
        for example in examples:
            assert client.post(path, json=example.value).status_code == 200
    schemas = document["components"]["schemas"]
    for name in (
        "QuickShotCharacterValidation",
        "QuickShotCharacterReport",
        "QuickShotRearrangeRequest",
        "QuickShotRearrangeReport",
    ):
        assert name in schemas
    assert set(schemas["QuickShotChargeAccount"]["required"]) == {
        "earned",
        "needed",
        "combined",
        "remaining",
        "missing_minor_equivalent",
    }
