"""The one-line summary every roll answer carries (service.kernel.summary): at most 200
characters of printable ASCII, the fullest wording that fits, else cut at a word."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from service.kernel.summary import MAX_SUMMARY, SUMMARY_PATTERN, fitting, signed


def test_the_first_wording_that_fits_is_chosen() -> None:
    full, short = "x" * (MAX_SUMMARY + 1), "three players lose 12"
    assert fitting("a roll", short) == "a roll"
    assert fitting(full, short) == short


def test_a_line_that_fits_nowhere_is_cut_at_a_word_and_marked() -> None:
    line = fitting("word " * 60)
    assert len(line) <= MAX_SUMMARY
    assert line.endswith("word...")


def test_a_modifier_is_signed_as_the_books_write_it() -> None:
    assert (signed(3), signed(-2), signed(0)) == ("+3", "-2", "+0")


@pytest.mark.parametrize(
    ("odd", "shown"),
    [("hugo\n's flag", "hugo?'s flag"), ("tab\there", "tab?here"), ("caf\u00e9", "caf?")],
)
def test_a_summary_is_never_more_than_one_line_of_printable_ascii(odd: str, shown: str) -> None:
    """An id's pattern lets a trailing line break through (msgspec's `$`): the summary shows
    it as `?` and stays one line, rather than fail the answer (a 500)."""
    assert fitting(odd) == shown
    assert re.fullmatch(SUMMARY_PATTERN, fitting(odd))


@pytest.mark.parametrize("blank", ["", "   "])
def test_a_blank_summary_is_a_wording_bug(blank: str) -> None:
    with pytest.raises(ValueError, match="says something"):
        fitting(blank)


@given(st.lists(st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126)), min_size=1))
def test_whatever_it_is_given_it_answers_within_the_published_pattern(texts: list[str]) -> None:
    texts = [text if text.strip() else "x" for text in texts]
    assert re.fullmatch(SUMMARY_PATTERN, fitting(*texts))
