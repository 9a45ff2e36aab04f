"""The request line's timestamp is the one structlog gives every other line: UTC ISO 8601
to the microsecond (rounded down), no fraction on a whole second, ``Z`` for ``+00:00``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from service.logging import iso_utc

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
SECOND = 1_000_000_000


def _structlog_stamp(nanoseconds: int) -> str:
    """As structlog's TimeStamper(fmt="iso", utc=True) renders that instant."""
    moment = EPOCH + timedelta(microseconds=nanoseconds // 1000)
    return moment.isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(
    "nanoseconds",
    [
        0,
        1_795_000_000 * SECOND,  # a whole second: no fraction
        1_795_000_000 * SECOND + 999,  # under a microsecond past it: still none
        1_795_000_000 * SECOND + 1_000,  # one microsecond: .000001
        1_795_000_000 * SECOND + 999_999_999,  # rounded down, never up to the next second
        951_782_400 * SECOND + 123_456_789,  # 29 February 2000
        4_102_444_799 * SECOND + 500_000_000,  # the last second of 2099
    ],
)
def test_the_stamp_is_structlogs_iso_utc_stamp(nanoseconds: int) -> None:
    assert iso_utc(nanoseconds) == _structlog_stamp(nanoseconds)


def test_consecutive_stamps_within_and_across_a_second() -> None:
    start = 1_795_000_000 * SECOND + 999_000_000
    for step in range(0, 3_000_000, 7_919):  # across the next second's start
        assert iso_utc(start + step) == _structlog_stamp(start + step)
    assert iso_utc(start) == _structlog_stamp(start)  # back to an earlier second
