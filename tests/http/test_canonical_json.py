"""RFC 8785 canonical JSON as receipts digest it: the fast msgspec path gives the text the
reference implementation (``rfc8785``) gives, for any JSON."""

from __future__ import annotations

import hashlib
import json
import math

import msgspec
import pytest
import rfc8785
from hypothesis import given, settings
from hypothesis import strategies as st

from service.http.receipts.canonical import (
    NotCanonicalizableError,
    canonical_json,
    canonical_sha256_without,
    json_sha256,
    never_holds_floats,
)

SAFE = 2**53 - 1


def reference(node):
    """What rfc8785 makes of ``node`` read as JavaScript reads JSON: an integer beyond
    ±(2^53 − 1) is a double."""
    if isinstance(node, bool) or node is None or isinstance(node, (str, float)):
        return node
    if isinstance(node, int):
        return node if abs(node) <= SAFE else float(node)
    if isinstance(node, list):
        return [reference(item) for item in node]
    return {key: reference(item) for key, item in node.items()}


def test_rfc_8785_section_3_2_3_sorts_keys_by_utf16_code_units():
    """RFC 8785 §3.2.3's example: U+1F600 (a surrogate pair, D83D DE00 in UTF-16) sorts
    before U+FB33, though its code point is larger."""
    node = {"\u20ac": "Euro Sign", "\r": "Carriage Return", "\ufb33": "Hebrew Letter Dalet With "
            "Dagesh", "1": "One", "\U0001f600": "Emoji: Grinning Face", "\u0080": "Control",
            "\u00f6": "Latin Small Letter O With Diaeresis"}  # fmt: skip
    keys = list(msgspec.json.decode(canonical_json(node)))
    assert keys == ["\r", "1", "\u0080", "\u00f6", "\u20ac", "\U0001f600", "\ufb33"]


@pytest.mark.parametrize(
    ("number", "text"),
    [
        (0.0, b"0"),
        (-0.0, b"0"),
        (1.0, b"1"),
        (1e21, b"1e+21"),
        (1e20, b"100000000000000000000"),
        (1e-7, b"1e-7"),
        (0.000001, b"0.000001"),
        (5e-324, b"5e-324"),
        (1.7976931348623157e308, b"1.7976931348623157e+308"),
        (333333333.3333333, b"333333333.3333333"),
        (2**53, b"9007199254740992"),
        (2**60, b"1152921504606847000"),
    ],
)
def test_rfc_8785_section_3_2_2_3_numbers_print_as_ecmascript_does(number, text):
    """Numbers are IEEE doubles printed by ECMAScript's Number.prototype.toString (RFC 8785
    §3.2.2.3); an integer past 2^53 is the double JSON.parse makes of it."""
    assert canonical_json({"n": number}) == b'{"n":' + text + b"}"


def test_strings_escape_only_what_rfc_8785_section_3_2_2_2_escapes():
    node = {"s": 'a"b\\c\b\t\n\f\r\x00\x1f\x7f/é€\U0001f600'}
    assert canonical_json(node) == (
        '{"s":"a\\"b\\\\c\\b\\t\\n\\f\\r\\u0000\\u001f\x7f/é€\U0001f600"}'.encode()
    )


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=2**1020, max_value=2**1030)
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.integers(min_value=SAFE - 2, max_value=SAFE + 2)  # either side of ±(2^53 − 1)
    | st.integers(min_value=-SAFE - 2, max_value=-SAFE + 2)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.text(alphabet="0123456789abcdef", min_size=16, max_size=40),  # digits in a string
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=40,
)


def finite(node) -> bool:
    """Whether every number of ``node`` is a double (JSON.parse gives Infinity otherwise)."""
    if isinstance(node, bool) or not isinstance(node, (int, list, dict)):
        return True
    if isinstance(node, int):
        try:
            return math.isfinite(float(node))
        except OverflowError:
            return False
    items = node.values() if isinstance(node, dict) else node
    return all(finite(item) for item in items)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_canonicalizes_as_the_reference_implementation_does(node):
    if not finite(node):
        with pytest.raises(NotCanonicalizableError):
            canonical_json(node)
        return
    assert canonical_json(node) == rfc8785.dumps(reference(node))


@settings(max_examples=200, deadline=None)
@given(json_values.filter(finite))
def test_a_json_document_digests_as_its_canonical_form(node):
    """Whitespace, key order and number spelling in the body sent do not change its digest."""
    expected = hashlib.sha256(rfc8785.dumps(reference(node))).hexdigest()
    assert json_sha256(json.dumps(node, indent=2, sort_keys=False).encode()) == expected


@pytest.mark.parametrize(
    "node",
    [
        {"id": "8a00e6731234567890123456fa027e46", "faces": [8]},  # sixteen digits, a string's
        {"id": "1234567890123456", "n": SAFE, "m": -SAFE},
        {"id": "1234567890123456", "n": SAFE + 2},  # and a large integer beside them
        {"id": "12345678901234567", "rows": [{"n": [-(SAFE + 2)]}]},
        {"key 1234567890123456": 1, "x": 1234567890123456.5},
        ["12345678901234567890", 2**64],
    ],
)
def test_sixteen_digits_in_a_row_in_a_string_or_a_number_canonicalize_as_the_reference(node):
    """Sixteen digits in a row send the text to have its numbers looked at, a hex id's as
    well as a large integer's: only a number past ±(2^53 − 1) is written as a double."""
    assert canonical_json(node) == rfc8785.dumps(reference(node))
    assert (
        json_sha256(json.dumps(node).encode())
        == hashlib.sha256(rfc8785.dumps(reference(node))).hexdigest()
    )


