"""GET /v1/conditions, /v1/tables, /problems/{code} and the framework's own errors."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from service.http.contract.problem_types import PROBLEM_TYPES
from service.rulesets.bullseye.rules.codes import RuleCode
from tests.support.problems import assert_problem


@pytest.mark.parametrize(
    ("current", "impairment", "state"),
    [
        (42, 0, "healthy"),
        (32, 0, "healthy"),
        (31, -2, "impaired"),
        (21, -5, "impaired"),
        (11, -5, "impaired"),
        (10, -5, "incapacitated"),
        (0, -5, "retired"),
    ],
)
def test_conditions_follow_the_books_example(
    client: TestClient, current: int, impairment: int, state: str
) -> None:
    """§3.2.3–§3.2.5: maximum 42 → −2 at 31, −5 at 21, incapacitated at 10."""
    response = client.get("/v1/conditions", params={"maximum": 42, "current": current})
    assert response.status_code == 200
    body = response.json()
    assert (body["impairment"], body["state"]) == (impairment, state)
    assert body["thresholds"] == {"minor": 31, "major": 21, "incapacitated": 10}


def test_a_score_above_its_maximum_is_422(client: TestClient) -> None:
    """§3.2.6: the error names the query parameter at fault."""
    response = client.get("/v1/conditions", params={"maximum": 42, "current": 43})
    problem = assert_problem(response, 422, "current-above-maximum")
    assert [(e.get("parameter"), e.get("pointer")) for e in problem["errors"]] == [
        ("current", None)
    ]


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"maximum": 0, "current": 0}, "maximum"),
        ({"maximum": "x", "current": 1}, "maximum"),
        ({"maximum": 42}, "current"),
    ],
)
def test_bad_query_parameters_are_400_naming_the_parameter(
    client: TestClient, params: dict, parameter: str
) -> None:
    problem = assert_problem(client.get("/v1/conditions", params=params), 400, "invalid-parameter")
    assert problem["errors"][0]["parameter"] == parameter


def test_tables_list_all_six(client: TestClient) -> None:
    names = [t["name"] for t in client.get("/v1/tables").json()["tables"]]
    assert names == ["yield", "modifier", "target", "spread", "depletion", "magnitude"]


def test_one_table_by_name(client: TestClient) -> None:
    """§2.3.1."""
    table = client.get("/v1/tables/target").json()
    assert table["section"] == "§2.3.1"
    assert [(r["value"], r["label"]) for r in table["rows"]][:3] == [
        (0, "Nearly Certain"),
        (5, "Easy"),
        (10, "Average"),
    ]


def test_an_unknown_table_is_404(client: TestClient) -> None:
    assert_problem(client.get("/v1/tables/luck"), 404, "not-found")


def test_every_problem_type_is_resolvable(client: TestClient) -> None:
    for code in PROBLEM_TYPES:
        body = client.get(f"/problems/{code}").json()
        assert body["type"] == f"/problems/{code}"
        assert body["description"]
    assert {code.value for code in RuleCode} <= set(PROBLEM_TYPES)
    index = client.get("/problems").json()["problems"]
    assert [p["code"] for p in index] == list(PROBLEM_TYPES)
    assert_problem(client.get("/problems/no-such-thing"), 404, "not-found")


def test_unknown_routes_are_404_problems(client: TestClient) -> None:
    assert_problem(client.get("/v1/nothing-here"), 404, "not-found")


def test_wrong_methods_are_405_problems_with_allow(client: TestClient) -> None:
    response = client.get("/v1/checks")
    assert_problem(response, 405, "method-not-allowed")
    assert "POST" in response.headers["allow"]
    assert_problem(client.delete("/v1/tables"), 405, "method-not-allowed")


def test_health_never_needs_redis_and_readiness_does(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    assert client.get("/readyz").json()["status"] == "ready"


def test_the_docs_page_uses_no_cdn(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200
    assert "https://" not in page.text
    assert "http://" not in page.text
    assert client.get("/docs/assets/swagger-ui-bundle.js").status_code == 200
