"""Bounds of every number and string the rules accept, named for what they mean.

They are enforced where input is decoded (``msgspec`` checks ``Meta`` on decode) and
published in the OpenAPI schema, so a caller sees the limits before sending.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

__all__ = [
    "MAX_CHECK_QUALITIES",
    "MAX_DEPLETABLES",
    "MAX_ROUNDS",
    "MAX_SITUATIONAL",
    "Face",
    "Magnitude",
    "Protection",
    "Score",
    "ScoreMaximum",
    "Target",
    "Threat",
]

MAX_CHECK_QUALITIES = 24
MAX_SITUATIONAL = 16
MAX_DEPLETABLES = 2  # §7.6: at most two depletable qualities per character
# The book sets no limit, but a conflict keeps every round in its history: this bounds it
# (ties can otherwise go on for ever, §4.3 sudden death).
MAX_ROUNDS = 100

Magnitude = Annotated[int, Meta(ge=-100, le=100, description="A modifier's magnitude (§2.2).")]
Target = Annotated[int, Meta(ge=-100, le=200, description="The target number T (§2.3).")]
Score = Annotated[int, Meta(ge=-100000, le=100000, description="A depletable or conflict score.")]
ScoreMaximum = Annotated[int, Meta(ge=1, le=100000, description="A depletable quality's maximum.")]
Threat = Annotated[
    int,
    Meta(
        ge=-20,
        le=20,
        description="How much harm this side inflicts: the depletion modifier "
        "of its weapon, hazard or argument on the §2.4.3 scale, -20…+20.",
    ),
]
Protection = Annotated[
    int,
    Meta(
        ge=-20,
        le=20,
        description="How this side is protected: its own depletion modifier, "
        "added to what it suffers (PCs 0…-10, §3.3.5), -20…+20.",
    ),
]
Face = Annotated[int, Meta(ge=1, le=20, description="One face shown by one die.")]
