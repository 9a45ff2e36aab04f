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


_SPACES = re.compile(r"\s+")


def normalised(text: str) -> str:
    """``text`` as shooters, beefs and names are compared: NFKC, casefolded, trimmed,
    inner whitespace collapsed — "The Syndicate" is " the  syndicate " (D2)."""
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()
