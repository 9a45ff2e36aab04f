"""``make bench-instructions``: instructions per request (callgrind), every scenario driven
in-process, beside the bare-Litestar baseline and an idiomatic FastAPI peer.

    python -m tests.bench.instructions                 the table (runs valgrind itself)
    python -m tests.bench.instructions -s check -s peer   some scenarios only
    python -m tests.bench.instructions --annotate DIR  keep the callgrind files in DIR

Instructions, unlike seconds, do not depend on how busy the machine is: two runs agree to
a fraction of a percent, so a change of a few kIr (thousands of instructions) shows.

How: each scenario runs in a Python process of its own (two at a time), so no figure
depends on which other scenarios were chosen, under ``valgrind --tool=callgrind`` with
instrumentation off while the process starts (``callgrind_control`` turns it on once
start-up and warm-up are done). The apps are built as a served worker builds them
(``create_app(worker=True)``, JSON logs, multi-process metrics, uvloop) against an
embedded Redis, whose own instructions are not counted (another process). The scenario
is then driven for N requests and for 2N, each stretch run inside ``sys.call_tracing``:
callgrind collects only inside that function (``--toggle-collect``) and writes one file
per stretch (``--dump-after``). One request is (I(2N) − I(N)) / N: start-up, imports and
the stretch's own fixed cost cancel out. The pair is measured twice; the spread between
the two estimates is printed. Only this process's user-space instructions count: not
the kernel's work in system calls, nor Redis's. The request metrics, which a served
worker writes out once a second (among thousands of requests), are written out once at
the end of each stretch instead (callgrind's second holds some 50 times fewer requests).

Every figure includes the in-process driver's own cost (the ASGI scope, ``receive`` and
``send``, a task per request: what a server's glue does), shown on its own as ``asgi``.

Scenarios: ``asgi`` (an empty ASGI app: the driver alone), ``baseline`` (bare Litestar
``@post``, ``data: Struct``), ``peer`` (FastAPI + pydantic v2,
``tests/bench/peer_fastapi.py``), ``check`` (``POST /v1/checks``, everything on),
``check-signed`` (the same with ``receipt: true``: the difference is what a signed roll
receipt costs), ``check-bare`` (the same without the outer middleware, ``RequestShell``: the
difference is the middleware's cost), ``check-ratelimit`` (``RATE_LIMIT`` set), ``batch1``
and ``batch20`` (``POST /v1/checks/batch``; one further check is their difference / 19),
``round`` (a conflict round, 4 players, each the first round of its conflict), ``read``
(``GET`` of a conflict after one round, read before: its answer already rendered),
``read-new`` (the first ``GET`` since its round), and the outer middleware's parts alone:
``metrics`` (``observe_request``), ``log-line`` (``log_request`` and its write), ``id``
(``new_id``)."""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass
from multiprocessing.pool import ThreadPool
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# Collection is on only inside this C function (the one behind sys.call_tracing).
MARKER = "sys_call_tracing"
REPEATS = 2
EVERY = (
    "asgi",
    "baseline",
    "peer",
    "check",
    "check-signed",
    "check-bare",
    "check-ratelimit",
    "batch1",
    "batch20",
    "round",
    "read",
    "read-new",
    "metrics",
    "log-line",
    "id",
)
# N per scenario: enough requests that a stretch dwarfs its fixed cost, few enough to run
# in a few minutes under callgrind (about 50 times slower than native).
SIZES = {
    "id": 512,  # two draws of 256 ids (service.http.contract.context) in every stretch of 512
    "round": 40,
    "read": 60,
    "read-new": 40,
    "batch20": 30,
    "metrics": 400,
    "log-line": 400,
}
DEFAULT_SIZE = 80
WARM_UP = 30


def _requests_of(name: str) -> int:
    """How many requests a scenario sends in all."""
    return WARM_UP + 3 * REPEATS * SIZES.get(name, DEFAULT_SIZE)


# ---------------------------------------------------------------- inside valgrind


