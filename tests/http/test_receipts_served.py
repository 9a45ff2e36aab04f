"""Roll receipts from ``python -m service`` with two workers and no ROLL_SIGNING_KEYS: the
key it generates is one for every worker, so a receipt verifies against whichever worker
answers for the JWK Set."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from jwcrypto import jwk, jws

from tests.support.served import ServedApp


def test_workers_share_the_generated_key_and_say_it_was_generated(redis_url: str, tmp_path: Path):
    app = ServedApp(
        {"REDIS_URL": redis_url, "WEB_CONCURRENCY": "2", "ROLL_SIGNING_KEYS": ""},
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
