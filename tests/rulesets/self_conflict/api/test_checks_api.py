"""Self/Conflict checks over HTTP, through the real app: ``POST /v1/self-conflict/checks``
and ``…/checks/odds`` ("Task resolution and other rules", docs/self-conflict.md)."""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient

from tests.support.problems import assert_problem

CHECKS = "/v1/self-conflict/checks"
ODDS = "/v1/self-conflict/checks/odds"


def _check(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post(CHECKS, json=body)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def test_a_check_with_the_tables_faces_explains_every_die(client: TestClient) -> None:
    """TR, Karma: L4 m+1 k−1 [3,3,6] → Self 2 under (6), Conflict 4 equal, re-roll 6 (6):
    12, a total success; karma 2 → 1."""
    answer = _check(
        client,
        talent={"name": "dangerous", "level": 4},
        conflict_modifiers=[{"label": "slippery deck", "value": 1}],
        karma={"balance": 2, "modifier": -1},
        faces=[3, 3, 6],
    )
    assert re.fullmatch("[0-9a-f]{32}", answer.pop("id"))
    assert answer == {
        "talent": {
            "name": "dangerous",
            "level": 4,
            "label": "Fairly",
            "written": "Fairly dangerous(4)",
        },
        "faces": [3, 3, 6],
        "dice": [
            {
                "role": "self",
                "face": 3,
                "modifier": -1,
                "modified": 2,
                "comparison": "under",
                "points": 6,
            },
            {
                "role": "conflict",
                "face": 3,
                "modifier": 1,
                "modified": 4,
                "comparison": "equal",
                "points": 6,
            },
            {
                "role": "conflict_reroll",
                "face": 6,
                "modifier": 0,
                "modified": None,
                "comparison": None,
                "points": 6,
            },
        ],
        "modifiers": [
            {"source": "gm", "die": "conflict", "label": "slippery deck", "value": 1},
            {"source": "karma", "die": "self", "label": "karma", "value": -1},
        ],
        "critical": None,
        "total": 12,
        "outcome": "total_success",
        "outcome_label": "Total success",
        "karma": {"balance_before": 2, "modifier": -1, "spent": 1, "gained": 0, "balance_after": 1},
        "warnings": [],
        "summary": "Talent 4 (Fairly): Self 3-1=2 under, Conflict 3+1=4 equal (re-roll 6): "
        "12 points, Total success; karma spent 1",
        "odds": None,
        "receipt": None,
    }


def test_a_critical_over_http(client: TestClient) -> None:
    """TR, D2: L4 [1,1] → critical success, total null, karma gained."""
    answer = _check(client, talent={"level": 4}, faces=[1, 1])
    assert (answer["critical"], answer["total"], answer["outcome"]) == (
        "success",
        None,
        "total_success",
    )
    assert answer["outcome_label"] == "Critical success"
    assert answer["karma"] == {
        "balance_before": None,
        "modifier": 0,
        "spent": 0,
        "gained": 1,
        "balance_after": None,
    }
    assert [d["points"] for d in answer["dice"]] == [None, None]


def test_a_seeded_check_replays_and_its_faces_replay_it(client: TestClient) -> None:
    """D7: the same seed gives the same dice; the returned faces replay the check."""
    body = {"talent": {"level": 3}, "seed": 2004}
    first, second = _check(client, **body), _check(client, **body)
    assert first["dice"] == second["dice"]
    assert first["id"] != second["id"]
    replay = _check(client, talent={"level": 3}, faces=first["faces"])
    assert (replay["dice"], replay["total"]) == (first["dice"], first["total"])


def test_server_dice_by_default(client: TestClient) -> None:
    """D7: neither faces nor seed → the server's dice."""
    answer = _check(client, talent={"level": 4})
    assert 2 <= len(answer["faces"]) <= 4


def test_too_few_faces_say_how_many_and_which_are_missing(client: TestClient) -> None:
    """TR, D7: L4 [4,4] → 422 faces-missing with `missing` 2 and `roles`."""
    problem = assert_problem(
        client.post(CHECKS, json={"talent": {"level": 4}, "faces": [4, 4]}),
        422,
        "self-conflict/faces-missing",
    )
    assert (problem["missing"], problem["roles"]) == (2, ["self_reroll", "conflict_reroll"])
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("self-conflict/faces-missing", "/faces")
    ]
    assert "2 more face(s)" in problem["detail"]
    assert client.get(problem["type"]).json()["status"] == 422


