"""Signed roll receipts: what a rolling answer carries when its request asks
(``receipt: true``), and how one is checked.

A receipt is a compact JWS (RFC 7515), ``alg`` ``EdDSA`` with Ed25519 (RFC 8037), ``kid`` the
signing key's RFC 7638 thumbprint, whose payload is the RFC 8785 JSON of
:class:`ReceiptPayload`. ``docs/verifiable-rolls.md`` says what it proves and how to verify
one offline. A handler adopts it with a request field, an answer field
(``service.kernel.receipts``) and two calls::

    dice = receipt_dice(rng, data.receipt)         # rng itself unless a receipt is asked
    answer = resolve_check(data, dice, new_id())
    return await with_receipt(answer, dice, request, ruleset=..., operation=..., table=...)

Neither touches anything but ``rng`` unless a receipt was asked: the app's
:class:`RollReceipts` is read from its state then (``receipts_of``), not injected, since a
second injected dependency makes Litestar resolve them in a task group on every request.
"""

from __future__ import annotations

import asyncio
import binascii
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

import msgspec
from jwt import PyJWS, get_unverified_header
from jwt.exceptions import InvalidSignatureError, PyJWTError
from msgspec import Meta

from service.http.receipts.canonical import (
    NotCanonicalizableError,
    canonical_json,
    canonical_sha256,
    canonical_sha256_without,
    json_sha256,
)
from service.kernel.bounds import Timestamp
from service.kernel.dice import RandomSource, RecordingDice
from service.kernel.receipts import DiceSource
from service.kernel.values import Value

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from litestar import Request

    from service.http.receipts.published_keys import PublishedKeys
    from service.http.receipts.roll_keys import Jwks, RollKeys

__all__ = [
    "ALGORITHM",
    "ReceiptPayload",
    "RollReceipts",
    "Verdict",
    "VerdictReason",
    "receipt_dice",
    "receipts_of",
    "with_receipt",
]

ALGORITHM = "EdDSA"
Sha256 = Annotated[
    str,
    Meta(
        pattern="^[0-9a-f]{64}$",
        description="A SHA-256 digest, lower-case hex.",
        examples=["2fd3bcb2dce7a37bc9f38ebaade0484772a6e6e3d39fd3d484649c8fd0c7f653"],
    ),
]
A = TypeVar("A", bound=msgspec.Struct)


class ReceiptPayload(Value, frozen=True, kw_only=True):
    """What a receipt signs (its JWS payload, as RFC 8785 JSON)."""

    ruleset: Annotated[str, Meta(description="The ruleset's id, as `GET /v1/rulesets` lists.")]
    operation: Annotated[str, Meta(description="The operation id that answered.")]
    id: Annotated[str, Meta(description="The answer's `id`.")]
    time: Annotated[Timestamp, Meta(description="When the answer was signed (UTC).")]
    request_sha256: Annotated[
        Sha256,
        Meta(
            description="A SHA-256 digest (lower-case hex) of the RFC 8785 form of the "
            "request body, as sent."
        ),
    ]
    faces: Annotated[
        tuple[int, ...],
        Meta(
            description="Every face the server's dice gave for this answer, in rolling order "
            "(empty when the table supplied the faces, or nothing was rolled)."
        ),
    ]
    answer_sha256: Annotated[
        Sha256,
        Meta(
            description="A SHA-256 digest (lower-case hex) of the RFC 8785 form of the "
            "answer without its `receipt`."
        ),
    ]
    dice_source: Annotated[
        DiceSource,
        Meta(
            description="Who chose the faces: `server`, the service's own generator; `seed`, "
            "the request's `seed` (reproducible: whoever sent it could have picked it for its "
            "faces); `table`, the request supplied them. With `seed` or `table` the receipt "
            "attests the service's arithmetic, not the dice."
        ),
    ]


