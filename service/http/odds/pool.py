"""The odds pool: heavy odds computed in other processes, so that no event loop waits on them.

Threads would not do: one multiplication of two big integers holds the GIL for as long as
it runs (a 3-million-digit square stalled a loop 600 ms), and exact odds are made of them.
So a worker hands such a request to a pool of processes of its own
(:mod:`service.http.odds.process`), each started by the first request that finds none
(most workers never start one). Every request in the pool, computing or waiting, holds one
of ``workers + queue`` places; with none free the request is refused (503 ``odds-busy``)
rather than queued without bound.

A computation has a deadline: ``deadline`` seconds from when its process receives it (a
process started for it has :data:`START_SECONDS` more to start). Past it the process is
killed (SIGKILL ends a stopped process too) and the request refused
(:class:`PastDeadlineError`); a process that dies while computing (killed, out of memory)
refuses its request the same way (:class:`PoolLostError`). Only that request is lost: the
requests waiting go on to the next process, a fresh one started as the first needs it.
Nothing else cancels a computation once handed over.

A process whose resident memory passes ``recycle_bytes`` after an answer (the rules'
memos fill up: tens of MiB of big integers once OpenD6 has seen a hundred large rolls) is
ended once the answer is given, and the next request starts a new one.

Each process is driven by one task of the worker's event loop (a *runner*) that takes the
next waiting request, and by one thread that blocks on the process's socket meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import pickle
import socket
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import msgspec
import structlog

from service.http.odds.process import BOOT, Refusal, framed, receive

__all__ = ["START_SECONDS", "OddsPool", "PastDeadlineError", "PoolBusyError", "PoolLostError"]

# How long a new process may take to start and import its first request's rules (well
# under a second on an idle machine) before it counts as lost.
START_SECONDS = 10.0
_log = structlog.get_logger("service.odds")

Outcome = bytes | Refusal


class PoolBusyError(Exception):
    """Every place in the pool is taken."""


class PoolLostError(Exception):
    """The process computing this request died, or did not start."""


class PastDeadlineError(PoolLostError):
    """The process computing this request ran past the deadline (or was stopped): it was
    killed."""


@dataclass(eq=False)
class _Process:
    """One pool process and its end of the socket to it."""

    popen: subprocess.Popen[bytes]
    channel: socket.socket  # and popen.stdin: while this worker holds it, the process stays

    @classmethod
    def start(cls) -> _Process:
        ours, theirs = socket.socketpair()
        # No metrics: the server's multiprocess directory is not this process's to write.
        env = {k: v for k, v in os.environ.items() if k != "PROMETHEUS_MULTIPROC_DIR"}
        with theirs:
            popen = subprocess.Popen(  # noqa: S603 (this interpreter, our own module)
                [sys.executable, "-c", BOOT, str(theirs.fileno()), *sys.path],
                stdin=subprocess.PIPE,
                pass_fds=(theirs.fileno(),),
                env=env,
            )
        return cls(popen, ours)

    def exchange(self, request: bytes) -> tuple[Outcome | BaseException, int]:
        """In a thread: the request's outcome and the process's resident bytes after it.
        Raises EOFError or OSError when the process dies meanwhile."""
        self.channel.sendall(request)
        outcome, resident = pickle.loads(receive(self.channel))  # noqa: S301 (our child)
        return outcome, resident

    def kill(self) -> None:
        """At once, from the event loop: the thread blocked on the socket sees it closed."""
        if self.popen.returncode is None:
            self.popen.kill()

    def reap(self) -> None:
        """In a thread, once killed."""
        self.popen.wait()
        self.channel.close()
        if self.popen.stdin is not None:
            self.popen.stdin.close()


@dataclass(eq=False)
class _Request:
    message: bytes
    done: asyncio.Future[Outcome]


class OddsPool:
    """``workers`` processes, and ``queue`` more requests waiting for one at most; each
    computation ``deadline`` seconds at most; a process that holds more than
    ``recycle_bytes`` after an answer is replaced (see the module)."""

    def __init__(self, workers: int, queue: int, *, deadline: float, recycle_bytes: int) -> None:
        if workers < 1:
            raise ValueError("a pool has at least one process")
        self.workers = workers
        self.places = workers + queue
        self.deadline = deadline
        self.recycle_bytes = recycle_bytes  # 0: never
        self.held = 0  # requests in the pool, running or waiting
        self._processes: list[_Process | None] = [None] * workers
        self._waiting: asyncio.Queue[_Request] | None = None
        self._runners: list[asyncio.Task[None]] = []
        self._threads: ThreadPoolExecutor | None = None

    @property
    def pids(self) -> list[int]:
        """The processes running now (each starts with the first request that needs it)."""
        return [process.popen.pid for process in self._processes if process is not None]

    def submit(
        self, compute: Callable[[Any], msgspec.Struct], data: msgspec.Struct
    ) -> asyncio.Future[Outcome]:
        """Hand ``compute(data)`` to the pool. The future fails with
        :class:`PastDeadlineError` or :class:`PoolLostError` if its process is lost, or
        with the exception the rules raised (a refusal is an outcome, not an exception).

        Raises:
            PoolBusyError: no place is free.
        """
        if self.held >= self.places:
            raise PoolBusyError
        message = framed((compute, data))
        done: asyncio.Future[Outcome] = asyncio.get_running_loop().create_future()
        self._started().put_nowait(_Request(message, done))
        self.held += 1
        done.add_done_callback(self._freed)
        return done

    async def aclose(self) -> None:
        """End the processes: what they compute and what waits fails with PoolLostError."""
        runners, self._runners = self._runners, []
        for runner in runners:
            runner.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
        if self._waiting is not None:
            while not self._waiting.empty():
                _fail(self._waiting.get_nowait().done, PoolLostError())
            self._waiting = None
        if self._threads is not None:
            self._threads.shutdown(wait=False)
            self._threads = None

    def _freed(self, _: asyncio.Future[Outcome]) -> None:
        self.held -= 1

    def _started(self) -> asyncio.Queue[_Request]:
        if self._waiting is None:
            self._waiting = asyncio.Queue()
            self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="odds-pool")
            self._runners = [
                asyncio.create_task(self._run(slot, self._waiting, self._threads))
                for slot in range(self.workers)
            ]
        return self._waiting

    async def _run(
        self, slot: int, waiting: asyncio.Queue[_Request], threads: ThreadPoolExecutor
    ) -> None:
        """Process ``slot``'s runner: each waiting request in turn, in its process (started
        when there is none), until the pool ends."""
        loop = asyncio.get_running_loop()
        request: _Request | None = None
        try:
            while True:
                request = await waiting.get()
                if request.done.done():  # every client waiting for it has left
                    continue
                process, fresh = self._processes[slot], False
                if process is not None and process.popen.poll() is not None:
                    _log.warning("odds_process_lost", pid=process.popen.pid, idle=True)
                    await self._end(slot, threads)  # died while idle: not this request's
                    process = None
                if process is None:
                    process = await loop.run_in_executor(threads, _Process.start)
                    self._processes[slot], fresh = process, True
                    _log.info("odds_process_started", pid=process.popen.pid, places=self.places)
                try:
                    outcome, resident = await self._exchange(
                        process, request.message, fresh, threads
                    )
                except PoolLostError as lost:
                    self._processes[slot] = None
                    _fail(request.done, lost)
                    continue
                if isinstance(outcome, BaseException):
                    _fail(request.done, outcome)
                elif not request.done.done():
                    request.done.set_result(outcome)
                if self.recycle_bytes and resident > self.recycle_bytes:
                    # The rules' memos fill up (tens of MiB of big integers): a new process
                    # starts empty, for the price of a start and of cold memos.
                    _log.info(
                        "odds_process_recycled",
                        pid=process.popen.pid,
                        resident_mib=round(resident / 2**20, 1),
                    )
                    await self._end(slot, threads)
        except asyncio.CancelledError:
            if request is not None:
                _fail(request.done, PoolLostError())
            await self._end(slot, threads)
            raise

    async def _end(self, slot: int, threads: ThreadPoolExecutor) -> None:
        """Kill and reap process ``slot``, if any: the next request starts a new one."""
        process, self._processes[slot] = self._processes[slot], None
        if process is not None:
            process.kill()
            await asyncio.get_running_loop().run_in_executor(threads, process.reap)

    async def _exchange(
        self, process: _Process, message: bytes, fresh: bool, threads: ThreadPoolExecutor
    ) -> tuple[Outcome | BaseException, int]:
        """The outcome of ``message`` in ``process`` and the process's resident bytes after
        it; the process is killed and reaped when lost.

        Raises:
            PastDeadlineError: past the deadline, the process was killed.
            PoolLostError: the process died.
        """
        loop = asyncio.get_running_loop()
        exchange = loop.run_in_executor(threads, process.exchange, message)
        allowed = self.deadline + (START_SECONDS if fresh else 0.0)
        done, _ = await asyncio.wait({exchange}, timeout=allowed)
        if done and exchange.exception() is None:
            return exchange.result()
        lost = PoolLostError() if done else PastDeadlineError()
        _log.warning(
            "odds_process_lost" if done else "odds_process_past_deadline",
            pid=process.popen.pid,
            allowed_seconds=allowed,
        )
        process.kill()
        with contextlib.suppress(EOFError, OSError):
            await exchange  # the process's end closed its socket
        await loop.run_in_executor(threads, process.reap)
        raise lost


def _fail(future: asyncio.Future[Outcome], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)
