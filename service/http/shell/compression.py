"""gzip for large answers, decided at the edge
(:class:`service.http.shell.middleware.RequestShell`).

An answer is compressed when the client accepts gzip (``Accept-Encoding``, q-values read
as RFC 9110 §12.5.3 says), it is at least :data:`MIN_BYTES` long, its length is known up
front (``Content-Length``: event streams never are), and it is not encoded already.
Everything else goes out as it was, at the cost of one header scan of answers to clients
that accept gzip. Litestar's own ``CompressionMiddleware`` made a compressor for every
answer to such a client, small ones too: about 40 µs of a 100 µs check, measured in
process; here a small answer costs nothing more.
"""

from __future__ import annotations

import zlib
from typing import Final

__all__ = ["LEVEL", "MIN_BYTES", "accepts_gzip", "gzipped"]

# Smaller answers gain little: a check's answer (~400 bytes) goes out as it is.
MIN_BYTES: Final = 1024
# zlib's default: most of the gain of 9 at a fraction of its cost.
LEVEL: Final = 6


def accepts_gzip(value: bytes) -> bool:
    """Whether an ``Accept-Encoding`` value accepts gzip: named (or ``*``) with a non-zero
    q-value, and not refused by name."""
    named: float | None = None
    anything: float | None = None
    for member in value.lower().split(b","):
        coding, _, params = member.partition(b";")
        coding = coding.strip()
        if coding not in (b"gzip", b"x-gzip", b"*"):
            continue
        weight = 1.0
        for param in params.split(b";"):
            key, _, number = param.partition(b"=")
            if key.strip() == b"q":
                try:
                    weight = float(number.strip())
                except ValueError:
                    weight = 0.0
        if coding == b"*":
            anything = weight
        else:
            named = weight
    chosen = named if named is not None else anything
    return chosen is not None and chosen > 0


def gzipped(body: bytes) -> bytes:
    """``body`` as one gzip member (RFC 1952)."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return compressor.compress(body) + compressor.flush()
