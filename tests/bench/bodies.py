"""Request bodies of the benchmark scenarios (shared with the load-test locustfile)."""

from __future__ import annotations

from typing import Any

from service.rulesets.bullseye.api.examples import SWORD_FIGHT
from service.rulesets.opend6.api.examples import SHOVEL
from service.rulesets.self_conflict.api.examples import PILOT

# Scenario 1 of the issue: 3 qualities, 1 situational, impairment (health 30 of 42).
CHECK: dict[str, Any] = {
    key: value for key, value in SWORD_FIGHT.items() if key not in ("depletion", "seed")
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
    "ttl_seconds": 900,  # gone soon after the run, even from a Redis of your own
}

TIED = {"roll": {"faces": [10]}}
ROUND: dict[str, Any] = {"gm": TIED, "players": {f"p{i}": TIED for i in range(4)}}

# OpenD6: lifting 4D with a shovel's +1D against Moderate, the server's dice.
OPEND6_ROLL_BODY: dict[str, Any] = {key: value for key, value in SHOVEL.items() if key != "seed"}

# Self/Conflict: the pilot's talent check (a GM's +1, a karma point spent), the server's dice.
SELF_CONFLICT_CHECK_BODY: dict[str, Any] = {
    key: value for key, value in PILOT.items() if key != "faces"
}

# The travelogue's one action a running player may repeat at any step (D27): the whole
# write path — token, load, rules, compare-and-set with history, events — every answer a 200.
RENAME_ANGEL = {"type": "rename_angel", "name": "A second chance"}

# A Quick Shot gamble as a table plays it: a Common primary and a Minor injury, 1 WP bet
# (nine dice), the server's dice.
QUICK_SHOT_GAMBLE = {
    "actions": [{"difficulty": "common"}, {"difficulty": "minor", "kind": "injury"}],
    "wp_bet": 1,
}
