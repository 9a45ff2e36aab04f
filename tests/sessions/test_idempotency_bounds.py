"""Idempotency answers are counted in their session's bytes and bounded per participant
(security review: one player token sent 300 refused requests with distinct keys and left
302 records, ~252 KB with 7-day TTLs, outside the session's byte cap, which counted 218
bytes). Real Redis, read directly to see what is stored."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, create, faces
from tests.support.problems import assert_problem

KEPT = 4


@pytest.fixture
def keeping4(redis_url: str) -> Iterator[TestClient]:
    settings = Settings(redis_url=redis_url, idempotency_keys_kept=KEPT, log_format="json")
    with TestClient(create_app(settings, rng=random.Random(4))) as client:
        yield client


def _wrong_round(
    client: TestClient, created: dict, token: str, key: str, participant: str = "ana"
) -> int:
    body = {"participant": participant, **faces(9)}
    path = f"/v1/conflicts/{created['id']}/rounds/2/checks"
    headers = {**bearer(token), "Idempotency-Key": key}
    return client.post(path, json=body, headers=headers).status_code


def test_refusals_with_fresh_keys_keep_at_most_the_limit_and_count_in_the_session(
    keeping4: TestClient, redis_url: str
) -> None:
    created = create(keeping4)
    ana = created["tokens"]["players"]["ana"]
    statuses = {_wrong_round(keeping4, created, ana, f"k-{n}") for n in range(60)}
    assert statuses == {409}
    store = redis.Redis.from_url(redis_url)
    try:
        kind, cid = CONFLICTS.kind, created["id"]
        answers = store.hgetall(kind.answers(cid))
        kept = {f: v for f, v in answers.items() if not f.startswith(b"#")}
        keys = set(store.scan_iter(f"{kind.state(cid)}*"))
        counted = int(store.hget(kind.state(cid), "n"))
        tokens = len(store.hget(kind.state(cid), "a"))
        ttls = [store.pttl(key) for key in keys]
        session_ttl = store.pttl(kind.state(cid))
    finally:
        store.close()
    assert len(kept) == KEPT
    assert counted == tokens + sum(len(answer) for answer in kept.values())
    # Nothing else outlives the session or sits outside its count: its envelope, its
    # events (a conflict's creation writes none here), the answers and their order.
    assert {key.decode().removeprefix(kind.state(cid)) for key in keys} <= {
        "",
        ":events",
        ":answers",
        ":answers:order",
    }
    assert max(ttls) <= session_ttl + 1000


def test_the_last_keys_still_replay_and_the_oldest_is_asked_anew(
    keeping4: TestClient,
) -> None:
    created = create(keeping4)
    ana = created["tokens"]["players"]["ana"]
    for n in range(KEPT + 1):
        assert _wrong_round(keeping4, created, ana, f"r-{n}") == 409
    path = f"/v1/conflicts/{created['id']}/rounds/1/checks"
    # The first key's answer was dropped: the same request is now a new one (and the rules
    # now accept it); the last KEPT still replay their refusals.
    replays = {_wrong_round(keeping4, created, ana, f"r-{n}") for n in range(1, KEPT + 1)}
    assert replays == {409}
    fresh = keeping4.post(
        path,
        json={"participant": "ana", **faces(9)},
        headers={**bearer(ana), "Idempotency-Key": "r-0"},
    )
    assert fresh.status_code == 202


def test_one_participants_keys_never_drop_anothers_answers(
    keeping4: TestClient, redis_url: str
) -> None:
    created = create(keeping4)
    ana, bo = (created["tokens"]["players"][p] for p in ("ana", "bo"))
    assert _wrong_round(keeping4, created, bo, "bo-1", "bo") == 409
    for n in range(3 * KEPT):
        _wrong_round(keeping4, created, ana, f"ana-{n}")
    store = redis.Redis.from_url(redis_url)
    try:
        order = [
            e.decode() for e in store.lrange(CONFLICTS.kind.answer_order(created["id"]), 0, -1)
        ]
    finally:
        store.close()
    assert len(order) == KEPT + 1
    body = {"participant": "bo", **faces(9)}
    again = keeping4.post(
        f"/v1/conflicts/{created['id']}/rounds/2/checks",
        json=body,
        headers={**bearer(bo), "Idempotency-Key": "bo-1"},
    )
    assert_problem(again, 409, "wrong-round")  # bo's answer, replayed


def test_a_deleted_session_keeps_no_answers(keeping4: TestClient, redis_url: str) -> None:
    created = create(keeping4)
    gm = created["tokens"]["gm"]
    assert _wrong_round(keeping4, created, gm, "gone") == 409
    path = f"/v1/conflicts/{created['id']}"
    assert keeping4.delete(path, headers=bearer(gm)).status_code == 204
    store = redis.Redis.from_url(redis_url)
    try:
        kind = CONFLICTS.kind
        left = store.exists(kind.answers(created["id"]), kind.answer_order(created["id"]))
    finally:
        store.close()
    assert left == 0


def test_an_answer_kept_by_the_previous_release_still_replays(
    keeping4: TestClient, redis_url: str
) -> None:
    """A release before 2026-12 kept an answer under ``…:idem:<sha256(key)>``: a retry that
    spans the upgrade still gets it, not a second application."""
    created = create(keeping4)
    gm = created["tokens"]["gm"]
    path = f"/v1/conflicts/{created['id']}/rounds"
    tied = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    headers = {**bearer(gm), "Idempotency-Key": "spans-the-upgrade"}
    first = keeping4.post(path, json=tied, headers=headers)
    assert first.status_code == 200
    store = redis.Redis.from_url(redis_url)
    try:  # where the previous release kept it, and nowhere else
        kind, cid = CONFLICTS.kind, created["id"]
        fields = [f for f in store.hkeys(kind.answers(cid)) if not f.startswith(b"#")]
        (field,) = fields
        store.set(kind.idempotency(cid, "spans-the-upgrade"), store.hget(kind.answers(cid), field))
        store.hdel(kind.answers(cid), field)
    finally:
        store.close()
    again = keeping4.post(path, json=tied, headers=headers)
    assert again.status_code == 200
    assert again.content == first.content
    rounds = keeping4.get(f"/v1/conflicts/{created['id']}", headers=bearer(gm)).json()["rounds"]
    assert len(rounds) == 1