@dataclass
class Scenario:
    """``make(i)``: the i-th request; ``stretch``: when set, a plain loop instead."""

    driver: Any = None
    make: Callable[[int], tuple[str, str, bytes | None, list[tuple[bytes, bytes]]]] | None = None
    loop_body: Callable[[int], None] | None = None


async def _stretch(
    scenario: Scenario, start: int, count: int, flush: Callable[[], None] | None
) -> None:
    """``count`` requests, then the request metrics' flush (once in every stretch: it
    cancels out, as a flush a second does among thousands of requests)."""
    await _drive(scenario, start, count)
    if flush is not None:
        flush()


async def _drive(scenario: Scenario, start: int, count: int) -> None:
    if scenario.loop_body is not None:
        body = scenario.loop_body
        for i in range(start, start + count):
            body(i)
        return
    assert scenario.make is not None
    for i in range(start, start + count):
        method, path, payload, headers = scenario.make(i)
        # A task per request, as a server runs each request.
        status, answer = await asyncio.ensure_future(
            scenario.driver.request(method, path, payload, headers)
        )
        if status >= 300:
            raise SystemExit(f"{method} {path}: {status} {answer[:300]!r}")


async def _empty_app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] == "lifespan":
        while (await receive())["type"] != "lifespan.shutdown":
            await send({"type": "lifespan.startup.complete"})
        await send({"type": "lifespan.shutdown.complete"})
        return
    await receive()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b"{}"})


