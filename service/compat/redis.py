"""redis-py's private parts the lean session path relies on, checked against :data:`CHECKED`.

- A connection's stream writer and reader (``_writer``, ``_reader``): the lean path lets
  redis-py connect (TLS, AUTH, HELLO, SELECT under its timeouts), then takes the socket.
- ``redis._parsers``' ``BaseParser.parse_error``: an error reply becomes the exception
  redis-py would raise for it (``LOADING`` a ``BusyLoadingError``, …).
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from redis._parsers.base import BaseParser
from redis.exceptions import ConnectionError

if TYPE_CHECKING:
    from redis.asyncio.connection import AbstractConnection
    from redis.exceptions import RedisError

__all__ = ["CHECKED", "parse_error", "take_socket"]

CHECKED = ("8.1",)


def take_socket(conn: AbstractConnection) -> asyncio.StreamWriter:
    """The connected socket of ``conn``, which redis-py then no longer reads or closes."""
    writer = conn._writer
    if writer is None:
        raise ConnectionError("the connection has no socket to take")
    conn._writer = conn._reader = None
    return writer


def parse_error(response: str) -> RedisError:
    """The exception redis-py raises for the error reply ``response``."""
    error: RedisError = BaseParser.parse_error(response)  # type: ignore[no-untyped-call]
    return error
