"""Quick Shot gambles, odds and tables over HTTP, through the real app ("Gambles", "Step 4:
Resolution", "Bolstering", "Step 3: Going for It"; the design's Part 2)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

import pytest
from litestar.testing import TestClient

from tests.support.problems import assert_problem

GAMBLES = "/v1/quick-shot/gambles"
ODDS = "/v1/quick-shot/gambles/odds"
TABLES = "/v1/quick-shot/tables"
COMMON = [{"difficulty": "common"}]


def _gamble(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post(GAMBLES, json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_multi_actions_a_gamble_with_the_tables_faces_explains_every_die(
    client: TestClient,
) -> None:
    """ "Critical Failure", "Damage": common + minor injury, bet 1, [1,1,6,6,2,3,2,3,2]."""
    answer = _gamble(
        client,
        actions=[{"difficulty": "common"}, {"difficulty": "minor", "kind": "injury"}],
        wp_bet=1,
        willpower={"available": 4},
        faces=[1, 1, 6, 6, 2, 3, 2, 3, 2],
    )
    assert re.fullmatch("[0-9a-f]{32}", answer.pop("id"))
    assert answer["dice_count"] == 9
    assert answer["good_faces"] == [4, 5, 6, 7, 8]
    assert [(d["face"], d["role"], d["good"], d["one"], d["action"]) for d in answer["dice"]] == [
        (1, "base", False, True, None),
        (1, "base", False, True, None),
        (6, "base", True, False, 0),
        (6, "base", True, False, 0),
        (2, "base", False, False, None),
        (3, "base", False, False, None),
        (2, "base", False, False, None),
        (3, "base", False, False, None),
        (2, "wp", False, False, None),
    ]
    assert answer["actions"][1] == {
        "index": 1,
        "difficulty": "minor",
        "level": 1,
        "effective_level": 1,
        "kind": "injury",
        "teamwork": False,
        "label": None,
        "result": "failure",
        "critical": "failure",
        "effect": 0,
        "dice": [],
        "consequence": "injury-worsens-badly",
    }
    assert (answer["outcome"], answer["critical"], answer["outcome_label"]) == (
        "failure",
        "failure",
        "Critical failure",
    )
    assert answer["wp"] == {
        "bet": 1,
        "staked": 1,
        "lost": 2,
        "gained": 0,
        "change": -2,
        "source": "general",
        "balance_before": 4,
        "balance_after": 2,
        "shortfall": False,
    }
    assert answer["pool_effect"] == 2
    assert answer["ones"] == 2


def test_a_seed_replays_and_so_do_the_returned_faces(client: TestClient) -> None:
    first = _gamble(client, actions=COMMON, wp_bet=3, seed=77)
    again = _gamble(client, actions=COMMON, wp_bet=3, seed=77)
    replay = _gamble(client, actions=COMMON, wp_bet=3, faces=first["faces"])
    for answer in (first, again, replay):
        answer.pop("id")
    assert first == again == replay
    assert len(first["faces"]) == 10


def test_server_dice_roll_as_many_as_the_bet_buys(client: TestClient) -> None:
    for bet, count in ((0, 8), (1, 9), (3, 10)):
        answer = _gamble(client, actions=COMMON, wp_bet=bet)
        assert answer["dice_count"] == len(answer["faces"]) == count


def test_going_for_it_declined(client: TestClient) -> None:
    answer = _gamble(client, actions=COMMON, decline=True)
    assert (answer["outcome"], answer["dice_count"], answer["dice"]) == ("declined", 0, [])
    assert answer["wp"]["change"] == 0


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        ({"actions": COMMON, "surprise": 1}, "/surprise"),
        ({"actions": [{"difficulty": "impossible"}]}, "/actions/0/difficulty"),
        ({"actions": COMMON, "faces": [4, 4, 4, 9, 2, 2, 2, 2]}, "/faces/3"),
        ({"actions": COMMON, "wp_bet": 4}, "/wp_bet"),
        ({"actions": []}, "/actions"),
        ({"actions": COMMON * 7}, "/actions"),
        ({"actions": COMMON, "target_number": 8}, "/target_number"),
    ],
)
def test_the_schema_refuses_with_a_400_at_the_member(
    client: TestClient, body: dict[str, Any], pointer: str
) -> None:
    problem = assert_problem(client.post(GAMBLES, json=body), 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == pointer


@pytest.mark.parametrize(
    ("body", "code", "pointer"),
    [
        ({"wp_bet": 2}, "wp-bet-invalid", "/wp_bet"),
        ({"faces": [4] * 8, "seed": 1}, "faces-and-seed", "/seed"),
        ({"decline": True, "seed": 1}, "decline-with-dice", "/decline"),
        ({"wp_bet": 1, "faces": [4] * 8}, "faces-missing", "/faces"),
        ({"faces": [4] * 10}, "faces-extra", "/faces"),
        ({"willpower": {"source": "drive", "available": 2}}, "drive-required", "/willpower/drive"),
        ({"wp_bet": 3, "willpower": {"available": 2}}, "wp-insufficient", "/willpower/available"),
    ],
)
def test_the_rules_refuse_with_a_422_and_a_catalogued_type(
    client: TestClient, body: dict[str, Any], code: str, pointer: str
) -> None:
    problem = assert_problem(
        client.post(GAMBLES, json={"actions": COMMON, **body}), 422, f"quick-shot/{code}"
    )
    assert problem["errors"][0]["pointer"] == pointer
    assert client.get(problem["type"]).json()["status"] == 422


def test_the_faces_refusals_say_how_many(client: TestClient) -> None:
    missing = client.post(GAMBLES, json={"actions": COMMON, "wp_bet": 3, "faces": [4] * 9})
    assert assert_problem(missing, 422, "quick-shot/faces-missing")["missing"] == 1
    extra = client.post(GAMBLES, json={"actions": COMMON, "faces": [4] * 10})
    assert assert_problem(extra, 422, "quick-shot/faces-extra")["extra"] == 2


# Odds -----------------------------------------------------------------------------------


def test_odds_of_a_common_are_exact_beside_the_published_row(client: TestClient) -> None:
    response = client.post(ODDS, json={"actions": COMMON})
    assert response.status_code == 200, response.text
    answer = response.json()
    assert Fraction(answer["success"]["exact"]) == Fraction(14596615, 8**8)
    assert answer["success"]["p"] == pytest.approx(0.870026, abs=5e-7)
    assert answer["critical_success"]["exact"] == "1662535/8388608"  # 3325070/8^8 reduced
    assert answer["published"] == {
        "table": "difficulty",
        "row": "(2)",
        "critical_failure": 6,
        "failure": 15,
        "success": 84,
        "critical_success": 19,
    }
    assert (answer["dice_count"], answer["levels"], answer["tolerance_pp"]) == (8, [2], 4)


@pytest.mark.parametrize(
    "extra", [{"faces": [4] * 8}, {"seed": 1}, {"decline": False}, {"willpower": {"available": 1}}]
)
def test_odds_take_no_dice_decline_or_willpower(client: TestClient, extra: dict[str, Any]) -> None:
    assert_problem(client.post(ODDS, json={"actions": COMMON, **extra}), 400, "invalid-body")


def test_odds_refuse_a_two_wp_bet(client: TestClient) -> None:
    response = client.post(ODDS, json={"actions": COMMON, "wp_bet": 2})
    assert_problem(response, 422, "quick-shot/wp-bet-invalid")


# Odds in the same call (with_odds) --------------------------------------------------------

WITH_ODDS_GAMBLES: list[dict[str, Any]] = [
    # "Critical Failure", "Damage": the multi-action on the table's dice, bolstered
    {
        "actions": [{"difficulty": "common"}, {"difficulty": "minor", "kind": "injury"}],
        "wp_bet": 1,
        "willpower": {"available": 4},
        "faces": [1, 1, 6, 6, 2, 3, 2, 3, 2],
    },
    # "Team Work" (D6), a 3 WP bet, seeded
    {
        "actions": [{"difficulty": "hard", "teamwork": True}],
        "wp_bet": 3,
        "willpower": {"available": 5},
        "seed": 2010,
    },
    # an easier TN, server dice
    {"actions": COMMON, "target_number": 4},
]
_NOT_ODDS = ("faces", "seed", "decline", "willpower")


def test_with_odds_the_gamble_carries_exactly_the_odds_routes_answer(client: TestClient) -> None:
    """ "Step 3: Going for It": `with_odds` adds the odds route's answer for the gamble's
    actions, bet and TN; the gamble is the one made without the flag."""
    for body in WITH_ODDS_GAMBLES:
        shape = {key: value for key, value in body.items() if key not in _NOT_ODDS}
        odds = client.post(ODDS, json=shape)
        assert odds.status_code == 200, odds.text
        answer = _gamble(client, **body, with_odds=True)
        assert answer["odds"] == odds.json()
        if "faces" in body or "seed" in body:
            plain = _gamble(client, **body)
            assert plain["odds"] is None
            assert {k: v for k, v in answer.items() if k not in ("id", "odds")} == {
                k: v for k, v in plain.items() if k not in ("id", "odds")
            }


def test_with_odds_a_declined_gamble_still_answers_the_odds_it_declined(
    client: TestClient,
) -> None:
    """D9: nothing is rolled, yet the odds are those a player weighs before declining: two
    commons at a 3 WP bet, 744158980/8^10 (the seed's row (2,2) prints 66 %)."""
    answer = _gamble(
        client,
        actions=[{"difficulty": "common"}, {"difficulty": "common"}],
        wp_bet=3,
        decline=True,
        with_odds=True,
    )
    assert (answer["outcome"], answer["faces"]) == ("declined", [])
    assert Fraction(answer["odds"]["success"]["exact"]) == Fraction(744158980, 8**10)
    assert answer["odds"]["published"]["success"] == 66


def test_without_with_odds_the_odds_are_null(client: TestClient) -> None:
    assert _gamble(client, actions=COMMON, seed=3)["odds"] is None
    assert _gamble(client, actions=COMMON, seed=3, with_odds=False)["odds"] is None


def test_with_odds_the_gambles_refusals_come_all_at_once_as_without(client: TestClient) -> None:
    """ "Bolstering" (a 2 WP bet) and the dice's refusals, together, the flag changing
    nothing; the odds route has no `with_odds` (400)."""
    body = {"actions": COMMON, "wp_bet": 2, "faces": [4] * 8, "seed": 1}
    plain = assert_problem(client.post(GAMBLES, json=body), 422, "quick-shot/wp-bet-invalid")
    asked = assert_problem(
        client.post(GAMBLES, json={**body, "with_odds": True}), 422, "quick-shot/wp-bet-invalid"
    )
    assert asked["errors"] == plain["errors"]
    assert [e["code"] for e in asked["errors"]] == [
        "quick-shot/wp-bet-invalid",
        "quick-shot/faces-and-seed",
    ]
    assert_problem(
        client.post(ODDS, json={"actions": COMMON, "with_odds": True}), 400, "invalid-body"
    )


# Tables ---------------------------------------------------------------------------------


def test_tables_list_and_one_by_name(client: TestClient) -> None:
    tables = client.get(TABLES).json()["tables"]
    assert [t["name"] for t in tables] == ["difficulties", "bets", "published-odds"]
    bets = client.get(f"{TABLES}/bets").json()
    assert bets["rows"] == [{"wp": 0, "dice": 8}, {"wp": 1, "dice": 9}, {"wp": 3, "dice": 10}]
    assert bets["source"] == "Bolstering"
    assert client.get(f"{TABLES}/luck").status_code == 404
