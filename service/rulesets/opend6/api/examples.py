"""Example bodies published in the OpenAPI document (and replayed by Schemathesis)."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

__all__ = ["ROLL_EXAMPLES", "SHOVEL"]

# "Rolling Dice": lifting 4D with a shovel's +1D, against a Moderate difficulty; seeded.
SHOVEL: dict[str, Any] = {
    "base": {"type": "skill", "code": "4D"},
    "bonuses": [{"label": "shovel", "dice": 1}],
    "difficulty": {"kind": "standard", "level": "moderate"},
    "seed": 42,
}

ROLL_EXAMPLES = [
    Example(summary="Lifting with a shovel", value=SHOVEL),
    Example(
        summary="Dice rolled at the table, a Fate Point",
        description="Devices 4D+2 doubled to 8D+4 (D6): seven regular dice and the Wild Die.",
        value={
            "base": {"type": "skill", "code": "4D+2"},
            "fate_point": True,
            "faces": {"regular": [3, 4, 5, 2, 6, 1, 3], "wild": [6, 2]},
            "difficulty": {"kind": "number", "value": 30},
        },
    ),
]
