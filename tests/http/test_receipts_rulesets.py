"""Signed roll receipts (issue #26) on every other stateless operation whose dice the server
rolls: Self/Conflict's check, Quick Shot's gamble, travelogue's roll of the pools, OpenD6's
roll, opposed roll and initiative. As for Bullseye's checks (``test_receipts.py``, whose
helpers these reuse), each receipt is checked by jwcrypto against the served JWK Set and
its digests recomputed with the reference RFC 8785 library.

The faces a receipt signs are in rolling order; each answer lists them its own way:
Self/Conflict and Quick Shot in `faces`, as rolled; travelogue the Shooter's `shooter_dice`
then the Angel's `angel_dice`; OpenD6 groups a roll's `faces` by role (regular, Wild Die
chain, Character Point chains before, then after), which is the order they are rolled in;
an opposed roll is the initiator's roll then the resister's; initiative rolls each
participant in the request's listing order, whatever the order it answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from jwcrypto import jws
from litestar.testing import TestClient

from tests.http.test_receipts import (
    flip,
    independently_verified,
    payload_bytes,
    sha256,
    with_payload,
    without_receipt,
)

Answer = dict[str, Any]


def _opend6_faces(faces: dict[str, Any]) -> list[int]:
    """A roll's faces in rolling order: regular, Wild Die chain, CP chains before, after."""
    chains = [*faces["character_points"], *(faces["character_points_after"] or [])]
    return [*faces["regular"], *faces["wild"], *(face for chain in chains for face in chain)]


def _initiative_faces(answer: Answer, body: dict[str, Any]) -> list[int]:
    rolls = {place["participant"]: place["roll"] for place in answer["order"]}
    return [
        face
        for entrant in body["participants"]
        if rolls[entrant["id"]] is not None
        for face in _opend6_faces(rolls[entrant["id"]]["faces"])
    ]


@dataclass(frozen=True)
class Operation:
    """One rolling operation: a body the server rolls for, one whose faces the table
    supplies, and how its answer lists the faces in rolling order."""

    ruleset: str
    operation: str
    path: str
    body: dict[str, Any]
    table: dict[str, Any]
    faces: Callable[[Answer, dict[str, Any]], list[int]]
    seed: Callable[[dict[str, Any], int], dict[str, Any]] = lambda body, seed: {
        **body,
        "seed": seed,
    }
    odds: bool = True  # the answer has `odds` (with `with_odds`)


QUICK_SHOT_BODY = {"actions": [{"difficulty": "common"}], "wp_bet": 0}
POOLS = {
    "shooter": {"aim": 2, "ammo": 3},
    "angel": {"aim": 3, "ammo": 2},
    "stats": {"avoid": 2, "armor": 1, "angel": 3, "allies": 2},
}
OPENED6_ROLL = {"base": {"type": "skill", "code": "3D+1"}, "character_points": {"before": 1}}
INITIATOR = {"base": {"type": "skill", "code": "4D+1"}}
RESISTER = {"base": {"type": "attribute", "code": "3D"}, "character_points": {"before": 1}}
PARTICIPANTS = [
    {"id": "urchin", "name": "Urchin", "acumen": "2D", "agility": "3D"},
    {"id": "knight", "name": "Knight", "acumen": "3D", "agility": "2D", "total": 8},
    {"id": "witch", "name": "Witch", "acumen": "4D", "agility": "2D"},
]