VerdictReason = Literal[
    "malformed",
    "unsupported-algorithm",
    "unknown-kid",
    "bad-signature",
    "not-a-receipt",
    "answer-mismatch",
    "request-mismatch",
]
Checked = Literal["signature", "answer", "request"]


class Verdict(Value, frozen=True, kw_only=True):
    """Whether a receipt holds, and why not."""

    valid: bool
    reason: Annotated[
        VerdictReason | None,
        Meta(
            description="Why the receipt does not hold (null when it does): `malformed` (not "
            "a compact JWS), `unsupported-algorithm` (not EdDSA), `unknown-kid` (no published "
            "key has that id), `bad-signature`, `not-a-receipt` (signed, but not a receipt's "
            "payload), `answer-mismatch` / `request-mismatch` (the document given is not the "
            "one signed)."
        ),
    ]
    detail: Annotated[str, Meta(description="The verdict in a sentence.")]
    kid: Annotated[str | None, Meta(description="The key the receipt names, if readable.")]
    checked: Annotated[
        tuple[Checked, ...],
        Meta(
            description="What was checked and held, in order: the signature, then the "
            "answer's and the request's digests when they were given."
        ),
    ]
    payload: Annotated[
        ReceiptPayload | None,
        Meta(description="What the receipt signs, once its signature holds; else null."),
    ]


# A receipt waiting for its turn's end: the future its handler awaits, then signed's arguments.
_Asked = tuple["asyncio.Future[Any]", msgspec.Struct, RandomSource, Any, str, str, bool]


class _Turn:
    """The receipts asked in one turn of an event loop."""

    __slots__ = ("asked", "waiting")

    def __init__(self) -> None:
        self.asked = 0
        self.waiting: list[_Asked] = []


_BASE64URL = bytes.maketrans(b"+/", b"-_")
_SAFE_INTEGER = 2**53 - 1


def _base64url(data: bytes) -> bytes:
    """RFC 7515 §2 base64url: the URL-safe alphabet, no padding."""
    return binascii.b2a_base64(data, newline=False).translate(_BASE64URL).rstrip(b"=")


