"""Replicas without ROLL_SIGNING_KEYS (service.http.receipts.published_keys): each signs with a key
of its own and publishes the public half through Redis, so a receipt signed at one
verifies at every other — through ``POST /v1/receipts/verify`` and, by jwcrypto, against
the other's ``/.well-known/jwks.json`` — while its replica runs and for
ROLL_KEY_RETENTION_SECONDS after. Two apps in one process share one real Redis, as two
replicas share theirs."""

from __future__ import annotations

import base64
import json
import random
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import msgspec
import pytest
import redis
from jwcrypto import jws
from litestar.testing import TestClient

from service.app import create_app
from service.embedded_redis import EmbeddedRedis
from service.http.receipts.published_keys import HASH_KEY, period_for
from service.settings import Settings, SettingsError
from tests.http.test_receipts import (
    CHECK,
    app_with,
    independently_verified,
    new_key,
    post_check,
)
from tests.support.travelogue_bot import FixedPolicy
from tests.support.travelogue_games import GAMES, sheets_json

Json = dict[str, Any]
_seeds = iter(range(100, 10_000))


@contextmanager
def replica(redis_url: str, **settings: Any) -> Iterator[TestClient]:
    """An app with a generated key, as a load balancer sees it: in service once ready."""
    app = create_app(
        Settings(redis_url=redis_url, log_format="json", **settings),
        rng=random.Random(next(_seeds)),
    )
    with TestClient(app) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 200, ready.text
        yield client


def kid_of(client: TestClient) -> str:
    kid: str = client.get("/readyz").json()["roll_signing_kid"]
    return kid


def kids(client: TestClient) -> list[str]:
    return [key["kid"] for key in client.get("/.well-known/jwks.json").json()["keys"]]


def verdict(client: TestClient, receipt: str, **documents: Json) -> Json:
    answer = client.post("/v1/receipts/verify", json={"receipt": receipt, **documents})
    assert answer.status_code == 200, answer.text
    result: Json = answer.json()
    return result


def eventually(condition: Callable[[], bool], seconds: float) -> float:
    """How long ``condition`` took to hold (fails after ``seconds``)."""
    start = time.monotonic()
    while not condition():
        assert time.monotonic() - start < seconds, "did not happen in time"
        time.sleep(0.05)
    return time.monotonic() - start


def published(redis_url: str) -> dict[str, Json]:
    """The raw published entries, by kid."""
    with redis.Redis.from_url(redis_url) as db:
        return {kid.decode(): json.loads(v) for kid, v in db.hgetall(HASH_KEY).items()}


