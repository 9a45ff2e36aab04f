"""POST /v1/checks and /v1/checks/batch through the real app and a real Redis."""

from __future__ import annotations

import pytest
from litestar.testing import TestClient

from tests.support.problems import assert_problem


def test_a_check_with_supplied_faces_follows_the_book(client: TestClient) -> None:
    """§2.1.2 yield, §2.4 spread, §6.3 halving, §3.2.3 impairment, §2.4.2 depletion."""
    response = client.post(
        "/v1/checks",
        json={
            "target": 15,
            "qualities": [
                {"name": "Fencing school", "type": "experiential", "magnitude": 4},
                {"name": "Strong", "type": "intrinsic", "magnitude": 5},
                {"name": "Wiry", "type": "intrinsic", "magnitude": 3},
            ],
            "situational": [{"label": "Fog", "magnitude": -1}],
            "depletable": [{"name": "health", "current": 31, "maximum": 42}],
            "depletion": {"actor": {"threat": 5}, "opposition": {"depletion_modifier": -2}},
            "roll": {"faces": [17]},
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    # 4 + 5 + half of 3 (1) - 1 fog - 2 impairment at 31 of 42 = 7
    assert [m["applied"] for m in body["modifiers"]] == [4, 5, 1, -1, -2]
    assert body["total_modifier"] == 7
    assert (body["die_result"], body["yield"], body["spread"]) == (17, 24, 9)
    assert body["outcome"] == "success"
    assert body["narrator"] == "player"
    assert body["spread_label"] == "Solid Success"
    assert body["depletion"] == {
        "loser": "opposition",
        "amount": 12,  # 9 + threat 5 - protection 2
        "after": [
            {"name": "health", "current": 31, "maximum": 42, "impairment": -2, "state": "impaired"}
        ],
    }
    # The same, in one line for a chat bot (rules/summary.py).
    assert body["summary"] == (
        "d20 17 +7 = yield 24 (Good) vs target 15 (Hard): success, spread +9 (Solid Success); "
        "the opposition loses 12"
    )
    assert response.headers["x-request-id"]


def test_seeded_checks_are_reproducible(client: TestClient) -> None:
    body = {"target": 10, "dice": "3d6", "seed": 99}
    first, second = client.post("/v1/checks", json=body), client.post("/v1/checks", json=body)
    assert first.json()["faces"] == second.json()["faces"]
    assert first.json()["id"] != second.json()["id"]


def test_the_request_id_is_echoed(client: TestClient) -> None:
    response = client.post("/v1/checks", json={"target": 1}, headers={"X-Request-ID": "abc-123"})
    assert response.headers["x-request-id"] == "abc-123"
    problem = client.get("/nowhere", headers={"X-Request-ID": "trace-9"})
    assert problem.headers["x-request-id"] == "trace-9"
    assert problem.json()["request_id"] == "trace-9"


@pytest.mark.parametrize(
    ("body", "pointer"),
    [
        (b'{"target": "5"}', "/target"),
        (
            b'{"target": 1, "qualities": [{"name": "x", "type": "core", "magnitude": 101}]}',
            "/qualities/0/magnitude",
        ),
        (
            b'{"target": 1, "qualities": [{"name": "x", "type": "cosmic", "magnitude": 1}]}',
            "/qualities/0/type",
        ),
        (b'{"target": 1, "situational": [{"label": "", "magnitude": 1}]}', "/situational/0/label"),
        (b'{"target": 1, "tagret": 2}', "/tagret"),
        (b'{"qualities": []}', "/target"),
        (b'{"target": 1, "depletion": {"actor": {"threat": 21}}}', "/depletion/actor/threat"),
        (b'{"target": 1, "roll": {"faces": []}}', "/roll/faces"),
        (b'{"target": 1, "seed": -1}', "/seed"),
        (b"[1, 2]", ""),
    ],
)
def test_unschematic_bodies_are_400_with_a_pointer(
    client: TestClient, body: bytes, pointer: str
) -> None:
    response = client.post("/v1/checks", content=body, headers={"content-type": "application/json"})
    problem = assert_problem(response, 400, "invalid-body")
    assert problem["errors"][0]["pointer"] == pointer


def test_an_integral_float_counts_as_an_integer(client: TestClient) -> None:
    """JSON Schema's integer includes 12.0; 12.5 is still refused."""
    ok = client.post(
        "/v1/checks",
        content=b'{"target": 12.0, "seed": 1}',
        headers={"content-type": "application/json"},
    )
    assert ok.status_code == 200
    assert ok.json()["target"] == 12
    bad = client.post(
        "/v1/checks", content=b'{"target": 12.5}', headers={"content-type": "application/json"}
    )
    assert assert_problem(bad, 400, "invalid-body")["errors"][0]["pointer"] == "/target"


def test_malformed_json_is_400(client: TestClient) -> None:
    response = client.post(
        "/v1/checks", content=b'{"target": ', headers={"content-type": "application/json"}
    )
    assert_problem(response, 400, "malformed-json")


def test_an_empty_body_is_400(client: TestClient) -> None:
    response = client.post("/v1/checks", content=b"", headers={"content-type": "application/json"})
    assert_problem(response, 400, "missing-body")


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "application/xml"]
)
def test_a_body_that_is_not_json_is_415(client: TestClient, content_type: str) -> None:
    response = client.post(
        "/v1/checks", content=b'{"target": 1}', headers={"content-type": content_type}
    )
    assert_problem(response, 415, "unsupported-media-type")


