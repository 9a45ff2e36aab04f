"""POST /v1/opend6/die-codes and GET /v1/opend6/tables[/{name}], against the real app."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from service.http.contract.problem_types import PROBLEM_TYPES
from tests.support.problems import assert_problem

DIE_CODES = "/v1/opend6/die-codes"
TABLES = "/v1/opend6/tables"


def _codes(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post(DIE_CODES, json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_fate_point_doubles_the_devices_code(client: TestClient) -> None:
    """ "Fate Points" (devices 4D+2 → 8D+4: seven regular dice and the Wild Die, D1); +1D of
    equipment after the doubling → 9D+4 (D6)."""
    assert _codes(client, code="4D+2", double=True) == {
        "result": "8D+4",
        "dice": 8,
        "pips": 4,
        "normalised": "9D+1",
        "rollable": True,
        "regular_dice": 7,
        "derived_difficulty": 20,
        "derived_label": "Difficult",
    }
    assert _codes(client, code="4D+2", double=True, plus=["1D"])["result"] == "9D+4"


def test_the_shovel_adds_a_regular_die(client: TestClient) -> None:
    """ "Rolling Dice" (the shovel example): lifting 4D + 1D → 5D, four regular + the Wild."""
    answer = _codes(client, code="4d", plus=["1d"])
    assert (answer["result"], answer["regular_dice"]) == ("5D", 4)


def test_codes_add_per_component_and_answer_upper_case(client: TestClient) -> None:
    """D1: 2D+2 + 1D+1 = 3D+3, never 4D; normalised only for display."""
    answer = _codes(client, code="2d+2", plus=["1d+1"])
    assert (answer["result"], answer["dice"], answer["pips"]) == ("3D+3", 3, 3)
    assert answer["normalised"] == "4D"


def test_subtraction_borrows_and_leaves_a_value_not_a_roll(client: TestClient) -> None:
    """4D+1 − 3D+2 = 0D+2: a value, never rolled (D3)."""
    answer = _codes(client, code="4D+1", minus="3D+2")
    assert answer == {
        "result": "0D+2",
        "dice": 0,
        "pips": 2,
        "normalised": "0D+2",
        "rollable": False,
        "regular_dice": 0,
        "derived_difficulty": 2,
        "derived_label": "Very Easy",
    }


def test_one_die_is_the_wild_die_alone(client: TestClient) -> None:
    """ "Wild Die": with only 1D, that die is the Wild Die."""
    answer = _codes(client, code="1D")
    assert (answer["rollable"], answer["regular_dice"]) == (True, 0)


def test_the_urchins_charisma_derives_six(client: TestClient) -> None:
    """ "Special Difficulties" (the urchin example): Charisma 3D → 6 (D9), Easy (D8)."""
    answer = _codes(client, code="3D")
    assert (answer["derived_difficulty"], answer["derived_label"]) == (6, "Easy")


def test_a_negative_result_is_422(client: TestClient) -> None:
    problem = assert_problem(
        client.post(DIE_CODES, json={"code": "3D+2", "minus": "4D+1"}),
        422,
        "opend6/negative-code",
    )
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("opend6/negative-code", "/minus")
    ]


def test_a_component_above_40_is_422_at_its_pointer(client: TestClient) -> None:
    problem = assert_problem(
        client.post(DIE_CODES, json={"code": "3D", "plus": ["1D", "41D"]}),
        422,
        "opend6/invalid-code",
    )
    assert [e["pointer"] for e in problem["errors"]] == ["/plus/1"]


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"code": "3D-1"}, "/code"),
        ({"code": "D6"}, "/code"),
        ({"code": "3D", "plus": ["1D"] * 11}, "/plus"),
        ({"code": "3D", "double": "yes"}, "/double"),
        ({"code": "3D", "times": 2}, "/times"),
        ({}, "/code"),
    ],
)
def test_an_unschematic_body_is_400(client: TestClient, body: dict[str, Any], pointer: str) -> None:
    problem = assert_problem(client.post(DIE_CODES, json=body), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == pointer


def test_the_tables_list_all_five(client: TestClient) -> None:
    names = [table["name"] for table in client.get(TABLES).json()["tables"]]
    assert names == [
        "difficulties",
        "rushing",
        "preparing",
        "character-point-limits",
        "alternate-attributes",
    ]


def test_the_difficulties_table(client: TestClient) -> None:
    """ "Standard Difficulties": Easy 6–10 stands for 10 alone; Legendary 31 or more (D8)."""
    table = client.get(f"{TABLES}/difficulties").json()
    assert table["headings"] == ["Standard Difficulties", "Special Difficulties"]
    rows = {row["level"]: row for row in table["rows"]}
    assert (rows["easy"]["minimum"], rows["easy"]["maximum"], rows["easy"]["default"]) == (
        6,
        10,
        10,
    )
    assert (rows["legendary"]["default"], rows["legendary"]["maximum"]) == (31, None)


def test_the_rushing_and_preparing_tables(client: TestClient) -> None:
    """ "Rushing": +5, +10, +20 for a quarter, half, three quarters saved; "Preparing": +1D
    a doubling, at most +3D (D11)."""
    rushing = client.get(f"{TABLES}/rushing").json()
    assert [(r["saved_percent"], r["modifier"]) for r in rushing["rows"]] == [
        (0, 0),
        (25, 5),
        (50, 10),
        (75, 20),
    ]
    assert (rushing["minimum_task_seconds"], rushing["minimum_time_percent"]) == (10, 25)
    preparing = client.get(f"{TABLES}/preparing").json()
    assert preparing["maximum_bonus_dice"] == 3
    assert [(r["time_multiple"], r["bonus_dice"]) for r in preparing["rows"]][-1] == (8, 3)


def test_the_character_point_limits_table(client: TestClient) -> None:
    """ "Character Points": easy 2, cinematic 5, universe-shaking 20 (D7)."""
    table = client.get(f"{TABLES}/character-point-limits").json()
    assert [(r["challenge"], r["limit"]) for r in table["rows"]] == [
        ("easy", 2),
        ("cinematic", 5),
        ("universe_shaking", 20),
    ]


def test_the_alternate_attributes_table(client: TestClient) -> None:
    """ "Alternate Attribute Option": healing by Intellect or Coordination (D12)."""
    table = client.get(f"{TABLES}/alternate-attributes").json()
    healing = next(row for row in table["rows"] if row["skills"] == ["healing"])
    assert [use["attribute"] for use in healing["attributes"]] == ["intellect", "coordination"]


def test_an_unknown_table_is_404(client: TestClient) -> None:
    assert_problem(client.get(f"{TABLES}/luck"), 404, "not-found")


def test_the_reference_problem_types_are_resolvable(client: TestClient) -> None:
    for code in (
        "invalid-code",
        "negative-code",
        "value-outside-level",
        "rush-short-task",
        "rush-too-far",
    ):
        assert f"opend6/{code}" in PROBLEM_TYPES
        body = client.get(f"/problems/opend6/{code}").json()
        assert (body["type"], body["status"]) == (f"/problems/opend6/{code}", 422)


def test_the_operations_are_published_with_their_decisions(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    die_codes = paths[DIE_CODES]["post"]
    assert die_codes["operationId"] == "openD6DieCodes"
    assert die_codes["tags"] == ["opend6"]
    assert all(f"D{n}" in die_codes["description"] for n in (1, 3, 8, 9))
    assert paths[TABLES]["get"]["operationId"] == "openD6Tables"
    assert paths[f"{TABLES}/{{name}}"]["get"]["operationId"] == "openD6Table"


def test_too_many_faces_is_faces_extra_as_in_every_game(client: TestClient) -> None:
    """Issue 38 (docs/opend6.md, "Changes"): the table's faces are refused with the kernel's
    codes, so `faces-surplus` became `faces-extra`; its problem type went with it."""
    assert "opend6/faces-extra" in PROBLEM_TYPES
    assert "opend6/faces-surplus" not in PROBLEM_TYPES
    body = client.get("/problems/opend6/faces-extra").json()
    assert (body["type"], body["status"], body["title"]) == (
        "/problems/opend6/faces-extra",
        422,
        "Too many faces",
    )
    assert_problem(client.get("/problems/opend6/faces-surplus"), 404, "not-found")


def test_faces_with_a_seed_is_faces_and_seed_as_in_every_game(client: TestClient) -> None:
    """Issue 38 (docs/opend6.md, "Changes"): faces and a seed together are refused with the
    kernel's code, so `faces-with-seed` became `faces-and-seed`; its problem type went with
    it."""
    assert "opend6/faces-and-seed" in PROBLEM_TYPES
    assert "opend6/faces-with-seed" not in PROBLEM_TYPES
    body = client.get("/problems/opend6/faces-and-seed").json()
    assert (body["type"], body["status"], body["title"]) == (
        "/problems/opend6/faces-and-seed",
        422,
        "Faces and a seed",
    )
    assert_problem(client.get("/problems/opend6/faces-with-seed"), 404, "not-found")
