"""RFC 8785 canonical JSON (JCS), as roll receipts digest requests and answers.

The reference is the ``rfc8785`` library. It is pure Python (about 75 µs for a check's
answer), so the common case takes msgspec's compact, key-sorted encoding instead, which is
byte for byte the same JCS text for JSON made of strings, booleans, null, integers within
±(2^53 − 1) and objects whose keys sort the same by code point as by UTF-16 code unit
(msgspec escapes strings exactly as JCS does: ``\\"``, ``\\\\``, ``\\b \\t \\n \\f \\r``, other
control characters as ``\\u00xx``, everything else verbatim). An encoding that might hold
anything else (a float, a long run of digits, a character beyond U+FFFF) is made again by
the reference. ``tests/http/test_canonical_json.py`` checks the two agree on arbitrary JSON.
"""

from __future__ import annotations

import hashlib
import re
from typing import Any

import msgspec
import rfc8785

__all__ = ["NotCanonicalizableError", "canonical_json", "canonical_sha256", "json_sha256"]

# A JSON number beyond ±(2^53 − 1) means what JavaScript's JSON.parse makes of it: a double.
_SAFE_INTEGER = 2**53 - 1

# Where msgspec's text may differ from JCS, conservatively: a number with a fraction or an
# exponent (floats print differently), sixteen digits in a row (perhaps an integer past
# 2^53), a four-byte UTF-8 lead byte (a character beyond U+FFFF sorts differently in
# UTF-16). A match inside a string only sends that value the slow way.
_MAYBE_NOT_JCS = re.compile(rb"(?:^|[:,\[])-?\d+[.eE]|\d{16}|[\xf0-\xf4]")


class NotCanonicalizableError(ValueError):
    """A value that has no RFC 8785 form (not JSON, a number beyond a double's range,
    nested too deep)."""


def _as_javascript_numbers(node: Any) -> Any:
    if isinstance(node, bool):
        return node
    if isinstance(node, int):
        return node if -_SAFE_INTEGER <= node <= _SAFE_INTEGER else float(node)
    if isinstance(node, list):
        return [_as_javascript_numbers(item) for item in node]
    if isinstance(node, dict):
        return {key: _as_javascript_numbers(item) for key, item in node.items()}
    return node


def canonical_json(node: Any) -> bytes:
    """The RFC 8785 text of ``node``: JSON-like builtins with string keys (as
    ``msgspec.json.decode`` or ``msgspec.to_builtins(..., str_keys=True)`` make them).

    Raises:
        NotCanonicalizableError: ``node`` is not JSON, or too deep to walk.
    """
    try:
        text = msgspec.json.encode(node, order="sorted")
    except (TypeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    if _MAYBE_NOT_JCS.search(text) is None:
        return text
    try:
        return rfc8785.dumps(_as_javascript_numbers(msgspec.json.decode(text)))
    except (
        rfc8785.CanonicalizationError,
        RecursionError,
        OverflowError,  # an integer beyond the largest double: Infinity in JavaScript
        msgspec.DecodeError,
    ) as error:
        raise NotCanonicalizableError(str(error)) from None


def canonical_sha256(node: Any) -> str:
    """SHA-256 of ``node``'s RFC 8785 text, in lower-case hex."""
    return hashlib.sha256(canonical_json(node)).hexdigest()


def json_sha256(body: bytes) -> str:
    """SHA-256 of the RFC 8785 text of the JSON document ``body``, in lower-case hex.

    Raises:
        NotCanonicalizableError: ``body`` is not a JSON document.
    """
    try:
        node = msgspec.json.decode(body)
    except (msgspec.DecodeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    return canonical_sha256(node)
