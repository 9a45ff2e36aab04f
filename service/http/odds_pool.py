"""The odds pool: heavy odds computed in other processes, so that no event loop waits on them.

Threads would not do: one multiplication of two big integers holds the GIL for as long as
it runs (a 3-million-digit square stalled a loop 600 ms), and exact odds are made of them.
So a worker hands such a request to a :class:`concurrent.futures.ProcessPoolExecutor`
of its own, started on the first one (most workers never need it), with the ``spawn``
start method: forking a process that runs an event loop, the server's threads and open
Redis connections is unsafe. Every request in the pool, running or waiting, holds one of
``workers + queue`` places; with none free the request is refused (503 ``odds-busy``)
rather than queued without bound. A pool process that dies (killed, out of memory) breaks
the executor: the requests it held are refused the same way and the next one starts a
new pool.

What crosses to a pool process: the rules' function (pickled by its qualified name, so it
must be a module-level function), the request (a msgspec Struct: Structs pickle) and,
back, the answer as JSON bytes, or the rules' refusal as its parts (a ``RulesError``
does not pickle: its constructor takes more than its message).

Like any process started by ``spawn``, a pool process first imports the main module of
the program that runs the app (as ``__mp_main__``): ``python -m service`` and the ASGI
servers guard theirs, but a script that builds and calls the app at import time, without
``if __name__ == "__main__":``, would run again in every pool process.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable, Mapping
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import cache
from multiprocessing import get_context, parent_process
from multiprocessing.connection import wait
from typing import Any

import msgspec
import structlog

from service.kernel.errors import Concern, RulesError

__all__ = ["OddsPool", "PoolBusyError", "PoolLostError", "Refusal", "compute_in_pool"]

# A pool process computes below the event loops of the same machine: the cheap requests
# they serve come first, the heavy odds take what is left. It starts (imports the rules)
# at the server's own priority: at this one, on a busy machine, that took ten times longer.
POOL_NICENESS = 10
_log = structlog.get_logger("service.odds")


class PoolBusyError(Exception):
    """Every place in the pool is taken."""


class PoolLostError(Exception):
    """A pool process died while it held this request."""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A ``RulesError`` raised in a pool process, in parts that pickle."""

    code: str
    detail: str
    concerns: tuple[Concern, ...]
    extensions: Mapping[str, object]

    def error(self) -> RulesError:
        return RulesError(self.code, self.detail, self.concerns, self.extensions)


def compute_in_pool(
    compute: Callable[[Any], msgspec.Struct], data: msgspec.Struct
) -> bytes | Refusal:
    """In a pool process: ``compute(data)`` as JSON, or the rules' refusal."""
    _below_the_event_loops()
    try:
        return msgspec.json.encode(compute(data))
    except RulesError as error:
        return Refusal(str(error.code), error.detail, error.concerns, dict(error.extensions))


@cache
def _below_the_event_loops() -> None:
    """Once a process, when its first computation starts (the rules are imported by then,
    as its first task arrives)."""
    os.nice(POOL_NICENESS)


def _pool_process_started() -> None:
    """A new pool process: the server's Ctrl-C is its parent's to handle, it leaves when
    the pool is shut down or its worker is gone (even killed, which the pool itself would
    not notice), and it serves no metrics (the rules it imports must not write samples
    into the server's multiprocess directory)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    os.environ.pop("PROMETHEUS_MULTIPROC_DIR", None)
    parent = parent_process()
    if parent is not None:
        threading.Thread(target=_leave_with, args=(parent.sentinel,), daemon=True).start()


def _leave_with(parent_sentinel: int) -> None:
    wait([parent_sentinel])  # ready once the parent process has ended
    os._exit(0)


class OddsPool:
    """``workers`` processes, and ``queue`` more requests waiting for one at most."""

    def __init__(self, workers: int, queue: int) -> None:
        if workers < 1:
            raise ValueError("a pool has at least one process")
        self.workers = workers
        self.places = workers + queue
        self.held = 0  # requests in the pool, running or waiting
        self._executor: ProcessPoolExecutor | None = None

    def submit(
        self, compute: Callable[[Any], msgspec.Struct], data: msgspec.Struct
    ) -> asyncio.Future[bytes | Refusal]:
        """Hand ``compute(data)`` to the pool. The future fails with
        :class:`PoolLostError` if a pool process dies meanwhile; nothing cancels the
        computation once handed over (its place is freed when it ends).

        Raises:
            PoolBusyError: no place is free.
        """
        if self.held >= self.places:
            raise PoolBusyError
        executor = self._running()
        try:
            handed = executor.submit(compute_in_pool, compute, data)
        except BrokenProcessPool:  # a process died while the pool was idle
            self._discard(executor)
            executor = self._running()
            handed = executor.submit(compute_in_pool, compute, data)
        self.held += 1
        done: asyncio.Future[bytes | Refusal] = asyncio.get_running_loop().create_future()

        def landed(answer: asyncio.Future[bytes | Refusal]) -> None:
            self.held -= 1
            if done.cancelled():
                return
            if answer.cancelled():  # the pool was shut down before it ran
                done.set_exception(PoolLostError())
            elif (error := answer.exception()) is None:
                done.set_result(answer.result())
            elif isinstance(error, BrokenProcessPool):
                self._discard(executor)
                done.set_exception(PoolLostError())
            else:
                done.set_exception(error)

        asyncio.wrap_future(handed).add_done_callback(landed)
        return done

    async def aclose(self) -> None:
        """Cancel what waits, let what runs finish, and end the processes."""
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)

    def _running(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers, mp_context=get_context("spawn"), initializer=_pool_process_started
            )
            _log.info("odds_pool_started", processes=self.workers, places=self.places)
        return self._executor

    def _discard(self, executor: ProcessPoolExecutor) -> None:
        if self._executor is executor:
            self._executor = None
            _log.warning("odds_pool_lost", detail="a pool process died; a new pool is started")
        executor.shutdown(wait=False, cancel_futures=True)
