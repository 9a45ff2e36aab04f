"""Roll receipts from ``python -m service`` with no ROLL_SIGNING_KEYS: the key it generates
is one for every worker, so a receipt verifies against whichever worker answers for the JWK
Set; and two servers (replicas) publish theirs through their Redis to each other."""

from __future__ import annotations

import json
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import redis
from jwcrypto import jwk, jws

from tests.support.served import ServedApp


def _own_database(url: str) -> str:
    """``url`` with a database of its own: the keys other tests' apps publish (each for its
    retention) are in the usual one, and a worker's view of them may lapse a moment
    before the other's."""
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return url + ("&" if parts.query else "?") + "db=9"
    return urlunsplit(parts._replace(path="/9"))


def test_workers_share_the_generated_key_and_say_it_was_generated(redis_url: str, tmp_path: Path):
    own = _own_database(redis_url)
    with redis.Redis.from_url(own) as store:
        store.flushdb()  # a server given as REDIS_URL keeps what an earlier run left
    app = ServedApp(
        {"REDIS_URL": own, "WEB_CONCURRENCY": "2", "ROLL_SIGNING_KEYS": ""},
        tmp_path / "service.log",
    )
    try:
        app.wait_ready()
        with httpx.Client(base_url=app.url) as client:
            # New connections, so both workers answer some of them.
            key_sets = {httpx.get(app.url + "/.well-known/jwks.json").text for _ in range(16)}
            readiness = [httpx.get(app.url + "/readyz").json() for _ in range(8)]
            answers = [
                client.post("/v1/checks", json={"target": 10, "receipt": True}).json()
                for _ in range(4)
            ]
    finally:
        app.stop()
    assert len(key_sets) == 1
    (key_set,) = key_sets
    keys = jwk.JWKSet.from_json(key_set)
    for answer in answers:
        token = jws.JWS()
        token.deserialize(answer["receipt"])
        token.verify(keys.get_key(token.jose_header["kid"]), alg="EdDSA")
        assert json.loads(token.payload)["faces"] == answer["faces"]
    assert {r["roll_signing_keys"] for r in readiness} == {"generated"}
    events = [json.loads(line) for line in app.log.read_text().splitlines() if line.startswith("{")]
    generated = [e for e in events if e.get("event") == "roll signing key generated"]
    assert len(generated) == 1
    assert generated[0]["kid"] == json.loads(key_set)["keys"][0]["kid"]


def test_two_servers_without_roll_signing_keys_verify_each_others_receipts(
    redis_url: str, tmp_path: Path
):
    """Two replicas (each its own ``python -m service``, so each its own generated key)
    share one Redis: each one's receipts verify at the other, against its JWK Set too."""
    env = {"REDIS_URL": redis_url, "ROLL_SIGNING_KEYS": "", "ROLL_KEY_RETENTION_SECONDS": "3"}
    apps = [ServedApp(env, tmp_path / f"service-{n}.log") for n in (1, 2)]
    try:
        for app in apps:
            app.wait_ready()
            deadline = time.monotonic() + 10
            while httpx.get(app.url + "/readyz").status_code != 200:  # as a balancer waits
                assert time.monotonic() < deadline
                time.sleep(0.1)
        signers = {httpx.get(app.url + "/readyz").json()["roll_signing_kid"] for app in apps}
        assert len(signers) == 2
        signed = [
            (httpx.post(app.url + "/v1/checks", json={"target": 10, "receipt": True}).json(), app)
            for app in apps
        ]
        deadline = time.monotonic() + 10  # each reads the other's key within a heartbeat (1 s)
        while not all(signers <= _kids(app.url) for app in apps):
            assert time.monotonic() < deadline
            time.sleep(0.1)
        for app in apps:
            keys = jwk.JWKSet.from_json(httpx.get(app.url + "/.well-known/jwks.json").text)
            for answer, signer in signed:
                held = httpx.post(
                    app.url + "/v1/receipts/verify",
                    json={"receipt": answer["receipt"], "answer": answer},
                ).json()
                assert (held["valid"], held["checked"]) == (True, ["signature", "answer"])
                token = jws.JWS()
                token.deserialize(answer["receipt"])
                token.verify(keys.get_key(token.jose_header["kid"]), alg="EdDSA")
                assert (signer is app) == (token.jose_header["kid"] == _own_kid(app.url))
    finally:
        for app in apps:
            app.stop()


def _kids(url: str) -> set[str]:
    return {key["kid"] for key in httpx.get(url + "/.well-known/jwks.json").json()["keys"]}


def _own_kid(url: str) -> str:
    kid: str = httpx.get(url + "/readyz").json()["roll_signing_kid"]
    return kid
