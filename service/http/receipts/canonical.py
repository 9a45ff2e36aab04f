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
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import msgspec
import msgspec.inspect as types
import rfc8785

__all__ = [
    "NotCanonicalizableError",
    "canonical_json",
    "canonical_sha256",
    "canonical_sha256_without",
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
# every other byte "0" (then the numbers themselves are looked at: the digits are more often
# a string's, as in a hex id); a character beyond U+FFFF (a four-byte UTF-8 lead byte),
# looked for only in text that is not all ASCII.
_NO_FLOATS = msgspec.json.Decoder(float_hook=_refuse_float)
_ECMASCRIPT_FLOATS = msgspec.json.Decoder(float_hook=_float_as_ecmascript)
_DIGITS_AS_ONES = bytes(0x31 if 0x30 <= byte <= 0x39 else 0x30 for byte in range(256))
_SIXTEEN_DIGITS = b"1" * 16
_ASTRAL = re.compile(rb"[\xf0-\xf4]")
_COMMA = ord(",")
_SORTED = msgspec.json.Encoder(order="sorted")
_sha256 = hashlib.sha256


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


def _holds_a_large_integer(text: bytes) -> bool:
    """Whether the JSON ``text`` holds an integer beyond ±(2^53 − 1) (or cannot be read:
    then the reference says why)."""
    try:
        pending = [msgspec.json.decode(text)]
    except (msgspec.DecodeError, RecursionError):
        return True
    while pending:
        node = pending.pop()
        if isinstance(node, int):
            if not -_SAFE_INTEGER <= node <= _SAFE_INTEGER:
                return True
        elif isinstance(node, list):
            pending.extend(node)
        elif isinstance(node, dict):
            pending.extend(node.values())
    return False


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


# Types whose values are made of other types' values: looked inside, never judged alone.
_CONTAINERS = (
    types.Metadata,  # a type's description or JSON Schema extras
    types.StructType,
    types.DataclassType,
    types.TypedDictType,
    types.UnionType,
    types.TupleType,
    types.ListType,
    types.VarTupleType,
    types.SetType,
    types.FrozenSetType,
    types.DictType,
)


def _types_within(kind: types.Type, seen: set[type] | None = None) -> Iterator[types.Type]:
    """``kind`` and every type inside it: fields, union members, items, dict values; each
    Struct, dataclass or TypedDict once (so a recursive one ends)."""
    seen = set() if seen is None else seen
    yield kind
    inner: list[types.Type] = []
    if isinstance(kind, types.Metadata):
        inner = [kind.type]
    elif isinstance(kind, (types.StructType, types.DataclassType, types.TypedDictType)):
        if kind.cls not in seen:
            seen.add(kind.cls)
            inner = [field.type for field in kind.fields]
    elif isinstance(kind, types.UnionType):
        inner = list(kind.types)
    elif isinstance(kind, types.TupleType):
        inner = list(kind.item_types)
    elif isinstance(kind, (types.ListType, types.VarTupleType, types.SetType, types.FrozenSetType)):
        inner = [kind.item_type]
    elif isinstance(kind, types.DictType):
        inner = [kind.value_type]
    for each in inner:
        yield from _types_within(each, seen)


def _may_be_a_float(kind: types.Type) -> bool:
    if isinstance(kind, (_CONTAINERS, _NO_FLOAT_TYPES)):
        return False
    if isinstance(kind, types.EnumType):
        return any(isinstance(member.value, float) for member in kind.cls)
    return True  # a float, Any, or a type not looked into


def _may_hold_floats(kind: types.Type) -> bool:
    return any(_may_be_a_float(each) for each in _types_within(kind))


@functools.cache
def never_holds_floats(kind: type) -> bool:
    """Whether no value of the Struct type ``kind`` can hold a float, from its annotations
    (canonical_json then skips looking for floats)."""
    return not _may_hold_floats(types.type_info(kind))


def canonical_json(node: Any, *, floats: bool = True, large_integers: bool = True) -> bytes:
    """The RFC 8785 text of ``node``: JSON-like builtins with string keys (as
    ``msgspec.json.decode`` or ``msgspec.to_builtins(..., str_keys=True)`` make them), or
    Structs holding them. ``floats=False``: ``node`` surely holds none (its type says so,
    :func:`never_holds_floats`); ``large_integers=False``: none of its integers is beyond
    ±(2^53 − 1) (then sixteen digits in a row, as in a hex digest, are not looked for).

    Raises:
        NotCanonicalizableError: ``node`` is not JSON, or too deep to walk.
    """
    try:
        text = _SORTED.encode(node)
    except (TypeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    return _canonical(text, floats, large_integers)


def _canonical(text: bytes, floats: bool, large_integers: bool = True) -> bytes:
    """``text``, msgspec's key-sorted encoding, as RFC 8785 writes it."""
    if not text.isascii() and _ASTRAL.search(text):
        return _by_the_reference(text)
    # find, not ``in``: ``bytes in bytes`` first tries the needle as an int, and raises.
    if (
        large_integers
        and text.translate(_DIGITS_AS_ONES).find(_SIXTEEN_DIGITS) >= 0
        and _holds_a_large_integer(text)
    ):
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


def _declares_a_set(kind: types.Type) -> bool:
    """Whether a set or frozenset is declared anywhere in ``kind``: a key-sorted encoding
    sorts its items, where the answer as sent keeps their order. (A value typed ``Any`` is
    taken to hold JSON, as everything an answer holds.)"""
    sets = (types.SetType, types.FrozenSetType)
    return any(isinstance(each, sets) for each in _types_within(kind))


@dataclass(frozen=True, slots=True)
class _Shape:
    """What :func:`_with_member` needs to know of a Struct type, found once."""

    name: str  # the left-out field's name in JSON
    member: bytes | None  # the left-out field as encoded when null; None: no shortcut
    float_fields: tuple[str, ...]  # the top-level fields whose values may hold a float


@functools.cache
def _shape(kind: type[msgspec.Struct], name: str) -> _Shape:
    info = types.type_info(kind)
    assert isinstance(info, types.StructType)
    float_fields = tuple(field.name for field in info.fields if _may_hold_floats(field.type))
    encoded = next((field.encode_name for field in info.fields if field.name == name), name)
    # Encoded as an object, every field written even at its default: the member is there;
    # and no set whose items the key-sorted encoding would put in another order.
    plain = not (info.array_like or kind.__struct_config__.omit_defaults or _declares_a_set(info))
    member = msgspec.json.encode(encoded) + b":null" if plain else None
    return _Shape(name=encoded, member=member, float_fields=float_fields)


def _with_member(value: msgspec.Struct, name: str) -> tuple[bytes, int, int]:
    """The RFC 8785 text of the Struct ``value`` as a JSON object, and the span of its
    member ``name`` with the comma that goes with it, or an empty span when cutting by
    bytes would not be safe (then the text is already without the member).

    A null member is cut from ``value``'s own key-sorted encoding: found by its bytes
    (``"name":null`` outside a string, since the quotes in a string are escaped), and cut
    only if it occurs once, so it can only be this object's own. Bounded by braces and
    commas, it cannot join a run of digits, so the text is checked (:func:`_canonical`)
    with it in place. Else — a Struct that omits defaults or declares a set, a dict keyed
    by other than strings, a receipt already set — the value goes as builtins through
    :func:`canonical_json` without it. Floats are looked for only when a field whose type
    may hold one is set.
    """
    shape = _shape(type(value), name)
    floats = False
    for field in shape.float_fields:
        if getattr(value, field) is not None:
            floats = True
            break
    member = shape.member
    if member is not None and getattr(value, name) is None:
        try:
            text = _canonical(_SORTED.encode(value), floats)
        except TypeError:  # a dict with keys other than strings: its builtins say them so
            text = b""
        except RecursionError as error:
            raise NotCanonicalizableError(str(error)) from None
        start = text.find(member)
        if start > 0 and text.find(member, start + 1) < 0:
            end = start + len(member)
            if text[start - 1] == _COMMA:  # a member before it: cut the comma before
                start -= 1
            elif text[end] == _COMMA:  # the first member: cut the comma after
                end += 1
            return text, start, end
    try:
        node = msgspec.to_builtins(value, str_keys=True)
    except (TypeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    if isinstance(node, dict):
        node.pop(shape.name, None)
    return canonical_json(node, floats=floats), 0, 0


def canonical_sha256_without(value: msgspec.Struct, name: str) -> str:
    """SHA-256 (lower-case hex) of the RFC 8785 text of the Struct ``value`` as a JSON
    object without its field ``name`` (a receipt's answer without its ``receipt``): from one
    encoding (:func:`_with_member`), hashed around the cut member rather than copied
    without it.

    Raises:
        NotCanonicalizableError: ``value`` is not JSON, or too deep to walk.
    """
    text, start, end = _with_member(value, name)
    if not end:
        return _sha256(text).hexdigest()
    view = memoryview(text)
    digest = _sha256(view[:start])
    digest.update(view[end:])
    return digest.hexdigest()


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
        text = _SORTED.encode(node)
    except (msgspec.DecodeError, RecursionError) as error:
        raise NotCanonicalizableError(str(error)) from None
    return hashlib.sha256(_canonical(text, floats)).hexdigest()
