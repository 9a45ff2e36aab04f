"""The odds pool in the service as a user starts it (``python -m service``, one worker):
the event loop serves while the pool works, a full pool refuses with 503 and
Retry-After, a pool process that dies is replaced, and one stopped (SIGSTOP) counts as
past its deadline (issue #24, "Odds never stall a worker").

The requests are OpenD6 opposed odds at the largest pools (tens of milliseconds each,
estimated well above the 2 ms inline budget, so the pool computes them), each a little
different so no cache answers it. A worker starts its pool with the first such request:
that request waits while a process starts and imports the rules (about a second), which
is when these tests act. That the loop also turns while a pool process computes is
checked in-process with heavier work (test_odds_gate.py).
"""

from __future__ import annotations

import asyncio
import json
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
TRAVELOGUE = "/v1/travelogue/rolls/odds"
# 30 dice a pool, every stat 9: the travelogue's costliest odds, about 4 ms estimated.
LARGEST_POOLS = {
    "shooter": {"aim": 3, "ammo": 30},
    "angel": {"aim": 3, "ammo": 30},
    "stats": {"avoid": 9, "armor": 9, "angel": 9, "allies": 9},
}


def _side(dice: int, cp_dice: int) -> dict[str, Any]:
    """A roll of ``dice`` dice (40D and +20D bonuses) with ``cp_dice`` CP dice."""
    bonuses = [{"label": "gear", "dice": min(20, dice - n)} for n in range(40, dice, 20)]
    return {
        "base": {"type": "skill", "code": "40D"},
        "bonuses": bonuses,
        "character_points": {"before": cp_dice},
    }


def pooled(n: int) -> dict[str, Any]:
    """The ``n``-th of 20 different opposed odds computed in the pool."""
    return {"initiator": _side(120 - n, 20), "resister": _side(120, 19)}


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
    """The odds pool's processes under the served app."""
    found = []
    for pid in _descendants(app.process.pid):
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if b"service.http.odds.process" in command:
            found.append(pid)
    return found


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


async def handed_over(app: ServedApp, request: asyncio.Task[httpx.Response]) -> int:
    """Wait until the pool holds ``request`` (the first to need it: its process starts
    for it), which is still unanswered; the process's pid."""
    deadline = time.monotonic() + 60
    while not (pids := pool_processes(app)):
        assert not request.done(), "answered without a pool process"
        assert time.monotonic() < deadline, "no pool process"
        await asyncio.sleep(0.01)
    (pid,) = pids
    return pid


@pytest.fixture
def served(redis_url: str, tmp_path: Path) -> Iterator[ServedApp]:
    """One worker, a pool of one process and one more place waiting."""
    app = ServedApp(
        {"REDIS_URL": redis_url, "ODDS_WORKERS": "1", "ODDS_QUEUE": "1"},
        tmp_path / "service.log",
    )
    try:
        app.wait_ready()
        yield app
    finally:
        app.stop()


def test_healthz_sent_while_the_pool_works_is_answered_before_the_odds(
    served: ServedApp,
) -> None:
    async def scenario() -> tuple[list[str], httpx.Response]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            odds = asyncio.create_task(client.post(OPPOSED, json=pooled(0)))
            await handed_over(served, odds)
            order = []
            for _ in range(5):
                health = await client.get("/healthz")
                assert health.status_code == 200
                order.append("odds" if odds.done() else "healthz")
            return order, await odds

    order, odds = asyncio.run(scenario())
    assert order == ["healthz"] * 5  # each answered while the odds were still awaited
    assert odds.status_code == 200, odds.text
    assert odds.headers["server-timing"].startswith('odds;desc="pool"')


def test_a_full_pool_refuses_with_503_and_retry_after(served: ServedApp) -> None:
    async def scenario() -> list[httpx.Response]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            first = asyncio.create_task(client.post(OPPOSED, json=pooled(0)))
            await handed_over(served, first)  # one in the pool, its process starting...
            rest = [
                asyncio.create_task(client.post(OPPOSED, json=pooled(n)))
                for n in range(1, 7)  # ...and six more sent meanwhile, for one place
            ]
            return [await first, *await asyncio.gather(*rest)]

    answers = asyncio.run(scenario())
    assert answers[0].status_code == 200
    refused = [a for a in answers if a.status_code == 503]
    assert len(refused) >= 4, [a.status_code for a in answers]
    for answer in refused:
        assert answer.headers["retry-after"] == "1"
        assert answer.json()["type"] == "/problems/odds-busy"
    assert {a.status_code for a in answers} <= {200, 503}


