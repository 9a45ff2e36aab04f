"""Routes every ruleset's receipts share: the public keys and a verifier for clients
without a JOSE library."""

from __future__ import annotations

import asyncio
import time
from typing import Annotated, Any

import msgspec
from litestar import Controller, Request, get, post
from litestar.datastructures import ResponseHeader
from litestar.openapi.spec import Example
from litestar.params import Body
from litestar.response import Response
from msgspec import Meta

from service.http.contract.body import StrictJson
from service.http.contract.problems import problem_responses
from service.http.receipts.published_keys import MAX_PERIOD_SECONDS
from service.http.receipts.roll_keys import Jwks
from service.http.receipts.signing import RollReceipts, Verdict, receipts_of
from service.kernel.receipts import MAX_RECEIPT_LENGTH
from service.kernel.values import Value

__all__ = ["INLINE_VERIFY_BYTES", "JWKS_MAX_AGE_SECONDS", "ReceiptController", "VerifyRequest"]

# How long a client may keep the key set of configured keys: a rotation publishes a new
# key this long before it signs (docs/verifiable-rolls.md, "Keys and rotation"). Generated
# keys change the set whenever a replica starts: one heartbeat's period (service.http.
# published_keys, 10 s at most).
JWKS_MAX_AGE_SECONDS = 300

# Any JSON object (said so, so generated clients type it as one, not as an empty object).
JsonObject = Annotated[dict[str, Any], Meta(extra_json_schema={"additionalProperties": True})]


class VerifyRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A receipt to check, with the documents it should sign."""

    receipt: Annotated[
        str,
        Meta(
            min_length=1,
            max_length=MAX_RECEIPT_LENGTH,
            description="The compact JWS an answer carried as `receipt`.",
        ),
    ]
    answer: Annotated[
        JsonObject | None,
        Meta(
            description="The answer as received (its own `receipt` member is left out of the "
            "digest): checked against the receipt's `answer_sha256`."
        ),
    ] = None
    request: Annotated[
        JsonObject | None,
        Meta(
            description="The request body as sent: checked against the receipt's `request_sha256`."
        ),
    ] = None


_EXAMPLE_RECEIPT = (
    "eyJhbGciOiJFZERTQSIsImtpZCI6Im5vdC1hLXB1Ymxpc2hlZC1rZXkiLCJ0eXAiOiJKT1NFIn0"
    ".eyJmYWNlcyI6WzEzXX0"
    ".c2lnbmF0dXJl"
)
VERIFY_EXAMPLES = [
    Example(
        summary="A receipt, its answer and its request",
        description="A receipt whose key is not published here: valid is false, reason "
        "unknown-kid. Paste a real answer's receipt, the answer and the request.",
        value={
            "receipt": _EXAMPLE_RECEIPT,
            "answer": {"id": "4f1c2b0e9d8a4c7b8e6f5a4b3c2d1e0f", "faces": [13]},
            "request": {"target": 12, "receipt": True},
        },
    )
]

# A body past this size is verified on a worker thread. Behind a genuine signature, the
# digests put its documents in RFC 8785 form: up to about 0.5 µs a byte (floats, characters
# beyond U+FFFF take the pure-Python reference), some 30 ms at the body limit, which the
# event loop should not wait for. A receipt with its answer and request is about 3 KiB and
# stays inline (docs/input-costs.md).
INLINE_VERIFY_BYTES = 4096

_VERIFY_DESCRIPTION = """\
Checks a roll receipt (the `receipt` of an answer whose request asked `receipt: true`)
for clients without a JOSE library: the compact JWS's EdDSA signature against the keys at
`/.well-known/jwks.json`, then, when given, the SHA-256 of the RFC 8785 form of the answer
(without its `receipt`) and of the request against the digests the receipt signs.

Always 200 for a readable body: `valid`, and when not, a `reason` — `malformed`,
`unsupported-algorithm`, `unknown-kid`, `bad-signature`, `not-a-receipt`,
`answer-mismatch` or `request-mismatch`. A receipt vouches for the service's arithmetic;
with `dice_source: table` it does not vouch for the dice (docs/verifiable-rolls.md).
Without ROLL_SIGNING_KEYS, a kid this server has not seen yet is looked up among the keys
other replicas publish before the answer is `unknown-kid`.
"""
_UNREAD_DETAIL = (
    "No key known here has this kid; the keys other replicas publish could not be read "
    "just now (Redis): retry later."
)


class ReceiptController(Controller):
    """Roll receipts: keys and verification."""

    tags = ["receipts"]

    @get(
        "/.well-known/jwks.json",
        operation_id="getRollSigningKeys",
        summary="The public keys that sign roll receipts (JWK Set)",
        description="Every Ed25519 key whose receipts verify (RFC 7517 JWK Set; `kid` is the "
        "key's RFC 7638 thumbprint, `alg` EdDSA): the signing key first, then keys kept "
        "after a rotation. Without ROLL_SIGNING_KEYS each replica signs with a key of its "
        "own: this one's first, then every other replica's that is running or stopped "
        "within ROLL_KEY_RETENTION_SECONDS. Public, no API key. Cacheable for "
        f"{JWKS_MAX_AGE_SECONDS} s with ROLL_SIGNING_KEYS, else for "
        f"{MAX_PERIOD_SECONDS:g} s at most (a new replica's key is here within that).",
        sync_to_thread=False,
        response_headers=[ResponseHeader(name="Cache-Control", documentation_only=True)],
    )
    def jwks(self, request: Request[Any, Any, Any]) -> Response[Jwks]:
        """The published keys."""
        receipts = receipts_of(request)
        published = receipts.published
        age = JWKS_MAX_AGE_SECONDS if published is None else published.max_age
        return Response(receipts.jwks(), headers={"Cache-Control": f"public, max-age={age}"})

    @post(
        "/v1/receipts/verify",
        operation_id="verifyReceipt",
        summary="Verify a roll receipt",
        description=_VERIFY_DESCRIPTION,
        dto=StrictJson[VerifyRequest],
        return_dto=None,
        status_code=200,
        responses=problem_responses(400, 413, 415),
    )
    async def verify(
        self,
        data: Annotated[VerifyRequest, Body(examples=VERIFY_EXAMPLES)],
        request: Request[Any, Any, Any],
    ) -> Verdict:
        """Whether the receipt holds, and why not."""
        receipts = receipts_of(request)
        arrived = time.monotonic()
        inline = len(await request.body()) <= INLINE_VERIFY_BYTES
        verdict = await _verdict(receipts, data, inline)
        published = receipts.published
        if (
            verdict.reason != "unknown-kid"
            or published is None
            or not published.worth_asking(verdict.kid)
        ):
            return verdict
        # Another replica's key this worker has not read yet: read once, then answer.
        if not await published.refresh(arrived):
            return msgspec.structs.replace(verdict, detail=_UNREAD_DETAIL)
        return await _verdict(receipts, data, inline)


async def _verdict(receipts: RollReceipts, data: VerifyRequest, inline: bool) -> Verdict:
    if inline:
        return receipts.verify(data.receipt, data.answer, data.request)
    return await asyncio.to_thread(receipts.verify, data.receipt, data.answer, data.request)
