"""Part 3's full game at the table's dice, over the API: the design's 51 actions replayed
from tests/rulesets/travelogue/rules/game/full_game.py to version 52, each listed refusal
answered with its code and leaving the version where it was ("Getting Caught, Getting
Away"; D20, D22–D25)."""

from __future__ import annotations

from litestar.testing import TestClient

from tests.rulesets.travelogue.rules.game.full_game import REFUSALS, STEPS
from tests.support.problems import assert_problem
from tests.support.travelogue_games import create_game


def test_the_full_game_over_http_ends_at_version_52_going_for_broke(client: TestClient) -> None:
    game = create_game(client)
    version = 1
    for index, (actor, action) in enumerate(STEPS):
        if index in REFUSALS:
            r_actor, r_action, code = REFUSALS[index]
            refused = game.act(r_actor, r_action)
            assert_problem(refused, 422, code)
            assert game.read().headers["etag"] == f'"{version}"'
        answer = game.act(actor, action, **{"If-Match": f'"{version}"'})
        assert answer.status_code == 200, (index, answer.text)
        version += 1
        assert answer.headers["etag"] == f'"{version}"'
        assert {event["version"] for event in answer.json()["events"]} == {version}
        # An action that rolls says so in one line (rules/summary.py); any other, null.
        rolls = action.__struct_config__.tag in ("roll_attention", "roll_pools", "roll_final")
        assert (answer.json()["summary"] is not None) == rolls, (index, answer.json()["summary"])
    assert version == 52
    final = game.read("vera").json()
    assert (final["version"], final["actions"], final["status"]) == (52, 51, "ended")
    assert final["ending"] == {
        "reason": "went_for_broke",
        "fates": {"hugo": "caught", "annie": "caught", "archer": "escaped", "vera": "at_large"},
    }
    assert final["waiting_for"] == {"step": "ended", "dice_needed": None, "who": []}
    # Every action is in the history, in order, with the dice the table rolled.
    page = client.get(f"{game.path}/history", headers=game.auth("annie")).json()
    assert [item["version"] for item in page["items"]] == list(range(2, 53))
    assert page["next_after"] is None
    assert page["items"][14]["result"] == {"die": 4, "shooter": [], "angel": []}
    assert page["items"][15]["result"] == {"die": None, "shooter": [5, 6], "angel": []}
    assert page["items"][17]["action"] == {
        "type": "close_scene",
        "note": "The ledger's first page turns up.",
    }
    # D31: ended, so any player may delete it; the stream's last event is game.closed.
    assert client.delete(game.path, headers=game.auth("archer")).status_code == 204
    assert_problem(game.read("hugo"), 404, "not-found")
