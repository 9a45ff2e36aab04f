"""structlog: one JSON line per event in production, readable lines on a terminal.

The standard library's records (uvicorn's start-up and error lines) go through the same
renderer, so every line the process writes has the same shape.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

import msgspec
import structlog

if TYPE_CHECKING:
    from service.settings import Settings

__all__ = ["configure_logging"]


def _encode(event: object, **_: object) -> str:
    return msgspec.json.encode(event, enc_hook=repr).decode()


def _encode_bytes(event: object, **_: object) -> bytes:
    return msgspec.json.encode(event, enc_hook=repr)


class _StderrLine:
    """Writes each rendered event as one line to whatever ``sys.stderr`` is now.

    The service's own events skip the standard library's logging machinery (a large
    share of a request's cost otherwise); stdlib records still go through a handler.
    """

    def msg(self, message: bytes) -> None:
        stream = sys.stderr.buffer
        stream.write(message + b"\n")
        stream.flush()

    debug = info = warning = warn = error = critical = exception = fatal = log = msg


def _stderr_line(*_: object) -> _StderrLine:
    return _StderrLine()


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
        shared.append(structlog.processors.dict_tracebacks)
        renderer = structlog.processors.JSONRenderer(serializer=_encode)
    else:
        renderer = structlog.dev.ConsoleRenderer()
    if as_json:
        structlog.configure(
            processors=[*shared, structlog.processors.JSONRenderer(serializer=_encode_bytes)],
            wrapper_class=structlog.make_filtering_bound_logger(level),
            logger_factory=_stderr_line,
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
