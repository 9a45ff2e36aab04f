"""The travelogue's stateless routes through the real app: set-up validation, one roll of
the pools and its exact odds ("The Set Up", "Rolling The Bones", "Caught Or Escape"; D2,
D3, D23, D28)."""

from __future__ import annotations

from fractions import Fraction
from math import comb
from typing import Any

from litestar.testing import TestClient

from service.rulesets.travelogue.api.examples import BULLSEYES
from tests.support.problems import assert_problem

VALIDATE = "/v1/travelogue/bullseyes/validate"
ROLLS = "/v1/travelogue/rolls"
ODDS = "/v1/travelogue/rolls/odds"
STATS = {"avoid": 2, "armor": 1, "angel": 3, "allies": 2}
CAUGHT_OR_ESCAPE = {
    "shooter": {"aim": 2, "ammo": 3},
    "angel": {"aim": 3, "ammo": 2},
    "stats": STATS,
}


def _ok(client: TestClient, path: str, body: Any) -> dict[str, Any]:
    response = client.post(path, json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_validate_the_four_connected_bullseyes(client: TestClient) -> None:
    """D2: Hugo–Annie by shooter, Annie–Archer by a normalised beef, Archer–Vera by shooter."""
    assert _ok(client, VALIDATE, {"bullseyes": BULLSEYES}) == {
        "valid": True,
        "violations": [],
        "warnings": [],
        "components": [[0, 1, 2, 3]],
    }


def test_validate_reports_two_pairs_and_eight_points_at_once(client: TestClient) -> None:
    """D2, D3: {A,B}/{C,D} is `not-connected` at C and D; a sum of 8 `points-not-nine`; a 0
    warns."""
    sheets = [
        *BULLSEYES[:2],
        {**BULLSEYES[2], "beef": "A stolen painting"},
        {**BULLSEYES[3], "stats": {"avoid": 3, "armor": 2, "angel": 3, "allies": 0}},
    ]
    report = _ok(client, VALIDATE, {"bullseyes": sheets})
    assert report["valid"] is False
    assert [(v["code"], v["pointer"]) for v in report["violations"]] == [
        ("points-not-nine", "/bullseyes/3/stats"),
        ("not-connected", "/bullseyes/2"),
        ("not-connected", "/bullseyes/3"),
    ]
    assert [(w["code"], w["pointer"]) for w in report["warnings"]] == [
        ("stat-zero", "/bullseyes/3/stats/allies")
    ]
    assert report["components"] == [[0, 1], [2, 3]]


def test_validate_one_sheet_is_a_player_count_not_a_400(client: TestClient) -> None:
    report = _ok(client, VALIDATE, {"bullseyes": BULLSEYES[:1]})
    assert [(v["code"], v["pointer"]) for v in report["violations"]] == [
        ("player-count", "/bullseyes")
    ]


def test_validate_refuses_seven_sheets_and_unknown_fields_at_the_schema(client: TestClient) -> None:
    seven = [{**BULLSEYES[0], "player": f"p{i}", "name": f"N{i}"} for i in range(7)]
    assert_problem(client.post(VALIDATE, json={"bullseyes": seven}), 400, "invalid-body")
    odd = [{**BULLSEYES[0], "aim": 1}, *BULLSEYES[1:]]
    assert_problem(client.post(VALIDATE, json={"bullseyes": odd}), 400, "invalid-body")


def test_rolling_the_bones_six_and_five_do_not_count(client: TestClient) -> None:
    """'Rolling The Bones': Shooter Ammo 3 Aim 2, faces 2, 6, 5 → S = 1."""
    body = {
        "shooter": {"aim": 2, "ammo": 3},
        "angel": {"aim": 0, "ammo": 0},
        "stats": STATS,
        "faces": {"shooter": [2, 6, 5]},
    }
    answer = _ok(client, ROLLS, body)
    assert answer["shooter_dice"] == [
        {"face": 2, "counted": True},
        {"face": 6, "counted": False},
        {"face": 5, "counted": False},
    ]
    assert answer["shooter_number"] == 1


def test_caught_or_escape_over_http(client: TestClient) -> None:
    """'Caught Or Escape': S 1, A 2, running (A − S = 1 is not above 3); 13 > 4 cracking,
    4 > 3 exposure."""
    answer = _ok(
        client, ROLLS, {**CAUGHT_OR_ESCAPE, "faces": {"shooter": [2, 6, 5], "angel": [1, 3]}}
    )
    assert answer == {
        "shooter_dice": [
            {"face": 2, "counted": True},
            {"face": 6, "counted": False},
            {"face": 5, "counted": False},
        ],
        "angel_dice": [{"face": 1, "counted": True}, {"face": 3, "counted": True}],
        "shooter_number": 1,
        "angel_number": 2,
        "difference": -1,
        "smallest_stat": 1,
        "largest_stat": 3,
        "outcome": "running",
        "shooter_sum": 13,
        "avoid_x_allies": 4,
        "cracking": True,
        "angel_sum": 4,
        "armor_x_angel": 3,
        "exposure": True,
        "at_risk": True,
        "summary": "Shooter 2+6+5, S 1; Angel 1+3, A 2: running; cracking and exposure, at risk",
        "odds": None,
        "receipt": None,
    }


def test_step_five_edges_over_http(client: TestClient) -> None:
    """'Caught Or Escape': S − A = lo (1) runs, lo + 1 is caught; A − S = hi (3) runs,
    hi + 1 escapes."""

    def outcome(s: int, a: int) -> str:
        body = {
            "shooter": {"aim": 1, "ammo": 4},
            "angel": {"aim": 1, "ammo": 4},
            "stats": STATS,
            "faces": {"shooter": [1] * s + [6] * (4 - s), "angel": [1] * a + [6] * (4 - a)},
        }
        result: str = _ok(client, ROLLS, body)["outcome"]
        return result

    assert [outcome(1, 0), outcome(2, 0), outcome(0, 3), outcome(0, 4)] == [
        "running",
        "caught",
        "running",
        "escaped",
    ]


def test_a_seed_rolls_the_same_dice_every_time(client: TestClient) -> None:
    """D28: a seed up to 2^63 − 1 draws reproducible dice, as many as the pools' Ammo."""
    body = {
        "shooter": {"aim": 3, "ammo": 5},
        "angel": {"aim": 2, "ammo": 4},
        "stats": STATS,
        "seed": 2**63 - 1,
    }
    first, again = _ok(client, ROLLS, body), _ok(client, ROLLS, body)
    assert first == again
    assert (len(first["shooter_dice"]), len(first["angel_dice"])) == (5, 4)
    other = [_ok(client, ROLLS, {**body, "seed": seed})["shooter_dice"] for seed in range(5)]
    assert len({str(dice) for dice in other}) > 1
    assert_problem(client.post(ROLLS, json={**body, "seed": 2**63}), 400, "invalid-body")


def test_server_dice_roll_every_die_of_each_pool(client: TestClient) -> None:
    body = {"shooter": {"aim": 6, "ammo": 30}, "angel": {"aim": 0, "ammo": 2}, "stats": STATS}
    answer = _ok(client, ROLLS, body)
    assert answer["shooter_number"] == 30
    assert all(1 <= d["face"] <= 6 and d["counted"] for d in answer["shooter_dice"])
    assert [d["counted"] for d in answer["angel_dice"]] == [False, False]


def test_the_tables_faces_are_checked(client: TestClient) -> None:
    """D28: exactly Ammo faces per pool, each 1…6, and never with a seed."""
    both = client.post(ROLLS, json={**CAUGHT_OR_ESCAPE, "faces": {"shooter": [1, 2, 3]}, "seed": 1})
    assert_problem(both, 422, "travelogue/faces-and-seed")
    missing = assert_problem(
        client.post(ROLLS, json={**CAUGHT_OR_ESCAPE, "faces": {"shooter": [1]}}),
        422,
        "travelogue/faces-missing",
    )
    assert missing["missing"] == {"shooter": 2, "angel": 2}
    extra = client.post(
        ROLLS, json={**CAUGHT_OR_ESCAPE, "faces": {"shooter": [1, 2, 3, 4], "angel": [1, 2]}}
    )
    assert assert_problem(extra, 422, "travelogue/faces-extra")["errors"][0]["pointer"] == (
        "/faces/shooter/3"
    )
    bad = client.post(
        ROLLS, json={**CAUGHT_OR_ESCAPE, "faces": {"shooter": [1, 7, 3], "angel": [0, 2]}}
    )
    body = assert_problem(bad, 422, "travelogue/face-out-of-range")
    assert [e["pointer"] for e in body["errors"]] == ["/faces/shooter/1", "/faces/angel/0"]


def test_caught_or_escape_odds_over_http(client: TestClient) -> None:
    """'Caught Or Escape' odds: caught 1/12, escaped 0, running 0.916667, cracking 0.981481,
    exposure 0.916667, at risk 0.998457, risk asked 0.915123."""
    odds = _ok(client, ODDS, CAUGHT_OR_ESCAPE)
    assert odds["caught"] == {"p": 0.083333333333, "exact": "1/12"}
    assert odds["escaped"] == {"p": 0.0, "exact": "0/1"}
    assert {
        name: round(odds[name]["p"], 6)
        for name in ("running", "cracking", "exposure", "at_risk", "risk_asked")
    } == {
        "running": 0.916667,
        "cracking": 0.981481,
        "exposure": 0.916667,
        "at_risk": 0.998457,
        "risk_asked": 0.915123,
    }
    starting = _ok(
        client,
        ODDS,
        {"shooter": {"aim": 1, "ammo": 1}, "angel": {"aim": 0, "ammo": 0}, "stats": STATS},
    )
    assert (starting["running"]["exact"], starting["cracking"]["exact"]) == ("1/1", "1/3")


def test_odds_take_no_dice_and_at_most_30_a_pool(client: TestClient) -> None:
    assert_problem(client.post(ODDS, json={**CAUGHT_OR_ESCAPE, "seed": 1}), 400, "invalid-body")
    big = {**CAUGHT_OR_ESCAPE, "angel": {"aim": 3, "ammo": 31}}
    body = assert_problem(client.post(ODDS, json=big), 422, "travelogue/too-many-dice")
    assert [e["pointer"] for e in body["errors"]] == ["/angel/ammo"]
    largest = {
        **CAUGHT_OR_ESCAPE,
        "shooter": {"aim": 3, "ammo": 30},
        "angel": {"aim": 3, "ammo": 30},
    }
    assert len(_ok(client, ODDS, largest)["shooter_number"]) == 31


# --- Odds in the same call (with_odds) -----------------------------------------------


def test_with_odds_the_roll_carries_exactly_the_odds_routes_answer(client: TestClient) -> None:
    """'Caught Or Escape' on the table's faces, a fresh bullseye's pools seeded, and 30 dice
    a pool on server dice: `odds` is the odds route's answer for the pools and stats, and
    the roll is the one made without the flag."""
    fresh = {"shooter": {"aim": 1, "ammo": 1}, "angel": {"aim": 0, "ammo": 0}, "stats": STATS}
    largest = {**CAUGHT_OR_ESCAPE, "shooter": {"aim": 3, "ammo": 30}}
    for shape, dice in (
        (CAUGHT_OR_ESCAPE, {"faces": {"shooter": [2, 6, 5], "angel": [1, 3]}}),
        (fresh, {"seed": 7}),
        (largest, {}),
    ):
        odds = _ok(client, ODDS, shape)
        answer = _ok(client, ROLLS, {**shape, **dice, "with_odds": True})
        assert answer["odds"] == odds
        if dice:
            plain = _ok(client, ROLLS, {**shape, **dice})
            assert plain["odds"] is None
            assert {**answer, "odds": None} == plain


def test_with_odds_caught_or_escape_are_the_books_fractions(client: TestClient) -> None:
    """'Caught Or Escape': caught 1/12, escaped 0, running 11/12, cracking 53/54, exposure
    11/12 (Angel: 2 dice sum above 3), S binomial(3, 1/3)."""
    answer = _ok(client, ROLLS, {**CAUGHT_OR_ESCAPE, "seed": 3, "with_odds": True})
    odds = answer["odds"]
    assert {name: Fraction(odds[name]["exact"]) for name in ("caught", "escaped", "running")} == {
        "caught": Fraction(1, 12),
        "escaped": Fraction(0),
        "running": Fraction(11, 12),
    }
    assert Fraction(odds["cracking"]["exact"]) == 1 - Fraction(4, 216)  # sum ≤ 4: 1+1+1, 1+1+2
    assert Fraction(odds["exposure"]["exact"]) == 1 - Fraction(3, 36)  # sum ≤ 3: 1+1, 1+2, 2+1
    assert [(n["number"], Fraction(n["exact"])) for n in odds["shooter_number"]] == [
        (k, Fraction(comb(3, k) * 2 ** (3 - k), 27)) for k in range(4)
    ]


def test_without_with_odds_the_odds_are_null(client: TestClient) -> None:
    body = {**CAUGHT_OR_ESCAPE, "seed": 3}
    assert _ok(client, ROLLS, body)["odds"] is None
    assert _ok(client, ROLLS, {**body, "with_odds": False})["odds"] is None


def test_with_odds_more_than_30_dice_are_refused_as_the_odds_route_does(
    client: TestClient,
) -> None:
    """A roll takes up to 1000 dice a pool, its odds 30: asked for, they refuse it with the
    odds route's problem, after the dice's own refusals; unasked, it rolls."""
    big = {**CAUGHT_OR_ESCAPE, "angel": {"aim": 3, "ammo": 31}}
    route = assert_problem(client.post(ODDS, json=big), 422, "travelogue/too-many-dice")
    asked = assert_problem(
        client.post(ROLLS, json={**big, "with_odds": True}), 422, "travelogue/too-many-dice"
    )
    assert asked["errors"] == route["errors"]
    assert _ok(client, ROLLS, big)["odds"] is None
    both = {**big, "faces": {"shooter": [1, 2, 3]}, "seed": 1, "with_odds": True}
    assert_problem(client.post(ROLLS, json=both), 422, "travelogue/faces-and-seed")
    assert_problem(
        client.post(ODDS, json={**CAUGHT_OR_ESCAPE, "with_odds": True}), 400, "invalid-body"
    )