OPERATIONS = {
    "self-conflict": Operation(
        "self-conflict",
        "selfConflictCheck",
        "/v1/self-conflict/checks",
        {"talent": {"level": 3}},
        {"talent": {"level": 3}, "faces": [1, 5]},
        lambda answer, _: answer["faces"],
    ),
    "quick-shot": Operation(
        "quick-shot",
        "quickShotGamble",
        "/v1/quick-shot/gambles",
        QUICK_SHOT_BODY,
        {**QUICK_SHOT_BODY, "faces": [1, 2, 3, 4, 5, 6, 7, 8]},
        lambda answer, _: answer["faces"],
    ),
    "travelogue": Operation(
        "travelogue",
        "travelogueRoll",
        "/v1/travelogue/rolls",
        POOLS,
        {**POOLS, "faces": {"shooter": [1, 4, 6], "angel": [2, 3]}},
        lambda answer, _: [d["face"] for d in (*answer["shooter_dice"], *answer["angel_dice"])],
    ),
    "opend6-roll": Operation(
        "opend6",
        "openD6Roll",
        "/v1/opend6/rolls",
        OPENED6_ROLL,
        {
            **OPENED6_ROLL,
            "faces": {"regular": [2, 5], "wild": [6, 3], "character_points": [[4]]},
        },
        lambda answer, _: _opend6_faces(answer["faces"]),
    ),
    "opend6-opposed": Operation(
        "opend6",
        "openD6Opposed",
        "/v1/opend6/opposed",
        {"initiator": INITIATOR, "resister": RESISTER},
        {
            "initiator": {**INITIATOR, "faces": {"regular": [1, 2, 3], "wild": [4]}},
            "resister": {
                **RESISTER,
                "faces": {"regular": [5, 6], "wild": [2], "character_points": [[6, 1]]},
            },
        },
        lambda answer, _: [
            *_opend6_faces(answer["initiator"]["roll"]["faces"]),
            *_opend6_faces(answer["resister"]["roll"]["faces"]),
        ],
        # Each side has its own seed; both seeded here.
        seed=lambda body, seed: (
            body
            | {
                "initiator": {**body["initiator"], "seed": seed},
                "resister": {**body["resister"], "seed": seed + 1},
            }
        ),
    ),
    "opend6-initiative": Operation(
        "opend6",
        "openD6Initiative",
        "/v1/opend6/initiative",
        {"participants": PARTICIPANTS},
        {
            "participants": [
                {**PARTICIPANTS[0], "faces": {"regular": [3], "wild": [5]}},
                PARTICIPANTS[1],
                {**PARTICIPANTS[2], "faces": {"regular": [1, 2, 6], "wild": [6, 2]}},
            ]
        },
        _initiative_faces,
        odds=False,
    ),
}
EVERY = pytest.mark.parametrize("op", OPERATIONS.values(), ids=OPERATIONS.keys())


def post(client: TestClient, op: Operation, body: dict[str, Any]) -> Answer:
    response = client.post(op.path, json=body)
    assert response.status_code == 200, response.text
    answer: Answer = response.json()
    return answer


def signed(client: TestClient, receipt: str) -> dict[str, Any]:
    """The payload of ``receipt``, verified by jwcrypto against the served JWK Set."""
    _, payload = independently_verified(receipt, client.get("/.well-known/jwks.json").text)
    return payload


@EVERY
def test_a_signed_answer_verifies_in_another_implementation_with_its_faces_in_rolling_order(
    keyed, op: Operation
) -> None:
    """Asked with its odds, so the receipt covers them: `receipt` comes last, after `odds`."""
    client, _ = keyed
    body = {**op.body, "receipt": True} | ({"with_odds": True} if op.odds else {})
    answer = post(client, op, body)
    payload = signed(client, answer["receipt"])
    del payload["time"]
    faces = op.faces(answer, body)
    assert faces  # the server rolled something
    assert payload == {
        "ruleset": op.ruleset,
        "operation": op.operation,
        "id": answer.get("id", ""),
        "request_sha256": sha256(body),
        "faces": faces,
        "answer_sha256": sha256(without_receipt(answer)),
        "dice_source": "server",
    }
    if op.odds:
        assert answer["odds"] is not None
        assert list(answer)[-2:] == ["odds", "receipt"]
    else:
        assert list(answer)[-1] == "receipt"


@EVERY
def test_a_seeded_answer_is_signed_with_the_seeds_faces_as_the_callers_dice(
    keyed, op: Operation
) -> None:
    client, _ = keyed
    body = op.seed({**op.body, "receipt": True}, 42)
    first, again = post(client, op, body), post(client, op, body)
    payload = signed(client, first["receipt"])
    assert payload["dice_source"] == "seed"
    assert payload["faces"] == op.faces(first, body) == op.faces(again, body)


