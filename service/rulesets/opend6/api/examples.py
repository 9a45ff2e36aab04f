"""Example bodies published in the OpenAPI document, run by the tests (stateless ones
one by one, scenes and their moves in ``SCENE_PLAYS``) and replayed by Schemathesis."""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

from service.http.contract.registry import ExamplePlay, PlayStep

__all__ = [
    "CLIENT_SEED_EXAMPLES",
    "INITIATIVE_EXAMPLES",
    "MOVE_EXAMPLES",
    "ODDS_EXAMPLES",
    "OPPOSED_EXAMPLES",
    "OPPOSED_ODDS_EXAMPLES",
    "ROLL_EXAMPLES",
    "SCENE_EXAMPLES",
    "SCENE_PLAYS",
    "SHOVEL",
]

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
    Example(
        summary="A roll and its odds in one call",
        description="Lifting with a shovel, seeded, with `with_odds`: `odds` is the odds "
        "operation's answer for the same body less the seed.",
        value={**SHOVEL, "with_odds": True},
    ),
]

ODDS_EXAMPLES = [
    Example(
        summary="Lifting with a shovel, before the roll",
        description="4D and a shovel's +1D against Moderate (15, D8).",
        value={k: v for k, v in SHOVEL.items() if k != "seed"},
    ),
    Example(
        summary="Untrained, two Character Points, complications",
        description="Agility 3D+1 for an unskilled climb (+5 to the difficulty), two CP "
        "dice, the GM's `complication` option on a Wild Die 1.",
        value={
            "base": {"type": "untrained", "attribute": "3D+1"},
            "character_points": {"before": 2},
            "critical_failure": "complication",
            "difficulty": {"kind": "number", "value": 12},
        },
    ),
    Example(
        summary="No difficulty yet: the chance of at least each total",
        description="3D+1 with no difficulty: `chances.kind` is `total`, and "
        "`chances.at_least` gives P(total ≥ t) for every total t the roll can make "
        '("Determining Success", D2).',
        value={"base": {"type": "skill", "code": "3D+1"}},
    ),
    Example(
        summary="Wild Die Only",
        description="One toss decides (D14): `chances.kind` is `wild_die_only`.",
        value={"base": {"type": "skill", "code": "5D"}, "difficulty": {"kind": "wild_die_only"}},
    ),
]

_SNEAK = {"base": {"type": "skill", "code": "4D+1"}}
_SEARCH = {"base": {"type": "attribute", "code": "3D"}}
_DIM_LIGHT = {"resister": [{"label": "dim light", "value": 3}]}

OPPOSED_EXAMPLES = [
    Example(
        summary="Sneaking past a guard, seeded",
        description="Sneak 4D+1 against the guard's Perception 3D; dim light counts 3 "
        "against the guard.",
        value={
            "initiator": {**_SNEAK, "seed": 7},
            "resister": {**_SEARCH, "seed": 8},
            "modifiers": _DIM_LIGHT,
        },
    ),
    Example(
        summary="An attack against a dodge, dice at the table",
        description="Melee 3D (the Wild Die exploded: 6 then 2) against a dodge of 2D+2.",
        value={
            "initiator": {
                "base": {"type": "skill", "code": "3D"},
                "kind": "attack",
                "faces": {"regular": [4, 5], "wild": [6, 2]},
            },
            "resister": {
                "base": {"type": "skill", "code": "2D+2"},
                "faces": {"regular": [3], "wild": [4]},
            },
        },
    ),
    Example(
        summary="Sneaking past a guard, seeded, with its odds",
        description="As the first example, with `with_odds`: `odds` is the opposed odds "
        "operation's answer for both sides less their seeds.",
        value={
            "initiator": {**_SNEAK, "seed": 7},
            "resister": {**_SEARCH, "seed": 8},
            "modifiers": _DIM_LIGHT,
            "with_odds": True,
        },
    ),
]

OPPOSED_ODDS_EXAMPLES = [
    Example(
        summary="Sneaking past a guard, before the rolls",
        value={"initiator": _SNEAK, "resister": _SEARCH, "modifiers": _DIM_LIGHT},
    ),
]