def test_a_json_content_type_with_charset_is_accepted(client: TestClient) -> None:
    response = client.post(
        "/v1/checks",
        content=b'{"target": 1}',
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert response.status_code == 200


def test_a_body_over_64_kib_is_413(client: TestClient) -> None:
    padding = " " * (64 * 1024)
    response = client.post(
        "/v1/checks",
        content=('{"target": 1}' + padding).encode(),
        headers={"content-type": "application/json"},
    )
    assert_problem(response, 413, "body-too-large")


def test_quick10_with_depletion_is_422(client: TestClient) -> None:
    """§2.5."""
    response = client.post("/v1/checks", json={"target": 10, "quick10": True, "depletion": {}})
    problem = assert_problem(response, 422, "quick10-with-depletion")
    assert problem["errors"] == [
        {
            "code": "quick10-with-depletion",
            "pointer": "/quick10",
            "detail": problem["errors"][0]["detail"],
        }
    ]


def test_a_face_the_die_cannot_show_is_422_face_out_of_range(client: TestClient) -> None:
    """§7.1: a d6 has no 7: face-out-of-range at that face (issue 38: was illegal-faces)."""
    response = client.post(
        "/v1/checks", json={"target": 10, "dice": "3d6", "roll": {"faces": [1, 7, 2]}}
    )
    problem = assert_problem(response, 422, "face-out-of-range")
    assert problem["errors"] == [
        {
            "code": "face-out-of-range",
            "pointer": "/roll/faces/1",
            "detail": "A d6 shows 1 to 6; 7 is not a face of it.",
        }
    ]
    assert "missing" not in problem
    assert "extra" not in problem


def test_too_few_faces_are_422_faces_missing_saying_how_many_more(client: TestClient) -> None:
    """§7.1: 4d6-4 rolls four dice; two faces are faces-missing at the list, `missing`: 2
    (issue 38: was illegal-faces), as in every game."""
    response = client.post(
        "/v1/checks", json={"target": 10, "dice": "4d6-4", "roll": {"faces": [3, 4]}}
    )
    problem = assert_problem(response, 422, "faces-missing")
    assert problem["errors"] == [
        {
            "code": "faces-missing",
            "pointer": "/roll/faces",
            "detail": "4d6-4 rolls 4 dice, so it shows 4 faces, not 2.",
        }
    ]
    assert problem["missing"] == 2


def test_too_many_faces_are_422_faces_extra_saying_how_many(client: TestClient) -> None:
    """§7.1: a d20 is one die; three faces are faces-extra at the list, `extra`: 2
    (issue 38: was illegal-faces), as in every game."""
    response = client.post("/v1/checks", json={"target": 10, "roll": {"faces": [3, 4, 5]}})
    problem = assert_problem(response, 422, "faces-extra")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("faces-extra", "/roll/faces")
    ]
    assert problem["extra"] == 2


