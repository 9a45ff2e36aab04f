"""POST /v1/checks/odds, and `with_odds` on /v1/checks and /v1/checks/batch, through the
real app and a real Redis."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from tests.support.problems import assert_problem

KEEN_EYE = {"target": 12, "qualities": [{"name": "Keen eye", "type": "intrinsic", "magnitude": 3}]}
AT_ISSUE = {
    **KEEN_EYE,
    "depletable": [{"name": "health", "current": 30, "maximum": 42}],
    "depletion": {"actor": {"depletion_modifier": -2}, "opposition": {"threat": 10}},
}


def test_section_2_1_the_odds_of_plus_3_against_12(client: TestClient) -> None:
    """§2.1.2, §2.4: a d20 + 3 beats 12 on 10…20 and ties on 9; §2.5 a Quick 10 (13)
    succeeds for sure; §7.2 a bullseye held is spent on 1…9; §7.1 every dice kind."""
    response = client.post("/v1/checks/odds", json=KEEN_EYE)
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["dice"], body["total_modifier"], body["target"]) == ("d20", 3, 12)
    asked = body["as_asked"]
    assert asked["success"] == {"p": 0.55, "exact": "11/20"}
    assert asked["stalemate"] == {"p": 0.05, "exact": "1/20"}
    assert asked["failure"] == {"p": 0.4, "exact": "2/5"}
    assert asked["die_result"][0] == {"value": 1, "p": 0.05, "exact": "1/20"}
    assert asked["yield"][0] == {"value": 4, "label": "Poor", "p": 0.05, "exact": "1/20"}
    assert asked["spread"][-1] == {
        "value": 11,
        "label": "Notable Success",
        "p": 0.05,
        "exact": "1/20",
    }
    assert [band["label"] for band in asked["spread_bands"]][:2] == [
        "Utter Catastrophe",
        "Significant Failure",
    ]
    assert (asked["depletion"], asked["restoration"]) == (None, None)
    assert [kind["dice"] for kind in body["dice_kinds"]] == ["d20", "2d10", "3d6", "4d6-4"]
    d20 = body["dice_kinds"][0]
    assert d20["rolled"] == asked
    assert d20["held_bullseye_spent"]["exact"] == "9/20"
    assert d20["with_held_bullseye"]["success"]["exact"] == "1/1"
    assert body["dice_kinds"][2]["rolled"]["success"]["exact"] == "5/8"  # 3d6 ≥ 10: 135/216
    assert body["with_quick10"]["success"] == {"p": 1.0, "exact": "1/1"}
    assert body["with_spent_bullseye"]["spread"] == [
        {"value": 11, "label": "Notable Success", "p": 1.0, "exact": "1/1"}
    ]
    assert body["warnings"] == []


def test_section_3_2_2_the_loss_distribution_over_http(client: TestClient) -> None:
    """§3.2.2: M = +3 − 2 (health 30 of 42, §3.2.3) = +1 against 12: die 1…10 costs the
    actor |Δ| + 10 − 2, die 11 ties, die 12…20 costs the opposition Δ; no Quick 10 (§2.5)."""
    body = client.post("/v1/checks/odds", json=AT_ISSUE).json()
    losses = body["as_asked"]["depletion"]["losses"]
    assert losses[0] == {"loser": "actor", "amount": 9, "p": 0.05, "exact": "1/20"}
    assert {"loser": "none", "amount": 0, "p": 0.05, "exact": "1/20"} in losses
    assert losses[-1] == {"loser": "opposition", "amount": 9, "p": 0.05, "exact": "1/20"}
    assert len(losses) == 20
    [health] = body["as_asked"]["depletion"]["after"]
    # 30 − 9…18 = 21…12, all at or below 21: −5, none at 10 or below
    assert health["conditions"] == [
        {"state": "impaired", "impairment": -2, "p": 0.5, "exact": "1/2"},
        {"state": "impaired", "impairment": -5, "p": 0.5, "exact": "1/2"},
    ]
    assert body["with_quick10"] is None


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        (
            {"target": 10, "depletable": [{"name": "health", "current": 10, "maximum": 42}]},
            "character-incapacitated",
            "/depletable/0/current",
        ),
        ({"target": 10, "quick10": True, "depletion": {}}, "quick10-with-depletion", "/quick10"),
        (
            {"target": 10, "strict": True, "situational": [{"label": "Gale", "magnitude": -6}]},
            "situational-out-of-range",
            "/situational",
        ),
    ],
)
def test_the_odds_refuse_what_the_check_refuses(
    client: TestClient, body: dict, code: str, pointer: str
) -> None:
    """§3.2.4, §2.5, §6.3: the check's codes and pointers, for the odds and the check."""
    for path in ("/v1/checks/odds", "/v1/checks"):
        problem = assert_problem(client.post(path, json=body), 422, code)
        assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [(code, pointer)]


