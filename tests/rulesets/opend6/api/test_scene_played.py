"""A whole OpenD6 scene over HTTP ("Performing Actions in Rounds", "Initiative",
"Multi-Action Penalty", "Character Points"; D15, D18): initiative, two rounds, a
multi-action turn, an interrupt, Character Points spent after a roll, the end.

The table rolls its dice (`dice_source: client`), so every total is known; Character Point
dice spent after a roll are the server's (the test app's seeded generator).
"""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.support.problems import assert_problem

SCENE = {
    "name": "Ambush at the ford",
    "rules": {"initiative": "rolled_per_round", "dice_source": "client"},
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {
            "id": "ana-pc",
            "name": "Ana the scout",
            "controller": "ana",
            "acumen": "3D",
            "agility": "3D+1",
            "character_points": 5,
        },
        {
            "id": "goblins",
            "name": "Goblin band",
            "controller": "gm",
            "members": 3,
            "acumen": "2D",
            "agility": "2D+2",
        },
    ],
}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def faces(regular: list[int], wild: list[int]) -> dict[str, Any]:
    return {"regular": regular, "wild": wild}


class Table:
    """The scene and its two tokens."""

    def __init__(self, client: TestClient) -> None:
        created = client.post("/v1/opend6/scenes", json=SCENE)
        assert created.status_code == 201, created.text
        body = created.json()
        self.client = client
        self.path = f"/v1/opend6/scenes/{body['id']}"
        self.gm = body["tokens"]["gm"]
        self.ana = body["tokens"]["players"]["ana"]
        self.created = body

    def move(self, token: str, body: dict[str, Any], status: int = 200) -> dict[str, Any]:
        response = self.client.post(f"{self.path}/moves", json=body, headers=bearer(token))
        assert response.status_code == status, response.text
        return response.json()

    def scene(self) -> dict[str, Any]:
        return self.client.get(self.path, headers=bearer(self.gm)).json()


def participant(scene: dict[str, Any], pid: str) -> dict[str, Any]:
    return next(p["round"] for p in scene["participants"] if p["participant"]["id"] == pid)


