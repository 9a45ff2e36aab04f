"""An HTTP request's ASGI scope, for tests that call an app as a server does."""

from __future__ import annotations

from typing import Any


def post_scope(path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict[str, Any]:
    """The scope of a JSON ``POST`` to ``path`` from a local client (``headers`` after its
    content type)."""
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"content-type", b"application/json"), *(headers or [])],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 8000),
        "state": {},
    }
