"""Example bodies published in the OpenAPI document (and replayed by Schemathesis)."""

from __future__ import annotations

from litestar.openapi.spec import Example

__all__ = ["GAMBLE_EXAMPLES", "ODDS_EXAMPLES"]

GAMBLE_EXAMPLES = [
    Example(
        summary="A multi-action at the table, bolstered with 1 WP",
        description="Common (primary) then a Minor injury; the pair of 6s serves the "
        "primary, no good die is left for the injury, and two 1s make it a critical "
        "failure: injury-worsens-badly, 2 WP lost (D3, D5, D7, D8).",
        value={
            "actions": [
                {"difficulty": "common", "label": "pull the alarm lever"},
                {"difficulty": "minor", "kind": "injury", "label": "leg wound"},
            ],
            "wp_bet": 1,
            "willpower": {"source": "drive", "drive": "Protect the crew", "available": 4},
            "faces": [1, 1, 6, 6, 2, 3, 2, 3, 2],
        },
    ),
    Example(
        summary="Server dice, seeded, with team work",
        description="A Hard task made Common by a helper (D6), 3 WP bet: ten dice.",
        value={
            "actions": [{"difficulty": "hard", "teamwork": True}],
            "wp_bet": 3,
            "willpower": {"available": 5},
            "seed": 2010,
        },
    ),
    Example(
        summary="Declined",
        description='"Step 3: Going for It": failure accepted, nothing rolled (D9).',
        value={"actions": [{"difficulty": "overwhelming"}], "decline": True},
    ),
    Example(
        summary="With its odds in the same call",
        description="`with_odds`: a Common, seeded; the answer's `odds` are the odds "
        "route's for it (success 14596615/16777216 ≈ 0.870; the seed prints 84 %).",
        value={"actions": [{"difficulty": "common"}], "seed": 7, "with_odds": True},
    ),
]

ODDS_EXAMPLES = [
    Example(
        summary="Two commons with a 3 WP bet",
        description="744158980/1073741824 (186039745/268435456 reduced) ≈ 0.693 success; "
        "the seed prints 66 % (row (2,2)).",
        value={"actions": [{"difficulty": "common"}, {"difficulty": "common"}], "wp_bet": 3},
    ),
    Example(
        summary="A common at an easier TN",
        description="TN 4: faces 3–8 are good; the seed has no row for it.",
        value={"actions": [{"difficulty": "common"}], "target_number": 4},
    ),
]
