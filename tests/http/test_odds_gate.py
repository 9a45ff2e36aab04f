"""The odds gate (service.http.odds.gate): every odds operation of every ruleset answers
from the worker's cache, in line or from its process pool, the same answer whichever
served it, and refuses odds above the limit before computing them (issue #24, "Odds
never stall a worker"). ``Server-Timing`` says which path served.

The served instance's behaviour under load (a full pool, /healthz during a computation, a
pool process killed) is in test_odds_pool_served.py.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest
from litestar.testing import TestClient

from service.app import create_app
from service.http.contract.errors import OddsBusy
from service.http.odds.cache import AnswerCache
from service.http.odds.gate import OddsGate
from service.rulesets.self_conflict.rules.checks import TalentOddsRequest
from service.rulesets.self_conflict.rules.odds import TalentOddsAnswer, talent_odds
from service.rulesets.self_conflict.rules.odds_cost import talent_odds_cost
from service.rulesets.travelogue.rules.odds import pools_odds
from service.rulesets.travelogue.rules.odds_cost import pools_odds_cost
from service.rulesets.travelogue.rules.roll import PoolsRequest
from service.settings import Settings, SettingsError
from tests.support.examples import STATELESS, operation_routes
from tests.support.odds_work import (
    Imported,
    Modules,
    Square,
    Squared,
    Who,
    Whose,
    imported,
    imported_cost,
    square,
    square_cost,
    square_underestimated,
    whose,
    whose_cost,
)

# The operations that go through the gate: those whose answers declare Server-Timing.
OPERATIONS = {
    operation["operationId"]: operation
    for item in json.loads((Path(__file__).parents[2] / "openapi/openapi.json").read_text())[
        "paths"
    ].values()
    for operation in item.values()
    if isinstance(operation, dict) and "operationId" in operation
}
GATED = {
    operation_id
    for operation_id, operation in OPERATIONS.items()
    if "Server-Timing" in operation["responses"].get("200", {}).get("headers", {})
}
ODDS_EXAMPLES = [(op, summary, body) for op, summary, body in STATELESS if op in GATED]
TALENT = {"talent": {"name": "Pilot", "level": 4}, "karma": {"balance": 3, "modifier": -1}}
# 30 dice a pool, every stat 9: the travelogue's costliest odds (about 4 ms estimated).
LARGEST_POOLS = {
    "shooter": {"aim": 3, "ammo": 30},
    "angel": {"aim": 3, "ammo": 30},
    "stats": {"avoid": 9, "armor": 9, "angel": 9, "allies": 9},
}
SERVED_BY = re.compile(r'^odds;desc="(inline|pool|cache)";dur=[0-9]+\.[0-9]{3}$')


def served_by(response: Any) -> str:
    """Which path served an odds answer, from its Server-Timing header."""
    found = SERVED_BY.match(response.headers["server-timing"])
    assert found, response.headers["server-timing"]
    return found[1]


def without_request_id(body: Any) -> Any:
    return {k: v for k, v in body.items() if k != "request_id"} if isinstance(body, dict) else body


@pytest.fixture(scope="module")
def in_line(redis_url: str) -> Iterator[TestClient]:
    """Every odds request computed on the event loop (the budget is the limit)."""
    settings = Settings(
        redis_url=redis_url, odds_inline_ms=1000, odds_max_ms=1000, odds_cache_entries=0
    )
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture(scope="module")
def pooled(redis_url: str) -> Iterator[TestClient]:
    """Every odds request computed in the process pool (no inline budget), nothing cached."""
    settings = Settings(redis_url=redis_url, odds_inline_ms=0, odds_cache_entries=0)
    with TestClient(create_app(settings)) as client:
        yield client


def post(client: TestClient, operation_id: str, body: Any) -> Any:
    _, path = operation_routes()[operation_id]
    return client.post(path, json=body)


def test_the_odds_operations_declare_the_gates_answers() -> None:
    """Every odds operation of every game goes through the gate (a Bullseye conflict's
    forecast too): its answer declares Server-Timing, 422 and 503."""
    every_game = {
        "checkOdds",
        "conflictForecast",
        "openD6RollOdds",
        "openD6OpposedOdds",
        "selfConflictCheckOdds",
        "quickShotGambleOdds",
        "travelogueRollOdds",
        "travelogueGameOdds",
    }
    assert every_game <= GATED
    for operation_id in GATED:
        assert {"422", "503"} <= set(OPERATIONS[operation_id]["responses"]), operation_id
    assert {op for op, _, _ in ODDS_EXAMPLES} == GATED - {"travelogueGameOdds", "conflictForecast"}


@pytest.mark.heavy
@pytest.mark.parametrize(("operation_id", "summary", "body"), ODDS_EXAMPLES)
def test_the_pool_answers_every_published_example_as_the_loop_does(
    in_line: TestClient, pooled: TestClient, operation_id: str, summary: str, body: Any
) -> None:
    from_loop, from_pool = post(in_line, operation_id, body), post(pooled, operation_id, body)
    assert (served_by(from_loop), served_by(from_pool)) == ("inline", "pool"), summary
    assert from_pool.status_code == from_loop.status_code == 200
    assert from_pool.content == from_loop.content  # the very same bytes


@pytest.mark.parametrize(
    ("operation_id", "body", "code"),
    [
        ("travelogueRollOdds", {**LARGEST_POOLS, "angel": {"aim": 3, "ammo": 31}}, "too-many"),
        (
            "openD6RollOdds",
            {
                "base": {"type": "skill", "code": "4D"},
                "character_points": {"before": 3},
                "character_point_limit": 2,
            },
            "cp-limit",
        ),
        (
            "quickShotGambleOdds",
            {"actions": [{"difficulty": "common"}], "wp_bet": 2},
            "wp-bet-invalid",
        ),
    ],
)
def test_a_rules_refusal_from_the_pool_is_the_loops_problem(
    in_line: TestClient, pooled: TestClient, operation_id: str, body: Any, code: str
) -> None:
    from_loop, from_pool = post(in_line, operation_id, body), post(pooled, operation_id, body)
    assert from_pool.status_code == from_loop.status_code == 422
    assert code in from_pool.json()["type"]
    assert without_request_id(from_pool.json()) == without_request_id(from_loop.json())


def test_a_repeated_request_is_answered_from_the_cache(client: TestClient) -> None:
    first = client.post("/v1/self-conflict/checks/odds", json=TALENT)
    again = client.post("/v1/self-conflict/checks/odds", json=TALENT)
    # The same request written otherwise: members reordered, spaced, defaults spelled out.
    spelled = json.dumps({"conflict_modifiers": [], **dict(reversed(TALENT.items()))}, indent=2)
    rewritten = client.post(
        "/v1/self-conflict/checks/odds",
        content=spelled,
        headers={"Content-Type": "application/json"},
    )
    assert [served_by(r) for r in (first, again, rewritten)] == ["inline", "cache", "cache"]
    assert first.content == again.content == rewritten.content
    other = client.post("/v1/self-conflict/checks/odds", json={**TALENT, "karma": None})
    assert served_by(other) == "inline"
    assert other.json()["karma_modifier"] == 0 != first.json()["karma_modifier"]


def test_odds_above_the_maximum_are_refused_naming_the_limit_and_the_estimate(
    redis_url: str,
) -> None:
    settings = Settings(redis_url=redis_url, odds_inline_ms=0.5, odds_max_ms=1)
    with TestClient(create_app(settings)) as client:
        refused = client.post("/v1/travelogue/rolls/odds", json=LARGEST_POOLS)
        cheap = client.post("/v1/self-conflict/checks/odds", json=TALENT)
    assert refused.status_code == 422
    problem = refused.json()
    assert problem["type"] == "/problems/odds-too-costly"
    assert problem["max_cost_ms"] == 1
    assert problem["estimated_cost_ms"] > 1
    assert "at most 1.0 ms" in problem["detail"]
    assert "ODDS_MAX_MS" in problem["detail"]
    assert [e["code"] for e in problem["errors"]] == ["odds-too-costly"]
    assert "retry-after" not in refused.headers  # asking again will not help
    assert cheap.status_code == 200


def test_without_a_pool_the_inline_budget_is_the_limit(redis_url: str) -> None:
    settings = Settings(redis_url=redis_url, odds_workers=0, odds_inline_ms=1)
    with TestClient(create_app(settings)) as client:
        refused = client.post("/v1/travelogue/rolls/odds", json=LARGEST_POOLS)
        small = client.post(
            "/v1/travelogue/rolls/odds",
            json={
                **LARGEST_POOLS,
                "shooter": {"aim": 3, "ammo": 2},
                "angel": {"aim": 3, "ammo": 2},
            },
        )
    assert refused.status_code == 422
    assert refused.json()["max_cost_ms"] == 1
    assert "ODDS_INLINE_MS, as ODDS_WORKERS is 0" in refused.json()["detail"]
    assert served_by(small) == "inline"


def test_a_request_the_rules_refuse_gets_their_refusal_not_the_cost_limit(
    redis_url: str,
) -> None:
    """Refusals are estimated as cheap: 31 dice is the travelogue's `too-many-dice`, 121
    OpenD6's, whatever the cost limit."""
    settings = Settings(redis_url=redis_url, odds_inline_ms=0.5, odds_max_ms=1)
    many = {"base": {"type": "skill", "code": "40D"}, "bonuses": [{"label": "x", "dice": 20}] * 5}
    with TestClient(create_app(settings)) as client:
        pools = client.post(
            "/v1/travelogue/rolls/odds", json={**LARGEST_POOLS, "angel": {"aim": 3, "ammo": 31}}
        )
        dice = client.post("/v1/opend6/rolls/odds", json=many)
    assert pools.json()["type"] == "/problems/travelogue/too-many-dice"
    assert dice.json()["type"] == "/problems/opend6/too-many-dice"


