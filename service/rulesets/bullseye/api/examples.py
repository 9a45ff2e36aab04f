"""Example bodies published in the OpenAPI document (and replayed by Schemathesis)."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

__all__ = [
    "BATCH_EXAMPLES",
    "BULLSEYE_EXAMPLES",
    "CHARACTER_EXAMPLES",
    "CHECK_EXAMPLES",
    "CONFLICT_EXAMPLES",
    "PARTY_EXAMPLES",
    "SWORD_FIGHT",
]

SWORD_FIGHT: dict[str, Any] = {
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
        value=SWORD_FIGHT,
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
        value={"checks": [SWORD_FIGHT, {"target": 5, "seed": 1}]},
    )
]

# A sheet that spends exactly its 60 points (§3.3): one quality of each form (§3.1.1).
VALID_CHARACTER: dict[str, Any] = {
    "character": {
        "name": "Mara Quill",
        "summary": "A disgraced court cartographer turned smuggler.",
        "qualities": [
            {"name": "Never leave a crewmate behind", "type": "core", "magnitude": 8},
            {"name": "Sharp-eyed", "type": "intrinsic", "magnitude": 7},
            {"name": "Charted the northern reaches", "type": "experiential", "magnitude": 7},
            {"name": "A fast sloop named Heron", "type": "material", "magnitude": 7},
            {"name": "Steady hands", "type": "intrinsic", "magnitude": 3},
            {"name": "Knows every harbour master", "type": "experiential", "magnitude": 4},
            {"name": "Forgery training", "type": "experiential", "magnitude": 2},
            {"name": "Hidden cache of coin", "type": "material", "magnitude": 3},
        ],
        "depletable": [{"name": "health", "maximum": 44}],
        "depletion_modifier": -3,
    },
}

CHARACTER_EXAMPLES = [
    Example(
        summary="A valid character spending all 60 points",
        description="Qualities 24 points (2 per +1 of the additional ones), health 44 "
        "(24 points above 20), depletion modifier −3 (12 points).",
        value=VALID_CHARACTER,
    ),
    Example(
        summary="An invalid character",
        description="Two core qualities, the core at +9, an additional quality at +7 and a "
        "depletable quality of 70: every violation is reported at once.",
        value={
            "character": {
                "name": "Overreach",
                "qualities": [
                    {"name": "Glory", "type": "core", "magnitude": 9},
                    {"name": "Gold", "type": "core", "magnitude": 8},
                    {"name": "Strong", "type": "intrinsic", "magnitude": 7},
                    {"name": "Stronger", "type": "intrinsic", "magnitude": 7},
                    {"name": "Soldier", "type": "experiential", "magnitude": 7},
                    {"name": "Sword", "type": "material", "magnitude": 7},
                ],
                "depletable": [{"name": "health", "maximum": 70}],
            }
        },
    ),
    Example(
        summary="Defining qualities during play (§7.3)",
        description="Points may stay unspent and starting qualities undefined; with "
        "`previous`, established qualities may not change.",
        value={
            "character": {
                "name": "Ash",
                "qualities": [{"name": "Curious to a fault", "type": "core", "magnitude": 8}],
                "depletable": [{"name": "sanity", "maximum": 30}],
            },
            "variants": {"define_during_play": True},
            "previous": {
                "name": "Ash",
                "qualities": [{"name": "Curious to a fault", "type": "core", "magnitude": 8}],
            },
        },
    ),
]


def _party_member(name: str, core: str, contribution: int) -> dict[str, Any]:
    return {
        "character": {
            "name": name,
            "qualities": [
                {"name": core, "type": "core", "magnitude": 8},
                {"name": f"{name}'s wits", "type": "intrinsic", "magnitude": 7},
                {"name": f"{name}'s trade", "type": "experiential", "magnitude": 7},
                {"name": f"{name}'s kit", "type": "material", "magnitude": 7},
            ],
        },
        "contribution": contribution,
    }


PARTY_EXAMPLES = [
    Example(
        summary="Two hackers sharing anonymity (§7.5)",
        description="Each puts 10 points into the shared score: 20 + 10 + 10 = 40.",
        value={
            "group_depletable": {"name": "anonymity"},
            "members": [
                _party_member("Vex", "Information wants to be free", 10),
                _party_member("Lumen", "Protect the source", 10),
            ],
        },
    )
]

_CONFLICT = {
    "name": "Bridge of Knives",
    "depletable_at_issue": "health",
    "players": [
        {
            "id": "ana",
            "name": "Ana",
            "threat": 5,
            "depletion_modifier": -2,
            "bullseyes": 1,
            "qualities": [
                {"name": "Duelist", "type": "experiential", "magnitude": 7},
                {"name": "Nimble", "type": "intrinsic", "magnitude": 4},
            ],
        },
        {
            "id": "bo",
            "name": "Bo",
            "threat": 10,
            "qualities": [
                {"name": "Giant", "type": "intrinsic", "magnitude": 8},
                {"name": "War axe", "type": "material", "magnitude": 3},
            ],
        },
    ],
    "opposition": {
        "name": "Bandit crew",
        "threat": 5,
        "qualities": [{"name": "Outnumber them", "type": "intrinsic", "magnitude": 6}],
    },
}

CONFLICT_EXAMPLES = [Example(summary="Two PCs against bandits", value=_CONFLICT)]

# Acting on the conflict above (server dice): a whole round, one check, a bullseye, the
# final check. Qualities are named from those declared at creation.
ROUND_EXAMPLES = [
    Example(
        summary="The GM resolves a whole round",
        value={
            "gm": {"qualities": ["Outnumber them"]},
            "players": {"ana": {"qualities": ["Duelist"]}, "bo": {"qualities": ["Giant"]}},
        },
    )
]
SUBMIT_EXAMPLES = [
    Example(summary="The GM's check for the round", value={"participant": "gm"}),
    Example(
        summary="A player's check, a declared quality by name",
        value={"participant": "ana", "qualities": ["Duelist"]},
    ),
]
BULLSEYE_EXAMPLES = [
    Example(
        summary="Spend a bullseye on the roll just seen",
        value={"participant": "ana", "spend": True},
    ),
    Example(summary="Keep it for later", value={"participant": "ana", "spend": False}),
]
OUTCOME_EXAMPLES = [
    Example(
        summary="The opposition's final check (§4.4)", value={"target": 10, "checks": {"gm": {}}}
    )
]