def test_a_scene_played_from_initiative_to_the_end(client: TestClient) -> None:
    table = Table(client)
    assert table.created["phase"] == "initiative"
    assert table.created["waiting_for"] == ["ana", "gm"]

    # Round 1 — "Initiative" (rolled each round): Ana 4 + 4 + 5 = 13, the goblins 2 + 3 = 5.
    table.move(
        table.ana,
        {"type": "initiative", "round": 1, "rolls": [
            {"participant": "ana-pc", "faces": faces([4, 4], [5])}]},
    )  # fmt: skip
    answer = table.move(
        table.gm,
        {"type": "initiative", "round": 1, "rolls": [
            {"participant": "goblins", "faces": faces([2], [3])}]},
    )  # fmt: skip
    scene = answer["scene"]
    assert [p["participant"] for p in scene["order"]] == ["ana-pc", "goblins"]
    assert (scene["phase"], scene["current"], scene["acting"]) == ("turns", "ana-pc", ["ana-pc"])

    # Whose turn it is belongs to the rules: the goblins may not declare now.
    assert_problem(
        client.post(
            f"{table.path}/moves",
            json={"type": "declare", "round": 1, "participant": "goblins", "actions": 1},
            headers=bearer(table.gm),
        ),
        403,
        "opend6/not-your-turn",
    )
    assert_problem(
        client.post(
            f"{table.path}/moves",
            json={"type": "declare", "round": 1, "participant": "goblins", "actions": 1},
            headers=bearer(table.ana),
        ),
        403,
        "opend6/not-your-participant",
    )

    # A multi-action turn: Ana declares 2 actions (allotment 1: −1D each) and waits.
    declared = table.move(
        table.ana, {"type": "declare", "round": 1, "participant": "ana-pc", "actions": 2}
    )
    assert participant(declared["scene"], "ana-pc")["penalty_dice"] == 1
    waited = table.move(table.ana, {"type": "wait", "round": 1, "participant": "ana-pc"})
    assert (waited["scene"]["current"], participant(waited["scene"], "ana-pc")["actions_left"]) == (
        "goblins",
        1,
    )

    # The goblins attack: 2D+1 of a weapon skill, their roll waits for the GM.
    table.move(table.gm, {"type": "declare", "round": 1, "participant": "goblins", "actions": 1})
    attack = table.move(
        table.gm,
        {"type": "roll", "round": 1, "participant": "goblins", "spec": {
            "base": {"type": "skill", "code": "2D+1"}, "kind": "attack",
            "faces": faces([6], [4])}},
    )  # fmt: skip
    assert attack["result"]["roll_id"] == "r1"
    assert attack["scene"]["pending"][0]["roll"]["total"] == 11

    # An interrupt (D18): Ana, waiting with an action left, dodges while the attack pends.
    assert attack["scene"]["acting"] == ["goblins", "ana-pc"]
    dodge = table.move(
        table.ana,
        {"type": "roll", "round": 1, "participant": "ana-pc", "spec": {
            "base": {"type": "skill", "code": "3D"}, "faces": faces([3], [5])}},
    )  # fmt: skip
    scene = dodge["scene"]
    assert scene["interrupting"] == "ana-pc"
    assert scene["pending"][1]["roll"]["rolled_code"] == "2D"  # 3D less the −1D penalty
    assert scene["pending"][1]["roll"]["total"] == 8

    # "Character Points" after seeing the roll: one more die, the server's, before the GM.
    spent = table.move(
        table.ana, {"type": "spend_character_points", "round": 1, "roll": "r2", "count": 1}
    )
    pending = spent["scene"]["pending"][1]["roll"]
    cp_dice = [d for d in pending["dice"] if d["role"] in ("cp", "cp_explosion")]
    assert [d["timing"] for d in cp_dice][:1] == ["after"]
    assert pending["total"] == 8 + sum(d["face"] for d in cp_dice)
    assert participant(spent["scene"], "ana-pc")["points"]["character_points"] == 4

    # Only the GM resolves; the dodge's total is the attack's difficulty.
    resolve_dodge = {"type": "resolve", "round": 1, "roll": "r2",
                     "difficulty": {"kind": "number", "value": 10}}  # fmt: skip
    assert_problem(
        client.post(f"{table.path}/moves", json=resolve_dodge, headers=bearer(table.ana)),
        403,
        "opend6/gm-only",
    )
    resolved = table.move(table.gm, resolve_dodge)
    assert resolved["result"]["result"]["outcome"] == "success"
    dodge_total = resolved["result"]["result"]["total"]
    hit = table.move(
        table.gm,
        {"type": "resolve", "round": 1, "roll": "r1",
         "difficulty": {"kind": "number", "value": dodge_total}},
    )  # fmt: skip
    # D2: the attack's 11 hits when it meets the dodge's total.
    assert hit["result"]["result"]["outcome"] == ("success" if dodge_total <= 11 else "failure")
    assert hit["scene"]["pending"] == []

    # Ana hands the turn back; the goblins end theirs; round 2 rolls initiative again.
    back = table.move(table.ana, {"type": "end_turn", "round": 1, "participant": "ana-pc"})
    assert (back["scene"]["interrupting"], back["scene"]["current"]) == (None, "goblins")
    ended = table.move(table.gm, {"type": "end_turn", "round": 1, "participant": "goblins"})
    assert (ended["scene"]["round"], ended["scene"]["phase"]) == (2, "initiative")
    assert ended["scene"]["elapsed_seconds"] == 5  # "Game Time": a round is 5 seconds
    assert_problem(
        client.post(
            f"{table.path}/moves",
            json={"type": "wait", "round": 1, "participant": "ana-pc"},
            headers=bearer(table.ana),
        ),
        409,
        "opend6/wrong-round",
    )

    # Round 2: the goblins win initiative; one action each, then the GM ends the scene.
    table.move(
        table.gm,
        {"type": "initiative", "round": 2, "rolls": [
            {"participant": "goblins", "faces": faces([6], [6, 3])}]},
    )  # fmt: skip
    order = table.move(
        table.ana,
        {"type": "initiative", "round": 2, "rolls": [
            {"participant": "ana-pc", "faces": faces([1, 1], [2])}]},
    )["scene"]["order"]  # fmt: skip
    assert [p["participant"] for p in order] == ["goblins", "ana-pc"]
    table.move(table.gm, {"type": "end_turn", "round": 2, "participant": "goblins"})
    table.move(table.ana, {"type": "declare", "round": 2, "participant": "ana-pc", "actions": 1})
    swing = table.move(
        table.ana,
        {"type": "roll", "round": 2, "participant": "ana-pc", "spec": {
            "base": {"type": "skill", "code": "4D"}, "kind": "attack",
            "faces": faces([6, 6, 5], [2])}},
    )  # fmt: skip
    assert swing["scene"]["pending"][0]["roll"]["rolled_code"] == "4D"  # no penalty: 1 action
    table.move(
        table.gm,
        {"type": "resolve", "round": 2, "roll": "r3",
         "difficulty": {"kind": "standard", "level": "moderate"}},
    )  # fmt: skip
    final = table.move(table.gm, {"type": "end_scene", "round": 2})
    assert (final["scene"]["status"], final["scene"]["waiting_for"]) == ("ended", [])

    # The round's log holds every move, each resolved roll with its whole result.
    log = client.get(f"{table.path}/rounds/1", headers=bearer(table.ana)).json()
    moves = [(entry["move"], entry["by"]) for entry in log["moves"]]
    assert moves[:3] == [("initiative", "ana"), ("initiative", "gm"), ("declare", "ana")]
    assert ("resolve", "gm") in moves
    assert_problem(
        client.post(
            f"{table.path}/moves", json={"type": "end_scene", "round": 2}, headers=bearer(table.gm)
        ),
        409,
        "opend6/scene-ended",
    )


