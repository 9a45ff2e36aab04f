"""OpenD6 rolls over HTTP: ``/v1/opend6/rolls``, ``/opposed``, ``/initiative``."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.support.problems import assert_problem


def test_a_roll_with_the_tables_faces_answers_every_die_with_its_role(client: TestClient) -> None:
    """ "Rolling Dice", "Fate Points": devices 4D+2 doubled → 8D+4 against 30."""
    response = client.post(
        "/v1/opend6/rolls",
        json={
            "base": {"type": "skill", "code": "4D+2"},
            "fate_point": True,
            "faces": {"regular": [3, 4, 5, 2, 6, 1, 3], "wild": [6, 2]},
            "difficulty": {"kind": "number", "value": 30},
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["rolled_code"] == "8D+4"
    assert [step["step"] for step in body["steps"]] == ["base", "fate_point"]
    assert [d["role"] for d in body["dice"]][-2:] == ["wild", "wild_explosion"]
    assert (body["total"], body["outcome"], body["result_points"]) == (36, "success", 6)
    assert body["wild"] == {"initial": 6, "explosions": 1, "critical": "success"}
    assert body["related_skill_modifier"] == 3
    assert body["points"]["spent"] == {"character_points": 0, "fate_points": 1}
    assert body["difficulty"]["label"] == "Heroic"  # 26–30


def test_a_seeded_roll_replays(client: TestClient) -> None:
    body = {"base": {"type": "attribute", "code": "3D+1"}, "seed": 12345}
    first = client.post("/v1/opend6/rolls", json=body).json()
    second = client.post("/v1/opend6/rolls", json=body).json()
    assert first["dice"] == second["dice"]
    assert first["id"] != second["id"]


def test_refusals_are_opend6_problems_with_pointers(client: TestClient) -> None:
    problem = assert_problem(
        client.post(
            "/v1/opend6/rolls",
            json={
                "base": {"type": "skill", "code": "2D"},
                "fate_point": True,
                "character_points": {"before": 1},
                "faces": {"regular": [3, 3], "wild": [4], "character_points": [[2]]},
            },
        ),
        422,
        "opend6/cp-with-fp",
    )
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("opend6/cp-with-fp", "/character_points"),
        ("opend6/faces-missing", "/faces/regular"),  # 2D doubled is 4D: three regular dice
    ]
    assert problem["errors"][1]["detail"].startswith("1 more")
    assert client.get(problem["type"]).status_code == 200


def test_a_bad_die_code_is_a_schema_error(client: TestClient) -> None:
    response = client.post("/v1/opend6/rolls", json={"base": {"type": "skill", "code": "3X"}})
    assert_problem(response, 400, "invalid-body")


def test_an_opposed_roll_over_http(client: TestClient) -> None:
    response = client.post(
        "/v1/opend6/opposed",
        json={
            "initiator": {
                "base": {"type": "skill", "code": "2D"},
                "kind": "attack",
                "faces": {"regular": [6], "wild": [5]},
            },
            "resister": {
                "base": {"type": "skill", "code": "2D"},
                "faces": {"regular": [3], "wild": [3]},
            },
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["margin"], body["winner"], body["damage_bonus"]) == (5, "initiator", 1)


def test_initiative_over_http(client: TestClient) -> None:
    response = client.post(
        "/v1/opend6/initiative",
        json={
            "participants": [
                {"id": "urchin", "name": "Urchin", "acumen": "2D", "agility": "3D", "total": 8},
                {"id": "knight", "name": "Knight", "acumen": "3D", "agility": "2D", "total": 8},
            ]
        },
    )
    assert response.status_code == 200, response.text
    order = response.json()["order"]
    assert [(p["participant"], p["decided_by"]) for p in order] == [
        ("knight", "acumen"),
        ("urchin", None),
    ]


def test_the_ruleset_is_listed(client: TestClient) -> None:
    rulesets = client.get("/v1/rulesets").json()["rulesets"]
    opend6 = next(r for r in rulesets if r["id"] == "opend6")
    assert opend6["route_prefix"] == "/v1/opend6"
    assert {"openD6Roll", "openD6Opposed", "openD6Initiative"} <= set(opend6["operations"])


def test_the_odds_of_a_roll_are_exact_fractions_to_12_decimals(client: TestClient) -> None:
    """Exact odds: 2D ≥ 7 → 5/9 under cancel_highest, 7/12 under complication."""
    response = client.post(
        "/v1/opend6/rolls/odds",
        json={
            "base": {"type": "skill", "code": "2D"},
            "difficulty": {"kind": "number", "value": 7},
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["odds"]["p_success"] == {
        "cancel_highest": round(5 / 9, 12),
        "complication": round(7 / 12, 12),
    }
    listed = sum(row["probability"] for row in body["odds"]["distribution"])
    assert abs(listed + body["odds"]["tail"]["probability"] - 1) < 1e-9


def test_the_odds_of_a_wild_die_only_roll(client: TestClient) -> None:
    body = client.post(
        "/v1/opend6/rolls/odds",
        json={"base": {"type": "skill", "code": "4D"}, "difficulty": {"kind": "wild_die_only"}},
    ).json()
    assert body["odds"] is None
    assert body["wild_die_only"] == {
        "critical_success": round(1 / 6, 12),
        "success": round(2 / 3, 12),
        "complication": round(1 / 6, 12),
    }


def test_the_odds_refuse_what_the_roll_would_refuse(client: TestClient) -> None:
    assert_problem(
        client.post(
            "/v1/opend6/rolls/odds",
            json={"base": {"type": "skill", "code": "1D"}, "bonuses": [{"label": "x", "dice": -1}]},
        ),
        422,
        "opend6/zero-dice",
    )
    assert_problem(
        client.post(
            "/v1/opend6/rolls/odds",
            json={"base": {"type": "skill", "code": "2D"}, "seed": 4},
        ),
        400,
        "invalid-body",
    )


def test_the_odds_of_an_opposed_roll_tie_to_the_initiator(client: TestClient) -> None:
    body = client.post(
        "/v1/opend6/opposed/odds",
        json={
            "initiator": {"base": {"type": "skill", "code": "3D"}},
            "resister": {"base": {"type": "skill", "code": "3D"}},
        },
    ).json()
    assert 0.5 < body["odds"]["p_initiator_wins"] < 0.6  # equal codes: ties tip it over ½
    assert body["odds"]["max_error"] <= 1e-12