def redis_ms(redis_url: str) -> int:
    with redis.Redis.from_url(redis_url) as db:
        seconds, micros = db.time()
    return int(seconds * 1000 + micros // 1000)


def made_up_kid() -> str:
    """A kid as the service names keys (a thumbprint's shape) that no key has."""
    return base64.urlsafe_b64encode(random.randbytes(32)).rstrip(b"=").decode()


def kid_in(receipt: str) -> str:
    token = jws.JWS()
    token.deserialize(receipt)
    kid: str = token.jose_header["kid"]
    return kid


def naming(receipt: str, kid: str) -> str:
    """``receipt`` with another kid in its header (its signature no longer matters)."""
    header = json.dumps({"alg": "EdDSA", "kid": kid, "typ": "JOSE"}).encode()
    _, payload, signature = receipt.split(".")
    return ".".join((base64.urlsafe_b64encode(header).rstrip(b"=").decode(), payload, signature))


def test_receipts_signed_at_either_replica_verify_at_both(redis_url: str) -> None:
    retention = 3  # a heartbeat a second: each sees the other's key within one
    with (
        replica(redis_url, roll_key_retention_seconds=retention) as one,
        replica(redis_url, roll_key_retention_seconds=retention) as two,
    ):
        replicas = (one, two)
        signers = {kid_of(one), kid_of(two)}
        assert len(signers) == 2
        signed = [(post_check(client, CHECK), client) for client in replicas for _ in range(3)]
        for client in replicas:
            eventually(lambda client=client: signers <= set(kids(client)), 10)
        for client in replicas:
            jwks = client.get("/.well-known/jwks.json")
            assert jwks.headers["cache-control"] == "public, max-age=1"  # one period
            for answer, signer in signed:
                header, payload = independently_verified(answer["receipt"], jwks.text)
                assert header["kid"] == kid_of(signer)
                assert payload["faces"] == answer["faces"]
                held = verdict(client, answer["receipt"], answer=answer, request=CHECK)
                assert (held["valid"], held["checked"]) == (
                    True,
                    ["signature", "answer", "request"],
                )
            ready = client.get("/readyz").json()
            assert ready["roll_signing_keys"] == "generated"
            assert ready["roll_keys_published"] == len(jwks.json()["keys"]) >= 2
            assert kids(client)[0] == kid_of(client)  # its own key first
        # Only public keys reach Redis: neither private key is in any entry.
        entries = published(redis_url)
        for client in replicas:
            own = client.app.state["receipts"].keys.signing
            d = base64.urlsafe_b64encode(own.private.private_bytes_raw()).rstrip(b"=")
            assert entries[own.kid]["jwk"] == msgspec.to_builtins(own.jwk)  # no "d"
            assert d.decode() not in json.dumps(entries)


def test_a_verification_reads_a_key_its_replica_has_not_seen_yet(redis_url: str) -> None:
    # The default retention: a heartbeat every 10 s, so only the verification can bring
    # the new replica's key to the old one within this test.
    with replica(redis_url) as old, replica(redis_url) as new:
        answer = post_check(new, CHECK)
        assert kid_of(new) not in kids(old)  # not read yet
        held = verdict(old, answer["receipt"], answer=answer, request=CHECK)
        assert held["valid"] is True, held
        assert held["kid"] == kid_of(new)
        assert kid_of(new) in kids(old)  # the view that verification read
        assert kids(old)[0] == kid_of(old)
        # A kid nobody published: read for too, then unknown-kid as before.
        refused = verdict(old, naming(answer["receipt"], made_up_kid()))
        assert (refused["valid"], refused["reason"]) == (False, "unknown-kid")
        assert "could not be read" not in refused["detail"]


def test_an_ended_replicas_key_stays_published_for_the_retention_then_lapses(
    redis_url: str,
) -> None:
    retention = 1
    period = period_for(retention)
    with replica(redis_url, roll_key_retention_seconds=retention) as reader:
        with replica(redis_url, roll_key_retention_seconds=retention) as ending:
            kid = kid_of(ending)
            answer = post_check(ending, CHECK)
            # Alive for three retentions: its heartbeat keeps the key published.
            time.sleep(3 * retention)
            assert kid in kids(reader)
            assert verdict(reader, answer["receipt"])["valid"] is True
            assert published(redis_url)[kid]["until"] > redis_ms(redis_url)
            ended_from = time.monotonic()
        ended_by = time.monotonic()
        gone = eventually(lambda: kid not in kids(reader), retention + period + 5)
        # Published for the retention after it ended (less what a busy machine may delay
        # its last heartbeat by), and not much more than one period longer.
        assert gone + (ended_by - ended_from) >= retention - 0.5
        assert gone <= retention + period + 2.0
        refused = verdict(reader, answer["receipt"])
        assert refused["reason"] == "unknown-kid"
        entry = published(redis_url).get(kid)
        assert entry is None or entry["until"] <= redis_ms(redis_url)


def test_while_redis_is_down_replicas_sign_and_answer_from_the_keys_they_read() -> None:
    quick = {"redis_socket_timeout": 0.2, "redis_connect_timeout": 0.2}
    server = EmbeddedRedis()
    url = server.start()
    try:
        with replica(url, **quick) as one, replica(url, **quick) as two:
            answer = post_check(two, CHECK)
            kid = kid_in(answer["receipt"])
            assert verdict(one, answer["receipt"])["valid"] is True  # read while Redis was up
            server.stop()

            jwks = one.get("/.well-known/jwks.json")
            assert jwks.status_code == 200
            assert kid in [key["kid"] for key in jwks.json()["keys"]]
            held = verdict(one, answer["receipt"], answer=answer, request=CHECK)
            assert held["valid"] is True
            # A kid it never read: unknown as far as this replica knows, and said so.
            refused = verdict(one, naming(answer["receipt"], made_up_kid()))
            assert (refused["valid"], refused["reason"]) == (False, "unknown-kid")
            assert "could not be read" in refused["detail"]
            own = post_check(one, CHECK)  # signing goes on
            assert verdict(one, own["receipt"], answer=own, request=CHECK)["valid"] is True
            assert one.get("/readyz").status_code == 503
    finally:
        server.stop()


def test_configured_keys_are_neither_published_nor_joined_by_published_ones(
    redis_url: str,
) -> None:
    with replica(redis_url):  # a replica with a generated key publishes it
        pass
    with app_with(redis_url, new_key()) as client:
        ready = client.get("/readyz").json()
        answer = post_check(client, CHECK)
        kid = kid_in(answer["receipt"])
        assert (ready["roll_signing_keys"], ready["roll_signing_kid"]) == ("configured", kid)
        assert ready["roll_keys_published"] == 1
        jwks = client.get("/.well-known/jwks.json")
        assert jwks.headers["cache-control"] == "public, max-age=300"
        assert [k["kid"] for k in jwks.json()["keys"]] == [kid]
    assert kid not in published(redis_url)


def test_a_travelogue_game_played_across_two_replicas_verifies_at_both(redis_url: str) -> None:
    """The finding this answers: a game with receipts played through two replicas
    without ROLL_SIGNING_KEYS ended with receipts that each verified at one replica only."""
    retention = 3  # a heartbeat a second
    with (
        replica(redis_url, roll_key_retention_seconds=retention) as one,
        replica(redis_url, roll_key_retention_seconds=retention) as two,
    ):
        replicas = (one, two)
        body = {"name": "Two replicas", "bullseyes": sheets_json(), "dice_source": "server"}
        created = one.post(GAMES, json={**body, "receipts": True})
        assert created.status_code == 201, created.text
        game = created.json()
        path, tokens = f"{GAMES}/{game['id']}", game["tokens"]["players"]
        policy, view, signed = FixedPolicy(), game, []
        for turn in range(5000):
            if view["status"] != "active":
                break
            actor, action = policy.next(view)
            at = replicas[turn % 2]  # every other action through the other replica
            answer = at.post(
                f"{path}/actions", json=action, headers={"X-Game-Token": tokens[actor]}
            )
            assert answer.status_code == 200, answer.text
            if answer.json()["receipt"] is not None:
                signed.append((answer.json(), action, at))
            view = answer.json()["game"]
        assert view["status"] != "active"
        signers = {kid_of(one), kid_of(two)}
        assert {kid_in(answer["receipt"]) for answer, _, _ in signed} == signers
        for client in replicas:
            eventually(lambda client=client: signers <= set(kids(client)), 10)
            jwks = client.get("/.well-known/jwks.json").text
            for answer, action, signer in signed:
                held = verdict(client, answer["receipt"], answer=answer, request=action)
                assert held["valid"] is True, held
                assert held["kid"] == kid_of(signer)
                _, payload = independently_verified(answer["receipt"], jwks)
                assert payload["id"] == f"{game['id']}:{answer['game']['version']}"
        for client in replicas:
            assert client.get("/readyz").json()["status"] == "ready"


@pytest.mark.parametrize("value", ["0", "2592001", "a day"])
def test_a_retention_out_of_bounds_stops_the_start_naming_the_variable(value: str) -> None:
    with pytest.raises(SettingsError, match="ROLL_KEY_RETENTION_SECONDS"):
        Settings.from_env({"ROLL_KEY_RETENTION_SECONDS": value})
    assert Settings.from_env({}).roll_key_retention_seconds == 86400


def test_an_app_run_without_its_lifespan_answers_an_unknown_kid_at_once(
    settings: Settings,
) -> None:
    """No lifespan, no Redis client to read with: the verifier says so instead of waiting
    for a read that never comes."""
    answers: list[Json] = []
    client = TestClient(create_app(settings))  # not entered: its lifespan never runs
    receipt = naming(post_check(client, CHECK)["receipt"], made_up_kid())
    asked = threading.Thread(target=lambda: answers.append(verdict(client, receipt)), daemon=True)
    asked.start()
    asked.join(10)
    assert answers, "the verification did not answer"
    assert (answers[0]["reason"], "could not be read" in answers[0]["detail"]) == (
        "unknown-kid",
        True,
    )


def test_the_key_set_and_verifications_do_not_ask_redis_each_time() -> None:
    """Answered from the worker's view: only a kid it has not read makes it read, and
    verifications waiting at once share the read."""
    server = EmbeddedRedis()
    url = server.start()

    def scripts_run() -> int:
        with redis.Redis.from_url(url) as db:
            stats = db.info("commandstats")
        return sum(stats.get(f"cmdstat_{name}", {}).get("calls", 0) for name in ("evalsha", "eval"))

    try:
        # The default retention: a heartbeat every 10 s from each, two at most per window.
        with replica(url) as one, replica(url) as two:
            answer = post_check(two, CHECK)
            assert verdict(one, answer["receipt"])["valid"] is True  # read for once
            before = scripts_run()
            for _ in range(20):
                assert one.get("/.well-known/jwks.json").status_code == 200
                assert verdict(one, answer["receipt"])["valid"] is True
            assert scripts_run() - before <= 2

            made_up = [naming(answer["receipt"], made_up_kid()) for _ in range(12)]
            answers: list[Json] = []
            asking = [
                threading.Thread(target=lambda r=r: answers.append(verdict(one, r)))
                for r in made_up
            ]
            before = scripts_run()
            for thread in asking:
                thread.start()
            for thread in asking:
                thread.join(20)
            assert [a["reason"] for a in answers] == ["unknown-kid"] * len(made_up)
            assert scripts_run() - before <= 2 + 2  # shared reads, and the heartbeats
    finally:
        server.stop()
