"""A provably fair conflict (docs/verifiable-rolls.md, "Provably fair sessions"): created
(the commitment published), then each participant's client seed added with its own token,
played to its outcome check (§4.4) with server dice, then every roll re-derived from the
revealed seed and the history by the test's own implementation of ``hmac-sha256-v1``."""

from __future__ import annotations

from litestar.testing import TestClient

from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from tests.support.bullseye_conflicts import bearer, conflict_body
from tests.support.fair_dice import faces, seed_matches, stream_events
from tests.support.problems import assert_problem

# Each participant's seed, in the order they add them (not the order of the players).
CLIENT_SEEDS = {"ana": "ana-lucky-7", "gm": "gm_SEED", "bo": "bo-2"}


def _create(client: TestClient) -> dict:
    response = client.post("/v1/conflicts", json=conflict_body(dice_source="server"))
    assert response.status_code == 201, response.text
    return response.json()


def _add_seeds(client: TestClient, created: dict) -> None:
    """Every participant adds its own seed, each with its own token."""
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    for who, seed in CLIENT_SEEDS.items():
        token = tokens["gm"] if who == "gm" else tokens["players"][who]
        added = client.post(f"{path}/client-seeds", json={"seed": seed}, headers=bearer(token))
        assert added.status_code == 200, added.text


def test_a_fair_conflict_reveals_a_seed_that_reproduces_every_roll(
    client: TestClient, redis_url: str
) -> None:
    created = _create(client)
    path, tokens = f"/v1/conflicts/{created['id']}", created["tokens"]
    gm = bearer(tokens["gm"])
    fairness = created["fairness"]
    assert fairness["algorithm"] == "hmac-sha256-v1"
    assert fairness["client_seeds"] == []  # committed before any seed
    _add_seeds(client, created)
    fairness = client.get(path, headers=gm).json()["fairness"]
    assert fairness["commitment"] == created["fairness"]["commitment"]
    assert fairness["client_seeds"] == [
        {"participant": "ana", "seed": "ana-lucky-7"},
        {"participant": "gm", "seed": "gm_SEED"},
        {"participant": "bo", "seed": "bo-2"},
    ]
    assert (fairness["rolls"], fairness["server_seed"]) == (0, None)
    seen = [client.get(path, headers=gm).text]

    # Round 1 check by check: each submission is a rolling action of its own.
    order: list[tuple[int, str]] = []  # (round, who) for each roll number, in order
    for who, token in (
        ("ana", tokens["players"]["ana"]),
        ("bo", tokens["players"]["bo"]),
        ("gm", tokens["gm"]),
    ):
        check = {
            "participant": who,
            "qualities": [] if who == "gm" else ["Duelist" if who == "ana" else "Giant"],
        }
        answer = client.post(f"{path}/rounds/1/checks", json=check, headers=bearer(token))
        assert answer.status_code in (200, 202), answer.text
        seen.append(answer.text)
        order.append((1, who))
    view = client.get(path, headers=gm).json()
    assert view["fairness"]["rolls"] == 3

    # Then whole rounds: one action, one roll number, the GM's dice first.
    while view["status"] == "active":
        number = view["round"]
        assert number < 60
        answer = client.post(
            f"{path}/rounds",
            json={
                "gm": {},
                "players": {"ana": {"qualities": ["Duelist"]}, "bo": {"qualities": ["Giant"]}},
            },
            headers=gm,
        )
        assert answer.status_code == 200, answer.text
        seen.append(answer.text)
        order.append((number, "round"))
        view = client.get(path, headers=gm).json()
        seen.append(client.get(path, headers=gm).text)
    # Decided is not the end: the outcome check still rolls, so the seed stays secret.
    assert view["status"] == "decided"
    assert view["fairness"]["server_seed"] is None

    maker = "gm" if view["winner"] == "opposition" else "ana"
    checks = {maker: {} if maker == "gm" else {"qualities": ["Duelist"]}}
    outcome = client.post(f"{path}/outcome", json={"target": 12, "checks": checks}, headers=gm)
    assert outcome.status_code == 200, outcome.text
    final = client.get(path, headers=gm).json()
    fairness = final["fairness"]
    seed = fairness["server_seed"]
    assert isinstance(seed, str)
    assert len(seed) == 64
    assert seed == seed.lower()

    # The seed is the one committed to at creation, and nothing showed it before.
    assert seed_matches(seed, created["fairness"]["commitment"])
    assert not seed_matches("0" * 64, created["fairness"]["commitment"])
    assert not seed_matches(seed[:-1] + ("0" if seed[-1] != "0" else "1"), fairness["commitment"])
    assert all(seed not in text for text in seen)

    # Every roll, re-derived from the seed and all three client seeds in the order added:
    # roll n is the n-th rolling action.
    assert [c["seed"] for c in fairness["client_seeds"]] == list(CLIENT_SEEDS.values())
    assert fairness["seeds_closed"] is True
    rounds = {r["number"]: r for r in final["rounds"]}
    assert fairness["rolls"] == len(order) + 1
    for n, (number, who) in enumerate(order, start=1):
        played = rounds[number]
        if who == "round":
            dice = faces(fairness, n, 20, 3)
            assert [
                played["gm"]["faces"],
                played["players"]["ana"]["faces"],
                played["players"]["bo"]["faces"],
            ] == [[d] for d in dice]
        else:
            effort = played["gm"] if who == "gm" else played["players"][who]
            assert effort["faces"] == faces(fairness, n, 20, 1)
    assert final["outcome"]["faces"] == faces(fairness, len(order) + 1, 20, 1)

    # The event that ended it carries the seed too; none before it does. The stream told
    # every seed added, before any roll.
    events = stream_events(redis_url, CONFLICTS.kind.events(created["id"]))
    assert events[:3] == [
        ("client_seed.added", {"participant": who, "seed": seed})
        for who, seed in CLIENT_SEEDS.items()
    ]
    kind, data = events[-1]
    assert kind == "outcome.made"
    assert data["server_seed"] == seed
    assert all(seed not in str(data) for _, data in events[:-1])

    # Deleting it closes the stream with the seed as well.
    assert client.delete(path, headers=gm).status_code == 204
    kind, data = stream_events(redis_url, CONFLICTS.kind.events(created["id"]))[-1]
    assert (kind, data["server_seed"]) == ("conflict.closed", seed)


