"""The two fields a rolling operation carries to offer a signed roll receipt.

A request that can roll adds ``receipt: ReceiptWanted = False``; its answer adds
``receipt: Receipt = None``. The shell (``service.http.receipts.signing``) signs the answer when
asked; see ``docs/verifiable-rolls.md``.
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta

__all__ = [
    "MAX_RECEIPT_LENGTH",
    "DiceSource",
    "Receipt",
    "ReceiptWanted",
    "ReceiptsAsked",
    "SessionReceipt",
]

# A receipt's payload holds two digests, a time, ids and the faces rolled: well under this.
MAX_RECEIPT_LENGTH = 16384

# Who chose the faces a receipt vouches for: the server's own generator; the caller's
# ``seed`` (reproducible, so the caller could have picked it for its faces); or the table
# (faces supplied in the request). With ``seed`` and ``table`` a receipt attests the
# service's arithmetic, not the dice.
DiceSource = Literal["server", "seed", "table"]

ReceiptWanted = Annotated[
    bool,
    Meta(
        description="Sign the answer: its `receipt` is then a compact JWS (EdDSA, keys at "
        "`/.well-known/jwks.json`) over the digests of this request and of the answer and "
        "the faces rolled, in rolling order. Costs about one Ed25519 signature."
    ),
]

Receipt = Annotated[
    Annotated[str, Meta(max_length=MAX_RECEIPT_LENGTH)] | None,
    Meta(
        description="The signed roll receipt when the request asked for one (`receipt: "
        "true`), else null. Verify it with the keys at `/.well-known/jwks.json` or at "
        "`POST /v1/receipts/verify`.",
    ),
]

# A session action's answer: asked once, at the session's creation (service.sessions.receipts).
SessionReceipt = Annotated[
    Annotated[str, Meta(max_length=MAX_RECEIPT_LENGTH)] | None,
    Meta(
        description="The signed roll receipt of this action when the session was created "
        "with `receipts: true` and the action rolled the server's dice; else null. Its "
        "payload's `id` is `<session id>:<version this action made>`. Never kept in the "
        "session's state or history: only this answer (and its Idempotency-Key replay) "
        "carries it. Verify it with the keys at `/.well-known/jwks.json` or at "
        "`POST /v1/receipts/verify`."
    ),
]

# A session's view: whether it was created with ``receipts: true`` (service.sessions.receipts).
ReceiptsAsked = Annotated[
    bool,
    Meta(
        description="Whether the session was created with `receipts: true`: then every "
        "action that rolls its server dice answers a signed `receipt`. Fixed for the "
        "session (a session without the server's dice cannot ask)."
    ),
]