def test_a_move_retried_with_its_idempotency_key_is_applied_once(client: TestClient) -> None:
    table = Table(client)
    body = {"type": "initiative", "round": 1, "rolls": [
        {"participant": "ana-pc", "faces": faces([4, 4], [5])}]}  # fmt: skip
    headers = {**bearer(table.ana), "Idempotency-Key": "ana-initiative-1"}
    first = client.post(f"{table.path}/moves", json=body, headers=headers)
    again = client.post(f"{table.path}/moves", json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    assert table.scene()["version"] == 2  # created at 1, one move


def test_a_stale_if_match_is_refused_and_nothing_changes(client: TestClient) -> None:
    table = Table(client)
    body = {"type": "initiative", "round": 1, "rolls": [
        {"participant": "ana-pc", "faces": faces([4, 4], [5])}]}  # fmt: skip
    response = client.post(
        f"{table.path}/moves", json=body, headers={**bearer(table.ana), "If-Match": '"7"'}
    )
    assert_problem(response, 412, "precondition-failed")
    assert participant(table.scene(), "ana-pc")["initiative"] is None


def test_the_servers_dice_refuse_the_tables_faces(client: TestClient) -> None:
    created = client.post(
        "/v1/opend6/scenes", json={**SCENE, "rules": {"dice_source": "server"}}
    ).json()
    response = client.post(
        f"/v1/opend6/scenes/{created['id']}/moves",
        json={"type": "initiative", "round": 1, "rolls": [
            {"participant": "goblins", "faces": faces([2], [3])}]},
        headers=bearer(created["tokens"]["gm"]),
    )  # fmt: skip
    assert_problem(response, 422, "opend6/faces-not-allowed")
    rolled = client.post(
        f"/v1/opend6/scenes/{created['id']}/moves",
        json={"type": "initiative", "round": 1, "rolls": [{"participant": "goblins"}]},
        headers=bearer(created["tokens"]["gm"]),
    )
    assert rolled.status_code == 200, rolled.text


def test_first_action_the_gm_sets_the_order_for_the_scene(client: TestClient) -> None:
    """ "Initiative", Method 1 (`first_action`): the GM names who goes first; the rest by
    "Ties/No Rolls" (D16); the order stays for the next round."""
    created = client.post(
        "/v1/opend6/scenes", json={**SCENE, "rules": {"initiative": "first_action"}}
    ).json()
    path, gm = f"/v1/opend6/scenes/{created['id']}", created["tokens"]["gm"]
    first = client.post(
        f"{path}/moves",
        json={"type": "set_order", "round": 1, "first": ["goblins"]},
        headers=bearer(gm),
    ).json()
    assert [p["participant"] for p in first["scene"]["order"]] == ["goblins", "ana-pc"]
    nxt = client.post(
        f"{path}/moves", json={"type": "next_round", "round": 1}, headers=bearer(gm)
    ).json()
    assert (nxt["scene"]["round"], nxt["scene"]["phase"], nxt["scene"]["current"]) == (
        2,
        "turns",
        "goblins",
    )


def test_a_group_belongs_to_the_gm(client: TestClient) -> None:
    body = {**SCENE, "participants": [{**SCENE["participants"][0], "members": 4}]}
    problem = assert_problem(
        client.post("/v1/opend6/scenes", json=body), 422, "opend6/group-not-gm"
    )
    assert problem["errors"][0]["pointer"] == "/participants/0/members"


def test_refusals_keep_the_version(client: TestClient) -> None:
    """Property: a refused move (403, 409, 422) changes nothing."""
    table = Table(client)
    before = table.scene()
    refusals = [
        ({"type": "declare", "round": 1, "participant": "ana-pc", "actions": 1}, table.ana),
        ({"type": "next_round", "round": 1}, table.ana),
        ({"type": "resolve", "round": 1, "roll": "r9"}, table.gm),
        ({"type": "initiative", "round": 1, "rolls": [{"participant": "goblins"}]}, table.ana),
    ]
    for body, token in refusals:
        response = client.post(f"{table.path}/moves", json=body, headers=bearer(token))
        assert response.status_code in (403, 409, 422), response.text
    assert table.scene() == before