def test_a_deleted_fair_conflict_reveals_its_seed_in_its_closing_event(
    client: TestClient, redis_url: str
) -> None:
    created = _create(client)
    path, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
    check = {"participant": "gm"}
    assert client.post(f"{path}/rounds/1/checks", json=check, headers=gm).status_code == 202
    assert client.delete(path, headers=gm).status_code == 204
    kind, data = stream_events(redis_url, CONFLICTS.kind.events(created["id"]))[-1]
    assert kind == "conflict.closed"
    assert seed_matches(data["server_seed"], created["fairness"]["commitment"])


def test_table_dice_have_no_fairness_and_take_no_client_seeds(client: TestClient) -> None:
    created = client.post("/v1/conflicts", json=conflict_body()).json()
    assert created["fairness"] is None
    refused = client.post("/v1/conflicts", json=conflict_body(client_seeds={"ana": "x"}))
    body = assert_problem(refused, 422, "client-seeds-without-server-dice")
    assert body["errors"][0]["pointer"] == "/client_seeds"


def test_seeds_come_after_the_commitment_and_are_checked(client: TestClient) -> None:
    """The creation takes no seed (422 `client-seeds-at-creation`); a seed added later
    is 1–64 of `[A-Za-z0-9_-]` (else 400 at `/seed`)."""
    early = conflict_body(dice_source="server", client_seeds={"ana": "a"})
    body = assert_problem(client.post("/v1/conflicts", json=early), 422, "client-seeds-at-creation")
    assert body["errors"][0]["pointer"] == "/client_seeds"
    created = _create(client)
    path, ana = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["players"]["ana"])
    for bad in ("", "x" * 65, "no spaces", "ü"):
        answer = client.post(f"{path}/client-seeds", json={"seed": bad}, headers=ana)
        body = assert_problem(answer, 400, "invalid-body")
        assert body["errors"][0]["pointer"] == "/seed"
    assert client.get(path, headers=ana).json()["fairness"]["client_seeds"] == []


def test_an_idempotent_retry_rolls_nothing_again(client: TestClient) -> None:
    """A retry with the same Idempotency-Key answers what was stored: same faces, and the
    roll number it used stays the only one used."""
    created = _create(client)
    path, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
    headers = {**gm, "Idempotency-Key": "round-one-gm"}
    check = {"participant": "gm"}
    first = client.post(f"{path}/rounds/1/checks", json=check, headers=headers)
    again = client.post(f"{path}/rounds/1/checks", json=check, headers=headers)
    assert first.status_code == again.status_code == 202
    assert first.json()["check"]["faces"] == again.json()["check"]["faces"]
    assert client.get(path, headers=gm).json()["fairness"]["rolls"] == 1
