"""``python -m service.export``: print the OpenAPI document the app serves."""

from __future__ import annotations

import sys

from service.app import published_openapi
from service.settings import Settings


def main() -> None:
    """Write the document to standard output."""
    sys.stdout.buffer.write(
        published_openapi(Settings(redis_url="redis://unused", log_level="ERROR"))
    )


if __name__ == "__main__":
    main()
