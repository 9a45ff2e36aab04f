"""``make bench-odds-memory``: what an odds pool process holds (docs/odds.md, "Memory").

Serves the service as deployed (``python -m service``, its own embedded Redis, one worker
unless WEB_CONCURRENCY says otherwise) with every odds request sent to the pool
(``ODDS_INLINE_MS=0``) and nothing cached, and reads each pool process's memory from
``/proc/<pid>/smaps_rollup`` (Linux): RSS, PSS (shared pages divided among their
sharers) and USS (its private pages), in MiB, and its peak RSS (``VmHWM``). In turn:

1. once its first request (a cheap one) has started it;
2. after the costliest request of every odds operation (``make bench-odds``'s cases),
   each game's rules imported and its memos warmed;
3. while OpenD6 odds of 240 different large rolls (101…120 dice, 9…20 Character Point
   dice) fill the rules' memos: every 40, the process's figures and whether it was
   replaced (``ODDS_RECYCLE_MIB``; run again with ``ODDS_RECYCLE_MIB=0`` for a process
   never replaced).

Then the whole server (its process, its workers, their pools, the embedded Redis) as PSS,
before any pool started and once every worker's pool has (the requests go out on fresh
connections until each worker has one). Figures are reported, never asserted; any
``ODDS_*`` variable in the environment applies.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

import httpx

from tests.bench.flood_odds import opend6_side
from tests.bench.odds import cases
from tests.support.served import ServedApp

MIB = 1024 * 1024
CHEAP = ("/v1/self-conflict/checks/odds", {"talent": {"name": "Pilot", "level": 1}})
POOL_COMMAND = b"service.http.odds.process"


def large_roll(n: int) -> dict[str, object]:
    """The ``n``-th of 240 different OpenD6 rolls of 101…120 dice, 9…20 CP dice."""
    side = opend6_side(120 - n % 20, 20 - n // 20 % 12)
    return {**side, "difficulty": {"kind": "number", "value": 200}}


def family(pid: int) -> list[int]:
    """``pid`` and every process under it."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError):
            continue
    found = {pid}
    while grown := {child for child, parent in parents.items() if parent in found} - found:
        found |= grown
    return sorted(found)


def pool_processes(app: ServedApp) -> list[int]:
    found = []
    for pid in family(app.process.pid):
        try:
            if POOL_COMMAND in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(pid)
        except OSError:
            continue
    return found


def memory(pid: int) -> dict[str, float]:
    """RSS, PSS, USS and peak RSS of ``pid``, in MiB."""
    rollup: dict[str, int] = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        rollup[name] = int(value.split()[0])  # kB
    status = Path(f"/proc/{pid}/status").read_text()
    peak = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM"))
    private = rollup["Private_Clean"] + rollup["Private_Dirty"]
    return {
        "rss": rollup["Rss"] / 1024,
        "pss": rollup["Pss"] / 1024,
        "uss": private / 1024,
        "peak": peak / 1024,
    }


def row(label: str, pid: int) -> str:
    figures = memory(pid)
    return (
        f"{label:44} {pid:>7} {figures['rss']:7.1f} {figures['pss']:7.1f} "
        f"{figures['uss']:7.1f} {figures['peak']:7.1f}"
    )


def server_pss(app: ServedApp) -> float:
    total = 0.0
    for pid in family(app.process.pid):
        try:
            total += memory(pid)["pss"]
        except OSError:
            continue
    return total


def main() -> int:
    workdir = Path(tempfile.mkdtemp(prefix="bullseye-bench-odds-memory-"))
    env = {"REDIS_URL": "", "ODDS_INLINE_MS": "0", "ODDS_CACHE_ENTRIES": "0"}
    workers = int(os.environ.get("WEB_CONCURRENCY", "1"))
    app = ServedApp({**env, "WEB_CONCURRENCY": str(workers)}, workdir / "service.log")
    try:
        app.wait_ready(timeout=60)
        idle = server_pss(app)
        with httpx.Client(base_url=app.url, timeout=120) as client:
            print(f"\nodds pool process memory, MiB (load average {os.getloadavg()[0]:.1f})\n")
            print(f"{'':44} {'pid':>7} {'RSS':>7} {'PSS':>7} {'USS':>7} {'peak':>7}")
            assert client.post(CHEAP[0], json=CHEAP[1]).status_code == 200
            (pid,) = pool_processes(app)
            print(row("started (one cheap request)", pid))
            for case in cases():
                answer = client.post(case.path, json=case.body)
                assert answer.status_code == 200, answer.text
                (pid,) = pool_processes(app)
                print(row(f"after {case.operation}", pid))
            replaced, highest = 0, {"rss": 0.0, "pss": 0.0, "uss": 0.0, "peak": 0.0}
            for n in range(240):
                answer = client.post("/v1/opend6/rolls/odds", json=large_roll(n))
                assert answer.status_code == 200, answer.text
                (now,) = pool_processes(app) or (pid,)
                replaced += now != pid
                pid = now
                with contextlib.suppress(OSError):  # replaced meanwhile
                    figures = memory(pid)
                    highest = {k: max(v, figures[k]) for k, v in highest.items()}
                if n % 40 == 39:
                    print(row(f"{n + 1} large OpenD6 rolls ({replaced} replaced)", pid))
            print(
                f"{'the highest seen':44} {'':>7} {highest['rss']:7.1f} {highest['pss']:7.1f} "
                f"{highest['uss']:7.1f} {highest['peak']:7.1f}"
            )
        for attempt in range(200):  # fresh connections until every worker has its pool
            if len(pool_processes(app)) >= workers:
                break
            httpx.post(app.url + CHEAP[0], json={**CHEAP[1], "karma": {"balance": attempt}})
        print(
            f"\nthe server, {workers} worker(s), {len(pool_processes(app))} pool process(es) "
            f"and the embedded Redis, PSS: {idle:.1f} MiB before any pool, "
            f"{server_pss(app):.1f} MiB now"
        )
    finally:
        app.stop()
    print(f"server log: {workdir / 'service.log'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