INITIATIVE_EXAMPLES = [
    Example(
        summary="Three participants, seeded",
        description="Ana and the goblins roll their Acumen; Bo's total is given (no roll).",
        value={
            "participants": [
                {"id": "ana", "name": "Ana", "acumen": "3D", "agility": "3D+1"},
                {"id": "goblins", "name": "Goblin band", "acumen": "2D", "agility": "2D+2"},
                {"id": "bo", "name": "Bo", "acumen": "2D+2", "agility": "4D", "total": 12},
            ],
            "seed": 15,
        },
    ),
    Example(
        summary="The optional bonus, dice at the table",
        description='"Optional Initiative Bonus": Ana\'s search 5D over Acumen 3D adds one '
        "pip, her Agility 4D another (D16).",
        value={
            "optional_initiative_bonus": True,
            "participants": [
                {
                    "id": "ana",
                    "name": "Ana",
                    "acumen": "3D",
                    "agility": "4D",
                    "search": "5D",
                    "faces": {"regular": [2, 5], "wild": [3]},
                },
                {
                    "id": "troll",
                    "name": "Troll",
                    "acumen": "2D",
                    "agility": "2D",
                    "faces": {"regular": [6], "wild": [4]},
                },
            ],
        },
    ),
]

# Scenes, played in order by SCENE_PLAYS: an ambush at the table's dice (initiative each
# round), and a duel on the server's dice where the GM names who goes first.
_AMBUSH: dict[str, Any] = {
    "name": "Ambush at the ford",
    "rules": {"initiative": "rolled_per_round", "dice_source": "client"},
    "players": [{"id": "ana", "name": "Ana"}],
    "participants": [
        {
            "id": "ana-pc",
            "name": "Ana the scout",
            "controller": "ana",
            "acumen": "3D",
            "agility": "3D+1",
            "character_points": 5,
        },
        {
            "id": "goblins",
            "name": "Goblin band",
            "members": 3,
            "acumen": "2D",
            "agility": "2D+2",
        },
    ],
}
_DUEL: dict[str, Any] = {
    "name": "Duel on the stair",
    "rules": {"initiative": "first_action", "climax": True},
    "await_client_seeds": True,
    "players": [{"id": "bo", "name": "Bo"}],
    "participants": [
        {
            "id": "bo-pc",
            "name": "Bo the bravo",
            "controller": "bo",
            "acumen": "3D",
            "agility": "3D+2",
            "fate_points": 1,
        },
        {"id": "duelist", "name": "The masked duelist", "acumen": "3D+1", "agility": "4D"},
        {"id": "guard", "name": "Stair guard", "acumen": "2D", "agility": "2D+1"},
    ],
}

SCENE_EXAMPLES = [
    Example(
        summary="An ambush, dice at the table",
        description="Initiative rolled each round; the table rolls every die "
        "(`dice_source: client`). The goblins are a group of three, the GM's (D19).",
        value=_AMBUSH,
    ),
    Example(
        summary="A duel, the GM's order and the server's dice",
        description='"Initiative" Method 1 (`first_action`): the GM names who goes first. '
        "The adventure's climax (`climax`): climactic Fate Points once a round. The "
        "server's dice are provably fair and wait for the GM's and Bo's client seeds "
        "(`await_client_seeds`).",
        value=_DUEL,
    ),
]


def _faces(regular: list[int], wild: list[int]) -> dict[str, list[int]]:
    return {"regular": regular, "wild": wild}


def _move(summary: str, value: dict[str, Any], description: str | None = None) -> Example:
    return Example(summary=summary, description=description, value=value)


