"""An odds pool process: the child side of :mod:`service.http.odds.pool`.

A worker starts it as ``python -c`` (:data:`BOOT`), not through :mod:`multiprocessing`:
a ``spawn`` child first imports the main module of the program that runs the app (for
``python -m service``, the server with its settings, logging and Redis modules) and
starts the resource tracker beside it, 60 MiB that computing odds never used. This one
imports this module, then each game's pure rules as their first request arrives.

It computes one request at a time: the worker sends a request (:func:`framed`: a length and a
pickle of the rules' function, by qualified name, and the request, a msgspec Struct) over a
socket; the process answers ``(outcome, resident bytes)``, the outcome being the answer's
JSON, the rules' refusal as its parts (a ``RulesError`` does not pickle: its constructor
takes more than its message) or any other exception. It leaves when the socket or its
standard input closes: its worker ended it, or its worker is gone (even killed).
"""

from __future__ import annotations

import os
import pickle
import resource
import signal
import socket
import struct
import sys
import threading
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec

from service.kernel.errors import Concern, RulesError

__all__ = ["BOOT", "Refusal", "compute", "framed", "receive", "resident_bytes", "serve"]

# A process computes below the event loops of the same machine: the cheap requests they
# serve come first, the heavy odds take what is left. It starts (imports the rules) at the
# server's own priority: at this one, on a busy machine, that took ten times longer.
NICENESS = 10
# ``python -c BOOT <socket fd> <sys.path...>``: the worker's module path, as spawn passes it.
BOOT = (
    "import sys; sys.path[:] = sys.argv[2:]; "
    "from service.http.odds.process import serve; serve(int(sys.argv[1]))"
)
_LENGTH = struct.Struct("!Q")


@dataclass(frozen=True, slots=True)
class Refusal:
    """A ``RulesError`` raised in a pool process, in parts that pickle."""

    code: str
    detail: str
    concerns: tuple[Concern, ...]
    extensions: Mapping[str, object]

    def error(self) -> RulesError:
        return RulesError(self.code, self.detail, self.concerns, self.extensions)


def compute(rules: Callable[[Any], msgspec.Struct], data: msgspec.Struct) -> bytes | Refusal:
    """``rules(data)`` as JSON, or the rules' refusal."""
    try:
        return msgspec.json.encode(rules(data))
    except RulesError as error:
        return Refusal(str(error.code), error.detail, error.concerns, dict(error.extensions))


def framed(message: object) -> bytes:
    """``message`` as sent on the socket: its pickle's length, then the pickle."""
    payload = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    return _LENGTH.pack(len(payload)) + payload


def receive(channel: socket.socket) -> bytes:
    """The next message's pickle (:func:`pickle.loads` it). Raises EOFError when the other
    side has closed the socket (or died)."""
    (size,) = _LENGTH.unpack(_exactly(channel, _LENGTH.size))
    return _exactly(channel, size)


def _exactly(channel: socket.socket, size: int) -> bytes:
    buffer = bytearray(size)
    view = memoryview(buffer)
    got = 0
    while got < size:
        read = channel.recv_into(view[got:])
        if read == 0:
            raise EOFError
        got += read
    return bytes(buffer)


def resident_bytes() -> int:
    """This process's resident memory now (Linux), else its peak."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * resource.getpagesize()
    except OSError:
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def serve(channel_fd: int) -> None:
    """Compute what arrives on ``channel_fd`` until it closes. The server's Ctrl-C is its
    worker's to handle; the worker ends this process when it is done with it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_leave_with_worker, daemon=True).start()
    channel = socket.socket(fileno=channel_fd)
    first = True
    while True:
        try:
            request = receive(channel)
        except EOFError:
            return
        outcome: bytes | Refusal | BaseException
        try:
            # From the worker that started this process; the first of a game imports its rules.
            rules, data = pickle.loads(request)  # noqa: S301
            if first:
                os.nice(NICENESS)
                first = False
            outcome = compute(rules, data)
        except Exception as error:  # the worker raises it, as the loop would have
            outcome = _portable(error)
        channel.sendall(framed((outcome, resident_bytes())))


def _portable(error: Exception) -> BaseException:
    """``error`` with its traceback as a note, or a RuntimeError saying it if it does not
    pickle."""
    told = "".join(traceback.format_exception(error))
    error.add_note(f"in odds pool process {os.getpid()}:\n{told}")
    try:
        pickle.dumps(error)
    except Exception:
        return RuntimeError(f"in odds pool process {os.getpid()}:\n{told}")
    return error


def _leave_with_worker() -> None:
    """Standard input is a pipe its worker holds open and never writes to: end of file
    means the worker is gone, even killed (which would leave this process computing)."""
    while os.read(0, 4096):
        pass
    os._exit(0)
