"""Reading server-sent events as a client does."""

from __future__ import annotations

from collections.abc import Iterator

import httpx


def read_sse(source: httpx.Response | Iterator[str], count: int) -> list[dict]:
    """The next ``count`` events (comments skipped) of an open event stream: a response, or
    the iterator of its lines when events are read from it more than once."""
    lines = source.iter_lines() if isinstance(source, httpx.Response) else source
    events: list[dict] = []
    current: dict = {}
    for line in lines:
        if line.startswith(":"):
            continue
        if not line:
            if current:
                events.append(current)
                current = {}
                if len(events) == count:
                    return events
            continue
        field, _, value = line.partition(":")
        current[field] = value.lstrip(" ")
    return events
