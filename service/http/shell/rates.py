"""``RATE_LIMIT``'s value, read without importing the limiter: the settings check it
before ``python -m service`` has chosen where the metrics live (see service.metrics)."""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Rate", "parse_rate"]

_UNITS = {
    "second": 1,
    "minute": 60,
    "hour": 3600,
    "day": 86400,
    "month": 30 * 86400,
    "year": 365 * 86400,
}
_RATE = re.compile(
    r"\s*(\d+)\s*(?:/|per\s)\s*(\d+)?\s*(second|minute|hour|day|month|year)s?\s*", re.IGNORECASE
)


@dataclass(frozen=True, slots=True)
class Rate:
    """``amount`` requests per window of ``seconds``."""

    amount: int
    seconds: int

    def __str__(self) -> str:
        return f"{self.amount}/{self.seconds}s"


def parse_rate(text: str) -> Rate:
    """``RATE_LIMIT``'s value: ``600/minute``, ``20 per second``, ``100/5 minutes``…"""
    match = _RATE.fullmatch(text)
    if match is None or int(match[1]) < 1 or (match[2] is not None and int(match[2]) < 1):
        raise ValueError(f"RATE_LIMIT must read like '600/minute' or '10 per second', not {text!r}")
    return Rate(int(match[1]), int(match[2] or 1) * _UNITS[match[3].lower()])