def test_a_pool_process_that_dies_is_replaced(served: ServedApp) -> None:
    async def scenario() -> list[list[httpx.Response]]:
        async with httpx.AsyncClient(base_url=served.url, timeout=120) as client:
            # Killed while it holds a request: that request is refused (retry), the next
            # answered by a new pool.
            odds = asyncio.create_task(client.post(OPPOSED, json=pooled(0)))
            os.kill(await handed_over(served, odds), signal.SIGKILL)
            lost = await odds
            recovered = await client.post(OPPOSED, json=pooled(1))
            # Killed while idle: the next request starts a new pool (or, should it reach
            # the broken pool before the pool noticed, is refused once).
            (idle,) = pool_processes(served)
            os.kill(idle, signal.SIGKILL)
            wait_until(lambda: idle not in pool_processes(served), "the idle process gone")
            after = []
            for n in (2, 3, 4):
                after.append(await client.post(OPPOSED, json=pooled(n)))
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
    first = httpx.post(served.url + OPPOSED, json=pooled(0), timeout=120)
    assert first.status_code == 200, first.text
    (pool,) = pool_processes(served)
    worker = int(Path(f"/proc/{pool}/stat").read_text().rsplit(")", 1)[1].split()[1])
    os.kill(worker, signal.SIGKILL)
    wait_until(lambda: not Path(f"/proc/{pool}").exists(), "the pool process gone")
    wait_until(lambda: healthy(served), "a new worker")
    again = httpx.post(served.url + OPPOSED, json=pooled(1), timeout=120)
    assert again.status_code == 200, again.text
    assert again.headers["server-timing"].startswith('odds;desc="pool"')
    assert pool not in pool_processes(served)


@pytest.fixture
def stoppable(redis_url: str, tmp_path: Path) -> Iterator[ServedApp]:
    """One worker, a pool of one process, one more place waiting, a 1 s deadline."""
    app = ServedApp(
        {
            "REDIS_URL": redis_url,
            "ODDS_WORKERS": "1",
            "ODDS_QUEUE": "1",
            "ODDS_DEADLINE_MS": "1000",
        },
        tmp_path / "service.log",
    )
    try:
        app.wait_ready()
        yield app
    finally:
        app.stop()


def test_a_stopped_pool_process_is_past_its_deadline_and_replaced(stoppable: ServedApp) -> None:
    """The pool's process stopped (SIGSTOP) as if the machine swapped it out: the request it
    holds is answered 503 odds-busy at its deadline, the process is killed, and the request
    waiting behind it is computed by a new process, as is the next one; /healthz answers
    meanwhile. (The client's 30 s timeout only keeps a hung pool from hanging the test.)"""

    async def scenario() -> tuple[int, list[httpx.Response], list[int], httpx.Response]:
        async with httpx.AsyncClient(base_url=stoppable.url, timeout=30) as client:
            warm = await client.post(OPPOSED, json=pooled(0))  # starts the process
            assert warm.status_code == 200, warm.text
            (stopped,) = pool_processes(stoppable)
            os.kill(stopped, signal.SIGSTOP)
            held = [
                asyncio.create_task(client.post(OPPOSED, json=pooled(n))) for n in (1, 2)
            ]  # one sent to the stopped process, one waiting for it
            health = []
            while not all(task.done() for task in held):
                health.append((await client.get("/healthz")).status_code)
                await asyncio.sleep(0.05)
            return (
                stopped,
                [await task for task in held],
                health,
                await client.post(TRAVELOGUE, json=LARGEST_POOLS),  # a few ms, in the pool
            )

    stopped, held, health, after = asyncio.run(scenario())
    (refused,) = [answer for answer in held if answer.status_code == 503]
    (computed,) = [answer for answer in held if answer.status_code == 200]
    assert refused.json()["type"] == "/problems/odds-busy"
    assert "past its deadline (1000 ms, ODDS_DEADLINE_MS)" in refused.json()["detail"]
    assert refused.headers["retry-after"] == "1"
    assert computed.headers["server-timing"].startswith('odds;desc="pool"')
    assert set(health) == {200}
    assert after.status_code == 200, after.text
    assert after.headers["server-timing"].startswith('odds;desc="pool"')
    (replacement,) = pool_processes(stoppable)
    assert replacement != stopped
    assert not Path(f"/proc/{stopped}").exists()  # killed and reaped, not left stopped
    logged = [
        json.loads(line) for line in stoppable.log.read_text().splitlines() if line.startswith("{")
    ]
    (past,) = [entry for entry in logged if entry.get("event") == "odds_past_deadline"]
    assert past["function"] == "service.rulesets.opend6.rules.roll_odds.opposed_roll_odds"
