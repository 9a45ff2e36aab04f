"""OpenD6 rolls over HTTP: ``/v1/opend6/rolls``, ``/opposed``, ``/initiative``."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
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
        "cancel_highest": {"p": round(5 / 9, 12), "exact": "5/9"},
        "complication": {"p": round(7 / 12, 12), "exact": "7/12"},
    }
    listed = sum(Fraction(row["exact"]) for row in body["odds"]["distribution"])
    assert listed + Fraction(body["odds"]["tail"]["exact"]) == 1
    assert all(
        row["p"] == round(float(Fraction(row["exact"])), 12) for row in body["odds"]["distribution"]
    )


def test_the_odds_of_a_wild_die_only_roll(client: TestClient) -> None:
    body = client.post(
        "/v1/opend6/rolls/odds",
        json={"base": {"type": "skill", "code": "4D"}, "difficulty": {"kind": "wild_die_only"}},
    ).json()
    assert body["odds"] is None
    assert body["wild_die_only"] == {
        "critical_success": {"p": round(1 / 6, 12), "exact": "1/6"},
        "success": {"p": round(2 / 3, 12), "exact": "2/3"},
        "complication": {"p": round(1 / 6, 12), "exact": "1/6"},
    }


def test_the_odds_without_a_difficulty_give_the_chance_of_at_least_each_total(
    client: TestClient,
) -> None:
    """ "Determining Success" without a difficulty: `chances` (kind `total`) lists P(total
    ≥ t) for every t; 2D's P(≥ 7) is the 5/9 a difficulty of 7 succeeds with. The first
    release's `odds` still answers, and is published as deprecated."""
    body = client.post(
        "/v1/opend6/rolls/odds", json={"base": {"type": "skill", "code": "2D"}}
    ).json()
    assert body["chances"]["kind"] == "total"
    seven = next(row for row in body["chances"]["at_least"] if row["total"] == 7)
    assert seven == {"total": 7, "p": 0.555555555556, "exact": "5/9"}
    assert body["odds"]["p_success"] is None
    answer = client.get("/openapi.json").json()["components"]["schemas"]["OpenD6OddsAnswer"]
    assert answer["properties"]["odds"]["deprecated"] is True
    assert answer["properties"]["wild_die_only"]["deprecated"] is True
    assert "deprecated" not in answer["properties"]["chances"]


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
    wins = body["odds"]["p_initiator_wins"]
    assert 0.5 < wins["p"] < 0.6  # equal codes: ties tip it over ½
    assert wins["p"] == round(float(Fraction(wins["exact"])), 12)
    assert "max_error" not in body["odds"]  # exact: nothing is cut off


def _less_dice(body: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in body.items() if key not in {"faces", "seed", "with_odds"}}


ROLLS_WITH_ODDS = {
    "seeded, against Moderate": {
        "base": {"type": "skill", "code": "4D"},
        "bonuses": [{"label": "shovel", "dice": 1}],
        "difficulty": {"kind": "standard", "level": "moderate"},
        "seed": 42,
    },
    "the table's dice, a Character Point after, complication": {
        "base": {"type": "skill", "code": "3D+1"},
        "character_points": {"before": 1, "after": 1},
        "critical_failure": "complication",
        "faces": {
            "regular": [2, 5],
            "wild": [1],
            "character_points": [[6, 3]],
            "character_points_after": [[4]],
        },
        "difficulty": {"kind": "number", "value": 14},
    },
    "resisting, untrained, no difficulty": {
        "base": {"type": "untrained", "attribute": "2D+2"},
        "roller_is_initiator": False,
        "seed": 3,
    },
    "Wild Die Only": {
        "base": {"type": "skill", "code": "4D"},
        "difficulty": {"kind": "wild_die_only"},
        "faces": {"wild": [1]},
    },
    "automatic": {
        "base": {"type": "skill", "code": "2D"},
        "difficulty": {"kind": "standard", "level": "automatic"},
    },
}


@pytest.mark.parametrize("body", ROLLS_WITH_ODDS.values(), ids=ROLLS_WITH_ODDS.keys())
def test_a_roll_with_odds_carries_exactly_the_odds_answer(
    client: TestClient, body: dict[str, Any]
) -> None:
    """`with_odds: true`: the roll's answer carries `odds`, the odds operation's answer for
    the same body less its dice ("Character Points" before and after pooled); the roll
    itself is the one the same body without `with_odds` makes."""
    rolled = client.post("/v1/opend6/rolls", json={**body, "with_odds": True})
    assert rolled.status_code == 200, rolled.text
    twin = client.post("/v1/opend6/rolls/odds", json=_less_dice(body))
    assert twin.status_code == 200, twin.text
    with_odds = rolled.json()
    assert with_odds["odds"] == twin.json()
    plain = client.post("/v1/opend6/rolls", json=body).json()
    assert plain["odds"] is None
    if "faces" in body or "seed" in body:  # the same dice, so the same roll
        assert {k: v for k, v in with_odds.items() if k not in {"id", "odds"}} == {
            k: v for k, v in plain.items() if k not in {"id", "odds"}
        }


def test_an_opposed_roll_with_odds_carries_exactly_the_opposed_odds_answer(
    client: TestClient,
) -> None:
    """ "Opposed Difficulties" with `with_odds: true`: `odds` is `openD6OpposedOdds`' answer
    for both sides less their dice, the handicaps included (D17); null when not asked."""
    body: dict[str, Any] = {
        "initiator": {"base": {"type": "skill", "code": "4D+1"}, "seed": 7},
        "resister": {
            "base": {"type": "attribute", "code": "3D"},
            "character_points": {"before": 1},
            "seed": 8,
        },
        "modifiers": {"resister": [{"label": "dim light", "value": 3}]},
    }
    rolled = client.post("/v1/opend6/opposed", json={**body, "with_odds": True})
    assert rolled.status_code == 200, rolled.text
    twin = client.post(
        "/v1/opend6/opposed/odds",
        json={
            "initiator": _less_dice(body["initiator"]),
            "resister": _less_dice(body["resister"]),
            "modifiers": body["modifiers"],
        },
    )
    assert twin.status_code == 200, twin.text
    assert rolled.json()["odds"] == twin.json()
    assert client.post("/v1/opend6/opposed", json=body).json()["odds"] is None


def test_a_refused_roll_with_odds_is_refused_alike(client: TestClient) -> None:
    """The roll's refusal comes first: no odds for a roll that cannot be made (D3)."""
    assert_problem(
        client.post(
            "/v1/opend6/rolls",
            json={
                "base": {"type": "skill", "code": "1D"},
                "bonuses": [{"label": "x", "dice": -1}],
                "with_odds": True,
            },
        ),
        422,
        "opend6/zero-dice",
    )
