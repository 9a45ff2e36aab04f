"""Example bodies published in the OpenAPI document (and replayed by Schemathesis and the
host's tests). The table is the design's four-player one: Hugo and Annie share a shooter,
Annie and Archer a beef, Archer and Vera a shooter, so all four are one group (D2)."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

__all__ = ["BULLSEYES", "ODDS_EXAMPLES", "ROLL_EXAMPLES", "VALIDATE_EXAMPLES"]


def _stats(avoid: int, armor: int, angel: int, allies: int) -> dict[str, int]:
    return {"avoid": avoid, "armor": armor, "angel": angel, "allies": allies}


BULLSEYES: list[dict[str, Any]] = [
    {
        "player": "hugo",
        "name": "Hugo",
        "shooter": "The Syndicate",
        "angel": "A retired forger in Lisbon",
        "beef": "He kept the ledger",
        "stats": _stats(4, 1, 2, 2),
    },
    {
        "player": "annie",
        "name": "Annie",
        "shooter": " the  syndicate ",
        "angel": "Her old cellmate",
        "beef": "A debt",
        "stats": _stats(3, 2, 2, 2),
    },
    {
        "player": "archer",
        "name": "Archer",
        "shooter": "Interpol",
        "angel": "A journalist who owes him",
        "beef": "A Debt",
        "stats": _stats(2, 3, 2, 2),
    },
    {
        "player": "vera",
        "name": "Vera",
        "shooter": "interpol",
        "angel": "A night-train conductor",
        "beef": "She saw a witness vanish",
        "stats": _stats(2, 2, 3, 2),
    },
]

VALIDATE_EXAMPLES = [
    Example(
        summary="Four connected bullseyes",
        description="Shooters and beefs compared normalised (D2): valid, one component.",
        value={"bullseyes": BULLSEYES},
    ),
    Example(
        summary="Two pairs, a short sheet and a zero",
        description="{Hugo, Annie} share a shooter and {Archer, Vera} nothing with them: "
        "`not-connected` at Archer and Vera; Vera's 8 points: `points-not-nine`; her Allies "
        "0: the warning `stat-zero` (D3).",
        value={
            "bullseyes": [
                *BULLSEYES[:2],
                {**BULLSEYES[2], "beef": "A stolen painting"},
                {**BULLSEYES[3], "stats": _stats(3, 2, 3, 0)},
            ]
        },
    ),
]

# "Caught Or Escape": stats 2/1/3/2, the Shooter at Aim 2 with 3 dice, the Angel at Aim 3
# with 2.
CAUGHT_OR_ESCAPE: dict[str, Any] = {
    "shooter": {"aim": 2, "ammo": 3},
    "angel": {"aim": 3, "ammo": 2},
    "stats": _stats(2, 1, 3, 2),
}

ROLL_EXAMPLES = [
    Example(
        summary="The table's dice",
        description='"Caught Or Escape": faces 2, 6, 5 and 1, 3 make S 1 and A 2: running '
        "(A − S = 1 is not above 3); 13 > 4 cracking and 4 > 3 exposure.",
        value={**CAUGHT_OR_ESCAPE, "faces": {"shooter": [2, 6, 5], "angel": [1, 3]}},
    ),
    Example(
        summary="Seeded server dice",
        description="A fresh bullseye's pools (Shooter 1/1, Angel 0/0), reproducible.",
        value={
            "shooter": {"aim": 1, "ammo": 1},
            "angel": {"aim": 0, "ammo": 0},
            "stats": _stats(4, 1, 2, 2),
            "seed": 7,
        },
    ),
    Example(
        summary="With its odds in the same call",
        description='`with_odds`: "Caught Or Escape" on seeded dice, the answer\'s `odds` '
        "those of the odds route (caught 1/12, running 11/12, at risk 647/648).",
        value={**CAUGHT_OR_ESCAPE, "seed": 7, "with_odds": True},
    ),
]

ODDS_EXAMPLES = [
    Example(
        summary='"Caught Or Escape"',
        description="Caught 1/12, escaped 0, running 11/12; cracking 53/54, exposure 11/12, "
        "at risk 647/648; running and at risk 593/648.",
        value=CAUGHT_OR_ESCAPE,
    ),
    Example(
        summary="A fresh bullseye's pools",
        description="Shooter 1/1, Angel 0/0: always running; cracking 1/3 (a 5 or 6 > 2 × 2).",
        value={
            "shooter": {"aim": 1, "ammo": 1},
            "angel": {"aim": 0, "ammo": 0},
            "stats": _stats(2, 1, 3, 2),
        },
    ),
]
