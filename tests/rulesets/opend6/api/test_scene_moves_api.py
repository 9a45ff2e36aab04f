"""The scene moves beyond the plain turn, over HTTP: their problems keep the rules' status
and pointer (403 the GM's, 409 the scene's state, 422 the move), and a refused move leaves
the scene's version as it was (docs/opend6.md, "Scenes in detail")."""

from __future__ import annotations

from typing import Any

from litestar.testing import TestClient

from tests.support.problems import assert_problem

SCENE = {
    "name": "Ford",
    "rules": {"initiative": "first_action", "dice_source": "client"},
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {"id": "ana-pc", "name": "Ana", "controller": "ana", "acumen": "3D", "agility": "3D",
         "fate_points": 1},
        {"id": "orc", "name": "Orc", "acumen": "2D", "agility": "2D"},
    ],
}  # fmt: skip


def test_scene_moves_answer_with_the_rules_problems(client: TestClient) -> None:
    created = client.post("/v1/opend6/scenes", json=SCENE).json()
    path = f"/v1/opend6/scenes/{created['id']}"
    gm = {"Authorization": f"Bearer {created['tokens']['gm']}"}
    ana = {"Authorization": f"Bearer {created['tokens']['players']['ana']}"}

    def move(headers: dict[str, str], body: dict[str, Any]) -> Any:
        return client.post(f"{path}/moves", json={"round": 1, **body}, headers=headers)

    assert move(gm, {"type": "set_order", "first": ["ana-pc", "orc"]}).status_code == 200
    climactic = move(ana, {"type": "climactic_fate_point", "participant": "ana-pc"})
    assert climactic.status_code == 200, climactic.text
    view = next(
        p for p in climactic.json()["scene"]["participants"] if p["participant"]["id"] == "ana-pc"
    )
    assert (view["round"]["climactic"], view["round"]["points"]["fate_points"]) == (True, 0)
    version = client.get(path, headers=gm).headers["ETag"]

    assert_problem(move(ana, {"type": "move_up", "participant": "orc"}), 403, "opend6/gm-only")
    problem = assert_problem(
        move(ana, {"type": "climactic_fate_point", "participant": "ana-pc"}),
        422,
        "opend6/climactic-used",
    )
    assert problem["type"].endswith("/problems/opend6/climactic-used")
    assert move(ana, {"type": "declare", "participant": "ana-pc", "actions": 2}).status_code == 200
    assert move(ana, {"type": "wait", "participant": "ana-pc"}).status_code == 200
    assert move(gm, {"type": "declare", "participant": "orc", "actions": 1}).status_code == 200
    window = assert_problem(
        move(gm, {"type": "roll", "participant": "orc", "resolve_now": True, "spec": {
            "base": {"type": "skill", "code": "2D"}, "faces": {"regular": [2], "wild": [2]}}}),
        409,
        "opend6/interrupt-window",
    )  # fmt: skip
    assert [error["pointer"] for error in window["errors"]] == ["/resolve_now"]
    unknown = assert_problem(
        move(gm, {"type": "roll", "participant": "orc", "related_rolls": ["r7"], "spec": {
            "base": {"type": "skill", "code": "2D"}, "faces": {"regular": [2], "wild": [2]}}}),
        422,
        "opend6/related-unknown",
    )  # fmt: skip
    assert [error["pointer"] for error in unknown["errors"]] == ["/related_rolls/0"]
    after = client.get(path, headers=gm).headers["ETag"]
    assert after != version  # the declare and the wait landed
    refused_again = move(gm, {"type": "move_up", "participant": "orc"})
    assert_problem(refused_again, 422, "opend6/not-waiting")
    assert client.get(path, headers=gm).headers["ETag"] == after  # a refusal changes nothing
