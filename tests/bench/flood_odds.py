"""``make flood``: four clients flood the costliest odds each ruleset allows while a fifth
measures ``/healthz`` and a plain Bullseye check (issue #24, "Odds never stall a worker").

The service runs as deployed (``python -m service``, its own embedded Redis), with one
worker unless WEB_CONCURRENCY says otherwise: every client then shares its event loop,
which is what the odds must not stall (with more, a client's kept-alive connection stays
on one worker, and which worker each flood lands on varies from run to run). Each
flooding client has one request in flight at a time, back to back, for FLOOD_SECONDS
(10): OpenD6's opposed odds at the largest pools (up to 120 dice and 20 Character Point
dice a side), Quick Shot's six actions on
ten dice at TN 4, the travelogue's 30 dice against 30 at every stat high, and a
Self/Conflict check's odds. Every request differs from the last ones (dice, actions,
stats) so that neither the service's cache nor the rules' memos answer them all. The
fifth client sends ``GET /healthz`` and ``POST /v1/checks`` one after the other
meanwhile, and the script prints their p50/p99, and each flood's answers.

Timings are reported, never asserted. To measure a checkout without the odds gate, copy
this file into it and run it there: it needs only ``tests.support.served`` and
``tests.bench.bodies``.
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx

from tests.bench.bodies import CHECK
from tests.support.served import ServedApp

SECONDS = float(os.environ.get("FLOOD_SECONDS", "10"))
WORKERS = os.environ.get("WEB_CONCURRENCY", "1")
LEAD_SECONDS = 1.0  # the floods run this long before the measuring starts


def opend6_side(dice: int, cp_dice: int = 0, pips: int = 0) -> dict[str, Any]:
    """An OpenD6 roll of ``dice`` dice (a code of at most 40D, then +20D bonuses),
    ``cp_dice`` Character Point dice and ``pips`` more in related-skill modifiers."""
    bonuses = [{"label": "gear", "dice": min(20, dice - n)} for n in range(40, dice, 20)]
    related = []
    while pips:
        step = max(-250, min(pips, 250))
        related.append({"label": "earlier", "result_points": 2 * step})
        pips -= step
    return {
        "base": {"type": "skill", "code": f"{min(dice, 40)}D"},
        "bonuses": bonuses,
        "related": related,
        "character_points": {"before": cp_dice},
    }


def opend6_opposed(n: int) -> dict[str, Any]:
    """Opposed odds at the largest pools: 101…120 dice and 10…20 CP dice a side, the 220
    combinations in turn, more than the rules' memo of rolls holds (128), so each side is
    built afresh."""

    def side(k: int) -> dict[str, Any]:
        return opend6_side(120 - k % 20, 20 - k // 20 % 11)

    return {"initiator": side(2 * n % 220), "resister": side((2 * n + 1) % 220)}


DIFFICULTIES = ("minor", "common", "hard", "difficult", "overwhelming")


def quick_shot_gamble(n: int) -> dict[str, Any]:
    """Six actions (5⁶ lists of difficulties) on ten dice (a 3 WP bet) at TN 4."""
    digits = [n // 5**place % 5 for place in range(6)]
    return {
        "actions": [{"difficulty": DIFFICULTIES[d]} for d in digits],
        "wp_bet": 3,
        "target_number": 4,
    }


def travelogue_pools(n: int) -> dict[str, Any]:
    """30 dice against 30, Aims 1…5 each, stats 7…9 each (2025 combinations)."""
    stats = [9 - n // 25 // 3**place % 3 for place in range(4)]
    return {
        "shooter": {"aim": 1 + n % 5, "ammo": 30},
        "angel": {"aim": 1 + n // 5 % 5, "ammo": 30},
        "stats": dict(zip(("avoid", "armor", "angel", "allies"), stats, strict=True)),
    }


def self_conflict_check(n: int) -> dict[str, Any]:
    """Every level, GM sum and karma modifier (7 × 21 × 21)."""
    return {
        "talent": {"name": "Pilot", "level": n % 7},
        "conflict_modifiers": [{"label": "GM", "value": (n // 7 % 21 - 10) // 2}] * 2,
        "karma": {"balance": 10, "modifier": n // 147 % 21 - 10},
    }


FLOODS: dict[str, tuple[str, Callable[[int], dict[str, Any]]]] = {
    "OpenD6 opposed odds": ("/v1/opend6/opposed/odds", opend6_opposed),
    "Quick Shot gamble odds": ("/v1/quick-shot/gambles/odds", quick_shot_gamble),
    "travelogue roll odds": ("/v1/travelogue/rolls/odds", travelogue_pools),
    "Self/Conflict check odds": ("/v1/self-conflict/checks/odds", self_conflict_check),
}


def _started(ready: Any, go: Any, start: Any) -> float:
    """Say this client is ready, wait for every other, and return when the floods start."""
    ready.put(None)
    go.wait()
    return float(start.value)


def _flood(url: str, name: str, ready: Any, go: Any, start: Any, results: Any) -> None:
    path, body = FLOODS[name]
    until = _started(ready, go, start) + LEAD_SECONDS + SECONDS
    statuses: Counter[int] = Counter()
    paths: Counter[str] = Counter()
    took = []
    with httpx.Client(base_url=url, timeout=60) as client:
        for n in itertools.count():
            if time.monotonic() >= until:
                break
            started = time.perf_counter()
            answer = client.post(path, json=body(n))
            took.append(time.perf_counter() - started)
            statuses[answer.status_code] += 1
            timing = answer.headers.get("server-timing", "")
            paths[timing.split('"')[1] if '"' in timing else "-"] += 1
    results.put((name, took, dict(statuses), dict(paths)))


def _measure(url: str, ready: Any, go: Any, start: Any, results: Any) -> None:
    begin = _started(ready, go, start) + LEAD_SECONDS
    until = begin + SECONDS
    healthz: list[float] = []
    check: list[float] = []
    failed: Counter[int] = Counter()
    with httpx.Client(base_url=url, timeout=60) as client:
        while time.monotonic() < begin:
            time.sleep(0.01)
        while time.monotonic() < until:
            for samples, send in (
                (healthz, lambda: client.get("/healthz")),
                (check, lambda: client.post("/v1/checks", json=CHECK)),
            ):
                started = time.perf_counter()
                status = send().status_code
                samples.append(time.perf_counter() - started)
                if status != 200:
                    failed[status] += 1
    results.put(("measure", healthz, check, dict(failed)))


def percentile(samples: list[float], share: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000


def _rows(found: dict[str, Any]) -> Iterator[str]:
    _, healthz, check, failed = found.pop("measure")
    yield f"{'measured':34} {'requests':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}"
    for label, samples in (("GET /healthz", healthz), ("POST /v1/checks", check)):
        yield (
            f"{label:34} {len(samples):8} {percentile(samples, 0.5):8.1f} "
            f"{percentile(samples, 0.99):8.1f} {max(samples) * 1000:8.1f}"
        )
    if failed:
        yield f"measured requests not answered 200: {failed}"
    yield ""
    yield f"{'flood':34} {'requests':>8} {'p50 ms':>8} {'p99 ms':>8}  statuses; served by"
    for name in FLOODS:
        _, took, statuses, paths = found[name]
        yield (
            f"{name:34} {len(took):8} {percentile(took, 0.5):8.1f} "
            f"{percentile(took, 0.99):8.1f}  {statuses}; {paths}"
        )


def main() -> int:
    load = os.getloadavg()[0]  # the machine's own, before the service and the floods
    log = Path(tempfile.mkdtemp(prefix="bullseye-flood-")) / "service.log"
    env = {"WEB_CONCURRENCY": WORKERS, "REDIS_URL": os.environ.get("REDIS_URL", "")}
    app = ServedApp(env, log)
    try:
        app.wait_ready(timeout=60)
        context = multiprocessing.get_context("spawn")
        results, ready, go = context.Queue(), context.Queue(), context.Event()
        start = context.Value("d", 0.0)
        shared = (ready, go, start, results)
        clients = [context.Process(target=_flood, args=(app.url, name, *shared)) for name in FLOODS]
        clients.append(context.Process(target=_measure, args=(app.url, *shared)))
        for client in clients:
            client.start()
        for _ in clients:  # every client imported and connected: start together
            ready.get(timeout=300)
        start.value = time.monotonic()
        go.set()
        found = {}
        for _ in clients:
            name, *rest = results.get(timeout=SECONDS + 300)
            found[name] = (name, *rest)
        for client in clients:
            client.join()
    finally:
        app.stop()
    print(
        f"\nmake flood — {SECONDS:.0f} s, four clients flooding odds (one request in flight "
        f"each), {WORKERS} worker(s), {os.cpu_count()} cores, load average {load:.1f} before\n"
    )
    for row in _rows(found):
        print(row)
    print("\ntarget (issue #24; reported, never asserted): GET /healthz p99 ≤ 50 ms")
    print(f"server log: {log}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
