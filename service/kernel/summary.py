"""One line a chat bot may post as is: the ``summary`` of every answer that reports a roll.

Each ruleset words its own summaries (``rules/summary.py``, in the book's vocabulary) from
the result object alone, so the same answer always has the same line. What they share is
here: the bound, the alphabet (printable ASCII, so no line break, no control character
and nothing a chat client reads as markup but what ids may hold) and how a line that
would run long is shortened.
"""

from __future__ import annotations

from typing import Annotated, Final

from msgspec import Meta

__all__ = [
    "MAX_SUMMARY",
    "SIGNED",
    "SUMMARY_PATTERN",
    "MaybeSummary",
    "Summary",
    "fitting",
    "signed",
]

MAX_SUMMARY = 200
SUMMARY_PATTERN = rf"^[ -~]{{1,{MAX_SUMMARY}}}$"
_ELLIPSIS = "..."

_DESCRIPTION = (
    "A one-line summary of the roll, for a chat bot to post as is: what was rolled, the "
    "total and the outcome in the game's own words. Plain printable ASCII, no line break, no "
    f"markdown, at most {MAX_SUMMARY} characters; built from this answer alone, so the "
    "same answer always has the same line. Ids appear as sent; names and labels never do."
)

Summary = Annotated[
    str,
    Meta(
        min_length=1,
        max_length=MAX_SUMMARY,
        pattern=SUMMARY_PATTERN,
        description=_DESCRIPTION,
        examples=["d20 11 +4 = yield 15 (Above Average) vs target 15 (Hard): stalemate"],
    ),
]
MaybeSummary = Annotated[
    Summary | None,
    Meta(description=f"{_DESCRIPTION} Null when the action rolled nothing."),
]


def signed(value: int) -> str:
    """A modifier as the books write it: ``+3``, ``-2``, ``+0``."""
    return f"{value:+d}"


class _Signed(dict[int, str]):
    """:func:`signed` as a lookup: ``SIGNED[3] == "+3"``. The usual values are made once;
    any other is formatted when asked (and not kept: the table stays its size)."""

    def __missing__(self, value: int) -> str:
        return signed(value)


# A summary is built on every roll answer: a subscript costs a fraction of a call to
# signed() and its format spec (callgrind: ~1 kIr each).
SIGNED: Final[dict[int, str]] = _Signed({value: signed(value) for value in range(-300, 301)})


def fitting(*candidates: str) -> str:
    """The first candidate that fits in :data:`MAX_SUMMARY` characters (give the fullest
    first, then shorter wordings), else the last cut at a word and marked ``...``.

    A character outside printable ASCII (only an id can bring one: summaries are built
    from the service's words and ids) is shown as ``?``.

    Raises:
        ValueError: no candidate, or only blanks (a wording bug).
    """
    if not candidates:
        raise ValueError("no summary to choose from")
    for chosen in candidates:  # a loop: a generator costs more than the rest (hot path)
        if len(chosen) <= MAX_SUMMARY:
            break
    else:
        keep = candidates[-1][: MAX_SUMMARY - len(_ELLIPSIS)]
        cut = keep.rfind(" ")
        chosen = (keep[:cut] if cut > 0 else keep).rstrip(" ,;:") + _ELLIPSIS
    if not (chosen.isascii() and chosen.isprintable()):  # [ -~]+, but for what ids carry
        # An id's pattern lets a trailing line break through (`$` matches before it): the
        # line stays one line, its odd characters shown as `?`, rather than fail the answer.
        chosen = "".join(c if " " <= c <= "~" else "?" for c in chosen)
    if not chosen.strip():
        raise ValueError("a summary says something")
    return chosen