class RollReceipts:
    """Signs and checks receipts with the app's :class:`RollKeys`; with generated keys,
    also checks those of every replica that publishes its own (``published``,
    ``service.http.receipts.published_keys``).

    Signing writes the compact JWS itself (RFC 7515 §7.1: the header's and the payload's
    base64url, then the Ed25519 signature of both, :meth:`RollKey.sign`): the header is the
    same for every receipt, so it is encoded once, and going through PyJWT would cost more
    than the signature. PyJWT reads receipts (:meth:`verify`), and a test checks a token is
    byte for byte PyJWT's.
    """

    __slots__ = ("_busy", "_jws", "_sign", "_signing_prefix", "_turns", "keys", "published")

    def __init__(self, keys: RollKeys, published: PublishedKeys | None = None) -> None:
        self.keys = keys
        self.published = published
        self._jws = PyJWS()
        # Per event loop (tests may drive one app from two): the receipts asked this turn.
        self._turns: dict[asyncio.AbstractEventLoop, _Turn] = {}
        self._busy = False  # the last turn that ended asked for more than one receipt
        header = {"alg": ALGORITHM, "kid": keys.signing.kid, "typ": "JOSE"}
        self._signing_prefix = _base64url(canonical_json(header, floats=False)) + b"."
        self._sign = keys.signing.sign

    def sign(self, payload: ReceiptPayload) -> str:
        """``payload`` as a compact JWS, signed with the first key."""
        # Its type holds no float, and its only integers are faces: the digests' hex may
        # have sixteen digits in a row, but no integer that long.
        large = max(map(abs, payload.faces), default=0) > _SAFE_INTEGER
        text = canonical_json(payload, floats=False, large_integers=large)
        signing_input = self._signing_prefix + _base64url(text)
        return (signing_input + b"." + _base64url(self._sign(signing_input))).decode()

    def receipt(
        self,
        answer: msgspec.Struct,
        dice: RecordingDice,
        request: Any,
        *,
        ruleset: str,
        operation: str,
        table: bool,
    ) -> str:
        """The receipt of ``answer`` (whose ``receipt`` is left out of its digest).

        ``request`` is the request body as received (bytes), or as decoded JSON (the item
        of a batch). ``dice`` recorded the faces the server's dice gave, in rolling order.
        """
        source: DiceSource = "table" if table else "seed" if dice.seeded else "server"
        request_sha256 = (
            json_sha256(request) if isinstance(request, bytes) else canonical_sha256(request)
        )
        payload = ReceiptPayload(
            ruleset=ruleset,
            operation=operation,
            id=str(getattr(answer, "id", "")),
            time=datetime.now(UTC),
            request_sha256=request_sha256,
            faces=tuple(dice.faces),
            answer_sha256=canonical_sha256_without(answer, "receipt"),
            dice_source=source,
        )
        return self.sign(payload)

    def signed(
        self,
        answer: A,
        dice: RandomSource,
        request: Any,
        *,
        ruleset: str,
        operation: str,
        table: bool,
    ) -> A:
        """``answer`` with its ``receipt`` when ``dice`` recorded (:func:`receipt_dice`), else
        ``answer`` itself. ``request``: the request body (bytes) or the decoded JSON of the
        part of it this answer answers (a batch's item); ``table``: it supplied the faces."""
        if not isinstance(dice, RecordingDice):
            return answer
        token = self.receipt(
            answer, dice, request, ruleset=ruleset, operation=operation, table=table
        )
        return msgspec.structs.replace(answer, receipt=token)

    async def in_turn(
        self,
        answer: A,
        dice: RecordingDice,
        request: Any,
        *,
        ruleset: str,
        operation: str,
        table: bool,
    ) -> A:
        """:meth:`signed`, at once when the event loop is quiet, else together with the other
        receipts asked in this turn of the loop, one after another as soon as it ends.

        Under load a turn hands many answers to sign: signed back to back, they find the
        signer's code and tables still in the cache, where a signature between two requests'
        work finds them evicted (docs/verifiable-rolls.md, "Cost"). Waiting for the turn's
        end costs a lone request more than that saves, so the loop counts as quiet, and the
        first receipt of a turn is signed at once, until a turn asks for two.
        """
        loop = asyncio.get_running_loop()
        turn = self._turns.get(loop)
        if turn is None:
            turn = self._turns[loop] = _Turn()
            loop.call_soon(self._sign_turn, loop)
        turn.asked += 1
        if turn.asked == 1 and not self._busy:
            return self.signed(
                answer, dice, request, ruleset=ruleset, operation=operation, table=table
            )
        future: asyncio.Future[A] = loop.create_future()
        turn.waiting.append((future, answer, dice, request, ruleset, operation, table))
        return await future

    def _sign_turn(self, loop: asyncio.AbstractEventLoop) -> None:
        turn = self._turns.pop(loop)
        self._busy = turn.asked > 1
        for future, answer, dice, request, ruleset, operation, table in turn.waiting:
            if future.cancelled():  # its client went away
                continue
            try:
                signed = self.signed(
                    answer, dice, request, ruleset=ruleset, operation=operation, table=table
                )
            except Exception as error:  # that answer's failure, not the others'
                future.set_exception(error)
            else:
                future.set_result(signed)

    def jwks(self) -> Jwks:
        """The keys ``/.well-known/jwks.json`` publishes: the own ones, signing first, then
        the other replicas' (with generated keys)."""
        return self.keys.jwks() if self.published is None else self.published.jwks()

    def public_key(self, kid: str) -> Ed25519PublicKey | None:
        """The key a receipt naming ``kid`` is checked with, if one is known."""
        if self.published is not None:
            return self.published.by_kid(kid)
        key = self.keys.by_kid(kid)
        return None if key is None else key.public

    def verify(self, token: str, answer: Any = None, request: Any = None) -> Verdict:
        """Check ``token`` against the published keys, and the digests of ``answer`` and
        ``request`` (decoded JSON) when given. Never raises for what a caller sends."""
        try:
            header = get_unverified_header(token)
        except (PyJWTError, ValueError, TypeError):
            return _refused("malformed", "Not a compact JWS (header.payload.signature).", None)
        kid = header.get("kid")
        kid = kid if isinstance(kid, str) else None
        if header.get("alg") != ALGORITHM:
            detail = f"Receipts are signed with EdDSA, not {header.get('alg')!r}."
            return _refused("unsupported-algorithm", detail, kid)
        public = None if kid is None else self.public_key(kid)
        if public is None:
            detail = "No published key has this kid (see /.well-known/jwks.json)."
            return _refused("unknown-kid", detail, kid)
        try:
            decoded = self._jws.decode_complete(token, public, algorithms=[ALGORITHM])
        except InvalidSignatureError:
            return _refused("bad-signature", "The signature does not match the content.", kid)
        except (PyJWTError, ValueError, TypeError):
            return _refused("malformed", "The JWS cannot be read.", kid)
        try:
            payload = msgspec.json.decode(decoded["payload"], type=ReceiptPayload)
        except (msgspec.DecodeError, RecursionError):
            return _refused("not-a-receipt", "Signed, but not a roll receipt's payload.", kid)
        checked: list[Checked] = ["signature"]
        for name, document, signed in (
            ("answer", answer, payload.answer_sha256),
            ("request", request, payload.request_sha256),
        ):
            if document is None:
                continue
            if name == "answer" and isinstance(document, dict):
                document = {key: value for key, value in document.items() if key != "receipt"}
            try:
                matches = canonical_sha256(document) == signed
            except NotCanonicalizableError:
                matches = False
            if not matches:
                reason: VerdictReason = (
                    "answer-mismatch" if name == "answer" else "request-mismatch"
                )
                detail = f"The receipt holds, but it signs another {name} than the one given."
                return _refused(reason, detail, kid, payload, tuple(checked))
            checked.append("answer" if name == "answer" else "request")
        return Verdict(
            valid=True,
            reason=None,
            detail="The receipt holds: signed by a published key"
            + "".join(f", for this {what}" for what in checked[1:])
            + ".",
            kid=kid,
            checked=tuple(checked),
            payload=payload,
        )


