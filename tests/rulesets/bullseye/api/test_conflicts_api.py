"""Expanded conflicts over HTTP, through the real app and a real Redis (§4.2–§4.4)."""

from __future__ import annotations

import time

import pytest
import redis
from litestar.testing import TestClient

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from tests.support.bullseye_conflicts import (
    DUELIST,
    bearer,
    conflict_body,
    create,
    faces,
)
from tests.support.problems import assert_problem


def test_create_answers_201_with_location_etag_scores_and_tokens_once(client: TestClient) -> None:
    """§4.2: 7 + 4 + 8 + 3 = 22 for the players, 22 × 2 PCs = 44 for the opposition."""
    response = client.post("/v1/conflicts", json=conflict_body())
    assert response.status_code == 201
    body = response.json()
    assert response.headers["location"] == f"/v1/conflicts/{body['id']}"
    assert response.headers["etag"] == '"1"'
    assert body["scores"] == {"players": 22, "opposition": 44}
    assert (body["status"], body["round"], body["waiting_for"]) == (
        "active",
        1,
        ["gm", "ana", "bo"],
    )
    tokens = body["tokens"]
    assert set(tokens["players"]) == {"ana", "bo"}
    assert len({tokens["gm"], *tokens["players"].values()}) == 3
    assert all(len(token) >= 22 for token in [tokens["gm"], *tokens["players"].values()])
    read = client.get(f"/v1/conflicts/{body['id']}", headers=bearer(tokens["gm"]))
    assert read.status_code == 200
    assert "tokens" not in read.json()
    assert read.headers["etag"] == '"1"'


def test_tokens_are_stored_only_as_hashes(client: TestClient, redis_url: str) -> None:
    created = create(client)
    raw = redis.Redis.from_url(redis_url).hgetall(CONFLICTS.kind.state(created["id"]))
    stored = b"".join(raw.values())
    for token in [created["tokens"]["gm"], *created["tokens"]["players"].values()]:
        assert token.encode() not in stored


def test_who_may_read(client: TestClient) -> None:
    created, other = create(client), create(client)
    path = f"/v1/conflicts/{created['id']}"
    for token in [created["tokens"]["gm"], *created["tokens"]["players"].values()]:
        assert client.get(path, headers=bearer(token)).status_code == 200
    assert (
        client.get(path, headers={"X-Conflict-Token": created["tokens"]["gm"]}).status_code == 200
    )
    missing = client.get(path)
    assert_problem(missing, 401, "unauthorized")
    assert missing.headers["www-authenticate"] == "Bearer"
    assert_problem(client.get(path, headers=bearer("not-a-token")), 401, "unauthorized")
    assert_problem(client.get(path, headers=bearer(other["tokens"]["gm"])), 401, "unauthorized")
    assert_problem(client.get("/v1/conflicts/unknown", headers=bearer("x")), 404, "not-found")


