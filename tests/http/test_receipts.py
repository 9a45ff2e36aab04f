"""Signed roll receipts (issue #26), through Bullseye's POST /v1/checks: each receipt is
checked by a second JOSE implementation (jwcrypto) against the published JWK Set, and its
digests are recomputed with the reference RFC 8785 library, never with the service's code."""

from __future__ import annotations

import base64
import hashlib
import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta

import msgspec
import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st
from jwcrypto import jwk, jws
from jwt import PyJWS
from litestar.testing import TestClient

from service.app import create_app
from service.configuration import load_settings
from service.http.receipts.roll_keys import RollKeys
from service.http.receipts.signing import ReceiptPayload, RollReceipts
from service.settings import Settings, SettingsError

CHECK = {
    "target": 12,
    "qualities": [{"name": "Swordplay", "type": "core", "magnitude": 3}],
    "situational": [{"label": "Uphill", "magnitude": -1}],
    "receipt": True,
}


def new_key() -> dict[str, str]:
    """An Ed25519 private JWK, made by jwcrypto."""
    return jwk.JWK.generate(kty="OKP", crv="Ed25519").export_private(as_dict=True)


@contextmanager
def app_with(redis_url: str, *keys: dict[str, str]) -> Iterator[TestClient]:
    """The real app, signing with ``keys`` (none: it generates one)."""
    setting = json.dumps(list(keys)) if keys else None
    app = create_app(
        Settings(redis_url=redis_url, roll_signing_keys=setting, log_format="json"),
        rng=random.Random(11),
    )
    with TestClient(app) as client:
        yield client


def sha256(node) -> str:
    return hashlib.sha256(rfc8785.dumps(node)).hexdigest()


def without_receipt(answer: dict) -> dict:
    return {name: value for name, value in answer.items() if name != "receipt"}


def independently_verified(receipt: str, jwks: str) -> tuple[dict, dict]:
    """The header and payload of ``receipt``, verified by jwcrypto with ``jwks``.

    Raises:
        jws.InvalidJWSSignature: the signature does not hold for the named key.
    """
    token = jws.JWS()
    token.deserialize(receipt)
    header = token.jose_header
    key = jwk.JWKSet.from_json(jwks).get_key(header["kid"])
    if key is None:
        raise jws.InvalidJWSSignature(f"no key {header['kid']}")
    token.verify(key, alg="EdDSA")
    return header, json.loads(token.payload)


def post_check(client: TestClient, body: dict) -> dict:
    response = client.post("/v1/checks", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def with_payload(receipt: str, payload: bytes) -> str:
    """``receipt`` with another payload and its own header and signature."""
    header, _, signature = receipt.split(".")
    return f"{header}.{b64(payload)}.{signature}"


def payload_bytes(receipt: str) -> bytes:
    segment = receipt.split(".")[1]
    return base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4))