# The ambush (SCENE_EXAMPLES[0]), round 1: initiative, a multi-action turn, an attack, an
# opposing dodge that interrupts, Character Points after the dodge, the GM's judgement.
A_INITIATIVE_ANA = _move(
    "Ambush, round 1: Ana's initiative, dice at the table",
    {
        "type": "initiative",
        "round": 1,
        "rolls": [{"participant": "ana-pc", "faces": _faces([4, 4], [5])}],
    },
    "Acumen 3D: 4 + 4 and the Wild Die's 5 make 13.",
)
A_INITIATIVE_GOBLINS = _move(
    "Ambush, round 1: the goblins' initiative (the last one: the order is set)",
    {
        "type": "initiative",
        "round": 1,
        "rolls": [{"participant": "goblins", "faces": _faces([2], [3])}],
    },
    "Acumen 2D: 5. Everyone has rolled, so the order is set (D16) and Ana's turn begins.",
)
A_DECLARE_ANA = _move(
    "Ambush, round 1: Ana declares two actions",
    {"type": "declare", "round": 1, "participant": "ana-pc", "actions": 2},
    '"Multi-Action Penalty": one action beyond her allotment of 1, −1D on each roll.',
)
A_WAIT_ANA = _move(
    "Ambush, round 1: Ana waits",
    {"type": "wait", "round": 1, "participant": "ana-pc"},
    "One action held (D18): the turn passes to the goblins; she may interrupt later.",
)
A_DECLARE_GOBLINS = _move(
    "Ambush, round 1: the goblins declare one action",
    {"type": "declare", "round": 1, "participant": "goblins", "actions": 1},
)
A_ATTACK_GOBLINS = _move(
    "Ambush, round 1: the goblins attack (roll r1, pending)",
    {
        "type": "roll",
        "round": 1,
        "participant": "goblins",
        "spec": {
            "base": {"type": "skill", "code": "2D+1"},
            "kind": "attack",
            "faces": _faces([6], [4]),
        },
    },
    "2D+1: 6 + 4 + 1 = 11, waiting for the GM.",
)
A_DODGE_ANA = _move(
    "Ambush, round 1: Ana interrupts with a dodge that opposes the attack (roll r2)",
    {
        "type": "roll",
        "round": 1,
        "participant": "ana-pc",
        "opposes": "r1",
        "spec": {"base": {"type": "skill", "code": "3D"}, "faces": _faces([3], [5])},
    },
    "Her held action (D18); 3D less the −1D penalty is 2D: 3 + 5 = 8. "
    '"Opposed Difficulties": the two rolls are judged together.',
)
A_SPEND_ANA = _move(
    "Ambush, round 1: Ana spends a Character Point on her dodge",
    {"type": "spend_character_points", "round": 1, "roll": "r2", "count": 1},
    '"Character Points" after seeing the roll: the server rolls the extra die.',
)
A_RESOLVE_ATTACK = _move(
    "Ambush, round 1: the GM judges the attack and the dodge together",
    {"type": "resolve", "round": 1, "roll": "r1"},
    "Opposed: the attack's maker initiates and wins ties (D17); both rolls leave `pending`.",
)
A_END_INTERRUPT = _move(
    "Ambush, round 1: Ana ends her interrupt",
    {"type": "end_turn", "round": 1, "participant": "ana-pc"},
    "The turn goes back to the goblins.",
)
A_END_ROUND = _move(
    "Ambush, round 1: the goblins end the last turn, so round 2 begins by itself",
    {"type": "end_turn", "round": 1, "participant": "goblins"},
    "The last turn of the round, no roll pending, no waiter with actions left: the answer's "
    "scene is at round 2 (phase `initiative`, 5 s later); moves for round 1 are now 409 "
    "`wrong-round`.",
)
A_INITIATIVE_GOBLINS_2 = _move(
    "Ambush, round 2: the goblins' initiative, the Wild Die explodes",
    {
        "type": "initiative",
        "round": 2,
        "rolls": [{"participant": "goblins", "faces": _faces([6], [6, 3])}],
    },
)
A_INITIATIVE_ANA_2 = _move(
    "Ambush, round 2: Ana's initiative",
    {
        "type": "initiative",
        "round": 2,
        "rolls": [{"participant": "ana-pc", "faces": _faces([1, 1], [2])}],
    },
    "4 against the goblins' 15: they go first.",
)
A_END_GOBLINS_2 = _move(
    "Ambush, round 2: the goblins end their turn without acting",
    {"type": "end_turn", "round": 2, "participant": "goblins"},
)
A_DECLARE_ANA_2 = _move(
    "Ambush, round 2: Ana declares one action",
    {"type": "declare", "round": 2, "participant": "ana-pc", "actions": 1},
)
A_ATTACK_ANA_2 = _move(
    "Ambush, round 2: Ana attacks (roll r3)",
    {
        "type": "roll",
        "round": 2,
        "participant": "ana-pc",
        "spec": {
            "base": {"type": "skill", "code": "4D"},
            "kind": "attack",
            "faces": _faces([6, 6, 5], [2]),
        },
    },
)
A_RESOLVE_ANA_2 = _move(
    "Ambush, round 2: the GM resolves Ana's attack against Moderate",
    {
        "type": "resolve",
        "round": 2,
        "roll": "r3",
        "difficulty": {"kind": "standard", "level": "moderate"},
    },
)
A_END_SCENE = _move("Ambush, round 2: the GM ends the scene", {"type": "end_scene", "round": 2})

