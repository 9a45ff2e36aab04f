"""Example bodies published in the OpenAPI document (and replayed by Schemathesis)."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

__all__ = ["BATCH_EXAMPLES", "CHECK_EXAMPLES"]

_SWORD_FIGHT: dict[str, Any] = {
    "target": 15,
    "qualities": [
        {"name": "Duelling academy graduate", "type": "experiential", "magnitude": 4},
        {"name": "Cat-quick reflexes", "type": "intrinsic", "magnitude": 3},
        {"name": "Grandfather's sabre", "type": "material", "magnitude": 2},
    ],
    "situational": [{"label": "Rolling deck", "magnitude": -1}],
    "depletable": [{"name": "health", "current": 30, "maximum": 42}],
    "depletion": {
        "actor": {"threat": 5, "depletion_modifier": -2},
        "opposition": {"threat": 10, "depletion_modifier": 0},
    },
    "seed": 20240611,
}

CHECK_EXAMPLES = [
    Example(
        summary="A sword fight with health at issue",
        description="Three qualities, a situational penalty, impairment from health 30/42 "
        "(−2, §3.2.3) and depletion on the loser; seeded, so reproducible.",
        value=_SWORD_FIGHT,
    ),
    Example(
        summary="Dice rolled at the table",
        description="3d6 (§7.1) with the faces the player rolled.",
        value={
            "target": 12,
            "dice": "3d6",
            "roll": {"faces": [4, 6, 2]},
            "qualities": [{"name": "Keen eye", "type": "intrinsic", "magnitude": 5}],
        },
    ),
    Example(
        summary="A Quick 10",
        description="Takes 10 instead of rolling (§2.5).",
        value={
            "target": 10,
            "quick10": True,
            "qualities": [{"name": "Librarian", "type": "experiential", "magnitude": 3}],
        },
    ),
]

BATCH_EXAMPLES = [
    Example(
        summary="Two checks at once",
        value={"checks": [_SWORD_FIGHT, {"target": 5, "seed": 1}]},
    )
]