def receipt_dice(rng: RandomSource, asked: bool) -> RandomSource:
    """The dice a handler rolls with: ``rng``, recorded when a receipt is asked."""
    return RecordingDice(rng) if asked else rng


def receipts_of(request: Request[Any, Any, Any]) -> RollReceipts:
    """The app's receipt signer (``create_app`` keeps it in the app's state; read as an
    item, since reading it as an attribute raises and catches an AttributeError first)."""
    receipts: RollReceipts = request.app.state["receipts"]
    return receipts


async def with_receipt(
    answer: A,
    dice: RandomSource,
    request: Request[Any, Any, Any],
    *,
    ruleset: str,
    operation: str,
    table: bool,
) -> A:
    """``answer`` with its ``receipt`` when ``dice`` recorded (:func:`receipt_dice`), the
    request as the body it was received with (on a busy event loop, signed with the others
    of this turn, :meth:`RollReceipts.in_turn`); else ``answer`` itself, at no cost.
    ``table``: the request supplied the faces."""
    if not isinstance(dice, RecordingDice):
        return answer
    body = await request.body()
    return await receipts_of(request).in_turn(
        answer, dice, body, ruleset=ruleset, operation=operation, table=table
    )


def _refused(
    reason: VerdictReason,
    detail: str,
    kid: str | None,
    payload: ReceiptPayload | None = None,
    checked: tuple[Checked, ...] = (),
) -> Verdict:
    return Verdict(
        valid=False, reason=reason, detail=detail, kid=kid, checked=checked, payload=payload
    )