def test_faces_and_a_seed_are_422_faces_and_seed(client: TestClient) -> None:
    """§7.1 dice source: the table's faces or a seed for the server's roll, not both:
    faces-and-seed at /seed (issue 38: was roll-with-seed)."""
    response = client.post("/v1/checks", json={"target": 10, "seed": 4, "roll": {"faces": [9]}})
    problem = assert_problem(response, 422, "faces-and-seed")
    assert problem["errors"] == [
        {
            "code": "faces-and-seed",
            "pointer": "/seed",
            "detail": "A seed makes the server roll; it cannot be combined with supplied faces.",
        }
    ]


@pytest.mark.parametrize(
    ("new", "old"),
    [
        ("faces-missing", "illegal-faces"),
        ("faces-extra", "illegal-faces"),
        ("face-out-of-range", "illegal-faces"),
        ("faces-and-seed", "roll-with-seed"),
    ],
)
def test_the_faces_refusals_are_every_game_s_and_the_old_types_are_gone(
    client: TestClient, new: str, old: str
) -> None:
    """Issue 38 (docs/bullseye.md, "Changes"): the table's faces are refused with the
    kernel's codes, bare as Bullseye's are; `illegal-faces` and `roll-with-seed` are no
    problem types any more."""
    body = client.get(f"/problems/{new}").json()
    assert (body["type"], body["status"]) == (f"/problems/{new}", 422)
    assert old in body["description"]
    assert_problem(client.get(f"/problems/{old}"), 404, "not-found")


def test_an_incapacitated_character_cannot_check(client: TestClient) -> None:
    """§3.2.4: 10 of 42 is incapacitated."""
    response = client.post(
        "/v1/checks",
        json={"target": 10, "depletable": [{"name": "health", "current": 10, "maximum": 42}]},
    )
    problem = assert_problem(response, 422, "character-incapacitated")
    assert problem["errors"][0]["pointer"] == "/depletable/0/current"


def test_strict_refuses_what_lenient_warns_about(client: TestClient) -> None:
    """§6.3: situational total +6 is outside -5…+5."""
    body = {"target": 10, "seed": 5, "situational": [{"label": "High ground", "magnitude": 6}]}
    lenient = client.post("/v1/checks", json=body)
    assert lenient.status_code == 200
    assert [w["code"] for w in lenient.json()["warnings"]] == ["situational-out-of-range"]
    strict = client.post("/v1/checks", json={**body, "strict": True})
    assert_problem(strict, 422, "situational-out-of-range")


def test_a_batch_resolves_in_order(client: TestClient) -> None:
    response = client.post(
        "/v1/checks/batch",
        json={
            "checks": [
                {"target": 5, "roll": {"faces": [3]}},
                {"target": 5, "roll": {"faces": [18]}},
            ]
        },
    )
    assert response.status_code == 200
    assert [r["outcome"] for r in response.json()["results"]] == ["failure", "success"]
    assert [r["summary"].split(": ")[1] for r in response.json()["results"]] == [
        "failure, spread -2 (Narrow Miss)",  # §2.4.1: each item its own line
        "success, spread +13 (Notable Success)",
    ]


def test_one_bad_item_fails_the_whole_batch_with_pointers_to_it(client: TestClient) -> None:
    response = client.post(
        "/v1/checks/batch",
        json={
            "checks": [
                {"target": 5, "seed": 1},
                {"target": 5, "quick10": True, "bullseye": True},
                {"target": 5, "dice": "2d10", "roll": {"faces": [11, 1]}},
            ]
        },
    )
    problem = assert_problem(response, 422, "quick10-with-bullseye")
    assert [e["pointer"] for e in problem["errors"]] == [
        "/checks/1/bullseye",
        "/checks/2/roll/faces/0",
    ]


@pytest.mark.parametrize("count", [0, 101])
def test_a_batch_holds_1_to_100_checks(client: TestClient, count: int) -> None:
    response = client.post("/v1/checks/batch", json={"checks": [{"target": 1}] * count})
    assert assert_problem(response, 400, "invalid-body")["errors"][0]["pointer"] == "/checks"


def test_a_schema_error_in_a_batch_points_into_the_item(client: TestClient) -> None:
    response = client.post(
        "/v1/checks/batch", json={"checks": [{"target": 1}, {"target": 1, "dice": "d7"}]}
    )
    assert assert_problem(response, 400, "invalid-body")["errors"][0]["pointer"] == "/checks/1/dice"


