"""Rule limits and refusals over HTTP: "unlimited" Character Points are 20 a roll
("Character Points", D7), a Wild-Die-Only roll is one toss ("Special Difficulties", D14),
a `first_action` order may come from die codes alone ("Ties/No Rolls", "Initiative"
Method 1), and `zero-dice` points at what took the code below 1D (D3). A refused move
keeps the scene's version."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import TestClient

from tests.support.problems import assert_problem

SKILL = {"type": "skill", "code": "3D"}


def errors(problem: dict[str, Any]) -> list[tuple[str, str]]:
    return [(error["code"], error["pointer"]) for error in problem["errors"]]


# "Character Points" (D7) ---------------------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/opend6/rolls", "/v1/opend6/rolls/odds"])
def test_character_points_unlimited_is_20_a_roll(client: TestClient, path: str) -> None:
    """ "Character Points": a null `character_point_limit` ("unlimited") takes 20 points
    a roll, before and after together; 40 is 422 `cp-limit`, naming the limit (D7)."""
    body = {"base": SKILL, "character_points": {"before": 20, "after": 20}}
    problem = assert_problem(client.post(path, json=body), 422, "opend6/cp-limit")
    assert errors(problem) == [("opend6/cp-limit", "/character_points")]
    assert problem["errors"][0]["detail"] == (
        "40 Character Points on one roll (before and after together); the limit is 20 "
        '("unlimited" is 20 a roll, D7).'
    )
    within = {"base": SKILL, "character_points": {"before": 10, "after": 10}}
    assert client.post(path, json=within).status_code == 200


@pytest.mark.parametrize("path", ["/v1/opend6/opposed", "/v1/opend6/opposed/odds"])
def test_character_points_unlimited_is_20_on_each_opposed_side(
    client: TestClient, path: str
) -> None:
    """ "Character Points", "Opposed Difficulties": each side within 20 (D7)."""
    body = {
        "initiator": {"base": SKILL, "character_points": {"before": 20, "after": 1}},
        "resister": {"base": SKILL},
    }
    problem = assert_problem(client.post(path, json=body), 422, "opend6/cp-limit")
    assert errors(problem) == [("opend6/cp-limit", "/initiator/character_points")]


# "Rolling Dice": the table's faces or the server's -----------------------------------


def test_rolling_dice_the_tables_faces_and_a_seed_are_faces_and_seed(client: TestClient) -> None:
    """ "Rolling Dice": the dice are the table's (`faces`) or the server's (a `seed` makes
    them reproducible), never both: 422 `faces-and-seed` at `/seed`, the code every game
    gives (issue 38; was `faces-with-seed`)."""
    body = {"base": SKILL, "faces": {"regular": [2, 3], "wild": [4]}, "seed": 7}
    problem = assert_problem(
        client.post("/v1/opend6/rolls", json=body), 422, "opend6/faces-and-seed"
    )
    assert errors(problem) == [("opend6/faces-and-seed", "/seed")]
    assert problem["errors"][0]["detail"] == "Give the table's faces or a seed, not both."
    assert problem["type"] == "/problems/opend6/faces-and-seed"


# "Special Difficulties": Wild Die Only (D14) --------------------------------------------


def test_special_difficulties_wild_die_only_takes_the_tables_single_6(
    client: TestClient,
) -> None:
    """ "Special Difficulties": `wild: [6]` is a Critical Success, tossed no further (D14)."""
    response = client.post(
        "/v1/opend6/rolls",
        json={"base": SKILL, "faces": {"wild": [6]}, "difficulty": {"kind": "wild_die_only"}},
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["outcome"], body["total"], body["complication"]) == ("critical_success", 6, False)
    assert body["wild"] == {"initial": 6, "explosions": 0, "critical": "success"}
    assert [(die["role"], die["face"]) for die in body["dice"]] == [("wild", 6)]


@pytest.mark.parametrize(
    ("faces", "pointers"),
    [
        ({"wild": [6, 3]}, ["/faces/wild"]),
        ({"regular": [2, 2, 2], "wild": [4]}, ["/faces/regular"]),
        ({"regular": [2, 2, 2], "wild": [6, 6, 1]}, ["/faces/wild", "/faces/regular"]),
    ],
)
def test_special_difficulties_wild_die_only_refuses_more_than_one_toss(
    client: TestClient, faces: dict[str, Any], pointers: list[str]
) -> None:
    """ "Special Difficulties": regular faces or a longer Wild Die chain are 422
    `faces-extra`, pointing at them (D14)."""
    problem = assert_problem(
        client.post(
            "/v1/opend6/rolls",
            json={"base": SKILL, "faces": faces, "difficulty": {"kind": "wild_die_only"}},
        ),
        422,
        "opend6/faces-extra",
    )
    assert errors(problem) == [("opend6/faces-extra", pointer) for pointer in pointers]


def test_special_difficulties_wild_die_only_with_a_seed_is_one_toss(client: TestClient) -> None:
    body = {"base": SKILL, "seed": 99, "difficulty": {"kind": "wild_die_only"}}
    first = client.post("/v1/opend6/rolls", json=body).json()
    (die,) = first["dice"]
    assert (die["role"], first["total"], first["wild"]["explosions"]) == ("wild", die["face"], 0)
    replay = {**body, "seed": None, "faces": first["faces"]}
    again = client.post("/v1/opend6/rolls", json=replay).json()
    assert (again["total"], again["outcome"]) == (first["total"], first["outcome"])


# "Rolling Dice": no roll below 1D (D3) --------------------------------------------------


@pytest.mark.parametrize("path", ["/v1/opend6/rolls", "/v1/opend6/rolls/odds"])
@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"base": {"type": "skill", "code": "1D"}, "actions": {"declared": 2}},
         "/actions/declared"),
        ({"base": {"type": "skill", "code": "1D"},
          "bonuses": [{"label": "x", "dice": 1}, {"label": "hurt", "dice": -2}]}, "/bonuses/1"),
        ({"base": {"type": "skill", "code": "0D+2"}}, "/base"),
    ],
)  # fmt: skip
def test_rolling_dice_zero_dice_points_at_its_cause(
    client: TestClient, path: str, body: dict[str, Any], pointer: str
) -> None:
    """D3, "Multi-Action Penalty": the member that took the code below 1D."""
    problem = assert_problem(client.post(path, json=body), 422, "opend6/zero-dice")
    assert errors(problem) == [("opend6/zero-dice", pointer)]


# A first_action scene: ordered by die codes, refusals that keep the version -------------

SCENE = {
    "name": "Ford",
    "rules": {"initiative": "first_action", "dice_source": "client"},
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D",
         "character_points": 50},
        {"id": "orc", "name": "Orc", "acumen": "4D", "agility": "2D"},
    ],
}  # fmt: skip


def test_a_first_action_scene_by_die_codes_and_its_refusals(client: TestClient) -> None:
    """ "Ties/No Rolls", "Initiative" Method 1: `set_order` with no `first` orders by die
    codes (the orc's Acumen 4D first). Then refusals — a roll below 1D (D3), Character
    Points beyond "unlimited" (D7), Wild Die Only on a roll with Character Points (D14) —
    leave the scene's version; the GM reads a pending roll's first Wild Die toss alone,
    a 6 a Critical Success (D14)."""
    created = client.post("/v1/opend6/scenes", json=SCENE).json()
    path = f"/v1/opend6/scenes/{created['id']}"
    gm = {"Authorization": f"Bearer {created['tokens']['gm']}"}
    ana = {"Authorization": f"Bearer {created['tokens']['players']['ana']}"}

    def move(headers: dict[str, str], body: dict[str, Any]) -> Any:
        return client.post(f"{path}/moves", json={"round": 1, **body}, headers=headers)

    ordered = move(gm, {"type": "set_order"})
    assert ordered.status_code == 200, ordered.text
    order = ordered.json()["scene"]["order"]
    assert [(p["participant"], p["decided_by"]) for p in order] == [
        ("orc", "acumen"),
        ("ana-pc", None),
    ]
    assert move(gm, {"type": "declare", "participant": "orc", "actions": 1}).status_code == 200
    assert move(gm, {"type": "end_turn", "participant": "orc"}).status_code == 200
    declared = move(ana, {"type": "declare", "participant": "ana-pc", "actions": 3})
    assert declared.status_code == 200, declared.text  # −2D on each roll this round
    before = client.get(path, headers=gm)
    version, etag = before.json()["version"], before.headers["ETag"]

    def unchanged() -> None:
        after = client.get(path, headers=gm)
        assert (after.json()["version"], after.headers["ETag"]) == (version, etag)

    too_small = {"base": {"type": "skill", "code": "2D"}, "faces": {"wild": [4]}}
    problem = assert_problem(
        move(ana, {"type": "roll", "participant": "ana-pc", "spec": too_small}),
        422,
        "opend6/zero-dice",
    )
    assert errors(problem) == [("opend6/zero-dice", "/participant")]
    unchanged()

    spec = {
        "base": {"type": "skill", "code": "4D"},
        "character_points": 20,
        "faces": {"regular": [3], "wild": [6, 2], "character_points": [[2]] * 20},
    }
    rolled = move(ana, {"type": "roll", "participant": "ana-pc", "spec": spec})
    assert rolled.status_code == 200, rolled.text
    roll_id = rolled.json()["scene"]["pending"][0]["id"]
    before = client.get(path, headers=gm)
    version, etag = before.json()["version"], before.headers["ETag"]
    problem = assert_problem(
        move(ana, {"type": "spend_character_points", "roll": roll_id, "count": 1}),
        422,
        "opend6/cp-limit",
    )
    assert errors(problem) == [("opend6/cp-limit", "/count")]
    assert "the limit is 20" in problem["errors"][0]["detail"]
    unchanged()

    wild_only = {"type": "resolve", "roll": roll_id, "difficulty": {"kind": "wild_die_only"}}
    assert_problem(move(gm, wild_only), 422, "opend6/points-on-wild-die-only")
    unchanged()
    number = {"type": "resolve", "roll": roll_id, "difficulty": {"kind": "number", "value": 10}}
    assert move(gm, number).status_code == 200

    exploded = {"base": {"type": "skill", "code": "4D"}, "faces": {"regular": [3], "wild": [6, 2]}}
    rolled = move(ana, {"type": "roll", "participant": "ana-pc", "spec": exploded})
    assert rolled.status_code == 200, rolled.text
    roll_id = rolled.json()["scene"]["pending"][0]["id"]
    resolved = move(gm, {**wild_only, "roll": roll_id})
    assert resolved.status_code == 200, resolved.text
    result = resolved.json()["result"]["result"]
    assert (result["outcome"], result["total"], result["wild"]["explosions"]) == (
        "critical_success",
        6,
        0,
    )
