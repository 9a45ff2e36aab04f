"""The OpenAPI document an app built with default settings publishes, built once per process.

Building it builds an app and its schema (about a second of CPU); eight test modules read
it, four of them at import, in every pytest-xdist worker. Each caller gets its own parsed
copy, free to change.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from service.app import published_openapi
from service.settings import Settings


@functools.cache
def _default_document() -> bytes:
    return published_openapi(Settings())


def default_document() -> dict[str, Any]:
    """``published_openapi(Settings())``, parsed: a new copy at each call."""
    document: dict[str, Any] = json.loads(_default_document())
    return document
