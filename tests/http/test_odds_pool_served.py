"""The odds pool in the service as a user starts it (``python -m service``, one worker):
heavy odds leave the event loop free, a full pool refuses with 503 and Retry-After, and a
pool process that dies is replaced (issue #24, "Odds never stall a worker").

The heavy request is OpenD6's costliest kind: two 120-dice rolls with 20 Character Point
dice each, the resister's fixed part far above the initiator's, so the initiator's totals
are listed a long way (about a second of big-integer arithmetic). The served instances
allow it (ODDS_MAX_MS) and send everything heavier than 2 ms to the pool.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.served import ServedApp

pytestmark = pytest.mark.heavy(2)

OPPOSED = "/v1/opend6/opposed/odds"


def _side(pips: int) -> dict[str, Any]:
    """A 120-dice roll (40D and four +20D bonuses) with 20 CP dice and ``pips`` more in
    related-skill modifiers (each ±250 at most)."""
    related = []
    while pips:
        step = max(-250, min(pips, 250))
        related.append({"label": "earlier", "result_points": 2 * step})
        pips -= step
    return {
        "base": {"type": "skill", "code": "40D"},
        "bonuses": [{"label": "gear", "dice": 20}] * 4,
        "related": related,
        "character_points": {"before": 20},
    }


def heavy(apart: int) -> dict[str, Any]:
    """Opposed odds whose resister stands ``apart`` points above the initiator (each
    ``apart`` its own request: no cache answers it)."""
    return {"initiator": _side(-(apart // 2)), "resister": _side(apart - apart // 2)}


def _descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(status.parent.name)] = int(fields[1])
    family = {pid}
    while grown := {me for me, parent in parents.items() if parent in family} - family:
        family |= grown
    return family - {pid}


def pool_processes(app: ServedApp) -> list[int]:
    """The odds pool's processes under the served app (spawned interpreters, not the
    multiprocessing resource tracker)."""
    found = []
    for pid in _descendants(app.process.pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command:
            found.append(pid)
    return found


def cpu_ticks(pid: int) -> int:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])  # utime + stime


def healthy(app: ServedApp) -> bool:
    try:
        return httpx.get(app.url + "/healthz", timeout=5).status_code == 200
    except httpx.HTTPError:
        return False


def wait_until(condition: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"never happened: {what}"
        time.sleep(0.02)


async def computing(app: ServedApp, request: asyncio.Task[httpx.Response]) -> int:
    """Wait until the pool's process computes ``request`` (its CPU time grows while the
    request is still unanswered); its pid."""
    deadline = time.monotonic() + 60
    while not (pids := pool_processes(app)):
        assert not request.done(), "answered without a pool process"
        assert time.monotonic() < deadline, "no pool process"
        await asyncio.sleep(0.02)
    (pid,) = pids
    start = cpu_ticks(pid)
    while cpu_ticks(pid) < start + 10:  # a tenth of a second of its CPU, past its start
        assert not request.done(), "the request was answered before it was seen computing"
        await asyncio.sleep(0.02)
    return pid


@pytest.fixture
def served(redis_url: str, tmp_path: Path) -> Iterator[ServedApp]:
    """One worker, a pool of one process and one more place waiting."""
    app = ServedApp(
        {"REDIS_URL": redis_url, "ODDS_WORKERS": "1", "ODDS_QUEUE": "1", "ODDS_MAX_MS": "600000"},
        tmp_path / "service.log",
    )
    try:
        app.wait_ready()
        yield app
    finally:
        app.stop()


def test_healthz_sent_while_the_pool_computes_is_answered_before_the_odds(
    served: ServedApp,
) -> None:
    async def scenario() -> tuple[list[str], httpx.Response]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            odds = asyncio.create_task(client.post(OPPOSED, json=heavy(3000)))
            await computing(served, odds)
            order = []
            for _ in range(5):
                health = await client.get("/healthz")
                assert health.status_code == 200
                order.append("odds" if odds.done() else "healthz")
            return order, await odds

    order, odds = asyncio.run(scenario())
    assert order == ["healthz"] * 5  # each answered while the odds were still computing
    assert odds.status_code == 200, odds.text
    assert odds.headers["server-timing"].startswith('odds;desc="pool"')


def test_a_full_pool_refuses_with_503_and_retry_after(served: ServedApp) -> None:
    async def scenario() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            first = asyncio.create_task(client.post(OPPOSED, json=heavy(3000)))
            await computing(served, first)  # one computing...
            rest = [
                asyncio.create_task(client.post(OPPOSED, json=heavy(3000 + n)))
                for n in range(1, 5)  # ...and four more sent while it does, for one place
            ]
            return [await first, *await asyncio.gather(*rest)]

    answers = asyncio.run(scenario())
    assert answers[0].status_code == 200
    refused = [a for a in answers if a.status_code == 503]
    assert len(refused) >= 3, [a.status_code for a in answers]
    for answer in refused:
        assert answer.headers["retry-after"] == "1"
        assert answer.json()["type"] == "/problems/odds-busy"
    assert {a.status_code for a in answers} <= {200, 503}


def test_a_pool_process_that_dies_is_replaced(served: ServedApp) -> None:
    async def scenario() -> list[list[httpx.Response]]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            # Killed while computing: that request is refused (retry), the next answered
            # by a new pool.
            odds = asyncio.create_task(client.post(OPPOSED, json=heavy(3000)))
            os.kill(await computing(served, odds), signal.SIGKILL)
            lost = await odds
            recovered = await client.post(OPPOSED, json=heavy(100))
            # Killed while idle: the next request starts a new pool (or, should it reach
            # the broken pool before the pool noticed, is refused once).
            (idle,) = pool_processes(served)
            os.kill(idle, signal.SIGKILL)
            wait_until(lambda: idle not in pool_processes(served), "the idle process gone")
            after = []
            for apart in (101, 102, 103):
                after.append(await client.post(OPPOSED, json=heavy(apart)))
                if after[-1].status_code == 200:
                    break
            return [[lost, recovered], after]

    (lost, recovered), after = asyncio.run(scenario())
    assert lost.status_code == 503, lost.text
    assert lost.json()["type"] == "/problems/odds-busy"
    assert lost.headers["retry-after"] == "1"
    assert [a.status_code for a in after] in ([200], [503, 200])
    for answer in (recovered, after[-1]):
        assert answer.status_code == 200, answer.text
        assert answer.headers["server-timing"].startswith('odds;desc="pool"')
    assert len(pool_processes(served)) == 1


def test_a_pool_process_leaves_with_its_worker(served: ServedApp) -> None:
    """A worker killed outright (out of memory, say) takes its pool process along; the
    server starts a new worker, whose first heavy request starts a new pool."""
    first = httpx.post(served.url + OPPOSED, json=heavy(100), timeout=120)
    assert first.status_code == 200, first.text
    (pool,) = pool_processes(served)
    worker = int(Path(f"/proc/{pool}/stat").read_text().rsplit(")", 1)[1].split()[1])
    os.kill(worker, signal.SIGKILL)
    wait_until(lambda: not Path(f"/proc/{pool}").exists(), "the pool process gone")
    wait_until(lambda: healthy(served), "a new worker")
    again = httpx.post(served.url + OPPOSED, json=heavy(101), timeout=120)
    assert again.status_code == 200, again.text
    assert again.headers["server-timing"].startswith('odds;desc="pool"')
    assert pool not in pool_processes(served)