def test_the_gate_gives_the_odds_as_a_value_for_an_answer_that_embeds_them(
    redis_url: str,
) -> None:
    """``OddsGate.value``: the same odds, decoded, in line and from the pool."""
    request = msgspec.convert(TALENT, TalentOddsRequest)

    async def both() -> list[TalentOddsAnswer]:
        answers = []
        for inline_ms in (1000.0, 0.0):
            gate = OddsGate(Settings(redis_url=redis_url, odds_inline_ms=inline_ms))
            try:
                answers.append(
                    await gate.value(
                        request, talent_odds, cost=talent_odds_cost, answer_type=TalentOddsAnswer
                    )
                )
            finally:
                await gate.aclose()
        return answers

    assert asyncio.run(both()) == [talent_odds(request)] * 2


def test_the_event_loop_turns_while_the_pool_computes_and_not_while_it_computes_in_line(
    redis_url: str,
) -> None:
    """A four-million-bit square holds the interpreter for a large part of a second: in the
    pool the loop keeps serving meanwhile (a heartbeat on it beats before the answer
    comes), in line it cannot beat once until the answer is there."""
    heavy = Square(bits=4_000_000)

    async def beats_while_computing(inline_ms: float) -> tuple[int, Squared]:
        settings = Settings(redis_url=redis_url, odds_inline_ms=inline_ms, odds_max_ms=600_000)
        gate = OddsGate(settings)
        try:
            await gate.value(Square(bits=1), square, cost=square_cost, answer_type=Squared)
            beats = 0

            async def heartbeat() -> None:
                nonlocal beats
                while True:
                    await asyncio.sleep(0)
                    beats += 1

            beating = asyncio.create_task(heartbeat())
            await asyncio.sleep(0)  # the heartbeat's first turn
            before = beats
            answer = await gate.value(heavy, square, cost=square_cost, answer_type=Squared)
            during = beats - before
            beating.cancel()
            return during, answer
        finally:
            await gate.aclose()

    in_pool, from_pool = asyncio.run(beats_while_computing(0))
    in_line, from_loop = asyncio.run(beats_while_computing(600_000))
    assert from_pool == from_loop == square(heavy)
    assert in_pool > 0
    assert in_line == 0