def _inside(names: list[str]) -> None:
    """The measured process: build everything, then measure each scenario."""
    # tests.bench.profile sets the served worker's environment at import (metrics
    # directory, JSON logs) before the service is imported.
    from tests.bench import profile

    # isort: split
    import msgspec
    import uvloop

    from service import metrics
    from service.app import create_app
    from service.embedded_redis import EmbeddedRedis
    from service.http.contract.context import new_id
    from service.logging import _LINES, log_request
    from service.metrics import observe_request
    from service.settings import Settings
    from tests.bench.baseline import app as baseline_app
    from tests.bench.bodies import BATCH, CHECK, ROUND

    # Flushed at the end of each stretch instead: callgrind runs some 50 times slower
    # than native, so a flush a second would fall on 50 times fewer requests.
    metrics.FLUSH_SECONDS = 3600.0
    flush = getattr(metrics, "flush_requests", None)  # None: before counts were flushed

    def body(value: Any) -> bytes:
        return json.dumps(value).encode()

    loop = uvloop.new_event_loop()
    asyncio.set_event_loop(loop)
    run = loop.run_until_complete
    with ExitStack() as stack:
        os.environ.setdefault("REDIS_URL", stack.enter_context(EmbeddedRedis()))
        # Hundreds of conflicts from one address (the round scenario's): no quota of them.
        os.environ.setdefault("SESSIONS_PER_CLIENT", "0")
        sys.stderr = stack.enter_context(open(os.devnull, "w"))  # the request log lines
        settings = Settings.from_env()
        service_app = create_app(settings, worker=True)
        service = profile.Driver(service_app)
        run(service.start())
        scenarios: dict[str, Scenario] = {}

        def fixed(driver: Any, method: str, path: str, payload: Any) -> Scenario:
            request = (method, path, body(payload), [])
            return Scenario(driver=driver, make=lambda _: request)

        def check_bare() -> Scenario:
            bare = profile.Driver(service_app)
            shell = service_app.asgi_handler
            inner = shell._app  # type: ignore[attr-defined]

            async def request(*args: Any) -> tuple[int, bytes]:
                service_app.asgi_handler = inner
                try:
                    return await profile.Driver.request(bare, *args)
                finally:
                    service_app.asgi_handler = shell

            bare.request = request  # type: ignore[method-assign]
            return fixed(bare, "POST", "/v1/checks", CHECK)

        def with_rate_limit() -> Scenario:
            # The longest budget: callgrind slows Redis's answers down past the usual one.
            limited_settings = msgspec.structs.replace(
                settings, rate_limit="1000000/minute", rate_limit_budget_seconds=60.0
            )
            limited = create_app(limited_settings, worker=True)
            driver = profile.Driver(limited)
            run(driver.start())
            return fixed(driver, "POST", "/v1/checks", CHECK)

        def peer() -> Scenario:
            from tests.bench.peer_fastapi import app

            driver = profile.Driver(app)
            run(driver.start())
            for seed in range(1, 6):  # a peer: the same answers (but the id) to the same dice
                seeded = body({**CHECK, "seed": seed})
                answers = [
                    json.loads(run(each.request("POST", "/v1/checks", seeded, []))[1])
                    for each in (driver, service)
                ]
                for answer in answers:
                    answer.pop("id")
                assert answers[0] == answers[1], answers
            return fixed(driver, "POST", "/v1/checks", CHECK)

        def asgi() -> Scenario:
            driver = profile.Driver(_empty_app)
            run(driver.start())
            return fixed(driver, "POST", "/v1/checks", CHECK)

        def baseline() -> Scenario:
            driver = profile.Driver(baseline_app)
            run(driver.start())
            return fixed(driver, "POST", "/baseline", CHECK)

        conflicts: list[tuple[str, list[tuple[bytes, bytes]]]] = []

        def rounds(count: int = 0) -> Scenario:
            count = count or _requests_of("round")
            for path, token in run(profile._conflicts(service, count)):
                conflicts.append((path, [(b"authorization", b"Bearer " + token)]))
            payload = body(ROUND)
            return Scenario(
                driver=service,
                make=lambda i: ("POST", conflicts[i][0] + "/rounds", payload, conflicts[i][1]),
            )

        def played(count: int) -> list[tuple[str, list[tuple[bytes, bytes]]]]:
            """``count`` conflicts of one round each (the round scenario's, if it ran here)."""
            if len(conflicts) < count:
                conflicts.clear()
                run(_drive(rounds(count), 0, count))
            return conflicts

        def read_again() -> Scenario:
            # The warm-up reads each of them once: every measured read finds its answer
            # rendered already (a client polling an unchanged conflict).
            some = played(WARM_UP)[:WARM_UP]
            return Scenario(
                driver=service,
                make=lambda i: ("GET", some[i % WARM_UP][0], None, some[i % WARM_UP][1]),
            )

        def read_new() -> Scenario:
            every = played(_requests_of("read-new"))  # each once: the first since its round
            return Scenario(driver=service, make=lambda i: ("GET", every[i][0], None, every[i][1]))

        line = {
            "request_id": new_id(),
            "method": "POST",
            "path": "/v1/checks",
            "status": 200,
            "duration_ms": 0.123,
            "session_id": None,
        }

        def log_line(_: int) -> None:
            log_request(dict(line))
            _LINES.flush()  # each request's line is written in its own loop turn

        builders: dict[str, Callable[[], Scenario]] = {
            "asgi": asgi,
            "baseline": baseline,
            "peer": peer,
            "check": lambda: fixed(service, "POST", "/v1/checks", CHECK),
            "check-signed": lambda: fixed(
                service, "POST", "/v1/checks", {**CHECK, "receipt": True}
            ),
            "check-bare": check_bare,
            "check-ratelimit": with_rate_limit,
            "batch1": lambda: fixed(service, "POST", "/v1/checks/batch", {"checks": [CHECK]}),
            "batch20": lambda: fixed(service, "POST", "/v1/checks/batch", BATCH),
            "round": rounds,
            "read": read_again,
            "read-new": read_new,
            "metrics": lambda: Scenario(
                loop_body=lambda _: observe_request("POST", "/v1/checks", 200, 0.000123)
            ),
            "log-line": lambda: Scenario(loop_body=log_line),
            "id": lambda: Scenario(loop_body=lambda _: new_id()),
        }
        for name in names:
            scenarios[name] = builders[name]()
            run(_stretch(scenarios[name], 0, WARM_UP, flush))
        # Valgrind starts with instrumentation off (as fast as it can run): the parent turns
        # it on now, once start-up, imports and warm-ups are done.
        print("ready", flush=True)
        sys.stdin.readline()
        for name in names:
            scenario, size = scenarios[name], SIZES.get(name, DEFAULT_SIZE)
            at = WARM_UP
            for _ in range(REPEATS):
                for count in (size, 2 * size):
                    coroutine = _stretch(scenario, at, count, flush)
                    at += count
                    gc.collect()
                    print(f"stretch {name} {count}", flush=True)
                    sys.call_tracing(run, (coroutine,))
        print("done", flush=True)


