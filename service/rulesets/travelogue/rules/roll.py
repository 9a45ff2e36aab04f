"""One roll of the pools outside a game: the book's steps 3–7 ("Rolling The Bones",
"Caught Or Escape") on the table's faces, a seed's dice or the server's.

The request's three parts (`shooter`, `angel`, `stats`) are also what the odds take
(:class:`PoolsRequest`), and :func:`draw_pools` is the one order server dice are drawn in
(the Shooter's, then the Angel's), in a game as here.
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta

from service.kernel.dice import RandomSource, dice_source
from service.kernel.errors import RulesError
from service.kernel.receipts import ReceiptWanted
from service.kernel.values import Value
from service.rulesets.travelogue.rules.faces import FACES, PoolFaces, check_pools
from service.rulesets.travelogue.rules.pools import Pools, resolve_pools
from service.rulesets.travelogue.rules.stats import Stats, Track

__all__ = ["MAX_SEED", "PoolsRequest", "PoolsRollRequest", "Seed", "draw_pools", "roll_pools"]

SIDES = 6
# D28: a seed is any non-negative signed 64-bit integer. Wider than the kernel's Seed
# (2^53 − 1, exact in a JavaScript number), which the other games keep publishing: a
# caller whose language rounds large numbers should stay below 2^53.
MAX_SEED = 2**63 - 1
Seed = Annotated[
    int,
    Meta(
        ge=0,
        le=MAX_SEED,
        description="A seed for reproducible server dice, 0 … 2^63−1 (D28); above 2^53−1 "
        "a JavaScript number no longer holds it exactly.",
        examples=[7],
    ),
]


class PoolsRequest(Value, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A bullseye's Shooter and Angel as they stand, and his stats (any that play can leave
    him with: 0…9 each, not necessarily summing to 9 after buy-outs)."""

    shooter: Annotated[Track, Meta(description="Aim: the highest face that counts; Ammo: dice.")]
    angel: Annotated[Track, Meta(description="The Angel's Aim and Ammo (0 dice is no roll).")]
    stats: Stats


class PoolsRollRequest(PoolsRequest, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The pools to roll, and whose dice: the table's `faces`, a `seed`'s, else the server's."""

    faces: (
        Annotated[
            PoolFaces,
            Meta(
                description="The table's dice: exactly Shooter Ammo faces under `shooter` "
                "and Angel Ammo under `angel`, each 1…6."
            ),
        ]
        | None
    ) = None
    seed: Seed | None = None
    with_odds: Annotated[
        bool,
        Meta(
            description="Also answer `odds`: exactly what `travelogueRollOdds` answers for "
            "these pools and stats (at most 30 dice a pool, else 422 `too-many-dice`)."
        ),
    ] = False
    receipt: ReceiptWanted = False


def draw_pools(rng: RandomSource, shooter_dice: int, angel_dice: int) -> PoolFaces:
    """Server dice for the pools: the Shooter's first, then the Angel's (D28's order)."""
    shooter = tuple(rng.randint(1, SIDES) for _ in range(shooter_dice))
    angel = tuple(rng.randint(1, SIDES) for _ in range(angel_dice))
    return PoolFaces(shooter=shooter, angel=angel)


def roll_pools(request: PoolsRollRequest, rng: RandomSource) -> Pools:
    """Steps 3–7 on the request's dice; ``rng`` rolls when neither faces nor seed is given.

    Raises:
        RulesError: `faces-and-seed`; the faces' checks (`faces-missing`, `faces-extra`,
            `face-out-of-range`).
    """
    shooter, angel = request.shooter, request.angel
    if request.faces is not None and request.seed is not None:
        raise RulesError.from_concerns(
            [
                FACES.faces_and_seed(
                    "Send the table's faces or a seed for the server's dice, not both."
                )
            ]
        )
    table = None
    if request.faces is not None:
        given = check_pools(request.faces, shooter.ammo, angel.ammo, "/faces")
        table = given.shooter + given.angel  # in rolling order: the Shooter's first
    faces = draw_pools(dice_source(rng, table, request.seed), shooter.ammo, angel.ammo)
    return resolve_pools(shooter, angel, request.stats, faces.shooter, faces.angel)