@EVERY
def test_table_faces_are_signed_as_table_dice_with_no_face_rolled(keyed, op: Operation) -> None:
    client, _ = keyed
    body = {**op.table, "receipt": True}
    answer = post(client, op, body)
    payload = signed(client, answer["receipt"])
    assert (payload["dice_source"], payload["faces"]) == ("table", [])
    assert payload["answer_sha256"] == sha256(without_receipt(answer))
    assert payload["request_sha256"] == sha256(body)


def test_an_opposed_roll_with_one_sides_faces_is_table_dice_listing_the_other_sides_roll(
    keyed,
) -> None:
    """ "Opposed Difficulties": one receipt for both sides; `table` when either side's faces
    came from the table, its faces then only those the server rolled (the resister's)."""
    client, _ = keyed
    op = OPERATIONS["opend6-opposed"]
    body = {"initiator": op.table["initiator"], "resister": RESISTER, "receipt": True}
    answer = post(client, op, body)
    payload = signed(client, answer["receipt"])
    assert payload["dice_source"] == "table"
    assert payload["faces"] == _opend6_faces(answer["resister"]["roll"]["faces"])
    assert len(payload["faces"]) >= 4  # 2 regular, the Wild Die's chain, a CP chain


@EVERY
@pytest.mark.parametrize("asked", [{}, {"receipt": False}], ids=["absent", "false"])
def test_an_answer_not_asked_to_be_signed_carries_no_receipt(
    keyed, op: Operation, asked: dict[str, Any]
) -> None:
    client, _ = keyed
    assert post(client, op, {**op.body, **asked})["receipt"] is None


@EVERY
def test_one_byte_changed_in_the_answer_or_the_faces_fails_verification(
    keyed, op: Operation
) -> None:
    client, _ = keyed
    body = {**op.body, "receipt": True}
    answer = post(client, op, body)
    receipt = answer["receipt"]
    # One byte of the answer: a digit of a face it shows.
    assert sha256(without_receipt(answer)) == signed(client, receipt)["answer_sha256"]
    tampered = _with_a_face_changed(answer, op)
    assert sha256(without_receipt(tampered)) != sha256(without_receipt(answer))
    verdict = client.post(
        "/v1/receipts/verify", json={"receipt": receipt, "answer": tampered, "request": body}
    ).json()
    assert (verdict["valid"], verdict["reason"]) == (False, "answer-mismatch")
    # One byte of the signed faces.
    as_json = payload_bytes(receipt).decode()
    face_at = as_json.index('"faces":[') + len('"faces":[')
    changed = with_payload(receipt, flip(as_json, face_at).encode())
    with pytest.raises(jws.InvalidJWSSignature):
        signed(client, changed)
    verdict = client.post("/v1/receipts/verify", json={"receipt": changed}).json()
    assert (verdict["valid"], verdict["reason"]) == (False, "bad-signature")
    untouched = client.post(
        "/v1/receipts/verify", json={"receipt": receipt, "answer": answer, "request": body}
    ).json()
    assert (untouched["valid"], untouched["checked"]) == (True, ["signature", "answer", "request"])


def _changed(faces: list[int]) -> list[int]:
    return [1 if faces[0] != 1 else 2, *faces[1:]]


def _roll_changed(roll: dict[str, Any]) -> dict[str, Any]:
    faces = roll["faces"]
    return roll | {"faces": faces | {"wild": _changed(faces["wild"])}}


def _with_a_face_changed(answer: Answer, op: Operation) -> Answer:
    """``answer`` with one face it rolled changed (a Wild Die's, for OpenD6)."""
    if op.operation in {"selfConflictCheck", "quickShotGamble"}:
        return answer | {"faces": _changed(answer["faces"])}
    if op.operation == "travelogueRoll":
        first, *rest = answer["shooter_dice"]
        changed = first | {"face": _changed([first["face"]])[0]}
        return answer | {"shooter_dice": [changed, *rest]}
    if op.operation == "openD6Roll":
        return _roll_changed(answer)
    if op.operation == "openD6Opposed":
        side = answer["initiator"]
        return answer | {"initiator": side | {"roll": _roll_changed(side["roll"])}}
    order = list(answer["order"])
    rolled = next(index for index, place in enumerate(order) if place["roll"] is not None)
    order[rolled] = order[rolled] | {"roll": _roll_changed(order[rolled]["roll"])}
    return answer | {"order": order}