def test_a_third_face_after_a_critical_is_extra(client: TestClient) -> None:
    """TR (no re-roll follows a critical): L4 [1,1,3] → faces-extra."""
    assert_problem(
        client.post(CHECKS, json={"talent": {"level": 4}, "faces": [1, 1, 3]}),
        422,
        "self-conflict/faces-extra",
    )


def test_faces_and_a_seed_are_refused(client: TestClient) -> None:
    """D7: faces + seed → 422."""
    assert_problem(
        client.post(CHECKS, json={"talent": {"level": 4}, "faces": [3, 5], "seed": 1}),
        422,
        "self-conflict/faces-and-seed",
    )


def test_karma_beyond_the_balance_points_at_the_modifier(client: TestClient) -> None:
    """Karma, D5: k−2 with 1 point → 422 at /karma/modifier."""
    problem = assert_problem(
        client.post(
            CHECKS,
            json={"talent": {"level": 4}, "karma": {"balance": 1, "modifier": -2}, "faces": [5, 5]},
        ),
        422,
        "self-conflict/karma-insufficient",
    )
    assert problem["errors"][0]["pointer"] == "/karma/modifier"


def test_bounds_a_gm_sum_of_eleven_is_422_and_of_three_a_warning(client: TestClient) -> None:
    """D4: each −6…+6, the sum −10…+10; beyond ±2 a warning."""
    eleven = [{"label": "storm", "value": 6}, {"label": "night", "value": 5}]
    problem = assert_problem(
        client.post(CHECKS, json={"talent": {"level": 4}, "conflict_modifiers": eleven}),
        422,
        "self-conflict/conflict-modifier-out-of-range",
    )
    assert problem["errors"][0]["pointer"] == "/conflict_modifiers"
    answer = _check(
        client,
        talent={"level": 4},
        conflict_modifiers=[{"label": "storm", "value": 3}],
        faces=[3, 5],
    )
    assert [w["code"] for w in answer["warnings"]] == ["conflict-modifier-large"]


def test_bounds_a_self_modifier_field_is_refused(client: TestClient) -> None:
    """TR (the GM modifies only the Conflict die): a Self-modifier field → 400."""
    problem = assert_problem(
        client.post(CHECKS, json={"talent": {"level": 4}, "self_modifier": 1}),
        400,
        "invalid-body",
    )
    assert problem["errors"][0]["code"] == "unknown-field"
    assert problem["errors"][0]["pointer"] == "/self_modifier"


def test_bounds_faces_outside_one_to_six_are_a_400_at_the_face(client: TestClient) -> None:
    """D7: faces [0,7] → 400 at /faces/0; a sixth face or a GM modifier of 7 → 400."""
    problem = assert_problem(
        client.post(CHECKS, json={"talent": {"level": 4}, "faces": [0, 7]}), 400, "invalid-body"
    )
    assert problem["errors"][0]["pointer"] == "/faces/0"
    for body in (
        {"talent": {"level": 4}, "faces": [1, 2, 3, 4, 5]},
        {"talent": {"level": 4}, "conflict_modifiers": [{"label": "x", "value": 7}]},
        {"talent": {"level": 7}},
        {"talent": {"level": 4}, "karma": {"balance": 1, "modifier": 11}},
    ):
        assert_problem(client.post(CHECKS, json=body), 400, "invalid-body")


# --- Odds ------------------------------------------------------------------------------