@pytest.mark.parametrize(
    ("member", "value"), [("roll", {"faces": [3]}), ("seed", 7), ("with_odds", True)]
)
def test_odds_take_no_roll_seed_or_with_odds(client: TestClient, member: str, value) -> None:
    """Odds come before the roll: a member that rolls is unknown here, named at its pointer."""
    response = client.post("/v1/checks/odds", json={**KEEN_EYE, member: value})
    problem = assert_problem(response, 400, "invalid-body")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("unknown-field", f"/{member}")
    ]


def test_the_odds_warn_as_the_check_does(client: TestClient) -> None:
    """§6.3 lenient: a situational total of +6 is applied, with a warning."""
    body = {"target": 10, "situational": [{"label": "High ground", "magnitude": 6}]}
    odds = client.post("/v1/checks/odds", json=body).json()
    check = client.post("/v1/checks", json={**body, "seed": 3}).json()
    assert [w["code"] for w in odds["warnings"]] == ["situational-out-of-range"]
    assert odds["warnings"] == check["warnings"]
    assert odds["modifiers"] == check["modifiers"]


def test_a_check_with_odds_carries_the_odds_endpoints_answer(client: TestClient) -> None:
    """`with_odds`: the check's `odds` equal `checkOdds` for the body less seed and flag;
    without it `odds` is null, and the roll is the same either way."""
    seeded = {**AT_ISSUE, "dice": "3d6", "seed": 11}
    plain = client.post("/v1/checks", json=seeded).json()
    asked = client.post("/v1/checks", json={**seeded, "with_odds": True}).json()
    odds = client.post("/v1/checks/odds", json={**AT_ISSUE, "dice": "3d6"}).json()
    assert plain["odds"] is None
    assert asked["odds"] == odds
    assert asked["faces"] == plain["faces"]
    assert {k: v for k, v in asked.items() if k not in ("id", "odds")} == {
        k: v for k, v in plain.items() if k not in ("id", "odds")
    }


def test_with_odds_in_a_batch_is_per_check(client: TestClient) -> None:
    """Each check of a batch asks for its own odds; a refused one refuses the batch."""
    response = client.post(
        "/v1/checks/batch",
        json={"checks": [{**KEEN_EYE, "seed": 1, "with_odds": True}, {"target": 5, "seed": 2}]},
    )
    assert response.status_code == 200, response.text
    first, second = response.json()["results"]
    assert first["odds"] == client.post("/v1/checks/odds", json=KEEN_EYE).json()
    assert second["odds"] is None
    refused = client.post(
        "/v1/checks/batch",
        json={
            "checks": [
                {"target": 5, "with_odds": True},
                {"target": 5, "with_odds": True, "quick10": True, "depletion": {}},
            ]
        },
    )
    problem = assert_problem(refused, 422, "quick10-with-depletion")
    assert [e["pointer"] for e in problem["errors"]] == ["/checks/1/quick10"]