def test_a_signed_check_verifies_with_the_published_keys_in_another_implementation(keyed):
    client, key = keyed
    # Sent with spaces, another key order and 12.0 for 12: the digest is of the RFC 8785 form.
    body = (
        b'{ "receipt": true, "situational": [{"magnitude": -1, "label": "Uphill"}],\n'
        b'  "qualities": [{"type": "core", "magnitude": 3, "name": "Swordplay"}], '
        b'"target": 12.0 }'
    )
    response = client.post("/v1/checks", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 200, response.text
    answer = response.json()
    keys = client.get("/.well-known/jwks.json")

    header, payload = independently_verified(answer["receipt"], keys.text)

    published = keys.json()["keys"]
    assert [k["kid"] for k in published] == [jwk.JWK(**key).thumbprint()]  # RFC 7638
    assert published[0] == {
        "kty": "OKP", "crv": "Ed25519", "x": key["x"], "kid": header["kid"],
        "alg": "EdDSA", "use": "sig",
    }  # fmt: skip
    assert key["d"] not in keys.text
    assert "public" in keys.headers["cache-control"]
    assert "max-age=" in keys.headers["cache-control"]
    assert header == {"alg": "EdDSA", "kid": published[0]["kid"], "typ": "JOSE"}
    assert payload_bytes(answer["receipt"]) == rfc8785.dumps(payload)  # canonical payload
    signed_at = datetime.fromisoformat(payload.pop("time"))
    assert abs(datetime.now(UTC) - signed_at) < timedelta(minutes=1)
    assert payload == {
        "ruleset": "bullseye",
        "operation": "resolveCheck",
        "id": answer["id"],
        "request_sha256": sha256(CHECK),
        "faces": answer["faces"],
        "answer_sha256": sha256(without_receipt(answer)),
        "dice_source": "server",
    }
    assert len(answer["faces"]) == 1


@pytest.mark.parametrize("dice", ["d20", "2d10", "3d6", "4d6-4"])
def test_every_face_rolled_is_signed_in_rolling_order(keyed, dice):
    """§7.1's alternate dice roll several faces: the receipt lists each, as the answer does."""
    client, _ = keyed
    answer = post_check(client, {**CHECK, "dice": dice})
    _, payload = independently_verified(
        answer["receipt"], client.get("/.well-known/jwks.json").text
    )
    assert payload["faces"] == answer["faces"]
    assert len(payload["faces"]) == {"d20": 1, "2d10": 2, "3d6": 3, "4d6-4": 4}[dice]


def test_a_seeded_roll_is_signed_with_the_faces_the_seed_gave_as_the_callers_dice(keyed):
    """A seed is reproducible, so whoever sends it could have searched for one that rolls
    well: the receipt says the seed chose the faces, not the server."""
    client, _ = keyed
    first = post_check(client, {**CHECK, "seed": 42, "dice": "3d6"})
    again = post_check(client, {**CHECK, "seed": 42, "dice": "3d6"})
    _, payload = independently_verified(first["receipt"], client.get("/.well-known/jwks.json").text)
    assert payload["faces"] == first["faces"] == again["faces"]
    assert payload["dice_source"] == "seed"
    unseeded = post_check(client, {**CHECK, "dice": "3d6"})
    _, payload = independently_verified(
        unseeded["receipt"], client.get("/.well-known/jwks.json").text
    )
    assert payload["dice_source"] == "server"


def test_table_dice_are_signed_as_table_dice(keyed):
    """Faces supplied by the table (§7.1): the receipt vouches for the arithmetic only."""
    client, _ = keyed
    answer = post_check(client, {**CHECK, "roll": {"faces": [17]}})
    _, payload = independently_verified(
        answer["receipt"], client.get("/.well-known/jwks.json").text
    )
    assert payload["dice_source"] == "table"
    assert payload["faces"] == []
    assert answer["faces"] == [17]
    assert payload["answer_sha256"] == sha256(without_receipt(answer))


def test_a_quick_10_rolls_nothing_and_its_receipt_lists_no_face(keyed):
    """§2.5: a Quick 10 takes 10 without rolling."""
    client, _ = keyed
    answer = post_check(client, {**CHECK, "quick10": True})
    _, payload = independently_verified(
        answer["receipt"], client.get("/.well-known/jwks.json").text
    )
    assert (payload["faces"], payload["dice_source"], answer["die_result"]) == ([], "server", 10)


@pytest.mark.parametrize("asked", [{}, {"receipt": False}])
def test_an_answer_not_asked_to_be_signed_carries_no_receipt(keyed, asked):
    client, _ = keyed
    body = {name: value for name, value in CHECK.items() if name != "receipt"} | asked
    assert post_check(client, body)["receipt"] is None


def flip(text: str, index: int) -> str:
    """``text`` with the character at ``index`` changed to another of its alphabet."""
    swap = "0" if text[index] != "0" else "1"
    return text[:index] + swap + text[index + 1 :]


def test_one_byte_changed_in_the_answer_fails_verification(keyed):
    client, _ = keyed
    answer = post_check(client, CHECK)
    _, payload = independently_verified(
        answer["receipt"], client.get("/.well-known/jwks.json").text
    )
    assert sha256(without_receipt(answer)) == payload["answer_sha256"]
    for name in ("id", "yield_label"):
        tampered = answer | {name: flip(answer[name], 3)}
        assert sha256(without_receipt(tampered)) != payload["answer_sha256"]
        verdict = client.post(
            "/v1/receipts/verify", json={"receipt": answer["receipt"], "answer": tampered}
        ).json()
        assert (verdict["valid"], verdict["reason"]) == (False, "answer-mismatch")
    for name, value in (("die_result", answer["die_result"] + 1), ("faces", [21])):
        tampered = answer | {name: value}
        verdict = client.post(
            "/v1/receipts/verify", json={"receipt": answer["receipt"], "answer": tampered}
        ).json()
        assert (verdict["valid"], verdict["reason"]) == (False, "answer-mismatch")


def test_one_byte_changed_in_the_request_digest_or_the_faces_fails_verification(keyed):
    client, _ = keyed
    answer = post_check(client, CHECK)
    jwks = client.get("/.well-known/jwks.json").text
    original = payload_bytes(answer["receipt"])
    digest_at = original.index(b'"request_sha256":"') + len(b'"request_sha256":"')
    face_at = original.index(b'"faces":[') + len(b'"faces":[')
    for at in (digest_at, digest_at + 63, face_at):
        changed = bytearray(original)
        changed[at] = ord("0") if changed[at] != ord("0") else ord("1")
        tampered = with_payload(answer["receipt"], bytes(changed))
        with pytest.raises(jws.InvalidJWSSignature):
            independently_verified(tampered, jwks)
        verdict = client.post("/v1/receipts/verify", json={"receipt": tampered}).json()
        assert (verdict["valid"], verdict["reason"], verdict["payload"]) == (
            False,
            "bad-signature",
            None,
        )
    untouched = client.post("/v1/receipts/verify", json={"receipt": answer["receipt"]}).json()
    assert untouched["valid"] is True


def test_a_rotated_key_still_verifies_the_receipts_it_signed(redis_url):
    """ROLL_SIGNING_KEYS with the new key first and the old one second: the new one signs,
    both are published, and receipts signed before the rotation still verify."""
    old, new = new_key(), new_key()
    with app_with(redis_url, old) as before:
        old_answer = post_check(before, CHECK)
    with app_with(redis_url, new, old) as after:
        jwks = after.get("/.well-known/jwks.json")
        new_answer = post_check(after, CHECK)
        verdict = after.post(
            "/v1/receipts/verify", json={"receipt": old_answer["receipt"], "answer": old_answer}
        ).json()
    assert [k["kid"] for k in jwks.json()["keys"]] == [
        jwk.JWK(**new).thumbprint(),
        jwk.JWK(**old).thumbprint(),
    ]
    old_header, _ = independently_verified(old_answer["receipt"], jwks.text)
    new_header, _ = independently_verified(new_answer["receipt"], jwks.text)
    assert (old_header["kid"], new_header["kid"]) == (
        jwk.JWK(**old).thumbprint(),
        jwk.JWK(**new).thumbprint(),
    )
    assert (verdict["valid"], verdict["kid"], verdict["checked"]) == (
        True,
        old_header["kid"],
        ["signature", "answer"],
    )
    with app_with(redis_url, new) as retired:  # the old key dropped: its receipts no longer do
        verdict = retired.post("/v1/receipts/verify", json={"receipt": old_answer["receipt"]})
    assert verdict.json()["reason"] == "unknown-kid"


def test_verify_says_a_receipt_with_its_answer_and_request_holds(keyed):
    client, _ = keyed
    answer = post_check(client, CHECK)
    verdict = client.post(
        "/v1/receipts/verify",
        json={"receipt": answer["receipt"], "answer": answer, "request": CHECK},
    )
    assert verdict.status_code == 200
    body = verdict.json()
    assert (body["valid"], body["reason"], body["checked"]) == (
        True,
        None,
        ["signature", "answer", "request"],
    )
    assert body["payload"]["faces"] == answer["faces"]
    assert body["payload"]["request_sha256"] == sha256(CHECK)
    # The answer without its own receipt member is the same answer.
    bare = client.post(
        "/v1/receipts/verify",
        json={"receipt": answer["receipt"], "answer": without_receipt(answer)},
    ).json()
    assert bare["valid"] is True


def test_verify_says_when_the_request_is_not_the_one_signed(keyed):
    client, _ = keyed
    answer = post_check(client, CHECK)
    verdict = client.post(
        "/v1/receipts/verify",
        json={"receipt": answer["receipt"], "answer": answer, "request": CHECK | {"target": 11}},
    ).json()
    assert (verdict["valid"], verdict["reason"], verdict["checked"]) == (
        False,
        "request-mismatch",
        ["signature", "answer"],
    )


def test_verify_says_when_no_published_key_has_the_kid(redis_url, keyed):
    client, _ = keyed
    with app_with(redis_url, new_key()) as other:
        foreign = post_check(other, CHECK)["receipt"]
        other_jwks = other.get("/.well-known/jwks.json").text
    verdict = client.post("/v1/receipts/verify", json={"receipt": foreign}).json()
    assert (verdict["valid"], verdict["reason"]) == (False, "unknown-kid")
    header, _ = independently_verified(foreign, other_jwks)
    assert verdict["kid"] == header["kid"]


def sign_with(key: dict[str, str], payload: bytes, header: dict) -> str:
    token = jws.JWS(payload)
    token.add_signature(jwk.JWK(**key), None, header)
    return token.serialize(compact=True)


def test_verify_refuses_what_a_receipt_is_not(keyed):
    client, key = keyed
    kid = jwk.JWK(**key).thumbprint()
    hs256 = jwk.JWK.generate(kty="oct", size=256)
    hs_token = jws.JWS(b'{"faces":[20]}')
    hs_token.add_signature(hs256, None, {"alg": "HS256", "kid": kid})
    cases = {
        "abc": "malformed",
        "a.b.c": "malformed",
        "...": "malformed",
        "ëÿ.ü.ß": "malformed",
        f"{b64(b'not json')}.{b64(b'{}')}.{b64(b'sig')}": "malformed",
        f"{b64(b'{}')}.{b64(b'{}')}.{b64(b'sig')}": "unsupported-algorithm",
        f"{b64(json.dumps({'alg': 'none', 'kid': kid}).encode())}.{b64(b'{}')}.": (
            "unsupported-algorithm"
        ),
        hs_token.serialize(compact=True): "unsupported-algorithm",
        f"{b64(json.dumps({'alg': 'EdDSA'}).encode())}.{b64(b'{}')}.{b64(b'sig')}": "unknown-kid",
        # Signed by the service's own key, but not a receipt's payload.
        sign_with(key, b'{"hello":"world"}', {"alg": "EdDSA", "kid": kid}): "not-a-receipt",
        sign_with(key, b"[1,2,3]", {"alg": "EdDSA", "kid": kid}): "not-a-receipt",
    }
    for receipt, reason in cases.items():
        response = client.post("/v1/receipts/verify", json={"receipt": receipt})
        assert response.status_code == 200, (receipt, response.text)
        verdict = response.json()
        assert (verdict["valid"], verdict["reason"]) == (False, reason), receipt
        assert verdict["payload"] is None
        assert verdict["detail"]


receipts = st.text(min_size=1, max_size=300) | st.lists(
    st.text(alphabet="AZaz09-_=.+/ ", max_size=60), min_size=1, max_size=5
).map(".".join).filter(bool)
documents = st.none() | st.dictionaries(
    st.text(max_size=5),
    st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
    max_size=3,
)


def test_verify_never_fails_on_what_a_caller_sends(keyed):
    client, _ = keyed

    @settings(max_examples=200, deadline=None)
    @given(receipt=receipts, answer=documents, request=documents)
    def verify(receipt, answer, request):
        body = {"receipt": receipt, "answer": answer, "request": request}
        response = client.post("/v1/receipts/verify", json=body)
        assert response.status_code == 200, response.text
        assert response.json()["valid"] is False

    verify()


def test_verify_refuses_a_body_that_is_not_a_verification_request(keyed):
    client, _ = keyed
    for body in ({}, {"receipt": ""}, {"receipt": "a.b.c", "extra": 1}, {"receipt": 5}):
        response = client.post("/v1/receipts/verify", json=body)
        assert response.status_code == 400, body
        assert response.headers["content-type"].startswith("application/problem+json")


def test_readiness_says_whether_the_signing_keys_were_configured_or_generated(redis_url):
    with app_with(redis_url) as generated:
        ready = generated.get("/readyz").json()
        answer = post_check(generated, CHECK)
        jwks = generated.get("/.well-known/jwks.json").text
    assert ready["roll_signing_keys"] == "generated"
    assert "ROLL_SIGNING_KEYS" in ready["detail"]
    independently_verified(answer["receipt"], jwks)
    with app_with(redis_url, new_key()) as configured:
        ready = configured.get("/readyz").json()
    assert (ready["status"], ready["roll_signing_keys"], ready["detail"]) == (
        "ready",
        "configured",
        None,
    )


def test_a_generated_key_is_said_in_the_log(redis_url, capsys):
    with app_with(redis_url):
        pass
    events = [json.loads(line) for line in capsys.readouterr().err.splitlines() if "{" in line]
    generated = [e for e in events if e.get("event") == "roll signing key generated"]
    assert len(generated) == 1
    assert "ROLL_SIGNING_KEYS" in generated[0]["note"]


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("not json", "not JSON"),
        ("[]", "JSON array of 1 to 16"),
        ('[{"kty": "OKP", "crv": "Ed25519", "x": "AAAA"}]', "no 'd'"),
        ('[{"kty": "RSA", "d": "AAAA", "x": "AAAA"}]', "not an Ed25519 private JWK"),
    ],
)
def test_an_unusable_roll_signing_keys_stops_the_start_naming_the_variable(setting, message):
    with pytest.raises(SettingsError, match="ROLL_SIGNING_KEYS") as error:
        load_settings({"ROLL_SIGNING_KEYS": setting})
    assert message in str(error.value)