# The duel (SCENE_EXAMPLES[1]), on the server's dice.
# The duel waits for both client seeds (`await_client_seeds`): moves that roll nothing go
# ahead, the first roll only once the GM and Bo have each added theirs with their tokens.
CLIENT_SEED_EXAMPLES = [
    Example(
        summary="Duel: the GM's client seed",
        description="With the GM's token, after the scene published its commitment.",
        value={"seed": "masked-7"},
    ),
    Example(summary="Duel: Bo's client seed, with his token", value={"seed": "bo_bravo"}),
]
D_SET_ORDER = _move(
    "Duel, round 1: the GM lets Bo go first",
    {"type": "set_order", "round": 1, "first": ["bo-pc"]},
    '"Ties/No Rolls" orders the rest (the duelist\'s Acumen 3D+1, then the guard); the '
    "order holds for the scene.",
)
D_CLIMACTIC_BO = _move(
    "Duel, round 1: Bo spends a climactic Fate Point",
    {"type": "climactic_fate_point", "round": 1, "participant": "bo-pc"},
    '"Fate Points": his rolls this round are doubled.',
)
D_DECLARE_BO = _move(
    "Duel, round 1: Bo declares one action",
    {"type": "declare", "round": 1, "participant": "bo-pc", "actions": 1},
)
D_ATTACK_BO = _move(
    "Duel, round 1: Bo attacks, the server rolls (roll r1)",
    {
        "type": "roll",
        "round": 1,
        "participant": "bo-pc",
        "spec": {"base": {"type": "skill", "code": "4D"}, "kind": "attack"},
    },
    "Doubled by the climactic Fate Point: 8D.",
)
D_RESOLVE_BO = _move(
    "Duel, round 1: the GM resolves Bo's attack, the duelist's high ground against him",
    {
        "type": "resolve",
        "round": 1,
        "roll": "r1",
        "difficulty": {"kind": "standard", "level": "difficult"},
        "modifiers": [{"label": "high ground", "value": 3}],
    },
)
D_MOVE_UP_GUARD = _move(
    "Duel, round 1: the GM lets the guard move up",
    {"type": "move_up", "round": 1, "participant": "guard"},
    "To catch the lantern Bo knocked over: the guard interrupts now; its own turn stays.",
)
D_DECLARE_GUARD = _move(
    "Duel, round 1: the guard declares one action",
    {"type": "declare", "round": 1, "participant": "guard", "actions": 1},
)
D_CATCH_GUARD = _move(
    "Duel, round 1: the guard's catch, resolved at once by the GM",
    {
        "type": "roll",
        "round": 1,
        "participant": "guard",
        "spec": {"base": {"type": "attribute", "code": "2D+1"}},
        "difficulty": {"kind": "number", "value": 8},
        "resolve_now": True,
    },
    "Nobody waits to interrupt it (D18), so the GM resolves it with the roll.",
)
D_END_GUARD = _move(
    "Duel, round 1: the guard's interrupt ends",
    {"type": "end_turn", "round": 1, "participant": "guard"},
)
D_END_BO = _move(
    "Duel, round 1: Bo ends his turn",
    {"type": "end_turn", "round": 1, "participant": "bo-pc"},
    "The duelist's turn begins.",
)
D_STUN_DUELIST = _move(
    "Duel, round 1: the duelist is stunned",
    {"type": "set_able", "round": 1, "participant": "duelist", "able": False},
    "Unable, it loses the turn it is taking; the guard's turn begins.",
)
D_NEXT_ROUND = _move(
    "Duel, round 1: the GM ends the round early",
    {"type": "next_round", "round": 1},
    "Round 2 begins in the same order (first_action), with Bo's turn.",
)
D_RECOVER_DUELIST = _move(
    "Duel, round 2: the duelist recovers",
    {"type": "set_able", "round": 2, "participant": "duelist", "able": True},
    "Able again before its place in the order comes, it acts there.",
)
D_DECLARE_BO_2 = _move(
    "Duel, round 2: Bo declares one action",
    {"type": "declare", "round": 2, "participant": "bo-pc", "actions": 1},
)
D_VAULT_BO_2 = _move(
    "Duel, round 2: Bo vaults the banister, untrained and in a hurry (roll r3)",
    {
        "type": "roll",
        "round": 2,
        "participant": "bo-pc",
        "spec": {
            "base": {"type": "untrained", "attribute": "3D+2"},
            "bonuses": [{"label": "a rope to swing on", "dice": 1}],
            "time": {"normal_seconds": 10, "taken_seconds": 5},
        },
    },
    '"Untrained Skill Use" (+5 to the difficulty) and "Rushing" (half the time).',
)
D_RESOLVE_VAULT_2 = _move(
    "Duel, round 2: the GM resolves the vault against 10",
    {"type": "resolve", "round": 2, "roll": "r3", "difficulty": {"kind": "number", "value": 10}},
)
D_END_BO_2 = _move(
    "Duel, round 2: Bo ends his turn",
    {"type": "end_turn", "round": 2, "participant": "bo-pc"},
    "The duelist, able again, takes its place in the order.",
)
D_DECLARE_DUELIST_2 = _move(
    "Duel, round 2: the duelist declares one action",
    {"type": "declare", "round": 2, "participant": "duelist", "actions": 1},
)
D_LUNGE_DUELIST_2 = _move(
    "Duel, round 2: the duelist lunges, the GM's difficulty set with the roll (roll r4)",
    {
        "type": "roll",
        "round": 2,
        "participant": "duelist",
        "spec": {"base": {"type": "skill", "code": "5D"}, "kind": "attack"},
        "related_rolls": ["r2"],
        "difficulty": {"kind": "derived", "code": "3D+2"},
    },
    '"Special Difficulties": derived from Bo\'s Agility 3D+2, 2 × 3 + 2 = 8 (D9). The '
    'guard\'s catch last round helps ("Free Actions (related skills)", D10).',
)
D_RESOLVE_LUNGE_2 = _move(
    "Duel, round 2: the GM resolves the lunge against the difficulty set with it",
    {"type": "resolve", "round": 2, "roll": "r4"},
)