def test_the_odds_of_level_four(client: TestClient) -> None:
    """TR: L4, no modifier → 274/661/361 in 1296ths, criticals 36 each; answered reduced."""
    response = client.post(ODDS, json={"talent": {"name": "dangerous", "level": 4}})
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["talent_level"], body["conflict_modifier"], body["karma_modifier"]) == (4, 0, 0)
    assert {name: Fraction(o["exact"]) for name, o in body["outcomes"].items()} == {
        "failure": Fraction(274, 1296),
        "marginal_success": Fraction(661, 1296),
        "total_success": Fraction(361, 1296),
    }
    assert body["outcomes"]["failure"]["exact"] == "137/648"
    assert body["outcomes"]["total_success"]["p"] == round(361 / 1296, 12)
    assert body["critical"] == {
        "success": {"p": round(1 / 36, 12), "exact": "1/36"},
        "failure": {"p": round(1 / 36, 12), "exact": "1/36"},
    }
    assert Fraction(body["at_least_marginal"]["exact"]) == Fraction(1022, 1296)
    assert Fraction(body["reroll"]["exact"]) == Fraction(396, 1296)
    assert body["points"][-1]["total"] == 12
    assert body["warnings"] == []


def test_the_odds_with_a_gm_modifier_and_karma(client: TestClient) -> None:
    """TR, Karma, D3: L0 with karma −2 = L0 with the GM's −2: 1044/216/36."""
    karma = client.post(
        ODDS, json={"talent": {"level": 0}, "karma": {"balance": 3, "modifier": -2}}
    ).json()
    gm = client.post(
        ODDS, json={"talent": {"level": 0}, "conflict_modifiers": [{"label": "x", "value": -2}]}
    ).json()
    assert karma["outcomes"] == gm["outcomes"]
    assert Fraction(gm["outcomes"]["marginal_success"]["exact"]) == Fraction(216, 1296)


def test_the_odds_refuse_faces_and_seed_and_what_the_check_refuses(client: TestClient) -> None:
    """The odds body is the check body minus faces/seed (either → 400), the same 422s."""
    for extra in ({"faces": [3, 5]}, {"seed": 1}):
        assert_problem(
            client.post(ODDS, json={"talent": {"level": 4}, **extra}), 400, "invalid-body"
        )
    assert_problem(
        client.post(ODDS, json={"talent": {"level": 4}, "karma": {"balance": 0, "modifier": 1}}),
        422,
        "self-conflict/karma-insufficient",
    )


# --- Odds in the same call (with_odds) -----------------------------------------------

WITH_ODDS_BODIES: list[dict[str, Any]] = [
    # TR, Karma: the walk-through's check on the table's dice
    {
        "talent": {"name": "dangerous", "level": 4},
        "conflict_modifiers": [{"label": "slippery deck", "value": 1}],
        "karma": {"balance": 2, "modifier": -1},
        "faces": [3, 3, 6],
    },
    # D4: a large GM sum, seeded: the odds carry the same warning
    {"talent": {"level": 4}, "conflict_modifiers": [{"label": "storm", "value": 3}], "seed": 9},
    # D3: level 0, karma −2 on the Self die, server dice
    {"talent": {"name": "ship's surgeon", "level": 0}, "karma": {"balance": 2, "modifier": -2}},
]


def test_with_odds_the_check_carries_exactly_the_odds_routes_answer(client: TestClient) -> None:
    """TR: `with_odds` adds the odds route's answer for the same body less the dice; the
    check itself is the one made without the flag (same faces, same outcome)."""
    for body in WITH_ODDS_BODIES:
        dice = {key: body[key] for key in ("faces", "seed") if key in body}
        shape = {key: value for key, value in body.items() if key not in dice}
        odds = client.post(ODDS, json=shape)
        assert odds.status_code == 200, odds.text
        answer = _check(client, **body, with_odds=True)
        assert answer["odds"] == odds.json()
        if dice:
            plain = _check(client, **body)
            assert plain["odds"] is None
            assert {k: v for k, v in answer.items() if k not in ("id", "odds")} == {
                k: v for k, v in plain.items() if k not in ("id", "odds")
            }


