"""Server-sent events of a session: its Redis stream, as ``text/event-stream``.

Frames are written here rather than by Litestar's ``ServerSentEvent``, which gives a bare
comment an empty ``data:`` line — an empty message in every browser. Keep-alives are
comment lines only. A stream ends with an event when its session is closed (the stream's
own last event) or has expired (``<kind>.expired``), and with a comment when the worker
stops (the client resumes with ``Last-Event-ID``).

Each worker holds at most ``limit`` streams (:class:`StreamGate`); past it a request is
refused with a 503 problem before anything is streamed. Each session and each client hold
at most their own share over every worker (``service.sessions.stream_leases``): 429.
"""

from __future__ import annotations

import asyncio
import weakref
from typing import TYPE_CHECKING, Any, cast

import msgspec
from litestar.response import Stream
from redis.exceptions import RedisError

from service.http.contract.errors import StoreError, TooManyStreams
from service.metrics import REDIS_ERRORS

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from service.sessions.client import RedisClient
    from service.sessions.keys import SessionKind
    from service.sessions.stream_leases import StreamLease, StreamLeases

__all__ = ["EventReader", "StreamGate", "event_stream_response", "is_stream_id"]

KEEP_ALIVE = b": keep-alive\n\n"
STOPPING = b": server stopping; reconnect with Last-Event-ID\n\n"
_json = msgspec.json.Encoder()


def is_stream_id(value: str) -> bool:
    """Whether ``value`` reads as a Redis stream id (``<ms>`` or ``<ms>-<seq>``)."""
    milliseconds, _, sequence = value.partition("-")
    return milliseconds.isdigit() and (sequence == "" or sequence.isdigit())


class StreamGate:
    """How many event streams this worker holds open, at most ``limit``."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open = 0

    def enter(self, retry_after: int) -> None:
        """Count one more stream, or refuse it (503) when the worker holds ``limit``."""
        if self.open >= self.limit:
            raise TooManyStreams(
                detail=f"This worker holds {self.limit} event streams, its limit; retry.",
                headers={"Retry-After": str(retry_after)},
            )
        self.open += 1

    def leave(self) -> None:
        """One stream fewer."""
        self.open -= 1


class EventReader:
    """Blocking reads of one kind of session's event streams, over the streams' own pool."""

    def __init__(self, client: RedisClient, kind: SessionKind) -> None:
        self._client = client
        self.kind = kind

    async def read(
        self, session_id: str, after: str, block_ms: int
    ) -> list[tuple[str, str, bytes]]:
        """Events after stream id ``after`` ("0": from the start), waiting up to ``block_ms``."""
        try:
            answer = cast(
                "list[tuple[bytes, list[tuple[bytes, dict[bytes, bytes]]]]]",
                await self._client.xread(
                    {self.kind.events(session_id): after}, count=100, block=block_ms
                ),
            )
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error
        return [
            (entry_id.decode(), fields[b"type"].decode(), bytes(fields[b"data"]))
            for _stream, entries in answer or ()
            for entry_id, fields in entries
        ]

    async def alive(self, session_id: str) -> bool:
        """Whether the session is still stored (neither deleted nor expired)."""
        try:
            return bool(await self._client.hexists(self.kind.state(session_id), "s"))
        except RedisError as error:
            REDIS_ERRORS.inc()
            raise StoreError(str(error)) from error


def _frame(event_id: str | None, event_type: str, data: dict[str, Any]) -> bytes:
    """One SSE frame; its data carries the event's ``type`` as its published schema does."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    typed = {"type": event_type, **data}
    return f"{head}event: {event_type}\ndata: ".encode() + _json.encode(typed) + b"\n\n"


async def _frames(
    reader: EventReader,
    session_id: str,
    after: str,
    stopping: asyncio.Event,
    block_ms: int,
    renew: Callable[[], Awaitable[None]],
    done: Callable[[], None],
) -> AsyncIterator[bytes]:
    closed = reader.kind.closed_event
    reading: asyncio.Future[list[tuple[str, str, bytes]]] | None = None
    stop = asyncio.ensure_future(stopping.wait())
    try:
        while True:
            await renew()
            reading = asyncio.ensure_future(reader.read(session_id, after, block_ms))
            await asyncio.wait((reading, stop), return_when=asyncio.FIRST_COMPLETED)
            if not reading.done():  # the worker is stopping: end here, the client resumes
                yield STOPPING
                return
            try:
                batch = reading.result()
                if not batch:
                    if not await reader.alive(session_id):
                        yield _frame(None, reader.kind.expired_event, {})
                        return
                    yield KEEP_ALIVE
                    continue
            except StoreError:
                return
            for event_id, event_type, data in batch:
                after = event_id
                yield _frame(event_id, event_type, msgspec.msgpack.decode(data))
                if event_type == closed:
                    return
    finally:
        # However it ends — finished, failed, or cancelled when the client went away —
        # neither the pending read nor the wait for the stop signal outlives it, and the
        # stream is counted out.
        stop.cancel()
        if reading is not None:
            reading.cancel()
        done()


async def event_stream_response(
    reader: EventReader,
    session_id: str,
    after: str,
    *,
    stopping: asyncio.Event,
    keep_alive_seconds: float,
    gate: StreamGate,
    leases: StreamLeases,
    identity: str,
    retry_after: int,
) -> Stream:
    """The open stream, counted against ``gate`` (this worker's) and ``leases`` (the
    session's and the client's, everywhere) until its frames are done or dropped."""
    gate.enter(retry_after)
    try:
        lease: StreamLease = await leases.take(reader.kind, session_id, identity)
    except BaseException:
        gate.leave()
        raise
    released = False

    def release() -> None:
        nonlocal released
        if not released:
            released = True
            gate.leave()
            leases.release(lease)

    async def renew() -> None:
        await leases.renew(lease)

    frames = _frames(
        reader, session_id, after, stopping, int(keep_alive_seconds * 1000), renew, release
    )
    # A stream whose frames never started (the client went away first) is counted out
    # when its generator is collected.
    weakref.finalize(frames, release)
    return Stream(
        frames,
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )
