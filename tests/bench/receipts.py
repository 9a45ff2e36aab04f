"""The CPU a roll receipt adds to an answer: Bullseye's POST /v1/checks with and without
``receipt: true``, in process (the ASGI app driven directly, as ``tests.bench.profile``
does), and the shared signing call on its own.

    python -m tests.bench.receipts              30 rounds of 500 requests each way
    python -m tests.bench.receipts -n 1000 -r 12

Rounds alternate the two bodies, so a busy machine slows both alike; each line gives the
best round's CPU per request (this process only), and the difference against issue #26's
target (a receipt adds ≤ 60 µs CPU). ``make bench`` ends with the same (:func:`report`).
Printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
import timeit
from contextlib import ExitStack
from dataclasses import dataclass

from tests.bench.bodies import CHECK
from tests.bench.machine import machine
from tests.bench.profile import Driver, _run
from tests.bench.run import RECEIPT_TARGET_US as TARGET_US

SIGNED = {**CHECK, "receipt": True}


def _request(body: dict[str, object]) -> tuple[str, str, bytes, list[tuple[bytes, bytes]]]:
    return ("POST", "/v1/checks", json.dumps(body).encode(), [])


def _signing_alone(rounds: int) -> tuple[float, float]:
    """µs of ``RollReceipts.signed`` for a check's answer, and of the Ed25519 signature in
    it (the floor: libsodium's call, ``RollKey.sign``)."""
    import random

    import msgspec

    from service.http.contract.context import new_id
    from service.http.receipts.roll_keys import RollKeys
    from service.http.receipts.signing import RollReceipts
    from service.kernel.dice import RecordingDice
    from service.rulesets.bullseye.rules.checks import CheckRequest, resolve_check

    receipts = RollReceipts(RollKeys.generate())
    body = json.dumps(SIGNED).encode()
    dice = RecordingDice(random.Random(3))
    answer = resolve_check(msgspec.convert(SIGNED, CheckRequest), dice, new_id())

    def sign() -> object:
        return receipts.signed(
            answer, dice, body, ruleset="bullseye", operation="resolveCheck", table=False
        )

    key, payload = receipts.keys.signing, b"x" * 400
    number = 3000
    signed = min(timeit.repeat(sign, number=number, repeat=rounds, timer=time.process_time))
    raw = min(
        timeit.repeat(
            lambda: key.sign(payload), number=number, repeat=rounds, timer=time.process_time
        )
    )
    return signed / number * 1e6, raw / number * 1e6


@dataclass(frozen=True)
class Cost:
    """CPU µs per request of a plain check and of a signed one (best rounds), and of the
    signing call and the Ed25519 signature alone."""

    plain: float
    signed: float
    alone: float
    signature: float

    @property
    def added(self) -> float:
        """What a receipt adds to an answer."""
        return self.signed - self.plain


async def measure(requests: int, rounds: int) -> Cost:
    """The cost of a receipt, in process (an embedded Redis unless ``REDIS_URL`` is set)."""
    from service.app import create_app
    from service.embedded_redis import EmbeddedRedis

    with ExitStack() as stack:
        os.environ.setdefault("REDIS_URL", stack.enter_context(EmbeddedRedis()))
        real_stderr = sys.stderr
        # Put back however this ends, so that a refusal's SystemExit is read where it is said.
        stack.callback(setattr, sys, "stderr", real_stderr)
        sys.stderr = stack.enter_context(open(os.devnull, "w"))
        app = create_app(worker=True)
        driver = Driver(app)
        stop = await driver.start()
        plain, signed = _request(CHECK), _request(SIGNED)
        best = {"plain": float("inf"), "signed": float("inf")}
        for request in (plain, signed):
            await _run(driver, lambda _, r=request: r, 500, 1)  # warm
        for _ in range(rounds):
            for name, request in (("plain", plain), ("signed", signed)):
                cpu = time.process_time()
                await _run(driver, lambda _, r=request: r, requests, 1)
                per = (time.process_time() - cpu) / requests * 1e6
                best[name] = min(best[name], per)
        await stop()
        sys.stderr = real_stderr
    alone, raw = _signing_alone(rounds)
    return Cost(plain=best["plain"], signed=best["signed"], alone=alone, signature=raw)


def _target_line(cost: Cost) -> str:
    met = "met    " if cost.added <= TARGET_US else "NOT met"
    return f"  {met} ≤ {TARGET_US:g} µs CPU per signed answer, a lone request: {cost.added:.1f} µs"


def report(requests: int = 500, rounds: int = 30) -> None:
    """``make bench``'s lines: the cost per signed answer (issue #26), against its target."""
    cost = asyncio.run(measure(requests, rounds))
    print(
        f"\nthe cost per signed answer (issue #26), one request at a time (no turn of the event "
        f"loop to share, docs/verifiable-rolls.md): POST /v1/checks in process, best of "
        f"{rounds} rounds x {requests}, load average {os.getloadavg()[0]:.1f}; {machine()}"
    )
    print(
        f"  without receipt {cost.plain:.1f} µs CPU, receipt: true {cost.signed:.1f} µs: "
        f"a receipt adds {cost.added:.1f} µs (the Ed25519 signature alone {cost.signature:.1f} µs)"
    )
    print(_target_line(cost))


async def main(arguments: argparse.Namespace) -> None:
    cost = await measure(arguments.requests, arguments.rounds)
    print(f"POST /v1/checks, in process, best of {arguments.rounds} rounds x {arguments.requests}")
    print(f"  without receipt  {cost.plain:7.1f} µs CPU/request")
    print(f"  receipt: true    {cost.signed:7.1f} µs CPU/request")
    print(f"  a receipt adds   {cost.added:7.1f} µs CPU")
    print(
        f"RollReceipts.signed alone {cost.alone:7.1f} µs (Ed25519 signature alone "
        f"{cost.signature:.1f} µs)"
    )
    print(f"load average {os.getloadavg()[0]:.1f}; {machine()}")
    print(_target_line(cost))


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--requests", type=int, default=500)
    parser.add_argument("-r", "--rounds", type=int, default=30)
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(_arguments()))