# ---------------------------------------------------------------- outside valgrind


class MeasureError(Exception):
    """A measured process failed. Not ``SystemExit``: a thread pool's worker lets that
    through and dies, and the pool then waits for its result for ever."""


def _totals(directory: Path, pid: int) -> list[int]:
    """The instructions of each dump of process ``pid``, in order."""
    dumps = sorted(
        directory.glob(f"callgrind.out.{pid}.*"), key=lambda p: int(p.name.rsplit(".", 1)[1])
    )
    totals = []
    for dump in dumps:
        match = re.search(r"^totals: (\d+)", dump.read_text(errors="replace"), re.MULTILINE)
        totals.append(int(match[1]) if match else 0)
    return totals


def _measure(
    names: list[str], directory: Path, module: str = "tests.bench.instructions"
) -> tuple[dict[str, list[float]], float]:
    """kIr per request of each scenario (one estimate per repeat), and the seconds taken.

    ``module``: what runs under callgrind as ``python -m <module> --inside -s <name>…``;
    it prints ``ready``, waits for a line, then ``stretch <name> <count>`` before each
    stretch of N then 2N calls (each dumped at its end), and ``done``."""
    command = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        "--collect-atstart=no",
        f"--toggle-collect={MARKER}",
        f"--dump-after={MARKER}",
        f"--callgrind-out-file={directory}/callgrind.out.%p",
        sys.executable,
        "-m",
        module,
        "--inside",
        *(arg for name in names for arg in ("-s", name)),
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    started = time.monotonic()
    errors = directory / f"valgrind-{names[0]}.log"
    with errors.open("w+") as stderr:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=stderr, text=True,
        )  # fmt: skip
        assert process.stdin is not None
        assert process.stdout is not None
        output = []
        while (line := process.stdout.readline()) not in ("ready\n", ""):
            output.append(line)
        if line:  # start-up done: instrument from here on
            subprocess.run(
                ["callgrind_control", "--instr=on", str(process.pid)],
                check=True,
                capture_output=True,
            )
            process.stdin.write("go\n")
            process.stdin.flush()
        output.append(process.communicate()[0])
    elapsed = time.monotonic() - started
    stdout = "".join(output)
    if process.returncode != 0 or "done" not in stdout:
        sys.stderr.write(stdout[-3000:] + errors.read_text()[-3000:])
        raise MeasureError(f"the measured process failed ({process.returncode})")
    stretches = [
        (name, int(count))
        for name, count in re.findall(r"^stretch (\S+) (\d+)$", stdout, re.MULTILINE)
    ]
    pid = process.pid
    totals = _totals(directory, pid)
    if len(totals) < len(stretches):
        raise MeasureError(f"{len(stretches)} stretches but {len(totals)} callgrind dumps")
    per: dict[str, list[float]] = {}
    for index in range(0, len(stretches), 2):
        (name, single), (_, double) = stretches[index], stretches[index + 1]
        assert double == 2 * single
        per.setdefault(name, []).append((totals[index + 1] - totals[index]) / single / 1000)
    return per, elapsed