def test_a_round_submitted_check_by_check(client: TestClient) -> None:
    """§4.3: 202 while the round waits; the last check resolves it (200) simultaneously."""
    created = create(client)
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    ana, bo, gm = tokens["players"]["ana"], tokens["players"]["bo"], tokens["gm"]
    first = client.post(
        f"{path}/rounds/1/checks",
        json={"participant": "ana", **faces(15), "qualities": [DUELIST]},
        headers=bearer(ana),
    )
    assert first.status_code == 202
    answer = first.json()
    assert (answer["check"]["faces"], answer["check"]["yield"]) == ([15], 22)  # her own roll
    assert {k: v for k, v in answer.items() if k != "check"} == {
        "kind": "submission",
        "round": 1,
        "participant": "ana",
        "may_spend_bullseye": False,
        "waiting_for": ["gm", "bo"],
        "deciding": [],
        # §4.3: her yield alone; nothing is judged until the round resolves.
        "summary": "Round 1: ana d20 15 +7 = yield 22 (Good); waiting for gm, bo",
        "receipt": None,  # the conflict asked for no receipts (and the table rolled)
    }
    assert_problem(
        client.post(
            f"{path}/rounds/1/checks", json={"participant": "bo", **faces(1)}, headers=bearer(ana)
        ),
        403,
        "forbidden",
    )
    assert_problem(
        client.post(
            f"{path}/rounds/1/checks", json={"participant": "ana", **faces(1)}, headers=bearer(ana)
        ),
        409,
        "already-submitted",
    )
    assert_problem(
        client.post(
            f"{path}/rounds/2/checks", json={"participant": "bo", **faces(1)}, headers=bearer(bo)
        ),
        409,
        "wrong-round",
    )
    view = client.get(path, headers=bearer(bo)).json()
    assert (view["submitted"], view["waiting_for"]) == (["ana"], ["gm", "bo"])
    assert (
        client.post(
            f"{path}/rounds/1/checks", json={"participant": "bo", **faces(5)}, headers=bearer(bo)
        ).status_code
        == 202
    )
    last = client.post(
        f"{path}/rounds/1/checks", json={"participant": "gm", **faces(12)}, headers=bearer(gm)
    )
    assert last.status_code == 200
    round_ = last.json()
    # GM 12 vs Ana 15 + 7 = 22: Ana wins by 10, +5 threat → opposition −15.
    # GM 12 vs Bo 5: GM wins by 7 (Bo's spread −7), +3 threat, −2 protection → players −8.
    assert [(p["player"], p["loser"], p["spread"], p["amount"]) for p in round_["pairings"]] == [
        ("ana", "opposition", 10, 15),
        ("bo", "players", -7, 8),
    ]
    assert round_["scores_before"] == {"players": 22, "opposition": 44}
    assert round_["scores_after"] == {"players": 14, "opposition": 29}
    assert round_["summary"] == (
        "Round 1: GM yield 12; ana 22 (opposition loses 15), bo 5 (players lose 8); "
        "scores players 14, opposition 29"
    )
    assert client.get(path, headers=bearer(gm)).json()["round"] == 2


def test_the_gm_resolves_a_whole_round_and_players_cannot(client: TestClient) -> None:
    created = create(client)
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    assert_problem(
        client.post(f"{path}/rounds", json=body, headers=bearer(tokens["players"]["ana"])),
        403,
        "forbidden",
    )
    missing = client.post(
        f"{path}/rounds",
        json={"gm": faces(1), "players": {"ana": faces(1)}},
        headers=bearer(tokens["gm"]),
    )
    assert_problem(missing, 422, "player-check-missing")
    resolved = client.post(f"{path}/rounds", json=body, headers=bearer(tokens["gm"]))
    assert resolved.status_code == 200
    assert resolved.headers["etag"] == '"2"'
    assert [p["loser"] for p in resolved.json()["pairings"]] == ["none", "none"]


def test_server_dice_refuse_supplied_faces_and_seeds(client: TestClient) -> None:
    created = create(client, dice_source="server")
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    refused = client.post(
        f"{path}/rounds",
        json={"gm": faces(20), "players": {"ana": {"seed": 3}, "bo": {}}},
        headers=bearer(gm),
    )
    problem = assert_problem(refused, 422, "faces-not-allowed")
    assert [e["pointer"] for e in problem["errors"]] == ["/gm/roll", "/players/ana/seed"]
    rolled = client.post(
        f"{path}/rounds", json={"gm": {}, "players": {"ana": {}, "bo": {}}}, headers=bearer(gm)
    )
    assert rolled.status_code == 200
    assert 1 <= rolled.json()["gm"]["die_result"] <= 20