def test_an_underestimated_computation_is_abandoned_at_its_deadline_and_the_next_goes_on(
    redis_url: str,
) -> None:
    """A cost function off by a thousand (a bug a ruleset's could have): seconds of work
    accepted as 1.6 ms. At the deadline (1 s) its process is killed and the request answered
    odds-busy; the request waiting behind it is computed by a new process. (The 60 s bound
    only keeps a pool without a deadline from hanging the test.)"""
    heavy = Square(bits=16_000_000)  # about five seconds here
    small = Square(bits=64)

    async def scenario() -> tuple[int, list[int], list[Squared | BaseException]]:
        settings = Settings(redis_url=redis_url, odds_inline_ms=0, odds_deadline_ms=1000)
        gate = OddsGate(settings)
        assert gate.pool is not None
        try:
            await gate.value(Square(bits=1), square, cost=square_cost, answer_type=Squared)
            (first,) = gate.pool.pids  # started: the deadline has no start-up allowance now
            underestimated = asyncio.create_task(
                gate.value(heavy, square, cost=square_underestimated, answer_type=Squared)
            )
            await asyncio.sleep(0)  # handed to the pool first
            waiting = asyncio.create_task(
                gate.value(small, square, cost=square_cost, answer_type=Squared)
            )
            both = asyncio.gather(underestimated, waiting, return_exceptions=True)
            outcomes = await asyncio.wait_for(both, 60)
            return first, gate.pool.pids, outcomes
        finally:
            await gate.aclose()

    first, now, (abandoned, computed) = asyncio.run(scenario())
    assert isinstance(abandoned, OddsBusy), abandoned
    assert "past its deadline (1000 ms, ODDS_DEADLINE_MS)" in str(abandoned.detail)
    assert computed == square(small)
    assert len(now) == 1
    assert now != [first]
    assert not Path(f"/proc/{first}").exists()  # killed and reaped


