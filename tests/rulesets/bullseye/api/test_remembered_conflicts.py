"""A worker remembers the conflicts it last saw, so that a write needs one Redis round trip.

Two app instances over one real Redis stand for two replicas: each acts on a copy the
other has since changed, and nothing is refused, lost or applied twice because of it.
"""

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


@pytest.fixture
def other(settings: Settings) -> Iterator[TestClient]:
    """A second replica of the service, with a memory of its own."""
    with TestClient(create_app(settings, rng=random.Random(8))) as test_client:
        yield test_client


def tied_round(client: TestClient, created: dict, number: int) -> None:
    """A round in which every yield ties, so the conflict goes on (§4.3: nobody loses)."""
    gm = bearer(created["tokens"]["gm"])
    body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    response = client.post(f"/v1/conflicts/{created['id']}/rounds", json=body, headers=gm)
    assert response.status_code == 200, response.text
    assert response.json()["number"] == number


def test_a_replica_behind_the_other_still_resolves_the_current_round(
    client: TestClient, other: TestClient
) -> None:
    """Its copy says round 2 is next when it is round 3: the write is retried on the stored
    state, not refused as the wrong round."""
    created = create(client)
    tied_round(client, created, 1)
    other.get(f"/v1/conflicts/{created['id']}", headers=bearer(created["tokens"]["gm"]))
    tied_round(other, created, 2)  # other now remembers round 3 as current
    tied_round(client, created, 3)  # client's copy is from before round 2
    tied_round(other, created, 4)
    read = client.get(f"/v1/conflicts/{created['id']}", headers=bearer(created["tokens"]["gm"]))
    assert read.headers["etag"] == '"5"'
    assert [r["number"] for r in read.json()["rounds"]] == [1, 2, 3, 4]


def test_a_submission_refused_on_a_stale_copy_is_decided_again_on_the_stored_state(
    client: TestClient, other: TestClient
) -> None:
    """Round 1 was resolved elsewhere: a player's check for round 2 is accepted (202), where
    the stale copy alone would have answered 409 wrong-round."""
    created = create(client)
    ana = bearer(created["tokens"]["players"]["ana"])
    tied_round(other, created, 1)
    response = client.post(
        f"/v1/conflicts/{created['id']}/rounds/2/checks",
        json={"participant": "ana", **faces(12)},
        headers=ana,
    )
    assert response.status_code == 202, response.text
    assert response.json()["waiting_for"] == ["gm", "bo"]


def test_if_match_is_judged_against_the_stored_version(
    client: TestClient, other: TestClient
) -> None:
    created = create(client)
    tied_round(other, created, 1)
    gm = bearer(created["tokens"]["gm"])
    body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    url = f"/v1/conflicts/{created['id']}/rounds"
    current = client.post(url, json=body, headers={**gm, "If-Match": '"2"'})  # copy: "1"
    assert current.status_code == 200, current.text
    assert current.headers["etag"] == '"3"'
    tied_round(other, created, 3)
    stale = client.post(url, json=body, headers={**gm, "If-Match": '"3"'})  # stored: "4"
    assert stale.status_code == 412


def test_a_conflict_deleted_elsewhere_is_404_not_resurrected(
    client: TestClient, other: TestClient, redis_url: str
) -> None:
    created = create(client)
    gm = bearer(created["tokens"]["gm"])
    assert other.delete(f"/v1/conflicts/{created['id']}", headers=gm).status_code == 204
    body = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}
    response = client.post(f"/v1/conflicts/{created['id']}/rounds", json=body, headers=gm)
    assert response.status_code == 404
    stored = redis.Redis.from_url(redis_url).hgetall(CONFLICTS.kind.state(created["id"]))
    assert set(stored) == {b"a"}  # only the token hashes, kept for event-stream readers


@pytest.mark.parametrize(
    ("recent_sessions", "calls"),
    [(2048, 1), (0, 2)],
    ids=["remembered: the write is the only command", "no memory: read, then write"],
)
def test_what_a_round_sends_to_redis(redis_url: str, recent_sessions: int, calls: int) -> None:
    settings = Settings(redis_url=redis_url, log_format="json", recent_sessions=recent_sessions)
    with TestClient(create_app(settings, rng=random.Random(7))) as client:
        created = create(client)
        tied_round(client, created, 1)  # warm: the script is loaded, any copy remembered
        stats = redis.Redis.from_url(redis_url)
        before = _calls(stats)
        tied_round(client, created, 2)
        after = _calls(stats)
    assert after.get("evalsha", 0) - before.get("evalsha", 0) == calls  # read script, write


def _calls(client: redis.Redis) -> dict[str, int]:
    stats = client.info("commandstats")
    return {name.removeprefix("cmdstat_"): int(row["calls"]) for name, row in stats.items()}


def test_a_read_reuses_the_copy_while_it_is_current(
    client: TestClient, other: TestClient, redis_url: str
) -> None:
    """Only the version crosses the wire then: one script call, nothing decoded."""
    created = create(client)
    url, gm = f"/v1/conflicts/{created['id']}", bearer(created["tokens"]["gm"])
    store = client.app.state.sessions.engine(CONFLICTS).store
    stored = redis.Redis.from_url(redis_url)
    first = client.get(url, headers=gm)
    copy = store.recent(created["id"])
    before = _calls(stored)
    again = client.get(url, headers=gm)
    after = _calls(stored)
    assert again.json() == first.json()
    assert store.recent(created["id"]) is copy  # not decoded again
    assert after.get("evalsha", 0) - before.get("evalsha", 0) == 1

    tied_round(other, created, 1)
    changed = client.get(url, headers=gm)
    assert changed.headers["etag"] == '"2"'
    assert [r["number"] for r in changed.json()["rounds"]] == [1]
    assert store.recent(created["id"]) is not copy

    assert other.delete(url, headers=gm).status_code == 204
    assert client.get(url, headers=gm).status_code == 404
    assert store.recent(created["id"]) is None


def test_when_copies_are_mostly_stale_writes_read_first_and_trust_returns_later(
    client: TestClient, other: TestClient
) -> None:
    """Two replicas taking turns on every conflict (round-robin routing): each one's copy is
    always one change behind, so starting writes from copies would only waste attempts."""
    store = client.app.state.sessions.engine(CONFLICTS).store
    created = create(client)
    for number in range(1, 41, 2):
        tied_round(other, created, number)
        tied_round(client, created, number + 1)
    assert store.copies_current < 0.5
    assert store.recent(created["id"]) is not None
    assert store.copy_for_write(created["id"]) is None  # read first, then compare-and-set

    for number in range(41, 61):  # now only this replica serves the conflict
        tied_round(client, created, number)
    assert store.copies_current >= 0.5
    assert store.copy_for_write(created["id"]) is store.recent(created["id"])
