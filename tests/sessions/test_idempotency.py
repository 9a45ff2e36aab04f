"""Idempotency-Key that holds (docs/sessions.md): each participant's
own, bound to session, method, path and body; the caller authorized before any stored answer
is replayed; a write whose reply was lost applied at most once, its retry answered with the
first answer; no lock-out after Redis comes back. Real Redis throughout, and real faults: a
TCP proxy that holds a reply past the socket timeout, and Redis itself paused."""

from __future__ import annotations

import random
import time

import pytest
import redis
from litestar.testing import TestClient

from service.app import create_app
from service.rulesets.bullseye.api.conflict_views import CONFLICTS
from service.settings import Settings
from tests.support.bullseye_conflicts import bearer, create, faces
from tests.support.problems import assert_problem
from tests.support.proxy import HoldingProxy

ROUND = {"gm": {}, "players": {"ana": {}, "bo": {}}}
TIED = {"gm": faces(10), "players": {"ana": faces(10), "bo": faces(10)}}


def keyed(token: str, key: str) -> dict[str, str]:
    return {**bearer(token), "Idempotency-Key": key}


def read(client: TestClient, created: dict) -> dict:
    answer = client.get(f"/v1/conflicts/{created['id']}", headers=bearer(created["tokens"]["gm"]))
    assert answer.status_code == 200
    return {"etag": answer.headers["etag"], **answer.json()}


def test_a_retry_returns_the_first_answer_and_applies_nothing_again(client: TestClient) -> None:
    created = create(client, dice_source="server")
    path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
    first = client.post(path, json=ROUND, headers=keyed(gm, "k-1"))
    again = client.post(path, json=ROUND, headers=keyed(gm, "k-1"))
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.content == first.content  # the same dice, not a new roll
    assert again.headers["etag"] == first.headers["etag"] == '"2"'
    # Said so (integrators' review: a replayed answer did not say it was one).
    assert again.headers["idempotent-replayed"] == "true"
    assert "idempotent-replayed" not in first.headers
    state = read(client, created)
    assert (state["etag"], len(state["rounds"])) == ('"2"', 1)


@pytest.mark.parametrize("credentials", ["none", "another conflict's GM"])
def test_a_replay_without_a_token_of_the_conflict_is_401_never_the_stored_answer(
    client: TestClient, credentials: str
) -> None:
    created, other = create(client, dice_source="server"), create(client)
    path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
    first = client.post(path, json=ROUND, headers=keyed(gm, "k-2"))
    assert first.status_code == 200
    headers = {"Idempotency-Key": "k-2"}
    if credentials != "none":
        headers |= bearer(other["tokens"]["gm"])
    replay = client.post(path, json=ROUND, headers=headers)
    assert_problem(replay, 401, "unauthorized")
    assert "pairings" not in replay.text


def test_another_participants_same_key_is_another_request_never_the_stored_answer(
    client: TestClient,
) -> None:
    """Keys are each participant's own: Ana's request with the GM's key is hers, answered
    by the rules (a player may not resolve a round), never with the GM's stored answer."""
    created = create(client, dice_source="server")
    path = f"/v1/conflicts/{created['id']}/rounds"
    first = client.post(path, json=ROUND, headers=keyed(created["tokens"]["gm"], "k-3"))
    assert first.status_code == 200
    ana = created["tokens"]["players"]["ana"]
    hers = client.post(path, json=ROUND, headers=keyed(ana, "k-3"))
    body = assert_problem(hers, 403, "forbidden")
    assert "GM" in body["detail"]
    assert "pairings" not in hers.text


def test_a_key_guessed_first_by_another_participant_does_not_block_the_gm(
    client: TestClient,
) -> None:
    """Security review: keys were stored per (session, key), so a player who sent a key
    first made the GM's later request with it answer 403."""
    created = create(client, dice_source="server")
    path = f"/v1/conflicts/{created['id']}/rounds"
    ana, gm = created["tokens"]["players"]["ana"], created["tokens"]["gm"]
    assert client.post(path, json=ROUND, headers=keyed(ana, "k-guess")).status_code == 403
    first = client.post(path, json=ROUND, headers=keyed(gm, "k-guess"))
    again = client.post(path, json=ROUND, headers=keyed(gm, "k-guess"))
    assert (first.status_code, again.status_code) == (200, 200)
    assert again.content == first.content
    assert len(read(client, created)["rounds"]) == 1


def test_the_same_key_on_another_path_is_422_not_another_requests_answer(
    client: TestClient,
) -> None:
    created = create(client)
    base, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    accepted = client.post(
        f"{base}/rounds/1/checks", json={"participant": "gm", **faces(9)}, headers=keyed(gm, "k-4")
    )
    assert accepted.status_code == 202
    elsewhere = client.post(
        f"{base}/outcome", json={"target": 5, "checks": {"gm": faces(9)}}, headers=keyed(gm, "k-4")
    )
    body = assert_problem(elsewhere, 422, "idempotency-key-reused")
    assert f"{base}/rounds/1/checks" in body["detail"]
    other_round = client.post(
        f"{base}/rounds/2/checks", json={"participant": "gm", **faces(9)}, headers=keyed(gm, "k-4")
    )
    assert_problem(other_round, 422, "idempotency-key-reused")


