"""Reading server-sent events as a client does."""

from __future__ import annotations

import httpx


def read_sse(response: httpx.Response, count: int) -> list[dict]:
    """The next ``count`` events (comments skipped) of an open event stream."""
    events: list[dict] = []
    current: dict = {}
    for line in response.iter_lines():
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
