"""Signed roll receipts for a session's actions (docs/verifiable-rolls.md, "Session
receipts"), asked once at creation (``receipts: true``) for every action of the session.

The session's state keeps the wish (a ``receipts`` field on each kind's state, read here as
``fairness_of`` reads ``fairness``); :class:`~service.sessions.dice.SessionDice` records the
faces of an attempt only then; after a step that drew faces the engine signs its answer
(:func:`signed_answer`) before storing it, so an ``Idempotency-Key`` replay answers the
same receipt. A receipt lives only in the answer: never in the state, history or events.

The payload is the stateless receipts' (``service.http.receipts.signing``): its ``id`` is the
session's id and the version this action made, ``<id>:<version>`` (a session answer has no
id of its own, and the version names the one write the answer belongs to); its request
digest is of the action's body (the SHA-256 of no bytes when the action has none).
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from msgspec import Meta

from service.http.receipts.canonical import (
    canonical_sha256,
    canonical_sha256_without,
    json_sha256,
    never_holds_floats,
)
from service.http.receipts.signing import ReceiptPayload, RollReceipts
from service.kernel.receipts import SessionReceipt
from service.kernel.values import Value

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "SESSION_RECEIPTS_DESCRIPTION",
    "ReceiptsWanted",
    "SessionReceipt",
    "receipts_asked",
    "signed_answer",
]

ReceiptsWanted = Annotated[
    bool,
    Meta(
        description="Sign every answer of this session whose action rolled the server's "
        "dice: its `receipt` is then a compact JWS (EdDSA, keys at "
        "`/.well-known/jwks.json`) over the digests of the action's request and answer and "
        'the faces rolled, in rolling order (docs/verifiable-rolls.md, "Session '
        'receipts"). Fixed for the session; costs about one Ed25519 signature per rolling '
        "action, nothing when false. Only for a session that rolls the server's dice "
        "(else 422 `receipts-without-server-dice`)."
    ),
]

# How every kind of session with server dice documents its receipts at its creation route.
SESSION_RECEIPTS_DESCRIPTION = (
    " **Session receipts** (`receipts: true`, docs/verifiable-rolls.md): every later "
    "action that rolls the server's dice answers a signed `receipt` (a compact EdDSA JWS, "
    "as a stateless roll's) over its request, its answer without the receipt and the faces "
    "it drew, in rolling order; its payload's `id` is `<session id>:<version the action "
    "made>`. The receipt is part of the answer an `Idempotency-Key` replays, and is never "
    "kept in the session's state or history. Any other answer says `receipt: null`. The "
    "session's `receipts` says whether it was asked. A session that never rolls the "
    "server's dice (the table's dice, or a travelogue game with a public `seed`) has "
    "nothing to sign: `receipts: true` for it is 422 `receipts-without-server-dice` at "
    "`/receipts`, as client seeds for it are 422 `client-seeds-without-server-dice`."
)

_EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
_json = msgspec.json.Encoder()


def receipts_asked(state: Value) -> bool:
    """Whether the session was created with ``receipts: true`` (every kind's state has a
    ``receipts`` field; one stored by an earlier release decodes with false)."""
    return getattr(state, "receipts", False) is True


def signed_answer(
    receipts: RollReceipts,
    body: object,
    faces: Sequence[int],
    request_body: bytes,
    *,
    ruleset: str,
    operation: str,
    answer_id: str,
) -> bytes:
    """The JSON of ``body`` (an object) with its ``receipt``, signed over ``body`` without
    it: set on a Struct that declares the field, else added as the object's last member."""

    def token(answer_sha256: str) -> str:
        return receipts.sign(
            ReceiptPayload(
                ruleset=ruleset,
                operation=operation,
                id=answer_id,
                time=datetime.now(UTC),
                request_sha256=json_sha256(request_body) if request_body.strip() else _EMPTY_SHA256,
                faces=tuple(faces),
                answer_sha256=answer_sha256,
                dice_source="server",
            )
        )

    if isinstance(body, msgspec.Struct) and "receipt" in body.__struct_fields__:
        signed = token(canonical_sha256_without(body, "receipt"))
        return _json.encode(msgspec.structs.replace(body, receipt=signed))
    node: Any = msgspec.to_builtins(body, str_keys=True)
    if not isinstance(node, dict):
        raise TypeError(f"A session answer to sign is a JSON object, not {type(body)}")
    node.pop("receipt", None)
    floats = not (isinstance(body, msgspec.Struct) and never_holds_floats(type(body)))
    node["receipt"] = token(canonical_sha256(node, floats=floats))
    return _json.encode(node)
