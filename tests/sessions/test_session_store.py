"""What a session costs in Redis and in a worker (docs/sessions.md): history
kept apart from the state, a ceiling on a session's stored bytes, the TTL and version in
the envelope, reads answered 304 while unchanged, and a worker's memory bounded in bytes."""

from __future__ import annotations

import random

import msgspec
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.rulesets.bullseye.rules.conflicts import Conflict
from service.sessions.keys import SessionKind
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, conflict_body, create, faces
from tests.support.problems import assert_problem


def four_players() -> dict:
    players = [
        {
            "id": f"p{n}",
            "name": f"P{n}",
            "qualities": [{"name": "Grit", "type": "core", "magnitude": 5}],
        }
        for n in range(4)
    ]
    return conflict_body(players=players)


def tied_round(client: TestClient, created: dict) -> None:
    """Every yield equal: nobody loses (§4.3), so the conflict plays on."""
    body = {"gm": faces(10), "players": {p: faces(10) for p in created["tokens"]["players"]}}
    answer = client.post(
        f"/v1/conflicts/{created['id']}/rounds", json=body, headers=bearer(created["tokens"]["gm"])
    )
    assert answer.status_code == 200, answer.text


def test_the_state_key_of_a_4_player_conflict_is_the_same_size_at_round_1_and_round_100(
    client: TestClient, redis_url: str
) -> None:
    created = client.post("/v1/conflicts", json=four_players()).json()
    store = redis.Redis.from_url(redis_url)
    key = CONFLICTS.kind.state(created["id"])
    tied_round(client, created)
    at_round_1 = store.memory_usage(key, samples=0)
    for _ in range(99):
        tied_round(client, created)
    at_round_100 = store.memory_usage(key, samples=0)
    assert abs(at_round_100 - at_round_1) < 0.10 * at_round_1, (at_round_1, at_round_100)
    assert store.llen(CONFLICTS.kind.history(created["id"])) == 100
    read = client.get(f"/v1/conflicts/{created['id']}", headers=bearer(created["tokens"]["gm"]))
    assert [r["number"] for r in read.json()["rounds"]] == list(range(1, 101))


def test_version_and_ttl_live_in_the_envelope_not_in_the_conflict(
    client: TestClient, redis_url: str
) -> None:
    created = create(client, ttl_seconds=600)
    stored = redis.Redis.from_url(redis_url).hgetall(CONFLICTS.kind.state(created["id"]))
    assert (stored[b"v"], stored[b"t"]) == (b"1", b"600000")
    state = msgspec.msgpack.decode(stored[b"s"])
    assert not {"version", "ttl_seconds", "expires_at", "rounds"} & set(state)
    assert msgspec.msgpack.decode(stored[b"s"], type=Conflict).id == created["id"]


def test_a_session_past_its_byte_ceiling_is_refused_whole_and_left_as_it_was(
    redis_url: str,
) -> None:
    settings = Settings(redis_url=redis_url, log_format="json", session_max_bytes=65536)
    with TestClient(create_app(settings, rng=random.Random(1))) as client:
        created = client.post("/v1/conflicts", json=four_players()).json()
        path, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
        body = {"gm": faces(10), "players": {p: faces(10) for p in created["tokens"]["players"]}}
        for number in range(1, 101):  # noqa: B007 - the round that was refused
            answer = client.post(f"{path}/rounds", json=body, headers=gm)
            if answer.status_code != 200:
                break
        problem = assert_problem(answer, 409, "session-full")
        assert "65536" in problem["detail"]
        assert "retry-after" not in answer.headers  # no retry cures it
        assert 1 < number < 100
        read = client.get(path, headers=gm)
        assert read.headers["etag"] == f'"{number}"'  # the refused round changed nothing
        assert len(read.json()["rounds"]) == number - 1
        assert read.json()["round"] == number


def test_an_unchanged_conflict_answers_304_to_if_none_match(client: TestClient) -> None:
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
    first = client.get(path, headers=gm)
    etag = first.headers["etag"]
    unchanged = client.get(path, headers={**gm, "If-None-Match": etag})
    assert (unchanged.status_code, unchanged.content) == (304, b"")
    assert unchanged.headers["etag"] == etag
    tied_round(client, created)
    changed = client.get(path, headers={**gm, "If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.headers["etag"] != etag


def test_if_none_match_tells_a_stranger_nothing(client: TestClient) -> None:
    created = create(client)
    path = f"/v1/conflicts/{created['id']}"
    answer = client.get(path, headers={"If-None-Match": '"1"'})
    assert_problem(answer, 401, "unauthorized")


def test_a_workers_memory_of_sessions_is_bounded_in_bytes(redis_url: str) -> None:
    settings = Settings(
        redis_url=redis_url, log_format="json", recent_sessions=1000, recent_session_bytes=20_000
    )
    with TestClient(create_app(settings, rng=random.Random(2))) as client:
        store = client.app.state.sessions.engine(CONFLICTS).store
        conflicts = [create(client) for _ in range(40)]
        for created in conflicts:
            tied_round(client, created)
            client.get(f"/v1/conflicts/{created['id']}", headers=bearer(created["tokens"]["gm"]))
        assert 0 < store.remembered_bytes <= 20_000
        assert store.recent(conflicts[-1]["id"]) is not None  # the latest stays
        assert store.recent(conflicts[0]["id"]) is None  # the oldest went first


def test_a_read_is_encoded_once_per_version_and_never_answers_a_changed_conflict_stale(
    client: TestClient, redis_url: str
) -> None:
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
    store = client.app.state.sessions.engine(CONFLICTS).store
    first = client.get(path, headers=gm)
    assert store.recent(created["id"]).rendered["view"] == first.content  # kept with the copy
    again = client.get(path, headers=gm)
    assert (again.content, again.headers["content-type"]) == (first.content, "application/json")
    # Another worker plays a round: this worker's copy, and the view kept with it, are stale.
    settings = Settings(redis_url=redis_url, log_format="json")
    with TestClient(create_app(settings, rng=random.Random(3))) as other:
        tied_round(other, created)
    changed = client.get(path, headers=gm)
    assert changed.headers["etag"] == '"2"'
    assert [r["number"] for r in changed.json()["rounds"]] == [1]
    assert changed.json()["version"] == 2


def test_a_writes_keys_are_the_keys_each_method_names() -> None:
    """``write_keys`` makes the state's key once for speed: the keys must stay the ones
    every other reader and script names, with or without a pending marker."""
    kind = SessionKind("bullseye", "conflict")
    for pending in (None, "f" * 64):
        assert kind.write_keys("s-1", pending) == [
            kind.state("s-1"),
            kind.events("s-1"),
            kind.history("s-1"),
            kind.state("s-1") if pending is None else kind.pending("s-1", pending),
            kind.answers("s-1"),
            kind.answer_order("s-1"),
        ]
