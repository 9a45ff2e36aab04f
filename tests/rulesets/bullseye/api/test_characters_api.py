"""POST /v1/characters/validate and /v1/parties/validate through the real app."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from litestar.testing import TestClient

from service.rulesets.bullseye.api.examples import (
    CHARACTER_EXAMPLES,
    PARTY_EXAMPLES,
    VALID_CHARACTER,
)
from service.rulesets.bullseye.rules.characters import SheetCode
from tests.support.problems import assert_problem

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "characters"
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.json"))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_example_characters(client: TestClient, path: Path) -> None:
    """Each example sheet under tests/rulesets/bullseye/examples/characters gets exactly its
    expected verdict."""
    example = json.loads(path.read_text())
    response = client.post("/v1/characters/validate", json=example["request"])
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is example["expect"]["valid"]
    assert [v["code"] for v in report["violations"]] == example["expect"]["codes"]
    assert all(v["pointer"].startswith(("/character", "/previous")) for v in report["violations"])


def test_every_violation_code_has_an_example_or_a_party_test() -> None:
    shown = {p.stem.removeprefix("invalid-") for p in EXAMPLE_FILES}
    warnings_and_party = {
        SheetCode.POINTS_UNSPENT,
        SheetCode.NOT_YET_DEFINED,
        SheetCode.NEGATIVE_QUALITY_FREE,
        SheetCode.PREVIOUS_IGNORED,
        SheetCode.DUPLICATE_CHARACTER_NAME,
    }
    assert {code.value for code in SheetCode} - {c.value for c in warnings_and_party} <= shown


def test_the_published_example_is_the_valid_example_file(client: TestClient) -> None:
    """The OpenAPI example and the example file valid-full-sheet.json are one sheet."""
    example = json.loads((EXAMPLES / "valid-full-sheet.json").read_text())
    assert example["request"] == VALID_CHARACTER == CHARACTER_EXAMPLES[0].value
    published = client.get("/openapi.json").json()
    body = published["paths"]["/v1/characters/validate"]["post"]["requestBody"]
    values = [e["value"] for e in body["content"]["application/json"]["examples"].values()]
    assert VALID_CHARACTER in values


def test_a_valid_sheet_reports_points_and_conditions(client: TestClient) -> None:
    """§3.3.2–§3.3.5: 24 + 24 + 12 = 60 of 60; health 44 → 33 / 22 / 11."""
    report = client.post("/v1/characters/validate", json=VALID_CHARACTER).json()
    assert report["points"] == {
        "budget": 60,
        "spent": 60,
        "remaining": 0,
        "qualities": 24,
        "depletable": 24,
        "depletion_modifier": 12,
    }
    assert report["conditions"] == [
        {
            "name": "health",
            "maximum": 44,
            "thresholds": {"minor": 33, "major": 22, "incapacitated": 11},
        }
    ]


def test_advancement_raises_the_budget(client: TestClient) -> None:
    """§7.4: 25 conflicts → 2 more points."""
    body = {**VALID_CHARACTER, "variants": {"advancement_conflicts": 25}}
    report = client.post("/v1/characters/validate", json=body).json()
    assert report["points"]["budget"] == 62
    assert [w["code"] for w in report["warnings"]] == ["points-unspent"]


def test_an_invalid_sheet_is_200_with_every_violation(client: TestClient) -> None:
    response = client.post("/v1/characters/validate", json=CHARACTER_EXAMPLES[1].value)
    assert response.status_code == 200
    codes = [v["code"] for v in response.json()["violations"]]
    assert codes == [
        "core-not-unique",
        "core-magnitude",
        "additional-out-of-range",
        "depletable-out-of-range",
        "over-budget",
    ]


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (
            {"character": {"name": "A", "qualities": [{"name": "x", "type": "core"}]}},
            "/character/qualities/0/magnitude",
        ),
        (
            {"character": {"name": "A"}, "variants": {"advancement_conflicts": -1}},
            "/variants/advancement_conflicts",
        ),
        ({"character": {"name": "A", "hp": 3}}, "/character/hp"),
        ({"variants": {}}, "/character"),
    ],
)
def test_a_malformed_sheet_is_400(client: TestClient, body: dict, pointer: str) -> None:
    problem = assert_problem(client.post("/v1/characters/validate", json=body), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == pointer


def test_a_party_shares_one_score(client: TestClient) -> None:
    """§7.5: 20 + 10 + 10 = 40, each member paying its 10 points."""
    response = client.post("/v1/parties/validate", json=PARTY_EXAMPLES[0].value)
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is True
    assert report["group"]["maximum"] == 40
    assert [m["points"]["depletable"] for m in report["members"]] == [10, 10]


def test_party_violations_point_into_the_members(client: TestClient) -> None:
    party = json.loads(json.dumps(PARTY_EXAMPLES[0].value))
    party["members"][1]["character"]["name"] = "vex"
    party["members"][0]["character"]["qualities"][0]["magnitude"] = 7
    report = client.post("/v1/parties/validate", json=party).json()
    assert report["valid"] is False
    assert report["violations"] == [
        {
            "code": "duplicate-character-name",
            "pointer": "/members/1/character/name",
            "detail": report["violations"][0]["detail"],
        }
    ]
    assert (
        report["members"][0]["violations"][0]["pointer"]
        == "/members/0/character/qualities/0/magnitude"
    )


def test_a_party_needs_one_to_twelve_members(client: TestClient) -> None:
    body = {"group_depletable": {"name": "time"}, "members": []}
    problem = assert_problem(client.post("/v1/parties/validate", json=body), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == "/members"
