"""Quick Shot's character and WP-rearranging routes over HTTP ("Cost", "Charges",
"Rearranging WP", D10–D13), through the whole app."""

from __future__ import annotations

import copy
from typing import Any

from litestar.testing import TestClient

from service.rulesets.quick_shot.api.characters import (
    CHARACTER_EXAMPLES,
    FIELD_AGENT,
)
from service.rulesets.quick_shot.api.willpower import (
    REARRANGE_EXAMPLES,
    VACATION,
)
from tests.support.problems import assert_problem

VALIDATE = "/v1/quick-shot/characters/validate"
REARRANGE = "/v1/quick-shot/willpower/rearrange"


def _copy(value: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(value)


def test_cost_the_designs_character_is_valid(client: TestClient) -> None:
    """ "Cost", "Charges": TN 4, a minor and a significant extra, pool 6, 6/1/1 earned."""
    response = client.post(VALIDATE, json=_copy(FIELD_AGENT))
    assert response.status_code == 200, response.text
    report = response.json()
    assert (report["valid"], report["violations"], report["warnings"]) == (True, [], [])
    assert report["charges"]["combined"] == {"minor_to_significant": 1, "significant_to_major": 0}
    assert report["charges"]["remaining"] == {"minor": 0, "significant": 0, "major": 0}
    assert report["general_pool"] == {"base": 5, "bought": 1, "maximum": 6}
    assert report["willpower"] == {"general": 6, "drives": 5, "total": 11}


def test_charges_five_minors_short_by_one(client: TestClient) -> None:
    """D10: the published second example: `charges-insufficient`, missing 1."""
    value = CHARACTER_EXAMPLES[1].value
    assert isinstance(value, dict)
    report = client.post(VALIDATE, json=_copy(value)).json()
    assert report["valid"] is False
    assert [(v["code"], v["pointer"]) for v in report["violations"]] == [
        ("charges-insufficient", "/character/charges")
    ]
    assert report["charges"]["missing_minor_equivalent"] == 1


def test_characters_the_schema_refuses_what_no_rule_could_read(
    client: TestClient,
) -> None:
    """400s: an unknown field, an unknown extra type, a TN outside 1–9."""
    body = _copy(FIELD_AGENT)
    body["character"]["hit_points"] = 3
    assert_problem(client.post(VALIDATE, json=body), 400, "invalid-body")
    body = _copy(FIELD_AGENT)
    body["character"]["extras"][0]["type"] = "legendary"
    problem = assert_problem(client.post(VALIDATE, json=body), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == "/character/extras/0/type"
    body = _copy(FIELD_AGENT)
    body["character"]["stats"][0]["target_number"] = 10
    problem = assert_problem(client.post(VALIDATE, json=body), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == "/character/stats/0/target_number"


def test_rearranging_wp_the_designs_vacation(client: TestClient) -> None:
    """ "Rearranging WP": Duty 4 → 0, Revenge 1 → 3, 2 lost over 7 days."""
    response = client.post(REARRANGE, json=_copy(VACATION))
    assert response.status_code == 200, response.text
    assert response.json() == {
        "drives": [
            {"name": "Duty", "wp_before": 4, "wp_after": 0},
            {"name": "Revenge", "wp_before": 1, "wp_after": 3},
        ],
        "removed": 4,
        "added": 2,
        "lost": 2,
        "warnings": [],
    }


def test_rearranging_wp_the_second_example_warns(client: TestClient) -> None:
    """D13: 6 WP removed in two moves: `large-rearrangement`."""
    value = REARRANGE_EXAMPLES[1].value
    assert isinstance(value, dict)
    report = client.post(REARRANGE, json=_copy(value)).json()
    assert [w["code"] for w in report["warnings"]] == ["large-rearrangement"]
    assert [d["wp_after"] for d in report["drives"]] == [0, 1, 3]


def test_rearranging_wp_an_odd_removal_is_a_422(client: TestClient) -> None:
    """D13: removed 3 → 422 `rearrange-odd` at `/moves/0/removed`."""
    body = _copy(VACATION)
    body["moves"][0]["removed"] = 3
    problem = assert_problem(client.post(REARRANGE, json=body), 422, "quick-shot/rearrange-odd")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("quick-shot/rearrange-odd", "/moves/0/removed")
    ]


def test_rearranging_wp_every_refusal_in_one_problem(client: TestClient) -> None:
    """Unknown drive, same drive and a short vacation, all in one 422."""
    body = _copy(VACATION)
    body["moves"] = [
        {"from": "Pride", "to": "Duty", "removed": 2},
        {"from": "Duty", "to": "duty", "removed": 2},
    ]
    body["vacation_days"] = 2
    problem = assert_problem(client.post(REARRANGE, json=body), 422, "quick-shot/unknown-drive")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("quick-shot/unknown-drive", "/moves/0/from"),
        ("quick-shot/same-drive", "/moves/1/to"),
        ("quick-shot/vacation-too-short", "/vacation_days"),
    ]


def test_rearranging_wp_the_schema_bounds(client: TestClient) -> None:
    """400s: no moves, a removal of 0, `from` missing, a vacation of 0 days."""
    for change in (
        {"moves": []},
        {"moves": [{"from": "Duty", "to": "Revenge", "removed": 0}]},
        {"moves": [{"to": "Revenge", "removed": 2}]},
        {"vacation_days": 0},
        {"drives": []},
    ):
        body = {**_copy(VACATION), **change}
        assert_problem(client.post(REARRANGE, json=body), 400, "invalid-body")
