"""A game's published examples: its creation, and every action of one whole game at the
table's dice, played in order by ``GAME_PLAYS`` (and replayed by the host's tests).

The game is the design's four-player table (Hugo, Annie, Archer, Vera): three batches,
Hugo caught at the second attention, Annie at the third, and Archer and Vera going for
broke. Beside the design's own 51 actions it shows the rest: Hugo first takes flag 4 and
puts it back, then hands it over in two steps; Vera renames her Angel. A second, short
game at the table's dice plays the first batch again with other dice, up to a flip (D15).
"""

from __future__ import annotations

from typing import Any

from litestar.openapi.spec import Example

from service.http.contract.registry import ExamplePlay, PlayStep
from service.rulesets.travelogue.api.examples import BULLSEYES

__all__ = ["ACTION_EXAMPLES", "CLIENT_SEED_EXAMPLES", "CREATE_EXAMPLES", "GAME_PLAYS"]

CREATE_EXAMPLES = [
    Example(
        summary="Four bullseyes, the table's dice",
        description="The design's table (D2: one group through shared shooters and beefs); "
        "every roll's faces come from the players.",
        value={"name": "Night train to Lisbon", "bullseyes": BULLSEYES, "dice_source": "table"},
    ),
    Example(
        summary="The server's seeded dice, flag kinds and a day to live",
        description="Every roll drawn from `(seed, i)` (D28), so the game replays; flags "
        "1–6 say Aim, 7–12 Ammo (D5).",
        value={
            "name": "Seeded chase",
            "bullseyes": BULLSEYES,
            "dice_source": "server",
            "seed": 7,
            "flag_kinds": ["aim"] * 6 + ["ammo"] * 6,
            "ttl_seconds": 86400,
        },
    ),
    Example(
        summary="The table's dice, for an hour",
        value={
            "name": "A short night",
            "bullseyes": BULLSEYES,
            "dice_source": "table",
            "ttl_seconds": 3600,
        },
    ),
    Example(
        summary="The server's provably fair dice, waiting for every player's seed",
        description="Unseeded server dice: the game publishes its commitment, then each "
        "player adds a client seed with its own token; no die is rolled before all four "
        "have (`await_client_seeds`).",
        value={
            "name": "Fair night train",
            "bullseyes": BULLSEYES,
            "dice_source": "server",
            "await_client_seeds": True,
        },
    ),
]

# The fair game's seeds, each added with its player's token, in seat order.
CLIENT_SEED_EXAMPLES = [
    Example(summary="Hugo's client seed", value={"seed": "hugo-h1"}),
    Example(summary="Annie's client seed", value={"seed": "annie_boat"}),
    Example(summary="Archer's client seed", value={"seed": "ARCHER-3"}),
    Example(summary="Vera's client seed", value={"seed": "vera-9"}),
]

# (role, example, what the answer's game then shows) in the order played.
_Played = tuple[str, Example, dict[str, Any]]
_PLAYED: list[_Played] = []


def _act(role: str, summary: str, body: dict[str, Any], **shows: Any) -> Example:
    example = Example(summary=summary, value=body)
    _PLAYED.append((role, example, shows))
    return example


def _reach(batch: int, reacher: str, flag: int, holder: str, ring: str, for_: str = "") -> None:
    """ "X n→Y: ring": Y accepts X's flag n onto X's ring."""
    body: dict[str, Any] = {"type": "take_flag", "flag": flag, "to": holder}
    whose = ""
    if for_:
        body["on_behalf_of"] = for_
        whose = f", for {for_.capitalize()}"
    _act(
        reacher,
        f"Batch {batch}: {reacher.capitalize()} reaches with flag {flag} to "
        f"{holder.capitalize()}{whose}",
        body,
    )
    _act(
        holder,
        f"Batch {batch}: {holder.capitalize()} accepts flag {flag} onto "
        f"{reacher.capitalize()}'s {ring.replace('_', ' ')}",
        {"type": "accept_flag", "ring": ring},
    )


def _pools(shooter: list[int], angel: list[int]) -> dict[str, list[int]]:
    return {"shooter": shooter, "angel": angel}


