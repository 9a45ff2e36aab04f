"""Receipts asked while the event loop is busy are signed together once its turn ends
(``RollReceipts.in_turn``, docs/verifiable-rolls.md, "Cost"); on a quiet loop at once. Either
way each answer gets the receipt of its own answer, request and faces, and one that cannot
be signed fails alone."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from service.app import create_app
from service.http.contract.context import new_id
from service.http.receipts.canonical import NotCanonicalizableError
from service.http.receipts.roll_keys import RollKeys
from service.http.receipts.signing import RollReceipts
from service.kernel.dice import RecordingDice
from service.rulesets.bullseye.rules.checks import CheckRequest, resolve_check
from service.settings import Settings
from tests.http.test_receipts import (
    CHECK,
    independently_verified,
    new_key,
    sha256,
    without_receipt,
)
from tests.support.asgi import post_scope


def _asked(target: int) -> tuple[msgspec.Struct, RecordingDice, bytes]:
    """A signed check's answer, the dice that rolled it and its body."""
    body = {**CHECK, "target": target}
    dice = RecordingDice(random.Random(target))
    answer = resolve_check(msgspec.convert(body, CheckRequest), dice, new_id())
    return answer, dice, json.dumps(body).encode()


def _holds(jwks: str, sent: dict[str, Any], request: Any) -> dict[str, Any]:
    """The payload of the answer ``sent``'s receipt, verified by jwcrypto, once it is seen
    to sign this answer (without its receipt) and this request (decoded JSON)."""
    _, payload = independently_verified(sent["receipt"], jwks)
    assert payload["answer_sha256"] == sha256(without_receipt(sent))
    assert payload["request_sha256"] == sha256(request)
    assert payload["id"] == sent["id"]
    return payload


def _checked(receipts: RollReceipts, answer: msgspec.Struct, body: bytes, faces: list[int]) -> None:
    """The answer's receipt holds for this answer, body and faces."""
    jwks = msgspec.json.encode(receipts.keys.jwks()).decode()
    payload = _holds(jwks, msgspec.to_builtins(answer), json.loads(body))
    assert payload["faces"] == faces


SIGN: dict[str, Any] = {"ruleset": "bullseye", "operation": "resolveCheck", "table": False}


def test_receipts_asked_in_one_turn_are_each_signed_for_their_own_answer():
    receipts = RollReceipts(RollKeys.generate())

    async def turn() -> None:
        asked = [_asked(target) for target in range(8, 14)]
        signed = await asyncio.wait_for(
            asyncio.gather(*(receipts.in_turn(*each, **SIGN) for each in asked)), 10
        )
        for (_, dice, body), answer in zip(asked, signed, strict=True):
            _checked(receipts, answer, body, dice.faces)

    asyncio.run(turn())


def test_a_quiet_loop_signs_at_once_and_a_busy_one_once_the_turn_ends():
    receipts = RollReceipts(RollKeys.generate())

    async def play() -> None:
        loop = asyncio.get_running_loop()
        turned: list[str] = []

        async def sign_alone(target: int, mark: str) -> None:
            loop.call_soon(turned.append, mark)  # runs when the loop next turns
            answer, dice, body = _asked(target)
            _checked(receipts, await receipts.in_turn(answer, dice, body, **SIGN), body, dice.faces)

        await sign_alone(10, "quiet")
        assert turned == []  # signed before the loop turned
        await asyncio.gather(*(receipts.in_turn(*_asked(target), **SIGN) for target in (11, 12)))
        turned.clear()
        await sign_alone(13, "busy")  # the turn before asked two: this one waits for its end
        assert turned == ["busy"]
        turned.clear()
        await sign_alone(14, "quiet again")  # the turn before asked one
        assert turned == []

    asyncio.run(play())


def test_a_receipt_that_cannot_be_made_fails_only_its_own_answer():
    receipts = RollReceipts(RollKeys.generate())

    async def turn() -> None:
        asked = [_asked(target) for target in (10, 11, 12, 13)]
        requests = [b"{not json", asked[1][2], b"[1,", asked[3][2]]  # the first signed at once
        results = await asyncio.wait_for(
            asyncio.gather(
                *(
                    receipts.in_turn(answer, dice, request, **SIGN)
                    for (answer, dice, _), request in zip(asked, requests, strict=True)
                ),
                return_exceptions=True,
            ),
            10,
        )
        assert isinstance(results[0], NotCanonicalizableError)
        assert isinstance(results[2], NotCanonicalizableError)
        for index in (1, 3):
            _, dice, body = asked[index]
            _checked(receipts, results[index], body, dice.faces)

    asyncio.run(turn())


def test_a_receipt_whose_request_went_away_is_not_signed_and_the_others_are():
    receipts = RollReceipts(RollKeys.generate())

    async def turn() -> None:
        await asyncio.gather(*(receipts.in_turn(*_asked(target), **SIGN) for target in (8, 9)))
        # The loop is busy now: the next turn's receipts all wait for its end.
        (first, dice, body), gone_asked = _asked(10), _asked(11)
        gone = asyncio.create_task(receipts.in_turn(*gone_asked, **SIGN))
        kept = asyncio.create_task(receipts.in_turn(first, dice, body, **SIGN))
        await asyncio.sleep(0)  # both wait for their turn's end
        gone.cancel()  # as when its client disconnects
        _checked(receipts, await asyncio.wait_for(kept, 10), body, dice.faces)
        with pytest.raises(asyncio.CancelledError):
            await gone

    asyncio.run(turn())


async def _post(app: Litestar, path: str, body: bytes) -> tuple[int, bytes]:
    """The app's answer to a POST, called as an ASGI server calls it (an HTTP client
    would suspend each request on its own way in, so they would not share a turn)."""
    scope = post_scope(path)
    messages: list[dict[str, Any]] = [{"type": "http.request", "body": body}]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        if messages:
            return messages.pop()
        await asyncio.Event().wait()  # no disconnect: the answer is awaited
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app(scope, receive, send)  # type: ignore[arg-type]
    return sent[0]["status"], b"".join(message.get("body", b"") for message in sent[1:])


def test_checks_answered_in_one_turn_by_the_app_each_carry_their_own_receipt(redis_url):
    key = new_key()
    app = create_app(
        Settings(redis_url=redis_url, roll_signing_keys=json.dumps([key]), log_format="json"),
        rng=random.Random(5),
    )
    bodies = [{**CHECK, "target": target} for target in range(6, 18)]

    async def at_once() -> tuple[list[tuple[int, bytes]], str]:
        async with AsyncTestClient(app) as client:  # the app started, as a server starts it
            answers = await asyncio.gather(
                *(_post(app, "/v1/checks", json.dumps(body).encode()) for body in bodies)
            )
            return answers, (await client.get("/.well-known/jwks.json")).text

    answers, jwks = asyncio.run(at_once())
    for body, (status, sent) in zip(bodies, answers, strict=True):
        assert status == 200, sent
        _holds(jwks, json.loads(sent), body)
