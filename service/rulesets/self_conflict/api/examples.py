"""Example bodies published in the OpenAPI document (and replayed by Schemathesis)."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

from service.rulesets.self_conflict.rules.scale import HUMANOID_BASIC_TALENTS

__all__ = ["CHECK_EXAMPLES", "OBJECT_EXAMPLES", "ODDS_EXAMPLES", "PILOT"]

# "Task resolution and other rules": Fairly dangerous(4), a GM's +1, a karma point spent
# on the Self die; the table's dice 3 and 3 make Conflict 4, equal to the level, so a
# re-roll of 6 follows.
PILOT: dict[str, Any] = {
    "talent": {"name": "dangerous", "level": 4},
    "conflict_modifiers": [{"label": "slippery deck", "value": 1}],
    "karma": {"balance": 2, "modifier": -1},
    "faces": [3, 3, 6],
}

CHECK_EXAMPLES = [
    Example(
        summary="The table's dice, a GM modifier and a karma point",
        description="Self 3 − 1 = 2 under 4 (6 points); Conflict 3 + 1 = 4 equal, its "
        "re-roll 6 (6 points): 12, a total success; karma 2 → 1.",
        value=PILOT,
    ),
    Example(
        summary="Server dice, seeded",
        description='A wholly unfamiliar task: level 0 ("Talents").',
        value={"talent": {"name": "ship's surgeon", "level": 0}, "seed": 2004},
    ),
    Example(
        summary="With its odds in the same call",
        description="`with_odds`: the answer's `odds` are the odds route's for this body "
        "(level 4, a GM's +2: failure 239/648, marginal 685/1296, total 133/1296).",
        value={
            "talent": {"level": 4},
            "conflict_modifiers": [{"label": "storm", "value": 2}],
            "seed": 7,
            "with_odds": True,
        },
    ),
]

ODDS_EXAMPLES = [
    Example(
        summary="Level 4 with a GM's +2",
        description="478/685/133 in 1296ths (failure, marginal, total), criticals "
        "included: answered reduced, 239/648, 685/1296, 133/1296.",
        value={"talent": {"level": 4}, "conflict_modifiers": [{"label": "storm", "value": 2}]},
    ),
]

_HUMANOID = [talent.name for talent in HUMANOID_BASIC_TALENTS]

OBJECT_EXAMPLES = [
    Example(
        summary="A humanoid player character",
        description="Every step completed, the seed's humanoid Basic Talents checked.",
        value={
            "object": {
                "name": "Vessa Roon",
                "concept": "A smuggler pilot who owes the wrong people",
                "type": "humanoid",
                "sentient": True,
                "story": "Vessa grew up on the ore barges of the outer belt. She learned to "
                "fly before she could read. A bad cargo run left her in debt to the Hask "
                "syndicate. Tonight she takes one last job to clear it.",
                "talents": [
                    {"name": "Agile", "level": 4, "kind": "basic"},
                    {"name": "dangerous", "level": 4, "kind": "basic"},
                    {"name": "Disciplined", "level": 2, "kind": "basic"},
                    {"name": "Handy", "level": 3, "kind": "basic"},
                    {"name": "Influential", "level": 3, "kind": "basic"},
                    {"name": "Witty", "level": 5, "kind": "basic"},
                    {"name": "Tough", "level": 3, "kind": "basic"},
                    {"name": "flies anything with an engine", "level": 5, "kind": "gained"},
                    {"name": "knows every fence on the belt", "level": 4, "kind": "gained"},
                ],
                "signs": ["burn scar across the left hand", "never sits with her back to a door"],
                "goal": "Own her ship outright and answer to no one.",
                "objectives": ["Finish the Hask job", "Find a buyer for the stolen nav core"],
                "karma": 1,
            },
            "basic_talents": _HUMANOID,
        },
    ),
    Example(
        summary="A ship with its captain as a gained talent",
        description="Not sentient: no goal needed (D11).",
        value={
            "object": {
                "name": "Grey Heron",
                "concept": "An old courier ship, fast and patched",
                "type": "ship",
                "sentient": False,
                "story": "The Heron carried mail between the colonies for forty years. Her "
                "hull is more patch than plate. Captain Ilse Marr bought her at auction.",
                "talents": [
                    {"name": "fast", "level": 5, "kind": "basic"},
                    {"name": "sturdy", "level": 2, "kind": "basic"},
                    {
                        "name": "Captain Ilse Marr, a cautious veteran of the long run",
                        "level": 4,
                        "kind": "gained",
                    },
                ],
                "signs": ["eaten by time"],
            },
            "basic_talents": ["Fast", "Sturdy"],
        },
    ),
]
