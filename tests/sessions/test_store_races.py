"""Races inside one worker, against a real Redis (found by review): a remembered copy that
another coroutine evicted or moved on, a refusal kept over another run's answer, and event
streams whose clients leave."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from service.kernel.events import Event
from service.kernel.values import Value
from service.sessions.access import issue_tokens
from service.sessions.client import make_client
from service.sessions.idempotency import ANSWERED, Claim, Idempotency, answer_bytes
from service.sessions.keys import SessionKind
from service.sessions.store import Committed, Kept, SessionStore
from service.sessions.stream import EventReader, StreamGate, event_stream_response
from service.sessions.stream_leases import StreamLeases
from service.settings import Settings

KIND = SessionKind("race", "table")


class Table(Value, frozen=True, kw_only=True):
    name: str
    moves: int = 0


class Move(Value, frozen=True, kw_only=True):
    number: int


class Closed(Event, frozen=True, kw_only=True, tag="table.closed"):
    pass


def run(redis_url: str, body: Callable[..., Awaitable[None]], **store: int) -> None:
    async def main() -> None:
        client = make_client(Settings(redis_url=redis_url, log_format="json"))
        try:
            await body(
                client,
                SessionStore(client, KIND, Table, Move, max_bytes=1 << 20, **store),
            )
        finally:
            await client.aclose()

    asyncio.run(main())


async def created(store: SessionStore[Table], name: str) -> None:
    _, access = issue_tokens(["ana"], gm=False)
    written = await store.write(
        name, Table(name=name), expected_version=0, ttl_ms=60_000, access=access
    )
    assert isinstance(written, Committed)


def test_concurrent_reads_past_the_workers_memory_never_fail(redis_url: str) -> None:
    """Three sessions, room for two: reads that evict each other's copies all answer."""

    async def body(client: object, store: SessionStore[Table]) -> None:
        names = [f"evict-{n}" for n in range(3)]
        for name in names:
            await created(store, name)
        for _ in range(20):
            loaded = await asyncio.gather(*(store.load(name) for name in names * 3))
            assert [s.state.name for s in loaded if s is not None] == names * 3

    run(redis_url, body, recent_count=2, recent_bytes=1 << 20)


def test_a_read_racing_a_delete_answers_without_failing(redis_url: str) -> None:
    async def body(client: object, store: SessionStore[Table]) -> None:
        for round_ in range(20):
            name = f"gone-{round_}"
            await created(store, name)
            await store.load(name)  # remembered
            await asyncio.gather(store.load(name), store.delete(name, Closed()))
            assert await store.load(name) is None

    run(redis_url, body, recent_count=100, recent_bytes=1 << 20)


def test_a_write_racing_a_read_never_leaves_a_copy_with_its_history_twice(
    redis_url: str,
) -> None:
    """A read of the new version may land while the write that made it is answered: the
    worker's copy must then match what Redis holds, never repeat the write's history."""

    async def body(client: object, store: SessionStore[Table]) -> None:
        for round_ in range(30):
            name = f"history-{round_}"
            await created(store, name)
            await store.load(name, history=True)
            await asyncio.gather(
                store.write(
                    name,
                    Table(name=name, moves=1),
                    expected_version=1,
                    ttl_ms=60_000,
                    history=[Move(number=1)],
                    from_copy=True,
                ),
                store.load(name, history=True),
            )
            served = await store.load(name, history=True)
            assert served is not None
            assert served.history == await store.history(name)
            assert served.history == (Move(number=1),)

    run(redis_url, body, recent_count=100, recent_bytes=1 << 20)


def test_a_refusal_is_never_kept_over_another_runs_answer(redis_url: str) -> None:
    """Request A outlives its lease; its retry B claims the key and is applied. When A is
    then refused (the state has moved on), the key keeps B's answer, and A learns it."""

    async def body(client: object, store: SessionStore[Table]) -> None:
        keys = Idempotency(client, KIND, lease_ms=50, kept_per_owner=16, max_bytes=1 << 20)
        await created(store, "lease")
        first = await keys.claim(
            "lease", "k", principal="ana", method="POST", path="/p", body=b"{}"
        )
        assert isinstance(first, Claim)
        await asyncio.sleep(0.1)  # A's lease runs out
        retry = await keys.claim(
            "lease", "k", principal="ana", method="POST", path="/p", body=b"{}"
        )
        assert isinstance(retry, Claim)
        applied = answer_bytes(retry.request, 200, b'{"applied":1}', {})
        written = await store.write(
            "lease",
            Table(name="lease", moves=1),
            expected_version=1,
            ttl_ms=60_000,
            idempotency=Kept(field=retry.field, owner=retry.owner, answer=applied),
        )
        assert isinstance(written, Committed)
        refusal = answer_bytes(first.request, 409, b'{"refused":1}', {})
        held = await keys.keep("lease", first, refusal)
        assert held == applied
        assert held[:1] == ANSWERED
        assert await client.hget(KIND.answers("lease"), retry.field) == applied

    run(redis_url, body)


def test_streams_whose_clients_leave_leave_no_task_behind(redis_url: str) -> None:
    async def body(client: object, store: SessionStore[Table]) -> None:
        await created(store, "streamed")
        reader = EventReader(client, KIND)
        gate, stopping = StreamGate(100), asyncio.Event()
        leases = StreamLeases(client, per_session=5, per_client=5, lease_ms=60_000, retry_after=1)
        before = len(asyncio.all_tasks())
        for _ in range(20):
            response = await event_stream_response(
                reader,
                "streamed",
                "0",
                stopping=stopping,
                keep_alive_seconds=5,
                gate=gate,
                leases=leases,
                identity="addr:test",
                retry_after=1,
            )
            frames = response.iterator
            consumer = asyncio.ensure_future(frames.__anext__())
            await asyncio.sleep(0.02)  # blocked in its read, as a quiet stream is
            consumer.cancel()  # the client went away
            await asyncio.gather(consumer, return_exceptions=True)
            del response, frames, consumer
        for _ in range(100):  # a loaded machine may take a while to run the cancellations
            if gate.open == 0 and len(asyncio.all_tasks()) == before:
                break
            await asyncio.sleep(0.02)
        assert gate.open == 0
        assert len(asyncio.all_tasks()) == before
        # Every lease given back: 20 streams opened, never more than 5 at once allowed.
        assert await client.zcard(f"{KIND.state('streamed')}:streams") == 0
        assert await client.zcard("bullseye:streams:{addr:test}") == 0

    run(redis_url, body)