def test_section_3_2_6_a_healers_check_restores_the_patient(client: TestClient) -> None:
    """§3.2.6: a healer's check at spread +7 restores 7 of the patient's 12 of 40 → 19,
    still impaired (−5 at or below 20); the answer's `restoration` says so in JSON."""
    response = client.post(
        "/v1/checks",
        json={
            "target": 10,
            "roll": {"faces": [17]},
            "restoration": {"patient": {"name": "health", "current": 12, "maximum": 40}},
        },
    )
    assert response.status_code == 200, response.text
    body = response.json()
    assert (body["spread"], body["outcome"], body["depletion"]) == (7, "success", None)
    assert body["restoration"] == {
        "name": "health",
        "restored": 7,
        "after": {
            "name": "health",
            "current": 19,
            "maximum": 40,
            "impairment": -5,
            "state": "impaired",
        },
    }
    # new fields last, in the order they came; the others keep their order
    assert list(body)[-3:] == ["restoration", "odds", "receipt"]


def test_section_3_2_6_a_check_without_restoration_answers_null(client: TestClient) -> None:
    """§3.2.6: `restoration` is always sent, null when the check restores nothing."""
    body = client.post("/v1/checks", json={"target": 10, "roll": {"faces": [17]}}).json()
    assert body["restoration"] is None


def test_section_3_2_6_the_patients_own_check_in_a_batch(client: TestClient) -> None:
    """§3.2.6: each batch item may restore; the patient's own check names its depletable.
    25 of 40 (−2) + die 18 = 16 against 8, spread +8 → 33 of 40, healthy."""
    response = client.post(
        "/v1/checks/batch",
        json={
            "checks": [
                {"target": 5, "roll": {"faces": [3]}},
                {
                    "target": 8,
                    "roll": {"faces": [18]},
                    "depletable": [{"name": "health", "current": 25, "maximum": 40}],
                    "restoration": {"depletable": "health"},
                },
            ]
        },
    )
    assert response.status_code == 200, response.text
    first, second = response.json()["results"]
    assert first["restoration"] is None
    assert second["restoration"]["restored"] == 8
    assert second["restoration"]["after"]["current"] == 33
    assert second["restoration"]["after"]["state"] == "healthy"


def test_section_3_2_6_a_retired_patient_is_422(client: TestClient) -> None:
    """§3.2.5 decision on §3.2.6: a patient at 0 is out of the game: patient-retired."""
    response = client.post(
        "/v1/checks",
        json={
            "target": 10,
            "restoration": {"patient": {"name": "health", "current": 0, "maximum": 40}},
        },
    )
    problem = assert_problem(response, 422, "patient-retired")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("patient-retired", "/restoration/patient/current")
    ]


def test_section_3_2_6_restoration_refusals_are_422_together(client: TestClient) -> None:
    """§3.2.6 decisions: with a depletion block and both targets, both refusals are listed;
    in a batch the pointers are under the item."""
    response = client.post(
        "/v1/checks/batch",
        json={
            "checks": [
                {
                    "target": 10,
                    "depletable": [{"name": "health", "current": 30, "maximum": 40}],
                    "depletion": {},
                    "restoration": {
                        "depletable": "health",
                        "patient": {"name": "health", "current": 12, "maximum": 40},
                    },
                }
            ]
        },
    )
    problem = assert_problem(response, 422, "restoration-with-depletion")
    assert [(e["code"], e["pointer"]) for e in problem["errors"]] == [
        ("restoration-with-depletion", "/checks/0/restoration"),
        ("restoration-target", "/checks/0/restoration"),
    ]


def test_section_3_2_6_restoration_refuses_unknown_fields(client: TestClient) -> None:
    """§3.2.6: the restoration block is strict like every request object."""
    response = client.post(
        "/v1/checks", json={"target": 10, "restoration": {"depletable": "health", "amount": 5}}
    )
    assert_problem(response, 400, "invalid-body")


def test_section_3_2_6_new_codes_are_problem_types(client: TestClient) -> None:
    """§3.2.6: each new refusal has its problem type, served at /problems/{code}."""
    for code in ("restoration-target", "restoration-with-depletion", "patient-retired"):
        response = client.get(f"/problems/{code}")
        assert response.status_code == 200, code
        body = response.json()
        assert (body["type"], body["status"]) == (f"/problems/{code}", 422)
        assert "§3.2" in body["description"]