MOVE_EXAMPLES = [
    A_INITIATIVE_ANA,
    A_INITIATIVE_GOBLINS,
    A_DECLARE_ANA,
    A_WAIT_ANA,
    A_DECLARE_GOBLINS,
    A_ATTACK_GOBLINS,
    A_DODGE_ANA,
    A_SPEND_ANA,
    A_RESOLVE_ATTACK,
    A_END_INTERRUPT,
    A_END_ROUND,
    A_INITIATIVE_GOBLINS_2,
    A_INITIATIVE_ANA_2,
    A_END_GOBLINS_2,
    A_DECLARE_ANA_2,
    A_ATTACK_ANA_2,
    A_RESOLVE_ANA_2,
    A_END_SCENE,
    D_SET_ORDER,
    D_CLIMACTIC_BO,
    D_DECLARE_BO,
    D_ATTACK_BO,
    D_RESOLVE_BO,
    D_MOVE_UP_GUARD,
    D_DECLARE_GUARD,
    D_CATCH_GUARD,
    D_END_GUARD,
    D_END_BO,
    D_STUN_DUELIST,
    D_NEXT_ROUND,
    D_RECOVER_DUELIST,
    D_DECLARE_BO_2,
    D_VAULT_BO_2,
    D_RESOLVE_VAULT_2,
    D_END_BO_2,
    D_DECLARE_DUELIST_2,
    D_LUNGE_DUELIST_2,
    D_RESOLVE_LUNGE_2,
]