# Batch 1
_act("hugo", "Batch 1: Hugo takes flag 4 from the middle", {"type": "take_flag", "flag": 4})
_act("hugo", "Batch 1: Hugo puts flag 4 back (D10)", {"type": "return_flag"}, step="play")
_act("hugo", "Batch 1: Hugo takes flag 4 again", {"type": "take_flag", "flag": 4})
_act(
    "hugo",
    "Batch 1: Hugo hands flag 4 to Annie, for Annie (D8)",
    {"type": "hand_flag", "to": "annie", "on_behalf_of": "annie"},
    step="play.handed",
)
_act(
    "annie",
    "Batch 1: Annie accepts flag 4 onto Hugo's loved ones; her Angel gains",
    {"type": "accept_flag", "ring": "loved_ones"},
)
_reach(1, "annie", 1, "archer", "friends")
_act(
    "vera",
    "Vera renames her Angel (D27)",
    {"type": "rename_angel", "name": "A sleeper-car conductor"},
)
_reach(1, "archer", 2, "vera", "possessions")
_reach(1, "vera", 3, "hugo", "reputation")
_act(
    "archer",
    "Batch 1: Archer reaches with flag 5 to Annie",
    {"type": "take_flag", "flag": 5, "to": "annie"},
)
_act("annie", "Batch 1: Annie rejects flag 5", {"type": "reject_flag"}, middle=[5, 6])
_reach(1, "archer", 5, "annie", "loved_ones")
_reach(1, "vera", 6, "archer", "friends")
# Attention 1: die 4 → flag 4, Hugo's loved ones
_act(
    "annie",
    "Attention 1: Annie rolls the attention die, a 4",
    {"type": "roll_attention", "faces": 4},
    step="attention.pools",
)
_act(
    "hugo",
    "Attention 1: Hugo rolls his pools, [5, 6] and none",
    {"type": "roll_pools", "faces": _pools([5, 6], [])},
    step="attention.risk",
)
_act(
    "hugo",
    "Attention 1: Hugo buys out: 1 point, from Avoid (D14)",
    {"type": "buy_out"},
    step="attention.scene",
)
_act(
    "hugo",
    "Attention 1: Hugo closes the ring scene, with a note (D30)",
    {"type": "close_scene", "note": "The ledger's first page turns up."},
    step="moves.lower",
)
_act(
    "vera",
    "Attention 1: Vera moves flag 5 to Hugo's friends",
    {"type": "move_flag", "flag": 5, "to_bullseye": "hugo", "to_ring": "friends"},
    step="moves.upper",
)
_act(
    "hugo",
    "Attention 1: Hugo moves flag 1 to Archer's friends",
    {"type": "move_flag", "flag": 1, "to_bullseye": "archer", "to_ring": "friends"},
    step="play",
    batch=2,
)
# Batch 2
_reach(2, "hugo", 7, "annie", "reputation")
_reach(2, "hugo", 8, "archer", "possessions")
_reach(2, "annie", 9, "hugo", "friends")
_reach(2, "archer", 10, "vera", "loved_ones", "vera")
# Attention 2: die 3 + hot lead 4 → flag 7, Hugo caught
_act(
    "vera", "Attention 2: Vera rolls the attention die, a 3", {"type": "roll_attention", "faces": 3}
)
_act(
    "hugo",
    "Attention 2: Hugo rolls [2, 1] and [6]: caught",
    {"type": "roll_pools", "faces": _pools([2, 1], [6])},
)
_act("hugo", "Attention 2: Hugo closes the scene", {"type": "close_scene"})
_act(
    "annie",
    "Attention 2: Annie votes not to go for broke (D22)",
    {"type": "vote", "go_for_broke": False},
    step="departure.distribute",
)
_act(
    "hugo",
    "Attention 2: Hugo gives his Shooter's 2/2 to Annie (D24, D25)",
    {
        "type": "distribute",
        "allocations": [
            {"pool": "shooter_aim", "to": "annie", "points": 2},
            {"pool": "shooter_ammo", "to": "annie", "points": 2},
        ],
        "note": "Annie inherits the syndicate's attention.",
    },
)
_act("vera", "Attention 2: Vera passes her neighbour move (D19)", {"type": "pass"}, batch=3)
# Batch 3
_reach(3, "annie", 4, "archer", "reputation")
_reach(3, "annie", 5, "vera", "loved_ones")
_reach(3, "archer", 8, "hugo", "reputation")
_reach(3, "vera", 11, "annie", "possessions")
_reach(3, "vera", 12, "hugo", "loved_ones")
# Attention 3: die 2 + hot lead 7 → flag 9, Annie caught; the others go for broke
_act(
    "hugo", "Attention 3: Hugo rolls the attention die, a 2", {"type": "roll_attention", "faces": 2}
)
_ODDS_AT = len(_PLAYED)  # the game's odds are asked for here, before Annie's roll
_act(
    "annie",
    "Attention 3: Annie rolls [1, 2, 4] and [5, 6]: caught",
    {"type": "roll_pools", "faces": _pools([1, 2, 4], [5, 6])},
)
_act("annie", "Attention 3: Annie closes the scene", {"type": "close_scene"})
_act("archer", "Attention 3: Archer votes to go for broke", {"type": "vote", "go_for_broke": True})
_act(
    "vera",
    "Attention 3: Vera votes to go for broke too",
    {"type": "vote", "go_for_broke": True},
    step="departure.final",
)
_act(
    "archer",
    "Going for broke: Archer rolls [2] and [1, 4], escaped (D23, seat order)",
    {"type": "roll_final", "faces": _pools([2], [1, 4])},
)
_act(
    "vera",
    "Going for broke: Vera rolls [1] and [2, 5, 6], at large",
    {"type": "roll_final", "faces": _pools([1], [2, 5, 6])},
    status="ended",
    step="ended",
)

