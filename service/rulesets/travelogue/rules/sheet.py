"""A player's bullseye as the table writes it at set-up ("Bullseyes", "Your Name",
"The Blanks"), and the one normal form in which shooters and beefs are compared (D2)."""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value
from service.rulesets.travelogue.rules.stats import STAT_ORDER, Stat, Stats

__all__ = ["MAX_PLAYERS", "MIN_PLAYERS", "PlayerId", "Sheet", "SheetStats", "normalised"]

MIN_PLAYERS = 4
MAX_PLAYERS = 6

PlayerId = Annotated[
    str,
    Meta(
        pattern=r"^[a-z0-9_-]{1,32}$",
        description="A player's id at this table: 1–32 of a–z, 0–9, `_`, `-`.",
        examples=["hugo"],
    ),
]
# Lengths are checked by the set-up rules, so that one answer lists every violation; the
# schema bounds only what a request may carry at all.
_Text = Annotated[str, Meta(max_length=1000)]
# Bounded loosely, like the texts: a stat outside 0…9 is the set-up's `stat-range`, reported
# with every other violation, not a schema error that hides them.
SheetStatValue = Annotated[
    int, Meta(ge=-1000, le=1000, description="0…9, the four summing to 9 (D3).")
]


class SheetStats(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Avoid, Armor, Angel and Allies as the sheet gives them, before the set-up check."""

    avoid: SheetStatValue
    armor: SheetStatValue
    angel: SheetStatValue
    allies: SheetStatValue

    def of(self, stat: Stat) -> int:
        """The value of ``stat``."""
        value: int = getattr(self, stat.value)
        return value

    @property
    def total(self) -> int:
        return sum(self.of(stat) for stat in STAT_ORDER)

    def checked(self) -> Stats:
        """The game's stats, once the set-up check found each in 0…9."""
        return Stats(avoid=self.avoid, armor=self.armor, angel=self.angel, allies=self.allies)


class Sheet(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """One bullseye: who plays him, his first name, who hunts him, his way out, why."""

    player: PlayerId
    name: Annotated[_Text, Meta(description="His first name (≤ 40), unique at the table (D4).")]
    shooter: Annotated[_Text, Meta(description="Who hunts him (≤ 120).")]
    angel: Annotated[_Text, Meta(description="His way out (≤ 120); renamable in play (D27).")]
    beef: Annotated[_Text, Meta(description="Why he is hunted (≤ 200).")]
    stats: SheetStats


# NFKC puts each run of combining marks in canonical order (by combining class, stably) by
# insertion: quadratic in the run, about 100 ms for four sheets of 1 000-mark texts. Runs
# longer than eight are sorted first, in O(n log n); NFKC then finds them in order.
_LONG_RUN = re.compile(rb"[^\x00]{9,}")
# Starters (class 0) that decompose into combining marks only: spelt out, their marks join
# the runs around them, as in NFKC's own decomposition.
_MARKS_ONLY = {
    code: unicodedata.normalize("NFKD", chr(code))
    for code in (0x0F73, 0x0F75, 0x0F81, 0xFF9E, 0xFF9F)
}


def _in_canonical_order(text: str) -> str:
    """``text`` with the same NFKC, each long run of combining marks already in canonical
    order. Exact: reordering adjacent marks of different classes keeps a text canonically
    equivalent, and every mark decomposes into marks of its own class, so sorting before
    decomposing sorts as NFKC does after (tests/rulesets/travelogue/rules/test_normalised.py
    checks this, and the list above, against this Python's Unicode database)."""
    text = text.translate(_MARKS_ONLY)
    classes = bytes(map(unicodedata.combining, text))  # one byte a character: 0…240
    if not _LONG_RUN.search(classes):
        return text
    parts: list[str] = []
    done = 0
    for run in _LONG_RUN.finditer(classes):
        start, end = run.span()
        parts += [text[done:start], "".join(sorted(text[start:end], key=unicodedata.combining))]
        done = end
    parts.append(text[done:])
    return "".join(parts)


def normalised(text: str) -> str:
    """``text`` as shooters, beefs and names are compared: NFKC, casefolded, trimmed,
    inner whitespace collapsed — "The Syndicate" is " the  syndicate " (D2). Linear in
    the text's length (up to its sorting of long runs of combining marks)."""
    if not text.isascii():
        text = _in_canonical_order(text)
    # str.split() splits at runs of the whitespace regex \s matches (str.isspace) and drops
    # those at the ends: the collapse and the trim in one pass.
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