def test_a_pool_process_imports_the_rules_not_the_server(redis_url: str) -> None:
    """What a pool process holds is the rules it computes: not the web framework, Redis,
    the metrics or the rest of the service (a ``multiprocessing`` child would also import
    the program's main module), so it starts small (docs/odds.md, "Memory")."""
    server = ("litestar", "redis", "structlog", "prometheus_client", "granian", "uvicorn")
    service = ("service.app", "service.hosted", "service.settings", "service.http.odds.gate")
    asked = Modules(names=(*server, *service, "multiprocessing", pools_odds.__module__))

    async def scenario() -> Imported:
        gate = OddsGate(Settings(redis_url=redis_url, odds_inline_ms=0))
        try:
            request = msgspec.convert(LARGEST_POOLS, PoolsRequest)
            await gate.answer(request, pools_odds, cost=pools_odds_cost)  # a game's rules
            return await gate.value(asked, imported, cost=imported_cost, answer_type=Imported)
        finally:
            await gate.aclose()

    assert asyncio.run(scenario()).names == (pools_odds.__module__,)


def test_the_deadline_is_five_times_the_limit_unless_set_and_never_below_it() -> None:
    assert Settings().odds_deadline_seconds == 5.0
    assert Settings(odds_max_ms=100).odds_deadline_seconds == 1.0  # at least a second
    assert Settings.from_env({"ODDS_DEADLINE_MS": "1500"}).odds_deadline_seconds == 1.5
    with pytest.raises(SettingsError, match="ODDS_DEADLINE_MS must be at least ODDS_MAX_MS"):
        Settings.from_env({"ODDS_DEADLINE_MS": "1500", "ODDS_MAX_MS": "2000"})
    with pytest.raises(SettingsError, match="ODDS_DEADLINE_MS"):
        Settings.from_env({"ODDS_DEADLINE_MS": "50"})


