"""How shooters, beefs and names are compared (D2): ``normalised`` gives exactly NFKC,
casefolded, with whitespace collapsed and trimmed, in time linear in the text, where NFKC
alone reorders a long run of combining marks in quadratic time (docs/input-costs.md)."""

from __future__ import annotations

import re
import sys
import unicodedata

from hypothesis import example, given, settings
from hypothesis import strategies as st

from service.rulesets.travelogue.rules.sheet import _MARKS_ONLY, normalised

# The definition before the linear one, kept here only as the reference.
_SPACES = re.compile(r"\s+")


def _reference(text: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


# Combining marks of several classes (230 above, 220 below, 1 overlay, 10, 8, Tibetan 129,
# 130, 132), one that decomposes (U+0344), the starters that decompose into marks only,
# starters that decompose into a letter and marks or expand (é, ǖ, ﬃ, ß, U+FDFA), pairs of
# starters that compose (Hangul jamo, Oriya), ASCII and Unicode whitespace and a zero-width
# space that is not whitespace.
_ALPHABET = (
    "\u0301\u0316\u0334\u05b0\u3099\u0f71\u0f72\u0f74\u0f80\u0344"
    "\u0f73\u0f75\u0f81\uff9e\uff9f"
    "ae\u00e9\u01d6\ufb03\u00dfS\ufdfa\u1100\u1161\u0b47\u0b3e"
    " \t\n\x1c\x85\xa0\u2028\u3000\u200b"
)
_RUNS = st.lists(st.tuples(st.sampled_from(_ALPHABET), st.integers(1, 12)), max_size=10).map(
    lambda runs: "".join(char * count for char, count in runs)
)
_MIXED_RUNS = st.lists(st.text(alphabet=_ALPHABET[:15], min_size=9, max_size=30), max_size=3).map(
    "a".join
)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(st.text(alphabet=_ALPHABET, max_size=40), _RUNS, _MIXED_RUNS))
@example("a" + "\u0301" * 20 + "\u0316" * 20)
@example("\u0f73" * 12 + "\u0f74" * 3)
@example("e\u0301" + "\u0316" * 9)
@example("  The \u3000 Syndicate\x1c")
def test_normalised_is_exactly_nfkc_casefolded_and_collapsed(text: str) -> None:
    assert normalised(text) == _reference(text)


def test_every_combining_mark_decomposes_into_marks_of_its_own_class() -> None:
    """What sorting the marks before NFKC relies on, checked against this Python's Unicode
    database (a new Python may bring a new one)."""
    mixed = []
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if cls := unicodedata.combining(char):
            decomposed = unicodedata.normalize("NFKD", char)
            if any(unicodedata.combining(part) != cls for part in decomposed):
                mixed.append(hex(code))
    assert mixed == []


def test_the_starters_that_decompose_into_marks_only_are_all_spelt_out() -> None:
    """A starter whose decomposition begins with a mark would hide a run of marks."""
    found = {
        code
        for code in range(sys.maxunicode + 1)
        if unicodedata.combining(chr(code)) == 0
        and unicodedata.decomposition(chr(code))
        and unicodedata.combining(unicodedata.normalize("NFKD", chr(code))[0])
    }
    assert found == set(_MARKS_ONLY)
