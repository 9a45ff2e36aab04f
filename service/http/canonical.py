"""RFC 8785 canonical JSON (JCS), as roll receipts digest requests and answers.

The reference is the ``rfc8785`` library, pure Python (about 75 µs for a check's answer).
The common case takes msgspec's compact, key-sorted encoding instead: byte for byte the JCS
text of JSON made of strings, booleans, null, integers within ±(2^53 − 1) and objects whose
keys sort the same by code point as by UTF-16 code unit (msgspec escapes strings exactly as
JCS does: ``\\"``, ``\\\\``, ``\\b \\t \\n \\f \\r``, other control characters as ``\\u00xx``,
everything else verbatim). Floats print differently (``1.0``, ``1e-6``), so JSON with floats
is encoded again with each float as the reference prints it; an integer past 2^53 or a
character beyond U+FFFF sends the value to the reference itself.
``tests/http/test_canonical_json.py`` checks the result equals the reference's on any JSON.
"""

from __future__ import annotations

import functools
import hashlib
import re
from typing import Any

import msgspec
import msgspec.inspect as types
import rfc8785

__all__ = [
    "NotCanonicalizableError",
    "canonical_json",
    "canonical_sha256",
    "json_sha256",
    "never_holds_floats",
]

# A JSON number beyond ±(2^53 − 1) means what JavaScript's JSON.parse makes of it: a double.
_SAFE_INTEGER = 2**53 - 1


class NotCanonicalizableError(ValueError):
    """A value that has no RFC 8785 form (not JSON, a number beyond a double's range,
    nested too deep)."""


def _refuse_float(_: str) -> float:
    raise ValueError("a float")


def _float_as_ecmascript(text: str) -> msgspec.Raw:
    return msgspec.Raw(rfc8785.dumps(float(text)))


# Each check is a C-speed pass over the text (a regular expression over all of it costs
# ten times as much): floats, by decoding it again with a hook that refuses them; perhaps an
# integer past 2^53, by any sixteen digits in a row, seen with every digit made "1" and
# every other byte "0"; a character beyond U+FFFF (a four-byte UTF-8 lead byte), looked for
# only in text that is not all ASCII.
_NO_FLOATS = msgspec.json.Decoder(float_hook=_refuse_float)
_ECMASCRIPT_FLOATS = msgspec.json.Decoder(float_hook=_float_as_ecmascript)
_DIGITS_AS_ONES = bytes(0x31 if 0x30 <= byte <= 0x39 else 0x30 for byte in range(256))
_SIXTEEN_DIGITS = b"1" * 16
_ASTRAL = re.compile(rb"[\xf0-\xf4]")


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


def _by_the_reference(text: bytes) -> bytes:
    try:
        return rfc8785.dumps(_as_javascript_numbers(msgspec.json.decode(text)))
    except (
        rfc8785.CanonicalizationError,
        RecursionError,
        OverflowError,  # an integer beyond the largest double: Infinity in JavaScript
        msgspec.DecodeError,
    ) as error:
        raise NotCanonicalizableError(str(error)) from None


_NO_FLOAT_TYPES = (
    types.NoneType,
    types.BoolType,
    types.IntType,
    types.StrType,
    types.LiteralType,
    types.DateTimeType,
    types.DateType,
    types.TimeType,
    types.UUIDType,
)


def _may_hold_floats(kind: types.Type, seen: set[type]) -> bool:
    if isinstance(kind, types.Metadata):  # a type's description or JSON Schema extras
        return _may_hold_floats(kind.type, seen)
    if isinstance(kind, _NO_FLOAT_TYPES):
        return False
    if isinstance(kind, types.EnumType):
        return any(isinstance(member.value, float) for member in kind.cls)
    if isinstance(kind, types.StructType):
        if kind.cls in seen:
            return False
        seen.add(kind.cls)
        return any(_may_hold_floats(field.type, seen) for field in kind.fields)
    if isinstance(kind, types.UnionType):
        return any(_may_hold_floats(member, seen) for member in kind.types)
    if isinstance(kind, (types.ListType, types.VarTupleType, types.SetType, types.FrozenSetType)):
        return _may_hold_floats(kind.item_type, seen)
    if isinstance(kind, types.TupleType):
        return any(_may_hold_floats(item, seen) for item in kind.item_types)
    if isinstance(kind, types.DictType):
        return _may_hold_floats(kind.value_type, seen)
    return True  # a float, Any, or a type not looked into


@functools.cache
def never_holds_floats(kind: type) -> bool:
    """Whether no value of the Struct type ``kind`` can hold a float, from its annotations
    (canonical_json then skips looking for floats)."""
    return not _may_hold_floats(types.type_info(kind), set())


def canonical_json(node: Any, *, floats: bool = True) -> bytes:
    """The RFC 8785 text of ``node``: JSON-like builtins with string keys (as
    ``msgspec.json.decode`` or ``msgspec.to_builtins(..., str_keys=True)`` make them), or
    Structs holding them. ``floats=False``: ``node`` surely holds none (its type says so,
    :func:`never_holds_floats`).

    Raises:
        NotCanonicalizableError: ``node`` is not JSON, or too deep to walk.
    """
    try:
        text = msgspec.json.encode(node, order="sorted")
    except (TypeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    if not text.isascii() and _ASTRAL.search(text):
        return _by_the_reference(text)
    if _SIXTEEN_DIGITS in text.translate(_DIGITS_AS_ONES):
        return _by_the_reference(text)
    if not floats:
        return text
    try:
        _NO_FLOATS.decode(text)
    except msgspec.ValidationError:
        return msgspec.json.encode(_ECMASCRIPT_FLOATS.decode(text), order="sorted")
    except RecursionError as error:
        raise NotCanonicalizableError(str(error)) from None
    return text


def canonical_sha256(node: Any, *, floats: bool = True) -> str:
    """SHA-256 of ``node``'s RFC 8785 text, in lower-case hex (``floats``: as for
    :func:`canonical_json`)."""
    return hashlib.sha256(canonical_json(node, floats=floats)).hexdigest()


def json_sha256(body: bytes) -> str:
    """SHA-256 of the RFC 8785 text of the JSON document ``body``, in lower-case hex.

    Raises:
        NotCanonicalizableError: ``body`` is not a JSON document.
    """
    try:
        try:
            node, floats = _NO_FLOATS.decode(body), False
        except msgspec.ValidationError:  # a float: read again, as it is
            node, floats = msgspec.json.decode(body), True
    except (msgspec.DecodeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    return canonical_sha256(node, floats=floats)