def _row(label: str, values: list[float], baseline: float | None, peer: float | None) -> str:
    value = sum(values) / len(values)
    spread = (max(values) - min(values)) / value * 100 if value else 0.0
    ratios = ""
    if baseline:
        ratios += f"  {value / baseline:5.2f}× baseline"
    if peer:
        ratios += f"  {value / peer:5.2f}× peer"
    return f"  {label:44} {value:8.1f} kIr  ±{spread / 2:4.2f} %{ratios}"


def _report(per: dict[str, list[float]]) -> None:
    def mean(name: str) -> float | None:
        values = per.get(name)
        return sum(values) / len(values) if values else None

    base, peer = mean("baseline"), mean("peer")
    labels = {
        "asgi": "in-process ASGI driver alone (in every row)",
        "baseline": "bare Litestar @post baseline (data: Struct)",
        "peer": "FastAPI + pydantic v2 peer of the check",
        "check": "POST /v1/checks, everything on",
        "check-signed": "POST /v1/checks with receipt: true",
        "check-bare": "  the same without the outer middleware",
        "check-ratelimit": "POST /v1/checks with RATE_LIMIT set",
        "batch1": "POST /v1/checks/batch, 1 check",
        "batch20": "POST /v1/checks/batch, 20 checks",
        "round": "conflict round, 4 players",
        "read": "conflict read, unchanged since the last",
        "read-new": "conflict read, the first since its round",
        "metrics": "  metrics alone (observe_request)",
        "log-line": "  request log line alone (log_request + write)",
        "id": "  one id alone (new_id)",
    }
    print("kIr (thousands of instructions) per request, ± half the spread of two estimates;")
    print("× baseline, × peer: this row's kIr over theirs (lower is cheaper)")
    for name in EVERY:
        if name in per:
            ratio = name not in ("asgi", "baseline", "metrics", "log-line", "id", "batch20")
            to_peer = ratio and name != "peer"
            print(_row(labels[name], per[name], base if ratio else None, peer if to_peer else None))
    check, bare, signed = mean("check"), mean("check-bare"), mean("check-signed")
    if check and signed:
        print(f"  {'a receipt (check signed − check)':44} {signed - check:8.1f} kIr")
    if check and bare:
        print(f"  {'outer middleware (check − check without it)':44} {check - bare:8.1f} kIr")
    one, twenty = per.get("batch1"), per.get("batch20")
    if one and twenty:
        further = [(b - a) / 19 for a, b in zip(one, twenty, strict=True)]
        print(_row("each further check in a batch", further, None, None))
    limited = mean("check-ratelimit")
    if check and limited:
        print(f"  {'rate limiting: check with it / without it':44} {limited / check:8.2f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-s", "--scenario", action="append", choices=EVERY)
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--annotate", type=Path, help="keep the callgrind files here")
    parser.add_argument("--json", type=Path, help="also write the estimates here")
    arguments = parser.parse_args()
    names = arguments.scenario or list(EVERY)
    if arguments.inside:
        try:
            _inside(names)
        except BaseException:
            # Leave at once: a thread the app started (a flush, a pool) would otherwise
            # keep this process, and the measuring one waiting on it, alive.
            traceback.print_exc()
            sys.stdout.flush()
            os._exit(1)
        return
    if shutil.which("valgrind") is None:
        raise SystemExit("make bench-instructions needs valgrind: apt-get install valgrind")
    with tempfile.TemporaryDirectory(prefix="callgrind-") as temporary:
        directory = arguments.annotate or Path(temporary)
        directory.mkdir(parents=True, exist_ok=True)
        # A process per scenario, so that none depends on which others were chosen; two
        # at a time (one per core).
        results: dict[str, list[float]] = {}
        started = time.monotonic()
        with ThreadPool(2) as pool:
            try:
                for per, _ in pool.imap(lambda name: _measure([name], directory), names):
                    results.update(per)
            except MeasureError as failure:
                raise SystemExit(str(failure)) from None
    _report(results)
    print(f"({len(names)} callgrind processes, {time.monotonic() - started:.0f} s)")
    if arguments.json:
        arguments.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
