"""Example bodies published in the OpenAPI document, run by the tests (stateless ones
one by one, session ones in ``BULLSEYE_PLAYS``) and replayed by Schemathesis."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

from service.http.contract.registry import ExamplePlay, PlayStep

__all__ = [
    "BATCH_EXAMPLES",
    "BULLSEYE_EXAMPLES",
    "BULLSEYE_PLAYS",
    "CHARACTER_EXAMPLES",
    "CHECK_EXAMPLES",
    "CHECK_ODDS_EXAMPLES",
    "CLIENT_SEED_EXAMPLES",
    "CONFLICT_EXAMPLES",
    "OUTCOME_EXAMPLES",
    "PARTY_EXAMPLES",
    "ROUND_EXAMPLES",
    "SUBMIT_EXAMPLES",
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

# §2.1.2, §2.4: +3 against 12 succeeds on a die result of 10 to 20 — 11/20 on a d20.
_KEEN_EYE: dict[str, Any] = {
    "target": 12,
    "qualities": [{"name": "Keen eye", "type": "intrinsic", "magnitude": 3}],
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
        summary="A check with its odds",
        description="`with_odds`: the answer's `odds` is what `checkOdds` answers for "
        "this body less `seed` and `with_odds`, before the roll.",
        value={**_KEEN_EYE, "seed": 7, "with_odds": True},
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

CHECK_ODDS_EXAMPLES = [
    Example(
        summary="A d20 check, +3 against 12",
        description="Success on 10 to 20 (11/20), stalemate on 9 (1/20); the same for "
        "2d10, 3d6 and 4d6-4, with a held bullseye, a spent one and a Quick 10.",
        value=_KEEN_EYE,
    ),
    Example(
        summary="A sword fight with health at issue",
        description="The `resolveCheck` example less its seed: who loses how much "
        "(§3.2.2) and the condition health 30 of 42 may be left in; no Quick 10 (§2.5).",
        value={key: value for key, value in SWORD_FIGHT.items() if key != "seed"},
    ),
    Example(
        summary="A healer's check (§3.2.6)",
        description="3d6 against 10 restoring a patient at 20 of 42: the points it may "
        "restore and the patient's condition after.",
        value={
            "target": 10,
            "dice": "3d6",
            "qualities": [{"name": "Field medic", "type": "experiential", "magnitude": 2}],
            "restoration": {"patient": {"name": "health", "current": 20, "maximum": 42}},
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

_CONFLICT: dict[str, Any] = {
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
            "depletable": {"name": "health", "current": 38, "maximum": 42},
        },
        {
            "id": "bo",
            "name": "Bo",
            "threat": 10,
            "bullseyes": 1,
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
_AT_THE_TABLE: dict[str, Any] = {
    **_CONFLICT,
    "name": "Bridge of Knives, dice at the table",
    "dice_source": "client",
    "players": [{**player, "bullseyes": 0} for player in _CONFLICT["players"]],
}

CONFLICT_EXAMPLES = [
    Example(
        summary="Two PCs against bandits",
        description="Server dice (the default); Ana and Bo hold a bullseye each (§7.2), "
        "Ana's health is at issue. Players' score 7 + 4 + 8 + 3 = 22, the opposition's 44 "
        "(§4.2).",
        value=_CONFLICT,
    ),
    Example(
        summary="The same fight, dice rolled at the table",
        description="`dice_source: client`: each check may carry the faces rolled.",
        value=_AT_THE_TABLE,
    ),
]

# Acting on the conflicts above (BULLSEYE_PLAYS plays them in order). Qualities are named
# from those declared at creation.
CLIENT_SEED_EXAMPLES = [
    Example(
        summary="The GM's client seed",
        description="With the GM's token, once the conflict has published its commitment.",
        value={"seed": "gm-table-7"},
    ),
    Example(summary="Ana's client seed, with her token", value={"seed": "ana-lucky-7"}),
    Example(summary="Bo's client seed, with his token", value={"seed": "bo_2"}),
]
ROUND_EXAMPLES = [
    Example(
        summary="The GM resolves a whole round, dice from the table",
        description="For the conflict at the table: the GM rolled 20 and both players 1, so "
        "each player loses the spread plus the opposition's threat (§4.3) and the "
        "opposition wins at once.",
        value={
            "gm": {"qualities": ["Outnumber them"], "roll": {"faces": [20]}},
            "players": {
                "ana": {"qualities": ["Duelist"], "roll": {"faces": [1]}},
                "bo": {"qualities": ["Giant"], "roll": {"faces": [1]}},
            },
        },
    )
]
SUBMIT_EXAMPLES = [
    Example(summary="The GM's check for the round", value={"participant": "gm"}),
    Example(
        summary="A player's check, a declared quality by name",
        value={"participant": "ana", "qualities": ["Duelist"]},
    ),
    Example(
        summary="A player's check, qualities by name and as declared",
        value={
            "participant": "bo",
            "qualities": ["Giant", {"name": "War axe", "type": "material", "magnitude": 3}],
        },
    ),
]
BULLSEYE_EXAMPLES = [
    Example(
        summary="Spend a bullseye on the roll just seen",
        value={"participant": "ana", "spend": True},
    ),
    Example(summary="Keep it for later", value={"participant": "bo", "spend": False}),
]
OUTCOME_EXAMPLES = [
    Example(
        summary="The opposition's final check (§4.4)",
        description="Once the opposition has won: the GM's check against 10, the table's 12.",
        value={"target": 10, "checks": {"gm": {"roll": {"faces": [12]}}}},
    )
]

BULLSEYE_PLAYS = (
    ExamplePlay(
        summary="Every participant's client seed, then a round check by check on the "
        "server's dice, a bullseye spent and one kept (§7.2)",
        create_operation="createConflict",
        create=CONFLICT_EXAMPLES[0],
        steps=(
            # The commitment is published; each participant then adds its own seed.
            PlayStep(
                operation_id="addConflictClientSeed",
                example=CLIENT_SEED_EXAMPLES[0],
                shows={"/client_seeds/0/participant": "gm", "/seeds_closed": False},
            ),
            PlayStep(
                operation_id="addConflictClientSeed",
                example=CLIENT_SEED_EXAMPLES[1],
                role="ana",
                shows={"/client_seeds/1/participant": "ana"},
            ),
            PlayStep(
                operation_id="addConflictClientSeed",
                example=CLIENT_SEED_EXAMPLES[2],
                role="bo",
                shows={"/client_seeds/2/participant": "bo", "/rolls": 0},
            ),
            PlayStep(
                operation_id="submitRoundCheck",
                example=SUBMIT_EXAMPLES[0],
                path={"number": 1},
                status=202,
            ),
            # The GM's roll is its own: to Ana the GM's check is still a distribution.
            PlayStep(
                operation_id="conflictForecast",
                role="ana",
                shows={"/participants/0/basis": "hidden", "/winner/method": "simulation"},
            ),
            PlayStep(
                operation_id="submitRoundCheck",
                example=SUBMIT_EXAMPLES[1],
                role="ana",
                path={"number": 1},
                status=202,
                shows={"/may_spend_bullseye": True},
            ),
            PlayStep(
                operation_id="decideBullseye",
                example=BULLSEYE_EXAMPLES[0],
                role="ana",
                path={"number": 1},
                status=202,
                shows={"/waiting_for": ["bo"]},
            ),
            PlayStep(
                operation_id="submitRoundCheck",
                example=SUBMIT_EXAMPLES[2],
                role="bo",
                path={"number": 1},
                status=202,
                shows={"/deciding": ["bo"]},
            ),
            PlayStep(
                operation_id="decideBullseye",
                example=BULLSEYE_EXAMPLES[1],
                role="bo",
                path={"number": 1},
                shows={"/kind": "round", "/number": 1},
            ),
            PlayStep(
                operation_id="getConflict",
                role="bo",
                shows={"/bullseyes_left/ana": 0, "/fairness/seeds_closed": True},
            ),
            PlayStep(operation_id="createStreamTicket", role="ana", status=201),
        ),
    ),
    ExamplePlay(
        summary="A whole round at the table, then the winners' final check (§4.3, §4.4)",
        create_operation="createConflict",
        create=CONFLICT_EXAMPLES[1],
        steps=(
            PlayStep(
                operation_id="resolveRound",
                example=ROUND_EXAMPLES[0],
                shows={"/decided": True, "/winner": "opposition"},
            ),
            PlayStep(
                operation_id="conflictForecast",
                role="bo",
                shows={"/this_round": None, "/winner/opposition/exact": "1/1"},
            ),
            PlayStep(operation_id="makeOutcomeCheck", example=OUTCOME_EXAMPLES[0]),
        ),
    ),
)