def _step(example: Example, role: str = "gm", **shows: Any) -> PlayStep:
    """A move; ``shows`` names members of the answer's scene (``current="goblins"``)."""
    return PlayStep(
        operation_id="openD6SceneMove",
        example=example,
        role=role,
        shows={f"/scene/{name}": value for name, value in shows.items()},
    )


SCENE_PLAYS = (
    ExamplePlay(
        summary="An ambush at the table's dice, two rounds",
        create_operation="openD6CreateScene",
        create=SCENE_EXAMPLES[0],
        steps=(
            _step(A_INITIATIVE_ANA, "ana"),
            _step(A_INITIATIVE_GOBLINS, phase="turns", current="ana-pc"),
            _step(A_DECLARE_ANA, "ana"),
            _step(A_WAIT_ANA, "ana", current="goblins"),
            _step(A_DECLARE_GOBLINS),
            _step(A_ATTACK_GOBLINS, acting=["goblins", "ana-pc"]),
            _step(A_DODGE_ANA, "ana", interrupting="ana-pc"),
            _step(A_SPEND_ANA, "ana"),
            _step(A_RESOLVE_ATTACK, pending=[]),
            _step(A_END_INTERRUPT, "ana", interrupting=None, current="goblins"),
            _step(A_END_ROUND, round=2, phase="initiative", elapsed_seconds=5),
            _step(A_INITIATIVE_GOBLINS_2),
            _step(A_INITIATIVE_ANA_2, "ana", current="goblins"),
            _step(A_END_GOBLINS_2, current="ana-pc"),
            _step(A_DECLARE_ANA_2, "ana"),
            _step(A_ATTACK_ANA_2, "ana"),
            _step(A_RESOLVE_ANA_2, pending=[]),
            _step(A_END_SCENE, status="ended", waiting_for=[]),
            PlayStep(operation_id="openD6GetScene", role="ana", shows={"/status": "ended"}),
            PlayStep(
                operation_id="openD6SceneRound",
                role="ana",
                path={"number": 1},
                shows={"/moves/10/move": "end_turn", "/moves/10/by": "gm"},
            ),
        ),
    ),
    ExamplePlay(
        summary="A duel in the GM's order, on the server's dice after both client seeds",
        create_operation="openD6CreateScene",
        create=SCENE_EXAMPLES[1],
        steps=(
            _step(D_SET_ORDER, current="bo-pc"),
            PlayStep(
                operation_id="openD6SceneClientSeed",
                example=CLIENT_SEED_EXAMPLES[0],
                shows={"/client_seeds/0/participant": "gm", "/awaiting_seeds": ["bo"]},
            ),
            _step(D_CLIMACTIC_BO, "bo"),
            _step(D_DECLARE_BO, "bo"),
            PlayStep(
                operation_id="openD6SceneClientSeed",
                example=CLIENT_SEED_EXAMPLES[1],
                role="bo",
                shows={"/awaiting_seeds": [], "/seeds_closed": False},
            ),
            _step(D_ATTACK_BO, "bo"),
            _step(D_RESOLVE_BO, pending=[]),
            _step(D_MOVE_UP_GUARD, interrupting="guard"),
            _step(D_DECLARE_GUARD),
            _step(D_CATCH_GUARD, pending=[]),
            _step(D_END_GUARD, interrupting=None, current="bo-pc"),
            _step(D_END_BO, current="duelist"),
            _step(D_STUN_DUELIST, current="guard"),
            _step(D_NEXT_ROUND, round=2, phase="turns", current="bo-pc"),
            _step(D_RECOVER_DUELIST),
            _step(D_DECLARE_BO_2, "bo"),
            _step(D_VAULT_BO_2, "bo"),
            _step(D_RESOLVE_VAULT_2, pending=[]),
            _step(D_END_BO_2, "bo", current="duelist"),
            _step(D_DECLARE_DUELIST_2),
            _step(D_LUNGE_DUELIST_2),
            _step(D_RESOLVE_LUNGE_2, pending=[]),
        ),
    ),
)