def test_with_odds_level_four_and_a_storm_are_the_hand_counted_fractions(
    client: TestClient,
) -> None:
    """TR: L4 m+2 → 478/685/133 in 1296ths, criticals 1/36 each, in the check's answer."""
    answer = _check(
        client,
        talent={"level": 4},
        conflict_modifiers=[{"label": "storm", "value": 2}],
        faces=[1, 1],
        with_odds=True,
    )
    assert answer["critical"] == "success"
    outcomes = answer["odds"]["outcomes"]
    assert {name: Fraction(o["exact"]) for name, o in outcomes.items()} == {
        "failure": Fraction(478, 1296),
        "marginal_success": Fraction(685, 1296),
        "total_success": Fraction(133, 1296),
    }
    assert answer["odds"]["critical"]["success"] == {"p": round(1 / 36, 12), "exact": "1/36"}


def test_without_with_odds_the_odds_are_null(client: TestClient) -> None:
    """`odds` is always sent: null unless asked (`with_odds` false or left out)."""
    assert _check(client, talent={"level": 4}, faces=[5, 2])["odds"] is None
    assert _check(client, talent={"level": 4}, faces=[5, 2], with_odds=False)["odds"] is None


def test_with_odds_the_checks_refusals_come_all_at_once_as_without(client: TestClient) -> None:
    """D5, D7: faces with a seed and karma beyond the balance are refused together, the
    flag changing nothing; the odds route has no `with_odds` (400)."""
    body = {
        "talent": {"level": 4},
        "karma": {"balance": 0, "modifier": -1},
        "faces": [3, 5],
        "seed": 1,
    }
    plain = assert_problem(client.post(CHECKS, json=body), 422, "self-conflict/faces-and-seed")
    asked = assert_problem(
        client.post(CHECKS, json={**body, "with_odds": True}), 422, "self-conflict/faces-and-seed"
    )
    assert asked["errors"] == plain["errors"]
    assert [e["code"] for e in asked["errors"]] == [
        "self-conflict/faces-and-seed",
        "self-conflict/karma-insufficient",
    ]
    assert_problem(
        client.post(ODDS, json={"talent": {"level": 4}, "with_odds": True}), 400, "invalid-body"
    )


# --- Any body ---------------------------------------------------------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**60), 2**60) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def near_bodies(draw: st.DrawFn) -> Any:
    """Mostly check-shaped bodies, some fields out of range or of the wrong type."""
    if draw(st.integers(0, 9)) == 0:
        return draw(_JSON)
    body: dict[str, Any] = {"talent": {"level": draw(st.integers(-2, 8))}}
    if draw(st.booleans()):
        body["talent"]["name"] = draw(st.text(max_size=210))
    if draw(st.booleans()):
        body["conflict_modifiers"] = [
            {"label": draw(st.text(min_size=1, max_size=5)), "value": draw(st.integers(-8, 8))}
            for _ in range(draw(st.integers(0, 9)))
        ]
    if draw(st.booleans()):
        body["karma"] = {
            "balance": draw(st.integers(-1, 12)),
            "modifier": draw(st.integers(-12, 12)),
        }
    if draw(st.booleans()):
        body["faces"] = draw(st.lists(st.integers(0, 7), max_size=5))
    if draw(st.booleans()):
        body["seed"] = draw(st.integers(-1, 2**53))
    if draw(st.integers(0, 5)) == 0:
        body[draw(st.text(min_size=1, max_size=6))] = draw(_JSON)
    return body


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=near_bodies(), path=st.sampled_from([CHECKS, ODDS]))
def test_property_any_body_gets_an_answer_or_a_problem(
    client: TestClient, body: Any, path: str
) -> None:
    """Property: any body gets a 200 or a problem detail (400 or a self-conflict 422)."""
    response = client.post(path, json=body)
    if response.status_code == 200:
        answer = response.json()
        assert "outcomes" in answer if path == ODDS else "outcome" in answer
        return
    assert response.status_code in (400, 422), response.text
    problem = response.json()
    assert response.headers["content-type"].startswith("application/problem+json")
    if response.status_code == 422:
        assert problem["type"].startswith("/problems/self-conflict/")
