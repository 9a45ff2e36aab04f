"""In-process profile of the ``make bench`` scenarios: the ASGI app driven directly, no
network, next to the bare-Litestar baseline, so a request's own cost shows apart from the
server's and the load generator's.

    python -m tests.bench.profile                   µs per request, every scenario
    python -m tests.bench.profile -s round -p       the same, then cProfile of "round"
    python -m tests.bench.profile -c 32             32 requests in flight (as wrk's -c32)

The app is built as a served worker builds it (JSON logs, multi-process metrics, uvloop),
against an embedded Redis (or ``REDIS_URL``). Log lines go to /dev/null. Timings are
printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from contextlib import ExitStack
from typing import Any

# Before the service is imported: metrics pick their storage at import (as in a worker).
_METRICS = tempfile.TemporaryDirectory(prefix="profile-metrics-")
os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", _METRICS.name)
os.environ.setdefault("LOG_FORMAT", "json")

from service.embedded_redis import EmbeddedRedis  # noqa: E402
from service.rulesets.bullseye.api.examples import VALID_CHARACTER  # noqa: E402
from service.rulesets.travelogue.api.examples import BULLSEYES  # noqa: E402
from tests.bench.bodies import (  # noqa: E402
    BATCH,
    CHECK,
    FOUR_PLAYERS,
    OPEND6_ROLL_BODY,
    QUICK_SHOT_GAMBLE,
    RENAME_ANGEL,
    ROUND,
    SELF_CONFLICT_CHECK_BODY,
)

ASGIApp = Callable[..., Awaitable[None]]
Request = tuple[str, str, bytes | None, list[tuple[bytes, bytes]]]


class Driver:
    """Calls an ASGI app as a server would, one request per call."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.lifespan_state: dict[str, Any] = {}

    async def request(
        self,
        method: str,
        target: str,
        body: bytes | None,
        headers: list[tuple[bytes, bytes]],
        answer_headers: list[tuple[bytes, bytes]] | None = None,
    ) -> tuple[int, bytes]:
        """The status and body of one request to ``target`` (a percent-encoded path,
        perhaps with a query string); the answer's headers are added to ``answer_headers``
        when given. Every figure of ``make bench-instructions`` includes this driver: a
        plain path (the scenarios' every one) is taken as it is, unparsed, so the driver
        costs what it did before it took query strings (6 kIr a request less)."""
        if "?" in target or "%" in target:
            raw_path, _, query = target.partition("?")
            path, raw, query_string = urllib.parse.unquote(raw_path), raw_path, query.encode()
        else:
            path, raw, query_string = target, target, b""
        sent = False
        status = 0
        chunks: list[bytes] = []
        all_headers = [(b"host", b"127.0.0.1"), *headers]
        if body is not None:
            all_headers += [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ]
        scope = {
            "type": "http",
            "asgi": {"version": "3.0", "spec_version": "2.3"},
            "http_version": "1.1",
            "method": method,
            "scheme": "http",
            "path": path,
            "raw_path": raw.encode(),
            "query_string": query_string,
            "root_path": "",
            "headers": all_headers,
            "client": ("127.0.0.1", 40000),
            "server": ("127.0.0.1", 8000),
            "state": dict(self.lifespan_state),
        }

        async def receive() -> dict[str, Any]:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body or b"", "more_body": False}
            await asyncio.Event().wait()  # the client never leaves
            raise AssertionError

        async def send(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                if answer_headers is not None:
                    answer_headers.extend(message.get("headers", []))
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, b"".join(chunks)

    async def exchange(
        self, method: str, target: str, body: bytes | None, headers: list[tuple[bytes, bytes]]
    ) -> tuple[int, list[tuple[bytes, bytes]], bytes]:
        """The status, headers and body of one request to ``target`` (as :meth:`request`)."""
        answer_headers: list[tuple[bytes, bytes]] = []
        status, answer = await self.request(method, target, body, headers, answer_headers)
        return status, answer_headers, answer

    async def start(self) -> Callable[[], Awaitable[None]]:
        """Run the app's lifespan start-up; returns the shut-down."""
        inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        scope = {"type": "lifespan", "asgi": {"version": "3.0"}, "state": self.lifespan_state}
        task = asyncio.ensure_future(self.app(scope, inbox.get, outbox.put))
        await inbox.put({"type": "lifespan.startup"})
        started = await outbox.get()
        assert started["type"] == "lifespan.startup.complete", started

        async def stop() -> None:
            await inbox.put({"type": "lifespan.shutdown"})
            await outbox.get()
            await task

        return stop


def _json(body: Any) -> bytes:
    return json.dumps(body).encode()


async def _conflicts(driver: Driver, count: int) -> list[tuple[str, bytes]]:
    out = []
    for _ in range(count):
        status, answer = await driver.request("POST", "/v1/conflicts", _json(FOUR_PLAYERS), [])
        assert status == 201, answer
        created = json.loads(answer)
        out.append((f"/v1/conflicts/{created['id']}", created["tokens"]["gm"].encode()))
    return out


async def _games(driver: Driver, count: int) -> list[tuple[str, bytes]]:
    """(actions path, token) of every player of ``count`` new travelogue games."""
    out = []
    body = _json({"name": "profile", "bullseyes": BULLSEYES})
    for _ in range(count):
        status, answer = await driver.request("POST", "/v1/travelogue/games", body, [])
        assert status == 201, answer
        created = json.loads(answer)
        path = f"/v1/travelogue/games/{created['id']}/actions"
        out += [(path, token.encode()) for token in created["tokens"]["players"].values()]
    return out


def _cycle(requests: list[Request]) -> Callable[[int], Request]:
    return lambda i: requests[i % len(requests)]


async def _scenarios(driver: Driver, conflicts: int) -> dict[str, Callable[[int], Request]]:
    targets = await _conflicts(driver, conflicts)
    auth = [(path, [(b"authorization", b"Bearer " + token)]) for path, token in targets]
    players = [
        (path, [(b"authorization", b"Bearer " + token)])
        for path, token in await _games(driver, max(1, conflicts // 8))
    ]
    return {
        "check": _cycle([("POST", "/v1/checks", _json(CHECK), [])]),
        "batch20": _cycle([("POST", "/v1/checks/batch", _json(BATCH), [])]),
        "validate": _cycle([("POST", "/v1/characters/validate", _json(VALID_CHARACTER), [])]),
        "round": _cycle([("POST", p + "/rounds", _json(ROUND), h) for p, h in auth]),
        "read": _cycle([("GET", p, None, h) for p, h in auth]),
        "opend6": _cycle([("POST", "/v1/opend6/rolls", _json(OPEND6_ROLL_BODY), [])]),
        "selfconflict": _cycle(
            [("POST", "/v1/self-conflict/checks", _json(SELF_CONFLICT_CHECK_BODY), [])]
        ),
        "quickshot": _cycle([("POST", "/v1/quick-shot/gambles", _json(QUICK_SHOT_GAMBLE), [])]),
        "travelogue": _cycle([("POST", p, _json(RENAME_ANGEL), h) for p, h in players]),
    }


async def _run(
    driver: Driver, make: Callable[[int], Request], count: int, concurrency: int
) -> list[float]:
    """Per-request latencies (s) of ``count`` requests, ``concurrency`` in flight. The
    first answer that is not 2xx stops the run once the requests in flight have answered
    (ending at once would cancel them, and the service would log each as a 500)."""
    latencies: list[float] = []
    counter = iter(range(count))
    refused: list[str] = []

    async def client() -> None:
        for i in counter:
            if refused:
                return
            method, path, body, headers = make(i)
            started = time.perf_counter()
            # A task per request, as a server runs them (so lines and writes batch per turn).
            status, answer = await asyncio.ensure_future(
                driver.request(method, path, body, headers)
            )
            latencies.append(time.perf_counter() - started)
            if status >= 300:
                refused.append(f"{method} {path}: {status} {answer[:300]!r}")

    await asyncio.gather(*(client() for _ in range(concurrency)))
    if refused:
        raise SystemExit(refused[0])
    return latencies


class GcWatch:
    """Counts the cycle collector's passes and their pauses while active."""

    def __init__(self) -> None:
        self.pauses: list[tuple[int, float]] = []
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
        else:
            self.pauses.append((info["generation"], time.perf_counter() - self._started))

    def __enter__(self) -> GcWatch:
        gc.callbacks.append(self)
        return self

    def __exit__(self, *_: object) -> None:
        gc.callbacks.remove(self)


def _summary(name: str, latencies: list[float], elapsed: float, cpu: float, gcs: GcWatch) -> str:
    ordered = sorted(latencies)
    p99 = ordered[int(len(ordered) * 0.99)] * 1e6
    per = elapsed / len(latencies) * 1e6
    gen2 = [pause for generation, pause in gcs.pauses if generation == 2]
    slowest = max((pause for _, pause in gcs.pauses), default=0.0) * 1e3
    return (
        f"{name:13} {per:8.1f} µs/req  cpu {cpu / len(latencies) * 1e6:6.1f}  "
        f"median {statistics.median(latencies) * 1e6:8.1f} µs  "
        f"p99 {p99:8.1f} µs  max {ordered[-1] * 1e3:6.2f} ms  "
        f"gc {len(gcs.pauses):4} (gen2 {len(gen2)}, slowest {slowest:.2f} ms)"
    )


async def main(arguments: argparse.Namespace) -> None:
    from litestar import Litestar

    from service.app import create_app
    from tests.bench.baseline import app as baseline_app

    with ExitStack() as stack:
        os.environ.setdefault("REDIS_URL", stack.enter_context(EmbeddedRedis()))
        real_stderr = sys.stderr
        # Put back however this ends, so that a refusal's SystemExit is read where it is said.
        stack.callback(setattr, sys, "stderr", real_stderr)
        sys.stderr = stack.enter_context(open(os.devnull, "w"))
        app: Litestar = create_app(worker=True)
        service = Driver(app)
        stop = await service.start()
        baseline = Driver(baseline_app)
        await baseline.start()
        scenarios = await _scenarios(service, arguments.conflicts)
        chosen = arguments.scenario or list(scenarios)
        measured: dict[str, float] = {}
        lines = []
        base_request = ("POST", "/baseline", _json(CHECK), [])
        for name in ["baseline", *chosen]:
            driver = baseline if name == "baseline" else service
            make = (lambda _: base_request) if name == "baseline" else scenarios[name]
            await _run(driver, make, min(arguments.requests, 500), arguments.concurrency)  # warm
            with GcWatch() as gcs:
                started, cpu = time.perf_counter(), time.process_time()
                latencies = await _run(driver, make, arguments.requests, arguments.concurrency)
                elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
            # This process's CPU: Redis (another process) shares the machine's cores.
            measured[name] = cpu / len(latencies)
            lines.append(_summary(name, latencies, elapsed, cpu, gcs))
        sys.stderr = real_stderr
        print(
            f"in-process, {arguments.requests} requests per scenario, "
            f"{arguments.concurrency} in flight"
        )
        for line in lines:
            print(line)
        print("ratio to baseline (baseline CPU µs / scenario CPU µs):")
        for name in chosen:
            print(f"  {name:13} {measured['baseline'] / measured[name]:.2f}")
        if arguments.profile:
            for name in chosen:
                sys.stderr = stack.enter_context(open(os.devnull, "w"))
                profiler = cProfile.Profile()
                profiler.enable()
                await _run(service, scenarios[name], arguments.requests, arguments.concurrency)
                profiler.disable()
                sys.stderr = real_stderr
                print(f"\n=== cProfile: {name} ({arguments.requests} requests) ===")
                stats = pstats.Stats(profiler).strip_dirs().sort_stats(arguments.sort)
                stats.print_stats(arguments.lines)
        await stop()


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-s", "--scenario", action="append", help="one scenario (repeatable)")
    parser.add_argument("-n", "--requests", type=int, default=3000)
    parser.add_argument("-c", "--concurrency", type=int, default=1)
    parser.add_argument("--conflicts", type=int, default=200, help="conflicts the rounds cycle")
    parser.add_argument("-p", "--profile", action="store_true", help="cProfile each scenario")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumtime)")
    parser.add_argument("--lines", type=int, default=35, help="pstats rows to print")
    return parser.parse_args()


if __name__ == "__main__":
    try:
        import uvloop
    except ImportError:  # the servers' default loop when it is installed
        asyncio.run(main(_arguments()))
    else:
        uvloop.run(main(_arguments()))
