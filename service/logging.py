"""structlog: one JSON line per event in production, readable lines on a terminal.

The standard library's records (uvicorn's start-up and error lines) go through the same
renderer, so every line the process writes has the same shape.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import msgspec
import structlog

if TYPE_CHECKING:
    from service.settings import Settings

__all__ = ["configure_logging", "iso_utc", "log_request"]


# Built once: every line of the process is rendered with it.
_encode_line = msgspec.json.Encoder(enc_hook=repr).encode


def _encode(event: object, **_: object) -> str:
    return _encode_line(event).decode()


def _encode_bytes(event: object, **_: object) -> bytes:
    return _encode_line(event)


class _StderrLines:
    """Writes rendered events to ``sys.stderr``, one line each.

    The service's own events skip the standard library's logging machinery (a large
    share of a request's cost otherwise); stdlib records still go through a handler.
    Inside an event loop the lines of one loop turn go out in one write, after the turn's
    callbacks: one system call for all the requests a busy worker finished together.
    Each batch goes to the stream that was ``sys.stderr`` when its lines were logged.
    """

    def __init__(self) -> None:
        self._pending: list[bytes] = []
        self._stream: TextIO | None = None

    def msg(self, message: bytes) -> None:
        stream = sys.stderr
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (start-up, shutdown, a thread): write at once
            self.flush()
            _write(stream, message + b"\n")
            return
        if self._pending and stream is not self._stream:
            self.flush()
        self._pending.append(message)
        if len(self._pending) == 1:
            self._stream = stream
            loop.call_soon(self.flush)

    def flush(self) -> None:
        """Write what is pending."""
        if self._pending and self._stream is not None:
            lines, self._pending = self._pending, []
            _write(self._stream, b"\n".join(lines) + b"\n")

    debug = info = warning = warn = error = critical = exception = fatal = log = msg


def _write(stream: TextIO, data: bytes) -> None:
    try:
        stream.buffer.write(data)
        stream.flush()
    except ValueError:  # closed since (a test's captured stderr): the process's own stderr
        if sys.__stderr__ is not None:
            sys.__stderr__.buffer.write(data)
            sys.__stderr__.flush()


_LINES = _StderrLines()
atexit.register(_LINES.flush)


_stamped_second = -1
_stamped_prefix = ""


def iso_utc(nanoseconds: int) -> str:
    """The Unix time ``nanoseconds`` as structlog stamps lines (``TimeStamper(fmt="iso",
    utc=True)``: ``datetime.isoformat`` in UTC, to the microsecond rounded down, with no
    fraction on a whole second, ``Z`` for ``+00:00``). The date and time of day are
    formatted once a second, not per line: a datetime and its isoformat were a fifth
    of a request line's cost."""
    global _stamped_second, _stamped_prefix
    second, rest = divmod(nanoseconds, 1_000_000_000)
    if second != _stamped_second:
        _stamped_prefix = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second))
        _stamped_second = second
    micros = rest // 1000
    if not micros:
        return _stamped_prefix + "Z"
    # Zero-padded by slicing: the format mini-language (:06d) cost a tenth of the line.
    return f"{_stamped_prefix}.{str(micros + 1_000_000)[1:]}Z"


def _request_line_direct(event: dict[str, Any]) -> None:
    event["event"] = "request"
    event["level"] = "info"
    event["timestamp"] = iso_utc(time.time_ns())
    _LINES.msg(_encode_line(event))


def _request_line_structlog(event: dict[str, Any]) -> None:
    structlog.get_logger("service.http").info("request", **event)


def _request_line_off(event: dict[str, Any]) -> None:
    return


_request_line: Callable[[dict[str, Any]], None] = _request_line_structlog


def log_request(event: dict[str, Any]) -> None:
    """The one line per answered request.

    In JSON mode at INFO it is rendered here, in exactly the shape structlog gives every
    other line (``event``, ``level``, ISO ``timestamp``): the full processor chain was the
    largest cost of a check. On a console it goes through structlog's renderer.
    """
    _request_line(event)


# A traceback's frames, never their locals: structlog's ``dict_tracebacks`` shows locals by
# default, and a frame's locals may hold a token, a key or a body.
_TRACEBACKS_WITHOUT_LOCALS = structlog.processors.ExceptionRenderer(
    structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
)


def _stderr_lines(*_: object) -> _StderrLines:
    return _LINES


def configure_logging(settings: Settings) -> None:
    """Configure structlog and route the standard library's records through it."""
    as_json = settings.log_format == "json" or (
        settings.log_format == "auto" and not sys.stderr.isatty()
    )
    level = logging.getLevelNamesMapping()[settings.log_level]
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
    ]
    renderer: structlog.types.Processor
    if as_json:
        shared.append(_TRACEBACKS_WITHOUT_LOCALS)
        renderer = structlog.processors.JSONRenderer(serializer=_encode)
    else:
        renderer = structlog.dev.ConsoleRenderer(exception_formatter=structlog.dev.plain_traceback)
    global _request_line  # set together with structlog's own global configuration
    if not as_json:
        _request_line = _request_line_structlog
    else:
        _request_line = _request_line_direct if level <= logging.INFO else _request_line_off
    if as_json:
        structlog.configure(
            processors=[*shared, structlog.processors.JSONRenderer(serializer=_encode_bytes)],
            wrapper_class=structlog.make_filtering_bound_logger(level),
            logger_factory=_stderr_lines,
            cache_logger_on_first_use=True,
        )
    else:
        structlog.configure(
            processors=[*shared, structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
            wrapper_class=structlog.make_filtering_bound_logger(level),
            logger_factory=structlog.stdlib.LoggerFactory(),
            cache_logger_on_first_use=True,
        )
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            foreign_pre_chain=[*shared, structlog.stdlib.add_logger_name],
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
        )
    )
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    for chatty in ("uvicorn.access", "httpx"):
        logging.getLogger(chatty).setLevel(logging.WARNING)
