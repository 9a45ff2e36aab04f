"""structlog: one JSON line per event in production, readable lines on a terminal."""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING

import msgspec
import structlog

if TYPE_CHECKING:
    from service.settings import Settings

__all__ = ["configure_logging"]


def _encode(event: object, **_: object) -> bytes:
    return msgspec.json.encode(event, enc_hook=repr)


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
    if as_json:
        renderer: structlog.types.Processor = structlog.processors.JSONRenderer(serializer=_encode)
        factory: structlog.types.WrappedLogger = structlog.BytesLoggerFactory(sys.stderr.buffer)
        processors: list[structlog.types.Processor] = [
            *shared,
            structlog.processors.dict_tracebacks,
            renderer,
        ]
    else:
        renderer = structlog.dev.ConsoleRenderer()
        factory = structlog.PrintLoggerFactory(sys.stderr)
        processors = [*shared, renderer]
    structlog.configure(
        processors=processors,
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=factory,
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=level, stream=sys.stderr, format="%(message)s", force=True)
    for noisy in ("uvicorn.access", "httpx"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
