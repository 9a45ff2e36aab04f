"""A game's refusals and retries over HTTP: the set-up (D2, D3), whose move it is, stale
versions, Idempotency-Key retries that never roll again, the dice (D28), the odds of the
pending roll, the history's pages and deletion only once ended (D31)."""

from __future__ import annotations

from litestar.testing import TestClient

from service.rulesets.travelogue.rules.game.actions import (
    AcceptFlag,
    RollAttention,
    RollPools,
    TakeFlag,
)
from tests.rulesets.travelogue.rules.game.full_game import STEPS
from tests.support.problems import assert_problem
from tests.support.travelogue_games import GAMES, Game, create_game, sheets_json


def _play(game: Game, count: int) -> None:
    for actor, action in STEPS[:count]:
        assert game.act(actor, action).status_code == 200


def test_invalid_setup_reports_stat_range_and_not_connected_at_once(client: TestClient) -> None:
    """D3 and D2 in one 422: a stat of 12 is the rules' `stat-range`, not a 400."""
    sheets = sheets_json()
    sheets[0]["stats"] = {"avoid": 12, "armor": 1, "angel": 2, "allies": 2}
    sheets[3]["shooter"] = "The Vatican"  # Vera no longer shares Archer's shooter
    body = assert_problem(
        client.post(GAMES, json={"name": "Bad", "bullseyes": sheets}),
        422,
        "travelogue/invalid-setup",
    )
    assert [(e["code"], e["pointer"]) for e in body["errors"]] == [
        ("travelogue/stat-range", "/bullseyes/0/stats/avoid"),
        ("travelogue/not-connected", "/bullseyes/3"),
    ]
    validated = client.post("/v1/travelogue/bullseyes/validate", json={"bullseyes": sheets})
    assert [v["code"] for v in validated.json()["violations"]] == ["stat-range", "not-connected"]


def test_a_seed_with_the_tables_dice_is_refused(client: TestClient) -> None:
    """D28: a seed draws the server's dice."""
    body = {"name": "x", "bullseyes": sheets_json(), "dice_source": "table", "seed": 7}
    assert_problem(client.post(GAMES, json=body), 422, "travelogue/seed-not-allowed")


def test_not_your_move_carries_waiting_for_and_changes_nothing(client: TestClient) -> None:
    """D11: the pools belong to the active player; a stranger's roll is 403."""
    game = create_game(client)
    _play(game, 15)  # batch 1 and the attention die: Hugo's pools are awaited
    body = assert_problem(game.act("vera", RollPools()), 403, "travelogue/not-your-move")
    assert body["waiting_for"] == {
        "step": "attention.pools",
        "dice_needed": {"die": 0, "shooter": 2, "angel": 0},
        "who": [{"player": "hugo", "actions": ["roll_pools"]}],
    }
    assert game.read().headers["etag"] == '"16"'
    wrong = assert_problem(
        game.act("hugo", AcceptFlag(ring="friends")), 409, "travelogue/wrong-step"
    )
    assert wrong["waiting_for"]["step"] == "attention.pools"


def test_a_stale_if_match_is_412(client: TestClient) -> None:
    game = create_game(client)
    assert game.act("hugo", TakeFlag(flag=1, to="annie")).status_code == 200
    stale = game.act("annie", AcceptFlag(ring="friends"), **{"If-Match": '"1"'})
    assert_problem(stale, 412, "precondition-failed")
    assert game.read().headers["etag"] == '"2"'


def test_an_idempotent_retry_of_server_dice_returns_the_same_faces(client: TestClient) -> None:
    """D28: a retry returns the first answer and never rolls again; version + 1 once."""
    game = create_game(client, dice_source="server")
    for actor, action in STEPS[:14]:
        assert game.act(actor, action).status_code == 200
    assert game.act("annie", RollAttention()).status_code == 200
    active = game.read().json()["attention"]["active"]
    key = {"Idempotency-Key": "pools-1"}
    first = game.act(active, RollPools(), **key)
    again = game.act(active, RollPools(), **key)
    assert first.status_code == again.status_code == 200
    assert first.json() == again.json()
    (rolled,) = [e for e in first.json()["events"] if e["type"] == "pools.rolled"]
    assert rolled["shooter"]
    assert game.read().headers["etag"] == first.headers["etag"] == '"17"'
    other = game.act(active, {"type": "let_flip"}, **key)
    assert_problem(other, 422, "idempotency-key-reused")


def test_faces_on_a_server_game_are_refused(client: TestClient) -> None:
    game = create_game(client, dice_source="server")
    _play(game, 14)
    refused = game.act("annie", RollAttention(faces=4))
    assert_problem(refused, 422, "travelogue/faces-not-allowed")


def test_the_odds_answer_at_attention_pools_and_409_elsewhere(client: TestClient) -> None:
    """ "Rolling The Bones": Hugo's Shooter 1/2 at the pools, his stats 4/1/2/2."""
    game = create_game(client)
    odds = f"{game.path}/odds"
    assert_problem(client.get(odds, headers=game.auth("vera")), 409, "travelogue/wrong-step")
    _play(game, 15)
    answer = client.get(odds, headers=game.auth("vera"))
    assert answer.status_code == 200, answer.text
    stateless = client.post(
        "/v1/travelogue/rolls/odds",
        json={
            "shooter": {"aim": 1, "ammo": 2},
            "angel": {"aim": 0, "ammo": 0},
            "stats": {"avoid": 4, "armor": 1, "angel": 2, "allies": 2},
        },
    )
    assert answer.json() == stateless.json()


def test_history_pages_by_version(client: TestClient) -> None:
    game = create_game(client)
    _play(game, 5)
    history = f"{game.path}/history"
    first = client.get(history, params={"limit": 2}, headers=game.auth("hugo")).json()
    assert [i["version"] for i in first["items"]] == [2, 3]
    assert first["next_after"] == 3
    rest = client.get(history, params={"after": 3}, headers=game.auth("hugo")).json()
    assert [i["version"] for i in rest["items"]] == [4, 5, 6]
    assert rest["next_after"] is None
    assert rest["items"][0]["action"] == {
        "type": "take_flag",
        "flag": 1,
        "to": "archer",
        "on_behalf_of": None,
    }
    assert client.get(history).status_code == 401


def test_delete_is_409_before_the_end(client: TestClient) -> None:
    """D31: no single player ends the table's game; an unfinished one expires."""
    game = create_game(client)
    refused = client.delete(game.path, headers=game.auth("hugo"))
    assert_problem(refused, 409, "travelogue/game-not-ended")
    assert game.read().status_code == 200
