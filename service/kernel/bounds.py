"""Bounds every ruleset shares, named for what they mean.

Enforced where input is decoded (``msgspec`` checks ``Meta``) and published in the
OpenAPI schema, so a caller sees the limits before sending.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from msgspec import Meta

__all__ = ["Label", "Name", "Seed", "Timestamp"]

Name = Annotated[str, Meta(min_length=1, max_length=120, description="A name, 1–120 characters.")]
Label = Annotated[
    str, Meta(min_length=1, max_length=120, description="A short label, 1–120 characters.")
]
Seed = Annotated[
    int,
    Meta(
        ge=0,
        le=2**53 - 1,
        description="Seed for a reproducible roll (0 … 2^53-1, safe in JavaScript).",
    ),
]
# msgspec encodes it as RFC 3339 but publishes a bare string; generated clients want the format.
Timestamp = Annotated[
    datetime,
    Meta(extra_json_schema={"format": "date-time"}, description="An RFC 3339 UTC time."),
]