def test_a_key_listed_twice_or_with_another_kid_is_refused_without_showing_the_key():
    key = new_key()
    with pytest.raises(SettingsError, match="listed twice") as twice:
        load_settings({"ROLL_SIGNING_KEYS": json.dumps([key, key])})
    with pytest.raises(SettingsError, match="thumbprint") as renamed:
        load_settings({"ROLL_SIGNING_KEYS": json.dumps([key | {"kid": "my-key"}])})
    for error in (twice, renamed):
        assert key["d"] not in str(error.value)


def test_a_jwk_set_is_accepted_as_well_as_an_array(redis_url):
    key = new_key()
    settings_ = load_settings({"ROLL_SIGNING_KEYS": json.dumps({"keys": [key]})})
    app = create_app(
        Settings(redis_url=redis_url, roll_signing_keys=settings_.roll_signing_keys),
        rng=random.Random(1),
    )
    with TestClient(app) as client:
        kids = [k["kid"] for k in client.get("/.well-known/jwks.json").json()["keys"]]
    assert kids == [jwk.JWK(**key).thumbprint()]


def test_a_batch_signs_each_check_that_asks_with_its_own_item_as_the_request(keyed):
    client, _ = keyed
    plain = {name: value for name, value in CHECK.items() if name != "receipt"}
    items = [plain, {**CHECK, "roll": {"faces": [3]}}, {**CHECK, "dice": "3d6", "seed": 9}]
    response = client.post("/v1/checks/batch", json={"checks": items})
    assert response.status_code == 200, response.text
    results = response.json()["results"]
    jwks = client.get("/.well-known/jwks.json").text
    assert results[0]["receipt"] is None
    for item, result, source in zip(items[1:], results[1:], ("table", "seed"), strict=True):
        _, payload = independently_verified(result["receipt"], jwks)
        assert payload["operation"] == "resolveCheckBatch"
        assert payload["request_sha256"] == sha256(item)
        assert payload["answer_sha256"] == sha256(without_receipt(result))
        assert payload["dice_source"] == source
        assert payload["faces"] == ([] if source == "table" else result["faces"])