def test_the_same_key_with_another_body_is_422(client: TestClient) -> None:
    created = create(client)
    path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
    assert client.post(path, json=TIED, headers=keyed(gm, "k-5")).status_code == 200
    other = {"gm": faces(11), "players": {"ana": faces(10), "bo": faces(10)}}
    assert_problem(
        client.post(path, json=other, headers=keyed(gm, "k-5")), 422, "idempotency-key-reused"
    )
    assert read(client, created)["etag"] == '"2"'


def test_a_refusal_is_kept_and_replayed_as_it_was(client: TestClient) -> None:
    """The round had moved on when the retry came: the retry still gets the first 409."""
    created = create(client)
    base, gm = f"/v1/conflicts/{created['id']}", created["tokens"]["gm"]
    wrong = client.post(
        f"{base}/rounds/2/checks", json={"participant": "gm", **faces(9)}, headers=keyed(gm, "k-6")
    )
    assert_problem(wrong, 409, "wrong-round")
    assert client.post(f"{base}/rounds", json=TIED, headers=bearer(gm)).status_code == 200
    again = client.post(
        f"{base}/rounds/2/checks", json={"participant": "gm", **faces(9)}, headers=keyed(gm, "k-6")
    )
    assert again.status_code == 409
    assert again.content == wrong.content


def test_a_write_whose_reply_was_lost_is_applied_once_and_its_retry_gets_the_first_answer(
    through_proxy: TestClient, proxy: HoldingProxy
) -> None:
    client = through_proxy
    created = create(client, dice_source="server")
    path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
    store = client.app.state.sessions.engine(CONFLICTS).store
    proxy.hold_reply_to(store.write_sha.encode(), seconds=1.0)
    lost = client.post(path, json=ROUND, headers=keyed(gm, "k-lost"))
    assert proxy.held == 1
    assert_problem(lost, 503, "store-unavailable")
    time.sleep(1.1)  # the held reply is dropped; Redis had run the write
    retry = client.post(path, json=ROUND, headers=keyed(gm, "k-lost"))
    assert retry.status_code == 200, retry.text
    state = read(client, created)
    assert state["etag"] == '"2"'  # one application, not two
    assert [r["number"] for r in state["rounds"]] == [1]
    # The round the first request rolled, as an action answers it (no receipt asked).
    answered = retry.json()
    assert answered.pop("summary").startswith("Round 1:")  # an answer's, not the record's
    assert answered == {**state["rounds"][0], "receipt": None}


def test_without_a_key_a_lost_reply_is_not_applied_twice_by_the_client_either(
    through_proxy: TestClient, proxy: HoldingProxy
) -> None:
    """The Redis client never resends a command that timed out: the first request answers
    503 and the round it wrote stands alone."""
    client = through_proxy
    created = create(client, dice_source="server")
    path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
    store = client.app.state.sessions.engine(CONFLICTS).store
    proxy.hold_reply_to(store.write_sha.encode(), seconds=1.0)
    assert_problem(client.post(path, json=ROUND, headers=bearer(gm)), 503, "store-unavailable")
    time.sleep(1.1)
    state = read(client, created)
    assert (state["etag"], len(state["rounds"])) == ('"2"', 1)


def test_a_write_lost_on_its_way_frees_its_key_so_the_retry_goes_through_at_once(
    through_proxy: TestClient, proxy: HoldingProxy
) -> None:
    """The connection drops before Redis sees the write: nothing was applied, and the
    request takes its pending marker back, so an immediate retry is not told 409."""
    client = through_proxy
    created = create(client, dice_source="server")
    path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
    store = client.app.state.sessions.engine(CONFLICTS).store
    proxy.drop_next(store.write_sha.encode())
    assert_problem(
        client.post(path, json=ROUND, headers=keyed(gm, "k-drop")), 503, "store-unavailable"
    )
    assert proxy.dropped == 1
    assert read(client, created)["etag"] == '"1"'
    retry = client.post(path, json=ROUND, headers=keyed(gm, "k-drop"))
    assert retry.status_code == 200, retry.text
    state = read(client, created)
    assert (state["etag"], len(state["rounds"])) == ('"2"', 1)


def test_a_retry_after_redis_hung_is_not_locked_out(client: TestClient, redis_url: str) -> None:
    """Redis stops serving writes (CLIENT PAUSE) for longer than the socket timeout: the
    first request times out (503) before anything is written. Once Redis serves again, the
    retry with the same key goes through at once — not 409 for the key's lease — and the
    round is applied once."""
    settings = Settings(redis_url=redis_url, redis_socket_timeout=0.3, log_format="json")
    with TestClient(create_app(settings, rng=random.Random(12))) as hung:
        created = create(hung, dice_source="server")
        path, gm = f"/v1/conflicts/{created['id']}/rounds", created["tokens"]["gm"]
        redis.Redis.from_url(redis_url).execute_command("CLIENT", "PAUSE", 800, "WRITE")
        first = hung.post(path, json=ROUND, headers=keyed(gm, "k-hang"))
        assert_problem(first, 503, "store-unavailable")
        time.sleep(1.0)  # Redis serves again
        retry = hung.post(path, json=ROUND, headers=keyed(gm, "k-hang"))
        assert retry.status_code == 200, retry.text
        state = read(hung, created)
        assert (state["etag"], len(state["rounds"])) == ('"2"', 1)
        answered = retry.json()
    assert answered.pop("summary").startswith("Round 1:")  # an answer's, not the record's
    assert answered == {**state["rounds"][0], "receipt": None}