def test_a_body_that_is_not_json_has_no_canonical_form():
    with pytest.raises(NotCanonicalizableError):
        json_sha256(b"{not json")


class Fixed(msgspec.Struct):
    name: str
    count: int
    tags: tuple[str, ...]


class Odds(msgspec.Struct):
    p: float


class Nested(msgspec.Struct):
    rows: list[dict[str, Odds | None]]


class Loose(msgspec.Struct):
    extra: dict[str, object]


class Tree(msgspec.Struct):
    value: int
    children: list[Tree]


def test_a_type_says_whether_its_values_can_hold_a_float():
    """Only then may the check for floats be skipped: any float, nested or behind Any, says so."""
    assert never_holds_floats(Fixed)
    assert never_holds_floats(Tree)  # recursive, ints only
    assert not never_holds_floats(Odds)
    assert not never_holds_floats(Nested)
    assert not never_holds_floats(Loose)


def test_a_float_free_type_encodes_as_the_reference_does():
    value = Tree(value=3, children=[Tree(value=-(2**53) + 1, children=[])])
    assert canonical_json(value, floats=False) == rfc8785.dumps(msgspec.to_builtins(value))


class Answer(msgspec.Struct, kw_only=True):
    """An answer whose ``receipt`` is left out of its digest, wherever it sorts."""

    aardvark: object = None
    receipt: str | None = None
    rest: object = None


class Only(msgspec.Struct):
    receipt: str | None = None


class Renamed(msgspec.Struct, rename="camel"):
    the_value: object = None
    receipt_token: str | None = None


class Sparse(msgspec.Struct, omit_defaults=True):
    receipt: str | None = None
    rest: object = None


def without(value: msgspec.Struct, name: str):
    node = msgspec.to_builtins(value, str_keys=True)
    node.pop(name, None)
    return rfc8785.dumps(reference(node))


def digest(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def assert_without_as_the_reference(value: msgspec.Struct, name: str = "receipt") -> None:
    """The digest hashed around the cut member (a receipt's answer_sha256), against the
    reference's text without it (shown when they differ)."""
    expected = without(value, name)
    assert canonical_sha256_without(value, name) == digest(expected), expected


@settings(max_examples=300, deadline=None)
@given(json_values.filter(finite), json_values.filter(finite), st.none() | st.text())
def test_a_struct_without_a_member_canonicalizes_as_the_reference_does(first, rest, receipt):
    """Before, after or beside ``receipt``, with any JSON (floats, big integers, astral
    characters, nested "receipt" members) and the receipt set or not."""
    for value in (Answer(aardvark=first, rest=rest, receipt=receipt), Answer(rest=rest)):
        assert_without_as_the_reference(value)
    assert_without_as_the_reference(Sparse(rest=rest))


@pytest.mark.parametrize(
    "value",
    [
        Only(),
        Answer(),
        Answer(aardvark={"receipt": None}),  # the member's bytes twice: no shortcut
        Answer(rest=[{"receipt": None, "x": 1.5}]),
        Answer(aardvark={'a"receipt': None}),  # an escaped quote before the member's bytes
        Answer(rest='"receipt":null'),  # in a string: its quotes escaped
        Answer(aardvark=1.0, rest=2**60),
        Answer(rest="\U0001f3b2"),  # the reference's text, the member cut from it
        Answer(rest={"\U0001f3b2": 1, "\uff61": 2}),  # keys the reference sorts otherwise
        Sparse(),
        Sparse(rest={"receipt": None}),
    ],
)
def test_a_member_is_cut_only_where_it_is_this_objects_own(value):
    assert_without_as_the_reference(value)


class Keyed(msgspec.Struct):
    by_face: dict[int, str]
    receipt: str | None = None


class Tagged(msgspec.Struct):
    tags: frozenset[str]
    receipt: str | None = None


@pytest.mark.parametrize(
    "value",
    [
        Keyed(by_face={10: "ten", 2: "two"}),  # integer keys: sent as strings
        Tagged(tags=frozenset({"zeta", "alpha", "mid", "beta", "omega"})),  # in its own order
    ],
)
def test_the_digest_is_of_the_answer_as_it_is_sent(value):
    """What a verifier holds is the JSON sent (msgspec's plain encoding), not the Struct:
    keys other than strings, and a set's items in the order it is sent, digest as that."""
    sent = json.loads(msgspec.json.encode(value))
    sent.pop("receipt")
    expected = rfc8785.dumps(sent)
    assert canonical_sha256_without(value, "receipt") == digest(expected), expected


def test_a_renamed_member_is_left_out_by_its_json_name():
    value = Renamed(the_value={"receiptToken": None})
    expected = digest(b'{"theValue":{"receiptToken":null}}')
    assert canonical_sha256_without(value, "receipt_token") == expected
    assert canonical_sha256_without(Renamed(), "receipt_token") == digest(b'{"theValue":null}')