def test_a_receipt_is_byte_for_byte_the_compact_jws_pyjwt_writes():
    """The service writes the JWS itself (its header encoded once); Ed25519 is deterministic
    (RFC 8032 §5.1.6), so the token must be exactly what a JOSE library signs."""
    receipts = RollReceipts(RollKeys.generate())
    payload = ReceiptPayload(
        ruleset="bullseye", operation="resolveCheck", id="0123456789abcdef",
        time=datetime(2026, 1, 2, 3, 4, 5, 678901, tzinfo=UTC), request_sha256="a" * 64,
        faces=(7, 1, 10), answer_sha256="b" * 64, dice_source="server",
    )  # fmt: skip
    text = rfc8785.dumps(msgspec.to_builtins(payload))
    key = receipts.keys.signing
    headers = {"kid": key.kid, "typ": "JOSE"}

    assert receipts.sign(payload) == PyJWS().encode(
        text, key.private, algorithm="EdDSA", headers=headers
    )


@settings(max_examples=50, deadline=None)
@given(message=st.binary(max_size=2048))
def test_libsodiums_signature_is_cryptographys_and_verifies_with_its_public_key(message):
    """Receipts are signed by libsodium (PyNaCl) with the key cryptography loaded: the
    signature verifies with cryptography's public key, and is the one it would write."""
    key = RollKeys.generate().signing
    signature = key.sign(message)

    key.public.verify(signature, message)  # raises InvalidSignature if it does not hold
    assert signature == key.private.sign(message)


def test_a_key_from_roll_signing_keys_signs_as_cryptography_does():
    """The same for a key loaded from a private JWK (jwcrypto's), not one generated."""
    key = RollKeys.parse(json.dumps([new_key()])).signing
    message = b"eyJhbGciOiJFZERTQSJ9.e30"

    key.public.verify(key.sign(message), message)
    assert key.sign(message) == key.private.sign(message)
    assert key.secret.hex() not in repr(key)
