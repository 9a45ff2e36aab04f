"""``make bench``: the service against a bare-Litestar baseline, measured in the same run.

Both apps are served by the same server (uvicorn) with the same workers on this machine;
wrk loads each scenario at fixed connections and duration. Every figure is reported with
its ratio to the baseline, so results compare across machines. Timings are never asserted.

Environment: ``BENCH_SECONDS`` (default 10), ``BENCH_CONNECTIONS`` (32),
``WEB_CONCURRENCY`` (1), ``REDIS_URL`` (default: an embedded redis-server).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import timeit
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import httpx
import redis

from service.api.examples import VALID_CHARACTER
from service.embedded_redis import EmbeddedRedis
from tests.bench.bodies import BATCH, CHECK, FOUR_PLAYERS, ROUND
from tests.conftest import ROOT, free_port

SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "32"))
WORKERS = os.environ.get("WEB_CONCURRENCY", "1")
CONFLICTS_FOR_ROUNDS = 400
CONFLICTS_FOR_MEMORY = int(os.environ.get("BENCH_CONFLICTS", "10000"))


def _wait(url: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if httpx.get(url, timeout=1).status_code < 500:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not come up")


def _serve(
    stack: ExitStack, args: list[str], env: dict[str, str], log: Path
) -> subprocess.Popen[bytes]:
    handle = stack.enter_context(log.open("wb"))
    process = subprocess.Popen(
        args,
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=handle,
        stderr=subprocess.STDOUT,
    )
    stack.callback(_stop, process)
    return process


def _stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        process.kill()


def _lua_post(body: Any, targets: list[tuple[str, str]] | None = None, method: str = "POST") -> str:
    """A wrk script sending ``body``, cycling through (path, token) ``targets`` if given."""
    payload = json.dumps(json.dumps(body)) if body is not None else "nil"
    lines = [
        f'wrk.method = "{method}"',
        'wrk.headers["Content-Type"] = "application/json"',
        f"local body = {payload}",
    ]
    if targets:
        rows = ",".join(f'{{"{p}","{t}"}}' for p, t in targets)
        lines += [
            f"local targets = {{{rows}}}",
            "local i = 0",
            "request = function()",
            "  i = i + 1",
            "  local t = targets[(i % #targets) + 1]",
            '  local headers = {["Content-Type"] = "application/json",',
            '                   ["Authorization"] = "Bearer " .. t[2]}',
            f'  return wrk.format("{method}", t[1], headers, body)',
            "end",
        ]
    elif body is not None:
        lines.append("wrk.body = body")
    return "\n".join(lines) + "\n"


def _to_ms(value: str) -> float:
    number, unit = re.match(r"([\d.]+)(\w+)", value).groups()  # type: ignore[union-attr]
    return float(number) * {"us": 0.001, "ms": 1.0, "s": 1000.0}[unit]


def _wrk(url: str, script: str, workdir: Path) -> dict[str, float]:
    lua = workdir / f"s{abs(hash(script))}.lua"
    lua.write_text(script)
    out = subprocess.run(
        ["wrk", "-t2", f"-c{CONNECTIONS}", f"-d{SECONDS}s", "--latency", "-s", str(lua), url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out)[1])  # type: ignore[index]
    p50 = _to_ms(re.search(r"50%\s+(\S+)", out)[1])  # type: ignore[index]
    p99 = _to_ms(re.search(r"99%\s+(\S+)", out)[1])  # type: ignore[index]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": rps, "p50": p50, "p99": p99, "non2xx": float(errors[1]) if errors else 0.0}


def _rss_mb(pid: int) -> float:
    """Resident memory of a process and its children (the workers), in MiB."""
    total = 0
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            text = status.read_text()
        except OSError:
            continue
        ppid = int(re.search(r"PPid:\s+(\d+)", text)[1])  # type: ignore[index]
        me = int(status.parent.name)
        if me == pid or ppid == pid:
            found = re.search(r"VmRSS:\s+(\d+) kB", text)
            total += int(found[1]) if found else 0
    return total / 1024


def _engine_ratio() -> tuple[float, float]:
    """Microseconds per in-process check and per d20 roll of the same expression."""
    import random

    import d20

    from service.bullseye.checks import CheckRequest, resolve_check
    from service.bullseye.modifiers import QualityUse, Situational

    request = CheckRequest(
        target=15,
        qualities=(
            QualityUse(name="a", type="intrinsic", magnitude=4),  # type: ignore[arg-type]
            QualityUse(name="b", type="experiential", magnitude=2),
        ),  # type: ignore[arg-type]
        situational=(Situational(label="c", magnitude=-1),),
    )
    rng = random.Random(1)
    n = 20000
    ours = min(timeit.repeat(lambda: resolve_check(request, rng, "x"), number=n, repeat=5)) / n
    theirs = min(timeit.repeat(lambda: d20.roll("1d20+4+2-1"), number=n, repeat=5)) / n
    return ours * 1e6, theirs * 1e6


def main() -> int:
    if shutil.which("wrk") is None:
        print("wrk is needed: apt-get install wrk (Debian), then make bench again", file=sys.stderr)
        return 2
    workdir = Path(tempfile.mkdtemp(prefix="bullseye-bench-"))
    with ExitStack() as stack:
        redis_url = os.environ.get("REDIS_URL") or stack.enter_context(EmbeddedRedis())
        service_port, baseline_port = free_port(), free_port()
        env = {
            "REDIS_URL": redis_url,
            "PORT": str(service_port),
            "WEB_CONCURRENCY": WORKERS,
            "LOG_FORMAT": "json",
        }
        service = _serve(stack, [sys.executable, "-m", "service"], env, workdir / "service.log")
        _serve(
            stack,
            [
                sys.executable,
                "-m",
                "uvicorn",
                "tests.bench.baseline:app",
                "--port",
                str(baseline_port),
                "--workers",
                WORKERS,
                "--no-access-log",
                "--log-level",
                "warning",
            ],
            {},
            workdir / "baseline.log",
        )
        base = f"http://127.0.0.1:{service_port}"
        _wait(base + "/healthz")
        _wait(f"http://127.0.0.1:{baseline_port}/baseline")

        conflicts = [
            httpx.post(base + "/v1/conflicts", json=FOUR_PLAYERS).json()
            for _ in range(CONFLICTS_FOR_ROUNDS)
        ]
        targets = [(f"/v1/conflicts/{c['id']}", c["tokens"]["gm"]) for c in conflicts]
        scenarios = [
            (
                "baseline: bare Litestar POST",
                f"http://127.0.0.1:{baseline_port}/baseline",
                _lua_post(CHECK),
            ),
            ("1. POST /v1/checks", base + "/v1/checks", _lua_post(CHECK)),
            ("2. POST /v1/checks/batch (20)", base + "/v1/checks/batch", _lua_post(BATCH)),
            (
                "3. POST /v1/characters/validate",
                base + "/v1/characters/validate",
                _lua_post(VALID_CHARACTER),
            ),
            (
                "4. POST /v1/conflicts/{id}/rounds",
                base,
                _lua_post(ROUND, [(p + "/rounds", t) for p, t in targets]),
            ),
            ("5. GET /v1/conflicts/{id}", base, _lua_post(None, targets, method="GET")),
        ]
        results = {name: _wrk(url, script, workdir) for name, url, script in scenarios}
        rss = _rss_mb(service.pid)

        store = redis.Redis.from_url(redis_url)
        before = int(store.info("memory")["used_memory"])
        with httpx.Client(base_url=base) as client:
            for _ in range(CONFLICTS_FOR_MEMORY):
                client.post("/v1/conflicts", json=FOUR_PLAYERS)
        per_conflict = (int(store.info("memory")["used_memory"]) - before) / CONFLICTS_FOR_MEMORY

    ours_us, d20_us = _engine_ratio()
    baseline = results["baseline: bare Litestar POST"]
    print(
        f"\nmake bench — {SECONDS}s per scenario, {CONNECTIONS} connections, "
        f"{WORKERS} worker(s), uvicorn, same machine and run\n"
    )
    print(f"{'scenario':40} {'req/s':>10} {'ratio':>7} {'p50 ms':>8} {'p99 ms':>8} {'non-2xx':>8}")
    for name, figures in results.items():
        ratio = figures["rps"] / baseline["rps"]
        print(
            f"{name:40} {figures['rps']:10.0f} {ratio:7.2f} {figures['p50']:8.2f} "
            f"{figures['p99']:8.2f} {figures['non2xx']:8.0f}"
        )
    batch = results["2. POST /v1/checks/batch (20)"]["rps"] * 20
    print(f"\nbatch: {batch:.0f} checks/s ({batch / baseline['rps']:.2f}× baseline requests/s)")
    print(f"service RSS after the run (all processes): {rss:.1f} MiB")
    print(
        f"Redis memory per open 4-player conflict: {per_conflict:.0f} bytes "
        f"({per_conflict / 1024:.2f} KiB), over {CONFLICTS_FOR_MEMORY} conflicts"
    )
    print(
        f"engine: one check in-process {ours_us:.1f} µs; d20 '1d20+4+2-1' {d20_us:.1f} µs; "
        f"{d20_us / ours_us:.1f}× faster"
    )
    print(f"\nlogs and wrk scripts: {workdir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