def test_an_idempotent_retry_returns_the_first_response_without_rerolling(
    client: TestClient,
) -> None:
    created = create(client, dice_source="server")
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    body = {"gm": {}, "players": {"ana": {}, "bo": {}}}
    headers = {**bearer(gm), "Idempotency-Key": "round-1-attempt"}
    first = client.post(f"{path}/rounds", json=body, headers=headers)
    again = client.post(f"{path}/rounds", json=body, headers=headers)
    assert first.status_code == again.status_code == 200
    assert again.content == first.content
    assert again.headers["etag"] == first.headers["etag"]
    state = client.get(path, headers=bearer(gm)).json()
    assert (state["version"], len(state["rounds"])) == (2, 1)
    other_body = client.post(
        f"{path}/rounds", json={**body, "gm": {"strict": True}}, headers=headers
    )
    assert_problem(other_body, 422, "idempotency-key-reused")


def test_an_idempotent_refusal_is_kept_too(client: TestClient) -> None:
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    headers = {**bearer(gm), "Idempotency-Key": "oops"}
    body = {"gm": faces(1), "players": {"ana": faces(1)}}
    first = client.post(f"{path}/rounds", json=body, headers=headers)
    assert_problem(first, 422, "player-check-missing")
    assert client.post(f"{path}/rounds", json=body, headers=headers).content == first.content


def test_if_match_guards_against_stale_writes(client: TestClient) -> None:
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    assert (
        client.post(
            f"{path}/rounds", json=body, headers={**bearer(gm), "If-Match": '"1"'}
        ).status_code
        == 200
    )
    stale = client.post(f"{path}/rounds", json=body, headers={**bearer(gm), "If-Match": '"1"'})
    assert_problem(stale, 412, "precondition-failed")
    assert client.get(path, headers=bearer(gm)).json()["version"] == 2


def play_until_decided(client: TestClient, path: str, gm: str) -> dict:
    """GM rolls 20, players 1: the players lose 19 + 3 − protection each round."""
    for _ in range(5):
        body = {"gm": faces(20), "players": {"ana": faces(1), "bo": faces(1)}}
        round_ = client.post(f"{path}/rounds", json=body, headers=bearer(gm)).json()
        if round_["decided"]:
            return round_
    raise AssertionError("never decided")


def test_a_decided_conflict_takes_no_round_and_makes_one_outcome_check(client: TestClient) -> None:
    """§4.3 decision; §4.4: the winners' remaining score is a bonus on their final check."""
    created = create(client, depletable_at_issue="health")
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    gm = tokens["gm"]
    assert_problem(
        client.post(
            f"{path}/outcome", json={"target": 10, "checks": {"gm": faces(5)}}, headers=bearer(gm)
        ),
        409,
        "conflict-not-decided",
    )
    decided = play_until_decided(client, path, gm)
    # Round 1: Ana loses 19 + 3 = 22, Bo 19 + 3 − 2 = 20: players 22 − 42 = −20.
    assert decided["scores_after"] == {"players": -20, "opposition": 44}
    assert decided["winner"] == "opposition"
    body = {"gm": faces(1), "players": {"ana": faces(1), "bo": faces(1)}}
    assert_problem(
        client.post(f"{path}/rounds", json=body, headers=bearer(gm)), 409, "conflict-not-active"
    )
    assert_problem(
        client.post(
            f"{path}/outcome", json={"target": 10, "checks": {"ana": faces(5)}}, headers=bearer(gm)
        ),
        422,
        "not-on-winning-side",
    )
    assert_problem(
        client.post(
            f"{path}/outcome",
            json={"target": 10, "checks": {"gm": faces(5)}},
            headers=bearer(tokens["players"]["ana"]),
        ),
        403,
        "forbidden",
    )
    outcome = client.post(
        f"{path}/outcome", json={"target": 60, "checks": {"gm": faces(5)}}, headers=bearer(gm)
    )
    assert outcome.status_code == 200
    result = outcome.json()
    assert [(m["source"], m["applied"]) for m in result["modifiers"]] == [("conflict_score", 44)]
    assert (result["yield"], result["spread"], result["outcome"]) == (49, -11, "failure")
    # §4.4: the GM failed; the opposition loses once, to Ana's threat +5 (the greatest).
    assert result["by"] == "gm"
    assert result["depletion"] is None
    assert result["losses"] == [{"side": "opposition", "player": None, "amount": 16}]
    assert_problem(
        client.post(
            f"{path}/outcome", json={"target": 10, "checks": {"gm": faces(5)}}, headers=bearer(gm)
        ),
        409,
        "outcome-already-made",
    )


