"""Request bodies of the benchmark scenarios (shared with the load-test locustfile)."""

from __future__ import annotations

from typing import Any

CHECK: dict[str, Any] = {
    "target": 15,
    "qualities": [
        {"name": "Duelling academy graduate", "type": "experiential", "magnitude": 4},
        {"name": "Cat-quick reflexes", "type": "intrinsic", "magnitude": 3},
        {"name": "Grandfather's sabre", "type": "material", "magnitude": 2},
    ],
    "situational": [{"label": "Rolling deck", "magnitude": -1}],
    "depletable": [{"name": "health", "current": 30, "maximum": 42}],
}

BATCH: dict[str, Any] = {"checks": [CHECK] * 20}

FOUR_PLAYERS: dict[str, Any] = {
    "name": "Benchmark brawl",
    "dice_source": "client",
    "players": [
        {
            "id": f"p{i}",
            "name": f"Player {i}",
            "qualities": [{"name": "Tough", "type": "intrinsic", "magnitude": 5}],
        }
        for i in range(4)
    ],
    "opposition": {"name": "Horde"},
}

TIED = {"roll": {"faces": [10]}}
ROUND: dict[str, Any] = {"gm": TIED, "players": {f"p{i}": TIED for i in range(4)}}
