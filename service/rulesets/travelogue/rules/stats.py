"""A bullseye's four stats and the Aim/Ammo tracks of his Shooter and Angel ("Bullseyes",
"The Blanks")."""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from msgspec import Meta

from service.kernel.values import Value

__all__ = ["MAX_TRACK", "STAT_ORDER", "Stat", "Stats", "Track", "TrackValue"]

StatValue = Annotated[int, Meta(ge=0, le=9, description="0…9; the four sum to 9 (D3).")]
# A track grows by one a flag or an attention and by what departures hand on; bounded so
# every state stays small (D29 bounds the attentions).
MAX_TRACK = 1000
TrackValue = Annotated[int, Meta(ge=0, le=MAX_TRACK)]


class Stat(StrEnum):
    """A bullseye's stats, in the default order a buy-out breaks ties in (D14)."""

    AVOID = "avoid"
    ARMOR = "armor"
    ANGEL = "angel"
    ALLIES = "allies"


STAT_ORDER: tuple[Stat, ...] = tuple(Stat)


class Stats(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Avoid, Armor, Angel and Allies: 9 points over the four at set-up (D3)."""

    avoid: StatValue
    armor: StatValue
    angel: StatValue
    allies: StatValue

    def of(self, stat: Stat) -> int:
        """The value of ``stat``."""
        value: int = getattr(self, stat.value)
        return value

    @property
    def smallest(self) -> int:
        return min(self.avoid, self.armor, self.angel, self.allies)

    @property
    def largest(self) -> int:
        return max(self.avoid, self.armor, self.angel, self.allies)

    @property
    def total(self) -> int:
        return self.avoid + self.armor + self.angel + self.allies


class Track(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A Shooter's or an Angel's Aim (the faces that count) and Ammo (how many dice)."""

    aim: TrackValue
    ammo: TrackValue