def test_only_the_gm_deletes(client: TestClient) -> None:
    created = create(client)
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    assert_problem(client.delete(path, headers=bearer(tokens["players"]["bo"])), 403, "forbidden")
    assert client.delete(path, headers=bearer(tokens["gm"])).status_code == 204
    assert_problem(client.get(path, headers=bearer(tokens["gm"])), 404, "not-found")


def test_an_expired_conflict_is_404(client: TestClient, redis_url: str) -> None:
    created = create(client, ttl_seconds=60)
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    store = redis.Redis.from_url(redis_url)
    key = CONFLICTS.kind.state(created["id"])
    assert 59_000 < store.pttl(key) <= 60_000
    store.pexpire(key, 50)  # let the clock run: Redis expires it as it would after 60 s
    time.sleep(0.2)
    assert_problem(client.get(path, headers=bearer(gm)), 404, "not-found")


def test_every_write_sets_the_ttl_again(client: TestClient, redis_url: str) -> None:
    created = create(client, ttl_seconds=600)
    path, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    store = redis.Redis.from_url(redis_url)
    key, events = CONFLICTS.kind.state(created["id"]), CONFLICTS.kind.events(created["id"])
    store.pexpire(key, 5_000)
    body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    assert client.post(f"{path}/rounds", json=body, headers=bearer(gm)).status_code == 200
    assert store.pttl(key) > 590_000
    assert store.pttl(events) > 590_000


@pytest.mark.parametrize("ttl", [59, 604801])
def test_ttl_bounds(client: TestClient, ttl: int) -> None:
    response = client.post("/v1/conflicts", json=conflict_body(ttl_seconds=ttl))
    assert assert_problem(response, 400, "invalid-body")["errors"][0]["pointer"] == "/ttl_seconds"


def test_creation_refuses_an_incapacitated_pc(client: TestClient) -> None:
    """§3.2.4: 10 of 42 is incapacitated and cannot take part."""
    body = conflict_body()
    body["players"][1]["depletable"] = {"name": "health", "current": 10, "maximum": 42}
    problem = assert_problem(
        client.post("/v1/conflicts", json=body), 422, "character-incapacitated"
    )
    assert problem["errors"][0]["pointer"] == "/players/1/depletable/current"


def test_x_conflict_token_wins_over_authorization(client: TestClient) -> None:
    """Authorization may carry another credential; the conflict token header decides."""
    created = create(client)
    path = f"/v1/conflicts/{created['id']}"
    both = {"X-Conflict-Token": created["tokens"]["gm"], "Authorization": "Bearer something-else"}
    assert client.get(path, headers=both).status_code == 200
    wrong = {"X-Conflict-Token": "nope", "Authorization": f"Bearer {created['tokens']['gm']}"}
    assert_problem(client.get(path, headers=wrong), 401, "unauthorized")


def test_without_any_token_even_an_unknown_conflict_is_a_401(client: TestClient) -> None:
    """No credentials, no hint of which conflicts exist; with a token, unknown is 404."""
    for method, suffix in (("get", ""), ("delete", ""), ("post", "/events/tickets")):
        response = client.request(method.upper(), f"/v1/conflicts/no-such{suffix}")
        assert_problem(response, 401, "unauthorized")
    assert_problem(client.get("/v1/conflicts/no-such", headers=bearer("t")), 404, "not-found")
