"""`GET /v1/conflicts/{id}/forecast` through the real app and a real Redis (§4.3, §4.4)."""

from __future__ import annotations

from fractions import Fraction

from litestar.testing import TestClient

from tests.support.bullseye_conflicts import bearer, create, faces
from tests.support.problems import assert_problem


def forecast_of(client: TestClient, conflict_id: str, token: str):
    return client.get(f"/v1/conflicts/{conflict_id}/forecast", headers=bearer(token))


def test_any_token_of_the_conflict_reads_the_forecast(client: TestClient) -> None:
    created, other = create(client), create(client)
    path = f"/v1/conflicts/{created['id']}/forecast"
    for token in [created["tokens"]["gm"], *created["tokens"]["players"].values()]:
        response = client.get(path, headers=bearer(token))
        assert response.status_code == 200
        assert response.headers["etag"] == '"1"'
    assert (
        client.get(path, headers={"X-Conflict-Token": created["tokens"]["gm"]}).status_code == 200
    )
    assert_problem(client.get(path), 401, "unauthorized")
    assert_problem(client.get(path, headers=bearer(other["tokens"]["gm"])), 401, "unauthorized")
    assert_problem(
        client.get("/v1/conflicts/unknown/forecast", headers=bearer("x")), 404, "not-found"
    )


def test_the_answer_s_shape(client: TestClient) -> None:
    """§4.2's two PCs (22 against 44): every pairing's chances are {p, exact} and add up to
    one; the whole conflict says how it was found."""
    created = create(client)
    body = forecast_of(client, created["id"], created["tokens"]["players"]["ana"]).json()
    assert set(body) == {
        "conflict",
        "version",
        "status",
        "round",
        "scores",
        "participants",
        "pairings",
        "this_round",
        "winner",
    }
    assert (body["conflict"], body["version"], body["round"]) == (created["id"], 1, 1)
    assert body["scores"] == {"players": 22, "opposition": 44}
    assert [(p["participant"], p["basis"], p["total_modifier"]) for p in body["participants"]] == [
        ("gm", "declared", 0),
        ("ana", "declared", 11),
        ("bo", "declared", 11),
    ]
    for pairing in body["pairings"]:
        parts = [pairing[k] for k in ("player_wins", "gm_wins", "stalemate")]
        assert all(set(part) == {"p", "exact"} for part in parts)
        assert sum(Fraction(part["exact"]) for part in parts) == 1
        assert sum(Fraction(loss["exact"]) for loss in pairing["losses"]) == 1
    this_round = body["this_round"]
    assert this_round["number"] == 1
    assert sum(Fraction(s["exact"]) for s in this_round["scores_after"]) == 1
    winner = body["winner"]
    assert winner["method"] in {"exact", "simulation"}
    if winner["method"] == "simulation":
        for side in ("players", "opposition"):
            assert set(winner[side]) == {"p", "low", "high", "runs"}
            assert winner[side]["low"] <= winner[side]["p"] <= winner[side]["high"]
        assert winner["reason"] in {"round-too-large", "too-many-states", "fraction-too-long"}


def test_a_submitted_roll_is_a_known_yield_to_whoever_submitted_it(client: TestClient) -> None:
    """The GM checks with a 12 (the bandits declare no quality): to the GM, Ana's pairing
    is a check against 12 — she wins on 2–20 (19/20, d20 + 11), ties on a 1 (1/20). To Ana
    the GM's roll stays hidden."""
    created = create(client)
    cid, tokens = created["id"], created["tokens"]
    submitted = client.post(
        f"/v1/conflicts/{cid}/rounds/1/checks",
        json={"participant": "gm", **faces(12)},
        headers=bearer(tokens["gm"]),
    )
    assert submitted.status_code == 202
    gm_view = forecast_of(client, cid, tokens["gm"])
    assert gm_view.headers["etag"] == '"2"'
    body = gm_view.json()
    gm = body["participants"][0]
    assert (gm["basis"], gm["yield"], gm["may_spend_bullseye"]) == ("submitted", 12, False)
    ana = body["pairings"][0]
    assert ana["player"] == "ana"
    assert (ana["player_wins"]["exact"], ana["stalemate"]["exact"], ana["gm_wins"]["exact"]) == (
        "19/20",
        "1/20",
        "0/1",
    )
    hidden = forecast_of(client, cid, tokens["players"]["ana"]).json()
    assert (hidden["participants"][0]["basis"], hidden["participants"][0]["yield"]) == (
        "hidden",
        None,
    )
    assert hidden["pairings"][0]["player_wins"]["exact"] != "19/20"


def test_a_decided_conflict_answers_its_settled_winner(client: TestClient) -> None:
    """GM 20 against two 1s: the players lose 22 + 20 of their 22 (§4.3), the opposition
    has won; the forecast says so with certainty, and no round is in progress."""
    created = create(client)
    cid, gm = created["id"], created["tokens"]["gm"]
    body = {"gm": faces(20), "players": {"ana": faces(1), "bo": faces(1)}}
    assert client.post(f"/v1/conflicts/{cid}/rounds", json=body, headers=bearer(gm)).json()[
        "winner"
    ] == ("opposition")
    answer = forecast_of(client, cid, created["tokens"]["players"]["bo"]).json()
    assert (answer["status"], answer["this_round"], answer["pairings"]) == ("decided", None, [])
    winner = answer["winner"]
    assert winner["method"] == "exact"
    assert (winner["opposition"], winner["players"]) == (
        {"p": 1.0, "exact": "1/1"},
        {"p": 0.0, "exact": "0/1"},
    )


def test_an_unchanged_conflict_answers_304_to_its_etag(client: TestClient) -> None:
    created = create(client)
    path = f"/v1/conflicts/{created['id']}/forecast"
    headers = {**bearer(created["tokens"]["gm"]), "If-None-Match": '"1"'}
    unchanged = client.get(path, headers=headers)
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    first = client.get(path, headers=bearer(created["tokens"]["gm"]))
    again = client.get(path, headers=bearer(created["tokens"]["gm"]))
    assert first.content == again.content  # the simulation's seed is the conflict's own


def test_the_forecast_is_computed_off_the_loop_once_per_version_and_rolls_seen(
    client: TestClient,
) -> None:
    """An active conflict's forecast is estimated past the inline budget, so the worker's
    odds pool computes it; every reader who has seen no roll shares that answer (the
    gate's cache), and a new version is computed anew."""
    created = create(client)
    tokens = created["tokens"]
    first = forecast_of(client, created["id"], tokens["players"]["ana"])
    assert first.status_code == 200
    assert first.headers["server-timing"].startswith('odds;desc="pool"')
    for token in (tokens["gm"], tokens["players"]["bo"]):
        again = forecast_of(client, created["id"], token)
        assert again.headers["server-timing"].startswith('odds;desc="cache"')
        assert again.content == first.content