_FULL_GAME = list(_PLAYED)
_PLAYED.clear()

# The short game: six reaches, then die 2 → flag 2 (Ammo) on Archer's possessions; his
# Shooter's [5, 6] count nothing but sum 11, above Avoid 2 × Allies 2 (his Angel's [6]
# counts nothing either): at risk, and he lets the ring flip.
_SHORT = (
    ("annie", 1, "archer", "friends"),
    ("archer", 2, "vera", "possessions"),
    ("vera", 3, "hugo", "reputation"),
    ("hugo", 4, "annie", "loved_ones"),
    ("annie", 5, "vera", "reputation"),
    ("vera", 6, "archer", "loved_ones"),
)
for reacher, flag, holder, ring in _SHORT:
    _act(
        reacher,
        f"Short game: {reacher.capitalize()} reaches with flag {flag} to {holder.capitalize()}",
        {"type": "take_flag", "flag": flag, "to": holder},
    )
    _act(
        holder,
        f"Short game: {holder.capitalize()} accepts flag {flag} onto {reacher.capitalize()}'s "
        f"{ring.replace('_', ' ')}",
        {"type": "accept_flag", "ring": ring},
    )
_act(
    "vera",
    "Short game: Vera rolls the attention die, a 2",
    {"type": "roll_attention", "faces": 2},
    step="attention.pools",
)
_act(
    "archer",
    "Short game: Archer rolls [5, 6] and [6]: running, but cracking",
    {"type": "roll_pools", "faces": _pools([5, 6], [6])},
    step="attention.risk",
)
_act(
    "archer",
    "Short game: Archer lets his possessions flip (D15)",
    {"type": "let_flip"},
    step="attention.scene",
)
_SHORT_GAME = list(_PLAYED)

ACTION_EXAMPLES = [example for _, example, _ in [*_FULL_GAME, *_SHORT_GAME]]


def _step(role: str, example: Example, shows: dict[str, Any]) -> PlayStep:
    return PlayStep(
        operation_id="travelogueGameAction",
        example=example,
        role=role,
        shows={f"/game/{name}": value for name, value in shows.items()},
    )


_STEPS = [_step(role, example, shows) for role, example, shows in _FULL_GAME]

GAME_PLAYS = (
    ExamplePlay(
        summary="A whole game at the table's dice: every action",
        create_operation="travelogueCreateGame",
        create=CREATE_EXAMPLES[0],
        steps=(
            PlayStep(operation_id="travelogueGetGame", role="vera", shows={"/version": 1}),
            *_STEPS[:_ODDS_AT],
            PlayStep(operation_id="travelogueGameOdds", role="archer"),
            *_STEPS[_ODDS_AT:],
            PlayStep(
                operation_id="travelogueGetGame",
                role="hugo",
                shows={"/ending/reason": "went_for_broke", "/ending/fates/hugo": "caught"},
            ),
            PlayStep(
                operation_id="travelogueGameHistory",
                role="annie",
                shows={"/items/0/action/type": "take_flag", "/next_after": None},
            ),
            PlayStep(operation_id="travelogueGameStreamTicket", role="vera", status=201),
        ),
    ),
    ExamplePlay(
        summary="A first attention at the table's dice, up to a flip",
        create_operation="travelogueCreateGame",
        create=CREATE_EXAMPLES[2],
        steps=tuple(_step(role, example, shows) for role, example, shows in _SHORT_GAME),
    ),
    ExamplePlay(
        summary="The server's provably fair dice: the commitment, then every player's seed",
        create_operation="travelogueCreateGame",
        create=CREATE_EXAMPLES[3],
        steps=(
            *(
                PlayStep(
                    operation_id="travelogueGameClientSeed",
                    example=example,
                    role=player,
                    shows={f"/client_seeds/{n}/participant": player, "/rolls": 0},
                )
                for n, (player, example) in enumerate(
                    zip(("hugo", "annie", "archer", "vera"), CLIENT_SEED_EXAMPLES, strict=True)
                )
            ),
            PlayStep(
                operation_id="travelogueGetGame",
                role="annie",
                shows={
                    "/version": 5,
                    "/fairness/awaiting_seeds": [],
                    "/fairness/seeds_closed": False,
                },
            ),
        ),
    ),
    ExamplePlay(
        summary="The server's seeded dice",
        create_operation="travelogueCreateGame",
        create=CREATE_EXAMPLES[1],
        steps=(
            PlayStep(
                operation_id="travelogueGetGame",
                role="hugo",
                shows={"/seeded": True, "/waiting_for/dice_needed": None},
            ),
        ),
    ),
)
