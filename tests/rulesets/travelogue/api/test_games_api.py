"""A travelogue game over HTTP: its creation, reading it (ETag, 304) and one action (D28,
D31)."""

from __future__ import annotations

from litestar.testing import TestClient

from service.rulesets.travelogue.rules.game.actions import TakeFlag
from tests.support.travelogue_games import GAMES, create_game, sheets_json


def test_create_answers_201_version_1_its_location_and_a_token_per_player(
    client: TestClient,
) -> None:
    """D31: one token per player and no GM; flags 1–6 in the middle."""
    answer = client.post(GAMES, json={"name": "Night train", "bullseyes": sheets_json()})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert answer.headers["etag"] == '"1"'
    assert answer.headers["location"] == f"{GAMES}/{game['id']}"
    assert game["version"] == 1
    assert game["dice_source"] == "server"
    assert game["middle"] == [1, 2, 3, 4, 5, 6]
    assert set(game["tokens"]) == {"players"}
    assert sorted(game["tokens"]["players"]) == ["annie", "archer", "hugo", "vera"]
    assert game["waiting_for"]["step"] == "play"


def test_any_players_token_reads_the_game_and_its_etag_answers_304(client: TestClient) -> None:
    game = create_game(client)
    read = game.read("vera")
    assert read.status_code == 200, read.text
    assert read.headers["etag"] == '"1"'
    assert "tokens" not in read.json()
    assert game.read("annie", **{"If-None-Match": '"1"'}).status_code == 304
    by_header = game.client.get(game.path, headers={"X-Game-Token": game.tokens["archer"]})
    assert by_header.status_code == 200
    assert game.client.get(game.path).status_code == 401


def test_an_action_answers_the_game_and_its_events_and_moves_the_etag(client: TestClient) -> None:
    """ "Rules": a reach with `to` hands the flag at once; version 2, events stamped."""
    game = create_game(client)
    answer = game.act("hugo", TakeFlag(flag=4, to="annie", on_behalf_of="annie"))
    assert answer.status_code == 200, answer.text
    assert answer.headers["etag"] == '"2"'
    body = answer.json()
    assert body["game"]["version"] == 2
    assert body["game"]["waiting_for"]["who"] == [
        {"player": "annie", "actions": ["accept_flag", "reject_flag"]}
    ]
    assert [e["type"] for e in body["events"]] == ["flag.taken", "flag.handed"]
    assert {(e["version"], e["actor"]) for e in body["events"]} == {(2, "hugo")}
    assert game.read("hugo", **{"If-None-Match": '"1"'}).status_code == 200