@pytest.mark.parametrize(("recycle_mib", "processes"), [(48, 1), (1, 3)])
def test_a_pool_process_past_its_memory_ceiling_is_replaced_after_its_answer(
    redis_url: str, recycle_mib: int, processes: int
) -> None:
    """Past ODDS_RECYCLE_MIB after an answer (every process is past 1 MiB), the process is
    ended and the next request starts a new one; below it, one process computes all."""

    async def three() -> tuple[list[int], list[int]]:
        settings = Settings(redis_url=redis_url, odds_inline_ms=0, odds_recycle_mib=recycle_mib)
        gate = OddsGate(settings)
        assert gate.pool is not None
        try:
            pids = [
                (await gate.value(Who(asking=n), whose, cost=whose_cost, answer_type=Whose)).pid
                for n in range(3)
            ]
            return pids, gate.pool.pids
        finally:
            await gate.aclose()

    computed_by, left = asyncio.run(three())
    assert len(set(computed_by)) == processes
    assert left == ([] if processes > 1 else computed_by[:1])  # ended once it answered


def test_identical_requests_waiting_at_once_share_one_computation(redis_url: str) -> None:
    """Four identical requests at once take one place in the pool, not four."""
    request = msgspec.convert(LARGEST_POOLS, PoolsRequest)

    async def four() -> tuple[int, list[bytes]]:
        gate = OddsGate(Settings(redis_url=redis_url, odds_inline_ms=0, odds_queue=0))
        assert gate.pool is not None
        assert gate.pool.places == 1
        try:
            answers = await asyncio.gather(
                *(gate.answer(request, pools_odds, cost=pools_odds_cost) for _ in range(4))
            )
            return len(gate.cache), [a.content for a in answers]
        finally:
            await gate.aclose()

    cached, bodies = asyncio.run(four())
    assert cached == 1
    assert bodies == [msgspec.json.encode(pools_odds(request))] * 4


def test_the_gate_refuses_a_function_no_pool_process_could_import(redis_url: str) -> None:
    request = msgspec.convert(TALENT, TalentOddsRequest)
    gate = OddsGate(Settings(redis_url=redis_url))
    with pytest.raises(TypeError, match="module-level"):
        asyncio.run(gate.answer(request, lambda r: talent_odds(r), cost=talent_odds_cost))


def test_the_cache_forgets_the_least_recently_used_within_its_entries_and_bytes() -> None:
    cache = AnswerCache(entries=3, max_bytes=100)
    for key in (b"a", b"b", b"c"):
        cache.put(key, b"x" * 9)  # 10 bytes each, key included
    assert cache.get(b"a") == b"x" * 9  # now the most recently used
    cache.put(b"d", b"y" * 9)  # a fourth entry: "b" goes
    held = [cache.get(key) is not None for key in (b"a", b"b", b"c", b"d")]
    assert held == [True, False, True, True]
    cache.put(b"e", b"z" * 90)  # 91 bytes: "c" goes (4 entries), then "a" and "d" (bytes)
    assert cache.size == 91
    assert len(cache) == 1
    assert cache.get(b"e") is not None
    cache.put(b"f", b"w" * 100)  # larger than the whole cache: not kept, nothing forgotten
    assert cache.get(b"f") is None
    assert cache.get(b"e") is not None
    cache.put(b"e", b"v")  # replaced, counted once
    assert cache.size == 2
    assert len(cache) == 1


def test_a_cache_of_no_entries_keeps_nothing() -> None:
    cache = AnswerCache(entries=0, max_bytes=1000)
    cache.put(b"a", b"b")
    assert cache.get(b"a") is None
    assert cache.size == 0
